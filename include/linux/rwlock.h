/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_RWLOCK_H
#define _LINUX_RWLOCK_H

/*
 * rwlock_t on !PREEMPT_RT: a spinning reader-writer lock (the queued
 * rwlock of asm-generic/qrwlock.h).  Every form disables preemption for
 * as long as the lock is held, the _irq/_irqsave forms also interrupts and
 * the _bh forms softirqs, exactly as the spinlock_t forms do.  Readers
 * nest (a read_lock() in an interrupt inside a reader of the same lock is
 * fine); writers do not.  lockdep sees readers as recursive readers.
 *
 * Included through <linux/spinlock.h> (spinlock_api_smp.h on !RT).
 */
#ifndef _LINUX_SPINLOCK_H
# error "include <linux/spinlock.h>"
#endif

#include <asm/rwlock.h>

#ifdef CONFIG_DEBUG_LOCK_ALLOC
void __rwlock_init(rwlock_t *lock, const char *name, struct lock_class_key *key);
# define rwlock_init(lock)						\
do {									\
	static struct lock_class_key __key;				\
	__rwlock_init((lock), #lock, &__key);				\
} while (0)
#else
# define rwlock_init(lock)						\
	do { *(lock) = __RW_LOCK_UNLOCKED(lock); } while (0)
#endif

#define do_raw_read_lock(rw)		arch_read_lock(&(rw)->raw_lock)
#define do_raw_read_trylock(rw)		arch_read_trylock(&(rw)->raw_lock)
#define do_raw_read_unlock(rw)		arch_read_unlock(&(rw)->raw_lock)
#define do_raw_write_lock(rw)		arch_write_lock(&(rw)->raw_lock)
#define do_raw_write_trylock(rw)	arch_write_trylock(&(rw)->raw_lock)
#define do_raw_write_unlock(rw)		arch_write_unlock(&(rw)->raw_lock)

/* Some CPU is queued for the lock (a writer, or a reader behind one). */
#define rwlock_is_contended(rw)		arch_rwlock_is_contended(&(rw)->raw_lock)

/* ------------------------------------------------------------- readers */

static __always_inline void _raw_read_lock(rwlock_t *lock)
{
	preempt_disable();
	rwlock_acquire_read(&lock->dep_map, 0, 0, _RET_IP_);
	LOCK_CONTENDED_IP(lock, do_raw_read_trylock, do_raw_read_lock, _THIS_IP_);
}

static __always_inline int _raw_read_trylock(rwlock_t *lock)
{
	preempt_disable();
	if (do_raw_read_trylock(lock)) {
		rwlock_acquire_read(&lock->dep_map, 0, 1, _RET_IP_);
		return 1;
	}
	preempt_enable();
	return 0;
}

static __always_inline void _raw_read_unlock(rwlock_t *lock)
{
	rwlock_release(&lock->dep_map, _RET_IP_);
	do_raw_read_unlock(lock);
	preempt_enable();
}

static __always_inline void _raw_read_lock_irq(rwlock_t *lock)
{
	local_irq_disable();
	_raw_read_lock(lock);
}

static __always_inline void _raw_read_unlock_irq(rwlock_t *lock)
{
	rwlock_release(&lock->dep_map, _RET_IP_);
	do_raw_read_unlock(lock);
	local_irq_enable();
	preempt_enable();
}

static __always_inline unsigned long _raw_read_lock_irqsave(rwlock_t *lock)
{
	unsigned long flags;

	local_irq_save(flags);
	_raw_read_lock(lock);
	return flags;
}

static __always_inline void _raw_read_unlock_irqrestore(rwlock_t *lock,
							unsigned long flags)
{
	rwlock_release(&lock->dep_map, _RET_IP_);
	do_raw_read_unlock(lock);
	local_irq_restore(flags);
	preempt_enable();
}

static __always_inline void _raw_read_lock_bh(rwlock_t *lock)
{
	local_bh_disable();
	_raw_read_lock(lock);
}

static __always_inline void _raw_read_unlock_bh(rwlock_t *lock)
{
	_raw_read_unlock(lock);
	local_bh_enable();
}

/* ------------------------------------------------------------- writers */

static __always_inline void _raw_write_lock_nested(rwlock_t *lock, int subclass)
{
	preempt_disable();
	rwlock_acquire(&lock->dep_map, subclass, 0, _RET_IP_);
	LOCK_CONTENDED_IP(lock, do_raw_write_trylock, do_raw_write_lock, _THIS_IP_);
}

static __always_inline void _raw_write_lock(rwlock_t *lock)
{
	_raw_write_lock_nested(lock, 0);
}

static __always_inline int _raw_write_trylock(rwlock_t *lock)
{
	preempt_disable();
	if (do_raw_write_trylock(lock)) {
		rwlock_acquire(&lock->dep_map, 0, 1, _RET_IP_);
		return 1;
	}
	preempt_enable();
	return 0;
}

static __always_inline void _raw_write_unlock(rwlock_t *lock)
{
	rwlock_release(&lock->dep_map, _RET_IP_);
	do_raw_write_unlock(lock);
	preempt_enable();
}

static __always_inline void _raw_write_lock_irq(rwlock_t *lock)
{
	local_irq_disable();
	_raw_write_lock(lock);
}

static __always_inline void _raw_write_unlock_irq(rwlock_t *lock)
{
	rwlock_release(&lock->dep_map, _RET_IP_);
	do_raw_write_unlock(lock);
	local_irq_enable();
	preempt_enable();
}

static __always_inline unsigned long _raw_write_lock_irqsave(rwlock_t *lock)
{
	unsigned long flags;

	local_irq_save(flags);
	_raw_write_lock(lock);
	return flags;
}

static __always_inline void _raw_write_unlock_irqrestore(rwlock_t *lock,
							 unsigned long flags)
{
	rwlock_release(&lock->dep_map, _RET_IP_);
	do_raw_write_unlock(lock);
	local_irq_restore(flags);
	preempt_enable();
}

static __always_inline void _raw_write_lock_bh(rwlock_t *lock)
{
	local_bh_disable();
	_raw_write_lock(lock);
}

static __always_inline void _raw_write_unlock_bh(rwlock_t *lock)
{
	_raw_write_unlock(lock);
	local_bh_enable();
}

/* ------------------------------------------------------------- the API */

#define read_lock(lock)			_raw_read_lock(lock)
#define read_lock_irq(lock)		_raw_read_lock_irq(lock)
#define read_lock_bh(lock)		_raw_read_lock_bh(lock)
#define read_lock_irqsave(lock, flags)					\
	do { flags = _raw_read_lock_irqsave(lock); } while (0)
#define read_trylock(lock)		_raw_read_trylock(lock)
#define read_unlock(lock)		_raw_read_unlock(lock)
#define read_unlock_irq(lock)		_raw_read_unlock_irq(lock)
#define read_unlock_bh(lock)		_raw_read_unlock_bh(lock)
#define read_unlock_irqrestore(lock, flags)				\
	_raw_read_unlock_irqrestore(lock, flags)

#define write_lock(lock)		_raw_write_lock(lock)
/* A second lock of the same class, for lockdep (RT has it too). */
#define write_lock_nested(lock, sub)	_raw_write_lock_nested(lock, sub)
#define write_lock_irq(lock)		_raw_write_lock_irq(lock)
#define write_lock_bh(lock)		_raw_write_lock_bh(lock)
#define write_lock_irqsave(lock, flags)					\
	do { flags = _raw_write_lock_irqsave(lock); } while (0)
#define write_trylock(lock)		_raw_write_trylock(lock)
#define write_trylock_irqsave(lock, flags)				\
({									\
	local_irq_save(flags);						\
	write_trylock(lock) ? 1 : ({ local_irq_restore(flags); 0; });	\
})
#define write_unlock(lock)		_raw_write_unlock(lock)
#define write_unlock_irq(lock)		_raw_write_unlock_irq(lock)
#define write_unlock_bh(lock)		_raw_write_unlock_bh(lock)
#define write_unlock_irqrestore(lock, flags)				\
	_raw_write_unlock_irqrestore(lock, flags)

#endif
