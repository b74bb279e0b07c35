// SPDX-License-Identifier: GPL-2.0
/*
 * Deliberately broken boots (ktest.selftest=...), so the host runner can
 * show that it reports a panic, a hang, a run without KTAP and a triple
 * fault as failures rather than passes.
 */
#include <linux/kernel.h>
#include <linux/ktest.h>
#include <linux/moduleparam.h>
#include <linux/reboot.h>
#include <asm/processor.h>

enum { SELFTEST_NONE, SELFTEST_PANIC, SELFTEST_HANG, SELFTEST_NOKTAP, SELFTEST_TRIPLE };
static const char *const selftest_names[] = { "none", "panic", "hang", "noktap", "triple", NULL };
static int selftest_mode;
core_param_enum("ktest.selftest", selftest_mode, selftest_names,
		"break this boot on purpose (runner self-test)");

void idt_invalidate(void);

void ktest_selftest_broken_boot(void)
{
	switch (selftest_mode) {
	case SELFTEST_PANIC:
		panic("ktest.selftest=panic: deliberate panic");
	case SELFTEST_HANG:
		pr_info("ktest.selftest=hang: stopping with interrupts off\n");
		asm volatile("cli");
		for (;;)
			native_halt();
	case SELFTEST_NOKTAP:
		pr_info("ktest.selftest=noktap: reporting success without running tests\n");
		irqlab_exit(EXIT_OK);
	case SELFTEST_TRIPLE:
		pr_info("ktest.selftest=triple: faulting with an empty IDT\n");
		console_flush_panic();
		idt_invalidate();
		asm volatile("int3");
		break;
	}
}
