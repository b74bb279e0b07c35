// SPDX-License-Identifier: GPL-2.0
/*
 * The one piece of scheduler topology irqlab needs: which CPUs share a
 * last-level cache (Linux's sd_llc_id), for ttwu_queue_cond().
 *
 * CPUID leaf 4 lists the caches; the highest level says how many logical
 * CPUs share it, so APIC IDs that agree above log2 of that count share it.
 * Under QEMU (7.2, pc and q35) every vCPU of a machine reports one L3 for
 * its socket and -smp N makes one socket, so all vCPUs share one LLC and
 * cpus_share_cache() is true for every pair, as Linux finds in the same
 * guest.  On a multi-socket PC it separates the sockets.  Without leaf 4
 * (very old or odd CPUs) all CPUs are taken to share one cache.
 */
#include "sched.h"
#include <asm/apic.h>
#include <asm/processor.h>
#include <linux/log2.h>

static unsigned int llc_shift;

static unsigned int llc_shift_from_cpuid(void)
{
	unsigned int level = 0, sharing = 1;
	u32 a, b, c, d;

	if (cpuid_eax(0) < 4)
		return 31;
	for (u32 i = 0; i < 16; i++) {
		cpuid_count(4, i, &a, &b, &c, &d);
		if (!(a & 0x1f))		/* no more caches */
			break;
		if (((a >> 5) & 7) >= level) {
			level = (a >> 5) & 7;
			sharing = ((a >> 14) & 0xfff) + 1;
		}
	}
	if (!level)
		return 31;
	return sharing <= 1 ? 0 : ilog2(sharing - 1) + 1;
}

bool cpus_share_cache(int a, int b)
{
	if (a == b)
		return true;
	return (cpu_to_apicid[a] >> llc_shift) == (cpu_to_apicid[b] >> llc_shift);
}

void sched_init_topology(void)
{
	llc_shift = llc_shift_from_cpuid();
	pr_info("sched: last-level cache shared by APIC IDs equal above bit %u\n", llc_shift);
}
