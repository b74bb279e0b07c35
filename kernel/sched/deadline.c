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
 * Across CPUs (global EDF, like Linux's push/pull): a waking task goes to
 * a CPU with no deadline work, or to the one whose earliest deadline is
 * latest, if it would preempt there; a CPU with waiting deadline tasks
 * pushes them to such CPUs after its rq lock is dropped, and a CPU whose
 * deadline task stops running pulls waiting ones with earlier deadlines.
 * Where a CPU stands is found by scanning at most CONFIG_NR_CPUS (8) run
 * queues instead of Linux's cpudl max-heap: at this size the scan costs
 * less than keeping a heap up to date on every enqueue and dequeue.
 *
 * Parameters and admission control are in deadline_param.c.
 */
#include "sched.h"
#include <linux/smp.h>
#include <linux/sched/task.h>

/* CPUs with more than one queued deadline task. */
static struct cpumask dlo_mask;

static inline struct task_struct *dl_task_of(struct sched_dl_entity *dl_se)
{
	return container_of(dl_se, struct task_struct, dl);
}

static inline struct rq *rq_of_dl_se(struct sched_dl_entity *dl_se)
{
	return task_rq(dl_task_of(dl_se));
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

static bool dl_migratory(struct task_struct *p)
{
	return p->nr_cpus_allowed > 1 && !is_migration_disabled(p);
}

void init_dl_rq(struct dl_rq *dl_rq)
{
	dl_rq->root = RB_ROOT_CACHED;
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

static void update_dl_overload(struct rq *rq)
{
	struct dl_rq *dl_rq = &rq->dl;
	struct sched_dl_entity *first = dl_first(dl_rq);
	/*
	 * Linux also asks for one that may move; migrate_disable() changes
	 * that while the task stays queued, so a count of them would drift.
	 * The pushable search checks each task instead.
	 */
	bool over = dl_rq->dl_nr_running > 1;

	if (over != dl_rq->overloaded) {
		dl_rq->overloaded = over;
		if (over)
			cpumask_set_cpu(rq->cpu, &dlo_mask);
		else
			cpumask_clear_cpu(rq->cpu, &dlo_mask);
	}
	WRITE_ONCE(dl_rq->earliest_dl.curr, first ? first->deadline : 0);
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
	update_dl_overload(rq);
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
	update_dl_overload(rq);
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
	dl_se->dl_runtime = dl_se->dl_deadline = dl_se->dl_period = 0;
	dl_se->dl_bw = dl_se->dl_density = 0;
	dl_se->runtime = 0;
	dl_se->deadline = 0;
	dl_se->flags = 0;
	dl_se->dl_throttled = dl_se->dl_yielded = dl_se->dl_non_contending = 0;
	dl_se->pi_se = dl_se;
	hrtimer_init(&dl_se->dl_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	dl_se->dl_timer.function = dl_task_timer;
}

static void cancel_dl_timer(struct task_struct *p)
{
	/* The queued timer's reference goes with it. */
	if (hrtimer_try_to_cancel(&p->dl.dl_timer) == 1)
		put_task_struct(p);
}

static void enqueue_dl_entity(struct sched_dl_entity *dl_se, int flags)
{
	if (flags & ENQUEUE_WAKEUP)
		update_dl_entity(dl_se);
	else if (flags & ENQUEUE_REPLENISH)
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
	/* Throttled: the dl_timer enqueues it when the period starts. */
	if (p->dl.dl_throttled && !(flags & ENQUEUE_REPLENISH))
		return;
	enqueue_dl_entity(&p->dl, flags);
}

static void update_curr_dl(struct rq *rq);

static void dequeue_task_dl(struct rq *rq, struct task_struct *p, int flags)
{
	update_curr_dl(rq);
	__dequeue_dl_entity(&p->dl);
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
	dl_se->runtime -= delta_exec;
throttle:
	if (dl_se->runtime <= 0 || dl_se->dl_yielded) {
		dl_se->dl_throttled = 1;
		__dequeue_dl_entity(dl_se);
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

	raw_spin_lock_irqsave(&p->pi_lock, flags);
	rq = __task_rq_lock(p);
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
	if (rq->dl.overloaded)
		rq->dl_push_pending = true;
unlock:
	raw_spin_rq_unlock(rq);
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);
	balance_after_unlock(rq);
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

static void check_preempt_curr_dl(struct rq *rq, struct task_struct *p, int flags)
{
	if (dl_entity_preempt(&p->dl, &rq->curr->dl))
		resched_curr(rq);
}

static void set_next_task_dl(struct rq *rq, struct task_struct *p, bool first)
{
	p->se.exec_start = rq_clock_task(rq);
	/* Others wait here behind @p: offer them to other CPUs. */
	if (first && rq->dl.overloaded)
		rq->dl_push_pending = true;
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
	if (on_dl_rq(&p->dl) && dl_migratory(p))
		rq->dl_push_pending = true;
}

static void task_tick_dl(struct rq *rq, struct task_struct *p, int queued)
{
	update_curr_dl(rq);
}

/* --- SMP: placement, push and pull ---------------------------------- */

/*
 * The CPU @p should go to: one with no deadline work (its own first),
 * else the one whose earliest deadline is latest, if later than @p's.
 * -1: every allowed CPU runs something more urgent.
 */
static int find_later_rq(struct task_struct *p)
{
	int best = -1, cpu;
	u64 latest = p->dl.deadline;

	if (cpumask_test_cpu(task_cpu(p), p->cpus_ptr) && cpu_online(task_cpu(p)) &&
	    !READ_ONCE(cpu_rq(task_cpu(p))->dl.dl_nr_running))
		return task_cpu(p);
	for_each_cpu(cpu, p->cpus_ptr) {
		struct dl_rq *dl_rq = &cpu_rq(cpu)->dl;
		u64 earliest;

		if (!cpu_online(cpu))
			continue;
		if (!READ_ONCE(dl_rq->dl_nr_running))
			return cpu;
		earliest = READ_ONCE(dl_rq->earliest_dl.curr);
		if (dl_time_before(latest, earliest)) {
			latest = earliest;
			best = cpu;
		}
	}
	return best;
}

static int select_task_rq_dl(struct task_struct *p, int cpu, int flags)
{
	struct task_struct *curr = READ_ONCE(cpu_rq(cpu)->curr);
	int target;

	/*
	 * Stay unless a deadline task runs there that @p would not preempt
	 * (or that cannot move away itself).
	 */
	if (!curr || !dl_task(curr) ||
	    (curr->nr_cpus_allowed > 1 && dl_entity_preempt(&p->dl, &curr->dl)))
		return cpu;
	target = find_later_rq(p);
	if (target >= 0 && (dl_time_before(p->dl.deadline,
					   READ_ONCE(cpu_rq(target)->dl.earliest_dl.curr)) ||
			    !READ_ONCE(cpu_rq(target)->dl.dl_nr_running)))
		return target;
	return cpu;
}

/* The earliest queued deadline task on @rq that is not running and may move. */
static struct task_struct *pick_pushable_dl_task(struct rq *rq, int to_cpu)
{
	for (struct rb_node *n = rb_first_cached(&rq->dl.root); n; n = rb_next(n)) {
		struct task_struct *p = dl_task_of(rb_entry(n, struct sched_dl_entity, rb_node));

		if (!task_running(rq, p) && dl_migratory(p) &&
		    (to_cpu < 0 || cpumask_test_cpu(to_cpu, p->cpus_ptr)))
			return p;
	}
	return NULL;
}

/* May @p run on @later now, ahead of what is queued there? */
static bool dl_later_rq_ok(struct rq *later, struct task_struct *p)
{
	return !later->dl.dl_nr_running ||
	       dl_time_before(p->dl.deadline, later->dl.earliest_dl.curr);
}

/* Called with rq locked; may drop and retake it. */
static bool push_dl_task(struct rq *rq)
{
	struct task_struct *p = pick_pushable_dl_task(rq, -1);
	struct rq *later;
	bool moved = false;
	int cpu;

	if (!p)
		return false;
	/* It preempts curr here, and curr can go elsewhere: just reschedule. */
	if (dl_task(rq->curr) && dl_entity_preempt(&p->dl, &rq->curr->dl) &&
	    dl_migratory(rq->curr)) {
		resched_curr(rq);
		return false;
	}
	cpu = find_later_rq(p);
	if (cpu < 0 || cpu == rq->cpu)
		return false;
	later = cpu_rq(cpu);
	double_lock_balance(rq, later);
	/* Recheck everything after the locks were juggled. */
	if (task_rq(p) == rq && task_on_rq_queued(p) && on_dl_rq(&p->dl) &&
	    !task_running(rq, p) && dl_migratory(p) &&
	    cpumask_test_cpu(cpu, p->cpus_ptr) && dl_later_rq_ok(later, p)) {
		update_rq_clock(later);
		move_queued_task_locked(rq, later, p);
		moved = true;
	}
	double_unlock_balance(rq, later);
	return moved;
}

/* Pull waiting deadline tasks that are more urgent than anything here. */
static void pull_dl_task(struct rq *this_rq)
{
	int cpu, this_cpu = this_rq->cpu;

	if (!cpumask_weight(&dlo_mask))
		return;
	for_each_cpu(cpu, &dlo_mask) {
		struct rq *src = cpu_rq(cpu);
		struct task_struct *p;

		if (cpu == this_cpu)
			continue;
		double_lock_balance(this_rq, src);
		p = pick_pushable_dl_task(src, this_cpu);
		/*
		 * Only one more urgent than our own earliest, and not one
		 * about to preempt its CPU's current task: moving that one
		 * gains nothing.
		 */
		if (p && dl_later_rq_ok(this_rq, p) && dl_task(src->curr) &&
		    !dl_entity_preempt(&p->dl, &src->curr->dl)) {
			update_rq_clock(src);
			update_rq_clock(this_rq);
			move_queued_task_locked(src, this_rq, p);
		}
		double_unlock_balance(this_rq, src);
	}
}

static int balance_dl(struct rq *rq, struct task_struct *prev)
{
	/* A deadline task stops running here: maybe another CPU has waiting ones. */
	if (dl_task(prev) && !on_dl_rq(&prev->dl) && rq->online)
		pull_dl_task(rq);
	return rq->dl.dl_nr_running > 0;
}

static void task_woken_dl(struct rq *rq, struct task_struct *p)
{
	if (!task_running(rq, p) && !test_tsk_need_resched(rq->curr) &&
	    dl_migratory(p) && dl_task(rq->curr) &&
	    (rq->curr->nr_cpus_allowed < 2 || !dl_entity_preempt(&p->dl, &rq->curr->dl)))
		rq->dl_push_pending = true;
}

/* The balance callback: push after the caller dropped the rq lock. */
void dl_balance_after_unlock(struct rq *rq)
{
	unsigned long flags;

	if (!READ_ONCE(rq->dl_push_pending) && !READ_ONCE(rq->dl_pull_pending))
		return;
	raw_spin_lock_irqsave(&rq->__lock, flags);
	if (rq->dl_pull_pending) {
		rq->dl_pull_pending = false;
		if (rq->online)
			pull_dl_task(rq);
	}
	rq->dl_push_pending = false;
	for (int i = 0; i < 4 && rq->dl.overloaded && push_dl_task(rq); i++)
		;
	raw_spin_unlock_irqrestore(&rq->__lock, flags);
}

/* --- class changes ---------------------------------------------------- */

static void switched_from_dl(struct rq *rq, struct task_struct *p)
{
	/* A pending replenishment is for a class it no longer is in. */
	cancel_dl_timer(p);
	p->dl.dl_throttled = 0;
	p->dl.dl_yielded = 0;
	/* No deadline work left here: look for some once the lock is dropped. */
	if (task_on_rq_queued(p) && !rq->dl.dl_nr_running)
		rq->dl_pull_pending = true;
}

static void switched_to_dl(struct rq *rq, struct task_struct *p)
{
	if (!task_on_rq_queued(p) || task_current(rq, p))
		return;
	if (rq->dl.overloaded && dl_migratory(p))
		rq->dl_push_pending = true;
	if (!dl_task(rq->curr) || dl_entity_preempt(&p->dl, &rq->curr->dl))
		resched_curr(rq);
}

static void prio_changed_dl(struct rq *rq, struct task_struct *p, int oldprio)
{
	if (!task_on_rq_queued(p))
		return;
	if (task_current(rq, p)) {
		/* Its deadline moved (PI): someone queued may now be earlier. */
		if (rq->dl.dl_nr_running && !is_leftmost(p, &rq->dl))
			resched_curr(rq);
	} else if (!dl_task(rq->curr) || dl_entity_preempt(&p->dl, &rq->curr->dl)) {
		resched_curr(rq);
	}
}

/* After the last switch away from a dead task: its bandwidth is free. */
static void task_dead_dl(struct task_struct *p)
{
	if (hrtimer_cancel(&p->dl.dl_timer))
		put_task_struct(p);
	dl_bw_release(p);
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
	.task_woken = task_woken_dl,
	.task_tick = task_tick_dl,
	.switched_from = switched_from_dl,
	.switched_to = switched_to_dl,
	.prio_changed = prio_changed_dl,
	.update_curr = update_curr_dl,
	.task_dead = task_dead_dl,
	.next = &rt_sched_class,
};
