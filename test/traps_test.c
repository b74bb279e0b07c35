// SPDX-License-Identifier: GPL-2.0
/*
 * Exceptions are delivered with the right vector, address and error code,
 * and the page tables enforce the kernel image's section permissions.
 */
#include <linux/ktest.h>
#include <linux/kasan.h>
#include <asm/pgtable.h>
#include <asm/processor.h>
#include <asm/sections.h>
#include <linux/sched.h>

/* Written by the faulting asm just before the faulting instruction. */
static volatile unsigned long fault_ip;

static void trap_ud(struct ktest *t)
{
	struct fault_record r;

	if (KTEST_EXPECT_FAULT(t, X86_TRAP_UD, &r,
		asm volatile("leaq 1f(%%rip), %%rax; movq %%rax, %0; 1: ud2"
			     : "=m"(fault_ip) : : "rax", "memory"))) {
		KTEST_EXPECT_EQ(t, r.vector, X86_TRAP_UD);
		KTEST_EXPECT_EQ(t, r.ip, fault_ip);
	}
}

static void trap_de(struct ktest *t)
{
	struct fault_record r;

	if (KTEST_EXPECT_FAULT(t, X86_TRAP_DE, &r,
		asm volatile("leaq 1f(%%rip), %%rax; movq %%rax, %0\n\t"
			     "xorl %%ecx, %%ecx; movl $1, %%eax; xorl %%edx, %%edx\n"
			     "1: divl %%ecx"
			     : "=m"(fault_ip) : : "rax", "rcx", "rdx", "memory"))) {
		KTEST_EXPECT_EQ(t, r.vector, X86_TRAP_DE);
		KTEST_EXPECT_EQ(t, r.ip, fault_ip);
	}
}

/* No identity map: page 0 is absent.  Volatile so gcc does not see a NULL deref. */
static volatile unsigned long trap_addr_low = 0x18;

static void trap_pf_not_present(struct ktest *t)
{
	struct fault_record r;
	volatile int *p = (volatile int *)(unsigned long)trap_addr_low;
	bool faulted;

	/* The fault is the point: KASAN must not report the planted NULL access. */
	kasan_disable_current();
	faulted = KTEST_EXPECT_FAULT(t, X86_TRAP_PF, &r, (void)*p);
	kasan_enable_current();
	if (faulted) {
		KTEST_EXPECT_EQ(t, r.cr2, 0x18);
		KTEST_EXPECT_EQ(t, r.error_code & (X86_PF_PROT | X86_PF_WRITE | X86_PF_INSTR), 0);
	}
}

static const int rodata_value = 0x5a5a;

static void trap_write_rodata(struct ktest *t)
{
	struct fault_record r;
	volatile int *p = (volatile int *)&rodata_value;

	if (KTEST_EXPECT_FAULT(t, X86_TRAP_PF, &r, *p = 1)) {
		KTEST_EXPECT_EQ(t, r.cr2, (unsigned long)&rodata_value);
		KTEST_EXPECT_EQ(t, r.error_code & (X86_PF_PROT | X86_PF_WRITE),
				X86_PF_PROT | X86_PF_WRITE);
	}
	KTEST_EXPECT_EQ(t, *p, 0x5a5a);
}

static void trap_write_text(struct ktest *t)
{
	struct fault_record r;
	volatile u8 *p = (volatile u8 *)trap_write_text;

	if (KTEST_EXPECT_FAULT(t, X86_TRAP_PF, &r, *p = 0xcc))
		KTEST_EXPECT_EQ(t, r.error_code & (X86_PF_PROT | X86_PF_WRITE),
				X86_PF_PROT | X86_PF_WRITE);
}

static u8 data_code[16] = { 0xc3 };	/* "ret", in .data */

static void trap_exec_data(struct ktest *t)
{
	struct fault_record r;
	void (*fn)(void) = (void (*)(void))data_code;

	if (!boot_cpu_data.has_nx)
		ktest_skip(t, "CPU has no NX bit");
	if (KTEST_EXPECT_FAULT(t, X86_TRAP_PF, &r, fn())) {
		KTEST_EXPECT_EQ(t, r.cr2, (unsigned long)data_code);
		KTEST_EXPECT_TRUE(t, r.error_code & X86_PF_INSTR);
	}
}

static void page_permissions(struct ktest *t)
{
	enum pg_level lvl;
	u64 *e;

	e = lookup_address((unsigned long)_text, &lvl);
	KTEST_ASSERT_TRUE(t, e);
	KTEST_EXPECT_EQ(t, lvl, PG_LEVEL_4K);
	KTEST_EXPECT_FALSE(t, *e & _PAGE_RW);
	KTEST_EXPECT_FALSE(t, *e & _PAGE_NX);

	e = lookup_address((unsigned long)&rodata_value, &lvl);
	KTEST_ASSERT_TRUE(t, e);
	KTEST_EXPECT_FALSE(t, *e & _PAGE_RW);
	KTEST_EXPECT_EQ(t, *e & _PAGE_NX, _PAGE_NX & __supported_pte_mask);

	e = lookup_address((unsigned long)data_code, &lvl);
	KTEST_ASSERT_TRUE(t, e);
	KTEST_EXPECT_TRUE(t, *e & _PAGE_RW);
	KTEST_EXPECT_EQ(t, *e & _PAGE_NX, _PAGE_NX & __supported_pte_mask);

	/* The direct map of the kernel's own memory uses a large page. */
	e = lookup_address((unsigned long)__va(LOAD_PHYSICAL_ADDR), &lvl);
	KTEST_ASSERT_TRUE(t, e);
	KTEST_EXPECT_GE(t, lvl, PG_LEVEL_2M);
	ktest_info(t, "direct map page size at 16 MiB: %s", pg_level_name(lvl));
}

static void stack_guard_unmapped(struct ktest *t)
{
	extern char boot_stack_guard[];
	unsigned long task_stack = (unsigned long)current->stack;
	enum pg_level lvl;

	KTEST_EXPECT_TRUE(t, lookup_address((unsigned long)boot_stack_guard, &lvl) == NULL);
	KTEST_EXPECT_TRUE(t, lookup_address((unsigned long)boot_stack_guard + PAGE_SIZE, &lvl) != NULL);
	/* This test runs in a thread: its vmalloc'd stack has a guard below. */
	if (!IS_ENABLED(CONFIG_VMAP_STACK))
		ktest_skip(t, "task stacks have no guard page without CONFIG_VMAP_STACK (KASAN)");
	KTEST_EXPECT_TRUE(t, lookup_address(task_stack - PAGE_SIZE, &lvl) == NULL);
	KTEST_EXPECT_TRUE(t, lookup_address(task_stack, &lvl) != NULL);
}

/* Not a tail call: the add after the call keeps every frame alive. */
static noinline int recurse_forever(int depth)
{
	volatile char buf[256];

	buf[0] = depth;
	if (depth > (1 << 30))
		return 0;
	return recurse_forever(depth + 1) + buf[0];
}

static void stack_overflow_reported(struct ktest *t)
{
	struct fault_record r;
	u64 mark = ktest_log_mark();

	/* Without the guard page the recursion would run into other memory. */
	if (!IS_ENABLED(CONFIG_VMAP_STACK))
		ktest_skip(t, "task stacks have no guard page without CONFIG_VMAP_STACK (KASAN)");
	/*
	 * The #PF on the guard cannot push its frame on the exhausted stack,
	 * so the CPU raises #DF, which runs on its IST stack and reports.
	 */
	if (KTEST_EXPECT_FAULT(t, X86_TRAP_DF, &r, recurse_forever(0))) {
		KTEST_EXPECT_EQ(t, r.vector, X86_TRAP_DF);
		char name[48];

		snprintf(name, sizeof(name), "(double-fault): task %s/%d stack",
			 current->comm, current->pid);
		KTEST_EXPECT_LOG(t, mark, "BUG: kernel stack overflow");
		ktest_expect_reports("bug", 1);
		KTEST_EXPECT_LOG(t, mark, name);
	}
}

static struct ktest_case traps_cases[] = {
	KTEST_CASE(trap_ud),
	KTEST_CASE(trap_de),
	KTEST_CASE(trap_pf_not_present),
	KTEST_CASE(trap_write_rodata),
	KTEST_CASE(trap_write_text),
	KTEST_CASE(trap_exec_data),
	KTEST_CASE(page_permissions),
	KTEST_CASE(stack_guard_unmapped),
	KTEST_CASE(stack_overflow_reported),
	{}
};

static struct ktest_suite traps_suite = { .name = "traps", .cases = traps_cases };
ktest_register_suite(traps_suite);
