// SPDX-License-Identifier: GPL-2.0
/*
 * A new kernel thread's first switch-in: copy_thread() lays out the frame
 * that __switch_to_asm pops (callee-saved registers, then a return into
 * ret_from_fork), with the thread function and its argument in %r12/%rbx.
 */
#include <linux/kernel.h>
#include <linux/sched.h>

void ret_from_fork(void);

struct fork_frame {
	unsigned long r15, r14, r13, r12, rbx, rbp;
	unsigned long ret_addr;	/* popped by ret: leaves %rsp 16-aligned at the top */
};

void copy_thread(struct task_struct *p, int (*fn)(void *), void *arg)
{
	unsigned long top = (unsigned long)p->stack + p->stack_size;
	struct fork_frame *frame = (struct fork_frame *)(top - sizeof(*frame));

	memset(frame, 0, sizeof(*frame));
	frame->r12 = (unsigned long)fn;
	frame->rbx = (unsigned long)arg;
	frame->ret_addr = (unsigned long)ret_from_fork;
	p->thread.sp = (unsigned long)frame;
}
