// SPDX-License-Identifier: GPL-2.0
/*
 * From head.S to start_kernel(): console first (so everything after can
 * complain), then the CPU's own tables, then the loader's data converted
 * into struct boot_info, then memory.
 */
#include <linux/kernel.h>
#include <linux/memblock.h>
#include <linux/serial_8250.h>
#include <linux/start_kernel.h>
#include <asm/bootparam.h>
#include <asm/desc.h>
#include <asm/fpu/api.h>
#include <asm/page.h>
#include <asm/processor.h>
#include <asm/sections.h>
#include <asm/spinlock.h>
#include <asm/stacktrace.h>
#include <asm/traps.h>
#include <asm/tsc.h>
#include <asm/io.h>

extern char boot_stack_guard[], boot_stack_bottom[], boot_stack_top[];

static const char *const mem_type_names[] = {
	[BOOT_MEM_RAM] = "usable", [BOOT_MEM_RESERVED] = "reserved",
	[BOOT_MEM_ACPI] = "ACPI data", [BOOT_MEM_NVS] = "ACPI NVS",
	[BOOT_MEM_UNUSABLE] = "unusable",
};

/* The legacy 8259s would deliver timer ticks on exception vectors: mask them. */
static void legacy_pic_mask(void)
{
	outb(0xff, 0xa1);
	outb(0xff, 0x21);
}

void setup_memory(void)
{
	struct boot_info *bi = &boot_info;
	u32 n = min_t(u32, bi->nr_mmap, BOOT_INFO_MAX_MMAP);

	if (bi->nr_mmap > BOOT_INFO_MAX_MMAP)
		pr_warn("setup: loader reported %u memory ranges, using the first %u\n",
			bi->nr_mmap, BOOT_INFO_MAX_MMAP);
	if (!n)
		panic("setup: the boot loader gave no memory map");
	for (u32 i = 0; i < n; i++) {
		struct boot_mmap_entry *e = &bi->mmap[i];
		char type[16];

		/* Unknown types (e.g. 20, persistent memory) are not RAM to us. */
		if (e->type < ARRAY_SIZE(mem_type_names) && mem_type_names[e->type])
			snprintf(type, sizeof(type), "%s", mem_type_names[e->type]);
		else
			snprintf(type, sizeof(type), "type %u", e->type);
		pr_info("BIOS-e820: [mem 0x%016llx-0x%016llx] %s\n",
			(unsigned long long)e->addr,
			(unsigned long long)(e->addr + e->size - 1), type);
		if (e->type == BOOT_MEM_RAM)
			memblock_add(e->addr, e->size);
	}
	/* Real-mode area (BIOS data, EBDA, the future AP trampoline). */
	memblock_reserve(0, SZ_1M);
	memblock_reserve(__pa_symbol(_text), (unsigned long)_end - (unsigned long)_text);
	if (bi->loader_data_end > bi->loader_data_start)
		memblock_reserve(ALIGN_DOWN(bi->loader_data_start, PAGE_SIZE),
				 ALIGN(bi->loader_data_end, PAGE_SIZE) -
				 ALIGN_DOWN(bi->loader_data_start, PAGE_SIZE));
	if (bi->rsdp)
		memblock_reserve(ALIGN_DOWN(bi->rsdp, PAGE_SIZE), PAGE_SIZE);
}

__noreturn void x86_64_start_kernel(unsigned long protocol, unsigned long info_pa)
{
	/* Per-CPU accesses use the template until setup_per_cpu_areas(). */
	wrmsr(MSR_GS_BASE, 0);
	serial8250_early_init(0x3f8, 115200);
	cpu_detect(&boot_cpu_data);
	native_pv_lock_init();	/* how contended spinlocks wait, before any CPU joins */

	register_stack("boot", (unsigned long)boot_stack_guard,
		       (unsigned long)boot_stack_bottom, (unsigned long)boot_stack_top);
	cpu_init_early();
	idt_setup();
	idt_load();
	legacy_pic_mask();
	fpu__init_cpu();

	switch (protocol) {
	case BOOT_PROTO_PVH:
		parse_pvh_start_info(&boot_info, info_pa);
		break;
	case BOOT_PROTO_EFI:
		parse_efi_handoff(&boot_info, info_pa);
		break;
	default:
		parse_multiboot2_info(&boot_info, info_pa);
		break;
	}

	tsc_early_init();
	start_kernel();
}
