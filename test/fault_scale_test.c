// SPDX-License-Identifier: GPL-2.0
/*
 * fault_scale: many allocations at 1% injected failures (fault_scale.ops
 * in all, 10^6 for make fault-scale), with every failure accounted for at
 * the call site that saw it, and nothing left behind.  Runs on either
 * SLUB port (fault and legacy_fault presets).
 *
 *  - slab_sites: failslab only.  kmem_cache_alloc(), kmalloc(),
 *    kmem_cache_alloc_bulk() and a two-step "pair" whose failed second
 *    step frees the first.  The failures the callers saw equal, exactly,
 *    the failures failslab injected, and every site saw some.
 *  - page_sites: fail_page_alloc only, alloc_pages() of order 0..3; the
 *    same equality.
 *  - slab_refill: fail_page_alloc only, slab allocations that keep
 *    needing new slabs: a failed page allocation is absorbed by SLUB's
 *    retry at the minimum order or reaches the caller as NULL, so the
 *    callers' failures are at most what was injected (and some were).
 *
 * Each case counts the objects in use in its cache and the free pages
 * (every cache shrunk, per-CPU lists drained) before and after: they
 * must be equal.  Only this task is marked (task_filter), so nothing
 * else in the system fails.
 *
 * fault_scale.mutate_leak=1 makes the pair's error path forget its first
 * object, once: slab_sites must then fail on the leak check.
 */
#include <linux/ktest.h>
#include <linux/fault-inject.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include "slub_test.h"
#include "../mm/slab.h"

#if defined(CONFIG_FAIL_PAGE_ALLOC) && defined(CONFIG_FAILSLAB)

static int fs_ops = 30000;
core_param_range("fault_scale.ops", fs_ops, int, 300, 100000000,
		 "allocation calls in all, split over the three cases");
static bool fs_mutate_leak;
core_param("fault_scale.mutate_leak", fs_mutate_leak, bool,
	   "the pair's error path forgets one object (the suite must fail)");

#define FS_PCT		1
#define FS_SLOTS	64
#define FS_BULK		16

struct fs_site {
	const char *name;
	long calls, fails;
};

static struct ktest_fault_saved fs_save, fpa_save;
static bool fs_reclaim, fpa_reclaim;
static u32 fpa_min_order;

static int fsc_init(struct ktest *t)
{
	fs_reclaim = failslab.ignore_gfp_reclaim;
	fpa_reclaim = fail_page_alloc.ignore_gfp_reclaim;
	fpa_min_order = fail_page_alloc.min_order;
	failslab.ignore_gfp_reclaim = false;
	fail_page_alloc.ignore_gfp_reclaim = false;
	fail_page_alloc.min_order = 0;
	return 0;
}

static void fsc_exit(struct ktest *t)
{
	failslab.ignore_gfp_reclaim = fs_reclaim;
	fail_page_alloc.ignore_gfp_reclaim = fpa_reclaim;
	fail_page_alloc.min_order = fpa_min_order;
}

/* Arm @a at 1% for this task only; the other attribute stays as it is. */
static void fsc_arm(struct fault_attr *a, struct ktest_fault_saved *save)
{
	ktest_fault_arm(a, FS_PCT, true, save);
	current->make_it_fail = 1;
}

static void fsc_disarm(struct fault_attr *a, struct ktest_fault_saved *save)
{
	current->make_it_fail = 0;
	ktest_fault_restore(a, save);
}

/* A constructor keeps the test's caches from being merged with others. */
static void fsc_ctor(void *p)
{
}

static void fsc_count(struct fs_site *s, bool ok)
{
	s->calls++;
	if (!ok)
		s->fails++;
}

static long fsc_report(struct ktest *t, struct fs_site *sites, int n, long injected,
		       bool each_fails)
{
	long calls = 0, fails = 0;

	for (int i = 0; i < n; i++) {
		ktest_info(t, "site %-8s %9ld call(s) %7ld failure(s)", sites[i].name,
			   sites[i].calls, sites[i].fails);
		if (each_fails)
			KTEST_EXPECT_GT(t, sites[i].fails, 0);	/* its error path ran */
		calls += sites[i].calls;
		fails += sites[i].fails;
	}
	ktest_info(t, "%ld call(s), %ld failure(s) seen, %ld injected", calls, fails, injected);
	return fails;
}

/* ---------------------------------------------------------- slab sites */

enum { S_CACHE, S_KMALLOC, S_BULK, S_PAIR1, S_PAIR2, NR_S };

struct fs_slot {
	void *p, *buf;
	bool kmalloced;
};

static void fs_slot_free(struct kmem_cache *s, struct fs_slot *sl)
{
	if (!sl->p)
		return;
	if (sl->kmalloced)
		kfree(sl->p);
	else
		kmem_cache_free(s, sl->p);
	kfree(sl->buf);
	sl->p = sl->buf = NULL;
}

static void slab_sites(struct ktest *t)
{
	struct fs_site sites[NR_S] = {
		{ "cache" }, { "kmalloc" }, { "bulk" }, { "pair1" }, { "pair2" },
	};
	struct fs_slot slots[FS_SLOTS] = {};
	struct kmem_cache *s = slub_t_cache(t, "fault_scale", 128, 0, 0, fsc_ctor);
	unsigned long pages0, pages1;
	long f0, fails, leaked = 0;
	void *bulk[FS_BULK];
	u64 rnd = 0x5ca1eULL;
	int ops = fs_ops / 3;

	KTEST_ASSERT_TRUE(t, s != NULL);
	pages0 = slub_t_free_pages();
	f0 = atomic_long_read(&failslab.attr.failures);
	fsc_arm(&failslab.attr, &fs_save);
	for (int i = 0; i < ops; i++) {
		u64 r = slub_t_rand(&rnd);
		struct fs_slot *sl = &slots[(r >> 8) % FS_SLOTS];
		int got, n;

		fs_slot_free(s, sl);
		switch (r % 5) {
		case 0:
			sl->p = kmem_cache_alloc(s, GFP_KERNEL);
			sl->kmalloced = false;
			fsc_count(&sites[S_CACHE], sl->p);
			break;
		case 1:
			sl->p = kmalloc(8 + (r >> 20) % 4089, GFP_KERNEL);
			sl->kmalloced = true;
			fsc_count(&sites[S_KMALLOC], sl->p);
			break;
		case 2:
			n = 1 + (r >> 20) % FS_BULK;
			got = kmem_cache_alloc_bulk(s, GFP_KERNEL, n, bulk);
			fsc_count(&sites[S_BULK], got);
			KTEST_EXPECT_TRUE(t, got == 0 || got == n);
			if (got)
				kmem_cache_free_bulk(s, got, bulk);
			break;
		default:
			sl->p = kmem_cache_alloc(s, GFP_KERNEL);
			sl->kmalloced = false;
			fsc_count(&sites[S_PAIR1], sl->p);
			if (!sl->p)
				break;
			sl->buf = kmalloc(64, GFP_KERNEL);
			fsc_count(&sites[S_PAIR2], sl->buf);
			if (sl->buf)
				break;
			/* The error path: the first step goes back. */
			if (fs_mutate_leak && !leaked++) {
				ktest_info(t, "mutation: the pair's error path leaks %p", sl->p);
				sl->p = NULL;
				break;
			}
			kmem_cache_free(s, sl->p);
			sl->p = NULL;
			break;
		}
	}
	fsc_disarm(&failslab.attr, &fs_save);
	for (int i = 0; i < FS_SLOTS; i++)
		fs_slot_free(s, &slots[i]);
	fails = fsc_report(t, sites, NR_S, atomic_long_read(&failslab.attr.failures) - f0, true);
	KTEST_EXPECT_EQ(t, fails, atomic_long_read(&failslab.attr.failures) - f0);
	KTEST_EXPECT_EQ(t, slub_t_active(s), 0);
	pages1 = slub_t_free_pages();
	KTEST_EXPECT_EQ(t, pages1, pages0);
	if (!slub_t_active(s))
		kmem_cache_destroy(s);
}

/* ---------------------------------------------------------- page sites */

static void page_sites(struct ktest *t)
{
	struct fs_site sites[4] = { { "order0" }, { "order1" }, { "order2" }, { "order3" } };
	struct { struct page *page; unsigned int order; } held[FS_SLOTS] = {};
	unsigned long pages0, pages1;
	long f0, fails;
	u64 rnd = 0x9a6e5ULL;
	int ops = fs_ops / 3;

	pages0 = slub_t_free_pages();
	f0 = atomic_long_read(&fail_page_alloc.attr.failures);
	fsc_arm(&fail_page_alloc.attr, &fpa_save);
	for (int i = 0; i < ops; i++) {
		u64 r = slub_t_rand(&rnd);
		int k = (r >> 8) % FS_SLOTS;

		if (held[k].page)
			__free_pages(held[k].page, held[k].order);
		held[k].order = r % 4;
		held[k].page = alloc_pages(GFP_KERNEL, held[k].order);
		fsc_count(&sites[held[k].order], held[k].page);
	}
	fsc_disarm(&fail_page_alloc.attr, &fpa_save);
	for (int k = 0; k < FS_SLOTS; k++)
		if (held[k].page)
			__free_pages(held[k].page, held[k].order);
	fails = fsc_report(t, sites, 4, atomic_long_read(&fail_page_alloc.attr.failures) - f0, true);
	KTEST_EXPECT_EQ(t, fails, atomic_long_read(&fail_page_alloc.attr.failures) - f0);
	pages1 = slub_t_free_pages();
	KTEST_EXPECT_EQ(t, pages1, pages0);
}

/* --------------------------------------------------------- slab refill */

/*
 * Objects of a slab's worth and more are taken and given back in bursts,
 * and the cache is shrunk between bursts, so allocations keep reaching
 * the page allocator for new slabs.
 */
static void slab_refill(struct ktest *t)
{
	struct fs_site sites[2] = { { "single" }, { "bulk" } };
	struct kmem_cache *s = slub_t_cache(t, "fault_refill", 512, 0, 0, fsc_ctor);
	unsigned long pages0, pages1;
	void *p[FS_SLOTS];
	long f0, injected, fails;
	u64 rnd = 0x7ef111ULL;
	int ops = fs_ops - 2 * (fs_ops / 3), done = 0;

	KTEST_ASSERT_TRUE(t, s != NULL);
	pages0 = slub_t_free_pages();
	f0 = atomic_long_read(&fail_page_alloc.attr.failures);
	while (done < ops) {
		u64 r = slub_t_rand(&rnd);
		int n = 0;

		fsc_arm(&fail_page_alloc.attr, &fpa_save);
		if (r & 1) {
			for (; n < FS_SLOTS && done < ops; done++) {
				p[n] = kmem_cache_alloc(s, GFP_KERNEL);
				fsc_count(&sites[0], p[n]);
				if (p[n])
					n++;
			}
		} else {
			for (int b = 0; b + FS_BULK <= FS_SLOTS && done < ops; b += FS_BULK) {
				int got = kmem_cache_alloc_bulk(s, GFP_KERNEL, FS_BULK, p + n);

				done++;
				fsc_count(&sites[1], got);
				n += got;
			}
		}
		fsc_disarm(&fail_page_alloc.attr, &fpa_save);
		for (int i = 0; i < n; i++)
			kmem_cache_free(s, p[i]);
		kmem_cache_shrink(s);
	}
	injected = atomic_long_read(&fail_page_alloc.attr.failures) - f0;
	fails = fsc_report(t, sites, 2, injected, false);
	/*
	 * allocate_slab() tries the cache's order, then its minimum order:
	 * a caller sees NULL only when both fail, about one refill in 10^4
	 * at 1%.  The failures SLUB absorbed are the rest.
	 */
	ktest_info(t, "%ld injected page failure(s) absorbed by SLUB's retry", injected - fails);
	KTEST_EXPECT_GT(t, injected, 0);
	KTEST_EXPECT_LE(t, fails, injected);
	KTEST_EXPECT_EQ(t, slub_t_active(s), 0);
	pages1 = slub_t_free_pages();
	KTEST_EXPECT_EQ(t, pages1, pages0);
	if (!slub_t_active(s))
		kmem_cache_destroy(s);
}

static struct ktest_case fault_scale_cases[] = {
	KTEST_CASE(slab_sites),
	KTEST_CASE(page_sites),
	KTEST_CASE(slab_refill),
	{}
};

static struct ktest_suite fault_scale_suite = {
	.name = "fault_scale", .cases = fault_scale_cases,
	.init = fsc_init, .exit = fsc_exit,
};
ktest_register_suite(fault_scale_suite);

#endif /* CONFIG_FAIL_PAGE_ALLOC && CONFIG_FAILSLAB */
