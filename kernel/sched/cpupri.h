/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KERNEL_SCHED_CPUPRI_H
#define _KERNEL_SCHED_CPUPRI_H

#include <linux/atomic.h>
#include <linux/cpumask.h>

/*
 * Where the RT priorities of a root domain stand (Linux's cpupri): one
 * CPU mask per level, the level being the most important RT task queued
 * on the CPU (running counts: RT tasks stay queued while they run).
 *
 *	level  -1	CPUPRI_INVALID: the CPU is not online
 *	level   0	CPUPRI_NORMAL: no RT task queued
 *	level 1-99	the highest queued rt_priority (prio 98 .. 0)
 *
 * Placing an RT task scans the levels below its own from the bottom, so
 * the search is two short loops instead of a walk over every CPU.
 */
#define CPUPRI_NR_PRIORITIES	MAX_RT_PRIO
#define CPUPRI_INVALID		-1
#define CPUPRI_NORMAL		0

struct cpupri_vec {
	atomic_t count;			/* CPUs at this level: a cheap "empty" test */
	struct cpumask mask;
};

struct cpupri {
	struct cpupri_vec pri_to_cpu[CPUPRI_NR_PRIORITIES];
	int cpu_to_pri[NR_CPUS];
};

struct task_struct;
int cpupri_find(struct cpupri *cp, struct task_struct *p, struct cpumask *lowest_mask);
void cpupri_set(struct cpupri *cp, int cpu, int pri);
void cpupri_init(struct cpupri *cp);

#endif
