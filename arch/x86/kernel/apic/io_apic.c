// SPDX-License-Identifier: GPL-2.0
/*
 * IOAPICs: each has 24 or so redirection entries (RTEs), one per GSI,
 * written through an index/data register pair.  ISA interrupts 0-15 map
 * to GSIs 0-15 unless the MADT overrides them (QEMU: IRQ0 -> GSI2); ISA
 * lines are edge/active-high by default, PCI GSIs level/active-low.
 */
#include <linux/kernel.h>
#include <linux/irq.h>
#include <linux/errno.h>
#include <asm/apic.h>
#include <asm/io_apic.h>
#include <asm/io.h>
#include <asm/pgtable.h>

#define IO_APIC_ID	0x00
#define IO_APIC_VER	0x01
#define IO_APIC_RTE(pin) (0x10 + 2 * (pin))

#define RTE_MASKED	(1U << 16)
#define RTE_LEVEL	(1U << 15)
#define RTE_ACTIVE_LOW	(1U << 13)
#define RTE_DM_NMI	(4U << 8)	/* delivery mode NMI: the vector is ignored */

struct ioapic {
	u8 id;
	u64 phys;
	volatile u8 *base;
	u32 gsi_base;
	u32 nr_pins;
	raw_spinlock_t lock;
};

static struct ioapic ioapics[MAX_IO_APICS];
static unsigned int nr_ioapics;

unsigned int nr_ioapics_registered(void)
{
	return nr_ioapics;
}

static u32 io_apic_read(struct ioapic *io, u32 reg)
{
	writel(reg, io->base);
	return readl(io->base + 0x10);
}

static void io_apic_write(struct ioapic *io, u32 reg, u32 v)
{
	writel(reg, io->base);
	writel(v, io->base + 0x10);
}

static struct ioapic *gsi_to_ioapic(u32 gsi, u32 *pin)
{
	for (unsigned int i = 0; i < nr_ioapics; i++) {
		struct ioapic *io = &ioapics[i];

		if (gsi >= io->gsi_base && gsi < io->gsi_base + io->nr_pins) {
			*pin = gsi - io->gsi_base;
			return io;
		}
	}
	return NULL;
}

/* Set or clear the mask bit of @desc's redirection entry. */
static void ioapic_set_masked(struct irq_desc *desc, bool masked)
{
	u32 pin = 0;
	struct ioapic *io = gsi_to_ioapic(desc->gsi, &pin);
	unsigned long f;
	u32 rte;

	raw_spin_lock_irqsave(&io->lock, f);
	rte = io_apic_read(io, IO_APIC_RTE(pin));
	rte = masked ? rte | RTE_MASKED : rte & ~RTE_MASKED;
	io_apic_write(io, IO_APIC_RTE(pin), rte);
	raw_spin_unlock_irqrestore(&io->lock, f);
}

static void ioapic_mask(struct irq_desc *desc)
{
	ioapic_set_masked(desc, true);
}

static void ioapic_unmask(struct irq_desc *desc)
{
	ioapic_set_masked(desc, false);
}

/*
 * Fixed delivery, physical destination; a new entry is written masked and
 * unmasked later.
 */
static int ioapic_set_route(struct irq_desc *desc, unsigned int cpu,
			    unsigned int vector)
{
	u32 pin, low = vector | RTE_MASKED;
	struct ioapic *io = gsi_to_ioapic(desc->gsi, &pin);
	unsigned long f;

	if (!io)
		return -ENODEV;
	if (cpu_to_apicid[cpu] > 0xff) {
		pr_err("irq %u: APIC ID %u needs interrupt remapping\n", desc->irq,
		       cpu_to_apicid[cpu]);
		return -EINVAL;
	}
	if (desc->level)
		low |= RTE_LEVEL;
	if (desc->active_low)
		low |= RTE_ACTIVE_LOW;
	raw_spin_lock_irqsave(&io->lock, f);
	if ((io_apic_read(io, IO_APIC_RTE(pin)) & ~RTE_MASKED) == (low & ~RTE_MASKED)) {
		/*
		 * A move that kept the vector number: only the destination
		 * changes, in one write, and the entry is never masked.  The
		 * IOAPIC drops an edge that meets a masked entry (82093AA),
		 * so a masked move could lose one.
		 */
		io_apic_write(io, IO_APIC_RTE(pin) + 1, cpu_to_apicid[cpu] << 24);
	} else {
		io_apic_write(io, IO_APIC_RTE(pin) + 1, cpu_to_apicid[cpu] << 24);
		io_apic_write(io, IO_APIC_RTE(pin), low);
	}
	raw_spin_unlock_irqrestore(&io->lock, f);
	return 0;
}

/*
 * An NMI source on a pin (the HPET's timer 0 for the profiler).  The
 * IOAPIC delivers NMIs edge-triggered only; the polarity stays the ISA
 * default, active high.
 */
int ioapic_route_nmi(u32 gsi, unsigned int cpu, u64 *saved)
{
	u32 pin, low = RTE_DM_NMI;
	struct ioapic *io = gsi_to_ioapic(gsi, &pin);
	unsigned long f;

	if (!io)
		return -ENODEV;
	if (cpu_to_apicid[cpu] > 0xff)
		return -EINVAL;		/* needs interrupt remapping */
	raw_spin_lock_irqsave(&io->lock, f);
	*saved = io_apic_read(io, IO_APIC_RTE(pin)) |
		 (u64)io_apic_read(io, IO_APIC_RTE(pin) + 1) << 32;
	/* Masked while the destination changes, so no half-written entry fires. */
	io_apic_write(io, IO_APIC_RTE(pin), RTE_MASKED);
	io_apic_write(io, IO_APIC_RTE(pin) + 1, cpu_to_apicid[cpu] << 24);
	io_apic_write(io, IO_APIC_RTE(pin), low);
	raw_spin_unlock_irqrestore(&io->lock, f);
	return 0;
}

void ioapic_restore_rte(u32 gsi, u64 saved)
{
	u32 pin;
	struct ioapic *io = gsi_to_ioapic(gsi, &pin);
	unsigned long f;

	if (!io)
		return;
	raw_spin_lock_irqsave(&io->lock, f);
	io_apic_write(io, IO_APIC_RTE(pin), RTE_MASKED);
	io_apic_write(io, IO_APIC_RTE(pin) + 1, saved >> 32);
	io_apic_write(io, IO_APIC_RTE(pin), (u32)saved);
	raw_spin_unlock_irqrestore(&io->lock, f);
}

static struct irq_chip ioapic_chip = {
	.name = "IO-APIC",
	.irq_mask = ioapic_mask,
	.irq_unmask = ioapic_unmask,
	.irq_set_route = ioapic_set_route,
};

int mp_register_ioapic(u8 id, u64 phys, u32 gsi_base)
{
	struct ioapic *io;

	if (nr_ioapics >= MAX_IO_APICS) {
		pr_warn("IOAPIC %u at %#llx ignored: more than %d\n", id,
			(unsigned long long)phys, MAX_IO_APICS);
		return -ENOSPC;
	}
	io = &ioapics[nr_ioapics];
	io->base = ioremap(phys, PAGE_SIZE);
	if (!io->base)
		return -ENOMEM;
	io->id = id;
	io->phys = phys;
	io->gsi_base = gsi_base;
	io->nr_pins = ((io_apic_read(io, IO_APIC_VER) >> 16) & 0xff) + 1;
	raw_spin_lock_init(&io->lock);
	nr_ioapics++;
	pr_info("IOAPIC[%u]: apic_id %u, version %#x, address %#llx, GSI %u-%u\n",
		nr_ioapics - 1, id, io_apic_read(io, IO_APIC_VER) & 0xff,
		(unsigned long long)phys, gsi_base, gsi_base + io->nr_pins - 1);
	return 0;
}

/* ISA defaults: identity GSI, edge, active high. */
static u8 isa_gsi[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
static bool isa_level[16], isa_active_low[16], isa_overridden[16];

void mp_override_legacy_irq(u8 isa_irq, u32 gsi, bool level, bool active_low)
{
	if (isa_irq >= 16)
		return;
	isa_overridden[isa_irq] = true;
	isa_gsi[isa_irq] = gsi;
	isa_level[isa_irq] = level;
	isa_active_low[isa_irq] = active_low;
}

int irq_to_gsi(unsigned int irq)
{
	struct irq_desc *desc = irq_to_desc(irq);

	return desc && desc->chip ? (int)desc->gsi : -1;
}

/* Is ISA @irq's identity GSI claimed by another ISA irq's override? */
static bool isa_gsi_taken(unsigned int irq)
{
	if (isa_overridden[irq])
		return false;
	for (unsigned int i = 0; i < 16; i++)
		if (i != irq && isa_overridden[i] && isa_gsi[i] == irq)
			return true;
	return false;
}

/* Mask every pin, then give each irq its line and default trigger. */
void setup_IO_APIC(void)
{
	for (unsigned int i = 0; i < nr_ioapics; i++)
		for (u32 pin = 0; pin < ioapics[i].nr_pins; pin++)
			io_apic_write(&ioapics[i], IO_APIC_RTE(pin), RTE_MASKED);

	for (unsigned int irq = 0; irq < NR_IRQS; irq++) {
		struct irq_desc *desc = irq_to_desc(irq);
		u32 pin;

		if (irq < 16 && isa_gsi_taken(irq)) {
			desc->chip = NULL;	/* e.g. IRQ2 when IRQ0 is on GSI2 */
			continue;
		}
		if (irq < 16) {
			desc->gsi = isa_gsi[irq];
			desc->level = isa_level[irq];
			desc->active_low = isa_active_low[irq];
		} else {
			desc->gsi = irq;
			desc->level = true;	/* PCI: level, active low */
			desc->active_low = true;
		}
		if (gsi_to_ioapic(desc->gsi, &pin))
			desc->chip = &ioapic_chip;
	}
}
