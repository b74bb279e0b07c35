/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_BIT_SPINLOCK_H
#define _LINUX_BIT_SPINLOCK_H

/*
 * bit_spin_lock: one bit of a word used as a spinning lock, for objects
 * too small or too numerous to carry a spinlock (SLUB's slab_lock() uses
 * PG_locked in struct page).  It has no owner, no fairness and no lockdep
 * tracking.  It spins with preemption disabled on every model, PREEMPT_RT
 * included: nothing turns it into a sleeping lock, so it is only for very
 * short sections.
 */
#include <linux/preempt.h>
#include <asm/bitops.h>
#include <asm/processor.h>

static __always_inline void bit_spin_lock(int bitnum, unsigned long *addr)
{
	preempt_disable();
	while (unlikely(test_and_set_bit_lock(bitnum, addr))) {
		/*
		 * Wait with preemption enabled and with plain reads, so
		 * the holder's cache line is not hammered with locked
		 * writes and this task can be preempted meanwhile.
		 */
		preempt_enable();
		do {
			cpu_relax();
		} while (test_bit(bitnum, addr));
		preempt_disable();
	}
}

/* Nonzero when the lock was taken (preemption stays disabled then). */
static __always_inline int bit_spin_trylock(int bitnum, unsigned long *addr)
{
	preempt_disable();
	if (unlikely(test_and_set_bit_lock(bitnum, addr))) {
		preempt_enable();
		return 0;
	}
	return 1;
}

static __always_inline void bit_spin_unlock(int bitnum, unsigned long *addr)
{
	clear_bit_unlock(bitnum, addr);
	preempt_enable();
}

/*
 * The non-atomic release: cheaper, but only correct when no other CPU
 * may modify any bit of the word while we hold the lock bit.
 */
static __always_inline void __bit_spin_unlock(int bitnum, unsigned long *addr)
{
	__clear_bit_unlock(bitnum, addr);
	preempt_enable();
}

static __always_inline int bit_spin_is_locked(int bitnum, unsigned long *addr)
{
	return test_bit(bitnum, addr);
}

#endif
