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

static int __normal_prio(int policy, int rt_prio, int nice_prio)
{
	if (policy == SCHED_FIFO || policy == SCHED_RR)
		return MAX_RT_PRIO - 1 - rt_prio;
	return nice_prio;
}

static const struct sched_class *class_for_prio(int prio)
{
	return rt_prio(prio) ? &rt_sched_class : &fair_sched_class;
}

/* Requeue @task with @prio and @class; both locks held. */
static void change_prio_locked(struct rq *rq, struct task_struct *task, int prio)
{
	const struct sched_class *prev_class = task->sched_class;
	int oldprio = task->prio;
	bool queued = task_on_rq_queued(task), running = task_current(rq, task);

	if (prio == oldprio && class_for_prio(prio) == prev_class)
		return;
	if (queued)
		dequeue_task(rq, task, DEQUEUE_SAVE | DEQUEUE_NOCLOCK);
	if (running)
		prev_class->put_prev_task(rq, task);
	task->prio = prio;
	task->sched_class = class_for_prio(prio);
	if (task->sched_class == &rt_sched_class && prev_class != &rt_sched_class)
		task->rt.time_slice = sched_rr_timeslice();
	if (queued)
		enqueue_task(rq, task, ENQUEUE_RESTORE | ENQUEUE_NOCLOCK |
			     (oldprio < prio ? ENQUEUE_HEAD : 0));
	if (running)
		task->sched_class->set_next_task(rq, task, false);
	if (prev_class != task->sched_class) {
		if (task->sched_class->switched_to)
			task->sched_class->switched_to(rq, task);
	} else if (task->sched_class->prio_changed) {
		task->sched_class->prio_changed(rq, task, oldprio);
	}
}

static int effective_prio(struct task_struct *task)
{
	struct task_struct *top = task->pi_top_task;

	if (top && top->prio < task->normal_prio)
		return top->prio;
	return task->normal_prio;
}

int __sched_setscheduler(struct task_struct *p, int policy,
			 const struct sched_param *param)
{
	unsigned long flags;
	struct rq *rq;

	if (policy != SCHED_NORMAL && policy != SCHED_BATCH && policy != SCHED_IDLE &&
	    policy != SCHED_FIFO && policy != SCHED_RR)
		return -EINVAL;
	if ((policy == SCHED_FIFO || policy == SCHED_RR) !=
	    (param->sched_priority != 0))
		return -EINVAL;
	if (param->sched_priority < 0 || param->sched_priority > MAX_RT_PRIO - 1)
		return -EINVAL;
	if (p->flags & PF_IDLE || p->sched_class == &stop_sched_class)
		return -EPERM;

	raw_spin_lock_irqsave(&p->pi_lock, flags);
	rq = __task_rq_lock(p);
	update_rq_clock(rq);
	if (rq->curr == p && p->sched_class->update_curr)
		p->sched_class->update_curr(rq);
	p->policy = policy;
	p->rt_priority = param->sched_priority;
	p->normal_prio = __normal_prio(policy, p->rt_priority, p->static_prio);
	if (!rt_prio(p->normal_prio))
		set_load_weight(p);
	change_prio_locked(rq, p, effective_prio(p));
	raw_spin_rq_unlock(rq);
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);
	rt_balance_after_unlock(rq);
	/* A waiter's new priority propagates to the owners it waits for. */
	rt_mutex_adjust_pi(p);
	return 0;
}

int sched_setscheduler(struct task_struct *p, int policy, const struct sched_param *param)
{
	return __sched_setscheduler(p, policy, param);
}

int sched_setscheduler_nocheck(struct task_struct *task, int policy,
			       const struct sched_param *param)
{
	return __sched_setscheduler(task, policy, param);
}

void set_user_nice(struct task_struct *task, long nice)
{
	bool queued, running;
	unsigned long irq_flags;
	struct rq *rq;

	if (nice < MIN_NICE || nice > MAX_NICE)
		return;
	raw_spin_lock_irqsave(&task->pi_lock, irq_flags);
	rq = __task_rq_lock(task);
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
	raw_spin_rq_unlock(rq);
	raw_spin_unlock_irqrestore(&task->pi_lock, irq_flags);
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
	struct rq *rq;

	/* The idle task is never boosted (it cannot block on a lock). */
	if (unlikely(is_idle_task(task)))
		return;
	task->pi_top_task = pi_task;
	rq = __task_rq_lock(task);
	update_rq_clock(rq);
	if (rq->curr == task && task->sched_class->update_curr)
		task->sched_class->update_curr(rq);
	change_prio_locked(rq, task, effective_prio(task));
	raw_spin_rq_unlock(rq);
}
