/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TEST_CPULIST_H
#define _TEST_CPULIST_H

/*
 * A "<workload>.cpus=" command-line parameter: a CPU list such as 0,2-3,
 * shared by the workloads that run on a set of CPUs (test/cpulist.c).
 *
 *	static struct cpulist_param foo_cpus;
 *	core_param_cb("foo.cpus", &cpulist_param_ops, &foo_cpus, "help");
 *	...
 *	cpulist_param_mask(&foo_cpus, &mask);	// the list, or every online CPU
 */
#include <linux/types.h>
#include <linux/cpumask.h>
#include <linux/moduleparam.h>

struct cpulist_param {
	struct cpumask mask;
	bool set;		/* given on the command line */
};

extern const struct kernel_param_ops cpulist_param_ops;

/* Parse @val into @mask: 0 or -EINVAL (syntax) / -ERANGE (CPU >= NR_CPUS). */
int cpulist_parse(const char *val, struct cpumask *mask);
/* "0,2,3" into @buf; returns the length. */
int cpulist_format(char *buf, size_t size, const struct cpumask *mask);
/* The parameter's CPUs, or every online CPU when it was not given. */
void cpulist_param_mask(const struct cpulist_param *cp, struct cpumask *mask);
/*
 * 0 if every CPU of @mask is online, else prints
 * "<who>: CPU n of <who>.cpus= is not online (online: ...)" and returns 1.
 */
int cpulist_check_online(const char *who, const struct cpumask *mask);

#endif
