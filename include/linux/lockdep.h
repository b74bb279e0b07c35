/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_LOCKDEP_H
#define _LINUX_LOCKDEP_H

/*
 * lockdep-lite: lock dependency validation (CONFIG_PROVE_LOCKING).  Every
 * lock type calls the acquire/release annotations below; without
 * CONFIG_PROVE_LOCKING they compile to nothing, so lock fast paths cost
 * the same as in a Linux build without lockdep.
 */
#include <linux/lockdep_types.h>
#include <linux/compiler.h>

struct task_struct;

/*
 * Maps are set up and every acquisition and release reported when lockdep
 * checks them (PROVE_LOCKING) or lock_stat times them (kernel/locking/lockstat.c
 * without lockdep); otherwise the calls vanish.
 */
#if defined(CONFIG_PROVE_LOCKING) || defined(CONFIG_LOCK_STAT)
void lockdep_init_map_type(struct lockdep_map *map, const char *name,
			   struct lock_class_key *key, int subclass,
			   u8 inner, u8 outer);
void lock_acquire(struct lockdep_map *lock, unsigned int subclass, int trylock,
		  int read, int check, struct lockdep_map *nest_lock,
		  unsigned long ip);
void lock_release(struct lockdep_map *lock, unsigned long ip);
#define lockdep_init_map_wait(l, n, k, s, inner)			\
	lockdep_init_map_type(l, n, k, s, inner, LD_WAIT_INV)
#define lockdep_init_map(l, n, k, s)					\
	lockdep_init_map_type(l, n, k, s, LD_WAIT_INV, LD_WAIT_INV)
#else
#define lockdep_init_map_type(l, n, k, s, i, o)	do { } while (0)
#define lockdep_init_map_wait(l, n, k, s, i)	do { } while (0)
#define lockdep_init_map(l, n, k, s)		do { } while (0)
#define lock_acquire(l, s, t, r, c, n, i)	do { } while (0)
#define lock_release(l, i)			do { } while (0)
#endif

#ifdef CONFIG_PROVE_LOCKING

#include <linux/atomic.h>

/* Cleared by the first report: lockdep stops checking, as in Linux. */
extern int debug_locks;
/* Reports so far (each also prints a backtrace); the run fails if non-zero. */
extern atomic_t lockdep_bug_count;

int lock_is_held_type(const struct lockdep_map *lock, int read);
void lockdep_assert_irqs_disabled_fail(const char *file, int line, bool want_off);
void lockdep_assert_fail(const char *what, const char *file, int line);

/* Forget every class of @lock and its dependencies (tests, freed keys). */
void lockdep_reset_lock(struct lockdep_map *lock);
/*
 * Tests only: forget the classes the last report named, then turn
 * checking back on after a deliberately provoked report.
 */
void lockdep_reset_after_report(void);
/* Classes and dependencies in use, for the test and boot summaries. */
void lockdep_stats(unsigned int *classes, unsigned int *deps, unsigned int *traces);

#define lock_is_held(l)		lock_is_held_type(l, -1)

/* As Linux, the assertions go quiet once lockdep has turned itself off. */
#define __lockdep_assert(cond, what) do {				\
	if (debug_locks && !(cond))					\
		lockdep_assert_fail(what, __FILE__, __LINE__);		\
} while (0)

#define lockdep_assert_held(l)						\
	__lockdep_assert(lock_is_held(&(l)->dep_map),			\
			 "lockdep_assert_held(" #l ")")
#define lockdep_assert_not_held(l)					\
	__lockdep_assert(!lock_is_held(&(l)->dep_map),			\
			 "lockdep_assert_not_held(" #l ")")
#define lockdep_assert_held_write(l)					\
	__lockdep_assert(lock_is_held_type(&(l)->dep_map, 0),		\
			 "lockdep_assert_held_write(" #l ")")
#define lockdep_assert_held_read(l)					\
	__lockdep_assert(lock_is_held_type(&(l)->dep_map, 1),		\
			 "lockdep_assert_held_read(" #l ")")
#define lockdep_assert_irqs_disabled() do {				\
	if (debug_locks && !arch_irqs_disabled())			\
		lockdep_assert_irqs_disabled_fail(__FILE__, __LINE__, true); \
} while (0)
#define lockdep_assert_irqs_enabled() do {				\
	if (debug_locks && arch_irqs_disabled())			\
		lockdep_assert_irqs_disabled_fail(__FILE__, __LINE__, false); \
} while (0)

#else /* !CONFIG_PROVE_LOCKING */

#define lockdep_assert_held(l)			do { (void)(l); } while (0)
#define lockdep_assert_not_held(l)		do { (void)(l); } while (0)
#define lockdep_assert_held_write(l)		do { (void)(l); } while (0)
#define lockdep_assert_held_read(l)		do { (void)(l); } while (0)
#define lockdep_assert_irqs_disabled()		do { } while (0)
#define lockdep_assert_irqs_enabled()		do { } while (0)

#endif /* CONFIG_PROVE_LOCKING */

/* Exclusive, shared and shared-recursive acquisitions, by lock kind. */
#define lock_acquire_exclusive(l, s, t, n, i)	lock_acquire(l, s, t, 0, 1, n, i)
#define lock_acquire_shared(l, s, t, n, i)	lock_acquire(l, s, t, 1, 1, n, i)
#define lock_acquire_shared_recursive(l, s, t, n, i) lock_acquire(l, s, t, 2, 1, n, i)

#define spin_acquire(l, s, t, i)		lock_acquire_exclusive(l, s, t, NULL, i)
#define spin_acquire_nest(l, s, t, n, i)	lock_acquire_exclusive(l, s, t, n, i)
#define spin_release(l, i)			lock_release(l, i)

#define rwlock_acquire(l, s, t, i)		lock_acquire_exclusive(l, s, t, NULL, i)
#define rwlock_acquire_read(l, s, t, i)		lock_acquire_shared_recursive(l, s, t, NULL, i)
#define rwlock_release(l, i)			lock_release(l, i)

#define mutex_acquire(l, s, t, i)		lock_acquire_exclusive(l, s, t, NULL, i)
#define mutex_acquire_nest(l, s, t, n, i)	lock_acquire_exclusive(l, s, t, n, i)
#define mutex_release(l, i)			lock_release(l, i)

#define rwsem_acquire(l, s, t, i)		lock_acquire_exclusive(l, s, t, NULL, i)
#define rwsem_acquire_nest(l, s, t, n, i)	lock_acquire_exclusive(l, s, t, n, i)
#define rwsem_acquire_read(l, s, t, i)		lock_acquire_shared(l, s, t, NULL, i)
#define rwsem_release(l, i)			lock_release(l, i)

#define lock_map_acquire(l)			lock_acquire_exclusive(l, 0, 0, NULL, _THIS_IP_)
#define lock_map_release(l)			lock_release(l, _THIS_IP_)

#define SINGLE_DEPTH_NESTING	1

#ifdef CONFIG_LOCK_STAT
/* lock_stat=0 on the command line: the hooks return at once. */
extern int lock_stat;

/*
 * A waiter for @lock found it held (lock_contended) and later got it
 * (lock_acquired); @ip is the site that asked.  Between the two is the
 * wait time, from lock_acquired() to the release the hold time.
 */
void lock_contended(struct lockdep_map *map, unsigned long ip);
void lock_acquired(struct lockdep_map *map, unsigned long ip);
/* From the rtmutex wait loop: current's pending wait slept / spun and won. */
void lock_stat_note_sleep(void);
void lock_stat_note_spin(void);
/* lockdep's own acquire/release/init call these when both are built. */
void lockstat_acquire(struct lockdep_map *lock, int read);
void lockstat_release(struct lockdep_map *lock);
void lockstat_init_map(struct lockdep_map *lock);
void lockstat_acquire_uncontended(struct lockdep_map *lock, int read,
				  unsigned long ip);
/* The table and records, at the end of a run. */
void lock_stat_report(void);

/*
 * A lock that has a try form: a failed try is a contention; the
 * acquisition is noted either way (for the bounce counts and, after a
 * wait, the wait time).  Without CONFIG_LOCK_STAT only @lock runs, so
 * the lock's code is the same as before.
 */
#define LOCK_CONTENDED_IP(_lock, try, lock, ip)				\
do {									\
	if (!try(_lock)) {						\
		lock_contended(&(_lock)->dep_map, ip);			\
		lock(_lock);						\
	}								\
	lock_acquired(&(_lock)->dep_map, ip);				\
} while (0)
#define LOCK_CONTENDED(_lock, try, lock)				\
	LOCK_CONTENDED_IP(_lock, try, lock, _RET_IP_)
/* The same for a lock function that takes the task state too. */
#define LOCK_CONTENDED_STATE(_lock, try, lock, state)			\
do {									\
	unsigned long __ls_ip = _RET_IP_;				\
									\
	if (!try(_lock)) {						\
		lock_contended(&(_lock)->dep_map, __ls_ip);		\
		lock(_lock, state);					\
	}								\
	lock_acquired(&(_lock)->dep_map, __ls_ip);			\
} while (0)
/* The same for a lock function that may fail: no acquisition then. */
#define LOCK_CONTENDED_RETURN_STATE(_lock, try, lock, state)		\
({									\
	unsigned long __ls_ip = _RET_IP_;				\
	int __ls_err = 0;						\
									\
	if (!try(_lock)) {						\
		lock_contended(&(_lock)->dep_map, __ls_ip);		\
		__ls_err = lock(_lock, state);				\
	}								\
	if (!__ls_err)							\
		lock_acquired(&(_lock)->dep_map, __ls_ip);		\
	__ls_err;							\
})
#else
static inline void lock_stat_report(void) { }
#define lock_contended(l, i)			do { } while (0)
#define lock_acquired(l, i)			do { } while (0)
#define lock_stat_note_sleep()			do { } while (0)
#define lock_stat_note_spin()			do { } while (0)
#define LOCK_CONTENDED_IP(_lock, try, lock, ip)	lock(_lock)
#define LOCK_CONTENDED(_lock, try, lock)	lock(_lock)
#define LOCK_CONTENDED_STATE(_lock, try, lock, state) lock(_lock, state)
#define LOCK_CONTENDED_RETURN_STATE(_lock, try, lock, state) lock(_lock, state)
#endif

#endif
