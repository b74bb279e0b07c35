// SPDX-License-Identifier: GPL-2.0
/*
 * The scheduler's part in CPU hotplug, as Linux 5.15 has it.
 *
 * Going down, sched_cpu_deactivate() (CPUHP_AP_ACTIVE, in the cpuhp
 * thread) takes the CPU out of the active mask, so no wakeup or affinity
 * change places a task there any more, and installs balance_push as the
 * rq's balance callback: from then on every context switch on the CPU to
 * a task that may leave has the stopper move it to a fallback CPU.  A migrate_disable()d task may
 * not leave: it runs on until its section ends and is pushed at its next
 * switch.  sched_cpu_wait_empty() (CPUHP_AP_SCHED_WAIT_EMPTY) sleeps
 * until only the cpuhp thread is left and nothing is pinned; by the time
 * stop_machine runs sched_cpu_dying() on the CPU, the run queue holds
 * nothing but the stopper.
 */
#include <linux/cpu.h>
#include <linux/sched/hotplug.h>
#include <linux/sched/task.h>
#include <linux/stop_machine.h>
#include <linux/rcupdate.h>
#include "sched.h"

/* Tasks balance_push() moved off dying CPUs (run=hotplug prints it). */
atomic_long_t sched_hotplug_pushed;

/* The stopper request balance_push() queues; one per CPU is enough. */
static DEFINE_PER_CPU(struct cpu_stop_work, push_work) = { };

/* ------------------------------------------------------------ fallback */

/*
 * Where @p goes when @cpu cannot have it (asleep or queued on a CPU that
 * went inactive, or pushed off a dying one): an allowed CPU that may take
 * it, else, as Linux does without cpusets, any CPU with the affinity
 * widened (reported once per task and CPU, like Linux's
 * "no longer affine" message).
 */
int select_fallback_rq(int cpu, struct task_struct *p)
{
	unsigned int dest_cpu;

	for_each_cpu(dest_cpu, p->cpus_ptr)
		if (is_cpu_allowed(p, dest_cpu))
			return dest_cpu;
	/* A migrate-disabled task keeps its CPU while that is online. */
	if (WARN_ON_ONCE(is_migration_disabled(p)))
		return cpu;
	__do_set_cpus_allowed(p, cpu_possible_mask, 0);
	for_each_cpu(dest_cpu, p->cpus_ptr)
		if (is_cpu_allowed(p, dest_cpu))
			break;
	pr_info("process %d (%s) no longer affine to cpu%d\n", p->pid, p->comm, cpu);
	return dest_cpu;
}

/* ------------------------------------------------------------ balance_push */

/* Migrate-disabled tasks queued here: the CPU must wait for them. */
static inline bool rq_has_pinned_tasks(struct rq *q)
{
	return q->nr_pinned != 0;
}

/* The stopper on the dying CPU: @arg was switched out and is queued here. */
static int __balance_push_cpu_stop(void *arg)
{
	struct task_struct *p = arg;
	struct rq *rq = this_rq();
	int cpu;

	raw_spin_lock_irq(&p->pi_lock);
	raw_spin_rq_lock(rq);
	update_rq_clock(rq);
	if (task_rq(p) == rq && task_on_rq_queued(p) && !is_migration_disabled(p)) {
		cpu = select_fallback_rq(rq->cpu, p);
		rq = __migrate_task(rq, p, cpu);
		atomic_long_inc(&sched_hotplug_pushed);
	}
	raw_spin_rq_unlock(rq);
	raw_spin_unlock_irq(&p->pi_lock);
	put_task_struct(p);
	return 0;
}

static void balance_push(struct rq *rq);

/*
 * The balance callback of a CPU going down, Linux's: installed by
 * balance_push_set() and left in place by every run, so that it runs at
 * the end of every switch on the CPU (and every __schedule() that keeps
 * the task) until the CPU is active again; no other callback is queued
 * meanwhile.
 */
struct callback_head balance_push_callback = {
	.next = NULL,
	.func = (void (*)(struct callback_head *))balance_push,
};

/*
 * After a context switch on a CPU going down, in the context of the task
 * switched to, with the rq lock held and IRQs off (finish_task_switch()
 * or __schedule()'s no-switch path).
 */
static void balance_push(struct rq *rq)
{
	struct task_struct *push_task = rq->curr;

	lockdep_assert_rq_held(rq);
	/* Stay installed until balance_push_set(cpu, false). */
	rq->balance_callback = &balance_push_callback;
	if (rq != this_rq() || cpu_active(rq->cpu))
		return;
	/*
	 * Per-CPU kthreads (the stopper, cpuhp, idle, ksoftirqd before it is
	 * parked) belong here to the end; a pinned task finishes its section.
	 */
	if (is_per_cpu_kthread(push_task) || is_migration_disabled(push_task)) {
		struct task_struct *waiter = READ_ONCE(rq->hotplug_wait);

		/*
		 * The CPU has emptied: wake sched_cpu_wait_empty().  The waiter
		 * sleeps on this CPU, so the wakeup takes this rq's lock: let it
		 * go meanwhile, IRQs stay off.
		 */
		if (waiter && !rq->nr_running && !rq_has_pinned_tasks(rq)) {
			raw_spin_rq_unlock(rq);
			wake_up_process(waiter);
			raw_spin_rq_lock(rq);
		}
		return;
	}
	get_task_struct(push_task);
	/*
	 * Waking the stopper takes this rq's lock too.  IRQs and preemption
	 * stay off: the stopper, now runnable above everything, runs at the
	 * next reschedule and moves @push_task away.
	 */
	raw_spin_rq_unlock(rq);
	stop_one_cpu_nowait(cpu_of(rq), __balance_push_cpu_stop, push_task,
			    this_cpu_ptr(&push_work));
	raw_spin_rq_lock(rq);
}

static void balance_push_set(int cpu, bool on)
{
	struct rq *rq = cpu_rq(cpu);
	unsigned long flags;

	raw_spin_rq_lock_irqsave(rq, flags);
	if (on) {
		/* Every lock section ran its callbacks before letting go. */
		WARN_ON_ONCE(rq->balance_callback);
		rq->balance_callback = &balance_push_callback;
	} else if (&balance_push_callback == rq->balance_callback) {
		rq->balance_callback = NULL;
	}
	raw_spin_rq_unlock_irqrestore(rq, flags);
}

/* In the cpuhp thread: sleep until only it is left and nothing is pinned. */
static void balance_hotplug_wait(void)
{
	struct rq *rq = this_rq();

	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		WRITE_ONCE(rq->hotplug_wait, current);
		if (READ_ONCE(rq->nr_running) == 1 && !rq_has_pinned_tasks(rq))
			break;
		schedule();
	}
	WRITE_ONCE(rq->hotplug_wait, NULL);
	__set_current_state(TASK_RUNNING);
}

/* ------------------------------------------------------------ rq online */

void set_rq_online(struct rq *rq)
{
	if (rq->online)
		return;
	rq->online = 1;
	rq_online_dl(rq);
	rq_online_rt(rq);
}

void set_rq_offline(struct rq *rq)
{
	if (!rq->online)
		return;
	rq_offline_rt(rq);
	rq_offline_dl(rq);
	rq->online = 0;
}

/* ------------------------------------------------------------ the states */

int sched_cpu_activate(unsigned int cpu)
{
	struct rq *rq = cpu_rq(cpu);
	unsigned long flags;

	balance_push_set(cpu, false);
	set_cpu_active(cpu, true);
	raw_spin_rq_lock_irqsave(rq, flags);
	update_rq_clock(rq);
	set_rq_online(rq);
	raw_spin_rq_unlock_irqrestore(rq, flags);
	return 0;
}

int sched_cpu_deactivate(unsigned int cpu)
{
	struct rq *rq = cpu_rq(cpu);
	unsigned long flags;

	set_cpu_active(cpu, false);
	balance_push_set(cpu, true);
	/*
	 * Every wakeup and load balance that read the active mask before the
	 * store above has finished once a grace period has passed: after it,
	 * nothing new is placed here, and balance_push clears what is.
	 */
	synchronize_rcu();
	raw_spin_rq_lock_irqsave(rq, flags);
	update_rq_clock(rq);
	set_rq_offline(rq);
	raw_spin_rq_unlock_irqrestore(rq, flags);
	return 0;
}

int sched_cpu_wait_empty(unsigned int cpu)
{
	balance_hotplug_wait();
	return 0;
}

/* On the CPU coming up, IRQs off. */
int sched_cpu_starting(unsigned int cpu)
{
	return 0;
}

/*
 * What is still queued.  Every CPU spins in stop_machine, so nobody is
 * inside tasklist_lock's write side now; on PREEMPT_RT, where that lock
 * sleeps, a writer may be preempted inside it, and the list is not read.
 */
static void dump_rq_tasks(struct rq *rq)
{
	struct task_struct *p;

	pr_warn("CPU%d enqueued tasks (%u total, %lu pinned, wake list %s):\n", rq->cpu,
		rq->nr_running, rq->nr_pinned, llist_empty(&rq->wake_list) ? "empty" : "NOT empty");
	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		return;
	list_for_each_entry(p, &task_list, tasks) {
		if (task_cpu(p) != rq->cpu || !task_on_rq_queued(p))
			continue;
		pr_warn("\tpid: %d, name: %s\n", p->pid, p->comm);
	}
}

/*
 * In stop_machine on the dying CPU: balance_push and the wait have left
 * only the stopper (which runs this) on the run queue.
 */
int sched_cpu_dying(unsigned int cpu)
{
	struct rq *rq = cpu_rq(cpu);
	unsigned long flags;
	bool vacated;

	raw_spin_rq_lock_irqsave(rq, flags);
	/* A wakeup still queued for this CPU would be stranded here. */
	vacated = rq->nr_running == 1 && !rq_has_pinned_tasks(rq) && llist_empty(&rq->wake_list);
	raw_spin_rq_unlock_irqrestore(rq, flags);
	if (!vacated) {
		pr_warn("Dying CPU not properly vacated!\n");
		WARN_ON(1);
		dump_rq_tasks(rq);
	}
	return 0;
}
