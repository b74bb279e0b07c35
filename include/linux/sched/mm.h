/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SCHED_MM_H
#define _LINUX_SCHED_MM_H

/*
 * The allocation context checks (Linux keeps might_alloc() here too).
 */
#include <linux/gfp.h>
#include <linux/sched.h>

/*
 * Every allocation entry point (slab_pre_alloc_hook(), __alloc_pages())
 * says whether its gfp flags may block.  A blocking one is might_sleep_if()
 * in Linux: under DEBUG_ATOMIC_SLEEP the atomic-context check and the
 * might_resched(); without it only the might_resched().  Either way a
 * GFP_KERNEL allocation is a voluntary preemption point on
 * PREEMPT_VOLUNTARY (might_resched() is empty on the other models); a
 * GFP_ATOMIC or GFP_NOWAIT one never is.  irqlab's might_sleep() always
 * checks, so the check half stays behind the config option here.
 */
static inline void might_alloc(gfp_t gfp_mask)
{
	if (!gfpflags_allow_blocking(gfp_mask))
		return;
	if (IS_ENABLED(CONFIG_DEBUG_ATOMIC_SLEEP))
		might_sleep();
	else
		might_resched();
}

/*
 * Reclaimers run with PF_MEMALLOC: their own allocations may use the
 * reserves below the min watermark and never recurse into reclaim.
 */
static inline unsigned int memalloc_noreclaim_save(void)
{
	unsigned int flags = current->flags & PF_MEMALLOC;

	current->flags |= PF_MEMALLOC;
	return flags;
}

static inline void memalloc_noreclaim_restore(unsigned int flags)
{
	current->flags = (current->flags & ~PF_MEMALLOC) | flags;
}

#endif
