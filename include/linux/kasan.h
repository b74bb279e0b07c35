/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_KASAN_H
#define _LINUX_KASAN_H

/*
 * The Kernel Address Sanitizer's interface for the allocators, as in
 * Linux 5.15 with CONFIG_KASAN_GENERIC: every byte of the kernel half has
 * a shadow byte per 8-byte granule that says how much of the granule may
 * be touched (0: all, 1..7: the first N bytes, negative: none, the value
 * naming why).  The allocators mark memory with these hooks; the
 * compiler's instrumentation checks every access against the shadow.
 *
 * Without CONFIG_KASAN every hook is an empty inline and costs nothing.
 * With it, each kasan_*() wrapper calls the out-of-line __kasan_*() only
 * while kasan_enabled(), which in the generic mode is simply the option.
 */
#include <linux/kernel.h>
#include <linux/types.h>

struct kmem_cache;
struct page;
struct task_struct;
typedef unsigned int slab_flags_t;

#ifdef CONFIG_KASAN

#include <asm/kasan.h>
#include <asm/page.h>

/* Shadow bytes stay 0 ("all accessible") for memory nobody poisoned. */
#define KASAN_SHADOW_INIT	0

/*
 * The zero page every unpopulated part of the shadow maps to (read only
 * once kasan_init() ran), and the page tables that repeat it.
 */
extern unsigned char kasan_early_shadow_page[PAGE_SIZE];
extern u64 kasan_early_shadow_pte[512];
extern u64 kasan_early_shadow_pmd[512];
extern u64 kasan_early_shadow_pud[512];

int kasan_populate_early_shadow(const void *shadow_start, const void *shadow_end);

/* The shadow byte of @addr: one per KASAN_GRANULE_SIZE bytes. */
static inline void *kasan_mem_to_shadow(const void *addr)
{
	return (void *)(((unsigned long)addr >> KASAN_SHADOW_SCALE_SHIFT) +
			KASAN_SHADOW_OFFSET);
}

/* Reports are (not) wanted for the current task: nests. */
void kasan_enable_current(void);
void kasan_disable_current(void);

/* Set up the shadow (arch/x86/mm/kasan_init_64.c), after paging_init(). */
void kasan_init(void);

/*
 * Generic KASAN is on whenever it is built in; the checks themselves wait
 * for kasan_init() (kasan_arch_is_ready() in mm/kasan/kasan.h).
 */
static inline bool kasan_enabled(void)
{
	return true;
}

/* The mode where the memory tag also initialises memory: not this one. */
static inline bool kasan_has_integrated_init(void)
{
	return false;
}

/*
 * Per-cache metadata offsets (the allocation track lives in the red zone
 * after the object, the free track in the freed object or after it).
 */
struct kasan_cache {
	int alloc_meta_offset;
	int free_meta_offset;
	bool is_kmalloc;
};

slab_flags_t __kasan_never_merge(void);
static __always_inline slab_flags_t kasan_never_merge(void)
{
	return kasan_enabled() ? __kasan_never_merge() : 0;
}

void __kasan_unpoison_range(const void *addr, size_t size);
static __always_inline void kasan_unpoison_range(const void *addr, size_t size)
{
	if (kasan_enabled())
		__kasan_unpoison_range(addr, size);
}

/* The page allocator's hooks (free_pages_prepare, post_alloc_hook). */
void __kasan_poison_pages(struct page *page, unsigned int order, bool init);
static __always_inline void kasan_poison_pages(struct page *page, unsigned int order,
					       bool init)
{
	if (kasan_enabled())
		__kasan_poison_pages(page, order, init);
}

void __kasan_unpoison_pages(struct page *page, unsigned int order, bool init);
static __always_inline void kasan_unpoison_pages(struct page *page, unsigned int order,
						 bool init)
{
	if (kasan_enabled())
		__kasan_unpoison_pages(page, order, init);
}

/* SLUB's hooks, in the order a cache and an object live through them. */
void __kasan_cache_create(struct kmem_cache *cache, unsigned int *size,
			  slab_flags_t *flags);
static __always_inline void kasan_cache_create(struct kmem_cache *cache,
					       unsigned int *size, slab_flags_t *flags)
{
	if (kasan_enabled())
		__kasan_cache_create(cache, size, flags);
}

void __kasan_cache_create_kmalloc(struct kmem_cache *cache);
static __always_inline void kasan_cache_create_kmalloc(struct kmem_cache *cache)
{
	if (kasan_enabled())
		__kasan_cache_create_kmalloc(cache);
}

size_t __kasan_metadata_size(struct kmem_cache *cache);
static __always_inline size_t kasan_metadata_size(struct kmem_cache *cache)
{
	return kasan_enabled() ? __kasan_metadata_size(cache) : 0;
}

void __kasan_poison_slab(struct page *page);
static __always_inline void kasan_poison_slab(struct page *page)
{
	if (kasan_enabled())
		__kasan_poison_slab(page);
}

void __kasan_unpoison_object_data(struct kmem_cache *cache, void *object);
static __always_inline void kasan_unpoison_object_data(struct kmem_cache *cache,
						       void *object)
{
	if (kasan_enabled())
		__kasan_unpoison_object_data(cache, object);
}

void __kasan_poison_object_data(struct kmem_cache *cache, void *object);
static __always_inline void kasan_poison_object_data(struct kmem_cache *cache,
						     void *object)
{
	if (kasan_enabled())
		__kasan_poison_object_data(cache, object);
}

void *__must_check __kasan_init_slab_obj(struct kmem_cache *cache, const void *object);
static __always_inline void *__must_check kasan_init_slab_obj(struct kmem_cache *cache,
							      const void *object)
{
	return kasan_enabled() ? __kasan_init_slab_obj(cache, object) : (void *)object;
}

/* True: KASAN keeps the object (quarantine or a bad free); SLUB must not free it. */
bool __kasan_slab_free(struct kmem_cache *s, void *object, unsigned long ip, bool init);
static __always_inline bool kasan_slab_free(struct kmem_cache *s, void *object, bool init)
{
	return kasan_enabled() ? __kasan_slab_free(s, object, _RET_IP_, init) : false;
}

void __kasan_kfree_large(void *ptr, unsigned long ip);
static __always_inline void kasan_kfree_large(void *ptr)
{
	if (kasan_enabled())
		__kasan_kfree_large(ptr, _RET_IP_);
}

void __kasan_slab_free_mempool(void *ptr, unsigned long ip);
static __always_inline void kasan_slab_free_mempool(void *ptr)
{
	if (kasan_enabled())
		__kasan_slab_free_mempool(ptr, _RET_IP_);
}

void *__must_check __kasan_slab_alloc(struct kmem_cache *s, void *object, gfp_t flags,
				      bool init);
static __always_inline void *__must_check kasan_slab_alloc(struct kmem_cache *s,
							   void *object, gfp_t flags,
							   bool init)
{
	return kasan_enabled() ? __kasan_slab_alloc(s, object, flags, init) : object;
}

void *__must_check __kasan_kmalloc(struct kmem_cache *s, const void *object, size_t size,
				   gfp_t flags);
static __always_inline void *__must_check kasan_kmalloc(struct kmem_cache *s,
							const void *object, size_t size,
							gfp_t flags)
{
	return kasan_enabled() ? __kasan_kmalloc(s, object, size, flags) : (void *)object;
}

void *__must_check __kasan_kmalloc_large(const void *ptr, size_t size, gfp_t flags);
static __always_inline void *__must_check kasan_kmalloc_large(const void *ptr, size_t size,
							      gfp_t flags)
{
	return kasan_enabled() ? __kasan_kmalloc_large(ptr, size, flags) : (void *)ptr;
}

void *__must_check __kasan_krealloc(const void *object, size_t new_size, gfp_t flags);
static __always_inline void *__must_check kasan_krealloc(const void *object,
							 size_t new_size, gfp_t flags)
{
	return kasan_enabled() ? __kasan_krealloc(object, new_size, flags) : (void *)object;
}

/* ksize() checks that the pointer is a live object before it answers. */
bool __kasan_check_byte(const void *addr, unsigned long ip);
static __always_inline bool kasan_check_byte(const void *addr)
{
	return kasan_enabled() ? __kasan_check_byte(addr, _RET_IP_) : true;
}

/* Tests that provoke several reports turn on the multi-shot mode meanwhile. */
bool kasan_save_enable_multi_shot(void);
void kasan_restore_multi_shot(bool enabled);

/* Generic mode only: the quarantine and the auxiliary (call_rcu) stacks. */
void kasan_cache_shrink(struct kmem_cache *cache);
void kasan_cache_shutdown(struct kmem_cache *cache);
void kasan_record_aux_stack(void *ptr);
void kasan_cpu_quarantine_init(void);

/* Report a bad access; true when a report was printed. */
bool kasan_report(unsigned long addr, size_t size, bool is_write, unsigned long ip);

/* Reports printed since boot (each counts against the run's verdict). */
unsigned long kasan_report_count(void);

#else /* !CONFIG_KASAN */

static inline void kasan_init(void) {}
static inline bool kasan_enabled(void) { return false; }
static inline bool kasan_has_integrated_init(void) { return false; }
static inline void kasan_enable_current(void) {}
static inline void kasan_disable_current(void) {}
static inline slab_flags_t kasan_never_merge(void) { return 0; }
static inline void kasan_unpoison_range(const void *addr, size_t size) {}
static inline void kasan_poison_pages(struct page *page, unsigned int order, bool init) {}
static inline void kasan_unpoison_pages(struct page *page, unsigned int order, bool init) {}
static inline void kasan_cache_create(struct kmem_cache *cache, unsigned int *size,
				      slab_flags_t *flags) {}
static inline void kasan_cache_create_kmalloc(struct kmem_cache *cache) {}
static inline size_t kasan_metadata_size(struct kmem_cache *cache) { return 0; }
static inline void kasan_poison_slab(struct page *page) {}
static inline void kasan_unpoison_object_data(struct kmem_cache *cache, void *object) {}
static inline void kasan_poison_object_data(struct kmem_cache *cache, void *object) {}
static inline void *kasan_init_slab_obj(struct kmem_cache *cache, const void *object)
{
	return (void *)object;
}
static inline bool kasan_slab_free(struct kmem_cache *s, void *object, bool init)
{
	return false;
}
static inline void kasan_kfree_large(void *ptr) {}
static inline void kasan_slab_free_mempool(void *ptr) {}
static inline void *kasan_slab_alloc(struct kmem_cache *s, void *object, gfp_t flags,
				     bool init)
{
	return object;
}
static inline void *kasan_kmalloc(struct kmem_cache *s, const void *object, size_t size,
				  gfp_t flags)
{
	return (void *)object;
}
static inline void *kasan_kmalloc_large(const void *ptr, size_t size, gfp_t flags)
{
	return (void *)ptr;
}
static inline void *kasan_krealloc(const void *object, size_t new_size, gfp_t flags)
{
	return (void *)object;
}
static inline bool kasan_check_byte(const void *addr) { return true; }
static inline bool kasan_save_enable_multi_shot(void) { return false; }
static inline void kasan_restore_multi_shot(bool enabled) {}
static inline void kasan_cache_shrink(struct kmem_cache *cache) {}
static inline void kasan_cache_shutdown(struct kmem_cache *cache) {}
static inline void kasan_record_aux_stack(void *ptr) {}
static inline void kasan_cpu_quarantine_init(void) {}
static inline unsigned long kasan_report_count(void) { return 0; }

#endif /* CONFIG_KASAN */

#if defined(CONFIG_KASAN) && defined(CONFIG_KASAN_STACK)
struct task_struct;
/* Clear the red zones a stack's old frames left: it is run afresh. */
void kasan_unpoison_task_stack(struct task_struct *task);
/* Clear those below @watermark on its stack (they are dead). */
void kasan_unpoison_task_stack_below(const void *watermark);
/* __fault_longjmp() to @watermark: also the stack it leaves, if another. */
void kasan_unpoison_stack_jump(const void *watermark);
#else
static inline void kasan_unpoison_task_stack(struct task_struct *task) {}
#endif

/* No tags in the generic mode: pointers are what they are. */
static inline void *kasan_reset_tag(const void *addr)
{
	return (void *)addr;
}

/*
 * 5.15 calls the page hooks kasan_alloc_pages()/kasan_free_pages() only in
 * the hardware-tag mode, where they also initialise memory; the generic
 * mode uses kasan_unpoison_pages()/kasan_poison_pages() above.
 */

#endif /* _LINUX_KASAN_H */
