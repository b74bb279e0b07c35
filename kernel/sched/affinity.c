// SPDX-License-Identifier: GPL-2.0
/*
 * CPU affinity and migrate_disable(), with Linux 5.15's semantics.
 *
 * migrate_disable() only counts: the task stays preemptible and nothing is
 * locked.  Only when such a task is switched out does migrate_disable_switch()
 * (in __schedule()) narrow its cpus_ptr to the CPU it is on, and only then
 * does migrate_enable() have work to do: point cpus_ptr back at cpus_mask,
 * under pi_lock and the rq lock.  A section that is not preempted costs two
 * increments and two decrements, with no lock and no IRQ-off window.
 *
 * An affinity change that excludes the CPU of a running task is handed to
 * that CPU's stopper (migration_cpu_stop()): the stopper preempts the task,
 * and if the task is migrate-disabled, that preemption is what narrows
 * cpus_ptr; the move then happens when migrate_enable() finds its CPU no
 * longer allowed and queues the stopper again, without waiting for it.
 * Callers of set_cpus_allowed_ptr() wait on a set_affinity_pending, shared
 * by concurrent callers and reference counted so that the one whose stack
 * holds it returns last.
 */
#include "sched.h"
#include <linux/irqflags.h>
#include <linux/completion.h>
#include <linux/refcount.h>
#include <linux/wait_bit.h>
#include <linux/trace_irqsoff.h>

struct migration_arg {
	struct task_struct *task;
	int dest_cpu;
	struct set_affinity_pending *pending;
};

/*
 * One outstanding affinity change of a task that could not be moved at
 * once.  Lives on the stack of the first caller; later callers share it.
 * stop_pending: a migration_cpu_stop() for it is queued and owns arg and
 * stop_work until it runs.  refs: callers still to see the completion.
 */
struct set_affinity_pending {
	refcount_t refs;
	unsigned int stop_pending;
	struct completion done;
	struct cpu_stop_work stop_work;
	struct migration_arg arg;
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
 * A migrate_disable()/enable() change moves only cpus_ptr: the task is as
 * migratory as before (nr_cpus_allowed stays), which is what lets the RT
 * and deadline balancers see a pinned task that should run elsewhere and
 * push away whatever runs there instead (push_cpu_stop()).
 */
static void set_cpus_allowed_common(struct task_struct *p, const struct cpumask *new_mask,
				    u32 flags)
{
	if (flags & (SCA_MIGRATE_DISABLE | SCA_MIGRATE_ENABLE)) {
		p->cpus_ptr = new_mask;
		return;
	}
	cpumask_copy(&p->cpus_mask, new_mask);
	p->nr_cpus_allowed = cpumask_weight(new_mask);
}

/*
 * Requeue @p around the change, as the classes count movable tasks when
 * they enqueue and dequeue.  For SCA_MIGRATE_DISABLE the caller is
 * __schedule() with @p still on its CPU (so no wakeup can look at it) and
 * only the rq lock held; every other caller holds pi_lock and the rq lock.
 * For the idle task the dequeue is exactly what reports "bad: scheduling
 * from the idle thread!".
 */
void __do_set_cpus_allowed(struct task_struct *p, const struct cpumask *new_mask, u32 flags)
{
	struct rq *rq = task_rq(p);
	bool queued = task_on_rq_queued(p);
	bool running = task_current(rq, p);

	if (queued)
		dequeue_task(rq, p, DEQUEUE_NOCLOCK | DEQUEUE_SAVE);
	if (running)
		p->sched_class->put_prev_task(rq, p);
	/* One root domain: every class's set_cpus_allowed is the common one. */
	set_cpus_allowed_common(p, new_mask, flags);
	if (queued)
		enqueue_task(rq, p, ENQUEUE_NOCLOCK | ENQUEUE_RESTORE);
	if (running)
		p->sched_class->set_next_task(rq, p, false);
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

static int __set_cpus_allowed_ptr(struct task_struct *p, const struct cpumask *new_mask,
				  u32 flags);

void migrate_enable(void)
{
	struct task_struct *p = current;

	if (p->migration_disabled > 1) {
		p->migration_disabled--;
		return;
	}
	/*
	 * Preemption off: the stopper this may queue runs after us, never in
	 * the middle, and the affinity code below cannot schedule.
	 */
	preempt_disable();
	tracer_migrate_on(_RET_IP_);
	/* Only a task that was switched out while pinned has work here. */
	if (unlikely(p->cpus_ptr != &p->cpus_mask)) {
		__set_cpus_allowed_ptr(p, &p->cpus_mask, SCA_MIGRATE_ENABLE);	/* back to its own mask */
		/*
		 * Still current (preemption is off): read it again rather
		 * than keep it in a callee-saved register, so that the
		 * nested return above needs no stack frame and the path
		 * below saves no register.
		 */
		p = current;
	}
	/* cpus_ptr first: whoever sees the count at zero sees the full mask. */
	barrier();
	p->migration_disabled = 0;
	this_rq()->nr_pinned--;
#ifdef CONFIG_PREEMPT_LAZY
	p->thread_info.preempt_lazy_count--;	/* preempt_lazy_enable() */
#endif
	preempt_enable();
}

/*
 * Move queued, not running @p from @rq to @new_cpu.  Only one rq lock is
 * held at a time: @p is marked migrating while it is on neither queue,
 * which makes __task_rq_lock() wait.  Returns the new rq, locked.
 */
static struct rq *move_queued_task(struct rq *rq, struct task_struct *p, int new_cpu)
{
	deactivate_task(rq, p, DEQUEUE_NOCLOCK);
	set_task_cpu(p, new_cpu);
	raw_spin_rq_unlock(rq);

	rq = cpu_rq(new_cpu);
	raw_spin_rq_lock(rq);
	update_rq_clock(rq);
	activate_task(rq, p, ENQUEUE_NOCLOCK | ENQUEUE_MIGRATED);
	check_preempt_curr(rq, p, 0);
	return rq;
}

struct rq *__migrate_task(struct rq *rq, struct task_struct *p, int dest_cpu)
{
	if (!is_cpu_allowed(p, dest_cpu))
		return rq;
	update_rq_clock(rq);
	return move_queued_task(rq, p, dest_cpu);
}

/*
 * The stopper's half of an affinity change, on the CPU @arg->task was on
 * when it was queued.  The stopper outranks everything, so the task is not
 * running here now: either it is queued or asleep (move it, or let its next
 * wakeup place it), still pinned (leave it: its migrate_enable() comes
 * back here), or it already left this CPU (done if where it went is
 * allowed, else chase it).
 */
static int migration_cpu_stop(void *data)
{
	struct migration_arg *arg = data;
	struct task_struct *p = arg->task;
	struct set_affinity_pending *pending;
	struct rq *rq = this_rq();
	bool complete = false;
	unsigned long flags;

	pending = arg->pending;
	local_irq_save(flags);
	/*
	 * A wakeup queued for this CPU but not yet activated would start @p
	 * here after we decided it was asleep: activate it first.
	 */
	sched_ttwu_pending();

	raw_spin_lock(&p->pi_lock);
	raw_spin_rq_lock(rq);
	/* With stop_pending set, the task's pending cannot have changed. */
	WARN_ON_ONCE(pending && p->migration_pending != pending);

	if (task_rq(p) == rq) {
		if (is_migration_disabled(p))
			goto out;
		if (pending) {
			p->migration_pending = NULL;
			complete = true;
			/* Already somewhere allowed: nothing to move. */
			if (cpumask_test_cpu(cpu_of(rq), &p->cpus_mask))
				goto out;
		}
		if (task_on_rq_queued(p))
			rq = __migrate_task(rq, p, arg->dest_cpu);
		else
			p->wake_cpu = arg->dest_cpu;	/* its wakeup moves it */
	} else if (pending) {
		/*
		 * @p ran migrate_enable() and was moved by someone else
		 * before we ran.  pi_lock keeps its mask stable.
		 */
		if (cpumask_test_cpu(task_cpu(p), p->cpus_ptr)) {	/* allowed there */
			p->migration_pending = NULL;
			complete = true;
			goto out;
		}
		/* Still somewhere it may not be: follow it. */
		WARN_ON_ONCE(!pending->stop_pending);
		task_rq_unlock(rq, p, flags);
		stop_one_cpu_nowait(task_cpu(p), migration_cpu_stop, &pending->arg,
				    &pending->stop_work);
		return 0;
	}
out:
	if (pending)
		pending->stop_pending = false;
	task_rq_unlock(rq, p, flags);
	if (complete)
		complete_all(&pending->done);
	return 0;
}

/*
 * Queued by the RT and deadline balancers (get_push_task()): a pinned task
 * on this CPU should run, and the running task @arg can go elsewhere; move
 * it to the lowest-priority CPU its class finds.  A task that pinned itself
 * meanwhile is marked MDF_PUSH and pushed from its migrate_enable().
 */
int push_cpu_stop(void *arg)
{
	struct task_struct *p = arg;
	struct rq *lowest_rq = NULL, *rq = this_rq();

	raw_spin_lock_irq(&p->pi_lock);
	raw_spin_rq_lock(rq);
	/*
	 * It may have gone to sleep between get_push_task() and now: then it
	 * is on no queue and there is nothing to push (Linux 5.15 checks
	 * this only when the lock was dropped; later kernels always do).
	 */
	if (task_rq(p) != rq || !task_on_rq_queued(p))
		goto out_unlock;
	if (is_migration_disabled(p)) {
		p->migration_flags |= MDF_PUSH;
		goto out_unlock;
	}
	p->migration_flags &= ~MDF_PUSH;
	if (p->sched_class->find_lock_rq)
		lowest_rq = p->sched_class->find_lock_rq(p, rq);	/* locked beside rq */
	if (!lowest_rq)
		goto out_unlock;
	if (task_rq(p) == rq && task_on_rq_queued(p)) {
		update_rq_clock(rq);
		update_rq_clock(lowest_rq);
		deactivate_task(rq, p, DEQUEUE_NOCLOCK);
		set_task_cpu(p, lowest_rq->cpu);
		activate_task(lowest_rq, p, ENQUEUE_NOCLOCK | ENQUEUE_MIGRATED);
		resched_curr(lowest_rq);
	}
	double_unlock_balance(rq, lowest_rq);
out_unlock:
	rq->push_busy = false;
	raw_spin_rq_unlock(rq);
	raw_spin_unlock_irq(&p->pi_lock);
	put_task_struct(p);
	return 0;
}

/*
 * The task may stay where it is: finish any pending change now (unless a
 * stopper still owns it) and, on migrate_enable() of a task a balancer
 * wanted pushed, queue that push.  Drops the locks.
 */
static int affine_move_task_stay(struct rq *rq, struct task_struct *p, unsigned long flags,
				 u32 sca)
{
	struct set_affinity_pending *pending = p->migration_pending;
	struct task_struct *push_task = NULL;
	bool complete = false;

	if ((sca & SCA_MIGRATE_ENABLE) && (p->migration_flags & MDF_PUSH) && !rq->push_busy) {
		rq->push_busy = true;
		push_task = get_task_struct(p);
	}
	if (pending && !pending->stop_pending) {
		p->migration_pending = NULL;
		complete = true;
	}
	task_rq_unlock(rq, p, flags);
	if (push_task)
		stop_one_cpu_nowait(rq->cpu, push_cpu_stop, p, &rq->push_work);
	if (complete)
		complete_all(&pending->done);
	return 0;
}

/*
 * Called with pi_lock and the rq lock held, after cpus_mask changed; drops
 * both.  If @p may stay on its CPU nothing moves.  Otherwise a pending is
 * installed (or joined) and @p is moved now if it can be (queued or asleep
 * and not pinned), else by the stopper; all but migrate_enable() then wait
 * until the move is done.
 */
static int affine_move_task(struct rq *rq, struct task_struct *p, unsigned long flags,
			    int dest_cpu, u32 sca)
{
	struct set_affinity_pending my_pending = { };
	struct set_affinity_pending *pending;
	bool stop_pending, complete = false;

	if (cpumask_test_cpu(task_cpu(p), &p->cpus_mask))	/* nothing to move */
		return affine_move_task_stay(rq, p, flags, sca);

	if (!(sca & SCA_MIGRATE_ENABLE)) {
		if (!p->migration_pending) {
			refcount_set(&my_pending.refs, 1);
			init_completion(&my_pending.done);
			my_pending.arg = (struct migration_arg){
				.task = p, .dest_cpu = dest_cpu, .pending = &my_pending,
			};
			p->migration_pending = &my_pending;
		} else {
			/* Join: a queued stopper must see the newest target. */
			pending = p->migration_pending;
			refcount_inc(&pending->refs);
			pending->arg.dest_cpu = dest_cpu;
		}
	}
	pending = p->migration_pending;
	/*
	 * migrate_enable() only gets here when a concurrent affinity change
	 * excluded this CPU, and that change left its pending behind.
	 */
	if (WARN_ON_ONCE(!pending)) {
		task_rq_unlock(rq, p, flags);
		return -EINVAL;
	}

	if (READ_ONCE(p->__state) == TASK_WAKING || task_running(rq, p)) {
		/* Only the stopper can tell race-free whether @p is pinned. */
		stop_pending = pending->stop_pending;
		if (!stop_pending)
			pending->stop_pending = true;
		if (sca & SCA_MIGRATE_ENABLE)
			p->migration_flags &= ~MDF_PUSH;
		task_rq_unlock(rq, p, flags);
		if (!stop_pending)
			stop_one_cpu_nowait(cpu_of(rq), migration_cpu_stop, &pending->arg,
					    &pending->stop_work);
		/* migrate_enable() runs with preemption off: never wait there. */
		if (sca & SCA_MIGRATE_ENABLE)
			return 0;
	} else {
		if (!is_migration_disabled(p)) {
			if (task_on_rq_queued(p))
				rq = move_queued_task(rq, p, dest_cpu);
			else
				p->wake_cpu = dest_cpu;
			if (!pending->stop_pending) {
				p->migration_pending = NULL;
				complete = true;
			}
		}
		task_rq_unlock(rq, p, flags);
		if (complete)
			complete_all(&pending->done);
	}

	wait_for_completion(&pending->done);
	if (refcount_dec_and_test(&pending->refs))
		wake_up_var(&pending->refs);	/* the address only: no use after free */
	/* The owner of the stack it lives on waits for every sharer. */
	wait_var_event(&my_pending.refs, refcount_read(&my_pending.refs) == 0);
	WARN_ON_ONCE(my_pending.stop_pending);
	return 0;
}

static int __set_cpus_allowed_ptr(struct task_struct *p, const struct cpumask *new_mask,
				  u32 flags)
{
	struct cpumask valid;
	unsigned long irq_flags;
	struct rq *rq;
	int ret = 0;

	rq = task_rq_lock(p, &irq_flags);
	update_rq_clock(rq);
	if (!(flags & SCA_MIGRATE_ENABLE)) {
		if (!memcmp(&p->cpus_mask, new_mask, sizeof(p->cpus_mask)))
			goto out;
		/*
		 * A pinned task cannot be moved, and waiting for its own
		 * migrate_enable() would wait forever.
		 */
		if (WARN_ON_ONCE(p == current && is_migration_disabled(p) &&
				 !cpumask_test_cpu(task_cpu(p), new_mask))) {
			ret = -EBUSY;
			goto out;
		}
	}
	if (!cpumask_and(&valid, cpu_online_mask, new_mask)) {
		ret = -EINVAL;
		goto out;
	}
	__do_set_cpus_allowed(p, new_mask, flags);
	return affine_move_task(rq, p, irq_flags, cpumask_first(&valid), flags);
out:
	task_rq_unlock(rq, p, irq_flags);
	return ret;
}

int set_cpus_allowed_ptr(struct task_struct *p, const struct cpumask *mask)
{
	return __set_cpus_allowed_ptr(p, mask, 0);
}
