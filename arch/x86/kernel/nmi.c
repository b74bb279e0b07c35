// SPDX-License-Identifier: GPL-2.0
/*
 * NMIs: the only way to reach a CPU that has interrupts disabled.  Used
 * to print another CPU's backtrace, on panic to stop every other CPU, and
 * by the sampling profiler (profile.source=nmi).  An NMI handler must not
 * take locks an interrupted context may hold; printk is lock-free on the
 * store side and only trylocks the console.  As in Linux, NMIs do not
 * queue, so every handler is asked on every NMI: the handlers live on
 * Linux's per-type lists (asm/nmi.h), the backtrace one first.
 */
#include <linux/kernel.h>
#include <linux/smp.h>
#include <linux/hardirq.h>
#include <linux/errno.h>
#include <linux/irqflags.h>
#include <linux/delay.h>
#include <asm/apic.h>
#include <asm/hardirq.h>
#include <asm/processor.h>
#include <asm/spinlock.h>
#include <asm/traps.h>
#include <asm/stacktrace.h>
#include <asm/nmi.h>

static struct cpumask backtrace_mask;
static struct cpumask stopped_mask;
static int stopping_cpu = -1;
/* Keeps one CPU's dump contiguous in the log. */
static arch_spinlock_t nmi_print_lock = __ARCH_SPIN_LOCK_UNLOCKED;

static void nmi_print_backtrace(struct pt_regs *regs, const char *why)
{
	arch_spin_lock(&nmi_print_lock);
	printk(KERN_WARNING "NMI backtrace for cpu %d%s\n", smp_processor_id(), why);
	show_regs(regs);
	arch_spin_unlock(&nmi_print_lock);
}

static int nmi_cpu_backtrace_handler(unsigned int type, struct pt_regs *regs)
{
	int cpu = smp_processor_id();

	if (!cpumask_test_cpu(cpu, &backtrace_mask))
		return NMI_DONE;
	nmi_print_backtrace(regs, "");
	cpumask_clear_cpu(cpu, &backtrace_mask);
	return NMI_HANDLED;
}

static struct nmiaction nmi_backtrace_action = {
	.handler = nmi_cpu_backtrace_handler, .name = "arch_bt",
};

/*
 * Singly linked, appended to under nmi_desc_lock; an NMI walking a list
 * sees either the old tail or the new action, fully set up before the
 * release store that links it.  Nothing is ever taken off.
 */
static struct nmiaction *nmi_desc[NMI_MAX] = { [NMI_LOCAL] = &nmi_backtrace_action };
static arch_spinlock_t nmi_desc_lock = __ARCH_SPIN_LOCK_UNLOCKED;

int __register_nmi_handler(unsigned int type, struct nmiaction *action)
{
	struct nmiaction **pp;
	unsigned long flags;

	if (type >= NMI_MAX || !action->handler)
		return -EINVAL;
	local_irq_save(flags);
	arch_spin_lock(&nmi_desc_lock);
	for (pp = &nmi_desc[type]; *pp; pp = &(*pp)->next)
		if (*pp == action)
			break;
	if (!*pp) {
		action->next = NULL;
		__atomic_store_n(pp, action, __ATOMIC_RELEASE);
	}
	arch_spin_unlock(&nmi_desc_lock);
	local_irq_restore(flags);
	return 0;
}

/* Ask every handler of @type; the number of events they found. */
static int nmi_handle(unsigned int type, struct pt_regs *regs)
{
	struct nmiaction *a = __atomic_load_n(&nmi_desc[type], __ATOMIC_ACQUIRE);
	int handled = 0;

	for (; a; a = __atomic_load_n(&a->next, __ATOMIC_ACQUIRE))
		handled += a->handler(type, regs);
	return handled;
}

void do_nmi(struct pt_regs *regs)
{
	int cpu = smp_processor_id();
	int handled;

	nmi_enter();
	inc_irq_stat(__nmi_count);
	handled = nmi_handle(NMI_LOCAL, regs);
	if (READ_ONCE(stopping_cpu) >= 0 && stopping_cpu != cpu) {
		nmi_print_backtrace(regs, " (stopping)");
		cpumask_clear_cpu(cpu, cpu_online_mask);
		cpumask_set_cpu(cpu, &stopped_mask);
		/* NMIs stay blocked: we never iret. */
		for (;;)
			asm volatile("cli; hlt");
	}
	if (!handled && !nmi_handle(NMI_UNKNOWN, regs))
		pr_warn("NMI: unexpected NMI on CPU %d at %016lx\n", cpu, regs->ip);
	nmi_exit();
}

static bool wait_mask_empty(const struct cpumask *m, unsigned int ms)
{
	for (unsigned int i = 0; i < ms * 10; i++) {
		if (!cpumask_weight(m))
			return true;
		udelay(100);
	}
	return false;
}

void trigger_cpumask_backtrace(const struct cpumask *mask)
{
	int cpu, this = smp_processor_id();

	if (cpumask_test_cpu(this, mask)) {
		arch_spin_lock(&nmi_print_lock);
		printk(KERN_WARNING "Backtrace for cpu %d (the requesting CPU)\n", this);
		dump_stack();
		arch_spin_unlock(&nmi_print_lock);
	}
	for_each_cpu(cpu, mask) {
		if (cpu == this || !cpu_online(cpu))
			continue;
		cpumask_set_cpu(cpu, &backtrace_mask);
		apic_send_NMI(cpu);
	}
	if (!wait_mask_empty(&backtrace_mask, 1000))
		pr_warn("NMI backtrace: some CPUs did not answer\n");
}

/* Stop every other CPU, printing where each one was. */
void smp_send_stop(void)
{
	int cpu, this = smp_processor_id();
	struct cpumask waiting;

	if (__atomic_exchange_n(&stopping_cpu, this, __ATOMIC_SEQ_CST) >= 0)
		return;		/* another CPU is already stopping us all */
	cpumask_copy(&waiting, cpu_online_mask);
	cpumask_clear_cpu(this, &waiting);
	for_each_cpu(cpu, &waiting)
		apic_send_NMI(cpu);
	for (unsigned int i = 0; i < 10000; i++) {
		bool all = true;

		for_each_cpu(cpu, &waiting)
			all &= cpumask_test_cpu(cpu, &stopped_mask);
		if (all)
			return;
		udelay(100);
	}
	pr_emerg("smp_send_stop: CPUs did not stop within 1 s\n");
}

/* REBOOT_VECTOR: a last-resort stop through a normal interrupt. */
void smp_reboot_interrupt(struct pt_regs *regs)
{
	cpumask_clear_cpu(smp_processor_id(), cpu_online_mask);
	for (;;)
		asm volatile("cli; hlt");
}
