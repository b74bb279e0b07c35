// SPDX-License-Identifier: GPL-2.0
/*
 * Polled 16550 UART, the console of irqlab.  At 115200 baud each character
 * costs ~87 us of busy waiting, which is why printk() never calls in here
 * from a measured window (see kernel/printk/printk.c).
 */
#include <linux/kernel.h>
#include <linux/serial_8250.h>
#include <asm/io.h>

#define UART_RX		0	/* receive buffer (DLAB=0) */
#define UART_TX		0	/* transmit holding (DLAB=0) */
#define UART_DLL	0	/* divisor latch low (DLAB=1) */
#define UART_IER	1
#define UART_DLM	1	/* divisor latch high (DLAB=1) */
#define UART_FCR	2
#define UART_LCR	3
#define UART_MCR	4
#define UART_LSR	5
#define UART_SCR	7

#define UART_LCR_DLAB	0x80
#define UART_LCR_8N1	0x03
#define UART_LSR_THRE	0x20
#define UART_FCR_ENABLE	0x07	/* enable and clear both FIFOs */
#define UART_MCR_DTR_RTS_OUT2 0x0b

struct uart_8250_port console_port;

/* The scratch register test tells a UART from an empty I/O range. */
static bool serial8250_probe(u16 base)
{
	outb(0x5a, base + UART_SCR);
	if (inb(base + UART_SCR) != 0x5a)
		return false;
	outb(0xa5, base + UART_SCR);
	return inb(base + UART_SCR) == 0xa5;
}

void serial8250_early_init(u16 iobase, u32 baud)
{
	struct uart_8250_port *up = &console_port;
	u16 div = 115200 / (baud ? baud : 115200);

	up->iobase = iobase;
	up->baud = baud;
	up->present = serial8250_probe(iobase);
	if (!up->present)
		return;
	outb(0x00, iobase + UART_IER);		/* polled: no interrupts yet */
	outb(UART_LCR_DLAB, iobase + UART_LCR);
	outb(div & 0xff, iobase + UART_DLL);
	outb(div >> 8, iobase + UART_DLM);
	outb(UART_LCR_8N1, iobase + UART_LCR);
	outb(UART_FCR_ENABLE, iobase + UART_FCR);
	outb(UART_MCR_DTR_RTS_OUT2, iobase + UART_MCR);
}

void serial8250_putc(struct uart_8250_port *up, char c)
{
	unsigned int spins = 0;

	if (!up->present)
		return;
	/* Bounded wait: a wedged UART must not hang a panic. */
	while (!(inb(up->iobase + UART_LSR) & UART_LSR_THRE) && ++spins < 1000000)
		asm volatile("pause");
	outb(c, up->iobase + UART_TX);
	up->tx_bytes++;
}

void serial8250_write(struct uart_8250_port *up, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n')
			serial8250_putc(up, '\r');
		serial8250_putc(up, s[i]);
	}
}
