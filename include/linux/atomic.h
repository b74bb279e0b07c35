/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_ATOMIC_H
#define _LINUX_ATOMIC_H

#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/cmpxchg.h>
#include <asm/barrier.h>

/* Linux's atomic_t API on GCC builtins (lock-prefixed x86 instructions). */
#define ATOMIC_INIT(i)	{ (i) }

#define __ATOMIC_OPS(pfx, t, v)							\
static __always_inline v pfx##_read(const t *a) { return READ_ONCE(a->counter); }	\
static __always_inline void pfx##_set(t *a, v i) { WRITE_ONCE(a->counter, i); }	\
static __always_inline void pfx##_add(v i, t *a)					\
{ __atomic_fetch_add(&a->counter, i, __ATOMIC_SEQ_CST); }				\
static __always_inline void pfx##_sub(v i, t *a)					\
{ __atomic_fetch_sub(&a->counter, i, __ATOMIC_SEQ_CST); }				\
static __always_inline void pfx##_inc(t *a) { pfx##_add(1, a); }			\
static __always_inline void pfx##_dec(t *a) { pfx##_sub(1, a); }			\
static __always_inline v pfx##_add_return(v i, t *a)					\
{ return __atomic_add_fetch(&a->counter, i, __ATOMIC_SEQ_CST); }			\
static __always_inline v pfx##_sub_return(v i, t *a)					\
{ return __atomic_sub_fetch(&a->counter, i, __ATOMIC_SEQ_CST); }			\
static __always_inline v pfx##_fetch_add(v i, t *a)					\
{ return __atomic_fetch_add(&a->counter, i, __ATOMIC_SEQ_CST); }			\
static __always_inline v pfx##_inc_return(t *a) { return pfx##_add_return(1, a); }	\
static __always_inline v pfx##_dec_return(t *a) { return pfx##_sub_return(1, a); }	\
static __always_inline bool pfx##_dec_and_test(t *a) { return pfx##_dec_return(a) == 0; } \
static __always_inline v pfx##_xchg(t *a, v i) { return xchg(&a->counter, i); }	\
static __always_inline v pfx##_cmpxchg(t *a, v old, v new)				\
{ return cmpxchg(&a->counter, old, new); }						\
static __always_inline bool pfx##_try_cmpxchg(t *a, v *old, v new)			\
{ return try_cmpxchg(&a->counter, old, new); }

__ATOMIC_OPS(atomic, atomic_t, int)
__ATOMIC_OPS(atomic64, atomic64_t, s64)
#undef __ATOMIC_OPS

#include <linux/atomic/atomic-long.h>

#endif
