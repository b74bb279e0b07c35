/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_THREAD_INFO_H
#define _ASM_X86_THREAD_INFO_H

#define TIF_NEED_RESCHED	3
#define TIF_NEED_RESCHED_LAZY	9	/* PREEMPT_LAZY: honoured at the tick */

#define THREAD_SIZE_ORDER	2
#define THREAD_SIZE		(4096 << THREAD_SIZE_ORDER)

#ifndef __ASSEMBLY__
struct thread_info {
	unsigned long flags;
	int preempt_lazy_count;	/* PREEMPT_LAZY: > 0 defers lazy preemption */
	int softirq_disable_cnt; /* PREEMPT_RT: softirq state is per task */
};
#endif

#endif
