// SPDX-License-Identifier: GPL-2.0
/*
 * What the x86 code takes from ACPI: CPUs and their APIC IDs, the local
 * APIC address, IOAPICs and ISA interrupt overrides from the MADT, and the
 * HPET address.  Without usable tables the kernel runs on the boot CPU
 * alone with the architectural default APIC address.
 */
#include <linux/kernel.h>
#include <linux/acpi.h>
#include <asm/apic.h>
#include <asm/io_apic.h>

u64 acpi_lapic_addr;
u64 acpi_hpet_addr;

int generic_processor_info(u32 apicid);

static void acpi_parse_madt_cpus(const struct acpi_madt_info *m)
{
	/* The parser already warned about CPUs beyond CONFIG_NR_CPUS. */
	for (unsigned int i = 0; i < m->nr_cpus; i++) {
		if (m->cpus[i].enabled)
			generic_processor_info(m->cpus[i].apic_id);
	}
}

static void acpi_parse_madt_ioapics(const struct acpi_madt_info *m)
{
	for (unsigned int i = 0; i < m->nr_ioapics; i++)
		mp_register_ioapic(m->ioapics[i].id, m->ioapics[i].addr,
				   m->ioapics[i].gsi_base);
	for (unsigned int i = 0; i < m->nr_overrides; i++) {
		const struct acpi_override_info *o = &m->overrides[i];

		if (o->bus != 0)	/* only ISA sources are overridden */
			continue;
		mp_override_legacy_irq(o->source_irq, o->gsi,
				       acpi_override_trigger(o->flags) == ACPI_LEVEL_SENSITIVE,
				       acpi_override_polarity(o->flags) == ACPI_ACTIVE_LOW);
	}
}

void acpi_boot_init(void)
{
	const struct acpi_madt_info *madt;
	const struct acpi_hpet_info *hpet;

	if (acpi_table_init()) {
		pr_warn("ACPI: no usable tables: one CPU, default APIC, no IOAPIC\n");
		return;
	}
	madt = acpi_get_madt_info();
	if (madt) {
		acpi_lapic_addr = madt->lapic_addr;
		if (acpi_lapic_addr != lapic_phys_base)
			pr_warn("ACPI: MADT puts the local APIC at %#llx, the APIC base MSR at %#llx; using the MSR\n",
				(unsigned long long)acpi_lapic_addr,
				(unsigned long long)lapic_phys_base);
		acpi_parse_madt_cpus(madt);
		acpi_parse_madt_ioapics(madt);
	} else {
		pr_warn("ACPI: no MADT: one CPU, no IOAPIC\n");
	}
	hpet = acpi_get_hpet_info();
	if (hpet)
		acpi_hpet_addr = hpet->address;
}
