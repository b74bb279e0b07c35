/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_CPUHOTPLUG_H
#define _LINUX_CPUHOTPLUG_H

/*
 * The CPU hotplug states irqlab has, in Linux 5.15's order and with its
 * names, so a subsystem's callbacks run at the point they run in Linux.
 *
 * Bringing a CPU up walks the states upwards and calls each startup
 * callback; taking it down walks them downwards and calls each teardown.
 * Where a callback runs follows from its section:
 *   CPUHP_OFFLINE .. CPUHP_BRINGUP_CPU    on the control CPU (the one
 *                                          calling cpu_up()/cpu_down());
 *                                          the teardowns of this section
 *                                          are the "_DEAD" callbacks, run
 *                                          after the CPU has stopped;
 *   CPUHP_AP_OFFLINE .. CPUHP_AP_ONLINE   on the plugged CPU with IRQs
 *                                          off (bringup: early in its
 *                                          start; teardown: inside
 *                                          stop_machine's take_cpu_down);
 *   CPUHP_AP_ONLINE_IDLE .. CPUHP_ONLINE  on the plugged CPU in its
 *                                          cpuhp/N thread, preemptible.
 */
enum cpuhp_state {
	CPUHP_INVALID = -1,
	CPUHP_OFFLINE = 0,
	CPUHP_CREATE_THREADS,
	CPUHP_SLUB_DEAD,
	CPUHP_MM_VMSTAT_DEAD,
	CPUHP_SOFTIRQ_DEAD,
	CPUHP_PAGE_ALLOC,
	CPUHP_WORKQUEUE_PREP,
	CPUHP_HRTIMERS_PREPARE,
	CPUHP_SMPCFD_PREPARE,
	CPUHP_RCUTREE_PREP,
	CPUHP_TIMERS_PREPARE,
	CPUHP_BP_PREPARE_DYN,
	CPUHP_BP_PREPARE_DYN_END = CPUHP_BP_PREPARE_DYN + 4,
	CPUHP_BRINGUP_CPU,
	CPUHP_AP_IDLE_DEAD,
	CPUHP_AP_OFFLINE,
	CPUHP_AP_SCHED_STARTING,
	CPUHP_AP_RCUTREE_DYING,
	CPUHP_AP_LOCAL_TIMER_STARTING,
	CPUHP_AP_SMPCFD_DYING,
	CPUHP_AP_ONLINE,
	CPUHP_TEARDOWN_CPU,
	CPUHP_AP_ONLINE_IDLE,
	CPUHP_AP_SCHED_WAIT_EMPTY,
	CPUHP_AP_SMPBOOT_THREADS,
	CPUHP_AP_WATCHDOG_ONLINE,
	CPUHP_AP_WORKQUEUE_ONLINE,
	CPUHP_AP_RCUTREE_ONLINE,
	CPUHP_AP_ONLINE_DYN,
	CPUHP_AP_ONLINE_DYN_END = CPUHP_AP_ONLINE_DYN + 8,
	CPUHP_AP_ACTIVE,
	CPUHP_ONLINE,
};

/*
 * Install a state's callbacks.  The _nocalls form only installs them; the
 * plain form also runs startup on every CPU already past the state (as
 * Linux's cpuhp_setup_state() does).  A dynamic state (CPUHP_BP_PREPARE_DYN
 * or CPUHP_AP_ONLINE_DYN) returns the state it was given, else 0; a
 * negative errno on failure.
 */
int cpuhp_setup_state(enum cpuhp_state state, const char *name,
		      int (*startup)(unsigned int cpu),
		      int (*teardown)(unsigned int cpu));
int cpuhp_setup_state_nocalls(enum cpuhp_state state, const char *name,
			      int (*startup)(unsigned int cpu),
			      int (*teardown)(unsigned int cpu));
void cpuhp_remove_state_nocalls(enum cpuhp_state state);

#endif
