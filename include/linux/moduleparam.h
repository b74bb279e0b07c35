/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_MODULEPARAM_H
#define _LINUX_MODULEPARAM_H

#include <linux/types.h>
#include <linux/compiler.h>

/*
 * Kernel command-line parameters.  Each parameter is a struct kernel_param
 * placed in the __param section; parse_args() walks the command line once
 * and dispatches each name=value to its typed setter.  A setter returns 0
 * or -EINVAL after printing what it expected.
 */
struct kernel_param;

struct kernel_param_ops {
	int (*set)(const char *val, const struct kernel_param *kp);
	int (*get)(char *buf, size_t size, const struct kernel_param *kp);
	const char *type;	/* shown in help and error messages */
	bool noarg;		/* "name" alone is accepted (bools) */
};

struct kparam_range {
	long long min, max;
};

struct kparam_choices {
	const char *const *names;	/* NULL-terminated */
};

struct kernel_param {
	const char *name;
	const struct kernel_param_ops *ops;
	void *arg;
	const void *extra;	/* range or choices */
	const char *help;
};

extern const struct kernel_param_ops param_ops_int;
extern const struct kernel_param_ops param_ops_uint;
extern const struct kernel_param_ops param_ops_ulong;
extern const struct kernel_param_ops param_ops_bool;
extern const struct kernel_param_ops param_ops_charp;
extern const struct kernel_param_ops param_ops_enum;

/* The extra pointer comes last, as __VA_ARGS__: compound literals have commas. */
#define __kernel_param(_name, _ops, _arg, _help, ...)				\
	static const struct kernel_param __UNIQUE_ID(__param)			\
	__used __section("__param") __aligned(8) = {				\
		.name = _name, .ops = &(_ops), .arg = (_arg),			\
		.extra = (__VA_ARGS__), .help = (_help) }

/* core_param("name", var, int|uint|ulong|bool|charp, "help") */
#define core_param(name, var, type, help)					\
	__kernel_param(name, param_ops_##type, &(var), help, NULL)

/*
 * core_param_cb("name", &ops, arg, "help"): a parameter with its own
 * setter, for values with a syntax of their own (Linux's __setup() ones).
 */
#define core_param_cb(_name, _ops, _arg, _help)				\
	static const struct kernel_param __UNIQUE_ID(__param)			\
	__used __section("__param") __aligned(8) = {				\
		.name = _name, .ops = (_ops), .arg = (_arg), .help = (_help) }

/* Integer parameter with an inclusive range, checked when parsed. */
#define core_param_range(name, var, type, lo, hi, help)				\
	__kernel_param(name, param_ops_##type, &(var), help,			\
		       &(const struct kparam_range){ (lo), (hi) })

/*
 * String parameter chosen from a fixed set; @var is an int that receives
 * the index into @choices (a NULL-terminated array of names).
 */
#define core_param_enum(name, var, choices, help)				\
	__kernel_param(name, param_ops_enum, &(var), help,			\
		       &(const struct kparam_choices){ (choices) })

int parse_args(const char *doing, char *args,
	       const struct kernel_param *params, unsigned int num,
	       unsigned int *nr_errors);
int parse_early_args(const char *cmdline);
const struct kernel_param *find_kernel_param(const struct kernel_param *params,
					     unsigned int num, const char *name);
extern const struct kernel_param __start___param[], __stop___param[];

#endif /* _LINUX_MODULEPARAM_H */
