/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_REFCOUNT_H
#define _LINUX_REFCOUNT_H

/*
 * Reference counts with Linux's refcount_t API.  Linux saturates instead of
 * wrapping; irqlab warns on the two misuses that matter here (taking a
 * reference on a dead object, dropping below zero) and otherwise behaves
 * like a plain atomic counter.
 */
#include <linux/atomic.h>
#include <linux/bug.h>

typedef struct {
	atomic_t refs;
} refcount_t;

static inline void refcount_set(refcount_t *r, int n)
{
	atomic_set(&r->refs, n);
}

static inline unsigned int refcount_read(const refcount_t *r)
{
	return atomic_read(&r->refs);
}

static inline void refcount_inc(refcount_t *r)
{
	WARN_ON_ONCE(atomic_fetch_add(1, &r->refs) <= 0);
}

/*
 * Take a reference unless the count has reached 0: an object whose last
 * reference is gone stays dead even if a lookup can still find it.
 */
static inline bool refcount_inc_not_zero(refcount_t *r)
{
	int old = atomic_read(&r->refs);

	do {
		if (!old)
			return false;
	} while (!atomic_try_cmpxchg(&r->refs, &old, old + 1));
	WARN_ON_ONCE(old < 0);
	return true;
}

static inline bool refcount_dec_and_test(refcount_t *r)
{
	int v = atomic_dec_return(&r->refs);

	WARN_ON_ONCE(v < 0);
	return v == 0;
}

#endif
