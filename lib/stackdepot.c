// SPDX-License-Identifier: GPL-2.0
/*
 * The stack depot: call stacks stored once each, in a fixed pool, found
 * again through a hash table of chains and named by a handle that encodes
 * where in the pool a stack lives.
 *
 * Linux's lib/stackdepot.c grows its storage by 16 KiB "slabs" taken from
 * the page allocator while saving.  irqlab's depot is a static pool of
 * CONFIG_STACKDEPOT_POOL_KB kilobytes: KASAN saves a stack inside every
 * slab allocation and free, and a page allocation there would re-enter
 * the allocator that is being instrumented.  When the pool is full new
 * stacks get handle 0 ("stack not available"), as when Linux's depot
 * reaches its cap; stacks already stored keep working.
 *
 * Lookups walk a chain without the lock (records are only ever added at
 * a chain's head, fully written before they are published); insertion
 * takes depot_lock, a raw spinlock with IRQs off, since saving happens in
 * any context, hard IRQ included.
 *
 * Not instrumented by KASAN (lib/Kbuild): its records live in memory
 * KASAN never unpoisons, and it runs inside KASAN's own hooks.
 */
#include <linux/stackdepot.h>
#include <linux/kernel.h>
#include <linux/spinlock.h>
#include <linux/printk.h>
#include <linux/kallsyms.h>
#include <linux/string.h>
#include <asm/barrier.h>

#define DEPOT_POOL_SIZE		((size_t)CONFIG_STACKDEPOT_POOL_KB * 1024)
/* Records start on 16-byte boundaries; a handle counts those units. */
#define DEPOT_ALIGN_SHIFT	4
#define DEPOT_HASH_ORDER	CONFIG_STACKDEPOT_HASH_ORDER
#define DEPOT_HASH_SIZE		(1U << DEPOT_HASH_ORDER)
#define DEPOT_HASH_MASK		(DEPOT_HASH_SIZE - 1)

struct stack_record {
	struct stack_record *next;	/* the next record of this chain */
	u32 hash;
	u32 size;			/* frames in entries[] */
	depot_stack_handle_t handle;
	unsigned long entries[];
};

static u8 depot_pool[DEPOT_POOL_SIZE] __aligned(1 << DEPOT_ALIGN_SHIFT);
static struct stack_record *stack_table[DEPOT_HASH_SIZE];
static size_t depot_offset;		/* first free byte of depot_pool */
static unsigned int depot_nr_stacks;
static bool depot_full_warned;
static DEFINE_RAW_SPINLOCK(depot_lock);

/*
 * A handle is the record's offset in 16-byte units plus one, so a valid
 * handle is never 0.  The pool is at most 64 MiB (Kconfig), which keeps
 * it inside 32 bits.
 */
static inline depot_stack_handle_t offset_to_handle(size_t offset)
{
	return (depot_stack_handle_t)(offset >> DEPOT_ALIGN_SHIFT) + 1;
}

static inline struct stack_record *handle_to_record(depot_stack_handle_t h)
{
	size_t offset = (size_t)(h - 1) << DEPOT_ALIGN_SHIFT;

	struct stack_record *r;

	if (!h || offset >= READ_ONCE(depot_offset))
		return NULL;
	/* A record knows its own handle: garbage does not pass. */
	r = (struct stack_record *)(depot_pool + offset);
	return r->handle == h ? r : NULL;
}

/*
 * Murmur-style mixing of every return address (the stacks differ mostly
 * in their low bits, so each word is multiplied through before it is
 * folded in).
 */
static u32 hash_stack(const unsigned long *entries, unsigned int n)
{
	u64 h = 0x9747b28cULL ^ n;

	for (unsigned int i = 0; i < n; i++) {
		u64 k = entries[i] * 0xff51afd7ed558ccdULL;

		k ^= k >> 33;
		h = (h ^ k) * 0xc4ceb9fe1a85ec53ULL;
		h ^= h >> 29;
	}
	return (u32)(h ^ (h >> 32));
}

/* Equality only; no library memcmp() (it may be instrumented). */
static bool same_entries(const unsigned long *a, const unsigned long *b,
			 unsigned int n)
{
	while (n--)
		if (*a++ != *b++)
			return false;
	return true;
}

static struct stack_record *find_stack(struct stack_record *chain,
				       const unsigned long *entries,
				       unsigned int n, u32 hash)
{
	for (struct stack_record *r = chain; r; r = READ_ONCE(r->next))
		if (r->hash == hash && r->size == n &&
		    same_entries(r->entries, entries, n))
			return r;
	return NULL;
}

/* Carve a record for @n frames off the pool; depot_lock held. */
static struct stack_record *depot_alloc_stack(const unsigned long *entries,
					      unsigned int n, u32 hash)
{
	size_t need = sizeof(struct stack_record) + n * sizeof(entries[0]);
	struct stack_record *r;

	need = ALIGN(need, 1UL << DEPOT_ALIGN_SHIFT);
	if (depot_offset + need > DEPOT_POOL_SIZE) {
		if (!depot_full_warned) {
			depot_full_warned = true;
			pr_warn("stackdepot: pool of %u KiB is full, new stacks are not kept\n",
				CONFIG_STACKDEPOT_POOL_KB);
		}
		return NULL;
	}
	r = (struct stack_record *)(depot_pool + depot_offset);
	r->hash = hash;
	r->size = n;
	r->handle = offset_to_handle(depot_offset);
	for (unsigned int i = 0; i < n; i++)
		r->entries[i] = entries[i];
	/* Readers check handles against depot_offset: publish it last. */
	smp_store_release(&depot_offset, depot_offset + need);
	depot_nr_stacks++;
	return r;
}

depot_stack_handle_t stack_depot_save(unsigned long *entries,
				      unsigned int nr_entries, gfp_t gfp_flags)
{
	struct stack_record **bucket, *found;
	unsigned long flags;
	u32 hash;

	(void)gfp_flags;	/* the pool never allocates */
	if (unlikely(!nr_entries))
		return 0;

	hash = hash_stack(entries, nr_entries);
	bucket = &stack_table[hash & DEPOT_HASH_MASK];

	/* Most stacks were seen before: no lock for those. */
	found = find_stack(smp_load_acquire(bucket), entries, nr_entries, hash);
	if (found)
		return found->handle;

	raw_spin_lock_irqsave(&depot_lock, flags);
	/* Someone may have stored it since the look above. */
	found = find_stack(*bucket, entries, nr_entries, hash);
	if (!found) {
		found = depot_alloc_stack(entries, nr_entries, hash);
		if (found) {
			found->next = *bucket;
			/* The record is complete before a reader can see it. */
			smp_store_release(bucket, found);
		}
	}
	raw_spin_unlock_irqrestore(&depot_lock, flags);

	return found ? found->handle : 0;
}

unsigned int stack_depot_fetch(depot_stack_handle_t handle,
			       unsigned long **entries)
{
	struct stack_record *r = handle_to_record(handle);

	*entries = NULL;
	if (!r) {
		if (handle)
			pr_err("stackdepot: handle %08x is not in the pool\n",
			       handle);
		return 0;
	}
	*entries = r->entries;
	return r->size;
}

void stack_depot_print(depot_stack_handle_t handle)
{
	char sym[KSYM_SYMBOL_LEN];
	unsigned long *entries;
	unsigned int n = stack_depot_fetch(handle, &entries);

	for (unsigned int i = 0; i < n; i++) {
		sprint_backtrace(sym, entries[i]);
		pr_err(" %s\n", sym);
	}
}

unsigned int stack_depot_nr_stacks(void)
{
	return READ_ONCE(depot_nr_stacks);
}

size_t stack_depot_pool_used(void)
{
	return READ_ONCE(depot_offset);
}
