// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's final page tables, replacing head.S's boot tables:
 *  - all RAM at PAGE_OFFSET (direct map), with 1 GiB pages where the CPU
 *    has them and the range allows, else 2 MiB, else 4 KiB; RW, NX;
 *  - the kernel image at __START_KERNEL_map with 4 KiB pages and per-section
 *    permissions: text RX, rodata R+NX, data and bss RW+NX;
 *  - stack guard pages (boot stack, IST stacks) left unmapped.
 * There is no identity map afterwards: a NULL dereference faults.
 */
#include <linux/kernel.h>
#include <linux/memblock.h>
#include <linux/mm.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <asm/pgtable.h>
#include <asm/tlbflush.h>
#include <asm/processor.h>
#include <asm/sections.h>
#include <asm/segment.h>
#include <asm/kasan.h>

u64 __supported_pte_mask = ~0ULL;
u64 *init_top_pgt;
static unsigned long direct_map_pages[PG_LEVEL_1G + 1];

/*
 * After boot, map_kernel_page() allocates the tables it will need before
 * taking kernel_pgtable_lock (GFP_KERNEL may wait) and leaves them here.
 */
static u64 *pt_prealloc[3];
static int pt_prealloc_nr;
/* Tables taken after boot: kept for good, as Linux keeps kernel tables. */
static unsigned long pt_pages_after_boot;

unsigned long kernel_pgtable_pages_after_boot(void)
{
	return READ_ONCE(pt_pages_after_boot);
}

/*
 * Table pages of the kernel's own map (never freed): the direct map's grows
 * with RAM, the memory map's with RAM, the per-CPU units' with CPUs.
 */
static atomic_long_t nr_kernel_pgtable_pages = ATOMIC_LONG_INIT(0);

unsigned long kernel_pgtable_pages(void)
{
	return atomic_long_read(&nr_kernel_pgtable_pages);
}

static u64 *alloc_pt_page(void)
{
	phys_addr_t pa;

	atomic_long_inc(&nr_kernel_pgtable_pages);
	/* Once mm_init() has taken memblock's memory, tables are pages. */
	if (after_bootmem) {
		unsigned long va;

		WRITE_ONCE(pt_pages_after_boot, pt_pages_after_boot + 1);
		if (pt_prealloc_nr)
			return pt_prealloc[--pt_prealloc_nr];
		va = get_zeroed_page(GFP_ATOMIC);	/* ioremap() and the like */
		if (!va)
			panic("paging: out of memory for page tables");
		return (u64 *)va;
	}
	/* Below 4 GiB: reachable through head.S's map while we build. */
	pa = memblock_phys_alloc_range(PAGE_SIZE, PAGE_SIZE, 0, SZ_4G);
	if (!pa)
		panic("paging_init: out of memory for page tables");
	memset(__va(pa), 0, PAGE_SIZE);
	return __va(pa);
}

static u64 *pt_next(u64 *table, unsigned int idx)
{
	if (!(table[idx] & _PAGE_PRESENT))
		table[idx] = __pa(alloc_pt_page()) | _PAGE_PRESENT | _PAGE_RW;
	BUG_ON(table[idx] & _PAGE_PSE);
	return __va(table[idx] & PTE_PFN_MASK);
}

static unsigned int pt_index(unsigned long va, int shift)
{
	return (va >> shift) & 511;
}

/* Map one page of size 4K/2M/1G (by @level). */
static void map_page(unsigned long va, phys_addr_t pa, u64 prot, enum pg_level level)
{
	u64 *pud = pt_next(init_top_pgt, pt_index(va, PGDIR_SHIFT));
	u64 *pmd, *pte;

	prot &= __supported_pte_mask;
	if (level == PG_LEVEL_1G) {
		pud[pt_index(va, PUD_SHIFT)] = pa | prot | _PAGE_PSE;
		return;
	}
	pmd = pt_next(pud, pt_index(va, PUD_SHIFT));
	if (level == PG_LEVEL_2M) {
		pmd[pt_index(va, PMD_SHIFT)] = pa | prot | _PAGE_PSE;
		return;
	}
	pte = pt_next(pmd, pt_index(va, PMD_SHIFT));
	pte[pt_index(va, PAGE_SHIFT)] = pa | prot;
}

/*
 * Kernel page-table updates after boot (vmalloc, per-CPU chunks) can race
 * to fill the same empty table entry: init_mm.page_table_lock in Linux.
 * Not taken with interrupts off: nothing maps from interrupt context.
 */
static DEFINE_SPINLOCK(kernel_pgtable_lock);

/* A 4K kernel mapping outside the image and the direct map (stacks, windows). */
/* Table pages missing on the way to @va's PTE (tables are never freed). */
static int missing_tables(unsigned long va)
{
	const int shifts[] = { PGDIR_SHIFT, PUD_SHIFT, PMD_SHIFT };
	u64 *t = init_top_pgt;

	for (int i = 0; i < 3; i++) {
		u64 e = READ_ONCE(t[pt_index(va, shifts[i])]);

		if (!(e & _PAGE_PRESENT))
			return 3 - i;
		if (e & _PAGE_PSE)
			return 0;
		t = __va(e & PTE_PFN_MASK);
	}
	return 0;
}

void map_kernel_page(unsigned long va, phys_addr_t pa, u64 prot)
{
	u64 *pre[3];
	int need = after_bootmem ? missing_tables(va) : 0;

	/* __GFP_HIGH: a mapping must not fail where its data pages did not. */
	for (int i = 0; i < need; i++) {
		pre[i] = (u64 *)get_zeroed_page(GFP_KERNEL | __GFP_HIGH);
		if (!pre[i])
			panic("paging: out of memory for page tables");
	}
	spin_lock(&kernel_pgtable_lock);
	memcpy(pt_prealloc, pre, need * sizeof(pre[0]));
	pt_prealloc_nr = need;
	map_page(va, pa, prot, PG_LEVEL_4K);
	/* Another CPU may have added some of them meanwhile. */
	need = pt_prealloc_nr;
	memcpy(pre, pt_prealloc, need * sizeof(pre[0]));
	pt_prealloc_nr = 0;
	spin_unlock(&kernel_pgtable_lock);
	__flush_tlb_one(va);
	for (int i = 0; i < need; i++)
		free_page((unsigned long)pre[i]);
}

phys_addr_t unmap_kernel_page(unsigned long va)
{
	enum pg_level level;
	phys_addr_t pa = 0;
	u64 *pte;

	spin_lock(&kernel_pgtable_lock);
	pte = lookup_address(va, &level);
	if (pte && level == PG_LEVEL_4K) {
		pa = *pte & PTE_PFN_MASK;
		WRITE_ONCE(*pte, 0);
	}
	spin_unlock(&kernel_pgtable_lock);
	__flush_tlb_one(va);
	return pa;
}

void __flush_tlb_all(void)
{
	unsigned long cr4 = read_cr4();

	/* Clearing PGE drops global entries too; restoring it re-enables them. */
	write_cr4(cr4 & ~X86_CR4_PGE);
	write_cr4(cr4);
}

struct flush_tlb_info {
	unsigned long start, end;
};

/* Beyond this many pages one full flush is cheaper than invlpg each (Linux: 33). */
#define FLUSH_TLB_SINGLE_PAGE_CEILING	33

static void do_kernel_range_flush(void *info)
{
	struct flush_tlb_info *f = info;

	if ((f->end - f->start) >> PAGE_SHIFT > FLUSH_TLB_SINGLE_PAGE_CEILING) {
		__flush_tlb_all();
		return;
	}
	for (unsigned long va = f->start; va < f->end; va += PAGE_SIZE)
		__flush_tlb_one(va);
}

void flush_tlb_kernel_range(unsigned long start, unsigned long end)
{
	struct flush_tlb_info info = {
		.start = ALIGN_DOWN(start, PAGE_SIZE), .end = ALIGN(end, PAGE_SIZE),
	};

	on_each_cpu(do_kernel_range_flush, &info, 1);
}

static void map_direct_range(phys_addr_t start, phys_addr_t end)
{
	const u64 prot = _PAGE_PRESENT | _PAGE_RW | _PAGE_GLOBAL | _PAGE_NX |
			 _PAGE_ACCESSED | _PAGE_DIRTY;
	phys_addr_t pa = ALIGN(start, PAGE_SIZE);

	end = ALIGN_DOWN(end, PAGE_SIZE);
	while (pa < end) {
		enum pg_level level = PG_LEVEL_4K;
		unsigned long sz = PAGE_SIZE;

		if (boot_cpu_data.has_pdpe1gb && IS_ALIGNED(pa, PUD_SIZE) &&
		    end - pa >= PUD_SIZE) {
			level = PG_LEVEL_1G;
			sz = PUD_SIZE;
		} else if (IS_ALIGNED(pa, PMD_SIZE) && end - pa >= PMD_SIZE) {
			level = PG_LEVEL_2M;
			sz = PMD_SIZE;
		}
		map_page((unsigned long)__va(pa), pa, prot, level);
		direct_map_pages[level]++;
		pa += sz;
	}
}

static bool is_guard_page(unsigned long va)
{
	extern char boot_stack_guard[];
	extern unsigned long exception_stack_guard(int i);

	if (va == (unsigned long)boot_stack_guard)
		return true;
	for (int i = 0; i < N_EXCEPTION_STACKS; i++)
		if (va == exception_stack_guard(i))
			return true;
	return false;
}

static void map_kernel_image(void)
{
	const u64 base = _PAGE_PRESENT | _PAGE_GLOBAL | _PAGE_ACCESSED;

	for (unsigned long va = (unsigned long)_text; va < (unsigned long)_end;
	     va += PAGE_SIZE) {
		u64 prot;

		if (is_guard_page(va))
			continue;
		if (va < (unsigned long)_etext)
			prot = base;				/* RX */
		else if (va < (unsigned long)__end_rodata)
			prot = base | _PAGE_NX;			/* R */
		else
			prot = base | _PAGE_RW | _PAGE_DIRTY | _PAGE_NX; /* RW */
		map_page(va, __pa_symbol(va), prot, PG_LEVEL_4K);
	}
}

const char *pg_level_name(enum pg_level level)
{
	static const char *const names[] = { "none", "4K", "2M", "1G" };

	return names[level];
}

void paging_init(void)
{
	if (!boot_cpu_data.has_nx)
		__supported_pte_mask &= ~_PAGE_NX;
	init_top_pgt = alloc_pt_page();
	/* As Linux: the ISA range is always mapped (BIOS tables, RSDP, EBDA). */
	map_direct_range(0, SZ_1M);
	for (unsigned long i = 0; i < memblock.memory.cnt; i++) {
		struct memblock_region *r = &memblock.memory.regions[i];
		phys_addr_t start = max(r->base, (phys_addr_t)SZ_1M);

		if (r->base + r->size > start)
			map_direct_range(start, r->base + r->size);
	}
	map_kernel_image();
	/* Instrumented prologues write the shadow of their frames from here on too. */
	kasan_map_early_shadow(init_top_pgt);
	write_cr3(__pa(init_top_pgt));
	write_cr4(read_cr4() | X86_CR4_PGE);
	pr_info("paging: direct map %lu x 1G, %lu x 2M, %lu x 4K; NX %s; kernel text RX, rodata R, data RW+NX\n",
		direct_map_pages[PG_LEVEL_1G], direct_map_pages[PG_LEVEL_2M],
		direct_map_pages[PG_LEVEL_4K],
		boot_cpu_data.has_nx ? "on" : "unsupported");
}

u64 *lookup_address(unsigned long va, enum pg_level *level)
{
	u64 *t = init_top_pgt;
	int shifts[] = { PGDIR_SHIFT, PUD_SHIFT, PMD_SHIFT, PAGE_SHIFT };
	enum pg_level lv[] = { PG_LEVEL_NONE, PG_LEVEL_1G, PG_LEVEL_2M, PG_LEVEL_4K };

	*level = PG_LEVEL_NONE;
	if (!t)
		return NULL;
	for (int i = 0; i < 4; i++) {
		u64 *e = &t[pt_index(va, shifts[i])];

		if (!(*e & _PAGE_PRESENT))
			return NULL;
		if (i == 3 || (i > 0 && (*e & _PAGE_PSE))) {
			*level = lv[i];
			return e;
		}
		t = __va(*e & PTE_PFN_MASK);
	}
	return NULL;
}

/*
 * Fixed-offset windows in Linux's vmalloc range for mapping physical
 * ranges that are not RAM: device registers uncached (ioremap) and
 * firmware tables write-back (memremap).  Physical address pa appears at
 * window + pa, so mapping the same range twice is harmless.
 */
#define IOREMAP_BASE	0xffffc90000000000UL
#define MEMREMAP_BASE	0xffffca0000000000UL
#define REMAP_MAX_PA	(1UL << 40)

static void *remap_range(unsigned long base, phys_addr_t pa, unsigned long size,
			 u64 prot)
{
	phys_addr_t p = ALIGN_DOWN(pa, PAGE_SIZE);

	if (!size || pa + size > REMAP_MAX_PA || pa + size < pa)
		return NULL;
	for (; p < pa + size; p += PAGE_SIZE) {
		enum pg_level lvl;
		u64 *e = lookup_address(base + p, &lvl);

		if (e && (*e & PTE_PFN_MASK) == p)
			continue;	/* already there */
		map_page(base + p, p, prot, PG_LEVEL_4K);
		__flush_tlb_one(base + p);
	}
	return (void *)(base + pa);
}

void *ioremap(phys_addr_t pa, unsigned long size)
{
	return remap_range(IOREMAP_BASE, pa, size, _PAGE_PRESENT | _PAGE_RW |
			   _PAGE_PCD | _PAGE_PWT | _PAGE_NX | _PAGE_GLOBAL);
}

void *memremap(phys_addr_t pa, unsigned long size)
{
	/* RAM is already in the direct map; use it so caching attributes agree. */
	if (memblock_is_memory(pa) && memblock_is_memory(pa + size - 1))
		return __va(pa);
	return remap_range(MEMREMAP_BASE, pa, size,
			   _PAGE_PRESENT | _PAGE_NX | _PAGE_GLOBAL);
}
