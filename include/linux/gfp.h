/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_GFP_H
#define _LINUX_GFP_H

/*
 * Get Free Page flags, with Linux 5.15's bit values so a printed mask
 * ("mode:0xcc0(GFP_KERNEL)") reads the same as in a Linux report.
 *
 * What they mean in irqlab, which has no compaction, OOM killer, highmem
 * or movable zone, and whose reclaim is the shrinkers (mm/vmscan.c):
 *  __GFP_DMA32		only ZONE_DMA32 (below 4 GiB); __GFP_DMA too (no ZONE_DMA)
 *  __GFP_HIGH		may dip below the min watermark: to min/2 (ALLOC_HIGH)
 *  __GFP_ATOMIC	a further quarter of what remains (ALLOC_HARDER)
 *  __GFP_DIRECT_RECLAIM the caller may sleep: when the min watermark fails
 *			it reclaims itself (try_to_free_pages(), shrinkers),
 *			drains every CPU's per-CPU lists after progress, and
 *			retries as Linux's should_reclaim_retry() allows
 *  __GFP_KSWAPD_RECLAIM below the low watermark, wake the node's kswapd
 *  __GFP_MEMALLOC	may take the pages below min (ALLOC_NO_WATERMARKS),
 *			as reclaimers (PF_MEMALLOC) do; __GFP_NOMEMALLOC never
 *  __GFP_NORETRY	one round of direct reclaim, no retries
 *  __GFP_NOWARN	no allocation-failure report
 *  __GFP_ZERO		the pages are zeroed
 *  __GFP_COMP		an order > 0 block is a compound page (head/tails)
 *  __GFP_THISNODE	no fallback to other nodes
 * The other bits are accepted for source compatibility and ignored.
 */
#include <linux/types.h>

struct page;

#define ___GFP_DMA		0x01u
#define ___GFP_HIGHMEM		0x02u
#define ___GFP_DMA32		0x04u
#define ___GFP_MOVABLE		0x08u
#define ___GFP_RECLAIMABLE	0x10u
#define ___GFP_HIGH		0x20u
#define ___GFP_IO		0x40u
#define ___GFP_FS		0x80u
#define ___GFP_ZERO		0x100u
#define ___GFP_ATOMIC		0x200u
#define ___GFP_DIRECT_RECLAIM	0x400u
#define ___GFP_KSWAPD_RECLAIM	0x800u
#define ___GFP_WRITE		0x1000u
#define ___GFP_NOWARN		0x2000u
#define ___GFP_RETRY_MAYFAIL	0x4000u
#define ___GFP_NOFAIL		0x8000u
#define ___GFP_NORETRY		0x10000u
#define ___GFP_MEMALLOC		0x20000u
#define ___GFP_COMP		0x40000u
#define ___GFP_NOMEMALLOC	0x80000u
#define ___GFP_HARDWALL		0x100000u
#define ___GFP_THISNODE		0x200000u
#define ___GFP_ACCOUNT		0x400000u

#define __GFP_DMA		((gfp_t)___GFP_DMA)
#define __GFP_HIGHMEM		((gfp_t)___GFP_HIGHMEM)
#define __GFP_DMA32		((gfp_t)___GFP_DMA32)
#define __GFP_MOVABLE		((gfp_t)___GFP_MOVABLE)
#define __GFP_RECLAIMABLE	((gfp_t)___GFP_RECLAIMABLE)
#define __GFP_HIGH		((gfp_t)___GFP_HIGH)
#define __GFP_IO		((gfp_t)___GFP_IO)
#define __GFP_FS		((gfp_t)___GFP_FS)
#define __GFP_ZERO		((gfp_t)___GFP_ZERO)
#define __GFP_ATOMIC		((gfp_t)___GFP_ATOMIC)
#define __GFP_DIRECT_RECLAIM	((gfp_t)___GFP_DIRECT_RECLAIM)
#define __GFP_KSWAPD_RECLAIM	((gfp_t)___GFP_KSWAPD_RECLAIM)
#define __GFP_RECLAIM		(__GFP_DIRECT_RECLAIM | __GFP_KSWAPD_RECLAIM)
#define __GFP_WRITE		((gfp_t)___GFP_WRITE)
#define __GFP_NOWARN		((gfp_t)___GFP_NOWARN)
#define __GFP_RETRY_MAYFAIL	((gfp_t)___GFP_RETRY_MAYFAIL)
#define __GFP_NOFAIL		((gfp_t)___GFP_NOFAIL)
#define __GFP_NORETRY		((gfp_t)___GFP_NORETRY)
#define __GFP_MEMALLOC		((gfp_t)___GFP_MEMALLOC)
#define __GFP_COMP		((gfp_t)___GFP_COMP)
#define __GFP_NOMEMALLOC	((gfp_t)___GFP_NOMEMALLOC)
#define __GFP_HARDWALL		((gfp_t)___GFP_HARDWALL)
#define __GFP_THISNODE		((gfp_t)___GFP_THISNODE)
#define __GFP_ACCOUNT		((gfp_t)___GFP_ACCOUNT)

#define __GFP_BITS_SHIFT	23
#define __GFP_BITS_MASK		((gfp_t)((1u << __GFP_BITS_SHIFT) - 1))

#define GFP_ATOMIC		(__GFP_HIGH | __GFP_ATOMIC | __GFP_KSWAPD_RECLAIM)
#define GFP_KERNEL		(__GFP_RECLAIM | __GFP_IO | __GFP_FS)
#define GFP_KERNEL_ACCOUNT	(GFP_KERNEL | __GFP_ACCOUNT)
#define GFP_NOWAIT		(__GFP_KSWAPD_RECLAIM)
#define GFP_NOIO		(__GFP_RECLAIM)
#define GFP_NOFS		(__GFP_RECLAIM | __GFP_IO)
#define GFP_USER		(__GFP_RECLAIM | __GFP_IO | __GFP_FS | __GFP_HARDWALL)
#define GFP_DMA32		__GFP_DMA32
#define GFP_HIGHUSER		(GFP_USER | __GFP_HIGHMEM)

/* SLUB's masks (mm/slab.h in Linux). */
#define GFP_RECLAIM_MASK	(__GFP_RECLAIM | __GFP_HIGH | __GFP_IO | __GFP_FS |\
				 __GFP_NOWARN | __GFP_RETRY_MAYFAIL | __GFP_NOFAIL |\
				 __GFP_NORETRY | __GFP_MEMALLOC | __GFP_NOMEMALLOC)
#define GFP_SLAB_BUG_MASK	(__GFP_DMA32 | __GFP_HIGHMEM | ~__GFP_BITS_MASK)

static inline bool gfpflags_allow_blocking(const gfp_t gfp_flags)
{
	return !!(gfp_flags & __GFP_DIRECT_RECLAIM);
}

/*
 * Buddy allocator (mm/page_alloc.c).  @nid: an online node, or NUMA_NO_NODE
 * for this CPU's; anything else is a bug (WARN, NULL).  Before mm_init()
 * every allocation fails (WARN).
 */
struct page *__alloc_pages(gfp_t gfp, unsigned int order, int preferred_nid);
struct page *alloc_pages_node(int nid, gfp_t gfp, unsigned int order);
struct page *alloc_pages(gfp_t gfp, unsigned int order);
unsigned long __get_free_pages(gfp_t gfp, unsigned int order);
unsigned long get_zeroed_page(gfp_t gfp);
void __free_pages(struct page *page, unsigned int order);
void free_pages(unsigned long addr, unsigned int order);
void free_unref_page(struct page *page, unsigned int order);

/*
 * A specific node, preferred: its zones first, then the other nodes' in
 * its fallback zonelist, unless the caller adds __GFP_THISNODE itself.
 */
static inline struct page *__alloc_pages_node(int nid, gfp_t gfp, unsigned int order)
{
	return __alloc_pages(gfp, order, nid);
}

#define alloc_page(gfp)			alloc_pages(gfp, 0)
#define __get_free_page(gfp)		__get_free_pages((gfp), 0)
#define __free_page(page)		__free_pages((page), 0)
#define free_page(addr)			free_pages((addr), 0)

/* Per-CPU page lists. */
struct zone;
void drain_local_pages(struct zone *zone);
void drain_all_pages(struct zone *zone);
void zone_pcp_disable(struct zone *zone);
void zone_pcp_enable(struct zone *zone);
void zone_pcp_disable_all(void);	/* irqlab benchmarks only */
void zone_pcp_enable_all(void);

/* "GFP_KERNEL|__GFP_ZERO" for a mask, into @buf; returns @buf. */
char *format_gfp_flags(char *buf, size_t size, gfp_t gfp);

#endif /* _LINUX_GFP_H */
