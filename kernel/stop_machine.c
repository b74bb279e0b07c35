// SPDX-License-Identifier: GPL-2.0
/*
 * Stopper threads ("migration/N"): one per CPU, in the stop class, running
 * queued cpu_stop_work items.  The class itself is kernel/sched/stop_task.c.
 *
 * Lifetimes are the subtle part.  A waiter in stop_one_cpu() owns both the
 * work item and its cpu_stop_done on its stack, so the stopper signals it
 * through a completion: complete() holds the completion's lock while it
 * wakes the waiter, and wait_for_completion() takes that lock again before
 * returning, so the waiter's frame outlives every access the stopper makes.
 * A nowait item has no done at all: the stopper copies what it needs out of
 * the item before calling it, because the callback itself may release the
 * memory the item lives in (affine_move_task()'s pending does exactly that).
 */
#include <linux/stop_machine.h>
#include <linux/smpboot.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/mutex.h>
#include <linux/kthread.h>
#include <linux/percpu.h>
#include <linux/sched/wake_q.h>
#include "sched/sched.h"

struct cpu_stop_done {
	atomic_t nr_todo;		/* items still to run */
	int ret;			/* the last nonzero return */
	struct completion completion;
};

struct cpu_stopper {
	struct task_struct *thread;
	raw_spinlock_t lock;
	bool enabled;			/* thread exists: accept work */
	struct list_head works;
	/* what runs now, for a backtrace taken inside a callback */
	cpu_stop_fn_t fn;
	unsigned long caller;
	struct cpu_stop_work stop_work;	/* for stop_machine(), one per CPU */
};

static DEFINE_PER_CPU(struct cpu_stopper, cpu_stopper);
static bool stop_machine_initialized;

static void cpu_stop_init_done(struct cpu_stop_done *done, unsigned int nr_todo)
{
	memset(done, 0, sizeof(*done));
	atomic_set(&done->nr_todo, nr_todo);
	init_completion(&done->completion);
}

/* The last of the items sharing @done has run. */
static void cpu_stop_signal_done(struct cpu_stop_done *done)
{
	if (atomic_dec_and_test(&done->nr_todo))
		complete(&done->completion);
}

/*
 * Append @work to @stopper's list; the stopper is woken through @wakeq once
 * the caller has dropped the lock, so the wakeup takes no rq lock under it.
 */
static void __cpu_stop_queue_work(struct cpu_stopper *stopper, struct cpu_stop_work *work,
				  struct wake_q_head *wakeq)
{
	list_add_tail(&work->list, &stopper->works);
	wake_q_add(wakeq, stopper->thread);
}

/* False, and @work->done signalled, if @cpu has no stopper to run it. */
static bool cpu_stop_queue_work(unsigned int cpu, struct cpu_stop_work *work)
{
	struct cpu_stopper *stopper = per_cpu_ptr(&cpu_stopper, cpu);
	DEFINE_WAKE_Q(wakeq);
	unsigned long flags;
	bool enabled;

	/*
	 * Preemption stays off until the stopper is woken: a caller on @cpu
	 * must not be preempted by the stopper (woken by someone else) before
	 * the wakeup below has been issued, or it would stall behind it.
	 */
	preempt_disable();
	raw_spin_lock_irqsave(&stopper->lock, flags);
	enabled = stopper->enabled;
	if (enabled)
		__cpu_stop_queue_work(stopper, work, &wakeq);
	else if (work->done)
		cpu_stop_signal_done(work->done);
	raw_spin_unlock_irqrestore(&stopper->lock, flags);
	wake_up_q(&wakeq);
	preempt_enable();
	return enabled;
}

int stop_one_cpu(unsigned int cpu, cpu_stop_fn_t fn, void *arg)
{
	struct cpu_stop_done done;
	struct cpu_stop_work work = {
		.fn = fn, .arg = arg, .done = &done, .caller = _RET_IP_,
	};

	cpu_stop_init_done(&done, 1);
	if (!cpu_stop_queue_work(cpu, &work))
		return -ENOENT;
	/* Our own CPU: let the stopper in now instead of sleeping first. */
	cond_resched();
	wait_for_completion(&done.completion);
	return done.ret;
}

bool stop_one_cpu_nowait(unsigned int cpu, cpu_stop_fn_t fn, void *arg,
			 struct cpu_stop_work *work_buf)
{
	*work_buf = (struct cpu_stop_work){ .fn = fn, .arg = arg, .caller = _RET_IP_ };
	return cpu_stop_queue_work(cpu, work_buf);
}

static struct cpu_stop_work *cpu_stop_dequeue(struct cpu_stopper *stopper)
{
	struct cpu_stop_work *work = NULL;

	raw_spin_lock_irq(&stopper->lock);
	if (!list_empty(&stopper->works)) {
		work = list_first_entry(&stopper->works, struct cpu_stop_work, list);
		list_del_init(&work->list);
	}
	raw_spin_unlock_irq(&stopper->lock);
	return work;
}

static int cpu_stopper_thread(void *data)
{
	struct cpu_stopper *stopper = this_cpu_ptr(&cpu_stopper);

	for (;;) {
		struct cpu_stop_work *work;
		struct cpu_stop_done *done;
		cpu_stop_fn_t fn;
		void *arg;
		int ret;

		set_current_state(TASK_INTERRUPTIBLE);
		work = cpu_stop_dequeue(stopper);
		if (!work) {
			schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);
		/* Nothing of @work is read after fn() starts (see the top). */
		fn = work->fn;
		arg = work->arg;
		done = work->done;
		stopper->fn = fn;
		stopper->caller = work->caller;
		preempt_disable();		/* callbacks run atomic */
		ret = fn(arg);
		if (done) {
			if (ret)
				done->ret = ret;
			cpu_stop_signal_done(done);
		}
		preempt_enable_no_resched();
		stopper->fn = NULL;
		stopper->caller = 0;
	}
	return 0;
}

/* On the control CPU, just made: the thread is @cpu's stop task from now. */
static void cpu_stop_create(unsigned int cpu)
{
	struct cpu_stopper *stopper = per_cpu_ptr(&cpu_stopper, cpu);

	sched_set_stop_task(cpu, stopper->thread);
}

/*
 * migration/N: an smpboot family that parks itself - stop_machine_park()
 * in take_cpu_down() turns work away from a CPU going down, and
 * cpuhp_online_idle()'s stop_machine_unpark() takes it again.
 */
static struct smp_hotplug_thread cpu_stop_threads = {
	.store = &cpu_stopper.thread,
	.thread_fn = cpu_stopper_thread,
	.create = cpu_stop_create,
	.selfparking = true,
	.thread_comm = "migration/%u",
};

/* An early initcall in Linux: the boot CPU's stopper now, the APs' at bring-up. */
void cpu_stop_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct cpu_stopper *stopper = per_cpu_ptr(&cpu_stopper, cpu);

		raw_spin_lock_init(&stopper->lock);
		INIT_LIST_HEAD(&stopper->works);
	}
	BUG_ON(smpboot_register_percpu_thread(&cpu_stop_threads));
	stop_machine_unpark(raw_smp_processor_id());
	stop_machine_initialized = true;
}

/* ------------------------------------------------------------ stop_machine */

/*
 * One stop_machine() at a time: the per-CPU stop_work items are shared,
 * and two sets queued in different orders on different CPUs would each
 * wait for the other's CPUs forever.
 */
static DEFINE_MUTEX(stop_cpus_mutex);

enum multi_stop_state {
	MULTI_STOP_NONE,		/* not started */
	MULTI_STOP_PREPARE,		/* every stopper is on its way in */
	MULTI_STOP_DISABLE_IRQ,		/* all CPUs: IRQs off */
	MULTI_STOP_RUN,			/* the active CPUs call fn */
	MULTI_STOP_EXIT,		/* all done: leave with IRQs as found */
};

struct multi_stop_data {
	cpu_stop_fn_t fn;
	void *data;
	unsigned int num_threads;	/* stoppers taking part */
	const struct cpumask *active_cpus;	/* NULL: the first online CPU */
	enum multi_stop_state state;
	atomic_t thread_ack;		/* stoppers still to see this state */
};

static void set_state(struct multi_stop_data *msdata, enum multi_stop_state newstate)
{
	/* The count is ready before anyone can see the new state. */
	atomic_set(&msdata->thread_ack, msdata->num_threads);
	smp_wmb();
	WRITE_ONCE(msdata->state, newstate);
}

/* The last stopper to see a state moves everybody on to the next one. */
static void ack_state(struct multi_stop_data *msdata)
{
	if (atomic_dec_and_test(&msdata->thread_ack))
		set_state(msdata, msdata->state + 1);
}

/*
 * Every online CPU's stopper runs this at once and walks the states in
 * lock step, so that when fn runs on the active CPU(s), every other CPU
 * spins here with IRQs off and nothing else runs anywhere.
 */
static int multi_cpu_stop(void *data)
{
	struct multi_stop_data *msdata = data;
	enum multi_stop_state newstate, curstate = MULTI_STOP_NONE;
	int cpu = smp_processor_id(), err = 0;
	unsigned long flags;
	bool is_active;

	/* The caller may be here with IRQs off already (early boot). */
	local_save_flags(flags);
	if (!msdata->active_cpus)
		is_active = cpu == cpumask_first(cpu_online_mask);
	else
		is_active = cpumask_test_cpu(cpu, msdata->active_cpus);

	do {
		cpu_relax();
		newstate = READ_ONCE(msdata->state);
		if (newstate == curstate)
			continue;
		curstate = newstate;
		switch (curstate) {
		case MULTI_STOP_DISABLE_IRQ:
			local_irq_disable();
			break;
		case MULTI_STOP_RUN:
			if (is_active)
				err = msdata->fn(msdata->data);
			break;
		default:
			break;
		}
		ack_state(msdata);
	} while (curstate != MULTI_STOP_EXIT);

	local_irq_restore(flags);
	return err;
}

/*
 * Queue @fn on every CPU of @cpumask at once.  Preemption stays off while
 * queueing: were our own stopper to start its part first, it would spin
 * waiting for stoppers this CPU has not queued yet.
 */
static bool queue_stop_cpus_work(const struct cpumask *cpumask, cpu_stop_fn_t fn, void *arg,
				 struct cpu_stop_done *done)
{
	unsigned int cpu;
	bool queued = false;

	preempt_disable();
	for_each_cpu(cpu, cpumask) {
		struct cpu_stop_work *work = &per_cpu(cpu_stopper.stop_work, cpu);

		work->fn = fn;
		work->arg = arg;
		work->done = done;
		work->caller = _RET_IP_;
		if (cpu_stop_queue_work(cpu, work))
			queued = true;
	}
	preempt_enable();
	return queued;
}

static int __stop_cpus(const struct cpumask *cpumask, cpu_stop_fn_t fn, void *arg)
{
	struct cpu_stop_done done;

	cpu_stop_init_done(&done, cpumask_weight(cpumask));
	if (!queue_stop_cpus_work(cpumask, fn, arg, &done))
		return -ENOENT;
	wait_for_completion(&done.completion);
	return done.ret;
}

/*
 * Run @fn on the CPUs of @cpus (the first online CPU if NULL) while every
 * online CPU spins with IRQs off.  The caller holds cpus_read_lock() or
 * the hotplug write lock, so the set of online CPUs cannot change.
 */
int stop_machine_cpuslocked(cpu_stop_fn_t fn, void *data, const struct cpumask *cpus)
{
	struct multi_stop_data msdata = {
		.fn = fn,
		.data = data,
		.num_threads = num_online_cpus(),
		.active_cpus = cpus,
	};
	int ret;

	lockdep_assert_cpus_held();
	if (!stop_machine_initialized) {
		/* No stoppers yet: one CPU runs, so IRQs off is enough. */
		unsigned long flags;

		local_irq_save(flags);
		ret = fn(data);
		local_irq_restore(flags);
		return ret;
	}
	set_state(&msdata, MULTI_STOP_PREPARE);
	mutex_lock(&stop_cpus_mutex);
	ret = __stop_cpus(cpu_online_mask, multi_cpu_stop, &msdata);
	mutex_unlock(&stop_cpus_mutex);
	return ret;
}

int stop_machine(cpu_stop_fn_t fn, void *data, const struct cpumask *cpus)
{
	int ret;

	cpus_read_lock();
	ret = stop_machine_cpuslocked(fn, data, cpus);
	cpus_read_unlock();
	return ret;
}

/*
 * On the dying CPU, from its own stopper inside take_cpu_down(): accept
 * no more work.  The stopper goes to sleep when its current item returns
 * and nothing wakes it until stop_machine_unpark().
 */
void stop_machine_park(int cpu)
{
	struct cpu_stopper *stopper = per_cpu_ptr(&cpu_stopper, cpu);
	unsigned long flags;

	raw_spin_lock_irqsave(&stopper->lock, flags);
	stopper->enabled = false;
	raw_spin_unlock_irqrestore(&stopper->lock, flags);
}

/* The CPU is back (cpuhp_online_idle()): its stopper takes work again. */
void stop_machine_unpark(int cpu)
{
	struct cpu_stopper *stopper = per_cpu_ptr(&cpu_stopper, cpu);
	unsigned long flags;

	raw_spin_lock_irqsave(&stopper->lock, flags);
	stopper->enabled = stopper->thread != NULL;
	raw_spin_unlock_irqrestore(&stopper->lock, flags);
}
