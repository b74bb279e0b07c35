/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_SPINLOCK_H
#define _ASM_X86_SPINLOCK_H

/*
 * Ticket spinlock: FIFO fair, one cache line, as Linux's x86 lock was
 * before qspinlock.  tail is the next ticket to hand out, head the ticket
 * now being served.  A free lock is taken with one compare-and-exchange;
 * on contention a waiter takes a ticket with xadd and waits for head.
 *
 * Under a hypervisor (CPUID says so) a lock that is not free at once is
 * taken test-and-set instead, as Linux 5.15's virt_spin_lock() does for
 * qspinlock: a fair lock hands the lock to the next waiter in line, and a
 * waiter whose vCPU the host has descheduled then holds up every other
 * CPU, for as long as the host keeps it off (seconds under TCG on a busy
 * host).  A test-and-set waiter holds no place in line: whoever runs when
 * the lock is free takes it.  Both ways use the same word, so the switch
 * (native_pv_lock_init(), at boot) is safe at any time.
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/processor.h>

typedef struct {
	union {
		u32 val;
		struct {
			u16 head;
			u16 tail;
		};
	};
} arch_spinlock_t;

#define __ARCH_SPIN_LOCK_UNLOCKED	{ { 0 } }

/* Linux's virt_spin_lock_key: on until boot finds no hypervisor. */
extern bool virt_spin_lock_key;
void native_pv_lock_init(void);

/* Only when the lock was not free: queue for a ticket, or test-and-set. */
void ticket_spin_lock_slowpath(arch_spinlock_t *lock);

/* Free means nobody holds it and nobody waits: head caught up with tail. */
static __always_inline bool arch_spin_trylock(arch_spinlock_t *lock)
{
	u32 old = READ_ONCE(lock->val);
	u32 new;

	if ((u16)old != (u16)(old >> 16))
		return false;		/* somebody holds or waits */
	new = old + (1U << 16);
	return __atomic_compare_exchange_n(&lock->val, &old, new, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

/*
 * One compare-and-exchange when the lock is free, the same for both ways
 * of waiting; which way is decided only on contention, out of line, as
 * queued_spin_lock() leaves virt_spin_lock() to its slow path.
 */
static __always_inline void arch_spin_lock(arch_spinlock_t *lock)
{
	if (likely(arch_spin_trylock(lock)))
		return;
	ticket_spin_lock_slowpath(lock);
}

static __always_inline void arch_spin_unlock(arch_spinlock_t *lock)
{
	/* Only the holder writes head: a plain store with release order. */
	__atomic_store_n(&lock->head, lock->head + 1, __ATOMIC_RELEASE);
}

static __always_inline bool arch_spin_is_locked(arch_spinlock_t *lock)
{
	u32 v = READ_ONCE(lock->val);

	return (u16)v != (u16)(v >> 16);
}

#endif
