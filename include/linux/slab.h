/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SLAB_H
#define _LINUX_SLAB_H

/*
 * The slab allocator's interface (Linux 5.15, SLUB only): object caches
 * (kmem_cache_*) and the general-purpose kmalloc() family built on a
 * fixed set of caches, one per size class.
 *
 * Size classes: powers of two from 8 to 8192 bytes plus 96 and 192.
 * Anything above KMALLOC_MAX_CACHE_SIZE (two pages) goes to the page
 * allocator as a compound page; kfree() tells the two apart by PageSlab.
 *
 * A constant size picks its cache at compile time (kmalloc_index());
 * a variable one goes through __kmalloc() and the size_index table.
 */
#include <linux/types.h>
#include <linux/gfp.h>
#include <linux/log2.h>
#include <linux/list.h>
#include <linux/compiler.h>
#include <linux/mm.h>

#ifndef __malloc
#define __malloc	__attribute__((__malloc__))
#endif

typedef unsigned int slab_flags_t;

/* kmem_cache_create() flags; values are Linux's. */
#define SLAB_CONSISTENCY_CHECKS	((slab_flags_t)0x00000100U)	/* F */
#define SLAB_RED_ZONE		((slab_flags_t)0x00000400U)	/* Z */
#define SLAB_POISON		((slab_flags_t)0x00000800U)	/* P */
#define SLAB_HWCACHE_ALIGN	((slab_flags_t)0x00002000U)
#define SLAB_CACHE_DMA		((slab_flags_t)0x00004000U)
#define SLAB_CACHE_DMA32	((slab_flags_t)0x00008000U)
#define SLAB_STORE_USER		((slab_flags_t)0x00010000U)	/* U */
#define SLAB_RECLAIM_ACCOUNT	((slab_flags_t)0x00020000U)
#define SLAB_PANIC		((slab_flags_t)0x00040000U)
#define SLAB_TYPESAFE_BY_RCU	((slab_flags_t)0x00080000U)
#define SLAB_MEM_SPREAD		((slab_flags_t)0x00100000U)
#define SLAB_TRACE		((slab_flags_t)0x00200000U)	/* T */
#define SLAB_DEBUG_OBJECTS	((slab_flags_t)0x00400000U)
#define SLAB_NOLEAKTRACE	((slab_flags_t)0x00800000U)
#define SLAB_FAILSLAB		((slab_flags_t)0x02000000U)	/* A */
#define SLAB_ACCOUNT		((slab_flags_t)0x04000000U)
#ifdef CONFIG_KASAN
#define SLAB_KASAN		((slab_flags_t)0x08000000U)	/* sanitized: see mm/kasan */
#else
#define SLAB_KASAN		0
#endif
#define SLAB_DEACTIVATED	((slab_flags_t)0x10000000U)
#define SLAB_TEMPORARY		SLAB_RECLAIM_ACCOUNT

/* Returned for kmalloc(0): not NULL, but faults on any access. */
#define ZERO_SIZE_PTR		((void *)16)
#define ZERO_OR_NULL_PTR(x)	((unsigned long)(x) <= (unsigned long)ZERO_SIZE_PTR)

/* x86_64 needs no DMA alignment beyond the natural one. */
#define ARCH_KMALLOC_MINALIGN	__alignof__(unsigned long long)
#define ARCH_SLAB_MINALIGN	__alignof__(unsigned long long)

#define KMALLOC_SHIFT_HIGH	(PAGE_SHIFT + 1)
#define KMALLOC_SHIFT_MAX	(MAX_ORDER + PAGE_SHIFT - 1)
#define KMALLOC_SHIFT_LOW	3
#define KMALLOC_MAX_SIZE	(1UL << KMALLOC_SHIFT_MAX)
#define KMALLOC_MAX_CACHE_SIZE	(1UL << KMALLOC_SHIFT_HIGH)
#define KMALLOC_MAX_ORDER	(KMALLOC_SHIFT_MAX - PAGE_SHIFT)
#define KMALLOC_MIN_SIZE	(1 << KMALLOC_SHIFT_LOW)
#define SLAB_OBJ_MIN_SIZE	(KMALLOC_MIN_SIZE < 16 ? KMALLOC_MIN_SIZE : 16)

struct kmem_cache;

/*
 * kmalloc cache families.  irqlab has no memory cgroups and no ZONE_DMA,
 * so (as in Linux built that way) CGROUP and DMA alias NORMAL; DMA32
 * requests are not served by kmalloc at all (GFP_SLAB_BUG_MASK).
 */
enum kmalloc_cache_type {
	KMALLOC_NORMAL = 0,
	KMALLOC_DMA = KMALLOC_NORMAL,
	KMALLOC_CGROUP = KMALLOC_NORMAL,
	KMALLOC_RECLAIM,
	NR_KMALLOC_TYPES
};

extern struct kmem_cache *
kmalloc_caches[NR_KMALLOC_TYPES][KMALLOC_SHIFT_HIGH + 1];

static __always_inline enum kmalloc_cache_type kmalloc_type(gfp_t flags)
{
	return (flags & __GFP_RECLAIMABLE) ? KMALLOC_RECLAIM : KMALLOC_NORMAL;
}

/*
 * The cache index for @size: 1 is kmalloc-96, 2 is kmalloc-192, n >= 3
 * is kmalloc-(2^n).  0 means size 0 (ZERO_SIZE_PTR); sizes beyond the
 * caches are a compile error for constants (the caller must use the
 * page allocator path, as kmalloc() below does).
 */
static __always_inline unsigned int __kmalloc_index(size_t size,
						    bool size_is_constant)
{
	if (!size)
		return 0;
	if (size <= KMALLOC_MIN_SIZE)
		return KMALLOC_SHIFT_LOW;
	if (KMALLOC_MIN_SIZE <= 32 && size > 64 && size <= 96)
		return 1;
	if (KMALLOC_MIN_SIZE <= 64 && size > 128 && size <= 192)
		return 2;
	if (size <= 8)
		return 3;
	if (size <= 16)
		return 4;
	if (size <= 32)
		return 5;
	if (size <= 64)
		return 6;
	if (size <= 128)
		return 7;
	if (size <= 256)
		return 8;
	if (size <= 512)
		return 9;
	if (size <= 1024)
		return 10;
	if (size <= 2048)
		return 11;
	if (size <= 4096)
		return 12;
	if (size <= 8192)
		return 13;
	if (size_is_constant)
		__builtin_trap();	/* unreachable: kmalloc() checked */
	return -1;
}
#define kmalloc_index(s) __kmalloc_index(s, true)

/* Caches. */
struct kmem_cache *kmem_cache_create(const char *name, unsigned int size,
				     unsigned int align, slab_flags_t flags,
				     void (*ctor)(void *));
struct kmem_cache *kmem_cache_create_usercopy(const char *name,
					      unsigned int size,
					      unsigned int align,
					      slab_flags_t flags,
					      unsigned int useroffset,
					      unsigned int usersize,
					      void (*ctor)(void *));
void kmem_cache_destroy(struct kmem_cache *s);
int kmem_cache_shrink(struct kmem_cache *s);
/*
 * A shrinker whose scan kmem_cache_shrink()s every cache (mm/slab_common.c),
 * registered at boot; registering it again is -EBUSY.
 */
int kmem_cache_shrinker_register(void);
void kmem_cache_shrinker_unregister(void);
const char *kmem_cache_name(struct kmem_cache *s);
unsigned int kmem_cache_size(struct kmem_cache *s);

void *kmem_cache_alloc(struct kmem_cache *s, gfp_t gfpflags) __malloc;
void *kmem_cache_alloc_node(struct kmem_cache *s, gfp_t gfpflags,
			    int node) __malloc;
void kmem_cache_free(struct kmem_cache *s, void *x);
void *kmem_cache_alloc_trace(struct kmem_cache *s, gfp_t gfpflags,
			     size_t size) __malloc;
void *kmem_cache_alloc_node_trace(struct kmem_cache *s, gfp_t gfpflags,
				  int node, size_t size) __malloc;

/*
 * Bulk: all or nothing.  Returns @nr, or 0 with nothing allocated.
 * kmem_cache_free_bulk() accepts objects of any kmalloc cache when @s
 * is NULL.
 */
int kmem_cache_alloc_bulk(struct kmem_cache *s, gfp_t flags,
			  size_t nr, void **p);
void kmem_cache_free_bulk(struct kmem_cache *s, size_t size, void **p);

static __always_inline void kfree_bulk(size_t size, void **p)
{
	kmem_cache_free_bulk(NULL, size, p);
}

/* kmalloc. */
void *__kmalloc(size_t size, gfp_t flags) __malloc;
void *__kmalloc_node(size_t size, gfp_t flags, int node) __malloc;
void *__kmalloc_track_caller(size_t size, gfp_t flags,
			     unsigned long caller) __malloc;
void *kmalloc_order(size_t size, gfp_t flags, unsigned int order) __malloc;
void *kmalloc_order_trace(size_t size, gfp_t flags,
			  unsigned int order) __malloc;
void kfree(const void *x);
void kfree_sensitive(const void *x);
size_t __ksize(const void *x);
size_t ksize(const void *x);
void *krealloc(const void *p, size_t new_size, gfp_t flags);

static __always_inline void *kmalloc_large(size_t size, gfp_t flags)
{
	unsigned int order = get_order(size);

	return kmalloc_order_trace(size, flags, order);
}

static __always_inline void *kmalloc(size_t size, gfp_t flags)
{
	if (__builtin_constant_p(size)) {
		unsigned int index;

		if (size > KMALLOC_MAX_CACHE_SIZE)
			return kmalloc_large(size, flags);
		index = kmalloc_index(size);
		if (!index)
			return ZERO_SIZE_PTR;
		return kmem_cache_alloc_trace(
				kmalloc_caches[kmalloc_type(flags)][index],
				flags, size);
	}
	return __kmalloc(size, flags);
}

static __always_inline void *kmalloc_node(size_t size, gfp_t flags, int node)
{
	if (__builtin_constant_p(size) && size <= KMALLOC_MAX_CACHE_SIZE) {
		unsigned int i = kmalloc_index(size);

		if (!i)
			return ZERO_SIZE_PTR;
		return kmem_cache_alloc_node_trace(
				kmalloc_caches[kmalloc_type(flags)][i],
				flags, node, size);
	}
	return __kmalloc_node(size, flags, node);
}

static inline bool check_mul_overflow_size(size_t a, size_t b, size_t *r)
{
	return __builtin_mul_overflow(a, b, r);
}

static inline void *kmalloc_array(size_t n, size_t size, gfp_t flags)
{
	size_t bytes;

	if (unlikely(check_mul_overflow_size(n, size, &bytes)))
		return NULL;
	return kmalloc(bytes, flags);
}

static inline void *kcalloc(size_t n, size_t size, gfp_t flags)
{
	return kmalloc_array(n, size, flags | __GFP_ZERO);
}

static inline void *kzalloc(size_t size, gfp_t flags)
{
	return kmalloc(size, flags | __GFP_ZERO);
}

static inline void *kzalloc_node(size_t size, gfp_t flags, int node)
{
	return kmalloc_node(size, flags | __GFP_ZERO, node);
}

static inline void *kmem_cache_zalloc(struct kmem_cache *k, gfp_t flags)
{
	return kmem_cache_alloc(k, flags | __GFP_ZERO);
}

#define kmalloc_track_caller(size, flags) \
	__kmalloc_track_caller(size, flags, _RET_IP_)

/* Bring-up (start_kernel) and the slabinfo report. */
void kmem_cache_init(void);
void kmem_cache_init_late(void);
void slabinfo_show(void);
void slabinfo_records(void);
void slabinfo_report_at_end(void);

#endif /* _LINUX_SLAB_H */
