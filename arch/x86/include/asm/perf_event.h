/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_PERF_EVENT_H
#define _ASM_X86_PERF_EVENT_H

/*
 * The architectural performance monitoring unit (Intel SDM vol. 3B, ch. 20;
 * KVM's vPMU models the same interface).  irqlab uses two fixed counters,
 * instructions retired and unhalted core cycles, free-running on every CPU
 * from boot, and reads them around workloads (arch/x86/events/pmu.c).
 */
#include <linux/types.h>

/* CPUID leaf 0xA */
#define X86_PMU_CPUID_LEAF		0xa
/* EBX: a set bit says the architectural event is NOT available. */
#define ARCH_PERFMON_EVENT_CYCLES_BIT	0
#define ARCH_PERFMON_EVENT_INSNS_BIT	1

/* MSRs (names as in Linux's msr-index.h) */
#define MSR_CORE_PERF_FIXED_CTR0	0x309	/* instructions retired */
#define MSR_CORE_PERF_FIXED_CTR1	0x30a	/* unhalted core cycles */
#define MSR_CORE_PERF_FIXED_CTR2	0x30b	/* unhalted reference cycles */
#define MSR_CORE_PERF_FIXED_CTR_CTRL	0x38d
#define MSR_CORE_PERF_GLOBAL_STATUS	0x38e
#define MSR_CORE_PERF_GLOBAL_CTRL	0x38f
#define MSR_CORE_PERF_GLOBAL_OVF_CTRL	0x390

#define MSR_ARCH_PERFMON_PERFCTR0	0xc1	/* IA32_PMC0 */
#define MSR_ARCH_PERFMON_EVENTSEL0	0x186	/* IA32_PERFEVTSEL0 */

/* IA32_PERFEVTSELx (SDM vol. 3B, 20.2.1.1) */
#define ARCH_PERFMON_EVENTSEL_USR	(1ULL << 16)
#define ARCH_PERFMON_EVENTSEL_OS	(1ULL << 17)
#define ARCH_PERFMON_EVENTSEL_INT	(1ULL << 20)
#define ARCH_PERFMON_EVENTSEL_ENABLE	(1ULL << 22)
/* Architectural event: unhalted core cycles, event 3CH, umask 00H. */
#define ARCH_PERFMON_UNHALTED_CORE_CYCLES_SEL	0x3c
/* Bit of general-purpose counter @i in GLOBAL_CTRL, GLOBAL_STATUS, GLOBAL_OVF_CTRL. */
#define GLOBAL_PMC_BIT(i)		(i)

/* MSR_CORE_PERF_FIXED_CTR_CTRL: one 4-bit field per fixed counter. */
#define FIXED_CTR_CTRL_FIELD_BITS	4
#define FIXED_CTR_CTRL_OS		0x1	/* count at CPL 0 */
#define FIXED_CTR_CTRL_USR		0x2	/* count at CPL > 0 */
#define FIXED_CTR_CTRL_ANY		0x4	/* all SMT threads of the core */
#define FIXED_CTR_CTRL_PMI		0x8	/* interrupt on overflow */
/* Bit of fixed counter @i in GLOBAL_CTRL, GLOBAL_STATUS and GLOBAL_OVF_CTRL. */
#define GLOBAL_FIXED_BIT(i)		(32 + (i))

#define X86_PMU_FIXED_INSNS		0	/* FIXED_CTR0 */
#define X86_PMU_FIXED_CYCLES		1	/* FIXED_CTR1 */

/* CPUID.0AH as decoded by x86_pmu_decode(). */
struct x86_pmu_caps {
	u8 version;		/* EAX[7:0]; 0: no architectural PMU */
	u8 num_gp;		/* EAX[15:8] general-purpose counters per CPU */
	u8 gp_width;		/* EAX[23:16] their width in bits */
	u8 events_len;		/* EAX[31:24] events described by EBX */
	u32 events_missing;	/* EBX within events_len: events NOT available */
	u8 num_fixed;		/* EDX[4:0] fixed counters (version >= 2) */
	u8 fixed_width;		/* EDX[12:5] their width in bits (version >= 2) */
	bool usable;		/* instructions and cycles can be counted */
	char reason[64];	/* why not, when !usable */
};

/*
 * Decode CPUID.0AH's EAX, EBX and EDX into @caps; pure (no CPUID, no MSR),
 * so tests feed it synthetic values.  Returns caps->usable: version >= 2,
 * at least two fixed counters of a sane width, and EBX not marking
 * instructions retired or core cycles unavailable.
 */
bool x86_pmu_decode(u32 eax, u32 ebx, u32 edx, struct x86_pmu_caps *caps);

/*
 * What the boot found: CPUID.0AH decoded by x86_pmu_probe() before the
 * lockup detector starts, then (x86_pmu_init(), from smp_init() once the
 * other CPUs are up) the fixed counters, if usable, programmed and seen
 * to count on every online CPU; it prints one "pmu: " line.
 */
void x86_pmu_probe(void);
void x86_pmu_init(void);
bool x86_pmu_available(void);
const struct x86_pmu_caps *x86_pmu_caps(void);
/* Why the counters are not in use ("" when they are). */
const char *x86_pmu_unavailable_reason(void);
/*
 * Program FIXED_CTR0/1 on every online CPU (from zero) and check that they
 * count; on failure stop them again and say why in @why.  x86_pmu_init()
 * uses it; tests may, but only while x86_pmu_available() is false.
 */
bool x86_pmu_program_all(char *why, size_t len);
/* The boot line as printed, and its printk sequence number (~0 before). */
const char *x86_pmu_boot_line(void);
extern u64 x86_pmu_boot_seq;

/* This CPU's fixed counters, raw; false (and zeroes) without a PMU. */
struct pmu_counts {
	u64 instructions;
	u64 cycles;
};
bool pmu_read_local(struct pmu_counts *c);
/*
 * Tests only, on a machine without a usable PMU: take the counts from
 * @read (called on each CPU, interrupts off) instead of the MSRs, so the
 * begin/end machinery runs; NULL goes back to "unavailable".  Ignored
 * while the real counters are in use.
 */
void x86_pmu_fake_counters(bool (*read)(struct pmu_counts *c));
/*
 * Sampling for the profiler: IA32_PMC0 counts unhalted core cycles with
 * an overflow interrupt every @hz-th of a second (at the TSC's rate),
 * LVTPC in NMI mode, on every online CPU.  Only on a real PMU (not with
 * fake counters); 0, or -ENODEV/-EIO with @why filled in.
 */
int x86_pmu_sample_start(unsigned int hz, char *why, size_t len);
void x86_pmu_sample_stop(void);
/* NMI context: did PMC0 overflow?  If so it is reloaded and re-armed. */
bool x86_pmu_sample_overflow(void);

/* The hard lockup detector's PMU source (PMC1, unhalted core cycles). */
u64 hw_nmi_get_sample_period(int watchdog_thresh);
bool x86_pmu_hld_usable(const struct x86_pmu_caps *c, u64 period, char *why, size_t len);
int x86_pmu_hld_start_cpu(u64 period);
void x86_pmu_hld_stop_cpu(void);
bool x86_pmu_hld_overflow(bool *period_done);
bool x86_pmu_hld_active(void);
void x86_pmu_hld_off(void);

/* @end - @begin for a counter @width bits wide (one wrap allowed). */
u64 pmu_counter_delta(u64 begin, u64 end, unsigned int width);

/*
 * Count a workload: pmu_workload_begin() snapshots every online CPU's
 * counters, pmu_workload_end(what) snapshots them again and prints, per
 * CPU and in total, instructions, cycles and IPC (a table and "pmu"/
 * "pmu_total" records), or "pmu: unavailable (<reason>)" and one record
 * with "available":false when there is no usable PMU.  Pairs nest (up to
 * PMU_MAX_NEST deep) and must come from one thread in LIFO order; they
 * sleep (a mutex, cross-CPU calls), so process context only.
 */
#define PMU_MAX_NEST	4
void pmu_workload_begin(void);
void pmu_workload_end(const char *what);

/*
 * The report pmu_workload_end() prints: a table and one record per CPU
 * in @cpus (@delta is indexed by CPU number), then the total.
 */
struct cpumask;
void pmu_print_counts(const char *what, const struct cpumask *cpus,
		      const struct pmu_counts *delta);

/* The all-CPU total of the last report; false if there was none (no PMU). */
bool pmu_last_total(struct pmu_counts *c);

/* MSR access that returns -EIO instead of oopsing on #GP. */
int pmu_rdmsr_safe(u32 msr, u64 *val);
int pmu_wrmsr_safe(u32 msr, u64 val);

#endif /* _ASM_X86_PERF_EVENT_H */
