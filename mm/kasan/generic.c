// SPDX-License-Identifier: GPL-2.0
/*
 * The generic mode's slab parts (Linux 5.15's mm/kasan/generic.c): the
 * free track, the auxiliary call_rcu() stacks, and handing the quarantine
 * back when a cache shrinks or goes away.
 */
#include <linux/kernel.h>
#include <linux/kasan.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "kasan.h"
#include "../slab.h"

/* kmem_cache_shrink(): objects in quarantine hold slabs that could go. */
void kasan_cache_shrink(struct kmem_cache *cache)
{
	kasan_quarantine_remove_cache(cache);
}

/* kmem_cache_destroy(): quarantined objects still count as allocated. */
void kasan_cache_shutdown(struct kmem_cache *cache)
{
	if (!__kmem_cache_empty(cache))
		kasan_quarantine_remove_cache(cache);
}

/*
 * call_rcu() and kvfree_call_rcu() on an object: its later free runs from
 * the RCU callback, whose stack says nothing about who queued it, so the
 * queueing stack is kept too (the two most recent ones).
 */
void kasan_record_aux_stack(void *addr)
{
	struct page *page = kasan_addr_to_page(addr);
	struct kasan_alloc_meta *alloc_meta;
	struct kmem_cache *cache;
	void *object;

	if (!page || !PageSlab(page))
		return;

	cache = page->slab_cache;
	object = nearest_obj(cache, page, addr);
	alloc_meta = kasan_get_alloc_meta(cache, object);
	if (!alloc_meta)
		return;

	alloc_meta->aux_stack[1] = alloc_meta->aux_stack[0];
	alloc_meta->aux_stack[0] = kasan_save_stack(GFP_NOWAIT);
}

/*
 * The free track sits in the freed object (or after it); the first shadow
 * byte says it is valid until the object leaves the quarantine and SLUB
 * may write its free pointer over it.
 */
void kasan_set_free_info(struct kmem_cache *cache, void *object, u8 tag)
{
	struct kasan_free_meta *free_meta;

	free_meta = kasan_get_free_meta(cache, object);
	if (!free_meta)
		return;

	kasan_set_track(&free_meta->free_track, GFP_NOWAIT);
	*(u8 *)kasan_mem_to_shadow(object) = KASAN_KMALLOC_FREETRACK;
}

struct kasan_track *kasan_get_free_track(struct kmem_cache *cache,
					 void *object, u8 tag)
{
	if (*(u8 *)kasan_mem_to_shadow(object) != KASAN_KMALLOC_FREETRACK)
		return NULL;
	return &kasan_get_free_meta(cache, object)->free_track;
}
