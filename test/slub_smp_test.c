// SPDX-License-Identifier: GPL-2.0
/*
 * The slub suite, part two: frees from another CPU, empty slabs going
 * back to the page allocator on shrink and destroy, a stress run on
 * every CPU, and injected allocation failures (failslab).
 *
 * Free-page counts are exact: a case takes its baseline after a warm-up
 * that has already done whatever it will do once (create and destroy the
 * cache, flush, drain), on a pinned CPU so the kmem_cache and name
 * objects come from the same CPU slab both times, and its worker threads
 * exist from before the baseline until after the last count.
 */
#include <linux/ktest.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/gfp.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/smp.h>
#include <linux/kthread.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/cpumask.h>
#include <linux/fault-inject.h>
#include "slub_test.h"

/* -------------------------------------------------------------- crews */

static int crew_thread(void *data)
{
	struct slub_crew_member *m = data;
	struct slub_crew *c = m->crew;
	unsigned long seen = 0;

	atomic_inc(&c->ready);
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		if (smp_load_acquire(&c->gen) == seen) {
			schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);
		seen = READ_ONCE(c->gen);
		c->fn(c->arg, m->idx, m->cpu);
		if (atomic_dec_and_test(&c->left))
			complete(&c->done);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

bool slub_crew_start(struct slub_crew *c, const int *cpus, int n)
{
	int cpu, i = 0;

	memset(c, 0, sizeof(*c));
	init_completion(&c->done);
	if (!cpus) {
		for_each_online_cpu(cpu)
			c->m[i++].cpu = cpu;
		n = i;
	} else {
		for (i = 0; i < n; i++)
			c->m[i].cpu = cpus[i];
	}
	for (i = 0; i < n; i++) {
		struct slub_crew_member *m = &c->m[i];

		m->crew = c;
		m->idx = i;
		m->task = ktest_kthread(crew_thread, m, "slub-crew", m->cpu,
					SCHED_NORMAL, 0);
		if (!m->task) {
			slub_crew_stop(c);
			return false;
		}
		c->n++;
		wake_up_process(m->task);
	}
	while (atomic_read(&c->ready) < c->n)
		msleep(1);
	return true;
}

void slub_crew_run(struct slub_crew *c, void (*fn)(void *arg, int idx, int cpu),
		   void *arg)
{
	c->fn = fn;
	c->arg = arg;
	reinit_completion(&c->done);
	atomic_set(&c->left, c->n);
	smp_store_release(&c->gen, c->gen + 1);
	for (int i = 0; i < c->n; i++)
		wake_up_process(c->m[i].task);
	wait_for_completion(&c->done);
}

void slub_crew_stop(struct slub_crew *c)
{
	for (int i = 0; i < c->n; i++)
		kthread_stop(c->m[i].task);
	c->n = 0;
}

/* --------------------------------------------------------- remote free */

#define REMOTE_ROUNDS	3
#define REMOTE_MAX	512

struct remote_free {
	struct kmem_cache *s;
	int n;
	void *obj[REMOTE_MAX];
	bool published[REMOTE_ROUNDS], freed[REMOTE_ROUNDS];
	int alloc_cpu_seen, free_cpu_seen;
	long nulls, bad_bytes;
};

/*
 * Member 0 (CPU 0) allocates and fills a batch, member 1 (CPU 1) checks
 * and frees it; three rounds, each reusing what the last freed remotely.
 */
static void remote_fn(void *arg, int idx, int cpu)
{
	struct remote_free *rf = arg;
	unsigned int size = rf->s->object_size;

	for (int r = 0; r < REMOTE_ROUNDS; r++) {
		if (idx == 0) {
			if (r)
				ktest_wait_flag(&rf->freed[r - 1]);
			for (int i = 0; i < rf->n; i++) {
				rf->obj[i] = kmem_cache_alloc(rf->s, GFP_KERNEL);
				if (!rf->obj[i]) {
					rf->nulls++;
					continue;
				}
				slub_t_fill(rf->obj[i], size, r * 7919 + i);
			}
			rf->alloc_cpu_seen = raw_smp_processor_id();
			smp_store_release(&rf->published[r], true);
		} else {
			ktest_wait_flag(&rf->published[r]);
			for (int i = 0; i < rf->n; i++) {
				if (!rf->obj[i])
					continue;
				rf->bad_bytes += slub_t_check(rf->obj[i], size,
							      r * 7919 + i);
				kmem_cache_free(rf->s, rf->obj[i]);
				rf->obj[i] = NULL;
			}
			rf->free_cpu_seen = raw_smp_processor_id();
			smp_store_release(&rf->freed[r], true);
		}
	}
}

void slub_remote_free(struct ktest *t)
{
	static struct remote_free rf;
	static struct slub_crew crew;
	static const int cpus[] = { 0, 1 };
	unsigned int objs;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs two CPUs");
	memset(&rf, 0, sizeof(rf));
	rf.s = slub_t_cache(t, "slub-t-remote", 256, 0, SLUB_T_NOMERGE, NULL);
	objs = oo_objects(rf.s->oo);
	rf.n = min_t(int, 3 * objs + objs / 2, REMOTE_MAX);
	KTEST_ASSERT_TRUE(t, slub_crew_start(&crew, cpus, 2));
	slub_crew_run(&crew, remote_fn, &rf);
	slub_crew_stop(&crew);
	KTEST_EXPECT_EQ(t, rf.alloc_cpu_seen, 0);
	KTEST_EXPECT_EQ(t, rf.free_cpu_seen, 1);
	KTEST_EXPECT_EQ(t, rf.nulls, 0);
	KTEST_EXPECT_EQ(t, rf.bad_bytes, 0);
#ifdef CONFIG_SLUB_DEBUG
	KTEST_EXPECT_EQ(t, validate_slab_cache(rf.s), 0);
#endif
	slub_t_expect_empty(t, rf.s, "after remote frees");
	kmem_cache_destroy(rf.s);
}

/* ------------------------------------------------------ page accounting */

#define SHRINK_SLABS	40

/*
 * Empty slabs stay with the cache (CPU slab, partial lists) until
 * kmem_cache_shrink() hands every one back: the free page count then
 * equals the baseline exactly, and with one object kept exactly one
 * slab's pages are missing.
 */
static void slub_shrink_returns_pages_body(struct ktest *t)
{
	static void *p[SHRINK_SLABS * 64];
	struct kmem_cache *s;
	unsigned long f0, f_full, f_freed, f_one, f_end, slab_pages;
	unsigned int objs;
	int n;

	s = slub_t_cache(t, "slub-t-shrink", 512, 0, SLUB_T_NOMERGE, NULL);
	objs = oo_objects(s->oo);
	slab_pages = 1UL << oo_order(s->oo);
	n = SHRINK_SLABS * objs;
	KTEST_ASSERT_TRUE(t, n <= (int)ARRAY_SIZE(p));
	/* Warm-up: a flush and a drain have run once before the baseline. */
	p[0] = kmem_cache_alloc(s, GFP_KERNEL);
	KTEST_ASSERT_TRUE(t, p[0] != NULL);
	kmem_cache_free(s, p[0]);
	kmem_cache_shrink(s);
	slub_t_free_pages();
	f0 = slub_t_free_pages();

	for (int i = 0; i < n; i++) {
		p[i] = kmem_cache_alloc(s, GFP_KERNEL);
		KTEST_ASSERT_TRUE(t, p[i] != NULL);
	}
	f_full = slub_t_free_pages();
	ktest_info(t, "%d objects, %u per slab of %lu pages: %ld pages in use",
		   n, objs, slab_pages, (long)(f0 - f_full));
	KTEST_EXPECT_EQ(t, f0 - f_full, SHRINK_SLABS * slab_pages);
#ifdef CONFIG_SLUB_DEBUG
	KTEST_EXPECT_EQ(t, slub_t_slabs(s), SHRINK_SLABS);
	/* Slabs with objects in use stay: shrink says so. */
	KTEST_EXPECT_EQ(t, kmem_cache_shrink(s), 1);
#endif
	/* Everything but the first object. */
	for (int i = n - 1; i > 0; i--)
		kmem_cache_free(s, p[i]);
	f_freed = slub_t_free_pages();
	ktest_info(t, "before shrink %ld pages still with the cache",
		   (long)(f0 - f_freed));
	KTEST_EXPECT_LE(t, f0 - f_freed, SHRINK_SLABS * slab_pages);
	KTEST_EXPECT_GE(t, f0 - f_freed, slab_pages);
	kmem_cache_shrink(s);
	f_one = slub_t_free_pages();
	KTEST_EXPECT_EQ(t, f0 - f_one, slab_pages);
#ifdef CONFIG_SLUB_DEBUG
	KTEST_EXPECT_EQ(t, slub_t_slabs(s), 1);
	KTEST_EXPECT_EQ(t, slub_t_active(s), 1);
#endif
	kmem_cache_free(s, p[0]);
	slub_t_expect_empty(t, s, "shrink");
	f_end = slub_t_free_pages();
	if (f_end != f0)
		ktest_fail(t, __FILE__, __LINE__,
			   "after free and shrink: %ld pages not back (baseline %lu, now %lu)",
			   (long)(f0 - f_end), f0, f_end);
	kmem_cache_destroy(s);
}

void slub_shrink_returns_pages(struct ktest *t)
{
	slub_t_run_pinned(t, 0, slub_shrink_returns_pages_body);
}

/*
 * kmem_cache_destroy() of a cache whose objects are all free (some on
 * partial slabs, some on the CPU slab) gives every page back, the
 * cache's own structures included, without a report.
 */
static void destroy_cycle(struct ktest *t, bool use)
{
	static void *p[20 * 64];
	struct kmem_cache *s = slub_t_cache(t, "slub-t-destroy", 320, 0,
					    SLUB_T_NOMERGE, NULL);
	int n = min_t(int, 20 * oo_objects(s->oo), ARRAY_SIZE(p));

	if (use) {
		for (int i = 0; i < n; i++) {
			p[i] = kmem_cache_alloc(s, GFP_KERNEL);
			KTEST_ASSERT_TRUE(t, p[i] != NULL);
		}
		for (int i = 0; i < n; i += 2)
			kmem_cache_free(s, p[i]);
		for (int i = 1; i < n; i += 2)
			kmem_cache_free(s, p[i]);
	}
	kmem_cache_destroy(s);
}

static void slub_destroy_returns_pages_body(struct ktest *t)
{
	unsigned long f0, f1;
	u64 mark;

	destroy_cycle(t, true);
	slub_t_free_pages();
	f0 = slub_t_free_pages();
	mark = ktest_log_mark();
	destroy_cycle(t, true);
	f1 = slub_t_free_pages();
	KTEST_EXPECT_FALSE(t, ktest_log_contains(mark, "still has objects"));
	if (f1 != f0)
		ktest_fail(t, __FILE__, __LINE__,
			   "create, use, destroy: %ld pages not back (baseline %lu, now %lu)",
			   (long)(f0 - f1), f0, f1);
	/* An unused cache too. */
	destroy_cycle(t, false);
	KTEST_EXPECT_EQ(t, slub_t_free_pages(), f0);
}

void slub_destroy_returns_pages(struct ktest *t)
{
	slub_t_run_pinned(t, 0, slub_destroy_returns_pages_body);
}

/* ------------------------------------------------------------- stress */

#define STRESS_OPS	30000		/* in all, split over the CPUs */
/*
 * slub_test.stress_ops= lowers it for entries where many vCPUs share few
 * host cores and the pre-series IRQ-off spinning makes TCG crawl.
 */
static unsigned int stress_ops = STRESS_OPS;
core_param_range("slub_test.stress_ops", stress_ops, uint, 100, 1000000,
		 "operations of the slub stress case, split over the CPUs");
#define STRESS_HELD	48
#define STRESS_BULK	24
#define STRESS_MAILBOX	128
/*
 * The budget is a count, not a time: every CPU does its share to the end
 * however slowly the host runs it (the entry's timeout is the only clock).
 * Each CPU does at least STRESS_MIN_OPS, so 64 CPUs still fill and flush
 * their CPU slabs; the warm-up does at most STRESS_WARMUP_OPS per CPU and
 * never more than the measured pass.  CPU 0 of the crew shrinks the caches
 * (flush_all() on every CPU) STRESS_SHRINKS times per pass, at fixed op
 * counts, so the flush runs at any CPU count.
 */
#define STRESS_MIN_OPS		50
#define STRESS_WARMUP_OPS	300
#define STRESS_SHRINKS		4

struct stress {
	struct kmem_cache *s[2];
	unsigned long mailbox[STRESS_MAILBOX];	/* object | cache index */
	int ops;			/* per CPU */
	atomic_long_t allocs, frees, remote, bulk, shrinks, nulls, bad, bad_bulk;
	atomic_long_t done_ops;
};

static u64 obj_seed(void *p)
{
	return (unsigned long)p >> 3;
}

static void *stress_get(struct stress *st, int c)
{
	void *p = kmem_cache_alloc(st->s[c], GFP_KERNEL);

	if (!p) {
		atomic_long_inc(&st->nulls);
		return NULL;
	}
	atomic_long_inc(&st->allocs);
	slub_t_fill(p, st->s[c]->object_size, obj_seed(p));
	return p;
}

static void stress_check(struct stress *st, int c, void *p)
{
	if (slub_t_check(p, st->s[c]->object_size, obj_seed(p)))
		atomic_long_inc(&st->bad);
}

static void stress_put(struct stress *st, int c, void *p)
{
	stress_check(st, c, p);
	kmem_cache_free(st->s[c], p);
	atomic_long_inc(&st->frees);
}

static void stress_bulk(struct stress *st, int c, int n)
{
	void *b[STRESS_BULK];
	int got = kmem_cache_alloc_bulk(st->s[c], GFP_KERNEL, n, b);

	if (got != n) {
		/* All or nothing. */
		if (got)
			atomic_long_inc(&st->bad_bulk);
		atomic_long_inc(&st->nulls);
		return;
	}
	for (int i = 0; i < n; i++)
		slub_t_fill(b[i], st->s[c]->object_size, obj_seed(b[i]));
	for (int i = 0; i < n; i++)
		stress_check(st, c, b[i]);
	if (slub_t_count_dups(b, n, st->s[c]->object_size))
		atomic_long_inc(&st->bad_bulk);
	kmem_cache_free_bulk(st->s[c], n, b);
	atomic_long_add(n, &st->allocs);
	atomic_long_add(n, &st->frees);
	atomic_long_inc(&st->bulk);
}

static int stress_shrink_every(struct stress *st)
{
	return max(st->ops / STRESS_SHRINKS, 1);
}

/* Per CPU: the total split over the CPUs, never below STRESS_MIN_OPS. */
static int stress_ops_per_cpu(int cpus)
{
	return max_t(int, stress_ops / cpus, STRESS_MIN_OPS);
}

static void stress_fn(void *arg, int idx, int cpu)
{
	struct stress *st = arg;
	struct { void *p; int c; } held[STRESS_HELD];
	void *fb[STRESS_HELD];
	u64 rnd = 0x9e3779b97f4a7c15ULL * (idx + 1);
	int i;

	memset(held, 0, sizeof(held));
	for (i = 0; i < st->ops; i++) {
		u64 r = slub_t_rand(&rnd);
		int c = (r >> 8) & 1, slot = (r >> 16) % STRESS_HELD;
		unsigned int op = r % 100;
		unsigned long m;

		/* First, where nothing below can skip it with a continue. */
		if (idx == 0 && (i + 1) % stress_shrink_every(st) == 0 &&
		    atomic_long_read(&st->shrinks) < STRESS_SHRINKS) {
			kmem_cache_shrink(st->s[c]);	/* flush_all on every CPU */
			atomic_long_inc(&st->shrinks);
		}

		if (op < 35) {			/* allocate, or free what is there */
			if (held[slot].p) {
				stress_put(st, held[slot].c, held[slot].p);
				held[slot].p = NULL;
			} else if ((held[slot].p = stress_get(st, c))) {
				held[slot].c = c;
			}
		} else if (op < 55) {		/* hand to whichever CPU takes it */
			if (!held[slot].p)
				continue;
			m = (unsigned long)held[slot].p | held[slot].c;
			if (!cmpxchg(&st->mailbox[(r >> 24) % STRESS_MAILBOX], 0UL, m))
				held[slot].p = NULL;
		} else if (op < 75) {		/* take one (most often remote) */
			m = xchg(&st->mailbox[(r >> 24) % STRESS_MAILBOX], 0UL);
			if (m) {
				stress_put(st, m & 1, (void *)(m & ~1UL));
				atomic_long_inc(&st->remote);
			}
		} else if (op < 90) {		/* bulk allocate and free */
			stress_bulk(st, c, 1 + (r >> 32) % STRESS_BULK);
		} else if (op < 97) {		/* bulk free held objects of one cache */
			int n = 0;

			for (int k = 0; k < STRESS_HELD; k++) {
				if (held[k].p && held[k].c == c) {
					stress_check(st, c, held[k].p);
					fb[n++] = held[k].p;
					held[k].p = NULL;
				}
			}
			/* Linux warns on an empty bulk free: skip it. */
			if (n)
				kmem_cache_free_bulk(st->s[c], n, fb);
			atomic_long_add(n, &st->frees);
		}
	}
	for (int k = 0; k < STRESS_HELD; k++)
		if (held[k].p)
			stress_put(st, held[k].c, held[k].p);
	atomic_long_add(i, &st->done_ops);
}

static void stress_create(struct ktest *t, struct stress *st)
{
	st->s[0] = slub_t_cache(t, "slub-t-stress", 96, 0, SLUB_T_NOMERGE, NULL);
#ifdef CONFIG_SLUB_DEBUG
	st->s[1] = slub_t_cache(t, "slub-t-stress-dbg", 200, 0,
				SLUB_T_DEBUG_FLAGS, NULL);
#else
	st->s[1] = slub_t_cache(t, "slub-t-stress-hw", 200, 0,
				SLAB_HWCACHE_ALIGN | SLUB_T_NOMERGE, NULL);
#endif
}

static void stress_drain_mailbox(struct stress *st)
{
	for (int k = 0; k < STRESS_MAILBOX; k++) {
		unsigned long m = xchg(&st->mailbox[k], 0UL);

		if (m)
			stress_put(st, m & 1, (void *)(m & ~1UL));
	}
}

/*
 * One measured pass.  Returns false when the free-page count moved only
 * because the system made a thread meanwhile: a concurrency-managed pool
 * that finds no idle kworker behind a busy one creates another (16 KiB of
 * stack and a task_struct), which is not the caches' doing.
 */
static bool stress_pass(struct ktest *t, struct stress *st,
			struct slub_crew *crew, bool last)
{
	unsigned long f0, f1, forks;
	u64 mark;

	f0 = slub_t_free_pages();
	forks = READ_ONCE(total_forks);
	mark = ktest_log_mark();
	memset(st, 0, sizeof(*st));
	stress_create(t, st);
	st->ops = stress_ops_per_cpu(crew->n);
	slub_crew_run(crew, stress_fn, st);
	stress_drain_mailbox(st);
	ktest_info(t, "%d CPUs: %ld ops, %ld objects allocated (%ld in bulk calls), %ld remote frees, %ld shrinks",
		   crew->n, atomic_long_read(&st->done_ops), atomic_long_read(&st->allocs),
		   atomic_long_read(&st->bulk), atomic_long_read(&st->remote),
		   atomic_long_read(&st->shrinks));
	KTEST_EXPECT_EQ(t, atomic_long_read(&st->done_ops), (long)st->ops * crew->n);
	KTEST_EXPECT_EQ(t, atomic_long_read(&st->shrinks),
			(long)min(st->ops, STRESS_SHRINKS));
	KTEST_EXPECT_EQ(t, atomic_long_read(&st->allocs), atomic_long_read(&st->frees));
	KTEST_EXPECT_EQ(t, atomic_long_read(&st->nulls), 0);
	KTEST_EXPECT_EQ(t, atomic_long_read(&st->bad), 0);
	KTEST_EXPECT_EQ(t, atomic_long_read(&st->bad_bulk), 0);
	if (crew->n > 1)
		KTEST_EXPECT_GT(t, atomic_long_read(&st->remote), 0);
	for (int c = 0; c < 2; c++) {
#ifdef CONFIG_SLUB_DEBUG
		KTEST_EXPECT_EQ(t, validate_slab_cache(st->s[c]), 0);
#endif
		slub_t_expect_empty(t, st->s[c], "after the stress run");
	}
	KTEST_EXPECT_FALSE(t, slub_t_log_bug(mark, "slub-t-stress", NULL));
	KTEST_EXPECT_FALSE(t, slub_t_log_bug(mark, "slub-t-stress-dbg", NULL));
	kmem_cache_destroy(st->s[0]);
	kmem_cache_destroy(st->s[1]);
	KTEST_EXPECT_FALSE(t, ktest_log_contains(mark, "still has objects"));
	f1 = slub_t_free_pages();
	if (f1 == f0)
		return true;
	if (READ_ONCE(total_forks) != forks && !last) {
		ktest_info(t, "%lu thread(s) created during the pass (%ld pages): measuring again",
			   READ_ONCE(total_forks) - forks, (long)(f0 - f1));
		return false;
	}
	ktest_fail(t, __FILE__, __LINE__,
		   "after destroy: %ld pages not back (baseline %lu, now %lu)",
		   (long)(f0 - f1), f0, f1);
	return true;
}

static void slub_stress_all_cpus_body(struct ktest *t)
{
	static struct stress st;
	static struct slub_crew crew;

	KTEST_ASSERT_TRUE(t, slub_crew_start(&crew, NULL, 0));
	/* Warm-up: the same run, short, so pools and caches settle. */
	memset(&st, 0, sizeof(st));
	stress_create(t, &st);
	st.ops = min(STRESS_WARMUP_OPS, stress_ops_per_cpu(crew.n));
	slub_crew_run(&crew, stress_fn, &st);
	stress_drain_mailbox(&st);
	kmem_cache_destroy(st.s[0]);
	kmem_cache_destroy(st.s[1]);
	slub_t_free_pages();

	for (int pass = 0; pass < 3; pass++)
		if (stress_pass(t, &st, &crew, pass == 2))
			break;
	slub_crew_stop(&crew);
}

void slub_stress_all_cpus(struct ktest *t)
{
	slub_t_run_pinned(t, 0, slub_stress_all_cpus_body);
}

/* ----------------------------------------------------------- failslab */

#ifdef CONFIG_FAILSLAB
static struct {
	unsigned long probability, interval, verbose;
	int times, space;
	bool task_filter, ignore_gfp_reclaim, cache_filter;
} fs_saved;

void slub_t_fault_save(void)
{
	fs_saved.probability = failslab.attr.probability;
	fs_saved.interval = failslab.attr.interval;
	fs_saved.verbose = failslab.attr.verbose;
	fs_saved.times = atomic_read(&failslab.attr.times);
	fs_saved.space = atomic_read(&failslab.attr.space);
	fs_saved.task_filter = failslab.attr.task_filter;
	fs_saved.ignore_gfp_reclaim = failslab.ignore_gfp_reclaim;
	fs_saved.cache_filter = failslab.cache_filter;
}

void slub_t_fault_restore(void)
{
	struct fault_attr *a = &failslab.attr;

	WRITE_ONCE(a->probability, 0);
	a->interval = fs_saved.interval;
	a->verbose = fs_saved.verbose;
	atomic_set(&a->times, fs_saved.times);
	atomic_set(&a->space, fs_saved.space);
	a->task_filter = fs_saved.task_filter;
	failslab.ignore_gfp_reclaim = fs_saved.ignore_gfp_reclaim;
	failslab.cache_filter = fs_saved.cache_filter;
	WRITE_ONCE(a->probability, fs_saved.probability);
}

#define FS_TOTAL	16000	/* allocation calls over all CPUs */
#define FS_HELD		32
#define FS_BULK		16

struct fs_run {
	struct kmem_cache *s;
	int per_cpu;
	atomic_long_t calls, nulls, bulk_zero, bad, bulk_partial;
};

static void fs_free(struct fs_run *fr, void *p, int kind)
{
	if (kind == 1)
		kfree(p);
	else
		kmem_cache_free(fr->s, p);
}

static void fs_fn(void *arg, int idx, int cpu)
{
	struct fs_run *fr = arg;
	struct { void *p; int kind; } held[FS_HELD];
	void *b[FS_BULK];
	u64 rnd = 0xfeedULL + idx * 0x10001;

	memset(held, 0, sizeof(held));
	current->make_it_fail = 1;
	for (int i = 0; i < fr->per_cpu; i++) {
		u64 r = slub_t_rand(&rnd);
		int slot = (r >> 8) % FS_HELD, kind = r % 3;
		void *p = NULL;

		if (held[slot].p) {
			fs_free(fr, held[slot].p, held[slot].kind);
			held[slot].p = NULL;
		}
		atomic_long_inc(&fr->calls);
		if (kind == 0) {
			p = kmem_cache_alloc(fr->s, GFP_ATOMIC);
			if (p && virt_to_head_page(p)->slab_cache != fr->s)
				atomic_long_inc(&fr->bad);
		} else if (kind == 1) {
			size_t size = 1 + (r >> 16) % KMALLOC_MAX_CACHE_SIZE;

			p = kmalloc(size, GFP_NOWAIT);
			if (p && ksize(p) < size)
				atomic_long_inc(&fr->bad);
		} else {
			int n = 1 + (r >> 16) % FS_BULK;
			int got = kmem_cache_alloc_bulk(fr->s, GFP_ATOMIC, n, b);

			if (!got) {
				atomic_long_inc(&fr->bulk_zero);
			} else if (got != n) {
				atomic_long_inc(&fr->bulk_partial);
			} else {
				for (int k = 0; k < n; k++)
					memset(b[k], 0x77, fr->s->object_size);
				kmem_cache_free_bulk(fr->s, n, b);
			}
			continue;
		}
		if (!p) {
			atomic_long_inc(&fr->nulls);
			continue;
		}
		memset(p, 0x66, kind == 1 ? ksize(p) : fr->s->object_size);
		held[slot].p = p;
		held[slot].kind = kind;
	}
	for (int k = 0; k < FS_HELD; k++)
		if (held[k].p)
			fs_free(fr, held[k].p, held[k].kind);
	current->make_it_fail = 0;
}

/*
 * 1% of slab allocations fail (failslab): each caller sees NULL, a bulk
 * allocation returns 0 (never a part), every failure injected is one of
 * those (exactly, when this case armed failslab for its own threads), and
 * nothing leaks: the cache ends empty and every page comes back.  The
 * slub-failslab entry arms failslab for everyone on the command line
 * instead; then the counts are bounds.
 */
static void slub_failslab_one_percent_body(struct ktest *t)
{
	static struct fs_run fr;
	static struct slub_crew crew;
	struct fault_attr *a = &failslab.attr;
	bool boot_armed = fs_saved.probability != 0;
	long failures0, calls0, failed, injected;
	unsigned long f0, f1, forks;

	KTEST_ASSERT_TRUE(t, slub_crew_start(&crew, NULL, 0));
	memset(&fr, 0, sizeof(fr));
	fr.s = slub_t_cache(t, "slub-t-failslab", 104, 0, SLUB_T_NOMERGE, NULL);
	fr.per_cpu = FS_TOTAL / crew.n;
	/* Warm-up without failures, then the baseline. */
	{
		int per_cpu = fr.per_cpu;

		fr.per_cpu = 200;
		slub_crew_run(&crew, fs_fn, &fr);
		fr.per_cpu = per_cpu;
		kmem_cache_shrink(fr.s);
		atomic_long_set(&fr.calls, 0);
		atomic_long_set(&fr.nulls, 0);
		atomic_long_set(&fr.bulk_zero, 0);
		atomic_long_set(&fr.bad, 0);
		atomic_long_set(&fr.bulk_partial, 0);
	}
	slub_t_shrink_kmalloc();
	slub_t_free_pages();
	slub_t_shrink_kmalloc();
	f0 = slub_t_free_pages();
	forks = READ_ONCE(total_forks);
	failures0 = atomic_long_read(&a->failures);
	calls0 = atomic_long_read(&a->calls);
	if (boot_armed) {
		ktest_info(t, "failslab from the command line: interval %lu, probability %lu, times %d",
			   a->interval, a->probability, atomic_read(&a->times));
	} else {
		WRITE_ONCE(a->probability, 0);
		a->interval = 1;
		atomic_set(&a->times, -1);
		atomic_set(&a->space, 0);
		a->verbose = 0;
		a->task_filter = true;
		failslab.cache_filter = false;
		WRITE_ONCE(a->probability, 1);
	}
	slub_crew_run(&crew, fs_fn, &fr);
	if (!boot_armed)
		slub_t_fault_restore();
	injected = atomic_long_read(&a->failures) - failures0;
	failed = atomic_long_read(&fr.nulls) + atomic_long_read(&fr.bulk_zero);
	ktest_info(t, "%d CPUs: %ld allocation calls, %ld NULL, %ld bulk 0, %ld failures injected (%ld failslab calls)",
		   crew.n, atomic_long_read(&fr.calls), atomic_long_read(&fr.nulls),
		   atomic_long_read(&fr.bulk_zero), injected,
		   atomic_long_read(&a->calls) - calls0);
	KTEST_EXPECT_EQ(t, atomic_long_read(&fr.calls), (long)fr.per_cpu * crew.n);
	KTEST_EXPECT_EQ(t, atomic_long_read(&fr.bad), 0);
	KTEST_EXPECT_EQ(t, atomic_long_read(&fr.bulk_partial), 0);
	if (boot_armed) {
		KTEST_EXPECT_GT(t, failed, 0);
		KTEST_EXPECT_LE(t, failed, injected);
	} else {
		/* One failslab decision per call, and every failure seen. */
		KTEST_EXPECT_EQ(t, failed, injected);
		KTEST_EXPECT_EQ(t, atomic_long_read(&a->calls) - calls0,
				atomic_long_read(&fr.calls));
		/* 1% of 16000 is 160 (standard deviation 12.6). */
		KTEST_EXPECT_GT(t, failed, 100);
		KTEST_EXPECT_LT(t, failed, 220);
	}
#ifdef CONFIG_SLUB_DEBUG
	KTEST_EXPECT_EQ(t, validate_slab_cache(fr.s), 0);
#endif
	slub_t_expect_empty(t, fr.s, "after injected failures");
	slub_t_shrink_kmalloc();
	f1 = slub_t_free_pages();
	if (f1 != f0 && READ_ONCE(total_forks) != forks)
		ktest_info(t, "page count not compared: %lu thread(s) created meanwhile",
			   READ_ONCE(total_forks) - forks);
	else if (f1 != f0)
		ktest_fail(t, __FILE__, __LINE__,
			   "after injected failures: %ld pages not back (baseline %lu, now %lu)",
			   (long)(f0 - f1), f0, f1);
	kmem_cache_destroy(fr.s);
	slub_crew_stop(&crew);
}

void slub_failslab_one_percent(struct ktest *t)
{
	slub_t_run_pinned(t, 0, slub_failslab_one_percent_body);
}

#else /* !CONFIG_FAILSLAB */

void slub_t_fault_save(void) { }
void slub_t_fault_restore(void) { }

void slub_failslab_one_percent(struct ktest *t)
{
	ktest_skip(t, "CONFIG_FAILSLAB is off");
}

#endif /* CONFIG_FAILSLAB */

/* ------------------------------------------- bulk: the slab page fails */

#ifdef CONFIG_FAIL_PAGE_ALLOC
/*
 * kmem_cache_alloc_bulk() when ___slab_alloc() cannot get a slab page:
 * all or nothing, the objects already taken go back, and the error path
 * leaves the CPU pin and the cpu_slab lock balanced.  The series' version
 * (CONFIG_SLUB_BUG_BULK_UNLOCK) released the lock a second time: lockdep
 * reports the unbalanced release, RT the unlock of an unowned lock.
 */
static void slub_bulk_page_failure_body(struct ktest *t)
{
	struct fault_attr *a = &fail_page_alloc.attr;
	struct ktest_fault_saved saved;
	u32 saved_min_order = fail_page_alloc.min_order;
	bool saved_ignore = fail_page_alloc.ignore_gfp_reclaim;
	static void *p[64];
	struct kmem_cache *s;
	unsigned int objs;
	int pc, got;

	s = slub_t_cache(t, "slub-t-bulkfail", 1024, 0, SLUB_T_NOMERGE, NULL);
	objs = oo_objects(s->oo);
	KTEST_ASSERT_TRUE(t, objs < ARRAY_SIZE(p) / 2);
	/* One slab's worth fits; the next slab cannot be had. */
	got = kmem_cache_alloc_bulk(s, GFP_ATOMIC, objs, p);
	KTEST_EXPECT_EQ(t, got, objs);
	kmem_cache_free_bulk(s, got, p);
	kmem_cache_shrink(s);

	fail_page_alloc.min_order = 0;
	fail_page_alloc.ignore_gfp_reclaim = true;
	current->make_it_fail = 1;
	ktest_fault_arm(a, 100, true, &saved);

	pc = preempt_count();
	got = kmem_cache_alloc_bulk(s, GFP_ATOMIC, 2 * objs + 1, p);

	ktest_fault_restore(a, &saved);
	current->make_it_fail = 0;
	fail_page_alloc.min_order = saved_min_order;
	fail_page_alloc.ignore_gfp_reclaim = saved_ignore;

	KTEST_EXPECT_EQ(t, got, 0);
	KTEST_EXPECT_EQ(t, preempt_count(), pc);
	KTEST_EXPECT_EQ(t, current->migration_disabled, 0);
	KTEST_EXPECT_FALSE(t, irqs_disabled());
	/* Nothing was kept: the cache is empty again. */
	slub_t_expect_empty(t, s, "after the failed bulk allocation");
	/* And it still works. */
	got = kmem_cache_alloc_bulk(s, GFP_KERNEL, 2 * objs + 1, p);
	KTEST_EXPECT_EQ(t, got, 2 * objs + 1);
	if (got)
		kmem_cache_free_bulk(s, got, p);
	kmem_cache_destroy(s);
}
#endif

void slub_bulk_page_failure(struct ktest *t)
{
#ifndef CONFIG_FAIL_PAGE_ALLOC
	ktest_skip(t, "CONFIG_FAIL_PAGE_ALLOC is off");
#else
	slub_t_run_pinned(t, 0, slub_bulk_page_failure_body);
#endif
}
