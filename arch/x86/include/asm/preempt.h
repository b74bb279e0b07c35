/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_PREEMPT_H
#define _ASM_X86_PREEMPT_H

#include <asm/percpu.h>
#include <asm/current.h>
#include <asm/bitops.h>

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

/* Is a reschedule due now (NEED_RESCHED, or LAZY with a zero lazy count)? */
static __always_inline bool tif_need_resched_now(void)
{
	struct thread_info *ti = current_thread_info();

	if (test_bit(TIF_NEED_RESCHED, &ti->flags))
		return true;
#ifdef CONFIG_PREEMPT_LAZY
	return !ti->preempt_lazy_count && test_bit(TIF_NEED_RESCHED_LAZY, &ti->flags);
#else
	return false;
#endif
}

/*
 * One decl with its zero flag as the result (Linux's x86 form, without the
 * folded PREEMPT_NEED_RESCHED bit): decl; jne on the way out of a section
 * that leaves preemption disabled or has nothing pending, and the flag
 * test only when the count reaches zero.
 */
static __always_inline bool __preempt_count_dec_and_test(void)
{
	bool zero;

	asm volatile("decl %%gs:%0" : "+m"(__preempt_count), "=@ccz"(zero) : : "memory");
	return zero && tif_need_resched_now();
}

#endif
