/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_LOCAL_LOCK_H
#define _LINUX_LOCAL_LOCK_H

/*
 * local_lock_t protects per-CPU data against the same CPU.  On !PREEMPT_RT
 * it is exactly preempt_disable(), local_irq_disable() or local_irq_save()
 * by variant; the lock argument (a per-CPU pointer, e.g.
 * &s->cpu_slab->lock) only documents what is protected.  The locking issue
 * adds the PREEMPT_RT form (a per-CPU spinlock_t, interrupts left on).
 */
#include <linux/preempt.h>
#include <linux/irqflags.h>

/* Empty (size 0, a GNU C extension) on !RT, as in Linux without lockdep. */
typedef struct {
} local_lock_t;

#define INIT_LOCAL_LOCK(l)	{ }
#define local_lock_init(l)	do { (void)(l); } while (0)

#define local_lock(l)		do { (void)(l); preempt_disable(); } while (0)
#define local_unlock(l)		do { (void)(l); preempt_enable(); } while (0)
#define local_lock_irq(l)	do { (void)(l); local_irq_disable(); } while (0)
#define local_unlock_irq(l)	do { (void)(l); local_irq_enable(); } while (0)
#define local_lock_irqsave(l, flags)					\
	do { (void)(l); local_irq_save(flags); } while (0)
#define local_unlock_irqrestore(l, flags)				\
	do { (void)(l); local_irq_restore(flags); } while (0)

#endif
