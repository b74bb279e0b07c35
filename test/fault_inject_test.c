// SPDX-License-Identifier: GPL-2.0
/*
 * Fault injection: should_fail() on private attributes, the boot syntax,
 * fail_page_alloc's filters and the page allocator under injected
 * failures (nothing leaks), failslab's decision, and a 1% run on every
 * CPU.
 *
 * Cases that arm the global attributes set task_filter and mark only the
 * test's own tasks (make_it_fail), so other allocations in the system go
 * on undisturbed and the failure counts are exact; the suite's exit puts
 * every setting back.
 */
#include <linux/ktest.h>
#include <linux/fault-inject.h>
#include <linux/slab.h>
#include "../mm/slab.h"
#include <linux/moduleparam.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/mm.h>
#include <linux/errno.h>
#include "page_alloc_test.h"

#if defined(CONFIG_FAIL_PAGE_ALLOC) && defined(CONFIG_FAILSLAB)

/* --------------------------------------------------------------- helpers */

/* A private attribute: always on, no limit, silent, fixed seed. */
static void fa_init(struct fault_attr *a, unsigned long interval,
		    unsigned long probability, int space, int times)
{
	*a = (struct fault_attr)FAULT_ATTR_INITIALIZER_NAME("ktest_attr");
	a->interval = interval;
	a->probability = probability;
	atomic_set(&a->space, space);
	atomic_set(&a->times, times);
	a->verbose = 0;
}

struct fa_settings {
	unsigned long probability, interval, verbose;
	int times, space;
	bool task_filter;
};

static void fa_save(struct fa_settings *s, struct fault_attr *a)
{
	s->probability = a->probability;
	s->interval = a->interval;
	s->verbose = a->verbose;
	s->times = atomic_read(&a->times);
	s->space = atomic_read(&a->space);
	s->task_filter = a->task_filter;
}

static void fa_restore(struct fault_attr *a, const struct fa_settings *s)
{
	WRITE_ONCE(a->probability, 0);
	a->interval = s->interval;
	a->verbose = s->verbose;
	atomic_set(&a->times, s->times);
	atomic_set(&a->space, s->space);
	a->task_filter = s->task_filter;
	WRITE_ONCE(a->probability, s->probability);
}

static struct fa_settings saved_fpa, saved_slab;
static bool saved_fpa_reclaim, saved_fpa_highmem, saved_slab_reclaim, saved_slab_filter;
static u32 saved_fpa_min_order;

static int fi_init(struct ktest *t)
{
	fa_save(&saved_fpa, &fail_page_alloc.attr);
	saved_fpa_reclaim = fail_page_alloc.ignore_gfp_reclaim;
	saved_fpa_highmem = fail_page_alloc.ignore_gfp_highmem;
	saved_fpa_min_order = fail_page_alloc.min_order;
	fa_save(&saved_slab, &failslab.attr);
	saved_slab_reclaim = failslab.ignore_gfp_reclaim;
	saved_slab_filter = failslab.cache_filter;
	return 0;
}

static void fi_exit(struct ktest *t)
{
	current->make_it_fail = 0;
	fa_restore(&fail_page_alloc.attr, &saved_fpa);
	fail_page_alloc.ignore_gfp_reclaim = saved_fpa_reclaim;
	fail_page_alloc.ignore_gfp_highmem = saved_fpa_highmem;
	fail_page_alloc.min_order = saved_fpa_min_order;
	fa_restore(&failslab.attr, &saved_slab);
	failslab.ignore_gfp_reclaim = saved_slab_reclaim;
	failslab.cache_filter = saved_slab_filter;
}

/*
 * Arm a global attribute for the calling task only: every eligible call
 * fails (interval 1, probability 100, no limit), silently.
 */
static void fa_arm_for_me(struct fault_attr *a, unsigned long probability)
{
	WRITE_ONCE(a->probability, 0);
	a->interval = 1;
	atomic_set(&a->times, -1);
	atomic_set(&a->space, 0);
	a->verbose = 0;
	a->task_filter = true;
	current->make_it_fail = 1;
	WRITE_ONCE(a->probability, probability);
}

/* ------------------------------------------------ boot-time parameters */

/*
 * Runs when the command line armed fail_page_alloc (the fault-inject-smp2
 * entry: fail_page_alloc=1,100,0,5 fail_page_alloc.ignore_gfp_wait=0
 * fail_page_alloc.min_order=6).  Whatever failures are left fail the
 * first allocations of at least min_order, even GFP_KERNEL ones; then
 * the limit is reached and allocations succeed.  First in the suite, so
 * no other case has touched the attribute yet.
 */
static void boot_fail_page_alloc(struct ktest *t)
{
	struct fault_attr *a = &fail_page_alloc.attr;
	unsigned int order = fail_page_alloc.min_order;
	long failures0 = atomic_long_read(&a->failures);
	int left = atomic_read(&a->times);
	struct page *pages[16];
	int nulls = 0, got = 0;

	if (!a->probability)
		ktest_skip(t, "fail_page_alloc= is not on the command line");
	if (a->probability != 100 || a->interval > 1 || atomic_read(&a->space) ||
	    fail_page_alloc.ignore_gfp_reclaim || left < 0 || left > 8)
		ktest_skip(t, "needs fail_page_alloc=1,100,0,<1..8> fail_page_alloc.ignore_gfp_wait=0");
	ktest_info(t, "from the command line: interval %lu, probability %lu, times left %d, min_order %u",
		   a->interval, a->probability, left, order);
	KTEST_ASSERT_TRUE(t, order < MAX_ORDER);
	for (int i = 0; i < left + 2; i++) {
		struct page *page = alloc_pages(GFP_KERNEL, order);

		if (!page) {
			/* Only the first ones, and only while times lasts. */
			KTEST_EXPECT_EQ(t, got, 0);
			nulls++;
		} else {
			pages[got++] = page;
		}
	}
	for (int i = 0; i < got; i++)
		__free_pages(pages[i], order);
	KTEST_EXPECT_EQ(t, nulls, left);
	KTEST_EXPECT_EQ(t, got, 2);
	KTEST_EXPECT_EQ(t, atomic_read(&a->times), 0);
	KTEST_EXPECT_EQ(t, atomic_long_read(&a->failures) - failures0, left);
	/* The boot parameter did inject failures, here or earlier. */
	KTEST_EXPECT_GT(t, atomic_long_read(&a->failures), 0);
}

/* failslab= on the command line (fault-inject-smp2: failslab=1,100,0,2). */
static void boot_failslab(struct ktest *t)
{
	struct fault_attr *a = &failslab.attr;
	int left = atomic_read(&a->times), fails = 0;

	if (!a->probability)
		ktest_skip(t, "failslab= is not on the command line");
	if (a->probability != 100 || a->interval > 1 || left < 0 || left > 100)
		ktest_skip(t, "needs failslab=1,100,<space>,<0..100>");
	KTEST_EXPECT_TRUE(t, failslab.ignore_gfp_reclaim);
	KTEST_EXPECT_EQ(t, should_failslab(kmalloc_caches[KMALLOC_NORMAL][6],
					   GFP_KERNEL), 0);
	/* The cache of caches is never failed. */
	KTEST_EXPECT_EQ(t, should_failslab(kmem_cache, GFP_ATOMIC), 0);
	for (int i = 0; i < left + 3; i++)
		fails += should_failslab(kmalloc_caches[KMALLOC_NORMAL][6],
					 GFP_ATOMIC) == -ENOMEM;
	KTEST_EXPECT_EQ(t, fails, left);
	KTEST_EXPECT_EQ(t, atomic_read(&a->times), 0);
}

/* ------------------------------------------------- should_fail() alone */

static void every_call_fails(struct ktest *t)
{
	struct fault_attr a;

	fa_init(&a, 1, 100, 0, -1);
	for (int i = 0; i < 50; i++)
		KTEST_EXPECT_TRUE(t, should_fail(&a, 1));
	KTEST_EXPECT_EQ(t, atomic_long_read(&a.calls), 50);
	KTEST_EXPECT_EQ(t, atomic_long_read(&a.failures), 50);
	KTEST_EXPECT_EQ(t, atomic_read(&a.times), -1);
}

static void times_stops_after_three(struct ktest *t)
{
	struct fault_attr a;
	int fails = 0;

	fa_init(&a, 1, 100, 0, 3);
	for (int i = 0; i < 20; i++) {
		bool f = should_fail(&a, 1);

		KTEST_EXPECT_EQ(t, f, i < 3);
		fails += f;
	}
	KTEST_EXPECT_EQ(t, fails, 3);
	KTEST_EXPECT_EQ(t, atomic_read(&a.times), 0);
	KTEST_EXPECT_EQ(t, atomic_long_read(&a.failures), 3);
	KTEST_EXPECT_EQ(t, atomic_long_read(&a.calls), 20);
	/* The default attribute (times 1, as in Linux) fails once. */
	a = (struct fault_attr)FAULT_ATTR_INITIALIZER;
	a.probability = 100;
	a.verbose = 0;
	KTEST_EXPECT_TRUE(t, should_fail(&a, 1));
	KTEST_EXPECT_FALSE(t, should_fail(&a, 1));
}

static void interval_every_fourth(struct ktest *t)
{
	struct fault_attr a;

	fa_init(&a, 4, 100, 0, -1);
	for (int i = 1; i <= 40; i++)
		KTEST_EXPECT_EQ(t, should_fail(&a, 1), i % 4 == 0);
	KTEST_EXPECT_EQ(t, atomic_long_read(&a.count), 40);
	KTEST_EXPECT_EQ(t, atomic_long_read(&a.failures), 10);
	/* Interval and times together: the limit counts failures, not calls. */
	fa_init(&a, 4, 100, 0, 2);
	for (int i = 1; i <= 40; i++)
		KTEST_EXPECT_EQ(t, should_fail(&a, 1), i == 4 || i == 8);
}

static void probability_zero_never(struct ktest *t)
{
	struct fault_attr a;

	fa_init(&a, 1, 0, 0, -1);
	for (int i = 0; i < 1000; i++)
		KTEST_EXPECT_FALSE(t, should_fail(&a, 1));
	/* Disarmed, should_fail() does not even count the call. */
	KTEST_EXPECT_EQ(t, atomic_long_read(&a.calls), 0);
	KTEST_EXPECT_EQ(t, atomic_long_read(&a.failures), 0);
}

/* 30%: close to 30 in 100 over many calls, and the same run every time. */
static void probability_percent_repeatable(struct ktest *t)
{
	static u8 first[4000];
	struct fault_attr a;
	int fails = 0, same = 0;

	fa_init(&a, 1, 30, 0, -1);
	for (int i = 0; i < 4000; i++)
		fails += first[i] = should_fail(&a, 1);
	ktest_info(t, "probability 30: %d of 4000 calls failed", fails);
	KTEST_EXPECT_GT(t, fails, 1050);
	KTEST_EXPECT_LT(t, fails, 1350);
	fa_init(&a, 1, 30, 0, -1);
	for (int i = 0; i < 4000; i++)
		same += first[i] == should_fail(&a, 1);
	KTEST_EXPECT_EQ(t, same, 4000);
	/* 100 fails every time, 99 not quite. */
	fa_init(&a, 1, 99, 0, -1);
	fails = 0;
	for (int i = 0; i < 4000; i++)
		fails += should_fail(&a, 1);
	KTEST_EXPECT_LT(t, fails, 4000);
	KTEST_EXPECT_GT(t, fails, 3900);
}

static void space_consumed_first(struct ktest *t)
{
	struct fault_attr a;

	fa_init(&a, 1, 100, 10, -1);
	KTEST_EXPECT_FALSE(t, should_fail(&a, 4));	/* 10 > 4: 6 left */
	KTEST_EXPECT_EQ(t, atomic_read(&a.space), 6);
	KTEST_EXPECT_FALSE(t, should_fail(&a, 4));	/* 6 > 4: 2 left */
	KTEST_EXPECT_EQ(t, atomic_read(&a.space), 2);
	KTEST_EXPECT_TRUE(t, should_fail(&a, 4));	/* 2 is not > 4 */
	KTEST_EXPECT_EQ(t, atomic_read(&a.space), 2);
	KTEST_EXPECT_TRUE(t, should_fail(&a, 2));	/* nor > 2 */
	KTEST_EXPECT_FALSE(t, should_fail(&a, 1));	/* but > 1 */
	KTEST_EXPECT_EQ(t, atomic_read(&a.space), 1);
}

struct fi_timer {
	struct hrtimer timer;
	struct fault_attr *attr;
	bool hardirq, failed, fired;
};

static enum hrtimer_restart fi_timer_fn(struct hrtimer *timer)
{
	struct fi_timer *ft = container_of(timer, struct fi_timer, timer);

	ft->hardirq = in_hardirq();
	ft->failed = should_fail(ft->attr, 1);
	smp_store_release(&ft->fired, true);
	return HRTIMER_NORESTART;
}

static void task_filter_marked_tasks_only(struct ktest *t)
{
	static struct fi_timer ft;
	struct fault_attr a;
	u64 t0;

	fa_init(&a, 1, 100, 0, -1);
	a.task_filter = true;
	current->make_it_fail = 0;
	KTEST_EXPECT_FALSE(t, should_fail(&a, 1));
	current->make_it_fail = 1;
	KTEST_EXPECT_TRUE(t, should_fail(&a, 1));
	/*
	 * Interrupt context never counts as the marked task, even when it
	 * interrupts that task (Linux's in_task() test): a hard hrtimer
	 * fires while we spin with preemption off.
	 */
	memset(&ft, 0, sizeof(ft));
	ft.attr = &a;
	hrtimer_init(&ft.timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	ft.timer.function = fi_timer_fn;
	preempt_disable();
	hrtimer_start(&ft.timer, ns_to_ktime(100 * 1000), HRTIMER_MODE_REL_HARD);
	t0 = ktime_get_ns();
	while (!smp_load_acquire(&ft.fired) && ktime_get_ns() - t0 < 1000000000ULL)
		cpu_relax();
	preempt_enable();
	hrtimer_cancel(&ft.timer);
	KTEST_ASSERT_TRUE(t, ft.fired);
	KTEST_EXPECT_TRUE(t, ft.hardirq);
	KTEST_EXPECT_FALSE(t, ft.failed);
	KTEST_EXPECT_EQ(t, atomic_long_read(&a.failures), 1);
	KTEST_EXPECT_EQ(t, atomic_long_read(&a.calls), 3);
	current->make_it_fail = 0;
	KTEST_EXPECT_FALSE(t, should_fail(&a, 1));
}

static void verbose_reports(struct ktest *t)
{
	struct fault_attr a;
	u64 mark;

	fa_init(&a, 1, 100, 0, -1);
	mark = ktest_log_mark();
	KTEST_EXPECT_TRUE(t, should_fail(&a, 1));
	KTEST_EXPECT_FALSE(t, ktest_log_contains(mark, "FAULT_INJECTION"));
	a.verbose = 1;
	mark = ktest_log_mark();
	KTEST_EXPECT_TRUE(t, should_fail(&a, 1));
	KTEST_EXPECT_LOG(t, mark, "FAULT_INJECTION: forcing a failure. ktest_attr: interval=1 probability=100% space=0 times=-1");
	KTEST_EXPECT_FALSE(t, ktest_log_contains(mark, "Call Trace:"));
	a.verbose = 2;
	mark = ktest_log_mark();
	KTEST_EXPECT_TRUE(t, should_fail(&a, 1));
	KTEST_EXPECT_LOG(t, mark, "FAULT_INJECTION: forcing a failure.");
	KTEST_EXPECT_LOG(t, mark, "Call Trace:");
	KTEST_EXPECT_LOG(t, mark, "verbose_reports");
	/* The summary line, on demand. */
	mark = ktest_log_mark();
	fault_attr_report(&a);
	KTEST_EXPECT_LOG(t, mark, "ktest_attr: 3 calls, 3 failures injected");
}

/* Every CPU at once from hard interrupt context: times stays exact. */
struct fi_ipi {
	struct fault_attr attr;
	atomic_t fails, calls, irqs_on, hardirq;
};

static void ipi_hammer(void *info)
{
	struct fi_ipi *p = info;

	if (!irqs_disabled())
		atomic_inc(&p->irqs_on);
	if (in_hardirq())
		atomic_inc(&p->hardirq);
	for (int i = 0; i < 3000; i++) {
		atomic_inc(&p->calls);
		if (should_fail(&p->attr, 1))
			atomic_inc(&p->fails);
	}
}

static void hardirq_all_cpus_exact_times(struct ktest *t)
{
	static struct fi_ipi p;
	unsigned int cpus = num_online_cpus();

	memset(&p, 0, sizeof(p));
	fa_init(&p.attr, 3, 100, 0, 700 * cpus);
	on_each_cpu(ipi_hammer, &p, 1);
	ktest_info(t, "%u CPUs: %d calls, %d failures", cpus, atomic_read(&p.calls),
		   atomic_read(&p.fails));
	KTEST_EXPECT_EQ(t, atomic_read(&p.irqs_on), 0);
	/* on_each_cpu() runs it locally with IRQs off, by IPI elsewhere. */
	KTEST_EXPECT_EQ(t, atomic_read(&p.hardirq), cpus - 1);
	KTEST_EXPECT_EQ(t, atomic_read(&p.calls), 3000 * cpus);
	KTEST_EXPECT_EQ(t, atomic_read(&p.fails), 700 * cpus);
	KTEST_EXPECT_EQ(t, atomic_read(&p.attr.times), 0);
	KTEST_EXPECT_EQ(t, atomic_long_read(&p.attr.failures), 700 * cpus);
	KTEST_EXPECT_EQ(t, atomic_long_read(&p.attr.calls), 3000 * cpus);
}

/* --------------------------------------------------------- boot syntax */

static void setup_fault_attr_syntax(struct ktest *t)
{
	static const char *const bad[][2] = {
		{ "1,x,0,5", "probability 'x' is not a number" },
		{ "1,101,0,5", "probability 101 is out of range (valid: a percentage, 0..100)" },
		{ "1,100,0", "3 of 4 values" },
		{ "1,100,0,5,7", "more than 4 values" },
		{ "1,,0,5", "probability missing" },
		{ "1,100,0,-2", "times -2 is out of range" },
		{ "1,100,-1,5", "space -1 is out of range" },
		{ "-1,100,0,5", "interval -1 is out of range" },
		{ "1,100,0,5x", "times '5x' is not a number" },
		{ "1, 50,0,5", "probability ' 50' is not a number" },
		{ "", "interval missing" },
	};
	struct fault_attr a;

	fa_init(&a, 1, 0, 0, 1);
	KTEST_EXPECT_EQ(t, setup_fault_attr(&a, "10,25,4096,-1"), 1);
	KTEST_EXPECT_EQ(t, a.interval, 10);
	KTEST_EXPECT_EQ(t, a.probability, 25);
	KTEST_EXPECT_EQ(t, atomic_read(&a.space), 4096);
	KTEST_EXPECT_EQ(t, atomic_read(&a.times), -1);
	for (unsigned int i = 0; i < ARRAY_SIZE(bad); i++) {
		u64 mark = ktest_log_mark();

		KTEST_EXPECT_EQ(t, setup_fault_attr(&a, bad[i][0]), 0);
		if (!ktest_log_contains(mark, bad[i][1]))
			ktest_fail(t, __FILE__, __LINE__, "'%s': no report \"%s\"",
				   bad[i][0], bad[i][1]);
		KTEST_EXPECT_LOG(t, mark, "FAULT_INJECTION: ktest_attr: failed to parse arguments");
	}
	/* Rejected values left the attribute as it was. */
	KTEST_EXPECT_EQ(t, a.interval, 10);
	KTEST_EXPECT_EQ(t, a.probability, 25);
	KTEST_EXPECT_EQ(t, atomic_read(&a.space), 4096);
	KTEST_EXPECT_EQ(t, atomic_read(&a.times), -1);
}

/* The same through the command-line parser, as a boot would see it. */
static struct fault_attr param_attr = FAULT_ATTR_INITIALIZER_NAME("t_fail");
static unsigned int param_min_order = 1;
static const struct kernel_param fi_params[] = {
	{ "t_fail", &param_ops_fault_attr, &param_attr, NULL, "" },
	{ "t_fail.min_order", &param_ops_uint, &param_min_order,
	  &(const struct kparam_range){ 0, MAX_ORDER }, "" },
};

static void command_line_errors(struct ktest *t)
{
	static char line[160];
	unsigned int errors = 0;
	u64 mark = ktest_log_mark();

	strcpy(line, "t_fail=1,200,0,5 t_fail=a,1,1,1 t_fail t_fail.min_order=12 t_fail.min_order=x");
	KTEST_EXPECT_NE(t, parse_args("ktest", line, fi_params, ARRAY_SIZE(fi_params), &errors), 0);
	KTEST_EXPECT_EQ(t, errors, 5);
	KTEST_EXPECT_EQ(t, param_attr.probability, 0);
	KTEST_EXPECT_EQ(t, param_attr.interval, 1);
	KTEST_EXPECT_EQ(t, atomic_read(&param_attr.times), 1);
	KTEST_EXPECT_EQ(t, param_min_order, 1);
	KTEST_EXPECT_LOG(t, mark, "parameter 't_fail' rejected: t_fail left as it was");
	KTEST_EXPECT_LOG(t, mark, "probability 200 is out of range");
	KTEST_EXPECT_LOG(t, mark, "interval 'a' is not a number");
	KTEST_EXPECT_LOG(t, mark, "parameter 't_fail' needs a value (<interval>,<probability>,<space>,<times>)");
	KTEST_EXPECT_LOG(t, mark, "parameter 't_fail.min_order': value 12 out of range [0, 11]");
	strcpy(line, "t_fail=3,100,0,-1 t_fail.min_order=0");
	KTEST_EXPECT_EQ(t, parse_args("ktest", line, fi_params, ARRAY_SIZE(fi_params), &errors), 0);
	KTEST_EXPECT_EQ(t, errors, 0);
	KTEST_EXPECT_EQ(t, param_attr.interval, 3);
	KTEST_EXPECT_EQ(t, param_attr.probability, 100);
	KTEST_EXPECT_EQ(t, atomic_read(&param_attr.times), -1);
	KTEST_EXPECT_EQ(t, param_min_order, 0);
	/* The real parameters exist, with Linux's defaults. */
	{
		unsigned int n = __stop___param - __start___param;
		static const char *const names[] = {
			"fail_page_alloc", "fail_page_alloc.ignore_gfp_wait",
			"fail_page_alloc.ignore_gfp_highmem", "fail_page_alloc.min_order",
			"fail_page_alloc.verbose", "failslab", "failslab.ignore_gfp_wait",
			"failslab.verbose",
		};

		for (unsigned int i = 0; i < ARRAY_SIZE(names); i++)
			if (!find_kernel_param(__start___param, n, names[i]))
				ktest_fail(t, __FILE__, __LINE__, "no parameter %s", names[i]);
	}
	KTEST_EXPECT_TRUE(t, saved_fpa_highmem);
	KTEST_EXPECT_TRUE(t, saved_slab_reclaim);
	KTEST_EXPECT_FALSE(t, saved_slab_filter);
}

/* ---------------------------------------------------- fail_page_alloc */

static void fail_page_alloc_filters(struct ktest *t)
{
	fa_arm_for_me(&fail_page_alloc.attr, 100);
	fail_page_alloc.ignore_gfp_reclaim = true;
	fail_page_alloc.ignore_gfp_highmem = true;
	fail_page_alloc.min_order = 1;

	KTEST_EXPECT_TRUE(t, should_fail_alloc_page(GFP_ATOMIC, 1));
	KTEST_EXPECT_TRUE(t, should_fail_alloc_page(GFP_NOWAIT, 3));
	/* May sleep: ignored while ignore_gfp_wait is set. */
	KTEST_EXPECT_FALSE(t, should_fail_alloc_page(GFP_KERNEL, 1));
	KTEST_EXPECT_FALSE(t, should_fail_alloc_page(GFP_NOIO, 2));
	/* Below min_order. */
	KTEST_EXPECT_FALSE(t, should_fail_alloc_page(GFP_ATOMIC, 0));
	/* __GFP_NOFAIL never fails, whatever else is set. */
	KTEST_EXPECT_FALSE(t, should_fail_alloc_page(GFP_ATOMIC | __GFP_NOFAIL, 2));
	KTEST_EXPECT_FALSE(t, should_fail_alloc_page(GFP_ATOMIC | __GFP_HIGHMEM, 1));

	fail_page_alloc.ignore_gfp_reclaim = false;
	fail_page_alloc.ignore_gfp_highmem = false;
	fail_page_alloc.min_order = 0;
	KTEST_EXPECT_TRUE(t, should_fail_alloc_page(GFP_KERNEL, 1));
	KTEST_EXPECT_TRUE(t, should_fail_alloc_page(GFP_ATOMIC, 0));
	KTEST_EXPECT_TRUE(t, should_fail_alloc_page(GFP_ATOMIC | __GFP_HIGHMEM, 1));
	KTEST_EXPECT_FALSE(t, should_fail_alloc_page(GFP_KERNEL | __GFP_NOFAIL, 0));

	fail_page_alloc.min_order = 3;
	KTEST_EXPECT_FALSE(t, should_fail_alloc_page(GFP_ATOMIC, 2));
	KTEST_EXPECT_TRUE(t, should_fail_alloc_page(GFP_ATOMIC, 3));
	KTEST_EXPECT_TRUE(t, should_fail_alloc_page(GFP_ATOMIC, MAX_ORDER - 1));

	/* space counts pages: an order-2 block is 4. */
	fail_page_alloc.min_order = 0;
	atomic_set(&fail_page_alloc.attr.space, 6);
	KTEST_EXPECT_FALSE(t, should_fail_alloc_page(GFP_ATOMIC, 2));
	KTEST_EXPECT_EQ(t, atomic_read(&fail_page_alloc.attr.space), 2);
	KTEST_EXPECT_TRUE(t, should_fail_alloc_page(GFP_ATOMIC, 2));

	/* Other tasks are left alone under task_filter. */
	current->make_it_fail = 0;
	KTEST_EXPECT_FALSE(t, should_fail_alloc_page(GFP_ATOMIC, 2));
}

/*
 * The allocator itself: NULL exactly when a failure is injected, a page
 * otherwise, and the free lists exactly as before once all is freed.
 */
static void page_alloc_returns_null(struct ktest *t)
{
	static struct free_snapshot before;
	struct fault_attr *a = &fail_page_alloc.attr;
	struct page *held[32];
	int nheld = 0, nulls = 0;
	long failures0;

	pa_take_snapshot(&before);
	failures0 = atomic_long_read(&a->failures);
	fa_arm_for_me(a, 100);
	fail_page_alloc.ignore_gfp_reclaim = true;
	fail_page_alloc.min_order = 1;

	KTEST_EXPECT_TRUE(t, alloc_pages(GFP_ATOMIC, 2) == NULL);
	KTEST_EXPECT_TRUE(t, alloc_pages(GFP_ATOMIC | __GFP_NOWARN, 1) == NULL);
	KTEST_EXPECT_TRUE(t, (held[nheld++] = alloc_pages(GFP_ATOMIC, 0)) != NULL);
	KTEST_EXPECT_TRUE(t, (held[nheld++] = alloc_pages(GFP_KERNEL, 2)) != NULL);
	fail_page_alloc.ignore_gfp_reclaim = false;
	KTEST_EXPECT_TRUE(t, alloc_pages(GFP_KERNEL, 2) == NULL);
	KTEST_EXPECT_TRUE(t, (held[nheld++] = alloc_pages(GFP_KERNEL | __GFP_NOFAIL, 2)) != NULL);
	KTEST_EXPECT_EQ(t, __get_free_pages(GFP_ATOMIC | __GFP_ZERO, 3), 0);
	KTEST_EXPECT_EQ(t, atomic_long_read(&a->failures) - failures0, 4);

	/* Every second order-2 allocation fails. */
	atomic_set(&a->times, -1);
	a->interval = 2;
	atomic_long_set(&a->count, 0);
	for (int i = 0; i < 20; i++) {
		struct page *page = alloc_pages(GFP_ATOMIC, 2);

		if (i % 2) {
			KTEST_EXPECT_TRUE(t, page == NULL);
			nulls += !page;
		} else {
			KTEST_EXPECT_TRUE(t, page != NULL);
			if (page)
				held[nheld++] = page;
		}
	}
	KTEST_EXPECT_EQ(t, nulls, 10);
	KTEST_EXPECT_EQ(t, atomic_long_read(&a->failures) - failures0, 14);

	/* Disarmed: the same calls succeed. */
	WRITE_ONCE(a->probability, 0);
	for (int i = 0; i < 4; i++) {
		struct page *page = alloc_pages(GFP_ATOMIC, 2);

		KTEST_EXPECT_TRUE(t, page != NULL);
		if (page)
			held[nheld++] = page;
	}
	for (int i = 0; i < nheld; i++) {
		/* Each block went back with the order it came with. */
		unsigned int order = i == 0 ? 0 : 2;

		if (held[i])
			__free_pages(held[i], order);
	}
	current->make_it_fail = 0;
	KTEST_EXPECT_EQ(t, pa_expect_snapshot(t, &before, "after injected failures"), 0);
}

/* ------------------------------------------------------------- 1% run */

#define LONG_RUN_ALLOCS		20000
#define LONG_RUN_HELD		32

struct long_run {
	struct completion done;
	atomic_t left, ready;
	bool go;
	unsigned long per_cpu;
	struct {
		unsigned long allocs, nulls, bad;
	} cpu[CONFIG_NR_CPUS];
};

/*
 * A worker exists from before the first snapshot until after the second
 * (kthread_stop() ends it), so its own task_struct and stack do not
 * count as a leak.
 */
static int long_run_fn(void *arg)
{
	struct long_run *lr = arg;
	int cpu = smp_processor_id();
	struct { struct page *page; unsigned int order; } held[LONG_RUN_HELD] = {};
	u64 rnd = 0x2545f4914f6cdd1dULL + cpu;

	/* Leave a page on this CPU's list: the first drain must run here. */
	__free_page(alloc_page(GFP_KERNEL));
	atomic_inc(&lr->ready);
	ktest_wait_flag(&lr->go);
	current->make_it_fail = 1;
	for (unsigned long i = 0; i < lr->per_cpu; i++) {
		unsigned int slot = pa_rand(&rnd) % LONG_RUN_HELD;
		unsigned int order = pa_rand(&rnd) % 4;
		struct page *page;

		if (held[slot].page) {
			__free_pages(held[slot].page, held[slot].order);
			held[slot].page = NULL;
		}
		page = alloc_pages(GFP_ATOMIC, order);
		lr->cpu[cpu].allocs++;
		if (!page) {
			lr->cpu[cpu].nulls++;
			continue;
		}
		/* A real, allocated, naturally aligned block. */
		if (!pfn_valid(page_to_pfn(page)) || PageBuddy(page) ||
		    page_ref_count(page) != 1 ||
		    (page_to_pfn(page) & ((1UL << order) - 1)))
			lr->cpu[cpu].bad++;
		held[slot].page = page;
		held[slot].order = order;
	}
	for (int s = 0; s < LONG_RUN_HELD; s++)
		if (held[s].page)
			__free_pages(held[s].page, held[s].order);
	current->make_it_fail = 0;
	if (atomic_dec_and_test(&lr->left))
		complete(&lr->done);
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static void one_percent_long_run(struct ktest *t)
{
	static struct free_snapshot before;
	static struct long_run lr;
	static struct task_struct *workers[CONFIG_NR_CPUS];
	struct fault_attr *a = &fail_page_alloc.attr;
	unsigned long allocs = 0, nulls = 0, bad = 0;
	unsigned int cpus = num_online_cpus();
	long failures0, calls0;
	int cpu, n = 0;

	memset(&lr, 0, sizeof(lr));
	init_completion(&lr.done);
	lr.per_cpu = LONG_RUN_ALLOCS / cpus;
	atomic_set(&lr.left, cpus);
	for_each_online_cpu(cpu) {
		workers[n] = ktest_kthread(long_run_fn, &lr, "fi-run", cpu, SCHED_NORMAL, 0);
		KTEST_ASSERT_TRUE(t, workers[n] != NULL);
		wake_up_process(workers[n++]);
	}
	/*
	 * A drain that finds pages on a CPU's list runs a work item there,
	 * and the pool may then start a spare kworker (its task and stack
	 * are no leak).  The workers have left a page on every CPU's list:
	 * drain once to settle the pools, then count.
	 */
	while (atomic_read(&lr.ready) < (int)cpus)
		msleep(1);
	pa_take_snapshot(&before);
	pa_take_snapshot(&before);
	failures0 = atomic_long_read(&a->failures);
	calls0 = atomic_long_read(&a->calls);
	fail_page_alloc.min_order = 0;
	fa_arm_for_me(a, 1);
	current->make_it_fail = 0;	/* only the workers */
	smp_store_release(&lr.go, true);
	wait_for_completion(&lr.done);
	WRITE_ONCE(a->probability, 0);
	for_each_online_cpu(cpu) {
		allocs += lr.cpu[cpu].allocs;
		nulls += lr.cpu[cpu].nulls;
		bad += lr.cpu[cpu].bad;
	}
	ktest_info(t, "%u CPUs: %lu allocations (orders 0-3, GFP_ATOMIC), %lu NULL (%ld injected)",
		   cpus, allocs, nulls, atomic_long_read(&a->failures) - failures0);
	KTEST_EXPECT_EQ(t, allocs, lr.per_cpu * cpus);
	KTEST_EXPECT_EQ(t, bad, 0);
	/* Every NULL was an injected failure and every failure a NULL. */
	KTEST_EXPECT_EQ(t, atomic_long_read(&a->failures) - failures0, nulls);
	KTEST_EXPECT_GE(t, atomic_long_read(&a->calls) - calls0, allocs);
	/* 1% of 20000 is 200 (standard deviation 14). */
	KTEST_EXPECT_GT(t, nulls, 120);
	KTEST_EXPECT_LT(t, nulls, 280);
	KTEST_EXPECT_EQ(t, pa_expect_snapshot(t, &before, "after the 1% run"), 0);
	for (int i = 0; i < n; i++)
		kthread_stop(workers[i]);
}

/* ------------------------------------------------------------ failslab */

static void failslab_decision(struct ktest *t)
{
	long failures0 = atomic_long_read(&failslab.attr.failures);
	struct kmem_cache *plain, *marked;

	plain = kmem_cache_create("fi-plain", 64, 0, SLAB_NOLEAKTRACE, NULL);
	marked = kmem_cache_create("fi-marked", 64, 0,
				   SLAB_FAILSLAB | SLAB_NOLEAKTRACE, NULL);
	KTEST_ASSERT_TRUE(t, plain && marked);
	/*
	 * As in Linux, kmem_cache_create() drops SLAB_FAILSLAB (it is not in
	 * CACHE_CREATE_MASK): only slub_debug=A sets it.  Do what A does.
	 */
	KTEST_EXPECT_FALSE(t, marked->flags & SLAB_FAILSLAB);
	marked->flags |= SLAB_FAILSLAB;
	fa_arm_for_me(&failslab.attr, 100);
	failslab.ignore_gfp_reclaim = true;
	failslab.cache_filter = false;
	KTEST_EXPECT_EQ(t, should_failslab(plain, GFP_ATOMIC), -ENOMEM);
	KTEST_EXPECT_EQ(t, should_failslab(plain, GFP_NOWAIT), -ENOMEM);
	KTEST_EXPECT_EQ(t, should_failslab(plain, GFP_KERNEL), 0);
	KTEST_EXPECT_EQ(t, should_failslab(plain, GFP_ATOMIC | __GFP_NOFAIL), 0);
	/* The cache of caches never fails (Linux's s == kmem_cache test). */
	KTEST_EXPECT_EQ(t, should_failslab(kmem_cache, GFP_ATOMIC), 0);
	failslab.ignore_gfp_reclaim = false;
	KTEST_EXPECT_EQ(t, should_failslab(plain, GFP_KERNEL), -ENOMEM);
	KTEST_EXPECT_EQ(t, should_failslab(plain, GFP_KERNEL | __GFP_NOFAIL), 0);
	/* cache_filter: only caches created with SLAB_FAILSLAB fail. */
	failslab.cache_filter = true;
	KTEST_EXPECT_EQ(t, should_failslab(plain, GFP_ATOMIC), 0);
	KTEST_EXPECT_EQ(t, should_failslab(marked, GFP_ATOMIC), -ENOMEM);
	failslab.cache_filter = false;
	atomic_set(&failslab.attr.times, 1);
	KTEST_EXPECT_EQ(t, should_failslab(plain, GFP_ATOMIC), -ENOMEM);
	KTEST_EXPECT_EQ(t, should_failslab(plain, GFP_ATOMIC), 0);
	KTEST_EXPECT_EQ(t, atomic_long_read(&failslab.attr.failures) - failures0, 5);
	/* And an armed failslab really makes the allocation return NULL. */
	atomic_set(&failslab.attr.times, 1);
	KTEST_EXPECT_TRUE(t, kmem_cache_alloc(plain, GFP_ATOMIC) == NULL);
	kmem_cache_destroy(plain);
	kmem_cache_destroy(marked);
	/* And the summary line names it. */
	{
		u64 mark = ktest_log_mark();
		char want[64];

		fault_inject_report();
		sniprintf(want, sizeof(want), "failslab: %ld calls, %ld failures injected",
			  atomic_long_read(&failslab.attr.calls),
			  atomic_long_read(&failslab.attr.failures));
		KTEST_EXPECT_LOG(t, mark, want);
	}
}

static struct ktest_case fault_inject_cases[] = {
	KTEST_CASE(boot_fail_page_alloc),
	KTEST_CASE(boot_failslab),
	KTEST_CASE(every_call_fails),
	KTEST_CASE(times_stops_after_three),
	KTEST_CASE(interval_every_fourth),
	KTEST_CASE(probability_zero_never),
	KTEST_CASE(probability_percent_repeatable),
	KTEST_CASE(space_consumed_first),
	KTEST_CASE(task_filter_marked_tasks_only),
	KTEST_CASE(verbose_reports),
	KTEST_CASE(hardirq_all_cpus_exact_times),
	KTEST_CASE(setup_fault_attr_syntax),
	KTEST_CASE(command_line_errors),
	KTEST_CASE(fail_page_alloc_filters),
	KTEST_CASE(page_alloc_returns_null),
	KTEST_CASE(one_percent_long_run),
	KTEST_CASE(failslab_decision),
	{}
};

static struct ktest_suite fault_inject_suite = {
	.name = "fault_inject", .cases = fault_inject_cases,
	.init = fi_init, .exit = fi_exit,
};
ktest_register_suite(fault_inject_suite);

#endif /* CONFIG_FAIL_PAGE_ALLOC && CONFIG_FAILSLAB */
