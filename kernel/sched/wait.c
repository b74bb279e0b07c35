// SPDX-License-Identifier: GPL-2.0
/* Wait queues (linux/wait.h) and simple wait queues (linux/swait.h). */
#include "sched.h"
#include <linux/wait.h>
#include <linux/swait.h>

int default_wake_function(struct wait_queue_entry *wq_entry, unsigned int mode,
			  int flags, void *key)
{
	return try_to_wake_up(wq_entry->private, mode, flags);
}

/* Woken means done waiting: leave the queue so no second wakeup finds us. */
int autoremove_wake_function(struct wait_queue_entry *wq_entry, unsigned int mode,
			     int flags, void *key)
{
	int ret = default_wake_function(wq_entry, mode, flags, key);

	if (ret)
		list_del_init(&wq_entry->entry);
	return ret;
}

void add_wait_queue(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry)
{
	unsigned long flags;

	wq_entry->flags &= ~WQ_FLAG_EXCLUSIVE;
	spin_lock_irqsave(&wq_head->lock, flags);
	list_add(&wq_entry->entry, &wq_head->head);
	spin_unlock_irqrestore(&wq_head->lock, flags);
}

void remove_wait_queue(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry)
{
	unsigned long flags;

	spin_lock_irqsave(&wq_head->lock, flags);
	list_del_init(&wq_entry->entry);
	spin_unlock_irqrestore(&wq_head->lock, flags);
}

/* Queue first, then set the state: a wakeup in between is not lost. */
void prepare_to_wait(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry,
		     int state)
{
	unsigned long flags;

	wq_entry->flags &= ~WQ_FLAG_EXCLUSIVE;
	spin_lock_irqsave(&wq_head->lock, flags);
	if (list_empty(&wq_entry->entry))
		list_add(&wq_entry->entry, &wq_head->head);
	set_current_state(state);
	spin_unlock_irqrestore(&wq_head->lock, flags);
}

bool prepare_to_wait_exclusive(struct wait_queue_head *wq_head,
			       struct wait_queue_entry *wq_entry, int state)
{
	unsigned long flags;
	bool was_empty = false;

	wq_entry->flags |= WQ_FLAG_EXCLUSIVE;
	spin_lock_irqsave(&wq_head->lock, flags);
	if (list_empty(&wq_entry->entry)) {
		was_empty = list_empty(&wq_head->head);
		list_add_tail(&wq_entry->entry, &wq_head->head);
	}
	set_current_state(state);
	spin_unlock_irqrestore(&wq_head->lock, flags);
	return was_empty;
}

void finish_wait(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry)
{
	unsigned long flags;

	__set_current_state(TASK_RUNNING);
	/* Lockless check first: the waker's autoremove may have done it. */
	if (!list_empty(&wq_entry->entry)) {
		spin_lock_irqsave(&wq_head->lock, flags);
		list_del_init(&wq_entry->entry);
		spin_unlock_irqrestore(&wq_head->lock, flags);
	}
}

/*
 * One hold of the queue's lock: wake from the start, or from where
 * @bookmark was left, and after WAITQUEUE_WALK_BREAK_CNT entries leave
 * @bookmark in the list before the next one and stop, so that a long queue
 * (wake_up_all() of hundreds) never keeps interrupts off for the whole walk.
 * Returns how many exclusive wakeups remain.
 */
static int __wake_up_common(struct wait_queue_head *wq_head, unsigned int mode, int nr,
			    void *key, struct wait_queue_entry *bookmark)
{
	struct wait_queue_entry *curr, *next;
	int cnt = 0;

	lockdep_assert_held(&wq_head->lock);
	if (bookmark->flags & WQ_FLAG_BOOKMARK) {
		curr = list_next_entry(bookmark, entry);
		list_del(&bookmark->entry);
		bookmark->flags = 0;
	} else {
		curr = list_first_entry(&wq_head->head, struct wait_queue_entry, entry);
	}
	list_for_each_entry_safe_from(curr, next, &wq_head->head, entry) {
		unsigned int wflags = curr->flags;
		int ret;

		if (wflags & WQ_FLAG_BOOKMARK)
			continue;	/* another waker's place */
		ret = curr->func(curr, mode, 0, key);
		if (ret < 0)
			break;
		if (ret && (wflags & WQ_FLAG_EXCLUSIVE) && !--nr)
			break;
		if (++cnt > WAITQUEUE_WALK_BREAK_CNT && &next->entry != &wq_head->head) {
			bookmark->flags = WQ_FLAG_BOOKMARK;
			list_add_tail(&bookmark->entry, &next->entry);
			break;
		}
	}
	return nr;
}

/* Wake the non-exclusive waiters and up to @nr exclusive ones (0: all). */
void __wake_up(struct wait_queue_head *wq_head, unsigned int mode, int nr, void *key)
{
	struct wait_queue_entry bookmark = {
		.entry = LIST_HEAD_INIT(bookmark.entry),
	};
	unsigned long flags;

	do {
		spin_lock_irqsave(&wq_head->lock, flags);
		nr = __wake_up_common(wq_head, mode, nr, key, &bookmark);
		spin_unlock_irqrestore(&wq_head->lock, flags);
	} while (bookmark.flags & WQ_FLAG_BOOKMARK);
}

void prepare_to_swait_exclusive(struct swait_queue_head *q, struct swait_queue *wait,
				int state)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&q->lock, flags);
	if (list_empty(&wait->task_list))
		list_add_tail(&wait->task_list, &q->task_list);
	set_current_state(state);
	raw_spin_unlock_irqrestore(&q->lock, flags);
}

void finish_swait(struct swait_queue_head *q, struct swait_queue *wait)
{
	unsigned long flags;

	__set_current_state(TASK_RUNNING);
	if (!list_empty(&wait->task_list)) {
		raw_spin_lock_irqsave(&q->lock, flags);
		list_del_init(&wait->task_list);
		raw_spin_unlock_irqrestore(&q->lock, flags);
	}
}

void swake_up_locked(struct swait_queue_head *q)
{
	struct swait_queue *curr;

	if (list_empty(&q->task_list))
		return;
	curr = list_first_entry(&q->task_list, struct swait_queue, task_list);
	wake_up_process(curr->task);
	list_del_init(&curr->task_list);
}

void swake_up_one(struct swait_queue_head *q)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&q->lock, flags);
	swake_up_locked(q);
	raw_spin_unlock_irqrestore(&q->lock, flags);
}

/*
 * Wake everyone queued when we get here.  The waiters are moved to a list
 * of our own first, so those who queue meanwhile wait for the next wakeup,
 * and the lock (with interrupts) is let go after each wakeup: the time
 * spent with interrupts off is one wakeup, not the whole queue's.  Hence
 * process context with interrupts on only, as in Linux (complete_all()
 * wakes under the lock and may be used from anywhere).
 */
void swake_up_all(struct swait_queue_head *q)
{
	LIST_HEAD(batch);

	raw_spin_lock_irq(&q->lock);
	list_splice_init(&q->task_list, &batch);
	while (!list_empty(&batch)) {
		struct swait_queue *first = list_first_entry(&batch, struct swait_queue,
							     task_list);

		wake_up_state(first->task, TASK_NORMAL);
		list_del_init(&first->task_list);
		if (!list_empty(&batch)) {
			/* an interrupt, or another CPU after the lock, may go first */
			raw_spin_unlock_irq(&q->lock);
			raw_spin_lock_irq(&q->lock);
		}
	}
	raw_spin_unlock_irq(&q->lock);
}
