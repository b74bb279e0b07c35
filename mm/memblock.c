// SPDX-License-Identifier: GPL-2.0
/*
 * memblock: the boot-time physical memory allocator.  It knows the RAM the
 * loader reported and the parts of it that are taken (kernel image, loader
 * data, early page tables, allocations), and hands out memory top-down
 * below current_limit until the page allocator takes over.
 */
#include <linux/kernel.h>
#include <linux/memblock.h>
#include <linux/errno.h>
#include <asm/page.h>

static struct memblock_region memory_regions[INIT_MEMBLOCK_REGIONS];
static struct memblock_region reserved_regions[INIT_MEMBLOCK_REGIONS];

struct memblock memblock = {
	.current_limit = MEMBLOCK_ALLOC_ANYWHERE,
	.memory = { .max = INIT_MEMBLOCK_REGIONS, .regions = memory_regions,
		    .name = "memory" },
	.reserved = { .max = INIT_MEMBLOCK_REGIONS, .regions = reserved_regions,
		      .name = "reserved" },
};

/* Clamp so that base + size cannot wrap. */
static phys_addr_t memblock_cap_size(phys_addr_t base, phys_addr_t *size)
{
	return *size = min(*size, (phys_addr_t)-1 - base);
}

static void memblock_remove_region(struct memblock_type *type, unsigned long r)
{
	type->total_size -= type->regions[r].size;
	memmove(&type->regions[r], &type->regions[r + 1],
		(type->cnt - r - 1) * sizeof(type->regions[r]));
	type->cnt--;
}

static int memblock_insert_region(struct memblock_type *type, unsigned long idx,
				  phys_addr_t base, phys_addr_t size)
{
	if (type->cnt >= type->max) {
		pr_err("memblock: %s: no room for region [%#llx-%#llx] (max %lu)\n",
		       type->name, (unsigned long long)base,
		       (unsigned long long)(base + size - 1), type->max);
		return -ENOMEM;
	}
	memmove(&type->regions[idx + 1], &type->regions[idx],
		(type->cnt - idx) * sizeof(type->regions[idx]));
	type->regions[idx] = (struct memblock_region){ base, size };
	type->cnt++;
	type->total_size += size;
	return 0;
}

/*
 * Add [base, base + size) to @type, merging with every region it overlaps
 * or touches, so the sorted/disjoint/non-adjacent invariant holds after.
 */
int memblock_add_range(struct memblock_type *type, phys_addr_t base, phys_addr_t size)
{
	phys_addr_t end;
	unsigned long i = 0;

	if (!memblock_cap_size(base, &size))
		return 0;
	end = base + size;
	while (i < type->cnt && type->regions[i].base + type->regions[i].size < base)
		i++;
	/* Swallow every region that overlaps or touches [base, end). */
	while (i < type->cnt && type->regions[i].base <= end) {
		struct memblock_region *r = &type->regions[i];

		base = min(base, r->base);
		end = max(end, r->base + r->size);
		memblock_remove_region(type, i);
	}
	return memblock_insert_region(type, i, base, end - base);
}

/* Remove [base, base + size) from @type, splitting regions that straddle it. */
int memblock_remove_range(struct memblock_type *type, phys_addr_t base, phys_addr_t size)
{
	phys_addr_t end;
	unsigned long i = 0;

	if (!memblock_cap_size(base, &size))
		return 0;
	end = base + size;
	while (i < type->cnt) {
		struct memblock_region r = type->regions[i];
		phys_addr_t rend = r.base + r.size;

		if (rend <= base) {
			i++;
			continue;
		}
		if (r.base >= end)
			break;
		memblock_remove_region(type, i);
		if (r.base < base) {
			if (memblock_insert_region(type, i, r.base, base - r.base))
				return -ENOMEM;
			i++;
		}
		if (rend > end) {
			if (memblock_insert_region(type, i, end, rend - end))
				return -ENOMEM;
			i++;
		}
	}
	return 0;
}

int memblock_add(phys_addr_t base, phys_addr_t size)
{
	return memblock_add_range(&memblock.memory, base, size);
}

int memblock_remove(phys_addr_t base, phys_addr_t size)
{
	return memblock_remove_range(&memblock.memory, base, size);
}

int memblock_reserve(phys_addr_t base, phys_addr_t size)
{
	return memblock_add_range(&memblock.reserved, base, size);
}

int memblock_free(phys_addr_t base, phys_addr_t size)
{
	return memblock_remove_range(&memblock.reserved, base, size);
}

bool memblock_next_free_range(struct memblock *mb, u64 *idx,
			      phys_addr_t *start, phys_addr_t *end)
{
	/* idx: memory region in the high half, reserved gap in the low half */
	u64 mi = *idx >> 32, ri = *idx & 0xffffffff;
	struct memblock_type *mem = &mb->memory, *rsv = &mb->reserved;

	for (; mi < mem->cnt; mi++, ri = 0) {
		phys_addr_t m_start = mem->regions[mi].base;
		phys_addr_t m_end = m_start + mem->regions[mi].size;

		/* Gaps between reserved regions: gap ri runs from the end of
		 * reserved[ri - 1] to the start of reserved[ri]. */
		for (; ri <= rsv->cnt; ri++) {
			phys_addr_t g_start = ri ? rsv->regions[ri - 1].base +
						   rsv->regions[ri - 1].size : 0;
			phys_addr_t g_end = ri < rsv->cnt ? rsv->regions[ri].base :
							    (phys_addr_t)-1;

			if (g_start >= m_end)
				break;
			if (g_end <= m_start)
				continue;
			*start = max(m_start, g_start);
			*end = min(m_end, g_end);
			*idx = (mi << 32) | (ri + 1);
			return true;
		}
	}
	*idx = ~0ULL;
	return false;
}

phys_addr_t memblock_find_in_range(struct memblock *mb, phys_addr_t size,
				   phys_addr_t align, phys_addr_t start,
				   phys_addr_t end)
{
	phys_addr_t found = 0, s, e;
	u64 i = 0;

	if (end > mb->current_limit)
		end = mb->current_limit;
	start = max(start, (phys_addr_t)PAGE_SIZE);	/* never hand out 0 */
	/* Top-down: keep the highest fit. */
	while (memblock_next_free_range(mb, &i, &s, &e)) {
		phys_addr_t cand;

		s = max(s, start);
		e = min(e, end);
		if (e <= s || e - s < size)
			continue;
		cand = ALIGN_DOWN(e - size, align);
		if (cand >= s)
			found = max(found, cand);
	}
	return found;
}

phys_addr_t __memblock_alloc_range(struct memblock *mb, phys_addr_t size,
				   phys_addr_t align, phys_addr_t start,
				   phys_addr_t end)
{
	phys_addr_t pa;

	if (!align || (align & (align - 1)))
		return 0;
	/* mm_init() sets the limit to 0 when it hands memory to the buddy allocator. */
	if (mb == &memblock && !mb->current_limit) {
		pr_err("memblock: allocation of %llu bytes after mm_init(): use the page allocator\n",
		       (unsigned long long)size);
		WARN_ON_ONCE(1);
		return 0;
	}
	pa = memblock_find_in_range(mb, size, align, start, end);
	if (pa && memblock_add_range(&mb->reserved, pa, size))
		return 0;
	return pa;
}

phys_addr_t memblock_phys_alloc_range(phys_addr_t size, phys_addr_t align,
				      phys_addr_t start, phys_addr_t end)
{
	return __memblock_alloc_range(&memblock, size, align, start, end);
}

phys_addr_t memblock_phys_alloc(phys_addr_t size, phys_addr_t align)
{
	return memblock_phys_alloc_range(size, align, 0, MEMBLOCK_ALLOC_ANYWHERE);
}

void *memblock_alloc(phys_addr_t size, phys_addr_t align)
{
	phys_addr_t pa = memblock_phys_alloc(size, align);
	void *p;

	if (!pa)
		panic("memblock: cannot allocate %llu bytes aligned to %#llx",
		      (unsigned long long)size, (unsigned long long)align);
	p = __va(pa);
	memset(p, 0, size);
	return p;
}

void memblock_set_current_limit(phys_addr_t limit)
{
	memblock.current_limit = limit;
}

phys_addr_t memblock_start_of_DRAM(void)
{
	return memblock.memory.cnt ? memblock.memory.regions[0].base : 0;
}

phys_addr_t memblock_end_of_DRAM(void)
{
	unsigned long n = memblock.memory.cnt;

	return n ? memblock.memory.regions[n - 1].base +
		   memblock.memory.regions[n - 1].size : 0;
}

phys_addr_t memblock_phys_mem_size(void)
{
	return memblock.memory.total_size;
}

phys_addr_t memblock_reserved_size(void)
{
	return memblock.reserved.total_size;
}

static bool memblock_type_contains(struct memblock_type *type, phys_addr_t addr)
{
	for (unsigned long i = 0; i < type->cnt; i++)
		if (addr >= type->regions[i].base &&
		    addr - type->regions[i].base < type->regions[i].size)
			return true;
	return false;
}

bool memblock_is_memory(phys_addr_t addr)
{
	return memblock_type_contains(&memblock.memory, addr);
}

bool memblock_is_reserved(phys_addr_t addr)
{
	return memblock_type_contains(&memblock.reserved, addr);
}

static void memblock_dump(struct memblock_type *type)
{
	pr_info(" %s.cnt  = 0x%lx\n", type->name, type->cnt);
	for (unsigned long i = 0; i < type->cnt; i++) {
		struct memblock_region *r = &type->regions[i];

		pr_info(" %s[0x%lx]\t[0x%016llx-0x%016llx], 0x%016llx bytes\n",
			type->name, i, (unsigned long long)r->base,
			(unsigned long long)(r->base + r->size - 1),
			(unsigned long long)r->size);
	}
}

void memblock_dump_all(void)
{
	pr_info("MEMBLOCK configuration:\n");
	pr_info(" memory size = 0x%llx reserved size = 0x%llx\n",
		(unsigned long long)memblock.memory.total_size,
		(unsigned long long)memblock.reserved.total_size);
	memblock_dump(&memblock.memory);
	memblock_dump(&memblock.reserved);
}
