/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_CURRENT_H
#define _ASM_X86_CURRENT_H

#include <asm/percpu.h>
#include <asm/thread_info.h>

struct task_struct;
extern __attribute__((section(".data..percpu"))) struct task_struct *current_task;

/* thread_info is the first member of task_struct (THREAD_INFO_IN_TASK). */
static __always_inline struct thread_info *current_thread_info(void)
{
	return (struct thread_info *)this_cpu_read(current_task);
}

#endif
