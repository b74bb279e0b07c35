/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_VMALLOC_H
#define _LINUX_VMALLOC_H

/*
 * Virtually contiguous kernel mappings of separately allocated pages.
 *
 * Layout (Linux's x86_64 vmalloc space, shared):
 *   0xffffc90000000000  ioremap window      (arch/x86/mm/init.c)
 *   0xffffca0000000000  memremap window     (arch/x86/mm/init.c)
 *   VMALLOC_START       vmalloc/vmap areas  (this allocator)
 *   PCPU_BASE           per-CPU units, one PCPU_UNIT_STRIDE per CPU
 *   VMALLOC_END
 * Every area is followed by one unmapped guard page (unless VM_NO_GUARD):
 * running off the end of an area, e.g. a kernel stack overflowing
 * downwards into the previous area's guard, faults instead of silently
 * writing into the neighbour.
 *
 * vunmap() and vfree() clear the PTEs and flush every CPU's TLB (IPIs)
 * before the range or the pages are reused; they must be called with
 * interrupts enabled.  vfree() from interrupt context (or with interrupts
 * off) is deferred to the next vmalloc()/vfree() call made from a context
 * that can flush, as vfree_atomic() is.
 */
#include <linux/types.h>
#include <linux/list.h>
#include <linux/gfp.h>
#include <asm/page.h>

struct page;

#define VMALLOC_START		0xffffcb0000000000UL
#define VMALLOC_END		0xffffe8ffffffffffUL
#define VMALLOC_TOTAL		(VMALLOC_END - VMALLOC_START)

/* vm_struct.flags */
#define VM_IOREMAP		0x00000001
#define VM_ALLOC		0x00000002	/* vmalloc(): the pages are ours */
#define VM_MAP			0x00000004	/* vmap(): the caller's pages */
#define VM_USERMAP		0x00000008
#define VM_NO_GUARD		0x00000040

/* One area of the vmalloc range (Linux's vmap_area and vm_struct in one). */
struct vm_struct {
	struct list_head list;		/* all areas, by address */
	void *addr;
	unsigned long size;		/* guard page included */
	unsigned long flags;
	unsigned int nr_pages;		/* mapped pages (VM_ALLOC, VM_MAP) */
	int node;
	const void *caller;
};

void vmalloc_init(void);

void *vmalloc(unsigned long size);
void *vzalloc(unsigned long size);
void *vmalloc_node(unsigned long size, int node);
void *__vmalloc(unsigned long size, gfp_t gfp_mask);
void *__vmalloc_node(unsigned long size, unsigned long align, gfp_t gfp_mask,
		     int node, const void *caller);
void *__vmalloc_node_range(unsigned long size, unsigned long align,
			   unsigned long start, unsigned long end, gfp_t gfp_mask,
			   u64 prot, unsigned long vm_flags, int node,
			   const void *caller);
void vfree(const void *addr);
void vfree_atomic(const void *addr);
/* Pages the vm_struct descriptor pool took since boot (never freed). */
unsigned long vmalloc_descriptor_pages(void);

void *vmap(struct page **pages, unsigned int count, unsigned long flags, u64 prot);
void vunmap(const void *addr);

struct vm_struct *get_vm_area(unsigned long size, unsigned long flags);
struct vm_struct *get_vm_area_caller(unsigned long size, unsigned long flags,
				     const void *caller);
struct vm_struct *find_vm_area(const void *addr);
/* The area @addr points into (not only its start), or NULL. */
struct vm_struct *find_vm_area_containing(const void *addr);
void free_vm_area(struct vm_struct *area);

struct page *vmalloc_to_page(const void *addr);
unsigned long vmalloc_to_pfn(const void *addr);

static inline bool is_vmalloc_addr(const void *x)
{
	unsigned long addr = (unsigned long)x;

	return addr >= VMALLOC_START && addr < VMALLOC_END;
}

/* Usable size: without the guard page. */
static inline unsigned long get_vm_area_size(const struct vm_struct *area)
{
	if (area->flags & VM_NO_GUARD)
		return area->size;
	return area->size - PAGE_SIZE;
}

/* Console listing like /proc/vmallocinfo. */
void vmalloc_dump(void);

#endif /* _LINUX_VMALLOC_H */
