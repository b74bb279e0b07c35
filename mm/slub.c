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
#include <linux/cpu.h>
#include <asm/processor.h>
#include "slab.h"
#include "slub.h"

/*
 * Pin the task to this CPU across the slow path.  !RT: preemption off, as
 * get_cpu_ptr(); RT: migration off only, so the path stays preemptible
 * and its sleeping locks (list_lock, the local lock) may block.
 */
#if IS_ENABLED(CONFIG_PREEMPT_RT) == IS_ENABLED(CONFIG_SLUB_BUG_MIGRATE_IFDEF)
/*
 * !RT (or RT with the v2r1 bug re-injected: its guard was #ifdef where
 * #ifndef was meant, so the two kernels got each other's pinning).
 */
#define slub_get_cpu_ptr(var)	({ preempt_disable(); this_cpu_ptr(var); })
#define slub_put_cpu_ptr(var)	preempt_enable()
#else
#define slub_get_cpu_ptr(var)	({ migrate_disable(); this_cpu_ptr(var); })
#define slub_put_cpu_ptr(var)	migrate_enable()
#endif

/*
 * Whether __slab_alloc pins around ___slab_alloc: CONFIG_PREEMPT_COUNT in
 * 5.15 (v2r3).  v2r1 and v2r2 tested CONFIG_PREEMPTION, which on a kernel
 * that is not preemptible leaves the unconditional unpin/pin around
 * new_slab() unbalanced: v2r1's migrate_enable() without a disable, v2r2's
 * preempt_enable() without a disable when PREEMPT_COUNT is on.
 */
#ifdef CONFIG_SLUB_BUG_PREEMPTION_GUARD
#define SLUB_PIN_SLOWPATH	IS_ENABLED(CONFIG_PREEMPTION)
#else
#define SLUB_PIN_SLOWPATH	IS_ENABLED(CONFIG_PREEMPT_COUNT)
#endif

#ifdef CONFIG_SLUB_NO_LOCAL_LOCK
/*
 * The series without its last patch ("convert kmem_cpu_slab protection
 * to local_lock"): the same kmem_cache_cpu sections, each protected by
 * disabling interrupts, on PREEMPT_RT too.  Within this file the cpu_slab
 * local lock operations are the only users of these names.
 */
#undef local_lock_irqsave
#undef local_unlock_irqrestore
#undef local_lock_irq
#undef local_unlock_irq
#define local_lock_irqsave(lock, flags)		local_irq_save(flags)
#define local_unlock_irqrestore(lock, flags)	local_irq_restore(flags)
#define local_lock_irq(lock)			local_irq_disable()
#define local_unlock_irq(lock)			local_irq_enable()
#define lockdep_assert_cpu_slab_held(s)		lockdep_assert_irqs_disabled()
/* IRQ-off sections exclude a same-CPU fast path on RT too. */
#define SLUB_RT_LOCKED_FASTPATHS		0
#else
#define lockdep_assert_cpu_slab_held(s)				\
	lockdep_assert_held(&this_cpu_ptr((s)->cpu_slab)->lock)
#define SLUB_RT_LOCKED_FASTPATHS		IS_ENABLED(CONFIG_PREEMPT_RT)
#endif



/*
 * page->freelist and page->counters change together or not at all: one
 * lock cmpxchg16b where the cache allows it, else the same compare and
 * store under slab_lock (debug caches).  Both return false, with the loss
 * counted, when the slab changed since the caller read it; the caller
 * re-reads and tries again.  @n names the caller (Linux prints it when
 * debugging its retries; irqlab keeps the argument only).
 *
 * __cmpxchg_double_slab is for callers that already exclude interrupts
 * on !RT: they hold list_lock with _irqsave or the cpu_slab local lock.
 * On RT neither disables them any more, which is why slab_lock() does it
 * there itself around the bit lock.
 */
static inline bool __cmpxchg_double_slab(struct kmem_cache *s,
					 struct page *page,
					 void *freelist_old,
					 unsigned long counters_old,
					 void *freelist_new,
					 unsigned long counters_new,
					 const char *n)
{
	unsigned long irqflags = 0;
	bool updated;

	if (!IS_ENABLED(CONFIG_PREEMPT_RT))
		lockdep_assert_irqs_disabled();

	if (s->flags & __CMPXCHG_DOUBLE) {
		updated = cmpxchg_double(&page->freelist, &page->counters,
					 freelist_old, counters_old,
					 freelist_new, counters_new);
	} else {
		slab_lock(page, &irqflags);
		updated = slab_update_locked(page, freelist_old, counters_old,
					     freelist_new, counters_new);
		slab_unlock(page, &irqflags);
	}

	if (unlikely(!updated))
		slab_update_lost(s);
	return updated;
}

/*
 * cmpxchg_double_slab is for callers running with interrupts on
 * (__slab_free, deactivate_slab).  The bit lock is then taken with them
 * off on every kernel: an interrupt that frees into the same slab would
 * otherwise spin on a lock its own CPU holds.
 */
static inline bool cmpxchg_double_slab(struct kmem_cache *s,
				       struct page *page,
				       void *freelist_old,
				       unsigned long counters_old,
				       void *freelist_new,
				       unsigned long counters_new,
				       const char *n)
{
	unsigned long irqflags;
	bool updated;

	if (s->flags & __CMPXCHG_DOUBLE) {
		updated = cmpxchg_double(&page->freelist, &page->counters,
					 freelist_old, counters_old,
					 freelist_new, counters_new);
	} else {
		local_irq_save(irqflags);
		__slab_lock(page);
		updated = slab_update_locked(page, freelist_old, counters_old,
					     freelist_new, counters_new);
		__slab_unlock(page);
		local_irq_restore(irqflags);
	}

	if (unlikely(!updated))
		slab_update_lost(s);
	return updated;
}

/* ------------------------------------------------------------ hooks */

/* slab_free_hook(), slab_free_freelist_hook(): mm/slub_entry.h. */


/* ----------------------------------------------- slab pages in and out */


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

	account_slab_page(page, oo_order(oo));

	page->slab_cache = s;
	__SetPageSlab(page);

	/* Nothing in a new slab is accessible until it is allocated. */
	kasan_poison_slab(page);
	setup_page_debug(s, page, page_address(page));
	setup_slab_freelist(s, page);

	page->inuse = page->objects;
	page->frozen = 1;

	inc_slabs_node(s, page_to_nid(page),
		       page->objects);
	return page;
}

struct page *new_slab(struct kmem_cache *s, gfp_t gfp, int node)
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

/* ------------------------------------------------------- node partials */

#include "slub_partial.h"

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
	slub_probe(s, SLUB_PROBE_PARTIAL_NODE);
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

static inline void
note_cmpxchg_failure(const char *n, const struct kmem_cache *s,
		     unsigned long tid)
{
	stat(s, CMPXCHG_DOUBLE_CPU_FAIL);
}

void
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
	slub_probe(s, SLUB_PROBE_DEACTIVATE_WALK);
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

	slub_probe(s, SLUB_PROBE_UNFREEZE);
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

#ifdef CONFIG_SLUB_BUG_PARTIAL_CMPXCHG
/*
 * v2r3 of the series, re-injected: detach c->partial with a
 * this_cpu_cmpxchg loop, relying only on the caller's pin.  Against
 * ___slab_alloc's pop of c->partial (a few plain stores under the local
 * lock, which on PREEMPT_RT neither disables interrupts nor preemption)
 * this is no exclusion at all: a preempting task can push or detach in
 * the middle of the pop.
 */
static void
unfreeze_partials(struct kmem_cache *s)
{
	struct page *detached;

	do {
		detached = this_cpu_read(s->cpu_slab->partial);
	} while (detached &&
		 this_cpu_cmpxchg(s->cpu_slab->partial, detached, NULL) !=
			detached);

	if (detached)
		__unfreeze_partials(s, detached);
}
#else
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
#endif

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
#ifdef CONFIG_SLUB_BUG_PARTIAL_CMPXCHG
/*
 * v2r3's put_cpu_partial, re-injected: the push is a this_cpu_cmpxchg
 * loop under slub_get_cpu_ptr() only (migrate_disable on RT), and a full
 * chain is drained right there through unfreeze_partials().
 */
static void put_cpu_partial(struct kmem_cache *s, struct page *page,
			    int drain)
{
	struct page *prev_head;
	int pages, pobjects;

	slub_get_cpu_ptr(s->cpu_slab);
	do {
		pages = 0;
		pobjects = 0;
		prev_head = this_cpu_read(s->cpu_slab->partial);

		if (prev_head) {
			pobjects = prev_head->pobjects;
			pages = prev_head->pages;
			if (drain && pobjects > slub_cpu_partial(s)) {
				unfreeze_partials(s);
				prev_head = NULL;
				pobjects = 0;
				pages = 0;
				stat(s, CPU_PARTIAL_DRAIN);
			}
		}

		pages++;
		pobjects += page->objects - page->inuse;

		page->pages = pages;
		page->pobjects = pobjects;
		page->next = prev_head;
	} while (this_cpu_cmpxchg(s->cpu_slab->partial, prev_head, page) !=
		 prev_head);
	if (unlikely(!slub_cpu_partial(s)))
		unfreeze_partials(s);
	slub_put_cpu_ptr(s->cpu_slab);
}
#else
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
	slub_probe(s, SLUB_PROBE_PARTIAL_PUSH);

	local_unlock_irqrestore(&s->cpu_slab->lock, irqflags);

	if (page_to_unfreeze) {
		__unfreeze_partials(s, page_to_unfreeze);
		stat(s, CPU_PARTIAL_DRAIN);
	}
}
#endif /* CONFIG_SLUB_BUG_PARTIAL_CMPXCHG */
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
void __flush_cpu_slab(struct kmem_cache *s, int cpu)
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

static bool
has_cpu_slab(int cpu, struct kmem_cache *s)
{
	struct kmem_cache_cpu *c;

	c = per_cpu_ptr(s->cpu_slab, cpu);
	return c->page || slub_percpu_partial(c);
}

#include "slub_flush.h"

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

	slub_probe(s, SLUB_PROBE_FLUSH);
	if (c->page)
		flush_slab(s, c);

	unfreeze_partials(s);
}

/*
 * The work items are queued on the online CPUs: hold the hotplug lock so
 * that none of them goes away between queuing and waiting.  Callers that
 * already hold it (kmem_cache_destroy, the slab shrinker) call
 * flush_all_cpus_locked() directly.
 */
void flush_all(struct kmem_cache *s)
{
	cpus_read_lock();
	flush_all_cpus_locked(s);
	cpus_read_unlock();
}

/*
 * CPUHP_SLUB_DEAD teardown, on the control CPU once @cpu has stopped:
 * nothing runs on @cpu any more, so its CPU slab and CPU partial slabs
 * of every cache are handed back from here.  The series removed the
 * interrupt disabling around it: __flush_cpu_slab() takes list_lock with
 * its own irqsave and the dead CPU's kmem_cache_cpu has no other user.
 */
int slub_cpu_dead(unsigned int cpu)
{
	struct kmem_cache *s;

	mutex_lock(&slab_mutex);
	list_for_each_entry(s, &slab_caches, list) {
		slub_probe(s, SLUB_PROBE_CPU_DEAD);
		__flush_cpu_slab(s, cpu);
	}
	mutex_unlock(&slab_mutex);
	return 0;
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

	lockdep_assert_cpu_slab_held(s);

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

	slub_probe(s, SLUB_PROBE_SLOWPATH);
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
	slub_window(s, SLUB_WIN_PAGE_READ);
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
	lockdep_assert_cpu_slab_held(s);

	/* freelist belongs to c->page, which must be frozen (ours). */
	VM_BUG_ON(!c->page->frozen);
	c->freelist = get_freepointer(s, freelist);
	c->tid = next_tid(c->tid);
	slub_probe(s, SLUB_PROBE_LOAD_FREELIST);
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
		slub_window(s, SLUB_WIN_PARTIAL_READ);
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
	slub_window(s, SLUB_WIN_RELOCK);
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
 * (v2r3 of the series; v2r1 and v2r2 used CONFIG_PREEMPTION and unbalanced
 * the pin on PREEMPTION=n kernels: SLUB_PIN_SLOWPATH above).
 */
static void *
__slab_alloc(struct kmem_cache *s, gfp_t gfp, int node, unsigned long addr,
	     struct kmem_cache_cpu *c)
{
	void *p;

	/* c was read before pinning and may belong to another CPU. */
	if (SLUB_PIN_SLOWPATH)
		c = slub_get_cpu_ptr(s->cpu_slab);
	p = ___slab_alloc(s, gfp, node, addr, c);
	if (SLUB_PIN_SLOWPATH)
		slub_put_cpu_ptr(s->cpu_slab);
	return p;
}

/*
 * __slab_alloc() and the post-allocation hook, out of line: the fast path
 * below reaches them by a tail call, so it needs no callee-saved register
 * beyond the %rbx its cmpxchg16b takes, and reads the caller's address
 * (slab_caller_ip()) only on the way here.
 */
static noinline __maybe_unused void *
slab_alloc_node_slow(struct kmem_cache *s, gfp_t gfp, int node,
		     unsigned long addr, struct kmem_cache_cpu *c)
{
	void *object = __slab_alloc(s, gfp, node, addr, c);

	slab_post_alloc_hook(s, gfp, 1, &object,
			     slab_want_init_on_alloc(gfp, s));
	return object;
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
	if (SLUB_RT_LOCKED_FASTPATHS ||
	    unlikely(!object || !page ||
		     !node_match(page, node))) {
		if (!SLUB_RT_LOCKED_FASTPATHS)
			return slab_alloc_node_slow(s, gfp, node,
						    slab_caller_ip(addr), c);
		object = __slab_alloc(s, gfp, node, slab_caller_ip(addr), c);
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
		return slab_post_alloc_hook_one(s, gfp, object,
						slab_want_init_on_alloc(gfp, s));
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


/* ---------------------------------------------------------------- free */

#include "slub_slab_free.h"

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
#if !SLUB_RT_LOCKED_FASTPATHS
		void **freelist = READ_ONCE(c->freelist);

		set_freepointer(s, last, freelist);
		slub_window(s, SLUB_WIN_FREE_FAST);

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
		__slab_free(s, page, head, last, cnt, slab_caller_ip(addr));
	}
}



/* A kmalloc() above KMALLOC_MAX_CACHE_SIZE: a compound page. */


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
	slub_probe(s, SLUB_PROBE_BULK_ALLOC);

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
	 * pin is ours to drop (CONFIG_SLUB_BUG_BULK_UNLOCK re-injects the
	 * series' unlock).
	 */
#ifdef CONFIG_SLUB_BUG_BULK_UNLOCK
	/* The series' version: releases a lock it no longer holds. */
	local_unlock_irq(&s->cpu_slab->lock);
#endif
	slub_put_cpu_ptr(s->cpu_slab);
	slab_post_alloc_hook(s, gfp, i, p, false);
	if (i)
		kmem_cache_free_bulk(s, i, p);
	return 0;
}

/*
 * The entry points (kmem_cache_alloc, kmalloc, kfree, bulk free) are the
 * same text in both ports and are compiled here so that the fast paths
 * above inline into them, as in Linux.
 */
#include "slub_entry.h"
