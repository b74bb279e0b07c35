// SPDX-License-Identifier: GPL-2.0
/*
 * SHRINKER_REFCOUNT (mm/shrinker.c): the reference a shrink_slab() walker
 * holds while it is inside a shrinker keeps shrinker_free() from unlinking
 * and freeing that shrinker, and shrinker_free() returns once the walker
 * drops it; shrinkers allocated, registered and freed while shrink_slab()
 * runs elsewhere are never called after shrinker_free() returned, nor
 * found freed (their memory poisoned by slub_debug=P) while called.
 *
 * Every wait is bounded: a reference that is never dropped makes
 * shrinker_free() block for good, so the frees run in helper threads and a
 * case that gives up leaves them behind, failed, instead of hanging the run.
 */
#include <linux/ktest.h>
#include <linux/shrinker.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/slab.h>
#include <linux/cpumask.h>
#include <linux/string.h>

/* How long a case waits for something the code under test must do. */
#define SR_WAIT_MS	2000

/* Poll @flag for @ms of clock time (msleep(1) may sleep a few ticks). */
static bool sr_wait(volatile bool *flag, int ms)
{
	u64 end = ktime_get_ns() + (u64)ms * NSEC_PER_MSEC;

	while (!READ_ONCE(*flag) && ktime_get_ns() < end)
		msleep(1);
	return READ_ONCE(*flag);
}

struct held_shrinker {
	struct shrinker *s;
	volatile bool inside, release, walked, freed;
	unsigned long count_calls;
	u64 free_ns;
};

/* Blocks the walker inside the shrinker until the case lets it go. */
static unsigned long held_count(struct shrinker *s, struct shrink_control *sc)
{
	struct held_shrinker *h = s->private_data;

	h->count_calls++;
	WRITE_ONCE(h->inside, true);
	while (!READ_ONCE(h->release))
		msleep(1);
	WRITE_ONCE(h->inside, false);
	return 0;
}

static unsigned long held_scan(struct shrinker *s, struct shrink_control *sc)
{
	return SHRINK_STOP;
}

static int held_walker_fn(void *arg)
{
	struct held_shrinker *h = arg;

	shrink_slab(GFP_KERNEL, 0, NULL, DEF_PRIORITY);
	WRITE_ONCE(h->walked, true);
	return 0;
}

static int held_freer_fn(void *arg)
{
	struct held_shrinker *h = arg;
	u64 t0 = ktime_get_ns();

	shrinker_free(h->s);
	h->free_ns = ktime_get_ns() - t0;
	WRITE_ONCE(h->freed, true);
	return 0;
}

/*
 * A walker blocked in count_objects() holds a reference: shrinker_free()
 * drops registration's and then waits.  Meanwhile the shrinker is still
 * registered and its memory intact (not poisoned: not freed); once the
 * walker lets go, shrinker_free() returns and the list is back as before.
 */
static void freed_shrinker_waits_for_walker(struct ktest *t)
{
	static struct held_shrinker h;
	unsigned int before = shrinker_count();
	struct task_struct *walker, *freer;
	bool early, intact;

	memset(&h, 0, sizeof(h));
	h.s = shrinker_alloc(0, "held");
	KTEST_ASSERT_TRUE(t, h.s);
	h.s->count_objects = held_count;
	h.s->scan_objects = held_scan;
	h.s->private_data = &h;
	shrinker_register(h.s);
	KTEST_EXPECT_EQ(t, shrinker_count(), before + 1);

	walker = ktest_kthread(held_walker_fn, &h, "sr_walker",
			       num_online_cpus() > 1 ? 1 : -1, SCHED_NORMAL, 0);
	KTEST_ASSERT_TRUE(t, walker);
	wake_up_process(walker);
	KTEST_ASSERT_TRUE(t, sr_wait(&h.inside, SR_WAIT_MS));
	/* registration's reference and the walker's */
	KTEST_EXPECT_EQ(t, refcount_read(&h.s->refcount), 2);

	freer = ktest_kthread(held_freer_fn, &h, "sr_freer", -1, SCHED_NORMAL, 0);
	KTEST_ASSERT_TRUE(t, freer);
	wake_up_process(freer);
	msleep(20);
	/* Had shrinker_free() not waited, its call_rcu() free is done after this. */
	rcu_barrier();
	early = READ_ONCE(h.freed);
	intact = h.s->private_data == &h && h.s->count_objects == held_count &&
		 (h.s->flags & SHRINKER_REGISTERED);
	KTEST_EXPECT_FALSE(t, early);
	KTEST_EXPECT_TRUE(t, intact);
	KTEST_EXPECT_EQ(t, shrinker_count(), before + 1);
	KTEST_EXPECT_EQ(t, refcount_read(&h.s->refcount), 1);
	if (early || !intact) {
		/* Letting the walker go on would have it step off freed memory. */
		ktest_info(t, "shrinker freed under a walker; the walker is left blocked");
		return;
	}

	WRITE_ONCE(h.release, true);
	if (!sr_wait(&h.freed, SR_WAIT_MS)) {
		ktest_fail(t, __FILE__, __LINE__, "shrinker_free() still waiting %d ms after "
			   "the walker let go: a reference was never dropped", SR_WAIT_MS);
		return;
	}
	KTEST_EXPECT_TRUE(t, sr_wait(&h.walked, SR_WAIT_MS));
	KTEST_EXPECT_EQ(t, h.count_calls, 1);
	KTEST_EXPECT_EQ(t, shrinker_count(), before);
	ktest_info(t, "shrinker_free() behind a blocked walker took %llu ns (%s)",
		   (unsigned long long)h.free_ns, ktest_clock_mode());
}

/* The churn: shrinkers come and go while walkers run shrink_slab(). */
#define SR_CHURN_ROUNDS	200
#define SR_CHURN_MAGIC	0x5e1f5e1fUL
/*
 * The 200 rounds take 0.2 s under icount and up to 8 s under a busy TCG;
 * icount's polling is slow in host time, so its bound is shorter.
 */
#define SR_CHURN_MS	(strcmp(ktest_clock_mode(), "icount") ? 30000 : 3000)

struct churn_owner {
	unsigned long magic;
	volatile bool freed;		/* shrinker_free() has returned */
};

struct churn {
	struct churn_owner owner[SR_CHURN_ROUNDS];
	volatile bool stop, done;
	atomic_t walkers;
	unsigned long walks;
	atomic_long_t calls, late, poisoned;
	u64 free_n, free_sum_ns, free_min_ns, free_max_ns;
};

static unsigned long churn_count(struct shrinker *s, struct shrink_control *sc)
{
	struct churn *c = s->private_data;
	struct churn_owner *o;

	/* A freed, poisoned shrinker has neither its seeks nor its batch. */
	if (READ_ONCE(s->seeks) != DEFAULT_SEEKS || READ_ONCE(s->batch) < 0 ||
	    READ_ONCE(s->batch) >= SR_CHURN_ROUNDS) {
		atomic_long_inc(&c->poisoned);
		return 0;
	}
	o = &c->owner[s->batch];
	atomic_long_inc(&c->calls);
	if (READ_ONCE(o->freed) || o->magic != SR_CHURN_MAGIC)
		atomic_long_inc(&c->late);
	udelay(20);	/* widen the window a free can land in */
	if (READ_ONCE(o->freed))
		atomic_long_inc(&c->late);
	return 0;
}

static int churn_walker_fn(void *arg)
{
	struct churn *c = arg;

	while (!READ_ONCE(c->stop)) {
		shrink_slab(GFP_KERNEL, 0, NULL, DEF_PRIORITY);
		c->walks++;
		if (num_online_cpus() == 1)
			msleep(1);
		else
			cond_resched();
	}
	atomic_dec(&c->walkers);
	return 0;
}

/*
 * batch carries the round (count_objects() returns 0, so nothing is ever
 * scanned in batches): the callback finds its owner without trusting a
 * pointer in memory that might have been freed.
 */
static int churn_registrar_fn(void *arg)
{
	struct churn *c = arg;

	c->free_min_ns = ~0ULL;
	for (int i = 0; i < SR_CHURN_ROUNDS; i++) {
		struct shrinker *s = shrinker_alloc(0, "churn-%d", i);
		u64 t0, d;

		if (!s)
			break;
		c->owner[i].magic = SR_CHURN_MAGIC;
		s->count_objects = churn_count;
		s->scan_objects = held_scan;
		s->batch = i;
		s->private_data = c;
		shrinker_register(s);
		msleep(1);
		t0 = ktime_get_ns();
		shrinker_free(s);
		d = ktime_get_ns() - t0;
		WRITE_ONCE(c->owner[i].freed, true);
		c->free_n++;
		c->free_sum_ns += d;
		c->free_min_ns = min(c->free_min_ns, d);
		c->free_max_ns = max(c->free_max_ns, d);
	}
	WRITE_ONCE(c->done, true);
	return 0;
}

static void register_free_while_walking(struct ktest *t)
{
	static struct churn c;
	unsigned int before = shrinker_count();
	struct task_struct *p;
	int cpu, nr = 0;

	memset(&c, 0, sizeof(c));
	for_each_online_cpu(cpu) {
		/* The registrar has CPU 0 to itself when there is another. */
		if (cpu == 0 && num_online_cpus() > 1)
			continue;
		p = ktest_kthread(churn_walker_fn, &c, "sr_churn_walk", cpu, SCHED_NORMAL, 0);
		KTEST_ASSERT_TRUE(t, p);
		atomic_inc(&c.walkers);
		wake_up_process(p);
		nr++;
	}
	p = ktest_kthread(churn_registrar_fn, &c, "sr_churn_reg",
			  num_online_cpus() > 1 ? 0 : -1, SCHED_NORMAL, 0);
	KTEST_ASSERT_TRUE(t, p);
	wake_up_process(p);
	if (!sr_wait(&c.done, SR_CHURN_MS))
		ktest_fail(t, __FILE__, __LINE__, "the registrar did not finish in %d ms: "
			   "a shrinker_free() never returned", (int)SR_CHURN_MS);
	WRITE_ONCE(c.stop, true);
	for (u64 end = ktime_get_ns() + SR_WAIT_MS * NSEC_PER_MSEC;
	     atomic_read(&c.walkers) && ktime_get_ns() < end;)
		msleep(1);
	KTEST_EXPECT_EQ(t, atomic_read(&c.walkers), 0);
	KTEST_EXPECT_EQ(t, c.free_n, SR_CHURN_ROUNDS);
	KTEST_EXPECT_EQ(t, atomic_long_read(&c.poisoned), 0);
	KTEST_EXPECT_EQ(t, atomic_long_read(&c.late), 0);
	KTEST_EXPECT_GT(t, atomic_long_read(&c.calls), 0);
	KTEST_EXPECT_EQ(t, shrinker_count(), before);
	ktest_info(t, "%d walker(s), %lu shrink_slab() calls, %ld callbacks; shrinker_free() "
		   "%llu times: min %llu avg %llu max %llu ns (%s)", nr, c.walks,
		   atomic_long_read(&c.calls), (unsigned long long)c.free_n,
		   (unsigned long long)(c.free_n ? c.free_min_ns : 0),
		   (unsigned long long)(c.free_n ? c.free_sum_ns / c.free_n : 0),
		   (unsigned long long)c.free_max_ns, ktest_clock_mode());
}

/* A shrinker that did not come from shrinker_alloc() is refused, with a warning. */
static void register_refuses_unallocated(struct ktest *t)
{
	static struct shrinker s = { .count_objects = held_count, .scan_objects = held_scan };
	unsigned int before = shrinker_count();
	u64 mark = ktest_log_mark();

	shrinker_register(&s);
	KTEST_EXPECT_EQ(t, shrinker_count(), before);
	KTEST_EXPECT_FALSE(t, s.flags & SHRINKER_REGISTERED);
	KTEST_EXPECT_LOG(t, mark, "not from shrinker_alloc()");
}

static struct ktest_case shrinker_refcount_cases[] = {
	KTEST_CASE(freed_shrinker_waits_for_walker),
	KTEST_CASE(register_free_while_walking),
	KTEST_CASE(register_refuses_unallocated),
	{}
};

static struct ktest_suite shrinker_refcount_suite = {
	.name = "shrinker_refcount", .cases = shrinker_refcount_cases,
};
ktest_register_suite(shrinker_refcount_suite);
