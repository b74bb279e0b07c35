/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SPINLOCK_TYPES_H
#define _LINUX_SPINLOCK_TYPES_H

/*
 * spinlock_t: a raw spinlock under another name on !PREEMPT_RT; on
 * PREEMPT_RT an rt_mutex_base used as a sleeping "rtlock"
 * (kernel/locking/spinlock_rt.c).
 */
#include <linux/spinlock_types_raw.h>

#ifndef CONFIG_PREEMPT_RT

typedef struct spinlock {
	union {
		struct raw_spinlock rlock;
#ifdef CONFIG_DEBUG_LOCK_ALLOC
		/* rlock's own map, seen under the spinlock_t's wait type */
		struct {
			u8 __padding[sizeof(arch_spinlock_t)];
			struct lockdep_map dep_map;
		};
#endif
	};
} spinlock_t;

#define ___SPIN_LOCK_INITIALIZER(lockname)				\
	{ .raw_lock = __ARCH_SPIN_LOCK_UNLOCKED, SPIN_DEP_MAP_INIT(lockname) }
#define __SPIN_LOCK_INITIALIZER(lockname)				\
	{ { .rlock = ___SPIN_LOCK_INITIALIZER(lockname) } }
#define __SPIN_LOCK_UNLOCKED(lockname)					\
	((spinlock_t)__SPIN_LOCK_INITIALIZER(lockname))
#define DEFINE_SPINLOCK(x)	spinlock_t x = __SPIN_LOCK_INITIALIZER(x)

#else /* CONFIG_PREEMPT_RT */

#include <linux/rtmutex.h>

typedef struct spinlock {
	struct rt_mutex_base lock;
#ifdef CONFIG_DEBUG_LOCK_ALLOC
	struct lockdep_map dep_map;
#endif
} spinlock_t;

#define __SPIN_LOCK_UNLOCKED(name)					\
	{ .lock = __RT_MUTEX_BASE_INITIALIZER(name.lock), SPIN_DEP_MAP_INIT(name) }
#define DEFINE_SPINLOCK(name)	spinlock_t name = __SPIN_LOCK_UNLOCKED(name)

#endif /* CONFIG_PREEMPT_RT */

#include <linux/rwlock_types.h>

#endif
