// SPDX-License-Identifier: GPL-2.0
/*
 * failslab: injected slab allocation failures, after Linux 5.15's
 * mm/failslab.c.  SLUB's slab_pre_alloc_hook() will call
 * should_failslab() before each allocation and return NULL when it says
 * so; SLUB does not exist yet, so nothing calls it but the tests.
 *
 * failslab=<interval>,<probability>,<space>,<times> arms it at boot;
 * failslab.ignore_gfp_wait (default on, as Linux's ignore-gfp-wait)
 * leaves allocations that may sleep alone.
 */
#include <linux/fault-inject.h>
#include <linux/gfp.h>
#include <linux/moduleparam.h>
#include <linux/errno.h>

#ifdef CONFIG_FAILSLAB
struct failslab_attr failslab = {
	.attr = FAULT_ATTR_INITIALIZER_NAME("failslab"),
	.ignore_gfp_reclaim = true,
	.cache_filter = false,
};

core_param_cb("failslab", &param_ops_fault_attr, &failslab.attr,
	      "inject slab allocation failures: <interval>,<probability>,<space>,<times>");
core_param("failslab.ignore_gfp_wait", failslab.ignore_gfp_reclaim, bool,
	   "failslab leaves allocations that may sleep (__GFP_DIRECT_RECLAIM) alone");
core_param_range("failslab.verbose", failslab.attr.verbose, ulong, 0, 2,
		 "failslab reports: 0 none, 1 a line per failure, 2 also a backtrace");

/*
 * What the decision needs to know about the cache.  struct kmem_cache
 * arrives with the SLUB port, which replaces these with Linux's tests:
 * the boot cache (s == kmem_cache) is never failed; under cache_filter
 * only caches created with SLAB_FAILSLAB are (s->flags); and the size
 * given to should_fail() is s->object_size.  Until then no cache is
 * the boot cache, none carries SLAB_FAILSLAB (so cache_filter, off by
 * default as in Linux, turns failslab off), and the size is 0, which
 * never uses up space.
 */
static inline bool failslab_boot_cache(struct kmem_cache *s)
{
	return false;
}

static inline bool failslab_cache_marked(struct kmem_cache *s)
{
	return false;
}

static inline ssize_t failslab_object_size(struct kmem_cache *s)
{
	return 0;
}

bool __should_failslab(struct kmem_cache *s, gfp_t gfp)
{
	if (unlikely(failslab_boot_cache(s)))
		return false;

	if (gfp & __GFP_NOFAIL)
		return false;

	if (failslab.ignore_gfp_reclaim && (gfp & __GFP_DIRECT_RECLAIM))
		return false;

	if (failslab.cache_filter && !failslab_cache_marked(s))
		return false;

	return should_fail(&failslab.attr, failslab_object_size(s));
}
#endif /* CONFIG_FAILSLAB */

/*
 * In Linux this wrapper sits in mm/slab_common.c (and is where BPF's
 * error injection attaches); it moves there with the SLUB port.
 */
noinline int should_failslab(struct kmem_cache *s, gfp_t gfp)
{
	if (__should_failslab(s, gfp))
		return -ENOMEM;
	return 0;
}
