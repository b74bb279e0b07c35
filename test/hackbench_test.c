// SPDX-License-Identifier: GPL-2.0
/*
 * hackbench's engine (test/hackbench.c) on a small round: every message
 * arrives exactly once, in order and intact; every kmalloc'd message is
 * freed (the kmalloc cache's active objects come back, with
 * CONFIG_SLUB_DEBUG, which counts them); the threads switch.  The
 * checker is checked too (a message sent twice is caught), and so is the
 * kmalloc failure path (failslab on the senders only: messages dropped,
 * counted, nothing lost, nothing leaked).
 */
#include <linux/ktest.h>
#include <linux/slab.h>
#include <linux/gfp.h>
#include <linux/smp.h>
#include <linux/fault-inject.h>
#include <linux/record.h>
#include <linux/ktime.h>
#include <string.h>
#include "../mm/slab.h"
#include "slub_test.h"

#define HB_T_GROUPS	2
#define HB_T_FDS	4
#define HB_T_LOOPS	100
#define HB_T_MESSAGES	((u64)HB_T_GROUPS * HB_T_FDS * HB_T_FDS * HB_T_LOOPS)

/* Active objects of the kmalloc cache serving @size (-1: not counted). */
static long hb_t_active(int size)
{
	return slub_t_active(kmalloc_slab(size, GFP_KERNEL));
}

static void hb_t_round(struct ktest *t, struct hackbench_params *p,
		       struct hackbench_result *r)
{
	long before, after;
	int ret;

	before = hb_t_active(p->size);
	ret = hackbench(p, r);
	after = hb_t_active(p->size);
	KTEST_ASSERT_EQ(t, ret, 0);
	ktest_info(t, "%u threads, %llu messages, %llu us, %llu+%llu switches, %llu migrations (%s)",
		   r->threads, (unsigned long long)r->received,
		   (unsigned long long)(r->time_ns / 1000), (unsigned long long)r->nvcsw,
		   (unsigned long long)r->nivcsw, (unsigned long long)r->migrations,
		   ktest_clock_mode());
	KTEST_EXPECT_EQ(t, r->threads, 2 * p->groups * p->fds);
	KTEST_EXPECT_FALSE(t, r->aborted);
	/* Every thread exited and was freed (one reference each, no more). */
	KTEST_EXPECT_EQ(t, r->unreaped, 0);
	/* Nothing the round allocated is still allocated. */
	KTEST_EXPECT_EQ(t, after, before);
}

static void hb_t_expect_exact(struct ktest *t, const struct hackbench_result *r)
{
	KTEST_EXPECT_EQ(t, r->dropped, 0);
	KTEST_EXPECT_EQ(t, r->sent, HB_T_MESSAGES);
	KTEST_EXPECT_EQ(t, r->received, HB_T_MESSAGES);
	KTEST_EXPECT_EQ(t, r->errors, 0);
	KTEST_EXPECT_EQ(t, r->corrupt, 0);
	KTEST_EXPECT_EQ(t, r->leftover, 0);
	KTEST_EXPECT_GT(t, r->nvcsw + r->nivcsw, 0);
	KTEST_EXPECT_GT(t, r->time_ns, 0);
}

/* The default message size, threads placed by the scheduler. */
static void exactly_once(struct ktest *t)
{
	struct hackbench_params p = {
		.groups = HB_T_GROUPS, .fds = HB_T_FDS, .loops = HB_T_LOOPS, .size = 100,
	};
	struct hackbench_result r;

	hb_t_round(t, &p, &r);
	hb_t_expect_exact(t, &r);
}

/*
 * The seeds' kmalloc-4096 messages, threads pinned round robin: pinned
 * threads cannot migrate during the run.
 */
static void exactly_once_spread_4096(struct ktest *t)
{
	struct hackbench_params p = {
		.groups = HB_T_GROUPS, .fds = HB_T_FDS, .loops = HB_T_LOOPS, .size = 4096,
		.spread = true,
	};
	struct hackbench_result r;

	hb_t_round(t, &p, &r);
	hb_t_expect_exact(t, &r);
	KTEST_EXPECT_EQ(t, r.migrations, 0);
}

/* One message sent twice: the receivers' sequence check must see it. */
static void duplicate_is_caught(struct ktest *t)
{
	struct hackbench_params p = {
		.groups = 1, .fds = 2, .loops = 10, .size = 100, .duplicate_one = true,
	};
	struct hackbench_result r;

	hb_t_round(t, &p, &r);
	KTEST_EXPECT_EQ(t, r.sent, 2 * 2 * 10 + 1);
	KTEST_EXPECT_GT(t, r.errors, 0);
	/* The receiver stopped at its count: one message was left, and freed. */
	KTEST_EXPECT_EQ(t, r.received + r.leftover, r.sent);
	KTEST_EXPECT_EQ(t, r.leftover, 1);
}

#ifdef CONFIG_FAILSLAB
/*
 * failslab for the senders only (make_it_fail), 20% of their kmalloc()s:
 * the failures are dropped messages, the receivers still finish, and what
 * was sent arrived exactly once.
 */
static void kmalloc_failure_drops(struct ktest *t)
{
	struct fault_attr *a = &failslab.attr;
	struct hackbench_params p = {
		.groups = HB_T_GROUPS, .fds = HB_T_FDS, .loops = HB_T_LOOPS, .size = 100,
		.fail_senders = true,
	};
	bool reclaim = failslab.ignore_gfp_reclaim;
	struct ktest_fault_saved saved;
	long failures0 = atomic_long_read(&a->failures);
	struct hackbench_result r;

	failslab.ignore_gfp_reclaim = false;
	ktest_fault_arm(a, 20, true, &saved);

	hb_t_round(t, &p, &r);

	ktest_fault_restore(a, &saved);
	failslab.ignore_gfp_reclaim = reclaim;

	KTEST_EXPECT_GT(t, r.dropped, 0);
	KTEST_EXPECT_EQ(t, (long)r.dropped, atomic_long_read(&a->failures) - failures0);
	KTEST_EXPECT_EQ(t, r.sent + r.dropped, HB_T_MESSAGES);
	KTEST_EXPECT_EQ(t, r.received, r.sent);
	KTEST_EXPECT_EQ(t, r.errors, 0);
	KTEST_EXPECT_EQ(t, r.corrupt, 0);
	KTEST_EXPECT_EQ(t, r.leftover, 0);
}
#endif

/*
 * The summary over rounds: 1..5 s give mean 3 s, sample sd sqrt(2.5) s
 * (n - 1, as rteval), min 1 s, max 5 s; the line in hackbench's Time:
 * format and the record with exactly the fields tools/irqlab reads.
 */
static void rounds_summary(struct ktest *t)
{
	struct hackbench_rounds s = { 0 };
	struct hackbench_round_stats st;
	char line[160], json[RECORD_MAX_JSON + 1];
	int n;

	hackbench_rounds_stats(&s, &st);
	KTEST_EXPECT_EQ(t, st.n, 0);
	for (u64 i = 5; i >= 1; i--)
		hackbench_rounds_add(&s, i * NSEC_PER_SEC);
	hackbench_rounds_stats(&s, &st);
	KTEST_EXPECT_EQ(t, st.n, 5);
	KTEST_EXPECT_EQ(t, st.mean_ns, 3 * NSEC_PER_SEC);
	KTEST_EXPECT_EQ(t, st.sd_ns, 1581138830ULL);
	KTEST_EXPECT_EQ(t, st.min_ns, 1 * NSEC_PER_SEC);
	KTEST_EXPECT_EQ(t, st.max_ns, 5 * NSEC_PER_SEC);
	n = hackbench_format_summary(line, sizeof(line), json, sizeof(json), &st, "TCG");
	ktest_info(t, "%s", line);
	ktest_info(t, "%s", json);
	KTEST_EXPECT_STREQ(t, line, "hackbench: 5 round(s), Time: mean 3.000000 sd 1.581138 "
			   "min 1.000000 max 5.000000 (s, TCG)");
	KTEST_EXPECT_STREQ(t, json, "{\"type\":\"hackbench_summary\",\"n\":5,"
			   "\"mean_ns\":3000000000,\"sd_ns\":1581138830,"
			   "\"min_ns\":1000000000,\"max_ns\":5000000000,\"clock\":\"TCG\"}");
	KTEST_EXPECT_LT(t, n, RECORD_MAX_JSON + 1);
	/* One round: no spread. */
	memset(&s, 0, sizeof(s));
	hackbench_rounds_add(&s, 28 * NSEC_PER_MSEC);
	hackbench_rounds_stats(&s, &st);
	KTEST_EXPECT_EQ(t, st.n, 1);
	KTEST_EXPECT_EQ(t, st.sd_ns, 0);
	KTEST_EXPECT_EQ(t, st.mean_ns, 28 * NSEC_PER_MSEC);
}

static struct ktest_case hackbench_cases[] = {
	KTEST_CASE(rounds_summary),
	KTEST_CASE(exactly_once),
	KTEST_CASE(exactly_once_spread_4096),
	KTEST_CASE(duplicate_is_caught),
#ifdef CONFIG_FAILSLAB
	KTEST_CASE(kmalloc_failure_drops),
#endif
	{}
};

static struct ktest_suite hackbench_suite = {
	.name = "hackbench",
	.cases = hackbench_cases,
};
ktest_register_suite(hackbench_suite);
