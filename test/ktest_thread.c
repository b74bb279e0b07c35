// SPDX-License-Identifier: GPL-2.0
/*
 * Thread helpers shared by suites that stage scenarios between kernel
 * threads: create one bound to a CPU with a policy, wait for a flag.
 */
#include <linux/ktest.h>
#include <linux/kthread.h>
#include <linux/sched.h>

struct task_struct *ktest_kthread(int (*fn)(void *), void *arg, const char *name,
				  int cpu, int policy, int prio)
{
	struct sched_param sp = { .sched_priority = prio };
	struct task_struct *p = kthread_create(fn, arg, "%s", name);

	if (!p)
		return NULL;
	if (cpu >= 0)
		kthread_bind(p, cpu);
	if (policy != SCHED_NORMAL)
		sched_setscheduler_nocheck(p, policy, &sp);
	return p;
}

/* Sleep until *flag is set; whoever sets it wakes us (or we poll per ms). */
void ktest_wait_flag(volatile bool *flag)
{
	while (!smp_load_acquire(flag)) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (smp_load_acquire(flag))
			break;
		schedule_timeout(1);
	}
	__set_current_state(TASK_RUNNING);
}

/* Run the calling test thread as SCHED_FIFO @prio (0: back to normal). */
void ktest_set_fifo(int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	sched_setscheduler_nocheck(current, prio ? SCHED_FIFO : SCHED_NORMAL, &sp);
}
