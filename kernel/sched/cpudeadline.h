/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KERNEL_SCHED_CPUDEADLINE_H
#define _KERNEL_SCHED_CPUDEADLINE_H

#include <linux/types.h>
#include <linux/cpumask.h>
#include <linux/spinlock.h>

#define IDX_INVALID	-1

/*
 * One slot per CPU, used two ways at once: elements[i].dl and .cpu are
 * heap slot i, elements[cpu].idx is where @cpu sits in the heap.
 */
struct cpudl_item {
	u64 dl;
	int cpu;
	int idx;
};

/*
 * Where the deadline tasks of a root domain stand (Linux's cpudl): a
 * max-heap of the earliest deadline of every CPU that runs deadline
 * work, so the CPU whose most urgent deadline is the latest is at the
 * root, and the CPUs with no deadline work at all.
 */
struct cpudl {
	raw_spinlock_t lock;
	int size;
	struct cpumask free_cpus;
	struct cpudl_item elements[NR_CPUS];
};

struct task_struct;

void cpudl_init(struct cpudl *cp);
int cpudl_find(struct cpudl *cp, struct task_struct *p, struct cpumask *later_mask);
void cpudl_set(struct cpudl *cp, int cpu, u64 dl);
void cpudl_clear(struct cpudl *cp, int cpu);
void cpudl_set_freecpu(struct cpudl *cp, int cpu);
void cpudl_clear_freecpu(struct cpudl *cp, int cpu);
int cpudl_maximum(struct cpudl *cp);

#endif /* _KERNEL_SCHED_CPUDEADLINE_H */
