/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_CPUMASK_H
#define _LINUX_CPUMASK_H

#include <linux/bitmap.h>

#define NR_CPUS		CONFIG_NR_CPUS

struct cpumask {
	DECLARE_BITMAP(bits, NR_CPUS);
};
typedef struct cpumask cpumask_t;

extern struct cpumask __cpu_possible_mask, __cpu_online_mask, __cpu_present_mask;
extern struct cpumask __cpu_active_mask;
#define cpu_possible_mask	(&__cpu_possible_mask)
#define cpu_online_mask		(&__cpu_online_mask)
#define cpu_present_mask	(&__cpu_present_mask)
/* CPUs the scheduler may place tasks on: online minus those going down. */
#define cpu_active_mask		(&__cpu_active_mask)
extern unsigned int nr_cpu_ids;

#define cpumask_bits(m)		((m)->bits)

static inline void cpumask_set_cpu(unsigned int cpu, struct cpumask *m)
{
	set_bit(cpu, m->bits);
}

static inline void cpumask_clear_cpu(unsigned int cpu, struct cpumask *m)
{
	clear_bit(cpu, m->bits);
}

static inline bool cpumask_test_cpu(unsigned int cpu, const struct cpumask *m)
{
	return test_bit(cpu, m->bits);
}

static inline void cpumask_clear(struct cpumask *m)
{
	for (unsigned int i = 0; i < BITS_TO_LONGS(NR_CPUS); i++)
		m->bits[i] = 0;
}

static inline void cpumask_copy(struct cpumask *dst, const struct cpumask *src)
{
	*dst = *src;
}

/* *dst = *a & *b; true if the result is not empty. */
static inline bool cpumask_and(struct cpumask *dst, const struct cpumask *a,
			       const struct cpumask *b)
{
	unsigned long any = 0;

	for (unsigned int i = 0; i < BITS_TO_LONGS(NR_CPUS); i++) {
		dst->bits[i] = READ_ONCE(a->bits[i]) & READ_ONCE(b->bits[i]);
		any |= dst->bits[i];
	}
	return any != 0;
}

static inline unsigned int cpumask_weight(const struct cpumask *m)
{
	return bitmap_weight(m->bits, NR_CPUS);
}

static inline unsigned int cpumask_first(const struct cpumask *m)
{
	return find_first_bit(m->bits, NR_CPUS);
}

static inline unsigned int cpumask_next(int n, const struct cpumask *m)
{
	return find_next_bit(m->bits, NR_CPUS, n + 1);
}

#define for_each_cpu(cpu, mask)						\
	for ((cpu) = cpumask_first(mask); (cpu) < NR_CPUS;		\
	     (cpu) = cpumask_next((cpu), (mask)))

/* The highest CPU in @m, or NR_CPUS if it is empty. */
static inline unsigned int cpumask_last(const struct cpumask *m)
{
	unsigned int cpu, last = NR_CPUS;

	for_each_cpu(cpu, m)
		last = cpu;
	return last;
}

#define for_each_possible_cpu(cpu)	for_each_cpu((cpu), cpu_possible_mask)
#define for_each_online_cpu(cpu)	for_each_cpu((cpu), cpu_online_mask)
#define for_each_present_cpu(cpu)	for_each_cpu((cpu), cpu_present_mask)

const struct cpumask *cpumask_of(int cpu);

#define num_online_cpus()	cpumask_weight(cpu_online_mask)
#define num_possible_cpus()	cpumask_weight(cpu_possible_mask)
#define cpu_online(cpu)		cpumask_test_cpu((cpu), cpu_online_mask)
#define cpu_present(cpu)	cpumask_test_cpu((cpu), cpu_present_mask)
#define cpu_possible(cpu)	cpumask_test_cpu((cpu), cpu_possible_mask)
#define cpu_active(cpu)		cpumask_test_cpu((cpu), cpu_active_mask)
#define cpu_is_offline(cpu)	unlikely(!cpu_online(cpu))
#define num_active_cpus()	cpumask_weight(cpu_active_mask)

static inline void set_cpu_online(unsigned int cpu, bool online)
{
	if (online)
		cpumask_set_cpu(cpu, cpu_online_mask);
	else
		cpumask_clear_cpu(cpu, cpu_online_mask);
}

static inline void set_cpu_active(unsigned int cpu, bool active)
{
	if (active)
		cpumask_set_cpu(cpu, cpu_active_mask);
	else
		cpumask_clear_cpu(cpu, cpu_active_mask);
}

#endif
