/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_PGTABLE_H
#define _ASM_X86_PGTABLE_H

#include <linux/types.h>
#include <asm/page.h>

#define _PAGE_PRESENT	(1ULL << 0)
#define _PAGE_RW	(1ULL << 1)
#define _PAGE_USER	(1ULL << 2)
#define _PAGE_PWT	(1ULL << 3)
#define _PAGE_PCD	(1ULL << 4)
#define _PAGE_ACCESSED	(1ULL << 5)
#define _PAGE_DIRTY	(1ULL << 6)
#define _PAGE_PSE	(1ULL << 7)
#define _PAGE_GLOBAL	(1ULL << 8)
#define _PAGE_NX	(1ULL << 63)

#define PTE_PFN_MASK	0x000ffffffffff000ULL

/* Kernel data: present, writable, global, never executable. */
#define PAGE_KERNEL	(_PAGE_PRESENT | _PAGE_RW | _PAGE_ACCESSED | _PAGE_DIRTY | \
			 _PAGE_GLOBAL | _PAGE_NX)

enum pg_level { PG_LEVEL_NONE, PG_LEVEL_4K, PG_LEVEL_2M, PG_LEVEL_1G };

extern u64 __supported_pte_mask;	/* drops _PAGE_NX when the CPU lacks it */

/* The PTE (or large-page PMD/PUD entry) mapping @addr, or NULL. */
u64 *lookup_address(unsigned long addr, enum pg_level *level);
void paging_init(void);
void map_kernel_page(unsigned long va, phys_addr_t pa, u64 prot);
/*
 * Clear the 4K mapping at @va (page tables stay); returns the physical
 * address that was mapped, or 0.  Only this CPU's TLB entry is flushed:
 * callers flush the others with flush_tlb_kernel_range() (asm/tlbflush.h).
 */
phys_addr_t unmap_kernel_page(unsigned long va);
/* Page-table pages taken from the page allocator since boot (never freed). */
unsigned long kernel_pgtable_pages_after_boot(void);
extern u64 *init_top_pgt;
const char *pg_level_name(enum pg_level level);

/*
 * Map [pa, pa + size) at a fixed kernel virtual address: uncached for
 * device registers (ioremap), write-back and read-only for firmware tables
 * (memremap; RAM comes from the direct map).  NULL if out of range.
 * Mappings are never torn down.
 */
void *ioremap(phys_addr_t pa, unsigned long size);
void *memremap(phys_addr_t pa, unsigned long size);

#endif
