/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_PROCESSOR_H
#define _ASM_X86_PROCESSOR_H

#include <linux/types.h>
#include <linux/compiler.h>

#define X86_CR0_PE	(1UL << 0)
#define X86_CR0_MP	(1UL << 1)
#define X86_CR0_EM	(1UL << 2)
#define X86_CR0_TS	(1UL << 3)
#define X86_CR0_NE	(1UL << 5)
#define X86_CR0_WP	(1UL << 16)
#define X86_CR0_PG	(1UL << 31)

#define X86_CR4_PAE		(1UL << 5)
#define X86_CR4_PGE		(1UL << 7)
#define X86_CR4_OSFXSR		(1UL << 9)
#define X86_CR4_OSXMMEXCPT	(1UL << 10)
#define X86_CR4_OSXSAVE		(1UL << 18)

#define MSR_EFER		0xc0000080
#define EFER_LME		(1UL << 8)
#define EFER_NX			(1UL << 11)
#define MSR_FS_BASE		0xc0000100
#define MSR_GS_BASE		0xc0000101
#define MSR_KERNEL_GS_BASE	0xc0000102

#define X86_EFLAGS_TF		(1UL << 8)	/* single-step trap */
#define X86_EFLAGS_IF		(1UL << 9)

static inline void cpuid_count(u32 leaf, u32 sub, u32 *a, u32 *b, u32 *c, u32 *d)
{
	asm volatile("cpuid"
		     : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d)
		     : "a"(leaf), "c"(sub));
}

static inline void cpuid(u32 leaf, u32 *a, u32 *b, u32 *c, u32 *d)
{
	cpuid_count(leaf, 0, a, b, c, d);
}

static inline u32 cpuid_eax(u32 leaf)
{
	u32 a, b, c, d;

	cpuid(leaf, &a, &b, &c, &d);
	return a;
}

static inline u32 cpuid_ecx(u32 leaf)
{
	u32 a, b, c, d;

	cpuid(leaf, &a, &b, &c, &d);
	return c;
}

static inline u32 cpuid_edx(u32 leaf)
{
	u32 a, b, c, d;

	cpuid(leaf, &a, &b, &c, &d);
	return d;
}

static inline u64 rdmsr(u32 msr)
{
	u32 lo, hi;

	asm volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((u64)hi << 32) | lo;
}

static inline void wrmsr(u32 msr, u64 v)
{
	asm volatile("wrmsr" : : "c"(msr), "a"((u32)v), "d"((u32)(v >> 32)) : "memory");
}

#define DEFINE_CR(n)							\
static inline unsigned long read_cr##n(void)				\
{									\
	unsigned long v;						\
	asm volatile("mov %%cr" #n ", %0" : "=r"(v));			\
	return v;							\
}									\
static inline void write_cr##n(unsigned long v)				\
{									\
	asm volatile("mov %0, %%cr" #n : : "r"(v) : "memory");		\
}
DEFINE_CR(0)
DEFINE_CR(2)
DEFINE_CR(3)
DEFINE_CR(4)
#undef DEFINE_CR

/*
 * The halves as 64-bit values, as Linux's EAX_EDX_VAL: rdtsc zeroes the
 * upper halves of %rax and %rdx, so a shift and an or join them; 32-bit
 * outputs would make gcc zero-extend %eax once more.
 */
static inline u64 rdtsc(void)
{
	unsigned long lo, hi;

	asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (hi << 32) | lo;
}

/* rdtsc ordered after all earlier loads (lfence is dispatch-serialising). */
static inline u64 rdtsc_ordered(void)
{
	unsigned long lo, hi;

	asm volatile("lfence; rdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return (hi << 32) | lo;
}

static inline void cpu_relax(void)
{
	asm volatile("pause" : : : "memory");
}

static inline void native_halt(void)
{
	asm volatile("hlt" : : : "memory");
}

static inline void __flush_tlb_one(unsigned long addr)
{
	asm volatile("invlpg (%0)" : : "r"(addr) : "memory");
}

static inline unsigned long read_rflags(void)
{
	unsigned long f;

	asm volatile("pushfq; popq %0" : "=r"(f) : : "memory");
	return f;
}

/* CPU feature bits irqlab looks at, from CPUID. */
struct cpuinfo_x86 {
	char vendor[13];
	char hypervisor[13];
	u32 family, model, stepping;
	u32 max_leaf, max_ext_leaf;
	bool has_nx, has_pdpe1gb, has_xsave, has_cx16, has_apic, has_x2apic;
	bool has_tsc_deadline, has_invariant_tsc, has_hypervisor;
};

extern struct cpuinfo_x86 boot_cpu_data;
void cpu_detect(struct cpuinfo_x86 *c);

#endif /* _ASM_X86_PROCESSOR_H */
