// SPDX-License-Identifier: GPL-2.0
/*
 * The slub suite, part three: stat item invariants (CONFIG_SLUB_STATS),
 * slab geometry against an independent model of Linux 5.15's
 * calculate_order(), and the scope probes (CONFIG_SLUB_SCOPE_PROBE).
 */
#include <linux/ktest.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/gfp.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/cpumask.h>
#include <linux/moduleparam.h>
#include <linux/preempt.h>
#include <linux/irqflags.h>
#include "slub_test.h"
#include "../mm/slub.h"

/* ---------------------------------------------------------- stat items */

#ifdef CONFIG_SLUB_STATS
static void stat_snap(struct kmem_cache *s, unsigned long *v)
{
	for (int i = 0; i < NR_SLUB_STAT_ITEMS; i++)
		v[i] = slub_stat_sum(s, i);
}

static void stat_print(struct ktest *t, struct kmem_cache *s)
{
	char line[160];
	int len = 0;

	for (int i = 0; i < NR_SLUB_STAT_ITEMS; i++) {
		unsigned long v = slub_stat_sum(s, i);

		if (!v)
			continue;
		len += sniprintf(line + len, sizeof(line) - len, " %s=%lu",
				 slub_stat_names[i], v);
		if (len > 100) {
			ktest_info(t, "%s", line);
			len = 0;
		}
	}
	if (len)
		ktest_info(t, "%s", line);
}
#endif

/*
 * One CPU, a fresh cache, K single allocations over `slabs` slabs then
 * K frees newest first:
 *   ALLOC_FASTPATH + ALLOC_SLOWPATH == K, ALLOC_SLAB == slabs; on !RT
 *   the slow path runs once per slab (the rest come off c->freelist)
 *   and each used-up CPU slab is dropped without deactivation
 *   (DEACTIVATE_BYPASS == slabs - 1); on PREEMPT_RT every allocation
 *   takes the slow path (post-series only: 5.13-rt's SLUB_LEGACY fast
 *   path is the !RT one);
 *   FREE_FASTPATH + FREE_SLOWPATH == K, and exactly the CPU slab's
 *   objects are freed on the fast path; each full slab that gets a
 *   free goes to a partial list once (CPU_PARTIAL_FREE or
 *   FREE_ADD_PARTIAL);
 *   a shrink flushes the one CPU slab (CPUSLAB_FLUSH == 1).
 */
static void slub_stat_alloc_free_body(struct ktest *t)
{
#ifndef CONFIG_SLUB_STATS
	ktest_skip(t, "CONFIG_SLUB_STATS is off");
#else
	static void *p[512];
	static unsigned long v[NR_SLUB_STAT_ITEMS];
	struct kmem_cache *s;
	unsigned int objs;
	int k, slabs, last;

	s = slub_t_cache(t, "slub-t-stat", 128, 0, SLUB_T_NOMERGE, NULL);
	objs = oo_objects(s->oo);
	k = min_t(int, 3 * objs + objs / 3, ARRAY_SIZE(p));
	slabs = DIV_ROUND_UP(k, objs);
	last = k - (slabs - 1) * objs;
	stat_snap(s, v);
	for (int i = 0; i < NR_SLUB_STAT_ITEMS; i++)
		KTEST_EXPECT_EQ(t, v[i], 0);

	for (int i = 0; i < k; i++) {
		p[i] = kmem_cache_alloc(s, GFP_KERNEL);
		KTEST_ASSERT_TRUE(t, p[i] != NULL);
	}
	stat_snap(s, v);
	KTEST_EXPECT_EQ(t, v[ALLOC_FASTPATH] + v[ALLOC_SLOWPATH], k);
	KTEST_EXPECT_EQ(t, v[ALLOC_SLAB], slabs);
	KTEST_EXPECT_EQ(t, v[ORDER_FALLBACK], 0);
	KTEST_EXPECT_EQ(t, v[FREE_FASTPATH] + v[FREE_SLOWPATH], 0);
	if (IS_ENABLED(CONFIG_PREEMPT_RT) &&
	    !IS_ENABLED(CONFIG_SLUB_LEGACY)) {
		/* 5.13-rt's fast path stays lockless: !RT counts apply. */
		KTEST_EXPECT_EQ(t, v[ALLOC_SLOWPATH], k);
	} else {
		KTEST_EXPECT_EQ(t, v[ALLOC_SLOWPATH], slabs);
		KTEST_EXPECT_EQ(t, v[DEACTIVATE_BYPASS], slabs - 1);
	}
#ifdef CONFIG_SLUB_DEBUG
	KTEST_EXPECT_EQ(t, slub_t_slabs(s), slabs);
#endif

	for (int i = k - 1; i >= 0; i--)
		kmem_cache_free(s, p[i]);
	stat_snap(s, v);
	KTEST_EXPECT_EQ(t, v[FREE_FASTPATH] + v[FREE_SLOWPATH], k);
	KTEST_EXPECT_EQ(t, v[FREE_FASTPATH], last);
	KTEST_EXPECT_EQ(t, v[FREE_SLOWPATH], k - last);
	KTEST_EXPECT_EQ(t, v[CPU_PARTIAL_FREE] + v[FREE_ADD_PARTIAL], slabs - 1);
	if (!kmem_cache_has_cpu_partial(s))
		KTEST_EXPECT_EQ(t, v[CPU_PARTIAL_FREE], 0);
	/* Nothing else touched the cache's slabs. */
	KTEST_EXPECT_EQ(t, v[ALLOC_SLAB], slabs);
	KTEST_EXPECT_EQ(t, v[CPUSLAB_FLUSH], 0);

	kmem_cache_shrink(s);
	stat_snap(s, v);
	KTEST_EXPECT_EQ(t, v[CPUSLAB_FLUSH], 1);
	stat_print(t, s);
	slub_t_expect_empty(t, s, "stat");
	kmem_cache_destroy(s);
#endif
}

void slub_stat_alloc_free(struct ktest *t)
{
	slub_t_run_pinned(t, 0, slub_stat_alloc_free_body);
}

#ifdef CONFIG_SLUB_STATS
struct stat_remote {
	struct kmem_cache *s;
	void *p[512];
	int n;
	bool published;
	unsigned long fast_before, slow_before;
};

static void stat_remote_fn(void *arg, int idx, int cpu)
{
	struct stat_remote *sr = arg;

	if (idx == 0) {
		for (int i = 0; i < sr->n; i++)
			sr->p[i] = kmem_cache_alloc(sr->s, GFP_KERNEL);
		sr->fast_before = slub_stat_sum(sr->s, FREE_FASTPATH);
		sr->slow_before = slub_stat_sum(sr->s, FREE_SLOWPATH);
		smp_store_release(&sr->published, true);
	} else {
		ktest_wait_flag(&sr->published);
		for (int i = 0; i < sr->n; i++)
			if (sr->p[i])
				kmem_cache_free(sr->s, sr->p[i]);
	}
}
#endif

/*
 * Frees on a CPU that never allocated from the cache all take the slow
 * path (the object's slab is no CPU slab there).
 */
void slub_stat_remote_free(struct ktest *t)
{
#ifndef CONFIG_SLUB_STATS
	ktest_skip(t, "CONFIG_SLUB_STATS is off");
#else
	static struct stat_remote sr;
	static struct slub_crew crew;
	static const int cpus[] = { 0, 1 };
	int nulls = 0;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs two CPUs");
	memset(&sr, 0, sizeof(sr));
	sr.s = slub_t_cache(t, "slub-t-stat-remote", 64, 0, SLUB_T_NOMERGE, NULL);
	sr.n = min_t(int, 2 * oo_objects(sr.s->oo) + 3, ARRAY_SIZE(sr.p));
	KTEST_ASSERT_TRUE(t, slub_crew_start(&crew, cpus, 2));
	slub_crew_run(&crew, stat_remote_fn, &sr);
	slub_crew_stop(&crew);
	for (int i = 0; i < sr.n; i++)
		nulls += !sr.p[i];
	KTEST_EXPECT_EQ(t, nulls, 0);
	KTEST_EXPECT_EQ(t, sr.fast_before + sr.slow_before, 0);
	KTEST_EXPECT_EQ(t, slub_stat_sum(sr.s, FREE_SLOWPATH), sr.n);
	KTEST_EXPECT_EQ(t, slub_stat_sum(sr.s, FREE_FASTPATH), 0);
	KTEST_EXPECT_EQ(t, slub_stat_sum(sr.s, ALLOC_FASTPATH) +
			   slub_stat_sum(sr.s, ALLOC_SLOWPATH), sr.n);
	slub_t_expect_empty(t, sr.s, "stat remote");
	kmem_cache_destroy(sr.s);
#endif
}

/* ------------------------------------------------------------ geometry */

/*
 * An independent model of Linux 5.15's slab sizing (slab_order() and
 * calculate_order() in mm/slub.c): the smallest order that fits at
 * least min_objects objects and wastes at most 1/16 of the slab, with
 * the waste allowed to grow to 1/8 and 1/4 and then min_objects to
 * shrink; failing that one object per slab up to slub_max_order, then up
 * to MAX_ORDER.  min_objects defaults to 4 * (fls(cpus) + 1), cpus being
 * the present CPUs (nr_cpu_ids when only one is present).
 */
#define REF_MAX_OBJS_PER_PAGE	32767

struct slub_geometry_params {
	unsigned int min_order, max_order, min_objects;
};

static unsigned int param_uint(const char *name, unsigned int dflt)
{
	const struct kernel_param *kp =
		find_kernel_param(__start___param, __stop___param - __start___param, name);

	return kp && kp->arg ? *(unsigned int *)kp->arg : dflt;
}

static void ref_params(struct slub_geometry_params *g)
{
	unsigned int cpus = cpumask_weight(cpu_present_mask);

	if (cpus <= 1)
		cpus = nr_cpu_ids;
	g->min_order = param_uint("slub_min_order", 0);
	g->max_order = param_uint("slub_max_order", PAGE_ALLOC_COSTLY_ORDER);
	g->min_objects = param_uint("slub_min_objects", 0);
	if (!g->min_objects)
		g->min_objects = 4 * (fls64(cpus) + 1);
}

static unsigned int ref_objects(unsigned int order, unsigned int size)
{
	return (PAGE_SIZE << order) / size;
}

/* First order from the lower bound whose leftover is within 1/@fract. */
static unsigned int ref_slab_order(const struct slub_geometry_params *g,
				   unsigned int size, unsigned int min_objects,
				   unsigned int max_order, unsigned int fract)
{
	unsigned int order;

	if (ref_objects(g->min_order, size) > REF_MAX_OBJS_PER_PAGE)
		return get_order(size * REF_MAX_OBJS_PER_PAGE) - 1;
	order = max_t(unsigned int, g->min_order, get_order(min_objects * size));
	for (; order <= max_order; order++) {
		unsigned long bytes = PAGE_SIZE << order;

		if (bytes % size <= bytes / fract)
			break;
	}
	return order;
}

static int ref_order(const struct slub_geometry_params *g, unsigned int size)
{
	unsigned int want = min(g->min_objects, ref_objects(g->max_order, size));
	unsigned int order;

	for (; want > 1; want--) {
		for (unsigned int fract = 16; fract >= 4; fract /= 2) {
			order = ref_slab_order(g, size, want, g->max_order, fract);
			if (order <= g->max_order)
				return order;
		}
	}
	order = ref_slab_order(g, size, 1, g->max_order, 1);
	if (order <= g->max_order)
		return order;
	order = ref_slab_order(g, size, 1, MAX_ORDER, 1);
	return order < MAX_ORDER ? (int)order : -1;
}

/* set_min_partial() and set_cpu_partial() of Linux 5.15. */
static unsigned long ref_min_partial(unsigned int size)
{
	unsigned long min = ilog2(size) / 2;

	if (min < MIN_PARTIAL)
		return MIN_PARTIAL;
	return min > MAX_PARTIAL ? MAX_PARTIAL : min;
}

static unsigned int ref_cpu_partial(struct kmem_cache *s)
{
	if (!kmem_cache_has_cpu_partial(s))
		return 0;
	if (s->size >= PAGE_SIZE)
		return 2;
	if (s->size >= 1024)
		return 6;
	if (s->size >= 256)
		return 13;
	return 30;
}

static int check_geometry(struct ktest *t, const struct slub_geometry_params *g,
			  struct kmem_cache *s)
{
	int order = ref_order(g, s->size);
	unsigned int want_objs = order >= 0 ? ref_objects(order, s->size) : 0;
	int bad = 0;

	ktest_info(t, "%-18s size %5u object_size %5u order %u objects %3u (model: order %d objects %u)",
		   s->name, s->size, s->object_size, oo_order(s->oo),
		   oo_objects(s->oo), order, want_objs);
	if ((int)oo_order(s->oo) != order || oo_objects(s->oo) != want_objs) {
		ktest_fail(t, __FILE__, __LINE__,
			   "%s: order %u objects %u, calculate_order() gives order %d objects %u",
			   s->name, oo_order(s->oo), oo_objects(s->oo), order, want_objs);
		bad++;
	}
	/* The fallback is the smallest order that holds one object. */
	if (oo_order(s->min) != (unsigned int)get_order(s->size) ||
	    oo_objects(s->min) != ref_objects(get_order(s->size), s->size)) {
		ktest_fail(t, __FILE__, __LINE__, "%s: min order %u objects %u",
			   s->name, oo_order(s->min), oo_objects(s->min));
		bad++;
	}
	if (oo_objects(s->max) < oo_objects(s->oo)) {
		ktest_fail(t, __FILE__, __LINE__, "%s: max objects %u < %u",
			   s->name, oo_objects(s->max), oo_objects(s->oo));
		bad++;
	}
	if (s->min_partial != ref_min_partial(s->size)) {
		ktest_fail(t, __FILE__, __LINE__, "%s: min_partial %lu, expected %lu",
			   s->name, s->min_partial, ref_min_partial(s->size));
		bad++;
	}
#ifdef CONFIG_SLUB_CPU_PARTIAL
	if (s->cpu_partial != ref_cpu_partial(s)) {
		ktest_fail(t, __FILE__, __LINE__, "%s: cpu_partial %u, expected %u",
			   s->name, s->cpu_partial, ref_cpu_partial(s));
		bad++;
	}
#else
	(void)ref_cpu_partial;
#endif
	return bad;
}

/*
 * Every kmalloc cache: object_size is its class, the object plus any
 * debug metadata is s->size, power-of-two classes are aligned to their
 * size, and order/objects are what calculate_order() gives for the CPUs
 * present (so they differ between the smp1, smp2 and smp4 entries).
 */
void slub_geometry_kmalloc(struct ktest *t)
{
	struct slub_geometry_params g;
	int caches = 0;

	if (IS_ENABLED(CONFIG_KASAN))
		ktest_skip(t, "KASAN's metadata and red zones make the slots bigger than the size class");

	ref_params(&g);
	ktest_info(t, "%u CPUs present, nr_cpu_ids %u: min_objects %u, orders %u..%u",
		   cpumask_weight(cpu_present_mask), nr_cpu_ids, g.min_objects,
		   g.min_order, g.max_order);
	for (int type = 0; type < NR_KMALLOC_TYPES; type++) {
		for (int i = 1; i <= KMALLOC_SHIFT_HIGH; i++) {
			struct kmem_cache *s = kmalloc_caches[type][i];
			unsigned int class = i == 1 ? 96 : i == 2 ? 192 : 1U << i;

			if (i > 2 && i < KMALLOC_SHIFT_LOW)
				continue;
			if (!s) {
				if (type == KMALLOC_NORMAL)
					ktest_fail(t, __FILE__, __LINE__,
						   "no kmalloc cache for index %d", i);
				continue;
			}
			caches++;
			KTEST_EXPECT_EQ(t, s->object_size, class);
			KTEST_EXPECT_GE(t, s->size, class);
			if (!(s->flags & (SLAB_RED_ZONE | SLAB_POISON | SLAB_STORE_USER)))
				KTEST_EXPECT_EQ(t, s->size, class);
			if (is_power_of_2(class))
				KTEST_EXPECT_GE(t, s->align, class);
			check_geometry(t, &g, s);
		}
	}
	KTEST_EXPECT_GE(t, caches, KMALLOC_SHIFT_HIGH - KMALLOC_SHIFT_LOW + 3);
}

/* Private caches of awkward sizes, and with debug metadata. */
void slub_geometry_private(struct ktest *t)
{
	static const unsigned int sizes[] = { 8, 24, 56, 200, 424, 700, 1500, 2100,
					      3000, 5000, 12000, 40000 };
	struct slub_geometry_params g;

	ref_params(&g);
	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		for (int dbg = 0; dbg < (IS_ENABLED(CONFIG_SLUB_DEBUG) ? 2 : 1); dbg++) {
			struct kmem_cache *s;
			void *p;

			s = slub_t_cache(t, "slub-t-geometry", sizes[i], 0,
					 dbg ? SLUB_T_DEBUG_FLAGS : SLUB_T_NOMERGE,
					 NULL);
			if (dbg)
				KTEST_EXPECT_GT(t, s->size, s->object_size);
			check_geometry(t, &g, s);
			/* And a slab of that shape really holds that many. */
			p = kmem_cache_alloc(s, GFP_KERNEL);
			KTEST_EXPECT_TRUE(t, p != NULL);
			if (p) {
				struct page *page = virt_to_head_page(p);

				KTEST_EXPECT_EQ(t, page->objects, oo_objects(s->oo));
				KTEST_EXPECT_EQ(t, compound_order(page), oo_order(s->oo));
				kmem_cache_free(s, p);
			}
			kmem_cache_destroy(s);
		}
	}
}

/* --------------------------------------------------------- scope probes */

#ifdef CONFIG_SLUB_SCOPE_PROBE
static void probe_report(struct ktest *t, const char *what, enum slub_probe_site site,
			 struct slub_probe_stats *st)
{
	slub_probe_read(site, st);
	ktest_info(t, "%s: %lu calls, %lu with IRQs off, %lu atomic", what,
		   st->calls, st->irqs_off, st->preempt_off);
}

static void slub_probe_alloc_slabs(struct ktest *t, gfp_t gfp, const char *what,
				   bool irqs_off)
{
	static void *p[256];
	struct slub_probe_stats st;
	struct kmem_cache *s = slub_t_cache(t, "slub-t-probe", 256, 0,
					    SLUB_T_NOMERGE, NULL);
	int n = min_t(int, 4 * oo_objects(s->oo), ARRAY_SIZE(p)), got = 0;

	/* Nothing on this thread holds IRQs or preemption off. */
	KTEST_ASSERT_TRUE(t, !irqs_disabled());
	slub_probe_reset();
	for (int i = 0; i < n; i++)
		got += !!(p[i] = kmem_cache_alloc(s, gfp));
	KTEST_EXPECT_EQ(t, got, n);
	/* A bulk allocation that needs new slabs too. */
	for (int i = 0; i < got; i++)
		kmem_cache_free(s, p[i]);
	kmem_cache_shrink(s);
	KTEST_EXPECT_EQ(t, kmem_cache_alloc_bulk(s, gfp, n, p), n);
	probe_report(t, what, SLUB_PROBE_ALLOC_PAGES, &st);
	/* Four slabs from single allocations, four more from the bulk one. */
	KTEST_EXPECT_GE(t, st.calls, 8);
	if (irqs_off)
		KTEST_EXPECT_EQ(t, st.irqs_off, st.calls);
	else
		KTEST_EXPECT_EQ(t, st.irqs_off, 0);
	KTEST_EXPECT_EQ(t, st.preempt_off, 0);
	KTEST_EXPECT_EQ(t, st.hardirq, 0);
	kmem_cache_free_bulk(s, n, p);
	kmem_cache_destroy(s);
}
#endif

#ifdef CONFIG_SLUB_SCOPE_PROBE
static void probe_cpu_slab_fn(void *arg, int idx, int cpu)
{
	struct kmem_cache *s = arg;
	void *p = kmem_cache_alloc(s, GFP_KERNEL);

	if (p)
		kmem_cache_free(s, p);
}
#endif

/*
 * After the series the page allocator is always entered with IRQs on
 * and preemptible, GFP_ATOMIC included (from a preemptible caller).
 * Pre-series (CONFIG_SLUB_LEGACY) on !RT, allocate_slab() turns IRQs
 * back on only for blocking gfp: GFP_ATOMIC slabs come from the page
 * allocator IRQ-off (not preempt-off: IRQ disabling does not count in
 * preempt_count()).  5.13-rt enters it with IRQs on for every gfp.
 */
void slub_probe_alloc_pages(struct ktest *t)
{
#ifndef CONFIG_SLUB_SCOPE_PROBE
	ktest_skip(t, "CONFIG_SLUB_SCOPE_PROBE is off");
#else
	bool atomic_irqs_off = IS_ENABLED(CONFIG_SLUB_LEGACY) &&
			       !IS_ENABLED(CONFIG_PREEMPT_RT);

	slub_probe_alloc_slabs(t, GFP_KERNEL, "GFP_KERNEL", false);
	slub_probe_alloc_slabs(t, GFP_ATOMIC, "GFP_ATOMIC", atomic_irqs_off);
#endif
}

/*
 * flush_all() runs the per-CPU flush as a work item (thread context,
 * IRQs on, preemptible on the way in), and deactivate_slab() walks the
 * detached freelist with IRQs on.
 *
 * Pre-series on !RT the flush is an IPI: hard-IRQ context on every other
 * CPU, and on the calling CPU on_each_cpu_cond() runs it directly with
 * IRQs disabled (as Linux does), so all calls but one are hardirq.  On
 * 5.13-rt it is a work item again, but the flush itself, freelist walk
 * included, is an IRQ-off section there too.
 */
void slub_probe_flush_deactivate(struct ktest *t)
{
#ifndef CONFIG_SLUB_SCOPE_PROBE
	ktest_skip(t, "CONFIG_SLUB_SCOPE_PROBE is off");
#else
	static struct slub_crew crew;
	struct slub_probe_stats fl, walk;
	struct kmem_cache *s;

	bool ipi = IS_ENABLED(CONFIG_SLUB_LEGACY) &&
		   !IS_ENABLED(CONFIG_PREEMPT_RT);

	s = slub_t_cache(t, "slub-t-probe-flush", 64, 0, SLUB_T_NOMERGE, NULL);
	/* A CPU slab with free objects on every CPU. */
	KTEST_ASSERT_TRUE(t, slub_crew_start(&crew, NULL, 0));
	slub_crew_run(&crew, probe_cpu_slab_fn, s);
	slub_crew_stop(&crew);
	slub_probe_reset();
	kmem_cache_shrink(s);
	probe_report(t, "flush", SLUB_PROBE_FLUSH, &fl);
	probe_report(t, "deactivate walk", SLUB_PROBE_DEACTIVATE_WALK, &walk);
	ktest_info(t, "flush: %lu in hard-IRQ context", fl.hardirq);
	KTEST_EXPECT_GE(t, fl.calls, num_online_cpus());
	if (ipi) {
		/* Every CPU had a CPU slab: one flush each, one local. */
		KTEST_EXPECT_EQ(t, fl.calls, num_online_cpus());
		KTEST_EXPECT_EQ(t, fl.irqs_off, fl.calls);
		KTEST_EXPECT_EQ(t, fl.hardirq, fl.calls - 1);
	} else {
		KTEST_EXPECT_EQ(t, fl.irqs_off, 0);
		KTEST_EXPECT_EQ(t, fl.hardirq, 0);
	}
	KTEST_EXPECT_GE(t, walk.calls, 1);
	if (IS_ENABLED(CONFIG_SLUB_LEGACY))
		KTEST_EXPECT_EQ(t, walk.irqs_off, walk.calls);
	else
		KTEST_EXPECT_EQ(t, walk.irqs_off, 0);
	kmem_cache_destroy(s);
#endif
}

/* ------------------------------------------ IRQ-off sections by path */

#ifdef CONFIG_SLUB_SCOPE_PROBE
#include <linux/irqoff_count.h>

/* The SLUB functions that may open IRQ-off sections of their own. */
static const char *const irqoff_paths[] = {
	"___slab_alloc", "kmem_cache_alloc_bulk", "put_cpu_partial",
	"__slab_free", "deactivate_slab", "__unfreeze_partials",
	"flush_cpu_slab", "new_slab", "__slab_alloc",
};
enum { P_SLOW, P_BULK, P_PUT_PARTIAL, P_SLAB_FREE, P_DEACTIVATE,
       P_UNFREEZE, P_FLUSH, P_NEW_SLAB, P_SLAB_ALLOC };

/*
 * Totals for @name, including the copies GCC makes of static functions
 * (name.constprop.0, name.isra.0, name.part.0).
 */
static struct irqoff_count irqoff_for(const char *name)
{
	static const char *const sfx[] = { "", ".constprop.0", ".isra.0",
					   ".part.0" };
	struct irqoff_count sum = { 0 };
	char buf[64];

	for (unsigned int i = 0; i < ARRAY_SIZE(sfx); i++) {
		struct irqoff_count c;

		sniprintf(buf, sizeof(buf), "%s%s", name, sfx[i]);
		c = irqoff_count_for(buf);
		sum.found |= c.found;
		sum.sections += c.sections;
		sum.cycles += c.cycles;
	}
	return sum;
}

static void irqoff_print(struct ktest *t, struct irqoff_count *c)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(irqoff_paths); i++) {
		c[i] = irqoff_for(irqoff_paths[i]);
		ktest_info(t, "%-22s %6lu IRQ-off sections, %10llu cycles%s",
			   irqoff_paths[i], c[i].sections,
			   (unsigned long long)c[i].cycles,
			   c[i].found ? "" : " (inlined: no symbol)");
	}
}

static void slub_irqoff_by_path_body(struct ktest *t)
{
	enum { K = 600, B = 16 };
	static void *p[K], *b[B];
	struct irqoff_count c[ARRAY_SIZE(irqoff_paths)];
	unsigned long slow, slabs, bulk_calls = 0;
	struct kmem_cache *s;

	s = slub_t_cache(t, "slub-t-irqoff", 192, 0, SLUB_T_NOMERGE, NULL);
	irqoff_count_reset();
	for (int i = 0; i < K; i++) {
		p[i] = kmem_cache_alloc(s, GFP_KERNEL);
		KTEST_ASSERT_TRUE(t, p[i] != NULL);
	}
	for (int i = 0; i < K; i += 2)
		kmem_cache_free(s, p[i]);
	for (int i = 0; i + B <= K / 2; i += B, bulk_calls++) {
		KTEST_ASSERT_EQ(t, kmem_cache_alloc_bulk(s, GFP_KERNEL, B, b), B);
		kmem_cache_free_bulk(s, B, b);
	}
	for (int i = 1; i < K; i += 2)
		kmem_cache_free(s, p[i]);
	kmem_cache_shrink(s);
	irqoff_print(t, c);
	ktest_info(t, "sections dropped (table full): %lu", irqoff_count_dropped());

	slow = slub_stat_sum(s, ALLOC_SLOWPATH);
	slabs = slub_stat_sum(s, ALLOC_SLAB);
	KTEST_EXPECT_GT(t, slow, 0);
	KTEST_EXPECT_GT(t, slabs, 0);
	KTEST_EXPECT_TRUE(t, c[P_SLOW].found);
	KTEST_EXPECT_TRUE(t, c[P_BULK].found);
	KTEST_EXPECT_TRUE(t, c[P_NEW_SLAB].found);
	if (IS_ENABLED(CONFIG_SLUB_LEGACY)) {
		/*
		 * 5.13 (and 5.13-rt): every slow path is one local_irq_save
		 * section in __slab_alloc (bulk calls ___slab_alloc inside its
		 * own section), and allocate_slab() turns interrupts back off
		 * after each slab page, opening a section in new_slab.
		 */
		KTEST_EXPECT_TRUE(t, c[P_SLAB_ALLOC].found);
		KTEST_EXPECT_GE(t, c[P_SLAB_ALLOC].sections + bulk_calls, slow);
		KTEST_EXPECT_GE(t, c[P_BULK].sections, bulk_calls);
		KTEST_EXPECT_GE(t, c[P_NEW_SLAB].sections, slabs);
	} else if (IS_ENABLED(CONFIG_PREEMPT_RT)) {
		/* The local lock leaves IRQs on: no section in these paths. */
		KTEST_EXPECT_EQ(t, c[P_SLOW].sections, 0);
		KTEST_EXPECT_EQ(t, c[P_BULK].sections, 0);
		KTEST_EXPECT_EQ(t, c[P_NEW_SLAB].sections, 0);
	} else {
		/*
		 * Each slow path opens at least one local_lock_irqsave
		 * section, each bulk call one local_lock_irq section, and
		 * the page allocator is entered with IRQs on: new_slab opens
		 * none.
		 */
		KTEST_EXPECT_GE(t, c[P_SLOW].sections, slow);
		KTEST_EXPECT_GE(t, c[P_BULK].sections, bulk_calls);
		KTEST_EXPECT_EQ(t, c[P_NEW_SLAB].sections, 0);
	}
	KTEST_EXPECT_EQ(t, irqoff_count_dropped(), 0);
	slub_t_expect_empty(t, s, "irqoff");
	kmem_cache_destroy(s);
}
#endif

/*
 * Which SLUB functions open IRQ-off sections, counted by the irqflags
 * hooks: post-series on !RT the slow path's local lock sections and the
 * bulk loop's, on RT none of those, never around the page allocator;
 * pre-series one section per slow path in __slab_alloc and one more in
 * new_slab per slab page (interrupts back off after the page allocator).
 */
void slub_irqoff_by_path(struct ktest *t)
{
#ifndef CONFIG_SLUB_SCOPE_PROBE
	ktest_skip(t, "CONFIG_SLUB_SCOPE_PROBE is off");
#else
	if (!IS_ENABLED(CONFIG_SLUB_STATS))
		ktest_skip(t, "needs CONFIG_SLUB_STATS for the slow-path count");
	slub_t_run_pinned(t, 0, slub_irqoff_by_path_body);
#endif
}
