/* SPDX-License-Identifier: GPL-2.0 */
/*
 * First instructions of irqlab.
 *
 * Three loaders reach us, all in 32-bit protected mode with paging off:
 *  - PVH (qemu -kernel): entry named by the Xen ELF note, %ebx = hvm_start_info.
 *  - multiboot2 (GRUB, BIOS and UEFI): %eax = 0x36d76289, %ebx = info block.
 *  - irqlab's own UEFI loader (arch/x86/efi): entry named by the irqlab ELF
 *    note, %eax = EFI_HANDOFF_MAGIC, %ebx = struct efi_handoff.  The loader
 *    leaves long mode to come here, as GRUB does for multiboot2, so every
 *    loader shares the one way into long mode below.
 * Deliberately no multiboot1 header: QEMU would prefer it over PVH.
 *
 * Both paths converge in startup_32, which zeroes .bss, builds throw-away
 * page tables (identity + direct map of the low 4 GiB with 2 MiB pages, and
 * the kernel image at __START_KERNEL_map), enters long mode and jumps to the
 * higher half.  The C code replaces these tables in paging_init().
 */
#include <asm/page.h>
#include <asm/segment.h>
#include <asm/bootparam.h>
#include <asm/efi_handoff.h>

#define pa(x)	((x) - __START_KERNEL_map)

#define MB2_MAGIC		0xe85250d6
#define MB2_BOOTLOADER_MAGIC	0x36d76289
#define XEN_ELFNOTE_PHYS32_ENTRY 18

#define PTE_P	0x1
#define PTE_RW	0x2
#define PTE_PS	0x80

	.section .head.text, "ax"
	.code32

/* The multiboot2 header must sit in the first 32 KiB of the file. */
	.balign 8
mb2_header:
	.long	MB2_MAGIC
	.long	0				/* architecture: i386 */
	.long	mb2_header_end - mb2_header
	.long	-(MB2_MAGIC + 0 + (mb2_header_end - mb2_header))
	/* entry address tag: GRUB must not guess from the higher-half e_entry */
	.balign 8
	.short	3, 0
	.long	12
	.long	pa(mb2_start)
	/*
	 * framebuffer tag, optional (flag 1): a linear framebuffer for the
	 * text console on machines without a serial port; 1024x768 keeps
	 * the console's full-screen redraws cheap.
	 */
	.balign 8
	.short	5, 1
	.long	20
	.long	1024, 768, 32
	.balign 8
	.short	0, 0				/* end tag */
	.long	8
mb2_header_end:

	.globl	pvh_start
pvh_start:
	cli
	cld
	movl	$BOOT_PROTO_PVH, %ebp
	jmp	startup_32

	.globl	mb2_start
mb2_start:
	cli
	cld
	movl	$BOOT_PROTO_MB2, %ebp
	cmpl	$MB2_BOOTLOADER_MAGIC, %eax
	je	startup_32
	movl	$pa(msg_bad_magic), %esi
	jmp	early_fail32

	.globl	efi_start
efi_start:
	cli
	cld
	movl	$BOOT_PROTO_EFI, %ebp
	cmpl	$EFI_HANDOFF_MAGIC, %eax
	je	startup_32
	movl	$pa(msg_bad_efi_magic), %esi
	jmp	early_fail32

startup_32:
	/*
	 * %ebx = loader info (physical), %ebp = protocol.  cpuid clobbers
	 * %ebx, so the info pointer lives in %esi from here on.
	 */
	movl	%ebx, %esi
	lgdt	pa(boot_gdt_desc)
	ljmp	$__KERNEL32_CS, $pa(1f)
1:	movl	$__KERNEL_DS, %eax
	movl	%eax, %ds
	movl	%eax, %es
	movl	%eax, %ss
	movl	%eax, %fs
	movl	%eax, %gs

	/* Zero .bss: page tables and the boot stack live there. */
	movl	$pa(__bss_start), %edi
	movl	$pa(__bss_stop), %ecx
	subl	%edi, %ecx
	shrl	$2, %ecx
	xorl	%eax, %eax
	rep stosl

	movl	$pa(boot_stack_top), %esp

	/* Long mode present? */
	movl	$0x80000000, %eax
	cpuid
	cmpl	$0x80000001, %eax
	jb	no_longmode
	movl	$0x80000001, %eax
	cpuid
	btl	$29, %edx
	jnc	no_longmode

	/* 2048 2 MiB entries: physical 0..4 GiB. */
	movl	$pa(early_pd), %edi
	xorl	%ecx, %ecx
2:	movl	%ecx, %eax
	shll	$21, %eax
	orl	$(PTE_P | PTE_RW | PTE_PS), %eax
	movl	%eax, (%edi, %ecx, 8)
	movl	$0, 4(%edi, %ecx, 8)
	incl	%ecx
	cmpl	$2048, %ecx
	jb	2b

	/* Low 4 GiB: identity and direct map share one PDPT. */
	movl	$pa(early_pdpt), %edi
	xorl	%ecx, %ecx
3:	movl	%ecx, %eax
	shll	$12, %eax
	addl	$(pa(early_pd) + PTE_P + PTE_RW), %eax
	movl	%eax, (%edi, %ecx, 8)
	incl	%ecx
	cmpl	$4, %ecx
	jb	3b

	movl	$(pa(early_pdpt) + PTE_P + PTE_RW), %eax
	movl	%eax, pa(early_pml4)				/* identity */
	movl	%eax, pa(early_pml4) + 8 * ((__PAGE_OFFSET >> 39) & 511)
	movl	$(pa(early_pdpt_kernel) + PTE_P + PTE_RW), %eax
	movl	%eax, pa(early_pml4) + 8 * 511
	/* 0xffffffff80000000 + 1 GiB -> physical 0..1 GiB */
	movl	$(pa(early_pd) + PTE_P + PTE_RW), %eax
	movl	%eax, pa(early_pdpt_kernel) + 8 * 510

	movl	%cr4, %eax
	orl	$0x20, %eax			/* PAE */
	movl	%eax, %cr4
	movl	$pa(early_pml4), %eax
	movl	%eax, %cr3

	/* EFER: long mode, and NX when the CPU has it (CPUID 80000001h EDX[20]). */
	movl	$0x80000001, %eax
	cpuid
	movl	%edx, %edi
	movl	$0xc0000080, %ecx
	rdmsr
	orl	$(1 << 8), %eax			/* LME */
	btl	$20, %edi
	jnc	4f
	orl	$(1 << 11), %eax		/* NXE */
4:	wrmsr

	movl	%cr0, %eax
	orl	$0x80010001, %eax		/* PG | WP | PE */
	movl	%eax, %cr0
	ljmp	$__KERNEL_CS, $pa(startup_64_low)

no_longmode:
	movl	$pa(msg_no_lm), %esi
early_fail32:
	/* Best effort: COM1 is usable without initialisation under QEMU. */
	movw	$0x3f8, %dx
5:	lodsb
	testb	%al, %al
	jz	6f
	outb	%al, %dx
	jmp	5b
6:	hlt
	jmp	6b

	.code64
startup_64_low:
	movabsq	$startup_64, %rax
	jmp	*%rax

	.text
startup_64:
	/* Upper register halves are undefined after the mode switch: use movl. */
	movl	%ebp, %edi			/* protocol */
	movl	%esi, %esi			/* loader info, physical */
	xorl	%eax, %eax
	movl	%eax, %ds
	movl	%eax, %es
	movl	%eax, %ss
	movl	%eax, %fs
	movl	%eax, %gs
	movabsq	$boot_stack_top, %rsp
	xorl	%ebp, %ebp			/* terminates frame-pointer backtraces */
#ifdef CONFIG_KASAN
	/*
	 * The shadow must be mapped before the first instrumented prologue
	 * writes to it (Linux calls this first thing in head64.c).
	 */
	pushq	%rdi
	pushq	%rsi
	call	kasan_early_init
	popq	%rsi
	popq	%rdi
#endif
	call	x86_64_start_kernel
7:	cli
	hlt
	jmp	7b

	.section .rodata
msg_bad_magic:
	.asciz	"irqlab: entered through multiboot2 entry without the multiboot2 magic\r\n"
msg_bad_efi_magic:
	.asciz	"irqlab: entered through the EFI entry without the irqlab EFI loader's magic\r\n"
msg_no_lm:
	.asciz	"irqlab: this CPU has no long mode (x86-64); cannot boot\r\n"

	.balign 16
boot_gdt:
	.quad	0
	.quad	0x00cf9a000000ffff		/* 32-bit code */
	.quad	0x00af9a000000ffff		/* 64-bit code */
	.quad	0x00cf92000000ffff		/* data */
boot_gdt_end:
	.balign 8
	.short	0
boot_gdt_desc:
	.short	boot_gdt_end - boot_gdt - 1
	.long	pa(boot_gdt)

/* PVH entry point for QEMU's -kernel loader. */
	.section .note.Xen, "a", @note
	.balign 4
	.long	4
	.long	4
	.long	XEN_ELFNOTE_PHYS32_ENTRY
	.asciz	"Xen"
	.long	pa(pvh_start)
	.balign 4

/* 32-bit entry for irqlab's UEFI loader (asm/efi_handoff.h). */
	.section .note.irqlab, "a", @note
	.balign 4
	.long	2f - 1f
	.long	4
	.long	IRQLAB_ELFNOTE_EFI_ENTRY
1:	.asciz	IRQLAB_ELFNOTE_NAME
2:	.balign 4
	.long	pa(efi_start)
	.balign 4

	.section .bss..page_aligned, "aw", @nobits
	.balign PAGE_SIZE
early_pml4:
	.skip	PAGE_SIZE
early_pdpt:
	.skip	PAGE_SIZE
early_pdpt_kernel:
	.skip	PAGE_SIZE
early_pd:
	.skip	4 * PAGE_SIZE
/*
 * The boot stack (CPU 0's idle task stack) with a guard page below it;
 * paging_init() unmaps the guard so an overflow faults instead of
 * silently corrupting .bss.
 */
	.globl	boot_stack_guard, boot_stack_bottom, boot_stack_top
boot_stack_guard:
	.skip	PAGE_SIZE
boot_stack_bottom:
	.skip	BOOT_STACK_SIZE
boot_stack_top:
