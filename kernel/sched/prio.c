// SPDX-License-Identifier: GPL-2.0
/*
 * Changing a task's policy and priority: sched_setscheduler(),
 * set_user_nice(), and rt_mutex_setprio(), the hook priority inheritance
 * uses to boost and de-boost (the effective prio is the better of the
 * task's own normal_prio and its top PI waiter's).  The task is dequeued,
 * changed and requeued under its locks, and the run queue rescheduled if
 * the change means someone else should run now.
 */
#include "sched.h"
#include <linux/errno.h>
#include <linux/irqflags.h>
#include <string.h>

static int __normal_prio(int policy, int rt_prio, int nice_prio)
{
	if (dl_policy(policy))
		return MAX_DL_PRIO - 1;
	if (policy == SCHED_FIFO || policy == SCHED_RR)
		return MAX_RT_PRIO - 1 - rt_prio;
	return nice_prio;
}

static const struct sched_class *class_for_prio(int prio)
{
	if (dl_prio(prio))
		return &dl_sched_class;
	return rt_prio(prio) ? &rt_sched_class : &fair_sched_class;
}

/* What prio_change_end() needs to know of the task before the change. */
struct prio_change {
	const struct sched_class *prev_class;
	int oldprio;
	bool queued, running;
	int move;		/* DEQUEUE_MOVE, or 0: keep its place in the queue */
};

/*
 * Take @task off its run queue (DEQUEUE_SAVE: its class keeps what it
 * must, such as the deadline bandwidth it takes back with ENQUEUE_RESTORE)
 * before anything its class reads changes; both locks held.  @move is
 * DEQUEUE_MOVE unless the priority stays, when the task keeps its place.
 */
static void prio_change_begin(struct rq *rq, struct task_struct *task, struct prio_change *pc,
			      int move)
{
	pc->prev_class = task->sched_class;
	pc->oldprio = task->prio;
	pc->queued = task_on_rq_queued(task);
	pc->running = task_current(rq, task);
	pc->move = move;
	if (pc->queued)
		dequeue_task(rq, task, DEQUEUE_SAVE | DEQUEUE_NOCLOCK | move);
	if (pc->running)
		pc->prev_class->put_prev_task(rq, task);
}

/* Put @task back with @prio and the class that goes with it. */
static void prio_change_end(struct rq *rq, struct task_struct *task, int prio,
			    int queue_flags, const struct prio_change *pc)
{
	task->prio = prio;
	task->sched_class = class_for_prio(prio);
	if (task->sched_class == &rt_sched_class && pc->prev_class != &rt_sched_class)
		task->rt.time_slice = sched_rr_timeslice();
	if (pc->queued)
		enqueue_task(rq, task, ENQUEUE_RESTORE | ENQUEUE_NOCLOCK | queue_flags |
			     (pc->move ? ENQUEUE_MOVE : 0) |
			     (pc->oldprio < prio ? ENQUEUE_HEAD : 0));
	if (pc->running)
		task->sched_class->set_next_task(rq, task, false);
	if (pc->prev_class != task->sched_class) {
		if (pc->prev_class->switched_from)
			pc->prev_class->switched_from(rq, task);
		if (task->sched_class->switched_to)
			task->sched_class->switched_to(rq, task);
	} else if (task->sched_class->prio_changed) {
		task->sched_class->prio_changed(rq, task, pc->oldprio);
	}
}

/* Requeue @task with @prio and @class; both locks held. */
static void change_prio_locked(struct rq *rq, struct task_struct *task, int prio,
			       int queue_flags)
{
	struct prio_change pc;

	if (prio == task->prio && class_for_prio(prio) == task->sched_class && !queue_flags)
		return;
	prio_change_begin(rq, task, &pc, DEQUEUE_MOVE);
	prio_change_end(rq, task, prio, queue_flags, &pc);
}

static int effective_prio(struct task_struct *task)
{
	struct task_struct *top = task->pi_top_task;

	if (top && top->prio < task->normal_prio)
		return top->prio;
	return task->normal_prio;
}

static bool valid_policy(int policy)
{
	return policy == SCHED_NORMAL || policy == SCHED_BATCH || policy == SCHED_IDLE ||
	       policy == SCHED_FIFO || policy == SCHED_RR || policy == SCHED_DEADLINE;
}

/*
 * Linux refuses flags it does not know; irqlab also refuses the ones it
 * knows but does not implement, rather than ignore what they ask for.
 */
static bool sched_flags_valid(const struct sched_attr *attr)
{
	u64 flags = attr->sched_flags;

	if (flags & ~(u64)SCHED_FLAG_ALL) {
		pr_warn("sched_setattr: unknown sched_flags 0x%llx (-EINVAL)\n",
			(unsigned long long)(flags & ~(u64)SCHED_FLAG_ALL));
		return false;
	}
	if (flags & (SCHED_FLAG_KEEP_ALL | SCHED_FLAG_UTIL_CLAMP)) {
		pr_warn("sched_setattr: sched_flags 0x%llx (SCHED_FLAG_KEEP_*, "
			"SCHED_FLAG_UTIL_CLAMP_*) not supported by irqlab (-EINVAL)\n",
			(unsigned long long)(flags & (SCHED_FLAG_KEEP_ALL | SCHED_FLAG_UTIL_CLAMP)));
		return false;
	}
	return true;
}

/*
 * A change that leaves the effective priority as it is (a boosted task, or
 * new parameters at the same level) keeps the task's place in its queue,
 * as Linux does; any other change requeues it.
 */
static int setscheduler_move(struct task_struct *p, int policy, const struct sched_attr *attr)
{
	int static_prio = p->static_prio, newprio;
	struct task_struct *top = p->pi_top_task;

	if (!dl_policy(policy) && policy != SCHED_FIFO && policy != SCHED_RR)
		static_prio = NICE_TO_PRIO((int)attr->sched_nice);
	newprio = __normal_prio(policy, attr->sched_priority, static_prio);
	if (top && top->prio < newprio)
		newprio = top->prio;
	return newprio == p->prio ? 0 : DEQUEUE_MOVE;
}

static int __sched_setscheduler(struct task_struct *p, const struct sched_attr *attr)
{
	int policy = attr->sched_policy;
	struct callback_head *head;
	struct prio_change pc;
	unsigned long flags;
	struct rq *rq;

	if (!valid_policy(policy))
		return -EINVAL;
	if (!sched_flags_valid(attr))
		return -EINVAL;
	if (attr->sched_priority > MAX_RT_PRIO - 1)
		return -EINVAL;
	/* Only FIFO and RR have a priority; deadline tasks have 0, as in Linux. */
	if ((policy == SCHED_FIFO || policy == SCHED_RR) != (attr->sched_priority != 0))
		return -EINVAL;
	if (dl_policy(policy) && !__checkparam_dl(attr))
		return -EINVAL;
	if (p->flags & PF_IDLE || p->sched_class == &stop_sched_class)
		return -EPERM;

	rq = task_rq_lock(p, &flags);
	/* Admission: reserve (or release) the deadline bandwidth first. */
	if ((dl_policy(policy) || task_has_dl_policy(p)) &&
	    sched_dl_overflow(p, policy, attr)) {
		task_rq_unlock(rq, p, flags);
		return -EBUSY;
	}
	update_rq_clock(rq);
	if (rq->curr == p && p->sched_class->update_curr)
		p->sched_class->update_curr(rq);
	/*
	 * Always requeued, as in Linux, even when prio and class stay: the
	 * new parameters (a deadline task's bandwidth, a fair task's weight)
	 * must leave with the old values and come back with the new ones.
	 */
	prio_change_begin(rq, p, &pc, setscheduler_move(p, policy, attr));
	p->policy = policy;
	if (dl_policy(policy))
		__setparam_dl(p, attr);
	else if (policy != SCHED_FIFO && policy != SCHED_RR)
		p->static_prio = NICE_TO_PRIO((int)attr->sched_nice);
	p->rt_priority = attr->sched_priority;
	p->normal_prio = __normal_prio(policy, p->rt_priority, p->static_prio);
	if (!rt_prio(p->normal_prio))
		set_load_weight(p);
	prio_change_end(rq, p, effective_prio(p), 0, &pc);
	/* Keeps the rq from going away (this CPU offline) until the callbacks ran. */
	preempt_disable();
	head = splice_balance_callbacks(rq);
	task_rq_unlock(rq, p, flags);
	/* A waiter's new priority propagates to the owners it waits for. */
	rt_mutex_adjust_pi(p);
	/* The push or pull the change left, once the PI chain is adjusted. */
	balance_callbacks(rq, head);
	preempt_enable();
	return 0;
}

static int _sched_setscheduler(struct task_struct *task, int policy,
			       const struct sched_param *param)
{
	struct sched_attr attr = {
		.size = sizeof(attr),
		.sched_policy = policy,
		.sched_priority = param->sched_priority,
		.sched_nice = PRIO_TO_NICE(task->static_prio),
	};

	if (param->sched_priority < 0)
		return -EINVAL;
	/* Deadline tasks need parameters: only sched_setattr() makes them. */
	if (dl_policy(policy))
		return -EINVAL;
	return __sched_setscheduler(task, &attr);
}

int sched_setscheduler(struct task_struct *p, int policy, const struct sched_param *param)
{
	return _sched_setscheduler(p, policy, param);
}

int sched_setscheduler_nocheck(struct task_struct *task, int policy,
			       const struct sched_param *param)
{
	return _sched_setscheduler(task, policy, param);
}

/*
 * sched_setattr(): any policy, SCHED_DEADLINE with runtime, deadline and
 * period in ns.  -EINVAL for parameters that break a rule (printed, with
 * the rule), -EBUSY when admission control refuses the bandwidth.
 */
int sched_setattr(struct task_struct *task, const struct sched_attr *attr)
{
	if (attr->sched_nice < MIN_NICE || attr->sched_nice > MAX_NICE)
		return -EINVAL;
	return __sched_setscheduler(task, attr);
}

/* irqlab has no permission checks: the same as sched_setattr(). */
int sched_setattr_nocheck(struct task_struct *task, const struct sched_attr *attr)
{
	return sched_setattr(task, attr);
}

void sched_getattr(struct task_struct *p, struct sched_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->sched_policy = p->policy;
	if (task_has_dl_policy(p))
		__getparam_dl(p, attr);
	else if (rt_prio(p->normal_prio))
		attr->sched_priority = p->rt_priority;
	else
		attr->sched_nice = task_nice(p);
}

void set_user_nice(struct task_struct *task, long nice)
{
	bool queued, running;
	unsigned long irq_flags;
	struct rq *rq;

	if (nice < MIN_NICE || nice > MAX_NICE)
		return;
	rq = task_rq_lock(task, &irq_flags);
	update_rq_clock(rq);
	task->static_prio = NICE_TO_PRIO(nice);
	if (!rt_prio(task->normal_prio)) {
		queued = task_on_rq_queued(task);
		running = task_current(rq, task);
		if (queued)
			dequeue_task(rq, task, DEQUEUE_SAVE | DEQUEUE_NOCLOCK);
		if (running)
			task->sched_class->put_prev_task(rq, task);
		task->normal_prio = task->static_prio;
		set_load_weight(task);
		task->prio = effective_prio(task);
		if (queued)
			enqueue_task(rq, task, ENQUEUE_RESTORE | ENQUEUE_NOCLOCK);
		if (running)
			task->sched_class->set_next_task(rq, task, false);
		if (queued || running)
			resched_curr(rq);
	}
	task_rq_unlock(rq, task, irq_flags);
}

int task_nice(const struct task_struct *p)
{
	return PRIO_TO_NICE(p->static_prio);
}

/*
 * Priority inheritance hook: @pi_task is the top waiter on the locks @task
 * holds (NULL: none).  Called with task->pi_lock held (rt_mutex code).
 */
void rt_mutex_setprio(struct task_struct *task, struct task_struct *pi_task)
{
	int prio, queue_flag = 0;
	struct rq *rq;

	/* The idle task is never boosted (it cannot block on a lock). */
	if (unlikely(is_idle_task(task)))
		return;
	task->pi_top_task = pi_task;
	rq = __task_rq_lock(task);
	update_rq_clock(rq);
	if (rq->curr == task && task->sched_class->update_curr)
		task->sched_class->update_curr(rq);
	prio = effective_prio(task);
	/*
	 * Deadline inheritance, Linux 5.15's: a task boosted into (or within)
	 * the deadline class by a waiter with an earlier deadline runs on
	 * that waiter's parameters (dl.pi_se) and is never throttled; the
	 * replenishment at requeue gives a non-deadline owner a deadline one
	 * relative deadline of the donor from now.  Otherwise its own.
	 */
	if (dl_prio(prio)) {
		if (!dl_prio(task->normal_prio) ||
		    (pi_task && dl_prio(pi_task->prio) &&
		     dl_time_before(pi_task->dl.deadline, task->dl.deadline))) {
			task->dl.pi_se = pi_task->dl.pi_se;
			queue_flag = ENQUEUE_REPLENISH;
		} else {
			task->dl.pi_se = &task->dl;
		}
	} else if (dl_prio(task->prio)) {
		task->dl.pi_se = &task->dl;
	}
	change_prio_locked(rq, task, prio, queue_flag);
	/*
	 * A boost or deboost may leave push or pull work, as in any requeue.
	 * balance_push stays queued for the next __schedule(): the caller
	 * holds a pi_lock (an unlocker deboosting itself holds its own), and
	 * the push wakes the stopper, which takes the stopper's pi_lock
	 * inside it.  Linux 5.15 runs it here too and nests the two (lockdep:
	 * "possible recursive locking", hit by soak-short-smp2 while CPU 1
	 * went down); the push then happens at the switch, as it does for
	 * every other task on the dying CPU.
	 */
	preempt_disable();
	__balance_callbacks_keep_push(rq);
	raw_spin_rq_unlock(rq);
	preempt_enable();
}
