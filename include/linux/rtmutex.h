/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_RTMUTEX_H
#define _LINUX_RTMUTEX_H

/*
 * rt_mutex: a sleeping lock with priority inheritance (kernel/locking/).
 * rt_mutex_base is the part shared with PREEMPT_RT's spinlock_t, rwlock_t,
 * mutex and rw_semaphore: the waiter tree ordered by priority, the lock
 * word (owner task pointer, bit 0 = RT_MUTEX_HAS_WAITERS) and wait_lock,
 * a raw spinlock that serialises everything but the uncontended cmpxchg
 * fast paths.
 */
#include <linux/compiler.h>
#include <linux/rbtree_types.h>
#include <linux/spinlock_types_raw.h>

struct task_struct;

struct rt_mutex_base {
	raw_spinlock_t wait_lock;
	struct rb_root_cached waiters;
	struct task_struct *owner;
};

#define __RT_MUTEX_BASE_INITIALIZER(rtbasename)				\
{									\
	.wait_lock = __RAW_SPIN_LOCK_INITIALIZER(rtbasename.wait_lock),	\
	.waiters = RB_ROOT_CACHED,					\
	.owner = NULL							\
}

static inline bool rt_mutex_base_is_locked(struct rt_mutex_base *lock)
{
	return READ_ONCE(lock->owner) != NULL;
}

void rt_mutex_base_init(struct rt_mutex_base *rtb);

struct rt_mutex {
	struct rt_mutex_base rtmutex;
#ifdef CONFIG_DEBUG_LOCK_ALLOC
	struct lockdep_map dep_map;
#endif
};

#ifdef CONFIG_DEBUG_LOCK_ALLOC
#define __DEP_MAP_RT_MUTEX_INITIALIZER(mutexname)			\
	.dep_map = { .name = #mutexname, .wait_type_inner = LD_WAIT_SLEEP },
#else
#define __DEP_MAP_RT_MUTEX_INITIALIZER(mutexname)
#endif

#define __RT_MUTEX_INITIALIZER(mutexname)				\
{									\
	.rtmutex = __RT_MUTEX_BASE_INITIALIZER(mutexname.rtmutex),	\
	__DEP_MAP_RT_MUTEX_INITIALIZER(mutexname)			\
}

#define DEFINE_RT_MUTEX(mutexname)					\
	struct rt_mutex mutexname = __RT_MUTEX_INITIALIZER(mutexname)

struct lock_class_key;
void __rt_mutex_init(struct rt_mutex *lock, const char *name,
		     struct lock_class_key *key);

#define rt_mutex_init(mutex)						\
do {									\
	static struct lock_class_key __key;				\
	__rt_mutex_init(mutex, #mutex, &__key);				\
} while (0)

void rt_mutex_lock_nested(struct rt_mutex *lock, unsigned int subclass);
#define rt_mutex_lock(lock)	rt_mutex_lock_nested(lock, 0)
int rt_mutex_lock_interruptible(struct rt_mutex *lock);
int rt_mutex_lock_killable(struct rt_mutex *lock);
int rt_mutex_trylock(struct rt_mutex *lock);
void rt_mutex_unlock(struct rt_mutex *lock);

/*
 * irqlab additions for tests and workloads: a lock attempt bounded by a
 * relative timeout in ns (-ETIMEDOUT), and one that reports a deadlock
 * (-EDEADLK) instead of blocking forever, as futex PI locking does.
 */
int rt_mutex_lock_timeout(struct rt_mutex *lock, u64 timeout_ns);
int rt_mutex_lock_detect(struct rt_mutex *lock, u64 timeout_ns);
struct hrtimer_sleeper;
int rt_mutex_lock_sleeper(struct rt_mutex *lock, struct hrtimer_sleeper *to);

/* Event counters for tests and reports (all rt_mutex-based locks). */
struct rt_mutex_stats {
	unsigned long slowlock;		/* entered the blocking path */
	unsigned long spin_on_owner;	/* spun on a running owner until it let go */
	unsigned long spin_acquired;	/* ...and then got the lock */
	unsigned long lateral_steals;	/* an equal-priority rtlock steal */
	unsigned long chain_walks;	/* rt_mutex_adjust_prio_chain() steps */
	unsigned long deadlocks;	/* -EDEADLK returned */
	unsigned long depth_limit;	/* max_lock_depth hit */
};
extern struct rt_mutex_stats rt_mutex_stats;

/* The longest PI chain walked before -EDEADLK (rtmutex.max_lock_depth=). */
extern int max_lock_depth;

struct task_struct *rt_mutex_base_owner(struct rt_mutex_base *lock);

#endif
