// SPDX-License-Identifier: GPL-2.0
/*
 * Small memory helpers that sit on top of kmalloc (Linux's mm/util.c,
 * the parts irqlab uses).
 *
 * The *_const variants avoid a copy when the string lives in the
 * kernel's read-only data: such a string outlives every caller, so the
 * pointer itself can be kept, and kfree_const() knows not to free it.
 */
#include <linux/slab.h>
#include <linux/string.h>
#include <asm/sections.h>

static bool is_kernel_rodata(unsigned long addr)
{
	return addr >= (unsigned long)__start_rodata &&
	       addr < (unsigned long)__end_rodata;
}

/* Free what kstrdup_const() returned; a rodata string is left alone. */
void kfree_const(const void *x)
{
	if (!is_kernel_rodata((unsigned long)x))
		kfree(x);
}

/* A kmalloc'd copy of @s (NULL for NULL or when out of memory). */
char *kstrdup(const char *s, gfp_t gfp)
{
	size_t len;
	char *copy;

	if (!s)
		return NULL;
	len = strlen(s) + 1;
	copy = kmalloc_track_caller(len, gfp);
	if (copy)
		memcpy(copy, s, len);
	return copy;
}

/* @s itself when it is in rodata, else a kstrdup() copy. */
const char *kstrdup_const(const char *s, gfp_t gfp)
{
	if (is_kernel_rodata((unsigned long)s))
		return s;
	return kstrdup(s, gfp);
}
