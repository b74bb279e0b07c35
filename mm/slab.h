/* SPDX-License-Identifier: GPL-2.0 */
#ifndef MM_SLAB_H
#define MM_SLAB_H

/*
 * What mm/slab_common.c and the SLUB port share (Linux's mm/slab.h, SLUB
 * parts only): the node structure, bring-up state, cache creation hooks,
 * flag masks, the allocation hooks and the slabinfo interface.
 */
#include <linux/slab.h>
#include <linux/slub_def.h>
#include <linux/spinlock.h>
#include <linux/mutex.h>
#include <linux/atomic.h>
#include <linux/fault-inject.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/kasan.h>

/*
 * list_lock: a spinlock_t (a sleeping rtlock on PREEMPT_RT) as in 5.15;
 * CONFIG_SLUB_RAW_LIST_LOCK keeps it spinning on RT too (the seeds'
 * "list_lock raw" experiment).  The wrappers keep the call sites read
 * like Linux's spin_lock_irqsave(&n->list_lock, flags).
 */
/*
 * Kconfig keeps these apart already; say why if a hand-edited .config
 * gets past it.
 */
#if defined(CONFIG_PREEMPT_RT) && defined(CONFIG_SLUB_RAW_LIST_LOCK) && \
    defined(CONFIG_SLUB_CPU_PARTIAL) && !defined(CONFIG_SLUB_LEGACY) && \
    !defined(CONFIG_SLUB_NO_LOCAL_LOCK)
#error "SLUB_RAW_LIST_LOCK with SLUB_CPU_PARTIAL on PREEMPT_RT: put_cpu_partial() would take the sleeping local lock under the raw list_lock"
#endif

#ifdef CONFIG_SLUB_RAW_LIST_LOCK
typedef raw_spinlock_t slub_list_lock_t;
# define list_lock_init(l)		raw_spin_lock_init(l)
# define list_lock(l)			raw_spin_lock(l)
# define list_unlock(l)			raw_spin_unlock(l)
# define list_lock_irq(l)		raw_spin_lock_irq(l)
# define list_unlock_irq(l)		raw_spin_unlock_irq(l)
# define list_lock_irqsave(l, f)	raw_spin_lock_irqsave(l, f)
# define list_unlock_irqrestore(l, f)	raw_spin_unlock_irqrestore(l, f)
#else
typedef spinlock_t slub_list_lock_t;
# define list_lock_init(l)		spin_lock_init(l)
# define list_lock(l)			spin_lock(l)
# define list_unlock(l)			spin_unlock(l)
# define list_lock_irq(l)		spin_lock_irq(l)
# define list_unlock_irq(l)		spin_unlock_irq(l)
# define list_lock_irqsave(l, f)	spin_lock_irqsave(l, f)
# define list_unlock_irqrestore(l, f)	spin_unlock_irqrestore(l, f)
#endif

struct kmem_cache_node {
	slub_list_lock_t list_lock;
	unsigned long nr_partial;
	struct list_head partial;
#ifdef CONFIG_SLUB_DEBUG
	atomic_long_t nr_slabs;
	atomic_long_t total_objects;
	struct list_head full;
#endif
};

static inline struct kmem_cache_node *
get_node(struct kmem_cache *s, int node)
{
	return s->node[node];
}

/* Every node that has a kmem_cache_node for @s. */
#define for_each_kmem_cache_node(__cache, __nid, __kcn)	\
	for (__nid = 0; __nid < MAX_NUMNODES; __nid++)		\
		if ((__kcn = get_node(__cache, __nid)))

/* How far bring-up has got (kmem_cache_init()). */
enum slab_state {
	DOWN,		/* nothing works */
	PARTIAL,	/* kmem_cache_node's cache works */
	PARTIAL_NODE,	/* unused by SLUB; kept for Linux's numbering */
	UP,		/* kmalloc works */
	FULL		/* everything, including the late parts */
};

extern enum slab_state slab_state;
extern struct mutex slab_mutex;		/* slab_caches and cache creation */
extern struct list_head slab_caches;
/* How many are on slab_caches (changed under slab_mutex): the slab shrinker's count. */
extern unsigned int nr_slab_caches;
extern struct kmem_cache *kmem_cache;	/* the cache of kmem_cache structs */

/* kmalloc cache names and sizes, by index (mm/slab_common.c). */
struct kmalloc_info_struct {
	const char *name[NR_KMALLOC_TYPES];
	unsigned int size;
};
extern const struct kmalloc_info_struct kmalloc_info[];

void setup_kmalloc_cache_index_table(void);
void create_kmalloc_caches(slab_flags_t flags);
struct kmem_cache *kmalloc_slab(size_t size, gfp_t flags);

/* The allocator's side of cache creation and destruction. */
int __kmem_cache_create(struct kmem_cache *s, slab_flags_t flags);
void create_boot_cache(struct kmem_cache *s, const char *name,
		       unsigned int size, slab_flags_t flags,
		       unsigned int uoffset, unsigned int ulen);
struct kmem_cache *
create_kmalloc_cache(const char *cname, unsigned int objsize,
		     slab_flags_t flags, unsigned int uoffset,
		     unsigned int ulen);
int slab_unmergeable(struct kmem_cache *s);
struct kmem_cache *
find_mergeable(unsigned int objsize, unsigned int align, slab_flags_t flags,
	       const char *cname, void (*ctor)(void *));
struct kmem_cache *__kmem_cache_alias(const char *name, unsigned int size,
				      unsigned int align, slab_flags_t flags,
				      void (*ctor)(void *));
slab_flags_t kmem_cache_flags(unsigned int object_size, slab_flags_t flags,
			      const char *name);
int __kmem_cache_shutdown(struct kmem_cache *s);
void __kmem_cache_release(struct kmem_cache *s);
int __kmem_cache_shrink(struct kmem_cache *s);
int __kmem_cache_shrink_cpus_locked(struct kmem_cache *s);
void slab_kmem_cache_release(struct kmem_cache *s);
bool __kmem_cache_empty(struct kmem_cache *s);

/* Flags. */
#define SLAB_CORE_FLAGS					\
	(SLAB_PANIC | SLAB_HWCACHE_ALIGN | SLAB_TYPESAFE_BY_RCU |	\
	 SLAB_DEBUG_OBJECTS | SLAB_CACHE_DMA | SLAB_CACHE_DMA32)
#ifdef CONFIG_SLUB_DEBUG
#define SLAB_DEBUG_FLAGS					\
	(SLAB_CONSISTENCY_CHECKS | SLAB_POISON | SLAB_RED_ZONE |	\
	 SLAB_STORE_USER | SLAB_TRACE)
#else
#define SLAB_DEBUG_FLAGS (0)
#endif
#define SLAB_CACHE_FLAGS					\
	(SLAB_ACCOUNT | SLAB_TEMPORARY | SLAB_RECLAIM_ACCOUNT |	\
	 SLAB_NOLEAKTRACE)
#define CACHE_CREATE_MASK					\
	(SLAB_CACHE_FLAGS | SLAB_CORE_FLAGS | SLAB_DEBUG_FLAGS)
#define SLAB_FLAGS_PERMITTED					\
	(SLAB_CORE_FLAGS | SLAB_CONSISTENCY_CHECKS |		\
	 SLAB_POISON | SLAB_RED_ZONE | SLAB_STORE_USER |	\
	 SLAB_TRACE | SLAB_MEM_SPREAD | SLAB_FAILSLAB |	\
	 SLAB_ACCOUNT | SLAB_TEMPORARY | SLAB_RECLAIM_ACCOUNT |	\
	 SLAB_NOLEAKTRACE)

/*
 * Flags that make a cache unmergeable (slab_common.c).  Linux ORs in
 * kasan_never_merge(), which in the generic mode is always SLAB_KASAN:
 * written as the flag, so that without KASAN the code stays as it was.
 */
#define SLAB_NEVER_MERGE					\
	(SLAB_POISON | SLAB_RED_ZONE | SLAB_STORE_USER |	\
	 SLAB_TRACE | SLAB_FAILSLAB | SLAB_NOLEAKTRACE |	\
	 SLAB_TYPESAFE_BY_RCU | SLAB_KASAN)
#define SLAB_MERGE_SAME						\
	(SLAB_ACCOUNT | SLAB_CACHE_DMA | SLAB_CACHE_DMA32 |	\
	 SLAB_RECLAIM_ACCOUNT)

/*
 * Debug flags in force on @s.  Linux guards this with a static key that
 * is only switched on when some cache has debugging; a plain global
 * read is the cheap stand-in.
 */
#ifdef CONFIG_SLUB_DEBUG
extern bool slub_debug_enabled;
static __always_inline bool kmem_cache_debug_flags(struct kmem_cache *s,
						   slab_flags_t flags)
{
	if (unlikely(slub_debug_enabled))
		return s->flags & flags;
	return false;
}
#else
static __always_inline bool kmem_cache_debug_flags(struct kmem_cache *s,
						   slab_flags_t flags)
{
	return false;
}
#endif

/* The cache a kmalloc'd or cache-allocated object belongs to. */
struct kmem_cache *virt_to_cache(const void *obj);
struct kmem_cache *__cache_from_obj(struct kmem_cache *s, void *x);

/*
 * kmem_cache_free(s, x): the cache x really belongs to.  Looked up only
 * where Linux looks it up, with freelist hardening or on caches with
 * consistency checks; otherwise @s is trusted and the check costs the
 * debug switch's test, inline on the free fast path.
 */
static __always_inline struct kmem_cache *
cache_from_obj(struct kmem_cache *s, void *x)
{
	/* Only hardening or consistency checks look the page's cache up. */
	if (IS_ENABLED(CONFIG_SLAB_FREELIST_HARDENED) ||
	    kmem_cache_debug_flags(s, SLAB_CONSISTENCY_CHECKS))
		return __cache_from_obj(s, x);
	return s;
}

/*
 * Zero new objects when asked (__GFP_ZERO).  Linux also honours
 * init_on_alloc; irqlab has no such switch.
 */
static inline bool
slab_want_init_on_alloc(gfp_t flags, struct kmem_cache *c)
{
	return flags & __GFP_ZERO;
}

/*
 * Before every allocation: the checks and the failure injection point
 * (failslab=).  NULL means "fail this allocation".
 */
static inline struct kmem_cache *
slab_pre_alloc_hook(struct kmem_cache *s, gfp_t flags)
{
	might_alloc(flags);
	if (should_failslab(s, flags))
		return NULL;
	return s;
}

/*
 * After every allocation: KASAN unpoisons the object and records who
 * allocated it, then the object is zeroed if asked (kmemleak and memcg
 * have no port).  Without KASAN only the zeroing is left.
 */
#ifdef CONFIG_KASAN
static inline void slab_post_alloc_hook(struct kmem_cache *s, gfp_t flags,
					size_t size, void **p, bool init)
{
	for (size_t i = 0; i < size; i++) {
		/* Unpoisoned first: the zeroing writes through KASAN's view. */
		void *obj = kasan_slab_alloc(s, p[i], flags, init);

		p[i] = obj;
		if (obj && init && !kasan_has_integrated_init())
			memset(obj, 0, s->object_size);
	}
}
#else
static inline void slab_post_alloc_hook(struct kmem_cache *s, gfp_t flags,
					size_t size, void **p, bool init)
{
	if (!init)
		return;
	for (size_t i = 0; i < size; i++)
		if (p[i])
			memset(p[i], 0, s->object_size);
}
#endif

/*
 * The entry points (mm/slub_entry.h) pass SLAB_RET_IP for "my caller", and
 * the slow-path calls of the inline fast paths turn it into the address
 * with slab_caller_ip(), still inside the entry point: gcc loads
 * __builtin_return_address(0) where it is expanded, so a fast path that
 * never reaches a slow path never loads it (nor, on RT, keeps it in a
 * callee-saved register across its calls).  Inlined, _RET_IP_ is the
 * entry point's caller, as GCC documents for inlined functions; an
 * explicit caller (__kmalloc_track_caller) passes through unchanged.
 */
#define SLAB_RET_IP		0UL
#define slab_caller_ip(addr)	((addr) ? (addr) : _RET_IP_)

/*
 * slab_post_alloc_hook() for the one object a fast path has just taken
 * (never NULL), shaped as a tail call: the zeroing returns the object, so
 * the fast path keeps nothing live across a call.
 */
static __always_inline void *
slab_post_alloc_hook_one(struct kmem_cache *s, gfp_t flags, void *object,
			 bool init)
{
	if (IS_ENABLED(CONFIG_KASAN)) {
		slab_post_alloc_hook(s, flags, 1, &object, init);
		return object;
	}
	if (unlikely(init))
		return memset(object, 0, s->object_size);
	return object;
}

/* slabinfo (SLUB's get_slabinfo() feeds slab_common.c's report). */
struct slabinfo {
	unsigned long active_objs;
	unsigned long num_objs;
	unsigned long active_slabs;
	unsigned long num_slabs;
	unsigned long shared_avail;
	unsigned int limit;
	unsigned int batchcount;
	unsigned int shared;
	unsigned int objects_per_slab;
	unsigned int cache_order;
	unsigned long nr_partial;	/* irqlab: partial slabs, all nodes */
	unsigned long cpu_slabs;	/* irqlab: CPU and CPU-partial slabs */
};
void get_slabinfo(struct kmem_cache *s, struct slabinfo *info);
/* Sum of stat item @si over all CPUs (0 without CONFIG_SLUB_STATS). */
unsigned long slub_stat_sum(struct kmem_cache *s, enum stat_item si);
extern const char *const slub_stat_names[NR_SLUB_STAT_ITEMS];

/*
 * Pages held by slabs, all caches and nodes together: what Linux's
 * account_slab_page() adds to the node's NR_SLAB_*_B counters (irqlab
 * keeps no per-node vmstat, so one system-wide count).
 */
extern atomic_long_t slab_nr_pages;

static __always_inline void account_slab_page(struct page *page, int order)
{
	atomic_long_add(1L << order, &slab_nr_pages);
}

static __always_inline void unaccount_slab_page(struct page *page, int order)
{
	atomic_long_sub(1L << order, &slab_nr_pages);
}

/* Debug support shared by the SLUB ports (mm/slub_debug.c). */
long validate_slab_cache(struct kmem_cache *s);
/* SLUB debug reports ("BUG" lines, list counter mismatches) since boot. */
#ifdef CONFIG_SLUB_DEBUG
unsigned long slab_bug_reports(void);
#else
static inline unsigned long slab_bug_reports(void) { return 0; }
#endif

#endif /* MM_SLAB_H */
