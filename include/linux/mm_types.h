/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_MM_TYPES_H
#define _LINUX_MM_TYPES_H

/*
 * struct page: one 64-byte descriptor per physical page frame, in the
 * virtual array at VMEMMAP_START (pfn_to_page() is vmemmap + pfn).  The
 * layout is Linux 5.15's on x86_64, so offsets in a dump, in SLUB's
 * cmpxchg16b on freelist+counters and in a reader's head all agree:
 *
 *   0  flags           PG_* bits; zone and node in the top bits
 *   8  (40-byte union, by owner)
 *      buddy / pcp:    lru(8) mapping(24) index(32) private(40)
 *      slab (SLUB):    slab_list(8) | next(8) pages(16) pobjects(20);
 *                      slab_cache(24) freelist(32) counters(40)
 *      compound tail:  compound_head(8, bit 0 set); first tail only:
 *                      compound_dtor(16) compound_order(17)
 *                      compound_mapcount(20) compound_nr(24)
 *      RCU-freed:      rcu_head(8..23), over slab_list only, so a
 *                      SLAB_TYPESAFE_BY_RCU slab waiting for its grace
 *                      period keeps slab_cache, freelist and counters
 *  48  _mapcount / page_type (PageBuddy lives here)
 *  52  _refcount
 *  56  memcg_data (unused by irqlab; keeps the size and the last word)
 *
 * freelist + counters form the 16-byte aligned double word SLUB swaps with
 * cmpxchg_double; the BUILD_BUG_ONs in mm/mm_init.c hold these offsets.
 */
#include <linux/types.h>

struct address_space;
struct kmem_cache;

struct page {
	unsigned long flags;
	union {
		struct {	/* free (buddy, per-CPU lists) and general use */
			struct list_head lru;
			struct address_space *mapping;
			unsigned long index;
			unsigned long private;	/* buddy: the block's order */
		};
		struct {	/* slab pages: SLUB */
			union {
				struct list_head slab_list;
				struct {	/* per-CPU partial chain */
					struct page *next;
					int pages;
					int pobjects;
				};
			};
			struct kmem_cache *slab_cache;
			/* double word: swapped together by cmpxchg16b */
			void *freelist;
			union {
				void *s_mem;
				unsigned long counters;
				struct {
					unsigned inuse:16;
					unsigned objects:15;
					unsigned frozen:1;
				};
			};
		};
		struct {	/* tail pages of a compound page */
			unsigned long compound_head;	/* head | 1 */
			unsigned char compound_dtor;	/* first tail only */
			unsigned char compound_order;	/* first tail only */
			atomic_t compound_mapcount;	/* first tail only */
			unsigned int compound_nr;	/* first tail only */
		};
		/* A page handed back after a grace period (rcu_free_slab). */
		struct rcu_head rcu_head;
	};
	union {			/* 4 bytes */
		atomic_t _mapcount;	/* -1: not mapped */
		unsigned int page_type;	/* PageBuddy etc. when _mapcount < -1 */
	};
	atomic_t _refcount;
	unsigned long memcg_data;
} __aligned(2 * sizeof(unsigned long));

#define STRUCT_PAGE_SIZE	64

#endif /* _LINUX_MM_TYPES_H */
