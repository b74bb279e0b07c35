// SPDX-License-Identifier: GPL-2.0
/* request_irq() and friends. */
#include <linux/kernel.h>
#include <linux/irq.h>
#include <linux/errno.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/kthread.h>
#include <linux/bottom_half.h>
#include <linux/irqflags.h>

#ifdef CONFIG_PREEMPT_RT
#define force_irqthreads()	true
#else
#define force_irqthreads()	false
#endif

/* The primary handler of a threaded line: just hand over to the thread. */
static irqreturn_t irq_default_primary_handler(int irq, void *dev_id)
{
	return IRQ_WAKE_THREAD;
}

/* Oneshot lines stay masked until their thread has run (irq_finalize_oneshot()). */
static void irq_finalize_oneshot(struct irq_desc *desc)
{
	if (desc->oneshot && !desc->depth)
		desc->chip->irq_unmask(desc);
}

static irqreturn_t irq_thread_fn(struct irq_desc *desc)
{
	irqreturn_t ret = desc->thread_fn(desc->irq, desc->dev_id);

	irq_finalize_oneshot(desc);
	return ret;
}

/*
 * A handler written for hard-IRQ context, run by the thread: give it the
 * context it was written for as far as a thread can.  Bottom halves are
 * off, so a softirq it raises runs at the local_bh_enable() below, in
 * this thread; on !RT (only with forced threading, which irqlab does not
 * offer there) interrupts are off as well.
 */
static irqreturn_t irq_forced_thread_fn(struct irq_desc *desc)
{
	irqreturn_t ret;

	local_bh_disable();
	if (!IS_ENABLED(CONFIG_PREEMPT_RT))
		local_irq_disable();
	ret = desc->thread_fn(desc->irq, desc->dev_id);
	irq_finalize_oneshot(desc);
	if (!IS_ENABLED(CONFIG_PREEMPT_RT))
		local_irq_enable();
	local_bh_enable();
	return ret;
}

static int irq_thread(void *data)
{
	struct irq_desc *desc = data;
	irqreturn_t (*handler_fn)(struct irq_desc *desc) = irq_thread_fn;

	if (force_irqthreads() && test_bit(IRQTF_FORCED_THREAD, &desc->thread_flags))
		handler_fn = irq_forced_thread_fn;
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop()) {
			__set_current_state(TASK_RUNNING);
			return 0;
		}
		if (!test_and_clear_bit(IRQTF_RUNTHREAD, &desc->thread_flags)) {
			schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);
		handler_fn(desc);
	}
}

/*
 * Forced threading (PREEMPT_RT): the handler becomes the thread function
 * and the line stays masked until it has run.
 */
static bool irq_setup_forced_threading(irq_handler_t *handler, irq_handler_t *thread_fn,
				       unsigned long *flags)
{
	if (!force_irqthreads() || (*flags & IRQF_NO_THREAD) || *thread_fn)
		return false;
	*flags |= IRQF_ONESHOT;
	*thread_fn = *handler;
	*handler = irq_default_primary_handler;
	return true;
}

static int setup_irq_thread(struct irq_desc *desc, const char *name)
{
	struct sched_param param = { .sched_priority = MAX_RT_PRIO / 2 };
	struct task_struct *t = kthread_create(irq_thread, desc, "irq/%u-%s", desc->irq, name);

	if (!t)
		return -ENOMEM;
	sched_setscheduler_nocheck(t, SCHED_FIFO, &param);
	kthread_bind(t, desc->cpu);
	desc->thread = t;
	wake_up_process(t);
	return 0;
}

int request_threaded_irq(unsigned int irq, irq_handler_t handler, irq_handler_t thread_fn,
			 unsigned long flags, const char *name, void *dev_id)
{
	struct irq_desc *desc = irq_to_desc(irq);
	unsigned long f;
	bool forced;
	int err;

	if (!desc || (!handler && !thread_fn))
		return -EINVAL;
	if (!handler)
		handler = irq_default_primary_handler;
	forced = irq_setup_forced_threading(&handler, &thread_fn, &flags);
	if (!desc->chip) {
		pr_err("request_irq(%u, %s): no interrupt controller routes this line\n",
		       irq, name);
		return -ENODEV;
	}
	if (READ_ONCE(desc->handler))
		return -EBUSY;		/* no shared lines in irqlab; rechecked below */
	/* The thread first: creating it may sleep, and the line may fire at once. */
	if (thread_fn) {
		desc->thread_fn = thread_fn;
		desc->oneshot = flags & IRQF_ONESHOT;
		/* read by the thread when it starts */
		if (forced)
			set_bit(IRQTF_FORCED_THREAD, &desc->thread_flags);
		else
			clear_bit(IRQTF_FORCED_THREAD, &desc->thread_flags);
		err = setup_irq_thread(desc, name);
		if (err)
			return err;
	}
	raw_spin_lock_irqsave(&desc->lock, f);
	if (desc->handler) {
		raw_spin_unlock_irqrestore(&desc->lock, f);
		err = -EBUSY;		/* no shared lines in irqlab */
		goto out_thread;
	}
	desc->handler = handler;
	desc->dev_id = dev_id;
	desc->name = name;
	desc->flags = flags;
	desc->unhandled = 0;
	if (flags & (IRQF_TRIGGER_HIGH | IRQF_TRIGGER_LOW))
		desc->level = true;
	if (flags & (IRQF_TRIGGER_LOW | IRQF_TRIGGER_FALLING))
		desc->active_low = true;
	err = assign_irq_vector(desc, desc->cpu);
	if (!err)
		err = desc->chip->irq_set_route(desc, desc->cpu, desc->vector);
	if (err) {
		clear_irq_vector(desc);
		desc->handler = NULL;
	} else {
		desc->depth = 0;
		desc->chip->irq_unmask(desc);
	}
	raw_spin_unlock_irqrestore(&desc->lock, f);
	if (!err)
		return 0;
out_thread:
	if (desc->thread && !desc->handler) {
		kthread_stop(desc->thread);
		desc->thread = NULL;
		desc->thread_fn = NULL;
	}
	return err;
}

void free_irq(unsigned int irq, void *dev_id)
{
	struct irq_desc *desc = irq_to_desc(irq);
	unsigned long f;

	if (!desc)
		return;
	raw_spin_lock_irqsave(&desc->lock, f);
	if (WARN_ON(!desc->handler || desc->dev_id != dev_id)) {
		raw_spin_unlock_irqrestore(&desc->lock, f);
		return;
	}
	desc->chip->irq_mask(desc);
	clear_irq_vector(desc);
	desc->handler = NULL;
	desc->dev_id = NULL;
	raw_spin_unlock_irqrestore(&desc->lock, f);
	if (desc->thread) {
		kthread_stop(desc->thread);
		desc->thread = NULL;
		desc->thread_fn = NULL;
		desc->thread_flags = 0;
		desc->oneshot = false;
	}
}

void disable_irq(unsigned int irq)
{
	struct irq_desc *desc = irq_to_desc(irq);
	unsigned long f;

	raw_spin_lock_irqsave(&desc->lock, f);
	if (!desc->depth++ && desc->chip)
		desc->chip->irq_mask(desc);
	raw_spin_unlock_irqrestore(&desc->lock, f);
}

void enable_irq(unsigned int irq)
{
	struct irq_desc *desc = irq_to_desc(irq);
	unsigned long f;

	raw_spin_lock_irqsave(&desc->lock, f);
	if (WARN_ON(!desc->depth)) {
		raw_spin_unlock_irqrestore(&desc->lock, f);
		return;
	}
	if (!--desc->depth && desc->chip && desc->handler)
		desc->chip->irq_unmask(desc);
	raw_spin_unlock_irqrestore(&desc->lock, f);
}

/* A requested line still delivered to @cpu (a CPU going down must have none). */
bool irq_routed_to_cpu(unsigned int cpu)
{
	for (unsigned int irq = 0; irq < NR_IRQS; irq++) {
		struct irq_desc *desc = irq_to_desc(irq);

		if (desc && READ_ONCE(desc->handler) && desc->cpu == cpu)
			return true;
	}
	return false;
}
