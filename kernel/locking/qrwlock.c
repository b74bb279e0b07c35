// SPDX-License-Identifier: GPL-2.0
/*
 * Slow paths of the queued rwlock (include/asm-generic/qrwlock.h).
 *
 * Contenders serialise on wait_lock, a ticket lock, so they get the
 * rwlock in arrival order: the CPU at the head of the ticket queue is the
 * only one that competes with the current holders.  A writer there raises
 * _QW_WAITING, which turns away the read fast path, and waits for the
 * readers inside to drain.
 */
#include <linux/preempt.h>
#include <linux/spinlock.h>
#include <asm/rwlock.h>
#include <asm/processor.h>

/* Spin until none of the bits in @mask is set; acquire on the final read. */
static __always_inline int qrw_wait_clear(struct qrwlock *lock, int mask)
{
	int cnts;

	while ((cnts = __atomic_load_n(&lock->cnts.counter, __ATOMIC_ACQUIRE)) & mask)
		cpu_relax();
	return cnts;
}

void queued_read_lock_slowpath(struct qrwlock *lock)
{
	/*
	 * An interrupt handler's reader may be nested inside a reader in the
	 * task it interrupted on this CPU.  Queueing behind a waiting writer
	 * would then deadlock (the writer waits for the outer reader, which
	 * cannot run), so it keeps the count the fast path added and only
	 * waits out a writer that actually holds the lock.
	 */
	if (unlikely(in_interrupt())) {
		qrw_wait_clear(lock, _QW_LOCKED);
		return;
	}

	/* Give the count back and queue up behind everybody else. */
	__atomic_fetch_sub(&lock->cnts.counter, _QR_BIAS, __ATOMIC_RELAXED);
	arch_spin_lock(&lock->wait_lock);

	/*
	 * At the head of the queue: count ourselves in again.  A writer that
	 * went before us may still own the lock; nobody behind us can get it
	 * while we hold wait_lock, so this wait is short.
	 */
	__atomic_fetch_add(&lock->cnts.counter, _QR_BIAS, __ATOMIC_RELAXED);
	qrw_wait_clear(lock, _QW_LOCKED);

	/* Let the next in line in: it may be another reader that can share. */
	arch_spin_unlock(&lock->wait_lock);
}

void queued_write_lock_slowpath(struct qrwlock *lock)
{
	int cnts;

	arch_spin_lock(&lock->wait_lock);

	/* The lock may have emptied while we queued. */
	cnts = 0;
	if (__atomic_compare_exchange_n(&lock->cnts.counter, &cnts, _QW_LOCKED,
					false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		goto unlock;

	/* Close the read fast path, then wait for the readers inside. */
	__atomic_fetch_or(&lock->cnts.counter, _QW_WAITING, __ATOMIC_RELAXED);
	for (;;) {
		cnts = _QW_WAITING;
		if (__atomic_compare_exchange_n(&lock->cnts.counter, &cnts,
						_QW_LOCKED, false,
						__ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			break;
		/* Interrupt-context readers may still come and go. */
		while (__atomic_load_n(&lock->cnts.counter, __ATOMIC_RELAXED) != _QW_WAITING)
			cpu_relax();
	}
unlock:
	arch_spin_unlock(&lock->wait_lock);
}

#if defined(CONFIG_DEBUG_LOCK_ALLOC) && !defined(CONFIG_PREEMPT_RT)
/* rwlock_init() under lockdep: one class per init site. */
void __rwlock_init(rwlock_t *lock, const char *name, struct lock_class_key *key)
{
	lockdep_init_map_wait(&lock->dep_map, name, key, 0, LD_WAIT_CONFIG);
	lock->raw_lock = (arch_rwlock_t)__ARCH_RW_LOCK_UNLOCKED;
}
#endif
