// SPDX-License-Identifier: GPL-2.0
/*
 * PREEMPT_RT's spinlock_t and rwlock_t: "rtlocks", the rt_mutex core built
 * with the spinlock rules (lateral steals, TASK_RTLOCK_WAIT waits that keep
 * the caller's task state).
 *
 * Holding one keeps the task migrate-disabled instead of non-preemptible:
 * code written for spinlocks may rely on staying on its CPU (per-CPU data
 * found under the lock stays this CPU's) but not on excluding other tasks
 * of this CPU — those are excluded by the lock itself.  As in Linux, a
 * holder is also inside an RCU read-side section (taken after the lock is
 * acquired, left before it is released): code that relied on a spinlock
 * disabling preemption to hold off a grace period keeps that guarantee,
 * and a holder preempted under the lock holds up the grace period.
 */
#include <linux/spinlock.h>
#include <linux/rcupdate.h>

#define RT_MUTEX_BUILD_SPINLOCKS
#include "rtmutex.c"

static __always_inline void rtlock_lock(struct rt_mutex_base *lk)
{
	if (unlikely(!rt_mutex_cmpxchg_acquire(lk, NULL, current)))
		rtlock_slowlock(lk);
}

#if defined(CONFIG_LOCK_STAT) && !defined(CONFIG_PROVE_LOCKING)
/*
 * lock_stat without lockdep, as raw_spin_lock(): the lock is announced
 * only when the fast path fails, so a won fast path is one lock_stat
 * call, not two; a failed one is a contention, as a failed trylock.
 */
#define RT_SPIN_LOCK_STAT_FOLD	1
static __always_inline void rtlock_lock_stat(spinlock_t *slock, int subclass,
					     unsigned long ip)
{
	if (likely(rt_mutex_cmpxchg_acquire(&slock->lock, NULL, current))) {
		lockstat_acquire_uncontended(&slock->dep_map, 0, ip);
		return;
	}
	spin_acquire(&slock->dep_map, subclass, 0, ip);
	lock_contended(&slock->dep_map, ip);
	rtlock_slowlock(&slock->lock);
	lock_acquired(&slock->dep_map, ip);
}
#elif defined(CONFIG_LOCK_STAT)
#define RT_SPIN_LOCK_STAT_FOLD	0
/* lock_stat: a failed fast path is a contention, as a failed trylock. */
static __always_inline void rtlock_lock_stat(spinlock_t *slock, int subclass,
					     unsigned long ip)
{
	if (unlikely(!rt_mutex_cmpxchg_acquire(&slock->lock, NULL, current))) {
		lock_contended(&slock->dep_map, ip);
		rtlock_slowlock(&slock->lock);
	}
	lock_acquired(&slock->dep_map, ip);
}
#else
#define RT_SPIN_LOCK_STAT_FOLD	0
#endif

static __always_inline void __rt_spin_lock(spinlock_t *slock, int subclass)
{
	/*
	 * Linux's ___might_sleep() here is a DEBUG_ATOMIC_SLEEP check, gone
	 * without it (and no voluntary preemption point: this is RT).
	 */
	if (IS_ENABLED(CONFIG_DEBUG_ATOMIC_SLEEP))
		__might_sleep(__FILE__, __LINE__);
#ifdef CONFIG_LOCK_STAT
	rtlock_lock_stat(slock, subclass, _RET_IP_);
#else
	rtlock_lock(&slock->lock);
#endif
	rcu_read_lock();
	migrate_disable();
}

void rt_spin_lock(spinlock_t *slock)
{
	if (!RT_SPIN_LOCK_STAT_FOLD)
		spin_acquire(&slock->dep_map, 0, 0, _RET_IP_);
	__rt_spin_lock(slock, 0);
}

void rt_spin_lock_nested(spinlock_t *slock, int subclass)
{
	if (!RT_SPIN_LOCK_STAT_FOLD)
		spin_acquire(&slock->dep_map, subclass, 0, _RET_IP_);
	__rt_spin_lock(slock, subclass);
}

void rt_spin_unlock(spinlock_t *slock)
{
	spin_release(&slock->dep_map, _RET_IP_);
	migrate_enable();
	rcu_read_unlock();
	if (unlikely(!rt_mutex_cmpxchg_release(&slock->lock, current, NULL)))
		rt_mutex_slowunlock(&slock->lock);
}

/* Wait for the current holder to let go (hrtimer/softirq expiry waits). */
void rt_spin_lock_unlock(spinlock_t *slock)
{
	spin_lock(slock);
	spin_unlock(slock);
}

static __always_inline int __rt_spin_trylock(spinlock_t *slock)
{
	int ret = 1;

	if (unlikely(!rt_mutex_cmpxchg_acquire(&slock->lock, NULL, current)))
		ret = rt_mutex_slowtrylock(&slock->lock);
	if (ret) {
		spin_acquire(&slock->dep_map, 0, 1, _RET_IP_);
		rcu_read_lock();
		migrate_disable();
	}
	return ret;
}

int rt_spin_trylock(spinlock_t *slock)
{
	return __rt_spin_trylock(slock);
}

int rt_spin_trylock_bh(spinlock_t *slock)
{
	int ret;

	local_bh_disable();
	ret = __rt_spin_trylock(slock);
	if (!ret)
		local_bh_enable();
	return ret;
}

#ifdef CONFIG_DEBUG_LOCK_ALLOC
void __rt_spin_lock_init(spinlock_t *slock, const char *name,
			 struct lock_class_key *key, bool percpu)
{
	(void)percpu;
	lockdep_init_map_wait(&slock->dep_map, name, key, 0, LD_WAIT_CONFIG);
}
#endif

/* ---------------------------------------------------------------- rwlock_t */

#define rwbase_set_and_save_current_state(st)				\
	current_save_and_set_rtlock_wait_state()
#define rwbase_restore_current_state()					\
	current_restore_rtlock_saved_state()
#define rwbase_signal_pending_state(state, task)	false
#define rwbase_schedule()				schedule_rtlock()

static __always_inline int rwbase_rtmutex_lock_state(struct rt_mutex_base *lk,
						     unsigned int state)
{
	rtlock_lock(lk);
	return 0;
}

static __always_inline int rwbase_rtmutex_slowlock_locked(struct rt_mutex_base *lk,
							  unsigned int state)
{
	rtlock_slowlock_locked(lk);
	return 0;
}

static __always_inline void rwbase_rtmutex_unlock(struct rt_mutex_base *lk)
{
	if (likely(rt_mutex_cmpxchg_release(lk, current, NULL)))
		return;
	rt_mutex_slowunlock(lk);
}

static __always_inline int rwbase_rtmutex_trylock(struct rt_mutex_base *lk)
{
	if (likely(rt_mutex_cmpxchg_acquire(lk, NULL, current)))
		return 1;
	return rt_mutex_slowtrylock(lk);
}

#include "rwbase_rt.c"

int rt_read_trylock(rwlock_t *rw)
{
	int ret = rwbase_read_trylock(&rw->rwbase);

	if (ret) {
		rwlock_acquire_read(&rw->dep_map, 0, 1, _RET_IP_);
		rcu_read_lock();
		migrate_disable();
	}
	return ret;
}

int rt_write_trylock(rwlock_t *rw)
{
	int ret = rwbase_write_trylock(&rw->rwbase);

	if (ret) {
		rwlock_acquire(&rw->dep_map, 0, 1, _RET_IP_);
		rcu_read_lock();
		migrate_disable();
	}
	return ret;
}

/*
 * lock_stat counts RT's rwlock_t as the rwsem: a failed try form is a
 * contention.  Linux's rt_read_lock()/rt_write_lock() do not (irqlab's
 * addition, as for spinlock_t); without CONFIG_LOCK_STAT only the lock
 * form runs.
 */
static __always_inline int __rt_read_trylock(rwlock_t *rw)
{
	return rwbase_read_trylock(&rw->rwbase);
}

static __always_inline void __rt_read_lock(rwlock_t *rw)
{
	rwbase_read_lock(&rw->rwbase, TASK_RTLOCK_WAIT);
}

static __always_inline int __rt_write_trylock(rwlock_t *rw)
{
	return rwbase_write_trylock(&rw->rwbase);
}

static __always_inline void __rt_write_lock(rwlock_t *rw)
{
	rwbase_write_lock(&rw->rwbase, TASK_RTLOCK_WAIT);
}

void rt_read_lock(rwlock_t *rw)
{
	might_sleep();
	rwlock_acquire_read(&rw->dep_map, 0, 0, _RET_IP_);
	LOCK_CONTENDED(rw, __rt_read_trylock, __rt_read_lock);
	rcu_read_lock();
	migrate_disable();
}

void rt_write_lock(rwlock_t *rw)
{
	might_sleep();
	rwlock_acquire(&rw->dep_map, 0, 0, _RET_IP_);
	LOCK_CONTENDED(rw, __rt_write_trylock, __rt_write_lock);
	rcu_read_lock();
	migrate_disable();
}

void rt_read_unlock(rwlock_t *rw)
{
	rwlock_release(&rw->dep_map, _RET_IP_);
	migrate_enable();
	rcu_read_unlock();
	rwbase_read_unlock(&rw->rwbase, TASK_RTLOCK_WAIT);
}

void rt_write_unlock(rwlock_t *rw)
{
	rwlock_release(&rw->dep_map, _RET_IP_);
	migrate_enable();
	rcu_read_unlock();
	rwbase_write_unlock(&rw->rwbase);
}

#ifdef CONFIG_DEBUG_LOCK_ALLOC
void __rt_rwlock_init(rwlock_t *rw, const char *name, struct lock_class_key *key)
{
	lockdep_init_map_wait(&rw->dep_map, name, key, 0, LD_WAIT_CONFIG);
}
#endif
