/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_ACPI_H
#define _LINUX_ACPI_H

/*
 * ACPI static tables: finding and validating them, and what irqlab takes
 * from them (CPUs and interrupt routing from the MADT, HPET, FADT timer
 * and reset register, NUMA from the SRAT, the console from the SPCR).
 *
 * Boot calls acpi_table_init() once after paging_init().  Everything it
 * learns is then available through the acpi_get_*() accessors below, which
 * return NULL when the table is absent or was rejected as corrupt.
 *
 * The parsers take an already mapped table and fill a plain structure, so
 * they run the same on firmware tables and on tables a test builds.  Table
 * discovery goes through a struct acpi_table_list whose map() turns a
 * physical address into a pointer; the boot list uses memremap(), tests
 * pass their own.
 */
#include <linux/types.h>
#include <acpi/actbl.h>

#define ACPI_MAX_TABLES		32
#define ACPI_MAX_TABLE_LENGTH	(16U << 20)	/* longer is corruption */
#define ACPI_MAX_IOAPICS	8
#define ACPI_MAX_OVERRIDES	16
#define ACPI_MAX_NMI_SOURCES	4
#define ACPI_MAX_LAPIC_NMIS	CONFIG_NR_CPUS	/* firmware often lists one per CPU */
#define ACPI_MAX_NUMNODES	16
#define ACPI_SRAT_MAX_MEMBLKS	32

#ifndef NUMA_NO_NODE
#define NUMA_NO_NODE		(-1)
#endif

/* Every processor, in the acpi_uid of a local APIC / x2APIC NMI entry. */
#define ACPI_UID_ALL_CPUS	0xffffffffU

/* Decoded interrupt polarity and trigger, with ACPICA's values. */
#define ACPI_LEVEL_SENSITIVE	0
#define ACPI_EDGE_SENSITIVE	1
#define ACPI_ACTIVE_HIGH	0
#define ACPI_ACTIVE_LOW		1

/* ------------------------------------------------------------ tables */

struct acpi_table_desc {
	u64 address;				/* physical */
	struct acpi_table_header *pointer;	/* mapped, checksum verified */
	u32 length;
	char signature[ACPI_NAMESEG_SIZE + 1];
};

struct acpi_table_list {
	/* Map @len bytes at physical @pa for reading; NULL if impossible. */
	void *(*map)(u64 pa, u32 len);
	u64 rsdp_address;
	u8 rsdp_revision;
	bool xsdt;				/* entries came from the XSDT */
	u64 root_address;			/* the XSDT or RSDT used */
	unsigned int count;
	struct acpi_table_desc tables[ACPI_MAX_TABLES];
};

extern struct acpi_table_list acpi_gbl_root_table_list;

int acpi_table_init(void);
struct acpi_table_header *acpi_get_table(const char *signature, u32 instance);

/* The pieces of acpi_table_init(), for tests and for other table lists. */
u8 acpi_tb_checksum(const void *buffer, u32 length);
int acpi_tb_validate_rsdp(const struct acpi_table_rsdp *rsdp);
const u8 *acpi_tb_scan_memory_for_rsdp(const u8 *start, u32 length);
u64 acpi_find_root_pointer(void);
int acpi_tb_parse_root_table(struct acpi_table_list *list, u64 rsdp_address);
struct acpi_table_header *acpi_tb_get_table(const struct acpi_table_list *list,
					    const char *signature, u32 instance);

/* ------------------------------------------------------------ MADT */

struct acpi_cpu_info {
	u32 apic_id;
	u32 acpi_uid;
	bool enabled;			/* usable now */
	bool online_capable;		/* disabled, but may be brought online */
	bool x2apic;			/* from a local x2APIC entry */
};

struct acpi_ioapic_info {
	u8 id;
	u32 addr;
	u32 gsi_base;
};

struct acpi_override_info {
	u8 bus;
	u8 source_irq;
	u32 gsi;
	u16 flags;			/* ACPI_MADT_POLARITY_* | ACPI_MADT_TRIGGER_* */
};

struct acpi_nmi_source_info {
	u32 gsi;
	u16 flags;
};

struct acpi_lapic_nmi_info {
	u32 acpi_uid;			/* ACPI_UID_ALL_CPUS: every CPU */
	u8 lint;			/* LINT0 or LINT1 */
	u16 flags;
	bool x2apic;			/* from a local x2APIC NMI entry */
};

struct acpi_madt_info {
	u64 lapic_addr;			/* after any type 5 override */
	bool lapic_addr_override;
	bool pcat_compat;		/* legacy 8259s present: mask them */
	u8 revision;
	unsigned int nr_cpus;		/* entries in cpus[] */
	unsigned int nr_enabled;
	unsigned int nr_cpus_ignored;	/* beyond CONFIG_NR_CPUS */
	struct acpi_cpu_info cpus[CONFIG_NR_CPUS];
	unsigned int nr_ioapics;
	struct acpi_ioapic_info ioapics[ACPI_MAX_IOAPICS];
	unsigned int nr_overrides;
	struct acpi_override_info overrides[ACPI_MAX_OVERRIDES];
	unsigned int nr_nmi_sources;
	struct acpi_nmi_source_info nmi_sources[ACPI_MAX_NMI_SOURCES];
	unsigned int nr_lapic_nmis;
	struct acpi_lapic_nmi_info lapic_nmis[ACPI_MAX_LAPIC_NMIS];
};

int acpi_parse_madt(const struct acpi_table_madt *madt, struct acpi_madt_info *out);
const struct acpi_madt_info *acpi_get_madt_info(void);

/*
 * ISA IRQ -> GSI through the interrupt source overrides: identity with
 * flags 0 (bus default) when none applies.  -EBUSY when another IRQ's
 * override took this IRQ's GSI (IRQ 2 when IRQ 0 -> GSI 2), -EINVAL
 * above 15.
 */
int acpi_madt_irq_to_gsi(const struct acpi_madt_info *info, u8 isa_irq,
			 u32 *gsi, u16 *flags);
int acpi_irq_to_gsi(u8 isa_irq, u32 *gsi, u16 *flags);

/* INTI flags -> ACPI_ACTIVE_* / ACPI_*_SENSITIVE, with ISA bus defaults. */
int acpi_override_polarity(u16 inti_flags);
int acpi_override_trigger(u16 inti_flags);

/* ------------------------------------------------------------ FADT */

struct acpi_fadt_info {
	u8 revision;
	u32 flags;			/* ACPI_FADT_* */
	u16 boot_flags;			/* ACPI_FADT_LEGACY_DEVICES, _8042, ... */
	u16 sci_interrupt;
	bool hw_reduced;
	/* PM timer; address 0: none.  I/O or memory space. */
	struct acpi_generic_address pm_timer;
	bool pm_timer_32bit;		/* else 24 bits */
	bool reset_supported;
	struct acpi_generic_address reset_reg;
	u8 reset_value;
	u64 dsdt;
	u64 facs;
};

int acpi_parse_fadt(const struct acpi_table_fadt *fadt, struct acpi_fadt_info *out);
const struct acpi_fadt_info *acpi_get_fadt_info(void);

/* ------------------------------------------------------------ HPET */

struct acpi_hpet_info {
	u64 address;			/* MMIO base of the register block */
	u8 hpet_number;
	u8 nr_comparators;
	u16 min_tick;
	bool counter_64bit;
	bool legacy_capable;
	u16 vendor_id;
	u8 page_protection;		/* low 4 bits of the table's flags */
};

int acpi_parse_hpet(const struct acpi_table_hpet *hpet, struct acpi_hpet_info *out);
const struct acpi_hpet_info *acpi_get_hpet_info(void);

/* ------------------------------------------------------------ SRAT */

struct acpi_srat_cpu_info {
	u32 apic_id;
	u32 pxm;
	int node;
	bool x2apic;			/* from an x2APIC affinity entry */
};

struct acpi_srat_mem_info {
	u64 start, end;			/* [start, end) */
	u32 pxm;
	int node;
	bool hotpluggable;
	bool nonvolatile;
};

/*
 * Node ids are handed out in the order proximity domains first appear in
 * the table, as Linux does.  Disabled entries are left out.
 */
struct acpi_srat_info {
	unsigned int nr_nodes;
	u32 node_to_pxm[ACPI_MAX_NUMNODES];
	unsigned int nr_cpus;
	struct acpi_srat_cpu_info cpus[CONFIG_NR_CPUS];
	unsigned int nr_memblks;
	struct acpi_srat_mem_info memblks[ACPI_SRAT_MAX_MEMBLKS];
	unsigned int nr_ignored;	/* entries dropped: no room */
};

int acpi_parse_srat(const struct acpi_table_srat *srat, struct acpi_srat_info *out);
const struct acpi_srat_info *acpi_get_srat_info(void);
int acpi_srat_node_of_apic(const struct acpi_srat_info *info, u32 apic_id);
int acpi_srat_node_of_addr(const struct acpi_srat_info *info, u64 pa);

/* Node 0 for everything without an SRAT; NUMA_NO_NODE if the SRAT omits it. */
int acpi_numa_node_of_apic(u32 apic_id);
int acpi_numa_node_of_addr(u64 pa);

/* ------------------------------------------------------------ SPCR */

struct acpi_spcr_info {
	u8 revision;
	u8 interface_type;		/* ACPI_DBG2_* */
	bool is_16550;
	struct acpi_generic_address serial_port;	/* I/O or memory */
	u32 baud;			/* 0: keep the firmware's setting */
	bool has_irq;			/* ISA IRQ (8259) in @irq */
	u8 irq;
	bool has_gsi;			/* I/O APIC input in @gsi */
	u32 gsi;
	u8 terminal_type;
};

int acpi_parse_spcr(const struct acpi_table_spcr *spcr, struct acpi_spcr_info *out);
const struct acpi_spcr_info *acpi_get_spcr_info(void);

#endif /* _LINUX_ACPI_H */
