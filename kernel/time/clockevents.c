// SPDX-License-Identifier: GPL-2.0
/* Programming one-shot clock event devices in nanoseconds. */
#include <linux/kernel.h>
#include <linux/clockchips.h>
#include <linux/ktime.h>
#include <linux/errno.h>


void clockevents_config(struct clock_event_device *dev, u64 freq_hz,
			unsigned long min_ticks, unsigned long max_ticks)
{
	u64 mult;

	/*
	 * The largest shift (most precision) whose mult still fits in 32 bits:
	 * a 1 GHz device needs mult = 2^32 at shift 32, which does not.
	 * Conversions use 128-bit products, so the product cannot overflow.
	 */
	for (dev->shift = 32; dev->shift > 0; dev->shift--) {
		mult = ((unsigned __int128)freq_hz << dev->shift) / NSEC_PER_SEC;
		if (mult <= 0xffffffffULL)
			break;
	}
	dev->mult = mult;
	dev->min_delta_ns = DIV_ROUND_UP((u64)min_ticks * NSEC_PER_SEC, freq_hz);
	dev->max_delta_ns = (u64)max_ticks * NSEC_PER_SEC / freq_hz;
}

static unsigned long ns_to_ticks(struct clock_event_device *dev, u64 ns)
{
	return (unsigned long)(((unsigned __int128)ns * dev->mult) >> dev->shift);
}

int clockevents_program_event(struct clock_event_device *dev, u64 expires, bool force)
{
	u64 now = ktime_get_ns();
	s64 delta = (s64)(expires - now);

	dev->next_event = expires;
	if (delta <= 0 && !force)
		return -ETIME;
	if (delta < (s64)dev->min_delta_ns)
		delta = dev->min_delta_ns;
	if ((u64)delta > dev->max_delta_ns)
		delta = dev->max_delta_ns;
	/* Round up: an event must never fire before its time. */
	return dev->set_next_event(ns_to_ticks(dev, delta) + 1, dev);
}

void clockevents_shutdown(struct clock_event_device *dev)
{
	dev->next_event = ~0ULL;
	if (dev->set_state_shutdown)
		dev->set_state_shutdown(dev);
}
