/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_PREEMPT_H
#define _LINUX_PREEMPT_H

/*
 * preempt_count, per CPU, as in Linux:
 *
 *	PREEMPT_MASK:	0x000000ff	preempt_disable() nesting
 *	SOFTIRQ_MASK:	0x0000ff00	softirq running (odd) / disabled (by 2s)
 *	HARDIRQ_MASK:	0x000f0000	hard interrupt nesting
 *	NMI_MASK:	0x00f00000	NMI nesting
 *
 * Without CONFIG_PREEMPT_COUNT preempt_disable() is only a compiler
 * barrier, exactly as in Linux; the interrupt and NMI fields are always
 * maintained.  The scheduler issue turns preempt_enable() into a
 * preemption point.
 */
#include <linux/compiler.h>
#include <asm/preempt.h>
#include <asm/irqflags.h>

#define PREEMPT_BITS	8
#define SOFTIRQ_BITS	8
#define HARDIRQ_BITS	4
#define NMI_BITS	4

#define PREEMPT_SHIFT	0
#define SOFTIRQ_SHIFT	(PREEMPT_SHIFT + PREEMPT_BITS)
#define HARDIRQ_SHIFT	(SOFTIRQ_SHIFT + SOFTIRQ_BITS)
#define NMI_SHIFT	(HARDIRQ_SHIFT + HARDIRQ_BITS)

#define __IRQ_MASK(x)	((1UL << (x)) - 1)
#define PREEMPT_MASK	(__IRQ_MASK(PREEMPT_BITS) << PREEMPT_SHIFT)
#define SOFTIRQ_MASK	(__IRQ_MASK(SOFTIRQ_BITS) << SOFTIRQ_SHIFT)
#define HARDIRQ_MASK	(__IRQ_MASK(HARDIRQ_BITS) << HARDIRQ_SHIFT)
#define NMI_MASK	(__IRQ_MASK(NMI_BITS) << NMI_SHIFT)

#define PREEMPT_OFFSET	(1UL << PREEMPT_SHIFT)
#define SOFTIRQ_OFFSET	(1UL << SOFTIRQ_SHIFT)
#define HARDIRQ_OFFSET	(1UL << HARDIRQ_SHIFT)
#define NMI_OFFSET	(1UL << NMI_SHIFT)
#define SOFTIRQ_DISABLE_OFFSET	(2 * SOFTIRQ_OFFSET)

#define nmi_count()	(preempt_count() & NMI_MASK)
#define hardirq_count()	(preempt_count() & HARDIRQ_MASK)
#ifdef CONFIG_PREEMPT_RT
/* RT: softirqs run in preemptible task context; the state is the task's. */
#define softirq_count()	(current_thread_info()->softirq_disable_cnt & SOFTIRQ_MASK)
#define irq_count()	(nmi_count() | hardirq_count() | softirq_count())
#else
#define softirq_count()	(preempt_count() & SOFTIRQ_MASK)
#define irq_count()	(preempt_count() & (NMI_MASK | HARDIRQ_MASK | SOFTIRQ_MASK))
#endif

#define in_nmi()		(nmi_count())
#define in_hardirq()		(hardirq_count())
#define in_irq()		in_hardirq()
#define in_serving_softirq()	(softirq_count() & SOFTIRQ_OFFSET)
#define in_softirq()		(softirq_count())
#define in_interrupt()		(irq_count())
#define in_task()		(!(in_nmi() | in_hardirq() | in_serving_softirq()))

#ifdef CONFIG_TRACE_PREEMPT_TOGGLE
/*
 * The preemptoff tracer sees the count leave 0 and come back (Linux's
 * preempt_latency_start()/stop(), kernel/trace/trace_irqsoff.c).  The
 * test is inline, so a nested preempt_disable() costs a compare and no
 * call; the window opens after the add, so it covers the whole disabled
 * stretch, and closes just before the count returns to 0.  A count that
 * also holds interrupt or NMI bits never equals @val: those contexts
 * (whose entries use the __ forms) never open or close a window.
 */
void preempt_latency_start(void);
void preempt_latency_stop(void);

static __always_inline void preempt_count_add(int val)
{
	__preempt_count_add(val);
	if (preempt_count() == val)
		preempt_latency_start();
}

static __always_inline void preempt_count_sub(int val)
{
	if (preempt_count() == val)
		preempt_latency_stop();
	__preempt_count_sub(val);
}

#define preempt_count_dec_and_test()					\
	({								\
		if (preempt_count() == 1)				\
			preempt_latency_stop();				\
		__preempt_count_dec_and_test();				\
	})
#else
#define preempt_count_add(val)		__preempt_count_add(val)
#define preempt_count_sub(val)		__preempt_count_sub(val)
#define preempt_count_dec_and_test()	__preempt_count_dec_and_test()
#endif

#ifdef CONFIG_PREEMPT_COUNT
#define preempt_count_inc()	preempt_count_add(1)
#define preempt_count_dec()	preempt_count_sub(1)
#define preempt_disable()	do { preempt_count_inc(); barrier(); } while (0)
#define preempt_enable_no_resched() do { barrier(); preempt_count_dec(); } while (0)
#ifdef CONFIG_PREEMPTION
void preempt_schedule(void);
/* The count dropped to zero and a reschedule (or allowed lazy one) is pending. */
#define preempt_enable() do {						\
	barrier();							\
	if (unlikely(preempt_count_dec_and_test()))			\
		preempt_schedule();					\
} while (0)
#define preempt_check_resched() do {					\
	if (unlikely(!preempt_count() && tif_need_resched_now()))	\
		preempt_schedule();					\
} while (0)
#else
#define preempt_enable()	preempt_enable_no_resched()
#define preempt_check_resched()	do { } while (0)
#endif
#define in_atomic()		(preempt_count() != 0)
#else
#define preempt_disable()	barrier()
#define preempt_enable_no_resched() barrier()
#define preempt_enable()	barrier()
#define preempt_check_resched()	do { } while (0)
#define in_atomic()		(preempt_count() != 0)
#endif

/* PREEMPT_LAZY (RT patch): sections that defer lazy preemption. */
#ifdef CONFIG_PREEMPT_LAZY
#define preempt_lazy_disable()	do { current_thread_info()->preempt_lazy_count++; barrier(); } while (0)
#define preempt_lazy_enable()	do {					\
	barrier();							\
	current_thread_info()->preempt_lazy_count--;			\
	preempt_check_resched();					\
} while (0)
#else
#define preempt_lazy_disable()	barrier()
#define preempt_lazy_enable()	barrier()
#endif

#ifdef CONFIG_PREEMPT_COUNT
#define preemptible()	(preempt_count() == 0 && !arch_irqs_disabled())
#else
#define preemptible()	0
#endif

#define preempt_disable_notrace()	preempt_disable()
#define preempt_enable_notrace()	preempt_enable()

#endif
