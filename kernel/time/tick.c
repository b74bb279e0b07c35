// SPDX-License-Identifier: GPL-2.0
/*
 * The scheduler tick (CONFIG_HZ) as a per-CPU hard hrtimer, like Linux's
 * tick_sched_timer: the clock event device belongs to hrtimer_interrupt()
 * and the tick is one of its timers, forwarded by whole periods (missed
 * ticks are not replayed).  Tests that drive the raw device suspend the
 * tick and the hrtimer machinery on their CPU for the duration.
 */
#include <linux/kernel.h>
#include <linux/clockchips.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/irqflags.h>
#include <linux/rcupdate.h>

static DEFINE_PER_CPU(struct hrtimer, tick_sched_timer);
static DEFINE_PER_CPU(bool, tick_running);

/*
 * jiffies counts elapsed periods of ktime, updated by CPU 0's tick: a late
 * or lost tick interrupt does not slow it down (tick_do_update_jiffies64).
 */
static void tick_do_update_jiffies(u64 now)
{
	if (smp_processor_id() == 0)
		WRITE_ONCE(jiffies, now / TICK_NSEC);
}

static enum hrtimer_restart tick_sched_timer_fn(struct hrtimer *timer)
{
	ktime_t now = ktime_get();

	tick_do_update_jiffies(now);
	rcu_sched_clock_irq(0);	/* no user mode: never from user */
	scheduler_tick();
	hrtimer_forward(timer, now, TICK_NSEC);
	return HRTIMER_RESTART;
}

static void tick_start_local(void)
{
	struct hrtimer *timer = this_cpu_ptr(&tick_sched_timer);
	ktime_t now = ktime_get();

	/* Ticks fall on multiples of TICK_NSEC, as jiffies does. */
	hrtimer_start(timer, (now / TICK_NSEC + 1) * TICK_NSEC, HRTIMER_MODE_ABS_PINNED_HARD);
}

void tick_setup_local(void)
{
	struct clock_event_device *dev = this_cpu_clockevent();
	unsigned long flags;

	local_irq_save(flags);
	hrtimers_init_cpu();
	dev->event_handler = hrtimer_interrupt;
	hrtimer_init(this_cpu_ptr(&tick_sched_timer), CLOCK_MONOTONIC,
		     HRTIMER_MODE_ABS_PINNED_HARD);
	this_cpu_ptr(&tick_sched_timer)->function = tick_sched_timer_fn;
	this_cpu_write(tick_running, true);
	tick_start_local();
	local_irq_restore(flags);
}

/*
 * For tests that own the clock event device for a while (CPU pinned):
 * the tick stops, hrtimers on this CPU wait, the device is shut down and
 * its handler is the caller's to set.
 */
void tick_suspend_local(void)
{
	struct clock_event_device *dev;
	unsigned long flags;

	local_irq_save(flags);
	if (this_cpu_read(tick_running)) {
		this_cpu_write(tick_running, false);
		hrtimer_try_to_cancel(this_cpu_ptr(&tick_sched_timer));
		hrtimers_suspend_local();
		dev = this_cpu_clockevent();
		clockevents_shutdown(dev);
		dev->event_handler = NULL;
	}
	local_irq_restore(flags);
}

/* Give the device back to hrtimer_interrupt() and restart the tick. */
void tick_resume_local(void)
{
	struct clock_event_device *dev = this_cpu_clockevent();
	unsigned long flags;

	local_irq_save(flags);
	if (!this_cpu_read(tick_running)) {
		clockevents_shutdown(dev);	/* drop what the borrower programmed */
		hrtimers_resume_local();	/* handler back to hrtimer_interrupt */
		this_cpu_write(tick_running, true);
		tick_start_local();
	}
	local_irq_restore(flags);
}

/*
 * The dying CPU, in stop_machine with IRQs off (take_cpu_down()): its tick
 * stops here.  Its clock event device was masked by __cpu_disable(); the
 * tick timer is cancelled so that no hrtimer migration carries it to
 * another CPU.  tick_setup_local() starts it again when the CPU returns.
 */
void tick_offline_cpu(void)
{
	if (!this_cpu_read(tick_running))
		return;
	this_cpu_write(tick_running, false);
	hrtimer_try_to_cancel(this_cpu_ptr(&tick_sched_timer));
}
