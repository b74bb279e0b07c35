// SPDX-License-Identifier: GPL-2.0
/*
 * cyclicdl: wakeup latency of SCHED_DEADLINE tasks, after rt-tests'
 * cyclicdeadline.  One deadline thread per selected CPU with the given
 * runtime, deadline and period; each cycle it gives the rest of its
 * budget away with yield() (sched_yield() in cyclicdeadline), which
 * throttles it until its next period, where the deadline class's
 * replenishment timer queues it again.  The latency of a cycle is
 *
 *	thread running - start of its period
 *
 * with the start of the period the one the constant bandwidth server
 * gave this instance (deadline - relative deadline, the instant the
 * replenishment timer was set for): what cyclicdeadline's own
 * next_period estimates from user space.  There is no IRQ level: the
 * timer is the scheduler's.  The first cycle only aligns the thread to a
 * period and is not counted; before it the thread sleeps to half a tick
 * after a tick boundary, so that runs repeat under icount.
 *
 *	run=cyclicdl cyclicdl.cpus=<list> cyclicdl.runtime_us=<us>
 *	    cyclicdl.deadline_us=<us> cyclicdl.period_us=<us>
 *	    cyclicdl.loops=<n> | cyclicdl.duration_ms=<ms> cyclicdl.hist_us=<n>
 *
 * The threads are bound to their CPUs (a departure from Linux, which
 * admits only deadline tasks whose affinity spans their root domain; see
 * kernel/sched/deadline_param.c).  Reports and records are cyclic's
 * (test/cyclic.c) with the thread level only, records of type "cyclicdl"
 * and "cyclicdl_hist".
 */
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/sched.h>
#include <linux/ktime.h>
#include <linux/jiffies.h>
#include <linux/ktest.h>
#include <linux/moduleparam.h>
#include "cyclic.h"
#include "cpulist.h"

static int cdl_runtime_us = 200;
static int cdl_deadline_us;
static int cdl_period_us = 1000;
static int cdl_loops = 1000;
static int cdl_duration_ms;
static int cdl_hist_us = 100;
static int cdl_threshold_us;
core_param_range("cyclicdl.runtime_us", cdl_runtime_us, int, 2, 4194304,
		 "SCHED_DEADLINE runtime of each measuring thread (us)");
core_param_range("cyclicdl.deadline_us", cdl_deadline_us, int, 0, 4194304,
		 "relative deadline (us; 0: the period)");
core_param_range("cyclicdl.period_us", cdl_period_us, int, 100, 4194304,
		 "period (us)");
core_param_range("cyclicdl.loops", cdl_loops, int, 1, 100000000,
		 "periods per thread (unless cyclicdl.duration_ms is set)");
core_param_range("cyclicdl.duration_ms", cdl_duration_ms, int, 0, 3600000,
		 "run for this long instead of cyclicdl.loops (0: use loops)");
core_param_range("cyclicdl.hist_us", cdl_hist_us, int, 1, 100000,
		 "histogram buckets of 1 us; longer latencies count as overflows");
core_param_range("cyclicdl.threshold_us", cdl_threshold_us, int, 0, 100000000,
		 "stop and fail at the first thread latency above this (us; 0: none), "
		 "like cyclictest -b");

static struct cpulist_param cdl_cpus;
core_param_cb("cyclicdl.cpus", &cpulist_param_ops, &cdl_cpus,
	      "CPUs to measure on, e.g. 0,2-3 (default: every online CPU)");

static enum hrtimer_restart cyclicdl_timer_fn(struct hrtimer *timer)
{
	struct cyclic_thread *ct = container_of(timer, struct cyclic_thread, timer);

	smp_store_release(&ct->fired, true);
	wake_up_process(ct->task);
	return HRTIMER_NORESTART;
}

int cyclicdl_thread_fn(void *data)
{
	struct cyclic_thread *ct = data;
	struct cyclic_result *r = ct->res;
	const struct cyclic_params *p = &r->params;
	struct sched_dl_entity *dl_se = &current->dl;
	u64 period = (u64)p->interval_us * NSEC_PER_USEC, first, prev = 0;
	u64 thresh = p->threshold_ns ?: ~0ULL;

	/*
	 * Start the first period half a tick after a tick boundary, as
	 * cyclic does, so two runs meet the tick at the same points of
	 * their periods: sleep past the current instance (the wakeup rule
	 * then starts a fresh one at the wakeup) to that instant.
	 */
	hrtimer_init(&ct->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_PINNED_HARD);
	ct->timer.function = cyclicdl_timer_fn;
	first = DIV_ROUND_UP(ktime_get_ns() + 2 * period, TICK_NSEC) * TICK_NSEC + TICK_NSEC / 2;
	WRITE_ONCE(ct->fired, false);
	hrtimer_start(&ct->timer, (ktime_t)first, HRTIMER_MODE_ABS_PINNED_HARD);
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (smp_load_acquire(&ct->fired))
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	cyclic_heartbeat_start(ct, "cyclicdl");
	yield();	/* to the start of the next period */
	for (unsigned int i = 0; i < p->loops && !READ_ONCE(r->stop); i++) {
		u64 now, start, lat;

		yield();
		now = ktime_get_ns();
		/* Our own entity: it changes only while we are throttled. */
		start = READ_ONCE(dl_se->deadline) - dl_se->dl_deadline;
		lat = max(now, start) - start;
		cyclic_account(&ct->thread, lat, p->hist_us);
		if (ct->thread_samples)
			ct->thread_samples[i] = lat;
		if (unlikely(lat > thresh)) {
			cyclic_break(ct, lat);
			break;
		}
		/*
		 * Each cycle's period starts one period after the last, unless
		 * the thread overran its budget and the server pushed its
		 * deadline on by whole periods: those it never ran in are
		 * missed, as cyclic's skipped expiries.
		 */
		if (i && start - prev >= 2 * period)
			ct->missed += (start - prev) / period - 1;
		prev = start;
		/* Within half the budget: the yield must come before it runs out. */
		heartbeat_poll(&ct->hb, now, start + p->runtime_ns / 2);
	}
	cyclic_thread_done(ct);
	return 0;
}

/*
 * Cross-parameter rules the ranges cannot express, said in the
 * parameters' own names (the scheduler would refuse them too, in its
 * own terms).
 */
static int cyclicdl_check(const struct cyclic_params *p)
{
	u64 period = (u64)p->interval_us * NSEC_PER_USEC;

	if (p->runtime_ns > p->deadline_ns) {
		pr_err("cyclicdl: cyclicdl.runtime_us=%llu exceeds the deadline %llu us "
		       "(SCHED_DEADLINE needs runtime <= deadline <= period)\n",
		       (unsigned long long)(p->runtime_ns / NSEC_PER_USEC),
		       (unsigned long long)(p->deadline_ns / NSEC_PER_USEC));
		return -EINVAL;
	}
	if (p->deadline_ns > period) {
		pr_err("cyclicdl: cyclicdl.deadline_us=%llu exceeds cyclicdl.period_us=%u "
		       "(SCHED_DEADLINE needs runtime <= deadline <= period)\n",
		       (unsigned long long)(p->deadline_ns / NSEC_PER_USEC), p->interval_us);
		return -EINVAL;
	}
	return 0;
}

/* The run=cyclicdl workload. */
int cyclicdl_run(void)
{
	struct cyclic_params p = {
		.interval_us = cdl_period_us,
		.hist_us = cdl_hist_us,
		.policy = SCHED_DEADLINE,
		.runtime_ns = (u64)cdl_runtime_us * NSEC_PER_USEC,
		.deadline_ns = (u64)(cdl_deadline_us ?: cdl_period_us) * NSEC_PER_USEC,
		.threshold_ns = (u64)cdl_threshold_us * NSEC_PER_USEC,
	};
	struct cyclic_result *r;
	int failed = 0;
	char cpus[96];

	if (cdl_duration_ms)
		p.loops = max(1U, (unsigned int)((u64)cdl_duration_ms * 1000 / cdl_period_us));
	else
		p.loops = cdl_loops;
	cpulist_param_mask(&cdl_cpus, &p.cpus);
	if (cpulist_check_online("cyclicdl", &p.cpus))
		return 1;
	if (cyclicdl_check(&p))
		return 1;
	cpulist_format(cpus, sizeof(cpus), &p.cpus);
	pr_info("cyclicdl: %u thread(s) on CPU(s) %s (T:0 on the first), SCHED_DEADLINE "
		"runtime %llu us deadline %llu us period %u us, %u loops, histogram %u us, "
		"clock %s\n", cpumask_weight(&p.cpus), cpus,
		(unsigned long long)(p.runtime_ns / NSEC_PER_USEC),
		(unsigned long long)(p.deadline_ns / NSEC_PER_USEC), p.interval_us, p.loops,
		p.hist_us, ktest_clock_mode());
	if (cdl_threshold_us)
		pr_info("cyclicdl: break threshold %d us (cyclicdl.threshold_us)\n",
			cdl_threshold_us);
	r = cyclic_measure(&p, false);
	if (!r) {
		pr_err("cyclicdl: no memory for %u histograms of %u buckets\n",
		       cpumask_weight(&p.cpus), p.hist_us);
		return 1;
	}
	for (unsigned int i = 0; i < r->nr_threads; i++) {
		struct cyclic_thread *ct = &r->threads[i];

		if (!ct->failed)
			continue;
		failed++;
		if (ct->err == -EBUSY)
			pr_err("cyclicdl: CPU %d: admission control refused the thread (-EBUSY): "
			       "%u thread(s) of runtime %llu us per %u us exceed sched.rt_runtime_us/"
			       "sched.rt_period_us of the online CPUs\n", ct->cpu, r->nr_threads,
			       (unsigned long long)(p.runtime_ns / NSEC_PER_USEC), p.interval_us);
		else
			pr_err("cyclicdl: cannot start the thread on CPU %d (%d)\n", ct->cpu,
			       ct->err);
	}
	cyclic_print(r);
	failed += cyclic_emit_records(r);
	failed += cyclic_report_break(r, "cyclicdl", "cyclicdl.threshold_us");
	cyclic_report_summary(r, "cyclicdl");
	pr_info("cyclicdl: done, %d failure(s)\n", failed);
	cyclic_free(r);
	return failed ? 1 : 0;
}
