/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_PTRACE_H
#define _ASM_X86_PTRACE_H

#include <linux/types.h>

/* Register frame built by the entry stubs, in Linux's x86_64 order. */
struct pt_regs {
	unsigned long r15, r14, r13, r12, bp, bx;
	unsigned long r11, r10, r9, r8, ax, cx, dx, si, di;
	unsigned long vector;	/* pushed by the stub, after... */
	unsigned long orig_ax;	/* ...the error code (or -1) */
	/* hardware frame */
	unsigned long ip, cs, flags, sp, ss;
};

#endif /* _ASM_X86_PTRACE_H */
