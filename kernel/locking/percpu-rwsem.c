// SPDX-License-Identifier: GPL-2.0
/*
 * percpu_rw_semaphore's slow paths (Linux 5.15): what readers do while a
 * writer is around, and the writer's side.  See
 * include/linux/percpu-rwsem.h.
 *
 * The ordering that makes it work, on both sides of a reader's count
 * and the writer's @block:
 *
 *   reader: count++ ; smp_mb ; read block    (__percpu_down_read_trylock)
 *   writer: block = 1 (xchg: full barrier) ; sum the counts
 *
 * Either the reader sees @block and backs out, or the writer's sum sees
 * the reader.  On release a reader orders its section before its count
 * drop (smp_mb) and the writer orders its sum before its section.
 */
#include <linux/percpu-rwsem.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/smp.h>

#define WQ_FLAG_PERCPU_READER	0x10	/* Linux's WQ_FLAG_CUSTOM */

unsigned int percpu_rwsem_readers(struct percpu_rw_semaphore *sem)
{
	unsigned int sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += *per_cpu_ptr(sem->read_count, cpu);
	return sum;
}

/* Count ourselves in, unless a writer holds or is taking the lock. */
static bool __percpu_down_read_trylock(struct percpu_rw_semaphore *sem)
{
	this_cpu_inc(*sem->read_count);
	/* Our count before our look at @block; pairs with the writer's xchg. */
	smp_mb();
	if (likely(!atomic_read(&sem->block)))
		return true;
	/* A writer: back out, and tell it in case it was summing us. */
	this_cpu_dec(*sem->read_count);
	swake_up_one(&sem->writer);
	return false;
}

static bool __percpu_down_write_trylock(struct percpu_rw_semaphore *sem)
{
	if (atomic_read(&sem->block))
		return false;
	return atomic_xchg(&sem->block, 1) == 0;
}

static bool __percpu_rwsem_trylock(struct percpu_rw_semaphore *sem, bool reader)
{
	if (reader) {
		bool ret;

		preempt_disable();
		ret = __percpu_down_read_trylock(sem);
		preempt_enable();
		return ret;
	}
	return __percpu_down_write_trylock(sem);
}

/*
 * Called by percpu_up_write()'s wakeup, under @waiters' lock, for each
 * waiter in order: take the lock on the waiter's behalf and wake it.
 * Readers do not count against the one exclusive wakeup, so every reader
 * up to the first writer gets in; a failed attempt (a new writer got
 * there first) ends the wakeup, the waiter stays queued.
 */
static int percpu_rwsem_wake_function(struct wait_queue_entry *wq_entry,
				      unsigned int mode, int wake_flags, void *key)
{
	bool reader = wq_entry->flags & WQ_FLAG_PERCPU_READER;
	struct percpu_rw_semaphore *sem = key;
	struct task_struct *p;

	if (!__percpu_rwsem_trylock(sem, reader))
		return 1;
	p = get_task_struct(wq_entry->private);
	list_del_init(&wq_entry->entry);
	/* The waiter may return (and its stack entry go) after this store. */
	smp_store_release(&wq_entry->private, NULL);
	wake_up_process(p);
	put_task_struct(p);
	return !reader;
}

/* Queue FIFO and sleep until a wakeup has taken the lock for us. */
static void percpu_rwsem_wait(struct percpu_rw_semaphore *sem, bool reader)
{
	struct wait_queue_entry wq_entry = {
		.private = current,
		.func = percpu_rwsem_wake_function,
		.entry = LIST_HEAD_INIT(wq_entry.entry),
	};
	bool wait;

	spin_lock_irq(&sem->waiters.lock);
	/* Try once more under the lock: an unlock may just have passed. */
	wait = !__percpu_rwsem_trylock(sem, reader);
	if (wait) {
		wq_entry.flags |= WQ_FLAG_EXCLUSIVE | (reader ? WQ_FLAG_PERCPU_READER : 0);
		list_add_tail(&wq_entry.entry, &sem->waiters.head);
	}
	spin_unlock_irq(&sem->waiters.lock);

	while (wait) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (!smp_load_acquire(&wq_entry.private))
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
}

/* A reader found the fast path closed (preemption off on entry and exit). */
bool __percpu_down_read(struct percpu_rw_semaphore *sem, bool try)
{
	atomic_long_inc(&sem->slow_reads);
	if (__percpu_down_read_trylock(sem))
		return true;
	if (try)
		return false;
	preempt_enable();
	percpu_rwsem_wait(sem, true);
	preempt_disable();
	return true;
}

/* A reader leaves while a writer may be summing: order, drop, tell it. */
void __percpu_up_read_slow(struct percpu_rw_semaphore *sem)
{
	/* The section before the count drop the writer will see. */
	smp_mb();
	this_cpu_dec(*sem->read_count);
	swake_up_one(&sem->writer);
}

static bool readers_active_check(struct percpu_rw_semaphore *sem)
{
	if (percpu_rwsem_readers(sem) != 0)
		return false;
	/* The sum before the writer's section: pairs with the reader's smp_mb. */
	smp_mb();
	return true;
}

/* Sleep on @writer until the per-CPU counts add up to zero. */
static void percpu_rwsem_wait_readers(struct percpu_rw_semaphore *sem)
{
	struct swait_queue w = {
		.task = current,
		.task_list = LIST_HEAD_INIT(w.task_list),
	};

	for (;;) {
		/* Queued and asleep before the sum: a drop after it wakes us. */
		prepare_to_swait_exclusive(&sem->writer, &w, TASK_UNINTERRUPTIBLE);
		if (readers_active_check(sem))
			break;
		schedule();
	}
	finish_swait(&sem->writer, &w);
}

void percpu_down_write(struct percpu_rw_semaphore *sem)
{
	might_sleep();
	rwsem_acquire(&sem->dep_map, 0, 0, _RET_IP_);
	/* Readers off the fast path: from here on they all look at @block. */
	rcu_sync_enter(&sem->rss);
	/* One writer at a time; a second one queues with the readers. */
	if (!__percpu_down_write_trylock(sem))
		percpu_rwsem_wait(sem, false);
	/* @block is set (a full barrier): new readers back out; drain the rest. */
	percpu_rwsem_wait_readers(sem);
}

void percpu_up_write(struct percpu_rw_semaphore *sem)
{
	rwsem_release(&sem->dep_map, _RET_IP_);
	/* The section before the release the readers will see. */
	smp_store_release(&sem->block.counter, 0);
	/* Hand the lock to the queued readers up to a writer, or to it. */
	__wake_up(&sem->waiters, TASK_NORMAL, 1, sem);
	/* Readers back on the fast path a grace period from now. */
	rcu_sync_exit(&sem->rss);
}
