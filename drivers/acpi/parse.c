// SPDX-License-Identifier: GPL-2.0
/*
 * What the table parsers share (length and subtable checks), and the
 * boot-time parse of the tables irqlab uses, whose results the rest of the
 * kernel reads through the acpi_get_*_info() accessors.
 */
#define pr_fmt(fmt) "ACPI: " fmt

#include <linux/acpi.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include "internal.h"

/* The layouts are the specification's; catch a field typed wrongly. */
BUILD_BUG_ON(sizeof(struct acpi_generic_address) != 12);
BUILD_BUG_ON(sizeof(struct acpi_table_rsdp) != 36);
BUILD_BUG_ON(sizeof(struct acpi_table_header) != 36);
BUILD_BUG_ON(sizeof(struct acpi_table_madt) != 44);
BUILD_BUG_ON(sizeof(struct acpi_madt_local_apic) != 8);
BUILD_BUG_ON(sizeof(struct acpi_madt_io_apic) != 12);
BUILD_BUG_ON(sizeof(struct acpi_madt_interrupt_override) != 10);
BUILD_BUG_ON(sizeof(struct acpi_madt_nmi_source) != 8);
BUILD_BUG_ON(sizeof(struct acpi_madt_local_apic_nmi) != 6);
BUILD_BUG_ON(sizeof(struct acpi_madt_local_apic_override) != 12);
BUILD_BUG_ON(sizeof(struct acpi_madt_local_x2apic) != 16);
BUILD_BUG_ON(sizeof(struct acpi_madt_local_x2apic_nmi) != 12);
BUILD_BUG_ON(offsetof(struct acpi_table_fadt, reset_register) != ACPI_FADT_V1_SIZE);
BUILD_BUG_ON(offsetof(struct acpi_table_fadt, sleep_control) != ACPI_FADT_V3_SIZE);
BUILD_BUG_ON(sizeof(struct acpi_table_fadt) != 276);
BUILD_BUG_ON(sizeof(struct acpi_table_hpet) != 56);
BUILD_BUG_ON(sizeof(struct acpi_table_srat) != 48);
BUILD_BUG_ON(sizeof(struct acpi_srat_cpu_affinity) != 16);
BUILD_BUG_ON(sizeof(struct acpi_srat_mem_affinity) != 40);
BUILD_BUG_ON(sizeof(struct acpi_srat_x2apic_cpu_affinity) != 24);
BUILD_BUG_ON(sizeof(struct acpi_table_spcr) != 80);

static struct acpi_madt_info madt_info;
static struct acpi_fadt_info fadt_info;
static struct acpi_hpet_info hpet_info;
static struct acpi_srat_info srat_info;
static struct acpi_spcr_info spcr_info;
static bool have_madt, have_fadt, have_hpet, have_srat, have_spcr;

const char *acpi_space_name(u8 space_id)
{
	switch (space_id) {
	case ACPI_ADR_SPACE_SYSTEM_MEMORY:
		return "MMIO";
	case ACPI_ADR_SPACE_SYSTEM_IO:
		return "I/O";
	case ACPI_ADR_SPACE_PCI_CONFIG:
		return "PCI config";
	default:
		return "unknown space";
	}
}

int acpi_check_fixed(const struct acpi_table_header *table, const char *signature,
		     u32 fixed, const char *name)
{
	if (memcmp(table->signature, signature, ACPI_NAMESEG_SIZE)) {
		char got[5];

		acpi_copy_text(got, table->signature, ACPI_NAMESEG_SIZE);
		pr_warn("%s: signature '%s', expected '%.4s'; table ignored\n", name, got,
			signature);
		return -EINVAL;
	}
	if (table->length < fixed) {
		pr_warn("%s: length %u is shorter than its fixed part (%u); table ignored\n",
			name, table->length, fixed);
		return -EINVAL;
	}
	return 0;
}

/*
 * Check every subtable before any is used, so a table is either parsed
 * whole or not at all: a length below the 2-byte entry header (0 would
 * loop forever), below what the entry's type needs, or running past the
 * table's end rejects the table.
 */
int acpi_check_subtables(const struct acpi_table_header *table, u32 fixed,
			 const char *name, const u8 *min_length, unsigned int nr_types)
{
	const u32 len = table->length;

	for (u32 off = fixed; off < len; ) {
		const struct acpi_subtable_header *sub = (const void *)table + off;
		u32 need;

		if (len - off < sizeof(*sub)) {
			pr_warn("%s: entry at offset 0x%x runs past the end of the table (length %u); table ignored\n",
				name, off, len);
			return -EINVAL;
		}
		if (sub->length < sizeof(*sub)) {
			pr_warn("%s: entry at offset 0x%x (type %u) has length %u; table ignored\n",
				name, off, sub->type, sub->length);
			return -EINVAL;
		}
		if (sub->length > len - off) {
			pr_warn("%s: entry at offset 0x%x (type %u, length %u) runs past the end of the table (length %u); table ignored\n",
				name, off, sub->type, sub->length, len);
			return -EINVAL;
		}
		need = sub->type < nr_types ? min_length[sub->type] : 0;
		if (sub->length < need) {
			pr_warn("%s: type %u entry at offset 0x%x has length %u, needs %u; table ignored\n",
				name, sub->type, off, sub->length, need);
			return -EINVAL;
		}
		off += sub->length;
	}
	return 0;
}

void acpi_parse_boot_tables(void)
{
	const void *t;

	t = acpi_get_table(ACPI_SIG_MADT, 0);
	have_madt = t && !acpi_parse_madt(t, &madt_info);
	if (have_madt)
		acpi_madt_report(&madt_info);
	else
		pr_warn("MADT: none usable: one CPU, no IOAPIC\n");

	t = acpi_get_table(ACPI_SIG_FADT, 0);
	have_fadt = t && !acpi_parse_fadt(t, &fadt_info);
	if (have_fadt)
		acpi_fadt_report(&fadt_info);

	t = acpi_get_table(ACPI_SIG_HPET, 0);
	have_hpet = t && !acpi_parse_hpet(t, &hpet_info);
	if (have_hpet)
		acpi_hpet_report(&hpet_info);

	t = acpi_get_table(ACPI_SIG_SRAT, 0);
	have_srat = t && !acpi_parse_srat(t, &srat_info) && srat_info.nr_nodes;
	if (have_srat)
		acpi_srat_report(&srat_info);
	else
		pr_info("SRAT: %s; all CPUs and memory on node 0\n", t ? "unusable" : "none");

	t = acpi_get_table(ACPI_SIG_SPCR, 0);
	have_spcr = t && !acpi_parse_spcr(t, &spcr_info);
	if (have_spcr)
		acpi_spcr_report(&spcr_info);
}

const struct acpi_madt_info *acpi_get_madt_info(void)
{
	return have_madt ? &madt_info : NULL;
}

const struct acpi_fadt_info *acpi_get_fadt_info(void)
{
	return have_fadt ? &fadt_info : NULL;
}

const struct acpi_hpet_info *acpi_get_hpet_info(void)
{
	return have_hpet ? &hpet_info : NULL;
}

const struct acpi_srat_info *acpi_get_srat_info(void)
{
	return have_srat ? &srat_info : NULL;
}

const struct acpi_spcr_info *acpi_get_spcr_info(void)
{
	return have_spcr ? &spcr_info : NULL;
}
