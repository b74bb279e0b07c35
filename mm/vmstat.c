// SPDX-License-Identifier: GPL-2.0
/*
 * Reclaim's event counters (the vm_event part of Linux's mm/vmstat.c):
 * one array per CPU, summed over the possible CPUs when read.
 */
#include <linux/vmstat.h>
#include <linux/cpumask.h>
#include <linux/printk.h>
#include <linux/record.h>
#include <linux/kernel.h>
#include <linux/string.h>

DEFINE_PER_CPU(struct vm_event_state, vm_event_states);

const char *const vm_event_names[NR_VM_EVENT_ITEMS] = {
	[ALLOCSTALL_DMA32]		= "allocstall_dma32",
	[ALLOCSTALL_NORMAL]		= "allocstall_normal",
	[SLABS_SCANNED]			= "slabs_scanned",
	[KSWAPD_LOW_WMARK_HIT_QUICKLY]	= "kswapd_low_wmark_hit_quickly",
	[KSWAPD_HIGH_WMARK_HIT_QUICKLY]	= "kswapd_high_wmark_hit_quickly",
	[PAGEOUTRUN]			= "pageoutrun",
	[KSWAPD_WAKE]			= "kswapd_wake",
	[SLAB_RECLAIM_KSWAPD]		= "slab_reclaim_kswapd",
	[SLAB_RECLAIM_DIRECT]		= "slab_reclaim_direct",
};

void all_vm_events(unsigned long *ret)
{
	int cpu;

	memset(ret, 0, NR_VM_EVENT_ITEMS * sizeof(*ret));
	for_each_possible_cpu(cpu) {
		struct vm_event_state *this = &per_cpu(vm_event_states, cpu);

		for (int i = 0; i < NR_VM_EVENT_ITEMS; i++)
			ret[i] += READ_ONCE(this->event[i]);
	}
}

/*
 * @cpu is dead: its events move to this CPU, so that the sums stay right
 * and a CPU brought up again starts from zero.  irqlab keeps no per-CPU
 * zone or node stat diffs (Linux's vm_stat_diff), so there is nothing
 * for a CPUHP_MM_VMSTAT_DEAD callback to fold.
 */
void vm_events_fold_cpu(int cpu)
{
	struct vm_event_state *fold_state = &per_cpu(vm_event_states, cpu);

	for (int i = 0; i < NR_VM_EVENT_ITEMS; i++) {
		count_vm_events(i, fold_state->event[i]);
		fold_state->event[i] = 0;
	}
}

/*
 * As many counters as fit in a record go in one; the rest start the next
 * record, so a reader merges the "vmstat" records of a report.
 */
static void vmstat_records(const unsigned long *ev)
{
	char json[RECORD_MAX_JSON + 1];
	size_t j = 0;

	for (int i = 0; i < NR_VM_EVENT_ITEMS; i++) {
		char item[64];
		int len = snprintf(item, sizeof(item), ",\"%s\":%lu", vm_event_names[i], ev[i]);

		if (j && j + len + 1 > RECORD_MAX_JSON) {
			strcpy(json + j, "}");
			if (record_emit(json) < 0)
				pr_warn("vmstat: a record was refused\n");
			j = 0;
		}
		if (!j)
			j = snprintf(json, sizeof(json), "{\"type\":\"vmstat\"");
		memcpy(json + j, item, len + 1);
		j += len;
	}
	strcpy(json + j, "}");
	if (record_emit(json) < 0)
		pr_warn("vmstat: a record was refused\n");
}

void vmstat_reclaim_report(void)
{
	unsigned long ev[NR_VM_EVENT_ITEMS];
	char line[512];
	size_t n = 0;

	all_vm_events(ev);
	for (int i = 0; i < NR_VM_EVENT_ITEMS && n < sizeof(line); i++)
		n += snprintf(line + n, sizeof(line) - n, "%s%s %lu", i ? " " : "",
			      vm_event_names[i], ev[i]);
	printk_report_enter();
	pr_info("vmstat: %s\n", line);
	vmstat_records(ev);
	printk_report_exit();
}

/* At the end of a run, if reclaim ran at all: what it did. */
void vmstat_report_at_end(void)
{
	unsigned long ev[NR_VM_EVENT_ITEMS];

	all_vm_events(ev);
	if (ev[PAGEOUTRUN] || ev[ALLOCSTALL_DMA32] || ev[ALLOCSTALL_NORMAL])
		vmstat_reclaim_report();
}
