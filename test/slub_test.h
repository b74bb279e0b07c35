/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TEST_SLUB_TEST_H
#define _TEST_SLUB_TEST_H

/*
 * The slub suite is spread over slub_test.c (kmalloc, caches, bulk),
 * slub_smp_test.c (remote frees, shrink/destroy page accounting, stress,
 * failslab), slub_stats_test.c (stat items, geometry, scope probes) and
 * slub_rcu_test.c (SLAB_TYPESAFE_BY_RCU caches);
 * slub_debug_test.c is the separate slub_debug suite.  These are their
 * shared helpers.
 */
#include <linux/ktest.h>
#include <linux/slab.h>
#include <linux/completion.h>
#include <linux/atomic.h>
#include "../mm/slub.h"

/* Private caches never alias another cache (SLAB_NEVER_MERGE). */
#define SLUB_T_NOMERGE		SLAB_NOLEAKTRACE
/* What SLAB_HWCACHE_ALIGN aligns to: cache_line_size() on x86_64. */
#define SLUB_T_CACHE_LINE	64
#define SLUB_T_DEBUG_FLAGS	(SLAB_CONSISTENCY_CHECKS | SLAB_RED_ZONE | \
				 SLAB_POISON | SLAB_STORE_USER)

struct kmem_cache *slub_t_cache(struct ktest *t, const char *name,
				unsigned int size, unsigned int align,
				slab_flags_t flags, void (*ctor)(void *));

/*
 * Run @fn as the case body in a kernel thread bound to @cpu (the ktest
 * runner cannot change its own affinity); its failures, asserts and
 * skips count for @t.
 */
void slub_t_run_pinned(struct ktest *t, int cpu, void (*fn)(struct ktest *t));

/* kmem_cache_shrink() every kmalloc cache. */
void slub_t_shrink_kmalloc(void);

/* nr_free_pages() with every CPU's page lists drained. */
unsigned long slub_t_free_pages(void);

/*
 * Free everything of @s back, shrink, and check the cache holds no slab:
 * kmem_cache_shrink() returns 0 and (CONFIG_SLUB_DEBUG) slabinfo counts
 * no object and no slab.  Returns the number of mismatches.
 */
int slub_t_expect_empty(struct ktest *t, struct kmem_cache *s,
			const char *when);

/* Objects in use (slabinfo after a shrink); -1 without CONFIG_SLUB_DEBUG. */
long slub_t_active(struct kmem_cache *s);
long slub_t_slabs(struct kmem_cache *s);

/*
 * A printk record since @mark containing "BUG <cache> (" and then
 * "): <what>" (Linux's slab_bug() line).  @what may be NULL.
 */
bool slub_t_log_bug(u64 mark, const char *cache, const char *what);
/* Any record since @mark containing both strings. */
bool slub_t_log_has2(u64 mark, const char *a, const char *b);

/* xorshift64 */
u64 slub_t_rand(u64 *state);

/* Pattern helpers: fill @len bytes of @p from @seed; count bad bytes. */
void slub_t_fill(void *p, size_t len, u64 seed);
size_t slub_t_check(const void *p, size_t len, u64 seed);

/* Pointer array checks: all distinct (sorted copy), count duplicates. */
int slub_t_count_dups(void **p, size_t n, size_t min_gap);

/*
 * A crew: one bound kernel thread per listed CPU.  Each waits for go,
 * runs fn(arg, idx, cpu), reports done and then sleeps until stopped, so
 * its task and stack exist from before a caller's page baseline until
 * after its final count.
 */
struct slub_crew;
struct slub_crew_member {
	struct slub_crew *crew;
	int idx, cpu;
	struct task_struct *task;
};

struct slub_crew {
	void (*fn)(void *arg, int idx, int cpu);
	void *arg;
	int n;
	struct slub_crew_member m[CONFIG_NR_CPUS];
	atomic_t ready, left;
	struct completion done;
	unsigned long gen;	/* bumped by each slub_crew_run() */
};

/*
 * @cpus NULL: one thread on every online CPU (n ignored).  Returns false
 * (after stopping what started) if a thread could not be created.
 */
bool slub_crew_start(struct slub_crew *c, const int *cpus, int n);
/* Every member runs fn(arg, idx, cpu) once; returns when all are done. */
void slub_crew_run(struct slub_crew *c, void (*fn)(void *arg, int idx, int cpu),
		   void *arg);
void slub_crew_stop(struct slub_crew *c);

/* Fault-injection state the suites change (restored by suite exit). */
void slub_t_fault_save(void);
void slub_t_fault_restore(void);

/* slub_test.c cases used elsewhere, and the cases of the other files. */
void slub_remote_free(struct ktest *t);
void slub_shrink_returns_pages(struct ktest *t);
void slub_destroy_returns_pages(struct ktest *t);
void slub_stress_all_cpus(struct ktest *t);
void slub_failslab_one_percent(struct ktest *t);
void slub_stat_alloc_free(struct ktest *t);
void slub_stat_remote_free(struct ktest *t);
void slub_geometry_kmalloc(struct ktest *t);
void slub_geometry_private(struct ktest *t);
void slub_probe_alloc_pages(struct ktest *t);
void slub_probe_flush_deactivate(struct ktest *t);
void slub_irqoff_by_path(struct ktest *t);
void slub_bulk_page_failure(struct ktest *t);
void slub_typesafe_gp(struct ktest *t);
void slub_typesafe_reader_race(struct ktest *t);
void slub_typesafe_destroy(struct ktest *t);
void slub_typesafe_debug(struct ktest *t);
void slub_typesafe_contents_kept(struct ktest *t);

#endif
