// SPDX-License-Identifier: GPL-2.0
/*
 * rt_mutex and priority inheritance: a boosted owner beats the inversion,
 * boosting is transitive along chains of blocked owners and undone on
 * unlock, timeout and priority change, waiters are served by priority
 * (FIFO among equals), cycles and over-long chains give -EDEADLK.
 *
 * Scenarios are staged between kernel threads.  The test thread runs as
 * SCHED_FIFO 95 while it stages them so the actors cannot starve it, and
 * only waits for observable states (a task blocked on a lock, a flag).
 * Actor data is static: a failed expectation never leaves a thread
 * pointing into a dead stack frame.
 */
#include <linux/ktest.h>
#include <linux/rtmutex.h>
#include <linux/sched.h>
#include <linux/kthread.h>
#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/errno.h>
#include <linux/hrtimer.h>
#include <linux/smp.h>
#include <asm/processor.h>

#define FIFO_PRIO(rtprio)	(MAX_RT_PRIO - 1 - (rtprio))

/* Set when the test may use two distinct CPUs. */
static int stage_cpu(void)
{
	return num_online_cpus() > 1 ? 1 : 0;
}

/* Wait (bounded) until @p is queued on some rt_mutex. */
static bool wait_blocked(struct task_struct *p)
{
	for (int i = 0; i < 2000; i++) {
		if (READ_ONCE(p->pi_blocked_on))
			return true;
		msleep(1);
	}
	return false;
}

/* Wait (bounded) for a chain walk running in another task to land. */
static bool wait_prio(struct task_struct *p, int prio)
{
	for (int i = 0; i < 2000; i++) {
		if (READ_ONCE(p->prio) == prio)
			return true;
		msleep(1);
	}
	return false;
}

/* ------------------------------------------------------------ inversion */

struct inversion {
	struct rt_mutex lock;
	u64 hold_ns;		/* the owner's CPU time inside the lock */
	u64 hog_ns;		/* the medium task's busy time */
	volatile bool owner_holds, owner_done, hog_done, high_started, high_done;
	int owner_min_prio, owner_prio_after;
	u64 t_hog_end, t_high_block, t_high_got;
};

static struct inversion inv;

static int inv_owner_fn(void *data)
{
	u64 start;

	rt_mutex_lock(&inv.lock);
	smp_store_release(&inv.owner_holds, true);
	inv.owner_min_prio = current->prio;
	/*
	 * Hold on until high comes for the lock (the test thread polls our
	 * flag only once per jiffy), then burn CPU time, not wall time: with
	 * no boost we get none while med hogs the CPU.
	 */
	while (!READ_ONCE(inv.high_started))
		cpu_relax();
	/*
	 * Sample our priority at least once: a host stall under TCG can
	 * charge the whole hold to us between two runtime reads.
	 */
	start = task_sched_runtime(current);
	do {
		if (current->prio < inv.owner_min_prio)
			inv.owner_min_prio = current->prio;
		cpu_relax();
	} while (task_sched_runtime(current) - start < inv.hold_ns);
	rt_mutex_unlock(&inv.lock);
	inv.owner_prio_after = current->prio;
	smp_store_release(&inv.owner_done, true);
	return 0;
}

static int inv_hog_fn(void *data)
{
	u64 end = ktime_get_ns() + inv.hog_ns;

	while (ktime_get_ns() < end)
		cpu_relax();
	inv.t_hog_end = ktime_get_ns();
	smp_store_release(&inv.hog_done, true);
	return 0;
}

static int inv_high_fn(void *data)
{
	/* low cannot run between these two: we outrank it on its CPU. */
	WRITE_ONCE(inv.high_started, true);
	inv.t_high_block = ktime_get_ns();
	rt_mutex_lock(&inv.lock);
	inv.t_high_got = ktime_get_ns();
	rt_mutex_unlock(&inv.lock);
	smp_store_release(&inv.high_done, true);
	return 0;
}

/*
 * Low (FIFO 10) holds the lock, medium (FIFO 50) hogs their CPU, high
 * (FIFO 90) wants the lock.  Without inheritance high waits for the whole
 * hog; with it, low runs at 90, finishes its 2 ms and high gets the lock
 * long before the 200 ms hog ends.
 */
static void pi_bounds_inversion(struct ktest *t)
{
	struct task_struct *low, *med, *high;
	int cpu = stage_cpu();

	memset(&inv, 0, sizeof(inv));
	rt_mutex_init(&inv.lock);
	inv.hold_ns = 2 * NSEC_PER_MSEC;
	inv.hog_ns = 200 * NSEC_PER_MSEC;
	ktest_set_fifo(95);
	low = ktest_kthread(inv_owner_fn, NULL, "pi-low", cpu, SCHED_FIFO, 10);
	med = ktest_kthread(inv_hog_fn, NULL, "pi-med", cpu, SCHED_FIFO, 50);
	high = ktest_kthread(inv_high_fn, NULL, "pi-high", cpu, SCHED_FIFO, 90);
	KTEST_ASSERT_TRUE(t, low && med && high);
	wake_up_process(low);
	ktest_wait_flag(&inv.owner_holds);
	wake_up_process(med);		/* low is now starved... */
	wake_up_process(high);		/* ...unless high's boost reaches it */
	ktest_wait_flag(&inv.high_done);
	ktest_wait_flag(&inv.hog_done);
	ktest_wait_flag(&inv.owner_done);
	ktest_set_fifo(0);

	ktest_info(t, "high waited %lu us for the lock; the hog ran until +%lu us (%s)",
		   (inv.t_high_got - inv.t_high_block) / 1000,
		   (inv.t_hog_end - inv.t_high_block) / 1000, ktest_clock_mode());
	KTEST_EXPECT_LT(t, inv.t_high_got, inv.t_hog_end);
	KTEST_EXPECT_EQ(t, inv.owner_min_prio, FIFO_PRIO(90));
	KTEST_EXPECT_EQ(t, inv.owner_prio_after, FIFO_PRIO(10));
	KTEST_EXPECT_EQ(t, low->prio, FIFO_PRIO(10));
}

/* ---------------------------------------------------------------- chains */

#define NCHAIN 4

struct chain_actor {
	struct rt_mutex *hold, *want;	/* either may be NULL */
	unsigned int timeout_ms;	/* block on want with this timeout (0: none) */
	bool timeout_held;		/* ...or one that fires when the test says */
	struct hrtimer_sleeper sl;	/* that one, armed before ->holds is set */
	int ret;
	int prio_after;
	volatile bool holds, release, done;
	struct task_struct *task;
};

static struct rt_mutex chain_lock[NCHAIN];
static struct chain_actor chain[NCHAIN + 1];

static int chain_actor_fn(void *data)
{
	struct chain_actor *a = data;

	if (a->hold)
		rt_mutex_lock(a->hold);
	if (a->timeout_held) {
		/* A backstop only a test that never fires it reaches. */
		hrtimer_init_sleeper(&a->sl, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
		hrtimer_set_expires(&a->sl.timer, ktime_get() + 60 * NSEC_PER_SEC);
		hrtimer_sleeper_start_expires(&a->sl, HRTIMER_MODE_ABS);
	}
	smp_store_release(&a->holds, true);
	if (a->want) {
		if (a->timeout_held) {
			a->ret = rt_mutex_lock_sleeper(a->want, &a->sl);
			hrtimer_cancel(&a->sl.timer);
		} else if (a->timeout_ms) {
			a->ret = rt_mutex_lock_timeout(a->want,
						       a->timeout_ms * NSEC_PER_MSEC);
		} else {
			rt_mutex_lock(a->want);
			a->ret = 0;
		}
		if (!a->ret)
			rt_mutex_unlock(a->want);
	} else {
		ktest_wait_flag(&a->release);
	}
	if (a->hold)
		rt_mutex_unlock(a->hold);
	a->prio_after = current->prio;
	smp_store_release(&a->done, true);
	return 0;
}

static struct task_struct *chain_start(struct chain_actor *a, const char *name, int prio)
{
	a->task = ktest_kthread(chain_actor_fn, a, name, -1, SCHED_FIFO, prio);
	if (a->task) {
		wake_up_process(a->task);
		ktest_wait_flag(&a->holds);
	}
	return a->task;
}

static void chain_reset(void)
{
	memset(chain, 0, sizeof(chain));
	for (int i = 0; i < NCHAIN; i++)
		rt_mutex_init(&chain_lock[i]);
}

/*
 * T0 (FIFO 10) holds L0; T1 (20) holds L1 and waits for L0; T2 (30)
 * holds L2 and waits for L1; T3 (40) waits for L2.  Everyone down the
 * chain runs at 40 until T0 lets go; then each drops back to its own.
 */
static void pi_chain_boosts_transitively(struct ktest *t)
{
	static const char *const names[] = { "chain0", "chain1", "chain2", "chain3" };
	bool started = true;

	chain_reset();
	ktest_set_fifo(95);
	for (int i = 0; i < NCHAIN; i++) {
		chain[i].hold = i < NCHAIN - 1 ? &chain_lock[i] : NULL;
		chain[i].want = i ? &chain_lock[i - 1] : NULL;
		if (!chain_start(&chain[i], names[i], 10 * (i + 1))) {
			started = false;
			break;
		}
		if (i && !wait_blocked(chain[i].task))
			started = false;
	}
	KTEST_EXPECT_TRUE(t, started);
	KTEST_EXPECT_TRUE(t, started && wait_prio(chain[0].task, FIFO_PRIO(40)));
	for (int i = 0; started && i < NCHAIN; i++)
		KTEST_EXPECT_EQ(t, chain[i].task->prio, FIFO_PRIO(40));

	smp_store_release(&chain[0].release, true);
	wake_up_process(chain[0].task);
	for (int i = 0; started && i < NCHAIN; i++) {
		ktest_wait_flag(&chain[i].done);
		KTEST_EXPECT_EQ(t, chain[i].ret, 0);
		KTEST_EXPECT_EQ(t, chain[i].prio_after, FIFO_PRIO(10 * (i + 1)));
	}
	ktest_set_fifo(0);
}

/*
 * Start @a (FIFO @prio) waiting for @lock with a timeout that is ours to
 * fire: wait until @watch shows the boost of @a's blocking (its chain
 * walk has landed), then make the timeout expire now and wait for @a to
 * give up.  The timeout cannot come first, however the host schedules
 * the vCPUs, so no retry.  Returns whether the boost was seen; @a has
 * finished either way.
 */
static bool boost_then_timeout(struct chain_actor *a, struct rt_mutex *lock,
			       const char *name, int prio, struct task_struct *watch)
{
	bool boosted;

	memset(a, 0, sizeof(*a));
	a->want = lock;
	a->timeout_held = true;
	if (!chain_start(a, name, prio))
		return false;
	boosted = wait_prio(watch, FIFO_PRIO(prio));
	/* Not enqueued while we move it; then it expires at once. */
	hrtimer_cancel(&a->sl.timer);
	hrtimer_set_expires(&a->sl.timer, ktime_get());
	hrtimer_sleeper_start_expires(&a->sl, HRTIMER_MODE_ABS);
	ktest_wait_flag(&a->done);
	return boosted;
}

/*
 * A waiter that times out takes its boost with it, also from the owner
 * of the lock its lock's owner waits for (the de-boost walks the chain).
 */
static void pi_timeout_deboosts_chain(struct ktest *t)
{
	bool ok, boosted;

	chain_reset();
	ktest_set_fifo(95);
	chain[0].hold = &chain_lock[0];			/* T0 FIFO 10 holds L0 */
	chain[1].hold = &chain_lock[1];			/* T1 FIFO 20 holds L1, */
	chain[1].want = &chain_lock[0];			/*   waits for L0 */
	ok = chain_start(&chain[0], "tmo0", 10) && chain_start(&chain[1], "tmo1", 20) &&
	     wait_blocked(chain[1].task);
	/* T2 FIFO 60 waits for L1 with a timeout. */
	boosted = ok && boost_then_timeout(&chain[2], &chain_lock[1], "tmo2", 60,
					     chain[0].task);
	KTEST_EXPECT_TRUE(t, ok);
	KTEST_EXPECT_TRUE(t, boosted);
	if (ok && boosted) {
		KTEST_EXPECT_EQ(t, chain[2].ret, -ETIMEDOUT);
		/* Back to T1's 20 on T0: the timeout's walk reached it. */
		KTEST_EXPECT_EQ(t, chain[1].task->prio, FIFO_PRIO(20));
		KTEST_EXPECT_EQ(t, chain[0].task->prio, FIFO_PRIO(20));
	}
	smp_store_release(&chain[0].release, true);
	wake_up_process(chain[0].task);
	ktest_wait_flag(&chain[0].done);
	ktest_wait_flag(&chain[1].done);
	KTEST_EXPECT_EQ(t, chain[0].prio_after, FIFO_PRIO(10));
	ktest_set_fifo(0);
}

/*
 * The de-boost changes which waiter is on top half way down the chain.
 * T0 (FIFO 10) holds L0; T1 (15) holds L1 and waits for L0; T2 (20) holds
 * L2 and waits for L1, and so does T3 (30), holding nothing.  T4 (60)
 * waits for L2 with a timeout.  While T4 waits, T2's waiter is L1's top
 * and everybody from T2 down runs at 60; when T4 gives up, T2 drops to
 * 20, T3's waiter becomes L1's top, and the walk must carry T3's 30 on to
 * T0, not stop at T1 because the waiter it started with is no longer on
 * top.
 */
static void pi_timeout_deboost_hands_over_top(struct ktest *t)
{
	static const int prio[4] = { 10, 15, 20, 30 };
	static const int hold[4] = { 0, 1, 2, -1 }, want[4] = { -1, 0, 1, 1 };
	static const char *const names[4] = { "hand0", "hand1", "hand2", "hand3" };
	bool ok = true, boosted;

	chain_reset();
	ktest_set_fifo(95);
	for (int i = 0; ok && i < 4; i++) {
		chain[i].hold = hold[i] >= 0 ? &chain_lock[hold[i]] : NULL;
		chain[i].want = want[i] >= 0 ? &chain_lock[want[i]] : NULL;
		ok = chain_start(&chain[i], names[i], prio[i]) &&
		     (!chain[i].want || wait_blocked(chain[i].task));
	}
	ok = ok && wait_prio(chain[0].task, FIFO_PRIO(30));
	boosted = ok && boost_then_timeout(&chain[4], &chain_lock[2], "hand4", 60,
					     chain[0].task);
	KTEST_EXPECT_TRUE(t, ok);
	KTEST_EXPECT_TRUE(t, boosted);
	if (ok && boosted) {
		KTEST_EXPECT_EQ(t, chain[4].ret, -ETIMEDOUT);
		KTEST_EXPECT_EQ(t, chain[2].task->prio, FIFO_PRIO(20));
		KTEST_EXPECT_EQ(t, chain[1].task->prio, FIFO_PRIO(30));
		KTEST_EXPECT_EQ(t, chain[0].task->prio, FIFO_PRIO(30));
	}
	smp_store_release(&chain[0].release, true);
	wake_up_process(chain[0].task);
	for (int i = 0; i < 4; i++)
		if (chain[i].task)
			ktest_wait_flag(&chain[i].done);
	ktest_set_fifo(0);
}

/* A waiter's new priority reaches the owner; dropping it de-boosts. */
static void pi_setscheduler_propagates(struct ktest *t)
{
	struct sched_param sp = { .sched_priority = 70 };
	bool ok;

	chain_reset();
	ktest_set_fifo(95);
	chain[0].hold = &chain_lock[0];
	chain[1].want = &chain_lock[0];
	ok = chain_start(&chain[0], "setp0", 10) && chain_start(&chain[1], "setp1", 50) &&
	     wait_blocked(chain[1].task);
	KTEST_EXPECT_TRUE(t, ok);
	if (ok) {
		KTEST_EXPECT_TRUE(t, wait_prio(chain[0].task, FIFO_PRIO(50)));
		sched_setscheduler_nocheck(chain[1].task, SCHED_FIFO, &sp);
		KTEST_EXPECT_EQ(t, chain[0].task->prio, FIFO_PRIO(70));
		sp.sched_priority = 0;
		sched_setscheduler_nocheck(chain[1].task, SCHED_NORMAL, &sp);
		/* A normal waiter lends no RT priority. */
		KTEST_EXPECT_EQ(t, chain[0].task->prio, FIFO_PRIO(10));
	}
	smp_store_release(&chain[0].release, true);
	wake_up_process(chain[0].task);
	ktest_wait_flag(&chain[0].done);
	ktest_wait_flag(&chain[1].done);
	ktest_set_fifo(0);
}

/* ----------------------------------------------------- deadlock detection */

static void pi_deadlock_detected(struct ktest *t)
{
	unsigned long cycles = rt_mutex_stats.deadlocks;
	unsigned long limit = rt_mutex_stats.depth_limit;
	struct rt_mutex self;
	bool ok;

	/* Recursion on one lock. */
	rt_mutex_init(&self);
	rt_mutex_lock(&self);
	KTEST_EXPECT_EQ(t, rt_mutex_lock_detect(&self, 0), -EDEADLK);
	rt_mutex_unlock(&self);

	/*
	 * A three-lock cycle: T0 holds L0 and waits for L1, T1 holds L1 and
	 * waits for L2; we hold L2 and ask for L0 with detection.  The two
	 * others wait with timeouts so the cycle also unwinds on failure.
	 */
	chain_reset();
	ktest_set_fifo(95);
	rt_mutex_lock(&chain_lock[2]);
	chain[0].hold = &chain_lock[0];
	chain[0].want = &chain_lock[1];
	chain[1].hold = &chain_lock[1];
	chain[1].want = &chain_lock[2];
	chain[1].timeout_ms = 5000;
	ok = chain_start(&chain[1], "dl1", 20) && wait_blocked(chain[1].task) &&
	     chain_start(&chain[0], "dl0", 10) && wait_blocked(chain[0].task);
	KTEST_EXPECT_TRUE(t, ok);
	if (ok)
		KTEST_EXPECT_EQ(t, rt_mutex_lock_detect(&chain_lock[0], 0), -EDEADLK);
	/* Recognised as cycles, not by running into the depth limit. */
	KTEST_EXPECT_GE(t, rt_mutex_stats.deadlocks, cycles + 2);
	KTEST_EXPECT_EQ(t, rt_mutex_stats.depth_limit, limit);
	rt_mutex_unlock(&chain_lock[2]);
	ktest_wait_flag(&chain[1].done);
	ktest_wait_flag(&chain[0].done);
	ktest_set_fifo(0);
}

/*
 * A cycle found by a walk that changes no priority.  T1 (FIFO 20) holds
 * L1 and waits for L2, which we hold; T0 (30) holds L0 and waits for L1,
 * so T1 and we run at 30.  We drop our own priority to 5 and ask for L0
 * with detection: our waiter lends T0 nothing, so from the first link on
 * the walk only follows the owners (requeueing nothing) until it reaches
 * a lock we own.
 */
static void pi_deadlock_detected_without_boost(struct ktest *t)
{
	unsigned long cycles = rt_mutex_stats.deadlocks;
	int ret = -EINVAL;
	bool ok;

	chain_reset();
	ktest_set_fifo(95);
	rt_mutex_lock(&chain_lock[2]);
	chain[1].hold = &chain_lock[1];
	chain[1].want = &chain_lock[2];
	chain[1].timeout_ms = 5000;
	chain[0].hold = &chain_lock[0];
	chain[0].want = &chain_lock[1];
	ok = chain_start(&chain[1], "nb1", 20) && wait_blocked(chain[1].task) &&
	     chain_start(&chain[0], "nb0", 30) && wait_blocked(chain[0].task) &&
	     wait_prio(chain[1].task, FIFO_PRIO(30));
	KTEST_EXPECT_TRUE(t, ok);
	if (ok) {
		ktest_set_fifo(5);
		KTEST_EXPECT_EQ(t, current->prio, FIFO_PRIO(30));
		ret = rt_mutex_lock_detect(&chain_lock[0], 0);
		ktest_set_fifo(95);
		KTEST_EXPECT_EQ(t, ret, -EDEADLK);
		KTEST_EXPECT_EQ(t, rt_mutex_stats.deadlocks, cycles + 1);
	}
	if (!ret)
		rt_mutex_unlock(&chain_lock[0]);
	rt_mutex_unlock(&chain_lock[2]);
	for (int i = 0; i < 2; i++)
		if (chain[i].task)
			ktest_wait_flag(&chain[i].done);
	ktest_set_fifo(0);
}

/* A chain longer than rtmutex.max_lock_depth is refused as a deadlock. */
static void pi_chain_depth_limited(struct ktest *t)
{
	int saved = max_lock_depth;
	unsigned long hits = rt_mutex_stats.depth_limit;
	bool ok = true;

	chain_reset();
	ktest_set_fifo(95);
	/* T0 holds L0; Ti holds Li and waits for L(i-1), i = 1..3. */
	for (int i = 0; i < NCHAIN && ok; i++) {
		chain[i].hold = &chain_lock[i];
		chain[i].want = i ? &chain_lock[i - 1] : NULL;
		ok = chain_start(&chain[i], "depth", 10 + i) && (!i || wait_blocked(chain[i].task));
	}
	KTEST_EXPECT_TRUE(t, ok);
	max_lock_depth = 2;
	if (ok)
		KTEST_EXPECT_EQ(t, rt_mutex_lock_detect(&chain_lock[NCHAIN - 1], 0), -EDEADLK);
	max_lock_depth = saved;
	KTEST_EXPECT_GT(t, rt_mutex_stats.depth_limit, hits);
	/* Within the limit the same request just waits and succeeds. */
	smp_store_release(&chain[0].release, true);
	wake_up_process(chain[0].task);
	KTEST_EXPECT_EQ(t, rt_mutex_lock_detect(&chain_lock[NCHAIN - 1], 0), 0);
	rt_mutex_unlock(&chain_lock[NCHAIN - 1]);
	for (int i = 0; i < NCHAIN; i++)
		ktest_wait_flag(&chain[i].done);
	ktest_set_fifo(0);
}

/* ---------------------------------------------------------- waiter order */

struct order_waiter {
	int got;		/* position in the acquisition order */
	volatile bool done;
};

static struct rt_mutex order_lock;
static int order_seq;
static struct order_waiter ow[5];

static int order_fn(void *data)
{
	struct order_waiter *w = data;

	rt_mutex_lock(&order_lock);
	w->got = ++order_seq;
	rt_mutex_unlock(&order_lock);
	smp_store_release(&w->done, true);
	return 0;
}

/* Highest priority first, equal priorities in arrival order. */
static void pi_waiters_by_priority(struct ktest *t)
{
	static const int prios[5] = { 10, 30, 20, 30, 25 };
	static const int expect[5] = { 5, 1, 4, 2, 3 };
	struct task_struct *p;
	bool ok = true;

	memset(ow, 0, sizeof(ow));
	order_seq = 0;
	rt_mutex_init(&order_lock);
	ktest_set_fifo(95);
	rt_mutex_lock(&order_lock);
	for (int i = 0; i < 5; i++) {
		p = ktest_kthread(order_fn, &ow[i], "order", -1, SCHED_FIFO, prios[i]);
		if (!p) {
			ok = false;
			break;
		}
		wake_up_process(p);
		ok = ok && wait_blocked(p);
	}
	KTEST_EXPECT_TRUE(t, ok);
	KTEST_EXPECT_EQ(t, current->prio, FIFO_PRIO(95));	/* nobody above us */
	rt_mutex_unlock(&order_lock);
	for (int i = 0; i < 5; i++) {
		ktest_wait_flag(&ow[i].done);
		KTEST_EXPECT_EQ(t, ow[i].got, expect[i]);
	}
	ktest_set_fifo(0);
}

/* An owner running at normal priority inherits FIFO from its waiter. */
static void pi_boosts_normal_owner(struct ktest *t)
{
	bool ok;

	chain_reset();
	ktest_set_fifo(95);
	chain[0].hold = &chain_lock[0];
	chain[1].want = &chain_lock[0];
	chain[0].task = ktest_kthread(chain_actor_fn, &chain[0], "normal0", -1, SCHED_NORMAL, 0);
	ok = chain[0].task;
	if (ok) {
		wake_up_process(chain[0].task);
		ktest_wait_flag(&chain[0].holds);
		ok = chain_start(&chain[1], "fifo1", 33) && wait_blocked(chain[1].task);
	}
	KTEST_EXPECT_TRUE(t, ok);
	if (ok) {
		KTEST_EXPECT_TRUE(t, wait_prio(chain[0].task, FIFO_PRIO(33)));
		KTEST_EXPECT_TRUE(t, rt_task(chain[0].task));
	}
	smp_store_release(&chain[0].release, true);
	wake_up_process(chain[0].task);
	ktest_wait_flag(&chain[0].done);
	ktest_wait_flag(&chain[1].done);
	KTEST_EXPECT_EQ(t, chain[0].prio_after, DEFAULT_PRIO);
	ktest_set_fifo(0);
}

/* ---------------------------------------------------------- pi_stress */

/*
 * Repeated inversions on every CPU: none may stay unresolved (med spins
 * 50 ms at most, so a failure costs time but cannot hang the run).
 */
static void pi_stress_no_failures(struct ktest *t)
{
	struct pi_stress_result res;
	int groups = num_online_cpus();
	long ret;

	ktest_set_fifo(95);
	ret = pi_stress(groups, 300, 50, &res);
	ktest_set_fifo(0);
	pi_stress_report(&res);
	KTEST_EXPECT_EQ(t, ret, 0);
	KTEST_EXPECT_EQ(t, res.iterations, 300UL * groups);
	KTEST_EXPECT_EQ(t, res.failures, 0);
}

/* --------------------------------------------------------- benchmarks */

static void bench_rt_mutex_uncontended(struct ktest *t)
{
	struct rt_mutex m;
	const int n = 10000;
	u64 t0, t1;

	rt_mutex_init(&m);
	t0 = rdtsc_ordered();
	for (int i = 0; i < n; i++) {
		rt_mutex_lock(&m);
		rt_mutex_unlock(&m);
	}
	t1 = rdtsc_ordered();
	ktest_info(t, "bench_uncontended: rt_mutex: %lu cycles/op (%s)",
		   (t1 - t0) / n, ktest_clock_mode());
	KTEST_EXPECT_FALSE(t, rt_mutex_base_is_locked(&m.rtmutex));
}

static struct ktest_case rtmutex_cases[] = {
	KTEST_CASE(pi_bounds_inversion),
	KTEST_CASE(pi_chain_boosts_transitively),
	KTEST_CASE(pi_timeout_deboosts_chain),
	KTEST_CASE(pi_timeout_deboost_hands_over_top),
	KTEST_CASE(pi_setscheduler_propagates),
	KTEST_CASE(pi_deadlock_detected),
	KTEST_CASE(pi_deadlock_detected_without_boost),
	KTEST_CASE(pi_chain_depth_limited),
	KTEST_CASE(pi_waiters_by_priority),
	KTEST_CASE(pi_boosts_normal_owner),
	KTEST_CASE(pi_stress_no_failures),
	KTEST_CASE(bench_rt_mutex_uncontended),
	{}
};

static struct ktest_suite rtmutex_suite = {
	.name = "rtmutex",
	.cases = rtmutex_cases,
};
ktest_register_suite(rtmutex_suite);
