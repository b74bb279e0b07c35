/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_RCUPDATE_H
#define _LINUX_RCUPDATE_H
/*
 * Read-copy update, tree flavour, at irqlab's scale (kernel/rcu/).
 *
 * Readers: rcu_read_lock()/rcu_read_unlock().  With CONFIG_PREEMPT_RCU
 * (PREEMPT and PREEMPT_RT, as in Linux) a reader is a per-task nesting
 * count and may be preempted; the scheduler then queues the task on its
 * rcu_node's blocked-tasks list, which holds up the grace period until
 * the outermost rcu_read_unlock().  Otherwise a reader is a
 * preempt-disabled region and a context switch is a quiescent state.
 *
 * Updaters: synchronize_rcu(), call_rcu(), kfree_rcu(), rcu_barrier().
 */
#include <linux/kernel.h>
#include <linux/compiler.h>
#include <linux/preempt.h>
#include <linux/bug.h>
#include <asm/barrier.h>
#include <linux/sched.h>

/* struct rcu_head is in <linux/types.h>. */
typedef void (*rcu_callback_t)(struct rcu_head *head);

void call_rcu(struct rcu_head *head, rcu_callback_t func);
void synchronize_rcu(void);
void rcu_barrier(void);

/* The tick, the scheduler and the idle loop report to RCU through these. */
void rcu_sched_clock_irq(int user);
void rcu_note_context_switch(bool preempt);
void rcu_idle_enter(void);
void rcu_idle_exit(void);
void rcu_init(void);
void rcu_init_smp(void);

/*
 * CPU hotplug (kernel/rcu/tree.c).  The hotplug core calls
 * rcu_cpu_starting() on the incoming CPU (notify_cpu_starting()),
 * rcu_report_dead() on the outgoing CPU as it stops and
 * rcutree_migrate_callbacks() on the control CPU once it is dead; the
 * rest are state callbacks RCU registers itself.
 */
int rcutree_prepare_cpu(unsigned int cpu);
void rcu_cpu_starting(unsigned int cpu);
int rcutree_online_cpu(unsigned int cpu);
int rcutree_offline_cpu(unsigned int cpu);
int rcutree_dying_cpu(unsigned int cpu);
void rcu_report_dead(unsigned int cpu);
void rcutree_migrate_callbacks(int cpu);
int rcutree_dead_cpu(unsigned int cpu);

/* Observers for tests and reports. */
unsigned long rcu_get_gp_seq(void);
/*
 * Tests only: called in the GP kthread when it found no GP wanted and is
 * about to sleep (TASK_INTERRUPTIBLE, interrupts on).
 */
extern void (*rcu_gp_wait_test_hook)(void);
struct task_struct *rcu_get_gp_kthread(void);
void rcu_dump_state(void);
/* RCU_BOOST: the rcub kthread (NULL without it), readers boosted so far. */
struct task_struct *rcu_get_boost_kthread(void);
unsigned long rcu_get_n_boosts(void);
struct task_struct *rcu_get_cpu_kthread(int cpu);
long rcu_get_n_cbs_cpu(int cpu);
extern int rcu_scheduler_active;

#ifdef CONFIG_PREEMPT_RCU

void __rcu_read_lock(void);
void __rcu_read_unlock(void);
/* Nesting depth of the current task's read-side sections. */
#define rcu_preempt_depth() READ_ONCE(current->rcu_read_lock_nesting)

#else /* !CONFIG_PREEMPT_RCU */

static inline void __rcu_read_lock(void)
{
	preempt_disable();
}

static inline void __rcu_read_unlock(void)
{
	preempt_enable();
}

static inline int rcu_preempt_depth(void)
{
	return 0;
}

#endif /* CONFIG_PREEMPT_RCU */

static __always_inline void rcu_read_lock(void)
{
	__rcu_read_lock();
}

static __always_inline void rcu_read_unlock(void)
{
	__rcu_read_unlock();
}

/*
 * Without lockdep's RCU maps: true when the caller is in some read-side
 * section this kernel can see (the task's nesting under PREEMPT_RCU, a
 * non-preemptible region otherwise, which is what the flavour reads as a
 * reader when PREEMPT_COUNT keeps the count).
 */
static inline int rcu_read_lock_held(void)
{
#ifdef CONFIG_PREEMPT_RCU
	return rcu_preempt_depth() > 0;
#elif defined(CONFIG_PREEMPT_COUNT)
	return !preemptible();
#else
	return 1;
#endif
}

/*
 * Publication and subscription.  x86 orders dependent loads, so the
 * reader side is a single READ_ONCE(); the publisher orders the
 * initialisation of the object before the pointer store.
 */
#define rcu_dereference_raw(p)		READ_ONCE(p)
#define rcu_dereference_check(p, c)	rcu_dereference_raw(p)
#define rcu_dereference_protected(p, c)	(p)
#define rcu_dereference(p)		rcu_dereference_raw(p)
#define rcu_access_pointer(p)		READ_ONCE(p)

#define rcu_assign_pointer(p, v) do {					\
	__typeof__(p) __rap_v = (v);					\
	if (__builtin_constant_p(v) && (v) == NULL)			\
		WRITE_ONCE((p), __rap_v);				\
	else								\
		smp_store_release(&(p), __rap_v);			\
} while (0)

#define RCU_INIT_POINTER(p, v)		WRITE_ONCE((p), (v))

/*
 * kfree_rcu(ptr, field): free @ptr with kfree() after a grace period,
 * @field being its struct rcu_head.  The offset of the head travels in
 * place of a callback function (offsets are below 4096, no function is),
 * which is Linux's older, non-batched form of the trick.
 */
#define __is_kvfree_rcu_offset(offset)	((offset) < 4096)
#define kfree_rcu(ptr, rhf) do {					\
	__typeof__(ptr) ___p = (ptr);					\
	BUILD_BUG_ON(!__is_kvfree_rcu_offset(offsetof(__typeof__(*(ptr)), rhf))); \
	if (___p)							\
		call_rcu(&___p->rhf, (rcu_callback_t)(unsigned long)	\
			 offsetof(__typeof__(*(ptr)), rhf));		\
} while (0)

/* synchronize_rcu() and friends: a callback completing a completion. */
#include <linux/completion.h>

struct rcu_synchronize {
	struct rcu_head head;
	struct completion completion;
};
void wakeme_after_rcu(struct rcu_head *head);
typedef void (*call_rcu_func_t)(struct rcu_head *head, rcu_callback_t func);
void wait_rcu_gp(call_rcu_func_t crf);

#endif /* _LINUX_RCUPDATE_H */
