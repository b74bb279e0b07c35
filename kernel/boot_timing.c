// SPDX-License-Identifier: GPL-2.0
/*
 * boot_timing: step lengths of the SMP part of boot, and the delivery
 * time of every reschedule and function-call IPI sent meanwhile (from the
 * sender's write of the ICR to the target's handler).  Off by default;
 * when off each hook is one load of a flag.
 *
 * A step that is long while its IPIs arrive in microseconds is the
 * kernel's: something waited for a CPU that was never kicked and woke on
 * its next tick, or for work that did not run.  A step whose IPIs take as
 * long as the step itself is the host's: the target vCPU was not run.
 */
#include <linux/kernel.h>
#include <linux/boot_timing.h>
#include <linux/moduleparam.h>
#include <linux/cpumask.h>
#include <linux/smp.h>
#include <linux/sched.h>
#include <linux/ktime.h>
#include <linux/printk.h>
#include <linux/atomic.h>
#include <asm/irq_vectors.h>

bool boot_timing;
core_param("boot_timing", boot_timing, bool,
	   "print the SMP boot steps' lengths and their IPIs' delivery times");

/* Per target CPU: when the oldest IPI not yet handled was sent (0: none). */
static u64 ipi_sent_ns[CONFIG_NR_CPUS];

static struct {
	u64 last_ns;
	atomic_long_t sent, received;
	u64 max_ns, sum_ns;		/* delivery: worst and total */
	int max_cpu;
} bt;

/* The IPIs followed: function calls and reschedules. */
static bool boot_timing_vector(int vector)
{
	return vector == CALL_FUNCTION_SINGLE_VECTOR || vector == CALL_FUNCTION_VECTOR ||
	       vector == RESCHEDULE_VECTOR;
}

void __boot_timing_ipi_sent(int cpu, int vector)
{
	u64 none = 0;

	if ((unsigned int)cpu >= CONFIG_NR_CPUS || !boot_timing_vector(vector))
		return;
	atomic_long_inc(&bt.sent);
	/* Keep the oldest: a second IPI before the first is handled is one wait. */
	__atomic_compare_exchange_n(&ipi_sent_ns[cpu], &none, ktime_get_ns(), false,
				    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

void __boot_timing_ipi_sent_allbutself(int vector)
{
	int cpu, self = raw_smp_processor_id();

	for_each_online_cpu(cpu)
		if (cpu != self)
			__boot_timing_ipi_sent(cpu, vector);
}

/* In the IPI handler, interrupts off. */
void __boot_timing_ipi_received(void)
{
	int cpu = raw_smp_processor_id();
	u64 sent = __atomic_exchange_n(&ipi_sent_ns[cpu], 0, __ATOMIC_RELAXED);
	u64 d, old;

	if (!sent)
		return;
	d = ktime_get_ns() - sent;
	atomic_long_inc(&bt.received);
	__atomic_fetch_add(&bt.sum_ns, d, __ATOMIC_RELAXED);
	old = READ_ONCE(bt.max_ns);
	while (d > old) {
		if (__atomic_compare_exchange_n(&bt.max_ns, &old, d, false,
						__ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
			WRITE_ONCE(bt.max_cpu, cpu);
			break;
		}
	}
}

/*
 * Print the step that just ended (@arg >= 0 is printed after its name,
 * e.g. a CPU number) and start the next.  Steps shorter than 1 ms with no
 * IPI are not worth a line.
 */
void __boot_timing_mark(const char *what, int arg)
{
	u64 now = ktime_get_ns(), d = now - bt.last_ns;
	long sent = atomic_long_xchg(&bt.sent, 0);
	long received = atomic_long_xchg(&bt.received, 0);
	u64 max = xchg(&bt.max_ns, 0), sum = xchg(&bt.sum_ns, 0);

	if (bt.last_ns && (d >= NSEC_PER_MSEC || sent)) {
		char name[48];

		if (arg >= 0)
			snprintf(name, sizeof(name), "%s %d", what, arg);
		else
			snprintf(name, sizeof(name), "%s", what);
		pr_info("boot_timing: %-28s %8llu us; IPIs %ld sent, %ld handled, delivery avg %llu us, max %llu us (CPU %d)\n",
			name, (unsigned long long)(d / 1000), sent, received,
			(unsigned long long)(received ? sum / received / 1000 : 0),
			(unsigned long long)(max / 1000),
			max ? READ_ONCE(bt.max_cpu) : -1);
	}
	bt.last_ns = now;
}

static struct boot_order_step boot_order[BOOT_ORDER_STEPS];
static unsigned int nr_boot_order;

/* Boot is one thread of steps after another: no lock needed. */
void boot_order_mark(const char *name)
{
	struct boot_order_step *st;

	if (WARN_ON_ONCE(nr_boot_order >= BOOT_ORDER_STEPS))
		return;
	st = &boot_order[nr_boot_order];
	st->name = name;
	st->task = current;
	st->cpu = raw_smp_processor_id();
	st->online = num_online_cpus();
	smp_store_release(&nr_boot_order, nr_boot_order + 1);
}

unsigned int boot_order_steps(const struct boot_order_step **steps)
{
	*steps = boot_order;
	return smp_load_acquire(&nr_boot_order);
}
