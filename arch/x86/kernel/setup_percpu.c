// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU areas: one copy of the .data..percpu template per possible CPU,
 * reached through GS base (asm/percpu.h).
 *
 * Each CPU's area is a unit mapped at PCPU_BASE + cpu * PCPU_UNIT_STRIDE
 * (linux/percpu.h), backed by memblock pages on the CPU's node: the
 * static copy, then the first dynamic chunk (PCPU_CHUNK_SIZE) that the
 * per-CPU allocator (mm/percpu.c) hands out from before the page
 * allocator exists.  Because all units have the same layout, one offset
 * names the same variable in every CPU's unit, for static variables and
 * for dynamic chunks mapped later in the rest of each unit's stride.
 */
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/memblock.h>
#include <linux/mm.h>
#include <linux/acpi.h>
#include <asm/apic.h>
#include <asm/pgtable.h>
#include <asm/processor.h>
#include <asm/page.h>

DEFINE_PER_CPU(unsigned long, this_cpu_off);
DEFINE_PER_CPU(int, cpu_number);
DEFINE_PER_CPU(int, __preempt_count);

unsigned long __per_cpu_offset[NR_CPUS];

struct cpumask __cpu_possible_mask, __cpu_online_mask, __cpu_present_mask;
struct cpumask __cpu_active_mask;
unsigned int nr_cpu_ids = 1;

void switch_to_percpu_area(int cpu)
{
	wrmsr(MSR_GS_BASE, __per_cpu_offset[cpu]);
}

static int early_cpu_to_node(int cpu)
{
	int node = acpi_numa_node_of_apic(cpu_to_apicid[cpu]);

	return node == NUMA_NO_NODE || node >= MAX_NUMNODES ? 0 : node;
}

unsigned long pcpu_dynamic_offset(void)
{
	return ALIGN((unsigned long)(__per_cpu_end - __per_cpu_start), PAGE_SIZE);
}

void setup_per_cpu_areas(void)
{
	size_t static_size = __per_cpu_end - __per_cpu_start;
	size_t unit_size = pcpu_dynamic_offset() + PCPU_CHUNK_SIZE;
	unsigned int cpu;

	BUILD_BUG_ON((unsigned long)NR_CPUS * PCPU_UNIT_STRIDE > (1UL << 40));
	BUG_ON(unit_size > PCPU_UNIT_STRIDE);
	for_each_possible_cpu(cpu) {
		unsigned long unit = PCPU_BASE + cpu * PCPU_UNIT_STRIDE;
		int node = early_cpu_to_node(cpu);
		phys_addr_t pa = memblock_phys_alloc_try_nid(unit_size, PAGE_SIZE, node);

		if (!pa)
			panic("percpu: no memory for CPU %u's area (%zu bytes)", cpu, unit_size);
		for (size_t off = 0; off < unit_size; off += PAGE_SIZE)
			map_kernel_page(unit + off, pa + off, PAGE_KERNEL);
		/*
		 * Copy the template as it is now: CPU 0 has been running on it
		 * (GS base 0) and keeps its values; the others start from the
		 * same initial state and get their identity below.
		 */
		memcpy((void *)unit, __per_cpu_start, static_size);
		memset((void *)(unit + static_size), 0, unit_size - static_size);
		__per_cpu_offset[cpu] = unit - (unsigned long)__per_cpu_start;
		per_cpu(this_cpu_off, cpu) = __per_cpu_offset[cpu];
		per_cpu(cpu_number, cpu) = cpu;
		set_cpu_numa_node(cpu, node);
		if (cpu)
			per_cpu(__preempt_count, cpu) = 0;
	}
	switch_to_percpu_area(0);
	pr_info("percpu: %u units of %zu bytes at %#lx, stride %#lx (static %zu bytes, first dynamic chunk %lu bytes)\n",
		num_possible_cpus(), unit_size, PCPU_BASE, PCPU_UNIT_STRIDE, static_size,
		PCPU_CHUNK_SIZE);
}
