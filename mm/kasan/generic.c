// SPDX-License-Identifier: GPL-2.0
/*
 * Generic KASAN's access checks: the functions the compiler calls for
 * every load and store of an instrumented file (outline mode), the
 * global variables' red zones, and the checking memcpy/memset/memmove.
 *
 * A shadow byte s for the 8-byte granule at g means: s == 0, all of g is
 * accessible; 0 < s < 8, only g[0..s-1]; s < 0, none of it.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include "kasan.h"
#include "../slab.h"

/*
 * True when any byte of [addr, addr + size) is not accessible.  Walks the
 * granules the access touches: a partial granule is fine only when the
 * access's last byte inside it is below the valid prefix.
 */
static __always_inline bool memory_is_poisoned(unsigned long addr, size_t size)
{
	unsigned long last = addr + size - 1;
	unsigned long g = addr & ~KASAN_GRANULE_MASK;

	for (; g <= last; g += KASAN_GRANULE_SIZE) {
		s8 shadow = *(s8 *)kasan_mem_to_shadow((void *)g);
		unsigned long end_in_granule;

		if (likely(!shadow))
			continue;
		if (shadow < 0)
			return true;
		end_in_granule = last - g < KASAN_GRANULE_SIZE ? last - g : KASAN_GRANULE_MASK;
		if (end_in_granule >= (unsigned long)shadow)
			return true;
	}
	return false;
}

/* The common check of every entry point below. */
static __always_inline bool check_region_inline(unsigned long addr, size_t size,
						bool write, unsigned long ret_ip)
{
	if (!kasan_arch_is_ready())
		return true;
	if (unlikely(size == 0))
		return true;
	if (unlikely(addr + size < addr))
		return !kasan_report(addr, size, write, ret_ip);
	if (unlikely(!addr_has_metadata((void *)addr)))
		return !kasan_report(addr, size, write, ret_ip);
	if (likely(!memory_is_poisoned(addr, size)))
		return true;
	return !kasan_report(addr, size, write, ret_ip);
}

bool kasan_check_range(unsigned long addr, size_t size, bool write,
		       unsigned long ret_ip)
{
	return check_region_inline(addr, size, write, ret_ip);
}

/*
 * The compiler's entry points.  The plain and _noabort forms are the
 * same in the kernel: a report never stops the access.
 */
#define DEFINE_ASAN_LOAD_STORE(size)					\
	void __asan_load##size(unsigned long addr)			\
	{								\
		check_region_inline(addr, size, false, _RET_IP_);	\
	}								\
	void __asan_load##size##_noabort(unsigned long addr)		\
	{								\
		check_region_inline(addr, size, false, _RET_IP_);	\
	}								\
	void __asan_store##size(unsigned long addr)			\
	{								\
		check_region_inline(addr, size, true, _RET_IP_);	\
	}								\
	void __asan_store##size##_noabort(unsigned long addr)		\
	{								\
		check_region_inline(addr, size, true, _RET_IP_);	\
	}

DEFINE_ASAN_LOAD_STORE(1)
DEFINE_ASAN_LOAD_STORE(2)
DEFINE_ASAN_LOAD_STORE(4)
DEFINE_ASAN_LOAD_STORE(8)
DEFINE_ASAN_LOAD_STORE(16)

void __asan_loadN(unsigned long addr, size_t size)
{
	kasan_check_range(addr, size, false, _RET_IP_);
}

void __asan_loadN_noabort(unsigned long addr, size_t size)
{
	kasan_check_range(addr, size, false, _RET_IP_);
}

void __asan_storeN(unsigned long addr, size_t size)
{
	kasan_check_range(addr, size, true, _RET_IP_);
}

void __asan_storeN_noabort(unsigned long addr, size_t size)
{
	kasan_check_range(addr, size, true, _RET_IP_);
}

/* Inline instrumentation's slow path (KASAN_INLINE; kept for the ABI). */
#define DEFINE_ASAN_REPORT(type, size, write)				\
	void __asan_report_##type##size##_noabort(unsigned long addr)	\
	{								\
		kasan_report(addr, size, write, _RET_IP_);		\
	}

DEFINE_ASAN_REPORT(load, 1, false)
DEFINE_ASAN_REPORT(load, 2, false)
DEFINE_ASAN_REPORT(load, 4, false)
DEFINE_ASAN_REPORT(load, 8, false)
DEFINE_ASAN_REPORT(load, 16, false)
DEFINE_ASAN_REPORT(store, 1, true)
DEFINE_ASAN_REPORT(store, 2, true)
DEFINE_ASAN_REPORT(store, 4, true)
DEFINE_ASAN_REPORT(store, 8, true)
DEFINE_ASAN_REPORT(store, 16, true)

void __asan_report_load_n_noabort(unsigned long addr, size_t size)
{
	kasan_report(addr, size, false, _RET_IP_);
}

void __asan_report_store_n_noabort(unsigned long addr, size_t size)
{
	kasan_report(addr, size, true, _RET_IP_);
}

/*
 * Before a call to a noreturn function.  As in Linux, nothing: the places
 * that abandon frames unpoison what they abandon themselves
 * (__fault_longjmp(), the idle task at CPU online).
 */
void __asan_handle_no_return(void)
{
}

/*
 * An alloca()/VLA area of @size bytes at @addr (aligned to the red zone
 * size): a left red zone below it, its last granule partial if need be,
 * and a right red zone from the end of its last granule up to the next
 * red-zone boundary plus one more red zone.
 */
void __asan_alloca_poison(unsigned long addr, size_t size);
void __asan_alloca_poison(unsigned long addr, size_t size)
{
	size_t whole = round_down(size, KASAN_GRANULE_SIZE);
	size_t granules = round_up(size, KASAN_GRANULE_SIZE);
	size_t right = round_up(size, KASAN_ALLOCA_REDZONE_SIZE) - granules +
		       KASAN_ALLOCA_REDZONE_SIZE;

	WARN_ON(!IS_ALIGNED(addr, KASAN_ALLOCA_REDZONE_SIZE));
	kasan_poison((void *)(addr - KASAN_ALLOCA_REDZONE_SIZE), KASAN_ALLOCA_REDZONE_SIZE,
		     KASAN_ALLOCA_LEFT, false);
	kasan_unpoison((void *)(addr + whole), size - whole, false);
	kasan_poison((void *)(addr + granules), right, KASAN_ALLOCA_RIGHT, false);
}

/* The frame's alloca areas, [stack_top, stack_bottom), are gone. */
void __asan_allocas_unpoison(const void *stack_top, const void *stack_bottom);
void __asan_allocas_unpoison(const void *stack_top, const void *stack_bottom)
{
	if (!stack_top || stack_top > stack_bottom)
		return;
	kasan_unpoison(stack_top, stack_bottom - stack_top, false);
}

/* ------------------------------------------------------------ globals */

/*
 * Each instrumented file's constructor registers its globals: the
 * variable stays accessible, the padding the compiler put after it
 * becomes a red zone.
 */
static void register_global(struct kasan_global *global)
{
	size_t aligned_size = round_up(global->size, KASAN_GRANULE_SIZE);

	kasan_unpoison(global->beg, global->size, false);
	kasan_poison(global->beg + aligned_size, global->size_with_redzone - aligned_size,
		     KASAN_GLOBAL_REDZONE, false);
}

void __asan_register_globals(struct kasan_global *globals, size_t size)
{
	for (size_t i = 0; i < size; i++)
		register_global(&globals[i]);
}

void __asan_unregister_globals(struct kasan_global *globals, size_t size)
{
}

/* ------------------------------------------------------------ mem*() */

/*
 * newlib's memcpy/memset/memmove are not instrumented: the kernel links
 * with --wrap for each (Makefile), so every call, from any file or from
 * newlib itself, comes here to have its ranges checked first, as Linux's
 * mm/kasan/shadow.c does by redefining them over __memcpy and friends.
 */
void *__real_memset(void *s, int c, size_t n);
void *__real_memcpy(void *dst, const void *src, size_t n);
void *__real_memmove(void *dst, const void *src, size_t n);
void *__wrap_memset(void *s, int c, size_t n);
void *__wrap_memcpy(void *dst, const void *src, size_t n);
void *__wrap_memmove(void *dst, const void *src, size_t n);

void *__wrap_memset(void *s, int c, size_t n)
{
	if (!kasan_check_range((unsigned long)s, n, true, _RET_IP_))
		return NULL;
	return __real_memset(s, c, n);
}

void *__wrap_memmove(void *dst, const void *src, size_t n)
{
	if (!kasan_check_range((unsigned long)src, n, false, _RET_IP_) ||
	    !kasan_check_range((unsigned long)dst, n, true, _RET_IP_))
		return NULL;
	return __real_memmove(dst, src, n);
}

void *__wrap_memcpy(void *dst, const void *src, size_t n)
{
	if (!kasan_check_range((unsigned long)src, n, false, _RET_IP_) ||
	    !kasan_check_range((unsigned long)dst, n, true, _RET_IP_))
		return NULL;
	return __real_memcpy(dst, src, n);
}

/* What a compiler may call instead of the plain names. */
void *__asan_memset(void *s, int c, size_t n);
void *__asan_memcpy(void *dst, const void *src, size_t n);
void *__asan_memmove(void *dst, const void *src, size_t n);

void *__asan_memset(void *s, int c, size_t n)
{
	return __wrap_memset(s, c, n);
}

void *__asan_memcpy(void *dst, const void *src, size_t n)
{
	return __wrap_memcpy(dst, src, n);
}

void *__asan_memmove(void *dst, const void *src, size_t n)
{
	return __wrap_memmove(dst, src, n);
}

/* ---------------------------------------------------- the slab parts */

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
