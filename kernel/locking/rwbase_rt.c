// SPDX-License-Identifier: GPL-2.0
/*
 * The PREEMPT_RT reader/writer lock core (after Linux 5.15's rwbase_rt.c),
 * included by spinlock_rt.c for rwlock_t and by rwsem.c for rw_semaphore.
 * The includer maps the rwbase_* hooks onto its rt_mutex flavour: the
 * rtlock wait (state preserved, no failure) or a mutex-style sleep.
 *
 * readers (see linux/rwbase_rt.h):
 *   READER_BIAS + n   no writer, n readers: read_lock is a cmpxchg
 *   n (< READER_BIAS) a writer holds the rt_mutex and waits for n readers
 *   WRITER_BIAS       the writer is in
 * A reader that finds a writer in blocks on the rt_mutex, boosting the
 * writer; the writer does not boost the readers it waits for (there may be
 * any number of them), which is RT's known limit for rwlocks.
 */
#include <linux/rwbase_rt.h>

/* Read lock without a writer around: the count must stay above zero. */
static __always_inline int rwbase_read_trylock(struct rwbase_rt *rwb)
{
	int r = atomic_read(&rwb->readers);

	while (r < 0) {
		if (likely(atomic_try_cmpxchg(&rwb->readers, &r, r + 1)))
			return 1;
	}
	return 0;
}

/*
 * The reader slow path, under wait_lock, which is what orders it against
 * the writer's final step (__rwbase_write_trylock()).  Until the writer is
 * fully in (WRITER_BIAS) a reader may still enter, though the fast path is
 * closed: it may be a nested reader whose outer hold the writer waits for.
 * Once the writer is in, the reader queues on the writer's rt_mutex, which
 * lends the writer its priority, and when it gets the rt_mutex it counts
 * itself in and passes the rt_mutex straight on: owning it was only the
 * way to wait with priority inheritance.
 *
 * The test of WRITER_BIAS and the queueing are one step under wait_lock.
 * With wait_lock dropped between them, this writer could leave and the
 * next one arrive, and the reader would queue behind a writer that itself
 * waits for readers still inside: a wait with no bound.
 */
static int __rwbase_read_lock(struct rwbase_rt *rwb, unsigned int state)
{
	struct rt_mutex_base *rtm = &rwb->rtmutex;
	bool writer_in;
	int ret = 0;

	raw_spin_lock_irq(&rtm->wait_lock);
	writer_in = atomic_read(&rwb->readers) == WRITER_BIAS;
	if (writer_in)
		ret = rwbase_rtmutex_slowlock_locked(rtm, state);
	if (!ret)
		atomic_inc(&rwb->readers);
	raw_spin_unlock_irq(&rtm->wait_lock);

	if (writer_in && !ret)
		rwbase_rtmutex_unlock(rtm);
	return ret;
}

static __always_inline int rwbase_read_lock(struct rwbase_rt *rwb, unsigned int state)
{
	if (rwbase_read_trylock(rwb))
		return 0;
	return __rwbase_read_lock(rwb, state);
}

/* The last reader out while a writer waits: wake the writer. */
static void __rwbase_read_unlock(struct rwbase_rt *rwb, unsigned int state)
{
	struct rt_mutex_base *rtm = &rwb->rtmutex;
	struct task_struct *owner;

	raw_spin_lock_irq(&rtm->wait_lock);
	owner = rt_mutex_owner(rtm);
	if (owner)
		wake_up_state(owner, state);
	raw_spin_unlock_irq(&rtm->wait_lock);
}

static __always_inline void rwbase_read_unlock(struct rwbase_rt *rwb, unsigned int state)
{
	/* Only a waiting writer lets the count reach zero. */
	if (unlikely(atomic_dec_and_test(&rwb->readers)))
		__rwbase_read_unlock(rwb, state);
}

/* Give readers back their fast path, then release the writer's rt_mutex. */
static inline void __rwbase_write_unlock(struct rwbase_rt *rwb, int bias,
					 unsigned long flags)
{
	struct rt_mutex_base *rtm = &rwb->rtmutex;

	atomic_add((int)(READER_BIAS - bias), &rwb->readers);
	raw_spin_unlock_irqrestore(&rtm->wait_lock, flags);
	rwbase_rtmutex_unlock(rtm);
}

static inline void rwbase_write_unlock(struct rwbase_rt *rwb)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&rwb->rtmutex.wait_lock, flags);
	__rwbase_write_unlock(rwb, WRITER_BIAS, flags);
}

/* Become a reader without letting another writer in between. */
static inline void rwbase_write_downgrade(struct rwbase_rt *rwb)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&rwb->rtmutex.wait_lock, flags);
	__rwbase_write_unlock(rwb, WRITER_BIAS - 1, flags);
}

/* Under wait_lock: no readers left, so the writer is in. */
static inline bool __rwbase_write_trylock(struct rwbase_rt *rwb)
{
	if (!smp_load_acquire(&rwb->readers.counter)) {
		atomic_set(&rwb->readers, WRITER_BIAS);
		return 1;
	}
	return 0;
}

/*
 * A writer that owns the rt_mutex closes the readers' fast path (the count
 * drops below READER_BIAS, so rwbase_read_trylock() fails) and then, under
 * wait_lock (taken here), checks whether every reader is already gone.
 */
static inline bool rwbase_write_enter(struct rwbase_rt *rwb,
				      unsigned long *flags)
{
	atomic_sub((int)READER_BIAS, &rwb->readers);
	raw_spin_lock_irqsave(&rwb->rtmutex.wait_lock, *flags);
	return __rwbase_write_trylock(rwb);
}

/*
 * Sleep until the last reader leaves; it wakes the rt_mutex owner from
 * __rwbase_read_unlock().  Called and returning 0 with wait_lock held; a
 * signal (rw_semaphore killable forms) undoes the whole write lock and
 * returns -EINTR with wait_lock dropped.
 */
static int rwbase_write_wait(struct rwbase_rt *rwb, unsigned int state,
			     unsigned long *flags)
{
	struct rt_mutex_base *rtm = &rwb->rtmutex;

	rwbase_set_and_save_current_state(state);
	while (!rwbase_signal_pending_state(state, current)) {
		if (__rwbase_write_trylock(rwb)) {
			rwbase_restore_current_state();
			return 0;
		}
		raw_spin_unlock_irqrestore(&rtm->wait_lock, *flags);
		/* lock_stat: the writer's wait for the readers sleeps. */
		lock_stat_note_sleep();
		rwbase_schedule();
		raw_spin_lock_irqsave(&rtm->wait_lock, *flags);
		set_current_state(state);
	}
	rwbase_restore_current_state();
	__rwbase_write_unlock(rwb, 0, *flags);
	return -EINTR;
}

static int rwbase_write_lock(struct rwbase_rt *rwb, unsigned int state)
{
	struct rt_mutex_base *rtm = &rwb->rtmutex;
	unsigned long flags;

	/* Writers queue on the rt_mutex first, one at a time. */
	if (rwbase_rtmutex_lock_state(rtm, state))
		return -EINTR;

	if (!rwbase_write_enter(rwb, &flags) &&
	    rwbase_write_wait(rwb, state, &flags))
		return -EINTR;

	raw_spin_unlock_irqrestore(&rtm->wait_lock, flags);
	return 0;
}

static inline int rwbase_write_trylock(struct rwbase_rt *rwb)
{
	struct rt_mutex_base *rtm = &rwb->rtmutex;
	unsigned long flags;

	if (!rwbase_rtmutex_trylock(rtm))
		return 0;

	if (!rwbase_write_enter(rwb, &flags)) {
		/* Readers are inside: reopen their fast path, drop the rt_mutex. */
		__rwbase_write_unlock(rwb, 0, flags);
		return 0;
	}
	raw_spin_unlock_irqrestore(&rtm->wait_lock, flags);
	return 1;
}
