// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU, concurrency-managed workqueues (bound pools of Linux 5.15).
 *
 * Each CPU has two worker pools (normal and high priority).  A pool owns
 * several kworkers bound to its CPU; nr_running counts the workers that
 * run an item and are not blocked.  Queuing an item sets its PENDING bit
 * (only the task that flips it may link the item), appends it to the
 * pool's worklist and wakes an idle worker only if nobody is running.
 * When a running worker blocks, the scheduler calls wq_worker_sleeping();
 * if that drops nr_running to zero with items waiting, an idle worker is
 * woken to carry on, so a sleeping item never stalls the ones behind it,
 * while CPU-bound items keep a single worker busy.
 *
 * A worker about to run items and finding no idle worker behind it first
 * becomes the pool's manager and creates one (creation sleeps, so the pool
 * lock is dropped).  Idle workers beyond two are reaped by a timer.
 *
 * An item never runs concurrently with itself: a worker that picks an
 * item another worker of the pool is running hands it to that worker's
 * scheduled list.  flush_work() inserts a barrier item right behind the
 * target (linking the two with WORK_STRUCT_LINKED so they move together),
 * or at the head of the running worker's scheduled list, and waits for it.
 */
#include <linux/workqueue.h>
#include <linux/kthread.h>
#include <linux/completion.h>
#include <linux/percpu.h>
#include <linux/cpumask.h>
#include <linux/sched.h>
#include <linux/preempt.h>
#include <linux/printk.h>
#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/kallsyms.h>
#include <linux/moduleparam.h>
#include <linux/jiffies.h>
#include <asm/processor.h>

#include "workqueue_internal.h"

enum {
	NR_STD_WORKER_POOLS	= 2,	/* normal and highpri */
	HIGHPRI_NICE_LEVEL	= -20,

	/* pool->flags */
	POOL_MANAGER_ACTIVE	= 1 << 0,	/* a worker is creating workers */

	/* worker->flags */
	WORKER_DIE		= 1 << 1,	/* reaped: exit when woken */
	WORKER_IDLE		= 1 << 2,	/* on the idle list */
	WORKER_PREP		= 1 << 3,	/* between waking and running items */
	/* a worker with any of these is not counted in nr_running */
	WORKER_NOT_RUNNING	= WORKER_PREP | WORKER_IDLE,

	MAX_IDLE_WORKERS_RATIO	= 4,	/* 1/4 of the busy ones may stay idle */
};

/* How long a surplus idle worker lives (Linux: IDLE_WORKER_TIMEOUT, 300 s). */
unsigned int wq_idle_timeout_ms = 300 * 1000;
core_param_range("workqueue.idle_timeout_ms", wq_idle_timeout_ms, uint, 1, 3600 * 1000,
		 "milliseconds before a surplus idle kworker exits");

static DEFINE_PER_CPU(struct worker_pool [NR_STD_WORKER_POOLS], cpu_worker_pools);
static bool wq_online;

static struct workqueue_struct system_wq_struct = { .name = "events" };
static struct workqueue_struct system_highpri_wq_struct = {
	.name = "events_highpri", .flags = WQ_HIGHPRI,
};

struct workqueue_struct *system_wq = &system_wq_struct;
struct workqueue_struct *system_highpri_wq = &system_highpri_wq_struct;

static struct worker_pool *cpu_pool(int cpu, struct workqueue_struct *wq)
{
	return per_cpu_ptr(&cpu_worker_pools[(wq->flags & WQ_HIGHPRI) ? 1 : 0], cpu);
}

/* The pool @work was last queued on (also while it runs), or NULL. */
static struct worker_pool *get_work_pool(struct work_struct *work)
{
	return (struct worker_pool *)(READ_ONCE(work->data) & WORK_STRUCT_WQ_DATA_MASK);
}

/*
 * The worker of @pool running @work, or NULL.  The function is compared too:
 * a freed and reused work_struct running something else is another item.
 * Pool lock held.
 */
static struct worker *find_worker_executing_work(struct worker_pool *pool,
						 struct work_struct *work)
{
	struct worker *worker;

	list_for_each_entry(worker, &pool->busy_list, busy_entry)
		if (worker->current_work == work &&
		    worker->current_func == work->func)
			return worker;
	return NULL;
}

/* Items wait and nobody runs: a worker should be woken.  Pool lock held. */
static bool __need_more_worker(struct worker_pool *pool)
{
	return !atomic_read(&pool->nr_running);
}

static bool need_more_worker(struct worker_pool *pool)
{
	return !list_empty(&pool->worklist) && __need_more_worker(pool);
}

/* An idle worker is left to take over if this one blocks. */
static bool may_start_working(struct worker_pool *pool)
{
	return pool->nr_idle;
}

/* Carry on with the next item only while no other worker runs. */
static bool keep_working(struct worker_pool *pool)
{
	return !list_empty(&pool->worklist) && atomic_read(&pool->nr_running) <= 1;
}

static bool need_to_create_worker(struct worker_pool *pool)
{
	return need_more_worker(pool) && !may_start_working(pool);
}

/* More idle workers than the two we keep and a quarter of the busy ones. */
static bool too_many_workers(struct worker_pool *pool)
{
	bool managing = pool->flags & POOL_MANAGER_ACTIVE;
	int nr_idle = pool->nr_idle + managing;	/* the manager is about to idle */
	int nr_busy = pool->nr_workers - nr_idle;

	return nr_idle > 2 && (nr_idle - 2) * MAX_IDLE_WORKERS_RATIO >= nr_busy;
}

static struct worker *first_idle_worker(struct worker_pool *pool)
{
	if (list_empty(&pool->idle_list))
		return NULL;
	return list_first_entry(&pool->idle_list, struct worker, entry);
}

static void wake_up_worker(struct worker_pool *pool)
{
	struct worker *worker = first_idle_worker(pool);

	if (likely(worker))
		wake_up_process(worker->task);
}

/* Set @flags; entering the NOT_RUNNING state leaves nr_running.  Pool lock. */
static void worker_set_flags(struct worker *worker, unsigned int flags)
{
	struct worker_pool *pool = worker->pool;

	WARN_ON_ONCE(worker->task != current);
	if ((flags & WORKER_NOT_RUNNING) && !(worker->flags & WORKER_NOT_RUNNING))
		atomic_dec(&pool->nr_running);
	worker->flags |= flags;
}

/* Clear @flags; leaving the NOT_RUNNING state joins nr_running.  Pool lock. */
static void worker_clr_flags(struct worker *worker, unsigned int flags)
{
	struct worker_pool *pool = worker->pool;
	unsigned int oflags = worker->flags;

	WARN_ON_ONCE(worker->task != current);
	worker->flags &= ~flags;
	if ((flags & WORKER_NOT_RUNNING) && (oflags & WORKER_NOT_RUNNING) &&
	    !(worker->flags & WORKER_NOT_RUNNING))
		atomic_inc(&pool->nr_running);
}

/**
 * wq_worker_sleeping - a kworker is about to block
 * @task: the worker (current)
 *
 * Called from schedule() with preemption disabled, before the rq lock is
 * taken.  If it was the last running worker and items wait, wake an idle
 * worker to go on with them.
 */
void wq_worker_sleeping(struct task_struct *task)
{
	struct worker *worker = task->thread_data;
	struct worker_pool *pool;
	unsigned long flags;

	if (worker->flags & WORKER_NOT_RUNNING)
		return;
	pool = worker->pool;
	if (WARN_ON_ONCE(pool->cpu != raw_smp_processor_id()))
		return;
	if (worker->sleeping)
		return;
	worker->sleeping = 1;

	raw_spin_lock_irqsave(&pool->lock, flags);
	/* the flags may have changed (reaping) before we took the lock */
	if (worker->flags & WORKER_NOT_RUNNING) {
		raw_spin_unlock_irqrestore(&pool->lock, flags);
		return;
	}
	if (atomic_dec_and_test(&pool->nr_running) && !list_empty(&pool->worklist))
		wake_up_worker(pool);
	raw_spin_unlock_irqrestore(&pool->lock, flags);
}

/**
 * wq_worker_running - a kworker that blocked runs again
 * @task: the worker (current)
 */
void wq_worker_running(struct task_struct *task)
{
	struct worker *worker = task->thread_data;

	if (!worker->sleeping)
		return;
	preempt_disable();
	if (!(worker->flags & WORKER_NOT_RUNNING))
		atomic_inc(&worker->pool->nr_running);
	preempt_enable();
	worker->sleeping = 0;
}

/* Pool lock held: link @work before @pos and note the pool in its data. */
static void insert_work(struct worker_pool *pool, struct work_struct *work,
			struct list_head *pos, unsigned long extra_flags)
{
	WRITE_ONCE(work->data, (unsigned long)pool | WORK_STRUCT_PENDING |
		   WORK_STRUCT_PWQ | extra_flags);
	list_add_tail(&work->entry, pos);
	/* a running worker will reach it; wake one only if none runs */
	smp_mb();
	if (__need_more_worker(pool))
		wake_up_worker(pool);
}

/*
 * Interrupts off, PENDING owned by the caller: link @work on @cpu's pool of
 * @wq, or behind its running instance if it still runs on another pool.
 */
void __queue_work(int cpu, struct workqueue_struct *wq, struct work_struct *work)
{
	struct worker_pool *pool, *last_pool;

	if (WARN_ON_ONCE(!wq_online))
		return;
	if (cpu == WORK_CPU_UNBOUND)
		cpu = raw_smp_processor_id();
	pool = cpu_pool(cpu, wq);

	last_pool = get_work_pool(work);
	if (last_pool && last_pool != pool) {
		raw_spin_lock(&last_pool->lock);
		if (find_worker_executing_work(last_pool, work)) {
			pool = last_pool;
		} else {
			raw_spin_unlock(&last_pool->lock);
			raw_spin_lock(&pool->lock);
		}
	} else {
		raw_spin_lock(&pool->lock);
	}
	insert_work(pool, work, &pool->worklist, 0);
	raw_spin_unlock(&pool->lock);
}

/**
 * queue_work_on - queue @work on @cpu's pool of @wq
 *
 * Returns false if @work was already pending (it is left where it is),
 * true if it was queued.
 */
bool queue_work_on(int cpu, struct workqueue_struct *wq, struct work_struct *work)
{
	unsigned long flags;
	bool ret = false;

	local_irq_save(flags);
	if (!test_and_set_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work))) {
		__queue_work(cpu, wq, work);
		ret = true;
	}
	local_irq_restore(flags);
	return ret;
}

/* Drop PENDING while keeping the last pool, after a cancel owned it. */
void clear_work_pending(struct work_struct *work)
{
	smp_mb();	/* the item's state is visible before it may be queued again */
	clear_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work));
}

/*
 * Take ownership of @work's PENDING bit.  Returns, with interrupts off:
 * 0 if the item was idle, 1 if it was queued and has been unlinked.
 * Returns -EAGAIN, interrupts restored, if someone else is between setting
 * PENDING and linking the item (or arming its timer); retry.
 */
int try_to_grab_pending(struct work_struct *work, unsigned long *flags)
{
	struct worker_pool *pool;
	unsigned long data;

	local_irq_save(*flags);
	if (!test_and_set_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work)))
		return 0;

	data = READ_ONCE(work->data);
	if (data & WORK_STRUCT_PWQ) {
		pool = (struct worker_pool *)(data & WORK_STRUCT_WQ_DATA_MASK);
		raw_spin_lock(&pool->lock);
		/* PWQ and the pool only change under this lock while linked */
		if (READ_ONCE(work->data) == data) {
			list_del_init(&work->entry);
			WRITE_ONCE(work->data, (unsigned long)pool | WORK_STRUCT_PENDING);
			raw_spin_unlock(&pool->lock);
			return 1;
		}
		raw_spin_unlock(&pool->lock);
	}
	local_irq_restore(*flags);
	return -EAGAIN;
}

struct wq_barrier {
	struct work_struct work;
	struct completion done;
};

static void wq_barrier_func(struct work_struct *work)
{
	struct wq_barrier *barr = container_of(work, struct wq_barrier, work);

	complete(&barr->done);
}

/*
 * Pool lock held.  Queue @barr to run right after @target: at the head of
 * @worker's scheduled list if @worker is running @target, else right
 * behind the queued @target, which is then LINKED to it so that moving
 * @target to a worker's scheduled list takes the barrier along.
 */
static void insert_wq_barrier(struct worker_pool *pool, struct wq_barrier *barr,
			      struct work_struct *target, struct worker *worker)
{
	unsigned long linked = 0;
	struct list_head *head;

	INIT_WORK_ONSTACK(&barr->work, wq_barrier_func);
	init_completion(&barr->done);

	if (worker) {
		head = worker->scheduled.next;
	} else {
		unsigned long *bits = work_data_bits(target);

		head = target->entry.next;
		/* the barrier takes over whatever was linked behind @target */
		linked = *bits & WORK_STRUCT_LINKED;
		__set_bit(WORK_STRUCT_LINKED_BIT, bits);
	}
	insert_work(pool, &barr->work, head, linked);
}

/*
 * Queue @barr behind the pending or running instance of @work.  Returns
 * false if @work is neither.
 */
static bool start_flush_work(struct work_struct *work, struct wq_barrier *barr)
{
	struct worker_pool *pool;
	struct worker *worker = NULL;
	unsigned long data;

	local_irq_disable();
	for (;;) {
		pool = get_work_pool(work);
		if (!pool) {
			local_irq_enable();
			return false;
		}
		raw_spin_lock(&pool->lock);
		data = READ_ONCE(work->data);
		if ((struct worker_pool *)(data & WORK_STRUCT_WQ_DATA_MASK) == pool)
			break;
		/* requeued elsewhere meanwhile: look again */
		raw_spin_unlock(&pool->lock);
	}

	if (!(data & WORK_STRUCT_PWQ)) {
		worker = find_worker_executing_work(pool, work);
		if (!worker)
			goto idle;
	}
	insert_wq_barrier(pool, barr, work, worker);
	raw_spin_unlock(&pool->lock);
	local_irq_enable();
	return true;
idle:
	raw_spin_unlock(&pool->lock);
	local_irq_enable();
	return false;
}

/**
 * flush_work - wait for the last queued instance of @work to finish
 *
 * Returns true if it had to wait (the item was pending or running), false
 * if the item was idle.
 */
bool flush_work(struct work_struct *work)
{
	struct wq_barrier barr;

	might_sleep();
	if (!start_flush_work(work, &barr))
		return false;
	wait_for_completion(&barr.done);
	return true;
}

/**
 * cancel_work_sync - remove @work if pending and wait for it if running
 *
 * Returns true if the item was pending (it will not run for that queuing),
 * false otherwise.  When it returns the item is neither pending nor running,
 * unless it was queued again meanwhile.
 */
bool cancel_work_sync(struct work_struct *work)
{
	unsigned long flags;
	int ret;

	might_sleep();
	while ((ret = try_to_grab_pending(work, &flags)) < 0)
		cpu_relax();
	local_irq_restore(flags);

	/* we own PENDING, so nobody can queue it: wait for a running instance */
	flush_work(work);
	clear_work_pending(work);
	return ret;
}

/*
 * Move @work and the items LINKED behind it (flush barriers) to the tail of
 * @head.  Pool lock held.
 */
static void move_linked_works(struct work_struct *work, struct list_head *head)
{
	struct work_struct *n;

	for (;;) {
		n = list_next_entry(work, entry);
		list_move_tail(&work->entry, head);
		if (!(*work_data_bits(work) & WORK_STRUCT_LINKED))
			break;
		work = n;
	}
}

/* Pool lock held, dropped while the function runs. */
static void process_one_work(struct worker *worker, struct work_struct *work)
{
	struct worker_pool *pool = worker->pool;
	struct worker *collision;
	work_func_t func = work->func;

	/*
	 * Still running on another worker of this pool: hand it (and its
	 * barriers) over, so that it never runs concurrently with itself.
	 */
	collision = find_worker_executing_work(pool, work);
	if (unlikely(collision)) {
		move_linked_works(work, &collision->scheduled);
		return;
	}

	list_add(&worker->busy_entry, &pool->busy_list);
	worker->current_work = work;
	worker->current_func = func;
	list_del_init(&work->entry);

	/* nr_running is at least 1 for us here; kept for symmetry with Linux */
	if (need_more_worker(pool))
		wake_up_worker(pool);

	/* unlinked: from here on it may be queued again, also on this pool */
	smp_wmb();
	WRITE_ONCE(work->data, (unsigned long)pool);
	smp_mb();
	raw_spin_unlock_irq(&pool->lock);

	func(work);

	if (unlikely(preempt_count() || irqs_disabled())) {
		char sym[128];

		sprint_symbol(sym, (unsigned long)func);
		pr_err("BUG: workqueue leaked atomic or irqs-off: %s/%d preempt=%#x func=%s\n",
		       current->comm, current->pid, preempt_count(), sym);
		WARN_ON(1);
	}
	cond_resched();

	raw_spin_lock_irq(&pool->lock);
	list_del_init(&worker->busy_entry);
	worker->current_work = NULL;
	worker->current_func = NULL;
}

/* Run everything on @worker's scheduled list.  Pool lock held. */
static void process_scheduled_works(struct worker *worker)
{
	while (!list_empty(&worker->scheduled))
		process_one_work(worker, list_first_entry(&worker->scheduled,
							  struct work_struct, entry));
}

/* Pool lock held: @worker has nothing to do. */
static void worker_enter_idle(struct worker *worker)
{
	struct worker_pool *pool = worker->pool;

	if (WARN_ON_ONCE(worker->flags & WORKER_IDLE) ||
	    WARN_ON_ONCE(!list_empty(&worker->entry)))
		return;
	/* PREP is already set, so nr_running does not change */
	worker->flags |= WORKER_IDLE;
	pool->nr_idle++;
	worker->last_active = ktime_get();
	list_add(&worker->entry, &pool->idle_list);

	if (too_many_workers(pool) && !hrtimer_is_queued(&pool->idle_timer))
		hrtimer_start(&pool->idle_timer,
			      ns_to_ktime((u64)wq_idle_timeout_ms * NSEC_PER_MSEC),
			      HRTIMER_MODE_REL_SOFT);
}

/* Pool lock held. */
static void worker_leave_idle(struct worker *worker)
{
	struct worker_pool *pool = worker->pool;

	if (WARN_ON_ONCE(!(worker->flags & WORKER_IDLE)))
		return;
	worker_clr_flags(worker, WORKER_IDLE);
	pool->nr_idle--;
	list_del_init(&worker->entry);
}

static int worker_thread(void *arg);

/*
 * Create an idle worker for @pool, in a free slot.  Sleeps; called without
 * the pool lock.  Returns NULL if no slot is free or the thread could not
 * be created.
 */
static struct worker *create_worker(struct worker_pool *pool)
{
	struct worker *worker;
	struct task_struct *p;
	int id;

	raw_spin_lock_irq(&pool->lock);
	for (id = 0; id < NR_POOL_WORKERS; id++)
		if (!test_bit(id, &pool->worker_ids))
			break;
	if (id == NR_POOL_WORKERS) {
		raw_spin_unlock_irq(&pool->lock);
		return NULL;
	}
	__set_bit(id, &pool->worker_ids);
	raw_spin_unlock_irq(&pool->lock);

	worker = &pool->workers[id];
	memset(worker, 0, sizeof(*worker));
	INIT_LIST_HEAD(&worker->entry);
	INIT_LIST_HEAD(&worker->busy_entry);
	INIT_LIST_HEAD(&worker->scheduled);
	worker->pool = pool;
	worker->id = id;
	worker->flags = WORKER_PREP;	/* not counted until it runs items */

	p = kthread_create(worker_thread, worker, "kworker/%d:%d%s", pool->cpu, id,
			   pool->highpri ? "H" : "");
	if (!p) {
		raw_spin_lock_irq(&pool->lock);
		__clear_bit(id, &pool->worker_ids);
		raw_spin_unlock_irq(&pool->lock);
		return NULL;
	}
	kthread_bind(p, pool->cpu);
	if (pool->highpri)
		set_user_nice(p, HIGHPRI_NICE_LEVEL);
	worker->task = p;

	raw_spin_lock_irq(&pool->lock);
	pool->nr_workers++;
	worker_enter_idle(worker);
	wake_up_process(p);
	raw_spin_unlock_irq(&pool->lock);
	return worker;
}

/* Pool lock held: tell idle @worker to exit. */
static void destroy_worker(struct worker *worker)
{
	struct worker_pool *pool = worker->pool;

	if (WARN_ON(worker->current_work) || WARN_ON(!list_empty(&worker->scheduled)) ||
	    WARN_ON(!(worker->flags & WORKER_IDLE)))
		return;
	pool->nr_workers--;
	pool->nr_idle--;
	list_del_init(&worker->entry);
	worker->flags |= WORKER_DIE;
	wake_up_process(worker->task);
}

/* Reap the idle workers that have been idle the longest, beyond the two kept. */
static enum hrtimer_restart idle_worker_timeout(struct hrtimer *timer)
{
	struct worker_pool *pool = container_of(timer, struct worker_pool, idle_timer);
	unsigned long flags;

	raw_spin_lock_irqsave(&pool->lock, flags);
	while (too_many_workers(pool)) {
		struct worker *worker;
		ktime_t expires;

		worker = list_last_entry(&pool->idle_list, struct worker, entry);
		expires = worker->last_active +
			  ns_to_ktime((u64)wq_idle_timeout_ms * NSEC_PER_MSEC);
		if (ktime_get() < expires) {
			hrtimer_start(&pool->idle_timer, expires, HRTIMER_MODE_ABS_SOFT);
			break;
		}
		destroy_worker(worker);
	}
	raw_spin_unlock_irqrestore(&pool->lock, flags);
	return HRTIMER_NORESTART;
}

/*
 * Pool lock held, dropped and retaken.  Create workers until one is idle
 * or no longer needed; if creation fails, wait a little and retry.
 */
static void maybe_create_worker(struct worker_pool *pool)
{
	raw_spin_unlock_irq(&pool->lock);
	for (;;) {
		if (create_worker(pool) || !need_to_create_worker(pool))
			break;
		schedule_timeout_uninterruptible(max(1UL, msecs_to_jiffies(100)));
		if (!need_to_create_worker(pool))
			break;
	}
	raw_spin_lock_irq(&pool->lock);
}

/*
 * Pool lock held.  Become the pool's manager, if nobody is, and make sure
 * an idle worker exists.  Returns false if another worker is managing
 * (lock not dropped), true if the lock was dropped and the pool's state
 * must be looked at again.
 */
static bool manage_workers(struct worker *worker)
{
	struct worker_pool *pool = worker->pool;

	if (pool->flags & POOL_MANAGER_ACTIVE)
		return false;
	pool->flags |= POOL_MANAGER_ACTIVE;
	maybe_create_worker(pool);
	pool->flags &= ~POOL_MANAGER_ACTIVE;
	return true;
}

static int worker_thread(void *arg)
{
	struct worker *worker = arg;
	struct worker_pool *pool = worker->pool;

	/* the scheduler hooks look at worker->flags from now on */
	current->flags |= PF_WQ_WORKER;
woke_up:
	raw_spin_lock_irq(&pool->lock);
	if (unlikely(worker->flags & WORKER_DIE)) {
		current->flags &= ~PF_WQ_WORKER;
		current->thread_data = NULL;
		/* the slot may be reused once the bit is clear: touch it no more */
		__clear_bit(worker->id, &pool->worker_ids);
		raw_spin_unlock_irq(&pool->lock);
		return 0;
	}
	worker_leave_idle(worker);
recheck:
	if (!need_more_worker(pool))
		goto sleep;
	/* keep an idle worker ready to take over if we block */
	if (unlikely(!may_start_working(pool)) && manage_workers(worker))
		goto recheck;

	WARN_ON_ONCE(!list_empty(&worker->scheduled));
	/* counted in nr_running from here: a second woken worker backs off */
	worker_clr_flags(worker, WORKER_PREP);
	do {
		struct work_struct *work = list_first_entry(&pool->worklist,
							    struct work_struct, entry);

		if (likely(!(*work_data_bits(work) & WORK_STRUCT_LINKED))) {
			process_one_work(worker, work);
			if (unlikely(!list_empty(&worker->scheduled)))
				process_scheduled_works(worker);
		} else {
			move_linked_works(work, &worker->scheduled);
			process_scheduled_works(worker);
		}
	} while (keep_working(pool));
	worker_set_flags(worker, WORKER_PREP);
sleep:
	worker_enter_idle(worker);
	__set_current_state(TASK_INTERRUPTIBLE);
	raw_spin_unlock_irq(&pool->lock);
	schedule();
	goto woke_up;
}

void wq_pool_counts(int cpu, bool highpri, int *nr_workers, int *nr_idle)
{
	struct worker_pool *pool = per_cpu_ptr(&cpu_worker_pools[highpri ? 1 : 0], cpu);

	raw_spin_lock_irq(&pool->lock);
	*nr_workers = pool->nr_workers;
	*nr_idle = pool->nr_idle;
	raw_spin_unlock_irq(&pool->lock);
}

/* Called from sched_init_smp() with every CPU online. */
void workqueue_init(void)
{
	int cpu, i;

	for_each_possible_cpu(cpu) {
		for (i = 0; i < NR_STD_WORKER_POOLS; i++) {
			struct worker_pool *pool = per_cpu_ptr(&cpu_worker_pools[i], cpu);

			raw_spin_lock_init(&pool->lock);
			INIT_LIST_HEAD(&pool->worklist);
			INIT_LIST_HEAD(&pool->idle_list);
			INIT_LIST_HEAD(&pool->busy_list);
			hrtimer_init(&pool->idle_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
			pool->idle_timer.function = idle_worker_timeout;
			atomic_set(&pool->nr_running, 0);
			pool->cpu = cpu;
			pool->highpri = i == 1;
		}
	}
	for_each_online_cpu(cpu)
		for (i = 0; i < NR_STD_WORKER_POOLS; i++)
			WARN_ON(!create_worker(per_cpu_ptr(&cpu_worker_pools[i], cpu)));
	smp_mb();
	WRITE_ONCE(wq_online, true);
}
