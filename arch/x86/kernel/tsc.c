// SPDX-License-Identifier: GPL-2.0
/*
 * Early TSC frequency, for printk timestamps and boot timing: CPUID 15h
 * when it names the crystal (leaf 16h is only the base frequency and is
 * not used), else a PIT channel 2 gate measurement.  The interrupts/time
 * issue adds the HPET path and the cross-CPU checks.
 */
#include <linux/kernel.h>
#include <linux/sched/clock.h>
#include <asm/tsc.h>
#include <asm/processor.h>
#include <asm/io.h>

#define PIT_TICK_RATE	1193182UL
#define CAL_MS		10
#define CAL_LATCH	(PIT_TICK_RATE / (1000 / CAL_MS))

unsigned long tsc_khz;
const char *tsc_calibration_source = "none";
static u64 tsc_boot;
static u32 cyc2ns_mul;		/* ns = cycles * mul >> CYC2NS_SHIFT */
#define CYC2NS_SHIFT	22

static unsigned long tsc_from_cpuid(void)
{
	u32 den, num, crystal_hz, d;

	if (boot_cpu_data.max_leaf < 0x15)
		return 0;
	cpuid(0x15, &den, &num, &crystal_hz, &d);
	if (!den || !num || !crystal_hz)
		return 0;
	return (u64)crystal_hz * num / den / 1000;
}

/* Count TSC cycles while PIT channel 2 counts down CAL_LATCH ticks. */
static unsigned long tsc_from_pit(void)
{
	u64 t0, t1;
	unsigned long spins = 0;

	/* Gate high, speaker off. */
	outb((inb(0x61) & ~0x02) | 0x01, 0x61);
	/* Channel 2, lobyte/hibyte, mode 0 (interrupt on terminal count). */
	outb(0xb0, 0x43);
	outb(CAL_LATCH & 0xff, 0x42);
	outb(CAL_LATCH >> 8, 0x42);
	t0 = rdtsc_ordered();
	/* OUT2 (bit 5 of port 0x61) goes high when the count reaches zero. */
	while (!(inb(0x61) & 0x20)) {
		if (++spins > 100000000)
			return 0;	/* no PIT: leave the TSC uncalibrated */
	}
	t1 = rdtsc_ordered();
	return (t1 - t0) / CAL_MS;
}

void tsc_early_init(void)
{
	tsc_boot = rdtsc();
	tsc_khz = tsc_from_cpuid();
	if (tsc_khz) {
		tsc_calibration_source = "CPUID 15h";
	} else {
		tsc_khz = tsc_from_pit();
		tsc_calibration_source = tsc_khz ? "PIT" : "none";
	}
	if (tsc_khz)
		cyc2ns_mul = ((1000000ULL << CYC2NS_SHIFT) + tsc_khz / 2) / tsc_khz;
}

u64 cycles_to_ns(u64 cycles)
{
	return (u64)(((unsigned __int128)cycles * cyc2ns_mul) >> CYC2NS_SHIFT);
}

u64 local_clock(void)
{
	if (!cyc2ns_mul)
		return 0;
	return cycles_to_ns(rdtsc() - tsc_boot);
}
