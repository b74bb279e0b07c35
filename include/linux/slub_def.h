/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SLUB_DEF_H
#define _LINUX_SLUB_DEF_H

/*
 * SLUB's cache descriptors (Linux 5.15 layout and names).
 *
 * Each CPU allocates from one slab of its own (kmem_cache_cpu.page) and
 * its lockless freelist; frees of objects from that slab go straight
 * back to that freelist.  freelist and tid sit together at the start of
 * the per-CPU struct, 16-byte aligned, because the fast paths replace
 * both with a single this_cpu_cmpxchg_double(): the tid changes on every
 * operation, so a task that was preempted or migrated between reading
 * the pair and swapping it fails the swap and retries instead of
 * corrupting another CPU's freelist.
 */
#include <linux/types.h>
#include <linux/list.h>
#include <linux/local_lock.h>
#include <linux/slab.h>
#include <linux/kasan.h>

enum stat_item {
	ALLOC_FASTPATH,		/* taken from c->freelist */
	ALLOC_SLOWPATH,		/* went through ___slab_alloc */
	FREE_FASTPATH,		/* returned to c->freelist */
	FREE_SLOWPATH,		/* __slab_free */
	FREE_FROZEN,		/* __slab_free into a frozen slab */
	FREE_ADD_PARTIAL,	/* a full slab went back on a partial list */
	FREE_REMOVE_PARTIAL,	/* the last object left: slab off the list */
	ALLOC_FROM_PARTIAL,	/* CPU slab taken from a node partial list */
	ALLOC_SLAB,		/* CPU slab fresh from the page allocator */
	ALLOC_REFILL,		/* c->freelist refilled from page->freelist */
	ALLOC_NODE_MISMATCH,	/* CPU slab dropped: wrong node */
	FREE_SLAB,		/* slab handed back to the page allocator */
	CPUSLAB_FLUSH,		/* CPU slab given up by a flush */
	DEACTIVATE_FULL,	/* deactivated slab had no free object */
	DEACTIVATE_EMPTY,	/* deactivated slab had no object in use */
	DEACTIVATE_TO_HEAD,	/* deactivated to the head of the partials */
	DEACTIVATE_TO_TAIL,	/* deactivated to the tail of the partials */
	DEACTIVATE_REMOTE_FREES,/* deactivated slab had remote frees */
	DEACTIVATE_BYPASS,	/* slab dropped without deactivation */
	ORDER_FALLBACK,		/* fell back to the minimum order */
	CMPXCHG_DOUBLE_CPU_FAIL,/* this_cpu_cmpxchg_double lost a race */
	CMPXCHG_DOUBLE_FAIL,	/* cmpxchg_double on a page lost a race */
	CPU_PARTIAL_ALLOC,	/* CPU slab taken from c->partial */
	CPU_PARTIAL_FREE,	/* a free put a slab on c->partial */
	CPU_PARTIAL_NODE,	/* c->partial filled from a node list */
	CPU_PARTIAL_DRAIN,	/* c->partial drained to the node lists */
	NR_SLUB_STAT_ITEMS
};

struct kmem_cache_cpu {
	void **freelist;	/* next free object of c->page */
	unsigned long tid;	/* changes on every freelist update */
	struct page *page;	/* the CPU slab */
#ifdef CONFIG_SLUB_CPU_PARTIAL
	struct page *partial;	/* frozen partial slabs, chained by ->next */
#endif
#ifndef CONFIG_SLUB_LEGACY
	local_lock_t lock;	/* protects the fields above */
#endif			/* (pre-series: IRQ-off sections instead) */
#ifdef CONFIG_SLUB_STATS
	unsigned stat[NR_SLUB_STAT_ITEMS];
#endif
};

#ifdef CONFIG_SLUB_CPU_PARTIAL
#define slub_percpu_partial(c)		((c)->partial)
#define slub_set_percpu_partial(c, p)	(slub_percpu_partial(c) = (p)->next)
#define slub_percpu_partial_read_once(c)	\
	READ_ONCE(slub_percpu_partial(c))
#else
#define slub_percpu_partial(c)		NULL
#define slub_set_percpu_partial(c, p)	do { } while (0)
#define slub_percpu_partial_read_once(c) NULL
#endif

/* A slab's order and object count packed as order << 16 | objects. */
struct kmem_cache_order_objects {
	unsigned int x;
};

struct kmem_cache_node;

struct kmem_cache {
	struct kmem_cache_cpu __percpu *cpu_slab;
	slab_flags_t flags;
	unsigned long min_partial;	/* slabs a node keeps when empty */
	unsigned int size;		/* object plus metadata */
	unsigned int object_size;	/* what the user asked for */
	unsigned int offset;		/* free pointer offset */
#ifdef CONFIG_SLUB_CPU_PARTIAL
	unsigned int cpu_partial;	/* objects kept on c->partial */
#endif
	struct kmem_cache_order_objects oo;	/* preferred */
	struct kmem_cache_order_objects max;	/* largest ever used */
	struct kmem_cache_order_objects min;	/* fallback */
	gfp_t allocflags;		/* added to every page allocation */
	int refcount;			/* creators sharing it (merging) */
	void (*ctor)(void *);
	unsigned int inuse;		/* offset of the metadata */
	unsigned int align;
	unsigned int red_left_pad;	/* left red zone size */
	const char *name;
	struct list_head list;		/* slab_caches */
#ifdef CONFIG_SLAB_FREELIST_HARDENED
	unsigned long random;
#endif
#ifdef CONFIG_SLAB_FREELIST_RANDOM
	unsigned int *random_seq;	/* object offsets in a shuffled order */
#endif
	unsigned int useroffset;
	unsigned int usersize;
#ifdef CONFIG_KASAN
	struct kasan_cache kasan_info;	/* where its metadata sits */
#endif
	struct kmem_cache_node *node[MAX_NUMNODES];
};

/* The object of @s that contains address @x of @page's slab. */
static inline void *nearest_obj(struct kmem_cache *kc,
				struct page *page, void *x)
{
	void *base = page_address(page);
	void *object = x - (x - base) % kc->size;
	void *last = base + (page->objects - 1) * kc->size;

	object = object < last ? object : last;
	/* fixup_red_left(): red_left_pad is 0 without SLAB_RED_ZONE. */
	return object + kc->red_left_pad;
}

static inline unsigned int
__obj_to_index(const struct kmem_cache *kc, void *addr, void *obj)
{
	return (obj - addr) / kc->size;
}

static inline unsigned int
obj_to_index(const struct kmem_cache *kc, const struct page *page, void *obj)
{
	void *base = page_address(page);

	return __obj_to_index(kc, base, obj);
}

static inline int
objs_per_slab_page(const struct kmem_cache *kc, const struct page *page)
{
	return page->objects;
}

#endif /* _LINUX_SLUB_DEF_H */
