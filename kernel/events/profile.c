// SPDX-License-Identifier: GPL-2.0
/*
 * A sampling profiler: "perf top" for the guest.
 *
 * Linux's perf samples with the PMU's overflow NMI ("cycles"), or, for
 * the cpu-clock software event, with a per-CPU hrtimer
 * (perf_swevent_hrtimer) that reads the interrupted registers with
 * get_irq_regs().  irqlab has both kinds of source (profile.source=):
 *
 *  - nmi: where CPUID.0AH shows a usable PMU, IA32_PMC0 overflows every
 *    period on each CPU and raises a PMI as an NMI (arch/x86/events/pmu.c).
 *    Elsewhere (QEMU's TCG and icount have no PMU) the HPET's timer 0
 *    raises a periodic NMI on one CPU, the leader, through the IOAPIC
 *    (arch/x86/kernel/hpet.c); the leader passes it on to every other
 *    profiled CPU with an NMI IPI, which each one notes in its own
 *    pending count before it is sent.
 *  - hrtimer: each online CPU runs a pinned hard hrtimer at profile.hz.
 *    Like perf's cpu-clock it cannot fire while interrupts are off: a
 *    sample due inside an IRQ-off section lands where they come back on.
 *
 * Either way the sample is the interrupted RIP and up to PROFILE_DEPTH - 1
 * frame pointers from the interrupt's pt_regs, counted in this CPU's
 * fixed-size open addressing table.  The NMI path touches only this CPU's
 * table and counters, MMIO/MSR registers and the frame walk's per-CPU
 * stack descriptor (rewritten with the same values for the same task, so
 * a walk it interrupts is not disturbed): no locks, no printk, nothing
 * that can fault (the frame walk checks each frame against the known
 * stacks first), so nothing irets early and re-opens NMIs inside the
 * handler.  A stack that finds the table full is counted as dropped,
 * never lost silently.  Symbols are looked up at report time.
 */
#define pr_fmt(fmt) fmt

#include <linux/kernel.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/errno.h>
#include <linux/hrtimer.h>
#include <linux/kallsyms.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/nmi.h>
#include <linux/percpu.h>
#include <linux/profile.h>
#include <linux/record.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/vmalloc.h>
#include <asm/apic.h>
#include <asm/hpet.h>
#include <asm/nmi.h>
#include <asm/perf_event.h>
#include <asm/ptrace.h>
#include <asm/stacktrace.h>
#include <asm-generic/irq_regs.h>

static unsigned int profile_hz;
core_param_range("profile.hz", profile_hz, uint, 0, 10000,
		 "sample every CPU's interrupted RIP this often per second during run= (0: off)");
static unsigned int profile_top = 20;
core_param_range("profile.top", profile_top, uint, 1, 100,
		 "symbols the profile of a run prints");
/*
 * Debug: spin this long in the HPET-source NMI between taking the pending
 * count and sampling, the window profile_nmi_drain() must wait out
 * (profile_test's profile_stop_waits_for_nmi widens it on purpose).
 */
unsigned int profile_nmi_delay_us;
/* ...on this CPU only, so the CPU that watches for it is not held too. */
int profile_nmi_delay_cpu = -1;
static unsigned int profile_entries = PROFILE_MAX_ENTRIES;
core_param_range("profile.entries", profile_entries, uint, 1, PROFILE_MAX_ENTRIES,
		 "(debug) distinct stacks each CPU's sample table holds; more are dropped");
static const char *const profile_sources[] = { "hrtimer", "nmi", "auto", NULL };
static int profile_source = PROFILE_SOURCE_AUTO;
core_param_enum("profile.source", profile_source, profile_sources,
		"what takes the samples: hrtimer (cpu-clock), nmi (PMU overflow, else HPET), "
		"auto (nmi where there is one)");

struct profile_entry {
	unsigned long ip[PROFILE_DEPTH];	/* RIP, then return addresses; 0 ends */
	u64 n;
};

struct profile_cpu {
	struct hrtimer timer;
	struct profile_entry *table;
	u64 samples, dropped;
	u64 missed;		/* periods that produced no sample */
	unsigned long nmi_pending;	/* NMI IPIs the leader sent us, not yet taken */
	unsigned long nmi_busy;		/* in profile_nmi() past taking them */
	u64 nmi_echoes;		/* HPET-source NMIs that brought no sample */
};

/* What fills the tables; PROFILE_VIA_NONE between runs. */
enum profile_via { PROFILE_VIA_NONE, PROFILE_VIA_HRTIMER, PROFILE_VIA_HPET, PROFILE_VIA_PMU };
static const char *const profile_via_names[] = { "", "hrtimer", "nmi-hpet", "nmi-pmu" };

static DEFINE_PER_CPU(struct profile_cpu, profile_cpu);
static unsigned int profile_nr_entries;	/* of each table, while one is allocated */
static unsigned int profile_rate;	/* Hz of the samples in the tables */
static enum profile_source profile_asked;	/* the source the tables were started with */
static enum profile_via profile_via;		/* and what it resolved to */
static u64 profile_period_ns;
static bool profile_running;
/* What profile_nmi() claims: set before a source starts, cleared after it drained. */
static enum profile_via profile_nmi_via;
static unsigned int profile_nmi_leader;	/* the HPET's NMI goes here */
static struct cpumask profile_nmi_cpus;	/* and from here to these */

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

/* The interrupted RIP and its callers, from hard IRQ or NMI context alike. */
static void profile_sample(struct profile_cpu *pc, const struct pt_regs *regs)
{
	unsigned long ip[PROFILE_DEPTH] = { 0 };

	ip[0] = regs->ip;
	save_stack_trace_bp(regs->bp, ip + 1, PROFILE_DEPTH - 1);
	profile_count(pc, ip);
}

static enum hrtimer_restart profile_timer_fn(struct hrtimer *timer)
{
	struct profile_cpu *pc = container_of(timer, struct profile_cpu, timer);
	struct pt_regs *regs = get_irq_regs();
	u64 periods;

	if (regs) {
		profile_sample(pc, regs);
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

/* The HPET leader's NMI, passed on: the count first, so the target claims it. */
static void profile_nmi_fan_out(void)
{
	unsigned int this = smp_processor_id();
	int cpu;

	for_each_cpu(cpu, &profile_nmi_cpus) {
		if (cpu == this)
			continue;
		__atomic_add_fetch(&per_cpu_ptr(&profile_cpu, cpu)->nmi_pending, 1,
				   __ATOMIC_SEQ_CST);
		apic_send_NMI_from_nmi(cpu);
	}
}

/*
 * An NMI_LOCAL handler: do_nmi() asks it on every NMI.  Ours if PMC0
 * overflowed, if the leader sent us one, or, on the leader, if the HPET
 * comparator moved on.  NMIs do not queue: a second one raised while one
 * is pending merges with it, so what one NMI stands for beyond one
 * sample counts as missed.
 */
static int profile_nmi(unsigned int type, struct pt_regs *regs)
{
	enum profile_via via = READ_ONCE(profile_nmi_via);
	struct profile_cpu *pc;
	unsigned long n;
	u64 periods;

	if (via == PROFILE_VIA_NONE)
		return NMI_DONE;
	pc = this_cpu_ptr(&profile_cpu);
	if (via == PROFILE_VIA_PMU) {
		if (!x86_pmu_sample_overflow())
			return NMI_DONE;
		n = 1;
	} else {
		/*
		 * Busy before the count is taken (the exchange is a full
		 * barrier): a drain that sees the count gone also sees us
		 * busy until the sample is in the table.
		 */
		WRITE_ONCE(pc->nmi_busy, 1);
		n = __atomic_exchange_n(&pc->nmi_pending, 0, __ATOMIC_SEQ_CST);
		if (smp_processor_id() == profile_nmi_leader && hpet_nmi_fired(&periods)) {
			profile_nmi_fan_out();
			pc->missed += periods - 1;
			n++;
		}
		if (!n) {
			smp_store_release(&pc->nmi_busy, 0);
			return NMI_DONE;
		}
		if (unlikely(READ_ONCE(profile_nmi_delay_us)) &&
		    smp_processor_id() == READ_ONCE(profile_nmi_delay_cpu))
			udelay(READ_ONCE(profile_nmi_delay_us));
	}
	pc->missed += n - 1;
	profile_sample(pc, regs);
	smp_store_release(&pc->nmi_busy, 0);
	return NMI_HANDLED;
}

bool profile_nmi_busy(int cpu)
{
	return smp_load_acquire(&per_cpu_ptr(&profile_cpu, cpu)->nmi_busy);
}

/*
 * An NMI_UNKNOWN handler, asked only when no local handler claimed the
 * NMI.  While the HPET source runs, such an NMI is an echo, taken without
 * a sample: on the leader, QEMU 7.2's HPET, when its callback runs on the
 * comparator's own tick, raises the edge, leaves the comparator where it
 * is and fires again one tick later (every period under icount), and the
 * last edge before hpet_nmi_stop() lands here too; on the others, an NMI
 * IPI whose count the NMI before it already took (incremented before that
 * one returned).
 */
static int profile_nmi_unknown(unsigned int type, struct pt_regs *regs)
{
	if (READ_ONCE(profile_nmi_via) != PROFILE_VIA_HPET)
		return NMI_DONE;
	this_cpu_ptr(&profile_cpu)->nmi_echoes++;
	return NMI_HANDLED;
}

static void profile_nmi_register(void)
{
	static bool registered;

	if (registered)
		return;
	register_nmi_handler(NMI_LOCAL, profile_nmi, "profile");
	register_nmi_handler(NMI_UNKNOWN, profile_nmi_unknown, "profile_echo");
	registered = true;
}

/* Try the PMU, then the HPET; 0 with profile_via set, or -ENODEV and why. */
static int profile_start_nmi(unsigned int hz, char *why, size_t len)
{
	char pmu_why[96];
	int cpu;

	profile_nmi_register();
	for_each_online_cpu(cpu)
		per_cpu_ptr(&profile_cpu, cpu)->nmi_pending = 0;
	cpumask_copy(&profile_nmi_cpus, cpu_online_mask);
	WRITE_ONCE(profile_nmi_via, PROFILE_VIA_PMU);
	if (!x86_pmu_sample_start(hz, pmu_why, sizeof(pmu_why))) {
		profile_via = PROFILE_VIA_PMU;
		return 0;
	}
	profile_nmi_leader = cpumask_first(&profile_nmi_cpus);
	/* The NMI watchdog lends us timer 0 and checks on our NMIs meanwhile. */
	hardlockup_detector_hpet_yield();
	WRITE_ONCE(profile_nmi_via, PROFILE_VIA_HPET);
	if (!hpet_nmi_start(hz, profile_nmi_leader, why, len)) {
		profile_via = PROFILE_VIA_HPET;
		return 0;
	}
	WRITE_ONCE(profile_nmi_via, PROFILE_VIA_NONE);
	hardlockup_detector_hpet_reclaim();
	/* Both reasons: "PMU: CPUID.0AH version 0; HPET: no HPET". */
	{
		char hpet_why[96];

		snprintf(hpet_why, sizeof(hpet_why), "%s", why);
		snprintf(why, len, "%s; HPET: %s", pmu_why, hpet_why);
	}
	return -ENODEV;
}

/* On the leader: its own in-flight HPET NMI is taken before this returns. */
static void profile_hpet_stop(void *unused)
{
	hpet_nmi_stop();
}

/*
 * Wait for the NMIs the leader already sent, and for the one that took
 * them to finish its sample: they are counted, never left behind, and
 * the totals read after profile_stop() do not move any more.
 */
static void profile_nmi_drain(void)
{
	int cpu;

	for_each_cpu(cpu, &profile_nmi_cpus) {
		struct profile_cpu *pc = per_cpu_ptr(&profile_cpu, cpu);
		unsigned int us = 0;

		while ((READ_ONCE(pc->nmi_pending) || profile_nmi_busy(cpu)) && us++ < 100000)
			udelay(1);
		if (READ_ONCE(pc->nmi_pending)) {
			pr_warn("profile: CPU %d did not take %lu sampling NMIs\n", cpu,
				READ_ONCE(pc->nmi_pending));
			pc->missed += __atomic_exchange_n(&pc->nmi_pending, 0, __ATOMIC_SEQ_CST);
		}
	}
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
		pc->nmi_pending = 0;
		pc->nmi_echoes = 0;
	}
	profile_nr_entries = 0;
	profile_via = PROFILE_VIA_NONE;
}

/* Tables carry over between starts with the same shape and source (perf.repeat runs). */
int profile_start_source(unsigned int hz, unsigned int entries, enum profile_source src)
{
	char why[192];
	int cpu, err;

	if (!hz || hz > 10000 || !entries || entries > PROFILE_MAX_ENTRIES ||
	    src > PROFILE_SOURCE_AUTO)
		return -EINVAL;
	if (profile_running)
		return -EBUSY;
	if (profile_nr_entries && (profile_nr_entries != entries || profile_rate != hz ||
				   profile_asked != src))
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
		profile_asked = src;
	}
	profile_period_ns = NSEC_PER_SEC / hz;
	err = src == PROFILE_SOURCE_HRTIMER ? -ENODEV : profile_start_nmi(hz, why, sizeof(why));
	if (err && src == PROFILE_SOURCE_NMI) {
		pr_warn("profile: profile.source=nmi: no NMI source: PMU: %s\n", why);
		profile_free();
		return err;
	}
	profile_running = true;
	if (!err)
		return 0;
	profile_via = PROFILE_VIA_HRTIMER;
	on_each_cpu(profile_start_cpu, NULL, 1);
	return 0;
}

int profile_start(unsigned int hz, unsigned int entries)
{
	return profile_start_source(hz, entries, profile_source);
}

const char *profile_source_name(void)
{
	return profile_via_names[profile_via];
}

void profile_stop(void)
{
	int cpu;

	if (!profile_running)
		return;
	switch (profile_via) {
	case PROFILE_VIA_HRTIMER:
		for_each_online_cpu(cpu)
			hrtimer_cancel(&per_cpu_ptr(&profile_cpu, cpu)->timer);
		break;
	case PROFILE_VIA_PMU:
		x86_pmu_sample_stop();
		break;
	case PROFILE_VIA_HPET:
		smp_call_function_single(profile_nmi_leader, profile_hpet_stop, NULL, 1);
		profile_nmi_drain();
		WRITE_ONCE(profile_nmi_via, PROFILE_VIA_NONE);
		hardlockup_detector_hpet_reclaim();
		break;
	case PROFILE_VIA_NONE:
		break;
	}
	WRITE_ONCE(profile_nmi_via, PROFILE_VIA_NONE);
	profile_running = false;
}

/* One counter of struct profile_cpu summed over every CPU (report time). */
#define profile_sum(field) ({						\
	u64 __sum = 0;							\
	int __cpu;							\
									\
	for_each_possible_cpu(__cpu)					\
		__sum += per_cpu_ptr(&profile_cpu, __cpu)->field;	\
	__sum;								\
})

u64 profile_nmi_echoes(void)
{
	return profile_sum(nmi_echoes);
}

u64 profile_cpu_samples(int cpu)
{
	return per_cpu_ptr(&profile_cpu, cpu)->samples;
}

u64 profile_missed(void)
{
	return profile_sum(missed);
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
	u64 total, dropped, kept, missed;

	profile_stop();
	profile_totals(&total, &dropped);
	missed = profile_missed();
	kept = total - dropped;
	pr_info("\n");
	pr_info(" Samples: %llu of event '%s', %u Hz, source %s, dropped: %llu, missed periods: %llu "
		"(profile of '%s')\n", (unsigned long long)total,
		profile_via == PROFILE_VIA_PMU ? "cycles" : "cpu-clock", profile_rate,
		profile_source_name(), (unsigned long long)dropped, (unsigned long long)missed, what);
	profile_emit(json, snprintf(json, sizeof(json),
		 "{\"type\":\"profile\",\"what\":\"%s\",\"hz\":%u,\"source\":\"%s\",\"total\":%llu,"
		 "\"dropped\":%llu,\"missed\":%llu,\"depth\":%u}", what, profile_rate,
		 profile_source_name(), (unsigned long long)total, (unsigned long long)dropped,
		 (unsigned long long)missed, PROFILE_DEPTH));
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
