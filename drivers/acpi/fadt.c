// SPDX-License-Identifier: GPL-2.0
/*
 * FADT: the ACPI PM timer (a fixed 3.579545 MHz clock, a clocksource
 * candidate), the reset register (a way to reboot), the SCI and the
 * platform flags.  FADTs come in every length from ACPI 1.0's 116 bytes
 * up; fields past a table's end read as "not provided".
 */
#define pr_fmt(fmt) "ACPI: " fmt

#include <linux/acpi.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include "internal.h"

#define FADT2_REVISION_ID	3	/* the first FADT of ACPI 2.0 */

static bool gas_in_io_or_memory(const struct acpi_generic_address *g)
{
	return g->space_id == ACPI_ADR_SPACE_SYSTEM_IO ||
	       g->space_id == ACPI_ADR_SPACE_SYSTEM_MEMORY;
}

/* The 64-bit X_PM_TMR_BLK wins over the 32-bit port when both are there. */
static void fadt_pm_timer(const struct acpi_table_fadt *f, struct acpi_fadt_info *out)
{
	/* The specification makes PM_TMR_LEN 4 whenever there is a timer. */
	bool have32 = f->pm_timer_block && f->pm_timer_length >= 4;

	if (out->hw_reduced)
		return;
	if (f->xpm_timer_block.address && gas_in_io_or_memory(&f->xpm_timer_block)) {
		out->pm_timer = f->xpm_timer_block;
		if (!out->pm_timer.bit_width)
			out->pm_timer.bit_width = 32;
		if (have32 && f->pm_timer_block != f->xpm_timer_block.address)
			pr_warn("FADT: PM timer at 0x%x (32-bit field) and 0x%llx (64-bit field); using 0x%llx\n",
				f->pm_timer_block,
				(unsigned long long)f->xpm_timer_block.address,
				(unsigned long long)f->xpm_timer_block.address);
	} else if (have32) {
		out->pm_timer.space_id = ACPI_ADR_SPACE_SYSTEM_IO;
		out->pm_timer.bit_width = 32;
		out->pm_timer.address = f->pm_timer_block;
	}
	out->pm_timer_32bit = f->flags & ACPI_FADT_32BIT_TIMER;
}

/* The reset register must be a whole byte, and the flag must vouch for it. */
static void fadt_reset_register(const struct acpi_table_fadt *f, struct acpi_fadt_info *out)
{
	const struct acpi_generic_address *r = &f->reset_register;

	if (!(f->flags & ACPI_FADT_RESET_REGISTER) || !r->address)
		return;
	if (!gas_in_io_or_memory(r) && r->space_id != ACPI_ADR_SPACE_PCI_CONFIG) {
		pr_warn("FADT: reset register in address space %u; not used\n", r->space_id);
		return;
	}
	if (r->bit_width != 8 || r->bit_offset) {
		pr_warn("FADT: reset register is %u bits at bit %u, not a byte; not used\n",
			r->bit_width, r->bit_offset);
		return;
	}
	out->reset_supported = true;
	out->reset_reg = *r;
	out->reset_value = f->reset_value;
}

int acpi_parse_fadt(const struct acpi_table_fadt *fadt, struct acpi_fadt_info *out)
{
	struct acpi_table_fadt f;
	int err;

	memset(out, 0, sizeof(*out));
	err = acpi_check_fixed(&fadt->header, ACPI_SIG_FADT, ACPI_FADT_V1_SIZE, "FADT");
	if (err)
		return err;
	/* A zero-filled full-size copy: whatever an older FADT lacks reads 0. */
	memset(&f, 0, sizeof(f));
	memcpy(&f, fadt, min_t(u32, fadt->header.length, sizeof(f)));

	out->revision = f.header.revision;
	out->flags = f.flags;
	/* Reserved in ACPI 1.0, where old firmware left junk in it. */
	if (f.header.revision >= FADT2_REVISION_ID)
		out->boot_flags = f.boot_flags;
	out->sci_interrupt = f.sci_interrupt;
	out->hw_reduced = f.flags & ACPI_FADT_HW_REDUCED;
	fadt_pm_timer(&f, out);
	fadt_reset_register(&f, out);
	out->dsdt = f.Xdsdt ? f.Xdsdt : f.dsdt;
	out->facs = f.Xfacs ? f.Xfacs : f.facs;
	return 0;
}

void acpi_fadt_report(const struct acpi_fadt_info *info)
{
	char timer[64] = "no PM timer", reset[80] = "no reset register";

	if (info->pm_timer.address)
		snprintf(timer, sizeof(timer), "PM timer at %s 0x%llx (%u-bit)",
			 acpi_space_name(info->pm_timer.space_id),
			 (unsigned long long)info->pm_timer.address,
			 info->pm_timer_32bit ? 32 : 24);
	if (info->reset_supported)
		snprintf(reset, sizeof(reset), "reset register %s 0x%llx value 0x%02x",
			 acpi_space_name(info->reset_reg.space_id),
			 (unsigned long long)info->reset_reg.address, info->reset_value);
	pr_info("FADT: rev %u, %s, %s, SCI IRQ %u%s\n", info->revision, timer, reset,
		info->sci_interrupt, info->hw_reduced ? ", HW-reduced" : "");
}
