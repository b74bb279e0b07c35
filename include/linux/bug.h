/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_BUG_H
#define _LINUX_BUG_H

#include <linux/compiler.h>

void __warn(const char *file, int line, const char *cond);
/* WARNs so far; the end of a run fails if it is not zero (tests that provoke one put it back). */
extern unsigned long taint_warn_count;
__noreturn void panic(const char *fmt, ...) __printf(1, 2);

#define WARN_ON(cond) ({						\
	int __ret_warn_on = !!(cond);					\
	if (unlikely(__ret_warn_on))					\
		__warn(__FILE__, __LINE__, #cond);			\
	unlikely(__ret_warn_on);					\
})

#define WARN_ON_ONCE(cond) ({						\
	static bool __warned;						\
	int __ret_warn_once = !!(cond);					\
	if (unlikely(__ret_warn_once && !__warned)) {			\
		__warned = true;					\
		__warn(__FILE__, __LINE__, #cond);			\
	}								\
	unlikely(__ret_warn_once);					\
})

#define BUG() panic("kernel BUG at %s:%d!", __FILE__, __LINE__)
#define BUG_ON(cond) do { if (unlikely(cond)) BUG(); } while (0)

#endif /* _LINUX_BUG_H */
