/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_STACKDEPOT_H
#define _LINUX_STACKDEPOT_H

#include <linux/types.h>
#include <linux/gfp.h>

/*
 * A stack depot stores each distinct call stack once and names it by a
 * 32-bit handle, so per-object metadata (KASAN's alloc and free tracks)
 * can remember a whole backtrace in four bytes.  Handle 0 is "no stack"
 * (none given, or the pool is full).
 */
typedef u32 depot_stack_handle_t;

depot_stack_handle_t stack_depot_save(unsigned long *entries,
				      unsigned int nr_entries, gfp_t gfp_flags);
unsigned int stack_depot_fetch(depot_stack_handle_t handle,
			       unsigned long **entries);
/* Print the stack behind @handle, one symbolized frame a line. */
void stack_depot_print(depot_stack_handle_t handle);

/* Distinct stacks stored and bytes of the pool used (for tests). */
unsigned int stack_depot_nr_stacks(void);
size_t stack_depot_pool_used(void);

static inline int stack_depot_init(void)
{
	return 0;	/* the pool and the table are static */
}

#endif /* _LINUX_STACKDEPOT_H */
