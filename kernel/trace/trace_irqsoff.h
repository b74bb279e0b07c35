/* SPDX-License-Identifier: GPL-2.0 */
/* Internals shared by trace_irqsoff.c (recording) and trace_irqsoff_report.c. */
#ifndef _KERNEL_TRACE_IRQSOFF_H
#define _KERNEL_TRACE_IRQSOFF_H

#include <linux/trace_irqsoff.h>
#include <linux/percpu.h>

/* kernel/trace/trace.c: set by tracing_off(), windows are not filed. */
extern bool tracing_buffer_disabled;

#define LAT_FUNC_BITS	7
#define LAT_FUNC_SLOTS	(1U << LAT_FUNC_BITS)
#define LAT_FUNC_PROBES	8		/* slots tried before a window's site drops */
#define LAT_THR_MAX	64		/* threshold-mode windows kept per CPU */

/* Windows by the address that opened them (one slot per call site). */
struct lat_func_slot {
	unsigned long ip;		/* 0: free */
	u64 windows;
	u64 total_ns;
	u64 max_ns;
	unsigned long max_end_ip;	/* where the longest of them closed */
};

/*
 * A closed window as the hot path files it, before lat_fold() adds it to
 * the counts, histograms and by-function totals.
 */
struct lat_raw {
	unsigned long start_ip, end_ip;
	u64 cycles;
};

/*
 * One CPU's figures for one tracer.  Everything before @gen is cleared
 * when the CPU first records after a reset.
 */
struct lat_stats {
	u64 windows;
	u64 total_ns;
	u64 min_ns;
	struct lat_window max;
	u64 log2[LAT_LOG2_BUCKETS];
	u64 fine[LAT_FINE_BUCKETS];
	u64 fine_over;
	unsigned int nr_worst;
	struct lat_window worst[LAT_WORST_MAX];
	unsigned int thr_n;
	unsigned long thr_dropped;
	struct lat_window thr[LAT_THR_MAX];
	unsigned long funcs_dropped;
	unsigned long open_at_reset;	/* windows open across a reset, dropped */
	u64 slow_from;			/* windows this long (cycles) go to lat_record_slow() */
	/*
	 * raw[] is a ring of raw_cap + 1 entries, one always free: the
	 * hot path fills raw_wr unless it is raw_stop (the end of the
	 * array, or the entry before the oldest, raw_rd), and the rest
	 * (wrapping, folding the oldest when full) is lat_raw_put()'s.
	 */
	struct lat_raw *raw_wr;		/* the next entry to fill */
	struct lat_raw *raw_rd;		/* the oldest entry not folded yet */
	struct lat_raw *raw_stop;	/* the hot path stops here */
	struct lat_func_slot funcs[LAT_FUNC_SLOTS];
	/* not cleared: */
	unsigned long gen;
	int cpu;
	struct lat_raw *raw;		/* raw_cap + 1 entries */
	unsigned long raw_cap;		/* windows it holds; 0: no buffer, each folds at once */
};

DECLARE_PER_CPU(struct lat_stats *, lat_stats[LAT_NR_KINDS]);

/* The first window over tracing_thresh (trace_irqsoff.c). */
struct lat_breach {
	bool claimed;			/* a CPU is writing, or wrote, the window */
	bool taken;			/* ... and it is complete */
	bool reported;
	enum lat_kind kind;
	int cpu;
	u64 thresh_ns;
	struct lat_window w;
};
extern struct lat_breach lat_breach;
extern u64 tracing_thresh_ns;
extern unsigned long lat_gen;
extern unsigned int lat_enabled_mask;
extern u64 lat_threshold_ns, lat_fine_max_ns;
extern unsigned int lat_worst;
extern bool lat_paused;
void lat_pause(bool pause);

void latency_tracer_init(void);
void lat_fold_cpu(enum lat_kind kind, int cpu);

static inline unsigned int lat_hash(unsigned long ip)
{
	return (unsigned int)((ip * 0x9e3779b97f4a7c15UL) >> (64 - LAT_FUNC_BITS));
}

/* @cpu's statistics if they belong to the current generation. */
static inline struct lat_stats *lat_cpu_stats(enum lat_kind kind, int cpu)
{
	struct lat_stats *st;

	lat_fold_cpu(kind, cpu);	/* windows still in the raw buffer first */
	st = READ_ONCE(per_cpu(lat_stats[kind], cpu));

	if (!st || READ_ONCE(st->gen) != READ_ONCE(lat_gen))
		return NULL;
	return st;
}

#endif
