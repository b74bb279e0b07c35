/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_MM_H
#define _LINUX_MM_H

/*
 * Pages: struct page <-> pfn <-> direct-map address, reference counts,
 * compound pages, and the page allocator's boot entry point.
 *
 * The memory model is Linux's SPARSEMEM_VMEMMAP: struct page for pfn N is
 * vmemmap[N], a virtual array at VMEMMAP_START whose backing is mapped
 * only for the pfn ranges that exist (rounded out to MAX_ORDER blocks, so
 * a buddy's descriptor is always readable).  pfn_valid() says whether a
 * pfn has a descriptor.
 */
#include <linux/kernel.h>
#include <linux/atomic.h>
#include <linux/mm_types.h>
#include <linux/page-flags.h>
#include <linux/mmzone.h>
#include <linux/gfp.h>
#include <asm/page.h>

#define vmemmap			((struct page *)VMEMMAP_START)
#define pfn_to_page(pfn)	(vmemmap + (pfn))
#define page_to_pfn(page)	((unsigned long)((page) - vmemmap))

#define virt_to_pfn(kaddr)	PFN_DOWN(__pa(kaddr))
#define virt_to_page(kaddr)	pfn_to_page(virt_to_pfn(kaddr))
#define page_to_virt(page)	__va(PFN_PHYS(page_to_pfn(page)))
#define page_address(page)	((void *)page_to_virt(page))
#define page_to_phys(page)	PFN_PHYS(page_to_pfn(page))
#define lowmem_page_address(page) page_address(page)

bool pfn_valid(unsigned long pfn);
/* A direct-map address with a struct page behind it. */
bool virt_addr_valid(const void *kaddr);

static inline struct page *virt_to_head_page(const void *x)
{
	return compound_head(virt_to_page(x));
}

/* Node and zone live in the top bits of page->flags. */
#define NODES_PGSHIFT		(BITS_PER_LONG - NODES_SHIFT)
#define ZONES_PGSHIFT		(NODES_PGSHIFT - ZONES_SHIFT)
#define NODES_MASK		((1UL << NODES_SHIFT) - 1)
#define ZONES_MASK		((1UL << ZONES_SHIFT) - 1)

static inline enum zone_type page_zonenum(const struct page *page)
{
	return (page->flags >> ZONES_PGSHIFT) & ZONES_MASK;
}

static inline int page_to_nid(const struct page *page)
{
	return (page->flags >> NODES_PGSHIFT) & NODES_MASK;
}

/* One number per (node, zone): buddies merge only within it. */
static inline int page_zone_id(const struct page *page)
{
	return page->flags >> ZONES_PGSHIFT;
}

static inline struct zone *page_zone(const struct page *page)
{
	return &NODE_DATA(page_to_nid(page))->node_zones[page_zonenum(page)];
}

static inline pg_data_t *page_pgdat(const struct page *page)
{
	return NODE_DATA(page_to_nid(page));
}

static inline void set_page_links(struct page *page, enum zone_type zone, int nid)
{
	page->flags &= ~((NODES_MASK << NODES_PGSHIFT) | (ZONES_MASK << ZONES_PGSHIFT));
	page->flags |= ((unsigned long)nid & NODES_MASK) << NODES_PGSHIFT |
		       ((unsigned long)zone & ZONES_MASK) << ZONES_PGSHIFT;
}

/* ---------------------------------------------------------- refcounts */

static inline int page_ref_count(const struct page *page)
{
	return atomic_read(&page->_refcount);
}

static inline void set_page_count(struct page *page, int v)
{
	atomic_set(&page->_refcount, v);
}

static inline void init_page_count(struct page *page)
{
	set_page_count(page, 1);
}

static inline void page_ref_add(struct page *page, int nr)
{
	atomic_add(nr, &page->_refcount);
}

static inline void page_ref_sub(struct page *page, int nr)
{
	atomic_sub(nr, &page->_refcount);
}

static inline void page_ref_inc(struct page *page)
{
	atomic_inc(&page->_refcount);
}

static inline void page_ref_dec(struct page *page)
{
	atomic_dec(&page->_refcount);
}

static inline bool page_ref_dec_and_test(struct page *page)
{
	return atomic_dec_and_test(&page->_refcount);
}

static inline bool page_ref_sub_and_test(struct page *page, int nr)
{
	return atomic_sub_return(nr, &page->_refcount) == 0;
}

static inline bool put_page_testzero(struct page *page)
{
	return page_ref_dec_and_test(page);
}

static inline bool get_page_unless_zero(struct page *page)
{
	int old = page_ref_count(page);

	do {
		if (!old)
			return false;
	} while (!atomic_try_cmpxchg(&page->_refcount, &old, old + 1));
	return true;
}

static inline int page_count(const struct page *page)
{
	return page_ref_count(compound_head(page));
}

static inline int page_mapcount(const struct page *page)
{
	return atomic_read(&page->_mapcount) + 1;
}

static inline void page_mapcount_reset(struct page *page)
{
	atomic_set(&page->_mapcount, -1);
}

static inline unsigned long page_private(const struct page *page)
{
	return page->private;
}

static inline void set_page_private(struct page *page, unsigned long v)
{
	page->private = v;
}

/* ---------------------------------------------------------- compound pages */

/* Tails' ->mapping: neither NULL nor a valid pointer, as in Linux. */
#define TAIL_MAPPING		((struct address_space *)0x400)

enum compound_dtor_id {
	NULL_COMPOUND_DTOR,
	COMPOUND_PAGE_DTOR,
	NR_COMPOUND_DTORS,
};

static inline unsigned int compound_order(const struct page *page)
{
	if (!PageHead(page))
		return 0;
	return page[1].compound_order;
}

static inline unsigned long compound_nr(const struct page *page)
{
	if (!PageHead(page))
		return 1;
	return page[1].compound_nr;
}

static inline unsigned long page_size(const struct page *page)
{
	return PAGE_SIZE << compound_order(page);
}

void prep_compound_page(struct page *page, unsigned int order);

/* Free a page whose last reference went away (order from the page). */
void __put_page(struct page *page);

static inline void get_page(struct page *page)
{
	page = compound_head(page);
	WARN_ON(page_ref_count(page) <= 0);
	page_ref_inc(page);
}

static inline void put_page(struct page *page)
{
	page = compound_head(page);
	if (put_page_testzero(page))
		__put_page(page);
}

/* Smallest order whose block holds @size bytes. */
static inline int get_order(unsigned long size)
{
	if (size <= PAGE_SIZE)
		return 0;
	return fls64((size - 1) >> PAGE_SHIFT);
}

/* ---------------------------------------------------------- the allocator */

/* Set once mm_init() has handed memblock's memory to the buddy allocator. */
extern int after_bootmem;

void mm_init(void);
/* After workqueue_init(): drain_all_pages() may use per-CPU work items. */
void init_mm_internals(void);
/* memblock_alloc_try_nid() in Linux: boot memory on @nid if it has room. */
phys_addr_t memblock_phys_alloc_try_nid(phys_addr_t size, phys_addr_t align, int nid);
unsigned long totalram_pages(void);
unsigned long nr_free_pages(void);
/* Console report of free memory per node, zone and order (Linux's Mem-Info). */
void show_free_areas(void);
/* The same as machine records (DESIGN 8), one per populated zone. */
void meminfo_records(void);
/*
 * What the kernel itself holds of RAM, split into what grows with RAM
 * (memory map, page tables) and with CPUs (per-CPU areas), plus slab:
 * one line and one "mem_used" record (Documentation/scale.md).
 */
void mem_used_report(void);
/* struct page descriptors in the memory map (one per page frame it covers). */
unsigned long memmap_pages(void);
/* Page-table pages of the kernel's map (arch/x86/mm/init.c). */
unsigned long kernel_pgtable_pages(void);
void dump_page(struct page *page, const char *reason);
/* "slab|head|node=0|zone=1": the flags set in @flags, then node and zone. */
void format_page_flags(char *buf, size_t size, unsigned long flags);
/* Page poisoning (CONFIG_PAGE_POISONING, enabled with page_poison=1). */
bool page_poisoning_enabled(void);

/* Allocator-internal state for tests and reports (mm/page_alloc.c). */
struct zone *first_populated_zone(void);
int pcp_count(struct zone *zone, int cpu);

#endif /* _LINUX_MM_H */
