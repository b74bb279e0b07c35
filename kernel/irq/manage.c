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
#include <linux/cpu.h>

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

/*
 * Point @desc's line at @cpu: a vector there, the controller programmed
 * for it (the entry is written masked and unmasked again unless the line
 * is disabled).  The old CPU's vector stays in its table: the caller
 * releases it, after fixup_irqs() has looked for an interrupt still
 * pending there.  desc->lock held, IRQs off.
 */
static int irq_do_set_affinity(struct irq_desc *desc, unsigned int cpu)
{
	unsigned int old_cpu = desc->cpu, old_vector = desc->vector;
	int err;

	if (cpu == old_cpu)
		return 0;
	/* Not requested yet: request_irq() takes its vector on desc->cpu. */
	if (!desc->handler || !desc->vector) {
		desc->cpu = cpu;
		return 0;
	}
	err = assign_irq_vector(desc, cpu);
	if (err)
		return err;
	err = desc->chip->irq_set_route(desc, cpu, desc->vector);
	if (err) {
		/* Back to where it was: the old entry is still programmed. */
		release_irq_vector(cpu, desc->vector);
		desc->cpu = old_cpu;
		desc->vector = old_vector;
		return err;
	}
	if (!desc->depth)
		desc->chip->irq_unmask(desc);
	return 0;
}

/* The CPU a line with affinity @mask goes to now: online, CPU 0 if unset. */
static unsigned int irq_pick_cpu(const struct cpumask *mask)
{
	struct cpumask m;

	if (!cpumask_weight(mask))
		return cpumask_test_cpu(0, cpu_online_mask) ? 0 : cpumask_first(cpu_online_mask);
	if (!cpumask_and(&m, mask, cpu_online_mask))
		return nr_cpu_ids;
	return cpumask_first(&m);
}

/*
 * Linux's irq_set_affinity(): the line goes to the first online CPU of
 * @cpumask.  Moved at once (irqlab has no deferred move on the next
 * interrupt): an interrupt already on its way to the old CPU finds no
 * handler there and is counted as unexpected.
 */
int irq_set_affinity(unsigned int irq, const struct cpumask *cpumask)
{
	struct irq_desc *desc = irq_to_desc(irq);
	unsigned int cpu, old_cpu, old_vector;
	unsigned long f;
	int err;

	if (!desc)
		return -EINVAL;
	/* The online mask stays as it is while we route. */
	cpus_read_lock();
	cpu = irq_pick_cpu(cpumask);
	if (cpu >= nr_cpu_ids) {
		cpus_read_unlock();
		return -EINVAL;
	}
	raw_spin_lock_irqsave(&desc->lock, f);
	old_cpu = desc->cpu;
	old_vector = desc->vector;
	err = irq_do_set_affinity(desc, cpu);
	if (!err) {
		cpumask_copy(&desc->affinity, cpumask);
		if (old_vector && desc->cpu != old_cpu)
			release_irq_vector(old_cpu, old_vector);
	}
	raw_spin_unlock_irqrestore(&desc->lock, f);
	cpus_read_unlock();
	return err;
}

/*
 * On the dying CPU in stop_machine, IRQs off, after it left the online
 * mask (Linux's migrate_one_irq()): a line routed here goes to an online
 * CPU of its affinity, or, if none is left, to any online CPU with its
 * affinity broken (said once per line and CPU).  The old vector stays for
 * fixup_irqs() to check.
 */
static void migrate_one_irq(struct irq_desc *desc, unsigned int dying)
{
	unsigned int cpu = irq_pick_cpu(&desc->affinity);
	bool broke = false;

	if (cpu >= nr_cpu_ids) {
		cpumask_clear(&desc->affinity);
		cpu = irq_pick_cpu(&desc->affinity);
		broke = true;
	}
	if (irq_do_set_affinity(desc, cpu)) {
		pr_warn("IRQ%u: cannot move off CPU%u\n", desc->irq, dying);
		return;
	}
	if (broke)
		pr_warn("IRQ%u: no longer affine to CPU%u\n", desc->irq, dying);
}

void irq_migrate_all_off_this_cpu(void)
{
	unsigned int cpu = smp_processor_id();

	for (unsigned int irq = 0; irq < NR_IRQS; irq++) {
		struct irq_desc *desc = irq_to_desc(irq);

		raw_spin_lock(&desc->lock);
		if (desc->handler && desc->cpu == cpu)
			migrate_one_irq(desc, cpu);
		raw_spin_unlock(&desc->lock);
	}
}
