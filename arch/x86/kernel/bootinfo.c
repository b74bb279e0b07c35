// SPDX-License-Identifier: GPL-2.0
/*
 * Turn each loader's hand-over data into struct boot_info.  Called before
 * anything else looks at memory, through the early direct map of the low
 * 4 GiB that head.S built; PVH, multiboot2 and our UEFI loader all leave
 * their data below 4 GiB.
 */
#include <linux/kernel.h>
#include <asm/bootparam.h>
#include <asm/efi_handoff.h>
#include <asm/page.h>

struct boot_info boot_info;

const char *boot_protocol_name(int proto)
{
	switch (proto) {
	case BOOT_PROTO_PVH: return "pvh";
	case BOOT_PROTO_MB2: return "multiboot2";
	case BOOT_PROTO_EFI: return "efi";
	default: return "unknown";
	}
}

static void bi_add_mmap(struct boot_info *bi, u64 addr, u64 size, u32 type)
{
	if (bi->nr_mmap >= BOOT_INFO_MAX_MMAP) {
		/* Counted and reported later, once printk reaches the console. */
		bi->nr_mmap++;
		return;
	}
	bi->mmap[bi->nr_mmap++] = (struct boot_mmap_entry){ addr, size, type };
}

static void bi_copy_string(char *dst, size_t size, unsigned long pa)
{
	if (!pa) {
		dst[0] = '\0';
		return;
	}
	strncpy(dst, __va(pa), size - 1);
	dst[size - 1] = '\0';
}

/* PVH: struct hvm_start_info from Xen's public headers (arch-x86/hvm/start_info.h). */
#define HVM_START_MAGIC	0x336ec578

struct hvm_start_info {
	u32 magic;
	u32 version;
	u32 flags;
	u32 nr_modules;
	u64 modlist_paddr;
	u64 cmdline_paddr;
	u64 rsdp_paddr;
	u64 memmap_paddr;	/* version 1 */
	u32 memmap_entries;
	u32 reserved;
};

struct hvm_memmap_table_entry {
	u64 addr;
	u64 size;
	u32 type;
	u32 reserved;
};

void parse_pvh_start_info(struct boot_info *bi, unsigned long pa)
{
	const struct hvm_start_info *si = __va(pa);

	bi->protocol = BOOT_PROTO_PVH;
	strcpy(bi->loader, "PVH");
	if (si->magic != HVM_START_MAGIC) {
		strcpy(bi->loader, "PVH (bad start_info magic)");
		return;
	}
	bi_copy_string(bi->cmdline, sizeof(bi->cmdline), si->cmdline_paddr);
	bi->rsdp = si->rsdp_paddr;
	if (si->version >= 1 && si->memmap_paddr) {
		const struct hvm_memmap_table_entry *e = __va(si->memmap_paddr);

		for (u32 i = 0; i < si->memmap_entries; i++)
			bi_add_mmap(bi, e[i].addr, e[i].size, e[i].type);
	}
	bi->loader_data_start = pa;
	bi->loader_data_end = pa + sizeof(*si);
}

/* Multiboot2 information tags (multiboot2 specification, section 3.6). */
#define MB2_TAG_END		0
#define MB2_TAG_CMDLINE		1
#define MB2_TAG_LOADER_NAME	2
#define MB2_TAG_MMAP		6
#define MB2_TAG_FRAMEBUFFER	8
#define MB2_TAG_ACPI_OLD	14
#define MB2_TAG_ACPI_NEW	15

struct mb2_tag {
	u32 type;
	u32 size;
};

struct mb2_mmap_entry {
	u64 addr;
	u64 len;
	u32 type;
	u32 zero;
};

struct mb2_tag_framebuffer {
	struct mb2_tag tag;
	u64 addr;
	u32 pitch, width, height;
	u8 bpp, type;
	u16 reserved;
	/* type 1 (RGB) only: position and size of each channel */
	u8 red_pos, red_size, green_pos, green_size, blue_pos, blue_size;
};

void parse_multiboot2_info(struct boot_info *bi, unsigned long pa)
{
	u32 total = *(u32 *)__va(pa);
	unsigned long p = pa + 8, end = pa + total;

	bi->protocol = BOOT_PROTO_MB2;
	strcpy(bi->loader, "multiboot2");
	bi->loader_data_start = pa;
	bi->loader_data_end = end;
	while (p + sizeof(struct mb2_tag) <= end) {
		const struct mb2_tag *t = __va(p);

		if (t->type == MB2_TAG_END || t->size < sizeof(*t))
			break;
		switch (t->type) {
		case MB2_TAG_CMDLINE:
			bi_copy_string(bi->cmdline, sizeof(bi->cmdline), p + 8);
			break;
		case MB2_TAG_LOADER_NAME:
			bi_copy_string(bi->loader, sizeof(bi->loader), p + 8);
			break;
		case MB2_TAG_MMAP: {
			u32 esz = ((const u32 *)t)[2];
			unsigned long e = p + 16;

			for (; esz && e + esz <= p + t->size; e += esz) {
				const struct mb2_mmap_entry *m = __va(e);

				bi_add_mmap(bi, m->addr, m->len, m->type);
			}
			break;
		}
		case MB2_TAG_FRAMEBUFFER: {
			const struct mb2_tag_framebuffer *fb = (const void *)t;

			bi->fb = (struct boot_framebuffer){
				fb->addr, fb->pitch, fb->width, fb->height,
				fb->bpp, fb->type };
			if (fb->type == BOOT_FB_TYPE_RGB &&
			    t->size > offsetof(struct mb2_tag_framebuffer, blue_size)) {
				bi->fb.red_pos = fb->red_pos;
				bi->fb.red_size = fb->red_size;
				bi->fb.green_pos = fb->green_pos;
				bi->fb.green_size = fb->green_size;
				bi->fb.blue_pos = fb->blue_pos;
				bi->fb.blue_size = fb->blue_size;
			}
			break;
		}
		case MB2_TAG_ACPI_OLD:
		case MB2_TAG_ACPI_NEW:
			/* A copy of the RSDP: point at it (reserved with the info). */
			if (t->type == MB2_TAG_ACPI_NEW || !bi->rsdp)
				bi->rsdp = p + 8;
			break;
		}
		p += ALIGN(t->size, 8);
	}
}

/*
 * irqlab's UEFI loader (asm/efi_handoff.h).  UEFI memory types, UEFI 2.x
 * section 7.2, as the E820-style types the rest of the kernel knows.
 * After ExitBootServices() the loader's and the boot services' memory is
 * free RAM like conventional memory (what we still need of it, the
 * handoff block, is reserved through loader_data_*); runtime services
 * memory stays the firmware's, ACPI tables stay reclaimable, MMIO and
 * anything unknown is reserved.
 */
enum {
	EFI_RESERVED_TYPE, EFI_LOADER_CODE, EFI_LOADER_DATA,
	EFI_BOOT_SERVICES_CODE, EFI_BOOT_SERVICES_DATA,
	EFI_RUNTIME_SERVICES_CODE, EFI_RUNTIME_SERVICES_DATA,
	EFI_CONVENTIONAL_MEMORY, EFI_UNUSABLE_MEMORY,
	EFI_ACPI_RECLAIM_MEMORY, EFI_ACPI_MEMORY_NVS,
	EFI_MEMORY_MAPPED_IO, EFI_MEMORY_MAPPED_IO_PORT_SPACE, EFI_PAL_CODE,
	EFI_PERSISTENT_MEMORY,
};

#define EFI_MEMORY_WB	0x8ULL

u32 efi_mem_type_to_boot(u32 type, u64 attribute)
{
	switch (type) {
	case EFI_LOADER_CODE:
	case EFI_LOADER_DATA:
	case EFI_BOOT_SERVICES_CODE:
	case EFI_BOOT_SERVICES_DATA:
	case EFI_CONVENTIONAL_MEMORY:
		/* RAM we could not map write-back is no RAM for the allocator. */
		return attribute & EFI_MEMORY_WB ? BOOT_MEM_RAM : BOOT_MEM_RESERVED;
	case EFI_UNUSABLE_MEMORY:
		return BOOT_MEM_UNUSABLE;
	case EFI_ACPI_RECLAIM_MEMORY:
		return BOOT_MEM_ACPI;
	case EFI_ACPI_MEMORY_NVS:
		return BOOT_MEM_NVS;
	default:	/* runtime services, MMIO, PAL code, persistent, unaccepted... */
		return BOOT_MEM_RESERVED;
	}
}

void parse_efi_handoff(struct boot_info *bi, unsigned long pa)
{
	const struct efi_handoff *h = __va(pa);

	bi->protocol = BOOT_PROTO_EFI;
	strcpy(bi->loader, "irqlab-efi");
	if (h->magic != EFI_HANDOFF_MAGIC || h->version != EFI_HANDOFF_VERSION ||
	    h->size < sizeof(*h)) {
		/* setup_memory() panics on the empty map with this name in the log. */
		strcpy(bi->loader, "irqlab-efi (bad handoff block)");
		return;
	}
	bi_copy_string(bi->loader, sizeof(bi->loader) < sizeof(h->loader) ?
		       sizeof(bi->loader) : sizeof(h->loader), pa + offsetof(typeof(*h), loader));
	bi_copy_string(bi->cmdline, sizeof(bi->cmdline), h->cmdline);
	bi->rsdp = h->rsdp;
	bi->trampoline_pa = h->trampoline;
	bi->loader_data_start = h->data_start;
	bi->loader_data_end = h->data_end;
	if (h->fb_addr)
		bi->fb = (struct boot_framebuffer){
			h->fb_addr, h->fb_pitch, h->fb_width, h->fb_height,
			h->fb_bpp, h->fb_type,
			h->fb_red_pos, h->fb_red_size, h->fb_green_pos,
			h->fb_green_size, h->fb_blue_pos, h->fb_blue_size };
	/*
	 * UEFI maps are long (OVMF: ~100 descriptors) and split by type the
	 * kernel does not care about: merge touching ranges that convert to
	 * the same type, so the table fits BOOT_INFO_MAX_MMAP.
	 */
	for (u32 i = 0; i < h->mmap_nr; i++) {
		const struct efi_mmap_desc *d = __va(h->mmap + (u64)i * h->mmap_desc_size);
		u32 type = efi_mem_type_to_boot(d->type, d->attribute);
		u64 size = d->num_pages << 12;
		struct boot_mmap_entry *last = bi->nr_mmap &&
			bi->nr_mmap <= BOOT_INFO_MAX_MMAP ? &bi->mmap[bi->nr_mmap - 1] : NULL;

		if (!size)
			continue;
		if (last && last->type == type && last->addr + last->size == d->phys_addr)
			last->size += size;
		else
			bi_add_mmap(bi, d->phys_addr, size, type);
	}
}
