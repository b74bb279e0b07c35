/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_LOCK_STAT_H
#define _LINUX_LOCK_STAT_H

/*
 * lock_stat's statistics of one lock class (CONFIG_LOCK_STAT), as Linux
 * keeps them: per CPU while running, folded by lock_stat_read().  Times
 * are TSC ticks.  The hooks themselves are declared in <linux/lockdep.h>.
 */
#include <linux/types.h>
#include <linux/lockdep_types.h>

#define LOCKSTAT_POINTS		4	/* call sites kept per class and kind */

struct lock_time {
	u64 min, max, total;
	unsigned long nr;
};

/* An acquisition or contention on another CPU than the lock's last one. */
enum bounce_type {
	bounce_acquired_write,	/* + 1 for a reader: the _read one */
	bounce_acquired_read,	/* a shared acquisition */
	bounce_contended_write,	/* the same for contentions */
	bounce_contended_read,	/* a reader waited */
	nr_bounce_types,	/* the array's size */

	bounce_acquired = bounce_acquired_write,	/* base of the pair */
	bounce_contended = bounce_contended_write,	/* base of the pair */
};

struct lock_class_stats {
	unsigned long contention_point[LOCKSTAT_POINTS];	/* waiters' sites */
	unsigned long contending_point[LOCKSTAT_POINTS];	/* holders' sites */
	struct lock_time read_waittime, write_waittime;
	struct lock_time read_holdtime, write_holdtime;
	unsigned long bounces[nr_bounce_types];	/* by enum bounce_type */
	/*
	 * irqlab's additions, for the rtmutex-based locks of PREEMPT_RT:
	 * acquisitions that never waited (the fast path), waits that an
	 * adaptive spin ended, waits that slept, and their sleeps.
	 */
	unsigned long fastpath, spin_acquired, slept_waits, sleeps;
};

#ifdef CONFIG_LOCK_STAT
/* @lock's class totals over all CPUs; false if it has no class yet. */
bool lock_stat_read(struct lockdep_map *lock, struct lock_class_stats *out);
/* Forget @lock's class's counts and sites (tests). */
void lock_stat_clear(struct lockdep_map *lock);
/*
 * Every class's time waited (read and write sides, ns) and contentions so
 * far, indexed by class; returns the number of classes (at most
 * LOCK_STAT_MAX_CLASSES).  For perf stat's "time blocked" per class.
 */
#define LOCK_STAT_MAX_CLASSES	512U
unsigned int lock_stat_wait_totals(u64 *waited, unsigned long *contentions);
const char *lock_stat_class_name(unsigned int idx);
/* @lock's class index in those, or -1 before it has a class. */
int lock_stat_class_index(struct lockdep_map *lock);
static inline unsigned long lock_stat_contentions(const struct lock_class_stats *s)
{
	return s->read_waittime.nr + s->write_waittime.nr;
}
static inline unsigned long lock_stat_acquisitions(const struct lock_class_stats *s)
{
	return s->read_holdtime.nr + s->write_holdtime.nr;
}
#endif

#endif
