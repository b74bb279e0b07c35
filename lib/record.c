// SPDX-License-Identifier: GPL-2.0
/* Machine records: sequence numbers and CRCs (the format is in linux/record.h). */
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/record.h>
#include <stdarg.h>

static u64 record_seq;
/* Records refused (empty, a newline inside, too long): the summary's "lost". */
static unsigned long record_refused;

unsigned long record_failures(void)
{
	return __atomic_load_n(&record_refused, __ATOMIC_RELAXED);
}

static long record_refuse(long err)
{
	__atomic_fetch_add(&record_refused, 1, __ATOMIC_RELAXED);
	return err;
}

/* Reflected CRC-32, polynomial 0x04c11db7, pre- and post-inverted (zlib's). */
u32 record_crc32(const void *buf, size_t len)
{
	const u8 *p = buf;
	u32 crc = ~0U;

	while (len--) {
		crc ^= *p++;
		for (int bit = 0; bit < 8; bit++)
			crc = (crc >> 1) ^ (0xedb88320U & -(crc & 1));
	}
	return ~crc;
}

long record_emit(const char *json)
{
	size_t len = strnlen(json, RECORD_MAX_JSON + 1);
	u64 seq;

	if (!len || memchr(json, '\n', len) || memchr(json, '\r', len))
		return record_refuse(-EINVAL);
	if (len > RECORD_MAX_JSON)
		return record_refuse(-E2BIG);
	seq = __atomic_fetch_add(&record_seq, 1, __ATOMIC_RELAXED);
	printk(KERN_INFO "@irqlab %llu %08x %s\n", (unsigned long long)seq,
	       record_crc32(json, len), json);
	return seq;
}

long record_emitf(const char *fmt, ...)
{
	char json[RECORD_MAX_JSON + 2];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsniprintf(json, sizeof(json), fmt, ap);
	va_end(ap);
	if (n < 0)
		return record_refuse(-EINVAL);
	if (n > RECORD_MAX_JSON)
		return record_refuse(-E2BIG);
	return record_emit(json);
}
