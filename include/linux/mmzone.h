/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_MMZONE_H
#define _LINUX_MMZONE_H

/*
 * Nodes, zones, free areas and per-CPU page lists, shaped like Linux 5.14
 * after the per-CPU list local_lock conversion.
 *
 * Each NUMA node (from the SRAT; node 0 holds everything without one) has
 * up to two zones: ZONE_DMA32 below 4 GiB and ZONE_NORMAL above.  A zone
 * keeps a buddy allocator of orders 0..MAX_ORDER-1 under zone->lock and
 * per-CPU lists of orders 0..PAGE_ALLOC_COSTLY_ORDER, protected by the
 * CPU's pagesets.lock (a local_lock taken with local_lock_irqsave).
 *
 * One migrate type: irqlab has no page mobility grouping (no compaction
 * or reclaim to serve), so free_list[] and the per-CPU lists are indexed
 * by MIGRATE_UNMOVABLE only; the arrays keep Linux's shape.
 */
#include <linux/types.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/atomic.h>
#include <linux/bitmap.h>
#include <linux/percpu.h>
#include <linux/wait.h>

#define MAX_ORDER		11
#define MAX_ORDER_NR_PAGES	(1UL << (MAX_ORDER - 1))
#define PAGE_ALLOC_COSTLY_ORDER	3
#define pageblock_order		(MAX_ORDER - 1)

#define NODES_SHIFT		4
#define MAX_NUMNODES		(1 << NODES_SHIFT)
#ifndef NUMA_NO_NODE
#define NUMA_NO_NODE		(-1)
#endif

enum migratetype {
	MIGRATE_UNMOVABLE,
	MIGRATE_TYPES
};
#define MIGRATE_PCPTYPES	MIGRATE_TYPES

struct free_area {
	struct list_head free_list[MIGRATE_TYPES];
	unsigned long nr_free;		/* blocks of this order */
};

enum zone_stat_item {
	NR_FREE_PAGES,			/* pages in the buddy lists */
	NR_VM_ZONE_STAT_ITEMS
};

enum zone_watermarks {
	WMARK_MIN,
	WMARK_LOW,
	WMARK_HIGH,
	NR_WMARK
};

#define min_wmark_pages(z)	((z)->_watermark[WMARK_MIN])
#define low_wmark_pages(z)	((z)->_watermark[WMARK_LOW])
#define high_wmark_pages(z)	((z)->_watermark[WMARK_HIGH])
#define wmark_pages(z, i)	((z)->_watermark[i])

/* One list per (order, migratetype) for orders 0..PAGE_ALLOC_COSTLY_ORDER. */
#define NR_PCP_LISTS		(MIGRATE_PCPTYPES * (PAGE_ALLOC_COSTLY_ORDER + 1))

struct per_cpu_pages {
	int count;		/* pages on the lists (order-weighted) */
	int high;		/* free back to the buddy at this count */
	int batch;		/* pages moved to/from the buddy at once */
	short free_factor;	/* batch scaling while only frees happen */
	struct list_head lists[NR_PCP_LISTS];
};

enum zone_type {
	ZONE_DMA32,		/* below 4 GiB */
	ZONE_NORMAL,
	__MAX_NR_ZONES
};
#define MAX_NR_ZONES		__MAX_NR_ZONES
#define ZONES_SHIFT		2

/* Keep the lock and the free lists off the read-mostly cache lines. */
struct zone_padding {
	char x[0];
} __aligned(64);
#define ZONE_PADDING(name)	struct zone_padding name;

struct pglist_data;

struct zone {
	/* read-mostly */
	unsigned long _watermark[NR_WMARK];
	/* pages kept free from allocations that could use a higher zone */
	long lowmem_reserve[MAX_NR_ZONES];
	int node;
	struct pglist_data *zone_pgdat;
	struct per_cpu_pages __percpu *per_cpu_pageset;
	int pageset_high;
	int pageset_batch;

	unsigned long zone_start_pfn;
	unsigned long spanned_pages;	/* end - start, holes included */
	unsigned long present_pages;	/* RAM in the span */
	atomic64_t managed_pages;	/* handed to the buddy allocator */
	const char *name;

	ZONE_PADDING(_pad1_)
	spinlock_t lock;
	struct free_area free_area[MAX_ORDER];
	unsigned long flags;

	ZONE_PADDING(_pad2_)
	atomic64_t vm_stat[NR_VM_ZONE_STAT_ITEMS];
} __aligned(64);

enum {
	ZONELIST_FALLBACK,	/* this node's zones, then the other nodes' */
	ZONELIST_NOFALLBACK,	/* this node only (__GFP_THISNODE) */
	MAX_ZONELISTS
};

struct zoneref {
	struct zone *zone;
	int zone_idx;
};

#define MAX_ZONES_PER_ZONELIST	(MAX_NUMNODES * MAX_NR_ZONES)

/* Highest zone first within a node, nodes in preference order; NULL-terminated. */
struct zonelist {
	struct zoneref _zonerefs[MAX_ZONES_PER_ZONELIST + 1];
};

typedef struct pglist_data {
	struct zone node_zones[MAX_NR_ZONES];
	struct zonelist node_zonelists[MAX_ZONELISTS];
	int nr_zones;			/* highest populated zone + 1 */
	unsigned long node_start_pfn;
	unsigned long node_present_pages;
	unsigned long node_spanned_pages;
	int node_id;
	unsigned int nr_cpus;		/* possible CPUs on this node */

	/* Background reclaim (mm/vmscan.c). */
	wait_queue_head_t kswapd_wait;	/* kswapd sleeps here */
	struct task_struct *kswapd;
	int kswapd_order;		/* largest order a waker asked for */
	enum zone_type kswapd_highest_zoneidx;	/* MAX_NR_ZONES: none asked */
	int kswapd_failures;		/* balance_pgdat() runs that freed nothing */
} pg_data_t;

extern struct pglist_data *node_data[MAX_NUMNODES];
#define NODE_DATA(nid)		(node_data[nid])

typedef struct {
	DECLARE_BITMAP(bits, MAX_NUMNODES);
} nodemask_t;

extern nodemask_t node_online_map;
extern unsigned int nr_online_nodes;
#define node_online(nid)	test_bit((nid), node_online_map.bits)
#define for_each_online_node(nid)					\
	for_each_set_bit((nid), node_online_map.bits, MAX_NUMNODES)

/* Every zone of every online node, populated or not (mm/mm_init.c). */
struct zone *first_zone(void);
struct zone *next_zone(struct zone *zone);
#define for_each_zone(zone)						\
	for ((zone) = first_zone(); (zone); (zone) = next_zone(zone))

#define for_each_populated_zone(zone)					\
	for_each_zone(zone)						\
		if (!populated_zone(zone))				\
			; /* skip */					\
		else

static inline bool populated_zone(const struct zone *zone)
{
	return zone->present_pages != 0;
}

static inline bool managed_zone(struct zone *zone)
{
	return atomic64_read(&zone->managed_pages) != 0;
}

static inline unsigned long zone_managed_pages(struct zone *zone)
{
	return atomic64_read(&zone->managed_pages);
}

static inline unsigned long zone_end_pfn(const struct zone *zone)
{
	return zone->zone_start_pfn + zone->spanned_pages;
}

static inline bool zone_spans_pfn(const struct zone *zone, unsigned long pfn)
{
	return zone->zone_start_pfn <= pfn && pfn < zone_end_pfn(zone);
}

static inline int zone_idx(const struct zone *zone)
{
	return zone - zone->zone_pgdat->node_zones;
}

static inline int zone_to_nid(const struct zone *zone)
{
	return zone->node;
}

static inline unsigned long zone_page_state(struct zone *zone, enum zone_stat_item item)
{
	long x = atomic64_read(&zone->vm_stat[item]);

	return x < 0 ? 0 : x;
}

/* Zonelist walking: the zones at or below @highest_zoneidx. */
#define for_each_zone_zonelist(zone, z, zlist, highidx)			\
	for ((z) = (zlist)->_zonerefs; ((zone) = (z)->zone) != NULL; (z)++)\
		if ((z)->zone_idx > (highidx))				\
			; /* skip */					\
		else

bool zone_watermark_ok(struct zone *zone, unsigned int order, unsigned long mark,
		       int highest_zoneidx, unsigned int alloc_flags);
/*
 * Linux's variant that reads the exact free count instead of the per-CPU
 * vmstat estimate; irqlab's NR_FREE_PAGES is always exact, so the two agree.
 */
bool zone_watermark_ok_safe(struct zone *zone, unsigned int order, unsigned long mark,
			    int highest_zoneidx);

/* Node of a CPU (linux/topology.h in Linux), set up with the per-CPU areas. */
DECLARE_PER_CPU(int, numa_node);

static inline int numa_node_id(void)
{
	return this_cpu_read(numa_node);
}

static inline int cpu_to_node(int cpu)
{
	return per_cpu(numa_node, cpu);
}

static inline void set_cpu_numa_node(int cpu, int node)
{
	per_cpu(numa_node, cpu) = node;
}

#endif /* _LINUX_MMZONE_H */
