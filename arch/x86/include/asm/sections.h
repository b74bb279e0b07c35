/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_SECTIONS_H
#define _ASM_X86_SECTIONS_H

/* Boundaries of the kernel image, from linker/kernel.ld. */
extern char _text[], _etext[];
extern char __start_rodata[], __end_rodata[];
extern char _sdata[], _edata[];
extern char __bss_start[], __bss_stop[];
extern char _end[];

#endif
