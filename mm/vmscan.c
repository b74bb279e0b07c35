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
 */
#include <linux/shrinker.h>
#include <linux/slab.h>
#include <linux/sched.h>
#include <linux/mmzone.h>
#include <linux/errno.h>
#include <linux/kernel.h>

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

int register_shrinker(struct shrinker *shrinker)
{
	int err = prealloc_shrinker(shrinker);

	if (err)
		return err;
	register_shrinker_prepared(shrinker);
	return 0;
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
