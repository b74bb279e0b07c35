// SPDX-License-Identifier: GPL-2.0
/*
 * The periodic scheduler tick (CONFIG_HZ) on each CPU's one-shot clock
 * event device: every expiry programs the next one a period later
 * (catching up if late) and runs scheduler_tick().  Tests that drive the
 * raw device suspend the tick on their CPU for the duration.
 */
#include <linux/kernel.h>
#include <linux/clockchips.h>
#include <linux/ktime.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/irqflags.h>

#define TICK_NSEC	(NSEC_PER_SEC / CONFIG_HZ)

static DEFINE_PER_CPU(u64, tick_next_period);
static DEFINE_PER_CPU(bool, tick_running);

/*
 * jiffies counts elapsed periods of ktime, updated by CPU 0's tick: a late
 * or lost tick interrupt does not slow it down (tick_do_update_jiffies64).
 */
extern unsigned long volatile jiffies;

static void tick_do_update_jiffies(u64 now)
{
	if (smp_processor_id() == 0)
		WRITE_ONCE(jiffies, now / TICK_NSEC);
}

static void tick_handle_periodic(struct clock_event_device *dev)
{
	u64 next = this_cpu_read(tick_next_period) + TICK_NSEC;
	u64 now = ktime_get_ns();

	tick_do_update_jiffies(now);
	while ((s64)(next - now) <= 0)
		next += TICK_NSEC;	/* missed ticks are not replayed */
	this_cpu_write(tick_next_period, next);
	clockevents_program_event(dev, next, true);
	scheduler_tick();
}

void tick_setup_local(void)
{
	struct clock_event_device *dev = this_cpu_clockevent();
	unsigned long flags;

	local_irq_save(flags);
	this_cpu_write(tick_next_period, ktime_get_ns());
	dev->event_handler = tick_handle_periodic;
	this_cpu_write(tick_running, true);
	clockevents_program_event(dev, this_cpu_read(tick_next_period) + TICK_NSEC, true);
	local_irq_restore(flags);
}

/* For tests that own the clock event device for a while (CPU pinned). */
void tick_suspend_local(void)
{
	unsigned long flags;

	local_irq_save(flags);
	if (this_cpu_read(tick_running)) {
		this_cpu_write(tick_running, false);
		clockevents_shutdown(this_cpu_clockevent());
		this_cpu_clockevent()->event_handler = NULL;
	}
	local_irq_restore(flags);
}

void tick_resume_local(void)
{
	tick_setup_local();
}
