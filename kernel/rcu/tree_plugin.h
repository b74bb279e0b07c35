/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The flavour-specific half of tree RCU (Linux's tree_plugin.h):
 * preemptible RCU's readers and blocked-tasks list, or, without
 * PREEMPT_RCU, readers as preempt-disabled regions.
 */

#ifdef CONFIG_PREEMPT_RCU

static void rcu_read_unlock_special(struct task_struct *t);

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
 * if it was the last one holding up the GP, report that.
 */
static void rcu_read_unlock_special(struct task_struct *t)
{
	struct rcu_node *rnp;
	struct list_head *np;
	unsigned long flags;
	bool empty_norm;

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
	/* The last blocker of the GP left: the GP may be able to end. */
	if (!empty_norm && !rcu_preempt_blocked_readers_cgp(rnp))
		rcu_report_unblock_qs_rnp(rnp, flags);
	else
		raw_spin_unlock_irqrestore(&rnp->lock, flags);
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
