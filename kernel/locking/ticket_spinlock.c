// SPDX-License-Identifier: GPL-2.0
/*
 * The contended half of arch_spin_lock() (asm/spinlock.h): the lock was
 * not free when the fast path looked.  Linux's qspinlock has the same
 * split, with virt_spin_lock() at the top of queued_spin_lock_slowpath(),
 * so an uncontended lock never reads the key.
 */
#include <linux/kernel.h>
#include <asm/processor.h>
#include <asm/spinlock.h>

/*
 * Under a hypervisor, wait test-and-test-and-set: watch the word and try
 * only when it looks free, holding no place in line (see asm/spinlock.h
 * for why a descheduled vCPU must not).
 */
static bool virt_spin_lock(arch_spinlock_t *lock)
{
	if (!READ_ONCE(virt_spin_lock_key))
		return false;
	do {
		while (arch_spin_is_locked(lock))
			cpu_relax();
	} while (!arch_spin_trylock(lock));
	return true;
}

void ticket_spin_lock_slowpath(arch_spinlock_t *lock)
{
	u16 ticket;

	if (virt_spin_lock(lock))
		return;
	/* Bare metal: take a ticket and wait for it to be served, in order. */
	ticket = __atomic_fetch_add(&lock->tail, 1, __ATOMIC_ACQUIRE);
	while (__atomic_load_n(&lock->head, __ATOMIC_ACQUIRE) != ticket)
		cpu_relax();
}
