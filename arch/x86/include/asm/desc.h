/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_DESC_H
#define _ASM_X86_DESC_H

#include <linux/types.h>
#include <asm/segment.h>

struct gate_desc {
	u16 offset_low;
	u16 segment;
	u8 ist;
	u8 type_attr;
	u16 offset_middle;
	u32 offset_high;
	u32 reserved;
} __attribute__((packed));

struct desc_ptr {
	u16 size;
	u64 address;
} __attribute__((packed));

struct tss_struct {
	u32 reserved0;
	u64 sp[3];
	u64 reserved1;
	u64 ist[7];
	u64 reserved2;
	u16 reserved3;
	u16 io_bitmap_base;
} __attribute__((packed));

void cpu_init_early(void);
void cpu_init(int cpu);

#endif
