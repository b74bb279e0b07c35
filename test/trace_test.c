// SPDX-License-Identifier: GPL-2.0
/*
 * The latency tracers (kernel/trace/trace_irqsoff.c): windows of known
 * length (a TSC busy-wait with interrupts, preemption or migration off)
 * come back with that length and with this file's functions as start and
 * end sites; histograms hold every window; the worst list is sorted and
 * led by the maximum; threshold mode keeps what it can and counts the
 * rest; the idle loop's halt is no preempt-off window; interrupts open
 * windows at their entry.  Under icount (SMP=1) the lengths are exact to
 * the hooks' own instructions.
 */
#include <linux/ktest.h>
#include <linux/kallsyms.h>
#include <linux/delay.h>
#include <linux/irqflags.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/trace_irqsoff.h>
#include <linux/run_summary.h>
#include <asm/processor.h>
#include <asm/tsc.h>

#ifdef CONFIG_TRACER_MAX_TRACE

#define TT_WAIT_CYCLES	200000ULL
/* Under icount: what the hooks and the loop's last round may add. */
#define TT_EXACT_SLACK	2000

struct tt_saved {
	unsigned int mask, worst;
	u64 thr, fine;
};

static struct tt_saved tt_save(void)
{
	struct tt_saved s;

	latency_tracer_get(&s.mask, &s.thr, &s.fine, &s.worst);
	return s;
}

static void tt_restore(struct tt_saved s)
{
	latency_tracer_set(s.mask, s.thr, s.fine, s.worst);
}

static bool tt_in(unsigned long ip, const char *func)
{
	unsigned long size, off;
	const char *name = ip ? kallsyms_lookup(ip - 1, &size, &off) : NULL;

	return name && !strcmp(name, func);
}

static __always_inline void tt_spin(u64 cycles)
{
	u64 t0 = rdtsc();

	while (rdtsc() - t0 < cycles)
		cpu_relax();
}

static noinline int tt_irqsoff_window(u64 cycles)
{
	unsigned long flags;
	int cpu;

	local_irq_save(flags);
	cpu = smp_processor_id();
	tt_spin(cycles);
	local_irq_restore(flags);
	return cpu;
}

/*
 * The preempt-off and migrate-disable windows are taken with interrupts
 * off (raw, so the irqsoff tracer does not see it), so neither a tick nor
 * a preemption can lengthen them: their length is then known.
 */
static noinline int tt_preemptoff_window(u64 cycles)
{
	unsigned long flags;
	int cpu;

	raw_local_irq_save(flags);
	preempt_disable();
	cpu = smp_processor_id();
	tt_spin(cycles);
	preempt_enable();
	raw_local_irq_restore(flags);
	return cpu;
}

static noinline int tt_migrate_window(u64 cycles)
{
	unsigned long flags;
	int cpu;

	raw_local_irq_save(flags);
	migrate_disable();
	cpu = raw_smp_processor_id();
	tt_spin(cycles);
	migrate_enable();
	raw_local_irq_restore(flags);
	return cpu;
}

/*
 * Find the last threshold window opened and closed in @func: threshold
 * records are kept in order, and under TCG the short warm-up round can
 * pass the threshold too when the host stalls the vCPU inside it.
 */
static const struct lat_window *tt_find(struct lat_window *w, unsigned int n,
					const char *func)
{
	for (unsigned int i = n; i-- > 0; )
		if (tt_in(w[i].start_ip, func) && tt_in(w[i].end_ip, func))
			return &w[i];
	return NULL;
}

static void tt_check_window(struct ktest *t, enum lat_kind kind,
			    int (*fn)(u64), const char *func)
{
	static struct lat_window w[64];
	struct tt_saved saved = tt_save();
	const struct lat_window *mine;
	struct lat_cpu_summary *sum;
	unsigned int n;
	int cpu;

	sum = kzalloc(sizeof(*sum), GFP_KERNEL);
	KTEST_ASSERT_TRUE(t, sum != NULL);
	/*
	 * This tracer on (migrate sections are opt-in), and only windows of at
	 * least half the busy-wait kept: ours and rare others.
	 */
	latency_tracer_set(saved.mask | (1U << kind), cycles_to_ns(TT_WAIT_CYCLES / 2),
			   saved.fine, saved.worst);
	if (!latency_tracer_enabled(kind)) {
		tt_restore(saved);
		kfree(sum);
		ktest_skip(t, "the %s tracer is not built", lat_kind_name(kind));
		return;
	}
	/*
	 * A first short round lets each CPU clear its figures after the reset
	 * above (a memset the next window would otherwise contain).
	 */
	fn(1000);
	cpu = fn(TT_WAIT_CYCLES);
	n = latency_tracer_threshold(kind, cpu, w, ARRAY_SIZE(w));
	mine = tt_find(w, n, func);
	KTEST_EXPECT_TRUE(t, latency_tracer_summary(kind, cpu, sum));
	tt_restore(saved);
	KTEST_ASSERT_TRUE(t, mine != NULL);
	ktest_info(t, "%s window on CPU%d: %llu cycles, %llu ns for a %llu-cycle busy-wait (%s)",
		   lat_kind_name(kind), cpu, (unsigned long long)mine->cycles,
		   (unsigned long long)mine->ns, TT_WAIT_CYCLES, ktest_clock_mode());
	KTEST_EXPECT_GE(t, mine->cycles, TT_WAIT_CYCLES);
	KTEST_EXPECT_EQ(t, mine->ns, cycles_to_ns(mine->cycles));
	if (ktest_exact_time)
		KTEST_EXPECT_LE(t, mine->cycles, TT_WAIT_CYCLES + TT_EXACT_SLACK);
	KTEST_EXPECT_EQ(t, mine->pid, current->pid);
	/* The maximum is at least this window, and the worst list is led by it. */
	KTEST_EXPECT_GE(t, sum->max.ns, mine->ns);
	KTEST_EXPECT_GT(t, sum->nr_worst, 0);
	KTEST_EXPECT_EQ(t, sum->worst[0].ns, sum->max.ns);
	kfree(sum);
}

static void trace_irqsoff_busy_wait(struct ktest *t)
{
	tt_check_window(t, LAT_IRQSOFF, tt_irqsoff_window, "tt_irqsoff_window");
}

static void trace_preemptoff_busy_wait(struct ktest *t)
{
	tt_check_window(t, LAT_PREEMPTOFF, tt_preemptoff_window, "tt_preemptoff_window");
}

static void trace_migrate_busy_wait(struct ktest *t)
{
	tt_check_window(t, LAT_MIGRATE, tt_migrate_window, "tt_migrate_window");
}

/* Every window is in both histograms once; the worst list is sorted. */
static void trace_histograms_hold_every_window(struct ktest *t)
{
	struct lat_cpu_summary *sum;
	u64 l2 = 0, fine = 0, longest = 0;
	int cpu;

	if (!latency_tracer_enabled(LAT_IRQSOFF)) {
		ktest_skip(t, "the irqsoff tracer is not built or not on");
		return;
	}
	sum = kzalloc(sizeof(*sum), GFP_KERNEL);
	KTEST_ASSERT_TRUE(t, sum != NULL);
	latency_tracer_reset();
	for (int i = 0; i < 200; i++) {
		void *p = kmalloc(64 + i, GFP_KERNEL);

		tt_irqsoff_window(1000 + 100 * (i % 7));
		kfree(p);
	}
	/* Read with interrupts off: no window of this CPU closes meanwhile. */
	local_irq_disable();
	cpu = smp_processor_id();
	latency_tracer_summary(LAT_IRQSOFF, cpu, sum);
	local_irq_enable();
	KTEST_ASSERT_TRUE(t, sum->valid);
	KTEST_EXPECT_GE(t, sum->windows, 200);
	for (unsigned int b = 0; b < LAT_LOG2_BUCKETS; b++)
		l2 += sum->log2[b];
	for (unsigned int b = 0; b < LAT_FINE_BUCKETS; b++)
		fine += sum->fine[b];
	KTEST_EXPECT_EQ(t, l2, sum->windows);
	KTEST_EXPECT_EQ(t, fine + sum->fine_over, sum->windows);
	KTEST_EXPECT_LE(t, sum->min_ns, sum->total_ns / sum->windows);
	KTEST_EXPECT_LE(t, sum->total_ns / sum->windows, sum->max.ns);
	for (unsigned int i = 0; i < sum->nr_worst; i++) {
		KTEST_EXPECT_LE(t, sum->worst[i].ns, sum->max.ns);
		if (i)
			KTEST_EXPECT_LE(t, sum->worst[i].ns, sum->worst[i - 1].ns);
		longest = max(longest, sum->worst[i].ns);
	}
	KTEST_EXPECT_EQ(t, longest, sum->max.ns);
	/* The maximum's log2 bucket is the highest non-empty one. */
	for (int b = LAT_LOG2_BUCKETS - 1; b >= 0; b--) {
		if (!sum->log2[b])
			continue;
		KTEST_EXPECT_EQ(t, b, sum->max.ns > 1 ? fls64(sum->max.ns) - 1 : 0);
		break;
	}
	ktest_info(t, "CPU%d: %llu windows, min %llu ns, max %llu ns", cpu,
		   (unsigned long long)sum->windows, (unsigned long long)sum->min_ns,
		   (unsigned long long)sum->max.ns);
	kfree(sum);
}

/* With a threshold every window passes, the table fills and counts the rest. */
static void trace_threshold_counts_drops(struct ktest *t)
{
	struct tt_saved saved = tt_save();
	struct lat_cpu_summary *sum;
	int cpu;

	if (!latency_tracer_enabled(LAT_IRQSOFF)) {
		ktest_skip(t, "the irqsoff tracer is not built or not on");
		return;
	}
	sum = kzalloc(sizeof(*sum), GFP_KERNEL);
	KTEST_ASSERT_TRUE(t, sum != NULL);
	latency_tracer_set(saved.mask, 2, saved.fine, saved.worst);
	for (int i = 0; i < 300; i++)
		tt_irqsoff_window(500);
	local_irq_disable();
	cpu = smp_processor_id();
	latency_tracer_summary(LAT_IRQSOFF, cpu, sum);
	local_irq_enable();
	tt_restore(saved);
	KTEST_ASSERT_TRUE(t, sum->valid);
	/* Windows below the 2 ns threshold are the log2 bucket 0 ones. */
	KTEST_EXPECT_EQ(t, sum->thr_kept + sum->thr_dropped, sum->windows - sum->log2[0]);
	KTEST_EXPECT_GT(t, sum->thr_dropped, 0);
	KTEST_EXPECT_GT(t, sum->thr_kept, 0);
	kfree(sum);
}

/* The halt in the idle loop is not a preempt-off window. */
static void trace_idle_not_preemptoff(struct ktest *t)
{
	struct lat_cpu_summary *sum;
	u64 worst = 0;

	if (!latency_tracer_enabled(LAT_PREEMPTOFF)) {
		ktest_skip(t, "the preemptoff tracer is not built or not on");
		return;
	}
	sum = kzalloc(sizeof(*sum), GFP_KERNEL);
	KTEST_ASSERT_TRUE(t, sum != NULL);
	latency_tracer_reset();
	msleep(200);		/* every idle CPU halts through this */
	for (int cpu = 0; cpu < (int)nr_cpu_ids; cpu++) {
		if (!latency_tracer_summary(LAT_PREEMPTOFF, cpu, sum))
			continue;
		worst = max(worst, sum->max.ns);
	}
	ktest_info(t, "longest preempt-off window over a 200 ms sleep: %llu ns",
		   (unsigned long long)worst);
	KTEST_EXPECT_LT(t, worst, 100ULL * 1000 * 1000);
	kfree(sum);
}

/* Interrupts taken with interrupts on open a window at do_trap(). */
static void trace_irq_entry_windows(struct ktest *t)
{
	struct lat_func_total f;

	if (!latency_tracer_enabled(LAT_IRQSOFF)) {
		ktest_skip(t, "the irqsoff tracer is not built or not on");
		return;
	}
	latency_tracer_reset();
	msleep(50);		/* ticks and wakeups */
	f = latency_tracer_func(LAT_IRQSOFF, "do_trap");
	KTEST_ASSERT_TRUE(t, f.found);
	ktest_info(t, "do_trap: %llu windows, max %llu ns", (unsigned long long)f.windows,
		   (unsigned long long)f.max_ns);
	KTEST_EXPECT_GT(t, f.windows, 0);
}

/* A reset forgets what every CPU had. */
static void trace_reset_forgets(struct ktest *t)
{
	struct lat_cpu_summary *sum;
	int cpu;

	if (!latency_tracer_enabled(LAT_IRQSOFF)) {
		ktest_skip(t, "the irqsoff tracer is not built or not on");
		return;
	}
	sum = kzalloc(sizeof(*sum), GFP_KERNEL);
	KTEST_ASSERT_TRUE(t, sum != NULL);
	cpu = tt_irqsoff_window(5000);
	KTEST_EXPECT_TRUE(t, latency_tracer_summary(LAT_IRQSOFF, cpu, sum));
	KTEST_EXPECT_GT(t, sum->windows, 0);
	local_irq_disable();
	latency_tracer_reset();
	cpu = smp_processor_id();
	/* Nothing of this CPU was filed since: its figures are gone. */
	KTEST_EXPECT_FALSE(t, latency_tracer_summary(LAT_IRQSOFF, cpu, sum));
	local_irq_enable();
	kfree(sum);
}

#endif /* CONFIG_TRACER_MAX_TRACE */

#ifdef CONFIG_TRACER_MAX_TRACE
/*
 * A report hands what the tracer dropped to the end-of-run summary's
 * "lost", once: a second report of the same figures adds nothing.
 */
static unsigned long tt_dropped_all(void)
{
	unsigned long n = 0;

	for (unsigned int k = 0; k < LAT_NR_KINDS; k++)
		n += latency_tracer_dropped(k);
	return n;
}

static void trace_summary_counts_drops(struct ktest *t)
{
	struct tt_saved saved = tt_save();
	unsigned long before, first, d1, d2;

	if (!latency_tracer_enabled(LAT_IRQSOFF)) {
		ktest_skip(t, "the irqsoff tracer is not built or not on");
		return;
	}
	latency_tracer_set(saved.mask, 2, saved.fine, saved.worst);
	for (int i = 0; i < 300; i++)
		tt_irqsoff_window(500);
	before = run_summary_lost_total();
	d1 = tt_dropped_all();
	latency_tracer_report("ktest");
	first = run_summary_lost_total();
	/* The report's cost loop ran after it: its windows dropped too. */
	d2 = tt_dropped_all();
	latency_tracer_report("ktest");
	/*
	 * Each report adds only the drops since the last one.  With more than
	 * one CPU, windows keep closing (and being dropped) elsewhere between
	 * our reading and the report's, the report's own folding IPIs among
	 * them: a few more, never the whole count again.  Those few fall in
	 * the first report as easily as in the second, so the second alone
	 * may add less than d2 - d1; the two together add at least d2.
	 */
	KTEST_EXPECT_GE(t, run_summary_lost_total() - before, d2);
	KTEST_EXPECT_LT(t, run_summary_lost_total() - first, d2 - d1 + 64);
	tt_restore(saved);
	KTEST_EXPECT_GT(t, d1, 64);
	KTEST_EXPECT_GE(t, first - before, d1);
	KTEST_EXPECT_LT(t, first - before, d1 + 64);
	/*
	 * Even on one CPU the count is not exact: a window the report's own
	 * entry closes after our reading is dropped and counted too (how many
	 * depends on code layout), so only a few more are allowed there.
	 */
	if (num_online_cpus() == 1) {
		KTEST_EXPECT_LT(t, run_summary_lost_total() - first, d2 - d1 + 4);
		KTEST_EXPECT_LT(t, first - before, d1 + 4);
	}
}

/* The report starts as ftrace's trace file; a cost only for the tracers built. */
static void trace_report_header(struct ktest *t)
{
	u64 mark;

	if (!latency_tracer_enabled(LAT_IRQSOFF)) {
		ktest_skip(t, "the irqsoff tracer is not built or not on");
		return;
	}
	tt_irqsoff_window(5000);
	mark = ktest_log_mark();
	latency_tracer_report("ktest");
	KTEST_EXPECT_LOG(t, mark, "# tracer: irqsoff");
	KTEST_EXPECT_LOG(t, mark, "# entries-in-buffer/entries-written: ");
	KTEST_EXPECT_LOG(t, mark, "# irqsoff latency trace v1.1.5 on irqlab");
	KTEST_EXPECT_LOG(t, mark, "local_irq_save+restore");
	KTEST_EXPECT_LOG(t, mark, "\"irq_pair_traced\":");
	if (IS_ENABLED(CONFIG_TRACE_PREEMPTOFF)) {
		KTEST_EXPECT_LOG(t, mark, "preempt_disable+enable");
		KTEST_EXPECT_LOG(t, mark, "\"preempt_pair\":");
	} else {
		KTEST_EXPECT_FALSE(t, ktest_log_contains(mark, "preempt_disable+enable"));
		KTEST_EXPECT_FALSE(t, ktest_log_contains(mark, "\"preempt_pair\""));
	}
}
/*
 * References from @func's code to @var, RIP-relative as the compiler emits
 * them for globals: a 32-bit displacement counted from the end of the
 * instruction, which may still hold an immediate of up to 4 bytes.
 */
static unsigned int tt_code_refs(unsigned long func, const void *var)
{
	const u8 *code = (const u8 *)func;
	unsigned long size = 0, off, i;
	unsigned int refs = 0;

	if (!kallsyms_lookup(func, &size, &off) || off || size < 4)
		return 0;
	for (i = 0; i + 4 <= size; i++) {
		s32 disp;

		memcpy(&disp, code + i, sizeof(disp));
		for (unsigned long imm = 0; imm <= 4; imm++)
			if (func + i + 4 + imm + (long)disp == (unsigned long)var) {
				refs++;
				break;
			}
	}
	return refs;
}

extern unsigned int lat_enabled_mask;

/*
 * CONFIG_TRACE_MIGRATE decides alone whether migrate_disable()/enable()
 * test the tracer switch (on PREEMPT_RT they run for every sleeping lock,
 * so even an untaken test is paid by every measurement), and whether
 * trace=all includes the migrate tracer.
 */
static void trace_migrate_hooks(struct ktest *t)
{
	unsigned int dis = tt_code_refs((unsigned long)migrate_disable, &lat_enabled_mask);
	unsigned int en = tt_code_refs((unsigned long)migrate_enable, &lat_enabled_mask);
	struct tt_saved saved = tt_save(), now;

	latency_tracer_set(~0U, saved.thr, saved.fine, saved.worst);
	now = tt_save();
	tt_restore(saved);
	ktest_info(t, "CONFIG_TRACE_MIGRATE=%s: lat_enabled_mask tested %u time(s) in migrate_disable, %u in migrate_enable; trace=all %s migrate",
		   IS_ENABLED(CONFIG_TRACE_MIGRATE) ? "y" : "n", dis, en,
		   now.mask & (1U << LAT_MIGRATE) ? "includes" : "leaves out");
	if (IS_ENABLED(CONFIG_TRACE_MIGRATE)) {
		KTEST_EXPECT_GT(t, dis, 0);
		KTEST_EXPECT_GT(t, en, 0);
		KTEST_EXPECT_TRUE(t, now.mask & (1U << LAT_MIGRATE));
	} else {
		KTEST_EXPECT_EQ(t, dis, 0);
		KTEST_EXPECT_EQ(t, en, 0);
		KTEST_EXPECT_FALSE(t, now.mask & (1U << LAT_MIGRATE));
	}
}
#endif

static void trace_built(struct ktest *t)
{
#ifndef CONFIG_TRACER_MAX_TRACE
	ktest_skip(t, "no latency tracer in this build (CONFIG_TRACE_IRQSOFF/PREEMPTOFF)");
#else
	KTEST_EXPECT_TRUE(t, latency_tracer_enabled(LAT_MIGRATE) ||
			  latency_tracer_enabled(LAT_IRQSOFF) ||
			  latency_tracer_enabled(LAT_PREEMPTOFF));
#endif
}

static struct ktest_case trace_cases[] = {
	KTEST_CASE(trace_built),
#ifdef CONFIG_TRACER_MAX_TRACE
	KTEST_CASE(trace_irqsoff_busy_wait),
	KTEST_CASE(trace_preemptoff_busy_wait),
	KTEST_CASE(trace_migrate_busy_wait),
	KTEST_CASE(trace_migrate_hooks),
	KTEST_CASE(trace_histograms_hold_every_window),
	KTEST_CASE(trace_threshold_counts_drops),
	KTEST_CASE(trace_idle_not_preemptoff),
	KTEST_CASE(trace_irq_entry_windows),
	KTEST_CASE(trace_reset_forgets),
	KTEST_CASE(trace_report_header),
	KTEST_CASE(trace_summary_counts_drops),
#endif
	{}
};

static struct ktest_suite trace_suite = {
	.name = "trace",
	.cases = trace_cases,
};
ktest_register_suite(trace_suite);
