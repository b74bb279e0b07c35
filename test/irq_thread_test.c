// SPDX-License-Identifier: GPL-2.0
/*
 * Threaded interrupts: a thread_fn runs in the line's SCHED_FIFO 50 thread
 * on every kernel; on PREEMPT_RT a plain handler is forced into that
 * thread too, unless IRQF_NO_THREAD keeps it in hard-IRQ context.
 */
#include <linux/ktest.h>
#include <linux/irq.h>
#include <linux/sched.h>
#include <linux/delay.h>
#include <asm/io_apic.h>
#include <asm/i8253.h>

struct ctx_seen {
	int count;
	bool hardirq;
	bool bh_off;			/* bottom halves disabled around the handler */
	int policy, rt_priority;
	char comm[TASK_COMM_LEN];
};

static struct ctx_seen seen;

static irqreturn_t record_ctx(int irq, void *dev)
{
	struct ctx_seen *s = dev;

	s->count++;
	s->hardirq = in_hardirq();
	s->bh_off = softirq_count() != 0;
	s->policy = current->policy;
	s->rt_priority = current->rt_priority;
	memcpy(s->comm, current->comm, TASK_COMM_LEN);
	return IRQ_HANDLED;
}

static irqreturn_t primary_wakes_thread(int irq, void *dev)
{
	return IRQ_WAKE_THREAD;
}

/* One PIT one-shot through the IOAPIC, handled by whatever was requested. */
static int fire_pit(struct ktest *t, irq_handler_t handler, irq_handler_t thread_fn,
		    unsigned long flags)
{
	int err;

	memset(&seen, 0, sizeof(seen));
	pit_stop();
	err = request_threaded_irq(0, handler, thread_fn, flags, "pit-ctx", &seen);
	if (err)
		return err;
	pit_oneshot(PIT_TICK_RATE / 1000);
	/* yield(): the irq thread may need this CPU (non-preemptible models). */
	for (int i = 0; i < 100000 && !READ_ONCE(seen.count); i++)
		yield();
	free_irq(0, &seen);
	return 0;
}

static void threaded_handler_runs_in_thread(struct ktest *t)
{
	if (!nr_ioapics_registered())
		ktest_skip(t, "no IOAPIC");
	KTEST_ASSERT_EQ(t, fire_pit(t, primary_wakes_thread, record_ctx, IRQF_ONESHOT), 0);
	KTEST_EXPECT_EQ(t, seen.count, 1);
	KTEST_EXPECT_FALSE(t, seen.hardirq);
	KTEST_EXPECT_EQ(t, seen.policy, SCHED_FIFO);
	KTEST_EXPECT_EQ(t, seen.rt_priority, 50);
	KTEST_EXPECT_EQ(t, strncmp(seen.comm, "irq/0-pit-ctx", 13), 0);
	KTEST_EXPECT_FALSE(t, seen.bh_off);		/* a thread_fn runs as it is */
}

static void plain_handler_context_per_model(struct ktest *t)
{
	if (!nr_ioapics_registered())
		ktest_skip(t, "no IOAPIC");
	KTEST_ASSERT_EQ(t, fire_pit(t, record_ctx, NULL, 0), 0);
	KTEST_EXPECT_EQ(t, seen.count, 1);
#ifdef CONFIG_PREEMPT_RT
	KTEST_EXPECT_FALSE(t, seen.hardirq);		/* forced into the thread */
	KTEST_EXPECT_EQ(t, seen.rt_priority, 50);
	KTEST_EXPECT_TRUE(t, seen.bh_off);		/* irq_forced_thread_fn() */
#else
	KTEST_EXPECT_TRUE(t, seen.hardirq);
#endif
}

static void no_thread_stays_hard(struct ktest *t)
{
	if (!nr_ioapics_registered())
		ktest_skip(t, "no IOAPIC");
	KTEST_ASSERT_EQ(t, fire_pit(t, record_ctx, NULL, IRQF_NO_THREAD), 0);
	KTEST_EXPECT_EQ(t, seen.count, 1);
	KTEST_EXPECT_TRUE(t, seen.hardirq);		/* on every model */
	KTEST_EXPECT_TRUE(t, irq_to_desc(0)->thread == NULL);
}

static struct ktest_case irq_thread_cases[] = {
	KTEST_CASE(threaded_handler_runs_in_thread),
	KTEST_CASE(plain_handler_context_per_model),
	KTEST_CASE(no_thread_stays_hard),
	{}
};

static struct ktest_suite irq_thread_suite = { .name = "irq_thread", .cases = irq_thread_cases };
ktest_register_suite(irq_thread_suite);
