// SPDX-License-Identifier: GPL-2.0
/*
 * spinlock_t semantics by preemption model.  On !PREEMPT_RT the holder
 * cannot be preempted (and spin_lock_irqsave() turns interrupts off), so
 * a higher-priority task of the holder's CPU only runs after the unlock.
 * On PREEMPT_RT the holder stays preemptible with interrupts on and
 * migration off; a contended waiter blocks, boosting the holder, keeps
 * its own task state across the wait, and normal-priority waiters may
 * steal the lock laterally while RT ones never do.
 */
#include <linux/ktest.h>
#include <linux/spinlock.h>
#include <linux/rtmutex.h>
#include <linux/sched.h>
#include <linux/kthread.h>
#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/smp.h>
#include <asm/processor.h>

#define FIFO_PRIO(rtprio)	(MAX_RT_PRIO - 1 - (rtprio))

static DEFINE_SPINLOCK(test_lock);

static int other_cpu(void)
{
	return num_online_cpus() > 1 ? 1 : -1;
}

/* ------------------------------------------------- holder vs. a waiter */

struct holder_probe {
	u64 hold_ns;
	bool until_release;	/* hold until told (hold_ns is then the bound) */
	volatile bool release;
	bool irqs_off, migrate_off;
	int preempt_cnt, min_prio;
	u64 t_unlock;
	volatile bool holds, done;
};

struct waiter_probe {
	u64 t_start, t_got;
	unsigned long slept;
	unsigned int state_after;
	volatile bool done;
};

static struct holder_probe hp;
static struct waiter_probe wp;

/*
 * On RT the waiter of our CPU preempts us, blocks and boosts us; keep the
 * lock (up to 2 s more) until it has come, so a host stall under TCG that
 * eats the whole hold cannot end it before the boost was seen.  On !RT
 * the waiter cannot run before the unlock, so never wait for it there.
 */
static bool holder_awaits_waiter(u64 end)
{
	if (!IS_ENABLED(CONFIG_PREEMPT_RT) || hp.until_release)
		return false;
	return !READ_ONCE(wp.t_start) && ktime_get_ns() < end + 2 * NSEC_PER_SEC;
}

static int holder_fn(void *data)
{
	unsigned long flags;
	u64 end;

	spin_lock_irqsave(&test_lock, flags);
	hp.irqs_off = irqs_disabled();
	hp.preempt_cnt = preempt_count();
	hp.migrate_off = is_migration_disabled(current);
	hp.min_prio = current->prio;
	smp_store_release(&hp.holds, true);
	end = ktime_get_ns() + hp.hold_ns;
	for (;;) {
		if (current->prio < hp.min_prio)
			hp.min_prio = current->prio;
		if (hp.until_release && READ_ONCE(hp.release))
			break;
		if (ktime_get_ns() >= end && !holder_awaits_waiter(end))
			break;
		cpu_relax();
	}
	hp.t_unlock = ktime_get_ns();
	spin_unlock_irqrestore(&test_lock, flags);
	smp_store_release(&hp.done, true);
	return 0;
}

static int waiter_fn(void *data)
{
	unsigned long nvcsw = current->nvcsw;

	wp.t_start = ktime_get_ns();
	spin_lock(&test_lock);
	wp.t_got = ktime_get_ns();
	spin_unlock(&test_lock);
	wp.slept = current->nvcsw - nvcsw;
	smp_store_release(&wp.done, true);
	return 0;
}

/*
 * A normal task holds test_lock (irqsave) for 50 ms on CPU 1; a FIFO 50
 * task of that CPU is woken meanwhile and wants the lock.
 */
static void holder_preemptible_only_on_rt(struct ktest *t)
{
	struct task_struct *h, *w;
	int cpu = other_cpu();

	if (cpu < 0)
		ktest_skip(t, "needs 2 CPUs");
	memset(&hp, 0, sizeof(hp));
	memset(&wp, 0, sizeof(wp));
	/* Long against the test thread's jiffy polling of the flags. */
	hp.hold_ns = 50 * NSEC_PER_MSEC;
	ktest_set_fifo(95);
	h = ktest_kthread(holder_fn, NULL, "holder", cpu, SCHED_NORMAL, 0);
	w = ktest_kthread(waiter_fn, NULL, "waiter", cpu, SCHED_FIFO, 50);
	KTEST_ASSERT_TRUE(t, h && w);
	wake_up_process(h);
	ktest_wait_flag(&hp.holds);
	wake_up_process(w);
	ktest_wait_flag(&hp.done);
	ktest_wait_flag(&wp.done);
	ktest_set_fifo(0);

	KTEST_EXPECT_GE(t, wp.t_got, hp.t_unlock);
#ifdef CONFIG_PREEMPT_RT
	KTEST_EXPECT_FALSE(t, hp.irqs_off);
	KTEST_EXPECT_EQ(t, hp.preempt_cnt, 0);
	KTEST_EXPECT_TRUE(t, hp.migrate_off);
	/* The waiter ran while the lock was held, slept, and boosted it. */
	KTEST_EXPECT_LT(t, wp.t_start, hp.t_unlock);
	KTEST_EXPECT_GE(t, wp.slept, 1);
	KTEST_EXPECT_EQ(t, hp.min_prio, FIFO_PRIO(50));
#else
	KTEST_EXPECT_TRUE(t, hp.irqs_off);
	KTEST_EXPECT_GE(t, hp.preempt_cnt, 1);
	/* Nothing else ran on the holder's CPU until it let go. */
	KTEST_EXPECT_GE(t, wp.t_start, hp.t_unlock);
	KTEST_EXPECT_EQ(t, hp.min_prio, DEFAULT_PRIO);
#endif
}

#ifdef CONFIG_PREEMPT_RT
/* ------------------------------------------------ task state (RT only) */

static int state_waiter_fn(void *data)
{
	set_current_state(TASK_UNINTERRUPTIBLE);
	spin_lock(&test_lock);
	wp.state_after = READ_ONCE(current->__state);
	wp.t_got = ktime_get_ns();
	spin_unlock(&test_lock);
	__set_current_state(TASK_RUNNING);
	smp_store_release(&wp.done, true);
	return 0;
}

static bool wait_state(struct task_struct *p, unsigned int state)
{
	for (int i = 0; i < 2000; i++) {
		if (READ_ONCE(p->__state) == state)
			return true;
		msleep(1);
	}
	return false;
}

/*
 * The waiter sets TASK_UNINTERRUPTIBLE, then blocks on the rtlock.  It
 * waits in TASK_RTLOCK_WAIT and gets its own state back with the lock,
 * unless a regular wakeup arrived meanwhile: that one is kept (the task
 * resumes as TASK_RUNNING) but does not end the lock wait.
 */
static void rtlock_preserves_task_state(struct ktest *t)
{
	for (int wake = 0; wake < 2; wake++) {
		struct task_struct *h, *w;
		int ret = 0;

		memset(&hp, 0, sizeof(hp));
		memset(&wp, 0, sizeof(wp));
		/* Held until we have seen the waiter block (2 s at most). */
		hp.hold_ns = 2 * NSEC_PER_SEC;
		hp.until_release = true;
		ktest_set_fifo(95);
		/* Same CPU, waiter above holder: the waiter sleeps, never spins. */
		h = ktest_kthread(holder_fn, NULL, "holder", 0, SCHED_NORMAL, 0);
		w = ktest_kthread(state_waiter_fn, NULL, "stwaiter", 0, SCHED_FIFO, 50);
		KTEST_ASSERT_TRUE(t, h && w);
		wake_up_process(h);
		ktest_wait_flag(&hp.holds);
		wake_up_process(w);
		KTEST_EXPECT_TRUE(t, wait_state(w, TASK_RTLOCK_WAIT));
		if (wake)
			ret = wake_up_process(w);
		WRITE_ONCE(hp.release, true);
		ktest_wait_flag(&wp.done);
		ktest_wait_flag(&hp.done);
		ktest_set_fifo(0);

		KTEST_EXPECT_GE(t, wp.t_got, hp.t_unlock);
		if (wake) {
			KTEST_EXPECT_EQ(t, ret, 1);
			KTEST_EXPECT_EQ(t, wp.state_after, TASK_RUNNING);
		} else {
			KTEST_EXPECT_EQ(t, wp.state_after, TASK_UNINTERRUPTIBLE);
		}
	}
}

/* ------------------------------------------------- contention (RT only) */

struct hammer {
	int iters;
	volatile bool done;
};

static unsigned long hammer_counter;
static struct hammer hammers[4];

static int hammer_fn(void *data)
{
	struct hammer *h = data;

	for (int i = 0; i < h->iters; i++) {
		spin_lock(&test_lock);
		hammer_counter = READ_ONCE(hammer_counter) + 1;
		for (int j = 0; j < 50; j++)
			cpu_relax();
		spin_unlock(&test_lock);
	}
	smp_store_release(&h->done, true);
	return 0;
}

static void run_hammers(struct ktest *t, int policy, int iters)
{
	bool ok = true;

	hammer_counter = 0;
	memset(hammers, 0, sizeof(hammers));
	for (int i = 0; i < 4; i++) {
		struct task_struct *p;

		hammers[i].iters = iters;
		p = ktest_kthread(hammer_fn, &hammers[i], "hammer", i % num_online_cpus(),
				  policy, policy == SCHED_NORMAL ? 0 : 20);
		if (!p) {
			ok = false;
			hammers[i].done = true;
			continue;
		}
		wake_up_process(p);
	}
	for (int i = 0; i < 4; i++)
		ktest_wait_flag(&hammers[i].done);
	KTEST_EXPECT_TRUE(t, ok);
	KTEST_EXPECT_EQ(t, hammer_counter, 4UL * iters);
}

/*
 * Normal tasks hammering one spinlock_t from both CPUs: exclusion holds,
 * some acquisitions are lateral steals and waiters spin on a running
 * owner instead of sleeping.  The same load from SCHED_FIFO tasks of equal priority
 * never steals laterally.
 */
static void rtlock_steals_and_spins(struct ktest *t)
{
	unsigned long steals, spins;

	if (other_cpu() < 0)
		ktest_skip(t, "needs 2 CPUs");
	steals = rt_mutex_stats.lateral_steals;
	spins = rt_mutex_stats.spin_on_owner;
	run_hammers(t, SCHED_NORMAL, 3000);
	/*
	 * A waiter that spun until the owner let go often loses the lock
	 * again to that owner's next lateral steal: count the spins that
	 * saw the release, not only those that then won the lock.
	 */
	ktest_info(t, "normal: %lu lateral steals, %lu spins saw the owner release",
		   rt_mutex_stats.lateral_steals - steals,
		   rt_mutex_stats.spin_on_owner - spins);
	KTEST_EXPECT_GT(t, rt_mutex_stats.lateral_steals, steals);
	KTEST_EXPECT_GT(t, rt_mutex_stats.spin_on_owner, spins);

	/*
	 * Fewer rounds: without steals every handoff is a wakeup, often
	 * across CPUs (an IPI), which is slow under TCG.
	 */
	ktest_set_fifo(95);
	steals = rt_mutex_stats.lateral_steals;
	run_hammers(t, SCHED_FIFO, 300);
	ktest_set_fifo(0);
	ktest_info(t, "FIFO: %lu lateral steals", rt_mutex_stats.lateral_steals - steals);
	KTEST_EXPECT_EQ(t, rt_mutex_stats.lateral_steals, steals);
}
#endif /* CONFIG_PREEMPT_RT */

/* --------------------------------------------------------- benchmarks */

static void bench_spinlock_uncontended(struct ktest *t)
{
	const int n = 10000;
	unsigned long flags;
	u64 t0, t1, t2;

	t0 = rdtsc_ordered();
	for (int i = 0; i < n; i++) {
		spin_lock(&test_lock);
		spin_unlock(&test_lock);
	}
	t1 = rdtsc_ordered();
	for (int i = 0; i < n; i++) {
		spin_lock_irqsave(&test_lock, flags);
		spin_unlock_irqrestore(&test_lock, flags);
	}
	t2 = rdtsc_ordered();
	ktest_info(t, "bench_uncontended: spin_lock: %lu cycles/op (%s, %s)",
		   (t1 - t0) / n, IS_ENABLED(CONFIG_PREEMPT_RT) ? "rtlock" : "spinning",
		   ktest_clock_mode());
	ktest_info(t, "bench_uncontended: spin_lock_irqsave: %lu cycles/op (%s, %s)",
		   (t2 - t1) / n, IS_ENABLED(CONFIG_PREEMPT_RT) ? "rtlock" : "spinning",
		   ktest_clock_mode());
	KTEST_EXPECT_FALSE(t, spin_is_locked(&test_lock));
}

static struct ktest_case rtlock_cases[] = {
	KTEST_CASE(holder_preemptible_only_on_rt),
#ifdef CONFIG_PREEMPT_RT
	KTEST_CASE(rtlock_preserves_task_state),
	KTEST_CASE(rtlock_steals_and_spins),
#endif
	KTEST_CASE(bench_spinlock_uncontended),
	{}
};

static struct ktest_suite rtlock_suite = {
	.name = "rtlock",
	.cases = rtlock_cases,
};
ktest_register_suite(rtlock_suite);
