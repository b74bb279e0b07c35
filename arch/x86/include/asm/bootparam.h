/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_BOOTPARAM_H
#define _ASM_X86_BOOTPARAM_H

#define BOOT_PROTO_PVH	1
#define BOOT_PROTO_MB2	2
#define BOOT_PROTO_EFI	3

#define BOOT_STACK_SIZE	(16 * 1024)

#ifndef __ASSEMBLY__
#include <linux/types.h>

#define BOOT_INFO_MAX_MMAP	128
#define BOOT_INFO_CMDLINE_MAX	2048

/* E820-style memory types, as every loader reports them after conversion. */
enum {
	BOOT_MEM_RAM = 1,
	BOOT_MEM_RESERVED = 2,
	BOOT_MEM_ACPI = 3,
	BOOT_MEM_NVS = 4,
	BOOT_MEM_UNUSABLE = 5,
};

struct boot_mmap_entry {
	u64 addr;
	u64 size;
	u32 type;
};

#define BOOT_FB_TYPE_INDEXED	0	/* palette: not used by the fb console */
#define BOOT_FB_TYPE_RGB	1
#define BOOT_FB_TYPE_EGA_TEXT	2	/* VGA text mode: no pixels to draw */

/*
 * A linear framebuffer as GOP or multiboot2 describe it.  The colour
 * fields give each channel's bit position and width in a pixel; all zero
 * means the loader did not say, and the usual layout for @bpp is assumed
 * (x8r8g8b8 at 32, r8g8b8 at 24, r5g6b5 at 16).
 */
struct boot_framebuffer {
	u64 addr;
	u32 pitch, width, height;
	u8 bpp, type;
	u8 red_pos, red_size, green_pos, green_size, blue_pos, blue_size;
};

/*
 * Everything the kernel needs from whichever loader started it.  Filled
 * once, early; nothing after setup_boot_info() knows how we were booted.
 */
struct boot_info {
	int protocol;			/* BOOT_PROTO_* */
	char loader[64];
	char cmdline[BOOT_INFO_CMDLINE_MAX];
	u64 rsdp;			/* physical, 0 if the loader gave none */
	u32 nr_mmap;
	struct boot_mmap_entry mmap[BOOT_INFO_MAX_MMAP];
	struct boot_framebuffer fb;	/* fb.addr == 0: none */
	u64 loader_data_start, loader_data_end;	/* physical, to reserve */
	/*
	 * A page below 1 MiB the loader set aside for the AP trampoline;
	 * 0: the kernel picks one from the memory map (smpboot.c).
	 */
	u64 trampoline_pa;
};

extern struct boot_info boot_info;

const char *boot_protocol_name(int proto);
void parse_pvh_start_info(struct boot_info *bi, unsigned long pa);
void parse_multiboot2_info(struct boot_info *bi, unsigned long pa);
void parse_efi_handoff(struct boot_info *bi, unsigned long pa);
u32 efi_mem_type_to_boot(u32 type, u64 attribute);
#endif

#endif /* _ASM_X86_BOOTPARAM_H */
