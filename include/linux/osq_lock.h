/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_OSQ_LOCK_H
#define _LINUX_OSQ_LOCK_H

/*
 * The optimistic spin queue (OSQ): an MCS-style queue that lines up the
 * tasks spinning on a sleeping lock's owner, so that only the head of the
 * queue polls the lock word.  Each CPU has one queue node (a task spins
 * with preemption off, so it cannot queue twice on one CPU); the lock
 * itself is only the tail, encoded as CPU number + 1 (0: empty).
 */
#include <linux/atomic.h>

struct optimistic_spin_node {
	struct optimistic_spin_node *next, *prev;
	int locked;		/* set by the predecessor when it hands over */
	int cpu;		/* encoded CPU number of this node */
};

struct optimistic_spin_queue {
	atomic_t tail;
};

#define OSQ_UNLOCKED_VAL	0

#define OSQ_LOCK_UNLOCKED	{ ATOMIC_INIT(OSQ_UNLOCKED_VAL) }

static inline void osq_lock_init(struct optimistic_spin_queue *osq)
{
	atomic_set(&osq->tail, OSQ_UNLOCKED_VAL);
}

bool osq_lock(struct optimistic_spin_queue *osq);
void osq_unlock(struct optimistic_spin_queue *osq);

static inline bool osq_is_locked(struct optimistic_spin_queue *osq)
{
	return atomic_read(&osq->tail) != OSQ_UNLOCKED_VAL;
}

#endif
