// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU kthreads and CPU hotplug, as Linux's kernel/smpboot.c.
 *
 * A family registered here gets a thread on every CPU already online at
 * once, woken there.  A CPU that comes up later gets its thread from
 * CPUHP_CREATE_THREADS, the first prepare state, on the control CPU
 * before the CPU is started: the thread is made parked (it has never run)
 * and first runs when CPUHP_AP_SMPBOOT_THREADS unparks it, in cpuhp/N on
 * the new CPU, bound there.  On the CPU going down the same state's
 * teardown parks the families that do not park themselves (before
 * sched_cpu_wait_empty(), so none of them is woken onto the run queue the
 * take-down expects empty); the threads live on for the next bring-up.
 */
#include <linux/smpboot.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/cpu.h>
#include <linux/smp.h>
#include <linux/sched.h>
#include <linux/errno.h>

static LIST_HEAD(hotplug_threads);
static DEFINE_MUTEX(smpboot_threads_lock);

/* Each thread made, for the boot_order test (smpboot_threads_lock). */
static struct smpboot_create_record create_records[SMPBOOT_CREATE_RECORDS];
static unsigned int nr_create_records;

unsigned int smpboot_create_records(const struct smpboot_create_record **recs)
{
	*recs = create_records;
	return READ_ONCE(nr_create_records);
}

static void smpboot_record_create(struct smp_hotplug_thread *ht, unsigned int cpu)
{
	struct smpboot_create_record *r;

	if (nr_create_records >= SMPBOOT_CREATE_RECORDS)
		return;
	r = &create_records[nr_create_records];
	r->comm = ht->thread_comm;
	r->cpu = cpu;
	r->on_cpu = raw_smp_processor_id();
	r->cpuhp_state = cpuhp_get_state(cpu);
	r->cpu_online = cpu_online(cpu);
	smp_store_release(&nr_create_records, nr_create_records + 1);
}

/*
 * @ht's thread for @cpu, bound to it.  For a CPU not yet online it stays
 * parked until CPUHP_AP_SMPBOOT_THREADS (Linux parks it at once; irqlab's
 * new thread has not run, so it is parked without running).
 */
static int __smpboot_create_thread(struct smp_hotplug_thread *ht, unsigned int cpu)
{
	struct task_struct *tsk = *per_cpu_ptr(ht->store, cpu);

	if (tsk)
		return 0;
	tsk = kthread_create(ht->thread_fn, (void *)(unsigned long)cpu, ht->thread_comm, cpu);
	if (!tsk)
		return -ENOMEM;
	kthread_bind(tsk, cpu);
	kthread_set_per_cpu(tsk, cpu);
	if (!cpu_online(cpu))
		kthread_park_unstarted(tsk);
	*per_cpu_ptr(ht->store, cpu) = tsk;
	if (ht->create)
		ht->create(cpu);
	smpboot_record_create(ht, cpu);
	return 0;
}

/* CPUHP_CREATE_THREADS' startup, on the control CPU before @cpu starts. */
int smpboot_create_threads(unsigned int cpu)
{
	struct smp_hotplug_thread *cur;
	int ret = 0;

	mutex_lock(&smpboot_threads_lock);
	list_for_each_entry(cur, &hotplug_threads, list) {
		ret = __smpboot_create_thread(cur, cpu);
		if (ret)
			break;
	}
	mutex_unlock(&smpboot_threads_lock);
	return ret;
}

int smpboot_register_percpu_thread(struct smp_hotplug_thread *plug_thread)
{
	unsigned int cpu;
	int ret = 0;

	/* cpus_read_lock(): no CPU changes state while the family joins. */
	cpus_read_lock();
	mutex_lock(&smpboot_threads_lock);
	for_each_online_cpu(cpu) {
		ret = __smpboot_create_thread(plug_thread, cpu);
		if (ret)
			goto out;
		wake_up_process(*per_cpu_ptr(plug_thread->store, cpu));
	}
	list_add(&plug_thread->list, &hotplug_threads);
out:
	mutex_unlock(&smpboot_threads_lock);
	cpus_read_unlock();
	return ret;
}

/* CPUHP_AP_SMPBOOT_THREADS' teardown, in cpuhp/@cpu. */
int smpboot_park_threads(unsigned int cpu)
{
	struct smp_hotplug_thread *cur;

	mutex_lock(&smpboot_threads_lock);
	list_for_each_entry_reverse(cur, &hotplug_threads, list) {
		struct task_struct *tsk = *per_cpu_ptr(cur->store, cpu);

		if (tsk && !cur->selfparking)
			kthread_park(tsk);
	}
	mutex_unlock(&smpboot_threads_lock);
	return 0;
}

/*
 * CPUHP_AP_SMPBOOT_THREADS' startup, in cpuhp/@cpu: every family's thread
 * runs again, or for the first time, on @cpu.
 */
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
