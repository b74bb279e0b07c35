// SPDX-License-Identifier: GPL-2.0
/*
 * The early shadow: one zero page and one table per level that repeat
 * it, so a whole PML4 slot of shadow costs four pages.  Every part of the
 * kernel half whose memory KASAN does not track (vmalloc and the per-CPU
 * units, vmemmap, the fixed windows, the CPU entry area) shadows to this
 * page: all zero, so accesses there are never reported, and read only
 * after kasan_init(), so a stray poisoning of such memory faults instead
 * of silently poisoning everything that shares the page.
 */
#include <linux/kernel.h>
#include <linux/kasan.h>
#include <asm/page.h>

unsigned char kasan_early_shadow_page[PAGE_SIZE] __aligned(PAGE_SIZE);
u64 kasan_early_shadow_pte[512] __aligned(PAGE_SIZE);
u64 kasan_early_shadow_pmd[512] __aligned(PAGE_SIZE);
u64 kasan_early_shadow_pud[512] __aligned(PAGE_SIZE);
