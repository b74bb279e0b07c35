/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_HRTIMER_H
#define _LINUX_HRTIMER_H

/*
 * High-resolution timers (Linux 5.15 interface).  Each CPU owns an
 * hrtimer_cpu_base with two CLOCK_MONOTONIC clock bases: one whose timers
 * expire in hard interrupt context and one whose timers expire from
 * HRTIMER_SOFTIRQ (in ksoftirqd on PREEMPT_RT).  A timer is queued on the
 * CPU that started it; the per-CPU clock event device is programmed to
 * the earliest expiry of the two bases.
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/ktime.h>
#include <linux/rbtree.h>
#include <linux/spinlock.h>
#include <time.h>

struct hrtimer_clock_base;
struct hrtimer_cpu_base;
struct clock_event_device;
struct task_struct;

/* newlib's <time.h> names the clocks; only CLOCK_MONOTONIC is supported. */
#ifndef CLOCK_MONOTONIC
#define CLOCK_MONOTONIC	((clockid_t)4)
#endif

#define KTIME_MAX	((ktime_t)~((u64)1 << 63))

/*
 * ABS/REL: how the expiry is given.  PINNED: informational here, timers
 * always stay on the CPU that started them.  SOFT/HARD: expiry context.
 */
enum hrtimer_mode {
	HRTIMER_MODE_ABS	= 0x00,
	HRTIMER_MODE_REL	= 0x01,
	HRTIMER_MODE_PINNED	= 0x02,
	HRTIMER_MODE_SOFT	= 0x04,
	HRTIMER_MODE_HARD	= 0x08,

	HRTIMER_MODE_ABS_PINNED	= HRTIMER_MODE_ABS | HRTIMER_MODE_PINNED,
	HRTIMER_MODE_REL_PINNED	= HRTIMER_MODE_REL | HRTIMER_MODE_PINNED,

	HRTIMER_MODE_ABS_SOFT	= HRTIMER_MODE_ABS | HRTIMER_MODE_SOFT,
	HRTIMER_MODE_REL_SOFT	= HRTIMER_MODE_REL | HRTIMER_MODE_SOFT,
	HRTIMER_MODE_ABS_PINNED_SOFT = HRTIMER_MODE_ABS_PINNED | HRTIMER_MODE_SOFT,
	HRTIMER_MODE_REL_PINNED_SOFT = HRTIMER_MODE_REL_PINNED | HRTIMER_MODE_SOFT,

	HRTIMER_MODE_ABS_HARD	= HRTIMER_MODE_ABS | HRTIMER_MODE_HARD,
	HRTIMER_MODE_REL_HARD	= HRTIMER_MODE_REL | HRTIMER_MODE_HARD,
	HRTIMER_MODE_ABS_PINNED_HARD = HRTIMER_MODE_ABS_PINNED | HRTIMER_MODE_HARD,
	HRTIMER_MODE_REL_PINNED_HARD = HRTIMER_MODE_REL_PINNED | HRTIMER_MODE_HARD,
};

enum hrtimer_restart {
	HRTIMER_NORESTART,
	HRTIMER_RESTART,
};

#define HRTIMER_STATE_INACTIVE	0x00
#define HRTIMER_STATE_ENQUEUED	0x01

struct timerqueue_node {
	struct rb_node node;
	ktime_t expires;
};

struct timerqueue_head {
	struct rb_root_cached rb_root;
};

/*
 * @node.expires is the hard expiry (what the device is programmed to),
 * @_softexpires the earliest time the callback may run.
 */
struct hrtimer {
	struct timerqueue_node node;
	ktime_t _softexpires;
	enum hrtimer_restart (*function)(struct hrtimer *);
	struct hrtimer_clock_base *base;
	u8 state;
	u8 is_rel;
	u8 is_soft;
	u8 is_hard;
};

struct hrtimer_sleeper {
	struct hrtimer timer;
	struct task_struct *task;
};

enum hrtimer_base_type {
	HRTIMER_BASE_MONOTONIC,
	HRTIMER_BASE_MONOTONIC_SOFT,
	HRTIMER_MAX_CLOCK_BASES,
};

struct hrtimer_clock_base {
	struct hrtimer_cpu_base *cpu_base;
	unsigned int index;
	clockid_t clockid;
	struct hrtimer *running;	/* callback in progress, or NULL */
	struct timerqueue_head active;
	ktime_t (*get_time)(void);
};

/*
 * @expires_next: what the device is programmed to; @softirq_expires_next:
 * earliest soft expiry (KTIME_MAX while HRTIMER_SOFTIRQ is pending).
 * @in_hrtirq: hrtimer_interrupt() is running and reprograms at its end.
 * @suspended: the clock event device was lent out (tick_suspend_local()).
 */
struct hrtimer_cpu_base {
	raw_spinlock_t lock;
	unsigned int cpu;
	unsigned int in_hrtirq:1, softirq_activated:1, suspended:1, online:1;
	ktime_t expires_next;
	ktime_t softirq_expires_next;
	unsigned long nr_events;
	unsigned long nr_retries;
#ifdef CONFIG_PREEMPT_RT
	/*
	 * Held by the softirq expiry of the soft bases: a canceller of a
	 * running soft callback blocks on it (with PI) instead of spinning
	 * against a preemptible thread; the expiry drops and retakes it
	 * between callbacks while timer_waiters says someone waits.
	 */
	spinlock_t softirq_expiry_lock;
	atomic_t timer_waiters;
#endif
	struct hrtimer_clock_base clock_base[HRTIMER_MAX_CLOCK_BASES];
};

void hrtimer_init(struct hrtimer *timer, clockid_t which_clock, enum hrtimer_mode mode);
void hrtimer_init_sleeper(struct hrtimer_sleeper *sl, clockid_t clock_id, enum hrtimer_mode mode);
void hrtimer_start_range_ns(struct hrtimer *timer, ktime_t tim, u64 range_ns,
			    const enum hrtimer_mode mode);
int hrtimer_try_to_cancel(struct hrtimer *timer);
int hrtimer_cancel(struct hrtimer *timer);
void hrtimer_cancel_wait_running(const struct hrtimer *timer);
bool hrtimer_active(const struct hrtimer *timer);
u64 hrtimer_forward(struct hrtimer *timer, ktime_t now, ktime_t interval);
ktime_t hrtimer_get_remaining(const struct hrtimer *timer);
void hrtimer_sleeper_start_expires(struct hrtimer_sleeper *sl, enum hrtimer_mode mode);
void hrtimer_interrupt(struct clock_event_device *dev);
void hrtimers_init_cpu(void);
/* CPU hotplug (CPUHP_HRTIMERS_PREPARE): set up a CPU's bases; take a dead one's timers. */
int hrtimers_prepare_cpu(unsigned int cpu);
int hrtimers_dead_cpu(unsigned int cpu);
void hrtimers_init(void);
void hrtimers_suspend_local(void);
void hrtimers_resume_local(void);

static inline void hrtimer_start(struct hrtimer *timer, ktime_t tim,
				 const enum hrtimer_mode mode)
{
	hrtimer_start_range_ns(timer, tim, 0, mode);
}

static inline void hrtimer_set_expires(struct hrtimer *timer, ktime_t time)
{
	timer->node.expires = time;
	timer->_softexpires = time;
}

static inline void hrtimer_set_expires_range_ns(struct hrtimer *timer, ktime_t time, u64 delta)
{
	timer->_softexpires = time;
	timer->node.expires = time + (ktime_t)delta;
	if (timer->node.expires < time)		/* overflow */
		timer->node.expires = KTIME_MAX;
}

static inline void hrtimer_add_expires_ns(struct hrtimer *timer, u64 ns)
{
	timer->node.expires += ns;
	timer->_softexpires += ns;
}

static inline ktime_t hrtimer_get_expires(const struct hrtimer *timer)
{
	return timer->node.expires;
}

static inline ktime_t hrtimer_get_softexpires(const struct hrtimer *timer)
{
	return timer->_softexpires;
}

static inline ktime_t hrtimer_cb_get_time(const struct hrtimer *timer)
{
	return ktime_get();
}

static inline bool hrtimer_is_queued(const struct hrtimer *timer)
{
	return READ_ONCE(timer->state) & HRTIMER_STATE_ENQUEUED;
}

static inline u64 hrtimer_forward_now(struct hrtimer *timer, ktime_t interval)
{
	return hrtimer_forward(timer, ktime_get(), interval);
}

static inline void hrtimer_start_expires(struct hrtimer *timer, enum hrtimer_mode mode)
{
	u64 delta = hrtimer_get_expires(timer) - hrtimer_get_softexpires(timer);

	hrtimer_start_range_ns(timer, hrtimer_get_softexpires(timer), delta, mode);
}

/* Sleeping until an hrtimer expires (kernel/time/hrtimer.c). */
int schedule_hrtimeout_range(ktime_t *expires, u64 delta, const enum hrtimer_mode mode);
int schedule_hrtimeout(ktime_t *expires, const enum hrtimer_mode mode);

#endif
