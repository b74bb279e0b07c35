// SPDX-License-Identifier: GPL-2.0
/*
 * Counting semaphores.
 *
 * sem->count is the number of holders that may still enter.  When it is
 * zero, down() queues a semaphore_waiter at the tail of sem->wait_list and
 * sleeps.  up() with sleepers does not raise the count: it gives the
 * semaphore straight to the first waiter by setting waiter->up and waking
 * it.  Handing it over (instead of incrementing and letting everybody
 * race) keeps the order FIFO and means a task that calls down() between
 * the up() and the waiter running cannot take the slot it was woken for.
 *
 * The waiter lives on the sleeper's stack; up() unlinks it under
 * sem->lock, so once the sleeper sees waiter.up under the same lock
 * nobody touches it again.
 */
#include <linux/semaphore.h>
#include <linux/sched.h>
#include <linux/errno.h>

struct semaphore_waiter {
	struct list_head list;
	struct task_struct *task;
	bool up;
};

/*
 * Sleep in @state until up() hands us the semaphore or @timeout jiffies
 * pass.  Called and returns with sem->lock held and interrupts off; the
 * lock is dropped around each sleep.  There are no signals, so the
 * interruptible and killable states only change what the task looks like
 * while it sleeps.
 */
static int __down_common(struct semaphore *sem, unsigned int state, long timeout)
{
	struct semaphore_waiter waiter = { .task = current, .up = false };

	list_add_tail(&waiter.list, &sem->wait_list);
	for (;;) {
		if (unlikely(timeout <= 0)) {
			list_del(&waiter.list);
			return -ETIME;
		}
		__set_current_state(state);
		raw_spin_unlock_irq(&sem->lock);
		timeout = schedule_timeout(timeout);
		raw_spin_lock_irq(&sem->lock);
		if (waiter.up)
			return 0;	/* up() unlinked us and kept the count */
	}
}

static int down_state_timeout(struct semaphore *sem, unsigned int state, long timeout)
{
	unsigned long flags;
	int ret = 0;

	might_sleep();
	raw_spin_lock_irqsave(&sem->lock, flags);
	if (likely(sem->count > 0))
		sem->count--;
	else
		ret = __down_common(sem, state, timeout);
	raw_spin_unlock_irqrestore(&sem->lock, flags);
	return ret;
}

void down(struct semaphore *sem)
{
	down_state_timeout(sem, TASK_UNINTERRUPTIBLE, MAX_SCHEDULE_TIMEOUT);
}

int down_interruptible(struct semaphore *sem)
{
	return down_state_timeout(sem, TASK_INTERRUPTIBLE, MAX_SCHEDULE_TIMEOUT);
}

/* TASK_KILLABLE is TASK_UNINTERRUPTIBLE plus a fatal-signal wakeup we lack. */
int down_killable(struct semaphore *sem)
{
	return down_state_timeout(sem, TASK_UNINTERRUPTIBLE, MAX_SCHEDULE_TIMEOUT);
}

int down_timeout(struct semaphore *sem, long timeout)
{
	return down_state_timeout(sem, TASK_UNINTERRUPTIBLE, timeout);
}

/*
 * Never sleeps, so it may be called from interrupts.  Unlike the
 * spin_trylock() family, 0 means success.
 */
int down_trylock(struct semaphore *sem)
{
	unsigned long flags;
	int busy;

	raw_spin_lock_irqsave(&sem->lock, flags);
	busy = sem->count == 0;
	if (!busy)
		sem->count--;
	raw_spin_unlock_irqrestore(&sem->lock, flags);
	return busy;
}

/* Hand the semaphore to the longest waiter (FIFO). */
static void __up(struct semaphore *sem)
{
	struct semaphore_waiter *waiter =
		list_first_entry(&sem->wait_list, struct semaphore_waiter, list);

	list_del(&waiter->list);
	waiter->up = true;
	wake_up_process(waiter->task);
}

/* Any context, any task: a semaphore has no owner. */
void up(struct semaphore *sem)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&sem->lock, flags);
	if (likely(list_empty(&sem->wait_list)))
		sem->count++;
	else
		__up(sem);
	raw_spin_unlock_irqrestore(&sem->lock, flags);
}
