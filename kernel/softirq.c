// SPDX-License-Identifier: GPL-2.0
/*
 * Hard interrupt entry and exit accounting.  Linux keeps irq_enter() and
 * irq_exit() here because irq_exit() is where pending softirqs run; the
 * softirq issue adds that, the scheduler issue the preemption check.
 */
#include <linux/kernel.h>
#include <linux/hardirq.h>

void irq_enter(void)
{
	__preempt_count_add(HARDIRQ_OFFSET);
	barrier();
}

void irq_exit(void)
{
	barrier();
	__preempt_count_sub(HARDIRQ_OFFSET);
}
