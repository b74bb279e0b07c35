// SPDX-License-Identifier: GPL-2.0
/*
 * SRAT: which proximity domain (NUMA node) each CPU and each range of
 * memory belongs to.  Proximity domains are firmware's numbers; node ids
 * are handed out densely in the order the domains first appear, as Linux
 * does, so node 0 is the first domain listed.
 */
#define pr_fmt(fmt) "ACPI: " fmt

#include <linux/acpi.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include "internal.h"

/* SRAT revision 2 (ACPI 3.0) widened proximity domains from 8 to 32 bits. */
#define SRAT_REV_WIDE_PXM	2

static const u8 srat_min_length[] = {
	[ACPI_SRAT_TYPE_CPU_AFFINITY] = sizeof(struct acpi_srat_cpu_affinity),
	[ACPI_SRAT_TYPE_MEMORY_AFFINITY] = sizeof(struct acpi_srat_mem_affinity),
	[ACPI_SRAT_TYPE_X2APIC_CPU_AFFINITY] = sizeof(struct acpi_srat_x2apic_cpu_affinity),
};

static int srat_pxm_to_node(struct acpi_srat_info *out, u32 pxm)
{
	for (unsigned int n = 0; n < out->nr_nodes; n++)
		if (out->node_to_pxm[n] == pxm)
			return n;
	if (out->nr_nodes == ACPI_MAX_NUMNODES) {
		pr_warn("SRAT: more than %d proximity domains; PXM %u ignored\n",
			ACPI_MAX_NUMNODES, pxm);
		return NUMA_NO_NODE;
	}
	out->node_to_pxm[out->nr_nodes] = pxm;
	return out->nr_nodes++;
}

static void srat_add_cpu(struct acpi_srat_info *out, u32 apic_id, u32 pxm, bool x2apic)
{
	struct acpi_srat_cpu_info *c;
	int node;

	if (acpi_srat_node_of_apic(out, apic_id) != NUMA_NO_NODE) {
		pr_warn("SRAT: APIC ID 0x%x listed twice; second entry ignored\n", apic_id);
		return;
	}
	if (out->nr_cpus == CONFIG_NR_CPUS) {
		out->nr_ignored++;
		return;
	}
	node = srat_pxm_to_node(out, pxm);
	if (node == NUMA_NO_NODE) {
		out->nr_ignored++;
		return;
	}
	c = &out->cpus[out->nr_cpus++];
	c->apic_id = apic_id;
	c->pxm = pxm;
	c->node = node;
	c->x2apic = x2apic;
}

/* Two nodes claiming the same memory leave no right answer: refuse the table. */
static int srat_add_mem(struct acpi_srat_info *out, const struct acpi_srat_mem_affinity *p,
			u32 pxm)
{
	u64 start = p->base_address, end = p->base_address + p->length;
	struct acpi_srat_mem_info *m;
	int node;

	if (end < start) {
		pr_warn("SRAT: PXM %u range at 0x%llx wraps around; table ignored\n", pxm,
			(unsigned long long)start);
		return -EINVAL;
	}
	for (unsigned int i = 0; i < out->nr_memblks; i++) {
		const struct acpi_srat_mem_info *o = &out->memblks[i];

		if (o->pxm != pxm && start < o->end && o->start < end) {
			pr_warn("SRAT: PXM %u [mem 0x%llx-0x%llx] overlaps PXM %u [mem 0x%llx-0x%llx]; table ignored\n",
				pxm, (unsigned long long)start, (unsigned long long)end - 1,
				o->pxm, (unsigned long long)o->start,
				(unsigned long long)o->end - 1);
			return -EINVAL;
		}
	}
	if (out->nr_memblks == ACPI_SRAT_MAX_MEMBLKS) {
		pr_warn("SRAT: more than %d memory ranges; 0x%llx-0x%llx ignored\n",
			ACPI_SRAT_MAX_MEMBLKS, (unsigned long long)start,
			(unsigned long long)end - 1);
		out->nr_ignored++;
		return 0;
	}
	node = srat_pxm_to_node(out, pxm);
	if (node == NUMA_NO_NODE) {
		out->nr_ignored++;
		return 0;
	}
	m = &out->memblks[out->nr_memblks++];
	m->start = start;
	m->end = end;
	m->pxm = pxm;
	m->node = node;
	m->hotpluggable = p->flags & ACPI_SRAT_MEM_HOT_PLUGGABLE;
	m->nonvolatile = p->flags & ACPI_SRAT_MEM_NON_VOLATILE;
	return 0;
}

/* Disabled entries and empty ranges are placeholders: skip them. */
static int srat_parse_entry(struct acpi_srat_info *out, u8 revision,
			    const struct acpi_subtable_header *sub)
{
	const void *e = sub;

	switch (sub->type) {
	case ACPI_SRAT_TYPE_CPU_AFFINITY: {
		const struct acpi_srat_cpu_affinity *p = e;
		u32 pxm = p->proximity_domain_lo;

		if (!(p->flags & ACPI_SRAT_CPU_ENABLED))
			return 0;
		if (revision >= SRAT_REV_WIDE_PXM)
			pxm |= (u32)p->proximity_domain_hi[0] << 8 |
			       (u32)p->proximity_domain_hi[1] << 16 |
			       (u32)p->proximity_domain_hi[2] << 24;
		srat_add_cpu(out, p->apic_id, pxm, false);
		return 0;
	}
	case ACPI_SRAT_TYPE_X2APIC_CPU_AFFINITY: {
		const struct acpi_srat_x2apic_cpu_affinity *p = e;

		if (p->flags & ACPI_SRAT_CPU_ENABLED)
			srat_add_cpu(out, p->apic_id, p->proximity_domain, true);
		return 0;
	}
	case ACPI_SRAT_TYPE_MEMORY_AFFINITY: {
		const struct acpi_srat_mem_affinity *p = e;
		u32 pxm = p->proximity_domain;

		if (!(p->flags & ACPI_SRAT_MEM_ENABLED) || !p->length)
			return 0;
		if (revision < SRAT_REV_WIDE_PXM)
			pxm &= 0xff;
		return srat_add_mem(out, p, pxm);
	}
	default:
		return 0;	/* GICC, generic initiators...: not ours */
	}
}

int acpi_parse_srat(const struct acpi_table_srat *srat, struct acpi_srat_info *out)
{
	const struct acpi_table_header *h = &srat->header;
	const struct acpi_subtable_header *sub;
	int err;

	memset(out, 0, sizeof(*out));
	err = acpi_check_fixed(h, ACPI_SIG_SRAT, sizeof(*srat), "SRAT");
	if (!err)
		err = acpi_check_subtables(h, sizeof(*srat), "SRAT", srat_min_length,
					   ARRAY_SIZE(srat_min_length));
	if (err)
		return err;
	acpi_for_each_subtable(sub, h, sizeof(*srat)) {
		err = srat_parse_entry(out, h->revision, sub);
		if (err) {
			memset(out, 0, sizeof(*out));
			return err;
		}
	}
	if (out->nr_ignored)
		pr_warn("SRAT: %u entries ignored for lack of room\n", out->nr_ignored);
	return 0;
}

int acpi_srat_node_of_apic(const struct acpi_srat_info *info, u32 apic_id)
{
	for (unsigned int i = 0; i < info->nr_cpus; i++)
		if (info->cpus[i].apic_id == apic_id)
			return info->cpus[i].node;
	return NUMA_NO_NODE;
}

int acpi_srat_node_of_addr(const struct acpi_srat_info *info, u64 pa)
{
	for (unsigned int i = 0; i < info->nr_memblks; i++)
		if (pa >= info->memblks[i].start && pa < info->memblks[i].end)
			return info->memblks[i].node;
	return NUMA_NO_NODE;
}

int acpi_numa_node_of_apic(u32 apic_id)
{
	const struct acpi_srat_info *s = acpi_get_srat_info();

	return s ? acpi_srat_node_of_apic(s, apic_id) : 0;
}

int acpi_numa_node_of_addr(u64 pa)
{
	const struct acpi_srat_info *s = acpi_get_srat_info();

	return s ? acpi_srat_node_of_addr(s, pa) : 0;
}

void acpi_srat_report(const struct acpi_srat_info *s)
{
	for (unsigned int i = 0; i < s->nr_cpus; i++)
		pr_info("SRAT: PXM %u -> %s 0x%02x -> Node %d\n", s->cpus[i].pxm,
			s->cpus[i].x2apic ? "X2APIC" : "APIC", s->cpus[i].apic_id,
			s->cpus[i].node);
	for (unsigned int i = 0; i < s->nr_memblks; i++) {
		const struct acpi_srat_mem_info *m = &s->memblks[i];

		pr_info("SRAT: Node %d PXM %u [mem 0x%08llx-0x%08llx]%s%s\n", m->node,
			m->pxm, (unsigned long long)m->start, (unsigned long long)m->end - 1,
			m->hotpluggable ? " hotplug" : "", m->nonvolatile ? " non-volatile" : "");
	}
	pr_info("SRAT: %u node%s, %u CPUs, %u memory ranges\n", s->nr_nodes,
		s->nr_nodes == 1 ? "" : "s", s->nr_cpus, s->nr_memblks);
}
