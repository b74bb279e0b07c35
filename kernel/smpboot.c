// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU kthreads and CPU hotplug: the families registered here are
 * parked, on the CPU going down, by CPUHP_AP_SMPBOOT_THREADS' teardown
 * (before sched_cpu_wait_empty(), so none of them is woken onto the run
 * queue the take-down expects empty) and unparked, bound to their CPU
 * again, by its startup when the CPU is back.
 */
#include <linux/smpboot.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/cpu.h>

static LIST_HEAD(hotplug_threads);
static DEFINE_MUTEX(smpboot_threads_lock);

int smpboot_register_percpu_thread(struct smp_hotplug_thread *plug_thread)
{
	/* cpus_read_lock(): no CPU changes state while the family joins. */
	cpus_read_lock();
	mutex_lock(&smpboot_threads_lock);
	list_add(&plug_thread->list, &hotplug_threads);
	mutex_unlock(&smpboot_threads_lock);
	cpus_read_unlock();
	return 0;
}

int smpboot_park_threads(unsigned int cpu)
{
	struct smp_hotplug_thread *cur;

	mutex_lock(&smpboot_threads_lock);
	list_for_each_entry_reverse(cur, &hotplug_threads, list) {
		struct task_struct *tsk = *per_cpu_ptr(cur->store, cpu);

		if (tsk)
			kthread_park(tsk);
	}
	mutex_unlock(&smpboot_threads_lock);
	return 0;
}

int smpboot_unpark_threads(unsigned int cpu)
{
	struct smp_hotplug_thread *cur;

	mutex_lock(&smpboot_threads_lock);
	list_for_each_entry(cur, &hotplug_threads, list) {
		struct task_struct *tsk = *per_cpu_ptr(cur->store, cpu);

		if (tsk)
			kthread_unpark(tsk);
	}
	mutex_unlock(&smpboot_threads_lock);
	return 0;
}
