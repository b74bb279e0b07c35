/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_KTEST_H
#define _LINUX_KTEST_H

/*
 * ktest: in-kernel tests that print KTAP version 1, in the shape of KUnit.
 *
 *	static void foo_basic(struct ktest *t)
 *	{
 *		KTEST_EXPECT_EQ(t, foo(2), 4);
 *	}
 *	static struct ktest_case foo_cases[] = { KTEST_CASE(foo_basic), {} };
 *	static struct ktest_suite foo_suite = { .name = "foo", .cases = foo_cases };
 *	ktest_register_suite(foo_suite);
 *
 * EXPECT records a failure and goes on; ASSERT records it and ends the case.
 */
#include <linux/kernel.h>
#include <linux/bug.h>
#include <linux/ubsan.h>
#include <asm/traps.h>

struct ktest {
	const char *name;
	bool failed;
	bool skipped;
	char skip_reason[96];
	struct fault_jmp abort_jmp;	/* ASSERT and skip leave through here */
	int depth;			/* KTAP nesting of this case's lines */
	unsigned int sub_planned, sub_done;
	void *priv;
};

struct ktest_case {
	void (*run)(struct ktest *t);
	const char *name;
};

struct ktest_suite {
	const char *name;
	struct ktest_case *cases;	/* terminated by an empty entry */
	int (*init)(struct ktest *t);
	void (*exit)(struct ktest *t);
};

#define KTEST_CASE(fn)	{ .run = fn, .name = #fn }

#define ktest_register_suite(s)						\
	static struct ktest_suite *__ktest_ptr_##s			\
	__used __section(".ktest_suites") __aligned(8) = &(s)

int ktest_run_all(void);
/*
 * Non-zero once ktest has opened the top-level KTAP document: the result
 * number its plan keeps for the run's own verdict, which init prints last
 * (a failure after the suites, or none printed at all, then reads as a
 * failure to any KTAP parser).
 */
extern unsigned int ktap_verdict_number;
void ktest_selftest_broken_boot(void);

__printf(4, 5) void ktest_fail(struct ktest *t, const char *file, int line,
			       const char *fmt, ...);
__printf(2, 3) void ktest_info(struct ktest *t, const char *fmt, ...);

/* ktest.exact_time=1: the icount entries, where timing is checked to 1%. */
extern bool ktest_exact_time;
/* "icount", "TCG", "KVM" or "hardware": name it next to every reported figure. */
const char *ktest_clock_mode(void);
__noreturn void ktest_abort(struct ktest *t);
__noreturn __printf(2, 3) void ktest_skip(struct ktest *t, const char *fmt, ...);

/* Nested subtests: declare how many, then run each. */
void ktest_subtests_begin(struct ktest *t, unsigned int n);
void ktest_subtest(struct ktest *t, const char *name,
		   void (*fn)(struct ktest *t, void *arg), void *arg);

/* Threads for staged scenarios (test/ktest_thread.c). */
struct task_struct;
struct task_struct *ktest_kthread(int (*fn)(void *), void *arg, const char *name,
				  int cpu, int policy, int prio);
void ktest_wait_flag(volatile bool *flag);
void ktest_run_pair(struct ktest *t, struct task_struct *a, volatile bool *a_done,
		    struct task_struct *b, volatile bool *b_done);
void ktest_release_when_asleep(struct task_struct *sleeper, volatile bool *hold);
void ktest_set_fifo(int prio);
void ktest_on_each_cpu(void (*fn)(void *info), void *info);
void ktest_threads_init(void);
void ktest_reap_case_threads(void);
int ktest_tracked_threads(void);
bool ktest_thread_gone(struct task_struct *p);

/* pi_stress (test/pi_stress.c): a test case and the run=pi_stress workload. */
struct pi_stress_result {
	int groups;
	unsigned long iterations, failures;
	u64 elapsed_ns, max_wait_ns;
};
long pi_stress(int ngroups, int iterations, int timeout_ms, struct pi_stress_result *res);
void pi_stress_report(const struct pi_stress_result *r);
int pi_stress_run(void);

/* The run=slabbench workload (test/slabbench.c). */
int slabbench_run(void);

/* The run=shrink workload (test/shrink.c). */
int shrink_run(void);

/* The run=files workload (test/files.c). */
int files_run(void);
/* run=hotplug (test/hotplug.c). */
int hotplug_run(void);
/* run=soak (test/soak.c). */
int soak_run(void);

/* The run=rcutorture workload (kernel/rcu/rcutorture.c). */
int rcu_torture_run(void);

/* The run=cyclic workload (test/cyclic.c). */
int cyclic_run(void);
/* How many run=cyclic groups have run in this boot. */
extern int cyclic_runs;
/* The run=cyclicdl workload (test/cyclicdl.c). */
int cyclicdl_run(void);
/* hackbench (test/hackbench.c): the run=hackbench workload and its engine. */
struct hackbench_params {
	int groups, fds, loops, size;
	bool spread;		/* pin thread i to online CPU i mod N */
	bool fail_senders;	/* tests: senders get make_it_fail (failslab) */
	bool duplicate_one;	/* tests: one message is sent twice */
};
struct hackbench_result {
	unsigned int threads;	/* created */
	unsigned int unreaped;	/* not dead and released 1 s after they finished */
	bool aborted;		/* not all could be created: nothing sent */
	u64 time_ns, cycles;	/* release to the last receiver done */
	u64 sent, received, dropped, leftover;
	u64 errors;		/* out of sequence, or per-pair counts that differ */
	u64 corrupt;		/* payloads that changed on the way */
	u64 nvcsw, nivcsw, migrations;
};
int hackbench(const struct hackbench_params *p, struct hackbench_result *r);
void hackbench_report(const struct hackbench_params *p, const struct hackbench_result *r);
int hackbench_run(void);
/* The rounds' times so far: n, mean, sd (n - 1), min, max. */
struct hackbench_rounds {
	u64 n, sum_ns, min_ns, max_ns;
	unsigned __int128 sumsq;
};
struct hackbench_round_stats {
	u64 n, mean_ns, sd_ns, min_ns, max_ns;
};
void hackbench_rounds_add(struct hackbench_rounds *s, u64 ns);
void hackbench_rounds_stats(const struct hackbench_rounds *s, struct hackbench_round_stats *st);
int hackbench_format_summary(char *line, size_t lsize, char *json, size_t jsize,
			     const struct hackbench_round_stats *st, const char *clock);
/* After the last round of run=hackbench: the summary line and record. */
void hackbench_end(void);

/* Noise and latency workloads: run=rt_migrate, ptsema, osnoise, hwlat. */
int rt_migrate_run(void);
int ptsema_run(void);
int osnoise_run(void);
int hwlat_run(void);

/* printk ring inspection: did the kernel report something since @mark? */
u64 ktest_log_mark(void);
bool ktest_log_contains(u64 mark, const char *needle);

/*
 * The running case provoked @n reports of @kind on purpose (kinds as
 * test/run names them: warn, lockdep, sched, lockup, kasan, ubsan, bug).
 * The line this prints is what lets test/run tell a planted report from
 * one nobody expected: in the stretch of log that belongs to this case it
 * accepts as many reports of @kind as the case's lines declare, no more.
 */
void ktest_expect_reports(const char *kind, unsigned long n);

bool glob_match(const char *pat, const char *str);

#define KTEST_EXPECT_TRUE(t, cond) do {					\
	if (!(cond))							\
		ktest_fail(t, __FILE__, __LINE__,			\
			   "Expected %s to be true, but is false", #cond);\
} while (0)

#define KTEST_EXPECT_FALSE(t, cond) do {				\
	if (cond)							\
		ktest_fail(t, __FILE__, __LINE__,			\
			   "Expected %s to be false, but is true", #cond);\
} while (0)

#define __KTEST_BINARY(t, a, op, b, abort) do {				\
	long long __a = (long long)(a), __b = (long long)(b);		\
	if (!(__a op __b)) {						\
		ktest_fail(t, __FILE__, __LINE__,			\
			   "Expected %s %s %s, but\n        %s == %lld (0x%llx)\n        %s == %lld (0x%llx)", \
			   #a, #op, #b, #a, __a, (unsigned long long)__a,\
			   #b, __b, (unsigned long long)__b);		\
		if (abort)						\
			ktest_abort(t);					\
	}								\
} while (0)

#define KTEST_EXPECT_EQ(t, a, b)	__KTEST_BINARY(t, a, ==, b, 0)
#define KTEST_EXPECT_NE(t, a, b)	__KTEST_BINARY(t, a, !=, b, 0)
#define KTEST_EXPECT_LT(t, a, b)	__KTEST_BINARY(t, a, <, b, 0)
#define KTEST_EXPECT_LE(t, a, b)	__KTEST_BINARY(t, a, <=, b, 0)
#define KTEST_EXPECT_GT(t, a, b)	__KTEST_BINARY(t, a, >, b, 0)
#define KTEST_EXPECT_GE(t, a, b)	__KTEST_BINARY(t, a, >=, b, 0)
#define KTEST_ASSERT_EQ(t, a, b)	__KTEST_BINARY(t, a, ==, b, 1)
#define KTEST_ASSERT_NE(t, a, b)	__KTEST_BINARY(t, a, !=, b, 1)
#define KTEST_ASSERT_GE(t, a, b)	__KTEST_BINARY(t, a, >=, b, 1)

#define KTEST_ASSERT_TRUE(t, cond) do {					\
	if (!(cond)) {							\
		ktest_fail(t, __FILE__, __LINE__,			\
			   "Asserted %s to be true, but is false", #cond);\
		ktest_abort(t);						\
	}								\
} while (0)

#define KTEST_EXPECT_STREQ(t, a, b) do {				\
	const char *__sa = (a), *__sb = (b);				\
	if (!__sa || !__sb || strcmp(__sa, __sb))			\
		ktest_fail(t, __FILE__, __LINE__,			\
			   "Expected %s == %s, but\n        %s == \"%s\"\n        %s == \"%s\"", \
			   #a, #b, #a, __sa ? __sa : "(null)", #b,	\
			   __sb ? __sb : "(null)");			\
} while (0)

/*
 * The case provoked @n kernel warnings on purpose since it read @before
 * from taint_warn_count: check the number and forgive them, so that the
 * run does not fail for them (init fails a run that warned).
 */
#define KTEST_EXPECT_WARNINGS(t, before, n) do {			\
	KTEST_EXPECT_EQ(t, taint_warn_count - (before), (unsigned long)(n));	\
	taint_warn_count = (before);					\
	ktest_expect_reports("warn", (n));				\
} while (0)

/*
 * The same for UBSAN reports (linux/ubsan.h): the case planted @n
 * undefined behaviours that report since it read @before from
 * ubsan_report_count.
 */
#define KTEST_EXPECT_UBSAN_REPORTS(t, before, n) do {			\
	KTEST_EXPECT_EQ(t, atomic_read(&ubsan_report_count) - (before), (n));	\
	atomic_set(&ubsan_report_count, (before));			\
	ktest_expect_reports("ubsan", (n));				\
} while (0)

#define KTEST_EXPECT_LOG(t, mark, needle) do {				\
	if (!ktest_log_contains(mark, needle))				\
		ktest_fail(t, __FILE__, __LINE__,			\
			   "Expected the kernel log to report \"%s\"", needle);\
} while (0)

/*
 * Run @stmt expecting it to raise exception @vec; on success *(rec) holds
 * what the trap handler saw.  A missing fault is a test failure.
 */
#define KTEST_EXPECT_FAULT(t, vec, recp, stmt) ({			\
	struct fault_catcher __fc;					\
	bool __faulted = false;						\
	if (fault_catch(&__fc, 1ULL << (vec))) {			\
		__faulted = true;					\
		*(recp) = __fc.rec;					\
	} else {							\
		stmt;							\
		fault_catch_disarm(&__fc);				\
		ktest_fail(t, __FILE__, __LINE__,			\
			   "Expected %s to raise %s, but it did not",	\
			   #stmt, trap_name(vec));			\
	}								\
	__faulted;							\
})


/* test/ktest_fault.c: arm a fault_attr for a case, then put it back. */
struct fault_attr;
struct ktest_fault_saved {
	unsigned long probability, interval, verbose;
	int times, space;
	bool task_filter;
};
void ktest_fault_arm(struct fault_attr *a, unsigned long probability,
		     bool task_filter, struct ktest_fault_saved *save);
void ktest_fault_restore(struct fault_attr *a,
			 const struct ktest_fault_saved *save);

#endif
