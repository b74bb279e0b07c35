/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_START_KERNEL_H
#define _LINUX_START_KERNEL_H

#include <linux/compiler.h>

__noreturn void start_kernel(void);
void setup_memory(void);
void newlib_init(void);

/* Things a boot can be asked to do (run=...). */
/*
 * A workload of run=.  Consecutive workloads other than WL_ALONE ones run
 * together, each in its own thread (run=cyclic,hackbench: latency under
 * load); a WL_LOAD one is started again while a measuring one of its
 * group still runs, so the load lasts as long as the measurement.
 */
#define WL_ALONE	0x1	/* runs by itself (ktest) */
#define WL_LOAD		0x2	/* background load, repeated to cover the group */

struct irqlab_workload {
	const char *name;
	int (*run)(void);	/* 0 on success */
	const char *help;
	unsigned int flags;
	void (*end)(void);	/* after its last round (NULL: nothing) */
};

#endif
