/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_IO_APIC_H
#define _ASM_X86_IO_APIC_H

#include <linux/types.h>

#define MAX_IO_APICS	8

int mp_register_ioapic(u8 id, u64 phys, u32 gsi_base);
/* An ACPI interrupt source override: ISA @isa_irq arrives on @gsi. */
void mp_override_legacy_irq(u8 isa_irq, u32 gsi, bool level, bool active_low);
void setup_IO_APIC(void);
unsigned int nr_ioapics_registered(void);
/* The pin an irq is routed to, for tests: -1 if none. */
int irq_to_gsi(unsigned int irq);
/*
 * Deliver @gsi to @cpu as an NMI (edge, physical destination) and return
 * the entry it replaced in @saved; ioapic_restore_rte() puts that back.
 */
int ioapic_route_nmi(u32 gsi, unsigned int cpu, u64 *saved);
void ioapic_restore_rte(u32 gsi, u64 saved);

#endif
