// SPDX-License-Identifier: GPL-2.0
/* The per-CPU stack area; layout in asm/cpu_entry_area.h. */
#include <linux/kernel.h>
#include <linux/memblock.h>
#include <asm/cpu_entry_area.h>
#include <asm/pgtable.h>

static const unsigned long cea_size[CEA_NR_STACKS] = {
	[CEA_STACK_IRQ] = CEA_IRQ_STACK_SIZE,
	[CEA_STACK_NMI] = CEA_EXC_STACK_SIZE,
	[CEA_STACK_DF] = CEA_EXC_STACK_SIZE,
	[CEA_STACK_MCE] = CEA_EXC_STACK_SIZE,
	[CEA_STACK_DB] = CEA_EXC_STACK_SIZE,
	[CEA_STACK_TASK] = CEA_TASK_STACK_SIZE,
};

static const char *const cea_names[CEA_NR_STACKS] = {
	"IRQ", "NMI", "#DF", "#MC", "#DB", "idle",
};

/* Offset of stack @s inside a CPU's slot: each preceded by one guard page. */
static unsigned long cea_offset(enum cea_stack s)
{
	unsigned long off = PAGE_SIZE;

	for (int i = 0; i < s; i++)
		off += cea_size[i] + PAGE_SIZE;
	return off;
}

unsigned long cea_stack_bottom(int cpu, enum cea_stack s)
{
	return CPU_ENTRY_AREA_BASE + cpu * CEA_PER_CPU_SIZE + cea_offset(s);
}

unsigned long cea_stack_top(int cpu, enum cea_stack s)
{
	return cea_stack_bottom(cpu, s) + cea_size[s];
}

const char *cea_stack_name(enum cea_stack s)
{
	return cea_names[s];
}

bool cea_map_cpu(int cpu)
{
	for (int s = 0; s < CEA_NR_STACKS; s++) {
		unsigned long va = cea_stack_bottom(cpu, s);
		phys_addr_t pa = memblock_phys_alloc(cea_size[s], PAGE_SIZE);

		if (!pa)
			return false;
		memset(__va(pa), 0, cea_size[s]);
		for (unsigned long off = 0; off < cea_size[s]; off += PAGE_SIZE)
			map_kernel_page(va + off, pa + off,
					_PAGE_PRESENT | _PAGE_RW | _PAGE_NX | _PAGE_GLOBAL);
	}
	return true;
}

int cea_lookup(unsigned long addr, enum cea_stack *s, bool *guard)
{
	unsigned long rel;
	int cpu;

	if (addr < CPU_ENTRY_AREA_BASE ||
	    addr >= CPU_ENTRY_AREA_BASE + CONFIG_NR_CPUS * CEA_PER_CPU_SIZE)
		return -1;
	rel = addr - CPU_ENTRY_AREA_BASE;
	cpu = rel / CEA_PER_CPU_SIZE;
	rel %= CEA_PER_CPU_SIZE;
	for (int i = 0; i < CEA_NR_STACKS; i++) {
		unsigned long b = cea_offset(i);

		if (rel >= b - PAGE_SIZE && rel < b + cea_size[i]) {
			*s = i;
			*guard = rel < b;
			return cpu;
		}
	}
	return -1;
}
