// SPDX-License-Identifier: GPL-2.0
/*
 * lock_stat's report: the classes' per-CPU statistics folded, printed at
 * the end of a run in the column layout of Linux's /proc/lock_stat
 * (version 0.4) and as @irqlab records (lock_stat_run, lock_stat,
 * lock_stat_time, lock_stat_site, lock_stat_wait; scripts/records.py).
 * `tools/irqlab lockstat LOG` reads either back.
 */
#include <linux/kernel.h>
#include <linux/lockdep.h>
#include <linux/percpu.h>
#include <linux/cpumask.h>
#include <linux/printk.h>
#include <linux/record.h>
#include <linux/kallsyms.h>
#include <linux/string.h>
#include <asm/tsc.h>
#include "lockstat.h"

/* What the table prints of a class name, as Linux's 38 columns. */
#define LS_NAME_LEN	38
#define LS_WIDTH	(40 + 1 + 12 * (14 + 1))

/* Fold one CPU's times into the sum. */
static void lock_time_add(const struct lock_time *from, struct lock_time *sum)
{
	if (from->nr == 0)
		return;
	if (sum->nr == 0 || from->min < sum->min)
		sum->min = from->min;
	sum->max = max(sum->max, from->max);
	sum->total += from->total;
	sum->nr += from->nr;
}

static void lock_stats_fold(unsigned int idx, struct lock_class_stats *out)
{
	int cpu, i;

	memset(out, 0, sizeof(*out));
	for_each_possible_cpu(cpu) {
		const struct lock_class_stats *pcs = &per_cpu(cpu_lock_stats, cpu)[idx];

		for (i = 0; i < LOCKSTAT_POINTS; i++) {
			out->contention_point[i] += pcs->contention_point[i];
			out->contending_point[i] += pcs->contending_point[i];
		}
		lock_time_add(&pcs->read_waittime, &out->read_waittime);
		lock_time_add(&pcs->write_waittime, &out->write_waittime);
		lock_time_add(&pcs->read_holdtime, &out->read_holdtime);
		lock_time_add(&pcs->write_holdtime, &out->write_holdtime);
		for (i = 0; i < nr_bounce_types; i++)
			out->bounces[i] += pcs->bounces[i];
		out->fastpath += pcs->fastpath;
		out->spin_acquired += pcs->spin_acquired;
		out->slept_waits += pcs->slept_waits;
		out->sleeps += pcs->sleeps;
	}
}

bool lock_stat_read(struct lockdep_map *lock, struct lock_class_stats *out)
{
	struct lockstat_class *class = READ_ONCE(lock->stat_class);

	if (!class)
		return false;
	lock_stats_fold(class - lockstat_classes, out);
	return true;
}

void lock_stat_clear(struct lockdep_map *lock)
{
	struct lockstat_class *class = READ_ONCE(lock->stat_class);
	int cpu;

	if (!class)
		return;
	for_each_possible_cpu(cpu)
		memset(&per_cpu(cpu_lock_stats, cpu)[class - lockstat_classes], 0,
		       sizeof(struct lock_class_stats));
	/* The sites are learnt again from the next contentions. */
	for (int i = 0; i < LOCKSTAT_POINTS; i++) {
		class->contention_point[i] = 0;
		class->contending_point[i] = 0;
	}
}

/* ---------------------------------------------------------------- table */

/* Ticks to nanoseconds at the TSC's rate (the table's unit is Linux's). */
static u64 ticks_to_ns(u64 t)
{
	if (!tsc_khz)
		return t;
	return t / tsc_khz * 1000000ULL + (t % tsc_khz) * 1000000ULL / tsc_khz;
}

unsigned int lock_stat_wait_totals(u64 *waited, unsigned long *contentions)
{
	unsigned int nr = READ_ONCE(lockstat_nr_classes);
	int cpu;

	BUILD_BUG_ON(LOCKSTAT_CLASSES != LOCK_STAT_MAX_CLASSES);
	smp_rmb();
	for (unsigned int i = 0; i < nr; i++) {
		waited[i] = 0;
		contentions[i] = 0;
		for_each_possible_cpu(cpu) {
			const struct lock_class_stats *pcs = &per_cpu(cpu_lock_stats, cpu)[i];

			waited[i] += pcs->read_waittime.total + pcs->write_waittime.total;
			contentions[i] += pcs->read_waittime.nr + pcs->write_waittime.nr;
		}
		waited[i] = ticks_to_ns(waited[i]);
	}
	return nr;
}

int lock_stat_class_index(struct lockdep_map *lock)
{
	struct lockstat_class *class = READ_ONCE(lock->stat_class);

	return class ? class - lockstat_classes : -1;
}

const char *lock_stat_class_name(unsigned int idx)
{
	return idx < READ_ONCE(lockstat_nr_classes) ? lockstat_classes[idx].name : "?";
}

/* Microseconds with two decimals, rounded as Linux's snprint_time(). */
static void fmt_time(char *buf, size_t len, u64 ticks)
{
	u64 ns = ticks_to_ns(ticks) + 5;

	snprintf(buf, len, "%llu.%02llu", (unsigned long long)(ns / 1000),
		 (unsigned long long)(ns % 1000 / 10));
}

static int fmt_lock_time(char *buf, size_t len, const struct lock_time *lt)
{
	char mn[24], mx[24], tot[24], avg[24];

	fmt_time(mn, sizeof(mn), lt->min);
	fmt_time(mx, sizeof(mx), lt->max);
	fmt_time(tot, sizeof(tot), lt->total);
	fmt_time(avg, sizeof(avg), lt->nr ? lt->total / lt->nr : 0);
	return snprintf(buf, len, "%14lu %14s %14s %14s %14s", lt->nr, mn, mx, tot, avg);
}

/*
 * One line wider than a printk record: printed in pieces that the
 * console joins (KERN_CONT), as the run summary does.
 */
static void print_wide(const char *line)
{
	size_t n = strlen(line);

	pr_info("%.*s", (int)min_t(size_t, n, 160), line);
	if (n > 160)
		pr_cont("%s", line + 160);
	pr_cont("\n");
}

static void print_rule(char c, int offset, int length)
{
	static char line[LS_WIDTH + 2];

	memset(line, ' ', offset);
	memset(line + offset, c, length);
	line[offset + length] = '\0';
	print_wide(line);
}

static void print_header(void)
{
	static char line[LS_WIDTH + 2];

	pr_info("lock_stat version 0.4\n");
	print_rule('-', 0, LS_WIDTH);
	snprintf(line, sizeof(line),
		 "%40s %14s %14s %14s %14s %14s %14s %14s %14s %14s %14s %14s %14s",
		 "class name", "con-bounces", "contentions", "waittime-min",
		 "waittime-max", "waittime-total", "waittime-avg", "acq-bounces",
		 "acquisitions", "holdtime-min", "holdtime-max", "holdtime-total",
		 "holdtime-avg");
	print_wide(line);
	print_rule('-', 0, LS_WIDTH);
	pr_info("\n");
}

static void print_rw_line(const char *name, const char *suffix, unsigned long cb,
			  const struct lock_time *wait, unsigned long ab,
			  const struct lock_time *hold)
{
	static char line[LS_WIDTH + 64];
	char tag[48];
	int n;

	if (*suffix) {
		snprintf(tag, sizeof(tag), "%s%s", name, suffix);
		n = snprintf(line, sizeof(line), "%40s", tag);
	} else {
		n = snprintf(line, sizeof(line), "%39s:", name);
	}
	n += snprintf(line + n, sizeof(line) - n, "%14lu ", cb);
	n += fmt_lock_time(line + n, sizeof(line) - n, wait);
	n += snprintf(line + n, sizeof(line) - n, " %14lu ", ab);
	fmt_lock_time(line + n, sizeof(line) - n, hold);
	print_wide(line);
}

/* A class name as a JSON string body: quotes and backslashes escaped. */
static void json_name(char *out, size_t len, const char *name)
{
	size_t o = 0;

	for (; *name && o + 3 < len; name++) {
		if (*name == '"' || *name == '\\')
			out[o++] = '\\';
		out[o++] = (*name >= 0x20 && *name < 0x7f) ? *name : '?';
	}
	out[o] = '\0';
}

static void emit_rw_records(const char *jname, char rw, unsigned long cb,
			    const struct lock_time *wait, unsigned long ab,
			    const struct lock_time *hold)
{
	record_emitf("{\"type\":\"lock_stat\",\"class\":\"%s\",\"rw\":\"%c\",\"con\":%lu,"
		     "\"acq\":%lu,\"cb\":%lu,\"ab\":%lu}",
		     jname, rw, wait->nr, hold->nr, cb, ab);
	record_emitf("{\"type\":\"lock_stat_time\",\"class\":\"%s\",\"rw\":\"%c\",\"what\":\"wait\","
		     "\"min\":%llu,\"max\":%llu,\"total\":%llu}", jname, rw,
		     (unsigned long long)wait->min, (unsigned long long)wait->max,
		     (unsigned long long)wait->total);
	record_emitf("{\"type\":\"lock_stat_time\",\"class\":\"%s\",\"rw\":\"%c\",\"what\":\"hold\","
		     "\"min\":%llu,\"max\":%llu,\"total\":%llu}", jname, rw,
		     (unsigned long long)hold->min, (unsigned long long)hold->max,
		     (unsigned long long)hold->total);
}

static void print_points(const char *name, const char *jname, const char *kind,
			 const unsigned long *ips, const unsigned long *counts,
			 int namelen)
{
	char sym[KSYM_SYMBOL_LEN], ip[32];
	static char line[LS_WIDTH + 64];
	int i;

	for (i = 0; i < LOCKSTAT_POINTS && ips[i]; i++) {
		if (!i)
			print_rule('-', 40 - namelen, namelen);
		sprint_symbol(sym, ips[i]);
		snprintf(ip, sizeof(ip), "[<%016lx>]", ips[i]);
		snprintf(line, sizeof(line), "%40s %14lu %29s %s", name, counts[i], ip, sym);
		print_wide(line);
		record_emitf("{\"type\":\"lock_stat_site\",\"class\":\"%s\",\"kind\":\"%s\","
			     "\"n\":%lu,\"ip\":\"%lx\",\"sym\":\"%.60s\"}",
			     jname, kind, counts[i], ips[i], sym);
	}
}

static void print_class(const struct lockstat_class *class,
			const struct lock_class_stats *st)
{
	char name[LS_NAME_LEN + 1], jname[2 * LS_NAME_LEN + 1];
	unsigned long con = lock_stat_contentions(st);
	int namelen;

	snprintf(name, sizeof(name), "%s", class->name);
	json_name(jname, sizeof(jname), name);
	namelen = strlen(name);
	if (st->write_holdtime.nr) {
		print_rw_line(name, st->read_holdtime.nr ? "-W:" : "",
			      st->bounces[bounce_contended_write], &st->write_waittime,
			      st->bounces[bounce_acquired_write], &st->write_holdtime);
		emit_rw_records(jname, 'w', st->bounces[bounce_contended_write],
				&st->write_waittime, st->bounces[bounce_acquired_write],
				&st->write_holdtime);
	}
	if (st->read_holdtime.nr) {
		print_rw_line(name, "-R:", st->bounces[bounce_contended_read],
			      &st->read_waittime, st->bounces[bounce_acquired_read],
			      &st->read_holdtime);
		emit_rw_records(jname, 'r', st->bounces[bounce_contended_read],
				&st->read_waittime, st->bounces[bounce_acquired_read],
				&st->read_holdtime);
	}
	/* How the waits ended: what PREEMPT_RT's sleeping locks add. */
	if (con && (IS_ENABLED(CONFIG_PREEMPT_RT) || st->slept_waits)) {
		pr_info("%40s fastpath %lu, spin-acquired %lu, slept %lu (%lu sleeps)\n",
			name, st->fastpath, st->spin_acquired, st->slept_waits, st->sleeps);
		record_emitf("{\"type\":\"lock_stat_wait\",\"class\":\"%s\",\"fastpath\":%lu,"
			     "\"spin_acquired\":%lu,\"slept\":%lu,\"sleeps\":%lu}",
			     jname, st->fastpath, st->spin_acquired, st->slept_waits,
			     st->sleeps);
	}
	if (!con)
		return;
	if (st->read_holdtime.nr)
		namelen += 2;
	print_points(name, jname, "contention", class->contention_point,
		     st->contention_point, namelen);
	print_points(name, jname, "contending", class->contending_point,
		     st->contending_point, namelen);
	pr_info("\n");
	print_rule('.', 0, LS_WIDTH);
	pr_info("\n");
}

/* Folded statistics and print order, for the report only (thread context). */
static struct lock_class_stats report_stats[LOCKSTAT_CLASSES];
static u16 report_order[LOCKSTAT_CLASSES];

static bool report_before(unsigned int a, unsigned int b)
{
	unsigned long ca = lock_stat_contentions(&report_stats[a]);
	unsigned long cb = lock_stat_contentions(&report_stats[b]);

	if (ca != cb)
		return ca > cb;
	return lock_stat_acquisitions(&report_stats[a]) >
	       lock_stat_acquisitions(&report_stats[b]);
}

/*
 * Linux sorts by contentions; irqlab then by acquisitions, so the busy
 * uncontended classes come before the idle ones.  Classes never
 * acquired are left out, as Linux's table leaves them.
 */
void lock_stat_report(void)
{
	unsigned int nr = READ_ONCE(lockstat_nr_classes), used = 0, i, j;

	if (!lock_stat)
		return;
	smp_rmb();
	for (i = 0; i < nr; i++) {
		lock_stats_fold(i, &report_stats[i]);
		if (!lock_stat_acquisitions(&report_stats[i]))
			continue;
		for (j = used++; j && report_before(i, report_order[j - 1]); j--)
			report_order[j] = report_order[j - 1];
		report_order[j] = i;
	}
	print_header();
	for (i = 0; i < used; i++)
		print_class(&lockstat_classes[report_order[i]], &report_stats[report_order[i]]);
	pr_info("lock_stat: %u classes, %u acquired; times in us at %lu kHz (records: tsc ticks); "
		"%lu class(es) over the table, %lu lock(s) over the held stack\n",
		nr, used, tsc_khz, lockstat_class_overflow, lockstat_depth_overflow);
	record_emitf("{\"type\":\"lock_stat_run\",\"clock\":\"tsc\",\"tsc_khz\":%lu,"
		     "\"classes\":%u,\"printed\":%u,\"class_overflow\":%lu,\"depth_overflow\":%lu}",
		     tsc_khz, nr, used, lockstat_class_overflow, lockstat_depth_overflow);
}
