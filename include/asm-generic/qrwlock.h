/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_GENERIC_QRWLOCK_H
#define _ASM_GENERIC_QRWLOCK_H

/*
 * Queued rwlock (Linux's qrwlock): uncontended read_lock is one locked
 * add, write_lock one cmpxchg.  Anybody who cannot get the lock at once
 * queues on wait_lock (a FIFO ticket lock), so a stream of readers cannot
 * starve a writer: once a writer is at the head it sets _QW_WAITING and
 * new readers go to the back of the queue.  The one exception is a
 * reader in interrupt context: it may already hold the lock in the task
 * it interrupted (readers nest), so it only waits for an active writer
 * to finish, never for a waiting one (kernel/locking/qrwlock.c).
 */
#include <linux/atomic.h>
#include <asm-generic/qrwlock_types.h>

#define	_QW_WAITING	0x100		/* a writer is waiting */
#define	_QW_LOCKED	0x0ff		/* a writer holds the lock */
#define	_QW_WMASK	0x1ff		/* either of the two */
#define	_QR_SHIFT	9
#define _QR_BIAS	(1U << _QR_SHIFT)

void queued_read_lock_slowpath(struct qrwlock *lock);
void queued_write_lock_slowpath(struct qrwlock *lock);

static __always_inline int qrw_cnts(struct qrwlock *lock)
{
	return __atomic_load_n(&lock->cnts.counter, __ATOMIC_RELAXED);
}

static __always_inline int queued_read_trylock(struct qrwlock *lock)
{
	int cnts = qrw_cnts(lock);

	if (likely(!(cnts & _QW_WMASK))) {
		cnts = __atomic_add_fetch(&lock->cnts.counter, _QR_BIAS,
					  __ATOMIC_ACQUIRE);
		if (likely(!(cnts & _QW_WMASK)))
			return 1;
		/* A writer came in between: take our count back. */
		__atomic_fetch_sub(&lock->cnts.counter, _QR_BIAS, __ATOMIC_RELAXED);
	}
	return 0;
}

static __always_inline int queued_write_trylock(struct qrwlock *lock)
{
	int cnts = qrw_cnts(lock);

	if (unlikely(cnts))
		return 0;
	return __atomic_compare_exchange_n(&lock->cnts.counter, &cnts, _QW_LOCKED,
					   false, __ATOMIC_ACQUIRE,
					   __ATOMIC_RELAXED);
}

static __always_inline void queued_read_lock(struct qrwlock *lock)
{
	int cnts = __atomic_add_fetch(&lock->cnts.counter, _QR_BIAS, __ATOMIC_ACQUIRE);

	if (likely(!(cnts & _QW_WMASK)))
		return;
	queued_read_lock_slowpath(lock);
}

static __always_inline void queued_write_lock(struct qrwlock *lock)
{
	int cnts = 0;

	if (likely(__atomic_compare_exchange_n(&lock->cnts.counter, &cnts,
					       _QW_LOCKED, false,
					       __ATOMIC_ACQUIRE,
					       __ATOMIC_RELAXED)))
		return;
	queued_write_lock_slowpath(lock);
}

static __always_inline void queued_read_unlock(struct qrwlock *lock)
{
	__atomic_fetch_sub(&lock->cnts.counter, _QR_BIAS, __ATOMIC_RELEASE);
}

/*
 * A writer owns the whole word except the reader bits other CPUs may be
 * adding to (readers that will back off or queue), so clearing just the
 * low byte is enough and needs no locked instruction.
 */
static __always_inline void queued_write_unlock(struct qrwlock *lock)
{
	__atomic_store_n(&lock->wlocked, 0, __ATOMIC_RELEASE);
}

static __always_inline int queued_rwlock_is_contended(struct qrwlock *lock)
{
	return arch_spin_is_locked(&lock->wait_lock);
}

#define arch_read_lock(l)		queued_read_lock(l)
#define arch_write_lock(l)		queued_write_lock(l)
#define arch_read_trylock(l)		queued_read_trylock(l)
#define arch_write_trylock(l)		queued_write_trylock(l)
#define arch_read_unlock(l)		queued_read_unlock(l)
#define arch_write_unlock(l)		queued_write_unlock(l)
#define arch_rwlock_is_contended(l)	queued_rwlock_is_contended(l)

#endif
