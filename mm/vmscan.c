// SPDX-License-Identifier: GPL-2.0
/*
 * Shrinkers: the slab-reclaim half of Linux 5.15's mm/vmscan.c.  There are
 * no memory cgroups, so shrink_slab() always walks the global list; the
 * node's deferred count is kept per node as Linux keeps it for
 * SHRINKER_NUMA_AWARE shrinkers.
 *
 * The list's protection is a Kconfig choice, after the history of
 * "make global slab shrink lockless":
 *   SHRINKER_RWSEM (5.15): shrink_slab() takes shrinker_rwsem with
 *     down_read_trylock() and gives up if a registrant holds it; the
 *     trylock's cmpxchg and up_read() are the seed's perf hotspots.
 *   SHRINKER_SRCU (6.4, later reverted): shrink_slab() walks the list
 *     inside an SRCU read section; registrants serialise on shrinker_mutex
 *     and unregister_shrinker() waits for a grace period with
 *     synchronize_srcu() before the shrinker may be freed, which made
 *     unregistering slow.
 *   SHRINKER_REFCOUNT (6.7): mm/shrinker.c; only do_shrink_slab() here is
 *     shared with it.
 *
 * Below the shrinkers, the reclaim that calls them (Linux 5.15's kswapd and
 * direct reclaim, without LRU lists, memory cgroups, writeback or
 * compaction): shrink_node() is shrink_slab() over the node plus the slab
 * pages freed meanwhile (reclaim_state), so the shrinkers, irqlab's "slab"
 * shrinker among them, are what reclaim can free.
 */
#include <linux/shrinker.h>
#include <linux/slab.h>
#include <linux/sched.h>
#include <linux/mmzone.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/vmstat.h>
#include <linux/swap.h>
#include <linux/kthread.h>
#include <linux/wait.h>
#include <linux/jiffies.h>
#include <linux/sched/mm.h>
#include "internal.h"

#ifndef CONFIG_SHRINKER_REFCOUNT
static LIST_HEAD(shrinker_list);
static unsigned int nr_shrinkers;

#ifdef CONFIG_SHRINKER_RWSEM
DECLARE_RWSEM(shrinker_rwsem);

void shrinker_list_lock(void)
{
	down_write(&shrinker_rwsem);
}

void shrinker_list_unlock(void)
{
	up_write(&shrinker_rwsem);
}

static void shrinker_list_add(struct shrinker *shrinker)
{
	list_add_tail(&shrinker->list, &shrinker_list);
}

static void shrinker_list_del(struct shrinker *shrinker)
{
	list_del(&shrinker->list);
}
#else
DEFINE_MUTEX(shrinker_mutex);
DEFINE_SRCU(shrinker_srcu);

void shrinker_list_lock(void)
{
	mutex_lock(&shrinker_mutex);
}

void shrinker_list_unlock(void)
{
	mutex_unlock(&shrinker_mutex);
}

/*
 * The publishing half of <linux/rculist.h>'s list_add_tail_rcu() and
 * list_del_rcu(): the new entry is complete before a reader can reach it,
 * and a removed entry keeps its next pointer, so a reader standing on it
 * walks on to the rest of the list.
 */
static void shrinker_list_add(struct shrinker *shrinker)
{
	struct list_head *new = &shrinker->list, *prev = shrinker_list.prev;

	new->next = &shrinker_list;
	new->prev = prev;
	smp_store_release(&prev->next, new);
	shrinker_list.prev = new;
}

static void shrinker_list_del(struct shrinker *shrinker)
{
	struct list_head *entry = &shrinker->list;

	entry->next->prev = entry->prev;
	WRITE_ONCE(entry->prev->next, entry->next);
	entry->prev = LIST_POISON2;
}
#endif

unsigned int shrinker_count(void)
{
	return READ_ONCE(nr_shrinkers);
}

int prealloc_shrinker(struct shrinker *shrinker)
{
	size_t size = sizeof(*shrinker->nr_deferred);

	/* No memory cgroups: a MEMCG_AWARE shrinker is a global one. */
	shrinker->flags &= ~SHRINKER_MEMCG_AWARE;
	if (shrinker->flags & SHRINKER_NUMA_AWARE)
		size *= MAX_NUMNODES;
	shrinker->nr_deferred = kzalloc(size, GFP_KERNEL);
	if (!shrinker->nr_deferred)
		return -ENOMEM;
	return 0;
}

void free_prealloced_shrinker(struct shrinker *shrinker)
{
	kfree(shrinker->nr_deferred);
	shrinker->nr_deferred = NULL;
}

void register_shrinker_prepared(struct shrinker *shrinker)
{
	shrinker_list_lock();
	shrinker_list_add(shrinker);
	shrinker->flags |= SHRINKER_REGISTERED;
	WRITE_ONCE(nr_shrinkers, nr_shrinkers + 1);
	shrinker_list_unlock();
}

/*
 * After this returns no shrink_slab() is inside @shrinker's callbacks and
 * none will enter them: the caller may free what they use.
 */
void unregister_shrinker(struct shrinker *shrinker)
{
	if (!(shrinker->flags & SHRINKER_REGISTERED))
		return;
	shrinker_list_lock();
	shrinker_list_del(shrinker);
	shrinker->flags &= ~SHRINKER_REGISTERED;
	WRITE_ONCE(nr_shrinkers, nr_shrinkers - 1);
	shrinker_list_unlock();
#ifndef CONFIG_SHRINKER_RWSEM
	/* Readers that found it on the list may still be walking it. */
	synchronize_srcu(&shrinker_srcu);
#endif
	kfree(shrinker->nr_deferred);
	shrinker->nr_deferred = NULL;
}
#endif /* !CONFIG_SHRINKER_REFCOUNT */

/* Every form: allocate the deferred counts, then publish the shrinker. */
int register_shrinker(struct shrinker *shrinker)
{
	int err = prealloc_shrinker(shrinker);

	if (err)
		return err;
	register_shrinker_prepared(shrinker);
	return 0;
}

/* Take the node's deferred work, leaving none for a concurrent caller. */
static long xchg_nr_deferred(struct shrinker *shrinker, struct shrink_control *sc)
{
	int nid = sc->nid;

	if (!(shrinker->flags & SHRINKER_NUMA_AWARE))
		nid = 0;
	return atomic_long_xchg(&shrinker->nr_deferred[nid], 0);
}

/* Give back what was not done; the sum of concurrent callers' leftovers. */
static long add_nr_deferred(long nr, struct shrinker *shrinker, struct shrink_control *sc)
{
	int nid = sc->nid;

	if (!(shrinker->flags & SHRINKER_NUMA_AWARE))
		nid = 0;
	return atomic_long_add_return(nr, &shrinker->nr_deferred[nid]);
}

/*
 * Scan (freeable >> priority) * 4 / seeks objects plus the deferred work
 * scaled by priority, at most twice what is freeable, in batches.  What was
 * asked and not scanned (the batch remainder, or everything after
 * SHRINK_STOP) is carried over to the next call, again capped at twice
 * freeable so a shrinker that cannot make progress does not accumulate an
 * unbounded debt.
 */
unsigned long do_shrink_slab(struct shrink_control *shrinkctl,
			     struct shrinker *shrinker, int priority)
{
	unsigned long freed = 0;
	unsigned long long delta;
	long total_scan, freeable, nr, new_nr, next_deferred;
	long batch_size = shrinker->batch ? shrinker->batch : SHRINK_BATCH;
	long scanned = 0;

	freeable = shrinker->count_objects(shrinker, shrinkctl);
	if (freeable == 0 || freeable == (long)SHRINK_EMPTY)
		return freeable;

	nr = xchg_nr_deferred(shrinker, shrinkctl);
	if (shrinker->seeks) {
		delta = freeable >> priority;
		delta *= 4;
		delta /= shrinker->seeks;
	} else {
		/* Objects that cost nothing to rebuild: half of them each time. */
		delta = freeable / 2;
	}
	total_scan = nr >> priority;
	total_scan += delta;
	total_scan = min(total_scan, 2 * freeable);

	/*
	 * A cache smaller than one batch is still scanned when everything in
	 * it is due, or it would never shrink.
	 */
	while (total_scan >= batch_size || total_scan >= freeable) {
		unsigned long ret;
		unsigned long nr_to_scan = min(batch_size, total_scan);

		shrinkctl->nr_to_scan = nr_to_scan;
		shrinkctl->nr_scanned = nr_to_scan;
		ret = shrinker->scan_objects(shrinker, shrinkctl);
		if (ret == SHRINK_STOP)
			break;
		freed += ret;
		count_vm_events(SLABS_SCANNED, shrinkctl->nr_scanned);
		total_scan -= shrinkctl->nr_scanned;
		scanned += shrinkctl->nr_scanned;
		cond_resched();
	}

	next_deferred = max_t(long, nr + (long)delta - scanned, 0);
	next_deferred = min(next_deferred, 2 * freeable);
	new_nr = add_nr_deferred(next_deferred, shrinker, shrinkctl);
	(void)new_nr;	/* Linux traces it (mm_shrink_slab_end) */
	return freed;
}

#ifndef CONFIG_SHRINKER_REFCOUNT
static unsigned long shrink_one(struct shrinker *shrinker, gfp_t gfp_mask, int nid,
				void *memcg, int priority)
{
	struct shrink_control sc = {
		.gfp_mask = gfp_mask,
		.nid = nid,
		.memcg = memcg,
	};
	unsigned long ret = do_shrink_slab(&sc, shrinker, priority);

	return ret == SHRINK_EMPTY ? 0 : ret;
}

#ifdef CONFIG_SHRINKER_RWSEM
/*
 * Reclaim must not wait for a registrant (who may be allocating under the
 * rwsem): if it is taken, give up.  A registrant that arrives while the
 * walk is on makes it stop early, reporting progress so the caller does not
 * conclude that slab reclaim is hopeless.
 */
unsigned long shrink_slab(gfp_t gfp_mask, int nid, void *memcg, int priority)
{
	struct shrinker *shrinker;
	unsigned long freed = 0;

	if (!down_read_trylock(&shrinker_rwsem))
		goto out;
	list_for_each_entry(shrinker, &shrinker_list, list) {
		freed += shrink_one(shrinker, gfp_mask, nid, memcg, priority);
		if (rwsem_is_contended(&shrinker_rwsem)) {
			freed = freed ? : 1;
			break;
		}
	}
	up_read(&shrinker_rwsem);
out:
	cond_resched();
	return freed;
}
#else
/*
 * The walk takes no lock a registrant holds: entries stay valid until the
 * grace period unregister_shrinker() waits for, and a registrant's
 * publication is ordered by the list's release store.
 */
unsigned long shrink_slab(gfp_t gfp_mask, int nid, void *memcg, int priority)
{
	struct shrinker *shrinker;
	unsigned long freed = 0;
	int srcu_idx;

	srcu_idx = srcu_read_lock(&shrinker_srcu);
	for (struct list_head *pos = smp_load_acquire(&shrinker_list.next);
	     pos != &shrinker_list; pos = smp_load_acquire(&pos->next)) {
		shrinker = list_entry(pos, struct shrinker, list);
		freed += shrink_one(shrinker, gfp_mask, nid, memcg, priority);
	}
	srcu_read_unlock(&shrinker_srcu, srcu_idx);
	cond_resched();
	return freed;
}
#endif /* CONFIG_SHRINKER_RWSEM */
#endif /* !CONFIG_SHRINKER_REFCOUNT */

/* ------------------------------------------------------------- reclaim */

struct scan_control {
	unsigned long nr_to_reclaim;	/* pages to get back before stopping */
	gfp_t gfp_mask;
	s8 order;
	s8 priority;		/* scan freeable >> priority; DEF_PRIORITY down to 0 */
	s8 reclaim_idx;		/* the highest zone reclaim is for */
	/* LRU pages scanned: always 0 without LRU lists, kept for Linux's tests of it. */
	unsigned long nr_scanned;
	unsigned long nr_reclaimed;
	struct reclaim_state reclaim_state;
};

static void set_task_reclaim_state(struct task_struct *task, struct reclaim_state *rs)
{
	/* A nested reclaimer would count its pages into the outer one's. */
	WARN_ON_ONCE(rs && task->reclaim_state);
	WARN_ON_ONCE(!rs && !task->reclaim_state);
	task->reclaim_state = rs;
}

/*
 * What reclaim does to a node: no LRU pages to scan, only the shrinkers.
 * The pages they and SLUB gave back while we ran are the progress.
 */
static void shrink_node(pg_data_t *pgdat, struct scan_control *sc)
{
	struct reclaim_state *reclaim_state = current->reclaim_state;
	unsigned long nr_reclaimed = sc->nr_reclaimed;

	cond_resched();
	shrink_slab(sc->gfp_mask, pgdat->node_id, NULL, sc->priority);
	if (reclaim_state) {
		sc->nr_reclaimed += reclaim_state->reclaimed_slab;
		count_vm_events(current_is_kswapd() ? SLAB_RECLAIM_KSWAPD :
				SLAB_RECLAIM_DIRECT, reclaim_state->reclaimed_slab);
		reclaim_state->reclaimed_slab = 0;
	}
	/* Progress brings back a node kswapd had given up on. */
	if (sc->nr_reclaimed - nr_reclaimed)
		pgdat->kswapd_failures = 0;
}

/* Direct reclaim: each node of the zonelist once per priority. */
static void shrink_zones(struct zonelist *zonelist, struct scan_control *sc)
{
	pg_data_t *last_pgdat = NULL;
	struct zoneref *z;
	struct zone *zone;

	for_each_zone_zonelist(zone, z, zonelist, sc->reclaim_idx) {
		if (zone->zone_pgdat == last_pgdat)
			continue;
		last_pgdat = zone->zone_pgdat;
		shrink_node(zone->zone_pgdat, sc);
	}
}

/*
 * Raise the pressure one priority at a time until nr_to_reclaim pages
 * came back or priority 0 (every cache scanned in full) is done.
 */
static unsigned long do_try_to_free_pages(struct zonelist *zonelist,
					  struct scan_control *sc)
{
	__count_zid_vm_events(ALLOCSTALL_FIRST, sc->reclaim_idx, 1);
	do {
		sc->nr_scanned = 0;
		shrink_zones(zonelist, sc);
		if (sc->nr_reclaimed >= sc->nr_to_reclaim)
			break;
	} while (--sc->priority >= 0);
	return sc->nr_reclaimed;
}

/*
 * Direct reclaim for an allocation that may sleep; the caller is in
 * PF_MEMALLOC.  Returns the pages freed.  Linux first throttles the caller
 * while the node's reserves are low (throttle_direct_reclaim); irqlab
 * does not.
 */
unsigned long try_to_free_pages(struct zonelist *zonelist, int order, gfp_t gfp_mask)
{
	struct scan_control sc = {
		.nr_to_reclaim = SWAP_CLUSTER_MAX,
		.gfp_mask = gfp_mask,
		.reclaim_idx = gfp_zone(gfp_mask),
		.order = order,
		.priority = DEF_PRIORITY,
	};
	unsigned long nr_reclaimed;

	BUILD_BUG_ON(MAX_ORDER > 127 || DEF_PRIORITY > 127 || MAX_NR_ZONES > 127);
	set_task_reclaim_state(current, &sc.reclaim_state);
	nr_reclaimed = do_try_to_free_pages(zonelist, &sc);
	set_task_reclaim_state(current, NULL);
	return nr_reclaimed;
}

/* ------------------------------------------------------------- kswapd */

/* Is some zone up to @highest_zoneidx above its high watermark? */
static bool pgdat_balanced(pg_data_t *pgdat, int order, int highest_zoneidx)
{
	unsigned long mark = -1;
	struct zone *zone;

	/* Lower zones first: they are the likelier to be balanced. */
	for (int i = 0; i <= highest_zoneidx; i++) {
		zone = pgdat->node_zones + i;
		if (!managed_zone(zone))
			continue;
		mark = high_wmark_pages(zone);
		if (zone_watermark_ok_safe(zone, order, mark, highest_zoneidx))
			return true;
	}
	/* No zone the request could use: nothing to balance. */
	return mark == -1UL;
}

static bool prepare_kswapd_sleep(pg_data_t *pgdat, int order, int highest_zoneidx)
{
	/* Hopeless: direct reclaim has to do it. */
	if (pgdat->kswapd_failures >= MAX_RECLAIM_RETRIES)
		return true;
	return pgdat_balanced(pgdat, order, highest_zoneidx);
}

/*
 * One pass over the node; true if enough LRU pages were scanned that the
 * priority need not rise (never here: there are none).
 */
static bool kswapd_shrink_node(pg_data_t *pgdat, struct scan_control *sc)
{
	sc->nr_to_reclaim = 0;
	for (int z = 0; z <= sc->reclaim_idx; z++) {
		struct zone *zone = pgdat->node_zones + z;

		if (!managed_zone(zone))
			continue;
		sc->nr_to_reclaim += max(high_wmark_pages(zone), SWAP_CLUSTER_MAX);
	}
	shrink_node(pgdat, sc);
	/*
	 * Enough for the order twice over: judge balance at order 0 from
	 * now on, the rest is compaction's job.
	 */
	if (sc->order && sc->nr_reclaimed >= (2UL << sc->order))
		sc->order = 0;
	return sc->nr_scanned >= sc->nr_to_reclaim;
}

/*
 * Reclaim until a zone usable by the waker is above its high watermark,
 * raising the priority each pass that made too little progress.  Returns
 * the order it ended reclaiming for.
 */
static int balance_pgdat(pg_data_t *pgdat, int order, int highest_zoneidx)
{
	struct scan_control sc = {
		.gfp_mask = GFP_KERNEL,
		.order = order,
	};

	set_task_reclaim_state(current, &sc.reclaim_state);
	count_vm_event(PAGEOUTRUN);
	sc.priority = DEF_PRIORITY;
	do {
		unsigned long nr_reclaimed = sc.nr_reclaimed;
		bool raise_priority = true;

		sc.reclaim_idx = highest_zoneidx;
		if (pgdat_balanced(pgdat, sc.order, highest_zoneidx))
			goto out;
		sc.nr_scanned = 0;
		if (kswapd_shrink_node(pgdat, &sc))
			raise_priority = false;
		if (kthread_should_stop())
			break;
		nr_reclaimed = sc.nr_reclaimed - nr_reclaimed;
		if (raise_priority || !nr_reclaimed)
			sc.priority--;
	} while (sc.priority >= 1);

	if (!sc.nr_reclaimed)
		pgdat->kswapd_failures++;
out:
	set_task_reclaim_state(current, NULL);
	return sc.order;
}

/* What a waker asked for, or (none asked) what the last run was for. */
static enum zone_type kswapd_highest_zoneidx(pg_data_t *pgdat,
					     enum zone_type prev_highest_zoneidx)
{
	enum zone_type curr_idx = READ_ONCE(pgdat->kswapd_highest_zoneidx);

	return curr_idx == MAX_NR_ZONES ? prev_highest_zoneidx : curr_idx;
}

/*
 * Balanced: nap for HZ/10 first, and only if nobody woke us meanwhile (the
 * node stays balanced) sleep until the next wakeup_kswapd().  A wakeup
 * during the nap keeps the wakers' request for the next round.
 */
static void kswapd_try_to_sleep(pg_data_t *pgdat, int alloc_order, int reclaim_order,
				unsigned int highest_zoneidx)
{
	long remaining = 0;
	DEFINE_WAIT(wait);

	if (kthread_should_stop())
		return;

	prepare_to_wait(&pgdat->kswapd_wait, &wait, TASK_INTERRUPTIBLE);
	if (prepare_kswapd_sleep(pgdat, reclaim_order, highest_zoneidx)) {
		remaining = schedule_timeout(HZ / 10);
		if (remaining) {
			WRITE_ONCE(pgdat->kswapd_highest_zoneidx,
				   kswapd_highest_zoneidx(pgdat, highest_zoneidx));
			if (READ_ONCE(pgdat->kswapd_order) < reclaim_order)
				WRITE_ONCE(pgdat->kswapd_order, reclaim_order);
		}
		finish_wait(&pgdat->kswapd_wait, &wait);
		prepare_to_wait(&pgdat->kswapd_wait, &wait, TASK_INTERRUPTIBLE);
	}

	if (!remaining && prepare_kswapd_sleep(pgdat, reclaim_order, highest_zoneidx)) {
		if (!kthread_should_stop())
			schedule();
	} else if (remaining) {
		count_vm_event(KSWAPD_LOW_WMARK_HIT_QUICKLY);
	} else {
		count_vm_event(KSWAPD_HIGH_WMARK_HIT_QUICKLY);
	}
	finish_wait(&pgdat->kswapd_wait, &wait);
}

/*
 * The node's background reclaimer: sleeps until an allocation finds a
 * zone below its low watermark, then reclaims until the high watermark
 * is met (or nothing more comes back).  PF_MEMALLOC: what it allocates
 * may use the reserves and never recurses into reclaim.
 */
static int kswapd(void *p)
{
	unsigned int highest_zoneidx = MAX_NR_ZONES - 1;
	unsigned int alloc_order, reclaim_order;
	pg_data_t *pgdat = p;

	current->flags |= PF_MEMALLOC | PF_KSWAPD;
	WRITE_ONCE(pgdat->kswapd_order, 0);
	WRITE_ONCE(pgdat->kswapd_highest_zoneidx, MAX_NR_ZONES);
	for (;;) {
		alloc_order = reclaim_order = READ_ONCE(pgdat->kswapd_order);
		highest_zoneidx = kswapd_highest_zoneidx(pgdat, highest_zoneidx);
kswapd_try_sleep:
		kswapd_try_to_sleep(pgdat, alloc_order, reclaim_order, highest_zoneidx);

		/* Take the wakers' request and leave room for the next ones. */
		alloc_order = READ_ONCE(pgdat->kswapd_order);
		highest_zoneidx = kswapd_highest_zoneidx(pgdat, highest_zoneidx);
		WRITE_ONCE(pgdat->kswapd_order, 0);
		WRITE_ONCE(pgdat->kswapd_highest_zoneidx, MAX_NR_ZONES);
		if (kthread_should_stop())
			break;

		reclaim_order = balance_pgdat(pgdat, alloc_order, highest_zoneidx);
		/* Gave up on the order: sleep on what was reached. */
		if (reclaim_order < alloc_order)
			goto kswapd_try_sleep;
	}
	current->flags &= ~(PF_MEMALLOC | PF_KSWAPD);
	return 0;
}

/*
 * An allocation found @zone below its low watermark: note the order and
 * zone it needs and wake the node's kswapd, unless it is awake already,
 * the node is balanced, or kswapd gave up on it.  From any context an
 * allocation can come from (a wakeup only: no waiting).
 */
void wakeup_kswapd(struct zone *zone, gfp_t gfp_flags, int order,
		   enum zone_type highest_zoneidx)
{
	enum zone_type curr_idx;
	pg_data_t *pgdat;

	if (!managed_zone(zone))
		return;
	pgdat = zone->zone_pgdat;
	curr_idx = READ_ONCE(pgdat->kswapd_highest_zoneidx);
	if (curr_idx == MAX_NR_ZONES || curr_idx < highest_zoneidx)
		WRITE_ONCE(pgdat->kswapd_highest_zoneidx, highest_zoneidx);
	if (READ_ONCE(pgdat->kswapd_order) < order)
		WRITE_ONCE(pgdat->kswapd_order, order);

	if (!waitqueue_active(&pgdat->kswapd_wait))
		return;
	/* A hopeless node is left to direct reclaim; no kcompactd to wake. */
	if (pgdat->kswapd_failures >= MAX_RECLAIM_RETRIES ||
	    pgdat_balanced(pgdat, order, highest_zoneidx))
		return;
	count_vm_event(KSWAPD_WAKE);
	wake_up_interruptible(&pgdat->kswapd_wait);
}

int kswapd_run(int nid)
{
	pg_data_t *pgdat = NODE_DATA(nid);

	if (pgdat->kswapd)
		return 0;
	pgdat->kswapd = kthread_run(kswapd, pgdat, "kswapd%d", nid);
	if (!pgdat->kswapd) {
		pr_err("Failed to start kswapd on node %d\n", nid);
		return -ENOMEM;
	}
	return 0;
}

/* One kswapd per online node. */
void kswapd_init(void)
{
	int nid;

	for_each_online_node(nid)
		kswapd_run(nid);
}
