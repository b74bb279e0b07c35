/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_COMPILER_H
#define _LINUX_COMPILER_H

#include <linux/kconfig.h>

/* newlib's <sys/cdefs.h> has its own versions of some of these: ours win. */
#include <sys/cdefs.h>
#undef __always_inline
#undef __section
#undef __noreturn
#undef __packed
#undef __aligned
#undef __used
#undef __weak
#undef __printf

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

#define barrier()	__asm__ __volatile__("" : : : "memory")

#define __always_inline	inline __attribute__((__always_inline__))
#define noinline	__attribute__((__noinline__))
#define __noreturn	__attribute__((__noreturn__))
#define __packed	__attribute__((__packed__))
#define __aligned(x)	__attribute__((__aligned__(x)))
#define __section(s)	__attribute__((__section__(s)))
#define __used		__attribute__((__used__))
#define __maybe_unused	__attribute__((__unused__))
#define __weak		__attribute__((__weak__))
#define __printf(a, b)	__attribute__((__format__(printf, a, b)))
#define __cold		__attribute__((__cold__))
#define __returns_twice	__attribute__((__returns_twice__))
#ifndef __must_check
#define __must_check	__attribute__((__warn_unused_result__))
#endif
/*
 * A function the address sanitizer leaves alone although its file is
 * instrumented (code that runs before the shadow exists, or that walks
 * memory it does not own, such as a stack unwinder).
 */
#define __no_sanitize_address	__attribute__((__no_sanitize_address__))

/* The caller's and this code's address, for lock and tracer annotations. */
#define _RET_IP_	((unsigned long)__builtin_return_address(0))
#define _THIS_IP_	({ __label__ __here; __here: (unsigned long)&&__here; })

#define __stringify_1(x...)	#x
#define __stringify(x...)	__stringify_1(x)

#define ___PASTE(a, b) a##b
#define __PASTE(a, b) ___PASTE(a, b)
#define __UNIQUE_ID(prefix) __PASTE(__PASTE(__UNIQUE_ID_, prefix), __COUNTER__)

/*
 * READ_ONCE/WRITE_ONCE: force exactly one access of the natural width, so
 * the compiler can neither tear, fuse nor re-load a shared variable.
 */
#define READ_ONCE(x)	(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, val)					\
	do {							\
		*(volatile __typeof__(x) *)&(x) = (val);	\
	} while (0)

#define BUILD_BUG_ON(cond)	_Static_assert(!(cond), "BUILD_BUG_ON(" #cond ")")

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define offsetof_end(t, m)	(offsetof(t, m) + sizeof(((t *)0)->m))

#define container_of(ptr, type, member) ({				\
	void *__mptr = (void *)(ptr);					\
	((type *)(__mptr - offsetof(type, member))); })

#endif /* _LINUX_COMPILER_H */
