/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_PROFILE_H
#define _LINUX_PROFILE_H

/*
 * A sampling profiler, "perf top" for the guest (kernel/events/profile.c):
 * a pinned hard hrtimer on every online CPU samples the interrupted
 * instruction pointer (and a few frame-pointer callers) at a set rate
 * into a per-CPU table; profile_print() symbolizes and prints the top
 * symbols and emits records.  Process context for all of these.
 */
#include <linux/types.h>

#define PROFILE_DEPTH		4	/* the sampled RIP and up to 3 callers */
#define PROFILE_MAX_ENTRIES	512	/* per CPU */

/* Start sampling at @hz into tables of @entries per CPU; -EBUSY/-ENOMEM/-EINVAL. */
int profile_start(unsigned int hz, unsigned int entries);
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
