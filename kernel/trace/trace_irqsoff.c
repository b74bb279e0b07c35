// SPDX-License-Identifier: GPL-2.0
/*
 * The irqsoff and preemptoff latency tracers (CONFIG_TRACE_IRQSOFF,
 * CONFIG_TRACE_PREEMPTOFF), after Linux's kernel/trace/trace_irqsoff.c,
 * plus migrate-disable sections.  Reports are in trace_irqsoff_report.c.
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
 * Reset is a generation number, as in irqflags_count.c: the per-CPU
 * statistics belong to the generation they were cleared for, and a CPU
 * clears its own at its next recorded window; a window that was open
 * across a reset is not recorded.
 */
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/irqflags.h>
#include <linux/trace_irqsoff.h>
#include <linux/kallsyms.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/slab.h>
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
	unsigned int m = 1U << LAT_MIGRATE;

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
/* Set while a report reads the figures: windows still open and close, unfiled. */
bool lat_paused;

/* trace=irqsoff,preemptoff,migrate | all | none */
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
			pr_err("trace: '%s' is not a tracer of this build; valid: all none%s%s migrate\n",
			       tok, IS_ENABLED(CONFIG_TRACE_IRQSOFF) ? " irqsoff" : "",
			       IS_ENABLED(CONFIG_TRACE_PREEMPTOFF) ? " preemptoff" : "");
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

/* ------------------------------------------------------------- state */

struct lat_state {
	bool active;
	unsigned long gen;
	u64 start_tsc;
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

/* This CPU's statistics for @kind, cleared if they are from before a reset. */
static struct lat_stats *lat_this_stats(enum lat_kind kind)
{
	struct lat_stats *st = this_cpu_read(lat_stats[kind]);
	unsigned long gen = READ_ONCE(lat_gen);

	if (!st)
		return NULL;
	if (unlikely(st->gen != gen)) {
		memset(st, 0, offsetof(struct lat_stats, gen));
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

static void lat_account_func(struct lat_stats *st, unsigned long ip, u64 ns,
			     unsigned long end_ip)
{
	unsigned int h = lat_hash(ip);

	for (unsigned int i = 0; i < LAT_FUNC_PROBES; i++) {
		struct lat_func_slot *s = &st->funcs[(h + i) & (LAT_FUNC_SLOTS - 1)];

		if (s->ip == ip || !s->ip) {
			WRITE_ONCE(s->windows, s->windows + 1);
			WRITE_ONCE(s->total_ns, s->total_ns + ns);
			if (ns > s->max_ns) {
				WRITE_ONCE(s->max_ns, ns);
				WRITE_ONCE(s->max_end_ip, end_ip);
			}
			if (!s->ip)
				WRITE_ONCE(s->ip, ip);
			return;
		}
	}
	st->funcs_dropped++;
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
 * File one closed window.  Interrupts are off (the caller's job), so the
 * CPU's statistics have a single writer.
 */
static __always_inline void lat_record(enum lat_kind kind, u64 cycles,
				       unsigned long start_ip, unsigned long parent_ip,
				       unsigned long end_ip, u64 end_tsc)
{
	struct lat_stats *st = lat_this_stats(kind);
	u64 ns, fine_max;
	unsigned int b;

	if (!st || READ_ONCE(lat_paused) || READ_ONCE(tracing_buffer_disabled))
		return;
	ns = cycles_to_ns(cycles);
	st->windows++;
	st->total_ns += ns;
	if (st->windows == 1 || ns < st->min_ns)
		st->min_ns = ns;
	b = ns > 1 ? fls64(ns) - 1 : 0;
	st->log2[min_t(unsigned int, b, LAT_LOG2_BUCKETS - 1)]++;
	fine_max = READ_ONCE(lat_fine_max_ns);
	if (ns < fine_max)
		st->fine[ns * LAT_FINE_BUCKETS / fine_max]++;
	else
		st->fine_over++;
	lat_account_func(st, start_ip, ns, end_ip);
	if (ns > st->max.ns || st->windows == 1)
		lat_fill(&st->max, cycles, ns, start_ip, parent_ip, end_ip, end_tsc, true);
	lat_worst_insert(st, cycles, ns, start_ip, parent_ip, end_ip, end_tsc);
	if (lat_threshold_ns && ns >= lat_threshold_ns) {
		if (st->thr_n < LAT_THR_MAX)
			lat_fill(&st->thr[st->thr_n++], cycles, ns, start_ip, parent_ip,
				 end_ip, end_tsc, false);
		else
			st->thr_dropped++;
	}
	/* The one compare tracing_thresh adds to every window. */
	if (unlikely(tracing_thresh_ns && ns >= tracing_thresh_ns))
		lat_stop_at_breach(kind, cycles, ns, start_ip, parent_ip, end_ip, end_tsc);
}

/* ------------------------------------------------ per-CPU windows (IRQ, preempt) */

static __always_inline void start_critical_timing(int slot, unsigned long ip,
						  unsigned long parent_ip)
{
	struct lat_state *ls = this_cpu_ptr(&lat_state[slot]);

	if (ls->active)
		return;
	ls->start_ip = ip;
	ls->parent_ip = parent_ip;
	ls->gen = READ_ONCE(lat_gen);
	ls->start_tsc = rdtsc();
	ls->active = true;
}

static __always_inline void stop_critical_timing(int slot, enum lat_kind kind,
						 unsigned long ip)
{
	struct lat_state *ls = this_cpu_ptr(&lat_state[slot]);
	u64 now = rdtsc();

	if (!ls->active)
		return;
	ls->active = false;
	if (ls->gen != READ_ONCE(lat_gen)) {
		struct lat_stats *st = lat_this_stats(kind);

		if (st)
			st->open_at_reset++;
		return;
	}
	lat_record(kind, now - ls->start_tsc, ls->start_ip, ls->parent_ip, ip, now);
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

void tracer_hardirqs_on(unsigned long ip)
{
	if (!lat_on(LAT_IRQSOFF) || in_nmi())
		return;
	if (unlikely(!raw_irqs_disabled())) {
		/* Ended by a raw_ enable the hooks did not see: drop it. */
		this_cpu_write(lat_state[LAT_IRQSOFF].active, false);
		return;
	}
	stop_critical_timing(LAT_IRQSOFF, LAT_IRQSOFF, ip);
}

/* Preemption off from zero: the caller bumped the count already. */
void tracer_preempt_off(unsigned long ip, unsigned long parent_ip)
{
	unsigned long flags;

	if (!lat_on(LAT_PREEMPTOFF) || in_nmi())
		return;
	raw_local_irq_save(flags);
	start_critical_timing(LAT_PREEMPTOFF, ip, parent_ip);
	raw_local_irq_restore(flags);
}

/* Preemption about to come back on: the count is still held. */
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

void tracer_migrate_off(unsigned long ip)
{
	struct task_struct *p = current;

	if (!lat_on(LAT_MIGRATE) || in_nmi())
		return;
	p->migrate_disable_ip = ip;
	p->migrate_disable_gen = READ_ONCE(lat_gen);
	p->migrate_disable_tsc = rdtsc();
}

void tracer_migrate_on(unsigned long ip)
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
			/* Published last: a hook records only into whole stats. */
			smp_store_release(&per_cpu(lat_stats[k], cpu), st);
		}
	}
	lat_ready = true;
}

void latency_tracer_reset(void)
{
	__atomic_add_fetch(&lat_gen, 1, __ATOMIC_SEQ_CST);
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
