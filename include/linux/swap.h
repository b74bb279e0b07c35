/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SWAP_H
#define _LINUX_SWAP_H

/*
 * Reclaim's interface (Linux keeps it in swap.h).  There is no swap and no
 * LRU here: reclaim means the shrinkers, and the slab pages SLUB hands back
 * while they run (both ports' __free_slab() add to the reclaim_state).
 */
#include <linux/types.h>
#include <linux/gfp.h>
#include <linux/sched.h>
#include <linux/mmzone.h>

/*
 * The pages a reclaimer got back from slab caches and shrinker-owned
 * memory, which are on no LRU list: whoever frees such pages while
 * current->reclaim_state is set adds them to reclaimed_slab.
 */
struct reclaim_state {
	unsigned long reclaimed_slab;
};

/* Pages reclaim tries to free in one go (nr_to_reclaim of direct reclaim). */
#define SWAP_CLUSTER_MAX	32UL

static inline int current_is_kswapd(void)
{
	return current->flags & PF_KSWAPD;
}

/* Slab pages freed by @pages: counted if the caller is reclaiming. */
static inline void reclaim_account_slab(unsigned long pages)
{
	struct reclaim_state *rs = current->reclaim_state;

	if (rs)
		rs->reclaimed_slab += pages;
}

unsigned long try_to_free_pages(struct zonelist *zonelist, int order,
				gfp_t gfp_mask);
void wakeup_kswapd(struct zone *zone, gfp_t gfp_flags, int order,
		   enum zone_type highest_zoneidx);
int kswapd_run(int nid);
void kswapd_init(void);

#endif /* _LINUX_SWAP_H */
