// SPDX-License-Identifier: GPL-2.0
/*
 * The lockup detectors (kernel/watchdog.c, watchdog_hld.c) and RCU CPU
 * stall warnings (kernel/rcu/tree_stall.h) on planted lockups: a spin
 * with preemption off must be reported as a soft lockup, a spin with
 * interrupts off as a hard lockup, a spin that holds up a grace period
 * as an RCU stall; each report names the CPU, the task and the spinning
 * function.  Each case spins until its report appears or a generous
 * bound passes, so host stalls can only slow it down, never change the
 * verdict.  The entries run with small thresholds (watchdog_thresh=1,
 * rcupdate.rcu_cpu_stall_timeout=3); the run's own end check (init
 * fails a run with a lockup report) is the "reports nothing" half: the
 * cases take back exactly the reports they planted.
 *
 * With ktest.cpus=2 the spins run on CPU 1, so the NMI that catches the
 * hard lockup is the one the HPET's leader (CPU 0) passes on, and the
 * RCU stall is seen by CPU 0 ("detected stalls on CPUs/tasks").
 */
#include <linux/ktest.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/nmi.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/delay.h>
#include <linux/string.h>
#include <asm/perf_event.h>
#include <asm/tsc.h>
#include <linux/printk.h>

struct planted {
	u64 mark;
	int before;
};

/*
 * The log position when the spinner first saw the report count move.  A
 * report is counted once it is complete (linux/nmi.h), so all it says
 * about the planted state (the spinner's stack, the reader it blocks)
 * lies before lockup_report_seq, and before this.  A count moved early
 * let the spinner stop mid-report, and the rest of the report (another
 * CPU's) describe a stall that was gone: the NMI found CPU 1 freeing the
 * spinner's stack in csd_lock_wait(), or the reader no longer blocking.
 */
static u64 spin_stop_seq;

static void plant_begin(struct planted *p)
{
	WRITE_ONCE(spin_stop_seq, ~0ULL);
	p->mark = ktest_log_mark();
	p->before = atomic_read(&lockup_report_count);
}

static bool reported(const struct planted *p)
{
	return atomic_read(&lockup_report_count) != p->before;
}

/* Exactly one report since plant_begin(); forgiven so the run stays clean. */
static void expect_one_report(struct ktest *t, struct planted *p)
{
	KTEST_EXPECT_EQ(t, atomic_read(&lockup_report_count), p->before + 1);
	atomic_set(&lockup_report_count, p->before);
	ktest_expect_reports("lockup", 1);
}

/*
 * The cases spin for a few thresholds: with the defaults (10 s, 21 s)
 * that is a minute or more per case, so they run only where the entry
 * lowered both (the watchdog entries do); a run of every suite skips them.
 */
static void need_short_thresholds(struct ktest *t)
{
	if (watchdog_thresh > 2 || rcu_cpu_stall_timeout > 6)
		ktest_skip(t, "needs watchdog_thresh<=2 and rcupdate.rcu_cpu_stall_timeout<=6 "
			   "(now %d, %d): the watchdog entries lower them", watchdog_thresh,
			   rcu_cpu_stall_timeout);
}

/* Seconds the longest planted spin may take before the case gives up. */
static u64 spin_bound_ns(void)
{
	return (u64)(4 * watchdog_thresh + 3 * rcu_cpu_stall_timeout + 10) * NSEC_PER_SEC;
}

/*
 * The spinners: each a function of its own, for the backtrace to name.
 * They call nothing most of the time: an interrupt that lands on the
 * first instruction of a callee shows the callee's caller's caller (no
 * frame yet), so the clock is read once per SPIN_ROUNDS rounds.
 */
#define SPIN_ROUNDS	100000

static __always_inline bool spin_more(const struct planted *p, u64 end)
{
	for (volatile int i = 0; i < SPIN_ROUNDS; i++)
		if (READ_ONCE(lockup_report_count.counter) != p->before) {
			WRITE_ONCE(spin_stop_seq, printk_next_seq());
			return false;
		}
	return ktime_get_ns() < end;
}

static noinline void watchdog_test_spin_preempt_off(const struct planted *p, u64 end)
{
	preempt_disable();
	while (spin_more(p, end))
		;
	preempt_enable();
}

static noinline void watchdog_test_spin_irqs_off(const struct planted *p, u64 end)
{
	local_irq_disable();
	while (spin_more(p, end))
		;
	/* The timer would find the CPU silent for as long: not that report. */
	touch_softlockup_watchdog();
	local_irq_enable();
}

static bool spin_started;

/* Preemption off, but this CPU is alive: only RCU may complain. */
static noinline void watchdog_test_spin_rcu_stall(const struct planted *p, u64 end)
{
	preempt_disable();
	WRITE_ONCE(spin_started, true);
	while (spin_more(p, end))
		touch_softlockup_watchdog();
	preempt_enable();
}

static bool kick_in_reader;
static bool cb_done;
static struct rcu_head cb_head;

static void watchdog_test_cb(struct rcu_head *h)
{
	WRITE_ONCE(cb_done, true);
}

/*
 * A reader that stays in its section (preemptible under PREEMPT_RCU).
 * The GP it holds up must start after the reader did: a reader that
 * began on a CPU that had already reported for the current GP only
 * holds up the next one.
 */
static noinline void watchdog_test_spin_rcu_reader(const struct planted *p, u64 end)
{
	rcu_read_lock();
	if (READ_ONCE(kick_in_reader)) {
		WRITE_ONCE(cb_done, false);
		call_rcu(&cb_head, watchdog_test_cb);
	}
	while (spin_more(p, end))
		touch_softlockup_watchdog();
	rcu_read_unlock();
}

struct spin_job {
	void (*spin)(const struct planted *p, u64 end);
	int on_cpu;		/* 0: the last online CPU, else this + 1 */
	struct planted *p;
	bool want_gp;		/* an RCU grace period must be under way first */
	struct completion done;
	int cpu, pid;
	char comm[TASK_COMM_LEN];
};

/*
 * Queue a callback and poll, preemptibly, until its grace period runs.
 * Returns true with preemption off, so that the GP kthread cannot end
 * that GP between the check and the spin.  The GP kthread runs only when
 * it preempts this loop, and the loop runs again as soon as it sleeps,
 * before the tick that lets it end the GP; should a host stall let a GP
 * come and go unseen all the same (its callback ran), ask for another.
 */
static bool start_grace_period(u64 end)
{
	WRITE_ONCE(cb_done, false);
	call_rcu(&cb_head, watchdog_test_cb);
	while (ktime_get_ns() < end) {
		preempt_disable();
		if (rcu_get_gp_seq() & 3)
			return true;
		preempt_enable();
		if (READ_ONCE(cb_done)) {
			WRITE_ONCE(cb_done, false);
			call_rcu(&cb_head, watchdog_test_cb);
		}
		cond_resched();
	}
	return false;
}

/* Nonzero: spin exactly this long (a spin that must stay unreported). */
static u64 watchdog_thresh_spin_ns;

static int spin_job_fn(void *arg)
{
	struct spin_job *j = arg;
	u64 end = ktime_get_ns() + (watchdog_thresh_spin_ns ?: spin_bound_ns());

	j->cpu = smp_processor_id();
	j->pid = current->pid;
	strlcpy(j->comm, current->comm, sizeof(j->comm));
	if (!j->want_gp) {
		plant_begin(j->p);
		j->spin(j->p, end);
	} else if (start_grace_period(end)) {
			plant_begin(j->p);
		j->spin(j->p, end);
		preempt_enable();
	}
	complete(&j->done);
	return 0;
}

/* Run @spin in a thread on the last online CPU (CPU 1 with two). */
static void run_spin(struct ktest *t, struct spin_job *j)
{
	struct task_struct *k;

	WRITE_ONCE(spin_started, false);
	init_completion(&j->done);
	k = kthread_create(spin_job_fn, j, "wd_spin");
	KTEST_ASSERT_TRUE(t, k != NULL);
	kthread_bind(k, j->on_cpu ? j->on_cpu - 1 : (int)num_online_cpus() - 1);
	wake_up_process(k);
	wait_for_completion(&j->done);
	/* Let the thread exit before its job goes out of scope. */
	msleep(10);
}

/* @needle logged after @p's mark, before the report was counted and seen. */
static bool logged_before_count(const struct planted *p, const char *needle)
{
	u64 end = min(READ_ONCE(spin_stop_seq), READ_ONCE(lockup_report_seq));
	char buf[256];

	for (u64 seq = p->mark; seq < end && seq < printk_next_seq(); seq++)
		if (printk_read_record(seq, buf, sizeof(buf), NULL, NULL) >= 0 &&
		    strstr(buf, needle))
			return true;
	return false;
}

/* Format the line to look for into @needle and expect it after @p's mark. */
static void vexpect_log(struct ktest *t, const struct planted *p, char *needle,
			size_t size, const char *fmt, va_list ap)
{
	vsnprintf(needle, size, fmt, ap);
	KTEST_EXPECT_LOG(t, p->mark, needle);
}

static void expect_log(struct ktest *t, const struct planted *p, const char *fmt, ...)
{
	char needle[96];
	va_list ap;

	va_start(ap, fmt);
	vexpect_log(t, p, needle, sizeof(needle), fmt, ap);
	va_end(ap);
}

/* As expect_log(), and the line came before the count moved. */
static void expect_log_counted(struct ktest *t, const struct planted *p, const char *fmt, ...)
{
	char needle[96];
	va_list ap;

	va_start(ap, fmt);
	vexpect_log(t, p, needle, sizeof(needle), fmt, ap);
	va_end(ap);
	if (ktest_log_contains(p->mark, needle) && !logged_before_count(p, needle))
		ktest_fail(t, __FILE__, __LINE__,
			   "\"%s\" logged after the report was counted (log seq %llu) or seen (%llu)",
			   needle, (unsigned long long)READ_ONCE(lockup_report_seq),
			   (unsigned long long)READ_ONCE(spin_stop_seq));
}

/*
 * Busy but preemptible for longer than the soft lockup threshold: the
 * stopper gets in and nothing is reported.  The planted cases touch the
 * detectors while they wait; this is the stretch where nobody does.
 */
static void busy_preemptible_quiet(struct ktest *t)
{
	struct planted p;
	u64 end = ktime_get_ns() + (u64)(2 * watchdog_thresh + 2) * NSEC_PER_SEC;

	need_short_thresholds(t);
	plant_begin(&p);
	while (ktime_get_ns() < end)
		cond_resched();
	KTEST_EXPECT_EQ(t, atomic_read(&lockup_report_count), p.before);
	KTEST_EXPECT_FALSE(t, ktest_log_contains(p.mark, "lockup"));
}

static void softlockup_reported(struct ktest *t)
{
	struct planted p;
	struct spin_job j = { .spin = watchdog_test_spin_preempt_off, .p = &p };

	need_short_thresholds(t);
	if (!(watchdog_enabled & SOFT_WATCHDOG_ENABLED))
		ktest_skip(t, "soft lockup detector off");
	run_spin(t, &j);
	KTEST_ASSERT_TRUE(t, reported(&p));
	expect_log(t, &p, "BUG: soft lockup - CPU#%d stuck for ", j.cpu);
	expect_log(t, &p, "! [%s:%d]", j.comm, j.pid);
	expect_log_counted(t, &p, "watchdog_test_spin_preempt_off+0x");
	KTEST_EXPECT_FALSE(t, ktest_log_contains(p.mark, "hard LOCKUP"));
	expect_one_report(t, &p);
}

static void hardlockup_reported(struct ktest *t)
{
	struct planted p;
	struct spin_job j = { .spin = watchdog_test_spin_irqs_off, .p = &p };

	need_short_thresholds(t);
	if (!(watchdog_enabled & NMI_WATCHDOG_ENABLED))
		ktest_skip(t, "hard lockup detector off (nmi_watchdog=1, HPET needed)");
	run_spin(t, &j);
	KTEST_ASSERT_TRUE(t, reported(&p));
	expect_log(t, &p, "NMI watchdog: Watchdog detected hard LOCKUP on cpu %d", j.cpu);
	expect_log(t, &p, "CPU: %d PID: %d Comm: %s", j.cpu, j.pid, j.comm);
	expect_log_counted(t, &p, "watchdog_test_spin_irqs_off+0x");
	KTEST_EXPECT_FALSE(t, ktest_log_contains(p.mark, "soft lockup"));
	expect_one_report(t, &p);
}

/* The GP of the planted stall ends once the spin stops: its callback runs. */
static void wait_cb(struct ktest *t)
{
	for (int i = 0; i < 20000 && !READ_ONCE(cb_done); i++)
		msleep(1);
	KTEST_EXPECT_TRUE(t, READ_ONCE(cb_done));
}

/*
 * With one CPU the GP must be under way before the spin (nothing else can
 * start it), and this CPU has usually reported for it by then: what holds
 * the GP up is the GP kthread that cannot run, which Linux reports as a
 * stall with no CPU to name (or self-detected, where the QS report waits
 * for a thread too: RT's rcuc), a starved kthread, and the stack of the
 * CPU it last ran on.  With two, the spinner disables preemption first and the
 * GP starts from CPU 0: the spinning CPU never reports and detects its
 * own stall.
 */
static void rcu_stall_preempt_off(struct ktest *t)
{
	struct planted p;
	struct spin_job j = {
		.spin = watchdog_test_spin_rcu_stall, .p = &p,
		.want_gp = num_online_cpus() == 1,
	};
	const char *name = IS_ENABLED(CONFIG_PREEMPT_RCU) ? "rcu_preempt" : "rcu_sched";

	need_short_thresholds(t);
	if (num_online_cpus() > 1) {
		struct task_struct *k;

		init_completion(&j.done);
		WRITE_ONCE(spin_started, false);
		k = kthread_create(spin_job_fn, &j, "wd_spin");
		KTEST_ASSERT_TRUE(t, k != NULL);
		kthread_bind(k, num_online_cpus() - 1);
		wake_up_process(k);
		while (!READ_ONCE(spin_started))
			msleep(1);
		WRITE_ONCE(cb_done, false);
		call_rcu(&cb_head, watchdog_test_cb);
		wait_for_completion(&j.done);
		msleep(10);
	} else {
		run_spin(t, &j);
	}
	KTEST_ASSERT_TRUE(t, reported(&p));
	if (num_online_cpus() == 1) {
		/* Self-detected when the QS could not be reported either (RT: rcuc). */
		expect_log(t, &p, "rcu: INFO: %s ", name);
		expect_log(t, &p, "rcu: %s kthread starved for ", name);
	} else {
		/*
		 * Usually self-detected; CPU 0 reports it instead when CPU 1's
		 * tick comes late (TCG): Linux allows both, the CPU line is in both.
		 */
		expect_log(t, &p, "rcu: INFO: %s ", name);
		expect_log(t, &p, "\t%d-", j.cpu);
	}
	expect_log_counted(t, &p, "watchdog_test_spin_rcu_stall+0x");
	KTEST_EXPECT_FALSE(t, ktest_log_contains(p.mark, "lockup"));
	expect_one_report(t, &p);
	wait_cb(t);
}

/*
 * Under PREEMPT_RCU the reader is preempted now and then (the watchdog's
 * own stopper work does it), which reports its CPU's quiescent state and
 * leaves the reader blocking the GP as a task.  Otherwise a reader is a
 * preempt-off section and its CPU stalls.
 */
static void rcu_stall_reader(struct ktest *t)
{
	struct planted p;
	/* A !PREEMPT_RCU reader on the only CPU would keep the GP from starting. */
	bool first = !IS_ENABLED(CONFIG_PREEMPT_RCU) && num_online_cpus() == 1;
	struct spin_job j = {
		.spin = watchdog_test_spin_rcu_reader, .p = &p, .want_gp = first,
	};

	need_short_thresholds(t);
	WRITE_ONCE(kick_in_reader, !first);
	run_spin(t, &j);
	KTEST_ASSERT_TRUE(t, reported(&p));
	if (IS_ENABLED(CONFIG_PREEMPT_RCU)) {
		expect_log(t, &p, "rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:");
		expect_log_counted(t, &p, "Tasks blocked on level-0 rcu_node (CPUs 0-%d):",
				   NR_CPUS - 1);
		expect_log_counted(t, &p, " P%d(%s)", j.pid, j.comm);
	} else {
		expect_log(t, &p, "rcu: INFO: rcu_sched ");
		expect_log_counted(t, &p, "watchdog_test_spin_rcu_reader+0x");
	}
	expect_one_report(t, &p);
	wait_cb(t);
}

struct hp_job {
	struct completion done;
	unsigned int cpu;
	bool online;
};

static int hp_job_fn(void *arg)
{
	struct hp_job *h = arg;

	if (h->online)
		lockup_detector_online_cpu(h->cpu);
	else
		lockup_detector_offline_cpu(h->cpu);
	complete(&h->done);
	return 0;
}

/* CPUHP_AP_WATCHDOG_ONLINE's callbacks run on the CPU itself: so here. */
static void hp_callback(struct ktest *t, unsigned int cpu, bool online)
{
	struct hp_job h = { .cpu = cpu, .online = online };
	struct task_struct *k;

	init_completion(&h.done);
	k = kthread_create(hp_job_fn, &h, "wd_hp");
	KTEST_ASSERT_TRUE(t, k != NULL);
	kthread_bind(k, cpu);
	wake_up_process(k);
	wait_for_completion(&h.done);
	msleep(10);
}

/*
 * The hotplug callbacks without hotplug: CPU 0, the HPET's NMI leader,
 * leaves the detectors; CPU 1 must still be caught with IRQs off (the
 * NMI now comes to it directly), and CPU 0 may spin unreported.  Then
 * CPU 0 comes back for the cases after this one.
 */
static void detector_cpu_offline(struct ktest *t)
{
	struct planted p;
	struct spin_job hard = { .spin = watchdog_test_spin_irqs_off, .p = &p, .on_cpu = 2 };
	struct spin_job soft = { .spin = watchdog_test_spin_preempt_off, .p = &p, .on_cpu = 1 };

	need_short_thresholds(t);
	if (num_online_cpus() < 2)
		ktest_skip(t, "needs two CPUs");
	if (!(watchdog_enabled & NMI_WATCHDOG_ENABLED))
		ktest_skip(t, "hard lockup detector off");
	hp_callback(t, 0, false);
	run_spin(t, &hard);
	KTEST_EXPECT_TRUE(t, reported(&p));
	expect_log(t, &p, "Watchdog detected hard LOCKUP on cpu %d", 1);
	if (reported(&p))
		expect_one_report(t, &p);
	/* Long enough for a soft lockup, and for rcu not to mind (< 3 s). */
	watchdog_thresh_spin_ns = (u64)(2 * watchdog_thresh + 1) * NSEC_PER_SEC;
	run_spin(t, &soft);
	watchdog_thresh_spin_ns = 0;
	KTEST_EXPECT_FALSE(t, reported(&p));
	hp_callback(t, 0, true);
}

/*
 * Which NMI source the hard lockup detector takes: the PMU where
 * CPUID.0AH describes one with a spare counter that counts core cycles,
 * else the HPET.  The rule on made-up CPUID values, then on this
 * machine (TCG: no PMU, so the HPET, with the reason on the boot line).
 * The PMU path itself has not run on hardware.
 */
static void hardlockup_source_choice(struct ktest *t)
{
	/* perfmon v1, 2 GP counters 48 bits wide, 7 events described. */
	const u32 eax = 1 | 2 << 8 | 48 << 16 | 7 << 24;
	struct x86_pmu_caps c;
	char why[96];

	x86_pmu_decode(eax, 0, 0, &c);
	KTEST_EXPECT_TRUE(t, x86_pmu_hld_usable(&c, 1000, why, sizeof(why)));
	KTEST_EXPECT_FALSE(t, x86_pmu_hld_usable(&c, 0, why, sizeof(why)));
	KTEST_EXPECT_STREQ(t, why, "no cycle rate to derive a period from");
	x86_pmu_decode(eax & ~0xff, 0, 0, &c);
	KTEST_EXPECT_FALSE(t, x86_pmu_hld_usable(&c, 1000, why, sizeof(why)));
	KTEST_EXPECT_STREQ(t, why, "CPUID.0AH version 0");
	x86_pmu_decode((eax & ~0xff00) | 1 << 8, 0, 0, &c);
	KTEST_EXPECT_FALSE(t, x86_pmu_hld_usable(&c, 1000, why, sizeof(why)));
	KTEST_EXPECT_STREQ(t, why, "1 general-purpose counter, 2 needed (PMC0 is the profiler's)");
	x86_pmu_decode(eax, BIT(ARCH_PERFMON_EVENT_CYCLES_BIT), 0, &c);
	KTEST_EXPECT_FALSE(t, x86_pmu_hld_usable(&c, 1000, why, sizeof(why)));
	KTEST_EXPECT_STREQ(t, why, "CPUID.0AH.EBX marks core cycles unavailable");
	/* watchdog_thresh seconds of cycles at the TSC's rate. */
	KTEST_EXPECT_EQ(t, hw_nmi_get_sample_period(10), (u64)tsc_khz * 10000);

	/* This machine. */
	if (x86_pmu_hld_usable(x86_pmu_caps(), hw_nmi_get_sample_period(watchdog_thresh),
			       why, sizeof(why))) {
		ktest_info(t, "a PMU source is possible here: %s",
			   hardlockup_detector_source());
		if (watchdog_enabled & NMI_WATCHDOG_ENABLED)
			KTEST_EXPECT_STREQ(t, hardlockup_detector_source(), "perf");
		return;
	}
	if (!hardlockup_detector_pmu_reason()[0])
		ktest_skip(t, "no NMI source was probed (nmi_watchdog=1 needed)");
	KTEST_EXPECT_STREQ(t, hardlockup_detector_pmu_reason(), why);
	KTEST_EXPECT_TRUE(t, strcmp(hardlockup_detector_source(), "perf") != 0);
}

static struct ktest_case watchdog_cases[] = {
	KTEST_CASE(busy_preemptible_quiet),
	KTEST_CASE(detector_cpu_offline),
	KTEST_CASE(softlockup_reported),
	KTEST_CASE(hardlockup_reported),
	KTEST_CASE(rcu_stall_preempt_off),
	KTEST_CASE(rcu_stall_reader),
	KTEST_CASE(hardlockup_source_choice),
	{}
};

static struct ktest_suite watchdog_suite = { .name = "watchdog", .cases = watchdog_cases };
ktest_register_suite(watchdog_suite);
