/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_APIC_H
#define _ASM_X86_APIC_H

#include <linux/types.h>

#define APIC_DEFAULT_PHYS_BASE	0xfee00000UL

/* Register offsets (xAPIC MMIO; x2APIC MSR = 0x800 + (offset >> 4)). */
#define APIC_ID		0x20
#define APIC_LVR	0x30
#define APIC_TASKPRI	0x80
#define APIC_EOI	0xb0
#define APIC_LDR	0xd0
#define APIC_DFR	0xe0
#define APIC_SPIV	0xf0
#define APIC_ISR	0x100
#define APIC_IRR	0x200
#define APIC_ESR	0x280
#define APIC_ICR	0x300
#define APIC_ICR2	0x310
#define APIC_LVTT	0x320
#define APIC_LVTPC	0x340
#define APIC_LVT0	0x350
#define APIC_LVT1	0x360
#define APIC_LVTERR	0x370
#define APIC_TMICT	0x380
#define APIC_TMCCT	0x390
#define APIC_TDCR	0x3e0

#define APIC_SPIV_APIC_ENABLED	(1U << 8)
#define APIC_LVT_MASKED		(1U << 16)
#define APIC_LVT_TIMER_TSCDEADLINE (2U << 17)
#define APIC_DM_FIXED		0x000
#define APIC_DM_NMI		0x400
#define APIC_DM_INIT		0x500
#define APIC_DM_STARTUP		0x600
#define APIC_DM_EXTINT		0x700
#define APIC_ICR_BUSY		0x1000
#define APIC_INT_LEVELTRIG	0x8000
#define APIC_INT_ASSERT		0x4000
#define APIC_DEST_SELF		0x40000
#define APIC_DEST_ALLINC	0x80000
#define APIC_DEST_ALLBUT	0xc0000
#define APIC_TDR_DIV_1		0xb

#define MSR_IA32_APICBASE		0x1b
#define MSR_IA32_APICBASE_BSP		(1UL << 8)
#define MSR_IA32_APICBASE_EXTD		(1UL << 10)
#define MSR_IA32_APICBASE_ENABLE	(1UL << 11)
#define MSR_IA32_TSC_DEADLINE		0x6e0

extern bool x2apic_mode;
extern u32 lapic_timer_khz;		/* one-shot mode: counts per ms */
extern bool lapic_use_tsc_deadline;

u32 apic_read(u32 reg);
void apic_write(u32 reg, u32 v);
u32 read_apic_id(void);
static inline void ack_APIC_irq(void)
{
	apic_write(APIC_EOI, 0);
}

void apic_bsp_setup(void);
/* Decisions, separate so they can be tested where the hardware lacks them. */
bool apic_want_x2apic(bool cpuid_x2apic, bool firmware_enabled);
bool apic_id_valid(u32 apicid, bool x2apic);
u64 x2apic_icr(u32 low, u32 apicid);
bool lapic_want_tsc_deadline(bool cpuid_tsc_deadline, bool allowed, bool tsc_known);
extern u64 lapic_phys_base;
void setup_local_APIC(void);
void clear_local_APIC(void);
void lapic_timer_quiesce(void);
void apic_icr_write(u32 low, u32 apicid);
bool apic_wait_icr_idle(void);
void apic_send_IPI(int cpu, int vector);
void apic_send_IPI_allbutself(int vector);
void apic_send_NMI(int cpu);
/* From NMI context: leaves the interrupted context's ICR2 as it found it. */
void apic_send_NMI_from_nmi(int cpu);

void setup_APIC_timer(void);
void lapic_timer_calibrate(void);

/* cpu <-> APIC ID maps, filled from the MADT. */
extern u32 cpu_to_apicid[];
int apicid_to_cpu(u32 apicid);

#endif
