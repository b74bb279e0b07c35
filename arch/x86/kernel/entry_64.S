/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Interrupt and exception entry.  Every one of the 256 vectors gets a
 * 16-byte stub that makes the frame uniform (a dummy error code where the
 * CPU pushes none, then the vector number) and jumps to common_trap, which
 * saves the general registers as struct pt_regs and calls do_trap().
 * irqlab has no user mode, so there is no swapgs or CR3 switching here.
 */
#include <asm/segment.h>

/* Vectors for which the CPU pushes an error code. */
#define HAS_ERRCODE(v)	((v) == 8 || ((v) >= 10 && (v) <= 14) || (v) == 17 || \
			 (v) == 21 || (v) == 29 || (v) == 30)

	.text
	.balign 16
	.globl	irq_entries_start
irq_entries_start:
	vector = 0
	.rept	256
	.if	!HAS_ERRCODE(vector)
	pushq	$-1
	.endif
	pushq	$vector
	jmp	common_trap
	.balign	16
	vector = vector + 1
	.endr

common_trap:
	cld
	pushq	%rdi
	pushq	%rsi
	pushq	%rdx
	pushq	%rcx
	pushq	%rax
	pushq	%r8
	pushq	%r9
	pushq	%r10
	pushq	%r11
	pushq	%rbx
	pushq	%rbp
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	movq	%rsp, %rdi
	/* Frame pointer chain: pretend the interrupted ip called us. */
	movq	%rbp, %rbp
	call	do_trap
	.globl	common_trap_return
common_trap_return:
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbp
	popq	%rbx
	popq	%r11
	popq	%r10
	popq	%r9
	popq	%r8
	popq	%rax
	popq	%rcx
	popq	%rdx
	popq	%rsi
	popq	%rdi
	addq	$16, %rsp			/* vector and error code */
	iretq

/*
 * Minimal setjmp/longjmp for fault catching in tests (asm/traps.h): saves
 * the callee-saved registers, the stack pointer, the return address and
 * the flags (so a catch from a handler restores the interrupt flag).
 */
	.globl	__fault_setjmp
__fault_setjmp:
	movq	%rbx, 0(%rdi)
	movq	%rbp, 8(%rdi)
	movq	%r12, 16(%rdi)
	movq	%r13, 24(%rdi)
	movq	%r14, 32(%rdi)
	movq	%r15, 40(%rdi)
	leaq	8(%rsp), %rax
	movq	%rax, 48(%rdi)
	movq	(%rsp), %rax
	movq	%rax, 56(%rdi)
	pushfq
	popq	64(%rdi)
	xorl	%eax, %eax
	ret

	.globl	__fault_longjmp
__fault_longjmp:
#ifdef CONFIG_KASAN_STACK
	/*
	 * The frames jumped over keep their red zones in the shadow, where
	 * the entry code's pt_regs and other frames would later find them.
	 * %rbx and %r12 are reloaded from the buffer below: free to use.
	 */
	movq	%rdi, %rbx
	movl	%esi, %r12d
	movq	48(%rdi), %rdi
	call	kasan_unpoison_stack_jump
	movq	%rbx, %rdi
	movl	%r12d, %esi
#endif
	movl	%esi, %eax
	movq	0(%rdi), %rbx
	movq	8(%rdi), %rbp
	movq	16(%rdi), %r12
	movq	24(%rdi), %r13
	movq	32(%rdi), %r14
	movq	40(%rdi), %r15
	movq	48(%rdi), %rsp
	pushq	64(%rdi)
	popfq
	jmpq	*56(%rdi)

/*
 * call_on_stack(arg, fn, stack_top): run fn(arg) on another stack (the
 * per-CPU IRQ stack).  The frame pointer links back to the old stack, so
 * backtraces walk from the IRQ stack into the interrupted one.
 */
	.globl	call_on_stack
call_on_stack:
	pushq	%rbp
	movq	%rsp, %rbp
	movq	%rdx, %rsp
	callq	*%rsi
	movq	%rbp, %rsp
	popq	%rbp
	ret

/*
 * __switch_to_asm(prev, next, &prev->thread.sp, next->thread.sp): save the
 * callee-saved registers on prev's stack, switch stacks, restore next's,
 * and finish in __switch_to(prev, next), which returns prev to whoever
 * called __switch_to_asm on next's stack - or into ret_from_fork.
 */
	.globl	__switch_to_asm
__switch_to_asm:
	pushq	%rbp
	pushq	%rbx
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	movq	%rsp, (%rdx)
	movq	%rcx, %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbx
	popq	%rbp
	jmp	__switch_to

/* A new thread: finish the switch, run fn(arg), exit with its result. */
	.globl	ret_from_fork
ret_from_fork:
	movq	%rax, %rdi			/* prev, from __switch_to */
	call	schedule_tail
	movq	%rbx, %rdi
	xorl	%ebp, %ebp			/* end of backtraces */
	call	*%r12
	movl	%eax, %edi
	call	kthread_exit
1:	hlt
	jmp	1b
