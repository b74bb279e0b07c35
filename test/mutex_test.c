// SPDX-License-Identifier: GPL-2.0
/*
 * struct mutex and struct rw_semaphore (!PREEMPT_RT forms): exclusion
 * under contention from every CPU, concurrent readers, no starved writer,
 * the mutex handoff, sleeping waiters that leave their CPU to others,
 * optimistic spinning on a running owner (and not on a sleeping one),
 * trylock, might_sleep(), and uncontended costs.
 *
 * Which slow path a lock took is read from the lock event counters
 * (kernel/locking/lock_events.h).  They are global, so a case compares
 * counts before and after, with only its own threads contending.
 */
#include <linux/ktest.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/sched.h>
#include <linux/kthread.h>
#include <linux/delay.h>
#include <linux/smp.h>
#include <linux/irqflags.h>
#include <asm/processor.h>
#include <asm/hardirq.h>
#include "../kernel/locking/lock_events.h"

#define MAX_THREADS	16

static struct task_struct *spawn(int (*fn)(void *), void *arg, const char *name,
				 int cpu, int policy, int prio)
{
	struct task_struct *p = ktest_kthread(fn, arg, name, cpu, policy, prio);

	if (p)
		wake_up_process(p);
	return p;
}

/* Poll (sleeping) until *@v reaches @n; false after @ms milliseconds. */
static bool wait_count(atomic_t *v, int n, unsigned int ms)
{
	for (unsigned int i = 0; i < ms && atomic_read(v) < n; i++)
		msleep(1);
	return atomic_read(v) >= n;
}

static unsigned long event_delta(enum lock_events ev, unsigned long before)
{
	return lockevent_read(ev) - before;
}

/* ------------------------------------------------------ mutual exclusion */

enum excl_kind { EXCL_MUTEX, EXCL_RWSEM_WRITE };

static struct excl_ctx {
	enum excl_kind kind;
	struct mutex m;
	struct rw_semaphore sem;
	int iters;
	int inside;
	unsigned long counter;		/* plain increments: the lock protects it */
	atomic_t violations;
	atomic_t done;
} excl;

static void excl_lock(void)
{
	if (excl.kind == EXCL_MUTEX)
		mutex_lock(&excl.m);
	else
		down_write(&excl.sem);
}

static void excl_unlock(void)
{
	if (excl.kind == EXCL_MUTEX)
		mutex_unlock(&excl.m);
	else
		up_write(&excl.sem);
}

static int excl_fn(void *data)
{
	for (int i = 0; i < excl.iters; i++) {
		unsigned long v;

		excl_lock();
		if (READ_ONCE(excl.inside))
			atomic_inc(&excl.violations);
		WRITE_ONCE(excl.inside, 1);
		v = READ_ONCE(excl.counter);
		/*
		 * Now and then hold it long enough for others to spin, or
		 * sleep holding it so that they queue and sleep too.
		 */
		if (!(i & 63))
			msleep(1);
		else if (!(i & 7))
			udelay(20);
		else
			cpu_relax();
		WRITE_ONCE(excl.counter, v + 1);
		WRITE_ONCE(excl.inside, 0);
		excl_unlock();
	}
	atomic_inc(&excl.done);
	return 0;
}

/* Two threads per CPU, all hammering one lock. */
static void exclusion_case(struct ktest *t, enum excl_kind kind)
{
	int n = 0, cpu;

	excl.kind = kind;
	mutex_init(&excl.m);
	init_rwsem(&excl.sem);
	excl.iters = 600;
	excl.inside = 0;
	excl.counter = 0;
	atomic_set(&excl.violations, 0);
	atomic_set(&excl.done, 0);
	for_each_online_cpu(cpu) {
		for (int k = 0; k < 2 && n < MAX_THREADS; k++, n++)
			KTEST_ASSERT_TRUE(t, spawn(excl_fn, NULL, "excl", cpu, SCHED_NORMAL, 0));
	}
	KTEST_ASSERT_TRUE(t, wait_count(&excl.done, n, 60000));
	KTEST_EXPECT_EQ(t, atomic_read(&excl.violations), 0);
	KTEST_EXPECT_EQ(t, excl.counter, (unsigned long)n * excl.iters);
	KTEST_EXPECT_FALSE(t, mutex_is_locked(&excl.m));
	KTEST_EXPECT_FALSE(t, rwsem_is_locked(&excl.sem));
	ktest_info(t, "%d threads on %u CPUs, %lu critical sections", n,
		   num_online_cpus(), excl.counter);
}

static void mutex_exclusion_all_cpus(struct ktest *t)
{
	unsigned long sleeps = lockevent_read(LOCKEVENT_mutex_sleep);

	exclusion_case(t, EXCL_MUTEX);
	ktest_info(t, "waiters slept %lu times", event_delta(LOCKEVENT_mutex_sleep, sleeps));
}

static void rwsem_writers_exclusion_all_cpus(struct ktest *t)
{
	unsigned long sleeps = lockevent_read(LOCKEVENT_rwsem_sleep_writer);

	exclusion_case(t, EXCL_RWSEM_WRITE);
	ktest_info(t, "writers slept %lu times", event_delta(LOCKEVENT_rwsem_sleep_writer, sleeps));
}

/* ----------------------------------------------------------------- trylock */

static struct mutex try_m;
static atomic_t try_result;

static int trylock_fn(void *data)
{
	int ok = mutex_trylock(&try_m);

	if (ok)
		mutex_unlock(&try_m);
	atomic_set(&try_result, ok ? 1 : 2);
	return 0;
}

static void mutex_trylock_fails_when_held(struct ktest *t)
{
	int cpu = smp_processor_id();

	mutex_init(&try_m);
	mutex_lock(&try_m);
	KTEST_EXPECT_TRUE(t, mutex_is_locked(&try_m));
	atomic_set(&try_result, 0);
	KTEST_ASSERT_TRUE(t, spawn(trylock_fn, NULL, "trylock", cpu, SCHED_NORMAL, 0));
	while (!atomic_read(&try_result))
		msleep(1);
	KTEST_EXPECT_EQ(t, atomic_read(&try_result), 2);	/* failed */
	mutex_unlock(&try_m);
	KTEST_EXPECT_FALSE(t, mutex_is_locked(&try_m));

	KTEST_EXPECT_TRUE(t, mutex_trylock(&try_m));
	KTEST_EXPECT_TRUE(t, mutex_is_locked(&try_m));
	mutex_unlock(&try_m);
}

static void rwsem_trylock_rules(struct ktest *t)
{
	DECLARE_RWSEM(sem);

	KTEST_EXPECT_TRUE(t, down_read_trylock(&sem));
	KTEST_EXPECT_TRUE(t, down_read_trylock(&sem));	/* readers share */
	KTEST_EXPECT_FALSE(t, down_write_trylock(&sem));
	up_read(&sem);
	up_read(&sem);
	KTEST_EXPECT_TRUE(t, down_write_trylock(&sem));
	KTEST_EXPECT_FALSE(t, down_read_trylock(&sem));
	KTEST_EXPECT_FALSE(t, down_write_trylock(&sem));
	downgrade_write(&sem);
	KTEST_EXPECT_TRUE(t, down_read_trylock(&sem));	/* downgraded: readers in */
	KTEST_EXPECT_FALSE(t, down_write_trylock(&sem));
	up_read(&sem);
	up_read(&sem);
	KTEST_EXPECT_FALSE(t, rwsem_is_locked(&sem));
}

/* ------------------------------------------------------------- rwsem readers */

static struct rw_ctx {
	struct rw_semaphore sem;
	atomic_t readers_in;
	int max_readers;
	int writer_in;
	atomic_t violations;
	atomic_t reader_acq;		/* read acquisitions so far */
	atomic_t done;
	int reader_iters, writer_iters, hold_us, gap_us;
	volatile bool stop;
} rw;

static void note_max_readers(int n)
{
	int m = READ_ONCE(rw.max_readers);

	while (n > m && !__atomic_compare_exchange_n(&rw.max_readers, &m, n, false,
						      __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		;
}

static int rw_reader_fn(void *data)
{
	for (int i = 0; i < rw.reader_iters && !READ_ONCE(rw.stop); i++) {
		down_read(&rw.sem);
		atomic_inc(&rw.reader_acq);
		note_max_readers(atomic_inc_return(&rw.readers_in));
		if (READ_ONCE(rw.writer_in))
			atomic_inc(&rw.violations);
		udelay(rw.hold_us);
		if (READ_ONCE(rw.writer_in))
			atomic_inc(&rw.violations);
		atomic_dec(&rw.readers_in);
		up_read(&rw.sem);
		if (rw.gap_us)
			udelay(rw.gap_us);
	}
	atomic_inc(&rw.done);
	return 0;
}

static int rw_writer_fn(void *data)
{
	for (int i = 0; i < rw.writer_iters; i++) {
		down_write(&rw.sem);
		WRITE_ONCE(rw.writer_in, 1);
		if (atomic_read(&rw.readers_in))
			atomic_inc(&rw.violations);
		udelay(100);
		if (atomic_read(&rw.readers_in))
			atomic_inc(&rw.violations);
		WRITE_ONCE(rw.writer_in, 0);
		up_write(&rw.sem);
		udelay(50);
	}
	atomic_inc(&rw.done);
	return 0;
}

static void rw_reset(int reader_iters, int writer_iters, int hold_us, int gap_us)
{
	init_rwsem(&rw.sem);
	atomic_set(&rw.readers_in, 0);
	rw.max_readers = 0;
	rw.writer_in = 0;
	atomic_set(&rw.violations, 0);
	atomic_set(&rw.reader_acq, 0);
	atomic_set(&rw.done, 0);
	rw.reader_iters = reader_iters;
	rw.writer_iters = writer_iters;
	rw.hold_us = hold_us;
	rw.gap_us = gap_us;
	rw.stop = false;
}

/*
 * One reader per CPU and a writer: readers overlap, never with the
 * writer.  Readers leave gaps so that the writer often gets the lock with
 * nobody queued, and readers then arrive while it holds it.
 */
/*
 * Sharing, deterministically: each reader takes the lock and waits (up to
 * 2 s) for the other to be inside too.  Exclusive readers never meet.
 */
static atomic_t meet_inside, meet_met;

static int meet_reader_fn(void *data)
{
	atomic_t *met = &meet_met;

	down_read(&rw.sem);
	atomic_inc(&meet_inside);
	for (int i = 0; i < 2000 && atomic_read(&meet_inside) < 2; i++)
		msleep(1);
	if (atomic_read(&meet_inside) >= 2)
		atomic_inc(met);
	up_read(&rw.sem);
	atomic_inc(&rw.done);
	return 0;
}

static void rwsem_readers_meet(struct ktest *t)
{
	rw_reset(0, 0, 0, 0);
	atomic_set(&meet_inside, 0);
	atomic_set(&meet_met, 0);
	for (int i = 0; i < 2; i++)
		KTEST_ASSERT_TRUE(t, spawn(meet_reader_fn, NULL, "meet", i % num_online_cpus(),
					   SCHED_NORMAL, 0));
	KTEST_ASSERT_TRUE(t, wait_count(&rw.done, 2, 10000));
	KTEST_EXPECT_EQ(t, atomic_read(&meet_met), 2);
}

static void rwsem_readers_share_writers_exclude(struct ktest *t)
{
	int n = 0, cpu;

	rw_reset(300, 60, 30, 20);
	for_each_online_cpu(cpu) {
		KTEST_ASSERT_TRUE(t, spawn(rw_reader_fn, NULL, "reader", cpu, SCHED_NORMAL, 0));
		n++;
	}
	KTEST_ASSERT_TRUE(t, spawn(rw_writer_fn, NULL, "writer", 0, SCHED_NORMAL, 0));
	n++;
	KTEST_ASSERT_TRUE(t, wait_count(&rw.done, n, 60000));
	KTEST_EXPECT_EQ(t, atomic_read(&rw.violations), 0);
	KTEST_EXPECT_FALSE(t, rwsem_is_locked(&rw.sem));
	/* How much the stream overlapped depends on TCG timing: only told. */
	ktest_info(t, "up to %d readers inside at once", rw.max_readers);
	rwsem_readers_meet(t);
}

/*
 * Two readers per CPU re-take the lock back to back, so that it is never
 * free of readers for long.  A writer arriving in that stream must get in
 * within a bounded number of read acquisitions: once it waits, readers
 * queue behind it, and after RWSEM_WAIT_TIMEOUT its handoff bit shuts
 * out the steals that remain.
 */
#define STARVE_READER_ITERS	400

static atomic_t writer_got;

static int starve_writer_fn(void *data)
{
	int *got = data;
	int start = atomic_read(&rw.reader_acq);

	down_write(&rw.sem);
	*got = atomic_read(&rw.reader_acq) - start;
	up_write(&rw.sem);
	atomic_set(&writer_got, 1);
	return 0;
}

static void __maybe_unused rwsem_writer_not_starved_by_readers(struct ktest *t)
{
	int n = 0, cpu, got = -1;
	unsigned long handoffs = lockevent_read(LOCKEVENT_rwsem_wlock_handoff);

	rw_reset(STARVE_READER_ITERS, 0, 40, 0);
	atomic_set(&writer_got, 0);
	for_each_online_cpu(cpu) {
		for (int k = 0; k < 2; k++, n++)
			KTEST_ASSERT_TRUE(t, spawn(rw_reader_fn, NULL, "reader", cpu,
						   SCHED_NORMAL, 0));
	}
	/* Into the stream: the readers are all going. */
	while (atomic_read(&rw.reader_acq) < 4 * n)
		msleep(1);
	KTEST_ASSERT_TRUE(t, spawn(starve_writer_fn, &got, "writer", 0, SCHED_NORMAL, 0));
	KTEST_EXPECT_TRUE(t, wait_count(&writer_got, 1, 60000));
	WRITE_ONCE(rw.stop, true);
	KTEST_ASSERT_TRUE(t, wait_count(&rw.done, n, 60000));
	KTEST_EXPECT_TRUE(t, wait_count(&writer_got, 1, 1000));
	ktest_info(t, "writer got in after %d read acquisitions (%d readers, %lu writer handoffs)",
		   got, n, event_delta(LOCKEVENT_rwsem_wlock_handoff, handoffs));
	KTEST_EXPECT_GE(t, got, 0);
	/*
	 * Readers may still steal the lock until the writer has waited
	 * RWSEM_WAIT_TIMEOUT and set the handoff bit, so how many get in
	 * depends on their rate (TCG, host load).  Not starved means: in
	 * long before the read stream would have ended by itself.
	 */
	KTEST_EXPECT_LE(t, got, STARVE_READER_ITERS * n / 4);
}

/* ----------------------------------------------------------- mutex handoff */

/*
 * A SCHED_FIFO hog and a SCHED_NORMAL waiter share one CPU.  The hog
 * holds the mutex across a sleep and takes it again as soon as it lets
 * go: the waiter it wakes cannot run before the hog sleeps again, by
 * which time the hog holds the lock again.  Without a handoff the waiter
 * would wait for the hog to finish all its rounds.  With one, the waiter
 * finds the lock taken after its wakeup, sets HANDOFF, and the hog's next
 * unlock gives the lock to it.
 */
#define HANDOFF_ROUNDS		8
#define HOG_ROUNDS		400

static struct handoff_ctx {
	struct mutex m;
	volatile bool stop;
	atomic_t hog_rounds;
	atomic_t waiter_rounds;
	atomic_t done;
} ho;

static int handoff_hog_fn(void *data)
{
	while (!READ_ONCE(ho.stop) && atomic_read(&ho.hog_rounds) < HOG_ROUNDS) {
		mutex_lock(&ho.m);
		atomic_inc(&ho.hog_rounds);
		msleep(1);
		mutex_unlock(&ho.m);
	}
	atomic_inc(&ho.done);
	return 0;
}

static int handoff_waiter_fn(void *data)
{
	for (int i = 0; i < HANDOFF_ROUNDS; i++) {
		mutex_lock(&ho.m);
		atomic_inc(&ho.waiter_rounds);
		mutex_unlock(&ho.m);
	}
	atomic_inc(&ho.done);
	return 0;
}

static void __maybe_unused mutex_handoff_to_starving_waiter(struct ktest *t)
{
	unsigned long handoffs = lockevent_read(LOCKEVENT_mutex_handoff);
	int cpu = num_online_cpus() - 1;
	int hog_rounds;

	mutex_init(&ho.m);
	ho.stop = false;
	atomic_set(&ho.hog_rounds, 0);
	atomic_set(&ho.waiter_rounds, 0);
	atomic_set(&ho.done, 0);
	KTEST_ASSERT_TRUE(t, spawn(handoff_hog_fn, NULL, "hog", cpu, SCHED_FIFO, 10));
	while (atomic_read(&ho.hog_rounds) < 2)
		msleep(1);
	KTEST_ASSERT_TRUE(t, spawn(handoff_waiter_fn, NULL, "waiter", cpu, SCHED_NORMAL, 0));
	while (atomic_read(&ho.done) == 0)
		msleep(1);
	hog_rounds = atomic_read(&ho.hog_rounds);
	WRITE_ONCE(ho.stop, true);
	KTEST_ASSERT_TRUE(t, wait_count(&ho.done, 2, 10000));
	ktest_info(t, "waiter: %d rounds while the hog did %d; %lu handoffs",
		   atomic_read(&ho.waiter_rounds), hog_rounds,
		   event_delta(LOCKEVENT_mutex_handoff, handoffs));
	KTEST_EXPECT_EQ(t, atomic_read(&ho.waiter_rounds), HANDOFF_ROUNDS);
	/* Each waiter round costs the hog about two of its own. */
	KTEST_EXPECT_LE(t, hog_rounds, 3 * HANDOFF_ROUNDS + 4);
	KTEST_EXPECT_GE(t, event_delta(LOCKEVENT_mutex_handoff, handoffs), HANDOFF_ROUNDS / 2);
}

/* ------------------------------------------------- sleeping and spinning */

#ifndef CONFIG_PREEMPT_RT	/* the !RT mutex: its OSQ, its wait_list */

/*
 * The owner runs on CPU 1 for @busy_us holding the mutex, then sleeps
 * for @sleep_ms still holding it.  A SCHED_FIFO waiter on CPU 0 shares
 * its CPU with a SCHED_NORMAL task that counts: while the waiter spins
 * that task cannot run; once the waiter sleeps it can.
 */
static struct owner_ctx {
	struct mutex m;
	unsigned int busy_us, sleep_ms;
	atomic_t locked, done;
	unsigned long sleeps_before;
	bool waiter_slept_while_held;	/* seen by the owner before unlocking */
	unsigned long waiter_nvcsw;
	volatile bool stop_bg, waiter_started;
	volatile unsigned long bg_progress;
	unsigned long bg_at_unlock, bg_at_lock;
	bool background;
} ow;

/*
 * How long the owner waits at most for the waiter to get where the case
 * needs it, should the waiter's CPU take no timer interrupts meanwhile
 * (those bound the wait: OW_WAITER_TICKS).  Long: under plain TCG on a
 * loaded host a whole guest can go unrun for tens of seconds.
 */
#define OW_WAIT_NS	(60 * NSEC_PER_SEC)
/* Background loops that show the waiter left its CPU to others. */
#define OW_BG_LOOPS	1000

/* Timer interrupts the waiter's CPU (0) may take after the owner slept. */
#define OW_WAITER_TICKS	10

static unsigned long ow_waiter_cpu_ticks(void)
{
	return READ_ONCE(per_cpu(irq_stat, 0).apic_timer_irqs);
}

/* The waiter gave up spinning (or never spun) and queued to sleep. */
static bool ow_waiter_queued(void)
{
	return !list_empty(&ow.m.wait_list);
}

static bool ow_waiter_slept(void)
{
	return ow_waiter_queued() &&
	       lockevent_read(LOCKEVENT_mutex_sleep) != ow.sleeps_before;
}

static void ow_unlock(void)
{
	ow.waiter_slept_while_held = ow_waiter_slept();
	ow.bg_at_unlock = ow.bg_progress;
	mutex_unlock(&ow.m);
	atomic_inc(&ow.done);
}

static int owner_fn(void *data)
{
	u64 end;

	mutex_lock(&ow.m);
	atomic_set(&ow.locked, 1);
	/*
	 * Start the phases once the waiter is there (2000 rounds at most):
	 * under TCG a host stall while the test thread spawns it can outlast
	 * them.  Running if it is to spin on us (cond_resched(): kthreadd
	 * may need this CPU to create it), asleep otherwise.
	 */
	for (int i = 0; i < 2000 && !READ_ONCE(ow.waiter_started); i++) {
		if (ow.busy_us) {
			udelay(1000);
			cond_resched();
		} else {
			msleep(1);
		}
	}
	if (ow.busy_us) {
		/*
		 * On this CPU without a break (preemption off) from before the
		 * waiter spins until after the busy time: under plain TCG a
		 * host stall made us look preempted (vruntime jumped, a tick
		 * let a kworker in) and the waiter rightly gave up spinning.
		 * And the busy time starts only once the waiter spins, or
		 * has gone to sleep (spinning broken), whenever the host
		 * gets its vCPU there.
		 */
		unsigned long ticks = ow_waiter_cpu_ticks();

		preempt_disable();
		end = ktime_get_ns() + OW_WAIT_NS;
		while (!osq_is_locked(&ow.m.osq) && !ow_waiter_queued() &&
		       ow_waiter_cpu_ticks() - ticks < OW_WAITER_TICKS && ktime_get_ns() < end)
			cpu_relax();
		udelay(ow.busy_us);
		if (!ow.sleep_ms) {
			ow_unlock();
			preempt_enable();
			return 0;
		}
		preempt_enable();
	}
	if (ow.sleep_ms) {
		unsigned long ticks;

		/*
		 * Asleep until the waiter sleeps on the lock too and the
		 * background task has had its CPU meanwhile, or until the
		 * waiter's CPU has taken OW_WAITER_TICKS timer interrupts
		 * after our sleep: in guest time a host stall of that vCPU
		 * can outlast any sleep, but not interrupts it has to run to
		 * take, and a waiter that sees us asleep stops spinning
		 * within one turn of its loop.
		 */
		msleep(ow.sleep_ms);
		ticks = ow_waiter_cpu_ticks();
		end = ktime_get_ns() + OW_WAIT_NS;
		while ((!ow_waiter_slept() ||
			(ow.background && ow.bg_progress - ow.bg_at_lock <= OW_BG_LOOPS)) &&
		       ow_waiter_cpu_ticks() - ticks < OW_WAITER_TICKS &&
		       ktime_get_ns() < end)
			msleep(1);
	}
	ow_unlock();
	return 0;
}

static int fifo_waiter_fn(void *data)
{
	unsigned long nvcsw = current->nvcsw;

	ow.bg_at_lock = ow.bg_progress;
	WRITE_ONCE(ow.waiter_started, true);
	mutex_lock(&ow.m);
	ow.waiter_nvcsw = current->nvcsw - nvcsw;
	mutex_unlock(&ow.m);
	atomic_inc(&ow.done);
	return 0;
}

static int background_fn(void *data)
{
	/* cond_resched(): under PREEMPT_VOLUNTARY nothing else would let the waiter in. */
	while (!READ_ONCE(ow.stop_bg)) {
		ow.bg_progress++;
		cond_resched();
	}
	atomic_inc(&ow.done);
	return 0;
}

static void owner_scenario(struct ktest *t, unsigned int busy_us, unsigned int sleep_ms,
			   bool background)
{
	int threads = 2;

	mutex_init(&ow.m);
	ow.busy_us = busy_us;
	ow.sleep_ms = sleep_ms;
	ow.background = background;
	atomic_set(&ow.locked, 0);
	atomic_set(&ow.done, 0);
	ow.waiter_slept_while_held = false;
	ow.stop_bg = false;
	ow.waiter_started = false;
	ow.bg_progress = 0;
	ow.sleeps_before = lockevent_read(LOCKEVENT_mutex_sleep);
	KTEST_ASSERT_TRUE(t, spawn(owner_fn, NULL, "owner", 1, SCHED_NORMAL, 0));
	/* Sleep, not spin: under PREEMPT_VOLUNTARY the owner may need this CPU. */
	while (!atomic_read(&ow.locked))
		msleep(1);
	if (background) {
		KTEST_ASSERT_TRUE(t, spawn(background_fn, NULL, "bg", 0, SCHED_NORMAL, 0));
		threads++;
	}
	KTEST_ASSERT_TRUE(t, spawn(fifo_waiter_fn, NULL, "waiter", 0, SCHED_FIFO, 10));
	KTEST_ASSERT_TRUE(t, wait_count(&ow.done, 2, 60000));
	WRITE_ONCE(ow.stop_bg, true);
	KTEST_ASSERT_TRUE(t, wait_count(&ow.done, threads, 10000));
}

static void __maybe_unused mutex_sleeping_waiter_frees_its_cpu(struct ktest *t)
{
	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs");
	owner_scenario(t, 0, 100, true);
	ktest_info(t, "background task: %lu loops while the waiter waited",
		   ow.bg_at_unlock - ow.bg_at_lock);
	KTEST_EXPECT_TRUE(t, ow.waiter_slept_while_held);
	KTEST_EXPECT_GE(t, ow.waiter_nvcsw, 1);
	KTEST_EXPECT_GT(t, ow.bg_at_unlock - ow.bg_at_lock, OW_BG_LOOPS);
}

static void __maybe_unused mutex_spins_on_running_owner(struct ktest *t)
{
	unsigned long spins = lockevent_read(LOCKEVENT_mutex_opt_lock);
	int rounds = 5, spun = 0;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs");
	for (int i = 0; i < rounds; i++) {
		unsigned long before = lockevent_read(LOCKEVENT_mutex_opt_lock);

		owner_scenario(t, 20000, 0, false);
		if (lockevent_read(LOCKEVENT_mutex_opt_lock) != before && !ow.waiter_nvcsw)
			spun++;
	}
	ktest_info(t, "%d of %d waiters took the lock spinning, without sleeping (%lu opt locks)",
		   spun, rounds, event_delta(LOCKEVENT_mutex_opt_lock, spins));
	/*
	 * The owner stays on its CPU from before the waiter spins until it
	 * unlocks (owner_fn), so each round is won by spinning unless the
	 * waiter's own CPU wants it for something more important; with
	 * spinning broken none is.
	 */
	KTEST_EXPECT_GE(t, spun, 1);
}

static void __maybe_unused mutex_spinning_stops_when_owner_sleeps(struct ktest *t)
{
	unsigned long fails = lockevent_read(LOCKEVENT_mutex_opt_fail);

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs");
	/* Running long enough for the waiter to start spinning, then asleep. */
	owner_scenario(t, 20000, 50, false);
	ktest_info(t, "%lu spins given up", event_delta(LOCKEVENT_mutex_opt_fail, fails));
	KTEST_EXPECT_TRUE(t, ow.waiter_slept_while_held);
	KTEST_EXPECT_GE(t, ow.waiter_nvcsw, 1);
}

#endif /* !CONFIG_PREEMPT_RT */

/* ------------------------------------------------------------ might_sleep */

static void mutex_lock_might_sleep_in_atomic(struct ktest *t)
{
	int before = atomic_read(&sched_bug_count);
	DEFINE_MUTEX(m);
	u64 mark = ktest_log_mark();

	local_irq_disable();
	mutex_lock(&m);			/* uncontended: it does not sleep, but may */
	mutex_unlock(&m);
	local_irq_enable();
	KTEST_EXPECT_EQ(t, atomic_read(&sched_bug_count), before + 1);
	KTEST_EXPECT_LOG(t, mark, "BUG: sleeping function called from invalid context");
	/* Provoked on purpose: not a bug of this run. */
	atomic_set(&sched_bug_count, before);
	ktest_expect_reports("sched", 1);
}

/* ------------------------------------------------------------- benchmarks */

#define BENCH_OPS	2000

static u64 bench_ops(void (*op)(void *), void *arg)
{
	u64 best = ~0ULL;

	for (int r = 0; r < 5; r++) {
		u64 t0 = rdtsc_ordered();

		for (int i = 0; i < BENCH_OPS; i++)
			op(arg);
		best = min(best, (rdtsc_ordered() - t0) / BENCH_OPS);
	}
	return best;
}

static void op_mutex(void *arg)
{
	mutex_lock(arg);
	mutex_unlock(arg);
}

static void op_read(void *arg)
{
	down_read(arg);
	up_read(arg);
}

static void op_write(void *arg)
{
	down_write(arg);
	up_write(arg);
}

static void bench_uncontended(struct ktest *t)
{
	DEFINE_MUTEX(m);
	DECLARE_RWSEM(sem);

	ktest_info(t, "mutex: %llu cycles/op (%s)",
		   (unsigned long long)bench_ops(op_mutex, &m), ktest_clock_mode());
	ktest_info(t, "rwsem read: %llu cycles/op (%s)",
		   (unsigned long long)bench_ops(op_read, &sem), ktest_clock_mode());
	ktest_info(t, "rwsem write: %llu cycles/op (%s)",
		   (unsigned long long)bench_ops(op_write, &sem), ktest_clock_mode());
}

#ifdef CONFIG_PREEMPT_RT
/* --------------------------------------------- PREEMPT_RT: rt_mutex-based */

static struct mutex rt_m;
static struct rw_semaphore rt_sem;
static volatile bool rt_holds, rt_release, rt_holder_done, rt_waiter_done;
static int rt_holder_prio_seen;

static int rt_holder_fn(void *data)
{
	bool rwsem = data;

	if (rwsem)
		down_write(&rt_sem);
	else
		mutex_lock(&rt_m);
	smp_store_release(&rt_holds, true);
	while (!READ_ONCE(rt_release))
		msleep(1);
	rt_holder_prio_seen = current->prio;
	if (rwsem)
		up_write(&rt_sem);
	else
		mutex_unlock(&rt_m);
	smp_store_release(&rt_holder_done, true);
	return 0;
}

static int rt_waiter_fn(void *data)
{
	bool rwsem = data;

	if (rwsem) {
		down_read(&rt_sem);
		up_read(&rt_sem);
	} else {
		mutex_lock(&rt_m);
		mutex_unlock(&rt_m);
	}
	smp_store_release(&rt_waiter_done, true);
	return 0;
}

/*
 * On RT a mutex is an rt_mutex and an rw_semaphore's writer holds one: a
 * FIFO 60 task blocked on either (a reader, for the rwsem) lends its
 * priority to the FIFO 10 holder until the unlock.
 */
static void rt_mutex_and_rwsem_inherit(struct ktest *t)
{
	for (int rwsem = 0; rwsem < 2; rwsem++) {
		struct task_struct *h, *w;

		mutex_init(&rt_m);
		init_rwsem(&rt_sem);
		rt_holds = rt_release = rt_holder_done = rt_waiter_done = false;
		ktest_set_fifo(95);
		h = ktest_kthread(rt_holder_fn, (void *)(long)rwsem, "rt-holder", -1, SCHED_FIFO, 10);
		w = ktest_kthread(rt_waiter_fn, (void *)(long)rwsem, "rt-waiter", -1, SCHED_FIFO, 60);
		KTEST_ASSERT_TRUE(t, h && w);
		wake_up_process(h);
		ktest_wait_flag(&rt_holds);
		wake_up_process(w);
		for (int i = 0; i < 2000 && READ_ONCE(h->prio) != MAX_RT_PRIO - 1 - 60; i++)
			msleep(1);
		WRITE_ONCE(rt_release, true);
		ktest_wait_flag(&rt_holder_done);
		ktest_wait_flag(&rt_waiter_done);
		ktest_set_fifo(0);
		KTEST_EXPECT_EQ(t, rt_holder_prio_seen, MAX_RT_PRIO - 1 - 60);
		KTEST_EXPECT_EQ(t, h->prio, MAX_RT_PRIO - 1 - 10);
	}
}
#endif

static struct ktest_case mutex_cases[] = {
	KTEST_CASE(mutex_trylock_fails_when_held),
	KTEST_CASE(rwsem_trylock_rules),
	KTEST_CASE(mutex_lock_might_sleep_in_atomic),
	KTEST_CASE(mutex_exclusion_all_cpus),
	KTEST_CASE(rwsem_writers_exclusion_all_cpus),
	KTEST_CASE(rwsem_readers_share_writers_exclude),
#ifndef CONFIG_PREEMPT_RT
	/*
	 * The !RT algorithm's own properties (FIFO handoff, OSQ spinning,
	 * writer handoff); RT's rwsem may starve writers, as 5.15-rt does.
	 */
	KTEST_CASE(rwsem_writer_not_starved_by_readers),
	KTEST_CASE(mutex_handoff_to_starving_waiter),
	KTEST_CASE(mutex_sleeping_waiter_frees_its_cpu),
	KTEST_CASE(mutex_spins_on_running_owner),
	KTEST_CASE(mutex_spinning_stops_when_owner_sleeps),
#else
	KTEST_CASE(rt_mutex_and_rwsem_inherit),
#endif
	KTEST_CASE(bench_uncontended),
	{}
};

static struct ktest_suite mutex_suite = {
	.name = "mutex",
	.cases = mutex_cases,
};
ktest_register_suite(mutex_suite);
