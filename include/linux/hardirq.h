/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_HARDIRQ_H
#define _LINUX_HARDIRQ_H

#include <linux/preempt.h>

/*
 * Hard interrupt and NMI accounting in preempt_count.  irq_exit() is where
 * softirqs run and where a full-preemption kernel reschedules; the
 * scheduler and softirq issues hook in there.
 */
void irq_enter(void);
void irq_exit(void);

#define __nmi_enter()	__preempt_count_add(NMI_OFFSET + HARDIRQ_OFFSET)
#define __nmi_exit()	__preempt_count_sub(NMI_OFFSET + HARDIRQ_OFFSET)
#define nmi_enter()	do { __nmi_enter(); barrier(); } while (0)
#define nmi_exit()	do { barrier(); __nmi_exit(); } while (0)

#endif
