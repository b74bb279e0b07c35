/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __MM_KASAN_KASAN_H
#define __MM_KASAN_KASAN_H

/*
 * KASAN's internals shared by mm/kasan/ (generic mode only): what a shadow
 * byte means, the poison/unpoison primitives, the access check and the
 * report's view of a bad access.
 */
#include <linux/kasan.h>
#include <linux/kernel.h>
#include <linux/stackdepot.h>
#include <limits.h>

#define KASAN_GRANULE_SIZE	(1UL << KASAN_SHADOW_SCALE_SHIFT)
#define KASAN_GRANULE_MASK	(KASAN_GRANULE_SIZE - 1)
#define KASAN_MEMORY_PER_SHADOW_PAGE	(KASAN_GRANULE_SIZE << PAGE_SHIFT)

/*
 * Negative shadow values: why a granule may not be touched.  The numbers
 * are Linux's (and the compiler's, for the stack and global ones), so a
 * shadow dump reads the same as one from Linux.
 */
#define KASAN_FREE_PAGE		0xFF	/* page given back to the page allocator */
#define KASAN_PAGE_REDZONE	0xFE	/* past a kmalloc_large() allocation */
#define KASAN_KMALLOC_REDZONE	0xFC	/* slab red zone, or past a kmalloc object */
#define KASAN_KMALLOC_FREE	0xFB	/* freed slab object */
#define KASAN_KMALLOC_FREETRACK	0xFA	/* freed slab object, free track recorded */
#define KASAN_GLOBAL_REDZONE	0xF9	/* after a global variable */
#define KASAN_VMALLOC_INVALID	0xF8	/* unmapped part of a vmalloc area */

/* Written by the compiler's stack instrumentation (KASAN_STACK). */
#define KASAN_STACK_LEFT	0xF1
#define KASAN_STACK_MID		0xF2
#define KASAN_STACK_RIGHT	0xF3
#define KASAN_STACK_PARTIAL	0xF4
#define KASAN_ALLOCA_LEFT	0xCA
#define KASAN_ALLOCA_RIGHT	0xCB
/* alloca() red zones are this wide (the compiler aligns the areas so). */
#define KASAN_ALLOCA_REDZONE_SIZE	32
/* What the compiler stores at the base of each instrumented frame. */
#define KASAN_CURRENT_STACK_FRAME_MAGIC	0x41B58AB3

/* The shadow dump in a report: rows of 16 shadow bytes, 2 above and below. */
#define META_BYTES_PER_ROW	16
#define META_MEM_BYTES_PER_ROW	(META_BYTES_PER_ROW * KASAN_GRANULE_SIZE)
#define META_ROWS_AROUND_ADDR	2

/* What the compiler describes each instrumented global with (ABI v1..v8). */
struct kasan_source_location {
	const char *filename;
	int line_no;
	int column_no;
};

struct kasan_global {
	const void *beg;		/* the variable */
	size_t size;			/* its size */
	size_t size_with_redzone;	/* rounded up with its red zone */
	const void *name;
	const void *module_name;	/* here: the source file */
	unsigned long has_dynamic_init;
	struct kasan_source_location *location;
	char *odr_indicator;
};

/* One bad access, as the report describes it. */
struct kasan_access_info {
	const void *access_addr;
	const void *first_bad_addr;
	size_t access_size;
	bool is_write;
	unsigned long ip;
};

static inline const void *kasan_shadow_to_mem(const void *shadow_addr)
{
	return (void *)(((unsigned long)shadow_addr - KASAN_SHADOW_OFFSET)
			<< KASAN_SHADOW_SCALE_SHIFT);
}

/* Only the kernel half has a shadow; a lower address is a wild access. */
static inline bool addr_has_metadata(const void *addr)
{
	return addr >= kasan_shadow_to_mem((void *)KASAN_SHADOW_START);
}

/*
 * The shadow exists only once kasan_init() has run: before that the
 * checks let every access through (Linux x86 maps an early zero shadow
 * instead; irqlab's outline-only build can simply wait).
 */
extern bool kasan_shadow_ready;
static __always_inline bool kasan_arch_is_ready(void)
{
	return READ_ONCE(kasan_shadow_ready);
}

/*
 * Mark [addr, addr + size) with @value (size rounded up to a granule;
 * addr must be granule aligned).  @init is for the tag modes: unused.
 */
void kasan_poison(const void *addr, size_t size, u8 value, bool init);
/* Mark accessible; a partial last granule records how many bytes are valid. */
void kasan_unpoison(const void *addr, size_t size, bool init);
/* Mark only the tail of the last granule after @size as a red zone. */
void kasan_poison_last_granule(const void *addr, size_t size);
bool kasan_byte_accessible(const void *addr);

/* Check an access; false (and a report) when it touches poisoned memory. */
bool kasan_check_range(unsigned long addr, size_t size, bool write,
		       unsigned long ret_ip);

/* report.c and report_generic.c; kasan_reports: reports printed so far */
extern unsigned long kasan_reports;
void *kasan_find_first_bad_addr(void *addr, size_t size);
const char *kasan_get_bug_type(struct kasan_access_info *info);
#ifdef CONFIG_KASAN_STACK
/* The frame and its variables, for an address on the current task's stack. */
void kasan_print_address_stack_frame(const void *addr);
#else
static inline void kasan_print_address_stack_frame(const void *addr) {}
#endif
void kasan_report_invalid_free(void *object, unsigned long ip);
struct page *kasan_addr_to_page(const void *addr);

/*
 * The slab part of a report (the object, its cache, the allocation and
 * free stacks): written with the SLUB hooks in common.c.
 */
void kasan_print_slab_object(struct kmem_cache *cache, void *object, const void *addr);

/* The compiler's entry points (generic.c); declared to be defined. */
void __asan_register_globals(struct kasan_global *globals, size_t size);
void __asan_unregister_globals(struct kasan_global *globals, size_t size);
void __asan_handle_no_return(void);

void __asan_load1(unsigned long addr);
void __asan_store1(unsigned long addr);
void __asan_load2(unsigned long addr);
void __asan_store2(unsigned long addr);
void __asan_load4(unsigned long addr);
void __asan_store4(unsigned long addr);
void __asan_load8(unsigned long addr);
void __asan_store8(unsigned long addr);
void __asan_load16(unsigned long addr);
void __asan_store16(unsigned long addr);
void __asan_loadN(unsigned long addr, size_t size);
void __asan_storeN(unsigned long addr, size_t size);

void __asan_load1_noabort(unsigned long addr);
void __asan_store1_noabort(unsigned long addr);
void __asan_load2_noabort(unsigned long addr);
void __asan_store2_noabort(unsigned long addr);
void __asan_load4_noabort(unsigned long addr);
void __asan_store4_noabort(unsigned long addr);
void __asan_load8_noabort(unsigned long addr);
void __asan_store8_noabort(unsigned long addr);
void __asan_load16_noabort(unsigned long addr);
void __asan_store16_noabort(unsigned long addr);
void __asan_loadN_noabort(unsigned long addr, size_t size);
void __asan_storeN_noabort(unsigned long addr, size_t size);

void __asan_report_load1_noabort(unsigned long addr);
void __asan_report_store1_noabort(unsigned long addr);
void __asan_report_load2_noabort(unsigned long addr);
void __asan_report_store2_noabort(unsigned long addr);
void __asan_report_load4_noabort(unsigned long addr);
void __asan_report_store4_noabort(unsigned long addr);
void __asan_report_load8_noabort(unsigned long addr);
void __asan_report_store8_noabort(unsigned long addr);
void __asan_report_load16_noabort(unsigned long addr);
void __asan_report_store16_noabort(unsigned long addr);
void __asan_report_load_n_noabort(unsigned long addr, size_t size);
void __asan_report_store_n_noabort(unsigned long addr, size_t size);

/* ------------------------------------------------ slab object metadata */

/*
 * Generic KASAN always collects stacks (Linux switches collection only in
 * the hardware-tag mode).
 */
static inline bool kasan_stack_collection_enabled(void)
{
	return true;
}

/* Frames kept per alloc or free stack. */
#define KASAN_STACK_DEPTH	64

/* Who allocated or freed an object: the task and its stack. */
struct kasan_track {
	u32 pid;
	depot_stack_handle_t stack;
};

/*
 * Lives in the slot after the object (in its red zone) from the slab's
 * creation on: the allocation track, and the last two call_rcu() stacks
 * that named the object (kasan_record_aux_stack()).
 */
struct kasan_alloc_meta {
	struct kasan_track alloc_track;
	depot_stack_handle_t aux_stack[2];
};

/* The quarantine's singly linked queue link. */
struct qlist_node {
	struct qlist_node *next;
};

/* free_meta_offset when a cache has no room for the free metadata. */
#define KASAN_NO_FREE_META	INT_MAX

/*
 * Valid only while the object is free: the quarantine link and the free
 * track.  Stored at the start of the freed object itself unless the
 * object's contents must survive the free (a constructor, RCU type
 * safety) or it is too small; then after the alloc metadata.
 */
struct kasan_free_meta {
	struct qlist_node quarantine_link;
	struct kasan_track free_track;
};

struct kasan_alloc_meta *kasan_get_alloc_meta(struct kmem_cache *cache,
					      const void *object);
struct kasan_free_meta *kasan_get_free_meta(struct kmem_cache *cache,
					    const void *object);

depot_stack_handle_t kasan_save_stack(gfp_t flags);
void kasan_set_track(struct kasan_track *track, gfp_t flags);
void kasan_set_free_info(struct kmem_cache *cache, void *object, u8 tag);
struct kasan_track *kasan_get_free_track(struct kmem_cache *cache,
					 void *object, u8 tag);

/* Quarantine (mm/kasan/quarantine.c). */
bool kasan_quarantine_put(struct kmem_cache *cache, void *object);
void kasan_quarantine_reduce(void);
void kasan_quarantine_remove_cache(struct kmem_cache *cache);
size_t kasan_quarantine_cpu_bytes(unsigned int cpu);

/*
 * SLUB's free fast path without the hooks, for objects leaving the
 * quarantine (mm/slub.c, mm/slub_legacy.c).
 */
void ___cache_free(struct kmem_cache *s, void *object, unsigned long caller);

#endif /* __MM_KASAN_KASAN_H */
