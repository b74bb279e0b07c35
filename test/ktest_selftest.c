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
#include <linux/smp.h>

enum {
	SELFTEST_NONE, SELFTEST_PANIC, SELFTEST_HANG, SELFTEST_NOKTAP,
	SELFTEST_TRIPLE, SELFTEST_PANIC_SECONDARY,
};
static const char *const selftest_names[] = {
	"none", "panic", "hang", "noktap", "triple", "panic_secondary", NULL
};
static int selftest_mode;
core_param_enum("ktest.selftest", selftest_mode, selftest_names,
		"break this boot on purpose (runner self-test)");

void idt_invalidate(void);

static void panic_here(void *info)
{
	panic("ktest.selftest=panic_secondary");
}

void ktest_selftest_broken_boot(void)
{
	int cpu;

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
	case SELFTEST_PANIC_SECONDARY:
		/* CPU 2 if there is one: not the boot CPU, not the first AP. */
		cpu = cpu_online(2) ? 2 : (int)num_online_cpus() - 1;
		pr_info("ktest.selftest=panic_secondary: panicking on CPU %d\n", cpu);
		smp_call_function_single(cpu, panic_here, NULL, 0);
		for (;;)
			cpu_relax();	/* the panicking CPU stops us by NMI */
	case SELFTEST_TRIPLE:
		pr_info("ktest.selftest=triple: faulting with an empty IDT\n");
		console_flush_panic();
		idt_invalidate();
		asm volatile("int3");
		break;
	}
}
