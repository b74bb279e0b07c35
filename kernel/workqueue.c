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
#include <linux/boot_timing.h>
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
#include <linux/cpu.h>
#include <linux/mutex.h>
#include <linux/lockdep.h>
#include <asm/processor.h>

#include "workqueue_internal.h"

enum {
	NR_STD_WORKER_POOLS	= 2,	/* normal and highpri */
	HIGHPRI_NICE_LEVEL	= -20,

	/* pool->flags */
	POOL_MANAGER_ACTIVE	= 1 << 0,	/* a worker is creating workers */
	POOL_DISASSOCIATED	= 1 << 2,	/* the pool's CPU is down */

	/* worker->flags */
	WORKER_DIE		= 1 << 1,	/* reaped: exit when woken */
	WORKER_IDLE		= 1 << 2,	/* on the idle list */
	WORKER_PREP		= 1 << 3,	/* between waking and running items */
	WORKER_UNBOUND		= 1 << 7,	/* may run anywhere (CPU down) */
	WORKER_REBOUND		= 1 << 8,	/* bound again, not yet counted */
	/* a worker with any of these is not counted in nr_running */
	WORKER_NOT_RUNNING	= WORKER_PREP | WORKER_IDLE | WORKER_UNBOUND |
				  WORKER_REBOUND,

	MAX_IDLE_WORKERS_RATIO	= 4,	/* 1/4 of the busy ones may stay idle */
};

/* How long a surplus idle worker lives (Linux: IDLE_WORKER_TIMEOUT, 300 s). */
unsigned int wq_idle_timeout_ms = 300 * 1000;
core_param_range("workqueue.idle_timeout_ms", wq_idle_timeout_ms, uint, 1, 3600 * 1000,
		 "milliseconds before a surplus idle kworker exits");

static DEFINE_PER_CPU(struct worker_pool [NR_STD_WORKER_POOLS], cpu_worker_pools);
static bool wq_online;
/*
 * Held while a worker's CPU binding is decided (create_worker()) and
 * while a pool is unbound or rebound, so that POOL_DISASSOCIATED cannot
 * change under either.
 */
static DEFINE_MUTEX(wq_pool_attach_mutex);

#define for_each_cpu_worker_pool(wp, cpu)				\
	for ((wp) = &per_cpu(cpu_worker_pools, cpu)[0];			\
	     (wp) < &per_cpu(cpu_worker_pools, cpu)[NR_STD_WORKER_POOLS]; (wp)++)

/*
 * Every worker attached to @wp: a slot is taken and released under
 * wq_pool_attach_mutex (create_worker(), a dying worker_thread()), which
 * the caller holds, so each one seen has its task.
 */
#define for_each_pool_worker(wkr, wp)					\
	for (int __id = 0; __id < NR_POOL_WORKERS; __id++)		\
		if (!test_bit(__id, &(wp)->worker_ids) ||		\
		    !((wkr) = &(wp)->workers[__id])->task) { } else

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

/* The pool @wk was last queued on (also while it runs), or NULL. */
static struct worker_pool *get_work_pool(struct work_struct *wk)
{
	return (struct worker_pool *)(READ_ONCE(wk->data) & WORK_STRUCT_WQ_DATA_MASK);
}

/*
 * The worker of @wp running @wk, or NULL.  The function is compared too:
 * a freed and reused work_struct running something else is another item.
 * Pool lock held.
 */
static struct worker *find_worker_executing_work(struct worker_pool *wp,
						 struct work_struct *wk)
{
	struct worker *wkr;

	list_for_each_entry(wkr, &wp->busy_list, busy_entry)
		if (wkr->current_work == wk &&
		    wkr->current_func == wk->func)
			return wkr;
	return NULL;
}

/* Items wait and nobody runs: a worker should be woken.  Pool lock held. */
static bool __need_more_worker(struct worker_pool *wp)
{
	return !atomic_read(&wp->nr_running);
}

static bool need_more_worker(struct worker_pool *wp)
{
	return !list_empty(&wp->worklist) && __need_more_worker(wp);
}

/* An idle worker is left to take over if this one blocks. */
static bool may_start_working(struct worker_pool *wp)
{
	return wp->nr_idle;
}

/* Carry on with the next item only while no other worker runs. */
static bool keep_working(struct worker_pool *wp)
{
	return !list_empty(&wp->worklist) && atomic_read(&wp->nr_running) <= 1;
}

static bool need_to_create_worker(struct worker_pool *wp)
{
	return need_more_worker(wp) && !may_start_working(wp);
}

/* More idle workers than the two we keep and a quarter of the busy ones. */
static bool too_many_workers(struct worker_pool *wp)
{
	bool managing = wp->flags & POOL_MANAGER_ACTIVE;
	int idle = wp->nr_idle + managing;	/* the manager is about to idle */
	int busy = wp->nr_workers - idle;

	return idle > 2 && (idle - 2) * MAX_IDLE_WORKERS_RATIO >= busy;
}

static struct worker *first_idle_worker(struct worker_pool *wp)
{
	if (list_empty(&wp->idle_list))
		return NULL;
	return list_first_entry(&wp->idle_list, struct worker, entry);
}

static void wake_up_worker(struct worker_pool *wp)
{
	struct worker *wkr = first_idle_worker(wp);

	if (likely(wkr))
		wake_up_process(wkr->task);
}

/* Set @flags; entering the NOT_RUNNING state leaves nr_running.  Pool lock. */
static void worker_set_flags(struct worker *wkr, unsigned int flags)
{
	struct worker_pool *wp = wkr->pool;

	WARN_ON_ONCE(wkr->task != current);
	if ((flags & WORKER_NOT_RUNNING) && !(wkr->flags & WORKER_NOT_RUNNING))
		atomic_dec(&wp->nr_running);
	wkr->flags |= flags;
}

/* Clear @flags; leaving the NOT_RUNNING state joins nr_running.  Pool lock. */
static void worker_clr_flags(struct worker *wkr, unsigned int flags)
{
	struct worker_pool *wp = wkr->pool;
	unsigned int oflags = wkr->flags;

	WARN_ON_ONCE(wkr->task != current);
	wkr->flags &= ~flags;
	if ((flags & WORKER_NOT_RUNNING) && (oflags & WORKER_NOT_RUNNING) &&
	    !(wkr->flags & WORKER_NOT_RUNNING))
		atomic_inc(&wp->nr_running);
}

/**
 * wq_worker_sleeping - a kworker is about to block
 * @t: the worker (current)
 *
 * Called from schedule() with preemption disabled, before the rq lock is
 * taken.  If it was the last running worker and items wait, wake an idle
 * worker to go on with them.
 */
void wq_worker_sleeping(struct task_struct *t)
{
	struct worker *wkr = t->thread_data;
	struct worker_pool *wp;
	unsigned long flags;

	if (wkr->flags & WORKER_NOT_RUNNING)
		return;
	wp = wkr->pool;
	if (WARN_ON_ONCE(wp->cpu != raw_smp_processor_id()))
		return;
	if (wkr->sleeping)
		return;
	wkr->sleeping = 1;

	raw_spin_lock_irqsave(&wp->lock, flags);
	/*
	 * Rechecked under the lock: unbind_workers() may have set UNBOUND
	 * meanwhile and zeroed nr_running, which must stay zero then.
	 */
	if (wkr->flags & WORKER_NOT_RUNNING) {
		raw_spin_unlock_irqrestore(&wp->lock, flags);
		return;
	}
	if (atomic_dec_and_test(&wp->nr_running) && !list_empty(&wp->worklist))
		wake_up_worker(wp);
	raw_spin_unlock_irqrestore(&wp->lock, flags);
}

/**
 * wq_worker_running - a kworker that blocked runs again
 * @t: the worker (current)
 */
void wq_worker_running(struct task_struct *t)
{
	struct worker *wkr = t->thread_data;

	if (!wkr->sleeping)
		return;
	preempt_disable();
	if (!(wkr->flags & WORKER_NOT_RUNNING))
		atomic_inc(&wkr->pool->nr_running);
	preempt_enable();
	wkr->sleeping = 0;
}

/* Pool lock held: link @wk before @pos and note the pool in its data. */
static void insert_work(struct worker_pool *wp, struct work_struct *wk,
			struct list_head *pos, unsigned long extra_flags)
{
	WRITE_ONCE(wk->data, (unsigned long)wp | WORK_STRUCT_PENDING |
		   WORK_STRUCT_PWQ | extra_flags);
	list_add_tail(&wk->entry, pos);
	/* a running worker will reach it; wake one only if none runs */
	smp_mb();
	if (__need_more_worker(wp))
		wake_up_worker(wp);
}

/*
 * Interrupts off, PENDING owned by the caller: link @wk on @cpu's pool of
 * @wq, or behind its running instance if it still runs on another pool.
 */
void __queue_work(int cpu, struct workqueue_struct *wq, struct work_struct *wk)
{
	struct worker_pool *wp, *last_pool;

	if (WARN_ON_ONCE(!wq_online)) {
		clear_work_pending(wk);		/* dropped, but queueable later */
		return;
	}
	if (cpu == WORK_CPU_UNBOUND)
		cpu = raw_smp_processor_id();
	wp = cpu_pool(cpu, wq);

	/*
	 * Still running on another CPU's pool of the same workqueue (the
	 * pool kind is the workqueue here): queue behind that instance, so
	 * the item never runs twice at once.  Like Linux, no such promise
	 * across workqueues.
	 */
	last_pool = get_work_pool(wk);
	if (last_pool && last_pool != wp && last_pool->highpri == wp->highpri) {
		raw_spin_lock(&last_pool->lock);
		if (find_worker_executing_work(last_pool, wk)) {
			wp = last_pool;
		} else {
			raw_spin_unlock(&last_pool->lock);
			raw_spin_lock(&wp->lock);
		}
	} else {
		raw_spin_lock(&wp->lock);
	}
	insert_work(wp, wk, &wp->worklist, 0);
	raw_spin_unlock(&wp->lock);
}

/**
 * queue_work_on - queue @wk on @cpu's pool of @wq
 *
 * Returns false if @wk was already pending (it is left where it is),
 * true if it was queued.
 */
bool queue_work_on(int cpu, struct workqueue_struct *wq, struct work_struct *wk)
{
	unsigned long flags;
	bool ret = false;

	local_irq_save(flags);
	if (!test_and_set_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(wk))) {
		__queue_work(cpu, wq, wk);
		ret = true;
	}
	local_irq_restore(flags);
	return ret;
}

/* Drop PENDING while keeping the last pool, after a cancel owned it. */
void clear_work_pending(struct work_struct *wk)
{
	smp_mb();	/* the item's state is visible before it may be queued again */
	clear_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(wk));
}

/*
 * Take ownership of @wk's PENDING bit.  Returns, with interrupts off:
 * 0 if the item was idle, 1 if it was queued and has been unlinked.
 * Returns -EAGAIN, interrupts restored, if someone else is between setting
 * PENDING and linking the item (or arming its timer); retry.
 */
int try_to_grab_pending(struct work_struct *wk, unsigned long *flags)
{
	struct worker_pool *wp;
	unsigned long data;

	local_irq_save(*flags);
	if (!test_and_set_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(wk)))
		return 0;

	data = READ_ONCE(wk->data);
	if (data & WORK_STRUCT_PWQ) {
		wp = (struct worker_pool *)(data & WORK_STRUCT_WQ_DATA_MASK);
		raw_spin_lock(&wp->lock);
		/* PWQ and the pool only change under this lock while linked */
		if (READ_ONCE(wk->data) == data) {
			list_del_init(&wk->entry);
			WRITE_ONCE(wk->data, (unsigned long)wp | WORK_STRUCT_PENDING);
			raw_spin_unlock(&wp->lock);
			return 1;
		}
		raw_spin_unlock(&wp->lock);
	}
	local_irq_restore(*flags);
	return -EAGAIN;
}

struct wq_barrier {
	struct work_struct work;
	struct completion done;
};

static void wq_barrier_func(struct work_struct *wk)
{
	struct wq_barrier *b = container_of(wk, struct wq_barrier, work);

	complete(&b->done);
}

/*
 * Pool lock held.  Queue @b to run right after @target: at the head of
 * @wkr's scheduled list if @wkr is running @target, else right
 * behind the queued @target, which is then LINKED to it so that moving
 * @target to a worker's scheduled list takes the barrier along.
 */
static void insert_wq_barrier(struct worker_pool *wp, struct wq_barrier *b,
			      struct work_struct *target, struct worker *wkr)
{
	unsigned long linked = 0;
	struct list_head *head;

	INIT_WORK_ONSTACK(&b->work, wq_barrier_func);
	init_completion(&b->done);

	if (wkr) {
		head = wkr->scheduled.next;
	} else {
		unsigned long *bits = work_data_bits(target);

		head = target->entry.next;
		/* the barrier takes over whatever was linked behind @target */
		linked = *bits & WORK_STRUCT_LINKED;
		__set_bit(WORK_STRUCT_LINKED_BIT, bits);
	}
	insert_work(wp, &b->work, head, linked);
}

/*
 * Queue @b behind the pending or running instance of @wk.  Returns
 * false if @wk is neither.
 */
static bool start_flush_work(struct work_struct *wk, struct wq_barrier *b)
{
	struct worker_pool *wp;
	struct worker *wkr = NULL;
	unsigned long data;

	local_irq_disable();
	for (;;) {
		wp = get_work_pool(wk);
		if (!wp) {
			local_irq_enable();
			return false;
		}
		raw_spin_lock(&wp->lock);
		data = READ_ONCE(wk->data);
		if ((struct worker_pool *)(data & WORK_STRUCT_WQ_DATA_MASK) == wp)
			break;
		/* requeued elsewhere meanwhile: look again */
		raw_spin_unlock(&wp->lock);
	}

	if (!(data & WORK_STRUCT_PWQ)) {
		wkr = find_worker_executing_work(wp, wk);
		if (!wkr)
			goto idle;
	}
	insert_wq_barrier(wp, b, wk, wkr);
	raw_spin_unlock(&wp->lock);
	local_irq_enable();
	return true;
idle:
	raw_spin_unlock(&wp->lock);
	local_irq_enable();
	return false;
}

/**
 * flush_work - wait for the last queued instance of @wk to finish
 *
 * Returns true if it had to wait (the item was pending or running), false
 * if the item was idle.
 */
bool flush_work(struct work_struct *wk)
{
	struct wq_barrier b;

	might_sleep();
	if (!start_flush_work(wk, &b))
		return false;
	wait_for_completion(&b.done);
	return true;
}

/**
 * cancel_work_sync - remove @wk if pending and wait for it if running
 *
 * Returns true if the item was pending (it will not run for that queuing),
 * false otherwise.  When it returns the item is neither pending nor running,
 * unless it was queued again meanwhile.
 */
bool cancel_work_sync(struct work_struct *wk)
{
	unsigned long flags;
	int ret;

	might_sleep();
	while ((ret = try_to_grab_pending(wk, &flags)) < 0)
		cpu_relax();
	local_irq_restore(flags);

	/* we own PENDING, so nobody can queue it: wait for a running instance */
	flush_work(wk);
	clear_work_pending(wk);
	return ret;
}

/*
 * Move @wk and the items LINKED behind it (flush barriers) to the tail of
 * @head.  Pool lock held.
 */
static void move_linked_works(struct work_struct *wk, struct list_head *head)
{
	struct work_struct *n;

	for (;;) {
		n = list_next_entry(wk, entry);
		list_move_tail(&wk->entry, head);
		if (!(*work_data_bits(wk) & WORK_STRUCT_LINKED))
			break;
		wk = n;
	}
}

/* Pool lock held, dropped while the function runs. */
static void process_one_work(struct worker *wkr, struct work_struct *wk)
{
	struct worker_pool *wp = wkr->pool;
	struct worker *collision;
	work_func_t func = wk->func;

	/*
	 * Still running on another worker of this pool: hand it (and its
	 * barriers) over, so that it never runs concurrently with itself.
	 */
	collision = find_worker_executing_work(wp, wk);
	if (unlikely(collision)) {
		move_linked_works(wk, &collision->scheduled);
		return;
	}

	/* a bound pool's workers run on its CPU */
	WARN_ON_ONCE(!(wp->flags & POOL_DISASSOCIATED) &&
		     raw_smp_processor_id() != wp->cpu);

	list_add(&wkr->busy_entry, &wp->busy_list);
	wkr->current_work = wk;
	wkr->current_func = func;
	list_del_init(&wk->entry);

	/* nr_running is at least 1 for us here; kept for symmetry with Linux */
	if (need_more_worker(wp))
		wake_up_worker(wp);

	/* unlinked: from here on it may be queued again, also on this pool */
	smp_wmb();
	WRITE_ONCE(wk->data, (unsigned long)wp);
	smp_mb();
	raw_spin_unlock_irq(&wp->lock);

	func(wk);

	if (unlikely(preempt_count() || irqs_disabled())) {
		char sym[128];

		sprint_symbol(sym, (unsigned long)func);
		pr_err("BUG: workqueue leaked atomic or irqs-off: %s/%d preempt=%#x func=%s\n",
		       current->comm, current->pid, preempt_count(), sym);
		WARN_ON(1);
	}
	cond_resched();

	raw_spin_lock_irq(&wp->lock);
	list_del_init(&wkr->busy_entry);
	wkr->current_work = NULL;
	wkr->current_func = NULL;
}

/* Run everything on @wkr's scheduled list.  Pool lock held. */
static void process_scheduled_works(struct worker *wkr)
{
	while (!list_empty(&wkr->scheduled))
		process_one_work(wkr, list_first_entry(&wkr->scheduled,
						       struct work_struct, entry));
}

/* Pool lock held: @wkr has nothing to do. */
static void worker_enter_idle(struct worker *wkr)
{
	struct worker_pool *wp = wkr->pool;

	if (WARN_ON_ONCE(wkr->flags & WORKER_IDLE) ||
	    WARN_ON_ONCE(!list_empty(&wkr->entry)))
		return;
	/* PREP is already set, so nr_running does not change */
	wkr->flags |= WORKER_IDLE;
	wp->nr_idle++;
	wkr->last_active = ktime_get();
	list_add(&wkr->entry, &wp->idle_list);

	if (too_many_workers(wp) && !hrtimer_is_queued(&wp->idle_timer))
		hrtimer_start(&wp->idle_timer,
			      ns_to_ktime((u64)wq_idle_timeout_ms * NSEC_PER_MSEC),
			      HRTIMER_MODE_REL_SOFT);
}

/* Pool lock held. */
static void worker_leave_idle(struct worker *wkr)
{
	struct worker_pool *wp = wkr->pool;

	if (WARN_ON_ONCE(!(wkr->flags & WORKER_IDLE)))
		return;
	worker_clr_flags(wkr, WORKER_IDLE);
	wp->nr_idle--;
	list_del_init(&wkr->entry);
}

static int worker_thread(void *arg);

/*
 * Create an idle worker for @wp, in a free slot.  Sleeps; called without
 * the pool lock.  Returns NULL if no slot is free or the thread could not
 * be created.
 */
static struct worker *create_worker(struct worker_pool *wp)
{
	struct worker *wkr;
	struct task_struct *p;
	int id;

	/* held until the worker is bound or unbound as its pool is */
	mutex_lock(&wq_pool_attach_mutex);
	raw_spin_lock_irq(&wp->lock);
	for (id = 0; id < NR_POOL_WORKERS; id++)
		if (!test_bit(id, &wp->worker_ids))
			break;
	if (id == NR_POOL_WORKERS) {
		raw_spin_unlock_irq(&wp->lock);
		mutex_unlock(&wq_pool_attach_mutex);
		return NULL;
	}
	__set_bit(id, &wp->worker_ids);
	raw_spin_unlock_irq(&wp->lock);

	wkr = &wp->workers[id];
	memset(wkr, 0, sizeof(*wkr));
	INIT_LIST_HEAD(&wkr->entry);
	INIT_LIST_HEAD(&wkr->busy_entry);
	INIT_LIST_HEAD(&wkr->scheduled);
	wkr->pool = wp;
	wkr->id = id;
	wkr->flags = WORKER_PREP;	/* not counted until it runs items */

	p = kthread_create(worker_thread, wkr, "kworker/%d:%d%s", wp->cpu, id,
			   wp->highpri ? "H" : "");
	if (!p) {
		raw_spin_lock_irq(&wp->lock);
		__clear_bit(id, &wp->worker_ids);
		raw_spin_unlock_irq(&wp->lock);
		mutex_unlock(&wq_pool_attach_mutex);
		return NULL;
	}
	kthread_bind(p, wp->cpu);
	kthread_set_per_cpu(p, wp->cpu);
	if (wp->highpri)
		set_user_nice(p, HIGHPRI_NICE_LEVEL);
	wkr->task = p;

	/* the pool's CPU is down: the new worker is unbound like the others */
	if (wp->flags & POOL_DISASSOCIATED) {
		wkr->flags |= WORKER_UNBOUND;
		kthread_set_per_cpu(p, -1);
		WARN_ON_ONCE(set_cpus_allowed_ptr(p, cpu_possible_mask) < 0);
	}

	raw_spin_lock_irq(&wp->lock);
	wp->nr_workers++;
	worker_enter_idle(wkr);
	wake_up_process(p);
	raw_spin_unlock_irq(&wp->lock);
	mutex_unlock(&wq_pool_attach_mutex);
	return wkr;
}

/* Pool lock held: tell idle @wkr to exit. */
static void destroy_worker(struct worker *wkr)
{
	struct worker_pool *wp = wkr->pool;

	if (WARN_ON(wkr->current_work) || WARN_ON(!list_empty(&wkr->scheduled)) ||
	    WARN_ON(!(wkr->flags & WORKER_IDLE)))
		return;
	wp->nr_workers--;
	wp->nr_idle--;
	list_del_init(&wkr->entry);
	wkr->flags |= WORKER_DIE;
	wake_up_process(wkr->task);
}

/* Reap the idle workers that have been idle the longest, beyond the two kept. */
static enum hrtimer_restart idle_worker_timeout(struct hrtimer *timer)
{
	struct worker_pool *wp = container_of(timer, struct worker_pool, idle_timer);
	unsigned long flags;

	raw_spin_lock_irqsave(&wp->lock, flags);
	while (too_many_workers(wp)) {
		struct worker *wkr;
		ktime_t expires;

		wkr = list_last_entry(&wp->idle_list, struct worker, entry);
		expires = wkr->last_active +
			  ns_to_ktime((u64)wq_idle_timeout_ms * NSEC_PER_MSEC);
		if (ktime_get() < expires) {
			hrtimer_start(&wp->idle_timer, expires, HRTIMER_MODE_ABS_SOFT);
			break;
		}
		destroy_worker(wkr);
	}
	raw_spin_unlock_irqrestore(&wp->lock, flags);
	return HRTIMER_NORESTART;
}

/*
 * Pool lock held, dropped and retaken.  Create workers until one is idle
 * or no longer needed; if creation fails, wait a little and retry.
 */
static void maybe_create_worker(struct worker_pool *wp)
{
	raw_spin_unlock_irq(&wp->lock);
	for (;;) {
		if (create_worker(wp) || !need_to_create_worker(wp))
			break;
		schedule_timeout_uninterruptible(max(1UL, msecs_to_jiffies(100)));
		if (!need_to_create_worker(wp))
			break;
	}
	raw_spin_lock_irq(&wp->lock);
}

/*
 * Pool lock held.  Become the pool's manager, if nobody is, and make sure
 * an idle worker exists.  Returns false if another worker is managing
 * (lock not dropped), true if the lock was dropped and the pool's state
 * must be looked at again.
 */
static bool manage_workers(struct worker *wkr)
{
	struct worker_pool *wp = wkr->pool;

	if (wp->flags & POOL_MANAGER_ACTIVE)
		return false;
	wp->flags |= POOL_MANAGER_ACTIVE;
	maybe_create_worker(wp);
	wp->flags &= ~POOL_MANAGER_ACTIVE;
	return true;
}

static int worker_thread(void *arg)
{
	struct worker *wkr = arg;
	struct worker_pool *wp = wkr->pool;

	/* the scheduler hooks look at worker->flags from now on */
	current->flags |= PF_WQ_WORKER;
woke_up:
	raw_spin_lock_irq(&wp->lock);
	if (unlikely(wkr->flags & WORKER_DIE)) {
		raw_spin_unlock_irq(&wp->lock);
		/* leave the pool where unbind/rebind cannot be walking it */
		mutex_lock(&wq_pool_attach_mutex);
		raw_spin_lock_irq(&wp->lock);
		current->flags &= ~PF_WQ_WORKER;
		current->thread_data = NULL;
		/* the slot may be reused once the bit is clear: touch it no more */
		__clear_bit(wkr->id, &wp->worker_ids);
		raw_spin_unlock_irq(&wp->lock);
		mutex_unlock(&wq_pool_attach_mutex);
		return 0;
	}
	worker_leave_idle(wkr);
recheck:
	if (!need_more_worker(wp))
		goto sleep;
	/* keep an idle worker ready to take over if we block */
	if (unlikely(!may_start_working(wp)) && manage_workers(wkr))
		goto recheck;

	WARN_ON_ONCE(!list_empty(&wkr->scheduled));
	/*
	 * Counted in nr_running from here: a second woken worker backs off.
	 * A worker rebound after its CPU came back is counted again only
	 * now, at the start of a run.
	 */
	worker_clr_flags(wkr, WORKER_PREP | WORKER_REBOUND);
	do {
		struct work_struct *wk = list_first_entry(&wp->worklist,
							  struct work_struct, entry);

		if (likely(!(*work_data_bits(wk) & WORK_STRUCT_LINKED))) {
			process_one_work(wkr, wk);
			if (unlikely(!list_empty(&wkr->scheduled)))
				process_scheduled_works(wkr);
		} else {
			move_linked_works(wk, &wkr->scheduled);
			process_scheduled_works(wkr);
		}
	} while (keep_working(wp));
	worker_set_flags(wkr, WORKER_PREP);
sleep:
	worker_enter_idle(wkr);
	__set_current_state(TASK_INTERRUPTIBLE);
	raw_spin_unlock_irq(&wp->lock);
	schedule();
	goto woke_up;
}

void wq_pool_counts(int cpu, bool highpri, int *nr_workers, int *idle)
{
	struct worker_pool *wp = per_cpu_ptr(&cpu_worker_pools[highpri ? 1 : 0], cpu);

	raw_spin_lock_irq(&wp->lock);
	*nr_workers = wp->nr_workers;
	*idle = wp->nr_idle;
	raw_spin_unlock_irq(&wp->lock);
}

/* ---------------------------------------------------------- CPU hotplug */

/*
 * @cpu is going down: its pools stop being bound.  Every worker is
 * marked UNBOUND (so none is counted in nr_running any more) and may run
 * anywhere; the pool is DISASSOCIATED, so that items queued on it still
 * run, on whichever CPU its workers get, without concurrency management.
 */
static void unbind_workers(int cpu)
{
	struct worker_pool *wp;
	struct worker *wkr;

	for_each_cpu_worker_pool(wp, cpu) {
		mutex_lock(&wq_pool_attach_mutex);
		raw_spin_lock_irq(&wp->lock);
		for_each_pool_worker(wkr, wp)
			wkr->flags |= WORKER_UNBOUND;
		wp->flags |= POOL_DISASSOCIATED;
		raw_spin_unlock_irq(&wp->lock);

		/* no longer per-CPU kthreads: balance_push moves them off */
		for_each_pool_worker(wkr, wp) {
			kthread_set_per_cpu(wkr->task, -1);
			WARN_ON_ONCE(set_cpus_allowed_ptr(wkr->task,
							  cpu_possible_mask) < 0);
		}
		mutex_unlock(&wq_pool_attach_mutex);

		/*
		 * Pass through the scheduler once: a worker of this CPU that
		 * was about to block has then seen UNBOUND, and no
		 * wq_worker_sleeping() decrements nr_running after the reset.
		 */
		schedule();
		atomic_set(&wp->nr_running, 0);

		/*
		 * Without concurrency management a blocking item could hold
		 * up the rest: start a worker on what is queued.
		 */
		raw_spin_lock_irq(&wp->lock);
		wake_up_worker(wp);
		raw_spin_unlock_irq(&wp->lock);
	}
}

/*
 * @wp's CPU is back: bind its workers to it again.  The affinity is
 * restored first, then UNBOUND is swapped for REBOUND under the pool lock;
 * each worker drops REBOUND (and is counted again) when it next starts
 * running items.  Idle workers are woken so they move to the CPU before
 * any local wake-up expects them there.
 */
static void rebind_workers(struct worker_pool *wp)
{
	struct worker *wkr;

	lockdep_assert_held(&wq_pool_attach_mutex);

	for_each_pool_worker(wkr, wp) {
		WARN_ON_ONCE(set_cpus_allowed_ptr(wkr->task,
						  cpumask_of(wp->cpu)) < 0);
		kthread_set_per_cpu(wkr->task, wp->cpu);
	}

	raw_spin_lock_irq(&wp->lock);
	wp->flags &= ~POOL_DISASSOCIATED;
	for_each_pool_worker(wkr, wp) {
		unsigned int worker_flags = wkr->flags;

		if (worker_flags & WORKER_IDLE)
			wake_up_process(wkr->task);
		WARN_ON_ONCE(!(worker_flags & WORKER_UNBOUND));
		worker_flags |= WORKER_REBOUND;
		worker_flags &= ~WORKER_UNBOUND;
		/* wq_worker_running() reads the flags without the lock */
		WRITE_ONCE(wkr->flags, worker_flags);
	}
	raw_spin_unlock_irq(&wp->lock);
}

/* CPUHP_WORKQUEUE_PREP startup: a pool that has no worker gets one. */
int workqueue_prepare_cpu(unsigned int cpu)
{
	struct worker_pool *wp;

	for_each_cpu_worker_pool(wp, cpu) {
		if (wp->nr_workers)
			continue;
		if (!create_worker(wp))
			return -ENOMEM;
	}
	return 0;
}

/* CPUHP_AP_WORKQUEUE_ONLINE startup, on @cpu in its hotplug thread. */
int workqueue_online_cpu(unsigned int cpu)
{
	struct worker_pool *wp;

	for_each_cpu_worker_pool(wp, cpu) {
		mutex_lock(&wq_pool_attach_mutex);
		if (wp->flags & POOL_DISASSOCIATED)
			rebind_workers(wp);
		mutex_unlock(&wq_pool_attach_mutex);
	}
	return 0;
}

/* CPUHP_AP_WORKQUEUE_ONLINE teardown, on @cpu in its hotplug thread. */
int workqueue_offline_cpu(unsigned int cpu)
{
	/* the pools' workers must be unbound from their own CPU */
	if (WARN_ON(cpu != smp_processor_id()))
		return -1;
	unbind_workers(cpu);
	return 0;
}

/* True while @cpu's pools are unbound (tests). */
bool wq_pool_disassociated(int cpu)
{
	return READ_ONCE(per_cpu(cpu_worker_pools, cpu)[0].flags) & POOL_DISASSOCIATED;
}

/*
 * In kernel_init_freeable() before smp_init(): the pools of the CPUs not
 * up yet start disassociated, as Linux's workqueue_init_early() leaves
 * every pool; each gets its worker at CPUHP_WORKQUEUE_PREP and is bound
 * at CPUHP_AP_WORKQUEUE_ONLINE as its CPU comes up.
 */
void workqueue_init(void)
{
	int cpu, i;

	boot_order_mark("workqueue_init");
	for_each_possible_cpu(cpu) {
		for (i = 0; i < NR_STD_WORKER_POOLS; i++) {
			struct worker_pool *wp = per_cpu_ptr(&cpu_worker_pools[i], cpu);

			raw_spin_lock_init(&wp->lock);
			INIT_LIST_HEAD(&wp->worklist);
			INIT_LIST_HEAD(&wp->idle_list);
			INIT_LIST_HEAD(&wp->busy_list);
			hrtimer_init(&wp->idle_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
			wp->idle_timer.function = idle_worker_timeout;
			atomic_set(&wp->nr_running, 0);
			wp->cpu = cpu;
			wp->highpri = i == 1;
			if (!cpu_online(cpu))
				wp->flags |= POOL_DISASSOCIATED;
		}
	}
	boot_timing_mark("workqueue_init: pools", -1);
	for_each_online_cpu(cpu) {
		for (i = 0; i < NR_STD_WORKER_POOLS; i++)
			WARN_ON(!create_worker(per_cpu_ptr(&cpu_worker_pools[i], cpu)));
		boot_timing_mark("workqueue_init: workers of CPU", cpu);
	}
	smp_mb();
	WRITE_ONCE(wq_online, true);

	/* Linux has these two in its static hotplug table. */
	cpuhp_setup_state_nocalls(CPUHP_WORKQUEUE_PREP, "workqueue:prepare",
				  workqueue_prepare_cpu, NULL);
	cpuhp_setup_state_nocalls(CPUHP_AP_WORKQUEUE_ONLINE, "workqueue:online",
				  workqueue_online_cpu, workqueue_offline_cpu);
}
