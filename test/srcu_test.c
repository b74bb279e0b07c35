// SPDX-License-Identifier: GPL-2.0
/*
 * SRCU (kernel/rcu/srcu.c): a sleeping reader holds up synchronize_srcu()
 * until it unlocks; a reader that entered after the index flip does not;
 * call_srcu() callbacks run once each, in queue order, only after a grace
 * period; srcu_barrier() returns after every earlier callback ran; and
 * cleanup_srcu_struct() with a reader inside warns and leaves it alone.
 * Order is asserted with a sequence counter, never with times.
 */
#include <linux/ktest.h>
#include <linux/srcu.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/delay.h>
#include <linux/completion.h>
#include <linux/atomic.h>

DEFINE_STATIC_SRCU(srcu_test_srcu);

/* Events are numbered in the order they happen, across threads. */
static atomic_t srcu_test_seq;

static int srcu_test_next(void)
{
	return atomic_inc_return(&srcu_test_seq);
}

struct srcu_reader {
	struct srcu_struct *ssp;
	volatile bool locked, release;
	int idx;
	int unlock_seq;		/* just before srcu_read_unlock() */
	struct completion done;
};

/* Enter, sleep until released, leave. */
static int srcu_reader_fn(void *arg)
{
	struct srcu_reader *r = arg;

	r->idx = srcu_read_lock(r->ssp);
	WRITE_ONCE(r->locked, true);
	while (!READ_ONCE(r->release))
		msleep(1);
	r->unlock_seq = srcu_test_next();
	srcu_read_unlock(r->ssp, r->idx);
	complete(&r->done);
	return 0;
}

static void srcu_reader_start(struct ktest *t, struct srcu_reader *r, struct srcu_struct *ssp)
{
	struct task_struct *p;

	memset(r, 0, sizeof(*r));
	r->ssp = ssp;
	init_completion(&r->done);
	p = ktest_kthread(srcu_reader_fn, r, "srcu_reader", -1, SCHED_NORMAL, 0);
	KTEST_ASSERT_TRUE(t, p);
	wake_up_process(p);
	ktest_wait_flag(&r->locked);
}

struct srcu_syncer {
	struct srcu_struct *ssp;
	volatile bool done_flag;
	int done_seq;		/* just after synchronize_srcu() returned */
	struct completion done;
};

static int srcu_syncer_fn(void *arg)
{
	struct srcu_syncer *s = arg;

	synchronize_srcu(s->ssp);
	s->done_seq = srcu_test_next();
	WRITE_ONCE(s->done_flag, true);
	complete(&s->done);
	return 0;
}

static void srcu_syncer_start(struct ktest *t, struct srcu_syncer *s, struct srcu_struct *ssp)
{
	struct task_struct *p;

	memset(s, 0, sizeof(*s));
	s->ssp = ssp;
	init_completion(&s->done);
	p = ktest_kthread(srcu_syncer_fn, s, "srcu_sync", -1, SCHED_NORMAL, 0);
	KTEST_ASSERT_TRUE(t, p);
	wake_up_process(p);
}

/* Wait up to @ms for @flag; true if it was set. */
static bool srcu_wait_flag_ms(volatile bool *flag, unsigned int ms)
{
	for (unsigned int i = 0; i < ms && !READ_ONCE(*flag); i++)
		msleep(1);
	return READ_ONCE(*flag);
}

/* A reader asleep in its section holds synchronize_srcu() until it leaves. */
static void sleeping_reader_delays_gp(struct ktest *t)
{
	static struct srcu_reader r;
	static struct srcu_syncer s;
	unsigned long gp = srcu_batches_completed(&srcu_test_srcu);

	srcu_reader_start(t, &r, &srcu_test_srcu);
	srcu_syncer_start(t, &s, &srcu_test_srcu);
	msleep(30);
	KTEST_EXPECT_FALSE(t, READ_ONCE(s.done_flag));
	KTEST_EXPECT_EQ(t, srcu_batches_completed(&srcu_test_srcu), gp);
	WRITE_ONCE(r.release, true);
	wait_for_completion(&r.done);
	wait_for_completion(&s.done);
	KTEST_EXPECT_LT(t, r.unlock_seq, s.done_seq);
	KTEST_EXPECT_EQ(t, srcu_batches_completed(&srcu_test_srcu), gp + 1);
}

/*
 * A reader that entered after the grace period flipped the index uses the
 * other one and must not hold that grace period up: it ends while the
 * late reader is still inside.
 */
static void late_reader_does_not_delay_gp(struct ktest *t)
{
	static struct srcu_reader early, late;
	static struct srcu_syncer s;
	unsigned int idx0;

	srcu_reader_start(t, &early, &srcu_test_srcu);
	idx0 = READ_ONCE(srcu_test_srcu.srcu_idx);
	srcu_syncer_start(t, &s, &srcu_test_srcu);
	/* The flip happens once the other index is drained, at once here. */
	for (int i = 0; i < 2000 && READ_ONCE(srcu_test_srcu.srcu_idx) == idx0; i++)
		msleep(1);
	if (READ_ONCE(srcu_test_srcu.srcu_idx) == idx0) {
		KTEST_EXPECT_NE(t, READ_ONCE(srcu_test_srcu.srcu_idx), idx0);
		WRITE_ONCE(early.release, true);
		wait_for_completion(&early.done);
		wait_for_completion(&s.done);
		return;
	}
	srcu_reader_start(t, &late, &srcu_test_srcu);
	KTEST_EXPECT_NE(t, late.idx, early.idx);
	WRITE_ONCE(early.release, true);
	wait_for_completion(&early.done);
	KTEST_EXPECT_TRUE(t, srcu_wait_flag_ms(&s.done_flag, 2000));
	KTEST_EXPECT_FALSE(t, READ_ONCE(late.release));
	WRITE_ONCE(late.release, true);
	wait_for_completion(&late.done);
	wait_for_completion(&s.done);
}

/*
 * A synchronize_srcu() that arrives while a grace period is in progress
 * cannot share it: a reader that entered after that grace period flipped
 * the index (and so does not hold it up) still holds up the caller.
 */
static void gp_in_progress_is_not_shared(struct ktest *t)
{
	static struct srcu_reader early, late;
	static struct srcu_syncer a, b;
	unsigned int idx0;

	srcu_reader_start(t, &early, &srcu_test_srcu);
	idx0 = READ_ONCE(srcu_test_srcu.srcu_idx);
	srcu_syncer_start(t, &a, &srcu_test_srcu);
	for (int i = 0; i < 2000 && READ_ONCE(srcu_test_srcu.srcu_idx) == idx0; i++)
		msleep(1);
	srcu_reader_start(t, &late, &srcu_test_srcu);
	srcu_syncer_start(t, &b, &srcu_test_srcu);
	msleep(10);		/* b is waiting behind a's grace period */
	WRITE_ONCE(early.release, true);
	wait_for_completion(&early.done);
	wait_for_completion(&a.done);
	msleep(30);
	KTEST_EXPECT_FALSE(t, READ_ONCE(b.done_flag));
	WRITE_ONCE(late.release, true);
	wait_for_completion(&late.done);
	wait_for_completion(&b.done);
	KTEST_EXPECT_LT(t, late.unlock_seq, b.done_seq);
}

struct srcu_cb {
	struct rcu_head head;
	int id;
};

static int srcu_cb_order[8];
static int srcu_cb_runs[8];
static atomic_t srcu_cb_n;

static void srcu_test_cb(struct rcu_head *head)
{
	struct srcu_cb *c = container_of(head, struct srcu_cb, head);
	int n = atomic_inc_return(&srcu_cb_n) - 1;

	if (n < 8)
		srcu_cb_order[n] = c->id;
	srcu_cb_runs[c->id]++;
}

/* Callbacks wait for the reader, then run once each, oldest first. */
static void call_srcu_after_gp_in_order(struct ktest *t)
{
	static struct srcu_reader r;
	static struct srcu_cb cbs[4];

	memset(srcu_cb_order, 0xff, sizeof(srcu_cb_order));
	memset(srcu_cb_runs, 0, sizeof(srcu_cb_runs));
	atomic_set(&srcu_cb_n, 0);
	srcu_reader_start(t, &r, &srcu_test_srcu);
	for (int i = 0; i < 4; i++) {
		cbs[i].id = i;
		call_srcu(&srcu_test_srcu, &cbs[i].head, srcu_test_cb);
	}
	msleep(30);
	KTEST_EXPECT_EQ(t, atomic_read(&srcu_cb_n), 0);
	WRITE_ONCE(r.release, true);
	wait_for_completion(&r.done);
	srcu_barrier(&srcu_test_srcu);
	KTEST_EXPECT_EQ(t, atomic_read(&srcu_cb_n), 4);
	for (int i = 0; i < 4; i++) {
		KTEST_EXPECT_EQ(t, srcu_cb_order[i], i);
		KTEST_EXPECT_EQ(t, srcu_cb_runs[i], 1);
	}
	msleep(20);
	KTEST_EXPECT_EQ(t, atomic_read(&srcu_cb_n), 4);	/* none ran twice */
}

static int srcu_release_after_fn(void *arg)
{
	struct srcu_reader *r = arg;

	msleep(30);
	WRITE_ONCE(r->release, true);
	return 0;
}

/* srcu_barrier() returns only after the callback queued before it ran. */
static void srcu_barrier_waits(struct ktest *t)
{
	static struct srcu_reader r;
	static struct srcu_cb cb = { .id = 0 };
	struct task_struct *p;

	memset(srcu_cb_runs, 0, sizeof(srcu_cb_runs));
	atomic_set(&srcu_cb_n, 0);
	srcu_reader_start(t, &r, &srcu_test_srcu);
	call_srcu(&srcu_test_srcu, &cb.head, srcu_test_cb);
	p = ktest_kthread(srcu_release_after_fn, &r, "srcu_release", -1, SCHED_NORMAL, 0);
	KTEST_ASSERT_TRUE(t, p);
	wake_up_process(p);
	srcu_barrier(&srcu_test_srcu);
	KTEST_EXPECT_EQ(t, srcu_cb_runs[0], 1);
	KTEST_EXPECT_TRUE(t, READ_ONCE(r.release));
	wait_for_completion(&r.done);
}

/* A dynamic srcu_struct: cleanup with a reader inside warns and keeps it. */
static void cleanup_with_reader_warns(struct ktest *t)
{
	static struct srcu_struct ss;
	unsigned long warns;
	int idx;

	KTEST_ASSERT_EQ(t, init_srcu_struct(&ss), 0);
	idx = srcu_read_lock(&ss);
	warns = taint_warn_count;
	cleanup_srcu_struct(&ss);
	KTEST_EXPECT_WARNINGS(t, warns, 1);
	KTEST_EXPECT_TRUE(t, ss.sda);		/* leaked, not freed */
	srcu_read_unlock(&ss, idx);
	synchronize_srcu(&ss);
	warns = taint_warn_count;
	cleanup_srcu_struct(&ss);
	KTEST_EXPECT_WARNINGS(t, warns, 0);
	KTEST_EXPECT_FALSE(t, ss.sda);
}

static struct ktest_case srcu_cases[] = {
	KTEST_CASE(sleeping_reader_delays_gp),
	KTEST_CASE(late_reader_does_not_delay_gp),
	KTEST_CASE(gp_in_progress_is_not_shared),
	KTEST_CASE(call_srcu_after_gp_in_order),
	KTEST_CASE(srcu_barrier_waits),
	KTEST_CASE(cleanup_with_reader_warns),
	{}
};

static struct ktest_suite srcu_suite = {
	.name = "srcu", .cases = srcu_cases,
};
ktest_register_suite(srcu_suite);
