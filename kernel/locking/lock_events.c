// SPDX-License-Identifier: GPL-2.0
/* Lock event counters (lock_events.h). */
#include <linux/cpumask.h>
#include "lock_events.h"

DEFINE_PER_CPU(unsigned long, lockevents[lockevent_num]);

static const char *const lockevent_names[lockevent_num] = {
#define LOCK_EVENT(name)	[LOCKEVENT_ ## name] = #name,
#include "lock_events_list.h"
#undef LOCK_EVENT
};

unsigned long lockevent_read(enum lock_events ev)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu(lockevents, cpu)[ev]);
	return sum;
}

const char *lockevent_name(enum lock_events ev)
{
	return ev < lockevent_num ? lockevent_names[ev] : "?";
}
