// SPDX-License-Identifier: GPL-2.0
/* Symbol lookup and backtraces resolve to the right names and offsets. */
#include <linux/ktest.h>
#include <linux/kallsyms.h>
#include <linux/memblock.h>
#include <linux/start_kernel.h>
#include <asm/stacktrace.h>
#include <stdio.h>

static void lookup_known_functions(struct ktest *t)
{
	unsigned long size, off;
	const char *name;

	name = kallsyms_lookup((unsigned long)memblock_add, &size, &off);
	KTEST_EXPECT_STREQ(t, name, "memblock_add");
	KTEST_EXPECT_EQ(t, off, 0);
	KTEST_EXPECT_GT(t, size, 0);

	name = kallsyms_lookup((unsigned long)start_kernel + 5, &size, &off);
	KTEST_EXPECT_STREQ(t, name, "start_kernel");
	KTEST_EXPECT_EQ(t, off, 5);
	KTEST_EXPECT_GT(t, size, 5);

	KTEST_EXPECT_EQ(t, kallsyms_lookup_name("memblock_reserve"),
			(unsigned long)memblock_reserve);
	KTEST_EXPECT_EQ(t, kallsyms_lookup_name("no_such_function_here"), 0);
}

static void lookup_outside_text(struct ktest *t)
{
	static int some_data;

	KTEST_EXPECT_TRUE(t, kallsyms_lookup((unsigned long)&some_data, NULL, NULL) == NULL);
	KTEST_EXPECT_TRUE(t, kallsyms_lookup(0x1000, NULL, NULL) == NULL);
	KTEST_EXPECT_GT(t, kallsyms_nr_syms(), 100);
}

static void sprint_symbol_format(struct ktest *t)
{
	char buf[KSYM_SYMBOL_LEN], want[KSYM_SYMBOL_LEN];
	unsigned long size;

	kallsyms_lookup((unsigned long)memblock_add, &size, NULL);
	sprint_symbol(buf, (unsigned long)memblock_add + 0x10);
	snprintf(want, sizeof(want), "memblock_add+0x10/0x%lx", size);
	KTEST_EXPECT_STREQ(t, buf, want);
	sprint_symbol(buf, 0x1234);
	KTEST_EXPECT_STREQ(t, buf, "0x0000000000001234");
}

static unsigned long trace[8];
static unsigned int trace_len;

static noinline void trace_leaf(void)
{
	trace_len = save_stack_trace(trace, ARRAY_SIZE(trace), 0);
	barrier();
}

static noinline void trace_middle(void)
{
	trace_leaf();
	barrier();
}

/* As Linux's stack_trace_save(): the first entry is the direct caller. */
static void backtrace_names_callers(struct ktest *t)
{
	static const char *const want[] = {
		"trace_leaf", "trace_middle", "backtrace_names_callers"
	};

	trace_middle();
	KTEST_ASSERT_GE(t, trace_len, 3);
	for (int i = 0; i < 3; i++)
		KTEST_EXPECT_STREQ(t, kallsyms_lookup(trace[i] - 1, NULL, NULL), want[i]);
}

static struct ktest_case kallsyms_cases[] = {
	KTEST_CASE(lookup_known_functions),
	KTEST_CASE(lookup_outside_text),
	KTEST_CASE(sprint_symbol_format),
	KTEST_CASE(backtrace_names_callers),
	{}
};

static struct ktest_suite kallsyms_suite = { .name = "kallsyms", .cases = kallsyms_cases };
ktest_register_suite(kallsyms_suite);
