/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_PERCPU_RWSEM_H
#define _LINUX_PERCPU_RWSEM_H

/*
 * percpu_rw_semaphore (Linux 5.15): a reader-writer sleeping lock for
 * data read all the time and written almost never (cpu_hotplug_lock).
 *
 * While no writer is around (rcu_sync idle) a reader only bumps its own
 * CPU's count, preemption off for the one instruction: no atomic, no
 * shared cache line written.  A writer first closes that path
 * (rcu_sync_enter(): a grace period, after which every reader sees it
 * closed), then sets @block and waits on @writer until the per-CPU counts
 * add up to zero.  Readers that meet @block back out and queue on
 * @waiters, where the writer's unlock hands the lock over: to the readers
 * queued first up to the first writer, or to that writer.
 *
 * A reader's count is taken on one CPU and may be dropped on another, so
 * only the sum over all CPUs means anything.
 */
#include <linux/atomic.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/lockdep.h>
#include <linux/rcu_sync.h>
#include <linux/swait.h>
#include <linux/wait.h>

struct percpu_rw_semaphore {
	struct rcu_sync rss;
	unsigned int __percpu *read_count;
	/*
	 * The writer waiting for the readers to drain.  Linux has an
	 * rcuwait here (a bare task pointer read under RCU); irqlab frees
	 * task structs without a grace period, so the pointer lives in a
	 * swait queue whose raw lock keeps the task alive for the wakeup.
	 */
	struct swait_queue_head writer;
	struct wait_queue_head waiters;	/* readers and writers blocked */
	atomic_t block;			/* a writer holds or is taking it */
	/* irqlab: readers that took the slow path (tests read it). */
	atomic_long_t slow_reads;
#ifdef CONFIG_DEBUG_LOCK_ALLOC
	struct lockdep_map dep_map;
#endif
};

#ifdef CONFIG_DEBUG_LOCK_ALLOC
# define __PERCPU_RWSEM_DEP_MAP_INIT(lockname)				\
	.dep_map = { .name = #lockname, .wait_type_inner = LD_WAIT_SLEEP },
#else
# define __PERCPU_RWSEM_DEP_MAP_INIT(lockname)
#endif

#define __DEFINE_PERCPU_RWSEM(name, is_static)				\
static DEFINE_PER_CPU(unsigned int, __percpu_rwsem_rc_##name);		\
is_static struct percpu_rw_semaphore name = {				\
	.rss = __RCU_SYNC_INITIALIZER(name.rss),			\
	.read_count = &__percpu_rwsem_rc_##name,			\
	.writer = __SWAIT_QUEUE_HEAD_INITIALIZER(name.writer),		\
	.waiters = __WAIT_QUEUE_HEAD_INITIALIZER(name.waiters),	\
	.block = ATOMIC_INIT(0),					\
	.slow_reads = ATOMIC_LONG_INIT(0),				\
	__PERCPU_RWSEM_DEP_MAP_INIT(name)				\
}

#define DEFINE_PERCPU_RWSEM(name)		__DEFINE_PERCPU_RWSEM(name, /* not static */)
#define DEFINE_STATIC_PERCPU_RWSEM(name)	__DEFINE_PERCPU_RWSEM(name, static)

bool __percpu_down_read(struct percpu_rw_semaphore *sem, bool try);
void __percpu_up_read_slow(struct percpu_rw_semaphore *sem);
void percpu_down_write(struct percpu_rw_semaphore *sem);
void percpu_up_write(struct percpu_rw_semaphore *sem);

static inline void percpu_down_read(struct percpu_rw_semaphore *sem)
{
	might_sleep();
	rwsem_acquire_read(&sem->dep_map, 0, 0, _RET_IP_);
	/*
	 * Preemption off makes this an RCU reader: a writer's
	 * rcu_sync_enter() waits for it, so a reader that saw the fast path
	 * open has counted itself before the writer sums the counts.
	 */
	preempt_disable();
	if (likely(rcu_sync_is_idle(&sem->rss)))
		this_cpu_inc(*sem->read_count);
	else
		__percpu_down_read(sem, false);
	preempt_enable();
}

static inline bool percpu_down_read_trylock(struct percpu_rw_semaphore *sem)
{
	bool ret = true;

	preempt_disable();
	if (likely(rcu_sync_is_idle(&sem->rss)))
		this_cpu_inc(*sem->read_count);
	else
		ret = __percpu_down_read(sem, true);
	preempt_enable();
	if (ret)
		rwsem_acquire_read(&sem->dep_map, 0, 1, _RET_IP_);
	return ret;
}

static inline void percpu_up_read(struct percpu_rw_semaphore *sem)
{
	rwsem_release(&sem->dep_map, _RET_IP_);
	preempt_disable();
	if (likely(rcu_sync_is_idle(&sem->rss)))
		this_cpu_dec(*sem->read_count);
	else
		__percpu_up_read_slow(sem);
	preempt_enable();
}

/* Readers now, summed over the CPUs: racy unless writers are shut out. */
unsigned int percpu_rwsem_readers(struct percpu_rw_semaphore *sem);

#define percpu_rwsem_assert_held(sem)	lockdep_assert_held(sem)

#endif
