/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SPINLOCK_H
#define _LINUX_SPINLOCK_H

/*
 * raw_spinlock_t always spins with preemption disabled.  spinlock_t is the
 * same on !PREEMPT_RT; the locking issue adds the PREEMPT_RT mapping
 * (an rt_mutex-based sleeping lock) behind this same API.
 */
#include <linux/preempt.h>
#include <linux/irqflags.h>
#include <asm/spinlock.h>

typedef struct raw_spinlock {
	arch_spinlock_t raw_lock;
} raw_spinlock_t;

#define __RAW_SPIN_LOCK_UNLOCKED(name)	{ .raw_lock = __ARCH_SPIN_LOCK_UNLOCKED }
#define DEFINE_RAW_SPINLOCK(name)	raw_spinlock_t name = __RAW_SPIN_LOCK_UNLOCKED(name)
#define raw_spin_lock_init(l)		do { *(l) = (raw_spinlock_t)__RAW_SPIN_LOCK_UNLOCKED(l); } while (0)

static __always_inline void raw_spin_lock(raw_spinlock_t *l)
{
	preempt_disable();
	arch_spin_lock(&l->raw_lock);
}

static __always_inline void raw_spin_unlock(raw_spinlock_t *l)
{
	arch_spin_unlock(&l->raw_lock);
	preempt_enable();
}

static __always_inline bool raw_spin_trylock(raw_spinlock_t *l)
{
	preempt_disable();
	if (arch_spin_trylock(&l->raw_lock))
		return true;
	preempt_enable();
	return false;
}

static __always_inline void raw_spin_lock_irq(raw_spinlock_t *l)
{
	local_irq_disable();
	raw_spin_lock(l);
}

static __always_inline void raw_spin_unlock_irq(raw_spinlock_t *l)
{
	raw_spin_unlock(l);
	local_irq_enable();
}

#define raw_spin_lock_irqsave(l, flags)					\
	do { local_irq_save(flags); raw_spin_lock(l); } while (0)
#define raw_spin_unlock_irqrestore(l, flags)				\
	do { raw_spin_unlock(l); local_irq_restore(flags); } while (0)
#define raw_spin_is_locked(l)	arch_spin_is_locked(&(l)->raw_lock)

/* spinlock_t on !PREEMPT_RT: a raw spinlock under another name. */
typedef struct spinlock {
	raw_spinlock_t rlock;
} spinlock_t;

#define __SPIN_LOCK_UNLOCKED(name)	{ .rlock = __RAW_SPIN_LOCK_UNLOCKED(name) }
#define DEFINE_SPINLOCK(name)		spinlock_t name = __SPIN_LOCK_UNLOCKED(name)
#define spin_lock_init(l)		raw_spin_lock_init(&(l)->rlock)

#define spin_lock(l)			raw_spin_lock(&(l)->rlock)
#define spin_unlock(l)			raw_spin_unlock(&(l)->rlock)
#define spin_trylock(l)			raw_spin_trylock(&(l)->rlock)
#define spin_lock_irq(l)		raw_spin_lock_irq(&(l)->rlock)
#define spin_unlock_irq(l)		raw_spin_unlock_irq(&(l)->rlock)
#define spin_lock_irqsave(l, f)		raw_spin_lock_irqsave(&(l)->rlock, f)
#define spin_unlock_irqrestore(l, f)	raw_spin_unlock_irqrestore(&(l)->rlock, f)
#define spin_is_locked(l)		raw_spin_is_locked(&(l)->rlock)

#endif
