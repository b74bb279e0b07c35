// SPDX-License-Identifier: GPL-2.0
/*
 * The hardware choices QEMU TCG cannot exercise (x2APIC, TSC-deadline,
 * CPUID 15h) are pure decisions; check them here, and check that the
 * running machine got the mode its CPUID asks for.
 */
#include <linux/ktest.h>
#include <linux/percpu.h>
#include <asm/apic.h>
#include <asm/processor.h>
#include <asm/tsc.h>

static void x2apic_decision(struct ktest *t)
{
	KTEST_EXPECT_FALSE(t, apic_want_x2apic(false, false));
	KTEST_EXPECT_TRUE(t, apic_want_x2apic(true, false));
	/* Firmware left x2APIC on: leaving it would need a full disable. */
	KTEST_EXPECT_TRUE(t, apic_want_x2apic(false, true));
	KTEST_EXPECT_TRUE(t, apic_want_x2apic(true, true));
	KTEST_EXPECT_EQ(t, x2apic_mode, boot_cpu_data.has_x2apic ||
			(rdmsr(MSR_IA32_APICBASE) & MSR_IA32_APICBASE_EXTD) != 0);
	ktest_info(t, "running in %s mode", x2apic_mode ? "x2APIC" : "xAPIC");
}

static void x2apic_ids_above_255(struct ktest *t)
{
	/* xAPIC: 8-bit destinations, 0xff is the broadcast. */
	KTEST_EXPECT_TRUE(t, apic_id_valid(0, false));
	KTEST_EXPECT_TRUE(t, apic_id_valid(254, false));
	KTEST_EXPECT_FALSE(t, apic_id_valid(255, false));
	KTEST_EXPECT_FALSE(t, apic_id_valid(256, false));
	/* x2APIC: 32-bit destinations, 0xffffffff is the broadcast. */
	KTEST_EXPECT_TRUE(t, apic_id_valid(255, true));
	KTEST_EXPECT_TRUE(t, apic_id_valid(0x1234, true));
	KTEST_EXPECT_TRUE(t, apic_id_valid(0xfffffffe, true));
	KTEST_EXPECT_FALSE(t, apic_id_valid(0xffffffff, true));
	/* The whole destination reaches ICR bits 63:32, the command stays low. */
	KTEST_EXPECT_EQ(t, x2apic_icr(APIC_DM_FIXED | 0xf2, 0x12345),
			0x0001234500000000ULL | APIC_DM_FIXED | 0xf2);
	KTEST_EXPECT_EQ(t, x2apic_icr(APIC_DM_NMI, 0xfffffffe) >> 32, 0xfffffffe);
	/* Every CPU the kernel knows is reachable in the mode it runs in. */
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		KTEST_EXPECT_TRUE(t, apic_id_valid(cpu_to_apicid[cpu], x2apic_mode));
}

static void tsc_deadline_decision(struct ktest *t)
{
	KTEST_EXPECT_FALSE(t, lapic_want_tsc_deadline(false, true, true));
	KTEST_EXPECT_FALSE(t, lapic_want_tsc_deadline(true, false, true));
	KTEST_EXPECT_TRUE(t, lapic_want_tsc_deadline(true, true, true));
	/* No TSC frequency: deadlines cannot be computed, one-shot it is. */
	KTEST_EXPECT_FALSE(t, lapic_want_tsc_deadline(true, true, false));
	KTEST_EXPECT_EQ(t, lapic_use_tsc_deadline, boot_cpu_data.has_tsc_deadline &&
			tsc_khz != 0);
}

static void cpuid15_frequency(struct ktest *t)
{
	/* Skylake client: 24 MHz crystal, ratio 300/2 -> 3.6 GHz. */
	KTEST_EXPECT_EQ(t, tsc_khz_from_cpuid15(2, 300, 24000000), 3600000);
	/* 25 MHz crystal (server parts), 176/2. */
	KTEST_EXPECT_EQ(t, tsc_khz_from_cpuid15(2, 176, 25000000), 2200000);
	/* Crystal not enumerated: no answer rather than a wrong one. */
	KTEST_EXPECT_EQ(t, tsc_khz_from_cpuid15(2, 300, 0), 0);
	KTEST_EXPECT_EQ(t, tsc_khz_from_cpuid15(0, 300, 24000000), 0);
}

static void apic_id_matches_cpuid(struct ktest *t)
{
	u32 a, b, c, d;

	cpuid(1, &a, &b, &c, &d);
	/* The initial APIC ID (CPUID.1:EBX[31:24]) is what the APIC reports. */
	if (!x2apic_mode)
		KTEST_EXPECT_EQ(t, read_apic_id(), b >> 24);
	KTEST_EXPECT_EQ(t, read_apic_id(), cpu_to_apicid[smp_processor_id()]);
}

static struct ktest_case apic_cases[] = {
	KTEST_CASE(x2apic_decision),
	KTEST_CASE(x2apic_ids_above_255),
	KTEST_CASE(tsc_deadline_decision),
	KTEST_CASE(cpuid15_frequency),
	KTEST_CASE(apic_id_matches_cpuid),
	{}
};

static struct ktest_suite apic_suite = { .name = "apic", .cases = apic_cases };
ktest_register_suite(apic_suite);
