// SPDX-License-Identifier: GPL-2.0
/*
 * SLUB scope probes (CONFIG_SLUB_SCOPE_PROBE, test builds only).
 *
 * Both ports call slub_probe(s, site) at the places whose context the
 * scope tests (test/slub_scope_test.c) check: entry to the page allocator
 * and back into it, the CPU slab flush, deactivate_slab()'s freelist
 * walk, the unfreezing of CPU partial slabs, slub_cpu_dead(), the
 * allocation slow path and its c->freelist store, get_partial_node()
 * under list_lock, the put_cpu_partial() push, the bulk allocation loop
 * and __slab_free().  Each call is counted per site
 * together with the context it ran in:
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
 * CPUs may still be allocating.  slub_probe_watch() narrows the counting
 * to one cache, so that another task's allocations (a worker, an RCU
 * callback freeing a slab) cannot mix into a test's figures.
 *
 * A probe only reads the context: it never changes the interrupt or
 * preemption state it reports, and the atomics take no lock.
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
/* Count only this cache's calls; NULL: every cache's. */
static struct kmem_cache *slub_probe_cache;

void slub_probe(struct kmem_cache *s, enum slub_probe_site site)
{
	struct slub_probe_counters *c;
	struct kmem_cache *only = READ_ONCE(slub_probe_cache);

	if (WARN_ON_ONCE((unsigned int)site >= NR_SLUB_PROBE_SITES))
		return;
	if (only && only != s)
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

static void slub_probe_zero(void)
{
	for (unsigned int i = 0; i < NR_SLUB_PROBE_SITES; i++) {
		atomic_long_set(&slub_probe_counts[i].calls, 0);
		atomic_long_set(&slub_probe_counts[i].irqs_off, 0);
		atomic_long_set(&slub_probe_counts[i].preempt_off, 0);
		atomic_long_set(&slub_probe_counts[i].hardirq, 0);
	}
}

void slub_probe_reset(void)
{
	WRITE_ONCE(slub_probe_cache, NULL);
	slub_probe_zero();
}

void slub_probe_watch(struct kmem_cache *s)
{
	/* Narrow first: nothing of another cache lands after the zeroing. */
	WRITE_ONCE(slub_probe_cache, s);
	slub_probe_zero();
}

/* ------------------------------------------------------- test windows */

struct kmem_cache *slub_window_cache;
static slub_window_fn slub_window_cb;
static atomic_long_t slub_window_count[NR_SLUB_WINDOWS];

void __slub_window(struct kmem_cache *s, enum slub_window_site w)
{
	slub_window_fn fn = READ_ONCE(slub_window_cb);

	if (WARN_ON_ONCE((unsigned int)w >= NR_SLUB_WINDOWS))
		return;
	atomic_long_inc(&slub_window_count[w]);
	if (fn)
		fn(s, w);
}

void slub_window_set(struct kmem_cache *s, slub_window_fn fn)
{
	/* Callback first: a caller that sees the cache finds it set. */
	WRITE_ONCE(slub_window_cache, NULL);
	WRITE_ONCE(slub_window_cb, fn);
	/* Counts restart with each watch and stay readable after it. */
	for (unsigned int i = 0; fn && i < NR_SLUB_WINDOWS; i++)
		atomic_long_set(&slub_window_count[i], 0);
	smp_wmb();
	WRITE_ONCE(slub_window_cache, fn ? s : NULL);
}

unsigned long slub_window_calls(enum slub_window_site w)
{
	if (WARN_ON_ONCE((unsigned int)w >= NR_SLUB_WINDOWS))
		return 0;
	return atomic_long_read(&slub_window_count[w]);
}
