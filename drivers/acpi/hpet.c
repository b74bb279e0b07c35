// SPDX-License-Identifier: GPL-2.0
/*
 * HPET table: where the HPET's register block is and what the firmware
 * says about it before the registers are mapped.  The clocksource and
 * clockevent code reads the registers themselves.
 */
#define pr_fmt(fmt) "ACPI: " fmt

#include <linux/acpi.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include "internal.h"

int acpi_parse_hpet(const struct acpi_table_hpet *hpet, struct acpi_hpet_info *out)
{
	const struct acpi_generic_address *gas = &hpet->address;
	int err;

	memset(out, 0, sizeof(*out));
	err = acpi_check_fixed(&hpet->header, ACPI_SIG_HPET, sizeof(*hpet), "HPET");
	if (err)
		return err;
	/* The HPET is memory-mapped by definition; anything else is a broken table. */
	if (gas->space_id != ACPI_ADR_SPACE_SYSTEM_MEMORY || !gas->address) {
		pr_warn("HPET: register block at %s 0x%llx is not usable; table ignored\n",
			acpi_space_name(gas->space_id), (unsigned long long)gas->address);
		return -EINVAL;
	}
	out->address = gas->address;
	out->hpet_number = hpet->sequence;
	out->nr_comparators = ((hpet->id & ACPI_HPET_ID_NUM_TIM_MASK) >>
			       ACPI_HPET_ID_NUM_TIM_SHIFT) + 1;
	out->counter_64bit = hpet->id & ACPI_HPET_ID_COUNT_SIZE_CAP;
	out->legacy_capable = hpet->id & ACPI_HPET_ID_LEGACY_CAPABLE;
	out->vendor_id = hpet->id >> ACPI_HPET_ID_VENDOR_SHIFT;
	out->min_tick = hpet->minimum_tick;
	out->page_protection = hpet->flags & 0xf;
	return 0;
}

void acpi_hpet_report(const struct acpi_hpet_info *info)
{
	pr_info("HPET: #%u at 0x%llx, %u comparators, %u-bit counter, min tick %u, vendor 0x%04x\n",
		info->hpet_number, (unsigned long long)info->address, info->nr_comparators,
		info->counter_64bit ? 64 : 32, info->min_tick, info->vendor_id);
}
