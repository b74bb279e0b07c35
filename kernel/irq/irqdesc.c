// SPDX-License-Identifier: GPL-2.0
/*
 * Interrupt descriptors and the generic flow: one handler per line, counts
 * per CPU, and a report when a line keeps firing with nobody handling it.
 */
#include <linux/kernel.h>
#include <linux/irq.h>
#include <linux/percpu.h>
#include <linux/sched.h>

static struct irq_desc irq_descs[NR_IRQS];

void early_irq_init(void)
{
	for (unsigned int i = 0; i < NR_IRQS; i++) {
		irq_descs[i].irq = i;
		irq_descs[i].gsi = i;
		raw_spin_lock_init(&irq_descs[i].lock);
	}
}

struct irq_desc *irq_to_desc(unsigned int irq)
{
	return irq < NR_IRQS ? &irq_descs[irq] : NULL;
}

/* The primary handler asked for the thread: mask if oneshot, then wake it. */
static void irq_wake_thread(struct irq_desc *desc)
{
	if (desc->oneshot)
		desc->chip->irq_mask(desc);
	set_bit(IRQTF_RUNTHREAD, &desc->thread_flags);
	wake_up_process(desc->thread);
}

void handle_irq_desc(struct irq_desc *desc)
{
	irqreturn_t ret = IRQ_NONE;

	desc->count[smp_processor_id()]++;
	if (desc->handler)
		ret = desc->handler(desc->irq, desc->dev_id);
	if (ret == IRQ_WAKE_THREAD && desc->thread) {
		irq_wake_thread(desc);
		return;
	}
	if (ret == IRQ_NONE && desc->unhandled++ < 3)
		pr_err("irq %u: nobody cared (handler %s)\n", desc->irq,
		       desc->handler ? "returned IRQ_NONE" : "missing");
}

unsigned long kstat_irqs(unsigned int irq)
{
	struct irq_desc *desc = irq_to_desc(irq);
	unsigned long sum = 0;
	unsigned int cpu;

	if (!desc)
		return 0;
	for_each_possible_cpu(cpu)
		sum += desc->count[cpu];
	return sum;
}
