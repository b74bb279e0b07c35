// SPDX-License-Identifier: GPL-2.0
/*
 * RCU priority boosting (CONFIG_RCU_BOOST, PREEMPT_RT's default).
 *
 * The scene: a SCHED_NORMAL reader, preempted inside rcu_read_lock() by a
 * SCHED_FIFO CPU hog pinned to the same CPU, holds up a grace period that
 * a higher-priority updater waits for in synchronize_rcu().  The hog sits
 * below the RCU kthreads (boot with rcutree.kthread_prio=2, as rcutorture
 * does), so the GP kthread and rcub still run.
 *
 *  - with RCU_BOOST the reader runs again while the hog still spins, at
 *    rcub's priority, no sooner than RCU_BOOST_DELAY after the GP began;
 *    it is back at its own priority once it leaves the section, the GP
 *    ends while the hog spins, and rcub's boost completes (n_boosts);
 *  - without RCU_BOOST the reader gets the CPU only when the hog stops,
 *    and the GP with it.
 *
 * Order is asserted with flags the tasks set, not with time: the hog
 * cannot be preempted by the reader except through boosting, on any
 * clock.  The hog gives up after HOG_LIMIT_MS, so a boost that never
 * comes fails the case instead of hanging the run; the only time bound
 * checked everywhere is the delay's lower one, which host stalls can only
 * lengthen.  The upper one is checked under icount.
 */
#include <linux/ktest.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/jiffies.h>
#include <linux/string.h>

#define HOG_PRIO	1
#define UPDATER_PRIO	(HOG_PRIO + 10)
/* Without boosting the hog spins this long, well past the boost delay. */
#define NOBOOST_HOG_MS	800
/* With boosting, a hog still spinning after this means no boost came. */
#define HOG_LIMIT_MS	3000
/* Bounded waits for the tasks' last steps (rcub's unlock, exits). */
#define SETTLE_MS	2000

#ifdef CONFIG_RCU_BOOST
#define BOOST_DELAY_MS	CONFIG_RCU_BOOST_DELAY
#else
#define BOOST_DELAY_MS	0
#endif

struct boost_ctx {
	struct task_struct *reader, *hog, *updater;
	int cpu;
	unsigned long hog_ms;
	volatile bool hog_spinning, hog_stop, hog_done;
	volatile bool reader_resumed, reader_done, gp_done;
	bool hog_timed_out;
	bool reader_resumed_while_hog;	/* hog still spinning when reader ran */
	bool gp_done_while_hog;		/* ...and when the GP ended */
	int prio_before, prio_inside, prio_after;
	ktime_t sync_start, resumed_at;
};

/* Sleep-poll @flag for up to @ms; true if it was set. */
static bool wait_flag_ms(volatile bool *flag, unsigned int ms)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(ms);

	while (!smp_load_acquire(flag)) {
		if (time_after(jiffies, deadline))
			return false;
		schedule_timeout_uninterruptible(1);
	}
	return true;
}

static int boost_updater_fn(void *arg)
{
	struct boost_ctx *c = arg;

	c->sync_start = ktime_get();
	synchronize_rcu();
	c->gp_done_while_hog = READ_ONCE(c->hog_spinning) && !READ_ONCE(c->hog_done);
	WRITE_ONCE(c->hog_stop, true);
	smp_store_release(&c->gp_done, true);
	return 0;
}

/*
 * Preempts the reader at once (same CPU, FIFO over NORMAL), starts the
 * updater's grace period with the reader already queued as a blocker,
 * then spins until the updater says the GP ended, or hog_ms passed.
 */
static int boost_hog_fn(void *arg)
{
	struct boost_ctx *c = arg;
	ktime_t end;

	WRITE_ONCE(c->hog_spinning, true);
	wake_up_process(c->updater);	/* higher FIFO: runs and sleeps in synchronize_rcu() */
	end = ktime_get() + (ktime_t)c->hog_ms * NSEC_PER_MSEC;
	while (!READ_ONCE(c->hog_stop)) {
		if (ktime_get() > end) {
			c->hog_timed_out = true;
			break;
		}
		cpu_relax();
	}
	WRITE_ONCE(c->hog_spinning, false);
	smp_store_release(&c->hog_done, true);
	return 0;
}

static int boost_reader_fn(void *arg)
{
	struct boost_ctx *c = arg;

	c->prio_before = current->prio;
	rcu_read_lock();
	wake_up_process(c->hog);
	/* Here again only once boosted past the hog, or once it stopped. */
	c->resumed_at = ktime_get();
	c->prio_inside = current->prio;
	c->reader_resumed_while_hog = READ_ONCE(c->hog_spinning) && !READ_ONCE(c->hog_done);
	smp_store_release(&c->reader_resumed, true);
	rcu_read_unlock();
	c->prio_after = current->prio;
	smp_store_release(&c->reader_done, true);
	return 0;
}

static void boost_scene(struct ktest *t, struct boost_ctx *c, unsigned long hog_ms)
{
	memset(c, 0, sizeof(*c));
	c->hog_ms = hog_ms;
	c->cpu = num_online_cpus() - 1;
	c->updater = ktest_kthread(boost_updater_fn, c, "rcub_updater", c->cpu,
				   SCHED_FIFO, UPDATER_PRIO);
	c->hog = ktest_kthread(boost_hog_fn, c, "rcub_hog", c->cpu, SCHED_FIFO, HOG_PRIO);
	c->reader = ktest_kthread(boost_reader_fn, c, "rcub_reader", c->cpu, SCHED_NORMAL, 0);
	KTEST_ASSERT_TRUE(t, c->updater && c->hog && c->reader);
	wake_up_process(c->reader);
	/* The hog gives up after hog_ms: all three finish in bounded time. */
	KTEST_ASSERT_TRUE(t, wait_flag_ms(&c->hog_done, hog_ms + SETTLE_MS));
	KTEST_ASSERT_TRUE(t, wait_flag_ms(&c->reader_done, SETTLE_MS));
	KTEST_ASSERT_TRUE(t, wait_flag_ms(&c->gp_done, SETTLE_MS));
}

/* Boosting needs the RCU kthreads above the hog. */
static void need_kthreads_above_hog(struct ktest *t, struct task_struct *k)
{
	if (!k || k->policy != SCHED_FIFO || k->rt_priority <= HOG_PRIO)
		ktest_skip(t, "needs the RCU kthreads above SCHED_FIFO %d: boot with rcutree.kthread_prio=%d",
			   HOG_PRIO, HOG_PRIO + 1);
}

static void rcu_boost_lifts_preempted_reader(struct ktest *t)
{
	struct task_struct *rcub = rcu_get_boost_kthread();
	unsigned long boosts0 = rcu_get_n_boosts();
	long long waited_ms;
	struct boost_ctx c;

	if (!IS_ENABLED(CONFIG_RCU_BOOST))
		ktest_skip(t, "RCU_BOOST is not configured");
	need_kthreads_above_hog(t, rcub);
	need_kthreads_above_hog(t, rcu_get_gp_kthread());
	boost_scene(t, &c, HOG_LIMIT_MS);

	/* The GP ended while the hog still spun: the reader was boosted past it. */
	KTEST_EXPECT_FALSE(t, c.hog_timed_out);
	KTEST_EXPECT_TRUE(t, c.reader_resumed_while_hog);
	KTEST_EXPECT_TRUE(t, c.gp_done_while_hog);
	/* ...to rcub's priority, and back to its own once out of the section. */
	KTEST_EXPECT_EQ(t, c.prio_inside, rcub->prio);
	KTEST_EXPECT_EQ(t, c.prio_after, c.prio_before);
	KTEST_EXPECT_EQ(t, c.reader->prio, c.reader->normal_prio);
	/* rcub's lock of boost_mtx came back once the reader let it go. */
	{
		unsigned long end = jiffies + msecs_to_jiffies(SETTLE_MS);

		while (rcu_get_n_boosts() == boosts0 && time_before(jiffies, end))
			schedule_timeout_uninterruptible(1);
	}
	KTEST_EXPECT_GT(t, rcu_get_n_boosts(), boosts0);
	KTEST_EXPECT_EQ(t, rcub->prio, rcub->normal_prio);

	/* Not before RCU_BOOST_DELAY from the GP's start (a jiffy of slack). */
	waited_ms = (long long)((c.resumed_at - c.sync_start) / NSEC_PER_MSEC);
	KTEST_EXPECT_GE(t, waited_ms, (long long)BOOST_DELAY_MS - 1000 / HZ);
	if (!strcmp(ktest_clock_mode(), "icount"))
		KTEST_EXPECT_LE(t, waited_ms, (long long)BOOST_DELAY_MS + 50);
	ktest_info(t, "reader prio %d -> %d -> %d, resumed %lld ms after synchronize_rcu() (%s), boosts %lu",
		   c.prio_before, c.prio_inside, c.prio_after, waited_ms, ktest_clock_mode(),
		   rcu_get_n_boosts() - boosts0);
}

static void rcu_noboost_reader_waits_for_hog(struct ktest *t)
{
	struct boost_ctx c;

	if (IS_ENABLED(CONFIG_RCU_BOOST))
		ktest_skip(t, "RCU_BOOST is configured (see rcu_boost_lifts_preempted_reader)");
	if (!IS_ENABLED(CONFIG_PREEMPT_RCU))
		ktest_skip(t, "readers are not preemptible without PREEMPT_RCU");
	boost_scene(t, &c, NOBOOST_HOG_MS);

	/* The hog ran its full time; nothing lifted the reader meanwhile. */
	KTEST_EXPECT_TRUE(t, c.hog_timed_out);
	KTEST_EXPECT_FALSE(t, c.reader_resumed_while_hog);
	KTEST_EXPECT_FALSE(t, c.gp_done_while_hog);
	KTEST_EXPECT_EQ(t, c.prio_inside, c.prio_before);
	KTEST_EXPECT_EQ(t, c.prio_after, c.prio_before);
	KTEST_EXPECT_TRUE(t, rcu_get_boost_kthread() == NULL);
	ktest_info(t, "reader prio %d throughout, resumed %lld ms after synchronize_rcu()",
		   c.prio_inside, (long long)((c.resumed_at - c.sync_start) / NSEC_PER_MSEC));
}

/*
 * Linux's kthread_prio rules: the GP kthread is SCHED_FIFO when it is
 * non-zero; with RCU_BOOST so are rcub and rcuc/N, at the same priority;
 * without it rcuc/N stays SCHED_NORMAL.
 */
static void rcu_boost_kthread_prios(struct ktest *t)
{
	struct task_struct *gp = rcu_get_gp_kthread(), *rcub = rcu_get_boost_kthread();
	struct task_struct *rcuc = rcu_get_cpu_kthread(0);

	KTEST_ASSERT_TRUE(t, gp != NULL);
	if (IS_ENABLED(CONFIG_RCU_BOOST)) {
		KTEST_ASSERT_TRUE(t, rcub != NULL);
		KTEST_EXPECT_EQ(t, rcub->policy, SCHED_FIFO);
		KTEST_EXPECT_GE(t, rcub->rt_priority, 1);
		KTEST_EXPECT_EQ(t, gp->policy, SCHED_FIFO);
		KTEST_EXPECT_EQ(t, gp->rt_priority, rcub->rt_priority);
		if (rcuc) {
			KTEST_EXPECT_EQ(t, rcuc->policy, SCHED_FIFO);
			KTEST_EXPECT_EQ(t, rcuc->rt_priority, rcub->rt_priority);
		}
		ktest_info(t, "rcub/0, %s%s: SCHED_FIFO %u", gp->comm,
			   rcuc ? ", rcuc/0" : "", rcub->rt_priority);
	} else {
		KTEST_EXPECT_TRUE(t, rcub == NULL);
		if (rcuc)
			KTEST_EXPECT_EQ(t, rcuc->policy, SCHED_NORMAL);
		ktest_info(t, "%s: policy %u prio %u; rcuc/0 policy %d", gp->comm, gp->policy,
			   gp->rt_priority, rcuc ? (int)rcuc->policy : -1);
	}
}

static struct ktest_case rcu_boost_cases[] = {
	KTEST_CASE(rcu_boost_kthread_prios),
	KTEST_CASE(rcu_boost_lifts_preempted_reader),
	KTEST_CASE(rcu_noboost_reader_waits_for_hog),
	{}
};

static struct ktest_suite rcu_boost_suite = { .name = "rcu_boost", .cases = rcu_boost_cases };
ktest_register_suite(rcu_boost_suite);
