/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_TSC_H
#define _ASM_X86_TSC_H

#include <linux/types.h>

extern unsigned long tsc_khz;
extern const char *tsc_calibration_source;

void tsc_early_init(void);
void tsc_init(void);
u64 cycles_to_ns(u64 cycles);

#define CYC2NS_SHIFT	22
extern u32 cyc2ns_mul;

/* cycles_to_ns() inline, for the latency tracers' hot path. */
static inline u64 __cycles_to_ns(u64 cycles)
{
	return (u64)(((unsigned __int128)cycles * cyc2ns_mul) >> CYC2NS_SHIFT);
}
const char *tsc_clock_mode(void);
unsigned long tsc_khz_from_cpuid15(u32 den, u32 num, u32 crystal_hz);
/* Tests: one HPET measurement (kHz, 0: none), stalled @stall_us inside its first reference. */
unsigned long tsc_calibrate_hpet(unsigned int stall_us);

#endif
