/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_WAIT_H
#define _LINUX_WAIT_H

/*
 * Wait queues, Linux's API: a spinlock_t-protected list of entries, each
 * with a wake function.  Exclusive waiters sit at the tail and wake_up()
 * wakes all non-exclusive ones plus one exclusive one.
 */
#include <linux/list.h>
#include <linux/spinlock.h>

struct wait_queue_entry;
typedef int (*wait_queue_func_t)(struct wait_queue_entry *wq_entry, unsigned int mode,
				 int flags, void *key);

#define WQ_FLAG_EXCLUSIVE	0x01
#define WQ_FLAG_BOOKMARK	0x04	/* a place-holder where a long walk resumes */

/* Entries a wakeup walks per hold of the queue's lock (IRQs off on !RT). */
#define WAITQUEUE_WALK_BREAK_CNT	64

struct wait_queue_entry {
	unsigned int flags;
	void *private;
	wait_queue_func_t func;
	struct list_head entry;
};

struct wait_queue_head {
	spinlock_t lock;
	struct list_head head;
};
typedef struct wait_queue_head wait_queue_head_t;

#define __WAIT_QUEUE_HEAD_INITIALIZER(name) {				\
	.lock = __SPIN_LOCK_UNLOCKED(name.lock),			\
	.head = LIST_HEAD_INIT(name.head) }
#define DECLARE_WAIT_QUEUE_HEAD(name)					\
	struct wait_queue_head name = __WAIT_QUEUE_HEAD_INITIALIZER(name)

static inline void init_waitqueue_head(struct wait_queue_head *wq_head)
{
	spin_lock_init(&wq_head->lock);
	INIT_LIST_HEAD(&wq_head->head);
}

int default_wake_function(struct wait_queue_entry *wq_entry, unsigned int mode,
			  int flags, void *key);
int autoremove_wake_function(struct wait_queue_entry *wq_entry, unsigned int mode,
			     int flags, void *key);

#define DEFINE_WAIT(name) struct wait_queue_entry name = {			\
	.private = current, .func = autoremove_wake_function,		\
	.entry = LIST_HEAD_INIT((name).entry) }

void add_wait_queue(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry);
void remove_wait_queue(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry);
void prepare_to_wait(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry,
		     int state);
bool prepare_to_wait_exclusive(struct wait_queue_head *wq_head,
			       struct wait_queue_entry *wq_entry, int state);
void finish_wait(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry);
void __wake_up(struct wait_queue_head *wq_head, unsigned int mode, int nr, void *key);

#define wake_up(x)			__wake_up(x, TASK_NORMAL, 1, NULL)
#define wake_up_nr(x, nr)		__wake_up(x, TASK_NORMAL, nr, NULL)
#define wake_up_all(x)			__wake_up(x, TASK_NORMAL, 0, NULL)
#define wake_up_interruptible(x)	__wake_up(x, TASK_INTERRUPTIBLE, 1, NULL)

/* Unordered peek: the caller has its own ordering (or tolerates a stale view). */
static inline int waitqueue_active(struct wait_queue_head *wq_head)
{
	return !list_empty(&wq_head->head);
}

static inline bool wq_has_sleeper(struct wait_queue_head *wq_head)
{
	smp_mb();
	return !list_empty(&wq_head->head);
}

/*
 * Sleep until @condition; the waker sets it before wake_up().  @prepare
 * queues the waiter (exclusive or not) and sets the task state, so that a
 * wakeup between the check and schedule() is not lost.
 */
#define ___wait_event(wq_head, condition, prepare) do {			\
	DEFINE_WAIT(__wait);						\
	might_sleep();							\
	for (;;) {							\
		prepare(&(wq_head), &__wait, TASK_UNINTERRUPTIBLE);	\
		if (condition)						\
			break;						\
		schedule();						\
	}								\
	finish_wait(&(wq_head), &__wait);				\
} while (0)

#define wait_event(wq_head, condition)					\
	___wait_event(wq_head, condition, prepare_to_wait)

#define wait_event_exclusive(wq_head, condition)			\
	___wait_event(wq_head, condition, prepare_to_wait_exclusive)

#endif
