// SPDX-License-Identifier: GPL-2.0
/*
 * Cross-CPU function calls.  Each CPU has a lock-less queue of requests
 * (call_single_data); a sender appends and raises the call-function IPI
 * only when the queue was empty, the target drains the whole queue in its
 * interrupt handler.  A request stays "locked" until the target has run
 * it, which is what waiting callers spin on.
 */
#include <linux/kernel.h>
#include <linux/smp.h>
#include <linux/irqflags.h>
#include <linux/interrupt.h>
#include <linux/preempt.h>
#include <linux/errno.h>
#include <linux/lockdep.h>
#include <linux/printk.h>
#include <linux/kallsyms.h>
#include <asm/apic.h>
#include <asm/irq_vectors.h>
#include <asm/processor.h>

static DEFINE_PER_CPU(struct llist_head, call_single_queue);
static DEFINE_PER_CPU(call_single_data_t, csd_data);
/* smp_call_function_many(): one request per target, owned by the sender. */
static DEFINE_PER_CPU(call_single_data_t [CONFIG_NR_CPUS], cfd_csd);

extern bool oops_in_progress;

static void csd_lock_wait(call_single_data_t *csd)
{
	while (smp_load_acquire(&csd->flags) & CSD_FLAG_LOCK)
		cpu_relax();
}

static void csd_lock(call_single_data_t *csd)
{
	csd_lock_wait(csd);
	csd->flags |= CSD_FLAG_LOCK;
	smp_wmb();
}

static void csd_unlock(call_single_data_t *csd)
{
	smp_store_release(&csd->flags, 0);
}

/* Queue @csd on @cpu; true if the target needs an IPI to notice. */
static bool csd_queue(int cpu, call_single_data_t *csd)
{
	return llist_add(&csd->node, &per_cpu(call_single_queue, cpu));
}

/*
 * Run this CPU's queued requests.  @warn_cpu_offline: called from the
 * IPI, where requests found on a CPU already marked offline mean a sender
 * raced with its take-down; they are still run, and named.
 */
static void __flush_smp_call_function_queue(bool warn_cpu_offline)
{
	struct llist_head *head = this_cpu_ptr(&call_single_queue);
	struct llist_node *entry;

	lockdep_assert_irqs_disabled();
	if (unlikely(warn_cpu_offline && !llist_empty(head) &&
		     !cpu_online(smp_processor_id()))) {
		static bool warned;
		struct llist_node *n;
		char sym[128];

		if (!warned) {
			warned = true;
			pr_warn("IPI on offline CPU %d\n", smp_processor_id());
			WARN_ON_ONCE(1);
			for (n = head->first; n; n = n->next) {
				sprint_symbol(sym, (unsigned long)llist_entry(n,
					call_single_data_t, node)->func);
				pr_warn("IPI callback %s sent to offline CPU\n", sym);
			}
		}
	}

	entry = llist_del_all(head);
	entry = llist_reverse_order(entry);
	while (entry) {
		call_single_data_t *csd = llist_entry(entry, call_single_data_t, node);

		/* Read next before unlocking: the sender may reuse csd at once. */
		entry = entry->next;
		csd->func(csd->info);
		csd_unlock(csd);
	}
}

/*
 * Runs when a CPU leaves the idle loop: requests queued while it idled
 * (their IPI may not have come yet) run now, in the IPI's context,
 * interrupts off, and so do the softirqs they raised.  An empty queue
 * costs no IRQ-off section, as in Linux.
 */
void flush_smp_call_function_from_idle(void)
{
	struct llist_head *queue = this_cpu_ptr(&call_single_queue);
	unsigned long flags;

	if (llist_empty(queue))
		return;
	local_irq_save(flags);
	__flush_smp_call_function_queue(false);
#ifndef CONFIG_PREEMPT_RT
	/* On RT a softirq raised outside an interrupt already woke ksoftirqd. */
	if (local_softirq_pending())
		do_softirq();
#endif
	local_irq_restore(flags);
}

void generic_smp_call_function_interrupt(void)
{
	__flush_smp_call_function_queue(true);
}


static void smp_call_warn_irqs(bool wait)
{
	/*
	 * Waiting with interrupts off deadlocks when two CPUs call each
	 * other; Linux warns on any use with interrupts off.
	 */
	WARN_ON_ONCE(cpu_online(smp_processor_id()) && irqs_disabled() &&
		     !oops_in_progress);
}

int smp_call_function_single(int cpu, smp_call_func_t func, void *info, int wait)
{
	call_single_data_t csd_stack = { .flags = 0 };
	call_single_data_t *csd;
	unsigned long flags;
	int this;

	preempt_disable();
	this = smp_processor_id();
	smp_call_warn_irqs(wait);
	if (cpu == this) {
		local_irq_save(flags);
		func(info);
		local_irq_restore(flags);
		preempt_enable();
		return 0;
	}
	if ((unsigned int)cpu >= nr_cpu_ids || !cpu_online(cpu)) {
		preempt_enable();
		return -ENXIO;
	}
	csd = wait ? &csd_stack : this_cpu_ptr(&csd_data);
	csd_lock(csd);
	csd->func = func;
	csd->info = info;
	if (csd_queue(cpu, csd))
		apic_send_IPI(cpu, CALL_FUNCTION_SINGLE_VECTOR);
	if (wait)
		csd_lock_wait(csd);
	preempt_enable();
	return 0;
}

static void __smp_call_function_many(const struct cpumask *mask, smp_call_func_t func,
				     void *info, bool wait, bool run_local)
{
	int this = smp_processor_id(), cpu;
	call_single_data_t *csds = *this_cpu_ptr(&cfd_csd);
	struct cpumask targets;

	smp_call_warn_irqs(wait);
	cpumask_clear(&targets);
	for_each_cpu(cpu, mask) {
		if (cpu == this || !cpu_online(cpu))
			continue;
		csd_lock(&csds[cpu]);
		csds[cpu].func = func;
		csds[cpu].info = info;
		cpumask_set_cpu(cpu, &targets);
		if (csd_queue(cpu, &csds[cpu]))
			apic_send_IPI(cpu, CALL_FUNCTION_VECTOR);
	}
	if (run_local && cpumask_test_cpu(this, mask)) {
		unsigned long flags;

		local_irq_save(flags);
		func(info);
		local_irq_restore(flags);
	}
	if (wait)
		for_each_cpu(cpu, &targets)
			csd_lock_wait(&csds[cpu]);
}

void smp_call_function_many(const struct cpumask *mask, smp_call_func_t func,
			    void *info, bool wait)
{
	preempt_disable();
	__smp_call_function_many(mask, func, info, wait, false);
	preempt_enable();
}

/* Every other online CPU. */
void smp_call_function(smp_call_func_t fn, void *arg, int wait)
{
	smp_call_function_many(cpu_online_mask, fn, arg, wait);
}

void on_each_cpu_mask(const struct cpumask *mask, smp_call_func_t func,
		      void *info, bool wait)
{
	preempt_disable();
	__smp_call_function_many(mask, func, info, wait, true);
	preempt_enable();
}

void on_each_cpu(smp_call_func_t func, void *info, int wait)
{
	on_each_cpu_mask(cpu_online_mask, func, info, wait);
}

/* Call @func only on the online CPUs for which @cond_func says so. */
void on_each_cpu_cond(smp_cond_func_t cond_func, smp_call_func_t func,
		      void *info, bool wait)
{
	struct cpumask mask;
	int cpu;

	cpumask_clear(&mask);
	preempt_disable();
	for_each_online_cpu(cpu)
		if (cond_func(cpu, info))
			cpumask_set_cpu(cpu, &mask);
	__smp_call_function_many(&mask, func, info, wait, true);
	preempt_enable();
}

/*
 * CPUHP_AP_SMPCFD_DYING, on the dying CPU in stop_machine: it is out of
 * the online mask, so nothing new is queued for it; run what was queued
 * before, so that no sender waits forever on a dead CPU.
 */
int smpcfd_dying_cpu(unsigned int cpu)
{
	__flush_smp_call_function_queue(false);
	return 0;
}
