// SPDX-License-Identifier: GPL-2.0
/*
 * The rt_mutex core: priority-inheriting sleeping locks, after Linux 5.15's
 * kernel/locking/rtmutex.c.  This file is not compiled on its own: it is
 * included by rtmutex_api.c (RT_MUTEX_BUILD_MUTEX: rt_mutex, and the RT
 * mutex and rw_semaphore) and by spinlock_rt.c (RT_MUTEX_BUILD_SPINLOCKS:
 * PREEMPT_RT's spinlock_t and rwlock_t), so each gets its own copy of the
 * rules that differ: only the spinlock build lets a waiter of equal
 * (non-RT) priority steal the lock, and only it waits in TASK_RTLOCK_WAIT.
 *
 * The lock word lock->owner holds the owning task, with bit 0
 * (RT_MUTEX_HAS_WAITERS) set while the waiters tree is not empty.  The
 * uncontended lock and unlock are one cmpxchg each on that word; as soon
 * as the bit is set both fail and everything goes through wait_lock.
 *
 * Lock order: lock->wait_lock, then task->pi_lock; the chain walk holds
 * at most one task's pi_lock and one lock's wait_lock at a time, and gets
 * the latter with a trylock because it takes them in the reverse order.
 */
#include <linux/sched.h>
#include <linux/sched/wake_q.h>
#include <linux/sched/task.h>
#include <linux/hrtimer.h>
#include <linux/printk.h>
#include <linux/errno.h>
#include <asm/cmpxchg.h>
#include <asm/processor.h>
#include <asm/stacktrace.h>

#include "rtmutex_common.h"

#define rt_stat_inc(field)						\
	__atomic_fetch_add(&rt_mutex_stats.field, 1, __ATOMIC_RELAXED)

/* --------------------------------------------------------- the lock word */

static __always_inline void rt_mutex_set_owner(struct rt_mutex_base *lk,
					       struct task_struct *owner)
{
	unsigned long val = (unsigned long)owner;

	if (rt_mutex_has_waiters(lk))
		val |= RT_MUTEX_HAS_WAITERS;
	WRITE_ONCE(lk->owner, (struct task_struct *)val);
}

static __always_inline void clear_rt_mutex_waiters(struct rt_mutex_base *lk)
{
	unsigned long owner = (unsigned long)lk->owner;

	WRITE_ONCE(lk->owner, (struct task_struct *)(owner & ~RT_MUTEX_HAS_WAITERS));
}

/*
 * The waiters bit is set early (try_to_take_rt_mutex() sets it before it
 * knows whether it will block) so an unlocking owner cannot slip through
 * the fast path; when nobody ended up waiting, take it away again.
 */
static __always_inline void fixup_rt_mutex_waiters(struct rt_mutex_base *lk)
{
	unsigned long owner = (unsigned long)lk->owner;

	if (rt_mutex_has_waiters(lk))
		return;
	if (owner & RT_MUTEX_HAS_WAITERS)
		WRITE_ONCE(lk->owner, (struct task_struct *)(owner & ~RT_MUTEX_HAS_WAITERS));
}

static __always_inline bool rt_mutex_cmpxchg_acquire(struct rt_mutex_base *lk,
						     struct task_struct *old,
						     struct task_struct *new)
{
	return __atomic_compare_exchange_n(&lk->owner, &old, new, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static __always_inline bool rt_mutex_cmpxchg_release(struct rt_mutex_base *lk,
						     struct task_struct *old,
						     struct task_struct *new)
{
	return __atomic_compare_exchange_n(&lk->owner, &old, new, false,
					   __ATOMIC_RELEASE, __ATOMIC_RELAXED);
}

/*
 * Set the waiters bit under wait_lock.  The owner may be racing with us in
 * its cmpxchg fast-path unlock, hence a cmpxchg loop: either our bit lands
 * and its fast path fails, or its release lands first and we see no owner.
 */
static __always_inline void mark_rt_mutex_waiters(struct rt_mutex_base *lk)
{
	unsigned long owner = (unsigned long)READ_ONCE(lk->owner);

	while (!__atomic_compare_exchange_n((unsigned long *)&lk->owner, &owner,
					    owner | RT_MUTEX_HAS_WAITERS, false,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

/*
 * The owner's slow unlock when the tree is empty: clear the bit, drop
 * wait_lock, then release with cmpxchg.  If a new waiter got in between
 * the two (it sets the bit again under wait_lock), the cmpxchg fails and
 * the caller retakes wait_lock to hand the lock over instead.
 */
static __always_inline bool unlock_rt_mutex_safe(struct rt_mutex_base *lk,
						 unsigned long flags)
{
	struct task_struct *owner = rt_mutex_owner(lk);

	clear_rt_mutex_waiters(lk);
	raw_spin_unlock_irqrestore(&lk->wait_lock, flags);
	return rt_mutex_cmpxchg_release(lk, owner, NULL);
}

/* ------------------------------------------------------- waiter ordering */

/* Non-RT tasks all wait at one priority: fair tasks do not boost fair tasks. */
static __always_inline int __waiter_prio(struct task_struct *p)
{
	int prio = p->prio;

	return rt_prio(prio) ? prio : DEFAULT_PRIO;
}

static __always_inline void waiter_update_prio(struct rt_mutex_waiter *waiter,
					       struct task_struct *task)
{
	waiter->prio = __waiter_prio(task);
	/* Two deadline waiters are ordered by their absolute deadlines. */
	waiter->deadline = task->dl.deadline;
}

/* A throw-away waiter describing @p, for comparisons only. */
#define task_to_waiter(p)						\
	(&(struct rt_mutex_waiter){ .prio = __waiter_prio(p), .deadline = (p)->dl.deadline })

static __always_inline int rt_mutex_waiter_less(struct rt_mutex_waiter *a,
						struct rt_mutex_waiter *b)
{
	if (a->prio != b->prio)
		return a->prio < b->prio;
	/* Same deadline-class priority: the earlier absolute deadline first. */
	if (dl_prio(a->prio))
		return (s64)(a->deadline - b->deadline) < 0;
	return 0;
}

static __always_inline int rt_mutex_waiter_equal(struct rt_mutex_waiter *a,
						 struct rt_mutex_waiter *b)
{
	if (a->prio != b->prio)
		return 0;
	if (dl_prio(a->prio))
		return a->deadline == b->deadline;
	return 1;
}

/*
 * May @w take the lock ahead of the top waiter?  Always when it is
 * more important.  Sleeping spinlocks also allow a lateral steal among
 * non-RT waiters of the same priority: the running task takes the lock
 * instead of waiting for the woken one to be scheduled, which is where
 * RT's throughput on spinlock_t comes from.  RT and DL waiters never steal
 * laterally, which would make their latency unbounded.
 */
static inline bool rt_mutex_steal(struct rt_mutex_waiter *w,
				  struct rt_mutex_waiter *top_waiter)
{
	if (rt_mutex_waiter_less(w, top_waiter))
		return true;
#ifdef RT_MUTEX_BUILD_SPINLOCKS
	if (rt_prio(w->prio) || dl_prio(w->prio))
		return false;
	if (rt_mutex_waiter_equal(w, top_waiter)) {
		rt_stat_inc(lateral_steals);
		return true;
	}
#endif
	return false;
}

#define __node_2_waiter(n)						\
	rb_entry((n), struct rt_mutex_waiter, tree_entry)
#define __node_2_pi_waiter(n)						\
	rb_entry((n), struct rt_mutex_waiter, pi_tree_entry)

/* FIFO among equals: a new waiter goes right of those it ties with. */
static __always_inline bool __waiter_less(struct rb_node *na, const struct rb_node *nb)
{
	return rt_mutex_waiter_less(__node_2_waiter(na),
				    __node_2_waiter((struct rb_node *)nb));
}

static __always_inline bool __pi_waiter_less(struct rb_node *a, const struct rb_node *b)
{
	return rt_mutex_waiter_less(__node_2_pi_waiter(a),
				    __node_2_pi_waiter((struct rb_node *)b));
}

static __always_inline void rt_mutex_enqueue(struct rt_mutex_base *lk,
					     struct rt_mutex_waiter *waiter)
{
	rb_add_cached(&waiter->tree_entry, &lk->waiters, __waiter_less);
}

static __always_inline void rt_mutex_dequeue(struct rt_mutex_base *lk,
					     struct rt_mutex_waiter *waiter)
{
	if (RB_EMPTY_NODE(&waiter->tree_entry))
		return;
	rb_erase_cached(&waiter->tree_entry, &lk->waiters);
	RB_CLEAR_NODE(&waiter->tree_entry);
}

static __always_inline void rt_mutex_enqueue_pi(struct task_struct *p,
						struct rt_mutex_waiter *w)
{
	rb_add_cached(&w->pi_tree_entry, &p->pi_waiters, __pi_waiter_less);
}

static __always_inline void rt_mutex_dequeue_pi(struct task_struct *p,
						struct rt_mutex_waiter *w)
{
	if (RB_EMPTY_NODE(&w->pi_tree_entry))
		return;
	rb_erase_cached(&w->pi_tree_entry, &p->pi_waiters);
	RB_CLEAR_NODE(&w->pi_tree_entry);
}

/* Re-derive @tsk's priority from its top PI waiter; tsk->pi_lock held. */
static __always_inline void rt_mutex_adjust_prio(struct task_struct *tsk)
{
	struct task_struct *pi_task = NULL;

	if (task_has_pi_waiters(tsk))
		pi_task = task_top_pi_waiter(tsk)->task;
	rt_mutex_setprio(tsk, pi_task);
}

/* --------------------------------------------------------------- wakeups */

static __always_inline void rt_mutex_wake_q_add(struct rt_wake_q_head *rwq,
						struct rt_mutex_waiter *waiter)
{
	if (IS_ENABLED(CONFIG_PREEMPT_RT) && waiter->wake_state != TASK_NORMAL) {
		/* At most one rtlock waiter is woken per unlock. */
		rwq->rtlock_task = get_task_struct(waiter->task);
	} else {
		wake_q_add(&rwq->head, waiter->task);
	}
}

static __always_inline void rt_mutex_wake_up_q(struct rt_wake_q_head *rwq)
{
	if (IS_ENABLED(CONFIG_PREEMPT_RT) && rwq->rtlock_task) {
		wake_up_state(rwq->rtlock_task, TASK_RTLOCK_WAIT);
		put_task_struct(rwq->rtlock_task);
		rwq->rtlock_task = NULL;
	}
	if (!wake_q_empty(&rwq->head))
		wake_up_q(&rwq->head);
	/* mark_wakeup_next_waiter() disabled preemption until here. */
	preempt_enable();
}

/* ----------------------------------------------------- the PI chain walk */

/*
 * Detect deadlocks only when asked to (the caller's chain walk mode is
 * FULL) and never on the de-boost path, which has no waiter.
 */
static __always_inline bool rt_mutex_cond_detect_deadlock(struct rt_mutex_waiter *waiter,
							  enum rtmutex_chainwalk chwalk)
{
	return waiter && chwalk == RT_MUTEX_FULL_CHAINWALK;
}

static __always_inline struct rt_mutex_base *task_blocked_on_lock(struct task_struct *tsk)
{
	return tsk->pi_blocked_on ? tsk->pi_blocked_on->lock : NULL;
}

static void report_max_lock_depth(struct task_struct *top_task)
{
	static int reported_depth;

	/* Once per limit value, like Linux's message. */
	if (reported_depth == max_lock_depth)
		return;
	reported_depth = max_lock_depth;
	pr_warn("Maximum lock depth %d reached task: %s (%d)\n",
		max_lock_depth, top_task->comm, top_task->pid);
}

/* What one link of the chain walk has to do, decided under task->pi_lock. */
enum chain_link {
	CHAIN_STOP,	/* the link changed, or nothing would change past it */
	CHAIN_REQUEUE,	/* carry @task's priority into the lock it waits for */
	CHAIN_FOLLOW,	/* only a deadlock is looked for: walk, change nothing */
};

/*
 * Step [2] of the walk below.  @w is @task->pi_blocked_on; @next_lock and
 * @top_waiter are what the previous link saw (with its locks held) and
 * handed on.
 */
static enum chain_link rt_mutex_chain_link(struct task_struct *task,
					   struct rt_mutex_waiter *w,
					   struct rt_mutex_base *orig_lock,
					   struct rt_mutex_waiter *orig_waiter,
					   struct rt_mutex_base *next_lock,
					   struct rt_mutex_waiter *top_waiter,
					   bool detect_deadlock)
{
	bool unchanged;

	/* @task got its lock, or gave up waiting, since the link was seen. */
	if (!w)
		return CHAIN_STOP;
	/* The lock that started the walk was released: its new owner walks. */
	if (orig_waiter && !rt_mutex_owner(orig_lock))
		return CHAIN_STOP;
	/* @task now waits for another lock; blocking there began a walk. */
	if (next_lock != w->lock)
		return CHAIN_STOP;
	if (top_waiter && !task_has_pi_waiters(task))
		return CHAIN_STOP;

	/*
	 * The waiter we carry no longer decides @task's priority (another
	 * walk carries the one that does), or @task's own waiter already has
	 * that priority: requeueing would change nothing from here on.
	 */
	unchanged = (top_waiter && top_waiter != task_top_pi_waiter(task)) ||
		    rt_mutex_waiter_equal(w, task_to_waiter(task));
	if (!unchanged)
		return CHAIN_REQUEUE;
	return detect_deadlock ? CHAIN_FOLLOW : CHAIN_STOP;
}

/*
 * Step [11]: @owner's pi_waiters hold one entry per lock it owns, that
 * lock's top waiter.  If our waiter @w was or has become @lk's top waiter,
 * the entry changes, and so may @owner's priority.  Returns the waiter
 * the walk carries on: @lk's top waiter then, else @w.
 */
static struct rt_mutex_waiter *
rt_mutex_chain_update_owner(struct task_struct *owner,
			    struct rt_mutex_base *lk, struct rt_mutex_waiter *w,
			    struct rt_mutex_waiter *prerequeue_top)
{
	struct rt_mutex_waiter *top = rt_mutex_top_waiter(lk);

	if (w != top && w != prerequeue_top)
		return w;

	rt_mutex_dequeue_pi(owner, prerequeue_top);
	rt_mutex_enqueue_pi(owner, top);
	rt_mutex_adjust_prio(owner);
	return top;
}

static __always_inline int rt_mutex_chain_end(struct task_struct *task,
					      int ret)
{
	put_task_struct(task);
	return ret;
}

/*
 * rt_mutex_adjust_prio_chain - carry a priority change along a chain of
 * blocked lock owners.
 *
 * @task owns a lock and its priority may have changed (the caller holds a
 * reference, which the walk consumes).  If @task is itself blocked, on
 * @next_lock, its waiter there is requeued with the new priority, which
 * may change who is that lock's top waiter and so its owner's priority,
 * and the walk moves on to that owner.  @orig_lock and @orig_waiter are
 * the lock and the waiter that started it (no waiter: a de-boost after a
 * waiter left); @top_task is the task that started it.  Coming back to
 * @orig_lock, or to a lock @top_task owns, means a cycle: -EDEADLK.
 *
 * Each link is one pass of the loop, and only within a pass are locks
 * held, at most one pi_lock and one wait_lock at a time, so a long chain
 * keeps interrupts off for one link at a time.  The steps (Linux numbers
 * them the same way in its description):
 *   [1]  @task->pi_lock, and the waiter @task is blocked on;
 *   [2]  rt_mutex_chain_link(): stop, requeue, or only follow;
 *   [3]  that lock's wait_lock; the order is the reverse of the usual
 *        one, so a trylock, and on failure everything again from [1];
 *   [4]-[5] the cycle check;
 *   [6]-[7] requeue the waiter at @task's priority;
 *   [8]  let go of @task;
 *   [9]  a lock without owner is being handed to its top waiter: if the
 *        requeue changed who that is, wake the waiter we moved (as Linux
 *        5.15 does), and stop: nobody is left to boost;
 *   [10] the owner becomes @task, with its pi_lock;
 *   [11] rt_mutex_chain_update_owner();
 *   [12] what the owner is blocked on, and the lock's top waiter;
 *   [13] drop both locks; go on only if the owner is blocked and our
 *        waiter is the one that decides the owner's priority (or a
 *        deadlock is looked for).
 * max_lock_depth bounds the number of links.  Once a link has switched
 * the walk to only following (CHAIN_FOLLOW), it only follows to the end.
 */
static int rt_mutex_adjust_prio_chain(struct task_struct *task,
				      enum rtmutex_chainwalk walk,
				      struct rt_mutex_base *orig_lock,
				      struct rt_mutex_base *next_lock,
				      struct rt_mutex_waiter *orig_waiter,
				      struct task_struct *top_task)
{
	struct rt_mutex_waiter *top_waiter = orig_waiter;
	struct rt_mutex_waiter *prerequeue_top = NULL;
	struct rt_mutex_waiter *w;
	bool detect_deadlock, requeue = true;
	struct rt_mutex_base *lk;
	enum chain_link link;
	int depth = 0;

	detect_deadlock = rt_mutex_cond_detect_deadlock(orig_waiter, walk);

	for (;;) {
		rt_stat_inc(chain_walks);
		if (++depth > max_lock_depth) {
			rt_stat_inc(depth_limit);
			report_max_lock_depth(top_task);
			return rt_mutex_chain_end(task, -EDEADLK);
		}

		/* [1]-[3] */
		for (;;) {
			raw_spin_lock_irq(&task->pi_lock);
			w = task->pi_blocked_on;
			link = rt_mutex_chain_link(task, w, orig_lock,
						   orig_waiter, next_lock,
						   top_waiter, detect_deadlock);
			if (link == CHAIN_STOP) {
				raw_spin_unlock_irq(&task->pi_lock);
				return rt_mutex_chain_end(task, 0);
			}
			if (link == CHAIN_FOLLOW)
				requeue = false;

			lk = w->lock;
			if (raw_spin_trylock(&lk->wait_lock))
				break;
			raw_spin_unlock_irq(&task->pi_lock);
			cpu_relax();
		}

		/* [4]-[5] */
		if (lk == orig_lock || rt_mutex_owner(lk) == top_task) {
			rt_stat_inc(deadlocks);
			raw_spin_unlock(&lk->wait_lock);
			raw_spin_unlock_irq(&task->pi_lock);
			return rt_mutex_chain_end(task, -EDEADLK);
		}

		/* [6]-[7] */
		if (requeue) {
			prerequeue_top = rt_mutex_top_waiter(lk);
			rt_mutex_dequeue(lk, w);
			waiter_update_prio(w, task);
			rt_mutex_enqueue(lk, w);
		}

		/* [8] */
		raw_spin_unlock(&task->pi_lock);
		put_task_struct(task);

		/* [9] */
		if (!rt_mutex_owner(lk)) {
			if (requeue && prerequeue_top != rt_mutex_top_waiter(lk))
				wake_up_state(w->task, w->wake_state);
			raw_spin_unlock_irq(&lk->wait_lock);
			return 0;
		}

		/* [10]-[12] */
		task = get_task_struct(rt_mutex_owner(lk));
		raw_spin_lock(&task->pi_lock);
		if (requeue)
			w = rt_mutex_chain_update_owner(task, lk, w,
							prerequeue_top);
		next_lock = task_blocked_on_lock(task);
		top_waiter = rt_mutex_top_waiter(lk);

		/* [13] */
		raw_spin_unlock(&task->pi_lock);
		raw_spin_unlock_irq(&lk->wait_lock);
		if (!next_lock || (!detect_deadlock && w != top_waiter))
			return rt_mutex_chain_end(task, 0);
	}
}

/* ------------------------------------------------ taking and giving back */

/*
 * try_to_take_rt_mutex - take @lk for @task if it is free and @task may
 * have it: as the top waiter, as a waiter allowed to steal from the top
 * waiter, or (no waiter, i.e. not queued) when nobody waits or it may
 * steal.  Called with wait_lock held; returns 1 when @task owns the lock.
 */
static int try_to_take_rt_mutex(struct rt_mutex_base *lk, struct task_struct *task,
				struct rt_mutex_waiter *waiter)
{
	/*
	 * Set the waiters bit first: from here on the owner cannot release
	 * through its fast path, so "no owner" below is stable under
	 * wait_lock.  fixup_rt_mutex_waiters() clears it if unneeded.
	 */
	mark_rt_mutex_waiters(lk);
	if (rt_mutex_owner(lk))
		return 0;

	if (waiter) {
		struct rt_mutex_waiter *top_waiter = rt_mutex_top_waiter(lk);

		if (waiter != top_waiter && !rt_mutex_steal(waiter, top_waiter))
			return 0;
		rt_mutex_dequeue(lk, waiter);
	} else if (rt_mutex_has_waiters(lk)) {
		if (!rt_mutex_steal(task_to_waiter(task), rt_mutex_top_waiter(lk)))
			return 0;
	} else {
		/* Free and uncontended: no PI state to update. */
		goto takeit;
	}

	/*
	 * @task is no longer blocked; the top remaining waiter (if any) is
	 * now one of the waiters it must inherit from.
	 */
	raw_spin_lock(&task->pi_lock);
	task->pi_blocked_on = NULL;
	if (rt_mutex_has_waiters(lk))
		rt_mutex_enqueue_pi(task, rt_mutex_top_waiter(lk));
	raw_spin_unlock(&task->pi_lock);
takeit:
	rt_mutex_set_owner(lk, task);
	return 1;
}

/*
 * task_blocks_on_rt_mutex - queue @waiter for @task on @lk and boost the
 * owner if the waiter is now the lock's top waiter, walking the chain when
 * the owner is itself blocked.  wait_lock held (dropped around the walk).
 */
static int task_blocks_on_rt_mutex(struct rt_mutex_base *lk,
				   struct rt_mutex_waiter *waiter,
				   struct task_struct *task,
				   enum rtmutex_chainwalk walk)
{
	struct task_struct *owner = rt_mutex_owner(lk);
	struct rt_mutex_waiter *top_waiter = waiter;
	struct rt_mutex_base *next_lock;
	int chain_walk = 0, res;

	/* Taking a lock we own would wait forever. */
	if (owner == task) {
		rt_stat_inc(deadlocks);
		return -EDEADLK;
	}

	raw_spin_lock(&task->pi_lock);
	waiter->task = task;
	waiter->lock = lk;
	waiter_update_prio(waiter, task);
	if (rt_mutex_has_waiters(lk))
		top_waiter = rt_mutex_top_waiter(lk);
	rt_mutex_enqueue(lk, waiter);
	task->pi_blocked_on = waiter;
	raw_spin_unlock(&task->pi_lock);

	if (!owner)
		return 0;

	raw_spin_lock(&owner->pi_lock);
	if (waiter == rt_mutex_top_waiter(lk)) {
		rt_mutex_dequeue_pi(owner, top_waiter);
		rt_mutex_enqueue_pi(owner, waiter);
		rt_mutex_adjust_prio(owner);
		if (owner->pi_blocked_on)
			chain_walk = 1;
	} else if (rt_mutex_cond_detect_deadlock(waiter, walk)) {
		chain_walk = 1;
	}
	next_lock = task_blocked_on_lock(owner);
	raw_spin_unlock(&owner->pi_lock);

	if (!chain_walk || !next_lock)
		return 0;

	/* The walk drops this reference; the owner cannot go away before. */
	get_task_struct(owner);
	raw_spin_unlock_irq(&lk->wait_lock);
	res = rt_mutex_adjust_prio_chain(owner, walk, lk, next_lock, waiter, task);
	raw_spin_lock_irq(&lk->wait_lock);
	return res;
}

/*
 * Called by the owner on unlock with waiters queued: take the top waiter
 * out of our pi_waiters, drop the boost it gave us, and release the lock
 * with the waiters bit still set (owner NULL) so the fast path stays off
 * and the woken waiter, or a stealer, takes it under wait_lock.  The
 * waiter stays in the lock's tree until it takes the lock, which keeps
 * boosting whoever gets it.
 */
static void mark_wakeup_next_waiter(struct rt_wake_q_head *wqh,
				    struct rt_mutex_base *lk)
{
	struct rt_mutex_waiter *waiter;

	raw_spin_lock(&current->pi_lock);
	waiter = rt_mutex_top_waiter(lk);
	rt_mutex_dequeue_pi(current, waiter);
	rt_mutex_adjust_prio(current);
	lk->owner = (void *)RT_MUTEX_HAS_WAITERS;
	/*
	 * We may have just lost a boost: stay on the CPU until the waiter
	 * is woken, or a preemption here would leave it asleep while a
	 * lower-priority task runs.  rt_mutex_wake_up_q() re-enables.
	 */
	preempt_disable();
	rt_mutex_wake_q_add(wqh, waiter);
	raw_spin_unlock(&current->pi_lock);
}

static int __rt_mutex_slowtrylock(struct rt_mutex_base *lk)
{
	int ret = try_to_take_rt_mutex(lk, current, NULL);

	fixup_rt_mutex_waiters(lk);
	return ret;
}

static int rt_mutex_slowtrylock(struct rt_mutex_base *lk)
{
	unsigned long flags;
	int ret;

	/* Owned: no need to serialise just to fail. */
	if (rt_mutex_owner(lk))
		return 0;
	raw_spin_lock_irqsave(&lk->wait_lock, flags);
	ret = __rt_mutex_slowtrylock(lk);
	raw_spin_unlock_irqrestore(&lk->wait_lock, flags);
	return ret;
}

static __always_inline int __rt_mutex_trylock(struct rt_mutex_base *lk)
{
	if (likely(rt_mutex_cmpxchg_acquire(lk, NULL, current)))
		return 1;
	return rt_mutex_slowtrylock(lk);
}

static void rt_mutex_slowunlock(struct rt_mutex_base *lk)
{
	DEFINE_RT_WAKE_Q(wqh);
	unsigned long flags;

	/* irqsave: the lock may be released with interrupts off early in boot */
	raw_spin_lock_irqsave(&lk->wait_lock, flags);
	while (!rt_mutex_has_waiters(lk)) {
		if (unlock_rt_mutex_safe(lk, flags))
			return;
		/* A waiter arrived between the clear and the cmpxchg. */
		raw_spin_lock_irqsave(&lk->wait_lock, flags);
	}
	mark_wakeup_next_waiter(&wqh, lk);
	raw_spin_unlock_irqrestore(&lk->wait_lock, flags);
	rt_mutex_wake_up_q(&wqh);
}

static __always_inline void __rt_mutex_unlock(struct rt_mutex_base *lk)
{
	if (likely(rt_mutex_cmpxchg_release(lk, current, NULL)))
		return;
	rt_mutex_slowunlock(lk);
}

/* ------------------------------------------------------ adaptive spinning */

/*
 * The top waiter spins instead of sleeping while the owner runs on another
 * CPU: the lock is likely released within the time a sleep and wakeup
 * would take.  Stop when the owner changes (try again), or when spinning
 * stops making sense: the owner was scheduled out, we should reschedule,
 * or we are no longer the top waiter.  Linux keeps the owner's task_struct
 * alive across this with RCU; irqlab holds a task reference instead.
 */
static bool rtmutex_spin_on_owner(struct rt_mutex_base *lk,
				  struct rt_mutex_waiter *waiter,
				  struct task_struct *owner)
{
	bool res = true;

	if (num_online_cpus() < 2)
		return false;
	for (;;) {
		if (owner != rt_mutex_owner(lk)) {
			rt_stat_inc(spin_on_owner);
			break;
		}
		barrier();
		if (!READ_ONCE(owner->on_cpu) || need_resched() ||
		    !rt_mutex_waiter_is_top_waiter(lk, waiter)) {
			res = false;
			break;
		}
		cpu_relax();
	}
	return res;
}

/* The owner to spin on (referenced), or NULL to sleep; wait_lock held. */
static struct task_struct *spin_candidate(struct rt_mutex_base *lk,
					  struct rt_mutex_waiter *waiter)
{
	struct task_struct *owner;

	if (waiter != rt_mutex_top_waiter(lk))
		return NULL;
	owner = rt_mutex_owner(lk);
	return owner ? get_task_struct(owner) : NULL;
}

static bool spin_on_owner_put(struct rt_mutex_base *lk,
			      struct rt_mutex_waiter *waiter,
			      struct task_struct *owner)
{
	bool spun;

	if (!owner)
		return false;
	spun = rtmutex_spin_on_owner(lk, waiter, owner);
	put_task_struct(owner);
	return spun;
}

#ifdef RT_MUTEX_BUILD_MUTEX
/* ------------------------------------------- rt_mutex and mutex blocking */

/*
 * A waiter gives up (timeout, deadlock): take it out of the lock and, if it
 * was the top waiter, out of the owner's pi_waiters, then de-boost the
 * owner and let the chain know.  wait_lock held, dropped around the walk.
 */
static void remove_waiter(struct rt_mutex_base *lk, struct rt_mutex_waiter *waiter)
{
	bool is_top_waiter = (waiter == rt_mutex_top_waiter(lk));
	struct task_struct *owner = rt_mutex_owner(lk);
	struct rt_mutex_base *next_lock;

	raw_spin_lock(&current->pi_lock);
	rt_mutex_dequeue(lk, waiter);
	current->pi_blocked_on = NULL;
	raw_spin_unlock(&current->pi_lock);

	if (!owner || !is_top_waiter)
		return;

	raw_spin_lock(&owner->pi_lock);
	rt_mutex_dequeue_pi(owner, waiter);
	if (rt_mutex_has_waiters(lk))
		rt_mutex_enqueue_pi(owner, rt_mutex_top_waiter(lk));
	rt_mutex_adjust_prio(owner);
	next_lock = task_blocked_on_lock(owner);
	raw_spin_unlock(&owner->pi_lock);

	if (!next_lock)
		return;
	get_task_struct(owner);
	raw_spin_unlock_irq(&lk->wait_lock);
	rt_mutex_adjust_prio_chain(owner, RT_MUTEX_MIN_CHAINWALK, lk, next_lock,
				   NULL, current);
	raw_spin_lock_irq(&lk->wait_lock);
}

/*
 * The wait loop: try to take the lock; else spin while the owner runs or
 * sleep until the unlocker (or a chain walk) wakes us.  wait_lock held on
 * entry and exit, with current's state set by the caller.
 */
static int rt_mutex_slowlock_block(struct rt_mutex_base *lk, unsigned int state,
				   struct hrtimer_sleeper *timeout,
				   struct rt_mutex_waiter *waiter)
{
	struct task_struct *owner;
	bool spun = false;
	int ret = 0;

	for (;;) {
		if (try_to_take_rt_mutex(lk, current, waiter)) {
			if (spun) {
				rt_stat_inc(spin_acquired);
				lock_stat_note_spin();
			}
			break;
		}
		if (timeout && !READ_ONCE(timeout->task)) {
			ret = -ETIMEDOUT;
			break;
		}
		owner = spin_candidate(lk, waiter);
		raw_spin_unlock_irq(&lk->wait_lock);

		spun = spin_on_owner_put(lk, waiter, owner);
		if (!spun) {
			lock_stat_note_sleep();
			schedule();
		}

		raw_spin_lock_irq(&lk->wait_lock);
		set_current_state(state);
	}
	__set_current_state(TASK_RUNNING);
	return ret;
}

/*
 * A deadlock found without the caller asking for detection: the task
 * can never get the lock.  Say so and park it forever, as Linux does.
 */
static void rt_mutex_handle_deadlock(int res, int detect_deadlock,
				     struct rt_mutex_waiter *w)
{
	if (res != -EDEADLK || detect_deadlock)
		return;
	pr_warn("WARNING: rtmutex deadlock detected: %s/%d\n",
		current->comm, current->pid);
	dump_stack();
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		schedule();
	}
}

static int __rt_mutex_slowlock(struct rt_mutex_base *lk, unsigned int state,
			       enum rtmutex_chainwalk chwalk,
			       struct hrtimer_sleeper *timeout,
			       struct rt_mutex_waiter *waiter)
{
	int ret;

	if (try_to_take_rt_mutex(lk, current, NULL))
		return 0;

	rt_stat_inc(slowlock);
	set_current_state(state);
	ret = task_blocks_on_rt_mutex(lk, waiter, current, chwalk);
	if (likely(!ret))
		ret = rt_mutex_slowlock_block(lk, state, timeout, waiter);
	if (unlikely(ret)) {
		__set_current_state(TASK_RUNNING);
		remove_waiter(lk, waiter);
		rt_mutex_handle_deadlock(ret, chwalk, waiter);
	}
	/* We may have set the waiters bit for nothing. */
	fixup_rt_mutex_waiters(lk);
	return ret;
}

/* Block with wait_lock held (rwbase_rt's reader slow path), no timeout. */
static inline int __rt_mutex_slowlock_locked(struct rt_mutex_base *lk,
					     unsigned int state)
{
	struct rt_mutex_waiter waiter;

	rt_mutex_init_waiter(&waiter);
	return __rt_mutex_slowlock(lk, state, RT_MUTEX_MIN_CHAINWALK, NULL, &waiter);
}

static int rt_mutex_slowlock(struct rt_mutex_base *lk, unsigned int state,
			     enum rtmutex_chainwalk chwalk,
			     struct hrtimer_sleeper *timeout)
{
	struct rt_mutex_waiter waiter;
	unsigned long flags;
	int ret;

	rt_mutex_init_waiter(&waiter);
	/* irqsave for early boot; the blocking paths run with IRQs on */
	raw_spin_lock_irqsave(&lk->wait_lock, flags);
	ret = __rt_mutex_slowlock(lk, state, chwalk, timeout, &waiter);
	raw_spin_unlock_irqrestore(&lk->wait_lock, flags);
	return ret;
}

static __always_inline int __rt_mutex_lock(struct rt_mutex_base *lk,
					   unsigned int state)
{
	if (likely(rt_mutex_cmpxchg_acquire(lk, NULL, current)))
		return 0;
	return rt_mutex_slowlock(lk, state, RT_MUTEX_MIN_CHAINWALK, NULL);
}
#endif /* RT_MUTEX_BUILD_MUTEX */

#ifdef RT_MUTEX_BUILD_SPINLOCKS
/* ------------------------------------------- sleeping spinlocks (rtlock) */

/*
 * rtlock_slowlock_locked - block on a PREEMPT_RT spinlock_t or rwlock_t.
 * Unlike a mutex wait this preserves the caller's task state (saved and
 * restored around a TASK_RTLOCK_WAIT sleep), never times out, and cannot
 * fail: a spinlock user has no error path.  wait_lock held.
 */
static void rtlock_slowlock_locked(struct rt_mutex_base *lk)
{
	struct rt_mutex_waiter waiter;
	struct task_struct *owner;
	bool spun = false;

	if (try_to_take_rt_mutex(lk, current, NULL))
		return;

	rt_stat_inc(slowlock);
	rt_mutex_init_rtlock_waiter(&waiter);
	current_save_and_set_rtlock_wait_state();
	task_blocks_on_rt_mutex(lk, &waiter, current, RT_MUTEX_MIN_CHAINWALK);

	for (;;) {
		if (try_to_take_rt_mutex(lk, current, &waiter)) {
			if (spun) {
				rt_stat_inc(spin_acquired);
				lock_stat_note_spin();
			}
			break;
		}
		owner = spin_candidate(lk, &waiter);
		raw_spin_unlock_irq(&lk->wait_lock);

		spun = spin_on_owner_put(lk, &waiter, owner);
		if (!spun) {
			lock_stat_note_sleep();
			schedule_rtlock();
		}

		raw_spin_lock_irq(&lk->wait_lock);
		set_current_state(TASK_RTLOCK_WAIT);
	}
	current_restore_rtlock_saved_state();
	fixup_rt_mutex_waiters(lk);
}

static __always_inline void rtlock_slowlock(struct rt_mutex_base *lk)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&lk->wait_lock, flags);
	rtlock_slowlock_locked(lk);
	raw_spin_unlock_irqrestore(&lk->wait_lock, flags);
}
#endif /* RT_MUTEX_BUILD_SPINLOCKS */
