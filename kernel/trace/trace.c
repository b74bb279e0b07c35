// SPDX-License-Identifier: GPL-2.0
/*
 * The global tracing switch, with Linux's names: tracing_off() stops the
 * latency tracers from filing windows (Linux turns the ring buffer off,
 * which is where its tracers write), so that a tool that saw a threshold
 * crossed (cyclic.threshold_us, like cyclictest -b) keeps the trace as it
 * was at the breach.  Windows keep opening and closing; only filing stops.
 * Nothing turns it back on except tracing_on(), as in Linux.
 */
#include <linux/kernel.h>
#include <linux/trace_irqsoff.h>

bool tracing_buffer_disabled;

void tracing_on(void)
{
	WRITE_ONCE(tracing_buffer_disabled, false);
	lat_tracing_onoff(true);
}

void tracing_off(void)
{
	WRITE_ONCE(tracing_buffer_disabled, true);
	lat_tracing_onoff(false);
}

int tracing_is_on(void)
{
	return !READ_ONCE(tracing_buffer_disabled);
}
