/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_LOCKDEP_TYPES_H
#define _LINUX_LOCKDEP_TYPES_H

/*
 * Types shared by every lock that lockdep-lite tracks.  A lock class is
 * keyed by the address of a struct lock_class_key: a static key in the
 * init macro (one class per init site, as Linux) or, for statically
 * defined locks, the lock itself.
 */
#include <linux/types.h>

/* Wait types: what a lock may nest inside (Linux's LD_WAIT_*). */
enum lockdep_wait_type {
	LD_WAIT_INV = 0,
	LD_WAIT_FREE,		/* wait-free: RCU and the like */
	LD_WAIT_SPIN,		/* raw_spinlock_t */
	LD_WAIT_CONFIG,		/* spinlock_t: spins on !RT, sleeps on RT */
	LD_WAIT_SLEEP,		/* mutex, rwsem, semaphore */
	LD_WAIT_MAX,
};

struct lock_class;
struct lockstat_class;

struct lock_class_key {
	char __one_byte;	/* distinct addresses for distinct keys */
};

#ifdef CONFIG_DEBUG_LOCK_ALLOC
struct lockdep_map {
	struct lock_class_key *key;
	struct lock_class *class_cache;
	const char *name;
	u8 wait_type_outer;
	u8 wait_type_inner;
#ifdef CONFIG_LOCK_STAT
	/* Where the lock was last acquired: the bounce and contending site. */
	int cpu;
	unsigned long ip;
	struct lockstat_class *stat_class;	/* lock_stat's class, once looked up */
#endif
};

#define STATIC_LOCKDEP_MAP_INIT(_name, _key)				\
	{ .key = (void *)(_key), .name = (_name) }
#endif

#ifdef CONFIG_LOCKDEP
/* Locks one task may hold at once (interrupt handlers stack on top). */
#define MAX_LOCK_DEPTH		48U

/*
 * One entry of a task's held-lock stack.  The instance is what unlock
 * matches on; the class is what dependencies are recorded between.
 */
struct held_lock {
	unsigned long acquire_ip;
	struct lockdep_map *instance;
	struct lockdep_map *nest_lock;
	struct lock_class *class;	/* NULL if lockdep ran out of classes */
	u8 subclass;
	u8 read;		/* 0 exclusive, 1 shared, 2 shared-recursive */
	u8 trylock;
	u8 check;
	u8 irq_context;		/* LOCKDEP_CTX_* where it was taken */
	u8 hardirqs_off;
};
#endif

#ifdef CONFIG_LOCK_STAT
/* Locks one task may hold at once with lock_stat timing them. */
#define LOCKSTAT_DEPTH		48U

/*
 * lock_stat's own held-lock entry, kept without lockdep: when the lock
 * was asked for or taken (the hold time starts there) and, while it was
 * contended, when the wait began and how the wait went.
 */
struct lockstat_held {
	struct lockdep_map *map;
	u64 holdtime_stamp;
	u64 waittime_stamp;	/* 0: not waiting */
	u8 read;
	u8 slept;		/* the waiter went to sleep at least once */
	u8 spun;		/* an adaptive spin ended with the lock */
};
#endif

#endif
