/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_NMI_H
#define _ASM_X86_NMI_H

#include <linux/types.h>

struct pt_regs;

/*
 * NMI handlers, as Linux's arch/x86/kernel/nmi.c keeps them: NMIs do not
 * queue, so every NMI_LOCAL handler is asked on every NMI and each says
 * how many events it found; NMI_UNKNOWN handlers are asked only when no
 * local one claimed the NMI.  Handlers run in NMI context: no locks an
 * interrupted context may hold, nothing that can fault.
 */
enum {
	NMI_LOCAL = 0,
	NMI_UNKNOWN,
	NMI_MAX
};

#define NMI_DONE	0
#define NMI_HANDLED	1

typedef int (*nmi_handler_t)(unsigned int type, struct pt_regs *regs);

struct nmiaction {
	struct nmiaction *next;
	nmi_handler_t handler;
	const char *name;
};

int __register_nmi_handler(unsigned int type, struct nmiaction *action);

/* Handlers are registered once and stay: an NMI may be walking the list. */
#define register_nmi_handler(t, fn, n) ({			\
	static struct nmiaction __action = {			\
		.handler = (fn), .name = (n),			\
	};							\
	__register_nmi_handler((t), &__action);			\
})

#endif /* _ASM_X86_NMI_H */
