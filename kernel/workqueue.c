// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU workqueues.
 *
 * Each CPU has two worker pools (normal and high priority), each served by
 * one kworker thread bound to that CPU.  Queuing an item sets its PENDING
 * bit (only the task that flips it from clear to set may link the item),
 * appends it to the pool's list under the pool lock and wakes the worker.
 * The worker unlinks the first item, clears PENDING, records the item as
 * its current one and calls the function with the lock dropped.
 *
 * flush_work() puts a barrier item right behind the target on the pool
 * list (or at the head, if the target is running), and waits for the
 * barrier to run: the list is FIFO, so the target has then finished.
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
#include <asm/processor.h>

#include "workqueue_internal.h"

enum {
	NR_STD_WORKER_POOLS	= 2,	/* normal and highpri */
	HIGHPRI_NICE_LEVEL	= -20,
};

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

/* Is @work being run by @pool's worker?  Pool lock held. */
static bool pool_running(struct worker_pool *pool, struct work_struct *work)
{
	struct worker *worker = &pool->worker;

	return worker->current_work == work && worker->current_func == work->func;
}

/* Pool lock held: link @work before @pos and note the pool in its data. */
static void insert_work(struct worker_pool *pool, struct work_struct *work,
			struct list_head *pos, unsigned long extra_flags)
{
	WRITE_ONCE(work->data, (unsigned long)pool | WORK_STRUCT_PENDING |
		   WORK_STRUCT_PWQ | extra_flags);
	list_add_tail(&work->entry, pos);
	if (pool->worker.task)
		wake_up_process(pool->worker.task);
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
		if (pool_running(last_pool, work)) {
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
 * Queue @barr behind the pending or running instance of @work.  Returns
 * false if @work is neither.
 */
static bool start_flush_work(struct work_struct *work, struct wq_barrier *barr)
{
	struct worker_pool *pool;
	struct list_head *pos;
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

	if (data & WORK_STRUCT_PWQ)
		pos = work->entry.next;		/* right behind the queued item */
	else if (pool_running(pool, work))
		pos = pool->worklist.next;	/* next, after the running one */
	else
		goto idle;

	INIT_WORK_ONSTACK(&barr->work, wq_barrier_func);
	init_completion(&barr->done);
	insert_work(pool, &barr->work, pos, 0);
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

static void process_one_work(struct worker *worker, struct work_struct *work)
{
	struct worker_pool *pool = worker->pool;
	work_func_t func = work->func;

	list_del_init(&work->entry);
	worker->current_work = work;
	worker->current_func = func;
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
	worker->current_work = NULL;
	worker->current_func = NULL;
}

static int worker_thread(void *arg)
{
	struct worker *worker = arg;
	struct worker_pool *pool = worker->pool;

	for (;;) {
		raw_spin_lock_irq(&pool->lock);
		while (!list_empty(&pool->worklist))
			process_one_work(worker,
					 list_first_entry(&pool->worklist,
							  struct work_struct, entry));
		set_current_state(TASK_INTERRUPTIBLE);
		raw_spin_unlock_irq(&pool->lock);
		schedule();
	}
	return 0;
}

static void create_worker(struct worker_pool *pool)
{
	struct worker *worker = &pool->worker;
	struct task_struct *p;

	worker->pool = pool;
	p = kthread_create(worker_thread, worker, "kworker/%d:0%s", pool->cpu,
			   pool->highpri ? "H" : "");
	if (WARN_ON(!p))
		return;
	kthread_bind(p, pool->cpu);
	if (pool->highpri)
		set_user_nice(p, HIGHPRI_NICE_LEVEL);
	raw_spin_lock_irq(&pool->lock);
	worker->task = p;
	raw_spin_unlock_irq(&pool->lock);
	wake_up_process(p);
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
			pool->cpu = cpu;
			pool->highpri = i == 1;
		}
	}
	for_each_online_cpu(cpu)
		for (i = 0; i < NR_STD_WORKER_POOLS; i++)
			create_worker(per_cpu_ptr(&cpu_worker_pools[i], cpu));
	smp_mb();
	WRITE_ONCE(wq_online, true);
}
