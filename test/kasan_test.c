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
	KTEST_CASE(kasan_reports_while_disabled),
	KTEST_CASE(kasan_report_once),
	{}
};

static struct ktest_suite kasan_suite = {
	.name = "kasan",
	.cases = kasan_cases,
};
ktest_register_suite(kasan_suite);
