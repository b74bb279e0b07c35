// SPDX-License-Identifier: GPL-2.0
/*
 * The dynamic per-CPU allocator: __alloc_percpu(), free_percpu().
 *
 * Design.  Per-CPU areas are units at PCPU_BASE + cpu * PCPU_UNIT_STRIDE
 * (arch/x86/kernel/setup_percpu.c), so the same offset from a unit's base
 * is the same object in every CPU's unit and __per_cpu_offset[cpu] (the
 * unit minus __per_cpu_start) turns one pointer into any CPU's copy.
 * After the static copy each unit holds dynamic chunks of
 * PCPU_CHUNK_SIZE at the same offsets in every unit:
 *
 *   unit of CPU c:  [static .data..percpu][chunk 0][chunk 1]...
 *                   ^ PCPU_BASE + c * PCPU_UNIT_STRIDE
 *
 * Chunk 0 is mapped with the units at boot (memblock), so per-CPU memory
 * exists before the page allocator (the zones' page lists live there).
 * Later chunks are mapped on demand in every possible CPU's unit, from
 * pages on that CPU's node.  A returned pointer p is
 *   __per_cpu_start + offset-in-unit,
 * the same form as &static_per_cpu_var, so per_cpu_ptr(p, cpu) ==
 * p + __per_cpu_offset[cpu] and this_cpu_*() on *p are single
 * %gs-relative instructions.
 *
 * Inside a chunk, space is handed out in PCPU_MIN_ALLOC_SIZE units with
 * two bitmaps: alloc_map (unit in use) and bound_map (a set bit starts an
 * allocation and another set bit ends it; freeing leaves the bits, the
 * next allocation rewrites them).  Chunks are never depopulated.
 */
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/spinlock.h>
#include <linux/vmalloc.h>
#include <asm/pgtable.h>
#include "internal.h"

#define PCPU_CHUNK_BITS		(PCPU_CHUNK_SIZE / PCPU_MIN_ALLOC_SIZE)
#define PCPU_MAX_CHUNKS		256

struct pcpu_chunk {
	unsigned int idx;		/* position in every unit */
	unsigned long free_bytes;
	DECLARE_BITMAP(alloc_map, PCPU_CHUNK_BITS);
	DECLARE_BITMAP(bound_map, PCPU_CHUNK_BITS + 1);
};

/* Chunk 0 is mapped with the units by setup_per_cpu_areas(). */
static struct pcpu_chunk pcpu_first_chunk = {
	.idx = 0,
	.free_bytes = PCPU_CHUNK_SIZE,
};
static struct pcpu_chunk *pcpu_chunks[PCPU_MAX_CHUNKS] = { &pcpu_first_chunk };
static unsigned int pcpu_nr_chunks_populated = 1;

/* The bitmaps and the chunk array. */
static DEFINE_SPINLOCK(pcpu_lock);
/*
 * Serialises populating a new chunk, which allocates and maps pages
 * (GFP_KERNEL): a sleeping lock's job, so it does not disable preemption
 * (Linux: pcpu_alloc_mutex; a mutex once irqlab has them).
 */
static unsigned long pcpu_populate_busy;

static unsigned long chunk_unit_offset(unsigned int idx)
{
	return pcpu_dynamic_offset() + (unsigned long)idx * PCPU_CHUNK_SIZE;
}

static void __percpu *chunk_ptr(struct pcpu_chunk *chunk, unsigned long bit)
{
	return (void __percpu *)((unsigned long)__per_cpu_start +
				 chunk_unit_offset(chunk->idx) + bit * PCPU_MIN_ALLOC_SIZE);
}

/* Find and take @bits units at @align_bits alignment; -1 if none. */
static long pcpu_alloc_area(struct pcpu_chunk *chunk, unsigned long bits,
			    unsigned long align_bits)
{
	unsigned long start = 0;

	if (chunk->free_bytes < bits * PCPU_MIN_ALLOC_SIZE)
		return -1;
	for (;;) {
		unsigned long busy;

		start = find_next_zero_bit(chunk->alloc_map, PCPU_CHUNK_BITS, start);
		start = ALIGN(start, align_bits);
		if (start + bits > PCPU_CHUNK_BITS)
			return -1;
		busy = find_next_bit(chunk->alloc_map, PCPU_CHUNK_BITS, start);
		if (busy >= start + bits)
			break;
		start = busy + 1;
	}
	for (unsigned long i = start; i < start + bits; i++) {
		__set_bit(i, chunk->alloc_map);
		__clear_bit(i, chunk->bound_map);
	}
	__set_bit(start, chunk->bound_map);
	__set_bit(start + bits, chunk->bound_map);
	chunk->free_bytes -= bits * PCPU_MIN_ALLOC_SIZE;
	return start;
}

/* Map chunk @idx in every possible CPU's unit; false (and nothing mapped) on failure. */
static bool pcpu_populate_chunk(unsigned int idx, gfp_t gfp)
{
	unsigned long off = chunk_unit_offset(idx);
	int cpu;

	for_each_possible_cpu(cpu) {
		unsigned long unit = PCPU_BASE + cpu * PCPU_UNIT_STRIDE + off;

		for (unsigned long p = 0; p < PCPU_CHUNK_SIZE; p += PAGE_SIZE) {
			struct page *page = alloc_pages_node(cpu_to_node(cpu),
							     gfp | __GFP_ZERO, 0);

			if (!page)
				goto fail;
			map_kernel_page(unit + p, page_to_phys(page), PAGE_KERNEL);
		}
	}
	return true;
fail:
	/* Never used by anyone: no other CPU can have these in its TLB. */
	for_each_possible_cpu(cpu) {
		unsigned long unit = PCPU_BASE + cpu * PCPU_UNIT_STRIDE + off;

		for (unsigned long p = 0; p < PCPU_CHUNK_SIZE; p += PAGE_SIZE) {
			phys_addr_t pa = unmap_kernel_page(unit + p);

			if (pa)
				__free_page(pfn_to_page(PFN_DOWN(pa)));
		}
	}
	return false;
}

/* Add a chunk; false if out of memory or out of unit space. */
static bool pcpu_create_chunk(gfp_t gfp)
{
	unsigned int seen = READ_ONCE(pcpu_nr_chunks_populated);
	struct pcpu_chunk *chunk = NULL;
	unsigned long flags;
	bool ok = true;

	while (test_and_set_bit(0, &pcpu_populate_busy))
		cpu_relax();
	if (READ_ONCE(pcpu_nr_chunks_populated) != seen)
		goto out;		/* someone else just added one: retry */
	if (seen == PCPU_MAX_CHUNKS ||
	    chunk_unit_offset(seen + 1) > PCPU_UNIT_STRIDE) {
		ok = false;
		goto out;
	}
	chunk = (void *)__get_free_pages(gfp | __GFP_ZERO, get_order(sizeof(*chunk)));
	if (!chunk || !pcpu_populate_chunk(seen, gfp)) {
		if (chunk)
			free_pages((unsigned long)chunk, get_order(sizeof(*chunk)));
		ok = false;
		goto out;
	}
	chunk->idx = seen;
	chunk->free_bytes = PCPU_CHUNK_SIZE;
	spin_lock_irqsave(&pcpu_lock, flags);
	pcpu_chunks[seen] = chunk;
	WRITE_ONCE(pcpu_nr_chunks_populated, seen + 1);
	spin_unlock_irqrestore(&pcpu_lock, flags);
out:
	clear_bit(0, &pcpu_populate_busy);
	return ok;
}

void __percpu *__alloc_percpu_gfp(size_t size, size_t align, gfp_t gfp_mask)
{
	unsigned long bits, align_bits, flags;
	void __percpu *ptr = NULL;
	int cpu;

	if (unlikely(!size || size > PCPU_CHUNK_SIZE || align > PAGE_SIZE ||
		     (align & (align - 1)))) {
		pr_warn("percpu: illegal size (%zu) or align (%zu) for percpu allocation\n",
			size, align);
		WARN_ON(1);
		return NULL;
	}
	/* No units before setup_per_cpu_areas(): nothing to hand out yet. */
	if (WARN_ON_ONCE(!per_cpu_offset(0)))
		return NULL;
	align = max_t(size_t, align, PCPU_MIN_ALLOC_SIZE);
	bits = DIV_ROUND_UP(size, PCPU_MIN_ALLOC_SIZE);
	align_bits = align / PCPU_MIN_ALLOC_SIZE;
	for (;;) {
		spin_lock_irqsave(&pcpu_lock, flags);
		for (unsigned int i = 0; i < pcpu_nr_chunks_populated && !ptr; i++) {
			long bit = pcpu_alloc_area(pcpu_chunks[i], bits, align_bits);

			if (bit >= 0)
				ptr = chunk_ptr(pcpu_chunks[i], bit);
		}
		spin_unlock_irqrestore(&pcpu_lock, flags);
		if (ptr)
			break;
		if (!gfpflags_allow_blocking(gfp_mask) || irqs_disabled() || !after_bootmem ||
		    !pcpu_create_chunk(gfp_mask)) {
			if (!(gfp_mask & __GFP_NOWARN) && page_alloc_ratelimit())
				pr_warn("percpu: allocation failed, size=%zu align=%zu, %u chunks of %lu bytes\n",
					size, align, pcpu_nr_chunks_populated, PCPU_CHUNK_SIZE);
			return NULL;
		}
	}
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(ptr, cpu), 0, size);
	return ptr;
}

void __percpu *__alloc_percpu(size_t bytes, size_t align)
{
	return __alloc_percpu_gfp(bytes, align, GFP_KERNEL);
}

void free_percpu(void __percpu *ptr)
{
	unsigned long off, idx, bit, end, flags;
	struct pcpu_chunk *chunk;

	if (!ptr)
		return;
	off = (unsigned long)ptr - (unsigned long)__per_cpu_start - pcpu_dynamic_offset();
	idx = off / PCPU_CHUNK_SIZE;
	bit = (off % PCPU_CHUNK_SIZE) / PCPU_MIN_ALLOC_SIZE;
	spin_lock_irqsave(&pcpu_lock, flags);
	chunk = idx < pcpu_nr_chunks_populated ? pcpu_chunks[idx] : NULL;
	if (!chunk || off % PCPU_MIN_ALLOC_SIZE || !test_bit(bit, chunk->alloc_map) ||
	    !test_bit(bit, chunk->bound_map)) {
		spin_unlock_irqrestore(&pcpu_lock, flags);
		pr_err("free_percpu: %016lx is not an allocated per-CPU pointer (double free?)\n",
		       (unsigned long)ptr);
		WARN_ON(1);
		return;
	}
	end = find_next_bit(chunk->bound_map, PCPU_CHUNK_BITS + 1, bit + 1);
	for (unsigned long i = bit; i < end; i++)
		__clear_bit(i, chunk->alloc_map);
	chunk->free_bytes += (end - bit) * PCPU_MIN_ALLOC_SIZE;
	spin_unlock_irqrestore(&pcpu_lock, flags);
}

bool is_percpu_unit_address(unsigned long addr)
{
	return addr >= PCPU_BASE && addr < PCPU_BASE + nr_cpu_ids * PCPU_UNIT_STRIDE;
}

unsigned int pcpu_nr_chunks(void)
{
	return READ_ONCE(pcpu_nr_chunks_populated);
}

/*
 * Pages behind the per-CPU areas: each possible CPU's unit holds the static
 * copy and every populated chunk, so this grows with CPUs times chunks.
 */
unsigned long pcpu_nr_pages(void)
{
	unsigned long unit = pcpu_dynamic_offset() + pcpu_nr_chunks() * PCPU_CHUNK_SIZE;

	return num_possible_cpus() * (unit >> PAGE_SHIFT);
}

void percpu_init(void)
{
	BUILD_BUG_ON(PCPU_CHUNK_SIZE % PAGE_SIZE);
	pr_info("percpu: dynamic chunks of %lu bytes from unit offset %#lx, up to %u\n",
		PCPU_CHUNK_SIZE, pcpu_dynamic_offset(), PCPU_MAX_CHUNKS);
}
