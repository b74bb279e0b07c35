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
static void race_alloc_loop(struct race *r)
{
	unsigned int i, n, at = 0;

	for (i = 0; i < RACE_POOL; i++)
		r->pool[i] = NULL;
	while (!READ_ONCE(r->stop)) {
		for (i = 0, n = 0; i < RACE_POOL && n < RACE_PUSH; i++) {
			unsigned int j = (at + i) % RACE_POOL;

			if (r->pool[j] && slab_is_full(r->pool[j])) {
				race_free_one(r, r->pool[j]);
				r->pool[j] = NULL;
				n++;
			}
		}
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
