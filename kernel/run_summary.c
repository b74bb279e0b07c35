// SPDX-License-Identifier: GPL-2.0
/*
 * The end-of-run summary line.  Reporters call in from thread context
 * after measuring, so a plain spinlock is enough; the line is printed once,
 * by init, after every workload has reported.
 */
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/cpumask.h>
#include <linux/record.h>
#include <linux/run_summary.h>
#include <asm/tsc.h>

static DEFINE_RAW_SPINLOCK(summary_lock);

static struct {
	char lat_what[24];
	u64 lat_ns;
	bool have_lat;
	char irqoff_tracer[16];
	char irqoff_opener[48];
	u64 irqoff_ns;
	bool have_irqoff;
	unsigned long lost;
	unsigned long missed;
	unsigned int breaches;
	char breach[64];
	char cmdline_error[160];
	unsigned int cmdline_errors;
} summary;

void run_summary_latency(const char *what, u64 ns)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&summary_lock, flags);
	if (!summary.have_lat || ns > summary.lat_ns) {
		summary.lat_ns = ns;
		strlcpy(summary.lat_what, what, sizeof(summary.lat_what));
		summary.have_lat = true;
	}
	raw_spin_unlock_irqrestore(&summary_lock, flags);
}

void run_summary_irqoff(const char *tracer, u64 ns, const char *opener)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&summary_lock, flags);
	if (!summary.have_irqoff || ns > summary.irqoff_ns) {
		summary.irqoff_ns = ns;
		strlcpy(summary.irqoff_tracer, tracer, sizeof(summary.irqoff_tracer));
		strlcpy(summary.irqoff_opener, opener ? opener : "-",
			sizeof(summary.irqoff_opener));
		summary.have_irqoff = true;
	}
	raw_spin_unlock_irqrestore(&summary_lock, flags);
}

/* Adds @n to one of the summary's counters. */
static __always_inline void summary_add(unsigned long *sum, unsigned long n)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&summary_lock, flags);
	*sum += n;
	raw_spin_unlock_irqrestore(&summary_lock, flags);
}

/*
 * Counts one more event of a kind whose first message the summary line
 * gives: later ones only add to the count.
 */
static void summary_count_first(unsigned int *count, char *first, size_t size,
				const char *msg)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&summary_lock, flags);
	if (!(*count)++)
		strlcpy(first, msg, size);
	raw_spin_unlock_irqrestore(&summary_lock, flags);
}

/* @what names the loser for the caller's reading; the line gives the sum. */
void run_summary_lost(const char *what, unsigned long n)
{
	summary_add(&summary.lost, n);
}

void run_summary_missed(const char *what, unsigned long n)
{
	summary_add(&summary.missed, n);
}

void run_summary_breach(const char *what, u64 ns, u64 thresh_ns)
{
	char msg[sizeof(summary.breach)];

	snprintf(msg, sizeof(msg), "%s %llu ns > %llu ns",
		 what, (unsigned long long)ns, (unsigned long long)thresh_ns);
	/* The first breach is the one that stopped tracing: keep it. */
	summary_count_first(&summary.breaches, summary.breach, sizeof(summary.breach), msg);
}

void run_summary_cmdline_error(const char *msg)
{
	summary_count_first(&summary.cmdline_errors, summary.cmdline_error,
			    sizeof(summary.cmdline_error), msg);
}

unsigned long run_summary_lost_total(void)
{
	return READ_ONCE(summary.lost) + record_failures();
}

/*
 * One line, every field always there ("-" when nothing measured it), so
 * that the last line of a log alone tells what the run was and whether it
 * passed.  "lost" adds up what reporters dropped, records refused and
 * console lines the printk ring overwrote before they were printed.
 */
void run_summary_print(const char *verdict)
{
	char lat[64] = "-", irqoff[96] = "-", why[176] = "";
	unsigned long lost = run_summary_lost_total();

	if (summary.have_lat)
		snprintf(lat, sizeof(lat), "%llu ns (%s)",
			 (unsigned long long)summary.lat_ns, summary.lat_what);
	if (summary.have_irqoff)
		snprintf(irqoff, sizeof(irqoff), "%llu ns at %s (%s)",
			 (unsigned long long)summary.irqoff_ns, summary.irqoff_opener,
			 summary.irqoff_tracer);
	/* The reason is on the same line: the last line alone must tell it. */
	if (summary.cmdline_errors)
		snprintf(why, sizeof(why), ": %s", summary.cmdline_error);
	else if (summary.breaches)
		snprintf(why, sizeof(why), ": threshold %s (%u breach%s)", summary.breach,
			 summary.breaches, summary.breaches > 1 ? "es" : "");
	/*
	 * Longer than one printk record can be: printed in three pieces that
	 * the console joins into one line (KERN_CONT), nothing else running.
	 */
	pr_info("irqlab: summary: mode %s, clock tsc %lu.%03lu MHz, cpus %u, worst latency %s, ",
		tsc_clock_mode(), tsc_khz / 1000, tsc_khz % 1000, num_online_cpus(), lat);
	pr_cont("worst irq-off %s, lost %lu, missed %lu, ", irqoff, lost, summary.missed);
	pr_cont("verdict %s%s\n", verdict, why);
}
