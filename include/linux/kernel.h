/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_KERNEL_H
#define _LINUX_KERNEL_H

/* CONFIG_* come from the command line (@autoconf.rsp, see the Makefile). */
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/printk.h>
#include <linux/bug.h>
#include <asm/barrier.h>
#include <string.h>
#include <asm/string.h>	/* KASAN: unchecked mem*() where not instrumented */
#include <stdio.h>	/* newlib: sniprintf and friends (integer-only, SSE-free) */

#define ALIGN(x, a)		(((x) + ((typeof(x))(a) - 1)) & ~((typeof(x))(a) - 1))
#define ALIGN_DOWN(x, a)	((x) & ~((typeof(x))(a) - 1))
#define IS_ALIGNED(x, a)	(((x) & ((typeof(x))(a) - 1)) == 0)
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define round_up(x, y)		ALIGN(x, y)
#define round_down(x, y)	ALIGN_DOWN(x, y)

#define min(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a < _b ? _a : _b; })
#define max(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a > _b ? _a : _b; })
#define min_t(t, a, b)	min((t)(a), (t)(b))
#define max_t(t, a, b)	max((t)(a), (t)(b))
#define clamp(v, lo, hi)	min(max(v, lo), hi)

#define SZ_1K	0x400UL
#define SZ_4K	0x1000UL
#define SZ_1M	0x100000UL
#define SZ_2M	0x200000UL
#define SZ_16M	0x1000000UL
#define SZ_1G	0x40000000UL
#define SZ_4G	0x100000000UL

/*
 * The global tracing switch (kernel/trace/trace.c), with Linux's names:
 * after tracing_off() the latency tracers file no more windows.
 */
#ifdef CONFIG_TRACER_MAX_TRACE
void tracing_on(void);
void tracing_off(void);
int tracing_is_on(void);
#else
static inline void tracing_on(void) { }
static inline void tracing_off(void) { }
static inline int tracing_is_on(void) { return 0; }
#endif

#define IRQLAB_VERSION	"0.1.0"

/* The build's configuration hash (first 8 hex digits of the .config's CRC). */
extern const char irqlab_config_hash[];

#endif /* _LINUX_KERNEL_H */
