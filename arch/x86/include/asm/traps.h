/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_TRAPS_H
#define _ASM_X86_TRAPS_H

#include <asm/ptrace.h>

enum {
	X86_TRAP_DE = 0, X86_TRAP_DB, X86_TRAP_NMI, X86_TRAP_BP, X86_TRAP_OF,
	X86_TRAP_BR, X86_TRAP_UD, X86_TRAP_NM, X86_TRAP_DF, X86_TRAP_OLD_MF,
	X86_TRAP_TS, X86_TRAP_NP, X86_TRAP_SS, X86_TRAP_GP, X86_TRAP_PF,
	X86_TRAP_SPURIOUS, X86_TRAP_MF, X86_TRAP_AC, X86_TRAP_MC, X86_TRAP_XF,
	X86_TRAP_VE, X86_TRAP_CP,
	X86_TRAP_VC = 29,
	X86_TRAP_SX = 30,
	NR_EXCEPTION_VECTORS = 32,
};

/* #PF error code bits */
#define X86_PF_PROT	(1UL << 0)
#define X86_PF_WRITE	(1UL << 1)
#define X86_PF_USER	(1UL << 2)
#define X86_PF_RSVD	(1UL << 3)
#define X86_PF_INSTR	(1UL << 4)

void idt_setup(void);
void idt_load(void);
const char *trap_name(unsigned int vector);
void show_regs(struct pt_regs *regs);
__attribute__((noreturn)) void die(const char *str, struct pt_regs *regs, unsigned long err);

/*
 * Fault catching for tests: arm a catcher for a set of vectors, then run
 * code that is expected to fault.  The trap handler records what happened
 * and resumes at the fault_catch() call site, which then returns 1.
 */
struct fault_record {
	unsigned int vector;
	unsigned long error_code;
	unsigned long ip;
	unsigned long cr2;
	unsigned long sp;
};

struct fault_jmp {
	unsigned long rbx, rbp, r12, r13, r14, r15, rsp, rip, rflags;
};

struct fault_catcher {
	struct fault_jmp jmp;
	u64 vector_mask;
	struct fault_record rec;
	struct fault_catcher *prev;
};

int __fault_setjmp(struct fault_jmp *j) __attribute__((returns_twice));
__attribute__((noreturn)) void __fault_longjmp(struct fault_jmp *j, int ret);

void fault_catch_arm(struct fault_catcher *fc, u64 vector_mask);
void fault_catch_disarm(struct fault_catcher *fc);
/* Drop every armed catcher (a test ended while one was armed). */
void fault_catch_reset(void);

/*
 * if (fault_catch(&fc, BIT(X86_TRAP_UD))) { ...faulted: inspect fc.rec... }
 * else { ...code expected to fault...; fault_catch_disarm(&fc); }
 * The catcher is disarmed automatically when the fault is taken.
 */
#define fault_catch(fc, mask)	\
	(fault_catch_arm((fc), (mask)), __fault_setjmp(&(fc)->jmp))

#endif /* _ASM_X86_TRAPS_H */
