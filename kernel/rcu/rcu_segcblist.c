// SPDX-License-Identifier: GPL-2.0
/*
 * The per-CPU segmented callback list (see rcu.h).  Only the owning CPU
 * touches a list, with interrupts disabled; the grace-period numbers are
 * assigned under its rcu_node's lock by the callers in tree.c.
 */
#include "rcu.h"

void rcu_segcblist_init(struct rcu_segcblist *rsclp)
{
	int i;

	rsclp->head = NULL;
	for (i = 0; i < RCU_CBLIST_NSEGS; i++) {
		rsclp->tails[i] = &rsclp->head;
		rsclp->gp_seq[i] = 0;
	}
	rsclp->len = 0;
}

/* A new callback joins NEXT: no grace period is assigned to it yet. */
void rcu_segcblist_enqueue(struct rcu_segcblist *rsclp, struct rcu_head *rhp)
{
	WRITE_ONCE(rsclp->len, rsclp->len + 1);
	rhp->next = NULL;
	WRITE_ONCE(*rsclp->tails[RCU_NEXT_TAIL], rhp);
	WRITE_ONCE(rsclp->tails[RCU_NEXT_TAIL], &rhp->next);
}

/*
 * rcu_barrier()'s callback: after every callback already queued, but in
 * the last non-empty segment, so that it waits for no grace period the
 * callbacks ahead of it do not wait for.  False on an empty list.
 */
bool rcu_segcblist_entrain(struct rcu_segcblist *rsclp, struct rcu_head *rhp)
{
	int i;

	if (rcu_segcblist_empty(rsclp))
		return false;
	WRITE_ONCE(rsclp->len, rsclp->len + 1);
	rhp->next = NULL;
	for (i = RCU_NEXT_TAIL; i > RCU_DONE_TAIL; i--)
		if (!rcu_segcblist_segempty(rsclp, i))
			break;
	WRITE_ONCE(*rsclp->tails[i], rhp);
	for (; i <= RCU_NEXT_TAIL; i++)
		WRITE_ONCE(rsclp->tails[i], &rhp->next);
	return true;
}

/*
 * Give the callbacks in NEXT the grace-period end @seq (the caller's
 * rcu_seq_snap()).  Segments already waiting for @seq or later merge
 * with them: @seq is enough for any callback queued before now.  False
 * when nothing in NEXT got a number (empty, or WAIT and NEXT_READY both
 * hold earlier numbers, so there is no segment left for @seq).
 */
bool rcu_segcblist_accelerate(struct rcu_segcblist *rsclp, unsigned long seq)
{
	int i, j;

	if (rcu_segcblist_restempty(rsclp, RCU_DONE_TAIL))
		return false;
	/* Find the last segment that must keep its own, earlier, number. */
	for (i = RCU_NEXT_READY_TAIL; i > RCU_DONE_TAIL; i--)
		if (!rcu_segcblist_segempty(rsclp, i) &&
		    ULONG_CMP_LT(rsclp->gp_seq[i], seq))
			break;
	if (rcu_segcblist_restempty(rsclp, i))
		return false;	/* nothing after it to number */
	if (++i >= RCU_NEXT_TAIL)
		return false;
	for (j = i; j < RCU_NEXT_TAIL; j++)
		WRITE_ONCE(rsclp->tails[j], rsclp->tails[RCU_NEXT_TAIL]);
	rsclp->gp_seq[i] = seq;
	return true;
}

/*
 * Grace periods up to @seq have ended: the segments waiting for them
 * join DONE and the later ones move down.
 */
void rcu_segcblist_advance(struct rcu_segcblist *rsclp, unsigned long seq)
{
	int i, j;

	if (rcu_segcblist_restempty(rsclp, RCU_DONE_TAIL))
		return;
	for (i = RCU_WAIT_TAIL; i < RCU_NEXT_TAIL; i++) {
		if (ULONG_CMP_LT(seq, rsclp->gp_seq[i]))
			break;
		WRITE_ONCE(rsclp->tails[RCU_DONE_TAIL], rsclp->tails[i]);
	}
	if (i == RCU_WAIT_TAIL)
		return;
	/* The segments now inside DONE end where DONE ends. */
	for (j = RCU_WAIT_TAIL; j < i; j++)
		WRITE_ONCE(rsclp->tails[j], rsclp->tails[RCU_DONE_TAIL]);
	/* Slide the still-waiting segments down to WAIT. */
	for (j = RCU_WAIT_TAIL; i < RCU_NEXT_TAIL; i++, j++) {
		if (rsclp->tails[j] == rsclp->tails[RCU_NEXT_TAIL])
			break;
		WRITE_ONCE(rsclp->tails[j], rsclp->tails[i]);
		rsclp->gp_seq[j] = rsclp->gp_seq[i];
	}
}

/*
 * Move every callback of @src (a dead CPU's list) to @dst.  @src's ready
 * callbacks join the end of @dst's DONE segment; the others join @dst's
 * NEXT segment, losing their grace-period numbers: the caller numbers
 * them again, which can only make them wait longer, never too little.
 * @src is left empty.
 */
void rcu_segcblist_merge(struct rcu_segcblist *dst, struct rcu_segcblist *src)
{
	struct rcu_head *done = NULL, **done_tail = NULL;
	struct rcu_head *pend, **pend_tail;
	struct rcu_head **old_done;
	long n = src->len;
	int i;

	if (rcu_segcblist_ready_cbs(src)) {
		done = src->head;
		done_tail = src->tails[RCU_DONE_TAIL];
	}
	pend = *src->tails[RCU_DONE_TAIL];
	pend_tail = src->tails[RCU_NEXT_TAIL];
	if (done)
		*done_tail = NULL;

	if (done) {
		old_done = dst->tails[RCU_DONE_TAIL];
		*done_tail = *old_done;
		WRITE_ONCE(*old_done, done);
		/* DONE and the empty segments right behind it now end here */
		for (i = RCU_NEXT_TAIL; i >= RCU_DONE_TAIL; i--)
			if (dst->tails[i] == old_done)
				WRITE_ONCE(dst->tails[i], done_tail);
	}
	if (pend) {
		WRITE_ONCE(*dst->tails[RCU_NEXT_TAIL], pend);
		WRITE_ONCE(dst->tails[RCU_NEXT_TAIL], pend_tail);
	}
	WRITE_ONCE(dst->len, dst->len + n);
	rcu_segcblist_init(src);
}

/* Detach DONE's callbacks (@n of them) for invocation. */
struct rcu_head *rcu_segcblist_extract_done_cbs(struct rcu_segcblist *rsclp, long *n)
{
	struct rcu_head *list, *rhp;
	long cnt = 0;
	int i;

	if (!rcu_segcblist_ready_cbs(rsclp)) {
		*n = 0;
		return NULL;
	}
	list = rsclp->head;
	WRITE_ONCE(rsclp->head, *rsclp->tails[RCU_DONE_TAIL]);
	*rsclp->tails[RCU_DONE_TAIL] = NULL;
	for (rhp = list; rhp; rhp = rhp->next)
		cnt++;
	for (i = RCU_NEXT_TAIL; i >= RCU_DONE_TAIL; i--)
		if (rsclp->tails[i] == rsclp->tails[RCU_DONE_TAIL])
			WRITE_ONCE(rsclp->tails[i], &rsclp->head);
	WRITE_ONCE(rsclp->len, rsclp->len - cnt);
	*n = cnt;
	return list;
}
