/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_IRQFLAGS_H
#define _ASM_X86_IRQFLAGS_H

#include <linux/compiler.h>

#define X86_EFLAGS_IF_BIT	9

static __always_inline unsigned long native_save_fl(void)
{
	unsigned long flags;

	asm volatile("pushfq; popq %0" : "=rm"(flags) : : "memory");
	return flags;
}

static __always_inline void native_irq_disable(void)
{
	asm volatile("cli" : : : "memory");
}

static __always_inline void native_irq_enable(void)
{
	asm volatile("sti" : : : "memory");
}

/* sti takes effect after the next instruction: hlt cannot miss a wakeup. */
static __always_inline void native_safe_halt(void)
{
	asm volatile("sti; hlt" : : : "memory");
}

static __always_inline unsigned long arch_local_save_flags(void)
{
	return native_save_fl();
}

static __always_inline void arch_local_irq_disable(void)
{
	native_irq_disable();
}

static __always_inline void arch_local_irq_enable(void)
{
	native_irq_enable();
}

static __always_inline unsigned long arch_local_irq_save(void)
{
	unsigned long flags = arch_local_save_flags();

	arch_local_irq_disable();
	return flags;
}

static __always_inline bool arch_irqs_disabled_flags(unsigned long flags)
{
	return !(flags & (1UL << X86_EFLAGS_IF_BIT));
}

static __always_inline void arch_local_irq_restore(unsigned long flags)
{
	if (!arch_irqs_disabled_flags(flags))
		arch_local_irq_enable();
}

static __always_inline bool arch_irqs_disabled(void)
{
	return arch_irqs_disabled_flags(arch_local_save_flags());
}

#endif
