// SPDX-License-Identifier: GPL-2.0
/*
 * The slub_race suite: same-CPU races against ___slab_alloc's pop of
 * c->partial, the window v2r3 of the series left open on PREEMPT_RT
 * (CONFIG_SLUB_BUG_PARTIAL_CMPXCHG re-injects it).
 *
 * One CPU runs an allocator (SCHED_NORMAL) and a freer (SCHED_FIFO) that
 * a hard hrtimer wakes every period.  The cache has tiny slabs (2048-byte
 * objects, two to an order-0 slab with slub_max_order=0), so nearly every
 * allocation retires a full CPU slab and pops c->partial.  The allocator
 * hands what it gets to the freer through a ring; the freer, when it
 * preempts, first frees an object of a full slab (so __slab_free freezes
 * it and pushes it with put_cpu_partial, or drains c->partial) and then
 * the rest of the ring.  If the push or the drain lands between the pop's
 * read of c->partial and its write, a slab falls off c->partial (a frozen
 * slab on no list: its objects never come back) or is both the CPU slab
 * and on a node list (objects handed out twice).
 *
 * Under icount the period is swept in 1 ns steps, one cache per period,
 * so the interrupt falls on every instruction of the allocator's loop.
 * Each period ends with everything freed and checked, without slub_debug
 * (any debug flag turns CPU partials off):
 *   - an address handed out while live (a bitmap by address);
 *   - slub_check_consistency(): node partial lists, CPU slab and CPU
 *     partial chain, frozen state, counters against freelists;
 *   - with everything freed, kmem_cache_shrink() must leave no slab
 *     (SLUB_DEBUG counts slabs per node, lost frozen ones included);
 *   - kmem_cache_destroy() must not report "still has objects".
 * A period that sees any of them is a hit; the case asserts no hit.
 */
#include <linux/ktest.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/kthread.h>
#include <linux/hrtimer.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/string.h>
#include "slub_test.h"

static unsigned int race_offset;
core_param_range("slub_race.offset", race_offset, uint, 0, 1000000,
		 "ns added to every period of the sweep");
static unsigned int race_sweep = 256;
core_param_range("slub_race.sweep", race_sweep, uint, 1, 100000,
		 "periods in the sweep (1 ns apart)");
static unsigned int race_period = 100000;
core_param_range("slub_race.period", race_period, uint, 20000, 10000000,
		 "first period of the sweep, ns");
static unsigned int race_ticks = 100;
core_param_range("slub_race.ticks", race_ticks, uint, 2, 1000000,
		 "timer periods per sweep step");
static unsigned int race_size = 2048;
core_param_range("slub_race.size", race_size, uint, 1024, 4096,
		 "object size of the raced cache");
static int race_cpu = -1;
core_param_range("slub_race.cpu", race_cpu, int, -1, CONFIG_NR_CPUS - 1,
		 "CPU of the allocator and freer (-1: the last online CPU)");

#define RACE_RING	1024		/* power of two */
#define RACE_BATCH	1		/* objects freed per wake-up at most */
#define RACE_SCAN	16		/* ring slots searched for a full slab */
#define RACE_POOL	64		/* objects the allocator holds */
#define RACE_PUSH	4		/* frees (c->partial pushes) per round */
#define RACE_HANDOFF	32		/* ring fill the allocator tops up to */
/* Live bitmap: one bit per object-sized unit of up to 1 GiB of RAM. */
#define RACE_LIVE_BITS	((1UL << 30) / 1024)

static unsigned long race_live[BITS_TO_LONGS(RACE_LIVE_BITS)];

struct race {
	struct kmem_cache *s;
	struct hrtimer timer;
	struct task_struct *alloc_task, *freer_task;
	struct completion done;
	unsigned long gen;		/* bumped to start the allocator */
	unsigned long period;
	unsigned int ticks, nr_ticks;
	bool stop, kick, quit, freer_busy;
	/* ring: head written by the allocator, tail by the freer */
	void *ring[RACE_RING];
	void *pool[RACE_POOL];
	unsigned int head, tail;
	/* per step */
	unsigned long allocs, frees, full_first, dups, range;
};

static struct race race;

static unsigned long live_index(struct race *r, void *x)
{
	return __pa(x) / r->s->size;
}

/* Mark @x live; false if it already was (handed out twice) or unindexable. */
static bool live_set(struct race *r, void *x)
{
	unsigned long i = live_index(r, x);

	if (i >= RACE_LIVE_BITS) {
		r->range++;
		return true;
	}
	return !test_and_set_bit(i, race_live);
}

static void live_clear(struct race *r, void *x)
{
	unsigned long i = live_index(r, x);

	if (i < RACE_LIVE_BITS)
		clear_bit(i, race_live);
}

/* Full, and no CPU's slab or partial: a free into it calls put_cpu_partial. */
static bool slab_is_full(void *x)
{
	struct page *page = virt_to_head_page(x);

	return !page->frozen && page->inuse == page->objects;
}

/*
 * Free one object of each of up to @max full slabs in @pool (@size slots,
 * looked at from slot @at round): each free pushes its slab on c->partial.
 * The slots freed are emptied; returns how many.
 */
static unsigned int push_full_slabs(void **pool, unsigned int size,
				    unsigned int at, unsigned int max,
				    void (*free_one)(void *ctx, void *x), void *ctx)
{
	unsigned int i, n = 0;

	for (i = 0; i < size && n < max; i++) {
		unsigned int j = (at + i) % size;

		if (pool[j] && slab_is_full(pool[j])) {
			free_one(ctx, pool[j]);
			pool[j] = NULL;
			n++;
		}
	}
	return n;
}

/* The freer's turn: one object of a full slab first, then the ring. */
static void race_free_batch(struct race *r)
{
	unsigned int head = smp_load_acquire(&r->head);
	unsigned int tail = r->tail;
	unsigned int n = 0;

	for (unsigned int i = tail; i != head && i - tail < RACE_SCAN; i++) {
		void *x = r->ring[i % RACE_RING];

		if (slab_is_full(x)) {
			r->ring[i % RACE_RING] = r->ring[tail % RACE_RING];
			r->ring[tail % RACE_RING] = x;
			r->full_first++;
			break;
		}
	}
	while (tail != head && n++ < RACE_BATCH) {
		void *x = r->ring[tail % RACE_RING];

		live_clear(r, x);
		kmem_cache_free(r->s, x);
		r->frees++;
		tail++;
		smp_store_release(&r->tail, tail);
	}
}

static enum hrtimer_restart race_timer_fn(struct hrtimer *timer)
{
	struct race *r = container_of(timer, struct race, timer);

	if (++r->ticks >= r->nr_ticks) {
		WRITE_ONCE(r->stop, true);
		return HRTIMER_NORESTART;
	}
	WRITE_ONCE(r->kick, true);
	wake_up_process(r->freer_task);
	hrtimer_forward_now(timer, ns_to_ktime(r->period));
	return HRTIMER_RESTART;
}

static int race_freer(void *data)
{
	struct race *r = data;

	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (READ_ONCE(r->quit))
			break;
		if (!READ_ONCE(r->kick)) {
			schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);
		WRITE_ONCE(r->freer_busy, true);
		WRITE_ONCE(r->kick, false);
		race_free_batch(r);
		WRITE_ONCE(r->freer_busy, false);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static void *race_alloc_one(struct race *r)
{
	void *x = kmem_cache_alloc(r->s, GFP_KERNEL);

	if (!x) {
		WRITE_ONCE(r->stop, true);
		return NULL;
	}
	r->allocs++;
	if (!live_set(r, x)) {
		/* Leave it live: freeing it twice would only add damage. */
		r->dups++;
		WRITE_ONCE(r->stop, true);
		return NULL;
	}
	return x;
}

static void race_free_one(struct race *r, void *x)
{
	live_clear(r, x);
	kmem_cache_free(r->s, x);
	r->frees++;
}

/*
 * Keep c->partial busy: free one object of each of up to RACE_PUSH full
 * slabs (each free pushes its slab on c->partial), then allocate as many
 * back (each allocation retires a full CPU slab and pops c->partial).
 * Now and then an object goes to the freer instead, replaced by a new one.
 */
static void race_free_cb(void *r, void *x)
{
	race_free_one(r, x);
}

static void race_alloc_loop(struct race *r)
{
	unsigned int i, at = 0;

	for (i = 0; i < RACE_POOL; i++)
		r->pool[i] = NULL;
	while (!READ_ONCE(r->stop)) {
		push_full_slabs(r->pool, RACE_POOL, at, RACE_PUSH,
				race_free_cb, r);
		at += 7;
		if (r->head - READ_ONCE(r->tail) < RACE_HANDOFF) {
			unsigned int j = at % RACE_POOL;

			if (r->pool[j]) {
				r->ring[r->head % RACE_RING] = r->pool[j];
				smp_store_release(&r->head, r->head + 1);
				r->pool[j] = NULL;
			}
		}
		for (i = 0; i < RACE_POOL && !READ_ONCE(r->stop); i++)
			if (!r->pool[i])
				r->pool[i] = race_alloc_one(r);
	}
	for (i = 0; i < RACE_POOL; i++)
		if (r->pool[i])
			race_free_one(r, r->pool[i]);
}

static int race_allocator(void *data)
{
	struct race *r = data;
	unsigned long seen = 0;

	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (READ_ONCE(r->quit))
			break;
		if (smp_load_acquire(&r->gen) == seen) {
			schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);
		seen = READ_ONCE(r->gen);
		hrtimer_start(&r->timer, ns_to_ktime(r->period),
			      HRTIMER_MODE_REL_PINNED_HARD);
		race_alloc_loop(r);
		hrtimer_cancel(&r->timer);
		complete(&r->done);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

struct race_totals {
	unsigned int hits, dup_steps, bad_steps, leak_steps, destroy_steps;
	unsigned long allocs, frees, full_first, leaked_slabs;
};

/* One step of the sweep; true if it saw the race. */
static bool race_step(struct ktest *t, struct race *r, unsigned int k,
		      struct race_totals *tot)
{
	long slabs = 0;
	int bad, shrink;
	bool destroy_failed = false;
	u64 mark;

	r->s = kmem_cache_create("slub-race", race_size, 0, SLUB_T_NOMERGE,
				 NULL);
	KTEST_ASSERT_TRUE(t, r->s != NULL);
	memset(race_live, 0, sizeof(race_live));
	r->head = r->tail = 0;
	r->allocs = r->frees = r->full_first = r->dups = r->range = 0;
	r->ticks = 0;
	r->nr_ticks = race_ticks;
	r->period = race_period + race_offset + k;
	WRITE_ONCE(r->stop, false);
	WRITE_ONCE(r->kick, false);
	reinit_completion(&r->done);
	smp_store_release(&r->gen, r->gen + 1);
	wake_up_process(r->alloc_task);
	wait_for_completion(&r->done);
	while (READ_ONCE(r->freer_busy) || READ_ONCE(r->kick))
		msleep(1);

	tot->allocs += r->allocs;
	tot->full_first += r->full_first;
	KTEST_EXPECT_EQ(t, r->range, 0);

	/* Quiescent: check before freeing, a corrupt cache is left alone. */
	bad = slub_check_consistency(r->s);
	if (r->dups || bad) {
		pr_err("slub_race: period %lu ns: %lu object(s) handed out twice, %d inconsistencies; cache left as is\n",
		       r->period, r->dups, bad);
		tot->dup_steps += !!r->dups;
		tot->bad_steps += !!bad;
		r->s = NULL;
		return true;
	}

	while (r->tail != r->head) {
		void *x = r->ring[r->tail++ % RACE_RING];

		live_clear(r, x);
		kmem_cache_free(r->s, x);
		r->frees++;
	}
	tot->frees += r->frees;

	shrink = kmem_cache_shrink(r->s);
	slabs = slub_t_slabs(r->s);
	if (shrink || slabs > 0) {
		pr_err("slub_race: period %lu ns: %ld slab(s) left after freeing everything and shrinking (lost from c->partial)\n",
		       r->period, slabs);
		tot->leak_steps++;
		tot->leaked_slabs += slabs > 0 ? slabs : 0;
	}
	mark = ktest_log_mark();
	kmem_cache_destroy(r->s);
	if (ktest_log_contains(mark, "still has objects")) {
		pr_err("slub_race: period %lu ns: kmem_cache_destroy found objects after everything was freed\n",
		       r->period);
		tot->destroy_steps++;
		destroy_failed = true;
	}
	r->s = NULL;
	return shrink || slabs > 0 || destroy_failed;
}

static void slub_partial_cmpxchg_race(struct ktest *t)
{
	struct race *r = &race;
	struct race_totals tot = {};
	int cpu = race_cpu;
	u64 t0 = ktime_get_ns();
	unsigned int k;

	if (cpu < 0 || !cpu_online(cpu))
		cpu = nr_cpu_ids - 1;
	while (cpu > 0 && !cpu_online(cpu))
		cpu--;

	memset(r, 0, sizeof(*r));
	init_completion(&r->done);
	hrtimer_init(&r->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	r->timer.function = race_timer_fn;
	r->freer_task = ktest_kthread(race_freer, r, "slub-race-free", cpu,
				      SCHED_FIFO, 50);
	r->alloc_task = ktest_kthread(race_allocator, r, "slub-race-alloc",
				      cpu, SCHED_NORMAL, 0);
	KTEST_ASSERT_TRUE(t, r->freer_task && r->alloc_task);
	wake_up_process(r->freer_task);
	wake_up_process(r->alloc_task);

	for (k = 0; k < race_sweep; k++)
		if (race_step(t, r, k, &tot))
			tot.hits++;

	WRITE_ONCE(r->quit, true);
	wake_up_process(r->freer_task);
	wake_up_process(r->alloc_task);

	ktest_info(t, "cpu=%d size=%u periods %u..%u ns x %u ticks (%s)", cpu,
		   race_size, race_period + race_offset,
		   race_period + race_offset + race_sweep - 1, race_ticks,
		   ktest_clock_mode());
	ktest_info(t, "allocs=%lu frees=%lu full-slab first frees=%lu elapsed=%lu ms",
		   tot.allocs, tot.frees, tot.full_first,
		   (unsigned long)((ktime_get_ns() - t0) / 1000000));
	ktest_info(t, "double handouts=%u inconsistent=%u leaked=%u (%lu slabs) destroy-failed=%u",
		   tot.dup_steps, tot.bad_steps, tot.leak_steps,
		   tot.leaked_slabs, tot.destroy_steps);
	ktest_info(t, "hits=%u iterations=%u", tot.hits, race_sweep);
	/* The loop must have exercised the slow path, or the sweep proves nothing. */
	KTEST_EXPECT_GT(t, tot.full_first, 0);
	KTEST_EXPECT_EQ(t, tot.hits, 0);
}

static struct ktest_case slub_race_cases[] = {
	KTEST_CASE(slub_partial_cmpxchg_race),
	{}
};

static struct ktest_suite slub_race_suite = {
	.name = "slub_race",
	.cases = slub_race_cases,
};
ktest_register_suite(slub_race_suite);

#ifdef CONFIG_SLUB_SCOPE_PROBE
/*
 * The slub_window suite: the same-CPU interleavings of ___slab_alloc's
 * unlocked windows, reached on purpose instead of by a timer's luck.
 * SLUB calls slub_window() (mm/slub.h) where it has read per-CPU state
 * without its lock and acts on it later; there the test runs what an
 * interrupt (pinned, !RT) or a preempting task (unpinned, or RT) could
 * run on this CPU: it allocates from, or frees to, the same cache.
 *
 * slub_window_alloc: one pinned task keeps the slow paths busy (it frees
 * an object of a full slab, which pushes c->partial, and allocates back,
 * which retires the CPU slab) while every window it passes allocates or
 * frees a few objects of the same cache.  Post-series the windows are
 * the read of c->page before the lock, the look at c->partial before the
 * lock, the lock re-taken with a new slab in hand and the page allocator
 * (unpinned); pre-series only the page allocator, where allocate_slab()
 * turns interrupts back on.  After each round, with everything quiet:
 *   - no address handed out twice;
 *   - slub_check_consistency(): counters against freelists, CPU slabs
 *     frozen and owned by one CPU and on no node list (a stale slab
 *     taken as the CPU slab shows here);
 *   - slub_check_frozen_owned(): no frozen slab that no CPU owns among
 *     the slabs the test saw (a CPU slab replaced without deactivation,
 *     a pop of c->partial lost);
 * and at the end, everything freed, the cache shrinks to no slab.
 *
 * slub_window_missing_tid: the interleaving "mm/slub: add missing TID
 * updates on slab deactivation" closed, staged with two tasks:
 *   A: frees x, an object of the full CPU slab P, by the fast path; in
 *      its window (tid and c->page read, before the cmpxchg) it waits;
 *   B: allocates: c->freelist is empty, P has no remote frees, so the
 *      slow path drops P (DEACTIVATE_BYPASS) and goes for a new slab; in
 *      the page allocator's window it lets A finish;
 *   A: the cmpxchg on (c->freelist, c->tid) must fail, as the tid moved
 *      when P was dropped; with the bug it succeeds, and x sits on
 *      c->freelist of no CPU slab until B loads its new slab over it;
 *   B: finishes.
 * With the bug, x is lost: P never empties, the cache cannot shrink to
 * nothing and kmem_cache_destroy() reports objects.
 */

#define WIN_POOL	64		/* objects the worker holds */
#define WIN_NEST	6		/* objects the windows hold */
#define WIN_PAGES	4096		/* slabs remembered (hash) */

static unsigned int win_rounds = 20;
core_param_range("slub_window.rounds", win_rounds, uint, 1, 100000,
		 "rounds of slub_window_alloc (each ends with the checks)");
static unsigned int win_iters = 100;
core_param_range("slub_window.iters", win_iters, uint, 1, 1000000,
		 "pool refills per round of slub_window_alloc");
static unsigned long win_seed = 1;
core_param("slub_window.seed", win_seed, ulong,
	   "seed of the windows' choices (0: from the clock)");

struct win_state {
	struct kmem_cache *s;
	struct task_struct *worker;
	u64 rng;
	bool in_window;
	void *pool[WIN_POOL];
	void *nest[WIN_NEST];
	struct page *pages[WIN_PAGES];
	unsigned int nr_pages, pages_lost;
	unsigned long acted[NR_SLUB_WINDOWS], flushes[NR_SLUB_WINDOWS];
	unsigned long allocs, frees, dups, range, alloc_fail;
};

static struct win_state win;

static const char *const win_names[NR_SLUB_WINDOWS] = {
	[SLUB_WIN_PAGE_READ] = "page_read",
	[SLUB_WIN_PARTIAL_READ] = "partial_read",
	[SLUB_WIN_RELOCK] = "relock",
	[SLUB_WIN_ALLOC_PAGES] = "alloc_pages",
	[SLUB_WIN_FREE_FAST] = "free_fast",
};

/* Remember the slab of @x (open addressing; full table: counted). */
static void win_note_page(struct win_state *w, void *x)
{
	struct page *page = virt_to_head_page(x);
	unsigned int h = (unsigned int)(((unsigned long)page >> 6) * 2654435761u);

	for (unsigned int i = 0; i < WIN_PAGES; i++) {
		struct page **slot = &w->pages[(h + i) % WIN_PAGES];

		if (*slot == page)
			return;
		if (!*slot) {
			*slot = page;
			w->nr_pages++;
			return;
		}
	}
	w->pages_lost++;
}

static void *win_alloc(struct win_state *w, gfp_t gfp)
{
	void *x = kmem_cache_alloc(w->s, gfp);
	unsigned long i;

	if (!x) {
		w->alloc_fail++;
		return NULL;
	}
	w->allocs++;
	win_note_page(w, x);
	i = __pa(x) / w->s->size;
	if (i >= RACE_LIVE_BITS) {
		w->range++;
		return x;
	}
	if (test_and_set_bit(i, race_live)) {
		w->dups++;
		return NULL;	/* left live: freeing it twice adds damage */
	}
	return x;
}

static void win_free(struct win_state *w, void *x)
{
	unsigned long i = __pa(x) / w->s->size;

	if (i < RACE_LIVE_BITS)
		clear_bit(i, race_live);
	kmem_cache_free(w->s, x);
	w->frees++;
}

static void win_free_cb(void *w, void *x)
{
	win_free(w, x);
}

/*
 * What an interrupt or a preempting task does in the window: allocate
 * into an empty nest slot, or free an object (one of a full slab first,
 * so __slab_free freezes it onto c->partial and may drain it).  Nothing
 * where interrupts are off: nothing else runs there on this CPU.
 */
static void win_callback(struct kmem_cache *s, enum slub_window_site wsite)
{
	struct win_state *w = &win;
	gfp_t gfp = preemptible() ? GFP_KERNEL : GFP_ATOMIC;
	unsigned int i, pick;

	if (current != w->worker || w->in_window || irqs_disabled())
		return;
	w->in_window = true;
	w->acted[wsite]++;
	pick = slub_t_rand(&w->rng) % 4;
	for (i = 0; i < WIN_NEST; i++) {
		unsigned int j = (pick + i) % WIN_NEST;

		/* 0: one object; 1: a burst that empties the slab it pops. */
		if (pick < 2 && !w->nest[j]) {
			w->nest[j] = win_alloc(w, gfp);
			if (pick == 0)
				break;
		}
		if (pick >= 2 && w->nest[j]) {
			win_free(w, w->nest[j]);
			w->nest[j] = NULL;
			break;
		}
	}
	/*
	 * Where a task may sleep, now and then another task's shrink: the
	 * flush takes c->page and c->partial away without installing one.
	 */
	if (pick == 2 && preemptible() && !(slub_t_rand(&w->rng) % 8)) {
		kmem_cache_shrink(s);
		w->flushes[wsite]++;
	}
	/* And one of a full slab from the pool: a c->partial push. */
	if (pick == 3)
		push_full_slabs(w->pool, WIN_POOL, pick * 7, 1, win_free_cb, w);
	w->in_window = false;
}

/* Quiescent checks after a round; the number of problems found. */
static int win_check(struct win_state *w)
{
	int bad = slub_check_consistency(w->s);
	struct page *seen[64];
	unsigned int n = 0;

	/* slub_check_frozen_owned() takes an array: feed it in chunks. */
	for (unsigned int i = 0; i < WIN_PAGES; i++) {
		if (!w->pages[i])
			continue;
		seen[n++] = w->pages[i];
		if (n == ARRAY_SIZE(seen)) {
			bad += slub_check_frozen_owned(w->s, seen, n);
			n = 0;
		}
	}
	bad += slub_check_frozen_owned(w->s, seen, n);
	return bad;
}

static void win_round(struct win_state *w)
{
	unsigned int i, it, n, at = 0;

	/*
	 * Start from empty slabs given back: the refills then go through
	 * new_slab() and its page-allocator window (the only window of the
	 * pre-series port) instead of recycling partial slabs.
	 */
	for (i = 0; i < WIN_POOL; i++) {
		if (w->pool[i])
			win_free(w, w->pool[i]);
		w->pool[i] = NULL;
	}
	kmem_cache_shrink(w->s);
	for (it = 0; it < win_iters && !w->dups; it++) {
		/* Push up to four full slabs onto c->partial... */
		push_full_slabs(w->pool, WIN_POOL, at, 4, win_free_cb, w);
		at += 7;
		/* ...now and then one more, anywhere... */
		if (w->pool[at % WIN_POOL] && !(slub_t_rand(&w->rng) % 4)) {
			win_free(w, w->pool[at % WIN_POOL]);
			w->pool[at % WIN_POOL] = NULL;
		}
		/* ...and allocate back: each retires the CPU slab or pops. */
		for (i = 0; i < WIN_POOL; i++)
			if (!w->pool[i])
				w->pool[i] = win_alloc(w, GFP_KERNEL);
	}
}

static void slub_window_alloc_body(struct ktest *t)
{
	struct win_state *w = &win;
	unsigned int round, bad_rounds = 0;
	long slabs;
	int bad = 0, shrink;
	u64 mark;

	memset(w, 0, sizeof(*w));
	memset(race_live, 0, sizeof(race_live));
	w->rng = win_seed ? win_seed : ktime_get_ns() | 1;
	w->worker = current;
	w->s = kmem_cache_create("slub-window", race_size, 0, SLUB_T_NOMERGE,
				 NULL);
	KTEST_ASSERT_TRUE(t, w->s != NULL);
	slub_window_set(w->s, win_callback);

	for (round = 0; round < win_rounds && !w->dups; round++) {
		win_round(w);
		/* Quiet: the windows are idle while the worker checks. */
		bad = win_check(w);
		if (bad) {
			pr_err("slub_window: round %u: %d inconsistencies\n",
			       round, bad);
			bad_rounds++;
			break;	/* a corrupt cache is left alone */
		}
	}
	slub_window_set(NULL, NULL);

	ktest_info(t, "size=%u rounds=%u x %u seed=%lu (%s)", race_size, round,
		   win_iters, win_seed, ktest_clock_mode());
	for (unsigned int i = 0; i < NR_SLUB_WINDOWS; i++)
		ktest_info(t, "window %s: passed %lu, acted %lu, shrank %lu",
			   win_names[i], slub_window_calls(i), w->acted[i],
			   w->flushes[i]);
	ktest_info(t, "allocs=%lu frees=%lu slabs seen=%u (unremembered %u) double handouts=%lu bad rounds=%u",
		   w->allocs, w->frees, w->nr_pages, w->pages_lost, w->dups,
		   bad_rounds);
	KTEST_EXPECT_EQ(t, w->dups, 0);
	KTEST_EXPECT_EQ(t, bad_rounds, 0);
	KTEST_EXPECT_EQ(t, w->range, 0);
	KTEST_EXPECT_EQ(t, w->alloc_fail, 0);
	KTEST_EXPECT_EQ(t, w->pages_lost, 0);
	/* The windows must have been entered, or the case proves nothing. */
	KTEST_EXPECT_GT(t, w->acted[SLUB_WIN_ALLOC_PAGES], 0);
	if (!IS_ENABLED(CONFIG_SLUB_LEGACY)) {
		KTEST_EXPECT_GT(t, w->acted[SLUB_WIN_PAGE_READ], 0);
		KTEST_EXPECT_GT(t, w->acted[SLUB_WIN_RELOCK], 0);
		if (IS_ENABLED(CONFIG_SLUB_CPU_PARTIAL))
			KTEST_EXPECT_GT(t, w->acted[SLUB_WIN_PARTIAL_READ], 0);
	}
	if (w->dups || bad_rounds) {
		w->s = NULL;	/* leaked on purpose: it is corrupt */
		return;
	}

	for (unsigned int i = 0; i < WIN_POOL; i++)
		if (w->pool[i])
			win_free(w, w->pool[i]);
	for (unsigned int i = 0; i < WIN_NEST; i++)
		if (w->nest[i])
			win_free(w, w->nest[i]);
	shrink = kmem_cache_shrink(w->s);
	slabs = slub_t_slabs(w->s);
	if (shrink || slabs > 0)
		pr_err("slub_window: %ld slab(s) left after freeing everything and shrinking\n",
		       slabs);
	KTEST_EXPECT_EQ(t, shrink, 0);
	KTEST_EXPECT_TRUE(t, slabs <= 0);
	mark = ktest_log_mark();
	kmem_cache_destroy(w->s);
	KTEST_EXPECT_FALSE(t, ktest_log_contains(mark, "still has objects"));
	w->s = NULL;
}

static void slub_window_alloc(struct ktest *t)
{
	slub_t_run_pinned(t, 0, slub_window_alloc_body);
}

/* ------------------------------------------- the missing-TID staging */

struct tid_stage {
	struct kmem_cache *s;
	struct task_struct *a, *b;
	struct completion go_b, b_in_window, a_done, b_done;
	int state;		/* 1: A armed, 2: B armed, 3: staged */
	bool a_waited, b_waited, a_timeout, b_timeout;
	void *y;
};

static struct tid_stage tid_stage;

/* Wait up to 2 s of sleeping: a staging that never comes is reported. */
static bool tid_wait(struct completion *x)
{
	for (unsigned int ms = 0; ms < 2000; ms++) {
		if (try_wait_for_completion(x))
			return true;
		msleep(1);
	}
	return try_wait_for_completion(x);
}

static void tid_callback(struct kmem_cache *s, enum slub_window_site wsite)
{
	struct tid_stage *st = &tid_stage;

	if (!preemptible())
		return;
	if (wsite == SLUB_WIN_FREE_FAST && current == st->a &&
	    st->state == 1) {
		/* A, preempted before its cmpxchg: B runs. */
		st->state = 2;
		st->a_waited = true;
		complete(&st->go_b);
		if (!tid_wait(&st->b_in_window))
			st->a_timeout = true;
	} else if (wsite == SLUB_WIN_ALLOC_PAGES && current == st->b &&
		   st->state == 2) {
		/* B, in the page allocator with P dropped: A finishes. */
		st->state = 3;
		st->b_waited = true;
		complete(&st->b_in_window);
		if (!tid_wait(&st->a_done))
			st->b_timeout = true;
	}
}

static int tid_b_thread(void *data)
{
	struct tid_stage *st = data;

	wait_for_completion(&st->go_b);
	st->y = kmem_cache_alloc(st->s, GFP_KERNEL);
	complete(&st->b_done);
	return 0;
}

static void slub_window_missing_tid_body(struct ktest *t)
{
	struct tid_stage *st = &tid_stage;
	struct kmem_cache_cpu *c;
	void *objs[64];
	unsigned int n = 0;
	struct page *p;
	long slabs;
	int shrink, cpu = raw_smp_processor_id();
	bool lost;
	u64 mark;

	memset(st, 0, sizeof(*st));
	init_completion(&st->go_b);
	init_completion(&st->b_in_window);
	init_completion(&st->a_done);
	init_completion(&st->b_done);
	st->a = current;
	st->s = kmem_cache_create("slub-window-tid", race_size, 0,
				  SLUB_T_NOMERGE, NULL);
	KTEST_ASSERT_TRUE(t, st->s != NULL);

	/* Allocate until the CPU slab P has no free object left. */
	c = raw_cpu_ptr(st->s->cpu_slab);
	do {
		objs[n] = kmem_cache_alloc(st->s, GFP_KERNEL);
		KTEST_ASSERT_TRUE(t, objs[n] != NULL);
		n++;
	} while (n < ARRAY_SIZE(objs) &&
		 (READ_ONCE(c->freelist) || !READ_ONCE(c->page)));
	p = READ_ONCE(c->page);
	KTEST_ASSERT_TRUE(t, p && virt_to_head_page(objs[n - 1]) == p);
	KTEST_ASSERT_TRUE(t, !READ_ONCE(p->freelist));

	st->b = ktest_kthread(tid_b_thread, st, "slub-tid-b", cpu,
			      SCHED_NORMAL, 0);
	KTEST_ASSERT_TRUE(t, st->b != NULL);
	wake_up_process(st->b);

	slub_window_set(st->s, tid_callback);
	st->state = 1;
	kmem_cache_free(st->s, objs[--n]);	/* x: A's staged free */
	if (!st->a_waited)
		complete(&st->go_b);	/* nothing staged: let B go */
	complete(&st->a_done);
	wait_for_completion(&st->b_done);
	slub_window_set(NULL, NULL);

	ktest_info(t, "staged: A waited %d, B waited %d, timeouts %d/%d, window calls free_fast=%lu alloc_pages=%lu",
		   st->a_waited, st->b_waited, st->a_timeout, st->b_timeout,
		   slub_window_calls(SLUB_WIN_FREE_FAST),
		   slub_window_calls(SLUB_WIN_ALLOC_PAGES));
	if (st->y)
		kmem_cache_free(st->s, st->y);
	while (n)
		kmem_cache_free(st->s, objs[--n]);
	shrink = kmem_cache_shrink(st->s);
	slabs = slub_t_slabs(st->s);
	lost = shrink || slabs > 0;
	if (lost)
		pr_err("slub_window: missing tid: %ld slab(s) left after freeing everything: the stale-tid free was taken and its object lost\n",
		       slabs);
	mark = ktest_log_mark();
	kmem_cache_destroy(st->s);
	lost |= ktest_log_contains(mark, "still has objects");
	KTEST_EXPECT_TRUE(t, st->y != NULL);
	KTEST_EXPECT_FALSE(t, lost);
	/* No lockless free fast path (RT's is under the local lock). */
	if (!st->a_waited)
		ktest_skip(t, "no lockless free fast path on this kernel: nothing to stage");
	/* Staged as meant, or the case proves nothing. */
	KTEST_EXPECT_TRUE(t, st->b_waited);
	KTEST_EXPECT_FALSE(t, st->a_timeout || st->b_timeout);
}

static void slub_window_missing_tid(struct ktest *t)
{
	slub_t_run_pinned(t, 0, slub_window_missing_tid_body);
}

static struct ktest_case slub_window_cases[] = {
	KTEST_CASE(slub_window_alloc),
	KTEST_CASE(slub_window_missing_tid),
	{}
};

static struct ktest_suite slub_window_suite = {
	.name = "slub_window",
	.cases = slub_window_cases,
};
ktest_register_suite(slub_window_suite);
#endif /* CONFIG_SLUB_SCOPE_PROBE */
