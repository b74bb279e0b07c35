/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ACPI_ACTBL_H
#define _ACPI_ACTBL_H

/*
 * Layouts of the ACPI tables irqlab reads, as the ACPI specification (6.5)
 * lays them out.  The structure and field names are ACPICA's, so a reader
 * can hold them next to Linux's include/acpi/actbl*.h; the text is ours.
 * Every structure is packed: firmware places tables at any byte address
 * and fields at the offsets the specification gives, aligned or not.
 */
#include <linux/types.h>
#include <linux/compiler.h>

#define ACPI_NAMESEG_SIZE	4
#define ACPI_OEM_ID_SIZE	6
#define ACPI_OEM_TABLE_ID_SIZE	8

#define ACPI_SIG_RSDP	"RSD PTR "
#define ACPI_SIG_RSDT	"RSDT"
#define ACPI_SIG_XSDT	"XSDT"
#define ACPI_SIG_MADT	"APIC"
#define ACPI_SIG_FADT	"FACP"
#define ACPI_SIG_DSDT	"DSDT"
#define ACPI_SIG_HPET	"HPET"
#define ACPI_SIG_SRAT	"SRAT"
#define ACPI_SIG_SPCR	"SPCR"

/* Generic Address Structure: where a register lives and how to reach it. */
struct acpi_generic_address {
	u8 space_id;		/* ACPI_ADR_SPACE_* */
	u8 bit_width;
	u8 bit_offset;
	u8 access_width;	/* 0 undefined, 1 byte, 2 word, 3 dword, 4 qword */
	u64 address;
} __packed;

#define ACPI_ADR_SPACE_SYSTEM_MEMORY	0
#define ACPI_ADR_SPACE_SYSTEM_IO	1
#define ACPI_ADR_SPACE_PCI_CONFIG	2

/* Root System Description Pointer; v1 ends after rsdt_physical_address. */
struct acpi_table_rsdp {
	char signature[8];		/* "RSD PTR " */
	u8 checksum;			/* over the first 20 bytes */
	char oem_id[ACPI_OEM_ID_SIZE];
	u8 revision;			/* 0: ACPI 1.0, 2: ACPI 2.0 and later */
	u32 rsdt_physical_address;
	u32 length;			/* the whole structure, revision >= 2 */
	u64 xsdt_physical_address;
	u8 extended_checksum;		/* over all @length bytes */
	u8 reserved[3];
} __packed;

#define ACPI_RSDP_REV0_SIZE	20
#define ACPI_RSDP_CHECKSUM_LENGTH	20
#define ACPI_RSDP_XCHECKSUM_LENGTH	36

/* The header every System Description Table starts with. */
struct acpi_table_header {
	char signature[ACPI_NAMESEG_SIZE];
	u32 length;			/* header included */
	u8 revision;
	u8 checksum;			/* all @length bytes sum to 0 */
	char oem_id[ACPI_OEM_ID_SIZE];
	char oem_table_id[ACPI_OEM_TABLE_ID_SIZE];
	u32 oem_revision;
	char asl_compiler_id[ACPI_NAMESEG_SIZE];
	u32 asl_compiler_revision;
} __packed;

/* Subtables of the MADT and SRAT start with a type and a length. */
struct acpi_subtable_header {
	u8 type;
	u8 length;
} __packed;

/* RSDT and XSDT: a header followed by 32-bit / 64-bit table addresses. */
struct acpi_table_rsdt {
	struct acpi_table_header header;
	u32 table_offset_entry[];
} __packed;

struct acpi_table_xsdt {
	struct acpi_table_header header;
	u64 table_offset_entry[];
} __packed;

/* ------------------------------------------------------------------ MADT */

struct acpi_table_madt {
	struct acpi_table_header header;
	u32 address;			/* local APIC physical address */
	u32 flags;
} __packed;

#define ACPI_MADT_PCAT_COMPAT	(1 << 0)	/* dual 8259s present */

enum acpi_madt_type {
	ACPI_MADT_TYPE_LOCAL_APIC = 0,
	ACPI_MADT_TYPE_IO_APIC = 1,
	ACPI_MADT_TYPE_INTERRUPT_OVERRIDE = 2,
	ACPI_MADT_TYPE_NMI_SOURCE = 3,
	ACPI_MADT_TYPE_LOCAL_APIC_NMI = 4,
	ACPI_MADT_TYPE_LOCAL_APIC_OVERRIDE = 5,
	ACPI_MADT_TYPE_LOCAL_X2APIC = 9,
	ACPI_MADT_TYPE_LOCAL_X2APIC_NMI = 10,
};

/* Flags of local APIC and local x2APIC entries. */
#define ACPI_MADT_ENABLED		(1 << 0)
#define ACPI_MADT_ONLINE_CAPABLE	(1 << 1)	/* MADT revision >= 5 */

/* MPS INTI flags of overrides and NMI entries. */
#define ACPI_MADT_POLARITY_MASK		(3 << 0)
#define ACPI_MADT_POLARITY_CONFORMS	(0 << 0)
#define ACPI_MADT_POLARITY_ACTIVE_HIGH	(1 << 0)
#define ACPI_MADT_POLARITY_RESERVED	(2 << 0)
#define ACPI_MADT_POLARITY_ACTIVE_LOW	(3 << 0)
#define ACPI_MADT_TRIGGER_MASK		(3 << 2)
#define ACPI_MADT_TRIGGER_CONFORMS	(0 << 2)
#define ACPI_MADT_TRIGGER_EDGE		(1 << 2)
#define ACPI_MADT_TRIGGER_RESERVED	(2 << 2)
#define ACPI_MADT_TRIGGER_LEVEL		(3 << 2)

struct acpi_madt_local_apic {
	struct acpi_subtable_header header;
	u8 processor_id;		/* ACPI processor UID */
	u8 id;				/* local APIC ID */
	u32 lapic_flags;
} __packed;

struct acpi_madt_io_apic {
	struct acpi_subtable_header header;
	u8 id;
	u8 reserved;
	u32 address;
	u32 global_irq_base;
} __packed;

struct acpi_madt_interrupt_override {
	struct acpi_subtable_header header;
	u8 bus;				/* 0: ISA */
	u8 source_irq;
	u32 global_irq;
	u16 inti_flags;
} __packed;

struct acpi_madt_nmi_source {
	struct acpi_subtable_header header;
	u16 inti_flags;
	u32 global_irq;
} __packed;

struct acpi_madt_local_apic_nmi {
	struct acpi_subtable_header header;
	u8 processor_id;		/* 0xff: every processor */
	u16 inti_flags;
	u8 lint;
} __packed;

struct acpi_madt_local_apic_override {
	struct acpi_subtable_header header;
	u16 reserved;
	u64 address;
} __packed;

struct acpi_madt_local_x2apic {
	struct acpi_subtable_header header;
	u16 reserved;
	u32 local_apic_id;
	u32 lapic_flags;
	u32 uid;
} __packed;

struct acpi_madt_local_x2apic_nmi {
	struct acpi_subtable_header header;
	u16 inti_flags;
	u32 uid;			/* 0xffffffff: every processor */
	u8 lint;
	u8 reserved[3];
} __packed;

/* ------------------------------------------------------------------ FADT */

struct acpi_table_fadt {
	struct acpi_table_header header;
	u32 facs;
	u32 dsdt;
	u8 model;
	u8 preferred_profile;
	u16 sci_interrupt;
	u32 smi_command;
	u8 acpi_enable;
	u8 acpi_disable;
	u8 s4_bios_request;
	u8 pstate_control;
	u32 pm1a_event_block;
	u32 pm1b_event_block;
	u32 pm1a_control_block;
	u32 pm1b_control_block;
	u32 pm2_control_block;
	u32 pm_timer_block;		/* I/O port */
	u32 gpe0_block;
	u32 gpe1_block;
	u8 pm1_event_length;
	u8 pm1_control_length;
	u8 pm2_control_length;
	u8 pm_timer_length;		/* 4 when there is a PM timer */
	u8 gpe0_block_length;
	u8 gpe1_block_length;
	u8 gpe1_base;
	u8 cst_control;
	u16 c2_latency;
	u16 c3_latency;
	u16 flush_size;
	u16 flush_stride;
	u8 duty_offset;
	u8 duty_width;
	u8 day_alarm;
	u8 month_alarm;
	u8 century;
	u16 boot_flags;			/* IA-PC boot architecture flags */
	u8 reserved;
	u32 flags;
	/* ACPI 1.0 tables end here (116 bytes). */
	struct acpi_generic_address reset_register;
	u8 reset_value;
	u16 arm_boot_flags;
	u8 minor_revision;
	u64 Xfacs;
	u64 Xdsdt;
	struct acpi_generic_address xpm1a_event_block;
	struct acpi_generic_address xpm1b_event_block;
	struct acpi_generic_address xpm1a_control_block;
	struct acpi_generic_address xpm1b_control_block;
	struct acpi_generic_address xpm2_control_block;
	struct acpi_generic_address xpm_timer_block;
	struct acpi_generic_address xgpe0_block;
	struct acpi_generic_address xgpe1_block;
	/* ACPI 2.0 and 3.0 tables end here (244 bytes). */
	struct acpi_generic_address sleep_control;
	struct acpi_generic_address sleep_status;
	u64 hypervisor_id;
} __packed;

#define ACPI_FADT_V1_SIZE	116
#define ACPI_FADT_V3_SIZE	244

/* FADT flags. */
#define ACPI_FADT_WBINVD		(1 << 0)
#define ACPI_FADT_32BIT_TIMER		(1 << 8)	/* PM timer is 32 bits, not 24 */
#define ACPI_FADT_RESET_REGISTER	(1 << 10)
#define ACPI_FADT_HW_REDUCED		(1 << 20)

/* FADT boot_flags (IA-PC boot architecture). */
#define ACPI_FADT_LEGACY_DEVICES	(1 << 0)
#define ACPI_FADT_8042			(1 << 1)
#define ACPI_FADT_NO_VGA		(1 << 2)
#define ACPI_FADT_NO_MSI		(1 << 3)
#define ACPI_FADT_NO_ASPM		(1 << 4)
#define ACPI_FADT_NO_CMOS_RTC		(1 << 5)

/* ------------------------------------------------------------------ HPET */

struct acpi_table_hpet {
	struct acpi_table_header header;
	u32 id;				/* the block's capabilities register, low half */
	struct acpi_generic_address address;
	u8 sequence;			/* HPET number */
	u16 minimum_tick;		/* in main counter ticks, periodic mode */
	u8 flags;
} __packed;

/* Fields of acpi_table_hpet.id. */
#define ACPI_HPET_ID_REV_MASK		0xff
#define ACPI_HPET_ID_NUM_TIM_SHIFT	8
#define ACPI_HPET_ID_NUM_TIM_MASK	(0x1f << 8)	/* comparators - 1 */
#define ACPI_HPET_ID_COUNT_SIZE_CAP	(1 << 13)	/* 64-bit main counter */
#define ACPI_HPET_ID_LEGACY_CAPABLE	(1 << 15)
#define ACPI_HPET_ID_VENDOR_SHIFT	16

/* ------------------------------------------------------------------ SRAT */

struct acpi_table_srat {
	struct acpi_table_header header;
	u32 table_revision;		/* must be 1 */
	u64 reserved;
} __packed;

enum acpi_srat_type {
	ACPI_SRAT_TYPE_CPU_AFFINITY = 0,
	ACPI_SRAT_TYPE_MEMORY_AFFINITY = 1,
	ACPI_SRAT_TYPE_X2APIC_CPU_AFFINITY = 2,
};

struct acpi_srat_cpu_affinity {
	struct acpi_subtable_header header;
	u8 proximity_domain_lo;
	u8 apic_id;
	u32 flags;
	u8 local_sapic_eid;
	u8 proximity_domain_hi[3];	/* used from SRAT revision 2 */
	u32 clock_domain;
} __packed;

#define ACPI_SRAT_CPU_ENABLED		(1 << 0)

struct acpi_srat_mem_affinity {
	struct acpi_subtable_header header;
	u32 proximity_domain;		/* only the low 8 bits before revision 2 */
	u16 reserved;
	u64 base_address;
	u64 length;
	u32 reserved1;
	u32 flags;
	u64 reserved2;
} __packed;

#define ACPI_SRAT_MEM_ENABLED		(1 << 0)
#define ACPI_SRAT_MEM_HOT_PLUGGABLE	(1 << 1)
#define ACPI_SRAT_MEM_NON_VOLATILE	(1 << 2)

struct acpi_srat_x2apic_cpu_affinity {
	struct acpi_subtable_header header;
	u16 reserved;
	u32 proximity_domain;
	u32 apic_id;
	u32 flags;			/* ACPI_SRAT_CPU_ENABLED */
	u32 clock_domain;
	u32 reserved2;
} __packed;

/* ------------------------------------------------------------------ SPCR */

/* Serial Port Console Redirection, revision 2 layout (80 bytes). */
struct acpi_table_spcr {
	struct acpi_table_header header;
	u8 interface_type;		/* ACPI_DBG2_* */
	u8 reserved[3];
	struct acpi_generic_address serial_port;
	u8 interrupt_type;		/* ACPI_SPCR_INTR_* bits */
	u8 pc_interrupt;		/* ISA IRQ, with ACPI_SPCR_INTR_8259 */
	u32 interrupt;			/* GSI, with the APIC kinds */
	u8 baud_rate;			/* ACPI_SPCR_BAUD_* code */
	u8 parity;
	u8 stop_bits;
	u8 flow_control;
	u8 terminal_type;
	u8 language;
	u16 pci_device_id;
	u16 pci_vendor_id;
	u8 pci_bus;
	u8 pci_device;
	u8 pci_function;
	u32 pci_flags;
	u8 pci_segment;
	u32 reserved2;			/* UART clock (Hz) from revision 3 */
} __packed;

/* Serial interface types shared with the DBG2 table (16550 family only). */
#define ACPI_DBG2_16550_COMPATIBLE	0x0000
#define ACPI_DBG2_16550_SUBSET		0x0001
#define ACPI_DBG2_16550_WITH_GAS	0x0012

#define ACPI_SPCR_INTR_8259		(1 << 0)
#define ACPI_SPCR_INTR_IO_APIC		(1 << 1)
#define ACPI_SPCR_INTR_IO_SAPIC		(1 << 2)
#define ACPI_SPCR_INTR_GIC		(1 << 3)

#define ACPI_SPCR_BAUD_AS_IS		0
#define ACPI_SPCR_BAUD_9600		3
#define ACPI_SPCR_BAUD_19200		4
#define ACPI_SPCR_BAUD_57600		6
#define ACPI_SPCR_BAUD_115200		7

#endif /* _ACPI_ACTBL_H */
