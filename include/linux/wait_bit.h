/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_WAIT_BIT_H
#define _LINUX_WAIT_BIT_H

/*
 * Waiting for a variable to change without embedding a wait queue in the
 * object: waiters hash the variable's address to one of a few shared wait
 * queues.  The waker changes the variable, then calls wake_up_var(); every
 * waiter on that queue re-checks its own condition, so a collision costs a
 * spurious wakeup and nothing else.
 */
#include <linux/wait.h>

struct wait_queue_head *__var_waitqueue(void *var);
void wake_up_var(void *var);

#define wait_var_event(var, condition)					\
do {									\
	might_sleep();							\
	if (condition)							\
		break;							\
	___wait_event(*__var_waitqueue(var), condition, prepare_to_wait); \
} while (0)

#endif
