/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_IO_H
#define _ASM_X86_IO_H

#include <linux/types.h>

static inline void outb(u8 v, u16 port)
{
	asm volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline u8 inb(u16 port)
{
	u8 v;

	asm volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline void outw(u16 v, u16 port)
{
	asm volatile("outw %0, %1" : : "a"(v), "Nd"(port));
}

static inline void outl(u32 v, u16 port)
{
	asm volatile("outl %0, %1" : : "a"(v), "Nd"(port));
}

static inline u32 inl(u16 port)
{
	u32 v;

	asm volatile("inl %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

/* A write to an unused port: roughly 1 us on real ISA hardware. */
static inline void io_delay(void)
{
	outb(0, 0x80);
}

static inline u8 readb(const volatile void *addr)
{
	return *(const volatile u8 *)addr;
}

static inline void writeb(u8 v, volatile void *addr)
{
	*(volatile u8 *)addr = v;
}

static inline u32 readl(const volatile void *addr)
{
	return *(const volatile u32 *)addr;
}

static inline void writel(u32 v, volatile void *addr)
{
	*(volatile u32 *)addr = v;
}

#endif /* _ASM_X86_IO_H */
