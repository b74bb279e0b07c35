// SPDX-License-Identifier: GPL-2.0
/*
 * printk: a ring of fixed-size records and a console drained separately.
 *
 * Writers reserve a sequence number with one atomic add, fill the slot and
 * publish it by storing its sequence number last (release).  The console
 * side walks sequence numbers in order; a slot whose stored sequence is
 * ahead of the reader was overwritten (the console fell a ring behind) and
 * is counted as lost, one that is behind is still being written.
 *
 * Results are kept twice.  A machine record ("@irqlab ..." line,
 * linux/record.h) and every line a task prints inside printk_report_enter()
 * also go to a second ring that text never reaches.  When the console finds
 * part of the main ring overwritten (it was held while workloads printed),
 * it prints the results that fell into the gap from that ring and counts
 * only the rest as dropped; a result lost from both rings is counted apart,
 * and the run fails on it (printk_results_lost()).
 *
 * Output to the UART is decoupled from the caller (DESIGN 5a): inside a
 * printk_defer_enter() section, or once a console thread has taken over,
 * printk() only stores.  Formatting uses newlib's integer-only
 * vsniprintf(), which the build checks to be free of SSE.
 */
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/moduleparam.h>
#include <linux/console.h>
#include <linux/sched/clock.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <asm/processor.h>
#include <stdio.h>

#define LOG_RECORDS	(1U << (CONFIG_LOG_BUF_SHIFT - 8))
#define LOG_TEXT_MAX	(256 - 24)

struct printk_record {
	u64 seq;		/* published last; LOG_SEQ_EMPTY while unused */
	u64 ts_ns;
	u16 len;
	u8 level;
	u8 cont;
	char text[LOG_TEXT_MAX];
};

#define LOG_SEQ_EMPTY	(~0ULL)

#define LOG_RESULTS	(1U << CONFIG_LOG_RESULT_SHIFT)

/* A copy of a result line, kept until the console is past it. */
struct printk_result {
	u64 idx;		/* its place in result_buf, published last */
	u64 seq;		/* its sequence number in log_buf */
	struct printk_record line;
};

static struct printk_result result_buf[LOG_RESULTS];
static u64 result_next;		/* next result index to reserve */
static u64 console_result;	/* results before it are printed or gone */
static unsigned long results_lost;
static unsigned long console_lost_total;

static struct printk_record log_buf[LOG_RECORDS];
static u64 log_next_seq;	/* next sequence number to reserve */
static u64 console_seq;		/* next record the console prints */
static u64 console_lost;
static int console_lock_word;
/* The serial console is there from the first printk(); others register. */
static struct console *console_drivers = &serial8250_console;
static bool log_buf_ready;
static DEFINE_PER_CPU(int, printk_defer_depth);
/* console_hold(): every CPU only stores, while workloads measure. */
static int console_held;

int console_loglevel = CONFIG_CONSOLE_LOGLEVEL_DEFAULT;
bool printk_console_threaded;
static bool printk_time = true;

core_param_range("loglevel", console_loglevel, int, 0, 8,
		 "console log level: records below it are printed");
core_param("printk.time", printk_time, bool,
	   "prefix console lines with [seconds.micros]");

static void log_buf_init(void)
{
	for (unsigned int i = 0; i < LOG_RECORDS; i++)
		log_buf[i].seq = LOG_SEQ_EMPTY;
	log_buf_ready = true;
}

static int printk_parse_level(const char **textp, bool *cont)
{
	const char *t = *textp;
	int level = LOGLEVEL_DEFAULT;

	*cont = false;
	while (t[0] == KERN_SOH[0] && t[1]) {
		if (t[1] >= '0' && t[1] <= '7')
			level = t[1] - '0';
		else if (t[1] == 'c')
			*cont = true;
		t += 2;
	}
	*textp = t;
	return level;
}

static bool log_is_result(const char *text, size_t len)
{
	return (len > 8 && !memcmp(text, "@irqlab ", 8)) ||
	       (current && current->printk_report);
}

static void log_fill(struct printk_record *r, int level, bool cont,
		     const char *text, size_t len)
{
	r->ts_ns = local_clock();
	r->level = level;
	r->cont = cont;
	r->len = len;
	memcpy(r->text, text, len);
}

/* Keep a second copy of result line @seq, out of the text's reach. */
static void result_store(u64 seq, int level, bool cont, const char *text, size_t len)
{
	u64 idx = __atomic_fetch_add(&result_next, 1, __ATOMIC_RELAXED);
	struct printk_result *res = &result_buf[idx % LOG_RESULTS];

	__atomic_store_n(&res->idx, LOG_SEQ_EMPTY, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	res->seq = seq;
	log_fill(&res->line, level, cont, text, len);
	__atomic_store_n(&res->idx, idx, __ATOMIC_RELEASE);
}

static void log_store(int level, bool cont, const char *text, size_t len)
{
	u64 seq = __atomic_fetch_add(&log_next_seq, 1, __ATOMIC_RELAXED);
	struct printk_record *r = &log_buf[seq % LOG_RECORDS];

	if (len > LOG_TEXT_MAX)
		len = LOG_TEXT_MAX;
	if (log_is_result(text, len))
		result_store(seq, level, cont, text, len);
	/* Invalidate first so a reader never pairs the old seq with new text. */
	__atomic_store_n(&r->seq, LOG_SEQ_EMPTY, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	log_fill(r, level, cont, text, len);
	__atomic_store_n(&r->seq, seq, __ATOMIC_RELEASE);
}

int vprintk(const char *fmt, va_list args)
{
	char buf[LOG_TEXT_MAX + 1];
	bool cont;
	int level, n;

	if (!log_buf_ready)
		log_buf_init();
	n = vsniprintf(buf, sizeof(buf), fmt, args);
	if (n < 0)
		return n;
	if (n > (int)sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	const char *text = buf;
	level = printk_parse_level(&text, &cont);
	if (level == LOGLEVEL_DEFAULT)
		level = 4;	/* Linux's default message level */
	log_store(level, cont, text, n - (text - buf));

	if (!printk_console_threaded && !this_cpu_read(printk_defer_depth))
		console_flush();
	return n;
}

int printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}

void printk_defer_enter(void)
{
	this_cpu_inc(printk_defer_depth);
	barrier();
}

void printk_defer_exit(void)
{
	barrier();
	if (this_cpu_add_return(printk_defer_depth, -1) == 0 && !printk_console_threaded)
		console_flush();
}

/*
 * While workloads run together (init/main.c), one of them printing must
 * not stall the UART under another's measurement: printk() only stores
 * until the last console_unhold(), which prints the backlog.  The ring
 * holds 2^(LOG_BUF_SHIFT-8) records; older ones are counted as lost.
 */
void console_hold(void)
{
	__atomic_add_fetch(&console_held, 1, __ATOMIC_SEQ_CST);
}

void console_unhold(void)
{
	if (__atomic_sub_fetch(&console_held, 1, __ATOMIC_SEQ_CST) == 0 &&
	    !printk_console_threaded)
		console_flush();
}

static void console_emit_one(struct console *con, const struct printk_record *r)
{
	char prefix[32];

	if (con->at_line_start && printk_time && !r->cont) {
		u64 us = r->ts_ns / 1000;
		int n = sniprintf(prefix, sizeof(prefix), "[%5lu.%06lu] ",
				  (unsigned long)(us / 1000000),
				  (unsigned long)(us % 1000000));
		con->write(con, prefix, n);
	}
	con->write(con, r->text, r->len);
	if (r->len)
		con->at_line_start = r->text[r->len - 1] == '\n';
}

static void console_emit(struct printk_record *r)
{
	if (r->level >= console_loglevel)
		return;
	for (struct console *con = console_drivers; con; con = con->next)
		if (con->flags & CON_ENABLED)
			console_emit_one(con, r);
}

static void console_write_all(const char *s, unsigned int n)
{
	for (struct console *con = console_drivers; con; con = con->next)
		if (con->flags & CON_ENABLED)
			con->write(con, s, n);
}

/*
 * The console printed everything before sequence @seq: the results up to
 * there need no second copy any more.
 */
static void console_results_done(u64 seq)
{
	while (console_result < READ_ONCE(result_next)) {
		struct printk_result *res = &result_buf[console_result % LOG_RESULTS];

		if (__atomic_load_n(&res->idx, __ATOMIC_ACQUIRE) != console_result ||
		    res->seq >= seq)
			break;
		console_result++;
	}
}

/*
 * log_buf lost sequence numbers [@from, @to) before the console printed
 * them: print the results among them from result_buf; return how many.
 * A result whose copy was overwritten too is lost for good.
 */
static u64 console_emit_results(u64 from, u64 to)
{
	u64 printed = 0;

	while (console_result < READ_ONCE(result_next)) {
		struct printk_result *res = &result_buf[console_result % LOG_RESULTS];
		u64 idx = __atomic_load_n(&res->idx, __ATOMIC_ACQUIRE);

		if (idx == LOG_SEQ_EMPTY || idx < console_result)
			break;			/* still being written */
		if (idx > console_result) {	/* overwritten before printed */
			results_lost++;
			console_result++;
			continue;
		}
		if (res->seq >= to)
			break;
		if (res->seq >= from) {
			console_emit(&res->line);
			printed++;
		}
		console_result++;
	}
	return printed;
}

static void console_say_lost(void);

/* Print every published record; return false if one was not yet published. */
static bool console_drain(void)
{
	while (console_seq < READ_ONCE(log_next_seq)) {
		struct printk_record *r = &log_buf[console_seq % LOG_RECORDS];
		u64 seq = __atomic_load_n(&r->seq, __ATOMIC_ACQUIRE);

		if (seq == LOG_SEQ_EMPTY || seq < console_seq)
			return false;		/* writer still busy */
		if (seq > console_seq) {
			/*
			 * Overwritten: we fell behind.  Only what is older
			 * than the last LOG_RECORDS reservations is gone; the
			 * rest of the ring is still there to print.
			 */
			u64 oldest = READ_ONCE(log_next_seq) - LOG_RECORDS;

			if (oldest <= console_seq)
				oldest = console_seq + 1;
			console_lost += oldest - console_seq -
					console_emit_results(console_seq, oldest);
			console_seq = oldest;
			console_say_lost();	/* at the gap, not after it */
			continue;
		}
		console_emit(r);
		console_seq++;
		console_results_done(console_seq);
	}
	return true;
}

/*
 * Console lock held: say on the console itself how many records the ring
 * overwrote before they were printed, so the host parser counts the gap.
 */
static void console_say_lost(void)
{
	char msg[64];
	int n;

	if (!console_lost)
		return;
	n = sniprintf(msg, sizeof(msg), "** %lu printk messages dropped **\n",
		      (unsigned long)console_lost);
	console_write_all(msg, n);
	console_lost_total += console_lost;
	console_lost = 0;
}

unsigned long printk_lines_lost(void)
{
	return READ_ONCE(console_lost_total);
}

unsigned long printk_results_lost(void)
{
	return READ_ONCE(results_lost);
}

void printk_report_enter(void)
{
	current->printk_report++;
}

void printk_report_exit(void)
{
	current->printk_report--;
}

void console_flush(void)
{
	/* Held: the last console_unhold() prints it all (a panic does not wait). */
	if (!log_buf_ready || READ_ONCE(console_held))
		return;
	do {
		if (__atomic_exchange_n(&console_lock_word, 1, __ATOMIC_ACQUIRE))
			return;		/* the holder prints our record too */
		console_drain();
		console_say_lost();
		__atomic_store_n(&console_lock_word, 0, __ATOMIC_RELEASE);
		/* A record published after our last check but before unlock. */
	} while (console_seq < READ_ONCE(log_next_seq) &&
		 __atomic_load_n(&log_buf[console_seq % LOG_RECORDS].seq,
				 __ATOMIC_ACQUIRE) == console_seq);
}

/*
 * One character of a progress line (test/heartbeat.c) straight to the
 * consoles: no ring record, not held back by console_hold() or a defer
 * section, and never a wait for the console lock.  A workload calls it in
 * the gaps between its samples, a few characters at a time, so that no
 * single call costs more than one character of UART time.  Returns false,
 * writing nothing, if the console is busy or @line_start is set while a
 * console is in the middle of a line; the caller tries again later.
 */
bool console_put_progress(char c, bool line_start)
{
	struct console *con;
	char prefix[32];
	int n = 0;

	if (!log_buf_ready || __atomic_exchange_n(&console_lock_word, 1, __ATOMIC_ACQUIRE))
		return false;
	for (con = console_drivers; con && line_start; con = con->next) {
		if ((con->flags & CON_ENABLED) && !con->at_line_start) {
			__atomic_store_n(&console_lock_word, 0, __ATOMIC_RELEASE);
			return false;
		}
	}
	if (line_start && printk_time) {
		u64 us = local_clock() / 1000;

		n = sniprintf(prefix, sizeof(prefix), "[%5lu.%06lu] ",
			      (unsigned long)(us / 1000000), (unsigned long)(us % 1000000));
	}
	for (con = console_drivers; con; con = con->next) {
		if (!(con->flags & CON_ENABLED))
			continue;
		if (n > 0)
			con->write(con, prefix, n);
		con->write(con, &c, 1);
		con->at_line_start = c == '\n';
	}
	__atomic_store_n(&console_lock_word, 0, __ATOMIC_RELEASE);
	return true;
}

/* Panic: take the console whoever holds it and print everything. */
void console_flush_panic(void)
{
	printk_console_threaded = false;
	this_cpu_write(printk_defer_depth, 0);
	WRITE_ONCE(console_held, 0);
	__atomic_exchange_n(&console_lock_word, 1, __ATOMIC_ACQUIRE);
	for (int tries = 0; tries < 1000 && !console_drain(); tries++)
		cpu_relax();
	console_say_lost();
	__atomic_store_n(&console_lock_word, 0, __ATOMIC_RELEASE);
}

void early_puts(const char *s)
{
	console_write_all(s, strlen(s));
}

/* Boot only (one CPU, no console thread yet): wait for the console. */
static void console_lock_spin(void)
{
	while (__atomic_exchange_n(&console_lock_word, 1, __ATOMIC_ACQUIRE))
		cpu_relax();
}

static void console_unlock_spin(void)
{
	__atomic_store_n(&console_lock_word, 0, __ATOMIC_RELEASE);
}

/*
 * Print to @con alone every record the other consoles already printed, so
 * a console that starts late (the one console= or SPCR chose, the
 * framebuffer) shows the whole boot, as Linux's CON_PRINTBUFFER does.
 * Records the ring already overwrote are counted, not invented.
 */
void console_replay(struct console *con)
{
	u64 seq = log_next_seq > LOG_RECORDS ? log_next_seq - LOG_RECORDS : 0;

	console_lock_spin();
	if (seq > 0) {
		char msg[64];
		int n = sniprintf(msg, sizeof(msg), "** %lu early printk messages lost **\n",
				  (unsigned long)seq);

		con->write(con, msg, n);
	}
	con->at_line_start = true;
	for (; seq < console_seq; seq++) {
		struct printk_record *r = &log_buf[seq % LOG_RECORDS];

		if (__atomic_load_n(&r->seq, __ATOMIC_ACQUIRE) != seq)
			continue;
		if (r->level < console_loglevel)
			console_emit_one(con, r);
	}
	console_unlock_spin();
}

/* Print what is pending, then add @con to the consoles printk() writes. */
void register_console(struct console *con)
{
	struct console **pp;

	console_flush();
	for (pp = &console_drivers; *pp; pp = &(*pp)->next)
		if (*pp == con)
			return;
	con->flags |= CON_ENABLED;
	con->at_line_start = true;
	if (con->flags & CON_PRINTBUFFER)
		console_replay(con);
	console_lock_spin();
	con->next = NULL;
	*pp = con;
	console_unlock_spin();
}

int unregister_console(struct console *con)
{
	int ret = -1;

	console_flush();
	console_lock_spin();
	for (struct console **pp = &console_drivers; *pp; pp = &(*pp)->next) {
		if (*pp == con) {
			*pp = con->next;
			con->next = NULL;
			ret = 0;
			break;
		}
	}
	console_unlock_spin();
	return ret;
}

u64 printk_next_seq(void)
{
	return READ_ONCE(log_next_seq);
}

/* Copy record @seq out of the ring; -1 if it is gone or not yet written. */
int printk_read_record(u64 seq, char *buf, size_t size, int *level, u64 *ts_ns)
{
	struct printk_record *r = &log_buf[seq % LOG_RECORDS];
	size_t len;

	if (!log_buf_ready || __atomic_load_n(&r->seq, __ATOMIC_ACQUIRE) != seq)
		return -1;
	len = r->len < size - 1 ? r->len : size - 1;
	memcpy(buf, r->text, len);
	buf[len] = '\0';
	if (level)
		*level = r->level;
	if (ts_ns)
		*ts_ns = r->ts_ns;
	/* The slot may have been reused while we copied. */
	if (__atomic_load_n(&r->seq, __ATOMIC_ACQUIRE) != seq)
		return -1;
	return len;
}
