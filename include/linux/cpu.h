/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_CPU_H
#define _LINUX_CPU_H

/*
 * CPU hotplug at run time (kernel/cpu.c).  cpu_down()/cpu_up() are
 * serialised by cpu_add_remove_lock and hold cpu_hotplug_lock (a per-CPU
 * rwsem) for writing; cpus_read_lock() keeps the online mask stable for a
 * reader and may sleep.
 */
#include <linux/types.h>
#include <linux/cpuhotplug.h>

int cpu_down(unsigned int cpu);
int cpu_up(unsigned int cpu);

void cpus_read_lock(void);
void cpus_read_unlock(void);
int cpus_read_trylock(void);
void cpus_write_lock(void);
void cpus_write_unlock(void);
void lockdep_assert_cpus_held(void);

/* In the take-down, on the dying CPU with IRQs off (stop_machine). */
void cpuhp_report_idle_dead(void);

#endif
