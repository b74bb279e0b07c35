// SPDX-License-Identifier: GPL-2.0
/*
 * The hard lockup detector (Linux 5.15's kernel/watchdog_hld.c).
 *
 * An NMI reaches every watched CPU about once per watchdog_thresh
 * seconds and asks is_hardlockup(): has this CPU's watchdog hrtimer run
 * since the last NMI?  If not, the CPU has had interrupts off for a whole
 * NMI period (2.5 timer periods) and we report it with the registers the
 * NMI interrupted.
 *
 * Linux takes the NMI from a PMU counter overflowing once per period on
 * each CPU, and so does irqlab where CPUID.0AH describes an architectural
 * PMU with a general-purpose counter to spare: PMC1 counts unhalted core
 * cycles, watchdog_thresh * the cycle rate per period, and its overflow
 * raises an NMI through LVTPC (arch/x86/events/pmu.c).  That path has not
 * run anywhere yet: QEMU's TCG has no PMU.  Without one, HPET timer 0
 * raises a periodic NMI on one CPU, the leader, through the legacy route
 * and the IOAPIC (arch/x86/kernel/hpet.c, shared with the profiler); the
 * leader passes it on to every other watched CPU with an NMI IPI, noting
 * it in that CPU's pending count first so the target knows the NMI is
 * ours.  The boot line names the source, and why the PMU was not chosen.
 *
 * The handler is an NMI_LOCAL handler on do_nmi()'s list, asked on every
 * NMI.  While the profiler borrows HPET timer 0 (or samples with the
 * PMU) its NMIs reach every CPU more often than ours would; the detector
 * then checks on those, but only when a full sample threshold passed on
 * this CPU's clock (Linux's CONFIG_HARDLOCKUP_CHECK_TIMESTAMP filter,
 * without its "ten early NMIs are fine" escape, which would make a 1 kHz
 * profiler look like a lockup every 11 ms).
 */
#define pr_fmt(fmt) "NMI watchdog: " fmt

#include <linux/kernel.h>
#include <linux/cpumask.h>
#include <linux/errno.h>
#include <linux/nmi.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/smp.h>
#include <asm/apic.h>
#include <asm/hpet.h>
#include <asm/nmi.h>
#include <asm/perf_event.h>
#include <asm/ptrace.h>
#include <asm/traps.h>

static DEFINE_PER_CPU(bool, hard_watchdog_warn);
static DEFINE_PER_CPU(bool, watchdog_nmi_touch);
static DEFINE_PER_CPU(u64, last_timestamp);
static DEFINE_PER_CPU(unsigned int, nmi_rearmed);
static DEFINE_PER_CPU(unsigned long, watchdog_nmi_pending);
static u64 watchdog_hrtimer_sample_threshold;

enum hld_source { HLD_NONE, HLD_HPET, HLD_RIDING, HLD_PERF };
static enum hld_source hld_source;
static struct cpumask watchdog_nmi_cpus;	/* watched CPUs */
static int watchdog_nmi_leader = -1;	/* takes the HPET's NMI */
static u64 watchdog_nmi_period;		/* ns, as the HPET runs it */
static u64 watchdog_perf_period;	/* cycles, with the PMU source */
static char hld_pmu_why[96];		/* why the PMU was not chosen */

void arch_touch_nmi_watchdog(void)
{
	/* Any context, any CPU state: a plain per-CPU flag. */
	raw_cpu_write(watchdog_nmi_touch, true);
}

const char *hardlockup_detector_source(void)
{
	switch (READ_ONCE(hld_source)) {
	case HLD_HPET:
		return "hpet";
	case HLD_PERF:
		return "perf";
	case HLD_RIDING:
		return "profiler's NMIs";
	default:
		return "none";
	}
}

/* Twice the hrtimer period: an NMI earlier than that is not a full period. */
void watchdog_update_hrtimer_threshold(u64 period)
{
	watchdog_hrtimer_sample_threshold = period * 2;
}

/*
 * False for an NMI that came too early after the last check on this
 * CPU.  An NMI source we own may run a little fast against the clock,
 * so ten early ones in a row count as a period (Linux's rule); someone
 * else's NMIs (@strict) count only by the clock.
 */
static bool watchdog_check_timestamp(bool strict)
{
	u64 now = local_clock(), delta;

	delta = now - __this_cpu_read(last_timestamp);
	if (delta < watchdog_hrtimer_sample_threshold) {
		if (strict || this_cpu_add_return(nmi_rearmed, 1) < 10)
			return false;
	}
	__this_cpu_write(nmi_rearmed, 0);
	__this_cpu_write(last_timestamp, now);
	return true;
}

static void watchdog_overflow_callback(struct pt_regs *regs, bool strict)
{
	struct task_struct *curr = current;
	int this_cpu = smp_processor_id();

	if (__this_cpu_read(watchdog_nmi_touch)) {
		__this_cpu_write(watchdog_nmi_touch, false);
		return;
	}
	if (!watchdog_check_timestamp(strict))
		return;
	if (!is_hardlockup()) {
		__this_cpu_write(hard_watchdog_warn, false);
		return;
	}
	/* One report per lockup: again only after the CPU took a timer. */
	if (__this_cpu_read(hard_watchdog_warn))
		return;
	pr_emerg("Watchdog detected hard LOCKUP on cpu %d\n", this_cpu);
	pr_emerg("CPU: %d PID: %d Comm: %.20s\n", this_cpu, curr->pid, curr->comm);
	show_regs(regs);
	lockup_report_done();	/* complete: see linux/nmi.h */
	if (hardlockup_panic)
		panic("Hard LOCKUP");
	__this_cpu_write(hard_watchdog_warn, true);
}

/* On the leader: the HPET fired; pass it on, count first. */
static void watchdog_nmi_fan_out(void)
{
	unsigned int this = smp_processor_id();
	int cpu;

	for_each_cpu(cpu, &watchdog_nmi_cpus) {
		if (cpu == this)
			continue;
		__atomic_add_fetch(per_cpu_ptr(&watchdog_nmi_pending, cpu), 1, __ATOMIC_SEQ_CST);
		apic_send_NMI_from_nmi(cpu);
	}
}

static int watchdog_nmi_handler(unsigned int type, struct pt_regs *regs)
{
	enum hld_source src = READ_ONCE(hld_source);
	unsigned long n;
	u64 periods;

	if (src == HLD_NONE || !cpumask_test_cpu(smp_processor_id(), &watchdog_nmi_cpus))
		return NMI_DONE;
	if (src == HLD_PERF) {
		bool period_done = false;

		if (!x86_pmu_hld_overflow(&period_done))
			return NMI_DONE;
		/* A piece of a period longer than the counter can take: no check. */
		if (period_done)
			watchdog_overflow_callback(regs, false);
		return NMI_HANDLED;
	}
	/* An IPI sent before the profiler took the HPET is still ours. */
	n = __atomic_exchange_n(this_cpu_ptr(&watchdog_nmi_pending), 0, __ATOMIC_SEQ_CST);
	if (src == HLD_RIDING) {
		/* The profiler's NMI: check by the clock, leave it to claim. */
		watchdog_overflow_callback(regs, true);
		return n ? NMI_HANDLED : NMI_DONE;
	}
	if ((int)smp_processor_id() == READ_ONCE(watchdog_nmi_leader) && hpet_nmi_fired(&periods)) {
		watchdog_nmi_fan_out();
		n++;
	}
	if (!n)
		return NMI_DONE;
	watchdog_overflow_callback(regs, false);
	return NMI_HANDLED;
}

/*
 * Unclaimed NMIs while the HPET is ours: QEMU's HPET repeats an edge one
 * tick after the comparator's own (see profile_nmi_unknown()), and an IPI
 * whose count an earlier NMI already took.  Claimed, nothing checked.
 */
static int watchdog_nmi_unknown(unsigned int type, struct pt_regs *regs)
{
	return READ_ONCE(hld_source) == HLD_HPET ? NMI_HANDLED : NMI_DONE;
}

static int watchdog_hpet_start(unsigned int leader)
{
	char why[96];
	u64 period = (u64)watchdog_thresh * NSEC_PER_SEC;
	int err;

	WRITE_ONCE(watchdog_nmi_leader, leader);
	err = hpet_nmi_start_period(&period, leader, why, sizeof(why));
	if (err) {
		pr_info("no HPET NMI source: %s\n", why);
		WRITE_ONCE(watchdog_nmi_leader, -1);
		return err;
	}
	watchdog_nmi_period = period;
	return 0;
}

static void watchdog_hpet_stop_fn(void *unused)
{
	hpet_nmi_stop();
}

/*
 * Linux's hardlockup_detector_perf_init(): can this CPU's PMU count
 * cycles towards an NMI?  Tried once on the boot CPU and stopped again;
 * each CPU starts its own counter in watchdog_nmi_enable().
 */
static int hardlockup_detector_perf_init(void)
{
	u64 period = hw_nmi_get_sample_period(watchdog_thresh);
	int err;

	if (!x86_pmu_hld_usable(x86_pmu_caps(), period, hld_pmu_why, sizeof(hld_pmu_why)))
		return -ENODEV;
	err = x86_pmu_hld_start_cpu(period);
	x86_pmu_hld_stop_cpu();
	x86_pmu_hld_off();
	if (err) {
		snprintf(hld_pmu_why, sizeof(hld_pmu_why), "programming PMC1 faulted");
		return err;
	}
	watchdog_perf_period = period;
	return 0;
}

/* Why the PMU source was not chosen ("" when it was, or was not tried). */
const char *hardlockup_detector_pmu_reason(void)
{
	return hld_pmu_why;
}

/* Boot, process context: the PMU if this CPU has one, else HPET timer 0. */
int watchdog_nmi_probe(void)
{
	int err;

	register_nmi_handler(NMI_LOCAL, watchdog_nmi_handler, "watchdog");
	register_nmi_handler(NMI_UNKNOWN, watchdog_nmi_unknown, "watchdog_echo");
	if (!hardlockup_detector_perf_init()) {
		WRITE_ONCE(hld_source, HLD_PERF);
		return 0;
	}
	pr_info("no PMU source (%s): HPET NMIs instead\n", hld_pmu_why);
	err = watchdog_hpet_start(smp_processor_id());
	if (err) {
		pr_info("hard lockup detector permanently disabled\n");
		return err;
	}
	WRITE_ONCE(hld_source, HLD_HPET);
	if (watchdog_nmi_period != (u64)watchdog_thresh * NSEC_PER_SEC)
		pr_info("HPET period cut to %llu ms; early NMIs are filtered\n",
			(unsigned long long)(watchdog_nmi_period / NSEC_PER_MSEC));
	return 0;
}

/* On @cpu: watch it from the next NMI on. */
void watchdog_nmi_enable(unsigned int cpu)
{
	if (READ_ONCE(hld_source) == HLD_NONE)
		return;
	/* A fresh period: no judgement on the NMIs before this. */
	__this_cpu_write(last_timestamp, local_clock());
	__this_cpu_write(hard_watchdog_warn, false);
	__this_cpu_write(watchdog_nmi_pending, 0);
	cpumask_set_cpu(cpu, &watchdog_nmi_cpus);
	if (READ_ONCE(hld_source) == HLD_PERF && x86_pmu_hld_start_cpu(watchdog_perf_period))
		pr_warn("CPU%u: PMC1 could not be programmed: not watched\n", cpu);
}

/*
 * On @cpu, process context.  If it led, the HPET's NMI moves to another
 * watched CPU; an IPI already in flight to @cpu finds it unwatched and is
 * taken by the unknown handler.
 */
void watchdog_nmi_disable(unsigned int cpu)
{
	int next;

	cpumask_clear_cpu(cpu, &watchdog_nmi_cpus);
	if (READ_ONCE(hld_source) == HLD_PERF) {
		x86_pmu_hld_stop_cpu();
		return;
	}
	if (READ_ONCE(hld_source) != HLD_HPET || (int)cpu != READ_ONCE(watchdog_nmi_leader))
		return;
	hpet_nmi_stop();
	next = cpumask_first(&watchdog_nmi_cpus);
	if (next >= nr_cpu_ids || watchdog_hpet_start(next))
		WRITE_ONCE(hld_source, HLD_NONE);
}

void hardlockup_detector_hpet_yield(void)
{
	int leader = READ_ONCE(watchdog_nmi_leader);

	if (READ_ONCE(hld_source) != HLD_HPET)
		return;
	/*
	 * Timer 0 stops on the CPU that takes its NMIs, as the profiler's
	 * does: an NMI in flight there is taken, as ours, before this returns.
	 */
	smp_call_function_single(leader, watchdog_hpet_stop_fn, NULL, 1);
	WRITE_ONCE(hld_source, HLD_RIDING);
}

void hardlockup_detector_hpet_reclaim(void)
{
	int cpu, leader;

	if (READ_ONCE(hld_source) != HLD_RIDING)
		return;
	leader = cpumask_first(&watchdog_nmi_cpus);
	for_each_cpu(cpu, &watchdog_nmi_cpus)
		WRITE_ONCE(per_cpu(watchdog_nmi_pending, cpu), 0);
	if (leader >= (int)nr_cpu_ids || watchdog_hpet_start(leader)) {
		WRITE_ONCE(hld_source, HLD_NONE);
		pr_warn("hard lockup detector lost its NMI source\n");
		return;
	}
	WRITE_ONCE(hld_source, HLD_HPET);
}
