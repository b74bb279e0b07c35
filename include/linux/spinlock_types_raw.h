/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SPINLOCK_TYPES_RAW_H
#define _LINUX_SPINLOCK_TYPES_RAW_H

#include <asm/spinlock.h>
#include <linux/lockdep_types.h>

/* raw_spinlock_t: always a spinning lock, on every preemption model. */
typedef struct raw_spinlock {
	arch_spinlock_t raw_lock;
#ifdef CONFIG_DEBUG_LOCK_ALLOC
	struct lockdep_map dep_map;
#endif
} raw_spinlock_t;

#ifdef CONFIG_DEBUG_LOCK_ALLOC
# define RAW_SPIN_DEP_MAP_INIT(lockname)				\
	.dep_map = { .name = #lockname, .wait_type_inner = LD_WAIT_SPIN },
# define SPIN_DEP_MAP_INIT(lockname)					\
	.dep_map = { .name = #lockname, .wait_type_inner = LD_WAIT_CONFIG },
#else
# define RAW_SPIN_DEP_MAP_INIT(lockname)
# define SPIN_DEP_MAP_INIT(lockname)
#endif

#define __RAW_SPIN_LOCK_INITIALIZER(lockname)				\
	{ .raw_lock = __ARCH_SPIN_LOCK_UNLOCKED, RAW_SPIN_DEP_MAP_INIT(lockname) }
#define __RAW_SPIN_LOCK_UNLOCKED(lockname)				\
	((raw_spinlock_t)__RAW_SPIN_LOCK_INITIALIZER(lockname))
#define DEFINE_RAW_SPINLOCK(x)	raw_spinlock_t x = __RAW_SPIN_LOCK_INITIALIZER(x)

#endif
