/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_PAGE_H
#define _ASM_X86_PAGE_H

/* Linux's x86_64 layout, so addresses in reports look familiar. */
#define PAGE_SHIFT		12
#define PAGE_SIZE		(1UL << PAGE_SHIFT)
#define PAGE_MASK		(~(PAGE_SIZE - 1))
#define PMD_SHIFT		21
#define PMD_SIZE		(1UL << PMD_SHIFT)
#define PUD_SHIFT		30
#define PUD_SIZE		(1UL << PUD_SHIFT)
#define PGDIR_SHIFT		39

#define __PAGE_OFFSET		0xffff888000000000UL
#define VMEMMAP_START		0xffffea0000000000UL
#define __START_KERNEL_map	0xffffffff80000000UL
#define LOAD_PHYSICAL_ADDR	0x1000000UL

#ifndef __ASSEMBLY__
#include <linux/types.h>

#define PAGE_OFFSET		__PAGE_OFFSET

/* Direct map conversions. */
#define __va(pa)	((void *)((unsigned long)(pa) + PAGE_OFFSET))
#define __pa(va)	__phys_addr((unsigned long)(va))
/* Kernel image symbol to physical. */
#define __pa_symbol(x)	((unsigned long)(x) - __START_KERNEL_map)

static inline unsigned long __phys_addr(unsigned long va)
{
	if (va >= __START_KERNEL_map)
		return va - __START_KERNEL_map;
	return va - PAGE_OFFSET;
}

#define PFN_UP(x)	(((x) + PAGE_SIZE - 1) >> PAGE_SHIFT)
#define PFN_DOWN(x)	((x) >> PAGE_SHIFT)
#define PFN_PHYS(x)	((phys_addr_t)(x) << PAGE_SHIFT)
#endif

#endif /* _ASM_X86_PAGE_H */
