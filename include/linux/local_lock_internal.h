/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_LOCAL_LOCK_H
# error "include <linux/local_lock.h>"
#endif

#include <linux/percpu.h>
#include <linux/spinlock.h>

/* migrate_disable() lives in the scheduler (kernel/sched/core.c). */
void migrate_disable(void);
void migrate_enable(void);

#ifndef CONFIG_PREEMPT_RT

/*
 * !PREEMPT_RT: the lock is the act of disabling preemption or interrupts
 * on this CPU.  The struct only carries lockdep's view of it (and which
 * task holds it), so it is empty in a build without lock debugging.
 */
typedef struct {
#ifdef CONFIG_DEBUG_LOCK_ALLOC
	struct lockdep_map dep_map;
	struct task_struct *owner;
#endif
} local_lock_t;

#ifdef CONFIG_DEBUG_LOCK_ALLOC
# define LOCAL_LOCK_DEBUG_INIT(lockname)				\
	.dep_map = { .name = #lockname, .wait_type_inner = LD_WAIT_CONFIG },
/* <linux/sched.h> cannot be included here: read current_task directly. */
#include <asm/current.h>

static inline void local_lock_acquire(local_lock_t *ll)
{
	lock_map_acquire(&ll->dep_map);
	ll->owner = this_cpu_read(current_task);
}

static inline void local_lock_release(local_lock_t *ll)
{
	ll->owner = NULL;
	lock_map_release(&ll->dep_map);
}

# define local_lock_debug_init(l)	((l)->owner = NULL)
#else
# define LOCAL_LOCK_DEBUG_INIT(lockname)
static inline void local_lock_acquire(local_lock_t *ll) { }
static inline void local_lock_release(local_lock_t *ll) { }
# define local_lock_debug_init(l)	do { } while (0)
#endif

#define INIT_LOCAL_LOCK(name)		{ LOCAL_LOCK_DEBUG_INIT(name) }

#define __local_lock_init(lock)						\
do {									\
	static struct lock_class_key __key __maybe_unused;		\
	lockdep_init_map_wait(&(lock)->dep_map, #lock, &__key, 0,	\
			      LD_WAIT_CONFIG);				\
	local_lock_debug_init(lock);					\
} while (0)

#define __local_lock(lock)						\
do {									\
	preempt_disable();						\
	local_lock_acquire(this_cpu_ptr(lock));				\
} while (0)

#define __local_lock_irq(lock)						\
do {									\
	local_irq_disable();						\
	local_lock_acquire(this_cpu_ptr(lock));				\
} while (0)

#define __local_lock_irqsave(lock, flags)				\
do {									\
	local_irq_save(flags);						\
	local_lock_acquire(this_cpu_ptr(lock));				\
} while (0)

#define __local_unlock(lock)						\
do {									\
	local_lock_release(this_cpu_ptr(lock));				\
	preempt_enable();						\
} while (0)

#define __local_unlock_irq(lock)					\
do {									\
	local_lock_release(this_cpu_ptr(lock));				\
	local_irq_enable();						\
} while (0)

#define __local_unlock_irqrestore(lock, flags)				\
do {									\
	local_lock_release(this_cpu_ptr(lock));				\
	local_irq_restore(flags);					\
} while (0)

#else /* CONFIG_PREEMPT_RT */

/*
 * PREEMPT_RT: a real per-CPU spinlock_t, i.e. a sleeping lock.  The task
 * is pinned first (migrate_disable) so this_cpu_ptr() names the lock of
 * the CPU it stays on; the section remains preemptible, other tasks of
 * this CPU are kept out by the lock, and interrupts stay on in every
 * variant (flags reads back 0).
 */
typedef spinlock_t local_lock_t;

#define INIT_LOCAL_LOCK(lockname)	__SPIN_LOCK_UNLOCKED((lockname))

#define __local_lock_init(l)		local_spin_lock_init((l))

#define __local_lock(__lock)						\
do {									\
	migrate_disable();						\
	spin_lock(this_cpu_ptr((__lock)));				\
} while (0)

#define __local_lock_irq(ll)		__local_lock(ll)

#define __local_lock_irqsave(lock, flags)				\
do {									\
	(flags) = 0;							\
	__local_lock(lock);						\
} while (0)

#define __local_unlock(__lock)						\
do {									\
	spin_unlock(this_cpu_ptr((__lock)));				\
	migrate_enable();						\
} while (0)

#define __local_unlock_irq(ll)		__local_unlock(ll)

#define __local_unlock_irqrestore(lock, flags)				\
	do { (void)(flags); __local_unlock(lock); } while (0)

#endif /* CONFIG_PREEMPT_RT */
