/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_UBSAN_H
#define _LINUX_UBSAN_H

#include <linux/atomic.h>

/*
 * UBSAN reports printed so far (lib/ubsan.c).  Like a WARN, a report
 * fails the run at its end (init/main.c); a test that plants undefined
 * behaviour on purpose checks how many it caused and takes them back
 * (KTEST_EXPECT_UBSAN_REPORTS).  Always defined, so that the verdict and
 * the tests read 0 in a kernel built without UBSAN.
 */
extern atomic_t ubsan_report_count;

#endif
