/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_CONSOLE_H
#define _LINUX_CONSOLE_H

#include <linux/types.h>
#include <linux/serial_8250.h>

/*
 * A console printk() writes to: the 16550 (ttyS) and the framebuffer text
 * console (fb0).  Flags as Linux's: CON_PRINTBUFFER asks register_console()
 * to replay the log so far, CON_CONSDEV marks the primary console (the last
 * console= on the command line, as in Linux).
 */
#define CON_PRINTBUFFER	(1)
#define CON_CONSDEV	(2)
#define CON_ENABLED	(4)

struct console {
	char name[16];
	void (*write)(struct console *co, const char *s, unsigned int n);
	short flags;
	bool at_line_start;	/* for the [time] prefix */
	void *data;
	struct console *next;
};

/* Always registered: printk() reaches the UART from the first instruction. */
extern struct console serial8250_console;

void register_console(struct console *co);
int unregister_console(struct console *co);
void console_replay(struct console *co);

/* console= on the command line, as the kernel parsed it (console_setup()). */
#define MAX_CMDLINECONSOLES	8

struct console_cmdline {
	char name[16];		/* "ttyS", "uart", "uart8250", "fb", "tty" */
	int index;		/* ttyS<index>, fb<index> */
	char options[64];	/* what followed the name: "115200", "io,0x2f8,115200" */
};

extern struct console_cmdline console_cmdline[MAX_CMDLINECONSOLES];
extern int nr_console_cmdline;

/*
 * What console_choose() decided: the serial console (console=, else ACPI
 * SPCR, else ttyS0) and whether the framebuffer console runs beside it.
 */
struct console_choice {
	bool serial;
	struct serial_console_spec spec;
	bool from_cmdline;		/* a bad console= is a command-line error */
	char why[96];			/* "console=ttyS1,115200", "ACPI SPCR", "default" */
	bool fb;
	bool fb_primary;
};

void console_choose(const struct console_cmdline *cmd, int n,
		    const struct acpi_spcr_info *spcr, bool have_fb,
		    struct console_choice *out);

/* Start the chosen consoles (drivers/tty/console_setup.c); returns errors made. */
unsigned int console_init(void);

#endif /* _LINUX_CONSOLE_H */
