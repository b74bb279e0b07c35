// SPDX-License-Identifier: GPL-2.0
/*
 * The rt_mutex API, and on PREEMPT_RT the mutex built on it, over the
 * core in rtmutex.c (built here with the mutex rules: no lateral steals,
 * TASK_NORMAL wakeups).
 */
#define RT_MUTEX_BUILD_MUTEX
#include "rtmutex.c"

#include <linux/moduleparam.h>
#include <linux/lockdep.h>
#include <linux/ktime.h>
#include <linux/mutex.h>

/* Linux's default; a longer chain is treated as a deadlock. */
int max_lock_depth = 1024;
core_param_range("rtmutex.max_lock_depth", max_lock_depth, int, 1, 1000000,
		 "longest PI chain walked before -EDEADLK");

struct rt_mutex_stats rt_mutex_stats;

void rt_mutex_base_init(struct rt_mutex_base *lk)
{
	raw_spin_lock_init(&lk->wait_lock);
	lk->waiters = RB_ROOT_CACHED;
	lk->owner = NULL;
}

void __rt_mutex_init(struct rt_mutex *rtm, const char *name,
		     struct lock_class_key *key)
{
	rt_mutex_base_init(&rtm->rtmutex);
	lockdep_init_map_wait(&rtm->dep_map, name, key, 0, LD_WAIT_SLEEP);
}

#ifdef CONFIG_LOCK_STAT
/*
 * __rt_mutex_lock() with lock_stat's view: a failed fast path is a
 * contention; a successful lock is an acquisition.
 */
static __always_inline int rt_mutex_lock_stat(struct rt_mutex_base *lk,
					      struct lockdep_map *map,
					      unsigned int state, unsigned long ip)
{
	int ret = 0;

	if (unlikely(!rt_mutex_cmpxchg_acquire(lk, NULL, current))) {
		lock_contended(map, ip);
		ret = rt_mutex_slowlock(lk, state, RT_MUTEX_MIN_CHAINWALK, NULL);
	}
	if (!ret)
		lock_acquired(map, ip);
	return ret;
}
# define rt_mutex_lock_counted(lock, state, ip)				\
	rt_mutex_lock_stat(&(lock)->rtmutex, &(lock)->dep_map, state, ip)
#else
# define rt_mutex_lock_counted(lock, state, ip)				\
	__rt_mutex_lock(&(lock)->rtmutex, state)
#endif

static __always_inline int __rt_mutex_lock_common(struct rt_mutex *rtm,
						  unsigned int state,
						  unsigned int subclass)
{
	int ret;

	might_sleep();
	mutex_acquire(&rtm->dep_map, subclass, 0, _RET_IP_);
	ret = rt_mutex_lock_counted(rtm, state, _RET_IP_);
	if (ret)
		mutex_release(&rtm->dep_map, _RET_IP_);
	return ret;
}

void rt_mutex_lock_nested(struct rt_mutex *rtm, unsigned int subclass)
{
	__rt_mutex_lock_common(rtm, TASK_UNINTERRUPTIBLE, subclass);
}

/* irqlab has no signals: the interruptible forms sleep like the plain one. */
int rt_mutex_lock_interruptible(struct rt_mutex *rtm)
{
	return __rt_mutex_lock_common(rtm, TASK_INTERRUPTIBLE, 0);
}

int rt_mutex_lock_killable(struct rt_mutex *rtm)
{
	return __rt_mutex_lock_common(rtm, TASK_UNINTERRUPTIBLE, 0);
}

int rt_mutex_trylock(struct rt_mutex *rtm)
{
	int ret;

	ret = __rt_mutex_trylock(&rtm->rtmutex);
	if (ret)
		mutex_acquire(&rtm->dep_map, 0, 1, _RET_IP_);
	return ret;
}

void rt_mutex_unlock(struct rt_mutex *rtm)
{
	mutex_release(&rtm->dep_map, _RET_IP_);
	__rt_mutex_unlock(&rtm->rtmutex);
}

/* The slow path bounded by @to, an hrtimer sleeper already started (or NULL). */
static int rt_mutex_lock_until(struct rt_mutex *rtm, struct hrtimer_sleeper *to,
			       enum rtmutex_chainwalk chwalk)
{
	int ret;

	might_sleep();
	mutex_acquire(&rtm->dep_map, 0, 0, _RET_IP_);
	if (rt_mutex_cmpxchg_acquire(&rtm->rtmutex, NULL, current))
		return 0;
	ret = rt_mutex_slowlock(&rtm->rtmutex, TASK_UNINTERRUPTIBLE, chwalk, to);
	if (ret)
		mutex_release(&rtm->dep_map, _RET_IP_);
	return ret;
}

/*
 * Block with a timeout (relative, ns) and a chosen chain walk, on an
 * hrtimer sleeper that clears ->task when it fires.  FULL chain walk turns
 * on deadlock detection: -EDEADLK instead of blocking forever.
 */
static int rt_mutex_lock_bounded(struct rt_mutex *rtm, u64 timeout_ns,
				 enum rtmutex_chainwalk chwalk)
{
	struct hrtimer_sleeper sl, *to = NULL;
	int ret;

	if (timeout_ns) {
		to = &sl;
		hrtimer_init_sleeper(to, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
		hrtimer_set_expires(&to->timer, ktime_get() + timeout_ns);
		hrtimer_sleeper_start_expires(to, HRTIMER_MODE_ABS);
	}
	ret = rt_mutex_lock_until(rtm, to, chwalk);
	if (to)
		hrtimer_cancel(&to->timer);
	return ret;
}

/*
 * Tests: the timeout is the caller's sleeper @to, initialised for the
 * calling task and started, so that another thread can move its expiry
 * (make it fire now) at a point it has chosen; the caller cancels it.
 */
int rt_mutex_lock_sleeper(struct rt_mutex *rtm, struct hrtimer_sleeper *to)
{
	return rt_mutex_lock_until(rtm, to, RT_MUTEX_MIN_CHAINWALK);
}

int rt_mutex_lock_timeout(struct rt_mutex *rtm, u64 timeout_ns)
{
	return rt_mutex_lock_bounded(rtm, timeout_ns, RT_MUTEX_MIN_CHAINWALK);
}

int rt_mutex_lock_detect(struct rt_mutex *rtm, u64 timeout_ns)
{
	return rt_mutex_lock_bounded(rtm, timeout_ns, RT_MUTEX_FULL_CHAINWALK);
}

/*
 * A blocked task's priority changed (sched_setscheduler()): requeue its
 * waiter and propagate along the chain of owners.
 */
void rt_mutex_adjust_pi(struct task_struct *tsk)
{
	struct rt_mutex_waiter *waiter;
	struct rt_mutex_base *next_lock;
	unsigned long flags;

	raw_spin_lock_irqsave(&tsk->pi_lock, flags);
	waiter = tsk->pi_blocked_on;
	if (!waiter || rt_mutex_waiter_equal(waiter, task_to_waiter(tsk))) {
		raw_spin_unlock_irqrestore(&tsk->pi_lock, flags);
		return;
	}
	next_lock = waiter->lock;
	raw_spin_unlock_irqrestore(&tsk->pi_lock, flags);

	get_task_struct(tsk);
	rt_mutex_adjust_prio_chain(tsk, RT_MUTEX_MIN_CHAINWALK, NULL, next_lock,
				   NULL, tsk);
}

/* The owner, for tests and reports (racy unless the caller holds it). */
struct task_struct *rt_mutex_base_owner(struct rt_mutex_base *lock)
{
	return rt_mutex_owner(lock);
}

/* -------------------------------------------- proxy ownership (RCU boost) */

/*
 * Make @proxy_owner the owner of @lock without it ever calling a lock
 * function: RCU priority boosting manufactures a lock "held" by a
 * preempted reader so that whoever blocks on it lends the reader its
 * priority.  The lock is reset first; the caller guarantees that nobody
 * else is using it meanwhile.
 */
void rt_mutex_init_proxy_locked(struct rt_mutex_base *lock,
				struct task_struct *proxy_owner)
{
	rt_mutex_base_init(lock);
	rt_mutex_set_owner(lock, proxy_owner);
}

/* The proxy owner gives the lock up with nobody waiting (no wakeup). */
void rt_mutex_proxy_unlock(struct rt_mutex_base *lock)
{
	rt_mutex_set_owner(lock, NULL);
}

/*
 * Release, wait_lock held, by an owner that never went through the fast
 * path (so no cmpxchg retry is needed).  True when a waiter was handed
 * the lock and must be woken by rt_mutex_wake_up_q().
 */
bool __rt_mutex_futex_unlock(struct rt_mutex_base *lock,
			     struct rt_wake_q_head *wqh)
{
	lockdep_assert_held(&lock->wait_lock);
	if (rt_mutex_has_waiters(lock)) {
		/* Our boost goes with the top waiter; preemption stays off. */
		mark_wakeup_next_waiter(wqh, lock);
		return true;
	}
	lock->owner = NULL;
	return false;
}

/*
 * The current task releases a lock it owns by proxy (a boosted RCU
 * reader leaving its section): it drops the priority it inherited and
 * wakes the top waiter.
 */
void rt_mutex_futex_unlock(struct rt_mutex_base *lock)
{
	DEFINE_RT_WAKE_Q(wqh);
	raw_spinlock_t *wl = &lock->wait_lock;
	unsigned long flags;
	bool wake;

	raw_spin_lock_irqsave(wl, flags);
	wake = __rt_mutex_futex_unlock(lock, &wqh);
	raw_spin_unlock_irqrestore(wl, flags);
	if (wake)
		rt_mutex_wake_up_q(&wqh);
}

#ifdef CONFIG_PREEMPT_RT
/* ------------------------------------------------------ PREEMPT_RT mutex */

void __mutex_rt_init(struct mutex *mtx, const char *name,
		     struct lock_class_key *key)
{
	lockdep_init_map_wait(&mtx->dep_map, name, key, 0, LD_WAIT_SLEEP);
}

static __always_inline int __mutex_lock_common(struct mutex *mtx, unsigned int state,
					       unsigned int subclass,
					       struct lockdep_map *nest_lock,
					       unsigned long ip)
{
	int ret;

	might_sleep();
	mutex_acquire_nest(&mtx->dep_map, subclass, 0, nest_lock, ip);
	ret = rt_mutex_lock_counted(mtx, state, ip);
	if (ret)
		mutex_release(&mtx->dep_map, ip);
	return ret;
}

#ifdef CONFIG_DEBUG_LOCK_ALLOC
void mutex_lock_nested(struct mutex *mtx, unsigned int subclass)
{
	__mutex_lock_common(mtx, TASK_UNINTERRUPTIBLE, subclass, NULL, _RET_IP_);
}

void _mutex_lock_nest_lock(struct mutex *mtx, struct lockdep_map *nest_lock)
{
	__mutex_lock_common(mtx, TASK_UNINTERRUPTIBLE, 0, nest_lock, _RET_IP_);
}

int mutex_lock_interruptible_nested(struct mutex *mtx, unsigned int subclass)
{
	return __mutex_lock_common(mtx, TASK_INTERRUPTIBLE, subclass, NULL, _RET_IP_);
}

int mutex_lock_killable_nested(struct mutex *mtx, unsigned int subclass)
{
	return __mutex_lock_common(mtx, TASK_UNINTERRUPTIBLE, subclass, NULL, _RET_IP_);
}
#else
void mutex_lock(struct mutex *mtx)
{
	__mutex_lock_common(mtx, TASK_UNINTERRUPTIBLE, 0, NULL, _RET_IP_);
}

int mutex_lock_interruptible(struct mutex *mtx)
{
	return __mutex_lock_common(mtx, TASK_INTERRUPTIBLE, 0, NULL, _RET_IP_);
}

int mutex_lock_killable(struct mutex *mtx)
{
	return __mutex_lock_common(mtx, TASK_UNINTERRUPTIBLE, 0, NULL, _RET_IP_);
}
#endif

int mutex_trylock(struct mutex *mtx)
{
	int ret = __rt_mutex_trylock(&mtx->rtmutex);

	if (ret)
		mutex_acquire(&mtx->dep_map, 0, 1, _RET_IP_);
	return ret;
}

void mutex_unlock(struct mutex *mtx)
{
	mutex_release(&mtx->dep_map, _RET_IP_);
	__rt_mutex_unlock(&mtx->rtmutex);
}
#endif /* CONFIG_PREEMPT_RT */
