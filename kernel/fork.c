// SPDX-License-Identifier: GPL-2.0
/*
 * Creating and ending tasks.  Kernel stacks come from the vmalloc area
 * (VMAP_STACK), so each has an unmapped guard page below it and an
 * overflow faults (reported by name, DESIGN 3); with KASAN, as in Linux
 * without KASAN_VMALLOC, they are THREAD_SIZE-aligned page allocator
 * blocks instead, whose shadow is real and is unpoisoned on every
 * allocation, so a reused stack starts without the red zones of the
 * frames its last task died with.  Task structures come from the page
 * allocator until SLUB provides a cache for them.
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/kthread.h>
#include <linux/sched/task.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>
#include <linux/llist.h>
#include <linux/errno.h>
#include <linux/delay.h>
#include <asm/stacktrace.h>
#include <reent.h>
#include "sched/sched.h"

LIST_HEAD(task_list);
/*
 * An rwlock_t as in Linux: writers (fork, exit) hold it with IRQs off on
 * !RT; on PREEMPT_RT it is a sleeping rwlock and IRQs stay on.
 */
DEFINE_RWLOCK(tasklist_lock);
/* Threads that have exited but whose memory is not freed yet. */
atomic_t nr_dying_tasks;
static int next_pid = 1;
/* Threads created since boot (read by tests that count free pages). */
unsigned long total_forks;

/* CPU 0's idle task: start_kernel() runs as it, on the boot stack. */
struct task_struct init_task = {
	.__state = TASK_RUNNING,
	.flags = PF_KTHREAD,
	.comm = "swapper/0",
	.policy = SCHED_NORMAL,
	.prio = MAX_PRIO, .static_prio = MAX_PRIO, .normal_prio = MAX_PRIO,
	.cpus_ptr = &init_task.cpus_mask,
	.nr_cpus_allowed = 1,
	.pi_lock = __RAW_SPIN_LOCK_UNLOCKED(init_task.pi_lock),
	.tasks = LIST_HEAD_INIT(init_task.tasks),
};

/* arch/x86/kernel/process_64.c */
void copy_thread(struct task_struct *p, int (*fn)(void *), void *arg);

static struct task_struct *alloc_task_struct(void)
{
	unsigned int order = get_order(sizeof(struct task_struct) + sizeof(struct _reent));
	struct task_struct *p = (void *)__get_free_pages(GFP_KERNEL | __GFP_ZERO, order);

	if (!p)
		return NULL;
	p->reent = (struct _reent *)(p + 1);
	_REENT_INIT_PTR(p->reent);
	return p;
}

static void free_task_struct(struct task_struct *p)
{
	free_pages((unsigned long)p,
		   get_order(sizeof(struct task_struct) + sizeof(struct _reent)));
}

static void *alloc_thread_stack(void)
{
	if (IS_ENABLED(CONFIG_VMAP_STACK))
		return vmalloc(THREAD_SIZE);
	return (void *)__get_free_pages(GFP_KERNEL, THREAD_SIZE_ORDER);
}

static void free_thread_stack(void *stack)
{
	if (IS_ENABLED(CONFIG_VMAP_STACK))
		vfree(stack);
	else
		free_pages((unsigned long)stack, THREAD_SIZE_ORDER);
}

static void sched_fork(struct task_struct *p)
{
	struct task_struct *parent = current;

	p->__state = TASK_NEW;
	p->policy = SCHED_NORMAL;
	p->static_prio = NICE_TO_PRIO(0);
	p->normal_prio = p->prio = p->static_prio;
	p->sched_class = &fair_sched_class;
	set_load_weight(p);
	p->se.vruntime = 0;
	INIT_LIST_HEAD(&p->rt.run_list);
	init_dl_task(p);
	p->rt.time_slice = sched_rr_timeslice();
	/*
	 * Linux's kthreadd makes every kthread and lets it run on all the
	 * (housekeeping) CPUs, possible ones included: a thread made before
	 * smp_init() or while a CPU is down may run there once it is up.
	 */
	cpumask_copy(&p->cpus_mask, cpu_possible_mask);
	p->cpus_ptr = &p->cpus_mask;
	p->nr_cpus_allowed = cpumask_weight(&p->cpus_mask);
	p->cpu = task_cpu(parent);
	p->wake_cpu = p->cpu;
	p->pi_waiters = RB_ROOT_CACHED;
	raw_spin_lock_init(&p->pi_lock);
#ifdef CONFIG_PREEMPT_RCU
	p->rcu_read_lock_nesting = 0;
	p->rcu_read_unlock_special.s = 0;
	INIT_LIST_HEAD(&p->rcu_node_entry);
	p->rcu_blocked_node = NULL;
#endif
	/* Starts with the count every switch carries (see core.c). */
	p->thread_info.preempt_lazy_count = 0;
}

static struct task_struct *create_kthread(int (*fn)(void *), void *data, const char *name)
{
	struct task_struct *p = alloc_task_struct();

	if (!p)
		return NULL;
	p->stack = alloc_thread_stack();
	if (!p->stack) {
		free_task_struct(p);
		return NULL;
	}
	p->stack_size = THREAD_SIZE;
	atomic_set(&p->usage, 1);	/* the thread's own; kthread_stop() takes another */
	p->flags = PF_KTHREAD;
	p->threadfn = fn;
	p->thread_data = data;
	strncpy(p->comm, name, sizeof(p->comm) - 1);
	sched_fork(p);
	copy_thread(p, fn, data);
	sched_cgroup_fork(p);
	/* Asleep until wake_up_process(): nothing runs it before that. */
	p->__state = TASK_UNINTERRUPTIBLE;
	write_lock_irq(&tasklist_lock);
	p->pid = next_pid++;
	WRITE_ONCE(total_forks, total_forks + 1);
	list_add_tail(&p->tasks, &task_list);
	write_unlock_irq(&tasklist_lock);
	return p;
}

struct task_struct *kthread_create_on_cpu_node(int (*threadfn)(void *data), void *data,
					       int node, const char *fmt, ...)
{
	char name[TASK_COMM_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsniprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	return create_kthread(threadfn, data, name);
}

void kthread_bind(struct task_struct *p, unsigned int cpu)
{
	unsigned long flags;

	WARN_ON(READ_ONCE(p->__state) != TASK_UNINTERRUPTIBLE || p->on_rq);
	/* A CPU that does not exist would index past the run queues. */
	if (WARN_ON(cpu >= CONFIG_NR_CPUS || !cpumask_test_cpu(cpu, cpu_possible_mask)))
		return;
	raw_spin_lock_irqsave(&p->pi_lock, flags);
	cpumask_copy(&p->cpus_mask, cpumask_of(cpu));
	p->cpus_ptr = &p->cpus_mask;
	p->nr_cpus_allowed = 1;
	p->cpu = p->wake_cpu = cpu;
	p->flags |= PF_NO_SETAFFINITY;
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);
}

void kthread_set_per_cpu(struct task_struct *p, int cpu)
{
	if (!(p->flags & PF_KTHREAD))
		return;
	if (cpu < 0) {
		WRITE_ONCE(p->kthread_per_cpu, false);
		return;
	}
	WARN_ON_ONCE(p->nr_cpus_allowed != 1 || !cpumask_test_cpu(cpu, &p->cpus_mask));
	WRITE_ONCE(p->kthread_per_cpu, true);
}

bool kthread_is_per_cpu(struct task_struct *p)
{
	return (p->flags & PF_KTHREAD) && READ_ONCE(p->kthread_per_cpu);
}

bool __kthread_should_park(struct task_struct *k)
{
	return READ_ONCE(k->should_park);
}

bool kthread_should_park(void)
{
	return __kthread_should_park(current);
}

void kthread_parkme(void)
{
	for (;;) {
		set_special_state(TASK_PARKED);
		if (!READ_ONCE(current->should_park))
			break;
		/*
		 * Preemption off from the flag to the switch: a parker on this
		 * CPU sees the flag only once we are off it.
		 */
		preempt_disable();
		if (!current->is_parked) {
			WRITE_ONCE(current->is_parked, true);
			wake_up_process(current->park_waiter);
		}
		schedule_preempt_disabled();
		preempt_enable();
	}
	__set_current_state(TASK_RUNNING);
}

void kthread_park(struct task_struct *k)
{
	if (WARN_ON_ONCE(k == current || READ_ONCE(k->should_park)))
		return;
	k->park_cpu = task_cpu(k);
	k->park_waiter = current;
	WRITE_ONCE(k->should_park, true);
	wake_up_process(k);
	/*
	 * Woken by the thread itself, not by a timer: on PREEMPT_RT a
	 * sleep's timer may need the very ksoftirqd being parked.
	 */
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (READ_ONCE(k->is_parked))
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	/* Parked: now wait for the switch away to complete. */
	while (READ_ONCE(k->on_rq) || smp_load_acquire(&k->on_cpu))
		cpu_relax();
}

void kthread_park_unstarted(struct task_struct *k)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&k->pi_lock, flags);
	WARN_ON_ONCE(READ_ONCE(k->__state) != TASK_UNINTERRUPTIBLE || k->on_rq);
	k->park_cpu = task_cpu(k);
	WRITE_ONCE(k->should_park, true);
	WRITE_ONCE(k->is_parked, true);
	WRITE_ONCE(k->__state, TASK_PARKED);
	raw_spin_unlock_irqrestore(&k->pi_lock, flags);
}

void kthread_unpark(struct task_struct *k)
{
	unsigned long flags;

	if (!READ_ONCE(k->should_park))
		return;
	raw_spin_lock_irqsave(&k->pi_lock, flags);
	/* Pushed elsewhere while its CPU was away?  Bind it home again. */
	if (READ_ONCE(k->is_parked)) {
		cpumask_copy(&k->cpus_mask, cpumask_of(k->park_cpu));
		k->nr_cpus_allowed = 1;
		k->cpu = k->wake_cpu = k->park_cpu;
	}
	WRITE_ONCE(k->should_park, false);
	WRITE_ONCE(k->is_parked, false);
	raw_spin_unlock_irqrestore(&k->pi_lock, flags);
	wake_up_state(k, TASK_PARKED);
}

bool kthread_should_stop(void)
{
	return READ_ONCE(current->should_stop);
}

int kthread_stop(struct task_struct *k)
{
	int ret;

	atomic_inc(&k->usage);		/* the caller guarantees k has not exited yet */
	WRITE_ONCE(k->should_stop, true);
	k->stop_waiter = current;
	wake_up_process(k);
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (READ_ONCE(k->__state) == TASK_DEAD)
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	/* Dead, but maybe still switching away: its stack is in use until then. */
	while (smp_load_acquire(&k->on_cpu))
		cpu_relax();
	ret = k->exit_code;
	put_task_struct_dead(k);
	return ret;
}

/* The checks Linux makes when a thread returns to its caller's caller. */
static void exit_checks(struct task_struct *p)
{
	if (preempt_count() != 0)
		sched_report_bug("BUG: thread %s/%d leaked preempt count 0x%08x at exit\n",
				 p->comm, p->pid, preempt_count());
	if (p->migration_disabled)
		sched_report_bug("BUG: thread %s/%d exited migrate-disabled (%u)\n",
				 p->comm, p->pid, p->migration_disabled);
#ifdef CONFIG_PREEMPT_LAZY
	/* migrate_disable() holds a lazy count too: one report covers both. */
	else if (p->thread_info.preempt_lazy_count)
		sched_report_bug("BUG: thread %s/%d exited with lazy count %d\n",
				 p->comm, p->pid, p->thread_info.preempt_lazy_count);
#endif
}

__noreturn void kthread_exit(int result)
{
	struct task_struct *p = current;

	exit_checks(p);
	preempt_count_set(0);
	p->exit_code = result;
	p->flags |= PF_EXITING;
	atomic_inc(&nr_dying_tasks);
	write_lock_irq(&tasklist_lock);
	list_del_init(&p->tasks);
	write_unlock_irq(&tasklist_lock);
	/*
	 * TASK_DEAD before waking kthread_stop()'s caller, or it could check,
	 * find us alive and sleep forever.  Preemption stays off from here
	 * to the final switch (see do_task_dead()).
	 */
	preempt_disable();
	set_special_state(TASK_DEAD);
	if (p->stop_waiter)
		wake_up_process(p->stop_waiter);
	do_task_dead();
}

static void __put_task_struct(struct task_struct *p)
{
	if (p->flags & PF_EXITING)
		atomic_dec(&nr_dying_tasks);
	free_thread_stack(p->stack);
	free_task_struct(p);
}

/*
 * On PREEMPT_RT vfree() and the page allocator take sleeping locks, so a
 * last reference dropped in atomic context (finish_task_switch(), the PI
 * chain walk) frees from a work item instead — Linux defers through RCU
 * for the same reason.  A dead task is never woken again, so its
 * wake_entry node is free to carry it.
 */
static struct llist_head dead_tasks = LLIST_HEAD_INIT(dead_tasks);

static void free_dead_tasks_fn(struct work_struct *work)
{
	struct llist_node *list = llist_del_all(&dead_tasks);

	while (list) {
		struct task_struct *p = container_of(list, struct task_struct, wake_entry);

		list = list->next;
		__put_task_struct(p);
	}
}
static DECLARE_WORK(free_dead_tasks_work, free_dead_tasks_fn);

/* Called once the dead task is off its CPU (finish_task_switch, kthread_stop). */
void put_task_struct_dead(struct task_struct *p)
{
	if (!atomic_dec_and_test(&p->usage))
		return;
	if (IS_ENABLED(CONFIG_PREEMPT_RT) && (preempt_count() || irqs_disabled())) {
		/* Before workqueue_init() the list just waits for a later put. */
		llist_add(&p->wake_entry, &dead_tasks);
		schedule_work(&free_dead_tasks_work);
		return;
	}
	__put_task_struct(p);
}

/*
 * The idle task of an AP.  APs start before the page allocator exists, so
 * their idle tasks live in per-CPU storage; the stack is the entry-area
 * stack the AP boots on.
 */
static DEFINE_PER_CPU(struct task_struct, idle_task_storage);
static DEFINE_PER_CPU(struct _reent, idle_reent_storage);

struct task_struct *fork_idle(int cpu, unsigned long stack_top)
{
	struct task_struct *p = per_cpu_ptr(&idle_task_storage, cpu);

	memset(p, 0, sizeof(*p));
	p->reent = per_cpu_ptr(&idle_reent_storage, cpu);
	_REENT_INIT_PTR(p->reent);
	atomic_set(&p->usage, 1);
	sched_fork(p);
	p->stack = (void *)(stack_top - THREAD_SIZE);
	p->stack_size = THREAD_SIZE;
	p->pid = 0;
	INIT_LIST_HEAD(&p->tasks);
	init_idle(p, cpu);
	return p;
}
