/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_KTIME_H
#define _LINUX_KTIME_H

#include <linux/types.h>

typedef s64 ktime_t;

#define NSEC_PER_USEC	1000L
#define NSEC_PER_MSEC	1000000L
#define NSEC_PER_SEC	1000000000L
#define USEC_PER_SEC	1000000L

/* Monotonic nanoseconds since boot, from the TSC; same on every CPU. */
u64 ktime_get_ns(void);
static inline ktime_t ktime_get(void)
{
	return (ktime_t)ktime_get_ns();
}

/* ktime_t is plain nanoseconds here, as in Linux since 4.10. */
static inline ktime_t ns_to_ktime(u64 ns)
{
	return (ktime_t)ns;
}

static inline s64 ktime_to_ns(ktime_t kt)
{
	return kt;
}

#endif
