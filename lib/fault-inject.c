// SPDX-License-Identifier: GPL-2.0
/*
 * Fault injection: should_fail() and the boot syntax of its attributes,
 * after Linux 5.15's lib/fault-inject.c.
 *
 * The decision, in Linux's order, for a call that reaches should_fail():
 *  1. probability 0: no (and nothing is counted: the disabled case is a
 *     load and a branch);
 *  2. task_filter set and the caller is not a make_it_fail task: no;
 *  3. no times left: no;
 *  4. more space left than @bytes: consume @bytes, no;
 *  5. interval > 1 and this is not an interval-th call: no;
 *  6. a random percentage at or above the probability: no;
 *  7. otherwise fail, report (verbose) and take one from times.
 *
 * Where Linux reads times in step 3 and decrements it after the report,
 * two CPUs can both take the last one; here step 7 claims a time with a
 * compare-and-exchange first, so exactly @times failures happen however
 * many CPUs race.  Linux's per-task fail_nth is not implemented.
 */
#include <linux/fault-inject.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/errno.h>
#include <asm/stacktrace.h>
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>

static const char fault_attr_syntax[] = "<interval>,<probability>,<space>,<times>";

static const char *fault_attr_name(const struct fault_attr *attr)
{
	return attr->name ? attr->name : "fault_attr";
}

void fault_attr_seed(struct fault_attr *attr, u64 seed)
{
	atomic64_set(&attr->rnd_state, (s64)(seed ? seed : FAULT_ATTR_SEED));
}

/* One step of xorshift64 on the attribute's own state, lock-free. */
static u32 fault_attr_random(struct fault_attr *attr)
{
	s64 old = atomic64_read(&attr->rnd_state);
	u64 x;

	do {
		x = (u64)old;
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	} while (!atomic64_try_cmpxchg(&attr->rnd_state, &old, (s64)x));
	return x >> 32;
}

/*
 * Take one failure from times: false if none is left.  -1 (and, as in
 * Linux, any other negative value) never runs out.
 */
static bool fault_attr_take_time(struct fault_attr *attr)
{
	int left = atomic_read(&attr->times);

	do {
		if (left == 0)
			return false;
		if (left == -1)
			return true;
	} while (!atomic_try_cmpxchg(&attr->times, &left, left - 1));
	return true;
}

static bool fail_task(struct fault_attr *attr, struct task_struct *p)
{
	return in_task() && p->make_it_fail;
}

/*
 * The report tools grep for.  One line, so concurrent reports from
 * several CPUs do not interleave mid-record.
 */
static void fail_dump(struct fault_attr *attr)
{
	if (!attr->verbose)
		return;
	pr_notice("FAULT_INJECTION: forcing a failure. %s: interval=%lu probability=%lu%% space=%d times=%d (failure %ld of %ld calls)\n",
		  fault_attr_name(attr), attr->interval, attr->probability,
		  atomic_read(&attr->space), atomic_read(&attr->times),
		  atomic_long_read(&attr->failures), atomic_long_read(&attr->calls));
	if (attr->verbose > 1)
		dump_stack();
}

bool should_fail(struct fault_attr *attr, ssize_t bytes)
{
	unsigned long probability = READ_ONCE(attr->probability);
	unsigned long interval;

	if (probability == 0)
		return false;
	atomic_long_inc(&attr->calls);

	if (READ_ONCE(attr->task_filter) && !fail_task(attr, current))
		return false;

	if (atomic_read(&attr->times) == 0)
		return false;

	if (atomic_read(&attr->space) > bytes) {
		atomic_sub(bytes, &attr->space);
		return false;
	}

	interval = READ_ONCE(attr->interval);
	if (interval > 1 &&
	    (unsigned long)atomic_long_inc_return(&attr->count) % interval)
		return false;

	if (probability <= fault_attr_random(attr) % 100)
		return false;

	if (!fault_attr_take_time(attr))
		return false;

	atomic_long_inc(&attr->failures);
	fail_dump(attr);
	return true;
}

void fault_attr_report(struct fault_attr *attr)
{
	pr_info("%s: %ld calls, %ld failures injected\n", fault_attr_name(attr),
		atomic_long_read(&attr->calls), atomic_long_read(&attr->failures));
}

/* ---------------------------------------------------------- boot syntax */

struct fault_attr_field {
	const char *what;
	long long min, max;
	const char *valid;	/* how the range reads in a message */
};

static const struct fault_attr_field fault_attr_fields[4] = {
	{ "interval", 0, LONG_MAX, "0 or more (0 and 1: every call)" },
	{ "probability", 0, 100, "a percentage, 0..100" },
	{ "space", 0, INT_MAX, "a byte count, 0 or more" },
	{ "times", -1, INT_MAX, "a count, or -1 for no limit" },
};

/*
 * Split @str into exactly four decimal integers in their ranges.  On
 * failure, say which field is wrong and why, and return -EINVAL.
 */
static int parse_fault_attr(const char *who, const char *str, long long val[4])
{
	const char *p = str;

	for (int n = 0; n < 4; n++) {
		const struct fault_attr_field *f = &fault_attr_fields[n];
		size_t len = strcspn(p, ",");
		char *end;

		if (!len) {
			pr_err("FAULT_INJECTION: %s: failed to parse arguments '%s': %s missing; expected %s\n",
			       who, str, f->what, fault_attr_syntax);
			return -EINVAL;
		}
		val[n] = strtoll(p, &end, 10);
		if (isspace((unsigned char)*p) || end != p + len) {
			pr_err("FAULT_INJECTION: %s: failed to parse arguments '%s': %s '%.*s' is not a number; expected %s\n",
			       who, str, f->what, (int)len, p, fault_attr_syntax);
			return -EINVAL;
		}
		if (val[n] < f->min || val[n] > f->max) {
			pr_err("FAULT_INJECTION: %s: failed to parse arguments '%s': %s %lld is out of range (valid: %s)\n",
			       who, str, f->what, val[n], f->valid);
			return -EINVAL;
		}
		p = end;
		if (n < 3 && *p++ != ',') {
			pr_err("FAULT_INJECTION: %s: failed to parse arguments '%s': %d of 4 values; expected %s\n",
			       who, str, n + 1, fault_attr_syntax);
			return -EINVAL;
		}
	}
	if (*p) {
		pr_err("FAULT_INJECTION: %s: failed to parse arguments '%s': more than 4 values; expected %s\n",
		       who, str, fault_attr_syntax);
		return -EINVAL;
	}
	return 0;
}

int setup_fault_attr(struct fault_attr *attr, const char *str)
{
	long long val[4];

	if (!str || parse_fault_attr(fault_attr_name(attr), str, val))
		return 0;
	WRITE_ONCE(attr->interval, val[0]);
	WRITE_ONCE(attr->probability, val[1]);
	atomic_set(&attr->space, val[2]);
	atomic_set(&attr->times, val[3]);
	return 1;
}

static int param_set_fault_attr(const char *val, const struct kernel_param *kp)
{
	if (setup_fault_attr(kp->arg, val))
		return 0;
	pr_err("irqlab: parameter '%s' rejected: %s left as it was\n", kp->name,
	       fault_attr_name(kp->arg));
	return -EINVAL;
}

const struct kernel_param_ops param_ops_fault_attr = {
	.set = param_set_fault_attr,
	.type = "<interval>,<probability>,<space>,<times>",
};

/* ------------------------------------------------------------- summary */

static void fault_attr_report_used(struct fault_attr *attr)
{
	if (READ_ONCE(attr->probability) || atomic_long_read(&attr->failures))
		fault_attr_report(attr);
}

void fault_inject_report(void)
{
#ifdef CONFIG_FAIL_PAGE_ALLOC
	fault_attr_report_used(&fail_page_alloc.attr);
#endif
#ifdef CONFIG_FAILSLAB
	fault_attr_report_used(&failslab.attr);
#endif
}
