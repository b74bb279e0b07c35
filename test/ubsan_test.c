// SPDX-License-Identifier: GPL-2.0
/*
 * The ubsan suite, after Linux's lib/test_ubsan.c: each kind of undefined
 * behaviour the configuration checks is planted once, and the case
 * expects its report from lib/ubsan.c (kind, file:line, the value, the
 * backtrace), then takes the report back so that the run still passes.
 * Further cases check that a site reports once, that a report inside a
 * report is dropped, and two switches break the boot on purpose: a
 * report nobody takes back must fail the run, __builtin_unreachable()
 * must panic.
 *
 * This file is always built with the checks (test/Kbuild), and the values
 * are volatile so that GCC cannot see the bug at compile time.
 */
#include <linux/kernel.h>
#include <linux/ktest.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/ubsan.h>
#include <limits.h>
#include <stdio.h>

#define UBSAN_TEST_FILE	"test/ubsan_test.c"

/* Skip a case whose check the configuration does not build. */
#define UBSAN_TEST_NEEDS(t, config) do {				\
	if (!IS_ENABLED(config))					\
		ktest_skip(t, #config " is not set");			\
} while (0)

/* How many records since @mark contain @needle. */
static unsigned int log_count(u64 mark, const char *needle)
{
	char buf[256];
	unsigned int n = 0;

	for (u64 seq = mark; seq < printk_next_seq(); seq++)
		if (printk_read_record(seq, buf, sizeof(buf), NULL, NULL) >= 0 &&
		    strstr(buf, needle))
			n++;
	return n;
}

/* The report's banner for @kind at @line of this file, seen exactly once. */
static void expect_banner(struct ktest *t, u64 mark, const char *kind, int line)
{
	char needle[96];
	unsigned int n;

	snprintf(needle, sizeof(needle), "UBSAN: %s in " UBSAN_TEST_FILE ":%d:", kind, line);
	n = log_count(mark, needle);
	if (n != 1)
		ktest_fail(t, __FILE__, __LINE__, "\"%s\" printed %u times, expected once",
			   needle, n);
}

/* ------------------------------------------------ array index */

/*
 * The bounds check is on arr; the indices the cases use (-4..11) land in
 * the guards beside it, so the access after the report harms nobody.
 */
struct guarded_ints {
	int below[4];
	int arr[4];
	int above[8];
};

/* Read g->arr[idx] at a site of its own (one per expansion), noting its line. */
#define OOB_READ(g, idx, line)	({ *(line) = __LINE__; (g)->arr[idx]; })

static void ubsan_out_of_bounds(struct ktest *t)
{
	volatile struct guarded_ints g = {};
	volatile int above = 4, below = -1;
	int before = atomic_read(&ubsan_report_count);
	u64 mark = ktest_log_mark();
	int l_above, l_below;

	UBSAN_TEST_NEEDS(t, CONFIG_UBSAN_BOUNDS);
	OOB_READ(&g, above, &l_above);
	OOB_READ(&g, below, &l_below);
	KTEST_EXPECT_UBSAN_REPORTS(t, before, 2);
	expect_banner(t, mark, "array-index-out-of-bounds", l_above);
	expect_banner(t, mark, "array-index-out-of-bounds", l_below);
	KTEST_EXPECT_LOG(t, mark, "index 4 is out of range for type 'int [4]'");
	KTEST_EXPECT_LOG(t, mark, "index -1 is out of range for type 'int [4]'");
	/* Linux's shape: a rule, the banner, the detail, the task, the trace. */
	KTEST_EXPECT_EQ(t, log_count(mark, "========================================"
				     "========================================"), 4u);
	KTEST_EXPECT_LOG(t, mark, "CPU: ");
	KTEST_EXPECT_LOG(t, mark, "Call Trace:");
	KTEST_EXPECT_LOG(t, mark, " ubsan_out_of_bounds+0x");
}

/* ------------------------------------------------ shifts */

static void ubsan_shift_out_of_bounds(struct ktest *t)
{
	volatile int neg = -1, big = 40, four = 4, one = 1, minus_one = -1;
	volatile int v = 10, max = INT_MAX;
	int before = atomic_read(&ubsan_report_count);
	u64 mark = ktest_log_mark();
	int l_neg, l_big, l_ovf, l_negval;

	UBSAN_TEST_NEEDS(t, CONFIG_UBSAN_SHIFT);
	l_neg = __LINE__; v = v << neg;
	l_big = __LINE__; v = v << big;
	l_ovf = __LINE__; v = max << four;
	l_negval = __LINE__; v = minus_one << one;
	KTEST_EXPECT_UBSAN_REPORTS(t, before, 4);
	expect_banner(t, mark, "shift-out-of-bounds", l_neg);
	expect_banner(t, mark, "shift-out-of-bounds", l_big);
	expect_banner(t, mark, "shift-out-of-bounds", l_ovf);
	expect_banner(t, mark, "shift-out-of-bounds", l_negval);
	KTEST_EXPECT_LOG(t, mark, "shift exponent -1 is negative");
	KTEST_EXPECT_LOG(t, mark, "shift exponent 40 is too large for 32-bit type 'int'");
	KTEST_EXPECT_LOG(t, mark,
			 "left shift of 2147483647 by 4 places cannot be represented in type 'int'");
	KTEST_EXPECT_LOG(t, mark, "left shift of negative value -1");
}

/* ------------------------------------------------ division */

static void ubsan_divrem_overflow(struct ktest *t)
{
	volatile int val = 16, zero = 0, min = INT_MIN, minus_one = -1;
	int before = atomic_read(&ubsan_report_count);
	u64 mark = ktest_log_mark();
	struct fault_record r;
	int l_zero = __LINE__ + 4;

	UBSAN_TEST_NEEDS(t, CONFIG_UBSAN_DIV_ZERO);
	/* The report comes first; then the division itself raises #DE. */
	KTEST_EXPECT_FAULT(t, X86_TRAP_DE, &r, val = val / zero);
	/*
	 * GCC checks INT_MIN / -1 only under -fsanitize=signed-integer-overflow,
	 * which Linux 5.15 does not use: #DE without a report.
	 */
	KTEST_EXPECT_FAULT(t, X86_TRAP_DE, &r, val = min / minus_one);
	KTEST_EXPECT_UBSAN_REPORTS(t, before, 1);
	expect_banner(t, mark, "division-overflow", l_zero);
	KTEST_EXPECT_LOG(t, mark, "division by zero");
}

/* ------------------------------------------------ bool and enum loads */

enum ubsan_test_enum {
	UBSAN_TEST_ZERO = 0,
	UBSAN_TEST_ONE,
	UBSAN_TEST_MAX,
};

/* The loads happen here, from memory the caller filled byte by byte. */
static noinline int load_bool(bool *p, int *line)
{
	*line = __LINE__; return *p ? 1 : 0;
}

static noinline int load_enum(enum ubsan_test_enum *p, int *line)
{
	*line = __LINE__; return *p == UBSAN_TEST_ONE;
}

static void ubsan_load_invalid_value(struct ktest *t)
{
	int before = atomic_read(&ubsan_report_count);
	u64 mark = ktest_log_mark();
	volatile unsigned char c = 0xff;
	enum ubsan_test_enum e;
	int l_bool = 0, l_enum = 0;
	bool b;

	UBSAN_TEST_NEEDS(t, CONFIG_UBSAN_BOOL);
	memset(&b, c, sizeof(b));
	memset(&e, c, sizeof(e));
	load_bool(&b, &l_bool);
	load_enum(&e, &l_enum);
	expect_banner(t, mark, "invalid-load", l_bool);
	KTEST_EXPECT_LOG(t, mark, "load of value 255 is not a valid value for type '_Bool'");
	/*
	 * CONFIG_UBSAN_ENUM passes -fsanitize=enum, but GCC's C front end gives
	 * an enum the whole range of its underlying type, so no enum load is
	 * invalid and GCC plants no check (it does in C++; clang does in C).
	 * Linux's GCC builds are the same: nothing to report.
	 */
	KTEST_EXPECT_UBSAN_REPORTS(t, before, 1);
}

/* ------------------------------------------------ once per site */

static noinline int plant_oob(int idx, int *line)
{
	volatile struct guarded_ints g = {};

	return OOB_READ(&g, idx, line);
}

/*
 * The same site failing three times prints one report; another site
 * still prints its own.
 */
static void ubsan_report_once_per_site(struct ktest *t)
{
	int before = atomic_read(&ubsan_report_count);
	u64 mark = ktest_log_mark();
	int line = 0;

	UBSAN_TEST_NEEDS(t, CONFIG_UBSAN_BOUNDS);
	for (int i = 0; i < 3; i++)
		plant_oob(4 + i, &line);
	KTEST_EXPECT_UBSAN_REPORTS(t, before, 1);
	expect_banner(t, mark, "array-index-out-of-bounds", line);
	KTEST_EXPECT_LOG(t, mark, "index 4 is out of range");
	KTEST_EXPECT_EQ(t, log_count(mark, "index 5 is out of range"), 0u);
	KTEST_EXPECT_EQ(t, log_count(mark, "index 6 is out of range"), 0u);
}

/* ------------------------------------------------ a report inside a report */

static noinline int plant_nested(int idx, int *line)
{
	volatile struct guarded_ints g = {};

	return OOB_READ(&g, idx, line);
}

/*
 * While a task is printing a report, undefined behaviour on the way
 * (printk, the backtrace) is dropped, and the site stays free: it
 * reports the next time it fails outside a report.
 */
static void ubsan_nested_report_dropped(struct ktest *t)
{
	int before = atomic_read(&ubsan_report_count);
	u64 mark = ktest_log_mark();
	int line = 0;

	UBSAN_TEST_NEEDS(t, CONFIG_UBSAN_BOUNDS);
	current->in_ubsan++;
	plant_nested(4, &line);
	current->in_ubsan--;
	KTEST_EXPECT_UBSAN_REPORTS(t, before, 0);
	KTEST_EXPECT_EQ(t, log_count(mark, "UBSAN:"), 0u);
	plant_nested(5, &line);
	KTEST_EXPECT_UBSAN_REPORTS(t, before, 1);
	expect_banner(t, mark, "array-index-out-of-bounds", line);
	KTEST_EXPECT_LOG(t, mark, "index 5 is out of range for type 'int [4]'");
}

/* ------------------------------------------------ deliberately broken boots */

/*
 * ktest.ubsan_left=1: a report the case does not take back, so init must
 * fail the run for it ("1 UBSAN report(s)").
 */
static bool ubsan_left;
core_param("ktest.ubsan_left", ubsan_left, bool,
	   "leave one UBSAN report for the run's verdict (the run must fail)");

static noinline int plant_left(int idx, int *line)
{
	volatile struct guarded_ints g = {};

	return OOB_READ(&g, idx, line);
}

static void ubsan_report_fails_run(struct ktest *t)
{
	volatile int idx = -2;
	int line;

	if (!ubsan_left)
		ktest_skip(t, "ktest.ubsan_left=1 runs it (the run then fails)");
	UBSAN_TEST_NEEDS(t, CONFIG_UBSAN_BOUNDS);
	plant_left(idx, &line);
	ktest_info(t, "left a report at " UBSAN_TEST_FILE ":%d for the verdict", line);
}

/* ktest.ubsan_unreachable=1: reach __builtin_unreachable(); the report panics. */
static bool ubsan_unreachable;
core_param("ktest.ubsan_unreachable", ubsan_unreachable, bool,
	   "reach __builtin_unreachable() (the kernel panics)");

static noinline void plant_unreachable(volatile int *how)
{
	if (*how == 1)
		return;
	pr_info("ubsan_test: reaching __builtin_unreachable() at " UBSAN_TEST_FILE ":%d\n",
		__LINE__ + 1);
	__builtin_unreachable();
}

static void ubsan_unreachable_panics(struct ktest *t)
{
	volatile int how = 2;

	if (!ubsan_unreachable)
		ktest_skip(t, "ktest.ubsan_unreachable=1 runs it (the kernel panics)");
	UBSAN_TEST_NEEDS(t, CONFIG_UBSAN_UNREACHABLE);
	plant_unreachable(&how);
	ktest_fail(t, __FILE__, __LINE__, "returned from __builtin_unreachable()");
}

static struct ktest_case ubsan_cases[] = {
	KTEST_CASE(ubsan_out_of_bounds),
	KTEST_CASE(ubsan_shift_out_of_bounds),
	KTEST_CASE(ubsan_divrem_overflow),
	KTEST_CASE(ubsan_load_invalid_value),
	KTEST_CASE(ubsan_report_once_per_site),
	KTEST_CASE(ubsan_nested_report_dropped),
	KTEST_CASE(ubsan_report_fails_run),
	KTEST_CASE(ubsan_unreachable_panics),
	{}
};

static struct ktest_suite ubsan_suite = {
	.name = "ubsan",
	.cases = ubsan_cases,
};
ktest_register_suite(ubsan_suite);
