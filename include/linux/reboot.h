/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_REBOOT_H
#define _LINUX_REBOOT_H

#include <linux/compiler.h>

/*
 * Failure codes reported to the host through isa-debug-exit (0..127: QEMU
 * turns a write of v into exit status (v << 1) | 1).
 */
enum irqlab_exit_code {
	EXIT_OK = 0,
	EXIT_TEST_FAILED = 1,
	EXIT_BAD_CMDLINE = 2,
	EXIT_PANIC = 3,
};

/* Print the end banner and stop: QEMU exits, hardware halts. */
__noreturn void irqlab_exit(enum irqlab_exit_code code);
/* Stop without banner or flushing (used by panic after its own output). */
__noreturn void machine_halt_with(int code);

#endif
