/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_STACKTRACE_H
#define _ASM_X86_STACKTRACE_H

#include <linux/types.h>
#include <asm/ptrace.h>

/* A frame as laid down by "push %rbp; mov %rsp, %rbp". */
struct stack_frame {
	struct stack_frame *next_frame;
	unsigned long return_address;
};

/*
 * Stacks irqlab knows, with the unmapped guard page below each, so a fault
 * on a guard can be reported as the overflow of a named stack.
 */
struct stack_info {
	const char *name;
	unsigned long guard;		/* start of the guard page */
	unsigned long begin, end;	/* usable range */
};

void register_stack(const char *name, unsigned long guard,
		    unsigned long begin, unsigned long end);
const struct stack_info *stack_guard_lookup(unsigned long addr);
const struct stack_info *stack_lookup(unsigned long addr);

void show_stack_from(unsigned long ip, unsigned long bp, const char *log_lvl);
void dump_stack(void);
unsigned int save_stack_trace(unsigned long *entries, unsigned int max,
			      unsigned int skip);
unsigned int save_stack_trace_bp(unsigned long bp, unsigned long *entries, unsigned int max);

#endif
