/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_KALLSYMS_H
#define _LINUX_KALLSYMS_H

#include <linux/types.h>

#define KSYM_NAME_LEN	128
#define KSYM_SYMBOL_LEN	(KSYM_NAME_LEN + 48)

/*
 * Look up the function containing @addr.  Returns its name and fills in
 * the offset of @addr inside it and the function's size; NULL when @addr
 * is not in the kernel's text.
 */
const char *kallsyms_lookup(unsigned long addr, unsigned long *size,
			    unsigned long *offset);
unsigned long kallsyms_lookup_name(const char *name);
/* "function+0xoff/0xsize", or the bare hex address. */
int sprint_symbol(char *buf, unsigned long addr);
/* The same for a return address (looked up at addr - 1). */
int sprint_backtrace(char *buf, unsigned long addr);
unsigned int kallsyms_nr_syms(void);

#endif
