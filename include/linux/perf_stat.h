/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_PERF_STAT_H
#define _LINUX_PERF_STAT_H

/*
 * A `perf stat -a`-shaped summary of each workload run (kernel/events/
 * perf_stat.c): the scheduler counts, per CPU and for every task but the
 * idle ones, context switches (split as nvcsw/nivcsw are), migrations
 * (set_task_cpu() to another CPU) and the time tasks ran (task-clock);
 * perf_stat_begin()/perf_stat_end() read them around one run, and
 * perf_stat_print() prints the runs' means with +- over repeats.
 */
#include <linux/types.h>

/* Scheduler hooks, rq lock held and interrupts off. */
void perf_stat_sched_switch(bool prev_idle, bool voluntary);
void perf_stat_migration(void);

/* One run's counts (deltas); sums over all CPUs. */
struct perf_stat_counts {
	u64 switches;			/* all of them, also away from the idle task */
	u64 nvcsw, nivcsw;		/* away from a task that slept / was preempted */
	u64 migrations;
	u64 task_clock_ns;		/* time non-idle tasks ran */
	u64 elapsed_ns;
	u64 instructions, cycles;	/* the PMU's fixed counters */
	bool pmu;			/* instructions and cycles are real */
};

/* The counts since boot; @c->elapsed_ns is ktime_get_ns(). Process context. */
void perf_stat_read(struct perf_stat_counts *c);
/* Tests: the migrations counted on @cpu since boot (set_task_cpu() ran there). */
u64 perf_stat_cpu_migrations(int cpu);
/* After pmu_workload_end(): that report's all-CPU total into @d. */
void perf_stat_take_pmu(struct perf_stat_counts *d);
void perf_stat_delta(const struct perf_stat_counts *begin, const struct perf_stat_counts *end,
		     struct perf_stat_counts *d);

/* Sums over repeats for the means and +-. */
/* task-clock, nvcsw, nivcsw, migrations, elapsed, insns, cycles, switches */
#define PERF_STAT_NR	8
struct perf_stat_runs {
	unsigned int n;
	u64 sum[PERF_STAT_NR];
	unsigned __int128 sumsq[PERF_STAT_NR];
	bool pmu;			/* every run had the PMU */
};
void perf_stat_runs_add(struct perf_stat_runs *r, const struct perf_stat_counts *d);
/*
 * Print the summary in perf stat's layout and one "perf_stat" record.
 * @icount: no PMU but 1 ns = 1 instruction, so task-clock is instructions.
 */
void perf_stat_print(const char *what, const struct perf_stat_runs *r, bool icount);
/* 100 * the standard error of the mean over its mean, x100 (for "+-  0.97%"). */
u64 perf_stat_rel_err_x100(const struct perf_stat_runs *r, unsigned int i);

/*
 * CONFIG_LOCK_STAT: lock_stat's wait-time totals per class around each run
 * (outside the elapsed time), for "blocked on <class>" lines and
 * perf_stat_lock records in the next perf_stat_print().
 */
void perf_stat_locks_begin(void);
void perf_stat_locks_end(void);
/* Tests: what the runs so far add up to for lock_stat class @idx (ns waited). */
void perf_stat_lock_blocked(unsigned int idx, u64 *ns, unsigned long *con);

/* perf.repeat= (1..100): how often run= runs each workload. */
extern int perf_repeat;

#endif
