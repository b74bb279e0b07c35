// SPDX-License-Identifier: GPL-2.0
/*
 * The stop class: one task per CPU (the stopper, "migration/N") that
 * preempts everything.  It runs work items queued by stop_one_cpu(),
 * e.g. moving a task off a CPU when its affinity changes.
 */
#include "sched.h"
#include <linux/irqflags.h>
#include <linux/kthread.h>

struct cpu_stop_work {
	struct list_head list;
	cpu_stop_fn_t fn;
	void *arg;
	struct task_struct *waiter;
	bool done;
	int ret;
};

struct cpu_stopper {
	struct task_struct *thread;
	raw_spinlock_t lock;
	struct list_head works;
};

static DEFINE_PER_CPU(struct cpu_stopper, cpu_stopper);

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

static int cpu_stopper_thread(void *data)
{
	struct cpu_stopper *stopper = this_cpu_ptr(&cpu_stopper);

	for (;;) {
		struct cpu_stop_work *work = NULL;
		unsigned long flags;

		set_current_state(TASK_INTERRUPTIBLE);
		raw_spin_lock_irqsave(&stopper->lock, flags);
		if (!list_empty(&stopper->works)) {
			work = list_first_entry(&stopper->works, struct cpu_stop_work, list);
			list_del_init(&work->list);
		}
		raw_spin_unlock_irqrestore(&stopper->lock, flags);
		if (!work) {
			schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);
		preempt_disable();
		work->ret = work->fn(work->arg);
		preempt_enable();
		smp_store_release(&work->done, true);
		wake_up_process(work->waiter);
	}
	return 0;
}

int stop_one_cpu(unsigned int cpu, cpu_stop_fn_t fn, void *arg)
{
	struct cpu_stopper *stopper = per_cpu_ptr(&cpu_stopper, cpu);
	struct cpu_stop_work work = { .fn = fn, .arg = arg, .waiter = current };
	unsigned long flags;

	if (!stopper->thread)
		return -ENOENT;
	raw_spin_lock_irqsave(&stopper->lock, flags);
	list_add_tail(&work.list, &stopper->works);
	raw_spin_unlock_irqrestore(&stopper->lock, flags);
	wake_up_process(stopper->thread);
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (smp_load_acquire(&work.done))
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	return work.ret;
}

/* One stopper per online CPU, bound there, in the stop class. */
void cpu_stop_init(void)
{
	int cpu;

	for_each_online_cpu(cpu) {
		struct cpu_stopper *stopper = per_cpu_ptr(&cpu_stopper, cpu);
		struct task_struct *p;
		unsigned long flags;

		raw_spin_lock_init(&stopper->lock);
		INIT_LIST_HEAD(&stopper->works);
		p = kthread_create(cpu_stopper_thread, NULL, "migration/%d", cpu);
		if (WARN_ON(!p))
			continue;
		kthread_bind(p, cpu);
		raw_spin_lock_irqsave(&p->pi_lock, flags);
		p->sched_class = &stop_sched_class;
		p->prio = 0;
		p->policy = SCHED_FIFO;
		p->rt_priority = MAX_RT_PRIO - 1;
		cpu_rq(cpu)->stop = p;
		stopper->thread = p;
		raw_spin_unlock_irqrestore(&p->pi_lock, flags);
		wake_up_process(p);
	}
}
