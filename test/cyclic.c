// SPDX-License-Identifier: GPL-2.0
/*
 * cyclic: timer wakeup latency, in the manner of cyclictest and rtla
 * timerlat (DESIGN 7).  One SCHED_FIFO kernel thread per selected CPU
 * arms an absolute, pinned, hard-IRQ-expiry hrtimer every interval and
 * sleeps; the timer handler notes the time and wakes it.  Two latencies
 * per wakeup, against the programmed expiry:
 *
 *	IRQ level     handler entry - expiry     (interrupt delivery)
 *	thread level  thread running - expiry    (plus wakeup and switch)
 *
 * Times come from ktime_get_ns(), the TSC scaled to ns.  The first
 * expiry sits half a scheduler tick after a tick boundary, so two runs
 * meet the tick at the same points of their periods.
 *
 *	run=cyclic cyclic.cpus=<list> cyclic.interval_us=<us> cyclic.prio=<1..99>
 *	    cyclic.loops=<n> | cyclic.duration_ms=<ms> cyclic.hist_us=<n>
 *
 * Nothing is printed while the threads measure: samples go into
 * per-thread min/avg/max and a histogram of 1 us buckets, printed when
 * every thread is done as cyclictest's "T:" lines (thread level), the
 * same lines prefixed "IRQ " (IRQ level), a "# Histogram" block (thread
 * level, cyclictest -h) and a "# IRQ Histogram" block, then records:
 * one "cyclic" per thread, "cyclic_hist" for the non-empty buckets.
 * Each run keeps its state in its own cyclic_result, so run=cyclic can
 * be combined with other workloads.
 */
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/sched.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/jiffies.h>
#include <linux/smp.h>
#include <linux/ktest.h>
#include <linux/moduleparam.h>
#include <linux/record.h>
#include <linux/run_summary.h>
#include <linux/vmalloc.h>
#include <stdarg.h>
#include <string.h>
#include "workload.h"
#include "cyclic.h"
#include "cpulist.h"

static int cyc_interval_us = 1000;
static int cyc_prio = 95;
static int cyc_loops = 1000;
static int cyc_duration_ms;
static int cyc_hist_us = 100;
static int cyc_threshold_us;
core_param_range("cyclic.interval_us", cyc_interval_us, int, 10, 1000000,
		 "timer period of each measuring thread (us)");
core_param_range("cyclic.prio", cyc_prio, int, 1, MAX_RT_PRIO - 1,
		 "SCHED_FIFO priority of the measuring threads");
core_param_range("cyclic.loops", cyc_loops, int, 1, 100000000,
		 "wakeups per thread (unless cyclic.duration_ms is set)");
core_param_range("cyclic.duration_ms", cyc_duration_ms, int, 0, 3600000,
		 "run for this long instead of cyclic.loops (0: use loops)");
core_param_range("cyclic.hist_us", cyc_hist_us, int, 1, 100000,
		 "histogram buckets of 1 us; longer latencies count as overflows");
core_param_range("cyclic.threshold_us", cyc_threshold_us, int, 0, 100000000,
		 "stop and fail at the first thread latency above this (us; 0: none), "
		 "like cyclictest -b");

/* cyclic.cpus: a CPU list such as 0,2-3; unset means every online CPU. */
static struct cpulist_param cyc_cpus;
core_param_cb("cyclic.cpus", &cpulist_param_ops, &cyc_cpus,
	      "CPUs to measure on, e.g. 0,2-3 (default: every online CPU)");

/* --- measurement ------------------------------------------------------ */

static void cyclic_stats_init(struct cyclic_stats *s)
{
	s->count = 0;
	s->min_ns = ~0ULL;
	s->max_ns = s->act_ns = s->sum_ns = 0;
	s->overflows = 0;
}

/* No printk, no allocation: this runs inside the measured loop. */
void cyclic_account(struct cyclic_stats *s, u64 ns, unsigned int hist_us)
{
	u64 us = ns / NSEC_PER_USEC;

	s->count++;
	s->act_ns = ns;
	s->sum_ns += ns;
	if (ns < s->min_ns)
		s->min_ns = ns;
	if (ns > s->max_ns)
		s->max_ns = ns;
	if (us < hist_us)
		s->hist[us]++;
	else
		s->overflows++;
}

u64 cyclic_avg_ns(const struct cyclic_stats *s)
{
	return s->count ? s->sum_ns / s->count : 0;
}

/*
 * A thread latency crossed threshold_ns.  The first thread to get here
 * stops tracing at once, so the trace ends at the breach, and keeps the
 * sample; every thread ends its loop at its next wakeup.
 */
/*
 * Whether two runs gave one level the same figures, for the icount
 * repeatability tests: count, extremes, sum, overflows and every
 * histogram bin.  Not sample by sample: which periods the tick lands in
 * depends on the run's phase against it.  When they differ, @t's log says
 * how, naming the runs with @what.
 */
bool cyclic_stats_same(struct ktest *t, const char *what, const struct cyclic_stats *a,
		       const struct cyclic_stats *b, unsigned int hist_us)
{
	unsigned int bins = 0, first = 0;

	for (unsigned int i = 0; i < hist_us; i++) {
		if (a->hist[i] == b->hist[i])
			continue;
		if (!bins++)
			first = i;
	}
	if (a->count == b->count && a->min_ns == b->min_ns && a->max_ns == b->max_ns &&
	    a->sum_ns == b->sum_ns && a->overflows == b->overflows && !bins)
		return true;
	ktest_info(t, "%s differ: count %llu/%llu, min %llu/%llu, max %llu/%llu, "
		   "sum %llu/%llu ns, overflows %llu/%llu, %u histogram bin(s) (first %u us)",
		   what, (unsigned long long)a->count, (unsigned long long)b->count,
		   (unsigned long long)a->min_ns, (unsigned long long)b->min_ns,
		   (unsigned long long)a->max_ns, (unsigned long long)b->max_ns,
		   (unsigned long long)a->sum_ns, (unsigned long long)b->sum_ns,
		   (unsigned long long)a->overflows, (unsigned long long)b->overflows,
		   bins, first);
	return false;
}

void cyclic_break(struct cyclic_thread *ct, u64 ns)
{
	struct cyclic_result *r = ct->res;

	ct->broke = true;
	if (!cmpxchg(&r->break_thread, NULL, ct)) {
		tracing_off();
		r->break_ns = ns;
	}
	WRITE_ONCE(r->stop, true);
}

/* T:0 reports progress (test/heartbeat.c); the others stay quiet. */
void cyclic_heartbeat_start(struct cyclic_thread *ct, const char *what)
{
	const struct cyclic_params *p = &ct->res->params;

	if (ct == ct->res->threads)
		heartbeat_start(&ct->hb, what, (u64)p->loops * p->interval_us * NSEC_PER_USEC);
	else
		heartbeat_off(&ct->hb);
}

static enum hrtimer_restart cyclic_timer_fn(struct hrtimer *timer)
{
	struct cyclic_thread *ct = container_of(timer, struct cyclic_thread, timer);

	ct->irq_entry_ns = ktime_get_ns();
	smp_store_release(&ct->fired, true);
	wake_up_process(ct->task);
	return HRTIMER_NORESTART;
}

static int cyclic_thread_fn(void *data)
{
	struct cyclic_thread *ct = data;
	struct cyclic_result *r = ct->res;
	const struct cyclic_params *p = &r->params;
	u64 interval = (u64)p->interval_us * NSEC_PER_USEC;
	u64 thresh = p->threshold_ns ?: ~0ULL;
	u64 next;

	hrtimer_init(&ct->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_PINNED_HARD);
	ct->timer.function = cyclic_timer_fn;
	cyclic_heartbeat_start(ct, "cyclic");
	next = DIV_ROUND_UP(ktime_get_ns() + interval, TICK_NSEC) * TICK_NSEC + TICK_NSEC / 2;
	for (unsigned int i = 0; i < p->loops && !READ_ONCE(r->stop); i++) {
		u64 now, lat;

		WRITE_ONCE(ct->fired, false);
		hrtimer_start(&ct->timer, (ktime_t)next, HRTIMER_MODE_ABS_PINNED_HARD);
		for (;;) {
			set_current_state(TASK_UNINTERRUPTIBLE);
			if (smp_load_acquire(&ct->fired))
				break;
			schedule();
		}
		__set_current_state(TASK_RUNNING);
		now = ktime_get_ns();
		/* An hrtimer never fires early; the max() only guards that. */
		cyclic_account(&ct->irq, max(ct->irq_entry_ns, next) - next, p->hist_us);
		lat = max(now, next) - next;
		cyclic_account(&ct->thread, lat, p->hist_us);
		if (ct->thread_samples)
			ct->thread_samples[i] = lat;
		/* After the sample: the measured section gains nothing. */
		if (unlikely(lat > thresh)) {
			cyclic_break(ct, lat);
			break;
		}
		next += interval;
		while (next <= now) {
			next += interval;
			ct->missed++;
		}
		/* In the gap before the next expiry, never past it (heartbeat.c). */
		heartbeat_poll(&ct->hb, now, next);
	}
	hrtimer_cancel(&ct->timer);
	cyclic_thread_done(ct);
	return 0;
}

void cyclic_thread_done(struct cyclic_thread *ct)
{
	struct cyclic_result *r = ct->res;

	/* @r may be freed as soon as the count reaches zero. */
	workload_done(&r->running, r->waiter);
}

void cyclic_free(struct cyclic_result *r)
{
	if (!r)
		return;
	for (unsigned int i = 0; r->threads && i < r->nr_threads; i++) {
		vfree(r->threads[i].thread.hist);
		vfree(r->threads[i].irq.hist);
		vfree(r->threads[i].thread_samples);
	}
	vfree(r->threads);
	vfree(r);
}

static struct cyclic_result *cyclic_alloc(const struct cyclic_params *p, bool keep_samples)
{
	unsigned int n = cpumask_weight(&p->cpus), i = 0;
	unsigned long hist_size = (unsigned long)p->hist_us * sizeof(u32);
	struct cyclic_result *r;
	int cpu;

	r = vzalloc(sizeof(*r));
	if (!r)
		return NULL;
	r->params = *p;
	r->threads = vzalloc(sizeof(*r->threads) * n);
	if (!r->threads)
		goto fail;
	r->nr_threads = n;
	for_each_cpu(cpu, &p->cpus) {
		struct cyclic_thread *ct = &r->threads[i++];

		ct->cpu = cpu;
		ct->res = r;
		cyclic_stats_init(&ct->thread);
		cyclic_stats_init(&ct->irq);
		ct->thread.hist = vzalloc(hist_size);
		ct->irq.hist = vzalloc(hist_size);
		if (!ct->thread.hist || !ct->irq.hist)
			goto fail;
		if (keep_samples) {
			ct->thread_samples = vzalloc(sizeof(u64) * p->loops);
			if (!ct->thread_samples)
				goto fail;
		}
	}
	return r;
fail:
	cyclic_free(r);
	return NULL;
}

struct cyclic_result *cyclic_measure(const struct cyclic_params *p, bool keep_samples)
{
	struct cyclic_result *r = cyclic_alloc(p, keep_samples);
	struct sched_param sp = { .sched_priority = p->prio };

	if (!r)
		return NULL;
	r->waiter = current;
	atomic_set(&r->running, r->nr_threads);
	struct sched_attr attr = {
		.size = sizeof(attr),
		.sched_policy = SCHED_DEADLINE,
		.sched_runtime = p->runtime_ns,
		.sched_deadline = p->deadline_ns,
		.sched_period = (u64)p->interval_us * NSEC_PER_USEC,
	};
	bool dl = cyclic_is_dl(p);

	for (unsigned int i = 0; i < r->nr_threads; i++) {
		struct cyclic_thread *ct = &r->threads[i];
		struct task_struct *t;

		t = ktest_kthread(dl ? cyclicdl_thread_fn : cyclic_thread_fn, ct,
				  dl ? "cyclicdl" : "cyclic", ct->cpu, SCHED_NORMAL, 0);
		ct->err = !t ? -ENOMEM : dl ? sched_setattr_nocheck(t, &attr) :
			  sched_setscheduler_nocheck(t, SCHED_FIFO, &sp);
		if (ct->err) {
			/* Created but not started: it never runs. */
			ct->failed = true;
			atomic_dec(&r->running);
			continue;
		}
		ct->task = t;
		ct->pid = t->pid;
	}
	for (unsigned int i = 0; i < r->nr_threads; i++)
		if (r->threads[i].task)
			wake_up_process(r->threads[i].task);
	workload_wait_zero(&r->running);
	return r;
}

/* --- reporting ------------------------------------------------------- */

/*
 * Under icount the TSC is a 1 GHz instruction clock and most latencies are
 * well under a microsecond, so microseconds would print as 0: the console
 * lines use ns there, as cyclictest -N does, and say so in their header.
 * Other clocks keep cyclictest's default, us.  Records are always in ns.
 */
bool cyclic_units_ns(void)
{
	return !strcmp(ktest_clock_mode(), "icount");
}

static u64 unit(u64 ns, bool in_ns)
{
	return in_ns ? ns : ns / NSEC_PER_USEC;
}

static const struct cyclic_stats *level_stats(const struct cyclic_thread *ct, bool irq)
{
	return irq ? &ct->irq : &ct->thread;
}

/*
 * One cyclictest "T:" line of thread @i, in ns or us.  Missed periods
 * (expiries already past when the thread came to arm them, so never
 * measured) close the line as one more "Name: value" pair after
 * cyclictest's own fields, so parsers of those keep working.
 */
int cyclic_format_tline(char *buf, size_t size, const struct cyclic_result *r,
			unsigned int i, bool irq, bool in_ns)
{
	/* A deadline task has no RT priority: P:0, as cyclicdeadline shows. */
	int prio = cyclic_is_dl(&r->params) ? 0 : r->params.prio;
	const struct cyclic_thread *ct = &r->threads[i];
	const struct cyclic_stats *s = level_stats(ct, irq);

	return sniprintf(buf, size, "%sT:%2u (%5d) P:%2d I:%u C:%7llu Min:%7llu Act:%5llu "
			 "Avg:%5llu Max:%8llu Missed: %5llu",
			 irq ? "IRQ " : "", i, ct->pid, prio, r->params.interval_us,
			 (unsigned long long)s->count,
			 (unsigned long long)(s->count ? unit(s->min_ns, in_ns) : 0),
			 (unsigned long long)unit(s->act_ns, in_ns),
			 (unsigned long long)unit(cyclic_avg_ns(s), in_ns),
			 (unsigned long long)unit(s->max_ns, in_ns),
			 (unsigned long long)ct->missed);
}

static void cyclic_print_tlines(const struct cyclic_result *r, bool irq, bool in_ns)
{
	char line[160];

	for (unsigned int i = 0; i < r->nr_threads; i++) {
		cyclic_format_tline(line, sizeof(line), r, i, irq, in_ns);
		pr_info("%s\n", line);
	}
}

/*
 * A console line built in pieces and printed whole (one printk record); one
 * wider than a printk record is wrapped.
 */
#define CYC_LINE_MAX	200

struct cyc_line {
	char buf[CYC_LINE_MAX];
	size_t len;
};

static __printf(2, 3) void cyc_add(struct cyc_line *l, const char *fmt, ...)
{
	char piece[48];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsniprintf(piece, sizeof(piece), fmt, ap);
	va_end(ap);
	if (n <= 0)
		return;
	n = min(n, (int)sizeof(piece) - 1);
	if (l->len + n >= sizeof(l->buf)) {
		pr_info("%s\n", l->buf);	/* too wide: wrap */
		l->len = 0;
	}
	memcpy(l->buf + l->len, piece, n + 1);
	l->len += n;
}

static void cyc_flush(struct cyc_line *l)
{
	pr_info("%s\n", l->buf);
	l->len = 0;
	l->buf[0] = '\0';
}

/* Buckets stay 1 us wide; the latency summary lines follow @in_ns. */
static void cyclic_print_hist(const struct cyclic_result *r, bool irq, bool in_ns)
{
	const char *pfx = irq ? "IRQ " : "";
	struct cyc_line l = { .len = 0 };
	unsigned int n = r->nr_threads;

	pr_info("# %sHistogram\n", pfx);
	for (unsigned int b = 0; b < r->params.hist_us; b++) {
		cyc_add(&l, "%06u ", b);
		for (unsigned int i = 0; i < n; i++)
			cyc_add(&l, "%06u%s", level_stats(&r->threads[i], irq)->hist[b],
				i < n - 1 ? "\t" : "");
		cyc_flush(&l);
	}
	cyc_add(&l, "# %sTotal:", pfx);
	for (unsigned int i = 0; i < n; i++) {
		const struct cyclic_stats *s = level_stats(&r->threads[i], irq);

		cyc_add(&l, " %09llu", (unsigned long long)(s->count - s->overflows));
	}
	cyc_flush(&l);
	cyc_add(&l, "# %sMin Latencies:", pfx);
	for (unsigned int i = 0; i < n; i++) {
		const struct cyclic_stats *s = level_stats(&r->threads[i], irq);

		cyc_add(&l, " %05llu", (unsigned long long)(s->count ? unit(s->min_ns, in_ns) : 0));
	}
	cyc_flush(&l);
	cyc_add(&l, "# %sAvg Latencies:", pfx);
	for (unsigned int i = 0; i < n; i++)
		cyc_add(&l, " %05llu",
			(unsigned long long)unit(cyclic_avg_ns(level_stats(&r->threads[i], irq)),
						      in_ns));
	cyc_flush(&l);
	cyc_add(&l, "# %sMax Latencies:", pfx);
	for (unsigned int i = 0; i < n; i++)
		cyc_add(&l, " %05llu",
			(unsigned long long)unit(level_stats(&r->threads[i], irq)->max_ns, in_ns));
	cyc_flush(&l);
	cyc_add(&l, "# %sHistogram Overflows:", pfx);
	for (unsigned int i = 0; i < n; i++)
		cyc_add(&l, " %05llu",
			(unsigned long long)level_stats(&r->threads[i], irq)->overflows);
	cyc_flush(&l);
}

void cyclic_print(const struct cyclic_result *r)
{
	const char *clock = ktest_clock_mode();
	bool in_ns = cyclic_units_ns();
	const char *u = in_ns ? "ns" : "us";

	if (cyclic_is_dl(&r->params)) {
		/* No timer of its own, so no IRQ level (cyclicdeadline has none). */
		pr_info("cyclicdl: thread latency (period start to the thread running), %s, "
			"%s:\n", u, clock);
		cyclic_print_tlines(r, false, in_ns);
		cyclic_print_hist(r, false, in_ns);
		return;
	}
	pr_info("cyclic: thread latency (timer expiry to the thread running), %s, %s:\n",
		u, clock);
	cyclic_print_tlines(r, false, in_ns);
	pr_info("cyclic: IRQ latency (timer expiry to handler entry), %s, %s:\n", u, clock);
	cyclic_print_tlines(r, true, in_ns);
	cyclic_print_hist(r, false, in_ns);
	cyclic_print_hist(r, true, in_ns);
}

static int cyc_emit(const char *json, int n)
{
	if (n >= RECORD_MAX_JSON + 1 || record_emit(json) < 0) {
		pr_warn("cyclic(dl): a record does not fit: %.60s...\n", json);
		return 1;
	}
	return 0;
}

/* The non-empty buckets of one histogram, as [us,count] pairs, in chunks. */
static int cyclic_emit_hist(const struct cyclic_result *r, unsigned int t, bool irq)
{
	const struct cyclic_stats *s = level_stats(&r->threads[t], irq);
	char json[RECORD_MAX_JSON + 1];
	unsigned int b = 0, part = 0;
	int bad = 0;

	do {
		int n = sniprintf(json, sizeof(json),
				 "{\"type\":\"%s_hist\",\"cpu\":%d,\"level\":\"%s\","
				 "\"part\":%u,\"bins\":[",
				 cyclic_is_dl(&r->params) ? "cyclicdl" : "cyclic", r->threads[t].cpu,
				 irq ? "irq" : "thread", part++);
		bool first = true;

		for (; b < r->params.hist_us; b++) {
			char pair[32];
			int m;

			if (!s->hist[b])
				continue;
			m = sniprintf(pair, sizeof(pair), "%s[%u,%u]", first ? "" : ",", b,
				     s->hist[b]);
			/* Leave room for the closing "]}". */
			if (n + m + 2 > RECORD_MAX_JSON)
				break;
			memcpy(json + n, pair, m + 1);
			n += m;
			first = false;
		}
		n += sniprintf(json + n, sizeof(json) - n, "]}");
		bad += cyc_emit(json, n);
	} while (b < r->params.hist_us);
	return bad;
}

/*
 * Thread @i's "cyclic" (or "cyclicdl") record into @json; returns its
 * length.  @clock NULL leaves the "clock" member out: the record carries
 * every figure in up to 200 bytes, and when large counts and latencies
 * (hour-long runs, missed periods, 100 ms maxima) make it longer, the
 * clock, which every other record of the run names too, is what goes.
 */
int cyclic_format_record(char *json, size_t size, const struct cyclic_result *r,
			 unsigned int i, const char *clock)
{
	const struct cyclic_thread *ct = &r->threads[i];
	const struct cyclic_stats *th = &ct->thread, *ir = &ct->irq;
	int n;

	if (cyclic_is_dl(&r->params))
		n = sniprintf(json, size,
			      "{\"type\":\"cyclicdl\",\"cpu\":%d,\"runtime_us\":%llu,"
			      "\"deadline_us\":%llu,\"period_us\":%u,\"count\":%llu,"
			      "\"thread_ns\":[%llu,%llu,%llu],\"overflows\":[%llu],"
			      "\"missed\":%llu", ct->cpu,
			      (unsigned long long)(r->params.runtime_ns / NSEC_PER_USEC),
			      (unsigned long long)(r->params.deadline_ns / NSEC_PER_USEC),
			      r->params.interval_us, (unsigned long long)th->count,
			      (unsigned long long)(th->count ? th->min_ns : 0),
			      (unsigned long long)cyclic_avg_ns(th),
			      (unsigned long long)th->max_ns,
			      (unsigned long long)th->overflows,
			      (unsigned long long)ct->missed);
	else
		n = sniprintf(json, size,
			      "{\"type\":\"cyclic\",\"cpu\":%d,\"prio\":%d,\"interval_us\":%u,"
			      "\"count\":%llu,\"thread_ns\":[%llu,%llu,%llu],"
			      "\"irq_ns\":[%llu,%llu,%llu],\"overflows\":[%llu,%llu],"
			      "\"missed\":%llu",
			      ct->cpu, r->params.prio, r->params.interval_us,
			      (unsigned long long)th->count,
			      (unsigned long long)(th->count ? th->min_ns : 0),
			      (unsigned long long)cyclic_avg_ns(th),
			      (unsigned long long)th->max_ns,
			      (unsigned long long)(ir->count ? ir->min_ns : 0),
			      (unsigned long long)cyclic_avg_ns(ir),
			      (unsigned long long)ir->max_ns,
			      (unsigned long long)th->overflows,
			      (unsigned long long)ir->overflows,
			      (unsigned long long)ct->missed);
	if (n < 0 || (size_t)n >= size)
		return n;
	if (clock)
		return n + sniprintf(json + n, size - n, ",\"clock\":\"%s\"}", clock);
	return n + sniprintf(json + n, size - n, "}");
}

/* One "cyclic" record per thread, then its histograms; returns failures. */
int cyclic_emit_records(const struct cyclic_result *r)
{
	char json[RECORD_MAX_JSON + 1];
	int bad = 0;

	for (unsigned int i = 0; i < r->nr_threads; i++) {
		int n = cyclic_format_record(json, sizeof(json), r, i, ktest_clock_mode());

		if (n > RECORD_MAX_JSON)
			n = cyclic_format_record(json, sizeof(json), r, i, NULL);
		bad += cyc_emit(json, n);
		bad += cyclic_emit_hist(r, i, false);
		if (!cyclic_is_dl(&r->params))
			bad += cyclic_emit_hist(r, i, true);
	}
	return bad;
}

/*
 * After a breach, as cyclictest -b ends: the measuring threads' ids, the
 * one that crossed the threshold and its latency (ns under icount, us
 * elsewhere, as the T: lines), then a line in irqlab's words; the
 * summary line repeats it.
 */
int cyclic_report_break(const struct cyclic_result *r, const char *what, const char *param)
{
	const struct cyclic_thread *ct = r->break_thread;
	bool in_ns = cyclic_units_ns();
	struct cyc_line l = { .len = 0 };

	if (!ct)
		return 0;
	cyc_add(&l, "# Thread Ids:");
	for (unsigned int i = 0; i < r->nr_threads; i++)
		cyc_add(&l, " %05d", r->threads[i].pid);
	cyc_flush(&l);
	pr_info("# Break thread: %d\n", ct->pid);
	pr_info("# Break value: %llu\n", (unsigned long long)unit(r->break_ns, in_ns));
	pr_err("%s: T:%u (CPU %d) latency %llu ns > %s=%llu: measurement stopped%s\n",
	       what, (unsigned int)(ct - r->threads), ct->cpu, (unsigned long long)r->break_ns,
	       param, (unsigned long long)(r->params.threshold_ns / NSEC_PER_USEC),
	       IS_ENABLED(CONFIG_TRACER_MAX_TRACE) ? ", tracing stopped (tracing_off())" : "");
	record_emitf("{\"type\":\"%s_break\",\"cpu\":%d,\"tid\":%d,\"ns\":%llu,"
		     "\"threshold_ns\":%llu}", what, ct->cpu, ct->pid,
		     (unsigned long long)r->break_ns,
		     (unsigned long long)r->params.threshold_ns);
	run_summary_breach(what, r->break_ns, r->params.threshold_ns);
	return 1;
}

u64 cyclic_missed_total(const struct cyclic_result *r)
{
	u64 n = 0;

	for (unsigned int i = 0; i < r->nr_threads; i++)
		n += r->threads[i].missed;
	return n;
}

/*
 * After the records: a line per thread that missed periods, and the run's
 * worst thread latency and missed periods for the end-of-run summary.
 * A missed period does not fail the run by itself (cyclictest has no
 * such verdict either): the late wakeup that caused it is already a
 * sample, so Max and any cyclic.threshold_us carry it.
 */
void cyclic_report_summary(const struct cyclic_result *r, const char *what)
{
	u64 worst = 0;
	bool any = false;

	for (unsigned int i = 0; i < r->nr_threads; i++) {
		const struct cyclic_thread *ct = &r->threads[i];

		if (ct->thread.count) {
			worst = max(worst, ct->thread.max_ns);
			any = true;
		}
		if (ct->missed)
			pr_warn("%s: T:%u (CPU %d) missed %llu period(s): it woke after its next "
				"expiry had passed, and those expiries were skipped, not measured\n",
				what, i, ct->cpu, (unsigned long long)ct->missed);
	}
	if (any)
		run_summary_latency(what, worst);
	run_summary_missed(what, cyclic_missed_total(r));
}

/* The run=cyclic workload. */
int cyclic_runs;

int cyclic_run(void)
{
	struct cyclic_params p = {
		.interval_us = cyc_interval_us,
		.prio = cyc_prio,
		.hist_us = cyc_hist_us,
		.threshold_ns = (u64)cyc_threshold_us * NSEC_PER_USEC,
	};
	struct cyclic_result *r;
	int failed = 0;
	char cpus[96];

	if (cyc_duration_ms)
		p.loops = max(1U, (unsigned int)((u64)cyc_duration_ms * 1000 / cyc_interval_us));
	else
		p.loops = cyc_loops;
	cpulist_param_mask(&cyc_cpus, &p.cpus);
	if (cpulist_check_online("cyclic", &p.cpus))
		return 1;
	cpulist_format(cpus, sizeof(cpus), &p.cpus);
	pr_info("cyclic: %u thread(s) on CPU(s) %s (T:0 on the first), SCHED_FIFO %d, "
		"interval %u us, %u loops, histogram %u us, clock %s\n",
		cpumask_weight(&p.cpus), cpus, p.prio, p.interval_us, p.loops, p.hist_us,
		ktest_clock_mode());
	if (cyc_threshold_us)
		pr_info("cyclic: break threshold %d us (cyclic.threshold_us)\n", cyc_threshold_us);
	cyclic_runs++;
	r = cyclic_measure(&p, false);
	if (!r) {
		pr_err("cyclic: no memory for %u histograms of %u buckets\n",
		       cpumask_weight(&p.cpus) * 2, p.hist_us);
		return 1;
	}
	cyclic_print(r);
	failed = cyclic_emit_records(r);
	failed += cyclic_report_break(r, "cyclic", "cyclic.threshold_us");
	cyclic_report_summary(r, "cyclic");
	for (unsigned int i = 0; i < r->nr_threads; i++) {
		if (r->threads[i].failed) {
			pr_err("cyclic: cannot start the thread on CPU %d\n", r->threads[i].cpu);
			failed++;
		}
	}
	pr_info("cyclic: done, %d failure(s)\n", failed);
	cyclic_free(r);
	return failed ? 1 : 0;
}
