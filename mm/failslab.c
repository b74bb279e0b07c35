// SPDX-License-Identifier: GPL-2.0
/*
 * failslab: injected slab allocation failures, after Linux 5.15's
 * mm/failslab.c.  SLUB's slab_pre_alloc_hook() calls should_failslab()
 * before each allocation (kmem_cache_alloc*, kmalloc, bulk) and returns
 * NULL when it says so.  The cache of caches is never failed; with
 * failslab.cache_filter only caches created with SLAB_FAILSLAB (or
 * slub_debug=A) are.
 *
 * failslab=<interval>,<probability>,<space>,<times> arms it at boot;
 * failslab.ignore_gfp_wait (default on, as Linux's ignore-gfp-wait)
 * leaves allocations that may sleep alone.
 */
#include <linux/fault-inject.h>
#include <linux/gfp.h>
#include <linux/moduleparam.h>
#include <linux/errno.h>
#include "slab.h"

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

bool __should_failslab(struct kmem_cache *s, gfp_t gfp)
{
	if (unlikely(s == kmem_cache))
		return false;

	if (gfp & __GFP_NOFAIL)
		return false;

	if (failslab.ignore_gfp_reclaim && (gfp & __GFP_DIRECT_RECLAIM))
		return false;

	if (failslab.cache_filter && !(s->flags & SLAB_FAILSLAB))
		return false;

	return should_fail(&failslab.attr, s->object_size);
}

/*
 * In Linux this wrapper sits in mm/slab_common.c (and is where BPF's
 * error injection attaches); it moves there with the SLUB port.  Without
 * FAILSLAB it is an inline 0 (linux/fault-inject.h).
 */
noinline int should_failslab(struct kmem_cache *s, gfp_t gfp)
{
	if (__should_failslab(s, gfp))
		return -ENOMEM;
	return 0;
}
#endif /* CONFIG_FAILSLAB */
