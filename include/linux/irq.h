/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_IRQ_H
#define _LINUX_IRQ_H

#include <linux/interrupt.h>
#include <linux/spinlock.h>
#include <linux/cpumask.h>
#include <linux/atomic.h>

#define NR_IRQS		256

struct irq_desc;

/* What the interrupt controller can do for one line. */
struct irq_chip {
	const char *name;
	void (*irq_mask)(struct irq_desc *desc);
	void (*irq_unmask)(struct irq_desc *desc);
	/* Route the line to @vector on @cpu (programs the controller). */
	int (*irq_set_route)(struct irq_desc *desc, unsigned int cpu, unsigned int vector);
};

struct irq_desc {
	unsigned int irq;
	unsigned int gsi;
	unsigned int vector;		/* 0: none allocated */
	unsigned int cpu;		/* target CPU */
	struct cpumask affinity;	/* irq_set_affinity(); empty: CPU 0 */
	bool level;			/* level-triggered */
	bool active_low;
	unsigned int depth;		/* disable_irq() nesting */
	irq_handler_t handler;
	irq_handler_t thread_fn;
	struct task_struct *thread;	/* irq/<irq>-<name>, if threaded */
	unsigned long thread_flags;	/* IRQTF_* */
	bool oneshot;			/* masked while the thread runs */
	void *dev_id;
	const char *name;
	unsigned long flags;
	struct irq_chip *chip;
	raw_spinlock_t lock;
	unsigned long count[CONFIG_NR_CPUS];
	unsigned long unhandled;
};

#define IRQTF_RUNTHREAD		0	/* the primary handler asked for the thread */
#define IRQTF_FORCED_THREAD	3	/* a plain handler forced into the thread */

struct irq_desc *irq_to_desc(unsigned int irq);
bool irq_routed_to_cpu(unsigned int cpu);
int irq_set_affinity(unsigned int irq, const struct cpumask *cpumask);
/* CPU hotplug: on the dying CPU, IRQs off (kernel/irq/cpuhotplug.c). */
void irq_migrate_all_off_this_cpu(void);
void fixup_irqs(void);
extern atomic_long_t irq_fixup_resent;	/* IRR interrupts re-sent so far */
void handle_irq_desc(struct irq_desc *desc);
void early_irq_init(void);

/* arch: vector bookkeeping */
int assign_irq_vector(struct irq_desc *desc, unsigned int cpu);
void clear_irq_vector(struct irq_desc *desc);
void release_irq_vector(unsigned int cpu, unsigned int vector);
void irq_vectors_prepare_cpu(unsigned int cpu);

#endif
