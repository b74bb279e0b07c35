// SPDX-License-Identifier: GPL-2.0
/*
 * Reports of the latency tracers (trace_irqsoff.c), printed after a
 * workload: per CPU the window count and maximum, the maximum in the
 * irqsoff tracer's header form ("# latency: N us, ... => started at:"),
 * the worst windows, the log2 and fine histograms, the threshold windows
 * as "latency: N us, started at X, ended at Y", the opening functions
 * with the most and the longest time, and the cost of the tracers built.  Each
 * figure is also an @irqlab record (lib/record.c).
 *
 * Sites are return addresses; they print as function+0xoff, looked up at
 * address - 1 so that a call that ends its function still names it.
 */
#include <linux/kernel.h>
#include <linux/irqflags.h>
#include <linux/kallsyms.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/record.h>
#include <linux/run_summary.h>
#include <linux/cpumask.h>
#include <asm/processor.h>
#include <asm/tsc.h>
#include "trace_irqsoff.h"

static DEFINE_MUTEX(lat_report_lock);

/* "function+0xoff" for a return address, or "-" for none. */
static void lat_sym(char *buf, size_t len, unsigned long ip)
{
	unsigned long size, off;
	const char *name;

	if (!ip) {
		snprintf(buf, len, "-");
		return;
	}
	name = kallsyms_lookup(ip - 1, &size, &off);
	if (name)
		snprintf(buf, len, "%s+0x%lx", name, off + 1);
	else
		snprintf(buf, len, "0x%lx", ip);
}

/* Start of the function holding return address @ip (0 if unknown). */
static unsigned long lat_func_start(unsigned long ip)
{
	unsigned long size, off;

	if (!ip || !kallsyms_lookup(ip - 1, &size, &off))
		return 0;
	return ip - 1 - off;
}

/* ------------------------------------------------------------ readers */

bool latency_tracer_summary(enum lat_kind kind, int cpu, struct lat_cpu_summary *out)
{
	struct lat_stats *st;

	memset(out, 0, sizeof(*out));
	if (kind >= LAT_NR_KINDS || cpu < 0 || cpu >= (int)nr_cpu_ids)
		return false;
	st = lat_cpu_stats(kind, cpu);
	if (!st)
		return false;
	out->valid = true;
	out->windows = READ_ONCE(st->windows);
	out->total_ns = st->total_ns;
	out->min_ns = st->min_ns;
	out->max = st->max;
	memcpy(out->log2, st->log2, sizeof(out->log2));
	memcpy(out->fine, st->fine, sizeof(out->fine));
	out->fine_over = st->fine_over;
	out->nr_worst = min_t(unsigned int, st->nr_worst, LAT_WORST_MAX);
	memcpy(out->worst, st->worst, sizeof(out->worst));
	out->thr_kept = st->thr_n;
	out->thr_dropped = st->thr_dropped;
	out->funcs_dropped = st->funcs_dropped;
	return true;
}

unsigned int latency_tracer_threshold(enum lat_kind kind, int cpu,
				      struct lat_window *out, unsigned int max)
{
	struct lat_stats *st;
	unsigned int n;

	if (kind >= LAT_NR_KINDS || cpu < 0 || cpu >= (int)nr_cpu_ids)
		return 0;
	st = lat_cpu_stats(kind, cpu);
	if (!st)
		return 0;
	n = min_t(unsigned int, READ_ONCE(st->thr_n), max);
	memcpy(out, st->thr, n * sizeof(*out));
	return n;
}

/*
 * Call @fn once per (CPU, opening site) slot that recorded windows, with
 * the site's address and totals: what a test needs to check every opener
 * against a list, without the report's merging and table limits.
 */
void latency_tracer_for_each_opener(enum lat_kind kind,
				    void (*fn)(unsigned long ip, const struct lat_func_total *t,
					       void *arg),
				    void *arg)
{
	int cpu;

	if (kind >= LAT_NR_KINDS)
		return;
	for_each_possible_cpu(cpu) {
		struct lat_stats *st = lat_cpu_stats(kind, cpu);

		if (!st)
			continue;
		for (unsigned int i = 0; i < LAT_FUNC_SLOTS; i++) {
			unsigned long ip = READ_ONCE(st->funcs[i].ip);
			struct lat_func_total t = {
				.found = true,
				.windows = st->funcs[i].windows,
				.total_ns = st->funcs[i].total_ns,
				.max_ns = st->funcs[i].max_ns,
			};

			if (ip && t.windows)
				fn(ip, &t, arg);
		}
	}
}

struct func_range {
	unsigned long start, size;
	struct lat_func_total sum;
};

static void sum_in_range(unsigned long ip, const struct lat_func_total *t, void *arg)
{
	struct func_range *f = arg;

	if (ip - 1 < f->start || ip - 1 >= f->start + f->size)
		return;
	f->sum.windows += t->windows;
	f->sum.total_ns += t->total_ns;
	f->sum.max_ns = max(f->sum.max_ns, t->max_ns);
}

struct lat_func_total latency_tracer_func(enum lat_kind kind, const char *func)
{
	struct func_range f = { };
	unsigned long off;

	f.start = kallsyms_lookup_name(func);
	if (kind >= LAT_NR_KINDS || !f.start || !kallsyms_lookup(f.start, &f.size, &off))
		return f.sum;
	latency_tracer_for_each_opener(kind, sum_in_range, &f);
	f.sum.found = true;
	return f.sum;
}

unsigned long latency_tracer_dropped(enum lat_kind kind)
{
	unsigned long n = 0;
	int cpu;

	if (kind >= LAT_NR_KINDS)
		return 0;
	for_each_possible_cpu(cpu) {
		struct lat_stats *st = lat_cpu_stats(kind, cpu);

		if (st)
			n += st->funcs_dropped + st->thr_dropped + st->open_at_reset;
	}
	return n;
}

/* ------------------------------------------------------------ records */

struct lat_rec {
	char json[RECORD_MAX_JSON + 1];
	int n;
	bool open;
};

static void lat_emit(const char *json, int n)
{
	if (n > RECORD_MAX_JSON || record_emit(json) < 0)
		pr_warn("trace: a record does not fit: %.60s...\n", json);
}

/* Pairs [a,b] in chunks that each fit one record. */
static void lat_rec_pair(struct lat_rec *r, const char *head, u64 a, u64 b)
{
	char item[48];
	int len = snprintf(item, sizeof(item), "[%llu,%llu]",
			   (unsigned long long)a, (unsigned long long)b);

	if (r->open && r->n + len + 3 > RECORD_MAX_JSON) {
		r->n += snprintf(r->json + r->n, sizeof(r->json) - r->n, "]}");
		lat_emit(r->json, r->n);
		r->open = false;
	}
	if (!r->open) {
		r->n = snprintf(r->json, sizeof(r->json), "%s\"b\":[", head);
		r->open = true;
	} else {
		r->json[r->n++] = ',';
	}
	r->n += snprintf(r->json + r->n, sizeof(r->json) - r->n, "%s", item);
}

static void lat_rec_close(struct lat_rec *r)
{
	if (!r->open)
		return;
	r->n += snprintf(r->json + r->n, sizeof(r->json) - r->n, "]}");
	lat_emit(r->json, r->n);
	r->open = false;
}

static void lat_emit_window(const char *type, const char *tr, int cpu, unsigned int rank,
			    const struct lat_window *w)
{
	char s[64], e[64], p[64], json[RECORD_MAX_JSON + 1];
	int n;

	lat_sym(s, sizeof(s), w->start_ip);
	lat_sym(e, sizeof(e), w->end_ip);
	lat_sym(p, sizeof(p), w->parent_ip);
	n = snprintf(json, sizeof(json),
		     "{\"type\":\"%s\",\"tracer\":\"%s\",\"cpu\":%d,\"rank\":%u,\"ns\":%llu,"
		     "\"start\":\"%.36s\",\"end\":\"%.36s\",\"parent\":\"%.36s\",\"pid\":%d}",
		     type, tr, cpu, rank, (unsigned long long)w->ns, s, e, p, w->pid);
	lat_emit(json, n);
}

/* ------------------------------------------------------------ report */

/* Linux's latency-trace preemption model names (print_trace_header()). */
static const char *lat_preempt_model(void)
{
	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		return "preempt_rt";
	return IS_ENABLED(CONFIG_PREEMPT) ? "preempt" : "server";
}

/*
 * The maximum in the latency trace header's shape.  "#in/written" there
 * and in the entries line: windows filed in the statistics / windows that
 * closed (the difference was open across a reset and is not filed).
 */
static void lat_print_max(enum lat_kind kind, int cpu, const struct lat_stats *st)
{
	const struct lat_window *w = &st->max;
	char sym[KSYM_SYMBOL_LEN];
	struct lat_rec r = { 0 };
	char head[96];

	pr_info("# %s latency trace v1.1.5 on irqlab %s\n", lat_kind_name(kind), IRQLAB_VERSION);
	pr_info("# --------------------------------------------------------------------\n");
	pr_info("# latency: %llu us, #%llu/%llu, CPU#%d | (M:%s VP:0, KP:0, SP:0 HP:0 #P:%u)\n",
		(unsigned long long)(w->ns / 1000), (unsigned long long)st->windows,
		(unsigned long long)(st->windows + st->open_at_reset), cpu,
		lat_preempt_model(), num_online_cpus());
	pr_info("#    -----------------\n");
	pr_info("#    | task: %s-%d\n", w->comm, w->pid);
	pr_info("#    -----------------\n");
	lat_sym(sym, sizeof(sym), w->start_ip);
	pr_info("#  => started at: %s\n", sym);
	lat_sym(sym, sizeof(sym), w->end_ip);
	pr_info("#  => ended at:   %s\n", sym);
	pr_info("#\n");
	pr_info("#  irqlab: %llu ns, %llu cycles\n", (unsigned long long)w->ns,
		(unsigned long long)w->cycles);
	if (w->parent_ip) {
		lat_sym(sym, sizeof(sym), w->parent_ip);
		pr_info("#  => opener's caller (or interrupted at): %s\n", sym);
	}
	for (unsigned int i = 0; i < w->nr_bt; i++) {
		lat_sym(sym, sizeof(sym), w->bt[i]);
		pr_info("#  => %s\n", sym);
	}
	lat_emit_window("lat_max", lat_kind_name(kind), cpu, 0, w);
	snprintf(head, sizeof(head), "{\"type\":\"lat_bt\",\"tracer\":\"%s\",\"cpu\":%d,",
		 lat_kind_name(kind), cpu);
	for (unsigned int i = 0; i < w->nr_bt; i++)
		lat_rec_pair(&r, head, i, w->bt[i]);
	lat_rec_close(&r);
}

static void lat_print_hists(enum lat_kind kind, int cpu, const struct lat_stats *st)
{
	const char *tr = lat_kind_name(kind);
	u64 step = lat_fine_max_ns / LAT_FINE_BUCKETS;
	struct lat_rec r = { 0 };
	char head[128];

	pr_info("%s: CPU%d log2 histogram (ns: count)\n", tr, cpu);
	snprintf(head, sizeof(head),
		 "{\"type\":\"lat_hist\",\"tracer\":\"%s\",\"cpu\":%d,\"unit\":\"log2_ns\",", tr, cpu);
	for (unsigned int b = 0; b < LAT_LOG2_BUCKETS; b++) {
		if (!st->log2[b])
			continue;
		pr_info("%s:   >= %12llu: %llu\n", tr, b ? 1ULL << b : 0ULL,
			(unsigned long long)st->log2[b]);
		lat_rec_pair(&r, head, b, st->log2[b]);
	}
	lat_rec_close(&r);

	pr_info("%s: CPU%d fine histogram, %llu ns buckets below %llu ns (ns: count)\n",
		tr, cpu, (unsigned long long)step, (unsigned long long)lat_fine_max_ns);
	snprintf(head, sizeof(head),
		 "{\"type\":\"lat_fine\",\"tracer\":\"%s\",\"cpu\":%d,\"step_ns\":%llu,\"over\":%llu,",
		 tr, cpu, (unsigned long long)step, (unsigned long long)st->fine_over);
	for (unsigned int b = 0; b < LAT_FINE_BUCKETS; b++) {
		if (!st->fine[b])
			continue;
		pr_info("%s:   %8llu: %llu\n", tr, (unsigned long long)(b * step),
			(unsigned long long)st->fine[b]);
		lat_rec_pair(&r, head, b, st->fine[b]);
	}
	if (!r.open && st->fine_over)
		lat_rec_pair(&r, head, LAT_FINE_BUCKETS, 0);
	lat_rec_close(&r);
	pr_info("%s:   over %llu ns: %llu\n", tr, (unsigned long long)lat_fine_max_ns,
		(unsigned long long)st->fine_over);
}

static void lat_print_worst_thr(enum lat_kind kind, int cpu, const struct lat_stats *st)
{
	const char *tr = lat_kind_name(kind);
	char s[KSYM_SYMBOL_LEN], e[KSYM_SYMBOL_LEN];

	pr_info("%s: CPU%d worst %u windows (ns, started at, ended at, task)\n",
		tr, cpu, st->nr_worst);
	for (unsigned int i = 0; i < st->nr_worst; i++) {
		const struct lat_window *w = &st->worst[i];

		lat_sym(s, sizeof(s), w->start_ip);
		lat_sym(e, sizeof(e), w->end_ip);
		pr_info("%s:   %2u %10llu  %-36s %-36s %s-%d\n", tr, i + 1,
			(unsigned long long)w->ns, s, e, w->comm, w->pid);
		lat_emit_window("lat_worst", tr, cpu, i + 1, w);
	}
	if (!lat_threshold_ns)
		return;
	pr_info("%s: CPU%d %u windows of at least %llu us (%lu dropped, table of %u)\n", tr, cpu,
		st->thr_n, (unsigned long long)(lat_threshold_ns / 1000), st->thr_dropped,
		LAT_THR_MAX);
	for (unsigned int i = 0; i < st->thr_n; i++) {
		const struct lat_window *w = &st->thr[i];

		lat_sym(s, sizeof(s), w->start_ip);
		lat_sym(e, sizeof(e), w->end_ip);
		pr_info("%s: latency: %llu us, started at %s, ended at %s (CPU#%d %s-%d, %llu ns)\n",
			tr, (unsigned long long)(w->ns / 1000), s, e, cpu, w->comm, w->pid,
			(unsigned long long)w->ns);
		lat_emit_window("lat_thresh", tr, cpu, i + 1, w);
	}
}

/* The opening functions, merged over CPUs; a static table: reports are serialized. */
#define LAT_REPORT_FUNCS 160
static struct lat_func_total lat_funcs[LAT_REPORT_FUNCS];
static unsigned long lat_func_starts[LAT_REPORT_FUNCS];

static void lat_swap(unsigned int a, unsigned int b)
{
	struct lat_func_total t = lat_funcs[a];
	unsigned long s = lat_func_starts[a];

	lat_funcs[a] = lat_funcs[b];
	lat_func_starts[a] = lat_func_starts[b];
	lat_funcs[b] = t;
	lat_func_starts[b] = s;
}

static void lat_print_funcs(enum lat_kind kind, unsigned int top)
{
	const char *tr = lat_kind_name(kind);
	unsigned int n = 0, lost = 0;
	char sym[KSYM_SYMBOL_LEN], json[RECORD_MAX_JSON + 1];
	int cpu;

	for_each_possible_cpu(cpu) {
		struct lat_stats *st = lat_cpu_stats(kind, cpu);

		if (!st)
			continue;
		for (unsigned int i = 0; i < LAT_FUNC_SLOTS; i++) {
			unsigned long ip = st->funcs[i].ip, start;
			unsigned int f;

			if (!ip)
				continue;
			start = lat_func_start(ip);
			for (f = 0; f < n; f++)
				if (lat_func_starts[f] == start)
					break;
			if (f == n) {
				if (n == LAT_REPORT_FUNCS) {
					lost++;
					continue;
				}
				lat_func_starts[n] = start;
				lat_funcs[n++] = (struct lat_func_total){ .found = start != 0 };
			}
			lat_funcs[f].windows += st->funcs[i].windows;
			lat_funcs[f].total_ns += st->funcs[i].total_ns;
			lat_funcs[f].max_ns = max(lat_funcs[f].max_ns, st->funcs[i].max_ns);
		}
	}
	/* Most total time first; the longest single window is a column. */
	pr_info("%s: windows by the function that opened them (all CPUs)\n", tr);
	pr_info("%s:   %-36s %10s %14s %10s %10s\n", tr, "function", "windows", "total ns",
		"avg ns", "max ns");
	for (unsigned int i = 0; i < n && i < top; i++) {
		unsigned int best = i;

		for (unsigned int f = i + 1; f < n; f++)
			if (lat_funcs[f].total_ns > lat_funcs[best].total_ns)
				best = f;
		lat_swap(i, best);
		if (lat_func_starts[i]) {
			unsigned long size, off;
			const char *name = kallsyms_lookup(lat_func_starts[i], &size, &off);

			snprintf(sym, sizeof(sym), "%s", name ? name : "?");
		} else {
			snprintf(sym, sizeof(sym), "(unknown)");
		}
		pr_info("%s:   %-36s %10llu %14llu %10llu %10llu\n", tr, sym,
			(unsigned long long)lat_funcs[i].windows,
			(unsigned long long)lat_funcs[i].total_ns,
			(unsigned long long)(lat_funcs[i].total_ns / lat_funcs[i].windows),
			(unsigned long long)lat_funcs[i].max_ns);
		lat_emit(json, snprintf(json, sizeof(json),
			 "{\"type\":\"lat_func\",\"tracer\":\"%s\",\"rank\":%u,\"func\":\"%.48s\","
			 "\"windows\":%llu,\"total_ns\":%llu,\"max_ns\":%llu}", tr, i + 1, sym,
			 (unsigned long long)lat_funcs[i].windows,
			 (unsigned long long)lat_funcs[i].total_ns,
			 (unsigned long long)lat_funcs[i].max_ns));
	}
	pr_info("%s:   %u functions%s\n", tr, n, lost ? " (report table full)" : "");
}

/*
 * Whose code opened a window: the slab allocator (mm/slub*.c, slab_common,
 * failslab) and the page allocator (mm/page_alloc*.c) are linked into
 * ranges of their own (linker/kernel.ld), so a SLUB window that calls
 * into the page allocator is SLUB's, and the page allocator's own
 * windows are counted apart.
 */
extern char __slab_text_start[], __slab_text_end[];
extern char __page_alloc_text_start[], __page_alloc_text_end[];

enum { LAT_SUB_SLAB, LAT_SUB_PAGE_ALLOC, LAT_SUB_OTHER, LAT_NR_SUBS };
static const char *const lat_sub_names[LAT_NR_SUBS] = { "slab", "page_alloc", "other" };

static unsigned int lat_subsys(unsigned long ip)
{
	ip--;		/* a return address: the call is before it */
	if (ip >= (unsigned long)__slab_text_start && ip < (unsigned long)__slab_text_end)
		return LAT_SUB_SLAB;
	if (ip >= (unsigned long)__page_alloc_text_start &&
	    ip < (unsigned long)__page_alloc_text_end)
		return LAT_SUB_PAGE_ALLOC;
	return LAT_SUB_OTHER;
}

struct lat_sub_total {
	u64 windows, total_ns, max_ns;
	unsigned long max_start, max_end;
};

static void lat_print_subsys(enum lat_kind kind)
{
	struct lat_sub_total sub[LAT_NR_SUBS] = { 0 };
	const char *tr = lat_kind_name(kind);
	char s[KSYM_SYMBOL_LEN], e[KSYM_SYMBOL_LEN], json[RECORD_MAX_JSON + 1];
	int cpu;

	for_each_possible_cpu(cpu) {
		struct lat_stats *st = lat_cpu_stats(kind, cpu);

		if (!st)
			continue;
		for (unsigned int i = 0; i < LAT_FUNC_SLOTS; i++) {
			const struct lat_func_slot *f = &st->funcs[i];
			struct lat_sub_total *t;

			if (!f->ip)
				continue;
			t = &sub[lat_subsys(f->ip)];
			t->windows += f->windows;
			t->total_ns += f->total_ns;
			if (f->max_ns > t->max_ns) {
				t->max_ns = f->max_ns;
				t->max_start = f->ip;
				t->max_end = f->max_end_ip;
			}
		}
	}
	pr_info("%s: by the code that opened the windows (all CPUs)\n", tr);
	for (unsigned int i = 0; i < LAT_NR_SUBS; i++) {
		lat_sym(s, sizeof(s), sub[i].max_start);
		lat_sym(e, sizeof(e), sub[i].max_end);
		pr_info("%s:   %-10s %10llu windows %14llu ns, longest %10llu ns started at %s, ended at %s\n",
			tr, lat_sub_names[i], (unsigned long long)sub[i].windows,
			(unsigned long long)sub[i].total_ns, (unsigned long long)sub[i].max_ns, s, e);
		lat_emit(json, snprintf(json, sizeof(json),
			 "{\"type\":\"lat_subsys\",\"tracer\":\"%s\",\"code\":\"%s\",\"windows\":%llu,"
			 "\"total_ns\":%llu,\"max_ns\":%llu,\"start\":\"%.30s\",\"end\":\"%.30s\"}",
			 tr, lat_sub_names[i], (unsigned long long)sub[i].windows,
			 (unsigned long long)sub[i].total_ns, (unsigned long long)sub[i].max_ns, s, e));
	}
}

/*
 * The tracers' own cost, in TSC cycles: a local_irq_save()/restore() pair
 * with the hooks against the raw pair, and a preempt_disable()/enable()
 * pair through the traced calls against the same pair as a build without
 * the tracer has it.  Run after the report: it records windows of its
 * own.  test/trace_cost_test.c times the same loops.
 */
#define LAT_COST_LOOPS 2000

u64 lat_cost_irq_loop(bool traced, unsigned int loops)
{
	unsigned long flags;
	u64 t0 = rdtsc_ordered();

	for (unsigned int i = 0; i < loops; i++) {
		if (traced) {
			local_irq_save(flags);
			local_irq_restore(flags);
		} else {
			raw_local_irq_save(flags);
			raw_local_irq_restore(flags);
		}
		barrier();
	}
	return rdtsc_ordered() - t0;
}

/* Untraced: preempt_disable() and preempt_enable() without the tracer's tests. */
u64 lat_cost_preempt_loop(bool traced, unsigned int loops)
{
	u64 t0 = rdtsc_ordered();

	for (unsigned int i = 0; i < loops; i++) {
		if (traced) {
			preempt_disable();
			preempt_enable();
		} else {
			__preempt_count_add(1);
			barrier();
#ifdef CONFIG_PREEMPTION
			if (unlikely(__preempt_count_dec_and_test()))
				preempt_schedule();
#else
			__preempt_count_sub(1);
#endif
		}
		barrier();
	}
	return rdtsc_ordered() - t0;
}

/* "%llu.%02llu" of @total / LAT_COST_LOOPS. */
static int lat_cost_fmt(char *buf, size_t len, u64 total)
{
	return snprintf(buf, len, "%llu.%02llu", (unsigned long long)(total / LAT_COST_LOOPS),
			(unsigned long long)(total * 100 / LAT_COST_LOOPS % 100));
}

/* Only the tracers this build has: a cost of 0 for one that is not there reads as free. */
static void lat_print_cost(void)
{
	char line[192] = "", json[RECORD_MAX_JSON + 1];
	char a[24] __maybe_unused, b[24] __maybe_unused;
	int n = 0, j;

	j = snprintf(json, sizeof(json), "{\"type\":\"lat_cost\",\"clock\":\"%s\",\"loops\":%d",
		     tsc_clock_mode(), LAT_COST_LOOPS);
#ifdef CONFIG_TRACE_IRQSOFF
	{
		u64 raw, traced;

		lat_cost_irq_loop(true, LAT_COST_LOOPS);	/* warm the caches */
		raw = lat_cost_irq_loop(false, LAT_COST_LOOPS);
		traced = lat_cost_irq_loop(true, LAT_COST_LOOPS);
		lat_cost_fmt(a, sizeof(a), traced);
		lat_cost_fmt(b, sizeof(b), raw);
		n += snprintf(line + n, sizeof(line) - n,
			      "; local_irq_save+restore %s cycles traced, %s raw", a, b);
		j += snprintf(json + j, sizeof(json) - j,
			      ",\"irq_pair_traced\":%llu,\"irq_pair_raw\":%llu",
			      (unsigned long long)traced, (unsigned long long)raw);
	}
#endif
#ifdef CONFIG_TRACE_PREEMPTOFF
	{
		u64 raw, traced;

		lat_cost_preempt_loop(true, LAT_COST_LOOPS);
		raw = lat_cost_preempt_loop(false, LAT_COST_LOOPS);
		traced = lat_cost_preempt_loop(true, LAT_COST_LOOPS);
		lat_cost_fmt(a, sizeof(a), traced);
		lat_cost_fmt(b, sizeof(b), raw);
		n += snprintf(line + n, sizeof(line) - n,
			      "; preempt_disable+enable %s cycles traced, %s raw", a, b);
		j += snprintf(json + j, sizeof(json) - j,
			      ",\"preempt_pair\":%llu,\"preempt_pair_raw\":%llu",
			      (unsigned long long)traced, (unsigned long long)raw);
	}
#endif
	if (!n)
		return;		/* neither timed tracer is built */
	/*
	 * The migrate tracer's hooks are not timed here, but built they sit in
	 * migrate_disable()/enable() whether it is on or not: say so, so that
	 * throughput is compared only between builds that both have them or
	 * both lack them (tools/irqlab compare).
	 */
	if (IS_ENABLED(CONFIG_TRACE_MIGRATE)) {
		n += snprintf(line + n, sizeof(line) - n, "; migrate hooks built (untimed)");
		j += snprintf(json + j, sizeof(json) - j, ",\"migrate_built\":true");
	}
	pr_info("trace: cost (%s, %d loops):%s\n", tsc_clock_mode(), LAT_COST_LOOPS, line + 1);
	j += snprintf(json + j, sizeof(json) - j, "}");
	lat_emit(json, j);
}

static void lat_report_kind(enum lat_kind kind, const char *what)
{
	const char *tr = lat_kind_name(kind);
	char s[KSYM_SYMBOL_LEN], e[KSYM_SYMBOL_LEN], json[RECORD_MAX_JSON + 1];
	unsigned long long filed = 0, closed = 0;
	int cpu;

	for_each_possible_cpu(cpu) {
		struct lat_stats *st = lat_cpu_stats(kind, cpu);

		if (st) {
			filed += st->windows;
			closed += st->windows + st->open_at_reset;
		}
	}
	/* What ftrace's trace file starts with. */
	pr_info("# tracer: %s\n", tr);
	pr_info("#\n");
	pr_info("# entries-in-buffer/entries-written: %llu/%llu   #P:%u\n", filed, closed,
		num_online_cpus());
	pr_info("#\n");
	pr_info("%s: after %s, %s clock, tsc %lu kHz\n", tr, what, tsc_clock_mode(), tsc_khz);
	pr_info("%s: CPU %10s %10s %10s %10s  %-36s %-36s\n", tr, "windows", "min ns", "avg ns",
		"max ns", "started at", "ended at");
	for_each_possible_cpu(cpu) {
		struct lat_stats *st = lat_cpu_stats(kind, cpu);

		if (!st || !st->windows)
			continue;
		lat_sym(s, sizeof(s), st->max.start_ip);
		lat_sym(e, sizeof(e), st->max.end_ip);
		pr_info("%s: %3d %10llu %10llu %10llu %10llu  %-36s %-36s\n", tr, cpu,
			(unsigned long long)st->windows, (unsigned long long)st->min_ns,
			(unsigned long long)(st->total_ns / st->windows),
			(unsigned long long)st->max.ns, s, e);
		lat_emit(json, snprintf(json, sizeof(json),
			 "{\"type\":\"lat_cpu\",\"tracer\":\"%s\",\"what\":\"%.24s\",\"cpu\":%d,"
			 "\"windows\":%llu,\"min_ns\":%llu,\"total_ns\":%llu,\"max_ns\":%llu,"
			 "\"dropped\":%lu}", tr, what, cpu, (unsigned long long)st->windows,
			 (unsigned long long)st->min_ns, (unsigned long long)st->total_ns,
			 (unsigned long long)st->max.ns,
			 st->funcs_dropped + st->thr_dropped + st->open_at_reset));
	}
	for_each_possible_cpu(cpu) {
		struct lat_stats *st = lat_cpu_stats(kind, cpu);

		if (!st || !st->windows)
			continue;
		lat_print_max(kind, cpu, st);
		lat_print_worst_thr(kind, cpu, st);
		lat_print_hists(kind, cpu, st);
	}
	lat_print_funcs(kind, 12);
	lat_print_subsys(kind);
}

/*
 * The end-of-run summary: the longest IRQ-off window and its opener, and
 * what each tracer dropped.  With trace.reset=0 a later report sees the
 * same drops again: only the ones new since the last report count.
 */
static void lat_fill_summary(void)
{
	static unsigned long seen_gen, seen_dropped[LAT_NR_KINDS];
	unsigned long gen = READ_ONCE(lat_gen);
	const struct lat_window *worst = NULL;
	char sym[KSYM_SYMBOL_LEN];
	int cpu;

	for (unsigned int k = 0; k < LAT_NR_KINDS; k++) {
		unsigned long n = latency_tracer_dropped(k);

		if (gen == seen_gen)
			n -= min(n, seen_dropped[k]);
		else
			seen_dropped[k] = 0;
		seen_dropped[k] += n;
		if (n)
			run_summary_lost(lat_kind_name(k), n);
	}
	seen_gen = gen;
	if (!(READ_ONCE(lat_enabled_mask) & (1U << LAT_IRQSOFF)))
		return;
	for_each_possible_cpu(cpu) {
		struct lat_stats *st = lat_cpu_stats(LAT_IRQSOFF, cpu);

		if (st && st->windows && (!worst || st->max.ns > worst->ns))
			worst = &st->max;
	}
	if (!worst)
		return;
	lat_sym(sym, sizeof(sym), worst->start_ip);
	run_summary_irqoff(lat_kind_name(LAT_IRQSOFF), worst->ns, sym);
}

u64 latency_tracer_breach_ns(void)
{
	return __atomic_load_n(&lat_breach.taken, __ATOMIC_ACQUIRE) ? lat_breach.w.ns : 0;
}

/* The window that crossed tracing_thresh, once, in the threshold form. */
static void lat_print_breach(void)
{
	const struct lat_window *w = &lat_breach.w;
	const char *tr = lat_kind_name(lat_breach.kind);
	char s[KSYM_SYMBOL_LEN], e[KSYM_SYMBOL_LEN], p[KSYM_SYMBOL_LEN];
	char json[RECORD_MAX_JSON + 1];

	if (!__atomic_load_n(&lat_breach.taken, __ATOMIC_ACQUIRE) || lat_breach.reported)
		return;
	lat_breach.reported = true;
	lat_sym(s, sizeof(s), w->start_ip);
	lat_sym(e, sizeof(e), w->end_ip);
	lat_sym(p, sizeof(p), w->parent_ip);
	pr_err("%s: tracing_thresh %llu us crossed, tracing stopped (tracing_off()):\n", tr,
	       (unsigned long long)(lat_breach.thresh_ns / 1000));
	pr_err("%s: latency: %llu us, started at %s, ended at %s (CPU#%d %s-%d, %llu ns, opener's caller %s, end tsc %llu)\n",
	       tr, (unsigned long long)(w->ns / 1000), s, e, lat_breach.cpu, w->comm, w->pid,
	       (unsigned long long)w->ns, p, (unsigned long long)w->end_tsc);
	for (unsigned int i = 0; i < w->nr_bt; i++) {
		lat_sym(s, sizeof(s), w->bt[i]);
		pr_err("%s:  => %s\n", tr, s);
	}
	lat_emit_window("lat_breach", tr, lat_breach.cpu, 0, w);
	lat_emit(json, snprintf(json, sizeof(json),
		 "{\"type\":\"lat_breach_thresh\",\"tracer\":\"%s\",\"ns\":%llu,\"thresh_ns\":%llu}",
		 tr, (unsigned long long)w->ns, (unsigned long long)lat_breach.thresh_ns));
	run_summary_breach(tr, w->ns, lat_breach.thresh_ns);
}

void latency_tracer_report(const char *what)
{
	bool any = false;

	if (!what)
		what = "boot";
	mutex_lock(&lat_report_lock);
	lat_pause(true);
	for (unsigned int k = 0; k < LAT_NR_KINDS; k++) {
		if (!(READ_ONCE(lat_enabled_mask) & (1U << k)))
			continue;
		lat_report_kind(k, what);
		any = true;
	}
	lat_fill_summary();
	lat_print_breach();
	lat_pause(false);
	if (any)
		lat_print_cost();
	mutex_unlock(&lat_report_lock);
}
