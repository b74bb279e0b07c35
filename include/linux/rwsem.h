/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_RWSEM_H
#define _LINUX_RWSEM_H

/*
 * struct rw_semaphore: a sleeping reader-writer lock (Linux 5.15).
 *
 * On !PREEMPT_RT (kernel/locking/rwsem.c) @count holds the writer bit,
 * the waiters and handoff flags and, from bit 8 up, the number of
 * readers; @owner names the writer, or the last reader with bit 0 set
 * (a hint only: readers do not clear it).  Waiters queue FIFO, readers
 * and writers mixed, on @wait_list under @wait_lock.  Once anybody
 * waits, new readers queue too, so a stream of readers cannot starve a
 * writer; a waiter that has waited RWSEM_WAIT_TIMEOUT jiffies (an RT
 * writer at once) sets the handoff bit, which stops the lock from being
 * taken by anyone but the first waiter.
 *
 * irqlab has no signals: the _interruptible and _killable forms wait like
 * the plain ones and return 0.
 */
#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/spinlock_types_raw.h>

#ifdef CONFIG_DEBUG_LOCK_ALLOC
# define __RWSEM_DEP_MAP_INIT(lockname)					\
	, .dep_map = { .name = #lockname, .wait_type_inner = LD_WAIT_SLEEP }
#else
# define __RWSEM_DEP_MAP_INIT(lockname)
#endif

#ifndef CONFIG_PREEMPT_RT

struct rw_semaphore {
	atomic_long_t count;
	atomic_long_t owner;
	raw_spinlock_t wait_lock;
	struct list_head wait_list;
#ifdef CONFIG_DEBUG_LOCK_ALLOC
	struct lockdep_map dep_map;
#endif
};

#define RWSEM_UNLOCKED_VALUE	0L

#define __RWSEM_INITIALIZER(name)					\
	{ .count = ATOMIC_LONG_INIT(RWSEM_UNLOCKED_VALUE),		\
	  .owner = ATOMIC_LONG_INIT(0),					\
	  .wait_lock = __RAW_SPIN_LOCK_INITIALIZER(name.wait_lock),	\
	  .wait_list = LIST_HEAD_INIT(name.wait_list)			\
	  __RWSEM_DEP_MAP_INIT(name) }

#define DECLARE_RWSEM(semname)						\
	struct rw_semaphore semname = __RWSEM_INITIALIZER(semname)

void __init_rwsem(struct rw_semaphore *rwsem, const char *name,
		  struct lock_class_key *key);

/* One lockdep class per initialisation site, as Linux. */
#define init_rwsem(rwsem)							\
do {									\
	static struct lock_class_key __key;				\
									\
	__init_rwsem((rwsem), #rwsem, &__key);				\
} while (0)

/* Held by anyone, or about to be (a waiter counts, as in Linux). */
static inline int rwsem_is_locked(struct rw_semaphore *rwsem)
{
	return atomic_long_read(&rwsem->count) != RWSEM_UNLOCKED_VALUE;
}

static inline int rwsem_is_contended(struct rw_semaphore *rwsem)
{
	return !list_empty(&rwsem->wait_list);
}

#else	/* CONFIG_PREEMPT_RT */

/*
 * PREEMPT_RT: rwbase_rt in its sleeping-mutex flavour (the end of
 * kernel/locking/rwsem.c).  Writers take an rt_mutex, so readers that
 * find a writer in boost it; a writer waits, unboosting, for the readers
 * already inside, and (as in 5.15) readers still get in until the writer
 * is in: a steady stream of readers can starve a writer.
 */
#include <linux/rwbase_rt.h>

struct rw_semaphore {
	struct rwbase_rt rwbase;
#ifdef CONFIG_DEBUG_LOCK_ALLOC
	struct lockdep_map dep_map;
#endif
};

#define __RWSEM_INITIALIZER(name)					\
	{ .rwbase = __RWBASE_INITIALIZER(name.rwbase)			\
	  __RWSEM_DEP_MAP_INIT(name) }

#define DECLARE_RWSEM(semname)						\
	struct rw_semaphore semname = __RWSEM_INITIALIZER(semname)

void __rwsem_rt_init(struct rw_semaphore *rwsem, const char *name,
		     struct lock_class_key *key);

#define init_rwsem(sem)							\
do {									\
	static struct lock_class_key __key;				\
									\
	init_rwbase_rt(&(sem)->rwbase);					\
	__rwsem_rt_init((sem), #sem, &__key);				\
} while (0)

static __always_inline int rwsem_is_locked(struct rw_semaphore *sem)
{
	return rw_base_is_locked(&sem->rwbase);
}

static __always_inline int rwsem_is_contended(struct rw_semaphore *sem)
{
	return rw_base_is_contended(&sem->rwbase);
}

#endif

void down_read(struct rw_semaphore *rwsem);
int down_read_interruptible(struct rw_semaphore *rwsem);
int down_read_killable(struct rw_semaphore *rwsem);
/* 1 if taken, 0 if not (never sleeps). */
int down_read_trylock(struct rw_semaphore *rwsem);
void up_read(struct rw_semaphore *rwsem);

void down_write(struct rw_semaphore *rwsem);
int down_write_killable(struct rw_semaphore *rwsem);
int down_write_trylock(struct rw_semaphore *rwsem);
void up_write(struct rw_semaphore *rwsem);

/* Turn a write lock into a read lock without letting a writer in between. */
void downgrade_write(struct rw_semaphore *rwsem);

#ifdef CONFIG_DEBUG_LOCK_ALLOC
void down_read_nested(struct rw_semaphore *rwsem, int subclass);
void down_write_nested(struct rw_semaphore *rwsem, int subclass);
#else
# define down_read_nested(rwsem, subclass)	down_read(rwsem)
# define down_write_nested(rwsem, subclass)	down_write(rwsem)
#endif

#endif
