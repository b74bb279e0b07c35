/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_BARRIER_H
#define _ASM_X86_BARRIER_H

#include <linux/compiler.h>

#define mb()	asm volatile("mfence" : : : "memory")
#define rmb()	asm volatile("lfence" : : : "memory")
#define wmb()	asm volatile("sfence" : : : "memory")

/* x86 is TSO: only store->load needs a fence between CPUs. */
#define smp_mb()	asm volatile("lock; addl $0,-4(%%rsp)" : : : "memory", "cc")
#define smp_rmb()	barrier()
#define smp_wmb()	barrier()

#define smp_store_release(p, v) do { barrier(); WRITE_ONCE(*(p), (v)); } while (0)
#define smp_load_acquire(p) ({ __typeof__(*(p)) ___v = READ_ONCE(*(p)); barrier(); ___v; })

#define smp_mb__before_atomic()	barrier()
#define smp_mb__after_atomic()	barrier()

#endif
