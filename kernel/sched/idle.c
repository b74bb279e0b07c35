// SPDX-License-Identifier: GPL-2.0
/*
 * The idle class and the idle loop.  Each CPU's idle task is always
 * "queued" and is what the run queue falls back to; it must never block
 * and never be dequeued — a dequeue is the kernel reporting
 * "bad: scheduling from the idle thread!", the message of the series'
 * v2r1 bug.
 */
#include <linux/cpu.h>
#include "sched.h"
#include <linux/trace_irqsoff.h>
#include <linux/irqflags.h>
#include <linux/smp.h>
#include <linux/rcupdate.h>

void schedule_idle(void);
void flush_smp_call_function_from_idle(void);

static void check_preempt_curr_idle(struct rq *rq, struct task_struct *p, int flags)
{
	resched_curr(rq);	/* anything beats idle */
}

static void put_prev_task_idle(struct rq *rq, struct task_struct *prev)
{
	rq->idle_time += rq->clock - rq->last_idle_enter;
}

static void set_next_task_idle(struct rq *rq, struct task_struct *next, bool first)
{
	rq->last_idle_enter = rq->clock;
}

static struct task_struct *pick_next_task_idle(struct rq *rq)
{
	set_next_task_idle(rq, rq->idle, true);
	return rq->idle;
}

static void enqueue_task_idle(struct rq *rq, struct task_struct *p, int flags)
{
	/* Linux has no enqueue for idle; requeueing after the bug is harmless here. */
}

static void dequeue_task_idle(struct rq *rq, struct task_struct *p, int flags)
{
	raw_spin_rq_unlock(rq);
	sched_report_bug("bad: scheduling from the idle thread!\n");
	raw_spin_rq_lock(rq);
}

static void task_tick_idle(struct rq *rq, struct task_struct *curr, int queued)
{
}

static int select_task_rq_idle(struct task_struct *p, int cpu, int flags)
{
	return task_cpu(p);
}

static void prio_changed_idle(struct rq *rq, struct task_struct *p, int oldprio)
{
	BUG();
}

static void update_curr_idle(struct rq *rq)
{
}

const struct sched_class idle_sched_class = {
	.enqueue_task = enqueue_task_idle,
	.dequeue_task = dequeue_task_idle,
	.check_preempt_curr = check_preempt_curr_idle,
	.pick_next_task = pick_next_task_idle,
	.put_prev_task = put_prev_task_idle,
	.set_next_task = set_next_task_idle,
	.select_task_rq = select_task_rq_idle,
	.task_tick = task_tick_idle,
	.prio_changed = prio_changed_idle,
	.update_curr = update_curr_idle,
	.next = NULL,
};

void init_idle(struct task_struct *tsk, int cpu)
{
	struct rq *rq = cpu_rq(cpu);
	unsigned long flags;

	raw_spin_lock_irqsave(&tsk->pi_lock, flags);
	raw_spin_rq_lock(rq);
	tsk->__state = TASK_RUNNING;
	tsk->flags |= PF_IDLE | PF_KTHREAD | PF_NO_SETAFFINITY;
	tsk->kthread_per_cpu = true;
	tsk->cpu = cpu;
	tsk->wake_cpu = cpu;
	cpumask_copy(&tsk->cpus_mask, cpumask_of(cpu));
	tsk->cpus_ptr = &tsk->cpus_mask;
	tsk->nr_cpus_allowed = 1;
	tsk->policy = SCHED_NORMAL;
	tsk->static_prio = tsk->normal_prio = tsk->prio = MAX_PRIO;
	tsk->sched_class = &idle_sched_class;
	rq->idle = tsk;
	rq->curr = tsk;
	tsk->on_rq = TASK_ON_RQ_QUEUED;
	tsk->on_cpu = 1;
	snprintf(tsk->comm, sizeof(tsk->comm), "swapper/%d", cpu);
	raw_spin_rq_unlock(rq);
	raw_spin_unlock_irqrestore(&tsk->pi_lock, flags);
}

/* Halt until an interrupt brings work; never sleeps, only yields. */
static void do_idle(void)
{
	int cpu = smp_processor_id();

	/*
	 * take_cpu_down() has run: the stopper left the CPU to us with
	 * nothing else queued.  Report and halt for good, IRQs off.  The raw
	 * disable keeps the irqsoff tracer out: a CPU that is gone runs
	 * nothing, so its halt is no latency (start_secondary() starts over).
	 */
	if (cpu_is_offline(cpu)) {
		raw_local_irq_disable();
		cpuhp_report_idle_dead();
		arch_cpu_idle_dead();
	}
	/* Halting is not a preempt-off latency: close the window first. */
	stop_critical_timings();
	rcu_idle_enter();
	while (!need_resched()) {
		local_irq_disable();
		if (need_resched()) {
			local_irq_enable();
			break;
		}
		safe_halt();	/* sti; hlt: no wakeup can slip in between */
	}
	rcu_idle_exit();
	start_critical_timings();
	flush_smp_call_function_from_idle();
	schedule_idle();
}

/* Entered with preemption disabled (rest_init, start_secondary), as in Linux. */
__noreturn void cpu_startup_entry(void)
{
	for (;;)
		do_idle();
}
