/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SCHED_CLOCK_H
#define _LINUX_SCHED_CLOCK_H

#include <linux/types.h>

/* Nanoseconds since boot from the TSC; 0 until the TSC is calibrated. */
u64 local_clock(void);

#endif
