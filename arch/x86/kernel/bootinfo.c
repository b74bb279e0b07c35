// SPDX-License-Identifier: GPL-2.0
/*
 * Turn each loader's hand-over data into struct boot_info.  Called before
 * anything else looks at memory, through the early direct map of the low
 * 4 GiB that head.S built; both PVH and multiboot2 data live below 4 GiB.
 */
#include <linux/kernel.h>
#include <asm/bootparam.h>
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
