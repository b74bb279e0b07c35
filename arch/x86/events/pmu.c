// SPDX-License-Identifier: GPL-2.0
/*
 * Instructions, cycles and IPC per workload from the architectural PMU.
 *
 * CPUID.0AH describes the PMU.  When it has version 2 or later and at
 * least two fixed counters, every online CPU gets FIXED_CTR0 (instructions
 * retired) and FIXED_CTR1 (unhalted core cycles) counting at all privilege
 * levels, without overflow interrupts, from boot on.  A workload is then
 * measured by reading both counters on every CPU before and after it.
 *
 * QEMU's TCG reports CPUID.0AH version 0; KVM reports what its vPMU
 * offers (nothing with -cpu ...,pmu=off or when the host disables it).  A
 * hypervisor may advertise counters whose MSRs then fault or do not count,
 * so each access goes through the fault catcher and the counters must be
 * seen to advance on every CPU before they are used.
 */
#define pr_fmt(fmt) "pmu: " fmt

#include <linux/kernel.h>
#include <linux/cpumask.h>
#include <linux/errno.h>
#include <linux/irqflags.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/record.h>
#include <linux/smp.h>
#include <asm/apic.h>
#include <asm/bitops.h>
#include <asm/perf_event.h>
#include <asm/processor.h>
#include <asm/traps.h>
#include <asm/tsc.h>

struct pmu_cpu {
	u32 bad_msr;		/* setup: the MSR that faulted, 0 if none */
	bool bad_write;		/* setup: that was a write */
	bool counts;		/* setup: FIXED_CTR0 was seen to advance */
	bool snap_ok[PMU_MAX_NEST];
	struct pmu_counts snap[PMU_MAX_NEST];	/* at pmu_workload_begin() */
	struct pmu_counts now;			/* at pmu_workload_end() */
};

static DEFINE_PER_CPU(struct pmu_cpu, pmu_cpu);
static struct x86_pmu_caps pmu_caps;
static bool pmu_on;
static char pmu_reason[96] = "the PMU has not been probed yet";
u64 x86_pmu_boot_seq = ~0ULL;
static char pmu_boot_line[192];

static DEFINE_MUTEX(pmu_lock);		/* pmu_depth and the snapshots */
static unsigned int pmu_depth;
/* Tests: counts from here instead of the MSRs, when there is no PMU. */
static bool (*pmu_fake_read)(struct pmu_counts *c);

bool x86_pmu_decode(u32 eax, u32 ebx, u32 edx, struct x86_pmu_caps *c)
{
	const u32 needed = BIT(ARCH_PERFMON_EVENT_CYCLES_BIT) |
			   BIT(ARCH_PERFMON_EVENT_INSNS_BIT);
	u32 missing;

	memset(c, 0, sizeof(*c));
	c->version = eax & 0xff;
	c->num_gp = (eax >> 8) & 0xff;
	c->gp_width = (eax >> 16) & 0xff;
	c->events_len = eax >> 24;
	c->events_missing = c->events_len >= 32 ? ebx :
			    ebx & ((1U << c->events_len) - 1);
	/* EDX is reserved before version 2. */
	if (c->version >= 2) {
		c->num_fixed = edx & 0x1f;
		c->fixed_width = (edx >> 5) & 0xff;
	}

	missing = c->events_missing & needed;
	if (!c->version)
		snprintf(c->reason, sizeof(c->reason), "CPUID.0AH version 0");
	else if (c->version < 2)
		snprintf(c->reason, sizeof(c->reason),
			 "perfmon version %u has no fixed counters", c->version);
	else if (c->num_fixed < 2)
		snprintf(c->reason, sizeof(c->reason),
			 "%u fixed counter%s, 2 needed", c->num_fixed,
			 c->num_fixed == 1 ? "" : "s");
	else if (c->fixed_width < 32 || c->fixed_width > 64)
		snprintf(c->reason, sizeof(c->reason),
			 "fixed counters %u bits wide", c->fixed_width);
	else if (missing)
		snprintf(c->reason, sizeof(c->reason),
			 "CPUID.0AH.EBX marks %s unavailable",
			 missing == needed ? "cycles and instructions" :
			 missing & BIT(ARCH_PERFMON_EVENT_CYCLES_BIT) ?
			 "core cycles" : "instructions retired");
	else
		c->usable = true;
	return c->usable;
}

int pmu_rdmsr_safe(u32 msr, u64 *val)
{
	struct fault_catcher fc;
	unsigned long flags;

	/* Interrupts off: the catcher is this CPU's until disarmed. */
	local_irq_save(flags);
	if (fault_catch(&fc, BIT(X86_TRAP_GP))) {
		local_irq_restore(flags);
		*val = 0;
		return -EIO;
	}
	*val = rdmsr(msr);
	fault_catch_disarm(&fc);
	local_irq_restore(flags);
	return 0;
}

int pmu_wrmsr_safe(u32 msr, u64 val)
{
	struct fault_catcher fc;
	unsigned long flags;

	local_irq_save(flags);
	if (fault_catch(&fc, BIT(X86_TRAP_GP))) {
		local_irq_restore(flags);
		return -EIO;
	}
	wrmsr(msr, val);
	fault_catch_disarm(&fc);
	local_irq_restore(flags);
	return 0;
}

static bool setup_rd(struct pmu_cpu *pc, u32 msr, u64 *val)
{
	if (!pmu_rdmsr_safe(msr, val))
		return true;
	pc->bad_msr = msr;
	return false;
}

static bool setup_wr(struct pmu_cpu *pc, u32 msr, u64 val)
{
	if (!pmu_wrmsr_safe(msr, val))
		return true;
	pc->bad_msr = msr;
	pc->bad_write = true;
	return false;
}

/* on_each_cpu(): FIXED_CTR0 and FIXED_CTR1 from zero, all CPLs, no PMI. */
static void pmu_program_cpu(void *unused)
{
	const u64 mine = BIT(GLOBAL_FIXED_BIT(X86_PMU_FIXED_INSNS)) |
			 BIT(GLOBAL_FIXED_BIT(X86_PMU_FIXED_CYCLES));
	const u64 field = FIXED_CTR_CTRL_OS | FIXED_CTR_CTRL_USR;
	struct pmu_cpu *pc = this_cpu_ptr(&pmu_cpu);
	u64 global, ctrl, before, after;

	pc->bad_msr = 0;
	pc->bad_write = false;
	pc->counts = false;
	if (!setup_rd(pc, MSR_CORE_PERF_GLOBAL_CTRL, &global) ||
	    !setup_rd(pc, MSR_CORE_PERF_FIXED_CTR_CTRL, &ctrl))
		return;
	/* Leave other counters' fields alone; this kernel does not use them. */
	ctrl &= ~(0xfULL << (X86_PMU_FIXED_INSNS * FIXED_CTR_CTRL_FIELD_BITS));
	ctrl &= ~(0xfULL << (X86_PMU_FIXED_CYCLES * FIXED_CTR_CTRL_FIELD_BITS));
	ctrl |= field << (X86_PMU_FIXED_INSNS * FIXED_CTR_CTRL_FIELD_BITS);
	ctrl |= field << (X86_PMU_FIXED_CYCLES * FIXED_CTR_CTRL_FIELD_BITS);
	if (!setup_wr(pc, MSR_CORE_PERF_GLOBAL_CTRL, global & ~mine) ||
	    !setup_wr(pc, MSR_CORE_PERF_FIXED_CTR_CTRL, ctrl) ||
	    !setup_wr(pc, MSR_CORE_PERF_FIXED_CTR0, 0) ||
	    !setup_wr(pc, MSR_CORE_PERF_FIXED_CTR1, 0) ||
	    !setup_wr(pc, MSR_CORE_PERF_GLOBAL_OVF_CTRL, mine) ||
	    !setup_wr(pc, MSR_CORE_PERF_GLOBAL_CTRL, global | mine))
		return;
	if (!setup_rd(pc, MSR_CORE_PERF_FIXED_CTR0, &before))
		return;
	for (int i = 0; i < 1000; i++)
		barrier();
	if (!setup_rd(pc, MSR_CORE_PERF_FIXED_CTR0, &after))
		return;
	pc->counts = after != before;
}

/* on_each_cpu(): undo pmu_program_cpu() where it got anywhere. */
static void pmu_stop_cpu(void *unused)
{
	u64 global;

	if (!pmu_rdmsr_safe(MSR_CORE_PERF_GLOBAL_CTRL, &global))
		pmu_wrmsr_safe(MSR_CORE_PERF_GLOBAL_CTRL,
			       global & ~(BIT(GLOBAL_FIXED_BIT(X86_PMU_FIXED_INSNS)) |
					  BIT(GLOBAL_FIXED_BIT(X86_PMU_FIXED_CYCLES))));
}

bool x86_pmu_program_all(char *why, size_t len)
{
	int cpu;

	on_each_cpu(pmu_program_cpu, NULL, 1);
	for_each_online_cpu(cpu) {
		struct pmu_cpu *pc = per_cpu_ptr(&pmu_cpu, cpu);

		if (pc->bad_msr)
			snprintf(why, len, "%s of MSR %#x faulted on CPU %d",
				 pc->bad_write ? "wrmsr" : "rdmsr", pc->bad_msr, cpu);
		else if (!pc->counts)
			snprintf(why, len, "FIXED_CTR0 does not advance on CPU %d", cpu);
		else
			continue;
		on_each_cpu(pmu_stop_cpu, NULL, 1);
		return false;
	}
	why[0] = '\0';
	return true;
}

/*
 * Before lockup_detector_init() (Linux's init_hw_perf_events(), an early
 * initcall): what the boot CPU's PMU offers, which the hard lockup
 * detector's choice of source reads.
 */
void x86_pmu_probe(void)
{
	u32 eax = 0, ebx = 0, ecx, edx = 0;

	if (boot_cpu_data.max_leaf >= X86_PMU_CPUID_LEAF)
		cpuid(X86_PMU_CPUID_LEAF, &eax, &ebx, &ecx, &edx);
	x86_pmu_decode(eax, ebx, edx, &pmu_caps);
	if (boot_cpu_data.max_leaf < X86_PMU_CPUID_LEAF)
		snprintf(pmu_caps.reason, sizeof(pmu_caps.reason),
			 "CPUID max leaf %#x, no leaf 0AH", boot_cpu_data.max_leaf);
}

/* After smp_init(): the fixed counters on every CPU, one "pmu: " line. */
void x86_pmu_init(void)
{
	const struct x86_pmu_caps *c = &pmu_caps;
	char fixed[32];

	snprintf(pmu_reason, sizeof(pmu_reason), "%s", c->reason);

	if (c->usable)
		pmu_on = x86_pmu_program_all(pmu_reason, sizeof(pmu_reason));

	if (c->num_fixed)
		snprintf(fixed, sizeof(fixed), "%u fixed %u-bit", c->num_fixed,
			 c->fixed_width);
	else
		snprintf(fixed, sizeof(fixed), "no fixed counters");
	if (!c->version)
		snprintf(pmu_boot_line, sizeof(pmu_boot_line), "pmu: none (%s)", pmu_reason);
	else if (pmu_on)
		snprintf(pmu_boot_line, sizeof(pmu_boot_line),
			 "pmu: architectural perfmon v%u, %u GP counters %u-bit, %s; counting instructions and cycles on %u CPUs",
			 c->version, c->num_gp, c->gp_width, fixed, num_online_cpus());
	else
		snprintf(pmu_boot_line, sizeof(pmu_boot_line),
			 "pmu: architectural perfmon v%u, %u GP counters %u-bit, %s; unavailable (%s)",
			 c->version, c->num_gp, c->gp_width, fixed, pmu_reason);
	x86_pmu_boot_seq = printk_next_seq();
	printk(KERN_INFO "%s\n", pmu_boot_line);
}

const char *x86_pmu_boot_line(void)
{
	return pmu_boot_line;
}

bool x86_pmu_available(void)
{
	return READ_ONCE(pmu_on) || READ_ONCE(pmu_fake_read);
}

void x86_pmu_fake_counters(bool (*read)(struct pmu_counts *c))
{
	mutex_lock(&pmu_lock);
	if (!pmu_on) {
		WRITE_ONCE(pmu_fake_read, read);
		pmu_depth = 0;
	}
	mutex_unlock(&pmu_lock);
}

const struct x86_pmu_caps *x86_pmu_caps(void)
{
	return &pmu_caps;
}

const char *x86_pmu_unavailable_reason(void)
{
	return pmu_reason;
}

bool pmu_read_local(struct pmu_counts *c)
{
	bool (*fake)(struct pmu_counts *c) = READ_ONCE(pmu_fake_read);

	if (fake)
		return fake(c);
	if (READ_ONCE(pmu_on) &&
	    !pmu_rdmsr_safe(MSR_CORE_PERF_FIXED_CTR0, &c->instructions) &&
	    !pmu_rdmsr_safe(MSR_CORE_PERF_FIXED_CTR1, &c->cycles))
		return true;
	c->instructions = c->cycles = 0;
	return false;
}

/*
 * Sampling on overflow, as perf's "cycles" event does: PMC0 starts at
 * -period and raises a PMI through LVTPC when it wraps; the NMI handler
 * reloads it.  Writes to IA32_PMC0 set bits 31:0 and sign-extend the
 * rest, so a period below 2^31 needs no full-width write support.  The
 * fixed counters keep counting for pmu_workload_*() meanwhile.
 */
static u64 pmu_sample_period;	/* cycles; 0 while not sampling */

static void pmu_sample_program_cpu(void *unused)
{
	const u64 sel = ARCH_PERFMON_UNHALTED_CORE_CYCLES_SEL | ARCH_PERFMON_EVENTSEL_USR |
			ARCH_PERFMON_EVENTSEL_OS | ARCH_PERFMON_EVENTSEL_INT |
			ARCH_PERFMON_EVENTSEL_ENABLE;
	struct pmu_cpu *pc = this_cpu_ptr(&pmu_cpu);
	u64 global;

	pc->bad_msr = 0;
	pc->bad_write = false;
	if (!setup_wr(pc, MSR_ARCH_PERFMON_EVENTSEL0, 0) ||
	    !setup_wr(pc, MSR_ARCH_PERFMON_PERFCTR0, -pmu_sample_period) ||
	    !setup_wr(pc, MSR_CORE_PERF_GLOBAL_OVF_CTRL, BIT(GLOBAL_PMC_BIT(0))) ||
	    !setup_rd(pc, MSR_CORE_PERF_GLOBAL_CTRL, &global) ||
	    !setup_wr(pc, MSR_CORE_PERF_GLOBAL_CTRL, global | BIT(GLOBAL_PMC_BIT(0))))
		return;
	apic_write(APIC_LVTPC, APIC_DM_NMI);
	setup_wr(pc, MSR_ARCH_PERFMON_EVENTSEL0, sel);
}

static void pmu_sample_stop_cpu(void *unused)
{
	u64 global;

	/* The hard lockup detector's PMC1 shares the vector. */
	if (!x86_pmu_hld_active())
		apic_write(APIC_LVTPC, APIC_LVT_MASKED);
	pmu_wrmsr_safe(MSR_ARCH_PERFMON_EVENTSEL0, 0);
	if (!pmu_rdmsr_safe(MSR_CORE_PERF_GLOBAL_CTRL, &global))
		pmu_wrmsr_safe(MSR_CORE_PERF_GLOBAL_CTRL, global & ~BIT(GLOBAL_PMC_BIT(0)));
}

int x86_pmu_sample_start(unsigned int hz, char *why, size_t len)
{
	int cpu;

	if (!READ_ONCE(pmu_on) || !pmu_caps.num_gp) {
		snprintf(why, len, "%s", pmu_on ? "no general-purpose counter" : pmu_reason);
		return -ENODEV;
	}
	if (!hz || !tsc_khz) {
		snprintf(why, len, "no cycle rate to derive a period from");
		return -ENODEV;
	}
	pmu_sample_period = min_t(u64, (u64)tsc_khz * 1000 / hz, 0x7fffffffULL);
	on_each_cpu(pmu_sample_program_cpu, NULL, 1);
	for_each_online_cpu(cpu) {
		struct pmu_cpu *pc = per_cpu_ptr(&pmu_cpu, cpu);

		if (!pc->bad_msr)
			continue;
		snprintf(why, len, "%s of MSR %#x faulted on CPU %d",
			 pc->bad_write ? "wrmsr" : "rdmsr", pc->bad_msr, cpu);
		x86_pmu_sample_stop();
		return -EIO;
	}
	return 0;
}

/* The period stays set until every CPU has stopped: a late PMI is still claimed. */
void x86_pmu_sample_stop(void)
{
	on_each_cpu(pmu_sample_stop_cpu, NULL, 1);
	WRITE_ONCE(pmu_sample_period, 0);
}

/*
 * NMI context, no locks, no fault catcher (the MSRs were proven at
 * start): ours if GLOBAL_STATUS shows PMC0's overflow.  The PMI set the
 * LVTPC mask bit, so the entry is written again.
 */
bool x86_pmu_sample_overflow(void)
{
	u64 period = READ_ONCE(pmu_sample_period);

	if (!period || !(rdmsr(MSR_CORE_PERF_GLOBAL_STATUS) & BIT(GLOBAL_PMC_BIT(0))))
		return false;
	wrmsr(MSR_ARCH_PERFMON_PERFCTR0, -period);
	wrmsr(MSR_CORE_PERF_GLOBAL_OVF_CTRL, BIT(GLOBAL_PMC_BIT(0)));
	apic_write(APIC_LVTPC, APIC_DM_NMI);
	return true;
}

u64 pmu_counter_delta(u64 begin, u64 end, unsigned int width)
{
	return width && width < 64 ? (end - begin) & ((1ULL << width) - 1) : end - begin;
}

/* on_each_cpu(): @info is the nesting level to fill. */
static void pmu_snap_begin(void *info)
{
	struct pmu_cpu *pc = this_cpu_ptr(&pmu_cpu);
	unsigned long level = (unsigned long)info;

	pc->snap_ok[level] = pmu_read_local(&pc->snap[level]);
}

static void pmu_snap_end(void *info)
{
	struct pmu_cpu *pc = this_cpu_ptr(&pmu_cpu);
	unsigned long level = (unsigned long)info;

	if (!pmu_read_local(&pc->now))
		pc->snap_ok[level] = false;
}

void pmu_workload_begin(void)
{
	int cpu;

	if (!x86_pmu_available())
		return;
	mutex_lock(&pmu_lock);
	if (pmu_depth < PMU_MAX_NEST) {
		for_each_possible_cpu(cpu)
			per_cpu(pmu_cpu, cpu).snap_ok[pmu_depth] = false;
		on_each_cpu(pmu_snap_begin, (void *)(unsigned long)pmu_depth, 1);
	}
	pmu_depth++;
	mutex_unlock(&pmu_lock);
}

/* "x.yy", rounded, or "-" without cycles; @buf holds 24 bytes. */
static const char *pmu_ipc(char *buf, u64 insns, u64 cycles, const char *none)
{
	u64 x100;

	if (!cycles)
		return none;
	/* Keep insns * 100 + cycles / 2 in 64 bits; the ratio barely moves. */
	while (insns > ~0ULL / 200 || cycles > ~0ULL / 200) {
		insns >>= 1;
		cycles >>= 1;
	}
	if (!cycles)
		return none;
	x100 = (insns * 100 + cycles / 2) / cycles;
	snprintf(buf, 24, "%llu.%02llu", (unsigned long long)(x100 / 100),
		 (unsigned long long)(x100 % 100));
	return buf;
}

/* @what as a JSON string body: no quotes, backslashes or controls. */
static void pmu_json_name(char *dst, size_t size, const char *what)
{
	size_t i = 0;

	for (; what[i] && i + 1 < size; i++)
		dst[i] = what[i] == '"' || what[i] == '\\' ||
			 (unsigned char)what[i] < 0x20 ||
			 (unsigned char)what[i] > 0x7e ? '_' : what[i];
	dst[i] = '\0';
}

static void pmu_emit(const char *json, int n)
{
	if (n > RECORD_MAX_JSON || record_emit(json) < 0)
		pr_warn("a record does not fit: %.60s...\n", json);
}

/* The total pmu_print_counts() printed last, for perf stat's summary. */
static struct pmu_counts pmu_last;
static bool pmu_last_ok;

bool pmu_last_total(struct pmu_counts *c)
{
	*c = pmu_last;
	return pmu_last_ok && x86_pmu_available();
}

void pmu_print_counts(const char *what, const struct cpumask *cpus,
		      const struct pmu_counts *delta)
{
	char name[33], json[RECORD_MAX_JSON + 1], ipc[24];
	u64 sum_insns = 0, sum_cycles = 0;
	unsigned int n = 0;
	int cpu;

	pmu_json_name(name, sizeof(name), what);
	pr_info("after %s: instructions retired and unhalted core cycles (fixed counters)\n",
		what);
	pr_info("CPU %20s %20s %7s\n", "instructions", "cycles", "IPC");
	for_each_cpu(cpu, cpus) {
		u64 insns = delta[cpu].instructions, cycles = delta[cpu].cycles;

		sum_insns += insns;
		sum_cycles += cycles;
		n++;
		pr_info("%3d %20llu %20llu %7s\n", cpu, (unsigned long long)insns,
			(unsigned long long)cycles, pmu_ipc(ipc, insns, cycles, "-"));
		pmu_emit(json, snprintf(json, sizeof(json),
			 "{\"type\":\"pmu\",\"what\":\"%s\",\"available\":true,\"cpu\":%d,"
			 "\"instructions\":%llu,\"cycles\":%llu,\"ipc\":%s}", name, cpu,
			 (unsigned long long)insns, (unsigned long long)cycles,
			 pmu_ipc(ipc, insns, cycles, "null")));
	}
	pmu_last.instructions = sum_insns;
	pmu_last.cycles = sum_cycles;
	pmu_last_ok = true;
	pr_info("all %20llu %20llu %7s\n", (unsigned long long)sum_insns,
		(unsigned long long)sum_cycles, pmu_ipc(ipc, sum_insns, sum_cycles, "-"));
	pmu_emit(json, snprintf(json, sizeof(json),
		 "{\"type\":\"pmu_total\",\"what\":\"%s\",\"available\":true,\"cpus\":%u,"
		 "\"instructions\":%llu,\"cycles\":%llu,\"ipc\":%s}", name, n,
		 (unsigned long long)sum_insns, (unsigned long long)sum_cycles,
		 pmu_ipc(ipc, sum_insns, sum_cycles, "null")));
}

/* Under pmu_lock: the CPUs counted at @level and what they counted. */
static struct cpumask pmu_report_cpus;
static struct pmu_counts pmu_report_delta[CONFIG_NR_CPUS];

static void pmu_report(unsigned int level, const char *what)
{
	unsigned int width = pmu_caps.fixed_width;
	int cpu;

	cpumask_clear(&pmu_report_cpus);
	for_each_online_cpu(cpu) {
		struct pmu_cpu *pc = per_cpu_ptr(&pmu_cpu, cpu);
		struct pmu_counts *d = &pmu_report_delta[cpu];

		if (!pc->snap_ok[level])
			continue;
		d->instructions = pmu_counter_delta(pc->snap[level].instructions,
						    pc->now.instructions, width);
		d->cycles = pmu_counter_delta(pc->snap[level].cycles, pc->now.cycles, width);
		cpumask_set_cpu(cpu, &pmu_report_cpus);
	}
	pmu_print_counts(what, &pmu_report_cpus, pmu_report_delta);
}

void pmu_workload_end(const char *what)
{
	char name[33], json[RECORD_MAX_JSON + 1];
	unsigned int level;

	if (!what)
		what = "boot";
	if (!x86_pmu_available()) {
		pmu_json_name(name, sizeof(name), what);
		pr_info("unavailable (%s)\n", pmu_reason);
		pmu_emit(json, snprintf(json, sizeof(json),
			 "{\"type\":\"pmu\",\"what\":\"%s\",\"available\":false,\"reason\":\"%s\"}",
			 name, pmu_reason));
		return;
	}
	mutex_lock(&pmu_lock);
	if (!pmu_depth) {
		pr_warn("%s: pmu_workload_end() without pmu_workload_begin()\n", what);
		goto out;
	}
	level = --pmu_depth;
	if (level >= PMU_MAX_NEST) {
		pr_warn("%s: not counted: begin/end pairs nest more than %d deep\n", what,
			PMU_MAX_NEST);
		goto out;
	}
	on_each_cpu(pmu_snap_end, (void *)(unsigned long)level, 1);
	pmu_report(level, what);
out:
	mutex_unlock(&pmu_lock);
}

/*
 * The hard lockup detector's PMU source (Linux: a perf "cycles" event
 * per CPU from hardlockup_detector_perf_init(), with the period of
 * arch/x86's hw_nmi_get_sample_period()).  PMC1 counts unhalted core
 * cycles and its overflow raises an NMI through LVTPC.  PMC0 is the
 * profiler's (x86_pmu_sample_start()), so two general-purpose counters
 * are needed.  Without full-width counter writes a counter can be loaded
 * with at most 2^31 - 1 (bits 31:0, sign-extended): a longer period is
 * run in such pieces, as perf's x86_pmu.max_period does, and only the
 * piece that ends it is reported as an overflow.
 *
 * Never run here: QEMU's TCG has no PMU (CPUID.0AH version 0).
 */
#define HLD_PMC			1
#define HLD_MAX_PIECE		0x7fffffffULL

static u64 hld_period;			/* cycles; 0 while the source is off */
static DEFINE_PER_CPU(u64, hld_left);	/* cycles of the period still to run */
static DEFINE_PER_CPU(u64, hld_piece);	/* what the counter was loaded with */

/* Linux's hw_nmi_get_sample_period(); irqlab knows the TSC's rate only. */
u64 hw_nmi_get_sample_period(int watchdog_thresh)
{
	return (u64)tsc_khz * 1000 * watchdog_thresh;
}

bool x86_pmu_hld_usable(const struct x86_pmu_caps *c, u64 period, char *why, size_t len)
{
	if (!c->version)
		snprintf(why, len, "CPUID.0AH version 0");
	else if (c->num_gp < 2)
		snprintf(why, len, "%u general-purpose counter%s, 2 needed (PMC0 is the profiler's)",
			 c->num_gp, c->num_gp == 1 ? "" : "s");
	else if (c->gp_width < 32)
		snprintf(why, len, "general-purpose counters %u bits wide", c->gp_width);
	else if (!c->events_len ||
		 (c->events_missing & BIT(ARCH_PERFMON_EVENT_CYCLES_BIT)))
		snprintf(why, len, "CPUID.0AH.EBX marks core cycles unavailable");
	else if (!period)
		snprintf(why, len, "no cycle rate to derive a period from");
	else
		return true;
	return false;
}

/* Load PMC1 with the next piece of this CPU's period. */
static void hld_load_piece(void)
{
	u64 piece = min(__this_cpu_read(hld_left), HLD_MAX_PIECE);

	__this_cpu_write(hld_piece, piece);
	wrmsr(MSR_ARCH_PERFMON_PERFCTR0 + HLD_PMC, -piece);
}

/* On this CPU: PMC1 counts cycles and raises an NMI when a period is up. */
int x86_pmu_hld_start_cpu(u64 period)
{
	const u64 sel = ARCH_PERFMON_UNHALTED_CORE_CYCLES_SEL | ARCH_PERFMON_EVENTSEL_USR |
			ARCH_PERFMON_EVENTSEL_OS | ARCH_PERFMON_EVENTSEL_INT |
			ARCH_PERFMON_EVENTSEL_ENABLE;
	u64 global;

	WRITE_ONCE(hld_period, period);
	__this_cpu_write(hld_left, period);
	if (pmu_wrmsr_safe(MSR_ARCH_PERFMON_EVENTSEL0 + HLD_PMC, 0) ||
	    pmu_wrmsr_safe(MSR_ARCH_PERFMON_PERFCTR0 + HLD_PMC, 0))
		return -EIO;
	hld_load_piece();
	/* Version 1 has no global controls: the counter runs on its own bit. */
	if (pmu_caps.version >= 2 &&
	    (pmu_wrmsr_safe(MSR_CORE_PERF_GLOBAL_OVF_CTRL, BIT(GLOBAL_PMC_BIT(HLD_PMC))) ||
	     pmu_rdmsr_safe(MSR_CORE_PERF_GLOBAL_CTRL, &global) ||
	     pmu_wrmsr_safe(MSR_CORE_PERF_GLOBAL_CTRL, global | BIT(GLOBAL_PMC_BIT(HLD_PMC)))))
		return -EIO;
	apic_write(APIC_LVTPC, APIC_DM_NMI);
	return pmu_wrmsr_safe(MSR_ARCH_PERFMON_EVENTSEL0 + HLD_PMC, sel) ? -EIO : 0;
}

void x86_pmu_hld_stop_cpu(void)
{
	u64 global;

	pmu_wrmsr_safe(MSR_ARCH_PERFMON_EVENTSEL0 + HLD_PMC, 0);
	if (pmu_caps.version >= 2 && !pmu_rdmsr_safe(MSR_CORE_PERF_GLOBAL_CTRL, &global))
		pmu_wrmsr_safe(MSR_CORE_PERF_GLOBAL_CTRL, global & ~BIT(GLOBAL_PMC_BIT(HLD_PMC)));
}

/*
 * NMI context: did PMC1 overflow?  Then the next piece is loaded and
 * LVTPC, masked by the PMI, re-armed; *@period_done says whether that
 * ended a whole period (the detector checks only then).
 */
bool x86_pmu_hld_overflow(bool *period_done)
{
	u64 period = READ_ONCE(hld_period), left;

	if (!period)
		return false;
	if (pmu_caps.version >= 2) {
		if (!(rdmsr(MSR_CORE_PERF_GLOBAL_STATUS) & BIT(GLOBAL_PMC_BIT(HLD_PMC))))
			return false;
		wrmsr(MSR_CORE_PERF_GLOBAL_OVF_CTRL, BIT(GLOBAL_PMC_BIT(HLD_PMC)));
	} else if (rdmsr(MSR_ARCH_PERFMON_PERFCTR0 + HLD_PMC) & (1ULL << (pmu_caps.gp_width - 1))) {
		/* Still negative: it has not wrapped, the NMI is not ours. */
		return false;
	}
	left = __this_cpu_read(hld_left) - __this_cpu_read(hld_piece);
	*period_done = !left;
	__this_cpu_write(hld_left, left ? left : period);
	hld_load_piece();
	apic_write(APIC_LVTPC, APIC_DM_NMI);
	return true;
}

bool x86_pmu_hld_active(void)
{
	return READ_ONCE(hld_period) != 0;
}

void x86_pmu_hld_off(void)
{
	WRITE_ONCE(hld_period, 0);
}
