// SPDX-License-Identifier: GPL-2.0
/*
 * vmalloc and vmap: the memory is usable and backed by distinct pages,
 * every area ends in a guard page that faults, unmapping really unmaps
 * (on every CPU: a stale TLB entry would let the access through), and all
 * pages come back.
 */
#include <linux/ktest.h>
#include <linux/mm.h>
#include <linux/vmalloc.h>
#include <linux/smp.h>
#include <asm/traps.h>
#include <asm/pgtable.h>
#include "page_alloc_test.h"

static unsigned long free_now(void)
{
	drain_all_pages(NULL);
	return nr_free_pages();
}

static void vmalloc_usable(struct ktest *t)
{
	unsigned long size = 5 * PAGE_SIZE + 100, nr = 6;
	struct vm_struct *vm;
	unsigned char *p = vmalloc(size);
	bool pattern_ok = true;

	KTEST_ASSERT_TRUE(t, p != NULL);
	KTEST_EXPECT_TRUE(t, is_vmalloc_addr(p));
	KTEST_EXPECT_TRUE(t, IS_ALIGNED((unsigned long)p, PAGE_SIZE));
	for (unsigned long i = 0; i < nr * PAGE_SIZE; i++)
		p[i] = (unsigned char)(i * 7 + 3);
	for (unsigned long i = 0; i < nr; i++) {
		struct page *page = vmalloc_to_page(p + i * PAGE_SIZE);
		const unsigned char *direct;

		KTEST_ASSERT_TRUE(t, page != NULL);
		for (unsigned long j = 0; j < i; j++)
			KTEST_EXPECT_NE(t, (unsigned long)vmalloc_to_page(p + j * PAGE_SIZE),
					(unsigned long)page);
		/* The same bytes through the direct map: a real alias. */
		direct = page_address(page);
		for (unsigned long j = 0; j < PAGE_SIZE; j++)
			if (direct[j] != (unsigned char)((i * PAGE_SIZE + j) * 7 + 3))
				pattern_ok = false;
		KTEST_EXPECT_EQ(t, page_ref_count(page), 1);
	}
	KTEST_EXPECT_TRUE(t, pattern_ok);
	vm = find_vm_area(p);
	KTEST_ASSERT_TRUE(t, vm != NULL);
	KTEST_EXPECT_EQ(t, vm->size, (nr + 1) * PAGE_SIZE);	/* guard included */
	KTEST_EXPECT_EQ(t, get_vm_area_size(vm), nr * PAGE_SIZE);
	KTEST_EXPECT_EQ(t, vm->nr_pages, nr);
	KTEST_EXPECT_EQ(t, (unsigned long)find_vm_area_containing(p + 3 * PAGE_SIZE + 5),
			(unsigned long)vm);
	KTEST_EXPECT_EQ(t, vmalloc_to_pfn(p), page_to_pfn(vmalloc_to_page(p)));
	vfree(p);
	KTEST_EXPECT_TRUE(t, find_vm_area(p) == NULL);
}

static void guard_page_faults(struct ktest *t)
{
	struct fault_record rec;
	unsigned char *p = vzalloc(3 * PAGE_SIZE);

	KTEST_ASSERT_TRUE(t, p != NULL);
	KTEST_EXPECT_EQ(t, p[3 * PAGE_SIZE - 1], 0);
	p[3 * PAGE_SIZE - 1] = 1;			/* last byte: fine */
	if (KTEST_EXPECT_FAULT(t, X86_TRAP_PF, &rec, p[3 * PAGE_SIZE] = 1)) {
		KTEST_EXPECT_EQ(t, rec.cr2, (unsigned long)p + 3 * PAGE_SIZE);
		KTEST_EXPECT_TRUE(t, rec.error_code & X86_PF_WRITE);
		KTEST_EXPECT_FALSE(t, rec.error_code & X86_PF_PROT);	/* not present */
	}
	if (KTEST_EXPECT_FAULT(t, X86_TRAP_PF, &rec,
			       (void)READ_ONCE(p[4 * PAGE_SIZE - 1])))
		KTEST_EXPECT_EQ(t, rec.cr2, (unsigned long)p + 4 * PAGE_SIZE - 1);
	vfree(p);
}

static volatile unsigned char *remote_probe;
static int remote_faulted[CONFIG_NR_CPUS];

/* Read through the mapping so the CPU caches the translation. */
static void remote_touch(void *info)
{
	(void)READ_ONCE(*remote_probe);
}

static void remote_read_after_free(void *info)
{
	struct fault_catcher fc;
	int cpu = smp_processor_id();

	remote_faulted[cpu] = 0;
	if (fault_catch(&fc, 1ULL << X86_TRAP_PF)) {
		remote_faulted[cpu] = fc.rec.cr2 == (unsigned long)remote_probe ? 1 : 2;
		return;
	}
	(void)READ_ONCE(*remote_probe);
	fault_catch_disarm(&fc);
}

static void vfree_unmaps_on_all_cpus(struct ktest *t)
{
	struct fault_record rec;
	unsigned long f0;
	unsigned char *p;
	int cpu;

	p = vmalloc(2 * PAGE_SIZE);		/* warm: descriptors, page tables */
	vfree(p);
	f0 = free_now();
	p = vmalloc(2 * PAGE_SIZE);
	KTEST_ASSERT_TRUE(t, p != NULL);
	memset(p, 0x42, 2 * PAGE_SIZE);
	remote_probe = p + PAGE_SIZE;
	on_each_cpu(remote_touch, NULL, 1);
	vfree(p);
	KTEST_EXPECT_EQ(t, free_now(), f0);
	if (KTEST_EXPECT_FAULT(t, X86_TRAP_PF, &rec, (void)READ_ONCE(p[10])))
		KTEST_EXPECT_EQ(t, rec.cr2, (unsigned long)p + 10);
	on_each_cpu(remote_read_after_free, NULL, 1);
	for_each_online_cpu(cpu)
		KTEST_EXPECT_EQ(t, remote_faulted[cpu], 1);
}

static void vmap_maps_callers_pages(struct ktest *t)
{
	struct page *pages[4], *tmp;
	struct fault_record rec;
	unsigned long *v;

	for (int i = 0; i < 4; i++) {
		pages[i] = alloc_page(GFP_KERNEL);
		KTEST_ASSERT_TRUE(t, pages[i] != NULL);
		*(unsigned long *)page_address(pages[i]) = 0x1000 + i;
	}
	/* Out of order on purpose: the mapping follows the array. */
	tmp = pages[1];
	pages[1] = pages[2];
	pages[2] = tmp;
	v = vmap(pages, 4, VM_MAP, PAGE_KERNEL);
	KTEST_ASSERT_TRUE(t, v != NULL);
	for (int i = 0; i < 4; i++) {
		unsigned long *word = (unsigned long *)((char *)v + i * PAGE_SIZE);

		KTEST_EXPECT_EQ(t, *word, 0x1000 + (i == 1 ? 2 : i == 2 ? 1 : i));
		KTEST_EXPECT_EQ(t, (unsigned long)vmalloc_to_page(word), (unsigned long)pages[i]);
		*word = 0x2000 + i;
	}
	vunmap(v);
	if (KTEST_EXPECT_FAULT(t, X86_TRAP_PF, &rec, (void)READ_ONCE(*v)))
		KTEST_EXPECT_EQ(t, rec.cr2, (unsigned long)v);
	/* The pages are still the caller's, with what was written through the map. */
	for (int i = 0; i < 4; i++) {
		KTEST_EXPECT_EQ(t, *(unsigned long *)page_address(pages[i]), 0x2000 + i);
		KTEST_EXPECT_EQ(t, page_ref_count(pages[i]), 1);
		__free_page(pages[i]);
	}
}

#define NAREAS	48

static void areas_disjoint_and_reused(struct ktest *t)
{
	static void *area[NAREAS];
	u64 seed = 0xa11ce5;
	unsigned long f0, lowest = ~0UL;
	void *again;

	/*
	 * Warm: the same areas once, so the page-table pages they need exist
	 * before f0 (vfree() keeps page tables, as Linux's does; where the
	 * areas land depends on how much of the vmalloc range boot used).
	 */
	for (int i = 0; i < NAREAS; i++) {
		area[i] = vmalloc((1 + pa_rand(&seed) % 8) * PAGE_SIZE);
		KTEST_ASSERT_TRUE(t, area[i] != NULL);
	}
	for (int i = 0; i < NAREAS; i++)
		vfree(area[i]);
	seed = 0xa11ce5;
	f0 = free_now();
	for (int i = 0; i < NAREAS; i++) {
		unsigned long pages = 1 + pa_rand(&seed) % 8;

		area[i] = vmalloc(pages * PAGE_SIZE);
		KTEST_ASSERT_TRUE(t, area[i] != NULL);
		memset(area[i], i, pages * PAGE_SIZE);
		lowest = min(lowest, (unsigned long)area[i]);
	}
	for (int i = 0; i < NAREAS; i++) {
		struct vm_struct *a = find_vm_area(area[i]);
		unsigned long as = (unsigned long)area[i];

		KTEST_ASSERT_TRUE(t, a != NULL);
		KTEST_EXPECT_EQ(t, *((unsigned char *)area[i] + get_vm_area_size(a) - 1), i);
		for (int j = 0; j < i; j++) {
			struct vm_struct *b = find_vm_area(area[j]);
			unsigned long bs = (unsigned long)area[j];

			/* Guard pages included, no two areas overlap. */
			KTEST_EXPECT_TRUE(t, as + a->size <= bs || bs + b->size <= as);
		}
	}
	for (int i = 0; i < NAREAS; i++) {
		int k = pa_rand(&seed) % (NAREAS - i);
		void *tmp = area[k];

		area[k] = area[NAREAS - i - 1];
		area[NAREAS - i - 1] = tmp;
		vfree(area[NAREAS - i - 1]);
	}
	/* First fit: the lowest address is free again and taken first. */
	again = vmalloc(PAGE_SIZE);
	KTEST_EXPECT_LE(t, (unsigned long)again, lowest);
	vfree(again);
	KTEST_EXPECT_EQ(t, free_now(), f0);
}

static void vfree_deferred_from_atomic(struct ktest *t)
{
	unsigned long flags;
	void *p = vmalloc(PAGE_SIZE), *q;

	KTEST_ASSERT_TRUE(t, p != NULL);
	local_irq_save(flags);
	vfree(p);		/* cannot flush TLBs here: deferred */
	local_irq_restore(flags);
	KTEST_EXPECT_TRUE(t, find_vm_area(p) != NULL);
	q = vmalloc(PAGE_SIZE);	/* a call that can flush finishes the job */
	KTEST_EXPECT_TRUE(t, find_vm_area(p) == NULL || p == q);
	vfree(q);
	KTEST_EXPECT_TRUE(t, find_vm_area(p) == NULL);
}

static void bad_vfree_reported(struct ktest *t)
{
	void *p = vmalloc(PAGE_SIZE);
	unsigned long warns;
	u64 mark;

	KTEST_ASSERT_TRUE(t, p != NULL);
	vfree(p);
	warns = taint_warn_count;
	mark = ktest_log_mark();
	vfree(p);
	KTEST_EXPECT_LOG(t, mark, "Trying to vfree() nonexistent vm area");
	mark = ktest_log_mark();
	vunmap((void *)(VMALLOC_START + 12345 * PAGE_SIZE));
	KTEST_EXPECT_LOG(t, mark, "Trying to vunmap() nonexistent vm area");
	KTEST_EXPECT_WARNINGS(t, warns, 2);
}

static void vmalloc_failure_cleans_up(struct ktest *t)
{
	struct page_list pl = { LIST_HEAD_INIT(pl.head), 0 };
	u64 mark;

	mark = ktest_log_mark();
	KTEST_EXPECT_TRUE(t, vmalloc(VMALLOC_TOTAL + PAGE_SIZE) == NULL);
	KTEST_EXPECT_LOG(t, mark, "vmap allocation for size");

	/*
	 * Leave only small pieces of memory free; a vmalloc() larger than
	 * that runs out of pages part way and must give them all back.  The
	 * page tables built on the way stay (kernel page tables are never
	 * freed), so the second, identical attempt must cost nothing.
	 */
	for (int order = MAX_ORDER - 1; order >= 4; order--)
		pa_grab_all(&pl, GFP_KERNEL, order);
	for (int attempt = 0; attempt < 2; attempt++) {
		unsigned long before = free_now(), tables;

		mark = ktest_log_mark();
		KTEST_EXPECT_TRUE(t, vmalloc(before * PAGE_SIZE + SZ_1M) == NULL);
		KTEST_EXPECT_LOG(t, mark, "vmalloc error: size");
		tables = before - free_now();
		if (attempt)
			KTEST_EXPECT_EQ(t, tables, 0);
		else
			KTEST_EXPECT_LE(t, tables, before / 512 + 4);
	}
	pa_release_all(&pl);
}

static void vmalloc_node_placement(struct ktest *t)
{
	int nid;

	if (nr_online_nodes < 2)
		ktest_skip(t, "needs 2 NUMA nodes");
	for_each_online_node(nid) {
		char *p = vmalloc_node(4 * PAGE_SIZE, nid);

		KTEST_ASSERT_TRUE(t, p != NULL);
		for (int i = 0; i < 4; i++)
			KTEST_EXPECT_EQ(t, page_to_nid(vmalloc_to_page(p + i * PAGE_SIZE)), nid);
		vfree(p);
	}
}

static struct ktest_case vmalloc_cases[] = {
	KTEST_CASE(vmalloc_usable),
	KTEST_CASE(guard_page_faults),
	KTEST_CASE(vfree_unmaps_on_all_cpus),
	KTEST_CASE(vmap_maps_callers_pages),
	KTEST_CASE(areas_disjoint_and_reused),
	KTEST_CASE(vfree_deferred_from_atomic),
	KTEST_CASE(bad_vfree_reported),
	KTEST_CASE(vmalloc_failure_cleans_up),
	KTEST_CASE(vmalloc_node_placement),
	{}
};

static struct ktest_suite vmalloc_suite = { .name = "vmalloc", .cases = vmalloc_cases };
ktest_register_suite(vmalloc_suite);
