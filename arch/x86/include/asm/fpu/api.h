/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_FPU_API_H
#define _ASM_X86_FPU_API_H

#include <linux/types.h>

/*
 * The kernel is built with -mgeneral-regs-only and threads carry no FPU
 * state (DESIGN 5).  Code that may touch x87/SSE registers - newlib's float
 * formatting, dtoa, strtod - runs only between these two calls, which save
 * and restore the register file and keep the section on one CPU.  Never
 * from NMI, #DF or #MC context, and never nested.
 */
void kernel_fpu_begin(void);
void kernel_fpu_end(void);
bool irq_fpu_usable(void);
void fpu__init_cpu(void);

/* Format num/den with @decimals digits after the point (SSE inside). */
int fp_format_ratio(char *buf, size_t size, s64 num, s64 den, int decimals);
/* snprintf with %f etc. on a double given by its bit pattern (tests). */
int fp_format_bits(char *buf, size_t size, const char *fmt, u64 double_bits);

#endif
