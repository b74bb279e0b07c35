/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_GENERIC_QRWLOCK_TYPES_H
#define _ASM_GENERIC_QRWLOCK_TYPES_H

/*
 * The queued rwlock's state: one 32-bit word of counts and a spinlock
 * that lines contenders up.  The word holds
 *
 *	bits  0-7	_QW_LOCKED (0xff) while a writer owns the lock
 *	bit   8		_QW_WAITING: the writer at the head of the queue
 *			wants the lock and new readers must queue
 *	bits  9-31	the number of readers (in units of _QR_BIAS)
 *
 * x86 is little-endian, so wlocked aliases the low byte and a writer
 * releases the lock with a single byte store.
 */
#include <linux/types.h>
#include <asm/spinlock.h>

typedef struct qrwlock {
	union {
		atomic_t cnts;
		struct {
			u8 wlocked;
			u8 __lstate[3];
		};
	};
	arch_spinlock_t wait_lock;
} arch_rwlock_t;

#define __ARCH_RW_LOCK_UNLOCKED {					\
	{ .cnts = { 0 } },						\
	.wait_lock = __ARCH_SPIN_LOCK_UNLOCKED,				\
}

#endif
