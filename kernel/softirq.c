// SPDX-License-Identifier: GPL-2.0
/*
 * Hard interrupt entry/exit accounting and softirqs.
 *
 * A softirq is a per-CPU pending bit and an action.  On !PREEMPT_RT the
 * pending actions run at irq_exit() (and at local_bh_enable()), with
 * SOFTIRQ_OFFSET in preempt_count and interrupts enabled, for at most
 * 2 ms or 10 rounds; what is left goes to the per-CPU ksoftirqd thread.
 * On PREEMPT_RT they run only in thread context - ksoftirqd, or the task
 * that re-enables bottom halves - so an RT task can preempt them.
 */
#include <linux/kernel.h>
#include <linux/hardirq.h>
#include <linux/interrupt.h>
#include <linux/irqflags.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/kthread.h>
#include <linux/ktime.h>

#define MAX_SOFTIRQ_TIME_NS	(2 * NSEC_PER_MSEC)
#define MAX_SOFTIRQ_RESTART	10

const char *const softirq_to_name[NR_SOFTIRQS] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL",
	"TASKLET", "SCHED", "HRTIMER", "RCU",
};

static struct softirq_action softirq_vec[NR_SOFTIRQS];
static DEFINE_PER_CPU(unsigned long, softirq_pending);
DEFINE_PER_CPU(struct task_struct *, ksoftirqd);
DEFINE_PER_CPU(unsigned long [NR_SOFTIRQS], softirq_count);

unsigned long local_softirq_pending(void)
{
	return this_cpu_read(softirq_pending);
}

void open_softirq(int nr, void (*action)(struct softirq_action *))
{
	softirq_vec[nr].action = action;
}

static void wakeup_softirqd(void)
{
	struct task_struct *tsk = this_cpu_read(ksoftirqd);

	if (tsk)
		wake_up_process(tsk);
}

/* Interrupts off: mark @nr pending; outside interrupts only ksoftirqd will see it. */
void raise_softirq_irqoff(unsigned int nr)
{
	this_cpu_or(softirq_pending, 1UL << nr);
#ifdef CONFIG_PREEMPT_RT
	/* irq_exit() wakes it for hard interrupts, local_bh_enable() runs them. */
	if (!in_hardirq() && !current_thread_info()->softirq_disable_cnt)
		wakeup_softirqd();
#else
	if (!in_interrupt())
		wakeup_softirqd();
#endif
}

void raise_softirq(unsigned int nr)
{
	unsigned long flags;

	local_irq_save(flags);
	raise_softirq_irqoff(nr);
	local_irq_restore(flags);
}

/*
 * "Serving softirqs": in preempt_count on !RT (not preemptible), in the
 * task's own count on RT (preemptible, but kept on this CPU).
 */
static void softirq_serving_begin(void)
{
#ifdef CONFIG_PREEMPT_RT
	migrate_disable();
	current_thread_info()->softirq_disable_cnt += SOFTIRQ_OFFSET;
#else
	__preempt_count_add(SOFTIRQ_OFFSET);
#endif
	barrier();
}

static void softirq_serving_end(void)
{
	barrier();
#ifdef CONFIG_PREEMPT_RT
	current_thread_info()->softirq_disable_cnt -= SOFTIRQ_OFFSET;
	migrate_enable();
#else
	__preempt_count_sub(SOFTIRQ_OFFSET);
#endif
}

/* Run pending actions; interrupts are off on entry and on return. */
static void __do_softirq(void)
{
	u64 end = ktime_get_ns() + MAX_SOFTIRQ_TIME_NS;
	int restart = MAX_SOFTIRQ_RESTART;
	unsigned long pending;

	softirq_serving_begin();
	while ((pending = this_cpu_read(softirq_pending))) {
		this_cpu_write(softirq_pending, 0);
		local_irq_enable();
		while (pending) {
			unsigned int nr = __ffs(pending);

			pending &= pending - 1;
			this_cpu_inc(softirq_count[nr]);
			if (softirq_vec[nr].action)
				softirq_vec[nr].action(&softirq_vec[nr]);
		}
		local_irq_disable();
		if (ktime_get_ns() > end || !--restart) {
			if (this_cpu_read(softirq_pending))
				wakeup_softirqd();	/* enough for now: let tasks run */
			break;
		}
	}
	softirq_serving_end();
}

void do_softirq(void)
{
	unsigned long flags;

	if (in_interrupt())
		return;
	local_irq_save(flags);
	if (this_cpu_read(softirq_pending))
		__do_softirq();
	local_irq_restore(flags);
}

#ifdef CONFIG_PREEMPT_RT
/*
 * RT: bottom halves are a per-task state that keeps the task on its CPU;
 * preemption stays possible.  Softirqs raised meanwhile run at the last
 * local_bh_enable(), in this task.
 */
void local_bh_disable(void)
{
	migrate_disable();
	current_thread_info()->softirq_disable_cnt += SOFTIRQ_DISABLE_OFFSET;
}

void local_bh_enable(void)
{
	struct thread_info *ti = current_thread_info();

	ti->softirq_disable_cnt -= SOFTIRQ_DISABLE_OFFSET;
	if (!ti->softirq_disable_cnt && this_cpu_read(softirq_pending)) {
		unsigned long flags;

		local_irq_save(flags);
		if (this_cpu_read(softirq_pending))
			__do_softirq();
		local_irq_restore(flags);
	}
	migrate_enable();
}
#else
void local_bh_disable(void)
{
	__preempt_count_add(SOFTIRQ_DISABLE_OFFSET);
	barrier();
}

void local_bh_enable(void)
{
	WARN_ON_ONCE(in_hardirq());
	/* Still "in softirq" while the pending ones run, as Linux does. */
	__preempt_count_sub(SOFTIRQ_DISABLE_OFFSET - 1);
	if (!in_interrupt() && this_cpu_read(softirq_pending))
		do_softirq();
	__preempt_count_sub(1);	/* bottom-half counts exist with or without PREEMPT_COUNT */
	preempt_check_resched();
}
#endif

void irq_enter(void)
{
	__preempt_count_add(HARDIRQ_OFFSET);
	barrier();
}

void irq_exit(void)
{
	barrier();
	__preempt_count_sub(HARDIRQ_OFFSET);
	if (in_interrupt() || !this_cpu_read(softirq_pending))
		return;
#ifdef CONFIG_PREEMPT_RT
	wakeup_softirqd();
#else
	__do_softirq();		/* interrupts are still off here */
#endif
}

static int ksoftirqd_fn(void *unused)
{
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!this_cpu_read(softirq_pending)) {
			schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);
		local_irq_disable();
		if (this_cpu_read(softirq_pending))
			__do_softirq();
		local_irq_enable();
		cond_resched();
	}
	return 0;
}

void spawn_ksoftirqd(void)
{
	int cpu;

	for_each_online_cpu(cpu) {
		struct task_struct *p = kthread_create(ksoftirqd_fn, NULL, "ksoftirqd/%d", cpu);

		if (WARN_ON(!p))
			continue;
		kthread_bind(p, cpu);
		per_cpu(ksoftirqd, cpu) = p;
		wake_up_process(p);
	}
}
