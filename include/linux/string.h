/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_STRING_H
#define _LINUX_STRING_H

/*
 * newlib's <string.h> plus the kernel's own string helpers (Linux keeps
 * both behind this one header).
 */
#include <string.h>
#include <asm/string.h>
#include <linux/types.h>
#include <linux/compiler.h>

/* mm/util.c: copies in kmalloc'd memory. */
char *kstrdup(const char *s, gfp_t gfp);
const char *kstrdup_const(const char *s, gfp_t gfp);
void kfree_const(const void *x);

/* Clear @len bytes the compiler may not drop as dead stores. */
static inline void memzero_explicit(void *s, size_t count)
{
	memset(s, 0, count);
	__asm__ __volatile__("" : : "r"(s) : "memory");
}

#endif /* _LINUX_STRING_H */
