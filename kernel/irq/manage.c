// SPDX-License-Identifier: GPL-2.0
/* request_irq() and friends. */
#include <linux/kernel.h>
#include <linux/irq.h>
#include <linux/errno.h>
#include <linux/percpu.h>

int request_irq(unsigned int irq, irq_handler_t handler, unsigned long flags,
		const char *name, void *dev_id)
{
	struct irq_desc *desc = irq_to_desc(irq);
	unsigned long f;
	int err;

	if (!desc || !handler)
		return -EINVAL;
	if (!desc->chip) {
		pr_err("request_irq(%u, %s): no interrupt controller routes this line\n",
		       irq, name);
		return -ENODEV;
	}
	raw_spin_lock_irqsave(&desc->lock, f);
	if (desc->handler) {
		raw_spin_unlock_irqrestore(&desc->lock, f);
		return -EBUSY;		/* no shared lines in irqlab */
	}
	desc->handler = handler;
	desc->dev_id = dev_id;
	desc->name = name;
	desc->flags = flags;
	desc->unhandled = 0;
	if (flags & (IRQF_TRIGGER_HIGH | IRQF_TRIGGER_LOW))
		desc->level = true;
	if (flags & (IRQF_TRIGGER_LOW | IRQF_TRIGGER_FALLING))
		desc->active_low = true;
	err = assign_irq_vector(desc, desc->cpu);
	if (!err)
		err = desc->chip->irq_set_route(desc, desc->cpu, desc->vector);
	if (err) {
		clear_irq_vector(desc);
		desc->handler = NULL;
	} else {
		desc->depth = 0;
		desc->chip->irq_unmask(desc);
	}
	raw_spin_unlock_irqrestore(&desc->lock, f);
	return err;
}

void free_irq(unsigned int irq, void *dev_id)
{
	struct irq_desc *desc = irq_to_desc(irq);
	unsigned long f;

	if (!desc)
		return;
	raw_spin_lock_irqsave(&desc->lock, f);
	if (WARN_ON(!desc->handler || desc->dev_id != dev_id)) {
		raw_spin_unlock_irqrestore(&desc->lock, f);
		return;
	}
	desc->chip->irq_mask(desc);
	clear_irq_vector(desc);
	desc->handler = NULL;
	desc->dev_id = NULL;
	raw_spin_unlock_irqrestore(&desc->lock, f);
}

void disable_irq(unsigned int irq)
{
	struct irq_desc *desc = irq_to_desc(irq);
	unsigned long f;

	raw_spin_lock_irqsave(&desc->lock, f);
	if (!desc->depth++ && desc->chip)
		desc->chip->irq_mask(desc);
	raw_spin_unlock_irqrestore(&desc->lock, f);
}

void enable_irq(unsigned int irq)
{
	struct irq_desc *desc = irq_to_desc(irq);
	unsigned long f;

	raw_spin_lock_irqsave(&desc->lock, f);
	if (WARN_ON(!desc->depth)) {
		raw_spin_unlock_irqrestore(&desc->lock, f);
		return;
	}
	if (!--desc->depth && desc->chip && desc->handler)
		desc->chip->irq_unmask(desc);
	raw_spin_unlock_irqrestore(&desc->lock, f);
}
