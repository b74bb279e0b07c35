// SPDX-License-Identifier: GPL-2.0
/*
 * struct rw_semaphore on !PREEMPT_RT, after Linux 5.15's
 * kernel/locking/rwsem.c.
 *
 * @count:
 *	bit 0		RWSEM_WRITER_LOCKED
 *	bit 1		RWSEM_FLAG_WAITERS	wait_list not empty
 *	bit 2		RWSEM_FLAG_HANDOFF	only the first waiter may take it
 *	bits 8-62	readers holding it (or trying to: RWSEM_READER_BIAS each)
 * A reader adds its bias first and looks afterwards: with no writer, no
 * waiters and no handoff it holds the lock (one atomic add); otherwise
 * it goes to rwsem_down_read_slowpath(), still counted, and sorts it out
 * there.  A writer needs @count == 0 (one cmpxchg).
 *
 * Waiters queue in arrival order.  rwsem_mark_wake() serves the head: a
 * writer there is woken to try for itself (a running writer may still
 * get there first); readers are granted the lock by the waker (their
 * bias added on their behalf) before they run, every queued reader at
 * once, up to MAX_READERS_WAKEUP, the writers among them staying queued.
 *
 * Not here (yet): optimistic spinning of writers on a running owner
 * (Linux's CONFIG_RWSEM_SPIN_ON_OWNER, rwsem_optimistic_spin()); a
 * contended writer sleeps at once.  @owner is maintained as Linux does,
 * for the debugger and for that spinning.
 */
#include <linux/rwsem.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/jiffies.h>
#include <linux/sched/task.h>
#include <linux/sched/wake_q.h>
#include "lock_events.h"

#ifndef CONFIG_PREEMPT_RT

#define RWSEM_WRITER_LOCKED	(1UL << 0)
#define RWSEM_FLAG_WAITERS	(1UL << 1)
#define RWSEM_FLAG_HANDOFF	(1UL << 2)

#define RWSEM_READER_SHIFT	8
#define RWSEM_READER_BIAS	(1L << RWSEM_READER_SHIFT)
#define RWSEM_READER_MASK	(-RWSEM_READER_BIAS)	/* bits 8 and up */
#define RWSEM_WRITER_MASK	RWSEM_WRITER_LOCKED
#define RWSEM_LOCK_MASK		(RWSEM_WRITER_MASK | RWSEM_READER_MASK)
/* What sends a reader that added its bias to the slow path. */
#define RWSEM_READ_FAILED_MASK	(RWSEM_WRITER_MASK | RWSEM_FLAG_WAITERS | \
				 RWSEM_FLAG_HANDOFF)

/* @owner: the writer, or a reader tagged with bit 0. */
#define RWSEM_READER_OWNED	(1UL << 0)

/* How long a waiter waits before it may demand a handoff (4 ms). */
#define RWSEM_WAIT_TIMEOUT	((HZ + 249) / 250)
/* Readers granted per wakeup pass, bounding the wait_lock hold time. */
#define MAX_READERS_WAKEUP	0x100

static inline void rwsem_set_owner(struct rw_semaphore *rwsem)
{
	atomic_long_set(&rwsem->owner, (long)current);
}

static inline void rwsem_clear_owner(struct rw_semaphore *rwsem)
{
	atomic_long_set(&rwsem->owner, 0);
}

static inline void __rwsem_set_reader_owned(struct rw_semaphore *rwsem,
					    struct task_struct *reader)
{
	atomic_long_set(&rwsem->owner, (long)reader | RWSEM_READER_OWNED);
}

static inline void rwsem_set_reader_owned(struct rw_semaphore *rwsem)
{
	__rwsem_set_reader_owned(rwsem, current);
}

static inline bool is_rwsem_reader_owned(struct rw_semaphore *rwsem)
{
	return atomic_long_read(&rwsem->owner) & RWSEM_READER_OWNED;
}

void __init_rwsem(struct rw_semaphore *rwsem, const char *name,
		  struct lock_class_key *key)
{
	lockdep_init_map_wait(&rwsem->dep_map, name, key, 0, LD_WAIT_SLEEP);
	atomic_long_set(&rwsem->count, RWSEM_UNLOCKED_VALUE);
	raw_spin_lock_init(&rwsem->wait_lock);
	INIT_LIST_HEAD(&rwsem->wait_list);
	atomic_long_set(&rwsem->owner, 0);
}

enum rwsem_waiter_type {
	RWSEM_WAITING_FOR_WRITE,
	RWSEM_WAITING_FOR_READ,
};

struct rwsem_waiter {
	struct list_head list;
	struct task_struct *task;	/* a reader's is cleared when granted */
	enum rwsem_waiter_type type;
	unsigned long timeout;		/* jiffies after which it may demand a handoff */
	bool handoff_set;		/* writers: this waiter owns the handoff bit */
};

#define rwsem_first_waiter(rwsem) \
	list_first_entry(&(rwsem)->wait_list, struct rwsem_waiter, list)

enum rwsem_wake_type {
	RWSEM_WAKE_ANY,		/* whoever is first */
	RWSEM_WAKE_READERS,	/* readers only */
	RWSEM_WAKE_READ_OWNED,	/* readers only, and the waker holds a read lock */
};

/* Under wait_lock.  The caller sets RWSEM_FLAG_WAITERS. */
static inline void rwsem_add_waiter(struct rw_semaphore *rwsem, struct rwsem_waiter *waiter)
{
	list_add_tail(&waiter->list, &rwsem->wait_list);
}

/*
 * Grant or wake the head of the queue; under wait_lock, with waiters.
 * Readers are granted here, the writer only woken.
 */
static void rwsem_mark_wake(struct rw_semaphore *rwsem, enum rwsem_wake_type wake_type,
			    struct wake_q_head *wake_q)
{
	struct rwsem_waiter *waiter, *tmp;
	long old, woken = 0, delta = 0;
	struct list_head granted;

	waiter = rwsem_first_waiter(rwsem);
	if (waiter->type == RWSEM_WAITING_FOR_WRITE) {
		/* Readers arriving now queue behind it; a writer may steal. */
		if (wake_type == RWSEM_WAKE_ANY) {
			wake_q_add(wake_q, waiter->task);
			lockevent_inc(rwsem_wake_writer);
		}
		return;
	}

	/*
	 * Take one reader's share first, so that a writer that got in
	 * meanwhile is seen before anyone is dequeued.  The holder of a read
	 * lock (READ_OWNED) needs no such guard.
	 */
	if (wake_type != RWSEM_WAKE_READ_OWNED) {
		delta = RWSEM_READER_BIAS;
		old = atomic_long_fetch_add(delta, &rwsem->count);
		if (unlikely(old & RWSEM_WRITER_MASK)) {
			/* Writers keep beating the woken readers: stop that. */
			if (!(old & RWSEM_FLAG_HANDOFF) &&
			    time_after(jiffies, waiter->timeout)) {
				delta -= RWSEM_FLAG_HANDOFF;
				lockevent_inc(rwsem_rlock_handoff);
			}
			atomic_long_add(-delta, &rwsem->count);
			return;
		}
		__rwsem_set_reader_owned(rwsem, waiter->task);
	}

	/* Every queued reader, writers skipped (they keep their places). */
	INIT_LIST_HEAD(&granted);
	list_for_each_entry_safe(waiter, tmp, &rwsem->wait_list, list) {
		if (waiter->type == RWSEM_WAITING_FOR_WRITE)
			continue;
		list_move_tail(&waiter->list, &granted);
		if (++woken >= MAX_READERS_WAKEUP)
			break;
	}
	lockevent_cond_inc(rwsem_wake_reader, woken);

	delta = woken * RWSEM_READER_BIAS - delta;
	old = atomic_long_read(&rwsem->count);
	if (list_empty(&rwsem->wait_list)) {
		delta -= RWSEM_FLAG_WAITERS;
		if (old & RWSEM_FLAG_HANDOFF)
			delta -= RWSEM_FLAG_HANDOFF;
	} else if (woken && (old & RWSEM_FLAG_HANDOFF)) {
		/* Readers got in: the handoff they asked for is done. */
		delta -= RWSEM_FLAG_HANDOFF;
	}
	if (delta)
		atomic_long_add(delta, &rwsem->count);

	/* The count says they hold it; now tell them, and queue their wakeups. */
	list_for_each_entry_safe(waiter, tmp, &granted, list) {
		struct task_struct *tsk = get_task_struct(waiter->task);

		/*
		 * Cleared before queueing the wakeup, or a wakeup already
		 * pending from elsewhere could find the task still waiting.
		 * From this store on the reader may return: @waiter, on its
		 * stack, is not touched again; our reference keeps @tsk.
		 */
		smp_store_release(&waiter->task, NULL);
		wake_q_add(wake_q, tsk);
		put_task_struct(tsk);
	}
}

/*
 * A queued writer's attempt, under wait_lock.  Takes the lock if it is
 * free (and no handoff is owed to someone else); otherwise, once this
 * waiter is first and has waited long enough (or is an RT task), sets
 * the handoff bit so that nobody else takes it next.
 */
static bool rwsem_try_write_lock(struct rw_semaphore *rwsem, struct rwsem_waiter *waiter)
{
	bool first = rwsem_first_waiter(rwsem) == waiter;
	long count, new;

	count = atomic_long_read(&rwsem->count);
	do {
		bool has_handoff = count & RWSEM_FLAG_HANDOFF;

		if (has_handoff) {
			if (!first)
				return false;
			/* A handoff set for an earlier first waiter is ours now. */
			waiter->handoff_set = true;
		}

		new = count;
		if (count & RWSEM_LOCK_MASK) {
			if (has_handoff || (!rt_task(waiter->task) &&
					    !time_after(jiffies, waiter->timeout)))
				return false;
			new |= RWSEM_FLAG_HANDOFF;
		} else {
			new |= RWSEM_WRITER_LOCKED;
			new &= ~RWSEM_FLAG_HANDOFF;
			if (list_is_singular(&rwsem->wait_list))
				new &= ~RWSEM_FLAG_WAITERS;
		}
	} while (!atomic_long_try_cmpxchg_acquire(&rwsem->count, &count, new));

	if (new & RWSEM_FLAG_HANDOFF) {
		waiter->handoff_set = true;
		lockevent_inc(rwsem_wlock_handoff);
		return false;
	}

	list_del(&waiter->list);
	rwsem_set_owner(rwsem);
	return true;
}

/* ------------------------------------------------------------ slow paths */

/*
 * A reader whose fast path saw a writer, waiters or a handoff.  @count
 * is what that add returned; our bias is still in it.
 */
static void rwsem_down_read_slowpath(struct rw_semaphore *rwsem, long count,
				     unsigned int state)
{
	long delta = -RWSEM_READER_BIAS;
	long rcnt = count >> RWSEM_READER_SHIFT;
	struct rwsem_waiter waiter;
	DEFINE_WAKE_Q(wake_q);

	/*
	 * Other readers hold it and only waiters stopped us: queue behind
	 * them rather than take it past a waiting writer.
	 */
	if (is_rwsem_reader_owned(rwsem) && rcnt > 1 && !(count & RWSEM_WRITER_LOCKED))
		goto queue;

	/*
	 * No writer and no handoff: our bias makes us a holder already.  If
	 * we are the only reader, let the queued readers share it with us.
	 */
	if (!(count & (RWSEM_FLAG_HANDOFF | RWSEM_WRITER_LOCKED))) {
		rwsem_set_reader_owned(rwsem);
		lockevent_inc(rwsem_rlock_steal);
		if (rcnt == 1 && (count & RWSEM_FLAG_WAITERS)) {
			raw_spin_lock_irq(&rwsem->wait_lock);
			if (!list_empty(&rwsem->wait_list))
				rwsem_mark_wake(rwsem, RWSEM_WAKE_READ_OWNED, &wake_q);
			raw_spin_unlock_irq(&rwsem->wait_lock);
			wake_up_q(&wake_q);
		}
		return;
	}

queue:
	waiter.task = current;
	waiter.type = RWSEM_WAITING_FOR_READ;
	waiter.timeout = jiffies + RWSEM_WAIT_TIMEOUT;

	raw_spin_lock_irq(&rwsem->wait_lock);
	if (list_empty(&rwsem->wait_list)) {
		/*
		 * The waiters that stopped us are gone; if the writer is too,
		 * we hold the lock (bias still in) without queueing.
		 */
		if (!(atomic_long_read(&rwsem->count) &
		      (RWSEM_WRITER_MASK | RWSEM_FLAG_HANDOFF))) {
			raw_spin_unlock_irq(&rwsem->wait_lock);
			rwsem_set_reader_owned(rwsem);
			return;
		}
		delta += RWSEM_FLAG_WAITERS;
	}
	rwsem_add_waiter(rwsem, &waiter);

	/* Now a waiter, no longer a holder: drop the bias. */
	count = atomic_long_add_return(delta, &rwsem->count);

	/*
	 * If nobody holds it now, the holder we saw left before our bias
	 * went: no unlock will wake the queue, so we do.  Also, as the first
	 * waiter behind readers only, wake the readers (us included).
	 */
	if (!(count & RWSEM_LOCK_MASK) ||
	    (!(count & RWSEM_WRITER_MASK) && (delta & RWSEM_FLAG_WAITERS)))
		rwsem_mark_wake(rwsem, RWSEM_WAKE_ANY, &wake_q);

	raw_spin_unlock_irq(&rwsem->wait_lock);
	wake_up_q(&wake_q);

	/* Granted when rwsem_mark_wake() clears waiter.task. */
	for (;;) {
		set_current_state(state);
		if (!smp_load_acquire(&waiter.task))
			break;
		lock_stat_note_sleep();
		schedule();
		lockevent_inc(rwsem_sleep_reader);
	}
	__set_current_state(TASK_RUNNING);
}

static void rwsem_down_write_slowpath(struct rw_semaphore *rwsem, unsigned int state)
{
	struct rwsem_waiter waiter;
	DEFINE_WAKE_Q(wake_q);
	long count;

	waiter.task = current;
	waiter.type = RWSEM_WAITING_FOR_WRITE;
	waiter.timeout = jiffies + RWSEM_WAIT_TIMEOUT;
	waiter.handoff_set = false;

	raw_spin_lock_irq(&rwsem->wait_lock);
	rwsem_add_waiter(rwsem, &waiter);

	if (rwsem_first_waiter(rwsem) != &waiter) {
		/*
		 * Behind others.  If readers hold the lock, readers queued
		 * ahead of us can join them now instead of waiting for us.
		 */
		count = atomic_long_read(&rwsem->count);
		if (!(count & RWSEM_WRITER_MASK)) {
			rwsem_mark_wake(rwsem, (count & RWSEM_READER_MASK) ?
					RWSEM_WAKE_READERS : RWSEM_WAKE_ANY, &wake_q);
			if (!wake_q_empty(&wake_q)) {
				/* Do not wake a crowd with IRQs off. */
				raw_spin_unlock_irq(&rwsem->wait_lock);
				wake_up_q(&wake_q);
				raw_spin_lock_irq(&rwsem->wait_lock);
			}
		}
	} else {
		atomic_long_or(RWSEM_FLAG_WAITERS, &rwsem->count);
	}

	set_current_state(state);
	for (;;) {
		if (rwsem_try_write_lock(rwsem, &waiter))
			break;
		raw_spin_unlock_irq(&rwsem->wait_lock);
		/* No signals in irqlab; no spinning on the owner yet (see top). */
		lock_stat_note_sleep();
		schedule();
		lockevent_inc(rwsem_sleep_writer);
		set_current_state(state);
		raw_spin_lock_irq(&rwsem->wait_lock);
	}
	__set_current_state(TASK_RUNNING);
	raw_spin_unlock_irq(&rwsem->wait_lock);
}

/* The queue's head deserves a look: the lock was released or downgraded. */
static void rwsem_wake(struct rw_semaphore *rwsem, enum rwsem_wake_type wake_type)
{
	DEFINE_WAKE_Q(wake_q);
	unsigned long flags;

	raw_spin_lock_irqsave(&rwsem->wait_lock, flags);
	if (!list_empty(&rwsem->wait_list))
		rwsem_mark_wake(rwsem, wake_type, &wake_q);
	raw_spin_unlock_irqrestore(&rwsem->wait_lock, flags);
	wake_up_q(&wake_q);
}

/* ----------------------------------------------------------- primitives */

static inline void __down_read_common(struct rw_semaphore *rwsem, unsigned int state)
{
	long count = atomic_long_add_return_acquire(RWSEM_READER_BIAS, &rwsem->count);

	if (likely(!(count & RWSEM_READ_FAILED_MASK))) {
		rwsem_set_reader_owned(rwsem);
		return;
	}
	rwsem_down_read_slowpath(rwsem, count, state);
}

static inline int __down_read_trylock(struct rw_semaphore *rwsem)
{
	long count = RWSEM_UNLOCKED_VALUE;

	/* Optimistic: most read locks are taken with other readers only. */
	do {
		if (atomic_long_try_cmpxchg_acquire(&rwsem->count, &count,
						    count + RWSEM_READER_BIAS)) {
			rwsem_set_reader_owned(rwsem);
			return 1;
		}
	} while (!(count & RWSEM_READ_FAILED_MASK));
	return 0;
}

static inline int __down_write_trylock(struct rw_semaphore *rwsem)
{
	long count = RWSEM_UNLOCKED_VALUE;

	if (atomic_long_try_cmpxchg_acquire(&rwsem->count, &count, RWSEM_WRITER_LOCKED)) {
		rwsem_set_owner(rwsem);
		return 1;
	}
	return 0;
}

static inline void __down_write_common(struct rw_semaphore *rwsem, unsigned int state)
{
	if (unlikely(!__down_write_trylock(rwsem)))
		rwsem_down_write_slowpath(rwsem, state);
}

static inline void __up_read(struct rw_semaphore *rwsem)
{
	long count = atomic_long_add_return_release(-RWSEM_READER_BIAS, &rwsem->count);

	/* The last holder out, with waiters: hand on. */
	if (unlikely((count & (RWSEM_LOCK_MASK | RWSEM_FLAG_WAITERS)) ==
		     RWSEM_FLAG_WAITERS))
		rwsem_wake(rwsem, RWSEM_WAKE_ANY);
}

static inline void __up_write(struct rw_semaphore *rwsem)
{
	long count;

	rwsem_clear_owner(rwsem);
	count = atomic_long_fetch_add_release(-RWSEM_WRITER_LOCKED, &rwsem->count);
	if (unlikely(count & RWSEM_FLAG_WAITERS))
		rwsem_wake(rwsem, RWSEM_WAKE_ANY);
}

static inline void __downgrade_write(struct rw_semaphore *rwsem)
{
	long count;

	/* One add: the writer bit goes and our reader bias comes together. */
	count = atomic_long_fetch_add_release(RWSEM_READER_BIAS - RWSEM_WRITER_LOCKED,
					      &rwsem->count);
	rwsem_set_reader_owned(rwsem);
	if (count & RWSEM_FLAG_WAITERS)
		rwsem_wake(rwsem, RWSEM_WAKE_READ_OWNED);
}

/*
 * irqlab has no TASK_WAKEKILL (no signals): killable waits are
 * uninterruptible ones that no fatal signal can cut short.
 */
#define RWSEM_TASK_KILLABLE	TASK_UNINTERRUPTIBLE

/* ------------------------------------------------------------------ API */

void down_read(struct rw_semaphore *rwsem)
{
	might_sleep();
	rwsem_acquire_read(&rwsem->dep_map, 0, 0, _RET_IP_);
	LOCK_CONTENDED_STATE(rwsem, __down_read_trylock, __down_read_common,
			     TASK_UNINTERRUPTIBLE);
}

int down_read_interruptible(struct rw_semaphore *rwsem)
{
	might_sleep();
	rwsem_acquire_read(&rwsem->dep_map, 0, 0, _RET_IP_);
	LOCK_CONTENDED_STATE(rwsem, __down_read_trylock, __down_read_common,
			     TASK_INTERRUPTIBLE);
	return 0;
}

int down_read_killable(struct rw_semaphore *rwsem)
{
	might_sleep();
	rwsem_acquire_read(&rwsem->dep_map, 0, 0, _RET_IP_);
	LOCK_CONTENDED_STATE(rwsem, __down_read_trylock, __down_read_common,
			     RWSEM_TASK_KILLABLE);
	return 0;
}

int down_read_trylock(struct rw_semaphore *rwsem)
{
	int ret = __down_read_trylock(rwsem);

	if (ret)
		rwsem_acquire_read(&rwsem->dep_map, 0, 1, _RET_IP_);
	return ret;
}

void up_read(struct rw_semaphore *rwsem)
{
	rwsem_release(&rwsem->dep_map, _RET_IP_);
	__up_read(rwsem);
}

void down_write(struct rw_semaphore *rwsem)
{
	might_sleep();
	rwsem_acquire(&rwsem->dep_map, 0, 0, _RET_IP_);
	LOCK_CONTENDED_STATE(rwsem, __down_write_trylock, __down_write_common,
			     TASK_UNINTERRUPTIBLE);
}

int down_write_killable(struct rw_semaphore *rwsem)
{
	might_sleep();
	rwsem_acquire(&rwsem->dep_map, 0, 0, _RET_IP_);
	LOCK_CONTENDED_STATE(rwsem, __down_write_trylock, __down_write_common,
			     RWSEM_TASK_KILLABLE);
	return 0;
}

int down_write_trylock(struct rw_semaphore *rwsem)
{
	int ret = __down_write_trylock(rwsem);

	if (ret)
		rwsem_acquire(&rwsem->dep_map, 0, 1, _RET_IP_);
	return ret;
}

void up_write(struct rw_semaphore *rwsem)
{
	rwsem_release(&rwsem->dep_map, _RET_IP_);
	__up_write(rwsem);
}

/*
 * lockdep-lite has no lock_downgrade() yet: the held lock stays recorded
 * as the write acquisition until up_read() releases it.
 */
void downgrade_write(struct rw_semaphore *rwsem)
{
	__downgrade_write(rwsem);
}

#ifdef CONFIG_DEBUG_LOCK_ALLOC
void down_read_nested(struct rw_semaphore *rwsem, int subclass)
{
	might_sleep();
	rwsem_acquire_read(&rwsem->dep_map, subclass, 0, _RET_IP_);
	LOCK_CONTENDED_STATE(rwsem, __down_read_trylock, __down_read_common,
			     TASK_UNINTERRUPTIBLE);
}

void down_write_nested(struct rw_semaphore *rwsem, int subclass)
{
	might_sleep();
	rwsem_acquire(&rwsem->dep_map, subclass, 0, _RET_IP_);
	LOCK_CONTENDED_STATE(rwsem, __down_write_trylock, __down_write_common,
			     TASK_UNINTERRUPTIBLE);
}
#endif

#else	/* CONFIG_PREEMPT_RT */

/*
 * PREEMPT_RT: rw_semaphore is rwbase_rt over its own copy of the rt_mutex
 * core built with the mutex rules: sleeping in the caller's state, no
 * lateral steals.
 */
#define RT_MUTEX_BUILD_MUTEX
#include "rtmutex.c"

#define rwbase_set_and_save_current_state(state)	set_current_state(state)
#define rwbase_restore_current_state()			__set_current_state(TASK_RUNNING)
#define rwbase_rtmutex_lock_state(rtm, state)		__rt_mutex_lock(rtm, state)
#define rwbase_rtmutex_slowlock_locked(rtm, state)	__rt_mutex_slowlock_locked(rtm, state)
#define rwbase_rtmutex_unlock(rtm)			__rt_mutex_unlock(rtm)
#define rwbase_rtmutex_trylock(rtm)			__rt_mutex_trylock(rtm)
/* No signals in irqlab: nothing interrupts a wait. */
#define rwbase_signal_pending_state(state, task)	false
#define rwbase_schedule()				schedule()

#include "rwbase_rt.c"

void __rwsem_rt_init(struct rw_semaphore *sem, const char *name,
		     struct lock_class_key *key)
{
	lockdep_init_map_wait(&sem->dep_map, name, key, 0, LD_WAIT_SLEEP);
}

/*
 * As in Linux, the RT rwsem goes through LOCK_CONTENDED(): lock_stat
 * counts a contention when the try form fails (a writer closed the
 * readers' fast path, or the rt_mutex or readers are in a writer's
 * way).  Without CONFIG_LOCK_STAT only the lock form runs, as before.
 */
static inline int __down_read_trylock(struct rw_semaphore *sem)
{
	return rwbase_read_trylock(&sem->rwbase);
}

static inline void __down_read(struct rw_semaphore *sem)
{
	rwbase_read_lock(&sem->rwbase, TASK_UNINTERRUPTIBLE);
}

static inline int __down_read_state_lock(struct rw_semaphore *sem, unsigned int state)
{
	return rwbase_read_lock(&sem->rwbase, state);
}

static inline int __down_write_trylock(struct rw_semaphore *sem)
{
	return rwbase_write_trylock(&sem->rwbase);
}

static inline int __down_write_state_lock(struct rw_semaphore *sem, unsigned int state)
{
	return rwbase_write_lock(&sem->rwbase, state);
}

static inline void __down_write(struct rw_semaphore *sem)
{
	rwbase_write_lock(&sem->rwbase, TASK_UNINTERRUPTIBLE);
}

void down_read(struct rw_semaphore *sem)
{
	might_sleep();
	rwsem_acquire_read(&sem->dep_map, 0, 0, _RET_IP_);
	LOCK_CONTENDED(sem, __down_read_trylock, __down_read);
}

static int __down_read_state(struct rw_semaphore *sem, unsigned int state)
{
	int ret;

	might_sleep();
	rwsem_acquire_read(&sem->dep_map, 0, 0, _RET_IP_);
	ret = LOCK_CONTENDED_RETURN_STATE(sem, __down_read_trylock,
					  __down_read_state_lock, state);
	if (ret)
		rwsem_release(&sem->dep_map, _RET_IP_);
	return ret;
}

int down_read_interruptible(struct rw_semaphore *sem)
{
	return __down_read_state(sem, TASK_INTERRUPTIBLE);
}

int down_read_killable(struct rw_semaphore *sem)
{
	return __down_read_state(sem, TASK_UNINTERRUPTIBLE);
}

int down_read_trylock(struct rw_semaphore *sem)
{
	int ret = rwbase_read_trylock(&sem->rwbase);

	if (ret)
		rwsem_acquire_read(&sem->dep_map, 0, 1, _RET_IP_);
	return ret;
}

void up_read(struct rw_semaphore *sem)
{
	rwsem_release(&sem->dep_map, _RET_IP_);
	rwbase_read_unlock(&sem->rwbase, TASK_NORMAL);
}

void down_write(struct rw_semaphore *sem)
{
	might_sleep();
	rwsem_acquire(&sem->dep_map, 0, 0, _RET_IP_);
	LOCK_CONTENDED(sem, __down_write_trylock, __down_write);
}

int down_write_killable(struct rw_semaphore *sem)
{
	int ret;

	might_sleep();
	rwsem_acquire(&sem->dep_map, 0, 0, _RET_IP_);
	ret = LOCK_CONTENDED_RETURN_STATE(sem, __down_write_trylock,
					  __down_write_state_lock, TASK_UNINTERRUPTIBLE);
	if (ret)
		rwsem_release(&sem->dep_map, _RET_IP_);
	return ret;
}

int down_write_trylock(struct rw_semaphore *sem)
{
	int ret = rwbase_write_trylock(&sem->rwbase);

	if (ret)
		rwsem_acquire(&sem->dep_map, 0, 1, _RET_IP_);
	return ret;
}

void up_write(struct rw_semaphore *sem)
{
	rwsem_release(&sem->dep_map, _RET_IP_);
	rwbase_write_unlock(&sem->rwbase);
}

void downgrade_write(struct rw_semaphore *sem)
{
	rwbase_write_downgrade(&sem->rwbase);
}

#ifdef CONFIG_DEBUG_LOCK_ALLOC
void down_read_nested(struct rw_semaphore *sem, int subclass)
{
	might_sleep();
	rwsem_acquire_read(&sem->dep_map, subclass, 0, _RET_IP_);
	LOCK_CONTENDED(sem, __down_read_trylock, __down_read);
}

void down_write_nested(struct rw_semaphore *sem, int subclass)
{
	might_sleep();
	rwsem_acquire(&sem->dep_map, subclass, 0, _RET_IP_);
	LOCK_CONTENDED(sem, __down_write_trylock, __down_write);
}
#endif

#endif	/* CONFIG_PREEMPT_RT */
