/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_SEGMENT_H
#define _ASM_X86_SEGMENT_H

/* GDT layout, shared by head.S (boot GDT) and cpu_init (final GDT). */
#define GDT_ENTRY_KERNEL32_CS	1
#define GDT_ENTRY_KERNEL_CS	2
#define GDT_ENTRY_KERNEL_DS	3
#define GDT_ENTRY_TSS		4	/* 16-byte system descriptor: 4 and 5 */
#define GDT_ENTRIES		6

#define __KERNEL32_CS	(GDT_ENTRY_KERNEL32_CS * 8)
#define __KERNEL_CS	(GDT_ENTRY_KERNEL_CS * 8)
#define __KERNEL_DS	(GDT_ENTRY_KERNEL_DS * 8)
#define __TSS_SEL	(GDT_ENTRY_TSS * 8)

/* IST slots (1-based as the TSS numbers them). */
#define IST_INDEX_NMI	1
#define IST_INDEX_DF	2
#define IST_INDEX_MCE	3
#define IST_INDEX_DB	4
#define N_EXCEPTION_STACKS 4
#define EXCEPTION_STACK_ORDER 1		/* 8 KiB per IST stack */

#endif /* _ASM_X86_SEGMENT_H */
