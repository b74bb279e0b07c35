/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_COMPLETION_H
#define _LINUX_COMPLETION_H

/*
 * Completions count events: complete() adds one and wakes one waiter,
 * complete_all() releases every present and future waiter, a waiter
 * consumes one.  Built on a simple wait queue, so complete() may be called
 * from hard interrupt context on every preemption model.
 */
#include <linux/swait.h>

#define COMPLETION_ALL	(~0U >> 1)

struct completion {
	unsigned int done;
	struct swait_queue_head wait;
};

#define COMPLETION_INITIALIZER(work) \
	{ 0, __SWAIT_QUEUE_HEAD_INITIALIZER((work).wait) }
#define DECLARE_COMPLETION(work) struct completion work = COMPLETION_INITIALIZER(work)

static inline void init_completion(struct completion *x)
{
	x->done = 0;
	init_swait_queue_head(&x->wait);
}

static inline void reinit_completion(struct completion *x)
{
	x->done = 0;
}

void complete(struct completion *x);
void complete_all(struct completion *x);
void wait_for_completion(struct completion *x);
bool try_wait_for_completion(struct completion *x);
bool completion_done(struct completion *x);

#endif
