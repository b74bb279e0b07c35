/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SWAIT_H
#define _LINUX_SWAIT_H

/*
 * Simple wait queues: a raw spinlock and plain task entries, no wake
 * functions, exclusive wakeups only.  Usable from hard interrupt context
 * on PREEMPT_RT, where wait_queue_head's spinlock_t sleeps.
 */
#include <linux/list.h>
#include <linux/spinlock.h>

struct task_struct;

struct swait_queue_head {
	raw_spinlock_t lock;
	struct list_head task_list;
};

struct swait_queue {
	struct task_struct *task;
	struct list_head task_list;
};

#define __SWAIT_QUEUE_HEAD_INITIALIZER(name) {				\
	.lock = __RAW_SPIN_LOCK_UNLOCKED(name.lock),			\
	.task_list = LIST_HEAD_INIT((name).task_list) }

static inline void init_swait_queue_head(struct swait_queue_head *q)
{
	raw_spin_lock_init(&q->lock);
	INIT_LIST_HEAD(&q->task_list);
}

void prepare_to_swait_exclusive(struct swait_queue_head *q, struct swait_queue *wait,
				int state);
void finish_swait(struct swait_queue_head *q, struct swait_queue *wait);
void swake_up_one(struct swait_queue_head *q);
void swake_up_all(struct swait_queue_head *q);
void swake_up_locked(struct swait_queue_head *q);

#endif
