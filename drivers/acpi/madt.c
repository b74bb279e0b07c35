// SPDX-License-Identifier: GPL-2.0
/*
 * MADT: which CPUs exist (local APIC and local x2APIC entries), where the
 * IOAPICs are, how ISA IRQs reach them (interrupt source overrides) and
 * where NMIs come in.  The result is a plain struct acpi_madt_info for
 * the APIC and SMP code, which never sees the table itself.
 */
#define pr_fmt(fmt) "ACPI: " fmt

#include <linux/acpi.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include "internal.h"

#define NR_ISA_IRQS	16
#define MADT_REV_ONLINE_CAPABLE	5	/* ACPI 6.3 gave the bit a meaning */

/* The shortest entry each type may have; later revisions only grow them. */
static const u8 madt_min_length[] = {
	[ACPI_MADT_TYPE_LOCAL_APIC] = sizeof(struct acpi_madt_local_apic),
	[ACPI_MADT_TYPE_IO_APIC] = sizeof(struct acpi_madt_io_apic),
	[ACPI_MADT_TYPE_INTERRUPT_OVERRIDE] = sizeof(struct acpi_madt_interrupt_override),
	[ACPI_MADT_TYPE_NMI_SOURCE] = sizeof(struct acpi_madt_nmi_source),
	[ACPI_MADT_TYPE_LOCAL_APIC_NMI] = sizeof(struct acpi_madt_local_apic_nmi),
	[ACPI_MADT_TYPE_LOCAL_APIC_OVERRIDE] = sizeof(struct acpi_madt_local_apic_override),
	[ACPI_MADT_TYPE_LOCAL_X2APIC] = sizeof(struct acpi_madt_local_x2apic),
	[ACPI_MADT_TYPE_LOCAL_X2APIC_NMI] = sizeof(struct acpi_madt_local_x2apic_nmi),
};

static void madt_add_cpu(struct acpi_madt_info *out, u32 apic_id, u32 uid,
			 u32 flags, bool x2apic)
{
	bool enabled = flags & ACPI_MADT_ENABLED;
	bool capable = out->revision >= MADT_REV_ONLINE_CAPABLE &&
		       (flags & ACPI_MADT_ONLINE_CAPABLE);
	struct acpi_cpu_info *c;

	/*
	 * Before revision 5 a disabled entry may still be hot-added; from
	 * revision 5 on, disabled and not online-capable means never usable.
	 */
	if (!enabled && !capable && out->revision >= MADT_REV_ONLINE_CAPABLE)
		return;
	for (unsigned int i = 0; i < out->nr_cpus; i++) {
		if (out->cpus[i].apic_id == apic_id) {
			pr_warn("MADT: APIC ID 0x%x listed twice; second entry ignored\n",
				apic_id);
			return;
		}
	}
	if (out->nr_cpus == CONFIG_NR_CPUS) {
		out->nr_cpus_ignored++;
		return;
	}
	c = &out->cpus[out->nr_cpus++];
	c->apic_id = apic_id;
	c->acpi_uid = uid;
	c->enabled = enabled;
	c->online_capable = !enabled && capable;
	c->x2apic = x2apic;
	if (enabled)
		out->nr_enabled++;
}

static void madt_add_ioapic(struct acpi_madt_info *out, const struct acpi_madt_io_apic *p)
{
	struct acpi_ioapic_info *io;

	if (out->nr_ioapics == ACPI_MAX_IOAPICS) {
		pr_warn("MADT: more than %d IOAPICs; IOAPIC %u at 0x%x ignored\n",
			ACPI_MAX_IOAPICS, p->id, p->address);
		return;
	}
	io = &out->ioapics[out->nr_ioapics++];
	io->id = p->id;
	io->addr = p->address;
	io->gsi_base = p->global_irq_base;
}

static void madt_add_override(struct acpi_madt_info *out,
			      const struct acpi_madt_interrupt_override *p)
{
	struct acpi_override_info *o;

	for (unsigned int i = 0; i < out->nr_overrides; i++) {
		if (out->overrides[i].source_irq == p->source_irq) {
			pr_warn("MADT: second override for IRQ %u ignored\n", p->source_irq);
			return;
		}
	}
	if (out->nr_overrides == ACPI_MAX_OVERRIDES) {
		pr_warn("MADT: more than %d overrides; IRQ %u -> GSI %u ignored\n",
			ACPI_MAX_OVERRIDES, p->source_irq, p->global_irq);
		return;
	}
	o = &out->overrides[out->nr_overrides++];
	o->bus = p->bus;
	o->source_irq = p->source_irq;
	o->gsi = p->global_irq;
	o->flags = p->inti_flags;
}

static void madt_add_nmi_source(struct acpi_madt_info *out,
				const struct acpi_madt_nmi_source *p)
{
	struct acpi_nmi_source_info *n;

	if (out->nr_nmi_sources == ACPI_MAX_NMI_SOURCES) {
		pr_warn("MADT: more than %d NMI sources; GSI %u ignored\n",
			ACPI_MAX_NMI_SOURCES, p->global_irq);
		return;
	}
	n = &out->nmi_sources[out->nr_nmi_sources++];
	n->gsi = p->global_irq;
	n->flags = p->inti_flags;
}

static void madt_add_lapic_nmi(struct acpi_madt_info *out, u32 uid, u8 lint,
			       u16 flags, bool x2apic)
{
	struct acpi_lapic_nmi_info *n;

	if (out->nr_lapic_nmis == ACPI_MAX_LAPIC_NMIS) {
		pr_warn("MADT: more than %d local APIC NMI entries; UID 0x%x ignored\n",
			ACPI_MAX_LAPIC_NMIS, uid);
		return;
	}
	n = &out->lapic_nmis[out->nr_lapic_nmis++];
	n->acpi_uid = uid;
	n->lint = lint;
	n->flags = flags;
	n->x2apic = x2apic;
}

static void madt_parse_entry(struct acpi_madt_info *out,
			     const struct acpi_subtable_header *sub)
{
	const void *e = sub;

	switch (sub->type) {
	case ACPI_MADT_TYPE_LOCAL_APIC: {
		const struct acpi_madt_local_apic *p = e;

		/* 0xff is no xAPIC ID: such CPUs come as x2APIC entries. */
		if (p->id != 0xff)
			madt_add_cpu(out, p->id, p->processor_id, p->lapic_flags, false);
		break;
	}
	case ACPI_MADT_TYPE_LOCAL_X2APIC: {
		const struct acpi_madt_local_x2apic *p = e;

		if (p->local_apic_id != 0xffffffff)
			madt_add_cpu(out, p->local_apic_id, p->uid, p->lapic_flags, true);
		break;
	}
	case ACPI_MADT_TYPE_IO_APIC:
		madt_add_ioapic(out, e);
		break;
	case ACPI_MADT_TYPE_INTERRUPT_OVERRIDE:
		madt_add_override(out, e);
		break;
	case ACPI_MADT_TYPE_NMI_SOURCE:
		madt_add_nmi_source(out, e);
		break;
	case ACPI_MADT_TYPE_LOCAL_APIC_NMI: {
		const struct acpi_madt_local_apic_nmi *p = e;
		u32 uid = p->processor_id == 0xff ? ACPI_UID_ALL_CPUS : p->processor_id;

		madt_add_lapic_nmi(out, uid, p->lint, p->inti_flags, false);
		break;
	}
	case ACPI_MADT_TYPE_LOCAL_X2APIC_NMI: {
		const struct acpi_madt_local_x2apic_nmi *p = e;

		madt_add_lapic_nmi(out, p->uid, p->lint, p->inti_flags, true);
		break;
	}
	case ACPI_MADT_TYPE_LOCAL_APIC_OVERRIDE: {
		const struct acpi_madt_local_apic_override *p = e;

		out->lapic_addr = p->address;
		out->lapic_addr_override = true;
		break;
	}
	default:
		break;	/* other architectures' controllers */
	}
}

/*
 * @madt has passed the table checksum; here its length and every entry's
 * are checked.  On any inconsistency the whole table is refused and @out
 * is left empty: a MADT that lies about one entry cannot be trusted
 * about the CPUs.
 */
int acpi_parse_madt(const struct acpi_table_madt *madt, struct acpi_madt_info *out)
{
	const struct acpi_table_header *h = &madt->header;
	const struct acpi_subtable_header *sub;
	int err;

	memset(out, 0, sizeof(*out));
	err = acpi_check_fixed(h, ACPI_SIG_MADT, sizeof(*madt), "MADT");
	if (!err)
		err = acpi_check_subtables(h, sizeof(*madt), "MADT", madt_min_length,
					   ARRAY_SIZE(madt_min_length));
	if (err)
		return err;

	out->revision = h->revision;
	out->lapic_addr = madt->address;
	out->pcat_compat = madt->flags & ACPI_MADT_PCAT_COMPAT;
	acpi_for_each_subtable(sub, h, sizeof(*madt))
		madt_parse_entry(out, sub);
	if (out->nr_cpus_ignored)
		pr_warn("MADT: %u CPUs beyond CONFIG_NR_CPUS=%d ignored\n",
			out->nr_cpus_ignored, CONFIG_NR_CPUS);
	return 0;
}

int acpi_madt_irq_to_gsi(const struct acpi_madt_info *info, u8 isa_irq,
			 u32 *gsi, u16 *flags)
{
	unsigned int n = info ? info->nr_overrides : 0;

	if (isa_irq >= NR_ISA_IRQS)
		return -EINVAL;
	for (unsigned int i = 0; i < n; i++) {
		if (info->overrides[i].source_irq == isa_irq) {
			*gsi = info->overrides[i].gsi;
			*flags = info->overrides[i].flags;
			return 0;
		}
	}
	/* Identity, unless that pin now carries another IRQ (IRQ0 on pin 2). */
	for (unsigned int i = 0; i < n; i++)
		if (info->overrides[i].gsi == isa_irq)
			return -EBUSY;
	*gsi = isa_irq;
	*flags = 0;
	return 0;
}

int acpi_irq_to_gsi(u8 isa_irq, u32 *gsi, u16 *flags)
{
	return acpi_madt_irq_to_gsi(acpi_get_madt_info(), isa_irq, gsi, flags);
}

/*
 * "Conforms" means the bus default, which for ISA is active high, edge.
 * The reserved encodings are read as active low / level, as Linux does,
 * so both kernels program a pin the same way on the same firmware.
 */
int acpi_override_polarity(u16 inti_flags)
{
	switch (inti_flags & ACPI_MADT_POLARITY_MASK) {
	case ACPI_MADT_POLARITY_CONFORMS:
	case ACPI_MADT_POLARITY_ACTIVE_HIGH:
		return ACPI_ACTIVE_HIGH;
	case ACPI_MADT_POLARITY_RESERVED:
		pr_warn("MADT: reserved polarity in flags 0x%x; using active low\n",
			inti_flags);
		return ACPI_ACTIVE_LOW;
	default:
		return ACPI_ACTIVE_LOW;
	}
}

int acpi_override_trigger(u16 inti_flags)
{
	switch (inti_flags & ACPI_MADT_TRIGGER_MASK) {
	case ACPI_MADT_TRIGGER_CONFORMS:
	case ACPI_MADT_TRIGGER_EDGE:
		return ACPI_EDGE_SENSITIVE;
	case ACPI_MADT_TRIGGER_RESERVED:
		pr_warn("MADT: reserved trigger mode in flags 0x%x; using level\n",
			inti_flags);
		return ACPI_LEVEL_SENSITIVE;
	default:
		return ACPI_LEVEL_SENSITIVE;
	}
}

/* The words Linux prints for INTI flags, so boot logs compare line by line. */
static const char *const polarity_names[] = { "dfl", "high", "res", "low" };
static const char *const trigger_names[] = { "dfl", "edge", "res", "level" };

static const char *pol_name(u16 flags)
{
	return polarity_names[flags & ACPI_MADT_POLARITY_MASK];
}

static const char *trig_name(u16 flags)
{
	return trigger_names[(flags & ACPI_MADT_TRIGGER_MASK) >> 2];
}

void acpi_madt_report(const struct acpi_madt_info *m)
{
	unsigned int capable = 0, disabled = m->nr_cpus - m->nr_enabled;
	char extra[64] = "";

	for (unsigned int i = 0; i < m->nr_lapic_nmis; i++) {
		const struct acpi_lapic_nmi_info *n = &m->lapic_nmis[i];

		if (n->x2apic)
			pr_info("X2APIC_NMI (uid[0x%02x] %s %s lint[0x%x])\n", n->acpi_uid,
				pol_name(n->flags), trig_name(n->flags), n->lint);
		else
			pr_info("LAPIC_NMI (acpi_id[0x%02x] %s %s lint[0x%x])\n",
				n->acpi_uid & 0xff, pol_name(n->flags), trig_name(n->flags),
				n->lint);
	}
	for (unsigned int i = 0; i < m->nr_overrides; i++) {
		const struct acpi_override_info *o = &m->overrides[i];

		pr_info("INT_SRC_OVR (bus %u bus_irq %u global_irq %u %s %s)\n", o->bus,
			o->source_irq, o->gsi, pol_name(o->flags), trig_name(o->flags));
	}
	for (unsigned int i = 0; i < m->nr_nmi_sources; i++)
		pr_info("NMI_SRC (%s %s global_irq %u)\n", pol_name(m->nmi_sources[i].flags),
			trig_name(m->nmi_sources[i].flags), m->nmi_sources[i].gsi);

	for (unsigned int i = 0; i < m->nr_cpus; i++)
		capable += m->cpus[i].online_capable;
	if (disabled)
		snprintf(extra, sizeof(extra), " (%u disabled, %u online-capable)",
			 disabled, capable);
	pr_info("MADT: %u CPU%s%s, %u IOAPIC%s, %u override%s, LAPIC at 0x%llx%s%s\n",
		m->nr_cpus, m->nr_cpus == 1 ? "" : "s", extra,
		m->nr_ioapics, m->nr_ioapics == 1 ? "" : "s",
		m->nr_overrides, m->nr_overrides == 1 ? "" : "s",
		(unsigned long long)m->lapic_addr,
		m->lapic_addr_override ? " (64-bit override)" : "",
		m->pcat_compat ? ", 8259 PICs present" : "");
}
