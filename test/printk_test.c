// SPDX-License-Identifier: GPL-2.0
/*
 * printk stores records with level and timestamp, and the console is
 * decoupled: inside a deferred section nothing reaches the UART.
 */
#include <linux/ktest.h>
#include <linux/serial_8250.h>

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

static struct ktest_case printk_cases[] = {
	KTEST_CASE(deferred_section_writes_nothing),
	KTEST_CASE(levels_and_records),
	KTEST_CASE(start_banner_first),
	{}
};

static struct ktest_suite printk_suite = { .name = "printk", .cases = printk_cases };
ktest_register_suite(printk_suite);
