// SPDX-License-Identifier: GPL-2.0
/*
 * rcu_sync: the reader-fast-path switch of Linux 5.15 (see
 * include/linux/rcu_sync.h for the states).  All state changes happen
 * under gp_wait's lock; waiters for GP_PASSED sleep on gp_wait.
 */
#include <linux/rcu_sync.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/bug.h>

void rcu_sync_init(struct rcu_sync *rsp)
{
	memset(rsp, 0, sizeof(*rsp));
	init_waitqueue_head(&rsp->gp_wait);
}

static void rcu_sync_func(struct rcu_head *rhp);

static void rcu_sync_call(struct rcu_sync *rsp)
{
	call_rcu(&rsp->cb_head, rcu_sync_func);
}

/*
 * A grace period after the state last moved.  With a writer inside, the
 * fast path is closed for good: let the writers go.  Else, if a writer
 * came and went during the grace period, one more is needed before the
 * readers may use the fast path again; otherwise they may now.
 */
static void rcu_sync_func(struct rcu_head *rhp)
{
	struct rcu_sync *rsp = container_of(rhp, struct rcu_sync, cb_head);
	bool wake = false;
	unsigned long flags;

	spin_lock_irqsave(&rsp->gp_wait.lock, flags);
	WARN_ON_ONCE(rsp->gp_state == GP_IDLE || rsp->gp_state == GP_PASSED);
	if (rsp->gp_count) {
		WRITE_ONCE(rsp->gp_state, GP_PASSED);
		wake = true;
	} else if (rsp->gp_state == GP_REPLAY) {
		WRITE_ONCE(rsp->gp_state, GP_EXIT);
		rcu_sync_call(rsp);
	} else {
		WRITE_ONCE(rsp->gp_state, GP_IDLE);
	}
	spin_unlock_irqrestore(&rsp->gp_wait.lock, flags);
	/* irqlab has no wake_up_locked(): wake once the lock is dropped. */
	if (wake)
		wake_up_all(&rsp->gp_wait);
}

/*
 * A writer comes: return once no reader can be on the fast path.  The
 * first writer out of GP_IDLE waits a grace period itself; the others
 * wait for GP_PASSED (GP_EXIT and GP_REPLAY are past it: the readers
 * have not gone back to the fast path yet).
 */
void rcu_sync_enter(struct rcu_sync *rsp)
{
	int gp_state;

	spin_lock_irq(&rsp->gp_wait.lock);
	gp_state = rsp->gp_state;
	if (gp_state == GP_IDLE) {
		WRITE_ONCE(rsp->gp_state, GP_ENTER);
		WARN_ON_ONCE(rsp->gp_count);
	}
	rsp->gp_count++;
	spin_unlock_irq(&rsp->gp_wait.lock);

	if (gp_state == GP_IDLE) {
		/* Every reader that saw GP_IDLE is out of its section after this. */
		synchronize_rcu();
		rcu_sync_func(&rsp->cb_head);
		return;
	}
	wait_event(rsp->gp_wait, READ_ONCE(rsp->gp_state) >= GP_PASSED);
}

/* The writer is done: the readers get their fast path a grace period on. */
void rcu_sync_exit(struct rcu_sync *rsp)
{
	spin_lock_irq(&rsp->gp_wait.lock);
	WARN_ON_ONCE(rsp->gp_count == 0);
	if (!--rsp->gp_count) {
		if (rsp->gp_state == GP_PASSED) {
			WRITE_ONCE(rsp->gp_state, GP_EXIT);
			rcu_sync_call(rsp);
		} else if (rsp->gp_state == GP_EXIT) {
			/* The callback already queued must not open the fast path. */
			WRITE_ONCE(rsp->gp_state, GP_REPLAY);
		}
	}
	spin_unlock_irq(&rsp->gp_wait.lock);
}
