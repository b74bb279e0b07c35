/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_EFI_HANDOFF_H
#define _ASM_X86_EFI_HANDOFF_H
/*
 * What irqlab's native UEFI loader (arch/x86/efi) hands the kernel.
 *
 * The loader leaves long mode and enters the kernel at its 32-bit EFI
 * entry (named by an ELF note, below) exactly as a multiboot2 loader
 * would: protected mode, paging off, %eax = EFI_HANDOFF_MAGIC and
 * %ebx = physical address of struct efi_handoff.  That way head.S keeps
 * one path into long mode for every loader.
 *
 * The block and everything it points to sit in one EfiLoaderData
 * allocation below 4 GiB ([data_start, data_end)), reached through
 * head.S's early map of the low 4 GiB; the kernel reserves the range.
 * The memory map is passed raw: the kernel converts UEFI memory types,
 * so the loader stays a loader and the policy stays in one place.
 *
 * Shared by the kernel and the loader: u8..u64 must be defined first
 * (the loader maps them to GNU-EFI's UINT8..UINT64).
 */

/* %eax at the 32-bit entry, and the block's first word. */
#define EFI_HANDOFF_MAGIC	0x45464931	/* "EFI1" */
#define EFI_HANDOFF_VERSION	1

/* ELF note naming the 32-bit EFI entry: owner "irqlab", 4-byte physical address. */
#define IRQLAB_ELFNOTE_NAME		"irqlab"
#define IRQLAB_ELFNOTE_EFI_ENTRY	1

#ifndef __ASSEMBLY__
#ifdef __KERNEL__
#include <linux/types.h>
#endif

struct efi_handoff {
	u32 magic;		/* EFI_HANDOFF_MAGIC */
	u32 version;		/* EFI_HANDOFF_VERSION */
	u32 size;		/* sizeof(struct efi_handoff) as the loader saw it */
	u32 mmap_desc_size;	/* UEFI's stride: may exceed the descriptor we know */
	u32 mmap_desc_version;
	u32 mmap_nr;
	u64 mmap;		/* physical: mmap_nr raw EFI_MEMORY_DESCRIPTORs */
	u64 cmdline;		/* physical: NUL-terminated ASCII */
	u64 rsdp;		/* physical, 0: the firmware had no ACPI table */
	u64 trampoline;		/* physical page below 1 MiB for the AP trampoline, 0: none */
	u64 data_start, data_end;	/* physical: this block and what it points to */
	u64 fb_addr;		/* GOP framebuffer, 0: none (or blit-only) */
	u32 fb_pitch, fb_width, fb_height;
	u8 fb_bpp, fb_type;	/* fb_type as multiboot2's: 1 = direct RGB */
	/* Channel bit positions and widths within a pixel, as multiboot2's. */
	u8 fb_red_pos, fb_red_size, fb_green_pos, fb_green_size;
	u8 fb_blue_pos, fb_blue_size;
	char loader[64];	/* NUL-terminated, e.g. "irqlab-efi 0.1 (EDK II)" */
};

/* The part of UEFI's EFI_MEMORY_DESCRIPTOR the kernel reads (UEFI 2.x, 7.2). */
struct efi_mmap_desc {
	u32 type;
	u32 pad;
	u64 phys_addr;
	u64 virt_addr;
	u64 num_pages;		/* 4 KiB pages */
	u64 attribute;
};
#endif

#endif /* _ASM_X86_EFI_HANDOFF_H */
