// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU page lists (pcp), Linux 5.14 after the local_lock conversion.
 *
 * Blocks of order 0..PAGE_ALLOC_COSTLY_ORDER are freed onto, and
 * allocated from, the current CPU's lists for their zone, one list per
 * order.  A list is refilled from the buddy lists @batch blocks at a time
 * (rmqueue_bulk) and spilled back once the CPU holds @high pages
 * (free_pcppages_bulk).  The lists belong to their CPU and are protected
 * by pagesets.lock, a local_lock taken with local_lock_irqsave();
 * zone->lock nests inside it, taken with plain spin_lock() as interrupts
 * are off already (on PREEMPT_RT the local lock becomes a per-CPU
 * spinlock_t and interrupts stay on; zone->lock is a spinlock_t so both
 * sleep there).
 *
 * Other CPUs' lists are drained by those CPUs, in a work item queued on
 * each (__drain_all_pages()).
 */
#include <linux/mm.h>
#include <linux/smp.h>
#include <linux/local_lock.h>
#include <linux/irqflags.h>
#include <linux/workqueue.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/cpu.h>
#include <linux/vmstat.h>
#include "internal.h"

struct pagesets {
	local_lock_t lock;
};
static DEFINE_PER_CPU(struct pagesets, pagesets) = { .lock = INIT_LOCAL_LOCK(lock) };

static inline unsigned int order_to_pindex(int migratetype, unsigned int order)
{
	return MIGRATE_PCPTYPES * order + migratetype;
}

static inline unsigned int pindex_to_order(unsigned int pindex)
{
	return pindex / MIGRATE_PCPTYPES;
}

/*
 * Give @count pages (order-weighted) from @pcp back to the buddy lists,
 * the coldest (list tail) first, visiting the lists round robin.  The
 * blocks are gathered first and merged under one zone->lock hold.
 */
static void free_pcppages_bulk(struct zone *zone, int count, struct per_cpu_pages *pcp)
{
	struct page *page, *nxt;
	unsigned int pindex = NR_PCP_LISTS - 1;
	LIST_HEAD(head);

	count = min(pcp->count, count);
	while (count > 0) {
		struct list_head *list;
		unsigned int order;

		do {
			pindex = (pindex + 1) % NR_PCP_LISTS;
			list = &pcp->lists[pindex];
		} while (list_empty(list));
		order = pindex_to_order(pindex);
		page = list_last_entry(list, struct page, lru);
		list_del(&page->lru);
		pcp->count -= 1 << order;
		count -= 1 << order;
		page->index = order;	/* until it is merged */
		list_add_tail(&page->lru, &head);
	}

	spin_lock(&zone->lock);
	list_for_each_entry_safe(page, nxt, &head, lru) {
		unsigned int order = page->index;

		page->index = 0;
		__free_one_page(page, page_to_pfn(page), zone, order,
				MIGRATE_UNMOVABLE, FPI_NONE);
	}
	spin_unlock(&zone->lock);
}

/*
 * How much to spill once a list reaches @limit: @batch, doubled for every
 * spill without an allocation in between (a CPU that only frees), but
 * always leaving @batch pages behind.
 */
static int nr_pcp_free(struct per_cpu_pages *pcp, int limit, int batch)
{
	int min_nr = batch, max_nr = limit - batch, nr;

	if (unlikely(limit < batch))	/* disabled (zone_pcp_disable) */
		return 1;
	nr = batch << pcp->free_factor;
	if (nr < max_nr)
		pcp->free_factor++;
	return clamp(nr, min_nr, max(max_nr, min_nr));
}

static void free_unref_page_commit(struct page *page, int migratetype,
				   unsigned int order)
{
	struct zone *zone = page_zone(page);
	struct per_cpu_pages *pcp = this_cpu_ptr(zone->per_cpu_pageset);
	int high;

	list_add(&page->lru, &pcp->lists[order_to_pindex(migratetype, order)]);
	pcp->count += 1 << order;
	high = READ_ONCE(pcp->high);
	if (pcp->count >= high)
		free_pcppages_bulk(zone, nr_pcp_free(pcp, high, READ_ONCE(pcp->batch)), pcp);
}

/* Take a block off the pcp list, refilling it from the buddy lists if empty. */
static struct page *__rmqueue_pcplist(struct zone *zone, unsigned int order,
				      int migratetype, unsigned int alloc_flags,
				      struct per_cpu_pages *pcp, struct list_head *plist)
{
	struct page *page;

	do {
		if (list_empty(plist)) {
			int batch = READ_ONCE(pcp->batch);
			int alloced;

			/* Fewer large blocks per refill; 1 means "disabled". */
			if (batch > 1)
				batch = max(batch >> order, 2);
			alloced = rmqueue_bulk(zone, order, batch, plist, migratetype,
					       alloc_flags);
			pcp->count += alloced << order;
			if (unlikely(list_empty(plist)))
				return NULL;
		}
		page = list_first_entry(plist, struct page, lru);
		list_del(&page->lru);
		pcp->count -= 1 << order;
	} while (check_new_pages(page, order));
	return page;
}

struct page *rmqueue_pcplist(struct zone *preferred_zone, struct zone *zone,
			     unsigned int order, gfp_t gfp_flags, int migratetype,
			     unsigned int alloc_flags)
{
	struct per_cpu_pages *pcp;
	struct page *page;
	unsigned long flags;

	local_lock_irqsave(&pagesets.lock, flags);
	pcp = this_cpu_ptr(zone->per_cpu_pageset);
	pcp->free_factor >>= 1;		/* allocating: spill less next time */
	page = __rmqueue_pcplist(zone, order, migratetype, alloc_flags, pcp,
				 &pcp->lists[order_to_pindex(migratetype, order)]);
	local_unlock_irqrestore(&pagesets.lock, flags);
	return page;
}

void free_unref_page(struct page *page, unsigned int ord)
{
	unsigned long flags;

	if (!free_pages_prepare(page, ord))
		return;
	local_lock_irqsave(&pagesets.lock, flags);
	free_unref_page_commit(page, MIGRATE_UNMOVABLE, ord);
	local_unlock_irqrestore(&pagesets.lock, flags);
}

/* ------------------------------------------------------------- draining */

static void drain_pages_zone(unsigned int cpu, struct zone *z)
{
	struct per_cpu_pages *pcp;
	unsigned long flags;

	local_lock_irqsave(&pagesets.lock, flags);
	pcp = per_cpu_ptr(z->per_cpu_pageset, cpu);
	if (pcp->count)
		free_pcppages_bulk(z, pcp->count, pcp);
	local_unlock_irqrestore(&pagesets.lock, flags);
}

/* This CPU's lists for @zone (all zones if NULL) back to the buddy lists. */
void drain_local_pages(struct zone *zone)
{
	int cpu = smp_processor_id();

	if (zone) {
		drain_pages_zone(cpu, zone);
		return;
	}
	for_each_populated_zone(zone)
		drain_pages_zone(cpu, zone);
}

/* Every zone's lists of @cpu: this CPU, or one that is dead. */
static void drain_pages(unsigned int cpu)
{
	struct zone *zone;

	for_each_populated_zone(zone)
		drain_pages_zone(cpu, zone);
}

/*
 * CPUHP_PAGE_ALLOC teardown, on the control CPU once @cpu has stopped:
 * the pages cached on its lists would otherwise stay there until it came
 * back.  The lock taken is this CPU's pagesets.lock, as in Linux: the
 * dead CPU's lists have no other user.  Its event counters are folded
 * into this CPU's.  Linux then recomputes each zone's pcp high limit for
 * the online CPU count (zone_pcp_update); irqlab's limit is per possible
 * CPU, so it does not change.
 */
static int page_alloc_cpu_dead(unsigned int dead)
{
	drain_pages(dead);
	vm_events_fold_cpu(dead);
	return 0;
}

struct pcpu_drain {
	struct zone *zone;
	struct work_struct work;
};
static DEFINE_PER_CPU(struct pcpu_drain, pcpu_drains);

/* Serialises drains: the per-CPU work items and the CPU mask are shared. */
static DEFINE_MUTEX(pcpu_drain_mutex);

/* NULL until the workqueues are up; only the boot CPU is online before. */
struct workqueue_struct *mm_percpu_wq;

void init_mm_internals(void)
{
	mm_percpu_wq = system_wq;
	/* Linux registers it in page_alloc_init(); irqlab's first fit is here. */
	cpuhp_setup_state_nocalls(CPUHP_PAGE_ALLOC, "mm/page_alloc:pcp",
				  NULL, page_alloc_cpu_dead);
}

/*
 * The CPU we are on, which cannot change under us meanwhile.  Pinned with
 * migrate_disable() as in Linux since the local_lock conversion: the
 * local_lock inside does the rest, and on PREEMPT_RT it is a sleeping
 * lock that must not be taken with preemption off.
 */
static void drain_this_cpu(struct zone *zone)
{
	migrate_disable();
	drain_local_pages(zone);
	migrate_enable();
}

/*
 * Runs in a kworker bound to the CPU whose lists it empties (bound, but a
 * CPU going down could still move it: hence drain_this_cpu()).
 */
static void drain_local_pages_wq(struct work_struct *w)
{
	drain_this_cpu(container_of(w, struct pcpu_drain, work)->zone);
}

static bool cpu_has_pcps(int cpu, struct zone *zone, bool force)
{
	struct zone *z;

	if (force)
		return true;
	if (zone)
		return per_cpu_ptr(zone->per_cpu_pageset, cpu)->count;
	for_each_populated_zone(z)
		if (per_cpu_ptr(z->per_cpu_pageset, cpu)->count)
			return true;
	return false;
}

/*
 * Every CPU with something on its lists drains them itself, in a work
 * item on that CPU, and we wait for all of them, as Linux does on
 * mm_percpu_wq.  Sleeps.  Afterwards each list is empty unless its CPU
 * has refilled it since.
 */
static void __drain_all_pages(struct zone *zone, bool every_cpu)
{
	static cpumask_t cpus_with_pcps;
	int cpu;

	might_sleep();
	/*
	 * Before the workqueues only this CPU is up.  A kworker must not wait
	 * for work items here: it may be its pool's manager allocating a new
	 * worker, and the item on its own CPU would wait for that worker.
	 * Linux's mm_percpu_wq has a rescuer for this; irqlab has none yet,
	 * so a kworker drains only its own CPU.
	 */
	if (!mm_percpu_wq || (current->flags & PF_WQ_WORKER)) {
		drain_this_cpu(zone);
		return;
	}
	/*
	 * One drain at a time.  A global drain already under way serves a
	 * second global caller, which returns; a zone's caller needs its own
	 * zone drained and waits for the mutex.
	 */
	if (!mutex_trylock(&pcpu_drain_mutex)) {
		if (!zone)
			return;
		mutex_lock(&pcpu_drain_mutex);
	}
	cpumask_clear(&cpus_with_pcps);
	for_each_online_cpu(cpu)
		if (cpu_has_pcps(cpu, zone, every_cpu))
			cpumask_set_cpu(cpu, &cpus_with_pcps);
	for_each_cpu(cpu, &cpus_with_pcps) {
		struct pcpu_drain *drain = per_cpu_ptr(&pcpu_drains, cpu);

		drain->zone = zone;
		INIT_WORK(&drain->work, drain_local_pages_wq);
		queue_work_on(cpu, mm_percpu_wq, &drain->work);
	}
	for_each_cpu(cpu, &cpus_with_pcps)
		flush_work(&per_cpu_ptr(&pcpu_drains, cpu)->work);
	mutex_unlock(&pcpu_drain_mutex);
}

void drain_all_pages(struct zone *zone)
{
	__drain_all_pages(zone, false);
}

static void __zone_set_pageset_high_and_batch(struct zone *z, unsigned long high,
					      unsigned long batch)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct per_cpu_pages *pcp = per_cpu_ptr(z->per_cpu_pageset, cpu);

		WRITE_ONCE(pcp->batch, batch);
		WRITE_ONCE(pcp->high, high);
	}
}

/*
 * Serialises changes of the lists' high/batch limits: a zone stays
 * disabled from zone_pcp_disable() to zone_pcp_enable(), whoever else
 * wants to change them meanwhile waits (Linux's pcp_batch_high_lock).
 */
static DEFINE_MUTEX(pcp_batch_high_lock);

/* Every allocation and free of the zone passes straight through the lists. */
void zone_pcp_disable(struct zone *zone)
{
	mutex_lock(&pcp_batch_high_lock);
	__zone_set_pageset_high_and_batch(zone, 0, 1);
	__drain_all_pages(zone, true);
}

void zone_pcp_enable(struct zone *z)
{
	__zone_set_pageset_high_and_batch(z, z->pageset_high, z->pageset_batch);
	mutex_unlock(&pcp_batch_high_lock);
}

/*
 * irqlab's benchmarks: every populated zone at once, under one hold of
 * pcp_batch_high_lock (Linux only ever disables one zone, for offlining;
 * zone_pcp_disable() twice in a row would wait for itself).
 */
void zone_pcp_disable_all(void)
{
	struct zone *zone;

	mutex_lock(&pcp_batch_high_lock);
	for_each_populated_zone(zone) {
		__zone_set_pageset_high_and_batch(zone, 0, 1);
		__drain_all_pages(zone, true);
	}
}

void zone_pcp_enable_all(void)
{
	struct zone *zone;

	for_each_populated_zone(zone)
		__zone_set_pageset_high_and_batch(zone, zone->pageset_high,
						  zone->pageset_batch);
	mutex_unlock(&pcp_batch_high_lock);
}

/*
 * batch: about 0.1% of the zone, at most 1 MiB, clamped to 2^n - 1 (a
 * power of two aliases badly in caches); high: the zone's low watermark
 * shared among the node's CPUs, at least 4 batches.
 */
void zone_set_pageset_high_and_batch(struct zone *zone)
{
	unsigned long batch = min(zone_managed_pages(zone) >> 10,
				  (1024 * 1024) / PAGE_SIZE) / 4;
	unsigned int ncpus = zone->zone_pgdat->nr_cpus ?: num_possible_cpus();
	unsigned long high;

	batch = max(batch, 1UL);
	batch = (1UL << __fls(batch + batch / 2)) - 1;
	batch = max(batch, 1UL);
	high = max(low_wmark_pages(zone) / ncpus, batch << 2);
	zone->pageset_batch = batch;
	zone->pageset_high = high;
	__zone_set_pageset_high_and_batch(zone, high, batch);
}

void setup_zone_pageset(struct zone *z)
{
	int cpu;

	z->per_cpu_pageset = alloc_percpu(struct per_cpu_pages);
	if (!z->per_cpu_pageset)
		panic("page_alloc: no per-CPU memory for %s's page lists", z->name);
	for_each_possible_cpu(cpu) {
		struct per_cpu_pages *pcp = per_cpu_ptr(z->per_cpu_pageset, cpu);

		for (int i = 0; i < NR_PCP_LISTS; i++)
			INIT_LIST_HEAD(&pcp->lists[i]);
	}
}

int pcp_count(struct zone *zone, int cpu)
{
	return per_cpu_ptr(zone->per_cpu_pageset, cpu)->count;
}
