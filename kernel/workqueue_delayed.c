// SPDX-License-Identifier: GPL-2.0
/*
 * Delayed work: a work item queued when an hrtimer expires.
 *
 * queue_delayed_work_on() takes the item's PENDING bit and arms the timer
 * (a soft hrtimer, so the callback runs in softirq context); the callback
 * queues the item on the CPU and workqueue recorded in the delayed_work.
 * While the timer is armed the item is pending but on no pool list, so a
 * canceller that finds PENDING set and no pool tries the timer first.
 */
#include <linux/workqueue.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/jiffies.h>
#include <linux/irqflags.h>
#include <linux/sched.h>
#include <linux/bug.h>
#include <asm/processor.h>

#include "workqueue_internal.h"

enum hrtimer_restart delayed_work_timer_fn(struct hrtimer *timer)
{
	struct delayed_work *dw = container_of(timer, struct delayed_work, timer);
	unsigned long flags;

	/* PENDING has been ours since queue_delayed_work_on() */
	local_irq_save(flags);
	__queue_work(dw->cpu, dw->wq, &dw->work);
	local_irq_restore(flags);
	return HRTIMER_NORESTART;
}

/* Interrupts off, PENDING owned by the caller. */
static void __queue_delayed_work(int tgt_cpu, struct workqueue_struct *q,
				 struct delayed_work *dw, unsigned long delay)
{
	WARN_ON_ONCE(dw->timer.function != delayed_work_timer_fn);
	WARN_ON_ONCE(!list_empty(&dw->work.entry));

	dw->wq = q;
	dw->cpu = tgt_cpu;
	if (!delay) {
		__queue_work(tgt_cpu, q, &dw->work);
		return;
	}
	hrtimer_start(&dw->timer, ns_to_ktime(jiffies_to_nsecs(delay)),
		      HRTIMER_MODE_REL_SOFT);
}

/**
 * queue_delayed_work_on - queue @dw on @tgt_cpu's pool of @q after @delay jiffies
 *
 * Returns false if @dw was already pending (its timer is left alone),
 * true otherwise.  A @delay of zero queues it at once.
 */
bool queue_delayed_work_on(int tgt_cpu, struct workqueue_struct *q,
			   struct delayed_work *dw, unsigned long delay)
{
	unsigned long flags;
	bool ret = false;

	local_irq_save(flags);
	if (!test_and_set_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(&dw->work))) {
		__queue_delayed_work(tgt_cpu, q, dw, delay);
		ret = true;
	}
	local_irq_restore(flags);
	return ret;
}

/**
 * flush_delayed_work - run @dw now if its timer is armed, and wait for it
 *
 * Returns true if it had to wait, false if the item was idle.
 */
bool flush_delayed_work(struct delayed_work *dw)
{
	might_sleep();
	/* a timer we stop before it fires leaves PENDING to us */
	if (hrtimer_cancel(&dw->timer))
		delayed_work_timer_fn(&dw->timer);	/* queue it now */
	return flush_work(&dw->work);
}

/**
 * cancel_delayed_work_sync - stop @dw's timer or unqueue it, and wait
 *
 * Returns true if the item was pending (armed or queued), false otherwise.
 * On return it is neither pending nor running, unless queued again.
 */
bool cancel_delayed_work_sync(struct delayed_work *dw)
{
	unsigned long flags;
	int ret;

	might_sleep();
	for (;;) {
		/* hrtimer_cancel() waits for a running callback: call it with irqs on */
		if (hrtimer_cancel(&dw->timer)) {
			ret = 1;	/* it was armed: PENDING is now ours */
			break;
		}
		ret = try_to_grab_pending(&dw->work, &flags);
		if (ret >= 0) {
			local_irq_restore(flags);
			break;
		}
		/* a queuer is between taking PENDING and arming or linking */
		cpu_relax();
	}

	flush_work(&dw->work);
	clear_work_pending(&dw->work);
	return ret;
}
