// SPDX-License-Identifier: GPL-2.0
/* What the loader handed over arrived intact, whichever loader it was. */
#include <linux/ktest.h>
#include <asm/bootparam.h>
#include <asm/page.h>
#include <asm/processor.h>
#include <asm/tsc.h>

static void boot_info_sane(struct ktest *t)
{
	u64 ram = 0;

	KTEST_EXPECT_TRUE(t, boot_info.protocol == BOOT_PROTO_PVH ||
			     boot_info.protocol == BOOT_PROTO_MB2);
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

static void rsdp_signature(struct ktest *t)
{
	if (!boot_info.rsdp)
		ktest_skip(t, "loader gave no RSDP");
	KTEST_EXPECT_EQ(t, memcmp(__va(boot_info.rsdp), "RSD PTR ", 8), 0);
}

static void cpu_features(struct ktest *t)
{
	KTEST_EXPECT_GT(t, strlen(boot_cpu_data.vendor), 0);
	KTEST_EXPECT_TRUE(t, boot_cpu_data.has_cx16);	/* SLUB's cmpxchg16b */
	KTEST_EXPECT_GT(t, tsc_khz, 0);
}

static struct ktest_case boot_cases[] = {
	KTEST_CASE(boot_info_sane),
	KTEST_CASE(rsdp_signature),
	KTEST_CASE(cpu_features),
	{}
};

static struct ktest_suite boot_suite = { .name = "boot", .cases = boot_cases };
ktest_register_suite(boot_suite);
