/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_LOCAL_LOCK_H
#define _LINUX_LOCAL_LOCK_H

/*
 * local_lock_t: a named lock for per-CPU data used only by its own CPU,
 * with the two mappings of Linux 5.15 (+RT):
 *   !PREEMPT_RT  preempt_disable(), local_irq_disable() or local_irq_save()
 *                by variant; nothing else (the struct is empty unless
 *                lockdep is on).
 *   PREEMPT_RT   migrate_disable() plus a per-CPU spinlock_t (sleeping,
 *                PI), interrupts untouched in every variant.
 * The argument is the per-CPU variable's address, e.g. &s->cpu_slab->lock,
 * resolved with this_cpu_ptr() once the task cannot move.
 */
#include <linux/local_lock_internal.h>

#define local_lock_init(lock)		__local_lock_init(lock)
#define local_lock(lock)		__local_lock(lock)
#define local_lock_irq(lock)		__local_lock_irq(lock)
#define local_lock_irqsave(lock, flags)	__local_lock_irqsave(lock, flags)
#define local_unlock(lock)		__local_unlock(lock)
#define local_unlock_irq(lock)		__local_unlock_irq(lock)
#define local_unlock_irqrestore(lock, flags)				\
	__local_unlock_irqrestore(lock, flags)

#endif
