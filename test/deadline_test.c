// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_DEADLINE (kernel/sched/deadline.c): EDF order, throttling of a
 * task that overruns its runtime while its neighbour keeps its deadlines,
 * admission control, deadline over RT, migrate_disable against push,
 * deadline inheritance through rt_mutex, parameter checks, and the
 * cyclicdl measurement core.  Timing bounds are asserted only with
 * ktest.exact_time=1 (icount); elsewhere orderings and states.
 */
#include <linux/ktest.h>
#include <linux/sched.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/delay.h>
#include <linux/smp.h>
#include <linux/rtmutex.h>
#include <linux/jiffies.h>
#include <linux/trace_irqsoff.h>
#include <string.h>
#include "../kernel/sched/sched.h"
#include "../kernel/sched/cpudeadline.h"
#include "cyclic.h"

#define MS	NSEC_PER_MSEC

static int set_dl_flags(struct task_struct *p, u64 runtime, u64 deadline, u64 period,
			u64 flags)
{
	struct sched_attr attr = {
		.size = sizeof(attr),
		.sched_policy = SCHED_DEADLINE,
		.sched_flags = flags,
		.sched_runtime = runtime,
		.sched_deadline = deadline,
		.sched_period = period,
	};

	return sched_setattr_nocheck(p, &attr);
}

static int set_dl(struct task_struct *p, u64 runtime, u64 deadline, u64 period)
{
	return set_dl_flags(p, runtime, deadline, period, 0);
}

static int set_normal(struct task_struct *p)
{
	struct sched_attr attr = { .size = sizeof(attr), .sched_policy = SCHED_NORMAL };

	return sched_setattr_nocheck(p, &attr);
}

static int other_cpu(void)
{
	return num_online_cpus() > 1 ? 1 : 0;
}

static int nop_fn(void *data)
{
	return 0;
}

/* Wait (up to a second or so) for threads that ran to be gone. */
static bool wait_gone(struct task_struct *p)
{
	for (int ms = 0; ms < 1000; ms++) {
		if (ktest_thread_gone(p))
			return true;
		msleep(1);
	}
	return false;
}

/* ---------------------------------------------------------------- EDF order */

static int order_log[4];
static int order_len;
static u64 order_dl[4];		/* each task's deadline when it ran */

static int order_fn(void *data)
{
	long id = (long)data;

	order_dl[id] = current->dl.deadline;
	order_log[__atomic_fetch_add(&order_len, 1, __ATOMIC_SEQ_CST)] = id;
	return 0;
}

/*
 * Wake three deadline tasks together on CPU 0; false if one of them was
 * throttled before it ran (its deadline moved on), which under TCG a
 * host stall charged to its runtime can do, and which rightly lets a
 * later deadline go first.
 */
static bool edf_order_round(struct ktest *t, const u64 *rel, u64 *woken_dl)
{
	struct task_struct *p[3];

	order_len = 0;
	/* ktest runs on CPU 0: local wakeups, all three queued before any runs. */
	for (int i = 0; i < 3; i++) {
		p[i] = ktest_kthread(order_fn, (void *)(long)(i + 1), "edf", 0, SCHED_NORMAL, 0);
		if (!p[i] || set_dl(p[i], rel[i] / 10, rel[i], rel[i])) {
			KTEST_EXPECT_TRUE(t, false);
			return true;
		}
		KTEST_EXPECT_EQ(t, p[i]->prio, -1);
		KTEST_EXPECT_TRUE(t, p[i]->sched_class == &dl_sched_class);
	}
	preempt_disable();
	for (int i = 0; i < 3; i++)
		wake_up_process(p[i]);
	for (int i = 0; i < 3; i++)
		woken_dl[i + 1] = p[i]->dl.deadline;
	preempt_enable();
	for (int i = 0; i < 1000 && READ_ONCE(order_len) < 3; i++)
		msleep(1);
	for (int id = 1; id <= 3; id++)
		if (READ_ONCE(order_len) == 3 && order_dl[id] != woken_dl[id])
			return false;
	return true;
}

/* Of deadline tasks woken together, the earliest absolute deadline runs first. */
static void edf_order(struct ktest *t)
{
	/*
	 * Far apart: a host stall between two wakeups must not reorder them.
	 * Budgets of a tenth (0.55 of a CPU in all): a task is throttled
	 * before it ran only by a host stall of over 100 ms charged to it
	 * (30 ms budgets were, at load 6).
	 */
	static const u64 rel[3] = { 3000 * MS, 1000 * MS, 2000 * MS };
	u64 woken_dl[4];
	int round = 0;

	while (!edf_order_round(t, rel, woken_dl) && ++round < 3)
		ktest_info(t, "a task was throttled before it ran (host stall): again");
	KTEST_ASSERT_EQ(t, order_len, 3);
	KTEST_EXPECT_EQ(t, order_log[0], 2);	/* 1 s */
	KTEST_EXPECT_EQ(t, order_log[1], 3);	/* 2 s */
	KTEST_EXPECT_EQ(t, order_log[2], 1);	/* 3 s */
}

/* ---------------------------------------------------------------- throttling */

struct overrun {
	u64 until;		/* each stops by itself: a broken class starves the test */
	unsigned int want_jobs;	/* neighbour: stop after this many (0: by time only) */
	volatile bool *stop;	/* hog: stop when this is set (the neighbour's done) */
	volatile bool done;
	u64 runtime;		/* CPU time used in the window */
	unsigned int instances;	/* distinct deadlines seen: replenishments */
	unsigned int jobs, misses;
};

/* Spins without end: its budget, not its own restraint, limits it. */
static int hog_dl_fn(void *data)
{
	struct overrun *o = data;
	u64 start = task_sched_runtime(current), last_dl = 0;

	while (ktime_get_ns() < o->until && !(o->stop && READ_ONCE(*o->stop))) {
		u64 dl = READ_ONCE(current->dl.deadline);

		if (dl != last_dl) {
			last_dl = dl;
			o->instances++;
		}
		cond_resched();
	}
	o->runtime = task_sched_runtime(current) - start;
	smp_store_release(&o->done, true);
	return 0;
}

/* A job of 10 ms of CPU per period, ending each with yield(); checks its deadline. */
static int periodic_dl_fn(void *data)
{
	struct overrun *o = data;

	yield();	/* to the start of a period */
	while (ktime_get_ns() < o->until) {
		u64 work = task_sched_runtime(current) + 10 * MS;

		while (task_sched_runtime(current) < work)
			cond_resched();
		if (ktime_get_ns() > current->dl.deadline)
			o->misses++;
		o->jobs++;
		if (o->want_jobs && o->jobs >= o->want_jobs)
			break;
		yield();
	}
	smp_store_release(&o->done, true);
	return 0;
}

/*
 * A hog with 5 ms per 50 ms and a 10 ms deadline would, unthrottled,
 * keep the CPU from its neighbour (15 ms per 50 ms, deadline 40 ms,
 * using 10 ms a period).  Throttled, it gets its budget per period (plus
 * at most a tick: overruns are noticed at the tick, as in Linux without
 * HRTICK) and the neighbour meets every deadline.
 */
#define OVR_WINDOW	(300 * MS)
/*
 * Without exact time a host stall eats the window's periods (the guest
 * clock runs while the vCPU does not): the run then ends after the
 * neighbour's OVR_JOBS jobs instead, each of which needs a period of its
 * own, and OVR_CAP only bounds a broken class.
 */
#define OVR_JOBS	6
#define OVR_CAP		(10000 * MS)

static void overrun_throttled(struct ktest *t)
{
	struct overrun hog = { }, nb = { };
	struct task_struct *h, *n;
	int cpu = other_cpu();
	u64 bound;

	h = ktest_kthread(hog_dl_fn, &hog, "dl-hog", cpu, SCHED_NORMAL, 0);
	n = ktest_kthread(periodic_dl_fn, &nb, "dl-periodic", cpu, SCHED_NORMAL, 0);
	KTEST_ASSERT_TRUE(t, h && n);
	KTEST_ASSERT_EQ(t, set_dl(h, 5 * MS, 10 * MS, 50 * MS), 0);
	KTEST_ASSERT_EQ(t, set_dl(n, 15 * MS, 40 * MS, 50 * MS), 0);
	hog.until = nb.until = ktime_get_ns() + (ktest_exact_time ? OVR_WINDOW : OVR_CAP);
	if (!ktest_exact_time) {
		nb.want_jobs = OVR_JOBS;
		hog.stop = &nb.done;
	}
	wake_up_process(n);
	wake_up_process(h);
	ktest_wait_flag(&hog.done);
	ktest_wait_flag(&nb.done);
	bound = (OVR_WINDOW / (50 * MS) + 2) * 5 * MS + TICK_NSEC;
	ktest_info(t, "hog: %llu us of CPU in %u instances (bound %llu us); neighbour: "
		   "%u jobs, %u missed (%s)", (unsigned long long)(hog.runtime / 1000),
		   hog.instances, (unsigned long long)(bound / 1000), nb.jobs, nb.misses,
		   ktest_clock_mode());
	/*
	 * Never left running: the neighbour, whose deadlines are later,
	 * got its jobs.  Replenished period after period is checked under
	 * exact time only: a host stall charged to the hog is a deficit of
	 * that many periods' budgets, and CBS then rightly pushes its next
	 * replenishment past the neighbour's last job (seen: 156 ms of
	 * hog CPU in 2 instances at deadline-smp4, load 33).
	 */
	KTEST_EXPECT_GE(t, hog.instances, 1);
	if (!ktest_exact_time)
		KTEST_EXPECT_EQ(t, nb.jobs, OVR_JOBS);
	if (ktest_exact_time) {
		KTEST_EXPECT_LE(t, hog.runtime, bound);
		KTEST_EXPECT_GE(t, hog.instances, OVR_WINDOW / (50 * MS));
		KTEST_EXPECT_GE(t, nb.jobs, OVR_WINDOW / (50 * MS) - 1);
		KTEST_EXPECT_EQ(t, nb.misses, 0);
	}
}

/* ---------------------------------------------------------------- wakeup rule */

struct wakeup_rule {
	u64 d0, d1, d2;		/* absolute deadlines seen after each wakeup */
	s64 r1, r2;		/* and the runtimes */
	u64 wake2;		/* when the second wakeup happened */
	volatile bool done;
};

static void spin_cpu(u64 ns)
{
	u64 until = task_sched_runtime(current) + ns;

	while (task_sched_runtime(current) < until)
		cond_resched();
}

/*
 * 10 ms per 100 ms: runs 3 ms, sleeps a few ms (7 ms of runtime left
 * still fit before the deadline: it stays), runs 1 ms more, then sleeps
 * until 30 ms before that deadline (6 ms left in 30 ms is more than the
 * bandwidth: a fresh deadline, or with a constrained deadline the same
 * deadline and the runtime cut to the density times the time left).
 */
static int wakeup_rule_fn(void *data)
{
	struct wakeup_rule *w = data;
	u64 now;

	w->d0 = current->dl.deadline;
	spin_cpu(3 * MS);
	msleep(4);
	w->d1 = current->dl.deadline;
	w->r1 = current->dl.runtime;
	spin_cpu(1 * MS);
	now = ktime_get_ns();
	if (w->d1 > now + 30 * MS)
		msleep((w->d1 - now - 30 * MS) / MS);
	w->wake2 = ktime_get_ns();
	w->d2 = current->dl.deadline;
	w->r2 = current->dl.runtime;
	smp_store_release(&w->done, true);
	return 0;
}

static void run_wakeup_rule(struct ktest *t, struct wakeup_rule *w, u64 deadline)
{
	struct task_struct *p = ktest_kthread(wakeup_rule_fn, w, "dl-wakeup", other_cpu(),
					      SCHED_NORMAL, 0);

	KTEST_ASSERT_TRUE(t, p);
	KTEST_ASSERT_EQ(t, set_dl(p, 10 * MS, deadline, 100 * MS), 0);
	wake_up_process(p);
	ktest_wait_flag(&w->done);
}

/*
 * The CBS wakeup rule (update_dl_entity) and, constrained, the revised
 * one.  Which one applies depends on how long the sleeps took, so the
 * outcomes are checked under icount; elsewhere (a host stall can stretch
 * a sleep) only that deadlines never move back and budgets stay within
 * the parameters.
 */
static void cbs_wakeup_rule(struct ktest *t)
{
	struct wakeup_rule imp = { }, con = { };

	run_wakeup_rule(t, &imp, 100 * MS);
	run_wakeup_rule(t, &con, 60 * MS);
	ktest_info(t, "implicit: deadline kept %s, then %+lld ms at %lld ms before it",
		   imp.d1 == imp.d0 ? "yes" : "no", (long long)(imp.d2 - imp.d1) / MS,
		   (long long)(imp.d1 - imp.wake2) / MS);
	ktest_info(t, "constrained: runtime %lld us left, %lld us after the revised rule",
		   (long long)con.r1 / 1000, (long long)con.r2 / 1000);
	KTEST_EXPECT_GE(t, imp.d1, imp.d0);
	KTEST_EXPECT_GE(t, imp.d2, imp.d1);
	KTEST_EXPECT_GE(t, con.d2, con.d1);
	KTEST_EXPECT_LE(t, imp.r2, 10 * MS);
	KTEST_EXPECT_LE(t, con.r2, 10 * MS);
	if (!ktest_exact_time)
		return;
	KTEST_EXPECT_EQ(t, imp.d1, imp.d0);		/* fits: kept */
	KTEST_EXPECT_GT(t, imp.d2, imp.d1);		/* overflow: renewed */
	KTEST_EXPECT_GE(t, imp.d2, imp.wake2 + 100 * MS - 5 * MS);
	KTEST_EXPECT_GE(t, imp.r2, 9 * MS);		/* a full budget, barely used */
	KTEST_EXPECT_EQ(t, con.d1, con.d0);
	/* Revised rule: same deadline, runtime = density (1/6) x time left. */
	KTEST_EXPECT_EQ(t, con.d2, con.d1);
	KTEST_EXPECT_LT(t, con.r2, con.r1 - 1 * MS);
	KTEST_EXPECT_LE(t, con.r2, (s64)(con.d2 - con.wake2) / 6 + 100000);
}

/* ---------------------------------------------------------------- admission */

/*
 * Tasks of 60% each until the next would exceed 95% of the online CPUs:
 * that one is refused with -EBUSY, and accepted once another leaves the
 * class, or exits.
 */
static void admission_control(struct ktest *t)
{
	u64 share = to_ratio(1000000000ULL, 950000000ULL) * num_online_cpus();
	u64 each = to_ratio(10 * MS, 6 * MS), base = dl_bw_total();
	unsigned int fit = (share - base) / each;
	struct task_struct *p[CONFIG_NR_CPUS * 2 + 2], *extra;
	u64 mark;

	KTEST_ASSERT_TRUE(t, fit + 1 <= ARRAY_SIZE(p));
	for (unsigned int i = 0; i <= fit; i++) {
		p[i] = ktest_kthread(nop_fn, NULL, "dl-bw", -1, SCHED_NORMAL, 0);
		KTEST_ASSERT_TRUE(t, p[i]);
	}
	extra = ktest_kthread(nop_fn, NULL, "dl-bw", -1, SCHED_NORMAL, 0);
	KTEST_ASSERT_TRUE(t, extra);
	for (unsigned int i = 0; i < fit; i++)
		KTEST_EXPECT_EQ(t, set_dl(p[i], 6 * MS, 10 * MS, 10 * MS), 0);
	KTEST_EXPECT_EQ(t, dl_bw_total(), base + fit * each);
	mark = ktest_log_mark();
	KTEST_EXPECT_EQ(t, set_dl(p[fit], 6 * MS, 10 * MS, 10 * MS), -EBUSY);
	KTEST_EXPECT_LOG(t, mark, "SCHED_DEADLINE bandwidth 60.000% does not fit");
	KTEST_EXPECT_LOG(t, mark, "(-EBUSY)");
	KTEST_EXPECT_FALSE(t, task_has_dl_policy(p[fit]));
	/* One leaves the class: its bandwidth is free again. */
	KTEST_EXPECT_EQ(t, set_normal(p[0]), 0);
	KTEST_EXPECT_EQ(t, set_dl(p[fit], 6 * MS, 10 * MS, 10 * MS), 0);
	/* Full again; one exits: its bandwidth is freed with it. */
	KTEST_EXPECT_EQ(t, set_dl(extra, 6 * MS, 10 * MS, 10 * MS), -EBUSY);
	wake_up_process(p[fit]);
	KTEST_EXPECT_TRUE(t, wait_gone(p[fit]));
	KTEST_EXPECT_EQ(t, dl_bw_total(), base + (fit - 1) * each);
	KTEST_EXPECT_EQ(t, set_dl(extra, 6 * MS, 10 * MS, 10 * MS), 0);
	for (unsigned int i = 0; i < fit; i++)
		wake_up_process(p[i]);
	wake_up_process(extra);
	for (unsigned int i = 0; i < fit; i++)
		KTEST_EXPECT_TRUE(t, wait_gone(p[i]));
	KTEST_EXPECT_TRUE(t, wait_gone(extra));
	KTEST_EXPECT_EQ(t, dl_bw_total(), base);
}

/* ---------------------------------------------------------------- over RT */

struct over_rt {
	struct task_struct *dl;
	volatile bool dl_ran, rt_done;
	bool rt_saw_dl, dl_saw_rt_running;
};

static int over_rt_dl_fn(void *data)
{
	struct over_rt *o = data;

	o->dl_saw_rt_running = !READ_ONCE(o->rt_done);
	smp_store_release(&o->dl_ran, true);
	return 0;
}

/* FIFO 99 wakes a deadline task on its CPU and spins: the deadline task runs first. */
static int over_rt_rt_fn(void *data)
{
	struct over_rt *o = data;
	u64 t0 = ktime_get_ns();

	wake_up_process(o->dl);
	while (!smp_load_acquire(&o->dl_ran) && ktime_get_ns() - t0 < 200 * MS)
		cond_resched();	/* a preemption point for the non-preemptible models */
	o->rt_saw_dl = smp_load_acquire(&o->dl_ran);
	smp_store_release(&o->rt_done, true);
	return 0;
}

static void dl_preempts_rt(struct ktest *t)
{
	struct over_rt o = { };
	struct task_struct *rt;
	int cpu = other_cpu();

	o.dl = ktest_kthread(over_rt_dl_fn, &o, "dl-over-rt", cpu, SCHED_NORMAL, 0);
	rt = ktest_kthread(over_rt_rt_fn, &o, "fifo99", cpu, SCHED_FIFO, 99);
	KTEST_ASSERT_TRUE(t, o.dl && rt);
	KTEST_ASSERT_EQ(t, set_dl(o.dl, 1 * MS, 100 * MS, 100 * MS), 0);
	wake_up_process(rt);
	ktest_wait_flag(&o.rt_done);
	KTEST_EXPECT_TRUE(t, o.rt_saw_dl);
	KTEST_EXPECT_TRUE(t, o.dl_saw_rt_running);
}

/* ---------------------------------------------------------------- migrate_disable */

struct pin_dl {
	struct task_struct *m;
	bool disable;
	int cpu;
	volatile bool started, release, done, e_done;
	bool e_saw_m_waiting;
	int m_cpu_at_e_end;
	bool moved_while_disabled;
};

static int pin_m_fn(void *data)
{
	struct pin_dl *s = data;

	/* Started on CPU 1, away from the test; free to go anywhere from here. */
	set_cpus_allowed_ptr(current, cpu_online_mask);
	if (s->disable)
		migrate_disable();
	s->cpu = smp_processor_id();
	smp_store_release(&s->started, true);
	while (!smp_load_acquire(&s->release)) {
		if (s->disable && smp_processor_id() != s->cpu)
			s->moved_while_disabled = true;
		cond_resched();
	}
	if (s->disable)
		migrate_enable();
	smp_store_release(&s->done, true);
	return 0;
}

/* An earlier deadline on M's CPU: M waits there, free to be pushed unless pinned. */
static int pin_e_fn(void *data)
{
	struct pin_dl *s = data;
	u64 t0 = ktime_get_ns();

	s->e_saw_m_waiting = task_cpu(s->m) == s->cpu && READ_ONCE(s->m->on_rq) &&
			     !READ_ONCE(s->m->on_cpu);
	/* Time for the push (or for nothing to happen). */
	while (ktime_get_ns() - t0 < 5 * MS)
		cpu_relax();
	s->m_cpu_at_e_end = task_cpu(s->m);
	smp_store_release(&s->e_done, true);
	return 0;
}

static void run_pin_dl(struct ktest *t, struct pin_dl *s)
{
	struct task_struct *e;

	s->m = ktest_kthread(pin_m_fn, s, "dl-pinned", -1, SCHED_NORMAL, 0);
	KTEST_ASSERT_TRUE(t, s->m);
	KTEST_ASSERT_EQ(t, set_cpus_allowed_ptr(s->m, cpumask_of(1)), 0);
	/* Budget enough to be still running when the earlier task comes. */
	KTEST_ASSERT_EQ(t, set_dl(s->m, 90 * MS, 100 * MS, 100 * MS), 0);
	wake_up_process(s->m);
	ktest_wait_flag(&s->started);
	e = ktest_kthread(pin_e_fn, s, "dl-early", s->cpu, SCHED_NORMAL, 0);
	KTEST_ASSERT_TRUE(t, e);
	KTEST_ASSERT_EQ(t, set_dl(e, 10 * MS, 20 * MS, 100 * MS), 0);
	wake_up_process(e);
	ktest_wait_flag(&s->e_done);
	smp_store_release(&s->release, true);
	ktest_wait_flag(&s->done);
}

/*
 * A deadline task preempted on its CPU by an earlier deadline is pushed
 * to a CPU without deadline work, unless it is migrate-disabled.
 */
static void migrate_disable_pins_dl(struct ktest *t)
{
	struct pin_dl pinned = { .disable = true }, free = { .disable = false };

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs");
	/* ktest runs on CPU 0 (init is bound there): M starts on CPU 1. */
	run_pin_dl(t, &pinned);
	KTEST_EXPECT_TRUE(t, pinned.e_saw_m_waiting);
	KTEST_EXPECT_EQ(t, pinned.m_cpu_at_e_end, pinned.cpu);
	KTEST_EXPECT_FALSE(t, pinned.moved_while_disabled);
	run_pin_dl(t, &free);
	KTEST_EXPECT_NE(t, free.m_cpu_at_e_end, free.cpu);	/* pushed away */
	ktest_info(t, "pinned stayed on CPU %d; unpinned went from CPU %d to %d",
		   pinned.cpu, free.cpu, free.m_cpu_at_e_end);
}

/* ---------------------------------------------------------------- cpudl */

static struct cpudl test_cpudl;

/* The heap against a plain array: same maximum, consistent back-indices. */
static bool cpudl_matches(struct ktest *t, const u64 *model, int step)
{
	int size = 0, want = -1;

	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		int idx = test_cpudl.elements[cpu].idx;

		if (!model[cpu]) {
			if (idx != IDX_INVALID || !cpumask_test_cpu(cpu, &test_cpudl.free_cpus))
				goto bad;
			continue;
		}
		size++;
		if (idx < 0 || idx >= test_cpudl.size || test_cpudl.elements[idx].cpu != cpu ||
		    test_cpudl.elements[idx].dl != model[cpu] ||
		    cpumask_test_cpu(cpu, &test_cpudl.free_cpus))
			goto bad;
		if (want < 0 || dl_time_before(model[want], model[cpu]))
			want = cpu;
	}
	/* Every parent's deadline is at least as late as its children's. */
	for (int i = 1; i < test_cpudl.size; i++)
		if (dl_time_before(test_cpudl.elements[(i - 1) / 2].dl, test_cpudl.elements[i].dl))
			goto bad;
	if (size == test_cpudl.size && cpudl_maximum(&test_cpudl) == want)
		return true;
bad:
	ktest_info(t, "cpudl differs from the model after step %d", step);
	return false;
}

static void cpudl_heap(struct ktest *t)
{
	u64 model[NR_CPUS] = { 0 };
	u32 seed = 12345;
	static struct task_struct me;

	cpudl_init(&test_cpudl);
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		cpudl_set_freecpu(&test_cpudl, cpu);
	KTEST_EXPECT_EQ(t, cpudl_maximum(&test_cpudl), -1);
	/* Random sets (new and moved) and clears against the model. */
	for (int step = 0; step < 2000; step++) {
		int cpu;

		seed = seed * 1103515245 + 12345;
		cpu = (seed >> 16) % NR_CPUS;
		if ((seed >> 8) % 4 == 0) {
			cpudl_clear(&test_cpudl, cpu);
			model[cpu] = 0;
		} else {
			model[cpu] = 1 + (seed >> 4) % 1000;
			cpudl_set(&test_cpudl, cpu, model[cpu]);
		}
		if (!cpudl_matches(t, model, step)) {
			KTEST_EXPECT_TRUE(t, false);
			return;
		}
	}
	/* cpudl_find(): a free CPU first, else the latest one if we preempt it. */
	cpudl_init(&test_cpudl);
	me.dl.deadline = 500;
	cpumask_clear(&me.cpus_mask);
	cpumask_set_cpu(0, &me.cpus_mask);
	cpumask_set_cpu(1, &me.cpus_mask);
	cpudl_set(&test_cpudl, 0, 300);
	cpudl_set(&test_cpudl, 1, 900);
	cpudl_set(&test_cpudl, 2, 2000);	/* latest, but not allowed */
	KTEST_EXPECT_EQ(t, cpudl_maximum(&test_cpudl), 2);
	KTEST_EXPECT_EQ(t, cpudl_find(&test_cpudl, &me, NULL), 0);
	cpudl_clear(&test_cpudl, 2);
	{
		struct cpumask later;

		cpumask_clear(&later);
		KTEST_EXPECT_EQ(t, cpudl_find(&test_cpudl, &me, &later), 1);
		KTEST_EXPECT_TRUE(t, cpumask_test_cpu(1, &later) && !cpumask_test_cpu(0, &later));
		me.dl.deadline = 950;			/* preempts neither */
		KTEST_EXPECT_EQ(t, cpudl_find(&test_cpudl, &me, NULL), 0);
		cpudl_clear(&test_cpudl, 0);		/* CPU 0 has no deadline work */
		KTEST_EXPECT_EQ(t, cpudl_find(&test_cpudl, &me, &later), 1);
		KTEST_EXPECT_TRUE(t, cpumask_test_cpu(0, &later) && !cpumask_test_cpu(1, &later));
	}
}

/* ----------------------------------------------------------------- pull */

struct pull_dl {
	u64 z_until;
	volatile bool y_ran, x_done;
	int y_cpu;
	bool x_running_at_y;
};

/* Z: CPU 0's deadline work, which ends and leaves CPU 0 to pull. */
static int pull_z_fn(void *data)
{
	struct pull_dl *s = data;

	while (ktime_get_ns() < s->z_until)
		cpu_relax();
	return 0;
}

/* X: runs on CPU 1, Y queued behind it, until Y has run somewhere. */
static int pull_x_fn(void *data)
{
	struct pull_dl *s = data;
	u64 guard = ktime_get_ns() + 2 * NSEC_PER_SEC;

	while (!READ_ONCE(s->y_ran) && ktime_get_ns() < guard)
		cpu_relax();
	WRITE_ONCE(s->x_done, true);
	return 0;
}

static int pull_y_fn(void *data)
{
	struct pull_dl *s = data;

	s->y_cpu = raw_smp_processor_id();
	s->x_running_at_y = !READ_ONCE(s->x_done);
	smp_store_release(&s->y_ran, true);
	return 0;
}

/*
 * Y waits on CPU 1 behind X, more urgent, pinned there; CPU 0 runs Z,
 * also more urgent than Y, so nothing can be pushed.  When Z ends, CPU 0
 * must pull Y from overloaded CPU 1 (pull_dl_task()) instead of idling
 * while X runs.
 */
static void pull_to_freed_cpu(struct ktest *t)
{
	static struct pull_dl s;
	struct task_struct *x, *y, *z;
	struct cpumask two;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs");
	memset(&s, 0, sizeof(s));
	z = ktest_kthread(pull_z_fn, &s, "pull-z", 0, SCHED_NORMAL, 0);
	x = ktest_kthread(pull_x_fn, &s, "pull-x", 1, SCHED_NORMAL, 0);
	y = ktest_kthread(pull_y_fn, &s, "pull-y", -1, SCHED_NORMAL, 0);
	KTEST_ASSERT_TRUE(t, x && y && z);
	/* Generous budgets: a host stall must not throttle X or Z. */
	KTEST_ASSERT_EQ(t, set_dl(z, 200 * MS, 450 * MS, 450 * MS), 0);
	KTEST_ASSERT_EQ(t, set_dl(x, 400 * MS, 500 * MS, 500 * MS), 0);
	KTEST_ASSERT_EQ(t, set_dl(y, 10 * MS, 1000 * MS, 1000 * MS), 0);
	/*
	 * Y wakes on CPU 1 and may run on CPUs 0 and 1 only.  Y sleeps, so
	 * the affinity change does not move it: it sets the CPU its wakeup
	 * starts from (wake_cpu), and the second change keeps that.
	 */
	cpumask_clear(&two);
	cpumask_set_cpu(1, &two);
	KTEST_ASSERT_EQ(t, set_cpus_allowed_ptr(y, &two), 0);
	cpumask_set_cpu(0, &two);
	KTEST_ASSERT_EQ(t, set_cpus_allowed_ptr(y, &two), 0);
	KTEST_EXPECT_EQ(t, y->wake_cpu, 1);
	s.z_until = ktime_get_ns() + 20 * MS;
	preempt_disable();
	wake_up_process(x);
	wake_up_process(z);
	wake_up_process(y);
	preempt_enable();
	KTEST_ASSERT_TRUE(t, wait_gone(z) && wait_gone(x) && wait_gone(y));
	KTEST_EXPECT_TRUE(t, s.y_ran);
	KTEST_EXPECT_EQ(t, s.y_cpu, 0);
	KTEST_EXPECT_TRUE(t, s.x_running_at_y);
}

/* ------------------------------------------------- movable-task counts */

/*
 * Sleep migrate-disabled: the switch pins the task (nr_cpus_allowed 1,
 * requeued) and migrate_enable() unpins it.  Both must requeue, or the
 * count of movable tasks, taken at enqueue and dequeue, drifts.
 */
static int md_sleeper_fn(void *data)
{
	migrate_disable();
	msleep(2);
	migrate_enable();
	msleep(1);		/* dequeued again with the count restored */
	return 0;
}

/* Invariants of the per-rq counts: a stray decrement shows as a wrap. */
static void check_migratory_counts(struct ktest *t, const char *when)
{
	int cpu;

	for_each_online_cpu(cpu) {
		struct rq *rq = cpu_rq(cpu);
		unsigned long flags;
		unsigned int rt_m, rt_n, dl_m, dl_n;

		raw_spin_lock_irqsave(&rq->__lock, flags);
		rt_m = rq->rt.rt_nr_migratory;
		rt_n = rq->rt.rt_nr_running;
		dl_m = rq->dl.dl_nr_migratory;
		dl_n = rq->dl.dl_nr_running;
		raw_spin_unlock_irqrestore(&rq->__lock, flags);
		if (rt_m > rt_n || dl_m > dl_n)
			ktest_info(t, "%s: CPU %d: rt %u movable of %u, dl %u of %u",
				   when, cpu, rt_m, rt_n, dl_m, dl_n);
		KTEST_EXPECT_LE(t, rt_m, rt_n);
		KTEST_EXPECT_LE(t, dl_m, dl_n);
	}
}

static void migratory_counts_settle(struct ktest *t)
{
	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs (a task that may move)");
	for (int round = 0; round < 2; round++) {
		struct task_struct *p = ktest_kthread(md_sleeper_fn, NULL, "md-sleep", -1,
						      round ? SCHED_FIFO : SCHED_NORMAL, round ? 50 : 0);

		KTEST_ASSERT_TRUE(t, p);
		if (!round)
			KTEST_ASSERT_EQ(t, set_dl(p, 5 * MS, 20 * MS, 20 * MS), 0);
		KTEST_EXPECT_GT(t, p->nr_cpus_allowed, 1);
		wake_up_process(p);
		KTEST_ASSERT_TRUE(t, wait_gone(p));
		check_migratory_counts(t, round ? "after FIFO" : "after deadline");
	}
}

/* ---------------------------------------------------------------- PI */

struct pi_dl {
	struct rt_mutex lock;
	volatile bool locked, release, o_done, w_done[2];
	int o_prio_after;
	bool o_fair_after, o_own_pi_se_after;
	int log[2];
	int log_len;
};

static struct pi_dl *pi_state;

static int pi_owner_fn(void *data)
{
	struct pi_dl *s = data;

	rt_mutex_lock(&s->lock);
	smp_store_release(&s->locked, true);
	ktest_wait_flag(&s->release);
	rt_mutex_unlock(&s->lock);
	s->o_prio_after = current->prio;
	s->o_fair_after = current->sched_class == &fair_sched_class;
	s->o_own_pi_se_after = current->dl.pi_se == &current->dl;
	smp_store_release(&s->o_done, true);
	return 0;
}

static int pi_waiter_fn(void *data)
{
	struct pi_dl *s = pi_state;
	long id = (long)data;

	rt_mutex_lock(&s->lock);
	s->log[s->log_len++] = id;
	rt_mutex_unlock(&s->lock);
	smp_store_release(&s->w_done[id - 1], true);
	return 0;
}

/*
 * Until @p blocks on the lock and the boost it causes has reached @owner
 * (on SMP the chain walk runs on @p's CPU while we look).  rt_mutex_setprio()
 * sets dl.pi_se before it requeues the owner at its new prio, both under the
 * owner's rq lock: taking that lock once after seeing pi_se waits for the
 * rest of the boost, so the caller never sees it half done.
 */
static void wait_boosted(struct task_struct *p, struct task_struct *owner)
{
	unsigned long flags;
	struct rq *rq;

	for (int ms = 0; ms < 1000; ms++) {
		if (READ_ONCE(p->pi_blocked_on) && READ_ONCE(owner->dl.pi_se) == &p->dl)
			break;
		msleep(1);
	}
	rq = task_rq_lock(owner, &flags);
	task_rq_unlock(rq, owner, flags);
}

/*
 * A normal owner blocks deadline waiters: it is boosted into the deadline
 * class on the parameters of the waiter with the earliest deadline
 * (dl.pi_se), the waiters take the lock in deadline order, and unlocking
 * puts the owner back in its class.
 */
static void pi_dl_waiters(struct ktest *t)
{
	static struct pi_dl s;
	struct task_struct *o, *w1, *w2;
	int cpu = other_cpu();

	memset(&s, 0, sizeof(s));
	rt_mutex_init(&s.lock);
	pi_state = &s;
	o = ktest_kthread(pi_owner_fn, &s, "pi-owner", cpu, SCHED_NORMAL, 0);
	w1 = ktest_kthread(pi_waiter_fn, (void *)1L, "pi-dl-late", cpu, SCHED_NORMAL, 0);
	w2 = ktest_kthread(pi_waiter_fn, (void *)2L, "pi-dl-early", cpu, SCHED_NORMAL, 0);
	KTEST_ASSERT_TRUE(t, o && w1 && w2);
	KTEST_ASSERT_EQ(t, set_dl(w1, 20 * MS, 500 * MS, 500 * MS), 0);
	KTEST_ASSERT_EQ(t, set_dl(w2, 20 * MS, 200 * MS, 500 * MS), 0);
	wake_up_process(o);
	ktest_wait_flag(&s.locked);
	wake_up_process(w1);
	wait_boosted(w1, o);
	KTEST_EXPECT_EQ(t, o->prio, -1);
	KTEST_EXPECT_TRUE(t, o->sched_class == &dl_sched_class);
	KTEST_EXPECT_TRUE(t, o->dl.pi_se == &w1->dl);
	wake_up_process(w2);
	wait_boosted(w2, o);
	/* w2's deadline, 200 ms from its wakeup, is before w1's 500 ms. */
	KTEST_EXPECT_TRUE(t, dl_time_before(w2->dl.deadline, w1->dl.deadline));
	KTEST_EXPECT_TRUE(t, o->dl.pi_se == &w2->dl);
	smp_store_release(&s.release, true);
	wake_up_process(o);
	ktest_wait_flag(&s.o_done);
	ktest_wait_flag(&s.w_done[0]);
	ktest_wait_flag(&s.w_done[1]);
	KTEST_EXPECT_EQ(t, s.log[0], 2);	/* the earlier deadline first */
	KTEST_EXPECT_EQ(t, s.log[1], 1);
	KTEST_EXPECT_EQ(t, s.o_prio_after, DEFAULT_PRIO);
	KTEST_EXPECT_TRUE(t, s.o_fair_after);
	KTEST_EXPECT_TRUE(t, s.o_own_pi_se_after);
}

/* ---------------------------------------------------------------- parameters */

static void expect_einval(struct ktest *t, struct task_struct *p, u64 runtime, u64 deadline,
			  u64 period, const char *rule)
{
	u64 mark = ktest_log_mark();

	KTEST_EXPECT_EQ(t, set_dl(p, runtime, deadline, period), -EINVAL);
	KTEST_EXPECT_LOG(t, mark, rule);
}

static void bad_params(struct ktest *t)
{
	struct task_struct *p = ktest_kthread(nop_fn, NULL, "dl-params", -1, SCHED_NORMAL, 0);
	struct sched_param sp = { .sched_priority = 0 };
	struct sched_attr attr;

	KTEST_ASSERT_TRUE(t, p);
	expect_einval(t, p, 2 * MS, 1 * MS, 10 * MS, "runtime must not exceed deadline");
	expect_einval(t, p, 1 * MS, 20 * MS, 10 * MS, "deadline must not exceed period");
	expect_einval(t, p, 1000, 1 * MS, 1 * MS, "runtime must be at least 1024 ns");
	expect_einval(t, p, 1 * MS, 0, 10 * MS, "deadline must not be 0");
	expect_einval(t, p, 10000, 50000, 50000, "period must be at least 100 us");
	expect_einval(t, p, 1 * MS, 1 * MS, 5000000 * 1000ULL, "period must be at most");
	expect_einval(t, p, 1 * MS, 1ULL << 63, 0, "below 2^63");
	KTEST_EXPECT_FALSE(t, task_has_dl_policy(p));
	/* No parameters through sched_setscheduler(). */
	KTEST_EXPECT_EQ(t, sched_setscheduler_nocheck(p, SCHED_DEADLINE, &sp), -EINVAL);
	/* The edges are allowed: runtime == deadline == period, period 0 = deadline. */
	KTEST_EXPECT_EQ(t, set_dl(p, 1024, 100000, 0), 0);
	sched_getattr(p, &attr);
	KTEST_EXPECT_EQ(t, attr.sched_policy, SCHED_DEADLINE);
	KTEST_EXPECT_EQ(t, attr.sched_runtime, 1024);
	KTEST_EXPECT_EQ(t, attr.sched_period, 100000);
	KTEST_EXPECT_EQ(t, set_dl(p, MS / 2, 1 * MS, 1 * MS), 0);
	sched_getattr(p, &attr);
	KTEST_EXPECT_EQ(t, attr.sched_runtime, MS / 2);
	KTEST_EXPECT_EQ(t, attr.sched_deadline, 1 * MS);
	wake_up_process(p);
	KTEST_EXPECT_TRUE(t, wait_gone(p));
}

/* ---------------------------------------------------------------- GRUB bandwidth */

/*
 * Until no deadline bandwidth is held anywhere: the tasks of earlier
 * cases keep theirs until their 0-lag time, which the cases below must
 * not see (their checks are exact sums).
 */
static bool wait_dl_idle(void)
{
	for (int ms = 0; ms < 2000; ms++) {
		bool idle = dl_bw_total() == 0;
		int cpu;

		for_each_online_cpu(cpu)
			idle &= !READ_ONCE(cpu_rq(cpu)->dl.this_bw) &&
				!READ_ONCE(cpu_rq(cpu)->dl.running_bw);
		if (idle)
			return true;
		msleep(1);
	}
	return false;
}

/*
 * The 0-lag time of @p now: when, at its reserved rate, its runtime left
 * runs out.  0 if its parameters are gone: that time has passed already.
 */
static u64 zerolag_of(struct task_struct *p)
{
	s64 dl_runtime = READ_ONCE(p->dl.dl_runtime), dl_period = READ_ONCE(p->dl.dl_period);

	if (!dl_runtime || !dl_period)
		return 0;
	return p->dl.deadline - (p->dl.runtime * dl_period) / dl_runtime;
}

/* A bit-field: no READ_ONCE(); the barrier makes each call read it afresh. */
static bool non_contending(struct task_struct *p)
{
	barrier();
	return p->dl.dl_non_contending;
}

struct sleeper {
	u64 spin;		/* CPU time to use before each sleep */
	volatile bool asleep, release, done;
	unsigned int round;	/* sleeps so far */
};

/* Runs @spin, sleeps until released, twice; then exits. */
static int sleeper_fn(void *data)
{
	struct sleeper *s = data;

	for (int i = 0; i < 2; i++) {
		spin_cpu(s->spin);
		set_current_state(TASK_UNINTERRUPTIBLE);
		s->round = i + 1;
		smp_store_release(&s->asleep, true);
		while (!smp_load_acquire(&s->release)) {
			schedule();
			set_current_state(TASK_UNINTERRUPTIBLE);
		}
		__set_current_state(TASK_RUNNING);
		WRITE_ONCE(s->release, false);
	}
	smp_store_release(&s->done, true);
	return 0;
}

/* Until @p is off its run queue (asleep): the flag is set just before it sleeps. */
static void wait_dequeued(struct task_struct *p)
{
	for (int i = 0; i < 100000 && (READ_ONCE(p->on_rq) || READ_ONCE(p->on_cpu)); i++)
		cpu_relax();
}

/*
 * running_bw, the active utilisation, counts a deadline task from its
 * wakeup to its 0-lag time after it blocks, not to the block: 10 ms per
 * 100 ms, it runs 2 ms and sleeps, and stays counted (non contending)
 * until deadline - runtime left x period / runtime = 20 ms after its
 * wakeup.  this_bw counts it from sched_setattr() to its death's 0-lag.
 */
static void running_bw_zero_lag(struct ktest *t)
{
	struct sleeper s = { .spin = 2 * MS };
	int cpu = other_cpu();
	struct dl_rq *dl_rq = &cpu_rq(cpu)->dl;
	u64 bw = to_ratio(100 * MS, 10 * MS), zl, now, seen = 0;
	struct task_struct *p;
	bool early;

	KTEST_ASSERT_TRUE(t, wait_dl_idle());
	p = ktest_kthread(sleeper_fn, &s, "dl-grub", cpu, SCHED_NORMAL, 0);
	KTEST_ASSERT_TRUE(t, p);
	KTEST_ASSERT_EQ(t, set_dl(p, 10 * MS, 100 * MS, 100 * MS), 0);
	/* Assigned to its CPU, not active: it has not woken yet. */
	KTEST_EXPECT_EQ(t, READ_ONCE(dl_rq->this_bw), bw);
	KTEST_EXPECT_EQ(t, READ_ONCE(dl_rq->running_bw), 0);
	wake_up_process(p);
	ktest_wait_flag(&s.asleep);
	wait_dequeued(p);
	now = ktime_get_ns();
	zl = zerolag_of(p);
	early = dl_time_before(now + MS, zl);
	ktest_info(t, "asleep %lld us before its 0-lag time (%s)",
		   (long long)(zl - now) / 1000, ktest_clock_mode());
	if (ktest_exact_time)
		KTEST_EXPECT_TRUE(t, early);
	if (early) {
		/*
		 * Blocked before its 0-lag time: still active.  Read first,
		 * then check the clock: a host stall between the two can run
		 * past the 0-lag time, and then the reads prove nothing.
		 */
		u64 rbw = READ_ONCE(dl_rq->running_bw);
		bool nc = non_contending(p);

		if (dl_time_before(ktime_get_ns(), zl)) {
			KTEST_EXPECT_EQ(t, rbw, bw);
			KTEST_EXPECT_TRUE(t, nc);
		} else {
			KTEST_EXPECT_FALSE(t, ktest_exact_time);
			ktest_info(t, "0-lag time passed while reading (host stall): not checked");
		}
	}
	/* Watch for the drop; under icount it comes at the 0-lag time. */
	while (READ_ONCE(dl_rq->running_bw) && ktime_get_ns() < zl + 500 * MS)
		cpu_relax();
	seen = ktime_get_ns();
	KTEST_EXPECT_EQ(t, READ_ONCE(dl_rq->running_bw), 0);
	KTEST_EXPECT_FALSE(t, non_contending(p));
	KTEST_EXPECT_EQ(t, READ_ONCE(dl_rq->this_bw), bw);
	ktest_info(t, "running_bw dropped %lld us after the 0-lag time",
		   (long long)(seen - zl) / 1000);
	if (ktest_exact_time) {
		KTEST_EXPECT_GE(t, seen, zl);
		KTEST_EXPECT_LE(t, seen, zl + 100000);	/* the timer's IRQ, then our poll */
	}
	/* Inactive, woken: active again at once. */
	WRITE_ONCE(s.asleep, false);
	smp_store_release(&s.release, true);
	wake_up_process(p);
	ktest_wait_flag(&s.asleep);
	wait_dequeued(p);
	/* It ran 2 ms more of the same instance or of a fresh one: active until its 0-lag. */
	now = ktime_get_ns();
	zl = zerolag_of(p);
	if (dl_time_before(now + MS, zl)) {
		KTEST_EXPECT_EQ(t, READ_ONCE(dl_rq->running_bw), bw);
		KTEST_EXPECT_TRUE(t, non_contending(p));
	} else {
		KTEST_EXPECT_FALSE(t, ktest_exact_time);
	}
	/* Woken before that: contending again, the timer cancelled, nothing added twice. */
	smp_store_release(&s.release, true);
	wake_up_process(p);
	ktest_wait_flag(&s.done);
	KTEST_EXPECT_TRUE(t, wait_gone(p));
	/* Dead: gone from both sums, and from admission, by its 0-lag time. */
	KTEST_EXPECT_TRUE(t, wait_dl_idle());
}

struct changer {
	int ret;
	u64 this_bw, running_bw;	/* its CPU's, right after the change */
	volatile bool changed, release;
};

/* Runs 1 ms, triples its own bandwidth while running, sleeps, exits. */
static int changer_fn(void *data)
{
	struct changer *c = data;
	struct dl_rq *dl_rq;

	spin_cpu(MS);
	c->ret = set_dl(current, 30 * MS, 100 * MS, 100 * MS);
	preempt_disable();
	dl_rq = &this_rq()->dl;
	c->this_bw = READ_ONCE(dl_rq->this_bw);
	c->running_bw = READ_ONCE(dl_rq->running_bw);
	preempt_enable();
	smp_store_release(&c->changed, true);
	ktest_wait_flag(&c->release);
	return 0;
}

/*
 * A queued deadline task given new parameters takes its bandwidth out of
 * its CPU's sums with the old value and puts it back with the new one
 * (sched_setattr() requeues it with DEQUEUE_SAVE / ENQUEUE_RESTORE, as in
 * Linux, even though prio and class stay the same).
 */
static void change_bw_while_queued(struct ktest *t)
{
	struct changer c = {};
	u64 bw10 = to_ratio(100 * MS, 10 * MS), bw30 = to_ratio(100 * MS, 30 * MS);
	struct task_struct *p;

	KTEST_ASSERT_TRUE(t, wait_dl_idle());
	p = ktest_kthread(changer_fn, &c, "dl-change", other_cpu(), SCHED_NORMAL, 0);
	KTEST_ASSERT_TRUE(t, p);
	KTEST_ASSERT_EQ(t, set_dl(p, 10 * MS, 100 * MS, 100 * MS), 0);
	KTEST_EXPECT_EQ(t, READ_ONCE(cpu_rq(other_cpu())->dl.this_bw), bw10);
	wake_up_process(p);
	ktest_wait_flag(&c.changed);
	KTEST_EXPECT_EQ(t, c.ret, 0);
	KTEST_EXPECT_EQ(t, c.this_bw, bw30);
	KTEST_EXPECT_EQ(t, c.running_bw, bw30);
	KTEST_EXPECT_EQ(t, dl_bw_total(), bw30);
	smp_store_release(&c.release, true);
	KTEST_EXPECT_TRUE(t, wait_gone(p));
	/* Everything it held, at the new value, comes back by its 0-lag time. */
	KTEST_EXPECT_TRUE(t, wait_dl_idle());
}

struct leaver {
	u64 spin;
	bool to_normal;		/* leave the class (else exit) after the spin */
	int ret;		/* of its sched_setattr(SCHED_NORMAL) */
	u64 zl;			/* its 0-lag time as it left */
	volatile bool left, release;
};

/*
 * Uses @spin of CPU, then leaves the class or exits.  The 0-lag time is
 * noted just before: exiting charges it a little more, which only moves
 * the real one later.
 */
static int leaver_fn(void *data)
{
	struct leaver *l = data;

	spin_cpu(l->spin);
	if (l->to_normal) {
		l->ret = set_normal(current);
		/* Its parameters stay until its 0-lag time, so this can still be read. */
		l->zl = zerolag_of(current);
		smp_store_release(&l->left, true);
		ktest_wait_flag(&l->release);
		return 0;
	}
	l->zl = zerolag_of(current);
	smp_store_release(&l->left, true);
	return 0;
}

#define FILL_MAX	(CONFIG_NR_CPUS * 4)

/*
 * A task of 50% that used 40 ms of CPU is 80 ms into its reservation:
 * when it exits or switches to SCHED_NORMAL 40 ms after its wakeup, its
 * 50% stays in the admission total until that 0-lag time.  With the rest
 * filled up, a new 50% task is refused before it and admitted after.
 */
static void run_release_at_zero_lag(struct ktest *t, bool to_normal)
{
	u64 cap = to_ratio(1000000000ULL, 950000000ULL) * num_online_cpus();
	u64 half = to_ratio(100 * MS, 50 * MS), fill = to_ratio(100 * MS, 30 * MS);
	struct leaver l = { .spin = 40 * MS, .to_normal = to_normal };
	struct task_struct *a, *b, *f[FILL_MAX];
	unsigned int nf = 0;
	u64 now, total, freed;
	bool early;

	KTEST_ASSERT_TRUE(t, wait_dl_idle());
	a = ktest_kthread(leaver_fn, &l, "dl-leaver", other_cpu(), SCHED_NORMAL, 0);
	b = ktest_kthread(nop_fn, NULL, "dl-after", -1, SCHED_NORMAL, 0);
	KTEST_ASSERT_TRUE(t, a && b);
	KTEST_ASSERT_EQ(t, set_dl(a, 50 * MS, 100 * MS, 100 * MS), 0);
	/* Fill up: less than 50% left, but 50% more once a's is back. */
	while (nf < FILL_MAX && dl_bw_total() + fill <= cap) {
		f[nf] = ktest_kthread(nop_fn, NULL, "dl-fill", -1, SCHED_NORMAL, 0);
		KTEST_ASSERT_TRUE(t, f[nf]);
		KTEST_ASSERT_EQ(t, set_dl(f[nf], 30 * MS, 100 * MS, 100 * MS), 0);
		nf++;
	}
	KTEST_ASSERT_TRUE(t, cap - dl_bw_total() < half);
	KTEST_EXPECT_EQ(t, set_dl(b, 50 * MS, 100 * MS, 100 * MS), -EBUSY);
	total = dl_bw_total();
	wake_up_process(a);
	ktest_wait_flag(&l.left);
	if (!to_normal) {
		/* Dead and switched away (the inactive timer may still hold a reference). */
		for (int i = 0; i < 1000 && (READ_ONCE(a->__state) != TASK_DEAD ||
					     smp_load_acquire(&a->on_cpu)); i++)
			udelay(10);
	}
	KTEST_EXPECT_EQ(t, l.ret, 0);
	now = ktime_get_ns();
	early = dl_time_before(now + MS, l.zl);
	ktest_info(t, "%s %lld us before its 0-lag time (%s)", to_normal ? "left" : "exited",
		   (long long)(l.zl - now) / 1000, ktest_clock_mode());
	if (ktest_exact_time)
		KTEST_EXPECT_TRUE(t, early);
	if (early) {
		/* Gone from the class, not from the admission total. */
		KTEST_EXPECT_EQ(t, dl_bw_total(), total);
		KTEST_EXPECT_EQ(t, set_dl(b, 50 * MS, 100 * MS, 100 * MS), -EBUSY);
		if (to_normal)
			KTEST_EXPECT_TRUE(t, a->sched_class == &fair_sched_class);
	}
	for (int ms = 0; ms < 1000 && dl_bw_total() == total; ms++)
		msleep(1);
	freed = ktime_get_ns();
	KTEST_EXPECT_EQ(t, dl_bw_total(), total - half);
	ktest_info(t, "released %lld us after the 0-lag time noted",
		   (long long)(freed - l.zl) / 1000);
	if (ktest_exact_time) {
		KTEST_EXPECT_GE(t, freed, l.zl);
		/* msleep() polls per tick; the exit path adds a few us. */
		KTEST_EXPECT_LE(t, freed, l.zl + 2 * TICK_NSEC);
	}
	/* Freed: fits now. */
	KTEST_EXPECT_EQ(t, set_dl(b, 50 * MS, 100 * MS, 100 * MS), 0);
	if (to_normal) {
		KTEST_EXPECT_EQ(t, a->dl.dl_bw, 0);	/* parameters cleared at the 0-lag time */
		smp_store_release(&l.release, true);
		wake_up_process(a);
	}
	/* Asleep and never run: inactive, so leaving frees at once. */
	KTEST_EXPECT_EQ(t, set_normal(b), 0);
	for (unsigned int i = 0; i < nf; i++)
		KTEST_EXPECT_EQ(t, set_normal(f[i]), 0);
	KTEST_EXPECT_EQ(t, dl_bw_total(), 0);
	wake_up_process(b);
	for (unsigned int i = 0; i < nf; i++)
		wake_up_process(f[i]);
	KTEST_EXPECT_TRUE(t, wait_gone(a));
	KTEST_EXPECT_TRUE(t, wait_dl_idle());
}

static void exit_releases_at_zero_lag(struct ktest *t)
{
	run_release_at_zero_lag(t, false);
}

static void leave_releases_at_zero_lag(struct ktest *t)
{
	run_release_at_zero_lag(t, true);
}

struct reclaimer {
	u64 window;
	u64 cpu_ns;
	volatile bool done;
};

/* Spins for @window of wall time from its first run; notes the CPU it got. */
static int reclaim_fn(void *data)
{
	struct reclaimer *r = data;
	u64 start = ktime_get_ns(), r0 = task_sched_runtime(current);

	while (ktime_get_ns() < start + r->window)
		cond_resched();
	r->cpu_ns = task_sched_runtime(current) - r0;
	smp_store_release(&r->done, true);
	return 0;
}

/* 10 ms per 100 ms with @flags, alone; its CPU time in @window (0: could not run it). */
static u64 run_reclaimer(struct ktest *t, u64 flags, u64 window, u64 *extra_bw)
{
	struct reclaimer r = { .window = window };
	struct task_struct *p;

	if (!wait_dl_idle())
		return 0;
	p = ktest_kthread(reclaim_fn, &r, "dl-reclaim", other_cpu(), SCHED_NORMAL, 0);
	if (!p || set_dl_flags(p, 10 * MS, 100 * MS, 100 * MS, flags))
		return 0;
	*extra_bw = READ_ONCE(cpu_rq(other_cpu())->dl.extra_bw);
	wake_up_process(p);
	ktest_wait_flag(&r.done);
	wait_gone(p);
	return r.cpu_ns;
}

/*
 * SCHED_FLAG_RECLAIM: alone on its CPU, a task of 10 ms per 100 ms is
 * charged max(u / Umax, 1 - Uinact - Uextra) per ns it runs (Linux 5.15's
 * grub_reclaim()), with u = 0.1, Umax = 0.95, Uinact = 0 (it is the only
 * task here) and Uextra = Umax - u / CPUs (what admission left free on
 * each CPU).  At 1 CPU the rate is 1 - 0.85 = 0.15, so it runs 10 / 0.15
 * = 66.7 ms a period instead of 10; at 2 CPUs or more u / Umax wins and
 * it runs 10 / 0.105 = 95 ms.  (Linux 6.4 changed the rule; this is 5.15's.)
 */
static void reclaim_grub(struct ktest *t)
{
	const u64 window = 500 * MS, periods = window / (100 * MS);
	u64 u = to_ratio(100 * MS, 10 * MS), umax = to_ratio(1000000000ULL, 950000000ULL);
	u64 bw_ratio = to_ratio(950000000ULL, 1000000000ULL) >> (BW_SHIFT - RATIO_SHIFT);
	u64 extra = umax - (s32)u / num_online_cpus(), extra_seen = 0, extra_plain = 0;
	u64 u_act_min = (u * bw_ratio) >> RATIO_SHIFT, u_act, per_period, expect, got, plain;

	u_act = extra > BW_UNIT - u_act_min ? u_act_min : BW_UNIT - extra;
	per_period = min((10 * MS << BW_SHIFT) / u_act, 100 * MS);
	expect = periods * per_period;
	got = run_reclaimer(t, SCHED_FLAG_RECLAIM, window, &extra_seen);
	plain = run_reclaimer(t, 0, window, &extra_plain);
	ktest_info(t, "%u CPU(s): charge rate %llu/%u, expected %llu us of CPU in %llu ms; "
		   "got %llu us (without RECLAIM %llu us; %s)", num_online_cpus(),
		   (unsigned long long)u_act, BW_UNIT, (unsigned long long)expect / 1000,
		   (unsigned long long)window / MS, (unsigned long long)got / 1000,
		   (unsigned long long)plain / 1000, ktest_clock_mode());
	KTEST_ASSERT_TRUE(t, got && plain);
	/* Admission took u / CPUs from every CPU's extra_bw. */
	KTEST_EXPECT_EQ(t, extra_seen, extra);
	KTEST_EXPECT_EQ(t, extra_plain, extra);
	/* Well beyond its 10% either way. */
	KTEST_EXPECT_GT(t, got, 2 * periods * 10 * MS);
	if (ktest_exact_time) {
		/* Overruns are noticed at the tick and carried over as negative runtime. */
		KTEST_EXPECT_LE(t, got, expect + 2 * TICK_NSEC + expect / 50);
		KTEST_EXPECT_GE(t, got, expect - 2 * TICK_NSEC - expect / 50);
		KTEST_EXPECT_LE(t, plain, periods * 10 * MS + 2 * TICK_NSEC);
	}
}

struct overrunner {
	u64 window;
	bool yield;		/* end each instance with yield(): not an overrun */
	volatile bool done;
};

static int overrunner_fn(void *data)
{
	struct overrunner *o = data;
	u64 until = ktime_get_ns() + o->window;

	while (ktime_get_ns() < until) {
		if (o->yield) {
			spin_cpu(MS / 2);
			yield();
		} else {
			cond_resched();
		}
	}
	smp_store_release(&o->done, true);
	return 0;
}

static unsigned int run_overrunner(struct ktest *t, u64 flags, bool yield)
{
	struct overrunner o = { .window = 200 * MS, .yield = yield };
	struct task_struct *p = ktest_kthread(overrunner_fn, &o, "dl-overrun", other_cpu(),
					      SCHED_NORMAL, 0);
	struct sched_attr got;

	if (!p || set_dl_flags(p, 8 * MS, 40 * MS, 40 * MS, flags))
		return ~0u;
	sched_getattr(p, &got);
	KTEST_EXPECT_EQ(t, got.sched_flags, flags);
	wake_up_process(p);
	ktest_wait_flag(&o.done);
	wait_gone(p);
	return p->dl.dl_overrun_count;
}

/*
 * SCHED_FLAG_DL_OVERRUN: each time the task's runtime runs out it is told
 * (Linux: SIGXCPU; irqlab: dl_overrun_count).  A hog of 8 ms per 40 ms
 * over 200 ms overruns once a period (the tick notices it up to 4 ms
 * late, which the next 8 ms absorb: with 2 ms per 20 ms the debt would
 * skip every other period); without the flag, or ending each instance
 * with yield(), nothing is counted.
 */
static void dl_overrun_count(struct ktest *t)
{
	unsigned int hog = run_overrunner(t, SCHED_FLAG_DL_OVERRUN, false);
	unsigned int quiet = run_overrunner(t, 0, false);
	unsigned int yielder = run_overrunner(t, SCHED_FLAG_DL_OVERRUN, true);

	ktest_info(t, "overruns: %u with the flag, %u without, %u when yielding (%s)",
		   hog, quiet, yielder, ktest_clock_mode());
	KTEST_EXPECT_GE(t, hog, 2);
	KTEST_EXPECT_LE(t, hog, 8);
	KTEST_EXPECT_EQ(t, quiet, 0);
	if (ktest_exact_time) {
		/* Under TCG a host stall inside its 0.5 ms can be a real overrun. */
		KTEST_EXPECT_EQ(t, yielder, 0);
		KTEST_EXPECT_GE(t, hog, 4);
		KTEST_EXPECT_LE(t, hog, 6);
	}
}

/* sched_flags: Linux's unknown bits are -EINVAL, as are those irqlab does not implement. */
static void sched_flags_checked(struct ktest *t)
{
	struct task_struct *p = ktest_kthread(nop_fn, NULL, "dl-flags", -1, SCHED_NORMAL, 0);
	struct sched_attr attr = {
		.size = sizeof(attr),
		.sched_policy = SCHED_DEADLINE,
		.sched_runtime = 1 * MS,
		.sched_deadline = 10 * MS,
		.sched_period = 10 * MS,
	};
	u64 mark;

	KTEST_ASSERT_TRUE(t, p);
	mark = ktest_log_mark();
	attr.sched_flags = 0x80;
	KTEST_EXPECT_EQ(t, sched_setattr_nocheck(p, &attr), -EINVAL);
	KTEST_EXPECT_LOG(t, mark, "sched_setattr: unknown sched_flags 0x80 (-EINVAL)");
	attr.sched_flags = SCHED_FLAG_RECLAIM | (1ULL << 40);
	KTEST_EXPECT_EQ(t, sched_setattr_nocheck(p, &attr), -EINVAL);
	KTEST_EXPECT_LOG(t, mark, "unknown sched_flags 0x10000000000");
	attr.sched_flags = SCHED_FLAG_KEEP_PARAMS;
	KTEST_EXPECT_EQ(t, sched_setattr_nocheck(p, &attr), -EINVAL);
	KTEST_EXPECT_LOG(t, mark, "not supported by irqlab (-EINVAL)");
	KTEST_EXPECT_FALSE(t, task_has_dl_policy(p));
	/* A fair task's flags are checked too, as in Linux. */
	attr.sched_policy = SCHED_NORMAL;
	attr.sched_flags = 0x100;
	KTEST_EXPECT_EQ(t, sched_setattr_nocheck(p, &attr), -EINVAL);
	/* The deadline ones are kept; RESET_ON_FORK is accepted, not kept. */
	attr.sched_policy = SCHED_DEADLINE;
	attr.sched_flags = SCHED_FLAG_RECLAIM | SCHED_FLAG_DL_OVERRUN | SCHED_FLAG_RESET_ON_FORK;
	KTEST_EXPECT_EQ(t, sched_setattr_nocheck(p, &attr), 0);
	sched_getattr(p, &attr);
	KTEST_EXPECT_EQ(t, attr.sched_flags, SCHED_FLAG_RECLAIM | SCHED_FLAG_DL_OVERRUN);
	KTEST_EXPECT_EQ(t, set_normal(p), 0);
	wake_up_process(p);
	KTEST_EXPECT_TRUE(t, wait_gone(p));
}

/* ---------------------------------------------------------------- cyclicdl core */

/*
 * 128 periods of 1 ms: a whole number of ticks (4 ms at 250 HZ, 10 or 1
 * ms otherwise), so every run holds the same number of periods the tick
 * lengthens, whatever its phase against the tick.  (At SMP=1 there is no
 * load balancing: one CPU has no sched domain.)
 */
#define CDL_LOOPS	128

static struct cyclic_result *run_cyclicdl(struct ktest *t)
{
	struct cyclic_params p = {
		.interval_us = 1000,
		.loops = CDL_LOOPS,
		.hist_us = 100,
		.policy = SCHED_DEADLINE,
		.runtime_ns = 200000,
		.deadline_ns = 1000000,
	};
	struct cyclic_result *r;

	cpumask_clear(&p.cpus);
	cpumask_set_cpu(0, &p.cpus);
	r = cyclic_measure(&p, true);
	KTEST_ASSERT_TRUE(t, r != NULL);
	if (r->threads[0].failed) {
		cyclic_free(r);
		KTEST_ASSERT_TRUE(t, !"the measuring thread started");
	}
	return r;
}

static void cyclicdl_bookkeeping(struct ktest *t)
{
	struct cyclic_result *r = run_cyclicdl(t);
	const struct cyclic_stats *s = &r->threads[0].thread;
	u64 sum = 0, hi = 0;

	for (unsigned int b = 0; b < r->params.hist_us; b++)
		sum += s->hist[b];
	for (unsigned int i = 0; i < CDL_LOOPS; i++)
		hi = max(hi, r->threads[0].thread_samples[i]);
	KTEST_EXPECT_EQ(t, s->count, CDL_LOOPS);
	KTEST_EXPECT_EQ(t, sum + s->overflows, CDL_LOOPS);
	KTEST_EXPECT_EQ(t, s->max_ns, hi);
	KTEST_EXPECT_LE(t, s->min_ns, cyclic_avg_ns(s));
	KTEST_EXPECT_LE(t, cyclic_avg_ns(s), s->max_ns);
	ktest_info(t, "period start to running: %llu/%llu/%llu ns (min/avg/max, %s)",
		   (unsigned long long)s->min_ns, (unsigned long long)cyclic_avg_ns(s),
		   (unsigned long long)s->max_ns, ktest_clock_mode());
	cyclic_free(r);
}

/*
 * Whether two runs hold the same figures (cyclic_stats_same()); when they
 * differ, the log also says where their samples first part.
 */
static bool cyclicdl_same(struct ktest *t, struct cyclic_result *ra, int a,
			  struct cyclic_result *rb, int b)
{
	const u64 *sa = ra->threads[0].thread_samples, *sb = rb->threads[0].thread_samples;
	char what[32];
	unsigned int i;

	snprintf(what, sizeof(what), "runs %d and %d", a, b);
	if (cyclic_stats_same(t, what, &ra->threads[0].thread, &rb->threads[0].thread,
			      ra->params.hist_us))
		return true;
	for (i = 0; i < CDL_LOOPS && sa[i] == sb[i]; i++)
		;
	ktest_info(t, "runs %d and %d: first differing sample %u: %llu/%llu ns", a, b, i,
		   (unsigned long long)(i < CDL_LOOPS ? sa[i] : 0),
		   (unsigned long long)(i < CDL_LOOPS ? sb[i] : 0));
	return false;
}

/*
 * Under icount at SMP=1 runs give the same figures.  One CI run saw two
 * runs differ, which some 350 boots here (4 QEMUs on 2 cores among them)
 * never reproduced, so its cause is not known: a third run is taken
 * then, and two of the three must agree.  The difference is logged
 * either way.  A cyclicdl whose figures did not repeat fails all three.
 */
static void cyclicdl_icount_repeatable(struct ktest *t)
{
	struct cyclic_result *r[3] = { NULL, NULL, NULL };
	unsigned int mask = 0, worst = 0;
	u64 thr = 0, fine = 0;
	bool same;
	int n;

	if (strcmp(ktest_clock_mode(), "icount"))
		ktest_skip(t, "figures repeat only under icount (clock: %s)", ktest_clock_mode());
	if (num_online_cpus() != 1)
		ktest_skip(t, "icount is an SMP=1 mode (%u CPUs online)", num_online_cpus());
	/*
	 * As in the cyclic suite: a recording latency tracer makes each
	 * window's cost depend on the windows before it, so it is off here,
	 * and a first run settles the allocator.
	 */
	latency_tracer_get(&mask, &thr, &fine, &worst);
	latency_tracer_set(0, thr, fine, worst);
	/*
	 * Each run starts once the thread before it reached its 0-lag time:
	 * the inactive timer that releases its bandwidth then would otherwise
	 * interrupt one run and not the other.
	 */
	KTEST_ASSERT_TRUE(t, wait_dl_idle());
	cyclic_free(run_cyclicdl(t));
	for (n = 0, same = false; n < 3 && !same; n++) {
		KTEST_ASSERT_TRUE(t, wait_dl_idle());
		r[n] = run_cyclicdl(t);
		for (int m = 0; m < n && !same; m++)
			same = cyclicdl_same(t, r[m], m, r[n], n);
	}
	latency_tracer_set(mask, thr, fine, worst);
	KTEST_EXPECT_TRUE(t, same);
	if (same)
		ktest_info(t, "%llu/%llu/%llu ns (min/avg/max), the same in %s",
			   (unsigned long long)r[n - 1]->threads[0].thread.min_ns,
			   (unsigned long long)cyclic_avg_ns(&r[n - 1]->threads[0].thread),
			   (unsigned long long)r[n - 1]->threads[0].thread.max_ns,
			   n == 2 ? "two runs" : "two of three runs");
	for (n = 0; n < 3; n++)
		if (r[n])
			cyclic_free(r[n]);
}

static struct ktest_case deadline_cases[] = {
	KTEST_CASE(edf_order),
	KTEST_CASE(overrun_throttled),
	KTEST_CASE(cbs_wakeup_rule),
	KTEST_CASE(admission_control),
	KTEST_CASE(dl_preempts_rt),
	KTEST_CASE(migrate_disable_pins_dl),
	KTEST_CASE(pull_to_freed_cpu),
	KTEST_CASE(migratory_counts_settle),
	KTEST_CASE(cpudl_heap),
	KTEST_CASE(pi_dl_waiters),
	KTEST_CASE(bad_params),
	KTEST_CASE(running_bw_zero_lag),
	KTEST_CASE(change_bw_while_queued),
	KTEST_CASE(exit_releases_at_zero_lag),
	KTEST_CASE(leave_releases_at_zero_lag),
	KTEST_CASE(reclaim_grub),
	KTEST_CASE(dl_overrun_count),
	KTEST_CASE(sched_flags_checked),
	KTEST_CASE(cyclicdl_bookkeeping),
	KTEST_CASE(cyclicdl_icount_repeatable),
	{}
};

static struct ktest_suite deadline_suite = {
	.name = "deadline",
	.cases = deadline_cases,
};
ktest_register_suite(deadline_suite);
