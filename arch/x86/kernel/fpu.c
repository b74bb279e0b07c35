// SPDX-License-Identifier: GPL-2.0
/*
 * In-kernel FPU sections.  fxsave/fxrstor of the whole 512-byte area keeps
 * whatever state an interrupted section had; a section starts from a clean
 * x87 state and Linux's default MXCSR so results do not depend on who ran
 * before.
 */
#include <linux/kernel.h>
#include <asm/fpu/api.h>
#include <asm/processor.h>
#include <linux/percpu.h>
#include <linux/preempt.h>

#define MXCSR_DEFAULT	0x1f80

struct fxregs_state {
	u8 bytes[512];
} __aligned(16);

static DEFINE_PER_CPU_ALIGNED(struct fxregs_state, kernel_fpu_save);
static DEFINE_PER_CPU(bool, in_kernel_fpu);
unsigned int kernel_fpu_sections;	/* statistics for tests */

void fpu__init_cpu(void)
{
	unsigned int mxcsr = MXCSR_DEFAULT;

	write_cr0((read_cr0() & ~(X86_CR0_EM | X86_CR0_TS)) | X86_CR0_MP | X86_CR0_NE);
	write_cr4(read_cr4() | X86_CR4_OSFXSR | X86_CR4_OSXMMEXCPT);
	asm volatile("fninit; ldmxcsr %0" : : "m"(mxcsr));
}

/* Not in NMI, and not interrupting another FPU section on this CPU. */
bool irq_fpu_usable(void)
{
	return !in_nmi() && !this_cpu_read(in_kernel_fpu);
}

void kernel_fpu_begin(void)
{
	unsigned int mxcsr = MXCSR_DEFAULT;

	preempt_disable();
	WARN_ON_ONCE(!irq_fpu_usable());
	this_cpu_write(in_kernel_fpu, true);
	barrier();
	asm volatile("fxsave64 %0" : "=m"(*this_cpu_ptr(&kernel_fpu_save)));
	asm volatile("fninit; ldmxcsr %0" : : "m"(mxcsr));
	__atomic_fetch_add(&kernel_fpu_sections, 1, __ATOMIC_RELAXED);
}

void kernel_fpu_end(void)
{
	WARN_ON_ONCE(!this_cpu_read(in_kernel_fpu));
	asm volatile("fxrstor64 %0" : : "m"(*this_cpu_ptr(&kernel_fpu_save)));
	barrier();
	this_cpu_write(in_kernel_fpu, false);
	preempt_enable();
}
