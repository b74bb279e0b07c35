/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_HARDIRQ_H
#define _ASM_X86_HARDIRQ_H

#include <linux/percpu.h>

/* Per-CPU interrupt statistics, as Linux's irq_cpustat_t on x86. */
typedef struct {
	unsigned long apic_timer_irqs;
	unsigned long irq_resched_count;
	unsigned long irq_call_count;
	unsigned long irq_spurious_count;
	unsigned long irq_error_count;
	unsigned long irq_unexpected_count;
	unsigned long __nmi_count;
} irq_cpustat_t;

DECLARE_PER_CPU(irq_cpustat_t, irq_stat);
#define inc_irq_stat(member)	this_cpu_inc(irq_stat.member)

#endif
