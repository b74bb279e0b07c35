// SPDX-License-Identifier: GPL-2.0
/*
 * The IRQ-flag hooks of CONFIG_TRACE_IRQFLAGS (Linux's file of the same
 * name): local_irq_*() call trace_hardirqs_off() after disabling and
 * trace_hardirqs_on() before enabling.  Here, without the irqsoff tracer,
 * they feed the IRQ-off section counter (irqflags_count.c,
 * CONFIG_IRQOFF_COUNT); with it, trace_irqsoff.c defines them and feeds
 * both, so a local_irq_*() costs a single call.
 */
#include <linux/kernel.h>
#include <linux/irqflags.h>
#include <linux/irqoff_count.h>
#include <linux/trace_irqsoff.h>
#include <asm/stacktrace.h>

/* With the irqsoff tracer, the hooks are its own (trace_irqsoff.c). */
#ifndef CONFIG_TRACE_IRQSOFF
noinline void trace_hardirqs_off(void)
{
	unsigned long ip = _RET_IP_;

	irqoff_count_hardirqs_off(ip);
}

noinline void trace_hardirqs_on(void)
{
	irqoff_count_hardirqs_on();
}
#endif
