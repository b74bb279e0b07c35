/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_STRING_H
#define _ASM_X86_STRING_H

/*
 * With KASAN the kernel links newlib's memcpy/memset/memmove behind
 * checking wrappers (--wrap, mm/kasan/generic.c).  The files KASAN does
 * not instrument (KASAN_SANITIZE_n in the Makefile: KASAN itself, SLUB,
 * the stack depot and unwinder) touch poisoned memory on purpose, a new
 * slab's debug poison or a free pointer in a freed object, so they call
 * the unchecked functions directly, as Linux's <asm/string_64.h> sends
 * them to __memcpy() and friends.  The compiler defines
 * __SANITIZE_ADDRESS__ only for instrumented files.
 */
#if defined(CONFIG_KASAN) && !defined(__SANITIZE_ADDRESS__)
#include <stddef.h>

void *__real_memcpy(void *dst, const void *src, size_t n);
void *__real_memset(void *s, int c, size_t n);
void *__real_memmove(void *dst, const void *src, size_t n);

#undef memcpy
#undef memset
#undef memmove
#define memcpy(dst, src, len)	__real_memcpy(dst, src, len)
#define memset(s, c, n)		__real_memset(s, c, n)
#define memmove(dst, src, len)	__real_memmove(dst, src, len)
#endif

#endif /* _ASM_X86_STRING_H */
