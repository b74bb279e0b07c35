/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SERIAL_8250_H
#define _LINUX_SERIAL_8250_H

#include <linux/types.h>

/* How the registers are reached (Linux's UPIO_* values). */
#define UPIO_PORT	0	/* port I/O, registers one port apart */
#define UPIO_MEM	2	/* MMIO, 8-bit accesses, byte-spaced (regshift 0) */
#define UPIO_MEM32	3	/* MMIO, 32-bit accesses, 4 bytes apart (regshift 2) */

struct uart_8250_port {
	unsigned char iotype;	/* UPIO_* */
	unsigned char regshift;	/* register n is at base + (n << regshift) */
	u16 iobase;		/* UPIO_PORT */
	u64 mapbase;		/* UPIO_MEM*: physical address */
	volatile u8 *membase;	/* UPIO_MEM*: mapped */
	u32 baud;		/* 0: keep what firmware programmed */
	u64 tx_bytes;		/* bytes written, for tests of output decoupling */
	bool present;
};

extern struct uart_8250_port console_port;

u32 serial_in(struct uart_8250_port *up, int offset);
void serial_out(struct uart_8250_port *up, int offset, u32 value);
int serial8250_port_init(struct uart_8250_port *up, unsigned char iotype, u64 addr,
			 u32 baud);
void serial8250_early_init(u16 iobase, u32 baud);
void serial8250_putc(struct uart_8250_port *up, char c);
void serial8250_write(struct uart_8250_port *up, const char *s, size_t n);

/* A serial console as console= or SPCR describe it, before it is started. */
struct serial_console_spec {
	unsigned char iotype;	/* UPIO_* */
	u64 addr;		/* I/O port or physical MMIO address */
	u32 baud;		/* 0: as firmware left it */
};

struct acpi_spcr_info;

int serial_console_parse(const char *name, int index, const char *options,
			 struct serial_console_spec *out);
int parse_spcr(const struct acpi_spcr_info *spcr, struct serial_console_spec *out);
void serial_console_describe(const struct serial_console_spec *spec, char *buf,
			     size_t size);

#endif /* _LINUX_SERIAL_8250_H */
