// SPDX-License-Identifier: GPL-2.0
/*
 * Bringing up the page allocator (mm_init(), called once from
 * start_kernel() with one CPU up; pid 1 starts the others later):
 *
 *  1. memblock's RAM is cut into spans of one node and one zone: nodes from
 *     the SRAT (everything on node 0 without one), ZONE_DMA32 below 4 GiB,
 *     ZONE_NORMAL above;
 *  2. the memory map: struct pages at VMEMMAP_START for every span rounded
 *     out to whole MAX_ORDER blocks, backed by memblock memory on the
 *     span's node; every page starts PG_reserved with one reference;
 *  3. zones, zonelists, the dynamic per-CPU allocator, and the zones'
 *     per-CPU page lists (allocated from it);
 *  4. memblock_free_all(): every free memblock range goes to the buddy
 *     allocator in the largest aligned blocks; what memblock had reserved
 *     stays PG_reserved for good.  From here on memblock allocations fail
 *     (current limit 0) and page tables come from the page allocator;
 *  5. watermarks, lowmem reserves and per-CPU list sizes, then vmalloc.
 */
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/memblock.h>
#include <linux/acpi.h>
#include <linux/vmalloc.h>
#include <asm/pgtable.h>
#include "internal.h"

DEFINE_PER_CPU(int, numa_node);

static struct pglist_data node_data_storage[MAX_NUMNODES];
struct pglist_data *node_data[MAX_NUMNODES];
nodemask_t node_online_map;
unsigned int nr_online_nodes;
int after_bootmem;

static const char *const zone_names[MAX_NR_ZONES] = { "DMA32", "Normal" };

#define PFN_4G			(SZ_4G >> PAGE_SHIFT)
#define MAX_MEM_SPANS		(2 * INIT_MEMBLOCK_REGIONS)

/* RAM of one node and one zone, pfns [start_pfn, end_pfn). */
struct mem_span {
	unsigned long start_pfn, end_pfn;
	int nid;
	enum zone_type zid;
};

static struct mem_span mem_spans[MAX_MEM_SPANS];
static unsigned int nr_mem_spans;

/* pfns with a struct page: the spans rounded out to MAX_ORDER blocks. */
static struct {
	unsigned long start_pfn, end_pfn;
} memmap_ranges[MAX_MEM_SPANS];
static unsigned int nr_memmap_ranges;

bool pfn_valid(unsigned long pfn)
{
	for (unsigned int i = 0; i < nr_memmap_ranges; i++)
		if (pfn >= memmap_ranges[i].start_pfn && pfn < memmap_ranges[i].end_pfn)
			return true;
	return false;
}

bool virt_addr_valid(const void *kaddr)
{
	unsigned long va = (unsigned long)kaddr;

	return va >= PAGE_OFFSET && va < PAGE_OFFSET + (1UL << 46) &&
	       pfn_valid(virt_to_pfn(kaddr));
}

/* memblock_alloc_try_nid() in Linux: on @nid's memory if it has room. */
phys_addr_t memblock_phys_alloc_try_nid(phys_addr_t size, phys_addr_t align, int nid)
{
	const struct acpi_srat_info *srat = acpi_get_srat_info();

	for (unsigned int i = 0; srat && nid != NUMA_NO_NODE && i < srat->nr_memblks; i++) {
		const struct acpi_srat_mem_info *m = &srat->memblks[i];
		phys_addr_t pa;

		if (m->node != nid)
			continue;
		pa = memblock_phys_alloc_range(size, align, m->start, m->end);
		if (pa)
			return pa;
	}
	return memblock_phys_alloc(size, align);
}

/* ------------------------------------------------------------ spans */

static int pfn_to_nid_early(unsigned long pfn)
{
	int nid = acpi_numa_node_of_addr(PFN_PHYS(pfn));

	if (nid == NUMA_NO_NODE || nid >= MAX_NUMNODES) {
		pr_warn("NUMA: RAM at %#llx is in no SRAT range; using node 0\n",
			(unsigned long long)PFN_PHYS(pfn));
		return 0;
	}
	return nid;
}

/* The first SRAT range boundary above @pfn, or @limit. */
static unsigned long next_node_boundary(unsigned long pfn, unsigned long limit)
{
	const struct acpi_srat_info *srat = acpi_get_srat_info();

	for (unsigned int i = 0; srat && i < srat->nr_memblks; i++) {
		unsigned long b[2] = { PFN_DOWN(srat->memblks[i].start),
				       PFN_DOWN(srat->memblks[i].end) };

		for (int j = 0; j < 2; j++)
			if (b[j] > pfn && b[j] < limit)
				limit = b[j];
	}
	return limit;
}

static void add_span(unsigned long start, unsigned long end, int nid, enum zone_type zid)
{
	struct mem_span *prev = nr_mem_spans ? &mem_spans[nr_mem_spans - 1] : NULL;

	if (prev && prev->end_pfn == start && prev->nid == nid && prev->zid == zid) {
		prev->end_pfn = end;
		return;
	}
	if (nr_mem_spans == MAX_MEM_SPANS) {
		pr_warn("mm: too many memory spans; [mem %#llx-%#llx] ignored\n",
			(unsigned long long)PFN_PHYS(start), (unsigned long long)PFN_PHYS(end) - 1);
		return;
	}
	mem_spans[nr_mem_spans++] = (struct mem_span){ start, end, nid, zid };
}

static void __init_spans(void)
{
	for (unsigned long i = 0; i < memblock.memory.cnt; i++) {
		struct memblock_region *r = &memblock.memory.regions[i];
		unsigned long s = PFN_UP(r->base), e = PFN_DOWN(r->base + r->size);

		while (s < e) {
			unsigned long end = next_node_boundary(s, e);
			enum zone_type zid = s < PFN_4G ? ZONE_DMA32 : ZONE_NORMAL;

			if (s < PFN_4G && end > PFN_4G)
				end = PFN_4G;
			add_span(s, end, pfn_to_nid_early(s), zid);
			s = end;
		}
	}
	if (!nr_mem_spans)
		panic("mm: no usable RAM");
}

/* ------------------------------------------------------------ memory map */

static void add_memmap_range(unsigned long start, unsigned long end)
{
	unsigned int i = 0;

	/* Sorted and merged: spans come sorted, rounding may make them touch. */
	if (nr_memmap_ranges && memmap_ranges[nr_memmap_ranges - 1].end_pfn >= start) {
		i = nr_memmap_ranges - 1;
		memmap_ranges[i].end_pfn = max(memmap_ranges[i].end_pfn, end);
		return;
	}
	memmap_ranges[nr_memmap_ranges].start_pfn = start;
	memmap_ranges[nr_memmap_ranges++].end_pfn = end;
}

/* Map (zeroed) descriptors for pfns [start, end) from @nid's memory. */
static void vmemmap_populate(unsigned long start, unsigned long end, int nid)
{
	unsigned long va = (unsigned long)pfn_to_page(start);
	unsigned long va_end = (unsigned long)pfn_to_page(end);
	phys_addr_t pa = memblock_phys_alloc_try_nid(va_end - va, PAGE_SIZE, nid);

	if (!pa)
		panic("mm: no memory for the memory map of [mem %#llx-%#llx]",
		      (unsigned long long)PFN_PHYS(start), (unsigned long long)PFN_PHYS(end) - 1);
	for (; va < va_end; va += PAGE_SIZE, pa += PAGE_SIZE) {
		enum pg_level level;

		/* Another node's rounded range got this descriptor page first. */
		if (lookup_address(va, &level))
			continue;
		memset(__va(pa), 0, PAGE_SIZE);
		map_kernel_page(va, pa, PAGE_KERNEL);
	}
}

static void init_single_page(struct page *page, enum zone_type zid, int nid)
{
	memset(page, 0, sizeof(*page));
	init_page_count(page);
	page_mapcount_reset(page);
	set_page_links(page, zid, nid);
	__SetPageReserved(page);
}

/* struct pages behind the memory map, holes in the rounded spans included. */
static unsigned long memmap_nr_pages;

unsigned long memmap_pages(void)
{
	return memmap_nr_pages;
}

static void __init_memory_map(void)
{
	unsigned long populated = 0;

	for (unsigned int i = 0; i < nr_mem_spans; i++) {
		struct mem_span *sp = &mem_spans[i];
		unsigned long s = ALIGN_DOWN(sp->start_pfn, MAX_ORDER_NR_PAGES);
		unsigned long e = ALIGN(sp->end_pfn, MAX_ORDER_NR_PAGES);

		vmemmap_populate(s, e, sp->nid);
		add_memmap_range(s, e);
	}
	/* Holes inside the rounded ranges: reserved forever. */
	for (unsigned int i = 0; i < nr_memmap_ranges; i++)
		for (unsigned long pfn = memmap_ranges[i].start_pfn;
		     pfn < memmap_ranges[i].end_pfn; pfn++)
			init_single_page(pfn_to_page(pfn),
					 pfn < PFN_4G ? ZONE_DMA32 : ZONE_NORMAL,
					 first_zone()->node);
	for (unsigned int i = 0; i < nr_mem_spans; i++) {
		struct mem_span *sp = &mem_spans[i];

		for (unsigned long pfn = sp->start_pfn; pfn < sp->end_pfn; pfn++)
			set_page_links(pfn_to_page(pfn), sp->zid, sp->nid);
	}
	for (unsigned int i = 0; i < nr_memmap_ranges; i++)
		populated += memmap_ranges[i].end_pfn - memmap_ranges[i].start_pfn;
	memmap_nr_pages = populated;
	pr_info("mm: memory map: %lu struct pages (%luK) at %#lx\n", populated,
		(populated * sizeof(struct page)) >> 10, VMEMMAP_START);
}

/* ------------------------------------------------------------ nodes, zones */

struct zone *first_zone(void)
{
	for (int nid = 0; nid < MAX_NUMNODES; nid++)
		if (node_online(nid))
			return NODE_DATA(nid)->node_zones;
	return NULL;
}

struct zone *next_zone(struct zone *zone)
{
	pg_data_t *pgdat = zone->zone_pgdat;

	if (zone < pgdat->node_zones + MAX_NR_ZONES - 1)
		return zone + 1;
	for (int nid = pgdat->node_id + 1; nid < MAX_NUMNODES; nid++)
		if (node_online(nid))
			return NODE_DATA(nid)->node_zones;
	return NULL;
}

struct zone *first_populated_zone(void)
{
	struct zone *zone;

	for_each_populated_zone(zone)
		return zone;
	return NULL;
}

static void __init_nodes_and_zones(void)
{
	int cpu, nid;

	for (unsigned int i = 0; i < nr_mem_spans; i++) {
		struct mem_span *sp = &mem_spans[i];
		pg_data_t *pgdat = &node_data_storage[sp->nid];
		struct zone *zone = &pgdat->node_zones[sp->zid];
		unsigned long pages = sp->end_pfn - sp->start_pfn;

		if (!node_online(sp->nid)) {
			node_data[sp->nid] = pgdat;
			set_bit(sp->nid, node_online_map.bits);
			nr_online_nodes++;
			pgdat->node_id = sp->nid;
			pgdat->node_start_pfn = sp->start_pfn;
			init_waitqueue_head(&pgdat->kswapd_wait);
		}
		if (!zone->present_pages)
			zone->zone_start_pfn = sp->start_pfn;
		zone->spanned_pages = sp->end_pfn - zone->zone_start_pfn;
		zone->present_pages += pages;
		pgdat->node_start_pfn = min(pgdat->node_start_pfn, sp->start_pfn);
		pgdat->node_spanned_pages = max(pgdat->node_start_pfn + pgdat->node_spanned_pages,
						sp->end_pfn) - pgdat->node_start_pfn;
		pgdat->node_present_pages += pages;
		pgdat->nr_zones = max(pgdat->nr_zones, (int)sp->zid + 1);
		pr_info("  node %3d: [mem 0x%016llx-0x%016llx] %s\n", sp->nid,
			(unsigned long long)PFN_PHYS(sp->start_pfn),
			(unsigned long long)PFN_PHYS(sp->end_pfn) - 1, zone_names[sp->zid]);
	}
	for_each_online_node(nid) {
		pg_data_t *pgdat = NODE_DATA(nid);

		for (int z = 0; z < MAX_NR_ZONES; z++) {
			struct zone *zone = &pgdat->node_zones[z];

			zone->name = zone_names[z];
			zone->node = nid;
			zone->zone_pgdat = pgdat;
			spin_lock_init(&zone->lock);
			for (int o = 0; o < MAX_ORDER; o++)
				for (int t = 0; t < MIGRATE_TYPES; t++)
					INIT_LIST_HEAD(&zone->free_area[o].free_list[t]);
		}
	}
	/* A CPU on a node without memory allocates from the first node that has some. */
	for_each_possible_cpu(cpu) {
		nid = cpu_to_node(cpu);
		if (!node_online(nid))
			set_cpu_numa_node(cpu, first_zone()->node);
		NODE_DATA(cpu_to_node(cpu))->nr_cpus++;
	}
}

/*
 * Zonelists in node order: the node's own zones highest first, then each
 * other node's, starting with the next node id (no SLIT distances).
 */
static void build_zonelists(pg_data_t *pgdat)
{
	struct zoneref *fb = pgdat->node_zonelists[ZONELIST_FALLBACK]._zonerefs;
	struct zoneref *nofb = pgdat->node_zonelists[ZONELIST_NOFALLBACK]._zonerefs;

	for (int i = 0; i < MAX_NUMNODES; i++) {
		int nid = (pgdat->node_id + i) % MAX_NUMNODES;

		if (!node_online(nid))
			continue;
		for (int z = MAX_NR_ZONES - 1; z >= 0; z--) {
			struct zone *zone = &NODE_DATA(nid)->node_zones[z];

			if (!populated_zone(zone))
				continue;
			*fb++ = (struct zoneref){ zone, z };
			if (!i)
				*nofb++ = (struct zoneref){ zone, z };
		}
	}
	*fb = (struct zoneref){ NULL, 0 };
	*nofb = (struct zoneref){ NULL, 0 };
}

/* ------------------------------------------------------------ hand-over */

static void __free_pages_memory(unsigned long start, unsigned long end)
{
	while (start < end) {
		unsigned int order = start ? min_t(unsigned long, MAX_ORDER - 1, __ffs(start)) :
				     MAX_ORDER - 1;

		while (start + (1UL << order) > end)
			order--;
		__free_pages_core(pfn_to_page(start), order);
		start += 1UL << order;
	}
}

static unsigned long memblock_free_all(void)
{
	unsigned long before = nr_free_pages();
	phys_addr_t s, e;
	u64 i = 0;

	while (memblock_next_free_range(&memblock, &i, &s, &e)) {
		unsigned long fs = PFN_UP(s), fe = PFN_DOWN(e);

		for (unsigned int k = 0; k < nr_mem_spans; k++) {
			unsigned long a = max(fs, mem_spans[k].start_pfn);
			unsigned long b = min(fe, mem_spans[k].end_pfn);

			if (a < b)
				__free_pages_memory(a, b);
		}
	}
	/* memblock is done: make late users fail loudly instead of corrupting. */
	memblock_set_current_limit(0);
	after_bootmem = 1;
	return nr_free_pages() - before;
}

/*
 * min_free_kbytes = sqrt(16 * RAM in kB), within [128 kB, 256 MB], shared
 * by the zones in proportion to their size; low and high sit 1/4 and 1/2
 * of min above it (at least 0.1% of the zone each).  A lower zone keeps
 * 1/256 of the higher zones' size from allocations that could have used
 * them (lowmem_reserve).
 */
void setup_per_zone_wmarks(void)
{
	unsigned long total = totalram_pages(), kbytes = total << (PAGE_SHIFT - 10);
	unsigned long min_free_kbytes = 1, pages_min;
	struct zone *zone;

	while ((min_free_kbytes + 1) * (min_free_kbytes + 1) <= kbytes * 16)
		min_free_kbytes++;
	min_free_kbytes = clamp(min_free_kbytes, 128UL, 262144UL);
	pages_min = min_free_kbytes >> (PAGE_SHIFT - 10);
	for_each_zone(zone) {
		unsigned long managed = zone_managed_pages(zone);
		unsigned long min = total ? pages_min * managed / total : 0;
		unsigned long step = max(min / 4, managed * 10 / 10000);
		pg_data_t *pgdat = zone->zone_pgdat;

		zone->_watermark[WMARK_MIN] = min;
		zone->_watermark[WMARK_LOW] = min + step;
		zone->_watermark[WMARK_HIGH] = min + 2 * step;
		for (int j = 0; j < MAX_NR_ZONES; j++) {
			unsigned long above = 0;

			for (int k = zone_idx(zone) + 1; k <= j; k++)
				above += zone_managed_pages(&pgdat->node_zones[k]);
			zone->lowmem_reserve[j] = above / 256;
		}
	}
}

unsigned long totalram_pages(void)
{
	unsigned long sum = 0;
	struct zone *zone;

	for_each_zone(zone)
		sum += zone_managed_pages(zone);
	return sum;
}

unsigned long nr_free_pages(void)
{
	unsigned long sum = 0;
	struct zone *zone;

	for_each_zone(zone)
		sum += zone_page_state(zone, NR_FREE_PAGES);
	return sum;
}

static void check_struct_page_layout(void)
{
	BUILD_BUG_ON(sizeof(struct page) != STRUCT_PAGE_SIZE);
	BUILD_BUG_ON(offsetof(struct page, lru) != 8);
	BUILD_BUG_ON(offsetof(struct page, mapping) != 24);
	BUILD_BUG_ON(offsetof(struct page, slab_list) != 8);
	BUILD_BUG_ON(offsetof(struct page, next) != 8);
	BUILD_BUG_ON(offsetof(struct page, pages) != 16);
	BUILD_BUG_ON(offsetof(struct page, pobjects) != 20);
	BUILD_BUG_ON(offsetof(struct page, slab_cache) != 24);
	BUILD_BUG_ON(offsetof(struct page, freelist) != 32);
	BUILD_BUG_ON(offsetof(struct page, counters) != 40);
	BUILD_BUG_ON(offsetof(struct page, compound_head) != 8);
	BUILD_BUG_ON(offsetof(struct page, rcu_head) != 8);
	BUILD_BUG_ON(offsetof(struct page, rcu_head) + sizeof(struct rcu_head) >
		     offsetof(struct page, slab_cache));
	BUILD_BUG_ON(offsetof(struct page, compound_order) != 17);
	BUILD_BUG_ON(offsetof(struct page, compound_nr) != 24);
	BUILD_BUG_ON(offsetof(struct page, _mapcount) != 48);
	BUILD_BUG_ON(offsetof(struct page, _refcount) != 52);
	BUILD_BUG_ON(__alignof__(struct page) != 16);
	BUILD_BUG_ON(NR_PAGEFLAGS > ZONES_PGSHIFT);
	BUILD_BUG_ON(MAX_NUMNODES != ACPI_MAX_NUMNODES);
}

void mm_init(void)
{
	unsigned long total_pages = 0, freed;
	struct zone *zone;
	int nid;

	check_struct_page_layout();
	pr_info("Early memory node ranges\n");
	__init_spans();
	__init_nodes_and_zones();
	__init_memory_map();
	for_each_online_node(nid)
		build_zonelists(NODE_DATA(nid));
	percpu_init();
	for_each_populated_zone(zone)
		setup_zone_pageset(zone);

	freed = memblock_free_all();
	setup_per_zone_wmarks();
	for_each_populated_zone(zone) {
		zone_set_pageset_high_and_batch(zone);
		total_pages += zone_managed_pages(zone);
		pr_info("On node %d, zone %s: [mem 0x%016llx-0x%016llx] %lu pages present, %lu managed, LIFO batch:%d high:%d\n",
			zone_to_nid(zone), zone->name,
			(unsigned long long)PFN_PHYS(zone->zone_start_pfn),
			(unsigned long long)PFN_PHYS(zone_end_pfn(zone)) - 1,
			zone->present_pages, zone_managed_pages(zone),
			zone->pageset_batch, zone->pageset_high);
	}
	pr_info("Built %u zonelists, mobility grouping off.  Total pages: %lu\n",
		nr_online_nodes, total_pages);
	pr_info("Memory: %luK/%lluK available (%lluK reserved); memblock handed over, further memblock allocations fail\n",
		freed << (PAGE_SHIFT - 10),
		(unsigned long long)memblock_phys_mem_size() >> 10,
		((unsigned long long)memblock_phys_mem_size() >> 10) - (freed << (PAGE_SHIFT - 10)));
	vmalloc_init();
	/* The slab allocator: page allocator and per-CPU areas are up. */
	kmem_cache_init();
	show_free_areas();
	meminfo_records();
}
