/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_STOP_MACHINE_H
#define _LINUX_STOP_MACHINE_H

/*
 * The per-CPU stopper: a thread in the stop class that outranks every
 * other task on its CPU and runs queued work items one after another.
 * A work item's callback runs with preemption disabled and must not sleep.
 */
#include <linux/list.h>
#include <linux/types.h>

typedef int (*cpu_stop_fn_t)(void *arg);

struct cpu_stop_done;

/*
 * One queued request.  stop_one_cpu() keeps it on its own stack and waits;
 * stop_one_cpu_nowait() takes a caller-owned buffer that must stay valid
 * until the callback has started (the stopper reads it only before then).
 */
struct cpu_stop_work {
	struct list_head list;
	cpu_stop_fn_t fn;
	unsigned long caller;
	void *arg;
	struct cpu_stop_done *done;
};

int stop_one_cpu(unsigned int cpu, cpu_stop_fn_t fn, void *arg);
bool stop_one_cpu_nowait(unsigned int cpu, cpu_stop_fn_t fn, void *arg,
			 struct cpu_stop_work *work_buf);
void cpu_stop_init(void);

struct cpumask;
/*
 * Run @fn on @cpus (NULL: one CPU) while every online CPU spins in its
 * stopper with IRQs off.  The _cpuslocked form is for callers that hold
 * the hotplug lock already (cpu_down()'s take-down).
 */
int stop_machine(cpu_stop_fn_t fn, void *data, const struct cpumask *cpus);
int stop_machine_cpuslocked(cpu_stop_fn_t fn, void *data, const struct cpumask *cpus);
void stop_machine_park(int cpu);
void stop_machine_unpark(int cpu);

#endif
