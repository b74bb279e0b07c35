// SPDX-License-Identifier: GPL-2.0
/* What the loader handed over arrived intact, whichever loader it was. */
#include <linux/ktest.h>
#include <asm/bootparam.h>
#include <asm/page.h>
#include <asm/pgtable.h>
#include <asm/processor.h>
#include <asm/tsc.h>
#include <linux/moduleparam.h>
#include <linux/smp.h>

/*
 * What the test configuration booted through, so a loader that hands over
 * the wrong protocol or name fails here (unset: not checked).
 */
static char *expected_protocol;
core_param("ktest.boot_protocol", expected_protocol, charp,
	   "protocol the kernel must report: pvh, multiboot2 or efi");
static char *expected_loader;
core_param("ktest.boot_loader", expected_loader, charp,
	   "prefix the loader's name must start with");

static void boot_info_sane(struct ktest *t)
{
	u64 ram = 0;

	KTEST_EXPECT_TRUE(t, boot_info.protocol == BOOT_PROTO_PVH ||
			     boot_info.protocol == BOOT_PROTO_MB2 ||
			     boot_info.protocol == BOOT_PROTO_EFI);
	KTEST_EXPECT_GT(t, boot_info.nr_mmap, 0);
	for (u32 i = 0; i < boot_info.nr_mmap; i++)
		if (boot_info.mmap[i].type == BOOT_MEM_RAM)
			ram += boot_info.mmap[i].size;
	KTEST_EXPECT_GE(t, ram, 64ULL << 20);
	/* The runner always boots tests with run=ktest. */
	KTEST_EXPECT_TRUE(t, strstr(boot_info.cmdline, "run=ktest") != NULL);
	ktest_info(t, "protocol %s, loader \"%s\", %llu MiB RAM, RSDP %#llx",
		   boot_protocol_name(boot_info.protocol), boot_info.loader,
		   (unsigned long long)(ram >> 20), (unsigned long long)boot_info.rsdp);
}

static void boot_protocol(struct ktest *t)
{
	if (!expected_protocol && !expected_loader)
		ktest_skip(t, "no ktest.boot_protocol= or ktest.boot_loader= given");
	ktest_info(t, "protocol %s, loader \"%s\"",
		   boot_protocol_name(boot_info.protocol), boot_info.loader);
	if (expected_protocol)
		KTEST_EXPECT_EQ(t, strcmp(boot_protocol_name(boot_info.protocol),
					  expected_protocol), 0);
	if (expected_loader)
		KTEST_EXPECT_EQ(t, strncmp(boot_info.loader, expected_loader,
					   strlen(expected_loader)), 0);
}

/* The page a loader set aside below 1 MiB is the one the APs started from. */
static void loader_trampoline_page(struct ktest *t)
{
	if (!boot_info.trampoline_pa)
		ktest_skip(t, "the loader set no trampoline page aside");
	ktest_info(t, "loader's page %#llx, used %#llx",
		   (unsigned long long)boot_info.trampoline_pa,
		   (unsigned long long)smp_trampoline_page());
	KTEST_EXPECT_LT(t, boot_info.trampoline_pa, 0x100000ULL);
	KTEST_EXPECT_EQ(t, smp_trampoline_page(), boot_info.trampoline_pa);
}

/* UEFI memory types -> the kernel's, whichever loader booted this run. */
static void efi_memory_types(struct ktest *t)
{
	const u64 wb = 0x8;	/* EFI_MEMORY_WB */

	for (u32 type = 1; type <= 4; type++)		/* loader, boot services */
		KTEST_EXPECT_EQ(t, efi_mem_type_to_boot(type, wb), BOOT_MEM_RAM);
	KTEST_EXPECT_EQ(t, efi_mem_type_to_boot(7, wb), BOOT_MEM_RAM);
	KTEST_EXPECT_EQ(t, efi_mem_type_to_boot(7, 0), BOOT_MEM_RESERVED); /* not WB */
	KTEST_EXPECT_EQ(t, efi_mem_type_to_boot(0, wb), BOOT_MEM_RESERVED);
	KTEST_EXPECT_EQ(t, efi_mem_type_to_boot(5, wb), BOOT_MEM_RESERVED); /* runtime */
	KTEST_EXPECT_EQ(t, efi_mem_type_to_boot(6, wb), BOOT_MEM_RESERVED);
	KTEST_EXPECT_EQ(t, efi_mem_type_to_boot(8, wb), BOOT_MEM_UNUSABLE);
	KTEST_EXPECT_EQ(t, efi_mem_type_to_boot(9, wb), BOOT_MEM_ACPI);
	KTEST_EXPECT_EQ(t, efi_mem_type_to_boot(10, wb), BOOT_MEM_NVS);
	for (u32 type = 11; type <= 16; type++)	/* MMIO, PAL, pmem, unaccepted */
		KTEST_EXPECT_EQ(t, efi_mem_type_to_boot(type, wb), BOOT_MEM_RESERVED);
}

static void rsdp_signature(struct ktest *t)
{
	if (!boot_info.rsdp)
		ktest_skip(t, "loader gave no RSDP");
	/*
	 * memremap(), not __va(): UEFI firmware keeps the RSDP in ACPI
	 * memory, which the direct map (RAM only) does not cover.
	 */
	KTEST_EXPECT_EQ(t, memcmp(memremap(boot_info.rsdp, 8), "RSD PTR ", 8), 0);
}

static void cpu_features(struct ktest *t)
{
	KTEST_EXPECT_GT(t, strlen(boot_cpu_data.vendor), 0);
	KTEST_EXPECT_TRUE(t, boot_cpu_data.has_cx16);	/* SLUB's cmpxchg16b */
	KTEST_EXPECT_GT(t, tsc_khz, 0);
}

static struct ktest_case boot_cases[] = {
	KTEST_CASE(boot_info_sane),
	KTEST_CASE(boot_protocol),
	KTEST_CASE(loader_trampoline_page),
	KTEST_CASE(efi_memory_types),
	KTEST_CASE(rsdp_signature),
	KTEST_CASE(cpu_features),
	{}
};

static struct ktest_suite boot_suite = { .name = "boot", .cases = boot_cases };
ktest_register_suite(boot_suite);
