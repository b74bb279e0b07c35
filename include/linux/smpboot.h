/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SMPBOOT_H
#define _LINUX_SMPBOOT_H

#include <linux/list.h>

struct task_struct;

/*
 * A family of per-CPU kthreads (cpuhp/N, migration/N, ksoftirqd/N,
 * rcuc/N).  As in Linux, kernel/smpboot.c makes the threads:
 * smpboot_register_percpu_thread() makes one for each CPU already online,
 * and CPUHP_CREATE_THREADS makes the thread of a CPU about to come up, on
 * the control CPU, before the CPU is started.  That thread starts parked
 * and first runs when CPUHP_AP_SMPBOOT_THREADS unparks it on its CPU.
 *
 * Unlike Linux's smpboot_thread_fn() loop around thread_should_run() and
 * thread_fn(), irqlab's families keep their own loops (@thread_fn, called
 * with the CPU number as its argument); each loop parks itself
 * (kthread_should_park()/kthread_parkme()) unless @selfparking says its
 * owner takes it off the CPU by other means (the stopper's enabled flag,
 * cpuhp's own park in takedown_cpu()).
 */
struct smp_hotplug_thread {
	struct task_struct **store;	/* per-CPU: &per_cpu_var */
	struct list_head list;
	int (*thread_fn)(void *data);	/* the family's loop */
	void (*create)(unsigned int cpu);	/* after the thread is made */
	bool selfparking;		/* not parked by CPUHP_AP_SMPBOOT_THREADS */
	const char *thread_comm;	/* with the CPU number */
};

int smpboot_register_percpu_thread(struct smp_hotplug_thread *plug_thread);
int smpboot_create_threads(unsigned int cpu);
int smpboot_park_threads(unsigned int cpu);
int smpboot_unpark_threads(unsigned int cpu);

/*
 * For the boot_order test: each thread smpboot made, which CPU made it
 * and in which hotplug state of the new thread's CPU (CPUHP_ONLINE for
 * one made at registration, on a CPU already up).
 */
struct smpboot_create_record {
	const char *comm;		/* the family's thread_comm */
	unsigned short cpu;		/* the thread's CPU */
	unsigned short on_cpu;		/* the CPU that made it */
	short cpuhp_state;		/* cpu's state then */
	bool cpu_online;		/* cpu was online then */
};

#define SMPBOOT_CREATE_RECORDS	256
unsigned int smpboot_create_records(const struct smpboot_create_record **recs);

#endif
