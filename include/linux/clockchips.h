/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_CLOCKCHIPS_H
#define _LINUX_CLOCKCHIPS_H

#include <linux/types.h>

#define CLOCK_EVT_FEAT_ONESHOT	0x1
#define CLOCK_EVT_FEAT_DEADLINE	0x2	/* absolute TSC deadline */

/*
 * A per-CPU one-shot timer device.  Times are ktime_get() nanoseconds;
 * mult/shift convert a nanosecond delta into device ticks
 * (ticks = ns * mult >> shift), clamped to [min_delta_ns, max_delta_ns].
 */
struct clock_event_device {
	void (*event_handler)(struct clock_event_device *dev);
	int (*set_next_event)(unsigned long ticks, struct clock_event_device *dev);
	void (*set_state_shutdown)(struct clock_event_device *dev);
	u64 next_event;			/* ns; U64_MAX when idle */
	u64 max_delta_ns, min_delta_ns;
	u32 mult, shift;
	unsigned int features;
	int cpu;
	const char *name;
	unsigned long events;		/* interrupts taken */
	unsigned long early;		/* ...that came before next_event: re-armed */
	unsigned long stale;		/* ...with nothing programmed: dropped */
};

/* Program @dev to fire at @expires (ns); -ETIME if already past and !force. */
int clockevents_program_event(struct clock_event_device *dev, u64 expires, bool force);
void clockevents_shutdown(struct clock_event_device *dev);
void clockevents_config(struct clock_event_device *dev, u64 freq_hz,
			unsigned long min_ticks, unsigned long max_ticks);
struct clock_event_device *this_cpu_clockevent(void);

#endif
