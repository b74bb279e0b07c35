/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SCHED_PRIO_H
#define _LINUX_SCHED_PRIO_H

/*
 * Kernel priorities, lower is more important: 0..99 real-time
 * (prio = 99 - rt_priority), 100..139 normal (nice -20..19), as in Linux.
 */
#define MAX_NICE	19
#define MIN_NICE	-20
#define NICE_WIDTH	(MAX_NICE - MIN_NICE + 1)
#define MAX_RT_PRIO	100
#define MAX_PRIO	(MAX_RT_PRIO + NICE_WIDTH)
#define DEFAULT_PRIO	(MAX_RT_PRIO + NICE_WIDTH / 2)

#define NICE_TO_PRIO(nice)	((nice) + DEFAULT_PRIO)
#define PRIO_TO_NICE(prio)	((prio) - DEFAULT_PRIO)

#endif
