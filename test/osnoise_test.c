// SPDX-License-Identifier: GPL-2.0
/*
 * osnoise's engine (test/osnoise.c): a hard-IRQ stall of known length (a
 * pinned hrtimer whose handler busy-waits, armed half-way through each
 * runtime by a test hook) is seen as a gap at least that long and is put
 * down to an interrupt, not to the hardware; the totals hang together
 * (single <= per period <= total <= runtime); and under icount, where
 * the "hardware" cannot take time, no gap is called hardware noise.
 */
#include <linux/ktest.h>
#include <linux/ktime.h>
#include <linux/smp.h>
#include <linux/cpumask.h>
#include <asm/tsc.h>
#include "osnoise.h"

#define OSN_T_RUNTIME_NS	(20 * NSEC_PER_MSEC)
#define OSN_T_STALL_NS		(300 * NSEC_PER_USEC)

static struct osnoise_result *osn_t_run(struct ktest *t, unsigned int periods, u64 runtime_ns,
					u64 period_ns, u64 inject_ns)
{
	struct osnoise_params p = {
		.period_ns = period_ns,
		.runtime_ns = runtime_ns,
		.threshold_ns = 5000,
		.periods = periods,
		.fifo = true,
		.prio = 95,
		.inject_irq_ns = inject_ns,
	};
	struct osnoise_result *r;

	cpumask_copy(&p.cpus, cpu_online_mask);
	r = osnoise_measure(&p);
	KTEST_ASSERT_TRUE(t, r != NULL);
	KTEST_EXPECT_EQ(t, r->nr_cpus, num_online_cpus());
	for (unsigned int i = 0; i < r->nr_cpus; i++) {
		const struct osnoise_cpu *c = &r->cpus[i];

		KTEST_EXPECT_FALSE(t, c->failed);
		ktest_info(t, "CPU %d: runtime %llu ns, noise %llu ns (max %llu per period, %llu "
			   "single), %llu gaps, hw %llu, nmi %llu, irq %llu, softirq %llu, "
			   "thread %llu (%s)", c->cpu, (unsigned long long)c->runtime_ns,
			   (unsigned long long)c->noise_ns, (unsigned long long)c->max_noise_ns,
			   (unsigned long long)c->max_single_ns, (unsigned long long)c->samples,
			   (unsigned long long)c->hw, (unsigned long long)c->nmi,
			   (unsigned long long)c->irq, (unsigned long long)c->softirq,
			   (unsigned long long)c->thread, ktest_clock_mode());
		/*
		 * Each runtime ends at the first sample past it, counted in TSC
		 * cycles (the bound rounded down to cycles), and goes back to ns
		 * through cycles_to_ns(), whose multiplier is rounded too: each
		 * period is at least the bound's own round trip.  How far that is
		 * below runtime_ns depends on the calibrated rate (19999998 and
		 * 19999995 of 20000000 seen), not on the host.
		 */
		KTEST_EXPECT_GE(t, c->runtime_ns,
				periods * cycles_to_ns(runtime_ns * tsc_khz / 1000000));
		KTEST_EXPECT_GE(t, c->runtime_ns + periods * NSEC_PER_USEC, periods * runtime_ns);
		KTEST_EXPECT_LE(t, c->max_single_ns, c->max_noise_ns);
		KTEST_EXPECT_LE(t, c->max_noise_ns, c->noise_ns);
		KTEST_EXPECT_LE(t, c->noise_ns, c->runtime_ns);
		KTEST_EXPECT_LE(t, c->hw, c->samples);
		KTEST_EXPECT_EQ(t, c->samples == 0, c->noise_ns == 0);
		KTEST_EXPECT_LE(t, osnoise_avail(c), 10000000);
		/* icount: time passes only when instructions run, never behind our back. */
		if (ktest_exact_time)
			KTEST_EXPECT_EQ(t, c->hw, 0);
	}
	return r;
}

static void osnoise_irq_stall_found(struct ktest *t)
{
	struct osnoise_result *r = osn_t_run(t, 1, OSN_T_RUNTIME_NS, OSN_T_RUNTIME_NS,
					     OSN_T_STALL_NS);

	for (unsigned int i = 0; i < r->nr_cpus; i++) {
		const struct osnoise_cpu *c = &r->cpus[i];

		KTEST_EXPECT_EQ(t, c->injected, 1);
		KTEST_EXPECT_GE(t, c->max_single_ns, OSN_T_STALL_NS);
		KTEST_EXPECT_GE(t, c->noise_ns, OSN_T_STALL_NS);
		KTEST_EXPECT_GE(t, c->samples, 1);
		KTEST_EXPECT_GE(t, c->irq, 1);
		/* icount: the stall and the interrupt's entry and exit, no more. */
		if (ktest_exact_time)
			KTEST_EXPECT_LT(t, c->max_single_ns, OSN_T_STALL_NS + 50 * NSEC_PER_USEC);
	}
	osnoise_free(r);
}

static void osnoise_bookkeeping(struct ktest *t)
{
	struct osnoise_result *r = osn_t_run(t, 3, 5 * NSEC_PER_MSEC, 8 * NSEC_PER_MSEC, 0);

	for (unsigned int i = 0; i < r->nr_cpus; i++)
		KTEST_EXPECT_EQ(t, r->cpus[i].injected, 0);
	osnoise_free(r);
}

static struct ktest_case osnoise_cases[] = {
	KTEST_CASE(osnoise_irq_stall_found),
	KTEST_CASE(osnoise_bookkeeping),
	{}
};

static struct ktest_suite osnoise_suite = {
	.name = "osnoise",
	.cases = osnoise_cases,
};
ktest_register_suite(osnoise_suite);
