/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KERNEL_LOCKING_LOCKSTAT_H
#define _KERNEL_LOCKING_LOCKSTAT_H

/* lock_stat's class table and per-CPU statistics (lockstat.c, lockstat_report.c). */
#include <linux/lock_stat.h>

#define LOCKSTAT_CLASSES	512U
#define LOCKSTAT_HASH_BITS	9
#define LOCKSTAT_HASH_SIZE	(1U << LOCKSTAT_HASH_BITS)

struct lockstat_class {
	const void *key;
	const char *name;
	struct lockstat_class *hash_next;
	/*
	 * The sites, shared by all CPUs and filled without a lock as Linux
	 * does (a lost race costs one slot); the counts are per CPU.
	 */
	unsigned long contention_point[LOCKSTAT_POINTS];
	unsigned long contending_point[LOCKSTAT_POINTS];
	u8 wait_type_inner;
	/*
	 * A power-of-two size, so that a class's index (its statistics'
	 * slot) is a shift of its offset, not a division, on every hook.
	 */
} __aligned(128);
_Static_assert(sizeof(struct lockstat_class) == 128,
	       "a lockstat_class no longer fits in 128 bytes");

extern struct lockstat_class lockstat_classes[LOCKSTAT_CLASSES];
extern unsigned int lockstat_nr_classes;
extern unsigned long lockstat_class_overflow, lockstat_depth_overflow;
DECLARE_PER_CPU(struct lock_class_stats[LOCKSTAT_CLASSES], cpu_lock_stats);

#endif
