// SPDX-License-Identifier: GPL-2.0
/*
 * The vmalloc range: areas of kernel virtual address space, each followed
 * by a guard page, mapped to individually allocated pages (vmalloc) or to
 * the caller's pages (vmap).  Layout and rules in linux/vmalloc.h.
 *
 * Areas sit on one address-sorted list under vmap_area_lock, a plain
 * spinlock as in Linux (nobody takes it from interrupts: vfree() there is
 * deferred), so it opens no IRQ-off window on !RT.  A new area
 * takes the first gap that fits (Linux keeps an augmented rbtree of free
 * space; a list is enough for irqlab's few hundred areas).  The area
 * descriptors come from pages of the page allocator, as there is no
 * kmalloc yet.  Unmapping flushes every CPU's TLB before the address
 * range or the pages can be used again (Linux defers and batches this
 * lazily; irqlab does it at once so a stale access always faults).
 */
#include <linux/mm.h>
#include <linux/vmalloc.h>
#include <linux/sched.h>
#include <linux/llist.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <asm/pgtable.h>
#include <asm/tlbflush.h>
#include "internal.h"

#define VMALLOC_AREA_END	PCPU_BASE	/* the per-CPU units follow */

static DEFINE_SPINLOCK(vmap_area_lock);
static LIST_HEAD(vmap_area_list);
static unsigned long nr_vmap_areas;

/* Spare descriptors, chained through ->list.next. */
static struct vm_struct *vm_struct_pool;
/* Pages carved into descriptors; the pool never gives them back. */
static unsigned long vm_struct_pool_pages;

unsigned long vmalloc_descriptor_pages(void)
{
	return READ_ONCE(vm_struct_pool_pages);
}

static struct llist_head vfree_deferred = LLIST_HEAD_INIT(vfree_deferred);

/* ------------------------------------------------------------ descriptors */

static struct vm_struct *alloc_vm_struct(gfp_t gfp)
{
	struct vm_struct *vm;

	for (;;) {
		unsigned long page;

		spin_lock(&vmap_area_lock);
		vm = vm_struct_pool;
		if (vm)
			vm_struct_pool = (struct vm_struct *)vm->list.next;
		spin_unlock(&vmap_area_lock);
		if (vm)
			break;
		page = get_zeroed_page(gfp & GFP_RECLAIM_MASK);
		if (!page)
			return NULL;
		spin_lock(&vmap_area_lock);
		vm_struct_pool_pages++;
		for (unsigned long p = page; p + sizeof(*vm) <= page + PAGE_SIZE;
		     p += sizeof(*vm)) {
			struct vm_struct *spare = (struct vm_struct *)p;

			spare->list.next = (struct list_head *)vm_struct_pool;
			vm_struct_pool = spare;
		}
		spin_unlock(&vmap_area_lock);
	}
	memset(vm, 0, sizeof(*vm));
	return vm;
}

/* Called with vmap_area_lock held. */
static void __free_vm_struct(struct vm_struct *vm)
{
	vm->list.next = (struct list_head *)vm_struct_pool;
	vm_struct_pool = vm;
}

/* ------------------------------------------------------------ address space */

/* First gap of @size at @align in [start, end); insert @vm there. */
static bool insert_vmap_area(struct vm_struct *vm, unsigned long size, unsigned long align,
			     unsigned long start, unsigned long end)
{
	unsigned long addr = ALIGN(start, align);
	struct list_head *pos;

	list_for_each(pos, &vmap_area_list) {
		struct vm_struct *a = list_entry(pos, struct vm_struct, list);
		unsigned long a_start = (unsigned long)a->addr;

		if (a_start + a->size <= addr)
			continue;
		if (addr + size <= a_start && addr + size > addr)
			break;				/* fits before @a */
		addr = ALIGN(a_start + a->size, align);
		if (addr < a_start)
			return false;			/* wrapped */
	}
	if (addr + size > end || addr + size < addr)
		return false;
	vm->addr = (void *)addr;
	vm->size = size;
	list_add_tail(&vm->list, pos);		/* before @pos: sorted */
	nr_vmap_areas++;
	return true;
}

static struct vm_struct *__get_vm_area_node(unsigned long size, unsigned long align,
					    unsigned long flags, unsigned long start,
					    unsigned long end, int node, gfp_t gfp,
					    const void *caller)
{
	struct vm_struct *vm;
	bool ok;

	/* As Linux's alloc_vmap_area(): a sleeping context, and a voluntary preemption point. */
	if (gfpflags_allow_blocking(gfp))
		might_sleep();
	align = max(align, PAGE_SIZE);
	if (!size || size > VMALLOC_TOTAL || (align & (align - 1)))
		goto fail;
	size = ALIGN(size, PAGE_SIZE);
	if (!(flags & VM_NO_GUARD))
		size += PAGE_SIZE;
	vm = alloc_vm_struct(gfp);
	if (!vm)
		return NULL;
	vm->flags = flags;
	vm->node = node;
	vm->caller = caller;
	spin_lock(&vmap_area_lock);
	ok = insert_vmap_area(vm, size, align, start, end);
	if (!ok)
		__free_vm_struct(vm);
	spin_unlock(&vmap_area_lock);
	if (ok)
		return vm;
fail:
	if (!(gfp & __GFP_NOWARN) && page_alloc_ratelimit())
		pr_warn("vmap allocation for size %lu failed: the vmalloc range is %lu bytes\n",
			size, VMALLOC_AREA_END - VMALLOC_START);
	return NULL;
}

struct vm_struct *get_vm_area_caller(unsigned long size, unsigned long flags,
				     const void *caller)
{
	return __get_vm_area_node(size, 1, flags, VMALLOC_START, VMALLOC_AREA_END,
				  NUMA_NO_NODE, GFP_KERNEL, caller);
}

struct vm_struct *get_vm_area(unsigned long size, unsigned long flags)
{
	return get_vm_area_caller(size, flags, __builtin_return_address(0));
}

static struct vm_struct *__find_vm_area(unsigned long addr, bool inside)
{
	struct vm_struct *vm;

	list_for_each_entry(vm, &vmap_area_list, list) {
		unsigned long start = (unsigned long)vm->addr;

		if (addr == start || (inside && addr > start && addr < start + vm->size))
			return vm;
		if (start > addr)
			break;
	}
	return NULL;
}

struct vm_struct *find_vm_area(const void *addr)
{
	struct vm_struct *vm;

	spin_lock(&vmap_area_lock);
	vm = __find_vm_area((unsigned long)addr, false);
	spin_unlock(&vmap_area_lock);
	return vm;
}

struct vm_struct *find_vm_area_containing(const void *addr)
{
	struct vm_struct *vm;

	spin_lock(&vmap_area_lock);
	vm = __find_vm_area((unsigned long)addr, true);
	spin_unlock(&vmap_area_lock);
	return vm;
}

/* Give back an area whose mappings are gone and flushed. */
void free_vm_area(struct vm_struct *vm)
{

	spin_lock(&vmap_area_lock);
	list_del(&vm->list);
	nr_vmap_areas--;
	__free_vm_struct(vm);
	spin_unlock(&vmap_area_lock);
}

/* ------------------------------------------------------------ mapping */

/*
 * Clear @vm's PTEs, flush all TLBs, then let the pages (when they are
 * ours) and the address range go.  The pages wait on a list threaded
 * through their own ->lru until no CPU can reach them any more.
 */
static void __vunmap(struct vm_struct *vm, bool free_pages)
{
	unsigned long start = (unsigned long)vm->addr;
	unsigned long end = start + get_vm_area_size(vm);
	struct page *page, *tmp;
	LIST_HEAD(pages);

	for (unsigned long va = start; va < end; va += PAGE_SIZE) {
		phys_addr_t pa = unmap_kernel_page(va);

		if (pa && free_pages)
			list_add_tail(&pfn_to_page(PFN_DOWN(pa))->lru, &pages);
	}
	flush_tlb_kernel_range(start, end);
	list_for_each_entry_safe(page, tmp, &pages, lru) {
		list_del(&page->lru);
		page->lru.next = page->lru.prev = NULL;
		__free_page(page);
	}
	free_vm_area(vm);
}

static void vfree_flush_deferred(void)
{
	struct llist_node *node;

	if (llist_empty(&vfree_deferred))
		return;
	node = llist_del_all(&vfree_deferred);
	while (node) {
		struct llist_node *next = node->next;

		vfree(node);
		node = next;
	}
}

static bool can_flush_now(void)
{
	return !in_interrupt() && !irqs_disabled();
}

/* Private flag: an unmap of the area is under way. */
#define VM_DYING		0x80000000UL

/*
 * Claim the area starting exactly at @addr for unmapping; it keeps its
 * address range until free_vm_area(), but nobody else can claim it.
 */
static struct vm_struct *claim_vm_area(const void *addr, const char *what)
{
	struct vm_struct *vm;

	spin_lock(&vmap_area_lock);
	vm = __find_vm_area((unsigned long)addr, false);
	if (vm && (vm->flags & VM_DYING))
		vm = NULL;
	if (vm)
		vm->flags |= VM_DYING;
	spin_unlock(&vmap_area_lock);
	if (!vm) {
		pr_err("Trying to %s() nonexistent vm area (%016lx)\n", what,
		       (unsigned long)addr);
		WARN_ON(1);
	}
	return vm;
}

void vfree_atomic(const void *addr)
{
	if (addr)
		llist_add((struct llist_node *)addr, &vfree_deferred);
}

void vfree(const void *addr)
{
	struct vm_struct *vm;

	if (!addr)
		return;
	if (!can_flush_now()) {
		vfree_atomic(addr);	/* the memory itself carries the list node */
		return;
	}
	vm = claim_vm_area(addr, "vfree");
	if (!vm)
		return;
	/* vmap()'s pages belong to the caller: unmap, do not free. */
	__vunmap(vm, vm->flags & VM_ALLOC);
	vfree_flush_deferred();
}

void vunmap(const void *addr)
{
	struct vm_struct *vm;

	if (!addr)
		return;
	if (WARN_ON(!can_flush_now()))
		return;
	vm = claim_vm_area(addr, "vunmap");
	if (vm)
		__vunmap(vm, false);
}

void *vmap(struct page **pages, unsigned int count, unsigned long flags, u64 prot)
{
	struct vm_struct *vm;
	unsigned long addr;

	if (can_flush_now())
		vfree_flush_deferred();
	if (!count)
		return NULL;
	vm = get_vm_area_caller((unsigned long)count << PAGE_SHIFT, flags | VM_MAP,
				__builtin_return_address(0));
	if (!vm)
		return NULL;
	addr = (unsigned long)vm->addr;
	for (unsigned int i = 0; i < count; i++)
		map_kernel_page(addr + ((unsigned long)i << PAGE_SHIFT), page_to_phys(pages[i]),
				prot);
	vm->nr_pages = count;
	return vm->addr;
}

void *__vmalloc_node_range(unsigned long size, unsigned long align,
			   unsigned long start, unsigned long end, gfp_t gfp_mask,
			   u64 prot, unsigned long vm_flags, int node,
			   const void *caller)
{
	struct vm_struct *vm;
	unsigned long addr, nr;

	if (can_flush_now())
		vfree_flush_deferred();
	vm = __get_vm_area_node(size, align, VM_ALLOC | vm_flags, start, end, node,
				gfp_mask, caller);
	if (!vm)
		return NULL;
	addr = (unsigned long)vm->addr;
	nr = get_vm_area_size(vm) >> PAGE_SHIFT;
	for (unsigned long i = 0; i < nr; i++) {
		struct page *page = alloc_pages_node(node, (gfp_mask & ~__GFP_COMP) |
						     __GFP_NOWARN, 0);

		if (!page) {
			warn_alloc(gfp_mask, "vmalloc error: size %lu, failed to allocate pages",
				   nr << PAGE_SHIFT);
			vm->nr_pages = i;
			vfree(vm->addr);
			return NULL;
		}
		map_kernel_page(addr + (i << PAGE_SHIFT), page_to_phys(page), prot);
	}
	vm->nr_pages = nr;
	return vm->addr;
}

void *__vmalloc_node(unsigned long size, unsigned long align, gfp_t gfp_mask,
		     int node, const void *caller)
{
	return __vmalloc_node_range(size, align, VMALLOC_START, VMALLOC_AREA_END, gfp_mask,
				    PAGE_KERNEL, 0, node, caller);
}

void *vmalloc(unsigned long size)
{
	return __vmalloc_node(size, 1, GFP_KERNEL, NUMA_NO_NODE, __builtin_return_address(0));
}

void *vzalloc(unsigned long size)
{
	return __vmalloc_node(size, 1, GFP_KERNEL | __GFP_ZERO, NUMA_NO_NODE,
			      __builtin_return_address(0));
}

void *vmalloc_node(unsigned long size, int node)
{
	return __vmalloc_node(size, 1, GFP_KERNEL, node, __builtin_return_address(0));
}

void *__vmalloc(unsigned long size, gfp_t gfp_mask)
{
	return __vmalloc_node(size, 1, gfp_mask, NUMA_NO_NODE, __builtin_return_address(0));
}

struct page *vmalloc_to_page(const void *vmalloc_addr)
{
	enum pg_level level;
	u64 *pte = lookup_address((unsigned long)vmalloc_addr, &level);

	if (!pte || level != PG_LEVEL_4K)
		return NULL;
	return pfn_to_page(PFN_DOWN(*pte & PTE_PFN_MASK));
}

unsigned long vmalloc_to_pfn(const void *vmalloc_addr)
{
	struct page *page = vmalloc_to_page(vmalloc_addr);

	return page ? page_to_pfn(page) : 0;
}

void vmalloc_dump(void)
{
	struct vm_struct *vm;

	spin_lock(&vmap_area_lock);
	list_for_each_entry(vm, &vmap_area_list, list)
		pr_info("%016lx-%016lx %7lu pages=%u%s%s\n", (unsigned long)vm->addr,
			(unsigned long)vm->addr + vm->size, vm->size, vm->nr_pages,
			vm->flags & VM_ALLOC ? " vmalloc" : "",
			vm->flags & VM_MAP ? " vmap" : "");
	spin_unlock(&vmap_area_lock);
}

void vmalloc_init(void)
{
	pr_info("vmalloc: [%#lx-%#lx] for vmalloc/vmap areas with guard pages, per-CPU units from %#lx\n",
		VMALLOC_START, VMALLOC_AREA_END - 1, PCPU_BASE);
}
