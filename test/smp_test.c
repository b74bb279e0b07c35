// SPDX-License-Identifier: GPL-2.0
/*
 * SMP: every CPU the firmware lists comes online with its own APIC ID;
 * cross-CPU calls reach exactly the CPUs asked for; NMIs reach CPUs and
 * make them print their backtraces.
 */
#include <linux/ktest.h>
#include <linux/smp.h>
#include <linux/moduleparam.h>
#include <linux/spinlock.h>
#include <linux/delay.h>
#include <asm/apic.h>
#include <asm/hardirq.h>
#include <asm/processor.h>
#include <asm/irq_vectors.h>

static int expected_cpus;
core_param("ktest.cpus", expected_cpus, int,
	   "number of CPUs the test configuration started (0: unknown)");

static void cpus_online(struct ktest *t)
{
	int cpu, other;

	if (expected_cpus)
		KTEST_EXPECT_EQ(t, num_online_cpus(), expected_cpus);
	KTEST_EXPECT_EQ(t, num_online_cpus(), cpumask_weight(cpu_present_mask));
	KTEST_EXPECT_EQ(t, smp_processor_id(), 0);
	KTEST_EXPECT_EQ(t, cpu_to_apicid[0], read_apic_id());
	for_each_online_cpu(cpu)
		for_each_online_cpu(other)
			if (other != cpu)
				KTEST_EXPECT_NE(t, cpu_to_apicid[cpu], cpu_to_apicid[other]);
	ktest_info(t, "%u CPUs online", num_online_cpus());
}

struct where {
	int cpu;
	u32 apicid;
	bool irqs_off;
	bool hardirq;
};

static void record_where(void *info)
{
	struct where *w = info;

	w->cpu = smp_processor_id();
	w->apicid = read_apic_id();
	w->irqs_off = irqs_disabled();
	w->hardirq = in_hardirq();
}

static void call_single_each_cpu(struct ktest *t)
{
	int cpu;

	for_each_online_cpu(cpu) {
		struct where w = { .cpu = -1 };
		u64 t0 = rdtsc_ordered(), dt;

		KTEST_EXPECT_EQ(t, smp_call_function_single(cpu, record_where, &w, 1), 0);
		dt = rdtsc_ordered() - t0;
		KTEST_EXPECT_EQ(t, w.cpu, cpu);
		KTEST_EXPECT_EQ(t, w.apicid, cpu_to_apicid[cpu]);
		KTEST_EXPECT_TRUE(t, w.irqs_off);
		if (cpu != smp_processor_id())
			KTEST_EXPECT_TRUE(t, w.hardirq);	/* ran from the IPI */
		ktest_info(t, "CPU %d: round trip %llu cycles", cpu, (unsigned long long)dt);
	}
	/* nr_cpu_ids is never a CPU; NR_CPUS - 1 is one when every slot is filled. */
	KTEST_EXPECT_NE(t, smp_call_function_single(nr_cpu_ids, record_where, NULL, 1), 0);
}

static int ran_on[CONFIG_NR_CPUS];

static void count_cpu(void *info)
{
	__atomic_fetch_add(&ran_on[smp_processor_id()], 1, __ATOMIC_RELAXED);
}

static bool odd_cpu(int cpu, void *info)
{
	return cpu & 1;
}

static void on_each_cpu_all_and_cond(struct ktest *t)
{
	int cpu;

	memset(ran_on, 0, sizeof(ran_on));
	on_each_cpu(count_cpu, NULL, 1);
	for_each_online_cpu(cpu)
		KTEST_EXPECT_EQ(t, ran_on[cpu], 1);

	memset(ran_on, 0, sizeof(ran_on));
	on_each_cpu_cond(odd_cpu, count_cpu, NULL, 1);
	for_each_online_cpu(cpu)
		KTEST_EXPECT_EQ(t, ran_on[cpu], cpu & 1);

	/* Without waiting: the calls still all happen, exactly once. */
	memset(ran_on, 0, sizeof(ran_on));
	smp_call_function_many(cpu_online_mask, count_cpu, NULL, false);
	for_each_online_cpu(cpu) {
		for (int i = 0; i < 100000 && cpu && !READ_ONCE(ran_on[cpu]); i++)
			udelay(10);
		KTEST_EXPECT_EQ(t, READ_ONCE(ran_on[cpu]), cpu ? 1 : 0);
	}
}

static void reschedule_ipi_delivered(struct ktest *t)
{
	int cpu;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs");
	for_each_online_cpu(cpu) {
		unsigned long before = per_cpu(irq_stat, cpu).irq_resched_count;

		if (cpu == smp_processor_id())
			continue;
		smp_send_reschedule(cpu);
		for (int i = 0; i < 100000 &&
		     READ_ONCE(per_cpu(irq_stat, cpu).irq_resched_count) == before; i++)
			udelay(10);
		KTEST_EXPECT_EQ(t, per_cpu(irq_stat, cpu).irq_resched_count, before + 1);
	}
}

/* A fixed IPI to ourselves: sent to taken, the delivery cost of an IPI. */
static void self_ipi_latency(struct ktest *t)
{
	unsigned long before = this_cpu_read(irq_stat.irq_resched_count);
	unsigned long flags;
	u64 t0, dt = 0;

	local_irq_save(flags);
	t0 = rdtsc_ordered();
	apic_icr_write(APIC_DEST_SELF | APIC_DM_FIXED | RESCHEDULE_VECTOR, 0);
	local_irq_restore(flags);
	for (int i = 0; i < 1000000; i++) {
		if (this_cpu_read(irq_stat.irq_resched_count) != before) {
			dt = rdtsc_ordered() - t0;
			break;
		}
		cpu_relax();
	}
	KTEST_EXPECT_EQ(t, this_cpu_read(irq_stat.irq_resched_count), before + 1);
	ktest_info(t, "self IPI: %llu cycles from ICR write to handled", (unsigned long long)dt);
}

static DEFINE_SPINLOCK(contended_lock);
static DEFINE_RAW_SPINLOCK(contended_raw_lock);
static unsigned long lock_counter, raw_counter;
/*
 * Enough to interleave every CPU many times; more only measures TCG's
 * lock-holder preemption when vCPUs outnumber host cores.
 */
#define LOCK_ROUNDS 300

static void hammer_locks(void *info)
{
	for (int i = 0; i < LOCK_ROUNDS; i++) {
		/*
		 * This runs in the IPI handler: hard-IRQ context, where a
		 * spinlock_t is a sleeping lock on PREEMPT_RT and must not be
		 * taken (the locking suite covers it from threads there).
		 */
		if (!IS_ENABLED(CONFIG_PREEMPT_RT)) {
			spin_lock(&contended_lock);
			/* A non-atomic read-modify-write: only exclusion keeps it right. */
			lock_counter = READ_ONCE(lock_counter) + 1;
			spin_unlock(&contended_lock);
		}
		raw_spin_lock(&contended_raw_lock);
		raw_counter = READ_ONCE(raw_counter) + 1;
		raw_spin_unlock(&contended_raw_lock);
	}
}

static void spinlock_exclusion_all_cpus(struct ktest *t)
{
	lock_counter = raw_counter = 0;
	on_each_cpu(hammer_locks, NULL, 1);
	if (!IS_ENABLED(CONFIG_PREEMPT_RT))
		KTEST_EXPECT_EQ(t, lock_counter, LOCK_ROUNDS * num_online_cpus());
	KTEST_EXPECT_EQ(t, raw_counter, LOCK_ROUNDS * num_online_cpus());
	KTEST_EXPECT_FALSE(t, spin_is_locked(&contended_lock));
}

static void nmi_backtrace_all(struct ktest *t)
{
	u64 mark = ktest_log_mark();
	char needle[48];
	int cpu;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs");
	trigger_cpumask_backtrace(cpu_online_mask);
	for_each_online_cpu(cpu) {
		if (cpu == smp_processor_id())
			continue;
		snprintf(needle, sizeof(needle), "NMI backtrace for cpu %d", cpu);
		KTEST_EXPECT_LOG(t, mark, needle);
		KTEST_EXPECT_GT(t, per_cpu(irq_stat, cpu).__nmi_count, 0);
	}
}

static struct ktest_case smp_cases[] = {
	KTEST_CASE(cpus_online),
	KTEST_CASE(call_single_each_cpu),
	KTEST_CASE(on_each_cpu_all_and_cond),
	KTEST_CASE(reschedule_ipi_delivered),
	KTEST_CASE(self_ipi_latency),
	KTEST_CASE(spinlock_exclusion_all_cpus),
	KTEST_CASE(nmi_backtrace_all),
	{}
};

static struct ktest_suite smp_suite = { .name = "smp", .cases = smp_cases };
ktest_register_suite(smp_suite);
