// SPDX-License-Identifier: GPL-2.0
/*
 * Sleepable RCU, shaped after Linux 5.15's kernel/rcu/srcutree.c but flat:
 * this kernel has at most a few dozen CPUs, so there is one srcu_data per
 * CPU and no srcu_node tree or per-CPU callback segments.  What is kept is
 * the reader protocol and its memory barriers (A-E in the comments, as
 * srcutree names them), the two-phase grace period (wait for the inactive
 * index, flip, wait for the index readers used before the flip), and the
 * deferral of call_srcu() callbacks to a workqueue.
 */
#include <linux/srcu.h>
#include <linux/slab.h>
#include <linux/sched.h>
#include <linux/delay.h>
#include <linux/bug.h>
#include <linux/cpumask.h>
#include <linux/errno.h>

/* Tries per scan before sleeping, and the pause between them (srcutree's). */
#define SRCU_RETRY_CHECK_DELAY	5	/* us */
#define SRCU_MAX_TRIES		2

int init_srcu_struct(struct srcu_struct *ssp)
{
	ssp->srcu_idx = 0;
	ssp->srcu_gp_seq = 0;
	ssp->sda = alloc_percpu(struct srcu_data);
	if (!ssp->sda)
		return -ENOMEM;
	ssp->sda_static = false;
	mutex_init(&ssp->srcu_gp_mutex);
	mutex_init(&ssp->srcu_barrier_mutex);
	spin_lock_init(&ssp->lock);
	ssp->srcu_cblist = NULL;
	ssp->srcu_cbtail = &ssp->srcu_cblist;
	INIT_WORK(&ssp->work, process_srcu);
	return 0;
}

/* Sum of the lock counts of @idx over all CPUs. */
static unsigned long srcu_readers_lock_idx(struct srcu_struct *ssp, int idx)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu_ptr(ssp->sda, cpu)->srcu_lock_count[idx]);
	return sum;
}

static unsigned long srcu_readers_unlock_idx(struct srcu_struct *ssp, int idx)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu_ptr(ssp->sda, cpu)->srcu_unlock_count[idx]);
	return sum;
}

/*
 * True when no reader is inside a critical section that used @idx.
 * Unlocks are summed before locks: a reader counted in the unlock scan
 * has its lock visible in the lock scan (B pairs with A), so the sums can
 * only agree with a reader inside if it is one that saw the flip and will
 * therefore use the other index next time.
 */
static bool srcu_readers_active_idx_check(struct srcu_struct *ssp, int idx)
{
	unsigned long unlocks;

	unlocks = srcu_readers_unlock_idx(ssp, idx);
	smp_mb(); /* A: read the unlocks before the locks; pairs with B and C. */
	return srcu_readers_lock_idx(ssp, idx) == unlocks;
}

/* Any reader in a critical section on either index (for cleanup). */
static bool srcu_readers_active(struct srcu_struct *ssp)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu) {
		struct srcu_data *sdp = per_cpu_ptr(ssp->sda, cpu);

		sum += READ_ONCE(sdp->srcu_lock_count[0]);
		sum += READ_ONCE(sdp->srcu_lock_count[1]);
		sum -= READ_ONCE(sdp->srcu_unlock_count[0]);
		sum -= READ_ONCE(sdp->srcu_unlock_count[1]);
	}
	return sum;
}

int __srcu_read_lock(struct srcu_struct *ssp)
{
	int idx;

	idx = READ_ONCE(ssp->srcu_idx) & 0x1;
	this_cpu_inc(ssp->sda->srcu_lock_count[idx]);
	smp_mb(); /* B: the count before the critical section; pairs with A. */
	return idx;
}

void __srcu_read_unlock(struct srcu_struct *ssp, int idx)
{
	smp_mb(); /* C: the critical section before the count; pairs with A. */
	this_cpu_inc(ssp->sda->srcu_unlock_count[idx]);
}

/*
 * Wait for @idx's readers: a few quick tries as srcutree makes before it
 * requeues its work with a delay, then sleep a tick at a time (readers
 * may sleep for as long as they like).
 */
static void srcu_wait_idx(struct srcu_struct *ssp, int idx)
{
	for (int tries = 0; !srcu_readers_active_idx_check(ssp, idx); tries++) {
		if (tries < SRCU_MAX_TRIES)
			udelay(SRCU_RETRY_CHECK_DELAY);
		else
			schedule_timeout_uninterruptible(1);
	}
}

/*
 * Readers that read srcu_idx before the flip use the old index; those that
 * read it after see the flip and use the new one.  E orders the previous
 * scan before the flip, D the flip before the next scan.
 */
static void srcu_flip(struct srcu_struct *ssp)
{
	smp_mb(); /* E */
	WRITE_ONCE(ssp->srcu_idx, ssp->srcu_idx + 1);
	smp_mb(); /* D */
}

/*
 * One grace period, srcu_advance_state()'s SCAN1 and SCAN2: first drain the
 * index that is not current (readers that fetched it just before the last
 * flip may still be counting on it), then flip, then drain the index every
 * reader before the flip used.
 */
static void srcu_gp_run_locked(struct srcu_struct *ssp)
{
	srcu_wait_idx(ssp, 1 ^ (READ_ONCE(ssp->srcu_idx) & 1));
	srcu_flip(ssp);
	srcu_wait_idx(ssp, 1 ^ (READ_ONCE(ssp->srcu_idx) & 1));
	smp_mb(); /* The readers' sections before what follows the GP. */
	WRITE_ONCE(ssp->srcu_gp_seq, ssp->srcu_gp_seq + 1);
}

/*
 * Callers that queue up behind a grace period in progress share the next
 * one, as srcutree's srcu_gp_seq snapshots let them: once two grace periods
 * have completed since the call, one of them started after it.
 */
static void srcu_gp_wait(struct srcu_struct *ssp)
{
	unsigned long snap;

	smp_mb(); /* The caller's updates before the snapshot and the GP. */
	snap = READ_ONCE(ssp->srcu_gp_seq);
	mutex_lock(&ssp->srcu_gp_mutex);
	if (READ_ONCE(ssp->srcu_gp_seq) - snap < 2)
		srcu_gp_run_locked(ssp);
	mutex_unlock(&ssp->srcu_gp_mutex);
	smp_mb(); /* The grace period before what the caller does next. */
}

void synchronize_srcu(struct srcu_struct *ssp)
{
	might_sleep();
	srcu_gp_wait(ssp);
}

unsigned long srcu_batches_completed(struct srcu_struct *ssp)
{
	return READ_ONCE(ssp->srcu_gp_seq);
}

/*
 * The callback work: take every callback queued so far, end a grace period
 * that started after they were queued, then invoke them oldest first.  The
 * item is not reentrant, so batches run in queue order too.
 */
void process_srcu(struct work_struct *work)
{
	struct srcu_struct *ssp = container_of(work, struct srcu_struct, work);
	struct rcu_head *list, *next;
	unsigned long flags;

	spin_lock_irqsave(&ssp->lock, flags);
	list = ssp->srcu_cblist;
	ssp->srcu_cblist = NULL;
	ssp->srcu_cbtail = &ssp->srcu_cblist;
	spin_unlock_irqrestore(&ssp->lock, flags);
	if (!list)
		return;
	srcu_gp_wait(ssp);
	for (; list; list = next) {
		next = list->next;
		list->func(list);
	}
}

void call_srcu(struct srcu_struct *ssp, struct rcu_head *head, rcu_callback_t func)
{
	unsigned long flags;

	head->func = func;
	head->next = NULL;
	spin_lock_irqsave(&ssp->lock, flags);
	*ssp->srcu_cbtail = head;
	ssp->srcu_cbtail = &head->next;
	spin_unlock_irqrestore(&ssp->lock, flags);
	queue_work(system_wq, &ssp->work);
}

struct srcu_barrier_head {
	struct rcu_head head;
	struct completion done;
};

static void srcu_barrier_cb(struct rcu_head *head)
{
	struct srcu_barrier_head *b = container_of(head, struct srcu_barrier_head, head);

	complete(&b->done);
}

/*
 * Wait for every callback queued before the call: a callback of our own
 * queued behind them runs only after they have run.  srcutree queues one
 * per CPU for its per-CPU lists; here there is one list.
 */
void srcu_barrier(struct srcu_struct *ssp)
{
	struct srcu_barrier_head b;

	mutex_lock(&ssp->srcu_barrier_mutex);
	init_completion(&b.done);
	call_srcu(ssp, &b.head, srcu_barrier_cb);
	wait_for_completion(&b.done);
	mutex_unlock(&ssp->srcu_barrier_mutex);
}

/*
 * Readers still inside, or callbacks still queued, mean a user bug: warn
 * and leak the structure rather than free counters a reader will write.
 */
void cleanup_srcu_struct(struct srcu_struct *ssp)
{
	if (WARN_ON(srcu_readers_active(ssp)))
		return;
	flush_work(&ssp->work);
	if (WARN_ON(READ_ONCE(ssp->srcu_cblist)))
		return;
	if (!ssp->sda_static)
		free_percpu(ssp->sda);
	ssp->sda = NULL;
}
