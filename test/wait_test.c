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
#include <linux/swait.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <asm/apic.h>
#include <asm/irq_vectors.h>

static DECLARE_WAIT_QUEUE_HEAD(test_wq);
static volatile bool go;
static int finished;

struct waiter {
	unsigned long nvcsw_before, slept;
	bool exclusive;
	struct completion *c;
	struct task_struct *task;
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
	u64 end;

	go = false;
	finished = 0;
	for (int i = 0; i < n; i++)
		p[i] = kthread_run(fn, &w[i], "waiter");
	/*
	 * A bound in guest time, not in yields: a waiter on another vCPU
	 * that the host does not run for a while takes that long to get to
	 * sleep, however fast this CPU yields (then the case would wake it
	 * before it slept and it would not sleep at all).
	 */
	end = ktime_get_ns() + 10 * NSEC_PER_SEC;
	for (int i = 0; i < n; i++)
		while (ktime_get_ns() < end) {
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

static struct swait_queue_head test_swq = __SWAIT_QUEUE_HEAD_INITIALIZER(test_swq);

static int swait_waiter_fn(void *data)
{
	struct swait_queue wait = { .task = current,
				    .task_list = LIST_HEAD_INIT(wait.task_list) };
	struct waiter *w = data;

	w->task = current;
	for (;;) {
		prepare_to_swait_exclusive(&test_swq, &wait, TASK_UNINTERRUPTIBLE);
		if (READ_ONCE(go))
			break;
		schedule();
	}
	finish_swait(&test_swq, &wait);
	__atomic_fetch_add(&finished, 1, __ATOMIC_SEQ_CST);
	return 0;
}

static struct waiter swq_waiters[3];
static int swq_asleep_in_irq = -1;

static enum hrtimer_restart swq_count_sleepers(struct hrtimer *timer)
{
	int n = 0;

	for (int i = 0; i < 3; i++)
		n += READ_ONCE(swq_waiters[i].task->__state) == TASK_UNINTERRUPTIBLE;
	swq_asleep_in_irq = n;
	return HRTIMER_NORESTART;
}

static bool timer_irq_pending(void)
{
	unsigned int v = LOCAL_TIMER_VECTOR;

	return apic_read(APIC_IRR + 0x10 * (v / 32)) & (1U << (v % 32));
}

/*
 * swake_up_all() lets interrupts in between wakeups.  A timer interrupt is
 * made pending before the call (interrupts off), so it is taken at the
 * first point where swake_up_all() enables interrupts: after the first of
 * three wakeups, not after the last.  Without PREEMPT_COUNT the unlock's
 * sti is followed directly by the next lock's cli, and x86 takes no
 * interrupt in the shadow of an sti: there (as in Linux) only other CPUs
 * get in between, which this case cannot time.
 */
static void swake_up_all_irqs_on_between(struct ktest *t)
{
	struct hrtimer timer;
	bool pending = false;

	if (!IS_ENABLED(CONFIG_PREEMPT_COUNT))
		ktest_skip(t, "sti; cli back to back without PREEMPT_COUNT");
	memset(swq_waiters, 0, sizeof(swq_waiters));
	go = false;
	finished = 0;
	/* On this CPU, below us: woken ones stay TASK_RUNNING, not yet running. */
	for (int i = 0; i < 3; i++) {
		struct task_struct *p = ktest_kthread(swait_waiter_fn, &swq_waiters[i], "swaiter",
						      smp_processor_id(), SCHED_NORMAL, 0);

		KTEST_ASSERT_TRUE(t, p);
		wake_up_process(p);
		for (int tries = 0; tries < 100000; tries++) {
			if (READ_ONCE(p->__state) == TASK_UNINTERRUPTIBLE && !READ_ONCE(p->on_rq))
				break;
			yield();
		}
		KTEST_ASSERT_TRUE(t, swq_waiters[i].task == p);
	}
	ktest_set_fifo(50);
	WRITE_ONCE(go, true);
	swq_asleep_in_irq = -1;
	hrtimer_init(&timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	timer.function = swq_count_sleepers;
	local_irq_disable();
	hrtimer_start(&timer, 0, HRTIMER_MODE_REL_HARD);
	for (int i = 0; i < 100000 && !pending; i++) {
		udelay(10);
		pending = timer_irq_pending();
	}
	swake_up_all(&test_swq);
	local_irq_enable();
	ktest_set_fifo(0);
	hrtimer_cancel(&timer);
	wait_finished(3);
	KTEST_ASSERT_TRUE(t, pending);
	KTEST_EXPECT_EQ(t, finished, 3);
	KTEST_EXPECT_EQ(t, swq_asleep_in_irq, 2);
	KTEST_EXPECT_TRUE(t, list_empty(&test_swq.task_list));
}

/*
 * A wake_up_all() of a long queue drops the queue's lock (and, on !RT,
 * turns interrupts back on) every WAITQUEUE_WALK_BREAK_CNT + 1 entries.
 * The first wake function makes a timer interrupt pending while the walk
 * holds the lock with interrupts off; the interrupt comes in at the first
 * release and records how many entries had been woken by then.  The
 * entries are plain wake functions, not tasks: this is about the walk.
 */
#define WALK_ENTRIES	200

static struct wait_queue_entry walk_entries[WALK_ENTRIES];
static int walk_woken, walk_woken_in_irq = -1;
static struct hrtimer walk_timer;

static int walk_wake_fn(struct wait_queue_entry *wq_entry, unsigned int mode,
			int flags, void *key)
{
	if (walk_woken++ == 0) {
		hrtimer_start(&walk_timer, 0, HRTIMER_MODE_REL_HARD);
		for (int i = 0; i < 100000 && !timer_irq_pending(); i++)
			udelay(10);
	}
	return 1;
}

static enum hrtimer_restart walk_count_in_irq(struct hrtimer *timer)
{
	walk_woken_in_irq = walk_woken;
	return HRTIMER_NORESTART;
}

static int walk_list_len(struct list_head *head)
{
	struct list_head *pos;
	int n = 0;

	list_for_each(pos, head)
		n++;
	return n;
}

static void wake_up_all_drops_lock_every_64(struct ktest *t)
{
	DECLARE_WAIT_QUEUE_HEAD(wq);

	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		ktest_skip(t, "spinlock_t leaves interrupts on under PREEMPT_RT");
	if (!IS_ENABLED(CONFIG_PREEMPT_COUNT))
		ktest_skip(t, "sti; cli back to back without PREEMPT_COUNT");
	walk_woken = 0;
	walk_woken_in_irq = -1;
	for (int i = 0; i < WALK_ENTRIES; i++) {
		walk_entries[i] = (struct wait_queue_entry){ .func = walk_wake_fn };
		INIT_LIST_HEAD(&walk_entries[i].entry);
		list_add_tail(&walk_entries[i].entry, &wq.head);
	}
	hrtimer_init(&walk_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	walk_timer.function = walk_count_in_irq;
	wake_up_all(&wq);
	hrtimer_cancel(&walk_timer);
	KTEST_EXPECT_EQ(t, walk_woken, WALK_ENTRIES);
	KTEST_EXPECT_EQ(t, walk_woken_in_irq, WAITQUEUE_WALK_BREAK_CNT + 1);
	/* The bookmark went with the last hold: only the entries are left. */
	KTEST_EXPECT_EQ(t, walk_list_len(&wq.head), WALK_ENTRIES);
}

static struct ktest_case wait_cases[] = {
	KTEST_CASE(wait_event_sleeps_until_condition),
	KTEST_CASE(exclusive_waiters_wake_one_by_one),
	KTEST_CASE(completion_from_interrupt),
	KTEST_CASE(complete_all_releases_everyone),
	KTEST_CASE(completions_count),
	KTEST_CASE(swake_up_all_irqs_on_between),
	KTEST_CASE(wake_up_all_drops_lock_every_64),
	{}
};

static struct ktest_suite wait_suite = { .name = "wait", .cases = wait_cases };
ktest_register_suite(wait_suite);
