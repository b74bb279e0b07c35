// SPDX-License-Identifier: GPL-2.0
/*
 * The optimistic spin queue (include/linux/osq_lock.h), as Linux's
 * kernel/locking/osq_lock.c: an MCS lock whose waiters may give up.
 *
 * A spinner appends its CPU's node at the tail and then polls only its
 * own node->locked, which its predecessor sets when it leaves the queue
 * head.  A spinner that must stop (need_resched()) unlinks itself in
 * three steps: detach from its predecessor (A), find a stable successor
 * or give the tail back (B), and link the two together (C).  The nodes
 * are static per-CPU storage, so a node a spinner still points to never
 * disappears; it may only be reused by its CPU's next spinner.
 */
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/osq_lock.h>
#include <asm/processor.h>

static DEFINE_PER_CPU_ALIGNED(struct optimistic_spin_node, osq_node);

/* The tail names a CPU as cpu + 1, leaving 0 for "nobody queued". */
static inline int osq_encode(int cpu)
{
	return cpu + 1;
}

static inline struct optimistic_spin_node *osq_decode(int code)
{
	return per_cpu_ptr(&osq_node, code - 1);
}

/*
 * Leaving the queue (unlock, or step B of a cancelled osq_lock()): wait
 * until either we are the tail, which we then move back to @prev (NULL:
 * the queue empties), or a successor has linked itself behind us, which
 * we detach and return.  The successor is taken with xchg so that its own
 * concurrent cancellation cannot believe it is still linked to us.
 */
static struct optimistic_spin_node *
osq_wait_next(struct optimistic_spin_queue *osq,
	      struct optimistic_spin_node *mine,
	      struct optimistic_spin_node *prev)
{
	int self = osq_encode(smp_processor_id());
	int back = prev ? prev->cpu : OSQ_UNLOCKED_VAL;
	struct optimistic_spin_node *next;

	for (;;) {
		if (atomic_read(&osq->tail) == self &&
		    atomic_cmpxchg(&osq->tail, self, back) == self)
			return NULL;
		if (READ_ONCE(mine->next)) {
			next = xchg(&mine->next, NULL);
			if (next)
				return next;
		}
		cpu_relax();
	}
}

/* Step A: take back our predecessor's pointer to us, unless it hands over. */
static bool osq_detach_from_prev(struct optimistic_spin_node *mine,
				 struct optimistic_spin_node **prevp)
{
	struct optimistic_spin_node *prev = *prevp;

	for (;;) {
		if (READ_ONCE(prev->next) == mine &&
		    cmpxchg(&prev->next, mine, NULL) == mine)
			break;
		/* The cmpxchg loses only to an unlock passing us the lock. */
		if (smp_load_acquire(&mine->locked))
			return false;
		cpu_relax();
		/* A cancelling predecessor gives us a new one (its step C). */
		prev = READ_ONCE(mine->prev);
	}
	*prevp = prev;
	return true;
}

/*
 * Called with preemption disabled.  Returns true once this CPU is at the
 * head of the queue, false if it gave up because it should reschedule.
 */
bool osq_lock(struct optimistic_spin_queue *osq)
{
	struct optimistic_spin_node *mine = this_cpu_ptr(&osq_node);
	struct optimistic_spin_node *prev, *next;
	int self = osq_encode(smp_processor_id());
	int old;

	mine->next = NULL;
	mine->locked = 0;
	mine->cpu = self;

	/* The xchg publishes the node fields and orders the caller's loads. */
	old = atomic_xchg(&osq->tail, self);
	if (old == OSQ_UNLOCKED_VAL)
		return true;

	prev = osq_decode(old);
	mine->prev = prev;
	/* node->prev before prev->next: a cancelling neighbour rewrites it. */
	smp_wmb();
	WRITE_ONCE(prev->next, mine);

	while (!READ_ONCE(mine->locked)) {
		if (need_resched())
			goto unqueue;
		cpu_relax();
	}
	return true;

unqueue:
	if (!osq_detach_from_prev(mine, &prev))
		return true;
	/* Step B: a successor that cannot go away, or the tail given back. */
	next = osq_wait_next(osq, mine, prev);
	if (!next)
		return false;
	/*
	 * Step C: @prev waits in its step B for a new next pointer and @next
	 * waits in its step A for a new prev pointer; neither moves until we
	 * link them.
	 */
	WRITE_ONCE(next->prev, prev);
	WRITE_ONCE(prev->next, next);
	return false;
}

void osq_unlock(struct optimistic_spin_queue *osq)
{
	struct optimistic_spin_node *mine, *next;
	int self = osq_encode(smp_processor_id());

	/* Alone in the queue: the common case, one cmpxchg. */
	if (likely(atomic_cmpxchg(&osq->tail, self, OSQ_UNLOCKED_VAL) == self))
		return;

	mine = this_cpu_ptr(&osq_node);
	next = xchg(&mine->next, NULL);
	if (!next)
		next = osq_wait_next(osq, mine, NULL);
	if (next)
		smp_store_release(&next->locked, 1);
}
