/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SLUB's entry points, identical in both ports: included at the end of
 * mm/slub.c and mm/slub_legacy.c, after the port's inline fast paths
 * (slab_alloc_node, slab_alloc, do_slab_free), which inline into them.
 * Not a header for anyone else.
 */

/* The free hooks (nothing to do without KASAN and friends), then the
 * port's free fast path. */
static __always_inline void
slab_free(struct kmem_cache *s, struct page *page, void *head, void *last,
	  int cnt, unsigned long addr)
{
	if (slab_free_freelist_hook(s, &head, &last, &cnt))
		do_slab_free(s, page, head, last, cnt, addr);
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

void
kmem_cache_free(struct kmem_cache *s, void *obj)
{
	s = cache_from_obj(s, obj);
	if (!s)
		return;
	slab_free(s, virt_to_head_page(obj), obj, NULL, 1, _RET_IP_);
}

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
