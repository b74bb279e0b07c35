/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_PERCPU_H
#define _ASM_X86_PERCPU_H

/*
 * Per-CPU variables live in .data..percpu, which serves as the template
 * each CPU's area is copied from.  GS base holds the CPU's offset (its area
 * minus __per_cpu_start), so "%gs:var(%rip)" addresses this CPU's copy of
 * var: every this_cpu_*() operation below is one %gs-prefixed instruction,
 * atomic with respect to interrupts on the same CPU without any locking.
 * Before setup_per_cpu_areas() GS base is 0 and the boot CPU uses the
 * template itself.
 */
#include <linux/types.h>
#include <linux/compiler.h>

#define __percpu_op1(op, var, val)					\
	asm volatile(op "%z0 %1, %%gs:%0" : "+m"(var) : "re"(val) : "memory")

#define this_cpu_read(var) ({						\
	__typeof__(var) __v;						\
	asm volatile("mov%z0 %%gs:%1, %0" : "=r"(__v) : "m"(var));	\
	__v;								\
})

#define this_cpu_write(var, val) do {					\
	__typeof__(var) __v = (val);					\
	asm volatile("mov%z0 %1, %%gs:%0" : "=m"(var) : "re"(__v) : "memory");\
} while (0)

#define this_cpu_add(var, val)	__percpu_op1("add", var, (__typeof__(var))(val))
#define this_cpu_sub(var, val)	__percpu_op1("sub", var, (__typeof__(var))(val))
#define this_cpu_inc(var)	this_cpu_add(var, 1)
#define this_cpu_dec(var)	this_cpu_sub(var, 1)
#define this_cpu_or(var, val)	__percpu_op1("or", var, (__typeof__(var))(val))
#define this_cpu_and(var, val)	__percpu_op1("and", var, (__typeof__(var))(val))

/* xadd without lock: interrupt-atomic on this CPU, which is all we need. */
#define this_cpu_add_return(var, val) ({				\
	__typeof__(var) __r = (val);					\
	asm volatile("xadd%z0 %0, %%gs:%1" : "+r"(__r), "+m"(var) : : "memory");\
	__r + (__typeof__(var))(val);					\
})

/* xchg with a memory operand is implicitly locked; there is no cheaper form. */
#define this_cpu_xchg(var, nval) ({					\
	__typeof__(var) __r = (nval);					\
	asm volatile("xchg%z0 %0, %%gs:%1" : "+r"(__r), "+m"(var) : : "memory");\
	__r;								\
})

#define this_cpu_cmpxchg(var, oval, nval) ({				\
	__typeof__(var) __o = (oval);					\
	asm volatile("cmpxchg%z2 %2, %%gs:%1"				\
		     : "+a"(__o), "+m"(var)				\
		     : "r"((__typeof__(var))(nval)) : "memory");	\
	__o;								\
})

/*
 * cmpxchg16b on two adjacent per-CPU words, 16-byte aligned, WITHOUT the
 * lock prefix: only this CPU (and its interrupts) touch them.  This is the
 * instruction SLUB's lockless fast path is built around.
 */
#define this_cpu_cmpxchg_double(pcp1, pcp2, o1, o2, n1, n2) ({		\
	bool __ok;							\
	unsigned long __o1 = (unsigned long)(o1), __o2 = (unsigned long)(o2);\
	BUILD_BUG_ON(sizeof(pcp1) != 8 || sizeof(pcp2) != 8);		\
	asm volatile("cmpxchg16b %%gs:%1"				\
		     : "=@ccz"(__ok), "+m"(*(__int128 *)&(pcp1)),	\
		       "+a"(__o1), "+d"(__o2)				\
		     : "b"((unsigned long)(n1)), "c"((unsigned long)(n2))\
		     : "memory");					\
	__ok;								\
})

/* Interrupts and preemption are the caller's business for raw_ forms. */
#define raw_cpu_read(var)	this_cpu_read(var)
#define raw_cpu_write(var, val)	this_cpu_write(var, val)
#define __this_cpu_read(var)	this_cpu_read(var)
#define __this_cpu_write(var, val) this_cpu_write(var, val)
#define __this_cpu_inc(var)	this_cpu_inc(var)
#define raw_cpu_inc(var)	this_cpu_inc(var)
#define __this_cpu_add(var, v)	this_cpu_add(var, v)

#endif
