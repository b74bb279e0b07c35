/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_MEMBLOCK_H
#define _LINUX_MEMBLOCK_H

#include <linux/types.h>

#define INIT_MEMBLOCK_REGIONS	128
#define MEMBLOCK_ALLOC_ANYWHERE	(~(phys_addr_t)0)

struct memblock_region {
	phys_addr_t base;
	phys_addr_t size;
};

struct memblock_type {
	unsigned long cnt;
	unsigned long max;
	phys_addr_t total_size;
	struct memblock_region *regions;
	const char *name;
};

/*
 * Boot-time memory: what RAM exists (memory) and what of it is in use
 * (reserved).  Regions in each type are sorted, disjoint and never
 * adjacent (adjacent ones are merged).
 */
struct memblock {
	phys_addr_t current_limit;	/* allocations stay below this */
	struct memblock_type memory;
	struct memblock_type reserved;
};

extern struct memblock memblock;

int memblock_add(phys_addr_t base, phys_addr_t size);
int memblock_remove(phys_addr_t base, phys_addr_t size);
int memblock_reserve(phys_addr_t base, phys_addr_t size);
int memblock_free(phys_addr_t base, phys_addr_t size);
phys_addr_t memblock_phys_alloc_range(phys_addr_t size, phys_addr_t align,
				      phys_addr_t start, phys_addr_t end);
phys_addr_t memblock_phys_alloc(phys_addr_t size, phys_addr_t align);
/* Zeroed memory through the direct map; panics on failure (boot only). */
void *memblock_alloc(phys_addr_t size, phys_addr_t align);
void memblock_set_current_limit(phys_addr_t limit);

phys_addr_t memblock_start_of_DRAM(void);
phys_addr_t memblock_end_of_DRAM(void);
phys_addr_t memblock_phys_mem_size(void);
phys_addr_t memblock_reserved_size(void);
bool memblock_is_memory(phys_addr_t addr);
bool memblock_is_reserved(phys_addr_t addr);
void memblock_dump_all(void);

/* Operations on an explicit instance, for tests. */
int memblock_add_range(struct memblock_type *type, phys_addr_t base, phys_addr_t size);
int memblock_remove_range(struct memblock_type *type, phys_addr_t base, phys_addr_t size);
phys_addr_t memblock_find_in_range(struct memblock *mb, phys_addr_t size,
				   phys_addr_t align, phys_addr_t start,
				   phys_addr_t end);
phys_addr_t __memblock_alloc_range(struct memblock *mb, phys_addr_t size,
				   phys_addr_t align, phys_addr_t start,
				   phys_addr_t end);

/*
 * Walk free ranges (memory minus reserved) from low to high:
 *	u64 i = 0; phys_addr_t s, e;
 *	while (memblock_next_free_range(&memblock, &i, &s, &e)) ...
 */
bool memblock_next_free_range(struct memblock *mb, u64 *idx,
			      phys_addr_t *start, phys_addr_t *end);

#endif
