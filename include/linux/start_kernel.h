/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_START_KERNEL_H
#define _LINUX_START_KERNEL_H

#include <linux/compiler.h>

__noreturn void start_kernel(void);
void setup_memory(void);
void newlib_init(void);

/* Things a boot can be asked to do (run=...). */
struct irqlab_workload {
	const char *name;
	int (*run)(void);	/* 0 on success */
	const char *help;
};

#endif
