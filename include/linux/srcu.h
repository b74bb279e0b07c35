/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SRCU_H
#define _LINUX_SRCU_H

/*
 * Sleepable RCU (kernel/rcu/srcu.c), Linux 5.15's srcutree at this
 * kernel's scale: one flat set of per-CPU counters, no srcu_node tree.
 * A reader increments this CPU's lock count of the current index and
 * later the unlock count of the same index (on whatever CPU it then runs);
 * a grace period flips the index and waits until the old index's sums of
 * locks and unlocks over all CPUs agree.  Readers may sleep.
 */
#include <linux/percpu.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/completion.h>

/* A callback queued by call_srcu() is an rcu_head, as in Linux. */
#include <linux/rcupdate.h>

/* One CPU's reader counts, indexed by srcu_idx & 1. */
struct srcu_data {
	unsigned long srcu_lock_count[2];
	unsigned long srcu_unlock_count[2];
};

struct srcu_struct {
	unsigned int srcu_idx;		/* readers use srcu_idx & 1 */
	struct srcu_data __percpu *sda;
	bool sda_static;		/* DEFINE_STATIC_SRCU: not freed */
	struct mutex srcu_gp_mutex;	/* one grace period at a time */
	unsigned long srcu_gp_seq;	/* completed grace periods */
	spinlock_t lock;		/* the callback list below */
	struct rcu_head *srcu_cblist;	/* call_srcu()'s, oldest first */
	struct rcu_head **srcu_cbtail;
	struct work_struct work;	/* runs grace periods for callbacks */
	struct mutex srcu_barrier_mutex;
};

#define __SRCU_STRUCT_INIT(name, pcpu)					\
{									\
	.sda = &pcpu,							\
	.sda_static = true,						\
	.srcu_gp_mutex = __MUTEX_INITIALIZER(name.srcu_gp_mutex),	\
	.lock = __SPIN_LOCK_UNLOCKED(name.lock),			\
	.srcu_cbtail = &name.srcu_cblist,				\
	.work = __WORK_INITIALIZER(name.work, process_srcu),		\
	.srcu_barrier_mutex = __MUTEX_INITIALIZER(name.srcu_barrier_mutex),\
}

void process_srcu(struct work_struct *work);

#define DEFINE_STATIC_SRCU(name)					\
	static DEFINE_PER_CPU(struct srcu_data, name##_srcu_data);	\
	static struct srcu_struct name = __SRCU_STRUCT_INIT(name, name##_srcu_data)

/* A global one, for use from other files. */
#define DEFINE_SRCU(name)						\
	static DEFINE_PER_CPU(struct srcu_data, name##_srcu_data);	\
	struct srcu_struct name = __SRCU_STRUCT_INIT(name, name##_srcu_data)

int init_srcu_struct(struct srcu_struct *ssp);
void cleanup_srcu_struct(struct srcu_struct *ssp);
int __srcu_read_lock(struct srcu_struct *ssp);
void __srcu_read_unlock(struct srcu_struct *ssp, int idx);
void synchronize_srcu(struct srcu_struct *ssp);
void call_srcu(struct srcu_struct *ssp, struct rcu_head *head, rcu_callback_t func);
void srcu_barrier(struct srcu_struct *ssp);
unsigned long srcu_batches_completed(struct srcu_struct *ssp);

/* Enter a read-side critical section; pass the index to srcu_read_unlock(). */
static inline int srcu_read_lock(struct srcu_struct *ssp)
{
	return __srcu_read_lock(ssp);
}

static inline void srcu_read_unlock(struct srcu_struct *ssp, int idx)
{
	__srcu_read_unlock(ssp, idx);
}

#endif
