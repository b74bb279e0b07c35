/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SERIAL_8250_H
#define _LINUX_SERIAL_8250_H

#include <linux/types.h>

struct uart_8250_port {
	u16 iobase;		/* port I/O base (0: not present) */
	u32 baud;
	u64 tx_bytes;		/* bytes written, for tests of output decoupling */
	bool present;
};

extern struct uart_8250_port console_port;

void serial8250_early_init(u16 iobase, u32 baud);
void serial8250_putc(struct uart_8250_port *up, char c);
void serial8250_write(struct uart_8250_port *up, const char *s, size_t n);

#endif /* _LINUX_SERIAL_8250_H */
