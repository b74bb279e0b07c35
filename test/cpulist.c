// SPDX-License-Identifier: GPL-2.0
/*
 * CPU-list command-line parameters for the workloads (see cpulist.h).
 */
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/smp.h>
#include <stdlib.h>
#include "cpulist.h"

int cpulist_parse(const char *val, struct cpumask *mask)
{
	const char *p = val;

	cpumask_clear(mask);
	if (!val || !*val)
		return -EINVAL;
	for (;;) {
		unsigned long first, last;
		char *end;

		if (*p < '0' || *p > '9')
			return -EINVAL;
		first = last = strtoul(p, &end, 10);
		if (*end == '-') {
			p = end + 1;
			if (*p < '0' || *p > '9')
				return -EINVAL;
			last = strtoul(p, &end, 10);
		}
		if (first > last)
			return -EINVAL;
		if (last >= NR_CPUS)
			return -ERANGE;
		for (unsigned long cpu = first; cpu <= last; cpu++)
			cpumask_set_cpu(cpu, mask);
		if (!*end)
			return 0;
		if (*end != ',')
			return -EINVAL;
		p = end + 1;
	}
}

int cpulist_format(char *buf, size_t size, const struct cpumask *mask)
{
	size_t n = 0;
	int cpu;

	buf[0] = '\0';
	for_each_cpu(cpu, mask)
		if (n < size)
			n += sniprintf(buf + n, size - n, "%s%d", n ? "," : "", cpu);
	return min(n, size - 1);
}

static int cpulist_param_set(const char *val, const struct kernel_param *kp)
{
	struct cpulist_param *cp = kp->arg;
	struct cpumask mask;

	if (cpulist_parse(val, &mask)) {
		pr_err("irqlab: parameter '%s': '%s' is not a CPU list such as 0,2-3 "
		       "(valid CPUs: 0..%d)\n", kp->name, val ? val : "", NR_CPUS - 1);
		return -EINVAL;
	}
	cpumask_copy(&cp->mask, &mask);
	cp->set = true;
	return 0;
}

static int cpulist_param_get(char *buf, size_t size, const struct kernel_param *kp)
{
	const struct cpulist_param *cp = kp->arg;

	if (!cp->set)
		return sniprintf(buf, size, "all online");
	return cpulist_format(buf, size, &cp->mask);
}

const struct kernel_param_ops cpulist_param_ops = {
	.set = cpulist_param_set,
	.get = cpulist_param_get,
	.type = "a CPU list",
};

void cpulist_param_mask(const struct cpulist_param *cp, struct cpumask *mask)
{
	cpumask_copy(mask, cp->set ? &cp->mask : cpu_online_mask);
}

int cpulist_check_online(const char *who, const struct cpumask *mask)
{
	int cpu;

	for_each_cpu(cpu, mask) {
		if (!cpu_online(cpu)) {
			pr_err("%s: CPU %d of %s.cpus= is not online (online: 0..%u)\n",
			       who, cpu, who, num_online_cpus() - 1);
			return 1;
		}
	}
	return 0;
}
