// SPDX-License-Identifier: GPL-2.0
/*
 * Heartbeat: progress of a long measurement on the console while it runs.
 *
 * While workloads measure, printk() only stores (console_hold() in a
 * group, printk_defer sections), so a progress printk() would appear only
 * when the run is over.  A console thread or a timer that prints would
 * add a wakeup and a thread the measurement does not have, and the
 * console lock would become shared with it.  So the line is written by
 * the measuring thread itself, in the gap between two samples, after the
 * sample was taken and before it arms the next one:
 *
 *  - nothing in the measured section changes: heartbeat_poll() runs after
 *    the latency has been read and accounted, as one compare of a time the
 *    thread already has, and only when a line is due does anything more;
 *  - no interrupts are disabled, no thread is woken, no lock is taken but
 *    the console's, with a try-lock that never waits
 *    (console_put_progress());
 *  - the line goes out one character at a time, each only if the time
 *    left before @deadline (the thread's next expiry) exceeds twice the
 *    slowest character so far plus a margin, so the next sample is never
 *    late because of it; what does not fit goes out in the next gaps;
 *  - it is not a printk record: it bypasses the hold and the ring, so it
 *    neither reorders nor crowds out the run's own output.
 *
 * heartbeat_ms=0 turns it off.
 */
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include "heartbeat.h"

/* Never closer than this to the deadline: the thread still has to sleep. */
#define HEARTBEAT_MARGIN_NS	(20 * NSEC_PER_USEC)

static int heartbeat_ms = 2000;
core_param_range("heartbeat_ms", heartbeat_ms, int, 0, 3600000,
		 "progress line of a running workload every this many ms (0: none)");

/* Tests: set the period (ms, 0: off); returns the one before. */
int heartbeat_set_period_ms(int ms)
{
	int old = heartbeat_ms;

	heartbeat_ms = ms;
	return old;
}

void heartbeat_start(struct heartbeat *hb, const char *what, u64 expected_ns)
{
	hb->what = what;
	hb->unit = NULL;
	hb->done = hb->total = 0;
	hb->start_ns = ktime_get_ns();
	hb->expected_ns = expected_ns;
	hb->period_ns = (u64)heartbeat_ms * NSEC_PER_MSEC;
	hb->next_ns = heartbeat_ms ? hb->start_ns + hb->period_ns : ~0ULL;
	hb->char_ns = 0;
	hb->len = hb->pos = 0;
	hb->beats = 0;
}

void heartbeat_off(struct heartbeat *hb)
{
	hb->next_ns = ~0ULL;
	hb->len = hb->pos = 0;
}

/* Seconds with ms, as hackbench's "Time:". */
static int hb_secs(char *buf, size_t size, u64 ns)
{
	u64 ms = ns / NSEC_PER_MSEC;

	return sniprintf(buf, size, "%llu.%03llu s", (unsigned long long)(ms / 1000),
			 (unsigned long long)(ms % 1000));
}

static void heartbeat_format(struct heartbeat *hb, u64 now)
{
	char el[24], ex[24];
	int n;

	hb_secs(el, sizeof(el), now - hb->start_ns);
	if (hb->expected_ns) {
		hb_secs(ex, sizeof(ex), hb->expected_ns);
		n = sniprintf(hb->line, sizeof(hb->line), "%s: heartbeat %s of %s", hb->what,
			      el, ex);
	} else {
		n = sniprintf(hb->line, sizeof(hb->line), "%s: heartbeat %s", hb->what, el);
	}
	if (hb->total && n < (int)sizeof(hb->line))
		n += sniprintf(hb->line + n, sizeof(hb->line) - n, ", %llu of %llu %s",
			       (unsigned long long)hb->done, (unsigned long long)hb->total,
			       hb->unit ? hb->unit : "");
	n = min(n, (int)sizeof(hb->line) - 2);
	hb->line[n++] = '\n';
	hb->line[n] = '\0';
	hb->len = n;
	hb->pos = 0;
}

void heartbeat_work(struct heartbeat *hb, u64 now, u64 deadline)
{
	if (hb->pos == hb->len)
		heartbeat_format(hb, now);
	while (hb->pos < hb->len) {
		u64 t0 = ktime_get_ns(), t1;

		if (deadline && t0 + 2 * hb->char_ns + HEARTBEAT_MARGIN_NS >= deadline)
			return;		/* the rest in a later gap */
		if (!console_put_progress(hb->line[hb->pos], hb->pos == 0))
			return;
		t1 = ktime_get_ns();
		hb->char_ns = max(hb->char_ns, t1 - t0);
		hb->pos++;
	}
	hb->beats++;
	hb->len = hb->pos = 0;
	/* The next whole period after now: a slow line does not pile up beats. */
	hb->next_ns = hb->start_ns + ((now - hb->start_ns) / hb->period_ns + 1) * hb->period_ns;
}
