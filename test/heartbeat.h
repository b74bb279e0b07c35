/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TEST_HEARTBEAT_H
#define _TEST_HEARTBEAT_H

/*
 * Progress lines from a measuring workload (test/heartbeat.c):
 *
 *	[   12.000123] cyclic: heartbeat 10.000 s of 20.000 s
 *
 * every heartbeat_ms of the run, written by the workload's own thread in
 * the gaps between its samples.  See heartbeat.c for why that disturbs
 * nothing.
 */
#include <linux/types.h>
#include <linux/compiler.h>

struct heartbeat {
	u64 next_ns;		/* a line is due (or half written) from here; ~0: off */
	u64 start_ns, expected_ns, period_ns;
	u64 char_ns;		/* the slowest character so far */
	u64 done, total;	/* optional progress in the workload's units */
	const char *what, *unit;
	unsigned int len, pos;	/* the line, and how much of it is out */
	unsigned int beats;	/* lines completed */
	char line[96];
};

/* @expected_ns: how long the run should take (0: not known). */
void heartbeat_start(struct heartbeat *hb, const char *what, u64 expected_ns);
void heartbeat_off(struct heartbeat *hb);
int heartbeat_set_period_ms(int ms);
void heartbeat_work(struct heartbeat *hb, u64 now, u64 deadline);

/*
 * Between samples: @now is a time the caller just read, @deadline when
 * it must be back at its measurement (its next expiry; 0: none).  One
 * compare unless a line is due.
 */
static inline void heartbeat_poll(struct heartbeat *hb, u64 now, u64 deadline)
{
	if (unlikely(now >= hb->next_ns))
		heartbeat_work(hb, now, deadline);
}

#endif
