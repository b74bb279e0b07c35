// SPDX-License-Identifier: GPL-2.0
/*
 * hwlat's engine (test/hwlat.c): a busy stretch of known length put
 * inside one window (a test hook, with interrupts off like the rest of
 * the window) is found as an inner or an outer gap of at least that
 * length, in that window only; and under icount, where nothing can take
 * time from the CPU behind the kernel's back, a window without one finds
 * no gap at all.
 */
#include <linux/ktest.h>
#include <linux/smp.h>
#include <linux/cpumask.h>
#include <linux/ktime.h>
#include "hwlat.h"

#define HWLAT_T_WIDTH_NS	(5 * NSEC_PER_MSEC)
#define HWLAT_T_INJECT_NS	(200 * NSEC_PER_USEC)
#define HWLAT_T_THRESH_NS	(10 * NSEC_PER_USEC)

static struct hwlat_result *hwlat_t_run(struct ktest *t, unsigned int windows, u64 inject_ns,
					bool outer)
{
	struct hwlat_params p = {
		.width_ns = HWLAT_T_WIDTH_NS,
		.window_ns = HWLAT_T_WIDTH_NS + NSEC_PER_MSEC,
		.threshold_ns = HWLAT_T_THRESH_NS,
		.windows = windows,
		.inject_ns = inject_ns,
		.inject_window = windows - 1,
		.inject_outer = outer,
	};
	struct hwlat_result *r;

	cpumask_copy(&p.cpus, cpu_online_mask);
	r = hwlat_measure(&p);
	KTEST_ASSERT_TRUE(t, r != NULL);
	if (r->failed) {
		hwlat_free(r);
		KTEST_ASSERT_TRUE(t, !"the sampling thread started");
	}
	KTEST_EXPECT_EQ(t, r->nr_samples, windows);
	for (unsigned int w = 0; w < r->nr_samples; w++) {
		const struct hwlat_sample *s = &r->samples[w];

		/* Round robin over the online CPUs, interrupts off for the width. */
		KTEST_EXPECT_EQ(t, s->cpu, (int)(w % num_online_cpus()));
		/* In cycles, then back to ns: two roundings down (seen: 4999999). */
		KTEST_EXPECT_GE(t, s->width_ns + 2, HWLAT_T_WIDTH_NS);
		KTEST_EXPECT_GT(t, s->iterations, 0);
		ktest_info(t, "window %u CPU %d: inner %llu ns, outer %llu ns, %u gap(s), "
			   "%llu iterations (%s)", w, s->cpu, (unsigned long long)s->inner_ns,
			   (unsigned long long)s->outer_ns, s->count,
			   (unsigned long long)s->iterations, ktest_clock_mode());
	}
	return r;
}

/* The injected window finds it; the total and the maximum follow. */
static void hwlat_t_expect_injected(struct ktest *t, const struct hwlat_result *r,
				    bool outer)
{
	const struct hwlat_sample *s = &r->samples[r->nr_samples - 1];
	u64 gap = outer ? s->outer_ns : s->inner_ns;

	KTEST_EXPECT_GE(t, s->count, 1);
	KTEST_EXPECT_GE(t, gap, HWLAT_T_INJECT_NS);
	KTEST_EXPECT_GE(t, r->exceeding, 1);
	KTEST_EXPECT_GE(t, r->max_ns, gap);
	/* icount: the stretch and the two TSC reads around it, nothing else. */
	if (ktest_exact_time) {
		KTEST_EXPECT_LE(t, gap, HWLAT_T_INJECT_NS + HWLAT_T_THRESH_NS);
		KTEST_EXPECT_EQ(t, s->count, 1);
		KTEST_EXPECT_EQ(t, r->exceeding, 1);
		KTEST_EXPECT_EQ(t, r->max_ns, gap);
	}
}

static void hwlat_inner_gap_found(struct ktest *t)
{
	struct hwlat_result *r = hwlat_t_run(t, num_online_cpus(), HWLAT_T_INJECT_NS, false);

	hwlat_t_expect_injected(t, r, false);
	hwlat_free(r);
}

static void hwlat_outer_gap_found(struct ktest *t)
{
	struct hwlat_result *r = hwlat_t_run(t, 1, HWLAT_T_INJECT_NS, true);

	/* The window goes on until the stretch is in and measured (hwlat.c). */
	KTEST_EXPECT_TRUE(t, r->samples[r->nr_samples - 1].injected);
	hwlat_t_expect_injected(t, r, true);
	hwlat_free(r);
}

/* Nothing injected: under icount nothing can make a gap, so none is reported. */
static void hwlat_quiet_reports_none(struct ktest *t)
{
	struct hwlat_result *r;

	if (!ktest_exact_time)
		ktest_skip(t, "only icount is free of host noise (clock: %s)", ktest_clock_mode());
	r = hwlat_t_run(t, 2 * num_online_cpus(), 0, false);
	KTEST_EXPECT_EQ(t, r->exceeding, 0);
	KTEST_EXPECT_EQ(t, r->max_ns, 0);
	for (unsigned int w = 0; w < r->nr_samples; w++) {
		KTEST_EXPECT_EQ(t, r->samples[w].count, 0);
		KTEST_EXPECT_LT(t, r->samples[w].inner_ns, HWLAT_T_THRESH_NS);
		KTEST_EXPECT_LT(t, r->samples[w].outer_ns, HWLAT_T_THRESH_NS);
	}
	hwlat_free(r);
}

static struct ktest_case hwlat_cases[] = {
	KTEST_CASE(hwlat_inner_gap_found),
	KTEST_CASE(hwlat_outer_gap_found),
	KTEST_CASE(hwlat_quiet_reports_none),
	{}
};

static struct ktest_suite hwlat_suite = {
	.name = "hwlat",
	.cases = hwlat_cases,
};
ktest_register_suite(hwlat_suite);
