// SPDX-License-Identifier: GPL-2.0
/*
 * An IRQ-off section counter on the CONFIG_TRACE_IRQFLAGS hooks
 * (include/linux/irqoff_count.h), called by trace_hardirqs_off()/on()
 * in trace_preemptirq.c next to the irqsoff tracer (trace_irqsoff.c).
 * The counter is always there with the hooks and keeps only totals per
 * call site; the tracer adds windows, histograms and sites.
 *
 * Per CPU, the "off" hook opens a section when the CPU's traced state is
 * "on" (as in Linux, local_irq_*() call it only on an on->off edge: a
 * nested local_irq_save() or a local_irq_restore() to a disabled state
 * makes no call) and keeps the
 * return address of trace_hardirqs_off(): the local_irq_*() macros call
 * it directly, so that address lies inside the function that disabled
 * interrupts.  The
 * "on" hook closes the section and adds one section and its length to a
 * small open-addressed table of this CPU, keyed by that raw address.
 * Addresses are turned into functions (kallsyms) only when someone asks,
 * so the hooks never look anything up.
 *
 * Rules for the hooks, which run inside every local_irq_*() in the
 * kernel, from the first instructions of start_kernel() on and inside
 * printk: no printk, no locks, no allocation, no local_irq_*() (raw_
 * forms only), nothing that may itself be traced.  Each CPU writes only
 * its own state, and does so with interrupts off (the off hook runs after
 * the disable, the on hook before the enable), so no atomics are needed.
 * NMIs and hard interrupt handlers are skipped: they run with interrupts
 * off since their entry, which these hooks do not see, so their own
 * disables are not transitions at all.
 *
 * Interrupt entry and exit (arch/x86/kernel/irq.c): the hardware IRQ-off
 * window from entry to the first enable is not counted.  The exit path
 * calls trace_hardirqs_on() when it returns to a context with interrupts
 * on, so a section opened by softirq processing or preemption at the end
 * of an interrupt is closed where interrupts really come back on instead
 * of being charged to the interrupted task.  Exceptions (do_trap()) have
 * no such hook; their handlers do not enable interrupts today.
 *
 * Reset is a generation number: irqoff_count_reset() bumps it, and a CPU
 * that sees a generation other than its table's clears the table at its
 * next hook; readers skip tables of an older generation.  The same check
 * catches the copy of CPU 0's early state that setup_per_cpu_areas()
 * gives every other CPU (the table remembers its CPU).  Readers may race
 * with the owning CPU and see a section's count without its cycles: read
 * when the workload is done for exact figures.
 *
 * Known limit: if the compiler turns the hook call into a tail call the
 * return address is the caller's caller; linux/irqflags.h puts a barrier
 * after the off hook so that local_irq_disable() at the very end of a
 * function cannot become one.
 */
#include <linux/kernel.h>
#include <linux/irqflags.h>
#include <linux/irqoff_count.h>
#include <linux/kallsyms.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/cpumask.h>
#include <asm/processor.h>

#define IRQOFF_TABLE_BITS	7
#define IRQOFF_TABLE_SIZE	(1U << IRQOFF_TABLE_BITS)
#define IRQOFF_PROBES		8	/* slots tried before a section drops */

struct irqoff_slot {
	unsigned long ip;	/* return address of the off hook; 0: free */
	unsigned long sections;
	u64 cycles;
};

struct irqoff_cpu {
	unsigned long gen;	/* irqoff_gen the table belongs to */
	int cpu;		/* owner + 1; 0 before the first hook */
	bool open;		/* a section is open */
	unsigned long start_ip;
	u64 start_tsc;
	unsigned long dropped;	/* table full */
	unsigned long stale;	/* open while interrupts were found on */
	struct irqoff_slot slot[IRQOFF_TABLE_SIZE];
};

static DEFINE_PER_CPU(struct irqoff_cpu, irqoff_cpu);
static unsigned long irqoff_gen = 1;

/* Interrupt handlers and NMIs run under the hardware's own IRQ-off window. */
static __always_inline bool irqoff_skip(void)
{
	return preempt_count() & (NMI_MASK | HARDIRQ_MASK);
}

/* This CPU's state, cleared first if it is from before a reset or another CPU. */
static __always_inline struct irqoff_cpu *irqoff_this_cpu(void)
{
	struct irqoff_cpu *c = this_cpu_ptr(&irqoff_cpu);
	unsigned long gen = READ_ONCE(irqoff_gen);
	int cpu = raw_smp_processor_id() + 1;

	if (unlikely(c->gen != gen || c->cpu != cpu)) {
		c->open = false;
		c->dropped = 0;
		c->stale = 0;
		for (unsigned int i = 0; i < IRQOFF_TABLE_SIZE; i++) {
			c->slot[i].ip = 0;
			c->slot[i].sections = 0;
			c->slot[i].cycles = 0;
		}
		c->cpu = cpu;
		/* Readers trust a table once its generation is current. */
		barrier();
		WRITE_ONCE(c->gen, gen);
	}
	return c;
}

static __always_inline unsigned int irqoff_hash(unsigned long ip)
{
	return (unsigned int)((ip * 0x9e3779b97f4a7c15UL) >> (64 - IRQOFF_TABLE_BITS));
}

static void irqoff_account(struct irqoff_cpu *c, unsigned long ip, u64 cycles)
{
	unsigned int h = irqoff_hash(ip);

	for (unsigned int i = 0; i < IRQOFF_PROBES; i++) {
		struct irqoff_slot *s = &c->slot[(h + i) & (IRQOFF_TABLE_SIZE - 1)];

		if (s->ip == ip || !s->ip) {
			/* ip last: a reader sees a slot only once it has counts. */
			WRITE_ONCE(s->sections, s->sections + 1);
			WRITE_ONCE(s->cycles, s->cycles + cycles);
			if (!s->ip)
				WRITE_ONCE(s->ip, ip);
			return;
		}
	}
	c->dropped++;
}

void irqoff_count_hardirqs_off(unsigned long ip)
{
	struct irqoff_cpu *c;

	if (unlikely(irqoff_skip()))
		return;
	c = irqoff_this_cpu();
	if (c->open)
		return;		/* off -> off */
	c->start_ip = ip;
	c->start_tsc = rdtsc();
	c->open = true;
}

void irqoff_count_hardirqs_on(void)
{
	struct irqoff_cpu *c;
	u64 now;

	if (unlikely(irqoff_skip()))
		return;
	if (unlikely(!raw_irqs_disabled())) {
		/*
		 * local_irq_enable() with interrupts already on: an interrupt
		 * may come in any time, so touch only single per-CPU words.
		 * A section still open here was ended by something the hooks
		 * do not see (raw_local_irq_*()): drop it.
		 */
		if (this_cpu_read(irqoff_cpu.open)) {
			this_cpu_write(irqoff_cpu.open, false);
			this_cpu_inc(irqoff_cpu.stale);
		}
		return;
	}
	now = rdtsc();
	c = irqoff_this_cpu();
	if (!c->open)
		return;		/* on -> on, or the section began before a reset */
	c->open = false;
	irqoff_account(c, c->start_ip, now - c->start_tsc);
}

/* ------------------------------------------------------------- readers */

/* The table of @cpu if it holds counts of the current generation. */
static struct irqoff_cpu *irqoff_table(int cpu)
{
	struct irqoff_cpu *c = &per_cpu(irqoff_cpu, cpu);

	if (READ_ONCE(c->gen) != READ_ONCE(irqoff_gen) || c->cpu != cpu + 1)
		return NULL;
	return c;
}

void irqoff_count_reset(void)
{
	/* Every CPU clears its own table at its next hook. */
	__atomic_add_fetch(&irqoff_gen, 1, __ATOMIC_SEQ_CST);
}

unsigned long irqoff_count_dropped(void)
{
	unsigned long n = 0;
	int cpu;

	for_each_possible_cpu(cpu) {
		struct irqoff_cpu *c = irqoff_table(cpu);

		if (c)
			n += READ_ONCE(c->dropped);
	}
	return n;
}

/* Start and size of the function containing return address @ip, or 0. */
static unsigned long irqoff_func_of(unsigned long ip, unsigned long *size)
{
	unsigned long off;

	/* A return address may be the first byte after its function. */
	if (!kallsyms_lookup(ip - 1, size, &off))
		return 0;
	return ip - 1 - off;
}

struct irqoff_count irqoff_count_for(const char *func)
{
	struct irqoff_count r = { 0 };
	unsigned long start, size, off;
	int cpu;

	start = kallsyms_lookup_name(func);
	if (!start || !kallsyms_lookup(start, &size, &off))
		return r;
	r.found = true;
	for_each_possible_cpu(cpu) {
		struct irqoff_cpu *c = irqoff_table(cpu);

		if (!c)
			continue;
		for (unsigned int i = 0; i < IRQOFF_TABLE_SIZE; i++) {
			unsigned long ip = READ_ONCE(c->slot[i].ip);

			/* ip - 1: see irqoff_func_of(). */
			if (!ip || ip - 1 < start || ip - 1 >= start + size)
				continue;
			r.sections += READ_ONCE(c->slot[i].sections);
			r.cycles += READ_ONCE(c->slot[i].cycles);
		}
	}
	return r;
}

/* The report's per-function totals, merged from every CPU's table. */
#define IRQOFF_REPORT_FUNCS	128

struct irqoff_func {
	unsigned long start;	/* 0: addresses kallsyms does not know */
	unsigned long sections;
	u64 cycles;
};

static struct irqoff_func irqoff_funcs[IRQOFF_REPORT_FUNCS];
static DEFINE_MUTEX(irqoff_report_lock);

void irqoff_count_report(unsigned int top)
{
	unsigned int nfuncs = 0, lost = 0;
	unsigned long stale = 0, dropped = 0;
	char sym[KSYM_SYMBOL_LEN];
	int cpu;

	mutex_lock(&irqoff_report_lock);
	for_each_possible_cpu(cpu) {
		struct irqoff_cpu *c = irqoff_table(cpu);

		if (!c)
			continue;
		stale += READ_ONCE(c->stale);
		dropped += READ_ONCE(c->dropped);
		for (unsigned int i = 0; i < IRQOFF_TABLE_SIZE; i++) {
			unsigned long ip = READ_ONCE(c->slot[i].ip), size;
			unsigned long start;
			unsigned int f;

			if (!ip)
				continue;
			start = irqoff_func_of(ip, &size);
			for (f = 0; f < nfuncs; f++)
				if (irqoff_funcs[f].start == start)
					break;
			if (f == nfuncs) {
				if (nfuncs == IRQOFF_REPORT_FUNCS) {
					lost++;
					continue;
				}
				irqoff_funcs[nfuncs++] = (struct irqoff_func){ .start = start };
			}
			irqoff_funcs[f].sections += READ_ONCE(c->slot[i].sections);
			irqoff_funcs[f].cycles += READ_ONCE(c->slot[i].cycles);
		}
	}

	pr_info("irqoff: IRQ-off sections by the function that opened them (all CPUs, TSC cycles)\n");
	pr_info("irqoff: %-40s %10s %14s %10s\n", "function", "sections", "cycles", "avg");
	for (unsigned int n = 0; n < top && n < nfuncs; n++) {
		unsigned int best = n;
		struct irqoff_func tmp;

		for (unsigned int f = n + 1; f < nfuncs; f++)
			if (irqoff_funcs[f].cycles > irqoff_funcs[best].cycles)
				best = f;
		tmp = irqoff_funcs[n];
		irqoff_funcs[n] = irqoff_funcs[best];
		irqoff_funcs[best] = tmp;
		if (irqoff_funcs[n].start)
			sprint_symbol(sym, irqoff_funcs[n].start);
		else
			snprintf(sym, sizeof(sym), "(unknown)");
		/* Drop the "+0x0/0x..." of a function start. */
		for (char *p = sym; *p; p++)
			if (*p == '+') {
				*p = '\0';
				break;
			}
		pr_info("irqoff: %-40s %10lu %14llu %10llu\n", sym,
			irqoff_funcs[n].sections,
			(unsigned long long)irqoff_funcs[n].cycles,
			(unsigned long long)(irqoff_funcs[n].cycles /
					     irqoff_funcs[n].sections));
	}
	pr_info("irqoff: %u functions, %lu sections dropped (table full), %lu ended unseen%s\n",
		nfuncs, dropped, stale, lost ? ", report table full" : "");
	mutex_unlock(&irqoff_report_lock);
}
