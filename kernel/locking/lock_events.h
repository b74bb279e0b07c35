/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __LOCKING_LOCK_EVENTS_H
#define __LOCKING_LOCK_EVENTS_H

/*
 * Per-CPU counts of lock slow-path events, as Linux's
 * CONFIG_LOCK_EVENT_COUNTS.  irqlab keeps them on in every build: they
 * are bumped only on paths that already spin or sleep, with one %gs
 * add, and the locking tests read them to see which path a lock took.
 */
#include <linux/percpu.h>

enum lock_events {
#define LOCK_EVENT(name)	LOCKEVENT_ ## name,
#include "lock_events_list.h"
#undef LOCK_EVENT
	lockevent_num,
};

DECLARE_PER_CPU(unsigned long, lockevents[lockevent_num]);

#define lockevent_inc(ev)	this_cpu_inc(lockevents[LOCKEVENT_ ## ev])
#define lockevent_cond_inc(ev, c) do {					\
	if (c)								\
		lockevent_inc(ev);					\
} while (0)

/* The sum over all CPUs; racy against concurrent events, as a statistic. */
unsigned long lockevent_read(enum lock_events ev);
const char *lockevent_name(enum lock_events ev);

#endif
