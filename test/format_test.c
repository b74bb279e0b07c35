// SPDX-License-Identifier: GPL-2.0
/*
 * newlib is the kernel's libc: integer formatting (SSE-free, checked at
 * build time), string conversion, qsort, and float formatting inside
 * kernel_fpu_begin()/kernel_fpu_end().
 */
#include <linux/ktest.h>
#include <asm/fpu/api.h>
#include <stdio.h>
#include <stdlib.h>

#define EXPECT_FMT(t, want, fmt, ...) do {				\
	char __b[128];							\
	int __n = sniprintf(__b, sizeof(__b), fmt, __VA_ARGS__);	\
	KTEST_EXPECT_STREQ(t, __b, want);				\
	KTEST_EXPECT_EQ(t, __n, (int)strlen(want));			\
} while (0)

static void integer_formats(struct ktest *t)
{
	EXPECT_FMT(t, "-42", "%d", -42);
	EXPECT_FMT(t, "4294967295", "%u", 4294967295U);
	EXPECT_FMT(t, "ffff888000000000", "%lx", 0xffff888000000000UL);
	EXPECT_FMT(t, "0000000000001000", "%016llx", 0x1000ULL);
	EXPECT_FMT(t, "-9223372036854775808", "%lld", (long long)(-9223372036854775807LL - 1));
	EXPECT_FMT(t, "[   7|7   ]", "[%4d|%-4d]", 7, 7);
	EXPECT_FMT(t, "18446744073709551615", "%zu", (size_t)-1);
	EXPECT_FMT(t, "0x7b", "%#x", 123);
	EXPECT_FMT(t, "a:b", "%s:%c", "a", 'b');
}

static void pointer_format(struct ktest *t)
{
	EXPECT_FMT(t, "0xffffffff81000000", "%p", (void *)0xffffffff81000000UL);
}

static void truncation(struct ktest *t)
{
	char b[8];
	int n = sniprintf(b, sizeof(b), "%s", "0123456789");

	KTEST_EXPECT_EQ(t, n, 10);	/* would-be length, as C99 says */
	KTEST_EXPECT_STREQ(t, b, "0123456");
}

static void strtol_family(struct ktest *t)
{
	char *end;

	KTEST_EXPECT_EQ(t, strtol("-123xyz", &end, 10), -123);
	KTEST_EXPECT_STREQ(t, end, "xyz");
	KTEST_EXPECT_EQ(t, strtoul("0x1f", NULL, 0), 31);
	KTEST_EXPECT_EQ(t, strtoull("777", NULL, 8), 511);
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static void qsort_sorts(struct ktest *t)
{
	int v[] = { 5, -3, 9, 0, 9, 2, -7, 1 };
	const int want[] = { -7, -3, 0, 1, 2, 5, 9, 9 };

	qsort(v, ARRAY_SIZE(v), sizeof(v[0]), cmp_int);
	for (unsigned int i = 0; i < ARRAY_SIZE(v); i++)
		KTEST_EXPECT_EQ(t, v[i], want[i]);
}

/* IEEE 754 bit patterns: the test code itself never holds a double. */
#define DBL_3_25	0x400a000000000000ULL
#define DBL_NEG_0_5	0xbfe0000000000000ULL
#define DBL_1E10	0x4202a05f20000000ULL

static void float_formats(struct ktest *t)
{
	extern unsigned int kernel_fpu_sections;
	unsigned int before = kernel_fpu_sections;
	char b[64];

	fp_format_bits(b, sizeof(b), "%f", DBL_3_25);
	KTEST_EXPECT_STREQ(t, b, "3.250000");
	fp_format_bits(b, sizeof(b), "%.2f", DBL_NEG_0_5);
	KTEST_EXPECT_STREQ(t, b, "-0.50");
	fp_format_bits(b, sizeof(b), "%.1f", DBL_1E10);
	KTEST_EXPECT_STREQ(t, b, "10000000000.0");
	fp_format_bits(b, sizeof(b), "%e", DBL_3_25);
	KTEST_EXPECT_STREQ(t, b, "3.250000e+00");
	fp_format_ratio(b, sizeof(b), 1, 3, 4);
	KTEST_EXPECT_STREQ(t, b, "0.3333");
	fp_format_ratio(b, sizeof(b), -22, 7, 3);
	KTEST_EXPECT_STREQ(t, b, "-3.143");
	/* Every float path went through an FPU section. */
	KTEST_EXPECT_EQ(t, kernel_fpu_sections - before, 6);
	KTEST_EXPECT_TRUE(t, irq_fpu_usable());
}

static struct ktest_case format_cases[] = {
	KTEST_CASE(integer_formats),
	KTEST_CASE(pointer_format),
	KTEST_CASE(truncation),
	KTEST_CASE(strtol_family),
	KTEST_CASE(qsort_sorts),
	KTEST_CASE(float_formats),
	{}
};

static struct ktest_suite format_suite = { .name = "newlib_format", .cases = format_cases };
ktest_register_suite(format_suite);
