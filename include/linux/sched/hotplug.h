/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SCHED_HOTPLUG_H
#define _LINUX_SCHED_HOTPLUG_H

/*
 * The scheduler's CPU hotplug callbacks (kernel/sched/core.c):
 * CPUHP_AP_SCHED_STARTING (on the CPU, IRQs off) and CPUHP_AP_ACTIVE (in
 * its cpuhp thread).
 */
int sched_cpu_starting(unsigned int cpu);
int sched_cpu_activate(unsigned int cpu);
int sched_cpu_deactivate(unsigned int cpu);
int sched_cpu_dying(unsigned int cpu);
int sched_cpu_wait_empty(unsigned int cpu);

#endif
