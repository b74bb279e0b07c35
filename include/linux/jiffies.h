/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_JIFFIES_H
#define _LINUX_JIFFIES_H

/*
 * jiffies counts scheduler ticks (CONFIG_HZ per second) since boot; it is
 * advanced by CPU 0's tick.  Conversions round up, so a delay of at least
 * the requested length is never turned into a shorter one.
 */
#include <linux/types.h>
#include <linux/ktime.h>

#define HZ		CONFIG_HZ
#define TICK_NSEC	(NSEC_PER_SEC / HZ)	/* one tick, in ns */

extern unsigned long volatile jiffies;

#define time_after(a, b)	((long)((b) - (a)) < 0)
#define time_before(a, b)	time_after(b, a)
#define time_after_eq(a, b)	((long)((a) - (b)) >= 0)
#define time_before_eq(a, b)	time_after_eq(b, a)

static inline unsigned long msecs_to_jiffies(unsigned int m)
{
	return ((unsigned long)m * HZ + 999) / 1000;
}

static inline unsigned long usecs_to_jiffies(unsigned int u)
{
	return ((unsigned long)u * HZ + 999999) / 1000000;
}

static inline unsigned int jiffies_to_msecs(unsigned long j)
{
	return j * 1000 / HZ;
}

static inline u64 jiffies_to_nsecs(unsigned long j)
{
	return (u64)j * (NSEC_PER_SEC / HZ);
}

#endif
