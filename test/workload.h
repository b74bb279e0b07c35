/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TEST_WORKLOAD_H
#define _TEST_WORKLOAD_H

/*
 * The rendezvous every multi-thread workload (test/cyclic.c, hackbench.c,
 * osnoise.c, ptsema.c) ends with: the starter sleeps until a count of
 * running threads reaches zero, and the thread that takes it there wakes
 * the starter.  The waker reads the waiter first, since the count's owner
 * may be freed the moment it reaches zero.
 */
#include <linux/atomic.h>
#include <linux/sched.h>

static inline void workload_wait_zero(atomic_t *count)
{
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (!atomic_read(count))
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
}

/* One thread done; @waiter was read before, by the caller. */
static inline void workload_done(atomic_t *count, struct task_struct *waiter)
{
	if (atomic_dec_and_test(count))
		wake_up_process(waiter);
}

#endif
