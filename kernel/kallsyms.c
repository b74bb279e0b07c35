// SPDX-License-Identifier: GPL-2.0
/*
 * Symbol lookup for backtraces and tracer reports.  The table is generated
 * from the linked kernel by scripts/kallsyms.py and linked back in (the
 * Makefile links twice; the table sits after all text, so text addresses
 * do not move between the passes).  Only text symbols are kept.
 */
#include <linux/kernel.h>
#include <linux/kallsyms.h>
#include <stdio.h>

extern const u64 kallsyms_num_syms;
extern const u64 kallsyms_addresses[];
extern const u32 kallsyms_sizes[];
extern const u32 kallsyms_name_offsets[];
extern const char kallsyms_names[];

unsigned int kallsyms_nr_syms(void)
{
	return kallsyms_num_syms;
}

const char *kallsyms_lookup(unsigned long addr, unsigned long *size,
			    unsigned long *offset)
{
	u64 lo = 0, hi = kallsyms_num_syms;

	/* Last symbol starting at or below addr. */
	while (lo < hi) {
		u64 mid = lo + (hi - lo) / 2;

		if (kallsyms_addresses[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	lo--;
	if (addr - kallsyms_addresses[lo] >= kallsyms_sizes[lo])
		return NULL;
	if (size)
		*size = kallsyms_sizes[lo];
	if (offset)
		*offset = addr - kallsyms_addresses[lo];
	return kallsyms_names + kallsyms_name_offsets[lo];
}

unsigned long kallsyms_lookup_name(const char *name)
{
	for (u64 i = 0; i < kallsyms_num_syms; i++)
		if (!strcmp(kallsyms_names + kallsyms_name_offsets[i], name))
			return kallsyms_addresses[i];
	return 0;
}

int sprint_symbol(char *buf, unsigned long addr)
{
	unsigned long size, offset;
	const char *name = kallsyms_lookup(addr, &size, &offset);

	if (!name)
		return sniprintf(buf, KSYM_SYMBOL_LEN, "0x%016lx", addr);
	return sniprintf(buf, KSYM_SYMBOL_LEN, "%s+0x%lx/0x%lx", name, offset, size);
}

/*
 * For return addresses: the call may be the last instruction of a function
 * (a noreturn call), so look up addr - 1 but print the offset of addr.
 */
int sprint_backtrace(char *buf, unsigned long addr)
{
	unsigned long size, offset;
	const char *name = kallsyms_lookup(addr - 1, &size, &offset);

	if (!name)
		return sniprintf(buf, KSYM_SYMBOL_LEN, "0x%016lx", addr);
	return sniprintf(buf, KSYM_SYMBOL_LEN, "%s+0x%lx/0x%lx", name, offset + 1, size);
}
