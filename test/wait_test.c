// SPDX-License-Identifier: GPL-2.0
/*
 * Wait queues and completions: sleepers wake when the condition is set,
 * exclusive waiters wake one at a time, complete() works from a hard
 * interrupt, complete_all() releases everyone, completions count.
 */
#include <linux/ktest.h>
#include <linux/wait.h>
#include <linux/completion.h>
#include <linux/sched.h>
#include <linux/kthread.h>
#include <linux/delay.h>
#include <linux/smp.h>

static DECLARE_WAIT_QUEUE_HEAD(test_wq);
static volatile bool go;
static int finished;

struct waiter {
	unsigned long nvcsw_before, slept;
	bool exclusive;
	struct completion *c;
};

static int wq_waiter_fn(void *data)
{
	struct waiter *w = data;

	w->nvcsw_before = current->nvcsw;
	if (w->exclusive)
		wait_event_exclusive(test_wq, READ_ONCE(go));
	else
		wait_event(test_wq, READ_ONCE(go));
	w->slept = current->nvcsw - w->nvcsw_before;
	__atomic_fetch_add(&finished, 1, __ATOMIC_SEQ_CST);
	return 0;
}

static int completion_waiter_fn(void *data)
{
	struct waiter *w = data;

	wait_for_completion(w->c);
	__atomic_fetch_add(&finished, 1, __ATOMIC_SEQ_CST);
	return 0;
}

static void wait_finished(int n)
{
	for (int i = 0; i < 200000 && READ_ONCE(finished) < n; i++)
		udelay(10);
}

/* Start @n waiters and return once every one of them is asleep. */
static void start_waiters(struct waiter *w, int n, int (*fn)(void *))
{
	struct task_struct *p[4];

	go = false;
	finished = 0;
	for (int i = 0; i < n; i++)
		p[i] = kthread_run(fn, &w[i], "waiter");
	for (int i = 0; i < n; i++)
		for (int tries = 0; tries < 100000; tries++) {
			/* Asleep on the queue: the state is set after queueing. */
			if (p[i] && READ_ONCE(p[i]->__state) == TASK_UNINTERRUPTIBLE &&
			    !READ_ONCE(p[i]->on_rq))
				break;
			yield();	/* they may need this CPU to get there */
		}
}

static void wait_event_sleeps_until_condition(struct ktest *t)
{
	struct waiter w[1] = { { .exclusive = false } };

	start_waiters(w, 1, wq_waiter_fn);
	KTEST_EXPECT_EQ(t, READ_ONCE(finished), 0);
	KTEST_EXPECT_TRUE(t, wq_has_sleeper(&test_wq));
	WRITE_ONCE(go, true);
	wake_up(&test_wq);
	wait_finished(1);
	KTEST_EXPECT_EQ(t, finished, 1);
	KTEST_EXPECT_GE(t, w[0].slept, 1);		/* it really slept */
	KTEST_EXPECT_FALSE(t, wq_has_sleeper(&test_wq));
}

static void exclusive_waiters_wake_one_by_one(struct ktest *t)
{
	struct waiter w[3] = { { .exclusive = true }, { .exclusive = true },
			       { .exclusive = true } };

	start_waiters(w, 3, wq_waiter_fn);
	WRITE_ONCE(go, true);
	wake_up(&test_wq);		/* one exclusive waiter */
	wait_finished(1);
	udelay(5000);
	KTEST_EXPECT_EQ(t, READ_ONCE(finished), 1);	/* the others were not woken */
	wake_up_all(&test_wq);
	wait_finished(3);
	KTEST_EXPECT_EQ(t, finished, 3);
}

static bool completed_in_hardirq;

static void complete_from_hard_irq(void *data)
{
	completed_in_hardirq = in_hardirq() || smp_processor_id() == 0;
	complete(data);
}

static void completion_from_interrupt(struct ktest *t)
{
	struct completion c;
	struct waiter w[1];
	int cpu = num_online_cpus() > 1 ? 1 : 0;

	init_completion(&c);
	w[0].c = &c;
	start_waiters(w, 1, completion_waiter_fn);
	KTEST_EXPECT_EQ(t, READ_ONCE(finished), 0);
	/* The IPI handler runs in hard-IRQ context on the target CPU. */
	smp_call_function_single(cpu, complete_from_hard_irq, &c, 1);
	wait_finished(1);
	KTEST_EXPECT_EQ(t, finished, 1);
	KTEST_EXPECT_TRUE(t, completed_in_hardirq);
	KTEST_EXPECT_FALSE(t, completion_done(&c));	/* the waiter consumed it */
}

static void complete_all_releases_everyone(struct ktest *t)
{
	struct completion c;
	struct waiter w[3];

	init_completion(&c);
	for (int i = 0; i < 3; i++)
		w[i].c = &c;
	start_waiters(w, 3, completion_waiter_fn);
	complete_all(&c);
	wait_finished(3);
	KTEST_EXPECT_EQ(t, finished, 3);
	wait_for_completion(&c);			/* stays done */
	KTEST_EXPECT_TRUE(t, completion_done(&c));
}

static void completions_count(struct ktest *t)
{
	DECLARE_COMPLETION(c);

	KTEST_EXPECT_FALSE(t, try_wait_for_completion(&c));
	complete(&c);
	complete(&c);
	KTEST_EXPECT_TRUE(t, try_wait_for_completion(&c));
	KTEST_EXPECT_TRUE(t, try_wait_for_completion(&c));
	KTEST_EXPECT_FALSE(t, try_wait_for_completion(&c));
	reinit_completion(&c);
	KTEST_EXPECT_FALSE(t, completion_done(&c));
}

static struct ktest_case wait_cases[] = {
	KTEST_CASE(wait_event_sleeps_until_condition),
	KTEST_CASE(exclusive_waiters_wake_one_by_one),
	KTEST_CASE(completion_from_interrupt),
	KTEST_CASE(complete_all_releases_everyone),
	KTEST_CASE(completions_count),
	{}
};

static struct ktest_suite wait_suite = { .name = "wait", .cases = wait_cases };
ktest_register_suite(wait_suite);
