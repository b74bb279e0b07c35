// SPDX-License-Identifier: GPL-2.0
/*
 * slub_scope: the IRQ-off and preempt-off scope of each SLUB path, as
 * assertions (CONFIG_SLUB_SCOPE_PROBE, the *_stats configurations).
 *
 * Each case drives one path in one cache and reads the scope probes
 * (mm/slub_probe.c) that fired for that cache only.  A probe counts its
 * calls and how many ran with interrupts disabled (irqs_disabled()) and
 * with a non-zero preempt_count() (preemption disabled, a !RT spinlock
 * held, or hard/soft IRQ context).  Interrupts off alone is not counted
 * as preempt-off, as Linux's preemptoff tracer does not count it.
 *
 * Every case holds the figures against the table the port must match,
 * one column per kernel:
 *
 *	5.15		mm/slub.c, !PREEMPT_RT
 *	5.15-rt		mm/slub.c, PREEMPT_RT
 *	5.13		mm/slub_legacy.c, !PREEMPT_RT
 *	5.13-rt		mm/slub_legacy.c, PREEMPT_RT (5.13-rt's SLUB)
 *
 * with ALL (every call), NONE (no call) or ANY (not asserted) per share.
 * The cases run in a thread of their own (pinned where the path has to
 * stay on one CPU), which holds neither interrupts nor preemption off,
 * so the figures are the port's alone.  Documentation/slub.md has the
 * same table.
 */
#include <linux/ktest.h>
#include <linux/cpu.h>
#include <linux/slab.h>
#include <linux/slub_def.h>
#include <linux/mm.h>
#include <linux/gfp.h>
#include <linux/irqflags.h>
#include <linux/preempt.h>
#include "slub_test.h"

#ifdef CONFIG_SLUB_SCOPE_PROBE

enum scope_share { NONE, ALL, ANY };

struct scope_want {
	u8 irq, preempt;
};

/* Columns, in the order of the table above. */
enum { K_515, K_515_RT, K_513, K_513_RT, NR_KERNELS };

static const char *const kernel_names[NR_KERNELS] = {
	"5.15", "5.15-rt", "5.13", "5.13-rt",
};

static const char *const site_names[NR_SLUB_PROBE_SITES] = {
	[SLUB_PROBE_ALLOC_PAGES]	= "alloc pages",
	[SLUB_PROBE_FREE_PAGES]		= "free pages",
	[SLUB_PROBE_FLUSH]		= "flush_cpu_slab",
	[SLUB_PROBE_DEACTIVATE_WALK]	= "deactivate walk",
	[SLUB_PROBE_UNFREEZE]		= "unfreeze partials",
	[SLUB_PROBE_CPU_DEAD]		= "slub_cpu_dead",
	[SLUB_PROBE_SLOWPATH]		= "___slab_alloc",
	[SLUB_PROBE_PARTIAL_NODE]	= "get_partial_node",
	[SLUB_PROBE_BULK_ALLOC]		= "alloc_bulk loop",
	[SLUB_PROBE_SLAB_FREE]		= "__slab_free",
	[SLUB_PROBE_LOAD_FREELIST]	= "load_freelist",
	[SLUB_PROBE_PARTIAL_PUSH]	= "put_cpu_partial",
};

static int scope_kernel(void)
{
	return (IS_ENABLED(CONFIG_SLUB_LEGACY) ? K_513 : K_515) +
	       IS_ENABLED(CONFIG_PREEMPT_RT);
}

static const char *share_name(u8 share)
{
	return share == ALL ? "all" : share == NONE ? "none" : "any";
}

static void expect_share(struct ktest *t, const char *site, const char *what,
			 unsigned long got, unsigned long calls, u8 want)
{
	if (want == ALL && got != calls)
		ktest_fail(t, __FILE__, __LINE__,
			   "%s: %lu of %lu calls %s, the port wants all",
			   site, got, calls, what);
	if (want == NONE && got)
		ktest_fail(t, __FILE__, __LINE__,
			   "%s: %lu of %lu calls %s, the port wants none",
			   site, got, calls, what);
}

/*
 * Read @site and hold it against @want (indexed by kernel): at least
 * @min_calls calls, and the IRQ-off and preempt-off shares wanted.
 */
static void scope_expect(struct ktest *t, enum slub_probe_site site,
			 unsigned long min_calls,
			 const struct scope_want want[NR_KERNELS])
{
	const struct scope_want *w = &want[scope_kernel()];
	const char *name = site_names[site];
	struct slub_probe_stats st;

	slub_probe_read(site, &st);
	ktest_info(t, "%-17s %4lu calls, IRQs off %4lu (want %s), preempt off %4lu (want %s), hardirq %lu",
		   name, st.calls, st.irqs_off, share_name(w->irq),
		   st.preempt_off, share_name(w->preempt), st.hardirq);
	if (st.calls < min_calls)
		ktest_fail(t, __FILE__, __LINE__,
			   "%s: %lu calls, the case makes at least %lu",
			   name, st.calls, min_calls);
	expect_share(t, name, "with IRQs off", st.irqs_off, st.calls, w->irq);
	expect_share(t, name, "preempt-off", st.preempt_off, st.calls,
		     w->preempt);
}

#define W(i, p)	{ .irq = (i), .preempt = (p) }

/* The same on every kernel: the caller's context, nothing of SLUB's. */
static const struct scope_want free_ctx_all[NR_KERNELS] = {
	W(NONE, NONE), W(NONE, NONE), W(NONE, NONE), W(NONE, NONE),
};

/*
 * ___slab_alloc: 5.15 pins the task (preempt_disable on !RT,
 * migrate_disable on RT) and takes the local lock only in short
 * sections; 5.13 runs the whole slow path in local_irq_save().
 */
static const struct scope_want slowpath_want[NR_KERNELS] = {
	[K_515] = W(NONE, ALL), [K_515_RT] = W(NONE, NONE),
	[K_513] = W(ALL, NONE), [K_513_RT] = W(ALL, NONE),
};

/*
 * ___slab_alloc storing c->freelist: inside a local_lock_irqsave()
 * section in 5.15 (IRQ-off on !RT, where the task is also pinned; a
 * per-CPU spinlock_t on RT), inside the whole IRQ-off slow path in 5.13.
 */
static const struct scope_want load_freelist_want[NR_KERNELS] = {
	[K_515] = W(ALL, ALL), [K_515_RT] = W(NONE, NONE),
	[K_513] = W(ALL, NONE), [K_513_RT] = W(ALL, NONE),
};

/* The page allocator for a GFP_ATOMIC slab: IRQ-off in 5.13 only. */
static const struct scope_want atomic_pages_want[NR_KERNELS] = {
	[K_515] = W(NONE, NONE), [K_515_RT] = W(NONE, NONE),
	[K_513] = W(ALL, NONE), [K_513_RT] = W(NONE, NONE),
};

/* Common setup: a private cache whose empty slabs go straight back. */
static struct kmem_cache *scope_cache(struct ktest *t, const char *name,
				      unsigned int size, slab_flags_t flags)
{
	struct kmem_cache *s = slub_t_cache(t, name, size, 0,
					    SLUB_T_NOMERGE | flags, NULL);

	/* An empty slab is discarded where it is found, not kept. */
	s->min_partial = 0;
	return s;
}

static void scope_done(struct kmem_cache *s)
{
	slub_probe_reset();
	kmem_cache_destroy(s);
}

/* ------------------------------------------------ allocation slow path */

static void scope_alloc_slowpath_body(struct ktest *t)
{
	static void *p[256];
	struct kmem_cache *s = scope_cache(t, "slub-scope-alloc", 256, 0);
	unsigned int objs = oo_objects(s->oo);
	int n = min_t(int, 3 * objs, ARRAY_SIZE(p));

	KTEST_ASSERT_TRUE(t, !irqs_disabled() && !preempt_count());
	slub_probe_watch(s);
	for (int i = 0; i < n; i++)
		KTEST_ASSERT_TRUE(t, (p[i] = kmem_cache_alloc(s, GFP_KERNEL)));
	ktest_info(t, "GFP_KERNEL, %d objects, %u a slab", n, objs);
	scope_expect(t, SLUB_PROBE_SLOWPATH, n / objs, slowpath_want);
	scope_expect(t, SLUB_PROBE_LOAD_FREELIST, n / objs, load_freelist_want);
	scope_expect(t, SLUB_PROBE_ALLOC_PAGES, n / objs, free_ctx_all);
	for (int i = 0; i < n; i++)
		kmem_cache_free(s, p[i]);
	kmem_cache_shrink(s);

	slub_probe_watch(s);
	for (int i = 0; i < n; i++)
		KTEST_ASSERT_TRUE(t, (p[i] = kmem_cache_alloc(s, GFP_ATOMIC)));
	ktest_info(t, "GFP_ATOMIC, %d objects", n);
	scope_expect(t, SLUB_PROBE_SLOWPATH, n / objs, slowpath_want);
	scope_expect(t, SLUB_PROBE_ALLOC_PAGES, n / objs, atomic_pages_want);
	for (int i = 0; i < n; i++)
		kmem_cache_free(s, p[i]);
	scope_done(s);
}

/*
 * ___slab_alloc and the page allocator under it, GFP_KERNEL and
 * GFP_ATOMIC: slowpath_want and atomic_pages_want above.
 */
static void scope_alloc_slowpath(struct ktest *t)
{
	slub_t_run_pinned(t, 0, scope_alloc_slowpath_body);
}

/* ----------------------------------------------------- get_partial_node */

/*
 * Under list_lock, whose irqsave 5.15 takes itself and 5.13 inherits
 * from the slow path.  On 5.15-rt list_lock is a sleeping spinlock_t
 * (IRQs on, no preempt count) unless SLUB_RAW_LIST_LOCK makes it raw;
 * 5.13-rt's is raw.
 */
static const struct scope_want partial_node_want[NR_KERNELS] = {
	[K_515] = W(ALL, ALL),
#ifdef CONFIG_SLUB_RAW_LIST_LOCK
	[K_515_RT] = W(ALL, ALL),
#else
	[K_515_RT] = W(NONE, NONE),
#endif
	[K_513] = W(ALL, ALL), [K_513_RT] = W(ALL, ALL),
};

static void scope_partial_node_body(struct ktest *t)
{
	struct kmem_cache *s = scope_cache(t, "slub-scope-partial", 256, 0);
	void *x, *y;

	x = kmem_cache_alloc(s, GFP_KERNEL);
	KTEST_ASSERT_TRUE(t, x);
	/* x's slab, no longer a CPU slab, waits on the node list. */
	flush_all(s);
	slub_probe_watch(s);
	y = kmem_cache_alloc(s, GFP_KERNEL);
	KTEST_ASSERT_TRUE(t, y);
	KTEST_EXPECT_TRUE(t, virt_to_head_page(x) == virt_to_head_page(y));
	scope_expect(t, SLUB_PROBE_PARTIAL_NODE, 1, partial_node_want);
	kmem_cache_free(s, x);
	kmem_cache_free(s, y);
	scope_done(s);
}

static void scope_partial_node(struct ktest *t)
{
	slub_t_run_pinned(t, 0, scope_partial_node_body);
}

/* -------------------------------------- deactivate_slab from the slow path */

/*
 * A debug cache hands out one object per slow path and deactivates the
 * slab right there (return_single).  5.15 walks the freelist pinned
 * but with IRQs on; 5.13 inside the slow path's IRQ-off section.
 */
static const struct scope_want deactivate_slow_want[NR_KERNELS] = {
	[K_515] = W(NONE, ALL), [K_515_RT] = W(NONE, NONE),
	[K_513] = W(ALL, NONE), [K_513_RT] = W(ALL, NONE),
};

static void scope_deactivate_slowpath_body(struct ktest *t)
{
	enum { N = 8 };
	struct kmem_cache *s;
	void *p[N];

	s = scope_cache(t, "slub-scope-debug", 128, SLAB_CONSISTENCY_CHECKS);
	slub_probe_watch(s);
	for (int i = 0; i < N; i++)
		KTEST_ASSERT_TRUE(t, (p[i] = kmem_cache_alloc(s, GFP_KERNEL)));
	scope_expect(t, SLUB_PROBE_SLOWPATH, N, slowpath_want);
	scope_expect(t, SLUB_PROBE_DEACTIVATE_WALK, N, deactivate_slow_want);
	/* Each allocation after the first takes the slab from the node. */
	scope_expect(t, SLUB_PROBE_PARTIAL_NODE, N - 1, partial_node_want);
	for (int i = 0; i < N; i++)
		kmem_cache_free(s, p[i]);
	scope_done(s);
}

static void scope_deactivate_slowpath(struct ktest *t)
{
	if (!IS_ENABLED(CONFIG_SLUB_DEBUG))
		ktest_skip(t, "needs CONFIG_SLUB_DEBUG for a debug cache");
	slub_t_run_pinned(t, 0, scope_deactivate_slowpath_body);
}

/* ------------------------------------------------------- flush / drain */

/*
 * flush_all(): 5.15 and 5.13-rt queue a work item per CPU (thread
 * context, preemptible); 5.13 sends IPIs (hard-IRQ context, and the
 * local call with preemption and IRQs disabled).  5.13-rt's flush is
 * still one IRQ-off section, freelist walk included, but frees the
 * empty slabs after it.
 */
static const struct scope_want flush_want[NR_KERNELS] = {
	[K_515] = W(NONE, NONE), [K_515_RT] = W(NONE, NONE),
	[K_513] = W(ALL, ALL), [K_513_RT] = W(NONE, NONE),
};

static const struct scope_want flush_walk_want[NR_KERNELS] = {
	[K_515] = W(NONE, NONE), [K_515_RT] = W(NONE, NONE),
	[K_513] = W(ALL, ALL), [K_513_RT] = W(ALL, NONE),
};

static const struct scope_want flush_free_want[NR_KERNELS] = {
	[K_515] = W(NONE, NONE), [K_515_RT] = W(NONE, NONE),
	[K_513] = W(ALL, ALL), [K_513_RT] = W(NONE, NONE),
};

static void scope_cpu_slab_fn(void *arg, int idx, int cpu)
{
	struct kmem_cache *s = arg;
	void *p = kmem_cache_alloc(s, GFP_KERNEL);

	/* Back on the CPU freelist: an empty CPU slab stays. */
	if (p)
		kmem_cache_free(s, p);
}

/*
 * Every CPU holds an empty CPU slab; flush_all() deactivates each and,
 * min_partial being 0, gives its page back: flush_want, flush_walk_want
 * and flush_free_want above.
 */
static void scope_flush(struct ktest *t)
{
	static struct slub_crew crew;
	unsigned int cpus = num_online_cpus();
	struct kmem_cache *s = scope_cache(t, "slub-scope-flush", 64, 0);

	KTEST_ASSERT_TRUE(t, slub_crew_start(&crew, NULL, 0));
	slub_crew_run(&crew, scope_cpu_slab_fn, s);
	slub_crew_stop(&crew);
	slub_probe_watch(s);
	flush_all(s);
	scope_expect(t, SLUB_PROBE_FLUSH, cpus, flush_want);
	scope_expect(t, SLUB_PROBE_DEACTIVATE_WALK, cpus, flush_walk_want);
	scope_expect(t, SLUB_PROBE_FREE_PAGES, cpus, flush_free_want);
	scope_done(s);
}

/*
 * The put_cpu_partial() drain: 5.13 unfreezes the whole CPU partial list
 * and frees its empty slabs with preemption and IRQs off; 5.15 detaches
 * the list in a short local-lock section and unfreezes and frees from
 * __slab_free()'s context.  5.13-rt has no CPU partial lists.
 */
static const struct scope_want drain_want[NR_KERNELS] = {
	[K_515] = W(NONE, NONE), [K_515_RT] = W(NONE, NONE),
	[K_513] = W(ALL, ALL), [K_513_RT] = W(ANY, ANY),
};

/*
 * The push itself: 5.15 stores the new head under local_lock_irqsave()
 * (IRQ-off on !RT, called unpinned from __slab_free); 5.13 swaps it with
 * this_cpu_cmpxchg under preempt_disable(), IRQs on.
 */
static const struct scope_want partial_push_want[NR_KERNELS] = {
	[K_515] = W(ALL, NONE), [K_515_RT] = W(NONE, NONE),
	[K_513] = W(NONE, ALL), [K_513_RT] = W(ANY, ANY),
};

#define SCOPE_DRAIN_MAX	1024

static void scope_cpu_partial_drain_body(struct ktest *t)
{
	static void *p[SCOPE_DRAIN_MAX];
	struct kmem_cache *s = scope_cache(t, "slub-scope-drain", 1024, 0);
	unsigned int objs = oo_objects(s->oo);
	/* cpu_partial + 2 pushes of one free object each: one drains. */
	unsigned int slabs = slub_cpu_partial(s) + 3;
	unsigned int n = (slabs + 1) * objs;
	struct page *cpu_page;

	if (!kmem_cache_has_cpu_partial(s)) {
		kmem_cache_destroy(s);
		ktest_skip(t, "no CPU partial lists (5.13-rt or SLUB_CPU_PARTIAL=n)");
	}
	KTEST_ASSERT_TRUE(t, n <= SCOPE_DRAIN_MAX);
	for (unsigned int i = 0; i < n; i++)
		KTEST_ASSERT_TRUE(t, (p[i] = kmem_cache_alloc(s, GFP_KERNEL)));
	cpu_page = virt_to_head_page(p[n - 1]);

	/*
	 * Slab by slab (the objects of one slab are adjacent in p[]): the
	 * first free freezes the full slab onto c->partial, the others
	 * empty it there.  A push onto a list above cpu_partial objects
	 * drains it, and the empty slabs go back to the page allocator.
	 */
	slub_probe_watch(s);
	for (unsigned int i = 0; i < n; i++)
		if (virt_to_head_page(p[i]) != cpu_page)
			kmem_cache_free(s, p[i]);
	ktest_info(t, "%u slabs of %u objects, cpu_partial %u", slabs, objs,
		   slub_cpu_partial(s));
	scope_expect(t, SLUB_PROBE_SLAB_FREE, slabs, free_ctx_all);
	scope_expect(t, SLUB_PROBE_PARTIAL_PUSH, slabs, partial_push_want);
	scope_expect(t, SLUB_PROBE_UNFREEZE, 1, drain_want);
	scope_expect(t, SLUB_PROBE_FREE_PAGES, 1, drain_want);
	for (unsigned int i = 0; i < n; i++)
		if (virt_to_head_page(p[i]) == cpu_page)
			kmem_cache_free(s, p[i]);
	scope_done(s);
}

static void scope_cpu_partial_drain(struct ktest *t)
{
	slub_t_run_pinned(t, 0, scope_cpu_partial_drain_body);
}

/* --------------------------------------------------------------- bulk */

/*
 * kmem_cache_alloc_bulk: 5.13 disables IRQs for the whole loop, slow
 * paths included; 5.15 takes objects in a local_lock_irq() section
 * (IRQ-off on !RT, pinned by preempt_disable) and calls ___slab_alloc
 * outside it.  kmem_cache_free_bulk is unchanged: __slab_free runs in
 * the caller's context.
 */
static const struct scope_want bulk_want[NR_KERNELS] = {
	[K_515] = W(ALL, ALL), [K_515_RT] = W(NONE, NONE),
	[K_513] = W(ALL, NONE), [K_513_RT] = W(ALL, NONE),
};

/*
 * Pages the bulk free gives back: a whole slab freed at once is frozen
 * onto c->partial, and the push that finds the list above cpu_partial
 * drains it, emptied slabs included (drain_want); without CPU partial
 * lists (5.13-rt) __slab_free discards after dropping list_lock.
 */
static const struct scope_want bulk_free_pages_want[NR_KERNELS] = {
	[K_515] = W(NONE, NONE), [K_515_RT] = W(NONE, NONE),
	[K_513] = W(ALL, ALL), [K_513_RT] = W(NONE, NONE),
};

static void scope_bulk_body(struct ktest *t)
{
	static void *p[256];
	struct kmem_cache *s = scope_cache(t, "slub-scope-bulk", 256, 0);
	unsigned int objs = oo_objects(s->oo);
	int n = min_t(int, 3 * objs, ARRAY_SIZE(p));

	slub_probe_watch(s);
	KTEST_ASSERT_EQ(t, kmem_cache_alloc_bulk(s, GFP_KERNEL, n, p), n);
	scope_expect(t, SLUB_PROBE_BULK_ALLOC, 1, bulk_want);
	scope_expect(t, SLUB_PROBE_SLOWPATH, n / objs, slowpath_want);
	scope_expect(t, SLUB_PROBE_ALLOC_PAGES, n / objs, free_ctx_all);

	slub_probe_watch(s);
	kmem_cache_free_bulk(s, n, p);
	/* Every slab but the CPU slab is freed to by __slab_free. */
	scope_expect(t, SLUB_PROBE_SLAB_FREE, n / objs - 1, free_ctx_all);
	scope_expect(t, SLUB_PROBE_UNFREEZE, 0, drain_want);
	scope_expect(t, SLUB_PROBE_FREE_PAGES, 1, bulk_free_pages_want);
	scope_done(s);
}

static void scope_bulk(struct ktest *t)
{
	slub_t_run_pinned(t, 0, scope_bulk_body);
}

/* ------------------------------------------------------------- shrink */

/*
 * kmem_cache_shrink() after the flush: empty slabs are taken off the
 * node list under list_lock and freed after it, in both ports
 * (unchanged by the series).  A debug cache has no CPU partial lists,
 * so its emptied slabs wait on the node list (fewer than min_partial)
 * and the shrink is what frees them.
 */
static void scope_shrink_body(struct ktest *t)
{
	static void *p[128];
	struct kmem_cache *s = slub_t_cache(t, "slub-scope-shrink", 512, 0,
					    SLUB_T_NOMERGE | SLAB_CONSISTENCY_CHECKS,
					    NULL);
	unsigned int objs = oo_objects(s->oo);
	int n = min_t(int, 3 * objs, ARRAY_SIZE(p));

	for (int i = 0; i < n; i++)
		KTEST_ASSERT_TRUE(t, (p[i] = kmem_cache_alloc(s, GFP_KERNEL)));
	for (int i = 0; i < n; i++)
		kmem_cache_free(s, p[i]);
	slub_probe_watch(s);
	kmem_cache_shrink(s);
	scope_expect(t, SLUB_PROBE_FREE_PAGES, n / objs, free_ctx_all);
	scope_done(s);
}

static void scope_shrink(struct ktest *t)
{
	if (!IS_ENABLED(CONFIG_SLUB_DEBUG))
		ktest_skip(t, "needs CONFIG_SLUB_DEBUG for a debug cache");
	slub_t_run_pinned(t, 0, scope_shrink_body);
}

/* ------------------------------------------------------- slub_cpu_dead */

/*
 * CPUHP_SLUB_DEAD on the control CPU (a preemptible thread): 5.13 wraps
 * each cache's flush in local_irq_save(), page frees included (5.13-rt
 * frees after the section); 5.15 disables nothing.
 */
static const struct scope_want cpu_dead_want[NR_KERNELS] = {
	[K_515] = W(NONE, NONE), [K_515_RT] = W(NONE, NONE),
	[K_513] = W(ALL, NONE), [K_513_RT] = W(ALL, NONE),
};

static const struct scope_want cpu_dead_free_want[NR_KERNELS] = {
	[K_515] = W(NONE, NONE), [K_515_RT] = W(NONE, NONE),
	[K_513] = W(ALL, NONE), [K_513_RT] = W(NONE, NONE),
};

static void scope_cpu_dead(struct ktest *t)
{
	static struct slub_crew crew;
	unsigned int victim = cpumask_last(cpu_online_mask);
	struct kmem_cache *s;
	int cpus[1];

	if (victim == 0 || victim >= nr_cpu_ids)
		ktest_skip(t, "needs a second CPU");
	cpus[0] = victim;
	s = scope_cache(t, "slub-scope-dead", 64, 0);
	KTEST_ASSERT_TRUE(t, slub_crew_start(&crew, cpus, 1));
	slub_crew_run(&crew, scope_cpu_slab_fn, s);
	slub_crew_stop(&crew);
	KTEST_EXPECT_TRUE(t, per_cpu_ptr(s->cpu_slab, victim)->page != NULL);

	slub_probe_watch(s);
	KTEST_ASSERT_EQ(t, cpu_down(victim), 0);
	scope_expect(t, SLUB_PROBE_CPU_DEAD, 1, cpu_dead_want);
	scope_expect(t, SLUB_PROBE_DEACTIVATE_WALK, 1, cpu_dead_want);
	scope_expect(t, SLUB_PROBE_FREE_PAGES, 1, cpu_dead_free_want);
	slub_probe_reset();
	KTEST_EXPECT_EQ(t, cpu_up(victim), 0);
	scope_done(s);
}

/* -------------------------------------------------------------- suite */

static int slub_scope_init(struct ktest *t)
{
	if (IS_ENABLED(CONFIG_SLUB_NO_LOCAL_LOCK))
		ktest_info(t, "SLUB_NO_LOCAL_LOCK: the table is for the local-lock series");
	ktest_info(t, "kernel: %s (%s)", kernel_names[scope_kernel()],
		   IS_ENABLED(CONFIG_SLUB_LEGACY) ? "mm/slub_legacy.c" : "mm/slub.c");
	return 0;
}

static void slub_scope_exit(struct ktest *t)
{
	slub_probe_reset();
}

static struct ktest_case slub_scope_cases[] = {
	KTEST_CASE(scope_alloc_slowpath),
	KTEST_CASE(scope_partial_node),
	KTEST_CASE(scope_deactivate_slowpath),
	KTEST_CASE(scope_flush),
	KTEST_CASE(scope_cpu_partial_drain),
	KTEST_CASE(scope_bulk),
	KTEST_CASE(scope_shrink),
	KTEST_CASE(scope_cpu_dead),
	{}
};

static struct ktest_suite slub_scope_suite = {
	.name = "slub_scope", .cases = slub_scope_cases,
	.init = slub_scope_init, .exit = slub_scope_exit,
};
ktest_register_suite(slub_scope_suite);

#endif /* CONFIG_SLUB_SCOPE_PROBE */
