/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __KERNEL_RCU_RCU_H
#define __KERNEL_RCU_RCU_H
/*
 * Grace-period sequence numbers, as Linux's: the low two bits are the
 * phase (0 idle, non-zero a grace period in progress), the rest counts
 * grace periods.  Wrap-safe comparisons throughout.
 */
#include <linux/kernel.h>
#include <linux/rcupdate.h>
#include <limits.h>

#define ULONG_CMP_GE(a, b)	(ULONG_MAX / 2 >= (a) - (b))
#define ULONG_CMP_LT(a, b)	(ULONG_MAX / 2 < (a) - (b))

#define RCU_SEQ_CTR_SHIFT	2
#define RCU_SEQ_STATE_MASK	((1UL << RCU_SEQ_CTR_SHIFT) - 1)

static inline unsigned long rcu_seq_state(unsigned long s)
{
	return s & RCU_SEQ_STATE_MASK;
}

/* The counter part of a sequence number: grace periods, not phases. */
static inline unsigned long rcu_seq_ctr(unsigned long s)
{
	return s >> RCU_SEQ_CTR_SHIFT;
}

static inline unsigned long rcu_seq_current(unsigned long *sp)
{
	return READ_ONCE(*sp);
}

/* A grace period begins: the phase becomes non-zero. */
static inline void rcu_seq_start(unsigned long *sp)
{
	WRITE_ONCE(*sp, *sp + 1);
	smp_mb();
	WARN_ON_ONCE(rcu_seq_state(*sp) != 1);
}

/* The value *sp takes when the grace period now running ends. */
static inline unsigned long rcu_seq_endval(unsigned long *sp)
{
	return (*sp | RCU_SEQ_STATE_MASK) + 1;
}

static inline void rcu_seq_end(unsigned long *sp)
{
	smp_mb();
	WARN_ON_ONCE(!rcu_seq_state(*sp));
	WRITE_ONCE(*sp, rcu_seq_endval(sp));
}

/*
 * The sequence value at which a full grace period will have elapsed
 * after now: the end of the next grace period to start, so a grace
 * period already running (which may have started before the caller's
 * updates) never counts.
 */
static inline unsigned long rcu_seq_snap(unsigned long *sp)
{
	unsigned long s;

	s = (READ_ONCE(*sp) + 2 * RCU_SEQ_STATE_MASK + 1) & ~RCU_SEQ_STATE_MASK;
	smp_mb();
	return s;
}

/* A GP ended between the two snapshots. */
static inline bool rcu_seq_completed_gp(unsigned long old, unsigned long new)
{
	return ULONG_CMP_LT(old, new & ~RCU_SEQ_STATE_MASK);
}

/* A GP started between the two snapshots. */
static inline bool rcu_seq_new_gp(unsigned long old, unsigned long new)
{
	return ULONG_CMP_LT((old + RCU_SEQ_STATE_MASK) & ~RCU_SEQ_STATE_MASK, new);
}

/*
 * How far apart two snapshots are, roughly, in grace periods: 0 if they
 * are equal, 1 if no grace period ran from start to end between them,
 * and one more for each that did (rcutorture's "Reader Batch").
 */
static inline unsigned long rcu_seq_diff(unsigned long new, unsigned long old)
{
	long whole;

	if (new == old)
		return 0;
	/* From the first boundary at or after @old to the last one before @new. */
	whole = (long)((new & ~RCU_SEQ_STATE_MASK) -
		       ((old + RCU_SEQ_STATE_MASK) & ~RCU_SEQ_STATE_MASK));
	if (whole <= 0)
		return 1;
	return ((unsigned long)whole >> RCU_SEQ_CTR_SHIFT) + 1;
}

static inline bool rcu_seq_done(unsigned long *sp, unsigned long s)
{
	return ULONG_CMP_GE(READ_ONCE(*sp), s);
}

/*
 * Segmented callback list (Linux's rcu_segcblist, without its per-segment
 * counts or offloading): one singly linked list cut by tail pointers into
 * DONE (grace period over, ready to invoke), WAIT (waiting for the
 * current grace period), NEXT_READY (waiting for the next one) and NEXT
 * (not yet assigned a grace period).  gp_seq[] says which grace-period
 * end WAIT and NEXT_READY wait for.
 */
#define RCU_DONE_TAIL		0
#define RCU_WAIT_TAIL		1
#define RCU_NEXT_READY_TAIL	2
#define RCU_NEXT_TAIL		3
#define RCU_CBLIST_NSEGS	4

struct rcu_segcblist {
	struct rcu_head *head;
	struct rcu_head **tails[RCU_CBLIST_NSEGS];
	unsigned long gp_seq[RCU_CBLIST_NSEGS];
	long len;
};

void rcu_segcblist_init(struct rcu_segcblist *rsclp);
void rcu_segcblist_enqueue(struct rcu_segcblist *rsclp, struct rcu_head *rhp);
bool rcu_segcblist_entrain(struct rcu_segcblist *rsclp, struct rcu_head *rhp);
bool rcu_segcblist_accelerate(struct rcu_segcblist *rsclp, unsigned long seq);
void rcu_segcblist_advance(struct rcu_segcblist *rsclp, unsigned long seq);
struct rcu_head *rcu_segcblist_extract_done_cbs(struct rcu_segcblist *rsclp, long *n);
void rcu_segcblist_merge(struct rcu_segcblist *dst, struct rcu_segcblist *src);

static inline bool rcu_segcblist_empty(struct rcu_segcblist *rsclp)
{
	return !READ_ONCE(rsclp->head);
}

static inline long rcu_segcblist_n_cbs(struct rcu_segcblist *rsclp)
{
	return READ_ONCE(rsclp->len);
}

/* Segment @seg holds no callback. */
static inline bool rcu_segcblist_segempty(struct rcu_segcblist *rsclp, int seg)
{
	if (seg == RCU_DONE_TAIL)
		return &rsclp->head == rsclp->tails[RCU_DONE_TAIL];
	return rsclp->tails[seg - 1] == rsclp->tails[seg];
}

static inline bool rcu_segcblist_ready_cbs(struct rcu_segcblist *rsclp)
{
	return &rsclp->head != READ_ONCE(rsclp->tails[RCU_DONE_TAIL]);
}

/* No callback from segment @seg on. */
static inline bool rcu_segcblist_restempty(struct rcu_segcblist *rsclp, int seg)
{
	return !READ_ONCE(*READ_ONCE(rsclp->tails[seg]));
}

#endif /* __KERNEL_RCU_RCU_H */
