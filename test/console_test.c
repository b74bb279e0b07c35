// SPDX-License-Identifier: GPL-2.0
/*
 * Console choice: console= parsing (good forms and the messages for bad
 * ones), SPCR's UART as a console, the order command line > SPCR > ttyS0,
 * the 16550 accessors over fake registers in RAM (port I/O and MMIO UARTs
 * share them), and which console the running kernel chose.
 */
#include <linux/ktest.h>
#include <linux/acpi.h>
#include <linux/console.h>
#include <linux/errno.h>
#include <linux/moduleparam.h>
#include <linux/serial_8250.h>
#include <asm/bootparam.h>

static struct serial_console_spec spec;

static void ttyS_forms(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, serial_console_parse("ttyS", 1, "", &spec), 0);
	KTEST_EXPECT_EQ(t, spec.iotype, UPIO_PORT);
	KTEST_EXPECT_EQ(t, spec.addr, 0x2f8);
	KTEST_EXPECT_EQ(t, spec.baud, 115200);
	KTEST_ASSERT_EQ(t, serial_console_parse("ttyS", 3, "9600", &spec), 0);
	KTEST_EXPECT_EQ(t, spec.addr, 0x2e8);
	KTEST_EXPECT_EQ(t, spec.baud, 9600);
	KTEST_ASSERT_EQ(t, serial_console_parse("ttyS", 2, "57600n8", &spec), 0);
	KTEST_EXPECT_EQ(t, spec.addr, 0x3e8);
	KTEST_EXPECT_EQ(t, spec.baud, 57600);
	KTEST_ASSERT_EQ(t, serial_console_parse("ttyS", 0, "115200", &spec), 0);
	KTEST_EXPECT_EQ(t, spec.addr, 0x3f8);
}

static void uart_forms(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, serial_console_parse("uart", 0, "io,0x2f8,115200", &spec), 0);
	KTEST_EXPECT_EQ(t, spec.iotype, UPIO_PORT);
	KTEST_EXPECT_EQ(t, spec.addr, 0x2f8);
	KTEST_EXPECT_EQ(t, spec.baud, 115200);
	KTEST_ASSERT_EQ(t, serial_console_parse("uart8250", 0, "mmio32,0xfe030000,115200",
						&spec), 0);
	KTEST_EXPECT_EQ(t, spec.iotype, UPIO_MEM32);
	KTEST_EXPECT_EQ(t, spec.addr, 0xfe030000);
	/* Without a baud rate the UART keeps the speed firmware set, as earlycon does. */
	KTEST_ASSERT_EQ(t, serial_console_parse("uart", 0, "mmio,0x4fedc9000", &spec), 0);
	KTEST_EXPECT_EQ(t, spec.iotype, UPIO_MEM);
	KTEST_EXPECT_EQ(t, spec.addr, 0x4fedc9000ULL);
	KTEST_EXPECT_EQ(t, spec.baud, 0);
	/* Linux's bare-address form is 8-bit MMIO. */
	KTEST_ASSERT_EQ(t, serial_console_parse("uart", 0, "0xfedc9000,57600", &spec), 0);
	KTEST_EXPECT_EQ(t, spec.iotype, UPIO_MEM);
	KTEST_EXPECT_EQ(t, spec.baud, 57600);
}

static void bad_forms(struct ktest *t)
{
	static const struct { const char *name; int index; const char *opt, *msg; } bad[] = {
		{ "ttyS", 4, "", "ttyS4 has no standard port" },
		{ "ttyS", 0, "12345", "'12345' is not a baud rate" },
		{ "ttyS", 0, "0", "'0' is not a baud rate" },
		{ "ttyS", 0, "115200e7", "only 8 data bits without parity" },
		{ "uart", 0, "io,0x10000,115200", "'0x10000' is not an I/O port" },
		{ "uart", 0, "mmio32,0xfe030001", "4-byte aligned for mmio32" },
		{ "uart", 0, "mmio,0", "'0' is not an MMIO address" },
		{ "uart", 0, "mmio,0x20000000000", "below 1 TiB" },
		{ "uart", 0, "mmio32,zz", "'zz' is not an MMIO address" },
		{ "uart", 0, "mmio16,0x1000", "'mmio16' is not a UART access type" },
		{ "uart", 0, "io", "uart,io needs an address" },
		{ "uart", 0, "io,0x2f8,115200,7", "nothing may follow the baud rate" },
		{ "ttyUSB", 0, "", "'ttyUSB' is not a console name" },
	};

	for (unsigned int i = 0; i < ARRAY_SIZE(bad); i++) {
		u64 mark = ktest_log_mark();

		KTEST_EXPECT_EQ(t, serial_console_parse(bad[i].name, bad[i].index, bad[i].opt,
							&spec), -EINVAL);
		KTEST_EXPECT_LOG(t, mark, bad[i].msg);
	}
}

/* Through the real console= parameter; the list is put back afterwards. */
static int console_param(const char *val)
{
	const struct kernel_param *kp =
		find_kernel_param(__start___param, __stop___param - __start___param, "console");

	return kp ? kp->ops->set(val, kp) : -ENOENT;
}

static void cmdline_param(struct ktest *t)
{
	struct console_cmdline saved[MAX_CMDLINECONSOLES];
	int nr = nr_console_cmdline;
	u64 mark = ktest_log_mark();

	memcpy(saved, console_cmdline, sizeof(saved));
	nr_console_cmdline = 0;
	KTEST_EXPECT_EQ(t, console_param("ttyS1,115200"), 0);
	KTEST_EXPECT_EQ(t, console_param("uart8250,mmio32,0xfe030000,115200"), 0);
	KTEST_EXPECT_EQ(t, console_param("tty0"), 0);
	KTEST_EXPECT_EQ(t, console_param("fb"), 0);
	KTEST_EXPECT_EQ(t, nr_console_cmdline, 4);
	KTEST_EXPECT_STREQ(t, console_cmdline[0].name, "ttyS");
	KTEST_EXPECT_EQ(t, console_cmdline[0].index, 1);
	KTEST_EXPECT_STREQ(t, console_cmdline[0].options, "115200");
	KTEST_EXPECT_STREQ(t, console_cmdline[1].name, "uart8250");
	KTEST_EXPECT_STREQ(t, console_cmdline[1].options, "mmio32,0xfe030000,115200");
	KTEST_EXPECT_STREQ(t, console_cmdline[2].name, "tty");

	KTEST_EXPECT_EQ(t, console_param("ttyX0"), -EINVAL);
	KTEST_EXPECT_EQ(t, console_param("ttyS"), -EINVAL);
	KTEST_EXPECT_EQ(t, console_param("fb,1024x768"), -EINVAL);
	KTEST_EXPECT_EQ(t, console_param("ttyS9,115200"), -EINVAL);
	KTEST_EXPECT_EQ(t, console_param(""), -EINVAL);
	KTEST_EXPECT_EQ(t, nr_console_cmdline, 4);	/* bad ones are not kept */
	KTEST_EXPECT_LOG(t, mark, "valid forms: ttyS<0-3>[,<baud>], uart[8250],io,<port>");

	memcpy(console_cmdline, saved, sizeof(saved));
	nr_console_cmdline = nr;
}

static void spcr_info(struct acpi_spcr_info *s, u8 space, u64 addr, u8 access, u32 baud)
{
	memset(s, 0, sizeof(*s));
	s->is_16550 = true;
	s->interface_type = ACPI_DBG2_16550_COMPATIBLE;
	s->serial_port.space_id = space;
	s->serial_port.address = addr;
	s->serial_port.access_width = access;
	s->serial_port.bit_width = 8;
	s->baud = baud;
}

static void spcr_as_console(struct ktest *t)
{
	struct acpi_spcr_info s;

	spcr_info(&s, ACPI_ADR_SPACE_SYSTEM_IO, 0x2f8, 1, 57600);
	KTEST_ASSERT_EQ(t, parse_spcr(&s, &spec), 0);
	KTEST_EXPECT_EQ(t, spec.iotype, UPIO_PORT);
	KTEST_EXPECT_EQ(t, spec.addr, 0x2f8);
	KTEST_EXPECT_EQ(t, spec.baud, 57600);

	/* A BMC's UART: 32-bit registers 4 bytes apart, speed left as is. */
	spcr_info(&s, ACPI_ADR_SPACE_SYSTEM_MEMORY, 0xfe030000, 3, 0);
	KTEST_ASSERT_EQ(t, parse_spcr(&s, &spec), 0);
	KTEST_EXPECT_EQ(t, spec.iotype, UPIO_MEM32);
	KTEST_EXPECT_EQ(t, spec.baud, 0);
	spcr_info(&s, ACPI_ADR_SPACE_SYSTEM_MEMORY, 0xfe030000, 1, 115200);
	s.serial_port.bit_width = 32;
	KTEST_ASSERT_EQ(t, parse_spcr(&s, &spec), 0);
	KTEST_EXPECT_EQ(t, spec.iotype, UPIO_MEM32);
	spcr_info(&s, ACPI_ADR_SPACE_SYSTEM_MEMORY, 0xfedc9000, 1, 115200);
	KTEST_ASSERT_EQ(t, parse_spcr(&s, &spec), 0);
	KTEST_EXPECT_EQ(t, spec.iotype, UPIO_MEM);

	/* Not something the 8250 driver can run. */
	spcr_info(&s, ACPI_ADR_SPACE_SYSTEM_MEMORY, 0x9000000, 3, 115200);
	s.is_16550 = false;
	s.interface_type = 0x03;	/* ARM PL011 */
	KTEST_EXPECT_EQ(t, parse_spcr(&s, &spec), -EINVAL);
}

static struct console_cmdline cmd(const char *name, int index, const char *options)
{
	struct console_cmdline c = { .index = index };

	strcpy(c.name, name);
	strcpy(c.options, options);
	return c;
}

static void choice_order(struct ktest *t)
{
	struct console_cmdline c[3];
	struct console_choice ch;
	struct acpi_spcr_info s;

	/* Nothing on the command line, no SPCR: ttyS0, plus the screen if any. */
	console_choose(NULL, 0, NULL, true, &ch);
	KTEST_EXPECT_TRUE(t, ch.serial && ch.fb && !ch.fb_primary && !ch.from_cmdline);
	KTEST_EXPECT_EQ(t, ch.spec.addr, 0x3f8);
	KTEST_EXPECT_EQ(t, ch.spec.baud, 115200);
	KTEST_EXPECT_STREQ(t, ch.why, "default");

	/* SPCR beats the default... */
	spcr_info(&s, ACPI_ADR_SPACE_SYSTEM_MEMORY, 0xfe030000, 3, 115200);
	console_choose(NULL, 0, &s, false, &ch);
	KTEST_EXPECT_TRUE(t, ch.serial && !ch.fb);
	KTEST_EXPECT_EQ(t, ch.spec.iotype, UPIO_MEM32);
	KTEST_EXPECT_EQ(t, ch.spec.addr, 0xfe030000);
	KTEST_EXPECT_STREQ(t, ch.why, "ACPI SPCR");

	/* ...and console= beats SPCR. */
	c[0] = cmd("ttyS", 1, "115200");
	console_choose(c, 1, &s, true, &ch);
	KTEST_EXPECT_TRUE(t, ch.serial && ch.from_cmdline && !ch.fb);
	KTEST_EXPECT_EQ(t, ch.spec.addr, 0x2f8);
	KTEST_EXPECT_STREQ(t, ch.why, "console=ttyS1,115200");

	/* The last console= is the primary one, as in Linux. */
	c[1] = cmd("fb", 0, "");
	console_choose(c, 2, NULL, true, &ch);
	KTEST_EXPECT_TRUE(t, ch.serial && ch.fb && ch.fb_primary);
	c[0] = cmd("tty", 0, "");
	c[1] = cmd("uart", 0, "io,0x2e8,9600");
	console_choose(c, 2, NULL, true, &ch);
	KTEST_EXPECT_TRUE(t, ch.serial && ch.fb && !ch.fb_primary);
	KTEST_EXPECT_EQ(t, ch.spec.addr, 0x2e8);
	KTEST_EXPECT_EQ(t, ch.spec.baud, 9600);

	/* One serial console: the last of several. */
	c[0] = cmd("ttyS", 0, "");
	c[1] = cmd("ttyS", 2, "");
	console_choose(c, 2, NULL, false, &ch);
	KTEST_EXPECT_EQ(t, ch.spec.addr, 0x3e8);

	/* Only the screen: no serial console... */
	c[0] = cmd("fb", 0, "");
	console_choose(c, 1, NULL, true, &ch);
	KTEST_EXPECT_TRUE(t, !ch.serial && ch.fb && ch.fb_primary);
	/* ...unless there is no screen: never mute. */
	console_choose(c, 1, NULL, false, &ch);
	KTEST_EXPECT_TRUE(t, ch.serial && !ch.fb);
	KTEST_EXPECT_EQ(t, ch.spec.addr, 0x3f8);
}

/* The one accessor pair over "registers" in RAM, with each spacing. */
static void mmio_accessors(struct ktest *t)
{
	static u32 regs32[8];
	static u8 regs8[8];
	struct uart_8250_port up = {
		.iotype = UPIO_MEM32, .regshift = 2, .membase = (u8 *)regs32, .present = true,
	};

	memset(regs32, 0, sizeof(regs32));
	regs32[5] = 0x20;				/* LSR: transmitter empty */
	serial8250_write(&up, "A\n", 2);
	KTEST_EXPECT_EQ(t, regs32[0], '\n');		/* TX, one register per 4 bytes */
	KTEST_EXPECT_EQ(t, up.tx_bytes, 3);		/* A, CR, LF */
	serial_out(&up, 3, 0x83);
	KTEST_EXPECT_EQ(t, regs32[3], 0x83);
	regs32[7] = 0x12345678;
	KTEST_EXPECT_EQ(t, serial_in(&up, 7), 0x12345678);	/* a 32-bit read */

	memset(regs8, 0, sizeof(regs8));
	regs8[5] = 0x20;
	up = (struct uart_8250_port){ .iotype = UPIO_MEM, .membase = regs8, .present = true };
	serial8250_putc(&up, 'Z');
	KTEST_EXPECT_EQ(t, regs8[0], 'Z');
	serial_out(&up, 3, 0x83);
	KTEST_EXPECT_EQ(t, regs8[3], 0x83);
	KTEST_EXPECT_EQ(t, regs8[1] | regs8[2] | regs8[4] | regs8[6] | regs8[7], 0);
}

/* What this boot chose: what the command line and the machine say. */
static void running_console(struct ktest *t)
{
	struct serial_console_spec want = { UPIO_PORT, 0x3f8, 115200 };
	int last_serial = -1;

	for (int i = 0; i < nr_console_cmdline; i++)
		if (strcmp(console_cmdline[i].name, "fb") && strcmp(console_cmdline[i].name, "tty"))
			last_serial = i;
	if (last_serial >= 0)
		serial_console_parse(console_cmdline[last_serial].name,
				     console_cmdline[last_serial].index,
				     console_cmdline[last_serial].options, &want);
	else if (nr_console_cmdline)
		ktest_skip(t, "no serial console= on the command line");
	else if (acpi_get_spcr_info())
		ktest_skip(t, "the firmware names a console in SPCR");
	KTEST_ASSERT_TRUE(t, console_port.present);
	KTEST_EXPECT_EQ(t, console_port.iotype, want.iotype);
	if (want.iotype == UPIO_PORT)
		KTEST_EXPECT_EQ(t, console_port.iobase, want.addr);
	else
		KTEST_EXPECT_EQ(t, console_port.mapbase, want.addr);
	ktest_info(t, "console [%s] at %#llx", serial8250_console.name,
		   (unsigned long long)want.addr);
}

static struct ktest_case console_cases[] = {
	KTEST_CASE(ttyS_forms),
	KTEST_CASE(uart_forms),
	KTEST_CASE(bad_forms),
	KTEST_CASE(cmdline_param),
	KTEST_CASE(spcr_as_console),
	KTEST_CASE(choice_order),
	KTEST_CASE(mmio_accessors),
	KTEST_CASE(running_console),
	{}
};

static struct ktest_suite console_suite = { .name = "console", .cases = console_cases };
ktest_register_suite(console_suite);
