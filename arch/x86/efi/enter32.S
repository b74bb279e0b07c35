/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The loader's last instructions: leave long mode and jump to the
 * kernel's 32-bit EFI entry the way a multiboot2 loader would (protected
 * mode, paging off, %eax = magic, %ebx = handoff block).
 *
 * efi_main() copies [efi_enter32_start, efi_enter32_end) into a page
 * below 4 GiB and calls the copy after ExitBootServices():
 *	void enter32(u64 handoff, u64 entry, u64 src, u64 dst, u64 len);
 *	(SysV: %rdi, %rsi, %rdx, %rcx, %r8; all below 4 GiB)
 * Paging can only be turned off from identity-mapped code, and the loader
 * image itself may sit above 4 GiB, hence the copy.  Everything here is
 * RIP-relative or an immediate, so the copy runs wherever it lands.
 *
 * len > 0: the kernel was staged at src because its place, dst, was still
 * boot-services memory.  It moves only once paging is off: the firmware's
 * page tables, GDT and our stack may all live in that memory.  From there
 * on nothing touches the stack.
 */
#include "../include/asm/efi_handoff.h"

#define GDT_CODE32	0x08
#define GDT_DATA	0x10

	.text
	.code64
	.globl	efi_enter32_start, efi_enter32_end
efi_enter32_start:
	cli
	/* Kept across the mode switch in registers the 32-bit code can see. */
	movq	%rdi, %rbx			/* handoff */
	movq	%rsi, %rbp			/* entry */
	movq	%rdx, %rsi			/* src */
	movq	%rcx, %rdi			/* dst */
	movq	%r8, %rcx			/* len */
	/* Paging cannot be switched off while CR4.PCIDE is set. */
	movq	%cr4, %rax
	andq	$~(1 << 17), %rax
	movq	%rax, %cr4

	/* Our own GDT: the firmware's may have no 32-bit code segment. */
	leaq	gdt(%rip), %rax
	subq	$16, %rsp
	movw	$(gdt_end - gdt - 1), (%rsp)
	movq	%rax, 2(%rsp)
	lgdt	(%rsp)

	/* Far return into compatibility mode (32-bit code, still paged). */
	leaq	compat32(%rip), %rax
	pushq	$GDT_CODE32
	pushq	%rax
	lretq

	.code32
compat32:
	/* Paging off leaves long mode (EFER.LMA drops), then LME off. */
	movl	%cr0, %eax
	andl	$~0x80000000, %eax
	movl	%eax, %cr0

	movl	$GDT_DATA, %eax
	movl	%eax, %ds
	movl	%eax, %es
	movl	%eax, %ss
	movl	%eax, %fs
	movl	%eax, %gs
	cld
	rep movsb

	movl	$0xc0000080, %ecx
	rdmsr
	andl	$~(1 << 8), %eax
	wrmsr
	/*
	 * The firmware's PAE/LA57/PGE... settings are meaningless without
	 * paging and LA57 would break head.S's 4-level tables: start clean.
	 */
	xorl	%eax, %eax
	movl	%eax, %cr4

	movl	$EFI_HANDOFF_MAGIC, %eax
	jmp	*%ebp

	.balign	8
gdt:
	.quad	0
	.quad	0x00cf9a000000ffff		/* GDT_CODE32: flat 32-bit code */
	.quad	0x00cf92000000ffff		/* GDT_DATA: flat data */
gdt_end:
efi_enter32_end:

	.section .note.GNU-stack, "", @progbits
