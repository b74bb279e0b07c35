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

/* ------------------------------------------------------------------------
 * Dynamic per-CPU allocator (mm/percpu.c; page allocator issue).
 *
 * Every CPU's per-CPU area is a "unit" at PCPU_BASE + cpu * PCPU_UNIT_STRIDE
 * in its own stretch of the vmalloc range, so every CPU's unit has the
 * same layout at the same offset: the static copy of .data..percpu first,
 * then dynamic chunks of PCPU_CHUNK_SIZE.  A dynamic per-CPU pointer is
 * the chunk address minus that CPU's offset, exactly like &static_var:
 * per_cpu_ptr(p, cpu) == p + __per_cpu_offset[cpu], and this_cpu_*(*p)
 * are single %gs-relative instructions (this_cpu_cmpxchg_double included).
 * The pointer itself is not dereferenceable.
 */
#ifndef __percpu
#define __percpu
#endif

#define PCPU_BASE		0xffffe80000000000UL	/* the vmalloc range's top TiB */
#define PCPU_UNIT_STRIDE	(1UL << 30)		/* address space per CPU */
#define PCPU_CHUNK_SIZE		((unsigned long)CONFIG_PERCPU_DYNAMIC_SIZE)
#define PCPU_MIN_ALLOC_SIZE	8

void __percpu *__alloc_percpu(size_t size, size_t align);
void __percpu *__alloc_percpu_gfp(size_t size, size_t align, gfp_t gfp);
void free_percpu(void __percpu *ptr);
/* Offset of the first dynamic chunk inside a unit (after the static copy). */
unsigned long pcpu_dynamic_offset(void);
/* Is @addr inside some CPU's unit (static or dynamic part)? */
bool is_percpu_unit_address(unsigned long addr);
/* Chunks mapped so far (the first one included). */
unsigned int pcpu_nr_chunks(void);
/* Pages mapped for every CPU's unit (static part and chunks): Linux's meminfo Percpu. */
unsigned long pcpu_nr_pages(void);
void percpu_init(void);

#define alloc_percpu_gfp(type, gfp)					\
	((__typeof__(type) __percpu *)__alloc_percpu_gfp(sizeof(type),	\
						 __alignof__(type), gfp))
#define alloc_percpu(type)						\
	((__typeof__(type) __percpu *)__alloc_percpu(sizeof(type),	\
						 __alignof__(type)))

#endif
