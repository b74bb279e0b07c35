// SPDX-License-Identifier: GPL-2.0
/*
 * migrate_disable(), affinity changes and remote wakeups against Linux
 * 5.15's behaviour (kernel/sched/affinity.c, core.c, rt.c):
 * - an unpreempted migrate_disable() section opens no IRQ-off window;
 * - set_cpus_allowed_ptr() on itself while pinned refuses (-EBUSY, with
 *   Linux's warning) instead of waiting for its own migrate_enable();
 * - a requeue for an affinity change or a same-priority parameter change
 *   keeps an RT task's place in its queue;
 * - a pinned RT task preempted by a movable one gets its CPU back when
 *   another CPU could run the movable one (push_cpu_stop());
 * - a remote wakeup between CPUs that share a cache is done by the waker
 *   under the target's rq lock, not left for the target's IPI.
 */
#include <linux/ktest.h>
#include <linux/delay.h>
#include <linux/errno.h>
#include <linux/irqflags.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/trace_irqsoff.h>
#include <asm/processor.h>
#include "../kernel/sched/sched.h"


/* ------------------------------------------------------------ item 1 */

#ifdef CONFIG_TRACE_IRQSOFF
static void migrate_enable_unpreempted_opens_no_irqoff(struct ktest *t)
{
	unsigned int mask, worst;
	u64 thr, fine;

	latency_tracer_get(&mask, &thr, &fine, &worst);
	latency_tracer_set(mask | (1u << LAT_IRQSOFF), 0, fine, worst);
	latency_tracer_reset();
	for (int i = 0; i < 1000; i++) {
		migrate_disable();
		migrate_enable();
	}
	KTEST_EXPECT_EQ(t, latency_tracer_func(LAT_IRQSOFF, "migrate_enable").windows, 0);
	KTEST_EXPECT_EQ(t, latency_tracer_func(LAT_IRQSOFF, "migrate_disable").windows, 0);
	latency_tracer_set(mask, thr, fine, worst);
}
#endif

/* ------------------------------------------------------------ item 6 */

static void set_affinity_self_while_pinned_is_ebusy(struct ktest *t)
{
	struct cpumask other;
	unsigned long warns = taint_warn_count;
	int cpu, ret;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs");
	migrate_disable();
	cpu = smp_processor_id();
	cpumask_clear(&other);
	cpumask_set_cpu(cpu ? 0 : 1, &other);
	/* Before: it waited for its own migrate_enable() forever. */
	ret = set_cpus_allowed_ptr(current, &other);
	migrate_enable();
	KTEST_EXPECT_EQ(t, ret, -EBUSY);
	KTEST_EXPECT_WARNINGS(t, warns, 1);	/* Linux warns too */
	KTEST_EXPECT_EQ(t, (int)task_cpu(current), cpu);
	KTEST_EXPECT_EQ(t, set_cpus_allowed_ptr(current, cpu_online_mask), 0);
}

/*
 * migrate_enable() from an atomic section, with an affinity change waiting
 * for it: the move is queued for the stopper, never waited for (the old
 * code slept in stop_one_cpu() there: "scheduling while atomic").
 *
 * Which stopper moves the task is not fixed.  The changer installs its
 * pending and marks its stopper queued under the locks, but queues it only
 * after dropping them (affine_move_task(), as in Linux 5.15); a
 * migrate_enable() in between leaves the move to that stopper, which can
 * run after the task's 'done'.  So the task stays runnable until the change
 * completed: the stopper finds it queued and moves it, where one that
 * found it dead would only set its wake_cpu.
 */
struct atomic_enable {
	volatile bool pinned, changed, release, done, finished;
	int cpu_pinned, cpu_after;
	u64 migrations_pinned, migrations_after;
	struct task_struct *task;
};

static int atomic_enable_fn(void *data)
{
	struct atomic_enable *a = data;

	migrate_disable();
	a->cpu_pinned = smp_processor_id();
	a->migrations_pinned = current->se.nr_migrations;
	smp_store_release(&a->pinned, true);
	while (!smp_load_acquire(&a->release))
		cond_resched();
	preempt_disable();
	migrate_enable();
	preempt_enable();
	smp_store_release(&a->done, true);
	/* set_cpus_allowed_ptr() returned: the move is done. */
	while (!smp_load_acquire(&a->changed))
		cond_resched();
	a->cpu_after = raw_smp_processor_id();
	a->migrations_after = current->se.nr_migrations;
	smp_store_release(&a->finished, true);
	return 0;
}

static int change_affinity_fn(void *data)
{
	struct atomic_enable *a = data;

	/* Excludes the pinned task's CPU: waits for its migrate_enable(). */
	set_cpus_allowed_ptr(a->task, cpumask_of(a->cpu_pinned ? 0 : 1));
	smp_store_release(&a->changed, true);
	return 0;
}

static void migrate_enable_in_atomic_does_not_sleep(struct ktest *t)
{
	struct atomic_enable a = { };
	int bugs = atomic_read(&sched_bug_count);
	struct task_struct *changer;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs");
	a.task = ktest_kthread(atomic_enable_fn, &a, "pinned-atomic", -1, SCHED_NORMAL, 0);
	changer = ktest_kthread(change_affinity_fn, &a, "set-affinity", 0, SCHED_NORMAL, 0);
	KTEST_ASSERT_TRUE(t, a.task && changer);
	KTEST_ASSERT_EQ(t, set_cpus_allowed_ptr(a.task, cpumask_of(1)), 0);
	wake_up_process(a.task);
	ktest_wait_flag(&a.pinned);
	wake_up_process(changer);
	/* Release it only once the change is pending on it (not a guess at time). */
	while (!READ_ONCE(a.task->migration_pending))
		msleep(1);
	smp_store_release(&a.release, true);
	ktest_wait_flag(&a.done);
	ktest_wait_flag(&a.changed);
	ktest_wait_flag(&a.finished);
	KTEST_EXPECT_EQ(t, atomic_read(&sched_bug_count), bugs);
	/* Moved off the CPU it was pinned to, by a migration (every model). */
	KTEST_EXPECT_NE(t, a.cpu_after, a.cpu_pinned);
	KTEST_EXPECT_GT(t, a.migrations_after, a.migrations_pinned);
}

/* ------------------------------------------------------------ item 5 */

struct order_rec {
	int seq[2];
	int n;
	volatile bool go[2];
};

struct order_arg {
	struct order_rec *rec;
	int id;
};

static int record_order_fn(void *data)
{
	struct order_arg *a = data;

	a->rec->seq[__atomic_fetch_add(&a->rec->n, 1, __ATOMIC_SEQ_CST)] = a->id;
	return 0;
}

/*
 * Two FIFO 50 tasks queued behind us (FIFO 60) on CPU 0, first A then B;
 * @requeue touches A; when we sleep, A must still run first.
 */
static void check_keeps_place(struct ktest *t, void (*requeue)(struct ktest *t,
							  struct task_struct *a))
{
	struct order_rec rec = { };
	struct order_arg args[2] = { { &rec, 0 }, { &rec, 1 } };
	struct task_struct *p[2];

	ktest_set_fifo(60);
	KTEST_EXPECT_EQ(t, set_cpus_allowed_ptr(current, cpumask_of(0)), 0);
	for (int i = 0; i < 2; i++) {
		p[i] = ktest_kthread(record_order_fn, &args[i], i ? "order-b" : "order-a",
				     0, SCHED_FIFO, 50);
		KTEST_ASSERT_TRUE(t, p[i]);
	}
	wake_up_process(p[0]);
	wake_up_process(p[1]);
	requeue(t, p[0]);
	msleep(20);		/* both run now, in queue order */
	ktest_set_fifo(0);
	set_cpus_allowed_ptr(current, cpu_online_mask);
	KTEST_EXPECT_EQ(t, rec.n, 2);
	KTEST_EXPECT_EQ(t, rec.seq[0], 0);	/* A kept its place ahead of B */
	KTEST_EXPECT_EQ(t, rec.seq[1], 1);
}

static void requeue_by_affinity(struct ktest *t, struct task_struct *a)
{
	struct cpumask m;

	/* A different mask that still holds CPU 0: nothing moves A. */
	cpumask_clear(&m);
	cpumask_set_cpu(0, &m);
	cpumask_set_cpu(NR_CPUS - 1, &m);
	KTEST_EXPECT_EQ(t, set_cpus_allowed_ptr(a, &m), 0);
}

static void requeue_by_same_prio(struct ktest *t, struct task_struct *a)
{
	struct sched_param param = { .sched_priority = 50 };

	KTEST_EXPECT_EQ(t, sched_setscheduler_nocheck(a, SCHED_FIFO, &param), 0);
}

static void rt_affinity_change_keeps_queue_place(struct ktest *t)
{
	if (num_online_cpus() != 1)
		ktest_skip(t, "the order is only defined with one CPU");
	check_keeps_place(t, requeue_by_affinity);
}

static void rt_same_prio_setscheduler_keeps_queue_place(struct ktest *t)
{
	if (num_online_cpus() != 1)
		ktest_skip(t, "the order is only defined with one CPU");
	check_keeps_place(t, requeue_by_same_prio);
}

/* ------------------------------------------------------------ item 4 */

struct push_case {
	volatile bool pinned_started, pinned_done, hog_started, stop;
	volatile bool hog_saw_pinned_done;
	bool pinned_preempted;		/* switched out inside its pinned section */
	u64 deadline_ns;
};

static int pinned_rt_fn(void *data)
{
	struct push_case *c = data;
	unsigned long nivcsw;

	migrate_disable();
	nivcsw = current->nivcsw;
	smp_store_release(&c->pinned_started, true);
	/* Preempted here by the hog; needs its CPU back to finish. */
	while (!smp_load_acquire(&c->hog_started))
		cpu_relax();
	for (int i = 0; i < 1000; i++)
		cpu_relax();
	c->pinned_preempted = current->nivcsw != nivcsw;
	migrate_enable();
	smp_store_release(&c->pinned_done, true);
	return 0;
}

static int hog_rt_fn(void *data)
{
	struct push_case *c = data;

	smp_store_release(&c->hog_started, true);
	/* Spins until the pinned task finished, or gives up (a failure). */
	while (!smp_load_acquire(&c->pinned_done) && ktime_get_ns() < c->deadline_ns)
		cpu_relax();
	c->hog_saw_pinned_done = smp_load_acquire(&c->pinned_done);
	return 0;
}

static int low_rt_fn(void *data)
{
	msleep(1);		/* an RT task leaving CPU 1: the pull happens here */
	return 0;
}

static void pinned_rt_gets_cpu_back_by_push(struct ktest *t)
{
	struct push_case c = { };
	struct task_struct *pinned, *hog, *low;
	struct cpumask both;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs");
	if (!IS_ENABLED(CONFIG_PREEMPTION))
		ktest_skip(t, "the hog preempts the pinned task only on preemptible kernels");
	cpumask_clear(&both);
	cpumask_set_cpu(0, &both);
	cpumask_set_cpu(1, &both);
	c.deadline_ns = ktime_get_ns() + 10ULL * NSEC_PER_SEC;
	ktest_set_fifo(90);
	pinned = ktest_kthread(pinned_rt_fn, &c, "pinned-rt", 0, SCHED_FIFO, 50);
	hog = ktest_kthread(hog_rt_fn, &c, "hog-rt", 0, SCHED_FIFO, 60);
	low = ktest_kthread(low_rt_fn, &c, "low-rt", 1, SCHED_FIFO, 10);
	KTEST_ASSERT_TRUE(t, pinned && hog && low);
	/* Movable over both CPUs, but starting on CPU 0. */
	KTEST_EXPECT_EQ(t, set_cpus_allowed_ptr(pinned, &both), 0);
	KTEST_EXPECT_EQ(t, set_cpus_allowed_ptr(hog, &both), 0);
	set_cpus_allowed_ptr(current, cpumask_of(1));
	wake_up_process(pinned);
	ktest_wait_flag(&c.pinned_started);
	wake_up_process(hog);	/* preempts the pinned task on CPU 0 */
	ktest_wait_flag(&c.hog_started);
	wake_up_process(low);	/* CPU 1 drops from RT: pulls, and pushes the hog */
	ktest_set_fifo(0);
	set_cpus_allowed_ptr(current, cpu_online_mask);
	ktest_wait_flag(&c.pinned_done);
	while (!ktest_thread_gone(hog))
		msleep(1);
	KTEST_EXPECT_TRUE(t, c.hog_saw_pinned_done);	/* it did not wait for the hog */
	/*
	 * The hog did preempt the pinned task, and was moved (pushed; it may
	 * come back once CPU 0 is free, so where it ends proves nothing).
	 */
	KTEST_EXPECT_TRUE(t, c.pinned_preempted);
	KTEST_EXPECT_GE(t, hog->se.nr_migrations, 1);
}

/* ------------------------------------------------------------ item 2 */

struct remote_wake {
	volatile bool spinning, release;
	struct task_struct *sleeper;
};

static int sleeper_fn(void *data)
{
	return 0;
}

static int irqoff_spinner_fn(void *data)
{
	struct remote_wake *w = data;
	unsigned long flags;

	local_irq_save(flags);
	smp_store_release(&w->spinning, true);
	while (!smp_load_acquire(&w->release))
		cpu_relax();
	local_irq_restore(flags);
	return 0;
}

static void remote_wakeup_activates_directly(struct ktest *t)
{
	struct remote_wake w = { };
	struct task_struct *spinner;
	int queued;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs");
	set_cpus_allowed_ptr(current, cpumask_of(0));
	w.sleeper = ktest_kthread(sleeper_fn, &w, "remote-sleeper", 1, SCHED_NORMAL, 0);
	spinner = ktest_kthread(irqoff_spinner_fn, &w, "irqoff-spin", 1, SCHED_FIFO, 10);
	KTEST_ASSERT_TRUE(t, w.sleeper && spinner);
	wake_up_process(spinner);
	ktest_wait_flag(&w.spinning);
	/*
	 * CPU 1 has interrupts off: a wakeup left on its wake list would not
	 * be activated until they are back on.  Sharing a cache with us, it
	 * gets the task activated by this wakeup itself.
	 */
	KTEST_EXPECT_TRUE(t, cpus_share_cache(0, 1));
	wake_up_process(w.sleeper);
	queued = READ_ONCE(w.sleeper->on_rq);
	smp_store_release(&w.release, true);
	/* @w is on this stack: the spinner must be done reading it before we return. */
	while (!ktest_thread_gone(spinner))
		msleep(1);
	set_cpus_allowed_ptr(current, cpu_online_mask);
	KTEST_EXPECT_EQ(t, queued, 1);	/* TASK_ON_RQ_QUEUED when wake_up_process() returns */
}

/* ------------------------------------------------------------ cpupri */

struct spin_arg {
	volatile bool started, stop;
};

static int rt_spinner_fn(void *data)
{
	struct spin_arg *a = data;

	smp_store_release(&a->started, true);
	while (!smp_load_acquire(&a->stop))
		cpu_relax();
	return 0;
}

/*
 * find_lowest_rq() reads cpupri: each online CPU sits at the level of its
 * most important queued RT task (0: none), updated as tasks come and go.
 */
static void cpupri_tracks_rt_levels(struct ktest *t)
{
	struct spin_arg a = { };
	struct task_struct *p;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs");
	set_cpus_allowed_ptr(current, cpumask_of(0));
	KTEST_EXPECT_EQ(t, rt_cpupri_level(0), 0);
	p = ktest_kthread(rt_spinner_fn, &a, "cpupri-spin", 1, SCHED_FIFO, 50);
	KTEST_ASSERT_TRUE(t, p);
	wake_up_process(p);
	ktest_wait_flag(&a.started);
	KTEST_EXPECT_EQ(t, rt_cpupri_level(1), 50);
	ktest_set_fifo(70);
	KTEST_EXPECT_EQ(t, rt_cpupri_level(0), 70);
	ktest_set_fifo(0);
	KTEST_EXPECT_EQ(t, rt_cpupri_level(0), 0);
	smp_store_release(&a.stop, true);
	while (!ktest_thread_gone(p))
		msleep(1);
	KTEST_EXPECT_EQ(t, rt_cpupri_level(1), 0);
	if (nr_cpu_ids < NR_CPUS)	/* the last slot is only empty below NR_CPUS vCPUs */
		KTEST_EXPECT_EQ(t, rt_cpupri_level(NR_CPUS - 1), -1);
	set_cpus_allowed_ptr(current, cpu_online_mask);
}

static struct ktest_case sched_affinity_cases[] = {
#ifdef CONFIG_TRACE_IRQSOFF
	KTEST_CASE(migrate_enable_unpreempted_opens_no_irqoff),
#endif
	KTEST_CASE(set_affinity_self_while_pinned_is_ebusy),
	KTEST_CASE(migrate_enable_in_atomic_does_not_sleep),
	KTEST_CASE(rt_affinity_change_keeps_queue_place),
	KTEST_CASE(rt_same_prio_setscheduler_keeps_queue_place),
	KTEST_CASE(pinned_rt_gets_cpu_back_by_push),
	KTEST_CASE(remote_wakeup_activates_directly),
	KTEST_CASE(cpupri_tracks_rt_levels),
	{}
};

static struct ktest_suite sched_affinity_suite = {
	.name = "sched_affinity",
	.cases = sched_affinity_cases,
};
ktest_register_suite(sched_affinity_suite);
