/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _DRIVERS_ACPI_INTERNAL_H
#define _DRIVERS_ACPI_INTERNAL_H

/* Shared by the table parsers in drivers/acpi; not for the rest of the kernel. */
#include <linux/acpi.h>

int acpi_check_fixed(const struct acpi_table_header *table, const char *signature,
		     u32 fixed, const char *name);
int acpi_check_subtables(const struct acpi_table_header *table, u32 fixed,
			 const char *name, const u8 *min_length, unsigned int nr_types);
const char *acpi_space_name(u8 space_id);
void acpi_copy_text(char *dst, const char *src, size_t n);
void acpi_parse_boot_tables(void);

/*
 * Walk the subtables after the @fixed part of @table.  Only for tables
 * that passed acpi_check_subtables(): that is what makes every length
 * non-zero and every entry end inside the table.
 */
#define acpi_for_each_subtable(sub, table, fixed)				\
	for ((sub) = (const void *)(table) + (fixed);				\
	     (const void *)(sub) < (const void *)(table) + (table)->length;	\
	     (sub) = (const void *)(sub) + (sub)->length)

void acpi_madt_report(const struct acpi_madt_info *info);
void acpi_fadt_report(const struct acpi_fadt_info *info);
void acpi_hpet_report(const struct acpi_hpet_info *info);
void acpi_srat_report(const struct acpi_srat_info *info);
void acpi_spcr_report(const struct acpi_spcr_info *info);

#endif /* _DRIVERS_ACPI_INTERNAL_H */
