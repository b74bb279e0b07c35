// SPDX-License-Identifier: GPL-2.0
/*
 * panic(), WARN and the end of a run.  A panic prints its reason and a call
 * trace, flushes the console synchronously (bypassing the deferred path),
 * and reports failure to the host.
 */
#include <linux/kernel.h>
#include <linux/reboot.h>
#include <asm/stacktrace.h>
#include <asm/processor.h>
#include <asm/io.h>
#include <linux/smp.h>
#include <linux/ubsan.h>
#include <stdio.h>

#define ISA_DEBUG_EXIT_PORT	0xf4

static int panic_in_progress;
bool oops_in_progress;
unsigned long taint_warn_count;
atomic_t ubsan_report_count;

/*
 * Under a hypervisor we assume QEMU's isa-debug-exit device; on bare metal
 * the port may belong to something else, so halt instead.
 */
__noreturn void machine_halt_with(int code)
{
	asm volatile("cli");
	if (boot_cpu_data.has_hypervisor)
		outl(code & 0x7f, ISA_DEBUG_EXIT_PORT);
	for (;;)
		native_halt();
}

__noreturn void irqlab_exit(enum irqlab_exit_code code)
{
	printk(KERN_EMERG "irqlab: end status=%s\n", code == EXIT_OK ? "ok" : "fail");
	console_flush_panic();
	machine_halt_with(code);
}

__noreturn void panic(const char *fmt, ...)
{
	char buf[192];
	va_list ap;

	asm volatile("cli");
	if (__atomic_exchange_n(&panic_in_progress, 1, __ATOMIC_SEQ_CST)) {
		/* Nested panic (e.g. a fault while printing): just stop. */
		early_puts("irqlab: nested panic, halting\n");
		machine_halt_with(EXIT_PANIC);
	}
	va_start(ap, fmt);
	vsniprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	oops_in_progress = true;
	printk(KERN_EMERG "Kernel panic - not syncing: %s\n", buf);
	printk(KERN_EMERG "CPU: %d\n", smp_processor_id());
	dump_stack();
	/* Other CPUs print where they were and stop (by NMI). */
	smp_send_stop();
	printk(KERN_EMERG "---[ end Kernel panic - not syncing: %s ]---\n", buf);
	printk(KERN_EMERG "irqlab: end status=fail\n");
	console_flush_panic();
	machine_halt_with(EXIT_PANIC);
}

void __warn(const char *file, int line, const char *cond)
{
	taint_warn_count++;
	printk(KERN_WARNING "------------[ cut here ]------------\n");
	printk(KERN_WARNING "WARNING: CPU: %d at %s:%d: %s\n", smp_processor_id(),
	       file, line, cond);
	dump_stack();
	printk(KERN_WARNING "---[ end trace ]---\n");
}
