// SPDX-License-Identifier: GPL-2.0
/*
 * rt_migrate: does the RT scheduler run the highest-priority runnable
 * tasks?  After rt-tests' rt-migrate-test (DESIGN 7).  N SCHED_FIFO
 * tasks of distinct priorities (prio, prio + 1, ...; N = online CPUs + 1
 * by default, so one must always wait) are released together every
 * loop by a releasing thread above them all; each busy-loops for run_us;
 * the releaser sleeps interval_us and waits for them.  The highest task
 * moves to the next CPU every loop, as in rt-migrate-test, so the others
 * have to be pushed and pulled around it.
 *
 *	run=rt_migrate rt_migrate.tasks=<n> rt_migrate.prio=<p>
 *	    rt_migrate.run_us=<us> rt_migrate.interval_us=<us>
 *	    rt_migrate.loops=<n> rt_migrate.maxerr_us=<us>
 *
 * rt-migrate-test infers misordering afterwards from start times; in the
 * kernel the tasks can look at each other directly.  Every iteration of
 * its busy loop, a task checks each higher task of the set: runnable
 * (TASK_RUNNING, not done with this loop), not on a CPU, and allowed on
 * the CPU the lower task is running on - a higher task waiting for a CPU
 * a lower one holds.  Seen so continuously for more than maxerr_us (the
 * allowance for wakeup, IPI and push/pull latency, rt-migrate-test's
 * --maxerr), that is a violation - once both CPUs that could end it (the
 * one the higher task is queued on and the one running the lower task)
 * have each taken maxerr's worth of ticks since it began.  The tick runs
 * on every CPU, idle or not, and a missed one is not replayed, so that
 * count is what the CPU executed, not what the clock says: under TCG the
 * host may keep a vCPU from running for longer than maxerr, which says
 * nothing about the scheduler.  A sighting past maxerr whose CPUs have
 * not had those ticks (yet) is counted as set aside (printed, "stalled"
 * in the record) if it never gets them.  The busy loop calls cond_resched(), so
 * the non-preemptible models are judged on their scheduling, not on
 * having no preemption.
 *
 * Reported after the last loop: rt-migrate-test's per-task block (Max,
 * Min, Tot, Avg of the time from release to running), each violation,
 * " Passed!" or " Failed!", records "rt_migrate" per task and
 * "rt_migrate_summary".  Status 1 when there was a violation.
 *
 * rt_migrate.test_stall=1 (tests): task 0 is released alone, disables
 * preemption and releases the others, so a higher task queued on its CPU
 * waits for it: the check must report that.
 */
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/sched.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/delay.h>
#include <linux/smp.h>
#include <linux/preempt.h>
#include <linux/ktest.h>
#include <linux/moduleparam.h>
#include <linux/record.h>
#include <linux/vmalloc.h>
#include <linux/kernel_stat.h>
#include <linux/jiffies.h>
#include "rt_migrate.h"
#include "../kernel/sched/sched.h"

enum { RTM_WAITING, RTM_RUNNING, RTM_DONE };

static int rtm_tasks;		/* 0: online CPUs + 1 */
static int rtm_prio = 2;
static int rtm_run_us = 20000;
static int rtm_interval_us = 100000;
static int rtm_loops = 50;
static int rtm_maxerr_us = 1000;
static bool rtm_test_stall;

core_param_range("rt_migrate.tasks", rtm_tasks, int, 0, 64,
		 "SCHED_FIFO tasks of distinct priorities (0: online CPUs + 1)");
core_param_range("rt_migrate.prio", rtm_prio, int, 1, MAX_RT_PRIO - 2,
		 "priority of the lowest task; the releaser runs above the highest");
core_param_range("rt_migrate.run_us", rtm_run_us, int, 100, 10000000,
		 "how long each task busy-loops per loop (us)");
core_param_range("rt_migrate.interval_us", rtm_interval_us, int, 1000, 100000000,
		 "how long the releaser sleeps per loop (us)");
core_param_range("rt_migrate.loops", rtm_loops, int, 1, 1000000,
		 "loops: every task released once per loop");
core_param_range("rt_migrate.maxerr_us", rtm_maxerr_us, int, 1, 10000000,
		 "how long a higher task may wait while a lower one runs (us)");
core_param("rt_migrate.test_stall", rtm_test_stall, bool,
	   "test only: the lowest task runs with preemption off (must be reported)");

/* Release every task for loop @l (the stalling task 0 releases the rest). */
static void rtm_release(struct rt_migrate_result *r, unsigned int l)
{
	WRITE_ONCE(r->release_ns, ktime_get_ns());
	smp_store_release(&r->gen, l + 1);
	for (int i = r->params.tasks - 1; i >= 0; i--)
		if (r->tasks[i].task != current)
			wake_up_process(r->tasks[i].task);
}

static void rtm_wait_gen(unsigned int *gen, unsigned int l)
{
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (smp_load_acquire(gen) > l)
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
}

/* Does @cpu, which @k may use, run something of lower priority than @k? */
static bool rtm_cpu_lower(int cpu, struct task_struct *k, struct task_struct **ran)
{
	struct rq *rq = cpu_rq(cpu);
	struct task_struct *curr = READ_ONCE(rq->curr);

	if (!cpumask_test_cpu(cpu, k->cpus_ptr))
		return false;
	if (curr != rq->idle && READ_ONCE(curr->prio) <= READ_ONCE(k->prio))
		return false;
	*ran = curr;
	return true;
}

/*
 * A CPU @k may run on where something of lower priority than @k runs
 * now (the observer's own first), or -1.  rq->curr is read without the
 * run queue lock: a hint, which is why only a sighting that lasts longer
 * than maxerr counts.
 */
static int rtm_lower_cpu(struct task_struct *k, struct task_struct **ran)
{
	int self = raw_smp_processor_id(), cpu;

	if (rtm_cpu_lower(self, k, ran))
		return self;
	for_each_online_cpu(cpu)
		if (cpu != self && rtm_cpu_lower(cpu, k, ran))
			return cpu;
	return -1;
}

static void rtm_sighting_start(struct rtm_task *t, unsigned int k, u64 now, int cpu,
			       int low)
{
	t->since[k] = now;
	t->since_cpu[k] = cpu;
	t->since_irqs[k] = kstat_cpu_irqs_sum(cpu);
	t->since_low_cpu[k] = low;
	t->since_low_irqs[k] = kstat_cpu_irqs_sum(low);
	t->aside[k] = false;
}

/* A sighting ends: one that only the host kept from counting is set aside. */
static void rtm_sighting_end(struct rtm_task *t, unsigned int k)
{
	if (t->since[k] && t->aside[k])
		t->stalled++;
	t->since[k] = 0;
	t->aside[k] = false;
}

/*
 * Have both CPUs of task @k's sighting run for the allowance?  Each has
 * to have taken maxerr's worth of ticks (interrupts) since it began: a
 * vCPU the host did not run took none, and a kernel that leaves the task
 * waiting while both run is what the check is after.
 */
static bool rtm_cpus_ran(const struct rt_migrate_result *r, const struct rtm_task *t,
			 unsigned int k)
{
	unsigned long need = r->params.maxerr_ns / TICK_NSEC;

	return kstat_cpu_irqs_sum(t->since_cpu[k]) - t->since_irqs[k] >= need &&
	       kstat_cpu_irqs_sum(t->since_low_cpu[k]) - t->since_low_irqs[k] >= need;
}

/*
 * One look, from task @t at time @now, at every other task of the set.
 * Runs in the busy loop: no printk, no allocation.
 */
static void rtm_check(struct rt_migrate_result *r, struct rtm_task *t, unsigned int l, u64 now)
{
	for (unsigned int k = 0; k < r->params.tasks; k++) {
		struct rtm_task *h = &r->tasks[k];
		struct task_struct *p = h->task, *ran = NULL;
		struct rtm_violation *v;
		int cpu = -1, *claim;

		if (k != (unsigned int)t->id && READ_ONCE(h->phase) != RTM_DONE &&
		    READ_ONCE(p->__state) == TASK_RUNNING && !READ_ONCE(p->on_cpu))
			cpu = rtm_lower_cpu(p, &ran);
		if (cpu < 0) {
			rtm_sighting_end(t, k);
			continue;
		}
		if (!t->since[k] || t->since_cpu[k] != task_cpu(p) || t->since_low_cpu[k] != cpu) {
			rtm_sighting_end(t, k);
			rtm_sighting_start(t, k, now, task_cpu(p), cpu);
			continue;
		}
		if (now - t->since[k] <= r->params.maxerr_ns)
			continue;
		if (t->vidx[k] == -1 && !rtm_cpus_ran(r, t, k)) {
			t->aside[k] = true;	/* not the kernel's yet */
			continue;
		}
		t->aside[k] = false;
		t->waited[k] = max(t->waited[k], now - t->since[k]);
		if (t->vidx[k] >= 0) {
			t->violations[t->vidx[k]].waited_ns = t->waited[k];
			continue;
		}
		/* Past the allowance: reported once per loop and task, by whoever saw it first. */
		claim = &r->claimed[l * r->params.tasks + k];
		if (t->vidx[k] == -2 || __atomic_exchange_n(claim, 1, __ATOMIC_RELAXED)) {
			t->vidx[k] = -2;	/* someone else's */
			continue;
		}
		WRITE_ONCE(r->loop_violated[l], true);
		if (t->nr_violations++ >= RTM_MAX_VIOLATIONS) {
			t->vidx[k] = -2;	/* counted, not kept */
			continue;
		}
		t->vidx[k] = t->nr_violations - 1;
		v = &t->violations[t->vidx[k]];
		v->loop = l;
		v->high = k;
		v->cpu = cpu;
		v->low = -1;
		for (unsigned int i = 0; i < r->params.tasks; i++)
			if (r->tasks[i].task == ran)
				v->low = i;
		v->ran_prio = ran == cpu_rq(cpu)->idle ? MAX_PRIO : READ_ONCE(ran->prio);
		memcpy(v->ran_comm, ran->comm, sizeof(v->ran_comm));
		v->ran_comm[sizeof(v->ran_comm) - 1] = '\0';
		v->seen_by = t->id;
		v->waited_ns = t->waited[k];
	}
}

static int rtm_task_fn(void *data)
{
	struct rtm_task *t = data;
	struct rt_migrate_result *r = t->res;
	const struct rt_migrate_params *p = &r->params;
	bool top = t->id == (int)p->tasks - 1, staller = p->stall && !t->id;
	int cpu = cpumask_first(cpu_online_mask);
	/*
	 * Read once: after its last decrement of remaining the releaser may
	 * free @r (and with it @p) before this task looks at the bound again.
	 */
	const unsigned int loops = p->loops;

	for (unsigned int l = 0; l < loops; l++) {
		u64 start, now, last, n = 0;
		unsigned long csw;
		struct task_struct *waiter;

		if (top) {
			/* rt-migrate-test: the highest task goes round the CPUs. */
			set_cpus_allowed_ptr(current, cpumask_of(cpu));
			cpu = cpumask_next(cpu, cpu_online_mask);
			if (cpu >= NR_CPUS)
				cpu = cpumask_first(cpu_online_mask);
		}
		rtm_wait_gen(staller ? &r->lead_gen : &r->gen, l);
		if (staller) {
			preempt_disable();
			rtm_release(r, l);
		}
		start = last = ktime_get_ns();
		t->start_ns[l] = start - READ_ONCE(r->release_ns);
		WRITE_ONCE(t->phase, RTM_RUNNING);
		for (unsigned int k = 0; k < p->tasks; k++) {
			t->since[k] = t->waited[k] = 0;
			t->aside[k] = false;
			t->vidx[k] = -1;
		}
		csw = current->nvcsw + current->nivcsw;
		do {
			now = ktime_get_ns();
			/*
			 * Only what was seen without a break counts: after a
			 * switch, or an interruption as long as the allowance
			 * itself, start looking again.
			 */
			if (now - last > p->maxerr_ns ||
			    csw != current->nvcsw + current->nivcsw) {
				for (unsigned int k = 0; k < p->tasks; k++)
					rtm_sighting_end(t, k);
				csw = current->nvcsw + current->nivcsw;
			}
			rtm_check(r, t, l, now);
			last = now;
			n++;
			if (!staller)
				cond_resched();
		} while (now - start < p->run_ns);
		for (unsigned int k = 0; k < p->tasks; k++)
			rtm_sighting_end(t, k);
		t->len_ns[l] = now - READ_ONCE(r->release_ns);
		t->iterations[l] = n;
		smp_store_release(&t->phase, RTM_DONE);
		if (staller)
			preempt_enable();
		waiter = r->waiter;
		if (atomic_dec_and_test(&r->remaining))
			wake_up_process(waiter);
	}
	return 0;
}

void rt_migrate_free(struct rt_migrate_result *r)
{
	if (!r)
		return;
	for (unsigned int i = 0; r->tasks && i < r->params.tasks; i++) {
		struct rtm_task *t = &r->tasks[i];

		vfree(t->start_ns);
		vfree(t->len_ns);
		vfree(t->iterations);
		vfree(t->since);
		vfree(t->waited);
		vfree(t->vidx);
		vfree(t->since_cpu);
		vfree(t->since_irqs);
		vfree(t->since_low_cpu);
		vfree(t->since_low_irqs);
		vfree(t->aside);
	}
	vfree(r->claimed);
	vfree(r->tasks);
	vfree(r->loop_violated);
	vfree(r);
}

static struct rt_migrate_result *rtm_alloc(const struct rt_migrate_params *p)
{
	struct rt_migrate_result *r = vzalloc(sizeof(*r));
	size_t per_loop = sizeof(u64) * p->loops;

	if (!r)
		return NULL;
	r->params = *p;
	r->tasks = vzalloc(sizeof(*r->tasks) * p->tasks);
	r->loop_violated = vzalloc(sizeof(bool) * p->loops);
	r->claimed = vzalloc(sizeof(int) * p->loops * p->tasks);
	if (!r->tasks || !r->loop_violated || !r->claimed)
		goto fail;
	for (unsigned int i = 0; i < p->tasks; i++) {
		struct rtm_task *t = &r->tasks[i];

		t->id = i;
		t->prio = p->prio + i;
		t->res = r;
		t->min_ns = ~0ULL;
		t->start_ns = vzalloc(per_loop);
		t->len_ns = vzalloc(per_loop);
		t->iterations = vzalloc(per_loop);
		t->since = vzalloc(sizeof(u64) * p->tasks);
		t->waited = vzalloc(sizeof(u64) * p->tasks);
		t->vidx = vzalloc(sizeof(int) * p->tasks);
		t->since_cpu = vzalloc(sizeof(int) * p->tasks);
		t->since_irqs = vzalloc(sizeof(unsigned long) * p->tasks);
		t->since_low_cpu = vzalloc(sizeof(int) * p->tasks);
		t->since_low_irqs = vzalloc(sizeof(unsigned long) * p->tasks);
		t->aside = vzalloc(sizeof(bool) * p->tasks);
		if (!t->start_ns || !t->len_ns || !t->iterations || !t->since || !t->waited ||
		    !t->vidx || !t->since_cpu || !t->since_irqs || !t->since_low_cpu ||
		    !t->since_low_irqs || !t->aside)
			goto fail;
	}
	return r;
fail:
	rt_migrate_free(r);
	return NULL;
}

static void rtm_wait_remaining(struct rt_migrate_result *r)
{
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (!atomic_read(&r->remaining))
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
}

/*
 * Run the tasks with @p (prio + tasks <= 99: the calling thread becomes
 * the releaser at that priority, and SCHED_NORMAL again at the end).
 */
struct rt_migrate_result *rt_migrate_measure(const struct rt_migrate_params *p)
{
	struct rt_migrate_result *r = rtm_alloc(p);
	unsigned int started = 0;

	if (!r)
		return NULL;
	r->waiter = current;
	for (unsigned int i = 0; i < p->tasks; i++) {
		struct rtm_task *t = &r->tasks[i];

		t->task = ktest_kthread(rtm_task_fn, t, "rt_migrate", -1, SCHED_FIFO, t->prio);
		if (!t->task)
			break;
		t->pid = t->task->pid;
		started++;
	}
	if (started < p->tasks) {
		/* Created but never woken: they never run. */
		r->failed = true;
		return r;
	}
	ktest_set_fifo(p->prio + p->tasks);
	/* Let each task run up to its first wait. */
	for (unsigned int i = 0; i < p->tasks; i++)
		wake_up_process(r->tasks[i].task);
	msleep(10);
	for (unsigned int l = 0; l < p->loops; l++) {
		for (unsigned int i = 0; i < p->tasks; i++)
			WRITE_ONCE(r->tasks[i].phase, RTM_WAITING);
		atomic_set(&r->remaining, p->tasks);
		if (p->stall) {
			smp_store_release(&r->lead_gen, l + 1);
			wake_up_process(r->tasks[0].task);
		} else {
			rtm_release(r, l);
		}
		usleep_range(p->interval_ns / NSEC_PER_USEC, p->interval_ns / NSEC_PER_USEC);
		rtm_wait_remaining(r);
	}
	ktest_set_fifo(0);

	for (unsigned int i = 0; i < p->tasks; i++) {
		struct rtm_task *t = &r->tasks[i];

		for (unsigned int l = 0; l < p->loops; l++) {
			t->min_ns = min(t->min_ns, t->start_ns[l]);
			t->max_ns = max(t->max_ns, t->start_ns[l]);
			t->sum_ns += t->start_ns[l];
		}
		r->violations += t->nr_violations;
		r->stalled += t->stalled;
		for (unsigned int v = 0; v < min(t->nr_violations, RTM_MAX_VIOLATIONS); v++)
			r->worst_wait_ns = max(r->worst_wait_ns, t->violations[v].waited_ns);
	}
	for (unsigned int l = 0; l < p->loops; l++)
		r->violation_loops += r->loop_violated[l];
	return r;
}

/* --- reporting ------------------------------------------------------- */

static unsigned long long us(u64 ns)
{
	return ns / NSEC_PER_USEC;
}

void rt_migrate_report(const struct rt_migrate_result *r)
{
	const struct rt_migrate_params *p = &r->params;
	const char *clock = ktest_clock_mode();
	long bad = 0;		/* negative once a record_emitf() failed */

	for (unsigned int i = 0; i < p->tasks; i++) {
		const struct rtm_task *t = &r->tasks[i];
		u64 len = 0;

		for (unsigned int l = 0; l < p->loops; l++)
			len = max(len, t->len_ns[l]);
		pr_info(" Task %u (prio %d) (pid %d):\n", i, t->prio, t->pid);
		pr_info("   Max: %llu us\n", us(t->max_ns));
		pr_info("   Min: %llu us\n", us(t->min_ns));
		pr_info("   Tot: %llu us\n", us(t->sum_ns));
		pr_info("   Avg: %llu us\n", us(t->sum_ns / p->loops));
		bad |= record_emitf("{\"type\":\"rt_migrate\",\"task\":%u,\"prio\":%d,"
				    "\"loops\":%u,\"start_ns\":[%llu,%llu,%llu],"
				    "\"len_max_ns\":%llu,\"violations\":%u,\"clock\":\"%s\"}",
				    i, t->prio, p->loops,
				    (unsigned long long)t->min_ns,
				    (unsigned long long)(t->sum_ns / p->loops),
				    (unsigned long long)t->max_ns, (unsigned long long)len,
				    t->nr_violations, clock);
	}
	for (unsigned int i = 0; i < p->tasks; i++) {
		const struct rtm_task *t = &r->tasks[i];

		for (unsigned int v = 0; v < min(t->nr_violations, RTM_MAX_VIOLATIONS); v++) {
			const struct rtm_violation *x = &t->violations[v];

			char ran[48];

			if (x->low >= 0)
				sniprintf(ran, sizeof(ran), "task %d (prio %d)", x->low,
					  r->tasks[x->low].prio);
			else if (x->ran_prio >= MAX_PRIO)
				sniprintf(ran, sizeof(ran), "the idle task");
			else if (x->ran_prio >= MAX_RT_PRIO)
				sniprintf(ran, sizeof(ran), "%s (SCHED_NORMAL)", x->ran_comm);
			else
				sniprintf(ran, sizeof(ran), "%s (prio %d)", x->ran_comm,
					  MAX_RT_PRIO - 1 - x->ran_prio);
			pr_info("rt_migrate: loop %u: task %d (prio %d) waited %llu us while "
				"CPU %d ran %s (seen by task %d)\n", x->loop, x->high,
				r->tasks[x->high].prio, us(x->waited_ns), x->cpu, ran, x->seen_by);
		}
		if (t->nr_violations > RTM_MAX_VIOLATIONS)
			pr_info("rt_migrate: task %u: %u more violation(s) not kept\n", i,
				t->nr_violations - RTM_MAX_VIOLATIONS);
	}
	pr_info("rt_migrate: %u violation(s) in %u of %u loops, longest wait %llu us "
		"(maxerr %llu us, %s)\n", r->violations, r->violation_loops, p->loops,
		us(r->worst_wait_ns), us(p->maxerr_ns), clock);
	pr_info("rt_migrate: %u sighting(s) set aside: past maxerr, but the CPUs that could "
		"have ended them had not run for maxerr's worth of ticks (vCPUs not running)\n",
		r->stalled);
	pr_info(" %s\n", r->violations ? "Failed!" : "Passed!");
	bad |= record_emitf("{\"type\":\"rt_migrate_summary\",\"tasks\":%u,\"loops\":%u,"
			    "\"violations\":%u,\"violation_loops\":%u,\"worst_wait_ns\":%llu,"
			    "\"maxerr_ns\":%llu,\"stalled\":%u,\"clock\":\"%s\"}", p->tasks,
			    p->loops, r->violations, r->violation_loops,
			    (unsigned long long)r->worst_wait_ns,
			    (unsigned long long)p->maxerr_ns, r->stalled, clock);
	if (bad < 0)
		pr_warn("rt_migrate: a record did not fit\n");
}

/* The run=rt_migrate workload. */
int rt_migrate_run(void)
{
	struct rt_migrate_params p = {
		.tasks = rtm_tasks ? rtm_tasks : num_online_cpus() + 1,
		.prio = rtm_prio,
		.loops = rtm_loops,
		.run_ns = (u64)rtm_run_us * NSEC_PER_USEC,
		.interval_ns = (u64)rtm_interval_us * NSEC_PER_USEC,
		.maxerr_ns = (u64)rtm_maxerr_us * NSEC_PER_USEC,
		.stall = rtm_test_stall,
	};
	struct rt_migrate_result *r;
	int failed;

	if (p.prio + (int)p.tasks > MAX_RT_PRIO - 1) {
		pr_err("rt_migrate: rt_migrate.prio=%d with %u tasks needs priorities up to %d "
		       "(the releaser runs at prio + tasks); valid: prio + tasks <= %d\n",
		       p.prio, p.tasks, p.prio + p.tasks, MAX_RT_PRIO - 1);
		return 1;
	}
	pr_info("rt_migrate: %u tasks, SCHED_FIFO %d..%d, %u loops, run %d us every %d us, "
		"maxerr %d us%s, clock %s\n", p.tasks, p.prio, p.prio + p.tasks - 1, p.loops,
		rtm_run_us, rtm_interval_us, rtm_maxerr_us,
		p.stall ? ", test_stall (task 0 not preemptible)" : "", ktest_clock_mode());
	console_flush();
	r = rt_migrate_measure(&p);
	if (!r) {
		pr_err("rt_migrate: no memory for %u tasks x %u loops\n", p.tasks, p.loops);
		return 1;
	}
	if (r->failed) {
		pr_err("rt_migrate: cannot start the tasks\n");
		failed = 1;
	} else {
		rt_migrate_report(r);
		failed = r->violations ? 1 : 0;
	}
	rt_migrate_free(r);
	return failed;
}
