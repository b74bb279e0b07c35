// SPDX-License-Identifier: GPL-2.0
/*
 * page_alloc suite, continued: per-CPU lists, all CPUs at once, NUMA
 * placement, and the benchmarks (printed, never asserted).
 *
 * Cross-CPU work runs through ktest_on_each_cpu(): on every online CPU at
 * once, with interrupts off in IPI context on !RT (fine for GFP_ATOMIC
 * allocations and frees), in bound threads on PREEMPT_RT, where the
 * allocator's locks sleep and hard-IRQ context may not take them.
 */
#include <linux/ktest.h>
#include <linux/mm.h>
#include <linux/smp.h>
#include <linux/acpi.h>
#include <linux/ktime.h>
#include <asm/apic.h>
#include <asm/pgtable.h>
#include <asm/processor.h>
#include "page_alloc_test.h"

static struct free_snapshot snap;

/* The zone order-0 GFP_KERNEL allocations on this CPU come from. */
static struct zone *local_zone(void)
{
	struct page *page = alloc_page(GFP_KERNEL);
	struct zone *zone = page ? page_zone(page) : NULL;

	if (page)
		__free_page(page);
	return zone;
}

static unsigned long zone_free(struct zone *zone)
{
	return zone_page_state(zone, NR_FREE_PAGES);
}

void pcp_lists_drain_exactly(struct ktest *t)
{
	int cpu = smp_processor_id();
	struct zone *zone = local_zone();
	struct page *pages[16], *big;
	unsigned long f0;

	KTEST_ASSERT_TRUE(t, zone != NULL);
	drain_local_pages(zone);
	KTEST_EXPECT_EQ(t, pcp_count(zone, cpu), 0);
	f0 = zone_free(zone);

	for (int i = 0; i < 16; i++) {
		pages[i] = alloc_page(GFP_KERNEL);
		KTEST_ASSERT_TRUE(t, pages[i] && page_zone(pages[i]) == zone);
	}
	/* Refills moved whole batches: buddy + list + handed out is constant. */
	KTEST_EXPECT_EQ(t, zone_free(zone) + pcp_count(zone, cpu) + 16, f0);
	for (int i = 0; i < 16; i++)
		__free_page(pages[i]);
	big = alloc_pages(GFP_KERNEL, 3);
	KTEST_ASSERT_TRUE(t, big != NULL);
	__free_pages(big, 3);		/* onto the order-3 list */
	KTEST_EXPECT_EQ(t, zone_free(zone) + pcp_count(zone, cpu), f0);
	KTEST_EXPECT_GE(t, pcp_count(zone, cpu), 8);
	ktest_info(t, "CPU %d: %d pages on the lists before draining (batch %d, high %d)",
		   cpu, pcp_count(zone, cpu), zone->pageset_batch, zone->pageset_high);

	drain_local_pages(zone);
	KTEST_EXPECT_EQ(t, pcp_count(zone, cpu), 0);
	KTEST_EXPECT_EQ(t, zone_free(zone), f0);
}

/* Freeing many pages in a row never lets a list reach pcp->high. */
void pcp_high_bounds_list(struct ktest *t)
{
	int cpu = smp_processor_id();
	struct zone *zone = local_zone();
	unsigned long n, f0, freed = 0;
	int max_seen = 0;
	LIST_HEAD(list);
	struct page *page, *tmp;

	KTEST_ASSERT_TRUE(t, zone != NULL);
	drain_local_pages(zone);
	f0 = zone_free(zone);
	n = zone->pageset_high + 3 * zone->pageset_batch;
	for (unsigned long i = 0; i < n; i++) {
		page = alloc_page(GFP_KERNEL);
		KTEST_ASSERT_TRUE(t, page != NULL);
		list_add(&page->lru, &list);
	}
	list_for_each_entry_safe(page, tmp, &list, lru) {
		list_del(&page->lru);
		page->lru.next = page->lru.prev = NULL;
		__free_page(page);
		freed++;
		max_seen = max(max_seen, pcp_count(zone, cpu));
	}
	KTEST_EXPECT_EQ(t, freed, n);
	KTEST_EXPECT_LT(t, max_seen, zone->pageset_high);
	KTEST_EXPECT_GE(t, max_seen, zone->pageset_batch);
	KTEST_EXPECT_EQ(t, zone_free(zone) + pcp_count(zone, cpu), f0);
	ktest_info(t, "freed %lu pages: list peaked at %d (high %d)", n, max_seen,
		   zone->pageset_high);
	drain_local_pages(zone);
	KTEST_EXPECT_EQ(t, zone_free(zone), f0);
}

static void fill_local_lists(void *info)
{
	struct page *pages[8];

	for (int i = 0; i < 8; i++)
		pages[i] = alloc_page(GFP_ATOMIC);
	for (int i = 0; i < 8; i++)
		if (pages[i])
			__free_page(pages[i]);
}

static unsigned long all_pcp_pages(void)
{
	unsigned long sum = 0;
	struct zone *zone;
	int cpu;

	for_each_populated_zone(zone)
		for_each_possible_cpu(cpu)
			sum += pcp_count(zone, cpu);
	return sum;
}

/* drain_all_pages() empties every CPU's lists, exactly into the buddy lists. */
void drain_all_cpus(struct ktest *t)
{
	struct zone *zone;
	int cpu;

	/*
	 * The first drain work on a CPU may make its pool start a spare
	 * kworker, whose stack comes from this allocator: have that happen
	 * before the snapshot, so that only the drain itself is measured.
	 */
	ktest_on_each_cpu(fill_local_lists, NULL);
	drain_all_pages(NULL);
	pa_take_snapshot(&snap);
	ktest_on_each_cpu(fill_local_lists, NULL);
	for_each_online_cpu(cpu) {
		unsigned long mine = 0;

		for_each_populated_zone(zone)
			mine += pcp_count(zone, cpu);
		KTEST_EXPECT_GE(t, mine, 8);
	}
	KTEST_EXPECT_EQ(t, nr_free_pages() + all_pcp_pages(), pa_snapshot_total(&snap));
	drain_all_pages(NULL);
	KTEST_EXPECT_EQ(t, all_pcp_pages(), 0);
	KTEST_EXPECT_EQ(t, pa_expect_snapshot(t, &snap, "after drain_all_pages"), 0);
}

#define STRESS_OPS	3000
#define STRESS_HELD	64

static struct {
	struct page *page[STRESS_HELD];
	unsigned int order[STRESS_HELD];
	unsigned long allocs, frees, failures;
} stress[CONFIG_NR_CPUS];

static void stress_worker(void *info)
{
	int cpu = smp_processor_id();
	u64 seed = 0x9e3779b97f4a7c15ULL * (cpu + 1);
	unsigned int n = 0;

	for (int op = 0; op < STRESS_OPS; op++) {
		u64 r = pa_rand(&seed);

		if (n < STRESS_HELD && (n == 0 || (r & 1))) {
			unsigned int order = (r >> 4) % 8 ? 0 : (r >> 8) % 5;
			struct page *page = alloc_pages(GFP_ATOMIC | __GFP_NOWARN, order);

			if (!page) {
				stress[cpu].failures++;
				continue;
			}
			*(int *)page_address(page) = cpu;
			stress[cpu].page[n] = page;
			stress[cpu].order[n++] = order;
			stress[cpu].allocs++;
		} else {
			unsigned int i = (r >> 16) % n;

			/* Someone else's block would be a double allocation. */
			if (*(int *)page_address(stress[cpu].page[i]) != cpu)
				stress[cpu].failures += 1000000;
			__free_pages(stress[cpu].page[i], stress[cpu].order[i]);
			stress[cpu].page[i] = stress[cpu].page[--n];
			stress[cpu].order[i] = stress[cpu].order[n];
			stress[cpu].frees++;
		}
	}
	while (n) {
		n--;
		__free_pages(stress[cpu].page[n], stress[cpu].order[n]);
		stress[cpu].frees++;
	}
}

void concurrent_alloc_free_all_cpus(struct ktest *t)
{
	unsigned long allocs = 0, frees = 0, failures = 0;
	u64 t0;
	int cpu;

	memset(stress, 0, sizeof(stress));
	pa_take_snapshot(&snap);
	t0 = ktime_get_ns();
	ktest_on_each_cpu(stress_worker, NULL);
	for_each_online_cpu(cpu) {
		allocs += stress[cpu].allocs;
		frees += stress[cpu].frees;
		failures += stress[cpu].failures;
	}
	ktest_info(t, "%u CPUs: %lu allocations, %lu frees in %llu us", num_online_cpus(),
		   allocs, frees, (unsigned long long)(ktime_get_ns() - t0) / 1000);
	KTEST_EXPECT_EQ(t, failures, 0);
	KTEST_EXPECT_EQ(t, allocs, frees);
	KTEST_EXPECT_EQ(t, pa_expect_snapshot(t, &snap, "after concurrent alloc/free"), 0);
}

/* -------------------------------------------------------------- NUMA */

static int node_of_mapping(const void *va)
{
	enum pg_level level;
	u64 *pte = lookup_address((unsigned long)va, &level);

	return pte ? acpi_numa_node_of_addr(*pte & PTE_PFN_MASK) : NUMA_NO_NODE;
}

static int local_alloc_node[CONFIG_NR_CPUS];

static void alloc_on_local_node(void *info)
{
	struct page *page = alloc_page(GFP_ATOMIC);

	local_alloc_node[smp_processor_id()] = page ? page_to_nid(page) : -1;
	if (page)
		__free_page(page);
}

void numa_node_placement(struct ktest *t)
{
	int nid, cpu;

	if (pa_expected_nodes)
		KTEST_EXPECT_EQ(t, nr_online_nodes, pa_expected_nodes);
	if (nr_online_nodes < 2)
		ktest_skip(t, "needs 2 NUMA nodes (%u online)", nr_online_nodes);
	for_each_online_node(nid) {
		pg_data_t *pgdat = NODE_DATA(nid);

		for (unsigned int order = 0; order <= 3; order += 3) {
			gfp_t gfps[2] = { GFP_KERNEL | __GFP_THISNODE, GFP_KERNEL };

			for (int g = 0; g < 2; g++) {
				struct page *page = alloc_pages_node(nid, gfps[g], order);

				KTEST_ASSERT_TRUE(t, page != NULL);
				KTEST_EXPECT_EQ(t, page_to_nid(page), nid);
				/* The pfn lies in the node's SRAT range, first page and last. */
				KTEST_EXPECT_EQ(t, acpi_numa_node_of_addr(page_to_phys(page)), nid);
				KTEST_EXPECT_EQ(t, acpi_numa_node_of_addr(page_to_phys(page) +
									  (PAGE_SIZE << order) - 1), nid);
				__free_pages(page, order);
			}
		}
		/* The node's struct pages live on the node. */
		KTEST_EXPECT_EQ(t, node_of_mapping(pfn_to_page(pgdat->node_start_pfn +
							       pgdat->node_spanned_pages / 2)),
				nid);
		ktest_info(t, "node %d: [mem %#llx-%#llx], %lu pages present, %u CPUs", nid,
			   (unsigned long long)PFN_PHYS(pgdat->node_start_pfn),
			   (unsigned long long)PFN_PHYS(pgdat->node_start_pfn +
							pgdat->node_spanned_pages) - 1,
			   pgdat->node_present_pages, pgdat->nr_cpus);
	}
	ktest_on_each_cpu(alloc_on_local_node, NULL);
	for_each_online_cpu(cpu) {
		int want = acpi_numa_node_of_apic(cpu_to_apicid[cpu]);

		if (node_online(want))
			KTEST_EXPECT_EQ(t, cpu_to_node(cpu), want);
		KTEST_EXPECT_EQ(t, local_alloc_node[cpu], cpu_to_node(cpu));
		/* Each CPU's per-CPU unit is backed by its node's memory. */
		KTEST_EXPECT_EQ(t, node_of_mapping(per_cpu_ptr(&numa_node, cpu)), cpu_to_node(cpu));
	}
}

/* -------------------------------------------------------------- benchmarks */

#define BENCH_ROUNDS	10
#define BENCH_PAIRS	1000

/*
 * alloc+free pairs of @order: mean over all rounds and the best round, in
 * cycles.  @rounds x @pairs; fewer when all CPUs contend, because TCG
 * with more vCPUs than host cores turns a ticket lock into a convoy (a
 * preempted vCPU holds or is next for the lock for a host time slice).
 */
static void bench_pairs_n(unsigned int order, gfp_t gfp, int rounds, int pairs,
			  u64 *mean, u64 *best)
{
	u64 total = 0;

	*best = ~0ULL;
	for (int r = 0; r < rounds; r++) {
		u64 t0 = rdtsc_ordered(), dt;

		for (int i = 0; i < pairs; i++) {
			struct page *page = alloc_pages(gfp, order);

			if (page)
				__free_pages(page, order);
		}
		dt = rdtsc_ordered() - t0;
		total += dt;
		*best = min(*best, dt / pairs);
	}
	*mean = total / (rounds * pairs);
}

static void bench_pairs(unsigned int order, gfp_t gfp, u64 *mean, u64 *best)
{
	bench_pairs_n(order, gfp, BENCH_ROUNDS, BENCH_PAIRS, mean, best);
}

static void bench_report(struct ktest *t, const char *what, unsigned int order, gfp_t gfp)
{
	u64 mean, best;

	bench_pairs(order, gfp, &mean, &best);	/* warm */
	bench_pairs(order, gfp, &mean, &best);
	ktest_info(t, "%s: order-%u alloc+free pair: %llu cycles mean, %llu best round (%s)",
		   what, order, (unsigned long long)mean, (unsigned long long)best,
		   ktest_clock_mode());
}

/* Send the benchmark's allocations past the per-CPU lists of every zone. */
static void pcp_disable_all(bool disable)
{
	if (disable)
		zone_pcp_disable_all();
	else
		zone_pcp_enable_all();
}

void bench_order0_pcp(struct ktest *t)
{
	bench_report(t, "per-CPU list hit", 0, GFP_KERNEL);
}

void bench_order0_buddy(struct ktest *t)
{
	pcp_disable_all(true);
	bench_report(t, "buddy (per-CPU lists disabled)", 0, GFP_KERNEL);
	pcp_disable_all(false);
}

void bench_order3(struct ktest *t)
{
	bench_report(t, "per-CPU list hit", 3, GFP_KERNEL);
	pcp_disable_all(true);
	bench_report(t, "buddy (per-CPU lists disabled)", 3, GFP_KERNEL);
	pcp_disable_all(false);
	bench_report(t, "buddy (above PAGE_ALLOC_COSTLY_ORDER)", 4, GFP_KERNEL);
}

static u64 cpu_mean[CONFIG_NR_CPUS];

static void bench_worker(void *info)
{
	u64 mean, best;

	bench_pairs_n(0, GFP_ATOMIC, 2, info ? 100 : BENCH_PAIRS, &mean, &best);
	cpu_mean[smp_processor_id()] = mean;
}

static void bench_contended(struct ktest *t, const char *what, bool short_run)
{
	u64 sum = 0, worst = 0;
	int cpu;

	ktest_on_each_cpu(bench_worker, short_run ? (void *)1 : NULL);
	for_each_online_cpu(cpu) {
		sum += cpu_mean[cpu];
		worst = max(worst, cpu_mean[cpu]);
	}
	ktest_info(t, "%s, %u CPUs at once: order-0 pair %llu cycles mean per CPU, worst CPU %llu",
		   what, num_online_cpus(), (unsigned long long)(sum / num_online_cpus()),
		   (unsigned long long)worst);
}

void bench_all_cpus(struct ktest *t)
{
	bench_contended(t, "per-CPU lists", false);
	pcp_disable_all(true);
	bench_contended(t, "zone->lock (per-CPU lists disabled)", true);
	pcp_disable_all(false);
}
