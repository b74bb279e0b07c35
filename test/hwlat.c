// SPDX-License-Identifier: GPL-2.0
/*
 * hwlat: hardware and firmware latency detection, after Linux's hwlat
 * tracer and rt-tests' hwlatdetect (DESIGN 7).  Meant for physical
 * machines: it looks for time the CPU loses to something the kernel
 * cannot see (SMIs, firmware, a hypervisor), so on QEMU it mostly
 * measures the host.
 *
 *	run=hwlat hwlat.cpus=<list> hwlat.width_us=<us> hwlat.window_us=<us>
 *	    hwlat.threshold_us=<us> hwlat.windows=<n>
 *
 * One sampling thread visits the CPUs of hwlat.cpus round robin, one
 * window each.  In a window it turns interrupts off (local_irq_disable)
 * for width and reads the TSC twice per iteration:
 *
 *	inner  t2 - t1 within one iteration
 *	outer  t1 of an iteration - t2 of the one before
 *
 * Nothing in the kernel runs in between (interrupts are off), so a gap
 * longer than the threshold is time taken from the CPU behind the
 * kernel's back; NMIs taken meanwhile are counted so they can be told
 * apart.  It then sleeps until the window ends (at least 1 ms) and moves
 * to the next CPU.  The width is capped at HWLAT_MAX_WIDTH_US (500 ms,
 * Linux's default width): interrupts stay off that long on purpose, so
 * never run this next to anything that measures latency.
 *
 * Reported after the last window (nothing is printed while sampling):
 * one line per window above the threshold in the hwlat tracer's form
 * "#<n> inner/outer(us): <in>/<out> ...", a per-CPU table, hwlatdetect's
 * "Max Latency", "Samples recorded" and "Samples exceeding threshold",
 * and records "hwlat_sample" (per window above the threshold), "hwlat"
 * (per CPU) and "hwlat_summary".
 */
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/sched.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/delay.h>
#include <linux/smp.h>
#include <linux/irqflags.h>
#include <linux/ktest.h>
#include <linux/moduleparam.h>
#include <linux/record.h>
#include <linux/vmalloc.h>
#include <asm/hardirq.h>
#include <asm/processor.h>
#include <asm/tsc.h>
#include "hwlat.h"
#include "cpulist.h"

static int hwlat_width_us = HWLAT_MAX_WIDTH_US;
static int hwlat_window_us = 1000000;
static int hwlat_threshold_us = 10;
static int hwlat_windows;		/* 0: one per CPU */
static struct cpulist_param hwlat_cpus;

core_param_range("hwlat.width_us", hwlat_width_us, int, 1, HWLAT_MAX_WIDTH_US,
		 "interrupts-off sampling time per window (us, at most 500000)");
core_param_range("hwlat.window_us", hwlat_window_us, int, 1000, 100000000,
		 "window: the width plus the sleep after it (us, >= hwlat.width_us)");
core_param_range("hwlat.threshold_us", hwlat_threshold_us, int, 1, 1000000,
		 "a gap between two TSC reads longer than this is a latency (us)");
core_param_range("hwlat.windows", hwlat_windows, int, 0, 1000000,
		 "windows to sample, round robin over hwlat.cpus (0: one per CPU)");
core_param_cb("hwlat.cpus", &cpulist_param_ops, &hwlat_cpus,
	      "CPUs to sample, e.g. 0,2-3 (default: every online CPU)");

static u64 ns_to_tsc(u64 ns)
{
	return ns * tsc_khz / 1000000;
}

/*
 * One window on this CPU, interrupts off.  No printk, no allocation, no
 * sleeping: only TSC reads and arithmetic.
 */
static void hwlat_sample_window(const struct hwlat_params *p, struct hwlat_sample *s,
				bool inject)
{
	u64 width = ns_to_tsc(p->width_ns), thresh = ns_to_tsc(p->threshold_ns);
	u64 inject_at = inject ? width / 2 : ~0ULL;
	u64 start, t1, t2, o, last_t2 = 0, inner = 0, outer = 0, n = 0;
	unsigned long nmi0 = this_cpu_read(irq_stat.__nmi_count);
	unsigned int count = 0;
	bool measure_next;

	s->injected = false;
	start = rdtsc_ordered();
	do {
		measure_next = false;
		t1 = rdtsc_ordered();
		if (unlikely(t1 - start >= inject_at) && !p->inject_outer) {
			ndelay(p->inject_ns);
			inject_at = ~0ULL;
			s->injected = true;
		}
		t2 = rdtsc_ordered();
		n++;
		o = last_t2 ? t1 - last_t2 : 0;
		if (o > outer)
			outer = o;
		if (t2 - t1 > inner)
			inner = t2 - t1;
		if (t2 - t1 > thresh || o > thresh)
			count++;
		/* Between this iteration and the next, which measures it. */
		if (unlikely(t2 - start >= inject_at) && p->inject_outer) {
			ndelay(p->inject_ns);
			inject_at = ~0ULL;
			s->injected = true;
			measure_next = true;
		}
		last_t2 = t2;
		/*
		 * A stretch still to inject, or one the next iteration has to
		 * measure, carries the window past its width: under plain TCG
		 * a host stall between two iterations can jump past both the
		 * middle and the end (seen: four windows in a row at load 25).
		 */
	} while (t2 - start < width || inject_at != ~0ULL || measure_next);

	s->cpu = smp_processor_id();
	s->inner_ns = cycles_to_ns(inner);
	s->outer_ns = cycles_to_ns(outer);
	s->width_ns = cycles_to_ns(t2 - start);
	s->iterations = n;
	s->count = count;
	s->nmi_count = this_cpu_read(irq_stat.__nmi_count) - nmi0;
}

static int hwlat_thread_fn(void *data)
{
	struct hwlat_result *r = data;
	const struct hwlat_params *p = &r->params;
	u64 sleep_ns = p->window_ns - p->width_ns;
	int cpu = cpumask_first(&p->cpus);
	struct task_struct *waiter;

	for (unsigned int w = 0; w < p->windows; w++) {
		unsigned long flags;

		set_cpus_allowed_ptr(current, cpumask_of(cpu));
		local_irq_save(flags);
		hwlat_sample_window(p, &r->samples[w], p->inject_ns && w == p->inject_window);
		local_irq_restore(flags);
		r->nr_samples = w + 1;
		/* As Linux's hwlatd: always sleep at least 1 ms. */
		usleep_range(max(sleep_ns, NSEC_PER_MSEC) / NSEC_PER_USEC,
			     max(sleep_ns, NSEC_PER_MSEC) / NSEC_PER_USEC);
		cpu = cpumask_next(cpu, &p->cpus);
		if (cpu >= NR_CPUS)
			cpu = cpumask_first(&p->cpus);
	}
	/* @r may be freed as soon as done is seen. */
	waiter = r->waiter;
	smp_store_release(&r->done, true);
	wake_up_process(waiter);
	return 0;
}

void hwlat_free(struct hwlat_result *r)
{
	if (!r)
		return;
	vfree(r->samples);
	vfree(r);
}

struct hwlat_result *hwlat_measure(const struct hwlat_params *p)
{
	struct hwlat_result *r = vzalloc(sizeof(*r));
	struct task_struct *t;

	if (!r)
		return NULL;
	r->params = *p;
	r->waiter = current;
	r->samples = vzalloc(sizeof(*r->samples) * max(p->windows, 1U));
	if (!r->samples) {
		hwlat_free(r);
		return NULL;
	}
	t = ktest_kthread(hwlat_thread_fn, r, "hwlatd", -1, SCHED_NORMAL, 0);
	if (!t) {
		r->failed = true;
		return r;
	}
	r->pid = t->pid;
	wake_up_process(t);
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (smp_load_acquire(&r->done))
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	for (unsigned int w = 0; w < r->nr_samples; w++) {
		const struct hwlat_sample *s = &r->samples[w];

		if (!s->count)
			continue;
		r->exceeding++;
		r->max_ns = max(r->max_ns, max(s->inner_ns, s->outer_ns));
	}
	return r;
}

/* --- reporting ------------------------------------------------------- */

static u64 us(u64 ns)
{
	return ns / NSEC_PER_USEC;
}

void hwlat_report(const struct hwlat_result *r)
{
	const struct hwlat_params *p = &r->params;
	const char *clock = ktest_clock_mode();
	unsigned int seq = 0;
	long bad = 0;		/* negative once a record_emitf() failed */
	int cpu;

	/* The hwlat tracer's trace lines, one per window above the threshold. */
	for (unsigned int w = 0; w < r->nr_samples; w++) {
		const struct hwlat_sample *s = &r->samples[w];

		if (!s->count)
			continue;
		pr_info("#%-5u inner/outer(us): %4llu/%-4llu cpu:%d count:%u nmi-count:%lu "
			"window:%u\n", ++seq, (unsigned long long)us(s->inner_ns),
			(unsigned long long)us(s->outer_ns), s->cpu, s->count, s->nmi_count, w);
		bad |= record_emitf("{\"type\":\"hwlat_sample\",\"seq\":%u,\"cpu\":%d,"
				    "\"window\":%u,\"inner_ns\":%llu,\"outer_ns\":%llu,"
				    "\"count\":%u,\"nmi\":%lu,\"clock\":\"%s\"}",
				    seq, s->cpu, w, (unsigned long long)s->inner_ns,
				    (unsigned long long)s->outer_ns, s->count, s->nmi_count, clock);
	}
	pr_info("hwlat: CPU  windows  exceeding  max inner(ns)  max outer(ns)  gaps  NMIs  "
		"iterations/window\n");
	for_each_cpu(cpu, &p->cpus) {
		u64 inner = 0, outer = 0, iters = 0;
		unsigned long nmi = 0;
		unsigned int n = 0, exceeding = 0, gaps = 0;

		for (unsigned int w = 0; w < r->nr_samples; w++) {
			const struct hwlat_sample *s = &r->samples[w];

			if (s->cpu != cpu)
				continue;
			n++;
			exceeding += !!s->count;
			gaps += s->count;
			nmi += s->nmi_count;
			iters += s->iterations;
			inner = max(inner, s->inner_ns);
			outer = max(outer, s->outer_ns);
		}
		if (!n)
			continue;
		pr_info("hwlat: %3d  %7u  %9u  %13llu  %13llu  %4u  %4lu  %llu\n", cpu, n,
			exceeding, (unsigned long long)inner, (unsigned long long)outer, gaps,
			nmi, (unsigned long long)(iters / n));
		bad |= record_emitf("{\"type\":\"hwlat\",\"cpu\":%d,\"windows\":%u,"
				    "\"exceeding\":%u,\"inner_ns\":%llu,\"outer_ns\":%llu,"
				    "\"gaps\":%u,\"nmi\":%lu,\"clock\":\"%s\"}",
				    cpu, n, exceeding, (unsigned long long)inner,
				    (unsigned long long)outer, gaps, nmi, clock);
	}
	/* hwlatdetect's summary. */
	pr_info("Max Latency: %llu us\n", (unsigned long long)us(r->max_ns));
	pr_info("Samples recorded: %u\n", r->exceeding);
	pr_info("Samples exceeding threshold: %u\n", r->exceeding);
	bad |= record_emitf("{\"type\":\"hwlat_summary\",\"windows\":%u,\"exceeding\":%u,"
			    "\"max_ns\":%llu,\"width_us\":%llu,\"threshold_ns\":%llu,"
			    "\"clock\":\"%s\"}", r->nr_samples, r->exceeding,
			    (unsigned long long)r->max_ns,
			    (unsigned long long)us(p->width_ns),
			    (unsigned long long)p->threshold_ns, clock);
	if (bad < 0)
		pr_warn("hwlat: a record did not fit\n");
}

/* The run=hwlat workload. */
int hwlat_run(void)
{
	struct hwlat_params p = {
		.width_ns = (u64)hwlat_width_us * NSEC_PER_USEC,
		.window_ns = (u64)hwlat_window_us * NSEC_PER_USEC,
		.threshold_ns = (u64)hwlat_threshold_us * NSEC_PER_USEC,
	};
	struct hwlat_result *r;
	char cpus[96];
	int failed;

	if (hwlat_width_us > hwlat_window_us) {
		pr_err("hwlat: hwlat.width_us=%d is longer than hwlat.window_us=%d "
		       "(the width is the interrupts-off part of each window)\n",
		       hwlat_width_us, hwlat_window_us);
		return 1;
	}
	cpulist_param_mask(&hwlat_cpus, &p.cpus);
	if (cpulist_check_online("hwlat", &p.cpus))
		return 1;
	p.windows = hwlat_windows ? hwlat_windows : cpumask_weight(&p.cpus);
	cpulist_format(cpus, sizeof(cpus), &p.cpus);
	pr_info("hwlat: %u window(s) round robin on CPU(s) %s: interrupts off for %d us of "
		"every %d us, threshold %d us, clock %s\n", p.windows, cpus, hwlat_width_us,
		hwlat_window_us, hwlat_threshold_us, ktest_clock_mode());
	pr_info("hwlat: meant for physical machines; under QEMU it measures the host\n");
	console_flush();
	r = hwlat_measure(&p);
	if (!r) {
		pr_err("hwlat: no memory for %u samples\n", p.windows);
		return 1;
	}
	failed = r->failed;
	if (failed)
		pr_err("hwlat: cannot start the sampling thread\n");
	else
		hwlat_report(r);
	pr_info("hwlat: done, %d failure(s)\n", failed);
	hwlat_free(r);
	return failed;
}
