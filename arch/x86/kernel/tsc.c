// SPDX-License-Identifier: GPL-2.0
/*
 * TSC frequency: CPUID 15h when it names the crystal (leaf 16h is only the
 * base frequency and is not used), else measured against the HPET, else
 * against PIT channel 2.  tsc_early_init() runs before ACPI (PIT or CPUID,
 * for printk timestamps); tsc_init() refines with the HPET once it is
 * known.  The cross-CPU check is in smpboot.c.
 */
#include <linux/kernel.h>
#include <linux/sched/clock.h>
#include <linux/delay.h>
#include <asm/tsc.h>
#include <asm/processor.h>
#include <asm/io.h>
#include <asm/hpet.h>

#define PIT_TICK_RATE	1193182UL
#define CAL_MS		10
#define CAL_LATCH	(PIT_TICK_RATE / (1000 / CAL_MS))

unsigned long tsc_khz;
const char *tsc_calibration_source = "none";
/* local_clock() = ns_base + cycles since tsc_base: continuous across re-calibration. */
static u64 tsc_base, ns_base;
u32 cyc2ns_mul;		/* ns = cycles * mul >> CYC2NS_SHIFT (asm/tsc.h) */

/*
 * CPUID 15h: TSC = crystal * EBX / EAX.  A zero in any of the three means
 * the leaf does not state the frequency (Linux then looks the crystal up
 * by CPU model; irqlab measures instead).
 */
unsigned long tsc_khz_from_cpuid15(u32 den, u32 num, u32 crystal_hz)
{
	if (!den || !num || !crystal_hz)
		return 0;
	return (u64)crystal_hz * num / den / 1000;
}

static unsigned long tsc_from_cpuid(void)
{
	u32 den, num, crystal_hz, d;

	if (boot_cpu_data.max_leaf < 0x15)
		return 0;
	cpuid(0x15, &den, &num, &crystal_hz, &d);
	return tsc_khz_from_cpuid15(den, num, crystal_hz);
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

/* Two TSC reads further apart than this were disturbed (an SMI, a host stall). */
#define SMI_TRESHOLD	50000
#define MAX_RETRIES	5

/*
 * Tests: stall this long (us) inside the first pair of reads of the next
 * tsc_calibrate_hpet(), as a host preempting the vCPU there would.
 */
static unsigned int tsc_ref_stall_us;

/*
 * Linux's tsc_read_refs(): the HPET counter read between two TSC reads,
 * accepted only when those lie close together, so the TSC value stands
 * for the moment of the HPET read.  All ones when no try was clean.
 */
static u64 tsc_read_hpet_ref(u32 *hpet)
{
	for (int i = 0; i < MAX_RETRIES; i++) {
		u64 t1 = rdtsc_ordered(), t2;

		*hpet = hpet_readl_counter();
		if (unlikely(tsc_ref_stall_us)) {
			udelay(tsc_ref_stall_us);
			tsc_ref_stall_us = 0;
		}
		t2 = rdtsc_ordered();
		if (t2 - t1 < SMI_TRESHOLD)
			return t2;
	}
	return ~0ULL;
}

/* TSC cycles over CAL_MS of HPET counter time; 0 if no clean reference. */
static unsigned long tsc_from_hpet(void)
{
	u32 ticks = hpet_freq_hz * CAL_MS / 1000;
	u32 h0, h1;
	u64 t0, t1;

	t0 = tsc_read_hpet_ref(&h0);
	if (t0 == ~0ULL)
		return 0;
	while ((u32)(hpet_readl_counter() - h0) < ticks)
		cpu_relax();
	t1 = tsc_read_hpet_ref(&h1);
	if (t1 == ~0ULL)
		return 0;
	/* Scale by the HPET ticks that really elapsed. */
	return (u64)(t1 - t0) * hpet_freq_hz / (u32)(h1 - h0) / 1000;
}

/* Tests: one HPET measurement, its first reference stalled by @stall_us. */
unsigned long tsc_calibrate_hpet(unsigned int stall_us)
{
	tsc_ref_stall_us = stall_us;
	return hpet_freq_hz ? tsc_from_hpet() : 0;
}

static void set_cyc2ns(void)
{
	u64 now = rdtsc();

	if (!tsc_khz)
		return;
	if (cyc2ns_mul)
		ns_base += cycles_to_ns(now - tsc_base);
	tsc_base = now;
	cyc2ns_mul = ((1000000ULL << CYC2NS_SHIFT) + tsc_khz / 2) / tsc_khz;
}

static bool tsc_is_icount_khz(unsigned long khz)
{
	return boot_cpu_data.has_hypervisor &&
	       !strcmp(boot_cpu_data.hypervisor, "TCGTCGTCGTCG") &&
	       khz >= 999990 && khz <= 1000010;
}

void tsc_init(void)
{
	unsigned long khz;

	if (!strcmp(tsc_calibration_source, "CPUID 15h") || !hpet_freq_hz)
		return;
	khz = tsc_from_hpet();
	if (!khz)
		return;
	/*
	 * QEMU's -icount shift=0 makes the TSC exactly one tick per guest
	 * instruction at a nominal 1 GHz; the HPET measurement lands a kHz or
	 * so off, and 999999 kHz would turn equal cycle counts into ns that
	 * differ by one depending on their absolute size.  Take the exact value.
	 */
	if (tsc_is_icount_khz(khz))
		khz = 1000000;
	tsc_khz = khz;
	tsc_calibration_source = "HPET";
	set_cyc2ns();
	pr_info("tsc: %lu.%03lu MHz (HPET)%s\n", tsc_khz / 1000, tsc_khz % 1000,
		boot_cpu_data.has_invariant_tsc ? ", invariant" : "");
}

void tsc_early_init(void)
{
	tsc_base = rdtsc();
	tsc_khz = tsc_from_cpuid();
	if (tsc_khz) {
		tsc_calibration_source = "CPUID 15h";
	} else {
		tsc_khz = tsc_from_pit();
		tsc_calibration_source = tsc_khz ? "PIT" : "none";
	}
	set_cyc2ns();
}

u64 cycles_to_ns(u64 cycles)
{
	return __cycles_to_ns(cycles);
}

u64 local_clock(void)
{
	if (!cyc2ns_mul)
		return 0;
	return ns_base + cycles_to_ns(rdtsc() - tsc_base);
}

/*
 * Which clock the TSC is: "hardware", "KVM", "TCG", or "icount" (QEMU's
 * -icount shift=0 runs it as an exact 1 GHz instruction clock), so that
 * reports can say what their figures mean (DESIGN 7).
 */
const char *tsc_clock_mode(void)
{
	const char *sig = boot_cpu_data.hypervisor;

	if (!boot_cpu_data.has_hypervisor || !sig[0])
		return "hardware";
	if (!strcmp(sig, "TCGTCGTCGTCG"))
		return tsc_khz >= 999990 && tsc_khz <= 1000010 ? "icount" : "TCG";
	if (!strncmp(sig, "KVMKVMKVM", 9))
		return "KVM";
	return sig;
}
