/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SPINLOCK_H
#define _LINUX_SPINLOCK_H

/*
 * Spinning locks.  raw_spinlock_t always spins with preemption disabled
 * (and IRQs off for the _irq/_irqsave forms) on every model.  spinlock_t
 * is the same thing on !PREEMPT_RT; on PREEMPT_RT it is a sleeping rtlock
 * (linux/spinlock_rt.h) that keeps the owner migrate-disabled and leaves
 * interrupts on even in its _irqsave form.  Lock classes for lockdep are
 * keyed by the init site (the static __key in each *_init macro).
 */
#include <linux/preempt.h>
#include <linux/irqflags.h>
#include <linux/bottom_half.h>
#include <linux/lockdep.h>
#include <linux/spinlock_types.h>

/* ---------------------------------------------------------- raw_spinlock_t */

#ifdef CONFIG_DEBUG_LOCK_ALLOC
void __raw_spin_lock_init(raw_spinlock_t *lock, const char *name,
			  struct lock_class_key *key, short inner);
# define raw_spin_lock_init(lock)					\
do {									\
	static struct lock_class_key __key;				\
	__raw_spin_lock_init((lock), #lock, &__key, LD_WAIT_SPIN);	\
} while (0)
#else
# define raw_spin_lock_init(lock)					\
	do { *(lock) = __RAW_SPIN_LOCK_UNLOCKED(lock); } while (0)
#endif

#define raw_spin_is_locked(lock)	arch_spin_is_locked(&(lock)->raw_lock)

static __always_inline void do_raw_spin_lock(raw_spinlock_t *lock)
{
	arch_spin_lock(&lock->raw_lock);
}

static __always_inline bool do_raw_spin_trylock(raw_spinlock_t *lock)
{
	return arch_spin_trylock(&lock->raw_lock);
}

static __always_inline void do_raw_spin_unlock(raw_spinlock_t *lock)
{
	arch_spin_unlock(&lock->raw_lock);
}

static __always_inline void __raw_spin_lock_nested(raw_spinlock_t *rl, int subclass)
{
#if defined(CONFIG_LOCK_STAT) && !defined(CONFIG_PROVE_LOCKING)
	unsigned long ip = _THIS_IP_;

	preempt_disable();
	/*
	 * lock_stat without lockdep need not announce the lock before
	 * trying it: when the try wins, the lock side is one call instead
	 * of two (lock_acquire() and lock_acquired()), with the same counts.
	 */
	if (likely(do_raw_spin_trylock(rl))) {
		lockstat_acquire_uncontended(&rl->dep_map, 0, ip);
		return;
	}
	spin_acquire(&rl->dep_map, subclass, 0, _RET_IP_);
	lock_contended(&rl->dep_map, ip);
	do_raw_spin_lock(rl);
	lock_acquired(&rl->dep_map, ip);
#else
	preempt_disable();
	spin_acquire(&rl->dep_map, subclass, 0, _RET_IP_);
	/* The site inside the locking function, not its caller's. */
	LOCK_CONTENDED_IP(rl, do_raw_spin_trylock, do_raw_spin_lock, _THIS_IP_);
#endif
}

static __always_inline void raw_spin_lock(raw_spinlock_t *lock)
{
	__raw_spin_lock_nested(lock, 0);
}
#define raw_spin_lock_nested(lock, subclass)	__raw_spin_lock_nested(lock, subclass)

static __always_inline void raw_spin_unlock(raw_spinlock_t *lock)
{
	spin_release(&lock->dep_map, _RET_IP_);
	do_raw_spin_unlock(lock);
	preempt_enable();
}

static __always_inline void raw_spin_lock_irq(raw_spinlock_t *lock)
{
	local_irq_disable();
	raw_spin_lock(lock);
}

static __always_inline void raw_spin_unlock_irq(raw_spinlock_t *lock)
{
	spin_release(&lock->dep_map, _RET_IP_);
	do_raw_spin_unlock(lock);
	local_irq_enable();
	preempt_enable();
}

static __always_inline unsigned long __raw_spin_lock_irqsave(raw_spinlock_t *lock,
							     int subclass)
{
	unsigned long flags;

	local_irq_save(flags);
	__raw_spin_lock_nested(lock, subclass);
	return flags;
}
#define raw_spin_lock_irqsave(lock, flags)				\
	do { flags = __raw_spin_lock_irqsave(lock, 0); } while (0)
#define raw_spin_lock_irqsave_nested(lock, flags, subclass)		\
	do { flags = __raw_spin_lock_irqsave(lock, subclass); } while (0)

static __always_inline void raw_spin_unlock_irqrestore(raw_spinlock_t *lock,
						       unsigned long flags)
{
	spin_release(&lock->dep_map, _RET_IP_);
	do_raw_spin_unlock(lock);
	local_irq_restore(flags);
	preempt_enable();
}

static __always_inline void raw_spin_lock_bh(raw_spinlock_t *lock)
{
	local_bh_disable();
	raw_spin_lock(lock);
}

static __always_inline void raw_spin_unlock_bh(raw_spinlock_t *lock)
{
	raw_spin_unlock(lock);
	local_bh_enable();
}

static __always_inline bool raw_spin_trylock(raw_spinlock_t *lock)
{
	preempt_disable();
	if (do_raw_spin_trylock(lock)) {
		spin_acquire(&lock->dep_map, 0, 1, _RET_IP_);
		return true;
	}
	preempt_enable();
	return false;
}

#define raw_spin_trylock_irq(lock)					\
({									\
	local_irq_disable();						\
	raw_spin_trylock(lock) ? 1 : ({ local_irq_enable(); 0; });	\
})

#define raw_spin_trylock_irqsave(lock, flags)				\
({									\
	local_irq_save(flags);						\
	raw_spin_trylock(lock) ? 1 : ({ local_irq_restore(flags); 0; }); \
})

#define raw_spin_trylock_bh(lock)					\
({									\
	local_bh_disable();						\
	raw_spin_trylock(lock) ? 1 : ({ local_bh_enable(); 0; });	\
})

/* --------------------------------------------------------------- spinlock_t */

#ifndef CONFIG_PREEMPT_RT
# include <linux/spinlock_api_smp.h>
#else
# include <linux/spinlock_rt.h>
#endif

#endif
