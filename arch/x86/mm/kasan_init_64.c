// SPDX-License-Identifier: GPL-2.0
/*
 * KASAN's shadow on x86_64 (Linux's arch/x86/mm/kasan_init_64.c, 4-level
 * paging, without KASAN_VMALLOC).  kasan_init() runs right after
 * paging_init(), while memblock still owns all memory:
 *  - the whole shadow range [KASAN_SHADOW_START, KASAN_SHADOW_END) is
 *    first mapped to the early zero shadow (mm/kasan/init.c), so checking
 *    any kernel-half address reads a mapped shadow byte;
 *  - the shadow of the direct map of every RAM region and of the kernel
 *    image is then populated with real, zeroed pages from memblock; the
 *    shared early tables are copied on the way down, never written;
 *  - the zero page becomes read only and the checks are switched on.
 * The page allocator poisons free pages from mm_init() on, as Linux's
 * memblock_free_all() does through __free_pages_core().
 */
#include <linux/kernel.h>
#include <linux/kasan.h>
#include <linux/memblock.h>
#include <linux/mm.h>
#include <asm/pgtable.h>
#include <asm/tlbflush.h>
#include <asm/processor.h>
#include <asm/sections.h>

extern bool kasan_shadow_ready;
void *__real_memset(void *s, int c, size_t n);

#define KASAN_TABLE	(_PAGE_PRESENT | _PAGE_RW)
#define KASAN_SHADOW_PROT (_PAGE_PRESENT | _PAGE_RW | _PAGE_GLOBAL | _PAGE_NX | \
			   _PAGE_ACCESSED | _PAGE_DIRTY)

static unsigned long kasan_populated_pages;

static u64 *kasan_alloc_table(void)
{
	return memblock_alloc(PAGE_SIZE, PAGE_SIZE);
}

/*
 * The next-level table of entry @idx, made private first when it is
 * missing or is the shared early table @shared (whose entries it copies).
 */
static u64 *kasan_table_next(u64 *table, unsigned int idx, u64 *shared)
{
	u64 e = table[idx];
	u64 *t;

	if ((e & _PAGE_PRESENT) && (e & PTE_PFN_MASK) != __pa_symbol(shared))
		return __va(e & PTE_PFN_MASK);
	t = kasan_alloc_table();
	if (e & _PAGE_PRESENT)
		memcpy(t, shared, PAGE_SIZE);
	table[idx] = __pa(t) | KASAN_TABLE;
	return t;
}

static unsigned int idx(unsigned long va, int shift)
{
	return (va >> shift) & 511;
}

/* Back one shadow page at @va with a zeroed page of its own. */
static void kasan_populate_page(unsigned long va, phys_addr_t pa)
{
	u64 *pud = kasan_table_next(init_top_pgt, idx(va, PGDIR_SHIFT), kasan_early_shadow_pud);
	u64 *pmd = kasan_table_next(pud, idx(va, PUD_SHIFT), kasan_early_shadow_pmd);
	u64 *pte = kasan_table_next(pmd, idx(va, PMD_SHIFT), kasan_early_shadow_pte);
	u64 *e = &pte[idx(va, PAGE_SHIFT)];

	/* Two ranges may share a shadow page at their ends: keep the first. */
	if ((*e & PTE_PFN_MASK) != __pa_symbol(kasan_early_shadow_page))
		return;
	*e = pa | KASAN_SHADOW_PROT;
	kasan_populated_pages++;
}

/* Real shadow for the memory [start, end). */
static void kasan_populate_shadow(const void *start, const void *end)
{
	unsigned long s = ALIGN_DOWN((unsigned long)kasan_mem_to_shadow(start), PAGE_SIZE);
	unsigned long e = ALIGN((unsigned long)kasan_mem_to_shadow(end), PAGE_SIZE);
	unsigned long nr = (e - s) >> PAGE_SHIFT;
	u8 *backing;

	if (s >= e)
		return;
	/* One contiguous block per range: zeroed, so everything starts valid. */
	backing = memblock_alloc(nr << PAGE_SHIFT, PAGE_SIZE);
	for (unsigned long i = 0; i < nr; i++)
		kasan_populate_page(s + (i << PAGE_SHIFT), __pa(backing + (i << PAGE_SHIFT)));
}

/*
 * Map the shadow [shadow_start, shadow_end) to the zero page.  Whole PML4
 * slots only: the shadow range is 32 of them.
 */
int kasan_populate_early_shadow(const void *shadow_start, const void *shadow_end)
{
	for (unsigned long va = (unsigned long)shadow_start; va < (unsigned long)shadow_end;
	     va += 1UL << PGDIR_SHIFT) {
		u64 *e = &init_top_pgt[idx(va, PGDIR_SHIFT)];

		if (!(*e & _PAGE_PRESENT))
			*e = __pa_symbol(kasan_early_shadow_pud) | KASAN_TABLE;
	}
	return 0;
}

static void kasan_build_early_tables(u64 zero_prot)
{
	for (int i = 0; i < 512; i++) {
		kasan_early_shadow_pte[i] = __pa_symbol(kasan_early_shadow_page) | zero_prot;
		kasan_early_shadow_pmd[i] = __pa_symbol(kasan_early_shadow_pte) | KASAN_TABLE;
		kasan_early_shadow_pud[i] = __pa_symbol(kasan_early_shadow_pmd) | KASAN_TABLE;
	}
}

void kasan_init(void)
{
	const u64 zero_ro = _PAGE_PRESENT | _PAGE_GLOBAL | _PAGE_NX | _PAGE_ACCESSED;

	kasan_build_early_tables(zero_ro & __supported_pte_mask);
	kasan_populate_early_shadow((void *)KASAN_SHADOW_START, (void *)KASAN_SHADOW_END);

	/* As paging_init(): the ISA range, then every RAM region. */
	kasan_populate_shadow(__va(0), __va(SZ_1M));
	for (unsigned long i = 0; i < memblock.memory.cnt; i++) {
		struct memblock_region *r = &memblock.memory.regions[i];

		kasan_populate_shadow(__va(r->base), __va(r->base + r->size));
	}
	kasan_populate_shadow(_text, _end);

	__real_memset(kasan_early_shadow_page, 0, PAGE_SIZE);
	write_cr3(__pa(init_top_pgt));
	WRITE_ONCE(kasan_shadow_ready, true);
	pr_info("kasan: KernelAddressSanitizer initialized (generic, outline): shadow at %#lx, %lu KiB populated\n",
		KASAN_SHADOW_OFFSET, kasan_populated_pages * (PAGE_SIZE >> 10));
}
