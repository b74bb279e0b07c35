/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Application processor start-up code.  smpboot.c copies it to a page
 * below 1 MiB, fills in the data fields at its end, and points a STARTUP
 * IPI at it.  The AP wakes in real mode with CS = page >> 4, IP = 0, and
 * climbs through protected mode into long mode on trampoline_pgd (the
 * kernel's tables plus an identity map of low memory), then jumps to
 * secondary_startup_64 in the kernel, which takes its stack from
 * initial_stack.  The page is written once: nothing here is per AP.
 *
 * Position independent: the page's physical base is computed from CS and
 * kept in %ebx; data is addressed relative to it.
 */
#include <asm/segment.h>

#define TR(x)	((x) - trampoline_start)

	.section .rodata
	.balign 16
	.globl	trampoline_start, trampoline_end
	.globl	tr_gdt, tr_gdt_desc, tr_pm_ptr, tr_lm_ptr, tr_pm, tr_lm
	.globl	tr_cr3, tr_efer, tr_entry
	.code16
trampoline_start:
	cli
	cld
	movw	%cs, %bx
	movw	%bx, %ds
	movzwl	%bx, %ebx
	shll	$4, %ebx			/* physical base of this page */
	lgdtl	TR(tr_gdt_desc)
	movl	$1, %eax			/* PE */
	movl	%eax, %cr0
	ljmpl	*TR(tr_pm_ptr)

	.code32
tr_pm:
	movl	$__KERNEL_DS, %eax
	movl	%eax, %ds
	movl	%eax, %es
	movl	%eax, %ss
	movl	%cr4, %eax
	orl	$0x20, %eax			/* PAE */
	movl	%eax, %cr4
	movl	TR(tr_cr3)(%ebx), %eax
	movl	%eax, %cr3
	movl	$0xc0000080, %ecx		/* EFER: the boot CPU's LME/NXE */
	movl	TR(tr_efer)(%ebx), %eax
	xorl	%edx, %edx
	wrmsr
	movl	$0x80010001, %eax		/* PG | WP | PE */
	movl	%eax, %cr0
	ljmpl	*TR(tr_lm_ptr)(%ebx)

	.code64
tr_lm:
	movl	%ebx, %ebx
	movq	TR(tr_entry)(%rbx), %rax
	jmpq	*%rax

	.balign 8
tr_gdt:
	.quad	0
	.quad	0x00cf9a000000ffff		/* __KERNEL32_CS */
	.quad	0x00af9a000000ffff		/* __KERNEL_CS */
	.quad	0x00cf92000000ffff		/* __KERNEL_DS */
tr_gdt_desc:
	.short	4 * 8 - 1
	.long	0				/* base + TR(tr_gdt) */
	.balign 4
tr_pm_ptr:
	.long	0				/* base + TR(tr_pm) */
	.short	__KERNEL32_CS
	.balign 4
tr_lm_ptr:
	.long	0				/* base + TR(tr_lm) */
	.short	__KERNEL_CS
	.balign 8
tr_cr3:
	.long	0, 0
tr_efer:
	.long	0, 0
tr_entry:
	.quad	0
trampoline_end:

/* The AP's first instructions in the kernel image: its own stack, then C. */
	.text
	.globl	secondary_startup_64
secondary_startup_64:
	movq	initial_stack(%rip), %rsp
	movq	initial_cr3(%rip), %rax
	movq	%rax, %cr3			/* leave the trampoline tables */
	xorl	%eax, %eax
	movl	%eax, %ds
	movl	%eax, %es
	movl	%eax, %ss
	movl	%eax, %fs
	movl	%eax, %gs
	xorl	%ebp, %ebp			/* end of backtraces */
	movl	smpboot_cpu(%rip), %edi
	call	start_secondary
1:	cli
	hlt
	jmp	1b
