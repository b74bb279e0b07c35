/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_CMPXCHG_H
#define _ASM_X86_CMPXCHG_H

#include <linux/types.h>

/*
 * Locked read-modify-write on naturally aligned 1/2/4/8-byte objects.
 * GCC's __atomic builtins emit exactly lock cmpxchg / xchg / lock xadd
 * here, so they stand in for Linux's hand-written asm.
 */
#define cmpxchg(ptr, old, new) ({					\
	__typeof__(*(ptr)) __old = (old);				\
	__atomic_compare_exchange_n((ptr), &__old, (new), false,	\
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);\
	__old;								\
})

#define try_cmpxchg(ptr, oldp, new)					\
	__atomic_compare_exchange_n((ptr), (oldp), (new), false,	\
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)

#define xchg(ptr, v)	__atomic_exchange_n((ptr), (v), __ATOMIC_SEQ_CST)

/*
 * Two adjacent machine words, 16-byte aligned, compared and swapped as one
 * (lock cmpxchg16b).  SLUB swaps page->freelist and page->counters with it.
 * Returns true when both words matched and were replaced.
 */
static __always_inline bool __cmpxchg_double(volatile void *p1,
					     unsigned long o1, unsigned long o2,
					     unsigned long n1, unsigned long n2)
{
	bool ok;

	asm volatile("lock cmpxchg16b %1"
		     : "=@ccz"(ok), "+m"(*(volatile __int128 *)p1),
		       "+a"(o1), "+d"(o2)
		     : "b"(n1), "c"(n2)
		     : "memory");
	return ok;
}

#define cmpxchg_double(p1, p2, o1, o2, n1, n2) ({			\
	BUILD_BUG_ON(sizeof(*(p1)) != 8 || sizeof(*(p2)) != 8);	\
	__cmpxchg_double((p1), (unsigned long)(o1), (unsigned long)(o2),\
			 (unsigned long)(n1), (unsigned long)(n2));	\
})

#define system_has_cmpxchg_double()	(boot_cpu_data.has_cx16)

#endif
