/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_RWLOCK_TYPES_H
#define _LINUX_RWLOCK_TYPES_H

/*
 * rwlock_t: many readers or one writer.  On !PREEMPT_RT it spins (the
 * queued rwlock of asm-generic/qrwlock.h) with preemption disabled, like
 * spinlock_t; on PREEMPT_RT it is a sleeping lock built on rt_mutex_base.
 */
#include <linux/lockdep_types.h>

#ifdef CONFIG_DEBUG_LOCK_ALLOC
# define RW_DEP_MAP_INIT(lockname)					\
	.dep_map = { .name = #lockname, .wait_type_inner = LD_WAIT_CONFIG },
#else
# define RW_DEP_MAP_INIT(lockname)
#endif

#ifndef CONFIG_PREEMPT_RT

#include <asm-generic/qrwlock_types.h>

typedef struct {
	arch_rwlock_t raw_lock;
#ifdef CONFIG_DEBUG_LOCK_ALLOC
	struct lockdep_map dep_map;
#endif
} rwlock_t;

#define __RW_LOCK_UNLOCKED(lockname)					\
	(rwlock_t) { .raw_lock = __ARCH_RW_LOCK_UNLOCKED,		\
		     RW_DEP_MAP_INIT(lockname) }

#else /* CONFIG_PREEMPT_RT */

#include <linux/rwbase_rt.h>

/* An rwbase_rt on an rt_mutex_base: readers and writers sleep (rwlock_rt.h). */
typedef struct {
	struct rwbase_rt rwbase;
#ifdef CONFIG_DEBUG_LOCK_ALLOC
	struct lockdep_map dep_map;
#endif
} rwlock_t;

#define __RW_LOCK_UNLOCKED(name)					\
	{ .rwbase = __RWBASE_INITIALIZER(name.rwbase), RW_DEP_MAP_INIT(name) }

#endif /* CONFIG_PREEMPT_RT */

#define DEFINE_RWLOCK(x)	rwlock_t x = __RW_LOCK_UNLOCKED(x)

#endif
