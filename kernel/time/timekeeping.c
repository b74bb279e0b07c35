// SPDX-License-Identifier: GPL-2.0
/*
 * ktime_get() and delays, on the TSC.  QEMU and modern hardware keep the
 * TSCs of all CPUs in step (the SMP bring-up checks and warns if not), so
 * one global origin serves every CPU.
 */
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/delay.h>
#include <linux/sched/clock.h>
#include <asm/tsc.h>
#include <asm/processor.h>

u64 ktime_get_ns(void)
{
	return local_clock();
}

void ndelay(unsigned long ns)
{
	u64 start = rdtsc_ordered();
	u64 cycles = (u64)ns * tsc_khz / 1000000 + 1;

	while (rdtsc_ordered() - start < cycles)
		cpu_relax();
}

void udelay(unsigned long us)
{
	ndelay(us * 1000);
}

void mdelay(unsigned long ms)
{
	while (ms--)
		udelay(1000);
}
