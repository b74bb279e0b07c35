// SPDX-License-Identifier: GPL-2.0
/*
 * Run-time initialisation of a raw_spinlock_t (or a !RT spinlock_t's
 * rlock) with a lockdep class: the key is the static lock_class_key of
 * the raw_spin_lock_init()/spin_lock_init() call site, so every lock
 * initialised there shares one class, as in Linux.
 */
#include <linux/spinlock.h>

void __raw_spin_lock_init(raw_spinlock_t *lock, const char *name,
			  struct lock_class_key *key, short inner)
{
	lockdep_init_map_wait(&lock->dep_map, name, key, 0, inner);
	lock->raw_lock = (arch_spinlock_t)__ARCH_SPIN_LOCK_UNLOCKED;
}
