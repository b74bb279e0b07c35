// SPDX-License-Identifier: GPL-2.0
/*
 * The sampling profiler (kernel/events/profile.c) on constructed work: a
 * thread on every CPU spins in one noinline function while sampling runs,
 * so that function must be the top symbol with most of the samples (and
 * under icount on one CPU, the number of samples is the run's length
 * times the rate); a table of one entry per CPU drops samples and counts
 * them; and the printed profile has perf top's shape.
 *
 * The sources differ where interrupts are off: a function that spins
 * with IRQs disabled gets its share of the samples from the NMI source
 * and at most one per IRQ-off section (at the point IRQs come back on)
 * from the hrtimer.  With the HPET's NMI, every CPU samples (the leader
 * passes the NMI on), and every NMI taken is a sample or an echo.
 */
#include <linux/ktest.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/errno.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/profile.h>
#include <linux/sched.h>
#include <asm/hardirq.h>
#include <asm/hpet.h>
#include <asm/perf_event.h>
#include <asm/tsc.h>

#define PROFILE_TEST_HZ		1000
#define PROFILE_TEST_MS		100

static bool profile_exact(void)
{
	return num_online_cpus() == 1 && !strcmp(tsc_clock_mode(), "icount");
}

/* Work that stays inside the function: the clock is read once per 2000 rounds. */
static noinline void profile_test_spin(u64 end)
{
	while (ktime_get_ns() < end)
		for (volatile int i = 0; i < 2000; i++)
			;
}

static noinline void profile_test_spin_other(u64 end)
{
	while (ktime_get_ns() < end)
		for (volatile int i = 0; i < 2000; i++)
			;
}

struct profile_spinner {
	struct completion done;
	u64 end;
	bool two;		/* alternate between two functions */
};

static int profile_spinner_fn(void *arg)
{
	struct profile_spinner *s = arg;

	if (s->two) {
		while (ktime_get_ns() < s->end) {
			profile_test_spin(ktime_get_ns() + 100000);
			profile_test_spin_other(ktime_get_ns() + 100000);
		}
	} else {
		profile_test_spin(s->end);
	}
	/*
	 * Until this CPU has been sampled once (60 s more at most): under
	 * plain TCG the host may not run this vCPU until the others have
	 * spun their time, and then the spin ends as it starts.  Under
	 * icount the spin above always has its samples.
	 */
	while (!profile_cpu_samples(raw_smp_processor_id()) &&
	       ktime_get_ns() < s->end + 60 * NSEC_PER_SEC)
		profile_test_spin(ktime_get_ns() + 100000);
	complete(&s->done);
	return 0;
}

/* Spin on every online CPU for @ms while sampling at @hz into @entries; ns sampled. */
static u64 profile_spin_all_from(struct ktest *t, unsigned int hz, unsigned int entries,
				 unsigned int ms, bool two, int src)
{
	static struct profile_spinner s[NR_CPUS];
	u64 start;
	int cpu;

	/* src < 0: profile.source= decides. */
	KTEST_EXPECT_EQ(t, src < 0 ? profile_start(hz, entries) :
			   profile_start_source(hz, entries, src), 0);
	start = ktime_get_ns();
	for_each_online_cpu(cpu) {
		struct task_struct *p;

		init_completion(&s[cpu].done);
		s[cpu].end = start + (u64)ms * NSEC_PER_MSEC;
		s[cpu].two = two;
		p = ktest_kthread(profile_spinner_fn, &s[cpu], "spinner", cpu, SCHED_NORMAL, 0);
		if (!p) {
			complete(&s[cpu].done);
			KTEST_EXPECT_TRUE(t, p);
			continue;
		}
		wake_up_process(p);
	}
	for_each_online_cpu(cpu)
		wait_for_completion(&s[cpu].done);
	profile_stop();
	return ktime_get_ns() - start;
}

static u64 profile_spin_all(struct ktest *t, unsigned int hz, unsigned int entries,
			    unsigned int ms, bool two)
{
	return profile_spin_all_from(t, hz, entries, ms, two, -1);
}

static bool profile_have_nmi(void)
{
	return hpet_freq_hz || x86_pmu_available();
}

static u64 profile_nmis_taken(void)
{
	u64 n = 0;
	int cpu;

	for_each_online_cpu(cpu)
		n += per_cpu_ptr(&irq_stat, cpu)->__nmi_count;
	return n;
}

#define PROFILE_IRQOFF_SECTIONS	4
#define PROFILE_IRQOFF_MS	20

/* Read, not passed: a constant argument would make a .constprop copy. */
static volatile unsigned int profile_irqoff_ms = PROFILE_IRQOFF_MS;

/* IRQ-off sections, spinning in this function throughout. */
static noinline void profile_test_irqoff(void)
{
	for (int k = 0; k < PROFILE_IRQOFF_SECTIONS; k++) {
		u64 end;

		local_irq_disable();
		end = ktime_get_ns() + (u64)profile_irqoff_ms * NSEC_PER_MSEC;
		while (ktime_get_ns() < end)
			for (volatile int i = 0; i < 2000; i++)
				;
		local_irq_enable();
	}
}

/* Samples in profile_test_irqoff() from @src, with the run's totals. */
static u64 profile_irqoff_samples(struct ktest *t, enum profile_source src, u64 *total,
				  u64 *missed)
{
	u64 dropped, in;

	KTEST_EXPECT_EQ(t, profile_start_source(PROFILE_TEST_HZ, PROFILE_MAX_ENTRIES, src), 0);
	profile_test_irqoff();
	profile_stop();
	profile_totals(total, &dropped);
	*missed = profile_missed();
	in = profile_sym_count("profile_test_irqoff");
	ktest_info(t, "%s: %llu samples, %llu in profile_test_irqoff, %llu dropped, %llu missed",
		   profile_source_name(), (unsigned long long)*total, (unsigned long long)in,
		   (unsigned long long)dropped, (unsigned long long)*missed);
	KTEST_EXPECT_EQ(t, dropped, 0);
	profile_free();
	return in;
}

/*
 * perf's cpu-clock blind spot: IRQ-off time is invisible to the hrtimer
 * (its periods are missed, then one late sample lands where IRQs come
 * back on) but not to the NMI.  Checked under icount on one CPU only:
 * under TCG the host decides how many periods reach the leader (a
 * descheduled vCPU takes one NMI for hundreds of periods) and when the
 * spinner runs between its sections (preempted at an interrupt's return,
 * it can take a timer tick there).
 */
static void profile_irqoff_seen(struct ktest *t)
{
	const u64 want = PROFILE_IRQOFF_SECTIONS * PROFILE_IRQOFF_MS * PROFILE_TEST_HZ / 1000;
	u64 total, missed, in;

	if (!profile_have_nmi()) {
		ktest_skip(t, "no PMU and no HPET");
		return;
	}
	in = profile_irqoff_samples(t, PROFILE_SOURCE_NMI, &total, &missed);
	/* IRQs are off for all but a few instructions of the run. */
	if (profile_exact()) {
		KTEST_EXPECT_GE(t, in + PROFILE_IRQOFF_SECTIONS, want);
		KTEST_EXPECT_LE(t, total, want + 1);
	}

	in = profile_irqoff_samples(t, PROFILE_SOURCE_HRTIMER, &total, &missed);
	if (profile_exact()) {
		KTEST_EXPECT_LE(t, in, PROFILE_IRQOFF_SECTIONS);
		KTEST_EXPECT_GE(t, missed + PROFILE_IRQOFF_SECTIONS * 2, want);
	}
}

/* Every CPU samples from the HPET's NMI, and every NMI taken is accounted for. */
static void profile_nmi_every_cpu(struct ktest *t)
{
	u64 nmis = profile_nmis_taken(), total, dropped, echoes;
	int cpu;

	if (!profile_have_nmi()) {
		ktest_skip(t, "no PMU and no HPET");
		return;
	}
	profile_spin_all_from(t, PROFILE_TEST_HZ, PROFILE_MAX_ENTRIES, PROFILE_TEST_MS, false,
			      PROFILE_SOURCE_NMI);
	nmis = profile_nmis_taken() - nmis;
	profile_totals(&total, &dropped);
	echoes = profile_nmi_echoes();
	ktest_info(t, "%s: %llu NMIs, %llu samples, %llu dropped, %llu echoes, %llu missed",
		   profile_source_name(), (unsigned long long)nmis, (unsigned long long)total,
		   (unsigned long long)dropped, (unsigned long long)echoes,
		   (unsigned long long)profile_missed());
	for_each_online_cpu(cpu) {
		ktest_info(t, "CPU%d: %llu samples", cpu,
			   (unsigned long long)profile_cpu_samples(cpu));
		KTEST_EXPECT_GT(t, profile_cpu_samples(cpu), 0);
	}
	KTEST_EXPECT_EQ(t, dropped, 0);
	KTEST_EXPECT_EQ(t, total + echoes, nmis);
	KTEST_EXPECT_GT(t, profile_sym_count("profile_test_spin"), 0);
	profile_free();
}

/*
 * With the HPET source, profile_stop() waits for an NMI that took its
 * count but has not sampled yet, so the totals read after it stay put.
 * profile_nmi_delay_us holds another CPU inside that window (10 ms of a
 * 20 ms period) while this one, whose own NMIs are not held, watches for
 * it and stops the profiler.  The watch lasts a number of the other CPU's
 * NMIs, not a time: a host that deschedules a vCPU stretches the wait and
 * cannot end it early.
 */
#define PROFILE_STOP_WATCH_NMIS	20

static void profile_stop_waits_for_nmi(struct ktest *t)
{
	u64 total, dropped, seen, deadline;
	bool caught = false;
	int cpu;

	if (num_online_cpus() < 2 || !hpet_freq_hz) {
		ktest_skip(t, "needs two CPUs and the HPET");
		return;
	}
	KTEST_ASSERT_EQ(t, profile_start_source(50, PROFILE_MAX_ENTRIES, PROFILE_SOURCE_NMI), 0);
	if (strcmp(profile_source_name(), "nmi-hpet")) {
		profile_free();
		ktest_skip(t, "the NMI source is not the HPET");
		return;
	}
	preempt_disable();
	cpu = cpumask_first(cpu_online_mask);
	if (cpu == smp_processor_id())
		cpu = cpumask_next(cpu, cpu_online_mask);
	WRITE_ONCE(profile_nmi_delay_cpu, cpu);
	WRITE_ONCE(profile_nmi_delay_us, 10000);
	seen = profile_cpu_samples(cpu);
	/* A cap for NMIs that stop coming altogether, far beyond 20 periods. */
	deadline = ktime_get_ns() + 30 * NSEC_PER_SEC;
	while (!caught && profile_cpu_samples(cpu) - seen < PROFILE_STOP_WATCH_NMIS &&
	       ktime_get_ns() < deadline)
		caught = profile_nmi_busy(cpu);
	seen = profile_cpu_samples(cpu) - seen;
	preempt_enable();
	profile_stop();
	profile_totals(&total, &dropped);
	WRITE_ONCE(profile_nmi_delay_us, 0);
	WRITE_ONCE(profile_nmi_delay_cpu, -1);
	mdelay(20);	/* a sample the stop did not wait for lands now */
	ktest_info(t, "CPU%d caught in the NMI: %d after %llu of its NMIs; %llu samples, %llu kept, %llu dropped",
		   cpu, caught, (unsigned long long)seen, (unsigned long long)total,
		   (unsigned long long)profile_kept(), (unsigned long long)dropped);
	KTEST_EXPECT_TRUE(t, caught);
	KTEST_EXPECT_EQ(t, profile_kept() + dropped, total);
	profile_free();
}

/* profile.source=nmi with neither PMU nor HPET says so; auto falls back. */
static void profile_source_choice(struct ktest *t)
{
	u64 mark = ktest_log_mark();

	KTEST_EXPECT_EQ(t, profile_start_source(100, 16, 3), -EINVAL);
	KTEST_EXPECT_EQ(t, profile_start_source(100, 16, PROFILE_SOURCE_AUTO), 0);
	KTEST_EXPECT_STREQ(t, profile_source_name(),
			   x86_pmu_available() ? "nmi-pmu" : hpet_freq_hz ? "nmi-hpet" : "hrtimer");
	profile_free();
	KTEST_EXPECT_EQ(t, profile_start_source(100, 16, PROFILE_SOURCE_HRTIMER), 0);
	KTEST_EXPECT_STREQ(t, profile_source_name(), "hrtimer");
	profile_free();
	if (profile_have_nmi()) {
		KTEST_EXPECT_EQ(t, profile_start_source(100, 16, PROFILE_SOURCE_NMI), 0);
		profile_free();
		return;
	}
	KTEST_EXPECT_EQ(t, profile_start_source(100, 16, PROFILE_SOURCE_NMI), -ENODEV);
	KTEST_EXPECT_LOG(t, mark, "profile: profile.source=nmi: no NMI source: PMU: ");
	KTEST_EXPECT_LOG(t, mark, "; HPET: no HPET\n");
	KTEST_EXPECT_STREQ(t, profile_source_name(), "");
}

static void profile_top_symbol(struct ktest *t)
{
	u64 ns = profile_spin_all(t, PROFILE_TEST_HZ, PROFILE_MAX_ENTRIES, PROFILE_TEST_MS, false);
	u64 total, dropped, spin = profile_sym_count("profile_test_spin");
	u64 mark = ktest_log_mark();

	profile_totals(&total, &dropped);
	ktest_info(t, "%llu samples, %llu in profile_test_spin, %llu dropped, %llu ns",
		   (unsigned long long)total, (unsigned long long)spin,
		   (unsigned long long)dropped, (unsigned long long)ns);
	KTEST_EXPECT_EQ(t, dropped, 0);
	KTEST_EXPECT_EQ(t, profile_kept(), total);
	KTEST_EXPECT_GT(t, total, 0);
	KTEST_EXPECT_GT(t, spin * 2, total);	/* more than half */
	if (profile_exact()) {
		u64 want = ns * PROFILE_TEST_HZ / NSEC_PER_SEC;

		/* One timer, one CPU, an instruction clock: one sample per period. */
		KTEST_EXPECT_LE(t, total, want + 1);
		KTEST_EXPECT_GE(t, total + 1, want);
	}
	profile_print("ktest");
	KTEST_EXPECT_LOG(t, mark, " Samples: ");
	KTEST_EXPECT_LOG(t, mark, "%  [k] profile_test_spin\n");
	profile_totals(&total, &dropped);
	KTEST_EXPECT_EQ(t, total, 0);	/* printed, then freed */
}

static void profile_drops_counted(struct ktest *t)
{
	u64 total, dropped, kept;

	profile_spin_all(t, PROFILE_TEST_HZ, 1, PROFILE_TEST_MS / 2, true);
	profile_totals(&total, &dropped);
	kept = profile_sym_count("profile_test_spin") + profile_sym_count("profile_test_spin_other");
	ktest_info(t, "%llu samples, %llu dropped, %llu kept in the spinners",
		   (unsigned long long)total, (unsigned long long)dropped,
		   (unsigned long long)kept);
	KTEST_EXPECT_GT(t, dropped, 0);
	/* What was not dropped is in the tables: no sample is lost either way. */
	KTEST_EXPECT_EQ(t, profile_kept() + dropped, total);
	KTEST_EXPECT_LE(t, kept, total - dropped);
	KTEST_EXPECT_GT(t, total, dropped);
	profile_free();
}

static void profile_bad_args(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, profile_start(0, 16), -EINVAL);
	KTEST_EXPECT_EQ(t, profile_start(100, 0), -EINVAL);
	KTEST_EXPECT_EQ(t, profile_start(100, PROFILE_MAX_ENTRIES + 1), -EINVAL);
	KTEST_EXPECT_EQ(t, profile_start(100, 16), 0);
	KTEST_EXPECT_EQ(t, profile_start(100, 16), -EBUSY);
	profile_free();
}

static struct ktest_case profile_cases[] = {
	KTEST_CASE(profile_top_symbol),
	KTEST_CASE(profile_drops_counted),
	KTEST_CASE(profile_bad_args),
	KTEST_CASE(profile_irqoff_seen),
	KTEST_CASE(profile_nmi_every_cpu),
	KTEST_CASE(profile_stop_waits_for_nmi),
	KTEST_CASE(profile_source_choice),
	{}
};

static struct ktest_suite profile_suite = { .name = "profile", .cases = profile_cases };
ktest_register_suite(profile_suite);
