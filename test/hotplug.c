// SPDX-License-Identifier: GPL-2.0
/*
 * run=hotplug: the CPUs of hotplug.cpus= (default: every online CPU but 0)
 * go offline and come back, hotplug.cycles= times each, while whatever
 * runs beside it (run=hotplug,hackbench) keeps the machine busy.  Prints
 * one record with the counts; any cpu_down()/cpu_up() error, or a CPU
 * not in the state it should be in afterwards, fails the run.
 *
 * After each cpu_down(), SLUB's check: no cache keeps a CPU slab or CPU
 * partial slabs for the CPU that went (slub_cpu_dead() gave them back);
 * a finding fails the run.  The hotplug_subsys suite checks the same
 * object by object and page by page on a quiet machine.
 */
#include <linux/ktest.h>
#include <linux/cpu.h>
#include <linux/moduleparam.h>
#include <linux/record.h>
#include <linux/sched.h>
#include <linux/atomic.h>
#include <linux/errno.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include "cpulist.h"
#include "../mm/slub.h"

extern atomic_long_t sched_hotplug_pushed;

static int hotplug_cycles = 20;
core_param_range("hotplug.cycles", hotplug_cycles, int, 1, 100000,
		 "offline/online cycles per CPU");
static struct cpulist_param hotplug_cpus;
core_param_cb("hotplug.cpus", &cpulist_param_ops, &hotplug_cpus,
	      "CPUs to take down and bring back (default: all online but CPU 0)");

/*
 * While a CPU is down: nothing may stay cached for it.  SLUB's check (no
 * CPU slab, no CPU partial slab on an offline CPU, in every cache) runs
 * after each cpu_down(), with the other workloads still allocating.
 */
static int hotplug_offline_check(void)
{
	return slub_hotplug_check();
}

/*
 * Before each cpu_down(): give the CPU a CPU slab and a CPU partial slab
 * of its own, whatever the loads beside it did there so far, so the check
 * after it has something to find if slub_cpu_dead() left it behind.
 */
#define PRIME_OBJS	64

static void hotplug_prime_fn(struct work_struct *work)
{
	void *p[PRIME_OBJS];

	for (int i = 0; i < PRIME_OBJS; i++)
		p[i] = kmalloc(512, GFP_KERNEL);
	/* Freed in reverse: the older slabs become partial ones on this CPU. */
	for (int i = PRIME_OBJS - 1; i >= 0; i--)
		kfree(p[i]);
}

static void hotplug_prime_cpu(unsigned int cpu)
{
	struct work_struct w;

	INIT_WORK_ONSTACK(&w, hotplug_prime_fn);
	schedule_work_on(cpu, &w);
	flush_work(&w);
}

int hotplug_run(void)
{
	long pushed0 = atomic_long_read(&sched_hotplug_pushed);
	unsigned int cpu, cycles = 0, errors = 0;
	struct cpumask mask;
	char cpus[64];

	if (hotplug_cpus.set) {
		cpulist_param_mask(&hotplug_cpus, &mask);
	} else {
		cpumask_copy(&mask, cpu_online_mask);
		cpumask_clear_cpu(0, &mask);
	}
	if (cpulist_check_online("hotplug", &mask))
		return 1;
	if (cpumask_test_cpu(0, &mask)) {
		pr_err("hotplug: CPU 0 cannot go offline in irqlab; leave it out of hotplug.cpus=\n");
		return 1;
	}
	if (!cpumask_weight(&mask)) {
		pr_err("hotplug: no CPU to take down (needs SMP >= 2)\n");
		return 1;
	}
	cpulist_format(cpus, sizeof(cpus), &mask);
	for (int i = 0; i < hotplug_cycles; i++) {
		for_each_cpu(cpu, &mask) {
			int down, up;

			hotplug_prime_cpu(cpu);
			down = cpu_down(cpu);

			if (!down && (cpu_online(cpu) || cpu_active(cpu)))
				down = -EIO;
			if (!down && hotplug_offline_check()) {
				pr_err("hotplug: cycle %d CPU %u: caches kept for the offline CPU\n",
				       i, cpu);
				errors++;
			}
			up = cpu_up(cpu);
			if (!up && (!cpu_online(cpu) || !cpu_active(cpu)))
				up = -EIO;
			if (down || up) {
				pr_err("hotplug: cycle %d CPU %u: cpu_down %d, cpu_up %d\n", i, cpu,
				       down, up);
				errors++;
			}
			cycles++;
		}
	}
	pr_info("hotplug: %u cycle(s) on CPUs %s, %ld task(s) pushed off dying CPUs, %u error(s)\n",
		cycles, cpus, atomic_long_read(&sched_hotplug_pushed) - pushed0, errors);
	record_emitf("{\"type\":\"hotplug\",\"cpus\":\"%s\",\"cycles\":%u,\"pushed\":%ld,"
		     "\"errors\":%u}", cpus, cycles,
		     atomic_long_read(&sched_hotplug_pushed) - pushed0, errors);
	return errors ? 1 : 0;
}
