// SPDX-License-Identifier: GPL-2.0
/*
 * The checks a real kernel makes: sleeping in atomic context.  Reports
 * are worded like Linux's, carry a backtrace and count as kernel bugs
 * (the run then ends with status=fail).
 */
#include "sched.h"
#include <linux/irqflags.h>
#include <linux/hardirq.h>
#include <linux/record.h>

enum system_states system_state;
extern bool oops_in_progress;

void __might_sleep(const char *file, int line)
{
	static unsigned long reported;
	int pc = preempt_count();

	/* As Linux: silent until rest_init() has started the scheduler. */
	if ((pc == 0 && !irqs_disabled() && !is_idle_task(current)) ||
	    system_state > SYSTEM_RUNNING || system_state == SYSTEM_BOOTING ||
	    oops_in_progress)
		return;
	if (reported++ >= 10)
		return;
	atomic_inc(&sched_bug_count);
	printk(KERN_ERR "BUG: sleeping function called from invalid context at %s:%d\n",
	       file, line);
	printk(KERN_ERR "in_atomic(): %d, irqs_disabled(): %d, non_block: 0, pid: %d, name: %s\n",
	       pc != 0, irqs_disabled(), current->pid, current->comm);
	printk(KERN_ERR "preempt_count: %x, expected: 0\n", pc);
	dump_stack();
}

/*
 * The figures perf stat shows in the seeds: run time, context switches
 * and migrations, per CPU and per task.
 */
void sched_print_stats(void)
{
	struct task_struct *p;
	int cpu;

	char json[RECORD_MAX_JSON];

	pr_info("sched: per-CPU: switches, idle ms\n");
	for_each_online_cpu(cpu) {
		pr_info("sched: cpu%d %10lu %8llu\n", cpu, cpu_rq(cpu)->nr_switches,
			(unsigned long long)(cpu_rq(cpu)->idle_time / 1000000));
		snprintf(json, sizeof(json),
			 "{\"type\":\"sched_cpu\",\"cpu\":%d,\"switches\":%lu,\"idle_ns\":%llu}",
			 cpu, cpu_rq(cpu)->nr_switches,
			 (unsigned long long)cpu_rq(cpu)->idle_time);
		record_emit(json);
	}
	pr_info("sched: tasks: pid comm runtime-us voluntary involuntary migrations\n");
	read_lock(&tasklist_lock);
	list_for_each_entry(p, &task_list, tasks) {
		pr_info("sched: %5d %-16s %10llu %8lu %8lu %6llu\n", p->pid, p->comm,
			(unsigned long long)(p->se.sum_exec_runtime / 1000), p->nvcsw,
			p->nivcsw, (unsigned long long)p->se.nr_migrations);
		snprintf(json, sizeof(json),
			 "{\"type\":\"sched_task\",\"pid\":%d,\"comm\":\"%s\",\"runtime_ns\":%llu,\"nvcsw\":%lu,\"nivcsw\":%lu,\"migrations\":%llu}",
			 p->pid, p->comm, (unsigned long long)p->se.sum_exec_runtime,
			 p->nvcsw, p->nivcsw, (unsigned long long)p->se.nr_migrations);
		record_emit(json);
	}
	read_unlock(&tasklist_lock);
}
