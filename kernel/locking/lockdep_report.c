// SPDX-License-Identifier: GPL-2.0
/*
 * lockdep-lite reports, worded like Linux's so the people and scripts that
 * read those recognise them: a banner, the task, the locks involved with
 * their usage and wait types, the saved stacks of the dependencies, a
 * CPU0/CPU1 scenario, the held locks and the current backtrace.
 *
 * Every printer runs after the checker has turned itself off and dropped
 * its lock, with current->lockdep_recursion raised.  printk only stores
 * into its ring and polls the UART (no lock lockdep tracks), so nothing
 * here re-enters lockdep.
 */
#include "lockdep_internals.h"
#include <linux/hardirq.h>
#include <linux/irqflags.h>
#include <linux/kallsyms.h>
#include <asm/stacktrace.h>
#include <stdarg.h>
#include <stdio.h>

/*
 * Reports are written as whole paragraphs; the console wants one record
 * per line so each gets its timestamp.  A last piece without a newline is
 * left open for KERN_CONT.
 */
static __printf(1, 2) void lp(const char *fmt, ...)
{
	char buf[512], *line = buf, *nl;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	while ((nl = strchr(line, '\n'))) {
		printk(KERN_WARNING "%.*s\n", (int)(nl - line), line);
		line = nl + 1;
	}
	if (*line)
		printk(KERN_WARNING "%s", line);
}

static const char *const usage_names[LOCK_USAGE_STATES] = {
	[LOCK_USED_IN_HARDIRQ]		= "IN-HARDIRQ-W",
	[LOCK_USED_IN_HARDIRQ_READ]	= "IN-HARDIRQ-R",
	[LOCK_ENABLED_HARDIRQ]		= "HARDIRQ-ON-W",
	[LOCK_ENABLED_HARDIRQ_READ]	= "HARDIRQ-ON-R",
	[LOCK_USED_IN_SOFTIRQ]		= "IN-SOFTIRQ-W",
	[LOCK_USED_IN_SOFTIRQ_READ]	= "IN-SOFTIRQ-R",
	[LOCK_ENABLED_SOFTIRQ]		= "SOFTIRQ-ON-W",
	[LOCK_ENABLED_SOFTIRQ_READ]	= "SOFTIRQ-ON-R",
	[LOCK_USED]			= "INITIAL USE",
	[LOCK_USED_READ]		= "INITIAL READ USE",
};

static const char *const kind_names[LOCK_IRQ_KINDS] = { "HARDIRQ", "SOFTIRQ" };

const char *usage_str(enum lock_usage_bit bit)
{
	return bit < LOCK_USAGE_STATES ? usage_names[bit] : "?";
}

static void print_banner(const char *title)
{
	char rule[80];
	size_t n = strlen(title);

	if (n > sizeof(rule) - 1)
		n = sizeof(rule) - 1;
	memset(rule, '=', n);
	rule[n] = '\0';
	lp("\n%s\n%s\nirqlab %s\n", rule, title, IRQLAB_VERSION);
	memset(rule, '-', n);
	lp("%s\n", rule);
}

/*
 * One character per IRQ kind and access: '.' never with that kind of IRQ
 * enabled nor in it, '-' in the interrupt, '+' with it enabled, '?' both.
 */
static char usage_char(unsigned long mask, unsigned int in_bit)
{
	bool in = mask & LOCKF(in_bit);
	bool on = mask & LOCKF(in_bit + LOCK_USAGE_DIR_MASK);

	return on ? (in ? '?' : '+') : (in ? '-' : '.');
}

static void class_desc(char *buf, size_t size, const struct lock_class *class)
{
	unsigned long m = class ? class->usage_mask : 0;
	char sub[12] = "";
	int outer, inner;

	if (!class) {
		snprintf(buf, size, "(<no class>)");
		return;
	}
	if (class->subclass)
		snprintf(sub, sizeof(sub), "/%u", class->subclass);
	inner = class->wait_type_inner;
	outer = class->wait_type_outer ?: inner;
	snprintf(buf, size, "(%s%s){%c%c%c%c}-{%d:%d}",
		 class->name ? class->name : "<unnamed>", sub,
		 usage_char(m, LOCK_USED_IN_HARDIRQ),
		 usage_char(m, LOCK_USED_IN_HARDIRQ_READ),
		 usage_char(m, LOCK_USED_IN_SOFTIRQ),
		 usage_char(m, LOCK_USED_IN_SOFTIRQ_READ), outer, inner);
}

static void print_lock_class(const char *prefix, const struct lock_class *class,
			     const char *suffix)
{
	char desc[KSYM_NAME_LEN + 32];

	class_desc(desc, sizeof(desc), class);
	lp("%s%s%s\n", prefix, desc, suffix);
}

static void print_held_lock(const struct held_lock *hl)
{
	char desc[KSYM_NAME_LEN + 32], sym[KSYM_SYMBOL_LEN];

	class_desc(desc, sizeof(desc), hl->class);
	sprint_symbol(sym, hl->acquire_ip);
	lp("%016lx %s, at: %s\n", (unsigned long)hl->instance, desc, sym);
}

static void print_entries(const unsigned long *entries, unsigned int nr, int spaces)
{
	char sym[KSYM_SYMBOL_LEN];

	for (unsigned int i = 0; i < nr; i++) {
		sprint_backtrace(sym, entries[i]);
		lp("%*s%s\n", spaces, "", sym);
	}
}

void print_lock_trace(const struct lock_trace *trace, int spaces)
{
	if (!trace->nr) {
		lp("%*s(no stack trace saved)\n", spaces, "");
		return;
	}
	print_entries(stack_trace + trace->start, trace->nr, spaces);
}

static void print_current_trace(int spaces)
{
	unsigned long entries[LOCK_TRACE_DEPTH];

	print_entries(entries, lockdep_save_current(entries, LOCK_TRACE_DEPTH), spaces);
}

static void print_held_locks(struct task_struct *curr)
{
	int depth = curr->lockdep_depth;

	if (!depth) {
		lp("no locks held by %s/%d.\n", curr->comm, curr->pid);
		return;
	}
	lp("%d lock%s held by %s/%d:\n", depth, depth > 1 ? "s" : "",
	   curr->comm, curr->pid);
	for (int i = 0; i < depth; i++) {
		lp(" #%d: ", i);
		print_held_lock(&curr->held_locks[i]);
	}
}

static void print_stack_backtrace(void)
{
	struct task_struct *curr = current;

	lp("\nstack backtrace:\n");
	lp("CPU: %d PID: %d Comm: %s\n", smp_processor_id(), curr->pid, curr->comm);
	dump_stack();
}

/*
 * "comm/pid [HC0[0]:SC0[0]:HE1:SE1]": contexts and what was enabled when
 * @hl was taken (lockdep itself runs with IRQs off).
 */
static void irq_state(char *buf, size_t size, const struct held_lock *hl)
{
	snprintf(buf, size, "%s/%d [HC%u[%u]:SC%u[%u]:HE%u:SE%u]", current->comm,
		 current->pid, in_hardirq() ? 1 : 0,
		 (unsigned int)(hardirq_count() >> HARDIRQ_SHIFT),
		 in_serving_softirq() ? 1 : 0,
		 (unsigned int)(softirq_count() >> SOFTIRQ_SHIFT),
		 !hl->hardirqs_off, !softirq_count());
}

static const char *cname(const struct lock_class *class)
{
	return class && class->name ? class->name : "<unnamed>";
}

/* ------------------------------------------------ circular dependency */

static unsigned int path_depth(const struct lock_list *e)
{
	unsigned int depth = 0;

	for (; e->parent; e = e->parent)
		depth++;
	return depth;
}

static void print_circular_scenario(struct lock_list *target, struct held_lock *next)
{
	struct lock_class *source = next->class, *tgt = target->class;
	struct lock_class *parent = target->parent ? target->parent->class : source;

	if (parent != source) {
		char chain[256];
		size_t n = snprintf(chain, sizeof(chain), "  %s", cname(source));

		/* The path runs source -> ... -> target; print it in that order. */
		for (unsigned int d = path_depth(target); d > 0 && n < sizeof(chain); d--) {
			struct lock_list *e = target;

			for (unsigned int k = 1; k < d; k++)
				e = e->parent;
			n += snprintf(chain + n, sizeof(chain) - n, " --> %s", cname(e->class));
		}
		lp("Chain exists of:\n%s --> %s\n\n", chain, cname(source));
	}
	lp(" Possible unsafe locking scenario:\n\n");
	lp("       CPU0                    CPU1\n");
	lp("       ----                    ----\n");
	lp("  lock(%s);\n", cname(tgt));
	lp("                               lock(%s);\n", cname(parent));
	lp("                               lock(%s);\n", cname(tgt));
	lp("  lock(%s);\n", cname(source));
	lp("\n *** DEADLOCK ***\n\n");
}

void print_circular_bug(struct lock_list *target, struct held_lock *prev,
			struct held_lock *next)
{
	struct task_struct *curr = current;
	unsigned int depth = path_depth(target);

	print_banner("WARNING: possible circular locking dependency detected");
	lp("%s/%d is trying to acquire lock:\n", curr->comm, curr->pid);
	print_held_lock(next);
	lp("\nbut task is already holding lock:\n");
	print_held_lock(prev);
	lp("\nwhich lock already depends on the new lock.\n\n");
	lp("\nthe existing dependency chain (in reverse order) is:\n");
	lockdep_note_class(next->class);
	for (struct lock_list *e = target; e->parent; e = e->parent, depth--) {
		char prefix[24];

		snprintf(prefix, sizeof(prefix), "\n-> #%u ", depth);
		print_lock_class(prefix, e->class, ":");
		print_lock_trace(&e->trace, 7);
		lockdep_note_class(e->class);
	}
	print_lock_class("\n-> #0 ", next->class, ":");
	print_current_trace(7);
	lp("\nother info that might help us debug this:\n\n");
	print_circular_scenario(target, next);
	print_held_locks(curr);
	print_stack_backtrace();
}

/* ------------------------------------------------------- recursive lock */

void print_deadlock_bug(struct held_lock *prev, struct held_lock *next)
{
	struct task_struct *curr = current;

	print_banner("WARNING: possible recursive locking detected");
	lp("%s/%d is trying to acquire lock:\n", curr->comm, curr->pid);
	print_held_lock(next);
	lp("\nbut task is already holding lock:\n");
	print_held_lock(prev);
	lp("\nother info that might help us debug this:\n");
	lp(" Possible unsafe locking scenario:\n\n");
	lp("       CPU0\n       ----\n");
	lp("  lock(%s);\n  lock(%s);\n", cname(prev->class), cname(next->class));
	lp("\n *** DEADLOCK ***\n\n");
	lp(" May be due to missing lock nesting notation\n\n");
	lockdep_note_class(next->class);
	print_held_locks(curr);
	print_stack_backtrace();
}

/* ------------------------------------------------------------ IRQ usage */

static void print_irq_scenario(struct lock_class *safe, struct lock_class *middle,
			       struct lock_class *unsafe)
{
	lp(" Possible interrupt unsafe locking scenario:\n\n");
	lp("       CPU0                    CPU1\n");
	lp("       ----                    ----\n");
	lp("  lock(%s);\n", cname(unsafe));
	lp("                               local_irq_disable();\n");
	lp("                               lock(%s);\n", cname(safe));
	if (middle != safe && middle != unsafe)
		lp("                               lock(%s);\n", cname(middle));
	lp("  <Interrupt>\n");
	lp("    lock(%s);\n", cname(safe));
	lp("\n *** DEADLOCK ***\n\n");
}

void print_usage_bug(struct held_lock *this, enum lock_usage_bit prev_bit,
		     enum lock_usage_bit new_bit)
{
	struct task_struct *curr = current;
	const char *kind = kind_names[new_bit / 4];
	char state[64];

	print_banner("WARNING: inconsistent lock state");
	lp("inconsistent {%s} -> {%s} usage.\n", usage_str(prev_bit), usage_str(new_bit));
	irq_state(state, sizeof(state), this);
	lp("%s takes:\n", state);
	print_held_lock(this);
	lp("{%s} state was registered at:\n", usage_str(prev_bit));
	print_lock_trace(&this->class->usage_traces[prev_bit], 2);
	lp("\nother info that might help us debug this:\n");
	lp(" Possible unsafe locking scenario:\n\n");
	lp("       CPU0\n       ----\n");
	lp("  lock(%s);\n", cname(this->class));
	lp("  <Interrupt>\n");
	lp("    lock(%s);\n", cname(this->class));
	lp("\n *** DEADLOCK ***\n\n");
	lp(" (the lock is taken both in %s context and with %s enabled)\n\n",
	   kind, kind);
	lockdep_note_class(this->class);
	print_held_locks(curr);
	print_stack_backtrace();
}

static enum lock_usage_bit first_set(const struct lock_class *class,
				     enum lock_usage_bit a, enum lock_usage_bit b)
{
	return class->usage_mask & LOCKF(a) ? a : b;
}

/* The classes of a search path, root first, with the saved edge stacks. */
static void print_path(struct lock_list *leaf)
{
	for (struct lock_list *e = leaf; e; e = e->parent) {
		print_lock_class(" -> ", e->class, e->parent ? ":" : "");
		if (e->parent)
			print_lock_trace(&e->trace, 5);
		lockdep_note_class(e->class);
	}
}

void print_bad_irq_dependency(struct held_lock *prev, struct held_lock *next,
			      struct lock_list *safe, struct lock_list *unsafe,
			      int kind)
{
	struct task_struct *curr = current;
	const char *k = kind_names[kind];
	enum lock_usage_bit sb = first_set(safe->class, kind * 4 + LOCK_USED_IN_HARDIRQ,
					   kind * 4 + LOCK_USED_IN_HARDIRQ_READ);
	enum lock_usage_bit ub = first_set(unsafe->class, kind * 4 + LOCK_ENABLED_HARDIRQ,
					   kind * 4 + LOCK_ENABLED_HARDIRQ_READ);
	char title[80], state[64];

	snprintf(title, sizeof(title), "WARNING: %s-safe -> %s-unsafe lock order detected",
		 k, k);
	print_banner(title);
	irq_state(state, sizeof(state), next);
	lp("%s is trying to acquire:\n", state);
	print_held_lock(next);
	lp("\nand this task is already holding:\n");
	print_held_lock(prev);
	lp("which would create a new lock dependency:\n");
	print_lock_class(" ", prev->class, "");
	print_lock_class(" -> ", next->class, "");
	lp("\nbut this new dependency connects a %s-irq-safe lock:\n", k);
	print_lock_class(" ", safe->class, "");
	lp("\n... which became %s-irq-safe at:\n", k);
	print_lock_trace(&safe->class->usage_traces[sb], 2);
	lp("\nto a %s-irq-unsafe lock:\n", k);
	print_lock_class(" ", unsafe->class, "");
	lp("\n... which became %s-irq-unsafe at:\n", k);
	print_lock_trace(&unsafe->class->usage_traces[ub], 2);
	lp("\nother info that might help us debug this:\n\n");
	print_irq_scenario(safe->class, prev->class, unsafe->class);
	print_held_locks(curr);
	lp("\nthe dependencies between %s-irq-safe lock and the holding lock:\n", k);
	print_path(safe);
	lp("\nthe dependencies between the lock to be acquired and %s-irq-unsafe lock:\n", k);
	print_path(unsafe);
	lockdep_note_class(prev->class);
	lockdep_note_class(next->class);
	print_stack_backtrace();
}

void print_irq_inversion_bug(struct held_lock *this, struct lock_list *other,
			     bool forwards, enum lock_usage_bit bit)
{
	struct task_struct *curr = current;
	const char *k = kind_names[bit / 4];

	print_banner("WARNING: possible irq lock inversion dependency detected");
	lp("%s/%d just changed the state of lock:\n", curr->comm, curr->pid);
	print_held_lock(this);
	if (forwards)
		lp("but this lock took another, %s-unsafe lock in the past:\n", k);
	else
		lp("but this lock was taken by another, %s-safe lock in the past:\n", k);
	print_lock_class(" ", other->class, "");
	lp("\n\nand interrupts could create inverse lock ordering between them.\n\n");
	lp("\nother info that might help us debug this:\n");
	if (forwards)
		print_irq_scenario(this->class, this->class, other->class);
	else
		print_irq_scenario(other->class, other->class, this->class);
	print_held_locks(curr);
	lp("\nthe shortest dependencies between 2nd lock and 1st lock:\n");
	print_path(other);
	lp("\n{%s} state was registered at:\n", usage_str(bit));
	print_lock_trace(&this->class->usage_traces[bit], 2);
	print_stack_backtrace();
}

/* ------------------------------------------------------- other reports */

void print_unlock_imbalance_bug(struct lockdep_map *lock, unsigned long ip)
{
	struct task_struct *curr = current;
	char sym[KSYM_SYMBOL_LEN];

	print_banner("WARNING: bad unlock balance detected!");
	sprint_symbol(sym, ip);
	lp("%s/%d is trying to release lock (%s) at:\n%s\n", curr->comm, curr->pid,
	   lock->name ? lock->name : "<unnamed>", sym);
	lp("but there are no more locks to release!\n");
	lp("\nother info that might help us debug this:\n");
	lockdep_note_class(lock->class_cache);
	print_held_locks(curr);
	print_stack_backtrace();
}

static const char *const wait_names[LD_WAIT_MAX + 1] = {
	"invalid", "wait-free", "spin", "config", "sleep", "any",
};

void print_lock_invalid_wait_context(struct held_lock *next, int curr_inner)
{
	struct task_struct *curr = current;
	int inner = next->class->wait_type_inner;
	int outer = next->class->wait_type_outer ?: inner;

	print_banner("[ BUG: Invalid wait context ]");
	lp("%s/%d is trying to lock:\n", curr->comm, curr->pid);
	print_held_lock(next);
	lp("other info that might help us debug this:\n");
	lp("context-{%d:%d}\n", curr_inner, curr_inner);
	lp("(a %s lock inside a %s context)\n", wait_names[outer],
	   wait_names[curr_inner]);
	lockdep_note_class(next->class);
	print_held_locks(curr);
	print_stack_backtrace();
}

void print_lockdep_off(const char *why)
{
	lp("%s\nturning off the locking correctness validator.\n", why);
	print_stack_backtrace();
}

/* ----------------------------------------------------------- assertions */

void lockdep_assert_fail(const char *what, const char *file, int line)
{
	struct task_struct *curr = current;

	atomic_inc(&lockdep_bug_count);
	lp("WARNING: CPU: %d PID: %d at %s:%d %s\n", smp_processor_id(), curr->pid,
	   file, line, what);
	print_held_locks(curr);
	lp("Call Trace:\n");
	show_stack_from(0, (unsigned long)__builtin_frame_address(0), KERN_WARNING);
}

void lockdep_assert_irqs_disabled_fail(const char *file, int line, bool want_off)
{
	atomic_inc(&lockdep_bug_count);
	lp("WARNING: CPU: %d PID: %d at %s:%d %s\n", smp_processor_id(), current->pid,
	   file, line, want_off ? "lockdep_assert_irqs_disabled()" :
	   "lockdep_assert_irqs_enabled()");
	lp("irqs_disabled(): %d, in_hardirq(): %d\n", irqs_disabled() ? 1 : 0,
	   in_hardirq() ? 1 : 0);
	lp("Call Trace:\n");
	show_stack_from(0, (unsigned long)__builtin_frame_address(0), KERN_WARNING);
}
