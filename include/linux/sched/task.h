/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SCHED_TASK_H
#define _LINUX_SCHED_TASK_H

/*
 * Task references: usage counts the task's own reference plus one per
 * holder (kthread_stop(), wake queues, the PI chain walk).  The last put
 * frees the stack and the task_struct (kernel/fork.c).
 */
#include <linux/sched.h>

void put_task_struct_dead(struct task_struct *p);

/* The exiting task's final switch; entered with preemption disabled. */
void __noreturn do_task_dead(void);

/* Exited threads not yet freed (their stacks and task_structs). */
extern atomic_t nr_dying_tasks;
extern unsigned long total_forks;

static inline struct task_struct *get_task_struct(struct task_struct *t)
{
	atomic_inc(&t->usage);
	return t;
}

static inline void put_task_struct(struct task_struct *t)
{
	put_task_struct_dead(t);
}

#endif
