/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_HPET_H
#define _ASM_X86_HPET_H

#include <linux/types.h>

#define HPET_ID		0x000
#define HPET_PERIOD	0x004	/* high half of the capabilities: fs per tick */
#define HPET_CFG	0x010
#define HPET_COUNTER	0x0f0
#define HPET_CFG_ENABLE	0x001
#define HPET_CFG_LEGACY	0x002	/* timer 0 on IRQ0 (IOAPIC pin 2), timer 1 on IRQ8 */
#define HPET_ID_LEGSUP	0x8000
#define HPET_Tn_CFG(n)	(0x100 + 0x20 * (n))
#define HPET_Tn_CMP(n)	(0x108 + 0x20 * (n))
#define HPET_TN_LEVEL		0x0002
#define HPET_TN_ENABLE		0x0004
#define HPET_TN_PERIODIC	0x0008
#define HPET_TN_PERIODIC_CAP	0x0010
#define HPET_TN_SETVAL		0x0040
#define HPET_TN_32BIT		0x0100
#define HPET_TN_FSB		0x4000
#define HPET_TN_FSB_CAP		0x8000

/* The IOAPIC input the legacy replacement route puts timer 0 on. */
#define HPET_LEGACY_GSI	2

extern u64 hpet_freq_hz;	/* 0: no HPET */

bool hpet_enable(u64 phys);
u64 hpet_readl_counter(void);

/*
 * Timer 0 as a periodic NMI source for the sampling profiler: @hz times
 * a second through the legacy route and the IOAPIC, delivered as an NMI
 * to @cpu.  Returns 0, or -ENODEV / -EBUSY / -EINVAL with @why filled in.
 */
int hpet_nmi_start(unsigned int hz, unsigned int cpu, char *why, size_t len);
/* The same with a period (the lockup detector's are seconds long). */
int hpet_nmi_start_period(u64 *period_ns, unsigned int cpu, char *why, size_t len);
void hpet_nmi_stop(void);
/* NMI context: has timer 0 fired since the last call?  @periods: how often. */
bool hpet_nmi_fired(u64 *periods);

#endif
