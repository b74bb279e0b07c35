// SPDX-License-Identifier: GPL-2.0
/*
 * The dynamic per-CPU allocator: aligned, zeroed, one distinct copy per
 * CPU at the same offset in every CPU's unit, reachable by this_cpu_*()
 * through GS exactly like a static per-CPU variable (SLUB's cpu_slab and
 * its cmpxchg16b fast path depend on it), growing by chunks on demand.
 */
#include <linux/ktest.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <linux/irqflags.h>
#include <linux/vmalloc.h>
#include "page_alloc_test.h"

static bool all_zero(const void *p, size_t size)
{
	const unsigned char *c = p;

	for (size_t i = 0; i < size; i++)
		if (c[i])
			return false;
	return true;
}

static void aligned_distinct_zeroed(struct ktest *t)
{
	static const size_t aligns[] = { 1, 8, 16, 32, 64, 256, 4096 };

	for (unsigned int a = 0; a < ARRAY_SIZE(aligns); a++) {
		size_t align = aligns[a], size = 40;
		void __percpu *p = __alloc_percpu(size, align);
		unsigned long prev = 0;
		int cpu;

		KTEST_ASSERT_TRUE(t, p != NULL);
		for_each_possible_cpu(cpu) {
			unsigned long c = (unsigned long)per_cpu_ptr(p, cpu);

			KTEST_EXPECT_TRUE(t, IS_ALIGNED(c, max_t(size_t, align, 8)));
			KTEST_EXPECT_TRUE(t, all_zero((void *)c, size));
			KTEST_EXPECT_TRUE(t, is_percpu_unit_address(c));
			/* Same offset in every unit: copies exactly one stride apart. */
			if (prev)
				KTEST_EXPECT_EQ(t, c - prev, PCPU_UNIT_STRIDE);
			prev = c;
			memset((void *)c, 0xee, size);
		}
		free_percpu(p);
	}
}

/* SLUB's kmem_cache_cpu: freelist and tid swapped together by cmpxchg16b. */
struct fake_cpu_slab {
	void **freelist;
	unsigned long tid;
	void *page;
	unsigned long hits;
} __aligned(2 * sizeof(void *));

static struct fake_cpu_slab __percpu *cpu_slab;
static int op_ok[CONFIG_NR_CPUS];

static void this_cpu_ops_worker(void *info)
{
	int cpu = smp_processor_id();
	int ok = 1;

	ok &= this_cpu_ptr(cpu_slab) == per_cpu_ptr(cpu_slab, cpu);
	ok &= this_cpu_read(cpu_slab->tid) == 0;	/* zeroed */
	this_cpu_write(cpu_slab->tid, 1000 + cpu);
	this_cpu_inc(cpu_slab->hits);
	this_cpu_add(cpu_slab->hits, 9);
	ok &= this_cpu_add_return(cpu_slab->hits, 5) == 15;
	ok &= this_cpu_cmpxchg_double(cpu_slab->freelist, cpu_slab->tid,
				      NULL, 1000 + cpu, (void **)0xabc0, 2000 + cpu);
	/* Stale tid: must fail and change nothing. */
	ok &= !this_cpu_cmpxchg_double(cpu_slab->freelist, cpu_slab->tid,
				       (void **)0xabc0, 1000 + cpu, NULL, 0);
	op_ok[cpu] = ok;
}

static void this_cpu_ops_on_dynamic(struct ktest *t)
{
	int cpu;

	cpu_slab = alloc_percpu(struct fake_cpu_slab);
	KTEST_ASSERT_TRUE(t, cpu_slab != NULL);
	for_each_possible_cpu(cpu)
		KTEST_EXPECT_TRUE(t, IS_ALIGNED((unsigned long)&per_cpu_ptr(cpu_slab, cpu)->freelist,
						16));
	memset(op_ok, 0, sizeof(op_ok));
	on_each_cpu(this_cpu_ops_worker, NULL, 1);
	for_each_online_cpu(cpu) {
		struct fake_cpu_slab *c = per_cpu_ptr(cpu_slab, cpu);

		KTEST_EXPECT_EQ(t, op_ok[cpu], 1);
		KTEST_EXPECT_EQ(t, (unsigned long)c->freelist, 0xabc0);
		KTEST_EXPECT_EQ(t, c->tid, 2000 + cpu);
		KTEST_EXPECT_EQ(t, c->hits, 15);
	}
	free_percpu(cpu_slab);
}

static void freed_space_reused_zeroed(struct ktest *t)
{
	void __percpu *p = __alloc_percpu(64, 8), *q;
	int cpu;

	KTEST_ASSERT_TRUE(t, p != NULL);
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(p, cpu), 0xff, 64);
	free_percpu(p);
	q = __alloc_percpu(64, 8);
	KTEST_EXPECT_EQ(t, (unsigned long)q, (unsigned long)p);	/* first fit */
	for_each_possible_cpu(cpu)
		KTEST_EXPECT_TRUE(t, all_zero(per_cpu_ptr(q, cpu), 64));
	free_percpu(q);
}

#define NOBJ	200

static void many_objects_disjoint(struct ktest *t)
{
	static void __percpu *obj[NOBJ];
	static size_t size[NOBJ];
	u64 seed = 77;
	bool intact = true;
	int cpu;

	for (int i = 0; i < NOBJ; i++) {
		size[i] = 1 + pa_rand(&seed) % 200;
		obj[i] = __alloc_percpu(size[i], 1UL << (pa_rand(&seed) % 7));
		KTEST_ASSERT_TRUE(t, obj[i] != NULL);
		for_each_possible_cpu(cpu)
			memset(per_cpu_ptr(obj[i], cpu), (i + cpu) & 0xff, size[i]);
	}
	for (int i = 0; i < NOBJ; i++)
		for_each_possible_cpu(cpu) {
			const unsigned char *c = per_cpu_ptr(obj[i], cpu);

			for (size_t b = 0; b < size[i]; b++)
				if (c[b] != ((i + cpu) & 0xff))
					intact = false;
		}
	KTEST_EXPECT_TRUE(t, intact);
	for (int i = 0; i < NOBJ; i += 2)
		free_percpu(obj[i]);
	for (int i = 1; i < NOBJ; i += 2)
		free_percpu(obj[i]);
}

/* Filling the first chunk maps another one in every unit. */
static void chunks_grow_on_demand(struct ktest *t)
{
	unsigned int n = PCPU_CHUNK_SIZE / PAGE_SIZE + 2, chunks0 = pcpu_nr_chunks();
	void __percpu **objs = (void *)__get_free_pages(GFP_KERNEL, get_order(n * sizeof(*objs)));
	bool ok = true;
	int cpu;

	KTEST_ASSERT_TRUE(t, objs != NULL);
	for (unsigned int i = 0; i < n; i++) {
		objs[i] = __alloc_percpu(PAGE_SIZE, PAGE_SIZE);
		KTEST_ASSERT_TRUE(t, objs[i] != NULL);
		for_each_possible_cpu(cpu)
			*(unsigned int *)per_cpu_ptr(objs[i], cpu) = i * 1000 + cpu;
	}
	KTEST_EXPECT_GT(t, pcpu_nr_chunks(), chunks0);
	for (unsigned int i = 0; i < n; i++)
		for_each_possible_cpu(cpu)
			ok &= *(unsigned int *)per_cpu_ptr(objs[i], cpu) == i * 1000 + cpu;
	KTEST_EXPECT_TRUE(t, ok);
	/* A new chunk's memory is on the CPU's node, like the first one. */
	KTEST_EXPECT_EQ(t, page_to_nid(vmalloc_to_page(per_cpu_ptr(objs[n - 1], 0))),
			cpu_to_node(0));
	ktest_info(t, "%u chunks of %lu bytes after %u page-sized allocations",
		   pcpu_nr_chunks(), PCPU_CHUNK_SIZE, n);
	for (unsigned int i = 0; i < n; i++)
		free_percpu(objs[i]);
	free_pages((unsigned long)objs, get_order(n * sizeof(*objs)));
}

static void bad_requests_and_frees(struct ktest *t)
{
	unsigned long warns = taint_warn_count;
	void __percpu *p;
	u64 mark;

	mark = ktest_log_mark();
	KTEST_EXPECT_TRUE(t, __alloc_percpu(PCPU_CHUNK_SIZE + 8, 8) == NULL);
	KTEST_EXPECT_TRUE(t, __alloc_percpu(0, 8) == NULL);
	KTEST_EXPECT_TRUE(t, __alloc_percpu(8, 24) == NULL);
	KTEST_EXPECT_LOG(t, mark, "illegal size");

	p = __alloc_percpu(16, 16);
	KTEST_ASSERT_TRUE(t, p != NULL);
	free_percpu(p);
	mark = ktest_log_mark();
	free_percpu(p);
	KTEST_EXPECT_LOG(t, mark, "is not an allocated per-CPU pointer");
	mark = ktest_log_mark();
	free_percpu(&numa_node);	/* a static per-CPU variable */
	KTEST_EXPECT_LOG(t, mark, "is not an allocated per-CPU pointer");
	KTEST_EXPECT_WARNINGS(t, warns, 5);	/* each bad request and free warns */
	/*
	 * GFP_ATOMIC with interrupts off: served from mapped chunks.  Not on
	 * PREEMPT_RT, where pcpu_lock is a sleeping spinlock_t and atomic
	 * callers are not allowed (as in Linux): there only the no-sleep
	 * allocation from task context is checked.
	 */
	{
		unsigned long flags = 0;

		if (!IS_ENABLED(CONFIG_PREEMPT_RT))
			local_irq_save(flags);
		p = __alloc_percpu_gfp(32, 16, GFP_ATOMIC);
		if (!IS_ENABLED(CONFIG_PREEMPT_RT))
			local_irq_restore(flags);
		KTEST_EXPECT_TRUE(t, p != NULL);
		free_percpu(p);
	}
}

static struct ktest_case percpu_alloc_cases[] = {
	KTEST_CASE(aligned_distinct_zeroed),
	KTEST_CASE(this_cpu_ops_on_dynamic),
	KTEST_CASE(freed_space_reused_zeroed),
	KTEST_CASE(many_objects_disjoint),
	KTEST_CASE(chunks_grow_on_demand),
	KTEST_CASE(bad_requests_and_frees),
	{}
};

static struct ktest_suite percpu_alloc_suite = {
	.name = "percpu_alloc",
	.cases = percpu_alloc_cases,
};
ktest_register_suite(percpu_alloc_suite);
