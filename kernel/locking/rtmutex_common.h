/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __KERNEL_RTMUTEX_COMMON_H
#define __KERNEL_RTMUTEX_COMMON_H

/*
 * Internals shared by the rt_mutex core (rtmutex.c) and the lock types
 * built on it: rt_mutex, and on PREEMPT_RT spinlock_t, rwlock_t, mutex
 * and rw_semaphore.
 *
 * A blocked task is represented by an rt_mutex_waiter on its stack.  The
 * waiter sits in two trees ordered by priority: the lock's waiters tree
 * (who gets the lock next) and, while it is the top waiter of that lock,
 * the owner's pi_waiters tree (whom the owner inherits from).  The owner
 * runs at the priority of the top of its pi_waiters.
 */
#include <linux/rtmutex.h>
#include <linux/rbtree.h>
#include <linux/sched.h>
#include <linux/sched/wake_q.h>
#include <linux/sched/task.h>

struct rt_mutex_waiter {
	struct rb_node tree_entry;	/* in lock->waiters */
	struct rb_node pi_tree_entry;	/* in owner->pi_waiters */
	struct task_struct *task;
	struct rt_mutex_base *lock;
	unsigned int wake_state;	/* TASK_NORMAL, or TASK_RTLOCK_WAIT */
	int prio;			/* snapshot, changed under both locks */
	u64 deadline;
};

/*
 * A wake queue that can also carry the single rtlock waiter: that one is
 * woken with TASK_RTLOCK_WAIT so its saved state stays untouched.
 */
struct rt_wake_q_head {
	struct wake_q_head head;
	struct task_struct *rtlock_task;
};

#define DEFINE_RT_WAKE_Q(name)						\
	struct rt_wake_q_head name = {					\
		.head = WAKE_Q_HEAD_INITIALIZER(name.head),		\
		.rtlock_task = NULL,					\
	}

/*
 * How far a blocking task walks the PI chain: only as long as it changes
 * priorities (MIN), or all the way to check for deadlocks (FULL).
 */
enum rtmutex_chainwalk {
	RT_MUTEX_MIN_CHAINWALK,
	RT_MUTEX_FULL_CHAINWALK,
};

/* Bit 0 of the owner word: there are waiters, the fast paths are off. */
#define RT_MUTEX_HAS_WAITERS	1UL


static inline int rt_mutex_has_waiters(struct rt_mutex_base *lk)
{
	return !RB_EMPTY_ROOT(&lk->waiters.rb_root);
}

/* With wait_lock held: is @w the one that gets the lock next? */
static inline bool rt_mutex_waiter_is_top_waiter(struct rt_mutex_base *lk,
						 struct rt_mutex_waiter *w)
{
	struct rb_node *leftmost = rb_first_cached(&lk->waiters);

	return rb_entry(leftmost, struct rt_mutex_waiter, tree_entry) == w;
}

static inline struct rt_mutex_waiter *rt_mutex_top_waiter(struct rt_mutex_base *lk)
{
	struct rb_node *leftmost = rb_first_cached(&lk->waiters);

	if (!leftmost)
		return NULL;
	return rb_entry(leftmost, struct rt_mutex_waiter, tree_entry);
}

static inline int task_has_pi_waiters(struct task_struct *tsk)
{
	return !RB_EMPTY_ROOT(&tsk->pi_waiters.rb_root);
}

static inline struct rt_mutex_waiter *task_top_pi_waiter(struct task_struct *tsk)
{
	return rb_entry(tsk->pi_waiters.rb_leftmost, struct rt_mutex_waiter,
			pi_tree_entry);
}

static inline struct task_struct *rt_mutex_owner(struct rt_mutex_base *lk)
{
	unsigned long owner = (unsigned long)READ_ONCE(lk->owner);

	return (struct task_struct *)(owner & ~RT_MUTEX_HAS_WAITERS);
}

static inline void rt_mutex_init_waiter(struct rt_mutex_waiter *w)
{
	RB_CLEAR_NODE(&w->pi_tree_entry);
	RB_CLEAR_NODE(&w->tree_entry);
	w->wake_state = TASK_NORMAL;
	w->task = NULL;
}

static inline void rt_mutex_init_rtlock_waiter(struct rt_mutex_waiter *w)
{
	rt_mutex_init_waiter(w);
	w->wake_state = TASK_RTLOCK_WAIT;
}

/* Proxy ownership, for RCU priority boosting (rtmutex_api.c). */
void rt_mutex_init_proxy_locked(struct rt_mutex_base *lock,
				struct task_struct *proxy_owner);
void rt_mutex_proxy_unlock(struct rt_mutex_base *lock);
bool __rt_mutex_futex_unlock(struct rt_mutex_base *lock,
			     struct rt_wake_q_head *wqh);
void rt_mutex_futex_unlock(struct rt_mutex_base *lock);

#endif
