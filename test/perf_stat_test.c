// SPDX-License-Identifier: GPL-2.0
/*
 * perf stat's counts (kernel/events/perf_stat.c) on constructed work:
 * a ping-pong of two tasks gives at least two switches per round, and no
 * fewer than the two tasks' own nvcsw/nivcsw say; a task moved to
 * another CPU by set_cpus_allowed_ptr() counts one migration; a task that
 * spins counts its time as task-clock; and the +- over repeats is the
 * standard error of the mean, as perf stat prints it.
 */
#include <linux/ktest.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/perf_stat.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <asm/tsc.h>

/* One CPU under icount: nothing but the test runs, and every count is exact. */
static bool perf_stat_exact(void)
{
	return num_online_cpus() == 1 && !strcmp(tsc_clock_mode(), "icount");
}

#define PINGS	200

struct pingpong {
	struct completion ping, pong;
	volatile bool started;
};

static int pong_fn(void *arg)
{
	struct pingpong *pp = arg;

	WRITE_ONCE(pp->started, true);
	for (int i = 0; i < PINGS; i++) {
		wait_for_completion(&pp->ping);
		complete(&pp->pong);
	}
	return 0;
}

static void perf_stat_pingpong_switches(struct ktest *t)
{
	struct perf_stat_counts b, e, d;
	struct pingpong pp = {};
	struct task_struct *p;
	unsigned long me_v, me_i, it_v, it_i;

	init_completion(&pp.ping);
	init_completion(&pp.pong);
	set_cpus_allowed_ptr(current, cpumask_of(0));
	p = ktest_kthread(pong_fn, &pp, "pong", 0, SCHED_NORMAL, 0);
	KTEST_ASSERT_TRUE(t, p);
	wake_up_process(p);
	ktest_wait_flag(&pp.started);
	me_v = current->nvcsw;
	me_i = current->nivcsw;
	it_v = p->nvcsw;
	it_i = p->nivcsw;
	perf_stat_read(&b);
	for (int i = 0; i < PINGS; i++) {
		complete(&pp.ping);
		wait_for_completion(&pp.pong);
	}
	perf_stat_read(&e);
	me_v = current->nvcsw - me_v;
	me_i = current->nivcsw - me_i;
	it_v = p->nvcsw - it_v;
	it_i = p->nivcsw - it_i;
	set_cpus_allowed_ptr(current, cpu_online_mask);
	perf_stat_delta(&b, &e, &d);
	ktest_info(t, "%d rounds: %llu switches (%llu voluntary, %llu involuntary); "
		   "the two tasks' own: %lu voluntary, %lu involuntary", PINGS,
		   (unsigned long long)d.switches, (unsigned long long)d.nvcsw,
		   (unsigned long long)d.nivcsw, me_v + it_v, me_i + it_i);
	/* Each round, one side sleeps for the other at least once each way. */
	KTEST_EXPECT_GE(t, d.switches, 2 * PINGS);
	KTEST_EXPECT_GE(t, d.nvcsw, PINGS);
	/* Every switch of theirs is one of all the switches. */
	KTEST_EXPECT_GE(t, d.nvcsw, me_v + it_v);
	KTEST_EXPECT_GE(t, d.nivcsw, me_i + it_i);
	KTEST_EXPECT_GE(t, d.switches, d.nvcsw + d.nivcsw);
	/*
	 * Nor counted twice, which adds a round's worth (200) of one kind
	 * or both.  Others' switches (other CPUs' kthreads) grow with the
	 * window, which under plain TCG the host can stretch: they may add
	 * half a round's worth, not only a handful.
	 */
	KTEST_EXPECT_LE(t, d.nvcsw + d.nivcsw, me_v + it_v + me_i + it_i + PINGS / 2);
	KTEST_EXPECT_LE(t, d.switches, 3 * PINGS);
	if (perf_stat_exact()) {
		/* The wake preempts the waker: one sleep and one preemption a round. */
		KTEST_EXPECT_EQ(t, d.switches, 2 * PINGS);
		KTEST_EXPECT_EQ(t, d.nvcsw, me_v + it_v);
		KTEST_EXPECT_EQ(t, d.nivcsw, me_i + it_i);
	}
}

static int preempter_fn(void *arg)
{
	WRITE_ONCE(*(volatile bool *)arg, true);
	return 0;
}

/*
 * Preempted between setting a sleeping state and schedule(): the task
 * stays queued, so the switch is involuntary, as its nivcsw says.
 */
static void perf_stat_preempted_while_going_to_sleep(struct ktest *t)
{
	struct perf_stat_counts b, e, d;
	volatile bool ran = false;
	struct task_struct *p;
	unsigned long me_v, me_i;

	if (!IS_ENABLED(CONFIG_PREEMPTION))
		ktest_skip(t, "a wakeup preempts at once only on preemptible kernels");
	set_cpus_allowed_ptr(current, cpumask_of(0));
	p = ktest_kthread(preempter_fn, (void *)&ran, "preempter", 0, SCHED_FIFO, 50);
	KTEST_ASSERT_TRUE(t, p);
	me_v = current->nvcsw;
	me_i = current->nivcsw;
	perf_stat_read(&b);
	set_current_state(TASK_UNINTERRUPTIBLE);
	wake_up_process(p);		/* FIFO over CFS: runs before this returns */
	__set_current_state(TASK_RUNNING);
	perf_stat_read(&e);
	me_v = current->nvcsw - me_v;
	me_i = current->nivcsw - me_i;
	set_cpus_allowed_ptr(current, cpu_online_mask);
	perf_stat_delta(&b, &e, &d);
	ktest_info(t, "own %lu voluntary, %lu involuntary; all %llu, %llu", me_v, me_i,
		   (unsigned long long)d.nvcsw, (unsigned long long)d.nivcsw);
	KTEST_EXPECT_TRUE(t, ran);
	KTEST_EXPECT_EQ(t, me_v, 0);
	KTEST_EXPECT_EQ(t, me_i, 1);
	KTEST_EXPECT_GE(t, d.nivcsw, 1);
	if (perf_stat_exact())
		KTEST_EXPECT_EQ(t, d.nivcsw, 1);	/* the preempter exits: voluntary */
}

struct mover {
	struct completion stay, go;
	volatile bool started, stayed, done;
	int cpu_after;
};

static int mover_fn(void *arg)
{
	struct mover *m = arg;

	WRITE_ONCE(m->started, true);
	wait_for_completion(&m->stay);
	WRITE_ONCE(m->stayed, true);
	wait_for_completion(&m->go);
	m->cpu_after = raw_smp_processor_id();
	WRITE_ONCE(m->done, true);
	return 0;
}

/* Until @p sleeps (dequeued), not just until it said it would. */
static void wait_dequeued(struct task_struct *p)
{
	while (READ_ONCE(p->on_rq))
		msleep(1);
}

/*
 * Wake @p through @c with interrupts off on this CPU: the wakeup's
 * set_task_cpu() runs here, and nothing else can move a task on this CPU
 * meanwhile, so this CPU's count says exactly what the wakeup counted,
 * however long the host stalls either vCPU.
 */
static u64 migrations_of_wakeup(struct completion *c)
{
	int cpu = raw_smp_processor_id();
	unsigned long flags;
	u64 n;

	local_irq_save(flags);
	n = perf_stat_cpu_migrations(cpu);
	complete(c);
	n = perf_stat_cpu_migrations(cpu) - n;
	local_irq_restore(flags);
	return n;
}

/*
 * A sleeping task woken where it last ran counts no migration; woken
 * after set_cpus_allowed_ptr() sent it to the other CPU, exactly one -
 * in its own nr_migrations and in the count of the CPU that woke it.
 */
static void perf_stat_one_migration(struct ktest *t)
{
	struct perf_stat_counts b, e, d;
	struct mover m = {};
	struct task_struct *p;
	u64 moves, stay, move;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs");
	init_completion(&m.stay);
	init_completion(&m.go);
	/* The waker stays on CPU 0, where the mover sleeps. */
	set_cpus_allowed_ptr(current, cpumask_of(0));
	p = ktest_kthread(mover_fn, &m, "mover", 0, SCHED_NORMAL, 0);
	KTEST_ASSERT_TRUE(t, p);
	wake_up_process(p);
	ktest_wait_flag(&m.started);
	wait_dequeued(p);
	moves = p->se.nr_migrations;
	stay = migrations_of_wakeup(&m.stay);
	ktest_wait_flag(&m.stayed);
	wait_dequeued(p);
	KTEST_EXPECT_EQ(t, p->se.nr_migrations, moves);

	perf_stat_read(&b);
	KTEST_EXPECT_EQ(t, set_cpus_allowed_ptr(p, cpumask_of(1)), 0);
	move = migrations_of_wakeup(&m.go);
	ktest_wait_flag(&m.done);
	perf_stat_read(&e);
	set_cpus_allowed_ptr(current, cpu_online_mask);
	perf_stat_delta(&b, &e, &d);
	moves = p->se.nr_migrations - moves;
	ktest_info(t, "moved to CPU %d: its own migrations %llu, counted by its wakeups "
		   "%llu (same CPU) and %llu (moved), all %llu", m.cpu_after,
		   (unsigned long long)moves, (unsigned long long)stay,
		   (unsigned long long)move, (unsigned long long)d.migrations);
	KTEST_EXPECT_EQ(t, m.cpu_after, 1);
	KTEST_EXPECT_EQ(t, moves, 1);
	KTEST_EXPECT_EQ(t, stay, 0);
	KTEST_EXPECT_EQ(t, move, 1);
	/* Others may move meanwhile (a kworker): as many as the host lets them. */
	KTEST_EXPECT_GE(t, d.migrations, 1);
}

static void perf_stat_task_clock(struct ktest *t)
{
	struct perf_stat_counts b, e, d;
	u64 start, spun;

	perf_stat_read(&b);
	start = local_clock();
	while (local_clock() - start < 2 * NSEC_PER_MSEC)
		cpu_relax();
	spun = local_clock() - start;
	perf_stat_read(&e);
	perf_stat_delta(&b, &e, &d);
	ktest_info(t, "spun %llu ns: task-clock %llu ns, elapsed %llu ns",
		   (unsigned long long)spun, (unsigned long long)d.task_clock_ns,
		   (unsigned long long)d.elapsed_ns);
	/* The spin is CPU time of a task; nothing runs beyond CPUs x elapsed. */
	KTEST_EXPECT_GE(t, d.task_clock_ns, spun);
	KTEST_EXPECT_LE(t, d.task_clock_ns, d.elapsed_ns * num_online_cpus() + NSEC_PER_MSEC);
	if (perf_stat_exact())
		KTEST_EXPECT_EQ(t, d.task_clock_ns, d.elapsed_ns);

	/* A sleep is not task-clock: the idle task's time is left out. */
	perf_stat_read(&b);
	msleep(5);
	perf_stat_read(&e);
	perf_stat_delta(&b, &e, &d);
	ktest_info(t, "slept: task-clock %llu ns, elapsed %llu ns",
		   (unsigned long long)d.task_clock_ns, (unsigned long long)d.elapsed_ns);
	KTEST_EXPECT_GE(t, d.elapsed_ns, 5 * NSEC_PER_MSEC);
	/*
	 * Not "task-clock under half the elapsed time": under plain TCG a
	 * host stall while a task runs (this one, before or after its sleep)
	 * is task-clock and elapsed time alike, and can be the most of both.
	 * What a stall cannot add is task time inside the sleep, where this
	 * CPU has nothing to run: at least half of those 5 ms stay idle.
	 */
	KTEST_EXPECT_GE(t, d.elapsed_ns * num_online_cpus() - d.task_clock_ns,
			5 * NSEC_PER_MSEC / 2);
	if (perf_stat_exact())
		KTEST_EXPECT_LE(t, d.task_clock_ns, d.elapsed_ns / 2);
}

static void perf_stat_repeat_error(struct ktest *t)
{
	const u64 elapsed[] = { 100000000, 102000000, 98000000 };
	struct perf_stat_runs r = {};
	struct perf_stat_counts d = {};

	for (unsigned int i = 0; i < ARRAY_SIZE(elapsed); i++) {
		d.elapsed_ns = elapsed[i];
		perf_stat_runs_add(&r, &d);
	}
	/* sd 2 ms, over sqrt(3): 1.1547 ms of a 100 ms mean. */
	KTEST_EXPECT_EQ(t, perf_stat_rel_err_x100(&r, 4), 115);
	/* One run has no +-; equal runs have 0. */
	r = (struct perf_stat_runs){};
	perf_stat_runs_add(&r, &d);
	KTEST_EXPECT_EQ(t, perf_stat_rel_err_x100(&r, 4), 0);
	perf_stat_runs_add(&r, &d);
	KTEST_EXPECT_EQ(t, perf_stat_rel_err_x100(&r, 4), 0);
	/* Large values: the square root does not overflow or stall. */
	r = (struct perf_stat_runs){};
	d.elapsed_ns = 4000000000000ULL;
	perf_stat_runs_add(&r, &d);
	d.elapsed_ns = 6000000000000ULL;
	perf_stat_runs_add(&r, &d);
	/* sd sqrt(2) * 1e12, over sqrt(2): 1e12 of a 5e12 mean = 20%. */
	KTEST_EXPECT_EQ(t, perf_stat_rel_err_x100(&r, 4), 2000);
}

static struct ktest_case perf_stat_cases[] = {
	KTEST_CASE(perf_stat_pingpong_switches),
	KTEST_CASE(perf_stat_preempted_while_going_to_sleep),
	KTEST_CASE(perf_stat_one_migration),
	KTEST_CASE(perf_stat_task_clock),
	KTEST_CASE(perf_stat_repeat_error),
	{}
};

static struct ktest_suite perf_stat_suite = { .name = "perf_stat", .cases = perf_stat_cases };
ktest_register_suite(perf_stat_suite);
