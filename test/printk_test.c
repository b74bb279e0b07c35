// SPDX-License-Identifier: GPL-2.0
/*
 * printk stores records with level and timestamp, and the console is
 * decoupled: inside a deferred section nothing reaches the UART.
 */
#include <linux/ktest.h>
#include <linux/serial_8250.h>
#include <linux/record.h>
#include <linux/moduleparam.h>

/* Lines in the main ring: from CONFIG_LOG_BUF_SHIFT, as printk.c sizes it. */
#define TEST_LOG_LINES	(1U << (CONFIG_LOG_BUF_SHIFT - 8))
#define TEST_RESULTS	(1U << CONFIG_LOG_RESULT_SHIFT)

static bool lose_results;
core_param("ktest.printk_lose_results", lose_results, bool,
	   "printk suite: overflow the results ring on purpose (the run must fail)");

static void deferred_section_writes_nothing(struct ktest *t)
{
	u64 before, during;

	printk_defer_enter();
	before = console_port.tx_bytes;
	pr_info("ktest: printed inside a deferred section\n");
	during = console_port.tx_bytes;
	printk_defer_exit();
	KTEST_EXPECT_EQ(t, during, before);
	KTEST_EXPECT_GT(t, console_port.tx_bytes, before);	/* flushed at exit */
}

static void levels_and_records(struct ktest *t)
{
	u64 seq = printk_next_seq(), tx;
	char buf[64];
	int level;
	u64 ts1, ts2;

	tx = console_port.tx_bytes;
	pr_debug("ktest: a debug record\n");
	KTEST_EXPECT_EQ(t, console_port.tx_bytes, tx);	/* below console_loglevel */
	KTEST_ASSERT_GE(t, printk_read_record(seq, buf, sizeof(buf), &level, &ts1), 0);
	KTEST_EXPECT_STREQ(t, buf, "ktest: a debug record\n");
	KTEST_EXPECT_EQ(t, level, LOGLEVEL_DEBUG);
	pr_err("ktest: an error record\n");
	KTEST_ASSERT_GE(t, printk_read_record(seq + 1, buf, sizeof(buf), &level, &ts2), 0);
	KTEST_EXPECT_EQ(t, level, LOGLEVEL_ERR);
	KTEST_EXPECT_GE(t, ts2, ts1);
	KTEST_EXPECT_GT(t, console_port.tx_bytes, tx);
}

static void start_banner_first(struct ktest *t)
{
	extern u64 irqlab_banner_seq;
	char buf[128];

	/* The banner is the first record: nothing printed before it. */
	KTEST_EXPECT_EQ(t, irqlab_banner_seq, 0);
	/* Its text, if the ring has not wrapped over it since. */
	if (printk_read_record(0, buf, sizeof(buf), NULL, NULL) < 0)
		ktest_skip(t, "record 0 was overwritten (the ring wrapped)");
	KTEST_EXPECT_TRUE(t, strncmp(buf, "irqlab: start ", 14) == 0);
}

/*
 * A workload printing while the console is held (a group run) floods the
 * main ring three times over between two records: both records and the
 * report line must reach the console (the entry's log checks it), only
 * the text in between is dropped, and no result counts as lost.
 */
static void flood_keeps_results(struct ktest *t)
{
	unsigned long lines = printk_lines_lost(), results = printk_results_lost();

	console_hold();
	KTEST_EXPECT_GE(t, record_emitf("{\"type\":\"ktest_flood\",\"mark\":\"first\"}"), 0);
	for (unsigned int i = 0; i < 3 * TEST_LOG_LINES; i++)
		pr_info("ktest: flood %u\n", i);
	printk_report_enter();
	pr_info("ktest: flood report line\n");
	printk_report_exit();
	for (unsigned int i = 0; i < TEST_LOG_LINES; i++)
		pr_info("ktest: flood again %u\n", i);
	KTEST_EXPECT_GE(t, record_emitf("{\"type\":\"ktest_flood\",\"mark\":\"last\"}"), 0);
	console_unhold();
	KTEST_EXPECT_EQ(t, printk_results_lost(), results);
	/*
	 * 4 rings' worth of text and 3 results were printed; the last ring
	 * survives, the two results before it come back from the results
	 * ring: 3 rings' worth + 1 is lost (more only if another CPU printed
	 * meanwhile; skipping from the overwriting line on would lose a ring
	 * more).
	 */
	KTEST_EXPECT_GE(t, printk_lines_lost() - lines, 3 * TEST_LOG_LINES + 1);
	KTEST_EXPECT_LE(t, printk_lines_lost() - lines, 3 * TEST_LOG_LINES + 1 + 64);
}

/*
 * More results than the results ring holds, all while the console is
 * held: some are lost for good, counted, and the run must end failed.
 * Only with ktest.printk_lose_results=1 (entry printk-results-lost).
 */
static void results_overflow_is_counted(struct ktest *t)
{
	unsigned long results = printk_results_lost();

	if (!lose_results)
		ktest_skip(t, "ktest.printk_lose_results=1 runs it (the run then fails)");
	console_hold();
	for (unsigned int i = 0; i < TEST_RESULTS + TEST_LOG_LINES + 16; i++)
		record_emitf("{\"type\":\"ktest_flood\",\"n\":%u}", i);
	console_unhold();
	KTEST_EXPECT_GT(t, printk_results_lost(), results);
}

static struct ktest_case printk_cases[] = {
	KTEST_CASE(deferred_section_writes_nothing),
	KTEST_CASE(levels_and_records),
	KTEST_CASE(start_banner_first),
	KTEST_CASE(flood_keeps_results),
	KTEST_CASE(results_overflow_is_counted),
	{}
};

static struct ktest_suite printk_suite = { .name = "printk", .cases = printk_cases };
ktest_register_suite(printk_suite);
