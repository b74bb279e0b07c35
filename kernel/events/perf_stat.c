// SPDX-License-Identifier: GPL-2.0
/*
 * perf stat's software events, system-wide, for every workload run.
 *
 * Linux's perf stat counts context-switches, cpu-migrations and
 * task-clock with software events the scheduler feeds.  irqlab has no
 * perf events, so the scheduler feeds per-CPU counters instead:
 * __schedule() on every switch between two different tasks (voluntary
 * when the previous task was going to sleep, as nvcsw counts it) and the
 * running time of the task it switches away from unless that is the idle
 * task, and set_task_cpu() on every move to another CPU.  The counts are
 * of every task, as `perf stat -a` reports them; during a run the
 * workload's threads are nearly all that runs.
 */
#define pr_fmt(fmt) fmt

#include <linux/kernel.h>
#include <linux/cpumask.h>
#include <linux/irqflags.h>
#include <linux/ktime.h>
#include <linux/lock_stat.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/perf_stat.h>
#include <linux/record.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/smp.h>
#include <asm/perf_event.h>

struct perf_stat_cpu {
	u64 nvcsw, nivcsw, idle_out, migrations;
	u64 busy_ns;		/* non-idle tasks' time up to last_ns */
	u64 last_ns;		/* local_clock() at the last switch or read */
};

static DEFINE_PER_CPU(struct perf_stat_cpu, perf_stat_cpu);

int perf_repeat = 1;
core_param_range("perf.repeat", perf_repeat, int, 1, 100,
		 "run each workload of run= this often; perf stat prints means and +-");

/* The time since the last switch or read goes to the task running now. */
static void perf_stat_charge(struct perf_stat_cpu *ps, bool idle)
{
	u64 now = local_clock();

	if (!idle && ps->last_ns)
		ps->busy_ns += now - ps->last_ns;
	ps->last_ns = now;
}

void perf_stat_sched_switch(bool prev_idle, bool voluntary)
{
	struct perf_stat_cpu *ps = this_cpu_ptr(&perf_stat_cpu);

	perf_stat_charge(ps, prev_idle);
	/* The idle task neither sleeps nor is preempted: a third kind. */
	if (prev_idle)
		ps->idle_out++;
	else if (voluntary)
		ps->nvcsw++;
	else
		ps->nivcsw++;
}

void perf_stat_migration(void)
{
	this_cpu_ptr(&perf_stat_cpu)->migrations++;
}

/* on_each_cpu(): bring this CPU's task-clock up to now. */
static void perf_stat_catch_up(void *unused)
{
	unsigned long flags;

	local_irq_save(flags);
	perf_stat_charge(this_cpu_ptr(&perf_stat_cpu), is_idle_task(current));
	local_irq_restore(flags);
}

void perf_stat_read(struct perf_stat_counts *c)
{
	unsigned long flags;
	int cpu;

	memset(c, 0, sizeof(*c));
	preempt_disable();
	smp_call_function(perf_stat_catch_up, NULL, 1);
	/*
	 * This CPU's task-clock and the elapsed time at one instant, with no
	 * interrupt between them: a tick landing between the two reads of one
	 * call and not of the other would otherwise put its length into one
	 * delta only (under icount, where one task's task-clock must equal
	 * the elapsed time exactly).
	 */
	local_irq_save(flags);
	perf_stat_charge(this_cpu_ptr(&perf_stat_cpu), is_idle_task(current));
	c->elapsed_ns = ktime_get_ns();
	local_irq_restore(flags);
	preempt_enable();
	for_each_possible_cpu(cpu) {
		struct perf_stat_cpu *ps = per_cpu_ptr(&perf_stat_cpu, cpu);

		c->nvcsw += READ_ONCE(ps->nvcsw);
		c->nivcsw += READ_ONCE(ps->nivcsw);
		c->switches += READ_ONCE(ps->nvcsw) + READ_ONCE(ps->nivcsw) +
			       READ_ONCE(ps->idle_out);
		c->migrations += READ_ONCE(ps->migrations);
		c->task_clock_ns += READ_ONCE(ps->busy_ns);
	}
}

u64 perf_stat_cpu_migrations(int cpu)
{
	return READ_ONCE(per_cpu_ptr(&perf_stat_cpu, cpu)->migrations);
}

void perf_stat_take_pmu(struct perf_stat_counts *d)
{
	struct pmu_counts pc;

	d->pmu = pmu_last_total(&pc);
	d->instructions = d->pmu ? pc.instructions : 0;
	d->cycles = d->pmu ? pc.cycles : 0;
}

void perf_stat_delta(const struct perf_stat_counts *b, const struct perf_stat_counts *e,
		     struct perf_stat_counts *d)
{
	d->nvcsw = e->nvcsw - b->nvcsw;
	d->nivcsw = e->nivcsw - b->nivcsw;
	d->switches = e->switches - b->switches;
	d->migrations = e->migrations - b->migrations;
	d->task_clock_ns = e->task_clock_ns - b->task_clock_ns;
	d->elapsed_ns = e->elapsed_ns - b->elapsed_ns;
	d->pmu = false;		/* perf_stat_take_pmu() fills them in */
	d->instructions = 0;
	d->cycles = 0;
}

void perf_stat_runs_add(struct perf_stat_runs *r, const struct perf_stat_counts *d)
{
	const u64 v[PERF_STAT_NR] = { d->task_clock_ns, d->nvcsw, d->nivcsw, d->migrations,
				      d->elapsed_ns, d->instructions, d->cycles,
				      d->switches };

	r->pmu = r->n ? r->pmu && d->pmu : d->pmu;
	r->n++;
	for (unsigned int i = 0; i < PERF_STAT_NR; i++) {
		r->sum[i] += v[i];
		r->sumsq[i] += (unsigned __int128)v[i] * v[i];
	}
}

static u64 isqrt128(unsigned __int128 x)
{
	u64 lo = 0, hi = ~0ULL;

	/* The largest r with r * r <= x, by bisection. */
	while (lo < hi) {
		u64 mid = lo + (hi - lo) / 2 + ((hi - lo) & 1);	/* rounded up */

		if ((unsigned __int128)mid * mid <= x)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

static u64 perf_stat_mean(const struct perf_stat_runs *r, unsigned int i)
{
	return r->n ? (r->sum[i] + r->n / 2) / r->n : 0;
}

/* The standard error of the mean: sd (n - 1) / sqrt(n), as perf stat's +-. */
static u64 perf_stat_sem(const struct perf_stat_runs *r, unsigned int i)
{
	unsigned __int128 n = r->n, s = r->sum[i], num;

	if (r->n < 2)
		return 0;
	num = n * r->sumsq[i] - s * s;
	return isqrt128(num / (n * n * (n - 1)));
}

u64 perf_stat_rel_err_x100(const struct perf_stat_runs *r, unsigned int i)
{
	u64 mean = perf_stat_mean(r, i);

	return mean ? (perf_stat_sem(r, i) * 10000 + mean / 2) / mean : 0;
}

/* @v with a comma every three digits; @buf holds 32 bytes. */
static const char *perf_stat_commas(char *buf, u64 v)
{
	char digits[24];
	int n = snprintf(digits, sizeof(digits), "%llu", (unsigned long long)v), o = 0;

	for (int i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
	return buf;
}

/* "( +-  0.97% )" for repeats, "" for one run; @buf holds 32 bytes. */
static const char *perf_stat_err(char *buf, const struct perf_stat_runs *r, unsigned int i)
{
	u64 x = perf_stat_rel_err_x100(r, i);

	if (r->n < 2)
		return "";
	snprintf(buf, 32, "( +- %2llu.%02llu%% )", (unsigned long long)(x / 100),
		 (unsigned long long)(x % 100));
	return buf;
}

/* @count per second of task-clock, as "58.748 K/sec"; @buf holds 32 bytes. */
static const char *perf_stat_rate(char *buf, u64 count, u64 task_ns)
{
	u64 per_ksec_x1000;

	if (!task_ns)
		return "";
	/* count / (task_ns / 1e9) / 1000, three decimals: count * 1e9 / task_ns. */
	per_ksec_x1000 = (u64)((unsigned __int128)count * 1000000000ULL / task_ns);
	snprintf(buf, 32, "# %8llu.%03llu K/sec", (unsigned long long)(per_ksec_x1000 / 1000),
		 (unsigned long long)(per_ksec_x1000 % 1000));
	return buf;
}

static void perf_stat_count_line(const char *name, const struct perf_stat_runs *r,
				 unsigned int i, u64 task_ns)
{
	char num[32], rate[32], err[32];

	pr_info("%18s      %-25s %-33s %s\n", perf_stat_commas(num, perf_stat_mean(r, i)), name,
		perf_stat_rate(rate, perf_stat_mean(r, i), task_ns), perf_stat_err(err, r, i));
}

static void perf_stat_emit(const char *json, int n)
{
	if (n > RECORD_MAX_JSON || record_emit(json) < 0)
		pr_warn("perf_stat: a record does not fit: %.60s...\n", json);
}

#ifdef CONFIG_LOCK_STAT
/*
 * Time blocked per lock class: lock_stat's wait-time totals read around
 * each run, their growth summed over the repeats.  One runner at a time
 * (run= runs workloads from one thread), so plain statics.
 */
#define PERF_STAT_TOP_LOCKS	5
static u64 ls_ns0[LOCK_STAT_MAX_CLASSES], ls_ns1[LOCK_STAT_MAX_CLASSES];
static u64 ls_ns_sum[LOCK_STAT_MAX_CLASSES];
static unsigned long ls_con0[LOCK_STAT_MAX_CLASSES], ls_con1[LOCK_STAT_MAX_CLASSES];
static unsigned long ls_con_sum[LOCK_STAT_MAX_CLASSES];

void perf_stat_locks_begin(void)
{
	unsigned int nr = lock_stat_wait_totals(ls_ns0, ls_con0);

	/* Classes born during the run start from nothing. */
	for (unsigned int i = nr; i < LOCK_STAT_MAX_CLASSES; i++) {
		ls_ns0[i] = 0;
		ls_con0[i] = 0;
	}
}

void perf_stat_locks_end(void)
{
	unsigned int nr = lock_stat_wait_totals(ls_ns1, ls_con1);

	for (unsigned int i = 0; i < nr; i++) {
		ls_ns_sum[i] += ls_ns1[i] - ls_ns0[i];
		ls_con_sum[i] += ls_con1[i] - ls_con0[i];
	}
}

void perf_stat_lock_blocked(unsigned int idx, u64 *ns, unsigned long *con)
{
	*ns = idx < LOCK_STAT_MAX_CLASSES ? ls_ns_sum[idx] : 0;
	*con = idx < LOCK_STAT_MAX_CLASSES ? ls_con_sum[idx] : 0;
}

/* The classes that blocked longest, means over @runs; then start over. */
static void perf_stat_print_locks(const char *name, unsigned int runs)
{
	char num[32], cls[41], json[RECORD_MAX_JSON + 1];

	for (unsigned int k = 0; k < PERF_STAT_TOP_LOCKS; k++) {
		unsigned int best = 0;
		u64 ns;
		size_t j;

		for (unsigned int i = 1; i < LOCK_STAT_MAX_CLASSES; i++)
			if (ls_ns_sum[i] > ls_ns_sum[best])
				best = i;
		if (!ls_ns_sum[best])
			break;
		ns = ls_ns_sum[best] / (runs ? runs : 1);
		for (j = 0; lock_stat_class_name(best)[j] && j + 1 < sizeof(cls); j++) {
			char c = lock_stat_class_name(best)[j];

			cls[j] = c == '"' || c == '\\' || c < 0x20 ? '_' : c;
		}
		cls[j] = '\0';
		snprintf(num, sizeof(num), "%llu.%02llu", (unsigned long long)(ns / 1000000),
			 (unsigned long long)(ns / 10000 % 100));
		pr_info("%18s msec blocked on %-25s # %8lu contentions\n", num, cls,
			ls_con_sum[best] / (runs ? runs : 1));
		perf_stat_emit(json, snprintf(json, sizeof(json),
			 "{\"type\":\"perf_stat_lock\",\"what\":\"%s\",\"class\":\"%s\","
			 "\"blocked_ns\":%llu,\"con\":%lu}", name, cls, (unsigned long long)ns,
			 ls_con_sum[best] / (runs ? runs : 1)));
		ls_ns_sum[best] = 0;	/* printed: out of the next round's way */
	}
	memset(ls_ns_sum, 0, sizeof(ls_ns_sum));
	memset(ls_con_sum, 0, sizeof(ls_con_sum));
}
#else
void perf_stat_locks_begin(void) { }
void perf_stat_locks_end(void) { }
static void perf_stat_print_locks(const char *name, unsigned int runs) { }
#endif

void perf_stat_print(const char *what, const struct perf_stat_runs *r, bool icount)
{
	u64 task = perf_stat_mean(r, 0), elapsed = perf_stat_mean(r, 4);
	u64 sw = perf_stat_mean(r, 7);
	u64 util_x1000 = elapsed ? (u64)((unsigned __int128)task * 1000 / elapsed) : 0;
	u64 sem = perf_stat_sem(r, 4), x = perf_stat_rel_err_x100(r, 4);
	char name[33], num[32], err[32], rate[32], json[RECORD_MAX_JSON + 1], runs[24] = "";
	size_t i;

	for (i = 0; what[i] && i + 1 < sizeof(name); i++)
		name[i] = what[i] == '"' || what[i] == '\\' || what[i] < 0x20 ? '_' : what[i];
	name[i] = '\0';
	if (r->n > 1)
		snprintf(runs, sizeof(runs), " (%u runs)", r->n);
	pr_info("\n");
	pr_info(" Performance counter stats for '%s'%s:\n", name, runs);
	pr_info("\n");
	snprintf(num, sizeof(num), "%s.%02llu", perf_stat_commas(rate, task / 1000000),
		 (unsigned long long)(task / 10000 % 100));
	pr_info("%18s msec %-25s # %8llu.%03llu CPUs utilized          %s\n", num, "task-clock",
		(unsigned long long)(util_x1000 / 1000), (unsigned long long)(util_x1000 % 1000),
		perf_stat_err(err, r, 0));
	pr_info("%18s      %-25s %-33s %s\n", perf_stat_commas(num, sw), "context-switches",
		perf_stat_rate(rate, sw, task), perf_stat_err(err, r, 7));
	perf_stat_count_line("voluntary-switches", r, 1, task);
	perf_stat_count_line("involuntary-switches", r, 2, task);
	perf_stat_count_line("cpu-migrations", r, 3, task);
	if (r->pmu) {
		u64 ins = perf_stat_mean(r, 5), cyc = perf_stat_mean(r, 6);
		u64 ipc = cyc ? (u64)((unsigned __int128)ins * 100 / cyc) : 0;

		pr_info("%18s      %-25s %s\n", perf_stat_commas(num, cyc), "cycles",
			perf_stat_err(err, r, 6));
		pr_info("%18s      %-25s # %5llu.%02llu  insn per cycle          %s\n",
			perf_stat_commas(rate, ins), "instructions", (unsigned long long)(ipc / 100),
			(unsigned long long)(ipc % 100), perf_stat_err(err, r, 5));
	} else {
		pr_info("%18s      %-25s\n", "<not supported>", "cycles");
		if (icount)
			pr_info("%18s      %-25s # icount: task-clock ns       %s\n",
				perf_stat_commas(num, task), "instructions", perf_stat_err(err, r, 0));
		else
			pr_info("%18s      %-25s\n", "<not supported>", "instructions");
	}
	perf_stat_print_locks(name, r->n);
	pr_info("\n");
	pr_info("%12llu.%09llu +- %llu.%09llu seconds time elapsed  ( +- %2llu.%02llu%% )\n",
		(unsigned long long)(elapsed / 1000000000), (unsigned long long)(elapsed % 1000000000),
		(unsigned long long)(sem / 1000000000), (unsigned long long)(sem % 1000000000),
		(unsigned long long)(x / 100), (unsigned long long)(x % 100));
	pr_info("\n");
	perf_stat_emit(json, snprintf(json, sizeof(json),
		 "{\"type\":\"perf_stat\",\"what\":\"%s\",\"runs\":%u,\"task_ns\":%llu,\"cs\":%llu,"
		 "\"nvcsw\":%llu,\"nivcsw\":%llu,\"migr\":%llu,\"elapsed_ns\":%llu,\"err_x100\":%llu}",
		 name, r->n, (unsigned long long)task, (unsigned long long)sw, (unsigned long long)perf_stat_mean(r, 1),
		 (unsigned long long)perf_stat_mean(r, 2), (unsigned long long)perf_stat_mean(r, 3),
		 (unsigned long long)elapsed, (unsigned long long)x));
	if (r->pmu)
		perf_stat_emit(json, snprintf(json, sizeof(json),
			 "{\"type\":\"perf_stat_pmu\",\"what\":\"%s\",\"src\":\"pmu\",\"insns\":%llu,"
			 "\"cycles\":%llu}", name, (unsigned long long)perf_stat_mean(r, 5),
			 (unsigned long long)perf_stat_mean(r, 6)));
	else if (icount)
		perf_stat_emit(json, snprintf(json, sizeof(json),
			 "{\"type\":\"perf_stat_pmu\",\"what\":\"%s\",\"src\":\"icount\",\"insns\":%llu,"
			 "\"cycles\":null}", name, (unsigned long long)task));
}
