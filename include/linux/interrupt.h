/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_INTERRUPT_H
#define _LINUX_INTERRUPT_H

#include <linux/types.h>
#include <linux/hardirq.h>
#include <linux/bottom_half.h>

typedef enum irqreturn {
	IRQ_NONE = 0,
	IRQ_HANDLED = 1,
	IRQ_WAKE_THREAD = 2,
} irqreturn_t;

typedef irqreturn_t (*irq_handler_t)(int irq, void *dev_id);

#define IRQF_TRIGGER_RISING	0x01
#define IRQF_TRIGGER_FALLING	0x02
#define IRQF_TRIGGER_HIGH	0x04
#define IRQF_TRIGGER_LOW	0x08
#define IRQF_ONESHOT		0x2000	/* keep the line masked until the thread ran */
#define IRQF_NO_THREAD		0x10000	/* stays in hard IRQ on PREEMPT_RT */

/*
 * irq numbers: 0..15 are the ISA interrupts (routed through ACPI
 * interrupt source overrides), 16 and up are IOAPIC GSIs one to one.
 */
/* Softirqs, in Linux's order (lower number, higher priority). */
enum {
	HI_SOFTIRQ = 0,
	TIMER_SOFTIRQ,
	NET_TX_SOFTIRQ,
	NET_RX_SOFTIRQ,
	BLOCK_SOFTIRQ,
	IRQ_POLL_SOFTIRQ,
	TASKLET_SOFTIRQ,
	SCHED_SOFTIRQ,
	HRTIMER_SOFTIRQ,
	RCU_SOFTIRQ,
	NR_SOFTIRQS
};

struct softirq_action {
	void (*action)(struct softirq_action *);
};

extern const char *const softirq_to_name[NR_SOFTIRQS];
void open_softirq(int nr, void (*action)(struct softirq_action *));
void raise_softirq(unsigned int nr);
void raise_softirq_irqoff(unsigned int nr);
unsigned long local_softirq_pending(void);
void do_softirq(void);
void spawn_ksoftirqd(void);

/*
 * @handler runs in hard-IRQ context and may return IRQ_WAKE_THREAD to run
 * @thread_fn in the line's thread (irq/<irq>-<name>, SCHED_FIFO 50).  On
 * PREEMPT_RT every handler without IRQF_NO_THREAD is forced into the
 * thread (the primary handler only wakes it, the line stays masked until
 * the thread has run), as 5.15-rt does.
 */
int request_threaded_irq(unsigned int irq, irq_handler_t handler, irq_handler_t thread_fn,
			 unsigned long flags, const char *name, void *dev_id);

static inline int request_irq(unsigned int irq, irq_handler_t handler, unsigned long flags,
			      const char *name, void *dev_id)
{
	return request_threaded_irq(irq, handler, NULL, flags, name, dev_id);
}
void free_irq(unsigned int irq, void *dev_id);
void disable_irq(unsigned int irq);
void enable_irq(unsigned int irq);
unsigned long kstat_irqs(unsigned int irq);

#endif
