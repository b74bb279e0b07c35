// SPDX-License-Identifier: GPL-2.0
/*
 * The running machine as the kernel sees it, for the boot matrix's memory
 * sizes, machines and CPU models: the firmware memory map's holes and
 * reserved ranges (above 4 GiB too) never became RAM, every RAM range did,
 * and the legacy 8259 PICs stay masked (interrupts come through the
 * IOAPIC; nothing needs the PIC).
 */
#include <linux/ktest.h>
#include <linux/memblock.h>
#include <asm/bootparam.h>
#include <asm/io.h>
#include <asm/page.h>

static bool in_ram_entry(u64 pa)
{
	for (u32 i = 0; i < boot_info.nr_mmap && i < BOOT_INFO_MAX_MMAP; i++) {
		const struct boot_mmap_entry *e = &boot_info.mmap[i];

		if (e->type == BOOT_MEM_RAM && pa >= e->addr && pa < e->addr + e->size)
			return true;
	}
	return false;
}

/* A page-aligned address inside [start, end), or 0 if the range has none. */
static u64 page_inside(u64 start, u64 end)
{
	u64 pa = ALIGN(start, PAGE_SIZE);

	return pa + PAGE_SIZE <= end ? pa : 0;
}

static void memory_map_holes(struct ktest *t)
{
	unsigned int ram = 0, other = 0, holes = 0, above4g_reserved = 0;

	for (u32 i = 0; i < boot_info.nr_mmap && i < BOOT_INFO_MAX_MMAP; i++) {
		const struct boot_mmap_entry *e = &boot_info.mmap[i];
		u64 pa = page_inside(e->addr, e->addr + e->size);

		if (!pa)
			continue;
		if (e->type == BOOT_MEM_RAM) {
			ram++;
			if (pa >= SZ_1M)	/* the ISA range is always mapped */
				KTEST_EXPECT_TRUE(t, memblock_is_memory(pa));
		} else if (!in_ram_entry(pa)) {
			other++;
			above4g_reserved += pa >= SZ_4G;
			KTEST_EXPECT_FALSE(t, memblock_is_memory(pa));
		}
	}
	/* Gaps between entries (the PCI hole below 4 GiB) are not RAM either. */
	for (u32 i = 0; i < boot_info.nr_mmap && i < BOOT_INFO_MAX_MMAP; i++) {
		const struct boot_mmap_entry *e = &boot_info.mmap[i];
		u64 end = e->addr + e->size, next = ~0ULL;

		for (u32 j = 0; j < boot_info.nr_mmap && j < BOOT_INFO_MAX_MMAP; j++)
			if (boot_info.mmap[j].addr >= end && boot_info.mmap[j].addr < next)
				next = boot_info.mmap[j].addr;
		if (next != ~0ULL && page_inside(end, next)) {
			holes++;
			KTEST_EXPECT_FALSE(t, memblock_is_memory(page_inside(end, next)));
		}
	}
	ktest_info(t, "%u RAM ranges, %u other ranges (%u above 4 GiB), %u holes",
		   ram, other, above4g_reserved, holes);
	KTEST_EXPECT_GT(t, ram, 0);
}

static void legacy_pic_masked(struct ktest *t)
{
	/* IMR reads: all masked (also what an absent PIC reads as). */
	KTEST_EXPECT_EQ(t, inb(0x21), 0xff);
	KTEST_EXPECT_EQ(t, inb(0xa1), 0xff);
}

static struct ktest_case hw_cases[] = {
	KTEST_CASE(memory_map_holes),
	KTEST_CASE(legacy_pic_masked),
	{}
};

static struct ktest_suite hw_suite = { .name = "hw", .cases = hw_cases };
ktest_register_suite(hw_suite);
