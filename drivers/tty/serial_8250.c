// SPDX-License-Identifier: GPL-2.0
/*
 * Polled 16550 UART, the console of irqlab.  At 115200 baud each character
 * costs ~87 us of busy waiting, which is why printk() never calls in here
 * from a measured window (see kernel/printk/printk.c).
 *
 * The registers may be I/O ports (PCs' COM ports) or memory-mapped with
 * byte or 32-bit spacing (servers' BMC UARTs, SoC UARTs, PCI cards): every
 * access goes through serial_in()/serial_out(), which hide the difference.
 */
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/console.h>
#include <linux/serial_8250.h>
#include <asm/io.h>
#include <asm/pgtable.h>

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

/* The 16550's divisor is relative to its 1.8432 MHz / 16 clock. */
#define UART_BASE_BAUD	115200

struct uart_8250_port console_port;

u32 serial_in(struct uart_8250_port *up, int offset)
{
	offset <<= up->regshift;
	switch (up->iotype) {
	case UPIO_MEM:
		return readb(up->membase + offset);
	case UPIO_MEM32:
		return readl(up->membase + offset);
	default:
		return inb(up->iobase + offset);
	}
}

void serial_out(struct uart_8250_port *up, int offset, u32 value)
{
	offset <<= up->regshift;
	switch (up->iotype) {
	case UPIO_MEM:
		writeb(value, up->membase + offset);
		break;
	case UPIO_MEM32:
		writel(value, up->membase + offset);
		break;
	default:
		outb(value, up->iobase + offset);
		break;
	}
}

/*
 * The scratch register test tells a UART from an empty I/O range (reads
 * of nothing return 0xff) or from unmapped MMIO.
 */
static bool serial8250_probe(struct uart_8250_port *up)
{
	serial_out(up, UART_SCR, 0x5a);
	if ((serial_in(up, UART_SCR) & 0xff) != 0x5a)
		return false;
	serial_out(up, UART_SCR, 0xa5);
	return (serial_in(up, UART_SCR) & 0xff) == 0xa5;
}

/*
 * Point @up at a UART and program it for 8N1 at @baud (0 keeps the divisor
 * firmware set, as SPCR's "as is" asks).  MMIO needs ioremap(), so after
 * paging_init().  Returns -ENODEV, leaving @up not present, when nothing
 * answers there.
 */
int serial8250_port_init(struct uart_8250_port *up, unsigned char iotype, u64 addr,
			 u32 baud)
{
	u16 div = UART_BASE_BAUD / (baud ? baud : UART_BASE_BAUD);

	*up = (struct uart_8250_port){ .iotype = iotype, .baud = baud };
	switch (iotype) {
	case UPIO_PORT:
		up->iobase = addr;
		break;
	case UPIO_MEM:
	case UPIO_MEM32:
		up->regshift = iotype == UPIO_MEM32 ? 2 : 0;
		up->mapbase = addr;
		up->membase = ioremap(addr, 8 << up->regshift);
		if (!up->membase)
			return -ENOMEM;
		break;
	default:
		return -EINVAL;
	}
	up->present = serial8250_probe(up);
	if (!up->present)
		return -ENODEV;
	serial_out(up, UART_IER, 0x00);		/* polled: no interrupts yet */
	if (baud) {
		serial_out(up, UART_LCR, UART_LCR_DLAB);
		serial_out(up, UART_DLL, div & 0xff);
		serial_out(up, UART_DLM, div >> 8);
	}
	serial_out(up, UART_LCR, UART_LCR_8N1);
	serial_out(up, UART_FCR, UART_FCR_ENABLE);
	serial_out(up, UART_MCR, UART_MCR_DTR_RTS_OUT2);
	return 0;
}

/* The boot console, before the command line is known: port I/O only. */
void serial8250_early_init(u16 iobase, u32 baud)
{
	serial8250_port_init(&console_port, UPIO_PORT, iobase, baud);
}

void serial8250_putc(struct uart_8250_port *up, char c)
{
	unsigned int spins = 0;

	if (!up->present)
		return;
	/* Bounded wait: a wedged UART must not hang a panic. */
	while (!(serial_in(up, UART_LSR) & UART_LSR_THRE) && ++spins < 1000000)
		asm volatile("pause");
	serial_out(up, UART_TX, c);
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

static void serial8250_console_write(struct console *co, const char *s, unsigned int n)
{
	serial8250_write(co->data, s, n);
}

/* console_port is re-pointed in place when console= or SPCR names another UART. */
struct console serial8250_console = {
	.name = "ttyS0",
	.write = serial8250_console_write,
	.flags = CON_ENABLED | CON_CONSDEV,
	.at_line_start = true,
	.data = &console_port,
};
