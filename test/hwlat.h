/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TEST_HWLAT_H
#define _TEST_HWLAT_H

/*
 * The engine of run=hwlat (test/hwlat.c), shared with its ktest suite.
 */
#include <linux/types.h>
#include <linux/cpumask.h>

/* The longest interrupts-off width accepted (hwlat.width_us). */
#define HWLAT_MAX_WIDTH_US	500000

struct hwlat_params {
	struct cpumask cpus;		/* windows go round robin over these */
	u64 width_ns;			/* interrupts off, sampling, per window */
	u64 window_ns;			/* width plus the sleep after it */
	u64 threshold_ns;		/* a gap longer than this is a latency */
	unsigned int windows;
	/* tests: a busy stretch of inject_ns in one window, half-way through */
	u64 inject_ns;
	unsigned int inject_window;
	bool inject_outer;		/* between loop iterations, not inside one */
};

/* One window: like a sample of Linux's hwlat tracer, but in ns. */
struct hwlat_sample {
	int cpu;
	u64 inner_ns;		/* largest gap between the two reads of one iteration */
	u64 outer_ns;		/* largest gap from one iteration to the next */
	u64 width_ns;		/* how long interrupts were really off */
	u64 iterations;
	unsigned int count;	/* gaps above the threshold */
	unsigned long nmi_count;	/* NMIs taken during the window */
	bool injected;		/* the test hook's stretch ran and was measured */
};

struct hwlat_result {
	struct hwlat_params params;
	unsigned int nr_samples;	/* windows done */
	struct hwlat_sample *samples;
	unsigned int exceeding;		/* windows with a gap above the threshold */
	u64 max_ns;			/* largest inner or outer gap of those */
	int pid;
	bool failed;			/* the sampling thread could not start */
	/* private to the measurement */
	struct task_struct *waiter;
	bool done;
};

struct hwlat_result *hwlat_measure(const struct hwlat_params *p);
void hwlat_report(const struct hwlat_result *r);
void hwlat_free(struct hwlat_result *r);

#endif
