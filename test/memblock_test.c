// SPDX-License-Identifier: GPL-2.0
/*
 * memblock on a private instance: merging, splitting, top-down placement,
 * alignment, reservation bookkeeping and running out.  Then a few checks
 * of the real instance that boot built.
 */
#include <linux/ktest.h>
#include <linux/memblock.h>
#include <linux/errno.h>
#include <asm/page.h>
#include <asm/bootparam.h>
#include <asm/sections.h>

#define TEST_REGIONS	8

static struct memblock_region mem_r[TEST_REGIONS], rsv_r[TEST_REGIONS];
static struct memblock tmb;

static int memblock_test_init(struct ktest *t)
{
	memset(mem_r, 0, sizeof(mem_r));
	memset(rsv_r, 0, sizeof(rsv_r));
	tmb = (struct memblock){
		.current_limit = MEMBLOCK_ALLOC_ANYWHERE,
		.memory = { .max = TEST_REGIONS, .regions = mem_r, .name = "memory" },
		.reserved = { .max = TEST_REGIONS, .regions = rsv_r, .name = "reserved" },
	};
	return 0;
}

#define EXPECT_REGION(t, type, i, b, s) do {				\
	KTEST_EXPECT_EQ(t, (type)->regions[i].base, b);			\
	KTEST_EXPECT_EQ(t, (type)->regions[i].size, s);			\
} while (0)

static void add_merges(struct ktest *t)
{
	struct memblock_type *m = &tmb.memory;

	memblock_add_range(m, 0x100000, 0x100000);
	memblock_add_range(m, 0x300000, 0x100000);
	KTEST_EXPECT_EQ(t, m->cnt, 2);
	/* Touching on the left of the second: merges with it only. */
	memblock_add_range(m, 0x280000, 0x80000);
	KTEST_EXPECT_EQ(t, m->cnt, 2);
	EXPECT_REGION(t, m, 1, 0x280000, 0x180000);
	/* Bridging both: one region. */
	memblock_add_range(m, 0x180000, 0x180000);
	KTEST_ASSERT_EQ(t, m->cnt, 1);
	EXPECT_REGION(t, m, 0, 0x100000, 0x300000);
	/* Fully inside: nothing changes. */
	memblock_add_range(m, 0x200000, 0x1000);
	KTEST_EXPECT_EQ(t, m->cnt, 1);
	KTEST_EXPECT_EQ(t, m->total_size, 0x300000);
}

static void remove_splits(struct ktest *t)
{
	struct memblock_type *m = &tmb.memory;

	memblock_add_range(m, 0x100000, 0x400000);
	KTEST_EXPECT_EQ(t, memblock_remove_range(m, 0x200000, 0x100000), 0);
	KTEST_ASSERT_EQ(t, m->cnt, 2);
	EXPECT_REGION(t, m, 0, 0x100000, 0x100000);
	EXPECT_REGION(t, m, 1, 0x300000, 0x200000);
	/* Across a gap and off both ends. */
	memblock_remove_range(m, 0x180000, 0x200000);
	KTEST_ASSERT_EQ(t, m->cnt, 2);
	EXPECT_REGION(t, m, 0, 0x100000, 0x80000);
	EXPECT_REGION(t, m, 1, 0x380000, 0x180000);
	KTEST_EXPECT_EQ(t, m->total_size, 0x200000);
}

static void reserve_free_roundtrip(struct ktest *t)
{
	struct memblock_type *r = &tmb.reserved;

	memblock_add_range(&tmb.memory, 0x100000, 0x1000000);
	memblock_add_range(r, 0x200000, 0x10000);
	memblock_add_range(r, 0x208000, 0x10000);	/* overlaps: merged */
	KTEST_ASSERT_EQ(t, r->cnt, 1);
	EXPECT_REGION(t, r, 0, 0x200000, 0x18000);
	/* Freeing the middle leaves two pieces, freeing them leaves none. */
	memblock_remove_range(r, 0x204000, 0x4000);
	KTEST_EXPECT_EQ(t, r->cnt, 2);
	memblock_remove_range(r, 0x200000, 0x4000);
	memblock_remove_range(r, 0x208000, 0x10000);
	KTEST_EXPECT_EQ(t, r->cnt, 0);
	KTEST_EXPECT_EQ(t, r->total_size, 0);
}

static void alloc_top_down_aligned(struct ktest *t)
{
	phys_addr_t a, b;

	memblock_add_range(&tmb.memory, 0x100000, 0x300000);	/* ends at 4 MiB */
	memblock_add_range(&tmb.reserved, 0x3ff000, 0x1000);	/* top page taken */
	a = __memblock_alloc_range(&tmb, 0x1000, 0x1000, 0, MEMBLOCK_ALLOC_ANYWHERE);
	KTEST_EXPECT_EQ(t, a, 0x3fe000);
	b = __memblock_alloc_range(&tmb, 0x10000, 0x100000, 0, MEMBLOCK_ALLOC_ANYWHERE);
	KTEST_EXPECT_EQ(t, b, 0x300000);			/* highest 1 MiB-aligned fit */
	/* Bounded range: below 2 MiB only. */
	a = __memblock_alloc_range(&tmb, 0x1000, 0x1000, 0, 0x200000);
	KTEST_EXPECT_EQ(t, a, 0x1ff000);
	/* Reservations recorded (3 allocations + the initial one, some merged). */
	KTEST_EXPECT_EQ(t, tmb.reserved.total_size, 0x1000 + 0x1000 + 0x10000 + 0x1000);
	/* Not a power of two: refused. */
	KTEST_EXPECT_EQ(t, __memblock_alloc_range(&tmb, 0x1000, 0x3000, 0, MEMBLOCK_ALLOC_ANYWHERE), 0);
}

static void alloc_exhaustion(struct ktest *t)
{
	unsigned int n = 0;

	memblock_add_range(&tmb.memory, 0x100000, 0x4000);
	while (__memblock_alloc_range(&tmb, 0x1000, 0x1000, 0, MEMBLOCK_ALLOC_ANYWHERE))
		n++;
	KTEST_EXPECT_EQ(t, n, 4);
	/* Freeing one page makes exactly that page available again. */
	memblock_remove_range(&tmb.reserved, 0x102000, 0x1000);
	KTEST_EXPECT_EQ(t, __memblock_alloc_range(&tmb, 0x1000, 0x1000, 0, MEMBLOCK_ALLOC_ANYWHERE), 0x102000);
	KTEST_EXPECT_EQ(t, __memblock_alloc_range(&tmb, 0x1000, 0x1000, 0, MEMBLOCK_ALLOC_ANYWHERE), 0);
}

static void region_table_full(struct ktest *t)
{
	u64 mark = ktest_log_mark();
	int err = 0;

	for (int i = 0; i < TEST_REGIONS + 1 && !err; i++)
		err = memblock_add_range(&tmb.memory, 0x100000 * (2 * i + 1), 0x1000);
	KTEST_EXPECT_EQ(t, err, -ENOMEM);
	KTEST_EXPECT_EQ(t, tmb.memory.cnt, TEST_REGIONS);
	KTEST_EXPECT_LOG(t, mark, "memblock: memory: no room for region");
}

static void free_range_walk(struct ktest *t)
{
	phys_addr_t s, e, sum = 0;
	unsigned int n = 0;
	u64 i = 0;

	memblock_add_range(&tmb.memory, 0x100000, 0x100000);
	memblock_add_range(&tmb.memory, 0x400000, 0x100000);
	memblock_add_range(&tmb.reserved, 0x180000, 0x300000);	/* spans the gap */
	while (memblock_next_free_range(&tmb, &i, &s, &e)) {
		n++;
		sum += e - s;
	}
	KTEST_EXPECT_EQ(t, n, 2);
	KTEST_EXPECT_EQ(t, sum, 0x80000 + 0x80000);
}

static void boot_memblock_state(struct ktest *t)
{
	phys_addr_t ram = 0;

	for (u32 i = 0; i < boot_info.nr_mmap && i < BOOT_INFO_MAX_MMAP; i++)
		if (boot_info.mmap[i].type == BOOT_MEM_RAM)
			ram += boot_info.mmap[i].size;
	KTEST_EXPECT_EQ(t, memblock_phys_mem_size(), ram);
	KTEST_EXPECT_TRUE(t, memblock_is_reserved(__pa_symbol(_text)));
	KTEST_EXPECT_TRUE(t, memblock_is_reserved(__pa_symbol(_end) - 1));
	KTEST_EXPECT_TRUE(t, memblock_is_reserved(0x9f000));
	KTEST_EXPECT_TRUE(t, memblock_is_memory(LOAD_PHYSICAL_ADDR));
}

static struct ktest_case memblock_cases[] = {
	KTEST_CASE(add_merges),
	KTEST_CASE(remove_splits),
	KTEST_CASE(reserve_free_roundtrip),
	KTEST_CASE(alloc_top_down_aligned),
	KTEST_CASE(alloc_exhaustion),
	KTEST_CASE(region_table_full),
	KTEST_CASE(free_range_walk),
	KTEST_CASE(boot_memblock_state),
	{}
};

static struct ktest_suite memblock_suite = {
	.name = "memblock", .cases = memblock_cases, .init = memblock_test_init,
};
ktest_register_suite(memblock_suite);
