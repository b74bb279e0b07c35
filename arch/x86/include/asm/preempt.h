/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_PREEMPT_H
#define _ASM_X86_PREEMPT_H

#include <asm/percpu.h>

/* Defined in arch/x86/kernel/setup_percpu.c; a plain per-CPU int as in Linux. */
extern __attribute__((section(".data..percpu"))) int __preempt_count;

static __always_inline int preempt_count(void)
{
	return this_cpu_read(__preempt_count);
}

static __always_inline void preempt_count_set(int pc)
{
	this_cpu_write(__preempt_count, pc);
}

static __always_inline void __preempt_count_add(int val)
{
	this_cpu_add(__preempt_count, val);
}

static __always_inline void __preempt_count_sub(int val)
{
	this_cpu_sub(__preempt_count, val);
}

#endif
