/* SPDX-License-Identifier: GPL-2.0 */
/*
 * acquire_slab() and pfmemalloc_match(): the same in Linux 5.13 and 5.15,
 * written once and compiled into each port (mm/slub.c, mm/slub_legacy.c)
 * ahead of its get_partial_node(), where they can use the port's own
 * __cmpxchg_double_slab() and put_cpu_partial().  Not a header for anyone
 * else.
 */

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
