// SPDX-License-Identifier: GPL-2.0
/*
 * HPET: only its main counter, as a reference for calibrating the TSC
 * when CPUID does not state the TSC frequency.
 */
#include <linux/kernel.h>
#include <asm/hpet.h>
#include <asm/io.h>
#include <asm/pgtable.h>

u64 hpet_freq_hz;
static volatile u8 *hpet_virt;

u64 hpet_readl_counter(void)
{
	/* The low 32 bits are enough for a calibration window. */
	return readl(hpet_virt + HPET_COUNTER);
}

bool hpet_enable(u64 phys)
{
	u32 period_fs;

	if (!phys)
		return false;
	hpet_virt = ioremap(phys, PAGE_SIZE);
	if (!hpet_virt)
		return false;
	period_fs = readl(hpet_virt + HPET_PERIOD);
	/* The spec caps the period at 100 ns; 0 or more means no HPET there. */
	if (!period_fs || period_fs > 100000000) {
		pr_warn("HPET at %#llx: invalid period %u fs; not used\n",
			(unsigned long long)phys, period_fs);
		hpet_virt = NULL;
		return false;
	}
	writel(readl(hpet_virt + HPET_CFG) | HPET_CFG_ENABLE, hpet_virt + HPET_CFG);
	hpet_freq_hz = 1000000000000000ULL / period_fs;
	pr_info("hpet: %#llx, %llu.%06llu MHz counter\n", (unsigned long long)phys,
		(unsigned long long)(hpet_freq_hz / 1000000),
		(unsigned long long)(hpet_freq_hz % 1000000));
	return true;
}
