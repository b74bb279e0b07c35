/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_NMI_H
#define _LINUX_NMI_H
/*
 * The lockup detectors (kernel/watchdog.c, kernel/watchdog_hld.c) and
 * the NMI backtrace helpers.  Linux's names and semantics: code that
 * legitimately keeps a CPU busy for seconds touches the detectors.
 */
#include <linux/types.h>
#include <linux/atomic.h>

struct pt_regs;

extern int watchdog_thresh;		/* seconds; 0 turns both detectors off */
extern int watchdog_user_enabled;
extern int soft_watchdog_user_enabled;
extern int nmi_watchdog_user_enabled;
extern int softlockup_panic;
extern int hardlockup_panic;

#define NMI_WATCHDOG_ENABLED_BIT	0
#define SOFT_WATCHDOG_ENABLED_BIT	1
#define NMI_WATCHDOG_ENABLED		(1 << NMI_WATCHDOG_ENABLED_BIT)
#define SOFT_WATCHDOG_ENABLED		(1 << SOFT_WATCHDOG_ENABLED_BIT)
extern unsigned long watchdog_enabled;

/*
 * Soft lockups, hard lockups and RCU CPU stalls reported so far.  A run
 * fails when this is nonzero at its end; a test that plants a lockup
 * checks the count and puts it back.  A report is counted once it is
 * complete (stacks and all): a planted stall that ends when it sees the
 * count move must not end while another CPU is still describing it.
 */
extern atomic_t lockup_report_count;
/* The printk sequence number when the count last moved (tests check it). */
extern u64 lockup_report_seq;
/* The last step of every report: note where the log is, then count it. */
void lockup_report_done(void);

void lockup_detector_init(void);
/* CPUHP_AP_WATCHDOG_ONLINE's callbacks: run on @cpu, process context. */
int lockup_detector_online_cpu(unsigned int cpu);

struct task_struct;
/* Who last started @cpu's lockup detector, and on which CPU (tests). */
struct watchdog_start_record {
	struct task_struct *task;
	int on_cpu;
	bool in_task;			/* not from an interrupt (IPI) */
	unsigned int count;
};
void watchdog_start_record(unsigned int cpu, struct watchdog_start_record *rec);
int lockup_detector_offline_cpu(unsigned int cpu);

void touch_softlockup_watchdog(void);
void touch_softlockup_watchdog_sched(void);
void touch_softlockup_watchdog_sync(void);
void touch_all_softlockup_watchdogs(void);
void arch_touch_nmi_watchdog(void);

/* Both: the caller keeps this CPU busy on purpose (a long dump, a poll). */
static inline void touch_nmi_watchdog(void)
{
	arch_touch_nmi_watchdog();
	touch_softlockup_watchdog();
}

/* kernel/watchdog.c for watchdog_hld.c */
bool is_hardlockup(void);
u64 watchdog_sample_period_ns(void);

/* kernel/watchdog_hld.c */
int watchdog_nmi_probe(void);
void watchdog_nmi_enable(unsigned int cpu);
void watchdog_nmi_disable(unsigned int cpu);
void watchdog_update_hrtimer_threshold(u64 period);
/* Where the hard lockup detector gets its NMIs: "hpet", "none". */
const char *hardlockup_detector_source(void);
/* Why the PMU was not the hard lockup detector's source ("" if it was). */
const char *hardlockup_detector_pmu_reason(void);
/*
 * The profiler wants HPET timer 0 for itself: the detector hands it over
 * and checks on the profiler's NMIs until it gets the timer back.
 */
void hardlockup_detector_hpet_yield(void);
void hardlockup_detector_hpet_reclaim(void);

/* kernel/rcu/tree_stall.h */
extern int rcu_cpu_stall_suppress;
extern int rcu_cpu_stall_timeout;
void rcu_cpu_stall_reset(void);

#endif /* _LINUX_NMI_H */
