// SPDX-License-Identifier: GPL-2.0
/*
 * lock_stat: Linux's lock statistics (CONFIG_LOCK_STAT) without the
 * dependency engine, so that it is cheap enough to leave on.
 *
 * A class is what lockdep would call one: the lock_class_key of the init
 * site, or the lock itself for a statically defined one.  lock_stat keeps
 * its own small class table (lockdep's needs PROVE_LOCKING and merges
 * subclasses apart); the map caches its class on first use.
 *
 * Per task, a short stack of the locks being taken or held records when
 * each was asked for, when its wait began and when it was acquired.  The
 * counts and times go to this CPU's copy of the class's statistics, with
 * interrupts off for the few instructions of the update (as Linux's
 * lock_acquired() does), so no atomic instruction is needed; a report
 * folds the CPUs' copies.
 *
 * Times are TSC ticks: under icount (SMP=1, ktest.exact_time=1) those are
 * instructions, so a measured section's hold time is exact; the table
 * shows microseconds as Linux's does, the records carry the ticks.
 */
#include <linux/kernel.h>
#include <linux/lockdep.h>
#include <linux/sched.h>
#include <linux/percpu.h>
#include <linux/irqflags.h>
#include <linux/hardirq.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/record.h>
#include <linux/kallsyms.h>
#include <linux/string.h>
#include <asm/sections.h>
#include <asm/spinlock.h>
#include <asm/processor.h>
#include <asm/tsc.h>
#include "lockstat.h"
#include "lock_key.h"

int lock_stat = 1;
core_param("lock_stat", lock_stat, int,
	   "0: do not collect lock statistics (the hooks return at once)");

struct lockstat_class lockstat_classes[LOCKSTAT_CLASSES];
unsigned int lockstat_nr_classes;
/* Classes that found the table full, maps whose held stack was full. */
unsigned long lockstat_class_overflow, lockstat_depth_overflow;

static struct lockstat_class *lockstat_hash[LOCKSTAT_HASH_SIZE];
/* Only new classes take it, with IRQs off; an arch lock: no hooks. */
static arch_spinlock_t lockstat_class_lock = __ARCH_SPIN_LOCK_UNLOCKED;

DEFINE_PER_CPU(struct lock_class_stats[LOCKSTAT_CLASSES], cpu_lock_stats);

static __always_inline u64 lockstat_clock(void)
{
	return rdtsc();
}


static unsigned int lockstat_hashfn(const void *key)
{
	return ((unsigned long)key * 0x9e3779b97f4a7c15ULL) >> (64 - LOCKSTAT_HASH_BITS);
}

/* The slow half of the lookup: once per map.  IRQs are off. */
static noinline struct lockstat_class *lockstat_register(struct lockdep_map *lock)
{
	const void *key = lock_key(lock);
	unsigned int h = lockstat_hashfn(key);
	struct lockstat_class *class;

	arch_spin_lock(&lockstat_class_lock);
	for (class = lockstat_hash[h]; class; class = class->hash_next)
		if (class->key == key)
			goto out;
	if (lockstat_nr_classes >= LOCKSTAT_CLASSES) {
		lockstat_class_overflow++;
		goto out;
	}
	class = &lockstat_classes[lockstat_nr_classes];
	class->key = key;
	class->name = lock->name ? lock->name : "NULL";
	class->wait_type_inner = lock->wait_type_inner;
	class->hash_next = lockstat_hash[h];
	lockstat_hash[h] = class;
	/* The count last: a report reads the classes below it. */
	smp_wmb();
	WRITE_ONCE(lockstat_nr_classes, lockstat_nr_classes + 1);
out:
	arch_spin_unlock(&lockstat_class_lock);
	if (class)
		WRITE_ONCE(lock->stat_class, class);
	return class;
}

static __always_inline struct lockstat_class *lockstat_class_of(struct lockdep_map *lock)
{
	struct lockstat_class *class = READ_ONCE(lock->stat_class);

	return likely(class) ? class : lockstat_register(lock);
}

/*
 * The same, called before the hook disables interrupts: the rare call to
 * lockstat_register() then happens before the hook's own work, so that
 * nothing of that work must survive a call (fewer saved registers on the
 * hooks' common path).
 */
static noinline struct lockstat_class *lockstat_register_irqsave(struct lockdep_map *lock)
{
	struct lockstat_class *class;
	unsigned long flags;

	raw_local_irq_save(flags);
	class = lockstat_register(lock);
	raw_local_irq_restore(flags);
	return class;
}

static __always_inline struct lockstat_class *lockstat_class_early(struct lockdep_map *lock)
{
	struct lockstat_class *class = READ_ONCE(lock->stat_class);

	return likely(class) ? class : lockstat_register_irqsave(lock);
}

static __always_inline struct lock_class_stats *get_lock_stats(struct lockstat_class *class)
{
	return &(*this_cpu_ptr(&cpu_lock_stats))[class - lockstat_classes];
}

/* The newest entry of current's stack for @lock, or NULL. */
static __always_inline struct lockstat_held *find_held(struct task_struct *curr,
						       struct lockdep_map *lock)
{
	for (int i = (int)curr->lockstat_depth - 1; i >= 0; i--)
		if (curr->lockstat_held[i].map == lock)
			return &curr->lockstat_held[i];
	return NULL;
}

static void lock_time_inc(struct lock_time *lt, u64 ticks)
{
	/* The first sample sets both bounds. */
	if (!lt->nr || ticks < lt->min)
		lt->min = ticks;
	lt->max = max(lt->max, ticks);
	lt->total += ticks;
	lt->nr += 1;
}

/*
 * The slot of @ip among @sites: the one that holds it, else the first
 * free one, which it then takes; LOCKSTAT_POINTS when all are others'.
 */
static int lock_point(unsigned long sites[], unsigned long ip)
{
	int i = 0;

	while (i < LOCKSTAT_POINTS && sites[i] && sites[i] != ip)
		i++;
	if (i < LOCKSTAT_POINTS && !sites[i])
		sites[i] = ip;
	return i;
}

/* ------------------------------------------------------------ the hooks */

void lockstat_init_map(struct lockdep_map *lock)
{
	lock->stat_class = NULL;
	lock->cpu = 0;
	lock->ip = 0;
}

/*
 * Push @lock on @curr's held stack, its hold time starting now; NULL when
 * the stack is full (counted, and the lock then goes unrecorded).  IRQs
 * are off: an interrupt's locks stack on the same task.
 */
static __always_inline struct lockstat_held *
lockstat_push_held(struct task_struct *curr, struct lockdep_map *lock, int read)
{
	struct lockstat_held *hl;

	if (unlikely(curr->lockstat_depth >= LOCKSTAT_DEPTH)) {
		lockstat_depth_overflow++;
		return NULL;
	}
	hl = &curr->lockstat_held[curr->lockstat_depth++];
	hl->map = lock;
	hl->read = !!read;
	hl->waittime_stamp = 0;
	hl->slept = 0;
	hl->spun = 0;
	hl->holdtime_stamp = lockstat_clock();
	return hl;
}

/* Asked for (or taken by a trylock): the hold time starts here. */
void lockstat_acquire(struct lockdep_map *lock, int read)
{
	unsigned long flags;

	if (unlikely(!lock_stat || in_nmi()))
		return;
	raw_local_irq_save(flags);
	lockstat_push_held(current, lock, read);
	raw_local_irq_restore(flags);
}

/*
 * The uncontended acquisition in one call: lockstat_acquire() and
 * lock_acquired() with nothing waited, for a lock whose try form has
 * just succeeded (lock_acquire_uncontended() in <linux/lockdep.h>).  The
 * same counts as the pair (the acquisition, a fast-path hit, an
 * acq-bounce, the class's last CPU and site); the hold time starts after
 * the try instead of before it, and interrupts are saved once, not twice.
 */
void lockstat_acquire_uncontended(struct lockdep_map *lock, int read,
				  unsigned long ip)
{
	struct task_struct *curr;
	struct lockstat_class *class;
	struct lock_class_stats *stats;
	struct lockstat_held *hl;
	unsigned long flags;
	int cpu;

	if (unlikely(!lock_stat || in_nmi()))
		return;
	class = lockstat_class_early(lock);
	raw_local_irq_save(flags);
	curr = current;
	hl = lockstat_push_held(curr, lock, read);
	if (!hl || !class)
		goto out;
	cpu = smp_processor_id();
	stats = get_lock_stats(class);
	stats->fastpath++;
	if (lock->cpu != cpu)
		stats->bounces[bounce_acquired + hl->read]++;
	lock->cpu = cpu;
	lock->ip = ip;
out:
	raw_local_irq_restore(flags);
}

void lock_contended(struct lockdep_map *map, unsigned long ip)
{
	struct lockstat_class *class;
	struct lock_class_stats *stats;
	struct lockstat_held *hl;
	unsigned long flags;
	int point;

	if (unlikely(!lock_stat || in_nmi()))
		return;
	raw_local_irq_save(flags);
	hl = find_held(current, map);
	if (!hl)
		goto out;
	class = lockstat_class_of(map);
	if (!class)
		goto out;
	hl->waittime_stamp = lockstat_clock();
	stats = get_lock_stats(class);
	point = lock_point(class->contention_point, ip);
	if (point < LOCKSTAT_POINTS)
		stats->contention_point[point]++;
	point = lock_point(class->contending_point, READ_ONCE(map->ip));
	if (point < LOCKSTAT_POINTS)
		stats->contending_point[point]++;
	if (READ_ONCE(map->cpu) != smp_processor_id())
		stats->bounces[bounce_contended + hl->read]++;
out:
	raw_local_irq_restore(flags);
}

void lock_acquired(struct lockdep_map *map, unsigned long ip)
{
	struct lockstat_class *class;
	struct lock_class_stats *stats;
	struct lockstat_held *hl;
	unsigned long flags;
	int cpu;

	if (unlikely(!lock_stat || in_nmi()))
		return;
	raw_local_irq_save(flags);
	hl = find_held(current, map);
	if (!hl)
		goto out;
	class = lockstat_class_of(map);
	if (!class)
		goto out;
	cpu = smp_processor_id();
	stats = get_lock_stats(class);
	if (hl->waittime_stamp) {
		u64 now = lockstat_clock();
		struct lock_time *wt = hl->read ? &stats->read_waittime :
						  &stats->write_waittime;

		lock_time_inc(wt, now - hl->waittime_stamp);
		hl->waittime_stamp = 0;
		hl->holdtime_stamp = now;
		stats->spin_acquired += hl->spun;
		stats->slept_waits += hl->slept != 0;
		stats->sleeps += hl->slept;
	} else {
		stats->fastpath++;
	}
	if (map->cpu != cpu)
		stats->bounces[bounce_acquired + hl->read]++;
	map->cpu = cpu;
	map->ip = ip;
out:
	raw_local_irq_restore(flags);
}

/* Out of the release's way: most locks are released newest first. */
static noinline void lockstat_close_gap(struct task_struct *curr,
					struct lockstat_held *hl)
{
	for (int i = hl - curr->lockstat_held; i + 1 < (int)curr->lockstat_depth; i++)
		curr->lockstat_held[i] = curr->lockstat_held[i + 1];
}

/* Released: the hold time ends, and the acquisition counts. */
void lockstat_release(struct lockdep_map *lock)
{
	struct task_struct *curr;
	struct lockstat_class *class;
	struct lock_class_stats *stats;
	struct lockstat_held *hl;
	unsigned long flags;
	u64 holdtime;

	if (unlikely(!lock_stat || in_nmi()))
		return;
	class = lockstat_class_early(lock);
	raw_local_irq_save(flags);
	curr = current;
	hl = find_held(curr, lock);
	if (!hl)
		goto out;
	holdtime = lockstat_clock() - hl->holdtime_stamp;
	if (class) {
		stats = get_lock_stats(class);
		lock_time_inc(hl->read ? &stats->read_holdtime : &stats->write_holdtime,
			      holdtime);
	}
	/* Locks are not always released in order: close the gap. */
	if (unlikely(hl != &curr->lockstat_held[curr->lockstat_depth - 1]))
		lockstat_close_gap(curr, hl);
	curr->lockstat_depth--;
out:
	raw_local_irq_restore(flags);
}

/* The rtmutex wait loop is about to sleep for current's newest wait. */
static struct lockstat_held *current_wait(void)
{
	struct task_struct *curr = current;

	for (int i = (int)curr->lockstat_depth - 1; i >= 0; i--)
		if (curr->lockstat_held[i].waittime_stamp)
			return &curr->lockstat_held[i];
	return NULL;
}

void lock_stat_note_sleep(void)
{
	struct lockstat_held *hl;
	unsigned long flags;

	raw_local_irq_save(flags);
	hl = current_wait();
	if (hl && hl->slept < 255)
		hl->slept++;
	raw_local_irq_restore(flags);
}

void lock_stat_note_spin(void)
{
	struct lockstat_held *hl;
	unsigned long flags;

	raw_local_irq_save(flags);
	hl = current_wait();
	if (hl)
		hl->spun = 1;
	raw_local_irq_restore(flags);
}

#ifndef CONFIG_PROVE_LOCKING
/* Without lockdep these are lock_stat's alone. */
void lockdep_init_map_type(struct lockdep_map *map, const char *name,
			   struct lock_class_key *key, int subclass,
			   u8 inner, u8 outer)
{
	map->name = name ? name : "NULL";
	map->key = key;
	map->class_cache = NULL;
	map->wait_type_inner = inner;
	map->wait_type_outer = outer;
	lockstat_init_map(map);
}

void lock_acquire(struct lockdep_map *lock, unsigned int subclass, int trylock,
		  int read, int check, struct lockdep_map *nest_lock,
		  unsigned long ip)
{
	lockstat_acquire(lock, read);
}

void lock_release(struct lockdep_map *map, unsigned long ip)
{
	lockstat_release(map);
}
#endif
