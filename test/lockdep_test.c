// SPDX-License-Identifier: GPL-2.0
/*
 * lockdep-lite (CONFIG_PROVE_LOCKING): clean nesting stays quiet, and each
 * kind of bug is reported with Linux's wording the first time both halves
 * of it have run - sequentially, so nothing here really deadlocks.  Every
 * provoked report is checked, then forgotten (counter restored, classes
 * zapped, checking re-armed) so the run only fails on unexpected ones.
 *
 * The benchmark case also runs without lockdep: its two figures are the
 * cost of the validator on an uncontended lock.
 */
#include <linux/ktest.h>
#include <linux/spinlock.h>
#include <linux/lockdep.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/delay.h>
#include <linux/sched.h>
#include <asm/apic.h>
#include <asm/processor.h>

#ifdef CONFIG_PROVE_LOCKING

struct provoked {
	int before;
	u64 mark;
};

static void provoke_begin(struct provoked *p)
{
	p->before = atomic_read(&lockdep_bug_count);
	p->mark = ktest_log_mark();
}

/* Exactly one report with every needle in it; then forget it. */
static void expect_report(struct ktest *t, struct provoked *p,
			  const char *const *needles, bool turns_off)
{
	KTEST_EXPECT_EQ(t, atomic_read(&lockdep_bug_count), p->before + 1);
	for (; *needles; needles++)
		KTEST_EXPECT_LOG(t, p->mark, *needles);
	if (turns_off)
		KTEST_EXPECT_EQ(t, debug_locks, 0);
	atomic_set(&lockdep_bug_count, p->before);
	ktest_expect_reports("lockdep", 1);
	lockdep_reset_after_report();
	KTEST_EXPECT_EQ(t, debug_locks, 1);
}

static void expect_quiet(struct ktest *t, struct provoked *p)
{
	KTEST_EXPECT_EQ(t, atomic_read(&lockdep_bug_count), p->before);
	KTEST_EXPECT_FALSE(t, ktest_log_contains(p->mark, "WARNING"));
	KTEST_EXPECT_FALSE(t, ktest_log_contains(p->mark, "BUG"));
	KTEST_EXPECT_EQ(t, debug_locks, 1);
}

static int lockdep_suite_init(struct ktest *t)
{
	/* Runs outside the case's abort point: fail rather than skip. */
	if (!debug_locks) {
		ktest_info(t, "lockdep is off: an earlier report (see above) turned it off");
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------ clean */

static DEFINE_RAW_SPINLOCK(clean_a);
static DEFINE_RAW_SPINLOCK(clean_b);
static DEFINE_SPINLOCK(clean_c);

static void clean_nesting_is_quiet(struct ktest *t)
{
	unsigned int classes, deps0, deps1, traces;
	unsigned long flags;
	struct provoked p;

	provoke_begin(&p);
	lockdep_stats(&classes, &deps0, &traces);
	for (int i = 0; i < 5; i++) {
		raw_spin_lock(&clean_a);
		raw_spin_lock(&clean_b);
		KTEST_EXPECT_TRUE(t, lock_is_held(&clean_a.dep_map));
		KTEST_EXPECT_TRUE(t, lock_is_held(&clean_b.dep_map));
		raw_spin_unlock(&clean_b);
		raw_spin_unlock(&clean_a);
		/* spinlock_t outside raw_spinlock_t: it sleeps on PREEMPT_RT. */
		spin_lock(&clean_c);
		raw_spin_lock_irqsave(&clean_a, flags);
		raw_spin_unlock_irqrestore(&clean_a, flags);
		spin_unlock(&clean_c);
	}
	KTEST_EXPECT_FALSE(t, lock_is_held(&clean_a.dep_map));
	lockdep_stats(&classes, &deps1, &traces);
	/*
	 * a -> b and c -> a, recorded once each, not once per round (other
	 * CPUs may add a few of their own meanwhile).
	 */
	KTEST_EXPECT_GE(t, deps1 - deps0, 2);
	KTEST_EXPECT_LT(t, deps1 - deps0, 10);
	ktest_info(t, "%u classes, %u dependencies, %u trace entries so far",
		   classes, deps1, traces);
	expect_quiet(t, &p);
	lockdep_reset_lock(&clean_a.dep_map);
	lockdep_reset_lock(&clean_b.dep_map);
	lockdep_reset_lock(&clean_c.dep_map);
}

/* --------------------------------------------------------- circular */

static DEFINE_RAW_SPINLOCK(abba_a);
static DEFINE_RAW_SPINLOCK(abba_b);

static noinline void lock_a_then_b(void)
{
	raw_spin_lock(&abba_a);
	raw_spin_lock(&abba_b);
	raw_spin_unlock(&abba_b);
	raw_spin_unlock(&abba_a);
}

static noinline void lock_b_then_a(void)
{
	raw_spin_lock(&abba_b);
	raw_spin_lock(&abba_a);
	raw_spin_unlock(&abba_a);
	raw_spin_unlock(&abba_b);
}

static void ab_ba_reports_circular(struct ktest *t)
{
	static const char *const needles[] = {
		"WARNING: possible circular locking dependency detected",
		"init/1 is trying to acquire lock:",
		"but task is already holding lock:",
		"which lock already depends on the new lock.",
		"the existing dependency chain (in reverse order) is:",
		"-> #1 (abba_b){",
		"-> #0 (abba_a){",
		"lock_a_then_b+",	/* the saved stack of a -> b */
		"lock_b_then_a+",	/* the current stack, b -> a */
		"Possible unsafe locking scenario:",
		"  lock(abba_b);",
		"                               lock(abba_a);",
		"*** DEADLOCK ***",
		"1 lock held by init/1:",
		"stack backtrace:",
		NULL,
	};
	struct provoked p;

	provoke_begin(&p);
	lock_a_then_b();
	lock_a_then_b();
	KTEST_EXPECT_EQ(t, atomic_read(&lockdep_bug_count), p.before);
	lock_b_then_a();
	expect_report(t, &p, needles, true);
	/* Forgotten: the same pair in one order is clean again. */
	provoke_begin(&p);
	lock_b_then_a();
	expect_quiet(t, &p);
	lockdep_reset_lock(&abba_a.dep_map);
	lockdep_reset_lock(&abba_b.dep_map);
}

static DEFINE_RAW_SPINLOCK(chain_a);
static DEFINE_RAW_SPINLOCK(chain_b);
static DEFINE_RAW_SPINLOCK(chain_c);

static void nest2(raw_spinlock_t *outer, raw_spinlock_t *inner)
{
	raw_spin_lock(outer);
	raw_spin_lock(inner);
	raw_spin_unlock(inner);
	raw_spin_unlock(outer);
}

/* a -> b, b -> c at different times; c -> a closes the cycle. */
static void three_lock_cycle(struct ktest *t)
{
	static const char *const needles[] = {
		"WARNING: possible circular locking dependency detected",
		"-> #2 (chain_c){",
		"-> #1 (chain_b){",
		"-> #0 (chain_a){",
		"Chain exists of:",
		"  chain_a --> chain_b --> chain_c --> chain_a",
		NULL,
	};
	struct provoked p;

	provoke_begin(&p);
	nest2(&chain_a, &chain_b);
	nest2(&chain_b, &chain_c);
	KTEST_EXPECT_EQ(t, atomic_read(&lockdep_bug_count), p.before);
	nest2(&chain_c, &chain_a);
	expect_report(t, &p, needles, true);
	lockdep_reset_lock(&chain_a.dep_map);
	lockdep_reset_lock(&chain_b.dep_map);
	lockdep_reset_lock(&chain_c.dep_map);
}

/* --------------------------------------------------- recursive readers */

static struct lock_class_key rr_key_a, rr_key_b;
static struct lockdep_map rr_a = STATIC_LOCKDEP_MAP_INIT("rr_a", &rr_key_a);
static struct lockdep_map rr_b = STATIC_LOCKDEP_MAP_INIT("rr_b", &rr_key_b);

/*
 * rwlock_t readers are recursive: read(a) -> b and b -> read(a) cannot
 * deadlock (the second reader of a gets in past a waiting writer); the
 * same with a taken for write after b can.
 */
static void read_a_then_b(void)
{
	rwlock_acquire_read(&rr_a, 0, 0, _THIS_IP_);
	lock_map_acquire(&rr_b);
	lock_map_release(&rr_b);
	rwlock_release(&rr_a, _THIS_IP_);
}

static void b_then_read_a(void)
{
	lock_map_acquire(&rr_b);
	rwlock_acquire_read(&rr_a, 0, 0, _THIS_IP_);
	rwlock_release(&rr_a, _THIS_IP_);
	lock_map_release(&rr_b);
}

static void recursive_readers_no_cycle(struct ktest *t)
{
	static const char *const needles[] = {
		"WARNING: possible circular locking dependency detected",
		"(rr_a){", "(rr_b){", NULL,
	};
	struct provoked p;

	/*
	 * Both orders of recording: the search must neither leave a class
	 * reached as a recursive reader through its reader edge, nor close
	 * the cycle there.
	 */
	provoke_begin(&p);
	read_a_then_b();
	b_then_read_a();
	expect_quiet(t, &p);
	lockdep_reset_lock(&rr_a);
	lockdep_reset_lock(&rr_b);
	b_then_read_a();
	read_a_then_b();
	expect_quiet(t, &p);

	lock_map_acquire(&rr_b);
	rwlock_acquire(&rr_a, 0, 0, _THIS_IP_);
	rwlock_release(&rr_a, _THIS_IP_);
	lock_map_release(&rr_b);
	expect_report(t, &p, needles, true);
	lockdep_reset_lock(&rr_a);
	lockdep_reset_lock(&rr_b);
}

/* ----------------------------------------------------------- IRQ usage */

/* COM2's line: unused in QEMU's default machines, fired here by a self-IPI. */
#define LOCKDEP_TEST_IRQ	3

static DEFINE_RAW_SPINLOCK(irq_lock);
static DEFINE_RAW_SPINLOCK(irq_safe_lock);
static DEFINE_RAW_SPINLOCK(irq_unsafe_lock);
static raw_spinlock_t *irq_test_target;
static int irq_test_hits;

static irqreturn_t lockdep_test_handler(int irq, void *dev)
{
	raw_spin_lock(irq_test_target);
	raw_spin_unlock(irq_test_target);
	WRITE_ONCE(irq_test_hits, irq_test_hits + 1);
	return IRQ_HANDLED;
}

/* Take @lock in a real hard interrupt on this CPU. */
static void take_in_hardirq(struct ktest *t, raw_spinlock_t *lock)
{
	struct irq_desc *desc = irq_to_desc(LOCKDEP_TEST_IRQ);
	int hits = READ_ONCE(irq_test_hits);

	irq_test_target = lock;
	if (request_irq(LOCKDEP_TEST_IRQ, lockdep_test_handler, IRQF_NO_THREAD,
			"lockdep-test", &irq_test_hits))
		ktest_skip(t, "IRQ %d not available", LOCKDEP_TEST_IRQ);
	preempt_disable();
	if (desc->cpu != smp_processor_id()) {
		preempt_enable();
		free_irq(LOCKDEP_TEST_IRQ, &irq_test_hits);
		ktest_skip(t, "IRQ %d is routed to CPU %d", LOCKDEP_TEST_IRQ, desc->cpu);
	}
	apic_icr_write(APIC_DEST_SELF | APIC_DM_FIXED | desc->vector, 0);
	preempt_enable();
	for (int i = 0; i < 100000 && READ_ONCE(irq_test_hits) == hits; i++)
		udelay(10);
	free_irq(LOCKDEP_TEST_IRQ, &irq_test_hits);
	KTEST_ASSERT_EQ(t, READ_ONCE(irq_test_hits), hits + 1);
}

static noinline void take_with_irqs_on(raw_spinlock_t *lock)
{
	raw_spin_lock(lock);
	raw_spin_unlock(lock);
}

static void hardirq_inconsistent_state(struct ktest *t)
{
	static const char *const needles[] = {
		"WARNING: inconsistent lock state",
		"inconsistent {IN-HARDIRQ-W} -> {HARDIRQ-ON-W} usage.",
		"init/1 [HC0[0]:SC0[0]:HE1:SE1] takes:",
		"(irq_lock){?...}",
		"{IN-HARDIRQ-W} state was registered at:",
		"lockdep_test_handler+",
		"  <Interrupt>",
		"    lock(irq_lock);",
		"take_with_irqs_on+",
		NULL,
	};
	struct provoked p;

	provoke_begin(&p);
	take_in_hardirq(t, &irq_lock);
	KTEST_EXPECT_EQ(t, atomic_read(&lockdep_bug_count), p.before);
	take_with_irqs_on(&irq_lock);
	expect_report(t, &p, needles, true);
	lockdep_reset_lock(&irq_lock.dep_map);
}

/* safe is used in an interrupt, unsafe with IRQs on: safe -> unsafe is a bug. */
static void hardirq_safe_to_unsafe(struct ktest *t)
{
	static const char *const needles[] = {
		"WARNING: HARDIRQ-safe -> HARDIRQ-unsafe lock order detected",
		"which would create a new lock dependency:",
		"but this new dependency connects a HARDIRQ-irq-safe lock:",
		"to a HARDIRQ-irq-unsafe lock:",
		"lockdep_test_handler+",
		"take_with_irqs_on+",
		"                               local_irq_disable();",
		NULL,
	};
	struct provoked p;
	unsigned long flags;

	provoke_begin(&p);
	take_in_hardirq(t, &irq_safe_lock);
	take_with_irqs_on(&irq_unsafe_lock);
	KTEST_EXPECT_EQ(t, atomic_read(&lockdep_bug_count), p.before);
	raw_spin_lock_irqsave(&irq_safe_lock, flags);
	raw_spin_lock(&irq_unsafe_lock);
	raw_spin_unlock(&irq_unsafe_lock);
	raw_spin_unlock_irqrestore(&irq_safe_lock, flags);
	expect_report(t, &p, needles, true);
	lockdep_reset_lock(&irq_safe_lock.dep_map);
	lockdep_reset_lock(&irq_unsafe_lock.dep_map);
}

/* ------------------------------------------------- recursion and unlock */

struct pair {
	raw_spinlock_t lock;
};

/* One init site: both locks are of one class. */
static void pair_init(struct pair *p)
{
	raw_spin_lock_init(&p->lock);
}

static struct lock_class_key self_key;
static struct lockdep_map self_map = STATIC_LOCKDEP_MAP_INIT("self_map", &self_key);

static void recursive_locking(struct ktest *t)
{
	static const char *const same_class[] = {
		"WARNING: possible recursive locking detected",
		"init/1 is trying to acquire lock:",
		"(&p->lock){",
		"but task is already holding lock:",
		"May be due to missing lock nesting notation",
		NULL,
	};
	static const char *const same_lock[] = {
		"WARNING: possible recursive locking detected",
		"(self_map){", "  lock(self_map);", NULL,
	};
	struct pair x, y;
	struct provoked p;

	pair_init(&x);
	pair_init(&y);
	/* With a subclass, nesting two of one class is fine. */
	provoke_begin(&p);
	raw_spin_lock(&x.lock);
	raw_spin_lock_nested(&y.lock, SINGLE_DEPTH_NESTING);
	raw_spin_unlock(&y.lock);
	raw_spin_unlock(&x.lock);
	expect_quiet(t, &p);

	raw_spin_lock(&x.lock);
	raw_spin_lock(&y.lock);
	raw_spin_unlock(&y.lock);
	raw_spin_unlock(&x.lock);
	expect_report(t, &p, same_class, true);
	lockdep_reset_lock(&x.lock.dep_map);

	/* The very same lock twice (annotation only: no real deadlock). */
	provoke_begin(&p);
	lock_map_acquire(&self_map);
	lock_map_acquire(&self_map);
	lock_map_release(&self_map);
	lock_map_release(&self_map);
	expect_report(t, &p, same_lock, true);
	lockdep_reset_lock(&self_map);
}

static struct lock_class_key unbal_key;
static struct lockdep_map unbal_map = STATIC_LOCKDEP_MAP_INIT("unbal_map", &unbal_key);

static noinline void release_unheld(void)
{
	lock_map_release(&unbal_map);
}

static void bad_unlock_balance(struct ktest *t)
{
	static const char *const needles[] = {
		"WARNING: bad unlock balance detected!",
		"init/1 is trying to release lock (unbal_map) at:",
		"but there are no more locks to release!",
		"no locks held by init/1.",
		"release_unheld+",
		NULL,
	};
	struct provoked p;

	provoke_begin(&p);
	lock_map_acquire(&unbal_map);
	lock_map_release(&unbal_map);
	expect_quiet(t, &p);
	release_unheld();
	expect_report(t, &p, needles, true);
	lockdep_reset_lock(&unbal_map);
}

/* ---------------------------------------------------------- wait types */

static struct lock_class_key sleep_key, config_key;
static struct lockdep_map sleep_map = {
	.key = &sleep_key, .name = "sleep_map", .wait_type_inner = LD_WAIT_SLEEP,
};
static struct lockdep_map config_map = {
	.key = &config_key, .name = "config_map", .wait_type_inner = LD_WAIT_CONFIG,
};
static DEFINE_RAW_SPINLOCK(wait_raw);

static void invalid_wait_context(struct ktest *t)
{
	static const char *const needles[] = {
		"[ BUG: Invalid wait context ]",
		"init/1 is trying to lock:",
		"(sleep_map){+.+.}-{4:4}",
		"context-{2:2}",
		NULL,
	};
	static const char *const config_needles[] = {
		"[ BUG: Invalid wait context ]", "(config_map){+.+.}-{3:3}", NULL,
	};
	struct provoked p;

	/* A sleeping lock alone, and a spinlock_t-like one under a raw lock. */
	provoke_begin(&p);
	lock_map_acquire(&sleep_map);
	lock_map_release(&sleep_map);
	raw_spin_lock(&wait_raw);
	lock_map_acquire(&config_map);
	lock_map_release(&config_map);
	raw_spin_unlock(&wait_raw);
#ifdef CONFIG_PROVE_RAW_LOCK_NESTING
	expect_report(t, &p, config_needles, true);
	provoke_begin(&p);
#else
	(void)config_needles;
	expect_quiet(t, &p);
#endif
	/* A sleeping lock under a raw spinlock is wrong on every model. */
	raw_spin_lock(&wait_raw);
	lock_map_acquire(&sleep_map);
	lock_map_release(&sleep_map);
	raw_spin_unlock(&wait_raw);
	expect_report(t, &p, needles, true);
	lockdep_reset_lock(&sleep_map);
	lockdep_reset_lock(&config_map);
	lockdep_reset_lock(&wait_raw.dep_map);
}

/* ---------------------------------------------------------- assertions */

static DEFINE_RAW_SPINLOCK(assert_lock);

static void assert_held_reports(struct ktest *t)
{
	static const char *const needles[] = {
		"lockdep_assert_held(&assert_lock)", "lockdep_test.c:",
		"assert_held_reports+", NULL,
	};
	static const char *const not_held[] = {
		"lockdep_assert_not_held(&assert_lock)", NULL,
	};
	struct provoked p;

	provoke_begin(&p);
	raw_spin_lock(&assert_lock);
	lockdep_assert_held(&assert_lock);
	raw_spin_unlock(&assert_lock);
	lockdep_assert_not_held(&assert_lock);
	expect_quiet(t, &p);

	lockdep_assert_held(&assert_lock);
	expect_report(t, &p, needles, false);

	provoke_begin(&p);
	raw_spin_lock(&assert_lock);
	lockdep_assert_not_held(&assert_lock);
	raw_spin_unlock(&assert_lock);
	expect_report(t, &p, not_held, false);
	lockdep_reset_lock(&assert_lock.dep_map);
}

static void assert_irqs_disabled_reports(struct ktest *t)
{
	static const char *const needles[] = {
		"lockdep_assert_irqs_disabled()", "lockdep_test.c:",
		"irqs_disabled(): 0", NULL,
	};
	static const char *const enabled[] = {
		"lockdep_assert_irqs_enabled()", NULL,
	};
	struct provoked p;

	provoke_begin(&p);
	local_irq_disable();
	lockdep_assert_irqs_disabled();
	local_irq_enable();
	lockdep_assert_irqs_enabled();
	expect_quiet(t, &p);

	lockdep_assert_irqs_disabled();
	expect_report(t, &p, needles, false);

	provoke_begin(&p);
	local_irq_disable();
	lockdep_assert_irqs_enabled();
	local_irq_enable();
	expect_report(t, &p, enabled, false);
}

#define LOCKDEP_ON	"on"
#else
#define LOCKDEP_ON	"off"
#endif /* CONFIG_PROVE_LOCKING */

/* ----------------------------------------------------------- benchmark */

#define BENCH_ROUNDS	20000

static DEFINE_RAW_SPINLOCK(bench_outer);
static DEFINE_RAW_SPINLOCK(bench_lock);

static u64 bench_pairs(bool nested)
{
	u64 t0, t1;

	if (nested)
		raw_spin_lock(&bench_outer);
	t0 = rdtsc_ordered();
	for (int i = 0; i < BENCH_ROUNDS; i++) {
		raw_spin_lock(&bench_lock);
		raw_spin_unlock(&bench_lock);
	}
	t1 = rdtsc_ordered();
	if (nested)
		raw_spin_unlock(&bench_outer);
	return (t1 - t0) / BENCH_ROUNDS;
}

/* A figure, not an assertion: what lockdep costs an uncontended lock. */
static void bench_raw_spin_lock_unlock(struct ktest *t)
{
	u64 alone, nested;

	bench_pairs(false);	/* warm up: classes, usage bits, edges */
	bench_pairs(true);
	alone = bench_pairs(false);
	nested = bench_pairs(true);
	KTEST_EXPECT_GT(t, alone, 0);
#ifdef CONFIG_PROVE_LOCKING
	/* 80000 tracked acquisitions leave nothing behind and report nothing. */
	KTEST_EXPECT_EQ(t, current->lockdep_depth, 0);
	KTEST_EXPECT_EQ(t, debug_locks, 1);
#endif
	ktest_info(t, "raw_spin_lock+unlock: %llu cycles per pair, %llu nested in another lock (lockdep %s, %s)",
		   (unsigned long long)alone, (unsigned long long)nested,
		   LOCKDEP_ON, ktest_clock_mode());
}

static struct ktest_case lockdep_cases[] = {
#ifdef CONFIG_PROVE_LOCKING
	KTEST_CASE(clean_nesting_is_quiet),
	KTEST_CASE(ab_ba_reports_circular),
	KTEST_CASE(three_lock_cycle),
	KTEST_CASE(recursive_readers_no_cycle),
	KTEST_CASE(hardirq_inconsistent_state),
	KTEST_CASE(hardirq_safe_to_unsafe),
	KTEST_CASE(recursive_locking),
	KTEST_CASE(bad_unlock_balance),
	KTEST_CASE(invalid_wait_context),
	KTEST_CASE(assert_held_reports),
	KTEST_CASE(assert_irqs_disabled_reports),
#endif
	KTEST_CASE(bench_raw_spin_lock_unlock),
	{}
};

static struct ktest_suite lockdep_suite = {
	.name = "lockdep",
	.cases = lockdep_cases,
#ifdef CONFIG_PROVE_LOCKING
	.init = lockdep_suite_init,
#endif
};
ktest_register_suite(lockdep_suite);
