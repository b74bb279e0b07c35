// SPDX-License-Identifier: GPL-2.0
/*
 * The lockup detectors, as Linux 5.15's kernel/watchdog.c has them.
 *
 * Soft lockup: every watched CPU runs a pinned hard hrtimer each
 * watchdog_thresh * 2 / 5 seconds.  The timer counts itself
 * (hrtimer_interrupts, which the hard lockup detector's NMI reads) and
 * queues softlockup_fn() on the CPU's stopper ("migration/N", the
 * highest class there is): once that runs, the CPU scheduled, and it
 * stamps watchdog_touch_ts.  A timer that finds the stamp older than
 * 2 * watchdog_thresh seconds reports "BUG: soft lockup" with the
 * registers and backtrace it interrupted, once per such interval.
 *
 * The stopper work is queued only when the previous one has run (the
 * per-CPU completion), so a stuck CPU collects one work item, not one
 * per period.  The timer runs in hard IRQ context on every preemption
 * model (HRTIMER_MODE_REL_PINNED_HARD, as RT needs) and adds no IRQ-off
 * section of its own beyond that callback.
 *
 * Time is counted in units of 2^30 ns, Linux's cheap "about a second".
 */
#define pr_fmt(fmt) "watchdog: " fmt

#include <linux/kernel.h>
#include <linux/boot_timing.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/errno.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <limits.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/nmi.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/smp.h>
#include <linux/stop_machine.h>
#include <asm/ptrace.h>
#include <asm/stacktrace.h>
#include <asm/traps.h>
#include <asm-generic/irq_regs.h>

unsigned long watchdog_enabled;
int watchdog_user_enabled = 1;
int soft_watchdog_user_enabled = 1;
/*
 * The NMI watchdog is opt-in here (nmi_watchdog=1): with no PMU its NMIs
 * come from HPET timer 0 on the legacy route, which takes IRQ 0 away
 * from the PIT, and they count as noise in the noise workloads.
 */
int nmi_watchdog_user_enabled;
int watchdog_thresh = 10;
int softlockup_panic;
int hardlockup_panic;
atomic_t lockup_report_count;
u64 lockup_report_seq;

void lockup_report_done(void)
{
	/* Any context, NMI included: a plain store and an atomic. */
	WRITE_ONCE(lockup_report_seq, printk_next_seq());
	atomic_inc(&lockup_report_count);
}

static bool no_watchdog, no_softlockup;
core_param("nowatchdog", no_watchdog, bool, "turn both lockup detectors off");
core_param("nosoftlockup", no_softlockup, bool, "turn the soft lockup detector off");
core_param_range("watchdog_thresh", watchdog_thresh, int, 0, 60,
		 "hard lockup after this many seconds, soft lockup after twice it (0: off)");
core_param_range("softlockup_panic", softlockup_panic, int, 0, 1,
		 "panic on a soft lockup");
core_param_range("hardlockup_panic", hardlockup_panic, int, 0, 1,
		 "panic on a hard lockup (Linux's sysctl kernel.hardlockup_panic)");

/* nmi_watchdog=0|1|panic|nopanic, as Linux parses it. */
static int nmi_watchdog_set(const char *val, const struct kernel_param *kp)
{
	if (!val)
		val = "";
	if (!strcmp(val, "0"))
		nmi_watchdog_user_enabled = 0;
	else if (!strcmp(val, "1"))
		nmi_watchdog_user_enabled = 1;
	else if (!strcmp(val, "panic"))
		hardlockup_panic = 1;
	else if (!strcmp(val, "nopanic"))
		hardlockup_panic = 0;
	else {
		pr_err("irqlab: parameter 'nmi_watchdog': '%s' is not valid (valid: 0, 1, panic, nopanic)\n",
		       val);
		return -EINVAL;
	}
	return 0;
}

static const struct kernel_param_ops nmi_watchdog_ops = {
	.set = nmi_watchdog_set, .type = "0, 1, panic or nopanic",
};
core_param_cb("nmi_watchdog", &nmi_watchdog_ops, NULL,
	      "hard lockup detector: 1 on (PMU or HPET NMIs), 0 off; panic/nopanic on a hard lockup");

static struct cpumask watchdog_allowed_mask;
static u64 sample_period;		/* ns between two watchdog_timer_fn() */

/* watchdog_report_ts holds this after a touch: re-arm, do not report. */
#define SOFTLOCKUP_DELAY_REPORT	ULONG_MAX

static DEFINE_PER_CPU(unsigned long, watchdog_touch_ts);
static DEFINE_PER_CPU(unsigned long, watchdog_report_ts);
static DEFINE_PER_CPU(struct hrtimer, watchdog_hrtimer);
static DEFINE_PER_CPU(bool, softlockup_touch_sync);
static DEFINE_PER_CPU(unsigned long, hrtimer_interrupts);
static DEFINE_PER_CPU(unsigned long, hrtimer_interrupts_saved);
static DEFINE_PER_CPU(struct completion, softlockup_completion);
static DEFINE_PER_CPU(struct cpu_stop_work, softlockup_stop_work);
static DEFINE_PER_CPU(bool, watchdog_running);
/* Who started each CPU's detector last, and where (the boot_order test). */
static DEFINE_PER_CPU(struct watchdog_start_record, watchdog_start_rec);

void watchdog_start_record(unsigned int cpu, struct watchdog_start_record *rec)
{
	*rec = *per_cpu_ptr(&watchdog_start_rec, cpu);
}

/* The NMI handler's question: did this CPU's hrtimer run since last asked? */
bool is_hardlockup(void)
{
	unsigned long hrint = __this_cpu_read(hrtimer_interrupts);

	if (__this_cpu_read(hrtimer_interrupts_saved) == hrint)
		return true;
	__this_cpu_write(hrtimer_interrupts_saved, hrint);
	return false;
}

static void watchdog_interrupt_count(void)
{
	__this_cpu_inc(hrtimer_interrupts);
}

static int get_softlockup_thresh(void)
{
	return watchdog_thresh * 2;
}

static unsigned long get_timestamp(void)
{
	return local_clock() >> 30;	/* 2^30 ns: close enough to a second */
}

static void set_sample_period(void)
{
	/* Five timer runs per soft lockup threshold: 2.5 per NMI period. */
	sample_period = get_softlockup_thresh() * ((u64)NSEC_PER_SEC / 5);
	watchdog_update_hrtimer_threshold(sample_period);
}

u64 watchdog_sample_period_ns(void)
{
	return sample_period;
}

static void update_report_ts(void)
{
	__this_cpu_write(watchdog_report_ts, get_timestamp());
}

static void update_touch_ts(void)
{
	__this_cpu_write(watchdog_touch_ts, get_timestamp());
	update_report_ts();
}

/*
 * The scheduler's form: the next timer run starts a new interval instead
 * of judging this one.  Any context, so raw_cpu_write().
 */
void touch_softlockup_watchdog_sched(void)
{
	raw_cpu_write(watchdog_report_ts, SOFTLOCKUP_DELAY_REPORT);
}

void touch_softlockup_watchdog(void)
{
	touch_softlockup_watchdog_sched();
}

void touch_all_softlockup_watchdogs(void)
{
	int cpu;

	for_each_cpu(cpu, &watchdog_allowed_mask)
		per_cpu(watchdog_report_ts, cpu) = SOFTLOCKUP_DELAY_REPORT;
}

void touch_softlockup_watchdog_sync(void)
{
	__this_cpu_write(softlockup_touch_sync, true);
	__this_cpu_write(watchdog_report_ts, SOFTLOCKUP_DELAY_REPORT);
}

/* Seconds this CPU has not scheduled, when that makes a soft lockup. */
static int is_softlockup(unsigned long touch_ts, unsigned long period_ts,
			 unsigned long now)
{
	if ((watchdog_enabled & SOFT_WATCHDOG_ENABLED) && watchdog_thresh) {
		if (time_after(now, period_ts + get_softlockup_thresh()))
			return now - touch_ts;
	}
	return 0;
}

/* On the stopper: this CPU scheduled, and nothing outranks the stopper. */
static int softlockup_fn(void *data)
{
	update_touch_ts();
	complete(this_cpu_ptr(&softlockup_completion));
	return 0;
}

static void softlockup_report(int duration, struct pt_regs *regs)
{
	struct task_struct *curr = current;

	pr_emerg("BUG: soft lockup - CPU#%d stuck for %us! [%s:%d]\n",
		 smp_processor_id(), duration, curr->comm, curr->pid);
	pr_emerg("CPU: %d PID: %d Comm: %.20s\n", smp_processor_id(), curr->pid, curr->comm);
	if (regs)
		show_regs(regs);
	else
		dump_stack();
	lockup_report_done();	/* complete: see linux/nmi.h */
	if (softlockup_panic)
		panic("softlockup: hung tasks");
}

static enum hrtimer_restart watchdog_timer_fn(struct hrtimer *hrtimer)
{
	unsigned long touch_ts, period_ts, now;
	struct pt_regs *regs = get_irq_regs();
	int duration;

	if (!watchdog_enabled)
		return HRTIMER_NORESTART;

	/* What the NMI looks at: this CPU still takes interrupts. */
	watchdog_interrupt_count();

	/* Ask the stopper to show that this CPU still schedules. */
	if (completion_done(this_cpu_ptr(&softlockup_completion))) {
		reinit_completion(this_cpu_ptr(&softlockup_completion));
		stop_one_cpu_nowait(smp_processor_id(), softlockup_fn, NULL,
				    this_cpu_ptr(&softlockup_stop_work));
	}

	hrtimer_forward_now(hrtimer, ns_to_ktime(sample_period));

	/*
	 * Read the touch stamp before the report stamp: a touch between the
	 * two reads then shows as a delayed report, never as a lockup.
	 */
	now = get_timestamp();
	touch_ts = __this_cpu_read(watchdog_touch_ts);
	period_ts = READ_ONCE(*this_cpu_ptr(&watchdog_report_ts));

	if (period_ts == SOFTLOCKUP_DELAY_REPORT) {
		/* Touched: restart the interval from now. */
		__this_cpu_write(softlockup_touch_sync, false);
		update_report_ts();
		return HRTIMER_RESTART;
	}

	duration = is_softlockup(touch_ts, period_ts, now);
	if (unlikely(duration)) {
		/* Once per interval: the next report comes a threshold later. */
		update_report_ts();
		softlockup_report(duration, regs);
	}
	return HRTIMER_RESTART;
}

/* On @cpu itself, in process context: start its timer and its NMI check. */
static void watchdog_enable(unsigned int cpu)
{
	struct hrtimer *hrtimer = this_cpu_ptr(&watchdog_hrtimer);
	struct completion *done = this_cpu_ptr(&softlockup_completion);

	WARN_ON_ONCE(cpu != smp_processor_id());
	if (__this_cpu_read(watchdog_running))
		return;
	/* Done from the start, so the first timer run queues the work. */
	init_completion(done);
	complete(done);
	hrtimer_init(hrtimer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	hrtimer->function = watchdog_timer_fn;
	hrtimer_start(hrtimer, ns_to_ktime(sample_period), HRTIMER_MODE_REL_PINNED_HARD);
	update_touch_ts();
	__this_cpu_write(watchdog_running, true);
	__this_cpu_write(watchdog_start_rec.task, current);
	__this_cpu_write(watchdog_start_rec.on_cpu, smp_processor_id());
	__this_cpu_write(watchdog_start_rec.in_task, in_task());
	__this_cpu_write(watchdog_start_rec.count, __this_cpu_read(watchdog_start_rec.count) + 1);
	if (watchdog_enabled & NMI_WATCHDOG_ENABLED)
		watchdog_nmi_enable(cpu);
}

/* On @cpu itself, process context: the queued stopper work may still be due. */
static void watchdog_disable(unsigned int cpu)
{
	struct hrtimer *hrtimer = this_cpu_ptr(&watchdog_hrtimer);

	WARN_ON_ONCE(cpu != smp_processor_id());
	if (!__this_cpu_read(watchdog_running))
		return;
	/* The NMI check goes first: with the timer gone it would fire. */
	watchdog_nmi_disable(cpu);
	hrtimer_cancel(hrtimer);
	wait_for_completion(this_cpu_ptr(&softlockup_completion));
	__this_cpu_write(watchdog_running, false);
}

int lockup_detector_online_cpu(unsigned int cpu)
{
	if (watchdog_enabled && watchdog_thresh &&
	    cpumask_test_cpu(cpu, &watchdog_allowed_mask))
		watchdog_enable(cpu);
	return 0;
}

int lockup_detector_offline_cpu(unsigned int cpu)
{
	if (cpumask_test_cpu(cpu, &watchdog_allowed_mask))
		watchdog_disable(cpu);
	return 0;
}

static void lockup_detector_update_enable(void)
{
	watchdog_enabled = 0;
	if (!watchdog_user_enabled)
		return;
	if (nmi_watchdog_user_enabled)
		watchdog_enabled |= NMI_WATCHDOG_ENABLED;
	if (soft_watchdog_user_enabled)
		watchdog_enabled |= SOFT_WATCHDOG_ENABLED;
}

/*
 * In kernel_init_freeable() before smp_init(), the stoppers made: only
 * the boot CPU is online, so only its detector starts here, in pid 1 on
 * CPU 0 (Linux's softlockup_start_all() finds it alone).  Each AP starts
 * its own as it comes up, from CPUHP_AP_WATCHDOG_ONLINE in its cpuhp
 * thread (lockup_detector_online_cpu()): no cross-CPU call.
 */
void lockup_detector_init(void)
{
	boot_order_mark("lockup_detector_init");
	if (no_watchdog)
		watchdog_user_enabled = 0;
	if (no_softlockup)
		soft_watchdog_user_enabled = 0;
	cpumask_copy(&watchdog_allowed_mask, cpu_possible_mask);
	if (nmi_watchdog_user_enabled && watchdog_user_enabled && watchdog_thresh &&
	    watchdog_nmi_probe())
		nmi_watchdog_user_enabled = 0;
	lockup_detector_update_enable();
	set_sample_period();
	if (!watchdog_enabled || !watchdog_thresh) {
		pr_info("lockup detectors off\n");
		return;
	}
	WARN_ON_ONCE(num_online_cpus() != 1);
	lockup_detector_online_cpu(smp_processor_id());

	pr_info("soft lockup detector %s, hard lockup detector %s (%s), thresh %d s\n",
		watchdog_enabled & SOFT_WATCHDOG_ENABLED ? "on" : "off",
		watchdog_enabled & NMI_WATCHDOG_ENABLED ? "on" : "off",
		hardlockup_detector_source(), watchdog_thresh);
}
