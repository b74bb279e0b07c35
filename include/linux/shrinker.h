/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SHRINKER_H
#define _LINUX_SHRINKER_H

/*
 * Shrinkers (mm/vmscan.c), Linux 5.15's interface: a cache that can give
 * memory back registers count_objects() and scan_objects(); reclaim's
 * shrink_slab() asks each registered shrinker how much it could free and
 * has it scan a share of that, proportional to the reclaim priority.
 * How the list of shrinkers is protected is a Kconfig choice
 * (SHRINKER_RWSEM, SHRINKER_SRCU or SHRINKER_REFCOUNT, see mm/Kconfig).
 * SHRINKER_REFCOUNT adds Linux 6.7's interface (mm/shrinker.c):
 * shrinker_alloc(), shrinker_register(), shrinker_free(); the 5.15 calls
 * keep working on top of it.
 */
#include <linux/types.h>
#include <linux/list.h>
#include <linux/atomic.h>
#include <linux/gfp.h>
#ifdef CONFIG_SHRINKER_REFCOUNT
#include <linux/refcount.h>
#include <linux/completion.h>
#include <linux/rcupdate.h>
#endif

struct shrink_control {
	gfp_t gfp_mask;
	int nid;		/* the node to scan (SHRINKER_NUMA_AWARE only) */
	unsigned long nr_to_scan;	/* in: objects to scan */
	unsigned long nr_scanned;	/* out: objects scanned (defaults to nr_to_scan) */
	void *memcg;		/* no memory cgroups here: always NULL */
};

/* scan_objects(): nothing can be done now (a lock is contended, say). */
#define SHRINK_STOP	(~0UL)
/* count_objects(): the cache is empty (Linux's memcg bitmap uses it). */
#define SHRINK_EMPTY	(~0UL - 1)

struct shrinker {
	unsigned long (*count_objects)(struct shrinker *, struct shrink_control *sc);
	unsigned long (*scan_objects)(struct shrinker *, struct shrink_control *sc);
	long batch;		/* objects per scan_objects() call; 0: SHRINK_BATCH */
	int seeks;		/* cost to recreate an object; DEFAULT_SEEKS */
	unsigned int flags;
	struct list_head list;
	atomic_long_t *nr_deferred;	/* per node: scan work carried to the next call */
#ifdef CONFIG_SHRINKER_REFCOUNT
	/*
	 * Lookups in shrink_slab() hold a reference while they call into the
	 * shrinker; registration gives it the first one, shrinker_free() drops
	 * that and waits on @done for the last walker to let go.
	 */
	refcount_t refcount;
	struct completion done;
	struct rcu_head rcu;	/* the shrinker is freed a grace period after unlinking */
	void *private_data;	/* the owner's object, for the callbacks */
	/* register_shrinker() on a caller's struct: the allocated one that stands in */
	struct shrinker *stand_in;
#endif
};
#define DEFAULT_SEEKS	2

#define SHRINKER_REGISTERED	(1 << 0)
#define SHRINKER_NUMA_AWARE	(1 << 1)
#define SHRINKER_MEMCG_AWARE	(1 << 2)
#define SHRINKER_NONSLAB	(1 << 3)
#define SHRINKER_ALLOCATED	(1 << 4)	/* came from shrinker_alloc() */

int prealloc_shrinker(struct shrinker *shrinker);
void register_shrinker_prepared(struct shrinker *shrinker);
int register_shrinker(struct shrinker *shrinker);
void unregister_shrinker(struct shrinker *shrinker);
void free_prealloced_shrinker(struct shrinker *shrinker);

#ifdef CONFIG_SHRINKER_REFCOUNT
/* Linux 6.7's interface: the shrinker is the kernel's, freed after an RCU grace period. */
__printf(2, 3) struct shrinker *shrinker_alloc(unsigned int flags, const char *fmt, ...);
void shrinker_register(struct shrinker *shrinker);
void shrinker_free(struct shrinker *shrinker);

static inline bool shrinker_try_get(struct shrinker *shrinker)
{
	return refcount_inc_not_zero(&shrinker->refcount);
}

static inline void shrinker_put(struct shrinker *shrinker)
{
	if (refcount_dec_and_test(&shrinker->refcount))
		complete(&shrinker->done);
}
#endif

unsigned long shrink_slab(gfp_t gfp_mask, int nid, void *memcg, int priority);
/* One shrinker's share at @priority; exposed for the tests. */
unsigned long do_shrink_slab(struct shrink_control *shrinkctl,
			     struct shrinker *shrinker, int priority);

#define SHRINK_BATCH		128
#define DEF_PRIORITY		12

/* The lock a registrant holds while it edits the shrinker list. */
#ifdef CONFIG_SHRINKER_RWSEM
#include <linux/rwsem.h>
extern struct rw_semaphore shrinker_rwsem;
#else
#include <linux/mutex.h>
extern struct mutex shrinker_mutex;
#endif
#ifdef CONFIG_SHRINKER_SRCU
#include <linux/srcu.h>
extern struct srcu_struct shrinker_srcu;
#endif
/* The variant's name in reports: rwsem, srcu or refcount. */
#if defined(CONFIG_SHRINKER_RWSEM)
#define SHRINKER_VARIANT	"rwsem"
#elif defined(CONFIG_SHRINKER_SRCU)
#define SHRINKER_VARIANT	"srcu"
#else
#define SHRINKER_VARIANT	"refcount"
#endif
/* The registrant's side of that lock, held by the tests and run=shrink. */
void shrinker_list_lock(void);
void shrinker_list_unlock(void);
/* The number of registered shrinkers. */
unsigned int shrinker_count(void);

#endif
