// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_DEADLINE: earliest deadline first over a constant bandwidth server
 * per task, Linux 5.15's semantics.  Each CPU queues its runnable deadline
 * entities in an rbtree ordered by absolute deadline and runs the leftmost.
 * A running entity is charged its execution time; one that exhausts its
 * runtime (or yields) is throttled: taken off the tree until the dl_timer
 * fires at the start of its next period and replenishes it.  A waking
 * entity keeps its deadline and runtime only if running out the rest of
 * the runtime by that deadline stays within its bandwidth; otherwise it
 * gets a fresh budget and deadline (the CBS wakeup rule), or, with a
 * constrained deadline (deadline < period), a runtime scaled down to the
 * time left (the revised wakeup rule).
 *
 * Across CPUs (global EDF, Linux's push/pull): every CPU's earliest
 * deadline is kept in the cpudl max-heap (cpudeadline.c), and every
 * queued deadline task that may run elsewhere and is not running in a
 * second rbtree, pushable_dl_tasks.  A waking task that would not preempt
 * here goes to a CPU with no deadline work, or to the one whose earliest
 * deadline is latest if it preempts there (find_later_rq()); a CPU with
 * more than one deadline task, one of them movable, is overloaded
 * (dlo_mask) and pushes its pushable tasks to such CPUs after its rq lock
 * is dropped; a CPU whose deadline task stops running pulls the earliest
 * pushable task of an overloaded CPU that would run here at once.
 *
 * Bandwidth tracking (GRUB, as Linux 5.15): besides the admission total,
 * each CPU keeps this_bw, the bandwidth of the deadline tasks assigned to
 * it, and running_bw, the part of it that is active: runnable tasks and
 * blocked ones whose 0-lag time has not come yet (see task_non_contending()).
 * Tasks with SCHED_FLAG_RECLAIM have their runtime charged at a rate that
 * lets them use bandwidth nobody else reserved or is using (grub_reclaim()).
 *
 * Parameters and admission control are in deadline_param.c.
 */
#include "sched.h"
#include "cpudeadline.h"
#include <linux/smp.h>
#include <linux/percpu.h>
#include <linux/sched/task.h>
#include <limits.h>

/*
 * irqlab has one root domain, every online CPU, so the root domain's
 * deadline state (Linux's rd->dlo_mask, rd->dlo_count, rd->cpudl) is
 * global here.
 */
static struct cpumask dlo_mask;		/* CPUs overloaded with deadline tasks */
static atomic_t dlo_count;
static struct cpudl def_cpudl;
static DEFINE_PER_CPU(struct cpumask, local_cpu_mask_dl);

static inline struct task_struct *dl_task_of(struct sched_dl_entity *dl_se)
{
	return container_of(dl_se, struct task_struct, dl);
}

static inline struct rq *rq_of_dl_se(struct sched_dl_entity *dl_se)
{
	return task_rq(dl_task_of(dl_se));
}

static inline struct rq *rq_of_dl_rq(struct dl_rq *dl_rq)
{
	return container_of(dl_rq, struct rq, dl);
}

static inline struct dl_rq *dl_rq_of_se(struct sched_dl_entity *dl_se)
{
	return &rq_of_dl_se(dl_se)->dl;
}

static inline u64 rq_clock(struct rq *rq)
{
	return rq->clock;
}

static inline u64 rq_clock_task(struct rq *rq)
{
	return rq->clock_task;
}

static inline struct sched_dl_entity *pi_of(struct sched_dl_entity *dl_se)
{
	return dl_se->pi_se;
}

static inline bool is_dl_boosted(struct sched_dl_entity *dl_se)
{
	return pi_of(dl_se) != dl_se;
}

static inline bool on_dl_rq(struct sched_dl_entity *dl_se)
{
	return !RB_EMPTY_NODE(&dl_se->rb_node);
}

static inline bool dl_is_implicit(struct sched_dl_entity *dl_se)
{
	return dl_se->dl_deadline == dl_se->dl_period;
}

/* The start of the period after the current one. */
static inline u64 dl_next_period(struct sched_dl_entity *dl_se)
{
	return dl_se->deadline - dl_se->dl_deadline + dl_se->dl_period;
}

static inline bool dl_entity_preempt(struct sched_dl_entity *a, struct sched_dl_entity *b)
{
	return dl_time_before(a->deadline, b->deadline);
}

/* --- active utilisation (GRUB) ----------------------------------------- */

static inline void __add_running_bw(u64 dl_bw, struct dl_rq *dl_rq)
{
	u64 old = dl_rq->running_bw;

	lockdep_assert_rq_held(rq_of_dl_rq(dl_rq));
	dl_rq->running_bw += dl_bw;
	WARN_ON_ONCE(dl_rq->running_bw < old);		/* wrapped */
	WARN_ON_ONCE(dl_rq->running_bw > dl_rq->this_bw);
}

static inline void __sub_running_bw(u64 dl_bw, struct dl_rq *dl_rq)
{
	u64 old = dl_rq->running_bw;

	lockdep_assert_rq_held(rq_of_dl_rq(dl_rq));
	dl_rq->running_bw -= dl_bw;
	/* Below zero means a bug in the state machine; do not let it wrap. */
	if (WARN_ON_ONCE(dl_rq->running_bw > old))
		dl_rq->running_bw = 0;
}

static inline void __add_rq_bw(u64 dl_bw, struct dl_rq *dl_rq)
{
	u64 old = dl_rq->this_bw;

	lockdep_assert_rq_held(rq_of_dl_rq(dl_rq));
	dl_rq->this_bw += dl_bw;
	WARN_ON_ONCE(dl_rq->this_bw < old);
}

static inline void __sub_rq_bw(u64 dl_bw, struct dl_rq *dl_rq)
{
	u64 old = dl_rq->this_bw;

	lockdep_assert_rq_held(rq_of_dl_rq(dl_rq));
	dl_rq->this_bw -= dl_bw;
	if (WARN_ON_ONCE(dl_rq->this_bw > old))
		dl_rq->this_bw = 0;
	WARN_ON_ONCE(dl_rq->running_bw > dl_rq->this_bw);
}

/*
 * Linux skips the schedutil worker's special entity here; irqlab has
 * none, so these only name what moves.
 */
static inline void add_rq_bw(struct sched_dl_entity *dl_se, struct dl_rq *dl_rq)
{
	__add_rq_bw(dl_se->dl_bw, dl_rq);
}

static inline void sub_rq_bw(struct sched_dl_entity *dl_se, struct dl_rq *dl_rq)
{
	__sub_rq_bw(dl_se->dl_bw, dl_rq);
}

static inline void add_running_bw(struct sched_dl_entity *dl_se, struct dl_rq *dl_rq)
{
	__add_running_bw(dl_se->dl_bw, dl_rq);
}

static inline void sub_running_bw(struct sched_dl_entity *dl_se, struct dl_rq *dl_rq)
{
	__sub_running_bw(dl_se->dl_bw, dl_rq);
}

/*
 * sched_dl_overflow() accepted new parameters for a deadline task that
 * is not queued (a queued one is dequeued with DEQUEUE_SAVE and requeued
 * with ENQUEUE_RESTORE around the change, which moves its bandwidth).
 * A blocked task still counted as active stops being so: its 0-lag time
 * was computed from the old parameters.  Both locks of @p held.
 */
void dl_change_utilization(struct task_struct *p, u64 new_bw)
{
	struct rq *rq;

	if (task_on_rq_queued(p))
		return;
	rq = task_rq(p);
	if (p->dl.dl_non_contending) {
		sub_running_bw(&p->dl, &rq->dl);
		p->dl.dl_non_contending = 0;
		/*
		 * A handler already running (waiting for our rq lock) finds
		 * dl_non_contending clear and leaves running_bw alone.
		 */
		if (hrtimer_try_to_cancel(&p->dl.inactive_timer) == 1)
			put_task_struct(p);
	}
	__sub_rq_bw(p->dl.dl_bw, &rq->dl);
	__add_rq_bw(new_bw, &rq->dl);
}

/*
 * Active, non contending and inactive (GRUB's task states, Linux's state
 * machine):
 *
 *   ACTIVE contending      runnable; its dl_bw is in running_bw
 *   ACTIVE non contending  blocked before its 0-lag time: still in
 *                          running_bw, dl_non_contending set, the
 *                          inactive timer armed for the 0-lag time
 *   INACTIVE               blocked past its 0-lag time: not in running_bw
 *
 *   contending --block, t < 0-lag--> non contending --timer--> INACTIVE
 *   contending --block, t >= 0-lag--------------------------> INACTIVE
 *   non contending --wakeup (timer cancelled)--> contending
 *   INACTIVE --wakeup (add_running_bw)--> contending
 *
 * The 0-lag time is when a task that ran at exactly its reserved rate
 * would have used up what it has left: deadline - runtime * period /
 * dl_runtime.  Blocking earlier and coming back before then may not let
 * its bandwidth be given away meanwhile, or the CBS guarantee that its
 * remaining runtime fits by its deadline would no longer hold.
 *
 * task_non_contending() is called when @p blocks (and when it dies, or
 * leaves the class while queued: the same transition as far as GRUB
 * cares); a task that is no longer a deadline task, or is dead, also
 * gives its bandwidth back to admission control at the 0-lag time.
 */
static void task_non_contending(struct task_struct *p)
{
	struct sched_dl_entity *dl_se = &p->dl;
	struct hrtimer *timer = &dl_se->inactive_timer;
	struct dl_rq *dl_rq = dl_rq_of_se(dl_se);
	struct rq *rq = rq_of_dl_rq(dl_rq);
	s64 zerolag_time;

	/* A boosted task of another class: it has no bandwidth of its own. */
	if (dl_se->dl_runtime == 0)
		return;
	WARN_ON(dl_se->dl_non_contending);
	zerolag_time = dl_se->deadline -
		       (dl_se->runtime * (s64)dl_se->dl_period) / (s64)dl_se->dl_runtime;
	/* Relative to now: the timer is relative, and the test below simpler. */
	zerolag_time -= rq_clock(rq);

	/*
	 * Already past it (or the timer is still running, about to find
	 * dl_non_contending clear): inactive now.
	 */
	if (zerolag_time < 0 || hrtimer_active(timer)) {
		if (dl_task(p))
			sub_running_bw(dl_se, dl_rq);
		if (!dl_task(p) || READ_ONCE(p->__state) == TASK_DEAD) {
			struct dl_bw *dl_b = dl_bw_of(task_cpu(p));

			if (READ_ONCE(p->__state) == TASK_DEAD)
				sub_rq_bw(dl_se, dl_rq);
			raw_spin_lock(&dl_b->lock);
			__dl_sub(dl_b, dl_se->dl_bw, dl_bw_cpus(task_cpu(p)));
			__dl_clear_params(p);
			raw_spin_unlock(&dl_b->lock);
		}
		return;
	}
	dl_se->dl_non_contending = 1;
	get_task_struct(p);		/* the timer's; it may outlive the task's exit */
	hrtimer_start(timer, ns_to_ktime(zerolag_time), HRTIMER_MODE_REL_HARD);
}

/* @dl_se wakes up (or arrives on a new CPU while waking). */
static void task_contending(struct sched_dl_entity *dl_se, int flags)
{
	struct dl_rq *dl_rq = dl_rq_of_se(dl_se);

	if (dl_se->dl_runtime == 0)
		return;
	/* migrate_task_rq_dl() took it off the CPU it left. */
	if (flags & ENQUEUE_MIGRATED)
		add_rq_bw(dl_se, dl_rq);
	if (dl_se->dl_non_contending) {
		/* Back before its 0-lag time: it never stopped counting. */
		dl_se->dl_non_contending = 0;
		if (hrtimer_try_to_cancel(&dl_se->inactive_timer) == 1)
			put_task_struct(dl_task_of(dl_se));
	} else {
		/* Inactive (or new): count it again. */
		add_running_bw(dl_se, dl_rq);
	}
}

void init_dl_rq(struct dl_rq *dl_rq)
{
	dl_rq->root = RB_ROOT_CACHED;
	dl_rq->pushable_dl_tasks_root = RB_ROOT_CACHED;
	dl_rq->earliest_dl.curr = dl_rq->earliest_dl.next = 0;	/* 0: none */
	dl_rq->dl_nr_migratory = 0;
	dl_rq->overloaded = 0;
	dl_rq->running_bw = 0;
	dl_rq->this_bw = 0;
	init_dl_rq_bw_ratio(dl_rq);
}

void init_sched_dl_class(void)
{
	cpudl_init(&def_cpudl);
}

static struct sched_dl_entity *dl_first(struct dl_rq *dl_rq)
{
	struct rb_node *left = rb_first_cached(&dl_rq->root);

	return left ? rb_entry(left, struct sched_dl_entity, rb_node) : NULL;
}

static inline bool is_leftmost(struct task_struct *p, struct dl_rq *dl_rq)
{
	return rb_first_cached(&dl_rq->root) == &p->dl.rb_node;
}

/* --- overload, migratory count, pushable tree, earliest deadlines --- */

static inline int dl_overloaded(struct rq *rq)
{
	return atomic_read(&dlo_count);
}

static void dl_set_overload(struct rq *rq)
{
	if (!rq->online)
		return;
	cpumask_set_cpu(rq->cpu, &dlo_mask);
	/* A puller that sees the count must see the mask bit (pull_dl_task()). */
	smp_wmb();
	atomic_inc(&dlo_count);
}

static void dl_clear_overload(struct rq *rq)
{
	if (!rq->online)
		return;
	atomic_dec(&dlo_count);
	cpumask_clear_cpu(rq->cpu, &dlo_mask);
}

/* Overloaded: more than one deadline task queued, at least one may move. */
static void update_dl_migration(struct rq *rq)
{
	struct dl_rq *dl_rq = &rq->dl;

	if (dl_rq->dl_nr_migratory && dl_rq->dl_nr_running > 1) {
		if (!dl_rq->overloaded) {
			dl_set_overload(rq);
			dl_rq->overloaded = 1;
		}
	} else if (dl_rq->overloaded) {
		dl_clear_overload(rq);
		dl_rq->overloaded = 0;
	}
}

/*
 * Counted by nr_cpus_allowed alone, as Linux does: it changes only while
 * the task is dequeued (__do_set_cpus_allowed()), so the count cannot
 * drift; migrate_disable() is checked where tasks are picked to move.
 */
static void inc_dl_migration(struct task_struct *p, struct rq *rq)
{
	if (p->nr_cpus_allowed > 1)
		rq->dl.dl_nr_migratory++;
	update_dl_migration(rq);
}

static void dec_dl_migration(struct task_struct *p, struct rq *rq)
{
	if (p->nr_cpus_allowed > 1)
		rq->dl.dl_nr_migratory--;
	update_dl_migration(rq);
}

#define __node_2_pdl(node) rb_entry((node), struct task_struct, pushable_dl_tasks)

static bool __pushable_less(struct rb_node *a, const struct rb_node *b)
{
	return dl_entity_preempt(&__node_2_pdl(a)->dl, &__node_2_pdl(b)->dl);
}

/* Queued, not running, may move: a candidate for push and pull. */
static void enqueue_pushable_dl_task(struct rq *rq, struct task_struct *p)
{
	WARN_ON_ONCE(!RB_EMPTY_NODE(&p->pushable_dl_tasks));
	rb_add_cached(&p->pushable_dl_tasks, &rq->dl.pushable_dl_tasks_root, __pushable_less);
	if (rb_first_cached(&rq->dl.pushable_dl_tasks_root) == &p->pushable_dl_tasks)
		rq->dl.earliest_dl.next = p->dl.deadline;
}

static void dequeue_pushable_dl_task(struct rq *rq, struct task_struct *p)
{
	struct rb_root_cached *root = &rq->dl.pushable_dl_tasks_root;

	if (RB_EMPTY_NODE(&p->pushable_dl_tasks))
		return;
	if (rb_first_cached(root) == &p->pushable_dl_tasks) {
		struct rb_node *next = rb_next(&p->pushable_dl_tasks);

		/* Linux keeps the old value when the tree empties; so do we. */
		if (next)
			rq->dl.earliest_dl.next = __node_2_pdl(next)->dl.deadline;
	}
	rb_erase_cached(&p->pushable_dl_tasks, root);
	RB_CLEAR_NODE(&p->pushable_dl_tasks);
}

static inline bool has_pushable_dl_tasks(struct rq *rq)
{
	return !RB_EMPTY_ROOT(&rq->dl.pushable_dl_tasks_root.rb_root);
}

/* The earliest deadline queued here, as the rest of the system sees it. */
static void inc_dl_deadline(struct rq *rq, u64 deadline)
{
	struct dl_rq *dl_rq = &rq->dl;

	if (dl_rq->earliest_dl.curr == 0 || dl_time_before(deadline, dl_rq->earliest_dl.curr)) {
		WRITE_ONCE(dl_rq->earliest_dl.curr, deadline);
		cpudl_set(&def_cpudl, rq->cpu, deadline);
	}
}

static void dec_dl_deadline(struct rq *rq)
{
	struct dl_rq *dl_rq = &rq->dl;
	struct sched_dl_entity *first = dl_first(dl_rq);

	if (!dl_rq->dl_nr_running) {
		WRITE_ONCE(dl_rq->earliest_dl.curr, 0);
		dl_rq->earliest_dl.next = 0;
		cpudl_clear(&def_cpudl, rq->cpu);
	} else {
		WRITE_ONCE(dl_rq->earliest_dl.curr, first->deadline);
		cpudl_set(&def_cpudl, rq->cpu, first->deadline);
	}
}

static bool __dl_less(struct rb_node *a, const struct rb_node *b)
{
	return dl_time_before(rb_entry(a, struct sched_dl_entity, rb_node)->deadline,
			      rb_entry(b, struct sched_dl_entity, rb_node)->deadline);
}

static void __enqueue_dl_entity(struct sched_dl_entity *dl_se)
{
	struct task_struct *p = dl_task_of(dl_se);
	struct rq *rq = task_rq(p);

	WARN_ON_ONCE(on_dl_rq(dl_se));
	rb_add_cached(&dl_se->rb_node, &rq->dl.root, __dl_less);
	rq->dl.dl_nr_running++;
	rq->nr_running++;
	inc_dl_deadline(rq, dl_se->deadline);
	inc_dl_migration(p, rq);
}

static void __dequeue_dl_entity(struct sched_dl_entity *dl_se)
{
	struct task_struct *p = dl_task_of(dl_se);
	struct rq *rq = task_rq(p);

	if (!on_dl_rq(dl_se))
		return;		/* throttled: already off the tree */
	rb_erase_cached(&dl_se->rb_node, &rq->dl.root);
	RB_CLEAR_NODE(&dl_se->rb_node);
	rq->dl.dl_nr_running--;
	rq->nr_running--;
	dec_dl_deadline(rq);
	dec_dl_migration(p, rq);
}

/* A new instance: the first budget, due one relative deadline from now. */
static void setup_new_dl_entity(struct sched_dl_entity *dl_se)
{
	struct rq *rq = rq_of_dl_se(dl_se);

	dl_se->deadline = rq_clock(rq) + dl_se->dl_deadline;
	dl_se->runtime = dl_se->dl_runtime;
}

/*
 * Refill a throttled (or yielded) entity: whole periods forward until it
 * has runtime again.  An entity so far behind that its new deadline is
 * already past starts over from now instead of running with a deadline
 * it can never meet.
 */
static void replenish_dl_entity(struct sched_dl_entity *dl_se)
{
	struct rq *rq = rq_of_dl_se(dl_se);

	BUG_ON(!pi_of(dl_se)->dl_runtime);
	/* Never had parameters of its own: a boosted non-deadline task. */
	if (dl_se->dl_deadline == 0) {
		dl_se->deadline = rq_clock(rq) + pi_of(dl_se)->dl_deadline;
		dl_se->runtime = pi_of(dl_se)->dl_runtime;
	}
	/* A yield gives the rest of this instance's budget away. */
	if (dl_se->dl_yielded && dl_se->runtime > 0)
		dl_se->runtime = 0;
	while (dl_se->runtime <= 0) {
		dl_se->deadline += pi_of(dl_se)->dl_period;
		dl_se->runtime += pi_of(dl_se)->dl_runtime;
	}
	if (dl_time_before(dl_se->deadline, rq_clock(rq))) {
		dl_se->deadline = rq_clock(rq) + pi_of(dl_se)->dl_deadline;
		dl_se->runtime = pi_of(dl_se)->dl_runtime;
	}
	dl_se->dl_yielded = 0;
	dl_se->dl_throttled = 0;
}

/*
 * Would running out the remaining runtime before the current deadline,
 * starting at @t, use more than the reserved bandwidth?
 *
 *	runtime / (deadline - t) > dl_runtime / dl_deadline
 *
 * cross-multiplied, every term relative and scaled down by DL_SCALE (1 us
 * granularity, plenty for a yes/no answer) so the products cannot wrap.
 */
static bool dl_entity_overflow(struct sched_dl_entity *dl_se, u64 t)
{
	u64 left, right;

	left = (pi_of(dl_se)->dl_deadline >> DL_SCALE) * (dl_se->runtime >> DL_SCALE);
	right = ((dl_se->deadline - t) >> DL_SCALE) * (pi_of(dl_se)->dl_runtime >> DL_SCALE);
	return dl_time_before(right, left);
}

/*
 * Revised wakeup rule for constrained deadlines: a fresh deadline one
 * relative deadline from now could start a second instance inside the
 * current period and exceed the bandwidth dl_runtime / dl_period; keep
 * the deadline and cut the runtime to the density times the time left.
 */
static void update_dl_revised_wakeup(struct sched_dl_entity *dl_se, struct rq *rq)
{
	u64 laxity = dl_se->deadline - rq_clock(rq);

	WARN_ON(dl_time_before(dl_se->deadline, rq_clock(rq)));
	dl_se->runtime = (dl_se->dl_density * laxity) >> BW_SHIFT;
}

/* The CBS wakeup rule. */
static void update_dl_entity(struct sched_dl_entity *dl_se)
{
	struct rq *rq = rq_of_dl_se(dl_se);

	if (dl_time_before(dl_se->deadline, rq_clock(rq)) ||
	    dl_entity_overflow(dl_se, rq_clock(rq))) {
		if (unlikely(!dl_is_implicit(dl_se) &&
			     !dl_time_before(dl_se->deadline, rq_clock(rq)) &&
			     !is_dl_boosted(dl_se))) {
			update_dl_revised_wakeup(dl_se, rq);
			return;
		}
		dl_se->deadline = rq_clock(rq) + pi_of(dl_se)->dl_deadline;
		dl_se->runtime = pi_of(dl_se)->dl_runtime;
	}
}

static enum hrtimer_restart dl_task_timer(struct hrtimer *timer);
static int push_dl_task(struct rq *rq);
static enum hrtimer_restart inactive_task_timer(struct hrtimer *timer);

/*
 * Arm the replenishment for the start of the next period.  The deadline
 * is in rq_clock time and the timer in hrtimer time: shift by their
 * difference now.  Returns 0 if that instant has passed already (the
 * caller replenishes at once).  The timer holds a task reference.
 */
static int start_dl_timer(struct task_struct *p)
{
	struct sched_dl_entity *dl_se = &p->dl;
	struct hrtimer *timer = &dl_se->dl_timer;
	struct rq *rq = task_rq(p);
	ktime_t now, act;
	s64 delta;

	lockdep_assert_rq_held(rq);
	act = ns_to_ktime(dl_next_period(dl_se));
	now = hrtimer_cb_get_time(timer);
	delta = ktime_to_ns(now) - rq_clock(rq);
	act += delta;
	if (act - now < 0)
		return 0;
	if (!hrtimer_is_queued(timer)) {
		get_task_struct(p);
		hrtimer_start(timer, act, HRTIMER_MODE_ABS_HARD);
	}
	return 1;
}

void init_dl_task(struct task_struct *p)
{
	struct sched_dl_entity *dl_se = &p->dl;

	RB_CLEAR_NODE(&dl_se->rb_node);
	RB_CLEAR_NODE(&p->pushable_dl_tasks);
	dl_se->dl_runtime = dl_se->dl_deadline = dl_se->dl_period = 0;
	dl_se->dl_bw = dl_se->dl_density = 0;
	dl_se->runtime = 0;
	dl_se->deadline = 0;
	dl_se->flags = 0;
	dl_se->dl_throttled = dl_se->dl_yielded = dl_se->dl_non_contending = 0;
	dl_se->dl_overrun = 0;
	dl_se->dl_overrun_count = 0;
	dl_se->pi_se = dl_se;
	hrtimer_init(&dl_se->dl_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	dl_se->dl_timer.function = dl_task_timer;
	hrtimer_init(&dl_se->inactive_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	dl_se->inactive_timer.function = inactive_task_timer;
}

static void cancel_dl_timer(struct task_struct *p)
{
	/* The queued timer's reference goes with it. */
	if (hrtimer_try_to_cancel(&p->dl.dl_timer) == 1)
		put_task_struct(p);
}

static void enqueue_dl_entity(struct sched_dl_entity *dl_se, int flags)
{
	if (flags & ENQUEUE_WAKEUP) {
		task_contending(dl_se, flags);
		update_dl_entity(dl_se);
	} else if (flags & ENQUEUE_REPLENISH)
		replenish_dl_entity(dl_se);
	else if ((flags & ENQUEUE_RESTORE) &&
		 dl_time_before(dl_se->deadline, rq_clock(rq_of_dl_se(dl_se))))
		setup_new_dl_entity(dl_se);
	__enqueue_dl_entity(dl_se);
}

/*
 * A constrained-deadline task woken after its deadline but before its
 * next period would get a fresh instance inside the current period:
 * throttle it until that period starts instead.
 */
static void dl_check_constrained_dl(struct sched_dl_entity *dl_se)
{
	struct task_struct *p = dl_task_of(dl_se);
	struct rq *rq = rq_of_dl_se(dl_se);

	if (dl_time_before(dl_se->deadline, rq_clock(rq)) &&
	    dl_time_before(rq_clock(rq), dl_next_period(dl_se))) {
		if (unlikely(is_dl_boosted(dl_se) || !start_dl_timer(p)))
			return;
		dl_se->dl_throttled = 1;
		if (dl_se->runtime > 0)
			dl_se->runtime = 0;
	}
}

static void enqueue_task_dl(struct rq *rq, struct task_struct *p, int flags)
{
	/* A boosted task runs on its donor's parameters: never throttled. */
	if (is_dl_boosted(&p->dl) && p->dl.dl_throttled) {
		cancel_dl_timer(p);
		p->dl.dl_throttled = 0;
	}
	if (!p->dl.dl_throttled && !dl_is_implicit(&p->dl))
		dl_check_constrained_dl(&p->dl);
	/* Arriving from another CPU, or back after a parameter change. */
	if (p->on_rq == TASK_ON_RQ_MIGRATING || flags & ENQUEUE_RESTORE) {
		add_rq_bw(&p->dl, &rq->dl);
		add_running_bw(&p->dl, &rq->dl);
	}
	/*
	 * Throttled: the dl_timer enqueues it when the period starts.  Its
	 * bandwidth is active all the same (GRUB's states follow the task,
	 * not the tree), so a wakeup counts it now.
	 */
	if (p->dl.dl_throttled && !(flags & ENQUEUE_REPLENISH)) {
		if (flags & ENQUEUE_WAKEUP)
			task_contending(&p->dl, flags);
		return;
	}
	enqueue_dl_entity(&p->dl, flags);
	/* Waiting and free to move: a candidate for push and pull. */
	if (p->nr_cpus_allowed > 1 && !task_current(rq, p))
		enqueue_pushable_dl_task(rq, p);
}

static void update_curr_dl(struct rq *rq);

static void __dequeue_task_dl(struct rq *rq, struct task_struct *p)
{
	__dequeue_dl_entity(&p->dl);
	dequeue_pushable_dl_task(rq, p);
}

static void dequeue_task_dl(struct rq *rq, struct task_struct *p, int flags)
{
	update_curr_dl(rq);
	__dequeue_task_dl(rq, p);
	/* Leaving for another CPU, or for a parameter change (ENQUEUE_RESTORE adds it back). */
	if (p->on_rq == TASK_ON_RQ_MIGRATING || flags & DEQUEUE_SAVE) {
		sub_running_bw(&p->dl, &rq->dl);
		sub_rq_bw(&p->dl, &rq->dl);
	}
	/*
	 * Blocking, or dying (TASK_DEAD): either way, from GRUB's point of
	 * view, it stops contending now and is inactive from its 0-lag time.
	 */
	if (flags & DEQUEUE_SLEEP)
		task_non_contending(p);
}

/*
 * GRUB's accounting rule: a SCHED_FLAG_RECLAIM task's runtime does not go
 * down by the time it ran, dt, but by
 *
 *	max(u / Umax, 1 - Uinact - Uextra) * dt
 *
 * with u its own bandwidth, Umax the share deadline tasks may reserve,
 * Uinact = this_bw - running_bw the bandwidth of tasks here that are
 * inactive, and Uextra the share of the CPU nobody reserved (extra_bw).
 * So it may run on what others reserved and do not use, and on what was
 * never reserved, but never gets less than its own bandwidth scaled to
 * Umax.  Everything is BW_SHIFT fixed point, bw_ratio (1 / Umax)
 * RATIO_SHIFT.  The comparison is made as
 * Uinact + Uextra > 1 - u / Umax because the left side may exceed 1.
 */
static u64 grub_reclaim(u64 delta, struct rq *rq, struct sched_dl_entity *dl_se)
{
	u64 u_inact = rq->dl.this_bw - rq->dl.running_bw;
	u64 u_act_min = (dl_se->dl_bw * rq->dl.bw_ratio) >> RATIO_SHIFT;
	u64 u_act;

	if (u_inact + rq->dl.extra_bw > BW_UNIT - u_act_min)
		u_act = u_act_min;
	else
		u_act = BW_UNIT - u_inact - rq->dl.extra_bw;
	/* delta would need more than 2^36 ns (over a minute) to overflow */
	return (delta * u_act) >> BW_SHIFT;
}

/*
 * The overrun Linux turns into SIGXCPU at the tick (check_dl_overrun()
 * in its posix-cpu-timers): irqlab has no signals, so it is counted in
 * dl_overrun_count at once.
 */
static void check_dl_overrun(struct task_struct *p)
{
	if (p->dl.dl_overrun) {
		p->dl.dl_overrun = 0;
		p->dl.dl_overrun_count++;
	}
}

/*
 * Charge the running entity; throttle it when its budget is gone (or it
 * yielded), until the replenishment at its next period.
 */
static void update_curr_dl(struct rq *rq)
{
	struct task_struct *curr = rq->curr;
	struct sched_dl_entity *dl_se = &curr->dl;
	s64 delta_exec;
	u64 scaled_delta_exec;

	if (!dl_task(curr) || !on_dl_rq(dl_se))
		return;
	delta_exec = rq_clock_task(rq) - curr->se.exec_start;
	if (unlikely(delta_exec <= 0)) {
		if (unlikely(dl_se->dl_yielded))
			goto throttle;
		return;
	}
	curr->se.sum_exec_runtime += delta_exec;
	curr->se.exec_start = rq_clock_task(rq);
	/*
	 * Linux also scales by CPU frequency and capacity; irqlab's CPUs all
	 * run at full capacity, so only GRUB scales the charge.
	 */
	if (unlikely(dl_se->flags & SCHED_FLAG_RECLAIM))
		scaled_delta_exec = grub_reclaim(delta_exec, rq, dl_se);
	else
		scaled_delta_exec = delta_exec;
	dl_se->runtime -= scaled_delta_exec;
throttle:
	if (dl_se->runtime <= 0 || dl_se->dl_yielded) {
		dl_se->dl_throttled = 1;
		/* Asked to hear of overruns (a yield is not one). */
		if (dl_se->runtime <= 0 && (dl_se->flags & SCHED_FLAG_DL_OVERRUN)) {
			dl_se->dl_overrun = 1;
			check_dl_overrun(curr);
		}
		__dequeue_task_dl(rq, curr);
		if (unlikely(is_dl_boosted(dl_se) || !start_dl_timer(curr)))
			enqueue_task_dl(rq, curr, ENQUEUE_REPLENISH);
		if (!is_leftmost(curr, &rq->dl))
			resched_curr(rq);
	}
}

/* The next period started: refill and queue the throttled task again. */
static enum hrtimer_restart dl_task_timer(struct hrtimer *timer)
{
	struct sched_dl_entity *dl_se = container_of(timer, struct sched_dl_entity, dl_timer);
	struct task_struct *p = dl_task_of(dl_se);
	unsigned long flags;
	struct rq *rq;

	rq = task_rq_lock(p, &flags);
	/* Left the class (switched_from_dl()) or boosted meanwhile. */
	if (!dl_task(p) || is_dl_boosted(dl_se) || !dl_se->dl_throttled)
		goto unlock;
	update_rq_clock(rq);
	if (!task_on_rq_queued(p)) {
		/* Asleep: the wakeup rule decides when it wakes. */
		replenish_dl_entity(dl_se);
		goto unlock;
	}
	enqueue_task_dl(rq, p, ENQUEUE_REPLENISH);
	if (dl_task(rq->curr)) {
		if (dl_entity_preempt(dl_se, &rq->curr->dl))
			resched_curr(rq);
	} else {
		resched_curr(rq);
	}
	/*
	 * Queued again behind an earlier one: another CPU may run it now.
	 * Pushed here, under the lock, as Linux does (the lock may be
	 * dropped and taken again on the way, which nothing here minds).
	 */
	if (has_pushable_dl_tasks(rq))
		push_dl_task(rq);
unlock:
	task_rq_unlock(rq, p, flags);
	put_task_struct(p);
	return HRTIMER_NORESTART;
}

/*
 * The 0-lag time of a task that blocked while active: its bandwidth stops
 * counting in running_bw.  If it has left the class meanwhile, or died,
 * its reservation goes back to admission control now too.
 */
static enum hrtimer_restart inactive_task_timer(struct hrtimer *timer)
{
	struct sched_dl_entity *dl_se = container_of(timer, struct sched_dl_entity,
						     inactive_timer);
	struct task_struct *p = dl_task_of(dl_se);
	unsigned long flags;
	struct rq *rq;

	rq = task_rq_lock(p, &flags);
	update_rq_clock(rq);
	if (!dl_task(p) || READ_ONCE(p->__state) == TASK_DEAD) {
		struct dl_bw *dl_b = dl_bw_of(task_cpu(p));

		if (READ_ONCE(p->__state) == TASK_DEAD && dl_se->dl_non_contending) {
			sub_running_bw(dl_se, dl_rq_of_se(dl_se));
			sub_rq_bw(dl_se, dl_rq_of_se(dl_se));
			dl_se->dl_non_contending = 0;
		}
		raw_spin_lock(&dl_b->lock);
		__dl_sub(dl_b, dl_se->dl_bw, dl_bw_cpus(task_cpu(p)));
		raw_spin_unlock(&dl_b->lock);
		__dl_clear_params(p);
		goto unlock;
	}
	/* Woke up (or changed parameters) while this handler waited for the lock. */
	if (dl_se->dl_non_contending == 0)
		goto unlock;
	sub_running_bw(dl_se, &rq->dl);
	dl_se->dl_non_contending = 0;
unlock:
	task_rq_unlock(rq, p, flags);
	/* The reference taken when the timer was armed; may free @p. */
	put_task_struct(p);
	return HRTIMER_NORESTART;
}

static void yield_task_dl(struct rq *rq)
{
	/*
	 * Give up the rest of this instance: throttled until the next
	 * period, where the timer refills it (rt-tests' cyclicdeadline ends
	 * every cycle this way).
	 */
	rq->curr->dl.dl_yielded = 1;
	update_rq_clock(rq);
	update_curr_dl(rq);
}

static void check_preempt_equal_dl(struct rq *rq, struct task_struct *p);

static void check_preempt_curr_dl(struct rq *rq, struct task_struct *p, int flags)
{
	if (dl_entity_preempt(&p->dl, &rq->curr->dl)) {
		resched_curr(rq);
		return;
	}
	/* A tie: prefer the outcome where one of the two can run elsewhere. */
	if (p->dl.deadline == rq->curr->dl.deadline && !test_tsk_need_resched(rq->curr))
		check_preempt_equal_dl(rq, p);
}

static DEFINE_PER_CPU(struct callback_head, dl_push_head);
static DEFINE_PER_CPU(struct callback_head, dl_pull_head);

static void push_dl_tasks(struct rq *rq);
static void pull_dl_task(struct rq *this_rq);

/* Push or pull at the end of this rq lock section (a balance callback). */
static inline void deadline_queue_push_tasks(struct rq *rq)
{
	if (!has_pushable_dl_tasks(rq))
		return;
	queue_balance_callback(rq, &per_cpu(dl_push_head, rq->cpu), push_dl_tasks);
}

static inline void deadline_queue_pull_task(struct rq *rq)
{
	queue_balance_callback(rq, &per_cpu(dl_pull_head, rq->cpu), pull_dl_task);
}

static void set_next_task_dl(struct rq *rq, struct task_struct *p, bool first)
{
	p->se.exec_start = rq_clock_task(rq);
	/* The running task is never pushed away. */
	dequeue_pushable_dl_task(rq, p);
	if (!first)
		return;
	/* Others wait here behind @p: offer them to other CPUs. */
	deadline_queue_push_tasks(rq);
}

static struct task_struct *pick_next_task_dl(struct rq *rq)
{
	struct sched_dl_entity *dl_se = dl_first(&rq->dl);
	struct task_struct *p;

	if (!dl_se)
		return NULL;
	p = dl_task_of(dl_se);
	set_next_task_dl(rq, p, true);
	return p;
}

static void put_prev_task_dl(struct rq *rq, struct task_struct *p)
{
	update_curr_dl(rq);
	/* Preempted, still queued: it may be pushed or pulled from now on. */
	if (on_dl_rq(&p->dl) && p->nr_cpus_allowed > 1)
		enqueue_pushable_dl_task(rq, p);
}

static void task_tick_dl(struct rq *rq, struct task_struct *p, int queued)
{
	update_curr_dl(rq);
}

/* --- SMP: placement, push and pull ---------------------------------- */

/* Only try to find a later rq this many times (Linux's DL_MAX_TRIES). */
#define DL_MAX_TRIES 3

/*
 * Some CPU of @mask, spread over calls from this CPU (Linux's
 * cpumask_any_distribute()), so that several pushes at once do not all
 * pick the lowest-numbered CPU.
 */
static DEFINE_PER_CPU(int, dl_distribute_prev);

static int dl_any_distribute(const struct cpumask *mask)
{
	int prev = this_cpu_read(dl_distribute_prev);
	int next = cpumask_next(prev, mask);

	if (next >= NR_CPUS)
		next = cpumask_first(mask);
	if (next < NR_CPUS)
		this_cpu_write(dl_distribute_prev, next);
	return next;
}

/*
 * Where @task should run now: a CPU with no deadline work, else the CPU
 * whose earliest deadline is latest, if @task preempts it; -1 if none.
 * Of several free CPUs, the one it last ran on (cache hot), else this
 * CPU (no IPI; irqlab has one flat scheduling domain, so Linux's walk up
 * the wake-affine domains ends here), else any.
 */
static int find_later_rq(struct task_struct *task)
{
	struct cpumask *later_mask = this_cpu_ptr(&local_cpu_mask_dl);
	int this_cpu = smp_processor_id();
	int cpu = task_cpu(task);

	if (task->nr_cpus_allowed == 1)
		return -1;
	if (!cpudl_find(&def_cpudl, task, later_mask))
		return -1;
	if (cpumask_test_cpu(cpu, later_mask))
		return cpu;
	if (cpumask_test_cpu(this_cpu, later_mask))
		return this_cpu;
	cpu = dl_any_distribute(later_mask);
	return cpu < NR_CPUS ? cpu : -1;
}

static int select_task_rq_dl(struct task_struct *p, int cpu, int flags)
{
	struct task_struct *curr = READ_ONCE(cpu_rq(cpu)->curr);
	bool select_rq;

	/*
	 * A deadline task runs there that @p would not preempt, or that
	 * cannot move away itself: look elsewhere, if @p may move.  A task
	 * with the earlier deadline stays; it may matter here.
	 */
	select_rq = curr && dl_task(curr) &&
		    (curr->nr_cpus_allowed < 2 || !dl_entity_preempt(&p->dl, &curr->dl)) &&
		    p->nr_cpus_allowed > 1;
	if (select_rq) {
		int target = find_later_rq(p);

		if (target != -1 &&
		    (dl_time_before(p->dl.deadline, READ_ONCE(cpu_rq(target)->dl.earliest_dl.curr)) ||
		     !READ_ONCE(cpu_rq(target)->dl.dl_nr_running)))
			cpu = target;
	}
	return cpu;
}

/*
 * A waking task is moving to @new_cpu (set_task_cpu() from
 * try_to_wake_up(), p->pi_lock held, no rq lock): its bandwidth leaves
 * the CPU it slept on, and enqueue_task_dl() adds it to the new one
 * (task_contending() with ENQUEUE_MIGRATED).  Still active non
 * contending, it stops counting in the old running_bw now: the wakeup
 * makes it contending on the new CPU.  Queued tasks move through
 * dequeue_task_dl()/enqueue_task_dl() with TASK_ON_RQ_MIGRATING instead.
 */
static void migrate_task_rq_dl(struct task_struct *p, int new_cpu)
{
	struct rq *rq;

	if (READ_ONCE(p->__state) != TASK_WAKING)
		return;
	rq = task_rq(p);
	raw_spin_rq_lock(rq);
	if (p->dl.dl_non_contending) {
		update_rq_clock(rq);
		sub_running_bw(&p->dl, &rq->dl);
		p->dl.dl_non_contending = 0;
		/* A handler waiting for the rq lock sees the flag clear and does nothing. */
		if (hrtimer_try_to_cancel(&p->dl.inactive_timer) == 1)
			put_task_struct(p);
	}
	sub_rq_bw(&p->dl, &rq->dl);
	raw_spin_rq_unlock(rq);
}

/*
 * @p and the running task have the same deadline: preempt only if the
 * running task could go elsewhere and @p could not.
 */
static void check_preempt_equal_dl(struct rq *rq, struct task_struct *p)
{
	if (rq->curr->nr_cpus_allowed == 1 || !cpudl_find(&def_cpudl, rq->curr, NULL))
		return;
	if (p->nr_cpus_allowed != 1 && cpudl_find(&def_cpudl, p, NULL))
		return;
	resched_curr(rq);
}

/* Find a CPU for @task and lock its rq with @rq; NULL if none will do. */
static struct rq *find_lock_later_rq(struct task_struct *task, struct rq *rq)
{
	struct rq *later_rq = NULL;

	for (int tries = 0; tries < DL_MAX_TRIES; tries++) {
		int cpu = find_later_rq(task);

		if (cpu == -1 || cpu == rq->cpu)
			break;
		later_rq = cpu_rq(cpu);
		/* Already something as urgent there: trying again will not help. */
		if (later_rq->dl.dl_nr_running &&
		    !dl_time_before(task->dl.deadline, later_rq->dl.earliest_dl.curr)) {
			later_rq = NULL;
			break;
		}
		/* Our lock was dropped on the way: has @task moved or started? */
		if (double_lock_balance(rq, later_rq)) {
			if (unlikely(task_rq(task) != rq ||
				     !cpumask_test_cpu(later_rq->cpu, &task->cpus_mask) ||
				     task_running(rq, task) || !dl_task(task) ||
				     !task_on_rq_queued(task))) {
				double_unlock_balance(rq, later_rq);
				later_rq = NULL;
				break;
			}
		}
		if (!later_rq->dl.dl_nr_running ||
		    dl_time_before(task->dl.deadline, later_rq->dl.earliest_dl.curr))
			break;
		double_unlock_balance(rq, later_rq);
		later_rq = NULL;
	}
	return later_rq;
}

static struct task_struct *pick_next_pushable_dl_task(struct rq *rq)
{
	struct rb_node *left = rb_first_cached(&rq->dl.pushable_dl_tasks_root);
	struct task_struct *p;

	if (!left)
		return NULL;
	p = __node_2_pdl(left);
	WARN_ON_ONCE(task_cpu(p) != rq->cpu || task_current(rq, p) ||
		     p->nr_cpus_allowed <= 1 || !task_on_rq_queued(p) || !dl_task(p));
	return p;
}

/*
 * Send the earliest waiting pushable task of @rq to a CPU where it runs
 * at once.  Called with @rq locked; may drop and retake the lock.
 * Returns 1 if a task moved.
 */
static int push_dl_task(struct rq *rq)
{
	struct task_struct *next_task;
	struct rq *later_rq;
	int ret = 0;

	if (!rq->dl.overloaded)
		return 0;
	next_task = pick_next_pushable_dl_task(rq);
	if (!next_task)
		return 0;
retry:
	if (is_migration_disabled(next_task))
		return 0;
	if (WARN_ON(next_task == rq->curr))
		return 0;
	/* It preempts the running task, which can move: just reschedule here. */
	if (dl_task(rq->curr) && dl_time_before(next_task->dl.deadline, rq->curr->dl.deadline) &&
	    rq->curr->nr_cpus_allowed > 1) {
		resched_curr(rq);
		return 0;
	}
	get_task_struct(next_task);
	later_rq = find_lock_later_rq(next_task, rq);
	if (!later_rq) {
		struct task_struct *task = pick_next_pushable_dl_task(rq);

		/* Still the first: some CPU will pull it when it can. */
		if (task == next_task || !task)
			goto out;
		put_task_struct(next_task);
		next_task = task;
		goto retry;
	}
	update_rq_clock(later_rq);
	move_queued_task_locked(rq, later_rq, next_task);
	resched_curr(later_rq);
	ret = 1;
	double_unlock_balance(rq, later_rq);
out:
	put_task_struct(next_task);
	return ret;
}

static void push_dl_tasks(struct rq *rq)
{
	while (push_dl_task(rq))
		;
}

static int pick_dl_task(struct rq *rq, struct task_struct *p, int cpu)
{
	return !task_running(rq, p) && cpumask_test_cpu(cpu, &p->cpus_mask);
}

/* The earliest pushable task of @rq that may run on @cpu. */
static struct task_struct *pick_earliest_pushable_dl_task(struct rq *rq, int cpu)
{
	struct rb_node *n = rb_first_cached(&rq->dl.pushable_dl_tasks_root);

	for (; n; n = rb_next(n)) {
		struct task_struct *p = __node_2_pdl(n);

		if (pick_dl_task(rq, p, cpu))
			return p;
	}
	return NULL;
}

/*
 * Pull, from the overloaded CPUs, waiting deadline tasks that would run
 * here at once: earlier than anything queued here and than what we
 * pulled already, and not earlier than what runs where they wait (that
 * CPU will run them itself).
 */
static void pull_dl_task(struct rq *this_rq)
{
	int this_cpu = this_rq->cpu, cpu;
	bool resched = false;
	u64 dmin = LONG_MAX;

	if (likely(!dl_overloaded(this_rq)))
		return;
	/* Pairs with dl_set_overload(): the count implies the mask bit. */
	smp_rmb();
	for_each_cpu(cpu, &dlo_mask) {
		struct task_struct *p, *push_task = NULL;
		struct rq *src_rq = cpu_rq(cpu);

		if (cpu == this_cpu)
			continue;
		/* Unlocked, racy peek, as in Linux: a stale answer costs a pull. */
		if (this_rq->dl.dl_nr_running &&
		    dl_time_before(this_rq->dl.earliest_dl.curr, src_rq->dl.earliest_dl.next))
			continue;
		double_lock_balance(this_rq, src_rq);
		if (src_rq->dl.dl_nr_running <= 1)
			goto skip;
		p = pick_earliest_pushable_dl_task(src_rq, this_cpu);
		if (p && dl_time_before(p->dl.deadline, dmin) &&
		    (!this_rq->dl.dl_nr_running ||
		     dl_time_before(p->dl.deadline, this_rq->dl.earliest_dl.curr))) {
			WARN_ON(p == src_rq->curr);
			WARN_ON(!task_on_rq_queued(p));
			if (dl_time_before(p->dl.deadline, src_rq->curr->dl.deadline))
				goto skip;
			/*
			 * Pinned where it waits: have src_rq's stopper push
			 * the running task away so that @p can run there.
			 */
			if (is_migration_disabled(p)) {
				push_task = get_push_task(src_rq);
			} else {
				update_rq_clock(src_rq);
				update_rq_clock(this_rq);
				move_queued_task_locked(src_rq, this_rq, p);
				dmin = p->dl.deadline;
				resched = true;
			}
		}
skip:
		double_unlock_balance(this_rq, src_rq);
		if (push_task) {
			raw_spin_rq_unlock(this_rq);
			stop_one_cpu_nowait(src_rq->cpu, push_cpu_stop, push_task,
					    &src_rq->push_work);
			raw_spin_rq_lock(this_rq);
		}
	}
	if (resched)
		resched_curr(this_rq);
}

static int balance_dl(struct rq *rq, struct task_struct *prev)
{
	/* A deadline task stops running here: maybe another CPU has waiting ones. */
	if (!on_dl_rq(&prev->dl) && rq->online && dl_task(prev))
		pull_dl_task(rq);
	return rq->dl.dl_nr_running > 0;
}

/*
 * Woken behind a running deadline task it does not preempt (or that
 * cannot move): no reschedule is coming here, push it now, under the
 * wakeup's rq lock.
 */
static void task_woken_dl(struct rq *rq, struct task_struct *p)
{
	if (!task_running(rq, p) && !test_tsk_need_resched(rq->curr) &&
	    p->nr_cpus_allowed > 1 && dl_task(rq->curr) &&
	    (rq->curr->nr_cpus_allowed < 2 || !dl_entity_preempt(&p->dl, &rq->curr->dl)))
		push_dl_tasks(rq);
}

/* @rq's CPU came online: it may take deadline work from now on. */
void rq_online_dl(struct rq *rq)
{
	if (rq->dl.overloaded)
		dl_set_overload(rq);
	cpudl_set_freecpu(&def_cpudl, rq->cpu);
	if (rq->dl.dl_nr_running > 0)
		cpudl_set(&def_cpudl, rq->cpu, rq->dl.earliest_dl.curr);
}

/* @rq's CPU is going down: cpudl no longer offers it to pushers. */
void rq_offline_dl(struct rq *rq)
{
	if (rq->dl.overloaded)
		dl_clear_overload(rq);
	cpudl_clear(&def_cpudl, rq->cpu);
	cpudl_clear_freecpu(&def_cpudl, rq->cpu);
}

/* --- class changes ---------------------------------------------------- */

static void switched_from_dl(struct rq *rq, struct task_struct *p)
{
	/*
	 * Its bandwidth stays reserved until its 0-lag time: queued, it was
	 * contending and now stops (the inactive timer releases it at the
	 * 0-lag time, or it is released here if that has passed); coming
	 * back to the class before then picks up the same reservation
	 * (sched_dl_overflow(), switched_to_dl()).
	 */
	if (task_on_rq_queued(p) && p->dl.dl_runtime)
		task_non_contending(p);
	if (!task_on_rq_queued(p)) {
		/*
		 * Asleep.  As a task of another class it may run anywhere
		 * before the timer fires, so its part in this CPU's sums goes
		 * now; the timer, if armed, only releases the reservation.
		 */
		if (p->dl.dl_non_contending) {
			sub_running_bw(&p->dl, &rq->dl);
		} else if (p->dl.dl_runtime) {
			/*
			 * Inactive: its 0-lag time has passed, so its
			 * reservation is free now.  Linux 5.15 releases it
			 * nowhere in this case (only the two paths above do),
			 * which would keep a task that left the class asleep
			 * counted in total_bw for good; irqlab releases it
			 * here, at what is its 0-lag time.
			 */
			struct dl_bw *dl_b = dl_bw_of(task_cpu(p));

			sub_rq_bw(&p->dl, &rq->dl);
			raw_spin_lock(&dl_b->lock);
			__dl_sub(dl_b, p->dl.dl_bw, dl_bw_cpus(task_cpu(p)));
			__dl_clear_params(p);
			raw_spin_unlock(&dl_b->lock);
			goto cleared;
		}
		sub_rq_bw(&p->dl, &rq->dl);
	}
	/*
	 * The timer cannot take it out of running_bw at the 0-lag time: by
	 * then the task may run on another CPU in another class.
	 */
	p->dl.dl_non_contending = 0;
cleared:
	/* A pending replenishment is for a class it no longer is in. */
	cancel_dl_timer(p);
	p->dl.dl_throttled = 0;
	p->dl.dl_yielded = 0;
	/* No deadline work left here: look for some at the end of this section. */
	if (task_on_rq_queued(p) && !rq->dl.dl_nr_running)
		deadline_queue_pull_task(rq);
}

static void switched_to_dl(struct rq *rq, struct task_struct *p)
{
	/* Back before the 0-lag time of its last stint: sched_dl_overflow() took that over. */
	if (hrtimer_try_to_cancel(&p->dl.inactive_timer) == 1)
		put_task_struct(p);
	/* Asleep: it becomes active when it wakes (task_contending()). */
	if (!task_on_rq_queued(p)) {
		add_rq_bw(&p->dl, &rq->dl);
		return;
	}
	if (task_current(rq, p))
		return;
	/* It may overload this CPU: push someone off at the end of this section. */
	if (p->nr_cpus_allowed > 1 && rq->dl.overloaded)
		deadline_queue_push_tasks(rq);
	if (dl_task(rq->curr))
		check_preempt_curr_dl(rq, p, 0);
	else
		resched_curr(rq);
}

static void prio_changed_dl(struct rq *rq, struct task_struct *p, int oldprio)
{
	if (!task_on_rq_queued(p) && !task_current(rq, p))
		return;
	/*
	 * The old deadline is gone, so whether @p got more or less urgent
	 * is unknown: pull if nothing waits here, as Linux does.
	 */
	if (!rq->dl.overloaded)
		deadline_queue_pull_task(rq);
	if (task_current(rq, p)) {
		/* Its deadline moved later (PI): a queued one may now come first. */
		if (dl_time_before(rq->dl.earliest_dl.curr, p->dl.deadline))
			resched_curr(rq);
	} else if (!dl_task(rq->curr) || dl_entity_preempt(&p->dl, &rq->curr->dl)) {
		/*
		 * Linux tests earliest_dl.curr against @p here too, which
		 * misses @p becoming the earliest; the blocked waiter that
		 * boosted it usually reschedules anyway.  Preempt directly.
		 */
		resched_curr(rq);
	}
}

/*
 * After the last switch away from a dead task.  Its bandwidth is not free
 * yet: the dequeue at its death (task_non_contending() with TASK_DEAD)
 * released it if its 0-lag time had passed, or armed the inactive timer,
 * which holds a reference and releases it then.
 */
static void task_dead_dl(struct task_struct *p)
{
	if (hrtimer_cancel(&p->dl.dl_timer))
		put_task_struct(p);
}

const struct sched_class dl_sched_class = {
	.enqueue_task = enqueue_task_dl,
	.dequeue_task = dequeue_task_dl,
	.yield_task = yield_task_dl,
	.check_preempt_curr = check_preempt_curr_dl,
	.pick_next_task = pick_next_task_dl,
	.put_prev_task = put_prev_task_dl,
	.set_next_task = set_next_task_dl,
	.balance = balance_dl,
	.select_task_rq = select_task_rq_dl,
	.migrate_task_rq = migrate_task_rq_dl,
	.task_woken = task_woken_dl,
	.task_tick = task_tick_dl,
	.switched_from = switched_from_dl,
	.switched_to = switched_to_dl,
	.prio_changed = prio_changed_dl,
	.update_curr = update_curr_dl,
	.task_dead = task_dead_dl,
	.find_lock_rq = find_lock_later_rq,
	.next = &rt_sched_class,
};
