/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_RWLOCK_H
#define _ASM_X86_RWLOCK_H

/* x86 uses the generic queued rwlock, as Linux does since 4.x. */
#include <asm-generic/qrwlock.h>

#endif
