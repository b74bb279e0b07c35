/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _MM_INTERNAL_H
#define _MM_INTERNAL_H

/* What the page allocator's files share among themselves (not an API). */
#include <linux/mm.h>

/* alloc_flags: which watermark, and how far below min an allocation may go. */
#define ALLOC_WMARK_MIN		WMARK_MIN
#define ALLOC_WMARK_LOW		WMARK_LOW
#define ALLOC_WMARK_HIGH	WMARK_HIGH
#define ALLOC_NO_WATERMARKS	0x04
#define ALLOC_WMARK_MASK	(ALLOC_NO_WATERMARKS - 1)
#define ALLOC_HARDER		0x10	/* __GFP_ATOMIC: a quarter further */
#define ALLOC_HIGH		0x20	/* __GFP_HIGH: down to min/2 */
#define ALLOC_KSWAPD		0x800	/* wake kswapd: __GFP_KSWAPD_RECLAIM's value */

/* Reclaim rounds without progress before an allocation or kswapd gives up. */
#define MAX_RECLAIM_RETRIES	16

static inline enum zone_type gfp_zone(gfp_t flags)
{
	/* No ZONE_DMA: __GFP_DMA gets the lowest zone there is. */
	return (flags & (__GFP_DMA32 | __GFP_DMA)) ? ZONE_DMA32 : ZONE_NORMAL;
}

struct alloc_context {
	struct zonelist *zonelist;
	struct zoneref *preferred_zoneref;
	int migratetype;
	enum zone_type highest_zoneidx;
};

/* fpi_t: how a block is put back on the free lists. */
typedef unsigned int fpi_t;
#define FPI_NONE		0x0
#define FPI_TO_TAIL		0x2	/* cold: at the tail of its free list */

/* mm/page_alloc_debug.c: checks on the way in and out of the free lists */
void bad_page(struct page *page, const char *reason);
bool free_page_is_bad_report(struct page *page);
bool check_new_page_bad(struct page *page);
int free_tail_pages_check(struct page *head_page, struct page *page);
void kernel_poison_pages(struct page *page, int numpages);
void kernel_unpoison_pages(struct page *page, int numpages);
bool page_alloc_ratelimit(void);
void warn_alloc(gfp_t gfp_mask, const char *fmt, ...) __printf(2, 3);
/* Who is running: "swapper/<cpu>" until there are tasks. */
const char *current_comm(char *buf, size_t size);
extern bool _page_poisoning_enabled;

/* A page that may go on or come off a free list: the cheap test. */
static inline bool page_expected_state(struct page *page, unsigned long check_flags)
{
	int mapcount = atomic_read(&page->_mapcount);

	if (unlikely(mapcount != -1))
		return false;
	if (unlikely((unsigned long)page->mapping | page_ref_count(page) |
		     page->memcg_data | (page->flags & check_flags)))
		return false;
	return true;
}

/* On the way to the free lists: reported (and leaked) if not a clean page. */
static inline bool free_page_is_bad(struct page *pg)
{
	if (likely(page_expected_state(pg, PAGE_FLAGS_CHECK_AT_FREE)))
		return false;
	return free_page_is_bad_report(pg);
}

/* Coming off the free lists: a free page nobody may have touched. */
static inline bool check_new_page(struct page *page)
{
	if (likely(page_expected_state(page, PAGE_FLAGS_CHECK_AT_PREP)))
		return false;
	return check_new_page_bad(page);
}

/* mm/page_alloc.c: the buddy lists */
void __free_pages_core(struct page *page, unsigned int order);
void __free_one_page(struct page *page, unsigned long pfn, struct zone *zone,
		     unsigned int order, int migratetype, fpi_t fpi_flags);
int rmqueue_bulk(struct zone *zone, unsigned int order, unsigned long count,
		 struct list_head *list, int migratetype, unsigned int alloc_flags);
bool check_new_pages(struct page *page, unsigned int order);
bool free_pages_prepare(struct page *page, unsigned int order);
void setup_per_zone_wmarks(void);

/* mm/page_alloc_pcp.c: the per-CPU lists */
static inline bool pcp_allowed_order(unsigned int ord)
{
	return ord <= PAGE_ALLOC_COSTLY_ORDER;
}

struct page *rmqueue_pcplist(struct zone *preferred_zone, struct zone *zone,
			     unsigned int order, gfp_t gfp_flags, int migratetype,
			     unsigned int alloc_flags);
void setup_zone_pageset(struct zone *zone);
void zone_set_pageset_high_and_batch(struct zone *zone);

#ifdef CONFIG_DEBUG_VM
#define VM_BUG_ON(cond)		BUG_ON(cond)
#define VM_BUG_ON_PAGE(cond, page)					\
	do {								\
		if (unlikely(cond)) {					\
			dump_page(page, "VM_BUG_ON_PAGE(" #cond ")");	\
			BUG();						\
		}							\
	} while (0)
#define VM_WARN_ON(cond)	WARN_ON(cond)
#else
#define VM_BUG_ON(cond)		do { (void)sizeof(cond); } while (0)
#define VM_BUG_ON_PAGE(cond, page) do { (void)sizeof(cond); (void)(page); } while (0)
#define VM_WARN_ON(cond)	do { (void)sizeof(cond); } while (0)
#endif

#endif /* _MM_INTERNAL_H */
