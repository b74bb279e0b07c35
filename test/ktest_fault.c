// SPDX-License-Identifier: GPL-2.0
/*
 * Arming a fault-injection attribute for one test and putting it back:
 * the attribute may already be armed from the command line (a boot entry
 * with failslab= or fail_page_alloc=), so a case saves what it finds and
 * restores it afterwards.  Probability goes to 0 first and is set last,
 * so a concurrent should_fail() never sees a half-written attribute.
 */
#include <linux/ktest.h>
#include <linux/fault-inject.h>

void ktest_fault_arm(struct fault_attr *a, unsigned long probability,
		     bool task_filter, struct ktest_fault_saved *save)
{
	save->probability = a->probability;
	save->interval = a->interval;
	save->verbose = a->verbose;
	save->times = atomic_read(&a->times);
	save->space = atomic_read(&a->space);
	save->task_filter = a->task_filter;

	WRITE_ONCE(a->probability, 0);
	a->interval = 1;
	atomic_set(&a->times, -1);
	atomic_set(&a->space, 0);
	a->verbose = 0;
	a->task_filter = task_filter;
	WRITE_ONCE(a->probability, probability);
}

void ktest_fault_restore(struct fault_attr *a,
			 const struct ktest_fault_saved *save)
{
	WRITE_ONCE(a->probability, 0);
	a->interval = save->interval;
	a->verbose = save->verbose;
	atomic_set(&a->times, save->times);
	atomic_set(&a->space, save->space);
	a->task_filter = save->task_filter;
	WRITE_ONCE(a->probability, save->probability);
}
