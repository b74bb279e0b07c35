/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_TLBFLUSH_H
#define _ASM_X86_TLBFLUSH_H

/*
 * Remove stale translations of [start, end) from every online CPU's TLB
 * (IPIs, waited for: interrupts must be enabled).  Kernel mappings are
 * global, so a large range flushes everything by toggling CR4.PGE.
 */
void flush_tlb_kernel_range(unsigned long start, unsigned long end);
/* This CPU only, global entries included. */
void __flush_tlb_all(void);

#endif
