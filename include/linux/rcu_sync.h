/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_RCU_SYNC_H
#define _LINUX_RCU_SYNC_H

/*
 * rcu_sync (Linux 5.15 kernel/rcu/sync.c): lets readers of a rarely
 * written object choose a cheap path while no writer is around.
 *
 * A writer calls rcu_sync_enter(): the state leaves GP_IDLE and a grace
 * period passes before it returns, so every reader that could still have
 * seen GP_IDLE has finished its RCU (here: preempt-disabled) section.
 * rcu_sync_exit() lets the state fall back to GP_IDLE only a grace period
 * later, so readers switch back to the fast path only once nothing of the
 * writer's section can be missed.  A writer coming back within that grace
 * period finds the state not idle and does not wait again.
 */
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/rcupdate.h>

enum {
	GP_IDLE = 0,	/* readers take their fast path */
	GP_ENTER,	/* a writer came: its grace period is running */
	GP_PASSED,	/* writers may go on: no reader is on the fast path */
	GP_EXIT,	/* the last writer left: a grace period to go */
	GP_REPLAY,	/* a writer came and left again in that grace period */
};

struct rcu_sync {
	int gp_state;
	int gp_count;		/* writers inside rcu_sync_enter()..exit() */
	struct wait_queue_head gp_wait;	/* its lock guards both fields */
	struct rcu_head cb_head;
};

#define __RCU_SYNC_INITIALIZER(name) {					\
	.gp_state = GP_IDLE,						\
	.gp_count = 0,							\
	.gp_wait = __WAIT_QUEUE_HEAD_INITIALIZER(name.gp_wait),	\
}

/* Reader side, inside an RCU read section (preemption off counts). */
static inline bool rcu_sync_is_idle(struct rcu_sync *rsp)
{
	return READ_ONCE(rsp->gp_state) == GP_IDLE;
}

void rcu_sync_init(struct rcu_sync *rsp);
void rcu_sync_enter(struct rcu_sync *rsp);
void rcu_sync_exit(struct rcu_sync *rsp);

#endif
