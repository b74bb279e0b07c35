// SPDX-License-Identifier: GPL-2.0
/*
 * SLUB scope probes (CONFIG_SLUB_SCOPE_PROBE, test builds only).
 *
 * mm/slub.c calls slub_probe(site) at a few places whose context the
 * scope tests want to check: entry to the page allocator, the CPU slab
 * flush, deactivate_slab()'s freelist walk, __unfreeze_partials().  Each
 * call is counted per site together with the context it ran in:
 *
 *	calls		every call
 *	irqs_off	interrupts were disabled
 *	preempt_off	preempt_count() != 0: preemption disabled, a
 *			spinlock held, or BH/IRQ/NMI context.  Without
 *			CONFIG_PREEMPT_COUNT, preempt_disable() and
 *			!RT spinlocks do not show here.
 *	hardirq		in hard-interrupt (or NMI) context
 *
 * The counters are global atomics rather than per CPU: the sites are on
 * slow paths, and a test wants exact sums and an exact reset while other
 * CPUs may still be allocating.
 */
#include <linux/kernel.h>
#include <linux/atomic.h>
#include <linux/irqflags.h>
#include <linux/preempt.h>
#include <string.h>
#include "slub.h"

struct slub_probe_counters {
	atomic_long_t calls, irqs_off, preempt_off, hardirq;
};

static struct slub_probe_counters slub_probe_counts[NR_SLUB_PROBE_SITES];

void slub_probe(enum slub_probe_site site)
{
	struct slub_probe_counters *c;

	if (WARN_ON_ONCE((unsigned int)site >= NR_SLUB_PROBE_SITES))
		return;
	c = &slub_probe_counts[site];
	atomic_long_inc(&c->calls);
	if (irqs_disabled())
		atomic_long_inc(&c->irqs_off);
	if (preempt_count())
		atomic_long_inc(&c->preempt_off);
	if (in_hardirq())
		atomic_long_inc(&c->hardirq);
}

void slub_probe_read(enum slub_probe_site site, struct slub_probe_stats *out)
{
	struct slub_probe_counters *c;

	memset(out, 0, sizeof(*out));
	if (WARN_ON_ONCE((unsigned int)site >= NR_SLUB_PROBE_SITES))
		return;
	c = &slub_probe_counts[site];
	out->calls = atomic_long_read(&c->calls);
	out->irqs_off = atomic_long_read(&c->irqs_off);
	out->preempt_off = atomic_long_read(&c->preempt_off);
	out->hardirq = atomic_long_read(&c->hardirq);
}

void slub_probe_reset(void)
{
	for (unsigned int i = 0; i < NR_SLUB_PROBE_SITES; i++) {
		atomic_long_set(&slub_probe_counts[i].calls, 0);
		atomic_long_set(&slub_probe_counts[i].irqs_off, 0);
		atomic_long_set(&slub_probe_counts[i].preempt_off, 0);
		atomic_long_set(&slub_probe_counts[i].hardirq, 0);
	}
}
