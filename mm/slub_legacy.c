// SPDX-License-Identifier: GPL-2.0
/*
 * SLUB before "reduce irq disabled scope and make it RT compatible"
 * (Linux 5.13 semantics; 5.13-rt's variant on PREEMPT_RT): irqlab's port,
 * built instead of mm/slub.c when CONFIG_SLUB_LEGACY is set.  Function
 * names, fields and the places where interrupts are disabled follow
 * 5.13 so that the file can be held against Linux's mm/slub.c of that
 * time.  What both ports share lives in mm/slub_cache.c, mm/slub.h and
 * mm/slub_entry.h.
 *
 * The pre-series rules, as opposed to mm/slub.c:
 *
 *   - the fast paths are the same lockless cmpxchg16b on (freelist, tid),
 *     but they re-read tid until it matches the CPU whose kmem_cache_cpu
 *     they hold (5.13's loop), and there is no RT special case;
 *   - the whole slow path runs with interrupts disabled: __slab_alloc()
 *     wraps ___slab_alloc() in local_irq_save(), and kmem_cache_alloc_bulk
 *     keeps them off for its whole loop.  There is no local lock;
 *   - allocate_slab() turns interrupts back on only for gfp that may
 *     block, so GFP_ATOMIC slabs are allocated, set up and constructed
 *     IRQ-off;
 *   - deactivate_slab(), unfreeze_partials() and the put_cpu_partial()
 *     drain walk their lists and hand empty slabs back to the page
 *     allocator IRQ-off, and list_lock is taken without _irqsave there
 *     because the caller already disabled interrupts;
 *   - flush_all() sends IPIs: the flush runs in hard-IRQ context.
 *
 * PREEMPT_RT (5.13-rt, the seeds' "tip-rt"): list_lock is a raw spinlock
 * (mm/Kconfig selects SLUB_RAW_LIST_LOCK), there are no CPU partial lists
 * (SLUB_CPU_PARTIAL cannot be set), the page allocator is entered with
 * interrupts on, empty slabs are freed after the IRQ-off section that
 * found them, and flush_all() uses per-CPU work items.  Each of these
 * spots names the RT patch it stands for.
 *
 * Lock order: slab_mutex -> n->list_lock -> slab_lock.
 */
#include <linux/slab.h>
#include <linux/slub_def.h>
#include <linux/mm.h>
#include <linux/gfp.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/irqflags.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/smp.h>
#include <linux/workqueue.h>
#include <linux/printk.h>
#include <linux/bug.h>
#include <linux/kernel.h>
#include <asm/processor.h>
#include "slab.h"
#include "slub.h"

/* ------------------------------------------------- delayed slab frees */

/*
 * 5.13-rt, "slub: move discard_slab() calls out of IRQ-off sections":
 * on PREEMPT_RT an empty slab found inside an IRQ-off section is put on
 * the caller's @to_free list (its slab_list is free once it is on no
 * node list) and handed back to the page allocator by
 * discard_deferred() after interrupts are enabled again.  Without RT the
 * slab is discarded at once, IRQ-off, as in mainline 5.13; the lists
 * then stay empty.
 */
static void
discard_or_defer(struct kmem_cache *s, struct page *page,
		 struct list_head *to_free)
{
	if (IS_ENABLED(CONFIG_PREEMPT_RT) && to_free) {
		list_add_tail(&page->slab_list, to_free);
		return;
	}
	discard_slab(s, page);
}

static void
discard_deferred(struct kmem_cache *s, struct list_head *to_free)
{
	struct page *page, *next_page;

	list_for_each_entry_safe(page, next_page, to_free, slab_list) {
		list_del(&page->slab_list);
		discard_slab(s, page);
	}
}

/* ------------------------------------------------ page freelist swaps */

/*
 * page->freelist and page->counters change together or not at all: one
 * lock cmpxchg16b, or for debug caches the same compare and store under
 * slab_lock.  false (counted) means the slab changed since the caller
 * read it, and the caller reads again.  @n names the caller; it is kept
 * for Linux's debug print only.
 *
 * Pre-series, every slow-path caller runs with interrupts disabled, so
 * __cmpxchg_double_slab takes the bit lock as it is, on RT too (5.13-rt
 * kept these sections IRQ-off).
 */
static inline bool __cmpxchg_double_slab(struct kmem_cache *s,
					 struct page *page,
					 void *freelist_old,
					 unsigned long counters_old,
					 void *freelist_new,
					 unsigned long counters_new,
					 const char *n)
{
	bool updated;

	lockdep_assert_irqs_disabled();

	if (s->flags & __CMPXCHG_DOUBLE) {
		updated = cmpxchg_double(&page->freelist, &page->counters,
					 freelist_old, counters_old,
					 freelist_new, counters_new);
	} else {
		__slab_lock(page);
		updated = slab_update_locked(page, freelist_old, counters_old,
					     freelist_new, counters_new);
		__slab_unlock(page);
	}

	if (unlikely(!updated))
		slab_update_lost(s);
	return updated;
}

/*
 * For __slab_free, which runs with interrupts on: the bit lock is taken
 * with them off, or an interrupt freeing into the same slab would spin
 * on a lock its own CPU holds.
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

/* slab_free_hook(), slab_free_freelist_hook(): mm/slub_entry.h. */

/* ----------------------------------------------- slab pages in and out */

/*
 * A new slab with all its objects chained on page->freelist, frozen for
 * the caller.  Called from the IRQ-off slow path: interrupts are turned
 * on for the page allocator only when the gfp allows blocking, so a
 * GFP_ATOMIC slab is allocated, set up and constructed with interrupts
 * off, and they are off again when this returns.
 */
static struct page *
allocate_slab(struct kmem_cache *s, gfp_t gfp, int node)
{
	struct kmem_cache_order_objects oo = s->oo;
	bool irqs_on = gfpflags_allow_blocking(gfp);
	struct page *page;
	gfp_t alloc_gfp;

	/*
	 * 5.13-rt, "slub: enable interrupts for the page allocator on RT":
	 * its locks sleep there, so interrupts go back on for every gfp once
	 * the system is scheduling (early boot allocations stay as they are).
	 */
	if (IS_ENABLED(CONFIG_PREEMPT_RT) && system_state > SYSTEM_BOOTING)
		irqs_on = true;

	if (irqs_on)
		local_irq_enable();

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
			goto out;
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
out:
	if (irqs_on)
		local_irq_disable();
	if (!page)
		return NULL;

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
 * A partial slab from node @n becomes the CPU slab (c->page), and more go
 * to c->partial until half of cpu_partial objects are gathered.  The
 * caller has interrupts disabled, so list_lock is taken plainly.
 */
static void *
get_partial_node(struct kmem_cache *s, struct kmem_cache_node *n,
		 struct kmem_cache_cpu *c, gfp_t gfp)
{
	struct page *page, *next_page;
	unsigned int available = 0;
	void *object = NULL;
	int nr_free;

	/* Unlocked peek: a wrong answer only costs a new slab or a retry. */
	if (!n || !n->nr_partial)
		return NULL;

	list_lock(&n->list_lock);
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
			c->page = page;
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
	list_unlock(&n->list_lock);
	return object;
}

/* Other nodes' partial lists, in node order (see mm/slub.c). */
static void *get_any_partial(struct kmem_cache *s, gfp_t gfp,
			     struct kmem_cache_cpu *c)
{
	int node, here = numa_node_id();

	for_each_online_node(node) {
		struct kmem_cache_node *n = get_node(s, node);
		void *object;

		if (node == here || !n || n->nr_partial <= s->min_partial)
			continue;
		object = get_partial_node(s, n, c, gfp);
		if (object)
			return object;
	}
	return NULL;
}

static void *get_partial(struct kmem_cache *s, gfp_t gfp, int node,
			 struct kmem_cache_cpu *c)
{
	int searchnode = node;
	void *object;

	if (node == NUMA_NO_NODE)
		searchnode = numa_node_id();

	object = get_partial_node(s, get_node(s, searchnode), c, gfp);
	if (object || node != NUMA_NO_NODE)
		return object;

	return get_any_partial(s, gfp, c);
}

/* ------------------------------------------------------------- tids */

static inline void
note_cmpxchg_failure(const char *n, const struct kmem_cache *s,
		     unsigned long tid)
{
	stat(s, CMPXCHG_DOUBLE_CPU_FAIL);
}

/* No local lock before the series: only the tids to set. */
void
init_kmem_cache_cpus(struct kmem_cache *s)
{
	struct kmem_cache_cpu *c;
	int cpu;

	for_each_possible_cpu(cpu) {
		c = per_cpu_ptr(s->cpu_slab, cpu);
		c->tid = init_tid(cpu);
	}
}

/* ------------------------------------------------------- deactivation */

/*
 * Give back the CPU slab @page of @c: splice @freelist (the CPU's unused
 * objects) onto page->freelist, unfreeze the page and put it where it
 * now belongs (node partial list, full, or back to the page allocator),
 * then clear c->page and c->freelist.
 *
 * Pre-series the caller has interrupts disabled and c->page still set:
 * the freelist walk, list_lock and (on !RT) the page free are all inside
 * the caller's IRQ-off section.
 *
 * c->tid: mainline 5.13 leaves it to the callers (only flush_slab()
 * advanced it), so ___slab_alloc's node-mismatch and debug paths dropped
 * the CPU slab without a new tid.  That is the bug "mm/slub: add missing
 * TID updates on slab deactivation" fixed (its Fixes: tag goes back to
 * 2011, and its stable backports put the update here, where this port
 * has it).  CONFIG_SLUB_BUG_MISSING_TID leaves the tid alone again, i.e.
 * it restores plain 5.13 (deactivate_tid() in mm/slub.h).
 */
static void
deactivate_slab(struct kmem_cache *s, struct page *page, void *freelist,
		struct kmem_cache_cpu *c, struct list_head *to_free)
{
	enum slab_modes {
		M_NONE, M_PARTIAL, M_FULL, M_FREE
	};
	struct kmem_cache_node *n;
	enum slab_modes l = M_NONE, m = M_NONE;
	void *nextfree, *cursor, *last;
	int tail = DEACTIVATE_TO_HEAD;
	int lock = 0, free_delta = 0;
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
	 * list placement is made first, under list_lock when the slab goes
	 * onto a list, so that acquire_slab() never meets a frozen slab;
	 * if the cmpxchg loses against a remote free, decide again.
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
			list_lock(&n->list_lock);
		}
	} else {
		m = M_FULL;
		if (kmem_cache_debug_flags(s, SLAB_STORE_USER) &&
		    !lock) {
			/* validate walks n->full: it must not see us frozen */
			lock = 1;
			list_lock(&n->list_lock);
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
	if (!__cmpxchg_double_slab(s, page, old.freelist, old.counters,
				   new.freelist, new.counters,
				   "unfreezing slab"))
		goto redo;

	if (lock)
		list_unlock(&n->list_lock);

	if (m == M_PARTIAL) {
		stat(s, tail);
	} else if (m == M_FULL) {
		stat(s, DEACTIVATE_FULL);
	} else if (m == M_FREE) {
		stat(s, DEACTIVATE_EMPTY);
		discard_or_defer(s, page, to_free);
		stat(s, FREE_SLAB);
	}

	c->page = NULL;
	c->freelist = NULL;
	c->tid = deactivate_tid(c->tid);
}

#ifdef CONFIG_SLUB_CPU_PARTIAL
/*
 * Unfreeze all of @c's CPU partial slabs onto their nodes' partial lists,
 * one list_lock hold per run of same-node slabs; empty slabs beyond
 * min_partial are discarded after the last unlock.  The caller has
 * interrupts disabled on @c's CPU (or @c's CPU cannot run SLUB), and the
 * whole walk, discards included, stays inside that section.
 *
 * Never built on PREEMPT_RT: 5.13-rt has no CPU partial lists.
 */
static void
unfreeze_partials(struct kmem_cache *s, struct kmem_cache_cpu *c,
		  struct list_head *to_free)
{
	struct kmem_cache_node *n = NULL, *n2 = NULL;
	struct page *page, *discard_page = NULL;

	if (!slub_percpu_partial(c))
		return;

	slub_probe(s, SLUB_PROBE_UNFREEZE);
	while ((page = slub_percpu_partial(c))) {
		struct page new;
		struct page old;

		slub_set_percpu_partial(c, page);

		n2 = get_node(s, page_to_nid(page));
		if (n != n2) {
			if (n)
				list_unlock(&n->list_lock);
			n = n2;
			list_lock(&n->list_lock);
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
		list_unlock(&n->list_lock);

	while (discard_page) {
		page = discard_page;
		discard_page = discard_page->next;

		stat(s, DEACTIVATE_EMPTY);
		discard_or_defer(s, page, to_free);
		stat(s, FREE_SLAB);
	}
}

/*
 * Push a just-frozen @page (from __slab_free or get_partial_node) onto
 * c->partial without disabling interrupts: the head is replaced with a
 * this_cpu_cmpxchg, preemption is off only to stay on one CPU's list.
 * The head carries the running totals (pages, pobjects).  With @drain, a
 * list already above cpu_partial objects is first unfrozen to the node
 * lists in an IRQ-off section that also frees its empty slabs.
 */
static void put_cpu_partial(struct kmem_cache *s, struct page *page,
			    int drain)
{
	struct page *prev_head;
	unsigned long irqflags;
	int nr_pages;
	int nr_objs;

	preempt_disable();
	do {
		nr_pages = 0;
		nr_objs = 0;
		prev_head = this_cpu_read(s->cpu_slab->partial);

		if (prev_head) {
			nr_objs = prev_head->pobjects;
			nr_pages = prev_head->pages;
			if (drain && nr_objs > slub_cpu_partial(s)) {
				/* Full: move the whole list to the nodes. */
				local_irq_save(irqflags);
				unfreeze_partials(s, this_cpu_ptr(s->cpu_slab),
						  NULL);
				local_irq_restore(irqflags);
				prev_head = NULL;
				nr_objs = 0;
				nr_pages = 0;
				stat(s, CPU_PARTIAL_DRAIN);
			}
		}

		nr_pages++;
		nr_objs += page->objects - page->inuse;

		page->pages = nr_pages;
		page->pobjects = nr_objs;
		page->next = prev_head;
	} while (this_cpu_cmpxchg(s->cpu_slab->partial, prev_head,
				  page) != prev_head);
	slub_probe(s, SLUB_PROBE_PARTIAL_PUSH);

	/* cpu_partial 0: nothing may stay on the CPU. */
	if (unlikely(!slub_cpu_partial(s))) {
		local_irq_save(irqflags);
		unfreeze_partials(s, this_cpu_ptr(s->cpu_slab), NULL);
		local_irq_restore(irqflags);
	}
	preempt_enable();
}
#else
static inline void
unfreeze_partials(struct kmem_cache *s, struct kmem_cache_cpu *c,
		  struct list_head *to_free) { }
#endif /* CONFIG_SLUB_CPU_PARTIAL */

/* ----------------------------------------------------------- flushing */

/* Retire @c's CPU slab; interrupts are off. */
static inline void
flush_slab(struct kmem_cache *s, struct kmem_cache_cpu *c,
	   struct list_head *to_free)
{
	stat(s, CPUSLAB_FLUSH);
	deactivate_slab(s, c->page, c->freelist, c, to_free);

	/* 5.13's own tid update (always there, whatever deactivate did). */
	c->tid = next_tid(c->tid);
}

/*
 * @cpu's CPU slab and CPU partial slabs back to the node lists: @cpu is
 * this CPU (IPI handler or, on RT, its flush work item), or a CPU that
 * cannot be running SLUB (bootstrap).  5.13 expected its callers to
 * disable interrupts; here the function does it itself, which nests
 * harmlessly inside the IPI handler.  On RT, empty slabs are freed after
 * the section (5.13-rt, "slub: move discard_slab() calls out of IRQ-off
 * sections").
 */
static void
flush_cpu_slab_irqoff(struct kmem_cache *s, int cpu, struct list_head *to_free)
{
	struct kmem_cache_cpu *c;

	lockdep_assert_irqs_disabled();
	c = per_cpu_ptr(s->cpu_slab, cpu);
	if (c->page)
		flush_slab(s, c, to_free);
	unfreeze_partials(s, c, to_free);
}

void __flush_cpu_slab(struct kmem_cache *s, int cpu)
{
	unsigned long irqflags;
	LIST_HEAD(to_free);

	local_irq_save(irqflags);
	flush_cpu_slab_irqoff(s, cpu, &to_free);
	local_irq_restore(irqflags);

	discard_deferred(s, &to_free);
}

static bool
has_cpu_slab(int cpu, void *info)
{
	struct kmem_cache *s = info;
	struct kmem_cache_cpu *c;

	c = per_cpu_ptr(s->cpu_slab, cpu);
	return c->page || slub_percpu_partial(c);
}

#ifndef CONFIG_PREEMPT_RT
/*
 * The IPI handler: hard-IRQ context on the other CPUs; on the calling
 * CPU on_each_cpu_cond() runs it directly with interrupts disabled.
 */
static void
flush_cpu_slab(void *info)
{
	struct kmem_cache *s = info;

	slub_probe(s, SLUB_PROBE_FLUSH);
	__flush_cpu_slab(s, smp_processor_id());
}

/*
 * Every CPU that has a CPU slab or partials flushes, by IPI; wait.  No
 * hotplug lock: on_each_cpu_cond() disables preemption, which holds off
 * stop_machine() and so the take-down of any CPU.
 */
void flush_all(struct kmem_cache *s)
{
	on_each_cpu_cond(has_cpu_slab, flush_cpu_slab, s,
			 true);
}

/* 5.13 has a single form; this name serves the shared shutdown path. */
void flush_all_cpus_locked(struct kmem_cache *s)
{
	flush_all(s);
}
#else
/*
 * 5.13-rt, "slub: move flush_cpu_slab() and __free_slab() calls out of
 * IRQ context": on PREEMPT_RT the page allocator cannot be entered from
 * an IPI, so each CPU flushes in a work item queued on it (a bound
 * worker: thread context, pinned to the CPU).  The flush itself is still
 * an IRQ-off section; the page frees come after it.
 */
#include "slub_flush.h"

static void
flush_cpu_slab(struct work_struct *item)
{
	struct slub_flush_work *sfw;

	sfw = container_of(item, struct slub_flush_work, work);
	slub_probe(sfw->s, SLUB_PROBE_FLUSH);
	__flush_cpu_slab(sfw->s, raw_smp_processor_id());
}

void flush_all(struct kmem_cache *s)
{
	flush_all_cpus_locked(s);
}
#endif /* CONFIG_PREEMPT_RT */

/*
 * CPUHP_SLUB_DEAD teardown, on the control CPU once @cpu has stopped.
 * 5.13 disables interrupts around each cache's flush (its
 * __flush_cpu_slab() expects to be called so); on RT the empty slabs
 * found are freed after the section, as everywhere in this port.
 */
int slub_cpu_dead(unsigned int cpu)
{
	struct kmem_cache *s;
	unsigned long flags;

	mutex_lock(&slab_mutex);
	list_for_each_entry(s, &slab_caches, list) {
		LIST_HEAD(to_free);

		local_irq_save(flags);
		slub_probe(s, SLUB_PROBE_CPU_DEAD);
		flush_cpu_slab_irqoff(s, cpu, &to_free);
		local_irq_restore(flags);
		discard_deferred(s, &to_free);
	}
	mutex_unlock(&slab_mutex);
	return 0;
}

/* ---------------------------------------------------------- slow path */

static inline int
node_match(struct page *page, int node)
{
	if (node != NUMA_NO_NODE &&
	    page_to_nid(page) != node)
		return 0;
	return 1;
}

/*
 * A node partial slab, or a new one from the page allocator, becomes the
 * CPU slab; returns its freelist.  new_slab() may have turned interrupts
 * on (blocking gfp, or RT), so the task may be on another CPU now: @pc
 * is reloaded, and a CPU slab that appeared meanwhile is flushed.
 */
static inline void *
new_slab_objects(struct kmem_cache *s, gfp_t gfp, int node,
		 struct kmem_cache_cpu **pc, struct list_head *to_free)
{
	struct kmem_cache_cpu *c = *pc;
	struct page *page;
	void *freelist;

	freelist = get_partial(s, gfp, node, c);
	if (freelist)
		return freelist;

	page = new_slab(s, gfp, node);
	if (!page)
		return NULL;

	c = raw_cpu_ptr(s->cpu_slab);
	if (c->page)
		flush_slab(s, c, to_free);

	/* Nobody else knows the page yet: no cmpxchg needed. */
	freelist = page->freelist;
	page->freelist = NULL;

	stat(s, ALLOC_SLAB);
	c->page = page;
	*pc = c;
	return freelist;
}

/*
 * Take page->freelist (remote frees) as the new CPU freelist.  If it is
 * empty the page is unfrozen in the same cmpxchg (it is full and goes on
 * no list) and NULL tells the caller to find another slab.  Interrupts
 * are off (asserted by __cmpxchg_double_slab).
 */
static inline void *
get_freelist(struct kmem_cache *s, struct page *page)
{
	unsigned long counters;
	struct page new;
	void *freelist;

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
 * The slow path, with interrupts disabled from start to end (except
 * inside allocate_slab()): c->freelist is empty, or the CPU slab is on
 * the wrong node, or this is a debug cache.  In order of cost: the CPU
 * slab's remote frees (get_freelist), a CPU partial slab, a node partial
 * slab, a new slab.  Slabs emptied on the way go on @to_free on RT.
 */
static void *
___slab_alloc(struct kmem_cache *s, gfp_t gfp, int node, unsigned long addr,
	      struct kmem_cache_cpu *c, struct list_head *to_free)
{
	struct page *page;
	void *freelist;

	slub_probe(s, SLUB_PROBE_SLOWPATH);
	stat(s, ALLOC_SLOWPATH);

	page = c->page;
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
		}
		stat(s, ALLOC_NODE_MISMATCH);
		deactivate_slab(s, page, c->freelist, c, to_free);
		goto new_slab;
	}

	if (unlikely(!pfmemalloc_match(page, gfp))) {
		deactivate_slab(s, page, c->freelist, c, to_free);
		goto new_slab;
	}

	/* An interrupt before ours was disabled may have refilled it. */
	freelist = c->freelist;
	if (freelist)
		goto load_freelist;

	freelist = get_freelist(s, page);

	if (!freelist) {
		/* Full and already unfrozen by get_freelist(): just drop it. */
		c->page = NULL;
		c->tid = deactivate_tid(c->tid);
		stat(s, DEACTIVATE_BYPASS);
		goto new_slab;
	}

	stat(s, ALLOC_REFILL);

load_freelist:
	/* freelist belongs to c->page, which must be frozen (ours). */
	VM_BUG_ON(!c->page->frozen);
	c->freelist = get_freepointer(s, freelist);
	c->tid = next_tid(c->tid);
	slub_probe(s, SLUB_PROBE_LOAD_FREELIST);
	return freelist;

new_slab:
	if (slub_percpu_partial(c)) {
		page = c->page = slub_percpu_partial(c);
		slub_set_percpu_partial(c, page);
		stat(s, CPU_PARTIAL_ALLOC);
		goto redo;
	}

	freelist = new_slab_objects(s, gfp, node, &c, to_free);
	if (unlikely(!freelist)) {
		slab_out_of_memory(s, gfp, node);
		return NULL;
	}

	page = c->page;
	if (likely(!kmem_cache_debug(s) && pfmemalloc_match(page, gfp)))
		goto load_freelist;

	/* Debug caches never load c->freelist: one object per slow path. */
	if (kmem_cache_debug(s) &&
	    !alloc_debug_processing(s, page, freelist,
				    addr))
		goto new_slab;	/* the slab failed its checks */

	deactivate_slab(s, page, get_freepointer(s, freelist), c, to_free);
	return freelist;
}

/*
 * The slow path as one IRQ-off section.  Under CONFIG_PREEMPTION the task
 * may have moved since the fast path read @c, so it is looked up again.
 * On RT the slabs the section emptied are freed after it.  Kept out of
 * line, as gcc builds it in Linux: the IRQ-off section then opens in a
 * function of Linux's name, whatever slab_alloc_node_slow() inlines.
 */
static noinline void *
__slab_alloc(struct kmem_cache *s, gfp_t gfp, int node, unsigned long addr,
	     struct kmem_cache_cpu *c)
{
	unsigned long irqflags;
	LIST_HEAD(to_free);
	void *p;

	local_irq_save(irqflags);
#ifdef CONFIG_PREEMPTION
	c = this_cpu_ptr(s->cpu_slab);
#endif
	p = ___slab_alloc(s, gfp, node, addr, c, &to_free);
	local_irq_restore(irqflags);

	discard_deferred(s, &to_free);
	return p;
}

/*
 * __slab_alloc() and the post-allocation hook, out of line: the fast path
 * below reaches them by a tail call, so it needs no callee-saved register
 * beyond the %rbx its cmpxchg16b takes, and reads the caller's address
 * (slab_caller_ip()) only on the way here.
 */
static noinline void *
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
 * 5.13 reads tid through this_cpu_read() and c through raw_cpu_ptr() and
 * repeats until both came from the same CPU (with preemption the task may
 * move between the two reads).  tid is read before freelist and page
 * (barrier()), so a pair taken across another operation on this CPU
 * carries an old tid and the cmpxchg fails.
 */
static __always_inline void *
slab_alloc_node(struct kmem_cache *s, gfp_t gfp, int node, unsigned long addr,
		size_t orig_size)
{
	struct kmem_cache_cpu *c;
	unsigned long tid;
	struct page *page;
	void *object, *next;

	s = slab_pre_alloc_hook(s, gfp);
	if (!s)
		return NULL;
redo:
	do {
		tid = this_cpu_read(s->cpu_slab->tid);
		c = raw_cpu_ptr(s->cpu_slab);
	} while (IS_ENABLED(CONFIG_PREEMPTION) &&
		 unlikely(tid != READ_ONCE(c->tid)));
	barrier();

	object = c->freelist;
	page = c->page;
	if (unlikely(!object || !page ||
		     !node_match(page, node)))
		return slab_alloc_node_slow(s, gfp, node,
					    slab_caller_ip(addr), c);

	next = get_freepointer_safe(s, object);
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

static __always_inline void *slab_alloc(struct kmem_cache *s, gfp_t gfp,
					unsigned long addr, size_t orig_size)
{
	return slab_alloc_node(s, gfp, NUMA_NO_NODE, addr, orig_size);
}

/* ---------------------------------------------------------------- free */

#include "slub_slab_free.h"

/*
 * The free fast path: objects of this CPU's slab go back on c->freelist
 * with one cmpxchg16b on (freelist, tid), with 5.13's same-CPU tid loop.
 * @head..@tail is a chain of @cnt objects (bulk free), or @tail is NULL.
 */
static __always_inline void
do_slab_free(struct kmem_cache *s, struct page *page, void *head, void *tail,
	     int cnt, unsigned long addr)
{
	void *last = tail ? : head;
	struct kmem_cache_cpu *c;
	unsigned long tid;
redo:
	do {
		tid = this_cpu_read(s->cpu_slab->tid);
		c = raw_cpu_ptr(s->cpu_slab);
	} while (IS_ENABLED(CONFIG_PREEMPTION) &&
		 unlikely(tid != READ_ONCE(c->tid)));
	barrier();

	if (likely(page == c->page)) {
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
		stat(s, FREE_FASTPATH);
	} else {
		__slab_free(s, page, head, last, cnt, slab_caller_ip(addr));
	}
}


/*
 * All @size objects or none, with interrupts disabled for the whole
 * loop, slow paths included (___slab_alloc is entered IRQ-off; only
 * allocate_slab() may turn them on for a while, so c is looked up again
 * after it).  On RT the slabs emptied on the way are freed at the end.
 */
int
kmem_cache_alloc_bulk(struct kmem_cache *s, gfp_t gfp, size_t size, void **p)
{
	struct kmem_cache_cpu *c;
	LIST_HEAD(to_free);
	size_t i;

	s = slab_pre_alloc_hook(s, gfp);
	if (unlikely(!s))
		return 0;

	local_irq_disable();
	c = this_cpu_ptr(s->cpu_slab);
	slub_probe(s, SLUB_PROBE_BULK_ALLOC);

	for (i = 0; i < size; i++) {
		void *object = c->freelist;

		if (unlikely(!object)) {
			/*
			 * Objects taken off c->freelist above did not move
			 * the tid yet, and ___slab_alloc() may enable
			 * interrupts: let racing fast paths fail now.
			 */
			c->tid = next_tid(c->tid);

			p[i] = ___slab_alloc(s, gfp, NUMA_NO_NODE,
					     _RET_IP_, c, &to_free);
			if (unlikely(!p[i]))
				goto error;

			c = this_cpu_ptr(s->cpu_slab);
			continue;
		}
		c->freelist = get_freepointer(s, object);
		p[i] = object;
	}
	c->tid = next_tid(c->tid);
	local_irq_enable();
	discard_deferred(s, &to_free);

	slab_post_alloc_hook(s, gfp, size, p,
			     slab_want_init_on_alloc(gfp, s));
	return i;
error:
	/* ___slab_alloc() returned IRQ-off, as it was entered. */
	local_irq_enable();
	discard_deferred(s, &to_free);
	slab_post_alloc_hook(s, gfp, i, p, false);
	if (i)
		kmem_cache_free_bulk(s, i, p);
	return 0;
}

/*
 * The entry points (kmem_cache_alloc, kmalloc, kfree, bulk free) are the
 * same text in both ports; compiled here so that the fast paths above
 * inline into them, as in Linux.
 */
#include "slub_entry.h"
