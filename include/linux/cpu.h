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
#include <linux/compiler.h>
#include <linux/cpuhotplug.h>

int cpu_down(unsigned int cpu);
int cpu_up(unsigned int cpu);

void cpus_read_lock(void);
void cpus_read_unlock(void);
int cpus_read_trylock(void);
void cpus_write_lock(void);
void cpus_write_unlock(void);
void lockdep_assert_cpus_held(void);
/* For tests: slow-path readers so far, and cpu_hotplug_lock's readers now. */
long cpus_read_slow_count(void);
unsigned int cpus_read_holders(void);

/* In the take-down, on the dying CPU with IRQs off (stop_machine). */
void cpuhp_report_idle_dead(void);

/* The CPU coming up: starting section (IRQs off), then idle reached. */
void notify_cpu_starting(unsigned int cpu);
void cpuhp_online_idle(enum cpuhp_state state);

/*
 * Boot: CPU 0 is at CPUHP_ONLINE from start_kernel(); smp_init() makes
 * the cpuhp/N family, then brings each AP up with cpu_up().
 */
void boot_cpu_hotplug_init(void);
void cpuhp_threads_init(void);
enum cpuhp_state cpuhp_get_state(unsigned int cpu);

/* The architecture's part (arch/x86/kernel/smpboot.c). */
int __cpu_up(unsigned int cpu);
int __cpu_disable(void);
void __cpu_die(unsigned int cpu);
__noreturn void arch_cpu_idle_dead(void);

#endif
