/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_GENERIC_IRQ_REGS_H
#define _ASM_GENERIC_IRQ_REGS_H

#include <linux/percpu.h>

struct pt_regs;

/*
 * The register frame of the interrupt this CPU is handling, so that code
 * deep in a handler (a sampling hrtimer callback) can see what was
 * interrupted.  common_interrupt() sets it and puts the outer one back.
 */
DECLARE_PER_CPU(struct pt_regs *, __irq_regs);

static inline struct pt_regs *get_irq_regs(void)
{
	return this_cpu_read(__irq_regs);
}

static inline struct pt_regs *set_irq_regs(struct pt_regs *new_regs)
{
	struct pt_regs *old_regs = this_cpu_read(__irq_regs);

	this_cpu_write(__irq_regs, new_regs);
	return old_regs;
}

#endif
