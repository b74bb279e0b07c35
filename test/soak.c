// SPDX-License-Identifier: GPL-2.0
/*
 * run=soak: everything at once for soak.seconds of guest time (the
 * kernel's clock, ktime_get_ns()), with failslab and fail_page_alloc
 * injecting soak.fail_pct percent failures into the soak's own threads:
 *
 *  - slab stress: kmem_cache_alloc(), kmalloc(), kmem_cache_alloc_bulk()
 *    and free_bulk, and a two-step "pair" whose second step's failure
 *    unwinds the first, on debug caches of its own (consistency checks,
 *    red zones, poison) and the kmalloc caches;
 *  - page stress: alloc_pages() of order 0..2;
 *  - hackbench rounds, their senders failing too (dropped messages);
 *  - cyclic rounds on CPU 0 (the one CPU that never goes offline);
 *  - CPU hotplug churn on every other CPU, SLUB's offline check after
 *    each cpu_down();
 *  - every soak.walk_s seconds, validate_slab_cache() on every cache.
 *
 * Every caller counts its calls and its failures per call site; the
 * failures seen must add up with the failures each attribute injected.
 * Afterwards, on a quiet machine, the objects in use in every cache and
 * the free pages must be what they were before; the walks, lockdep and
 * KASAN must have reported nothing, and no record may be lost.  One
 * verdict line and one "soak" record (plus one "soak_site" per call
 * site) say so.
 *
 * soak.mutate= plants a bug to show the soak catches it: "leak" forgets
 * the first object of a pair whose second step failed, "freelist" writes
 * a bad free pointer into a free object of an idle cache before the
 * first walk.
 */
#include <linux/ktest.h>
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/errno.h>
#include <linux/fault-inject.h>
#include <linux/gfp.h>
#include <linux/kasan.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/lockdep.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <linux/record.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/completion.h>
#include <asm/pgtable.h>
#include "cyclic.h"
#include "slub_test.h"
#include "../mm/slab.h"
#include "../mm/slub.h"

static int soak_seconds = 3600;
core_param_range("soak.seconds", soak_seconds, int, 10, 7 * 24 * 3600,
		 "guest seconds the soak runs (kernel time)");
static int soak_walk_s = 60;
core_param_range("soak.walk_s", soak_walk_s, int, 1, 3600,
		 "seconds between two consistency walks of every cache");
static int soak_fail_pct = 1;
core_param_range("soak.fail_pct", soak_fail_pct, int, 0, 100,
		 "percent of the soak threads' slab and page allocations that fail");
static int soak_parts = 0x3f;
core_param_range("soak.parts", soak_parts, int, 1, 0x3f,
		 "which loads run (bits: 1 slab, 2 page, 4 hackbench, 8 cyclic, 16 hotplug, 32 second slab)");
static int soak_mutate;
static const char *const soak_mutations[] = { "none", "leak", "freelist", NULL };
core_param_enum("soak.mutate", soak_mutate, soak_mutations,
		"plant a bug the soak must catch: leak (an error path) or freelist (a bad free pointer)");

enum soak_site {
	SITE_CACHE,		/* kmem_cache_alloc() */
	SITE_KMALLOC,		/* kmalloc() of 8..2048 bytes */
	SITE_BULK,		/* kmem_cache_alloc_bulk() */
	SITE_PAIR1,		/* pair: the object */
	SITE_PAIR2,		/* pair: its buffer; failure frees the object */
	SITE_PAGE,		/* alloc_pages() */
	SITE_HACKBENCH,		/* hackbench's kmalloc() per message */
	NR_SITES
};

static const char *const site_names[NR_SITES] = {
	"cache", "kmalloc", "bulk", "pair1", "pair2", "page", "hackbench",
};
/* The soak.parts bits whose loads call each site. */
static const int site_parts[NR_SITES] = { 0x21, 0x21, 0x21, 0x21, 0x21, 0x2, 0x4 };

struct soak_state {
	bool stop;
	u64 deadline_ns;
	struct kmem_cache *obj_cache, *bulk_cache, *victim;
	atomic_long_t calls[NR_SITES], fails[NR_SITES];
	atomic_long_t frees;
	atomic_long_t corrupt;		/* a pattern changed while we held it */
	atomic_long_t hotplug_cycles, hotplug_errors;
	atomic_long_t cyclic_rounds, cyclic_samples, hb_rounds, hb_errors;
	atomic_long_t leaked;		/* soak.mutate=leak: pair2 failures seen */
	u64 cyclic_max_ns;
	long walks, walk_errors;
	int thread_errors;
};

static struct soak_state soak;

static unsigned long soak_lockdep_reports(void)
{
#ifdef CONFIG_PROVE_LOCKING
	return atomic_read(&lockdep_bug_count);
#else
	return 0;	/* soak_kasan: KASAN instead */
#endif
}

/*
 * A walk runs with the soak's loads parked: Linux 5.15's
 * validate_slab_cache() is not safe against frees going on in the same
 * cache (5.19's "mm/slub: restrict sysfs validation to debug caches and
 * make it safe" closed that): a debug free marks the object free (red
 * zone, poison) under the locks, and only then puts it on the freelist,
 * so a walk in between reports a free object as an overwritten one in
 * use.  The first soak found exactly that.  Each load parks at the top
 * of its loop; the walker waits until all the running ones are parked
 * or gone.
 */
static atomic_t soak_parked, soak_running;
static bool soak_pause;

static void soak_park_point(void)
{
	if (!READ_ONCE(soak_pause))
		return;
	atomic_inc(&soak_parked);
	while (READ_ONCE(soak_pause))
		msleep(5);
	atomic_dec(&soak_parked);
}

static bool soak_over(void)
{
	soak_park_point();
	return READ_ONCE(soak.stop) || ktime_get_ns() >= soak.deadline_ns;
}

static void soak_park_all(void)
{
	WRITE_ONCE(soak_pause, true);
	while (atomic_read(&soak_parked) < atomic_read(&soak_running))
		msleep(5);
}

static void soak_unpark_all(void)
{
	WRITE_ONCE(soak_pause, false);
}

/* ------------------------------------------------------ slab stress */

#define SOAK_SLOTS	128
#define SOAK_BULK	16
#define SOAK_PAIR_BUF	96

struct soak_slot {
	void *p, *buf;		/* buf: a pair's second allocation */
	u32 size;
	u8 kind, pattern;
};

static void soak_fill(void *p, size_t len, u8 pattern)
{
	memset(p, pattern, len);
}

static void soak_check(const void *p, size_t len, u8 pattern)
{
	const u8 *b = p;

	for (size_t i = 0; i < len; i++) {
		if (b[i] != pattern) {
			atomic_long_inc(&soak.corrupt);
			pr_err("soak: object %p byte %zu is %#x, not %#x\n", p, i, b[i], pattern);
			return;
		}
	}
}

static void soak_site_result(enum soak_site site, bool ok)
{
	atomic_long_inc(&soak.calls[site]);
	if (!ok)
		atomic_long_inc(&soak.fails[site]);
}

static void soak_slot_free(struct soak_slot *sl)
{
	if (!sl->p)
		return;
	soak_check(sl->p, sl->size, sl->pattern);
	if (sl->kind == SITE_KMALLOC) {
		kfree(sl->p);
	} else {
		kmem_cache_free(soak.obj_cache, sl->p);
		if (sl->buf) {
			soak_check(sl->buf, SOAK_PAIR_BUF, sl->pattern);
			kfree(sl->buf);
			atomic_long_inc(&soak.frees);
		}
	}
	atomic_long_inc(&soak.frees);
	sl->p = sl->buf = NULL;
}

/* The pair: a failed second step gives the first one back (its error path). */
static void soak_pair(struct soak_slot *sl)
{
	void *obj = kmem_cache_alloc(soak.obj_cache, GFP_KERNEL);

	soak_site_result(SITE_PAIR1, obj);
	if (!obj)
		return;
	sl->buf = kmalloc(SOAK_PAIR_BUF, GFP_KERNEL);
	soak_site_result(SITE_PAIR2, sl->buf);
	if (!sl->buf) {
		/* Both slab threads get here: only the first one leaks. */
		if (soak_mutate == 1 && atomic_long_inc_return(&soak.leaked) == 1) {
			pr_info("soak: mutation: the pair's error path leaks object %p\n", obj);
			return;
		}
		kmem_cache_free(soak.obj_cache, obj);
		atomic_long_inc(&soak.frees);
		return;
	}
	sl->p = obj;
	sl->size = soak.obj_cache->object_size;
	soak_fill(sl->buf, SOAK_PAIR_BUF, sl->pattern);
}

static void soak_bulk(void **b, int *nb, u64 r)
{
	int n = 2 + r % (SOAK_BULK - 1), got;

	if (*nb) {
		for (int i = 0; i < *nb; i++)
			soak_check(b[i], soak.bulk_cache->object_size, (u8)(uintptr_t)b[0]);
		kmem_cache_free_bulk(soak.bulk_cache, *nb, b);
		atomic_long_add(*nb, &soak.frees);
		*nb = 0;
	}
	got = kmem_cache_alloc_bulk(soak.bulk_cache, GFP_KERNEL, n, b);
	soak_site_result(SITE_BULK, got);
	if (got && got != n) {
		/* Linux's contract: all or nothing. */
		pr_err("soak: kmem_cache_alloc_bulk() gave %d of %d\n", got, n);
		atomic_long_inc(&soak.corrupt);
	}
	for (int i = 0; i < got; i++)
		soak_fill(b[i], soak.bulk_cache->object_size, (u8)(uintptr_t)b[0]);
	*nb = got;
}

static int soak_slab_fn(void *arg)
{
	struct soak_slot slots[SOAK_SLOTS] = {};
	void *bulk[SOAK_BULK];
	int nb = 0;
	u64 rnd = 0x50a4ULL + (uintptr_t)arg * 0x9e37;

	current->make_it_fail = 1;
	while (!soak_over()) {
		u64 r = slub_t_rand(&rnd);
		struct soak_slot *sl = &slots[(r >> 4) % SOAK_SLOTS];
		unsigned int kind = r % 8;

		if (kind == 7) {
			soak_bulk(bulk, &nb, r >> 12);
			continue;
		}
		soak_slot_free(sl);
		sl->pattern = (u8)(r >> 24) | 1;
		if (kind < 3) {
			sl->p = kmem_cache_alloc(soak.obj_cache, GFP_KERNEL);
			soak_site_result(SITE_CACHE, sl->p);
			sl->kind = SITE_CACHE;
			sl->size = soak.obj_cache->object_size;
		} else if (kind < 6) {
			sl->size = 8 + (r >> 32) % 2041;
			sl->p = kmalloc(sl->size, GFP_KERNEL);
			soak_site_result(SITE_KMALLOC, sl->p);
			sl->kind = SITE_KMALLOC;
		} else {
			sl->kind = SITE_PAIR1;
			soak_pair(sl);
		}
		if (sl->p)
			soak_fill(sl->p, sl->size, sl->pattern);
		if (need_resched())
			cond_resched();
	}
	current->make_it_fail = 0;
	for (int i = 0; i < SOAK_SLOTS; i++)
		soak_slot_free(&slots[i]);
	if (nb) {
		kmem_cache_free_bulk(soak.bulk_cache, nb, bulk);
		atomic_long_add(nb, &soak.frees);
	}
	return 0;
}

/* ------------------------------------------------------ page stress */

#define SOAK_PAGES	64

static int soak_page_fn(void *arg)
{
	struct { struct page *page; unsigned int order; u8 pattern; } held[SOAK_PAGES] = {};
	u64 rnd = 0x9a6eULL;

	current->make_it_fail = 1;
	while (!soak_over()) {
		u64 r = slub_t_rand(&rnd);
		int i = (r >> 8) % SOAK_PAGES;

		if (held[i].page) {
			soak_check(page_address(held[i].page), 64, held[i].pattern);
			__free_pages(held[i].page, held[i].order);
			atomic_long_inc(&soak.frees);
			held[i].page = NULL;
		}
		held[i].order = r % 3;
		held[i].pattern = (u8)(r >> 16) | 1;
		held[i].page = alloc_pages(GFP_KERNEL, held[i].order);
		soak_site_result(SITE_PAGE, held[i].page);
		if (held[i].page)
			soak_fill(page_address(held[i].page), 64, held[i].pattern);
		cond_resched();
	}
	current->make_it_fail = 0;
	for (int i = 0; i < SOAK_PAGES; i++) {
		if (!held[i].page)
			continue;
		soak_check(page_address(held[i].page), 64, held[i].pattern);
		__free_pages(held[i].page, held[i].order);
		atomic_long_inc(&soak.frees);
	}
	return 0;
}

/* ----------------------------------------------- hackbench, cyclic */

static int soak_hackbench_fn(void *arg)
{
	struct hackbench_params p = {
		.groups = 2, .fds = 4, .loops = 50, .size = 100, .fail_senders = true,
	};

	while (!soak_over()) {
		struct hackbench_result r;

		if (hackbench(&p, &r)) {
			atomic_long_inc(&soak.hb_errors);
			msleep(100);
			continue;
		}
		atomic_long_add(r.sent + r.dropped, &soak.calls[SITE_HACKBENCH]);
		atomic_long_add(r.dropped, &soak.fails[SITE_HACKBENCH]);
		atomic_long_add(r.sent, &soak.frees);
		if (r.errors || r.corrupt || r.leftover || r.unreaped) {
			pr_err("soak: hackbench: %llu out of sequence, %llu corrupted, %llu left, %u unreaped\n",
			       (unsigned long long)r.errors, (unsigned long long)r.corrupt,
			       (unsigned long long)r.leftover, r.unreaped);
			atomic_long_inc(&soak.hb_errors);
		}
		atomic_long_inc(&soak.hb_rounds);
	}
	return 0;
}

/* Latency is only shown: under TCG it says nothing about the kernel. */
static int soak_cyclic_fn(void *arg)
{
	struct cyclic_params p = {
		.interval_us = 1000, .prio = 95, .loops = 250, .hist_us = 1000,
	};

	cpumask_clear(&p.cpus);
	cpumask_set_cpu(0, &p.cpus);
	while (!soak_over()) {
		struct cyclic_result *r = cyclic_measure(&p, false);

		if (!r) {
			msleep(100);
			continue;
		}
		for (unsigned int i = 0; i < r->nr_threads; i++) {
			if (r->threads[i].failed)
				soak.thread_errors++;
			atomic_long_add(r->threads[i].thread.count, &soak.cyclic_samples);
			soak.cyclic_max_ns = max(soak.cyclic_max_ns, r->threads[i].thread.max_ns);
		}
		atomic_long_inc(&soak.cyclic_rounds);
		cyclic_free(r);
	}
	return 0;
}

/* ---------------------------------------------------- CPU hotplug */

static int soak_hotplug_fn(void *arg)
{
	while (!soak_over()) {
		unsigned int cpu;

		for (cpu = 1; cpu < nr_cpu_ids && !soak_over(); cpu++) {
			int down, up;

			if (!cpumask_test_cpu(cpu, cpu_present_mask))
				continue;
			down = cpu_down(cpu);
			if (!down && slub_hotplug_check()) {
				pr_err("soak: CPU %u: caches kept slabs for it while offline\n", cpu);
				atomic_long_inc(&soak.hotplug_errors);
			}
			up = cpu_up(cpu);
			if (down || up || !cpu_online(cpu)) {
				pr_err("soak: CPU %u: cpu_down %d, cpu_up %d\n", cpu, down, up);
				atomic_long_inc(&soak.hotplug_errors);
			}
			atomic_long_inc(&soak.hotplug_cycles);
			msleep(50);
		}
	}
	return 0;
}

/* ------------------------------------------------------------ walks */

#define SOAK_MAX_CACHES	256

/*
 * validate_slab_cache() on every cache.  The list is copied under
 * slab_mutex and walked without it: validate_slab_cache() takes the CPU
 * hotplug lock (flush_all()), which nests outside slab_mutex.  Nothing
 * creates or destroys a cache while the soak runs, so the copy stays
 * good.  Returns the problems found; a list too long to copy is one.
 */
static long soak_walk(void)
{
	static struct kmem_cache *caches[SOAK_MAX_CACHES];
	struct kmem_cache *s;
	unsigned int n = 0;
	long errors = 0;

	mutex_lock(&slab_mutex);
	list_for_each_entry(s, &slab_caches, list) {
		if (n == SOAK_MAX_CACHES) {
			pr_err("soak: more than %d caches: the walk misses some\n", SOAK_MAX_CACHES);
			errors++;
			break;
		}
		caches[n++] = s;
	}
	mutex_unlock(&slab_mutex);
	for (unsigned int i = 0; i < n; i++) {
		long e = validate_slab_cache(caches[i]);

		if (e) {
			pr_err("soak: walk %ld: cache %s: %ld problem(s)\n", soak.walks + 1,
			       caches[i]->name, e);
			errors += e < 0 ? 1 : e;
		}
	}
	soak.walks++;
	return errors;
}

/*
 * soak.mutate=freelist: a free object of the idle victim cache gets a
 * free pointer that points nowhere.  Debug caches free straight to the
 * slab's freelist, so the object is on it; nothing allocates from the
 * victim, so only the walk reads that pointer.
 */
static void *victim_keep;

static void soak_plant_freelist_bug(void)
{
	void *x = kmem_cache_alloc(soak.victim, GFP_KERNEL);

	victim_keep = kmem_cache_alloc(soak.victim, GFP_KERNEL);
	if (!x || !victim_keep) {
		pr_err("soak: mutation: no victim objects\n");
		return;
	}
	kmem_cache_free(soak.victim, x);
	*(unsigned long *)((u8 *)x + soak.victim->offset) = 0x5a5aUL;
	pr_info("soak: mutation: object %p of %s has a bad free pointer\n", x, soak.victim->name);
}

/* ---------------------------------------------------------- baseline */

struct soak_usage {
	unsigned long free_pages;
	unsigned long tables;		/* kernel page tables + vmalloc descriptors */
	int dying;
	long objs;
	unsigned int n;
	struct { struct kmem_cache *s; long active; } caches[SOAK_MAX_CACHES];
};

/*
 * Objects in use in every cache and free pages, on a quiet machine: RCU
 * callbacks run, every cache shrunk (CPU slabs and the KASAN quarantine
 * given back) and the per-CPU page lists drained.
 */
static void soak_usage(struct soak_usage *u)
{
	struct kmem_cache *s;

	/*
	 * Exited threads give their stacks back once they are reaped.  The
	 * cyclic rounds' threads come from ktest_kthread(), which keeps a
	 * reference until ktest_reap_case_threads(): drop those first.
	 */
	ktest_reap_case_threads();
	for (int i = 0; i < 10000 && atomic_read(&nr_dying_tasks); i++)
		msleep(1);
	u->dying = atomic_read(&nr_dying_tasks);
	rcu_barrier();
	u->free_pages = slub_t_free_pages();
	u->tables = kernel_pgtable_pages_after_boot() + vmalloc_descriptor_pages();
	u->objs = 0;
	u->n = 0;
	mutex_lock(&slab_mutex);
	list_for_each_entry(s, &slab_caches, list) {
		struct slabinfo si = {};

		get_slabinfo(s, &si);
		u->objs += si.active_objs;
		if (u->n < SOAK_MAX_CACHES) {
			u->caches[u->n].s = s;
			u->caches[u->n++].active = si.active_objs;
		}
	}
	mutex_unlock(&slab_mutex);
}

/* Name the caches whose count moved, for the report. */
static void soak_usage_diff(const struct soak_usage *a, const struct soak_usage *b)
{
	for (unsigned int i = 0; i < b->n; i++) {
		long before = 0;
		bool found = false;

		for (unsigned int j = 0; j < a->n; j++) {
			if (a->caches[j].s == b->caches[i].s) {
				before = a->caches[j].active;
				found = true;
			}
		}
		if (!found || before != b->caches[i].active)
			pr_err("soak: cache %s: %ld object(s) in use, %ld before%s\n",
			       b->caches[i].s->name, b->caches[i].active, before,
			       found ? "" : " (a new cache)");
	}
}

/*
 * The baseline is taken with the soak's caches already there: creating
 * a cache may populate a page of the per-CPU area for its
 * kmem_cache_cpu, which stays populated after the cache is gone (as in
 * Linux), and is none of the soak's doing.
 */
static int soak_create_caches(void)
{
	soak.obj_cache = kmem_cache_create("soak_obj", 200, 0,
					   SLAB_CONSISTENCY_CHECKS | SLAB_RED_ZONE | SLAB_POISON,
					   NULL);
	soak.bulk_cache = kmem_cache_create("soak_bulk", 72, 0, SLAB_RED_ZONE | SLAB_POISON, NULL);
	soak.victim = kmem_cache_create("soak_victim", 64, 0,
					SLAB_CONSISTENCY_CHECKS | SLAB_RED_ZONE, NULL);
	if (!soak.obj_cache || !soak.bulk_cache || !soak.victim) {
		pr_err("soak: cannot create the soak caches\n");
		return -ENOMEM;
	}
	return 0;
}

/* ------------------------------------------------------------- run */

struct soak_thread {
	const char *name;
	int (*fn)(void *arg);
	struct completion done;
	struct task_struct *task;
};

static int soak_thread_fn(void *arg)
{
	struct soak_thread *st = arg;

	st->fn(st);
	atomic_dec(&soak_running);
	complete(&st->done);
	return 0;
}

static struct soak_thread soak_threads[] = {
	{ "soak/slab0", soak_slab_fn }, { "soak/page", soak_page_fn },
	{ "soak/hackbench", soak_hackbench_fn }, { "soak/cyclic", soak_cyclic_fn },
	{ "soak/hotplug", soak_hotplug_fn }, { "soak/slab1", soak_slab_fn },
};

static void soak_start_threads(void)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(soak_threads); i++) {
		struct soak_thread *st = &soak_threads[i];

		init_completion(&st->done);
		if (!(soak_parts & (1 << i))) {
			complete(&st->done);
			continue;
		}
		atomic_inc(&soak_running);
		st->task = kthread_run(soak_thread_fn, st, "%s", st->name);
		if (!st->task) {
			pr_err("soak: no thread %s\n", st->name);
			atomic_dec(&soak_running);
			soak.thread_errors++;
			complete(&st->done);
		}
	}
}

static void soak_stop_threads(void)
{
	WRITE_ONCE(soak.stop, true);
	for (unsigned int i = 0; i < ARRAY_SIZE(soak_threads); i++)
		wait_for_completion(&soak_threads[i].done);
}

#define SOAK_WARMUP_S	3

/*
 * The loads run for a few seconds, without injected failures, before the
 * baseline is taken.  What a first use allocates for good stays: the
 * vmalloc range's page tables and descriptor pages for the threads'
 * stacks, a worker a work queue starts, the per-CPU pages of the soak's
 * caches.  Without this the first soak of a boot ends about six pages
 * short whatever load runs, and a second soak in the same boot ends at
 * +0: it is first use, not a leak.  The warm-up's counts are dropped.
 */
static void soak_warm_up(void)
{
	soak.deadline_ns = ktime_get_ns() + SOAK_WARMUP_S * NSEC_PER_SEC;
	soak_start_threads();
	while (!soak_over())
		msleep(100);
	soak_stop_threads();
	soak.walk_errors = soak_walk();
	/* The work counts start again; the errors stay. */
	for (int i = 0; i < NR_SITES; i++) {
		atomic_long_set(&soak.calls[i], 0);
		atomic_long_set(&soak.fails[i], 0);
	}
	atomic_long_set(&soak.frees, 0);
	atomic_long_set(&soak.hotplug_cycles, 0);
	atomic_long_set(&soak.cyclic_rounds, 0);
	atomic_long_set(&soak.cyclic_samples, 0);
	atomic_long_set(&soak.hb_rounds, 0);
	soak.cyclic_max_ns = 0;
	soak.walks = 0;
	WRITE_ONCE(soak.stop, false);
}

static struct ktest_fault_saved fs_save __maybe_unused, fpa_save __maybe_unused;
static bool fs_reclaim __maybe_unused, fpa_reclaim __maybe_unused;
static u32 fpa_min_order __maybe_unused;

static void soak_arm(void)
{
#ifdef CONFIG_FAILSLAB
	fs_reclaim = failslab.ignore_gfp_reclaim;
	failslab.ignore_gfp_reclaim = false;
	ktest_fault_arm(&failslab.attr, soak_fail_pct, true, &fs_save);
#endif
#ifdef CONFIG_FAIL_PAGE_ALLOC
	fpa_reclaim = fail_page_alloc.ignore_gfp_reclaim;
	fpa_min_order = fail_page_alloc.min_order;
	fail_page_alloc.ignore_gfp_reclaim = false;
	fail_page_alloc.min_order = 0;
	ktest_fault_arm(&fail_page_alloc.attr, soak_fail_pct, true, &fpa_save);
#endif
}

static void soak_disarm(void)
{
#ifdef CONFIG_FAILSLAB
	ktest_fault_restore(&failslab.attr, &fs_save);
	failslab.ignore_gfp_reclaim = fs_reclaim;
#endif
#ifdef CONFIG_FAIL_PAGE_ALLOC
	ktest_fault_restore(&fail_page_alloc.attr, &fpa_save);
	fail_page_alloc.ignore_gfp_reclaim = fpa_reclaim;
	fail_page_alloc.min_order = fpa_min_order;
#endif
}

static long attr_failures(struct fault_attr *a)
{
	return atomic_long_read(&a->failures);
}

static void soak_emit_sites(void)
{
	for (int i = 0; i < NR_SITES; i++) {
		pr_info("soak: site %-9s %10ld call(s) %8ld failure(s)\n", site_names[i],
			atomic_long_read(&soak.calls[i]), atomic_long_read(&soak.fails[i]));
		record_emitf("{\"type\":\"soak_site\",\"site\":\"%s\",\"calls\":%ld,\"fails\":%ld}",
			     site_names[i], atomic_long_read(&soak.calls[i]),
			     atomic_long_read(&soak.fails[i]));
	}
}

int soak_run(void)
{
	static struct soak_usage before, after;
	long fs0 __maybe_unused = 0, fpa0 __maybe_unused = 0, fs_inj = 0, fpa_inj = 0, slab_fails = 0, ops = 0;
	unsigned long lockdep0 = soak_lockdep_reports();
	unsigned long kasan0 = kasan_report_count();
	unsigned long rec0 = record_failures(), res0 = printk_results_lost();
	unsigned long bugs0 = slab_bug_reports(), lockdep_n, kasan_n, lost, bugs;
	long obj_delta, page_delta, walk_errors = 0, page_fails, tables;
	char why[160] = "";
	u64 start, next_walk;
	int failed = 0;

#if !defined(CONFIG_FAILSLAB) || !defined(CONFIG_FAIL_PAGE_ALLOC) || !defined(CONFIG_SLUB_DEBUG)
	pr_err("soak: needs CONFIG_FAILSLAB, CONFIG_FAIL_PAGE_ALLOC and CONFIG_SLUB_DEBUG (configs/soak_defconfig)\n");
	return 1;
#endif
	if (num_online_cpus() < 2) {
		pr_err("soak: needs SMP >= 2 for the CPU hotplug churn\n");
		return 1;
	}
	memset(&soak, 0, sizeof(soak));
	atomic_set(&soak_running, 0);
	atomic_set(&soak_parked, 0);
	WRITE_ONCE(soak_pause, false);
	pr_info("soak: %d s of guest time, a walk every %d s, %d%% injected failures, mutation %s\n",
		soak_seconds, soak_walk_s, soak_fail_pct, soak_mutations[soak_mutate]);
	if (soak_create_caches())
		return 1;
	soak_warm_up();
	soak_usage(&before);
	if (soak_mutate == 2)
		soak_plant_freelist_bug();

#ifdef CONFIG_FAILSLAB
	fs0 = attr_failures(&failslab.attr);
#endif
#ifdef CONFIG_FAIL_PAGE_ALLOC
	fpa0 = attr_failures(&fail_page_alloc.attr);
#endif
	if (soak_fail_pct)
		soak_arm();
	start = ktime_get_ns();
	soak.deadline_ns = start + (u64)soak_seconds * NSEC_PER_SEC;
	soak_start_threads();

	/* The walks, in this thread, until the deadline. */
	next_walk = start + (u64)soak_walk_s * NSEC_PER_SEC;
	while (!soak_over()) {
		u64 now = ktime_get_ns();

		if (now >= next_walk) {
			long e;

			soak_park_all();
			e = soak_walk();
			soak_unpark_all();

			walk_errors += e;
			pr_info("soak: walk %ld at %llu s: %ld problem(s); %ld hotplug cycle(s) so far\n",
				soak.walks, (unsigned long long)((now - start) / NSEC_PER_SEC), e,
				atomic_long_read(&soak.hotplug_cycles));
			next_walk += (u64)soak_walk_s * NSEC_PER_SEC;
			continue;
		}
		msleep(min_t(u64, 1000, (next_walk - now) / NSEC_PER_MSEC + 1));
	}
	soak_stop_threads();
	if (soak_fail_pct)
		soak_disarm();
#ifdef CONFIG_FAILSLAB
	fs_inj = attr_failures(&failslab.attr) - fs0;
#endif
#ifdef CONFIG_FAIL_PAGE_ALLOC
	fpa_inj = attr_failures(&fail_page_alloc.attr) - fpa0;
#endif
	/* The last walk, with everything stopped; the warm-up's counts too. */
	walk_errors += soak_walk() + soak.walk_errors;
	pr_info("soak: %llu s of guest time, walk %ld (final): %ld problem(s) in all walks\n",
		(unsigned long long)((ktime_get_ns() - start) / NSEC_PER_SEC), soak.walks, walk_errors);

	soak_usage(&after);
	obj_delta = after.objs - before.objs;
	/*
	 * The kernel's page tables and the vmalloc descriptor pool only grow
	 * (as Linux's kernel page tables): new stacks landing further up the
	 * vmalloc range take a table for good.  Counted, shown, and not a
	 * leak; every other page must be back.
	 */
	tables = after.tables - before.tables;
	page_delta = (long)before.free_pages - (long)after.free_pages - tables;
	if (obj_delta || page_delta)
		soak_usage_diff(&before, &after);
	/* The soak's own caches must be empty, then go. */
	if (slub_t_active(soak.obj_cache) || slub_t_active(soak.bulk_cache)) {
		pr_err("soak: soak caches still hold %ld + %ld object(s)\n",
		       slub_t_active(soak.obj_cache), slub_t_active(soak.bulk_cache));
		failed++;
		snprintf(why + strlen(why), sizeof(why) - strlen(why), " objects-leaked");
	} else {
		kmem_cache_destroy(soak.obj_cache);
		kmem_cache_destroy(soak.bulk_cache);
	}
	if (soak_mutate != 2) {
		kmem_cache_destroy(soak.victim);
	} else {
		/* The planted bug's cache stays: its objects are not trusted. */
		pr_info("soak: the mutated cache %s is left as it is\n", soak.victim->name);
	}

	if (before.dying || after.dying)
		pr_err("soak: %d thread(s) exited but not freed before, %d after\n",
		       before.dying, after.dying);

	/* The counts must add up: each injected failure reached a caller. */
	for (int i = 0; i < NR_SITES; i++) {
		if (i != SITE_PAGE)
			slab_fails += atomic_long_read(&soak.fails[i]);
		ops += atomic_long_read(&soak.calls[i]);
	}
	ops += atomic_long_read(&soak.frees);
	page_fails = atomic_long_read(&soak.fails[SITE_PAGE]);
	soak_emit_sites();
	if (slab_fails < fs_inj || page_fails > fpa_inj ||
	    slab_fails - fs_inj > fpa_inj - page_fails) {
		pr_err("soak: failures do not add up: slab callers %ld (failslab injected %ld), page callers %ld (fail_page_alloc injected %ld)\n",
		       slab_fails, fs_inj, page_fails, fpa_inj);
		failed++;
		snprintf(why + strlen(why), sizeof(why) - strlen(why), " failure-counts");
	}
	if (soak_fail_pct) {
		for (int i = 0; i < NR_SITES; i++) {
			if ((soak_parts & site_parts[i]) && !atomic_long_read(&soak.fails[i])) {
				pr_err("soak: site %s never failed: its error path was not taken\n",
				       site_names[i]);
				failed++;
				snprintf(why + strlen(why), sizeof(why) - strlen(why), " %s-untested",
					 site_names[i]);
			}
		}
	}

	lockdep_n = soak_lockdep_reports() - lockdep0;
	kasan_n = kasan_report_count() - kasan0;
	lost = record_failures() - rec0 + printk_results_lost() - res0;
	bugs = slab_bug_reports() - bugs0;
	if (obj_delta || page_delta) {
		failed++;
		snprintf(why + strlen(why), sizeof(why) - strlen(why),
			 " %ld-objects %ld-pages", obj_delta, page_delta);
	}
	if (walk_errors || bugs || atomic_long_read(&soak.corrupt)) {
		failed++;
		snprintf(why + strlen(why), sizeof(why) - strlen(why), " corruption");
	}
	if (lockdep_n || kasan_n || lost) {
		failed++;
		snprintf(why + strlen(why), sizeof(why) - strlen(why), " reports");
	}
	if (atomic_long_read(&soak.hotplug_errors) || atomic_long_read(&soak.hb_errors) ||
	    soak.thread_errors || soak.walks < 2 ||
	    ((soak_parts & 0x10) && !atomic_long_read(&soak.hotplug_cycles))) {
		failed++;
		snprintf(why + strlen(why), sizeof(why) - strlen(why), " workload-errors");
	}

	pr_info("soak: loads: hackbench %ld round(s), cyclic %ld round(s) of %ld sample(s), max %llu ns (not asserted)\n",
		atomic_long_read(&soak.hb_rounds), atomic_long_read(&soak.cyclic_rounds),
		atomic_long_read(&soak.cyclic_samples), (unsigned long long)soak.cyclic_max_ns);
	pr_info("soak: %s: %ld ops, %ld+%ld injected, %ld hotplug, %ld walks, %lu+%ld+%ld corrupt, "
		"%lu lockdep, %lu KASAN, %lu lost, objs %+ld pages %+ld (tables %+ld)%s%s\n",
		failed ? "FAIL" : "PASS", ops, fs_inj, fpa_inj,
		atomic_long_read(&soak.hotplug_cycles), soak.walks, bugs, walk_errors,
		atomic_long_read(&soak.corrupt), lockdep_n, kasan_n, lost, obj_delta, page_delta,
		tables,
		failed ? " -" : "", why);
	record_emitf("{\"type\":\"soak\",\"ok\":%d,\"s\":%d,\"ops\":%ld,\"inj_s\":%ld,"
		     "\"inj_p\":%ld,\"hotplug\":%ld,\"walks\":%ld,\"corrupt\":%ld,"
		     "\"lockdep\":%lu,\"kasan\":%lu,\"lost\":%lu,\"objs\":%ld,\"pages\":%ld,"
		     "\"tables\":%ld}",
		     !failed, soak_seconds, ops, fs_inj, fpa_inj,
		     atomic_long_read(&soak.hotplug_cycles), soak.walks,
		     (long)bugs + walk_errors + atomic_long_read(&soak.corrupt), lockdep_n, kasan_n,
		     lost, obj_delta, page_delta, tables);
	return failed ? 1 : 0;
}
