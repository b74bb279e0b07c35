// SPDX-License-Identifier: GPL-2.0
/*
 * ACPI table discovery.  Find the RSDP (the loader's pointer, else the
 * legacy BIOS areas), walk the XSDT or the RSDT, and admit a table only
 * once its length is sane and its checksum is zero, so that no parser ever
 * reads a byte firmware did not vouch for.  parse.c then parses the few
 * tables irqlab uses.
 */
#define pr_fmt(fmt) "ACPI: " fmt

#include <linux/acpi.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <asm/bootparam.h>
#include <asm/page.h>
#include <asm/pgtable.h>
#include "internal.h"

/* Where the ACPI specification says to look for the RSDP on a PC BIOS. */
#define ACPI_EBDA_PTR_LOCATION		0x40e
#define ACPI_EBDA_WINDOW_SIZE		1024
#define ACPI_EBDA_LIMIT			0xa0000
#define ACPI_HI_RSDP_WINDOW_BASE	0xe0000
#define ACPI_HI_RSDP_WINDOW_SIZE	0x20000

struct acpi_table_list acpi_gbl_root_table_list;

u8 acpi_tb_checksum(const void *buffer, u32 length)
{
	const u8 *p = buffer;
	u8 sum = 0;

	while (length--)
		sum += *p++;
	return sum;
}

/* Firmware text for the log: stop at NUL, and no control bytes on the console. */
void acpi_copy_text(char *dst, const char *src, size_t n)
{
	size_t i;

	for (i = 0; i < n && src[i]; i++)
		dst[i] = (src[i] >= 0x20 && src[i] < 0x7f) ? src[i] : '?';
	dst[i] = '\0';
}

/* Messages say MADT and FADT, the names in the specification's prose. */
static const char *acpi_table_name(const char *signature, char *buf)
{
	if (!memcmp(signature, ACPI_SIG_MADT, ACPI_NAMESEG_SIZE))
		return "MADT";
	if (!memcmp(signature, ACPI_SIG_FADT, ACPI_NAMESEG_SIZE))
		return "FADT";
	acpi_copy_text(buf, signature, ACPI_NAMESEG_SIZE);
	return buf;
}

static void acpi_tb_print_table_header(u64 address, const struct acpi_table_header *h)
{
	char sig[5], oem[7], oem_table[9], creator[5];

	acpi_copy_text(sig, h->signature, sizeof(h->signature));
	acpi_copy_text(oem, h->oem_id, sizeof(h->oem_id));
	acpi_copy_text(oem_table, h->oem_table_id, sizeof(h->oem_table_id));
	acpi_copy_text(creator, h->asl_compiler_id, sizeof(h->asl_compiler_id));
	pr_info("%-4s 0x%016llX %06X (v%02u %-6s %-8s %08X %-4s %08X)\n", sig,
		(unsigned long long)address, h->length, h->revision, oem, oem_table,
		h->oem_revision, creator, h->asl_compiler_revision);
}

int acpi_tb_validate_rsdp(const struct acpi_table_rsdp *rsdp)
{
	if (memcmp(rsdp->signature, ACPI_SIG_RSDP, sizeof(rsdp->signature)))
		return -ENODEV;
	if (acpi_tb_checksum(rsdp, ACPI_RSDP_CHECKSUM_LENGTH))
		return -EINVAL;
	return 0;
}

/* The RSDP sits on a 16-byte boundary; a stray signature fails the checksum. */
const u8 *acpi_tb_scan_memory_for_rsdp(const u8 *start, u32 length)
{
	for (u32 off = 0; off + ACPI_RSDP_REV0_SIZE <= length; off += 16)
		if (!acpi_tb_validate_rsdp((const void *)(start + off)))
			return start + off;
	return NULL;
}

/* Legacy BIOS search: the first KiB of the EBDA, then 0xE0000-0xFFFFF. */
u64 acpi_find_root_pointer(void)
{
	u64 ebda = (u64)*(const u16 *)__va(ACPI_EBDA_PTR_LOCATION) << 4;
	const u8 *p;

	/* A segment outside conventional memory is junk, not an EBDA. */
	if (ebda >= 0x400 && ebda + ACPI_EBDA_WINDOW_SIZE <= ACPI_EBDA_LIMIT) {
		p = acpi_tb_scan_memory_for_rsdp(__va(ebda), ACPI_EBDA_WINDOW_SIZE);
		if (p)
			return __pa(p);
	}
	p = acpi_tb_scan_memory_for_rsdp(__va(ACPI_HI_RSDP_WINDOW_BASE),
					 ACPI_HI_RSDP_WINDOW_SIZE);
	return p ? __pa(p) : 0;
}

/*
 * Map the table at @pa and check what every table must satisfy before any
 * of it is read: the expected signature (if the caller knows it), a length
 * covering the header and not absurd, and a zero checksum.
 */
static struct acpi_table_header *acpi_tb_map_table(const struct acpi_table_list *list,
						   u64 pa, const char *expect)
{
	const unsigned long long a = pa;
	struct acpi_table_header *h;
	const char *name;
	char buf[5];
	u32 len;
	u8 sum;

	h = list->map(pa, sizeof(*h));
	if (!h) {
		pr_warn("%s at 0x%llx cannot be mapped; ignored\n",
			expect ? acpi_table_name(expect, buf) : "table", a);
		return NULL;
	}
	name = acpi_table_name(expect ? expect : h->signature, buf);
	if (expect && memcmp(h->signature, expect, ACPI_NAMESEG_SIZE)) {
		char got[5];

		acpi_copy_text(got, h->signature, ACPI_NAMESEG_SIZE);
		pr_warn("%s at 0x%llx has signature '%s'; ignored\n", name, a, got);
		return NULL;
	}
	len = h->length;
	if (len < sizeof(*h)) {
		pr_warn("%s at 0x%llx is truncated: length %u is shorter than its header (%zu); ignored\n",
			name, a, len, sizeof(*h));
		return NULL;
	}
	if (len > ACPI_MAX_TABLE_LENGTH) {
		pr_warn("%s at 0x%llx claims a length of %u bytes; ignored\n", name, a, len);
		return NULL;
	}
	h = list->map(pa, len);
	if (!h) {
		pr_warn("%s at 0x%llx (%u bytes) cannot be mapped; ignored\n", name, a, len);
		return NULL;
	}
	sum = acpi_tb_checksum(h, len);
	if (sum) {
		pr_warn("%s at 0x%llx has a bad checksum (sum 0x%02x, expected 0); ignored\n",
			name, a, sum);
		return NULL;
	}
	return h;
}

static void acpi_tb_install_table(struct acpi_table_list *list, u64 pa, const char *expect)
{
	struct acpi_table_desc *desc;
	struct acpi_table_header *h;

	if (list->count == ACPI_MAX_TABLES) {
		pr_warn("more than %d tables; the one at 0x%llx is ignored\n",
			ACPI_MAX_TABLES, (unsigned long long)pa);
		return;
	}
	h = acpi_tb_map_table(list, pa, expect);
	if (!h)
		return;
	acpi_tb_print_table_header(pa, h);
	desc = &list->tables[list->count++];
	desc->address = pa;
	desc->pointer = h;
	desc->length = h->length;
	memcpy(desc->signature, h->signature, ACPI_NAMESEG_SIZE);
	desc->signature[ACPI_NAMESEG_SIZE] = '\0';
}

/*
 * XSDT when the RSDP is version 2 with a good extended checksum and the
 * XSDT itself validates; otherwise the RSDT, which every RSDP must name.
 */
static const struct acpi_table_header *acpi_tb_get_root(struct acpi_table_list *list,
							const struct acpi_table_rsdp *rsdp,
							bool v2)
{
	const unsigned long long a = list->rsdp_address;
	const struct acpi_table_header *root;
	u8 sum;

	if (v2) {
		sum = acpi_tb_checksum(rsdp, ACPI_RSDP_XCHECKSUM_LENGTH);
		if (sum) {
			pr_warn("RSDP at 0x%llx has a bad extended checksum (sum 0x%02x, expected 0); using the RSDT\n",
				a, sum);
		} else if (rsdp->xsdt_physical_address) {
			root = acpi_tb_map_table(list, rsdp->xsdt_physical_address,
						 ACPI_SIG_XSDT);
			if (root) {
				list->xsdt = true;
				list->root_address = rsdp->xsdt_physical_address;
				return root;
			}
			pr_warn("XSDT unusable; falling back to the RSDT\n");
		}
	}
	if (!rsdp->rsdt_physical_address) {
		pr_err("RSDP at 0x%llx names no usable root table\n", a);
		return NULL;
	}
	root = acpi_tb_map_table(list, rsdp->rsdt_physical_address, ACPI_SIG_RSDT);
	if (root)
		list->root_address = rsdp->rsdt_physical_address;
	return root;
}

/* The DSDT is reached through the FADT, not the root table. */
static u64 acpi_tb_fadt_dsdt(const struct acpi_table_header *h)
{
	const struct acpi_table_fadt *fadt = (const void *)h;

	if (h->length >= offsetof_end(struct acpi_table_fadt, Xdsdt) && fadt->Xdsdt)
		return fadt->Xdsdt;
	if (h->length >= offsetof_end(struct acpi_table_fadt, dsdt))
		return fadt->dsdt;
	return 0;
}

int acpi_tb_parse_root_table(struct acpi_table_list *list, u64 rsdp_address)
{
	const struct acpi_table_header *root, *fadt;
	const struct acpi_table_rsdp *rsdp;
	u32 entry_size, nr_entries, bytes;
	bool v2 = false;
	char oem[7];
	u64 dsdt;

	list->count = 0;
	list->xsdt = false;
	list->root_address = 0;
	list->rsdp_address = rsdp_address;
	rsdp = list->map(rsdp_address, ACPI_RSDP_REV0_SIZE);
	if (!rsdp || acpi_tb_validate_rsdp(rsdp)) {
		pr_err("no valid RSDP at 0x%llx; no ACPI tables\n",
		       (unsigned long long)rsdp_address);
		return -EINVAL;
	}
	list->rsdp_revision = rsdp->revision;
	/* Version 2 fields exist only if the longer structure can be read. */
	if (rsdp->revision >= 2) {
		const struct acpi_table_rsdp *full;

		full = list->map(rsdp_address, ACPI_RSDP_XCHECKSUM_LENGTH);
		if (full) {
			rsdp = full;
			v2 = true;
		}
	}
	acpi_copy_text(oem, rsdp->oem_id, sizeof(rsdp->oem_id));
	pr_info("RSDP 0x%016llX %06X (v%02u %-6s)\n", (unsigned long long)rsdp_address,
		v2 ? rsdp->length : ACPI_RSDP_REV0_SIZE, rsdp->revision, oem);

	root = acpi_tb_get_root(list, rsdp, v2);
	if (!root)
		return -EINVAL;
	acpi_tb_print_table_header(list->root_address, root);

	entry_size = list->xsdt ? sizeof(u64) : sizeof(u32);
	bytes = root->length - sizeof(*root);
	nr_entries = bytes / entry_size;
	if (bytes % entry_size)
		pr_warn("%s: last entry runs past the end of the table; ignored\n",
			list->xsdt ? "XSDT" : "RSDT");
	for (u32 i = 0; i < nr_entries; i++) {
		const u8 *p = (const u8 *)(root + 1) + i * entry_size;
		u64 pa = 0;

		memcpy(&pa, p, entry_size);	/* XSDT entries are not 8-byte aligned */
		if (pa)
			acpi_tb_install_table(list, pa, NULL);
	}

	fadt = acpi_tb_get_table(list, ACPI_SIG_FADT, 0);
	dsdt = fadt ? acpi_tb_fadt_dsdt(fadt) : 0;
	if (dsdt)
		acpi_tb_install_table(list, dsdt, ACPI_SIG_DSDT);
	return 0;
}

/* The @instance-th (from 0) admitted table with @signature, or NULL. */
struct acpi_table_header *acpi_tb_get_table(const struct acpi_table_list *list,
					    const char *signature, u32 instance)
{
	for (unsigned int i = 0; i < list->count; i++) {
		const struct acpi_table_desc *d = &list->tables[i];

		if (!memcmp(d->signature, signature, ACPI_NAMESEG_SIZE) && !instance--)
			return d->pointer;
	}
	return NULL;
}

struct acpi_table_header *acpi_get_table(const char *signature, u32 instance)
{
	return acpi_tb_get_table(&acpi_gbl_root_table_list, signature, instance);
}

static void *acpi_os_map_memory(u64 pa, u32 len)
{
	return memremap(pa, len);
}

/* The loader's RSDP if it checks out, else the legacy BIOS search. */
static u64 acpi_locate_rsdp(void)
{
	const struct acpi_table_rsdp *rsdp;
	u64 pa = boot_info.rsdp;

	if (pa) {
		rsdp = acpi_os_map_memory(pa, ACPI_RSDP_REV0_SIZE);
		if (rsdp && !acpi_tb_validate_rsdp(rsdp))
			return pa;
		pr_warn("RSDP at 0x%llx from the boot loader is not valid; searching\n",
			(unsigned long long)pa);
	}
	return acpi_find_root_pointer();
}

/* Once, after paging_init(): later calls return the first call's result. */
int acpi_table_init(void)
{
	static bool done;
	static int result = -ENODEV;
	u64 rsdp;

	if (done)
		return result;
	done = true;
	acpi_gbl_root_table_list.map = acpi_os_map_memory;
	rsdp = acpi_locate_rsdp();
	if (!rsdp) {
		pr_warn("no RSDP found; running without ACPI tables\n");
		return result;
	}
	result = acpi_tb_parse_root_table(&acpi_gbl_root_table_list, rsdp);
	if (!result)
		acpi_parse_boot_tables();
	return result;
}
