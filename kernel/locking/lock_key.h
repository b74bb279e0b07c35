/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KERNEL_LOCKING_LOCK_KEY_H
#define _KERNEL_LOCKING_LOCK_KEY_H
/*
 * The class key of a lock, shared by lockdep and lock_stat so both sort
 * locks into the same classes: the init site's lock_class_key, else a
 * lock in the kernel image is its own key (as Linux does for static
 * objects), a per-CPU copy maps back to its variable in .data..percpu,
 * and anything else (a static initializer used on dynamic memory) is
 * keyed by its initializer's name string, a literal per init site.
 */
#include <linux/lockdep_types.h>
#include <linux/percpu.h>
#include <asm/sections.h>

static inline const void *lock_key(const struct lockdep_map *lock)
{
	unsigned long a = (unsigned long)lock;

	if (lock->key)
		return lock->key;
	if (a >= (unsigned long)_text && a < (unsigned long)_end)
		return lock;
	if (a >= PCPU_BASE && a < PCPU_BASE + NR_CPUS * PCPU_UNIT_STRIDE) {
		unsigned long cpu = (a - PCPU_BASE) / PCPU_UNIT_STRIDE;
		unsigned long can = a - per_cpu_offset(cpu);

		if (can >= (unsigned long)__per_cpu_start &&
		    can < (unsigned long)__per_cpu_end)
			return (const void *)can;
	}
	return lock->name ? (const void *)lock->name : (const void *)lock;
}

#endif
