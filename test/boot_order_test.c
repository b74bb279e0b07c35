// SPDX-License-Identifier: GPL-2.0
/*
 * Boot went through Linux 5.15's order (init/main.c, kernel/cpu.c,
 * kernel/smpboot.c, kernel/watchdog.c), as recorded by the steps
 * themselves while it ran:
 *  - kernel_init_freeable() ran in pid 1, with smp_prepare_cpus(),
 *    workqueue_init(), the early initcalls and lockup_detector_init()
 *    before smp_init() (one CPU online), sched_init_smp() after it;
 *  - each AP's per-CPU threads were made on the control CPU at that AP's
 *    CPUHP_CREATE_THREADS, before it was started; a family registered
 *    while only the boot CPU was up made a thread for it alone;
 *  - each CPU's lockup detector was started on that CPU, from a task
 *    (pid 1 for the boot CPU, cpuhp/N for an AP), not by an IPI;
 *  - kthreads made before smp_init() may run on every CPU.
 */
#include <linux/ktest.h>
#include <linux/boot_timing.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/nmi.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/smpboot.h>
#include <linux/string.h>

extern unsigned long watchdog_enabled;

static const struct boot_order_step *find_step(const char *name)
{
	const struct boot_order_step *steps;
	unsigned int n = boot_order_steps(&steps);

	for (unsigned int i = 0; i < n; i++)
		if (!strcmp(steps[i].name, name))
			return &steps[i];
	return NULL;
}

static bool is_pid1(const struct boot_order_step *st)
{
	return st->task && st->task->pid == 1 && !strcmp(st->task->comm, "init");
}

/* Linux's kernel_init_freeable() sequence, every step in pid 1 on CPU 0. */
static void kernel_init_freeable_in_pid1(struct ktest *t)
{
	static const char *const order[] = {
		"kernel_init_freeable", "smp_prepare_cpus", "workqueue_init",
		"do_pre_smp_initcalls", "lockup_detector_init", "smp_init",
		"smp_init: done", "sched_init_smp", "do_basic_setup",
	};
	const struct boot_order_step *steps;
	unsigned int n = boot_order_steps(&steps), at = 0;

	/* rest_init() in CPU 0's idle task comes first; then pid 1's steps. */
	KTEST_ASSERT_GE(t, n, 1 + ARRAY_SIZE(order));
	KTEST_EXPECT_STREQ(t, steps[0].name, "rest_init");
	KTEST_EXPECT_EQ(t, steps[0].task->pid, 0);
	for (unsigned int i = 1; i < n && at < ARRAY_SIZE(order); i++, at++) {
		ktest_info(t, "step %u: %s in pid %d (%s) on CPU %d, %u CPU(s) online", i,
			   steps[i].name, steps[i].task->pid, steps[i].task->comm, steps[i].cpu,
			   steps[i].online);
		KTEST_EXPECT_STREQ(t, steps[i].name, order[at]);
		KTEST_EXPECT_TRUE(t, is_pid1(&steps[i]));
		KTEST_EXPECT_EQ(t, steps[i].cpu, 0);
	}
	KTEST_EXPECT_EQ(t, at, ARRAY_SIZE(order));
}

/* One CPU up to smp_init(); sched_init_smp() sees every CPU it brought up. */
static void smp_init_between(struct ktest *t)
{
	const struct boot_order_step *lockup = find_step("lockup_detector_init");
	const struct boot_order_step *smp = find_step("smp_init");
	const struct boot_order_step *done = find_step("smp_init: done");
	const struct boot_order_step *sched = find_step("sched_init_smp");

	KTEST_ASSERT_TRUE(t, lockup && smp && done && sched);
	KTEST_EXPECT_EQ(t, lockup->online, 1);
	KTEST_EXPECT_EQ(t, smp->online, 1);
	KTEST_EXPECT_EQ(t, sched->online, done->online);
	KTEST_EXPECT_TRUE(t, is_pid1(sched));
	ktest_info(t, "smp_init() brought %u CPU(s) online; sched_init_smp() saw %u",
		   done->online, sched->online);
}

/*
 * Each thread smpboot made: the boot CPU's at registration (the CPU
 * online, at CPUHP_ONLINE), every other CPU's at its CPUHP_CREATE_THREADS
 * on the control CPU (pid 1's CPU 0 at boot) while it was still offline;
 * every family has a thread on every CPU that came up, made once.
 */
static void smpboot_threads_at_create_threads(struct ktest *t)
{
	const struct smpboot_create_record *recs;
	unsigned int n = smpboot_create_records(&recs), families = 0, cpu;

	KTEST_ASSERT_GE(t, n, 1);
	for (unsigned int i = 0; i < n; i++) {
		const struct smpboot_create_record *r = &recs[i];

		if (r->cpu == 0) {
			families++;
			KTEST_EXPECT_TRUE(t, r->cpu_online);
			KTEST_EXPECT_EQ(t, r->cpuhp_state, CPUHP_ONLINE);
			continue;
		}
		if (r->cpu_online || r->cpuhp_state != CPUHP_CREATE_THREADS || r->on_cpu != 0)
			ktest_info(t, "%s for CPU %u made on CPU %u in state %d, %s", r->comm,
				   r->cpu, r->on_cpu, r->cpuhp_state,
				   r->cpu_online ? "online" : "offline");
		KTEST_EXPECT_FALSE(t, r->cpu_online);
		KTEST_EXPECT_EQ(t, r->cpuhp_state, CPUHP_CREATE_THREADS);
		KTEST_EXPECT_EQ(t, r->on_cpu, 0);
	}
	/* cpuhp, migration, ksoftirqd, and rcuc where RCU runs in threads. */
	KTEST_EXPECT_GE(t, families, 3);
	for_each_online_cpu(cpu) {
		unsigned int made = 0;

		for (unsigned int i = 0; i < n; i++)
			made += recs[i].cpu == cpu;
		KTEST_EXPECT_EQ(t, made, families);
	}
	ktest_info(t, "%u families, %u threads made", families, n);
}

/*
 * The detector of each online CPU was started on that CPU, in task
 * context: by pid 1 (lockup_detector_init()) on the boot CPU, by the
 * CPU's own cpuhp thread (CPUHP_AP_WATCHDOG_ONLINE) on the others.
 */
static void watchdog_started_on_its_cpu(struct ktest *t)
{
	unsigned int cpu;

	if (!watchdog_enabled)
		ktest_skip(t, "the lockup detectors are off");
	for_each_online_cpu(cpu) {
		struct watchdog_start_record rec;
		char comm[TASK_COMM_LEN];

		watchdog_start_record(cpu, &rec);
		KTEST_ASSERT_GE(t, rec.count, 1);
		ktest_info(t, "CPU %u: started %u time(s), last by %s on CPU %d%s", cpu, rec.count,
			   rec.task ? rec.task->comm : "?", rec.on_cpu,
			   rec.in_task ? "" : " in an interrupt");
		KTEST_EXPECT_EQ(t, rec.on_cpu, cpu);
		KTEST_EXPECT_TRUE(t, rec.in_task);
		if (cpu == 0) {
			KTEST_EXPECT_EQ(t, rec.task->pid, 1);
			continue;
		}
		snprintf(comm, sizeof(comm), "cpuhp/%u", cpu);
		KTEST_EXPECT_STREQ(t, rec.task->comm, comm);
	}
}

/*
 * rcu_preempt is made before smp_init(), with CPU 0 the only one up: it
 * may still run on every possible CPU (Linux's kthreadd mask).
 */
static void early_kthread_any_cpu(struct ktest *t)
{
	struct task_struct *gp = rcu_get_gp_kthread();
	unsigned int cpu;

	KTEST_ASSERT_TRUE(t, gp != NULL);
	ktest_info(t, "%s (pid %d) may run on %u CPU(s) of %u possible", gp->comm, gp->pid,
		   gp->nr_cpus_allowed, num_possible_cpus());
	for_each_possible_cpu(cpu)
		KTEST_EXPECT_TRUE(t, cpumask_test_cpu(cpu, &gp->cpus_mask));
	KTEST_EXPECT_EQ(t, gp->nr_cpus_allowed, num_possible_cpus());
}

static struct ktest_case boot_order_cases[] = {
	KTEST_CASE(kernel_init_freeable_in_pid1),
	KTEST_CASE(smp_init_between),
	KTEST_CASE(smpboot_threads_at_create_threads),
	KTEST_CASE(watchdog_started_on_its_cpu),
	KTEST_CASE(early_kthread_any_cpu),
	{}
};

static struct ktest_suite boot_order_suite = {
	.name = "boot_order",
	.cases = boot_order_cases,
};
ktest_register_suite(boot_order_suite);
