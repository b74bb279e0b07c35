// SPDX-License-Identifier: GPL-2.0
/*
 * CPU hotplug: cpu_down()/cpu_up() at run time, the masks they change,
 * the refusals, cpus_read_lock() against a take-down, and what happens
 * to tasks on a CPU going down (pinned by affinity: moved and no longer
 * affine; migrate-disabled: the take-down waits for the section to end).
 */
#include <linux/ktest.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/kthread.h>
#include <linux/delay.h>
#include <linux/smp.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/errno.h>
#include <linux/wait.h>
#include <linux/rcupdate.h>
#include <linux/irq.h>
#include <linux/string.h>
#include <asm/io_apic.h>
#include <asm/page.h>
#include <asm/i8253.h>

/* The highest online CPU other than 0, or skip. */
static unsigned int hotplug_victim(struct ktest *t)
{
	unsigned int cpu = cpumask_last(cpu_online_mask);

	if (cpu == 0 || cpu >= nr_cpu_ids)
		ktest_skip(t, "needs a second CPU");
	return cpu;
}

static void expect_up(struct ktest *t, unsigned int cpu)
{
	KTEST_EXPECT_TRUE(t, cpu_online(cpu));
	KTEST_EXPECT_TRUE(t, cpu_active(cpu));
	KTEST_EXPECT_EQ(t, cpuhp_get_state(cpu), CPUHP_ONLINE);
}

static void expect_down(struct ktest *t, unsigned int cpu)
{
	KTEST_EXPECT_FALSE(t, cpu_online(cpu));
	KTEST_EXPECT_FALSE(t, cpu_active(cpu));
	KTEST_EXPECT_EQ(t, cpuhp_get_state(cpu), CPUHP_OFFLINE);
}

static void hotplug_refusals(struct ktest *t)
{
	unsigned int online = num_online_cpus();

	KTEST_EXPECT_EQ(t, cpu_down(NR_CPUS), -EINVAL);
	KTEST_EXPECT_EQ(t, cpu_down(nr_cpu_ids), -EINVAL);
	KTEST_EXPECT_EQ(t, cpu_up(nr_cpu_ids), -EINVAL);
	KTEST_EXPECT_EQ(t, cpu_up(-1U), -EINVAL);
	/* CPU 0 stays (irqlab's CPU 0 is not hotpluggable). */
	KTEST_EXPECT_EQ(t, cpu_down(0), -EBUSY);
	/* Bringing up a CPU that is up is no error and changes nothing. */
	KTEST_EXPECT_EQ(t, cpu_up(0), 0);
	KTEST_EXPECT_EQ(t, num_online_cpus(), online);
}

static void hotplug_last_cpu(struct ktest *t)
{
	unsigned int cpu, n = 0;

	hotplug_victim(t);
	/* Down to CPU 0 alone: the last online CPU is refused, as Linux. */
	for (cpu = nr_cpu_ids - 1; cpu > 0; cpu--)
		if (cpu_online(cpu)) {
			KTEST_EXPECT_EQ(t, cpu_down(cpu), 0);
			n++;
		}
	KTEST_EXPECT_EQ(t, num_online_cpus(), 1);
	KTEST_EXPECT_EQ(t, cpu_down(0), -EBUSY);
	KTEST_EXPECT_TRUE(t, cpu_online(0));
	for (cpu = 1; cpu < nr_cpu_ids; cpu++)
		if (cpu_present(cpu))
			KTEST_EXPECT_EQ(t, cpu_up(cpu), 0);
	KTEST_EXPECT_TRUE(t, n > 0);
}

static void where_am_i(void *arg)
{
	*(int *)arg = smp_processor_id();
}

struct spot {
	volatile bool stop;
	volatile bool pinned;		/* in its migrate-disabled section */
	volatile bool release;		/* end the section */
	bool migrate_disable;
	int cpu_in_section;
	int cpu_after_wait;		/* where the section's sleep ended */
	int last_cpu;
	unsigned long loops;
	struct wait_queue_head wq;	/* the section sleeps here */
};

/* Runs until told to stop, noting where; optionally pinned for a while. */
static int spot_fn(void *arg)
{
	struct spot *s = arg;

	if (s->migrate_disable) {
		migrate_disable();
		s->cpu_in_section = smp_processor_id();
		WRITE_ONCE(s->pinned, true);
		/*
		 * Pinned, and asleep as a PREEMPT_RT section is when it
		 * blocks on a spinlock_t: the CPU must wait for it, and its
		 * wakeup must bring it back here, inactive as the CPU is.
		 * It must not spin: on PREEMPT_LAZY migrate_disable() holds
		 * off lazy preemption, cond_resched() is a no-op under full
		 * preemption, and the normal-class cpuhp thread would not
		 * get the CPU until something of a higher class woke there.
		 * No timed sleep either: on PREEMPT_RT its timer expires in
		 * ksoftirqd, which the take-down parks.
		 */
		wait_event(s->wq, READ_ONCE(s->release));
		s->cpu_after_wait = smp_processor_id();
		migrate_enable();
		WRITE_ONCE(s->pinned, false);
	}
	while (!READ_ONCE(s->stop)) {
		s->last_cpu = smp_processor_id();
		s->loops++;
		msleep(1);
	}
	return 0;
}

static void hotplug_down_up(struct ktest *t)
{
	unsigned int cpu = hotplug_victim(t), online = num_online_cpus();
	int where = -1;

	for (int i = 0; i < 3; i++) {
		KTEST_ASSERT_EQ(t, cpu_down(cpu), 0);
		expect_down(t, cpu);
		KTEST_EXPECT_EQ(t, num_online_cpus(), online - 1);
		/* An IPI to a CPU that is gone is refused, not lost. */
		KTEST_EXPECT_EQ(t, smp_call_function_single(cpu, where_am_i, &where, 1), -ENXIO);
		KTEST_ASSERT_EQ(t, cpu_up(cpu), 0);
		expect_up(t, cpu);
		KTEST_EXPECT_EQ(t, smp_call_function_single(cpu, where_am_i, &where, 1), 0);
		KTEST_EXPECT_EQ(t, where, (int)cpu);
	}
}

/*
 * The AP trampoline is written once, when smp_init() sets it up (Linux's
 * setup_real_mode()): starting a CPU again writes nothing into the page
 * (its stack comes from initial_stack), so the code there is never
 * rewritten under CPUs that have run it.  CPU 1, not the last CPU: a
 * per-AP field would then hold another CPU's value than at boot.
 */
static void hotplug_trampoline_written_once(struct ktest *t)
{
	static u8 before[PAGE_SIZE];
	phys_addr_t pa = smp_trampoline_page();

	if (num_online_cpus() < 3)
		ktest_skip(t, "needs a CPU other than 0 and the last");
	KTEST_ASSERT_TRUE(t, pa != 0);
	memcpy(before, __va(pa), PAGE_SIZE);
	KTEST_ASSERT_EQ(t, cpu_down(1), 0);
	expect_down(t, 1);
	KTEST_ASSERT_EQ(t, cpu_up(1), 0);
	expect_up(t, 1);
	KTEST_EXPECT_EQ(t, memcmp(before, __va(pa), PAGE_SIZE), 0);
}

/*
 * A task bound to the CPU by affinity alone (not a per-CPU kthread) is
 * pushed off and its affinity widened, as Linux's select_fallback_rq().
 */
static void hotplug_bound_task(struct ktest *t)
{
	unsigned int cpu = hotplug_victim(t);
	static struct spot s;
	struct task_struct *p;
	u64 mark;

	s = (struct spot){ .last_cpu = -1 };
	init_waitqueue_head(&s.wq);
	p = ktest_kthread(spot_fn, &s, "hp-bound", cpu, SCHED_NORMAL, 0);
	KTEST_ASSERT_TRUE(t, p != NULL);
	wake_up_process(p);
	while (READ_ONCE(s.loops) < 3)
		msleep(1);
	KTEST_EXPECT_EQ(t, s.last_cpu, (int)cpu);
	mark = ktest_log_mark();
	KTEST_ASSERT_EQ(t, cpu_down(cpu), 0);
	s.loops = 0;
	while (READ_ONCE(s.loops) < 3)
		msleep(1);
	KTEST_EXPECT_NE(t, s.last_cpu, (int)cpu);
	KTEST_EXPECT_TRUE(t, ktest_log_contains(mark, "no longer affine to cpu"));
	KTEST_EXPECT_TRUE(t, p->nr_cpus_allowed > 1);
	WRITE_ONCE(s.stop, true);
	KTEST_EXPECT_EQ(t, cpu_up(cpu), 0);
}

struct downer {
	unsigned int cpu;
	int ret;
	volatile bool done;
};

static int downer_fn(void *arg)
{
	struct downer *d = arg;

	d->ret = cpu_down(d->cpu);
	WRITE_ONCE(d->done, true);
	return 0;
}

static struct task_struct *start_downer(struct ktest *t, struct downer *d)
{
	struct task_struct *p = ktest_kthread(downer_fn, d, "hp-down", 0, SCHED_NORMAL, 0);

	KTEST_ASSERT_TRUE(t, p != NULL);
	wake_up_process(p);
	return p;
}

/* A migrate-disabled task finishes its section before its CPU goes. */
static void hotplug_migrate_disabled(struct ktest *t)
{
	unsigned int cpu = hotplug_victim(t);
	static struct spot s;
	static struct downer d;
	struct task_struct *p;

	s = (struct spot){ .migrate_disable = true, .last_cpu = -1, .cpu_after_wait = -1 };
	init_waitqueue_head(&s.wq);
	/* Started on the CPU, then free to go anywhere but for the section. */
	p = ktest_kthread(spot_fn, &s, "hp-pinned", cpu, SCHED_NORMAL, 0);
	KTEST_ASSERT_TRUE(t, p != NULL);
	wake_up_process(p);
	while (!READ_ONCE(s.pinned))
		msleep(1);
	set_cpus_allowed_ptr(p, cpu_possible_mask);
	d = (struct downer){ .cpu = cpu };
	start_downer(t, &d);
	/*
	 * The walk reaches sched:waitempty (a state is left, down, before
	 * its teardown runs) and stays there while the task is pinned.
	 */
	while (cpuhp_get_state(cpu) > CPUHP_AP_ONLINE_IDLE && !READ_ONCE(d.done))
		msleep(1);
	msleep(20);
	KTEST_EXPECT_FALSE(t, READ_ONCE(d.done));
	KTEST_EXPECT_EQ(t, cpuhp_get_state(cpu), CPUHP_AP_ONLINE_IDLE);
	KTEST_EXPECT_TRUE(t, cpu_online(cpu));
	KTEST_EXPECT_FALSE(t, cpu_active(cpu));
	WRITE_ONCE(s.release, true);
	wake_up(&s.wq);
	while (!READ_ONCE(d.done))
		msleep(1);
	KTEST_EXPECT_EQ(t, d.ret, 0);
	KTEST_EXPECT_EQ(t, s.cpu_in_section, (int)cpu);
	KTEST_EXPECT_EQ(t, s.cpu_after_wait, (int)cpu);
	expect_down(t, cpu);
	s.loops = 0;
	while (READ_ONCE(s.loops) < 3)
		msleep(1);
	KTEST_EXPECT_NE(t, s.last_cpu, (int)cpu);
	WRITE_ONCE(s.stop, true);
	KTEST_EXPECT_EQ(t, cpu_up(cpu), 0);
	expect_up(t, cpu);
}

/* cpus_read_lock() holds a take-down off until it is dropped. */
static void hotplug_read_lock(struct ktest *t)
{
	unsigned int cpu = hotplug_victim(t);
	static struct downer d;

	long slow;
	bool shut = false;
	int i;

	d = (struct downer){ .cpu = cpu };
	cpus_read_lock();
	start_downer(t, &d);
	/*
	 * The writer closes the fast path (a grace period), then blocks new
	 * readers while it waits for us: a trylock fails from then on, on
	 * the slow path.
	 */
	slow = cpus_read_slow_count();
	for (i = 0; i < 5000 && !shut; i++) {
		if (cpus_read_trylock()) {
			cpus_read_unlock();
			msleep(1);
		} else {
			shut = true;
		}
	}
	KTEST_EXPECT_TRUE(t, shut);
	KTEST_EXPECT_GT(t, cpus_read_slow_count(), slow);
	KTEST_EXPECT_FALSE(t, READ_ONCE(d.done));
	KTEST_EXPECT_TRUE(t, cpu_online(cpu));
	KTEST_EXPECT_TRUE(t, cpu_active(cpu));
	cpus_read_unlock();
	while (!READ_ONCE(d.done))
		msleep(1);
	KTEST_EXPECT_EQ(t, d.ret, 0);
	expect_down(t, cpu);
	KTEST_EXPECT_EQ(t, cpu_up(cpu), 0);
}

/* Per-state bookkeeping of the callbacks a dynamic state received. */
static atomic_t ap_up_calls, ap_down_calls, bp_dead_calls;
static volatile int ap_up_where, ap_down_where, bp_dead_where;
static volatile bool bp_dead_was_online;

static int test_ap_online(unsigned int cpu)
{
	ap_up_where = smp_processor_id() == cpu ? (int)cpu : -1;
	atomic_inc(&ap_up_calls);
	return 0;
}

static int test_ap_offline(unsigned int cpu)
{
	ap_down_where = smp_processor_id() == cpu ? (int)cpu : -1;
	atomic_inc(&ap_down_calls);
	return 0;
}

static int test_bp_dead(unsigned int cpu)
{
	bp_dead_where = smp_processor_id();
	bp_dead_was_online = cpu_online(cpu);
	atomic_inc(&bp_dead_calls);
	return 0;
}

/*
 * Callbacks run where their section says: the online section on the
 * plugged CPU, the prepare section's teardown (_DEAD) on the control CPU
 * after the CPU has gone.  cpuhp_setup_state() runs startup on every CPU
 * past the state; _nocalls does not.
 */
static void hotplug_states(struct ktest *t)
{
	unsigned int cpu = hotplug_victim(t);
	int ap, bp;

	atomic_set(&ap_up_calls, 0);
	atomic_set(&ap_down_calls, 0);
	atomic_set(&bp_dead_calls, 0);
	ap = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "test:online", test_ap_online,
			       test_ap_offline);
	KTEST_ASSERT_TRUE(t, ap >= CPUHP_AP_ONLINE_DYN && ap <= CPUHP_AP_ONLINE_DYN_END);
	KTEST_EXPECT_EQ(t, atomic_read(&ap_up_calls), (int)num_online_cpus());
	bp = cpuhp_setup_state_nocalls(CPUHP_BP_PREPARE_DYN, "test:dead", NULL, test_bp_dead);
	KTEST_ASSERT_TRUE(t, bp >= CPUHP_BP_PREPARE_DYN && bp <= CPUHP_BP_PREPARE_DYN_END);
	KTEST_EXPECT_EQ(t, atomic_read(&bp_dead_calls), 0);
	/* A fixed state already taken is refused. */
	KTEST_EXPECT_EQ(t, cpuhp_setup_state_nocalls(CPUHP_AP_ACTIVE, "test:taken", NULL, NULL),
			-EBUSY);

	atomic_set(&ap_up_calls, 0);
	KTEST_ASSERT_EQ(t, cpu_down(cpu), 0);
	KTEST_EXPECT_EQ(t, atomic_read(&ap_down_calls), 1);
	KTEST_EXPECT_EQ(t, ap_down_where, (int)cpu);
	KTEST_EXPECT_EQ(t, atomic_read(&bp_dead_calls), 1);
	KTEST_EXPECT_NE(t, bp_dead_where, (int)cpu);
	KTEST_EXPECT_FALSE(t, bp_dead_was_online);
	KTEST_ASSERT_EQ(t, cpu_up(cpu), 0);
	KTEST_EXPECT_EQ(t, atomic_read(&ap_up_calls), 1);
	KTEST_EXPECT_EQ(t, ap_up_where, (int)cpu);

	cpuhp_remove_state_nocalls(ap);
	cpuhp_remove_state_nocalls(bp);
	KTEST_ASSERT_EQ(t, cpu_down(cpu), 0);
	KTEST_ASSERT_EQ(t, cpu_up(cpu), 0);
	KTEST_EXPECT_EQ(t, atomic_read(&ap_down_calls), 1);
	KTEST_EXPECT_EQ(t, atomic_read(&bp_dead_calls), 1);
}

/*
 * With no cpu_up()/cpu_down() around, cpus_read_lock() is a per-CPU
 * count: no reader takes the slow path (the shared part of the lock is
 * not written), and the count is there while the lock is held.  (Other
 * tasks may read-hold it meanwhile; they do not take the slow path
 * either, with no writer around.)
 */
static void hotplug_read_fast_path(struct ktest *t)
{
	long slow;
	int i;

	/*
	 * A grace period after the last writer the fast path is open again;
	 * a writer that came and went during it (cpu_up() right after
	 * cpu_down()) makes rcu_sync queue one more callback from the first.
	 */
	rcu_barrier();
	rcu_barrier();
	slow = cpus_read_slow_count();
	/* Other readers may hold it too: ours must be counted, at least. */
	cpus_read_lock();
	KTEST_EXPECT_GE(t, cpus_read_holders(), 1U);
	cpus_read_unlock();
	for (i = 0; i < 1000; i++) {
		cpus_read_lock();
		cpus_read_unlock();
	}
	KTEST_EXPECT_EQ(t, cpus_read_slow_count(), slow);
}

/* Readers in their sections against cpu_down()/cpu_up() in a loop. */
struct hp_reader {
	volatile bool stop;
	volatile bool done;
	unsigned int victim;
	unsigned long sections;
	unsigned long changed;		/* the online mask moved under us */
};

static atomic_t readers_inside;
static atomic_t writer_saw_readers;

static int hp_reader_fn(void *arg)
{
	struct hp_reader *r = arg;

	while (!READ_ONCE(r->stop)) {
		bool online;

		cpus_read_lock();
		atomic_inc(&readers_inside);
		online = cpu_online(r->victim);
		udelay(100);	/* preemptible: may move CPUs in the section */
		if (cpu_online(r->victim) != online)
			r->changed++;
		atomic_dec(&readers_inside);
		cpus_read_unlock();
		r->sections++;
		cond_resched();
	}
	WRITE_ONCE(r->done, true);
	return 0;
}

/* Both run with cpu_hotplug_lock held for writing by cpu_down()/up(). */
static int rw_ap_cb(unsigned int cpu)
{
	if (atomic_read(&readers_inside))
		atomic_inc(&writer_saw_readers);
	return 0;
}

static int rw_bp_cb(unsigned int cpu)
{
	return rw_ap_cb(cpu);
}

static void hotplug_readers_vs_writer(struct ktest *t)
{
	unsigned int cpu = hotplug_victim(t);
	static struct hp_reader r[2];
	unsigned long before[2];
	int ap, bp, i;

	atomic_set(&readers_inside, 0);
	atomic_set(&writer_saw_readers, 0);
	ap = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "test:rw", rw_ap_cb, rw_ap_cb);
	KTEST_ASSERT_TRUE(t, ap >= CPUHP_AP_ONLINE_DYN);
	bp = cpuhp_setup_state_nocalls(CPUHP_BP_PREPARE_DYN, "test:rw-dead", rw_bp_cb, rw_bp_cb);
	KTEST_ASSERT_TRUE(t, bp >= CPUHP_BP_PREPARE_DYN);
	for (i = 0; i < 2; i++) {
		struct task_struct *p;

		r[i] = (struct hp_reader){ .victim = cpu };
		/* One starts on the victim, so its sections move CPUs too. */
		p = ktest_kthread(hp_reader_fn, &r[i], "hp-reader", i ? cpu : 0, SCHED_NORMAL, 0);
		KTEST_ASSERT_TRUE(t, p != NULL);
		wake_up_process(p);
	}
	for (i = 0; i < 3; i++) {
		before[0] = READ_ONCE(r[0].sections);
		before[1] = READ_ONCE(r[1].sections);
		KTEST_EXPECT_EQ(t, cpu_down(cpu), 0);
		KTEST_EXPECT_EQ(t, cpu_up(cpu), 0);
		/* Readers get in between operations: the writer starves nobody. */
		while (READ_ONCE(r[0].sections) == before[0] ||
		       READ_ONCE(r[1].sections) == before[1])
			msleep(1);
	}
	for (i = 0; i < 2; i++) {
		WRITE_ONCE(r[i].stop, true);
		while (!READ_ONCE(r[i].done))
			msleep(1);
		KTEST_EXPECT_EQ(t, r[i].changed, 0UL);
		KTEST_EXPECT_GE(t, r[i].sections, 3UL);
	}
	KTEST_EXPECT_EQ(t, atomic_read(&writer_saw_readers), 0);
	cpuhp_remove_state_nocalls(ap);
	cpuhp_remove_state_nocalls(bp);
	expect_up(t, cpu);
}

/* ------------------------------------------------- device interrupts */

struct pit_hits {
	int count;
	int cpu;
};

static struct pit_hits hits;

static irqreturn_t hp_pit_handler(int irq, void *dev)
{
	struct pit_hits *h = dev;

	WRITE_ONCE(h->cpu, smp_processor_id());
	WRITE_ONCE(h->count, h->count + 1);
	return IRQ_HANDLED;
}

/* Wait (up to ~2 s) for the PIT's one-shot to arrive @want times in all. */
static int hp_wait_hits(int want)
{
	for (int i = 0; i < 2000 && READ_ONCE(hits.count) < want; i++)
		msleep(1);
	/* A stray second edge would show here too. */
	msleep(5);
	return READ_ONCE(hits.count);
}

/*
 * A device interrupt bound to the CPU going down moves to an online CPU
 * (fixup_irqs()) instead of refusing the take-down, its affinity broken;
 * one that the IOAPIC delivered into the dying CPU's IRR while its IRQs
 * were off for good is re-sent, so a one-shot timed to land at any point
 * of the take-down arrives once, never zero times.
 */
static void hotplug_irq_migrate(struct ktest *t)
{
	unsigned int cpu = hotplug_victim(t);
	long resent = atomic_long_read(&irq_fixup_resent);
	struct irq_desc *desc = irq_to_desc(0);
	u64 mark;
	int c, i;

	if (!nr_ioapics_registered())
		ktest_skip(t, "no IOAPIC");
	memset(&hits, 0, sizeof(hits));
	pit_stop();
	KTEST_ASSERT_EQ(t, request_irq(0, hp_pit_handler, IRQF_NO_THREAD, "hp-pit", &hits), 0);
	KTEST_EXPECT_EQ(t, irq_set_affinity(0, cpumask_of(cpu)), 0);
	KTEST_EXPECT_EQ(t, desc->cpu, cpu);
	pit_oneshot(PIT_TICK_RATE / 1000);
	c = hp_wait_hits(1);
	KTEST_EXPECT_GE(t, c, 1);
	KTEST_EXPECT_EQ(t, READ_ONCE(hits.cpu), (int)cpu);

	mark = ktest_log_mark();
	KTEST_EXPECT_EQ(t, cpu_down(cpu), 0);
	KTEST_EXPECT_NE(t, desc->cpu, cpu);
	KTEST_EXPECT_TRUE(t, ktest_log_contains(mark, "IRQ0: no longer affine to CPU"));
	c = READ_ONCE(hits.count);
	pit_oneshot(PIT_TICK_RATE / 1000);
	KTEST_EXPECT_GE(t, hp_wait_hits(c + 1), c + 1);
	KTEST_EXPECT_NE(t, READ_ONCE(hits.cpu), (int)cpu);
	KTEST_EXPECT_EQ(t, cpu_up(cpu), 0);

	/* One-shots timed to fall anywhere in a take-down: none is lost. */
	for (i = 0; i < 10; i++) {
		KTEST_EXPECT_EQ(t, irq_set_affinity(0, cpumask_of(cpu)), 0);
		c = READ_ONCE(hits.count);
		pit_oneshot(PIT_TICK_RATE / 1000 * (1 + i * 5));
		KTEST_EXPECT_EQ(t, cpu_down(cpu), 0);
		c = hp_wait_hits(c + 1) - c;
		KTEST_EXPECT_GE(t, c, 1);
		KTEST_EXPECT_LE(t, c, 2);
		KTEST_EXPECT_EQ(t, cpu_up(cpu), 0);
	}
	ktest_info(t, "interrupts re-sent from a dying CPU's IRR: %ld",
		   atomic_long_read(&irq_fixup_resent) - resent);
	free_irq(0, &hits);
	expect_up(t, cpu);
}

static struct ktest_case hotplug_cases[] = {
	KTEST_CASE(hotplug_refusals),
	KTEST_CASE(hotplug_down_up),
	KTEST_CASE(hotplug_trampoline_written_once),
	KTEST_CASE(hotplug_states),
	KTEST_CASE(hotplug_read_lock),
	KTEST_CASE(hotplug_read_fast_path),
	KTEST_CASE(hotplug_readers_vs_writer),
	KTEST_CASE(hotplug_bound_task),
	KTEST_CASE(hotplug_irq_migrate),
	KTEST_CASE(hotplug_migrate_disabled),
	KTEST_CASE(hotplug_last_cpu),
	{}
};

static struct ktest_suite hotplug_suite = {
	.name = "hotplug",
	.cases = hotplug_cases,
};
ktest_register_suite(hotplug_suite);
