// SPDX-License-Identifier: GPL-2.0
/*
 * SLUB after "reduce irq disabled scope and make it RT compatible"
 * (Linux 5.15): irqlab's port.  Function names, fields, lock order and
 * the places where interrupts and preemption are disabled follow 5.15 so
 * that the file can be read beside Linux's mm/slub.c.
 *
 * How objects move:
 *
 *   fast paths     c->freelist of the CPU slab, swapped together with
 *                  c->tid by one this_cpu_cmpxchg_double (no lock, no
 *                  IRQ disabling).  On PREEMPT_RT allocation always takes
 *                  the slow path and free takes the per-CPU local lock.
 *   CPU slab       c->page: frozen (page->frozen = 1), owned by this CPU;
 *                  remote frees go to page->freelist with cmpxchg_double.
 *   CPU partials   c->partial: frozen slabs with free objects, chained by
 *                  page->next (CONFIG_SLUB_CPU_PARTIAL).
 *   node partials  n->partial under n->list_lock (spinlock_t: sleeps on
 *                  PREEMPT_RT).
 *   full slabs     on no list (on n->full only for SLAB_STORE_USER).
 *
 * Lock order: slab_mutex -> n->list_lock -> c->lock (local_lock_t) ->
 * slab_lock (bit spinlock; debug caches only) -> object_map_lock.
 *
 * What the series changed: the slow path no longer runs with interrupts
 * disabled as a whole.  __slab_alloc only pins the task to the CPU
 * (slub_get_cpu_ptr: preempt_disable on !RT, migrate_disable on RT), and
 * the kmem_cache_cpu fields are touched in short local_lock_irqsave()
 * sections that re-check c->page, because the task may have been
 * preempted (and another task may have changed c->page) between them.
 * The page allocator is always entered with interrupts on; freelist walks
 * (deactivate_slab) and page frees happen after the CPU slab has been
 * detached; flush_all runs as per-CPU work items, not IPIs.
 */
#include <linux/slab.h>
#include <linux/slub_def.h>
#include <linux/mm.h>
#include <linux/gfp.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/local_lock.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/workqueue.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/bug.h>
#include <linux/kernel.h>
#include <linux/jiffies.h>
#include <asm/processor.h>
#include "slab.h"
#include "slub.h"

/*
 * Pin the task to this CPU across the slow path.  !RT: preemption off, as
 * get_cpu_ptr(); RT: migration off only, so the path stays preemptible
 * and its sleeping locks (list_lock, the local lock) may block.
 */
#ifndef CONFIG_PREEMPT_RT
#define slub_get_cpu_ptr(var)	({ preempt_disable(); this_cpu_ptr(var); })
#define slub_put_cpu_ptr(var)	preempt_enable()
#else
#define slub_get_cpu_ptr(var)	({ migrate_disable(); this_cpu_ptr(var); })
#define slub_put_cpu_ptr(var)	migrate_enable()
#endif

#ifdef CONFIG_SLUB_CPU_PARTIAL
#define slub_cpu_partial(s)		((s)->cpu_partial)
#define slub_set_cpu_partial(s, n)	((s)->cpu_partial = (n))
#else
#define slub_cpu_partial(s)		(0)
#define slub_set_cpu_partial(s, n)	do { } while (0)
#endif

/* Nodes that have normal memory: the ones with a kmem_cache_node. */
static nodemask_t slab_nodes;

/*
 * Debug caches change page->freelist/counters under slab_lock instead of
 * cmpxchg_double.  The __ form is for callers that already run with
 * interrupts disabled (list_lock taken with _irqsave, or the local lock);
 * on RT slab_lock() disables them itself.
 */
static inline bool __cmpxchg_double_slab(struct kmem_cache *s,
					 struct page *page,
					 void *freelist_old,
					 unsigned long counters_old,
					 void *freelist_new,
					 unsigned long counters_new,
					 const char *n)
{
	if (!IS_ENABLED(CONFIG_PREEMPT_RT))
		lockdep_assert_irqs_disabled();
	if (s->flags & __CMPXCHG_DOUBLE) {
		if (cmpxchg_double(&page->freelist,
				   &page->counters,
				   freelist_old, counters_old,
				   freelist_new, counters_new))
			return true;
	} else {
		unsigned long flags = 0;

		slab_lock(page, &flags);
		if (page->freelist == freelist_old &&
		    page->counters == counters_old) {
			page->freelist = freelist_new;
			page->counters = counters_new;
			slab_unlock(page, &flags);
			return true;
		}
		slab_unlock(page, &flags);
	}
	cpu_relax();
	stat(s, CMPXCHG_DOUBLE_FAIL);
	return false;
}

/* The same for callers with interrupts enabled (__slab_free, deactivate). */
static inline bool cmpxchg_double_slab(struct kmem_cache *s,
				       struct page *page,
				       void *freelist_old,
				       unsigned long counters_old,
				       void *freelist_new,
				       unsigned long counters_new,
				       const char *n)
{
	if (s->flags & __CMPXCHG_DOUBLE) {
		if (cmpxchg_double(&page->freelist,
				   &page->counters,
				   freelist_old, counters_old,
				   freelist_new, counters_new))
			return true;
	} else {
		unsigned long flags;

		/* The slab_lock holder must not be interrupted by a user. */
		local_irq_save(flags);
		__slab_lock(page);
		if (page->freelist == freelist_old &&
		    page->counters == counters_old) {
			page->freelist = freelist_new;
			page->counters = counters_new;
			__slab_unlock(page);
			local_irq_restore(flags);
			return true;
		}
		__slab_unlock(page);
		local_irq_restore(flags);
	}
	cpu_relax();
	stat(s, CMPXCHG_DOUBLE_FAIL);
	return false;
}

/* ------------------------------------------------------------ hooks */

/* Nothing to do on free without KASAN/kmemleak/init_on_free. */
static __always_inline bool slab_free_freelist_hook(struct kmem_cache *s,
						    void **head, void **tail,
						    int *cnt)
{
	return *head != NULL;
}

/* A new slab's object: debug layout first, then the constructor. */
static void *
setup_object(struct kmem_cache *s, struct page *page, void *object)
{
	setup_object_debug(s, page, object);
	if (unlikely(s->ctor))
		s->ctor(object);
	return object;
}

/* ----------------------------------------------- slab pages in and out */

static inline struct page *alloc_slab_page(struct kmem_cache *s, gfp_t flags,
					   int node,
					   struct kmem_cache_order_objects oo)
{
	unsigned int order = oo_order(oo);

	slub_probe(SLUB_PROBE_ALLOC_PAGES);
	if (node == NUMA_NO_NODE)
		return alloc_pages(flags, order);
	return alloc_pages_node(node, flags | __GFP_THISNODE, order);
}

/*
 * A new slab with all its objects chained on page->freelist, frozen for
 * the caller.  Post-series this always runs with interrupts enabled
 * (___slab_alloc drops the CPU pin around new_slab()), whatever the gfp.
 */
static struct page *
allocate_slab(struct kmem_cache *s, gfp_t gfp, int node)
{
	struct kmem_cache_order_objects oo = s->oo;
	struct page *page;
	gfp_t alloc_gfp;
	void *start, *p, *next;
	unsigned int obj_idx;

	gfp |= s->allocflags;

	/*
	 * Try the preferred order without effort: if it is not readily
	 * available, the minimum order below will do.
	 */
	alloc_gfp = (gfp | __GFP_NORETRY | __GFP_NOWARN) & ~__GFP_NOFAIL;
	if ((alloc_gfp & __GFP_DIRECT_RECLAIM) &&
	    oo_order(oo) > oo_order(s->min))
		alloc_gfp = (alloc_gfp | __GFP_NOMEMALLOC) &
			    ~(__GFP_RECLAIM | __GFP_NOFAIL);

	page = alloc_slab_page(s, alloc_gfp, node, oo);
	if (unlikely(!page)) {
		oo = s->min;
		alloc_gfp = gfp;
		page = alloc_slab_page(s, alloc_gfp, node, oo);
		if (unlikely(!page))
			return NULL;
		stat(s, ORDER_FALLBACK);
	}

	page->objects = oo_objects(oo);
	page->slab_cache = s;
	__SetPageSlab(page);

	start = page_address(page);
	setup_page_debug(s, page, start);

	start = fixup_red_left(s, start);
	start = setup_object(s, page, start);
	page->freelist = start;
	for (obj_idx = 0, p = start; obj_idx < page->objects - 1; obj_idx++) {
		next = setup_object(s, page, p + s->size);
		set_freepointer(s, p, next);
		p = next;
	}
	set_freepointer(s, p, NULL);

	page->inuse = page->objects;
	page->frozen = 1;

	inc_slabs_node(s, page_to_nid(page),
		       page->objects);
	return page;
}

static struct page *new_slab(struct kmem_cache *s, gfp_t gfp, int node)
{
	if (unlikely(gfp & GFP_SLAB_BUG_MASK)) {
		pr_warn("SLUB: %s: unexpected gfp %#x, masked to %#x\n",
			s->name, gfp, gfp & ~GFP_SLAB_BUG_MASK);
		gfp &= ~GFP_SLAB_BUG_MASK;
		dump_stack();
	}
	WARN_ON_ONCE(s->ctor && (gfp & __GFP_ZERO));
	return allocate_slab(s, gfp & (GFP_RECLAIM_MASK | __GFP_THISNODE |
				       __GFP_HARDWALL), node);
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
	slub_probe(SLUB_PROBE_FREE_PAGES);
	__free_pages(page, order);
}

/*
 * SLAB_TYPESAFE_BY_RCU would delay the page free by a grace period;
 * irqlab has no RCU, so such caches are refused at creation.
 */
static void
free_slab(struct kmem_cache *s, struct page *page)
{
	__free_slab(s, page);
}

static void
discard_slab(struct kmem_cache *s, struct page *page)
{
	dec_slabs_node(s, page_to_nid(page),
		       page->objects);
	free_slab(s, page);
}

/* ------------------------------------------------------- node partials */

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

/*
 * Take @page off the node list and freeze it.  @mode: the first slab of
 * an allocation (take its whole freelist for the CPU, mark all objects
 * in use) versus an extra slab for c->partial (leave the freelist in the
 * page).  Returns the freelist, or NULL if the page changed under us.
 */
static inline void *
acquire_slab(struct kmem_cache *s, struct kmem_cache_node *n,
	     struct page *page, int mode, int *nr_free)
{
	unsigned long counters;
	void *freelist;
	struct page new;

	lockdep_assert_held(&n->list_lock);

	freelist = page->freelist;
	counters = page->counters;
	new.counters = counters;
	*nr_free = new.objects - new.inuse;
	if (mode) {
		new.inuse = page->objects;
		new.freelist = NULL;
	} else {
		new.freelist = freelist;
	}

	VM_BUG_ON(new.frozen);
	new.frozen = 1;

	if (!__cmpxchg_double_slab(s, page, freelist, counters,
				   new.freelist, new.counters,
				   "acquire_slab"))
		return NULL;

	remove_partial(n, page);
	WARN_ON(!freelist);
	return freelist;
}

#ifdef CONFIG_SLUB_CPU_PARTIAL
static void put_cpu_partial(struct kmem_cache *s, struct page *page,
			    int drain);
#else
static inline void
put_cpu_partial(struct kmem_cache *s, struct page *page, int drain) { }
#endif

/*
 * irqlab's page allocator has no memory reserves (no ALLOC_NO_WATERMARKS),
 * so no slab page is ever pfmemalloc; the checks keep Linux's shape.
 */
static inline bool pfmemalloc_match(struct page *page, gfp_t gfp)
{
	return !PageSlabPfmemalloc(page);
}

/*
 * A partial slab from node @n for the CPU, and more for c->partial until
 * half of cpu_partial objects are gathered.  The list_lock is taken with
 * interrupts disabled (irqsave) just for this walk; put_cpu_partial()
 * takes the local lock inside it (list_lock -> c->lock).
 */
static void *
get_partial_node(struct kmem_cache *s, struct kmem_cache_node *n,
		 struct page **ret_page, gfp_t gfp)
{
	struct page *page, *next_page;
	unsigned int available = 0;
	void *object = NULL;
	unsigned long irqflags;
	int nr_free;

	/* Unlocked peek: a wrong answer only costs a new slab or a retry. */
	if (!n || !n->nr_partial)
		return NULL;

	list_lock_irqsave(&n->list_lock, irqflags);
	list_for_each_entry_safe(page, next_page, &n->partial, slab_list) {
		void *fl;

		if (!pfmemalloc_match(page, gfp))
			continue;

		fl = acquire_slab(s, n, page, object == NULL, &nr_free);
		if (!fl)
			break;

		available += nr_free;
		if (!object) {
			*ret_page = page;
			stat(s, ALLOC_FROM_PARTIAL);
			object = fl;
		} else {
			put_cpu_partial(s, page, 0);
			stat(s, CPU_PARTIAL_NODE);
		}
		if (!kmem_cache_has_cpu_partial(s) ||
		    available > slub_cpu_partial(s) / 2)
			break;
	}
	list_unlock_irqrestore(&n->list_lock, irqflags);
	return object;
}

/*
 * Other nodes' partial lists.  Linux walks the zonelist by distance and
 * rate-limits with remote_node_defrag_ratio (default: 1000 means "try
 * almost always" only when a node has more than min_partial slabs);
 * irqlab walks the online nodes in order with the same min_partial rule.
 */
static void *get_any_partial(struct kmem_cache *s, gfp_t gfp,
			     struct page **ret_page)
{
	int node, here = numa_node_id();

	for_each_online_node(node) {
		struct kmem_cache_node *n = get_node(s, node);
		void *object;

		if (node == here || !n || n->nr_partial <= s->min_partial)
			continue;
		object = get_partial_node(s, n, ret_page, gfp);
		if (object)
			return object;
	}
	return NULL;
}

static void *get_partial(struct kmem_cache *s, gfp_t gfp, int node,
			 struct page **ret_page)
{
	int searchnode = node;
	void *object;

	if (node == NUMA_NO_NODE)
		searchnode = numa_node_id();

	object = get_partial_node(s, get_node(s, searchnode), ret_page, gfp);
	if (object || node != NUMA_NO_NODE)
		return object;

	return get_any_partial(s, gfp, ret_page);
}

/* ------------------------------------------------------------- tids */

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

static inline void
note_cmpxchg_failure(const char *n, const struct kmem_cache *s,
		     unsigned long tid)
{
	stat(s, CMPXCHG_DOUBLE_CPU_FAIL);
}

static void
init_kmem_cache_cpus(struct kmem_cache *s)
{
	struct kmem_cache_cpu *c;
	int cpu;

	for_each_possible_cpu(cpu) {
		c = per_cpu_ptr(s->cpu_slab, cpu);
		local_lock_init(&c->lock);
		c->tid = init_tid(cpu);
	}
}

/* ------------------------------------------------------- deactivation */

/*
 * Give back a CPU slab that the caller has already detached from its
 * kmem_cache_cpu: splice @freelist (the CPU's unused objects) onto
 * page->freelist, unfreeze the page and put it where it now belongs
 * (node partial list, full, or back to the page allocator).
 *
 * Post-series this runs with interrupts and preemption enabled: the walk
 * of the CPU freelist is outside any IRQ-off section; only list_lock and
 * the cmpxchg are IRQ-off (list_lock_irqsave).
 */
static void
deactivate_slab(struct kmem_cache *s, struct page *page, void *freelist)
{
	enum slab_modes {
		M_NONE, M_PARTIAL, M_FULL, M_FREE
	};
	struct kmem_cache_node *n;
	enum slab_modes l = M_NONE, m = M_NONE;
	void *nextfree, *cursor, *last;
	int tail = DEACTIVATE_TO_HEAD;
	int lock = 0, free_delta = 0;
	unsigned long irqflags = 0;
	struct page new;
	struct page old;

	n = get_node(s, page_to_nid(page));

	/* Remote frees since the slab became ours: keep it cache-cold. */
	if (page->freelist) {
		stat(s, DEACTIVATE_REMOTE_FREES);
		tail = DEACTIVATE_TO_TAIL;
	}

	/* Stage one: count the CPU's free objects and find the last one. */
	slub_probe(SLUB_PROBE_DEACTIVATE_WALK);
	last = NULL;
	cursor = freelist;
	while (cursor) {
		nextfree = get_freepointer(s, cursor);

		/* A bad next pointer: drop the rest rather than follow it. */
		if (freelist_corrupted(s, page, &cursor, nextfree))
			break;

		last = cursor;
		free_delta++;
		cursor = nextfree;
	}

	/*
	 * Stage two: one cmpxchg both splices the list and unfreezes.  The
	 * list placement is decided first, under list_lock when the slab
	 * goes onto a list, so acquire_slab() never finds a frozen slab on
	 * a list; if the cmpxchg loses a race with a remote free, decide
	 * again (the placement may have to be undone).
	 */
redo:
	old.freelist = READ_ONCE(page->freelist);
	old.counters = READ_ONCE(page->counters);
	VM_BUG_ON(!old.frozen);

	new.counters = old.counters;
	if (last) {
		new.inuse -= free_delta;
		set_freepointer(s, last, old.freelist);
		new.freelist = freelist;
	} else {
		new.freelist = old.freelist;
	}
	new.frozen = 0;

	if (!new.inuse && n->nr_partial >= s->min_partial) {
		m = M_FREE;
	} else if (new.freelist) {
		m = M_PARTIAL;
		if (!lock) {
			lock = 1;
			list_lock_irqsave(&n->list_lock, irqflags);
		}
	} else {
		m = M_FULL;
		if (kmem_cache_debug_flags(s, SLAB_STORE_USER) &&
		    !lock) {
			/* validate walks n->full: it must not see us frozen */
			lock = 1;
			list_lock_irqsave(&n->list_lock, irqflags);
		}
	}

	if (l != m) {
		if (l == M_PARTIAL)
			remove_partial(n, page);
		else if (l == M_FULL)
			remove_full(s, n, page);

		if (m == M_PARTIAL)
			add_partial(n, page, tail);
		else if (m == M_FULL)
			add_full(s, n, page);
	}

	l = m;
	if (!cmpxchg_double_slab(s, page, old.freelist, old.counters,
				 new.freelist, new.counters,
				 "unfreezing slab"))
		goto redo;

	if (lock)
		list_unlock_irqrestore(&n->list_lock, irqflags);

	if (m == M_PARTIAL) {
		stat(s, tail);
	} else if (m == M_FULL) {
		stat(s, DEACTIVATE_FULL);
	} else if (m == M_FREE) {
		stat(s, DEACTIVATE_EMPTY);
		discard_slab(s, page);
		stat(s, FREE_SLAB);
	}
}

#ifdef CONFIG_SLUB_CPU_PARTIAL
/*
 * Unfreeze a detached chain of CPU partial slabs onto their nodes'
 * partial lists, one list_lock hold per run of same-node slabs.  Empty
 * slabs beyond min_partial are collected and freed after the lock is
 * dropped, so the page allocator never runs under list_lock.
 */
static void __unfreeze_partials(struct kmem_cache *s,
				struct page *partial_page)
{
	struct kmem_cache_node *n = NULL, *n2 = NULL;
	struct page *page, *discard_page = NULL;
	unsigned long flags = 0;

	slub_probe(SLUB_PROBE_UNFREEZE);
	while (partial_page) {
		struct page new;
		struct page old;

		page = partial_page;
		partial_page = page->next;

		n2 = get_node(s, page_to_nid(page));
		if (n != n2) {
			if (n)
				list_unlock_irqrestore(&n->list_lock, flags);
			n = n2;
			list_lock_irqsave(&n->list_lock, flags);
		}

		do {
			old.freelist = page->freelist;
			old.counters = page->counters;
			VM_BUG_ON(!old.frozen);

			new.counters = old.counters;
			new.freelist = old.freelist;
			new.frozen = 0;
		} while (!__cmpxchg_double_slab(s, page,
						old.freelist, old.counters,
						new.freelist, new.counters,
						"unfreezing slab"));

		if (unlikely(!new.inuse && s->min_partial <= n->nr_partial)) {
			page->next = discard_page;
			discard_page = page;
		} else {
			add_partial(n, page, DEACTIVATE_TO_TAIL);
			stat(s, FREE_ADD_PARTIAL);
		}
	}

	if (n)
		list_unlock_irqrestore(&n->list_lock, flags);

	while (discard_page) {
		page = discard_page;
		discard_page = discard_page->next;

		stat(s, DEACTIVATE_EMPTY);
		discard_slab(s, page);
		stat(s, FREE_SLAB);
	}
}

/* This CPU's partials: detach under the local lock, unfreeze outside. */
static void
unfreeze_partials(struct kmem_cache *s)
{
	struct page *detached;
	unsigned long irqflags;

	local_lock_irqsave(&s->cpu_slab->lock, irqflags);
	detached = this_cpu_read(s->cpu_slab->partial);
	this_cpu_write(s->cpu_slab->partial, NULL);
	local_unlock_irqrestore(&s->cpu_slab->lock, irqflags);

	if (detached)
		__unfreeze_partials(s, detached);
}

/* Another CPU's partials, when that CPU cannot touch them (boot, dead). */
static void
unfreeze_partials_cpu(struct kmem_cache *s, struct kmem_cache_cpu *c)
{
	struct page *partial_page;

	partial_page = slub_percpu_partial(c);
	c->partial = NULL;

	if (partial_page)
		__unfreeze_partials(s, partial_page);
}

/*
 * Push a just-frozen @page (from __slab_free or get_partial_node) onto
 * c->partial.  The chain's head carries the running totals in pages and
 * pobjects.  With @drain, a chain already above cpu_partial objects is
 * detached first and unfrozen after the local lock is dropped: the
 * section itself is a few stores with interrupts off (5.15's final form,
 * which also closed the v2r3 RT race and Jann Horn's ABA race).
 */
static void put_cpu_partial(struct kmem_cache *s, struct page *page,
			    int drain)
{
	struct page *page_to_unfreeze = NULL;
	struct page *prev_head;
	unsigned long irqflags;
	int pages = 0;
	int pobjects = 0;

	local_lock_irqsave(&s->cpu_slab->lock, irqflags);

	prev_head = this_cpu_read(s->cpu_slab->partial);
	if (prev_head) {
		if (drain && prev_head->pobjects > slub_cpu_partial(s)) {
			page_to_unfreeze = prev_head;
			prev_head = NULL;
		} else {
			pobjects = prev_head->pobjects;
			pages = prev_head->pages;
		}
	}

	pages++;
	pobjects += page->objects - page->inuse;

	page->pages = pages;
	page->pobjects = pobjects;
	page->next = prev_head;

	this_cpu_write(s->cpu_slab->partial, page);

	local_unlock_irqrestore(&s->cpu_slab->lock, irqflags);

	if (page_to_unfreeze) {
		__unfreeze_partials(s, page_to_unfreeze);
		stat(s, CPU_PARTIAL_DRAIN);
	}
}
#else
static inline void
unfreeze_partials(struct kmem_cache *s) { }
static inline void
unfreeze_partials_cpu(struct kmem_cache *s, struct kmem_cache_cpu *c) { }
#endif /* CONFIG_SLUB_CPU_PARTIAL */

/* ----------------------------------------------------------- flushing */

/* Detach this CPU's slab under the local lock, deactivate outside. */
static inline void
flush_slab(struct kmem_cache *s, struct kmem_cache_cpu *c)
{
	unsigned long irqflags;
	struct page *page;
	void *freelist;

	local_lock_irqsave(&s->cpu_slab->lock, irqflags);

	page = c->page;
	freelist = c->freelist;

	c->page = NULL;
	c->freelist = NULL;
	c->tid = next_tid(c->tid);

	local_unlock_irqrestore(&s->cpu_slab->lock, irqflags);

	if (page) {
		deactivate_slab(s, page, freelist);
		stat(s, CPUSLAB_FLUSH);
	}
}

/* @cpu's slabs, when @cpu cannot be running SLUB (bootstrap, offline). */
static inline void
__flush_cpu_slab(struct kmem_cache *s, int cpu)
{
	struct kmem_cache_cpu *c;
	struct page *page;
	void *freelist;

	c = per_cpu_ptr(s->cpu_slab, cpu);
	freelist = c->freelist;
	page = c->page;

	c->page = NULL;
	c->freelist = NULL;
	c->tid = next_tid(c->tid);

	if (page) {
		deactivate_slab(s, page, freelist);
		stat(s, CPUSLAB_FLUSH);
	}

	unfreeze_partials_cpu(s, c);
}

struct slub_flush_work {
	struct work_struct work;
	struct kmem_cache *s;
	bool skip;
};

/*
 * The flush itself, as a work item on the CPU being flushed: thread
 * context, preemptible, pinned to the CPU by its bound worker (pre-series
 * this ran in an IPI handler).
 */
static void
flush_cpu_slab(struct work_struct *item)
{
	struct slub_flush_work *sfw;
	struct kmem_cache_cpu *c;
	struct kmem_cache *s;

	sfw = container_of(item, struct slub_flush_work, work);
	s = sfw->s;
	c = this_cpu_ptr(s->cpu_slab);

	slub_probe(SLUB_PROBE_FLUSH);
	if (c->page)
		flush_slab(s, c);

	unfreeze_partials(s);
}

static bool
has_cpu_slab(int cpu, struct kmem_cache *s)
{
	struct kmem_cache_cpu *c;

	c = per_cpu_ptr(s->cpu_slab, cpu);
	return c->page || slub_percpu_partial(c);
}

static DEFINE_MUTEX(flush_lock);
static DEFINE_PER_CPU(struct slub_flush_work,
		      slub_flush);

/*
 * Queue the flush on every CPU that has something, then wait for all.
 * Linux holds cpus_read_lock() around this; irqlab has no CPU hotplug.
 */
static void
flush_all_cpus_locked(struct kmem_cache *s)
{
	struct slub_flush_work *sfw;
	unsigned int cpu;

	mutex_lock(&flush_lock);

	for_each_online_cpu(cpu) {
		sfw = &per_cpu(slub_flush, cpu);
		if (!has_cpu_slab(cpu, s)) {
			sfw->skip = true;
			continue;
		}
		INIT_WORK(&sfw->work, flush_cpu_slab);
		sfw->skip = false;
		sfw->s = s;
		schedule_work_on(cpu, &sfw->work);
	}

	for_each_online_cpu(cpu) {
		sfw = &per_cpu(slub_flush, cpu);
		if (sfw->skip)
			continue;
		flush_work(&sfw->work);
	}

	mutex_unlock(&flush_lock);
}

void flush_all(struct kmem_cache *s)
{
	flush_all_cpus_locked(s);
}

/* ------------------------------------------------------------- counts */

static inline int
node_match(struct page *page, int node)
{
	if (node != NUMA_NO_NODE &&
	    page_to_nid(page) != node)
		return 0;
	return 1;
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

static noinline void slab_out_of_memory(struct kmem_cache *s, gfp_t gfpflags,
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

/* ---------------------------------------------------------- slow path */

/*
 * Take page->freelist (remote frees) as the new CPU freelist.  If it is
 * empty the page is unfrozen in the same cmpxchg (it is full and goes on
 * no list) and NULL tells the caller to find another slab.
 */
static inline void *
get_freelist(struct kmem_cache *s, struct page *page)
{
	unsigned long counters;
	struct page new;
	void *freelist;

	lockdep_assert_held(&this_cpu_ptr(s->cpu_slab)->lock);

	do {
		freelist = page->freelist;
		counters = page->counters;

		new.counters = counters;
		VM_BUG_ON(!new.frozen);

		new.inuse = page->objects;
		new.frozen = freelist != NULL;
	} while (!__cmpxchg_double_slab(s, page, freelist, counters,
					NULL, new.counters, "get_freelist"));

	return freelist;
}

/*
 * The slow path: c->freelist is empty (or this is RT, or a debug cache).
 * In order of cost: the CPU slab's remote frees (get_freelist), a CPU
 * partial slab, a node partial slab, a new slab from the page allocator.
 *
 * Called with the task pinned to the CPU (slub_get_cpu_ptr) but with
 * interrupts enabled.  Every look at c->page / c->freelist / c->partial
 * happens in a short local_lock_irqsave() section that first checks that
 * c->page is still what this function saw: an interrupt or (on RT) a
 * preempting task may have run SLUB on this CPU in between.
 */
static void *
___slab_alloc(struct kmem_cache *s, gfp_t gfp, int node, unsigned long addr,
	      struct kmem_cache_cpu *c)
{
	unsigned long irqflags;
	struct page *page;
	void *freelist;

	stat(s, ALLOC_SLOWPATH);

reread_page:
	page = READ_ONCE(c->page);
	if (!page) {
		/* A node without normal memory cannot be honoured. */
		if (unlikely(node != NUMA_NO_NODE &&
			     !test_bit(node, slab_nodes.bits)))
			node = NUMA_NO_NODE;
		goto new_slab;
	}
redo:
	if (unlikely(!node_match(page, node))) {
		if (!test_bit(node, slab_nodes.bits)) {
			node = NUMA_NO_NODE;
			goto redo;
		} else {
			stat(s, ALLOC_NODE_MISMATCH);
			goto deactivate_slab;
		}
	}

	if (unlikely(!pfmemalloc_match(page, gfp)))
		goto deactivate_slab;

	/* c->page may have changed since the unlocked read above. */
	local_lock_irqsave(&s->cpu_slab->lock, irqflags);
	if (unlikely(page != c->page)) {
		local_unlock_irqrestore(&s->cpu_slab->lock, irqflags);
		goto reread_page;
	}
	freelist = c->freelist;
	if (freelist)
		goto load_freelist;

	freelist = get_freelist(s, page);

	if (!freelist) {
		c->page = NULL;
		c->tid = deactivate_tid(c->tid);
		local_unlock_irqrestore(&s->cpu_slab->lock, irqflags);
		stat(s, DEACTIVATE_BYPASS);
		goto new_slab;
	}

	stat(s, ALLOC_REFILL);

load_freelist:
	lockdep_assert_held(&this_cpu_ptr(s->cpu_slab)->lock);

	/* freelist belongs to c->page, which must be frozen (ours). */
	VM_BUG_ON(!c->page->frozen);
	c->freelist = get_freepointer(s, freelist);
	c->tid = next_tid(c->tid);
	local_unlock_irqrestore(&s->cpu_slab->lock, irqflags);
	return freelist;

deactivate_slab:
	local_lock_irqsave(&s->cpu_slab->lock, irqflags);
	if (page != c->page) {
		local_unlock_irqrestore(&s->cpu_slab->lock, irqflags);
		goto reread_page;
	}
	freelist = c->freelist;
	c->page = NULL;
	c->freelist = NULL;
	c->tid = deactivate_tid(c->tid);
	local_unlock_irqrestore(&s->cpu_slab->lock, irqflags);
	deactivate_slab(s, page, freelist);

new_slab:
	if (slub_percpu_partial(c)) {
		local_lock_irqsave(&s->cpu_slab->lock, irqflags);
		if (unlikely(c->page)) {
			local_unlock_irqrestore(&s->cpu_slab->lock, irqflags);
			goto reread_page;
		}
		if (unlikely(!slub_percpu_partial(c))) {
			/* Emptied by whoever ran here while we were out. */
			local_unlock_irqrestore(&s->cpu_slab->lock, irqflags);
			goto new_objects;
		}

		page = c->page = slub_percpu_partial(c);
		slub_set_percpu_partial(c, page);
		local_unlock_irqrestore(&s->cpu_slab->lock, irqflags);
		stat(s, CPU_PARTIAL_ALLOC);
		goto redo;
	}

new_objects:
	freelist = get_partial(s, gfp, node, &page);
	if (freelist)
		goto check_new_page;

	/*
	 * The page allocator runs unpinned, with interrupts and (on !RT)
	 * preemption enabled, whatever the gfp flags.  We may come back on
	 * another CPU: reload c.
	 */
	slub_put_cpu_ptr(s->cpu_slab);
	page = new_slab(s, gfp, node);
	c = slub_get_cpu_ptr(s->cpu_slab);

	if (unlikely(!page)) {
		slab_out_of_memory(s, gfp, node);
		return NULL;
	}

	/* Nobody else knows the page yet: no cmpxchg needed. */
	freelist = page->freelist;
	page->freelist = NULL;

	stat(s, ALLOC_SLAB);

check_new_page:
	if (kmem_cache_debug(s)) {
		if (!alloc_debug_processing(s, page, freelist, addr))
			goto new_slab;	/* the slab failed its checks */
		/* Debug caches never load c->freelist: every allocation
		 * must pass alloc_debug_processing(). */
		goto return_single;
	}

	if (unlikely(!pfmemalloc_match(page, gfp)))
		goto return_single;

retry_load_page:
	local_lock_irqsave(&s->cpu_slab->lock, irqflags);
	if (unlikely(c->page)) {
		/* Someone installed a CPU slab meanwhile: retire it. */
		void *flush_freelist = c->freelist;
		struct page *flush_page = c->page;

		c->page = NULL;
		c->freelist = NULL;
		c->tid = next_tid(c->tid);

		local_unlock_irqrestore(&s->cpu_slab->lock, irqflags);

		deactivate_slab(s, flush_page, flush_freelist);

		stat(s, CPUSLAB_FLUSH);

		goto retry_load_page;
	}
	c->page = page;

	goto load_freelist;

return_single:
	deactivate_slab(s, page,
			get_freepointer(s, freelist));
	return freelist;
}

/*
 * Pin, then slow path.  The guards are CONFIG_PREEMPT_COUNT as in 5.15
 * (v2r3 of the series; v2r1 used CONFIG_PREEMPTION and unbalanced the
 * pin on PREEMPTION=n kernels that count preemption).
 */
static void *
__slab_alloc(struct kmem_cache *s, gfp_t gfp, int node, unsigned long addr,
	     struct kmem_cache_cpu *c)
{
	void *p;

#ifdef CONFIG_PREEMPT_COUNT
	/* c was read before pinning and may belong to another CPU. */
	c = slub_get_cpu_ptr(s->cpu_slab);
#endif
	p = ___slab_alloc(s, gfp, node, addr, c);
#ifdef CONFIG_PREEMPT_COUNT
	slub_put_cpu_ptr(s->cpu_slab);
#endif
	return p;
}

/*
 * The allocation fast path: pop c->freelist with one cmpxchg16b on
 * (freelist, tid), no lock, interrupts and preemption untouched.
 *
 * Ordering: tid is read before freelist and page (barrier()), so a pair
 * read across an operation on this CPU carries the old tid and fails.
 * Reading c on one CPU and running the cmpxchg on another is fine: the
 * cmpxchg is %gs-relative and the tid names the CPU.
 *
 * PREEMPT_RT always takes the slow path: a task holding the local lock
 * there may be preempted by one that would otherwise run the lockless
 * path in the middle of its critical section.
 */
static __always_inline void *
slab_alloc_node(struct kmem_cache *s, gfp_t gfp, int node, unsigned long addr,
		size_t orig_size)
{
	struct kmem_cache_cpu *c;
	unsigned long tid;
	struct page *page;
	void *object;

	s = slab_pre_alloc_hook(s, gfp);
	if (!s)
		return NULL;
redo:
	c = raw_cpu_ptr(s->cpu_slab);
	tid = READ_ONCE(c->tid);
	barrier();

	object = c->freelist;
	page = c->page;
	if (IS_ENABLED(CONFIG_PREEMPT_RT) ||
	    unlikely(!object || !page ||
		     !node_match(page, node))) {
		object = __slab_alloc(s, gfp, node, addr, c);
	} else {
		void *next = get_freepointer_safe(s, object);

		if (unlikely(!this_cpu_cmpxchg_double(s->cpu_slab->freelist,
						      s->cpu_slab->tid,
						      object, tid,
						      next,
						      next_tid(tid)))) {
			note_cmpxchg_failure("slab_alloc", s, tid);
			goto redo;
		}
		prefetch_freepointer(s, next);
		stat(s, ALLOC_FASTPATH);
	}

	slab_post_alloc_hook(s, gfp, 1, &object,
			     slab_want_init_on_alloc(gfp, s));
	return object;
}

static __always_inline void *slab_alloc(struct kmem_cache *s, gfp_t gfp,
					unsigned long addr, size_t orig_size)
{
	return slab_alloc_node(s, gfp, NUMA_NO_NODE, addr, orig_size);
}

void *
kmem_cache_alloc(struct kmem_cache *s, gfp_t gfp)
{
	return slab_alloc(s, gfp, _RET_IP_, s->object_size);
}

void *kmem_cache_alloc_trace(struct kmem_cache *s, gfp_t gfp,
			     size_t size)
{
	return slab_alloc(s, gfp, _RET_IP_, size);
}

void *
kmem_cache_alloc_node(struct kmem_cache *s, gfp_t gfp, int node)
{
	return slab_alloc_node(s, gfp, node, _RET_IP_, s->object_size);
}

void *kmem_cache_alloc_node_trace(struct kmem_cache *s, gfp_t gfp,
				  int node, size_t size)
{
	return slab_alloc_node(s, gfp, node, _RET_IP_, size);
}

/* ---------------------------------------------------------------- free */

/*
 * Free to a slab that is not this CPU's: push the object(s) onto
 * page->freelist with cmpxchg_double.  List work only when the slab
 * changes state: a full slab becoming partial is frozen onto c->partial
 * (CPU_PARTIAL) or put on the node list; a slab becoming empty may go
 * back to the page allocator.  list_lock is taken (irqsave) only for
 * those transitions, before the cmpxchg, so that nobody sees the slab on
 * the wrong list.
 */
static void
__slab_free(struct kmem_cache *s, struct page *page, void *head, void *last,
	    int cnt, unsigned long addr)
{
	struct kmem_cache_node *n = NULL;
	unsigned long counters;
	unsigned long irqflags;
	struct page new;
	int was_frozen;
	void *prior;

	stat(s, FREE_SLOWPATH);

	if (kmem_cache_debug(s) &&
	    !free_debug_processing(s, page, head, last, cnt, addr))
		return;

	do {
		if (unlikely(n)) {
			list_unlock_irqrestore(&n->list_lock, irqflags);
			n = NULL;
		}
		prior = page->freelist;
		counters = page->counters;
		set_freepointer(s, last, prior);
		new.counters = counters;
		was_frozen = new.frozen;
		new.inuse -= cnt;
		if ((!new.inuse || !prior) && !was_frozen) {
			if (kmem_cache_has_cpu_partial(s) && !prior) {
				/*
				 * Full until now and on no list: freeze it
				 * for c->partial instead of taking the lock.
				 */
				new.frozen = 1;
			} else {
				/* It has to move between lists. */
				n = get_node(s, page_to_nid(page));
				list_lock_irqsave(&n->list_lock, irqflags);
			}
		}
	} while (!cmpxchg_double_slab(s, page, prior, counters,
				      head, new.counters, "__slab_free"));

	if (likely(!n)) {
		if (likely(was_frozen)) {
			/* Somebody's CPU slab or partial: nothing to do. */
			stat(s, FREE_FROZEN);
		} else if (new.frozen) {
			/* We froze it: ours to put on c->partial. */
			put_cpu_partial(s, page, 1);
			stat(s, CPU_PARTIAL_FREE);
		}
		return;
	}

	if (unlikely(!new.inuse && s->min_partial <= n->nr_partial))
		goto slab_empty;

	/* Without CPU partials a full slab goes back to the node list. */
	if (!kmem_cache_has_cpu_partial(s) &&
	    unlikely(!prior)) {
		remove_full(s, n, page);
		add_partial(n, page, DEACTIVATE_TO_TAIL);
		stat(s, FREE_ADD_PARTIAL);
	}
	list_unlock_irqrestore(&n->list_lock, irqflags);
	return;

slab_empty:
	if (prior) {
		remove_partial(n, page);
		stat(s, FREE_REMOVE_PARTIAL);
	} else {
		/* Only a debug cache can get here (full list). */
		remove_full(s, n, page);
	}

	list_unlock_irqrestore(&n->list_lock, irqflags);
	stat(s, FREE_SLAB);
	discard_slab(s, page);
}

/*
 * The free fast path: an object of this CPU's slab goes back on
 * c->freelist with one cmpxchg16b on (freelist, tid).  @head..@tail is a
 * chain of @cnt objects already linked (bulk free), or @tail is NULL.
 *
 * On PREEMPT_RT the push is done under the local lock instead: the
 * allocation side there relies on the lock, not on the tid.
 */
static __always_inline void
do_slab_free(struct kmem_cache *s, struct page *page, void *head, void *tail,
	     int cnt, unsigned long addr)
{
	void *last = tail ? : head;
	struct kmem_cache_cpu *c;
	unsigned long tid;
redo:
	c = raw_cpu_ptr(s->cpu_slab);
	tid = READ_ONCE(c->tid);
	barrier();

	if (likely(page == c->page)) {
#ifndef CONFIG_PREEMPT_RT
		void **freelist = READ_ONCE(c->freelist);

		set_freepointer(s, last, freelist);

		if (unlikely(!this_cpu_cmpxchg_double(s->cpu_slab->freelist,
						      s->cpu_slab->tid,
						      freelist, tid,
						      head, next_tid(tid)))) {
			note_cmpxchg_failure("slab_free", s, tid);
			goto redo;
		}
#else
		void **freelist;

		local_lock(&s->cpu_slab->lock);
		c = this_cpu_ptr(s->cpu_slab);
		if (unlikely(page != c->page)) {
			local_unlock(&s->cpu_slab->lock);
			goto redo;
		}
		tid = c->tid;
		freelist = c->freelist;

		set_freepointer(s, last, freelist);
		c->freelist = head;
		c->tid = next_tid(tid);

		local_unlock(&s->cpu_slab->lock);
#endif
		stat(s, FREE_FASTPATH);
	} else {
		__slab_free(s, page, head, last, cnt, addr);
	}
}

static __always_inline void
slab_free(struct kmem_cache *s, struct page *page, void *head, void *last,
	  int cnt, unsigned long addr)
{
	if (slab_free_freelist_hook(s, &head, &last, &cnt))
		do_slab_free(s, page, head, last, cnt, addr);
}

void
kmem_cache_free(struct kmem_cache *s, void *obj)
{
	s = cache_from_obj(s, obj);
	if (!s)
		return;
	slab_free(s, virt_to_head_page(obj), obj, NULL, 1, _RET_IP_);
}

/* A kmalloc() above KMALLOC_MAX_CACHE_SIZE: a compound page. */
static inline void
free_nonslab_page(struct page *page, void *object)
{
	unsigned int order = compound_order(page);

	if (WARN_ON(!PageCompound(page) && order)) {
		pr_err("SLUB: kfree(%px): not a slab object or kmalloc page\n",
		       object);
		return;
	}
	__free_pages(page, order);
}

/* ---------------------------------------------------------------- bulk */

struct detached_freelist {
	struct page *page;
	void *tail;
	void *freelist;
	int cnt;
	struct kmem_cache *s;
};

/*
 * From the end of @p, gather the objects that share the last object's
 * slab into one chain (df), marking them NULL in @p.  Looks past at most
 * three objects of other slabs.  Returns how much of @p is left to scan
 * (the index after the first object skipped), 0 when done.
 */
static inline int build_detached_freelist(struct kmem_cache *s, size_t size,
					  void **p,
					  struct detached_freelist *df)
{
	size_t first_skipped_index = 0;
	int lookahead = 3;
	struct page *page;
	void *object;

	df->page = NULL;

	do {
		object = p[--size];
	} while (!object && size);

	if (!object)
		return 0;

	page = virt_to_head_page(object);
	if (!s) {
		/* kfree_bulk(): the objects name their caches. */
		if (unlikely(!PageSlab(page))) {
			free_nonslab_page(page, object);
			p[size] = NULL;
			return size;
		}
		df->s = page->slab_cache;
	} else {
		df->s = cache_from_obj(s, object);
	}

	df->page = page;
	set_freepointer(df->s, object, NULL);
	df->tail = object;
	df->freelist = object;
	p[size] = NULL;
	df->cnt = 1;

	while (size) {
		object = p[--size];
		if (!object)
			continue;	/* already handled */

		if (df->page == virt_to_head_page(object)) {
			set_freepointer(df->s, object, df->freelist);
			df->freelist = object;
			df->cnt++;
			p[size] = NULL;
			continue;
		}

		if (!--lookahead)
			break;

		if (!first_skipped_index)
			first_skipped_index = size + 1;
	}

	return first_skipped_index;
}

void
kmem_cache_free_bulk(struct kmem_cache *s, size_t nr, void **p)
{
	if (WARN_ON(!nr))
		return;

	do {
		struct detached_freelist df;

		nr = build_detached_freelist(s, nr, p, &df);
		if (!df.page)
			continue;

		slab_free(df.s, df.page, df.freelist, df.tail, df.cnt,
			  _RET_IP_);
	} while (likely(nr));
}

/*
 * All @size objects or none.  Objects come off c->freelist inside one
 * local_lock_irq() section (IRQs off on !RT); whenever it runs dry the
 * lock is dropped for ___slab_alloc, which returns one object and may
 * have refilled c->freelist.  The task stays pinned throughout.
 */
int
kmem_cache_alloc_bulk(struct kmem_cache *s, gfp_t gfp, size_t size, void **p)
{
	struct kmem_cache_cpu *c;
	size_t i;

	s = slab_pre_alloc_hook(s, gfp);
	if (unlikely(!s))
		return 0;

	c = slub_get_cpu_ptr(s->cpu_slab);
	local_lock_irq(&s->cpu_slab->lock);

	for (i = 0; i < size; i++) {
		void *object = c->freelist;

		if (unlikely(!object)) {
			/*
			 * Any fast path that read c->freelist before we
			 * emptied it must now fail its cmpxchg.
			 */
			c->tid = next_tid(c->tid);

			local_unlock_irq(&s->cpu_slab->lock);

			p[i] = ___slab_alloc(s, gfp, NUMA_NO_NODE,
					     _RET_IP_, c);
			if (unlikely(!p[i]))
				goto error;

			c = this_cpu_ptr(s->cpu_slab);

			local_lock_irq(&s->cpu_slab->lock);
			continue;
		}
		c->freelist = get_freepointer(s, object);
		p[i] = object;
	}
	c->tid = next_tid(c->tid);
	local_unlock_irq(&s->cpu_slab->lock);
	slub_put_cpu_ptr(s->cpu_slab);

	slab_post_alloc_hook(s, gfp, size, p,
			     slab_want_init_on_alloc(gfp, s));
	return i;
error:
	/*
	 * ___slab_alloc returned with the local lock NOT held: only the
	 * pin is ours to drop (CONFIG_SLUB_BUG_BULK_UNLOCK of the legacy
	 * issue re-injects the series' unlock here).
	 */
	slub_put_cpu_ptr(s->cpu_slab);
	slab_post_alloc_hook(s, gfp, i, p, false);
	if (i)
		kmem_cache_free_bulk(s, i, p);
	return 0;
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

void __kmem_cache_release(struct kmem_cache *s)
{
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
 * Free objects c->partial may hold before put_cpu_partial drains it
 * (5.15 counts objects): fewer for bigger objects, none for debug caches
 * (which must see every free in __slab_free).
 */
static void
set_cpu_partial(struct kmem_cache *s)
{
#ifdef CONFIG_SLUB_CPU_PARTIAL
	if (!kmem_cache_has_cpu_partial(s))
		slub_set_cpu_partial(s, 0);
	else if (s->size >= PAGE_SIZE)
		slub_set_cpu_partial(s, 2);
	else if (s->size >= 1024)
		slub_set_cpu_partial(s, 6);
	else if (s->size >= 256)
		slub_set_cpu_partial(s, 13);
	else
		slub_set_cpu_partial(s, 30);
#endif
}

/*
 * Object layout (see mm/slub.h) and slab order from object_size, align
 * and the debug flags.  Returns 0 if no order can hold an object.
 */
static int
calculate_sizes(struct kmem_cache *s, int forced_order)
{
	slab_flags_t flags = s->flags;
	unsigned int size = s->object_size;
	unsigned int order;

	/* Free pointers must be word aligned wherever they end up. */
	size = ALIGN(size, sizeof(void *));

#ifdef CONFIG_SLUB_DEBUG
	/* Poison the object itself only if nobody relies on its contents. */
	if ((flags & SLAB_POISON) &&
	    !(flags & SLAB_TYPESAFE_BY_RCU) && !s->ctor)
		s->flags |= __OBJECT_POISON;
	else
		s->flags &= ~__OBJECT_POISON;

	/* No alignment slack after the object: make room for a red zone. */
	if ((flags & SLAB_RED_ZONE) && s->object_size == size)
		size += sizeof(void *);
#endif

	s->inuse = size;

	if ((flags & (SLAB_POISON | SLAB_TYPESAFE_BY_RCU)) ||
	    ((flags & SLAB_RED_ZONE) && sizeof(void *) > s->object_size) ||
	    s->ctor) {
		/*
		 * The free pointer may not overlay the object: after it,
		 * outside the poison, the red zone and the ctor's state.
		 */
		s->offset = size;
		size += sizeof(void *);
	} else {
		/*
		 * In the middle of the object: a small overflow from the
		 * previous object does not reach it.
		 */
		s->offset = ALIGN_DOWN(s->object_size / 2,
				       sizeof(void *));
	}

#ifdef CONFIG_SLUB_DEBUG
	if (flags & SLAB_STORE_USER)
		size += 2 * sizeof(struct track);

	if (flags & SLAB_RED_ZONE) {
		/*
		 * A word of right red zone after the metadata catches
		 * overruns of the previous object's last field, and the
		 * left red zone (rounded up to the alignment) sits in front
		 * of each object.
		 */
		size += sizeof(void *);
		s->red_left_pad = sizeof(void *);
		s->red_left_pad = ALIGN(s->red_left_pad,
					s->align);
		size += s->red_left_pad;
	}
#endif

	size = ALIGN(size, s->align);
	s->size = size;
	if (forced_order >= 0)
		order = forced_order;
	else
		order = calculate_order(size);

	if ((int)order < 0)
		return 0;

	s->allocflags = 0;
	if (order)
		s->allocflags |= __GFP_COMP;
	if (s->flags & SLAB_CACHE_DMA32)
		s->allocflags |= __GFP_DMA32;
	if (s->flags & SLAB_RECLAIM_ACCOUNT)
		s->allocflags |= __GFP_RECLAIMABLE;

	s->oo = oo_make(order, size);
	s->min = oo_make(get_order(size), size);
	if (oo_objects(s->oo) > oo_objects(s->max))
		s->max = s->oo;

	return !!oo_objects(s->oo);
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

	flush_all_cpus_locked(s);
	for_each_kmem_cache_node(s, node, n) {
		free_partial(s, n);
		if (n->nr_partial || slabs_node(s, node))
			return 1;
	}
	return 0;
}

/* -------------------------------------------------------------- kmalloc */

void *__kmalloc(size_t size, gfp_t flags)
{
	struct kmem_cache *s;

	if (unlikely(size > KMALLOC_MAX_CACHE_SIZE))
		return kmalloc_large(size, flags);

	s = kmalloc_slab(size, flags);
	if (unlikely(ZERO_OR_NULL_PTR(s)))
		return s;

	return slab_alloc(s, flags, _RET_IP_, size);
}

static void *kmalloc_large_node(size_t size, gfp_t gfp, int node)
{
	unsigned int order = get_order(size);
	struct page *page;

	gfp |= __GFP_COMP;
	page = alloc_pages_node(node, gfp, order);
	return page ? page_address(page) : NULL;
}

void *__kmalloc_node(size_t size, gfp_t gfp, int node)
{
	struct kmem_cache *s;

	if (unlikely(size > KMALLOC_MAX_CACHE_SIZE))
		return kmalloc_large_node(size, gfp, node);

	s = kmalloc_slab(size, gfp);
	if (unlikely(ZERO_OR_NULL_PTR(s)))
		return s;

	return slab_alloc_node(s, gfp, node, _RET_IP_, size);
}

void *__kmalloc_track_caller(size_t size, gfp_t flags, unsigned long caller)
{
	struct kmem_cache *s;

	if (unlikely(size > KMALLOC_MAX_CACHE_SIZE))
		return kmalloc_large(size, flags);

	s = kmalloc_slab(size, flags);
	if (unlikely(ZERO_OR_NULL_PTR(s)))
		return s;

	return slab_alloc(s, flags, caller, size);
}

/* Usable bytes: object_size, or up to the metadata when nothing sits
 * between (no red zone, poison or tracking to protect). */
static inline unsigned int slab_ksize(const struct kmem_cache *s)
{
#ifdef CONFIG_SLUB_DEBUG
	if (s->flags & (SLAB_RED_ZONE | SLAB_POISON))
		return s->object_size;
#endif
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

void kfree(const void *x)
{
	void *object = (void *)x;
	struct page *page;

	if (unlikely(ZERO_OR_NULL_PTR(x)))
		return;

	page = virt_to_head_page(x);
	if (unlikely(!PageSlab(page))) {
		free_nonslab_page(page, object);
		return;
	}
	slab_free(page->slab_cache, page, object, NULL, 1,
		  _RET_IP_);
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
 * kmem_cache_free(s, x): x must belong to s.  Checked only where Linux
 * checks it (consistency-checked caches); a mismatch is reported and
 * the object is freed to the cache it really belongs to.
 */
struct kmem_cache *cache_from_obj(struct kmem_cache *s, void *x)
{
	struct kmem_cache *cachep;

	if (!kmem_cache_debug_flags(s, SLAB_CONSISTENCY_CHECKS))
		return s;

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
	if (flags & SLAB_TYPESAFE_BY_RCU) {
		pr_err("SLUB: %s: SLAB_TYPESAFE_BY_RCU needs RCU, which irqlab does not have\n",
		       s->name);
		return -EINVAL;
	}
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
