// SPDX-License-Identifier: GPL-2.0
/*
 * The page allocator: struct page, buddy split/merge, per-CPU lists, GFP
 * semantics, bad-page detection, NUMA placement, free-memory records.
 *
 * The buddy lists merge every free pair, so the free-area counts are a
 * function of the set of free pages alone: any sequence of allocations
 * and frees that gives every page back (and drains the per-CPU lists)
 * must restore them exactly.  Most cases check that.
 */
#include <linux/ktest.h>
#include <linux/mm.h>
#include <linux/smp.h>
#include <linux/acpi.h>
#include <linux/record.h>
#include <linux/moduleparam.h>
#include <linux/errno.h>
#include <stdlib.h>
#include <asm/apic.h>
#include <asm/pgtable.h>
#include "page_alloc_test.h"
#include "slub_test.h"

int pa_expected_nodes;
core_param("ktest.nodes", pa_expected_nodes, int,
	   "NUMA nodes the test configuration set up (0: unknown)");

/* --------------------------------------------------------------- helpers */

static struct free_snapshot snap_before;

void pa_take_snapshot(struct free_snapshot *s)
{
	struct zone *zone;

	drain_all_pages(NULL);
	memset(s, 0, sizeof(*s));
	for_each_populated_zone(zone) {
		int nid = zone_to_nid(zone), z = zone_idx(zone);
		unsigned long flags;

		spin_lock_irqsave(&zone->lock, flags);
		for (int o = 0; o < MAX_ORDER; o++)
			s->nr_free[nid][z][o] = zone->free_area[o].nr_free;
		s->free_pages[nid][z] = zone_page_state(zone, NR_FREE_PAGES);
		spin_unlock_irqrestore(&zone->lock, flags);
	}
}

/* Every order of every zone equal; NR_FREE_PAGES consistent with the lists. */
int pa_expect_snapshot(struct ktest *t, const struct free_snapshot *want,
		       const char *when)
{
	static struct free_snapshot now;
	struct zone *zone;
	int bad = 0;

	pa_take_snapshot(&now);
	for_each_populated_zone(zone) {
		int nid = zone_to_nid(zone), z = zone_idx(zone);
		unsigned long sum = 0;

		for (int o = 0; o < MAX_ORDER; o++) {
			sum += now.nr_free[nid][z][o] << o;
			if (now.nr_free[nid][z][o] == want->nr_free[nid][z][o])
				continue;
			bad++;
			ktest_fail(t, __FILE__, __LINE__,
				   "%s: node %d %s order %d: %lu free blocks, expected %lu",
				   when, nid, zone->name, o, now.nr_free[nid][z][o],
				   want->nr_free[nid][z][o]);
		}
		KTEST_EXPECT_EQ(t, now.free_pages[nid][z], sum);
		KTEST_EXPECT_EQ(t, now.free_pages[nid][z], want->free_pages[nid][z]);
	}
	return bad;
}

u64 pa_rand(u64 *state)
{
	u64 x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *state = x;
}

unsigned long pa_snapshot_total(const struct free_snapshot *s)
{
	unsigned long sum = 0;

	for (int n = 0; n < MAX_NUMNODES; n++)
		for (int z = 0; z < MAX_NR_ZONES; z++)
			sum += s->free_pages[n][z];
	return sum;
}

/* ----------------------------------------------------------------- cases */

static void struct_page_layout(struct ktest *t)
{
	struct page *page = alloc_page(GFP_KERNEL);
	unsigned long pfn;

	KTEST_EXPECT_EQ(t, sizeof(struct page), 64);
	KTEST_EXPECT_EQ(t, offsetof(struct page, freelist), 32);
	KTEST_EXPECT_EQ(t, offsetof(struct page, counters), 40);
	KTEST_EXPECT_EQ(t, offsetof(struct page, slab_cache), 24);
	KTEST_EXPECT_EQ(t, offsetof(struct page, compound_head), 8);
	KTEST_EXPECT_EQ(t, offsetof(struct page, _refcount), 52);
	KTEST_EXPECT_EQ(t, (unsigned long)pfn_to_page(0), VMEMMAP_START);
	KTEST_ASSERT_TRUE(t, page != NULL);
	pfn = page_to_pfn(page);
	KTEST_EXPECT_EQ(t, (unsigned long)page - VMEMMAP_START, pfn * 64);
	KTEST_EXPECT_TRUE(t, IS_ALIGNED((unsigned long)&page->freelist, 16));
	KTEST_EXPECT_TRUE(t, pfn_valid(pfn));
	KTEST_EXPECT_EQ(t, (unsigned long)virt_to_page(page_address(page)), (unsigned long)page);
	KTEST_EXPECT_EQ(t, __pa(page_address(page)), PFN_PHYS(pfn));
	KTEST_EXPECT_EQ(t, (unsigned long)virt_to_head_page((char *)page_address(page) + 100),
			(unsigned long)page);
	KTEST_EXPECT_EQ(t, page_ref_count(page), 1);
	KTEST_EXPECT_EQ(t, page_mapcount(page), 0);
	KTEST_EXPECT_FALSE(t, PageReserved(page) || PageBuddy(page) || PageCompound(page));
	KTEST_EXPECT_EQ(t, page_zonenum(page), PFN_PHYS(pfn) < SZ_4G ? ZONE_DMA32 : ZONE_NORMAL);
	KTEST_EXPECT_EQ(t, page_to_nid(page), zone_to_nid(page_zone(page)));
	KTEST_EXPECT_TRUE(t, zone_spans_pfn(page_zone(page), pfn));
	/* The kernel image and the first page are reserved, never free. */
	KTEST_EXPECT_TRUE(t, PageReserved(virt_to_page(__va(__pa_symbol(&pa_expected_nodes)))));
	KTEST_EXPECT_TRUE(t, PageReserved(pfn_to_page(0)));
	__free_page(page);
}

#define HELD_MAX	256

static struct held_block {
	struct page *page;
	unsigned int order;
} held[HELD_MAX];

/* A fixed-seed random mix of orders, flags and free order; all freed at the end. */
static void alloc_free_restores_free_areas(struct ktest *t)
{
	u64 seed = 0x5eed0f1a11c8ULL;
	unsigned int nheld = 0, allocs = 0, frees = 0, failures = 0;

	pa_take_snapshot(&snap_before);
	for (int op = 0; op < 4000; op++) {
		u64 r = pa_rand(&seed);
		bool do_alloc = nheld == 0 || (nheld < HELD_MAX && (r & 3) != 0 && (r & 7) != 1);

		if (do_alloc) {
			/* Mostly small blocks, now and then up to MAX_ORDER - 1. */
			unsigned int order = (r >> 8) % 4 ? (r >> 12) % 4 : (r >> 12) % MAX_ORDER;
			gfp_t gfp = GFP_KERNEL | ((r >> 20) & 1 ? __GFP_COMP : 0) |
				    ((r >> 21) % 16 ? 0 : __GFP_ZERO) | __GFP_NOWARN;
			struct page *page = alloc_pages(gfp, order);

			if (!page) {
				failures++;
				continue;
			}
			/* Touch it: a block handed out twice would show up as overlap. */
			*(unsigned long *)page_address(page) = op;
			held[nheld++] = (struct held_block){ page, order };
			allocs++;
		} else {
			unsigned int i = (r >> 24) % nheld;

			__free_pages(held[i].page, held[i].order);
			held[i] = held[--nheld];
			frees++;
		}
	}
	/* Any order of frees: from the middle outwards. */
	while (nheld) {
		unsigned int i = nheld / 2;

		__free_pages(held[i].page, held[i].order);
		held[i] = held[--nheld];
		frees++;
	}
	ktest_info(t, "%u allocations, %u frees, %u failures", allocs, frees, failures);
	KTEST_EXPECT_EQ(t, failures, 0);
	KTEST_EXPECT_EQ(t, pa_expect_snapshot(t, &snap_before, "after random alloc/free"), 0);
}

static void compound_pages(struct ktest *t)
{
	struct page *head = alloc_pages(GFP_KERNEL | __GFP_COMP, 3);
	struct page *plain = alloc_pages(GFP_KERNEL, 2);

	KTEST_ASSERT_TRUE(t, head && plain);
	KTEST_EXPECT_TRUE(t, PageHead(head));
	KTEST_EXPECT_FALSE(t, PageTail(head));
	KTEST_EXPECT_EQ(t, compound_order(head), 3);
	KTEST_EXPECT_EQ(t, compound_nr(head), 8);
	KTEST_EXPECT_EQ(t, page_size(head), 8 * PAGE_SIZE);
	for (int i = 1; i < 8; i++) {
		KTEST_EXPECT_TRUE(t, PageTail(head + i));
		KTEST_EXPECT_FALSE(t, PageHead(head + i));
		KTEST_EXPECT_EQ(t, (unsigned long)compound_head(head + i), (unsigned long)head);
		KTEST_EXPECT_EQ(t, page_ref_count(head + i), 0);
	}
	KTEST_EXPECT_EQ(t, (unsigned long)virt_to_head_page((char *)page_address(head) +
							    5 * PAGE_SIZE + 7),
			(unsigned long)head);
	/* References through a tail go to the head. */
	get_page(head + 6);
	KTEST_EXPECT_EQ(t, page_ref_count(head), 2);
	KTEST_EXPECT_EQ(t, page_count(head + 6), 2);
	put_page(head + 6);
	KTEST_EXPECT_EQ(t, page_ref_count(head), 1);
	/* A plain high-order block has no head or tails. */
	KTEST_EXPECT_FALSE(t, PageCompound(plain) || PageCompound(plain + 1));
	KTEST_EXPECT_EQ(t, compound_order(plain), 0);
	KTEST_EXPECT_EQ(t, (unsigned long)virt_to_head_page(page_address(plain + 3)),
			(unsigned long)(plain + 3));
	put_page(head);		/* last reference: frees all 8 pages */
	for (int i = 1; i < 8; i++)
		KTEST_EXPECT_FALSE(t, PageTail(head + i));
	__free_pages(plain, 2);
}

static size_t count_nonzero(const void *p, size_t size)
{
	const unsigned char *c = p;
	size_t n = 0;

	for (size_t i = 0; i < size; i++)
		n += c[i] != 0;
	return n;
}

static void gfp_zero_zeroes(struct ktest *t)
{
	struct page *page, *again;

	/*
	 * Orders served by the per-CPU lists come back last in, first out:
	 * the block just dirtied and freed is the one __GFP_ZERO must clear.
	 */
	for (unsigned int order = 0; order <= PAGE_ALLOC_COSTLY_ORDER; order++) {
		size_t size = PAGE_SIZE << order;

		page = alloc_pages(GFP_KERNEL, order);
		KTEST_ASSERT_TRUE(t, page != NULL);
		memset(page_address(page), 0x5a, size);
		__free_pages(page, order);
		again = alloc_pages(GFP_KERNEL | __GFP_ZERO, order);
		KTEST_ASSERT_TRUE(t, again != NULL);
		KTEST_EXPECT_EQ(t, (unsigned long)again, (unsigned long)page);
		KTEST_EXPECT_EQ(t, count_nonzero(page_address(again), size), 0);
		__free_pages(again, order);
	}
	/* Straight from the buddy lists (the block may differ: zeroed all the same). */
	page = alloc_pages(GFP_KERNEL, 6);
	KTEST_ASSERT_TRUE(t, page != NULL);
	memset(page_address(page), 0x5a, PAGE_SIZE << 6);
	__free_pages(page, 6);
	again = alloc_pages(GFP_KERNEL | __GFP_ZERO, 6);
	KTEST_ASSERT_TRUE(t, again != NULL);
	KTEST_EXPECT_EQ(t, count_nonzero(page_address(again), PAGE_SIZE << 6), 0);
	__free_pages(again, 6);
	again = (struct page *)get_zeroed_page(GFP_KERNEL);
	KTEST_ASSERT_TRUE(t, again != NULL);
	KTEST_EXPECT_EQ(t, count_nonzero(again, PAGE_SIZE), 0);
	free_page((unsigned long)again);
}

/* Grab blocks of @order while @gfp allows; returns how many. */
unsigned long pa_grab_all(struct page_list *pl, gfp_t gfp, unsigned int order)
{
	unsigned long n = 0;
	struct page *page;

	while ((page = alloc_pages(gfp | __GFP_NOWARN, order))) {
		page->index = order;
		list_add(&page->lru, &pl->head);
		pl->pages += 1UL << order;
		n++;
	}
	return n;
}

void pa_release_all(struct page_list *pl)
{
	struct page *page, *tmp;

	list_for_each_entry_safe(page, tmp, &pl->head, lru) {
		unsigned int order = page->index;

		list_del(&page->lru);
		page->index = 0;
		page->lru.next = page->lru.prev = NULL;
		__free_pages(page, order);
	}
	pl->pages = 0;
}

static void exhaustion_warns_and_recovers(struct ktest *t)
{
	struct page_list pl = { LIST_HEAD_INIT(pl.head), 0 };
	unsigned long kernel_pages, high_pages, atomic_pages;
	struct zone *zone;
	struct page *page;
	u64 mark;

	/*
	 * Exhaustion reclaims: the slab shrinker gives back every cache's
	 * empty slabs.  Give them back first, so that what the test takes
	 * and returns is all that moves and the snapshot is exact.
	 */
	slub_t_free_pages();
	pa_take_snapshot(&snap_before);
	for (int order = MAX_ORDER - 1; order >= 0; order--)
		pa_grab_all(&pl, GFP_KERNEL, order);
	kernel_pages = pl.pages;

	mark = ktest_log_mark();
	page = alloc_pages(GFP_KERNEL, 0);
	KTEST_EXPECT_TRUE(t, page == NULL);
	KTEST_EXPECT_LOG(t, mark, "page allocation failure: order:0, mode:0xcc0(GFP_KERNEL)");
	KTEST_EXPECT_LOG(t, mark, "Mem-Info:");
	KTEST_EXPECT_LOG(t, mark, "*4096kB = ");

	mark = ktest_log_mark();
	KTEST_EXPECT_TRUE(t, alloc_pages(GFP_KERNEL | __GFP_NOWARN, 0) == NULL);
	KTEST_EXPECT_TRUE(t, alloc_pages(GFP_NOWAIT | __GFP_NOWARN, 0) == NULL);
	KTEST_EXPECT_FALSE(t, ktest_log_contains(mark, "page allocation failure"));

	/*
	 * Below the min watermark that stopped GFP_KERNEL: __GFP_HIGH alone
	 * goes down to min/2, GFP_ATOMIC (__GFP_HIGH | __GFP_ATOMIC) a quarter
	 * of that further.
	 */
	high_pages = pa_grab_all(&pl, __GFP_HIGH, 0);
	KTEST_EXPECT_GT(t, high_pages, 0);
	atomic_pages = pa_grab_all(&pl, GFP_ATOMIC, 0);
	KTEST_EXPECT_GT(t, atomic_pages, 0);
	mark = ktest_log_mark();
	KTEST_EXPECT_TRUE(t, alloc_pages(GFP_ATOMIC, 0) == NULL);
	KTEST_EXPECT_LOG(t, mark, "mode:0xa20(GFP_ATOMIC)");
	for_each_populated_zone(zone)
		KTEST_EXPECT_LE(t, zone_page_state(zone, NR_FREE_PAGES),
				min_wmark_pages(zone) / 2 + zone->lowmem_reserve[ZONE_NORMAL]);
	ktest_info(t, "GFP_KERNEL took %lu pages, __GFP_HIGH %lu more, GFP_ATOMIC %lu more; %lu left free",
		   kernel_pages, high_pages, atomic_pages, nr_free_pages());

	pa_release_all(&pl);
	KTEST_EXPECT_EQ(t, pa_expect_snapshot(t, &snap_before, "after exhaustion"), 0);
	page = alloc_pages(GFP_KERNEL, MAX_ORDER - 1);
	KTEST_EXPECT_TRUE(t, page != NULL);
	if (page)
		__free_pages(page, MAX_ORDER - 1);
}

static void bad_frees_reported(struct ktest *t)
{
	struct page *page;
	u64 mark;

	pa_take_snapshot(&snap_before);

	/* Double free while the page sits on this CPU's list. */
	page = alloc_page(GFP_KERNEL);
	KTEST_ASSERT_TRUE(t, page != NULL);
	__free_page(page);
	mark = ktest_log_mark();
	__free_page(page);
	KTEST_EXPECT_LOG(t, mark, "BUG: Bad page state in process swapper/");
	KTEST_EXPECT_LOG(t, mark, "page dumped because: double free: _refcount is already 0");
	ktest_expect_reports("bug", 1);
	KTEST_EXPECT_EQ(t, pa_expect_snapshot(t, &snap_before, "double free (pcp)"), 0);

	/* Double free of a page that is back on the buddy lists. */
	mark = ktest_log_mark();
	__free_page(page);
	KTEST_EXPECT_LOG(t, mark, "double free: page is in the buddy allocator");
	ktest_expect_reports("bug", 1);
	KTEST_EXPECT_EQ(t, pa_expect_snapshot(t, &snap_before, "double free (buddy)"), 0);

	/* A tail page of a compound page. */
	page = alloc_pages(GFP_KERNEL | __GFP_COMP, 2);
	KTEST_ASSERT_TRUE(t, page != NULL);
	mark = ktest_log_mark();
	__free_pages(page + 1, 0);
	KTEST_EXPECT_LOG(t, mark, "page dumped because: freeing a tail page");
	ktest_expect_reports("bug", 1);
	KTEST_EXPECT_TRUE(t, PageTail(page + 1) && PageHead(page));
	__free_pages(page, 2);
	KTEST_EXPECT_EQ(t, pa_expect_snapshot(t, &snap_before, "tail free"), 0);

	/* A referenced page inside a plain block: the block must not be freed. */
	page = alloc_pages(GFP_KERNEL, 1);
	KTEST_ASSERT_TRUE(t, page != NULL);
	page_ref_inc(page + 1);
	mark = ktest_log_mark();
	__free_pages(page, 1);
	KTEST_EXPECT_LOG(t, mark, "page dumped because: nonzero _refcount");
	ktest_expect_reports("bug", 1);
	drain_all_pages(NULL);
	KTEST_EXPECT_EQ(t, nr_free_pages() + 2, pa_snapshot_total(&snap_before));
	page_ref_dec(page + 1);
	set_page_count(page, 1);
	__free_pages(page, 1);		/* now a valid free: everything back */
	KTEST_EXPECT_EQ(t, pa_expect_snapshot(t, &snap_before, "bad refcount"), 0);

	/* A negative count. */
	page = alloc_page(GFP_KERNEL);
	KTEST_ASSERT_TRUE(t, page != NULL);
	set_page_count(page, -1);
	mark = ktest_log_mark();
	__free_page(page);
	KTEST_EXPECT_LOG(t, mark, "freeing a page with a negative _refcount");
	ktest_expect_reports("bug", 1);
	set_page_count(page, 1);
	__free_page(page);
	KTEST_EXPECT_EQ(t, pa_expect_snapshot(t, &snap_before, "negative refcount"), 0);
}

/* A free page written to (use after free) is caught when it is handed out. */
static void bad_page_on_alloc(struct ktest *t)
{
	struct page *page, *other;
	u64 mark;

	pa_take_snapshot(&snap_before);
	page = alloc_page(GFP_KERNEL);
	KTEST_ASSERT_TRUE(t, page != NULL);
	__free_page(page);		/* first on this CPU's list */
	page_ref_inc(page);		/* the use after free */
	mark = ktest_log_mark();
	other = alloc_page(GFP_KERNEL);
	KTEST_ASSERT_TRUE(t, other != NULL);
	KTEST_EXPECT_NE(t, (unsigned long)other, (unsigned long)page);
	KTEST_EXPECT_LOG(t, mark, "BUG: Bad page state");
	KTEST_EXPECT_LOG(t, mark, "page dumped because: nonzero _refcount");
	ktest_expect_reports("bug", 1);
	/* It was taken out of circulation with its one reference: give it back. */
	KTEST_EXPECT_EQ(t, page_ref_count(page), 1);
	__free_page(page);
	__free_page(other);
	KTEST_EXPECT_EQ(t, pa_expect_snapshot(t, &snap_before, "bad page on alloc"), 0);
}

static void page_poisoning(struct ktest *t)
{
	struct page *page, *again;
	unsigned char *p;
	u64 mark;

	if (!page_poisoning_enabled())
		ktest_skip(t, "page poisoning is off (boot with page_poison=1)");
	page = alloc_page(GFP_KERNEL);
	KTEST_ASSERT_TRUE(t, page != NULL);
	p = page_address(page);
	__free_page(page);
	KTEST_EXPECT_EQ(t, p[0], 0xaa);
	KTEST_EXPECT_EQ(t, p[PAGE_SIZE - 1], 0xaa);
	p[100] = 0;			/* scribble on a free page */
	mark = ktest_log_mark();
	again = alloc_page(GFP_KERNEL);
	KTEST_EXPECT_EQ(t, (unsigned long)again, (unsigned long)page);
	KTEST_EXPECT_LOG(t, mark, "pagealloc: memory corruption");
	KTEST_EXPECT_LOG(t, mark, "pagealloc: corrupted page details");
	__free_page(again);
	p[100] = 0xab;			/* one bit */
	mark = ktest_log_mark();
	again = alloc_page(GFP_KERNEL);
	KTEST_EXPECT_LOG(t, mark, "pagealloc: single bit error");
	__free_page(again);
}

static void gfp_flags_decoded(struct ktest *t)
{
	char buf[160];

	KTEST_EXPECT_STREQ(t, format_gfp_flags(buf, sizeof(buf), GFP_KERNEL), "GFP_KERNEL");
	KTEST_EXPECT_STREQ(t, format_gfp_flags(buf, sizeof(buf), GFP_ATOMIC), "GFP_ATOMIC");
	KTEST_EXPECT_STREQ(t, format_gfp_flags(buf, sizeof(buf), GFP_NOWAIT), "GFP_NOWAIT");
	KTEST_EXPECT_STREQ(t, format_gfp_flags(buf, sizeof(buf),
					       GFP_KERNEL | __GFP_NOWARN | __GFP_ZERO | __GFP_COMP),
			   "GFP_KERNEL|__GFP_NOWARN|__GFP_COMP|__GFP_ZERO");
	KTEST_EXPECT_STREQ(t, format_gfp_flags(buf, sizeof(buf), GFP_KERNEL | __GFP_DMA32),
			   "GFP_KERNEL|GFP_DMA32");
	KTEST_EXPECT_STREQ(t, format_gfp_flags(buf, sizeof(buf), __GFP_HIGH | __GFP_NORETRY),
			   "__GFP_HIGH|__GFP_NORETRY");
	KTEST_EXPECT_STREQ(t, format_gfp_flags(buf, sizeof(buf), 0), "0");
	KTEST_EXPECT_STREQ(t, format_gfp_flags(buf, sizeof(buf), GFP_NOWAIT | (1u << 26)),
			   "GFP_NOWAIT|0x4000000");
}

static void zones_and_dma32(struct ktest *t)
{
	struct page *page = alloc_pages(GFP_KERNEL | __GFP_DMA32, 2);
	struct zone *zone, *normal = &NODE_DATA(numa_node_id())->node_zones[ZONE_NORMAL];

	KTEST_ASSERT_TRUE(t, page != NULL);
	KTEST_EXPECT_EQ(t, page_zonenum(page), ZONE_DMA32);
	KTEST_EXPECT_LT(t, page_to_phys(page + 3), SZ_4G);
	__free_pages(page, 2);
	/* Without __GFP_DMA32 the highest zone of the local node comes first. */
	page = alloc_page(GFP_KERNEL);
	KTEST_ASSERT_TRUE(t, page != NULL);
	KTEST_EXPECT_EQ(t, page_zonenum(page), populated_zone(normal) ? ZONE_NORMAL : ZONE_DMA32);
	__free_page(page);
	for_each_populated_zone(zone) {
		KTEST_EXPECT_LE(t, min_wmark_pages(zone), low_wmark_pages(zone));
		KTEST_EXPECT_LT(t, low_wmark_pages(zone), high_wmark_pages(zone));
		KTEST_EXPECT_GT(t, zone->pageset_batch, 0);
		KTEST_EXPECT_GE(t, zone->pageset_high, 4 * zone->pageset_batch);
		ktest_info(t, "node %d %s: %lu pages, min/low/high %lu/%lu/%lu, pcp high %d batch %d",
			   zone_to_nid(zone), zone->name, zone_managed_pages(zone),
			   min_wmark_pages(zone), low_wmark_pages(zone), high_wmark_pages(zone),
			   zone->pageset_high, zone->pageset_batch);
	}
}

/* The meminfo records: one per zone, consecutive numbers, valid CRCs. */
static void meminfo_records_valid(struct ktest *t)
{
	unsigned int zones = 0, found = 0;
	long first = -1, prev = -1;
	struct zone *zone;
	char buf[256];
	u64 mark;

	KTEST_EXPECT_EQ(t, record_crc32("123456789", 9), 0xcbf43926);
	KTEST_EXPECT_EQ(t, record_emit("{\"a\":\n1}"), -EINVAL);
	memset(buf, 'x', sizeof(buf) - 1);
	buf[sizeof(buf) - 1] = '\0';
	KTEST_EXPECT_EQ(t, record_emit(buf), -E2BIG);

	for_each_populated_zone(zone)
		zones++;
	mark = ktest_log_mark();
	meminfo_records();
	for (u64 seq = mark; seq < printk_next_seq(); seq++) {
		unsigned long long rseq;
		unsigned long crc;
		char *rec, *json, *end;

		if (printk_read_record(seq, buf, sizeof(buf), NULL, NULL) < 0)
			continue;
		rec = strstr(buf, "@irqlab ");
		if (!rec)
			continue;
		rseq = strtoull(rec + 8, &end, 10);
		if (*end != ' ')
			continue;
		crc = strtoul(end + 1, &json, 16);
		if (json != end + 9 || *json++ != ' ')
			continue;
		json[strcspn(json, "\n")] = '\0';
		found++;
		KTEST_EXPECT_EQ(t, crc, record_crc32(json, strlen(json)));
		KTEST_EXPECT_TRUE(t, strstr(json, "\"type\":\"meminfo\"") != NULL);
		KTEST_EXPECT_TRUE(t, strstr(json, "\"nr_free\":[") != NULL);
		if (prev >= 0)
			KTEST_EXPECT_EQ(t, rseq, prev + 1);
		else
			first = rseq;
		prev = rseq;
	}
	KTEST_EXPECT_EQ(t, found, zones);
	ktest_info(t, "%u meminfo records, seq %ld..%ld", found, first, prev);

	mark = ktest_log_mark();
	show_free_areas();
	zone = first_populated_zone();
	snprintf(buf, sizeof(buf), "Node %d %s: ", zone_to_nid(zone), zone->name);
	KTEST_EXPECT_LOG(t, mark, buf);
	KTEST_EXPECT_LOG(t, mark, "pages RAM");
}

static struct ktest_case page_alloc_cases[] = {
	KTEST_CASE(struct_page_layout),
	KTEST_CASE(alloc_free_restores_free_areas),
	KTEST_CASE(compound_pages),
	KTEST_CASE(gfp_zero_zeroes),
	KTEST_CASE(zones_and_dma32),
	KTEST_CASE(gfp_flags_decoded),
	KTEST_CASE(exhaustion_warns_and_recovers),
	KTEST_CASE(bad_frees_reported),
	KTEST_CASE(bad_page_on_alloc),
	KTEST_CASE(page_poisoning),
	KTEST_CASE(pcp_lists_drain_exactly),
	KTEST_CASE(pcp_high_bounds_list),
	KTEST_CASE(drain_all_cpus),
	KTEST_CASE(concurrent_alloc_free_all_cpus),
	KTEST_CASE(numa_node_placement),
	KTEST_CASE(meminfo_records_valid),
	KTEST_CASE(bench_order0_pcp),
	KTEST_CASE(bench_order0_buddy),
	KTEST_CASE(bench_order3),
	KTEST_CASE(bench_all_cpus),
	{}
};

static struct ktest_suite page_alloc_suite = {
	.name = "page_alloc",
	.cases = page_alloc_cases,
};
ktest_register_suite(page_alloc_suite);
