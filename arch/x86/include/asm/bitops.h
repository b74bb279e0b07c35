/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_BITOPS_H
#define _ASM_X86_BITOPS_H

#include <linux/types.h>
#include <linux/compiler.h>

#define BITS_PER_LONG		64
#define BIT(nr)			(1UL << (nr))
#define BIT_WORD(nr)		((nr) / BITS_PER_LONG)
#define BIT_MASK(nr)		(1UL << ((nr) % BITS_PER_LONG))
#define BITS_TO_LONGS(n)	(((n) + BITS_PER_LONG - 1) / BITS_PER_LONG)

/* Atomic (lock-prefixed) forms. */
static __always_inline void set_bit(long nr, volatile unsigned long *addr)
{
	asm volatile("lock btsq %1, %0" : "+m"(*addr) : "r"(nr) : "memory");
}

static __always_inline void clear_bit(long nr, volatile unsigned long *addr)
{
	asm volatile("lock btrq %1, %0" : "+m"(*addr) : "r"(nr) : "memory");
}

static __always_inline bool test_and_set_bit(long nr, volatile unsigned long *addr)
{
	bool old;

	asm volatile("lock btsq %2, %1" : "=@ccc"(old), "+m"(*addr) : "r"(nr) : "memory");
	return old;
}

static __always_inline bool test_and_clear_bit(long nr, volatile unsigned long *addr)
{
	bool old;

	asm volatile("lock btrq %2, %1" : "=@ccc"(old), "+m"(*addr) : "r"(nr) : "memory");
	return old;
}

/*
 * Lock and unlock forms, for bits used as locks (bit_spin_lock()): the
 * set has acquire and the clear release ordering.  A locked x86
 * instruction is a full barrier already, and TSO never lets earlier
 * accesses pass a later store, so only the compiler needs telling.
 */
static __always_inline bool test_and_set_bit_lock(long nr, volatile unsigned long *addr)
{
	return test_and_set_bit(nr, addr);
}

static __always_inline void clear_bit_unlock(long nr, volatile unsigned long *addr)
{
	barrier();
	clear_bit(nr, addr);
}

/* Non-atomic forms, for data only one CPU touches. */
static __always_inline void __set_bit(long nr, volatile unsigned long *addr)
{
	addr[BIT_WORD(nr)] |= BIT_MASK(nr);
}

static __always_inline void __clear_bit(long nr, volatile unsigned long *addr)
{
	addr[BIT_WORD(nr)] &= ~BIT_MASK(nr);
}

/*
 * Release a bit lock with a plain (unlocked) read-modify-write: only for
 * words whose other bits nobody changes while the lock bit is held.
 */
static __always_inline void __clear_bit_unlock(long nr, volatile unsigned long *addr)
{
	barrier();
	__clear_bit(nr, addr);
}

static __always_inline bool test_bit(long nr, const volatile unsigned long *addr)
{
	return (addr[BIT_WORD(nr)] >> (nr % BITS_PER_LONG)) & 1;
}

static __always_inline unsigned long __ffs(unsigned long w)
{
	return __builtin_ctzl(w);
}

static __always_inline unsigned long __fls(unsigned long w)
{
	return BITS_PER_LONG - 1 - __builtin_clzl(w);
}

static __always_inline int fls64(u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

static __always_inline int ilog2_u64(u64 x)
{
	return fls64(x) - 1;
}

#endif
