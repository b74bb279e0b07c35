/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_PERCPU_H
#define _LINUX_PERCPU_H

#include <linux/kernel.h>
#include <linux/cpumask.h>
#include <asm/percpu.h>

#define PER_CPU_SECTION	".data..percpu"

#define DEFINE_PER_CPU(type, name)					\
	__section(PER_CPU_SECTION) __typeof__(type) name
#define DEFINE_PER_CPU_ALIGNED(type, name)				\
	__section(PER_CPU_SECTION) __aligned(64) __typeof__(type) name
#define DECLARE_PER_CPU(type, name)					\
	extern __section(PER_CPU_SECTION) __typeof__(type) name
#define DECLARE_PER_CPU_ALIGNED(type, name)				\
	extern __section(PER_CPU_SECTION) __aligned(64) __typeof__(type) name

extern char __per_cpu_start[], __per_cpu_end[];
extern unsigned long __per_cpu_offset[NR_CPUS];
DECLARE_PER_CPU(unsigned long, this_cpu_off);
DECLARE_PER_CPU(int, cpu_number);

#define per_cpu_offset(cpu)	(__per_cpu_offset[cpu])
#define SHIFT_PERCPU_PTR(p, off) ((__typeof__(p))((unsigned long)(p) + (off)))
#define per_cpu_ptr(ptr, cpu)	SHIFT_PERCPU_PTR((ptr), per_cpu_offset(cpu))
#define per_cpu(var, cpu)	(*per_cpu_ptr(&(var), (cpu)))
#define raw_cpu_ptr(ptr)	SHIFT_PERCPU_PTR((ptr), this_cpu_read(this_cpu_off))
#define this_cpu_ptr(ptr)	raw_cpu_ptr(ptr)

#define raw_smp_processor_id()	this_cpu_read(cpu_number)
#define smp_processor_id()	raw_smp_processor_id()

void setup_per_cpu_areas(void);
void switch_to_percpu_area(int cpu);

#endif
