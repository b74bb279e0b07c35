/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_IRQOFF_COUNT_H
#define _LINUX_IRQOFF_COUNT_H

/*
 * IRQ-off section counter (kernel/trace/irqflags_count.c), the first user
 * of the CONFIG_TRACE_IRQFLAGS hooks (CONFIG_IRQOFF_COUNT, selected by
 * CONFIG_SLUB_SCOPE_PROBE): each CPU counts the sections in
 * which it ran with interrupts off, and their length in TSC cycles, by
 * the function that disabled interrupts.  The irqsoff tracer of the
 * measurement issue is to be built on the same hooks and per-CPU section
 * state.
 *
 *	irqoff_count_reset();
 *	...run something...
 *	c = irqoff_count_for("deactivate_slab");
 *	irqoff_count_report(10);
 *
 * What is counted: sections opened by local_irq_disable()/local_irq_save()
 * with interrupts on (the edges linux/irqflags.h passes to the hooks),
 * closed by the next local_irq_enable()/local_irq_restore()
 * to an enabled state, safe_halt(), or the return from an interrupt to a
 * context with interrupts on.  Not counted: the hardware window from
 * interrupt entry (the hooks are not called there), anything in hard-IRQ
 * or NMI context, and raw_local_irq_*() sections.
 */
#include <linux/types.h>

struct irqoff_count {
	unsigned long sections;	/* closed IRQ-off sections */
	u64 cycles;		/* their total length, TSC cycles */
	bool found;		/* the function name is a kernel symbol */
};

#ifdef CONFIG_IRQOFF_COUNT
/* Called by trace_hardirqs_off()/on() (kernel/trace/trace_preemptirq.c). */
void irqoff_count_hardirqs_off(unsigned long ip);
void irqoff_count_hardirqs_on(void);
/* Forget every count on every CPU; a section open now is not counted. */
void irqoff_count_reset(void);
/* Totals over all CPUs for the sections opened inside function @func. */
struct irqoff_count irqoff_count_for(const char *func);
/* Print the @top functions with the most IRQ-off cycles, and the drops. */
void irqoff_count_report(unsigned int top);
/* Sections lost because a CPU's table was full, since the last reset. */
unsigned long irqoff_count_dropped(void);
#else
static inline void irqoff_count_hardirqs_off(unsigned long ip) { }
static inline void irqoff_count_hardirqs_on(void) { }
static inline void irqoff_count_reset(void) { }
static inline struct irqoff_count irqoff_count_for(const char *func)
{
	return (struct irqoff_count){ 0 };
}
static inline void irqoff_count_report(unsigned int top) { }
static inline unsigned long irqoff_count_dropped(void) { return 0; }
#endif

#endif /* _LINUX_IRQOFF_COUNT_H */
