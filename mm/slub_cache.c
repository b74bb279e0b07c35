// SPDX-License-Identifier: GPL-2.0
/*
 * What the two SLUB ports share (Linux keeps it all in mm/slub.c): slab
 * pages in and out of the page allocator, cache geometry
 * (calculate_sizes, calculate_order and the slub_min_order /
 * slub_max_order / slub_min_objects parameters), kmem_cache_open and the
 * per-node structures, bring-up (kmem_cache_init and its bootstrap),
 * shutdown, shrinking and the slabinfo numbers.  None of it differs
 * between Linux 5.13 and 5.15 except through the port's own functions
 * (new_slab, init_kmem_cache_cpus, __flush_cpu_slab, flush_all), which
 * mm/slub.c (post-series) or mm/slub_legacy.c (pre-series) provides.
 */
#include <linux/swap.h>
#include <linux/slab.h>
#include <linux/slub_def.h>
#include <linux/mm.h>
#include <linux/gfp.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/bug.h>
#include <linux/kernel.h>
#include <linux/jiffies.h>
#include <linux/rcupdate.h>
#include <linux/cpu.h>
#include <asm/processor.h>
#include "slab.h"
#include "slub.h"

nodemask_t slab_nodes;
atomic_long_t slab_nr_pages = ATOMIC_LONG_INIT(0);

/* ------------------------------------------------- slab pages in and out */

void *
setup_object(struct kmem_cache *s, struct page *page, void *object)
{
	setup_object_debug(s, page, object);
	object = kasan_init_slab_obj(s, object);
	if (unlikely(s->ctor)) {
		/* The constructor may touch the object, nothing else. */
		kasan_unpoison_object_data(s, object);
		s->ctor(object);
		kasan_poison_object_data(s, object);
	}
	return object;
}

struct page *alloc_slab_page(struct kmem_cache *s, gfp_t flags,
					   int node,
					   struct kmem_cache_order_objects oo)
{
	unsigned int order = oo_order(oo);

	slub_probe(s, SLUB_PROBE_ALLOC_PAGES);
	slub_window(s, SLUB_WIN_ALLOC_PAGES);
	if (node == NUMA_NO_NODE)
		return alloc_pages(flags, order);
	/*
	 * The node is a preference, as in Linux: an exhausted node's slab
	 * comes from another node (node_match() then tells the next
	 * allocation for @node to look again).  Only a caller's own
	 * __GFP_THISNODE makes it strict.
	 */
	return __alloc_pages_node(node, flags, order);
}

static void
__free_slab(struct kmem_cache *s, struct page *page)
{
	unsigned int order = compound_order(page);

	if (kmem_cache_debug_flags(s,
				   SLAB_CONSISTENCY_CHECKS)) {
		void *p;

		slab_pad_check(s, page);
		for_each_object(p, s, page_address(page), page->objects)
			check_object(s, page, p, SLUB_RED_INACTIVE);
	}

	__ClearPageSlabPfmemalloc(page);
	__ClearPageSlab(page);
	/* The slab fields overlay mapping/index: leave them as the buddy
	 * allocator expects a free page. */
	page->slab_cache = NULL;
	page->freelist = NULL;
	page->counters = 0;
	slub_probe(s, SLUB_PROBE_FREE_PAGES);
	/* Inside reclaim (a shrinker, kmem_cache_shrink()): this is its progress. */
	reclaim_account_slab(1UL << order);
	unaccount_slab_page(page, order);
	__free_pages(page, order);
}

/*
 * The grace period of a SLAB_TYPESAFE_BY_RCU slab is over: no reader
 * that found one of its objects can still be looking at the page.
 * page->slab_cache survived the wait (rcu_head overlays slab_list only).
 */
static void
rcu_free_slab(struct rcu_head *head)
{
	struct page *page = container_of(head, struct page, rcu_head);
	struct kmem_cache *s = page->slab_cache;

	__free_slab(s, page);
}

/*
 * An object of a SLAB_TYPESAFE_BY_RCU cache may be handed out again at
 * once, but only as the same type: a reader under rcu_read_lock() that
 * still holds a pointer to it must find slab memory of this cache, never
 * a page the buddy allocator has given to someone else.  So the empty
 * slab goes back to the page allocator only after a grace period.
 * call_rcu() is safe with interrupts off, where both ports discard.
 */
static void
free_slab(struct kmem_cache *s, struct page *page)
{
	if (likely(!(s->flags & SLAB_TYPESAFE_BY_RCU))) {
		__free_slab(s, page);
		return;
	}
	call_rcu(&page->rcu_head, rcu_free_slab);
}

void
discard_slab(struct kmem_cache *s, struct page *page)
{
	dec_slabs_node(s, page_to_nid(page),
		       page->objects);
	free_slab(s, page);
}

#ifdef CONFIG_SLUB_DEBUG
static int count_free(struct page *page)
{
	return page->objects - page->inuse;
}

static unsigned long
count_partial(struct kmem_cache_node *n, int (*get_count)(struct page *))
{
	unsigned long irqflags;
	unsigned long x = 0;
	struct page *p;

	list_lock_irqsave(&n->list_lock, irqflags);
	list_for_each_entry(p, &n->partial, slab_list)
		x += get_count(p);
	list_unlock_irqrestore(&n->list_lock, irqflags);
	return x;
}
#endif

noinline void slab_out_of_memory(struct kmem_cache *s, gfp_t gfpflags,
					int nid)
{
#ifdef CONFIG_SLUB_DEBUG
	static unsigned long last;
	struct kmem_cache_node *n;
	int node;

	/* A crude rate limit: one report per cache per second of jiffies. */
	if ((gfpflags & __GFP_NOWARN) || (last && jiffies - last < HZ))
		return;
	last = jiffies;

	pr_warn("SLUB: Unable to allocate memory on node %d, gfp=%#x\n",
		nid, gfpflags);
	pr_warn("  cache: %s, object size: %u, buffer size: %u, "
		"default order: %u, min order: %u\n",
		s->name, s->object_size, s->size,
		oo_order(s->oo), oo_order(s->min));
	for_each_kmem_cache_node(s, node, n) {
		pr_warn("  node %d: slabs: %lu, objs: %lu, free: %lu\n",
			node, node_nr_slabs(n), node_nr_objs(n),
			count_partial(n, count_free));
	}
#endif
}

/* ------------------------------------------------------------ geometry */

/*
 * Boot parameters, Linux's defaults: orders 0..PAGE_ALLOC_COSTLY_ORDER,
 * min_objects 0 meaning "derive from the CPU count".
 */
static unsigned int slub_min_order;
static unsigned int slub_max_order =
	PAGE_ALLOC_COSTLY_ORDER;
static unsigned int slub_min_objects;
core_param_range("slub_min_order", slub_min_order, uint, 0, MAX_ORDER - 1,
		 "smallest slab order (default 0)");
core_param_range("slub_max_order", slub_max_order, uint, 0, MAX_ORDER - 1,
		 "largest slab order calculate_order picks (default 3)");
core_param_range("slub_min_objects", slub_min_objects, uint, 0, 32767,
		 "objects a slab should hold at least (default 0: 4 * (fls(cpus) + 1))");

/*
 * The smallest order from min_order up to @max_order whose slab holds
 * @min_objects objects of @size and wastes at most 1/@fract_leftover of
 * itself.  Returns an order above @max_order when none qualifies.
 */
static inline unsigned int
slab_order(unsigned int size, unsigned int min_objects, unsigned int max_order,
	   unsigned int fract_leftover)
{
	unsigned int lowest = slub_min_order;
	unsigned int order;

	if (order_objects(lowest, size) > MAX_OBJS_PER_PAGE)
		return get_order(size * MAX_OBJS_PER_PAGE) - 1;

	for (order = max(lowest, (unsigned int)get_order(min_objects * size));
	     order <= max_order; order++) {
		unsigned int bytes = (unsigned int)PAGE_SIZE << order;
		unsigned int rem = bytes % size;

		if (rem <= bytes / fract_leftover)
			break;
	}
	return order;
}

/*
 * The slab order for objects of @size: prefer many objects per slab
 * (4 * (fls(cpus) + 1) by default: more CPUs, bigger slabs, fewer trips
 * to the node lists) and little waste (1/16, then 1/8, then 1/4), giving
 * up objects before giving up on waste, and orders above slub_max_order
 * only when nothing else fits.
 */
static inline int
calculate_order(unsigned int size)
{
	unsigned int min_objects, max_fit, nr_cpus;
	unsigned int order;

	min_objects = slub_min_objects;
	if (!min_objects) {
		/* Linux counts present CPUs; irqlab's are all present. */
		nr_cpus = num_possible_cpus();
		if (nr_cpus <= 1)
			nr_cpus = nr_cpu_ids;
		min_objects = 4 * (fls(nr_cpus) + 1);
	}
	max_fit = order_objects(slub_max_order, size);
	min_objects = min(min_objects, max_fit);

	while (min_objects > 1) {
		unsigned int fraction = 16;

		while (fraction >= 4) {
			order = slab_order(size, min_objects, slub_max_order,
					   fraction);
			if (order <= slub_max_order)
				return order;
			fraction /= 2;
		}
		min_objects--;
	}

	/* One object per slab, any waste, within slub_max_order... */
	order = slab_order(size, 1, slub_max_order, 1);
	if (order <= slub_max_order)
		return order;
	/* ...or anything the page allocator can give. */
	order = slab_order(size, 1, MAX_ORDER, 1);
	if (order < MAX_ORDER)
		return order;
	return -ENOSYS;
}

static void init_kmem_cache_node(struct kmem_cache_node *n)
{
	n->nr_partial = 0;
	list_lock_init(&n->list_lock);
	INIT_LIST_HEAD(&n->partial);
#ifdef CONFIG_SLUB_DEBUG
	atomic_long_set(&n->nr_slabs, 0);
	atomic_long_set(&n->total_objects, 0);
	INIT_LIST_HEAD(&n->full);
#endif
}

static inline int
alloc_kmem_cache_cpus(struct kmem_cache *s)
{
	/* 16-byte alignment: freelist+tid are one cmpxchg16b operand. */
	s->cpu_slab =
		__alloc_percpu(sizeof(struct kmem_cache_cpu),
			       2 * sizeof(void *));
	if (!s->cpu_slab)
		return 0;
	init_kmem_cache_cpus(s);
	return 1;
}

static struct kmem_cache *kmem_cache_node;

/*
 * The first kmem_cache_node cannot come from kmem_cache_node's own cache
 * (which needs it): carve it by hand out of the cache's first slab.
 */
static void
early_kmem_cache_node_alloc(int node)
{
	struct kmem_cache_node *n;
	struct page *page;

	BUG_ON(kmem_cache_node->size < sizeof(*n));

	page = new_slab(kmem_cache_node, GFP_NOWAIT,
			node);
	BUG_ON(!page);
	if (page_to_nid(page) != node)
		pr_err("SLUB: no memory on node %d for its kmem_cache_node; using node %d's\n",
		       node, page_to_nid(page));

	n = page->freelist;
	BUG_ON(!n);
#ifdef CONFIG_SLUB_DEBUG
	init_object(kmem_cache_node, n,
		    SLUB_RED_ACTIVE);
#endif
	page->freelist =
		get_freepointer(kmem_cache_node, n);
	page->inuse = 1;
	/* Taken by hand, so KASAN is told as the allocation hooks would. */
	n = kasan_slab_alloc(kmem_cache_node, n, GFP_KERNEL, /* no init */ false);
	page->frozen = 0;
	kmem_cache_node->node[node] = n;
	init_kmem_cache_node(n);
	inc_slabs_node(kmem_cache_node, node,
		       page->objects);

	/* No locking yet: only the boot CPU runs, nobody else knows n. */
	__add_partial(n, page, 0);
}

static void
free_kmem_cache_nodes(struct kmem_cache *s)
{
	struct kmem_cache_node *n;
	int node;

	for_each_kmem_cache_node(s, node, n) {
		s->node[node] = NULL;
		kmem_cache_free(kmem_cache_node, n);
	}
}

/* ------------------------------------------------ freelist randomization */

#ifdef CONFIG_SLAB_FREELIST_RANDOM
/*
 * The shuffle's random numbers: a xorshift64* sequence seeded once from
 * the TSC.  Enough to make the order differ per cache and per boot; not
 * a cryptographic source (irqlab has none).
 */
static u64 slub_shuffle_state;

static u32 slub_shuffle_rand(void)
{
	u64 x = slub_shuffle_state;

	if (!x)
		x = rdtsc() | 1;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	slub_shuffle_state = x;
	return (x * 0x2545f4914f6cdd1dULL) >> 32;
}

/*
 * The cache's permutation of object indices (Fisher-Yates), stored as
 * byte offsets so that a slab's objects are found by one addition.
 * Needs kmalloc, so caches created before the allocator is up get theirs
 * from init_freelist_randomization().
 */
static int
init_cache_random_seq(struct kmem_cache *s)
{
	unsigned int count = oo_objects(s->oo);
	unsigned int *seq;

	if (count < 2 || s->random_seq)
		return 0;
	seq = kmalloc(count * sizeof(*seq), GFP_KERNEL);
	if (!seq)
		return -ENOMEM;
	for (unsigned int i = 0; i < count; i++)
		seq[i] = i;
	for (unsigned int i = count - 1; i > 0; i--) {
		unsigned int j = slub_shuffle_rand() % (i + 1);
		unsigned int tmp = seq[i];

		seq[i] = seq[j];
		seq[j] = tmp;
	}
	for (unsigned int i = 0; i < count; i++)
		seq[i] *= s->size;
	s->random_seq = seq;
	return 0;
}

static void init_freelist_randomization(void)
{
	struct kmem_cache *s;

	mutex_lock(&slab_mutex);
	list_for_each_entry(s, &slab_caches, list)
		init_cache_random_seq(s);
	mutex_unlock(&slab_mutex);
}

/*
 * The sequence is for the preferred order's object count; a fallback
 * order's smaller slab skips the offsets beyond its end.
 */
static void *next_freelist_entry(struct kmem_cache *s, unsigned int *pos,
				 void *start, unsigned long page_limit,
				 unsigned int count)
{
	unsigned int idx;

	do {
		idx = s->random_seq[*pos];
		if (++*pos >= count)
			*pos = 0;
	} while (unlikely(idx >= page_limit));
	return start + idx;
}

bool shuffle_freelist(struct kmem_cache *s, struct page *page)
{
	unsigned int count = oo_objects(s->oo), pos;
	unsigned long page_limit;
	void *start, *cur, *next;

	if (page->objects < 2 || !s->random_seq)
		return false;
	pos = slub_shuffle_rand() % count;
	page_limit = page->objects * s->size;
	start = fixup_red_left(s, page_address(page));

	cur = setup_object(s, page, next_freelist_entry(s, &pos, start, page_limit, count));
	page->freelist = cur;
	for (unsigned int i = 1; i < page->objects; i++) {
		next = setup_object(s, page,
				    next_freelist_entry(s, &pos, start, page_limit, count));
		set_freepointer(s, cur, next);
		cur = next;
	}
	set_freepointer(s, cur, NULL);
	return true;
}
#else
/* Without SLAB_FREELIST_RANDOM: no sequence to make, ever. */
static inline int init_cache_random_seq(struct kmem_cache *cache) { return 0; }
static inline void init_freelist_randomization(void) { /* nothing to seed */ }
#endif

/*
 * Chain every object of a new slab on page->freelist: in the cache's
 * random order with SLAB_FREELIST_RANDOM, otherwise in address order.
 * The same in both ports (allocate_slab() of 5.13 and 5.15 agree here).
 */
void setup_slab_freelist(struct kmem_cache *s, struct page *page)
{
	void *cur, *next;

	if (shuffle_freelist(s, page))
		return;
	cur = setup_object(s, page, fixup_red_left(s, page_address(page)));
	page->freelist = cur;
	for (unsigned int i = 1; i < page->objects; i++) {
		next = setup_object(s, page, cur + s->size);
		set_freepointer(s, cur, next);
		cur = next;
	}
	set_freepointer(s, cur, NULL);
}

void __kmem_cache_release(struct kmem_cache *s)
{
#ifdef CONFIG_SLAB_FREELIST_RANDOM
	kfree(s->random_seq);
	s->random_seq = NULL;
#endif
	if (s->cpu_slab)
		free_percpu(s->cpu_slab);
	s->cpu_slab = NULL;
	free_kmem_cache_nodes(s);
}

static int
init_kmem_cache_nodes(struct kmem_cache *s)
{
	int node;

	for_each_set_bit(node, slab_nodes.bits, MAX_NUMNODES) {
		struct kmem_cache_node *n;

		if (slab_state == DOWN) {
			early_kmem_cache_node_alloc(node);
			continue;
		}
		n = kmem_cache_alloc_node(kmem_cache_node, GFP_KERNEL, node);
		if (!n) {
			free_kmem_cache_nodes(s);
			return 0;
		}
		init_kmem_cache_node(n);
		s->node[node] = n;
	}
	return 1;
}

/* Empty slabs a node keeps instead of freeing: log2(size)/2 in 5..10. */
static void set_min_partial(struct kmem_cache *s, unsigned long keep)
{
	if (keep < MIN_PARTIAL)
		keep = MIN_PARTIAL;
	else if (keep > MAX_PARTIAL)
		keep = MAX_PARTIAL;
	s->min_partial = keep;
}

/*
 * The most free objects c->partial may hold before put_cpu_partial()
 * drains it (5.15 counts objects, not slabs).  The larger the objects,
 * the fewer: each partial slab parks memory on one CPU that no other CPU
 * can allocate from.
 */
static inline unsigned int cpu_partial_objects(unsigned int obj_size)
{
	if (obj_size >= PAGE_SIZE)
		return 2;
	if (obj_size >= 1024)
		return 6;
	if (obj_size >= 256)
		return 13;
	return 30;
}

/*
 * Debug caches keep no CPU partial slabs: __slab_free() must take every
 * free of theirs through the checked node-list path.
 */
static void
set_cpu_partial(struct kmem_cache *s)
{
#ifdef CONFIG_SLUB_CPU_PARTIAL
	unsigned int objects = 0;

	if (kmem_cache_has_cpu_partial(s))
		objects = cpu_partial_objects(s->size);
	slub_set_cpu_partial(s, objects);
#endif
}

/*
 * The free pointer may share the object's bytes only while the object is
 * free and nobody cares what it holds.  Poisoning writes the whole object,
 * a constructor's state and an RCU reader's view must survive the free,
 * and in a red-zoned object smaller than a pointer the pointer would be
 * written over the red zone: in all those cases it gets a word of its own
 * after the object.
 */
static bool freeptr_needs_own_word(struct kmem_cache *s, slab_flags_t flags)
{
	if (s->ctor)
		return true;
	if (flags & (SLAB_TYPESAFE_BY_RCU | SLAB_POISON))
		return true;
	return (flags & SLAB_RED_ZONE) && s->object_size < sizeof(void *);
}

#ifdef CONFIG_SLUB_DEBUG
/*
 * Debug layout up to the free pointer.  The object is poisoned
 * (__OBJECT_POISON) only when its contents may be destroyed on free.  A
 * red zone needs at least one byte between the object and whatever
 * follows; when word alignment left none, a word is added.
 */
static unsigned int debug_object_end(struct kmem_cache *s, slab_flags_t flags,
				     unsigned int size)
{
	bool keeps_contents = (flags & SLAB_TYPESAFE_BY_RCU) || s->ctor;

	if ((flags & SLAB_POISON) && !keeps_contents)
		s->flags |= __OBJECT_POISON;
	else
		s->flags &= ~__OBJECT_POISON;

	/* @size is object_size rounded up to a word: any slack? */
	if ((flags & SLAB_RED_ZONE) && size <= s->object_size)
		size += sizeof(void *);
	return size;
}

/*
 * Layout after the free pointer: the alloc and free tracks, KASAN's
 * metadata and red zone (where Linux's calculate_sizes() calls
 * kasan_cache_create()), one word of right red zone behind the metadata,
 * and the left red zone in front of each slot, padded so that objects
 * keep s->align.
 */
static unsigned int slot_meta_end(struct kmem_cache *s, slab_flags_t flags,
				  unsigned int size)
{
	if (flags & SLAB_STORE_USER)
		size += 2 * sizeof(struct track);

	kasan_cache_create(s, &size, &s->flags);

	if (flags & SLAB_RED_ZONE) {
		s->red_left_pad = ALIGN(sizeof(void *), s->align);
		size += sizeof(void *) + s->red_left_pad;
	}
	return size;
}
#else
static inline unsigned int debug_object_end(struct kmem_cache *s,
					    slab_flags_t flags,
					    unsigned int size)
{
	return size;
}

/* Without debugging only KASAN adds to the slot. */
static inline unsigned int slot_meta_end(struct kmem_cache *s,
					 slab_flags_t flags,
					 unsigned int size)
{
	kasan_cache_create(s, &size, &s->flags);
	return size;
}
#endif

/* The gfp bits every slab page of @s is allocated with. */
static gfp_t slab_page_gfp(struct kmem_cache *s, unsigned int order)
{
	gfp_t gfp = 0;

	if (order)
		gfp |= __GFP_COMP;
	if (s->flags & SLAB_CACHE_DMA32)
		gfp |= __GFP_DMA32;
	if (s->flags & SLAB_RECLAIM_ACCOUNT)
		gfp |= __GFP_RECLAIMABLE;
	return gfp;
}

/*
 * Lay out one slot of @s (see mm/slub.h) from object_size, align, ctor
 * and the debug flags, then pick the slab order (@forced_order when it
 * is not negative).  Sets inuse, offset, red_left_pad, size, allocflags
 * and oo/min/max; returns 0 if no slab can hold an object.
 */
static int
calculate_sizes(struct kmem_cache *s, int forced_order)
{
	slab_flags_t flags = s->flags;
	unsigned int size;
	int order;

	/* Word aligned, since the free pointer may be stored at s->inuse. */
	size = ALIGN(s->object_size, sizeof(void *));
	size = debug_object_end(s, flags, size);
	s->inuse = size;

	if (freeptr_needs_own_word(s, flags)) {
		s->offset = size;
		size += sizeof(void *);
	} else {
		unsigned int middle = s->object_size / 2;

		/*
		 * Mid-object rather than at offset 0: a small overrun of the
		 * slot below does not reach it.
		 */
		s->offset = ALIGN_DOWN(middle, sizeof(void *));
	}

	size = slot_meta_end(s, flags, size);
	s->size = ALIGN(size, s->align);

	order = forced_order >= 0 ? forced_order : calculate_order(s->size);
	if (order < 0)
		return 0;

	s->allocflags = slab_page_gfp(s, order);
	s->oo = oo_make(order, s->size);
	s->min = oo_make(get_order(s->size), s->size);
	if (oo_objects(s->oo) > oo_objects(s->max))
		s->max = s->oo;

	return oo_objects(s->oo) != 0;
}

/*
 * A per-cache secret for freelist hardening.  Linux draws it from the
 * entropy pool; irqlab mixes the TSC and the cache's address (enough to
 * make it differ per cache and per boot, not cryptographic).
 */
#ifdef CONFIG_SLAB_FREELIST_HARDENED
static unsigned long slub_random_long(struct kmem_cache *s)
{
	u64 x = rdtsc() ^ (unsigned long)s ^ 0x9e3779b97f4a7c15ULL;

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}
#endif

static int
kmem_cache_open(struct kmem_cache *s, slab_flags_t flags)
{
	s->flags = kmem_cache_flags(s->size, flags,
				    s->name);
#ifdef CONFIG_SLAB_FREELIST_HARDENED
	s->random = slub_random_long(s);
#endif

	if (!calculate_sizes(s, -1))
		goto error;
	if (disable_higher_order_debug) {
		/*
		 * slub_debug=O: where the metadata would raise the order,
		 * give it up (and with it the debugging) for this cache.
		 */
		if (get_order(s->size) >
		    get_order(s->object_size)) {
			s->flags &= ~DEBUG_METADATA_FLAGS;
			s->offset = 0;
			if (!calculate_sizes(s, -1))
				goto error;
		}
	}

	/* Lockless freelist+counters unless a debug option needs the lock. */
	if (system_has_cmpxchg_double() && !(s->flags & SLAB_NO_CMPXCHG))
		s->flags |= __CMPXCHG_DOUBLE;

	set_min_partial(s, ilog2(s->size) / 2);
	set_cpu_partial(s);

	if (!init_kmem_cache_nodes(s))
		goto error;

	/* The shuffled order needs kmalloc: later for the boot caches. */
	if (slab_state >= UP && init_cache_random_seq(s))
		goto error;

	if (alloc_kmem_cache_cpus(s))
		return 0;

error:
	__kmem_cache_release(s);
	return -EINVAL;
}

/* ------------------------------------------------------ cache teardown */

/*
 * Empty slabs of a node go back to the page allocator; slabs with live
 * objects are reported (the objects are leaked, as in Linux).
 */
static void
free_partial(struct kmem_cache *s, struct kmem_cache_node *n)
{
	LIST_HEAD(discard);
	struct page *page, *next_page;

	BUG_ON(irqs_disabled());
	list_lock_irq(&n->list_lock);
	list_for_each_entry_safe(page, next_page, &n->partial, slab_list) {
		if (!page->inuse) {
			remove_partial(n, page);
			list_add(&page->slab_list, &discard);
		} else {
#ifdef CONFIG_SLUB_DEBUG
			list_slab_objects(s, page,
				"Objects remaining in %s on "
				"__kmem_cache_shutdown()");
#endif
		}
	}
	list_unlock_irq(&n->list_lock);

	list_for_each_entry_safe(page, next_page, &discard, slab_list)
		discard_slab(s, page);
}

bool __kmem_cache_empty(struct kmem_cache *s)
{
	struct kmem_cache_node *n;
	int node;

	for_each_kmem_cache_node(s, node, n)
		if (n->nr_partial || slabs_node(s, node))
			return false;
	return true;
}

/*
 * Release everything the cache holds; non-zero if objects are still
 * allocated (the caller keeps the cache then).  Without SLUB_DEBUG full
 * slabs are on no list and only partial ones can be seen.
 */
int __kmem_cache_shutdown(struct kmem_cache *s)
{
	struct kmem_cache_node *n;
	int node;

	/* kmem_cache_destroy() holds the hotplug lock, then slab_mutex */
	flush_all_cpus_locked(s);
	for_each_kmem_cache_node(s, node, n) {
		free_partial(s, n);
		if (n->nr_partial || slabs_node(s, node))
			return 1;
	}
	return 0;
}


/* Usable bytes: object_size, or up to the metadata when nothing sits
 * between (no red zone, poison or tracking to protect). */
static inline unsigned int slab_ksize(const struct kmem_cache *s)
{
#ifdef CONFIG_SLUB_DEBUG
	if (s->flags & (SLAB_RED_ZONE | SLAB_POISON))
		return s->object_size;
#endif
	/* KASAN poisons everything past the object: that is all there is. */
	if (s->flags & SLAB_KASAN)
		return s->object_size;
	if (s->flags & SLAB_STORE_USER)
		return s->inuse;
	return s->size;
}

size_t __ksize(const void *object)
{
	struct page *page;

	if (unlikely(object == ZERO_SIZE_PTR))
		return 0;

	page = virt_to_head_page(object);
	if (unlikely(!PageSlab(page))) {
		WARN_ON(!PageCompound(page));
		return page_size(page);
	}
	return slab_ksize(page->slab_cache);
}


struct kmem_cache *virt_to_cache(const void *obj)
{
	struct page *page = virt_to_head_page(obj);

	if (WARN_ON(!PageSlab(page))) {
		pr_err("SLUB: %s: object %px is not from a slab\n",
		       __func__, obj);
		return NULL;
	}
	return page->slab_cache;
}

/*
 * cache_from_obj()'s checked half (mm/slab.h): x must belong to s; a
 * mismatch is reported and the object is freed to the cache it really
 * belongs to.
 */
struct kmem_cache *__cache_from_obj(struct kmem_cache *s, void *x)
{
	struct kmem_cache *cachep;

	cachep = virt_to_cache(x);
	if (cachep && cachep != s) {
		pr_err("%s: Wrong slab cache. %s but object is from %s\n",
		       __func__, s->name, cachep->name);
		dump_stack();
	}
	return cachep;
}

/* ---------------------------------------------------------- shrinking */

#define SHRINK_PROMOTE_MAX 32

/*
 * Free the empty slabs of every node and sort the partial lists so the
 * fullest slabs come first (they are the ones to fill up; the emptiest
 * at the tail may empty out and be freed).  IRQ-off for the walk of each
 * whole list, as in Linux.  Non-zero if slabs remain.
 */
static int
__kmem_cache_do_shrink(struct kmem_cache *s)
{
	struct list_head promote[SHRINK_PROMOTE_MAX];
	struct kmem_cache_node *n;
	struct list_head discard;
	struct page *page, *next;
	unsigned long irqflags;
	int node, i, ret = 0;

	for_each_kmem_cache_node(s, node, n) {
		INIT_LIST_HEAD(&discard);
		for (i = 0; i < SHRINK_PROMOTE_MAX; i++)
			INIT_LIST_HEAD(promote + i);

		list_lock_irqsave(&n->list_lock, irqflags);
		list_for_each_entry_safe(page, next, &n->partial, slab_list) {
			int free = page->objects - page->inuse;

			/* inuse is changed without the lock: read it once. */
			barrier();
			BUG_ON(free <= 0);

			if (free == page->objects) {
				list_move(&page->slab_list, &discard);
				n->nr_partial--;
			} else if (free <= SHRINK_PROMOTE_MAX) {
				list_move(&page->slab_list,
					  promote + free - 1);
			}
		}
		/* Fewest free objects first. */
		for (i = SHRINK_PROMOTE_MAX - 1; i >= 0; i--)
			list_splice(promote + i, &n->partial);
		list_unlock_irqrestore(&n->list_lock, irqflags);

		list_for_each_entry_safe(page, next, &discard, slab_list)
			discard_slab(s, page);

		if (slabs_node(s, node))
			ret = 1;
	}
	return ret;
}

int __kmem_cache_shrink(struct kmem_cache *s)
{
	flush_all(s);
	return __kmem_cache_do_shrink(s);
}

/* The same for a caller that holds cpus_read_lock() (the slab shrinker). */
int __kmem_cache_shrink_cpus_locked(struct kmem_cache *s)
{
	flush_all_cpus_locked(s);
	return __kmem_cache_do_shrink(s);
}

/*
 * run=hotplug's SLUB check: no cache may keep a CPU slab or CPU partial
 * slabs on a CPU that is not online, since slub_cpu_dead() took them back
 * when it went.  Each finding is reported; returns how many.
 */
int slub_hotplug_check(void)
{
	struct kmem_cache *s;
	unsigned int cpu;
	int bad = 0;

	cpus_read_lock();
	mutex_lock(&slab_mutex);
	list_for_each_entry(s, &slab_caches, list) {
		for_each_possible_cpu(cpu) {
			struct kmem_cache_cpu *c;

			if (cpu_online(cpu))
				continue;
			c = per_cpu_ptr(s->cpu_slab, cpu);
			if (READ_ONCE(c->page) || slub_percpu_partial_read_once(c)) {
				pr_err("slub: %s keeps slabs on offline CPU %u\n",
				       s->name, cpu);
				bad++;
			}
		}
	}
	mutex_unlock(&slab_mutex);
	cpus_read_unlock();
	return bad;
}

/* -------------------------------------------------------------- bring-up */

/*
 * Move a boot cache (static struct) into an object of kmem_cache and
 * re-point its slabs at the new descriptor.  Only the boot CPU has run
 * SLUB so far, so its CPU slab is flushed directly.
 */
static struct kmem_cache *bootstrap(struct kmem_cache *boot_cache)
{
	struct kmem_cache_node *n;
	struct kmem_cache *s;
	int node;

	s = kmem_cache_zalloc(kmem_cache, GFP_NOWAIT);
	BUG_ON(!s);
	memcpy(s, boot_cache, kmem_cache->object_size);

	__flush_cpu_slab(s, smp_processor_id());
	for_each_kmem_cache_node(s, node, n) {
		struct page *p;

		list_for_each_entry(p, &n->partial, slab_list)
			p->slab_cache = s;
#ifdef CONFIG_SLUB_DEBUG
		list_for_each_entry(p, &n->full, slab_list)
			p->slab_cache = s;
#endif
	}
	list_add(&s->list, &slab_caches);
	WRITE_ONCE(nr_slab_caches, nr_slab_caches + 1);
	return s;
}

void kmem_cache_init(void)
{
	static struct kmem_cache boot_kmem_cache, boot_kmem_cache_node;
	int node;

	kmem_cache_node = &boot_kmem_cache_node;
	kmem_cache = &boot_kmem_cache;

	/* Every online node has normal memory in irqlab's NUMA set-up. */
	for_each_online_node(node)
		__set_bit(node, slab_nodes.bits);

	create_boot_cache(kmem_cache_node,
			  "kmem_cache_node", sizeof(struct kmem_cache_node),
			  SLAB_HWCACHE_ALIGN, 0, 0);

	/* kmem_cache_node works: the next caches get their nodes from it. */
	slab_state = PARTIAL;

	create_boot_cache(kmem_cache, "kmem_cache",
			  offsetof(struct kmem_cache, node) +
				MAX_NUMNODES * sizeof(struct kmem_cache_node *),
			  SLAB_HWCACHE_ALIGN, 0, 0);

	kmem_cache = bootstrap(&boot_kmem_cache);
	kmem_cache_node =
		bootstrap(&boot_kmem_cache_node);

	setup_kmalloc_cache_index_table();
	create_kmalloc_caches(0);

	/* A CPU that goes down leaves its slabs behind: take them back. */
	cpuhp_setup_state_nocalls(CPUHP_SLUB_DEAD, "slub:dead",
				  NULL, slub_cpu_dead);

	init_freelist_randomization();

	pr_info("SLUB: HWalign=%d, Order=%u-%u, MinObjects=%u, "
		"CPUs=%u, Nodes=%u\n",
		64, slub_min_order, slub_max_order, slub_min_objects,
		nr_cpu_ids, nr_online_nodes);
}

void kmem_cache_init_late(void)
{
}

struct kmem_cache *__kmem_cache_alias(const char *name, unsigned int size,
				      unsigned int align, slab_flags_t sflags,
				      void (*ctor)(void *))
{
	struct kmem_cache *s;

	s = find_mergeable(size, align, sflags, name, ctor);
	if (s) {
		s->refcount++;
		/* The merged cache now serves the larger of the two. */
		s->object_size = max(s->object_size, size);
		s->inuse = max(ALIGN(size, sizeof(void *)), s->inuse);
	}
	return s;
}

int
__kmem_cache_create(struct kmem_cache *s, slab_flags_t flags)
{
	return kmem_cache_open(s, flags);
}

/* ----------------------------------------------------------- reporting */

void
get_slabinfo(struct kmem_cache *s, struct slabinfo *sinfo)
{
	unsigned long nr_slabs = 0, nr_objs = 0, nr_free = 0;
	unsigned long nr_partial = 0, cpu_slabs = 0;
	struct kmem_cache_node *n;
	int node, cpu;

	for_each_kmem_cache_node(s, node, n) {
		/* Slab and object totals are kept only with SLUB_DEBUG
		 * (as in Linux, whose slabinfo needs it). */
#ifdef CONFIG_SLUB_DEBUG
		nr_slabs += node_nr_slabs(n);
		nr_objs += node_nr_objs(n);
		nr_free += count_partial(n, count_free);
#endif
		nr_partial += n->nr_partial;
	}

	/* A racy peek, as /sys/kernel/slab/<cache>/cpu_slabs is. */
	for_each_online_cpu(cpu) {
		struct kmem_cache_cpu *c;
		struct page *page;

		c = per_cpu_ptr(s->cpu_slab, cpu);
		page = READ_ONCE(c->page);

		if (page)
			cpu_slabs++;
#ifdef CONFIG_SLUB_CPU_PARTIAL
		page = READ_ONCE(c->partial);
		if (page)
			cpu_slabs += page->pages;
#endif
	}

	memset(sinfo, 0, sizeof(*sinfo));
	/* Objects on CPU freelists count as active, as in Linux. */
	sinfo->active_objs = nr_objs - nr_free;
	sinfo->num_objs = nr_objs;
	sinfo->active_slabs = nr_slabs;
	sinfo->num_slabs = nr_slabs;
	sinfo->objects_per_slab = oo_objects(s->oo);
	sinfo->cache_order = oo_order(s->oo);
	sinfo->nr_partial = nr_partial;
	sinfo->cpu_slabs = cpu_slabs;
}

unsigned long slub_stat_sum(struct kmem_cache *s, enum stat_item si)
{
	unsigned long sum = 0;
#ifdef CONFIG_SLUB_STATS
	int cpu;

	for_each_online_cpu(cpu)
		sum += per_cpu_ptr(s->cpu_slab, cpu)->stat[si];
#endif
	return sum;
}

#ifndef CONFIG_SLUB_DEBUG
/* Without debugging support every cache keeps the flags it asked for. */
slab_flags_t kmem_cache_flags(unsigned int object_size, slab_flags_t flags,
			      const char *name)
{
	return flags;
}
#endif

#ifdef CONFIG_KTEST
/*
 * Free objects on @page's freelist, or -1 if the chain leaves the page,
 * is misaligned or runs longer than the page has slots.
 */
static int consistency_count_free(struct kmem_cache *s, struct page *page,
				  void *fp)
{
	void *base = page_address(page);
	void *end = base + page->objects * s->size;
	int nr = 0;

	while (fp) {
		if (fp < base || fp >= end || (fp - base) % s->size ||
		    nr > page->objects)
			return -1;
		nr++;
		fp = get_freepointer(s, fp);
	}
	return nr;
}

static int consistency_page(struct kmem_cache *s, struct page *page,
			    bool frozen, void *cpu_freelist, const char *where)
{
	int nr_free, cpu_free = 0;

	if (!PageSlab(page) || page->slab_cache != s) {
		pr_err("slub consistency %s: %s page %px not a slab of the cache\n",
		       s->name, where, page);
		return 1;
	}
	if (page->frozen != frozen || page->inuse > page->objects) {
		pr_err("slub consistency %s: %s page %px frozen=%u (expected %d) inuse=%u objects=%u\n",
		       s->name, where, page, page->frozen, frozen, page->inuse,
		       page->objects);
		return 1;
	}
	nr_free = consistency_count_free(s, page, page->freelist);
	if (cpu_freelist)
		cpu_free = consistency_count_free(s, page, cpu_freelist);
	if (nr_free < 0 || cpu_free < 0) {
		pr_err("slub consistency %s: %s page %px freelist corrupt\n",
		       s->name, where, page);
		return 1;
	}
	/* A CPU slab's c->freelist objects count as in use in page->inuse. */
	if (nr_free != page->objects - page->inuse) {
		pr_err("slub consistency %s: %s page %px has %d free objects, counters say %u\n",
		       s->name, where, page, nr_free,
		       page->objects - page->inuse);
		return 1;
	}
	return 0;
}

/* Whether @page is on a node partial list of @s; list_lock held by none. */
static bool consistency_on_node_list(struct kmem_cache *s, struct page *page)
{
	struct kmem_cache_node *n;
	unsigned long irqflags;
	struct page *pg;
	bool found = false;
	int node;

	for_each_kmem_cache_node(s, node, n) {
		unsigned long nr = 0;

		list_lock_irqsave(&n->list_lock, irqflags);
		list_for_each_entry(pg, &n->partial, slab_list) {
			if (pg == page)
				found = true;
			if (found || ++nr > n->nr_partial + 1)
				break;
		}
		list_unlock_irqrestore(&n->list_lock, irqflags);
		if (found)
			break;
	}
	return found;
}

/* The online CPU whose slab or partial chain holds @page, else -1. */
static int consistency_owner(struct kmem_cache *s, struct page *page,
			     int skip_cpu)
{
	int cpu;

	for_each_online_cpu(cpu) {
		struct kmem_cache_cpu *pc = per_cpu_ptr(s->cpu_slab, cpu);

		if (cpu == skip_cpu)
			continue;
		if (READ_ONCE(pc->page) == page)
			return cpu;
#ifdef CONFIG_SLUB_CPU_PARTIAL
		int nr = 0;

		for (struct page *pg = READ_ONCE(pc->partial); pg && nr < 1024;
		     pg = pg->next, nr++)
			if (pg == page)
				return cpu;
#endif
	}
	return -1;
}

int slub_check_frozen_owned(struct kmem_cache *s, struct page **pages,
			    unsigned int nr)
{
	int bad = 0;

	for (unsigned int i = 0; i < nr; i++) {
		struct page *page = pages[i];

		/* Given back to the page allocator, or now another cache's. */
		if (!PageSlab(page) || page->slab_cache != s || !page->frozen)
			continue;
		if (consistency_owner(s, page, -1) < 0) {
			pr_err("slub consistency %s: frozen slab %px (inuse=%u objects=%u) owned by no CPU: leaked\n",
			       s->name, page, page->inuse, page->objects);
			bad++;
		}
	}
	return bad;
}

int slub_check_consistency(struct kmem_cache *s)
{
	struct kmem_cache_node *n;
	unsigned long irqflags;
	struct page *pg;
	int node, cpu, bad = 0;

	for_each_kmem_cache_node(s, node, n) {
		unsigned long nr = 0;

		list_lock_irqsave(&n->list_lock, irqflags);
		list_for_each_entry(pg, &n->partial, slab_list) {
			bad += consistency_page(s, pg, false, NULL,
						"node partial");
			if (++nr > n->nr_partial + 1)
				break;	/* a cycle: counted below */
		}
		if (nr != n->nr_partial) {
			pr_err("slub consistency %s: node %d lists %lu partial slabs, nr_partial %lu\n",
			       s->name, node, nr, n->nr_partial);
			bad++;
		}
		list_unlock_irqrestore(&n->list_lock, irqflags);
	}

	for_each_online_cpu(cpu) {
		struct kmem_cache_cpu *pc = per_cpu_ptr(s->cpu_slab, cpu);
		struct page *cp = READ_ONCE(pc->page);

		if (cp) {
			int other;

			bad += consistency_page(s, cp, true, READ_ONCE(pc->freelist),
						"CPU slab");
			/* A stale slab taken as the CPU slab: someone else has it. */
			if (consistency_on_node_list(s, cp)) {
				pr_err("slub consistency %s: CPU %d slab %px is also on a node partial list\n",
				       s->name, cpu, cp);
				bad++;
			}
			other = consistency_owner(s, cp, cpu);
			if (other >= 0) {
				pr_err("slub consistency %s: CPU %d slab %px is also CPU %d's slab or partial\n",
				       s->name, cpu, cp, other);
				bad++;
			}
		}
#ifdef CONFIG_SLUB_CPU_PARTIAL
		int nr = 0;

		for (pg = READ_ONCE(pc->partial); pg; pg = pg->next) {
			if (pg == cp) {
				pr_err("slub consistency %s: CPU %d slab %px also on its partial list\n",
				       s->name, cpu, pg);
				bad++;
			}
			bad += consistency_page(s, pg, true, NULL,
						"CPU partial");
			if (++nr > 1024) {
				pr_err("slub consistency %s: CPU %d partial list does not end\n",
				       s->name, cpu);
				bad++;
				break;
			}
		}
#endif
	}
	return bad;
}
#endif /* CONFIG_KTEST */

/* slab_lock()'s lock_stat class (mm/slub.h), one for both ports. */
DEFINE_BIT_SPIN_CLASS(slab_lock_map, "slab_lock (&page->flags bit PG_locked)");
