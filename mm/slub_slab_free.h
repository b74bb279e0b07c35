/* SPDX-License-Identifier: GPL-2.0 */
/*
 * __slab_free(): the same in Linux 5.13 and 5.15, so written once and
 * compiled into each port (mm/slub.c, mm/slub_legacy.c) at the place the
 * port's free fast path needs it, where it can use the port's own
 * cmpxchg_double_slab() and put_cpu_partial().  Not a header for anyone
 * else.
 */

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

	slub_probe(s, SLUB_PROBE_SLAB_FREE);
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
