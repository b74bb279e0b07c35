// SPDX-License-Identifier: GPL-2.0
/*
 * The generic mode's part of a report: where in an access the first
 * poisoned byte is, and what the shadow value there says the bug is.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include "kasan.h"

/*
 * The first granule of the access whose shadow is not zero, as Linux
 * does: a partial granule counts, get_shadow_bug_type() then looks past
 * it.
 */
void *kasan_find_first_bad_addr(void *addr, size_t size)
{
	void *p = addr;

	while (p < addr + size && !*(u8 *)kasan_mem_to_shadow(p))
		p += KASAN_GRANULE_SIZE;
	return p;
}

static const char *get_shadow_bug_type(struct kasan_access_info *info)
{
	u8 *shadow = kasan_mem_to_shadow(info->first_bad_addr);

	/*
	 * A partial granule's value counts valid bytes, it names no bug: the
	 * bad byte is past them, so the next granule's value says what lies
	 * there.
	 */
	if (*shadow > 0 && *shadow <= KASAN_GRANULE_SIZE - 1)
		shadow++;

	switch (*shadow) {
	case 0 ... KASAN_GRANULE_SIZE - 1:
		/* Accessible memory after a partial granule: out of bounds. */
		return "out-of-bounds";
	case KASAN_PAGE_REDZONE:
	case KASAN_KMALLOC_REDZONE:
		return "slab-out-of-bounds";
	case KASAN_GLOBAL_REDZONE:
		return "global-out-of-bounds";
	case KASAN_STACK_LEFT:
	case KASAN_STACK_MID:
	case KASAN_STACK_RIGHT:
	case KASAN_STACK_PARTIAL:
		return "stack-out-of-bounds";
	case KASAN_FREE_PAGE:
	case KASAN_KMALLOC_FREE:
	case KASAN_KMALLOC_FREETRACK:
		return "use-after-free";
	case KASAN_VMALLOC_INVALID:
		return "vmalloc-out-of-bounds";
	case KASAN_ALLOCA_LEFT:
	case KASAN_ALLOCA_RIGHT:
		return "alloca-out-of-bounds";
	}
	return "unknown-crash";
}

/* Addresses without a shadow: the user half, or NULL plus a small offset. */
static const char *get_wild_bug_type(struct kasan_access_info *info)
{
	unsigned long addr = (unsigned long)info->access_addr;

	if (addr < PAGE_SIZE)
		return "null-ptr-deref";
	if (addr < 0x00007ffffffff000UL)
		return "user-memory-access";
	return "wild-memory-access";
}

const char *kasan_get_bug_type(struct kasan_access_info *info)
{
	/* An access that wraps around the address space is out of bounds. */
	if ((unsigned long)info->access_addr + info->access_size <
	    (unsigned long)info->access_addr)
		return "out-of-bounds";
	if (addr_has_metadata(info->first_bad_addr))
		return get_shadow_bug_type(info);
	return get_wild_bug_type(info);
}
