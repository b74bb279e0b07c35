// SPDX-License-Identifier: GPL-2.0
/*
 * Float formatting for reports.  This file is the one place compiled
 * WITHOUT -mgeneral-regs-only: the work happens in noinline workers so the
 * compiler cannot move an SSE instruction outside the kernel_fpu_begin()/
 * kernel_fpu_end() bracket in the wrappers.
 */
#include <linux/kernel.h>
#include <asm/fpu/api.h>
#include <stdarg.h>
#include <stdio.h>

/*
 * Our own variadic entry, compiled with SSE so its prologue spills the XMM
 * argument registers into the va_list save area; newlib's snprintf entry
 * is built general-regs-only (it is on the integer path) and would not.
 */
static int fp_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

static noinline int __fp_format_ratio(char *buf, size_t size, s64 num, s64 den,
				      int decimals)
{
	double v = den ? (double)num / (double)den : 0.0;

	return fp_snprintf(buf, size, "%.*f", decimals, v);
}

int fp_format_ratio(char *buf, size_t size, s64 num, s64 den, int decimals)
{
	int n;

	kernel_fpu_begin();
	n = __fp_format_ratio(buf, size, num, den, decimals);
	kernel_fpu_end();
	return n;
}

static noinline int __fp_format_bits(char *buf, size_t size, const char *fmt,
				     u64 bits)
{
	double v;

	memcpy(&v, &bits, sizeof(v));
	return fp_snprintf(buf, size, fmt, v);
}

int fp_format_bits(char *buf, size_t size, const char *fmt, u64 double_bits)
{
	int n;

	kernel_fpu_begin();
	n = __fp_format_bits(buf, size, fmt, double_bits);
	kernel_fpu_end();
	return n;
}
