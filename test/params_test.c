// SPDX-License-Identifier: GPL-2.0
/* Command-line parsing on a private parameter table: good and bad values. */
#include <linux/ktest.h>
#include <linux/moduleparam.h>

static int p_int;
static unsigned int p_uint;
static unsigned long p_size;
static bool p_bool;
static const char *p_str;
static int p_enum;
static const char *const p_enum_names[] = { "one", "two", "three", NULL };
static const struct kparam_range p_range = { -5, 50 };
static const struct kparam_choices p_choices = { p_enum_names };

static const struct kernel_param test_params[] = {
	{ "t.int", &param_ops_int, &p_int, &p_range, "" },
	{ "t.uint", &param_ops_uint, &p_uint, NULL, "" },
	{ "t.size", &param_ops_ulong, &p_size, NULL, "" },
	{ "t.bool", &param_ops_bool, &p_bool, NULL, "" },
	{ "t.str", &param_ops_charp, &p_str, NULL, "" },
	{ "t.enum", &param_ops_enum, &p_enum, &p_choices, "" },
};

static int params_init(struct ktest *t)
{
	p_int = 7;
	p_uint = 3;
	p_size = 0;
	p_bool = false;
	p_str = "default";
	p_enum = 0;
	return 0;
}

static int parse(const char *line, unsigned int *errors)
{
	static char buf[256];

	strncpy(buf, line, sizeof(buf) - 1);
	return parse_args("ktest", buf, test_params, ARRAY_SIZE(test_params), errors);
}

static void good_values(struct ktest *t)
{
	unsigned int errors = 99;

	KTEST_EXPECT_EQ(t, parse("  t.int=-5 t.uint=0x10 t.size=4K t.bool t.str=\"hello world\" t.enum=three ", &errors), 0);
	KTEST_EXPECT_EQ(t, errors, 0);
	KTEST_EXPECT_EQ(t, p_int, -5);
	KTEST_EXPECT_EQ(t, p_uint, 16);
	KTEST_EXPECT_EQ(t, p_size, 4096);
	KTEST_EXPECT_TRUE(t, p_bool);
	KTEST_EXPECT_STREQ(t, p_str, "hello world");
	KTEST_EXPECT_EQ(t, p_enum, 2);
	KTEST_EXPECT_EQ(t, parse("t.bool=off t.size=2M", &errors), 0);
	KTEST_EXPECT_FALSE(t, p_bool);
	KTEST_EXPECT_EQ(t, p_size, 2UL << 20);
}

static void bad_values_keep_defaults(struct ktest *t)
{
	unsigned int errors = 0;
	u64 mark = ktest_log_mark();

	KTEST_EXPECT_NE(t, parse("t.int=12abc t.int=51 t.uint=-1 t.bool=maybe t.enum=four t.size=3Q t.str", &errors), 0);
	KTEST_EXPECT_EQ(t, errors, 7);
	KTEST_EXPECT_EQ(t, p_int, 7);
	KTEST_EXPECT_EQ(t, p_uint, 3);
	KTEST_EXPECT_FALSE(t, p_bool);
	KTEST_EXPECT_EQ(t, p_enum, 0);
	KTEST_EXPECT_EQ(t, p_size, 0);
	KTEST_EXPECT_STREQ(t, p_str, "default");
	KTEST_EXPECT_LOG(t, mark, "parameter 't.int': '12abc' is not an integer");
	KTEST_EXPECT_LOG(t, mark, "parameter 't.int': value 51 out of range [-5, 50]");
	KTEST_EXPECT_LOG(t, mark, "'t.enum': 'four' is not valid (valid: one, two, three)");
	KTEST_EXPECT_LOG(t, mark, "'maybe' is not a boolean");
	KTEST_EXPECT_LOG(t, mark, "parameter 't.str' needs a value");
}

static void unknown_names_listed(struct ktest *t)
{
	unsigned int errors = 0;
	u64 mark = ktest_log_mark();

	parse("t.nope=1 t.int=9", &errors);
	KTEST_EXPECT_EQ(t, errors, 1);
	KTEST_EXPECT_EQ(t, p_int, 9);		/* the rest still parsed */
	KTEST_EXPECT_LOG(t, mark, "unknown parameter 't.nope'");
	KTEST_EXPECT_LOG(t, mark, "valid parameters:");
	KTEST_EXPECT_LOG(t, mark, " t.enum");
}

static void boot_params_registered(struct ktest *t)
{
	unsigned int n = __stop___param - __start___param;

	KTEST_EXPECT_TRUE(t, find_kernel_param(__start___param, n, "run") != NULL);
	KTEST_EXPECT_TRUE(t, find_kernel_param(__start___param, n, "ktest.filter") != NULL);
	KTEST_EXPECT_TRUE(t, find_kernel_param(__start___param, n, "loglevel") != NULL);
}

static struct ktest_case params_cases[] = {
	KTEST_CASE(good_values),
	KTEST_CASE(bad_values_keep_defaults),
	KTEST_CASE(unknown_names_listed),
	KTEST_CASE(boot_params_registered),
	{}
};

static struct ktest_suite params_suite = {
	.name = "params", .cases = params_cases, .init = params_init,
};
ktest_register_suite(params_suite);
