/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_KTRACE_H
#define _LINUX_KTRACE_H

/*
 * ktrace: the exact instruction path of one operation, by single-stepping
 * it with the trap flag (RFLAGS.TF).
 *
 *	static void op(void *arg) { kfree(kmalloc(64, GFP_KERNEL)); }
 *
 *	struct ktrace *kt = ktrace_alloc(4096);
 *	if (kt && !ktrace_call(kt, op, NULL))
 *		ktrace_report(kt, "kmalloc64");
 *	ktrace_free(kt);
 *
 * What is counted: every instruction the calling task executes from the
 * first instruction of @fn up to and including its final ret, callees
 * included.  Each one raises a single-step #DB whose handler stores the
 * next RIP in the preallocated buffer; it prints nothing.  The hardware
 * clears TF when it delivers an interrupt or exception, so interrupt
 * handlers run unstepped and are not counted (interrupts stay as they
 * are: @fn sees the interrupts it would see without the tracer; their
 * number is reported).  Instructions another task runs while TF leaks to
 * it through a context switch are counted apart and cleared ("foreign").
 * A trace whose buffer filled up, or that lost TF before @fn returned,
 * says so and is marked invalid; nothing is dropped silently.
 *
 * One trace at a time, system-wide.  @fn must not sleep: the scheduler
 * does not carry TF from task to task (a trace that slept is reported as
 * lost).  Exact under icount, plain TCG and on hardware alike: the count
 * does not depend on timing, only on the path taken.
 */
#include <linux/types.h>

struct task_struct;

/* state[] bits of a step, as it was when the instruction ran. */
#define KTRACE_IRQS_OFF		0x01	/* IF clear */
#define KTRACE_PREEMPT_OFF	0x02	/* preempt_count() != 0 */

struct ktrace {
	unsigned long *ip;		/* executed instructions, in order */
	u8 *state;			/* per step: KTRACE_* bits */
	unsigned int max;		/* capacity of ip[] and state[] */
	unsigned int nr;		/* steps stored */
	unsigned long overflow;		/* steps not stored: buffer full */
	unsigned long irqs_off;		/* steps with IF clear (stored or not) */
	unsigned long preempt_off;	/* steps with a preempt count */
	unsigned long foreign;		/* steps of other tasks, not counted */
	unsigned long interrupts;	/* interrupts/exceptions taken in @fn */
	bool lost;			/* TF was gone when @fn returned */
	unsigned long after_sti;	/* the step after this sti is owed */
	struct task_struct *task;	/* the traced task */
};

/* A trace buffer for up to @max instructions (thread context, may sleep). */
struct ktrace *ktrace_alloc(unsigned int max);
void ktrace_free(struct ktrace *kt);

/*
 * Single-step fn(arg) into @kt.  Returns 0, -EBUSY when another trace is
 * running, -EIO when the trace is invalid (overflow or TF lost; @kt still
 * holds what was recorded).
 */
int ktrace_call(struct ktrace *kt, void (*fn)(void *), void *arg);

/* Instructions counted in @kt (stored + overflowed). */
static inline unsigned long ktrace_total(const struct ktrace *kt)
{
	return kt->nr + kt->overflow;
}

/*
 * Without tracing: TSC ticks from just before fn(arg) to just after it,
 * minus the same for an empty function, plus one (its ret).  Under QEMU
 * icount (shift 0) the TSC counts instructions, so this is fn's
 * instruction count plus those of any interrupt that hit it; the
 * smallest of @tries runs is taken.  Elsewhere it is cycles.
 */
u64 ktrace_clock(void (*fn)(void *), void *arg, unsigned int tries);

/*
 * Print the path (every step as function+offset, consecutive steps in
 * one function on one line), per-function counts and the total, and
 * emit "ktrace_fn" and "ktrace" records named @name.  Thread context.
 */
void ktrace_report(struct ktrace *kt, const char *name);

/* Steps of @kt inside function @fn (by name); for tests. */
unsigned long ktrace_count_fn(const struct ktrace *kt, const char *fn);

/* Called from the #DB entry; true when the trap was a ktrace step. */
struct pt_regs;
bool ktrace_debug_trap(struct pt_regs *regs);
/* Called for every other vector that interrupted a stepped context. */
void ktrace_note_interrupt(struct pt_regs *regs);

#endif /* _LINUX_KTRACE_H */
