/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_VMSTAT_H
#define _LINUX_VMSTAT_H

/*
 * Reclaim's event counters (Linux's vm_event_item.h and vmstat.h, the
 * reclaim part): per-CPU, bumped without interrupts off, summed when read.
 * The names are /proc/vmstat's.  There is no LRU here, so pgscan_* and
 * pgsteal_* (LRU pages) would always be 0 and are left out; the pages
 * reclaim got back from shrinkers and slab caches (Linux adds them to
 * sc->nr_reclaimed through reclaim_state without counting them anywhere)
 * are irqlab's slab_reclaim_* counters, and kswapd_wake counts the wakeups
 * wakeup_kswapd() issued, which Linux only traces.
 */
#include <linux/types.h>
#include <linux/percpu.h>
#include <linux/mmzone.h>

enum vm_event_item {
	ALLOCSTALL_DMA32,		/* direct reclaim entered, per zone */
	ALLOCSTALL_NORMAL,
	SLABS_SCANNED,			/* objects shrinkers were asked to scan */
	KSWAPD_LOW_WMARK_HIT_QUICKLY,
	KSWAPD_HIGH_WMARK_HIT_QUICKLY,
	PAGEOUTRUN,			/* balance_pgdat() runs */
	KSWAPD_WAKE,			/* irqlab: wakeups wakeup_kswapd() issued */
	SLAB_RECLAIM_KSWAPD,		/* irqlab: pages kswapd got back */
	SLAB_RECLAIM_DIRECT,		/* irqlab: pages direct reclaim got back */
	NR_VM_EVENT_ITEMS
};
#define ALLOCSTALL_FIRST	ALLOCSTALL_DMA32

struct vm_event_state {
	unsigned long event[NR_VM_EVENT_ITEMS];
};

DECLARE_PER_CPU(struct vm_event_state, vm_event_states);

static inline void count_vm_event(enum vm_event_item item)
{
	this_cpu_inc(vm_event_states.event[item]);
}

static inline void count_vm_events(enum vm_event_item item, long delta)
{
	this_cpu_add(vm_event_states.event[item], delta);
}

/* The per-zone events, ALLOCSTALL_<zone>. */
static inline void __count_zid_vm_events(enum vm_event_item item, int zid, long delta)
{
	this_cpu_add(vm_event_states.event[item + zid], delta);
}

/* Every CPU's counts summed, into @ret[NR_VM_EVENT_ITEMS]. */
void all_vm_events(unsigned long *ret);
/* A dead CPU's counts added to this CPU's and cleared (CPU hotplug). */
void vm_events_fold_cpu(int cpu);
extern const char *const vm_event_names[NR_VM_EVENT_ITEMS];
/*
 * The counters in /proc/vmstat's "name value" form on one line, and as
 * one record: {"type":"vmstat","allocstall_dma32":..,...}.
 */
void vmstat_reclaim_report(void);
/* The same at the end of a run (init), if kswapd or direct reclaim ran. */
void vmstat_report_at_end(void);

#endif /* _LINUX_VMSTAT_H */
