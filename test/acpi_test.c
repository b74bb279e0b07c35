// SPDX-License-Identifier: GPL-2.0
/*
 * ACPI tables.  First on tables built here in an arena whose "physical
 * addresses" are offsets from a fake base, handed to a private table list
 * whose map() translates them: RSDP versions, XSDT/RSDT choice, rejection
 * of bad checksums and truncated tables, and each parser's output.  Then
 * on the machine's own tables (QEMU's when run there).
 */
#include <linux/ktest.h>
#include <linux/acpi.h>
#include <linux/errno.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <asm/bootparam.h>
#include <asm/io.h>
#include <asm/page.h>
#include <asm/pgtable.h>
#include <asm/processor.h>
#include <asm/sections.h>
#include <asm/tsc.h>

/* ------------------------------------------------------------ arena */

#define ARENA_PA	0x40000000ULL	/* below 4 GiB: RSDT entries are 32-bit */
#define ARENA_SIZE	16384
#define ARENA_ORDER	2		/* ARENA_SIZE in pages, as an order */

static u8 arena[ARENA_SIZE] __aligned(16);
static u32 arena_used;
/* The physical address the tables are built for (tables_above_4g moves it). */
static u64 arena_base;
static struct acpi_table_list tlist;

static void *test_map(u64 pa, u32 len)
{
	if (pa < arena_base || pa - arena_base > ARENA_SIZE ||
	    len > ARENA_SIZE - (pa - arena_base))
		return NULL;
	return arena + (pa - arena_base);
}

static void *arena_alloc(u32 size)
{
	void *p = arena + arena_used;

	arena_used = ALIGN(arena_used + size, 16);
	BUG_ON(arena_used > ARENA_SIZE);
	return p;
}

static u64 arena_pa(const void *p)
{
	return arena_base + ((const u8 *)p - arena);
}

static int acpi_test_init(struct ktest *t)
{
	memset(arena, 0, sizeof(arena));
	arena_used = 0;
	arena_base = ARENA_PA;
	memset(&tlist, 0, sizeof(tlist));
	tlist.map = test_map;
	return 0;
}

/* Our own byte sum, so the tables do not depend on the code under test. */
static u8 test_sum(const void *buf, u32 len)
{
	const u8 *p = buf;
	u8 s = 0;

	for (u32 i = 0; i < len; i++)
		s += p[i];
	return s;
}

/* ------------------------------------------------------------ table builder */

struct tb {
	struct acpi_table_header *h;
	u32 cap;
};

static void *tb_start(struct tb *b, const char *sig, u8 rev, u32 fixed, u32 cap)
{
	b->h = arena_alloc(cap);
	b->cap = cap;
	memcpy(b->h->signature, sig, 4);
	b->h->length = fixed;
	b->h->revision = rev;
	memcpy(b->h->oem_id, "IRQLAB", 6);
	memcpy(b->h->oem_table_id, "KTEST   ", 8);
	b->h->oem_revision = 1;
	memcpy(b->h->asl_compiler_id, "KTST", 4);
	b->h->asl_compiler_revision = 1;
	return b->h;
}

static void tb_put(struct tb *b, const void *data, u32 size)
{
	BUG_ON(b->h->length + size > b->cap);
	memcpy((u8 *)b->h + b->h->length, data, size);
	b->h->length += size;
}

static void fix_checksum(struct acpi_table_header *h)
{
	h->checksum = 0;
	h->checksum = -test_sum(h, h->length);
}

static u64 tb_finish(struct tb *b)
{
	fix_checksum(b->h);
	return arena_pa(b->h);
}

/* A table with only a header and @fill bytes of zeroes after it. */
static u64 plain_table(const char *sig, u32 fill)
{
	struct tb b;
	u8 zero[64] = {};

	tb_start(&b, sig, 1, sizeof(struct acpi_table_header), sizeof(struct acpi_table_header) + fill);
	tb_put(&b, zero, fill);
	return tb_finish(&b);
}

#define SUB(t, T)	{ .type = (t), .length = sizeof(T) }

static void madt_lapic(struct tb *b, u8 uid, u8 id, u32 flags)
{
	struct acpi_madt_local_apic e = {
		SUB(ACPI_MADT_TYPE_LOCAL_APIC, e), .processor_id = uid, .id = id,
		.lapic_flags = flags };
	tb_put(b, &e, sizeof(e));
}

static void madt_x2apic(struct tb *b, u32 uid, u32 id, u32 flags)
{
	struct acpi_madt_local_x2apic e = {
		SUB(ACPI_MADT_TYPE_LOCAL_X2APIC, e), .local_apic_id = id,
		.lapic_flags = flags, .uid = uid };
	tb_put(b, &e, sizeof(e));
}

static void madt_ioapic(struct tb *b, u8 id, u32 addr, u32 gsi_base)
{
	struct acpi_madt_io_apic e = {
		SUB(ACPI_MADT_TYPE_IO_APIC, e), .id = id, .address = addr,
		.global_irq_base = gsi_base };
	tb_put(b, &e, sizeof(e));
}

static void madt_iso(struct tb *b, u8 irq, u32 gsi, u16 flags)
{
	struct acpi_madt_interrupt_override e = {
		SUB(ACPI_MADT_TYPE_INTERRUPT_OVERRIDE, e), .bus = 0, .source_irq = irq,
		.global_irq = gsi, .inti_flags = flags };
	tb_put(b, &e, sizeof(e));
}

static struct acpi_table_madt *madt_start(struct tb *b, u8 rev, u32 cap)
{
	struct acpi_table_madt *m = tb_start(b, ACPI_SIG_MADT, rev, sizeof(*m), cap);

	m->address = 0xfee00000;
	m->flags = ACPI_MADT_PCAT_COMPAT;
	return m;
}

/* An RSDP at a 16-byte boundary of the arena; @xsdt only for revision 2. */
static u64 make_rsdp(u8 rev, u64 rsdt, u64 xsdt)
{
	struct acpi_table_rsdp *r = arena_alloc(sizeof(*r));

	memcpy(r->signature, ACPI_SIG_RSDP, 8);
	memcpy(r->oem_id, "IRQLAB", 6);
	r->revision = rev;
	r->rsdt_physical_address = rsdt;
	r->checksum = -test_sum(r, ACPI_RSDP_CHECKSUM_LENGTH);
	if (rev >= 2) {
		r->length = sizeof(*r);
		r->xsdt_physical_address = xsdt;
		r->extended_checksum = -test_sum(r, ACPI_RSDP_XCHECKSUM_LENGTH);
	}
	return arena_pa(r);
}

static u64 make_rsdt(const u64 *tables, unsigned int n)
{
	struct tb b;

	tb_start(&b, ACPI_SIG_RSDT, 1, sizeof(struct acpi_table_header), 36 + 4 * n);
	for (unsigned int i = 0; i < n; i++) {
		u32 e = tables[i];

		tb_put(&b, &e, sizeof(e));
	}
	return tb_finish(&b);
}

static u64 make_xsdt(const u64 *tables, unsigned int n)
{
	struct tb b;

	tb_start(&b, ACPI_SIG_XSDT, 1, sizeof(struct acpi_table_header), 36 + 8 * n);
	for (unsigned int i = 0; i < n; i++)
		tb_put(&b, &tables[i], sizeof(tables[i]));
	return tb_finish(&b);
}

static bool has_table(const char *sig)
{
	return acpi_tb_get_table(&tlist, sig, 0) != NULL;
}

/* ------------------------------------------------------------ RSDP and root tables */

static void checksum_sums_bytes(struct ktest *t)
{
	static const u8 bytes[] = { 0x01, 0x02, 0xfd, 0x10, 0xf0 };

	KTEST_EXPECT_EQ(t, acpi_tb_checksum(bytes, 3), 0);
	KTEST_EXPECT_EQ(t, acpi_tb_checksum(bytes, 4), 0x10);
	KTEST_EXPECT_EQ(t, acpi_tb_checksum(bytes, 5), 0);
	KTEST_EXPECT_EQ(t, acpi_tb_checksum(bytes, 2), 0x03);
}

static void rsdp_v1_uses_rsdt(struct ktest *t)
{
	u64 hpet = plain_table("HPET", 20);
	u64 rsdt = make_rsdt(&hpet, 1);
	u64 rsdp = make_rsdp(0, rsdt, 0);
	struct acpi_table_rsdp *r = test_map(rsdp, 20);

	KTEST_EXPECT_EQ(t, acpi_tb_validate_rsdp(r), 0);
	KTEST_ASSERT_EQ(t, acpi_tb_parse_root_table(&tlist, rsdp), 0);
	KTEST_EXPECT_EQ(t, tlist.rsdp_revision, 0);
	KTEST_EXPECT_FALSE(t, tlist.xsdt);
	KTEST_EXPECT_EQ(t, tlist.root_address, rsdt);
	KTEST_EXPECT_EQ(t, tlist.count, 1);
	KTEST_EXPECT_EQ(t, (unsigned long)acpi_tb_get_table(&tlist, "HPET", 0),
			(unsigned long)test_map(hpet, 1));

	/* One flipped byte in the first 20: checksum failure, not found. */
	r->oem_id[0] ^= 1;
	KTEST_EXPECT_EQ(t, acpi_tb_validate_rsdp(r), -EINVAL);
	KTEST_EXPECT_EQ(t, acpi_tb_parse_root_table(&tlist, rsdp), -EINVAL);
	KTEST_EXPECT_EQ(t, tlist.count, 0);
	r->oem_id[0] ^= 1;
	r->signature[0] = 'X';
	KTEST_EXPECT_EQ(t, acpi_tb_validate_rsdp(r), -ENODEV);
}

/* Two root tables listing different tables show which one was walked. */
static void rsdp_v2_prefers_xsdt(struct ktest *t)
{
	u64 spcr = plain_table("SPCR", 44), hpet = plain_table("HPET", 20);
	u64 ssdt[2] = { plain_table("SSDT", 4), plain_table("SSDT", 8) };
	u64 xlist[3] = { hpet, ssdt[0], ssdt[1] };
	u64 rsdt = make_rsdt(&spcr, 1), xsdt = make_xsdt(xlist, 3);
	u64 rsdp = make_rsdp(2, rsdt, xsdt);

	KTEST_ASSERT_EQ(t, acpi_tb_parse_root_table(&tlist, rsdp), 0);
	KTEST_EXPECT_EQ(t, tlist.rsdp_revision, 2);
	KTEST_EXPECT_TRUE(t, tlist.xsdt);
	KTEST_EXPECT_EQ(t, tlist.root_address, xsdt);
	KTEST_EXPECT_TRUE(t, has_table("HPET"));
	KTEST_EXPECT_FALSE(t, has_table("SPCR"));
	/* Instances count from 0, in root table order. */
	KTEST_EXPECT_EQ(t, (unsigned long)acpi_tb_get_table(&tlist, "SSDT", 0),
			(unsigned long)test_map(ssdt[0], 1));
	KTEST_EXPECT_EQ(t, (unsigned long)acpi_tb_get_table(&tlist, "SSDT", 1),
			(unsigned long)test_map(ssdt[1], 1));
	KTEST_EXPECT_TRUE(t, acpi_tb_get_table(&tlist, "SSDT", 2) == NULL);
}

static void rsdp_v2_corrupt_xsdt_falls_back(struct ktest *t)
{
	u64 spcr = plain_table("SPCR", 44), hpet = plain_table("HPET", 20);
	u64 rsdt = make_rsdt(&spcr, 1), xsdt = make_xsdt(&hpet, 1);
	u64 rsdp = make_rsdp(2, rsdt, xsdt);
	struct acpi_table_header *x = test_map(xsdt, 36);
	char msg[96];
	u64 mark;

	x->oem_revision++;		/* checksum now off by one */
	mark = ktest_log_mark();
	KTEST_ASSERT_EQ(t, acpi_tb_parse_root_table(&tlist, rsdp), 0);
	KTEST_EXPECT_FALSE(t, tlist.xsdt);
	KTEST_EXPECT_EQ(t, tlist.root_address, rsdt);
	KTEST_EXPECT_TRUE(t, has_table("SPCR"));
	KTEST_EXPECT_FALSE(t, has_table("HPET"));
	snprintf(msg, sizeof(msg), "ACPI: XSDT at 0x%llx has a bad checksum (sum 0x01",
		 (unsigned long long)xsdt);
	KTEST_EXPECT_LOG(t, mark, msg);
	KTEST_EXPECT_LOG(t, mark, "falling back to the RSDT");
}

/* A bad extended checksum leaves only the version 1 part trustworthy. */
static void rsdp_v2_bad_extended_checksum(struct ktest *t)
{
	u64 spcr = plain_table("SPCR", 44), hpet = plain_table("HPET", 20);
	u64 rsdt = make_rsdt(&spcr, 1), xsdt = make_xsdt(&hpet, 1);
	u64 rsdp = make_rsdp(2, rsdt, xsdt);
	struct acpi_table_rsdp *r = test_map(rsdp, 36);
	u64 mark;

	r->extended_checksum++;
	KTEST_EXPECT_EQ(t, acpi_tb_validate_rsdp(r), 0);
	mark = ktest_log_mark();
	KTEST_ASSERT_EQ(t, acpi_tb_parse_root_table(&tlist, rsdp), 0);
	KTEST_EXPECT_FALSE(t, tlist.xsdt);
	KTEST_EXPECT_TRUE(t, has_table("SPCR"));
	KTEST_EXPECT_LOG(t, mark, "has a bad extended checksum");
}

static void rsdp_scan_finds_aligned_valid_one(struct ktest *t)
{
	u8 *area = arena_alloc(1024);
	struct acpi_table_rsdp *decoy = (void *)(area + 0x10);
	struct acpi_table_rsdp *odd = (void *)(area + 0x24);
	struct acpi_table_rsdp *good = (void *)(area + 0x80);

	KTEST_EXPECT_TRUE(t, acpi_tb_scan_memory_for_rsdp(area, 1024) == NULL);
	/* Right signature, wrong checksum. */
	memcpy(decoy->signature, ACPI_SIG_RSDP, 8);
	decoy->checksum = 1 - test_sum(decoy, 20);
	/* Valid, but not on a 16-byte boundary. */
	memcpy(odd->signature, ACPI_SIG_RSDP, 8);
	odd->checksum = -test_sum(odd, 20);
	KTEST_EXPECT_TRUE(t, acpi_tb_scan_memory_for_rsdp(area, 1024) == NULL);
	memcpy(good->signature, ACPI_SIG_RSDP, 8);
	good->checksum = -test_sum(good, 20);
	KTEST_EXPECT_EQ(t, (unsigned long)acpi_tb_scan_memory_for_rsdp(area, 1024),
			(unsigned long)good);
	/* A window ending inside the structure does not see it. */
	KTEST_EXPECT_TRUE(t, acpi_tb_scan_memory_for_rsdp(area, 0x80 + 19) == NULL);
}

static void bad_checksum_table_rejected(struct ktest *t)
{
	struct tb b;
	u64 madt, list[2], rsdp;
	char msg[96];
	u64 mark;

	madt_start(&b, 3, 64);
	madt_lapic(&b, 0, 0, ACPI_MADT_ENABLED);
	madt = tb_finish(&b);
	b.h->checksum += 0x20;
	list[0] = madt;
	list[1] = plain_table("HPET", 20);
	rsdp = make_rsdp(0, make_rsdt(list, 2), 0);

	mark = ktest_log_mark();
	KTEST_ASSERT_EQ(t, acpi_tb_parse_root_table(&tlist, rsdp), 0);
	snprintf(msg, sizeof(msg), "ACPI: MADT at 0x%llx has a bad checksum (sum 0x20, expected 0); ignored",
		 (unsigned long long)madt);
	KTEST_EXPECT_LOG(t, mark, msg);
	KTEST_EXPECT_FALSE(t, has_table(ACPI_SIG_MADT));
	KTEST_EXPECT_TRUE(t, has_table("HPET"));	/* the rest carries on */
	KTEST_EXPECT_EQ(t, tlist.count, 1);
}

static void truncated_tables_rejected(struct ktest *t)
{
	u64 shorty = plain_table("SHRT", 0), past_end, list[3], rsdp;
	struct acpi_table_header *h = test_map(shorty, 36);
	char msg[96];
	u64 mark;

	h->length = 20;			/* shorter than the header */
	fix_checksum(h);
	/* The last table claims to run past the end of mapped memory. */
	past_end = plain_table("LONG", 0);
	h = test_map(past_end, 36);
	h->length = ARENA_SIZE;
	list[0] = shorty;
	list[1] = past_end;
	list[2] = 0;			/* null entries are skipped */
	rsdp = make_rsdp(0, make_rsdt(list, 3), 0);

	mark = ktest_log_mark();
	KTEST_ASSERT_EQ(t, acpi_tb_parse_root_table(&tlist, rsdp), 0);
	KTEST_EXPECT_EQ(t, tlist.count, 0);
	snprintf(msg, sizeof(msg), "ACPI: SHRT at 0x%llx is truncated: length 20",
		 (unsigned long long)shorty);
	KTEST_EXPECT_LOG(t, mark, msg);
	snprintf(msg, sizeof(msg), "ACPI: LONG at 0x%llx (%u bytes) cannot be mapped",
		 (unsigned long long)past_end, ARENA_SIZE);
	KTEST_EXPECT_LOG(t, mark, msg);
}

/* FADT -> DSDT is followed, preferring X_DSDT. */
static void dsdt_found_through_fadt(struct ktest *t)
{
	u64 dsdt32 = plain_table("DSDT", 8), dsdt64 = plain_table("DSDT", 16);
	struct acpi_table_fadt *f;
	struct tb b;
	u64 fadt, rsdp;

	f = tb_start(&b, ACPI_SIG_FADT, 4, sizeof(*f), sizeof(*f));
	f->dsdt = dsdt32;
	f->Xdsdt = dsdt64;
	fadt = tb_finish(&b);
	rsdp = make_rsdp(0, make_rsdt(&fadt, 1), 0);
	KTEST_ASSERT_EQ(t, acpi_tb_parse_root_table(&tlist, rsdp), 0);
	KTEST_EXPECT_EQ(t, tlist.count, 2);
	KTEST_EXPECT_EQ(t, (unsigned long)acpi_tb_get_table(&tlist, ACPI_SIG_DSDT, 0),
			(unsigned long)test_map(dsdt64, 1));
}

/* ------------------------------------------------------------ MADT */

static struct acpi_madt_info mi;

static void madt_parses_every_entry_type(struct ktest *t)
{
	struct acpi_madt_nmi_source nmi = {
		SUB(ACPI_MADT_TYPE_NMI_SOURCE, nmi),
		.inti_flags = ACPI_MADT_POLARITY_ACTIVE_HIGH | ACPI_MADT_TRIGGER_EDGE,
		.global_irq = 23 };
	struct acpi_madt_local_apic_nmi lnmi = {
		SUB(ACPI_MADT_TYPE_LOCAL_APIC_NMI, lnmi), .processor_id = 0xff,
		.inti_flags = 0x5, .lint = 1 };
	struct acpi_madt_local_x2apic_nmi xnmi = {
		SUB(ACPI_MADT_TYPE_LOCAL_X2APIC_NMI, xnmi), .inti_flags = 0xf,
		.uid = 300, .lint = 0 };
	struct acpi_madt_local_apic_override ovr = {
		SUB(ACPI_MADT_TYPE_LOCAL_APIC_OVERRIDE, ovr), .address = 0x1fee00000ULL };
	u8 unknown[6] = { 0x7f, 6, 1, 2, 3, 4 };	/* skipped by its length */
	struct tb b;

	madt_start(&b, 3, 512);
	madt_lapic(&b, 0, 0, ACPI_MADT_ENABLED);
	madt_lapic(&b, 1, 2, ACPI_MADT_ENABLED);
	madt_x2apic(&b, 300, 0x100, ACPI_MADT_ENABLED);
	madt_lapic(&b, 9, 0xff, ACPI_MADT_ENABLED);	/* not an xAPIC ID: skipped */
	madt_ioapic(&b, 2, 0xfec00000, 0);
	tb_put(&b, unknown, sizeof(unknown));
	madt_ioapic(&b, 3, 0xfec01000, 24);
	madt_iso(&b, 0, 2, 0);
	madt_iso(&b, 9, 9, ACPI_MADT_POLARITY_ACTIVE_LOW | ACPI_MADT_TRIGGER_LEVEL);
	tb_put(&b, &nmi, sizeof(nmi));
	tb_put(&b, &lnmi, sizeof(lnmi));
	tb_put(&b, &xnmi, sizeof(xnmi));
	tb_put(&b, &ovr, sizeof(ovr));
	tb_finish(&b);

	KTEST_ASSERT_EQ(t, acpi_parse_madt((void *)b.h, &mi), 0);
	KTEST_EXPECT_EQ(t, mi.lapic_addr, 0x1fee00000ULL);
	KTEST_EXPECT_TRUE(t, mi.lapic_addr_override);
	KTEST_EXPECT_TRUE(t, mi.pcat_compat);
	KTEST_ASSERT_EQ(t, mi.nr_cpus, 3);
	KTEST_EXPECT_EQ(t, mi.nr_enabled, 3);
	KTEST_EXPECT_EQ(t, mi.cpus[0].apic_id, 0);
	KTEST_EXPECT_EQ(t, mi.cpus[1].apic_id, 2);
	KTEST_EXPECT_EQ(t, mi.cpus[1].acpi_uid, 1);
	KTEST_EXPECT_FALSE(t, mi.cpus[1].x2apic);
	KTEST_EXPECT_EQ(t, mi.cpus[2].apic_id, 0x100);
	KTEST_EXPECT_EQ(t, mi.cpus[2].acpi_uid, 300);
	KTEST_EXPECT_TRUE(t, mi.cpus[2].x2apic && mi.cpus[2].enabled);
	KTEST_ASSERT_EQ(t, mi.nr_ioapics, 2);
	KTEST_EXPECT_EQ(t, mi.ioapics[0].id, 2);
	KTEST_EXPECT_EQ(t, mi.ioapics[0].addr, 0xfec00000);
	KTEST_EXPECT_EQ(t, mi.ioapics[1].addr, 0xfec01000);
	KTEST_EXPECT_EQ(t, mi.ioapics[1].gsi_base, 24);
	KTEST_ASSERT_EQ(t, mi.nr_overrides, 2);
	KTEST_EXPECT_EQ(t, mi.overrides[1].source_irq, 9);
	KTEST_EXPECT_EQ(t, mi.overrides[1].gsi, 9);
	KTEST_EXPECT_EQ(t, mi.overrides[1].flags, 0xf);
	KTEST_ASSERT_EQ(t, mi.nr_nmi_sources, 1);
	KTEST_EXPECT_EQ(t, mi.nmi_sources[0].gsi, 23);
	KTEST_EXPECT_EQ(t, mi.nmi_sources[0].flags, 0x5);
	KTEST_ASSERT_EQ(t, mi.nr_lapic_nmis, 2);
	KTEST_EXPECT_EQ(t, mi.lapic_nmis[0].acpi_uid, ACPI_UID_ALL_CPUS);
	KTEST_EXPECT_EQ(t, mi.lapic_nmis[0].lint, 1);
	KTEST_EXPECT_EQ(t, mi.lapic_nmis[0].flags, 0x5);
	KTEST_EXPECT_FALSE(t, mi.lapic_nmis[0].x2apic);
	KTEST_EXPECT_EQ(t, mi.lapic_nmis[1].acpi_uid, 300);
	KTEST_EXPECT_EQ(t, mi.lapic_nmis[1].lint, 0);
	KTEST_EXPECT_TRUE(t, mi.lapic_nmis[1].x2apic);
}

/* Online-capable means something from MADT revision 5 on. */
static void madt_disabled_cpus(struct ktest *t)
{
	struct tb b;

	madt_start(&b, 5, 128);
	madt_lapic(&b, 0, 0, ACPI_MADT_ENABLED);
	madt_lapic(&b, 1, 1, ACPI_MADT_ONLINE_CAPABLE);
	madt_lapic(&b, 2, 2, 0);			/* never usable: dropped */
	madt_x2apic(&b, 3, 3, ACPI_MADT_ONLINE_CAPABLE);
	tb_finish(&b);
	KTEST_ASSERT_EQ(t, acpi_parse_madt((void *)b.h, &mi), 0);
	KTEST_ASSERT_EQ(t, mi.nr_cpus, 3);
	KTEST_EXPECT_EQ(t, mi.nr_enabled, 1);
	KTEST_EXPECT_TRUE(t, mi.cpus[0].enabled && !mi.cpus[0].online_capable);
	KTEST_EXPECT_TRUE(t, !mi.cpus[1].enabled && mi.cpus[1].online_capable);
	KTEST_EXPECT_EQ(t, mi.cpus[2].apic_id, 3);
	KTEST_EXPECT_TRUE(t, !mi.cpus[2].enabled && mi.cpus[2].online_capable);

	/* Revision 3: a disabled entry is kept (hot-add), the bit is ignored. */
	madt_start(&b, 3, 128);
	madt_lapic(&b, 0, 0, ACPI_MADT_ENABLED);
	madt_lapic(&b, 1, 1, 0);
	madt_lapic(&b, 2, 2, ACPI_MADT_ONLINE_CAPABLE);
	tb_finish(&b);
	KTEST_ASSERT_EQ(t, acpi_parse_madt((void *)b.h, &mi), 0);
	KTEST_ASSERT_EQ(t, mi.nr_cpus, 3);
	KTEST_EXPECT_EQ(t, mi.nr_enabled, 1);
	KTEST_EXPECT_TRUE(t, !mi.cpus[1].enabled && !mi.cpus[1].online_capable);
	KTEST_EXPECT_TRUE(t, !mi.cpus[2].enabled && !mi.cpus[2].online_capable);
}

static void madt_more_cpus_than_nr_cpus(struct ktest *t)
{
	const unsigned int extra = 3, n = CONFIG_NR_CPUS + extra;
	char msg[80];
	struct tb b;
	u64 mark;

	madt_start(&b, 3, sizeof(struct acpi_table_madt) + n * 16 + 16);
	for (unsigned int i = 0; i < n; i++)
		madt_x2apic(&b, i, 0x1000 + i, ACPI_MADT_ENABLED);
	madt_lapic(&b, 0, 5, ACPI_MADT_ENABLED);
	tb_finish(&b);
	mark = ktest_log_mark();
	KTEST_ASSERT_EQ(t, acpi_parse_madt((void *)b.h, &mi), 0);
	KTEST_EXPECT_EQ(t, mi.nr_cpus, CONFIG_NR_CPUS);
	KTEST_EXPECT_EQ(t, mi.nr_cpus_ignored, extra + 1);
	KTEST_EXPECT_EQ(t, mi.cpus[CONFIG_NR_CPUS - 1].apic_id, 0x1000 + CONFIG_NR_CPUS - 1);
	snprintf(msg, sizeof(msg), "MADT: %u CPUs beyond CONFIG_NR_CPUS=%d ignored",
		 extra + 1, CONFIG_NR_CPUS);
	KTEST_EXPECT_LOG(t, mark, msg);
}

static void madt_duplicate_apic_id(struct ktest *t)
{
	struct tb b;
	u64 mark;

	madt_start(&b, 3, 128);
	madt_lapic(&b, 0, 4, ACPI_MADT_ENABLED);
	madt_x2apic(&b, 1, 4, ACPI_MADT_ENABLED);
	tb_finish(&b);
	mark = ktest_log_mark();
	KTEST_ASSERT_EQ(t, acpi_parse_madt((void *)b.h, &mi), 0);
	KTEST_EXPECT_EQ(t, mi.nr_cpus, 1);
	KTEST_EXPECT_LOG(t, mark, "APIC ID 0x4 listed twice");
}

static void madt_overrides_and_irq_to_gsi(struct ktest *t)
{
	u32 gsi = 0;
	u16 flags = 0xffff;
	struct tb b;
	u64 mark;

	madt_start(&b, 3, 128);
	madt_ioapic(&b, 0, 0xfec00000, 0);
	madt_iso(&b, 0, 2, 0);
	madt_iso(&b, 9, 9, ACPI_MADT_POLARITY_ACTIVE_LOW | ACPI_MADT_TRIGGER_LEVEL);
	madt_iso(&b, 9, 20, 0);			/* second one for IRQ 9: ignored */
	tb_finish(&b);
	KTEST_ASSERT_EQ(t, acpi_parse_madt((void *)b.h, &mi), 0);
	KTEST_EXPECT_EQ(t, mi.nr_overrides, 2);

	KTEST_EXPECT_EQ(t, acpi_madt_irq_to_gsi(&mi, 0, &gsi, &flags), 0);
	KTEST_EXPECT_EQ(t, gsi, 2);
	KTEST_EXPECT_EQ(t, flags, 0);
	KTEST_EXPECT_EQ(t, acpi_override_polarity(flags), ACPI_ACTIVE_HIGH);
	KTEST_EXPECT_EQ(t, acpi_override_trigger(flags), ACPI_EDGE_SENSITIVE);

	KTEST_EXPECT_EQ(t, acpi_madt_irq_to_gsi(&mi, 9, &gsi, &flags), 0);
	KTEST_EXPECT_EQ(t, gsi, 9);
	KTEST_EXPECT_EQ(t, acpi_override_polarity(flags), ACPI_ACTIVE_LOW);
	KTEST_EXPECT_EQ(t, acpi_override_trigger(flags), ACPI_LEVEL_SENSITIVE);

	flags = 0xffff;
	KTEST_EXPECT_EQ(t, acpi_madt_irq_to_gsi(&mi, 4, &gsi, &flags), 0);
	KTEST_EXPECT_EQ(t, gsi, 4);
	KTEST_EXPECT_EQ(t, flags, 0);
	/* Pin 2 belongs to IRQ 0 now. */
	KTEST_EXPECT_EQ(t, acpi_madt_irq_to_gsi(&mi, 2, &gsi, &flags), -EBUSY);
	KTEST_EXPECT_EQ(t, acpi_madt_irq_to_gsi(&mi, 16, &gsi, &flags), -EINVAL);
	/* No MADT at all: identity. */
	KTEST_EXPECT_EQ(t, acpi_madt_irq_to_gsi(NULL, 2, &gsi, &flags), 0);
	KTEST_EXPECT_EQ(t, gsi, 2);

	KTEST_EXPECT_EQ(t, acpi_override_polarity(ACPI_MADT_POLARITY_ACTIVE_HIGH), ACPI_ACTIVE_HIGH);
	KTEST_EXPECT_EQ(t, acpi_override_trigger(ACPI_MADT_TRIGGER_EDGE), ACPI_EDGE_SENSITIVE);
	mark = ktest_log_mark();
	KTEST_EXPECT_EQ(t, acpi_override_polarity(ACPI_MADT_POLARITY_RESERVED), ACPI_ACTIVE_LOW);
	KTEST_EXPECT_EQ(t, acpi_override_trigger(ACPI_MADT_TRIGGER_RESERVED), ACPI_LEVEL_SENSITIVE);
	KTEST_EXPECT_LOG(t, mark, "reserved polarity");
	KTEST_EXPECT_LOG(t, mark, "reserved trigger mode");
}

/* Each broken layout must be refused, leave nothing behind, and return. */
static void madt_truncated_rejected(struct ktest *t)
{
	struct acpi_table_madt *m;
	u8 zero_len[2] = { ACPI_MADT_TYPE_LOCAL_APIC, 0 };
	u8 short_lapic[6] = { ACPI_MADT_TYPE_LOCAL_APIC, 6, 0, 0, 1, 0 };
	struct tb b;
	u64 mark;

	/* The last entry claims 8 bytes; the table ends 4 bytes into it. */
	madt_start(&b, 3, 128);
	madt_lapic(&b, 0, 0, ACPI_MADT_ENABLED);
	madt_lapic(&b, 1, 1, ACPI_MADT_ENABLED);
	b.h->length -= 4;
	tb_finish(&b);
	mark = ktest_log_mark();
	KTEST_EXPECT_EQ(t, acpi_parse_madt((void *)b.h, &mi), -EINVAL);
	KTEST_EXPECT_EQ(t, mi.nr_cpus, 0);
	KTEST_EXPECT_LOG(t, mark, "MADT: entry at offset 0x34 (type 0, length 8) runs past the end of the table (length 56); table ignored");

	/* A zero length would walk the same entry forever. */
	madt_start(&b, 3, 128);
	madt_lapic(&b, 0, 0, ACPI_MADT_ENABLED);
	tb_put(&b, zero_len, sizeof(zero_len));
	madt_lapic(&b, 1, 1, ACPI_MADT_ENABLED);
	tb_finish(&b);
	mark = ktest_log_mark();
	KTEST_EXPECT_EQ(t, acpi_parse_madt((void *)b.h, &mi), -EINVAL);
	KTEST_EXPECT_EQ(t, mi.nr_cpus, 0);
	KTEST_EXPECT_LOG(t, mark, "MADT: entry at offset 0x34 (type 0) has length 0; table ignored");

	/* One byte left over after the last entry: not even a header. */
	madt_start(&b, 3, 128);
	madt_lapic(&b, 0, 0, ACPI_MADT_ENABLED);
	tb_put(&b, zero_len, 1);
	tb_finish(&b);
	mark = ktest_log_mark();
	KTEST_EXPECT_EQ(t, acpi_parse_madt((void *)b.h, &mi), -EINVAL);
	KTEST_EXPECT_LOG(t, mark, "MADT: entry at offset 0x34 runs past the end");

	/* An entry shorter than its type's layout. */
	madt_start(&b, 3, 128);
	tb_put(&b, short_lapic, sizeof(short_lapic));
	tb_finish(&b);
	mark = ktest_log_mark();
	KTEST_EXPECT_EQ(t, acpi_parse_madt((void *)b.h, &mi), -EINVAL);
	KTEST_EXPECT_LOG(t, mark, "MADT: type 0 entry at offset 0x2c has length 6, needs 8");

	/* Shorter than the fixed part. */
	m = madt_start(&b, 3, 128);
	m->header.length = 40;
	mark = ktest_log_mark();
	KTEST_EXPECT_EQ(t, acpi_parse_madt(m, &mi), -EINVAL);
	KTEST_EXPECT_LOG(t, mark, "MADT: length 40 is shorter than its fixed part (44)");

	/* Not a MADT at all. */
	mark = ktest_log_mark();
	KTEST_EXPECT_EQ(t, acpi_parse_madt(test_map(plain_table("HPET", 20), 56), &mi), -EINVAL);
	KTEST_EXPECT_LOG(t, mark, "MADT: signature 'HPET', expected 'APIC'; table ignored");
}

/* ------------------------------------------------------------ SRAT */

static struct acpi_srat_info si;

static void srat_cpu(struct tb *b, u8 apic, u32 pxm, u32 flags)
{
	struct acpi_srat_cpu_affinity e = {
		SUB(ACPI_SRAT_TYPE_CPU_AFFINITY, e), .proximity_domain_lo = pxm,
		.apic_id = apic, .flags = flags,
		.proximity_domain_hi = { pxm >> 8, pxm >> 16, pxm >> 24 } };
	tb_put(b, &e, sizeof(e));
}

static void srat_x2apic(struct tb *b, u32 apic, u32 pxm)
{
	struct acpi_srat_x2apic_cpu_affinity e = {
		SUB(ACPI_SRAT_TYPE_X2APIC_CPU_AFFINITY, e), .proximity_domain = pxm,
		.apic_id = apic, .flags = ACPI_SRAT_CPU_ENABLED };
	tb_put(b, &e, sizeof(e));
}

static void srat_mem(struct tb *b, u32 pxm, u64 base, u64 len, u32 flags)
{
	struct acpi_srat_mem_affinity e = {
		SUB(ACPI_SRAT_TYPE_MEMORY_AFFINITY, e), .proximity_domain = pxm,
		.base_address = base, .length = len, .flags = flags };
	tb_put(b, &e, sizeof(e));
}

static void srat_start(struct tb *b, u8 rev)
{
	struct acpi_table_srat *s = tb_start(b, ACPI_SIG_SRAT, rev, sizeof(*s), 512);

	s->table_revision = 1;
}

static void srat_two_nodes(struct ktest *t)
{
	const u32 en = ACPI_SRAT_MEM_ENABLED;
	struct tb b;

	/* PXM 7 is listed first, so it becomes node 0. */
	srat_start(&b, 3);
	srat_cpu(&b, 0, 7, ACPI_SRAT_CPU_ENABLED);
	srat_cpu(&b, 1, 7, ACPI_SRAT_CPU_ENABLED);
	srat_x2apic(&b, 2, 3);
	srat_cpu(&b, 3, 3, ACPI_SRAT_CPU_ENABLED);
	srat_cpu(&b, 4, 9, 0);				/* disabled: no node 2 */
	srat_mem(&b, 7, 0, 0xa0000, en);
	srat_mem(&b, 7, 0x100000, 0xff00000, en);
	srat_mem(&b, 3, 0x10000000, 0x10000000, en | ACPI_SRAT_MEM_HOT_PLUGGABLE);
	srat_mem(&b, 9, 0x40000000, 0x10000000, 0);	/* disabled */
	tb_finish(&b);

	KTEST_ASSERT_EQ(t, acpi_parse_srat((void *)b.h, &si), 0);
	KTEST_EXPECT_EQ(t, si.nr_nodes, 2);
	KTEST_EXPECT_EQ(t, si.node_to_pxm[0], 7);
	KTEST_EXPECT_EQ(t, si.node_to_pxm[1], 3);
	KTEST_EXPECT_EQ(t, si.nr_cpus, 4);
	KTEST_EXPECT_EQ(t, si.nr_memblks, 3);
	KTEST_EXPECT_EQ(t, acpi_srat_node_of_apic(&si, 0), 0);
	KTEST_EXPECT_EQ(t, acpi_srat_node_of_apic(&si, 1), 0);
	KTEST_EXPECT_EQ(t, acpi_srat_node_of_apic(&si, 2), 1);
	KTEST_EXPECT_EQ(t, acpi_srat_node_of_apic(&si, 3), 1);
	KTEST_EXPECT_EQ(t, acpi_srat_node_of_apic(&si, 4), NUMA_NO_NODE);
	KTEST_EXPECT_TRUE(t, si.cpus[2].x2apic);
	KTEST_EXPECT_EQ(t, acpi_srat_node_of_addr(&si, 0x9ffff), 0);
	KTEST_EXPECT_EQ(t, acpi_srat_node_of_addr(&si, 0xa0000), NUMA_NO_NODE);
	KTEST_EXPECT_EQ(t, acpi_srat_node_of_addr(&si, 0xfffffff), 0);
	KTEST_EXPECT_EQ(t, acpi_srat_node_of_addr(&si, 0x10000000), 1);
	KTEST_EXPECT_EQ(t, acpi_srat_node_of_addr(&si, 0x1fffffff), 1);
	KTEST_EXPECT_EQ(t, acpi_srat_node_of_addr(&si, 0x40000000), NUMA_NO_NODE);
	KTEST_EXPECT_TRUE(t, si.memblks[2].hotpluggable);
	KTEST_EXPECT_FALSE(t, si.memblks[1].hotpluggable);
	KTEST_EXPECT_EQ(t, si.memblks[1].end, 0x10000000);
}

/* Revision 1 tables have 8-bit domains: the high bytes are not read. */
static void srat_revision1_pxm_width(struct ktest *t)
{
	struct tb b;

	srat_start(&b, 1);
	srat_cpu(&b, 0, 0x101, ACPI_SRAT_CPU_ENABLED);
	srat_mem(&b, 0x201, 0, 0x100000, ACPI_SRAT_MEM_ENABLED);
	tb_finish(&b);
	KTEST_ASSERT_EQ(t, acpi_parse_srat((void *)b.h, &si), 0);
	KTEST_EXPECT_EQ(t, si.cpus[0].pxm, 1);
	KTEST_EXPECT_EQ(t, si.memblks[0].pxm, 1);
	KTEST_EXPECT_EQ(t, si.nr_nodes, 1);

	srat_start(&b, 2);
	srat_cpu(&b, 0, 0x101, ACPI_SRAT_CPU_ENABLED);
	tb_finish(&b);
	KTEST_ASSERT_EQ(t, acpi_parse_srat((void *)b.h, &si), 0);
	KTEST_EXPECT_EQ(t, si.cpus[0].pxm, 0x101);
}

static void srat_conflicts_rejected(struct ktest *t)
{
	struct acpi_srat_mem_affinity trunc = {
		{ ACPI_SRAT_TYPE_MEMORY_AFFINITY, 24 } };
	struct tb b;
	u64 mark;

	srat_start(&b, 3);
	srat_cpu(&b, 0, 0, ACPI_SRAT_CPU_ENABLED);
	srat_mem(&b, 0, 0, 0x200000, ACPI_SRAT_MEM_ENABLED);
	srat_mem(&b, 1, 0x100000, 0x200000, ACPI_SRAT_MEM_ENABLED);
	tb_finish(&b);
	mark = ktest_log_mark();
	KTEST_EXPECT_EQ(t, acpi_parse_srat((void *)b.h, &si), -EINVAL);
	KTEST_EXPECT_EQ(t, si.nr_nodes, 0);
	KTEST_EXPECT_LOG(t, mark, "SRAT: PXM 1 [mem 0x100000-0x2fffff] overlaps PXM 0 [mem 0x0-0x1fffff]; table ignored");

	srat_start(&b, 3);
	tb_put(&b, &trunc, 24);
	tb_finish(&b);
	mark = ktest_log_mark();
	KTEST_EXPECT_EQ(t, acpi_parse_srat((void *)b.h, &si), -EINVAL);
	KTEST_EXPECT_LOG(t, mark, "SRAT: type 1 entry at offset 0x30 has length 24, needs 40");
}

/* ------------------------------------------------------------ FADT, HPET, SPCR */

static struct acpi_table_fadt *fadt_start(struct tb *b, u8 rev, u32 len)
{
	struct acpi_table_fadt *f = tb_start(b, ACPI_SIG_FADT, rev, len, sizeof(*f));

	f->sci_interrupt = 9;
	f->pm_timer_block = 0x608;
	f->pm_timer_length = 4;
	return f;
}

static void fadt_pm_timer_and_reset(struct ktest *t)
{
	static const struct acpi_generic_address reset = {
		.space_id = ACPI_ADR_SPACE_SYSTEM_IO, .bit_width = 8, .address = 0xcf9 };
	struct acpi_fadt_info fi;
	struct acpi_table_fadt *f;
	struct tb b;
	u64 mark;

	/* ACPI 2.0 FADT: 32-bit timer port only, reset register supported. */
	f = fadt_start(&b, 3, ACPI_FADT_V3_SIZE);
	f->flags = ACPI_FADT_RESET_REGISTER | ACPI_FADT_32BIT_TIMER;
	f->reset_register = reset;
	f->reset_value = 0x06;
	f->boot_flags = ACPI_FADT_8042;
	tb_finish(&b);
	KTEST_ASSERT_EQ(t, acpi_parse_fadt(f, &fi), 0);
	KTEST_EXPECT_EQ(t, fi.pm_timer.space_id, ACPI_ADR_SPACE_SYSTEM_IO);
	KTEST_EXPECT_EQ(t, fi.pm_timer.address, 0x608);
	KTEST_EXPECT_TRUE(t, fi.pm_timer_32bit);
	KTEST_EXPECT_TRUE(t, fi.reset_supported);
	KTEST_EXPECT_EQ(t, fi.reset_reg.space_id, ACPI_ADR_SPACE_SYSTEM_IO);
	KTEST_EXPECT_EQ(t, fi.reset_reg.address, 0xcf9);
	KTEST_EXPECT_EQ(t, fi.reset_value, 0x06);
	KTEST_EXPECT_EQ(t, fi.sci_interrupt, 9);
	KTEST_EXPECT_EQ(t, fi.boot_flags, ACPI_FADT_8042);
	KTEST_EXPECT_FALSE(t, fi.hw_reduced);

	/* X_PM_TMR_BLK wins over PM_TMR_BLK, with a word about the mismatch. */
	f->xpm_timer_block = (struct acpi_generic_address){
		.space_id = ACPI_ADR_SPACE_SYSTEM_IO, .bit_width = 24, .address = 0x808 };
	f->flags = 0;
	tb_finish(&b);
	mark = ktest_log_mark();
	KTEST_ASSERT_EQ(t, acpi_parse_fadt(f, &fi), 0);
	KTEST_EXPECT_EQ(t, fi.pm_timer.address, 0x808);
	KTEST_EXPECT_EQ(t, fi.pm_timer.bit_width, 24);
	KTEST_EXPECT_FALSE(t, fi.pm_timer_32bit);
	KTEST_EXPECT_FALSE(t, fi.reset_supported);	/* flag cleared */
	KTEST_EXPECT_LOG(t, mark, "FADT: PM timer at 0x608 (32-bit field) and 0x808 (64-bit field); using 0x808");

	/* HW-reduced: no PM timer whatever the fields say. */
	f->flags = ACPI_FADT_HW_REDUCED;
	tb_finish(&b);
	KTEST_ASSERT_EQ(t, acpi_parse_fadt(f, &fi), 0);
	KTEST_EXPECT_TRUE(t, fi.hw_reduced);
	KTEST_EXPECT_EQ(t, fi.pm_timer.address, 0);
}

/* An ACPI 1.0 FADT ends before the reset register: the flag alone is not enough. */
static void fadt_v1_short_table(struct ktest *t)
{
	struct acpi_fadt_info fi;
	struct acpi_table_fadt *f;
	struct tb b;
	u64 mark;

	f = fadt_start(&b, 1, ACPI_FADT_V1_SIZE);
	f->flags = ACPI_FADT_RESET_REGISTER;
	f->boot_flags = 0xffff;			/* reserved in 1.0 */
	/* Bytes past the table's end that a careless parser would read. */
	f->reset_register.space_id = ACPI_ADR_SPACE_SYSTEM_IO;
	f->reset_register.bit_width = 8;
	f->reset_register.address = 0xcf9;
	f->xpm_timer_block.address = 0x1234;
	tb_finish(&b);
	KTEST_ASSERT_EQ(t, acpi_parse_fadt(f, &fi), 0);
	KTEST_EXPECT_EQ(t, fi.pm_timer.address, 0x608);
	KTEST_EXPECT_FALSE(t, fi.reset_supported);
	KTEST_EXPECT_EQ(t, fi.boot_flags, 0);

	f->header.length = 100;
	tb_finish(&b);
	mark = ktest_log_mark();
	KTEST_EXPECT_EQ(t, acpi_parse_fadt(f, &fi), -EINVAL);
	KTEST_EXPECT_LOG(t, mark, "FADT: length 100 is shorter than its fixed part (116)");
}

static void hpet_parse(struct ktest *t)
{
	struct acpi_hpet_info hi;
	struct acpi_table_hpet *h;
	struct tb b;

	h = tb_start(&b, ACPI_SIG_HPET, 1, sizeof(*h), sizeof(*h));
	h->id = 0x8086a201;
	h->address.space_id = ACPI_ADR_SPACE_SYSTEM_MEMORY;
	h->address.bit_width = 64;
	h->address.address = 0xfed00000;
	h->sequence = 1;
	h->minimum_tick = 128;
	tb_finish(&b);
	KTEST_ASSERT_EQ(t, acpi_parse_hpet(h, &hi), 0);
	KTEST_EXPECT_EQ(t, hi.address, 0xfed00000);
	KTEST_EXPECT_EQ(t, hi.nr_comparators, 3);
	KTEST_EXPECT_TRUE(t, hi.counter_64bit);
	KTEST_EXPECT_TRUE(t, hi.legacy_capable);
	KTEST_EXPECT_EQ(t, hi.vendor_id, 0x8086);
	KTEST_EXPECT_EQ(t, hi.min_tick, 128);
	KTEST_EXPECT_EQ(t, hi.hpet_number, 1);

	h->address.space_id = ACPI_ADR_SPACE_SYSTEM_IO;
	tb_finish(&b);
	KTEST_EXPECT_EQ(t, acpi_parse_hpet(h, &hi), -EINVAL);
	h->address.space_id = ACPI_ADR_SPACE_SYSTEM_MEMORY;
	h->header.length = 52;
	tb_finish(&b);
	KTEST_EXPECT_EQ(t, acpi_parse_hpet(h, &hi), -EINVAL);
}

static struct acpi_table_spcr *spcr_make(struct tb *b, u8 type, u8 space, u64 addr)
{
	struct acpi_table_spcr *s = tb_start(b, ACPI_SIG_SPCR, 2, sizeof(*s), sizeof(*s));

	s->interface_type = type;
	s->serial_port.space_id = space;
	s->serial_port.bit_width = 8;
	s->serial_port.address = addr;
	return s;
}

static void spcr_io_and_mmio(struct ktest *t)
{
	struct acpi_spcr_info ci;
	struct acpi_table_spcr *s;
	struct tb b;
	u64 mark;

	s = spcr_make(&b, ACPI_DBG2_16550_COMPATIBLE, ACPI_ADR_SPACE_SYSTEM_IO, 0x3f8);
	s->interrupt_type = ACPI_SPCR_INTR_8259 | ACPI_SPCR_INTR_IO_APIC;
	s->pc_interrupt = 4;
	s->interrupt = 4;
	s->baud_rate = ACPI_SPCR_BAUD_115200;
	tb_finish(&b);
	KTEST_ASSERT_EQ(t, acpi_parse_spcr(s, &ci), 0);
	KTEST_EXPECT_TRUE(t, ci.is_16550);
	KTEST_EXPECT_EQ(t, ci.serial_port.space_id, ACPI_ADR_SPACE_SYSTEM_IO);
	KTEST_EXPECT_EQ(t, ci.serial_port.address, 0x3f8);
	KTEST_EXPECT_EQ(t, ci.baud, 115200);
	KTEST_EXPECT_TRUE(t, ci.has_irq && ci.irq == 4);
	KTEST_EXPECT_TRUE(t, ci.has_gsi && ci.gsi == 4);

	s = spcr_make(&b, ACPI_DBG2_16550_WITH_GAS, ACPI_ADR_SPACE_SYSTEM_MEMORY, 0xfe030000);
	s->serial_port.access_width = 3;		/* 32-bit registers */
	s->serial_port.bit_width = 32;
	s->interrupt_type = ACPI_SPCR_INTR_IO_APIC;
	s->interrupt = 36;
	s->baud_rate = ACPI_SPCR_BAUD_AS_IS;
	tb_finish(&b);
	KTEST_ASSERT_EQ(t, acpi_parse_spcr(s, &ci), 0);
	KTEST_EXPECT_TRUE(t, ci.is_16550);
	KTEST_EXPECT_EQ(t, ci.serial_port.space_id, ACPI_ADR_SPACE_SYSTEM_MEMORY);
	KTEST_EXPECT_EQ(t, ci.serial_port.address, 0xfe030000);
	KTEST_EXPECT_EQ(t, ci.serial_port.access_width, 3);
	KTEST_EXPECT_EQ(t, ci.baud, 0);
	KTEST_EXPECT_FALSE(t, ci.has_irq);
	KTEST_EXPECT_TRUE(t, ci.has_gsi && ci.gsi == 36);

	/* A PL011 is not ours; an unknown speed code keeps the firmware's. */
	s = spcr_make(&b, 0x03, ACPI_ADR_SPACE_SYSTEM_MEMORY, 0x9000000);
	s->baud_rate = 5;
	tb_finish(&b);
	mark = ktest_log_mark();
	KTEST_ASSERT_EQ(t, acpi_parse_spcr(s, &ci), 0);
	KTEST_EXPECT_FALSE(t, ci.is_16550);
	KTEST_EXPECT_EQ(t, ci.baud, 0);
	KTEST_EXPECT_LOG(t, mark, "SPCR: unknown baud rate code 5");

	s = spcr_make(&b, 0, ACPI_ADR_SPACE_SYSTEM_IO, 0);
	tb_finish(&b);
	KTEST_EXPECT_EQ(t, acpi_parse_spcr(s, &ci), -EINVAL);
}

/* ------------------------------------------------------------ this machine */

static void need_acpi(struct ktest *t)
{
	int err = acpi_table_init();

	if (err)
		ktest_skip(t, "no ACPI tables on this machine (%d)", err);
}

static void real_rsdp_and_tables(struct ktest *t)
{
	const struct acpi_table_list *l = &acpi_gbl_root_table_list;
	u64 legacy;

	KTEST_ASSERT_EQ(t, acpi_table_init(), 0);
	KTEST_EXPECT_NE(t, l->rsdp_address, 0);
	KTEST_EXPECT_NE(t, l->root_address, 0);
	ktest_info(t, "RSDP at 0x%llx rev %u, %s at 0x%llx, %u tables",
		   (unsigned long long)l->rsdp_address, l->rsdp_revision,
		   l->xsdt ? "XSDT" : "RSDT", (unsigned long long)l->root_address, l->count);
	/* Every admitted table still checks out, and lookups find each one. */
	for (unsigned int i = 0; i < l->count; i++) {
		const struct acpi_table_desc *d = &l->tables[i];

		KTEST_EXPECT_EQ(t, acpi_tb_checksum(d->pointer, d->pointer->length), 0);
		KTEST_EXPECT_TRUE(t, !memcmp(d->pointer->signature, d->signature, 4));
	}
	KTEST_EXPECT_TRUE(t, acpi_get_table(ACPI_SIG_MADT, 0) != NULL);
	KTEST_EXPECT_TRUE(t, acpi_get_table(ACPI_SIG_DSDT, 0) != NULL);
	/* PVH hands over the firmware's own RSDP, which the BIOS search also finds. */
	legacy = acpi_find_root_pointer();
	ktest_info(t, "legacy BIOS search: RSDP at 0x%llx", (unsigned long long)legacy);
	if (boot_info.protocol == BOOT_PROTO_PVH)
		KTEST_EXPECT_EQ(t, legacy, boot_info.rsdp);
}

static u32 boot_cpu_apic_id(void)
{
	u32 a, b, c, d;

	if (boot_cpu_data.has_x2apic && cpuid_eax(0) >= 0xb) {
		cpuid_count(0xb, 0, &a, &b, &c, &d);
		return d;
	}
	cpuid(1, &a, &b, &c, &d);
	return b >> 24;
}

static void real_madt(struct ktest *t)
{
	const struct acpi_madt_info *m;
	u32 gsi = 0, me = boot_cpu_apic_id();
	bool found_me = false;
	u16 flags = 0;

	need_acpi(t);
	m = acpi_get_madt_info();
	KTEST_ASSERT_TRUE(t, m != NULL);
	ktest_info(t, "MADT: %u CPUs (%u enabled), %u IOAPICs, %u overrides, %u LAPIC NMIs, LAPIC 0x%llx",
		   m->nr_cpus, m->nr_enabled, m->nr_ioapics, m->nr_overrides,
		   m->nr_lapic_nmis, (unsigned long long)m->lapic_addr);
	KTEST_EXPECT_GE(t, m->nr_cpus, 1);
	KTEST_EXPECT_GE(t, m->nr_enabled, 1);
	KTEST_EXPECT_EQ(t, m->lapic_addr, 0xfee00000);
	for (unsigned int i = 0; i < m->nr_cpus; i++) {
		for (unsigned int j = i + 1; j < m->nr_cpus; j++)
			KTEST_EXPECT_NE(t, m->cpus[i].apic_id, m->cpus[j].apic_id);
		if (m->cpus[i].apic_id == me && m->cpus[i].enabled)
			found_me = true;
	}
	KTEST_EXPECT_TRUE(t, found_me);		/* the CPU running this */
	KTEST_ASSERT_GE(t, m->nr_ioapics, 1);
	KTEST_EXPECT_EQ(t, m->ioapics[0].addr, 0xfec00000);
	KTEST_EXPECT_EQ(t, m->ioapics[0].gsi_base, 0);
	if (boot_cpu_data.has_hypervisor)
		KTEST_EXPECT_EQ(t, m->nr_ioapics, 1);
	/* The PIT's IRQ 0 arrives on IOAPIC pin 2 on QEMU and on PCs alike. */
	KTEST_EXPECT_EQ(t, acpi_irq_to_gsi(0, &gsi, &flags), 0);
	KTEST_EXPECT_EQ(t, gsi, 2);
	KTEST_EXPECT_EQ(t, acpi_override_trigger(flags), ACPI_EDGE_SENSITIVE);
}

static void real_hpet(struct ktest *t)
{
	const struct acpi_hpet_info *h;

	need_acpi(t);
	h = acpi_get_hpet_info();
	if (!h) {
		/* Machines without an HPET exist: the TSC must not claim one. */
		KTEST_ASSERT_TRUE(t, strcmp(tsc_calibration_source, "HPET") != 0);
		ktest_skip(t, "no HPET (QEMU -machine hpet=off); TSC calibrated against %s",
			   tsc_calibration_source);
	}
	ktest_info(t, "HPET #%u at 0x%llx: %u comparators, %u-bit, min tick %u",
		   h->hpet_number, (unsigned long long)h->address, h->nr_comparators,
		   h->counter_64bit ? 64 : 32, h->min_tick);
	KTEST_EXPECT_EQ(t, h->address, 0xfed00000);
	KTEST_EXPECT_GE(t, h->nr_comparators, 3);
}

/* The port must hold a running 3.58 MHz counter, not just be non-zero. */
static void real_fadt_pm_timer(struct ktest *t)
{
	const struct acpi_fadt_info *f;
	u32 mask, first, now = 0;
	unsigned int tries;

	need_acpi(t);
	f = acpi_get_fadt_info();
	KTEST_ASSERT_TRUE(t, f != NULL);
	ktest_info(t, "FADT rev %u: PM timer %s 0x%llx (%s), reset %s 0x%llx value 0x%x, SCI %u",
		   f->revision, f->pm_timer.space_id ? "I/O" : "MMIO",
		   (unsigned long long)f->pm_timer.address, f->pm_timer_32bit ? "32-bit" : "24-bit",
		   f->reset_supported ? (f->reset_reg.space_id ? "I/O" : "MMIO") : "none",
		   (unsigned long long)f->reset_reg.address, f->reset_value, f->sci_interrupt);
	KTEST_ASSERT_NE(t, f->pm_timer.address, 0);
	KTEST_ASSERT_EQ(t, f->pm_timer.space_id, ACPI_ADR_SPACE_SYSTEM_IO);
	mask = f->pm_timer_32bit ? 0xffffffff : 0xffffff;
	first = inl(f->pm_timer.address) & mask;
	for (tries = 0; tries < 100000; tries++) {
		now = inl(f->pm_timer.address) & mask;
		if (now != first)
			break;
	}
	KTEST_EXPECT_NE(t, now, first);
	KTEST_EXPECT_EQ(t, now & ~mask, 0);
}

static void real_srat(struct ktest *t)
{
	const struct acpi_madt_info *m;
	const struct acpi_srat_info *s;
	int node;

	need_acpi(t);
	s = acpi_get_srat_info();
	m = acpi_get_madt_info();
	if (!s) {
		/* Without one everything is node 0, which the helpers must say. */
		KTEST_EXPECT_EQ(t, acpi_numa_node_of_apic(0), 0);
		KTEST_EXPECT_EQ(t, acpi_numa_node_of_addr(__pa_symbol(_text)), 0);
		ktest_skip(t, "no SRAT (boot QEMU with -numa to test it)");
	}
	KTEST_ASSERT_TRUE(t, m != NULL);
	ktest_info(t, "SRAT: %u nodes, %u CPUs, %u memory ranges", s->nr_nodes, s->nr_cpus,
		   s->nr_memblks);
	KTEST_EXPECT_GE(t, s->nr_nodes, 1);
	/* Every enabled CPU and the kernel image sit on a known node. */
	for (unsigned int i = 0; i < m->nr_cpus; i++) {
		if (!m->cpus[i].enabled)
			continue;
		node = acpi_numa_node_of_apic(m->cpus[i].apic_id);
		ktest_info(t, "APIC 0x%x -> node %d", m->cpus[i].apic_id, node);
		KTEST_EXPECT_GE(t, node, 0);
		KTEST_EXPECT_LT(t, node, s->nr_nodes);
	}
	node = acpi_numa_node_of_addr(__pa_symbol(_text));
	KTEST_EXPECT_GE(t, node, 0);
	/*
	 * The documented NUMA run: -numa node,cpus=0-1 and node,cpus=2-3 with
	 * 256M each.  Any other layout gets the generic checks only.
	 */
	if (s->nr_nodes == 2 && m->nr_cpus == 4) {
		for (u32 id = 0; id < 4; id++)
			KTEST_EXPECT_EQ(t, acpi_numa_node_of_apic(id), id / 2);
		KTEST_EXPECT_EQ(t, acpi_numa_node_of_addr(0x100000), 0);
		KTEST_EXPECT_EQ(t, acpi_numa_node_of_addr(0x10000000), 1);
	}
}

/* ------------------------------------------------------------ above 4 GiB */

/*
 * Pages above 4 GiB, if this machine has RAM there: the allocator hands
 * out ZONE_NORMAL first, but keep asking a while in case it does not.
 */
static struct page *alloc_arena_above_4g(void)
{
	struct page *held[32], *found = NULL;
	unsigned int n = 0;

	while (n < ARRAY_SIZE(held)) {
		struct page *pg = alloc_pages(GFP_KERNEL, ARENA_ORDER);

		if (!pg)
			break;
		if (page_to_phys(pg) >= SZ_4G) {
			found = pg;
			break;
		}
		held[n++] = pg;
	}
	while (n)
		__free_pages(held[--n], ARENA_ORDER);
	return found;
}

/* The boot list's mapping (acpi_os_map_memory() is memremap()). */
static void *test_memremap(u64 pa, u32 len)
{
	return memremap(pa, len);
}

/*
 * UEFI firmware may put the RSDP, the XSDT and the tables above 4 GiB: the
 * 64-bit pointers must survive the whole walk (an RSDT or a u32 on the way
 * would truncate them) and the tables be mapped through memremap() as at
 * boot.  The tables are built for real RAM above 4 GiB, copied there and
 * parsed from there; the arena copy is then scribbled over so that a
 * table still read from it would fail the checks.
 */
static void tables_above_4g(struct ktest *t)
{
	struct page *pg = alloc_arena_above_4g();
	struct acpi_table_header *h;
	u64 hpet, ssdt, xsdt, rsdp, list[2];

	if (!pg)
		ktest_skip(t, "no RAM above 4 GiB (hw-8g-q35 has some)");
	arena_base = page_to_phys(pg);
	hpet = plain_table("HPET", 20);
	ssdt = plain_table("SSDT", 8);
	list[0] = hpet;
	list[1] = ssdt;
	xsdt = make_xsdt(list, 2);
	rsdp = make_rsdp(2, 0, xsdt);	/* no RSDT: it could not point up there */
	memcpy(page_address(pg), arena, ARENA_SIZE);
	memset(arena, 0xa5, sizeof(arena));
	tlist.map = test_memremap;
	ktest_info(t, "RSDP at %#llx, XSDT at %#llx, HPET at %#llx",
		   (unsigned long long)rsdp, (unsigned long long)xsdt,
		   (unsigned long long)hpet);

	KTEST_EXPECT_EQ(t, acpi_tb_validate_rsdp(memremap(rsdp, sizeof(struct acpi_table_rsdp))), 0);
	KTEST_ASSERT_EQ(t, acpi_tb_parse_root_table(&tlist, rsdp), 0);
	KTEST_EXPECT_TRUE(t, tlist.xsdt);
	KTEST_EXPECT_EQ(t, tlist.root_address, xsdt);
	KTEST_EXPECT_GE(t, tlist.root_address, SZ_4G);
	h = acpi_tb_get_table(&tlist, "HPET", 0);
	KTEST_EXPECT_TRUE(t, h == memremap(hpet, 36));
	KTEST_EXPECT_TRUE(t, h && h->length == 36 + 20);
	h = acpi_tb_get_table(&tlist, "SSDT", 0);
	KTEST_EXPECT_TRUE(t, h == memremap(ssdt, 36));
	__free_pages(pg, ARENA_ORDER);
}

static struct ktest_case acpi_cases[] = {
	KTEST_CASE(checksum_sums_bytes),
	KTEST_CASE(rsdp_v1_uses_rsdt),
	KTEST_CASE(rsdp_v2_prefers_xsdt),
	KTEST_CASE(rsdp_v2_corrupt_xsdt_falls_back),
	KTEST_CASE(rsdp_v2_bad_extended_checksum),
	KTEST_CASE(rsdp_scan_finds_aligned_valid_one),
	KTEST_CASE(bad_checksum_table_rejected),
	KTEST_CASE(truncated_tables_rejected),
	KTEST_CASE(dsdt_found_through_fadt),
	KTEST_CASE(madt_parses_every_entry_type),
	KTEST_CASE(madt_disabled_cpus),
	KTEST_CASE(madt_more_cpus_than_nr_cpus),
	KTEST_CASE(madt_duplicate_apic_id),
	KTEST_CASE(madt_overrides_and_irq_to_gsi),
	KTEST_CASE(madt_truncated_rejected),
	KTEST_CASE(srat_two_nodes),
	KTEST_CASE(srat_revision1_pxm_width),
	KTEST_CASE(srat_conflicts_rejected),
	KTEST_CASE(fadt_pm_timer_and_reset),
	KTEST_CASE(fadt_v1_short_table),
	KTEST_CASE(hpet_parse),
	KTEST_CASE(spcr_io_and_mmio),
	KTEST_CASE(tables_above_4g),
	KTEST_CASE(real_rsdp_and_tables),
	KTEST_CASE(real_madt),
	KTEST_CASE(real_hpet),
	KTEST_CASE(real_fadt_pm_timer),
	KTEST_CASE(real_srat),
	{}
};

static struct ktest_suite acpi_suite = {
	.name = "acpi",
	.cases = acpi_cases,
	.init = acpi_test_init,
};
ktest_register_suite(acpi_suite);
