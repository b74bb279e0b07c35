// SPDX-License-Identifier: GPL-2.0
/*
 * ptsema's engine (test/ptsema.c): every round is one unlock by the
 * sender and one lock by the receiver, so both counts equal the loops;
 * the receiver really blocked each round (it was a queued waiter when
 * the sender let go, and the rt_mutex slow path was taken at least once
 * per round), so each sample is a wakeup; min <= avg <= max; pinned
 * pairs run where they were put.
 */
#include <linux/ktest.h>
#include <linux/smp.h>
#include <linux/rtmutex.h>
#include "ptsema.h"

#define PTS_T_LOOPS	100

static void pts_t_round(struct ktest *t, unsigned int pairs, bool spread)
{
	struct ptsema_params p = {
		.pairs = pairs,
		.loops = PTS_T_LOOPS,
		.interval_us = 200,
		.distance_us = 100,
		.prio = 90,
		.spread = spread,
	};
	unsigned long slow0 = rt_mutex_stats.slowlock;
	struct ptsema_result *r;

	r = ptsema_measure(&p);
	KTEST_ASSERT_TRUE(t, r != NULL);
	for (unsigned int i = 0; i < pairs; i++) {
		const struct ptsema_pair *pp = &r->pairs[i];

		ktest_info(t, "pair %u: %llu/%llu/%llu ns (min/avg/max), CPUs %d/%d (%s)", i,
			   (unsigned long long)pp->min_ns, (unsigned long long)ptsema_avg_ns(pp),
			   (unsigned long long)pp->max_ns, pp->recv_cpu, pp->send_cpu,
			   ktest_clock_mode());
		KTEST_EXPECT_FALSE(t, pp->failed);
		KTEST_EXPECT_EQ(t, pp->cycles, PTS_T_LOOPS);
		KTEST_EXPECT_EQ(t, pp->samples, PTS_T_LOOPS);
		KTEST_EXPECT_EQ(t, pp->late, 0);
		KTEST_EXPECT_LE(t, pp->min_ns, ptsema_avg_ns(pp));
		KTEST_EXPECT_LE(t, ptsema_avg_ns(pp), pp->max_ns);
		KTEST_EXPECT_LE(t, pp->cur_ns, pp->max_ns);
		KTEST_EXPECT_GE(t, pp->cur_ns, pp->min_ns);
		/* A wakeup and a switch cannot take no time at all. */
		KTEST_EXPECT_GT(t, pp->min_ns, 0);
		KTEST_EXPECT_EQ(t, pp->prio, 90 - (int)i);
		KTEST_EXPECT_EQ(t, pp->interval_us, 200 + 100 * i);
		if (spread) {
			KTEST_EXPECT_EQ(t, pp->recv_cpu, (int)(i % num_online_cpus()));
			KTEST_EXPECT_EQ(t, pp->send_cpu, (int)(i % num_online_cpus()));
		}
	}
	/* Each round the receiver blocked: the slow path at least once. */
	KTEST_EXPECT_GE(t, rt_mutex_stats.slowlock - slow0, (unsigned long)pairs * PTS_T_LOOPS);
	ptsema_free(r);
}

static void ptsema_one_pair(struct ktest *t)
{
	pts_t_round(t, 1, false);
}

static void ptsema_pairs_spread(struct ktest *t)
{
	pts_t_round(t, 2 * num_online_cpus(), true);
}

static struct ktest_case ptsema_cases[] = {
	KTEST_CASE(ptsema_one_pair),
	KTEST_CASE(ptsema_pairs_spread),
	{}
};

static struct ktest_suite ptsema_suite = {
	.name = "ptsema",
	.cases = ptsema_cases,
};
ktest_register_suite(ptsema_suite);
