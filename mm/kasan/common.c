// SPDX-License-Identifier: GPL-2.0
/*
 * KASAN's hooks for the allocators (Linux 5.15's mm/kasan/common.c, the
 * generic mode): the page allocator's pair, and for SLUB where each cache
 * keeps its per-object metadata, how a new slab, an
 * allocated object and a freed object are marked in the shadow, and the
 * alloc/free tracks that reports print.
 *
 * Shadow states an object goes through:
 *   new slab           whole slab KASAN_KMALLOC_REDZONE (kasan_poison_slab)
 *   allocated          object_size (kmem_cache_alloc) or the requested size
 *                      (kmalloc) accessible, the rest of the slot red zone
 *   freed              KASAN_KMALLOC_FREE, its first shadow byte
 *                      KASAN_KMALLOC_FREETRACK while the free track is valid
 *   out of quarantine  KASAN_KMALLOC_FREE again, back on a SLUB freelist
 * SLUB itself is not instrumented: it reads and writes free pointers and
 * metadata inside poisoned slots.
 */
#include <linux/kernel.h>
#include <linux/irqflags.h>
#include <linux/kasan.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <asm/stacktrace.h>

#include "kasan.h"
#include "../slab.h"

/* newlib's memset, not the checking wrapper: metadata lies in red zones. */
void *__real_memset(void *s, int c, size_t n);

/* ------------------------------------------------------------ pages */

void __kasan_poison_pages(struct page *page, unsigned int order, bool init)
{
	kasan_poison(page_address(page), PAGE_SIZE << order, KASAN_FREE_PAGE, init);
}

void __kasan_unpoison_pages(struct page *page, unsigned int order, bool init)
{
	kasan_unpoison(page_address(page), PAGE_SIZE << order, init);
}

/* ------------------------------------------------------------- stacks */

#ifdef CONFIG_KASAN_STACK
/*
 * A stack about to be run from its top again (an AP's idle task at the
 * next online) still carries the red zones of the frames it was left
 * with; the new frames write their own, but memory that no instrumented
 * frame describes (pt_regs pushed by the entry code, callee-saved
 * registers, uninstrumented callers) would read as poisoned.
 */
void kasan_unpoison_task_stack(struct task_struct *task)
{
	kasan_unpoison(task->stack, task->stack_size, false);
}

/*
 * Everything below @watermark on its stack is dead.  Linux finds the base
 * by aligning down to THREAD_SIZE; irqlab's boot and entry-area stacks are
 * not aligned, so the base comes from the stack table instead (whose
 * answer lives in a per-CPU buffer: read it with IRQs off, which also
 * keeps preempt_enable() from scheduling on the way out of a trap).
 */
void kasan_unpoison_task_stack_below(const void *watermark)
{
	unsigned long w = (unsigned long)watermark, begin = 0, flags;
	const struct stack_info *si;

	local_irq_save(flags);
	si = stack_lookup(w - 1);
	if (si && w > si->begin && w <= si->end)
		begin = si->begin;
	local_irq_restore(flags);
	if (begin)
		kasan_unpoison((void *)begin, w - begin, false);
}

/*
 * __fault_longjmp() to @watermark: the frames it abandons are those
 * below the target on its stack and, when the jump leaves another stack
 * (a #DF caught on its IST stack), all of that one.
 */
void kasan_unpoison_stack_jump(const void *watermark)
{
	unsigned long w = (unsigned long)watermark, sp, begin = 0, end = 0, flags;
	const struct stack_info *si;

	asm volatile("movq %%rsp, %0" : "=r"(sp));
	local_irq_save(flags);
	si = stack_lookup(sp);
	if (si && !(w > si->begin && w <= si->end)) {
		begin = si->begin;
		end = si->end;
	}
	local_irq_restore(flags);
	if (begin)
		kasan_unpoison((void *)begin, end - begin, false);
	kasan_unpoison_task_stack_below(watermark);
}
#endif

/* ------------------------------------------------------------- tracks */

depot_stack_handle_t kasan_save_stack(gfp_t flags)
{
	unsigned long entries[KASAN_STACK_DEPTH];
	unsigned int nr_entries;

	/* Starts at this function, as Linux's stacks start at kasan_save_stack. */
	nr_entries = save_stack_trace(entries, ARRAY_SIZE(entries), 0);
	return stack_depot_save(entries, nr_entries, flags);
}

void kasan_set_track(struct kasan_track *track, gfp_t flags)
{
	track->pid = current ? current->pid : 0;
	track->stack = kasan_save_stack(flags);
}

/* ------------------------------------------------------ cache layout */

/* Caches with KASAN metadata never share their slabs with another. */
slab_flags_t __kasan_never_merge(void)
{
	return kasan_stack_collection_enabled() ? SLAB_KASAN : 0;
}

/*
 * The red zone after an object grows with the object, as in user-space
 * AddressSanitizer: small objects get 16 bytes, 64 KiB ones 2 KiB.  Each
 * threshold leaves the object plus its red zone at a power of two.
 */
static inline unsigned int optimal_redzone(unsigned int object_size)
{
	static const struct {
		unsigned int slot;	/* object + red zone up to this size */
		unsigned int redzone;
	} steps[] = {
		{ 64, 16 }, { 128, 32 }, { 512, 64 }, { 4096, 128 },
		{ 1 << 14, 256 }, { 1 << 15, 512 }, { 1 << 16, 1024 },
	};

	for (unsigned int i = 0; i < ARRAY_SIZE(steps); i++)
		if (object_size <= steps[i].slot - steps[i].redzone)
			return steps[i].redzone;
	return 2048;
}

/*
 * Called by calculate_sizes() after the slub_debug tracks and before the
 * slub_debug red zone: @size is the slot so far.  The alloc metadata goes
 * at its end; the free metadata goes into the freed object unless that
 * must keep its contents or cannot hold it; then the slot is grown to at
 * least object + optimal_redzone().
 */
void __kasan_cache_create(struct kmem_cache *cache, unsigned int *size,
			  slab_flags_t *flags)
{
	unsigned int orig_size;
	unsigned int optimal_size;

	/* Marks the cache as sanitized: never merged, ksize() is exact. */
	*flags |= SLAB_KASAN;

	orig_size = *size;
	cache->kasan_info.alloc_meta_offset = *size;
	*size += sizeof(struct kasan_alloc_meta);
	/* Only possible with huge objects SLUB would hand to kmalloc_large. */
	if (*size > KMALLOC_MAX_SIZE) {
		cache->kasan_info.alloc_meta_offset = 0;
		*size = orig_size;
	}

	/* 0: the free metadata overlays the start of the freed object. */
	cache->kasan_info.free_meta_offset = 0;
	if ((cache->flags & SLAB_TYPESAFE_BY_RCU) || cache->ctor ||
	    cache->object_size < sizeof(struct kasan_free_meta)) {
		orig_size = *size;
		cache->kasan_info.free_meta_offset = *size;
		*size += sizeof(struct kasan_free_meta);
		if (*size > KMALLOC_MAX_SIZE) {
			cache->kasan_info.free_meta_offset = KASAN_NO_FREE_META;
			*size = orig_size;
		}
	}

	optimal_size = cache->object_size + optimal_redzone(cache->object_size);
	if (optimal_size > KMALLOC_MAX_SIZE)
		optimal_size = KMALLOC_MAX_SIZE;
	if (*size < optimal_size)
		*size = optimal_size;
}

void __kasan_cache_create_kmalloc(struct kmem_cache *cache)
{
	cache->kasan_info.is_kmalloc = true;
}

size_t __kasan_metadata_size(struct kmem_cache *cache)
{
	size_t n = 0;

	if (cache->kasan_info.alloc_meta_offset)
		n += sizeof(struct kasan_alloc_meta);
	if (cache->kasan_info.free_meta_offset)
		n += sizeof(struct kasan_free_meta);
	return n;
}

struct kasan_alloc_meta *kasan_get_alloc_meta(struct kmem_cache *cache,
					      const void *object)
{
	if (!cache->kasan_info.alloc_meta_offset)
		return NULL;
	return (void *)object + cache->kasan_info.alloc_meta_offset;
}

struct kasan_free_meta *kasan_get_free_meta(struct kmem_cache *cache,
					    const void *object)
{
	_Static_assert(sizeof(struct kasan_free_meta) <= 32,
		       "the free metadata must fit a 32-byte object");
	if (cache->kasan_info.free_meta_offset == KASAN_NO_FREE_META)
		return NULL;
	return (void *)object + cache->kasan_info.free_meta_offset;
}

/* ------------------------------------------------- slabs and objects */

/* A new slab: nothing in it may be touched until it is allocated. */
void __kasan_poison_slab(struct page *page)
{
	kasan_poison(page_address(page), page_size(page),
		     KASAN_KMALLOC_REDZONE, false);
}

/* Around a constructor call on a new object. */
void __kasan_unpoison_object_data(struct kmem_cache *cache, void *object)
{
	kasan_unpoison(object, cache->object_size, false);
}

void __kasan_poison_object_data(struct kmem_cache *cache, void *object)
{
	kasan_poison(object, round_up(cache->object_size, KASAN_GRANULE_SIZE),
		     KASAN_KMALLOC_REDZONE, false);
}

/* setup_object(): a new object starts with no alloc track. */
void *__kasan_init_slab_obj(struct kmem_cache *cache, const void *object)
{
	struct kasan_alloc_meta *alloc_meta;

	alloc_meta = kasan_get_alloc_meta(cache, object);
	if (alloc_meta)
		__real_memset(alloc_meta, 0, sizeof(*alloc_meta));
	return (void *)object;
}

/*
 * A free.  True means KASAN keeps the object (quarantined, or the free
 * was reported as invalid) and SLUB must not put it on a freelist.
 */
static bool ____kasan_slab_free(struct kmem_cache *cache, void *object,
				unsigned long ip, bool quarantine, bool init)
{
	struct page *page;

	if (!kasan_arch_is_ready())
		return false;

	/* Not the start of an object: a pointer into the middle of one. */
	page = virt_to_head_page(object);
	if (unlikely(nearest_obj(cache, page, object) != object)) {
		kasan_report_invalid_free(object, ip);
		return true;
	}

	/* Readers may still look at the object until a grace period ends. */
	if (unlikely(cache->flags & SLAB_TYPESAFE_BY_RCU))
		return false;

	/* Freed already (or never allocated): a double or invalid free. */
	if (!kasan_byte_accessible(object)) {
		kasan_report_invalid_free(object, ip);
		return true;
	}

	kasan_poison(object, round_up(cache->object_size, KASAN_GRANULE_SIZE),
		     KASAN_KMALLOC_FREE, init);

	if (!quarantine)
		return false;

	kasan_set_free_info(cache, object, 0xff);
	return kasan_quarantine_put(cache, object);
}

bool __kasan_slab_free(struct kmem_cache *cache, void *object,
		       unsigned long ip, bool init)
{
	return ____kasan_slab_free(cache, object, ip, true, init);
}

/* kfree() of a kmalloc_large() buffer: the page hooks poison it. */
static bool ____kasan_kfree_large(void *ptr, unsigned long ip)
{
	if (ptr != page_address(virt_to_head_page(ptr)) ||
	    !kasan_byte_accessible(ptr)) {
		kasan_report_invalid_free(ptr, ip);
		return true;
	}
	return false;
}

void __kasan_kfree_large(void *ptr, unsigned long ip)
{
	____kasan_kfree_large(ptr, ip);
}

/* A mempool keeps the element: poison it without freeing it. */
void __kasan_slab_free_mempool(void *ptr, unsigned long ip)
{
	struct page *page = virt_to_head_page(ptr);

	if (unlikely(!PageSlab(page))) {
		if (____kasan_kfree_large(ptr, ip))
			return;
		kasan_poison(ptr, page_size(page), KASAN_FREE_PAGE, false);
	} else {
		____kasan_slab_free(page->slab_cache, ptr, ip, false, false);
	}
}

/*
 * kmalloc caches record the allocation in kasan_kmalloc(), which knows
 * the requested size and runs after kasan_slab_alloc().
 */
static void set_alloc_info(struct kmem_cache *cache, void *object,
			   gfp_t flags, bool is_kmalloc)
{
	struct kasan_alloc_meta *alloc_meta;

	if (cache->kasan_info.is_kmalloc && !is_kmalloc)
		return;
	alloc_meta = kasan_get_alloc_meta(cache, object);
	if (alloc_meta)
		kasan_set_track(&alloc_meta->alloc_track, flags);
}

void *__kasan_slab_alloc(struct kmem_cache *cache, void *object,
			 gfp_t flags, bool init)
{
	/* Allocations that may sleep pay for draining the quarantine. */
	if (gfpflags_allow_blocking(flags))
		kasan_quarantine_reduce();

	if (unlikely(!object))
		return NULL;

	/* All of it; kasan_kmalloc() then trims it to the requested size. */
	kasan_unpoison(object, cache->object_size, init);
	set_alloc_info(cache, object, flags, false);
	return object;
}

/*
 * Poison [object + size, end of the object) as red zone: the last
 * granule partially (the shadow counts accessible bytes), the granules
 * after it whole.
 */
static void *____kasan_kmalloc(struct kmem_cache *cache, const void *object,
			       size_t size, gfp_t flags)
{
	unsigned long redzone_start;
	unsigned long redzone_end;

	if (gfpflags_allow_blocking(flags))
		kasan_quarantine_reduce();

	if (unlikely(!object))
		return NULL;

	kasan_poison_last_granule(object, size);
	redzone_start = round_up((unsigned long)object + size,
				 KASAN_GRANULE_SIZE);
	redzone_end = round_up((unsigned long)object + cache->object_size,
			       KASAN_GRANULE_SIZE);
	kasan_poison((void *)redzone_start, redzone_end - redzone_start,
		     KASAN_KMALLOC_REDZONE, false);

	/* Also what kasan_krealloc() relies on to renew the alloc track. */
	set_alloc_info(cache, (void *)object, flags, true);
	return (void *)object;
}

void *__kasan_kmalloc(struct kmem_cache *cache, const void *object,
		      size_t size, gfp_t flags)
{
	return ____kasan_kmalloc(cache, object, size, flags);
}

/* The tail of a kmalloc_large() buffer's pages is its red zone. */
void *__kasan_kmalloc_large(const void *ptr, size_t size, gfp_t flags)
{
	unsigned long redzone_start;
	unsigned long redzone_end;

	if (gfpflags_allow_blocking(flags))
		kasan_quarantine_reduce();

	if (unlikely(!ptr))
		return NULL;

	kasan_poison_last_granule(ptr, size);
	redzone_start = round_up((unsigned long)ptr + size, KASAN_GRANULE_SIZE);
	redzone_end = (unsigned long)ptr + page_size(virt_to_page(ptr));
	kasan_poison((void *)redzone_start, redzone_end - redzone_start,
		     KASAN_PAGE_REDZONE, false);
	return (void *)ptr;
}

/*
 * krealloc() kept the buffer: @size bytes are now valid (an unknown part
 * of them was before), the rest is red zone again.
 */
void *__kasan_krealloc(const void *object, size_t size, gfp_t flags)
{
	struct page *page;

	if (unlikely(object == ZERO_SIZE_PTR))
		return (void *)object;

	kasan_unpoison(object, size, false);
	page = virt_to_head_page(object);
	if (unlikely(!PageSlab(page)))
		return __kasan_kmalloc_large(object, size, flags);
	return ____kasan_kmalloc(page->slab_cache, object, size, flags);
}

/* ksize(), krealloc(): the object must be live. */
bool __kasan_check_byte(const void *addr, unsigned long ip)
{
	if (!kasan_byte_accessible(addr)) {
		kasan_report((unsigned long)addr, 1, false, ip);
		return false;
	}
	return true;
}

/* ------------------------------------------------ the report's object */

static void print_track(struct kasan_track *track, const char *prefix)
{
	pr_err("%s by task %u:\n", prefix, track->pid);
	if (track->stack)
		stack_depot_print(track->stack);
	else
		pr_err("(stack is not available)\n");
}

/* Who allocated it, who freed it, who queued RCU work on it. */
static void describe_object_stacks(struct kmem_cache *cache, void *object)
{
	struct kasan_alloc_meta *alloc_meta;
	struct kasan_track *free_track;

	alloc_meta = kasan_get_alloc_meta(cache, object);
	if (alloc_meta) {
		print_track(&alloc_meta->alloc_track, "Allocated");
		pr_err("\n");
	}

	free_track = kasan_get_free_track(cache, object, 0xff);
	if (free_track) {
		print_track(free_track, "Freed");
		pr_err("\n");
	}

	if (!alloc_meta)
		return;
	if (alloc_meta->aux_stack[0]) {
		pr_err("Last potentially related work creation:\n");
		stack_depot_print(alloc_meta->aux_stack[0]);
		pr_err("\n");
	}
	if (alloc_meta->aux_stack[1]) {
		pr_err("Second to last potentially related work creation:\n");
		stack_depot_print(alloc_meta->aux_stack[1]);
		pr_err("\n");
	}
}

/* Where @addr lies relative to @object. */
static void describe_object_addr(struct kmem_cache *cache, void *object,
				 const void *addr)
{
	unsigned long access_addr = (unsigned long)addr;
	unsigned long object_addr = (unsigned long)object;
	const char *rel_type;
	int rel_bytes;

	/* Addresses as Linux's %px prints them: 16 hex digits, no 0x. */
	pr_err("The buggy address belongs to the object at %016lx\n"
	       " which belongs to the cache %s of size %d\n",
	       object_addr, cache->name, cache->object_size);

	if (access_addr < object_addr) {
		rel_type = "to the left";
		rel_bytes = object_addr - access_addr;
	} else if (access_addr >= object_addr + cache->object_size) {
		rel_type = "to the right";
		rel_bytes = access_addr - (object_addr + cache->object_size);
	} else {
		rel_type = "inside";
		rel_bytes = access_addr - object_addr;
	}

	pr_err("The buggy address is located %d bytes %s of\n"
	       " %d-byte region [%016lx, %016lx)\n",
	       rel_bytes, rel_type, cache->object_size, object_addr,
	       object_addr + cache->object_size);
}

/* Linux's describe_object(): the stacks, then the object's place. */
void kasan_print_slab_object(struct kmem_cache *cache, void *object,
			     const void *addr)
{
	describe_object_stacks(cache, object);
	describe_object_addr(cache, object, addr);
}
