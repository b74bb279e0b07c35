// SPDX-License-Identifier: GPL-2.0
/*
 * KASAN's hooks for the allocators (Linux 5.15's mm/kasan/common.c, generic
 * mode).  The page allocator's pair is complete; the SLUB hooks here are
 * the minimum that keeps object memory correctly marked (accessible while
 * allocated, poisoned once freed) and are completed by the SLUB side:
 * red zones and metadata in kasan_cache_create(), the quarantine, and the
 * allocation and free stacks printed by kasan_print_slab_object().
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/slub_def.h>
#include "kasan.h"

/* ------------------------------------------------------------ pages */

void __kasan_poison_pages(struct page *page, unsigned int order, bool init)
{
	kasan_poison(page_address(page), PAGE_SIZE << order, KASAN_FREE_PAGE, init);
}

void __kasan_unpoison_pages(struct page *page, unsigned int order, bool init)
{
	kasan_unpoison(page_address(page), PAGE_SIZE << order, init);
}

/* ------------------------------------------------------------ slab */

slab_flags_t __kasan_never_merge(void)
{
	return 0;
}

void __kasan_cache_create(struct kmem_cache *cache, unsigned int *size,
			  slab_flags_t *flags)
{
}

void __kasan_cache_create_kmalloc(struct kmem_cache *cache)
{
}

size_t __kasan_metadata_size(struct kmem_cache *cache)
{
	return 0;
}

/* A new slab is all red zone until its objects are handed out. */
void __kasan_poison_slab(struct page *page)
{
	kasan_poison(page_address(page), page_size(page), KASAN_KMALLOC_REDZONE, false);
}

void __kasan_unpoison_object_data(struct kmem_cache *cache, void *object)
{
	kasan_unpoison(object, cache->object_size, false);
}

void __kasan_poison_object_data(struct kmem_cache *cache, void *object)
{
	kasan_poison(object, round_up(cache->object_size, KASAN_GRANULE_SIZE),
		     KASAN_KMALLOC_REDZONE, false);
}

void *__kasan_init_slab_obj(struct kmem_cache *cache, const void *object)
{
	return (void *)object;
}

bool __kasan_slab_free(struct kmem_cache *cache, void *object, unsigned long ip, bool init)
{
	/* A free of memory that is already poisoned is a double or bad free. */
	if (!kasan_byte_accessible(object)) {
		kasan_report_invalid_free(object, ip);
		return true;
	}
	kasan_poison(object, round_up(cache->object_size, KASAN_GRANULE_SIZE),
		     KASAN_KMALLOC_FREE, init);
	return false;
}

void __kasan_kfree_large(void *ptr, unsigned long ip)
{
	/* The pages are poisoned when free_pages_prepare() gives them back. */
	if (ptr != page_address(virt_to_head_page(ptr)))
		kasan_report_invalid_free(ptr, ip);
}

void __kasan_slab_free_mempool(void *ptr, unsigned long ip)
{
	struct page *page = virt_to_head_page(ptr);

	if (!PageSlab(page))
		__kasan_kfree_large(ptr, ip);
	else
		__kasan_slab_free(page->slab_cache, ptr, ip, false);
}

void *__kasan_slab_alloc(struct kmem_cache *cache, void *object, gfp_t flags, bool init)
{
	if (object)
		kasan_unpoison(object, cache->object_size, init);
	return object;
}

/* The bytes between the request and the object's end become red zone. */
void *__kasan_kmalloc(struct kmem_cache *cache, const void *object, size_t size,
		      gfp_t flags)
{
	unsigned long redzone_start, redzone_end;

	if (!object)
		return NULL;
	kasan_unpoison(object, size, false);
	redzone_start = round_up((unsigned long)object + size, KASAN_GRANULE_SIZE);
	redzone_end = round_up((unsigned long)object + cache->object_size, KASAN_GRANULE_SIZE);
	kasan_poison((void *)redzone_start, redzone_end - redzone_start,
		     KASAN_KMALLOC_REDZONE, false);
	return (void *)object;
}

void *__kasan_kmalloc_large(const void *ptr, size_t size, gfp_t flags)
{
	unsigned long redzone_start, redzone_end;

	if (!ptr)
		return NULL;
	redzone_start = round_up((unsigned long)ptr + size, KASAN_GRANULE_SIZE);
	redzone_end = (unsigned long)ptr + page_size(virt_to_page(ptr));
	kasan_unpoison(ptr, size, false);
	kasan_poison((void *)redzone_start, redzone_end - redzone_start,
		     KASAN_PAGE_REDZONE, false);
	return (void *)ptr;
}

void *__kasan_krealloc(const void *object, size_t size, gfp_t flags)
{
	struct page *page;

	if (!object)
		return NULL;
	page = virt_to_head_page(object);
	if (!PageSlab(page))
		return __kasan_kmalloc_large(object, size, flags);
	return __kasan_kmalloc(page->slab_cache, object, size, flags);
}

bool __kasan_check_byte(const void *addr, unsigned long ip)
{
	if (!kasan_byte_accessible(addr)) {
		kasan_report((unsigned long)addr, 1, false, ip);
		return false;
	}
	return true;
}

void kasan_cache_shrink(struct kmem_cache *cache)
{
}

void kasan_cache_shutdown(struct kmem_cache *cache)
{
}

void kasan_record_aux_stack(void *ptr)
{
}

/* The object part of a report; the SLUB side adds the alloc/free stacks. */
void kasan_print_slab_object(struct kmem_cache *cache, void *object, const void *addr)
{
	long off = (long)addr - (long)object;

	pr_err("The buggy address belongs to the object at %px\n"
	       " which belongs to the cache %s of size %u\n",
	       object, cache->name, cache->object_size);
	if (off < 0)
		pr_err("The buggy address is located %ld bytes to the left of\n", -off);
	else if (off >= cache->object_size)
		pr_err("The buggy address is located %ld bytes to the right of\n",
		       off - cache->object_size);
	else
		pr_err("The buggy address is located %ld bytes inside of\n", off);
	pr_err(" %u-byte region [%px, %px)\n", cache->object_size, object,
	       (char *)object + cache->object_size);
}
