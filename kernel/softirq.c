// SPDX-License-Identifier: GPL-2.0
/*
 * Hard interrupt entry/exit accounting and softirqs.
 *
 * A softirq is a per-CPU pending bit and an action.  On !PREEMPT_RT the
 * pending actions run at irq_exit() (and at local_bh_enable()), with
 * SOFTIRQ_OFFSET in preempt_count and interrupts enabled, for at most
 * 2 ms or 10 rounds and only while no task waits for the CPU; what is left
 * goes to the per-CPU ksoftirqd thread, and while that is runnable the
 * work is left to it (but HI and TASKLET).
 * On PREEMPT_RT they run only in thread context - ksoftirqd, or the task
 * that re-enables bottom halves - so an RT task can preempt them.  What
 * !RT gets from preempt_count (one bottom-half section per CPU at a time)
 * RT gets from a per-CPU local_lock, softirq_ctrl.lock: the first
 * local_bh_disable() of a task takes it, so BH sections and softirq
 * processing on one CPU serialise, with priority inheritance, while
 * staying preemptible.
 */
#include <linux/kernel.h>
#include <linux/hardirq.h>
#include <linux/smpboot.h>
#include <linux/interrupt.h>
#include <linux/kernel_stat.h>
#include <linux/irqflags.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/jiffies.h>
#include <linux/local_lock.h>
#include <linux/cpu.h>

/*
 * One __do_softirq() call goes round again for what was raised meanwhile
 * at most this many times, within this many jiffies (2 ms, rounded up to
 * a tick), and only while nothing waits for the CPU; the rest is left to
 * ksoftirqd.
 */
#define MAX_SOFTIRQ_TIME	msecs_to_jiffies(2)
#define MAX_SOFTIRQ_RESTART	10

const char *const softirq_to_name[NR_SOFTIRQS] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL",
	"TASKLET", "SCHED", "HRTIMER", "RCU",
};

static struct softirq_action softirq_vec[NR_SOFTIRQS];
static DEFINE_PER_CPU(unsigned long, softirq_pending);
DEFINE_PER_CPU(struct task_struct *, ksoftirqd);

/* ksoftirqd/N is parked while N is down (kernel/smpboot.c). */
static int ksoftirqd_fn(void *unused);

static struct smp_hotplug_thread softirq_threads = {
	.store = &ksoftirqd,
	.thread_fn = ksoftirqd_fn,
	.thread_comm = "ksoftirqd/%u",
};
DEFINE_PER_CPU(unsigned long [NR_SOFTIRQS], softirq_count);

unsigned long local_softirq_pending(void)
{
	return this_cpu_read(softirq_pending);
}

void open_softirq(int nr, void (*action)(struct softirq_action *))
{
	softirq_vec[nr].action = action;
}

static void wakeup_softirqd(void)
{
	struct task_struct *tsk = this_cpu_read(ksoftirqd);

	if (tsk)
		wake_up_process(tsk);
}

/*
 * HI and TASKLET are wanted at once: never left to the thread.
 */
#define SOFTIRQ_NOW_MASK	((1UL << HI_SOFTIRQ) | (1UL << TASKLET_SOFTIRQ))

/*
 * Once ksoftirqd is runnable the pending work is its job: running it at
 * irq_exit() or local_bh_enable() as well would starve the tasks that
 * the scheduler means to share the CPU with.  Linux 5.15's rule, with its
 * exception: a ksoftirqd asked to park (its CPU is going down) is
 * runnable only to park, and parks before it looks at pending work, so
 * the work must not wait for it.
 */
static bool ksoftirqd_running(unsigned long pending)
{
	struct task_struct *tsk = this_cpu_read(ksoftirqd);

	if (pending & SOFTIRQ_NOW_MASK)
		return false;
	return tsk && READ_ONCE(tsk->__state) == TASK_RUNNING &&
	       !__kthread_should_park(tsk);
}

#ifdef CONFIG_PREEMPT_RT
/*
 * The BH lock and the count of the task holding it; softirq_disable_cnt
 * of that task mirrors cnt, so softirq_count() reads the task's view.
 */
struct softirq_ctrl {
	local_lock_t lock;
	int cnt;
};

static DEFINE_PER_CPU(struct softirq_ctrl, softirq_ctrl) = {
	.lock = INIT_LOCAL_LOCK(softirq_ctrl.lock),
};

/* Nobody on this CPU is in a BH section: only ksoftirqd can run them. */
static inline bool should_wake_ksoftirqd(void)
{
	return !this_cpu_read(softirq_ctrl.cnt);
}
#endif

/* Interrupts off: mark @nr pending; outside interrupts only ksoftirqd will see it. */
void raise_softirq_irqoff(unsigned int nr)
{
	this_cpu_or(softirq_pending, 1UL << nr);
#ifdef CONFIG_PREEMPT_RT
	/* A BH section's end runs them; a hard interrupt's exit wakes ksoftirqd. */
	if (!in_hardirq() && should_wake_ksoftirqd())
		wakeup_softirqd();
#else
	if (!in_interrupt())
		wakeup_softirqd();
#endif
}

void raise_softirq(unsigned int nr)
{
	unsigned long flags;

	local_irq_save(flags);
	raise_softirq_irqoff(nr);
	local_irq_restore(flags);
}

/*
 * "Serving softirqs": in preempt_count on !RT (not preemptible).  On RT
 * every caller of __do_softirq() already holds the BH lock with
 * SOFTIRQ_OFFSET counted (ksoftirqd_run_begin(), local_bh_enable()).
 */
static void softirq_handle_begin(void)
{
#ifndef CONFIG_PREEMPT_RT
	__preempt_count_add(SOFTIRQ_OFFSET);
#endif
	barrier();
}

static void softirq_handle_end(void)
{
	barrier();
#ifndef CONFIG_PREEMPT_RT
	__preempt_count_sub(SOFTIRQ_OFFSET);
#endif
}

/*
 * Run pending actions; interrupts are off on entry and on return.  What is
 * raised while they run is taken in another round, unless this call has
 * had its share (rounds, time) or a task is waiting for the CPU: then
 * ksoftirqd gets it, and the scheduler decides who goes first.
 */
static void __do_softirq(void)
{
	unsigned long end = jiffies + MAX_SOFTIRQ_TIME;
	int max_restart = MAX_SOFTIRQ_RESTART;
	unsigned long pending = this_cpu_read(softirq_pending);

	softirq_handle_begin();
	for (;;) {
		this_cpu_write(softirq_pending, 0);
		local_irq_enable();
		while (pending) {
			unsigned int nr = __ffs(pending);

			pending &= pending - 1;
			this_cpu_inc(softirq_count[nr]);
			this_cpu_inc(kstat.softirqs_sum);
			if (softirq_vec[nr].action)
				softirq_vec[nr].action(&softirq_vec[nr]);
		}
		local_irq_disable();
		pending = this_cpu_read(softirq_pending);
		if (!pending)
			break;
		if (time_before(jiffies, end) && !need_resched() && --max_restart)
			continue;
		wakeup_softirqd();
		break;
	}
	softirq_handle_end();
}

#ifndef CONFIG_PREEMPT_RT
/* !RT only: on RT every softirq run holds the BH lock (see below). */
void do_softirq(void)
{
	unsigned long flags, pending;

	if (in_interrupt())
		return;
	local_irq_save(flags);
	pending = this_cpu_read(softirq_pending);
	if (pending && !ksoftirqd_running(pending))
		__do_softirq();
	local_irq_restore(flags);
}
#endif

#ifdef CONFIG_PREEMPT_RT
/*
 * RT: a task's first BH disable takes this CPU's BH lock (pinning it to
 * the CPU and, if another task holds the lock, sleeping with PI until it
 * is released); nested ones only count.  From a non-preemptible context
 * the lock cannot be taken; then no other task may hold it either.
 */
static void __local_bh_disable_ip(unsigned long ip, unsigned int cnt)
{
	int newcnt;

	if (!current_thread_info()->softirq_disable_cnt) {
		if (preemptible())
			local_lock(&softirq_ctrl.lock);
		else
			WARN_ON_ONCE(this_cpu_read(softirq_ctrl.cnt));
	}
	newcnt = this_cpu_read(softirq_ctrl.cnt) + cnt;
	this_cpu_write(softirq_ctrl.cnt, newcnt);
	current_thread_info()->softirq_disable_cnt = newcnt;
}

static void __local_bh_enable(unsigned int cnt, bool unlock)
{
	int newcnt = this_cpu_read(softirq_ctrl.cnt) - cnt;

	this_cpu_write(softirq_ctrl.cnt, newcnt);
	current_thread_info()->softirq_disable_cnt = newcnt;
	if (!newcnt && unlock)
		local_unlock(&softirq_ctrl.lock);
}

void local_bh_disable(void)
{
	__local_bh_disable_ip(_RET_IP_, SOFTIRQ_DISABLE_OFFSET);
}

/*
 * Leaving a BH section of @cnt.  Only the enable that ends this CPU's
 * section may act on what was raised meanwhile, and not when ksoftirqd
 * is already on it.  From preemptible context it runs them itself, still
 * holding the BH lock with its count cut to SOFTIRQ_OFFSET (serving);
 * from atomic context, where the lock was never taken, it hands them to
 * ksoftirqd.  The count, and with a preemptible caller the lock, are
 * given up last.
 */
static void __local_bh_enable_ip(unsigned long ip, unsigned int cnt)
{
	bool may_run = preemptible();
	unsigned long flags, pending;

	WARN_ON_ONCE(in_hardirq());
	local_irq_save(flags);
	pending = this_cpu_read(softirq_pending);
	if (this_cpu_read(softirq_ctrl.cnt) == (int)cnt && pending &&
	    !ksoftirqd_running(pending)) {
		if (may_run) {
			/* SOFTIRQ_DISABLE_OFFSET is 2 * SOFTIRQ_OFFSET: keep one */
			__local_bh_enable(cnt - SOFTIRQ_OFFSET, false);
			cnt = SOFTIRQ_OFFSET;
			__do_softirq();
		} else {
			wakeup_softirqd();
		}
	}
	__local_bh_enable(cnt, may_run);
	local_irq_restore(flags);
}

void local_bh_enable(void)
{
	__local_bh_enable_ip(_RET_IP_, SOFTIRQ_DISABLE_OFFSET);
}

static void ksoftirqd_run_begin(void)
{
	__local_bh_disable_ip(_RET_IP_, SOFTIRQ_OFFSET);
	local_irq_disable();
}

static void ksoftirqd_run_end(void)
{
	__local_bh_enable(SOFTIRQ_OFFSET, true);
	WARN_ON_ONCE(in_interrupt());
	local_irq_enable();
}
#else
void local_bh_disable(void)
{
	__preempt_count_add(SOFTIRQ_DISABLE_OFFSET);
	barrier();
}

void local_bh_enable(void)
{
	WARN_ON_ONCE(in_hardirq());
	/* Still "in softirq" while the pending ones run, as Linux does. */
	__preempt_count_sub(SOFTIRQ_DISABLE_OFFSET - 1);
	if (!in_interrupt() && this_cpu_read(softirq_pending))
		do_softirq();
	__preempt_count_sub(1);	/* bottom-half counts exist with or without PREEMPT_COUNT */
	preempt_check_resched();
}

static void ksoftirqd_run_begin(void)
{
	local_irq_disable();
}

static void ksoftirqd_run_end(void)
{
	local_irq_enable();
}
#endif

void irq_enter(void)
{
	__preempt_count_add(HARDIRQ_OFFSET);
	barrier();
}

/* Leaving the outermost hard interrupt with softirqs pending. */
static void invoke_softirq(void)
{
#ifdef CONFIG_PREEMPT_RT
	/* A task in a BH section runs them when it leaves the section. */
	if (should_wake_ksoftirqd())
		wakeup_softirqd();
#else
	if (ksoftirqd_running(this_cpu_read(softirq_pending)))
		return;
	/* No forced IRQ threading on !RT here: run them now, on this stack. */
	__do_softirq();		/* interrupts are still off here */
#endif
}

void irq_exit(void)
{
	barrier();
	__preempt_count_sub(HARDIRQ_OFFSET);
	if (!in_interrupt() && this_cpu_read(softirq_pending))
		invoke_softirq();
}

static int ksoftirqd_fn(void *unused)
{
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_park()) {
			__set_current_state(TASK_RUNNING);
			kthread_parkme();
			continue;
		}
		if (!this_cpu_read(softirq_pending)) {
			schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);
		ksoftirqd_run_begin();
		if (this_cpu_read(softirq_pending))
			__do_softirq();
		ksoftirqd_run_end();
		cond_resched();
	}
	return 0;
}

/*
 * CPUHP_SOFTIRQ_DEAD teardown, on the control CPU once @cpu has stopped.
 * Linux hands the dead CPU's tasklet lists over here (takeover_tasklets)
 * and raises TASKLET_SOFTIRQ locally; irqlab has no tasklets, so what is
 * taken over is what the dead CPU still had pending: raised again here,
 * so that nothing raised there in its last moments is lost.  The actions
 * serve the CPU they run on, whose per-CPU queues the other teardowns
 * (hrtimers, RCU) have filled with the dead CPU's work.
 */
static int softirq_cpu_dead(unsigned int cpu)
{
	unsigned long pending;

	local_irq_disable();
	pending = per_cpu(softirq_pending, cpu);
	per_cpu(softirq_pending, cpu) = 0;
	for (unsigned int nr = 0; nr < NR_SOFTIRQS; nr++)
		if (pending & (1UL << nr))
			raise_softirq_irqoff(nr);
	local_irq_enable();
	return 0;
}

/*
 * An early initcall in Linux: ksoftirqd/N stays bound to N, a per-CPU
 * kthread that may run there until N is dead; as an smpboot thread it is
 * made for the boot CPU now and for each AP at its CPUHP_CREATE_THREADS,
 * parked at CPUHP_AP_SMPBOOT_THREADS while N goes down and unparked when
 * N is (back) up.
 */
void spawn_ksoftirqd(void)
{
	cpuhp_setup_state_nocalls(CPUHP_SOFTIRQ_DEAD, "softirq:dead", NULL,
				  softirq_cpu_dead);
	BUG_ON(smpboot_register_percpu_thread(&softirq_threads));
}
