// SPDX-License-Identifier: GPL-2.0
/*
 * Thread helpers shared by suites that stage scenarios between kernel
 * threads: create one bound to a CPU with a policy, wait for a flag.
 */
#include <linux/ktest.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/atomic.h>
#include <linux/printk.h>
#include <linux/delay.h>
#include <linux/sched/task.h>
#include <linux/slab.h>

/*
 * Threads a case created, each with a reference of ours: at the end of the
 * case ktest_reap_case_threads() waits for them to be dead and drops the
 * reference, which frees them there and then.  A thread that signalled
 * "done" but had not exited yet would otherwise free its stack in the
 * middle of the next case, which suites comparing free-page counts see.
 */
#define KTEST_TRACKED_THREADS	256

static struct task_struct *case_threads[KTEST_TRACKED_THREADS];
static int nr_case_threads;
static DEFINE_RAW_SPINLOCK(case_threads_lock);
static bool tracking_off;	/* ktest's own persistent workers */

static void track_thread(struct task_struct *p)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&case_threads_lock, flags);
	if (nr_case_threads < KTEST_TRACKED_THREADS)
		case_threads[nr_case_threads++] = get_task_struct(p);
	raw_spin_unlock_irqrestore(&case_threads_lock, flags);
}

struct task_struct *ktest_kthread(int (*fn)(void *), void *arg, const char *name,
				  int cpu, int policy, int prio)
{
	struct sched_param param = { .sched_priority = prio };
	struct task_struct *p = kthread_create(fn, arg, "%s", name);

	if (!p)
		return NULL;
	if (cpu >= 0)
		kthread_bind(p, cpu);
	if (policy != SCHED_NORMAL)
		sched_setscheduler_nocheck(p, policy, &param);
	if (!tracking_off)
		track_thread(p);
	return p;
}

/*
 * Dead, switched out and its own reference dropped (finish_task_switch()):
 * ours is the last, so the put below frees it here, in task context.
 */
bool ktest_thread_gone(struct task_struct *p)
{
	return READ_ONCE(p->__state) == TASK_DEAD && !smp_load_acquire(&p->on_cpu) &&
	       atomic_read(&p->usage) == 1;
}

/*
 * After each case.  Threads that never ran (a case that ended early) or
 * are still running after a second keep our reference: a small leak, said
 * on the console, rather than a hang or a use after free.
 */
void ktest_reap_case_threads(void)
{
	for (int i = 0; i < nr_case_threads; i++) {
		struct task_struct *p = case_threads[i];
		int ms = 0;

		if (!p->se.sum_exec_runtime && !READ_ONCE(p->on_rq)) {
			pr_warn("ktest: thread %s/%d was never started\n", p->comm, p->pid);
			continue;
		}
		while (!ktest_thread_gone(p) && ms++ < 1000)
			msleep(1);
		if (!ktest_thread_gone(p)) {
			pr_warn("ktest: thread %s/%d still running after its case\n",
				p->comm, p->pid);
			continue;
		}
		put_task_struct(p);
	}
	nr_case_threads = 0;
}

/* Threads made since the last reap that still hold our reference. */
int ktest_tracked_threads(void)
{
	return READ_ONCE(nr_case_threads);
}

struct ktest_releaser {
	struct task_struct *sleeper;
	volatile bool *hold;
};

static int ktest_releaser_fn(void *data)
{
	struct ktest_releaser r = *(struct ktest_releaser *)data;

	kfree(data);
	for (int ms = 0; ms < 5000; ms++) {
		if (READ_ONCE(r.sleeper->__state) == TASK_UNINTERRUPTIBLE)
			break;
		msleep(1);
	}
	WRITE_ONCE(*r.hold, false);
	return 0;
}

/*
 * Clear *@hold once @sleeper sleeps uninterruptibly (in the flush or
 * cancel a case checks), or after 5 s, from a thread of its own.  A case
 * keeps a work item running until then, so the wait under test surely
 * finds it running, whatever a host stall does to the case's timing.
 * *@hold must outlive the case (static) should that wait not wait.
 * Without memory for the thread *@hold is cleared at once.
 */
void ktest_release_when_asleep(struct task_struct *sleeper, volatile bool *hold)
{
	struct ktest_releaser *r = kmalloc(sizeof(*r), GFP_KERNEL);
	struct task_struct *p = NULL;

	if (r) {
		r->sleeper = sleeper;
		r->hold = hold;
		p = ktest_kthread(ktest_releaser_fn, r, "releaser", -1, SCHED_NORMAL, 0);
	}
	if (!p) {
		kfree(r);
		WRITE_ONCE(*hold, false);
		return;
	}
	wake_up_process(p);
}

/* Sleep until *flag is set; whoever sets it wakes us (or we poll per ms). */
void ktest_wait_flag(volatile bool *flag)
{
	while (!smp_load_acquire(flag)) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (smp_load_acquire(flag))
			break;
		schedule_timeout(1);
	}
	__set_current_state(TASK_RUNNING);
}

/*
 * The staged pair: two threads made by ktest_kthread() and not yet woken
 * (the case fails here if either could not be made) are woken, @a first,
 * and waited for until each has set its flag.  What the pair does between
 * is theirs to order, by flags and states, not by who got a CPU first.
 */
void ktest_run_pair(struct ktest *t, struct task_struct *a, volatile bool *a_done,
		    struct task_struct *b, volatile bool *b_done)
{
	if (!a || !b) {
		ktest_fail(t, __FILE__, __LINE__, "the pair's %s thread was not created",
			   a ? "second" : "first");
		ktest_abort(t);
	}
	wake_up_process(a);
	wake_up_process(b);
	ktest_wait_flag(a_done);
	ktest_wait_flag(b_done);
}

/* Run the calling test thread as SCHED_FIFO @prio (0: back to normal). */
void ktest_set_fifo(int prio)
{
	struct sched_param param = { .sched_priority = prio };

	sched_setscheduler_nocheck(current, prio ? SCHED_FIFO : SCHED_NORMAL, &param);
}

/*
 * ktest_on_each_cpu() on PREEMPT_RT: one persistent bound thread per CPU,
 * created before the first test, so a call allocates nothing (suites
 * that compare free-page counts around it stay exact).
 */
struct each_cpu_call {
	void (*fn)(void *info);
	void *info;
	atomic_t left;
	struct task_struct *waiter;
};

static struct each_cpu_call *each_call;
static unsigned long each_gen;
static __maybe_unused DEFINE_PER_CPU(struct task_struct *, each_worker);

static int __maybe_unused each_cpu_worker(void *data)
{
	unsigned long seen = 0;

	for (;;) {
		struct each_cpu_call *c;

		set_current_state(TASK_UNINTERRUPTIBLE);
		if (smp_load_acquire(&each_gen) == seen) {
			schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);
		seen = READ_ONCE(each_gen);
		c = READ_ONCE(each_call);
		c->fn(c->info);
		if (atomic_dec_and_test(&c->left))
			wake_up_process(c->waiter);
	}
	return 0;
}

/* Start the workers (PREEMPT_RT only); ktest_run_all() calls this first. */
void ktest_threads_init(void)
{
#ifdef CONFIG_PREEMPT_RT
	int cpu;

	tracking_off = true;	/* they live as long as the run */
	for_each_online_cpu(cpu) {
		struct task_struct *p = ktest_kthread(each_cpu_worker, NULL, "ktest-each",
						      cpu, SCHED_NORMAL, 0);

		if (!p) {
			pr_err("ktest: no worker thread for CPU %d\n", cpu);
			continue;
		}
		per_cpu(each_worker, cpu) = p;
		wake_up_process(p);
	}
	tracking_off = false;
#endif
}

/*
 * Run @fn on every online CPU at once and wait for all.  !RT: through
 * on_each_cpu() (IPI context, interrupts off).  PREEMPT_RT: in the bound
 * worker threads, because code that takes spinlock_t (the page
 * allocator, for one) must not run in hard-IRQ context there.
 */
void ktest_on_each_cpu(void (*fn)(void *info), void *info)
{
#ifdef CONFIG_PREEMPT_RT
	struct each_cpu_call c = { .fn = fn, .info = info, .waiter = current };
	int cpu;

	atomic_set(&c.left, num_online_cpus());
	WRITE_ONCE(each_call, &c);
	smp_store_release(&each_gen, each_gen + 1);
	for_each_online_cpu(cpu) {
		struct task_struct *p = per_cpu(each_worker, cpu);

		if (p) {
			wake_up_process(p);
		} else {
			pr_err("ktest: CPU %d has no worker; running its call here\n", cpu);
			fn(info);
			atomic_dec(&c.left);
		}
	}
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (!atomic_read(&c.left))
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
#else
	on_each_cpu(fn, info, 1);
#endif
}
