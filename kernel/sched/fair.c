// SPDX-License-Identifier: GPL-2.0
/*
 * CFS, the fair class: each runnable task advances a virtual runtime at a
 * rate inversely proportional to its weight (nice level); the run queue is
 * an rbtree ordered by vruntime and the leftmost task runs.  A task gets a
 * slice of the scheduling period in proportion to its weight; a waking task
 * preempts when it is behind the current one by more than the wakeup
 * granularity.  Preemption of a fair task by a fair task is "lazy" under
 * PREEMPT_LAZY.  Load balancing evens out the number of fair tasks across
 * CPUs: periodically from the tick and when a CPU is about to go idle.
 */
#include "sched.h"
#include <linux/smp.h>

/* Linux's weights: each nice level ~10% CPU, 1024 at nice 0. */
const int sched_prio_to_weight[40] = {
	88761, 71755, 56483, 46273, 36291,
	29154, 23254, 18705, 14949, 11916,
	9548, 7620, 6100, 4904, 3906,
	3121, 2501, 1991, 1586, 1277,
	1024, 820, 655, 526, 423,
	335, 272, 215, 172, 137,
	110, 87, 70, 56, 45,
	36, 29, 23, 18, 15,
};

/* Base tunables in ns, scaled by 1 + log2(CPUs) as Linux does. */
static u64 sysctl_sched_latency = 6000000ULL;
static u64 sysctl_sched_min_granularity = 750000ULL;
static u64 sysctl_sched_wakeup_granularity = 1000000ULL;
static unsigned int sched_nr_latency = 8;

static inline struct task_struct *task_of(struct sched_entity *se)
{
	return container_of(se, struct task_struct, se);
}

void init_cfs_rq(struct cfs_rq *cfs_rq)
{
	cfs_rq->tasks_timeline = RB_ROOT_CACHED;
	cfs_rq->min_vruntime = (u64)(-(1LL << 20));
}

void sched_init_granularity(unsigned int ncpus)
{
	unsigned int factor = 1 + ilog2_u64(ncpus ? ncpus : 1);

	if (factor > 4)
		factor = 4;	/* Linux caps at 8 CPUs' worth */
	sysctl_sched_latency *= factor;
	sysctl_sched_min_granularity *= factor;
	sysctl_sched_wakeup_granularity *= factor;
}

void set_load_weight(struct task_struct *p)
{
	int prio = p->static_prio - MAX_RT_PRIO;

	if (p->policy == SCHED_IDLE) {
		p->se.load.weight = 3;	/* WEIGHT_IDLEPRIO */
		return;
	}
	p->se.load.weight = sched_prio_to_weight[prio];
}

/* delta * NICE_0_LOAD / weight: how much vruntime @delta of CPU is worth. */
static u64 calc_delta_fair(u64 delta, struct sched_entity *se)
{
	if (se->load.weight == NICE_0_LOAD)
		return delta;
	return (u64)(((unsigned __int128)delta * NICE_0_LOAD) / se->load.weight);
}

static inline s64 entity_key(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	return (s64)(se->vruntime - cfs_rq->min_vruntime);
}

static bool entity_before(struct rb_node *a, const struct rb_node *b)
{
	struct sched_entity *ea = rb_entry(a, struct sched_entity, run_node);
	struct sched_entity *eb = rb_entry(b, struct sched_entity, run_node);

	return (s64)(ea->vruntime - eb->vruntime) < 0;
}

static void __enqueue_entity(struct cfs_rq *cfs_rq, struct sched_entity *ent)
{
	rb_add_cached(&ent->run_node, &cfs_rq->tasks_timeline, entity_before);
}

static void __dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *ent)
{
	rb_erase_cached(&ent->run_node, &cfs_rq->tasks_timeline);
}

static struct sched_entity *__pick_first_entity(struct cfs_rq *cfs_rq)
{
	struct rb_node *node = rb_first_cached(&cfs_rq->tasks_timeline);

	return node ? rb_entry(node, struct sched_entity, run_node) : NULL;
}

/* min_vruntime only moves forward: it is the reference for placement. */
static void update_min_vruntime(struct cfs_rq *cfs)
{
	struct sched_entity *curr = cfs->curr, *left = __pick_first_entity(cfs);
	u64 vruntime = cfs->min_vruntime;

	if (curr && curr->on_rq)
		vruntime = curr->vruntime;
	else
		curr = NULL;
	if (left)
		vruntime = curr ? ((s64)(left->vruntime - vruntime) < 0 ? left->vruntime : vruntime)
				: left->vruntime;
	if ((s64)(vruntime - cfs->min_vruntime) > 0)
		cfs->min_vruntime = vruntime;
}

static void update_curr(struct cfs_rq *cfs_rq, struct rq *rq)
{
	struct sched_entity *curr = cfs_rq->curr;
	s64 delta;

	if (!curr)
		return;
	delta = rq->clock_task - curr->exec_start;
	if (delta <= 0)
		return;
	curr->exec_start = rq->clock_task;
	curr->sum_exec_runtime += delta;
	curr->vruntime += calc_delta_fair(delta, curr);
	update_min_vruntime(cfs_rq);
}

void update_curr_fair(struct rq *rq)
{
	update_curr(&rq->cfs, rq);
}

/* The period over which every runnable task runs once. */
static u64 __sched_period(unsigned int nr_running)
{
	if (nr_running > sched_nr_latency)
		return sysctl_sched_min_granularity * nr_running;
	return sysctl_sched_latency;
}

static u64 sched_slice(struct cfs_rq *cfs_rq, struct sched_entity *ent)
{
	unsigned long total = cfs_rq->load.weight + (ent->on_rq ? 0 : ent->load.weight);
	u64 period = __sched_period(cfs_rq->nr_running + !ent->on_rq);

	return total ? period * ent->load.weight / total : period;
}

/* A waking task gets at most half a latency period of credit (GENTLE_FAIR_SLEEPERS). */
static void place_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, bool initial)
{
	u64 vruntime = cfs_rq->min_vruntime;

	if (initial)
		vruntime += calc_delta_fair(sched_slice(cfs_rq, se), se);	/* START_DEBIT */
	else
		vruntime -= sysctl_sched_latency / 2;
	if (initial || (s64)(vruntime - se->vruntime) > 0)
		se->vruntime = vruntime;
}

static void enqueue_task_fair(struct rq *rq, struct task_struct *p, int flags)
{
	struct cfs_rq *cfs_rq = &rq->cfs;
	struct sched_entity *se = &p->se;

	update_curr(cfs_rq, rq);
	if (flags & ENQUEUE_WAKEUP)
		place_entity(cfs_rq, se, false);
	se->cfs_rq = cfs_rq;
	if (se != cfs_rq->curr)
		__enqueue_entity(cfs_rq, se);
	se->on_rq = 1;
	cfs_rq->load.weight += se->load.weight;
	cfs_rq->nr_running++;
	rq->nr_running++;
}

static void dequeue_task_fair(struct rq *rq, struct task_struct *task, int deq_flags)
{
	struct cfs_rq *cfs_rq = &rq->cfs;
	struct sched_entity *se = &task->se;

	update_curr(cfs_rq, rq);
	if (se != cfs_rq->curr)
		__dequeue_entity(cfs_rq, se);
	se->on_rq = 0;
	cfs_rq->load.weight -= se->load.weight;
	cfs_rq->nr_running--;
	rq->nr_running--;
	update_min_vruntime(cfs_rq);
}

/* The vruntime reference differs per CPU: carry the offset, not the value. */
static void migrate_task_rq_fair(struct task_struct *p, int dst_cpu)
{
	p->se.vruntime += cpu_rq(dst_cpu)->cfs.min_vruntime -
			  task_rq(p)->cfs.min_vruntime;
}

static void yield_task_fair(struct rq *rq)
{
	struct sched_entity *se = &rq->curr->se, *last;
	struct rb_node *rightmost;

	update_curr(&rq->cfs, rq);
	rightmost = rb_last(&rq->cfs.tasks_timeline.rb_root);
	if (rightmost) {
		last = rb_entry(rightmost, struct sched_entity, run_node);
		if ((s64)(last->vruntime - se->vruntime) > 0)
			se->vruntime = last->vruntime + 1;
	}
}

static void check_preempt_wakeup(struct rq *rq, struct task_struct *p, int flags)
{
	struct sched_entity *curr = &rq->curr->se, *se = &p->se;
	s64 vdiff;

	if (rq->curr->policy == SCHED_IDLE && p->policy != SCHED_IDLE)
		goto preempt;
	if (p->policy == SCHED_IDLE || p->policy == SCHED_BATCH)
		return;
	update_curr(&rq->cfs, rq);
	vdiff = (s64)(curr->vruntime - se->vruntime);
	if (vdiff > (s64)calc_delta_fair(sysctl_sched_wakeup_granularity, se))
		goto preempt;
	return;
preempt:
	resched_curr_lazy(rq);
}

static struct task_struct *pick_next_task_fair(struct rq *rq)
{
	struct sched_entity *se = __pick_first_entity(&rq->cfs);

	if (!se)
		return NULL;
	fair_sched_class.set_next_task(rq, task_of(se), true);
	return task_of(se);
}

static void set_next_task_fair(struct rq *rq, struct task_struct *task, bool first)
{
	struct cfs_rq *cfs_rq = &rq->cfs;
	struct sched_entity *ent = &task->se;

	if (ent->on_rq)
		__dequeue_entity(cfs_rq, ent);	/* the running entity is not in the tree */
	ent->exec_start = rq->clock_task;
	cfs_rq->curr = ent;
	ent->prev_sum_exec_runtime = ent->sum_exec_runtime;
}

static void put_prev_task_fair(struct rq *rq, struct task_struct *task)
{
	struct cfs_rq *cfs_rq = &rq->cfs;
	struct sched_entity *se = &task->se;

	if (cfs_rq->curr != se)
		return;
	update_curr(cfs_rq, rq);
	if (se->on_rq)
		__enqueue_entity(cfs_rq, se);
	cfs_rq->curr = NULL;
}

/* Tick: preempt once curr has had its slice, or a much earlier task waits. */
static void task_tick_fair(struct rq *rq, struct task_struct *task, int queued)
{
	struct cfs_rq *cfs_rq = &rq->cfs;
	struct sched_entity *se = &task->se, *first;
	u64 ideal = sched_slice(cfs_rq, se), ran;

	update_curr(cfs_rq, rq);
	if (cfs_rq->nr_running < 2)
		return;
	ran = se->sum_exec_runtime - se->prev_sum_exec_runtime;
	if (ran > ideal) {
		resched_curr_lazy(rq);
		return;
	}
	if (ran < sysctl_sched_min_granularity)
		return;
	first = __pick_first_entity(cfs_rq);
	if (first && (s64)(se->vruntime - first->vruntime) > (s64)ideal)
		resched_curr_lazy(rq);
}

static void task_fork_fair(struct task_struct *task)
{
	struct cfs_rq *cfs_rq = &task_rq(task)->cfs;

	update_curr(cfs_rq, task_rq(task));
	place_entity(cfs_rq, &task->se, true);
}

/* Prefer an idle allowed CPU, starting with the previous one. */
static int select_task_rq_fair(struct task_struct *p, int prev_cpu, int wake_flags)
{
	unsigned int best = prev_cpu, best_nr = ~0U;
	int cpu;

	if (cpu_rq(prev_cpu)->nr_running == 0 && cpumask_test_cpu(prev_cpu, p->cpus_ptr))
		return prev_cpu;
	for_each_cpu(cpu, p->cpus_ptr) {
		unsigned int nr;

		if (!cpu_online(cpu))
			continue;
		nr = READ_ONCE(cpu_rq(cpu)->nr_running);
		if (nr < best_nr) {
			best = cpu;
			best_nr = nr;
		}
	}
	return best;
}

static void prio_changed_fair(struct rq *rq, struct task_struct *p, int oldprio)
{
	if (!task_on_rq_queued(p))
		return;
	if (task_current(rq, p)) {
		if (p->prio > oldprio)
			resched_curr(rq);
	} else {
		check_preempt_curr(rq, p, 0);
	}
}

static void switched_to_fair(struct rq *rq, struct task_struct *task)
{
	if (task_on_rq_queued(task) && !task_current(rq, task))
		check_preempt_curr(rq, task, 0);
}

/*
 * Move fair tasks from the busiest CPU to @this_rq until the difference
 * in runnable fair tasks is at most one.  Only queued, not running,
 * allowed, not migrate-disabled tasks move.
 */
int fair_load_balance(struct rq *this_rq, bool newidle)
{
	struct rq *busiest = NULL;
	unsigned int max_nr = 0, moved = 0;
	unsigned long flags = 0;
	int cpu;

	for_each_online_cpu(cpu) {
		unsigned int nr = READ_ONCE(cpu_rq(cpu)->cfs.nr_running);

		if (cpu != this_rq->cpu && nr > max_nr) {
			max_nr = nr;
			busiest = cpu_rq(cpu);
		}
	}
	if (!busiest || max_nr < 2 || max_nr <= READ_ONCE(this_rq->cfs.nr_running) + 1)
		return 0;
	if (!newidle) {
		local_irq_save(flags);
		raw_spin_rq_lock(this_rq);
	}
	double_lock_balance(this_rq, busiest);
	update_rq_clock(busiest);
	update_rq_clock(this_rq);
	while (busiest->cfs.nr_running > this_rq->cfs.nr_running + 1) {
		struct sched_entity *se;
		struct task_struct *p = NULL;
		struct rb_node *n;

		for (n = rb_first_cached(&busiest->cfs.tasks_timeline); n; n = rb_next(n)) {
			se = rb_entry(n, struct sched_entity, run_node);
			if (!task_running(busiest, task_of(se)) &&
			    !is_migration_disabled(task_of(se)) &&
			    cpumask_test_cpu(this_rq->cpu, task_of(se)->cpus_ptr)) {
				p = task_of(se);
				break;
			}
		}
		if (!p)
			break;
		move_queued_task_locked(busiest, this_rq, p);
		moved++;
	}
	double_unlock_balance(this_rq, busiest);
	if (!newidle) {
		raw_spin_rq_unlock(this_rq);
		local_irq_restore(flags);
	}
	return moved;
}

/* About to go idle (nothing fair or better here): try to pull first. */
static int balance_fair(struct rq *rq, struct task_struct *prev)
{
	if (rq->nr_running)
		return 1;
	return fair_load_balance(rq, true) > 0;
}

const struct sched_class fair_sched_class = {
	.enqueue_task = enqueue_task_fair,
	.dequeue_task = dequeue_task_fair,
	.yield_task = yield_task_fair,
	.check_preempt_curr = check_preempt_wakeup,
	.pick_next_task = pick_next_task_fair,
	.put_prev_task = put_prev_task_fair,
	.set_next_task = set_next_task_fair,
	.balance = balance_fair,
	.select_task_rq = select_task_rq_fair,
	.migrate_task_rq = migrate_task_rq_fair,
	.task_tick = task_tick_fair,
	.task_fork = task_fork_fair,
	.switched_to = switched_to_fair,
	.prio_changed = prio_changed_fair,
	.update_curr = update_curr_fair,
	.next = &idle_sched_class,
};
