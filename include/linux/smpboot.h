/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SMPBOOT_H
#define _LINUX_SMPBOOT_H

#include <linux/list.h>

struct task_struct;

/*
 * A family of per-CPU kthreads (ksoftirqd/N, rcuc/N) that the hotplug core
 * parks when a CPU goes down and unparks when it returns
 * (CPUHP_AP_SMPBOOT_THREADS).  In irqlab the owner creates and runs its
 * threads; @store is the per-CPU variable holding each CPU's thread, and
 * the thread's loop parks itself (kthread_should_park()/kthread_parkme()).
 */
struct smp_hotplug_thread {
	struct task_struct **store;	/* per-CPU: &per_cpu_var */
	struct list_head list;
	const char *thread_comm;
};

int smpboot_register_percpu_thread(struct smp_hotplug_thread *plug_thread);
int smpboot_park_threads(unsigned int cpu);
int smpboot_unpark_threads(unsigned int cpu);

#endif
