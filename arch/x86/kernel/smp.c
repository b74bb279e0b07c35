// SPDX-License-Identifier: GPL-2.0
/* The reschedule IPI; the scheduler issue gives it work to do. */
#include <linux/kernel.h>
#include <linux/smp.h>
#include <linux/sched.h>
#include <asm/apic.h>
#include <asm/irq_vectors.h>

void smp_send_reschedule(int cpu)
{
	if (WARN_ON_ONCE(!cpu_online(cpu)))
		return;
	apic_send_IPI(cpu, RESCHEDULE_VECTOR);
}

void smp_reschedule_interrupt(void)
{
	scheduler_ipi();	/* remote wakeups queued for us; need_resched is set */
}
