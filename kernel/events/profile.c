// SPDX-License-Identifier: GPL-2.0
/*
 * A sampling profiler: "perf top" for the guest.
 *
 * Linux's perf samples with the PMU's overflow NMI, or, for the
 * cpu-clock software event, with a per-CPU hrtimer (perf_swevent_hrtimer)
 * that reads the interrupted registers with get_irq_regs().  irqlab does
 * the latter on every CPU, so it works without a PMU (TCG, icount): each
 * online CPU runs a pinned hard hrtimer at profile.hz; its callback takes
 * the RIP from the interrupt frame and walks up to PROFILE_DEPTH - 1
 * frame pointers, and counts the stack in this CPU's fixed-size open
 * addressing table.  A stack that finds the table full is counted as
 * dropped, never lost silently.  Symbols are looked up at report time.
 *
 * Like perf's cpu-clock, the timer cannot fire while interrupts are off:
 * a sample due inside an IRQ-off section lands where they come back on.
 */
#define pr_fmt(fmt) fmt

#include <linux/kernel.h>
#include <linux/cpumask.h>
#include <linux/errno.h>
#include <linux/hrtimer.h>
#include <linux/kallsyms.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/profile.h>
#include <linux/record.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/vmalloc.h>
#include <asm/ptrace.h>
#include <asm/stacktrace.h>
#include <asm-generic/irq_regs.h>

static unsigned int profile_hz;
core_param_range("profile.hz", profile_hz, uint, 0, 10000,
		 "sample every CPU's interrupted RIP this often per second during run= (0: off)");
static unsigned int profile_top = 20;
core_param_range("profile.top", profile_top, uint, 1, 100,
		 "symbols the profile of a run prints");
static unsigned int profile_entries = PROFILE_MAX_ENTRIES;
core_param_range("profile.entries", profile_entries, uint, 1, PROFILE_MAX_ENTRIES,
		 "(debug) distinct stacks each CPU's sample table holds; more are dropped");

struct profile_entry {
	unsigned long ip[PROFILE_DEPTH];	/* RIP, then return addresses; 0 ends */
	u64 n;
};

struct profile_cpu {
	struct hrtimer timer;
	struct profile_entry *table;
	u64 samples, dropped;
	u64 missed;		/* periods the timer could not fire in */
};

static DEFINE_PER_CPU(struct profile_cpu, profile_cpu);
static unsigned int profile_nr_entries;	/* of each table, while one is allocated */
static unsigned int profile_rate;	/* Hz of the samples in the tables */
static u64 profile_period_ns;
static bool profile_running;

static unsigned int profile_hash(const unsigned long *ip)
{
	u64 h = 0;

	for (unsigned int i = 0; i < PROFILE_DEPTH; i++)
		h = (h ^ ip[i]) * 0x9e3779b97f4a7c15ULL;
	return h >> 32;
}

/* Count one stack; open addressing, no deletions: an empty slot ends a probe. */
static void profile_count(struct profile_cpu *pc, const unsigned long *ip)
{
	unsigned int nr = profile_nr_entries, slot = profile_hash(ip) % nr;

	pc->samples++;
	for (unsigned int probe = 0; probe < nr; probe++) {
		struct profile_entry *e = &pc->table[slot];

		if (!e->n) {
			memcpy(e->ip, ip, sizeof(e->ip));
			e->n = 1;
			return;
		}
		if (!memcmp(e->ip, ip, sizeof(e->ip))) {
			e->n++;
			return;
		}
		slot = slot + 1 == nr ? 0 : slot + 1;
	}
	pc->dropped++;		/* full: counted, shown with the profile */
}

static enum hrtimer_restart profile_timer_fn(struct hrtimer *timer)
{
	struct profile_cpu *pc = container_of(timer, struct profile_cpu, timer);
	struct pt_regs *regs = get_irq_regs();
	unsigned long ip[PROFILE_DEPTH] = { 0 };
	u64 periods;

	if (regs) {
		ip[0] = regs->ip;
		save_stack_trace_bp(regs->bp, ip + 1, PROFILE_DEPTH - 1);
		profile_count(pc, ip);
	} else {
		/* Not from an interrupt: nothing to attribute it to. */
		pc->samples++;
		pc->dropped++;
	}
	/* Late by whole periods (IRQs off that long, a host stall): say so. */
	periods = hrtimer_forward_now(timer, ns_to_ktime(profile_period_ns));
	if (periods > 1)
		pc->missed += periods - 1;
	return HRTIMER_RESTART;
}

/* on_each_cpu(): the timer is pinned, so it starts on the CPU it samples. */
static void profile_start_cpu(void *unused)
{
	struct profile_cpu *pc = this_cpu_ptr(&profile_cpu);

	hrtimer_init(&pc->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	pc->timer.function = profile_timer_fn;
	hrtimer_start(&pc->timer, ns_to_ktime(profile_period_ns), HRTIMER_MODE_REL_PINNED_HARD);
}

void profile_free(void)
{
	int cpu;

	if (profile_running)
		profile_stop();
	for_each_possible_cpu(cpu) {
		struct profile_cpu *pc = per_cpu_ptr(&profile_cpu, cpu);

		vfree(pc->table);
		pc->table = NULL;
		pc->samples = 0;
		pc->dropped = 0;
		pc->missed = 0;
	}
	profile_nr_entries = 0;
}

/* Tables carry over between starts with the same shape (perf.repeat runs). */
int profile_start(unsigned int hz, unsigned int entries)
{
	int cpu;

	if (!hz || hz > 10000 || !entries || entries > PROFILE_MAX_ENTRIES)
		return -EINVAL;
	if (profile_running)
		return -EBUSY;
	if (profile_nr_entries && (profile_nr_entries != entries || profile_rate != hz))
		profile_free();
	if (!profile_nr_entries) {
		for_each_possible_cpu(cpu) {
			struct profile_cpu *pc = per_cpu_ptr(&profile_cpu, cpu);

			pc->table = vzalloc(entries * sizeof(*pc->table));
			if (!pc->table) {
				profile_free();
				return -ENOMEM;
			}
		}
		profile_nr_entries = entries;
		profile_rate = hz;
	}
	profile_period_ns = NSEC_PER_SEC / hz;
	profile_running = true;
	on_each_cpu(profile_start_cpu, NULL, 1);
	return 0;
}

void profile_stop(void)
{
	int cpu;

	if (!profile_running)
		return;
	for_each_online_cpu(cpu)
		hrtimer_cancel(&per_cpu_ptr(&profile_cpu, cpu)->timer);
	profile_running = false;
}

void profile_totals(u64 *total, u64 *dropped)
{
	int cpu;

	*total = 0;
	*dropped = 0;
	if (!profile_nr_entries)
		return;
	for_each_possible_cpu(cpu) {
		*total += per_cpu_ptr(&profile_cpu, cpu)->samples;
		*dropped += per_cpu_ptr(&profile_cpu, cpu)->dropped;
	}
}

static const char profile_unknown[] = "[unknown]";

static const char *profile_sym(unsigned long ip, bool ret_addr)
{
	/* A return address may sit just past a noreturn call at a function's end. */
	const char *name = kallsyms_lookup(ret_addr ? ip - 1 : ip, NULL, NULL);

	return name ? name : profile_unknown;
}

/*
 * Samples in the tables whose leaf is @sym, or all of them (NULL): with
 * nothing lost, all of them is total - dropped.
 */
u64 profile_sym_count(const char *sym)
{
	u64 n = 0;
	int cpu;

	for_each_possible_cpu(cpu) {
		const struct profile_entry *t = per_cpu_ptr(&profile_cpu, cpu)->table;

		for (unsigned int i = 0; i < profile_nr_entries; i++)
			if (t[i].n && (!sym || !strcmp(profile_sym(t[i].ip[0], false), sym)))
				n += t[i].n;
	}
	return n;
}

u64 profile_kept(void)
{
	return profile_sym_count(NULL);
}

/* The samples by symbol chain, leaf first; kallsyms names compare by pointer. */
struct profile_chain {
	const char *sym[PROFILE_DEPTH];
	u64 n;
};

static unsigned int profile_fold(struct profile_chain *c, unsigned int max, bool leaf_only)
{
	unsigned int nr = 0;
	int cpu;

	for_each_possible_cpu(cpu) {
		const struct profile_entry *t = per_cpu_ptr(&profile_cpu, cpu)->table;

		for (unsigned int i = 0; i < profile_nr_entries; i++) {
			struct profile_chain k = { .n = t[i].n };
			unsigned int j;

			if (!t[i].n)
				continue;
			for (j = 0; j < PROFILE_DEPTH && t[i].ip[j] && (!leaf_only || !j); j++)
				k.sym[j] = profile_sym(t[i].ip[j], j);
			for (j = 0; j < nr; j++)
				if (!memcmp(c[j].sym, k.sym, sizeof(k.sym)))
					break;
			if (j < nr)
				c[j].n += k.n;
			else if (nr < max)
				c[nr++] = k;
		}
	}
	return nr;
}

/* Take the largest of @c[0..nr) out, or NULL when none is left. */
static struct profile_chain *profile_take_max(struct profile_chain *c, unsigned int nr)
{
	struct profile_chain *best = NULL;

	for (unsigned int i = 0; i < nr; i++)
		if (c[i].n && (!best || c[i].n > best->n))
			best = &c[i];
	return best;
}

static void profile_emit(const char *json, int n)
{
	if (n > RECORD_MAX_JSON || record_emit(json) < 0)
		pr_warn("profile: a record does not fit: %.60s...\n", json);
}

/* "outer;...;leaf" into @buf, dropping outer frames until it fits @room. */
static void profile_stack_str(char *buf, size_t room, const struct profile_chain *c)
{
	int depth = 0;

	while (depth < PROFILE_DEPTH && c->sym[depth])
		depth++;
	for (; depth > 0; depth--) {
		size_t len = 0;

		buf[0] = '\0';
		for (int j = depth - 1; j >= 0 && len < room; j--)
			len += snprintf(buf + len, room - len, "%s%s", c->sym[j], j ? ";" : "");
		if (len < room)
			return;
	}
	snprintf(buf, room, "%s", profile_unknown);
}

#define PROFILE_STACK_RECORDS	64

void profile_print(const char *what)
{
	unsigned int max = profile_nr_entries * num_possible_cpus(), nr;
	char json[RECORD_MAX_JSON + 1], stack[RECORD_MAX_JSON];
	struct profile_chain *c, *best;
	u64 total, dropped, kept, missed = 0;
	int cpu;

	profile_stop();
	profile_totals(&total, &dropped);
	for_each_possible_cpu(cpu)
		missed += per_cpu_ptr(&profile_cpu, cpu)->missed;
	kept = total - dropped;
	pr_info("\n");
	pr_info(" Samples: %llu of event 'cpu-clock', %u Hz, dropped: %llu, missed periods: %llu "
		"(profile of '%s')\n", (unsigned long long)total, profile_rate,
		(unsigned long long)dropped, (unsigned long long)missed, what);
	profile_emit(json, snprintf(json, sizeof(json),
		 "{\"type\":\"profile\",\"what\":\"%s\",\"hz\":%u,\"total\":%llu,\"dropped\":%llu,"
		 "\"missed\":%llu,\"depth\":%u}", what, profile_rate, (unsigned long long)total,
		 (unsigned long long)dropped, (unsigned long long)missed, PROFILE_DEPTH));
	c = max ? vmalloc(max * sizeof(*c)) : NULL;
	if (!c) {
		if (max)
			pr_warn("profile: no memory for the report\n");
		profile_free();
		return;
	}
	nr = profile_fold(c, max, true);
	for (unsigned int k = 0; k < profile_top && (best = profile_take_max(c, nr)); k++) {
		u64 x = (best->n * 10000 + kept / 2) / kept;

		pr_info("  %3llu.%02llu%%  [k] %s\n", (unsigned long long)(x / 100),
			(unsigned long long)(x % 100), best->sym[0]);
		profile_emit(json, snprintf(json, sizeof(json),
			 "{\"type\":\"profile_sym\",\"what\":\"%s\",\"sym\":\"%s\",\"n\":%llu}",
			 what, best->sym[0], (unsigned long long)best->n));
		best->n = 0;
	}
	nr = profile_fold(c, max, false);
	for (unsigned int k = 0; k < PROFILE_STACK_RECORDS && (best = profile_take_max(c, nr)); k++) {
		profile_stack_str(stack, 100, best);
		profile_emit(json, snprintf(json, sizeof(json),
			 "{\"type\":\"profile_stack\",\"what\":\"%s\",\"stack\":\"%s\",\"n\":%llu}",
			 what, stack, (unsigned long long)best->n));
		best->n = 0;
	}
	pr_info("\n");
	vfree(c);
	profile_free();
}

void profile_workload_begin(void)
{
	int err;

	if (!profile_hz)
		return;
	err = profile_start(profile_hz, profile_entries);
	if (err)
		pr_warn("profile: cannot sample this run (%d)\n", err);
}

void profile_workload_end(void)
{
	profile_stop();
}

void profile_workload_print(const char *what)
{
	if (profile_hz && profile_nr_entries)
		profile_print(what);
}
