// SPDX-License-Identifier: GPL-2.0
/*
 * Which consoles printk() writes to.  The boot console is COM1 (0x3f8),
 * set up before anything else so that early failures are visible.  Once
 * the command line and ACPI are known (start_kernel(), after
 * acpi_boot_init()), console_init() picks the serial console, in this
 * order:
 *   1. the last serial console= on the command line (ttyS<n>[,baud],
 *      uart[8250],io|mmio|mmio32,<addr>[,baud]: Linux's console= and
 *      earlycon= forms);
 *   2. the UART the firmware names in ACPI's SPCR table;
 *   3. ttyS0.
 * and adds the framebuffer text console when the loader gave a framebuffer
 * and the command line does not leave it out.  A console that starts on
 * another device than the boot console first gets the log so far, so its
 * output is a whole boot log.
 */
#include <linux/kernel.h>
#include <linux/acpi.h>
#include <linux/console.h>
#include <linux/errno.h>
#include <linux/fbcon.h>
#include <linux/moduleparam.h>
#include <linux/serial_8250.h>
#include <asm/bootparam.h>
#include <stdlib.h>

#define CON_ERR "irqlab: parameter 'console': "

static const char console_forms[] =
	"ttyS<0-3>[,<baud>], uart[8250],io,<port>[,<baud>], "
	"uart[8250],mmio,<addr>[,<baud>], uart[8250],mmio32,<addr>[,<baud>], fb, tty0";

/* The PC's COM1-COM4. */
static const u16 ttyS_ports[] = { 0x3f8, 0x2f8, 0x3e8, 0x2e8 };
#define TTYS_DEFAULT_BAUD	115200
#define UART_CLOCK_BAUD		115200	/* divisor 1 */
#define REMAP_LIMIT		(1ULL << 40)	/* what ioremap() reaches */

struct console_cmdline console_cmdline[MAX_CMDLINECONSOLES];
int nr_console_cmdline;

static void print_forms(void)
{
	pr_err(CON_ERR "valid forms: %s\n", console_forms);
}

static bool is_fb_name(const char *name)
{
	return !strcmp(name, "fb") || !strcmp(name, "tty");
}

static bool is_uart_name(const char *name)
{
	return !strcmp(name, "uart") || !strcmp(name, "uart8250");
}

/* "<baud>[n8]"; 115200 must divide by it, the divisor being a whole number. */
static int parse_baud(const char *s, u32 *baud)
{
	char *end;
	unsigned long v;

	if (!*s || *s < '0' || *s > '9')
		goto bad;
	v = strtoul(s, &end, 10);
	if (*end && strcmp(end, "n8")) {
		pr_err(CON_ERR "'%s': only 8 data bits without parity (n8) are supported\n", s);
		return -EINVAL;
	}
	if (v && v <= UART_CLOCK_BAUD && UART_CLOCK_BAUD % v == 0 &&
	    UART_CLOCK_BAUD / v <= 0xffff) {
		*baud = v;
		return 0;
	}
bad:
	pr_err(CON_ERR "'%s' is not a baud rate a 16550 can run at (valid: 115200 divided by a whole number: 115200, 57600, 38400, 19200, 9600, 4800, 2400, 1200, ...)\n",
	       s);
	return -EINVAL;
}

static int parse_addr(const char *s, unsigned char iotype, u64 *addr)
{
	char *end;
	unsigned long long v;

	if (!*s || *s == '-')
		goto bad;
	v = strtoull(s, &end, 0);
	if (*end)
		goto bad;
	if (iotype == UPIO_PORT && v && v <= 0xfff8) {
		*addr = v;
		return 0;
	}
	if (iotype != UPIO_PORT && v && v < REMAP_LIMIT &&
	    !(iotype == UPIO_MEM32 && (v & 3))) {
		*addr = v;
		return 0;
	}
bad:
	if (iotype == UPIO_PORT)
		pr_err(CON_ERR "'%s' is not an I/O port for a UART (valid: 0x1-0xfff8)\n", s);
	else
		pr_err(CON_ERR "'%s' is not an MMIO address for a UART (valid: non-zero, below 1 TiB%s)\n",
		       s, iotype == UPIO_MEM32 ? ", 4-byte aligned for mmio32" : "");
	return -EINVAL;
}

/* "io,<port>[,<baud>]", "mmio[32],<addr>[,<baud>]" or "<addr>[,<baud>]" (MMIO). */
static int parse_uart_options(const char *options, struct serial_console_spec *out)
{
	char buf[64], *type, *addr, *baud, *save;

	if (strlen(options) >= sizeof(buf)) {
		pr_err(CON_ERR "'%s' is too long\n", options);
		return -EINVAL;
	}
	strcpy(buf, options);
	type = strtok_r(buf, ",", &save);
	if (!type) {
		pr_err(CON_ERR "uart needs an access type and an address\n");
		return -EINVAL;
	}
	if (!strcmp(type, "io")) {
		out->iotype = UPIO_PORT;
	} else if (!strcmp(type, "mmio")) {
		out->iotype = UPIO_MEM;
	} else if (!strcmp(type, "mmio32")) {
		out->iotype = UPIO_MEM32;
	} else if (type[0] >= '0' && type[0] <= '9') {
		/* Linux's "uart,0x<addr>": 8-bit MMIO. */
		out->iotype = UPIO_MEM;
		addr = type;
		goto have_addr;
	} else {
		pr_err(CON_ERR "'%s' is not a UART access type (valid: io, mmio, mmio32)\n", type);
		return -EINVAL;
	}
	addr = strtok_r(NULL, ",", &save);
	if (!addr) {
		pr_err(CON_ERR "uart,%s needs an address\n", type);
		return -EINVAL;
	}
have_addr:
	if (parse_addr(addr, out->iotype, &out->addr))
		return -EINVAL;
	baud = strtok_r(NULL, ",", &save);
	out->baud = 0;			/* as Linux's earlycon: keep firmware's speed */
	if (baud && parse_baud(baud, &out->baud))
		return -EINVAL;
	if (strtok_r(NULL, ",", &save)) {
		pr_err(CON_ERR "'%s': nothing may follow the baud rate\n", options);
		return -EINVAL;
	}
	return 0;
}

/*
 * A serial console= (name, index and what followed the first comma) as
 * the UART to use.  Prints what is wrong with it; 0 or -EINVAL.
 */
int serial_console_parse(const char *name, int index, const char *options,
			 struct serial_console_spec *out)
{
	memset(out, 0, sizeof(*out));
	if (is_uart_name(name))
		return parse_uart_options(options, out);
	if (strcmp(name, "ttyS")) {
		pr_err(CON_ERR "'%s' is not a console name\n", name);
		return -EINVAL;
	}
	if (index < 0 || index >= (int)ARRAY_SIZE(ttyS_ports)) {
		pr_err(CON_ERR "ttyS%d has no standard port (ttyS0-ttyS3 do; use uart,io,<port> for others)\n",
		       index);
		return -EINVAL;
	}
	out->iotype = UPIO_PORT;
	out->addr = ttyS_ports[index];
	out->baud = TTYS_DEFAULT_BAUD;
	return *options ? parse_baud(options, &out->baud) : 0;
}

/* The UART SPCR describes, if the kernel can drive it. */
int parse_spcr(const struct acpi_spcr_info *spcr, struct serial_console_spec *out)
{
	const struct acpi_generic_address *gas = &spcr->serial_port;

	memset(out, 0, sizeof(*out));
	if (!spcr->is_16550) {
		pr_warn("SPCR: interface type 0x%02x is not a 16550; not used as the console\n",
			spcr->interface_type);
		return -EINVAL;
	}
	if (gas->space_id == ACPI_ADR_SPACE_SYSTEM_IO) {
		out->iotype = UPIO_PORT;
		if (!gas->address || gas->address > 0xfff8)
			goto bad;
	} else {
		/* A 32-bit access width (or register width) means 4-byte spacing. */
		out->iotype = gas->access_width == 3 || gas->bit_width == 32 ?
			      UPIO_MEM32 : UPIO_MEM;
		if (!gas->address || gas->address >= REMAP_LIMIT)
			goto bad;
	}
	out->addr = gas->address;
	out->baud = spcr->baud;
	return 0;
bad:
	pr_warn("SPCR: UART address 0x%llx is not usable; not used as the console\n",
		(unsigned long long)gas->address);
	return -EINVAL;
}

void serial_console_describe(const struct serial_console_spec *spec, char *buf,
			     size_t size)
{
	static const char *const types[] = {
		[UPIO_PORT] = "io", [UPIO_MEM] = "mmio", [UPIO_MEM32] = "mmio32",
	};
	char baud[24] = "firmware's speed";

	if (spec->baud)
		snprintf(baud, sizeof(baud), "%u baud", spec->baud);
	snprintf(buf, size, "%s 0x%llx, %s", types[spec->iotype],
		 (unsigned long long)spec->addr, baud);
}

/* ttyS<n> for the PC's standard ports, uart0 for any other UART. */
static void serial_console_name(const struct serial_console_spec *spec, char *buf,
				size_t size)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(ttyS_ports); i++) {
		if (spec->iotype == UPIO_PORT && spec->addr == ttyS_ports[i]) {
			snprintf(buf, size, "ttyS%u", i);
			return;
		}
	}
	snprintf(buf, size, "uart0");
}

/* ------------------------------------------------------------ console= */

/*
 * console=<name>[<index>][,<options>], as many times as wanted; checked
 * here so that a typo is a command-line error, used by console_init().
 */
static int console_setup(const char *val, const struct kernel_param *kp)
{
	struct console_cmdline c = { .index = 0 };
	struct serial_console_spec spec;
	const char *comma = strchr(val, ',');
	size_t head = comma ? (size_t)(comma - val) : strlen(val);
	size_t namelen = 0;

	if (!head || head >= sizeof(c.name) || (comma && strlen(comma + 1) >= sizeof(c.options))) {
		pr_err(CON_ERR "'%s' is not a console\n", val);
		goto bad;
	}
	memcpy(c.name, val, head);
	if (comma)
		strcpy(c.options, comma + 1);
	if (!is_uart_name(c.name)) {
		/* Split "ttyS1" into name and index. */
		while (namelen < head && (c.name[namelen] < '0' || c.name[namelen] > '9'))
			namelen++;
		if (namelen < head) {
			char *end;

			c.index = strtol(c.name + namelen, &end, 10);
			if (*end) {
				pr_err(CON_ERR "'%s' is not a console name\n", c.name);
				goto bad;
			}
			c.name[namelen] = '\0';
		} else if (!strcmp(c.name, "ttyS") || !strcmp(c.name, "tty")) {
			pr_err(CON_ERR "'%s' needs a number (ttyS0, tty0)\n", c.name);
			goto bad;
		}
	}
	if (is_fb_name(c.name)) {
		if (c.index != 0 || c.options[0]) {
			pr_err(CON_ERR "'%s': the framebuffer console is fb (or tty0), without options\n",
			       val);
			goto bad;
		}
	} else if (serial_console_parse(c.name, c.index, c.options, &spec)) {
		goto bad;
	}
	if (nr_console_cmdline == MAX_CMDLINECONSOLES) {
		pr_err(CON_ERR "more than %d console= given; '%s' ignored\n",
		       MAX_CMDLINECONSOLES, val);
		return -EINVAL;
	}
	console_cmdline[nr_console_cmdline++] = c;
	return 0;
bad:
	print_forms();
	return -EINVAL;
}

static const struct kernel_param_ops console_param_ops = {
	.set = console_setup,
	.type = "a console",
};
core_param_cb("console", &console_param_ops, NULL,
	      "console: ttyS<n>[,baud], uart[8250],io|mmio|mmio32,<addr>[,baud], fb (may repeat)");

/* ------------------------------------------------------------ the choice */

static void cmdline_text(const struct console_cmdline *c, char *buf, size_t size)
{
	if (is_uart_name(c->name))
		snprintf(buf, size, "console=%s,%s", c->name, c->options);
	else
		snprintf(buf, size, "console=%s%d%s%s", c->name, c->index,
			 c->options[0] ? "," : "", c->options);
}

void console_choose(const struct console_cmdline *cmd, int n,
		    const struct acpi_spcr_info *spcr, bool have_fb,
		    struct console_choice *out)
{
	int last_serial = -1, serials = 0;
	bool want_fb = false;

	memset(out, 0, sizeof(*out));
	for (int i = 0; i < n; i++) {
		if (is_fb_name(cmd[i].name)) {
			want_fb = true;
		} else {
			last_serial = i;
			serials++;
		}
	}
	if (!n) {
		/* Nothing asked: both, the firmware's UART if it names one. */
		out->serial = true;
		out->fb = have_fb;
		if (spcr && !parse_spcr(spcr, &out->spec)) {
			snprintf(out->why, sizeof(out->why), "ACPI SPCR");
			return;
		}
		out->spec = (struct serial_console_spec){ UPIO_PORT, 0x3f8, TTYS_DEFAULT_BAUD };
		snprintf(out->why, sizeof(out->why), "default");
		return;
	}
	if (serials > 1)
		pr_warn("console: one serial console at a time; the last console= is used\n");
	if (last_serial >= 0) {
		out->serial = true;
		out->from_cmdline = true;
		serial_console_parse(cmd[last_serial].name, cmd[last_serial].index,
				     cmd[last_serial].options, &out->spec);
		cmdline_text(&cmd[last_serial], out->why, sizeof(out->why));
	}
	if (want_fb && !have_fb)
		pr_warn("console: console=fb but the boot loader gave no framebuffer\n");
	out->fb = want_fb && have_fb;
	out->fb_primary = out->fb && is_fb_name(cmd[n - 1].name);
	if (!out->serial && !out->fb) {
		/* Never leave the machine mute. */
		out->serial = true;
		out->spec = (struct serial_console_spec){ UPIO_PORT, 0x3f8, TTYS_DEFAULT_BAUD };
		snprintf(out->why, sizeof(out->why), "no framebuffer for console=fb");
	}
}

static bool same_uart(const struct serial_console_spec *spec, const struct uart_8250_port *up)
{
	if (spec->iotype != up->iotype)
		return false;
	return spec->iotype == UPIO_PORT ? spec->addr == up->iobase : spec->addr == up->mapbase;
}

static unsigned int serial_console_start(const struct console_choice *ch)
{
	struct uart_8250_port up;
	struct console *con = &serial8250_console;
	char desc[64], name[sizeof(con->name)];
	int err;

	serial_console_describe(&ch->spec, desc, sizeof(desc));
	serial_console_name(&ch->spec, name, sizeof(name));
	if (same_uart(&ch->spec, &console_port) && console_port.present) {
		if (ch->spec.baud && ch->spec.baud != console_port.baud) {
			u64 tx = console_port.tx_bytes;

			console_flush();
			serial8250_port_init(&console_port, ch->spec.iotype, ch->spec.addr,
					     ch->spec.baud);
			console_port.tx_bytes = tx;
		}
		pr_info("printk: console [%s] %s (%s)%s\n", con->name, desc, ch->why,
			ch->fb_primary ? "" : ", primary");
		return 0;
	}
	err = serial8250_port_init(&up, ch->spec.iotype, ch->spec.addr, ch->spec.baud);
	if (err) {
		if (ch->from_cmdline) {
			pr_err(CON_ERR "no 16550 answers at %s (%s); staying on %s\n", desc,
			       ch->why, con->name);
			return 1;
		}
		pr_warn("console: no 16550 answers at %s (%s); staying on %s\n", desc,
			ch->why, con->name);
		return 0;
	}
	pr_info("printk: console [%s] %s (%s)%s: the log so far is replayed there\n",
		name, desc, ch->why, ch->fb_primary ? "" : ", primary");
	pr_info("printk: bootconsole [%s] disabled\n", con->name);
	unregister_console(con);
	up.tx_bytes = console_port.tx_bytes;
	console_port = up;
	strcpy(con->name, name);
	con->flags |= CON_PRINTBUFFER;
	register_console(con);
	con->flags &= ~CON_PRINTBUFFER;
	return 0;
}

unsigned int console_init(void)
{
	struct console_choice ch;
	unsigned int errors = 0;
	bool fb_up = false;

	console_choose(console_cmdline, nr_console_cmdline, acpi_get_spcr_info(),
		       boot_info.fb.addr != 0, &ch);
	if (ch.serial)
		errors += serial_console_start(&ch);
	if (ch.fb_primary)
		serial8250_console.flags &= ~CON_CONSDEV;
	if (ch.fb)
		fb_up = !fbcon_init(ch.fb_primary);
	if (!ch.serial && fb_up) {
		pr_info("printk: console [%s] disabled (console= names only the framebuffer)\n",
			serial8250_console.name);
		unregister_console(&serial8250_console);
	}
	return errors;
}
