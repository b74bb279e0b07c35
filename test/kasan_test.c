// SPDX-License-Identifier: GPL-2.0
/*
 * KASAN (generic, outline): each case plants one bug class and expects
 * Linux's report for it, as lib/test_kasan.c does: the bug type and the
 * function in the "BUG: KASAN:" line, the access line, what the address
 * belongs to, and the shadow dump.  The reports are expected, so each
 * case takes its own back from the count that fails the run.  Built only
 * with CONFIG_KASAN (kasan_defconfig).
 */
#include <linux/kernel.h>
#include <linux/kasan.h>
#include <linux/ktest.h>
#include <linux/mm.h>
#include <linux/preempt.h>
#include <linux/cpu.h>
#include <linux/sched.h>
#include "../mm/kasan/kasan.h"

struct kasan_case_state {
	unsigned long reports;
	bool multi_shot;
	u64 mark;
};

static void kasan_case_begin(struct kasan_case_state *s)
{
	s->multi_shot = kasan_save_enable_multi_shot();
	s->reports = kasan_reports;
	s->mark = ktest_log_mark();
}

/* The case provoked exactly @n reports: check, then forgive them. */
static void kasan_case_end(struct ktest *t, struct kasan_case_state *s, unsigned long n)
{
	KTEST_EXPECT_EQ(t, kasan_reports - s->reports, n);
	kasan_reports = s->reports;
	ktest_expect_reports("kasan", n);
	kasan_restore_multi_shot(s->multi_shot);
}

static void expect_report(struct ktest *t, struct kasan_case_state *s, const char *bug,
			  const char *func, const char *access, const void *addr)
{
	char line[96];

	snprintf(line, sizeof(line), "BUG: KASAN: %s in %s+0x", bug, func);
	KTEST_EXPECT_LOG(t, s->mark, line);
	snprintf(line, sizeof(line), "%s at addr %016lx by task ", access, (unsigned long)addr);
	KTEST_EXPECT_LOG(t, s->mark, line);
	KTEST_EXPECT_LOG(t, s->mark, "Memory state around the buggy address:");
}

/* Linux's shadow placement, which -fasan-shadow-offset must agree with. */
static void kasan_shadow_offset(struct ktest *t)
{
	struct page *page = alloc_page(GFP_KERNEL);
	unsigned long va;

	KTEST_ASSERT_TRUE(t, page != NULL);
	va = (unsigned long)page_address(page);
	KTEST_EXPECT_EQ(t, (unsigned long)kasan_mem_to_shadow((void *)va),
			(va >> 3) + 0xdffffc0000000000UL);
	/* mm.rst: the direct map's shadow starts at 0xffffed1000000000. */
	KTEST_EXPECT_EQ(t, (unsigned long)kasan_mem_to_shadow((void *)PAGE_OFFSET),
			0xffffed1000000000UL);
	/* Allocated: accessible; freed: KASAN_FREE_PAGE in every granule. */
	KTEST_EXPECT_EQ(t, *(u8 *)kasan_mem_to_shadow((void *)va), 0);
	preempt_disable();
	__free_page(page);
	KTEST_EXPECT_EQ(t, *(u8 *)kasan_mem_to_shadow((void *)va), KASAN_FREE_PAGE);
	KTEST_EXPECT_EQ(t, *(u8 *)kasan_mem_to_shadow((void *)(va + PAGE_SIZE - 1)),
			KASAN_FREE_PAGE);
	preempt_enable();
}

static noinline void kasan_page_use_after_free(struct ktest *t)
{
	struct kasan_case_state s;
	struct page *page = alloc_page(GFP_KERNEL);
	volatile char *p;

	KTEST_ASSERT_TRUE(t, page != NULL);
	p = page_address(page);
	p[8] = 1;
	kasan_case_begin(&s);
	/* Nobody can take the page back before the read on this CPU. */
	preempt_disable();
	__free_page(page);
	(void)p[8];
	preempt_enable();
	expect_report(t, &s, "use-after-free", "kasan_page_use_after_free",
		      "Read of size 1", (const void *)&p[8]);
	KTEST_EXPECT_LOG(t, s.mark, "The buggy address belongs to the page:");
	kasan_case_end(t, &s, 1);
}

/*
 * A page allocation used for 101 bytes, marked as kmalloc_large() marks
 * it: byte 100 is valid (the partial granule says 5 bytes), byte 101 is
 * the page red zone.
 */
static noinline void kasan_page_out_of_bounds(struct ktest *t)
{
	struct kasan_case_state s;
	struct page *page = alloc_page(GFP_KERNEL);
	volatile char *p;

	KTEST_ASSERT_TRUE(t, page != NULL);
	p = kasan_kmalloc_large(page_address(page), 101, GFP_KERNEL);
	kasan_case_begin(&s);
	(void)p[100];
	KTEST_EXPECT_EQ(t, kasan_reports, s.reports);
	p[101] = 0;
	expect_report(t, &s, "slab-out-of-bounds", "kasan_page_out_of_bounds",
		      "Write of size 1", (const void *)&p[101]);
	kasan_case_end(t, &s, 1);
	__free_page(page);
}

/* memset() reaches newlib through the checking wrapper. */
static noinline void kasan_memset_out_of_bounds(struct ktest *t)
{
	struct kasan_case_state s;
	struct page *page = alloc_page(GFP_KERNEL);
	char *p;

	KTEST_ASSERT_TRUE(t, page != NULL);
	p = kasan_kmalloc_large(page_address(page), 64, GFP_KERNEL);
	kasan_case_begin(&s);
	memset(p, 0, 64);
	KTEST_EXPECT_EQ(t, kasan_reports, s.reports);
	memset(p + 32, 0, 40);
	expect_report(t, &s, "slab-out-of-bounds", "kasan_memset_out_of_bounds",
		      "Write of size 40", p + 32);
	kasan_case_end(t, &s, 1);
	__free_page(page);
}

#ifdef CONFIG_KASAN_GLOBALS
static char kasan_global_array[10];

static noinline void kasan_global_out_of_bounds(struct ktest *t)
{
	struct kasan_case_state s;
	volatile int i = 3;
	volatile char *p = &kasan_global_array[ARRAY_SIZE(kasan_global_array) + i];

	kasan_case_begin(&s);
	(void)kasan_global_array[ARRAY_SIZE(kasan_global_array) - 1 + i - 3];
	KTEST_EXPECT_EQ(t, kasan_reports, s.reports);
	(void)*p;
	expect_report(t, &s, "global-out-of-bounds", "kasan_global_out_of_bounds",
		      "Read of size 1", (const void *)p);
	KTEST_EXPECT_LOG(t, s.mark, "The buggy address belongs to the variable:");
	kasan_case_end(t, &s, 1);
}
#endif

#ifdef CONFIG_KASAN_STACK
/*
 * The base of the instrumented frame of @func that holds @var: the word
 * the compiler stores the frame magic in, with @func's address two words
 * up, found by reading memory downwards from @var (the report finds it
 * through the shadow instead).  Those words are the frame's left red
 * zone: read without instrumentation.
 */
static __no_sanitize_address noinline unsigned long
kasan_frame_base(const void *var, const void *func)
{
	unsigned long a = round_down((unsigned long)var, sizeof(long));

	for (int i = 0; i < 128; i++, a -= sizeof(long)) {
		const unsigned long *w = (const unsigned long *)a;

		if (w[0] == KASAN_CURRENT_STACK_FRAME_MAGIC && w[2] == (unsigned long)func)
			return a;
	}
	return 0;
}

/*
 * Linux's kasan_stack_oob: one byte past a local array, through an
 * index the compiler cannot see.  The report names the frame, the
 * offset in it and the array with its bounds.
 */
static noinline void kasan_stack_oob(struct ktest *t)
{
	struct kasan_case_state s;
	char stack_array[10];
	char *volatile array = stack_array;
	volatile int i = 0;
	unsigned long base, off;
	char line[96];
	char *p;

	kasan_case_begin(&s);
	array[ARRAY_SIZE(stack_array) - 1 + i] = 1;
	KTEST_EXPECT_EQ(t, kasan_reports, s.reports);
	p = &array[ARRAY_SIZE(stack_array) + i];
	(void)*(volatile char *)p;
	expect_report(t, &s, "stack-out-of-bounds", "kasan_stack_oob", "Read of size 1", p);
	base = kasan_frame_base(stack_array, kasan_stack_oob);
	KTEST_EXPECT_TRUE(t, base != 0);
	off = (unsigned long)p - base;
	snprintf(line, sizeof(line), "addr %016lx is located in stack of task %s/%d at offset %lu in frame:",
		 (unsigned long)p, current->comm, current->pid, off);
	KTEST_EXPECT_LOG(t, s.mark, line);
	KTEST_EXPECT_LOG(t, s.mark, " kasan_stack_oob+0x0/");
	KTEST_EXPECT_LOG(t, s.mark, "this frame has ");
	snprintf(line, sizeof(line), " [%lu, %lu) 'stack_array'", off - ARRAY_SIZE(stack_array), off);
	KTEST_EXPECT_LOG(t, s.mark, line);
	kasan_case_end(t, &s, 1);
}

/* Linux's kasan_alloca_oob_right: a VLA gets red zones of its own. */
static noinline void kasan_alloca_oob_right(struct ktest *t)
{
	struct kasan_case_state s;
	volatile int n = 10;
	char alloca_array[n];
	char *volatile p = alloca_array;

	kasan_case_begin(&s);
	(void)*(volatile char *)&p[n - 1];
	KTEST_EXPECT_EQ(t, kasan_reports, s.reports);
	(void)*(volatile char *)&p[n];
	expect_report(t, &s, "alloca-out-of-bounds", "kasan_alloca_oob_right", "Read of size 1",
		      &p[n]);
	kasan_case_end(t, &s, 1);
}

/* Sets up a frame with red zones, then faults inside it. */
static noinline void kasan_fault_in_frame(void)
{
	char buf[32];
	char *volatile q = buf;

	q[0] = 1;
	asm volatile("ud2" ::: "memory");
	q[1] = 1;
}

/*
 * Shadow bytes the stack instrumentation writes, below the caller's
 * stack pointer on the current task's stack: frames that ended.
 */
static noinline unsigned long kasan_dead_stack_poison(void)
{
	unsigned long sp, a, n = 0;

	asm volatile("movq %%rsp, %0" : "=r"(sp));
	for (a = (unsigned long)current->stack; a < sp; a += KASAN_GRANULE_SIZE) {
		u8 v = *(u8 *)kasan_mem_to_shadow((void *)a);

		n += v == KASAN_STACK_LEFT || v == KASAN_STACK_MID || v == KASAN_STACK_RIGHT ||
		     v == KASAN_STACK_PARTIAL;
	}
	return n;
}

/*
 * A fault caught by __fault_longjmp() abandons the faulting frame and the
 * trap handler's: their red zones must not stay behind, where the next
 * pt_regs or uninstrumented frame would read as a bad access.
 */
static noinline void kasan_stack_longjmp_unpoisons(struct ktest *t)
{
	struct fault_record r;

	KTEST_EXPECT_EQ(t, kasan_dead_stack_poison(), 0);
	if (KTEST_EXPECT_FAULT(t, X86_TRAP_UD, &r, kasan_fault_in_frame()))
		KTEST_EXPECT_EQ(t, kasan_dead_stack_poison(), 0);
}

/*
 * Linux's bringup_cpu(): an AP's idle task restarts at the top of the
 * stack it went down on, so the red zones left there are dropped before
 * the CPU runs again.  The case leaves some where a deep frame would
 * have; two CPUs (the kasan-slab entry runs it).
 */
static noinline void kasan_stack_idle_online(struct ktest *t)
{
	unsigned int cpu = 1;
	struct task_struct *idle;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs two CPUs");
	idle = cpu_rq_idle(cpu);
	KTEST_ASSERT_TRUE(t, idle && idle->stack);
	KTEST_ASSERT_EQ(t, cpu_down(cpu), 0);
	kasan_poison(idle->stack, 64, KASAN_STACK_MID, false);
	KTEST_EXPECT_EQ(t, *(u8 *)kasan_mem_to_shadow(idle->stack), KASAN_STACK_MID);
	KTEST_ASSERT_EQ(t, cpu_up(cpu), 0);
	KTEST_EXPECT_EQ(t, *(u8 *)kasan_mem_to_shadow(idle->stack), 0);
	KTEST_EXPECT_EQ(t, *(u8 *)kasan_mem_to_shadow(idle->stack + 56), 0);
}
#endif

/* Without kasan_multi_shot only the first report is printed. */
static noinline void kasan_reports_while_disabled(struct ktest *t)
{
	struct kasan_case_state s;
	struct page *page = alloc_page(GFP_KERNEL);
	volatile char *p;

	KTEST_ASSERT_TRUE(t, page != NULL);
	p = kasan_kmalloc_large(page_address(page), 16, GFP_KERNEL);
	kasan_case_begin(&s);
	kasan_disable_current();
	(void)p[16];
	kasan_enable_current();
	kasan_case_end(t, &s, 0);
	__free_page(page);
}

/*
 * Linux's default: the first report is printed, later ones are not (the
 * boot parameter kasan_multi_shot prints them all).  Runs last: it uses
 * up the single report of a boot without kasan_multi_shot.
 */
static noinline void kasan_report_once(struct ktest *t)
{
	struct kasan_case_state s;
	struct page *page = alloc_page(GFP_KERNEL);
	volatile char *p;

	KTEST_ASSERT_TRUE(t, page != NULL);
	p = kasan_kmalloc_large(page_address(page), 16, GFP_KERNEL);
	kasan_case_begin(&s);
	kasan_restore_multi_shot(false);
	(void)p[16];
	(void)p[24];
	expect_report(t, &s, "slab-out-of-bounds", "kasan_report_once", "Read of size 1",
		      (const void *)&p[16]);
	kasan_case_end(t, &s, 1);
	__free_page(page);
}

static struct ktest_case kasan_cases[] = {
	KTEST_CASE(kasan_shadow_offset),
	KTEST_CASE(kasan_page_use_after_free),
	KTEST_CASE(kasan_page_out_of_bounds),
	KTEST_CASE(kasan_memset_out_of_bounds),
#ifdef CONFIG_KASAN_GLOBALS
	KTEST_CASE(kasan_global_out_of_bounds),
#endif
#ifdef CONFIG_KASAN_STACK
	KTEST_CASE(kasan_stack_oob),
	KTEST_CASE(kasan_alloca_oob_right),
	KTEST_CASE(kasan_stack_longjmp_unpoisons),
	KTEST_CASE(kasan_stack_idle_online),
#endif
	KTEST_CASE(kasan_reports_while_disabled),
	KTEST_CASE(kasan_report_once),
	{}
};

static struct ktest_suite kasan_suite = {
	.name = "kasan",
	.cases = kasan_cases,
};
ktest_register_suite(kasan_suite);
