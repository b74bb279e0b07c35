/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_ATOMIC_LONG_H
#define _LINUX_ATOMIC_LONG_H

/*
 * atomic_long_t: a machine word (atomic64_t on x86_64), for lock words
 * that carry a task pointer plus flag bits (mutex, rw_semaphore).
 *
 * The _acquire, _release and _relaxed forms exist so that lock code can
 * state the ordering it needs, as in Linux.  Every locked read-modify-write
 * on x86 is a full barrier, so here they all compile to the same
 * instruction as the fully ordered form.
 */
#include <linux/types.h>
#include <linux/compiler.h>

typedef atomic64_t atomic_long_t;

#define ATOMIC_LONG_INIT(i)	{ (i) }

#define __ALONG_RMW(op, a, i)	__atomic_##op(&(a)->counter, (i), __ATOMIC_SEQ_CST)

static __always_inline long atomic_long_read(const atomic_long_t *a)
{
	return READ_ONCE(a->counter);
}

static __always_inline void atomic_long_set(atomic_long_t *a, long i)
{
	WRITE_ONCE(a->counter, i);
}

static __always_inline void atomic_long_add(long i, atomic_long_t *a)
{
	__ALONG_RMW(fetch_add, a, i);
}

static __always_inline void atomic_long_sub(long i, atomic_long_t *a)
{
	__ALONG_RMW(fetch_sub, a, i);
}

static __always_inline void atomic_long_dec(atomic_long_t *a)
{
	__ALONG_RMW(fetch_sub, a, 1);
}

static __always_inline void atomic_long_or(long i, atomic_long_t *a)
{
	__ALONG_RMW(fetch_or, a, i);
}

/* Clears the bits of @i. */
static __always_inline void atomic_long_andnot(long i, atomic_long_t *a)
{
	__ALONG_RMW(fetch_and, a, ~i);
}

static __always_inline long atomic_long_fetch_add(long i, atomic_long_t *a)
{
	return __ALONG_RMW(fetch_add, a, i);
}

static __always_inline long atomic_long_add_return(long i, atomic_long_t *a)
{
	return __ALONG_RMW(add_fetch, a, i);
}

static __always_inline void atomic_long_inc(atomic_long_t *a)
{
	atomic_long_add(1, a);
}

static __always_inline long atomic_long_inc_return(atomic_long_t *a)
{
	return atomic_long_add_return(1, a);
}

static __always_inline long atomic_long_fetch_or(long i, atomic_long_t *a)
{
	return __ALONG_RMW(fetch_or, a, i);
}

static __always_inline long atomic_long_fetch_andnot(long i, atomic_long_t *a)
{
	return __ALONG_RMW(fetch_and, a, ~i);
}

static __always_inline long atomic_long_xchg(atomic_long_t *a, long i)
{
	return __ALONG_RMW(exchange_n, a, i);
}

static __always_inline long atomic_long_cmpxchg(atomic_long_t *a, long old, long new)
{
	__atomic_compare_exchange_n(&a->counter, &old, new, false,
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	return old;
}

/* On failure *@old holds the value found, ready for the next attempt. */
static __always_inline bool atomic_long_try_cmpxchg(atomic_long_t *a, long *old, long new)
{
	return __atomic_compare_exchange_n(&a->counter, old, new, false,
					   __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

#undef __ALONG_RMW

/* Ordering variants: the same locked instructions (see above). */
#define atomic_long_add_return_acquire	atomic_long_add_return
#define atomic_long_add_return_release	atomic_long_add_return
#define atomic_long_fetch_add_acquire	atomic_long_fetch_add
#define atomic_long_fetch_add_release	atomic_long_fetch_add
#define atomic_long_cmpxchg_acquire	atomic_long_cmpxchg
#define atomic_long_cmpxchg_release	atomic_long_cmpxchg
#define atomic_long_cmpxchg_relaxed	atomic_long_cmpxchg
#define atomic_long_try_cmpxchg_acquire	atomic_long_try_cmpxchg
#define atomic_long_try_cmpxchg_release	atomic_long_try_cmpxchg
#define atomic_long_try_cmpxchg_relaxed	atomic_long_try_cmpxchg

#endif
