/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sleeping-lock slow-path events irqlab counts (Linux's names where
 * lock_events_list.h has one).  Included several times with different
 * definitions of LOCK_EVENT().
 */
LOCK_EVENT(mutex_opt_lock)	/* taken while spinning on a running owner */
LOCK_EVENT(mutex_opt_fail)	/* spinning given up: owner off CPU or need_resched */
LOCK_EVENT(mutex_sleep)		/* a waiter went to sleep in __mutex_lock_common */
LOCK_EVENT(mutex_handoff_set)	/* a woken first waiter asked for a handoff */
LOCK_EVENT(mutex_handoff)	/* the unlocker handed the lock to its first waiter */
LOCK_EVENT(rwsem_sleep_reader)
LOCK_EVENT(rwsem_sleep_writer)
LOCK_EVENT(rwsem_wake_reader)	/* readers granted the lock by rwsem_mark_wake() */
LOCK_EVENT(rwsem_wake_writer)
LOCK_EVENT(rwsem_rlock_steal)	/* a reader took the lock ahead of queued waiters */
LOCK_EVENT(rwsem_rlock_handoff)	/* a starving reader set the handoff bit */
LOCK_EVENT(rwsem_wlock_handoff)	/* a starving writer set the handoff bit */
