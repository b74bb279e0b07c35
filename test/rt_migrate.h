/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TEST_RT_MIGRATE_H
#define _TEST_RT_MIGRATE_H

/*
 * The engine of run=rt_migrate (test/rt_migrate.c), shared with its
 * ktest suite.
 */
#include <linux/types.h>
#include <linux/atomic.h>

struct rt_migrate_params {
	unsigned int tasks;		/* task i runs at SCHED_FIFO prio + i */
	int prio;
	unsigned int loops;
	u64 run_ns;			/* each task busy-loops this long per loop */
	u64 interval_ns;		/* the releaser sleeps this long per loop */
	u64 maxerr_ns;			/* a higher task may wait this long, no more */
	/*
	 * Tests: task 0 (the lowest) is released first, disables preemption
	 * and releases the others itself, so a higher task waits behind it
	 * on its CPU: what a scheduler that failed to preempt would do.
	 */
	bool stall;
};

/*
 * A task of the set seen waiting (runnable, not running) for longer than
 * maxerr while a CPU it may run on ran something of lower priority: a
 * lower task of the set, another thread, or the idle task.
 */
struct rtm_violation {
	unsigned int loop;
	int high;			/* the task that waited */
	int cpu;			/* the CPU it could have had */
	int low;			/* the set's task that ran there, or -1 */
	int ran_prio;			/* what ran there: kernel prio (idle: MAX_PRIO) */
	char ran_comm[16];
	int seen_by;			/* the task that saw it */
	u64 waited_ns;			/* the longest it was seen waiting */
};

#define RTM_MAX_VIOLATIONS	8	/* kept per task; all are counted */

struct rtm_task {
	int id, prio, pid;
	u64 *start_ns;			/* per loop: release -> running */
	u64 *len_ns;			/* per loop: release -> done */
	u64 *iterations;		/* per loop: busy-loop iterations */
	u64 min_ns, max_ns, sum_ns;	/* of start_ns */
	unsigned int nr_violations;	/* seen by this task, all counted */
	struct rtm_violation violations[RTM_MAX_VIOLATIONS];
	/* private to the measurement */
	struct rt_migrate_result *res;
	struct task_struct *task;
	int phase;
	u64 *since;			/* per task: seen waiting since */
	u64 *waited;			/* per task: longest wait seen, this loop */
	int *vidx;			/* per task: its violation this loop, or -1 */
	int *since_cpu;			/* per task: the CPU it was queued on */
	unsigned long *since_irqs;	/* per task: that CPU's interrupts then */
	int *since_low_cpu;		/* per task: the CPU running a lower task */
	unsigned long *since_low_irqs;	/* per task: that CPU's interrupts then */
	bool *aside;			/* per task: past maxerr, its CPUs had not run */
	unsigned int stalled;		/* sightings set aside: their CPUs did not run */
};

struct rt_migrate_result {
	struct rt_migrate_params params;
	struct rtm_task *tasks;
	unsigned int violations;	/* (loop, waiting task) pairs */
	unsigned int violation_loops;	/* loops with at least one */
	unsigned int stalled;		/* sightings dropped, all tasks */
	u64 worst_wait_ns;
	bool failed;			/* a task could not be started */
	/* private to the measurement */
	struct task_struct *waiter;
	bool *loop_violated;
	int *claimed;			/* [loop * tasks + task]: reported once */
	unsigned int gen, lead_gen;
	u64 release_ns;
	atomic_t remaining;
};

struct rt_migrate_result *rt_migrate_measure(const struct rt_migrate_params *p);
void rt_migrate_report(const struct rt_migrate_result *r);
void rt_migrate_free(struct rt_migrate_result *r);

#endif
