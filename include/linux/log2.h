/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_LOG2_H
#define _LINUX_LOG2_H

/*
 * Integer base-2 logarithms and powers of two.  ilog2() folds to a
 * constant for constant arguments, so it may size arrays and pick kmalloc
 * caches at compile time; otherwise it is one bsr.
 */
#include <linux/types.h>
#include <asm/bitops.h>

#define ilog2(n)							\
	(__builtin_constant_p(n) ?					\
		((n) < 2 ? 0 : 63 - __builtin_clzll(n)) :		\
		ilog2_u64(n))

static inline __attribute__((const)) bool is_power_of_2(unsigned long n)
{
	return n != 0 && (n & (n - 1)) == 0;
}

static inline __attribute__((const))
unsigned long __roundup_pow_of_two(unsigned long n)
{
	return 1UL << fls64(n - 1);
}

#define roundup_pow_of_two(n)						\
	(__builtin_constant_p(n) ?					\
		((n) == 1 ? 1 : (1UL << (ilog2((n) - 1) + 1))) :	\
		__roundup_pow_of_two(n))

#define order_base_2(n)	((n) > 1 ? ilog2((n) - 1) + 1 : 0)

#endif /* _LINUX_LOG2_H */
