/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_KERNEL_STAT_H
#define _LINUX_KERNEL_STAT_H

/*
 * Per-CPU interrupt totals, under Linux's names: every hard interrupt a
 * CPU takes (all vectors: APIC timer, IPIs, device lines, spurious and
 * error; not NMIs, which irq_stat.__nmi_count counts) and every softirq
 * action it runs.  One increment each, so a polling reader (osnoise) can
 * tell whether anything interrupted it between two of its samples.
 */
#include <linux/types.h>
#include <linux/percpu.h>

struct kernel_stat {
	unsigned long irqs_sum;		/* hard interrupts handled */
	unsigned long softirqs_sum;	/* softirq actions run */
};

DECLARE_PER_CPU(struct kernel_stat, kstat);

#define kstat_this_cpu	this_cpu_ptr(&kstat)

static inline unsigned long kstat_cpu_irqs_sum(unsigned int cpu)
{
	return READ_ONCE(per_cpu(kstat, cpu).irqs_sum);
}

static inline unsigned long kstat_cpu_softirqs_sum(unsigned int cpu)
{
	return READ_ONCE(per_cpu(kstat, cpu).softirqs_sum);
}

#endif
