/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_CPU_ENTRY_AREA_H
#define _ASM_X86_CPU_ENTRY_AREA_H

/*
 * Per-CPU stacks that must survive a broken task stack, mapped at fixed
 * addresses (as Linux's cpu_entry_area at 0xfffffe0000000000) so each
 * can have an unmapped guard page below it:
 *
 *	[guard][IRQ 16K][guard][NMI 8K][guard][#DF 8K][guard][#MC 8K]
 *	[guard][#DB 8K][guard][idle/boot 16K]
 *
 * A fault on a guard names the stack and the CPU (dumpstack.c).
 */
#include <linux/types.h>

#define CPU_ENTRY_AREA_BASE	0xfffffe0000000000UL
#define CEA_IRQ_STACK_SIZE	(16 * 1024)
#define CEA_EXC_STACK_SIZE	(8 * 1024)
#define CEA_TASK_STACK_SIZE	(16 * 1024)

enum cea_stack {
	CEA_STACK_IRQ,
	CEA_STACK_NMI,
	CEA_STACK_DF,
	CEA_STACK_MCE,
	CEA_STACK_DB,
	CEA_STACK_TASK,
	CEA_NR_STACKS,
};

#define CEA_PER_CPU_SIZE	(0x20000UL)	/* room for all of the above */

unsigned long cea_stack_bottom(int cpu, enum cea_stack s);
unsigned long cea_stack_top(int cpu, enum cea_stack s);
const char *cea_stack_name(enum cea_stack s);
/* Map CPU @cpu's stacks (memblock pages); false if out of memory. */
bool cea_map_cpu(int cpu);
/* Which CPU/stack/guard @addr falls in; -1 if not in the area. */
int cea_lookup(unsigned long addr, enum cea_stack *s, bool *guard);

#endif
