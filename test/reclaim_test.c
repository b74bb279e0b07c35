// SPDX-License-Identifier: GPL-2.0
/*
 * Reclaim (mm/vmscan.c, mm/page_alloc.c's slow path) under real memory
 * pressure: a test shrinker owns most of memory as order-4 blocks (above
 * PAGE_ALLOC_COSTLY_ORDER, so they bypass the per-CPU lists and the free
 * count moves by exactly 16 pages per block) and gives them back when
 * scanned, counting them in the reclaimer's reclaim_state as a cache's
 * shrinker does.
 *  - kswapd: memory taken below the low watermark without waking anyone,
 *    then one GFP_NOWAIT allocation: kswapd wakes, frees blocks and sleeps
 *    again only once a zone is above its high watermark.
 *  - direct reclaim: memory taken down to the atomic reserves, with kswapd
 *    barred from the shrinker: GFP_ATOMIC (IRQs off) and GFP_NOWAIT
 *    (preemption off) fail without reclaiming or sleeping; at the min
 *    watermark GFP_KERNEL succeeds by reclaiming in PF_MEMALLOC.
 *  - the slab shrinker: try_to_free_pages() hands a cache's empty slabs
 *    back through kmem_cache_shrink() (either SLUB port).
 * The vmstat counters must agree with what the shrinker saw.  Nothing is
 * timed: waits for kswapd poll with a generous bound.
 */
#include <linux/ktest.h>
#include <linux/shrinker.h>
#include <linux/swap.h>
#include <linux/vmstat.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/delay.h>
#include <linux/irqflags.h>
#include <linux/preempt.h>
#include <linux/slab.h>
#include "slub_test.h"

#define RT_ORDER	(PAGE_ALLOC_COSTLY_ORDER + 1)
#define RT_PAGES	(1UL << RT_ORDER)

static struct rt_held {
	spinlock_t lock;
	struct list_head blocks;
	unsigned long nr;		/* blocks on the list */
	unsigned long freed_kswapd;	/* blocks freed, by who scanned */
	unsigned long freed_direct;
	bool deny_kswapd;		/* count 0 when kswapd asks */
	bool direct_saw_memalloc;	/* a direct scan ran with PF_MEMALLOC */
	bool direct_saw_plain;		/* ... or without it */
	bool saw_no_reclaim_state;	/* a scan outside reclaim */
	struct shrinker shrinker;
} rt;

static unsigned long rt_count(struct shrinker *sh, struct shrink_control *sc)
{
	if (READ_ONCE(rt.deny_kswapd) && current_is_kswapd())
		return 0;
	return READ_ONCE(rt.nr);
}

static unsigned long rt_scan(struct shrinker *sh, struct shrink_control *sc)
{
	unsigned long freed = 0;

	while (freed < sc->nr_to_scan) {
		struct page *page;

		spin_lock(&rt.lock);
		page = list_first_entry_or_null(&rt.blocks, struct page, lru);
		if (page) {
			list_del(&page->lru);
			rt.nr--;
		}
		spin_unlock(&rt.lock);
		if (!page)
			break;
		page->lru.next = page->lru.prev = NULL;
		__free_pages(page, RT_ORDER);
		freed++;
	}
	if (current->reclaim_state)
		current->reclaim_state->reclaimed_slab += freed * RT_PAGES;
	else
		rt.saw_no_reclaim_state = true;
	if (current_is_kswapd()) {
		rt.freed_kswapd += freed;
	} else {
		rt.freed_direct += freed;
		if (current->flags & PF_MEMALLOC)
			rt.direct_saw_memalloc = true;
		else
			rt.direct_saw_plain = true;
	}
	sc->nr_scanned = freed;
	return freed ? freed : SHRINK_STOP;
}

static void rt_setup(struct ktest *t)
{
	memset(&rt, 0, sizeof(rt));
	spin_lock_init(&rt.lock);
	INIT_LIST_HEAD(&rt.blocks);
	rt.shrinker.count_objects = rt_count;
	rt.shrinker.scan_objects = rt_scan;
	rt.shrinker.seeks = DEFAULT_SEEKS;
	rt.shrinker.batch = 1;	/* free a block at a time: fine steps */
	KTEST_ASSERT_EQ(t, register_shrinker(&rt.shrinker), 0);
}

static void rt_teardown(void)
{
	struct page *page, *tmp;

	unregister_shrinker(&rt.shrinker);
	list_for_each_entry_safe(page, tmp, &rt.blocks, lru) {
		list_del(&page->lru);
		page->lru.next = page->lru.prev = NULL;
		__free_pages(page, RT_ORDER);
	}
	rt.nr = 0;
}

/* Give the shrinker blocks until @gfp (reclaiming nothing) fails. */
static unsigned long rt_fill(gfp_t gfp)
{
	unsigned long n = 0;
	struct page *page;

	while ((page = alloc_pages(gfp | __GFP_NOWARN, RT_ORDER))) {
		spin_lock(&rt.lock);
		list_add(&page->lru, &rt.blocks);
		rt.nr++;
		spin_unlock(&rt.lock);
		n++;
	}
	return n;
}

/* Order-0 pages the test itself keeps (no shrinker can free them). */
static unsigned long grab_pages(struct list_head *list, gfp_t gfp)
{
	unsigned long n = 0;
	struct page *page;

	while ((page = alloc_pages(gfp | __GFP_NOWARN, 0))) {
		list_add(&page->lru, list);
		n++;
	}
	return n;
}

static void release_pages(struct list_head *list)
{
	struct page *page, *tmp;

	list_for_each_entry_safe(page, tmp, list, lru) {
		list_del(&page->lru);
		page->lru.next = page->lru.prev = NULL;
		__free_pages(page, 0);
	}
}

static pg_data_t *this_pgdat(void)
{
	return NODE_DATA(numa_node_id());
}

/* kswapd in its sleep (kswapd_try_to_sleep), not reclaiming. */
static bool kswapd_sleeping(pg_data_t *pgdat)
{
	return read_task_state(pgdat->kswapd) == TASK_INTERRUPTIBLE;
}

/* Until kswapd has run balance_pgdat() @runs more times and sleeps. */
static bool wait_kswapd_done(pg_data_t *pgdat, unsigned long pageoutrun)
{
	unsigned long ev[NR_VM_EVENT_ITEMS];

	for (int i = 0; i < 2000; i++) {
		all_vm_events(ev);
		if (ev[PAGEOUTRUN] >= pageoutrun && kswapd_sleeping(pgdat))
			return true;
		msleep(5);
	}
	return false;
}

/* As pgdat_balanced(): some zone the allocation could use is above high. */
static bool node_above_high(pg_data_t *pgdat)
{
	for (int i = 0; i < MAX_NR_ZONES; i++) {
		struct zone *zone = pgdat->node_zones + i;

		if (managed_zone(zone) &&
		    zone_watermark_ok_safe(zone, 0, high_wmark_pages(zone), ZONE_NORMAL))
			return true;
	}
	return false;
}

static bool node_above_low(pg_data_t *pgdat)
{
	for (int i = 0; i < MAX_NR_ZONES; i++) {
		struct zone *zone = pgdat->node_zones + i;

		if (managed_zone(zone) &&
		    zone_watermark_ok_safe(zone, 0, low_wmark_pages(zone), ZONE_NORMAL))
			return true;
	}
	return false;
}

static void kswapd_reclaims_to_high_wmark(struct ktest *t)
{
	unsigned long before[NR_VM_EVENT_ITEMS], after[NR_VM_EVENT_ITEMS];
	pg_data_t *pgdat = this_pgdat();
	unsigned long blocks;
	struct page *page;

	KTEST_ASSERT_TRUE(t, pgdat->kswapd != NULL);
	KTEST_ASSERT_TRUE(t, wait_kswapd_done(pgdat, 0));
	/* An earlier exhaustion may have left the node "hopeless". */
	pgdat->kswapd_failures = 0;
	rt_setup(t);

	/* Below low, then below min: no reclaim flag wakes anyone. */
	blocks = rt_fill(0);
	KTEST_EXPECT_GT(t, blocks, 0);
	KTEST_EXPECT_FALSE(t, node_above_low(pgdat));
	all_vm_events(before);

	/* The allocator's watermark check is what wakes kswapd. */
	page = alloc_pages(GFP_NOWAIT | __GFP_NOWARN, 0);
	KTEST_EXPECT_TRUE(t, wait_kswapd_done(pgdat, before[PAGEOUTRUN] + 1));
	all_vm_events(after);

	KTEST_EXPECT_TRUE(t, node_above_high(pgdat));
	KTEST_EXPECT_GT(t, rt.freed_kswapd, 0);
	KTEST_EXPECT_FALSE(t, rt.saw_no_reclaim_state);
	KTEST_EXPECT_GE(t, after[KSWAPD_WAKE] - before[KSWAPD_WAKE], 1);
	KTEST_EXPECT_GE(t, after[PAGEOUTRUN] - before[PAGEOUTRUN], 1);
	/* Everything the shrinker gave kswapd counts, and was scanned. */
	KTEST_EXPECT_GE(t, after[SLAB_RECLAIM_KSWAPD] - before[SLAB_RECLAIM_KSWAPD],
			rt.freed_kswapd * RT_PAGES);
	KTEST_EXPECT_GE(t, after[SLABS_SCANNED] - before[SLABS_SCANNED], rt.freed_kswapd);
	/* It stopped once balanced: far from all of the shrinker's blocks. */
	KTEST_EXPECT_LT(t, rt.freed_kswapd, blocks);
	ktest_info(t, "%lu blocks of %lu pages held, kswapd freed %lu in %lu run(s), %lu wakeup(s)",
		   blocks, RT_PAGES, rt.freed_kswapd, after[PAGEOUTRUN] - before[PAGEOUTRUN],
		   after[KSWAPD_WAKE] - before[KSWAPD_WAKE]);
	if (page)
		__free_pages(page, 0);
	rt_teardown();
}

/*
 * Per-CPU lists off (high 0, batch 1) so order-0 allocations stop exactly
 * at their watermark.  First down to the atomic reserves: GFP_ATOMIC and
 * GFP_NOWAIT fail without reclaim.  Then the atomic pages back, leaving
 * the zones at min: GFP_NOWAIT still fails, GFP_KERNEL reclaims.
 */
static void direct_reclaim_blocking_only(struct ktest *t)
{
	unsigned long before[NR_VM_EVENT_ITEMS], after[NR_VM_EVENT_ITEMS];
	pg_data_t *pgdat = this_pgdat();
	LIST_HEAD(kept_atomic);
	unsigned long stalls;
	LIST_HEAD(kept);
	struct page *page;

	KTEST_ASSERT_TRUE(t, wait_kswapd_done(pgdat, 0));
	/* Only the test shrinker may free anything, and not for kswapd. */
	kmem_cache_shrinker_unregister();
	rt_setup(t);
	rt.deny_kswapd = true;
	zone_pcp_disable_all();

	rt_fill(0);
	grab_pages(&kept, 0);
	KTEST_EXPECT_GT(t, grab_pages(&kept_atomic, __GFP_HIGH | __GFP_ATOMIC), 0);
	KTEST_EXPECT_GT(t, rt.nr, 0);
	all_vm_events(before);

	/*
	 * No reclaim, and no sleep in atomic context: might_sleep() would
	 * report it.  On PREEMPT_RT the wakeup of kswapd takes a sleeping
	 * lock, so "atomic" callers there are preemptible threads, as in
	 * Linux: only the gfp flags say atomic.
	 */
	if (!IS_ENABLED(CONFIG_PREEMPT_RT)) {
		unsigned long flags;

		local_irq_save(flags);
		page = alloc_pages(GFP_ATOMIC | __GFP_NOWARN, 0);
		local_irq_restore(flags);
	} else {
		page = alloc_pages(GFP_ATOMIC | __GFP_NOWARN, 0);
	}
	KTEST_EXPECT_TRUE(t, page == NULL);
	if (!IS_ENABLED(CONFIG_PREEMPT_RT))
		preempt_disable();
	page = alloc_pages(GFP_NOWAIT | __GFP_NOWARN, 0);
	if (!IS_ENABLED(CONFIG_PREEMPT_RT))
		preempt_enable();
	KTEST_EXPECT_TRUE(t, page == NULL);
	release_pages(&kept_atomic);
	page = alloc_pages(GFP_NOWAIT | __GFP_NOWARN, 0);
	KTEST_EXPECT_TRUE(t, page == NULL);
	all_vm_events(after);
	stalls = after[ALLOCSTALL_DMA32] + after[ALLOCSTALL_NORMAL] -
		 before[ALLOCSTALL_DMA32] - before[ALLOCSTALL_NORMAL];
	KTEST_EXPECT_EQ(t, stalls, 0);
	KTEST_EXPECT_EQ(t, rt.freed_direct, 0);

	/* The same page, for a caller that may sleep: it reclaims. */
	page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, 0);
	KTEST_EXPECT_TRUE(t, page != NULL);
	all_vm_events(after);
	stalls = after[ALLOCSTALL_DMA32] + after[ALLOCSTALL_NORMAL] -
		 before[ALLOCSTALL_DMA32] - before[ALLOCSTALL_NORMAL];
	KTEST_EXPECT_GE(t, stalls, 1);
	KTEST_EXPECT_GT(t, rt.freed_direct, 0);
	KTEST_EXPECT_TRUE(t, rt.direct_saw_memalloc);
	KTEST_EXPECT_FALSE(t, rt.direct_saw_plain);
	KTEST_EXPECT_FALSE(t, rt.saw_no_reclaim_state);
	KTEST_EXPECT_EQ(t, rt.freed_kswapd, 0);
	KTEST_EXPECT_EQ(t, after[SLAB_RECLAIM_DIRECT] - before[SLAB_RECLAIM_DIRECT],
			rt.freed_direct * RT_PAGES);
	/* Reclaim's state does not leak out of it. */
	KTEST_EXPECT_FALSE(t, current->flags & PF_MEMALLOC);
	KTEST_EXPECT_TRUE(t, current->reclaim_state == NULL);
	ktest_info(t, "GFP_KERNEL: %lu stall(s), %lu block(s) reclaimed directly",
		   stalls, rt.freed_direct);

	if (page)
		__free_pages(page, 0);
	release_pages(&kept);
	zone_pcp_enable_all();
	rt_teardown();
	KTEST_EXPECT_EQ(t, kmem_cache_shrinker_register(), 0);
	vmstat_reclaim_report();
}

/*
 * Direct reclaim reaches kmem_cache_shrink() through the slab shrinker:
 * a cache holding only empty slabs has none afterwards, and reclaim
 * counts their pages (SLUB's __free_slab() and the reclaim_state).
 */
static void reclaim_shrinks_slab_caches(struct ktest *t)
{
#ifdef CONFIG_SLUB_DEBUG
	unsigned long before[NR_VM_EVENT_ITEMS], after[NR_VM_EVENT_ITEMS];
	static void *p[16 * 64];
	unsigned long reclaimed, noreclaim;
	struct kmem_cache *s;
	long slabs;
	int n;

	s = slub_t_cache(t, "reclaim-t", 512, 0, SLUB_T_NOMERGE, NULL);
	n = min_t(int, 16 * oo_objects(s->oo), ARRAY_SIZE(p));
	for (int i = 0; i < n; i++) {
		p[i] = kmem_cache_alloc(s, GFP_KERNEL);
		KTEST_ASSERT_TRUE(t, p[i] != NULL);
	}
	for (int i = 0; i < n; i++)
		kmem_cache_free(s, p[i]);
	slabs = slub_t_slabs(s);
	KTEST_EXPECT_GE(t, slabs, 1);

	all_vm_events(before);
	noreclaim = memalloc_noreclaim_save();
	reclaimed = try_to_free_pages(&this_pgdat()->node_zonelists[ZONELIST_FALLBACK],
				      0, GFP_KERNEL);
	memalloc_noreclaim_restore(noreclaim);
	all_vm_events(after);
	KTEST_EXPECT_EQ(t, slub_t_slabs(s), 0);
	/*
	 * The slabs kmem_cache_shrink() discards count; those a CPU's flush
	 * frees in its kworker (post-series port, and the legacy one on RT)
	 * are not the reclaimer's, as in Linux.
	 */
	KTEST_EXPECT_GT(t, reclaimed, 0);
	KTEST_EXPECT_EQ(t, after[SLAB_RECLAIM_DIRECT] - before[SLAB_RECLAIM_DIRECT], reclaimed);
	KTEST_EXPECT_EQ(t, after[ALLOCSTALL_NORMAL] - before[ALLOCSTALL_NORMAL], 1);
	ktest_info(t, "%ld slab(s) of order %u in the cache, reclaim got %lu page(s) back",
		   slabs, oo_order(s->oo), reclaimed);
	kmem_cache_destroy(s);
#else
	ktest_skip(t, "needs CONFIG_SLUB_DEBUG to count slabs");
#endif
}

static struct ktest_case reclaim_cases[] = {
	KTEST_CASE(kswapd_reclaims_to_high_wmark),
	KTEST_CASE(direct_reclaim_blocking_only),
	KTEST_CASE(reclaim_shrinks_slab_caches),
	{}
};

static struct ktest_suite reclaim_suite = {
	.name = "reclaim", .cases = reclaim_cases,
};
ktest_register_suite(reclaim_suite);
