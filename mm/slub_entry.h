/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SLUB's entry points, identical in both ports: included at the end of
 * mm/slub.c and mm/slub_legacy.c, after the port's inline fast paths
 * (slab_alloc_node, slab_alloc, do_slab_free), which inline into them.
 * Not a header for anyone else.
 */

/* ------------------------------------------------------------ free hooks */

#ifdef CONFIG_KASAN
/*
 * Each object on its way back: true means KASAN keeps it (in its
 * quarantine, or because the free was reported as invalid or double).
 */
static __always_inline bool slab_free_hook(struct kmem_cache *s, void *x,
					   bool init)
{
	/*
	 * Zeroing on free (init) and KASAN's poisoning go together; irqlab
	 * has no init_on_free, so init is always false here.
	 */
	if (init) {
		int rsize = (s->flags & SLAB_RED_ZONE) ? s->red_left_pad : 0;

		memset(x, 0, s->object_size);
		memset((char *)x + s->inuse, 0, s->size - s->inuse - rsize);
	}
	return kasan_slab_free(s, x, init);
}

/*
 * Run slab_free_hook() on every object of the chain head..tail (cnt
 * objects) and rebuild the chain from those SLUB may free now, in
 * reverse order.  False: nothing is left to free.
 */
static __always_inline bool slab_free_freelist_hook(struct kmem_cache *s,
						    void **head, void **tail,
						    int *cnt)
{
	void *next = *head;
	void *old_tail = *tail ? *tail : *head;
	void *object;

	*head = NULL;
	*tail = NULL;

	do {
		object = next;
		/* Read first: the hook may write the free track over it. */
		next = get_freepointer(s, object);

		if (!slab_free_hook(s, object, false)) {
			set_freepointer(s, object, *head);
			*head = object;
			if (!*tail)
				*tail = object;
		} else {
			--(*cnt);
		}
	} while (object != old_tail);

	/* A single object is passed as head with no tail. */
	if (*head == *tail)
		*tail = NULL;

	return *head != NULL;
}

/* The quarantine's way back into SLUB (mm/kasan/quarantine.c). */
void ___cache_free(struct kmem_cache *s, void *object, unsigned long caller)
{
	do_slab_free(s, virt_to_head_page(object), object, NULL, 1, caller);
}
#else
/*
 * Nothing to do on free without KASAN (irqlab has no kmemleak,
 * debug_objects or init_on_free): the chain goes to SLUB as it is.
 */
static __always_inline bool slab_free_freelist_hook(struct kmem_cache *s,
						    void **head, void **tail,
						    int *cnt)
{
	return *head != NULL;
}
#endif

/* The free hooks, then the port's free fast path. */
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
	return slab_alloc(s, gfp, SLAB_RET_IP, s->object_size);
}

void *kmem_cache_alloc_trace(struct kmem_cache *s, gfp_t gfp,
			     size_t size)
{
	void *ret = slab_alloc(s, gfp, SLAB_RET_IP, size);

	return kasan_kmalloc(s, ret, size, gfp);
}

void *
kmem_cache_alloc_node(struct kmem_cache *s, gfp_t gfp, int node)
{
	return slab_alloc_node(s, gfp, node, SLAB_RET_IP, s->object_size);
}

void *kmem_cache_alloc_node_trace(struct kmem_cache *s, gfp_t gfp,
				  int node, size_t size)
{
	void *ret = slab_alloc_node(s, gfp, node, SLAB_RET_IP, size);

	return kasan_kmalloc(s, ret, size, gfp);
}

void
kmem_cache_free(struct kmem_cache *s, void *obj)
{
	s = cache_from_obj(s, obj);
	if (!s)
		return;
	slab_free(s, virt_to_head_page(obj), obj, NULL, 1, SLAB_RET_IP);
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
	/* kfree_hook(): KASAN checks the pointer; the page hook poisons. */
	kasan_kfree_large(object);
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
 * kmem_cache_free_bulk() hands SLUB one chain per slab instead of one
 * object at a time: build_detached_freelist() takes the last object left
 * in @p, chains to it the other objects of the same slab that it finds
 * walking @p downwards, and clears every slot it used.  Each object found
 * is pushed in front, so the object met first stays the tail and the one
 * met last is the head: slab_free() takes (head, tail, count).
 *
 * The walk is not exhaustive.  It gives up at the DF_LOOKAHEAD-th object
 * belonging to another slab.  Objects of other slabs stay in @p for later
 * calls, and the return value is where the next call starts: the length
 * of @p up to and including the first object skipped.  0: @p is done.
 */
#define DF_LOOKAHEAD	3

/* A new chain holding only @object, the first of @page's objects met. */
static inline void df_start(struct detached_freelist *df,
			    struct kmem_cache *cache, struct page *page,
			    void *object)
{
	set_freepointer(cache, object, NULL);
	df->s = cache;
	df->page = page;
	df->freelist = object;
	df->tail = object;
	df->cnt = 1;
}

/* @object (of df->page) becomes the chain's new head. */
static inline void df_push(struct detached_freelist *df, void *object)
{
	set_freepointer(df->s, object, df->freelist);
	df->freelist = object;
	df->cnt++;
}

/*
 * Chain what belongs to df->page among p[0..@end), highest index first.
 * NULL slots were chained by an earlier call (or never held anything).
 */
static inline int df_collect(struct detached_freelist *df, void **p,
			     size_t end)
{
	int resume_at = 0;
	int foreign = 0;
	size_t i = end;

	while (i) {
		void *object = p[--i];

		if (!object)
			continue;
		if (virt_to_head_page(object) == df->page) {
			df_push(df, object);
			p[i] = NULL;
			continue;
		}
		if (++foreign == DF_LOOKAHEAD)
			break;
		if (!resume_at)
			resume_at = i + 1;
	}
	return resume_at;
}

static inline int build_detached_freelist(struct kmem_cache *s, size_t size,
					  void **p,
					  struct detached_freelist *df)
{
	struct kmem_cache *cache;
	struct page *page;
	void *object;

	df->page = NULL;

	/* The highest slot still holding an object starts the chain. */
	for (;;) {
		object = p[--size];
		if (object)
			break;
		if (!size)
			return 0;
	}

	page = virt_to_head_page(object);
	if (s) {
		cache = cache_from_obj(s, object);
	} else if (likely(PageSlab(page))) {
		/* kfree_bulk(): each object names its own cache. */
		cache = page->slab_cache;
	} else {
		/* kfree_bulk() of a kmalloc_large() buffer: no chain. */
		free_nonslab_page(page, object);
		p[size] = NULL;
		return size;
	}

	df_start(df, cache, page, object);
	p[size] = NULL;
	return df_collect(df, p, size);
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
	void *ret;

	if (unlikely(size > KMALLOC_MAX_CACHE_SIZE))
		return kmalloc_large(size, flags);

	s = kmalloc_slab(size, flags);
	if (unlikely(ZERO_OR_NULL_PTR(s)))
		return s;

	ret = slab_alloc(s, flags, SLAB_RET_IP, size);
	return kasan_kmalloc(s, ret, size, flags);
}

static void *kmalloc_large_node(size_t size, gfp_t gfp, int node)
{
	unsigned int order = get_order(size);
	struct page *page;

	gfp |= __GFP_COMP;
	page = alloc_pages_node(node, gfp, order);
	/* kmalloc_large_node_hook(): the pages' tail is red zone. */
	return kasan_kmalloc_large(page ? page_address(page) : NULL, size, gfp);
}

void *__kmalloc_node(size_t size, gfp_t gfp, int node)
{
	struct kmem_cache *s;
	void *ret;

	if (unlikely(size > KMALLOC_MAX_CACHE_SIZE))
		return kmalloc_large_node(size, gfp, node);

	s = kmalloc_slab(size, gfp);
	if (unlikely(ZERO_OR_NULL_PTR(s)))
		return s;

	ret = slab_alloc_node(s, gfp, node, SLAB_RET_IP, size);
	return kasan_kmalloc(s, ret, size, gfp);
}

void *__kmalloc_track_caller(size_t size, gfp_t flags, unsigned long caller)
{
	struct kmem_cache *s;
	void *ret;

	if (unlikely(size > KMALLOC_MAX_CACHE_SIZE))
		return kmalloc_large(size, flags);

	s = kmalloc_slab(size, flags);
	if (unlikely(ZERO_OR_NULL_PTR(s)))
		return s;

	ret = slab_alloc(s, flags, caller, size);
	return kasan_kmalloc(s, ret, size, flags);
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
		  SLAB_RET_IP);
}
