/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KERNEL_WORKQUEUE_INTERNAL_H
#define _KERNEL_WORKQUEUE_INTERNAL_H

/*
 * Shared between kernel/workqueue.c and kernel/workqueue_delayed.c.
 *
 * irqlab departs from Linux in keeping one worker per pool and no
 * concurrency management: an item that sleeps holds up the items queued
 * behind it on that CPU's pool.
 */
#include <linux/workqueue.h>
#include <linux/spinlock.h>

struct worker_pool;

struct worker {
	struct work_struct *current_work;	/* item being run, or NULL */
	work_func_t current_func;		/* its function */
	struct task_struct *task;
	struct worker_pool *pool;
};

struct worker_pool {
	raw_spinlock_t lock;
	int cpu;
	bool highpri;
	struct list_head worklist;		/* pending items, FIFO */
	struct worker worker;
} __aligned(64);

void __queue_work(int cpu, struct workqueue_struct *wq, struct work_struct *work);
int try_to_grab_pending(struct work_struct *work, unsigned long *flags);
void clear_work_pending(struct work_struct *work);

#endif
