// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace: single-step one operation and name every instruction it ran
 * (include/linux/ktrace.h has the contract).
 *
 * ktrace_step_call() below sets TF with popfq right before it calls the
 * traced function.  TF set by popf takes effect after the next
 * instruction, so the first #DB arrives once the call has been made,
 * with RIP at the traced function's first instruction; every later #DB
 * reports the instruction about to run.  Storing regs->ip therefore
 * stores each instruction of the function exactly once, and the steps
 * back in ktrace_step_call (after the function's ret) are left out by
 * address.  The handler runs on the #DB IST stack with interrupts off and
 * only stores into the preallocated buffer.
 *
 * Why the count is exact: a single-step trap is taken after every
 * instruction that began with TF set, before any pending interrupt; the
 * interrupt gate then clears TF, so handlers are not stepped, and their
 * iret restores the traced frame's TF.  pushf inside the traced code
 * copies TF into saved flags, which is harmless while tracing; irqlab's
 * local_irq_restore() is sti, not popf, so no traced code reloads a TF-clear
 * flags word.  Should one (a popf or an iret of a frame saved before the
 * trace) clear TF, ktrace_step_call() sees TF clear when the function
 * returns and the trace is reported lost, not short.
 */
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/ktrace.h>
#include <linux/kallsyms.h>
#include <linux/record.h>
#include <linux/sched.h>
#include <linux/preempt.h>
#include <linux/slab.h>
#include <asm/processor.h>
#include <asm/ptrace.h>
#include <asm/traps.h>
#include <asm/tsc.h>
#include <string.h>

/* The trace in progress; the #DB handler of any CPU may see its steps. */
static struct ktrace *ktrace_active;
/* Single steps that arrived with no trace running (TF leaked). */
static unsigned long ktrace_stray;

/*
 * ktrace_step_call(fn, arg): fn(arg) with TF set.  Returns the flags word
 * as it was when fn returned, so the caller can tell whether TF
 * survived.  ktrace_clock_call(fn, arg): TSC ticks around fn(arg).  Both
 * keep the stack 16-byte aligned at the call.
 */
unsigned long ktrace_step_call(void (*fn)(void *), void *arg);
u64 ktrace_clock_call(void (*fn)(void *), void *arg);
void ktrace_empty_fn(void *arg);
extern const char ktrace_step_call_end[];

/*
 * The frame both callers share: fn in %rbx, arg moved to %rdi; %r12 is
 * free for what the caller keeps across the call.  Three pushes after the
 * return address leave %rsp 16-byte aligned at "call *%rbx".
 */
#define KTRACE_CALL_ENTER		\
"	pushq	%rbp\n"			\
"	movq	%rsp, %rbp\n"		\
"	pushq	%rbx\n"			\
"	pushq	%r12\n"			\
"	movq	%rdi, %rbx\n"		\
"	movq	%rsi, %rdi\n"

#define KTRACE_CALL_LEAVE		\
"	popq	%r12\n"			\
"	popq	%rbx\n"			\
"	popq	%rbp\n"			\
"	ret\n"

asm(
"	.pushsection .text\n"
"	.globl	ktrace_step_call\n"
"	.type	ktrace_step_call, @function\n"
"ktrace_step_call:\n"
KTRACE_CALL_ENTER
"	pushfq\n"
"	orq	$0x100, (%rsp)\n"
"	popfq\n"
"	call	*%rbx\n"
"	pushfq\n"
"	movq	(%rsp), %rax\n"
"	andq	$~0x100, (%rsp)\n"
"	popfq\n"
KTRACE_CALL_LEAVE
"	.globl	ktrace_step_call_end\n"
"ktrace_step_call_end:\n"
"	.size	ktrace_step_call, . - ktrace_step_call\n"
"\n"
"	.globl	ktrace_clock_call\n"
"	.type	ktrace_clock_call, @function\n"
"ktrace_clock_call:\n"
KTRACE_CALL_ENTER
"	lfence\n"
"	rdtsc\n"
"	shlq	$32, %rdx\n"
"	orq	%rdx, %rax\n"
"	movq	%rax, %r12\n"
"	call	*%rbx\n"
"	lfence\n"
"	rdtsc\n"
"	shlq	$32, %rdx\n"
"	orq	%rdx, %rax\n"
"	subq	%r12, %rax\n"
KTRACE_CALL_LEAVE
"	.size	ktrace_clock_call, . - ktrace_clock_call\n"
"\n"
"	.globl	ktrace_empty_fn\n"
"	.type	ktrace_empty_fn, @function\n"
"ktrace_empty_fn:\n"
"	ret\n"
"	.size	ktrace_empty_fn, . - ktrace_empty_fn\n"
"	.popsection\n");

struct ktrace *ktrace_alloc(unsigned int max)
{
	struct ktrace *kt;

	if (!max)
		return NULL;
	kt = kzalloc(sizeof(*kt), GFP_KERNEL);
	if (!kt)
		return NULL;
	kt->ip = kmalloc(max * sizeof(kt->ip[0]), GFP_KERNEL);
	kt->state = kmalloc(max, GFP_KERNEL);
	if (!kt->ip || !kt->state) {
		ktrace_free(kt);
		return NULL;
	}
	kt->max = max;
	return kt;
}

void ktrace_free(struct ktrace *kt)
{
	if (!kt)
		return;
	kfree(kt->ip);
	kfree(kt->state);
	kfree(kt);
}

static inline void ktrace_clear_dr6(void)
{
	/* DR6 bits are sticky on hardware: leave it as the reset value. */
	asm volatile("movq %0, %%db6" : : "r"(0xffff0ff0UL));
}

static inline void ktrace_store(struct ktrace *kt, unsigned long ip, u8 state)
{
	kt->irqs_off += !!(state & KTRACE_IRQS_OFF);
	kt->preempt_off += !!(state & KTRACE_PREEMPT_OFF);
	if (kt->nr < kt->max) {
		kt->ip[kt->nr] = ip;
		kt->state[kt->nr] = state;
		kt->nr++;
	} else {
		kt->overflow++;
	}
}

/*
 * The #DB handler's part.  IRQs are off (interrupt gate) and TF is clear
 * here.  A step of the traced task is stored; one of another task (TF
 * carried over by a context switch) is counted and TF is taken away from
 * it; one with no trace running is a leak and TF is cleared too.
 */
bool ktrace_debug_trap(struct pt_regs *regs)
{
	struct ktrace *kt = READ_ONCE(ktrace_active);
	unsigned long dr6;

	asm volatile("movq %%db6, %0" : "=r"(dr6));
	if (!(dr6 & (1UL << 14)))	/* BS: not a single step */
		return false;
	ktrace_clear_dr6();
	if (!kt) {
		ktrace_stray++;
		regs->flags &= ~X86_EFLAGS_TF;
		return true;
	}
	if (current != kt->task) {
		kt->foreign++;
		regs->flags &= ~X86_EFLAGS_TF;
		return true;
	}
	/*
	 * QEMU 7.2 delivers no step after an sti that opened an interrupt
	 * shadow, so the instruction after that one-byte sti ran without a
	 * trap of its own: store it before the step that reports its end.
	 * Where the step does arrive (at that very instruction), nothing is
	 * owed.
	 */
	if (kt->after_sti && regs->ip != kt->after_sti)
		ktrace_store(kt, kt->after_sti, preempt_count() ? KTRACE_PREEMPT_OFF : 0);
	kt->after_sti = 0;
	if (regs->ip >= (unsigned long)ktrace_step_call &&
	    regs->ip < (unsigned long)ktrace_step_call_end)
		return true;
	/* #DB entry leaves the preempt count alone: it is the traced code's. */
	ktrace_store(kt, regs->ip,
		     (regs->flags & X86_EFLAGS_IF ? 0 : KTRACE_IRQS_OFF) |
		     (preempt_count() ? KTRACE_PREEMPT_OFF : 0));
	if (*(const u8 *)regs->ip == 0xfb)	/* sti */
		kt->after_sti = regs->ip + 1;
	return true;
}

void ktrace_note_interrupt(struct pt_regs *regs)
{
	struct ktrace *kt = READ_ONCE(ktrace_active);

	if (kt && current == kt->task)
		kt->interrupts++;
}

int ktrace_call(struct ktrace *kt, void (*fn)(void *), void *arg)
{
	unsigned long flags;

	kt->nr = 0;
	kt->overflow = 0;
	kt->irqs_off = 0;
	kt->preempt_off = 0;
	kt->foreign = 0;
	kt->interrupts = 0;
	kt->lost = false;
	kt->after_sti = 0;
	kt->task = current;
	if (cmpxchg(&ktrace_active, NULL, kt))
		return -EBUSY;
	flags = ktrace_step_call(fn, arg);
	WRITE_ONCE(ktrace_active, NULL);
	kt->lost = !(flags & X86_EFLAGS_TF);
	return kt->overflow || kt->lost ? -EIO : 0;
}

u64 ktrace_clock(void (*fn)(void *), void *arg, unsigned int tries)
{
	u64 best = ~0ULL, empty = ~0ULL;

	for (unsigned int i = 0; i < tries; i++) {
		empty = min(empty, ktrace_clock_call(ktrace_empty_fn, NULL));
		best = min(best, ktrace_clock_call(fn, arg));
	}
	return best - empty + 1;
}

/* Start of the function holding @ip (0 outside the kernel's text). */
static unsigned long ktrace_fn_start(unsigned long ip, const char **name)
{
	unsigned long size, off;

	*name = kallsyms_lookup(ip, &size, &off);
	return *name ? ip - off : 0;
}

unsigned long ktrace_count_fn(const struct ktrace *kt, const char *fn)
{
	unsigned long n = 0;

	for (unsigned int i = 0; i < kt->nr; i++) {
		const char *name;

		ktrace_fn_start(kt->ip[i], &name);
		if (name && !strcmp(name, fn))
			n++;
	}
	return n;
}

#define KTRACE_PER_LINE	8
#define KTRACE_MAX_FNS	64

/* "*": IRQs off; "'": preemption off (IRQs on). */
static const char *ktrace_mark(u8 state)
{
	if (state & KTRACE_IRQS_OFF)
		return "*";
	return state & KTRACE_PREEMPT_OFF ? "'" : "";
}

/* One line per run of consecutive steps in one function (wrapped). */
static void ktrace_print_path(struct ktrace *kt, const char *name)
{
	char line[256];		/* 6 + 100 + 8 * 10 bytes at most */
	unsigned int i = 0;

	pr_info("ktrace: %s: path (step: function +offset..., * IRQs off, ' preemption off)\n",
		name);
	while (i < kt->nr) {
		const char *fname;
		unsigned long start = ktrace_fn_start(kt->ip[i], &fname);
		unsigned int first = i, n;
		int len;

		len = snprintf(line, sizeof(line), "%4u: %.100s", first + 1,
			       fname ? fname : "?");
		for (n = 0; i < kt->nr && n < KTRACE_PER_LINE; i++, n++) {
			const char *f2;

			if (ktrace_fn_start(kt->ip[i], &f2) != start)
				break;
			if (start)
				len += snprintf(line + len, sizeof(line) - len,
						" +0x%lx%s", kt->ip[i] - start,
						ktrace_mark(kt->state[i]));
			else
				len += snprintf(line + len, sizeof(line) - len,
						" %lx%s", kt->ip[i],
						ktrace_mark(kt->state[i]));
		}
		pr_info("ktrace: %s\n", line);
	}
}

void ktrace_report(struct ktrace *kt, const char *name)
{
	struct { unsigned long start; const char *name; unsigned long n; }
		fns[KTRACE_MAX_FNS];
	unsigned int nr_fns = 0;
	unsigned long other = 0;

	ktrace_print_path(kt, name);
	for (unsigned int i = 0; i < kt->nr; i++) {
		const char *fname;
		unsigned long start = ktrace_fn_start(kt->ip[i], &fname);
		unsigned int f;

		for (f = 0; f < nr_fns; f++)
			if (fns[f].start == start)
				break;
		if (f == nr_fns) {
			if (nr_fns == KTRACE_MAX_FNS) {
				other++;
				continue;
			}
			fns[f].start = start;
			fns[f].name = fname ? fname : "?";
			fns[f].n = 0;
			nr_fns++;
		}
		fns[f].n++;
	}
	pr_info("ktrace: %s: per function (in order of first step)\n", name);
	for (unsigned int f = 0; f < nr_fns; f++) {
		pr_info("ktrace: %s: %6lu %s\n", name, fns[f].n, fns[f].name);
		record_emitf("{\"type\":\"ktrace_fn\",\"name\":\"%.40s\",\"fn\":\"%.80s\",\"insns\":%lu}",
			     name, fns[f].name, fns[f].n);
	}
	if (other)
		pr_info("ktrace: %s: %6lu in further functions (more than %d)\n",
			name, other, KTRACE_MAX_FNS);
	pr_info("ktrace: %s: total %lu instructions (%lu with IRQs off, %lu with preemption off), "
		"%lu overflowed, %lu interrupts, %lu steps of other tasks, %s%s\n", name,
		ktrace_total(kt), kt->irqs_off, kt->preempt_off, kt->overflow, kt->interrupts,
		kt->foreign, kt->lost ? "TF LOST, " : "", tsc_clock_mode());
	record_emitf("{\"type\":\"ktrace\",\"name\":\"%.32s\",\"insns\":%lu,\"irqs_off\":%lu,"
		     "\"preempt_off\":%lu,\"functions\":%u,\"overflow\":%lu,\"interrupts\":%lu,"
		     "\"foreign\":%lu,\"valid\":%d}",
		     name, ktrace_total(kt), kt->irqs_off, kt->preempt_off, nr_fns, kt->overflow,
		     kt->interrupts, kt->foreign, !kt->overflow && !kt->lost);
	if (IS_ENABLED(CONFIG_TRACER_MAX_TRACE) && kt->irqs_off + kt->preempt_off)
		pr_info("ktrace: %s: note: a latency tracer is built in; it timed the stepped, "
			"slowed IRQ-/preempt-off windows, and its bookkeeping for them is counted\n",
			name);
	if (kt->overflow || kt->lost)
		pr_err("ktrace: %s: INVALID trace: %s\n", name,
		       kt->lost ? "the trap flag was lost before the function returned"
				: "the buffer overflowed (steps counted, not named)");
}
