/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TEST_CYCLIC_H
#define _TEST_CYCLIC_H

/*
 * The measurement core of run=cyclic (test/cyclic.c), shared with its
 * ktest suite (test/cyclic_test.c).
 */
#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/hrtimer.h>
#include <linux/sched.h>
#include "heartbeat.h"

struct cyclic_params {
	struct cpumask cpus;		/* one measuring thread per CPU */
	unsigned int interval_us;	/* SCHED_DEADLINE: the period */
	int prio;			/* SCHED_FIFO priority, 1..99 */
	unsigned int loops;		/* wakeups per thread */
	unsigned int hist_us;		/* histogram buckets of 1 us */
	/*
	 * SCHED_FIFO (0 means that too): cyclic, an hrtimer per thread.
	 * SCHED_DEADLINE: cyclicdl (test/cyclicdl.c), runtime and deadline
	 * with interval_us as the period, and no IRQ level.
	 */
	int policy;
	u64 runtime_ns, deadline_ns;
	/*
	 * cyclictest -b: a thread latency above this (0: no limit) stops
	 * every thread and tracing; the run fails.
	 */
	u64 threshold_ns;
};

/* One latency level of one thread; all times in ns. */
struct cyclic_stats {
	u64 count;
	u64 min_ns, max_ns, act_ns, sum_ns;
	u64 overflows;			/* samples of hist_us or more */
	u32 *hist;			/* hist_us buckets: hist[us]++ */
};

struct cyclic_thread {
	int cpu;
	int pid;
	struct cyclic_stats thread;	/* expiry -> thread running */
	struct cyclic_stats irq;	/* expiry -> timer handler entry */
	u64 missed;			/* periods skipped: already past (cyclicdl:
					   period starts the thread never saw) */
	u64 *thread_samples;		/* NULL, or loops thread latencies */
	bool broke;			/* crossed threshold_ns and stopped */
	bool failed;			/* no thread could be started */
	int err;			/* and why: the scheduler's -errno */
	/* private to the measurement */
	struct cyclic_result *res;
	struct task_struct *task;
	struct hrtimer timer;
	u64 irq_entry_ns;
	bool fired;
	struct heartbeat hb;		/* T:0 only: progress between samples */
};

struct cyclic_result {
	struct cyclic_params params;
	unsigned int nr_threads;
	struct cyclic_thread *threads;
	struct task_struct *waiter;
	atomic_t running;
	/* threshold_ns crossed: the first thread that crossed it, and by what */
	struct cyclic_thread *break_thread;
	u64 break_ns;
	bool stop;			/* every thread ends its loop */
};

/*
 * Measure with @p; returns a result to print and free, or NULL (out of
 * memory).  @keep_samples: also store every thread-level sample.
 */
struct cyclic_result *cyclic_measure(const struct cyclic_params *p, bool keep_samples);
void cyclic_print(const struct cyclic_result *r);
int cyclic_emit_records(const struct cyclic_result *r);
int cyclic_format_record(char *json, size_t size, const struct cyclic_result *r,
			 unsigned int i, const char *clock);
void cyclic_free(struct cyclic_result *r);
u64 cyclic_avg_ns(const struct cyclic_stats *s);
struct ktest;
bool cyclic_stats_same(struct ktest *t, const char *what, const struct cyclic_stats *a,
		       const struct cyclic_stats *b, unsigned int hist_us);
u64 cyclic_missed_total(const struct cyclic_result *r);
/* Missed-period lines and the run summary's worst latency and missed. */
void cyclic_report_summary(const struct cyclic_result *r, const char *what);
/* Console figures in ns (icount, cyclictest -N) rather than us? */
bool cyclic_units_ns(void);
int cyclic_format_tline(char *buf, size_t size, const struct cyclic_result *r,
			unsigned int i, bool irq, bool in_ns);

/* Shared with test/cyclicdl.c. */
void cyclic_account(struct cyclic_stats *s, u64 ns, unsigned int hist_us);
void cyclic_break(struct cyclic_thread *ct, u64 ns);
void cyclic_heartbeat_start(struct cyclic_thread *ct, const char *what);
/* The breach report (cyclictest -b's lines); returns 1 if there was one. */
int cyclic_report_break(const struct cyclic_result *r, const char *what,
			const char *param);
int cyclicdl_thread_fn(void *data);
void cyclic_thread_done(struct cyclic_thread *ct);

static inline bool cyclic_is_dl(const struct cyclic_params *p)
{
	return p->policy == SCHED_DEADLINE;
}

#endif
