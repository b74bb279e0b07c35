/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __LOCKING_LOCK_WAKE_H
#define __LOCKING_LOCK_WAKE_H

/*
 * Wakeups issued after the wait_lock is dropped, which is what Linux's
 * wake_q gives mutex and rwsem: the wait_lock (IRQs off for rwsem) is not
 * held across try_to_wake_up().  The waiter is picked under wait_lock and
 * its task_struct pinned with a reference, because once the wait_lock is
 * gone the waiter may take the lock by itself, return and exit before
 * the wakeup arrives.  (Waiters are never idle tasks, whose boot-time
 * reference count is not meant to be dropped.)
 */
#include <linux/sched.h>
#include <linux/kthread.h>

static inline struct task_struct *lock_wake_hold(struct task_struct *p)
{
	atomic_inc(&p->usage);
	return p;
}

static inline void lock_wake_release(struct task_struct *p)
{
	wake_up_process(p);
	put_task_struct_dead(p);
}

#endif
