// SPDX-License-Identifier: GPL-2.0
/*
 * Shrinkers (mm/vmscan.c): do_shrink_slab()'s scan arithmetic on shrinkers
 * whose counts are made up (exact batch counts, deferred carry-over, the
 * 2 * freeable caps, SHRINK_STOP), shrink_slab() visiting every registered
 * shrinker, no callback of an unregistered shrinker running once
 * unregister_shrinker() has returned, and what shrink_slab() does while a
 * registrant holds the list's lock: with SHRINKER_RWSEM it gives up (the
 * trylock fails), with SHRINKER_SRCU or SHRINKER_REFCOUNT it scans.
 */
#include <linux/ktest.h>
#include <linux/shrinker.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/delay.h>
#include <linux/completion.h>
#include <linux/slab.h>
#include "slub_test.h"

struct test_shrinker {
	struct shrinker shrinker;
	unsigned long freeable;		/* what count_objects() reports */
	unsigned long stop_after;	/* scan calls before SHRINK_STOP; 0: never */
	bool always_stop;		/* every scan call returns SHRINK_STOP */
	unsigned long count_calls, scan_calls, scanned;
	unsigned long first_nr_to_scan, last_nr_to_scan;
	/* For the unregister race. */
	unsigned int sleep_ms;		/* in count_objects() */
	volatile bool inside, gone;
	unsigned long late_calls;	/* calls that began after unregister returned */
};

static unsigned long ts_count(struct shrinker *s, struct shrink_control *sc)
{
	struct test_shrinker *ts = container_of(s, struct test_shrinker, shrinker);

	if (READ_ONCE(ts->gone))
		ts->late_calls++;
	WRITE_ONCE(ts->inside, true);
	ts->count_calls++;
	if (ts->sleep_ms)
		msleep(ts->sleep_ms);
	if (READ_ONCE(ts->gone))
		ts->late_calls++;
	WRITE_ONCE(ts->inside, false);
	return ts->freeable;
}

static unsigned long ts_scan(struct shrinker *s, struct shrink_control *sc)
{
	struct test_shrinker *ts = container_of(s, struct test_shrinker, shrinker);

	ts->scan_calls++;
	if (ts->always_stop || (ts->stop_after && ts->scan_calls > ts->stop_after))
		return SHRINK_STOP;
	if (ts->scan_calls == 1)
		ts->first_nr_to_scan = sc->nr_to_scan;
	ts->last_nr_to_scan = sc->nr_to_scan;
	ts->scanned += sc->nr_to_scan;
	return sc->nr_to_scan;
}

static void ts_init(struct test_shrinker *ts, unsigned long freeable, int seeks, long batch)
{
	memset(ts, 0, sizeof(*ts));
	ts->freeable = freeable;
	ts->shrinker.count_objects = ts_count;
	ts->shrinker.scan_objects = ts_scan;
	ts->shrinker.seeks = seeks;
	ts->shrinker.batch = batch;
}

static unsigned long ts_shrink(struct test_shrinker *ts, int priority)
{
	struct shrink_control sc = { .gfp_mask = GFP_KERNEL, .nid = 0 };

	ts->scan_calls = 0;
	ts->scanned = 0;
	return do_shrink_slab(&sc, &ts->shrinker, priority);
}

static long ts_deferred(struct test_shrinker *ts)
{
	return atomic_long_read(&ts->shrinker.nr_deferred[0]);
}

/*
 * freeable 10000, priority 2, seeks 2: (10000 >> 2) * 4 / 2 = 5000 to scan,
 * 39 default batches of 128 (4992), 8 left over and deferred.  The next
 * call adds 8 >> 2 = 2 to 5000: again 39 batches, 10 left, 16 deferred.
 */
static void do_shrink_slab_batches_and_deferred(struct ktest *t)
{
	static struct test_shrinker ts;

	ts_init(&ts, 10000, DEFAULT_SEEKS, 0);
	KTEST_ASSERT_EQ(t, prealloc_shrinker(&ts.shrinker), 0);
	KTEST_EXPECT_EQ(t, ts_shrink(&ts, 2), 4992);
	KTEST_EXPECT_EQ(t, ts.scan_calls, 39);
	KTEST_EXPECT_EQ(t, ts.first_nr_to_scan, SHRINK_BATCH);
	KTEST_EXPECT_EQ(t, ts_deferred(&ts), 8);
	KTEST_EXPECT_EQ(t, ts_shrink(&ts, 2), 4992);
	KTEST_EXPECT_EQ(t, ts_deferred(&ts), 16);
	/* priority 12: 10000 >> 12 = 2, * 4 / 2 = 4; 16 >> 12 = 0: under a batch */
	KTEST_EXPECT_EQ(t, ts_shrink(&ts, DEF_PRIORITY), 0);
	KTEST_EXPECT_EQ(t, ts.scan_calls, 0);
	KTEST_EXPECT_EQ(t, ts_deferred(&ts), 20);
	free_prealloced_shrinker(&ts.shrinker);
}

/*
 * A cache smaller than its batch is scanned whole when all of it is due:
 * freeable 300, batch 1000, priority 0, seeks 2 gives 600, capped at
 * 2 * 300; one call of 600, nothing deferred.  seeks 0 scans freeable / 2.
 */
static void do_shrink_slab_small_cache_and_seeks(struct ktest *t)
{
	static struct test_shrinker ts;

	ts_init(&ts, 300, DEFAULT_SEEKS, 1000);
	KTEST_ASSERT_EQ(t, prealloc_shrinker(&ts.shrinker), 0);
	KTEST_EXPECT_EQ(t, ts_shrink(&ts, 0), 600);
	KTEST_EXPECT_EQ(t, ts.scan_calls, 1);
	KTEST_EXPECT_EQ(t, ts.first_nr_to_scan, 600);
	KTEST_EXPECT_EQ(t, ts_deferred(&ts), 0);
	free_prealloced_shrinker(&ts.shrinker);

	ts_init(&ts, 1000, 0, 100);
	KTEST_ASSERT_EQ(t, prealloc_shrinker(&ts.shrinker), 0);
	KTEST_EXPECT_EQ(t, ts_shrink(&ts, DEF_PRIORITY), 500);
	KTEST_EXPECT_EQ(t, ts.scan_calls, 5);
	KTEST_EXPECT_EQ(t, ts_deferred(&ts), 0);
	free_prealloced_shrinker(&ts.shrinker);
}

/*
 * SHRINK_STOP ends the scan and defers what was not done: freeable 10000,
 * priority 2, 3 batches then STOP: 384 freed, 5000 - 384 = 4616 deferred.
 * A shrinker that always stops keeps a debt of at most 2 * freeable.
 */
static void do_shrink_slab_stop_and_cap(struct ktest *t)
{
	static struct test_shrinker ts;

	ts_init(&ts, 10000, DEFAULT_SEEKS, 0);
	ts.stop_after = 3;
	KTEST_ASSERT_EQ(t, prealloc_shrinker(&ts.shrinker), 0);
	KTEST_EXPECT_EQ(t, ts_shrink(&ts, 2), 384);
	KTEST_EXPECT_EQ(t, ts.scan_calls, 4);
	KTEST_EXPECT_EQ(t, ts_deferred(&ts), 4616);
	free_prealloced_shrinker(&ts.shrinker);

	/* 100, priority 0: 200 due, a debt of 200 that never grows past 2 * 100 */
	ts_init(&ts, 100, DEFAULT_SEEKS, 0);
	ts.always_stop = true;
	KTEST_ASSERT_EQ(t, prealloc_shrinker(&ts.shrinker), 0);
	for (int i = 0; i < 3; i++) {
		KTEST_EXPECT_EQ(t, ts_shrink(&ts, 0), 0);
		KTEST_EXPECT_EQ(t, ts.scan_calls, 1);
		KTEST_EXPECT_EQ(t, ts_deferred(&ts), 200);
	}
	free_prealloced_shrinker(&ts.shrinker);
}

/* count_objects() of 0 or SHRINK_EMPTY: returned as is, nothing scanned. */
static void do_shrink_slab_empty(struct ktest *t)
{
	static struct test_shrinker ts;

	ts_init(&ts, 0, DEFAULT_SEEKS, 0);
	KTEST_ASSERT_EQ(t, prealloc_shrinker(&ts.shrinker), 0);
	KTEST_EXPECT_EQ(t, ts_shrink(&ts, 0), 0);
	ts.freeable = SHRINK_EMPTY;
	KTEST_EXPECT_EQ(t, ts_shrink(&ts, 0), SHRINK_EMPTY);
	KTEST_EXPECT_EQ(t, ts.scan_calls, 0);
	KTEST_EXPECT_EQ(t, ts_deferred(&ts), 0);
	free_prealloced_shrinker(&ts.shrinker);
}

#define NR_TS	5

/* Every registered shrinker is asked once per shrink_slab(); SHRINK_EMPTY counts 0. */
static void shrink_slab_visits_every_shrinker(struct ktest *t)
{
	static struct test_shrinker ts[NR_TS];
	unsigned int before = shrinker_count();
	unsigned long freed;

	for (int i = 0; i < NR_TS; i++) {
		ts_init(&ts[i], i == 0 ? SHRINK_EMPTY : 1000, DEFAULT_SEEKS, 0);
		KTEST_ASSERT_EQ(t, register_shrinker(&ts[i].shrinker), 0);
	}
	KTEST_EXPECT_EQ(t, shrinker_count(), before + NR_TS);
	/* priority 0: each non-empty one has 2000 due: 15 batches, 1920 freed */
	freed = shrink_slab(GFP_KERNEL, 0, NULL, 0);
	for (int i = 0; i < NR_TS; i++)
		KTEST_EXPECT_EQ(t, ts[i].count_calls, 1);
	KTEST_EXPECT_GE(t, freed, 4 * 1920);
	for (int i = 0; i < NR_TS; i++)
		unregister_shrinker(&ts[i].shrinker);
	KTEST_EXPECT_EQ(t, shrinker_count(), before);
	shrink_slab(GFP_KERNEL, 0, NULL, 0);
	for (int i = 0; i < NR_TS; i++)
		KTEST_EXPECT_EQ(t, ts[i].count_calls, 1);
	KTEST_EXPECT_FALSE(t, ts[0].shrinker.flags & SHRINKER_REGISTERED);
}

struct shrink_loop {
	volatile bool stop;
	unsigned long calls;
	struct completion done;
};

static int shrink_loop_fn(void *arg)
{
	struct shrink_loop *l = arg;

	while (!READ_ONCE(l->stop)) {
		shrink_slab(GFP_KERNEL, 0, NULL, DEF_PRIORITY);
		l->calls++;
		msleep(1);
	}
	complete(&l->done);
	return 0;
}

/*
 * A shrinker whose count_objects() sleeps is unregistered while another
 * thread's shrink_slab() is inside it, 20 times over: once
 * unregister_shrinker() has returned, no call is in progress and none
 * begins.
 */
static void unregistered_shrinker_never_called(struct ktest *t)
{
	static struct test_shrinker ts;
	static struct shrink_loop l;
	struct task_struct *p;
	int caught_inside = 0;

	memset(&l, 0, sizeof(l));
	init_completion(&l.done);
	ts_init(&ts, 0, DEFAULT_SEEKS, 0);
	ts.sleep_ms = 3;
	p = ktest_kthread(shrink_loop_fn, &l, "shrink_loop", num_online_cpus() > 1 ? 1 : -1,
			  SCHED_NORMAL, 0);
	KTEST_ASSERT_TRUE(t, p);
	wake_up_process(p);
	for (int round = 0; round < 20; round++) {
		unsigned long calls;

		WRITE_ONCE(ts.gone, false);
		KTEST_ASSERT_EQ(t, register_shrinker(&ts.shrinker), 0);
		/* Unregister while the loop sleeps inside count_objects(). */
		for (int i = 0; i < 2000 && !READ_ONCE(ts.inside); i++)
			msleep(1);
		if (READ_ONCE(ts.inside))
			caught_inside++;
		unregister_shrinker(&ts.shrinker);
		WRITE_ONCE(ts.gone, true);
		KTEST_EXPECT_FALSE(t, READ_ONCE(ts.inside));
		calls = ts.count_calls;
		msleep(10);
		KTEST_EXPECT_EQ(t, ts.count_calls, calls);
	}
	WRITE_ONCE(l.stop, true);
	wait_for_completion(&l.done);
	KTEST_EXPECT_EQ(t, ts.late_calls, 0);
	KTEST_EXPECT_EQ(t, caught_inside, 20);
	ktest_info(t, "%lu shrink_slab() calls, %lu count_objects() calls", l.calls,
		   ts.count_calls);
}

struct shrink_once {
	unsigned long freed;
	volatile bool done_flag;
	struct completion done;
};

static int shrink_once_fn(void *arg)
{
	struct shrink_once *o = arg;

	o->freed = shrink_slab(GFP_KERNEL, 0, NULL, 0);
	WRITE_ONCE(o->done_flag, true);
	complete(&o->done);
	return 0;
}

/*
 * A registrant holds the list's lock while another thread calls
 * shrink_slab(): that call must return at once either way; under
 * SHRINKER_RWSEM without having scanned (down_read_trylock() fails), under
 * SHRINKER_SRCU or SHRINKER_REFCOUNT having scanned (readers take no lock a
 * registrant holds).
 */
static void shrink_slab_while_registrant_holds_lock(struct ktest *t)
{
	static struct test_shrinker ts;
	static struct shrink_once o;
	struct task_struct *p;
	bool returned;

	ts_init(&ts, 1000, DEFAULT_SEEKS, 0);
	KTEST_ASSERT_EQ(t, register_shrinker(&ts.shrinker), 0);
	memset(&o, 0, sizeof(o));
	init_completion(&o.done);
	shrinker_list_lock();
	p = ktest_kthread(shrink_once_fn, &o, "shrink_once", -1, SCHED_NORMAL, 0);
	if (!p)
		shrinker_list_unlock();
	KTEST_ASSERT_TRUE(t, p);
	wake_up_process(p);
	for (int i = 0; i < 2000 && !READ_ONCE(o.done_flag); i++)
		msleep(1);
	returned = READ_ONCE(o.done_flag);
	shrinker_list_unlock();
	wait_for_completion(&o.done);
	KTEST_EXPECT_TRUE(t, returned);
	if (IS_ENABLED(CONFIG_SHRINKER_RWSEM)) {
		KTEST_EXPECT_EQ(t, ts.count_calls, 0);
		KTEST_EXPECT_EQ(t, o.freed, 0);
	} else {
		KTEST_EXPECT_EQ(t, ts.count_calls, 1);
		KTEST_EXPECT_GE(t, o.freed, 1920);
	}
	/* With the lock free, both variants scan. */
	shrink_slab(GFP_KERNEL, 0, NULL, 0);
	KTEST_EXPECT_EQ(t, ts.count_calls, IS_ENABLED(CONFIG_SHRINKER_RWSEM) ? 1 : 2);
	unregister_shrinker(&ts.shrinker);
	ktest_info(t, "variant %s", SHRINKER_VARIANT);
}

/* The boot registers the "slab" shrinker: reclaim reaches the caches. */
static void slab_shrinker_registered_at_boot(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, kmem_cache_shrinker_register(), -EBUSY);
}

/*
 * The "slab" shrinker reaches kmem_cache_shrink(): a cache left holding
 * only empty slabs (its CPU slab, partial lists) has none after one
 * shrink_slab() at priority 0, and keeps them while that shrinker (which
 * the boot registers) is unregistered.
 */
static void slab_shrinker_frees_empty_slabs(struct ktest *t)
{
#ifdef CONFIG_SLUB_DEBUG
	static void *p[16 * 64];
	struct kmem_cache *s;
	unsigned int objs;
	int n;

	s = slub_t_cache(t, "shrinker-t", 512, 0, SLUB_T_NOMERGE, NULL);
	objs = oo_objects(s->oo);
	n = min_t(int, 16 * objs, ARRAY_SIZE(p));
	for (int i = 0; i < n; i++) {
		p[i] = kmem_cache_alloc(s, GFP_KERNEL);
		KTEST_ASSERT_TRUE(t, p[i] != NULL);
	}
	for (int i = 0; i < n; i++)
		kmem_cache_free(s, p[i]);
	KTEST_EXPECT_GE(t, slub_t_slabs(s), 1);
	kmem_cache_shrinker_unregister();
	shrink_slab(GFP_KERNEL, 0, NULL, 0);
	KTEST_EXPECT_GE(t, slub_t_slabs(s), 1);		/* not registered */
	KTEST_ASSERT_EQ(t, kmem_cache_shrinker_register(), 0);
	shrink_slab(GFP_KERNEL, 0, NULL, 0);
	KTEST_EXPECT_EQ(t, slub_t_slabs(s), 0);
	kmem_cache_destroy(s);
#else
	ktest_skip(t, "needs CONFIG_SLUB_DEBUG to count slabs");
#endif
}

static struct ktest_case shrinker_cases[] = {
	KTEST_CASE(slab_shrinker_registered_at_boot),
	KTEST_CASE(slab_shrinker_frees_empty_slabs),
	KTEST_CASE(do_shrink_slab_batches_and_deferred),
	KTEST_CASE(do_shrink_slab_small_cache_and_seeks),
	KTEST_CASE(do_shrink_slab_stop_and_cap),
	KTEST_CASE(do_shrink_slab_empty),
	KTEST_CASE(shrink_slab_visits_every_shrinker),
	KTEST_CASE(unregistered_shrinker_never_called),
	KTEST_CASE(shrink_slab_while_registrant_holds_lock),
	{}
};

static struct ktest_suite shrinker_suite = {
	.name = "shrinker", .cases = shrinker_cases,
};
ktest_register_suite(shrinker_suite);
