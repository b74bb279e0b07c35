/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __LINUX_MUTEX_H
#define __LINUX_MUTEX_H

/*
 * struct mutex: a sleeping lock with a single owner (Linux 5.15).
 *
 * On !PREEMPT_RT (kernel/locking/mutex.c) the owner word holds the owning
 * task pointer and three flag bits in its low bits (task_struct is far
 * more than 8-byte aligned): WAITERS (unlock must wake someone), HANDOFF
 * (the first waiter asks the unlocker to pass the lock straight to it)
 * and PICKUP (the lock was passed and waits for that waiter to take it).
 * Locking is one cmpxchg of NULL -> current when uncontended; a contended
 * locker first spins while the owner runs on another CPU (queued on the
 * OSQ), then sleeps on the FIFO wait_list.
 *
 * The rules are Linux's: only the owner unlocks, no recursion, no use
 * from interrupt context, a task does not exit with a mutex held.
 * irqlab has no signals, so the _interruptible and _killable forms wait
 * like mutex_lock() and return 0.
 */
#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/spinlock_types_raw.h>
#include <linux/osq_lock.h>

struct task_struct;
struct lockdep_map;

#ifdef CONFIG_DEBUG_LOCK_ALLOC
# define __DEP_MAP_MUTEX_INITIALIZER(lockname)				\
	, .dep_map = { .name = #lockname, .wait_type_inner = LD_WAIT_SLEEP }
#else
# define __DEP_MAP_MUTEX_INITIALIZER(lockname)
#endif

#ifndef CONFIG_PREEMPT_RT

struct mutex {
	atomic_long_t owner;
	raw_spinlock_t wait_lock;
	struct optimistic_spin_queue osq;	/* spinners on the owner */
	struct list_head wait_list;		/* sleepers, FIFO */
#ifdef CONFIG_DEBUG_LOCK_ALLOC
	struct lockdep_map dep_map;
#endif
};

#define __MUTEX_INITIALIZER(lockname)					\
	{ .owner = ATOMIC_LONG_INIT(0),					\
	  .wait_lock = __RAW_SPIN_LOCK_INITIALIZER(lockname.wait_lock),	\
	  .osq = OSQ_LOCK_UNLOCKED,					\
	  .wait_list = LIST_HEAD_INIT(lockname.wait_list)		\
	  __DEP_MAP_MUTEX_INITIALIZER(lockname) }

#define DEFINE_MUTEX(lockname)						\
	struct mutex lockname = __MUTEX_INITIALIZER(lockname)

/* One lockdep class per initialisation site, as Linux. */
#define mutex_init(mutex)						\
do {									\
	static struct lock_class_key __key;				\
									\
	__mutex_init((mutex), #mutex, &__key);				\
} while (0)

void __mutex_init(struct mutex *lock, const char *name, struct lock_class_key *key);
bool mutex_is_locked(struct mutex *lock);

#else	/* CONFIG_PREEMPT_RT */

/*
 * PREEMPT_RT: a mutex is an rt_mutex (kernel/locking/rtmutex_api.c), so
 * a blocked locker boosts the owner through whole chains, spins while
 * the owner runs, and is woken in priority order rather than FIFO.
 */
#include <linux/rtmutex.h>

struct mutex {
	struct rt_mutex_base rtmutex;
#ifdef CONFIG_DEBUG_LOCK_ALLOC
	struct lockdep_map dep_map;
#endif
};

#define __MUTEX_INITIALIZER(mutexname)					\
	{ .rtmutex = __RT_MUTEX_BASE_INITIALIZER(mutexname.rtmutex)	\
	  __DEP_MAP_MUTEX_INITIALIZER(mutexname) }

#define DEFINE_MUTEX(mutexname)						\
	struct mutex mutexname = __MUTEX_INITIALIZER(mutexname)

void __mutex_rt_init(struct mutex *lock, const char *name, struct lock_class_key *key);

#define __mutex_init(mutex, name, key)					\
do {									\
	rt_mutex_base_init(&(mutex)->rtmutex);				\
	__mutex_rt_init((mutex), (name), (key));			\
} while (0)

#define mutex_init(mutex)						\
do {									\
	static struct lock_class_key __key;				\
									\
	__mutex_init((mutex), #mutex, &__key);				\
} while (0)

#define mutex_is_locked(l)	rt_mutex_base_is_locked(&(l)->rtmutex)

#endif

#ifdef CONFIG_DEBUG_LOCK_ALLOC
void mutex_lock_nested(struct mutex *lock, unsigned int subclass);
void _mutex_lock_nest_lock(struct mutex *lock, struct lockdep_map *nest_lock);
int mutex_lock_interruptible_nested(struct mutex *lock, unsigned int subclass);
int mutex_lock_killable_nested(struct mutex *lock, unsigned int subclass);

#define mutex_lock(lock)		mutex_lock_nested(lock, 0)
#define mutex_lock_interruptible(lock)	mutex_lock_interruptible_nested(lock, 0)
#define mutex_lock_killable(lock)	mutex_lock_killable_nested(lock, 0)
#define mutex_lock_nest_lock(lock, nest)				\
do {									\
	_mutex_lock_nest_lock(lock, &(nest)->dep_map);			\
} while (0)
#else
void mutex_lock(struct mutex *lock);
int mutex_lock_interruptible(struct mutex *lock);
int mutex_lock_killable(struct mutex *lock);

# define mutex_lock_nested(lock, sub)			mutex_lock(lock)
# define mutex_lock_interruptible_nested(lock, sub)	mutex_lock_interruptible(lock)
# define mutex_lock_killable_nested(lock, sub)		mutex_lock_killable(lock)
# define mutex_lock_nest_lock(lock, nest)		mutex_lock(lock)
#endif

/* 1 if the lock was taken, 0 if it is held (never sleeps). */
int mutex_trylock(struct mutex *lock);
void mutex_unlock(struct mutex *lock);

#endif
