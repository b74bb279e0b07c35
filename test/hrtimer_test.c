// SPDX-License-Identifier: GPL-2.0
/*
 * hrtimers: expiry order and never early, hard/soft expiry context per
 * preemption model, cancel racing with expiry on another CPU, periodic
 * timers with hrtimer_forward(), the sleeping primitives built on them,
 * and expiry latency figures.  Upper timing bounds only with
 * ktest.exact_time=1 (icount).
 */
#include <linux/ktest.h>
#include <linux/hrtimer.h>
#include <linux/sched.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/jiffies.h>
#include <linux/delay.h>
#include <linux/smp.h>
#include <linux/percpu.h>
#include <linux/cpumask.h>
#include <linux/preempt.h>
#include <linux/errno.h>
#include <linux/irqflags.h>

DECLARE_PER_CPU(struct task_struct *, ksoftirqd);

#ifdef CONFIG_PREEMPT_RT
#define TEST_RT	1
#else
#define TEST_RT	0
#endif

#define NR_ORDER	8

struct order_timer {
	struct hrtimer timer;
	u64 fired;
	int seq;
	int cpu;
	bool ctx_ok;
};

static struct order_timer otimers[NR_ORDER];
static int order_seq;

/* Is the current context the one a @soft (or hard) timer must expire in? */
static bool expiry_context_ok(bool soft)
{
	if (!soft)
		return in_hardirq();
	if (in_hardirq())
		return false;
	if (TEST_RT)
		return current == this_cpu_read(ksoftirqd);
	return in_serving_softirq();
}

static enum hrtimer_restart order_fn(struct hrtimer *timer)
{
	struct order_timer *ot = container_of(timer, struct order_timer, timer);

	ot->fired = ktime_get_ns();
	ot->cpu = smp_processor_id();
	ot->ctx_ok = expiry_context_ok(timer->is_soft);
	WRITE_ONCE(ot->seq, ++order_seq);
	return HRTIMER_NORESTART;
}

static bool wait_seq(int *seq, int want)
{
	for (int i = 0; i < 2000 && READ_ONCE(*seq) < want; i++)
		msleep(1);
	return READ_ONCE(*seq) >= want;
}

static void run_order(struct ktest *t, enum hrtimer_mode mode, bool expect_soft)
{
	static const unsigned int off_us[NR_ORDER] = { 700, 150, 900, 50, 400, 1200, 260, 80 };
	unsigned long flags;
	ktime_t base;
	int cpu;

	order_seq = 0;
	migrate_disable();
	cpu = smp_processor_id();
	for (int i = 0; i < NR_ORDER; i++) {
		hrtimer_init(&otimers[i].timer, CLOCK_MONOTONIC, mode);
		otimers[i].timer.function = order_fn;
		otimers[i].seq = 0;
		KTEST_EXPECT_EQ(t, otimers[i].timer.is_soft, expect_soft);
	}
	/* All queued before the first is due: the order is the expiry order. */
	local_irq_save(flags);
	base = ktime_get() + 200 * NSEC_PER_USEC;
	for (int i = 0; i < NR_ORDER; i++)
		hrtimer_start(&otimers[i].timer, base + off_us[i] * NSEC_PER_USEC, mode);
	local_irq_restore(flags);
	migrate_enable();
	KTEST_ASSERT_TRUE(t, wait_seq(&order_seq, NR_ORDER));
	for (int i = 0; i < NR_ORDER; i++) {
		struct order_timer *a = &otimers[i];

		KTEST_EXPECT_GE(t, (s64)a->fired, hrtimer_get_softexpires(&a->timer));
		KTEST_EXPECT_EQ(t, a->cpu, cpu);
		KTEST_EXPECT_TRUE(t, a->ctx_ok);
		KTEST_EXPECT_FALSE(t, hrtimer_active(&a->timer));
		for (int j = 0; j < NR_ORDER; j++)
			if (hrtimer_get_softexpires(&otimers[j].timer) <
			    hrtimer_get_softexpires(&a->timer))
				KTEST_EXPECT_LT(t, otimers[j].seq, a->seq);
	}
}

static void hard_in_order_not_early(struct ktest *t)
{
	run_order(t, HRTIMER_MODE_HARD, false);
}

static void soft_in_order_not_early(struct ktest *t)
{
	run_order(t, HRTIMER_MODE_SOFT, true);
}

/* 5.15: on PREEMPT_RT a timer without _HARD is soft; on !RT it is hard. */
static void plain_mode_per_model(struct ktest *t)
{
	run_order(t, HRTIMER_MODE_ABS, TEST_RT);
}

/* --- cancel racing with expiry --------------------------------------- */

enum { RACE_IDLE, RACE_ARMED, RACE_CANCELLED };

static struct hrtimer race_timer;
static int race_state;
static unsigned long race_fired, race_violations;
static u64 race_delay_ns;

static enum hrtimer_restart race_fn(struct hrtimer *timer)
{
	if (READ_ONCE(race_state) != RACE_ARMED)
		race_violations++;
	race_fired++;
	ndelay(200);		/* widen the window for the canceller */
	return HRTIMER_NORESTART;
}

static void race_arm(void *info)
{
	WRITE_ONCE(race_state, RACE_ARMED);
	hrtimer_start(&race_timer, READ_ONCE(race_delay_ns), *(enum hrtimer_mode *)info);
}

#define RACE_LOOPS	2000

static void run_cancel_race(struct ktest *t, enum hrtimer_mode mode)
{
	unsigned long cancelled = 0, ret0 = 0;
	int target;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs");
	migrate_disable();
	target = smp_processor_id() ? 0 : 1;
	hrtimer_init(&race_timer, CLOCK_MONOTONIC, mode);
	race_timer.function = race_fn;
	race_fired = race_violations = 0;
	mode |= HRTIMER_MODE_REL;
	for (int i = 0; i < RACE_LOOPS; i++) {
		int ret;

		race_delay_ns = (i * 7919) % 20000;	/* 0..20 us: around now */
		smp_call_function_single(target, race_arm, &mode, 1);
		ndelay((i * 104729) % 15000);
		ret = hrtimer_cancel(&race_timer);
		WRITE_ONCE(race_state, RACE_CANCELLED);
		smp_mb();
		KTEST_EXPECT_FALSE(t, hrtimer_active(&race_timer));
		if (ret == 1)
			cancelled++;
		else
			ret0++;
	}
	migrate_enable();
	msleep(2);
	ktest_info(t, "%lu cancelled before expiry, %lu after", cancelled, ret0);
	KTEST_EXPECT_EQ(t, race_violations, 0);
	KTEST_EXPECT_EQ(t, race_fired + cancelled, RACE_LOOPS);
	KTEST_EXPECT_EQ(t, race_fired, ret0);
}

static void cancel_races_expiry_hard(struct ktest *t)
{
	run_cancel_race(t, HRTIMER_MODE_HARD);
}

static void cancel_races_expiry_soft(struct ktest *t)
{
	run_cancel_race(t, HRTIMER_MODE_SOFT);
}

/* --- periodic ------------------------------------------------------- */

#define PERIODIC_N	10
#define PERIOD_NS	(200 * NSEC_PER_USEC)

static struct hrtimer periodic_timer;
static int periodic_count;
static u64 periodic_last;
static u64 periodic_overruns;

static enum hrtimer_restart periodic_fn(struct hrtimer *timer)
{
	periodic_last = ktime_get_ns();
	if (++periodic_count >= PERIODIC_N) {
		WRITE_ONCE(periodic_count, periodic_count);
		return HRTIMER_NORESTART;
	}
	periodic_overruns += hrtimer_forward_now(timer, PERIOD_NS);
	return HRTIMER_RESTART;
}

static void periodic_restart_forward(struct ktest *t)
{
	u64 start;

	periodic_count = 0;
	periodic_overruns = 0;
	hrtimer_init(&periodic_timer, CLOCK_MONOTONIC, HRTIMER_MODE_HARD);
	periodic_timer.function = periodic_fn;
	start = ktime_get_ns();
	hrtimer_start(&periodic_timer, PERIOD_NS, HRTIMER_MODE_REL_HARD);
	KTEST_ASSERT_TRUE(t, wait_seq(&periodic_count, PERIODIC_N));
	msleep(1);
	KTEST_EXPECT_EQ(t, periodic_count, PERIODIC_N);
	KTEST_EXPECT_FALSE(t, hrtimer_active(&periodic_timer));
	KTEST_EXPECT_GE(t, periodic_overruns, PERIODIC_N - 1);
	/* Forwarding from "now" each time: at least N periods elapsed. */
	KTEST_EXPECT_GE(t, periodic_last - start, PERIODIC_N * PERIOD_NS);
	KTEST_EXPECT_EQ(t, hrtimer_cancel(&periodic_timer), 0);
}

static void forward_counts_overruns(struct ktest *t)
{
	struct hrtimer tm;

	hrtimer_init(&tm, CLOCK_MONOTONIC, HRTIMER_MODE_HARD);
	hrtimer_set_expires(&tm, 1000);
	KTEST_EXPECT_EQ(t, hrtimer_forward(&tm, 500, 100), 0);
	KTEST_EXPECT_EQ(t, hrtimer_forward(&tm, 1000, 100), 1);
	KTEST_EXPECT_EQ(t, hrtimer_get_expires(&tm), 1100);
	KTEST_EXPECT_EQ(t, hrtimer_forward(&tm, 1550, 100), 5);
	KTEST_EXPECT_EQ(t, hrtimer_get_expires(&tm), 1600);
}

/* --- sleeping ------------------------------------------------------- */

static void msleep_2ms(struct ktest *t)
{
	u64 start = ktime_get_ns(), d;

	msleep(2);
	d = ktime_get_ns() - start;
	ktest_info(t, "msleep(2) took %llu ns", (unsigned long long)d);
	KTEST_EXPECT_GE(t, d, 2 * NSEC_PER_MSEC);
	if (ktest_exact_time)
		KTEST_EXPECT_LE(t, d, 2 * NSEC_PER_MSEC + 200 * NSEC_PER_USEC);
}

static void usleep_range_min(struct ktest *t)
{
	u64 start = ktime_get_ns(), d;

	usleep_range(300, 400);
	d = ktime_get_ns() - start;
	KTEST_EXPECT_GE(t, d, 300 * NSEC_PER_USEC);
	if (ktest_exact_time)
		KTEST_EXPECT_LE(t, d, 600 * NSEC_PER_USEC);
}

static void schedule_timeout_times_out(struct ktest *t)
{
	u64 start = ktime_get_ns();
	long left;

	set_current_state(TASK_UNINTERRUPTIBLE);
	left = schedule_timeout(2);
	KTEST_EXPECT_EQ(t, left, 0);
	KTEST_EXPECT_EQ(t, READ_ONCE(current->__state), TASK_RUNNING);
	KTEST_EXPECT_GE(t, ktime_get_ns() - start, 2 * TICK_NSEC);
}

static int early_waker(void *data)
{
	struct task_struct *sleeper = data;

	msleep(1);
	wake_up_process(sleeper);
	return 0;
}

static void schedule_timeout_woken_early(struct ktest *t)
{
	struct task_struct *w;
	long left;

	set_current_state(TASK_INTERRUPTIBLE);
	w = kthread_run(early_waker, current, "hrt_waker");
	KTEST_ASSERT_TRUE(t, w != NULL);
	left = schedule_timeout(100);
	__set_current_state(TASK_RUNNING);
	KTEST_EXPECT_GT(t, left, 0);
	KTEST_EXPECT_LE(t, left, 100);
	msleep(2);	/* let the waker exit */
}

static void schedule_hrtimeout_rel(struct ktest *t)
{
	ktime_t exp = 500 * NSEC_PER_USEC;
	u64 start = ktime_get_ns();
	int ret;

	set_current_state(TASK_UNINTERRUPTIBLE);
	ret = schedule_hrtimeout(&exp, HRTIMER_MODE_REL);
	KTEST_EXPECT_EQ(t, ret, 0);
	KTEST_EXPECT_GE(t, ktime_get_ns() - start, 500 * NSEC_PER_USEC);
}

/* --- latency figures ------------------------------------------------ */

#define LAT_LOOPS	50

static struct hrtimer lat_timer;
static u64 lat_sum, lat_min, lat_max;
static int lat_seq;

static enum hrtimer_restart lat_fn(struct hrtimer *timer)
{
	u64 d = ktime_get_ns() - hrtimer_get_softexpires(timer);

	lat_sum += d;
	lat_min = min(lat_min, d);
	lat_max = max(lat_max, d);
	WRITE_ONCE(lat_seq, lat_seq + 1);
	return HRTIMER_NORESTART;
}

static void lat_reset(void)
{
	lat_sum = lat_max = 0;
	lat_min = ~0ULL;
	lat_seq = 0;
}

static void lat_report(struct ktest *t, const char *what)
{
	ktest_info(t, "%s latency (%s): min %llu avg %llu max %llu ns over %d", what,
		   ktest_clock_mode(), (unsigned long long)lat_min,
		   (unsigned long long)(lat_sum / LAT_LOOPS), (unsigned long long)lat_max, LAT_LOOPS);
}

static void run_latency(struct ktest *t, enum hrtimer_mode mode, const char *what)
{
	lat_reset();
	hrtimer_init(&lat_timer, CLOCK_MONOTONIC, mode);
	lat_timer.function = lat_fn;
	for (int i = 0; i < LAT_LOOPS; i++) {
		hrtimer_start(&lat_timer, 100 * NSEC_PER_USEC, mode | HRTIMER_MODE_REL);
		KTEST_ASSERT_TRUE(t, wait_seq(&lat_seq, i + 1));
	}
	lat_report(t, what);
	KTEST_EXPECT_TRUE(t, lat_min != ~0ULL);
}

static void latency_hard(struct ktest *t)
{
	run_latency(t, HRTIMER_MODE_HARD, "expiry-to-callback hard");
}

static void latency_soft(struct ktest *t)
{
	run_latency(t, HRTIMER_MODE_SOFT, "expiry-to-callback soft");
}

static void latency_thread_wakeup(struct ktest *t)
{
	lat_reset();
	for (int i = 0; i < LAT_LOOPS; i++) {
		ktime_t exp = ktime_get() + 100 * NSEC_PER_USEC;
		u64 d;

		set_current_state(TASK_UNINTERRUPTIBLE);
		KTEST_EXPECT_EQ(t, schedule_hrtimeout(&exp, HRTIMER_MODE_ABS), 0);
		d = ktime_get_ns() - exp;
		KTEST_EXPECT_GE(t, ktime_get_ns(), exp);
		lat_sum += d;
		lat_min = min(lat_min, d);
		lat_max = max(lat_max, d);
	}
	lat_report(t, "expiry-to-thread-wakeup");
}

#ifdef CONFIG_PREEMPT_RT
/* --------------------------------------------- cancel vs. soft expiry (RT) */

static struct hrtimer slow_timer;
static volatile bool slow_running, slow_done, slow_cancelled, slow_starter_done;
static int slow_min_prio;
static struct task_struct *slow_canceller;
static bool slow_boosted_while_blocked;
#define SLOW_BOOSTED_PRIO	(MAX_RT_PRIO - 1 - 60)	/* the canceller's */
static volatile u64 slow_t_end, slow_t_cancel;

static enum hrtimer_restart slow_fn(struct hrtimer *timer)
{
	u64 end = ktime_get_ns() + 30 * NSEC_PER_MSEC, now;

	slow_min_prio = current->prio;
	smp_store_release(&slow_running, true);
	/*
	 * Run 30 ms, and past that up to 2 s more until the canceller's
	 * boost was seen: a host stall under TCG can eat the 30 ms first.
	 */
	for (;;) {
		if (current->prio < slow_min_prio) {
			slow_min_prio = current->prio;
			/*
			 * Only the canceller's wait on the expiry lock can
			 * lend this priority, and it holds until we return.
			 */
			slow_boosted_while_blocked =
				READ_ONCE(slow_canceller->pi_blocked_on) != NULL;
		}
		now = ktime_get_ns();
		if (now >= end && (slow_min_prio <= SLOW_BOOSTED_PRIO ||
				   now >= end + 2 * NSEC_PER_SEC))
			break;
		cpu_relax();
	}
	slow_t_end = ktime_get_ns();
	smp_store_release(&slow_done, true);
	return HRTIMER_NORESTART;
}

static int slow_starter_fn(void *data)
{
	hrtimer_start(&slow_timer, 1 * NSEC_PER_MSEC, HRTIMER_MODE_REL_SOFT);
	smp_store_release(&slow_starter_done, true);
	return 0;
}

static int slow_canceller_fn(void *data)
{
	while (!smp_load_acquire(&slow_running))
		cpu_relax();
	hrtimer_cancel(&slow_timer);
	slow_t_cancel = ktime_get_ns();
	smp_store_release(&slow_cancelled, true);
	return 0;
}

/*
 * A FIFO 60 task cancels a soft timer whose callback is running in
 * ksoftirqd on another CPU: it blocks on that CPU's expiry lock, boosting
 * the callback's thread, and returns only after the callback.
 */
static void cancel_soft_blocks_with_pi(struct ktest *t)
{
	struct task_struct *starter, *canceller;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs");
	slow_running = slow_done = slow_cancelled = slow_starter_done = false;
	slow_boosted_while_blocked = false;
	hrtimer_init(&slow_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	slow_timer.function = slow_fn;
	ktest_set_fifo(95);
	starter = ktest_kthread(slow_starter_fn, NULL, "hrt-start", 1, SCHED_NORMAL, 0);
	canceller = ktest_kthread(slow_canceller_fn, NULL, "hrt-cancel", 0, SCHED_FIFO, 60);
	slow_canceller = canceller;
	ktest_run_pair(t, canceller, &slow_cancelled, starter, &slow_starter_done);
	ktest_set_fifo(0);

	KTEST_EXPECT_TRUE(t, slow_done);
	KTEST_EXPECT_GE(t, slow_t_cancel, slow_t_end);
	KTEST_EXPECT_TRUE(t, slow_boosted_while_blocked);
	KTEST_EXPECT_EQ(t, slow_min_prio, SLOW_BOOSTED_PRIO);
}
#endif

static struct ktest_case hrtimer_cases[] = {
	KTEST_CASE(hard_in_order_not_early),
	KTEST_CASE(soft_in_order_not_early),
	KTEST_CASE(plain_mode_per_model),
	KTEST_CASE(cancel_races_expiry_hard),
	KTEST_CASE(cancel_races_expiry_soft),
#ifdef CONFIG_PREEMPT_RT
	KTEST_CASE(cancel_soft_blocks_with_pi),
#endif
	KTEST_CASE(periodic_restart_forward),
	KTEST_CASE(forward_counts_overruns),
	KTEST_CASE(msleep_2ms),
	KTEST_CASE(usleep_range_min),
	KTEST_CASE(schedule_timeout_times_out),
	KTEST_CASE(schedule_timeout_woken_early),
	KTEST_CASE(schedule_hrtimeout_rel),
	KTEST_CASE(latency_hard),
	KTEST_CASE(latency_soft),
	KTEST_CASE(latency_thread_wakeup),
	{}
};

static struct ktest_suite hrtimer_suite = { .name = "hrtimer", .cases = hrtimer_cases };
ktest_register_suite(hrtimer_suite);
