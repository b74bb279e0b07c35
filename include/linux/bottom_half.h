/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_BH_H
#define _LINUX_BH_H

/*
 * Disabling softirq processing on this CPU (kernel/softirq.c): a count in
 * preempt_count on !RT; on PREEMPT_RT a per-task count plus the per-CPU
 * softirq_ctrl lock, so the section stays preemptible.
 */
void local_bh_disable(void);
void local_bh_enable(void);

#endif
