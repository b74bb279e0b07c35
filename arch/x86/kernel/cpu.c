// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU descriptor tables: a GDT and a TSS per CPU, whose IST slots give
 * NMI, #DF, #MC and #DB stacks of their own (with guard pages), so that an
 * exception taken on a broken stack still has somewhere to run.
 *
 * CPU 0 starts on stacks in .bss (usable before any allocator); once the
 * per-CPU areas and the CPU entry area exist, cpu_init() moves every CPU,
 * CPU 0 included, onto its per-CPU tables and entry-area stacks.
 */
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <asm/processor.h>
#include <asm/desc.h>
#include <asm/page.h>
#include <asm/stacktrace.h>
#include <asm/cpu_entry_area.h>

#define EARLY_EXC_STKSZ	(PAGE_SIZE << EXCEPTION_STACK_ORDER)

struct cpuinfo_x86 boot_cpu_data;

/* Guard page first, then the stack; paging_init() unmaps the guards. */
struct exception_stack {
	u8 guard[PAGE_SIZE];
	u8 stack[EARLY_EXC_STKSZ];
} __aligned(PAGE_SIZE);

static struct exception_stack early_exception_stacks[N_EXCEPTION_STACKS]
	__section(".bss..page_aligned");
static const char *const ist_names[N_EXCEPTION_STACKS] = {
	"NMI", "#DF", "#MC", "#DB"
};
static const enum cea_stack ist_cea[N_EXCEPTION_STACKS] = {
	CEA_STACK_NMI, CEA_STACK_DF, CEA_STACK_MCE, CEA_STACK_DB
};

struct gdt_page {
	u64 gdt[GDT_ENTRIES];
} __aligned(64);

static DEFINE_PER_CPU_ALIGNED(struct gdt_page, gdt_page) = { {
	[GDT_ENTRY_KERNEL32_CS] = 0x00cf9a000000ffffULL,
	[GDT_ENTRY_KERNEL_CS] = 0x00af9a000000ffffULL,
	[GDT_ENTRY_KERNEL_DS] = 0x00cf92000000ffffULL,
} };
static DEFINE_PER_CPU_ALIGNED(struct tss_struct, cpu_tss);

void cpu_detect(struct cpuinfo_x86 *c)
{
	u32 a, b, cx, d;

	cpuid(0, &a, &b, &cx, &d);
	c->max_leaf = a;
	memcpy(c->vendor, &b, 4);
	memcpy(c->vendor + 4, &d, 4);
	memcpy(c->vendor + 8, &cx, 4);
	c->vendor[12] = '\0';

	cpuid(1, &a, &b, &cx, &d);
	c->family = (a >> 8) & 0xf;
	c->model = (a >> 4) & 0xf;
	if (c->family == 0xf)
		c->family += (a >> 20) & 0xff;
	if (c->family >= 6)
		c->model += ((a >> 16) & 0xf) << 4;
	c->stepping = a & 0xf;
	c->has_cx16 = cx & (1U << 13);
	c->has_x2apic = cx & (1U << 21);
	c->has_tsc_deadline = cx & (1U << 24);
	c->has_xsave = cx & (1U << 26);
	c->has_hypervisor = cx & (1U << 31);
	c->has_apic = d & (1U << 9);

	c->max_ext_leaf = cpuid_eax(0x80000000);
	if (c->max_ext_leaf >= 0x80000001) {
		d = cpuid_edx(0x80000001);
		c->has_nx = d & (1U << 20);
		c->has_pdpe1gb = d & (1U << 26);
	}
	if (c->max_ext_leaf >= 0x80000007)
		c->has_invariant_tsc = cpuid_edx(0x80000007) & (1U << 8);

	c->hypervisor[0] = '\0';
	if (c->has_hypervisor) {
		cpuid(0x40000000, &a, &b, &cx, &d);
		memcpy(c->hypervisor, &b, 4);
		memcpy(c->hypervisor + 4, &cx, 4);
		memcpy(c->hypervisor + 8, &d, 4);
		c->hypervisor[12] = '\0';
	}
}

static void set_tss_desc(u64 *slot, struct tss_struct *t)
{
	u64 base = (u64)t;
	u64 limit = sizeof(*t) - 1;

	/* Available 64-bit TSS (type 9), present. */
	slot[0] = (limit & 0xffff) | ((base & 0xffffff) << 16) |
		  (0x89ULL << 40) | (((limit >> 16) & 0xf) << 48) |
		  (((base >> 24) & 0xff) << 56);
	slot[1] = base >> 32;
}

static void load_tables(struct gdt_page *gp, struct tss_struct *tss)
{
	struct desc_ptr gdtr = { sizeof(gp->gdt) - 1, (u64)gp->gdt };

	tss->io_bitmap_base = sizeof(*tss);	/* no I/O bitmap */
	set_tss_desc(&gp->gdt[GDT_ENTRY_TSS], tss);
	asm volatile("lgdt %0" : : "m"(gdtr));
	/* Reload CS with a far return, then the data segments and TR. */
	asm volatile("pushq %0\n\t"
		     "leaq 1f(%%rip), %%rax\n\t"
		     "pushq %%rax\n\t"
		     "lretq\n"
		     "1:\n\t"
		     "movl %1, %%eax\n\t"
		     "movl %%eax, %%ds\n\t"
		     "movl %%eax, %%es\n\t"
		     "movl %%eax, %%ss\n\t"
		     : : "i"((u64)__KERNEL_CS), "i"(__KERNEL_DS) : "rax", "memory");
	asm volatile("ltr %w0" : : "r"(__TSS_SEL));
}

/* CPU 0, first instructions in C: tables in the per-CPU template, .bss stacks. */
void cpu_init_early(void)
{
	struct tss_struct *tss = &cpu_tss;	/* GS base is 0: the template */

	for (int i = 0; i < N_EXCEPTION_STACKS; i++) {
		struct exception_stack *es = &early_exception_stacks[i];

		tss->ist[i] = (u64)es->stack + EARLY_EXC_STKSZ;
		register_stack(ist_names[i], (unsigned long)es->guard,
			       (unsigned long)es->stack,
			       (unsigned long)es->stack + EARLY_EXC_STKSZ);
	}
	load_tables(&gdt_page, tss);
}

/* Any CPU, once its per-CPU area and entry-area stacks exist. */
void cpu_init(int cpu)
{
	struct tss_struct *tss = this_cpu_ptr(&cpu_tss);

	for (int i = 0; i < N_EXCEPTION_STACKS; i++)
		tss->ist[i] = cea_stack_top(cpu, ist_cea[i]);
	load_tables(this_cpu_ptr(&gdt_page), tss);
}

/* The early IST guard pages, for paging_init(). */
unsigned long exception_stack_guard(int i)
{
	return i < N_EXCEPTION_STACKS ? (unsigned long)early_exception_stacks[i].guard : 0;
}
