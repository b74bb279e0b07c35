// SPDX-License-Identifier: GPL-2.0
/*
 * KASAN's shadow on x86_64 (Linux's arch/x86/mm/kasan_init_64.c, 4-level
 * paging, without KASAN_VMALLOC).
 *  - kasan_early_init(), called by head.S before the first C function:
 *    the whole shadow range [KASAN_SHADOW_START, KASAN_SHADOW_END) maps
 *    to one *writable* zero page.  The stack instrumentation's prologues
 *    write the shadow of their frames unconditionally, so it must exist
 *    from the start; what they write there is garbage nobody reads (the
 *    checks wait for kasan_init()).  paging_init() puts the same early
 *    tables into init_top_pgt before switching to it.
 *  - kasan_init(), right after paging_init(), while memblock still owns
 *    all memory: the shadow of the direct map of every RAM region, of
 *    the kernel image and of the CPU entry area (the IRQ, IST and AP idle
 *    stacks) is populated with real, zeroed pages from memblock; the
 *    shared early tables are copied on the way down, never written.  The
 *    zero page is then cleared and becomes read only, and the checks are
 *    switched on.  Every stack must lie in real shadow from here on: a
 *    prologue writing to the read-only zero page faults.
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
#include <asm/cpu_entry_area.h>

extern bool kasan_shadow_ready;
void *__real_memset(void *s, int c, size_t n);

#define KASAN_TABLE	(_PAGE_PRESENT | _PAGE_RW)
#define KASAN_SHADOW_PROT (_PAGE_PRESENT | _PAGE_RW | _PAGE_GLOBAL | _PAGE_NX | \
			   _PAGE_ACCESSED | _PAGE_DIRTY)

static unsigned long kasan_populated_pages;

/*
 * The zero page's entries: writable until kasan_init() is done (no NX
 * yet: head.S has not necessarily enabled it, and no global bit, so the
 * CR3 switch at the end drops every writable translation), read only
 * after.
 */
#define KASAN_ZERO_EARLY	(_PAGE_PRESENT | _PAGE_RW | _PAGE_ACCESSED | _PAGE_DIRTY)
#define KASAN_ZERO_FINAL	(_PAGE_PRESENT | _PAGE_GLOBAL | _PAGE_NX | _PAGE_ACCESSED)

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
	if (!(e & _PAGE_PRESENT)) {
		/* nothing to copy */
	} else if (shared == kasan_early_shadow_pte) {
		/* The neighbours of a populated page: already read only. */
		for (int i = 0; i < 512; i++)
			t[i] = __pa_symbol(kasan_early_shadow_page) |
			       (KASAN_ZERO_FINAL & __supported_pte_mask);
	} else {
		memcpy(t, shared, PAGE_SIZE);
	}
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
 * Map the shadow [shadow_start, shadow_end) of @pgd to the zero page,
 * whole PML4 slots only (the shadow range is 32 of them); slots already
 * present are left alone.
 */
static void kasan_map_shadow_slots(u64 *pgd, unsigned long start, unsigned long end)
{
	for (unsigned long va = start; va < end; va += 1UL << PGDIR_SHIFT) {
		u64 *e = &pgd[idx(va, PGDIR_SHIFT)];

		if (!(*e & _PAGE_PRESENT))
			*e = __pa_symbol(kasan_early_shadow_pud) | KASAN_TABLE;
	}
}

int kasan_populate_early_shadow(const void *shadow_start, const void *shadow_end)
{
	kasan_map_shadow_slots(init_top_pgt, (unsigned long)shadow_start,
			       (unsigned long)shadow_end);
	return 0;
}

/* paging_init(): the new top table gets the early shadow before CR3 does. */
void kasan_map_early_shadow(u64 *pgd)
{
	kasan_map_shadow_slots(pgd, KASAN_SHADOW_START, KASAN_SHADOW_END);
}

static void kasan_build_early_tables(u64 zero_prot)
{
	for (int i = 0; i < 512; i++) {
		kasan_early_shadow_pte[i] = __pa_symbol(kasan_early_shadow_page) | zero_prot;
		kasan_early_shadow_pmd[i] = __pa_symbol(kasan_early_shadow_pte) | KASAN_TABLE;
		kasan_early_shadow_pud[i] = __pa_symbol(kasan_early_shadow_pmd) | KASAN_TABLE;
	}
}

/*
 * From head.S, on the boot stack, with head.S's tables (the direct map of
 * the low 4 GiB reaches them) and nothing but .bss zeroed: uninstrumented
 * like all of this file, and calling nothing that is.
 */
void kasan_early_init(void)
{
	kasan_build_early_tables(KASAN_ZERO_EARLY);
	kasan_map_early_shadow(__va(read_cr3() & PTE_PFN_MASK));
	write_cr3(read_cr3());
}

void kasan_init(void)
{
	/* As paging_init(): the ISA range, then every RAM region. */
	kasan_populate_shadow(__va(0), __va(SZ_1M));
	for (unsigned long i = 0; i < memblock.memory.cnt; i++) {
		struct memblock_region *r = &memblock.memory.regions[i];

		kasan_populate_shadow(__va(r->base), __va(r->base + r->size));
	}
	kasan_populate_shadow(_text, _end);
	/* As Linux's shadow_cpu_entry_begin/end: the per-CPU entry stacks. */
	kasan_populate_shadow((void *)CPU_ENTRY_AREA_BASE,
			      (void *)(CPU_ENTRY_AREA_BASE + CONFIG_NR_CPUS * CEA_PER_CPU_SIZE));

	/*
	 * Nothing instrumented runs from here to the CR3 write: the zero
	 * page turns read only and loses what early prologues wrote into it.
	 */
	kasan_build_early_tables(KASAN_ZERO_FINAL & __supported_pte_mask);
	__real_memset(kasan_early_shadow_page, 0, PAGE_SIZE);
	write_cr3(__pa(init_top_pgt));
	WRITE_ONCE(kasan_shadow_ready, true);
	pr_info("kasan: KernelAddressSanitizer initialized (generic, outline): shadow at %#lx, %lu KiB populated%s\n",
		KASAN_SHADOW_OFFSET, kasan_populated_pages * (PAGE_SIZE >> 10),
		IS_ENABLED(CONFIG_KASAN_STACK) ? ", stack instrumented" : "");
}
