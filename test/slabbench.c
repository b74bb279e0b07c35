// SPDX-License-Identifier: GPL-2.0
/*
 * slabbench: the slab allocator's per-operation costs in TSC cycles, in
 * the spirit of Linux's slab_bulk_test01 (DESIGN 7).
 *
 *	run=slabbench slabbench.loops=<n> slabbench.sizes=<n,n,...>
 *	    slabbench.obj_size=<bytes>
 *
 * Figures, each "cycles per operation" = elapsed TSC cycles / operations:
 *
 *   fastpath   kmem_cache_alloc() + kmem_cache_free() of one object,
 *              slabbench.loops times, on a cache of its own with
 *              obj_size-byte objects, after a warm-up so that the CPU
 *              slab and its freelist are hot: per pair.
 *   bulk       for each n in slabbench.sizes (default 1..512: Linux's
 *              slab_bulk_test01 sizes plus 256 and 512), slabbench.loops
 *              rounds of kmem_cache_alloc_bulk(n) + kmem_cache_free_bulk(n)
 *              on the same cache: per object (cycles / (loops * n)).
 *              Then one more round single-stepped by ktrace: its exact
 *              instructions per object and the share of them that ran
 *              with IRQs off and with preemption off.
 *   slow paths one allocation each, single-stepped (instructions, IRQ-off
 *              and preempt-off share) and timed (cycles), on a cache of
 *              its own: "partial refill" (the CPU slab is used up and a
 *              slab with a free object waits on the partial list), "new
 *              slab" (nothing partial: a slab from the page allocator),
 *              and "flush" (kmem_cache_shrink(): flush_all() of the CPU
 *              slabs, then the shrink).  The post-series flush runs in a
 *              kworker and waits for it: that trace loses the trap flag
 *              and is reported as not traceable; the cycles stay.
 *   kmalloc    kmalloc() + kfree() for every size class from 8 to 8192
 *              bytes.  The size is read through a volatile, so it is not
 *              a compile-time constant and each call goes through
 *              __kmalloc() and the size_index table, as a variable-size
 *              caller's does: per pair.
 *   remote     objects allocated on one CPU and freed on another (the
 *              freeing CPU's cycles only): per object.  Needs two
 *              online CPUs; skipped with a message otherwise.
 *
 * slabbench.live=N instead holds N objects of obj_size bytes live at
 * once (chained through their first word, so no array is needed), then
 * frees them all and shrinks the cache: cycles per allocation and per
 * free, the slab memory at the peak and what is left after the shrink
 * (one "slabbench_live" record).  It fails when an allocation fails, when
 * the chain gives back another count than it took, when the peak holds
 * fewer pages than the objects need, or when more than 1% of the peak's
 * slab pages are still held after the shrink.
 *
 * slabbench.trace_pair=1 instead single-steps one warm fast-path pair
 * with ktrace (linux/ktrace.h) and prints its path: every instruction as
 * function+offset, per-function counts and the total, twice: the
 * kmem_cache_alloc()+kmem_cache_free() pair of the fastpath figure and a
 * kmalloc()+kfree() pair of obj_size bytes.  "Pair" counts the callees'
 * instructions only (the loop's share, in the small calling function, is
 * shown apart); under icount the untraced TSC count of the same call is
 * printed beside it and must be equal.  No other figure is measured then.
 *
 * Interrupts and preemption are left as they are: a timer tick or
 * another task that lands inside a timed loop is part of the figure.
 * Under QEMU icount (SMP=1) the TSC counts instructions, so figures are
 * exact and repeatable; under TCG they are host noise, indicative only;
 * KVM or bare metal gives real cycles.  Every figure names the clock.
 *
 * Output: one human line per figure ("slabbench: fastpath pair: ...")
 * and one record per figure (linux/record.h), type "slabbench".
 * Status: 0 when every figure was measured; 1 when an allocation failed.
 * Out-of-range parameters are command-line errors (caught when parsed).
 */
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/kthread.h>
#include <linux/smp.h>
#include <linux/cpumask.h>
#include <linux/ktest.h>
#include <linux/moduleparam.h>
#include <linux/record.h>
#include <linux/ktrace.h>
#include <linux/trace_irqsoff.h>
#include <asm/processor.h>
#include <asm/tsc.h>
#include "../mm/slab.h"
#include <stdlib.h>
#include <string.h>

#define SLABBENCH_MAX_BULK	1000
#define SLABBENCH_MAX_SIZES	32
#define SLABBENCH_WARMUP	1000
#define SLABBENCH_REMOTE_BATCH	64

#define SLABBENCH_TRACE_MAX	16384
#define SLABBENCH_SHARE_MAX	65536	/* steps stored; more are counted */

static int sb_loops = 10000;
static bool sb_trace_pair;
core_param("slabbench.trace_pair", sb_trace_pair, bool,
	   "single-step one fast-path alloc+free pair and print its path instead");
static int sb_obj_size = 256;
static int sb_live;
core_param_range("slabbench.live", sb_live, int, 0, 100000000,
		 "hold this many objects live at once, then free them all (0: off)");
core_param_range("slabbench.loops", sb_loops, int, 1, 100000000,
		 "timed rounds per figure");
core_param_range("slabbench.obj_size", sb_obj_size, int, 8, 8192,
		 "object size of the fastpath, bulk and remote caches (bytes)");

/* slabbench.sizes: the bulk sizes, comma-separated, each 1..1000. */
static unsigned int sb_sizes[SLABBENCH_MAX_SIZES] = {
	1, 2, 3, 4, 8, 16, 30, 32, 64, 128, 158, 250, 256, 512
};
static unsigned int sb_nr_sizes = 14;

static int sb_sizes_set(const char *val, const struct kernel_param *kp)
{
	unsigned int sizes[SLABBENCH_MAX_SIZES], n = 0;
	const char *p = val;

	if (!val || !*val)
		goto bad;
	for (;;) {
		char *end;
		unsigned long v;

		if (n == SLABBENCH_MAX_SIZES) {
			pr_err("irqlab: parameter '%s': more than %d sizes\n",
			       kp->name, SLABBENCH_MAX_SIZES);
			return -EINVAL;
		}
		if (*p < '0' || *p > '9')
			goto bad;
		v = strtoul(p, &end, 10);
		if (v < 1 || v > SLABBENCH_MAX_BULK) {
			pr_err("irqlab: parameter '%s': bulk size %lu is not in 1..%d\n",
			       kp->name, v, SLABBENCH_MAX_BULK);
			return -EINVAL;
		}
		sizes[n++] = v;
		if (!*end)
			break;
		if (*end != ',')
			goto bad;
		p = end + 1;
	}
	memcpy(sb_sizes, sizes, n * sizeof(sizes[0]));
	sb_nr_sizes = n;
	return 0;
bad:
	pr_err("irqlab: parameter '%s': '%s' is not a comma-separated list of bulk sizes 1..%d\n",
	       kp->name, val ? val : "", SLABBENCH_MAX_BULK);
	return -EINVAL;
}

static int sb_sizes_get(char *buf, size_t size, const struct kernel_param *kp)
{
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < sb_nr_sizes && n < size; i++)
		n += snprintf(buf + n, size - n, "%s%u", i ? "," : "", sb_sizes[i]);
	return n;
}

static const struct kernel_param_ops sb_sizes_ops = {
	.set = sb_sizes_set,
	.get = sb_sizes_get,
	.type = "list of bulk sizes",
};
core_param_cb("slabbench.sizes", &sb_sizes_ops, NULL,
	      "bulk sizes, comma-separated, each 1..1000");

static void *sb_objs[SLABBENCH_MAX_BULK];

/* Keep the compiler from dropping an allocation whose result is unused. */
#define sb_use(p)	asm volatile("" : : "r"(p) : "memory")

/* One figure: a human line and a record; @cycles over @ops operations. */
static void sb_report(const char *name, const char *what, unsigned int size,
		      u64 cycles, u64 ops)
{
	const char *clock = ktest_clock_mode();
	u64 hundredths = ops ? cycles * 100 / ops : 0;
	char json[RECORD_MAX_JSON + 1];
	int n;

	pr_info("slabbench: %s: %llu.%02llu cycles (size %u, %llu ops, %s)\n", what,
		(unsigned long long)(hundredths / 100), (unsigned long long)(hundredths % 100),
		size, (unsigned long long)ops, clock);
	n = snprintf(json, sizeof(json),
		     "{\"type\":\"slabbench\",\"name\":\"%s\",\"size\":%u,"
		     "\"cycles_per_op\":%llu.%02llu,\"loops\":%d,\"ops\":%llu,"
		     "\"clock\":\"%s\",\"icount\":%d}",
		     name, size, (unsigned long long)(hundredths / 100),
		     (unsigned long long)(hundredths % 100), sb_loops,
		     (unsigned long long)ops, clock, !strcmp(clock, "icount"));
	if (n >= (int)sizeof(json) || record_emit(json) < 0)
		pr_warn("slabbench: the record for %s/%u does not fit\n", name, size);
}

static long sb_slab_pages(void)
{
	return atomic_long_read(&slab_nr_pages);
}

/* Every object of the live chain back to @s; how many there were. */
static unsigned long sb_live_free(struct kmem_cache *s, void *head)
{
	unsigned long freed = 0;

	while (head) {
		void *next = *(void **)head;

		kmem_cache_free(s, head);
		head = next;
		if (!(++freed & 0xffff))
			cond_resched();
	}
	return freed;
}

static int sb_live_objects(struct kmem_cache *s)
{
	long base = sb_slab_pages(), peak, left;
	unsigned long n, freed, need;
	void *head = NULL;
	u64 t0, t1, t2;
	int failed = 0;

	t0 = rdtsc_ordered();
	for (n = 0; n < (unsigned long)sb_live; n++) {
		void **p = kmem_cache_alloc(s, GFP_KERNEL);

		if (unlikely(!p))
			break;
		*p = head;		/* the chain lives in the objects themselves */
		head = p;
		if (!((n + 1) & 0xffff))
			cond_resched();
	}
	t1 = rdtsc_ordered();
	peak = sb_slab_pages() - base;
	freed = sb_live_free(s, head);
	t2 = rdtsc_ordered();
	kmem_cache_shrink(s);
	left = sb_slab_pages() - base;
	need = DIV_ROUND_UP(n * s->size, PAGE_SIZE);
	pr_info("slabbench: live: %lu objects of %u bytes (%u with metadata) held, %ld slab pages (%ldK) at the peak, %lu freed, %ld pages left after the shrink\n",
		n, s->object_size, s->size, peak, peak << (PAGE_SHIFT - 10), freed, left);
	if (n < (unsigned long)sb_live) {
		pr_err("slabbench: live: allocation %lu of %d failed\n", n + 1, sb_live);
		failed++;
	}
	if (freed != n) {
		pr_err("slabbench: live: %lu objects allocated, %lu freed\n", n, freed);
		failed++;
	}
	if (peak < 0 || (unsigned long)peak < need) {
		pr_err("slabbench: live: %ld slab pages at the peak, the objects need %lu\n",
		       peak, need);
		failed++;
	}
	if (left > peak / 100) {
		pr_err("slabbench: live: %ld of %ld slab pages still held after freeing and shrinking\n",
		       left, peak);
		failed++;
	}
	if (n)
		sb_report("live_alloc", "live alloc", sb_obj_size, t1 - t0, n);
	if (freed)
		sb_report("live_free", "live free", sb_obj_size, t2 - t1, freed);
	if (record_emitf("{\"type\":\"slabbench_live\",\"objects\":%lu,\"size\":%u,"
			 "\"peak_kb\":%ld,\"freed\":%lu,\"left_pages\":%ld,\"failed\":%d}",
			 n, s->size, peak << (PAGE_SHIFT - 10), freed, left, failed) < 0)
		pr_warn("slabbench: the live record does not fit\n");
	return failed;
}

static int sb_fastpath(struct kmem_cache *s)
{
	u64 t0, t1;

	for (int i = 0; i < SLABBENCH_WARMUP; i++) {
		void *p = kmem_cache_alloc(s, GFP_KERNEL);

		if (!p)
			goto fail;
		kmem_cache_free(s, p);
	}
	t0 = rdtsc_ordered();
	for (int i = 0; i < sb_loops; i++) {
		void *p = kmem_cache_alloc(s, GFP_KERNEL);

		if (unlikely(!p))
			goto fail;
		sb_use(p);
		kmem_cache_free(s, p);
	}
	t1 = rdtsc_ordered();
	sb_report("fastpath", "fastpath pair", sb_obj_size, t1 - t0, sb_loops);
	return 0;
fail:
	pr_err("slabbench: fastpath: kmem_cache_alloc() failed\n");
	return 1;
}

/* What one single-stepped operation cost, exactly. */
struct sb_traced {
	unsigned long insns, irqs_off, preempt_off;
	bool valid;
	bool skipped;		/* not stepped: a latency tracer is recording */
};

/*
 * Single-stepping runs the #DB handler after every instruction, so an
 * IRQ-off or preempt-off section stepped through lasts hundreds of times
 * longer than it does: a latency tracer recording meanwhile would file
 * those inflated windows as the workload's.  The stepped rounds are
 * skipped then (trace=none, or a notrace build, gives them).
 */
static bool sb_latency_tracing(void)
{
#ifdef CONFIG_TRACER_MAX_TRACE
	return latency_tracer_enabled(LAT_IRQSOFF) || latency_tracer_enabled(LAT_PREEMPTOFF);
#else
	return false;
#endif
}

static void sb_share(char *buf, size_t size, unsigned long part, unsigned long total)
{
	unsigned long tenths = total ? (part * 1000 + total / 2) / total : 0;

	snprintf(buf, size, "%lu (%lu.%lu%%)", part, tenths / 10, tenths % 10);
}

/* Single-step op(arg) once; counted even past the buffer. */
static int sb_trace_op(void (*op)(void *), void *arg, struct sb_traced *out)
{
	struct ktrace *kt = ktrace_alloc(SLABBENCH_SHARE_MAX);
	int ret;

	memset(out, 0, sizeof(*out));
	if (sb_latency_tracing()) {
		/* Still do it, untraced: the callers check what it did. */
		out->skipped = true;
		ktrace_free(kt);
		op(arg);
		return 0;
	}
	if (!kt)
		return -ENOMEM;
	ret = ktrace_call(kt, op, arg);
	out->insns = ktrace_total(kt);
	out->irqs_off = kt->irqs_off;
	out->preempt_off = kt->preempt_off;
	out->valid = ret != -EBUSY && !kt->lost;
	ktrace_free(kt);
	return ret == -EBUSY ? ret : 0;
}

/* A figure's traced line and record. */
static void sb_report_traced(const char *name, const char *what, unsigned int size,
			     const struct sb_traced *tr, unsigned long ops, u64 cycles)
{
	char ioff[32], poff[32];

	if (tr->skipped) {
		pr_info("slabbench: %s: %llu cycles (%s), not single-stepped: a latency tracer "
			"is recording and would file the stepped windows (trace=none for the path)\n",
			what, (unsigned long long)cycles, tsc_clock_mode());
		record_emitf("{\"type\":\"slabbench\",\"name\":\"%s\",\"size\":%u,"
			     "\"cycles\":%llu,\"traced\":0,\"clock\":\"%s\"}", name, size,
			     (unsigned long long)cycles, tsc_clock_mode());
		return;
	}
	if (!tr->valid) {
		pr_info("slabbench: %s: %llu cycles (%s), not traceable: the operation slept "
			"or was preempted (trap flag lost)\n", what, (unsigned long long)cycles,
			tsc_clock_mode());
		record_emitf("{\"type\":\"slabbench\",\"name\":\"%s\",\"size\":%u,"
			     "\"cycles\":%llu,\"traced\":0,\"clock\":\"%s\"}", name, size,
			     (unsigned long long)cycles, tsc_clock_mode());
		return;
	}
	sb_share(ioff, sizeof(ioff), tr->irqs_off, tr->insns);
	sb_share(poff, sizeof(poff), tr->preempt_off, tr->insns);
	pr_info("slabbench: %s: %lu instructions traced (%lu.%02lu per object), IRQs off %s, "
		"preemption off %s; %llu cycles untraced (%s)\n", what, tr->insns,
		tr->insns / ops, tr->insns * 100 / ops % 100, ioff, poff,
		(unsigned long long)cycles, tsc_clock_mode());
	record_emitf("{\"type\":\"slabbench\",\"name\":\"%s\",\"size\":%u,\"insns\":%lu,"
		     "\"ops\":%lu,\"irqs_off\":%lu,\"preempt_off\":%lu,\"cycles\":%llu,"
		     "\"traced\":1,\"clock\":\"%s\"}", name, size, tr->insns, ops,
		     tr->irqs_off, tr->preempt_off, (unsigned long long)cycles, tsc_clock_mode());
}

struct sb_bulk_round {
	struct kmem_cache *s;
	unsigned int n;
	bool ok;
};

static noinline void sb_bulk_round(void *arg)
{
	struct sb_bulk_round *r = arg;

	r->ok = kmem_cache_alloc_bulk(r->s, GFP_KERNEL, r->n, sb_objs) == r->n;
	if (r->ok)
		kmem_cache_free_bulk(r->s, r->n, sb_objs);
}

static int sb_bulk(struct kmem_cache *s, unsigned int n)
{
	char what[32];
	u64 t0, t1;

	if (kmem_cache_alloc_bulk(s, GFP_KERNEL, n, sb_objs) != n)
		goto fail;
	kmem_cache_free_bulk(s, n, sb_objs);
	t0 = rdtsc_ordered();
	for (int i = 0; i < sb_loops; i++) {
		if (unlikely(kmem_cache_alloc_bulk(s, GFP_KERNEL, n, sb_objs) != n))
			goto fail;
		kmem_cache_free_bulk(s, n, sb_objs);
	}
	t1 = rdtsc_ordered();
	snprintf(what, sizeof(what), "bulk %u per object", n);
	sb_report("bulk", what, n, t1 - t0, (u64)sb_loops * n);

	/* The same round once more, single-stepped. */
	{
		struct sb_bulk_round r = { .s = s, .n = n };
		struct sb_traced tr;

		if (sb_trace_op(sb_bulk_round, &r, &tr) || !r.ok)
			goto fail;
		snprintf(what, sizeof(what), "bulk %u traced round", n);
		sb_report_traced("bulk_traced", what, n, &tr, n, (t1 - t0) / sb_loops);
	}
	return 0;
fail:
	pr_err("slabbench: bulk %u: kmem_cache_alloc_bulk() failed\n", n);
	return 1;
}

static int sb_kmalloc(unsigned int size)
{
	volatile size_t vsize = size;	/* not a constant: __kmalloc() */
	char what[32];
	u64 t0, t1;

	for (int i = 0; i < SLABBENCH_WARMUP; i++) {
		void *p = kmalloc(vsize, GFP_KERNEL);

		if (!p)
			goto fail;
		kfree(p);
	}
	t0 = rdtsc_ordered();
	for (int i = 0; i < sb_loops; i++) {
		void *p = kmalloc(vsize, GFP_KERNEL);

		if (unlikely(!p))
			goto fail;
		sb_use(p);
		kfree(p);
	}
	t1 = rdtsc_ordered();
	snprintf(what, sizeof(what), "kmalloc-%u pair", size);
	sb_report("kmalloc", what, size, t1 - t0, sb_loops);
	return 0;
fail:
	pr_err("slabbench: kmalloc(%u) failed\n", size);
	return 1;
}

/* One traced operation: an alloc+free pair and nothing else. */
struct sb_pair {
	struct kmem_cache *s;
	volatile size_t size;	/* not a constant: __kmalloc() */
	void *obj;
};

static noinline void sb_cache_pair(void *arg)
{
	struct sb_pair *p = arg;

	p->obj = kmem_cache_alloc(p->s, GFP_KERNEL);
	kmem_cache_free(p->s, p->obj);
}

static noinline void sb_kmalloc_pair(void *arg)
{
	struct sb_pair *p = arg;

	p->obj = kmalloc(p->size, GFP_KERNEL);
	kfree(p->obj);
}

/*
 * Warm up, then trace @op once.  The pair is everything but @caller's own
 * steps (argument loads, the calls, the return): what a loop around the
 * pair would add.
 */
static int sb_trace(const char *name, void (*op)(void *), const char *caller,
		    struct sb_pair *p)
{
	struct ktrace *kt = ktrace_alloc(SLABBENCH_TRACE_MAX);
	unsigned long total, own;
	u64 clock;
	int ret;

	if (!kt) {
		pr_err("slabbench: trace %s: no memory for the trace buffer\n", name);
		return 1;
	}
	for (int i = 0; i < SLABBENCH_WARMUP; i++)
		op(p);
	ret = ktrace_call(kt, op, p);
	if (ret == -EBUSY) {
		pr_err("slabbench: trace %s: another ktrace is running\n", name);
		ktrace_free(kt);
		return 1;
	}
	ktrace_report(kt, name);
	total = ktrace_total(kt);
	own = ktrace_count_fn(kt, caller);
	clock = ktrace_clock(op, p, 8);
	pr_info("slabbench: trace %s: pair %lu instructions (+%lu in %s), whole call %lu "
		"traced, %llu by the %s clock%s\n", name, total - own, own, caller, total,
		(unsigned long long)clock, tsc_clock_mode(), ret ? ", INVALID" : "");
	record_emitf("{\"type\":\"slabbench\",\"name\":\"trace_%s\",\"size\":%u,"
		     "\"pair_insns\":%lu,\"caller_insns\":%lu,\"clock_ticks\":%llu,"
		     "\"valid\":%d,\"clock\":\"%s\"}", name, sb_obj_size, total - own, own,
		     (unsigned long long)clock, !ret, tsc_clock_mode());
	ktrace_free(kt);
	if (!p->obj) {
		pr_err("slabbench: trace %s: the allocation failed\n", name);
		return 1;
	}
	return ret ? 1 : 0;
}

static int sb_trace_pairs(struct kmem_cache *s)
{
	struct sb_pair p = { .s = s, .size = sb_obj_size };
	int failed;

	failed = sb_trace("cache_pair", sb_cache_pair, "sb_cache_pair", &p);
	failed += sb_trace("kmalloc_pair", sb_kmalloc_pair, "sb_kmalloc_pair", &p);
	return failed;
}

/* ------------------------------------------------------- slow paths */

struct sb_one {
	struct kmem_cache *s;
	void *obj;
};

static noinline void sb_one_alloc(void *arg)
{
	struct sb_one *o = arg;

	o->obj = kmem_cache_alloc(o->s, GFP_KERNEL);
}

static noinline void sb_one_shrink(void *arg)
{
	struct sb_one *o = arg;

	kmem_cache_shrink(o->s);
}

/* Single-step op once on its own cache; @cycles were timed on the twin. */
static int sb_slow_one(const char *name, const char *what, void (*op)(void *),
		       struct sb_one *o, u64 cycles)
{
	struct sb_traced tr;

	if (sb_trace_op(op, o, &tr))
		return 1;
	sb_report_traced(name, what, sb_obj_size, &tr, 1, cycles);
	return 0;
}

/*
 * Fill two slabs of a fresh cache one object at a time (the second then
 * is the CPU slab, used up), free one object of the first: it waits on
 * a partial list (c->partial, or the node's without CPU partials).  The
 * next allocation refills from it; the one after that finds nothing
 * partial and takes a new slab.  Each of those is first single-stepped
 * on one such cache, then timed on a second cache set up the same way
 * (so that neither run warms the other's slabs).  Then the flush.
 */
#define SB_SLOW_MAX	2048

static int sb_slow_setup(struct kmem_cache *s, void **objs, unsigned int *nr,
			 struct page **first)
{
	struct page *p0 = NULL, *p1 = NULL;
	unsigned int n = 0, per_slab = 0;

	for (;;) {
		void *o;
		struct page *pg;

		if (n == SB_SLOW_MAX)
			return -E2BIG;
		o = kmem_cache_alloc(s, GFP_KERNEL);
		if (!o)
			return -ENOMEM;
		objs[n++] = o;
		pg = virt_to_head_page(o);
		if (!p0)
			p0 = pg;
		else if (pg != p0 && !p1) {
			p1 = pg;
			per_slab = n - 1;
		} else if (pg != p0 && pg != p1)
			return -EINVAL;		/* a third slab: not in order */
		if (p1 && n == 2 * per_slab)
			break;
	}
	/* objs[0] is in the first (full, unfrozen) slab. */
	kmem_cache_free(s, objs[0]);
	objs[0] = NULL;
	*nr = n;
	*first = p0;
	return 0;
}

static void sb_slow_teardown(struct kmem_cache *s, void **objs, unsigned int nr)
{
	for (unsigned int i = 0; i < nr; i++)
		if (objs[i])
			kmem_cache_free(s, objs[i]);
}

static int sb_slowpaths(void)
{
	static void *objs[2][SB_SLOW_MAX];
	static const char *const names[2] = { "slabbench_slow_t", "slabbench_slow_c" };
	struct kmem_cache *c[2] = { };
	unsigned int nr[2] = { };
	struct page *first[2];
	void *refill[2] = { }, *fresh[2] = { };
	u64 cyc_refill = 0, cyc_new = 0, cyc_flush;
	struct sb_one o;
	int failed = 0, err;

	for (int k = 0; k < 2; k++) {
		/* SLAB_NOLEAKTRACE: never merged (with kmalloc-<size> or each other). */
		c[k] = kmem_cache_create(names[k], sb_obj_size, 0, SLAB_NOLEAKTRACE, NULL);
		if (!c[k]) {
			pr_err("slabbench: slow paths: cannot create a cache\n");
			failed = 1;
			goto out;
		}
		err = sb_slow_setup(c[k], objs[k], &nr[k], &first[k]);
		if (err) {
			pr_err("slabbench: slow paths: setting up two slabs failed (%d)\n", err);
			failed = 1;
			goto out;
		}
	}

	/* Cache 1: timed.  Cache 0: single-stepped. */
	o.s = c[1];
	cyc_refill = ktrace_clock(sb_one_alloc, &o, 1);
	refill[1] = o.obj;
	cyc_new = ktrace_clock(sb_one_alloc, &o, 1);
	fresh[1] = o.obj;

	o.s = c[0];
	failed += sb_slow_one("slow_partial_refill", "slow path: partial refill",
			      sb_one_alloc, &o, cyc_refill);
	refill[0] = o.obj;
	if (!refill[0] || virt_to_head_page(refill[0]) != first[0]) {
		pr_err("slabbench: slow paths: the refill did not come from the partial slab\n");
		failed = 1;
	}
	failed += sb_slow_one("slow_new_slab", "slow path: new slab", sb_one_alloc, &o,
			      cyc_new);
	fresh[0] = o.obj;
	if (!fresh[0] || virt_to_head_page(fresh[0]) == first[0]) {
		pr_err("slabbench: slow paths: the new-slab allocation did not get a new slab\n");
		failed = 1;
	}

	/* Flush: the CPU slab (the new one) and whatever is partial. */
	o.s = c[1];
	cyc_flush = ktrace_clock(sb_one_shrink, &o, 1);
	o.s = c[0];
	failed += sb_slow_one("slow_flush", "slow path: flush (kmem_cache_shrink)",
			      sb_one_shrink, &o, cyc_flush);
out:
	for (int k = 0; k < 2; k++) {
		if (!c[k])
			continue;
		if (refill[k])
			kmem_cache_free(c[k], refill[k]);
		if (fresh[k])
			kmem_cache_free(c[k], fresh[k]);
		sb_slow_teardown(c[k], objs[k], nr[k]);
		kmem_cache_destroy(c[k]);
	}
	return failed;
}

/*
 * Remote free: this thread allocates a batch, the helper on another CPU
 * frees it and times only its frees; the two hand the batch back and
 * forth through @ready/@done (spinning: both CPUs are ours meanwhile).
 */
struct sb_remote {
	struct kmem_cache *s;
	void *objs[SLABBENCH_REMOTE_BATCH];
	unsigned int nr;		/* objects in this batch; 0: stop */
	volatile bool ready, done, exited;
	u64 cycles, freed;
};

static int sb_remote_fn(void *data)
{
	struct sb_remote *r = data;

	for (;;) {
		u64 t0, t1;

		while (!smp_load_acquire(&r->ready))
			cpu_relax();
		r->ready = false;
		if (!r->nr)
			break;
		t0 = rdtsc_ordered();
		for (unsigned int i = 0; i < r->nr; i++)
			kmem_cache_free(r->s, r->objs[i]);
		t1 = rdtsc_ordered();
		r->cycles += t1 - t0;
		r->freed += r->nr;
		smp_store_release(&r->done, true);
	}
	smp_store_release(&r->exited, true);
	return 0;
}

static int sb_remote(struct kmem_cache *s)
{
	static struct sb_remote r;
	int here = smp_processor_id(), there = -1, cpu, ret = 0;
	struct task_struct *p;
	u64 left = sb_loops;

	for_each_online_cpu(cpu)
		if (cpu != here) {
			there = cpu;
			break;
		}
	if (there < 0) {
		pr_info("slabbench: remote free: skipped, needs 2 online CPUs\n");
		return 0;
	}
	memset(&r, 0, sizeof(r));
	r.s = s;
	p = ktest_kthread(sb_remote_fn, &r, "slabbench_free", there, SCHED_NORMAL, 0);
	if (!p) {
		pr_err("slabbench: remote free: cannot start a thread on CPU %d\n", there);
		return 1;
	}
	wake_up_process(p);
	while (left) {
		unsigned int n = min_t(u64, left, SLABBENCH_REMOTE_BATCH);

		for (unsigned int i = 0; i < n; i++) {
			r.objs[i] = kmem_cache_alloc(s, GFP_KERNEL);
			if (!r.objs[i]) {
				pr_err("slabbench: remote free: kmem_cache_alloc() failed\n");
				n = i;
				ret = 1;
				left = n;
				break;
			}
		}
		r.nr = n;
		r.done = false;
		smp_store_release(&r.ready, true);
		if (n) {
			while (!smp_load_acquire(&r.done))
				cpu_relax();
		}
		left -= n;
	}
	if (r.nr) {
		/* Tell the helper to stop. */
		r.nr = 0;
		smp_store_release(&r.ready, true);
	}
	ktest_wait_flag(&r.exited);
	if (!ret) {
		char what[48];

		snprintf(what, sizeof(what), "remote free CPU%d->CPU%d per object", here, there);
		sb_report("remote_free", what, sb_obj_size, r.cycles, r.freed);
	}
	return ret;
}

/* The run=slabbench workload. */
int slabbench_run(void)
{
	static const unsigned int kmalloc_sizes[] = {
		8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096, 8192
	};
	struct kmem_cache *s;
	int failed = 0;

	pr_info("slabbench: %d loops, objects of %d bytes, %u bulk sizes, clock %s, "
		"interrupts left on\n", sb_loops, sb_obj_size, sb_nr_sizes,
		ktest_clock_mode());
	s = kmem_cache_create("slabbench", sb_obj_size, 0, 0, NULL);
	if (!s) {
		pr_err("slabbench: cannot create the cache\n");
		return 1;
	}
	if (sb_trace_pair) {
		failed = sb_trace_pairs(s);
		goto out;
	}
	if (sb_live) {
		failed = sb_live_objects(s);
		goto out;
	}
	failed += sb_fastpath(s);
	for (unsigned int i = 0; i < sb_nr_sizes; i++)
		failed += sb_bulk(s, sb_sizes[i]);
	for (unsigned int i = 0; i < ARRAY_SIZE(kmalloc_sizes); i++)
		failed += sb_kmalloc(kmalloc_sizes[i]);
	failed += sb_slowpaths();
	failed += sb_remote(s);
out:
	kmem_cache_destroy(s);
	pr_info("slabbench: done, %d failure(s)\n", failed);
	return failed ? 1 : 0;
}
