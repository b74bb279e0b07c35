// SPDX-License-Identifier: GPL-2.0
/*
 * CPU affinity and migrate_disable() with Linux 5.11+ semantics.
 *
 * A migrate-disabled task stays preemptible; when it is switched out,
 * migrate_disable_switch() narrows its cpus_ptr to its current CPU so no
 * balancer moves it.  An affinity change that would have to move such a
 * task is recorded as pending and its caller waits until migrate_enable()
 * has moved the task (through this CPU's stopper).
 */
#include "sched.h"
#include <linux/irqflags.h>
#include <linux/trace_irqsoff.h>

struct set_affinity_pending {
	struct task_struct *waiter;
	bool done;
	int dest_cpu;
};

struct migration_arg {
	struct task_struct *task;
	int dest_cpu;
	struct set_affinity_pending *pending;
};

static struct cpumask cpu_single_masks[NR_CPUS];

const struct cpumask *cpumask_of(int cpu)
{
	return &cpu_single_masks[cpu];
}

void init_cpumask_of(void)
{
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		cpumask_set_cpu(cpu, &cpu_single_masks[cpu]);
}

/*
 * Change cpus_ptr (SCA_MIGRATE_DISABLE: to @mask; SCA_MIGRATE_ENABLE: back
 * to cpus_mask) or else cpus_mask, dequeuing and requeuing the task around
 * it as Linux does: the classes count movable tasks by nr_cpus_allowed at
 * enqueue and dequeue, so it must not change while the task is queued.
 * For the idle task the dequeue is exactly what reports "bad: scheduling
 * from the idle thread!".
 */
void __do_set_cpus_allowed(struct task_struct *task, const struct cpumask *mask, u32 flags)
{
	struct rq *rq = task_rq(task);
	bool queued = task_on_rq_queued(task);
	bool running = task_current(rq, task);

	if (queued)
		dequeue_task(rq, task, DEQUEUE_SAVE | DEQUEUE_NOCLOCK);
	if (running)
		task->sched_class->put_prev_task(rq, task);
	if (flags & SCA_MIGRATE_DISABLE) {
		task->cpus_ptr = mask;
	} else if (flags & SCA_MIGRATE_ENABLE) {
		task->cpus_ptr = &task->cpus_mask;
	} else {
		cpumask_copy(&task->cpus_mask, mask);
		if (!task->migration_disabled)
			task->cpus_ptr = &task->cpus_mask;
	}
	task->nr_cpus_allowed = cpumask_weight(task->cpus_ptr);
	if (queued)
		enqueue_task(rq, task, ENQUEUE_RESTORE | ENQUEUE_NOCLOCK);
	if (running)
		task->sched_class->set_next_task(rq, task, false);
}

void migrate_disable(void)
{
	struct task_struct *p = current;

	if (p->migration_disabled) {
		p->migration_disabled++;
		return;
	}
	preempt_disable();
	this_rq()->nr_pinned++;
	p->migration_disabled = 1;
	tracer_migrate_off(_RET_IP_);
#ifdef CONFIG_PREEMPT_LAZY
	p->thread_info.preempt_lazy_count++;	/* preempt_lazy_disable() */
#endif
	preempt_enable();
}

static int migration_cpu_stop(void *data);

void migrate_enable(void)
{
	struct task_struct *p = current;
	struct migration_arg arg = { .task = p, .dest_cpu = -1 };
	unsigned long flags;

	if (p->migration_disabled > 1) {
		p->migration_disabled--;
		return;
	}
	if (WARN_ON_ONCE(!p->migration_disabled))
		return;

	preempt_disable();
	tracer_migrate_on(_RET_IP_);
	raw_spin_lock_irqsave(&p->pi_lock, flags);
	if (p->cpus_ptr != &p->cpus_mask) {
		struct rq *rq = this_rq();

		raw_spin_rq_lock(rq);
		if (is_idle_task(p)) {
			/* Never queued: nothing counts it (and it was reported). */
			p->cpus_ptr = &p->cpus_mask;
			p->nr_cpus_allowed = cpumask_weight(&p->cpus_mask);
		} else {
			update_rq_clock(rq);
			__do_set_cpus_allowed(p, &p->cpus_mask, SCA_MIGRATE_ENABLE);
		}
		raw_spin_rq_unlock(rq);
	}
	arg.pending = p->migration_pending;
	if (arg.pending || !cpumask_test_cpu(smp_processor_id(), &p->cpus_mask))
		arg.dest_cpu = cpumask_first(&p->cpus_mask);
	barrier();
	p->migration_disabled = 0;
	this_rq()->nr_pinned--;
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);
#ifdef CONFIG_PREEMPT_LAZY
	p->thread_info.preempt_lazy_count--;	/* preempt_lazy_enable() */
#endif
	preempt_enable();

	/* An affinity change waited for us: move now, through the stopper. */
	if (arg.dest_cpu >= 0)
		stop_one_cpu(smp_processor_id(), migration_cpu_stop, &arg);
}

/* Runs in the stopper of the task's CPU: nothing else runs there now. */
static int migration_cpu_stop(void *data)
{
	struct migration_arg *arg = data;
	struct task_struct *p = arg->task;
	struct rq *src = this_rq(), *dst;
	struct set_affinity_pending *pending;
	unsigned long flags;

	/*
	 * A wakeup may have put @p on this CPU's wake list, not yet on its
	 * run queue (that happens at the IPI, after us): activate it now, as
	 * Linux flushes its pending wakeups here, so that it is moved below
	 * instead of starting on a CPU it may no longer use.
	 */
	scheduler_ipi();
	raw_spin_lock_irqsave(&p->pi_lock, flags);
	pending = arg->pending;
	if (task_rq(p) == src && !is_migration_disabled(p) &&
	    !cpumask_test_cpu(src->cpu, p->cpus_ptr)) {
		int dest = arg->dest_cpu;

		if (!cpumask_test_cpu(dest, p->cpus_ptr))
			dest = cpumask_first(p->cpus_ptr);
		dst = cpu_rq(dest);
		double_rq_lock(src, dst);
		update_rq_clock(src);
		update_rq_clock(dst);
		/*
		 * Asleep: as Linux, its next wakeup moves it (set_task_cpu()
		 * then, so the class sees a wakeup's migration).
		 */
		if (task_on_rq_queued(p))
			move_queued_task_locked(src, dst, p);
		else
			p->wake_cpu = dest;
		double_rq_unlock(src, dst);
	}
	if (pending) {
		p->migration_pending = NULL;
		WRITE_ONCE(pending->done, true);
	}
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);
	if (pending)
		wake_up_process(pending->waiter);
	return 0;
}

int set_cpus_allowed_ptr(struct task_struct *task, const struct cpumask *new_mask)
{
	struct set_affinity_pending pending = { .waiter = current };
	struct migration_arg arg = { .task = task };
	unsigned long irq_flags;
	struct rq *rq;
	int dest;

	if (!cpumask_weight(new_mask))
		return -EINVAL;
	dest = -1;
	for_each_cpu(arg.dest_cpu, new_mask) {
		if (cpu_online(arg.dest_cpu)) {
			dest = arg.dest_cpu;
			break;
		}
	}
	if (dest < 0 || (task->flags & PF_NO_SETAFFINITY))
		return -EINVAL;
	arg.dest_cpu = dest;

	raw_spin_lock_irqsave(&task->pi_lock, irq_flags);
	/* Waits out a balancing move (TASK_ON_RQ_MIGRATING between two rq locks). */
	rq = __task_rq_lock(task);
	update_rq_clock(rq);
	__do_set_cpus_allowed(task, new_mask, 0);
	if (cpumask_test_cpu(task_cpu(task), new_mask)) {
		raw_spin_rq_unlock(rq);
		raw_spin_unlock_irqrestore(&task->pi_lock, irq_flags);
		return 0;
	}
	if (is_migration_disabled(task)) {
		/* migrate_enable() moves it and completes us. */
		task->migration_pending = &pending;
		raw_spin_rq_unlock(rq);
		raw_spin_unlock_irqrestore(&task->pi_lock, irq_flags);
		for (;;) {
			set_current_state(TASK_UNINTERRUPTIBLE);
			if (READ_ONCE(pending.done))
				break;
			schedule();
		}
		__set_current_state(TASK_RUNNING);
		return 0;
	}
	if (task_running(rq, task) || READ_ONCE(task->__state) == TASK_WAKING) {
		raw_spin_rq_unlock(rq);
		raw_spin_unlock_irqrestore(&task->pi_lock, irq_flags);
		stop_one_cpu(task_cpu(task), migration_cpu_stop, &arg);
		return 0;
	}
	if (task_on_rq_queued(task)) {
		struct rq *dst = cpu_rq(dest);

		raw_spin_rq_unlock(rq);
		double_rq_lock(rq, dst);
		if (task_on_rq_queued(task) && task_rq(task) == rq && !task_running(rq, task)) {
			update_rq_clock(dst);
			move_queued_task_locked(rq, dst, task);
		}
		double_rq_unlock(rq, dst);
	} else {
		task->wake_cpu = dest;	/* asleep: the wakeup moves it there, as in Linux */
		raw_spin_rq_unlock(rq);
	}
	raw_spin_unlock_irqrestore(&task->pi_lock, irq_flags);
	return 0;
}
