// SPDX-License-Identifier: GPL-2.0
/*
 * The irqsoff and preemptoff latency tracers (CONFIG_TRACE_IRQSOFF,
 * CONFIG_TRACE_PREEMPTOFF), after Linux's kernel/trace/trace_irqsoff.c,
 * plus migrate-disable sections (CONFIG_TRACE_MIGRATE).  Reports are in trace_irqsoff_report.c.
 *
 * A window opens at the transition that turns interrupts (or preemption)
 * off on a CPU whose traced state was "on", and closes at the transition
 * back.  The opener and closer are the return addresses of the hooks, so
 * they point into the functions that called local_irq_*(), spin_lock*(),
 * preempt_*(); the interrupt entry opens a window at do_trap() when it
 * interrupted a context with interrupts on, and the exit closes it just
 * before iret.  A window is per CPU: a preempt-off window that began in
 * one task's schedule() ends in the next task's preempt_enable(), as in
 * Linux.  The idle loop ends the preempt-off window before it halts and
 * opens a new one after (Linux's stop/start_critical_timings()).
 *
 * Migrate-disable sections belong to a task (it may be preempted inside
 * one), so their start lives in the task_struct and the duration is filed
 * on the CPU where the section ends, which is the CPU it began on.
 *
 * Hook rules as in irqflags_count.c: no printk, no locks, no allocation,
 * only raw_local_irq_*(); each CPU writes only its own state, with
 * interrupts off (the IRQ hooks run inside the hardware window, the
 * preempt and migrate hooks disable interrupts around their update).
 * NMIs never open or close a window.
 *
 * Cost: a transition is one call, one TSC read and a few per-CPU stores.
 * Only edges call: local_irq_*() skip the hooks when they change nothing
 * (linux/irqflags.h), and preempt_disable()/enable() test the count
 * inline and call only when it leaves or reaches zero (linux/preempt.h),
 * as Linux's preempt_latency_start()/stop() do.  The open stores the site
 * and the TSC (a zero TSC means no window); the close reads one per-CPU
 * word, lat_hold, that sends it to the slow path when anything unusual
 * is going on (a report reading, tracing_off(), a reset this CPU has not
 * seen), stores the window (opener, closer, cycles) into this CPU's raw
 * buffer (trace.buf= entries) and copies it aside only if it may be a new
 * maximum, worst-list or threshold window (that needs the closer's
 * stack).  Counts, histograms and by-function totals are folded from the
 * buffer when someone reads them (lat_cpu_stats(): the report, tests), on
 * the owning CPU; a full buffer folds its oldest window at each close.
 * Symbolization happens only in the report.
 *
 * Reset is a generation number, as in irqflags_count.c: the per-CPU
 * statistics belong to the generation they were cleared for, and a CPU
 * clears its own at its next recorded window.  The reset also notes its
 * TSC and sets each CPU's lat_hold reset bits, so that CPU's next close
 * of each kind takes the slow path once: a window that opened before the
 * reset's TSC was open across it and is counted as such, not recorded.
 */
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/irqflags.h>
#include <linux/irqoff_count.h>
#include <linux/trace_irqsoff.h>
#include <linux/kallsyms.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/cpumask.h>
#include <asm/processor.h>
#include <asm/stacktrace.h>
#include <asm/tsc.h>
#include "trace_irqsoff.h"

/* ------------------------------------------------------------ parameters */

static const char *lat_names[LAT_NR_KINDS] = {
	[LAT_IRQSOFF] = "irqsoff",
	[LAT_PREEMPTOFF] = "preemptoff",
	[LAT_MIGRATE] = "migrate",
};

const char *lat_kind_name(enum lat_kind kind)
{
	return kind < LAT_NR_KINDS ? lat_names[kind] : "?";
}

/* What this build can trace. */
static unsigned int lat_compiled(void)
{
	unsigned int m = 0;

	if (IS_ENABLED(CONFIG_TRACE_MIGRATE))
		m |= 1U << LAT_MIGRATE;
	if (IS_ENABLED(CONFIG_TRACE_IRQSOFF))
		m |= 1U << LAT_IRQSOFF;
	if (IS_ENABLED(CONFIG_TRACE_PREEMPTOFF))
		m |= 1U << LAT_PREEMPTOFF;
	return m;
}

/*
 * Trimmed to lat_compiled() at init.  Migrate-disable sections are opt-in
 * (trace=all or trace=...,migrate): on PREEMPT_RT every sleeping spinlock
 * and local lock makes one, and timing them all would weigh on the very
 * paths (SLUB's fast path among them) being measured.
 */
unsigned int lat_enabled_mask = ~(1U << LAT_MIGRATE);
unsigned long lat_gen = 1;
u64 lat_threshold_ns;
u64 lat_fine_max_ns = 100 * 1000;
unsigned int lat_worst = 8;
static bool lat_reset_at_start = true;
/* Windows each CPU buffers per tracer before folding them (a power of 2). */
static unsigned int lat_raw_size = 131072;
/* Set while a report reads the figures: windows still open and close, unfiled. */
bool lat_paused;
/* The TSC of the last reset: windows that opened before it are not filed. */
static u64 lat_reset_tsc;

/*
 * Why this CPU's closes must leave the hot path, in one word so that the
 * hot path reads one thing: set for every CPU by whoever changes the
 * state (atomically: another CPU may clear its own reset bit meanwhile),
 * reset bits cleared by the CPU itself once it has seen the reset.  The
 * reset bits start set, so closes before latency_tracer_init() (no
 * statistics yet) go to the slow path too.
 */
#define LAT_HOLD_PAUSED		0x1U	/* lat_paused */
#define LAT_HOLD_OFF		0x2U	/* tracing_off() */
#define LAT_HOLD_RESET(slot)	(0x4U << (slot))
#define LAT_HOLD_RESETS		(LAT_HOLD_RESET(LAT_IRQSOFF) | LAT_HOLD_RESET(LAT_PREEMPTOFF))
/* What sends a close of @slot's windows to the slow path. */
#define LAT_HOLD_MASK(slot)	(LAT_HOLD_PAUSED | LAT_HOLD_OFF | LAT_HOLD_RESET(slot))
static DEFINE_PER_CPU(unsigned int, lat_hold) = LAT_HOLD_RESETS;

/* Is any of @mask set in this CPU's lat_hold?  One instruction and a branch. */
static __always_inline bool lat_held(unsigned int mask)
{
	bool held;

	asm volatile("testl %2, %%gs:%1" : "=@ccnz"(held) : "m"(lat_hold), "i"(mask));
	return held;
}

static void lat_hold_all(unsigned int bits, bool set)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		unsigned int *h = &per_cpu(lat_hold, cpu);

		if (set)
			__atomic_fetch_or(h, bits, __ATOMIC_SEQ_CST);
		else
			__atomic_fetch_and(h, ~bits, __ATOMIC_SEQ_CST);
	}
}

/* kernel/trace/trace.c: tracing_off() stops filing, tracing_on() resumes it. */
void lat_tracing_onoff(bool on)
{
	lat_hold_all(LAT_HOLD_OFF, !on);
}

/* A report reads the figures: windows are not filed meanwhile. */
void lat_pause(bool pause)
{
	WRITE_ONCE(lat_paused, pause);
	lat_hold_all(LAT_HOLD_PAUSED, pause);
}

/* trace=irqsoff,preemptoff,migrate | all | none; all is what this build has */
static int lat_set_trace(const char *val, const struct kernel_param *kp)
{
	char buf[64], *save, *tok;
	unsigned int m = 0;

	if (!val || strlen(val) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, val);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		unsigned int k;

		if (!strcmp(tok, "all")) {
			m = ~0U;
			continue;
		}
		if (!strcmp(tok, "none"))
			continue;
		for (k = 0; k < LAT_NR_KINDS; k++)
			if (!strcmp(tok, lat_names[k]))
				break;
		if (k == LAT_NR_KINDS || !(lat_compiled() & (1U << k))) {
			pr_err("trace: '%s' is not a tracer of this build; valid: all none%s%s%s\n",
			       tok, IS_ENABLED(CONFIG_TRACE_IRQSOFF) ? " irqsoff" : "",
			       IS_ENABLED(CONFIG_TRACE_PREEMPTOFF) ? " preemptoff" : "",
			       IS_ENABLED(CONFIG_TRACE_MIGRATE) ? " migrate" : "");
			return -EINVAL;
		}
		m |= 1U << k;
	}
	WRITE_ONCE(lat_enabled_mask, m & lat_compiled());
	return 0;
}

static const struct kernel_param_ops lat_trace_ops = {
	.set = lat_set_trace,
	.type = "tracers (all, none, irqsoff, preemptoff, migrate; comma-separated)",
};
core_param_cb("trace", &lat_trace_ops, NULL,
	      "latency tracers to run (default: irqsoff and preemptoff where built)");

static unsigned int lat_threshold_us;
core_param_range("trace.threshold_us", lat_threshold_us, uint, 0, 10000000,
		 "record every window of at least this many us (0: off)");
/*
 * Linux's tracing_thresh= (microseconds): every window at least this long
 * is a latency to report, not only a new maximum.  As the issue asks
 * (cyclictest -b, rtla -T), the first one also stops tracing, is kept for
 * the report, and fails the run.
 */
static unsigned int tracing_thresh_us;
core_param_range("tracing_thresh", tracing_thresh_us, uint, 0, 10000000,
		 "us: report every IRQ/preempt-off window this long; the first stops tracing and fails the run (0: off)");
u64 tracing_thresh_ns;
/* The first window over tracing_thresh, and where: written once, by its CPU. */
struct lat_breach lat_breach;

static unsigned int lat_fine_max_param_ns = 100 * 1000;
core_param_range("trace.fine_max_ns", lat_fine_max_param_ns, uint, LAT_FINE_BUCKETS,
		 1000000000, "upper bound of the linear histogram (100 buckets)");
core_param_range("trace.worst", lat_worst, uint, 1, LAT_WORST_MAX,
		 "how many worst windows each CPU keeps");
core_param("trace.reset", lat_reset_at_start, bool,
	   "forget earlier windows when a workload starts");
static unsigned int lat_raw_param = 131072;
core_param_range("trace.buf", lat_raw_param, uint, 0, 1 << 20,
		 "windows each CPU buffers per tracer before they are folded (rounded down to a power of 2; 0: fold at once)");

/* ------------------------------------------------------------- state */

struct lat_state {
	u64 start_tsc;			/* 0: no window open */
	unsigned long start_ip, parent_ip;
};

/* [LAT_IRQSOFF] and [LAT_PREEMPTOFF]; migrate state is in the task. */
static DEFINE_PER_CPU(struct lat_state, lat_state[2]);
DEFINE_PER_CPU(struct lat_stats *, lat_stats[LAT_NR_KINDS]);

static __always_inline bool lat_on(enum lat_kind kind)
{
	return READ_ONCE(lat_enabled_mask) & (1U << kind);
}

bool latency_tracer_enabled(enum lat_kind kind)
{
	return kind < LAT_NR_KINDS && lat_on(kind) &&
	       this_cpu_read(lat_stats[kind]) != NULL;
}

/* Where the hot path must stop filing: see struct lat_stats. */
static void lat_raw_set_stop(struct lat_stats *st)
{
	struct lat_raw *end = st->raw + st->raw_cap + 1;

	if (!st->raw)
		st->raw_stop = NULL;
	else if (st->raw_rd > st->raw_wr)
		st->raw_stop = st->raw_rd - 1;
	else if (st->raw_rd == st->raw)
		st->raw_stop = end - 1;
	else
		st->raw_stop = end;
}

static void lat_raw_empty(struct lat_stats *st)
{
	st->raw_wr = st->raw;
	st->raw_rd = st->raw;
	lat_raw_set_stop(st);
}

/* This CPU's statistics for @kind, cleared if they are from before a reset. */
static struct lat_stats *lat_this_stats(enum lat_kind kind)
{
	struct lat_stats *st = this_cpu_read(lat_stats[kind]);
	unsigned long gen = READ_ONCE(lat_gen);

	if (!st)
		return NULL;
	if (unlikely(st->gen != gen)) {
		memset(st, 0, offsetof(struct lat_stats, gen));
		lat_raw_empty(st);
		st->cpu = raw_smp_processor_id();
		barrier();
		WRITE_ONCE(st->gen, gen);
	}
	return st;
}

/*
 * The stack at the close, from the closing function outwards: frames of
 * the tracer itself (how many depends on inlining) are cut off by
 * looking for the closer's return address.
 */
static unsigned int lat_backtrace(unsigned long *bt, unsigned long end_ip)
{
	unsigned long raw[LAT_BT_DEPTH + 6];
	unsigned int n = save_stack_trace(raw, ARRAY_SIZE(raw), 0), i, k;

	for (i = 0; i < n; i++)
		if (raw[i] == end_ip)
			break;
	if (i == n)
		i = 0;
	for (k = 0; k < LAT_BT_DEPTH && i + k < n; k++)
		bt[k] = raw[i + k];
	return k;
}

static void lat_fill(struct lat_window *w, u64 cycles, u64 ns, unsigned long start_ip,
		     unsigned long parent_ip, unsigned long end_ip, u64 end_tsc, bool bt)
{
	struct task_struct *p = current;

	w->ns = ns;
	w->cycles = cycles;
	w->start_ip = start_ip;
	w->parent_ip = parent_ip;
	w->end_ip = end_ip;
	w->end_tsc = end_tsc;
	w->pid = p ? p->pid : -1;
	strncpy(w->comm, p ? p->comm : "?", sizeof(w->comm) - 1);
	w->comm[sizeof(w->comm) - 1] = '\0';
	w->nr_bt = bt ? lat_backtrace(w->bt, end_ip) : 0;
}

static __always_inline void lat_func_add(struct lat_func_slot *s, unsigned long ip,
					 u64 ns, unsigned long end_ip)
{
	WRITE_ONCE(s->windows, s->windows + 1);
	WRITE_ONCE(s->total_ns, s->total_ns + ns);
	if (ns > s->max_ns) {
		WRITE_ONCE(s->max_ns, ns);
		WRITE_ONCE(s->max_end_ip, end_ip);
	}
}

/* The site is not in its home slot: probe on, or take a free slot. */
static noinline void lat_account_func_probe(struct lat_stats *st, unsigned long ip,
					    u64 ns, unsigned long end_ip)
{
	unsigned int h = lat_hash(ip);

	for (unsigned int i = 0; i < LAT_FUNC_PROBES; i++) {
		struct lat_func_slot *s = &st->funcs[(h + i) & (LAT_FUNC_SLOTS - 1)];

		if (s->ip == ip || !s->ip) {
			lat_func_add(s, ip, ns, end_ip);
			if (!s->ip)
				WRITE_ONCE(s->ip, ip);
			return;
		}
	}
	st->funcs_dropped++;
}

/* Most windows come from a site already in its home slot: add inline. */
static __always_inline void lat_account_func(struct lat_stats *st, unsigned long ip,
					     u64 ns, unsigned long end_ip)
{
	struct lat_func_slot *s = &st->funcs[lat_hash(ip)];

	if (likely(s->ip == ip))
		lat_func_add(s, ip, ns, end_ip);
	else
		lat_account_func_probe(st, ip, ns, end_ip);
}

/* Insert into the sorted worst list if it is among the lat_worst longest. */
static void lat_worst_insert(struct lat_stats *st, u64 cycles, u64 ns,
			     unsigned long start_ip, unsigned long parent_ip,
			     unsigned long end_ip, u64 end_tsc)
{
	unsigned int n = min_t(unsigned int, READ_ONCE(lat_worst), LAT_WORST_MAX);
	unsigned int pos;

	if (st->nr_worst == n && ns <= st->worst[n - 1].ns)
		return;
	pos = st->nr_worst < n ? st->nr_worst++ : n - 1;
	while (pos > 0 && st->worst[pos - 1].ns < ns) {
		st->worst[pos] = st->worst[pos - 1];
		pos--;
	}
	lat_fill(&st->worst[pos], cycles, ns, start_ip, parent_ip, end_ip, end_tsc, true);
}

/*
 * tracing_thresh was crossed (interrupts off): keep the first such window
 * and stop tracing, as Linux's tracing_off() freezes the buffer.  Only the
 * CPU that wins the flag writes the window; the report reads it after
 * the workload, once "taken" shows it complete.
 */
static noinline void lat_stop_at_breach(enum lat_kind kind, u64 cycles, u64 ns,
					unsigned long start_ip, unsigned long parent_ip,
					unsigned long end_ip, u64 end_tsc)
{
	if (__atomic_exchange_n(&lat_breach.claimed, true, __ATOMIC_ACQUIRE))
		return;
	tracing_off();
	lat_breach.kind = kind;
	lat_breach.cpu = raw_smp_processor_id();
	lat_breach.thresh_ns = tracing_thresh_ns;
	lat_fill(&lat_breach.w, cycles, ns, start_ip, parent_ip, end_ip, end_tsc, true);
	__atomic_store_n(&lat_breach.taken, true, __ATOMIC_RELEASE);
}

/*
 * The shortest window that still has something to do in lat_record_slow():
 * while the worst list fills, every window; then one longer than its last
 * entry (which also covers a new maximum, the list's head); and any
 * window at or over the threshold.
 */
static u64 lat_slow_from(const struct lat_stats *st)
{
	unsigned int n = min_t(unsigned int, READ_ONCE(lat_worst), LAT_WORST_MAX);
	u64 thr = READ_ONCE(lat_threshold_ns);
	u64 from = st->nr_worst < n ? 0 : st->worst[n - 1].ns + 1;

	if (tracing_thresh_ns && (!thr || tracing_thresh_ns < thr))
		thr = tracing_thresh_ns;
	if (thr && thr < from)
		from = thr;
	return from;
}

/*
 * The fewest cycles that cycles_to_ns() turns into at least @ns, so the
 * hot path can compare raw TSC deltas with slow_from: ns = c * mul >> S
 * is at least @ns exactly when c * mul >= @ns << S.
 */
static u64 lat_ns_to_cycles_up(u64 ns)
{
	u64 mul = READ_ONCE(cyc2ns_mul);

	if (!ns)
		return 0;
	if (!mul || ns > (~0ULL >> CYC2NS_SHIFT))
		return ~0ULL;
	return ((ns << CYC2NS_SHIFT) + mul - 1) / mul;
}

/*
 * The rare part of filing a window, out of line: a new maximum, a worst
 * list entry or a threshold window, each with the task and (except in
 * threshold mode) a backtrace.  The first window after a reset always
 * comes here (slow_from is cleared to 0) and is the first maximum.
 */
static noinline void lat_record_slow(enum lat_kind kind, struct lat_stats *st, u64 cycles,
				     unsigned long start_ip, unsigned long parent_ip,
				     unsigned long end_ip, u64 end_tsc)
{
	u64 ns = cycles_to_ns(cycles);

	if (ns > st->max.ns || !st->nr_worst)
		lat_fill(&st->max, cycles, ns, start_ip, parent_ip, end_ip, end_tsc, true);
	lat_worst_insert(st, cycles, ns, start_ip, parent_ip, end_ip, end_tsc);
	if (lat_threshold_ns && ns >= lat_threshold_ns) {
		if (st->thr_n < LAT_THR_MAX)
			lat_fill(&st->thr[st->thr_n++], cycles, ns, start_ip, parent_ip,
				 end_ip, end_tsc, false);
		else
			st->thr_dropped++;
	}
	/* tracing_thresh: lat_slow_from() sends every window over it here. */
	if (unlikely(tracing_thresh_ns && ns >= tracing_thresh_ns))
		lat_stop_at_breach(kind, cycles, ns, start_ip, parent_ip, end_ip, end_tsc);
	st->slow_from = lat_ns_to_cycles_up(lat_slow_from(st));
}

/*
 * The linear histogram's bucket, ns * LAT_FINE_BUCKETS / fine_max without
 * a division: lat_fine_mult is that ratio scaled by 2^62 and rounded up,
 * which for ns < fine_max <= 10^9 < 2^30 errs by less than 2^-32 and so
 * never crosses a bucket boundary (those are 1/fine_max apart).
 */
static u64 lat_fine_mult;

static u64 lat_fine_mult_for(u64 fine_max)
{
	/* (LAT_FINE_BUCKETS << 62) / fine_max: a 128-by-64 divq, quotient < 2^63 */
	u64 hi = LAT_FINE_BUCKETS >> 2, lo = (u64)(LAT_FINE_BUCKETS & 3) << 62, q, r;

	asm("divq %4" : "=a"(q), "=d"(r) : "a"(lo), "d"(hi), "rm"(fine_max));
	return q + (r != 0);
}

static __always_inline unsigned int lat_fine_bucket(u64 ns)
{
	return (unsigned int)(((unsigned __int128)ns * READ_ONCE(lat_fine_mult)) >> 62);
}

/*
 * Add one window to the counts, histograms and by-function totals: the
 * work the hot path leaves for later.  Runs on the owning CPU with
 * interrupts off (a hook, or lat_fold_cpu()), so it has a single writer.
 */
static void lat_fold(struct lat_stats *st, const struct lat_raw *r)
{
	u64 ns = __cycles_to_ns(r->cycles);
	unsigned int b;

	if (!st->windows++ || ns < st->min_ns)
		st->min_ns = ns;
	st->total_ns += ns;
	b = fls64(ns | 1) - 1;		/* 0 and 1 share bucket 0 */
	st->log2[min_t(unsigned int, b, LAT_LOG2_BUCKETS - 1)]++;
	if (ns < READ_ONCE(lat_fine_max_ns))
		st->fine[lat_fine_bucket(ns)]++;
	else
		st->fine_over++;
	lat_account_func(st, r->start_ip, ns, r->end_ip);
}

static void lat_fold_oldest(struct lat_stats *st)
{
	lat_fold(st, st->raw_rd);
	if (++st->raw_rd == st->raw + st->raw_cap + 1)
		st->raw_rd = st->raw;
}

static void lat_fold_all(struct lat_stats *st)
{
	while (st->raw_rd != READ_ONCE(st->raw_wr))
		lat_fold_oldest(st);
	lat_raw_set_stop(st);
}

/*
 * File a window the hot path could not: without a buffer it folds at
 * once; at the end of the array the ring wraps; when full, the oldest
 * window is folded to make room.
 */
static noinline void lat_raw_put(struct lat_stats *st, const struct lat_raw *r)
{
	if (!st->raw) {
		lat_fold(st, r);
		return;
	}
	while (st->raw_wr == st->raw_stop) {
		if (st->raw_wr == st->raw + st->raw_cap + 1)
			st->raw_wr = st->raw;
		else
			lat_fold_oldest(st);
		lat_raw_set_stop(st);
	}
	*st->raw_wr++ = *r;
}

/*
 * File one closed window.  Interrupts are off (the caller's job), so the
 * CPU's statistics have a single writer.  The hot path stores the window
 * into this CPU's raw buffer (three stores and the fill pointer), this
 * slow path through lat_raw_put(); lat_fold() turns it into counts and
 * histograms when someone reads the figures (lat_cpu_stats()), or one
 * at a time once the buffer is full.  A
 * window that may be a new maximum, a worst-list entry or a threshold
 * window (at least st->slow_from cycles long) is copied, with the task and a
 * backtrace, at once: that needs the stack of the close.
 */
static __always_inline void lat_record(enum lat_kind kind, u64 cycles,
				       unsigned long start_ip, unsigned long parent_ip,
				       unsigned long end_ip, u64 end_tsc)
{
	struct lat_stats *st = lat_this_stats(kind);
	struct lat_raw w = { .start_ip = start_ip, .end_ip = end_ip, .cycles = cycles };

	if (!st || READ_ONCE(lat_paused) || READ_ONCE(tracing_buffer_disabled))
		return;
	lat_raw_put(st, &w);
	if (unlikely(cycles >= st->slow_from))
		lat_record_slow(kind, st, cycles, start_ip, parent_ip, end_ip, end_tsc);
}

/* Fold @cpu's buffered windows of @kind, on that CPU. */
static void lat_fold_here(void *arg)
{
	enum lat_kind kind = (enum lat_kind)(unsigned long)arg;
	struct lat_stats *st = this_cpu_read(lat_stats[kind]);
	unsigned long flags;

	raw_local_irq_save(flags);
	if (st && st->gen == READ_ONCE(lat_gen))
		lat_fold_all(st);
	raw_local_irq_restore(flags);
}

void lat_fold_cpu(enum lat_kind kind, int cpu)
{
	struct lat_stats *st = READ_ONCE(per_cpu(lat_stats[kind], cpu));
	unsigned long flags;
	bool here;

	if (!st || READ_ONCE(st->raw_rd) == READ_ONCE(st->raw_wr))
		return;
	raw_local_irq_save(flags);
	here = cpu == raw_smp_processor_id();
	if (here)
		lat_fold_here((void *)(unsigned long)kind);
	raw_local_irq_restore(flags);
	/* Another CPU's buffer is its own to fold; not from a context that cannot wait. */
	if (!here && !raw_irqs_disabled())
		smp_call_function_single(cpu, lat_fold_here, (void *)(unsigned long)kind, 1);
}

/* ------------------------------------------------ per-CPU windows (IRQ, preempt) */

/*
 * Open a window on this CPU: %gs-relative stores, one TSC read.  The TSC
 * is never 0 once the kernel runs, so a stored TSC marks the window open.
 */
static __always_inline void lat_open(int slot, unsigned long ip, unsigned long parent_ip)
{
	this_cpu_write(lat_state[slot].start_ip, ip);
	this_cpu_write(lat_state[slot].parent_ip, parent_ip);
	this_cpu_write(lat_state[slot].start_tsc, rdtsc());
}

static __always_inline void start_critical_timing(int slot, unsigned long ip,
						  unsigned long parent_ip)
{
	if (this_cpu_read(lat_state[slot].start_tsc))
		return;
	lat_open(slot, ip, parent_ip);
}

/*
 * A window closed while lat_hold is set or the raw buffer is full.  A
 * reset this CPU has not seen yet: clear its bit first (a reset that
 * comes meanwhile sets it again), then compare the window's start with
 * the reset's TSC.  Runs with interrupts off: preempt-off closes come
 * here with them on, and the statistics have one writer per CPU.
 */
static noinline void lat_stop_slow(int slot, enum lat_kind kind, unsigned long ip,
				   u64 start, u64 now)
{
	unsigned int reset = LAT_HOLD_RESET(slot);
	unsigned long flags;

	raw_local_irq_save(flags);
	if (this_cpu_read(lat_hold) & reset) {
		struct lat_stats *st;

		if (!this_cpu_read(lat_stats[kind]))
			goto out;		/* before latency_tracer_init() */
		__atomic_fetch_and(this_cpu_ptr(&lat_hold), ~reset, __ATOMIC_SEQ_CST);
		if (start < READ_ONCE(lat_reset_tsc)) {
			st = lat_this_stats(kind);
			if (st)
				st->open_at_reset++;
			goto out;
		}
	}
	lat_record(kind, now - start, this_cpu_read(lat_state[slot].start_ip),
		   this_cpu_read(lat_state[slot].parent_ip), ip, now);
out:
	raw_local_irq_restore(flags);
}

/* A window long enough to be a new maximum, worst or threshold entry. */
static noinline void lat_stop_long(int slot, enum lat_kind kind, struct lat_stats *st,
				   unsigned long ip, u64 start, u64 now)
{
	unsigned long flags;

	raw_local_irq_save(flags);
	lat_record_slow(kind, st, now - start, this_cpu_read(lat_state[slot].start_ip),
			this_cpu_read(lat_state[slot].parent_ip), ip, now);
	raw_local_irq_restore(flags);
}

/*
 * The hot path of a close: one TSC read, one look at lat_hold, the
 * window into this CPU's raw buffer, and nothing else unless it is long.
 * Everything rare is a call out of line.  A preempt-off close runs with
 * interrupts on, but nothing else files into its buffer: interrupts and
 * NMIs never close a preempt-off window (the count is not 1 there), and
 * lat_fold_here() only moves the tail, which this path reads once.
 */
static __always_inline void lat_close(int slot, enum lat_kind kind, unsigned long ip,
				      u64 start)
{
	struct lat_stats *st;
	struct lat_raw *r;
	u64 now, cycles;

	now = rdtsc();
	this_cpu_write(lat_state[slot].start_tsc, 0);
	st = this_cpu_read(lat_stats[kind]);
	if (unlikely(lat_held(LAT_HOLD_MASK(slot)))) {
		lat_stop_slow(slot, kind, ip, start, now);
		return;
	}
	r = st->raw_wr;
	if (unlikely(r == st->raw_stop)) {
		lat_stop_slow(slot, kind, ip, start, now);
		return;
	}
	cycles = now - start;
	r->start_ip = this_cpu_read(lat_state[slot].start_ip);
	r->end_ip = ip;
	r->cycles = cycles;
	barrier();			/* the entry before the pointer past it */
	st->raw_wr = r + 1;
	if (unlikely(cycles >= st->slow_from))
		lat_stop_long(slot, kind, st, ip, start, now);
}

static __always_inline void stop_critical_timing(int slot, enum lat_kind kind,
						 unsigned long ip)
{
	u64 start = this_cpu_read(lat_state[slot].start_tsc);

	if (start)
		lat_close(slot, kind, ip, start);
}

void tracer_hardirqs_off(unsigned long ip, unsigned long parent_ip)
{
	if (!lat_on(LAT_IRQSOFF) || in_nmi())
		return;
	start_critical_timing(LAT_IRQSOFF, ip, parent_ip);
}

/* Interrupt or exception entry, from a context with interrupts on. */
void tracer_irq_entry(unsigned long ip, unsigned long interrupted_ip)
{
	if (!lat_on(LAT_IRQSOFF))
		return;
	start_critical_timing(LAT_IRQSOFF, ip, interrupted_ip);
}

/*
 * A window opened before the tracer was turned off was open across the
 * reset latency_tracer_set() does, and is never filed, so the close
 * needs no lat_on() test of its own.  An enable that closes nothing
 * (interrupts were off without a window, e.g. from a raw_ disable) costs
 * only the first test.  Callers that may run in an NMI test in_nmi()
 * first; the local_irq_*() hooks need not (see trace_hardirqs_off()).
 */
static __always_inline void lat_hardirqs_on(unsigned long ip)
{
	u64 start = this_cpu_read(lat_state[LAT_IRQSOFF].start_tsc);

	if (!start)
		return;
	if (unlikely(!raw_irqs_disabled())) {
		/* Ended by a raw_ enable the hooks did not see: drop it. */
		this_cpu_write(lat_state[LAT_IRQSOFF].start_tsc, 0);
		return;
	}
	lat_close(LAT_IRQSOFF, LAT_IRQSOFF, ip, start);
}

void tracer_hardirqs_on(unsigned long ip)
{
	if (!in_nmi())
		lat_hardirqs_on(ip);
}

#ifdef CONFIG_TRACE_IRQSOFF
/*
 * The CONFIG_TRACE_IRQFLAGS hooks themselves (trace_preemptirq.c has them
 * without this tracer): with the tracer built they are its entry points,
 * so each local_irq_*() edge costs one call, and the opener's caller is
 * read from the frame chain only when a window really opens.  Only C
 * code calls the hooks (the local_irq_*() macros and do_trap()), built
 * with frame pointers, so the caller's frame holds its return address.
 */
static __always_inline unsigned long lat_hook_parent_ip(void)
{
	const struct stack_frame *f = __builtin_frame_address(0);

	return f->next_frame->return_address;
}

/*
 * No in_nmi() tests: an NMI runs with interrupts off from its entry, so
 * local_irq_save()/disable() there see them off and make no call, and a
 * local_irq_restore() there restores "off" and makes none either (an NMI
 * handler never enables interrupts; do_trap() hands NMIs to do_nmi()
 * before its own hooks).
 */
noinline void trace_hardirqs_off(void)
{
	unsigned long ip = _RET_IP_;

	irqoff_count_hardirqs_off(ip);
	if (!lat_on(LAT_IRQSOFF) || this_cpu_read(lat_state[LAT_IRQSOFF].start_tsc))
		return;
	lat_open(LAT_IRQSOFF, ip, lat_hook_parent_ip());
}

/*
 * No frame of its own: its fast path calls nothing (the slow parts are
 * tail calls, whose frames link straight to this hook's caller), so the
 * frame would only cost three instructions on every close - Linux's
 * default unwinder (ORC) builds it without one too.
 */
noinline __attribute__((optimize("omit-frame-pointer"))) void trace_hardirqs_on(void)
{
	lat_hardirqs_on(_RET_IP_);
	irqoff_count_hardirqs_on();
}
#endif

#ifdef CONFIG_TRACE_PREEMPTOFF
/*
 * Linux's preempt_latency_start()/stop(): linux/preempt.h calls them
 * only when preempt_disable() took the count from 0 to 1 and when
 * preempt_enable() is about to take it back, so nested sections cost no
 * call.  A count of exactly 1 also means no interrupt or NMI bits: these
 * run in task context with preemption off and interrupts (usually) on,
 * and nothing else on this CPU touches the preempt-off slot meanwhile,
 * so they need neither an in_nmi() test nor interrupts off.  Preempt-off
 * windows have no parent site (the slot's parent_ip stays 0).
 */
noinline void preempt_latency_start(void)
{
	if (!lat_on(LAT_PREEMPTOFF) || this_cpu_read(lat_state[LAT_PREEMPTOFF].start_tsc))
		return;
	this_cpu_write(lat_state[LAT_PREEMPTOFF].start_ip, _RET_IP_);
	this_cpu_write(lat_state[LAT_PREEMPTOFF].start_tsc, rdtsc());
}

noinline void preempt_latency_stop(void)
{
	stop_critical_timing(LAT_PREEMPTOFF, LAT_PREEMPTOFF, _RET_IP_);
}
#endif

/* The idle loop's stop/start_critical_timings(), with a preempt count held. */
void tracer_preempt_off(unsigned long ip, unsigned long parent_ip)
{
	unsigned long flags;

	if (!lat_on(LAT_PREEMPTOFF) || in_nmi())
		return;
	raw_local_irq_save(flags);
	start_critical_timing(LAT_PREEMPTOFF, ip, 0);
	raw_local_irq_restore(flags);
}

void tracer_preempt_on(unsigned long ip)
{
	unsigned long flags;

	if (!lat_on(LAT_PREEMPTOFF) || in_nmi())
		return;
	raw_local_irq_save(flags);
	stop_critical_timing(LAT_PREEMPTOFF, LAT_PREEMPTOFF, ip);
	raw_local_irq_restore(flags);
}

/* The idle loop: the preempt-off window must not span the halt. */
void stop_critical_timings(void)
{
	if (lat_on(LAT_PREEMPTOFF))
		tracer_preempt_on(_RET_IP_);
}

void start_critical_timings(void)
{
	if (lat_on(LAT_PREEMPTOFF) && preempt_count())
		tracer_preempt_off(_RET_IP_, 0);
}

/* ------------------------------------------------- migrate-disable sections */

#ifdef CONFIG_TRACE_MIGRATE
/* Called through tracer_migrate_off(), which tested lat_on(LAT_MIGRATE). */
void __tracer_migrate_off(unsigned long ip)
{
	struct task_struct *p = current;

	if (!lat_on(LAT_MIGRATE) || in_nmi())
		return;
	p->migrate_disable_ip = ip;
	p->migrate_disable_gen = READ_ONCE(lat_gen);
	p->migrate_disable_tsc = rdtsc();
}

void __tracer_migrate_on(unsigned long ip)
{
	struct task_struct *p = current;
	unsigned long flags;
	u64 now = rdtsc();

	if (!lat_on(LAT_MIGRATE) || in_nmi() || !p->migrate_disable_tsc)
		return;
	raw_local_irq_save(flags);
	if (p->migrate_disable_gen == READ_ONCE(lat_gen))
		lat_record(LAT_MIGRATE, now - p->migrate_disable_tsc,
			   p->migrate_disable_ip, 0, ip, now);
	p->migrate_disable_tsc = 0;
	raw_local_irq_restore(flags);
}
#endif /* CONFIG_TRACE_MIGRATE */

/* ------------------------------------------------------------- control */

static bool lat_ready;


/* Allocate each CPU's statistics; the hooks record nothing before this. */
void latency_tracer_init(void)
{
	int cpu;

	if (lat_ready)
		return;
	lat_enabled_mask &= lat_compiled();
	tracing_thresh_ns = (u64)tracing_thresh_us * 1000;
	/* Every window over tracing_thresh is reported, unless trace.threshold_us says otherwise. */
	lat_threshold_ns = (u64)(lat_threshold_us ? lat_threshold_us : tracing_thresh_us) * 1000;
	lat_fine_max_ns = lat_fine_max_param_ns;
	lat_fine_mult = lat_fine_mult_for(lat_fine_max_ns);
	lat_raw_size = lat_raw_param ? 1U << (fls(lat_raw_param) - 1) : 0;
	for_each_possible_cpu(cpu) {
		for (unsigned int k = 0; k < LAT_NR_KINDS; k++) {
			struct lat_stats *st;

			if (!(lat_compiled() & (1U << k)))
				continue;
			st = kzalloc(sizeof(*st), GFP_KERNEL);
			if (!st) {
				pr_err("trace: no memory for CPU %d's %s statistics: that tracer stays off\n",
				       cpu, lat_names[k]);
				lat_enabled_mask &= ~(1U << k);
				continue;
			}
			st->cpu = cpu;
			if (lat_raw_size && (lat_enabled_mask & (1U << k)))
				st->raw = kmalloc_array(lat_raw_size + 1, sizeof(*st->raw),
							GFP_KERNEL);
			st->raw_cap = st->raw ? lat_raw_size : 0;
			lat_raw_empty(st);
			/* Published last: a hook records only into whole stats. */
			smp_store_release(&per_cpu(lat_stats[k], cpu), st);
		}
	}
	lat_ready = true;
	/* Windows open since boot (or in CPU 0's copied state) are not filed. */
	latency_tracer_reset();
}

/*
 * A new generation, the TSC it began at, then every CPU's reset bits: a
 * CPU that sees its bit (cleared with a locked instruction) sees both.
 */
void latency_tracer_reset(void)
{
	__atomic_add_fetch(&lat_gen, 1, __ATOMIC_SEQ_CST);
	__atomic_store_n(&lat_reset_tsc, rdtsc_ordered(), __ATOMIC_SEQ_CST);
	lat_hold_all(LAT_HOLD_RESETS, true);
}

void latency_tracer_start(void)
{
	latency_tracer_init();
	/* After a breach the trace stays as it was, as Linux's does after tracing_off(). */
	if (lat_reset_at_start && !READ_ONCE(lat_breach.claimed))
		latency_tracer_reset();
}

void latency_tracer_set(unsigned int enable_mask, u64 threshold_ns,
			u64 fine_max_ns, unsigned int worst)
{
	if (fine_max_ns < LAT_FINE_BUCKETS)
		fine_max_ns = LAT_FINE_BUCKETS;
	WRITE_ONCE(lat_threshold_ns, threshold_ns);
	WRITE_ONCE(lat_fine_max_ns, fine_max_ns);
	WRITE_ONCE(lat_fine_mult, lat_fine_mult_for(fine_max_ns));
	WRITE_ONCE(lat_worst, clamp(worst, 1U, (unsigned int)LAT_WORST_MAX));
	WRITE_ONCE(lat_enabled_mask, enable_mask & lat_compiled());
	/* A window left open by a tracer turned off must not be filed later. */
	latency_tracer_reset();
}

void latency_tracer_get(unsigned int *enable_mask, u64 *threshold_ns,
			u64 *fine_max_ns, unsigned int *worst)
{
	*enable_mask = READ_ONCE(lat_enabled_mask);
	*threshold_ns = READ_ONCE(lat_threshold_ns);
	*fine_max_ns = READ_ONCE(lat_fine_max_ns);
	*worst = READ_ONCE(lat_worst);
}
