// SPDX-License-Identifier: GPL-2.0
/*
 * RCU (kernel/rcu/): the classic torture checks in miniature.  Ordering
 * is asserted with flags set by the two sides, never with time: a delay
 * inside a reader only gives a broken grace period the chance to show.
 *
 *  - a reader holding an object across an updater's synchronize_rcu()
 *    never sees the updater's "freed" flag (SMP: reader and updater on
 *    different CPUs);
 *  - under PREEMPT_RCU, a reader preempted in its section by a
 *    higher-priority task delays that task's synchronize_rcu() until the
 *    reader's rcu_read_unlock() (works on one CPU);
 *  - a callback queued inside a reader does not run before it unlocks;
 *  - call_rcu() callbacks run exactly once, on their CPU, in order, and
 *    rcu_barrier() returns only after all of them;
 *  - kfree_rcu() frees after the grace period, not before (SLUB's
 *    freelist pointer lands in the object when it is freed);
 *  - grace periods complete while the other CPUs sit idle;
 *  - rcu_read_unlock() without a lock warns (PREEMPT_RCU).
 */
#include <linux/ktest.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/kthread.h>
#include <linux/delay.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/jiffies.h>
#include <linux/atomic.h>
#include <linux/bug.h>
#include <linux/spinlock.h>
#include <linux/kasan.h>

#define RCU_TEST_MAGIC	0x5a5aa5a5UL
/* Long enough for several ticks: a broken GP would end meanwhile. */
#define READER_HOLD_MS	40

struct rcu_obj {
	unsigned long magic;
	struct rcu_head rh;
};

/* ---------------------------------------------------- reader vs updater */

static struct rcu_obj *gptr;

struct sync_ctx {
	volatile bool reader_in, syncing, gp_done, unlocked, reader_done;
	bool saw_done_inside, saw_bad_magic, saw_unlocked_at_return;
};

static int sync_writer_fn(void *arg)
{
	struct sync_ctx *c = arg;
	struct rcu_obj *old;

	ktest_wait_flag(&c->reader_in);
	old = gptr;
	rcu_assign_pointer(gptr, NULL);
	WRITE_ONCE(c->syncing, true);
	synchronize_rcu();
	c->saw_unlocked_at_return = READ_ONCE(c->unlocked);
	smp_store_release(&c->gp_done, true);
	old->magic = 0;		/* as a free would leave it */
	kfree(old);
	return 0;
}

static void rcu_sync_waits_for_reader(struct ktest *t)
{
	struct sync_ctx c = {};
	struct task_struct *w;
	struct rcu_obj *p;
	int cpu = smp_processor_id();

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs (the updater runs beside the reader)");
	gptr = kmalloc(sizeof(*gptr), GFP_KERNEL);
	KTEST_ASSERT_TRUE(t, gptr != NULL);
	gptr->magic = RCU_TEST_MAGIC;
	w = ktest_kthread(sync_writer_fn, &c, "rcu_writer", cpu ? 0 : 1, SCHED_NORMAL, 0);
	KTEST_ASSERT_TRUE(t, w != NULL);
	wake_up_process(w);

	rcu_read_lock();
	p = rcu_dereference(gptr);
	WRITE_ONCE(c.reader_in, true);
	while (!READ_ONCE(c.syncing))
		cpu_relax();
	mdelay(READER_HOLD_MS);
	c.saw_done_inside = smp_load_acquire(&c.gp_done);
	c.saw_bad_magic = READ_ONCE(p->magic) != RCU_TEST_MAGIC;
	WRITE_ONCE(c.unlocked, true);
	rcu_read_unlock();

	ktest_wait_flag(&c.gp_done);
	KTEST_EXPECT_FALSE(t, c.saw_done_inside);
	KTEST_EXPECT_FALSE(t, c.saw_bad_magic);
	KTEST_EXPECT_TRUE(t, c.saw_unlocked_at_return);
}

/* --------------------------------------------------- preempted reader */

struct preempt_ctx {
	struct task_struct *hi;
	spinlock_t *lock;	/* the section is this spinlock_t's (RT) */
	volatile bool go, hi_done, unlocked, reader_done;
	bool hi_saw_unlocked, reader_saw_hi_done, hi_ran_inside;
	volatile bool hi_started;
};

static int preempt_hi_fn(void *arg)
{
	struct preempt_ctx *c = arg;

	WRITE_ONCE(c->hi_started, true);
	synchronize_rcu();
	c->hi_saw_unlocked = READ_ONCE(c->unlocked);
	smp_store_release(&c->hi_done, true);
	return 0;
}

/* Same CPU as the higher-priority updater, which preempts it at once. */
static int preempt_reader_fn(void *arg)
{
	struct preempt_ctx *c = arg;

	if (c->lock)
		spin_lock(c->lock);
	else
		rcu_read_lock();
	wake_up_process(c->hi);		/* FIFO: runs now, blocks in synchronize_rcu() */
	c->hi_ran_inside = READ_ONCE(c->hi_started);
	mdelay(READER_HOLD_MS);
	c->reader_saw_hi_done = smp_load_acquire(&c->hi_done);
	WRITE_ONCE(c->unlocked, true);
	if (c->lock)
		spin_unlock(c->lock);
	else
		rcu_read_unlock();
	smp_store_release(&c->reader_done, true);
	return 0;
}

static void preempted_reader_blocks_gp(struct ktest *t, spinlock_t *lock)
{
	struct preempt_ctx c = { .lock = lock };
	struct task_struct *r;

	c.hi = ktest_kthread(preempt_hi_fn, &c, "rcu_hi", 0, SCHED_FIFO, 10);
	KTEST_ASSERT_TRUE(t, c.hi != NULL);
	r = ktest_kthread(preempt_reader_fn, &c, "rcu_reader", 0, SCHED_NORMAL, 0);
	KTEST_ASSERT_TRUE(t, r != NULL);
	wake_up_process(r);
	ktest_wait_flag(&c.reader_done);
	ktest_wait_flag(&c.hi_done);
	/* The updater did preempt the reader inside its section... */
	KTEST_EXPECT_TRUE(t, c.hi_ran_inside);
	/* ...and its grace period still waited for the reader. */
	KTEST_EXPECT_FALSE(t, c.reader_saw_hi_done);
	KTEST_EXPECT_TRUE(t, c.hi_saw_unlocked);
}

static void rcu_preempted_reader_blocks_gp(struct ktest *t)
{
	if (!IS_ENABLED(CONFIG_PREEMPT_RCU))
		ktest_skip(t, "readers are not preemptible without PREEMPT_RCU");
	preempted_reader_blocks_gp(t, NULL);
}

/*
 * PREEMPT_RT: a spinlock_t holder is an RCU reader (rt_spin_lock() takes
 * rcu_read_lock(), as Linux 5.15-rt), so one preempted under the lock
 * holds up the grace period like a preempted reader.
 */
static void rcu_rt_spinlock_holder_blocks_gp(struct ktest *t)
{
	static DEFINE_SPINLOCK(rcu_test_lock);

	if (!IS_ENABLED(CONFIG_PREEMPT_RT))
		ktest_skip(t, "spinlock_t is a sleeping lock only on PREEMPT_RT");
	preempted_reader_blocks_gp(t, &rcu_test_lock);
}

/* ------------------------------------------------- callbacks and barrier */

static atomic_t cb_after_reader_runs;

static void cb_after_reader(struct rcu_head *rh)
{
	atomic_inc(&cb_after_reader_runs);
}

static void rcu_callback_waits_for_reader(struct ktest *t)
{
	struct rcu_head rh;
	int inside;

	atomic_set(&cb_after_reader_runs, 0);
	rcu_read_lock();
	call_rcu(&rh, cb_after_reader);
	mdelay(READER_HOLD_MS);
	inside = atomic_read(&cb_after_reader_runs);
	rcu_read_unlock();
	rcu_barrier();
	KTEST_EXPECT_EQ(t, inside, 0);
	KTEST_EXPECT_EQ(t, atomic_read(&cb_after_reader_runs), 1);
}

#define CBS_PER_CPU	200

struct order_cb {
	struct rcu_head rh;
	int cpu, idx;
};

static struct order_cb order_cbs[NR_CPUS][CBS_PER_CPU];
static atomic_t order_runs[NR_CPUS][CBS_PER_CPU];
static int order_last[NR_CPUS];
static atomic_t order_errors, order_wrong_cpu;

static void order_cb_fn(struct rcu_head *rh)
{
	struct order_cb *o = container_of(rh, struct order_cb, rh);

	atomic_inc(&order_runs[o->cpu][o->idx]);
	if (smp_processor_id() != o->cpu)
		atomic_inc(&order_wrong_cpu);
	if (order_last[o->cpu] != o->idx - 1)
		atomic_inc(&order_errors);
	order_last[o->cpu] = o->idx;
}

/* On each CPU: queue the CPU's callbacks in index order. */
static void order_queue(void *unused)
{
	int cpu = smp_processor_id(), i;

	for (i = 0; i < CBS_PER_CPU; i++) {
		order_cbs[cpu][i].cpu = cpu;
		order_cbs[cpu][i].idx = i;
		call_rcu(&order_cbs[cpu][i].rh, order_cb_fn);
	}
}

static void rcu_callbacks_once_in_order(struct ktest *t)
{
	int cpu, i, missing = 0, extra = 0;

	memset(order_runs, 0, sizeof(order_runs));
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		order_last[cpu] = -1;
	atomic_set(&order_errors, 0);
	atomic_set(&order_wrong_cpu, 0);
	ktest_on_each_cpu(order_queue, NULL);
	rcu_barrier();
	/* rcu_barrier() returned: every callback must have run, once. */
	for_each_online_cpu(cpu) {
		for (i = 0; i < CBS_PER_CPU; i++) {
			int n = atomic_read(&order_runs[cpu][i]);

			missing += n == 0;
			extra += n > 1;
		}
	}
	KTEST_EXPECT_EQ(t, missing, 0);
	KTEST_EXPECT_EQ(t, extra, 0);
	KTEST_EXPECT_EQ(t, atomic_read(&order_errors), 0);
	KTEST_EXPECT_EQ(t, atomic_read(&order_wrong_cpu), 0);
	ktest_info(t, "%d CPU(s) x %d callbacks", num_online_cpus(), CBS_PER_CPU);
}

/* ---------------------------------------------------------- kfree_rcu */

#define KFREE_WORDS	16

struct kfree_obj {
	unsigned long w[KFREE_WORDS];
	struct rcu_head rh;
};

static bool kfree_obj_intact(struct kfree_obj *o)
{
	int i;

	for (i = 0; i < KFREE_WORDS; i++)
		if (READ_ONCE(o->w[i]) != RCU_TEST_MAGIC + i)
			return false;
	return true;
}

/*
 * Intact throughout the reader; once the barrier has run the callbacks,
 * SLUB has put its freelist pointer inside the object (the debug
 * configurations also poison it), so the pattern is gone.  The read
 * after the free is the test's own, on purpose.
 */
static void rcu_kfree_rcu_after_gp(struct ktest *t)
{
	struct kfree_obj *o = kmalloc(sizeof(*o), GFP_KERNEL);
	bool inside;
	int i;

	KTEST_ASSERT_TRUE(t, o != NULL);
	for (i = 0; i < KFREE_WORDS; i++)
		o->w[i] = RCU_TEST_MAGIC + i;
	rcu_read_lock();
	kfree_rcu(o, rh);
	mdelay(READER_HOLD_MS);
	inside = kfree_obj_intact(o);
	rcu_read_unlock();
	rcu_barrier();
	KTEST_EXPECT_TRUE(t, inside);
	/* A read of freed memory on purpose (KASAN's metadata is there now). */
	kasan_disable_current();
	KTEST_EXPECT_FALSE(t, kfree_obj_intact(o));
	kasan_enable_current();
}

/* -------------------------------------------------------- idle progress */

struct idle_cb {
	struct rcu_head rh;
	volatile bool done;
};

static struct idle_cb idle_cbs[10];

static void idle_cb_fn(struct rcu_head *rh)
{
	smp_store_release(&container_of(rh, struct idle_cb, rh)->done, true);
}

/*
 * The other CPUs are idle: their ticks interrupting the idle loop report
 * their QSes.  Bounded so a broken idle path fails instead of hanging.
 * Where callbacks run in softirq (!RT), an idle CPU makes next to no
 * context switches meanwhile (the GP kthread is kept on this CPU for the
 * case), so fewer switches than grace periods there shows the GPs did
 * not wait for the scheduler to pass through (on RT every rcuc/N wakeup
 * is a switch, so the count says nothing).
 */
static void rcu_gp_progress_idle(struct ktest *t)
{
	unsigned long seq0 = rcu_get_gp_seq(), deadline;
	unsigned long long sw0[NR_CPUS];
	int i, cpu, done = 0;

	set_cpus_allowed_ptr(rcu_get_gp_kthread(), cpumask_of(smp_processor_id()));
	for_each_online_cpu(cpu)
		sw0[cpu] = nr_context_switches_cpu(cpu);

	for (i = 0; i < 10; i++) {
		struct idle_cb *c = &idle_cbs[i];

		c->done = false;
		call_rcu(&c->rh, idle_cb_fn);
		deadline = jiffies + 10 * HZ;
		while (!smp_load_acquire(&c->done) && time_before(jiffies, deadline))
			schedule_timeout_uninterruptible(1);
		if (!smp_load_acquire(&c->done))
			break;
		done++;
	}
	set_cpus_allowed_ptr(rcu_get_gp_kthread(), cpu_online_mask);
	KTEST_EXPECT_EQ(t, done, 10);
	if (done < 10) {
		rcu_dump_state();	/* the callbacks are static: no wait */
		return;
	}
	/* Each wait covered at least one full grace period of its own. */
	KTEST_EXPECT_TRUE(t, rcu_get_gp_seq() - seq0 >= 10UL << 2);
	ktest_info(t, "gp_seq %lu -> %lu", seq0, rcu_get_gp_seq());
	for_each_online_cpu(cpu) {
		unsigned long long sw = nr_context_switches_cpu(cpu) - sw0[cpu];

		if (cpu == smp_processor_id())
			continue;
		ktest_info(t, "cpu%d: %llu context switches", cpu, sw);
		if (!IS_ENABLED(CONFIG_PREEMPT_RT))
			KTEST_EXPECT_TRUE(t, sw < 10);
	}
}

/* ------------------------------------------------------------ nesting */

static void rcu_nesting_and_underflow(struct ktest *t)
{
	unsigned long before;

	rcu_read_lock();
	rcu_read_lock();
	KTEST_EXPECT_TRUE(t, rcu_read_lock_held());
	rcu_read_unlock();
	KTEST_EXPECT_TRUE(t, rcu_read_lock_held());
	rcu_read_unlock();
	if (!IS_ENABLED(CONFIG_PREEMPT_RCU))
		ktest_skip(t, "underflow is a preempt-count matter without PREEMPT_RCU");
	KTEST_EXPECT_FALSE(t, rcu_read_lock_held());
	before = taint_warn_count;
	rcu_read_unlock();
	KTEST_EXPECT_WARNINGS(t, before, 1);
	KTEST_EXPECT_EQ(t, rcu_preempt_depth(), 0);
}

static struct rcu_head wake_rh;
static bool wake_cb_done;
static atomic_t wake_hook_calls;

static void wake_cb_fn(struct rcu_head *rh)
{
	smp_store_release(&wake_cb_done, true);
}

/*
 * In the GP kthread, once: it found no GP wanted and is about to sleep.
 * Queue a callback here and let ticks pass with interrupts on: RCU's
 * softirq runs on top of the kthread, numbers the callback and asks for
 * a GP, and must wake the kthread from there.
 */
static void gp_wait_hook(void)
{
	if (atomic_inc_return(&wake_hook_calls) != 1)
		return;
	call_rcu(&wake_rh, wake_cb_fn);
	mdelay(20);	/* two ticks at least */
}

static bool wait_wake_cb(unsigned long timeout)
{
	unsigned long deadline = jiffies + timeout;

	while (!smp_load_acquire(&wake_cb_done) && time_before(jiffies, deadline))
		schedule_timeout_uninterruptible(1);
	return smp_load_acquire(&wake_cb_done);
}

/*
 * A GP asked for from an interrupt (here RCU's softirq) that came on top
 * of the GP kthread between its gp_flags check and its sleep starts all
 * the same: rcu_gp_kthread_wake() wakes the kthread from interrupt
 * context even when it is the task interrupted.
 */
static void rcu_gp_request_from_irq_on_kthread(struct ktest *t)
{
	struct task_struct *gpk = rcu_get_gp_kthread();
	bool done;

	WRITE_ONCE(wake_cb_done, false);
	atomic_set(&wake_hook_calls, 0);
	WRITE_ONCE(rcu_gp_wait_test_hook, gp_wait_hook);
	/* Round its wait loop once more (a GP under way gets there after it). */
	wake_up_process(gpk);
	done = wait_wake_cb(2 * HZ);
	WRITE_ONCE(rcu_gp_wait_test_hook, NULL);
	KTEST_EXPECT_EQ(t, atomic_read(&wake_hook_calls) > 0, 1);
	KTEST_EXPECT_TRUE(t, done);
	if (!done && atomic_read(&wake_hook_calls)) {
		/* Lost: wake it from here so the callback (static) is run. */
		wake_up_process(gpk);
		KTEST_EXPECT_TRUE(t, wait_wake_cb(10 * HZ));
	}
}

static struct ktest_case rcu_cases[] = {
	KTEST_CASE(rcu_nesting_and_underflow),
	KTEST_CASE(rcu_gp_progress_idle),
	KTEST_CASE(rcu_sync_waits_for_reader),
	KTEST_CASE(rcu_preempted_reader_blocks_gp),
	KTEST_CASE(rcu_rt_spinlock_holder_blocks_gp),
	KTEST_CASE(rcu_callback_waits_for_reader),
	KTEST_CASE(rcu_callbacks_once_in_order),
	KTEST_CASE(rcu_kfree_rcu_after_gp),
	KTEST_CASE(rcu_gp_request_from_irq_on_kthread),
	{}
};

static struct ktest_suite rcu_suite = { .name = "rcu", .cases = rcu_cases };
ktest_register_suite(rcu_suite);
