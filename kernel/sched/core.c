// SPDX-License-Identifier: GPL-2.0
/*
 * The scheduler core: run queues, wakeups, __schedule() and the context
 * switch, the preemption entry points and the tick.  Semantics follow
 * Linux 5.15 (+ the RT patch's lazy preemption): the rq lock is held across
 * the switch and released by the next task in finish_task_switch(); every
 * switch happens with preempt_count() == PREEMPT_DISABLE_OFFSET, so the
 * per-CPU count needs no saving.  A remote wakeup is done by the waker under
 * the target's rq lock, except where Linux queues it on the target CPU's
 * wake_list for the reschedule IPI to complete (ttwu_queue_cond()).
 */
#include "sched.h"
#include <linux/boot_timing.h>
#include <linux/cpu.h>
#include <linux/kthread.h>
#include <linux/smp.h>
#include <linux/hardirq.h>
#include <linux/interrupt.h>
#include <linux/irqflags.h>
#include <linux/ktime.h>
#include <linux/workqueue.h>
#include <linux/sched/wake_q.h>
#include <linux/sched/task.h>
#include <linux/perf_stat.h>
#include <linux/rcupdate.h>
#include <linux/trace_irqsoff.h>
#include <asm/apic.h>
#include <asm/processor.h>

DEFINE_PER_CPU(struct rq, runqueues);
DEFINE_PER_CPU(struct task_struct *, current_task) = &init_task;
unsigned long volatile jiffies;
atomic_t sched_bug_count;

#ifdef CONFIG_PREEMPT_COUNT
#define PREEMPT_DISABLE_OFFSET	1
#else
#define PREEMPT_DISABLE_OFFSET	0
#endif

struct task_struct *__switch_to_asm(struct task_struct *prev, struct task_struct *next,
				    unsigned long *prev_sp, unsigned long next_sp);

void update_rq_clock(struct rq *rq)
{
	u64 now = local_clock();

	if ((s64)(now - rq->clock) > 0)
		rq->clock = now;
	rq->clock_task = rq->clock;
}

void double_rq_lock(struct rq *rq_a, struct rq *rq_b)
{
	if (rq_a == rq_b) {
		raw_spin_rq_lock(rq_a);
	} else if (rq_a < rq_b) {
		raw_spin_rq_lock(rq_a);
		raw_spin_rq_lock_nested(rq_b, SINGLE_DEPTH_NESTING);
	} else {
		raw_spin_rq_lock(rq_b);
		raw_spin_rq_lock_nested(rq_a, SINGLE_DEPTH_NESTING);
	}
}

void double_rq_unlock(struct rq *rq1, struct rq *rq2)
{
	raw_spin_rq_unlock(rq1);
	if (rq1 != rq2)
		raw_spin_rq_unlock(rq2);
}

bool double_lock_balance(struct rq *this_rq, struct rq *busiest)
{
	if (raw_spin_trylock(&busiest->__lock)) {
		rq_pin_lock(busiest);
		return false;
	}
	if (busiest < this_rq) {
		raw_spin_rq_unlock(this_rq);
		raw_spin_rq_lock(busiest);
		raw_spin_rq_lock_nested(this_rq, SINGLE_DEPTH_NESTING);
		return true;
	}
	raw_spin_rq_lock_nested(busiest, SINGLE_DEPTH_NESTING);
	return false;
}

void double_unlock_balance(struct rq *this_rq, struct rq *busiest)
{
	raw_spin_rq_unlock(busiest);
}

void sched_report_bug(const char *fmt, ...)
{
	char buf[160];
	va_list ap;

	va_start(ap, fmt);
	vsniprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	atomic_inc(&sched_bug_count);
	printk(KERN_ERR "%s", buf);
	dump_stack();
}

/* ------------------------------------------------------------ balance callbacks */

/* Run the callbacks of @head, which is off the rq's list; rq locked. */
static void do_balance_callbacks(struct rq *rq, struct callback_head *head)
{
	void (*func)(struct rq *rq);
	struct callback_head *next;

	lockdep_assert_rq_held(rq);
	while (head) {
		func = (void (*)(struct rq *))head->func;
		next = head->next;
		/* Unlinked first: the callback may queue itself again. */
		head->next = NULL;
		head = next;
		func(rq);
	}
}

/*
 * Take the queued callbacks off @rq.  @split: they will run in another
 * lock section (__sched_setscheduler()); balance_push then stays queued,
 * or a __schedule() on the dying CPU in between would not push.  (5.15
 * takes it off too; later kernels keep it, as here.)
 */
static struct callback_head *__splice_balance_callbacks(struct rq *rq, bool split)
{
	struct callback_head *head = rq->balance_callback;

	if (likely(!head))
		return NULL;
	lockdep_assert_rq_held(rq);
	if (split && head == &balance_push_callback)
		return NULL;
	rq->balance_callback = NULL;
	return head;
}

struct callback_head *splice_balance_callbacks(struct rq *rq)
{
	return __splice_balance_callbacks(rq, true);
}

/* The end of a lock section that may have queued callbacks: run them now. */
void __balance_callbacks(struct rq *rq)
{
	do_balance_callbacks(rq, __splice_balance_callbacks(rq, false));
}

/* The same, with balance_push left queued for the next __schedule(). */
void __balance_callbacks_keep_push(struct rq *rq)
{
	do_balance_callbacks(rq, __splice_balance_callbacks(rq, true));
}

/*
 * Callbacks spliced off an earlier lock section: the one place the lock
 * is taken again for them, as Linux does in __sched_setscheduler().
 */
void balance_callbacks(struct rq *rq, struct callback_head *head)
{
	unsigned long flags;

	if (unlikely(head)) {
		raw_spin_rq_lock_irqsave(rq, flags);
		do_balance_callbacks(rq, head);
		raw_spin_rq_unlock_irqrestore(rq, flags);
	}
}

void enqueue_task(struct rq *rq, struct task_struct *p, int flags)
{
	if (!(flags & ENQUEUE_NOCLOCK))
		update_rq_clock(rq);
	p->sched_class->enqueue_task(rq, p, flags);
}

void dequeue_task(struct rq *rq, struct task_struct *p, int flags)
{
	if (!(flags & DEQUEUE_NOCLOCK))
		update_rq_clock(rq);
	p->sched_class->dequeue_task(rq, p, flags);
}

void activate_task(struct rq *rq, struct task_struct *task, int en_flags)
{
	enqueue_task(rq, task, en_flags);
	task->on_rq = TASK_ON_RQ_QUEUED;
}

void deactivate_task(struct rq *rq, struct task_struct *task, int deq_flags)
{
	task->on_rq = (deq_flags & DEQUEUE_SLEEP) ? 0 : TASK_ON_RQ_MIGRATING;
	dequeue_task(rq, task, deq_flags);
}

/*
 * Ask rq's CPU to reschedule: set need_resched on its current task and,
 * if that CPU is not us, kick it with the reschedule IPI.
 */
void resched_curr(struct rq *rq)
{
	struct task_struct *curr = rq->curr;

	lockdep_assert_rq_held(rq);
	if (test_tsk_need_resched(curr))
		return;
	set_tsk_need_resched(curr);
	if (rq->cpu != smp_processor_id())
		smp_send_reschedule(rq->cpu);
}

/*
 * PREEMPT_LAZY: a normal task preempting a normal task only sets the lazy
 * flag; it takes effect where the lazy count of the running task is zero
 * (interrupt return, preempt_enable, preempt_lazy_enable, the tick).
 */
void resched_curr_lazy(struct rq *rq)
{
#ifdef CONFIG_PREEMPT_LAZY
	struct task_struct *curr = rq->curr;

	lockdep_assert_rq_held(rq);
	if (test_tsk_need_resched(curr) ||
	    test_bit(TIF_NEED_RESCHED_LAZY, &curr->thread_info.flags))
		return;
	set_bit(TIF_NEED_RESCHED_LAZY, &curr->thread_info.flags);
	if (rq->cpu != smp_processor_id())
		smp_send_reschedule(rq->cpu);
#else
	resched_curr(rq);
#endif
}

static bool class_above(const struct sched_class *a, const struct sched_class *b)
{
	for (const struct sched_class *c = a->next; c; c = c->next)
		if (c == b)
			return true;
	return false;
}

void check_preempt_curr(struct rq *rq, struct task_struct *task, int wf)
{
	if (task->sched_class == rq->curr->sched_class)
		rq->curr->sched_class->check_preempt_curr(rq, task, wf);
	else if (class_above(task->sched_class, rq->curr->sched_class))
		resched_curr(rq);
}

void set_task_cpu(struct task_struct *task, unsigned int new_cpu)
{
	if (task_cpu(task) != new_cpu) {
		/* The class moves what it keeps per CPU (fair vruntime, dl bandwidth). */
		if (task->sched_class->migrate_task_rq)
			task->sched_class->migrate_task_rq(task, new_cpu);
		task->se.nr_migrations++;
		perf_stat_migration();
		WARN_ON_ONCE(is_migration_disabled(task) && task->__state != TASK_NEW);
	}
	WRITE_ONCE(task->cpu, new_cpu);
	task->wake_cpu = new_cpu;
}

/* Move a queued, not running task from @src to @dst; both locks held. */
void move_queued_task_locked(struct rq *src, struct rq *dst, struct task_struct *p)
{
	deactivate_task(src, p, DEQUEUE_NOCLOCK);
	set_task_cpu(p, dst->cpu);
	activate_task(dst, p, ENQUEUE_NOCLOCK | ENQUEUE_MIGRATED);
	check_preempt_curr(dst, p, 0);
}

/*
 * May @p run on @cpu now?  As Linux 5.15: a pinned task may finish its
 * section on any online CPU; per-CPU kthreads stay till their CPU is
 * dead; every other task only on active CPUs (not on one going down).
 */
bool is_cpu_allowed(struct task_struct *p, int cpu)
{
	if (!cpumask_test_cpu(cpu, p->cpus_ptr))
		return false;
	if (is_migration_disabled(p))
		return cpu_online(cpu);
	if (kthread_is_per_cpu(p))
		return cpu_online(cpu);
	return cpu_active(cpu);
}

/* ------------------------------------------------------------ wakeups */

static int select_task_rq(struct task_struct *task, int cpu, int wake_flags)
{
	if (task->nr_cpus_allowed > 1 && !is_migration_disabled(task))
		cpu = task->sched_class->select_task_rq(task, cpu, wake_flags);
	if (!is_cpu_allowed(task, cpu))
		cpu = select_fallback_rq(cpu, task);
	return cpu;
}

static void ttwu_do_activate(struct rq *rq, struct task_struct *p, int wake_flags)
{
	activate_task(rq, p, ENQUEUE_WAKEUP | ENQUEUE_NOCLOCK |
		      ((wake_flags & WF_MIGRATED) ? ENQUEUE_MIGRATED : 0));
	check_preempt_curr(rq, p, wake_flags);
	WRITE_ONCE(p->__state, TASK_RUNNING);
	if (p->sched_class->task_woken)
		p->sched_class->task_woken(rq, p);
}

/* Complete the wakeups other CPUs queued for us (from the reschedule IPI). */
void sched_ttwu_pending(void)
{
	struct rq *rq = this_rq();
	struct llist_node *list = llist_del_all(&rq->wake_list);
	unsigned long flags;

	if (!list)
		return;
	list = llist_reverse_order(list);
	raw_spin_rq_lock_irqsave(rq, flags);
	update_rq_clock(rq);
	while (list) {
		struct task_struct *p = llist_entry(list, struct task_struct, wake_entry);

		list = list->next;
		ttwu_do_activate(rq, p, p->sched_remote_wakeup ? WF_MIGRATED : 0);
	}
	raw_spin_rq_unlock_irqrestore(rq, flags);
}

void scheduler_ipi(void)
{
	sched_ttwu_pending();
}

/*
 * Queue the wakeup on @cpu's wake list instead of taking its rq lock from
 * here?  As Linux 5.15: when @cpu does not share our last-level cache (its
 * rq stays in its cache), or when the task is still switching out there
 * (WF_ON_CPU) and that CPU is about to idle, so it may as well do the
 * work.  Never on PREEMPT_RT, where the RT patch turns TTWU_QUEUE off: the
 * IPI would run the activation in hard-IRQ context, a window the waker's
 * priority does not govern.
 */
static bool ttwu_queue_cond(int cpu, int wake_flags)
{
	/* No wake list on a CPU going down: it may never be run. */
	if (IS_ENABLED(CONFIG_PREEMPT_RT) || !cpu_active(cpu))
		return false;
	if (!cpus_share_cache(smp_processor_id(), cpu))
		return true;
	return (wake_flags & WF_ON_CPU) && cpu_rq(cpu)->nr_running <= 1;
}

static bool ttwu_queue_wakelist(struct task_struct *task, int cpu, int wake_flags)
{
	struct rq *rq = cpu_rq(cpu);

	if (!ttwu_queue_cond(cpu, wake_flags))
		return false;
	if (WARN_ON_ONCE(cpu == smp_processor_id()))
		return false;
	/* try_to_wake_up() set TASK_WAKING already; it stays so till then. */
	task->sched_remote_wakeup = !!(wake_flags & WF_MIGRATED);
	if (llist_add(&task->wake_entry, &rq->wake_list))
		smp_send_reschedule(cpu);
	return true;
}

static void ttwu_queue(struct task_struct *task, int cpu, int wake_flags)
{
	struct rq *rq = cpu_rq(cpu);
	unsigned long flags;

	if (ttwu_queue_wakelist(task, cpu, wake_flags))
		return;
	raw_spin_rq_lock_irqsave(rq, flags);
	update_rq_clock(rq);
	ttwu_do_activate(rq, task, wake_flags);
	raw_spin_rq_unlock_irqrestore(rq, flags);
}

/*
 * Still queued (woken before it got to sleep): just make it runnable.
 * Push, pull and balancing move queued tasks under the rq locks alone, so
 * the rq is found the way that follows a move (__task_rq_lock()): giving
 * up on a moved task would send it down the sleeping path and enqueue it
 * a second time.
 */
static bool ttwu_runnable(struct task_struct *p, int wake_flags)
{
	struct rq *rq = __task_rq_lock(p);
	bool ret = false;

	if (task_on_rq_queued(p)) {
		update_rq_clock(rq);
		if (!task_current(rq, p))
			check_preempt_curr(rq, p, wake_flags);
		WRITE_ONCE(p->__state, TASK_RUNNING);
		ret = true;
	}
	raw_spin_rq_unlock(rq);
	return ret;
}

/*
 * Does @state wake @p?  On PREEMPT_RT a task blocked on a sleeping
 * spinlock waits in TASK_RTLOCK_WAIT with its own state saved: a wakeup
 * for that saved state is not lost but recorded there (the task resumes
 * running once it has the lock) and does not disturb the lock wait.
 * Only the rtlock code wakes TASK_RTLOCK_WAIT.  Called under p->pi_lock.
 */
static bool ttwu_state_match(struct task_struct *p, unsigned int state, int *success)
{
	if (READ_ONCE(p->__state) & state) {
		*success = 1;
		return true;
	}
#ifdef CONFIG_PREEMPT_RT
	if (p->saved_state & state) {
		p->saved_state = TASK_RUNNING;
		*success = 1;
	}
#endif
	return false;
}

int try_to_wake_up(struct task_struct *task, unsigned int state, int wake_flags)
{
	unsigned long irq_flags;
	int cpu, success = 0;

	raw_spin_lock_irqsave(&task->pi_lock, irq_flags);
	smp_mb();
	if (!ttwu_state_match(task, state, &success))
		goto out;
	smp_rmb();
	if (READ_ONCE(task->on_rq) && ttwu_runnable(task, wake_flags))
		goto out;
	/*
	 * As Linux: from here the task is being woken, which tells the
	 * class's migrate_task_rq() hook a move is a wakeup's (the deadline
	 * class moves its bandwidth then).  pi_lock keeps other wakeups out.
	 */
	WRITE_ONCE(task->__state, TASK_WAKING);
	/*
	 * Still switching out on its CPU: rather than spin until it is off,
	 * let that CPU activate it where ttwu_queue_cond() allows.  Its IRQs
	 * are off until the switch is over, so the IPI lands after it.
	 */
	if (smp_load_acquire(&task->on_cpu) &&
	    ttwu_queue_wakelist(task, task_cpu(task), wake_flags | WF_ON_CPU))
		goto out;
	while (smp_load_acquire(&task->on_cpu))
		cpu_relax();
	cpu = select_task_rq(task, task->wake_cpu, wake_flags);
	if (task_cpu(task) != cpu) {
		wake_flags |= WF_MIGRATED;
		set_task_cpu(task, cpu);
	}
	ttwu_queue(task, cpu, wake_flags);
out:
	raw_spin_unlock_irqrestore(&task->pi_lock, irq_flags);
	return success;
}

/*
 * Queue @task for wake_up_q().  If its node is already claimed, another
 * queue will wake it after our caller's changes are visible (the claim
 * is a full barrier), so nothing is lost.
 */
void wake_q_add(struct wake_q_head *head, struct task_struct *p)
{
	struct wake_q_node *node = &p->wake_q;

	if (cmpxchg(&node->next, NULL, WAKE_Q_TAIL))
		return;
	get_task_struct(p);
	*head->lastp = node;
	head->lastp = &node->next;
}

void wake_up_q(struct wake_q_head *head)
{
	struct wake_q_node *node = head->first;

	while (node != WAKE_Q_TAIL) {
		struct task_struct *task = container_of(node, struct task_struct, wake_q);

		node = node->next;
		/* Unclaim before waking: a new wake_q_add() must re-wake it. */
		WRITE_ONCE(task->wake_q.next, NULL);
		wake_up_process(task);
		put_task_struct(task);
	}
	wake_q_init(head);
}

int wake_up_process(struct task_struct *p)
{
	return try_to_wake_up(p, TASK_NORMAL, 0);
}

int wake_up_state(struct task_struct *task, unsigned int state)
{
	return try_to_wake_up(task, state, 0);
}

/*
 * The new task's first placement, in its creator's context: it starts on
 * the creator's CPU and its class places it there (task_fork_fair() under
 * that CPU's rq lock).  IRQs are off under the child's pi_lock, as in
 * Linux's copy_process().
 */
void sched_cgroup_fork(struct task_struct *p)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&p->pi_lock, flags);
	WRITE_ONCE(p->cpu, smp_processor_id());
	p->wake_cpu = p->cpu;
	if (p->sched_class->task_fork)
		p->sched_class->task_fork(p);
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);
}

void wake_up_new_task(struct task_struct *p)
{
	unsigned long flags;
	struct rq *rq;
	int cpu;

	raw_spin_lock_irqsave(&p->pi_lock, flags);
	WRITE_ONCE(p->__state, TASK_RUNNING);
	cpu = select_task_rq(p, task_cpu(p), WF_FORK);
	set_task_cpu(p, cpu);
	rq = cpu_rq(cpu);
	raw_spin_rq_lock(rq);
	update_rq_clock(rq);
	activate_task(rq, p, ENQUEUE_NOCLOCK);
	check_preempt_curr(rq, p, WF_FORK);
	/* As a wakeup: an RT or deadline child that waits here is pushed now. */
	if (p->sched_class->task_woken)
		p->sched_class->task_woken(rq, p);
	task_rq_unlock(rq, p, flags);
}

/* ------------------------------------------------------------ switching */

static struct task_struct *pick_next_task(struct rq *rq, struct task_struct *prev)
{
	const struct sched_class *class;
	struct task_struct *p;

	/*
	 * Pull work before picking, from prev's class down (as Linux's
	 * put_prev_task_balance()): a class above prev's had nothing to run
	 * here before and prev leaving does not change that, so a fair task
	 * switching to another fair task pulls no RT work.
	 */
	for (class = prev->sched_class; class; class = class->next)
		if (class->balance && class->balance(rq, prev))
			break;
	prev->sched_class->put_prev_task(rq, prev);
	for_each_class(class) {
		p = class->pick_next_task(rq);
		if (p)
			return p;
	}
	BUG();	/* the idle class always has a task */
}

/*
 * 5.11+: a migrate-disabled task being switched out is pinned to this CPU
 * by narrowing cpus_ptr, so nothing (load balancing, affinity changes)
 * moves it while it is off the CPU.
 */
static void migrate_disable_switch(struct rq *rq, struct task_struct *task)
{
	if (likely(!task->migration_disabled))
		return;
	if (task->cpus_ptr != &task->cpus_mask)
		return;
	__do_set_cpus_allowed(task, cpumask_of(rq->cpu), SCA_MIGRATE_DISABLE);
}

static void finish_task_switch(struct task_struct *prev)
{
	struct rq *rq = this_rq();
	/*
	 * As Linux's prev_state: read before on_cpu is cleared.  After that
	 * a wakeup may run @prev on another CPU, where it may exit and drop
	 * its own reference in that CPU's finish_task_switch(); reading
	 * TASK_DEAD here afterwards would drop it a second time.
	 */
	unsigned int prev_state = READ_ONCE(prev->__state);

	/* The rq lock changes hands with the CPU: @prev took it, we drop it. */
	spin_acquire(&rq->__lock.dep_map, 0, 0, _THIS_IP_);
	/* After this store @prev may run elsewhere (ttwu waits for it). */
	smp_store_release(&prev->on_cpu, 0);
	/*
	 * Linux's finish_lock_switch(): the push/pull the pick queued (and
	 * balance_push) run inside the IRQ-off section of the switch, with
	 * @prev already pushable.
	 */
	__balance_callbacks(rq);
	raw_spin_rq_unlock(rq);
	local_irq_enable();
	if (prev_state == TASK_DEAD) {
		/* Off every CPU for good: the class lets go of it (dl bandwidth). */
		if (prev->sched_class->task_dead)
			prev->sched_class->task_dead(prev);
		put_task_struct_dead(prev);
	}
}

/* The first thing a new task runs (from ret_from_fork). */
void schedule_tail(struct task_struct *prev)
{
	finish_task_switch(prev);
	preempt_enable();
}

struct task_struct *__switch_to(struct task_struct *prev, struct task_struct *next)
{
	this_cpu_write(current_task, next);
	return prev;
}

static void context_switch(struct rq *rq, struct task_struct *prev,
			   struct task_struct *next)
{
	next->on_cpu = 1;
	spin_release(&rq->__lock.dep_map, _THIS_IP_);
	prev = __switch_to_asm(prev, next, &prev->thread.sp, next->thread.sp);
	finish_task_switch(prev);
}

static void schedule_debug(struct task_struct *prev, bool preempt)
{
	if (unlikely(preempt_count() != PREEMPT_DISABLE_OFFSET)) {
		sched_report_bug("BUG: scheduling while atomic: %s/%d/0x%08x\n",
				 prev->comm, prev->pid, preempt_count());
		/*
		 * As Linux: drop the leaked count, or the next task to run
		 * on this CPU would inherit it.
		 */
		preempt_count_set(PREEMPT_DISABLE_OFFSET);
	}
	if (unlikely(irqs_disabled()))
		sched_report_bug("BUG: scheduling with interrupts disabled: %s/%d\n",
				 prev->comm, prev->pid);
}

/*
 * __schedule() modes, as Linux 5.15: a voluntary sleep, a preemption
 * (the task stays queued whatever its state), and the PREEMPT_RT wait
 * for a sleeping spinlock, a sleep that bypasses the workqueue hooks.
 */
#define SM_NONE			0x0
#define SM_PREEMPT		0x1
#define SM_RTLOCK_WAIT		0x2

static void __schedule(unsigned int sched_mode)
{
	bool preempt = sched_mode == SM_PREEMPT;
	struct task_struct *prev, *next;
	unsigned int prev_state;
	struct rq *rq;

	rq = this_rq();
	prev = rq->curr;
	schedule_debug(prev, preempt);
	local_irq_disable();
	rcu_note_context_switch(preempt);
	raw_spin_rq_lock(rq);
	update_rq_clock(rq);

	prev_state = READ_ONCE(prev->__state);
	if (!preempt && prev_state) {
		deactivate_task(rq, prev, DEQUEUE_NOCLOCK | DEQUEUE_SLEEP);
		prev->nvcsw++;
	} else if (prev != rq->idle) {
		prev->nivcsw++;
	}
	next = pick_next_task(rq, prev);
	clear_tsk_need_resched(prev);
	if (likely(prev != next)) {
		rq->nr_switches++;
		perf_stat_sched_switch(prev == rq->idle, !preempt && prev_state);
		rq->curr = next;
		migrate_disable_switch(rq, prev);
		context_switch(rq, prev, next);
	} else {
		/* pick_next_task() may have queued push/pull work even so. */
		__balance_callbacks(rq);
		raw_spin_rq_unlock(rq);
		local_irq_enable();
	}
}

/*
 * An exiting task switches away for good.  finish_task_switch(), run by
 * whatever runs next, sees TASK_DEAD and drops the task's own reference,
 * which may free its stack at once; so the task must really be dequeued
 * by that switch.  It is only if nothing can preempt it between the
 * TASK_DEAD store and __schedule(SM_NONE): a preemption there keeps a
 * task on its run queue whatever its state, and the next task would free
 * the stack of a task still queued to run.  Hence no schedule() (whose
 * caller has preemption enabled): the count the caller took is the one
 * __schedule() expects.
 */
void __noreturn do_task_dead(void)
{
	set_special_state(TASK_DEAD);
	__schedule(SM_NONE);
	BUG();		/* a dead task is never picked again */
}

/*
 * A kworker about to block lets its pool wake another worker; done before
 * the rq lock is taken since that path wakes tasks.
 */
static inline void sched_submit_work(struct task_struct *prev)
{
	if (!READ_ONCE(prev->__state))
		return;
	if (prev->flags & PF_WQ_WORKER) {
		preempt_disable();
		wq_worker_sleeping(prev);
		preempt_enable_no_resched();
	}
}

static void sched_update_worker(struct task_struct *prev)
{
	if (prev->flags & PF_WQ_WORKER)
		wq_worker_running(prev);
}

void schedule(void)
{
	struct task_struct *tsk = current;

	sched_submit_work(tsk);
	do {
		preempt_disable();
		__schedule(SM_NONE);
		preempt_enable_no_resched();
	} while (need_resched());
	sched_update_worker(tsk);
}

#ifdef CONFIG_PREEMPT_RT
/*
 * Blocking on a sleeping spinlock: not a real sleep as far as workqueue
 * concurrency management is concerned (the worker still "runs" and is
 * usually back within microseconds), so sched_submit_work() and the
 * running hook are skipped, as in Linux.
 */
void schedule_rtlock(void)
{
	do {
		preempt_disable();
		__schedule(SM_RTLOCK_WAIT);
		preempt_enable_no_resched();
	} while (need_resched());
}
#endif

void schedule_preempt_disabled(void)
{
	preempt_enable_no_resched();
	schedule();
	preempt_disable();
}

/* The idle task's way out: it never sleeps, it only yields the CPU. */
void schedule_idle(void)
{
	do {
		__schedule(SM_PREEMPT);
	} while (need_resched());
}

static void preempt_schedule_common(void)
{
	do {
		preempt_disable();
		__schedule(SM_PREEMPT);
		preempt_enable_no_resched();
	} while (tif_need_resched_now());
}

void preempt_schedule(void)
{
	if (likely(preempt_count() || irqs_disabled()))
		return;
	if (!tif_need_resched_now())
		return;
	preempt_schedule_common();
}

/* From interrupt return, with interrupts disabled, on the task's stack. */
void preempt_schedule_irq(void)
{
	do {
		preempt_disable();
		local_irq_enable();
		__schedule(SM_PREEMPT);
		local_irq_disable();
		preempt_enable_no_resched();
	} while (tif_need_resched_now());
}

#ifdef CONFIG_PREEMPTION
int _cond_resched(void)
{
	return 0;	/* full preemption: every preempt_enable() is a point */
}
#else
int _cond_resched(void)
{
	if (!tif_need_resched_now() || preempt_count())
		return 0;
	preempt_schedule_common();
	return 1;
}
#endif

void yield(void)
{
	struct rq *rq;

	local_irq_disable();
	rq = this_rq();
	raw_spin_rq_lock(rq);
	if (current->sched_class->yield_task)
		current->sched_class->yield_task(rq);
	raw_spin_rq_unlock(rq);
	local_irq_enable();
	schedule();
}

/* ------------------------------------------------------------ tick */

/* Nothing runs on @cpu and nothing is on its way there. */
int idle_cpu(int cpu)
{
	struct rq *rq = cpu_rq(cpu);

	if (rq->curr != rq->idle)
		return 0;
	if (rq->nr_running)
		return 0;
	return llist_empty(&rq->wake_list);
}

void scheduler_tick(void)
{
	int cpu = smp_processor_id();
	struct rq *rq = cpu_rq(cpu);
	struct task_struct *curr;

	raw_spin_rq_lock(rq);
	update_rq_clock(rq);
	curr = rq->curr;
	curr->sched_class->task_tick(rq, curr, 0);
	raw_spin_rq_unlock(rq);
	/* The pass itself runs in SCHED_SOFTIRQ, not here in the hard IRQ. */
	rq->idle_balance = idle_cpu(cpu);
	trigger_load_balance(rq);
}

/* Context switches @cpu has made (Linux's nr_context_switches_cpu()). */
unsigned long long nr_context_switches_cpu(int cpu)
{
	return READ_ONCE(cpu_rq(cpu)->nr_switches);
}

unsigned long nr_running(void)
{
	unsigned long n = 0;
	int cpu;

	for_each_online_cpu(cpu)
		n += READ_ONCE(cpu_rq(cpu)->nr_running);
	return n;
}

/* ------------------------------------------------------------ boot */

struct task_struct *cpu_rq_idle(int cpu)
{
	return cpu_rq(cpu)->idle;
}

void cpu_rq_set_online(int cpu)
{
	struct rq *rq = cpu_rq(cpu);
	unsigned long flags;

	raw_spin_rq_lock_irqsave(rq, flags);
	set_rq_online(rq);
	raw_spin_rq_unlock_irqrestore(rq, flags);
}

void init_cpumask_of(void);
void sched_init_granularity(unsigned int ncpus);

/*
 * In kernel_init_freeable() after smp_init(): tune CFS for the CPU count
 * and build the topology and domains over the CPUs that came up.
 */
void sched_init_smp(void)
{
	boot_order_mark("sched_init_smp");
	boot_timing_mark("sched_init_smp: start", -1);
	sched_init_granularity(num_online_cpus());
	sched_init_topology();
	sched_init_domains();
	boot_timing_mark("sched domains", -1);
}

void sched_init(void)
{
	int cpu;

	init_cpumask_of();
	wait_bit_init();
	for_each_possible_cpu(cpu) {
		struct rq *rq = cpu_rq(cpu);

		raw_spin_lock_init(&rq->__lock);
		rq->cpu = cpu;
		init_cfs_rq(&rq->cfs);
		init_rt_rq(&rq->rt);
		init_dl_rq(&rq->dl);
	}
	init_sched_dl_class();
	init_rt_class();
	init_sched_fair_class();
	init_dl_task(&init_task);
	init_idle(&init_task, 0);
	set_rq_online(cpu_rq(0));
	set_cpu_active(0, true);
}

/*
 * @p's CPU time including the slice it is running now (for a task on
 * another CPU the running slice is brought up to date under its rq lock).
 */
u64 task_sched_runtime(struct task_struct *p)
{
	unsigned long flags;
	struct rq *rq;
	u64 ns;

	rq = task_rq_lock(p, &flags);
	if (task_current(rq, p) && task_on_rq_queued(p) && p->sched_class->update_curr) {
		update_rq_clock(rq);
		p->sched_class->update_curr(rq);
	}
	ns = p->se.sum_exec_runtime;
	task_rq_unlock(rq, p, flags);
	return ns;
}
