// SPDX-License-Identifier: GPL-2.0
/*
 * Softirqs raised in a hard interrupt run on the same CPU: at irq_exit()
 * in interrupt context on !PREEMPT_RT, in the ksoftirqd thread on
 * PREEMPT_RT, where a higher-priority RT task can preempt them.  A
 * bottom-half-disabled section defers them to local_bh_enable().
 */
#include <linux/ktest.h>
#include <linux/interrupt.h>
#include <linux/clockchips.h>
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/kthread.h>
#include <linux/delay.h>
#include <linux/smp.h>

void tick_suspend_local(void);
void tick_resume_local(void);
DECLARE_PER_CPU(struct task_struct *, ksoftirqd);

#define TEST_SOFTIRQ	IRQ_POLL_SOFTIRQ	/* unused by irqlab otherwise */

struct sirq_seen {
	int runs, cpu, raised_cpu;
	bool serving, in_thread;
	bool saw_rt_run;		/* an RT task ran while this action was running */
	u64 spin_ns;			/* upper bound on the action's spin */
	volatile bool release;		/* ends the spin early */
	volatile bool done;
	volatile bool *rt_ran;
	int reraise;			/* raise TEST_SOFTIRQ again this many times */
	bool resched;			/* ask for a reschedule in the first run */
	struct task_struct *ctx[2];	/* who ran the first two runs */
};

static struct sirq_seen seen;

static void test_action(struct softirq_action *h)
{
	u64 start = ktime_get_ns();

	seen.runs++;
	if (seen.runs <= 2)
		seen.ctx[seen.runs - 1] = current;
	if (seen.runs == 1 && seen.resched)
		set_tsk_need_resched(current);
	if (seen.reraise > 0) {
		seen.reraise--;
		raise_softirq(TEST_SOFTIRQ);
	}
	seen.cpu = smp_processor_id();
	seen.serving = in_serving_softirq();
	seen.in_thread = current == this_cpu_read(ksoftirqd);
	while (seen.spin_ns && !seen.release && ktime_get_ns() - start < seen.spin_ns)
		cpu_relax();
	/*
	 * Still inside the action: had the probe (bound to this CPU) run yet?
	 * Checked here, not in the loop, since the release can come between
	 * the probe running and this thread getting the CPU back.
	 */
	if (seen.rt_ran && *seen.rt_ran)
		seen.saw_rt_run = true;
	seen.done = true;
}

static void raise_from_irq(struct clock_event_device *evt)
{
	seen.raised_cpu = smp_processor_id();
	raise_softirq_irqoff(TEST_SOFTIRQ);
}

/* Raise TEST_SOFTIRQ from this CPU's timer interrupt and wait for it to run. */
static void raise_in_hardirq(void)
{
	struct clock_event_device *evt;
	unsigned long flags;

	tick_suspend_local();
	local_irq_save(flags);
	evt = this_cpu_clockevent();
	evt->event_handler = raise_from_irq;
	clockevents_program_event(evt, ktime_get_ns() + 50 * NSEC_PER_USEC, true);
	local_irq_restore(flags);
}

static int softirq_init(struct ktest *t)
{
	memset(&seen, 0, sizeof(seen));
	open_softirq(TEST_SOFTIRQ, test_action);
	return 0;
}

static void softirq_exit(struct ktest *t)
{
	open_softirq(TEST_SOFTIRQ, NULL);
}

static bool ksoftirqd_asleep(struct task_struct *k)
{
	for (int i = 0; i < 10000 && READ_ONCE(k->__state) == TASK_RUNNING; i++)
		yield();
	return READ_ONCE(k->__state) != TASK_RUNNING;
}

static void raised_in_irq_runs_on_same_cpu(struct ktest *t)
{
	/* !RT: a runnable ksoftirqd would be handed the work (ksoftirqd_running()). */
	KTEST_ASSERT_TRUE(t, ksoftirqd_asleep(this_cpu_read(ksoftirqd)));
	seen.raised_cpu = -1;
	migrate_disable();
	raise_in_hardirq();
	for (int i = 0; i < 100000 && READ_ONCE(seen.raised_cpu) < 0; i++)
		udelay(10);
	tick_resume_local();
	migrate_enable();
	/* On RT it runs in ksoftirqd: give the CPU up while waiting. */
	for (int i = 0; i < 100000 && !READ_ONCE(seen.runs); i++)
		yield();
	KTEST_ASSERT_EQ(t, seen.runs, 1);
	KTEST_EXPECT_EQ(t, seen.cpu, seen.raised_cpu);
	KTEST_EXPECT_TRUE(t, seen.serving);
#ifdef CONFIG_PREEMPT_RT
	KTEST_EXPECT_TRUE(t, seen.in_thread);		/* ksoftirqd, task context */
#else
	KTEST_EXPECT_FALSE(t, seen.in_thread);		/* at irq_exit(), on the interrupted task */
#endif
}

static void bh_disabled_defers(struct ktest *t)
{
	local_bh_disable();
	raise_softirq(TEST_SOFTIRQ);
	udelay(500);
	KTEST_EXPECT_EQ(t, READ_ONCE(seen.runs), 0);	/* not while bottom halves are off */
	local_bh_enable();
	for (int i = 0; i < 10000 && !READ_ONCE(seen.runs); i++)
		udelay(10);
	KTEST_EXPECT_EQ(t, seen.runs, 1);
}

#ifdef CONFIG_PREEMPT_RT
#define PROBE_WAIT_US	1000000		/* the probe preempts the action */
#else
#define PROBE_WAIT_US	20000		/* it cannot: give it 20 ms */
#endif

struct rt_probe {
	volatile bool ran;
};

static int rt_probe_fn(void *data)
{
	struct rt_probe *pr = data;

	smp_store_release(&pr->ran, true);
	return 0;
}

/* Runs in the IPI handler on the target CPU: a hard-interrupt raise. */
static void raise_in_ipi(void *unused)
{
	seen.raised_cpu = smp_processor_id();
	raise_softirq_irqoff(TEST_SOFTIRQ);
}

/*
 * On RT a softirq is a thread: an RT task woken on its CPU runs while the
 * action is still spinning.  On !RT the action runs with the CPU to itself.
 * The action spins until released (at most a second), not for a fixed
 * time, so that a host stalling the vCPU cannot end it before the wakeup.
 */
static void rt_task_preempts_softirq(struct ktest *t)
{
	int cpu = num_online_cpus() > 1 ? 1 : -1;
	struct rt_probe pr = { };
	struct sched_param sp = { .sched_priority = 50 };
	struct task_struct *rt;

	if (cpu < 0)
		ktest_skip(t, "needs 2 CPUs");
	seen.spin_ns = NSEC_PER_SEC;
	seen.rt_ran = &pr.ran;
	rt = kthread_create(rt_probe_fn, &pr, "rt-probe");
	KTEST_ASSERT_TRUE(t, rt);
	kthread_bind(rt, cpu);
	sched_setscheduler_nocheck(rt, SCHED_FIFO, &sp);
	smp_call_function_single(cpu, raise_in_ipi, NULL, 0);
	for (int i = 0; i < 100000 && !READ_ONCE(seen.runs); i++)
		udelay(10);
	wake_up_process(rt);	/* the action is spinning now */
	for (int i = 0; i < PROBE_WAIT_US / 10 && !smp_load_acquire(&pr.ran); i++)
		udelay(10);
	seen.release = true;
	for (int i = 0; i < 100000 && !(seen.done && smp_load_acquire(&pr.ran)); i++)
		udelay(10);
	KTEST_ASSERT_TRUE(t, seen.done);
	KTEST_ASSERT_EQ(t, seen.runs, 1);
	KTEST_EXPECT_EQ(t, seen.cpu, cpu);
	KTEST_EXPECT_TRUE(t, pr.ran);
#ifdef CONFIG_PREEMPT_RT
	KTEST_EXPECT_TRUE(t, seen.saw_rt_run);
#else
	KTEST_EXPECT_FALSE(t, seen.saw_rt_run);
#endif
}

/* ------------------------------------------------ BH sections per CPU */

struct bh_holder {
	u64 hold_ns, t_enable;
	int min_prio, own_prio;
	volatile bool holds, done;
};

static struct bh_holder bhh;
static volatile u64 bh_t_start, bh_t_got;
static volatile bool bh_waiter_done;

static int bh_holder_fn(void *data)
{
	u64 end;

	local_bh_disable();
	bhh.own_prio = bhh.min_prio = current->prio;
	smp_store_release(&bhh.holds, true);
	end = ktime_get_ns() + bhh.hold_ns;
	/*
	 * RT: hold on until the waiter's boost is seen (2 s more at most): a
	 * host stall of a vCPU under TCG can eat the whole 50 ms before the
	 * waiter has come for the BH lock.
	 */
	while (ktime_get_ns() < end ||
	       (IS_ENABLED(CONFIG_PREEMPT_RT) && bhh.min_prio == bhh.own_prio &&
		ktime_get_ns() < end + 2 * NSEC_PER_SEC)) {
		if (current->prio < bhh.min_prio)
			bhh.min_prio = current->prio;
		cpu_relax();
	}
	bhh.t_enable = ktime_get_ns();
	local_bh_enable();
	smp_store_release(&bhh.done, true);
	return 0;
}

static int bh_waiter_fn(void *data)
{
	bh_t_start = ktime_get_ns();
	local_bh_disable();
	bh_t_got = ktime_get_ns();
	local_bh_enable();
	smp_store_release(&bh_waiter_done, true);
	return 0;
}

/*
 * One bottom-half section per CPU at a time.  !RT: the section is not
 * preemptible, so a FIFO task of that CPU runs only after it.  RT: the
 * FIFO task preempts the section but blocks on the CPU's BH lock
 * (softirq_ctrl.lock), boosting the holder, until the section ends.
 */
static void bh_sections_serialise_per_cpu(struct ktest *t)
{
	struct task_struct *h, *w;
	int cpu = num_online_cpus() > 1 ? 1 : -1;

	if (cpu < 0)
		ktest_skip(t, "needs 2 CPUs");
	memset(&bhh, 0, sizeof(bhh));
	bh_waiter_done = false;
	bhh.hold_ns = 50 * NSEC_PER_MSEC;
	ktest_set_fifo(95);
	h = ktest_kthread(bh_holder_fn, NULL, "bh-holder", cpu, SCHED_NORMAL, 0);
	w = ktest_kthread(bh_waiter_fn, NULL, "bh-waiter", cpu, SCHED_FIFO, 50);
	KTEST_ASSERT_TRUE(t, h && w);
	wake_up_process(h);
	ktest_wait_flag(&bhh.holds);
	wake_up_process(w);
	ktest_wait_flag(&bhh.done);
	ktest_wait_flag(&bh_waiter_done);
	ktest_set_fifo(0);

	KTEST_EXPECT_GE(t, bh_t_got, bhh.t_enable);
#ifdef CONFIG_PREEMPT_RT
	KTEST_EXPECT_LT(t, bh_t_start, bhh.t_enable);
	KTEST_EXPECT_EQ(t, bhh.min_prio, MAX_RT_PRIO - 1 - 50);
#else
	KTEST_EXPECT_GE(t, bh_t_start, bhh.t_enable);
#endif
}

/* ------------------------------------------------ leaving work to ksoftirqd */

/*
 * An action that raises itself again while a task waits for the CPU
 * (need_resched): __do_softirq() does not go round again, ksoftirqd gets
 * the second run.  The first runs where the BH section ends, in this task.
 */
static void restart_stops_on_need_resched(struct ktest *t)
{
	struct task_struct *k = this_cpu_read(ksoftirqd);

	KTEST_ASSERT_TRUE(t, k && ksoftirqd_asleep(k));
	seen.reraise = 1;
	seen.resched = true;
	local_bh_disable();
	raise_softirq(TEST_SOFTIRQ);
	local_bh_enable();
	for (int i = 0; i < 100000 && READ_ONCE(seen.runs) < 2; i++)
		yield();
	KTEST_ASSERT_EQ(t, seen.runs, 2);
	KTEST_EXPECT_TRUE(t, seen.ctx[0] == current);
	KTEST_EXPECT_TRUE(t, seen.ctx[1] == k);
}

/*
 * Once ksoftirqd is runnable, pending softirqs (other than HI and TASKLET)
 * are its job: neither local_bh_enable() nor irq_exit() runs them
 * meanwhile.  This task is made SCHED_FIFO so that ksoftirqd, woken on
 * this CPU, cannot run before we look.
 */
static void runnable_ksoftirqd_gets_the_work(struct ktest *t)
{
	struct task_struct *k = this_cpu_read(ksoftirqd);
	int runs_meanwhile;

	KTEST_ASSERT_TRUE(t, k && ksoftirqd_asleep(k));
	ktest_set_fifo(50);
	wake_up_process(k);
	local_bh_disable();
	raise_softirq(TEST_SOFTIRQ);
	local_bh_enable();
	udelay(10000);			/* ticks come and go: irq_exit() leaves it too */
	runs_meanwhile = READ_ONCE(seen.runs);
	ktest_set_fifo(0);
	for (int i = 0; i < 100000 && !READ_ONCE(seen.runs); i++)
		yield();
	KTEST_EXPECT_EQ(t, runs_meanwhile, 0);
	KTEST_ASSERT_EQ(t, seen.runs, 1);
	KTEST_EXPECT_TRUE(t, seen.in_thread);
}

/*
 * A ksoftirqd that kthread_park() has woken (its CPU is going down) is
 * runnable, but only to park: it parks before it looks at pending work.
 * So it does not get the work (Linux 5.15's !__kthread_should_park() in
 * ksoftirqd_running()): local_bh_enable() runs it here and now.  The park
 * request is set by hand and withdrawn before ksoftirqd can run, which it
 * cannot while this task is SCHED_FIFO on its CPU.
 */
static void parking_ksoftirqd_does_not_get_the_work(struct ktest *t)
{
	struct task_struct *k;
	int runs_here;
	bool asleep;

	migrate_disable();
	k = this_cpu_read(ksoftirqd);
	asleep = k && ksoftirqd_asleep(k);
	if (!asleep)
		migrate_enable();
	KTEST_ASSERT_TRUE(t, asleep);
	ktest_set_fifo(50);
	WRITE_ONCE(k->should_park, true);
	wake_up_process(k);
	local_bh_disable();
	raise_softirq(TEST_SOFTIRQ);
	local_bh_enable();
	runs_here = READ_ONCE(seen.runs);
	WRITE_ONCE(k->should_park, false);
	ktest_set_fifo(0);
	migrate_enable();
	for (int i = 0; i < 100000 && !READ_ONCE(seen.runs); i++)
		yield();
	KTEST_EXPECT_EQ(t, runs_here, 1);
	KTEST_ASSERT_EQ(t, seen.runs, 1);
	KTEST_EXPECT_TRUE(t, seen.ctx[0] == current);
}

static struct ktest_case softirq_cases[] = {
	KTEST_CASE(raised_in_irq_runs_on_same_cpu),
	KTEST_CASE(bh_disabled_defers),
	KTEST_CASE(rt_task_preempts_softirq),
	KTEST_CASE(bh_sections_serialise_per_cpu),
	KTEST_CASE(restart_stops_on_need_resched),
	KTEST_CASE(runnable_ksoftirqd_gets_the_work),
	KTEST_CASE(parking_ksoftirqd_does_not_get_the_work),
	{}
};

static struct ktest_suite softirq_suite = {
	.name = "softirq", .cases = softirq_cases,
	.init = softirq_init, .exit = softirq_exit,
};
ktest_register_suite(softirq_suite);
