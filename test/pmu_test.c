// SPDX-License-Identifier: GPL-2.0
/*
 * The architectural PMU (arch/x86/events/pmu.c): CPUID.0AH decoding from
 * synthetic register values, the boot line, what pmu_workload_end()
 * prints with and without counters, nesting, the #GP guard on MSR access,
 * and, where a PMU counts (KVM with a vPMU, hardware), a loop of known
 * length.  QEMU's TCG has no PMU: there the boot must say so.
 */
#include <linux/ktest.h>
#include <linux/errno.h>
#include <linux/cpumask.h>
#include <linux/record.h>
#include <linux/smp.h>
#include <linux/irqflags.h>
#include <linux/preempt.h>
#include <asm/apic.h>
#include <asm/perf_event.h>
#include <string.h>

/* CPUID.0AH as an Intel Skylake client reports it. */
#define SKL_EAX		0x07300404	/* v4, 4 GP, 48 bits, 7 events */
#define SKL_EBX		0x00000000
#define SKL_EDX		0x00000603	/* 3 fixed, 48 bits */

static void decode_version_0(struct ktest *t)
{
	struct x86_pmu_caps c;

	KTEST_EXPECT_FALSE(t, x86_pmu_decode(0, 0, 0, &c));
	KTEST_EXPECT_FALSE(t, c.usable);
	KTEST_EXPECT_EQ(t, c.version, 0);
	KTEST_EXPECT_EQ(t, c.num_fixed, 0);
	KTEST_EXPECT_STREQ(t, c.reason, "CPUID.0AH version 0");
	/* Garbage in EDX means nothing without a version. */
	KTEST_EXPECT_FALSE(t, x86_pmu_decode(0, 0, SKL_EDX, &c));
	KTEST_EXPECT_EQ(t, c.num_fixed, 0);
}

static void decode_intel_v4(struct ktest *t)
{
	struct x86_pmu_caps c;

	KTEST_ASSERT_TRUE(t, x86_pmu_decode(SKL_EAX, SKL_EBX, SKL_EDX, &c));
	KTEST_EXPECT_EQ(t, c.version, 4);
	KTEST_EXPECT_EQ(t, c.num_gp, 4);
	KTEST_EXPECT_EQ(t, c.gp_width, 48);
	KTEST_EXPECT_EQ(t, c.events_len, 7);
	KTEST_EXPECT_EQ(t, c.events_missing, 0);
	KTEST_EXPECT_EQ(t, c.num_fixed, 3);
	KTEST_EXPECT_EQ(t, c.fixed_width, 48);
	KTEST_EXPECT_STREQ(t, c.reason, "");

	/* 8 GP counters of 48 bits, 4 fixed of 48 (v5-like layout, ECX unused). */
	KTEST_ASSERT_TRUE(t, x86_pmu_decode(0x0a300805, 0, 0x8604, &c));
	KTEST_EXPECT_EQ(t, c.version, 5);
	KTEST_EXPECT_EQ(t, c.num_gp, 8);
	KTEST_EXPECT_EQ(t, c.events_len, 10);
	KTEST_EXPECT_EQ(t, c.num_fixed, 4);
	KTEST_EXPECT_EQ(t, c.fixed_width, 48);
}

static void decode_ebx_missing_events(struct ktest *t)
{
	struct x86_pmu_caps c;

	/* Bit 1, instructions retired, not available. */
	KTEST_EXPECT_FALSE(t, x86_pmu_decode(SKL_EAX, 0x2, SKL_EDX, &c));
	KTEST_EXPECT_EQ(t, c.events_missing, 0x2);
	KTEST_EXPECT_TRUE(t, strstr(c.reason, "instructions") != NULL);
	KTEST_EXPECT_FALSE(t, x86_pmu_decode(SKL_EAX, 0x1, SKL_EDX, &c));
	KTEST_EXPECT_TRUE(t, strstr(c.reason, "cycles") != NULL);
	/* Another event missing does not matter. */
	KTEST_EXPECT_TRUE(t, x86_pmu_decode(SKL_EAX, 0x40, SKL_EDX, &c));
	KTEST_EXPECT_EQ(t, c.events_missing, 0x40);
	/* Bits beyond the length EAX[31:24] gives are not part of the vector. */
	KTEST_EXPECT_TRUE(t, x86_pmu_decode(SKL_EAX & 0x00ffffff, 0xff, SKL_EDX, &c));
	KTEST_EXPECT_EQ(t, c.events_len, 0);
	KTEST_EXPECT_EQ(t, c.events_missing, 0);
}

static void decode_too_few_fixed(struct ktest *t)
{
	struct x86_pmu_caps c;

	/* One fixed counter: instructions but no cycles. */
	KTEST_EXPECT_FALSE(t, x86_pmu_decode(SKL_EAX, 0, 0x601, &c));
	KTEST_EXPECT_EQ(t, c.num_fixed, 1);
	KTEST_EXPECT_STREQ(t, c.reason, "1 fixed counter, 2 needed");
	KTEST_EXPECT_FALSE(t, x86_pmu_decode(SKL_EAX, 0, 0, &c));
	KTEST_EXPECT_STREQ(t, c.reason, "0 fixed counters, 2 needed");
	/* Version 1: EDX is reserved, whatever it holds. */
	KTEST_EXPECT_FALSE(t, x86_pmu_decode(0x07280201, 0, SKL_EDX, &c));
	KTEST_EXPECT_EQ(t, c.version, 1);
	KTEST_EXPECT_EQ(t, c.num_gp, 2);
	KTEST_EXPECT_EQ(t, c.gp_width, 40);
	KTEST_EXPECT_EQ(t, c.num_fixed, 0);
	/* Two fixed counters of an implausible width. */
	KTEST_EXPECT_FALSE(t, x86_pmu_decode(SKL_EAX, 0, (8 << 5) | 2, &c));
	KTEST_EXPECT_EQ(t, c.fixed_width, 8);
	/* The minimum that works: v2 with two fixed counters. */
	KTEST_EXPECT_TRUE(t, x86_pmu_decode(0x07280202, 0, (40 << 5) | 2, &c));
}

static void counter_delta_wraps(struct ktest *t)
{
	const u64 top48 = (1ULL << 48) - 1;

	KTEST_EXPECT_EQ(t, pmu_counter_delta(100, 350, 48), 250);
	KTEST_EXPECT_EQ(t, pmu_counter_delta(top48 - 9, 5, 48), 15);
	KTEST_EXPECT_EQ(t, pmu_counter_delta(~0ULL - 1, 3, 64), 5);
	KTEST_EXPECT_EQ(t, pmu_counter_delta(7, 7, 48), 0);
}

/* The table and records, from made-up counts (no PMU needed). */
static void report_format(struct ktest *t)
{
	static struct pmu_counts delta[CONFIG_NR_CPUS];
	struct cpumask cpus;
	u64 mark = ktest_log_mark();

	if (CONFIG_NR_CPUS < 2)
		ktest_skip(t, "CONFIG_NR_CPUS=1");
	cpumask_clear(&cpus);
	cpumask_set_cpu(0, &cpus);
	cpumask_set_cpu(1, &cpus);
	delta[0] = (struct pmu_counts){ .instructions = 2000, .cycles = 3000 };
	delta[1] = (struct pmu_counts){ .instructions = 5, .cycles = 0 };
	pmu_print_counts("fmt \"q\"\\", &cpus, delta);
	KTEST_EXPECT_LOG(t, mark, "pmu: after fmt \"q\"\\: instructions retired and unhalted core cycles");
	KTEST_EXPECT_LOG(t, mark, "pmu: CPU         instructions               cycles     IPC");
	KTEST_EXPECT_LOG(t, mark, "pmu:   0                 2000                 3000    0.67");
	KTEST_EXPECT_LOG(t, mark, "pmu:   1                    5                    0       -");
	KTEST_EXPECT_LOG(t, mark, "pmu: all                 2005                 3000    0.67");
	/* The name is made JSON-safe; no cycles is a null IPC. */
	KTEST_EXPECT_LOG(t, mark, "{\"type\":\"pmu\",\"what\":\"fmt _q__\",\"available\":true,\"cpu\":0,"
			 "\"instructions\":2000,\"cycles\":3000,\"ipc\":0.67}");
	KTEST_EXPECT_LOG(t, mark, "{\"type\":\"pmu\",\"what\":\"fmt _q__\",\"available\":true,\"cpu\":1,"
			 "\"instructions\":5,\"cycles\":0,\"ipc\":null}");
	KTEST_EXPECT_LOG(t, mark, "{\"type\":\"pmu_total\",\"what\":\"fmt _q__\",\"available\":true,"
			 "\"cpus\":2,\"instructions\":2005,\"cycles\":3000,\"ipc\":0.67}");

	/* Counts near 2^64: the IPC must not overflow. */
	mark = ktest_log_mark();
	cpumask_clear(&cpus);
	cpumask_set_cpu(1, &cpus);
	delta[1] = (struct pmu_counts){ .instructions = 0xffffffffffffff00ULL,
					.cycles = 0x7fffffffffffff80ULL };
	pmu_print_counts("fmt_big", &cpus, delta);
	KTEST_EXPECT_LOG(t, mark, "pmu: all 18446744073709551360  9223372036854775680    2.00");
	KTEST_EXPECT_LOG(t, mark, "\"what\":\"fmt_big\",\"available\":true,\"cpus\":1,");
}

static bool under_tcg(void)
{
	const char *mode = ktest_clock_mode();

	return !strcmp(mode, "TCG") || !strcmp(mode, "icount");
}

static void boot_line(struct ktest *t)
{
	const char *line = x86_pmu_boot_line();
	char buf[256];

	KTEST_ASSERT_NE(t, x86_pmu_boot_seq, ~0ULL);
	ktest_info(t, "%s", line);
	KTEST_EXPECT_TRUE(t, !strncmp(line, "pmu: ", 5));
	if (x86_pmu_available()) {
		KTEST_EXPECT_TRUE(t, strstr(line, "counting instructions and cycles") != NULL);
		KTEST_EXPECT_STREQ(t, x86_pmu_unavailable_reason(), "");
	} else {
		KTEST_EXPECT_TRUE(t, strstr(line, "none (") || strstr(line, "unavailable ("));
		KTEST_EXPECT_TRUE(t, strstr(line, x86_pmu_unavailable_reason()) != NULL);
		KTEST_EXPECT_NE(t, strlen(x86_pmu_unavailable_reason()), 0);
	}
	if (under_tcg()) {
		/* QEMU's TCG has no vPMU: CPUID.0AH is all zeroes. */
		KTEST_EXPECT_FALSE(t, x86_pmu_available());
		KTEST_EXPECT_EQ(t, x86_pmu_caps()->version, 0);
		KTEST_EXPECT_STREQ(t, line, "pmu: none (CPUID.0AH version 0)");
	}
	/* Printed once, as kept (unless the ring has wrapped since). */
	if (printk_read_record(x86_pmu_boot_seq, buf, sizeof(buf), NULL, NULL) < 0) {
		ktest_info(t, "the printed line was overwritten (the ring wrapped)");
		return;
	}
	buf[strcspn(buf, "\n")] = '\0';
	KTEST_EXPECT_STREQ(t, buf, line);
}

static void workload_end_output(struct ktest *t)
{
	char needle[160];
	u64 mark = ktest_log_mark();
	volatile unsigned long sink = 0;

	pmu_workload_begin();
	for (unsigned long i = 0; i < 100000; i++)
		sink += i;
	pmu_workload_end("pmu_test");
	if (!x86_pmu_available()) {
		snprintf(needle, sizeof(needle), "pmu: unavailable (%s)",
			 x86_pmu_unavailable_reason());
		KTEST_EXPECT_LOG(t, mark, needle);
		snprintf(needle, sizeof(needle),
			 "{\"type\":\"pmu\",\"what\":\"pmu_test\",\"available\":false,\"reason\":\"%s\"}",
			 x86_pmu_unavailable_reason());
		KTEST_EXPECT_LOG(t, mark, needle);
		KTEST_EXPECT_FALSE(t, ktest_log_contains(mark, "pmu: after pmu_test"));
		return;
	}
	KTEST_EXPECT_LOG(t, mark, "pmu: after pmu_test: instructions retired and unhalted core cycles");
	KTEST_EXPECT_LOG(t, mark, "\"type\":\"pmu\",\"what\":\"pmu_test\",\"available\":true,\"cpu\":0,");
	KTEST_EXPECT_LOG(t, mark, "\"type\":\"pmu_total\",\"what\":\"pmu_test\",\"available\":true,");
	KTEST_EXPECT_FALSE(t, ktest_log_contains(mark, "pmu: unavailable"));
}

static void workload_pairs_nest(struct ktest *t)
{
	u64 mark = ktest_log_mark();

	pmu_workload_begin();
	pmu_workload_begin();
	pmu_workload_end("pmu_inner");
	pmu_workload_end("pmu_outer");
	if (!x86_pmu_available()) {
		KTEST_EXPECT_LOG(t, mark, "\"what\":\"pmu_inner\",\"available\":false");
		KTEST_EXPECT_LOG(t, mark, "\"what\":\"pmu_outer\",\"available\":false");
		return;
	}
	KTEST_EXPECT_LOG(t, mark, "pmu: after pmu_inner:");
	KTEST_EXPECT_LOG(t, mark, "pmu: after pmu_outer:");
	KTEST_EXPECT_FALSE(t, ktest_log_contains(mark, "without pmu_workload_begin"));
}

/* Made-up counters for fake_counters_nest: what each CPU reads now. */
static struct pmu_counts fake_now[CONFIG_NR_CPUS];

static bool fake_read(struct pmu_counts *c)
{
	*c = fake_now[smp_processor_id()];
	return true;
}

static void fake_set(u64 insns, u64 cycles)
{
	int cpu;

	for_each_online_cpu(cpu) {
		/* CPU n counts n + 1 times as much. */
		fake_now[cpu].instructions = insns * (cpu + 1);
		fake_now[cpu].cycles = cycles * (cpu + 1);
	}
	smp_mb();
}

/*
 * Where there is no PMU, run pmu_workload_begin()/end() on made-up
 * counters: every online CPU is read at both ends, and nested pairs each
 * get their own differences.
 */
static void fake_counters_nest(struct ktest *t)
{
	char needle[RECORD_MAX_JSON + 1];
	u64 mark = ktest_log_mark();
	int cpu;

	if (x86_pmu_available())
		ktest_skip(t, "the real counters are in use here");
	fake_set(1000, 5000);
	x86_pmu_fake_counters(fake_read);
	KTEST_EXPECT_TRUE(t, x86_pmu_available());
	pmu_workload_begin();			/* outer at 1000/5000 */
	fake_set(1100, 5300);
	pmu_workload_begin();			/* inner at 1100/5300 */
	fake_set(1400, 5500);
	pmu_workload_end("fake_inner");		/* inner: 300/200 */
	fake_set(2000, 6000);
	pmu_workload_end("fake_outer");		/* outer: 1000/1000 */
	pmu_workload_end("fake_unpaired");
	x86_pmu_fake_counters(NULL);
	KTEST_EXPECT_FALSE(t, x86_pmu_available());

	for_each_online_cpu(cpu) {
		snprintf(needle, sizeof(needle),
			 "{\"type\":\"pmu\",\"what\":\"fake_inner\",\"available\":true,\"cpu\":%d,"
			 "\"instructions\":%d,\"cycles\":%d,\"ipc\":1.50}",
			 cpu, 300 * (cpu + 1), 200 * (cpu + 1));
		KTEST_EXPECT_LOG(t, mark, needle);
		snprintf(needle, sizeof(needle),
			 "{\"type\":\"pmu\",\"what\":\"fake_outer\",\"available\":true,\"cpu\":%d,"
			 "\"instructions\":%d,\"cycles\":%d,\"ipc\":1.00}",
			 cpu, 1000 * (cpu + 1), 1000 * (cpu + 1));
		KTEST_EXPECT_LOG(t, mark, needle);
	}
	snprintf(needle, sizeof(needle), "\"type\":\"pmu_total\",\"what\":\"fake_outer\","
		 "\"available\":true,\"cpus\":%u,", num_online_cpus());
	KTEST_EXPECT_LOG(t, mark, needle);
	KTEST_EXPECT_LOG(t, mark, "pmu: fake_unpaired: pmu_workload_end() without pmu_workload_begin()");
}

/* Protection keys for supervisor pages; bits 63:32 are reserved. */
#define MSR_IA32_PKRS	0x6e1

static void msr_fault_is_caught(struct ktest *t)
{
	/*
	 * The x2APIC ID register faults while the APIC is in xAPIC mode
	 * (QEMU 7.2's TCG reads it, like most unknown MSRs, as 0); in x2APIC
	 * mode, an index that no CPU or hypervisor implements.
	 */
	const u32 msr = x2apic_mode ? 0x4b4d5fff : 0x802;
	u64 val = 0x1234;
	int ret;

	/* A write that sets reserved bits, or to an MSR the CPU lacks. */
	KTEST_EXPECT_EQ(t, pmu_wrmsr_safe(MSR_IA32_PKRS, 1ULL << 40), -EIO);
	KTEST_EXPECT_FALSE(t, irqs_disabled());
	ret = pmu_rdmsr_safe(msr, &val);
	KTEST_EXPECT_FALSE(t, irqs_disabled());
	if (ret)
		KTEST_EXPECT_EQ(t, val, 0);
	else
		ktest_info(t, "MSR %#x reads as %#llx here: no read fault to catch",
			   msr, (unsigned long long)val);
	/* A good MSR still reads after the catches. */
	KTEST_EXPECT_EQ(t, pmu_rdmsr_safe(MSR_IA32_APICBASE, &val), 0);
	KTEST_EXPECT_TRUE(t, val & MSR_IA32_APICBASE_ENABLE);
}

/*
 * Where CPUID offers no PMU, set the counters up anyway, as if a
 * hypervisor had advertised them: the result must be a refusal with a
 * reason, not a crash.  TCG accepts the MSR writes and reads zeroes.
 */
static void program_without_pmu_refused(struct ktest *t)
{
	char why[96] = "";

	if (x86_pmu_available())
		ktest_skip(t, "the counters are in use here");
	if (x86_pmu_program_all(why, sizeof(why))) {
		/* A PMU that CPUID.0AH.EBX ruled out but counts: stop it again. */
		ktest_info(t, "counters count although CPUID said: %s",
			   x86_pmu_unavailable_reason());
		KTEST_EXPECT_FALSE(t, under_tcg());
		return;
	}
	ktest_info(t, "refused: %s", why);
	KTEST_EXPECT_NE(t, strlen(why), 0);
	if (under_tcg())
		KTEST_EXPECT_STREQ(t, why, "FIXED_CTR0 does not advance on CPU 0");
	KTEST_EXPECT_FALSE(t, x86_pmu_available());
	KTEST_EXPECT_FALSE(t, irqs_disabled());
}

#define KNOWN_LOOPS	200000UL

static void known_loop_counts(struct ktest *t)
{
	struct pmu_counts a, b;
	unsigned long flags, n = KNOWN_LOOPS;
	u64 insns, cycles;
	unsigned int w = x86_pmu_caps()->fixed_width;

	if (!x86_pmu_available())
		ktest_skip(t, "no usable architectural PMU (%s)", x86_pmu_unavailable_reason());
	local_irq_save(flags);
	KTEST_EXPECT_TRUE(t, pmu_read_local(&a));
	/* Two instructions per iteration. */
	asm volatile("1: dec %0\n\tjnz 1b" : "+r"(n) : : "cc");
	KTEST_EXPECT_TRUE(t, pmu_read_local(&b));
	local_irq_restore(flags);
	insns = pmu_counter_delta(a.instructions, b.instructions, w);
	cycles = pmu_counter_delta(a.cycles, b.cycles, w);
	ktest_info(t, "%lu iterations (%lu instructions): %llu instructions, %llu cycles (%s)",
		   KNOWN_LOOPS, 2 * KNOWN_LOOPS, (unsigned long long)insns,
		   (unsigned long long)cycles, ktest_clock_mode());
	KTEST_EXPECT_GT(t, insns, KNOWN_LOOPS);
	/* Not garbage: a vPMU may count a little off, not tenfold. */
	KTEST_EXPECT_LT(t, insns, 20 * KNOWN_LOOPS);
	KTEST_EXPECT_GT(t, cycles, 0);
}

static struct ktest_case pmu_cases[] = {
	KTEST_CASE(decode_version_0),
	KTEST_CASE(decode_intel_v4),
	KTEST_CASE(decode_ebx_missing_events),
	KTEST_CASE(decode_too_few_fixed),
	KTEST_CASE(counter_delta_wraps),
	KTEST_CASE(report_format),
	KTEST_CASE(boot_line),
	KTEST_CASE(workload_end_output),
	KTEST_CASE(workload_pairs_nest),
	KTEST_CASE(fake_counters_nest),
	KTEST_CASE(msr_fault_is_caught),
	KTEST_CASE(program_without_pmu_refused),
	KTEST_CASE(known_loop_counts),
	{}
};

static struct ktest_suite pmu_suite = { .name = "pmu", .cases = pmu_cases };
ktest_register_suite(pmu_suite);
