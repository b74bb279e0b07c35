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
 *
 * With CONFIG_LOCK_STAT irqlab counts them too (Linux's lock_stat does
 * not: lockdep has no map for a bit).  See the end of this file.
 */
#include <linux/preempt.h>
#include <asm/bitops.h>
#include <asm/processor.h>

#ifdef CONFIG_LOCK_STAT
/* The plain forms are the counted ones, in the default class; see below. */
#define bit_spin_lock		__bit_spin_lock_plain
#define bit_spin_trylock	__bit_spin_trylock_plain
#define bit_spin_unlock		__bit_spin_unlock_plain
#define __bit_spin_unlock	____bit_spin_unlock_plain
#endif

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

#ifdef CONFIG_LOCK_STAT
#undef bit_spin_lock
#undef bit_spin_trylock
#undef bit_spin_unlock
#undef __bit_spin_unlock
#include <linux/lockdep.h>

/*
 * lock_stat for bit spinlocks (irqlab's addition).  A word has no room
 * for a lockdep_map, so the map is the class's, shared by the lock's
 * users: DEFINE_BIT_SPIN_CLASS(map, "name") once and the _class forms
 * below at every site that takes or releases that kind of bit lock (SLUB's
 * slab_lock() has its own).  The plain forms count in a class of the
 * source file, "bit_spin_lock <file>".  Counted as for a spinlock: a
 * failed first test_and_set is a contention, then the wait until the bit
 * is ours, and the hold time to the release; a successful trylock is an
 * acquisition, a failed one nothing.  The class's last CPU and site
 * (bounces, contending sites) are the class's, not one word's.  The hooks
 * go to lock_stat alone, never to lockdep's dependency checks.
 *
 * Without CONFIG_LOCK_STAT the _class forms are the plain functions above
 * and DEFINE_BIT_SPIN_CLASS() defines nothing, so the code is unchanged.
 */
#define DEFINE_BIT_SPIN_CLASS(map, cname)	struct lockdep_map map = { .name = (cname) }
#define DECLARE_BIT_SPIN_CLASS(map)		extern struct lockdep_map map

static __always_inline void __bit_spin_lock_map(int bitnum, unsigned long *addr,
						struct lockdep_map *map,
						unsigned long ip)
{
	preempt_disable();
	lockstat_acquire(map, 0);
	if (unlikely(test_and_set_bit_lock(bitnum, addr))) {
		lock_contended(map, ip);
		/* The same wait as bit_spin_lock()'s, only counted. */
		do {
			preempt_enable();
			do {
				cpu_relax();
			} while (test_bit(bitnum, addr));
			preempt_disable();
		} while (test_and_set_bit_lock(bitnum, addr));
	}
	lock_acquired(map, ip);
}

static __always_inline int __bit_spin_trylock_map(int bitnum, unsigned long *addr,
						  struct lockdep_map *map)
{
	preempt_disable();
	if (unlikely(test_and_set_bit_lock(bitnum, addr))) {
		preempt_enable();
		return 0;
	}
	lockstat_acquire(map, 0);
	return 1;
}

static __always_inline void __bit_spin_unlock_map(int bitnum, unsigned long *addr,
						  struct lockdep_map *map)
{
	lockstat_release(map);
	clear_bit_unlock(bitnum, addr);
	preempt_enable();
}

static __always_inline void ____bit_spin_unlock_map(int bitnum, unsigned long *addr,
						    struct lockdep_map *map)
{
	lockstat_release(map);
	__clear_bit_unlock(bitnum, addr);
	preempt_enable();
}

#define bit_spin_lock_class(bitnum, addr, map)				\
	__bit_spin_lock_map(bitnum, addr, map, _THIS_IP_)
#define bit_spin_trylock_class(bitnum, addr, map)			\
	__bit_spin_trylock_map(bitnum, addr, map)
#define bit_spin_unlock_class(bitnum, addr, map)			\
	__bit_spin_unlock_map(bitnum, addr, map)
#define __bit_spin_unlock_class(bitnum, addr, map)			\
	____bit_spin_unlock_map(bitnum, addr, map)

/* The default class: one per source file that uses the plain forms. */
static struct lockdep_map bit_spin_file_map __maybe_unused = {
	.name = "bit_spin_lock " __BASE_FILE__,
};
#define bit_spin_lock(bitnum, addr)					\
	bit_spin_lock_class(bitnum, addr, &bit_spin_file_map)
#define bit_spin_trylock(bitnum, addr)					\
	bit_spin_trylock_class(bitnum, addr, &bit_spin_file_map)
#define bit_spin_unlock(bitnum, addr)					\
	bit_spin_unlock_class(bitnum, addr, &bit_spin_file_map)
#define __bit_spin_unlock(bitnum, addr)					\
	__bit_spin_unlock_class(bitnum, addr, &bit_spin_file_map)
#else
/* Nothing to define: a declaration only, so the ';' after it is legal. */
#define DEFINE_BIT_SPIN_CLASS(map, cname)	struct lockdep_map
#define DECLARE_BIT_SPIN_CLASS(map)		struct lockdep_map
#define bit_spin_lock_class(bitnum, addr, map)	bit_spin_lock(bitnum, addr)
#define bit_spin_trylock_class(bitnum, addr, map) bit_spin_trylock(bitnum, addr)
#define bit_spin_unlock_class(bitnum, addr, map) bit_spin_unlock(bitnum, addr)
#define __bit_spin_unlock_class(bitnum, addr, map) __bit_spin_unlock(bitnum, addr)
#endif

#endif
