// SPDX-License-Identifier: GPL-2.0
/*
 * struct mutex on !PREEMPT_RT, after Linux 5.15's kernel/locking/mutex.c
 * (without ww_mutex).
 *
 * The owner word is the whole lock: the owning task pointer, or NULL,
 * with the flags below in its low bits.  Uncontended lock and unlock are
 * one cmpxchg each.  A contended locker:
 *  1. tries once more, then spins while the owner is running on another
 *     CPU (mutex_optimistic_spin): a running owner is likely to let go
 *     soon, and spinning is cheaper than sleeping and being woken.  The
 *     spinners queue on the OSQ so only one of them polls the owner word;
 *  2. otherwise joins the FIFO wait_list under wait_lock and sleeps.  The
 *     unlocker clears the owner first and wakes the first waiter, so a
 *     running task (a spinner, a newcomer) can take the lock before the
 *     woken waiter gets there.  To bound that, a woken first waiter that
 *     still fails sets HANDOFF; the next unlock then does not release the
 *     lock but writes the waiter in as the owner with PICKUP set
 *     (__mutex_handoff), and only that waiter can complete the pickup.
 *     The first waiter also spins on a running owner between wakeups.
 */
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/osq_lock.h>
#include <linux/sched/wake_q.h>
#include <asm/processor.h>
#include "lock_events.h"

#ifndef CONFIG_PREEMPT_RT

#define MUTEX_FLAG_WAITERS	0x01	/* wait_list not empty: unlock wakes */
#define MUTEX_FLAG_HANDOFF	0x02	/* unlock hands over to the first waiter */
#define MUTEX_FLAG_PICKUP	0x04	/* handed over, not yet taken */

#define MUTEX_FLAGS		0x07

struct mutex_waiter {
	struct list_head list;
	struct task_struct *task;
};

void __mutex_init(struct mutex *mtx, const char *name, struct lock_class_key *key)
{
	atomic_long_set(&mtx->owner, 0);
	raw_spin_lock_init(&mtx->wait_lock);
	INIT_LIST_HEAD(&mtx->wait_list);
	osq_lock_init(&mtx->osq);
	lockdep_init_map_wait(&mtx->dep_map, name, key, 0, LD_WAIT_SLEEP);
}

static inline struct task_struct *__owner_task(unsigned long word)
{
	return (struct task_struct *)(word & ~MUTEX_FLAGS);
}

static inline unsigned long __owner_flags(unsigned long word)
{
	return word & MUTEX_FLAGS;
}

static inline struct task_struct *__mutex_owner(struct mutex *m)
{
	return __owner_task(atomic_long_read(&m->owner));
}

bool mutex_is_locked(struct mutex *lock)
{
	return __mutex_owner(lock) != NULL;
}

/*
 * Take the lock if it is free, or if it was handed to us; with @handoff,
 * otherwise ask the owner for a handoff.  Returns NULL when the lock is
 * ours, else the owner seen (for the spinner).  Loops because the flags
 * can change under us while the owner does not.
 */
static struct task_struct *__mutex_trylock_common(struct mutex *lock, bool handoff)
{
	unsigned long self = (unsigned long)current;
	long word = atomic_long_read(&lock->owner);

	for (;;) {
		unsigned long holder = (unsigned long)__owner_task(word);
		unsigned long flags = __owner_flags(word);
		unsigned long want;

		if (!holder) {
			/* HANDOFF and PICKUP never outlive the owner. */
			want = self | flags;
		} else if (flags & MUTEX_FLAG_PICKUP) {
			if (holder != self)
				return (struct task_struct *)holder;
			want = self | (flags & ~MUTEX_FLAG_PICKUP);
		} else if (handoff && !(flags & MUTEX_FLAG_HANDOFF)) {
			want = word | MUTEX_FLAG_HANDOFF;
		} else {
			return (struct task_struct *)holder;
		}
		if (!atomic_long_try_cmpxchg_acquire(&lock->owner, &word, want))
			continue;
		if (__owner_task(want) == current)
			return NULL;
		lockevent_inc(mutex_handoff_set);
		return (struct task_struct *)holder;
	}
}

static inline bool __mutex_trylock(struct mutex *m)
{
	return __mutex_trylock_common(m, false) == NULL;
}

static inline bool __mutex_trylock_or_handoff(struct mutex *m, bool first)
{
	return __mutex_trylock_common(m, first) == NULL;
}

#ifndef CONFIG_DEBUG_LOCK_ALLOC
/*
 * The uncontended fast paths: a free lock with no flags, and a held lock
 * with no flags.  Anything else goes to the slow paths, which also carry
 * the lockdep annotations (so lockdep builds always use them).
 */
static __always_inline bool __mutex_trylock_fast(struct mutex *m)
{
	long free = 0;

	return atomic_long_try_cmpxchg_acquire(&m->owner, &free, (long)current);
}

static __always_inline bool __mutex_unlock_fast(struct mutex *m)
{
	long self = (long)current;

	return atomic_long_try_cmpxchg_release(&m->owner, &self, 0);
}
#endif

static inline void __mutex_set_flag(struct mutex *m, unsigned long bit)
{
	atomic_long_or(bit, &m->owner);
}

static inline void __mutex_clear_flag(struct mutex *m, unsigned long bits)
{
	atomic_long_andnot(bits, &m->owner);
}

static inline bool __mutex_waiter_is_first(struct mutex *m, struct mutex_waiter *w)
{
	return list_first_entry(&m->wait_list, struct mutex_waiter, list) == w;
}

/* Under wait_lock.  The first waiter raises WAITERS so that unlock wakes. */
static void __mutex_add_waiter(struct mutex *lock, struct mutex_waiter *waiter)
{
	list_add_tail(&waiter->list, &lock->wait_list);
	if (__mutex_waiter_is_first(lock, waiter))
		__mutex_set_flag(lock, MUTEX_FLAG_WAITERS);
}

/* Under wait_lock.  The last waiter out drops every flag. */
static void __mutex_remove_waiter(struct mutex *lock, struct mutex_waiter *waiter)
{
	list_del(&waiter->list);
	if (likely(list_empty(&lock->wait_list)))
		__mutex_clear_flag(lock, MUTEX_FLAGS);
}

/*
 * The owner gives the lock to @task without releasing it: @task becomes
 * the owner with PICKUP set (HANDOFF is consumed, WAITERS kept), and the
 * release ordering pairs with the acquire of @task's pickup cmpxchg.
 * @task == NULL is a plain release.
 */
static void __mutex_handoff(struct mutex *m, struct task_struct *to)
{
	long word = atomic_long_read(&m->owner);
	long next;

	do {
		next = (word & MUTEX_FLAG_WAITERS) | (unsigned long)to;
		if (to)
			next |= MUTEX_FLAG_PICKUP;
	} while (!atomic_long_try_cmpxchg_release(&m->owner, &word, next));
}

/* ------------------------------------------------------ optimistic spinning */

/*
 * Spin while @owner holds the lock and runs.  Returns true when the owner
 * changed (try again), false when spinning should stop: the owner went
 * off its CPU or we are wanted elsewhere.
 *
 * @owner may unlock, exit and be freed while we look at it.  Linux reads
 * owner->on_cpu under rcu_read_lock(); irqlab has no RCU, but its
 * task_structs come from the page allocator and stay mapped after they
 * are freed, so a stale on_cpu read cannot fault, and it is never acted
 * on: the owner word is rechecked first on every iteration.
 */
static noinline bool mutex_spin_on_owner(struct mutex *lock, struct task_struct *owner)
{
	while (__mutex_owner(lock) == owner) {
		/* Read on_cpu only after this check (compiler ordering). */
		barrier();
		if (!READ_ONCE(owner->on_cpu) || need_resched())
			return false;
		cpu_relax();
	}
	return true;
}

/* Worth queueing on the OSQ at all?  Yes if the lock is free or its owner runs. */
static inline bool mutex_can_spin_on_owner(struct mutex *lock)
{
	struct task_struct *owner;

	if (need_resched())
		return false;
	owner = __mutex_owner(lock);
	return !owner || READ_ONCE(owner->on_cpu);
}

/*
 * Called with preemption disabled.  Returns true with the lock taken.
 * A newcomer (@waiter NULL) queues on the OSQ first; the first waiter,
 * woken from the wait_list, spins on the owner word directly, alongside
 * the OSQ head, so that it does not queue behind newcomers.
 */
static bool mutex_optimistic_spin(struct mutex *lock, struct mutex_waiter *waiter)
{
	struct task_struct *owner;

	if (!waiter) {
		if (!mutex_can_spin_on_owner(lock))
			goto fail;
		if (!osq_lock(&lock->osq))
			goto fail;
	}

	for (;;) {
		owner = __mutex_trylock_common(lock, false);
		if (!owner)
			break;
		if (!mutex_spin_on_owner(lock, owner))
			goto fail_unlock;
		/* cpu_relax() is a compiler barrier: the owner word is reloaded. */
		cpu_relax();
	}

	if (!waiter)
		osq_unlock(&lock->osq);
	lockevent_inc(mutex_opt_lock);
	return true;

fail_unlock:
	if (!waiter)
		osq_unlock(&lock->osq);
fail:
	lockevent_inc(mutex_opt_fail);
	/*
	 * If we stopped for need_resched(), reschedule before going on to
	 * take the lock, not right after taking it.
	 */
	if (need_resched()) {
		__set_current_state(TASK_RUNNING);
		schedule_preempt_disabled();
	}
	return false;
}

/* ----------------------------------------------------------------- lock */

static int __mutex_lock_common(struct mutex *lock, unsigned int state,
			       unsigned int subclass, struct lockdep_map *nest,
			       unsigned long ip)
{
	struct mutex_waiter waiter;

	might_sleep();

	preempt_disable();
	mutex_acquire_nest(&lock->dep_map, subclass, 0, nest, ip);

	if (__mutex_trylock(lock) || mutex_optimistic_spin(lock, NULL)) {
		lock_acquired(&lock->dep_map, ip);
		preempt_enable();
		return 0;
	}

	raw_spin_lock(&lock->wait_lock);
	/* It may have been released while we waited for wait_lock. */
	if (__mutex_trylock(lock))
		goto skip_wait;

	lock_contended(&lock->dep_map, ip);
	waiter.task = current;
	__mutex_add_waiter(lock, &waiter);

	set_current_state(state);
	for (;;) {
		bool first;

		/*
		 * Under wait_lock we are ordered against the unlocker's
		 * handoff: this trylock sees a lock handed to us.
		 */
		if (__mutex_trylock(lock))
			goto acquired;

		/* No signals in irqlab: interruptible and killable just wait. */
		raw_spin_unlock(&lock->wait_lock);
		lockevent_inc(mutex_sleep);
		lock_stat_note_sleep();
		schedule_preempt_disabled();

		first = __mutex_waiter_is_first(lock, &waiter);

		/*
		 * State before the trylock: either the unlock's wakeup comes
		 * after it and sets us running again, or the trylock sees
		 * the lock released.
		 */
		set_current_state(state);
		if (__mutex_trylock_or_handoff(lock, first) ||
		    (first && mutex_optimistic_spin(lock, &waiter)))
			break;

		raw_spin_lock(&lock->wait_lock);
	}
	raw_spin_lock(&lock->wait_lock);
acquired:
	__set_current_state(TASK_RUNNING);
	__mutex_remove_waiter(lock, &waiter);
skip_wait:
	lock_acquired(&lock->dep_map, ip);
	raw_spin_unlock(&lock->wait_lock);
	preempt_enable();
	return 0;
}

static int __mutex_lock(struct mutex *lock, unsigned int state, unsigned int subclass,
			struct lockdep_map *nest, unsigned long ip)
{
	return __mutex_lock_common(lock, state, subclass, nest, ip);
}

/*
 * irqlab has no TASK_WAKEKILL (no signals): the killable forms sleep
 * uninterruptibly, which is what TASK_KILLABLE is without a fatal signal.
 */
#define MUTEX_TASK_KILLABLE	TASK_UNINTERRUPTIBLE

#ifdef CONFIG_DEBUG_LOCK_ALLOC
void mutex_lock_nested(struct mutex *lock, unsigned int subclass)
{
	unsigned long ip = _RET_IP_;

	__mutex_lock(lock, TASK_UNINTERRUPTIBLE, subclass, NULL, ip);
}

void _mutex_lock_nest_lock(struct mutex *lock, struct lockdep_map *nest)
{
	unsigned long ip = _RET_IP_;

	__mutex_lock(lock, TASK_UNINTERRUPTIBLE, 0, nest, ip);
}

int mutex_lock_interruptible_nested(struct mutex *lock, unsigned int subclass)
{
	unsigned long ip = _RET_IP_;

	return __mutex_lock(lock, TASK_INTERRUPTIBLE, subclass, NULL, ip);
}

int mutex_lock_killable_nested(struct mutex *lock, unsigned int subclass)
{
	return __mutex_lock(lock, MUTEX_TASK_KILLABLE, subclass, NULL, _RET_IP_);
}
#else
/* Out of line so that the fast path stays short in the callers' view. */
static noinline void __mutex_lock_slowpath(struct mutex *lock)
{
	unsigned long ip = _RET_IP_;

	__mutex_lock(lock, TASK_UNINTERRUPTIBLE, 0, NULL, ip);
}

void mutex_lock(struct mutex *lock)
{
	might_sleep();
	if (!__mutex_trylock_fast(lock))
		__mutex_lock_slowpath(lock);
}

int mutex_lock_interruptible(struct mutex *lock)
{
	unsigned long ip = _RET_IP_;

	might_sleep();
	if (__mutex_trylock_fast(lock))
		return 0;
	return __mutex_lock(lock, TASK_INTERRUPTIBLE, 0, NULL, ip);
}

int mutex_lock_killable(struct mutex *lock)
{
	might_sleep();
	if (__mutex_trylock_fast(lock))
		return 0;
	return __mutex_lock(lock, MUTEX_TASK_KILLABLE, 0, NULL, _RET_IP_);
}
#endif

/*
 * Never sleeps, but like every mutex operation it belongs to task
 * context: the owner is current.
 */
int mutex_trylock(struct mutex *lock)
{
	bool locked = __mutex_trylock(lock);

	if (locked)
		mutex_acquire(&lock->dep_map, 0, 1, _RET_IP_);
	return locked;
}

/* --------------------------------------------------------------- unlock */

static noinline void __mutex_unlock_slowpath(struct mutex *lock, unsigned long ip)
{
	struct task_struct *next = NULL;
	DEFINE_WAKE_Q(wake_q);
	long owner;

	mutex_release(&lock->dep_map, ip);

	/*
	 * Release first, before wait_lock, so that spinners can go ahead at
	 * once; unless a waiter asked for a handoff, in which case the lock
	 * stays owned until __mutex_handoff() names the waiter.
	 */
	owner = atomic_long_read(&lock->owner);
	for (;;) {
		if (owner & MUTEX_FLAG_HANDOFF)
			break;
		if (atomic_long_try_cmpxchg_release(&lock->owner, &owner,
						    __owner_flags(owner))) {
			if (!(owner & MUTEX_FLAG_WAITERS))
				return;
			break;
		}
	}

	raw_spin_lock(&lock->wait_lock);
	if (!list_empty(&lock->wait_list)) {
		struct mutex_waiter *waiter =
			list_first_entry(&lock->wait_list, struct mutex_waiter, list);

		/* Queued with a reference: it may take the lock and exit first. */
		next = waiter->task;
		wake_q_add(&wake_q, next);
	}
	if (owner & MUTEX_FLAG_HANDOFF) {
		__mutex_handoff(lock, next);
		lockevent_inc(mutex_handoff);
	}
	raw_spin_unlock(&lock->wait_lock);

	wake_up_q(&wake_q);
}

void mutex_unlock(struct mutex *lock)
{
#ifndef CONFIG_DEBUG_LOCK_ALLOC
	if (__mutex_unlock_fast(lock))
		return;
#endif
	__mutex_unlock_slowpath(lock, _RET_IP_);
}

#endif	/* !CONFIG_PREEMPT_RT; the RT mutex is in rtmutex_api.c */
