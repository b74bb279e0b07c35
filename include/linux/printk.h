/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_PRINTK_H
#define _LINUX_PRINTK_H

#include <stdarg.h>
#include <linux/compiler.h>
#include <linux/types.h>

/* Log levels are encoded as in Linux: ASCII SOH followed by a digit. */
#define KERN_SOH	"\001"
#define KERN_EMERG	KERN_SOH "0"
#define KERN_ALERT	KERN_SOH "1"
#define KERN_CRIT	KERN_SOH "2"
#define KERN_ERR	KERN_SOH "3"
#define KERN_WARNING	KERN_SOH "4"
#define KERN_NOTICE	KERN_SOH "5"
#define KERN_INFO	KERN_SOH "6"
#define KERN_DEBUG	KERN_SOH "7"
#define KERN_CONT	KERN_SOH "c"

#define LOGLEVEL_DEFAULT	-1
#define LOGLEVEL_EMERG		0
#define LOGLEVEL_ERR		3
#define LOGLEVEL_WARNING	4
#define LOGLEVEL_INFO		6
#define LOGLEVEL_DEBUG		7

int printk(const char *fmt, ...) __printf(1, 2);
int vprintk(const char *fmt, va_list args);

#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif

#define pr_emerg(fmt, ...)	printk(KERN_EMERG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_alert(fmt, ...)	printk(KERN_ALERT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_crit(fmt, ...)	printk(KERN_CRIT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err(fmt, ...)	printk(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...)	printk(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_notice(fmt, ...)	printk(KERN_NOTICE pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...)	printk(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)
#define pr_debug(fmt, ...)	printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_cont(fmt, ...)	printk(KERN_CONT fmt, ##__VA_ARGS__)

/*
 * Output decoupling (DESIGN 5a).  printk() only appends to the log buffer;
 * the console is written by console_flush().  While a CPU is inside a
 * printk_defer_enter()/exit() section (a measured window) nothing it prints
 * reaches the UART until the section ends.  Once a console thread exists it
 * sets printk_console_threaded and printk() never writes the console itself.
 */
void printk_defer_enter(void);
void printk_defer_exit(void);
void console_flush(void);
void console_flush_panic(void);
extern bool printk_console_threaded;
void console_hold(void);
void console_unhold(void);
/* A progress line's next character, past the hold (test/heartbeat.c). */
bool console_put_progress(char c, bool line_start);

/*
 * Results: what the current task prints between these (a workload's report)
 * is kept, like every "@irqlab" record, where ordinary text cannot
 * overwrite it while the console is held.
 */
void printk_report_enter(void);
void printk_report_exit(void);
/* Lines the console never printed; results among them (the run fails on these). */
unsigned long printk_lines_lost(void);
unsigned long printk_results_lost(void);

/* Ring buffer inspection (tests, panic dumps). */
u64 printk_next_seq(void);
int printk_read_record(u64 seq, char *buf, size_t size, int *level, u64 *ts_ns);

/* Raw, unbuffered output for the very first instructions and for panics. */
void early_puts(const char *s);

extern int console_loglevel;

/* Hex dumps in Linux's layout (lib/hexdump.c). */
enum {
	DUMP_PREFIX_NONE,
	DUMP_PREFIX_ADDRESS,
	DUMP_PREFIX_OFFSET
};
int hex_dump_to_buffer(const void *buf, size_t len, int rowsize,
		       int groupsize, char *linebuf, size_t linebuflen,
		       bool ascii);
void print_hex_dump(const char *level, const char *prefix_str,
		    int prefix_type, int rowsize, int groupsize,
		    const void *buf, size_t len, bool ascii);

#endif /* _LINUX_PRINTK_H */
