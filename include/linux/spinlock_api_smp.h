/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SPINLOCK_API_SMP_H
#define _LINUX_SPINLOCK_API_SMP_H

/*
 * spinlock_t on !PREEMPT_RT: every operation is the raw_spinlock_t one on
 * the embedded rlock (only the lockdep wait type differs).
 */
#ifndef _LINUX_SPINLOCK_H
# error "include <linux/spinlock.h>"
#endif

static __always_inline raw_spinlock_t *spinlock_check(spinlock_t *lock)
{
	return &lock->rlock;
}

#ifdef CONFIG_DEBUG_LOCK_ALLOC
# define spin_lock_init(_lock)						\
do {									\
	static struct lock_class_key __key;				\
	__raw_spin_lock_init(spinlock_check(_lock), #_lock, &__key,	\
			     LD_WAIT_CONFIG);				\
} while (0)
#else
# define spin_lock_init(_lock)						\
	do { *(_lock) = __SPIN_LOCK_UNLOCKED(_lock); } while (0)
#endif

#define spin_lock(lock)			raw_spin_lock(&(lock)->rlock)
#define spin_lock_nested(lock, sub)	raw_spin_lock_nested(&(lock)->rlock, sub)
#define spin_lock_bh(lock)		raw_spin_lock_bh(&(lock)->rlock)
#define spin_lock_irq(lock)		raw_spin_lock_irq(&(lock)->rlock)
#define spin_lock_irqsave(lock, flags)	raw_spin_lock_irqsave(spinlock_check(lock), flags)
#define spin_lock_irqsave_nested(lock, flags, sub)			\
	raw_spin_lock_irqsave_nested(spinlock_check(lock), flags, sub)
#define spin_unlock(lock)		raw_spin_unlock(&(lock)->rlock)
#define spin_unlock_bh(lock)		raw_spin_unlock_bh(&(lock)->rlock)
#define spin_unlock_irq(lock)		raw_spin_unlock_irq(&(lock)->rlock)
#define spin_unlock_irqrestore(lock, flags)				\
	raw_spin_unlock_irqrestore(&(lock)->rlock, flags)
#define spin_trylock(lock)		raw_spin_trylock(&(lock)->rlock)
#define spin_trylock_bh(lock)		raw_spin_trylock_bh(&(lock)->rlock)
#define spin_trylock_irq(lock)		raw_spin_trylock_irq(&(lock)->rlock)
#define spin_trylock_irqsave(lock, flags)				\
	raw_spin_trylock_irqsave(spinlock_check(lock), flags)
#define spin_is_locked(lock)		raw_spin_is_locked(&(lock)->rlock)

/* rwlock_t spins on !PREEMPT_RT too. */
#include <linux/rwlock.h>

#endif
