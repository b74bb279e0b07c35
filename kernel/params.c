// SPDX-License-Identifier: GPL-2.0
/*
 * Command-line parsing.  Every parameter is declared next to the variable
 * it sets (core_param() and friends in <linux/moduleparam.h>) and lands in
 * the __param section.  A bad value leaves the variable at its default and
 * prints what was expected; an unknown name prints the names that exist.
 */
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/errno.h>
#include <stdlib.h>
#include <ctype.h>
#include <limits.h>
#include <strings.h>

static int param_parse_ll(const char *val, long long *out, bool allow_suffix)
{
	char *end;

	if (!val || !*val)
		return -EINVAL;
	*out = strtoll(val, &end, 0);
	/* strtoll saturates on overflow; no parameter legitimately sits there. */
	if (*out == LLONG_MAX || *out == LLONG_MIN)
		return -ERANGE;
	if (allow_suffix && *end) {
		int shift = 0;

		switch (*end) {
		case 'k': case 'K': shift = 10; break;
		case 'm': case 'M': shift = 20; break;
		case 'g': case 'G': shift = 30; break;
		default: return -EINVAL;
		}
		end++;
		if (*out > (LLONG_MAX >> shift))
			return -ERANGE;
		*out <<= shift;
	}
	return *end ? -EINVAL : 0;
}

static int param_check_range(const struct kernel_param *kp, long long v,
			     long long lo, long long hi)
{
	const struct kparam_range *r = kp->extra;

	if (r) {
		lo = r->min;
		hi = r->max;
	}
	if (v < lo || v > hi) {
		pr_err("irqlab: parameter '%s': value %lld out of range [%lld, %lld]\n",
		       kp->name, v, lo, hi);
		return -ERANGE;
	}
	return 0;
}

static int param_set_integer(const char *val, const struct kernel_param *kp,
			     long long lo, long long hi, bool suffix, long long *v)
{
	int err = param_parse_ll(val, v, suffix);

	if (err) {
		pr_err("irqlab: parameter '%s': '%s' is not %s\n", kp->name,
		       val ? val : "", kp->ops->type);
		return -EINVAL;
	}
	return param_check_range(kp, *v, lo, hi);
}

static int param_set_int(const char *val, const struct kernel_param *kp)
{
	long long v;
	int err = param_set_integer(val, kp, INT_MIN, INT_MAX, false, &v);

	if (!err)
		*(int *)kp->arg = v;
	return err;
}

static int param_set_uint(const char *val, const struct kernel_param *kp)
{
	long long v;
	int err = param_set_integer(val, kp, 0, UINT_MAX, false, &v);

	if (!err)
		*(unsigned int *)kp->arg = v;
	return err;
}

static int param_set_ulong(const char *val, const struct kernel_param *kp)
{
	long long v;
	int err = param_set_integer(val, kp, 0, LLONG_MAX, true, &v);

	if (!err)
		*(unsigned long *)kp->arg = v;
	return err;
}

int kstrtobool(const char *s, bool *res)
{
	static const char *const yes[] = { "1", "y", "yes", "on", "true", NULL };
	static const char *const no[] = { "0", "n", "no", "off", "false", NULL };

	for (int i = 0; yes[i]; i++) {
		if (!strcasecmp(s, yes[i])) {
			*res = true;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*res = false;
			return 0;
		}
	}
	return -EINVAL;
}

static int param_set_bool(const char *val, const struct kernel_param *kp)
{
	bool b = true;		/* bare "name" means on, as in Linux */

	if (val && kstrtobool(val, &b)) {
		pr_err("irqlab: parameter '%s': '%s' is not a boolean (valid: y, n, 1, 0, on, off, true, false)\n",
		       kp->name, val);
		return -EINVAL;
	}
	*(bool *)kp->arg = b;
	return 0;
}

static int param_set_charp(const char *val, const struct kernel_param *kp)
{
	if (!val) {
		pr_err("irqlab: parameter '%s' needs a value\n", kp->name);
		return -EINVAL;
	}
	*(const char **)kp->arg = val;	/* points into the saved command line */
	return 0;
}

static int param_set_enum(const char *val, const struct kernel_param *kp)
{
	const struct kparam_choices *c = kp->extra;
	char list[256];
	size_t n = 0;

	for (int i = 0; val && c->names[i]; i++) {
		if (!strcmp(val, c->names[i])) {
			*(int *)kp->arg = i;
			return 0;
		}
	}
	list[0] = '\0';
	for (int i = 0; c->names[i] && n < sizeof(list) - 1; i++)
		n += sniprintf(list + n, sizeof(list) - n, "%s%s", i ? ", " : "",
			       c->names[i]);
	pr_err("irqlab: parameter '%s': '%s' is not valid (valid: %s)\n",
	       kp->name, val ? val : "", list);
	return -EINVAL;
}

const struct kernel_param_ops param_ops_int = { .set = param_set_int, .type = "an integer" };
const struct kernel_param_ops param_ops_uint = { .set = param_set_uint, .type = "an unsigned integer" };
const struct kernel_param_ops param_ops_ulong = { .set = param_set_ulong, .type = "a size (optionally with K, M or G)" };
const struct kernel_param_ops param_ops_bool = { .set = param_set_bool, .type = "a boolean", .noarg = true };
const struct kernel_param_ops param_ops_charp = { .set = param_set_charp, .type = "a string" };
const struct kernel_param_ops param_ops_enum = { .set = param_set_enum, .type = "one of a fixed set" };

const struct kernel_param *find_kernel_param(const struct kernel_param *params,
					     unsigned int num, const char *name)
{
	for (unsigned int i = 0; i < num; i++)
		if (!strcmp(params[i].name, name))
			return &params[i];
	return NULL;
}

/* Names sharing the unknown name's prefix (up to its first dot), or all. */
static void param_report_unknown(const char *doing, const char *name,
				 const struct kernel_param *params, unsigned int num)
{
	const char *dot = strchr(name, '.');
	size_t plen = dot ? (size_t)(dot - name + 1) : 0;
	unsigned int shown = 0;

	pr_err("%s: unknown parameter '%s'\n", doing, name);
	for (int pass = plen ? 0 : 1; pass < 2 && !shown; pass++) {
		for (unsigned int i = 0; i < num; i++) {
			if (pass == 0 && strncmp(params[i].name, name, plen))
				continue;
			if (!shown++)
				pr_err("%s: valid parameters:", doing);
			pr_cont(" %s", params[i].name);
		}
	}
	if (shown)
		pr_cont("\n");
}

/*
 * Split the next "name[=value]" off @args (values may be double-quoted),
 * NUL-terminating it in place.  Returns the rest of the string.
 */
static char *next_arg(char *args, char **param, char **val)
{
	bool in_quote = false;
	char *p = args, *eq = NULL;

	for (; *p; p++) {
		if (*p == '"')
			in_quote = !in_quote;
		else if (!in_quote && isspace((unsigned char)*p))
			break;
		else if (*p == '=' && !eq)
			eq = p;
	}
	*param = args;
	*val = NULL;
	if (eq) {
		*eq = '\0';
		*val = eq + 1;
		if (**val == '"') {
			(*val)++;
			if (p > *val && p[-1] == '"')
				p[-1] = '\0';
		}
	}
	if (*p)
		*p++ = '\0';
	while (isspace((unsigned char)*p))
		p++;
	return p;
}

int parse_args(const char *doing, char *args,
	       const struct kernel_param *params, unsigned int num,
	       unsigned int *nr_errors)
{
	unsigned int errors = 0;
	char *param, *val;

	while (isspace((unsigned char)*args))
		args++;
	while (*args) {
		const struct kernel_param *kp;

		args = next_arg(args, &param, &val);
		if (!*param)
			continue;
		kp = find_kernel_param(params, num, param);
		if (!kp) {
			param_report_unknown(doing, param, params, num);
			errors++;
			continue;
		}
		if (!val && !kp->ops->noarg) {
			pr_err("%s: parameter '%s' needs a value (%s)\n", doing,
			       param, kp->ops->type);
			errors++;
			continue;
		}
		if (kp->ops->set(val, kp))
			errors++;
	}
	if (nr_errors)
		*nr_errors = errors;
	return errors ? -EINVAL : 0;
}
