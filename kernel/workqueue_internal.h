/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KERNEL_WORKQUEUE_INTERNAL_H
#define _KERNEL_WORKQUEUE_INTERNAL_H

/*
 * Shared between kernel/workqueue.c and kernel/workqueue_delayed.c.
 *
 * Concurrency-managed bound pools, as in Linux 5.15: each per-CPU pool has
 * a set of kworkers; pool->nr_running counts those executing and not
 * blocked.  The scheduler tells the pool when a worker blocks
 * (wq_worker_sleeping) so an idle worker can take the next item; a worker
 * that finds no idle worker left creates one first.  Surplus idle workers
 * are reaped after workqueue.idle_timeout_ms.  Workers live in a fixed
 * per-pool array (irqlab has no kmalloc) and the busy set is a list, not
 * a hash.
 */
#include <linux/workqueue.h>
#include <linux/spinlock.h>
#include <linux/atomic.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>

struct worker_pool;

struct worker {
	struct list_head entry;			/* on pool->idle_list while idle */
	struct list_head busy_entry;		/* on pool->busy_list while running an item */
	struct work_struct *current_work;	/* item being run, or NULL */
	work_func_t current_func;		/* its function */
	struct list_head scheduled;		/* items this worker must run next */
	struct task_struct *task;
	struct worker_pool *pool;
	unsigned int flags;			/* WORKER_*, under pool->lock */
	int id;
	int sleeping;				/* blocked, nr_running already dropped */
	ktime_t last_active;			/* when it last went idle */
};

#define NR_POOL_WORKERS	32			/* worker slots per pool */

struct worker_pool {
	raw_spinlock_t lock;
	int cpu;
	bool highpri;
	unsigned int flags;			/* POOL_* */
	struct list_head worklist;		/* pending items, FIFO */
	int nr_workers;
	int nr_idle;
	struct list_head idle_list;		/* most recently idle first */
	struct list_head busy_list;		/* workers running an item */
	struct hrtimer idle_timer;		/* reaps surplus idle workers */
	unsigned long worker_ids;		/* used slots in workers[] */
	/* executing, not blocked workers: changed only on the pool's CPU */
	atomic_t nr_running;
	struct worker workers[NR_POOL_WORKERS];
} __aligned(64);

void __queue_work(int cpu, struct workqueue_struct *wq, struct work_struct *work);
int try_to_grab_pending(struct work_struct *work, unsigned long *flags);
void clear_work_pending(struct work_struct *work);

#endif
