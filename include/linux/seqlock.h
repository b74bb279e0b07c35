/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SEQLOCK_H
#define _LINUX_SEQLOCK_H

/*
 * Sequence counters and sequential locks (Linux 5.15's interface).
 *
 * A seqcount_t lets readers run without writing shared memory: a writer
 * makes the count odd, changes the data and makes it even again; a reader
 * samples the count (waiting while it is odd), reads the data, and retries
 * if the count moved in between:
 *
 *	do {
 *		seq = read_seqcount_begin(&s);
 *		copy = data;
 *	} while (read_seqcount_retry(&s, seq));
 *
 * Writers must be serialised by something else and must not be preempted
 * in the middle (a reader on the same CPU would spin on the odd count
 * for a whole time slice), and readers must not be able to interrupt a
 * writer on its CPU unless the writer disabled that interrupt.
 *
 * seqcount_LOCKNAME_t records the lock that serialises the writers, so
 * that lockdep can check it is held and PREEMPT_RT can cope with writers
 * that are preemptible because their lock sleeps: a reader that finds the
 * count odd takes and drops that lock, which blocks it (with priority
 * inheritance) until the preempted writer is done, instead of spinning.
 *
 * seqlock_t bundles a seqcount_spinlock_t with its spinlock_t.
 */
#include <linux/compiler.h>
#include <linux/preempt.h>
#include <linux/lockdep.h>
#include <linux/spinlock.h>
#include <asm/barrier.h>
#include <asm/processor.h>

/* The lockdep annotations of sequence counters (readers are recursive). */
#ifndef seqcount_acquire
# define seqcount_acquire(l, s, t, i)	lock_acquire_exclusive(l, s, t, NULL, i)
# define seqcount_acquire_read(l, s, t, i) lock_acquire_shared_recursive(l, s, t, NULL, i)
# define seqcount_release(l, i)		lock_release(l, i)
#endif

/* ---------------------------------------------------------- seqcount_t */

typedef struct seqcount {
	unsigned sequence;
#ifdef CONFIG_DEBUG_LOCK_ALLOC
	struct lockdep_map dep_map;
#endif
} seqcount_t;

#ifdef CONFIG_DEBUG_LOCK_ALLOC
# define SEQCOUNT_DEP_MAP_INIT(lockname)				\
	.dep_map = { .name = #lockname },

static inline void __seqcount_init(seqcount_t *s, const char *name,
				   struct lock_class_key *key)
{
	lockdep_init_map(&s->dep_map, name, key, 0);
	s->sequence = 0;
}

# define seqcount_init(s)						\
do {									\
	static struct lock_class_key __key;				\
	__seqcount_init((s), #s, &__key);				\
} while (0)

/* A reader that would deadlock against a writer shows up in lockdep. */
static inline void seqcount_lockdep_reader_access(const seqcount_t *s)
{
	seqcount_t *l = (seqcount_t *)s;
	unsigned long flags;

	local_irq_save(flags);
	seqcount_acquire_read(&l->dep_map, 0, 0, _RET_IP_);
	seqcount_release(&l->dep_map, _RET_IP_);
	local_irq_restore(flags);
}
#else
# define SEQCOUNT_DEP_MAP_INIT(lockname)
# define seqcount_init(s)	do { (s)->sequence = 0; } while (0)
# define seqcount_lockdep_reader_access(s)	do { } while (0)
#endif

#define SEQCNT_ZERO(name)	{ .sequence = 0, SEQCOUNT_DEP_MAP_INIT(name) }

/* -------------------------------------------------- seqcount_LOCKNAME_t */

/*
 * The associated lock is only remembered where somebody looks at it:
 * lockdep (to assert it is held) and PREEMPT_RT (to block on it).
 */
#if defined(CONFIG_DEBUG_LOCK_ALLOC) || defined(CONFIG_PREEMPT_RT)
# define __SEQ_LOCK(expr)	expr
#else
# define __SEQ_LOCK(expr)
#endif

#ifdef CONFIG_PREEMPT_RT
# define __SEQ_RT	true
#else
# define __SEQ_RT	false
#endif

/*
 * Each associated type gets four "seqprop" accessors that the generic
 * read and write macros dispatch to with _Generic (seqprop_*() below):
 *
 *	ptr		the embedded seqcount_t
 *	sequence	the count for a reader; on PREEMPT_RT, when the
 *			writer may be preempted and the count is odd, take
 *			and drop the lock first to wait for that writer
 *	preemptible	whether the writer side must disable preemption
 *			itself (its lock does not); never on PREEMPT_RT,
 *			where the reader's lock+unlock covers that case
 *	assert		lockdep: the writer holds the lock
 *
 * @preemptible: the lock leaves its holder preemptible (on this model).
 */
#define SEQCOUNT_LOCKNAME(lockname, locktype, preemptible, lockbase)	\
typedef struct seqcount_##lockname {					\
	seqcount_t seqcount;						\
	__SEQ_LOCK(locktype *lock);					\
} seqcount_##lockname##_t;						\
									\
static __always_inline seqcount_t *					\
__seqprop_##lockname##_ptr(const seqcount_##lockname##_t *s)		\
{									\
	return (seqcount_t *)&s->seqcount;				\
}									\
									\
static __always_inline unsigned						\
__seqprop_##lockname##_sequence(const seqcount_##lockname##_t *s)	\
{									\
	unsigned seq = READ_ONCE(s->seqcount.sequence);		\
									\
	if (!__SEQ_RT || !(preemptible))				\
		return seq;						\
	if (unlikely(seq & 1)) {					\
		__SEQ_LOCK(lockbase##_lock(s->lock));			\
		__SEQ_LOCK(lockbase##_unlock(s->lock));			\
		seq = READ_ONCE(s->seqcount.sequence);			\
	}								\
	return seq;							\
}									\
									\
static __always_inline bool						\
__seqprop_##lockname##_preemptible(const seqcount_##lockname##_t *s)	\
{									\
	return !__SEQ_RT && (preemptible);				\
}									\
									\
static __always_inline void						\
__seqprop_##lockname##_assert(const seqcount_##lockname##_t *s)	\
{									\
	__SEQ_LOCK(lockdep_assert_held(s->lock));			\
}

/* Plain seqcount_t: the caller serialises writers and disables preemption. */
/* Readers pass const pointers; the writer paths are the ones that store. */
static __always_inline seqcount_t *__seqprop_ptr(const seqcount_t *s)
{
	return (seqcount_t *)s;
}

static __always_inline unsigned __seqprop_sequence(const seqcount_t *s)
{
	return READ_ONCE(s->sequence);
}

static __always_inline bool __seqprop_preemptible(const seqcount_t *s)
{
	return false;
}

/* Linux asserts preemption is off here under lockdep; we have no such hook yet. */
static __always_inline void __seqprop_assert(const seqcount_t *s)
{
}

/*
 * raw_spinlock_t always disables preemption.  spinlock_t does on !RT; on
 * RT it sleeps and its holder can be preempted.  A mutex association
 * (seqcount_mutex_t, preemptible on every model) joins this list once
 * <linux/mutex.h> is in.
 */
SEQCOUNT_LOCKNAME(raw_spinlock, raw_spinlock_t, false, raw_spin)
SEQCOUNT_LOCKNAME(spinlock, spinlock_t, __SEQ_RT, spin)
SEQCOUNT_LOCKNAME(rwlock, rwlock_t, __SEQ_RT, read)

#define SEQCOUNT_LOCKNAME_ZERO(seq_name, assoc_lock) {			\
	.seqcount = SEQCNT_ZERO(seq_name.seqcount),			\
	__SEQ_LOCK(.lock = (assoc_lock))				\
}

#define SEQCNT_RAW_SPINLOCK_ZERO(name, lock)	SEQCOUNT_LOCKNAME_ZERO(name, lock)
#define SEQCNT_SPINLOCK_ZERO(name, lock)	SEQCOUNT_LOCKNAME_ZERO(name, lock)
#define SEQCNT_RWLOCK_ZERO(name, lock)		SEQCOUNT_LOCKNAME_ZERO(name, lock)

#define seqcount_LOCKNAME_init(s, _lock, lockname)			\
do {									\
	seqcount_##lockname##_t *____s = (s);				\
	seqcount_init(&____s->seqcount);				\
	__SEQ_LOCK(____s->lock = (_lock));				\
} while (0)

#define seqcount_raw_spinlock_init(s, lock)	seqcount_LOCKNAME_init(s, lock, raw_spinlock)
#define seqcount_spinlock_init(s, lock)		seqcount_LOCKNAME_init(s, lock, spinlock)
#define seqcount_rwlock_init(s, lock)		seqcount_LOCKNAME_init(s, lock, rwlock)

#define __seqprop_case(s, lockname, prop)				\
	seqcount_##lockname##_t: __seqprop_##lockname##_##prop

#define __seqprop(s, prop) _Generic(*(s),				\
	seqcount_t:		__seqprop_##prop,			\
	__seqprop_case((s),	raw_spinlock,	prop),			\
	__seqprop_case((s),	spinlock,	prop),			\
	__seqprop_case((s),	rwlock,		prop))

#define seqprop_ptr(s)			__seqprop(s, ptr)(s)
#define seqprop_sequence(s)		__seqprop(s, sequence)(s)
#define seqprop_preemptible(s)		__seqprop(s, preemptible)(s)
#define seqprop_assert(s)		__seqprop(s, assert)(s)

/* ------------------------------------------------------------- readers */

/* Wait for an even count; no read barrier yet. */
#define __read_seqcount_begin(s)					\
({									\
	unsigned __seq;							\
									\
	while ((__seq = seqprop_sequence(s)) & 1)			\
		cpu_relax();						\
	__seq;								\
})

/* Begin a read section without lockdep. */
#define raw_read_seqcount_begin(s)					\
({									\
	unsigned _seq = __read_seqcount_begin(s);			\
									\
	smp_rmb();	/* the count before the data */			\
	_seq;								\
})

#define read_seqcount_begin(s)						\
({									\
	seqcount_lockdep_reader_access(seqprop_ptr(s));			\
	raw_read_seqcount_begin(s);					\
})

/*
 * The count as it is, possibly odd (no waiting).  For readers that
 * handle an odd value themselves, such as the latch readers.
 */
#define raw_read_seqcount(s)						\
({									\
	unsigned __seq = seqprop_sequence(s);				\
									\
	smp_rmb();							\
	__seq;								\
})

/* The retry check without the read barrier before it. */
#define __read_seqcount_retry(s, start)					\
	do___read_seqcount_retry(seqprop_ptr(s), start)

static inline int do___read_seqcount_retry(const seqcount_t *s, unsigned start)
{
	return unlikely(READ_ONCE(s->sequence) != start);
}

/* Nonzero when a writer ran since @start was sampled: read again. */
#define read_seqcount_retry(s, start)					\
	do_read_seqcount_retry(seqprop_ptr(s), start)

static inline int do_read_seqcount_retry(const seqcount_t *s, unsigned start)
{
	smp_rmb();	/* the data before the count */
	return do___read_seqcount_retry(s, start);
}

/* ------------------------------------------------------------- writers */

static inline void do_raw_write_seqcount_begin(seqcount_t *s)
{
	s->sequence++;
	smp_wmb();	/* odd count visible before any data store */
}

static inline void do_raw_write_seqcount_end(seqcount_t *s)
{
	smp_wmb();	/* every data store visible before the even count */
	s->sequence++;
}

static inline void do_write_seqcount_begin_nested(seqcount_t *s, int subclass)
{
	seqcount_acquire(&s->dep_map, subclass, 0, _RET_IP_);
	do_raw_write_seqcount_begin(s);
}

static inline void do_write_seqcount_begin(seqcount_t *s)
{
	do_write_seqcount_begin_nested(s, 0);
}

static inline void do_write_seqcount_end(seqcount_t *s)
{
	seqcount_release(&s->dep_map, _RET_IP_);
	do_raw_write_seqcount_end(s);
}

/* Write sections without lockdep. */
#define raw_write_seqcount_begin(s)					\
do {									\
	if (seqprop_preemptible(s))					\
		preempt_disable();					\
	do_raw_write_seqcount_begin(seqprop_ptr(s));			\
} while (0)

#define raw_write_seqcount_end(s)					\
do {									\
	do_raw_write_seqcount_end(seqprop_ptr(s));			\
	if (seqprop_preemptible(s))					\
		preempt_enable();					\
} while (0)

#define write_seqcount_begin_nested(s, subclass)			\
do {									\
	seqprop_assert(s);						\
	if (seqprop_preemptible(s))					\
		preempt_disable();					\
	do_write_seqcount_begin_nested(seqprop_ptr(s), subclass);	\
} while (0)

#define write_seqcount_begin(s)		write_seqcount_begin_nested(s, 0)

#define write_seqcount_end(s)						\
do {									\
	do_write_seqcount_end(seqprop_ptr(s));				\
	if (seqprop_preemptible(s))					\
		preempt_enable();					\
} while (0)

/*
 * Make every reader in flight retry without opening a write section
 * (the count moves by two, so it stays even).
 */
#define write_seqcount_invalidate(s)					\
do {									\
	seqcount_t *__s = seqprop_ptr(s);				\
									\
	smp_wmb();							\
	seqcount_release(&__s->dep_map, _RET_IP_);			\
	__s->sequence += 2;						\
} while (0)

/* ------------------------------------------------------------- latches */

/*
 * The latch: two copies of the data, the count's low bit says which one
 * readers use.  A writer flips the count (readers move to the other copy),
 * updates the copy they left, flips again and updates the first copy, so
 * a reader never waits, not even in an NMI that interrupted the writer.
 *
 *	raw_write_seqcount_latch(&l);	update copy 0
 *	raw_write_seqcount_latch(&l);	update copy 1
 *
 *	do {
 *		seq = raw_read_seqcount_latch(&l);
 *		x = copy[seq & 1];
 *	} while (read_seqcount_latch_retry(&l, seq));
 */
typedef struct {
	seqcount_t seqcount;
} seqcount_latch_t;

#define SEQCNT_LATCH_ZERO(name)	{ .seqcount = SEQCNT_ZERO(name.seqcount) }
#define seqcount_latch_init(s)	seqcount_init(&(s)->seqcount)

static inline unsigned raw_read_seqcount_latch(const seqcount_latch_t *s)
{
	/* The copy is selected by this value: its loads depend on it. */
	return READ_ONCE(s->seqcount.sequence);
}

static inline int read_seqcount_latch_retry(const seqcount_latch_t *s, unsigned start)
{
	return read_seqcount_retry(&s->seqcount, start);
}

static inline void raw_write_seqcount_latch(seqcount_latch_t *s)
{
	smp_wmb();	/* the copy just written before the flip */
	s->seqcount.sequence++;
	smp_wmb();	/* the flip before writing the other copy */
}

/* ----------------------------------------------------------- seqlock_t */

typedef struct {
	/* Only write_seqlock() and friends write it, always under lock. */
	seqcount_spinlock_t seqcount;
	spinlock_t lock;
} seqlock_t;

#define __SEQLOCK_UNLOCKED(lockname)					\
{									\
	.seqcount = SEQCNT_SPINLOCK_ZERO(lockname, &(lockname).lock),	\
	.lock = __SPIN_LOCK_UNLOCKED(lockname)				\
}

#define seqlock_init(sl)						\
do {									\
	spin_lock_init(&(sl)->lock);					\
	seqcount_spinlock_init(&(sl)->seqcount, &(sl)->lock);		\
} while (0)

#define DEFINE_SEQLOCK(sl)	seqlock_t sl = __SEQLOCK_UNLOCKED(sl)

/* Lockless readers, as read_seqcount_begin()/retry() on the count. */
static inline unsigned read_seqbegin(const seqlock_t *sl)
{
	return read_seqcount_begin(&sl->seqcount);
}

static inline unsigned read_seqretry(const seqlock_t *sl, unsigned start)
{
	return read_seqcount_retry(&sl->seqcount, start);
}

/*
 * Writers take the spinlock, which on !RT already disables preemption and
 * on RT is what the readers block on; so the count is bumped directly,
 * not through the seqprop preempt_disable().
 */
static inline void write_seqlock(seqlock_t *sl)
{
	spin_lock(&sl->lock);
	do_write_seqcount_begin(&sl->seqcount.seqcount);
}

static inline void write_sequnlock(seqlock_t *sl)
{
	do_write_seqcount_end(&sl->seqcount.seqcount);
	spin_unlock(&sl->lock);
}

static inline void write_seqlock_bh(seqlock_t *sl)
{
	spin_lock_bh(&sl->lock);
	do_write_seqcount_begin(&sl->seqcount.seqcount);
}

static inline void write_sequnlock_bh(seqlock_t *sl)
{
	do_write_seqcount_end(&sl->seqcount.seqcount);
	spin_unlock_bh(&sl->lock);
}

static inline void write_seqlock_irq(seqlock_t *sl)
{
	spin_lock_irq(&sl->lock);
	do_write_seqcount_begin(&sl->seqcount.seqcount);
}

static inline void write_sequnlock_irq(seqlock_t *sl)
{
	do_write_seqcount_end(&sl->seqcount.seqcount);
	spin_unlock_irq(&sl->lock);
}

static inline unsigned long __write_seqlock_irqsave(seqlock_t *sl)
{
	unsigned long flags;

	spin_lock_irqsave(&sl->lock, flags);
	do_write_seqcount_begin(&sl->seqcount.seqcount);
	return flags;
}

#define write_seqlock_irqsave(lock, flags)				\
	do { flags = __write_seqlock_irqsave(lock); } while (0)

static inline void write_sequnlock_irqrestore(seqlock_t *sl, unsigned long flags)
{
	do_write_seqcount_end(&sl->seqcount.seqcount);
	spin_unlock_irqrestore(&sl->lock, flags);
}

/*
 * Locking readers: exclude writers and each other, leave the count alone
 * so the lockless readers are not disturbed.
 */
static inline void read_seqlock_excl(seqlock_t *sl)
{
	spin_lock(&sl->lock);
}

static inline void read_sequnlock_excl(seqlock_t *sl)
{
	spin_unlock(&sl->lock);
}

static inline void read_seqlock_excl_bh(seqlock_t *sl)
{
	spin_lock_bh(&sl->lock);
}

static inline void read_sequnlock_excl_bh(seqlock_t *sl)
{
	spin_unlock_bh(&sl->lock);
}

static inline void read_seqlock_excl_irq(seqlock_t *sl)
{
	spin_lock_irq(&sl->lock);
}

static inline void read_sequnlock_excl_irq(seqlock_t *sl)
{
	spin_unlock_irq(&sl->lock);
}

static inline unsigned long __read_seqlock_excl_irqsave(seqlock_t *sl)
{
	unsigned long flags;

	spin_lock_irqsave(&sl->lock, flags);
	return flags;
}

#define read_seqlock_excl_irqsave(lock, flags)				\
	do { flags = __read_seqlock_excl_irqsave(lock); } while (0)

static inline void read_sequnlock_excl_irqrestore(seqlock_t *sl, unsigned long flags)
{
	spin_unlock_irqrestore(&sl->lock, flags);
}

/*
 * Optimistic first pass, locked second pass: start with *seq even for a
 * lockless try; if need_seqretry() says it failed, make *seq odd and call
 * again to take the lock; done_seqretry() drops it if it was taken.
 */
static inline void read_seqbegin_or_lock(seqlock_t *lock, int *seq)
{
	if (!(*seq & 1))
		*seq = read_seqbegin(lock);
	else
		read_seqlock_excl(lock);
}

static inline int need_seqretry(seqlock_t *lock, int seq)
{
	return !(seq & 1) && read_seqretry(lock, seq);
}

static inline void done_seqretry(seqlock_t *lock, int seq)
{
	if (seq & 1)
		read_sequnlock_excl(lock);
}

#endif
