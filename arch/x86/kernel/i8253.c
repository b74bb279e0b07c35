// SPDX-License-Identifier: GPL-2.0
/*
 * The 8253/8254 PIT, channel 0: irqlab's legacy device interrupt (IRQ 0,
 * routed through the IOAPIC, GSI 2 on PCs).
 */
#include <linux/kernel.h>
#include <asm/i8253.h>
#include <asm/io.h>

void pit_oneshot(unsigned int ticks)
{
	if (ticks > 0xffff)
		ticks = 0xffff;
	outb(0x30, 0x43);		/* channel 0, lobyte/hibyte, mode 0 */
	outb(ticks & 0xff, 0x40);
	outb(ticks >> 8, 0x40);
}

void pit_stop(void)
{
	outb(0x30, 0x43);		/* mode 0 with no count loaded: idle */
}
