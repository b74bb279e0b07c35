// SPDX-License-Identifier: GPL-2.0
/*
 * HPET: its main counter, as a reference for calibrating the TSC when
 * CPUID does not state the TSC frequency; and timer 0 as a periodic NMI
 * source for the sampling profiler on machines without a PMU.
 */
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/irq.h>
#include <asm/hpet.h>
#include <asm/io.h>
#include <linux/ktime.h>
#include <asm/io_apic.h>
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

/*
 * The profiler's NMI source.  Timer 0 runs periodic in 32-bit mode (as
 * Linux's HPET clockevent does) on the legacy replacement route, which
 * puts it on IOAPIC input 2 and, in the same step, disconnects the PIT
 * from that input; the IOAPIC entry is switched to NMI delivery for one
 * CPU.  No interrupt vector and no IRQ-off section is involved.
 */
static u32 hpet_nmi_period;	/* ticks; 0 while stopped */
static u32 hpet_nmi_last_cmp;	/* the comparator the last NMI saw */
static u32 hpet_nmi_saved_cfg;	/* timer 0 and the global config before */
static u32 hpet_nmi_saved_global;
static u64 hpet_nmi_saved_rte;

int hpet_nmi_start(unsigned int hz, unsigned int cpu, char *why, size_t len)
{
	u64 period_ns;

	if (!hz || (hpet_freq_hz && hpet_freq_hz / hz < 2)) {
		snprintf(why, len, "%u Hz is beyond the HPET's resolution", hz);
		return -EINVAL;
	}
	period_ns = NSEC_PER_SEC / hz;
	return hpet_nmi_start_period(&period_ns, cpu, why, len);
}

/*
 * The comparator runs in 32-bit mode: a period of more than 2^31 ticks
 * (21 s at QEMU's 100 MHz) is cut to that, and *@period_ns says so.
 */
int hpet_nmi_start_period(u64 *period_ns, unsigned int cpu, char *why, size_t len)
{
	struct irq_desc *irq0 = irq_to_desc(0);
	u32 cfg, now, period;
	u64 ticks;
	int err;

	if (!hpet_virt || !hpet_freq_hz) {
		snprintf(why, len, "no HPET");
		return -ENODEV;
	}
	if (!(readl(hpet_virt + HPET_ID) & HPET_ID_LEGSUP)) {
		snprintf(why, len, "the HPET has no legacy replacement route");
		return -ENODEV;
	}
	cfg = readl(hpet_virt + HPET_Tn_CFG(0));
	if (!(cfg & HPET_TN_PERIODIC_CAP)) {
		snprintf(why, len, "HPET timer 0 cannot run periodic");
		return -ENODEV;
	}
	if (READ_ONCE(hpet_nmi_period)) {
		snprintf(why, len, "HPET timer 0 already raises NMIs");
		return -EBUSY;
	}
	ticks = *period_ns * hpet_freq_hz / NSEC_PER_SEC;
	if (ticks < 2) {
		snprintf(why, len, "%llu ns is beyond the HPET's resolution",
			 (unsigned long long)*period_ns);
		return -EINVAL;
	}
	if (ticks > 0x80000000ULL) {
		ticks = 0x80000000ULL;
		*period_ns = ticks * NSEC_PER_SEC / hpet_freq_hz;
	}
	/* The legacy route takes IRQ0's input; only while no driver owns it. */
	if (irq0 && irq0->handler) {
		snprintf(why, len, "IRQ 0 (GSI %d) has a handler (%s)", HPET_LEGACY_GSI,
			 irq0->name ? irq0->name : "?");
		return -EBUSY;
	}
	hpet_nmi_saved_cfg = cfg;
	hpet_nmi_saved_global = readl(hpet_virt + HPET_CFG);
	/*
	 * As Linux's hpet_set_periodic(): the main counter stands still while
	 * the comparator is set, so the first match cannot slip into the
	 * past.  The legacy route goes on first: it takes the PIT (which the
	 * firmware may have left ticking) off the input before that input
	 * becomes an NMI.  Edge-triggered: the IOAPIC takes NMIs only that
	 * way, and an edge needs no acknowledgement from NMI context.  With
	 * SETVAL the first comparator write sets the next match, the second
	 * the period.  hpet_nmi_fired() ignores the timer until it is all set.
	 */
	writel((hpet_nmi_saved_global & ~HPET_CFG_ENABLE) | HPET_CFG_LEGACY, hpet_virt + HPET_CFG);
	err = ioapic_route_nmi(HPET_LEGACY_GSI, cpu, &hpet_nmi_saved_rte);
	if (err) {
		writel(hpet_nmi_saved_global, hpet_virt + HPET_CFG);
		snprintf(why, len, "GSI %d cannot be routed as an NMI (%d)", HPET_LEGACY_GSI, err);
		return err;
	}
	period = ticks;
	now = readl(hpet_virt + HPET_COUNTER);
	cfg = (cfg & ~(HPET_TN_LEVEL | HPET_TN_FSB)) | HPET_TN_ENABLE |
	      HPET_TN_PERIODIC | HPET_TN_SETVAL | HPET_TN_32BIT;
	writel(cfg, hpet_virt + HPET_Tn_CFG(0));
	writel(now + period, hpet_virt + HPET_Tn_CMP(0));
	writel(period, hpet_virt + HPET_Tn_CMP(0));
	hpet_nmi_last_cmp = now + period;
	barrier();		/* the leader's NMI reads the period first */
	WRITE_ONCE(hpet_nmi_period, period);
	writel(hpet_nmi_saved_global | HPET_CFG_LEGACY | HPET_CFG_ENABLE, hpet_virt + HPET_CFG);
	return 0;
}

/*
 * Timer 0 off first, so no new NMI is raised while the route changes
 * back.  The RTE goes back to what it was (masked, or IRQ 0's if a
 * driver had it routed before; hpet_nmi_start() refuses while one has
 * a handler).
 */
void hpet_nmi_stop(void)
{
	if (!hpet_nmi_period)
		return;
	writel(hpet_nmi_saved_cfg & ~HPET_TN_ENABLE, hpet_virt + HPET_Tn_CFG(0));
	WRITE_ONCE(hpet_nmi_period, 0);
	/* The input stops being an NMI before the PIT comes back on it. */
	ioapic_restore_rte(HPET_LEGACY_GSI, hpet_nmi_saved_rte);
	writel(hpet_nmi_saved_global, hpet_virt + HPET_CFG);
}

/*
 * A periodic comparator moves on by one period each time it matches, so
 * its distance from the value the last NMI saw says how many periods
 * passed: more than one means NMIs were lost (coalesced, or the host
 * stalled).  One 32-bit MMIO read, safe in NMI context.
 */
bool hpet_nmi_fired(u64 *periods)
{
	u32 cmp, period = READ_ONCE(hpet_nmi_period);

	*periods = 0;
	if (!period)
		return false;
	cmp = readl(hpet_virt + HPET_Tn_CMP(0));
	*periods = (u32)(cmp - hpet_nmi_last_cmp) / period;
	hpet_nmi_last_cmp = cmp;
	return *periods != 0;
}
