/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __LINUX_SPINLOCK_RT_H
#define __LINUX_SPINLOCK_RT_H

/*
 * spinlock_t on PREEMPT_RT: a sleeping lock on an rt_mutex_base with
 * priority inheritance (kernel/locking/spinlock_rt.c).  The holder stays
 * preemptible but migrate-disabled, so per-CPU data it found stays its
 * CPU's.  Nothing here touches the interrupt flag or preempt_count: the
 * _irq and _irqsave forms are the plain lock (flags reads back 0) and
 * _bh only adds local_bh_disable().  A spinlock_t must therefore never be
 * taken in hard-IRQ context or with interrupts disabled on RT; code that
 * must do so uses raw_spinlock_t.
 */
#ifndef _LINUX_SPINLOCK_H
# error "include <linux/spinlock.h>"
#endif

#ifdef CONFIG_DEBUG_LOCK_ALLOC
void __rt_spin_lock_init(spinlock_t *slock, const char *name,
			 struct lock_class_key *key, bool percpu);
#else
static inline void __rt_spin_lock_init(spinlock_t *slock, const char *name,
				       struct lock_class_key *key, bool percpu)
{
}
#endif

#define spin_lock_init(slock)						\
do {									\
	static struct lock_class_key __key;				\
	rt_mutex_base_init(&(slock)->lock);				\
	__rt_spin_lock_init(slock, #slock, &__key, false);		\
} while (0)

#define local_spin_lock_init(slock)					\
do {									\
	static struct lock_class_key __key;				\
	rt_mutex_base_init(&(slock)->lock);				\
	__rt_spin_lock_init(slock, #slock, &__key, true);		\
} while (0)

void rt_spin_lock(spinlock_t *lock);
void rt_spin_lock_nested(spinlock_t *lock, int subclass);
void rt_spin_unlock(spinlock_t *lock);
void rt_spin_lock_unlock(spinlock_t *lock);
int rt_spin_trylock_bh(spinlock_t *lock);
int rt_spin_trylock(spinlock_t *lock);

static __always_inline void spin_lock(spinlock_t *lock)
{
	rt_spin_lock(lock);
}

#define spin_lock_nested(lock, subclass)	rt_spin_lock_nested(lock, subclass)

static __always_inline void spin_lock_bh(spinlock_t *lock)
{
	local_bh_disable();
	rt_spin_lock(lock);
}

static __always_inline void spin_lock_irq(spinlock_t *lock)
{
	rt_spin_lock(lock);
}

#define spin_lock_irqsave(lock, flags)					\
	do { (flags) = 0; spin_lock(lock); } while (0)
#define spin_lock_irqsave_nested(lock, flags, subclass)			\
	do { (flags) = 0; spin_lock_nested(lock, subclass); } while (0)

static __always_inline void spin_unlock(spinlock_t *lock)
{
	rt_spin_unlock(lock);
}

static __always_inline void spin_unlock_bh(spinlock_t *lock)
{
	rt_spin_unlock(lock);
	local_bh_enable();
}

static __always_inline void spin_unlock_irq(spinlock_t *lock)
{
	rt_spin_unlock(lock);
}

static __always_inline void spin_unlock_irqrestore(spinlock_t *lock,
						   unsigned long flags)
{
	(void)flags;
	rt_spin_unlock(lock);
}

#define spin_trylock(lock)		rt_spin_trylock(lock)
#define spin_trylock_bh(lock)		rt_spin_trylock_bh(lock)
#define spin_trylock_irq(lock)		rt_spin_trylock(lock)
#define spin_trylock_irqsave(lock, flags)				\
	({ (flags) = 0; rt_spin_trylock(lock); })
#define spin_is_locked(slock)		rt_mutex_base_is_locked(&(slock)->lock)

#include <linux/rwlock_rt.h>

#endif
