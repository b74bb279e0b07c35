// SPDX-License-Identifier: GPL-2.0
/*
 * Tree RCU (Linux 5.15's kernel/rcu/tree.c) at irqlab's scale.
 *
 * A grace period (GP) is run by one kthread, rcu_gp_kthread ("rcu_preempt"
 * under PREEMPT_RCU, "rcu_sched" otherwise): it starts a GP when one is
 * requested, waits until every CPU has passed a quiescent state (QS) and
 * no reader preempted inside the GP's read-side sections remains on the
 * blocked-tasks list, then ends it.  CPUs note QSes in the scheduler
 * (rcu_note_context_switch()), from the tick (rcu_sched_clock_irq()) when
 * it interrupts the idle loop or, under PREEMPT_RCU, code outside any
 * reader; they report them, notice GP starts and ends, and invoke their
 * ready callbacks in rcu_core(), which runs in RCU_SOFTIRQ, or on
 * PREEMPT_RT in the per-CPU rcuc/N kthreads (rcutree.use_softirq=0).
 *
 * Locking: the root rcu_node's raw lock, irqs off, covers the node, the
 * GP numbers and the assignment of GP numbers to callbacks; a CPU's
 * callback list is its own, touched with irqs off.  The lock nests
 * outside pi_lock and the run-queue locks (wakeups happen under it) and
 * is never taken with a run-queue lock held: rcu_note_context_switch()
 * runs before __schedule() takes its run queue.
 */
#include <linux/kernel.h>
#include <linux/interrupt.h>
#include <linux/kthread.h>
#include <linux/smpboot.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/kasan.h>
#include <linux/smp.h>
#include <linux/moduleparam.h>
#include <linux/jiffies.h>
#include <linux/nmi.h>
#include <asm/stacktrace.h>
#include <asm/traps.h>
#include <asm-generic/irq_regs.h>
#include <linux/cpu.h>
#include "tree.h"

struct rcu_state rcu_state = {
	.name = IS_ENABLED(CONFIG_PREEMPT_RCU) ? "rcu_preempt" : "rcu_sched",
};
DEFINE_PER_CPU(struct rcu_data, rcu_data);

/*
 * RCU_SCHEDULER_INACTIVE until rcu_init_smp(): one task runs, so every
 * synchronize_rcu() is a grace period by itself (Linux's early-boot rule).
 */
int rcu_scheduler_active;

/* rcutree.use_softirq: PREEMPT_RT invokes callbacks from rcuc kthreads. */
static bool use_softirq = !IS_ENABLED(CONFIG_PREEMPT_RT);

/*
 * rcutree.kthread_prio: SCHED_FIFO priority of the GP kthread (0: normal),
 * and with RCU_BOOST of rcub and rcuc too.  Out-of-range values are
 * pulled into range at boot with a message, as Linux does.
 */
static int kthread_prio = CONFIG_RCU_KTHREAD_PRIO;
core_param("rcutree.kthread_prio", kthread_prio, int,
	   "SCHED_FIFO priority of the RCU kthreads (at least 1 with RCU_BOOST)");

/*
 * Jiffies between quiescent-state forcing passes of the GP kthread
 * (Linux's RCU_JIFFIES_TILL_FORCE_QS below 256 CPUs, its default for
 * rcutree.jiffies_till_first_fqs and jiffies_till_next_fqs).
 */
#define RCU_JIFFIES_TILL_FORCE_QS	(1 + (HZ > 250) + (HZ > 500))
static unsigned long jiffies_till_first_fqs = RCU_JIFFIES_TILL_FORCE_QS;
static unsigned long jiffies_till_next_fqs = RCU_JIFFIES_TILL_FORCE_QS;

static void rcu_report_qs_rsp(unsigned long flags);
static void invoke_rcu_core(void);

/* The GP kthread, for tests that must know where it runs. */
struct task_struct *rcu_get_gp_kthread(void)
{
	return READ_ONCE(rcu_state.gp_kthread);
}

/* Callbacks queued on @cpu (tests: none may stay on a dead CPU). */
long rcu_get_n_cbs_cpu(int cpu)
{
	return rcu_segcblist_n_cbs(&per_cpu(rcu_data, cpu).cblist);
}

/* rcuc/@cpu where callbacks run in kthreads, else NULL. */
struct task_struct *rcu_get_cpu_kthread(int cpu)
{
	return READ_ONCE(per_cpu(rcu_data, cpu).rcu_cpu_kthread_task);
}

unsigned long rcu_get_gp_seq(void)
{
	return READ_ONCE(rcu_state.gp_seq);
}

static bool rcu_gp_in_progress(void)
{
	return rcu_seq_state(rcu_seq_current(&rcu_state.gp_seq));
}

static void rcu_gp_kthread_wake(void)
{
	struct task_struct *t = READ_ONCE(rcu_state.gp_kthread);

	/*
	 * The kthread in task context reads gp_flags itself before it
	 * sleeps.  An interrupt or softirq on top of it may have come after
	 * that read and before its schedule(): it must be woken then, or it
	 * sleeps on the request it just missed (Linux's in_hardirq() and
	 * in_serving_softirq() exceptions).
	 */
	if (!t || (current == t && !in_hardirq() && !in_serving_softirq()))
		return;
	wake_up_process(t);
}

/* Tests: run in the GP kthread between its gp_flags check and schedule(). */
void (*rcu_gp_wait_test_hook)(void);

/*
 * Ask for the GP that ends at @gp_seq_req (rnp->lock held).  A GP already
 * running keeps the request in gp_seq_needed for rcu_gp_cleanup(); an
 * idle RCU wakes the GP kthread.
 */
static bool rcu_start_this_gp(struct rcu_node *rnp, struct rcu_data *rdp,
			      unsigned long gp_seq_req)
{
	if (ULONG_CMP_GE(rnp->gp_seq_needed, gp_seq_req))
		return false;
	WRITE_ONCE(rnp->gp_seq_needed, gp_seq_req);
	if (rcu_gp_in_progress())
		return false;
	WRITE_ONCE(rcu_state.gp_flags, rcu_state.gp_flags | RCU_GP_FLAG_INIT);
	return true;
}

/*
 * Number this CPU's new callbacks (rnp->lock held) with the end of the
 * next GP to start, and request that GP.  True if the GP kthread needs
 * a wakeup.
 */
static bool rcu_accelerate_cbs(struct rcu_node *rnp, struct rcu_data *rdp)
{
	unsigned long gp_seq_req;

	if (rcu_segcblist_restempty(&rdp->cblist, RCU_DONE_TAIL))
		return false;
	gp_seq_req = rcu_seq_snap(&rcu_state.gp_seq);
	if (rcu_segcblist_accelerate(&rdp->cblist, gp_seq_req))
		return rcu_start_this_gp(rnp, rdp, gp_seq_req);
	return false;
}

static void rcu_accelerate_cbs_unlocked(struct rcu_node *rnp, struct rcu_data *rdp)
{
	bool needwake;

	raw_spin_lock(&rnp->lock);
	needwake = rcu_accelerate_cbs(rnp, rdp);
	raw_spin_unlock(&rnp->lock);
	if (needwake)
		rcu_gp_kthread_wake();
}

/* Move callbacks whose GP has ended to DONE, then number new ones. */
static bool rcu_advance_cbs(struct rcu_node *rnp, struct rcu_data *rdp)
{
	if (rcu_segcblist_restempty(&rdp->cblist, RCU_DONE_TAIL))
		return false;
	rcu_segcblist_advance(&rdp->cblist, rnp->gp_seq);
	return rcu_accelerate_cbs(rnp, rdp);
}

/*
 * This CPU catches up with its node (rnp->lock held, irqs off): a GP that
 * ended readies callbacks, a GP that started needs a fresh QS from it.
 */
static bool __note_gp_changes(struct rcu_node *rnp, struct rcu_data *rdp)
{
	bool needwake = false;

	if (rdp->gp_seq == rnp->gp_seq)
		return false;
	if (rcu_seq_completed_gp(rdp->gp_seq, rnp->gp_seq))
		needwake = rcu_advance_cbs(rnp, rdp);
	else
		needwake = rcu_accelerate_cbs(rnp, rdp);
	if (rcu_seq_new_gp(rdp->gp_seq, rnp->gp_seq)) {
		/* A new GP: only a QS from now on counts for it. */
		bool need_qs = !!(rnp->qsmask & rdp->grpmask);

		rdp->cpu_no_qs = need_qs;
		rdp->core_needs_qs = need_qs;
		zero_cpu_stall_ticks(rdp);
	}
	rdp->gp_seq = rnp->gp_seq;
	return needwake;
}

static void note_gp_changes(struct rcu_data *rdp)
{
	struct rcu_node *rnp = rdp->mynode;
	unsigned long flags;
	bool needwake;

	local_irq_save(flags);
	if (rdp->gp_seq == READ_ONCE(rnp->gp_seq)) {
		local_irq_restore(flags);
		return;
	}
	raw_spin_lock(&rnp->lock);
	needwake = __note_gp_changes(rnp, rdp);
	raw_spin_unlock_irqrestore(&rnp->lock, flags);
	if (needwake)
		rcu_gp_kthread_wake();
}

/* ------------------------------------------------------ quiescent states */

/* This CPU passed a QS; rcu_core() reports it. */
static void rcu_qs(void)
{
	struct rcu_data *rdp = this_cpu_ptr(&rcu_data);

	if (!READ_ONCE(rdp->cpu_no_qs))
		return;
	WRITE_ONCE(rdp->cpu_no_qs, false);
}

/*
 * Clear @mask in the node (rnp->lock held, irqs were saved in @flags; the
 * lock is released).  The last CPU in, with no blocked reader left for
 * this GP, tells the GP kthread.
 */
static void rcu_report_qs_rnp(unsigned long mask, struct rcu_node *rnp,
			      unsigned long gps, unsigned long flags)
{
	if (!(rnp->qsmask & mask) || rnp->gp_seq != gps) {
		raw_spin_unlock_irqrestore(&rnp->lock, flags);
		return;
	}
	WRITE_ONCE(rnp->qsmask, rnp->qsmask & ~mask);
	if (rnp->qsmask || rcu_preempt_blocked_readers_cgp(rnp)) {
		raw_spin_unlock_irqrestore(&rnp->lock, flags);
		return;
	}
	rcu_report_qs_rsp(flags);
}

/* Every QS is in: wake the GP kthread to end the GP (lock released). */
static void rcu_report_qs_rsp(unsigned long flags)
{
	WRITE_ONCE(rcu_state.gp_flags, rcu_state.gp_flags | RCU_GP_FLAG_FQS);
	raw_spin_unlock_irqrestore(&rcu_get_root()->lock, flags);
	rcu_gp_kthread_wake();
}

/*
 * The last blocked reader of the current GP left (rnp->lock held, released
 * here): if the CPUs are all in too, the GP may end.
 */
static void rcu_report_unblock_qs_rnp(struct rcu_node *rnp, unsigned long flags)
{
	if (!rcu_gp_in_progress() || rnp->qsmask ||
	    rcu_preempt_blocked_readers_cgp(rnp)) {
		raw_spin_unlock_irqrestore(&rnp->lock, flags);
		return;
	}
	rcu_report_qs_rsp(flags);
}

/* Report this CPU's QS for the GP it noted, if it is still the GP. */
static void rcu_report_qs_rdp(struct rcu_data *rdp)
{
	struct rcu_node *rnp = rdp->mynode;
	unsigned long flags;
	bool needwake;

	raw_spin_lock_irqsave(&rnp->lock, flags);
	if (rdp->cpu_no_qs || rdp->gp_seq != rnp->gp_seq) {
		/* The QS predates this GP: look for another. */
		rdp->cpu_no_qs = true;
		raw_spin_unlock_irqrestore(&rnp->lock, flags);
		return;
	}
	if (!(rnp->qsmask & rdp->grpmask)) {
		rdp->core_needs_qs = false;
		raw_spin_unlock_irqrestore(&rnp->lock, flags);
		return;
	}
	rdp->core_needs_qs = false;
	/* Callbacks queued so far cannot need a later GP than the next. */
	needwake = rcu_accelerate_cbs(rnp, rdp);
	rcu_report_qs_rnp(rdp->grpmask, rnp, rnp->gp_seq, flags);
	if (needwake)
		rcu_gp_kthread_wake();
}

static void rcu_check_quiescent_state(struct rcu_data *rdp)
{
	note_gp_changes(rdp);
	if (!READ_ONCE(rdp->core_needs_qs))
		return;
	if (READ_ONCE(rdp->cpu_no_qs))
		return;
	rcu_report_qs_rdp(rdp);
}

/*
 * The tick interrupted the idle loop's halt directly (no softirq, no
 * nested interrupt): Linux's rcu_is_cpu_rrupt_from_idle(), with the
 * idle-loop flag standing in for the dynticks counter.
 */
static bool rcu_is_cpu_rrupt_from_idle(void)
{
	if (!is_idle_task(current) || !this_cpu_read(rcu_data.rcu_in_idle))
		return false;
	return hardirq_count() == HARDIRQ_OFFSET && !softirq_count();
}

/* ------------------------------------------------------------- callbacks */

/*
 * Invoke this CPU's ready callbacks.  kfree_rcu()'s callbacks carry the
 * offset of the rcu_head in the object instead of a function.
 */
static void rcu_do_batch(struct rcu_data *rdp)
{
	struct rcu_head *list, *rhp, *next;
	unsigned long flags;
	long n;

	local_irq_save(flags);
	list = rcu_segcblist_extract_done_cbs(&rdp->cblist, &n);
	local_irq_restore(flags);
	for (rhp = list; rhp; rhp = next) {
		unsigned long offset = (unsigned long)rhp->func;

		next = rhp->next;
		if (__is_kvfree_rcu_offset(offset)) {
			kfree((void *)rhp - offset);
		} else {
			rcu_callback_t f = rhp->func;

			WRITE_ONCE(rhp->func, NULL);
			f(rhp);
		}
		rdp->n_cbs_invoked++;
	}
	local_irq_save(flags);
	if (rcu_segcblist_ready_cbs(&rdp->cblist))
		invoke_rcu_core();
	local_irq_restore(flags);
}

/*
 * This CPU's RCU work: report a QS, catch up with GP changes, number new
 * callbacks, invoke ready ones.  RCU_SOFTIRQ, or rcuc/N on PREEMPT_RT.
 */
static void rcu_core(void)
{
	struct rcu_data *rdp = this_cpu_ptr(&rcu_data);
	unsigned long flags;

	rcu_check_quiescent_state(rdp);
	local_irq_save(flags);
	if (!rcu_segcblist_segempty(&rdp->cblist, RCU_NEXT_TAIL))
		rcu_accelerate_cbs_unlocked(rdp->mynode, rdp);
	local_irq_restore(flags);
	if (rcu_segcblist_ready_cbs(&rdp->cblist))
		rcu_do_batch(rdp);
}

static void rcu_core_si(struct softirq_action *h)
{
	rcu_core();
}

/* A kthread backing off (YIELDING) is left to sleep, unless idle asks. */
static void rcu_wake_cond(struct task_struct *t, int status)
{
	if (t && (status != RCU_KTHREAD_YIELDING || is_idle_task(current)))
		wake_up_process(t);
}

/* Have rcu_core() run on this CPU: raise RCU_SOFTIRQ or wake rcuc/N. */
static void invoke_rcu_core(void)
{
	struct rcu_data *rdp = this_cpu_ptr(&rcu_data);
	unsigned long flags;

	if (use_softirq) {
		raise_softirq(RCU_SOFTIRQ);
		return;
	}
	local_irq_save(flags);
	WRITE_ONCE(rdp->rcu_cpu_has_work, true);
	/* irqlab's rcuc/N never backs off: it is always woken. */
	rcu_wake_cond(rdp->rcu_cpu_kthread_task, RCU_KTHREAD_WAITING);
	local_irq_restore(flags);
}

static int rcu_cpu_kthread(void *unused);

/* Its priority, set on the control CPU as the thread is made. */
static void rcu_cpu_kthread_create(unsigned int cpu)
{
	rcu_cpu_kthread_setup(per_cpu(rcu_data, cpu).rcu_cpu_kthread_task);
}

/* rcuc/N: rcu_core() in a thread, with bottom halves off as Linux's. */
static struct smp_hotplug_thread rcu_cpu_thread_spec = {
	.store = &rcu_data.rcu_cpu_kthread_task,
	.thread_fn = rcu_cpu_kthread,
	.create = rcu_cpu_kthread_create,
	.thread_comm = "rcuc/%u",
};

static int rcu_cpu_kthread(void *unused)
{
	struct rcu_data *rdp;

	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		/* Parked while its CPU is down (kernel/smpboot.c). */
		if (kthread_should_park()) {
			__set_current_state(TASK_RUNNING);
			kthread_parkme();
			continue;
		}
		rdp = this_cpu_ptr(&rcu_data);
		if (!READ_ONCE(rdp->rcu_cpu_has_work)) {
			schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);
		local_bh_disable();
		WRITE_ONCE(rdp->rcu_cpu_has_work, false);
		rcu_core();
		local_bh_enable();
		cond_resched();
	}
	return 0;
}

/* Anything for rcu_core() on this CPU? (the tick's question) */
static bool rcu_pending(int user)
{
	struct rcu_data *rdp = this_cpu_ptr(&rcu_data);
	struct rcu_node *rnp = rdp->mynode;

	/* A stall is looked for on every tick, whatever else is pending. */
	check_cpu_stall(rdp);
	if (READ_ONCE(rdp->core_needs_qs) && !READ_ONCE(rdp->cpu_no_qs))
		return true;
	if (rcu_segcblist_ready_cbs(&rdp->cblist))
		return true;
	if (!rcu_segcblist_restempty(&rdp->cblist, RCU_NEXT_READY_TAIL))
		return true;	/* new callbacks to number */
	if (rcu_seq_current(&rnp->gp_seq) != rdp->gp_seq)
		return true;	/* a GP started or ended */
	return false;
}

/* From the tick, interrupts off. */
void rcu_sched_clock_irq(int user)
{
	if (!READ_ONCE(rcu_scheduler_active))
		return;
	raw_cpu_inc(rcu_data.ticks_this_gp);
	rcu_flavor_sched_clock_irq(user);
	if (rcu_pending(user))
		invoke_rcu_core();
}

/*
 * The idle loop is about to halt: no reader can be open in the idle task
 * here, so this is a QS, and ticks that interrupt the halt are too.
 */
void rcu_idle_enter(void)
{
	this_cpu_write(rcu_data.rcu_in_idle, true);
	rcu_qs();
}

void rcu_idle_exit(void)
{
	this_cpu_write(rcu_data.rcu_in_idle, false);
}

/*
 * Queue @head for @func after a grace period.  Callbacks queued on one
 * CPU are invoked in order on that CPU.
 */
void call_rcu(struct rcu_head *head, rcu_callback_t func)
{
	struct rcu_data *rdp;
	unsigned long flags;

	head->func = func;
	head->next = NULL;
	local_irq_save(flags);
	/* The free this leads to runs from a callback: keep who queued it. */
	kasan_record_aux_stack(head);
	rdp = this_cpu_ptr(&rcu_data);
	rcu_segcblist_enqueue(&rdp->cblist, head);
	local_irq_restore(flags);
}

/* ------------------------------------------------------ the GP kthread */

/* Start a GP if one is wanted.  False if there was no request. */
static bool rcu_gp_init(void)
{
	struct rcu_node *rnp = rcu_get_root();
	struct rcu_data *rdp;

	/*
	 * ofl_lock first: a CPU coming or going changes qsmaskinitnext
	 * under it, so this GP waits for exactly the CPUs online as it
	 * starts (Linux's RCU_GP_ONOFF pass, for the one leaf).
	 */
	local_irq_disable();
	raw_spin_lock(&rcu_state.ofl_lock);
	raw_spin_lock(&rnp->lock);
	if (!READ_ONCE(rcu_state.gp_flags)) {
		raw_spin_unlock(&rnp->lock);
		raw_spin_unlock(&rcu_state.ofl_lock);
		local_irq_enable();
		return false;
	}
	WRITE_ONCE(rcu_state.gp_flags, 0);
	if (WARN_ON_ONCE(rcu_gp_in_progress())) {
		raw_spin_unlock(&rnp->lock);
		raw_spin_unlock(&rcu_state.ofl_lock);
		local_irq_enable();
		return false;
	}
	record_gp_stall_check_time();
	rcu_seq_start(&rcu_state.gp_seq);
	WRITE_ONCE(rnp->qsmaskinit, rnp->qsmaskinitnext);
	raw_spin_unlock(&rcu_state.ofl_lock);
	/* Readers preempted before now are readers of this GP. */
	rcu_preempt_check_blocked_tasks(rnp);
	WRITE_ONCE(rnp->qsmask, rnp->qsmaskinit);
	WRITE_ONCE(rnp->gp_seq, rcu_state.gp_seq);
	rdp = this_cpu_ptr(&rcu_data);
	if (rdp->mynode == rnp)
		__note_gp_changes(rnp, rdp);
	rcu_preempt_boost_start_gp(rnp);
	raw_spin_unlock_irq(&rnp->lock);
	return true;
}

static bool rcu_gp_done(void)
{
	struct rcu_node *rnp = rcu_get_root();

	return !READ_ONCE(rnp->qsmask) && !rcu_preempt_blocked_readers_cgp(rnp);
}

/*
 * Quiescent-state forcing for the (only, leaf) rcu_node.  Linux also
 * looks at the dynticks counters of CPUs still in qsmask here; irqlab's
 * idle CPUs keep their tick, which reports for them, so what is left is
 * the other half: all CPUs are in but preempted readers still hold up
 * the GP, and they may be due for priority boosting.
 */
static void force_qs_rnp(void)
{
	struct rcu_node *rnp = rcu_get_root();
	unsigned long flags;

	raw_spin_lock_irqsave(&rnp->lock, flags);
	if (rnp->qsmask == 0 && rcu_preempt_blocked_readers_cgp(rnp)) {
		rcu_initiate_boost(rnp, flags);	/* drops rnp->lock */
		return;
	}
	raw_spin_unlock_irqrestore(&rnp->lock, flags);
}

static void rcu_gp_fqs(void)
{
	struct rcu_node *rnp = rcu_get_root();

	WRITE_ONCE(rcu_state.gp_activity, jiffies);
	WRITE_ONCE(rcu_state.n_force_qs, rcu_state.n_force_qs + 1);
	force_qs_rnp();
	if (READ_ONCE(rcu_state.gp_flags) & RCU_GP_FLAG_FQS) {
		raw_spin_lock_irq(&rnp->lock);
		WRITE_ONCE(rcu_state.gp_flags, rcu_state.gp_flags & ~RCU_GP_FLAG_FQS);
		raw_spin_unlock_irq(&rnp->lock);
	}
}

/* Worth waking for: every QS is in, or a forcing pass was asked for. */
static bool rcu_gp_fqs_check_wake(void)
{
	return (READ_ONCE(rcu_state.gp_flags) & RCU_GP_FLAG_FQS) || rcu_gp_done();
}

/* Sleep until rcu_gp_fqs_check_wake() or @j jiffies have passed. */
static void rcu_gp_fqs_wait(long j)
{
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (rcu_gp_fqs_check_wake() || j <= 0)
			break;
		j = schedule_timeout(j);
	}
	__set_current_state(TASK_RUNNING);
}

/*
 * Wait for all QSes and blocked readers, forcing every few jiffies.  The
 * only forcing irqlab needs is RCU boosting (see force_qs_rnp()), so
 * without RCU_BOOST the kthread sleeps until the last QS wakes it, where
 * Linux would wake for passes that find nothing to do.
 */
static void rcu_gp_fqs_loop(void)
{
	long j = IS_ENABLED(CONFIG_RCU_BOOST) ? READ_ONCE(jiffies_till_first_fqs)
					       : MAX_SCHEDULE_TIMEOUT;

	WRITE_ONCE(rcu_state.jiffies_force_qs, jiffies + j);
	for (;;) {
		rcu_state.gp_state = RCU_GP_WAIT_FQS;
		rcu_gp_fqs_wait(j);
		rcu_state.gp_state = RCU_GP_DOING_FQS;
		if (rcu_gp_done())
			break;
		if (!IS_ENABLED(CONFIG_RCU_BOOST)) {
			rcu_gp_fqs();	/* only clears a forcing request */
			continue;
		}
		if (!time_after(READ_ONCE(rcu_state.jiffies_force_qs), jiffies) ||
		    (READ_ONCE(rcu_state.gp_flags) & RCU_GP_FLAG_FQS)) {
			rcu_gp_fqs();
			j = READ_ONCE(jiffies_till_next_fqs);
			WRITE_ONCE(rcu_state.jiffies_force_qs, jiffies + j);
		} else {
			/* Woken early: the next pass keeps its time. */
			j = READ_ONCE(rcu_state.jiffies_force_qs) - jiffies;
			if (j < 1)
				j = 1;
		}
	}
}

/* End the GP; start the next if anyone asked for it meanwhile. */
static void rcu_gp_cleanup(void)
{
	struct rcu_node *rnp = rcu_get_root();
	struct rcu_data *rdp;
	unsigned long new_gp_seq;
	bool needgp = false;

	rcu_state.gp_state = RCU_GP_CLEANUP;
	WRITE_ONCE(rcu_state.gp_activity, jiffies);
	raw_spin_lock_irq(&rnp->lock);
	WARN_ON_ONCE(rnp->qsmask || rcu_preempt_blocked_readers_cgp(rnp));
	new_gp_seq = rcu_state.gp_seq;
	rcu_seq_end(&new_gp_seq);
	WRITE_ONCE(rnp->gp_seq, new_gp_seq);
	rdp = this_cpu_ptr(&rcu_data);
	if (rdp->mynode == rnp)
		needgp = __note_gp_changes(rnp, rdp) || needgp;
	rcu_seq_end(&rcu_state.gp_seq);
	rcu_state.gp_count++;
	if (ULONG_CMP_LT(rnp->gp_seq, rnp->gp_seq_needed))
		needgp = true;
	if (needgp)
		WRITE_ONCE(rcu_state.gp_flags, RCU_GP_FLAG_INIT);
	else
		WRITE_ONCE(rcu_state.gp_flags, 0);
	rcu_state.gp_state = RCU_GP_IDLE;
	raw_spin_unlock_irq(&rnp->lock);
}

static int rcu_gp_kthread(void *unused)
{
	for (;;) {
		rcu_state.gp_state = RCU_GP_WAIT_GPS;
		for (;;) {
			set_current_state(TASK_INTERRUPTIBLE);
			if (READ_ONCE(rcu_state.gp_flags) & RCU_GP_FLAG_INIT)
				break;
			if (unlikely(READ_ONCE(rcu_gp_wait_test_hook)))
				rcu_gp_wait_test_hook();
			schedule();
		}
		__set_current_state(TASK_RUNNING);
		WRITE_ONCE(rcu_state.gp_activity, jiffies);
		rcu_state.gp_state = RCU_GP_INIT;
		if (!rcu_gp_init())
			continue;
		rcu_gp_fqs_loop();
		rcu_gp_cleanup();
	}
	return 0;
}

/* ------------------------------------------------------------- barrier */

static void rcu_barrier_callback(struct rcu_head *rhp)
{
	if (atomic_dec_and_test(&rcu_state.barrier_cpu_count))
		complete(&rcu_state.barrier_completion);
}

/* On each CPU in turn (IPI): queue its barrier_head behind its callbacks. */
static void rcu_barrier_func(void *unused)
{
	struct rcu_data *rdp = this_cpu_ptr(&rcu_data);

	atomic_inc(&rcu_state.barrier_cpu_count);
	rdp->barrier_head.func = rcu_barrier_callback;
	if (!rcu_segcblist_entrain(&rdp->cblist, &rdp->barrier_head))
		atomic_dec(&rcu_state.barrier_cpu_count);	/* nothing queued */
}

/*
 * Wait until every callback queued before the call has been invoked.
 * The count starts at one so that no CPU's callback can complete the
 * barrier before all CPUs have entrained theirs.
 */
void rcu_barrier(void)
{
	int cpu;

	might_sleep();
	mutex_lock(&rcu_state.barrier_mutex);
	init_completion(&rcu_state.barrier_completion);
	atomic_set(&rcu_state.barrier_cpu_count, 1);
	/*
	 * No CPU may go while the barrier callbacks are entrained: a dead
	 * CPU's callbacks are merged behind this CPU's, after its barrier.
	 */
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		if (!rcu_segcblist_n_cbs(&per_cpu(rcu_data, cpu).cblist))
			continue;
		smp_call_function_single(cpu, rcu_barrier_func, NULL, 1);
	}
	cpus_read_unlock();
	if (atomic_dec_and_test(&rcu_state.barrier_cpu_count))
		complete(&rcu_state.barrier_completion);
	wait_for_completion(&rcu_state.barrier_completion);
	mutex_unlock(&rcu_state.barrier_mutex);
}

/* ------------------------------------------------------------------ init */

void synchronize_rcu(void)
{
	might_sleep();
	if (!READ_ONCE(rcu_scheduler_active))
		return;		/* one task: a GP has trivially elapsed */
	wait_rcu_gp(call_rcu);
}

void rcu_init(void)
{
	struct rcu_node *rnp = rcu_get_root();
	int cpu;

	raw_spin_lock_init(&rnp->lock);
	raw_spin_lock_init(&rcu_state.ofl_lock);
	INIT_LIST_HEAD(&rnp->blkd_tasks);
#ifdef CONFIG_RCU_BOOST
	rt_mutex_init(&rnp->boost_mtx);
#endif
	rnp->grplo = 0;
	rnp->grphi = NR_CPUS - 1;
	rcu_state.gp_seq = 0;
	mutex_init(&rcu_state.barrier_mutex);
	for_each_possible_cpu(cpu) {
		struct rcu_data *rdp = per_cpu_ptr(&rcu_data, cpu);

		rdp->cpu = cpu;
		rdp->mynode = rnp;
		rdp->grpmask = 1UL << (cpu - rnp->grplo);
		rdp->cpu_no_qs = true;
		rcu_segcblist_init(&rdp->cblist);
	}
	open_softirq(RCU_SOFTIRQ, rcu_core_si);
}

/* The GP kthread is SCHED_FIFO whenever kthread_prio is non-zero. */
static void rcu_set_kthread_prio(struct task_struct *t)
{
	struct sched_param sp = { .sched_priority = kthread_prio };

	if (kthread_prio)
		sched_setscheduler_nocheck(t, SCHED_FIFO, &sp);
}

/*
 * rcutree.kthread_prio into range: boosting needs the RCU kthreads above
 * SCHED_NORMAL, so at least 1 with RCU_BOOST; at most 99.
 */
static void rcu_check_kthread_prio(void)
{
	int in = kthread_prio;

	if (IS_ENABLED(CONFIG_RCU_BOOST) && kthread_prio < 1)
		kthread_prio = 1;
	else if (kthread_prio < 0)
		kthread_prio = 0;
	else if (kthread_prio > 99)
		kthread_prio = 99;
	if (kthread_prio != in)
		pr_alert("rcu: kthread_prio %d out of range, using %d\n", in, kthread_prio);
}

/*
 * Before smp_init() (Linux's rcu_spawn_gp_kthread(), an early initcall):
 * the online CPUs - the boot CPU - are in the GP masks; each AP joins at
 * rcu_cpu_starting() as it comes up.  Start the GP kthread, and rcuc/N
 * where callbacks run in threads.
 */
void rcu_init_smp(void)
{
	struct rcu_node *rnp = rcu_get_root();
	struct task_struct *t;
	unsigned long flags;
	int cpu;

	raw_spin_lock_irqsave(&rnp->lock, flags);
	for_each_online_cpu(cpu)
		rnp->qsmaskinit |= per_cpu(rcu_data, cpu).grpmask;
	rnp->qsmaskinitnext = rnp->qsmaskinit;
	raw_spin_unlock_irqrestore(&rnp->lock, flags);
	rcu_check_kthread_prio();
	/* rcuc/N: now for the boot CPU, at CPUHP_CREATE_THREADS for the APs. */
	if (!use_softirq)
		BUG_ON(smpboot_register_percpu_thread(&rcu_cpu_thread_spec));
	t = kthread_create(rcu_gp_kthread, NULL, "%s", rcu_state.name);
	if (WARN_ON(!t))
		return;
	rcu_set_kthread_prio(t);
	WRITE_ONCE(rcu_state.gp_kthread, t);
	wake_up_process(t);
	rcu_spawn_one_boost_kthread(rnp);
	WRITE_ONCE(rcu_scheduler_active, 1);
	rcu_hotplug_init();
}

#include "tree_plugin.h"
#include "tree_stall.h"

/* ---------------------------------------------------------- CPU hotplug */

/*
 * CPUHP_RCUTREE_PREP startup, on the control CPU before @cpu runs: its
 * rcu_data starts afresh at the node's GP with no QS owed (it is not in
 * any GP's mask until rcu_cpu_starting()).  The callback list was left
 * empty by rcutree_migrate_callbacks().
 */
int rcutree_prepare_cpu(unsigned int cpu)
{
	struct rcu_data *rdp = per_cpu_ptr(&rcu_data, cpu);
	struct rcu_node *rnp = rdp->mynode;
	unsigned long flags;

	raw_spin_lock_irqsave(&rnp->lock, flags);
	WARN_ON_ONCE(!rcu_segcblist_empty(&rdp->cblist));
	rcu_segcblist_init(&rdp->cblist);
	rdp->gp_seq = READ_ONCE(rnp->gp_seq);
	rdp->cpu_no_qs = true;
	rdp->core_needs_qs = false;
	rdp->rcu_in_idle = false;
	raw_spin_unlock_irqrestore(&rnp->lock, flags);
	return 0;
}

/*
 * On the incoming CPU, interrupts off, before it runs anything that may
 * read RCU-protected data (notify_cpu_starting(), as in Linux): from now
 * on GPs that start wait for it.
 */
void rcu_cpu_starting(unsigned int cpu)
{
	struct rcu_data *rdp = per_cpu_ptr(&rcu_data, cpu);
	struct rcu_node *rnp = rdp->mynode;
	unsigned long flags;

	local_irq_save(flags);
	raw_spin_lock(&rcu_state.ofl_lock);
	raw_spin_lock(&rnp->lock);
	WRITE_ONCE(rnp->qsmaskinitnext, rnp->qsmaskinitnext | rdp->grpmask);
	rdp->gp_seq = rnp->gp_seq;
	/* a GP cannot have started waiting for a CPU that was offline */
	WARN_ON_ONCE(rnp->qsmask & rdp->grpmask);
	raw_spin_unlock(&rnp->lock);
	raw_spin_unlock(&rcu_state.ofl_lock);
	local_irq_restore(flags);
}

/* CPUHP_AP_RCUTREE_ONLINE startup, on @cpu: rcub may run there again. */
int rcutree_online_cpu(unsigned int cpu)
{
	if (!READ_ONCE(rcu_scheduler_active))
		return 0;
	rcu_boost_kthread_setaffinity(rcu_get_root(), -1);
	return 0;
}

/* CPUHP_AP_RCUTREE_ONLINE teardown, on @cpu: rcub leaves it. */
int rcutree_offline_cpu(unsigned int cpu)
{
	rcu_boost_kthread_setaffinity(rcu_get_root(), cpu);
	return 0;
}

/*
 * CPUHP_AP_RCUTREE_DYING teardown, on the dying CPU in stop_machine.
 * Linux only traces here whether the current GP still waits for the CPU
 * ("cpuofl-bgp"); irqlab counts the take-downs that found it so.
 */
int rcutree_dying_cpu(unsigned int cpu)
{
	struct rcu_data *rdp = this_cpu_ptr(&rcu_data);

	if (READ_ONCE(rdp->mynode->qsmask) & rdp->grpmask)
		rdp->n_ofl_blocking_gp++;
	return 0;
}

/*
 * The outgoing CPU is about to stop (its idle task, interrupts off, the
 * last RCU reader on it done): report the QS any GP still wants from it,
 * then take it out of the CPUs that later GPs wait for.  The QS comes
 * first, else the GP would wait for a CPU no longer in any mask.
 * Linux calls this from cpuhp_report_idle_dead().  If the hotplug core
 * has not (the CPU is still in the mask when it is dead),
 * rcutree_dead_cpu() does it for the dead CPU from the control CPU.
 */
void rcu_report_dead(unsigned int cpu)
{
	struct rcu_data *rdp = per_cpu_ptr(&rcu_data, cpu);
	struct rcu_node *rnp = rdp->mynode;
	unsigned long mask = rdp->grpmask;
	unsigned long flags, irqoff;

	if (cpu == raw_smp_processor_id())
		rcu_preempt_deferred_qs(current);

	local_irq_save(flags);
	local_save_flags(irqoff);
	raw_spin_lock(&rcu_state.ofl_lock);
	raw_spin_lock(&rnp->lock);
	if (rnp->qsmask & mask) {
		/* releases rnp->lock, leaving interrupts off (@irqoff) */
		rcu_report_qs_rnp(mask, rnp, rnp->gp_seq, irqoff);
		raw_spin_lock(&rnp->lock);
	}
	WRITE_ONCE(rnp->qsmaskinitnext, rnp->qsmaskinitnext & ~mask);
	raw_spin_unlock(&rnp->lock);
	raw_spin_unlock(&rcu_state.ofl_lock);
	local_irq_restore(flags);
}

/*
 * After @cpu has died, on the control CPU (Linux: takedown_cpu()): its
 * callbacks become this CPU's.  Both lists are advanced against the
 * node's GP first so that ready ones stay ready; the dead CPU's waiting
 * ones join this CPU's NEXT and are numbered for the next GP.
 */
void rcutree_migrate_callbacks(int cpu)
{
	struct rcu_data *rdp = per_cpu_ptr(&rcu_data, cpu);
	struct rcu_data *my_rdp;
	struct rcu_node *my_rnp;
	unsigned long flags;
	bool needwake;

	if (rcu_segcblist_empty(&rdp->cblist))
		return;

	local_irq_save(flags);
	my_rdp = this_cpu_ptr(&rcu_data);
	my_rnp = my_rdp->mynode;
	raw_spin_lock(&my_rnp->lock);
	needwake = rcu_advance_cbs(my_rnp, rdp);
	needwake = rcu_advance_cbs(my_rnp, my_rdp) || needwake;
	rcu_segcblist_merge(&my_rdp->cblist, &rdp->cblist);
	needwake = rcu_advance_cbs(my_rnp, my_rdp) || needwake;
	raw_spin_unlock(&my_rnp->lock);
	/* ready ones are invoked here now */
	if (rcu_segcblist_ready_cbs(&my_rdp->cblist))
		invoke_rcu_core();
	local_irq_restore(flags);
	if (needwake)
		rcu_gp_kthread_wake();
	if (WARN_ON_ONCE(rcu_segcblist_n_cbs(&rdp->cblist) ||
			 !rcu_segcblist_empty(&rdp->cblist)))
		pr_warn("rcu: callbacks left on offline CPU %d: %ld\n",
			cpu, rcu_segcblist_n_cbs(&rdp->cblist));
}

/*
 * CPUHP_RCUTREE_PREP teardown, on the control CPU once @cpu is dead.
 * Linux adjusts rcub's affinity and nocb wakeups here; irqlab also makes
 * sure the dead CPU is out of the GP masks and its callbacks taken over
 * (a no-op when the hotplug core already did both).
 */
int rcutree_dead_cpu(unsigned int cpu)
{
	struct rcu_data *rdp = per_cpu_ptr(&rcu_data, cpu);

	if (READ_ONCE(rdp->mynode->qsmaskinitnext) & rdp->grpmask)
		rcu_report_dead(cpu);
	rcutree_migrate_callbacks(cpu);
	rcu_boost_kthread_setaffinity(rcu_get_root(), -1);
	return 0;
}

/* Linux's static hotplug table has these; irqlab registers them. */
static void rcu_hotplug_init(void)
{
	cpuhp_setup_state_nocalls(CPUHP_RCUTREE_PREP, "RCU/tree:prepare",
				  rcutree_prepare_cpu, rcutree_dead_cpu);
	cpuhp_setup_state_nocalls(CPUHP_AP_RCUTREE_DYING, "RCU/tree:dying",
				  NULL, rcutree_dying_cpu);
	cpuhp_setup_state_nocalls(CPUHP_AP_RCUTREE_ONLINE, "RCU/tree:online",
				  rcutree_online_cpu, rcutree_offline_cpu);
}

/* For a test that saw a grace period stall: what RCU was waiting for. */
void rcu_dump_state(void)
{
	struct rcu_node *rnp = rcu_get_root();
	int cpu;

	pr_info("rcu: %s gp_seq=%lu gp_flags=%#x gp_state=%d needed=%lu rnp gp_seq=%lu qsmask=%#lx qsmaskinit=%#lx gp_tasks=%d blkd=%d\n",
		rcu_state.name, rcu_state.gp_seq, rcu_state.gp_flags, rcu_state.gp_state,
		rnp->gp_seq_needed, rnp->gp_seq, rnp->qsmask, rnp->qsmaskinit,
		rnp->gp_tasks != NULL, !list_empty(&rnp->blkd_tasks));
#ifdef CONFIG_RCU_BOOST
	pr_info("rcu: boost_tasks=%d boost_time=%+ld jiffies status=%u n_boosts=%lu n_force_qs=%lu\n",
		rnp->boost_tasks != NULL, (long)(rnp->boost_time - jiffies),
		rnp->boost_kthread_status, rnp->n_boosts, rcu_state.n_force_qs);
#endif
	for_each_online_cpu(cpu) {
		struct rcu_data *rdp = per_cpu_ptr(&rcu_data, cpu);

		pr_info("rcu: cpu%d gp_seq=%lu cpu_no_qs=%d core_needs_qs=%d idle=%d cbs=%ld invoked=%lu\n",
			cpu, rdp->gp_seq, rdp->cpu_no_qs, rdp->core_needs_qs, rdp->rcu_in_idle,
			rcu_segcblist_n_cbs(&rdp->cblist), rdp->n_cbs_invoked);
		pr_info("rcu: cpu%d segs empty %d%d%d%d gp_seq wait=%lu next_ready=%lu\n", cpu,
			rcu_segcblist_segempty(&rdp->cblist, 0), rcu_segcblist_segempty(&rdp->cblist, 1),
			rcu_segcblist_segempty(&rdp->cblist, 2), rcu_segcblist_segempty(&rdp->cblist, 3),
			rdp->cblist.gp_seq[1], rdp->cblist.gp_seq[2]);
	}
}
