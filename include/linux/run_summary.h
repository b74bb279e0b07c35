/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_RUN_SUMMARY_H
#define _LINUX_RUN_SUMMARY_H

/*
 * The one line every run ends with (mode, clock, CPUs, worst latency,
 * worst IRQ-off window and its opener, lost records, verdict).  Workloads
 * and tracers report into it after they measure, never from inside a
 * measured section; init prints it last.
 */
#include <linux/types.h>

/* A workload's worst wakeup latency, e.g. ("cyclic", 3909). Keeps the max. */
void run_summary_latency(const char *what, u64 ns);
/* The worst IRQ-off window a tracer saw and the function that opened it. */
void run_summary_irqoff(const char *tracer, u64 ns, const char *opener);
/* Records, samples or periods a workload or tracer lost (added up). */
void run_summary_lost(const char *what, unsigned long n);
/* Periods a cyclic workload skipped because it woke too late (added up). */
void run_summary_missed(const char *what, unsigned long n);
/* A threshold (cyclic.threshold_us, tracing_thresh) was crossed. */
void run_summary_breach(const char *what, u64 ns, u64 thresh_ns);
/* A command-line error, repeated in the summary line (not "see above"). */
void run_summary_cmdline_error(const char *msg);
/* What "lost" adds up to so far (reported drops, refused records, printk). */
unsigned long run_summary_lost_total(void);
/* Print the line; @verdict is "ok", "fail" or the like. */
void run_summary_print(const char *verdict);

#endif
