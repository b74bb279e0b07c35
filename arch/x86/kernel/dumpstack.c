// SPDX-License-Identifier: GPL-2.0
/*
 * Backtraces by frame-pointer walk (the kernel is built with
 * -fno-omit-frame-pointer).  Each frame must lie inside a known stack and
 * above the previous one, so a corrupt chain ends the walk instead of
 * faulting inside the oops printer.
 */
#include <linux/kernel.h>
#include <linux/kallsyms.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <asm/stacktrace.h>
#include <asm/cpu_entry_area.h>
#include <asm/page.h>

#define MAX_STACKS	16
#define MAX_FRAMES	48

static struct stack_info stacks[MAX_STACKS];
static unsigned int nr_stacks;

void register_stack(const char *name, unsigned long guard,
		    unsigned long begin, unsigned long end)
{
	if (WARN_ON(nr_stacks >= MAX_STACKS))
		return;
	stacks[nr_stacks++] = (struct stack_info){ name, guard, begin, end };
}

/*
 * Per-CPU entry-area stacks are described on the fly; the per-CPU slot
 * keeps the returned pointer valid until the same CPU looks up again.
 */
static DEFINE_PER_CPU(struct stack_info, cea_info);
static DEFINE_PER_CPU(char [32], cea_name);

static const struct stack_info *cea_stack_info(unsigned long addr, bool want_guard)
{
	struct stack_info *si = this_cpu_ptr(&cea_info);
	char *name = *this_cpu_ptr(&cea_name);
	enum cea_stack s;
	bool guard;
	int cpu = cea_lookup(addr, &s, &guard);

	if (cpu < 0 || guard != want_guard)
		return NULL;
	snprintf(name, 32, "CPU %d %s", cpu, cea_stack_name(s));
	si->name = name;
	si->begin = cea_stack_bottom(cpu, s);
	si->end = cea_stack_top(cpu, s);
	si->guard = si->begin - PAGE_SIZE;
	return si;
}

/*
 * The current task's kernel stack.  With VMAP_STACK it is vmalloc'd, so
 * the page below it is a guard (the vmalloc area leaves an unmapped page
 * after every mapping); without (KASAN) the page below is somebody
 * else's memory, and there is no guard to name.
 */
static DEFINE_PER_CPU(struct stack_info, task_info);
static DEFINE_PER_CPU(char [40], task_name);

static const struct stack_info *task_stack_info(unsigned long addr, bool want_guard)
{
	struct task_struct *p = current;
	struct stack_info *si = this_cpu_ptr(&task_info);
	char *name = *this_cpu_ptr(&task_name);
	unsigned long lo, hi;

	if (!p || !p->stack || is_idle_task(p))
		return NULL;	/* idle stacks are the boot and entry-area stacks */
	if (want_guard && !IS_ENABLED(CONFIG_VMAP_STACK))
		return NULL;
	lo = (unsigned long)p->stack;
	hi = lo + p->stack_size;
	if (want_guard ? (addr < lo - PAGE_SIZE || addr >= lo) : (addr < lo || addr >= hi))
		return NULL;
	/*
	 * Only an overflow report prints the name; stack walks (the latency
	 * tracers take one inside IRQ-off windows) must stay cheap.
	 */
	if (want_guard)
		snprintf(name, 40, "task %s/%d", p->comm, p->pid);
	else
		strcpy(name, "task");
	*si = (struct stack_info){ name, lo - PAGE_SIZE, lo, hi };
	return si;
}

const struct stack_info *stack_guard_lookup(unsigned long addr)
{
	const struct stack_info *si = task_stack_info(addr, true);

	if (si)
		return si;
	for (unsigned int i = 0; i < nr_stacks; i++)
		if (stacks[i].guard && addr >= stacks[i].guard &&
		    addr < stacks[i].guard + PAGE_SIZE)
			return &stacks[i];
	return cea_stack_info(addr, true);
}

const struct stack_info *stack_lookup(unsigned long addr)
{
	const struct stack_info *si = task_stack_info(addr, false);

	if (si)
		return si;
	for (unsigned int i = 0; i < nr_stacks; i++)
		if (addr >= stacks[i].begin && addr < stacks[i].end)
			return &stacks[i];
	return cea_stack_info(addr, false);
}

static bool frame_ok(const struct stack_frame *f, const struct stack_info **si)
{
	unsigned long a = (unsigned long)f;

	if (!f || (a & 7))
		return false;
	if (!*si || a < (*si)->begin || a + sizeof(*f) > (*si)->end)
		*si = stack_lookup(a);	/* e.g. from an IST stack back to the task stack */
	return *si && a + sizeof(*f) <= (*si)->end;
}

static void print_frame(unsigned long ip, bool ret_addr, const char *log_lvl)
{
	char sym[KSYM_SYMBOL_LEN];

	if (ret_addr)
		sprint_backtrace(sym, ip);
	else
		sprint_symbol(sym, ip);
	printk("%s %s\n", log_lvl, sym);
}

void show_stack_from(unsigned long ip, unsigned long bp, const char *log_lvl)
{
	const struct stack_frame *f = (const struct stack_frame *)bp;
	const struct stack_info *si = NULL;
	unsigned int n = 0;

	if (ip)
		print_frame(ip, false, log_lvl);
	while (n++ < MAX_FRAMES && frame_ok(f, &si)) {
		if (!f->return_address)
			break;
		print_frame(f->return_address, true, log_lvl);
		if (f->next_frame && f->next_frame <= f)
			break;		/* frames must move towards the stack base */
		f = f->next_frame;
	}
}

unsigned int save_stack_trace(unsigned long *entries, unsigned int max,
			      unsigned int skip)
{
	const struct stack_frame *f = __builtin_frame_address(0);
	const struct stack_info *si = NULL;
	unsigned int n = 0;

	while (n < max && frame_ok(f, &si) && f->return_address) {
		if (skip)
			skip--;
		else
			entries[n++] = f->return_address;
		if (f->next_frame && f->next_frame <= f)
			break;
		f = f->next_frame;
	}
	return n;
}

/*
 * As save_stack_trace(), but from an interrupted context's frame pointer
 * (a sampling interrupt's regs->bp): the return addresses of the frames
 * above it, up to @max of them.
 */
unsigned int save_stack_trace_bp(unsigned long bp, unsigned long *entries, unsigned int max)
{
	const struct stack_frame *f = (const struct stack_frame *)bp;
	const struct stack_info *si = NULL;
	unsigned int n = 0;

	while (n < max && frame_ok(f, &si) && f->return_address) {
		entries[n++] = f->return_address;
		if (f->next_frame <= f)
			break;
		f = f->next_frame;
	}
	return n;
}

noinline void dump_stack(void)
{
	printk(KERN_WARNING "Call Trace:\n");
	show_stack_from(0, (unsigned long)__builtin_frame_address(0), KERN_WARNING);
}
