// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU data: each CPU sees its own copy, and the this_cpu operations
 * are atomic against interrupts on the same CPU - in particular the
 * double-word cmpxchg SLUB's fast path depends on.
 */
#include <linux/ktest.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <linux/clockchips.h>
#include <linux/ktime.h>
#include <linux/irqflags.h>
#include <linux/sched.h>

void tick_suspend_local(void);
void tick_resume_local(void);

static DEFINE_PER_CPU(unsigned long, pcpu_test_var);

static void write_own_id(void *info)
{
	this_cpu_write(pcpu_test_var, 1000 + smp_processor_id());
}

static void percpu_isolated(struct ktest *t)
{
	int cpu;

	on_each_cpu(write_own_id, NULL, 1);
	for_each_online_cpu(cpu)
		KTEST_EXPECT_EQ(t, per_cpu(pcpu_test_var, cpu), 1000 + cpu);
	KTEST_EXPECT_EQ(t, this_cpu_read(pcpu_test_var), 1000 + smp_processor_id());
	KTEST_EXPECT_EQ(t, (unsigned long)this_cpu_ptr(&pcpu_test_var),
			(unsigned long)per_cpu_ptr(&pcpu_test_var, smp_processor_id()));
}

static void this_cpu_ops(struct ktest *t)
{
	unsigned long flags;

	local_irq_save(flags);
	this_cpu_write(pcpu_test_var, 5);
	this_cpu_add(pcpu_test_var, 10);
	this_cpu_inc(pcpu_test_var);
	KTEST_EXPECT_EQ(t, this_cpu_read(pcpu_test_var), 16);
	KTEST_EXPECT_EQ(t, this_cpu_add_return(pcpu_test_var, 4), 20);
	KTEST_EXPECT_EQ(t, this_cpu_xchg(pcpu_test_var, 7), 20);
	KTEST_EXPECT_EQ(t, this_cpu_cmpxchg(pcpu_test_var, 7, 9), 7);
	KTEST_EXPECT_EQ(t, this_cpu_cmpxchg(pcpu_test_var, 7, 11), 9);	/* fails */
	KTEST_EXPECT_EQ(t, this_cpu_read(pcpu_test_var), 9);
	local_irq_restore(flags);
}

/* freelist + tid shape: two words, 16-byte aligned, swapped together. */
struct pair {
	unsigned long a, b;
} __aligned(16);

static DEFINE_PER_CPU_ALIGNED(struct pair, pcpu_pair);
static unsigned long irq_succ, irq_fail;
/*
 * Far above an interrupt round trip (a few thousand instructions, i.e. a
 * few us under icount), or the timer would starve the task.
 */
#define PAIR_PERIOD_NS	20000

static void cmpxchg_double_semantics(struct ktest *t)
{
	struct pair *p = this_cpu_ptr(&pcpu_pair);
	unsigned long flags;

	KTEST_ASSERT_EQ(t, (unsigned long)p & 15, 0);
	local_irq_save(flags);
	p->a = 1;
	p->b = 2;
	KTEST_EXPECT_TRUE(t, this_cpu_cmpxchg_double(pcpu_pair.a, pcpu_pair.b, 1, 2, 3, 4));
	KTEST_EXPECT_EQ(t, p->a, 3);
	KTEST_EXPECT_EQ(t, p->b, 4);
	/* Either word differing makes it fail and change nothing. */
	KTEST_EXPECT_FALSE(t, this_cpu_cmpxchg_double(pcpu_pair.a, pcpu_pair.b, 3, 5, 7, 8));
	KTEST_EXPECT_FALSE(t, this_cpu_cmpxchg_double(pcpu_pair.a, pcpu_pair.b, 9, 4, 7, 8));
	KTEST_EXPECT_EQ(t, p->a, 3);
	KTEST_EXPECT_EQ(t, p->b, 4);
	local_irq_restore(flags);
}

/* Both contexts do the same lockless read-modify-cmpxchg on the pair. */
static bool pair_increment(void)
{
	unsigned long a = this_cpu_read(pcpu_pair.a);
	unsigned long b = this_cpu_read(pcpu_pair.b);

	return this_cpu_cmpxchg_double(pcpu_pair.a, pcpu_pair.b, a, b, a + 1, b + 1);
}

static void pair_timer_handler(struct clock_event_device *evt)
{
	if (pair_increment())
		irq_succ++;
	else
		irq_fail++;	/* impossible: nothing can interrupt an IRQ here */
	clockevents_program_event(evt, ktime_get_ns() + PAIR_PERIOD_NS, true);
}

static void cmpxchg_double_vs_interrupts(struct ktest *t)
{
	struct clock_event_device *evt;
	unsigned long succ = 0, fail = 0, flags;
	u64 end;

	migrate_disable();	/* per-CPU data and this CPU's timer throughout */
	tick_suspend_local();
	local_irq_save(flags);
	evt = this_cpu_clockevent();
	this_cpu_write(pcpu_pair.a, 0);
	this_cpu_write(pcpu_pair.b, 0);
	irq_succ = irq_fail = 0;
	evt->event_handler = pair_timer_handler;
	clockevents_program_event(evt, ktime_get_ns() + PAIR_PERIOD_NS, true);
	local_irq_restore(flags);

	/*
	 * Until interrupts have hit the window a few times.  The cap only
	 * bounds a broken timer: under TCG a vCPU the busy host rarely runs
	 * (64 vCPUs on 2 cores) saw 7 interrupts in 2 s, so it is generous.
	 */
	end = ktime_get_ns() + 30000 * NSEC_PER_MSEC;
	while (ktime_get_ns() < end && (fail < 20 || irq_succ < 100)) {
		unsigned long a = this_cpu_read(pcpu_pair.a);
		unsigned long b = this_cpu_read(pcpu_pair.b);

		/* Widen the window so timer interrupts land inside it. */
		for (volatile int i = 0; i < 50; i++)
			;
		if (this_cpu_cmpxchg_double(pcpu_pair.a, pcpu_pair.b, a, b, a + 1, b + 1)) {
			succ++;
		} else {
			fail++;
			/* A failure must mean an interrupt changed the pair. */
			KTEST_EXPECT_NE(t, this_cpu_read(pcpu_pair.a), a);
		}
	}
	local_irq_save(flags);
	clockevents_shutdown(evt);
	evt->event_handler = NULL;
	local_irq_restore(flags);
	tick_resume_local();
	migrate_enable();

	ktest_info(t, "task: %lu ok, %lu failed; interrupt: %lu ok", succ, fail, irq_succ);
	KTEST_EXPECT_EQ(t, irq_fail, 0);
	KTEST_EXPECT_GT(t, irq_succ, 10);
	KTEST_EXPECT_GT(t, fail, 0);		/* interrupts did hit the window */
	KTEST_EXPECT_EQ(t, this_cpu_read(pcpu_pair.a), succ + irq_succ);
	KTEST_EXPECT_EQ(t, this_cpu_read(pcpu_pair.b), succ + irq_succ);
}

static struct ktest_case percpu_cases[] = {
	KTEST_CASE(percpu_isolated),
	KTEST_CASE(this_cpu_ops),
	KTEST_CASE(cmpxchg_double_semantics),
	KTEST_CASE(cmpxchg_double_vs_interrupts),
	{}
};

static struct ktest_suite percpu_suite = { .name = "percpu", .cases = percpu_cases };
ktest_register_suite(percpu_suite);
