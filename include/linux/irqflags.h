/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_IRQFLAGS_H
#define _LINUX_IRQFLAGS_H

/*
 * local_irq_*() wrap the raw_ forms with trace_hardirqs_on/off() so the
 * irqsoff tracer (CONFIG_TRACE_IRQFLAGS, the measurement issue) sees every
 * transition.  Without it the hooks compile to nothing.
 *
 * Ordering: the "off" hook runs after interrupts are disabled and the "on"
 * hook before they are enabled, so the traced window covers the whole
 * hardware window.
 */
#include <asm/irqflags.h>

#ifdef CONFIG_TRACE_IRQFLAGS
void trace_hardirqs_on(void);
void trace_hardirqs_off(void);
/*
 * The off hook records its return address as the place interrupts were
 * disabled (kernel/trace/irqflags_count.c); code after the call keeps a
 * local_irq_disable() at the end of a function from becoming a tail call
 * to the hook, which would hand it the caller's caller instead.
 */
#define __trace_hardirqs_off_end()	barrier()
#else
static __always_inline void trace_hardirqs_on(void) { }
static __always_inline void trace_hardirqs_off(void) { }
#define __trace_hardirqs_off_end()	do { } while (0)
#endif

#define raw_local_irq_disable()		arch_local_irq_disable()
#define raw_local_irq_enable()		arch_local_irq_enable()
#define raw_local_irq_save(flags)	((flags) = arch_local_irq_save())
#define raw_local_irq_restore(flags)	arch_local_irq_restore(flags)
#define raw_local_save_flags(flags)	((flags) = arch_local_save_flags())
#define raw_irqs_disabled_flags(flags)	arch_irqs_disabled_flags(flags)
#define raw_irqs_disabled()		arch_irqs_disabled()

#ifdef CONFIG_TRACE_IRQFLAGS
/*
 * As in Linux, only edges reach the hooks: a local_irq_save() or
 * local_irq_disable() with interrupts already off, and a
 * local_irq_restore() to a disabled state, change nothing a tracer
 * counts, so they cost no call.  local_irq_enable() always calls: the
 * hook itself drops a window that a raw_ enable already ended.
 */
#define local_irq_enable()						\
	do { trace_hardirqs_on(); raw_local_irq_enable(); } while (0)
#define local_irq_disable()						\
	do {								\
		int __was_off = raw_irqs_disabled();			\
		raw_local_irq_disable();				\
		if (!__was_off) {					\
			trace_hardirqs_off();				\
			__trace_hardirqs_off_end();			\
		}							\
	} while (0)
#define local_irq_save(flags)						\
	do {								\
		raw_local_irq_save(flags);				\
		if (!raw_irqs_disabled_flags(flags)) {			\
			trace_hardirqs_off();				\
			__trace_hardirqs_off_end();			\
		}							\
	} while (0)
#define local_irq_restore(flags)					\
	do {								\
		if (!raw_irqs_disabled_flags(flags))			\
			trace_hardirqs_on();				\
		raw_local_irq_restore(flags);				\
	} while (0)
#else
#define local_irq_enable()		raw_local_irq_enable()
#define local_irq_disable()		raw_local_irq_disable()
#define local_irq_save(flags)		raw_local_irq_save(flags)
#define local_irq_restore(flags)	raw_local_irq_restore(flags)
#endif
#define local_save_flags(flags)		raw_local_save_flags(flags)
#define irqs_disabled()			raw_irqs_disabled()
#define irqs_disabled_flags(flags)	raw_irqs_disabled_flags(flags)

#define safe_halt()	do { trace_hardirqs_on(); native_safe_halt(); } while (0)

#endif
