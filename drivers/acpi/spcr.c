// SPDX-License-Identifier: GPL-2.0
/*
 * SPCR: the serial port the firmware redirects its console to, so the
 * kernel can keep using it (servers and cloud VMs where COM1 at 0x3f8 is
 * not a given).  Only what a 16550 console needs is extracted.
 */
#define pr_fmt(fmt) "ACPI: " fmt

#include <linux/acpi.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include "internal.h"

static bool spcr_is_16550(u8 type)
{
	return type == ACPI_DBG2_16550_COMPATIBLE || type == ACPI_DBG2_16550_SUBSET ||
	       type == ACPI_DBG2_16550_WITH_GAS;
}

/* 0 keeps the speed the firmware programmed; unknown codes do the same. */
static u32 spcr_baud(u8 code)
{
	switch (code) {
	case ACPI_SPCR_BAUD_AS_IS:
		return 0;
	case ACPI_SPCR_BAUD_9600:
		return 9600;
	case ACPI_SPCR_BAUD_19200:
		return 19200;
	case ACPI_SPCR_BAUD_57600:
		return 57600;
	case ACPI_SPCR_BAUD_115200:
		return 115200;
	default:
		pr_warn("SPCR: unknown baud rate code %u; keeping the firmware's setting\n",
			code);
		return 0;
	}
}

int acpi_parse_spcr(const struct acpi_table_spcr *spcr, struct acpi_spcr_info *out)
{
	const struct acpi_generic_address *gas = &spcr->serial_port;
	int err;

	memset(out, 0, sizeof(*out));
	err = acpi_check_fixed(&spcr->header, ACPI_SIG_SPCR, sizeof(*spcr), "SPCR");
	if (err)
		return err;
	if (!gas->address || (gas->space_id != ACPI_ADR_SPACE_SYSTEM_IO &&
			      gas->space_id != ACPI_ADR_SPACE_SYSTEM_MEMORY)) {
		pr_warn("SPCR: serial port at %s 0x%llx is not usable; table ignored\n",
			acpi_space_name(gas->space_id), (unsigned long long)gas->address);
		return -EINVAL;
	}
	out->revision = spcr->header.revision;
	out->interface_type = spcr->interface_type;
	out->is_16550 = spcr_is_16550(spcr->interface_type);
	out->serial_port = *gas;
	out->baud = spcr_baud(spcr->baud_rate);
	if (spcr->interrupt_type & ACPI_SPCR_INTR_8259) {
		out->has_irq = true;
		out->irq = spcr->pc_interrupt;
	}
	if (spcr->interrupt_type & (ACPI_SPCR_INTR_IO_APIC | ACPI_SPCR_INTR_IO_SAPIC)) {
		out->has_gsi = true;
		out->gsi = spcr->interrupt;
	}
	out->terminal_type = spcr->terminal_type;
	return 0;
}

void acpi_spcr_report(const struct acpi_spcr_info *info)
{
	char irq[40] = "polled", baud[24] = "firmware's speed";

	if (info->baud)
		snprintf(baud, sizeof(baud), "%u baud", info->baud);
	if (info->has_gsi)
		snprintf(irq, sizeof(irq), "GSI %u", info->gsi);
	else if (info->has_irq)
		snprintf(irq, sizeof(irq), "IRQ %u", info->irq);
	pr_info("SPCR: %s (type 0x%02x) at %s 0x%llx, %s, %s\n",
		info->is_16550 ? "16550" : "non-16550 UART", info->interface_type,
		acpi_space_name(info->serial_port.space_id),
		(unsigned long long)info->serial_port.address, baud, irq);
}
