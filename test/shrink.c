// SPDX-License-Identifier: GPL-2.0
/*
 * run=shrink: the seed's "make slab shrink lockless" test in miniature.
 * shrink.count shrinkers are registered (empty caches: count_objects()
 * returns 0, as most of the seed's per-memcg shrinkers did), one thread per
 * online CPU calls shrink_slab() back to back for shrink.duration_ms, and
 * another thread registers and unregisters a shrinker over and over.
 * Reported: shrink_slab() calls per second, TSC cycles per call (under
 * icount at SMP=1 the TSC counts instructions, so the figure is exact and
 * reproducible; min is a call no interrupt landed in), and the latency of
 * unregister_shrinker(), which SHRINKER_SRCU makes wait for a grace period
 * (with SHRINKER_REFCOUNT: shrinker_free(), which waits for the walkers
 * inside that one shrinker only).
 */
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/slab.h>
#include <linux/sched.h>
#include <linux/kthread.h>
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/ktest.h>
#include <linux/moduleparam.h>
#include <linux/record.h>
#include <linux/shrinker.h>
#include <asm/tsc.h>
#include "workload.h"

static int shrink_nr = 1000;
static int shrink_duration_ms = 1000;
static int shrink_reg_interval_us = 1000;

core_param_range("shrink.count", shrink_nr, int, 1, 100000,
		 "registered shrinkers that shrink_slab() walks");
core_param_range("shrink.duration_ms", shrink_duration_ms, int, 1, 600000,
		 "how long the shrink_slab() threads run");
core_param_range("shrink.reg_interval_us", shrink_reg_interval_us, int, 0, 1000000,
		 "pause between the registrar's register/unregister rounds (0: none)");

static const char *shrink_variant(void)
{
	return SHRINKER_VARIANT;
}

/* count_objects() calls per CPU: how much of the list the walks reached. */
static DEFINE_PER_CPU(unsigned long, shrink_visits);

static unsigned long shrink_count_empty(struct shrinker *s, struct shrink_control *sc)
{
	this_cpu_inc(shrink_visits);
	return 0;
}

static unsigned long shrink_scan_none(struct shrinker *s, struct shrink_control *sc)
{
	return SHRINK_STOP;
}

static void shrink_init_one(struct shrinker *s)
{
	s->count_objects = shrink_count_empty;
	s->scan_objects = shrink_scan_none;
	s->seeks = DEFAULT_SEEKS;
}

/*
 * One shrinker, registered the way the variant's kernels did: 5.15 and 6.4
 * callers embed a struct shrinker and register_shrinker() it (@slot), 6.7
 * callers get theirs from shrinker_alloc(), so shrink_slab() calls their
 * callbacks directly rather than through a register_shrinker() stand-in.
 */
static struct shrinker *shrink_add(struct shrinker *slot)
{
#ifdef CONFIG_SHRINKER_REFCOUNT
	struct shrinker *s = shrinker_alloc(0, "shrink");

	if (!s)
		return NULL;
	shrink_init_one(s);
	shrinker_register(s);
	return s;
#else
	shrink_init_one(slot);
	return register_shrinker(slot) ? NULL : slot;
#endif
}

static void shrink_del(struct shrinker *s)
{
#ifdef CONFIG_SHRINKER_REFCOUNT
	shrinker_free(s);
#else
	unregister_shrinker(s);
#endif
}

struct shrink_worker {
	u64 calls, cycles, min_cycles;
};

struct shrink_run {
	volatile bool stop;
	atomic_t running;
	struct task_struct *waiter;
	struct shrink_worker w[NR_CPUS];
	/* The registrar's unregister_shrinker() latencies. */
	u64 unreg_n, unreg_sum_ns, unreg_min_ns, unreg_max_ns;
	int errors;
};

struct shrink_arg {
	struct shrink_run *r;
	int cpu;
};

static int shrink_worker_fn(void *arg)
{
	struct shrink_arg *a = arg;
	struct shrink_run *r = a->r;
	struct shrink_worker *w = &r->w[a->cpu];
	struct task_struct *waiter = r->waiter;

	w->min_cycles = ~0ULL;
	while (!READ_ONCE(r->stop)) {
		u64 t0 = rdtsc_ordered(), d;

		shrink_slab(GFP_KERNEL, 0, NULL, DEF_PRIORITY);
		d = rdtsc_ordered() - t0;
		w->calls++;
		w->cycles += d;
		if (d < w->min_cycles)
			w->min_cycles = d;
	}
	workload_done(&r->running, waiter);
	return 0;
}

static int shrink_registrar_fn(void *arg)
{
	struct shrink_run *r = arg;
	struct task_struct *waiter = r->waiter;
	struct shrinker slot = {}, *s;

	r->unreg_min_ns = ~0ULL;
	while (!READ_ONCE(r->stop)) {
		u64 t0, d;

		s = shrink_add(&slot);
		if (!s) {
			r->errors++;
			break;
		}
		t0 = ktime_get_ns();
		shrink_del(s);
		d = ktime_get_ns() - t0;
		r->unreg_n++;
		r->unreg_sum_ns += d;
		if (d < r->unreg_min_ns)
			r->unreg_min_ns = d;
		if (d > r->unreg_max_ns)
			r->unreg_max_ns = d;
		if (shrink_reg_interval_us >= 1000)
			msleep(shrink_reg_interval_us / 1000);
		else if (shrink_reg_interval_us)
			udelay(shrink_reg_interval_us);
		cond_resched();
	}
	workload_done(&r->running, waiter);
	return 0;
}

static void shrink_report(const struct shrink_run *r, int nr, int cpus, u64 ns)
{
	const char *clock = ktest_clock_mode();
	u64 calls = 0, cycles = 0, visits = 0, min = ~0ULL, per_s, per_call_100, visits_100;
	u64 unreg_avg, unreg_min;
	int cpu;

	for_each_online_cpu(cpu) {
		calls += r->w[cpu].calls;
		cycles += r->w[cpu].cycles;
		visits += per_cpu(shrink_visits, cpu);
		if (r->w[cpu].calls && r->w[cpu].min_cycles < min)
			min = r->w[cpu].min_cycles;
	}
	if (!calls)
		min = 0;
	per_s = ns ? calls * NSEC_PER_SEC / ns : 0;
	per_call_100 = calls ? cycles * 100 / calls : 0;
	visits_100 = calls ? visits * 100 / calls : 0;
	unreg_avg = r->unreg_n ? r->unreg_sum_ns / r->unreg_n : 0;
	unreg_min = r->unreg_n ? r->unreg_min_ns : 0;
	pr_info("shrink: %s: %d shrinkers, %d CPU(s), %llu shrink_slab() calls in %llu ms "
		"(%llu/s), %llu.%02llu cycles per call (min %llu, %s), "
		"%llu.%02llu shrinkers visited per call\n",
		shrink_variant(), nr, cpus, (unsigned long long)calls,
		(unsigned long long)(ns / 1000000), (unsigned long long)per_s,
		(unsigned long long)(per_call_100 / 100), (unsigned long long)(per_call_100 % 100),
		(unsigned long long)min, clock, (unsigned long long)(visits_100 / 100),
		(unsigned long long)(visits_100 % 100));
	pr_info("shrink: %s: unregister_shrinker() %llu times: min %llu avg %llu max %llu ns (%s)\n",
		shrink_variant(), (unsigned long long)r->unreg_n, (unsigned long long)unreg_min,
		(unsigned long long)unreg_avg, (unsigned long long)r->unreg_max_ns, clock);
	/* Two records: one would pass RECORD_MAX_JSON. */
	if (record_emitf("{\"type\":\"shrink\",\"variant\":\"%s\",\"shrinkers\":%d,\"cpus\":%d,"
			 "\"ms\":%llu,\"calls\":%llu,\"cycles_per_call\":%llu.%02llu,"
			 "\"min_cycles\":%llu,\"visits_per_call\":%llu.%02llu,\"clock\":\"%s\"}",
			 shrink_variant(), nr, cpus, (unsigned long long)(ns / 1000000),
			 (unsigned long long)calls, (unsigned long long)(per_call_100 / 100),
			 (unsigned long long)(per_call_100 % 100), (unsigned long long)min,
			 (unsigned long long)(visits_100 / 100),
			 (unsigned long long)(visits_100 % 100), clock) < 0)
		pr_warn("shrink: the record does not fit\n");
	if (record_emitf("{\"type\":\"shrink_unreg\",\"variant\":\"%s\",\"n\":%llu,"
			 "\"min_ns\":%llu,\"avg_ns\":%llu,\"max_ns\":%llu,\"clock\":\"%s\"}",
			 shrink_variant(), (unsigned long long)r->unreg_n,
			 (unsigned long long)unreg_min, (unsigned long long)unreg_avg,
			 (unsigned long long)r->unreg_max_ns, clock) < 0)
		pr_warn("shrink: the unregister record does not fit\n");
}

/* The run=shrink workload. */
int shrink_run(void)
{
	static struct shrink_arg args[NR_CPUS];
	struct shrink_run *r;
	struct shrinker *sh, **reg;
	unsigned int before = shrinker_count();
	int nr = shrink_nr, cpus = 0, cpu, ret = 0;
	u64 t0, ns;

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	sh = IS_ENABLED(CONFIG_SHRINKER_REFCOUNT) ? NULL : kcalloc(nr, sizeof(*sh), GFP_KERNEL);
	reg = kcalloc(nr, sizeof(*reg), GFP_KERNEL);
	if (!r || !reg || (!sh && !IS_ENABLED(CONFIG_SHRINKER_REFCOUNT))) {
		pr_err("shrink: not run: out of memory\n");
		kfree(r);
		kfree(sh);
		kfree(reg);
		return 1;
	}
	for (int i = 0; i < nr; i++) {
		reg[i] = shrink_add(sh ? &sh[i] : NULL);
		if (!reg[i]) {
			pr_err("shrink: not run: out of memory registering shrinker %d\n", i);
			while (i--)
				shrink_del(reg[i]);
			kfree(sh);
			kfree(reg);
			kfree(r);
			return 1;
		}
	}
	for_each_online_cpu(cpu)
		per_cpu(shrink_visits, cpu) = 0;
	r->waiter = current;
	atomic_set(&r->running, 1);	/* the registrar */
	for_each_online_cpu(cpu) {
		struct task_struct *p;

		args[cpu] = (struct shrink_arg){ .r = r, .cpu = cpu };
		p = kthread_create(shrink_worker_fn, &args[cpu], "shrink/%d", cpu);
		if (!p) {
			pr_err("shrink: no thread for CPU %d\n", cpu);
			ret = 1;
			continue;
		}
		kthread_bind(p, cpu);
		atomic_inc(&r->running);
		cpus++;
		wake_up_process(p);
	}
	t0 = ktime_get_ns();
	if (!kthread_run(shrink_registrar_fn, r, "shrink_reg")) {
		pr_err("shrink: no registrar thread\n");
		atomic_dec(&r->running);
		ret = 1;
	}
	msleep(shrink_duration_ms);
	WRITE_ONCE(r->stop, true);
	workload_wait_zero(&r->running);
	ns = ktime_get_ns() - t0;
	shrink_report(r, nr, cpus, ns);
	if (r->errors) {
		pr_err("shrink: the registrar could not register a shrinker\n");
		ret = 1;
	}
	for (int i = 0; i < nr; i++)
		shrink_del(reg[i]);
	if (shrinker_count() != before) {
		pr_err("shrink: %u shrinkers left registered, %u before\n", shrinker_count(), before);
		ret = 1;
	}
	kfree(sh);
	kfree(reg);
	kfree(r);
	return ret;
}
