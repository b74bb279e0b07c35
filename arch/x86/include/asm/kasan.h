/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_KASAN_H
#define _ASM_X86_KASAN_H

/*
 * Linux's x86_64 shadow placement for 4-level paging: shadow(addr) =
 * (addr >> 3) + KASAN_SHADOW_OFFSET.  The kernel half
 * [0xffff800000000000, 2^64) thus lands in [KASAN_SHADOW_START,
 * KASAN_SHADOW_END), 16 TiB at 0xffffec0000000000 (Linux's "KASAN shadow
 * memory" line in Documentation/x86/x86_64/mm.rst).  The compiler is
 * told the same offset (-fasan-shadow-offset, scripts/Makefile.kasan).
 */
#define KASAN_SHADOW_OFFSET		0xdffffc0000000000UL
#define KASAN_SHADOW_SCALE_SHIFT	3
#define KASAN_SHADOW_START		(KASAN_SHADOW_OFFSET + \
					 (0xffff800000000000UL >> KASAN_SHADOW_SCALE_SHIFT))
#define KASAN_SHADOW_END		(KASAN_SHADOW_START + (1UL << (47 - KASAN_SHADOW_SCALE_SHIFT)))

#ifndef __ASSEMBLY__
#include <linux/types.h>

#ifdef CONFIG_KASAN
/*
 * The early shadow, before any instrumented C code runs (head.S calls
 * it, as Linux's x86_64_start_kernel() in head64.c): the stack
 * instrumentation writes the shadow of every frame it sets up.
 */
void kasan_early_init(void);
/* paging_init(): give the new top-level table the early shadow too. */
void kasan_map_early_shadow(u64 *pgd);
#else
static inline void kasan_map_early_shadow(u64 *pgd) {}
#endif
#endif

#endif /* _ASM_X86_KASAN_H */
