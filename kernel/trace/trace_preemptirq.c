// SPDX-License-Identifier: GPL-2.0
/*
 * The IRQ-flag hooks of CONFIG_TRACE_IRQFLAGS (Linux's file of the same
 * name): local_irq_*() call trace_hardirqs_off() after disabling and
 * trace_hardirqs_on() before enabling, and each hook feeds, where built,
 * the IRQ-off section counter (irqflags_count.c, CONFIG_IRQOFF_COUNT) and
 * the irqsoff tracer (trace_irqsoff.c).  The return address is taken here, once, so both
 * see the function that called local_irq_*().
 */
#include <linux/kernel.h>
#include <linux/irqflags.h>
#include <linux/irqoff_count.h>
#include <linux/trace_irqsoff.h>
#include <asm/stacktrace.h>

/*
 * The caller's caller, read from the frame-pointer chain.  The chain is
 * only trusted if the caller's frame lies just above this one on the
 * same stack; otherwise (a caller without a frame) it reports 0.
 */
static __always_inline unsigned long hook_parent_ip(void)
{
	const struct stack_frame *f = __builtin_frame_address(0);
	const struct stack_frame *up = f->next_frame;

	if ((unsigned long)up <= (unsigned long)f ||
	    (unsigned long)up - (unsigned long)f > 4096 || ((unsigned long)up & 7))
		return 0;
	return up->return_address;
}

noinline void trace_hardirqs_off(void)
{
	unsigned long ip = _RET_IP_;

	irqoff_count_hardirqs_off(ip);
#ifdef CONFIG_TRACE_IRQSOFF
	tracer_hardirqs_off(ip, hook_parent_ip());
#endif
}

noinline void trace_hardirqs_on(void)
{
#ifdef CONFIG_TRACE_IRQSOFF
	tracer_hardirqs_on(_RET_IP_);
#endif
	irqoff_count_hardirqs_on();
}
