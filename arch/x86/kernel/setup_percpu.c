// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU areas: one copy of the .data..percpu template per possible CPU,
 * from memblock, reached through GS base (asm/percpu.h).
 */
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/memblock.h>
#include <asm/processor.h>
#include <asm/page.h>

DEFINE_PER_CPU(unsigned long, this_cpu_off);
DEFINE_PER_CPU(int, cpu_number);
DEFINE_PER_CPU(int, __preempt_count);

unsigned long __per_cpu_offset[NR_CPUS];

struct cpumask __cpu_possible_mask, __cpu_online_mask, __cpu_present_mask;
unsigned int nr_cpu_ids = 1;

void switch_to_percpu_area(int cpu)
{
	wrmsr(MSR_GS_BASE, __per_cpu_offset[cpu]);
}

void setup_per_cpu_areas(void)
{
	size_t size = ALIGN((size_t)(__per_cpu_end - __per_cpu_start), 64);
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		char *area = memblock_alloc(size, PAGE_SIZE);

		/*
		 * Copy the template as it is now: CPU 0 has been running on it
		 * (GS base 0) and keeps its values; the others start from the
		 * same initial state and get their identity below.
		 */
		memcpy(area, __per_cpu_start, __per_cpu_end - __per_cpu_start);
		__per_cpu_offset[cpu] = (unsigned long)area - (unsigned long)__per_cpu_start;
		per_cpu(this_cpu_off, cpu) = __per_cpu_offset[cpu];
		per_cpu(cpu_number, cpu) = cpu;
		if (cpu)
			per_cpu(__preempt_count, cpu) = 0;
	}
	switch_to_percpu_area(0);
	pr_info("percpu: %u areas of %zu bytes (template %zu bytes)\n",
		num_possible_cpus(), size, (size_t)(__per_cpu_end - __per_cpu_start));
}
