/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_FAULT_INJECT_H
#define _LINUX_FAULT_INJECT_H

/*
 * Fault injection in the shape of Linux 5.15's lib/fault-inject.c: a
 * struct fault_attr says how often a call site fails on purpose, and
 * should_fail() makes the decision.  The attributes Linux exposes in
 * debugfs are plain fields here, set on the command line (see
 * setup_fault_attr() and param_ops_fault_attr) or by tests.
 *
 *  probability	percent of eligible calls that fail (0 turns it all off)
 *  interval	only every interval-th eligible call may fail (<= 1: all)
 *  times	failures left to inject; -1 is unlimited
 *  space	bytes (the size argument) to let through before failing
 *  verbose	0 silent, 1 a report line per failure, 2 also a backtrace
 *  task_filter	only tasks with make_it_fail set, in task context, fail
 *
 * Boot syntax, as Linux's: <name>=<interval>,<probability>,<space>,<times>
 *
 * Unlike Linux (where prandom_u32() is seeded at random), every attribute
 * has its own xorshift state with a fixed seed, so a run is repeatable.
 * Everything here is atomics only: should_fail() may run with interrupts
 * off and in hard interrupt context (not in NMIs: it may printk).
 */
#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/kconfig.h>

struct kernel_param_ops;
struct kmem_cache;

#ifdef CONFIG_FAULT_INJECTION

struct fault_attr {
	unsigned long probability;
	unsigned long interval;
	atomic_t times;
	atomic_t space;
	unsigned long verbose;
	bool task_filter;
	/* Linux's count: eligible calls, for the interval (only when > 1). */
	atomic_long_t count;
	/* Totals: calls while armed (probability > 0), failures injected. */
	atomic_long_t calls;
	atomic_long_t failures;
	atomic64_t rnd_state;	/* xorshift64; never 0 */
	const char *name;	/* in reports; Linux prints the debugfs name */
};

#define FAULT_ATTR_SEED		0x9e3779b97f4a7c15ULL

#define FAULT_ATTR_INITIALIZER_NAME(_name) {				\
		.interval = 1,						\
		.times = ATOMIC_INIT(1),				\
		.verbose = 2,						\
		.rnd_state = ATOMIC_INIT((s64)FAULT_ATTR_SEED),		\
		.name = (_name),					\
	}
#define FAULT_ATTR_INITIALIZER	FAULT_ATTR_INITIALIZER_NAME(NULL)
#define DECLARE_FAULT_ATTR(attr) \
	struct fault_attr attr = FAULT_ATTR_INITIALIZER_NAME(#attr)

/*
 * Parse "<interval>,<probability>,<space>,<times>" into @attr.  Returns 1
 * when applied, 0 (after saying why) when @str is malformed or out of
 * range; @attr is then left as it was.  Linux's return convention.
 */
int setup_fault_attr(struct fault_attr *attr, const char *str);
bool should_fail(struct fault_attr *attr, ssize_t bytes);

/* Restart @attr's random sequence (0 picks the default seed). */
void fault_attr_seed(struct fault_attr *attr, u64 seed);
/* "<name>: N calls, M failures injected" */
void fault_attr_report(struct fault_attr *attr);
/* That line for each built-in attribute that was armed or has failed. */
void fault_inject_report(void);

/* A command-line parameter in the boot syntax above; arg is the attr. */
extern const struct kernel_param_ops param_ops_fault_attr;

#else /* !CONFIG_FAULT_INJECTION */

static inline void fault_inject_report(void) { }

#endif /* CONFIG_FAULT_INJECTION */

/* mm/page_alloc.c: the attribute and its filters (Linux's debugfs files). */
#ifdef CONFIG_FAIL_PAGE_ALLOC
struct fail_page_alloc_attr {
	struct fault_attr attr;
	bool ignore_gfp_highmem;	/* ignore-gfp-highmem, default on */
	bool ignore_gfp_reclaim;	/* ignore-gfp-wait, default on */
	u32 min_order;			/* min-order, default 1 */
};
extern struct fail_page_alloc_attr fail_page_alloc;
#endif
/* Called where Linux's prepare_alloc_pages() calls it; false if disabled. */
bool should_fail_alloc_page(gfp_t gfp, unsigned int order);

/* mm/failslab.c */
#ifdef CONFIG_FAILSLAB
struct failslab_attr {
	struct fault_attr attr;
	bool ignore_gfp_reclaim;	/* ignore-gfp-wait, default on */
	bool cache_filter;		/* cache-filter, default off */
};
extern struct failslab_attr failslab;
bool __should_failslab(struct kmem_cache *s, gfp_t gfp);
/* 0, or -ENOMEM when the allocation must fail (SLUB's slab_pre_alloc_hook). */
int should_failslab(struct kmem_cache *s, gfp_t gfp);
#else
static inline bool __should_failslab(struct kmem_cache *s, gfp_t gfp)
{
	return false;
}
/*
 * Without FAILSLAB nothing can fail here, and no call is made.  Linux
 * 5.15 still calls an out-of-line should_failslab() that returns 0, as
 * the attach point of BPF error injection (ALLOW_ERROR_INJECTION), which
 * irqlab does not have; a call there would also keep the compiler from
 * leaving the allocation fast path free of register saves.
 */
static inline int should_failslab(struct kmem_cache *s, gfp_t gfp)
{
	return 0;
}
#endif

#endif /* _LINUX_FAULT_INJECT_H */
