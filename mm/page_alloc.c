// SPDX-License-Identifier: GPL-2.0
/*
 * The page allocator: a binary buddy allocator per zone, fronted by
 * per-CPU page lists, in the shape of Linux 5.14 after the per-CPU list
 * local_lock conversion.
 *
 * Buddy: a free block of 2^order pages starts at a pfn aligned to its
 * size; its buddy is the block whose pfn differs only in bit @order.  The
 * head page of a free block is PageBuddy with the order in page->private
 * and sits on zone->free_area[order].  Freeing merges a block with its
 * buddy for as long as the buddy is a free block of the same order in the
 * same zone; allocating splits the smallest sufficient block (expand()).
 * Everything here is under zone->lock.
 *
 * Per-CPU lists (mm/page_alloc_pcp.c) sit in front: blocks of order
 * 0..PAGE_ALLOC_COSTLY_ORDER are allocated from and freed to the current
 * CPU's lists, which exchange batches with the buddy lists here.
 *
 * Pages on pcp lists are not free as far as the watermarks go:
 * NR_FREE_PAGES counts what is on the buddy lists, and always equals the
 * sum over orders of nr_free << order.
 */
#include <linux/mm.h>
#include <linux/smp.h>
#include <linux/irqflags.h>
#include <linux/fault-inject.h>
#include <linux/moduleparam.h>
#include <linux/sched/mm.h>
#include <linux/swap.h>
#include <linux/kasan.h>
#include "internal.h"

/* ---------------------------------------------------------------- buddy */

static inline void set_buddy_order(struct page *page, unsigned int ord)
{
	set_page_private(page, ord);
	__SetPageBuddy(page);
}

static inline unsigned int buddy_order(struct page *page)
{
	return page_private(page);
}

static inline unsigned long __find_buddy_pfn(unsigned long pfn, unsigned int order)
{
	return pfn ^ (1UL << order);
}

/*
 * Is @other the free block of @ord that @page would merge with?  Both
 * descriptors exist: a buddy never leaves the MAX_ORDER block, and the
 * memory map covers whole MAX_ORDER blocks.
 */
static inline bool page_is_buddy(struct page *page, struct page *other,
				 unsigned int ord)
{
	return PageBuddy(other) && buddy_order(other) == ord &&
	       page_zone_id(page) == page_zone_id(other);
}

static inline void __mod_zone_freepage_state(struct zone *zone, long nr)
{
	atomic64_add(nr, &zone->vm_stat[NR_FREE_PAGES]);
}

static inline void add_to_free_list(struct page *page, struct zone *z,
				    unsigned int order, int mt)
{
	struct free_area *fa = &z->free_area[order];

	list_add(&page->lru, &fa->free_list[mt]);
	fa->nr_free++;
}

static inline void add_to_free_list_tail(struct page *page, struct zone *z,
					 unsigned int order, int mt)
{
	struct free_area *fa = &z->free_area[order];

	list_add_tail(&page->lru, &fa->free_list[mt]);
	fa->nr_free++;
}

static inline void del_page_from_free_list(struct page *page, struct zone *z,
					   unsigned int order)
{
	list_del(&page->lru);
	__ClearPageBuddy(page);
	set_page_private(page, 0);
	z->free_area[order].nr_free--;
}

/*
 * When the block one order up would be complete as soon as our buddy is
 * freed, keep this block cold (list tail) so it is still there to merge.
 */
static bool buddy_merge_likely(unsigned long pfn, struct page *page, unsigned int order)
{
	unsigned long parent_pfn, other_pfn;

	if (order >= MAX_ORDER - 2)
		return false;
	parent_pfn = pfn & ~((2UL << order) - 1);
	other_pfn = __find_buddy_pfn(parent_pfn, order + 1);
	return page_is_buddy(page, page + (other_pfn - pfn), order + 1);
}

/* Put a block on the free lists, merging it with free buddies. */
void __free_one_page(struct page *page, unsigned long pfn, struct zone *zone,
		     unsigned int order, int mt, fpi_t fpi_flags)
{
	VM_BUG_ON_PAGE(PAGE_FLAGS_CHECK_AT_PREP & page->flags, page);
	VM_BUG_ON_PAGE(pfn & ((1UL << order) - 1), page);
	VM_BUG_ON_PAGE(!zone_spans_pfn(zone, pfn), page);

	__mod_zone_freepage_state(zone, 1L << order);
	while (order < MAX_ORDER - 1) {
		unsigned long buddy_pfn = __find_buddy_pfn(pfn, order);
		struct page *buddy = page + (buddy_pfn - pfn);
		unsigned long combined_pfn;

		if (!page_is_buddy(page, buddy, order))
			break;
		del_page_from_free_list(buddy, zone, order);
		combined_pfn = buddy_pfn & pfn;
		page += combined_pfn - pfn;
		pfn = combined_pfn;
		order++;
	}
	set_buddy_order(page, order);
	if ((fpi_flags & FPI_TO_TAIL) || buddy_merge_likely(pfn, page, order))
		add_to_free_list_tail(page, zone, order, mt);
	else
		add_to_free_list(page, zone, order, mt);
}

/*
 * @page heads a block of order @high taken off the free lists; keep its
 * first 2^low pages and give the upper halves back, largest first.
 */
static inline void expand(struct zone *zone, struct page *page, unsigned int low,
			  unsigned int high, int mt)
{
	unsigned long size = 1UL << high;

	while (high > low) {
		high--;
		size >>= 1;
		add_to_free_list(&page[size], zone, high, mt);
		set_buddy_order(&page[size], high);
	}
}

/* The smallest free block of at least @order, split down to @order. */
static struct page *__rmqueue_smallest(struct zone *zone, unsigned int order,
				       int migratetype)
{
	for (unsigned int cur_order = order; cur_order < MAX_ORDER;
	     cur_order++) {
		struct free_area *area = &zone->free_area[cur_order];
		struct page *page = list_first_entry_or_null(&area->free_list[migratetype],
							     struct page, lru);

		if (!page)
			continue;
		del_page_from_free_list(page, zone, cur_order);
		expand(zone, page, order, cur_order, migratetype);
		return page;
	}
	return NULL;
}

/* One migrate type: no fallback stealing to do. */
static struct page *__rmqueue(struct zone *zone, unsigned int order, int migratetype,
			      unsigned int alloc_flags)
{
	return __rmqueue_smallest(zone, order, migratetype);
}

bool check_new_pages(struct page *page, unsigned int order)
{
	for (unsigned long i = 0; i < (1UL << order); i++)
		if (unlikely(check_new_page(page + i)))
			return true;
	return false;
}

/*
 * Move up to @count blocks of @order from the buddy lists to a pcp list.
 * Interrupts are off (the caller holds pagesets.lock).  A block failing
 * its checks was reported and is left out (leaked), as in Linux.
 */
int rmqueue_bulk(struct zone *zone, unsigned int order, unsigned long count,
		 struct list_head *list, int migratetype, unsigned int alloc_flags)
{
	unsigned long i;
	int allocated = 0;

	spin_lock(&zone->lock);
	for (i = 0; i < count; i++) {
		struct page *page = __rmqueue(zone, order, migratetype, alloc_flags);

		if (unlikely(!page))
			break;
		if (unlikely(check_new_pages(page, order)))
			continue;
		list_add_tail(&page->lru, list);
		allocated++;
	}
	__mod_zone_freepage_state(zone, -(long)(i << order));
	spin_unlock(&zone->lock);
	return allocated;
}

/* Order-0..3 through this CPU's lists, larger blocks straight from the buddy lists. */
static struct page *rmqueue(struct zone *preferred_zone, struct zone *zone,
			    unsigned int order, gfp_t gfp_flags,
			    unsigned int alloc_flags, int mt)
{
	unsigned long flags;
	struct page *page;

	if (likely(pcp_allowed_order(order)))
		return rmqueue_pcplist(preferred_zone, zone, order, gfp_flags,
				       mt, alloc_flags);

	spin_lock_irqsave(&zone->lock, flags);
	do {
		page = __rmqueue(zone, order, mt, alloc_flags);
		if (page)
			__mod_zone_freepage_state(zone, -(1L << order));
	} while (page && check_new_pages(page, order));
	spin_unlock_irqrestore(&zone->lock, flags);
	return page;
}

/* ----------------------------------------------------------------- free */

/*
 * Check a block on its way to the free lists and reset it.  A failing
 * page was reported by bad_page(); the whole block is then kept off the
 * free lists (leaked), as Linux does, so one corrupt descriptor cannot
 * corrupt the allocator.
 */
bool free_pages_prepare(struct page *page, unsigned int order)
{
	int bad = 0;

	if (unlikely(order)) {
		bool compound = PageCompound(page);

		for (unsigned long i = 1; i < (1UL << order); i++) {
			if (compound)
				bad += free_tail_pages_check(page, page + i);
			if (unlikely(free_page_is_bad(page + i))) {
				bad++;
				continue;
			}
			(page + i)->flags &= ~PAGE_FLAGS_CHECK_AT_PREP;
		}
	}
	if (PageCompound(page))
		__ClearPageHead(page);
	if (free_page_is_bad(page))
		bad++;
	if (bad)
		return false;
	page->flags &= ~PAGE_FLAGS_CHECK_AT_PREP;
	if (_page_poisoning_enabled)
		kernel_poison_pages(page, 1 << order);
	/* Any access to the block until it is allocated again is reported. */
	kasan_poison_pages(page, order, false);
	return true;
}

static void __free_pages_ok(struct page *page, unsigned int order, fpi_t fpi_flags)
{
	struct zone *zone = page_zone(page);
	unsigned long flags;

	if (!free_pages_prepare(page, order))
		return;
	spin_lock_irqsave(&zone->lock, flags);
	__free_one_page(page, page_to_pfn(page), zone, order, MIGRATE_UNMOVABLE, fpi_flags);
	spin_unlock_irqrestore(&zone->lock, flags);
}

static inline void free_the_page(struct page *page, unsigned int ord)
{
	if (pcp_allowed_order(ord))
		free_unref_page(page, ord);
	else
		__free_pages_ok(page, ord, FPI_NONE);
}

/* Boot: memblock's free memory joins the buddy lists (cold). */
void __free_pages_core(struct page *page, unsigned int ord)
{
	unsigned int nr = 1U << ord;

	for (unsigned int i = 0; i < nr; i++) {
		__ClearPageReserved(page + i);
		set_page_count(page + i, 0);
	}
	atomic64_add(nr, &page_zone(page)->managed_pages);
	__free_pages_ok(page, ord, FPI_TO_TAIL);
}

/*
 * Frees that cannot be right whatever the page's other state: a tail page
 * (the head owns the block), a page that is already free (its count is
 * 0: on a pcp list, on the buddy lists, or a never-referenced tail of a
 * plain high-order block), a negative count.  Reported, and the page is
 * left exactly as it is, so the free lists stay intact.
 */
static bool free_is_misuse(struct page *page)
{
	int count = page_ref_count(page);

	if (unlikely(PageTail(page))) {
		bad_page(page, "freeing a tail page");
		return true;
	}
	if (unlikely(count <= 0)) {
		bad_page(page, count < 0 ? "freeing a page with a negative _refcount" :
			 PageBuddy(page) ? "double free: page is in the buddy allocator" :
			 "double free: _refcount is already 0");
		return true;
	}
	return false;
}

void __free_pages(struct page *page, unsigned int ord)
{
	bool head = PageHead(page);

	if (unlikely(free_is_misuse(page)))
		return;
	if (put_page_testzero(page))
		free_the_page(page, ord);
	else if (!head)
		/* Someone holds the first page: free the rest of the block. */
		while (ord-- > 0)
			free_the_page(page + (1UL << ord), ord);
}

void free_pages(unsigned long vaddr, unsigned int order)
{
	if (vaddr) {
		VM_BUG_ON(!virt_addr_valid((void *)vaddr));
		__free_pages(virt_to_page((void *)vaddr), order);
	}
}

void __put_page(struct page *page)
{
	free_the_page(page, compound_order(page));
}

/* ---------------------------------------------------------------- alloc */

bool __zone_watermark_ok(struct zone *zone, unsigned int order, unsigned long mark,
			 int highest_zoneidx, unsigned int alloc_flags, long free_pages)
{
	long min = mark;

	free_pages -= (1L << order) - 1;
	if (alloc_flags & ALLOC_HIGH)
		min -= min / 2;
	if (alloc_flags & ALLOC_HARDER)
		min -= min / 4;
	if (free_pages <= min + zone->lowmem_reserve[highest_zoneidx])
		return false;
	if (!order)
		return true;
	for (unsigned int o = order; o < MAX_ORDER; o++)
		if (READ_ONCE(zone->free_area[o].nr_free))
			return true;
	return false;
}

bool zone_watermark_ok(struct zone *zone, unsigned int order, unsigned long mark,
		       int highest_zoneidx, unsigned int alloc_flags)
{
	return __zone_watermark_ok(zone, order, mark, highest_zoneidx, alloc_flags,
				   zone_page_state(zone, NR_FREE_PAGES));
}

bool zone_watermark_ok_safe(struct zone *zone, unsigned int order, unsigned long mark,
			    int highest_zoneidx)
{
	return __zone_watermark_ok(zone, order, mark, highest_zoneidx, 0,
				   zone_page_state(zone, NR_FREE_PAGES));
}

void prep_compound_page(struct page *page, unsigned int ord)
{
	unsigned long nr = 1UL << ord;

	__SetPageHead(page);
	for (unsigned long i = 1; i < nr; i++) {
		struct page *p = page + i;

		p->mapping = TAIL_MAPPING;
		set_compound_head(p, page);
	}
	/* The first tail's fields overlay its ->mapping. */
	page[1].compound_dtor = COMPOUND_PAGE_DTOR;
	page[1].compound_order = ord;
	page[1].compound_nr = nr;
	atomic_set(&page[1].compound_mapcount, -1);
}

static void prep_new_page(struct page *page, unsigned int ord, gfp_t gfp_flags,
			  unsigned int alloc_flags)
{
	set_page_private(page, 0);
	init_page_count(page);
	if (_page_poisoning_enabled)
		kernel_unpoison_pages(page, 1 << ord);
	/* After the poison check (it reads free memory), before __GFP_ZERO writes. */
	kasan_unpoison_pages(page, ord, false);
	if (gfp_flags & __GFP_ZERO)
		memset(page_address(page), 0, PAGE_SIZE << ord);
	if (ord && (gfp_flags & __GFP_COMP))
		prep_compound_page(page, ord);
}

static struct page *get_page_from_freelist(gfp_t gfp, unsigned int order,
					   int alloc_flags, const struct alloc_context *ac)
{
	struct zoneref *z;
	struct zone *zone;

	for_each_zone_zonelist(zone, z, ac->zonelist, ac->highest_zoneidx) {
		unsigned long mark = wmark_pages(zone, alloc_flags & ALLOC_WMARK_MASK);
		struct page *page;

		if (!(alloc_flags & ALLOC_NO_WATERMARKS) &&
		    !zone_watermark_ok(zone, order, mark, ac->highest_zoneidx, alloc_flags))
			continue;
		page = rmqueue(ac->preferred_zoneref->zone, zone, order, gfp,
			       alloc_flags, ac->migratetype);
		if (page) {
			prep_new_page(page, order, gfp, alloc_flags);
			return page;
		}
	}
	return NULL;
}

static unsigned int gfp_to_alloc_flags(gfp_t gfp_mask)
{
	unsigned int alloc_flags = ALLOC_WMARK_MIN;

	if (gfp_mask & __GFP_HIGH)
		alloc_flags |= ALLOC_HIGH;
	if (gfp_mask & __GFP_KSWAPD_RECLAIM)
		alloc_flags |= ALLOC_KSWAPD;
	if ((gfp_mask & __GFP_ATOMIC) && !(gfp_mask & __GFP_NOMEMALLOC))
		alloc_flags |= ALLOC_HARDER;
	return alloc_flags;
}

/*
 * Reclaimers (PF_MEMALLOC, kswapd and direct reclaim) and __GFP_MEMALLOC
 * callers may take the last pages: reclaim needs memory to free memory.
 * Not from an interrupt that merely landed on a reclaimer.
 */
static int __gfp_pfmemalloc_flags(gfp_t gfp_mask)
{
	if (unlikely(gfp_mask & __GFP_NOMEMALLOC))
		return 0;
	if (gfp_mask & __GFP_MEMALLOC)
		return ALLOC_NO_WATERMARKS;
	/* A reclaimer itself, or a softirq it is serving; not a hard IRQ on top. */
	if ((current->flags & PF_MEMALLOC) && (!in_interrupt() || in_serving_softirq()))
		return ALLOC_NO_WATERMARKS;
	return 0;
}

/* Wake each node's kswapd once, for the zones this request may use. */
static void wake_all_kswapds(unsigned int order, gfp_t gfp_mask, const struct alloc_context *ac)
{
	pg_data_t *last_pgdat = NULL;
	struct zoneref *z;
	struct zone *zone;

	for_each_zone_zonelist(zone, z, ac->zonelist, ac->highest_zoneidx) {
		if (last_pgdat != zone->zone_pgdat)
			wakeup_kswapd(zone, gfp_mask, order, ac->highest_zoneidx);
		last_pgdat = zone->zone_pgdat;
	}
}

/*
 * Synchronous reclaim in the allocating task.  PF_MEMALLOC keeps the
 * reclaimers' own allocations from recursing into reclaim.
 */
static unsigned long __perform_reclaim(gfp_t gfp_mask, unsigned int order,
				       const struct alloc_context *ac)
{
	unsigned int noreclaim_flag;
	unsigned long progress;

	might_sleep();
	cond_resched();
	noreclaim_flag = memalloc_noreclaim_save();
	progress = try_to_free_pages(ac->zonelist, order, gfp_mask);
	memalloc_noreclaim_restore(noreclaim_flag);
	cond_resched();
	return progress;
}

/*
 * Reclaim, then allocate.  Pages may be freed to other CPUs' lists (the
 * reclaimer's frees go through its own CPU's): if the allocation still
 * fails, drain every CPU's lists and try once more.
 */
static struct page *__alloc_pages_direct_reclaim(gfp_t gfp_mask, unsigned int order,
						 unsigned int alloc_flags,
						 const struct alloc_context *ac,
						 unsigned long *progress)
{
	struct page *page;

	*progress = __perform_reclaim(gfp_mask, order, ac);
	if (unlikely(!*progress))
		return NULL;
	page = get_page_from_freelist(gfp_mask, order, alloc_flags, ac);
	if (page)
		return page;
	drain_all_pages(NULL);
	return get_page_from_freelist(gfp_mask, order, alloc_flags, ac);
}

/*
 * Another round of reclaim while it progresses (at most
 * MAX_RECLAIM_RETRIES rounds in a row without progress) and while a zone
 * would pass its min watermark with all its reclaimable pages freed.
 * Reclaimable pages are LRU pages in Linux; here there are none, so only
 * free pages count (what shrinkers hold cannot be known in advance).
 */
static bool should_reclaim_retry(gfp_t gfp_mask, unsigned int order,
				 struct alloc_context *ac, int alloc_flags,
				 bool progressed, int *no_progress_loops)
{
	struct zoneref *z;
	struct zone *zone;
	bool ret = false;

	/* A costly order may stay fragmented however much is freed. */
	if (progressed && order <= PAGE_ALLOC_COSTLY_ORDER)
		*no_progress_loops = 0;
	else
		(*no_progress_loops)++;
	if (*no_progress_loops > MAX_RECLAIM_RETRIES)
		return false;

	for_each_zone_zonelist(zone, z, ac->zonelist, ac->highest_zoneidx) {
		unsigned long available = zone_page_state(zone, NR_FREE_PAGES);

		if (__zone_watermark_ok(zone, order, min_wmark_pages(zone),
					ac->highest_zoneidx, alloc_flags, available)) {
			ret = true;
			break;
		}
	}
	/*
	 * A kworker that loops without sleeping would hold up its pool's
	 * other work items: sleep a tick.
	 */
	if (current->flags & PF_WQ_WORKER)
		schedule_timeout_uninterruptible(1);
	else
		cond_resched();
	return ret;
}

/*
 * The low watermark failed everywhere: wake kswapd, go down to min (and
 * below, by flags), then reclaim directly if the caller may sleep.  No
 * compaction and no OOM killer here: what reclaim cannot free fails.
 */
static struct page *__alloc_pages_slowpath(gfp_t gfp_mask, unsigned int order,
					   struct alloc_context *ac)
{
	bool may_reclaim = gfp_mask & __GFP_DIRECT_RECLAIM;
	bool costly = order > PAGE_ALLOC_COSTLY_ORDER;
	unsigned long progress = 0;
	int no_progress_loops = 0;
	unsigned int alloc_flags;
	int reserve;
	struct page *page;

	/* Atomic reserves are for callers that cannot reclaim. */
	if (WARN_ON_ONCE((gfp_mask & (__GFP_ATOMIC | __GFP_DIRECT_RECLAIM)) ==
			 (__GFP_ATOMIC | __GFP_DIRECT_RECLAIM)))
		gfp_mask &= ~__GFP_ATOMIC;

	alloc_flags = gfp_to_alloc_flags(gfp_mask);
	if (alloc_flags & ALLOC_KSWAPD)
		wake_all_kswapds(order, gfp_mask, ac);
	page = get_page_from_freelist(gfp_mask, order, alloc_flags, ac);
	if (page)
		return page;
retry:
	/* Keep kswapd awake for as long as we loop. */
	if (alloc_flags & ALLOC_KSWAPD)
		wake_all_kswapds(order, gfp_mask, ac);
	reserve = __gfp_pfmemalloc_flags(gfp_mask);
	if (reserve)
		alloc_flags = reserve;
	page = get_page_from_freelist(gfp_mask, order, alloc_flags, ac);
	if (page)
		return page;
	if (!may_reclaim)
		goto nopage;
	/* Reclaim's own allocations do not reclaim. */
	if (current->flags & PF_MEMALLOC)
		goto nopage;

	page = __alloc_pages_direct_reclaim(gfp_mask, order, alloc_flags, ac, &progress);
	if (page)
		return page;
	if (gfp_mask & __GFP_NORETRY)
		goto nopage;
	/* Costly orders retry only when the caller asked to. */
	if (costly && !(gfp_mask & __GFP_RETRY_MAYFAIL))
		goto nopage;
	if (should_reclaim_retry(gfp_mask, order, ac, alloc_flags, progress > 0,
				 &no_progress_loops))
		goto retry;
nopage:
	warn_alloc(gfp_mask, "page allocation failure: order:%u", order);
	return NULL;
}

/* --------------------------------------------------------- fail_page_alloc */

#ifdef CONFIG_FAIL_PAGE_ALLOC
struct fail_page_alloc_attr fail_page_alloc = {
	.attr = FAULT_ATTR_INITIALIZER_NAME("fail_page_alloc"),
	.ignore_gfp_reclaim = true,
	.ignore_gfp_highmem = true,
	.min_order = 1,
};

core_param_cb("fail_page_alloc", &param_ops_fault_attr, &fail_page_alloc.attr,
	      "inject page allocation failures: <interval>,<probability>,<space>,<times>");
core_param("fail_page_alloc.ignore_gfp_wait", fail_page_alloc.ignore_gfp_reclaim, bool,
	   "fail_page_alloc leaves allocations that may sleep (__GFP_DIRECT_RECLAIM) alone");
core_param("fail_page_alloc.ignore_gfp_highmem", fail_page_alloc.ignore_gfp_highmem, bool,
	   "fail_page_alloc leaves __GFP_HIGHMEM allocations alone");
core_param_range("fail_page_alloc.min_order", fail_page_alloc.min_order, uint, 0, MAX_ORDER,
		 "fail_page_alloc only fails allocations of at least this order");
core_param_range("fail_page_alloc.verbose", fail_page_alloc.attr.verbose, ulong, 0, 2,
		 "fail_page_alloc reports: 0 none, 1 a line per failure, 2 also a backtrace");

/*
 * The filters before should_fail(), in Linux 5.15's order.  The size is
 * the number of pages, so space counts pages.  __GFP_NOWARN does not
 * quieten the report: Linux only made it do so after 5.15.
 */
static bool __should_fail_alloc_page(gfp_t gfp, unsigned int order)
{
	if (order < fail_page_alloc.min_order)
		return false;
	if (gfp & __GFP_NOFAIL)
		return false;
	if (fail_page_alloc.ignore_gfp_highmem && (gfp & __GFP_HIGHMEM))
		return false;
	if (fail_page_alloc.ignore_gfp_reclaim && (gfp & __GFP_DIRECT_RECLAIM))
		return false;

	return should_fail(&fail_page_alloc.attr, 1L << order);
}
#else
static inline bool __should_fail_alloc_page(gfp_t gfp, unsigned int order)
{
	return false;
}
#endif /* CONFIG_FAIL_PAGE_ALLOC */

/* Out of line as in Linux, where error injection attaches to it. */
noinline bool should_fail_alloc_page(gfp_t gfp, unsigned int order)
{
	return __should_fail_alloc_page(gfp, order);
}

struct page *__alloc_pages(gfp_t gfp, unsigned int order, int preferred_nid)
{
	struct alloc_context ac = { .migratetype = MIGRATE_UNMOVABLE };
	struct page *page;
	int zl;

	if (unlikely(order >= MAX_ORDER)) {
		WARN_ON_ONCE(!(gfp & __GFP_NOWARN));
		return NULL;
	}
	if (WARN_ON_ONCE(!after_bootmem))
		return NULL;
	if (preferred_nid == NUMA_NO_NODE)
		preferred_nid = numa_node_id();
	if (WARN_ON_ONCE(preferred_nid < 0 || preferred_nid >= MAX_NUMNODES ||
			 !node_online(preferred_nid)))
		return NULL;

	zl = (gfp & __GFP_THISNODE) ? ZONELIST_NOFALLBACK : ZONELIST_FALLBACK;
	ac.zonelist = &NODE_DATA(preferred_nid)->node_zonelists[zl];
	ac.highest_zoneidx = gfp_zone(gfp);
	/* A blocking request is a voluntary preemption point, as in Linux. */
	might_alloc(gfp);
	/*
	 * Where Linux's prepare_alloc_pages() asks: an injected failure
	 * returns before any list is touched, with no allocation-failure
	 * report (the fault_attr makes its own).
	 */
	if (should_fail_alloc_page(gfp, order))
		return NULL;
	for (ac.preferred_zoneref = ac.zonelist->_zonerefs;
	     ac.preferred_zoneref->zone &&
	     ac.preferred_zoneref->zone_idx > ac.highest_zoneidx;
	     ac.preferred_zoneref++)
		;
	if (!ac.preferred_zoneref->zone)
		return NULL;	/* no zone low enough on the node (THISNODE) */

	page = get_page_from_freelist(gfp, order, ALLOC_WMARK_LOW, &ac);
	if (likely(page))
		return page;
	return __alloc_pages_slowpath(gfp, order, &ac);
}

struct page *alloc_pages_node(int nid, gfp_t gfp, unsigned int order)
{
	return __alloc_pages(gfp, order, nid);
}

struct page *alloc_pages(gfp_t gfp, unsigned int order)
{
	return __alloc_pages(gfp, order, numa_node_id());
}

unsigned long __get_free_pages(gfp_t gfp, unsigned int order)
{
	struct page *page = alloc_pages(gfp & ~__GFP_HIGHMEM, order);

	return page ? (unsigned long)page_address(page) : 0;
}

unsigned long get_zeroed_page(gfp_t gfp)
{
	return __get_free_pages(gfp | __GFP_ZERO, 0);
}

