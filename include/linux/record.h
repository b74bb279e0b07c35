/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_RECORD_H
#define _LINUX_RECORD_H

/*
 * Machine records on the console (DESIGN 8): one line per record,
 *
 *	@irqlab <seq> <crc32> <json>
 *
 *  <seq>   decimal, 0 for the first record of a boot, then +1 per record
 *          across the whole kernel (all kinds, all CPUs), so a gap names
 *          exactly the records a flaky serial line lost;
 *  <crc32> 8 lower-case hex digits: the standard CRC-32 (IEEE 802.3, the
 *          one zlib.crc32() and Python's binascii.crc32() compute) of the
 *          <json> bytes exactly as printed, so a corrupted line is caught;
 *  <json>  one JSON object on one line, at most RECORD_MAX_JSON bytes,
 *          with a "type" member naming the kind ("meminfo", ...).
 * The console may put a "[seconds.micros] " timestamp in front of the
 * line (printk.time); a parser looks for "@irqlab " anywhere on the line.
 */
#include <linux/types.h>
#include <linux/compiler.h>

/* What fits in one printk record together with the header. */
#define RECORD_MAX_JSON		200

/*
 * Print @json as the next record; returns its sequence number, or
 * -EINVAL (empty, a newline inside) / -E2BIG (too long) without printing
 * or using a sequence number.
 */
long record_emit(const char *json);
/*
 * Format the JSON with @fmt and print it as the next record; returns its
 * sequence number, or -E2BIG (longer than RECORD_MAX_JSON) / -EINVAL
 * without printing.  For reports, in thread context, after measuring.
 */
__printf(1, 2) long record_emitf(const char *fmt, ...);
u32 record_crc32(const void *buf, size_t len);
/* How many records record_emit()/record_emitf() refused since boot. */
unsigned long record_failures(void);

#endif
