// SPDX-License-Identifier: GPL-2.0
/*
 * The sampling profiler (kernel/events/profile.c) on constructed work: a
 * thread on every CPU spins in one noinline function while sampling runs,
 * so that function must be the top symbol with most of the samples (and
 * under icount on one CPU, the number of samples is the run's length
 * times the rate); a table of one entry per CPU drops samples and counts
 * them; and the printed profile has perf top's shape.
 */
#include <linux/ktest.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/errno.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/profile.h>
#include <linux/sched.h>
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
	complete(&s->done);
	return 0;
}

/* Spin on every online CPU for @ms while sampling at @hz into @entries; ns sampled. */
static u64 profile_spin_all(struct ktest *t, unsigned int hz, unsigned int entries,
			    unsigned int ms, bool two)
{
	static struct profile_spinner s[NR_CPUS];
	u64 start;
	int cpu;

	KTEST_EXPECT_EQ(t, profile_start(hz, entries), 0);
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
	{}
};

static struct ktest_suite profile_suite = { .name = "profile", .cases = profile_cases };
ktest_register_suite(profile_suite);
