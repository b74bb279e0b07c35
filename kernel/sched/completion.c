// SPDX-License-Identifier: GPL-2.0
/* Completions (linux/completion.h). */
#include "sched.h"
#include <linux/completion.h>

void complete(struct completion *x)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&x->wait.lock, flags);
	if (x->done != COMPLETION_ALL)
		x->done++;
	swake_up_locked(&x->wait);
	raw_spin_unlock_irqrestore(&x->wait.lock, flags);
}

void complete_all(struct completion *x)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&x->wait.lock, flags);
	x->done = COMPLETION_ALL;
	while (!list_empty(&x->wait.task_list))
		swake_up_locked(&x->wait);
	raw_spin_unlock_irqrestore(&x->wait.lock, flags);
}

void wait_for_completion(struct completion *x)
{
	struct swait_queue wait = { .task = current,
				    .task_list = LIST_HEAD_INIT(wait.task_list) };
	unsigned long flags;

	might_sleep();
	raw_spin_lock_irqsave(&x->wait.lock, flags);
	while (!x->done) {
		if (list_empty(&wait.task_list))
			list_add_tail(&wait.task_list, &x->wait.task_list);
		__set_current_state(TASK_UNINTERRUPTIBLE);
		raw_spin_unlock_irqrestore(&x->wait.lock, flags);
		schedule();
		raw_spin_lock_irqsave(&x->wait.lock, flags);
	}
	list_del_init(&wait.task_list);
	if (x->done != COMPLETION_ALL)
		x->done--;
	raw_spin_unlock_irqrestore(&x->wait.lock, flags);
	__set_current_state(TASK_RUNNING);
}

bool try_wait_for_completion(struct completion *x)
{
	unsigned long flags;
	bool ret = false;

	raw_spin_lock_irqsave(&x->wait.lock, flags);
	if (x->done) {
		if (x->done != COMPLETION_ALL)
			x->done--;
		ret = true;
	}
	raw_spin_unlock_irqrestore(&x->wait.lock, flags);
	return ret;
}

bool completion_done(struct completion *x)
{
	return READ_ONCE(x->done) != 0;
}
