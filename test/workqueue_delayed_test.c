// SPDX-License-Identifier: GPL-2.0
/*
 * Delayed work: runs on the requested CPU no earlier than its delay, is
 * pending (and not queued again) while its timer is armed, and is stopped
 * by cancel_delayed_work_sync() or run at once by flush_delayed_work().
 *
 * Needs <linux/hrtimer.h>; add test/workqueue_delayed_test.o to test/Kbuild
 * together with kernel/workqueue_delayed.o in kernel/Kbuild.
 */
#include <linux/ktest.h>
#include <linux/workqueue.h>
#include <linux/completion.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/delay.h>
#include <linux/cpumask.h>

struct dprobe {
	struct delayed_work dwork;
	struct completion begun, ran;
	int runs, cpu;
	bool kthread;
	char comm[TASK_COMM_LEN];
	unsigned int spin_ms;
	volatile bool hold;		/* then spin until cleared (5 s at most) */
	u64 ran_ns;
	volatile bool finished;
};

static void dprobe_fn(struct work_struct *work)
{
	struct dprobe *p = container_of(to_delayed_work(work), struct dprobe, dwork);

	p->ran_ns = ktime_get_ns();
	complete(&p->begun);
	p->cpu = smp_processor_id();
	p->kthread = current->flags & PF_KTHREAD;
	memcpy(p->comm, current->comm, TASK_COMM_LEN);
	if (p->spin_ms)
		mdelay(p->spin_ms);
	for (int i = 0; i < 5000 && READ_ONCE(p->hold); i++)
		mdelay(1);
	p->runs++;
	WRITE_ONCE(p->finished, true);
	complete(&p->ran);
}

static void dprobe_init(struct dprobe *p, unsigned int spin_ms)
{
	memset(p, 0, sizeof(*p));
	INIT_DELAYED_WORK(&p->dwork, dprobe_fn);
	init_completion(&p->begun);
	init_completion(&p->ran);
	p->cpu = -1;
	p->spin_ms = spin_ms;
}

static void runs_after_delay_on_cpu(struct ktest *t)
{
	int cpu;

	for_each_online_cpu(cpu) {
		struct dprobe p;
		char want[TASK_COMM_LEN];
		u64 start;

		dprobe_init(&p, 0);
		start = ktime_get_ns();
		KTEST_EXPECT_TRUE(t, schedule_delayed_work_on(cpu, &p.dwork,
							      msecs_to_jiffies(20)));
		wait_for_completion(&p.ran);
		flush_delayed_work(&p.dwork);
		snprintf(want, sizeof(want), "kworker/%d:", cpu);	/* any worker */
		KTEST_EXPECT_GE(t, p.ran_ns - start, 20 * NSEC_PER_MSEC);
		KTEST_EXPECT_LT(t, p.ran_ns - start, 2000 * NSEC_PER_MSEC);
		KTEST_EXPECT_EQ(t, p.cpu, cpu);
		KTEST_EXPECT_TRUE(t, p.kthread);
		KTEST_EXPECT_TRUE(t, !strncmp(p.comm, want, strlen(want)));
		KTEST_EXPECT_NE(t, p.comm[strlen(p.comm) - 1], 'H');
		KTEST_EXPECT_EQ(t, p.runs, 1);
	}
}

/*
 * Held until we sleep in flush_work(): with a fixed 20 ms run a host
 * stall of the test thread under TCG could let it finish first, and the
 * flush then rightly found it idle.
 */
static void zero_delay_queues_at_once(struct ktest *t)
{
	static struct dprobe p;	/* the releaser's, should the flush not wait */

	dprobe_init(&p, 0);
	p.hold = true;
	KTEST_EXPECT_TRUE(t, schedule_delayed_work_on(cpumask_last(cpu_online_mask), &p.dwork, 0));
	ktest_release_when_asleep(current, &p.hold);
	KTEST_EXPECT_TRUE(t, flush_work(&p.dwork.work));
	KTEST_EXPECT_EQ(t, p.runs, 1);
}

static void pending_while_armed(struct ktest *t)
{
	struct dprobe p;
	int cpu = cpumask_last(cpu_online_mask);

	dprobe_init(&p, 0);
	KTEST_EXPECT_TRUE(t, schedule_delayed_work_on(cpu, &p.dwork, msecs_to_jiffies(20)));
	KTEST_EXPECT_TRUE(t, delayed_work_pending(&p.dwork));
	KTEST_EXPECT_FALSE(t, schedule_delayed_work_on(cpu, &p.dwork, 0));
	KTEST_EXPECT_FALSE(t, schedule_work_on(cpu, &p.dwork.work));
	wait_for_completion(&p.ran);
	flush_delayed_work(&p.dwork);
	mdelay(30);			/* a second instance would have run by now */
	KTEST_EXPECT_EQ(t, p.runs, 1);
	KTEST_EXPECT_FALSE(t, delayed_work_pending(&p.dwork));
}

static void cancel_armed(struct ktest *t)
{
	struct dprobe p;

	dprobe_init(&p, 0);
	KTEST_EXPECT_FALSE(t, cancel_delayed_work_sync(&p.dwork));	/* idle */
	KTEST_EXPECT_TRUE(t, schedule_delayed_work_on(cpumask_last(cpu_online_mask), &p.dwork,
						      msecs_to_jiffies(30)));
	KTEST_EXPECT_TRUE(t, cancel_delayed_work_sync(&p.dwork));
	KTEST_EXPECT_FALSE(t, delayed_work_pending(&p.dwork));
	mdelay(60);
	KTEST_EXPECT_EQ(t, p.runs, 0);
	/* usable again */
	KTEST_EXPECT_TRUE(t, schedule_delayed_work_on(cpumask_last(cpu_online_mask), &p.dwork, 1));
	wait_for_completion(&p.ran);
	KTEST_EXPECT_EQ(t, p.runs, 1);
	flush_delayed_work(&p.dwork);
}

/*
 * The item runs until the test thread sleeps in the cancel: a fixed
 * 30 ms could end before a host-stalled test thread (TCG) had looked,
 * and then nothing was running.
 */
static void cancel_running(struct ktest *t)
{
	static struct dprobe p;	/* the releaser's, should the cancel not wait */

	dprobe_init(&p, 0);
	p.hold = true;
	schedule_delayed_work_on(cpumask_last(cpu_online_mask), &p.dwork, 1);
	wait_for_completion(&p.begun);
	KTEST_EXPECT_FALSE(t, p.finished);
	ktest_release_when_asleep(current, &p.hold);
	KTEST_EXPECT_FALSE(t, cancel_delayed_work_sync(&p.dwork));
	KTEST_EXPECT_TRUE(t, p.finished);
	KTEST_EXPECT_EQ(t, p.runs, 1);
}

static void flush_runs_armed_now(struct ktest *t)
{
	struct dprobe p;
	u64 start;

	/* spins: an idle worker of the pool cannot finish it before we look */
	dprobe_init(&p, 20);
	start = ktime_get_ns();
	KTEST_EXPECT_TRUE(t, schedule_delayed_work_on(cpumask_last(cpu_online_mask), &p.dwork,
						      msecs_to_jiffies(5000)));
	KTEST_EXPECT_TRUE(t, flush_delayed_work(&p.dwork));
	KTEST_EXPECT_EQ(t, p.runs, 1);
	KTEST_EXPECT_EQ(t, p.cpu, cpumask_last(cpu_online_mask));
	KTEST_EXPECT_LT(t, ktime_get_ns() - start, 1000 * NSEC_PER_MSEC);
	KTEST_EXPECT_FALSE(t, delayed_work_pending(&p.dwork));
	KTEST_EXPECT_FALSE(t, flush_delayed_work(&p.dwork));		/* idle */
}

static struct ktest_case workqueue_delayed_cases[] = {
	KTEST_CASE(runs_after_delay_on_cpu),
	KTEST_CASE(zero_delay_queues_at_once),
	KTEST_CASE(pending_while_armed),
	KTEST_CASE(cancel_armed),
	KTEST_CASE(cancel_running),
	KTEST_CASE(flush_runs_armed_now),
	{}
};

static struct ktest_suite workqueue_delayed_suite = {
	.name = "workqueue_delayed", .cases = workqueue_delayed_cases,
};
ktest_register_suite(workqueue_delayed_suite);
