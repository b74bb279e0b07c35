// SPDX-License-Identifier: GPL-2.0
/*
 * CFS, the fair class: each runnable task advances a virtual runtime at a
 * rate inversely proportional to its weight (nice level); the run queue is
 * an rbtree ordered by vruntime and the leftmost task runs.  A task gets a
 * slice of the scheduling period in proportion to its weight; a waking task
 * preempts when it is behind the current one by more than the wakeup
 * granularity.  Preemption of a fair task by a fair task is "lazy" under
 * PREEMPT_LAZY.  Load balancing evens out the number of fair tasks across
 * CPUs: periodically in SCHED_SOFTIRQ, which the tick raises when a pass is
 * due, and when a CPU is about to go idle.
 */
#include "sched.h"
#include <linux/smp.h>
#include <linux/hardirq.h>
#include <linux/interrupt.h>

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

/*
 * A new task starts one slice after min_vruntime (START_DEBIT: the current
 * period is already handed out); a waking task gets at most half a latency
 * period of credit (GENTLE_FAIR_SLEEPERS).  Neither moves backwards from
 * the vruntime it holds: a new task from what task_fork_fair() gave it, a
 * sleeper from its own.
 */
static void place_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, bool initial)
{
	u64 vruntime = cfs_rq->min_vruntime;

	if (initial)
		vruntime += calc_delta_fair(sched_slice(cfs_rq, se), se);
	else
		vruntime -= sysctl_sched_latency / 2;
	if ((s64)(vruntime - se->vruntime) > 0)
		se->vruntime = vruntime;
}

/*
 * Buddies.  A wakeup that preempts names the wakee "next" and, once enough
 * tasks share the CPU for the period to stretch, the preempted task "last";
 * yield() names the caller "skip".  pick_next_entity() follows a hint only
 * while that costs no more than the wakeup granularity of fairness.  There
 * are no task groups here, so each hint is one pointer in the CPU's cfs_rq.
 */
static void clear_buddies(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	if (cfs_rq->last == se)
		cfs_rq->last = NULL;
	if (cfs_rq->next == se)
		cfs_rq->next = NULL;
	if (cfs_rq->skip == se)
		cfs_rq->skip = NULL;
}

static void set_next_buddy(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	if (WARN_ON_ONCE(!se->on_rq) || task_of(se)->policy == SCHED_IDLE)
		return;
	cfs_rq->next = se;
}

static void set_last_buddy(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	if (WARN_ON_ONCE(!se->on_rq) || task_of(se)->policy == SCHED_IDLE)
		return;
	cfs_rq->last = se;
}

/*
 * 1 if @se is more than the wakeup granularity (in @se's vruntime units)
 * behind @curr, 0 if behind by less, -1 if not behind at all.
 */
static int wakeup_preempt_entity(struct sched_entity *curr, struct sched_entity *se)
{
	s64 vdiff = (s64)(curr->vruntime - se->vruntime);

	if (vdiff <= 0)
		return -1;
	if (vdiff > (s64)calc_delta_fair(sysctl_sched_wakeup_granularity, se))
		return 1;
	return 0;
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
	list_add(&se->group_node, &rq->cfs_tasks);
	cfs_rq->load.weight += se->load.weight;
	cfs_rq->nr_running++;
	rq->nr_running++;
}

static void dequeue_task_fair(struct rq *rq, struct task_struct *task, int deq_flags)
{
	struct cfs_rq *cfs_rq = &rq->cfs;
	struct sched_entity *se = &task->se;

	update_curr(cfs_rq, rq);
	clear_buddies(cfs_rq, se);
	if (se != cfs_rq->curr)
		__dequeue_entity(cfs_rq, se);
	se->on_rq = 0;
	list_del_init(&se->group_node);
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

/*
 * yield(): the caller stays where its vruntime puts it but is marked to be
 * passed over once, if the next task is not too far ahead of it.
 */
static void yield_task_fair(struct rq *rq)
{
	struct task_struct *curr = rq->curr;
	struct sched_entity *se = &curr->se;

	if (unlikely(rq->nr_running == 1))
		return;
	clear_buddies(&rq->cfs, se);
	if (curr->policy != SCHED_BATCH) {
		update_rq_clock(rq);
		update_curr(&rq->cfs, rq);
	}
	rq->cfs.skip = se;
}

/*
 * @p was just queued beside the running fair task.  Under PREEMPT_LAZY the
 * resched is lazy, and a lazy flag already set does not stop the buddies
 * from being named again: only a full NEED_RESCHED means the choice was made.
 */
static void check_preempt_wakeup(struct rq *rq, struct task_struct *p, int flags)
{
	struct task_struct *curr = rq->curr;
	struct cfs_rq *cfs_rq = &rq->cfs;
	struct sched_entity *pse = &p->se;	/* the wakee */
	struct sched_entity *se = &curr->se;
	bool scale = cfs_rq->nr_running >= sched_nr_latency;

	if (unlikely(se == pse))
		return;
	if (test_tsk_need_resched(curr))
		return;
	if (unlikely(curr->policy == SCHED_IDLE) && likely(p->policy != SCHED_IDLE))
		goto preempt;
	if (p->policy != SCHED_NORMAL)
		return;	/* batch and idle wakees wait for the tick */
	update_curr(cfs_rq, rq);
	if (wakeup_preempt_entity(se, pse) != 1)
		return;
	set_next_buddy(cfs_rq, pse);
preempt:
	resched_curr_lazy(rq);
	/* Not for a task on its way off the queue, nor for the idle task. */
	if (unlikely(!se->on_rq || curr == rq->idle))
		return;
	if (scale)
		set_last_buddy(cfs_rq, se);
}

/*
 * Leftmost first, for fairness; but the yielder gives way to the second if
 * that is close enough, and a wakee that preempted ("next"), or failing
 * that the task it preempted ("last"), runs if it is within the wakeup
 * granularity of the leftmost.  The previous task is back in the tree.
 */
static struct sched_entity *pick_next_entity(struct cfs_rq *cfs_rq)
{
	struct sched_entity *left = __pick_first_entity(cfs_rq), *se = left;

	if (!left)
		return NULL;
	if (cfs_rq->skip == se) {
		struct rb_node *second = rb_next(&se->run_node);

		if (second) {
			struct sched_entity *s2 = rb_entry(second, struct sched_entity, run_node);

			if (wakeup_preempt_entity(s2, left) < 1)
				se = s2;
		}
	}
	if (cfs_rq->next && wakeup_preempt_entity(cfs_rq->next, left) < 1)
		se = cfs_rq->next;
	else if (cfs_rq->last && wakeup_preempt_entity(cfs_rq->last, left) < 1)
		se = cfs_rq->last;
	return se;
}

static struct task_struct *pick_next_task_fair(struct rq *rq)
{
	struct sched_entity *se = pick_next_entity(&rq->cfs);

	if (!se)
		return NULL;
	fair_sched_class.set_next_task(rq, task_of(se), true);
	return task_of(se);
}

static void set_next_task_fair(struct rq *rq, struct task_struct *task, bool first)
{
	struct cfs_rq *cfs_rq = &rq->cfs;
	struct sched_entity *ent = &task->se;

	clear_buddies(cfs_rq, ent);
	if (ent->on_rq) {
		__dequeue_entity(cfs_rq, ent);	/* the running entity is not in the tree */
		/* cfs_tasks stays in most-recently-run order: balancing takes from its tail. */
		list_move(&ent->group_node, &rq->cfs_tasks);
	}
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
		clear_buddies(cfs_rq, se);	/* its slice is up: no favour from a hint */
		return;
	}
	if (ran < sysctl_sched_min_granularity)
		return;
	first = __pick_first_entity(cfs_rq);
	if (first && (s64)(se->vruntime - first->vruntime) > (s64)ideal)
		resched_curr_lazy(rq);
}

/*
 * Linux places a child no earlier than its parent, the CPU's running fair
 * task at fork.  irqlab's kthreads are made in their creator's context,
 * where Linux's are forked by kthreadd: a sleeper that runs only briefly
 * and so never stands a slice ahead of min_vruntime.  Placing from the
 * creator would charge the child for the creator's run (a test thread
 * that spun for seconds), so the child starts where kthreadd's would:
 * min_vruntime plus its slice.
 */
static void task_fork_fair(struct task_struct *task)
{
	struct rq *rq = this_rq();

	raw_spin_rq_lock(rq);
	update_rq_clock(rq);
	update_curr(&rq->cfs, rq);
	task->se.vruntime = rq->cfs.min_vruntime;
	place_entity(&rq->cfs, &task->se, true);
	raw_spin_rq_unlock(rq);
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

/* ------------------------------------------------------------ load balancing */

/*
 * Linux 5.15's periodic and newidle balancing over irqlab's one domain
 * (struct sched_domain).  The tick only notices that a pass is due and
 * raises SCHED_SOFTIRQ; the pass runs there, with interrupts enabled (in
 * ksoftirqd on PREEMPT_RT).  A pass pulls half the difference in fair
 * tasks from the CPU that has the most, looks at no more than
 * sysctl_sched_nr_migrate of them, detaches them holding only the busiest
 * rq's lock and attaches them holding only ours, and leaves cache-hot
 * tasks behind until passes keep failing.
 *
 * Left out, with what stands in for it: PELT load and utilisation (the
 * imbalance is counted in tasks, which is what Linux computes between
 * one-CPU groups when ours has spare capacity, and what a load-based
 * imbalance amounts to for equal weights); active balancing of busiest's
 * running task; NOHZ idle balancing (irqlab's tick never stops); newidle's
 * avg_idle and root-domain overload shortcuts (a pass that finds no
 * imbalance gives up at once instead).
 */

#ifdef CONFIG_PREEMPT_RT
unsigned int sysctl_sched_nr_migrate = 8;	/* the RT patch: shorter lock holds */
#else
unsigned int sysctl_sched_nr_migrate = 32;
#endif
/* ns since a task last ran on its CPU during which it counts as cache-hot; -1: always */
unsigned int sysctl_sched_migration_cost = 500000U;
/* Tasks looked at per hold of busiest's lock before letting go of it. */
static const unsigned int sched_nr_migrate_break = 32;	/* tasks per hold of busiest->lock */
static unsigned long max_load_balance_interval = HZ / 10;

#define LBF_ALL_PINNED	0x01	/* no task looked at may run on dst_cpu */
#define LBF_NEED_BREAK	0x02	/* loop_break reached: drop the lock, continue */
#define LBF_DST_PINNED	0x04	/* (Linux: retry another CPU of our group) */
#define LBF_SOME_PINNED	0x08	/* at least one task could not come here */
#define LBF_ACTIVE_LB	0x10	/* (Linux: active balance; not modelled) */

/* Balanced passes of an all-pinned domain back off to at most this (ms). */
#define MAX_PINNED_INTERVAL	512

struct lb_env {
	struct sched_domain *sd;
	struct rq *src_rq;
	int src_cpu;
	int dst_cpu;
	struct rq *dst_rq;
	enum cpu_idle_type idle;
	long imbalance;		/* in tasks: Linux's migrate_task */
	struct cpumask *cpus;	/* where busiest may still be looked for */
	unsigned int flags;
	unsigned int loop;	/* tasks looked at in this pass */
	unsigned int loop_break;
	unsigned int loop_max;
	struct list_head tasks;	/* detached from src_rq, not yet attached */
};

/*
 * Would moving @p lose a warm cache?  Yes if it ran on its CPU within the
 * last sysctl_sched_migration_cost ns (exec_start is where its last run
 * began, or still runs from).
 */
static int
task_hot(struct task_struct *p, struct lb_env *env)
{
	s64 since;

	lockdep_assert_rq_held(env->src_rq);
	if (p->sched_class != &fair_sched_class)
		return 0;
	if (unlikely(p->policy == SCHED_IDLE))
		return 0;
	/* A buddy is about to run here: as good as hot (CACHE_HOT_BUDDY). */
	if (env->dst_rq->nr_running &&
	    (&p->se == env->src_rq->cfs.next || &p->se == env->src_rq->cfs.last))
		return 1;
	if (sysctl_sched_migration_cost == (unsigned int)-1)
		return 1;
	if (sysctl_sched_migration_cost == 0)
		return 0;
	since = env->src_rq->clock_task - p->se.exec_start;
	return since < (s64)sysctl_sched_migration_cost;
}

/*
 * May @p leave env->src_rq (locked) for env->dst_cpu in this pass?  Not
 * if it may not run there, not while it runs, and not while cache-hot
 * unless more than cache_nice_tries periodic passes in a row moved nothing.
 */
static int can_migrate_task(struct task_struct *p, struct lb_env *env)
{
	int hot;

	lockdep_assert_rq_held(env->src_rq);
	if (!cpumask_test_cpu(env->dst_cpu, p->cpus_ptr)) {	/* not allowed there */
		/* Our group is this CPU alone: no other dst to try (LBF_DST_PINNED). */
		env->flags |= LBF_SOME_PINNED;
		return 0;
	}
	env->flags &= ~LBF_ALL_PINNED;
	if (task_running(env->src_rq, p))
		return 0;
	hot = task_hot(p, env);
	if (hot && env->sd->nr_balance_failed <= env->sd->cache_nice_tries) {
		p->se.statistics.nr_failed_migrations_hot++;
		return 0;
	}
	if (hot) {
		env->sd->lb_hot_gained[env->idle]++;
		p->se.statistics.nr_forced_migrations++;
	}
	return 1;
}

/* Off src_rq and onto dst_cpu's books; TASK_ON_RQ_MIGRATING until attached. */
static void
detach_task(struct task_struct *p, struct lb_env *env)
{
	lockdep_assert_rq_held(env->src_rq);
	deactivate_task(env->src_rq, p, DEQUEUE_NOCLOCK);	/* TASK_ON_RQ_MIGRATING */
	set_task_cpu(p, env->dst_cpu);
}

/*
 * Detach up to env->imbalance tasks from src_rq (locked) onto env->tasks,
 * least recently run first.  Every task looked at counts, whether it
 * moves or not: past loop_max the pass is over, past loop_break this lock
 * hold is (LBF_NEED_BREAK).  A task that may not move goes to the head,
 * out of the way.
 */
static int detach_tasks(struct lb_env *env)
{
	struct rq *src = env->src_rq;
	struct list_head *queue = &src->cfs_tasks;
	int detached = 0;

	lockdep_assert_rq_held(src);
	if (src->nr_running <= 1) {
		/* Emptied since we looked: nothing was found pinned either. */
		env->flags &= ~LBF_ALL_PINNED;
		return 0;
	}
	while (env->imbalance > 0 && !list_empty(queue)) {
		struct task_struct *p;

		/* An idle puller leaves busiest something to run. */
		if (env->idle != CPU_NOT_IDLE && src->nr_running <= 1)
			break;
		if (++env->loop > env->loop_max)
			break;		/* as many looked at as one pass may */
		if (env->loop > env->loop_break) {
			/* long enough under this lock: the caller lets go, then resumes */
			env->flags |= LBF_NEED_BREAK;
			env->loop_break += sched_nr_migrate_break;
			break;
		}
		p = list_last_entry(queue, struct task_struct, se.group_node);
		if (!can_migrate_task(p, env)) {
			list_move(&p->se.group_node, queue);
			continue;
		}
		detach_task(p, env);
		list_add(&p->se.group_node, &env->tasks);
		env->imbalance--;
		detached++;
		/* With preemption a CPU going idle should not wait for more than one. */
		if (IS_ENABLED(CONFIG_PREEMPTION) && env->idle == CPU_NEWLY_IDLE)
			break;
	}
	env->sd->lb_gained[env->idle] += detached;
	return detached;
}

/* Queue @p on @rq (locked), where detach_task() sent it. */
static void
attach_task(struct rq *rq, struct task_struct *p)
{
	lockdep_assert_rq_held(rq);
	BUG_ON(task_cpu(p) != rq->cpu);
	activate_task(rq, p, ENQUEUE_NOCLOCK);
	check_preempt_curr(rq, p, 0);
}

/* Enqueue what detach_tasks() took, under dst_rq's lock alone. */
static void attach_tasks(struct lb_env *env)
{
	struct rq *dst = env->dst_rq;

	raw_spin_rq_lock(dst);
	update_rq_clock(dst);
	while (!list_empty(&env->tasks)) {
		struct task_struct *p = list_first_entry(&env->tasks, struct task_struct,
							 se.group_node);

		list_del_init(&p->se.group_node);
		attach_task(dst, p);
	}
	raw_spin_rq_unlock(dst);
}

/*
 * find_busiest_group() and find_busiest_queue() for one-CPU groups: the
 * CPU in env->cpus with the most fair tasks, if half the difference to
 * ours is at least one task; that half is env->imbalance.
 */
static struct rq *find_busiest_queue(struct lb_env *env)
{
	unsigned int local = READ_ONCE(env->dst_rq->cfs.nr_running), most = 0;
	struct rq *busiest = NULL;
	int cpu;

	for_each_cpu(cpu, env->cpus) {
		unsigned int nr = READ_ONCE(cpu_rq(cpu)->cfs.nr_running);

		if (cpu != env->dst_cpu && nr > most) {
			most = nr;
			busiest = cpu_rq(cpu);
		}
	}
	if (!busiest || most <= local)
		return NULL;
	env->imbalance = (most - local) / 2;
	return env->imbalance > 0 ? busiest : NULL;
}

/*
 * One balancing pass of @sd towards this_cpu; returns the number of tasks
 * pulled.  Interrupts are off only while an rq lock is held (newidle
 * callers have them off throughout).
 */
static int load_balance(int this_cpu, struct rq *this_rq, struct sched_domain *sd,
			enum cpu_idle_type idle)
{
	cpumask_t cpus;		/* Linux: per-CPU load_balance_mask */
	struct lb_env env = {
		.sd = sd,
		.dst_cpu = this_cpu,
		.dst_rq = this_rq,
		.idle = idle,
		.loop_break = sched_nr_migrate_break,
		.cpus = &cpus,
		.tasks = LIST_HEAD_INIT(env.tasks),
	};
	int ld_moved = 0, batch;
	unsigned long flags;
	struct rq *busiest;

	if (in_hardirq())
		sd->lb_hardirq++;
	cpumask_copy(&cpus, cpu_online_mask);
	sd->lb_count[idle]++;
redo:
	busiest = find_busiest_queue(&env);
	if (!busiest)
		goto out_balanced;
	env.src_cpu = busiest->cpu;
	env.src_rq = busiest;
	ld_moved = 0;
	env.flags |= LBF_ALL_PINNED;	/* until a task that may come here is seen */
	if (busiest->nr_running > 1) {
		env.loop_max = min(busiest->nr_running, sysctl_sched_nr_migrate);
		/* One batch per hold of busiest's lock, until detach_tasks() is done. */
		do {
			env.flags &= ~LBF_NEED_BREAK;
			raw_spin_rq_lock_irqsave(busiest, flags);
			update_rq_clock(busiest);
			batch = detach_tasks(&env);
			/*
			 * The detached tasks are TASK_ON_RQ_MIGRATING: __task_rq_lock()
			 * users wait for them, so busiest's lock can go before ours is
			 * taken.  Never both at once.
			 */
			raw_spin_rq_unlock(busiest);
			if (batch) {
				attach_tasks(&env);
				ld_moved += batch;
			}
			if ((unsigned int)batch > sd->lb_max_batch)
				sd->lb_max_batch = batch;
			local_irq_restore(flags);
		} while (env.flags & LBF_NEED_BREAK);
		if (unlikely(env.flags & LBF_ALL_PINNED)) {
			/* Nothing on busiest may come here: try the next busiest. */
			cpumask_clear_cpu(busiest->cpu, &cpus);
			cpumask_clear_cpu(this_cpu, &cpus);
			if (cpumask_weight(&cpus)) {
				env.loop = 0;
				env.loop_break = sched_nr_migrate_break;
				goto redo;
			}
			goto out_all_pinned;
		}
	}
	if (!ld_moved) {
		sd->lb_failed[idle]++;
		/* Newidle passes are frequent: only periodic ones make hot tasks fair game. */
		if (idle != CPU_NEWLY_IDLE)
			sd->nr_balance_failed++;
	} else {
		sd->nr_balance_failed = 0;
	}
	sd->balance_interval = sd->min_interval;	/* unbalanced: look again soon */
	goto out;

out_balanced:
out_all_pinned:
	sd->lb_balanced[idle]++;
	sd->nr_balance_failed = 0;
	ld_moved = 0;
	/* Newidle ignores the interval: backing it off there would run away. */
	if (idle == CPU_NEWLY_IDLE)
		goto out;
	if (((env.flags & LBF_ALL_PINNED) && sd->balance_interval < MAX_PINNED_INTERVAL) ||
	    sd->balance_interval < sd->max_interval)
		sd->balance_interval *= 2;
out:
	if ((unsigned int)ld_moved > sd->lb_max_gained)
		sd->lb_max_gained = ld_moved;
	return ld_moved;
}

/* Jiffies between periodic passes: balance_interval ms, longer when busy. */
static unsigned long get_sd_balance_interval(struct sched_domain *sd, int cpu_busy)
{
	unsigned int ms = sd->balance_interval * (cpu_busy ? sd->busy_factor : 1);
	/* Busy: one jiffy short, so that levels' periods are not multiples (Linux). */
	unsigned long interval = msecs_to_jiffies(ms) - (cpu_busy ? 1 : 0);

	return clamp(interval, 1UL, max_load_balance_interval);
}

static void
rebalance_domains(struct rq *rq, enum cpu_idle_type idle)
{
	struct sched_domain *sd = &rq->sd;
	int busy = idle != CPU_IDLE;
	unsigned long interval;

	if (!READ_ONCE(sd->span_weight))
		return;
	interval = get_sd_balance_interval(sd, busy);
	if (time_before_eq(sd->last_balance + interval, jiffies)) {
		if (load_balance(rq->cpu, rq, sd, idle)) {
			idle = idle_cpu(rq->cpu) ? CPU_IDLE : CPU_NOT_IDLE;
			busy = idle != CPU_IDLE;
		}
		sd->last_balance = jiffies;
		interval = get_sd_balance_interval(sd, busy);
	}
	rq->next_balance = sd->last_balance + interval;
}

/* SCHED_SOFTIRQ: the periodic pass the tick asked for. */
static void run_rebalance_domains(struct softirq_action *h)
{
	struct rq *this_rq = this_rq();

	rebalance_domains(this_rq, this_rq->idle_balance ? CPU_IDLE : CPU_NOT_IDLE);
}

/* From the tick (hard IRQ): only ask for a pass once one is due. */
void trigger_load_balance(struct rq *rq)
{
	if (unlikely(!READ_ONCE(rq->sd.span_weight) || !rq->online))
		return;
	if (time_after_eq(jiffies, rq->next_balance))
		raise_softirq(SCHED_SOFTIRQ);
}

/*
 * This CPU is about to go idle: pull now rather than at its next tick.
 * From pick_next_task() with our rq locked and interrupts off.  The rq
 * lock is dropped for the pass, as in Linux, so that the pass holds one
 * rq lock at a time; prev is still curr and on_cpu, so nothing moves it,
 * and interrupts stay off so nothing else schedules here.  Returns > 0
 * with fair work queued here, < 0 if a higher class has work, 0 to idle.
 */
static int newidle_balance(struct rq *this_rq)
{
	struct sched_domain *sd = &this_rq->sd;
	unsigned long next_balance = jiffies + HZ, next;
	int pulled_task = 0;

	/* A wakeup is already on its way here. */
	if (!llist_empty(&this_rq->wake_list))
		return 0;
	if (!this_rq->online || !READ_ONCE(sd->span_weight))
		return 0;
	raw_spin_rq_unlock(this_rq);
	pulled_task = load_balance(this_rq->cpu, this_rq, sd, CPU_NEWLY_IDLE);
	next = sd->last_balance + get_sd_balance_interval(sd, 0);
	if (time_after(next_balance, next))
		next_balance = next;
	raw_spin_rq_lock(this_rq);
	/* Work may have been queued here while the lock was down. */
	if (this_rq->cfs.nr_running && !pulled_task)
		pulled_task = 1;
	if (this_rq->nr_running != this_rq->cfs.nr_running)
		pulled_task = -1;
	if (time_before(next_balance, this_rq->next_balance))
		this_rq->next_balance = next_balance;
	return pulled_task;
}

/* Nothing fair or better is queued: try to pull before going idle. */
static int balance_fair(struct rq *rq, struct task_struct *prev)
{
	if (rq->nr_running)
		return 1;
	return newidle_balance(rq) != 0;
}

/*
 * The domain, once the CPUs are up (Linux's sd_init() for an MC level):
 * intervals in ms scale with its weight, cache-hot tasks wait one failed
 * pass.  One CPU has no domain, hence no balancing, as in Linux.
 */
void sched_init_domains(void)
{
	unsigned int weight = num_online_cpus();
	int cpu;

	if (weight < 2)
		return;
	max_load_balance_interval = HZ * weight / 10;
	for_each_online_cpu(cpu) {
		struct sched_domain *sd = &cpu_rq(cpu)->sd;

		sd->min_interval = weight;
		sd->max_interval = 2 * weight;
		sd->balance_interval = weight;
		sd->busy_factor = 16;
		sd->cache_nice_tries = 1;
		sd->last_balance = jiffies;
		smp_store_release(&sd->span_weight, weight);
	}
}

void init_sched_fair_class(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		INIT_LIST_HEAD(&cpu_rq(cpu)->cfs_tasks);
	open_softirq(SCHED_SOFTIRQ, run_rebalance_domains);	/* the periodic pass */
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
