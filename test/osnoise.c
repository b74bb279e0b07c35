// SPDX-License-Identifier: GPL-2.0
/*
 * osnoise: operating-system noise as a busy thread sees it, after Linux's
 * osnoise tracer and rtla osnoise (DESIGN 7).  One spinner per selected
 * CPU (SCHED_NORMAL, as rtla's default, or SCHED_FIFO) reads the TSC in
 * a tight loop for osnoise.runtime_us of every osnoise.period_us; a gap
 * of osnoise.threshold_ns or more between two reads is time the CPU
 * spent elsewhere: noise.
 *
 *	run=osnoise osnoise.cpus=<list> osnoise.period_us=<us>
 *	    osnoise.runtime_us=<us> osnoise.threshold_ns=<ns>
 *	    osnoise.duration_ms=<ms> osnoise.policy=normal|fifo osnoise.prio=<1..99>
 *
 * What took the time is told by per-CPU counters read at every sample,
 * one increment per event, so the loop stays a few loads long: hard
 * interrupts (kstat.irqs_sum), softirq actions (kstat.softirqs_sum), NMIs
 * (irq_stat.__nmi_count) and the spinner's own context switches (another
 * thread ran).  A gap with none of them is hardware noise ("HW"), as in
 * the tracer.  The spinner calls cond_resched() every iteration, so on
 * the non-preemptible models it lets other threads run, as Linux's does.
 *
 * Reported when every spinner is done: rtla osnoise's summary table
 * (time in us: Runtime, Noise, % CPU Aval, Max Noise per period, Max
 * Single, then the HW, NMI, IRQ, Softirq and Thread counts) and records
 * "osnoise" and "osnoise_interference" per CPU.
 */
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/sched.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/delay.h>
#include <linux/smp.h>
#include <linux/kernel_stat.h>
#include <linux/ktest.h>
#include <linux/moduleparam.h>
#include <linux/record.h>
#include <linux/vmalloc.h>
#include <asm/hardirq.h>
#include <asm/processor.h>
#include <asm/tsc.h>
#include "workload.h"
#include "osnoise.h"
#include "cpulist.h"

static int osn_period_us = 1000000;
static int osn_runtime_us = 1000000;
static int osn_threshold_ns = 5000;
static int osn_duration_ms;
static int osn_policy;		/* index into osn_policies */
static int osn_prio = 95;
static struct cpulist_param osn_cpus;
static const char *const osn_policies[] = { "normal", "fifo", NULL };

core_param_range("osnoise.period_us", osn_period_us, int, 100, 100000000,
		 "sampling period (us)");
core_param_range("osnoise.runtime_us", osn_runtime_us, int, 100, 100000000,
		 "spinning part of each period (us, at most osnoise.period_us)");
core_param_range("osnoise.threshold_ns", osn_threshold_ns, int, 1, 1000000000,
		 "a gap between two TSC reads this long or longer is noise (ns)");
core_param_range("osnoise.duration_ms", osn_duration_ms, int, 0, 3600000,
		 "run for this many ms of periods (0: one period)");
core_param_enum("osnoise.policy", osn_policy, osn_policies,
		"scheduling policy of the spinners (rtla's default: normal)");
core_param_range("osnoise.prio", osn_prio, int, 1, MAX_RT_PRIO - 1,
		 "SCHED_FIFO priority of the spinners with osnoise.policy=fifo");
core_param_cb("osnoise.cpus", &cpulist_param_ops, &osn_cpus,
	      "CPUs to measure on, e.g. 0,2-3 (default: every online CPU)");

static u64 ns_to_tsc(u64 ns)
{
	return ns * tsc_khz / 1000000;
}

/*
 * Interference events on @cpu so far, the spinner's switches included.
 */
static inline u64 osnoise_events(int cpu)
{
	return kstat_cpu_irqs_sum(cpu) + kstat_cpu_softirqs_sum(cpu) +
	       READ_ONCE(per_cpu(irq_stat, cpu).__nmi_count) +
	       READ_ONCE(current->nvcsw) + READ_ONCE(current->nivcsw);
}

/*
 * The TSC and the event count that go with it: read again until no event
 * came between the two, so a gap from the previous sample to this one
 * had an event in it exactly when the counts differ.
 */
static inline u64 osnoise_read(int cpu, u64 *ev)
{
	u64 now;

	do {
		*ev = osnoise_events(cpu);
		now = rdtsc_ordered();
	} while (unlikely(*ev != osnoise_events(cpu)));
	return now;
}

struct osnoise_counts {
	u64 irq, softirq, nmi, csw;
};

static void osnoise_counts(int cpu, struct osnoise_counts *c)
{
	c->irq = kstat_cpu_irqs_sum(cpu);
	c->softirq = kstat_cpu_softirqs_sum(cpu);
	c->nmi = READ_ONCE(per_cpu(irq_stat, cpu).__nmi_count);
	c->csw = current->nvcsw + current->nivcsw;
}

/* Test hook: a stall of known length in hard-IRQ context. */
static enum hrtimer_restart osnoise_inject_fn(struct hrtimer *timer)
{
	struct osnoise_cpu *c = container_of(timer, struct osnoise_cpu, timer);

	ndelay(c->res->params.inject_irq_ns);
	c->injected++;
	return HRTIMER_NORESTART;
}

/* One runtime on this CPU.  No printk, no allocation in here. */
static void osnoise_sample(struct osnoise_cpu *c, const struct osnoise_params *p)
{
	u64 thresh = ns_to_tsc(p->threshold_ns), runtime = ns_to_tsc(p->runtime_ns);
	u64 start, now, last, ev, last_ev, noise = 0, single = 0;
	struct osnoise_counts before, after;
	int cpu = c->cpu;

	osnoise_counts(cpu, &before);
	if (p->inject_irq_ns)
		hrtimer_start(&c->timer, (ktime_t)(p->runtime_ns / 2),
			      HRTIMER_MODE_REL_PINNED_HARD);
	start = last = osnoise_read(cpu, &last_ev);
	do {
		now = osnoise_read(cpu, &ev);
		if (now - last >= thresh) {
			noise += now - last;
			if (now - last > single)
				single = now - last;
			c->samples++;
			if (ev == last_ev)
				c->hw++;
		}
		last = now;
		last_ev = ev;
		cond_resched();
	} while (now - start < runtime);
	if (p->inject_irq_ns)
		hrtimer_cancel(&c->timer);
	osnoise_counts(cpu, &after);

	c->runtime_ns += cycles_to_ns(now - start);
	c->noise_ns += cycles_to_ns(noise);
	c->max_noise_ns = max(c->max_noise_ns, cycles_to_ns(noise));
	c->max_single_ns = max(c->max_single_ns, cycles_to_ns(single));
	c->irq += after.irq - before.irq;
	c->softirq += after.softirq - before.softirq;
	c->nmi += after.nmi - before.nmi;
	c->thread += after.csw - before.csw;
}

static int osnoise_thread_fn(void *data)
{
	struct osnoise_cpu *c = data;
	struct osnoise_result *r = c->res;
	const struct osnoise_params *p = &r->params;
	struct task_struct *waiter = r->waiter;

	hrtimer_init(&c->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	c->timer.function = osnoise_inject_fn;
	for (unsigned int i = 0; i < p->periods; i++) {
		u64 end = ktime_get_ns() + p->period_ns, now;

		osnoise_sample(c, p);
		now = ktime_get_ns();
		if (i + 1 < p->periods && now < end)
			usleep_range((end - now) / NSEC_PER_USEC, (end - now) / NSEC_PER_USEC);
	}
	/* @r may be freed as soon as the count reaches zero. */
	workload_done(&r->running, waiter);
	return 0;
}

void osnoise_free(struct osnoise_result *r)
{
	if (!r)
		return;
	vfree(r->cpus);
	vfree(r);
}

struct osnoise_result *osnoise_measure(const struct osnoise_params *p)
{
	unsigned int n = cpumask_weight(&p->cpus), i = 0;
	struct osnoise_result *r = vzalloc(sizeof(*r));
	int cpu;

	if (!r)
		return NULL;
	r->params = *p;
	r->cpus = vzalloc(sizeof(*r->cpus) * max(n, 1U));
	if (!r->cpus) {
		vfree(r);
		return NULL;
	}
	r->nr_cpus = n;
	r->waiter = current;
	atomic_set(&r->running, n);
	for_each_cpu(cpu, &p->cpus) {
		struct osnoise_cpu *c = &r->cpus[i++];

		c->cpu = cpu;
		c->res = r;
	}
	for (i = 0; i < n; i++) {
		struct osnoise_cpu *c = &r->cpus[i];
		struct task_struct *t;

		t = ktest_kthread(osnoise_thread_fn, c, "osnoise", c->cpu,
				  p->fifo ? SCHED_FIFO : SCHED_NORMAL, p->fifo ? p->prio : 0);
		if (!t) {
			/* Not started: it never runs. */
			c->failed = true;
			atomic_dec(&r->running);
			continue;
		}
		c->pid = t->pid;
		wake_up_process(t);
	}
	workload_wait_zero(&r->running);
	return r;
}

u64 osnoise_avail(const struct osnoise_cpu *c)
{
	if (!c->runtime_ns)
		return 0;
	return (c->runtime_ns - min(c->noise_ns, c->runtime_ns)) * 10000000ULL / c->runtime_ns;
}

/* --- reporting ------------------------------------------------------- */

static unsigned long long us(u64 ns)
{
	return ns / NSEC_PER_USEC;
}

void osnoise_report(const struct osnoise_result *r)
{
	const char *clock = ktest_clock_mode();
	long bad = 0;		/* negative once a record_emitf() failed */

	pr_info("osnoise: Operating System Noise, time is in us, clock %s\n", clock);
	pr_info("CPU Period       Runtime        Noise  %% CPU Aval   Max Noise   Max Single"
		"          HW          NMI          IRQ      Softirq       Thread\n");
	for (unsigned int i = 0; i < r->nr_cpus; i++) {
		const struct osnoise_cpu *c = &r->cpus[i];
		u64 avail = osnoise_avail(c);

		if (c->failed)
			continue;
		pr_info("%3d #%-6u %12llu %12llu %5llu.%05llu %11llu %12llu %11llu %12llu "
			"%12llu %12llu %12llu\n", c->cpu, r->params.periods, us(c->runtime_ns),
			us(c->noise_ns), (unsigned long long)(avail / 100000),
			(unsigned long long)(avail % 100000), us(c->max_noise_ns),
			us(c->max_single_ns), (unsigned long long)c->hw,
			(unsigned long long)c->nmi, (unsigned long long)c->irq,
			(unsigned long long)c->softirq, (unsigned long long)c->thread);
		bad |= record_emitf("{\"type\":\"osnoise\",\"cpu\":%d,\"periods\":%u,"
				    "\"runtime_ns\":%llu,\"noise_ns\":%llu,\"max_noise_ns\":%llu,"
				    "\"max_single_ns\":%llu,\"avail_e7\":%llu,\"clock\":\"%s\"}",
				    c->cpu, r->params.periods, (unsigned long long)c->runtime_ns,
				    (unsigned long long)c->noise_ns,
				    (unsigned long long)c->max_noise_ns,
				    (unsigned long long)c->max_single_ns,
				    (unsigned long long)avail, clock);
		bad |= record_emitf("{\"type\":\"osnoise_interference\",\"cpu\":%d,"
				    "\"samples\":%llu,\"hw\":%llu,\"nmi\":%llu,\"irq\":%llu,"
				    "\"softirq\":%llu,\"thread\":%llu}", c->cpu,
				    (unsigned long long)c->samples, (unsigned long long)c->hw,
				    (unsigned long long)c->nmi, (unsigned long long)c->irq,
				    (unsigned long long)c->softirq, (unsigned long long)c->thread);
	}
	if (bad < 0)
		pr_warn("osnoise: a record did not fit\n");
}

/* The run=osnoise workload. */
int osnoise_run(void)
{
	struct osnoise_params p = {
		.period_ns = (u64)osn_period_us * NSEC_PER_USEC,
		.runtime_ns = (u64)osn_runtime_us * NSEC_PER_USEC,
		.threshold_ns = osn_threshold_ns,
		.fifo = osn_policy == 1,
		.prio = osn_prio,
	};
	struct osnoise_result *r;
	int failed = 0;
	char cpus[96];

	if (osn_runtime_us > osn_period_us) {
		pr_err("osnoise: osnoise.runtime_us=%d is longer than osnoise.period_us=%d\n",
		       osn_runtime_us, osn_period_us);
		return 1;
	}
	p.periods = max(1U, (unsigned int)((u64)osn_duration_ms * 1000 / osn_period_us));
	cpulist_param_mask(&osn_cpus, &p.cpus);
	if (cpulist_check_online("osnoise", &p.cpus))
		return 1;
	cpulist_format(cpus, sizeof(cpus), &p.cpus);
	pr_info("osnoise: %u spinner(s) on CPU(s) %s, %s, %u period(s) of %d us spinning "
		"%d us, threshold %d ns, clock %s\n", cpumask_weight(&p.cpus), cpus,
		p.fifo ? "SCHED_FIFO" : "SCHED_NORMAL", p.periods, osn_period_us,
		osn_runtime_us, osn_threshold_ns, ktest_clock_mode());
	console_flush();
	r = osnoise_measure(&p);
	if (!r) {
		pr_err("osnoise: no memory for %u CPUs\n", cpumask_weight(&p.cpus));
		return 1;
	}
	osnoise_report(r);
	for (unsigned int i = 0; i < r->nr_cpus; i++) {
		if (r->cpus[i].failed) {
			pr_err("osnoise: cannot start the spinner on CPU %d\n", r->cpus[i].cpu);
			failed++;
		}
	}
	pr_info("osnoise: done, %d failure(s)\n", failed);
	osnoise_free(r);
	return failed ? 1 : 0;
}
