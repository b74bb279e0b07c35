/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TEST_OSNOISE_H
#define _TEST_OSNOISE_H

/*
 * The engine of run=osnoise (test/osnoise.c), shared with its ktest suite.
 */
#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/hrtimer.h>

struct osnoise_params {
	struct cpumask cpus;		/* one spinner per CPU */
	u64 period_ns, runtime_ns;	/* spin runtime out of every period */
	u64 threshold_ns;		/* a gap this long or longer is noise */
	unsigned int periods;
	bool fifo;			/* SCHED_FIFO prio, else SCHED_NORMAL */
	int prio;
	/* tests: a hard-IRQ hrtimer half-way through each runtime spins this long */
	u64 inject_irq_ns;
};

struct osnoise_cpu {
	int cpu;
	int pid;
	bool failed;			/* its spinner could not be started */
	u64 runtime_ns;			/* spun, over all periods */
	u64 noise_ns;			/* sum of the gaps above the threshold */
	u64 max_noise_ns;		/* largest noise of one period */
	u64 max_single_ns;		/* largest single gap */
	u64 samples;			/* gaps above the threshold */
	/* interference during the runtimes (rtla osnoise's columns) */
	u64 hw;				/* gaps with no event (IRQ, NMI, switch) */
	u64 nmi, irq, softirq, thread;
	u64 injected;			/* test stalls that fired */
	/* private to the measurement */
	struct osnoise_result *res;
	struct hrtimer timer;
};

struct osnoise_result {
	struct osnoise_params params;
	unsigned int nr_cpus;
	struct osnoise_cpu *cpus;
	struct task_struct *waiter;
	atomic_t running;
};

struct osnoise_result *osnoise_measure(const struct osnoise_params *p);
void osnoise_report(const struct osnoise_result *r);
void osnoise_free(struct osnoise_result *r);
/* Available CPU in parts per 10^7 (99.99999% = 9999999). */
u64 osnoise_avail(const struct osnoise_cpu *c);

#endif
