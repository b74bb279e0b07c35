// SPDX-License-Identifier: GPL-2.0
/*
 * Exception handling.  Every architectural exception is fatal unless a
 * test armed a fault catcher for it: then the fault is recorded and the
 * test resumes at its catch point.  Fatal faults print like a Linux oops
 * (trap name, error code, CR2 for #PF, registers, symbolized call trace)
 * and panic, which reports failure to the host.
 */
#include <linux/kernel.h>
#include <linux/irqflags.h>
#include <linux/trace_irqsoff.h>
#include <linux/kallsyms.h>
#include <linux/ktrace.h>
#include <linux/percpu.h>
#include <asm/traps.h>
#include <asm/processor.h>
#include <asm/stacktrace.h>
#include <asm/segment.h>

static const char *const trap_names[NR_EXCEPTION_VECTORS] = {
	[X86_TRAP_DE] = "divide error",
	[X86_TRAP_DB] = "debug",
	[X86_TRAP_NMI] = "NMI",
	[X86_TRAP_BP] = "int3",
	[X86_TRAP_OF] = "overflow",
	[X86_TRAP_BR] = "bounds",
	[X86_TRAP_UD] = "invalid opcode",
	[X86_TRAP_NM] = "device not available",
	[X86_TRAP_DF] = "double fault",
	[X86_TRAP_OLD_MF] = "coprocessor segment overrun",
	[X86_TRAP_TS] = "invalid TSS",
	[X86_TRAP_NP] = "segment not present",
	[X86_TRAP_SS] = "stack segment",
	[X86_TRAP_GP] = "general protection fault",
	[X86_TRAP_PF] = "page fault",
	[X86_TRAP_SPURIOUS] = "reserved (15)",
	[X86_TRAP_MF] = "coprocessor error",
	[X86_TRAP_AC] = "alignment check",
	[X86_TRAP_MC] = "machine check",
	[X86_TRAP_XF] = "SIMD floating-point exception",
	[X86_TRAP_VE] = "virtualization exception",
	[X86_TRAP_CP] = "control protection",
	[22] = "reserved (22)", [23] = "reserved (23)", [24] = "reserved (24)",
	[25] = "reserved (25)", [26] = "reserved (26)", [27] = "reserved (27)",
	[28] = "hypervisor injection",
	[X86_TRAP_VC] = "VMM communication",
	[X86_TRAP_SX] = "security exception",
	[31] = "reserved (31)",
};

/* Armed catchers on this CPU, innermost first. */
static DEFINE_PER_CPU(struct fault_catcher *, fault_catchers);

const char *trap_name(unsigned int vector)
{
	return vector < NR_EXCEPTION_VECTORS ? trap_names[vector] : "interrupt";
}

void fault_catch_arm(struct fault_catcher *fc, u64 vector_mask)
{
	memset(&fc->rec, 0, sizeof(fc->rec));
	fc->rec.vector = ~0U;
	fc->vector_mask = vector_mask;
	fc->prev = this_cpu_read(fault_catchers);
	barrier();
	this_cpu_write(fault_catchers, fc);
}

void fault_catch_disarm(struct fault_catcher *fc)
{
	if (this_cpu_read(fault_catchers) == fc)
		this_cpu_write(fault_catchers, fc->prev);
	barrier();
}

void fault_catch_reset(void)
{
	this_cpu_write(fault_catchers, NULL);
	barrier();
}

static bool fault_try_catch(struct pt_regs *regs, unsigned long cr2)
{
	struct fault_catcher *fc = this_cpu_read(fault_catchers);

	if (!fc || !(fc->vector_mask & (1ULL << regs->vector)))
		return false;
	fc->rec.vector = regs->vector;
	fc->rec.error_code = regs->orig_ax;
	fc->rec.ip = regs->ip;
	fc->rec.cr2 = cr2;
	fc->rec.sp = regs->sp;
	this_cpu_write(fault_catchers, fc->prev);
	/* Back to the catch point, on its own stack, with its own flags. */
	__fault_longjmp(&fc->jmp, 1);
}

void show_regs(struct pt_regs *regs)
{
	char sym[KSYM_SYMBOL_LEN];

	sprint_symbol(sym, regs->ip);
	printk(KERN_EMERG "RIP: %04lx:%s\n", regs->cs, sym);
	printk(KERN_EMERG "RSP: %04lx:%016lx EFLAGS: %08lx\n", regs->ss,
	       regs->sp, regs->flags);
	printk(KERN_EMERG "RAX: %016lx RBX: %016lx RCX: %016lx\n", regs->ax, regs->bx, regs->cx);
	printk(KERN_EMERG "RDX: %016lx RSI: %016lx RDI: %016lx\n", regs->dx, regs->si, regs->di);
	printk(KERN_EMERG "RBP: %016lx R08: %016lx R09: %016lx\n", regs->bp, regs->r8, regs->r9);
	printk(KERN_EMERG "R10: %016lx R11: %016lx R12: %016lx\n", regs->r10, regs->r11, regs->r12);
	printk(KERN_EMERG "R13: %016lx R14: %016lx R15: %016lx\n", regs->r13, regs->r14, regs->r15);
	printk(KERN_EMERG "CR0: %016lx CR2: %016lx CR3: %016lx CR4: %016lx\n",
	       read_cr0(), read_cr2(), read_cr3(), read_cr4());
	printk(KERN_EMERG "Call Trace:\n");
	show_stack_from(regs->ip, regs->bp, KERN_EMERG);
}

__noreturn void die(const char *str, struct pt_regs *regs, unsigned long err)
{
	static int die_counter;

	printk(KERN_EMERG "%s: %04lx [#%d] CPU: %d\n", str, err & 0xffff,
	       ++die_counter, smp_processor_id());
	show_regs(regs);
	panic("Fatal exception: %s", str);
}

static void report_page_fault(struct pt_regs *regs, unsigned long cr2)
{
	unsigned long err = regs->orig_ax;

	printk(KERN_EMERG "BUG: unable to handle page fault for address: %016lx\n", cr2);
	printk(KERN_EMERG "#PF: supervisor %s access in kernel mode\n",
	       (err & X86_PF_INSTR) ? "instruction fetch" :
	       (err & X86_PF_WRITE) ? "write" : "read");
	printk(KERN_EMERG "#PF: error_code(0x%04lx) - %s\n", err,
	       !(err & X86_PF_PROT) ? "not-present page" :
	       (err & X86_PF_RSVD) ? "reserved bit violation" :
	       "permissions violation");
}

/*
 * A fault on a guard page is a stack overflow.  It usually arrives as #DF:
 * the #PF for the guard cannot push its frame on the exhausted stack.
 */
static void report_stack_overflow(struct pt_regs *regs, unsigned long cr2)
{
	const struct stack_info *si = stack_guard_lookup(cr2);

	if (!si)
		si = stack_guard_lookup(regs->sp);
	if (!si)
		return;
	printk(KERN_EMERG "BUG: kernel stack overflow (%s): %s stack %016lx-%016lx, guard page %016lx hit at %016lx\n",
	       regs->vector == X86_TRAP_DF ? "double-fault" : "page fault",
	       si->name, si->begin, si->end, si->guard, cr2);
}

static void do_exception(struct pt_regs *regs)
{
	unsigned long cr2 = regs->vector == X86_TRAP_PF || regs->vector == X86_TRAP_DF ?
			    read_cr2() : 0;

	/* An overflow is reported even when a test expects the fault. */
	if (regs->vector == X86_TRAP_PF || regs->vector == X86_TRAP_DF)
		report_stack_overflow(regs, cr2);
	fault_try_catch(regs, cr2);

	switch (regs->vector) {
	case X86_TRAP_BP:
		pr_warn("int3 at %016lx\n", regs->ip);
		return;
	case X86_TRAP_PF:
		report_page_fault(regs, cr2);
		break;
	}
	die(trap_name(regs->vector), regs, regs->orig_ax);
}

void common_interrupt(struct pt_regs *regs);
void do_nmi(struct pt_regs *regs);

/*
 * Every vector but NMI enters with interrupts off.  When it interrupted a
 * context that had them on, that hardware IRQ-off window is the irqsoff
 * tracer's from here (its parent site is the interrupted instruction) to
 * the trace_hardirqs_on() just before iret.
 */
void do_trap(struct pt_regs *regs)
{
	/*
	 * ktrace's single steps first: they are not IRQ-off windows of the
	 * traced code, and the tracers must not see them.  (The step after
	 * a popf that cleared TF arrives without TF in the frame.)  Any
	 * other vector that arrives with TF set interrupted a traced
	 * operation.
	 */
	if (regs->vector == X86_TRAP_DB && ktrace_debug_trap(regs))
		return;
	if (unlikely(regs->flags & X86_EFLAGS_TF))
		ktrace_note_interrupt(regs);
	if (regs->vector == X86_TRAP_NMI) {
		do_nmi(regs);
		return;
	}
#ifdef CONFIG_TRACE_IRQSOFF
	if (regs->flags & X86_EFLAGS_IF)
		tracer_irq_entry(_THIS_IP_, regs->ip);
#endif
	if (regs->vector < NR_EXCEPTION_VECTORS)
		do_exception(regs);
	else
		common_interrupt(regs);
	/* iret turns interrupts back on; see common_interrupt(). */
	if (regs->flags & X86_EFLAGS_IF)
		trace_hardirqs_on();
	/* Not a tail call: the hook's return address must be in do_trap(). */
	barrier();
}
