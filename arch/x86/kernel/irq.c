// SPDX-License-Identifier: GPL-2.0
/*
 * External interrupt entry: every vector from 32 up lands in
 * common_interrupt(), which accounts the hard IRQ, switches to this CPU's
 * IRQ stack (unless already on it) and dispatches to a system vector
 * handler (APIC timer, IPIs, APIC error, spurious) or to the irq_desc the
 * vector was assigned to.
 */
#include <linux/kernel.h>
#include <linux/boot_timing.h>
#include <linux/irq.h>
#include <linux/percpu.h>
#include <linux/hardirq.h>
#include <linux/kernel_stat.h>
#include <linux/irqflags.h>
#include <linux/errno.h>
#include <linux/sched.h>
#include <linux/delay.h>
#include <asm/processor.h>
#include <asm/apic.h>
#include <asm/hardirq.h>
#include <asm/irq_vectors.h>
#include <asm/ptrace.h>
#include <asm-generic/irq_regs.h>

DEFINE_PER_CPU(irq_cpustat_t, irq_stat);
DEFINE_PER_CPU(struct kernel_stat, kstat);
DEFINE_PER_CPU(struct pt_regs *, __irq_regs);
static DEFINE_PER_CPU(struct irq_desc *[NR_VECTORS], vector_irq);
static DEFINE_PER_CPU(bool, hardirq_stack_inuse);
/* 0 until this CPU's entry-area stacks are mapped: then use the IRQ stack. */
DEFINE_PER_CPU(unsigned long, hardirq_stack_ptr);
static DEFINE_RAW_SPINLOCK(vector_lock);

void local_apic_timer_interrupt(void);
void smp_error_interrupt(void);
void smp_spurious_interrupt(void);
void smp_reschedule_interrupt(void);
void preempt_schedule_irq(void);
void generic_smp_call_function_interrupt(void);
void smp_reboot_interrupt(struct pt_regs *regs);

/* arch/x86/kernel/entry_64.S */
void call_on_stack(void *arg, void (*fn)(void *), unsigned long stack_top);

int assign_irq_vector(struct irq_desc *desc, unsigned int cpu)
{
	struct irq_desc **table = per_cpu(vector_irq, cpu);
	unsigned long flags;
	int err = -ENOSPC;

	raw_spin_lock_irqsave(&vector_lock, flags);
	/*
	 * A line moving to another CPU keeps its vector number there if it
	 * is free: its IOAPIC entry then changes by the destination alone.
	 */
	if (desc->vector && !table[desc->vector]) {
		table[desc->vector] = desc;
		desc->cpu = cpu;
		err = 0;
	}
	for (unsigned int v = FIRST_DEVICE_VECTOR; err && v < FIRST_SYSTEM_VECTOR; v++) {
		if (!table[v]) {
			table[v] = desc;
			desc->vector = v;
			desc->cpu = cpu;
			err = 0;
			break;
		}
	}
	raw_spin_unlock_irqrestore(&vector_lock, flags);
	if (err)
		pr_err("irq %u: no free vector on CPU %u\n", desc->irq, cpu);
	return err;
}

void clear_irq_vector(struct irq_desc *desc)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&vector_lock, flags);
	if (desc->vector)
		per_cpu(vector_irq, desc->cpu)[desc->vector] = NULL;
	desc->vector = 0;
	raw_spin_unlock_irqrestore(&vector_lock, flags);
}

/* Free @vector on @cpu once nothing can arrive there for it any more. */
void release_irq_vector(unsigned int cpu, unsigned int vector)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&vector_lock, flags);
	per_cpu(vector_irq, cpu)[vector] = NULL;
	raw_spin_unlock_irqrestore(&vector_lock, flags);
}

atomic_long_t irq_fixup_resent;

/*
 * A dying CPU's vector whose pending interrupt fixup_irqs() re-sent: the
 * CPU may still take it itself (stop_machine turns IRQs back on before
 * the CPU halts); that copy is dropped quietly, not reported as one with
 * no handler.
 */
#define VECTOR_RETRIGGERED	((struct irq_desc *)-2L)

/* @cpu is about to start again: what fixup_irqs() left marked is unused. */
void irq_vectors_prepare_cpu(unsigned int cpu)
{
	struct irq_desc **table = per_cpu(vector_irq, cpu);
	unsigned long flags;

	raw_spin_lock_irqsave(&vector_lock, flags);
	for (unsigned int v = 0; v < NR_VECTORS; v++)
		if (table[v] == VECTOR_RETRIGGERED)
			table[v] = NULL;
	raw_spin_unlock_irqrestore(&vector_lock, flags);
}

/*
 * On the dying CPU in stop_machine, IRQs off, out of the online mask
 * (Linux's fixup_irqs()): move every device line routed here to an online
 * CPU, then look at this CPU's IRR.  An interrupt the IOAPIC delivered
 * before the move, which this CPU, with IRQs off until it halts, will
 * never take, is re-sent as an IPI to the line's new vector and CPU
 * (Linux's irq_retrigger, apic_retrigger_irq()).  The delay lets a
 * message already on its way land in the IRR first.  Then this CPU's
 * vectors are freed.
 */
void fixup_irqs(void)
{
	struct irq_desc **table = this_cpu_ptr(&vector_irq[0]);

	irq_migrate_all_off_this_cpu();
	udelay(1000);
	for (unsigned int v = FIRST_DEVICE_VECTOR; v < FIRST_SYSTEM_VECTOR; v++) {
		struct irq_desc *desc = READ_ONCE(table[v]);

		if (!desc)
			continue;
		if (desc == VECTOR_RETRIGGERED)
			continue;
		if (apic_read(APIC_IRR + v / 32 * 0x10) & (1U << (v % 32))) {
			bool resent = false;

			raw_spin_lock(&desc->lock);
			if (desc->handler && desc->vector && desc->cpu != smp_processor_id()) {
				apic_send_IPI(desc->cpu, desc->vector);
				atomic_long_inc(&irq_fixup_resent);
				resent = true;
			}
			raw_spin_unlock(&desc->lock);
			if (resent) {
				WRITE_ONCE(table[v], VECTOR_RETRIGGERED);
				continue;
			}
		}
		release_irq_vector(smp_processor_id(), v);
	}
}

static void handle_system_vector(struct pt_regs *regs)
{
	switch (regs->vector) {
	case LOCAL_TIMER_VECTOR:
		inc_irq_stat(apic_timer_irqs);
		local_apic_timer_interrupt();
		break;
	case RESCHEDULE_VECTOR:
		inc_irq_stat(irq_resched_count);
		boot_timing_ipi_received();
		smp_reschedule_interrupt();
		break;
	case CALL_FUNCTION_VECTOR:
	case CALL_FUNCTION_SINGLE_VECTOR:
		inc_irq_stat(irq_call_count);
		boot_timing_ipi_received();
		generic_smp_call_function_interrupt();
		break;
	case ERROR_APIC_VECTOR:
		inc_irq_stat(irq_error_count);
		smp_error_interrupt();
		break;
	case REBOOT_VECTOR:
		ack_APIC_irq();
		smp_reboot_interrupt(regs);	/* does not return */
		break;
	}
}

static void handle_vector(void *arg)
{
	struct pt_regs *regs = arg;
	unsigned int v = regs->vector;
	struct pt_regs *old_regs;
	struct irq_desc *desc;

	this_cpu_inc(kstat.irqs_sum);
	if (v == SPURIOUS_APIC_VECTOR) {
		inc_irq_stat(irq_spurious_count);
		smp_spurious_interrupt();
		return;		/* never in service: no EOI */
	}
	old_regs = set_irq_regs(regs);
	if (v >= FIRST_SYSTEM_VECTOR) {
		handle_system_vector(regs);
	} else {
		desc = this_cpu_read(vector_irq[v]);
		if (desc == VECTOR_RETRIGGERED) {
			/* Re-sent elsewhere by fixup_irqs(): handled there. */
			this_cpu_write(vector_irq[v], NULL);
		} else if (desc) {
			handle_irq_desc(desc);
		} else if (this_cpu_add_return(irq_stat.irq_unexpected_count, 1) <= 10) {
			pr_warn("CPU%d: no irq handler for vector %u\n",
				smp_processor_id(), v);
		}
	}
	set_irq_regs(old_regs);
	ack_APIC_irq();
}

/*
 * Full preemption: back on the task's stack, if the interrupted context
 * was preemptible (interrupts were on, count zero) and a reschedule is
 * due, schedule before returning to it.
 */
static void irqentry_exit_cond_resched(struct pt_regs *regs)
{
#ifdef CONFIG_PREEMPTION
	if ((regs->flags & X86_EFLAGS_IF) && !preempt_count() && tif_need_resched_now())
		preempt_schedule_irq();
#endif
}

void common_interrupt(struct pt_regs *regs)
{
	unsigned long stack = this_cpu_read(hardirq_stack_ptr);

	irq_enter();
	if (!stack || this_cpu_read(hardirq_stack_inuse)) {
		handle_vector(regs);
	} else {
		this_cpu_write(hardirq_stack_inuse, true);
		call_on_stack(regs, handle_vector, stack);
		this_cpu_write(hardirq_stack_inuse, false);
	}
	irq_exit();
	irqentry_exit_cond_resched(regs);
	/*
	 * do_trap() calls trace_hardirqs_on() on the way to iret when the
	 * interrupted context had interrupts on, so an IRQ-off section opened
	 * by softirq processing or preemption above ends there.  The IRQ-off
	 * counter takes no section from the entry; the irqsoff tracer opens
	 * its window at do_trap().
	 */
}
