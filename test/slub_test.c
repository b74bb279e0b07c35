// SPDX-License-Identifier: GPL-2.0
/*
 * SLUB behaviour (Linux 5.15 semantics): kmalloc size classes, alignment,
 * ksize, zeroing, krealloc; caches with constructors and alignment; bulk
 * allocation and freeing; a destroyed cache that still holds objects.
 * The SMP cases, page accounting, stat items, geometry and probes live in
 * slub_smp_test.c and slub_stats_test.c; debugging in slub_debug_test.c.
 *
 * Private caches are created SLAB_NOLEAKTRACE so they never merge with
 * another cache: their counts are theirs alone.  Cases that reason about
 * which slab an object comes from pin the test thread to one CPU.
 */
#include <linux/ktest.h>
#include <linux/kasan.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/gfp.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/list.h>
#include <linux/printk.h>
#include <linux/cpumask.h>
#include <linux/cpu.h>
#include <stdlib.h>
#include "slub_test.h"

/* --------------------------------------------------------------- helpers */

struct kmem_cache *slub_t_cache(struct ktest *t, const char *name,
				unsigned int size, unsigned int align,
				slab_flags_t flags, void (*ctor)(void *))
{
	struct kmem_cache *s = kmem_cache_create(name, size, align, flags, ctor);

	if (!s) {
		ktest_fail(t, __FILE__, __LINE__, "kmem_cache_create(%s, %u) failed",
			   name, size);
		ktest_abort(t);
	}
	return s;
}

struct pinned_call {
	void (*fn)(struct ktest *t);
	struct ktest sub;
	struct completion done;
};

static int pinned_thread(void *data)
{
	struct pinned_call *pc = data;

	if (__fault_setjmp(&pc->sub.abort_jmp) == 0)
		pc->fn(&pc->sub);
	fault_catch_reset();
	complete(&pc->done);
	return 0;
}

void slub_t_run_pinned(struct ktest *t, int cpu, void (*fn)(struct ktest *t))
{
	static struct pinned_call pc;
	struct task_struct *p;

	pc.fn = fn;
	pc.sub = *t;
	init_completion(&pc.done);
	p = ktest_kthread(pinned_thread, &pc, "slub-pinned", cpu, SCHED_NORMAL, 0);
	KTEST_ASSERT_TRUE(t, p != NULL);
	wake_up_process(p);
	wait_for_completion(&pc.done);
	t->failed |= pc.sub.failed;
	if (pc.sub.skipped)
		ktest_skip(t, "%s", pc.sub.skip_reason);
}

unsigned long slub_t_free_pages(void)
{
	struct kmem_cache *s;

	/*
	 * Every cache gives back its empty slabs (shrink frees them all,
	 * min_partial notwithstanding), kmem_cache and kmem_cache_node
	 * included, so a count taken before and after a case compares
	 * only what the case itself still holds.
	 */
	cpus_read_lock();	/* before slab_mutex, as slub_cpu_dead() nests them */
	mutex_lock(&slab_mutex);
	list_for_each_entry(s, &slab_caches, list) {
		kasan_cache_shrink(s);	/* the quarantine's objects too */
		__kmem_cache_shrink_cpus_locked(s);
	}
	mutex_unlock(&slab_mutex);
	cpus_read_unlock();
	drain_all_pages(NULL);
	drain_all_pages(NULL);
	return nr_free_pages();
}

long slub_t_active(struct kmem_cache *s)
{
#ifdef CONFIG_SLUB_DEBUG
	struct slabinfo si = {};

	kmem_cache_shrink(s);
	get_slabinfo(s, &si);
	return si.active_objs;
#else
	return -1;
#endif
}

long slub_t_slabs(struct kmem_cache *s)
{
#ifdef CONFIG_SLUB_DEBUG
	struct slabinfo si = {};

	get_slabinfo(s, &si);
	return si.num_slabs;
#else
	return -1;
#endif
}

int slub_t_expect_empty(struct ktest *t, struct kmem_cache *s, const char *when)
{
	int bad = 0;
	int ret = kmem_cache_shrink(s);

	if (ret) {
		ktest_fail(t, __FILE__, __LINE__,
			   "%s: %s: kmem_cache_shrink() = %d, expected 0 (no slab left)",
			   when, s->name, ret);
		bad++;
	}
#ifdef CONFIG_SLUB_DEBUG
	{
		struct slabinfo si = {};

		get_slabinfo(s, &si);
		if (si.active_objs || si.num_objs || si.num_slabs ||
		    si.nr_partial || si.cpu_slabs) {
			ktest_fail(t, __FILE__, __LINE__,
				   "%s: %s: %lu active of %lu objects in %lu slabs (%lu partial, %lu CPU), expected none",
				   when, s->name, si.active_objs, si.num_objs,
				   si.num_slabs, si.nr_partial, si.cpu_slabs);
			bad++;
		}
	}
#endif
	return bad;
}

static bool record_matches(u64 mark, const char *a, const char *b, bool ordered)
{
	char buf[256];

	for (u64 seq = mark; seq < printk_next_seq(); seq++) {
		char *pa;

		if (printk_read_record(seq, buf, sizeof(buf), NULL, NULL) < 0)
			continue;
		pa = strstr(buf, a);
		if (!pa)
			continue;
		if (!b || strstr(ordered ? pa + strlen(a) : buf, b))
			return true;
	}
	return false;
}

bool slub_t_log_bug(u64 mark, const char *cache, const char *what)
{
	char head[96], tail[128];

	sniprintf(head, sizeof(head), "BUG %s (", cache);
	if (!what)
		return record_matches(mark, head, NULL, true);
	sniprintf(tail, sizeof(tail), "): %s", what);
	return record_matches(mark, head, tail, true);
}

bool slub_t_log_has2(u64 mark, const char *a, const char *b)
{
	return record_matches(mark, a, b, false);
}

u64 slub_t_rand(u64 *state)
{
	u64 x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *state = x;
}

void slub_t_fill(void *p, size_t len, u64 seed)
{
	u8 *b = p;

	for (size_t i = 0; i < len; i++)
		b[i] = (u8)(seed + i * 0x9d);
}

size_t slub_t_check(const void *p, size_t len, u64 seed)
{
	const u8 *b = p;
	size_t bad = 0;

	for (size_t i = 0; i < len; i++)
		bad += b[i] != (u8)(seed + i * 0x9d);
	return bad;
}

static int cmp_ptr(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/* Duplicates, or neighbours closer than @min_gap bytes, in a sorted copy. */
int slub_t_count_dups(void **p, size_t n, size_t min_gap)
{
	/* Shared scratch: the stress threads call this concurrently. */
	static DEFINE_MUTEX(sorted_lock);
	static unsigned long sorted[1024];
	int bad = 0;

	if (n > ARRAY_SIZE(sorted))
		return -1;
	mutex_lock(&sorted_lock);
	for (size_t i = 0; i < n; i++)
		sorted[i] = (unsigned long)p[i];
	qsort(sorted, n, sizeof(sorted[0]), cmp_ptr);
	for (size_t i = 1; i < n; i++)
		bad += sorted[i] - sorted[i - 1] < min_gap;
	mutex_unlock(&sorted_lock);
	return bad;
}

/* The slab cache @p lives in, or NULL if its page is no slab. */
static struct kmem_cache *obj_cache(const void *p)
{
	struct page *page = virt_to_head_page(p);

	if (!(page->flags & (1UL << PG_slab)))
		return NULL;
	return page->slab_cache;
}

/* kmalloc's size class for @size (Linux 5.15's size_index and shifts). */
static size_t kmalloc_class(size_t size)
{
	if (size > KMALLOC_MAX_CACHE_SIZE)
		return PAGE_SIZE << get_order(size);
	if (size <= KMALLOC_MIN_SIZE)
		return KMALLOC_MIN_SIZE;
	if (size > 64 && size <= 96)
		return 96;
	if (size > 128 && size <= 192)
		return 192;
	return roundup_pow_of_two(size);
}

/* ---------------------------------------------------------- kmalloc */

static const size_t kmalloc_sizes[] = {
	8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096, 8192,
	1, 7, 9, 63, 65, 97, 100, 193, 1000, 4097, 8193, 3 * PAGE_SIZE,
};

#define PER_SIZE	24

/*
 * For each size: PER_SIZE live objects, each aligned (8; power-of-two
 * classes naturally; large ones on a page), ksize() equal to the class,
 * no two closer than the class size, in the right cache, and each keeps
 * a private pattern over its whole ksize() while all are live.
 */
static void kmalloc_size_classes(struct ktest *t)
{
	static void *p[PER_SIZE];

	for (unsigned int i = 0; i < ARRAY_SIZE(kmalloc_sizes); i++) {
		size_t size = kmalloc_sizes[i], class = kmalloc_class(size);
		size_t align = ARCH_KMALLOC_MINALIGN;
		int bad_align = 0, bad_ksize = 0, bad_cache = 0;
		size_t bad_bytes = 0;

		if (is_power_of_2(class))
			align = class > PAGE_SIZE ? PAGE_SIZE : class;
		for (int j = 0; j < PER_SIZE; j++) {
			p[j] = kmalloc(size, GFP_KERNEL);
			if (!p[j]) {
				ktest_fail(t, __FILE__, __LINE__, "kmalloc(%zu) #%d = NULL",
					   size, j);
				while (j--)
					kfree(p[j]);
				ktest_abort(t);
			}
			bad_align += !IS_ALIGNED((unsigned long)p[j], align);
			bad_ksize += ksize(p[j]) != class;
			if (size <= KMALLOC_MAX_CACHE_SIZE) {
				struct kmem_cache *s = obj_cache(p[j]);

				bad_cache += !s || s->object_size != class;
			} else {
				bad_cache += obj_cache(p[j]) != NULL;
			}
			slub_t_fill(p[j], class, size * 131 + j);
		}
		for (int j = 0; j < PER_SIZE; j++)
			bad_bytes += slub_t_check(p[j], class, size * 131 + j);
		if (bad_align || bad_ksize || bad_cache || bad_bytes)
			ktest_fail(t, __FILE__, __LINE__,
				   "kmalloc(%zu) (class %zu, align %zu): %d misaligned, %d wrong ksize (first %zu), %d in the wrong cache, %zu bytes overwritten",
				   size, class, align, bad_align, bad_ksize,
				   ksize(p[0]), bad_cache, bad_bytes);
		KTEST_EXPECT_EQ(t, slub_t_count_dups(p, PER_SIZE, class), 0);
		for (int j = 0; j < PER_SIZE; j++)
			kfree(p[j]);
	}
	/* Constant sizes take the compile-time path (kmalloc_index()). */
	{
		void *a = kmalloc(1, GFP_KERNEL), *b = kmalloc(96, GFP_KERNEL);
		void *c = kmalloc(8192, GFP_KERNEL), *d = kmalloc(8193, GFP_KERNEL);

		KTEST_ASSERT_TRUE(t, a && b && c && d);
		KTEST_EXPECT_EQ(t, ksize(a), 8);
		KTEST_EXPECT_EQ(t, ksize(b), 96);
		KTEST_EXPECT_EQ(t, ksize(c), 8192);
		KTEST_EXPECT_TRUE(t, IS_ALIGNED((unsigned long)c, PAGE_SIZE));
		KTEST_EXPECT_EQ(t, ksize(d), 4 * PAGE_SIZE);
		KTEST_EXPECT_TRUE(t, obj_cache(d) == NULL);
		kfree(a);
		kfree(b);
		kfree(c);
		kfree(d);
	}
}

/*
 * Objects of every size live at once: sorted by address, no object's
 * [p, p + ksize) reaches into the next one, and every pattern survives
 * the writes to all the others.
 */
#define MANY_PER_SIZE	8
#define MANY_TOTAL	(MANY_PER_SIZE * ARRAY_SIZE(kmalloc_sizes))

struct live_obj {
	unsigned long addr;
	size_t len;
};

static int cmp_live(const void *a, const void *b)
{
	const struct live_obj *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void kmalloc_many_live_no_overlap(struct ktest *t)
{
	static void *p[MANY_TOTAL];
	static struct live_obj live[MANY_TOTAL];
	size_t bad_bytes = 0;
	int overlaps = 0, n = 0;

	for (int r = 0; r < MANY_PER_SIZE; r++) {
		for (unsigned int i = 0; i < ARRAY_SIZE(kmalloc_sizes); i++) {
			size_t size = kmalloc_sizes[(i + r) % ARRAY_SIZE(kmalloc_sizes)];

			p[n] = kmalloc(size, GFP_KERNEL);
			if (!p[n])
				break;
			live[n].addr = (unsigned long)p[n];
			live[n].len = ksize(p[n]);
			slub_t_fill(p[n], live[n].len, 0x5eed + n * 7);
			n++;
		}
	}
	KTEST_EXPECT_EQ(t, n, MANY_TOTAL);
	for (int i = 0; i < n; i++)
		bad_bytes += slub_t_check(p[i], live[i].len, 0x5eed + i * 7);
	qsort(live, n, sizeof(live[0]), cmp_live);
	for (int i = 1; i < n; i++)
		overlaps += live[i - 1].addr + live[i - 1].len > live[i].addr;
	KTEST_EXPECT_EQ(t, overlaps, 0);
	KTEST_EXPECT_EQ(t, bad_bytes, 0);
	for (int i = 0; i < n; i++)
		kfree(p[i]);
}

/*
 * kzalloc/kcalloc/kmem_cache_zalloc return zeroed memory even when they
 * hand back the objects that were just freed dirty (on one CPU they do:
 * the freelist is LIFO).
 */
#define ZERO_N	16

static size_t nonzero_bytes(const void *p, size_t len)
{
	const u8 *b = p;
	size_t n = 0;

	for (size_t i = 0; i < len; i++)
		n += b[i] != 0;
	return n;
}

static void kzalloc_kcalloc_zeroed_body(struct ktest *t)
{
	static const size_t sizes[] = { 8, 24, 64, 96, 200, 1000, 4096, 8192, 3 * PAGE_SIZE };
	static void *dirty[ZERO_N], *p[ZERO_N];
	struct kmem_cache *s;
	int reused = 0;

	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		size_t size = sizes[i], bad = 0;

		for (int pass = 0; pass < 2; pass++) {
			for (int j = 0; j < ZERO_N; j++) {
				dirty[j] = kmalloc(size, GFP_KERNEL);
				KTEST_ASSERT_TRUE(t, dirty[j] != NULL);
				memset(dirty[j], 0xa5, ksize(dirty[j]));
			}
			for (int j = ZERO_N - 1; j >= 0; j--)
				kfree(dirty[j]);
			for (int j = 0; j < ZERO_N; j++) {
				p[j] = pass ? kcalloc(size / 8, 8, GFP_KERNEL)
					    : kzalloc(size, GFP_KERNEL);
				KTEST_ASSERT_TRUE(t, p[j] != NULL);
				bad += nonzero_bytes(p[j], size);
				for (int k = 0; k < ZERO_N; k++)
					reused += p[j] == dirty[k];
			}
			for (int j = 0; j < ZERO_N; j++)
				kfree(p[j]);
		}
		if (bad)
			ktest_fail(t, __FILE__, __LINE__,
				   "kzalloc/kcalloc(%zu): %zu non-zero bytes", size, bad);
	}
	/* The objects came back: the zeroing was tested on dirty memory. */
	ktest_info(t, "%d of %zu zeroed objects were just-freed dirty ones", reused,
		   2 * ZERO_N * ARRAY_SIZE(sizes));
	KTEST_EXPECT_GT(t, reused, ZERO_N);

	s = slub_t_cache(t, "slub-t-zalloc", 136, 0, SLUB_T_NOMERGE, NULL);
	for (int j = 0; j < ZERO_N; j++) {
		dirty[j] = kmem_cache_alloc(s, GFP_KERNEL);
		KTEST_ASSERT_TRUE(t, dirty[j] != NULL);
		memset(dirty[j], 0x3c, 136);
	}
	for (int j = ZERO_N - 1; j >= 0; j--)
		kmem_cache_free(s, dirty[j]);
	for (int j = 0; j < ZERO_N; j++) {
		p[j] = kmem_cache_zalloc(s, GFP_KERNEL);
		KTEST_ASSERT_TRUE(t, p[j] != NULL);
		KTEST_EXPECT_EQ(t, nonzero_bytes(p[j], 136), 0);
	}
	for (int j = 0; j < ZERO_N; j++)
		kmem_cache_free(s, p[j]);
	slub_t_expect_empty(t, s, "zalloc");
	kmem_cache_destroy(s);
}

/* kmalloc(0), NULL and ZERO_SIZE_PTR, and the overflow checks. */
static void kmalloc_zero_null_overflow(struct ktest *t)
{
	volatile size_t zero = 0, huge = SIZE_MAX / 2 + 2;
	void *p;

	KTEST_EXPECT_TRUE(t, kmalloc(0, GFP_KERNEL) == ZERO_SIZE_PTR);
	KTEST_EXPECT_TRUE(t, kmalloc(zero, GFP_KERNEL) == ZERO_SIZE_PTR);
	KTEST_EXPECT_TRUE(t, kzalloc(zero, GFP_KERNEL) == ZERO_SIZE_PTR);
	KTEST_EXPECT_TRUE(t, kcalloc(zero, 8, GFP_KERNEL) == ZERO_SIZE_PTR);
	KTEST_EXPECT_EQ(t, ksize(ZERO_SIZE_PTR), 0);
	KTEST_EXPECT_EQ(t, ksize(NULL), 0);
	/* No-ops: neither touches memory (ZERO_SIZE_PTR faults if it did). */
	kfree(NULL);
	kfree(ZERO_SIZE_PTR);
	kfree_sensitive(NULL);
	kfree_sensitive(ZERO_SIZE_PTR);
	kmem_cache_destroy(NULL);
	/* Products that overflow size_t fail before reaching any cache. */
	KTEST_EXPECT_TRUE(t, kcalloc(huge, 2, GFP_KERNEL) == NULL);
	KTEST_EXPECT_TRUE(t, kmalloc_array(2, huge, GFP_KERNEL) == NULL);
	KTEST_EXPECT_TRUE(t, kcalloc(SIZE_MAX, SIZE_MAX, GFP_KERNEL) == NULL);
	/* krealloc() at the edges: NULL is kmalloc, size 0 is kfree. */
	p = krealloc(NULL, 24, GFP_KERNEL);
	KTEST_ASSERT_TRUE(t, p != NULL && p != ZERO_SIZE_PTR);
	KTEST_EXPECT_EQ(t, ksize(p), 32);
	KTEST_EXPECT_TRUE(t, krealloc(p, 0, GFP_KERNEL) == ZERO_SIZE_PTR);
	p = krealloc(ZERO_SIZE_PTR, 40, GFP_KERNEL);
	KTEST_ASSERT_TRUE(t, p != NULL && p != ZERO_SIZE_PTR);
	KTEST_EXPECT_EQ(t, ksize(p), 64);
	kfree(p);
}

/*
 * krealloc keeps the contents: within ksize() it returns the same
 * object, beyond it a new one holding the old bytes; shrinking keeps the
 * object (Linux 5.15 never moves to a smaller one).
 */
static void krealloc_keeps_contents(struct ktest *t)
{
	static const size_t steps[] = { 40, 60, 100, 1000, 3000, 8192, 8193,
					3 * PAGE_SIZE, 5 * PAGE_SIZE, 500, 20, 3 };
	size_t have = steps[0];
	u8 *p = kmalloc(have, GFP_KERNEL);

	KTEST_ASSERT_TRUE(t, p != NULL);
	slub_t_fill(p, have, 77);
	for (unsigned int i = 1; i < ARRAY_SIZE(steps); i++) {
		size_t want = steps[i], old_ks = ksize(p), keep = min(have, want);
		u8 *q = krealloc(p, want, GFP_KERNEL);

		KTEST_ASSERT_TRUE(t, q != NULL);
		if (slub_t_check(q, keep, 77))
			ktest_fail(t, __FILE__, __LINE__,
				   "krealloc %zu -> %zu lost %zu of the first %zu bytes",
				   have, want, slub_t_check(q, keep, 77), keep);
		if (want <= old_ks && q != p)
			ktest_fail(t, __FILE__, __LINE__,
				   "krealloc %zu -> %zu moved the object (ksize %zu)",
				   have, want, old_ks);
		KTEST_EXPECT_GE(t, ksize(q), want);
		p = q;
		if (want > have)
			slub_t_fill(p, want, 77);
		have = want;
	}
	kfree(p);
}

/* ------------------------------------------------------------ caches */

static atomic_t ctor_calls;
#define CTOR_MAGIC	0x1f2e3d4c5b6a7988ULL
#define CTOR_SIZE	200

static void count_ctor(void *obj)
{
	u64 *w = obj;

	atomic_inc(&ctor_calls);
	for (unsigned int i = 0; i < CTOR_SIZE / 8; i++)
		w[i] = CTOR_MAGIC;
}

static int ctor_bad_objects(void **p, int n)
{
	int bad = 0;

	for (int i = 0; i < n; i++) {
		u64 *w = p[i];

		for (unsigned int k = 0; k < CTOR_SIZE / 8; k++)
			if (w[k] != CTOR_MAGIC) {
				bad++;
				break;
			}
	}
	return bad;
}

/*
 * The constructor runs for every object of a slab when the slab is set
 * up, never at allocation: after N allocations from a fresh cache on
 * one CPU it ran slabs * objects-per-slab times, and allocating the
 * freed objects again runs it no more.  The free pointer lives outside
 * the object, so a freed object keeps its constructed state.
 */
static void cache_ctor_once_per_object_body(struct ktest *t)
{
	static void *p[256];
	struct kmem_cache *s;
	unsigned int objs;
	int n, slabs, calls;

	atomic_set(&ctor_calls, 0);
	s = slub_t_cache(t, "slub-t-ctor", CTOR_SIZE, 0, 0, count_ctor);
	objs = oo_objects(s->oo);
	KTEST_ASSERT_TRUE(t, objs > 1 && objs * 5 / 2 <= ARRAY_SIZE(p));
	KTEST_EXPECT_GE(t, s->offset, s->object_size);
	KTEST_EXPECT_EQ(t, atomic_read(&ctor_calls), 0);
	n = objs * 2 + objs / 2;
	slabs = DIV_ROUND_UP(n, objs);
	for (int i = 0; i < n; i++) {
		p[i] = kmem_cache_alloc(s, GFP_KERNEL);
		KTEST_ASSERT_TRUE(t, p[i] != NULL);
	}
	calls = atomic_read(&ctor_calls);
	ktest_info(t, "%d objects, %u per slab: %d constructor calls", n, objs, calls);
	KTEST_EXPECT_EQ(t, calls, slabs * objs);
	KTEST_EXPECT_EQ(t, ctor_bad_objects(p, n), 0);
#ifdef CONFIG_SLUB_DEBUG
	KTEST_EXPECT_EQ(t, slub_t_slabs(s), slabs);
#endif
	/* Freed unmodified, allocated again: same objects, no new calls. */
	for (int i = n - 1; i >= 0; i--)
		kmem_cache_free(s, p[i]);
	for (int i = 0; i < n; i++) {
		p[i] = kmem_cache_alloc(s, GFP_KERNEL);
		KTEST_ASSERT_TRUE(t, p[i] != NULL);
	}
	KTEST_EXPECT_EQ(t, atomic_read(&ctor_calls), calls);
	KTEST_EXPECT_EQ(t, ctor_bad_objects(p, n), 0);
	/* One more slab's worth: exactly one more slab constructed. */
	for (int i = n; i < n + (int)objs; i++) {
		p[i] = kmem_cache_alloc(s, GFP_KERNEL);
		KTEST_ASSERT_TRUE(t, p[i] != NULL);
	}
	KTEST_EXPECT_EQ(t, atomic_read(&ctor_calls),
			DIV_ROUND_UP(n + objs, objs) * objs);
	for (int i = 0; i < n + (int)objs; i++)
		kmem_cache_free(s, p[i]);
	slub_t_expect_empty(t, s, "ctor");
	kmem_cache_destroy(s);
}

/* calculate_alignment() of Linux 5.15, for the cases below. */
static unsigned int ref_alignment(slab_flags_t flags, unsigned int align,
				  unsigned int size)
{
	if (flags & SLAB_HWCACHE_ALIGN) {
		unsigned int ralign = SLUB_T_CACHE_LINE;

		while (size <= ralign / 2)
			ralign /= 2;
		align = max(align, ralign);
	}
	if (align < ARCH_SLAB_MINALIGN)
		align = ARCH_SLAB_MINALIGN;
	return ALIGN(align, sizeof(void *));
}

/*
 * Requested alignment (and SLAB_HWCACHE_ALIGN's cache-line rule) is
 * what s->align says and what every object of three slabs' worth obeys.
 */
static void cache_align_honoured(struct ktest *t)
{
	static const struct { unsigned int size, align; slab_flags_t flags; } c[] = {
		{ 24, 64, 0 }, { 100, 128, 0 }, { 200, 256, 0 }, { 72, 16, 0 },
		{ 8, 0, SLAB_HWCACHE_ALIGN }, { 20, 0, SLAB_HWCACHE_ALIGN },
		{ 40, 0, SLAB_HWCACHE_ALIGN }, { 100, 0, SLAB_HWCACHE_ALIGN },
		{ 24, 128, SLAB_HWCACHE_ALIGN }, { 13, 0, 0 },
	};
	static void *p[512];

	for (unsigned int i = 0; i < ARRAY_SIZE(c); i++) {
		unsigned int want = ref_alignment(c[i].flags, c[i].align, c[i].size);
		struct kmem_cache *s = slub_t_cache(t, "slub-t-align", c[i].size,
						    c[i].align,
						    c[i].flags | SLUB_T_NOMERGE, NULL);
		int n = min_t(int, 3 * oo_objects(s->oo), ARRAY_SIZE(p));
		int misaligned = 0;

		KTEST_EXPECT_EQ(t, s->align, want);
		KTEST_EXPECT_EQ(t, s->size % want, 0);
		KTEST_EXPECT_GE(t, s->size, c[i].size);
		for (int j = 0; j < n; j++) {
			p[j] = kmem_cache_alloc(s, GFP_KERNEL);
			KTEST_ASSERT_TRUE(t, p[j] != NULL);
			misaligned += !IS_ALIGNED((unsigned long)p[j], want);
			memset(p[j], 0xee, c[i].size);
		}
		if (misaligned)
			ktest_fail(t, __FILE__, __LINE__,
				   "size %u align %u flags %#x: %d of %d objects not %u-aligned",
				   c[i].size, c[i].align, c[i].flags, misaligned, n, want);
		KTEST_EXPECT_EQ(t, slub_t_count_dups(p, n, c[i].size), 0);
		for (int j = 0; j < n; j++)
			kmem_cache_free(s, p[j]);
		slub_t_expect_empty(t, s, "align");
		kmem_cache_destroy(s);
	}
}

/* -------------------------------------------------------------- bulk */

#define BULK_MAX	300

static int bad_objects(struct kmem_cache *s, void **p, int n)
{
	int bad = 0;

	for (int i = 0; i < n; i++)
		bad += !p[i] || obj_cache(p[i]) != s ||
		       !IS_ALIGNED((unsigned long)p[i], s->align);
	return bad;
}

/*
 * kmem_cache_alloc_bulk of 1..300: returns the count, every object
 * distinct, in the cache, aligned and writable without disturbing the
 * others; after each kmem_cache_free_bulk nothing is left in use.
 */
static void bulk_alloc_1_to_300(struct ktest *t)
{
	static void *p[BULK_MAX];
	struct kmem_cache *s = slub_t_cache(t, "slub-t-bulk", 64, 0,
					    SLUB_T_NOMERGE, NULL);

	for (int n = 1; n <= BULK_MAX; n++) {
		int got = kmem_cache_alloc_bulk(s, GFP_KERNEL, n, p);
		size_t bytes = 0;

		if (got != n) {
			/* A failed bulk allocation leaves nothing allocated. */
			ktest_fail(t, __FILE__, __LINE__,
				   "kmem_cache_alloc_bulk(%d) = %d", n, got);
			break;
		}
		KTEST_EXPECT_EQ(t, bad_objects(s, p, n), 0);
		KTEST_EXPECT_EQ(t, slub_t_count_dups(p, n, 64), 0);
		for (int i = 0; i < n; i++)
			slub_t_fill(p[i], 64, n * 1000 + i);
		for (int i = 0; i < n; i++)
			bytes += slub_t_check(p[i], 64, n * 1000 + i);
		KTEST_EXPECT_EQ(t, bytes, 0);
#ifdef CONFIG_SLUB_DEBUG
		if (n == 1 || n == 37 || n == 150 || n == BULK_MAX)
			KTEST_EXPECT_EQ(t, slub_t_active(s), n);
#endif
		kmem_cache_free_bulk(s, n, p);
		if (t->failed)
			break;
	}
	slub_t_expect_empty(t, s, "bulk 1..300");
	kmem_cache_destroy(s);
}

static void shuffle(void **p, int n, u64 *rnd)
{
	for (int i = n - 1; i > 0; i--) {
		int j = slub_t_rand(rnd) % (i + 1);
		void *x = p[i];

		p[i] = p[j];
		p[j] = x;
	}
}

static int distinct_slabs(void **p, int n)
{
	static void *pages[1024];

	for (int i = 0; i < n; i++)
		pages[i] = virt_to_head_page(p[i]);
	return n - slub_t_count_dups(pages, n, 1);
}

/*
 * Free bulk over objects from many slabs at once: single allocations,
 * every other one freed (partial slabs), bulk allocations that take from
 * those and from new slabs, then everything shuffled and freed in bulk
 * chunks of mixed sizes.
 */
static void bulk_free_mixed_slabs(struct ktest *t)
{
	static void *p[1024];
	struct kmem_cache *s = slub_t_cache(t, "slub-t-bulkmix", 96, 0,
					    SLUB_T_NOMERGE, NULL);
	unsigned int objs = oo_objects(s->oo);
	int singles = min_t(int, 4 * objs, 400), n = 0, kept = 0;
	u64 rnd = 0x1234567;

	for (int i = 0; i < singles; i++) {
		p[i] = kmem_cache_alloc(s, GFP_KERNEL);
		KTEST_ASSERT_TRUE(t, p[i] != NULL);
	}
	for (int i = 0; i < singles; i++) {
		if (i & 1)
			kmem_cache_free(s, p[i]);
		else
			p[kept++] = p[i];
	}
	n = kept;
	for (int chunk = 1; n + chunk <= (int)ARRAY_SIZE(p) && chunk < 200; chunk = chunk * 3 + 1) {
		KTEST_ASSERT_EQ(t, kmem_cache_alloc_bulk(s, GFP_KERNEL, chunk, p + n), chunk);
		n += chunk;
	}
	KTEST_EXPECT_EQ(t, bad_objects(s, p, n), 0);
	KTEST_EXPECT_EQ(t, slub_t_count_dups(p, n, 96), 0);
	for (int i = 0; i < n; i++)
		slub_t_fill(p[i], 96, i);
	for (int i = 0; i < n; i++)
		KTEST_EXPECT_EQ(t, slub_t_check(p[i], 96, i), 0);
#ifdef CONFIG_SLUB_DEBUG
	KTEST_EXPECT_EQ(t, slub_t_active(s), n);
#endif
	shuffle(p, n, &rnd);
	ktest_info(t, "%d objects over %d slabs freed in bulk", n, distinct_slabs(p, n));
	KTEST_EXPECT_GE(t, distinct_slabs(p, n), 3);
	for (int done = 0, chunk = 1; done < n; chunk = chunk * 2 + 1) {
		int k = min(chunk, n - done);

		kmem_cache_free_bulk(s, k, p + done);
		done += k;
	}
	slub_t_expect_empty(t, s, "mixed bulk free");
	kmem_cache_destroy(s);
}

/*
 * kfree_bulk (kmem_cache_free_bulk with no cache) over kmalloc objects
 * of every size, a page-allocator one, and objects of a private cache,
 * all interleaved: the private cache ends empty and, with every kmalloc
 * cache shrunk, the free page count is what it was.
 */
void slub_t_shrink_kmalloc(void)
{
	for (int i = 0; i <= KMALLOC_SHIFT_HIGH; i++)
		if (kmalloc_caches[KMALLOC_NORMAL][i])
			kmem_cache_shrink(kmalloc_caches[KMALLOC_NORMAL][i]);
}

#define KFREE_BULK_ROUNDS	6

static void kfree_bulk_mixed_body(struct ktest *t)
{
	/* A kmalloc object and a cache object per size and round. */
	static void *p[KFREE_BULK_ROUNDS * 2 * ARRAY_SIZE(kmalloc_sizes)];
	struct kmem_cache *s;
	unsigned long before, after;
	int n = 0;
	u64 rnd = 42;

	s = slub_t_cache(t, "slub-t-kfreebulk", 48, 0, SLUB_T_NOMERGE, NULL);
	/* Twice: the first settles the flush work items' workers. */
	slub_t_shrink_kmalloc();
	slub_t_free_pages();
	slub_t_shrink_kmalloc();
	before = slub_t_free_pages();
	for (int r = 0; r < KFREE_BULK_ROUNDS; r++) {
		for (unsigned int i = 0; i < ARRAY_SIZE(kmalloc_sizes); i++) {
			p[n] = kmalloc(kmalloc_sizes[i], GFP_KERNEL);
			KTEST_ASSERT_TRUE(t, p[n] != NULL);
			n++;
			p[n] = kmem_cache_alloc(s, GFP_KERNEL);
			KTEST_ASSERT_TRUE(t, p[n] != NULL);
			n++;
		}
	}
	shuffle(p, n, &rnd);
	kfree_bulk(n / 2, p);
	kmem_cache_free_bulk(NULL, n - n / 2, p + n / 2);
	slub_t_expect_empty(t, s, "kfree_bulk");
	slub_t_shrink_kmalloc();
	after = slub_t_free_pages();
	if (after != before)
		ktest_fail(t, __FILE__, __LINE__,
			   "kfree_bulk: %ld pages not back (before %lu, after %lu)",
			   (long)(before - after), before, after);
	kmem_cache_destroy(s);
}

/* ------------------------------------------------ destroy with objects */

static bool cache_listed(struct kmem_cache *s)
{
	struct kmem_cache *c;
	bool found = false;

	mutex_lock(&slab_mutex);
	list_for_each_entry(c, &slab_caches, list)
		found |= c == s;
	mutex_unlock(&slab_mutex);
	return found;
}

/*
 * Destroying a cache that still has an object in use reports it (Linux's
 * "kmem_cache_destroy <name>: Slab cache still has objects", with
 * CONFIG_SLUB_DEBUG also the objects remaining) and keeps the cache: it
 * is still listed, still allocates, and the object is intact.  Once the
 * object is freed, the cache goes quietly.
 */
static void destroy_with_objects_reported(struct ktest *t)
{
	struct kmem_cache *s = slub_t_cache(t, "slub-t-leak", 128, 0,
					    SLUB_T_NOMERGE, NULL);
	void *a, *b, *c, *d;
	u64 mark;

	a = kmem_cache_alloc(s, GFP_KERNEL);
	b = kmem_cache_alloc(s, GFP_KERNEL);
	c = kmem_cache_alloc(s, GFP_KERNEL);
	KTEST_ASSERT_TRUE(t, a && b && c);
	slub_t_fill(b, 128, 9);
	kmem_cache_free(s, a);
	kmem_cache_free(s, c);
	mark = ktest_log_mark();
	kmem_cache_destroy(s);
	KTEST_EXPECT_LOG(t, mark, "kmem_cache_destroy slub-t-leak: Slab cache still has objects");
#ifdef CONFIG_SLUB_DEBUG
	KTEST_EXPECT_LOG(t, mark, "Objects remaining in slub-t-leak on __kmem_cache_shutdown()");
	ktest_expect_reports("bug", 1);
#endif
	KTEST_EXPECT_TRUE(t, cache_listed(s));
	KTEST_EXPECT_EQ(t, slub_t_check(b, 128, 9), 0);
	KTEST_EXPECT_TRUE(t, obj_cache(b) == s);
	d = kmem_cache_alloc(s, GFP_KERNEL);
	KTEST_EXPECT_TRUE(t, d != NULL && obj_cache(d) == s && d != b);
#ifdef CONFIG_SLUB_DEBUG
	KTEST_EXPECT_EQ(t, slub_t_active(s), 2);
#endif
	if (d)
		kmem_cache_free(s, d);
	kmem_cache_free(s, b);
	slub_t_expect_empty(t, s, "after the leak");
	/* The failed destroy used up the creator's reference: give it back. */
	mutex_lock(&slab_mutex);
	s->refcount = 1;
	mutex_unlock(&slab_mutex);
	mark = ktest_log_mark();
	kmem_cache_destroy(s);
	KTEST_EXPECT_FALSE(t, ktest_log_contains(mark, "still has objects"));
	KTEST_EXPECT_FALSE(t, cache_listed(s));
}

static void kzalloc_kcalloc_zeroed(struct ktest *t)
{
	slub_t_run_pinned(t, 0, kzalloc_kcalloc_zeroed_body);
}

static void cache_ctor_once_per_object(struct ktest *t)
{
	if (IS_ENABLED(CONFIG_KASAN))
		ktest_skip(t, "KASAN's quarantine keeps freed objects: the slab count is not the model's");
	slub_t_run_pinned(t, 0, cache_ctor_once_per_object_body);
}

static void kfree_bulk_mixed(struct ktest *t)
{
	slub_t_run_pinned(t, 0, kfree_bulk_mixed_body);
}

/* ------------------------------------------------------------ NUMA fallback */

/*
 * Take every free page of @nid (largest blocks first, __GFP_THISNODE so
 * nothing comes from elsewhere) onto @held; the count of pages taken.
 */
static unsigned long exhaust_node(int nid, struct list_head *held)
{
	unsigned long pages = 0;

	for (int order = MAX_ORDER - 1; order >= 0; order--) {
		struct page *page;

		/* No __GFP_NORETRY: the CPUs' page lists are drained too. */
		while ((page = alloc_pages_node(nid, GFP_KERNEL | __GFP_THISNODE |
						__GFP_NOWARN, order))) {
			set_page_private(page, order);
			list_add(&page->lru, held);
			pages += 1UL << order;
		}
	}
	return pages;
}

static void release_node(struct list_head *held)
{
	struct page *page, *next;

	list_for_each_entry_safe(page, next, held, lru) {
		unsigned int order = page_private(page);

		list_del(&page->lru);
		set_page_private(page, 0);
		__free_pages(page, order);
	}
}

/*
 * Linux's alloc_slab_page() prefers the requested node and falls back
 * along the node's zonelist: with node 1 out of pages, a slab for
 * kmem_cache_alloc_node(..., 1) comes from node 0 instead of the
 * allocation failing.  Only __GFP_THISNODE from the caller is strict.
 */
static void slub_node_fallback(struct ktest *t)
{
	const int nid = 1;
	struct kmem_cache *s;
	LIST_HEAD(held);
	struct page *page;
	unsigned long taken;
	void *a, *strict;

	if (nr_online_nodes < 2 || !node_online(nid))
		ktest_skip(t, "needs NUMA node 1 (%u nodes online)", nr_online_nodes);
	/* A new cache: no slab of it on node 1 to satisfy the request. */
	s = slub_t_cache(t, "node_fallback", 128, 0, SLAB_NOLEAKTRACE, NULL);
	taken = exhaust_node(nid, &held);
	ktest_info(t, "node %d: %lu pages taken", nid, taken);
	KTEST_EXPECT_GT(t, taken, 0);
	/* The page allocator itself: preferred node, then the others. */
	page = alloc_pages_node(nid, GFP_KERNEL, 0);
	KTEST_EXPECT_TRUE(t, page && page_to_nid(page) != nid);
	if (page)
		__free_page(page);
	a = kmem_cache_alloc_node(s, GFP_KERNEL, nid);
	/* The caller's own __GFP_THISNODE stays strict. */
	strict = kmem_cache_alloc_node(s, GFP_KERNEL | __GFP_THISNODE | __GFP_NOWARN, nid);
	release_node(&held);
	KTEST_EXPECT_TRUE(t, a != NULL);
	if (a) {
		KTEST_EXPECT_NE(t, page_to_nid(virt_to_page(a)), nid);
		kmem_cache_free(s, a);
	}
	/* Strict: from node 1 or not at all (a page freed there meanwhile). */
	if (strict) {
		KTEST_EXPECT_EQ(t, page_to_nid(virt_to_page(strict)), nid);
		kmem_cache_free(s, strict);
	}
	/* Node 1 has pages again: it is preferred again. */
	a = kmem_cache_alloc_node(s, GFP_KERNEL, nid);
	KTEST_EXPECT_TRUE(t, a && page_to_nid(virt_to_page(a)) == nid);
	if (a)
		kmem_cache_free(s, a);
	kmem_cache_destroy(s);
}

/* ------------------------------------------- allocation as a preemption point */

/*
 * might_alloc(): a blocking allocation is a might_resched() point, so on
 * PREEMPT_VOLUNTARY a task woken on this CPU (need_resched set, no
 * involuntary preemption on that model) gets the CPU inside the call; a
 * GFP_ATOMIC allocation never yields, and on PREEMPT_NONE neither does.
 * The woken task only sets a flag, so "it ran inside the call" is an
 * ordering read right after the call returns, not a timing.
 */
static volatile bool alloc_probe_ran;

static int alloc_probe_fn(void *data)
{
	WRITE_ONCE(alloc_probe_ran, true);
	return 0;
}

enum alloc_kind { ALLOC_KMALLOC, ALLOC_PAGE };

/* Wake the probe, allocate once, and say whether the probe ran meanwhile. */
static bool alloc_yielded(struct ktest *t, enum alloc_kind kind, gfp_t gfp)
{
	struct task_struct *p;
	struct page *page = NULL;
	void *obj = NULL;
	bool pending, ran;

	WRITE_ONCE(alloc_probe_ran, false);
	p = ktest_kthread(alloc_probe_fn, NULL, "alloc-probe", smp_processor_id(),
			  SCHED_FIFO, 50);
	KTEST_ASSERT_TRUE(t, p != NULL);
	wake_up_process(p);
	pending = tif_need_resched_now() && !READ_ONCE(alloc_probe_ran);
	if (kind == ALLOC_KMALLOC)
		obj = kmalloc(64, gfp);
	else
		page = alloc_page(gfp);
	ran = READ_ONCE(alloc_probe_ran);
	/* The wakeup must have left the probe waiting for a preemption point. */
	KTEST_EXPECT_TRUE(t, pending);
	KTEST_EXPECT_TRUE(t, obj != NULL || page != NULL);
	kfree(obj);
	if (page)
		__free_page(page);
	for (int i = 0; i < 1000 && !READ_ONCE(alloc_probe_ran); i++)
		yield();
	KTEST_EXPECT_TRUE(t, READ_ONCE(alloc_probe_ran));
	return ran;
}

static void alloc_preemption_point_body(struct ktest *t)
{
	bool voluntary = IS_ENABLED(CONFIG_PREEMPT_VOLUNTARY);

	/* Warm the kmalloc-64 CPU slab: the calls below take the fast path. */
	kfree(kmalloc(64, GFP_KERNEL));
	KTEST_EXPECT_FALSE(t, alloc_yielded(t, ALLOC_KMALLOC, GFP_ATOMIC));
	KTEST_EXPECT_FALSE(t, alloc_yielded(t, ALLOC_KMALLOC, GFP_NOWAIT));
	KTEST_EXPECT_EQ(t, alloc_yielded(t, ALLOC_KMALLOC, GFP_KERNEL), voluntary);
	KTEST_EXPECT_FALSE(t, alloc_yielded(t, ALLOC_PAGE, GFP_ATOMIC));
	KTEST_EXPECT_EQ(t, alloc_yielded(t, ALLOC_PAGE, GFP_KERNEL), voluntary);
}

static void kmalloc_preemption_point(struct ktest *t)
{
	if (IS_ENABLED(CONFIG_PREEMPTION))
		ktest_skip(t, "full preemption: the wakeup preempts at once");
	slub_t_run_pinned(t, 0, alloc_preemption_point_body);
}

/* ----------------------------------------------- freelist order */

/*
 * A new slab hands out its objects in address order, or with
 * SLAB_FREELIST_RANDOM in the cache's shuffled order: all of the slab's
 * objects once each either way.  Runs pinned so one CPU slab serves all.
 */
#define SLUB_T_ORDER_MAX	130

static void slub_freelist_order_body(struct ktest *t)
{
	struct kmem_cache *s = slub_t_cache(t, "slub-t-order", 128, 0, SLUB_T_NOMERGE, NULL);
	void *objs[SLUB_T_ORDER_MAX];
	struct page *page;
	unsigned int n = 0, ascending = 0;
	bool dup = false;

	objs[n] = kmem_cache_alloc(s, GFP_KERNEL);
	KTEST_ASSERT_TRUE(t, objs[n]);
	page = virt_to_head_page(objs[n++]);
	while (n < SLUB_T_ORDER_MAX) {
		void *o = kmem_cache_alloc(s, GFP_KERNEL);

		KTEST_ASSERT_TRUE(t, o);
		objs[n++] = o;
		if (virt_to_head_page(o) != page)
			break;
	}
	/* objs[0..n-2] filled the first slab; objs[n-1] opened the next. */
	KTEST_EXPECT_EQ(t, n - 1, page->objects);
	for (unsigned int i = 1; i + 1 < n; i++) {
		ascending += objs[i] > objs[i - 1];
		for (unsigned int j = 0; j < i; j++)
			dup |= objs[i] == objs[j];
	}
	KTEST_EXPECT_FALSE(t, dup);
	ktest_info(t, "%u objects per slab, %u of %u steps ascending", n - 1,
		   ascending, n - 2);
	if (IS_ENABLED(CONFIG_SLAB_FREELIST_RANDOM))
		/* A rotation of the identity has at most one descent. */
		KTEST_EXPECT_LT(t, ascending, n - 3);
	else
		KTEST_EXPECT_EQ(t, ascending, n - 2);
	for (unsigned int i = 0; i < n; i++)
		kmem_cache_free(s, objs[i]);
	kmem_cache_destroy(s);
}

static void slub_freelist_order(struct ktest *t)
{
	slub_t_run_pinned(t, 0, slub_freelist_order_body);
}

/* ----------------------------------------------------------- suite */

static int slub_init(struct ktest *t)
{
	slub_t_fault_save();
	return 0;
}

static void slub_exit(struct ktest *t)
{
	slub_t_fault_restore();
}

static struct ktest_case slub_cases[] = {
	KTEST_CASE(kmalloc_size_classes),
	KTEST_CASE(kmalloc_many_live_no_overlap),
	KTEST_CASE(kzalloc_kcalloc_zeroed),
	KTEST_CASE(kmalloc_zero_null_overflow),
	KTEST_CASE(krealloc_keeps_contents),
	KTEST_CASE(cache_ctor_once_per_object),
	KTEST_CASE(cache_align_honoured),
	KTEST_CASE(bulk_alloc_1_to_300),
	KTEST_CASE(bulk_free_mixed_slabs),
	KTEST_CASE(kfree_bulk_mixed),
	KTEST_CASE(destroy_with_objects_reported),
	KTEST_CASE(slub_remote_free),
	KTEST_CASE(slub_shrink_returns_pages),
	KTEST_CASE(slub_destroy_returns_pages),
	KTEST_CASE(slub_stat_alloc_free),
	KTEST_CASE(slub_stat_remote_free),
	KTEST_CASE(slub_geometry_kmalloc),
	KTEST_CASE(slub_geometry_private),
	KTEST_CASE(slub_probe_alloc_pages),
	KTEST_CASE(slub_probe_flush_deactivate),
	KTEST_CASE(slub_irqoff_by_path),
	KTEST_CASE(slub_stress_all_cpus),
	KTEST_CASE(slub_failslab_one_percent),
	KTEST_CASE(slub_bulk_page_failure),
	KTEST_CASE(kmalloc_preemption_point),
	KTEST_CASE(slub_node_fallback),
	KTEST_CASE(slub_freelist_order),
	KTEST_CASE(slub_typesafe_gp),
	KTEST_CASE(slub_typesafe_reader_race),
	KTEST_CASE(slub_typesafe_destroy),
	KTEST_CASE(slub_typesafe_contents_kept),
	KTEST_CASE(slub_typesafe_debug),
	{}
};

static struct ktest_suite slub_suite = {
	.name = "slub", .cases = slub_cases,
	.init = slub_init, .exit = slub_exit,
};
ktest_register_suite(slub_suite);
