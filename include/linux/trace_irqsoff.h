/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_TRACE_IRQSOFF_H
#define _LINUX_TRACE_IRQSOFF_H

/*
 * Latency tracers (kernel/trace/trace_irqsoff.c), after Linux's irqsoff
 * and preemptoff tracers: per CPU, the windows in which interrupts were
 * off (CONFIG_TRACE_IRQSOFF) or preemption was off (CONFIG_TRACE_PREEMPTOFF),
 * and per task the sections in which migration was disabled
 * (CONFIG_TRACE_MIGRATE, on top of either).
 *
 *	latency_tracer_start();		(reset; the workload runs)
 *	...
 *	latency_tracer_report("hackbench");
 *
 * Windows are measured with the TSC from the transition that opened them to
 * the one that closed them; the call sites are kept as return addresses and
 * symbolized only when a report is printed.
 */
#include <linux/compiler.h>
#include <linux/types.h>

enum lat_kind {
	LAT_IRQSOFF,
	LAT_PREEMPTOFF,
	LAT_MIGRATE,
	LAT_NR_KINDS
};

#define LAT_BT_DEPTH		6
#define LAT_WORST_MAX		16
#define LAT_LOG2_BUCKETS	40	/* [2^b, 2^(b+1)) ns; bucket 0 holds 0 and 1 */
#define LAT_FINE_BUCKETS	100

/* One window, as kept for the maximum, the worst list and threshold mode. */
struct lat_window {
	u64 ns;
	u64 cycles;
	unsigned long start_ip;		/* where the window was opened */
	unsigned long parent_ip;	/* the opener's caller (or the interrupted ip) */
	unsigned long end_ip;		/* where it was closed */
	u64 end_tsc;
	int pid;
	char comm[16];
	unsigned int nr_bt;
	unsigned long bt[LAT_BT_DEPTH];	/* stack at the close */
};

/* What one CPU saw for one tracer (a copy, for tests and reports). */
struct lat_cpu_summary {
	bool valid;			/* the CPU recorded since the last reset */
	u64 windows;
	u64 total_ns;
	u64 min_ns;
	struct lat_window max;
	u64 log2[LAT_LOG2_BUCKETS];
	u64 fine[LAT_FINE_BUCKETS];
	u64 fine_over;			/* windows at or above the fine bound */
	unsigned int nr_worst;
	struct lat_window worst[LAT_WORST_MAX];
	unsigned long thr_kept, thr_dropped;
	unsigned long funcs_dropped;	/* by-function table full */
};

/* Totals by the function that opened the windows, over all CPUs. */
struct lat_func_total {
	bool found;
	u64 windows;
	u64 total_ns;
	u64 max_ns;
};

#ifdef CONFIG_TRACER_MAX_TRACE

/* Hooks (trace_preemptirq.c, sched/core.c, sched/affinity.c, idle, entry). */
void tracer_hardirqs_off(unsigned long ip, unsigned long parent_ip);
void tracer_hardirqs_on(unsigned long ip);
void tracer_irq_entry(unsigned long ip, unsigned long interrupted_ip);
void tracer_preempt_off(unsigned long ip, unsigned long parent_ip);
void tracer_preempt_on(unsigned long ip);
#ifdef CONFIG_TRACE_MIGRATE
void __tracer_migrate_off(unsigned long ip);
void __tracer_migrate_on(unsigned long ip);
/*
 * Migrate-disable sections are traced only on request (trace=migrate),
 * but migrate_disable()/enable() run for every sleeping lock on
 * PREEMPT_RT: test the switch inline so that, off, they cost no call.
 * Without CONFIG_TRACE_MIGRATE not even the test is there.
 */
extern unsigned int lat_enabled_mask;

static __always_inline void tracer_migrate_off(unsigned long ip)
{
	if (READ_ONCE(lat_enabled_mask) & (1U << LAT_MIGRATE))
		__tracer_migrate_off(ip);
}

static __always_inline void tracer_migrate_on(unsigned long ip)
{
	if (READ_ONCE(lat_enabled_mask) & (1U << LAT_MIGRATE))
		__tracer_migrate_on(ip);
}
#else
static inline void tracer_migrate_off(unsigned long ip) { }
static inline void tracer_migrate_on(unsigned long ip) { }
#endif
void stop_critical_timings(void);
void start_critical_timings(void);
/*
 * @loops local_irq_save()+restore() (or preempt_disable()+enable())
 * pairs, traced or as without the tracer: TSC cycles (trace: cost, and
 * test/trace_cost_test.c).
 */
u64 lat_cost_irq_loop(bool traced, unsigned int loops);
u64 lat_cost_preempt_loop(bool traced, unsigned int loops);
/* tracing_on()/tracing_off() tell the tracers' hot path (kernel/trace/trace.c). */
void lat_tracing_onoff(bool on);

bool latency_tracer_enabled(enum lat_kind kind);
/* Forget every window on every CPU; windows open now are not counted. */
void latency_tracer_reset(void);
/* Reset if trace.reset= asks for it (workload start). */
void latency_tracer_start(void);
/* Print the report of every enabled tracer for the workload @what. */
void latency_tracer_report(const char *what);
/* A window crossed tracing_thresh= (the run fails): its length in ns, or 0. */
u64 latency_tracer_breach_ns(void);
/* Copy @cpu's figures for @kind; false if the CPU recorded nothing. */
bool latency_tracer_summary(enum lat_kind kind, int cpu, struct lat_cpu_summary *out);
/* The threshold-mode windows of @cpu, up to @max; returns how many. */
unsigned int latency_tracer_threshold(enum lat_kind kind, int cpu,
				      struct lat_window *out, unsigned int max);
/* Totals of the windows opened inside function @func, all CPUs. */
struct lat_func_total latency_tracer_func(enum lat_kind kind, const char *func);
/* Every opening site with windows, per CPU (tests). */
void latency_tracer_for_each_opener(enum lat_kind kind,
				    void (*fn)(unsigned long ip, const struct lat_func_total *t,
					       void *arg),
				    void *arg);
/* Windows dropped because a table was full, or left open across a reset. */
unsigned long latency_tracer_dropped(enum lat_kind kind);
/* Set tracer parameters from a test (the command line sets them at boot). */
void latency_tracer_set(unsigned int enable_mask, u64 threshold_ns,
			u64 fine_max_ns, unsigned int worst);
void latency_tracer_get(unsigned int *enable_mask, u64 *threshold_ns,
			u64 *fine_max_ns, unsigned int *worst);
const char *lat_kind_name(enum lat_kind kind);
#else
static inline void stop_critical_timings(void) { }
static inline void start_critical_timings(void) { }
static inline void lat_tracing_onoff(bool on) { }
static inline void tracer_migrate_off(unsigned long ip) { }
static inline void tracer_migrate_on(unsigned long ip) { }
static inline void latency_tracer_start(void) { }
static inline void latency_tracer_reset(void) { }
static inline void latency_tracer_set(unsigned int enable_mask, u64 threshold_ns,
				      u64 fine_max_ns, unsigned int worst) { }
static inline void latency_tracer_get(unsigned int *enable_mask, u64 *threshold_ns,
				      u64 *fine_max_ns, unsigned int *worst) { }
static inline void latency_tracer_report(const char *what) { }
static inline u64 latency_tracer_breach_ns(void) { return 0; }
#endif

#endif /* _LINUX_TRACE_IRQSOFF_H */
