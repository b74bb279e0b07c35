// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_FIFO / SCHED_RR: a bitmap of 100 priorities over per-priority
 * FIFO lists, RR time slices at the tick, and push/pull between CPUs so
 * that the N highest-priority runnable RT tasks run on N CPUs: a CPU with
 * a waiting RT task pushes it to a CPU running something less important;
 * a CPU dropping to lower priority pulls waiting RT tasks from overloaded
 * CPUs.  As in Linux, a push after a wakeup runs at once under the rq
 * lock; one after a pick or a class change, and a pull after a class or
 * priority drop, are balance callbacks run at the end of that lock
 * section; pick_next_task()'s balance step pulls directly.
 */
#include "sched.h"
#include "cpupri.h"
#include <linux/smp.h>
#include <linux/moduleparam.h>

static struct cpumask rto_mask;		/* CPUs with waiting, movable RT tasks */
static struct cpupri def_cpupri;	/* the one root domain's RT levels */
static DEFINE_PER_CPU(struct cpumask, local_cpu_mask);	/* find_lowest_rq()'s scratch */
static DEFINE_PER_CPU(struct callback_head, rt_push_head);
static DEFINE_PER_CPU(struct callback_head, rt_pull_head);

static void push_rt_tasks(struct rq *rq);
static void pull_rt_task(struct rq *this_rq);

/* SCHED_RR quantum, Linux's sched_rr_timeslice_ms (default 100 ms). */
static unsigned int sched_rr_timeslice_ms = 100;
core_param_range("sched.rr_timeslice_ms", sched_rr_timeslice_ms, uint, 1, 10000,
		 "SCHED_RR time slice in milliseconds");

unsigned int sched_rr_timeslice(void)
{
	return max(1U, sched_rr_timeslice_ms * CONFIG_HZ / 1000);
}

static inline struct task_struct *rt_task_of(struct sched_rt_entity *rtse)
{
	return container_of(rtse, struct task_struct, rt);
}

/* An rq comes online: its CPU joins cpupri at its current level. */
void rq_online_rt(struct rq *rq)
{
	if (rq->rt.overloaded)
		cpumask_set_cpu(rq->cpu, &rto_mask);
	cpupri_set(&def_cpupri, rq->cpu, rq->rt.highest_prio_curr);
}

/*
 * An rq goes offline (its CPU is going down): cpupri forgets the CPU, so
 * that no push picks it, and it stops advertising waiting RT tasks.
 */
void rq_offline_rt(struct rq *rq)
{
	if (rq->rt.overloaded)
		cpumask_clear_cpu(rq->cpu, &rto_mask);
	cpupri_set(&def_cpupri, rq->cpu, CPUPRI_INVALID);
}

/* @cpu's cpupri level: -1 offline, 0 no RT work, else the rt_priority. */
int rt_cpupri_level(int cpu)
{
	return READ_ONCE(def_cpupri.cpu_to_pri[cpu]);
}

void init_rt_class(void)
{
	cpupri_init(&def_cpupri);
}

void init_rt_rq(struct rt_rq *rt_rq)
{
	for (int i = 0; i < MAX_RT_PRIO; i++)
		INIT_LIST_HEAD(&rt_rq->active.queue[i]);
	__set_bit(MAX_RT_PRIO, rt_rq->active.bitmap);	/* search delimiter */
	rt_rq->highest_prio_curr = MAX_RT_PRIO;
}

/* Linux's pushable criterion: a pinned task stays pushable (see push_rt_task()). */
static bool rt_migratory(struct task_struct *p)
{
	return p->nr_cpus_allowed > 1;
}

/* The rq's highest queued RT level changed: tell cpupri (if online). */
static void update_rt_prio(struct rq *rq, int prio)
{
	if (prio == rq->rt.highest_prio_curr)
		return;
	rq->rt.highest_prio_curr = prio;
	if (rq->online)
		cpupri_set(&def_cpupri, rq->cpu, prio);
}

/*
 * Linux's pushable_tasks list, as a count: queued RT tasks that may move
 * and are not the one picked to run here.  Whether it is empty decides
 * whether a pick queues a push.
 */
static void enqueue_pushable_task(struct rq *rq, struct task_struct *p)
{
	if (!p->rt.pushable) {
		p->rt.pushable = 1;
		rq->rt.rt_nr_pushable++;
	}
}

static void dequeue_pushable_task(struct rq *rq, struct task_struct *p)
{
	if (p->rt.pushable) {
		p->rt.pushable = 0;
		rq->rt.rt_nr_pushable--;
	}
}

static inline bool has_pushable_tasks(struct rq *rq)
{
	return rq->rt.rt_nr_pushable != 0;
}

static inline void rt_queue_push_tasks(struct rq *rq)
{
	if (!has_pushable_tasks(rq))
		return;
	queue_balance_callback(rq, per_cpu_ptr(&rt_push_head, cpu_of(rq)), push_rt_tasks);
}

static inline void rt_queue_pull_task(struct rq *rq)
{
	queue_balance_callback(rq, per_cpu_ptr(&rt_pull_head, cpu_of(rq)), pull_rt_task);
}

static void update_rt_overload(struct rq *rq)
{
	struct rt_rq *rt_rq = &rq->rt;
	bool over = rt_rq->rt_nr_running > 1 && rt_rq->rt_nr_migratory;

	if (over != rt_rq->overloaded) {
		rt_rq->overloaded = over;
		if (over)
			cpumask_set_cpu(rq->cpu, &rto_mask);
		else
			cpumask_clear_cpu(rq->cpu, &rto_mask);
	}
	update_rt_prio(rq, find_first_bit(rt_rq->active.bitmap, MAX_RT_PRIO));
}

static void update_curr_rt(struct rq *rq)
{
	struct task_struct *curr = rq->curr;
	s64 delta;

	if (curr->sched_class != &rt_sched_class)
		return;
	delta = rq->clock_task - curr->se.exec_start;
	if (delta <= 0)
		return;
	curr->se.sum_exec_runtime += delta;
	curr->se.exec_start = rq->clock_task;
}

/*
 * A save/restore pair without DEQUEUE_MOVE (affinity changes, a parameter
 * change that keeps the priority) leaves the task where it is in its
 * priority list: only the counts change.  Everything else re-lists it.
 */
static inline bool move_entity(unsigned int queue_flags)
{
	return (queue_flags & (DEQUEUE_SAVE | DEQUEUE_MOVE)) != DEQUEUE_SAVE;
}

static void enqueue_task_rt(struct rq *rq, struct task_struct *p, int flags)
{
	struct rt_prio_array *array = &rq->rt.active;
	struct list_head *queue = &array->queue[p->prio];

	if (move_entity(flags)) {
		WARN_ON_ONCE(p->rt.on_list);
		if (flags & ENQUEUE_HEAD)
			list_add(&p->rt.run_list, queue);
		else
			list_add_tail(&p->rt.run_list, queue);
		__set_bit(p->prio, array->bitmap);
		p->rt.on_list = 1;
	}
	p->rt.on_rq = 1;
	rq->rt.rt_nr_running++;
	/* By nr_cpus_allowed alone: a pinned task still counts, as in Linux. */
	if (p->nr_cpus_allowed > 1)
		rq->rt.rt_nr_migratory++;
	rq->nr_running++;
	if (p->nr_cpus_allowed > 1 && !task_current(rq, p))
		enqueue_pushable_task(rq, p);
	update_rt_overload(rq);
}

static void dequeue_task_rt(struct rq *rq, struct task_struct *task, int deq_flags)
{
	struct rt_prio_array *array = &rq->rt.active;

	update_curr_rt(rq);
	if (move_entity(deq_flags)) {
		WARN_ON_ONCE(!task->rt.on_list);
		list_del_init(&task->rt.run_list);
		if (list_empty(&array->queue[task->prio]))
			__clear_bit(task->prio, array->bitmap);
		task->rt.on_list = 0;
	}
	task->rt.on_rq = 0;
	rq->rt.rt_nr_running--;
	if (task->nr_cpus_allowed > 1)
		rq->rt.rt_nr_migratory--;
	rq->nr_running--;
	dequeue_pushable_task(rq, task);
	update_rt_overload(rq);
}

static void requeue_task_rt(struct rq *rq, struct task_struct *p)
{
	list_move_tail(&p->rt.run_list, &rq->rt.active.queue[p->prio]);
}

static void yield_task_rt(struct rq *rq)
{
	requeue_task_rt(rq, rq->curr);
}

static void check_preempt_curr_rt(struct rq *rq, struct task_struct *task, int wf)
{
	if (task->prio < rq->curr->prio)
		resched_curr(rq);	/* RT never waits for a lazy point */
}

static void set_next_task_rt(struct rq *rq, struct task_struct *p, bool first)
{
	p->se.exec_start = rq->clock_task;
	/* The task about to run is not pushed away. */
	dequeue_pushable_task(rq, p);
	if (!first)
		return;
	/* Others that may move wait here behind @p: offer them to other CPUs. */
	rt_queue_push_tasks(rq);
}

static struct task_struct *
pick_next_task_rt(struct rq *rq)
{
	struct task_struct *p;
	int idx;

	if (!rq->rt.rt_nr_running)
		return NULL;
	idx = find_first_bit(rq->rt.active.bitmap, MAX_RT_PRIO);
	p = rt_task_of(list_first_entry(&rq->rt.active.queue[idx],
					struct sched_rt_entity, run_list));
	set_next_task_rt(rq, p, true);
	return p;
}

static void put_prev_task_rt(struct rq *rq, struct task_struct *task)
{
	update_curr_rt(rq);
	/*
	 * Still runnable but losing the CPU: pushable from now on.  Whether
	 * to push is up to the pick that follows (set_next_task_rt()).
	 */
	if (task->rt.on_rq && rt_migratory(task))
		enqueue_pushable_task(rq, task);
}

static void task_tick_rt(struct rq *rq, struct task_struct *task, int queued)
{
	update_curr_rt(rq);
	if (task->policy != SCHED_RR || --task->rt.time_slice)
		return;
	task->rt.time_slice = sched_rr_timeslice();
	/* Round-robin only among equals: requeue if not alone at this level. */
	if (task->rt.run_list.prev != task->rt.run_list.next) {
		requeue_task_rt(rq, task);
		resched_curr(rq);
	}
}

/*
 * A CPU at the lowest RT level below @p's that @p may use (cpupri), or
 * -1: its own CPU if that is one of them (its cache is warm), else this
 * CPU (one domain: every CPU shares the LLC), else any.
 */
static int find_lowest_rq(struct task_struct *p)
{
	struct cpumask *lowest_mask = this_cpu_ptr(&local_cpu_mask);
	int this_cpu = smp_processor_id();
	int cpu = task_cpu(p);

	if (p->nr_cpus_allowed == 1)
		return -1;
	if (!cpupri_find(&def_cpupri, p, lowest_mask))
		return -1;
	if (cpumask_test_cpu(cpu, lowest_mask))
		return cpu;
	if (cpumask_test_cpu(this_cpu, lowest_mask))
		return this_cpu;
	cpu = cpumask_first(lowest_mask);
	return cpu < NR_CPUS ? cpu : -1;
}

/*
 * Stay where it was, unless what runs there is RT and either at least as
 * important or unable to move (it would be preempted with nowhere to go):
 * then take a CPU at a lower level, if @p outranks everything queued there.
 */
static int select_task_rq_rt(struct task_struct *p, int cpu, int flags)
{
	struct task_struct *curr = READ_ONCE(cpu_rq(cpu)->curr);
	int target;

	if (!curr || !rt_task(curr) ||
	    (curr->nr_cpus_allowed >= 2 && curr->prio > p->prio))
		return cpu;
	target = find_lowest_rq(p);
	if (target != -1 && p->prio < READ_ONCE(cpu_rq(target)->rt.highest_prio_curr))
		cpu = target;
	return cpu;
}

/* Highest-priority RT task queued on @rq that is not running and may move. */
static struct task_struct *pick_pushable_task(struct rq *rq, int below_prio)
{
	for (int idx = find_first_bit(rq->rt.active.bitmap, MAX_RT_PRIO);
	     idx < below_prio && idx < MAX_RT_PRIO;
	     idx = find_next_bit(rq->rt.active.bitmap, MAX_RT_PRIO, idx + 1)) {
		struct sched_rt_entity *rt_se;

		list_for_each_entry(rt_se, &rq->rt.active.queue[idx], run_list) {
			struct task_struct *p = rt_task_of(rt_se);

			if (!task_running(rq, p) && rt_migratory(p))
				return p;
		}
	}
	return NULL;
}

#define RT_MAX_TRIES	3

/*
 * Find a CPU that runs something less important than @p and lock its rq
 * beside @rq (whose lock may be dropped on the way: then everything about
 * @p is checked again).  Returns it locked, or NULL.
 */
static struct rq *find_lock_lowest_rq(struct task_struct *p, struct rq *rq)
{
	struct rq *lowest_rq = NULL;

	for (int tries = 0; tries < RT_MAX_TRIES; tries++) {
		int cpu = find_lowest_rq(p);

		if (cpu < 0 || cpu == rq->cpu)
			break;
		lowest_rq = cpu_rq(cpu);
		if (lowest_rq->rt.highest_prio_curr <= p->prio) {
			lowest_rq = NULL;	/* no better than here */
			break;
		}
		if (double_lock_balance(rq, lowest_rq)) {
			/* Our lock was let go: is @p still queued here, waiting, RT? */
			if (unlikely(task_rq(p) != rq || task_running(rq, p) ||
				     !task_on_rq_queued(p) || !rt_task(p) ||
				     !cpumask_test_cpu(cpu, &p->cpus_mask))) {
				double_unlock_balance(rq, lowest_rq);
				lowest_rq = NULL;
				break;
			}
		}
		if (lowest_rq->rt.highest_prio_curr > p->prio)
			break;
		double_unlock_balance(rq, lowest_rq);
		lowest_rq = NULL;
	}
	return lowest_rq;
}

/*
 * Push the first waiting task of @rq to a CPU running something less
 * important.  Called with rq locked; may drop and retake it.  A pinned
 * waiter cannot go; if a CPU is free for the running task instead, the
 * running task is pushed there by the stopper, but only when asked by a
 * puller (@pull): a push after a wakeup would just bounce it.
 */
static bool push_rt_task(struct rq *rq, bool pull)
{
	struct task_struct *p;
	struct rq *lowest;

	if (!rq->rt.overloaded)
		return false;
	p = pick_pushable_task(rq, MAX_RT_PRIO);
	if (!p)
		return false;
	if (is_migration_disabled(p)) {
		struct task_struct *push_task;
		int cpu;

		if (!pull || rq->push_busy)
			return false;
		cpu = find_lowest_rq(rq->curr);
		if (cpu < 0 || cpu == rq->cpu)
			return false;
		push_task = get_push_task(rq);
		if (push_task) {
			raw_spin_rq_unlock(rq);
			stop_one_cpu_nowait(rq->cpu, push_cpu_stop, push_task, &rq->push_work);
			raw_spin_rq_lock(rq);
		}
		return false;
	}
	/* It will run here as soon as curr yields: nothing to gain. */
	if (p->prio < rq->curr->prio) {
		resched_curr(rq);
		return false;
	}
	lowest = find_lock_lowest_rq(p, rq);
	if (!lowest)
		return false;
	if (task_rq(p) == rq && task_on_rq_queued(p) && !task_running(rq, p) &&
	    !is_migration_disabled(p)) {
		update_rq_clock(rq);
		update_rq_clock(lowest);
		move_queued_task_locked(rq, lowest, p);
		double_unlock_balance(rq, lowest);
		return true;
	}
	double_unlock_balance(rq, lowest);
	return false;
}

/*
 * Pull waiting RT tasks that outrank what @this_rq would run next.  One
 * that is pinned where it waits cannot come: the task running over it is
 * pushed away instead (to here, most likely), as Linux does since 5.11.
 */
static void pull_rt_task(struct rq *this_rq)
{
	int cpu, this_cpu = this_rq->cpu;

	if (!cpumask_weight(&rto_mask))
		return;
	for_each_cpu(cpu, &rto_mask) {
		struct task_struct *p, *push_task = NULL;
		struct rq *src = cpu_rq(cpu);

		if (cpu == this_cpu)
			continue;
		double_lock_balance(this_rq, src);
		p = pick_pushable_task(src, min(this_rq->rt.highest_prio_curr,
						this_rq->curr->sched_class == &rt_sched_class &&
						this_rq->curr->rt.on_rq ?
						this_rq->curr->prio : MAX_RT_PRIO));
		/*
		 * Take it only if it is waiting behind its CPU's current task:
		 * one that is about to preempt there gains nothing from moving.
		 */
		if (p && cpumask_test_cpu(this_cpu, &p->cpus_mask) &&
		    p->prio >= src->curr->prio) {
			if (is_migration_disabled(p)) {
				push_task = get_push_task(src);
			} else {
				update_rq_clock(src);
				update_rq_clock(this_rq);
				move_queued_task_locked(src, this_rq, p);
			}
		}
		double_unlock_balance(this_rq, src);
		if (push_task) {
			raw_spin_rq_unlock(this_rq);
			stop_one_cpu_nowait(src->cpu, push_cpu_stop, push_task, &src->push_work);
			raw_spin_rq_lock(this_rq);
		}
	}
}

static int balance_rt(struct rq *rq, struct task_struct *prev)
{
	bool prev_queued_rt = prev->sched_class == &rt_sched_class && prev->rt.on_rq;

	/*
	 * About to run something less important than prev (or prev's RT
	 * level is gone from this CPU): look for waiting RT work elsewhere.
	 */
	if (!prev_queued_rt && (rq->rt.highest_prio_curr > prev->prio ||
				!rq->rt.rt_nr_running))
		pull_rt_task(rq);
	return rq->rt.rt_nr_running > 0;
}

/* Push until nothing more moves (each push_rt_task() moves one task). */
static void push_rt_tasks(struct rq *rq)
{
	while (push_rt_task(rq, false))
		;
}

/*
 * Woken behind a running RT or deadline task that it does not preempt
 * (or that cannot move), with no reschedule coming: push it now, under
 * the wakeup's rq lock, as Linux does.
 */
static void task_woken_rt(struct rq *rq, struct task_struct *p)
{
	bool need_to_push = !task_running(rq, p) &&
			    !test_tsk_need_resched(rq->curr) &&
			    p->nr_cpus_allowed > 1 &&
			    (dl_task(rq->curr) || rt_task(rq->curr)) &&
			    (rq->curr->nr_cpus_allowed < 2 || rq->curr->prio <= p->prio);

	if (need_to_push)
		push_rt_tasks(rq);
}

/*
 * The last RT task here left the class while queued: this CPU now runs
 * something lower, so look for RT work waiting elsewhere.  With RT tasks
 * left, their own pick does the balancing.
 */
static void switched_from_rt(struct rq *rq, struct task_struct *p)
{
	if (task_on_rq_queued(p) && !rq->rt.rt_nr_running)
		rt_queue_pull_task(rq);
}

/* A new RT task queued here may overload the CPU: push someone off. */
static void switched_to_rt(struct rq *rq, struct task_struct *task)
{
	if (task_current(rq, task) || !task_on_rq_queued(task))
		return;
	if (task->nr_cpus_allowed > 1 && rq->rt.overloaded)
		rt_queue_push_tasks(rq);
	if (task->prio < rq->curr->prio && cpu_online(cpu_of(rq)))
		resched_curr(rq);
}

static void prio_changed_rt(struct rq *rq, struct task_struct *p, int oldprio)
{
	if (!task_on_rq_queued(p))
		return;
	if (task_current(rq, p)) {
		/* Lowered while running: RT work elsewhere may outrank it now. */
		if (oldprio < p->prio)
			rt_queue_pull_task(rq);
		/* And someone queued here may. */
		if (p->prio > rq->rt.highest_prio_curr)
			resched_curr(rq);
	} else if (p->prio < rq->curr->prio) {
		resched_curr(rq);
	}
}

const struct sched_class rt_sched_class = {
	.enqueue_task = enqueue_task_rt,
	.dequeue_task = dequeue_task_rt,
	.yield_task = yield_task_rt,
	.check_preempt_curr = check_preempt_curr_rt,
	.pick_next_task = pick_next_task_rt,
	.put_prev_task = put_prev_task_rt,
	.set_next_task = set_next_task_rt,
	.balance = balance_rt,
	.select_task_rq = select_task_rq_rt,
	.task_woken = task_woken_rt,
	.task_tick = task_tick_rt,
	.switched_from = switched_from_rt,
	.switched_to = switched_to_rt,
	.prio_changed = prio_changed_rt,
	.update_curr = update_curr_rt,
	.find_lock_rq = find_lock_lowest_rq,
	.next = &fair_sched_class,
};
