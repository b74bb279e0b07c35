/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_BOOT_TIMING_H
#define _LINUX_BOOT_TIMING_H
/*
 * boot_timing (boot parameter, off by default): how long each step of the
 * SMP part of boot takes, and how long the IPIs sent meanwhile took to
 * reach their CPUs.  A debug aid for many-vCPU boots (Documentation/
 * scale.md): it tells a slow host (late IPI delivery, every CPU's tick
 * late) from a kernel that forgot to kick a CPU (fast delivery, long wait).
 */
#include <linux/types.h>
#include <linux/compiler.h>

extern bool boot_timing;

void __boot_timing_mark(const char *what, int arg);
void __boot_timing_ipi_sent(int cpu, int vector);
void __boot_timing_ipi_sent_allbutself(int vector);
void __boot_timing_ipi_received(void);

/* End of a step: print its length and its IPIs' delivery times. */
static inline void boot_timing_mark(const char *what, int arg)
{
	if (unlikely(READ_ONCE(boot_timing)))
		__boot_timing_mark(what, arg);
}

/* Every IPI sent: one load and branch while boot_timing is off. */
static inline void boot_timing_ipi_sent(int cpu, int vector)
{
	if (unlikely(READ_ONCE(boot_timing)))
		__boot_timing_ipi_sent(cpu, vector);
}

static inline void boot_timing_ipi_sent_allbutself(int vector)
{
	if (unlikely(READ_ONCE(boot_timing)))
		__boot_timing_ipi_sent_allbutself(vector);
}

static inline void boot_timing_ipi_received(void)
{
	if (unlikely(READ_ONCE(boot_timing)))
		__boot_timing_ipi_received();
}

/*
 * The order boot went through its steps, which task ran each and on which
 * CPU, and how many CPUs were online then (the boot_order test).  Marked
 * inside the steps themselves, so moving a call shows here.
 */
struct task_struct;

struct boot_order_step {
	const char *name;
	struct task_struct *task;
	int cpu;
	unsigned int online;
};

#define BOOT_ORDER_STEPS	16
void boot_order_mark(const char *name);
unsigned int boot_order_steps(const struct boot_order_step **steps);

#endif
