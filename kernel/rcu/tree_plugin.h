/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The flavour-specific half of tree RCU (Linux's tree_plugin.h):
 * preemptible RCU's readers and blocked-tasks list, or, without
 * PREEMPT_RCU, readers as preempt-disabled regions.
 */

#include "../locking/rtmutex_common.h"

#ifdef CONFIG_PREEMPT_RCU

static void rcu_read_unlock_special(struct task_struct *t);
static bool rcu_boost_dequeue(struct rcu_node *rnp, struct task_struct *t,
			      struct list_head *np);
static void rcu_boost_unlock(struct rcu_node *rnp);

void __rcu_read_lock(void)
{
	current->rcu_read_lock_nesting++;
	barrier();	/* the section's accesses stay after the increment */
}

/*
 * The outermost unlock of a reader that was preempted inside its section
 * takes the slow path: leave the blocked-tasks list, which may end the
 * grace period it held up.  Underflow is a caller's bug: warn and
 * restore the count so one bug does not hide the next reader's state.
 */
void __rcu_read_unlock(void)
{
	struct task_struct *t = current;

	barrier();	/* the section's accesses stay before the decrement */
	if (--t->rcu_read_lock_nesting == 0) {
		barrier();
		if (unlikely(READ_ONCE(t->rcu_read_unlock_special.s)))
			rcu_read_unlock_special(t);
	}
	if (WARN_ON_ONCE(t->rcu_read_lock_nesting < 0))
		t->rcu_read_lock_nesting = 0;
}

/*
 * @t (current, preempted inside a reader) goes on @rnp's blocked-tasks
 * list (rnp->lock held).  If its CPU still owes the running GP a QS the
 * reader may predate the GP: it joins the tail, inside the gp_tasks
 * segment that blocks the GP.  Otherwise its section began after the
 * CPU's QS: it goes to the head, blocking only the next GP.
 */
static void rcu_preempt_ctxt_queue(struct rcu_node *rnp, struct rcu_data *rdp)
{
	struct task_struct *t = current;

	if (rcu_seq_state(rnp->gp_seq) && (rnp->qsmask & rdp->grpmask)) {
		list_add_tail(&t->rcu_node_entry, &rnp->blkd_tasks);
		if (!rnp->gp_tasks)
			WRITE_ONCE(rnp->gp_tasks, &t->rcu_node_entry);
	} else {
		list_add(&t->rcu_node_entry, &rnp->blkd_tasks);
	}
}

/*
 * From __schedule(), interrupts off, before the run queue is locked: a
 * task switched out inside a reader is queued; the switch itself is a
 * QS for the CPU either way, since the CPU no longer runs the reader.
 */
void rcu_note_context_switch(bool preempt)
{
	struct task_struct *t = current;
	struct rcu_data *rdp = this_cpu_ptr(&rcu_data);
	struct rcu_node *rnp;

	if (!READ_ONCE(rcu_scheduler_active))
		return;
	if (t->rcu_read_lock_nesting > 0 &&
	    !t->rcu_read_unlock_special.b.blocked) {
		rnp = rdp->mynode;
		raw_spin_lock(&rnp->lock);
		t->rcu_read_unlock_special.b.blocked = true;
		t->rcu_blocked_node = rnp;
		rcu_preempt_ctxt_queue(rnp, rdp);
		raw_spin_unlock(&rnp->lock);
	} else if (rcu_preempt_need_deferred_qs(t)) {
		rcu_preempt_deferred_qs(t);
	}
	rcu_qs();
}

/* Some reader preempted before the current GP began is still queued. */
static int rcu_preempt_blocked_readers_cgp(struct rcu_node *rnp)
{
	return READ_ONCE(rnp->gp_tasks) != NULL;
}

static bool rcu_preempt_has_tasks(struct rcu_node *rnp)
{
	return !list_empty(&rnp->blkd_tasks);
}

/* GP start (rnp->lock held): every queued reader blocks the new GP. */
static void rcu_preempt_check_blocked_tasks(struct rcu_node *rnp)
{
	WARN_ON_ONCE(rcu_preempt_blocked_readers_cgp(rnp));
	if (rcu_preempt_has_tasks(rnp))
		WRITE_ONCE(rnp->gp_tasks, rnp->blkd_tasks.next);
}

/*
 * The reader @t (current, nesting back to zero) was queued: dequeue it;
 * if it was the last one holding up the GP, report that.  A reader that
 * rcub boosted owns rnp->boost_mtx: it gives it up once the node's lock
 * is dropped, which hands its inherited priority back.
 */
static void rcu_read_unlock_special(struct task_struct *t)
{
	struct rcu_node *rnp;
	struct list_head *np;
	unsigned long flags;
	bool empty_norm;
	bool drop_boost_mutex;

	local_irq_save(flags);
	if (!t->rcu_read_unlock_special.b.blocked) {
		t->rcu_read_unlock_special.s = 0;
		local_irq_restore(flags);
		return;
	}
	rnp = t->rcu_blocked_node;
	raw_spin_lock(&rnp->lock);
	t->rcu_read_unlock_special.s = 0;
	empty_norm = !rcu_preempt_blocked_readers_cgp(rnp);
	np = t->rcu_node_entry.next;
	if (np == &rnp->blkd_tasks)
		np = NULL;
	list_del_init(&t->rcu_node_entry);
	t->rcu_blocked_node = NULL;
	if (&t->rcu_node_entry == rnp->gp_tasks)
		WRITE_ONCE(rnp->gp_tasks, np);
	drop_boost_mutex = rcu_boost_dequeue(rnp, t, np);
	/* The last blocker of the GP left: the GP may be able to end. */
	if (!empty_norm && !rcu_preempt_blocked_readers_cgp(rnp))
		rcu_report_unblock_qs_rnp(rnp, flags);
	else
		raw_spin_unlock_irqrestore(&rnp->lock, flags);
	if (drop_boost_mutex)
		rcu_boost_unlock(rnp);
}

/* Outside any reader, yet still queued: finish what unlock left. */
static bool rcu_preempt_need_deferred_qs(struct task_struct *t)
{
	return READ_ONCE(t->rcu_read_unlock_special.s) &&
	       t->rcu_read_lock_nesting <= 0;
}

static void rcu_preempt_deferred_qs(struct task_struct *t)
{
	if (!rcu_preempt_need_deferred_qs(t))
		return;
	rcu_read_unlock_special(t);
}

/*
 * The tick: a QS if it interrupted the idle loop, or code in no reader
 * and in no preempt- or BH-disabled region (which under PREEMPT_RCU
 * could be a reader of a preempt-disabling flavour).
 */
static void rcu_flavor_sched_clock_irq(int user)
{
	struct task_struct *t = current;

	if (user || rcu_is_cpu_rrupt_from_idle()) {
		rcu_qs();
		return;
	}
	if (rcu_preempt_depth() > 0 ||
	    (preempt_count() & (PREEMPT_MASK | SOFTIRQ_MASK)) ||
	    softirq_count())
		return;
	if (rcu_preempt_need_deferred_qs(t)) {
		rcu_preempt_deferred_qs(t);
		return;
	}
	rcu_qs();
}

#else /* !CONFIG_PREEMPT_RCU */

/* Readers disable preemption: a context switch means none is running. */
void rcu_note_context_switch(bool preempt)
{
	if (!READ_ONCE(rcu_scheduler_active))
		return;
	rcu_qs();
}

static int rcu_preempt_blocked_readers_cgp(struct rcu_node *rnp)
{
	return 0;
}

static void rcu_preempt_check_blocked_tasks(struct rcu_node *rnp)
{
}

static bool rcu_preempt_need_deferred_qs(struct task_struct *t)
{
	return false;
}

static void rcu_preempt_deferred_qs(struct task_struct *t)
{
}

/*
 * Only an interrupted idle loop is a QS here: without PREEMPT_COUNT the
 * tick cannot tell a reader from any other kernel code.
 */
static void rcu_flavor_sched_clock_irq(int user)
{
	if (user || rcu_is_cpu_rrupt_from_idle())
		rcu_qs();
}

#endif /* CONFIG_PREEMPT_RCU */

#ifdef CONFIG_RCU_BOOST

/* rcuc/N runs SCHED_FIFO at kthread_prio when boosting is configured. */
static void rcu_cpu_kthread_setup(struct task_struct *t)
{
	struct sched_param sp = { .sched_priority = kthread_prio };

	sched_setscheduler_nocheck(t, SCHED_FIFO, &sp);
}

#ifdef CONFIG_PREEMPT_RCU
/*
 * @t leaves the blocked-tasks list (rnp->lock held; @np is the entry
 * after it): move boost_tasks past it, and say whether @t owns the boost
 * mutex, read under the lock that rcu_boost() proxy-locks it under.
 */
static bool rcu_boost_dequeue(struct rcu_node *rnp, struct task_struct *t,
			      struct list_head *np)
{
	if (&t->rcu_node_entry == rnp->boost_tasks)
		WRITE_ONCE(rnp->boost_tasks, np);
	return rt_mutex_owner(&rnp->boost_mtx.rtmutex) == t;
}

/*
 * The boosted reader releases the mutex it never locked: it drops rcub's
 * priority and wakes rcub, which is blocked on it (or, if rcub has not
 * blocked yet, leaves the mutex free for it).
 */
static void rcu_boost_unlock(struct rcu_node *rnp)
{
	rt_mutex_futex_unlock(&rnp->boost_mtx.rtmutex);
}
#endif

/*
 * Boost the reader at boost_tasks, then move on to the next one.  The
 * reader is made the proxy owner of boost_mtx under rnp->lock (so it
 * cannot leave the list and miss that it owns it), and rcub then blocks
 * on the mutex: PI raises the reader to rcub's priority until the reader
 * unlocks it in rcu_read_unlock_special().  Interrupts must be on, since
 * this sleeps.  Returns true while readers are left to boost.
 */
static bool rcu_boost(struct rcu_node *rnp)
{
	struct task_struct *t;
	unsigned long flags;

	if (!READ_ONCE(rnp->boost_tasks))
		return false;
	raw_spin_lock_irqsave(&rnp->lock, flags);
	/* The readers may all have left meanwhile. */
	if (!rnp->boost_tasks) {
		raw_spin_unlock_irqrestore(&rnp->lock, flags);
		return false;
	}
	t = container_of(rnp->boost_tasks, struct task_struct, rcu_node_entry);
	rt_mutex_init_proxy_locked(&rnp->boost_mtx.rtmutex, t);
	raw_spin_unlock_irqrestore(&rnp->lock, flags);
	/* Blocking here is the boost; the unlock only balances lockdep. */
	rt_mutex_lock(&rnp->boost_mtx);
	rt_mutex_unlock(&rnp->boost_mtx);
	rnp->n_boosts++;
	return READ_ONCE(rnp->boost_tasks) != NULL;
}

/*
 * rcub: boost readers while there are any to boost; after ten rounds in
 * a row that still leave some, back off for two jiffies so that a
 * reader that keeps getting preempted cannot keep this CPU-bound.
 */
static int rcu_boost_kthread(void *arg)
{
	struct rcu_node *rnp = arg;
	int spincnt = 0;

	for (;;) {
		WRITE_ONCE(rnp->boost_kthread_status, RCU_KTHREAD_WAITING);
		for (;;) {
			set_current_state(TASK_INTERRUPTIBLE);
			if (READ_ONCE(rnp->boost_tasks))
				break;
			schedule();
		}
		__set_current_state(TASK_RUNNING);
		WRITE_ONCE(rnp->boost_kthread_status, RCU_KTHREAD_RUNNING);
		if (rcu_boost(rnp))
			spincnt++;
		else
			spincnt = 0;
		if (spincnt > 10) {
			WRITE_ONCE(rnp->boost_kthread_status, RCU_KTHREAD_YIELDING);
			/* Linux's schedule_timeout_idle(); irqlab has no TASK_IDLE. */
			schedule_timeout_uninterruptible(2);
			spincnt = 0;
		}
	}
	return 0;
}

/*
 * From the FQS loop (rnp->lock held, released here): once boost_time has
 * passed and every CPU has reported, readers still holding up the GP are
 * handed to rcub, starting with the first of the gp_tasks segment.
 */
static void rcu_initiate_boost(struct rcu_node *rnp, unsigned long flags)
{
	if (rnp->gp_tasks && !rnp->boost_tasks && !rnp->qsmask &&
	    !time_after(rnp->boost_time, jiffies)) {
		WRITE_ONCE(rnp->boost_tasks, rnp->gp_tasks);
		raw_spin_unlock_irqrestore(&rnp->lock, flags);
		rcu_wake_cond(rnp->boost_kthread_task,
			      READ_ONCE(rnp->boost_kthread_status));
		return;
	}
	raw_spin_unlock_irqrestore(&rnp->lock, flags);
}

#define RCU_BOOST_DELAY_JIFFIES	DIV_ROUND_UP(CONFIG_RCU_BOOST_DELAY * HZ, 1000)

/* GP start (rnp->lock held): readers become boostable this much later. */
static void rcu_preempt_boost_start_gp(struct rcu_node *rnp)
{
	rnp->boost_time = jiffies + RCU_BOOST_DELAY_JIFFIES;
}

/* rcub/0 for the one rcu_node, SCHED_FIFO at kthread_prio. */
static void rcu_spawn_one_boost_kthread(struct rcu_node *rnp)
{
	struct sched_param sp = { .sched_priority = kthread_prio };
	struct task_struct *t;
	unsigned long flags;

	if (rnp->boost_kthread_task)
		return;
	t = kthread_create(rcu_boost_kthread, rnp, "rcub/%d", (int)(rnp - rcu_get_root()));
	if (WARN_ON_ONCE(!t))
		return;
	raw_spin_lock_irqsave(&rnp->lock, flags);
	rnp->boost_kthread_task = t;
	raw_spin_unlock_irqrestore(&rnp->lock, flags);
	sched_setscheduler_nocheck(t, SCHED_FIFO, &sp);
	wake_up_process(t);
}

/*
 * rcub may run on the node's online CPUs except @outgoingcpu (-1: none),
 * so that it never sits on a CPU that is going down.
 */
static void rcu_boost_kthread_setaffinity(struct rcu_node *rnp, int outgoingcpu)
{
	struct task_struct *t = READ_ONCE(rnp->boost_kthread_task);
	struct cpumask cm;

	if (!t)
		return;
	cpumask_copy(&cm, cpu_online_mask);
	if (outgoingcpu >= 0)
		cpumask_clear_cpu(outgoingcpu, &cm);
	if (!cpumask_weight(&cm))
		return;
	set_cpus_allowed_ptr(t, &cm);
}

struct task_struct *rcu_get_boost_kthread(void)
{
	return READ_ONCE(rcu_get_root()->boost_kthread_task);
}

unsigned long rcu_get_n_boosts(void)
{
	return READ_ONCE(rcu_get_root()->n_boosts);
}

#else /* !CONFIG_RCU_BOOST */

/* Without boosting, rcuc/N stays SCHED_NORMAL, as in Linux. */
static void rcu_cpu_kthread_setup(struct task_struct *t)
{
}

#ifdef CONFIG_PREEMPT_RCU
static bool rcu_boost_dequeue(struct rcu_node *rnp, struct task_struct *t,
			      struct list_head *np)
{
	return false;
}

static void rcu_boost_unlock(struct rcu_node *rnp)
{
}
#endif

static void rcu_initiate_boost(struct rcu_node *rnp, unsigned long flags)
{
	raw_spin_unlock_irqrestore(&rnp->lock, flags);
}

static void rcu_preempt_boost_start_gp(struct rcu_node *rnp)
{
}

static void rcu_spawn_one_boost_kthread(struct rcu_node *rnp)
{
}

static void rcu_boost_kthread_setaffinity(struct rcu_node *rnp, int outgoingcpu)
{
}

struct task_struct *rcu_get_boost_kthread(void)
{
	return NULL;
}

unsigned long rcu_get_n_boosts(void)
{
	return 0;
}

#endif /* CONFIG_RCU_BOOST */
