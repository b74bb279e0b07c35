// SPDX-License-Identifier: GPL-2.0
/*
 * The slub suite, SLAB_TYPESAFE_BY_RCU caches (both ports share
 * free_slab() and kmem_cache_destroy()):
 *   - a freed object is handed out again at once, but the empty slab it
 *     lived in stays a slab of the cache until a grace period has passed;
 *   - a reader under rcu_read_lock() that found an object keeps seeing
 *     memory of that type while another thread frees, discards, scribbles
 *     over fresh pages and reallocates;
 *   - kmem_cache_destroy() with rcu_free_slab() callbacks pending returns
 *     only after they ran: every page back, nothing reported;
 *   - slub_debug never poisons such an object's contents.
 *
 * The objects carry a stamp that only the constructor writes, as
 * type-stable users (Linux's sighand_cache) keep their lock and
 * refcount valid across free and reuse.
 */
#include <linux/ktest.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/gfp.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/kthread.h>
#include <linux/delay.h>
#include <linux/rcupdate.h>
#include <linux/page-flags.h>
#include "slub_test.h"

#define TS_MAGIC	0x7e5a5afe0b1ec7edULL
#define TS_SCRIBBLE	0x5a

struct ts_obj {
	u64 magic;		/* written by ts_ctor() only */
	u64 key;		/* the current user's, changes on reuse */
	u64 payload[22];
};

static void ts_ctor(void *p)
{
	struct ts_obj *o = p;

	o->magic = TS_MAGIC;
	o->key = 0;
}

static struct kmem_cache *ts_cache(struct ktest *t, const char *name)
{
	struct kmem_cache *s;

	s = slub_t_cache(t, name, sizeof(struct ts_obj), 0,
			 SLAB_TYPESAFE_BY_RCU | SLUB_T_NOMERGE, ts_ctor);
	KTEST_EXPECT_TRUE(t, s->flags & SLAB_TYPESAFE_BY_RCU);
	/* The free pointer must not share the object's bytes. */
	KTEST_EXPECT_GE(t, s->offset, s->inuse);
	return s;
}

/* Is @page still a slab of @s (not given back to the page allocator)? */
static bool ts_slab_of(struct page *page, struct kmem_cache *s)
{
	return PageSlab(page) && READ_ONCE(page->slab_cache) == s;
}

/* ------------------------------------------------ reuse and grace period */

#define TS_SLABS	3
#define TS_MAX		(TS_SLABS * 64)

/*
 * min_partial 0 and cpu_partial 0 (both tunable in Linux's sysfs) make
 * an emptied slab that is not the CPU slab be discarded inside
 * kmem_cache_free(), so the whole step runs in one rcu_read_lock()
 * section of this thread, nothing in it sleeping.
 */
static void slub_typesafe_gp_body(struct ktest *t)
{
	static struct ts_obj *p[TS_MAX];
	struct kmem_cache *s = ts_cache(t, "slub-t-typesafe");
	struct ts_obj *victim = NULL, *again;
	struct page *a;
	unsigned long f_held, f_after;
	unsigned int objs = oo_objects(s->oo), slab_pages = 1U << oo_order(s->oo);
	int n = TS_SLABS * objs, in_a = 0, stamped = 0;
	long slabs_before;

	KTEST_ASSERT_TRUE(t, n <= TS_MAX);
	s->min_partial = 0;
	slub_set_cpu_partial(s, 0);
	for (int i = 0; i < n; i++) {
		p[i] = kmem_cache_alloc(s, GFP_KERNEL);
		KTEST_ASSERT_TRUE(t, p[i] != NULL);
		KTEST_EXPECT_EQ(t, p[i]->magic, TS_MAGIC);
		p[i]->key = i + 1;
	}
	a = virt_to_head_page(p[0]);
	KTEST_ASSERT_TRUE(t, a != raw_cpu_ptr(s->cpu_slab)->page);
	for (int i = 0; i < n; i++) {
		if (virt_to_head_page(p[i]) == a)
			in_a++;
		else if (!victim)
			victim = p[i];
	}
	KTEST_ASSERT_EQ(t, in_a, (int)objs);
	slabs_before = slub_t_slabs(s);
	f_held = slub_t_free_pages();

	rcu_read_lock();
	for (int i = 0; i < n; i++)
		if (virt_to_head_page(p[i]) == a)
			kmem_cache_free(s, p[i]);
	/*
	 * The post-series port leaves the emptied slab frozen on c->partial
	 * until the next push drains it; the pre-series one (5.13 unfreezes
	 * at once when cpu_partial is 0) has discarded it already.  A free
	 * to another full slab pushes in both.
	 */
	kmem_cache_free(s, victim);
	/* The cache let go of the slab (SLUB_DEBUG counts slabs)... */
	if (slabs_before >= 0)
		KTEST_EXPECT_EQ(t, slub_t_slabs(s), slabs_before - 1);
	/* ...but the page is still a slab of this cache, stamps intact. */
	KTEST_EXPECT_TRUE(t, ts_slab_of(a, s));
	KTEST_EXPECT_FALSE(t, PageBuddy(a));
	KTEST_EXPECT_EQ(t, page_ref_count(a), 1);
	for (int i = 0; i < n; i++)
		if (virt_to_head_page(p[i]) == a)
			stamped += READ_ONCE(p[i]->magic) == TS_MAGIC;
	KTEST_EXPECT_EQ(t, stamped, (int)objs);
	/* An object is reused at once, without waiting for readers. */
	again = kmem_cache_alloc(s, GFP_NOWAIT);
	KTEST_EXPECT_TRUE(t, again == victim);
	rcu_read_unlock();

	if (again)
		KTEST_EXPECT_EQ(t, again->magic, TS_MAGIC);
	synchronize_rcu();
	rcu_barrier();
	/* After the grace period the page went back to the page allocator. */
	KTEST_EXPECT_FALSE(t, ts_slab_of(a, s));
	f_after = slub_t_free_pages();
	KTEST_EXPECT_EQ(t, f_after - f_held, slab_pages);

	for (int i = 0; i < n; i++)
		if (virt_to_head_page(p[i]) != a && p[i] != victim)
			kmem_cache_free(s, p[i]);
	if (again)
		kmem_cache_free(s, again);
	kmem_cache_destroy(s);
}

void slub_typesafe_gp(struct ktest *t)
{
	slub_t_run_pinned(t, 0, slub_typesafe_gp_body);
}

/* ------------------------------------------------------ contents kept */

/*
 * Without a constructor and without debugging, only SLAB_TYPESAFE_BY_RCU
 * keeps the free pointer out of the object (calculate_sizes()): a free
 * leaves every byte the user wrote, which a reader may still check.
 */
void slub_typesafe_contents_kept(struct ktest *t)
{
	static void *p[2 * 64];
	struct kmem_cache *s;
	size_t bad = 0;
	int n;

	s = slub_t_cache(t, "slub-t-typesafe-plain", 64, 0,
			 SLAB_TYPESAFE_BY_RCU | SLUB_T_NOMERGE, NULL);
	KTEST_EXPECT_GE(t, s->offset, s->object_size);
	n = min_t(int, 2 * oo_objects(s->oo), ARRAY_SIZE(p));
	for (int i = 0; i < n; i++) {
		p[i] = kmem_cache_alloc(s, GFP_KERNEL);
		KTEST_ASSERT_TRUE(t, p[i] != NULL);
		slub_t_fill(p[i], s->object_size, i * 977 + 5);
	}
	rcu_read_lock();
	for (int i = 0; i < n; i++)
		kmem_cache_free(s, p[i]);
	for (int i = 0; i < n; i++)
		bad += slub_t_check(p[i], s->object_size, i * 977 + 5);
	rcu_read_unlock();
	KTEST_EXPECT_EQ(t, bad, 0);
	slub_t_expect_empty(t, s, "typesafe plain");
	kmem_cache_destroy(s);
}

/* ------------------------------------------------------------- debug */

/*
 * slub_debug on a type-stable cache without a constructor (a ctor alone
 * would already keep the poison off): red zones, tracking and consistency
 * checks apply, but the object itself is never poisoned (Linux sets
 * __OBJECT_POISON only without SLAB_TYPESAFE_BY_RCU and ctor), so a
 * reader still finds the freed object's stamp and its last key, and the
 * checks on free and on validation find nothing wrong.
 */
void slub_typesafe_debug(struct ktest *t)
{
#ifdef CONFIG_SLUB_DEBUG
	static struct ts_obj *p[2 * 64];
	struct kmem_cache *s;
	int n, intact = 0;
	u64 mark = ktest_log_mark();

	s = slub_t_cache(t, "slub-t-typesafe-debug", sizeof(struct ts_obj), 0,
			 SLAB_TYPESAFE_BY_RCU | SLUB_T_DEBUG_FLAGS, NULL);
	KTEST_EXPECT_FALSE(t, s->flags & __OBJECT_POISON);
	KTEST_EXPECT_TRUE(t, s->flags & SLAB_POISON);
	KTEST_EXPECT_GE(t, s->offset, s->inuse);
	n = min_t(int, 2 * oo_objects(s->oo), ARRAY_SIZE(p));
	for (int i = 0; i < n; i++) {
		p[i] = kmem_cache_alloc(s, GFP_KERNEL);
		KTEST_ASSERT_TRUE(t, p[i] != NULL);
		p[i]->magic = TS_MAGIC;
		p[i]->key = i + 1;
	}
	rcu_read_lock();
	for (int i = 0; i < n; i++)
		kmem_cache_free(s, p[i]);
	for (int i = 0; i < n; i++)
		intact += READ_ONCE(p[i]->magic) == TS_MAGIC &&
			  READ_ONCE(p[i]->key) == (u64)i + 1;
	rcu_read_unlock();
	KTEST_EXPECT_EQ(t, intact, n);
	KTEST_EXPECT_EQ(t, validate_slab_cache(s), 0);
	KTEST_EXPECT_FALSE(t, slub_t_log_bug(mark, s->name, NULL));
	slub_t_expect_empty(t, s, "typesafe debug");
	kmem_cache_destroy(s);
	KTEST_EXPECT_FALSE(t, ktest_log_contains(mark, "still has objects"));
#else
	ktest_skip(t, "needs CONFIG_SLUB_DEBUG");
#endif
}

/* ---------------------------------------------------- reader vs freer */

#define RACE_SLOTS	64
#define RACE_ROUNDS	120
#define RACE_SCRIBBLE	16
#define RACE_SPIN_MAX	200000

struct ts_race {
	struct kmem_cache *s;
	struct ts_obj *slot[RACE_SLOTS];
	unsigned long round;		/* writer rounds completed */
	volatile bool stop, reader_done, writer_done;
	volatile bool inside;		/* the reader holds an object */
	unsigned long sections, spanning, bad_magic, bad_page;
	u64 bad_value;
	long nulls;
};

/*
 * Every round frees every published object; every other round then
 * shrinks (each slab is empty: all are discarded), takes fresh pages
 * from the page allocator and fills them with a pattern, before
 * allocating and publishing again.  A slab page given back too early is
 * among the first pages handed out here.
 */
static void race_round(struct ts_race *r, unsigned long round)
{
	struct page *pg[RACE_SCRIBBLE];

	for (int i = 0; i < RACE_SLOTS; i++) {
		struct ts_obj *o = xchg(&r->slot[i], NULL);

		if (o) {
			WRITE_ONCE(o->key, 0);
			kmem_cache_free(r->s, o);
		}
	}
	if (round & 1) {
		kmem_cache_shrink(r->s);
		for (int k = 0; k < RACE_SCRIBBLE; k++) {
			pg[k] = alloc_pages(GFP_KERNEL, 0);
			if (pg[k])
				memset(page_address(pg[k]), TS_SCRIBBLE, PAGE_SIZE);
		}
		for (int k = 0; k < RACE_SCRIBBLE; k++)
			if (pg[k])
				__free_pages(pg[k], 0);
	}
	for (int i = 0; i < RACE_SLOTS; i++) {
		struct ts_obj *o = kmem_cache_alloc(r->s, GFP_KERNEL);

		if (!o) {
			r->nulls++;
			continue;
		}
		WRITE_ONCE(o->key, round * RACE_SLOTS + i + 1);
		rcu_assign_pointer(r->slot[i], o);
	}
}

static int race_writer(void *arg)
{
	struct ts_race *r = arg;

	for (unsigned long round = 0; round < RACE_ROUNDS; round++) {
		/*
		 * Start the round once the reader holds an object (100 ms
		 * at most): that a section spans a round must not depend on
		 * the host running the reader's vCPU just then.
		 */
		for (int ms = 0; ms < 100 && !smp_load_acquire(&r->inside); ms++)
			msleep(1);
		race_round(r, round);
		smp_store_release(&r->round, round + 1);
		/* Let the reader take a pointer; on one CPU this preempts it. */
		msleep(1);
	}
	WRITE_ONCE(r->stop, true);
	smp_store_release(&r->writer_done, true);
	return 0;
}

/*
 * Each section looks up one slot and keeps reading that object until the
 * writer has finished a round (bounded), so the section spans the free,
 * the discard and the scribbling.
 */
static void race_section(struct ts_race *r, int i)
{
	struct ts_obj *o;
	unsigned long r0;

	rcu_read_lock();
	r0 = smp_load_acquire(&r->round);
	o = rcu_dereference(r->slot[i]);
	if (o) {
		smp_store_release(&r->inside, true);
		for (int k = 0; k < RACE_SPIN_MAX; k++) {
			u64 m = READ_ONCE(o->magic);

			if (m != TS_MAGIC) {
				r->bad_magic++;
				r->bad_value = m;
			}
			if (!ts_slab_of(virt_to_head_page(o), r->s))
				r->bad_page++;
			if (READ_ONCE(r->round) != r0 || READ_ONCE(r->stop))
				break;
			cpu_relax();
		}
		/* One more look after the writer's round. */
		if (READ_ONCE(o->magic) != TS_MAGIC) {
			r->bad_magic++;
			r->bad_value = READ_ONCE(o->magic);
		}
		r->spanning += READ_ONCE(r->round) != r0;
		WRITE_ONCE(r->inside, false);
	}
	rcu_read_unlock();
	r->sections++;
}

static int race_reader(void *arg)
{
	struct ts_race *r = arg;
	int i = 0;

	while (!READ_ONCE(r->stop)) {
		race_section(r, i);
		i = (i + 1) % RACE_SLOTS;
		cond_resched();
	}
	smp_store_release(&r->reader_done, true);
	return 0;
}

void slub_typesafe_reader_race(struct ktest *t)
{
	static struct ts_race r;
	struct task_struct *w, *rd;
	int rcpu = num_online_cpus() > 1 ? 1 : 0;

	if (rcpu == 0 && !IS_ENABLED(CONFIG_PREEMPT_RCU))
		ktest_skip(t, "one CPU and readers not preemptible: no race");
	memset(&r, 0, sizeof(r));
	r.s = ts_cache(t, "slub-t-typesafe-race");
	race_round(&r, 0);
	/* The writer preempts the reader (one CPU) or runs beside it. */
	w = ktest_kthread(race_writer, &r, "ts-writer", 0, SCHED_FIFO, 10);
	KTEST_ASSERT_TRUE(t, w != NULL);
	rd = ktest_kthread(race_reader, &r, "ts-reader", rcpu, SCHED_NORMAL, 0);
	KTEST_ASSERT_TRUE(t, rd != NULL);
	wake_up_process(rd);
	wake_up_process(w);
	ktest_wait_flag(&r.writer_done);
	ktest_wait_flag(&r.reader_done);

	ktest_info(t, "reader on CPU %d: %lu sections, %lu across a writer round",
		   rcpu, r.sections, r.spanning);
	if (r.bad_magic)
		ktest_fail(t, __FILE__, __LINE__,
			   "%lu reads saw a stamp of %#llx, not %#llx",
			   r.bad_magic, (unsigned long long)r.bad_value,
			   (unsigned long long)TS_MAGIC);
	KTEST_EXPECT_EQ(t, r.bad_page, 0);
	KTEST_EXPECT_EQ(t, r.nulls, 0);
	/* The race was run: sections did overlap the frees. */
	KTEST_EXPECT_GT(t, r.spanning, 0);

	for (int i = 0; i < RACE_SLOTS; i++)
		if (r.slot[i])
			kmem_cache_free(r.s, r.slot[i]);
	slub_t_expect_empty(t, r.s, "after the race");
	kmem_cache_destroy(r.s);
}

/* ------------------------------------------- destroy with callbacks */

#define DESTROY_SLABS	8

/*
 * Objects of DESTROY_SLABS slabs, all freed: kmem_cache_destroy()'s
 * shutdown discards every slab through call_rcu().  When it returns, the
 * callbacks must have run: no page of the cache may still be its slab
 * (checked at once, before anything sleeps), and the free page count is
 * back at the baseline.
 */
static void destroy_typesafe_cycle(struct ktest *t, bool check)
{
	static void *p[DESTROY_SLABS * 64];
	static struct page *pages[DESTROY_SLABS * 64];
	struct kmem_cache *s = ts_cache(t, "slub-t-typesafe-destroy");
	int n = min_t(int, DESTROY_SLABS * oo_objects(s->oo), ARRAY_SIZE(p));
	int npages = 0, still_slab = 0;

	for (int i = 0; i < n; i++) {
		p[i] = kmem_cache_alloc(s, GFP_KERNEL);
		KTEST_ASSERT_TRUE(t, p[i] != NULL);
		pages[npages] = virt_to_head_page(p[i]);
		if (!npages || pages[npages - 1] != pages[npages])
			npages++;
	}
	for (int i = 0; i < n; i++)
		kmem_cache_free(s, p[i]);
	kmem_cache_destroy(s);
	for (int i = 0; i < npages; i++)
		still_slab += ts_slab_of(pages[i], s);
	if (check && still_slab)
		ktest_fail(t, __FILE__, __LINE__,
			   "kmem_cache_destroy() returned with %d of %d slabs not yet freed",
			   still_slab, npages);
}

static void slub_typesafe_destroy_body(struct ktest *t)
{
	unsigned long f0, f1;
	u64 mark;

	destroy_typesafe_cycle(t, false);
	slub_t_free_pages();
	f0 = slub_t_free_pages();
	mark = ktest_log_mark();
	destroy_typesafe_cycle(t, true);
	f1 = slub_t_free_pages();
	KTEST_EXPECT_FALSE(t, ktest_log_contains(mark, "still has objects"));
	if (f1 != f0)
		ktest_fail(t, __FILE__, __LINE__,
			   "TYPESAFE_BY_RCU create, use, destroy: %ld pages not back (baseline %lu, now %lu)",
			   (long)(f0 - f1), f0, f1);
}

void slub_typesafe_destroy(struct ktest *t)
{
	slub_t_run_pinned(t, 0, slub_typesafe_destroy_body);
}
