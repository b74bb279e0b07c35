/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TEST_PAGE_ALLOC_TEST_H
#define _TEST_PAGE_ALLOC_TEST_H

/* The page_alloc suite is spread over page_alloc_test.c and page_alloc_smp_test.c. */
#include <linux/ktest.h>
#include <linux/mm.h>

/* Free blocks per node, zone and order, with the per-CPU lists drained. */
struct free_snapshot {
	unsigned long nr_free[MAX_NUMNODES][MAX_NR_ZONES][MAX_ORDER];
	unsigned long free_pages[MAX_NUMNODES][MAX_NR_ZONES];
};

void pa_take_snapshot(struct free_snapshot *s);
/* Number of mismatching (zone, order) counts; each one is a test failure. */
int pa_expect_snapshot(struct ktest *t, const struct free_snapshot *want, const char *when);
u64 pa_rand(u64 *state);

/* Blocks held by a test, chained through page->lru, order in page->index. */
struct page_list {
	struct list_head head;
	unsigned long pages;
};
unsigned long pa_grab_all(struct page_list *pl, gfp_t gfp, unsigned int order);
void pa_release_all(struct page_list *pl);
unsigned long pa_snapshot_total(const struct free_snapshot *s);

/* page_alloc_smp_test.c */
void pcp_lists_drain_exactly(struct ktest *t);
void pcp_high_bounds_list(struct ktest *t);
void drain_all_cpus(struct ktest *t);
void concurrent_alloc_free_all_cpus(struct ktest *t);
void numa_node_placement(struct ktest *t);
void bench_order0_pcp(struct ktest *t);
void bench_order0_buddy(struct ktest *t);
void bench_order3(struct ktest *t);
void bench_all_cpus(struct ktest *t);
extern int pa_expected_nodes;

#endif
