// SPDX-License-Identifier: GPL-2.0
/*
 * SLUB debugging (CONFIG_SLUB_DEBUG), on caches created with the debug
 * flags themselves (SLAB_CONSISTENCY_CHECKS | SLAB_RED_ZONE | SLAB_POISON
 * | SLAB_STORE_USER) so no slub_debug= is needed: the object layout
 * (poison and red zone bytes), and each kind of corruption reported in
 * Linux's words ("BUG <cache> (...): <what>"), counted by
 * validate_slab_cache() where it finds it, repaired, and the cache
 * still working and ending empty afterwards.
 */
#include <linux/ktest.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/kallsyms.h>
#include <linux/string.h>
#include "slub_test.h"
#include "../mm/slub.h"

#ifdef CONFIG_SLUB_DEBUG

#define DBG_SIZE	64

static struct kmem_cache *dbg_cache(struct ktest *t, const char *name)
{
	struct kmem_cache *s;

	/*
	 * KASAN's quarantine holds a freed object back from the free path
	 * where slub_debug poisons and checks it, and KASAN itself reports
	 * the corruptions these cases plant.
	 */
	if (IS_ENABLED(CONFIG_KASAN))
		ktest_skip(t, "KASAN: freed objects wait in its quarantine, not in slub_debug's free path");
	s = slub_t_cache(t, name, DBG_SIZE, 0, SLUB_T_DEBUG_FLAGS, NULL);

	KTEST_EXPECT_EQ(t, s->flags & SLUB_T_DEBUG_FLAGS, SLUB_T_DEBUG_FLAGS);
	return s;
}

/* Free what is left, check nothing is in use, destroy without a report. */
static void dbg_finish(struct ktest *t, struct kmem_cache *s, void **p, int n)
{
	u64 mark;

	for (int i = 0; i < n; i++)
		if (p[i])
			kmem_cache_free(s, p[i]);
	KTEST_EXPECT_EQ(t, validate_slab_cache(s), 0);
	slub_t_expect_empty(t, s, s->name);
	mark = ktest_log_mark();
	kmem_cache_destroy(s);
	KTEST_EXPECT_FALSE(t, ktest_log_contains(mark, "still has objects"));
}

static size_t count_not(const u8 *p, size_t len, u8 val)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++)
		n += p[i] != val;
	return n;
}

/*
 * In use: poison 0x6b..0xa5 (nothing written yet), red zones 0xcc on
 * both sides.  Freed: the same poison, red zones 0xbb.  The metadata
 * makes the slot bigger than the object.
 */
static void debug_layout(struct ktest *t)
{
	struct kmem_cache *s = dbg_cache(t, "slub-t-dbg-layout");
	u8 *p = kmem_cache_alloc(s, GFP_KERNEL), *keep;
	unsigned int rz = s->inuse - s->object_size;

	KTEST_ASSERT_TRUE(t, p != NULL);
	keep = kmem_cache_alloc(s, GFP_KERNEL);
	KTEST_EXPECT_GT(t, s->size, s->object_size);
	KTEST_EXPECT_GT(t, s->red_left_pad, 0);
	KTEST_EXPECT_GT(t, rz, 0);
	KTEST_EXPECT_GE(t, s->offset, s->object_size);
	KTEST_EXPECT_EQ(t, count_not(p, DBG_SIZE - 1, POISON_FREE), 0);
	KTEST_EXPECT_EQ(t, p[DBG_SIZE - 1], POISON_END);
	KTEST_EXPECT_EQ(t, count_not(p + DBG_SIZE, rz, SLUB_RED_ACTIVE), 0);
	KTEST_EXPECT_EQ(t, count_not(p - s->red_left_pad, s->red_left_pad,
				     SLUB_RED_ACTIVE), 0);
	memset(p, 0x11, DBG_SIZE);
	kmem_cache_free(s, p);
	KTEST_EXPECT_EQ(t, count_not(p, DBG_SIZE - 1, POISON_FREE), 0);
	KTEST_EXPECT_EQ(t, p[DBG_SIZE - 1], POISON_END);
	KTEST_EXPECT_EQ(t, count_not(p + DBG_SIZE, rz, SLUB_RED_INACTIVE), 0);
	KTEST_EXPECT_EQ(t, count_not(p - s->red_left_pad, s->red_left_pad,
				     SLUB_RED_INACTIVE), 0);
	/* A clean, busy cache validates without a finding. */
	KTEST_EXPECT_EQ(t, validate_slab_cache(s), 0);
	dbg_finish(t, s, (void **)&keep, 1);
}

/* The second free is refused and reported; the object stays free once. */
static void debug_double_free(struct ktest *t)
{
	struct kmem_cache *s = dbg_cache(t, "slub-t-dbg-dfree");
	void *p[3] = { kmem_cache_alloc(s, GFP_KERNEL),
		       kmem_cache_alloc(s, GFP_KERNEL) };
	u64 mark;

	KTEST_ASSERT_TRUE(t, p[0] && p[1]);
	kmem_cache_free(s, p[0]);
	mark = ktest_log_mark();
	kmem_cache_free(s, p[0]);
	KTEST_EXPECT_TRUE(t, slub_t_log_bug(mark, s->name, "Object already free"));
	ktest_expect_reports("bug", 1);
	KTEST_EXPECT_EQ(t, slub_t_active(s), 1);
	KTEST_EXPECT_EQ(t, validate_slab_cache(s), 0);
	/* Two allocations now get two different objects. */
	p[0] = kmem_cache_alloc(s, GFP_KERNEL);
	p[2] = kmem_cache_alloc(s, GFP_KERNEL);
	KTEST_EXPECT_TRUE(t, p[0] && p[2] && p[0] != p[2]);
	KTEST_EXPECT_EQ(t, slub_t_active(s), 3);
	dbg_finish(t, s, p, 3);
}

/*
 * A byte written into a freed object: validate_slab_cache() counts it,
 * reports "Poison overwritten", restores the poison, and a second
 * validation is clean.
 */
static void debug_write_after_free(struct ktest *t)
{
	struct kmem_cache *s = dbg_cache(t, "slub-t-dbg-uaf");
	void *p[2] = { kmem_cache_alloc(s, GFP_KERNEL),
		       kmem_cache_alloc(s, GFP_KERNEL) };
	u8 *victim = p[0];
	u64 mark;

	KTEST_ASSERT_TRUE(t, p[0] && p[1]);
	kmem_cache_free(s, p[0]);
	p[0] = NULL;
	victim[DBG_SIZE / 3] = 0x42;
	mark = ktest_log_mark();
	KTEST_EXPECT_GT(t, validate_slab_cache(s), 0);
	KTEST_EXPECT_TRUE(t, slub_t_log_bug(mark, s->name, "Poison overwritten"));
	ktest_expect_reports("bug", 1);
	KTEST_EXPECT_EQ(t, victim[DBG_SIZE / 3], POISON_FREE);
	KTEST_EXPECT_EQ(t, validate_slab_cache(s), 0);
	/* The repaired object is handed out again without a report. */
	mark = ktest_log_mark();
	p[0] = kmem_cache_alloc(s, GFP_KERNEL);
	KTEST_EXPECT_TRUE(t, p[0] != NULL);
	KTEST_EXPECT_FALSE(t, slub_t_log_bug(mark, s->name, NULL));
	dbg_finish(t, s, p, 2);
}

/*
 * A red zone written over, once found by validate_slab_cache() (counted,
 * repaired, the object then frees normally) and once at kmem_cache_free()
 * (reported, the object kept in use and its red zone repaired; freeing
 * it again works).
 */
static void redzone_case(struct ktest *t, const char *name, bool left,
			 const char *what)
{
	struct kmem_cache *s = dbg_cache(t, name);
	void *p[3] = { kmem_cache_alloc(s, GFP_KERNEL),
		       kmem_cache_alloc(s, GFP_KERNEL),
		       kmem_cache_alloc(s, GFP_KERNEL) };
	u8 *a = p[0], *b = p[1];
	int off = left ? -1 : DBG_SIZE;
	u64 mark;

	KTEST_ASSERT_TRUE(t, p[0] && p[1] && p[2]);

	a[off] = 0x12;
	mark = ktest_log_mark();
	KTEST_EXPECT_GT(t, validate_slab_cache(s), 0);
	KTEST_EXPECT_TRUE(t, slub_t_log_bug(mark, s->name, what));
	ktest_expect_reports("bug", 1);
	KTEST_EXPECT_EQ(t, a[off], SLUB_RED_ACTIVE);
	KTEST_EXPECT_EQ(t, validate_slab_cache(s), 0);
	mark = ktest_log_mark();
	kmem_cache_free(s, a);
	p[0] = NULL;
	KTEST_EXPECT_FALSE(t, slub_t_log_bug(mark, s->name, NULL));
	KTEST_EXPECT_EQ(t, slub_t_active(s), 2);

	b[off] = 0x34;
	mark = ktest_log_mark();
	kmem_cache_free(s, b);
	KTEST_EXPECT_TRUE(t, slub_t_log_bug(mark, s->name, what));
	ktest_expect_reports("bug", 1);
	KTEST_EXPECT_EQ(t, b[off], SLUB_RED_ACTIVE);
	/* Not freed: still in use, and a clean free now goes through. */
	KTEST_EXPECT_EQ(t, slub_t_active(s), 2);
	mark = ktest_log_mark();
	kmem_cache_free(s, b);
	p[1] = NULL;
	KTEST_EXPECT_FALSE(t, slub_t_log_bug(mark, s->name, NULL));
	KTEST_EXPECT_EQ(t, slub_t_active(s), 1);
	dbg_finish(t, s, p, 3);
}

static void debug_right_redzone(struct ktest *t)
{
	redzone_case(t, "slub-t-dbg-rz-right", false, "Right Redzone overwritten");
}

static void debug_left_redzone(struct ktest *t)
{
	redzone_case(t, "slub-t-dbg-rz-left", true, "Left Redzone overwritten");
}

/*
 * The free pointer of a free object overwritten with garbage.  The
 * object freed is the only free one of a full slab, so its free pointer
 * was NULL and zapping it (what SLUB does to repair) loses nothing:
 * validate_slab_cache() counts and reports it, a second validation is
 * clean, and every object can be allocated and freed after.
 */
static void debug_freepointer_corrupt(struct ktest *t)
{
	static void *p[256];
	struct kmem_cache *s = dbg_cache(t, "slub-t-dbg-fp");
	int n = oo_objects(s->oo);
	u8 *x;
	u64 mark;

	KTEST_ASSERT_TRUE(t, n >= 2 && n < (int)ARRAY_SIZE(p));
	for (int i = 0; i < n; i++) {
		p[i] = kmem_cache_alloc(s, GFP_KERNEL);
		KTEST_ASSERT_TRUE(t, p[i] != NULL);
	}
	/* One slab, full. */
	KTEST_ASSERT_EQ(t, slub_t_slabs(s), 1);
	KTEST_ASSERT_EQ(t, slub_t_active(s), n);
	x = p[n - 1];
	kmem_cache_free(s, x);
	p[n - 1] = NULL;
	KTEST_EXPECT_EQ(t, validate_slab_cache(s), 0);
	*(unsigned long *)(x + s->offset) = 0x5a5a5a5a12345678UL;
	mark = ktest_log_mark();
	KTEST_EXPECT_GT(t, validate_slab_cache(s), 0);
	if (!slub_t_log_bug(mark, s->name, "Freechain corrupt") &&
	    !slub_t_log_bug(mark, s->name, "Freepointer corrupt"))
		ktest_fail(t, __FILE__, __LINE__,
			   "no \"BUG %s (...): Freechain corrupt\" or \"Freepointer corrupt\" report",
			   s->name);
	ktest_expect_reports("bug", 1);
	KTEST_EXPECT_EQ(t, validate_slab_cache(s), 0);
	KTEST_EXPECT_EQ(t, slub_t_active(s), n - 1);
	p[n - 1] = kmem_cache_alloc(s, GFP_KERNEL);
	KTEST_EXPECT_TRUE(t, p[n - 1] != NULL);
	p[n] = kmem_cache_alloc(s, GFP_KERNEL);
	KTEST_EXPECT_TRUE(t, p[n] != NULL && p[n] != p[n - 1]);
	dbg_finish(t, s, p, n + 1);
}

/*
 * SLAB_STORE_USER records who called kmem_cache_alloc() and
 * kmem_cache_free().  The entry points pass SLAB_RET_IP and the slow paths
 * (which debug caches always take) turn it into the entry point's return
 * address; these helpers make the call and must be what is recorded.
 */
static noinline void *dbg_alloc_site(struct kmem_cache *s)
{
	void *p = kmem_cache_alloc(s, GFP_KERNEL);

	barrier();	/* not a tail call: the return lands in here */
	return p;
}

static noinline void dbg_free_site(struct kmem_cache *s, void *p)
{
	kmem_cache_free(s, p);
	barrier();
}

static void dbg_expect_caller(struct ktest *t, struct kmem_cache *s, void *obj,
			      enum track_item which, const char *fn)
{
	struct track *tr = (struct track *)(obj + get_info_end(s)) + which;
	unsigned long size, offset;
	const char *name = kallsyms_lookup(tr->addr, &size, &offset);

	ktest_info(t, "%s track: %s+%#lx", which == TRACK_ALLOC ? "alloc" : "free",
		   name ? name : "?", offset);
	KTEST_EXPECT_TRUE(t, name && !strncmp(name, fn, strlen(fn)));
	KTEST_EXPECT_GT(t, offset, 0);
}

static void debug_track_caller(struct ktest *t)
{
	struct kmem_cache *s = dbg_cache(t, "dbg_track");
	void *p = dbg_alloc_site(s);

	KTEST_ASSERT_TRUE(t, p != NULL);
	dbg_expect_caller(t, s, p, TRACK_ALLOC, "dbg_alloc_site");
	dbg_free_site(s, p);
	dbg_expect_caller(t, s, p, TRACK_FREE, "dbg_free_site");
	dbg_finish(t, s, NULL, 0);
}

static struct ktest_case slub_debug_cases[] = {
	KTEST_CASE(debug_layout),
	KTEST_CASE(debug_double_free),
	KTEST_CASE(debug_write_after_free),
	KTEST_CASE(debug_right_redzone),
	KTEST_CASE(debug_left_redzone),
	KTEST_CASE(debug_freepointer_corrupt),
	KTEST_CASE(debug_track_caller),
	{}
};

static struct ktest_suite slub_debug_suite = {
	.name = "slub_debug", .cases = slub_debug_cases,
};
ktest_register_suite(slub_debug_suite);

#endif /* CONFIG_SLUB_DEBUG */
