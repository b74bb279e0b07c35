// SPDX-License-Identifier: GPL-2.0
/*
 * The ktest runner: walks the registered suites, applies ktest.filter and
 * prints KTAP version 1.  Diagnostics for a case come before its result
 * line, indented like the case, as KUnit prints them.
 */
#include <linux/kernel.h>
#include <linux/ktest.h>
#include <linux/sched/task.h>
#include <linux/delay.h>
#include <linux/moduleparam.h>
#include <stdio.h>

extern struct ktest_suite *__start_ktest_suites[], *__stop_ktest_suites[];

static const char *ktest_filter = "*";
core_param("ktest.filter", ktest_filter, charp,
	   "comma-separated globs: 'suite' or 'suite.case' (default: all)");

static const char *indent(int depth)
{
	static const char spaces[] = "                                ";
	int n = depth * 4;

	return spaces + sizeof(spaces) - 1 - (n < (int)sizeof(spaces) - 1 ? n : 0);
}

static bool filter_matches(const char *suite, const char *kcase)
{
	char list[256], *save, *pat, full[160];

	snprintf(full, sizeof(full), "%s.%s", suite, kcase ? kcase : "");
	strncpy(list, ktest_filter, sizeof(list) - 1);
	list[sizeof(list) - 1] = '\0';
	for (pat = strtok_r(list, ",", &save); pat; pat = strtok_r(NULL, ",", &save)) {
		if (!strchr(pat, '.')) {
			if (glob_match(pat, suite))
				return true;
		} else if (!kcase) {
			/* A suite is selected if the suite part could match. */
			char sp[128];
			size_t n = strcspn(pat, ".");

			snprintf(sp, sizeof(sp), "%.*s", (int)n, pat);
			if (glob_match(sp, suite))
				return true;
		} else if (glob_match(pat, full)) {
			return true;
		}
	}
	return false;
}

static void ktest_vprint(struct ktest *t, const char *fmt, va_list ap)
{
	char buf[512], *line, *save;

	vsniprintf(buf, sizeof(buf), fmt, ap);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		printk(KERN_INFO "%s# %s: %s\n", indent(t->depth), t->name, line);
}

void ktest_fail(struct ktest *t, const char *file, int line, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	t->failed = true;
	va_start(ap, fmt);
	vsniprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ktest_info(t, "%s:%d: %s", file, line, msg);
}

void ktest_info(struct ktest *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ktest_vprint(t, fmt, ap);
	va_end(ap);
}

__noreturn void ktest_abort(struct ktest *t)
{
	__fault_longjmp(&t->abort_jmp, 1);
}

__noreturn void ktest_skip(struct ktest *t, const char *fmt, ...)
{
	va_list ap;

	t->skipped = true;
	va_start(ap, fmt);
	vsniprintf(t->skip_reason, sizeof(t->skip_reason), fmt, ap);
	va_end(ap);
	ktest_abort(t);
}

static void ktest_print_result(int depth, bool ok, unsigned int idx,
			       const char *name, const char *directive)
{
	printk(KERN_INFO "%s%s %u %s%s%s\n", indent(depth), ok ? "ok" : "not ok",
	       idx, name, directive ? " # SKIP " : "", directive ? directive : "");
}

/* Run one case body; returns with t->failed/skipped set. */
/*
 * Threads of the previous case may still be exiting; their memory comes
 * back to the page allocator when they are freed.  Start each case after
 * that (bounded: a leaked reference must not hang the run), so suites
 * that compare free-page counts see only their own work.
 */
static void ktest_wait_dying_tasks(void)
{
	for (int i = 0; i < 1000 && atomic_read(&nr_dying_tasks); i++)
		msleep(1);
}

static void ktest_run_body(struct ktest *t, void (*fn)(struct ktest *, void *),
			   void (*plain)(struct ktest *), void *arg)
{
	ktest_wait_dying_tasks();
	/* Anything a fault-catching test left armed is gone after an abort. */
	if (__fault_setjmp(&t->abort_jmp) == 0) {
		if (fn)
			fn(t, arg);
		else
			plain(t);
	}
	fault_catch_reset();
	ktest_reap_case_threads();
}

void ktest_subtests_begin(struct ktest *t, unsigned int n)
{
	t->sub_planned = n;
	t->sub_done = 0;
	printk(KERN_INFO "%sKTAP version 1\n", indent(t->depth + 1));
	printk(KERN_INFO "%s# Subtest: %s\n", indent(t->depth + 1), t->name);
	printk(KERN_INFO "%s1..%u\n", indent(t->depth + 1), n);
}

void ktest_subtest(struct ktest *t, const char *name,
		   void (*fn)(struct ktest *t, void *arg), void *arg)
{
	struct ktest sub = { .name = name, .depth = t->depth + 1, .priv = t->priv };

	ktest_run_body(&sub, fn, NULL, arg);
	if (sub.failed)
		t->failed = true;
	ktest_print_result(sub.depth, !sub.failed, ++t->sub_done, name,
			   sub.skipped ? sub.skip_reason : NULL);
}

static bool ktest_run_suite(struct ktest_suite *s, unsigned int idx)
{
	unsigned int n = 0, i = 0;
	bool suite_ok = true;

	for (struct ktest_case *c = s->cases; c->run; c++)
		n += filter_matches(s->name, c->name);
	printk(KERN_INFO "    KTAP version 1\n");
	printk(KERN_INFO "    # Subtest: %s\n", s->name);
	printk(KERN_INFO "    1..%u\n", n);
	for (struct ktest_case *c = s->cases; c->run; c++) {
		struct ktest t = { .name = c->name, .depth = 1 };

		if (!filter_matches(s->name, c->name))
			continue;
		if (s->init && s->init(&t)) {
			ktest_info(&t, "suite init failed");
			t.failed = true;
		} else {
			ktest_run_body(&t, NULL, c->run, NULL);
			if (s->exit)
				s->exit(&t);
		}
		if (t.sub_planned && t.sub_done != t.sub_planned) {
			ktest_info(&t, "ran %u of %u planned subtests", t.sub_done,
				   t.sub_planned);
			t.failed = true;
		}
		suite_ok &= !t.failed;
		ktest_print_result(1, !t.failed, ++i, c->name,
				   t.skipped ? t.skip_reason : NULL);
	}
	ktest_print_result(0, suite_ok, idx, s->name, NULL);
	return suite_ok;
}

int ktest_run_all(void)
{
	unsigned int nsuites = 0, idx = 0, failed = 0;

	ktest_threads_init();
	for (struct ktest_suite **s = __start_ktest_suites; s < __stop_ktest_suites; s++)
		nsuites += filter_matches((*s)->name, NULL);
	/* One more than the suites: init's verdict on the whole run closes the plan. */
	ktap_verdict_number = nsuites + 1;
	printk(KERN_INFO "KTAP version 1\n");
	printk(KERN_INFO "1..%u\n", ktap_verdict_number);
	for (struct ktest_suite **s = __start_ktest_suites; s < __stop_ktest_suites; s++) {
		if (!filter_matches((*s)->name, NULL))
			continue;
		failed += !ktest_run_suite(*s, ++idx);
	}
	if (!nsuites)
		pr_warn("ktest: no suite matches ktest.filter=%s\n", ktest_filter);
	return failed ? -1 : 0;
}

u64 ktest_log_mark(void)
{
	return printk_next_seq();
}

void ktest_expect_reports(const char *kind, unsigned long n)
{
	if (n)
		printk(KERN_INFO "ktest: expected %lu %s report(s)\n", n, kind);
}

bool ktest_log_contains(u64 mark, const char *needle)
{
	char buf[256];

	for (u64 seq = mark; seq < printk_next_seq(); seq++)
		if (printk_read_record(seq, buf, sizeof(buf), NULL, NULL) >= 0 &&
		    strstr(buf, needle))
			return true;
	return false;
}
