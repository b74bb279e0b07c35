/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SMP_H
#define _LINUX_SMP_H

#include <linux/types.h>
#include <linux/llist.h>
#include <linux/cpumask.h>
#include <linux/percpu.h>

typedef void (*smp_call_func_t)(void *info);
typedef bool (*smp_cond_func_t)(int cpu, void *info);

#define CSD_FLAG_LOCK	0x01

/* One cross-CPU function call request, queued on the target's list. */
typedef struct __call_single_data {
	struct llist_node node;
	unsigned int flags;
	smp_call_func_t func;
	void *info;
} call_single_data_t;

/*
 * Run @func(@info) on other CPUs through IPIs.  With @wait the caller spins
 * until every call has returned, so it must not hold a lock the callee
 * needs and must have interrupts enabled (a WARN says so otherwise).
 * @func runs in hard-IRQ context with interrupts off.
 */
int smp_call_function_single(int cpu, smp_call_func_t func, void *info, int wait);
void smp_call_function_many(const struct cpumask *mask, smp_call_func_t func,
			    void *info, bool wait);
void smp_call_function(smp_call_func_t func, void *info, int wait);
void on_each_cpu(smp_call_func_t func, void *info, int wait);
void on_each_cpu_mask(const struct cpumask *mask, smp_call_func_t func,
		      void *info, bool wait);
void on_each_cpu_cond(smp_cond_func_t cond_func, smp_call_func_t func,
		      void *info, bool wait);

void smp_send_reschedule(int cpu);
void smp_send_stop(void);
/* Ask @mask's CPUs to print their registers and backtrace (by NMI). */
void trigger_cpumask_backtrace(const struct cpumask *mask);

void smp_prefill_possible_map(void);
void reserve_real_mode(void);
void smp_prepare_cpus(void);
void smp_init(void);
/* Physical page the APs started from (0: none), for the boot tests. */
phys_addr_t smp_trampoline_page(void);
void call_function_init(void);

#endif
