/* SPDX-License-Identifier: GPL-2.0 */
#ifndef MM_SLUB_H
#define MM_SLUB_H

/*
 * SLUB internals shared by the allocator's paths (mm/slub.c) and its
 * debugging support (mm/slub_debug.c).  Linux keeps all of this static
 * in one mm/slub.c; irqlab splits the debug half out so that the pre- and
 * post-series ports can share it, and the helpers below are what both
 * halves need.
 *
 * Object layout inside a slab of cache s (s->size bytes per object):
 *
 *   [red_left_pad][object_size bytes][right red zone][free pointer when
 *   it cannot live inside the object][alloc+free tracks][padding]
 *
 * s->inuse is where the metadata after the object starts; s->offset is
 * where the free pointer is (in the middle of the object unless poisoning,
 * a ctor or RCU need the object intact while free).
 */
#include <linux/mm.h>
#include <linux/bit_spinlock.h>
#include <linux/irqflags.h>
#include <linux/lockdep.h>
#include <linux/percpu.h>
#include <linux/errno.h>
#include <asm/processor.h>
#include <asm/stacktrace.h>
#include "slab.h"

/* CONFIG_DEBUG_VM checks of SLUB's invariants (frozen state etc.). */
#ifdef CONFIG_DEBUG_VM
#define VM_BUG_ON(cond)		BUG_ON(cond)
#else
#define VM_BUG_ON(cond)		do { (void)sizeof(!(cond)); } while (0)
#endif

#define MIN_PARTIAL	5	/* node partial slabs kept at least */
#define MAX_PARTIAL	10	/* ... and at most, when they are empty */

/* What a bare "slub_debug" (or CONFIG_SLUB_DEBUG_ON) turns on. */
#define DEBUG_DEFAULT_FLAGS	(SLAB_STORE_USER | SLAB_POISON | \
				 SLAB_RED_ZONE | SLAB_CONSISTENCY_CHECKS)
/* Caches with these flags cannot update freelist+counters locklessly. */
#define SLAB_NO_CMPXCHG		(SLAB_TRACE | SLAB_STORE_USER | \
				 SLAB_CONSISTENCY_CHECKS)
/* Flags that add bytes to each slot. */
#define DEBUG_METADATA_FLAGS	(SLAB_STORE_USER | SLAB_POISON | \
				 SLAB_RED_ZONE)

#define OO_SHIFT	16
#define OO_MASK		((1 << OO_SHIFT) - 1)
#define MAX_OBJS_PER_PAGE	32767	/* page->objects is 15 bits wide */

/* Internal s->flags bits. */
#define __OBJECT_POISON		((slab_flags_t)0x80000000U)
#define __CMPXCHG_DOUBLE	((slab_flags_t)0x40000000U)

/* Poison bytes (Linux's include/linux/poison.h values). */
#define SLUB_RED_INACTIVE	0xbb
#define SLUB_RED_ACTIVE		0xcc
#define POISON_INUSE		0x5a	/* object handed out, not written */
#define POISON_FREE		0x6b	/* free object */
#define POISON_END		0xa5	/* last byte of a poisoned object */

static inline bool kmem_cache_debug(struct kmem_cache *cache)
{
	return kmem_cache_debug_flags(cache, SLAB_DEBUG_FLAGS);
}

/* Object start from slot start: skip the left red zone if there is one. */
static inline void *fixup_red_left(struct kmem_cache *s, void *p)
{
	if (kmem_cache_debug_flags(s, SLAB_RED_ZONE))
		p += s->red_left_pad;
	return p;
}

static inline bool kmem_cache_has_cpu_partial(struct kmem_cache *cache)
{
#ifdef CONFIG_SLUB_CPU_PARTIAL
	return !kmem_cache_debug(cache);
#else
	return false;
#endif
}

/*
 * Per-CPU event counters.  raw_cpu_inc: a preempted increment may land
 * on another CPU's counter, which sums the same.
 */
static inline void stat(const struct kmem_cache *cache, enum stat_item item)
{
#ifdef CONFIG_SLUB_STATS
	raw_cpu_inc(cache->cpu_slab->stat[item]);
#endif
}

/*
 * Free pointers.  With CONFIG_SLAB_FREELIST_HARDENED the stored value is
 * obfuscated with a per-cache secret and the byte-swapped slot address,
 * so an overwrite with a plain address, or a pointer copied to another
 * slot, decodes to garbage instead of a usable object.
 */
static inline void *freelist_ptr(const struct kmem_cache *cache,
				 void *value, unsigned long slot)
{
#ifdef CONFIG_SLAB_FREELIST_HARDENED
	unsigned long key = cache->random ^ __builtin_bswap64(slot);

	return (void *)(key ^ (unsigned long)value);
#else
	return value;
#endif
}

static inline void *freelist_dereference(const struct kmem_cache *cache,
					 void *slot)
{
	unsigned long stored = *(unsigned long *)slot;

	return freelist_ptr(cache, (void *)stored, (unsigned long)slot);
}

static inline void *get_freepointer(struct kmem_cache *cache, void *obj)
{
	return freelist_dereference(cache, obj + cache->offset);
}

static inline void prefetch_freepointer(const struct kmem_cache *cache,
					void *obj)
{
	__builtin_prefetch(obj + cache->offset);
}

/*
 * The fast path reads the next free pointer of an object another CPU may
 * already have allocated and written: harmless (the tid check fails), as
 * long as the read cannot fault.  irqlab's direct map never unmaps slab
 * pages (no debug_pagealloc), so a plain read is safe.
 */
static inline void *get_freepointer_safe(struct kmem_cache *cache, void *obj)
{
	return get_freepointer(cache, obj);
}

static inline void set_freepointer(struct kmem_cache *s, void *object,
				   void *fp)
{
	unsigned long slot = (unsigned long)object + s->offset;

	/* A slot pointing at itself is a double free in the making. */
	if (IS_ENABLED(CONFIG_SLAB_FREELIST_HARDENED) && object == fp)
		panic("SLUB: %s: free pointer of %px points to itself",
		      s->name, object);
	*(void **)slot = freelist_ptr(s, fp, slot);
}

/* Every object slot of a slab, red zone skipped. */
#define for_each_object(__pos, __cache, __base, __count)		\
	for (__pos = fixup_red_left(__cache, __base);			\
	     __pos < (__base) + (__count) * (__cache)->size;		\
	     __pos += (__cache)->size)

static inline unsigned int order_objects(unsigned int pg_order,
					 unsigned int obj_size)
{
	unsigned int slab_bytes = (unsigned int)PAGE_SIZE << pg_order;

	return slab_bytes / obj_size;
}

/* Order in the high half, objects per slab in the low OO_SHIFT bits. */
static inline struct kmem_cache_order_objects
oo_make(unsigned int pg_order, unsigned int obj_size)
{
	unsigned int nr = order_objects(pg_order, obj_size);
	struct kmem_cache_order_objects packed = {
		(pg_order << OO_SHIFT) + nr
	};

	return packed;
}

static inline unsigned int oo_order(struct kmem_cache_order_objects oo)
{
	return oo.x >> OO_SHIFT;
}

static inline unsigned int oo_objects(struct kmem_cache_order_objects oo)
{
	return oo.x & OO_MASK;
}

/*
 * slab_lock: a bit spinlock on PG_locked of the slab's head page, for
 * caches that cannot cmpxchg freelist+counters (debug caches).  On
 * PREEMPT_RT it also disables interrupts itself, because its callers no
 * longer do (5.15).
 */
/*
 * lock_stat's class of every slab's lock (CONFIG_LOCK_STAT; mm/slub_cache.c),
 * where page-level contention shows; without lock_stat the calls below
 * are the plain bit spinlock.
 */
DECLARE_BIT_SPIN_CLASS(slab_lock_map);

static __always_inline void __slab_lock(struct page *head)
{
	bit_spin_lock_class(PG_locked, &head->flags, &slab_lock_map);
}

static __always_inline void __slab_unlock(struct page *head)
{
	__bit_spin_unlock_class(PG_locked, &head->flags, &slab_lock_map);
}

static __always_inline void slab_lock(struct page *head,
				      unsigned long *irq_flags)
{
	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		local_irq_save(*irq_flags);
	__slab_lock(head);
}

static __always_inline void slab_unlock(struct page *head,
					unsigned long *irq_flags)
{
	__slab_unlock(head);
	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		local_irq_restore(*irq_flags);
}

/*
 * The two halves of every port's cmpxchg_double_slab() pair (the
 * lockless attempt itself is cmpxchg_double, one lock cmpxchg16b).
 *
 * slab_update_locked() is what the instruction does, written out for the
 * caches that cannot use it (SLAB_NO_CMPXCHG): both words must still hold
 * what the caller read, and then both are replaced.  slab_lock is held,
 * so no other updater can slip in between the test and the stores.
 */
static __always_inline bool
slab_update_locked(struct page *page, void *freelist_seen,
		   unsigned long counters_seen, void *freelist_next,
		   unsigned long counters_next)
{
	if (page->freelist != freelist_seen ||
	    page->counters != counters_seen)
		return false;
	page->freelist = freelist_next;
	page->counters = counters_next;
	return true;
}

/*
 * Somebody changed the slab between the caller's read and its update: the
 * caller reads both words again and retries.  Pause first, so the retry
 * does not hammer the cache line the winner still works on, and count it.
 */
static __always_inline void slab_update_lost(struct kmem_cache *s)
{
	cpu_relax();
	stat(s, CMPXCHG_DOUBLE_FAIL);
}

/* Partial list membership (n->list_lock held). */
static inline void __add_partial(struct kmem_cache_node *n, struct page *page,
				 int tail)
{
	n->nr_partial++;
	if (tail)
		list_add_tail(&page->slab_list, &n->partial);
	else
		list_add(&page->slab_list, &n->partial);
}

static inline void add_partial(struct kmem_cache_node *n, struct page *page,
			       int tail)
{
	lockdep_assert_held(&n->list_lock);
	__add_partial(n, page, tail == DEACTIVATE_TO_TAIL);
}

static inline void
remove_partial(struct kmem_cache_node *n, struct page *page)
{
	lockdep_assert_held(&n->list_lock);
	list_del(&page->slab_list);
	n->nr_partial--;
}


/* c->partial's capacity in objects (0 without CPU partial lists). */
#ifdef CONFIG_SLUB_CPU_PARTIAL
#define slub_cpu_partial(s)		((s)->cpu_partial)
#define slub_set_cpu_partial(s, n)	((s)->cpu_partial = (n))
#else
#define slub_cpu_partial(s)		(0)
#define slub_set_cpu_partial(s, n)	do { } while (0)
#endif

/*
 * c->tid starts at the CPU number and moves by a power of two not below
 * NR_CPUS, so a tid names one CPU and one event on it: a fast path that
 * read (freelist, tid) on CPU A and was moved to B, or preempted while
 * another operation ran on A, fails its this_cpu_cmpxchg_double.
 */
#ifdef CONFIG_PREEMPTION
#define TID_STEP	(roundup_pow_of_two(CONFIG_NR_CPUS))
#else
#define TID_STEP	1
#endif

static inline unsigned long
next_tid(unsigned long tid)
{
	return tid + TID_STEP;
}

static inline unsigned int init_tid(int cpu)
{
	return cpu;
}

/*
 * "mm/slub: add missing TID updates on slab deactivation": ___slab_alloc
 * also detaches c->page in two places, and a fast path that sampled the
 * old pair before that must fail too.  CONFIG_SLUB_BUG_MISSING_TID
 * re-injects the bug by leaving the tid alone there.
 */
#ifdef CONFIG_SLUB_BUG_MISSING_TID
#define deactivate_tid(tid)	(tid)
#else
#define deactivate_tid(tid)	next_tid(tid)
#endif

/*
 * Between the ports (mm/slub.c or mm/slub_legacy.c) and what they share
 * (mm/slub_cache.c: geometry, set-up, teardown, shrinking, reporting).
 */
extern nodemask_t slab_nodes;	/* nodes that have a kmem_cache_node */

/* mm/slub_cache.c */
void *setup_object(struct kmem_cache *s, struct page *page, void *object);

#ifdef CONFIG_SLAB_FREELIST_RANDOM
/* Chain @page's objects in the cache's random order; false: not done. */
bool shuffle_freelist(struct kmem_cache *s, struct page *page);
#else
static inline bool shuffle_freelist(struct kmem_cache *cache, struct page *slab_page)
{
	return false;	/* address order */
}
#endif
void setup_slab_freelist(struct kmem_cache *s, struct page *page);
struct page *alloc_slab_page(struct kmem_cache *s, gfp_t flags, int node,
			     struct kmem_cache_order_objects oo);
void discard_slab(struct kmem_cache *s, struct page *page);
void slab_out_of_memory(struct kmem_cache *s, gfp_t gfp, int nid);

/* the port */
struct page *new_slab(struct kmem_cache *s, gfp_t gfp, int node);
void init_kmem_cache_cpus(struct kmem_cache *s);
void __flush_cpu_slab(struct kmem_cache *s, int cpu);

#ifdef CONFIG_KTEST
/*
 * Test-only: a walk of @s that needs no slub_debug flag (which would turn
 * CPU partials off).  Returns the number of inconsistencies found (each
 * printed); call with the cache quiescent.
 */
int slub_check_consistency(struct kmem_cache *s);
/*
 * Test-only, quiescent cache: of the @nr pages in @pages (the slabs a
 * test saw its objects in), each one still a slab of @s that is frozen
 * must be some online CPU's slab or on its partial chain; a frozen slab
 * no CPU owns is leaked (its free objects never come back).  Returns
 * the number found (each printed).
 */
int slub_check_frozen_owned(struct kmem_cache *s, struct page **pages,
			    unsigned int nr);
#endif

/* ------------------------------------------------------------------ */
/* mm/slub_debug.c                                                     */

#ifdef CONFIG_SLUB_DEBUG

/* Where an object was last allocated and freed (SLAB_STORE_USER). */
#define TRACK_ADDRS_COUNT 8
struct track {
	unsigned long addr;		/* caller */
	unsigned long addrs[TRACK_ADDRS_COUNT];	/* call chain */
	int cpu;
	int pid;
	unsigned long when;		/* jiffies */
};

enum track_item { TRACK_ALLOC, TRACK_FREE };

extern slab_flags_t slub_debug;		/* flags from slub_debug= */
extern char *slub_debug_string;		/* per-cache selections */
/* slub_debug=O: drop debug metadata where it would raise a cache's order. */
extern int disable_higher_order_debug;

void setup_object_debug(struct kmem_cache *s, struct page *page,
			void *object);
void setup_page_debug(struct kmem_cache *s, struct page *page, void *addr);
int alloc_debug_processing(struct kmem_cache *s, struct page *page,
			   void *object, unsigned long addr);
int free_debug_processing(struct kmem_cache *s, struct page *page,
			  void *head, void *tail, int bulk_cnt,
			  unsigned long addr);
void init_object(struct kmem_cache *s, void *object, u8 val);
int check_object(struct kmem_cache *s, struct page *page, void *object,
		 u8 val);
int check_slab(struct kmem_cache *s, struct page *page);
int on_freelist(struct kmem_cache *s, struct page *page, void *search);
int slab_pad_check(struct kmem_cache *s, struct page *page);
void object_err(struct kmem_cache *s, struct page *page, u8 *object,
		char *reason);
void slab_err(struct kmem_cache *s, struct page *page, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void print_tracking(struct kmem_cache *s, void *object);
bool freelist_corrupted(struct kmem_cache *s, struct page *page,
			void **freelist, void *nextfree);
void list_slab_objects(struct kmem_cache *s, struct page *page,
		       const char *text);
unsigned int size_from_object(struct kmem_cache *s);
unsigned int get_info_end(struct kmem_cache *s);

void add_full(struct kmem_cache *s, struct kmem_cache_node *n,
	      struct page *page);
void remove_full(struct kmem_cache *s, struct kmem_cache_node *n,
		 struct page *page);

static inline unsigned long node_nr_slabs(struct kmem_cache_node *kn)
{
	return atomic_long_read(&kn->nr_slabs);
}

static inline unsigned long slabs_node(struct kmem_cache *cache, int nid)
{
	return node_nr_slabs(get_node(cache, nid));
}

static inline void inc_slabs_node(struct kmem_cache *cache, int nid,
				  int nr_objs)
{
	struct kmem_cache_node *kn = get_node(cache, nid);

	/* NULL only while the node structures' own cache is booting. */
	if (likely(kn)) {
		atomic_long_inc(&kn->nr_slabs);
		atomic_long_add(nr_objs, &kn->total_objects);
	}
}

static inline void dec_slabs_node(struct kmem_cache *cache, int nid,
				  int nr_objs)
{
	struct kmem_cache_node *kn = get_node(cache, nid);

	atomic_long_dec(&kn->nr_slabs);
	atomic_long_sub(nr_objs, &kn->total_objects);
}

static inline unsigned long node_nr_objs(struct kmem_cache_node *kn)
{
	return atomic_long_read(&kn->total_objects);
}

#else /* !CONFIG_SLUB_DEBUG */

#define slub_debug			0
#define disable_higher_order_debug	0

/* Without CONFIG_SLUB_DEBUG every check passes and nothing is tracked. */
static inline void setup_object_debug(struct kmem_cache *cache,
				      struct page *pg, void *obj) { }
static inline void setup_page_debug(struct kmem_cache *cache,
				    struct page *pg, void *base) { }
static inline int alloc_debug_processing(struct kmem_cache *cache,
					 struct page *pg, void *obj,
					 unsigned long caller) { return 0; }
static inline int free_debug_processing(struct kmem_cache *cache,
					struct page *pg, void *head,
					void *tail, int bulk_cnt,
					unsigned long caller) { return 0; }
static inline int slab_pad_check(struct kmem_cache *cache, struct page *pg)
{ return 1; }
static inline int check_object(struct kmem_cache *cache, struct page *pg,
			       void *obj, u8 val) { return 1; }
static inline void add_full(struct kmem_cache *cache,
			    struct kmem_cache_node *kn,
			    struct page *pg) { }
static inline void remove_full(struct kmem_cache *cache,
			       struct kmem_cache_node *kn,
			       struct page *pg) { }
static inline unsigned long slabs_node(struct kmem_cache *cache, int nid)
{ return 0; }
static inline unsigned long node_nr_slabs(struct kmem_cache_node *kn)
{ return 0; }
static inline void inc_slabs_node(struct kmem_cache *cache, int nid,
				  int nr_objs) { }
static inline void dec_slabs_node(struct kmem_cache *cache, int nid,
				  int nr_objs) { }
static inline bool freelist_corrupted(struct kmem_cache *cache,
				      struct page *pg, void **chain,
				      void *next) { return false; }
static inline void list_slab_objects(struct kmem_cache *cache,
				     struct page *pg, const char *text) { }
#endif /* CONFIG_SLUB_DEBUG */

/*
 * Give every CPU slab and CPU partial slab of @s back to the node lists
 * (mm/slub.c); validate_slab_cache() needs them all there.
 */
void flush_all(struct kmem_cache *s);
/*
 * The same with the CPU hotplug lock already held by the caller (5.15:
 * kmem_cache_destroy() takes it before slab_mutex; flush_all() would
 * take it again).  The pre-series port never takes the lock.
 */
void flush_all_cpus_locked(struct kmem_cache *s);
/* CPUHP_SLUB_DEAD: a dead CPU's slabs back to the node lists (each port). */
int slub_cpu_dead(unsigned int cpu);
/* No cache holds slabs on an offline CPU (run=hotplug); the count found. */
int slub_hotplug_check(void);

/*
 * Test-only observation points (CONFIG_SLUB_SCOPE_PROBE): SLUB reports
 * the context of a few places on the paths whose IRQ-off and preempt-off
 * scope the series changed, so the scope tests (test/slub_scope_test.c)
 * can assert on it.  Compiled out otherwise; a probe only counts, it
 * neither disables nor enables anything.
 */
enum slub_probe_site {
	SLUB_PROBE_ALLOC_PAGES,		/* allocate_slab -> page allocator */
	SLUB_PROBE_FREE_PAGES,		/* __free_slab -> page allocator */
	SLUB_PROBE_FLUSH,		/* flush_cpu_slab / __flush_cpu_slab */
	SLUB_PROBE_DEACTIVATE_WALK,	/* deactivate_slab's freelist walk */
	SLUB_PROBE_UNFREEZE,		/* (__)unfreeze_partials */
	SLUB_PROBE_CPU_DEAD,		/* slub_cpu_dead, before each __flush_cpu_slab */
	SLUB_PROBE_SLOWPATH,		/* ___slab_alloc entry */
	SLUB_PROBE_PARTIAL_NODE,	/* get_partial_node, list_lock held */
	SLUB_PROBE_BULK_ALLOC,		/* kmem_cache_alloc_bulk, c->freelist taken */
	SLUB_PROBE_SLAB_FREE,		/* __slab_free entry */
	SLUB_PROBE_LOAD_FREELIST,	/* ___slab_alloc loads c->freelist */
	SLUB_PROBE_PARTIAL_PUSH,	/* put_cpu_partial, page pushed */
	NR_SLUB_PROBE_SITES
};
#ifdef CONFIG_SLUB_SCOPE_PROBE
/* Per site, since the last reset (mm/slub_probe.c). */
struct slub_probe_stats {
	unsigned long calls;		/* slub_probe() calls */
	unsigned long irqs_off;		/* ... with interrupts disabled */
	unsigned long preempt_off;	/* ... with preempt_count() != 0 */
	unsigned long hardirq;		/* ... in hard-IRQ context */
};

void slub_probe(struct kmem_cache *s, enum slub_probe_site site);
void slub_probe_read(enum slub_probe_site site, struct slub_probe_stats *out);
/* Zero every site; count calls for every cache from now on. */
void slub_probe_reset(void);
/* Zero every site; count only calls made for @s (NULL: every cache). */
void slub_probe_watch(struct kmem_cache *s);
#else
static inline void slub_probe(struct kmem_cache *s, enum slub_probe_site site) { }
#endif

/*
 * Test-only windows (CONFIG_SLUB_SCOPE_PROBE): the points where SLUB has
 * read per-CPU state without its lock and will act on it later, i.e.
 * where an interrupt or (where preemptible) another task may run SLUB
 * on this CPU in between.  A test registers one callback for one cache
 * and runs there what such an interrupt or task would: allocate or free
 * from the same cache, or (where the context may sleep) let another
 * task run.  The calls sit where the windows are open in Linux; they
 * open no window of their own, and the callback is told nothing it could
 * not see from the context (irqs_disabled(), preemptible()).
 */
enum slub_window_site {
	SLUB_WIN_PAGE_READ,	/* ___slab_alloc: c->page read, lock not yet taken */
	SLUB_WIN_PARTIAL_READ,	/* ___slab_alloc: c->partial seen, lock not yet taken */
	SLUB_WIN_RELOCK,	/* ___slab_alloc: new slab in hand, lock not yet re-taken */
	SLUB_WIN_ALLOC_PAGES,	/* alloc_slab_page: in the page allocator's window */
	SLUB_WIN_FREE_FAST,	/* do_slab_free: tid and c->page read, before the cmpxchg */
	NR_SLUB_WINDOWS
};
typedef void (*slub_window_fn)(struct kmem_cache *s, enum slub_window_site w);

#ifdef CONFIG_SLUB_SCOPE_PROBE
extern struct kmem_cache *slub_window_cache;
void __slub_window(struct kmem_cache *s, enum slub_window_site w);
/* One pointer compare unless a test watches this cache. */
static __always_inline void slub_window(struct kmem_cache *s,
					enum slub_window_site w)
{
	if (unlikely(READ_ONCE(slub_window_cache) == s))
		__slub_window(s, w);
}
/* Watch @s with @fn (NULL, NULL: stop); calls per site since the watch. */
void slub_window_set(struct kmem_cache *s, slub_window_fn fn);
unsigned long slub_window_calls(enum slub_window_site w);
#else
static __always_inline void slub_window(struct kmem_cache *s,
					enum slub_window_site w) { }
#endif

#endif /* MM_SLUB_H */
