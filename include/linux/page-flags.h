/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_PAGE_FLAGS_H
#define _LINUX_PAGE_FLAGS_H

/*
 * Page flags: the low bits of page->flags, numbered as in Linux 5.15 so a
 * dumped flags word decodes the same way; the top bits hold the page's
 * node and zone (mm.h).  PageBuddy is not a flag but a page_type, stored
 * in the _mapcount word as Linux does (a free page is never mapped).
 *
 * Linux checks that flag helpers are not used on the wrong part of a
 * compound page (PF_HEAD, PF_NO_TAIL...); irqlab's helpers act on exactly
 * the page they are given.
 */
#include <linux/types.h>
#include <linux/mm_types.h>
#include <asm/bitops.h>

enum pageflags {
	PG_locked,		/* SLUB: slab_lock() bit spinlock */
	PG_referenced,
	PG_uptodate,
	PG_dirty,
	PG_lru,
	PG_active,		/* slab pages: PG_pfmemalloc */
	PG_workingset,
	PG_waiters,
	PG_error,
	PG_slab,
	PG_owner_priv_1,
	PG_arch_1,
	PG_reserved,		/* never handed to the buddy allocator */
	PG_private,
	PG_private_2,
	PG_writeback,
	PG_head,		/* first page of a compound page */
	PG_mappedtodisk,
	PG_reclaim,
	PG_swapbacked,
	PG_unevictable,
	PG_mlocked,
	__NR_PAGEFLAGS,

	PG_pfmemalloc = PG_active,
};

#define NR_PAGEFLAGS		__NR_PAGEFLAGS

/* Flags a page must not have when it is freed... */
#define PAGE_FLAGS_CHECK_AT_FREE					\
	(1UL << PG_lru | 1UL << PG_locked | 1UL << PG_private |		\
	 1UL << PG_private_2 | 1UL << PG_writeback | 1UL << PG_reserved |\
	 1UL << PG_slab | 1UL << PG_active | 1UL << PG_unevictable |	\
	 1UL << PG_mlocked)
/* ...and none at all when it comes off the free lists. */
#define PAGE_FLAGS_CHECK_AT_PREP	((1UL << NR_PAGEFLAGS) - 1)

#define TESTPAGEFLAG(uname, lname)					\
static __always_inline bool Page##uname(const struct page *page)	\
{ return test_bit(PG_##lname, &page->flags); }

#define SETPAGEFLAG(uname, lname)					\
static __always_inline void SetPage##uname(struct page *page)		\
{ set_bit(PG_##lname, &page->flags); }					\
static __always_inline void ClearPage##uname(struct page *page)	\
{ clear_bit(PG_##lname, &page->flags); }

/* Non-atomic forms: only while nobody else can see the page. */
#define __SETPAGEFLAG(uname, lname)					\
static __always_inline void __SetPage##uname(struct page *page)	\
{ __set_bit(PG_##lname, &page->flags); }				\
static __always_inline void __ClearPage##uname(struct page *page)	\
{ __clear_bit(PG_##lname, &page->flags); }

#define PAGEFLAG(uname, lname)						\
	TESTPAGEFLAG(uname, lname) SETPAGEFLAG(uname, lname)		\
	__SETPAGEFLAG(uname, lname)

PAGEFLAG(Locked, locked)
PAGEFLAG(Referenced, referenced)
PAGEFLAG(Dirty, dirty)
PAGEFLAG(LRU, lru)
PAGEFLAG(Active, active)
PAGEFLAG(Slab, slab)
PAGEFLAG(Reserved, reserved)
PAGEFLAG(Private, private)
PAGEFLAG(Head, head)
PAGEFLAG(SlabPfmemalloc, pfmemalloc)

/* Tail pages: compound_head has bit 0 set and points at the head. */
static __always_inline bool PageTail(const struct page *page)
{
	return READ_ONCE(page->compound_head) & 1;
}

static __always_inline bool PageCompound(const struct page *page)
{
	return PageHead(page) || PageTail(page);
}

static __always_inline struct page *compound_head(const struct page *page)
{
	unsigned long head = READ_ONCE(page->compound_head);

	if (head & 1)
		return (struct page *)(head - 1);
	return (struct page *)page;
}

static __always_inline void set_compound_head(struct page *page, struct page *head)
{
	WRITE_ONCE(page->compound_head, (unsigned long)head + 1);
}

static __always_inline void clear_compound_head(struct page *page)
{
	WRITE_ONCE(page->compound_head, 0);
}

/*
 * page_type: valid while _mapcount is far below -1.  The base pattern has
 * the top nibble set; a type is present when its bit is CLEAR, so the
 * unmapped value -1 means "no type".
 */
#define PAGE_TYPE_BASE	0xf0000000U
#define PG_buddy	0x00000080U

#define PageType(page, flag)						\
	(((page)->page_type & (PAGE_TYPE_BASE | (flag))) == PAGE_TYPE_BASE)

static __always_inline bool PageBuddy(const struct page *page)
{
	return PageType(page, PG_buddy);
}

static __always_inline void __SetPageBuddy(struct page *page)
{
	page->page_type &= ~PG_buddy;
}

static __always_inline void __ClearPageBuddy(struct page *page)
{
	page->page_type |= PG_buddy;
}

#endif /* _LINUX_PAGE_FLAGS_H */
