// SPDX-License-Identifier: GPL-2.0
/*
 * The stop class: one task per CPU (the stopper, "migration/N") that
 * preempts everything.  The stopper threads and their work queues are in
 * kernel/stop_machine.c.
 */
#include "sched.h"

static void check_preempt_curr_stop(struct rq *rq, struct task_struct *p, int flags)
{
	/* nothing preempts the stopper */
}

static struct task_struct *pick_next_task_stop(struct rq *rq)
{
	struct task_struct *stop = rq->stop;

	if (stop && task_on_rq_queued(stop))
		return stop;
	return NULL;
}

static void enqueue_task_stop(struct rq *rq, struct task_struct *p, int flags)
{
	rq->nr_running++;
}

static void dequeue_task_stop(struct rq *rq, struct task_struct *p, int flags)
{
	rq->nr_running--;
}

static void put_prev_task_stop(struct rq *rq, struct task_struct *prev)
{
}

static void set_next_task_stop(struct rq *rq, struct task_struct *p, bool first)
{
}

static void task_tick_stop(struct rq *rq, struct task_struct *curr, int queued)
{
}

static int select_task_rq_stop(struct task_struct *p, int cpu, int flags)
{
	return task_cpu(p);	/* stoppers never move */
}

static void prio_changed_stop(struct rq *rq, struct task_struct *p, int oldprio)
{
	BUG();
}

static void update_curr_stop(struct rq *rq)
{
}

const struct sched_class stop_sched_class = {
	.enqueue_task = enqueue_task_stop,
	.dequeue_task = dequeue_task_stop,
	.check_preempt_curr = check_preempt_curr_stop,
	.pick_next_task = pick_next_task_stop,
	.put_prev_task = put_prev_task_stop,
	.set_next_task = set_next_task_stop,
	.select_task_rq = select_task_rq_stop,
	.task_tick = task_tick_stop,
	.prio_changed = prio_changed_stop,
	.update_curr = update_curr_stop,
	.next = &dl_sched_class,
};

/*
 * Make @p the stop-class task of @cpu (kernel/stop_machine.c creates the
 * stoppers).  Its priority is SCHED_FIFO's highest so that it shows as the
 * most important task in anything that compares priorities.
 */
void sched_set_stop_task(int cpu, struct task_struct *p)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&p->pi_lock, flags);
	p->sched_class = &stop_sched_class;
	p->prio = 0;
	p->policy = SCHED_FIFO;
	p->rt_priority = MAX_RT_PRIO - 1;
	cpu_rq(cpu)->stop = p;
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);
}
