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

static int __rwbase_read_lock(struct rwbase_rt *rwb, unsigned int state)
{
	struct rt_mutex_base *rtm = &rwb->rtmutex;
	int ret;

	raw_spin_lock_irq(&rtm->wait_lock);
	/*
	 * A writer is on its way but not in yet: let the reader in.  It may
	 * be a recursive reader whose first hold the writer waits for.
	 */
	if (atomic_read(&rwb->readers) != WRITER_BIAS) {
		atomic_inc(&rwb->readers);
		raw_spin_unlock_irq(&rtm->wait_lock);
		return 0;
	}

	/*
	 * The writer is in: queue on its rt_mutex (boosting it) and, once
	 * it has let go, count ourselves in and pass the rt_mutex on at
	 * once; holding it was only the way to wait with PI.
	 */
	ret = rwbase_rtmutex_slowlock_locked(rtm, state);
	if (!ret)
		atomic_inc(&rwb->readers);
	raw_spin_unlock_irq(&rtm->wait_lock);
	if (!ret)
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

static int rwbase_write_lock(struct rwbase_rt *rwb, unsigned int state)
{
	struct rt_mutex_base *rtm = &rwb->rtmutex;
	unsigned long flags;

	/* Writers serialise on the rt_mutex first. */
	if (rwbase_rtmutex_lock_state(rtm, state))
		return -EINTR;

	/* New readers now take the slow path; wait for the others. */
	atomic_sub((int)READER_BIAS, &rwb->readers);

	raw_spin_lock_irqsave(&rtm->wait_lock, flags);
	if (__rwbase_write_trylock(rwb))
		goto out_unlock;

	rwbase_set_and_save_current_state(state);
	for (;;) {
		if (rwbase_signal_pending_state(state, current)) {
			rwbase_restore_current_state();
			__rwbase_write_unlock(rwb, 0, flags);
			return -EINTR;
		}
		if (__rwbase_write_trylock(rwb))
			break;
		raw_spin_unlock_irqrestore(&rtm->wait_lock, flags);
		rwbase_schedule();
		raw_spin_lock_irqsave(&rtm->wait_lock, flags);
		set_current_state(state);
	}
	rwbase_restore_current_state();
out_unlock:
	raw_spin_unlock_irqrestore(&rtm->wait_lock, flags);
	return 0;
}

static inline int rwbase_write_trylock(struct rwbase_rt *rwb)
{
	struct rt_mutex_base *rtm = &rwb->rtmutex;
	unsigned long flags;

	if (!rwbase_rtmutex_trylock(rtm))
		return 0;
	atomic_sub((int)READER_BIAS, &rwb->readers);

	raw_spin_lock_irqsave(&rtm->wait_lock, flags);
	if (__rwbase_write_trylock(rwb)) {
		raw_spin_unlock_irqrestore(&rtm->wait_lock, flags);
		return 1;
	}
	__rwbase_write_unlock(rwb, 0, flags);
	return 0;
}
