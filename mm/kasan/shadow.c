// SPDX-License-Identifier: GPL-2.0
/*
 * Writing and reading the shadow (generic KASAN): the primitives every
 * hook is built from.  Not instrumented (mm/kasan/ never is): these
 * functions touch the shadow itself.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include "kasan.h"

/* newlib's memset, not the checking wrapper (mm/kasan/generic.c). */
void *__real_memset(void *s, int c, size_t n);

bool kasan_shadow_ready;

void kasan_poison(const void *addr, size_t size, u8 value, bool init)
{
	void *shadow_start, *shadow_end;

	if (!kasan_arch_is_ready() || !size)
		return;
	/* A misaligned start would poison the granule's valid head too. */
	if (WARN_ON((unsigned long)addr & KASAN_GRANULE_MASK))
		return;
	size = round_up(size, KASAN_GRANULE_SIZE);
	shadow_start = kasan_mem_to_shadow(addr);
	shadow_end = kasan_mem_to_shadow(addr + size);
	__real_memset(shadow_start, value, shadow_end - shadow_start);
}

void kasan_poison_last_granule(const void *addr, size_t size)
{
	if (!kasan_arch_is_ready())
		return;
	if (size & KASAN_GRANULE_MASK) {
		u8 *shadow = kasan_mem_to_shadow(addr + size);

		/* The granule holds size % 8 valid bytes, then red zone. */
		*shadow = size & KASAN_GRANULE_MASK;
	}
}

void kasan_unpoison(const void *addr, size_t size, bool init)
{
	if (!kasan_arch_is_ready() || !size)
		return;
	if (WARN_ON((unsigned long)addr & KASAN_GRANULE_MASK))
		return;
	/* Whole granules accessible, then the partial one says how much. */
	kasan_poison(addr, round_up(size, KASAN_GRANULE_SIZE), 0, false);
	kasan_poison_last_granule(addr, size);
}

bool kasan_byte_accessible(const void *addr)
{
	s8 shadow;

	if (!kasan_arch_is_ready())
		return true;
	shadow = *(s8 *)kasan_mem_to_shadow(addr);
	/*
	 * Linux's test: any byte of the granule valid.  (Comparing the
	 * offset, an unsigned long, with the s8 would promote a negative
	 * shadow to a huge value and call freed memory accessible.)
	 */
	return shadow >= 0 && shadow < KASAN_GRANULE_SIZE;
}

void __kasan_unpoison_range(const void *addr, size_t size)
{
	kasan_unpoison(addr, size, false);
}
