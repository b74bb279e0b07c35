// SPDX-License-Identifier: GPL-2.0
/*
 * The scheduler's semantics, per preemption model: when a wakeup preempts
 * (full: at once, from the interrupt or by IPI; voluntary: at the next
 * cond_resched(); none: when the running task blocks), FIFO order, RR
 * slices, nice weights, fair wakeup preemption, migrate_disable pinning
 * and deferred affinity changes, the RT push/pull invariant, lazy
 * preemption, and the checks a kernel makes.  Timing bounds are asserted
 * only with ktest.exact_time=1 (icount); elsewhere only orderings.
 */
#include <linux/ktest.h>
#include <linux/sched.h>
#include <linux/kthread.h>
#include <linux/clockchips.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/delay.h>
#include <linux/smp.h>
#include <asm/hardirq.h>
#include <asm/processor.h>
#include "../kernel/sched/sched.h"

#ifdef CONFIG_PREEMPTION
#define IS_ENABLED_PREEMPTION 1
#else
#define IS_ENABLED_PREEMPTION 0
#endif

void tick_suspend_local(void);
void tick_resume_local(void);
extern bool ktest_exact_time;

struct probe {
	struct task_struct *waiter;
	u64 t_run;
	int cpu;
	int order_slot;
	volatile bool done;
};

static int probe_fn(void *data)
{
	struct probe *pr = data;

	pr->t_run = ktime_get_ns();
	pr->cpu = smp_processor_id();
	smp_store_release(&pr->done, true);
	if (pr->waiter)
		wake_up_process(pr->waiter);
	return 0;
}

static struct task_struct *spawn(int (*fn)(void *), void *arg, const char *name,
				 int cpu, int policy, int prio)
{
	return ktest_kthread(fn, arg, name, cpu, policy, prio);
}

/* Block until *flag (the flag's setter wakes us). */
static void wait_flag(volatile bool *flag)
{
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (smp_load_acquire(flag))
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
}

static int other_cpu(void)
{
	return num_online_cpus() > 1 ? 1 : -1;
}

/* ---------------------------------------------------------------- preemption */

static struct task_struct *irq_wake_target;
static volatile u64 t_irq;
static volatile unsigned long loop_iter, iter_at_irq, iter_at_run;

static void wake_from_irq(struct clock_event_device *evt)
{
	t_irq = ktime_get_ns();
	iter_at_irq = loop_iter;
	wake_up_process(irq_wake_target);
}

static int fifo_probe_fn(void *data)
{
	iter_at_run = loop_iter;
	return probe_fn(data);
}

/*
 * A SCHED_FIFO task woken from a timer interrupt while this (normal) task
 * busy-loops on the same CPU, passing a might_sleep() half-way (a
 * preemption point only under PREEMPT_VOLUNTARY, via might_resched()) and
 * blocking at the end.  The loop counts iterations, so where the FIFO task
 * ran is an ordering, not a timing: with full preemption it runs before
 * the interrupted iteration continues.
 */
#define LOOP_ITERS	20000

static void fifo_wakeup_from_irq_preempts(struct ktest *t)
{
	struct probe pr = { .waiter = current };
	struct clock_event_device *evt;
	unsigned long flags, iter_point = LOOP_ITERS / 2;
	u64 start, lat;

	irq_wake_target = spawn(fifo_probe_fn, &pr, "fifo-probe", smp_processor_id(),
				SCHED_FIFO, 50);
	KTEST_ASSERT_TRUE(t, irq_wake_target);
	loop_iter = 0;
	iter_at_irq = iter_at_run = ~0UL;
	migrate_disable();
	tick_suspend_local();
	local_irq_save(flags);
	evt = this_cpu_clockevent();
	evt->event_handler = wake_from_irq;
	start = ktime_get_ns();
	clockevents_program_event(evt, start + 100 * NSEC_PER_USEC, true);
	local_irq_restore(flags);
	/* Wait (without a preemption point) until the interrupt has come. */
	while (iter_at_irq == ~0UL)
		cpu_relax();
	for (loop_iter = 1; loop_iter < LOOP_ITERS; loop_iter++) {
		ndelay(200);
		if (loop_iter == iter_point)
			might_sleep();
	}
	wait_flag(&pr.done);
	tick_resume_local();
	migrate_enable();

	lat = pr.t_run - t_irq;
	ktest_info(t, "woken from the interrupt; ran %llu ns later, at loop iteration %lu",
		   (unsigned long long)lat, iter_at_run);
#if defined(CONFIG_PREEMPTION)
	KTEST_EXPECT_EQ(t, iter_at_run, 0);		/* before the loop went on */
	if (ktest_exact_time)
		KTEST_EXPECT_LT(t, lat, TICK_NSEC / 10);
#elif defined(CONFIG_PREEMPT_VOLUNTARY)
	KTEST_EXPECT_EQ(t, iter_at_run, iter_point);	/* at the preemption point */
#else
	KTEST_EXPECT_EQ(t, iter_at_run, LOOP_ITERS);	/* only when we blocked */
#endif
}

/*
 * A busy normal task that passes a might_sleep() (PREEMPT_VOLUNTARY's
 * preemption point) half-way through @until_ns, and stops early once
 * *stop_when is set: "the woken task ran while I was still busy" is then
 * an ordering (preempted_early), not a race against a clock.
 */
struct busy {
	u64 until_ns;
	u64 t_cond, t_end;
	volatile bool *stop_when;
	bool preempted_early;		/* *stop_when seen before the point */
	volatile bool started, done;
	struct task_struct *waiter;
};

static int busy_fn(void *data)
{
	struct busy *b = data;
	u64 start = ktime_get_ns();
	bool cond_done = false;

	smp_store_release(&b->started, true);
	while (ktime_get_ns() - start < b->until_ns) {
		if (b->stop_when && *b->stop_when) {
			b->preempted_early = !cond_done;
			break;
		}
		if (!cond_done && ktime_get_ns() - start >= b->until_ns / 2) {
			b->t_cond = ktime_get_ns();
			might_sleep();	/* PREEMPT_VOLUNTARY's preemption point */
			cond_done = true;
		}
	}
	b->t_end = ktime_get_ns();
	smp_store_release(&b->done, true);
	if (b->waiter)
		wake_up_process(b->waiter);
	return 0;
}

/* The same across CPUs: the wakeup reaches the busy CPU by reschedule IPI. */
static void remote_wakeup_preempts(struct ktest *t)
{
	int cpu = other_cpu();
	struct probe pr = { };
	struct busy b = { .until_ns = 400 * NSEC_PER_MSEC, .waiter = current,
			  .stop_when = &pr.done };
	struct task_struct *bt, *ft;
	unsigned long ipis;
	u64 t_wake;

	if (cpu < 0)
		ktest_skip(t, "needs 2 CPUs");
	bt = spawn(busy_fn, &b, "busy", cpu, SCHED_NORMAL, 0);
	ft = spawn(probe_fn, &pr, "fifo-remote", cpu, SCHED_FIFO, 50);
	KTEST_ASSERT_TRUE(t, bt && ft);
	wake_up_process(bt);
	while (!smp_load_acquire(&b.started))
		cond_resched();	/* a kernel wait loop offers the CPU */
	udelay(1000);
	ipis = per_cpu(irq_stat, cpu).irq_resched_count;
	t_wake = ktime_get_ns();
	wake_up_process(ft);
	wait_flag(&b.done);
	while (!smp_load_acquire(&pr.done))
		cond_resched();	/* a kernel wait loop offers the CPU */
	KTEST_EXPECT_EQ(t, pr.cpu, cpu);
	KTEST_EXPECT_GT(t, per_cpu(irq_stat, cpu).irq_resched_count, ipis);
	ktest_info(t, "remote wakeup ran %llu ns after wake_up_process()",
		   (unsigned long long)(pr.t_run - t_wake));
#if defined(CONFIG_PREEMPTION)
	KTEST_EXPECT_TRUE(t, b.preempted_early);	/* ran while it was busy */
#elif defined(CONFIG_PREEMPT_VOLUNTARY)
	KTEST_EXPECT_FALSE(t, b.preempted_early);
	KTEST_EXPECT_GE(t, pr.t_run, b.t_cond);		/* at the preemption point */
	KTEST_EXPECT_LT(t, pr.t_run, b.t_end);
#else
	KTEST_EXPECT_GE(t, pr.t_run, b.t_end);		/* only after it finished */
#endif
}

/* ---------------------------------------------------------------- RT classes */

static int order_log[8];
static int order_len;

static int order_fn(void *data)
{
	order_log[__atomic_fetch_add(&order_len, 1, __ATOMIC_RELAXED)] = (long)data;
	return 0;
}

static void fifo_priority_order(struct ktest *t)
{
	int cpu = smp_processor_id();
	struct task_struct *a, *b, *c;

	order_len = 0;
	a = spawn(order_fn, (void *)1L, "fifo-a", cpu, SCHED_FIFO, 10);
	b = spawn(order_fn, (void *)2L, "fifo-b", cpu, SCHED_FIFO, 10);
	c = spawn(order_fn, (void *)3L, "fifo-c", cpu, SCHED_FIFO, 20);
	KTEST_ASSERT_TRUE(t, a && b && c);
	preempt_disable();	/* queue all three before any runs */
	wake_up_process(a);
	wake_up_process(b);
	wake_up_process(c);
	preempt_enable();
	for (int i = 0; i < 1000 && READ_ONCE(order_len) < 3; i++)
		yield();
	KTEST_ASSERT_EQ(t, order_len, 3);
	KTEST_EXPECT_EQ(t, order_log[0], 3);	/* highest priority first */
	KTEST_EXPECT_EQ(t, order_log[1], 1);	/* then FIFO among equals */
	KTEST_EXPECT_EQ(t, order_log[2], 2);
}

struct slicer {
	int id;
	u64 until;
	volatile int *last;
	atomic_t *turns;	/* both tasks' turns */
	int stop_after;		/* end once the pair had this many turns (0: by time) */
	int switches;
	volatile bool done;
	struct task_struct *waiter;
};

static int slicer_fn(void *data)
{
	struct slicer *s = data;

	while (ktime_get_ns() < s->until &&
	       !(s->stop_after && atomic_read(s->turns) >= s->stop_after)) {
		if (*s->last != s->id) {
			*s->last = s->id;
			s->switches++;
			atomic_inc(s->turns);
		}
		cond_resched();	/* long kernel loops offer the CPU (non-preemptible models) */
	}
	smp_store_release(&s->done, true);
	wake_up_process(s->waiter);
	return 0;
}

static void run_pair(struct ktest *t, int policy, struct slicer *s, int cpu, u64 dur,
		     int stop_after)
{
	static volatile int last;
	static atomic_t turns;
	struct task_struct *p[2];

	last = 0;
	atomic_set(&turns, 0);
	for (int i = 0; i < 2; i++) {
		s[i] = (struct slicer){ .id = i + 1, .last = &last, .turns = &turns,
					.stop_after = stop_after, .waiter = current };
		p[i] = spawn(slicer_fn, &s[i], "slicer", cpu, policy, 10);
		KTEST_ASSERT_TRUE(t, p[i]);
	}
	s[0].until = s[1].until = ktime_get_ns() + dur;
	preempt_disable();
	wake_up_process(p[0]);
	wake_up_process(p[1]);
	preempt_enable();
	wait_flag(&s[0].done);
	wait_flag(&s[1].done);
}

static void rr_slices_fifo_does_not(struct ktest *t)
{
	int cpu = other_cpu() >= 0 ? other_cpu() : 0;
	u64 slice = (u64)sched_rr_timeslice() * TICK_NSEC;
	struct slicer s[2];

	/*
	 * The slices are counted in ticks, the run in wall time: under plain
	 * TCG a host stall of the vCPU eats ticks (and can end a timed run
	 * before the second task had a turn), so there the pair runs until
	 * it had four turns, with a cap that only a class that never slices
	 * reaches.
	 */
	if (ktest_exact_time)
		run_pair(t, SCHED_RR, s, cpu, 6 * slice, 0);
	else
		run_pair(t, SCHED_RR, s, cpu, 100 * slice, 4);
	ktest_info(t, "SCHED_RR: %d + %d turns in %s slices of %llu ms", s[0].switches,
		   s[1].switches, ktest_exact_time ? "6" : "at most 100",
		   (unsigned long long)(slice / NSEC_PER_MSEC));
	KTEST_EXPECT_GE(t, s[0].switches + s[1].switches, 4);
	KTEST_EXPECT_LE(t, s[0].switches + s[1].switches, 12);
	run_pair(t, SCHED_FIFO, s, cpu, 3 * slice, 0);
	KTEST_EXPECT_EQ(t, s[0].switches + s[1].switches, 1);	/* one ran to the end */
}

/* ---------------------------------------------------------------- fair class */

struct hog {
	u64 until;
	u64 runtime;
	volatile bool done;
	struct task_struct *waiter;
};

static int hog_fn(void *data)
{
	struct hog *h = data;

	while (ktime_get_ns() < h->until)
		cond_resched();
	h->runtime = current->se.sum_exec_runtime;
	smp_store_release(&h->done, true);
	wake_up_process(h->waiter);
	return 0;
}

static void nice_weights_split_cpu(struct ktest *t)
{
	int cpu = other_cpu() >= 0 ? other_cpu() : 0;
	struct hog h[2] = { { .waiter = current }, { .waiter = current } };
	struct task_struct *p[2];
	u64 ratio_x100;

	for (int i = 0; i < 2; i++) {
		p[i] = spawn(hog_fn, &h[i], "hog", cpu, SCHED_NORMAL, 0);
		KTEST_ASSERT_TRUE(t, p[i]);
	}
	set_user_nice(p[1], 5);		/* weight 335 against 1024 */
	h[0].until = h[1].until = ktime_get_ns() + 300 * NSEC_PER_MSEC;
	wake_up_process(p[0]);
	wake_up_process(p[1]);
	wait_flag(&h[0].done);
	wait_flag(&h[1].done);
	ratio_x100 = h[1].runtime ? h[0].runtime * 100 / h[1].runtime : 0;
	ktest_info(t, "nice 0 ran %llu us, nice 5 ran %llu us: ratio %llu.%02llu (weights: 3.06)",
		   (unsigned long long)(h[0].runtime / 1000), (unsigned long long)(h[1].runtime / 1000),
		   (unsigned long long)(ratio_x100 / 100), (unsigned long long)(ratio_x100 % 100));
	/*
	 * Checked only under icount (sched-icount).  Under plain TCG a vCPU
	 * thread descheduled by the host charges whole stalls to whichever
	 * hog was current: on a busy host (load 10 on 2 cores) the split was
	 * 0.76 once, the wrong way round, so nothing there is the
	 * scheduler's alone.
	 */
	if (!ktest_exact_time) {
		ktest_skip(t, "the split is the scheduler's only under icount (clock: %s)",
			   ktest_clock_mode());
		return;
	}
	KTEST_EXPECT_GE(t, ratio_x100, 200);
	KTEST_EXPECT_LE(t, ratio_x100, 450);
}

static void fair_wakeup_preempts_hog(struct ktest *t)
{
	int cpu = other_cpu() >= 0 ? other_cpu() : 0;
	struct probe pr = { };
	struct busy b = { .until_ns = 400 * NSEC_PER_MSEC, .waiter = current,
			  .stop_when = &pr.done };
	struct task_struct *bt, *st;

	bt = spawn(busy_fn, &b, "fair-hog", cpu, SCHED_NORMAL, 0);
	st = spawn(probe_fn, &pr, "fair-sleeper", cpu, SCHED_NORMAL, 0);
	KTEST_ASSERT_TRUE(t, bt && st);
	wake_up_process(bt);
	while (!smp_load_acquire(&b.started))
		cond_resched();	/* a kernel wait loop offers the CPU */
	udelay(5000);		/* the hog's vruntime is now well ahead */
	wake_up_process(st);
	wait_flag(&b.done);
	while (!smp_load_acquire(&pr.done))
		cond_resched();	/* a kernel wait loop offers the CPU */
#if defined(CONFIG_PREEMPTION)
	/* The sleeper's credit beats the wakeup granularity: it ran while the hog ran. */
	KTEST_EXPECT_TRUE(t, b.preempted_early);
#elif defined(CONFIG_PREEMPT_VOLUNTARY)
	KTEST_EXPECT_FALSE(t, b.preempted_early);
	KTEST_EXPECT_GE(t, pr.t_run, b.t_cond);
	KTEST_EXPECT_LT(t, pr.t_run, b.t_end);
#else
	KTEST_EXPECT_GE(t, pr.t_run, b.t_end);
#endif
}

/*
 * LAST_BUDDY: with at least sched_nr_latency tasks on the CPU, a wakeup
 * that preempts names the preempted task "last", and when the wakee blocks
 * again the CPU goes back to it rather than to the leftmost of the others
 * (if that costs at most the wakeup granularity).  One CPU, eight spinners
 * counting in spin_seq, and a sleeper woken 40 times by this task: after
 * each round trip, did any spinner run before we got the CPU back?  Under
 * icount the answer is exact; under plain TCG a host stall can make the
 * tick take the CPU in between, so the count is only checked there.
 */
#define BUDDY_SPINNERS	8
#define BUDDY_ROUNDS	40

static volatile bool buddy_stop;
static volatile unsigned long spin_seq;
static volatile unsigned long buddy_wakee_runs;

static int buddy_spin_fn(void *data)
{
	while (!READ_ONCE(buddy_stop)) {
		WRITE_ONCE(spin_seq, spin_seq + 1);
		cpu_relax();
	}
	return 0;
}

static int buddy_wakee_fn(void *data)
{
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (READ_ONCE(buddy_stop))
			break;
		schedule();
		WRITE_ONCE(buddy_wakee_runs, buddy_wakee_runs + 1);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static void fair_preempted_task_gets_cpu_back(struct ktest *t)
{
	struct task_struct *w, *sp[BUDDY_SPINNERS];
	int preempted = 0, direct = 0;

	if (num_online_cpus() != 1)
		ktest_skip(t, "one CPU: who runs next is decided there alone");
	if (!IS_ENABLED_PREEMPTION)
		ktest_skip(t, "a wakeup preempts only on a preemptible kernel");
	if (current->policy != SCHED_NORMAL)
		ktest_skip(t, "the test task must be a fair task");
	buddy_stop = false;
	buddy_wakee_runs = 0;
	for (int i = 0; i < BUDDY_SPINNERS; i++) {
		sp[i] = spawn(buddy_spin_fn, NULL, "buddy-spin", 0, SCHED_NORMAL, 0);
		KTEST_ASSERT_TRUE(t, sp[i]);
		wake_up_process(sp[i]);
	}
	w = spawn(buddy_wakee_fn, NULL, "buddy-wakee", 0, SCHED_NORMAL, 0);
	KTEST_ASSERT_TRUE(t, w);
	wake_up_process(w);
	msleep(20);	/* everyone has run and waits; the wakee sleeps */
	/*
	 * No sleeping from here: each round this task runs 100 us more and
	 * moves right past the spinners' (which do not run while we keep the
	 * CPU); the buddy hands it back while that lead is within the wakeup
	 * granularity, the leftmost rule only while it has none.
	 */
	for (int i = 0; i < BUDDY_ROUNDS; i++) {
		unsigned long runs = READ_ONCE(buddy_wakee_runs);
		unsigned long seq;

		udelay(100);
		seq = READ_ONCE(spin_seq);
		wake_up_process(w);
		if (READ_ONCE(buddy_wakee_runs) == runs)
			continue;	/* it did not preempt us */
		preempted++;
		direct += READ_ONCE(spin_seq) == seq;
	}
	WRITE_ONCE(buddy_stop, true);
	wake_up_process(w);
	ktest_info(t, "%d of %d wakeups preempted; after %d of them the CPU came straight back",
		   preempted, BUDDY_ROUNDS, direct);
	if (!ktest_exact_time)
		ktest_skip(t, "a host stall can put a tick in between (clock: %s)",
			   ktest_clock_mode());
	/* 11 of 40 preempt (icount); without the buddy 3 of those lose the CPU. */
	KTEST_EXPECT_GE(t, preempted, 5);
	KTEST_EXPECT_EQ(t, direct, preempted);
}

/*
 * yield() marks the caller to be skipped once, not sent behind everyone:
 * the next task gets the CPU only if it is within the wakeup granularity.
 * A spinner runs alone for 50 ms while this task sleeps; we wake with a
 * sleeper's credit (half a latency period behind it, more than the
 * granularity) and yield at once: the spinner must not run.
 */
static void fair_yield_skips_only_when_fair(struct ktest *t)
{
	struct task_struct *sp;
	unsigned long seq;

	if (num_online_cpus() != 1)
		ktest_skip(t, "one CPU: who runs next is decided there alone");
	if (current->policy != SCHED_NORMAL)
		ktest_skip(t, "the test task must be a fair task");
	buddy_stop = false;
	sp = spawn(buddy_spin_fn, NULL, "yield-spin", 0, SCHED_NORMAL, 0);
	KTEST_ASSERT_TRUE(t, sp);
	wake_up_process(sp);
	msleep(50);
	seq = READ_ONCE(spin_seq);
	yield();
	seq = READ_ONCE(spin_seq) - seq;
	WRITE_ONCE(buddy_stop, true);
	ktest_info(t, "the spinner counted %lu while we yielded", seq);
	if (!ktest_exact_time)
		ktest_skip(t, "a host stall can put a tick in between (clock: %s)",
			   ktest_clock_mode());
	KTEST_EXPECT_EQ(t, seq, 0);
}

/* ---------------------------------------------------------------- migrate_disable */

struct pinned {
	int cpu_before, cpu_after, cpu_at_aff_return;
	bool moved_while_disabled;
	unsigned long preemptions;
	int enable_seq, aff_seq;
	volatile bool started, release, done, aff_calling, aff_done;
	struct task_struct *task, *waiter;
};

static int pin_seq;

static int pinned_fn(void *data)
{
	struct pinned *m = data;
	unsigned long nivcsw;

	migrate_disable();
	m->cpu_before = smp_processor_id();
	nivcsw = current->nivcsw;
	smp_store_release(&m->started, true);
	while (!smp_load_acquire(&m->release)) {
		if (smp_processor_id() != m->cpu_before)
			m->moved_while_disabled = true;
		cond_resched();
	}
	m->preemptions = current->nivcsw - nivcsw;
	m->enable_seq = __atomic_add_fetch(&pin_seq, 1, __ATOMIC_SEQ_CST);
	migrate_enable();
	/*
	 * The move is the stopper's, queued by migrate_enable(): it preempts
	 * at once on preemptible kernels and at the next scheduling point on
	 * the others (Linux has the same hole on !PREEMPT).
	 */
	cond_resched();
	m->cpu_after = smp_processor_id();
	smp_store_release(&m->done, true);
	wake_up_process(m->waiter);
	return 0;
}

static int affinity_fn(void *data)
{
	struct pinned *m = data;

	smp_store_release(&m->aff_calling, true);
	set_cpus_allowed_ptr(m->task, cpumask_of(0));	/* blocks until migrate_enable() */
	m->aff_seq = __atomic_add_fetch(&pin_seq, 1, __ATOMIC_SEQ_CST);
	m->cpu_at_aff_return = task_cpu(m->task);	/* returns once it was moved */
	smp_store_release(&m->aff_done, true);
	wake_up_process(m->waiter);
	return 0;
}

static void migrate_disable_pins_and_defers_affinity(struct ktest *t)
{
	struct pinned m = { .waiter = current };
	struct probe pr[20];
	struct task_struct *at;
	int cpu = other_cpu();

	if (cpu < 0)
		ktest_skip(t, "needs 2 CPUs");
	m.task = spawn(pinned_fn, &m, "pinned", -1, SCHED_NORMAL, 0);
	at = spawn(affinity_fn, &m, "set-affinity", 0, SCHED_NORMAL, 0);
	KTEST_ASSERT_TRUE(t, m.task && at);
	KTEST_ASSERT_EQ(t, set_cpus_allowed_ptr(m.task, cpumask_of(cpu)), 0);
	wake_up_process(m.task);
	while (!smp_load_acquire(&m.started))
		cond_resched();	/* a kernel wait loop offers the CPU */
	/* Preempt it many times with short RT tasks on its CPU. */
	for (int i = 0; i < 20; i++) {
		struct task_struct *p;

		pr[i] = (struct probe){ };
		p = spawn(probe_fn, &pr[i], "preemptor", cpu, SCHED_FIFO, 60);
		KTEST_ASSERT_TRUE(t, p);
		wake_up_process(p);
		while (!smp_load_acquire(&pr[i].done))
			cond_resched();	/* a kernel wait loop offers the CPU */
	}
	/* Allow it only elsewhere: the change must wait for migrate_enable(). */
	wake_up_process(at);
	while (!smp_load_acquire(&m.aff_calling))
		cond_resched();	/* a kernel wait loop offers the CPU */
	udelay(2000);
	KTEST_EXPECT_FALSE(t, smp_load_acquire(&m.aff_done));
	smp_store_release(&m.release, true);
	wait_flag(&m.done);
	wait_flag(&m.aff_done);
	ktest_info(t, "preempted %lu times while migrate-disabled on CPU %d", m.preemptions,
		   m.cpu_before);
	KTEST_EXPECT_FALSE(t, m.moved_while_disabled);
	/*
	 * Every preemptor ran on the pinned task's CPU while it was
	 * migrate-disabled; most of them preempted it directly, the rest
	 * found it already switched out by another task of that CPU (a
	 * kworker freeing the previous preemptor, on RT): not a fixed count.
	 * The pinned task never sleeps, so each of them running there means
	 * it had been preempted.
	 */
	for (int i = 0; i < 20; i++)
		KTEST_EXPECT_EQ(t, pr[i].cpu, cpu);
	KTEST_EXPECT_GE(t, m.preemptions, 1);
	KTEST_EXPECT_EQ(t, m.cpu_before, cpu);
	KTEST_EXPECT_GT(t, m.aff_seq, m.enable_seq);	/* the change waited */
	KTEST_EXPECT_EQ(t, m.cpu_after, 0);		/* and then took effect */
	KTEST_EXPECT_EQ(t, m.cpu_at_aff_return, 0);
}

/* ---------------------------------------------------------------- push/pull */

struct rtmig {
	u64 spin_ns;
	u64 t_start, t_end;
	int done_at_start;	/* how many of the set had finished when this one started */
	int higher_waiting;	/* higher-priority ones runnable but given no CPU */
	volatile bool done;
	struct task_struct *waiter;
};

static volatile int rtmig_done;
static struct task_struct *rtmig_tasks[CONFIG_NR_CPUS + 1];
static struct rtmig *rtmig_data[CONFIG_NR_CPUS + 1];
static int rtmig_n;

static int rtmig_fn(void *data)
{
	struct rtmig *r = data;

	r->done_at_start = rtmig_done;
	/*
	 * Scheduler state, not execution timing: a higher-priority task that
	 * is not on a CPU must at least be what its CPU runs next (queued
	 * there with a reschedule pending), not waiting behind an RT task at
	 * least as important.
	 */
	for (int i = 0; i < rtmig_n; i++) {
		struct task_struct *h = rtmig_tasks[i], *c;

		if (h->prio >= current->prio || rtmig_data[i]->done || READ_ONCE(h->on_cpu))
			continue;
		c = READ_ONCE(cpu_rq(task_cpu(h))->curr);
		if (c != h && c->prio <= h->prio)
			r->higher_waiting++;
	}
	r->t_start = ktime_get_ns();
	while (ktime_get_ns() - r->t_start < r->spin_ns)
		cpu_relax();
	r->t_end = ktime_get_ns();
	__atomic_fetch_add(&rtmig_done, 1, __ATOMIC_SEQ_CST);
	smp_store_release(&r->done, true);
	wake_up_process(r->waiter);
	return 0;
}

/*
 * rt-migrate-test's invariant: with N CPUs and N+1 runnable RT tasks, the
 * lowest-priority one starts only once a higher one has finished.
 */
static void rt_migrate_invariant(struct ktest *t)
{
	int n = num_online_cpus(), lowest = 0;
	struct rtmig r[CONFIG_NR_CPUS + 1];
	struct task_struct *p[CONFIG_NR_CPUS + 1];
	u64 first_end = ~0ULL;

	if (n < 2)
		ktest_skip(t, "needs 2 CPUs");
	rtmig_done = 0;
	rtmig_n = n + 1;
	for (int i = 0; i <= n; i++) {
		r[i] = (struct rtmig){ .spin_ns = 30 * NSEC_PER_MSEC, .waiter = current };
		p[i] = spawn(rtmig_fn, &r[i], "rt-mig", -1, SCHED_FIFO, 10 + i);
		KTEST_ASSERT_TRUE(t, p[i]);
		rtmig_tasks[i] = p[i];
		rtmig_data[i] = &r[i];
	}
	preempt_disable();
	for (int i = n; i >= 0; i--)
		wake_up_process(p[i]);
	preempt_enable();
	for (int i = 0; i <= n; i++)
		wait_flag(&r[i].done);
	for (int i = 1; i <= n; i++)
		first_end = min(first_end, r[i].t_end);
	ktest_info(t, "%d CPUs: lowest started %lld us after the first higher one ended", n,
		   (long long)((s64)(r[lowest].t_start - first_end) / 1000));
	/*
	 * The lowest runs only once a higher one has finished, and whenever
	 * one of them starts, every higher-priority one still runnable holds a
	 * CPU (push/pull did their job): orderings, checked on every run.
	 */
	KTEST_EXPECT_GE(t, r[lowest].done_at_start, 1);
	for (int i = 0; i <= n; i++)
		KTEST_EXPECT_EQ(t, r[i].higher_waiting, 0);
	/* And the freed CPU went to the lowest at once: a timing, so icount only. */
	if (ktest_exact_time)
		KTEST_EXPECT_LT(t, r[lowest].t_start, first_end + 10 * NSEC_PER_MSEC);
}

/* ---------------------------------------------------------------- lazy preemption */

/*
 * A normal task inside migrate_disable() (with PREEMPT_LAZY: a lazy
 * section) until the woken task has run or 300 ms have passed, then
 * outside it for a while.  waker_ran_inside says which.
 */
struct lazy_victim {
	u64 t_enable, t_end;
	volatile bool *waker_ran;
	bool waker_ran_inside;
	volatile bool started, done;
	struct task_struct *waiter;
};

static int lazy_victim_fn(void *data)
{
	struct lazy_victim *v = data;
	u64 start;

	migrate_disable();
	smp_store_release(&v->started, true);
	start = ktime_get_ns();
	while (ktime_get_ns() - start < 300 * NSEC_PER_MSEC && !*v->waker_ran)
		cpu_relax();
	v->waker_ran_inside = *v->waker_ran;
	v->t_enable = ktime_get_ns();
	migrate_enable();
	start = ktime_get_ns();
	while (ktime_get_ns() - start < 10 * NSEC_PER_MSEC && !*v->waker_ran)
		cpu_relax();
	v->t_end = ktime_get_ns();
	smp_store_release(&v->done, true);
	wake_up_process(v->waiter);
	return 0;
}

static void lazy_wakeup(struct ktest *t, int policy, struct probe *pr, struct lazy_victim *v)
{
	int cpu = other_cpu();
	struct task_struct *vt, *wt;

	*pr = (struct probe){ };
	*v = (struct lazy_victim){ .waiter = current, .waker_ran = &pr->done };
	vt = spawn(lazy_victim_fn, v, "lazy-victim", cpu, SCHED_NORMAL, 0);
	wt = spawn(probe_fn, pr, "waker", cpu, policy, policy == SCHED_NORMAL ? 0 : 30);
	KTEST_ASSERT_TRUE(t, vt && wt);
	wake_up_process(vt);
	while (!smp_load_acquire(&v->started))
		cond_resched();	/* a kernel wait loop offers the CPU */
	udelay(5000);
	wake_up_process(wt);
	wait_flag(&v->done);
	while (!smp_load_acquire(&pr->done))
		cond_resched();	/* a kernel wait loop offers the CPU */
}

static void lazy_preemption(struct ktest *t)
{
	struct lazy_victim v;
	struct probe pr;

	if (!IS_ENABLED_PREEMPTION)
		ktest_skip(t, "wakeups preempt only with PREEMPT or PREEMPT_RT");
	if (other_cpu() < 0)
		ktest_skip(t, "needs 2 CPUs");
	lazy_wakeup(t, SCHED_FIFO, &pr, &v);
	KTEST_EXPECT_TRUE(t, v.waker_ran_inside);	/* RT: always at once */
	lazy_wakeup(t, SCHED_NORMAL, &pr, &v);
#if defined(CONFIG_PREEMPT_LAZY)
	KTEST_EXPECT_FALSE(t, v.waker_ran_inside);	/* waited for the lazy count to drop */
	KTEST_EXPECT_GE(t, pr.t_run, v.t_enable);
	KTEST_EXPECT_LT(t, pr.t_run, v.t_end);		/* and then ran at once */
#else
	KTEST_EXPECT_TRUE(t, v.waker_ran_inside);	/* normal wakeup preempts at once */
#endif
}

/* ---------------------------------------------------------------- checks */

static int leak_preempt_fn(void *data)
{
	preempt_count_set(preempt_count() + 1);	/* a preempt_disable() without enable */
	return 0;
}

static int leak_migrate_fn(void *data)
{
	migrate_disable();
	return 0;
}

/* Expect exactly one report containing @needle, then forget it (it was provoked). */
#define EXPECT_SCHED_REPORT(t, mark, before, needle) do {		\
	KTEST_EXPECT_EQ(t, atomic_read(&sched_bug_count), (before) + 1);\
	KTEST_EXPECT_LOG(t, mark, needle);				\
	atomic_set(&sched_bug_count, before);				\
	ktest_expect_reports("sched", 1);				\
} while (0)

static void kernel_checks_fire(struct ktest *t)
{
	int before = atomic_read(&sched_bug_count);
	struct probe done = { .waiter = current };
	struct task_struct *p;
	u64 mark;

	mark = ktest_log_mark();
	local_irq_disable();
	might_sleep();
	local_irq_enable();
	EXPECT_SCHED_REPORT(t, mark, before, "BUG: sleeping function called from invalid context");

#ifdef CONFIG_PREEMPT_COUNT
	mark = ktest_log_mark();
	preempt_disable();
	schedule();
	/* The report reset the count, as Linux does: nothing to enable. */
	KTEST_EXPECT_EQ(t, preempt_count(), 0);
	EXPECT_SCHED_REPORT(t, mark, before, "BUG: scheduling while atomic");
#endif
	mark = ktest_log_mark();
	p = spawn(leak_preempt_fn, NULL, "leaker", smp_processor_id(), SCHED_NORMAL, 0);
	KTEST_ASSERT_TRUE(t, p);
	wake_up_process(p);
	for (int i = 0; i < 10000 && atomic_read(&sched_bug_count) == before; i++)
		yield();
	EXPECT_SCHED_REPORT(t, mark, before, "leaked preempt count");

	mark = ktest_log_mark();
	p = spawn(leak_migrate_fn, NULL, "leaker2", smp_processor_id(), SCHED_NORMAL, 0);
	KTEST_ASSERT_TRUE(t, p);
	wake_up_process(p);
	for (int i = 0; i < 10000 && atomic_read(&sched_bug_count) == before; i++)
		yield();
	EXPECT_SCHED_REPORT(t, mark, before, "exited migrate-disabled");
	(void)done;
}

static void kthread_stop_returns_code(struct ktest *t);

/*
 * Passes a CPU makes while it holds at least two hogs fewer than the
 * busiest one, with no hog moving anywhere, before the case calls the
 * balancer stuck.  Each such pass finds that imbalance and must move a
 * hog: only a cache-hot candidate may be refused, and never in more than
 * cache_nice_tries + 1 periodic passes in a row.
 */
#define SPREAD_STUCK_PASSES	8
/* Passes every CPU makes once spread, after which it must still be spread. */
#define SPREAD_HOLD_PASSES	4
/*
 * On PREEMPT_RT the periodic pass runs in ksoftirqd, a fair task on the
 * pulling CPU, so that CPU counts one task more than its hogs.  irqlab
 * counts tasks where Linux weighs PELT load (in which ksoftirqd is next
 * to nothing), so there a CPU must be one hog further behind to pull.
 */
#define SPREAD_PASS_SELF	(IS_ENABLED(CONFIG_PREEMPT_RT) ? 1 : 0)

struct spread {
	struct task_struct *p[2 * CONFIG_NR_CPUS];
	int nr;
	volatile bool stop;
	atomic_t stopped;	/* hogs past their last look at us */
};

/* Where the hogs are at one instant, and the balancing passes then. */
struct spread_snap {
	int count[CONFIG_NR_CPUS];
	unsigned int passes[CONFIG_NR_CPUS];
	u64 migrations;
	int max, max_cpu, min;
	unsigned int sumsq;	/* drops with every move towards spread */
};

static unsigned int lb_passes(int cpu)
{
	struct sched_domain *sd = &cpu_rq(cpu)->sd;

	return READ_ONCE(sd->lb_count[CPU_IDLE]) + READ_ONCE(sd->lb_count[CPU_NOT_IDLE]) +
	       READ_ONCE(sd->lb_count[CPU_NEWLY_IDLE]);
}

static u64 spread_migrations(struct spread *s)
{
	u64 m = 0;

	for (int i = 0; i < s->nr; i++)
		m += READ_ONCE(s->p[i]->se.nr_migrations);
	return m;
}

/*
 * A consistent picture: set_task_cpu() counts a migration before it
 * changes task->cpu, so equal sums around the reads mean no hog moved
 * while we read them.
 */
static void spread_snapshot(struct spread *s, struct spread_snap *sn)
{
	int c;

	do {
		sn->migrations = spread_migrations(s);
		smp_rmb();
		memset(sn->count, 0, sizeof(sn->count));
		for (int i = 0; i < s->nr; i++)
			sn->count[task_cpu(s->p[i])]++;
		smp_rmb();
	} while (spread_migrations(s) != sn->migrations);
	sn->max = 0;
	sn->min = s->nr;
	sn->sumsq = 0;
	for_each_online_cpu(c) {
		sn->passes[c] = lb_passes(c);
		sn->sumsq += sn->count[c] * sn->count[c];
		sn->min = min(sn->min, sn->count[c]);
		if (sn->count[c] > sn->max) {
			sn->max = sn->count[c];
			sn->max_cpu = c;
		}
	}
}

static int spread_fn(void *data)
{
	struct spread *s = data;

	while (!smp_load_acquire(&s->stop))
		cond_resched();
	atomic_inc(&s->stopped);
	return 0;
}

/*
 * Watch the hogs until no CPU's pass finds an imbalance (two per CPU, or
 * at most SPREAD_PASS_SELF further apart).  Judged by passes, not
 * time: a host that leaves a vCPU unrun only delays its passes.  Returns
 * false once a CPU that should pull made SPREAD_STUCK_PASSES passes that
 * saw its deficit while nothing moved (or after 60 s of guest time, which
 * only a balancer that never runs takes).
 */
static bool spread_wait(struct ktest *t, struct spread *s, struct spread_snap *cur)
{
	unsigned int seen[CONFIG_NR_CPUS] = { 0 }, best;
	u64 deadline = ktime_get_ns() + 60 * NSEC_PER_SEC;
	struct spread_snap prev;
	int c;

	spread_snapshot(s, &prev);
	best = prev.sumsq;
	for (;;) {
		msleep(1);
		spread_snapshot(s, cur);
		if (cur->max - cur->min <= 1 + SPREAD_PASS_SELF)
			return true;
		if (cur->migrations != prev.migrations) {
			/* Something moved: count afresh from a better spread. */
			if (cur->sumsq < best) {
				best = cur->sumsq;
				memset(seen, 0, sizeof(seen));
			}
		} else {
			/* Nothing moved: these passes all saw the same deficit. */
			for_each_online_cpu(c)
				if (cur->count[c] + 2 + SPREAD_PASS_SELF <= cur->max)
					seen[c] += cur->passes[c] - prev.passes[c];
		}
		for_each_online_cpu(c) {
			if (seen[c] >= SPREAD_STUCK_PASSES) {
				ktest_fail(t, __FILE__, __LINE__,
					   "CPU %d made %u passes holding %d hogs to CPU %d's %d, and no hog moved",
					   c, seen[c], cur->count[c], cur->max_cpu, cur->max);
				return false;
			}
		}
		if (ktime_get_ns() > deadline) {
			ktest_fail(t, __FILE__, __LINE__,
				   "not spread after 60 s: CPU %d holds %d hogs", cur->max_cpu,
				   cur->max);
			return false;
		}
		prev = *cur;
	}
}

/*
 * 2N fair hogs started on one CPU and then allowed everywhere: only load
 * balancing (periodic, from the tick, and when a CPU goes idle) can
 * spread them.  It must reach two per CPU (see SPREAD_PASS_SELF), and
 * keep them spread while every CPU makes more passes.
 */
static void fair_load_balance_spreads(struct ktest *t)
{
	int n = num_online_cpus(), c;
	struct spread s = { .nr = 2 * n };
	unsigned int passes0[CONFIG_NR_CPUS], hold0[CONFIG_NR_CPUS];
	struct spread_snap sn;
	u64 t0, m0, deadline;
	bool more = true;

	if (n < 2)
		ktest_skip(t, "needs 2 CPUs");
	for (int i = 0; i < s.nr; i++) {
		s.p[i] = spawn(spread_fn, &s, "spread", -1, SCHED_NORMAL, 0);
		KTEST_ASSERT_TRUE(t, s.p[i]);
		KTEST_EXPECT_EQ(t, set_cpus_allowed_ptr(s.p[i], cpumask_of(0)), 0);
	}
	/*
	 * Watch from above the fair class: a fair watcher woken by the tick
	 * is queued when that tick's pass counts its CPU's tasks, so the CPU
	 * it runs on would look one task busier than its hogs make it.
	 */
	ktest_set_fifo(1);
	for (int i = 0; i < s.nr; i++)
		wake_up_process(s.p[i]);
	m0 = spread_migrations(&s);
	for (int i = 0; i < s.nr; i++)
		KTEST_EXPECT_EQ(t, set_cpus_allowed_ptr(s.p[i], cpu_online_mask), 0);
	for_each_online_cpu(c)
		passes0[c] = lb_passes(c);
	t0 = ktime_get_ns();
	if (spread_wait(t, &s, &sn)) {
		ktest_info(t, "spread after %llu ms (%s clock), %llu hog migrations",
			   (unsigned long long)((ktime_get_ns() - t0) / NSEC_PER_MSEC),
			   ktest_clock_mode(), (unsigned long long)(sn.migrations - m0));
		/*
		 * Every pass's move goes from a CPU with at least two more
		 * hogs, which lowers the sum of squared counts by 2 or more:
		 * from 4n^2 to 4n, that is at most 2n^2 - 2n moves.  Twice
		 * that leaves room for moves a passing non-hog task made
		 * look right; one that pulls too much moves far more.
		 */
		KTEST_EXPECT_LE(t, sn.migrations - m0, (u64)(4 * n * n - 4 * n));
		/*
		 * And it stays spread while every CPU makes more passes (one
		 * move in flight at most).  The cap is for a CPU that stopped
		 * balancing altogether.
		 */
		deadline = ktime_get_ns() + 60 * NSEC_PER_SEC;
		for_each_online_cpu(c)
			hold0[c] = sn.passes[c];
		while (more && ktime_get_ns() < deadline) {
			msleep(1);
			more = false;
			for_each_online_cpu(c)
				more |= lb_passes(c) - hold0[c] < SPREAD_HOLD_PASSES;
		}
		KTEST_EXPECT_FALSE(t, more);
		spread_snapshot(&s, &sn);
		KTEST_EXPECT_LE(t, sn.max - sn.min, 2 + SPREAD_PASS_SELF);
	}
	for_each_online_cpu(c)
		ktest_info(t, "CPU %d: %d hogs, %u balancing passes since the hogs were freed", c,
			   sn.count[c], sn.passes[c] - passes0[c]);
	smp_store_release(&s.stop, true);
	while (atomic_read(&s.stopped) < s.nr)	/* they read our stack */
		msleep(1);
	ktest_set_fifo(0);
}

/* ---------------------------------------------------------------- balancing passes */

/*
 * A backlog of fair tasks on CPU 0 behind a SCHED_FIFO "conductor" that
 * spins there, so none of them runs on CPU 0 while CPU 1 (idle) pulls.
 * Hot tasks ran on CPU 0 just before; cold ones never ran.  Everything
 * starts pinned to CPU 0 and is allowed everywhere only once queued (hot
 * ones first, so the cold ones end up nearer the head of cfs_tasks).
 */
#define LB_MAX_TASKS	80

struct lb_backlog {
	int nr_hot, nr_cold;
	int want_pulled;		/* stop once this many of ours left CPU 0 */
	u64 settle_ns;			/* then keep CPU 0 busy this much longer */
	struct task_struct *hot[LB_MAX_TASKS], *cold[LB_MAX_TASKS];
	int hot_cpu[LB_MAX_TASKS], cold_cpu[LB_MAX_TASKS];
	int pulled;
	volatile bool release, done;
	struct task_struct *waiter;
	/*
	 * Optional: tasks that keep every other CPU from balancing
	 * (softirqs off, above every fair task) until the whole backlog is
	 * queued and allowed there, so that the first pass sees all of it
	 * however the host runs the vCPUs.
	 */
	bool hold_others;
	struct task_struct *blocker[CONFIG_NR_CPUS];
	int nr_blockers;
	atomic_t blockers_on;
	volatile bool blocker_release;
};

static int lb_blocker_fn(void *data)
{
	struct lb_backlog *b = data;

	local_bh_disable();
	atomic_inc(&b->blockers_on);
	while (!smp_load_acquire(&b->blocker_release))
		cpu_relax();
	local_bh_enable();
	return 0;
}

static int lb_worker_fn(void *data)
{
	struct lb_backlog *b = data;

	while (!READ_ONCE(b->release))
		cond_resched();
	return 0;
}

static int lb_pulled(struct lb_backlog *b)
{
	int n = 0;

	for (int i = 0; i < b->nr_hot; i++)
		n += task_cpu(b->hot[i]) != 0;
	for (int i = 0; i < b->nr_cold; i++)
		n += task_cpu(b->cold[i]) != 0;
	return n;
}

static int lb_conductor_fn(void *data)
{
	struct lb_backlog *b = data;
	u64 deadline, settled;

	/* The waiter blocks; every hot task gets to run on CPU 0. */
	for (int tries = 0; tries < 200; tries++) {
		bool all_ran = true;

		msleep(5);
		for (int i = 0; i < b->nr_hot; i++)
			all_ran &= READ_ONCE(b->hot[i]->se.sum_exec_runtime) != 0;
		if (all_ran)
			break;
	}
	for (int i = 0; i < b->nr_blockers; i++)
		wake_up_process(b->blocker[i]);
	while (atomic_read(&b->blockers_on) < b->nr_blockers)
		cpu_relax();
	for (int i = 0; i < b->nr_cold; i++)
		wake_up_process(b->cold[i]);
	for (int i = 0; i < b->nr_hot; i++)
		set_cpus_allowed_ptr(b->hot[i], cpu_online_mask);
	for (int i = 0; i < b->nr_cold; i++)
		set_cpus_allowed_ptr(b->cold[i], cpu_online_mask);
	smp_store_release(&b->blocker_release, true);
	deadline = ktime_get_ns() + 3 * NSEC_PER_SEC;
	while (lb_pulled(b) < b->want_pulled && ktime_get_ns() < deadline)
		cpu_relax();
	settled = ktime_get_ns() + b->settle_ns;
	while (ktime_get_ns() < settled)
		cpu_relax();
	b->pulled = lb_pulled(b);
	for (int i = 0; i < b->nr_hot; i++)
		b->hot_cpu[i] = task_cpu(b->hot[i]);
	for (int i = 0; i < b->nr_cold; i++)
		b->cold_cpu[i] = task_cpu(b->cold[i]);
	WRITE_ONCE(b->release, true);
	smp_store_release(&b->done, true);
	wake_up_process(b->waiter);
	return 0;
}

static void lb_reset_stats(void)
{
	int cpu;

	for_each_online_cpu(cpu) {
		struct sched_domain *sd = &cpu_rq(cpu)->sd;

		memset(sd->lb_count, 0, sizeof(sd->lb_count));
		memset(sd->lb_failed, 0, sizeof(sd->lb_failed));
		memset(sd->lb_balanced, 0, sizeof(sd->lb_balanced));
		memset(sd->lb_gained, 0, sizeof(sd->lb_gained));
		memset(sd->lb_hot_gained, 0, sizeof(sd->lb_hot_gained));
		WRITE_ONCE(sd->lb_max_gained, 0);
		WRITE_ONCE(sd->lb_max_batch, 0);
		WRITE_ONCE(sd->lb_hardirq, 0);
	}
}

static struct task_struct *lb_worker(struct lb_backlog *b)
{
	struct task_struct *p = spawn(lb_worker_fn, b, "lb-worker", -1, SCHED_NORMAL, 0);

	if (p && set_cpus_allowed_ptr(p, cpumask_of(0))) {
		WRITE_ONCE(b->release, true);	/* let it end once woken */
		wake_up_process(p);
		return NULL;
	}
	return p;
}

/* Build the backlog, run it, and return with the conductor done. */
static int lb_run_backlog(struct ktest *t, struct lb_backlog *b)
{
	struct task_struct *c;
	int cpu;

	b->waiter = current;
	for (int i = 0; i < b->nr_hot; i++) {
		b->hot[i] = lb_worker(b);
		if (!b->hot[i])
			return -ENOMEM;
		wake_up_process(b->hot[i]);
	}
	for (int i = 0; i < b->nr_cold; i++) {
		b->cold[i] = lb_worker(b);
		if (!b->cold[i])
			return -ENOMEM;
	}
	for_each_online_cpu(cpu) {
		if (!cpu || !b->hold_others)
			continue;
		b->blocker[b->nr_blockers] = spawn(lb_blocker_fn, b, "lb-blocker", cpu,
						   SCHED_FIFO, 50);
		if (!b->blocker[b->nr_blockers++])
			return -ENOMEM;
	}
	c = spawn(lb_conductor_fn, b, "lb-conductor", 0, SCHED_FIFO, 10);
	if (!c)
		return -ENOMEM;
	lb_reset_stats();
	wake_up_process(c);
	wait_flag(&b->done);
	return 0;
}

/*
 * Periodic balancing runs in SCHED_SOFTIRQ, never in the tick's hard IRQ,
 * and one pass moves at most sysctl_sched_nr_migrate tasks (32; 8 on
 * PREEMPT_RT): 72 cold tasks on CPU 0 make an imbalance of 36.
 */
static void fair_load_balance_softirq_capped(struct ktest *t)
{
	static struct lb_backlog b;
	unsigned int periodic = 0, max_gained = 0, hardirq = 0;
	int cpu;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs");
	memset(&b, 0, sizeof(b));
	b.nr_cold = 72;
	b.want_pulled = 30;
	b.settle_ns = 50 * NSEC_PER_MSEC;
	KTEST_ASSERT_EQ(t, lb_run_backlog(t, &b), 0);
	for_each_online_cpu(cpu) {
		struct sched_domain *sd = &cpu_rq(cpu)->sd;

		max_gained = max(max_gained, READ_ONCE(sd->lb_max_gained));
		hardirq += READ_ONCE(sd->lb_hardirq);
		/*
		 * Any CPU's: with more than two, the others may do all the
		 * pulling while the host does not run CPU 1's vCPU.
		 */
		if (cpu)
			periodic += sd->lb_count[CPU_IDLE] + sd->lb_count[CPU_NOT_IDLE];
	}
	ktest_info(t, "%d of 72 pulled; most in one pass %u (cap %u); CPUs 1-%d: %u periodic passes; CPU 1: %u newidle",
		   b.pulled, max_gained, sysctl_sched_nr_migrate, nr_cpu_ids - 1, periodic,
		   cpu_rq(1)->sd.lb_count[CPU_NEWLY_IDLE]);
	KTEST_EXPECT_GE(t, b.pulled, 30);
	KTEST_EXPECT_GT(t, periodic, 0);
	KTEST_EXPECT_EQ(t, hardirq, 0);
	KTEST_EXPECT_GE(t, max_gained, 1);
	KTEST_EXPECT_LE(t, max_gained, sysctl_sched_nr_migrate);
}

/*
 * With sysctl_sched_nr_migrate raised above sched_nr_migrate_break (32),
 * as the tunable allows, one pass may move more than 32 tasks, but never
 * more than 32 under one hold of busiest's lock: it lets go in between
 * (LBF_NEED_BREAK) and carries on.
 */
static void fair_load_balance_breaks_long_passes(struct ktest *t)
{
	static struct lb_backlog b;
	unsigned int nr_migrate = sysctl_sched_nr_migrate, max_gained = 0, max_batch = 0;
	int cpu;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs");
	/*
	 * A pass that starts while the backlog is still being woken sees a
	 * smaller imbalance (a slow TCG run saw 28; retries did not make
	 * that impossible): the other CPUs are held from balancing until
	 * the backlog is all queued and allowed there.
	 */
	memset(&b, 0, sizeof(b));
	b.nr_cold = 72;
	b.want_pulled = 36;
	b.settle_ns = 20 * NSEC_PER_MSEC;
	b.hold_others = true;
	sysctl_sched_nr_migrate = 64;
	KTEST_ASSERT_EQ(t, lb_run_backlog(t, &b), 0);
	sysctl_sched_nr_migrate = nr_migrate;
	for_each_online_cpu(cpu) {
		max_gained = max(max_gained, READ_ONCE(cpu_rq(cpu)->sd.lb_max_gained));
		max_batch = max(max_batch, READ_ONCE(cpu_rq(cpu)->sd.lb_max_batch));
	}
	ktest_info(t, "%d of 72 pulled; most in one pass %u, in one lock hold %u",
		   b.pulled, max_gained, max_batch);
	KTEST_EXPECT_LE(t, max_batch, 32);
	KTEST_EXPECT_GE(t, max_batch, 1);
	/* 72 cold on CPU 0: 36 to move, more than one hold allows. */
	KTEST_EXPECT_GT(t, max_gained, 32);
}

/*
 * Cold tasks go before hot ones: with hot tasks at the tail of CPU 0's
 * cfs_tasks (where a pass starts) and failed passes never making them fair
 * game (cache_nice_tries raised for the case), the pass skips them and
 * pulls the cold ones.  "Hot" is made exact: the migration cost is set to
 * the time since boot, which a task that never ran exceeds and one that
 * ran during this case does not.
 */
static void fair_load_balance_prefers_cache_cold(struct ktest *t)
{
	static struct lb_backlog b;
	unsigned int cost = sysctl_sched_migration_cost, tries[CONFIG_NR_CPUS];
	int cpu, cold_pulled = 0;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs");
	while (local_clock() < NSEC_PER_SEC)
		msleep(50);
	memset(&b, 0, sizeof(b));
	b.nr_hot = 2;
	b.nr_cold = 4;
	b.want_pulled = 3;		/* half of 6 */
	b.settle_ns = 100 * NSEC_PER_MSEC;
	for_each_online_cpu(cpu) {
		tries[cpu] = cpu_rq(cpu)->sd.cache_nice_tries;
		cpu_rq(cpu)->sd.cache_nice_tries = ~0U;
	}
	sysctl_sched_migration_cost = min_t(u64, local_clock(), ~0U - 1);
	KTEST_ASSERT_EQ(t, lb_run_backlog(t, &b), 0);
	sysctl_sched_migration_cost = cost;
	for_each_online_cpu(cpu)
		cpu_rq(cpu)->sd.cache_nice_tries = tries[cpu];
	for (int i = 0; i < b.nr_cold; i++)
		cold_pulled += b.cold_cpu[i] != 0;
	ktest_info(t, "hot on CPUs %d %d (%llu, %llu refusals); %d of 4 cold pulled",
		   b.hot_cpu[0], b.hot_cpu[1],
		   (unsigned long long)b.hot[0]->se.statistics.nr_failed_migrations_hot,
		   (unsigned long long)b.hot[1]->se.statistics.nr_failed_migrations_hot,
		   cold_pulled);
	KTEST_EXPECT_EQ(t, b.hot_cpu[0], 0);
	KTEST_EXPECT_EQ(t, b.hot_cpu[1], 0);
	KTEST_EXPECT_GT(t, b.hot[0]->se.statistics.nr_failed_migrations_hot, 0);
	KTEST_EXPECT_GT(t, b.hot[1]->se.statistics.nr_failed_migrations_hot, 0);
	KTEST_EXPECT_GE(t, cold_pulled, 1);
}

/*
 * A hot task moves only after more than cache_nice_tries periodic passes
 * in a row moved nothing.  With the cost at -1 every task is hot: the
 * first passes refuse, then one moves them (a forced migration).
 */
static void fair_load_balance_moves_hot_after_failures(struct ktest *t)
{
	static struct lb_backlog b;
	unsigned int cost = sysctl_sched_migration_cost, tries;
	u64 refused = 0, forced = 0;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs");
	memset(&b, 0, sizeof(b));
	b.nr_hot = 4;
	b.want_pulled = 2;
	b.settle_ns = 10 * NSEC_PER_MSEC;
	sysctl_sched_migration_cost = (unsigned int)-1;
	KTEST_ASSERT_EQ(t, lb_run_backlog(t, &b), 0);
	sysctl_sched_migration_cost = cost;
	for (int i = 0; i < b.nr_hot; i++) {
		refused += b.hot[i]->se.statistics.nr_failed_migrations_hot;
		forced += b.hot[i]->se.statistics.nr_forced_migrations;
	}
	ktest_info(t, "%d of 4 pulled; %llu refusals, %llu forced; CPU 1 hot_gained %u",
		   b.pulled, (unsigned long long)refused, (unsigned long long)forced,
		   cpu_rq(1)->sd.lb_hot_gained[CPU_IDLE] +
		   cpu_rq(1)->sd.lb_hot_gained[CPU_NOT_IDLE] +
		   cpu_rq(1)->sd.lb_hot_gained[CPU_NEWLY_IDLE]);
	/*
	 * The first cache_nice_tries + 1 periodic passes of a puller refuse
	 * all four; what moved was forced.  (More CPUs may pull more.)
	 */
	tries = cpu_rq(1)->sd.cache_nice_tries;
	KTEST_EXPECT_GE(t, b.pulled, 2);
	KTEST_EXPECT_GE(t, refused, (u64)4 * (tries + 1));
	KTEST_EXPECT_GE(t, forced, (u64)b.pulled);
}

/* Two threads on one CPU handing the CPU back and forth. */
struct pingpong {
	struct task_struct *peer;
	volatile int *turn;
	int me, rounds;
	volatile bool done;
};

static int pingpong_fn(void *data)
{
	struct pingpong *pp = data;

	for (int i = 0; i < pp->rounds; i++) {
		for (;;) {
			set_current_state(TASK_UNINTERRUPTIBLE);
			if (*pp->turn == pp->me)
				break;
			schedule();
		}
		__set_current_state(TASK_RUNNING);
		*pp->turn = !pp->me;
		wake_up_process(pp->peer);
	}
	smp_store_release(&pp->done, true);
	return 0;
}

static void bench_context_switch(struct ktest *t)
{
	static volatile int turn;
	struct pingpong a = { .me = 0, .rounds = 2000 }, b = { .me = 1, .rounds = 2000 };
	int cpu = other_cpu() >= 0 ? other_cpu() : 0;
	struct task_struct *pa, *pb;
	u64 t0, dt;

	turn = 0;
	a.turn = b.turn = &turn;
	pa = spawn(pingpong_fn, &a, "ping", cpu, SCHED_FIFO, 40);
	pb = spawn(pingpong_fn, &b, "pong", cpu, SCHED_FIFO, 40);
	KTEST_ASSERT_TRUE(t, pa && pb);
	a.peer = pb;
	b.peer = pa;
	t0 = rdtsc_ordered();
	wake_up_process(pa);
	wake_up_process(pb);
	while (!smp_load_acquire(&a.done) || !smp_load_acquire(&b.done))
		yield();
	dt = rdtsc_ordered() - t0;
	ktest_info(t, "%llu cycles per wakeup + context switch (%d switches)",
		   (unsigned long long)(dt / (2 * a.rounds)), 2 * a.rounds);
	KTEST_EXPECT_EQ(t, turn, 0);
}

static struct ktest_case sched_cases[] = {
	KTEST_CASE(fifo_wakeup_from_irq_preempts),
	KTEST_CASE(remote_wakeup_preempts),
	KTEST_CASE(fifo_priority_order),
	KTEST_CASE(rr_slices_fifo_does_not),
	KTEST_CASE(nice_weights_split_cpu),
	KTEST_CASE(fair_wakeup_preempts_hog),
	KTEST_CASE(fair_preempted_task_gets_cpu_back),
	KTEST_CASE(fair_yield_skips_only_when_fair),
	KTEST_CASE(migrate_disable_pins_and_defers_affinity),
	KTEST_CASE(rt_migrate_invariant),
	KTEST_CASE(lazy_preemption),
	KTEST_CASE(kernel_checks_fire),
	KTEST_CASE(kthread_stop_returns_code),
	KTEST_CASE(fair_load_balance_spreads),
	KTEST_CASE(fair_load_balance_softirq_capped),
	KTEST_CASE(fair_load_balance_breaks_long_passes),
	KTEST_CASE(fair_load_balance_prefers_cache_cold),
	KTEST_CASE(fair_load_balance_moves_hot_after_failures),
	KTEST_CASE(bench_context_switch),
	{}
};

static int stoppable_fn(void *data)
{
	while (!kthread_should_stop())
		yield();
	return 42;
}

static void kthread_stop_returns_code(struct ktest *t)
{
	struct task_struct *p = kthread_run(stoppable_fn, NULL, "stoppable");

	KTEST_ASSERT_TRUE(t, p);
	udelay(1000);
	KTEST_EXPECT_EQ(t, kthread_stop(p), 42);
}

static struct ktest_suite sched_suite = { .name = "sched", .cases = sched_cases };
ktest_register_suite(sched_suite);
