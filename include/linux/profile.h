/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_PROFILE_H
#define _LINUX_PROFILE_H

/*
 * A sampling profiler, "perf top" for the guest (kernel/events/profile.c):
 * an NMI (the PMU's overflow, or the HPET's) or a pinned hard hrtimer on
 * every online CPU samples the interrupted instruction pointer (and a few
 * frame-pointer callers) at a set rate into a per-CPU table;
 * profile_print() symbolizes and prints the top symbols and emits
 * records.  Process context for all of these but profile_nmi().
 */
#include <linux/types.h>

struct pt_regs;

/* profile.source= */
enum profile_source {
	PROFILE_SOURCE_HRTIMER,	/* cpu-clock: blind inside IRQ-off sections */
	PROFILE_SOURCE_NMI,	/* the PMU's overflow NMI, else the HPET's */
	PROFILE_SOURCE_AUTO,	/* NMI where the machine has one, else hrtimer */
};

#define PROFILE_DEPTH		4	/* the sampled RIP and up to 3 callers */
#define PROFILE_MAX_ENTRIES	512	/* per CPU */

/*
 * Start sampling at @hz into tables of @entries per CPU, from @src;
 * -EBUSY/-ENOMEM/-EINVAL, or -ENODEV when @src is NMI and the machine
 * has no NMI source (the reason is printed).
 */
int profile_start_source(unsigned int hz, unsigned int entries, enum profile_source src);
/* As above, from profile.source= (default auto). */
int profile_start(unsigned int hz, unsigned int entries);
/* What filled the tables: "hrtimer", "nmi-hpet" or "nmi-pmu" ("" with none). */
const char *profile_source_name(void);
/* Periods that produced no sample (IRQs off under hrtimer, coalesced NMIs). */
u64 profile_missed(void);
/* Samples CPU @cpu took (kept or dropped). */
u64 profile_cpu_samples(int cpu);
/* HPET-source NMIs taken without a sample (see profile_nmi_unknown()). */
u64 profile_nmi_echoes(void);
/* Tests: @cpu is inside the HPET-source NMI handler, past taking its count. */
bool profile_nmi_busy(int cpu);
/* Debug: a delay inside that window (0: none) on one CPU, to widen it in tests. */
extern unsigned int profile_nmi_delay_us;
extern int profile_nmi_delay_cpu;
/* Stop the timers; the tables stay for profile_totals()/profile_print(). */
void profile_stop(void);
/* Samples taken and samples that found no room (all CPUs). */
void profile_totals(u64 *total, u64 *dropped);
/* Samples counted in the tables. */
u64 profile_kept(void);
/* Samples whose RIP lies in the function @sym, all of them for NULL (after profile_stop()). */
u64 profile_sym_count(const char *sym);
/* Print the top profile.top symbols and the records for @what, then free. */
void profile_print(const char *what);
void profile_free(void);

/* run=: sample each run of a workload when profile.hz is set. */
void profile_workload_begin(void);
void profile_workload_end(void);
void profile_workload_print(const char *what);

#endif
