// SPDX-License-Identifier: GPL-2.0
/*
 * The IDT: all 256 vectors point at the stubs in entry_64.S.  Exceptions
 * that can strike on a broken stack (NMI, #DF, #MC, #DB) switch to an IST
 * stack of their own.
 */
#include <linux/kernel.h>
#include <asm/desc.h>
#include <asm/traps.h>

#define GATE_INTERRUPT	0x8e	/* present, DPL 0, 64-bit interrupt gate */

extern const u8 irq_entries_start[];
#define IRQ_ENTRY_STRIDE 16

static struct gate_desc idt_table[256] __aligned(4096);

static void set_gate(unsigned int vec, unsigned long addr, unsigned int ist)
{
	struct gate_desc *g = &idt_table[vec];

	g->offset_low = addr & 0xffff;
	g->segment = __KERNEL_CS;
	g->ist = ist;
	g->type_attr = GATE_INTERRUPT;
	g->offset_middle = (addr >> 16) & 0xffff;
	g->offset_high = addr >> 32;
	g->reserved = 0;
}

void idt_setup(void)
{
	for (unsigned int v = 0; v < 256; v++)
		set_gate(v, (unsigned long)irq_entries_start + v * IRQ_ENTRY_STRIDE, 0);
	idt_table[X86_TRAP_NMI].ist = IST_INDEX_NMI;
	idt_table[X86_TRAP_DF].ist = IST_INDEX_DF;
	idt_table[X86_TRAP_MC].ist = IST_INDEX_MCE;
	idt_table[X86_TRAP_DB].ist = IST_INDEX_DB;
}

void idt_load(void)
{
	struct desc_ptr idtr = { sizeof(idt_table) - 1, (u64)idt_table };

	asm volatile("lidt %0" : : "m"(idtr));
}

/* For the runner's self-test: an empty IDT turns the next trap into a triple fault. */
void idt_invalidate(void)
{
	struct desc_ptr idtr = { 0, 0 };

	asm volatile("lidt %0" : : "m"(idtr));
}
