/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_KTHREAD_H
#define _LINUX_KTHREAD_H

#include <linux/sched.h>

/*
 * Kernel threads.  kthread_create() returns a task that has not run yet
 * (asleep, TASK_UNINTERRUPTIBLE); wake_up_process() starts it.  A thread
 * function that returns ends the thread; kthread_stop() asks it to return
 * (kthread_should_stop()) and waits for its exit code.
 */
struct task_struct *kthread_create_on_cpu_node(int (*threadfn)(void *data), void *data,
					       int node, const char *fmt, ...) __printf(4, 5);
#define kthread_create(fn, data, fmt, ...) \
	kthread_create_on_cpu_node(fn, data, -1, fmt, ##__VA_ARGS__)
#define kthread_run(fn, data, fmt, ...) ({					\
	struct task_struct *__k = kthread_create(fn, data, fmt, ##__VA_ARGS__);\
	if (__k)								\
		wake_up_process(__k);						\
	__k;									\
})
void kthread_bind(struct task_struct *p, unsigned int cpu);
/*
 * A per-CPU kthread (stopper, cpuhp, ksoftirqd, a bound kworker) may run
 * on its CPU until the CPU is dead; any other task, bound or not, is
 * pushed off a CPU going down.  @cpu < 0 clears the mark.
 */
void kthread_set_per_cpu(struct task_struct *p, int cpu);
/*
 * Parking (for per-CPU threads of a CPU going down): kthread_park()
 * returns once @k sleeps in TASK_PARKED, off every CPU; the thread parks
 * at its next kthread_should_park() check by calling kthread_parkme().
 * kthread_unpark() binds it to its CPU again and lets it go on.
 */
void kthread_park(struct task_struct *k);
void kthread_unpark(struct task_struct *k);
/*
 * A thread kthread_create() made and nobody woke yet (its CPU is not up)
 * counts as parked: its first run is kthread_unpark()'s wakeup.
 */
void kthread_park_unstarted(struct task_struct *k);
bool kthread_should_park(void);
/* Has kthread_park() asked @k to park (it may not have parked yet)? */
bool __kthread_should_park(struct task_struct *k);
void kthread_parkme(void);
bool kthread_is_per_cpu(struct task_struct *p);
int kthread_stop(struct task_struct *k);
bool kthread_should_stop(void);
__noreturn void kthread_exit(int result);

void put_task_struct_dead(struct task_struct *p);
struct task_struct *fork_idle(int cpu, unsigned long stack_top);

#endif
