// SPDX-License-Identifier: GPL-2.0
/*
 * High-resolution timers with Linux 5.15's interface and semantics.
 *
 * Every CPU has an hrtimer_cpu_base holding two CLOCK_MONOTONIC clock
 * bases, each a queue of timers sorted by expiry in a cached rbtree.  The
 * hard base is served by hrtimer_interrupt(), the clock event handler, in
 * hard interrupt context.  The soft base is served by HRTIMER_SOFTIRQ,
 * which the interrupt raises once the first soft timer is due: at irq
 * exit on !PREEMPT_RT, in ksoftirqd on PREEMPT_RT.  On PREEMPT_RT a timer
 * not explicitly marked HRTIMER_MODE_HARD is a soft timer.
 *
 * A timer is queued on the CPU that starts it and expires there; if its
 * callback is running elsewhere it stays on that CPU, whose interrupt (or
 * softirq) reprograms the device when it is done.  Callbacks run with the
 * base lock dropped; base->running marks the one in progress so that
 * hrtimer_cancel() can wait for it.
 */
#include <linux/kernel.h>
#include <linux/hrtimer.h>
#include <linux/clockchips.h>
#include <linux/interrupt.h>
#include <linux/irqflags.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/preempt.h>
#include <linux/errno.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/cpu.h>
#include <linux/lockdep.h>
#include <asm/processor.h>

#ifdef CONFIG_PREEMPT_RT
#define HRTIMER_RT	1
#else
#define HRTIMER_RT	0
#endif

static DEFINE_PER_CPU(struct hrtimer_cpu_base, hrtimer_bases);

/*
 * A timer moving between CPUs points here while neither base is locked,
 * so that lock_hrtimer_base() waits for the move to finish.
 */
static struct hrtimer_cpu_base migration_cpu_base;
static struct hrtimer_clock_base migration_base = { .cpu_base = &migration_cpu_base };

#define HRTIMER_PROGRAM_RETRIES	3

static ktime_t hrtimer_mono_get_time(void)
{
	return ktime_get();
}

static void hrtimer_run_softirq(struct softirq_action *h);

/*
 * Set up @cpu's bases: at boot from the CPU itself (hrtimers_init_cpu),
 * and for a CPU coming back, as its CPUHP_HRTIMERS_PREPARE startup on the
 * control CPU before it runs.  A CPU that went down left its bases empty
 * (hrtimers_dead_cpu), so nothing is lost by starting them afresh.
 */
int hrtimers_prepare_cpu(unsigned int cpu)
{
	struct hrtimer_cpu_base *cb = &per_cpu(hrtimer_bases, cpu);

	raw_spin_lock_init(&cb->lock);
#ifdef CONFIG_PREEMPT_RT
	spin_lock_init(&cb->softirq_expiry_lock);
	atomic_set(&cb->timer_waiters, 0);
#endif
	cb->cpu = cpu;
	cb->in_hrtirq = 0;
	cb->softirq_activated = 0;
	cb->suspended = 0;
	for (int i = 0; i < HRTIMER_MAX_CLOCK_BASES; i++) {
		struct hrtimer_clock_base *base = &cb->clock_base[i];

		base->cpu_base = cb;
		base->index = i;
		base->clockid = CLOCK_MONOTONIC;
		base->get_time = hrtimer_mono_get_time;
		base->running = NULL;
		base->active.rb_root = RB_ROOT_CACHED;
	}
	cb->expires_next = KTIME_MAX;
	cb->softirq_expires_next = KTIME_MAX;
	cb->online = 1;
	return 0;
}

/* Called on each CPU before its first hrtimer is started (tick setup). */
void hrtimers_init_cpu(void)
{
	struct hrtimer_cpu_base *cb = this_cpu_ptr(&hrtimer_bases);

	if (cb->online)
		return;
	hrtimers_prepare_cpu(smp_processor_id());
	if (cb->cpu == 0)
		open_softirq(HRTIMER_SOFTIRQ,
			     hrtimer_run_softirq);
}

/* --- timer queues --------------------------------------------------- */

static bool hrtimer_less(struct rb_node *a, const struct rb_node *b)
{
	return rb_entry(a, struct timerqueue_node, node)->expires <
	       rb_entry(b, struct timerqueue_node, node)->expires;
}

static struct hrtimer *first_timer(struct hrtimer_clock_base *base)
{
	struct rb_node *n = rb_first_cached(&base->active.rb_root);

	return n ? rb_entry(n, struct hrtimer, node.node) : NULL;
}

/* Queue @tmr; true if it became the first of its base. */
static bool enqueue_hrtimer(struct hrtimer *tmr, struct hrtimer_clock_base *base)
{
	WRITE_ONCE(tmr->state, HRTIMER_STATE_ENQUEUED);
	return rb_add_cached(&tmr->node.node, &base->active.rb_root, hrtimer_less) != NULL;
}

static void dequeue_hrtimer(struct hrtimer *timer, struct hrtimer_clock_base *base)
{
	rb_erase_cached(&timer->node.node, &base->active.rb_root);
	RB_CLEAR_NODE(&timer->node.node);
	WRITE_ONCE(timer->state, HRTIMER_STATE_INACTIVE);
}

/* Lock the cpu_base the timer is on, following it if it moves. */
static struct hrtimer_clock_base *lock_hrtimer_base(const struct hrtimer *timer,
						    unsigned long *irqflags)
{
	for (;;) {
		struct hrtimer_clock_base *cbase = READ_ONCE(timer->base);

		if (cbase != &migration_base) {
			raw_spin_lock_irqsave(&cbase->cpu_base->lock, *irqflags);
			if (cbase == timer->base)
				return cbase;
			raw_spin_unlock_irqrestore(&cbase->cpu_base->lock, *irqflags);
		}
		cpu_relax();
	}
}

/* --- programming the clock event device ----------------------------- */

static ktime_t next_expiry(struct hrtimer_clock_base *base)
{
	struct hrtimer *t = first_timer(base);

	return t ? hrtimer_get_expires(t) : KTIME_MAX;
}

/*
 * Earliest pending expiry; soft timers do not count while the softirq is
 * already raised (it recomputes when it is done).
 */
static ktime_t hrtimer_update_next_event(struct hrtimer_cpu_base *cb)
{
	ktime_t hard = next_expiry(&cb->clock_base[HRTIMER_BASE_MONOTONIC]);
	ktime_t soft = KTIME_MAX;

	if (!cb->softirq_activated) {
		soft = next_expiry(&cb->clock_base[HRTIMER_BASE_MONOTONIC_SOFT]);
		cb->softirq_expires_next = soft;
	}
	return min(hard, soft);
}

static void hrtimer_program(struct hrtimer_cpu_base *cb, ktime_t expires)
{
	struct clock_event_device *dev = this_cpu_clockevent();

	cb->expires_next = expires;
	if (cb->suspended)
		return;
	if (expires == KTIME_MAX)
		clockevents_shutdown(dev);
	else
		clockevents_program_event(dev, expires, true);
}

/* Reprogram this CPU's device for the current queues (lock held). */
static void hrtimer_force_reprogram(struct hrtimer_cpu_base *cb)
{
	if (cb->in_hrtirq)
		return;		/* hrtimer_interrupt() reprograms at its end */
	hrtimer_program(cb, hrtimer_update_next_event(cb));
}

/* A newly first timer on this CPU: program the device if it is earlier. */
static void hrtimer_reprogram(struct hrtimer *timer)
{
	struct hrtimer_clock_base *base = timer->base;
	struct hrtimer_cpu_base *cb = base->cpu_base;
	ktime_t expires = hrtimer_get_expires(timer);

	if (cb != this_cpu_ptr(&hrtimer_bases))
		return;
	if (timer->is_soft) {
		if (cb->softirq_activated)
			return;		/* the softirq recomputes when done */
		if (expires >= cb->softirq_expires_next)
			return;
		cb->softirq_expires_next = expires;
	}
	if (cb->in_hrtirq || expires >= cb->expires_next)
		return;
	hrtimer_program(cb, expires);
}

/* --- init, start, cancel -------------------------------------------- */

void hrtimer_init(struct hrtimer *timer, clockid_t clock_id, enum hrtimer_mode mode)
{
	bool soft = mode & HRTIMER_MODE_SOFT;

	/* On RT everything that does not insist on hard IRQ expiry is soft. */
	if (HRTIMER_RT && !(mode & HRTIMER_MODE_HARD))
		soft = true;
	memset(timer, 0, sizeof(*timer));
	RB_CLEAR_NODE(&timer->node.node);
	timer->is_soft = soft;
	timer->is_hard = !!(mode & HRTIMER_MODE_HARD);
	timer->is_rel = !!(mode & HRTIMER_MODE_REL);
	timer->base = &raw_cpu_ptr(&hrtimer_bases)->clock_base[soft ?
			HRTIMER_BASE_MONOTONIC_SOFT : HRTIMER_BASE_MONOTONIC];
	WARN_ON_ONCE(clock_id != CLOCK_MONOTONIC);
}

/* Remove a queued timer; the caller holds its base lock. */
static bool remove_hrtimer(struct hrtimer *timer, struct hrtimer_clock_base *base,
			   bool restart)
{
	struct hrtimer_cpu_base *cb = base->cpu_base;
	bool was_first;

	if (!(timer->state & HRTIMER_STATE_ENQUEUED))
		return false;
	was_first = first_timer(base) == timer;
	dequeue_hrtimer(timer, base);
	/* Removing the local first timer: avoid a pointless interrupt. */
	if (was_first && !restart && cb == this_cpu_ptr(&hrtimer_bases))
		hrtimer_force_reprogram(cb);
	return true;
}

void hrtimer_start_range_ns(struct hrtimer *timer, ktime_t tim, u64 range_ns,
			    const enum hrtimer_mode mode)
{
	struct hrtimer_cpu_base *new_cpu_base;
	struct hrtimer_clock_base *base, *new_base;
	unsigned long flags;

	if (HRTIMER_RT)
		WARN_ON_ONCE(!(mode & HRTIMER_MODE_HARD) != !timer->is_hard);
	else
		WARN_ON_ONCE(!(mode & HRTIMER_MODE_SOFT) != !timer->is_soft);

	base = lock_hrtimer_base(timer, &flags);
	remove_hrtimer(timer, base, true);
	if (mode & HRTIMER_MODE_REL)
		tim += base->get_time();
	hrtimer_set_expires_range_ns(timer, tim, range_ns);

	new_cpu_base = this_cpu_ptr(&hrtimer_bases);
	new_base = &new_cpu_base->clock_base[base->index];
	/* A timer whose callback runs elsewhere stays there. */
	if (new_base != base && base->running != timer) {
		WRITE_ONCE(timer->base, &migration_base);
		raw_spin_unlock(&base->cpu_base->lock);
		raw_spin_lock(&new_cpu_base->lock);
		WRITE_ONCE(timer->base, new_base);
		base = new_base;
	}
	if (enqueue_hrtimer(timer, base))
		hrtimer_reprogram(timer);
	raw_spin_unlock_irqrestore(&base->cpu_base->lock, flags);
}

/*
 * 1: the timer was queued and is now removed; 0: it was not queued;
 * -1: its callback is running and the timer cannot be stopped now.
 */
int hrtimer_try_to_cancel(struct hrtimer *tmr)
{
	struct hrtimer_clock_base *base;
	unsigned long flags;
	int ret = -1;

	base = lock_hrtimer_base(tmr, &flags);
	if (base->running != tmr)
		ret = remove_hrtimer(tmr, base, false);
	raw_spin_unlock_irqrestore(&base->cpu_base->lock, flags);
	return ret;
}

#ifdef CONFIG_PREEMPT_RT
static void hrtimer_cpu_base_lock_expiry(struct hrtimer_cpu_base *cb)
{
	spin_lock(&cb->softirq_expiry_lock);
}

static void hrtimer_cpu_base_unlock_expiry(struct hrtimer_cpu_base *cb)
{
	spin_unlock(&cb->softirq_expiry_lock);
}

/*
 * Between two soft callbacks: if a canceller waits for the expiry lock,
 * let it have it (it finds its callback finished) before going on.
 */
static void hrtimer_sync_wait_running(struct hrtimer_cpu_base *cb, unsigned long flags)
{
	if (atomic_read(&cb->timer_waiters)) {
		raw_spin_unlock_irqrestore(&cb->lock, flags);
		spin_unlock(&cb->softirq_expiry_lock);
		spin_lock(&cb->softirq_expiry_lock);
		raw_spin_lock_irq(&cb->lock);
	}
}

/*
 * Wait for a running callback.  A hard one finishes within its interrupt:
 * spin.  A soft one runs in a preemptible thread, perhaps preempted by
 * us: block on the expiry lock of the timer's CPU, which boosts that
 * thread until the callback is done.  (Linux requires a preemptible
 * caller here; irqlab spins when it is not, rather than sleep in atomic.)
 */
void hrtimer_cancel_wait_running(const struct hrtimer *tmr)
{
	struct hrtimer_clock_base *clk_base = READ_ONCE(tmr->base);

	if (!tmr->is_soft || clk_base == &migration_base || !preemptible()) {
		cpu_relax();
		return;
	}
	atomic_inc(&clk_base->cpu_base->timer_waiters);
	spin_lock_bh(&clk_base->cpu_base->softirq_expiry_lock);
	atomic_dec(&clk_base->cpu_base->timer_waiters);
	spin_unlock_bh(&clk_base->cpu_base->softirq_expiry_lock);
}
#else
static inline void hrtimer_cpu_base_lock_expiry(struct hrtimer_cpu_base *cb) { }
static inline void hrtimer_cpu_base_unlock_expiry(struct hrtimer_cpu_base *cb) { }
static inline void hrtimer_sync_wait_running(struct hrtimer_cpu_base *cb,
					     unsigned long flags) { }

/* !RT: every callback runs with interrupts or bottom halves off: spin. */
void hrtimer_cancel_wait_running(const struct hrtimer *tmr)
{
	cpu_relax();
}
#endif

int hrtimer_cancel(struct hrtimer *timer)
{
	int ret;

	while ((ret = hrtimer_try_to_cancel(timer)) < 0)
		hrtimer_cancel_wait_running(timer);
	return ret;
}

bool hrtimer_active(const struct hrtimer *tmr)
{
	struct hrtimer_clock_base *base;
	unsigned long flags;
	bool active;

	base = lock_hrtimer_base(tmr, &flags);
	active = (tmr->state & HRTIMER_STATE_ENQUEUED) || base->running == tmr;
	raw_spin_unlock_irqrestore(&base->cpu_base->lock, flags);
	return active;
}

ktime_t hrtimer_get_remaining(const struct hrtimer *timer)
{
	return hrtimer_get_expires(timer) - ktime_get();
}

/*
 * Push the expiry forward by whole @intervals until it is after @now;
 * returns how many intervals were added.  For callbacks (or stopped
 * timers) only: a queued timer is left alone.
 */
u64 hrtimer_forward(struct hrtimer *tmr, ktime_t now, ktime_t interval)
{
	ktime_t delta = now - hrtimer_get_expires(tmr);
	u64 orun = 1;

	if (delta < 0)
		return 0;
	if (WARN_ON(tmr->state & HRTIMER_STATE_ENQUEUED))
		return 0;
	if (interval < 1)
		interval = 1;
	if (delta >= interval) {
		orun = (u64)delta / (u64)interval;
		hrtimer_add_expires_ns(tmr, orun * (u64)interval);
		if (hrtimer_get_expires(tmr) > now)
			return orun;
		orun++;
	}
	hrtimer_add_expires_ns(tmr, interval);
	return orun;
}

/* --- expiry --------------------------------------------------------- */

/* Run one expired timer's callback with the lock dropped. */
static void __run_hrtimer(struct hrtimer_cpu_base *cb, struct hrtimer_clock_base *base,
			  struct hrtimer *timer, unsigned long flags)
{
	enum hrtimer_restart (*fn)(struct hrtimer *) = timer->function;
	enum hrtimer_restart restart;

	WRITE_ONCE(base->running, timer);
	dequeue_hrtimer(timer, base);
	raw_spin_unlock_irqrestore(&cb->lock, flags);
	restart = fn(timer);
	raw_spin_lock_irq(&cb->lock);
	/* The callback may have restarted it itself (hrtimer_start()). */
	if (restart != HRTIMER_NORESTART && !(timer->state & HRTIMER_STATE_ENQUEUED))
		enqueue_hrtimer(timer, base);
	WARN_ON_ONCE(base->running != timer);
	WRITE_ONCE(base->running, NULL);
}

static void __hrtimer_run_queues(struct hrtimer_cpu_base *cb, ktime_t now,
				 unsigned long flags, bool soft)
{
	struct hrtimer_clock_base *base = &cb->clock_base[soft ?
			HRTIMER_BASE_MONOTONIC_SOFT : HRTIMER_BASE_MONOTONIC];
	struct hrtimer *timer;

	while ((timer = first_timer(base))) {
		if (now < hrtimer_get_softexpires(timer))
			break;
		__run_hrtimer(cb, base, timer, flags);
		if (soft)
			hrtimer_sync_wait_running(cb, flags);
	}
}

/* The clock event handler: hard interrupt, interrupts off. */
void hrtimer_interrupt(struct clock_event_device *ced)
{
	struct hrtimer_cpu_base *cb = this_cpu_ptr(&hrtimer_bases);
	unsigned long flags;
	ktime_t now, expires_next;
	int retries = 0;

	raw_spin_lock_irqsave(&cb->lock, flags);
	cb->nr_events++;
	now = ktime_get();
	for (;;) {
		cb->in_hrtirq = 1;
		cb->expires_next = KTIME_MAX;
		if (!cb->softirq_activated && now >= cb->softirq_expires_next) {
			cb->softirq_expires_next = KTIME_MAX;
			cb->softirq_activated = 1;
			raise_softirq_irqoff(HRTIMER_SOFTIRQ);
		}
		__hrtimer_run_queues(cb, now, flags, false);
		expires_next = hrtimer_update_next_event(cb);
		cb->in_hrtirq = 0;
		now = ktime_get();
		/* Something expired while we ran callbacks: serve it now. */
		if (expires_next > now || ++retries > HRTIMER_PROGRAM_RETRIES)
			break;
		cb->nr_retries++;
	}
	/*
	 * After the retries an expiry may already be past: we take the
	 * interrupt again at once.  Linux instead backs off (hang detection,
	 * up to 100 ms); irqlab prefers never to delay a timer, and counts
	 * the retries in nr_retries.
	 */
	hrtimer_program(cb, expires_next);
	raw_spin_unlock_irqrestore(&cb->lock, flags);
}

static void hrtimer_run_softirq(struct softirq_action *h)
{
	struct hrtimer_cpu_base *cb = this_cpu_ptr(&hrtimer_bases);
	unsigned long flags;

	hrtimer_cpu_base_lock_expiry(cb);
	raw_spin_lock_irqsave(&cb->lock, flags);
	__hrtimer_run_queues(cb, ktime_get(), flags, true);
	cb->softirq_activated = 0;
	hrtimer_force_reprogram(cb);
	raw_spin_unlock_irqrestore(&cb->lock, flags);
	hrtimer_cpu_base_unlock_expiry(cb);
}

/* Lend the device out (tick_suspend_local()) and take it back. */
void hrtimers_suspend_local(void)
{
	struct hrtimer_cpu_base *cb = this_cpu_ptr(&hrtimer_bases);
	unsigned long flags;

	raw_spin_lock_irqsave(&cb->lock, flags);
	cb->suspended = 1;
	raw_spin_unlock_irqrestore(&cb->lock, flags);
}

void hrtimers_resume_local(void)
{
	struct hrtimer_cpu_base *cb = this_cpu_ptr(&hrtimer_bases);
	unsigned long flags;

	raw_spin_lock_irqsave(&cb->lock, flags);
	cb->suspended = 0;
	this_cpu_clockevent()->event_handler = hrtimer_interrupt;
	hrtimer_force_reprogram(cb);
	raw_spin_unlock_irqrestore(&cb->lock, flags);
}

/* --- CPU hotplug ---------------------------------------------------- */

/*
 * Move every timer of @old_base to @new_base, both locked.  The timer is
 * marked queued throughout (dequeue_hrtimer() would mark it inactive, and
 * hrtimer_active() on another CPU must not see it vanish in between).  A
 * timer keeps its base index, so hard timers stay hard and soft ones soft.
 */
static void migrate_hrtimer_list(struct hrtimer_clock_base *from,
				 struct hrtimer_clock_base *to)
{
	struct hrtimer *timer;

	/* the CPU is dead: no callback of it can still be running */
	WARN_ON_ONCE(from->running);
	while ((timer = first_timer(from))) {
		rb_erase_cached(&timer->node.node, &from->active.rb_root);
		RB_CLEAR_NODE(&timer->node.node);
		WRITE_ONCE(timer->base, to);
		/* the device is reprogrammed once all are moved */
		enqueue_hrtimer(timer, to);
	}
}

/*
 * CPUHP_HRTIMERS_PREPARE teardown, on the control CPU once @scpu has
 * stopped: its timers go to this CPU's bases and expire here.  BH is
 * disabled first so that raising HRTIMER_SOFTIRQ under the base lock does
 * not wake ksoftirqd (and take the scheduler's locks) there.
 */
int hrtimers_dead_cpu(unsigned int scpu)
{
	struct hrtimer_cpu_base *dead, *here;

	WARN_ON_ONCE(cpu_online(scpu));

	local_bh_disable();
	local_irq_disable();
	dead = &per_cpu(hrtimer_bases, scpu);
	here = this_cpu_ptr(&hrtimer_bases);
	/* Ours first, the dead CPU's nested in it: the only order used. */
	raw_spin_lock(&here->lock);
	raw_spin_lock_nested(&dead->lock, SINGLE_DEPTH_NESTING);

	for (int i = 0; i < HRTIMER_MAX_CLOCK_BASES; i++)
		migrate_hrtimer_list(&dead->clock_base[i],
				     &here->clock_base[i]);
	dead->expires_next = KTIME_MAX;
	dead->softirq_expires_next = KTIME_MAX;

	raw_spin_unlock(&dead->lock);
	/* new first timers, hard or soft: program the device for them */
	hrtimer_force_reprogram(here);
	raw_spin_unlock(&here->lock);

	/* some may be due already: serve them as the interrupt would */
	if (!here->suspended)
		hrtimer_interrupt(this_cpu_clockevent());
	local_irq_enable();
	local_bh_enable();
	return 0;
}

/* Linux keeps these two in its static hotplug table; irqlab registers. */
void hrtimers_init(void)
{
	cpuhp_setup_state_nocalls(CPUHP_HRTIMERS_PREPARE, "hrtimers:prepare",
				  hrtimers_prepare_cpu, hrtimers_dead_cpu);
}

/* --- sleeping ------------------------------------------------------- */

static enum hrtimer_restart hrtimer_wakeup(struct hrtimer *tmr)
{
	struct hrtimer_sleeper *t = container_of(tmr, struct hrtimer_sleeper, timer);
	struct task_struct *task = t->task;

	WRITE_ONCE(t->task, NULL);
	if (task)
		wake_up_process(task);
	return HRTIMER_NORESTART;
}

/*
 * On PREEMPT_RT a sleeper of an RT task expires in hard IRQ (its wakeup
 * must not wait for ksoftirqd); other sleepers are soft there.
 */
void hrtimer_init_sleeper(struct hrtimer_sleeper *sl, clockid_t clock_id, enum hrtimer_mode mode)
{
	if (HRTIMER_RT && rt_task(current) && !(mode & HRTIMER_MODE_SOFT))
		mode |= HRTIMER_MODE_HARD;
	hrtimer_init(&sl->timer, clock_id, mode);
	sl->timer.function = hrtimer_wakeup;
	sl->task = current;
}

void hrtimer_sleeper_start_expires(struct hrtimer_sleeper *sl, enum hrtimer_mode mode)
{
	if (HRTIMER_RT && sl->timer.is_hard)
		mode |= HRTIMER_MODE_HARD;
	if (HRTIMER_RT && sl->timer.is_soft)
		mode &= ~HRTIMER_MODE_HARD;
	hrtimer_start_expires(&sl->timer, mode);
}

/*
 * Sleep in the state the caller set until @expires (+ up to @slack).
 * 0 when the timer expired, -EINTR when woken earlier.  NULL: no timeout.
 */
int schedule_hrtimeout_range(ktime_t *expires, u64 slack, const enum hrtimer_mode mode)
{
	struct hrtimer_sleeper sl;

	if (expires && *expires == 0 && (mode & HRTIMER_MODE_REL)) {
		__set_current_state(TASK_RUNNING);
		return 0;
	}
	if (!expires) {
		schedule();
		return -EINTR;
	}
	hrtimer_init_sleeper(&sl, CLOCK_MONOTONIC, mode);
	hrtimer_set_expires_range_ns(&sl.timer, *expires, slack);
	hrtimer_sleeper_start_expires(&sl, mode);
	if (READ_ONCE(sl.task))
		schedule();
	__set_current_state(TASK_RUNNING);
	hrtimer_cancel(&sl.timer);
	return READ_ONCE(sl.task) ? -EINTR : 0;
}

int schedule_hrtimeout(ktime_t *exp, const enum hrtimer_mode mode)
{
	return schedule_hrtimeout_range(exp, 0, mode);
}

/* A jiffies timeout on an hrtimer; returns the jiffies left (0: timed out). */
long schedule_timeout(long timeout)
{
	ktime_t expires, left;

	if (timeout == MAX_SCHEDULE_TIMEOUT) {
		schedule();
		return timeout;
	}
	if (timeout < 0) {
		WARN_ON_ONCE(1);	/* negative timeout */
		__set_current_state(TASK_RUNNING);
		return 0;
	}
	expires = ktime_get() + (ktime_t)timeout * TICK_NSEC;
	if (!schedule_hrtimeout(&expires, HRTIMER_MODE_ABS))
		return 0;
	left = expires - ktime_get();
	return left <= 0 ? 0 : (long)DIV_ROUND_UP((u64)left, TICK_NSEC);
}

long schedule_timeout_uninterruptible(long timeout)
{
	__set_current_state(TASK_UNINTERRUPTIBLE);
	return schedule_timeout(timeout);
}

/* Sleep for at least @min us, letting the wakeup coalesce up to @max us. */
void usleep_range(unsigned long min, unsigned long max)
{
	ktime_t exp = ktime_get() + (ktime_t)min * NSEC_PER_USEC;
	u64 delta = (u64)(max > min ? max - min : 0) * NSEC_PER_USEC;

	do {
		__set_current_state(TASK_UNINTERRUPTIBLE);
	} while (schedule_hrtimeout_range(&exp, delta, HRTIMER_MODE_ABS));
}

/* Sleep for at least @msecs ms (an hrtimer sleep, not rounded to ticks). */
void msleep(unsigned int msecs)
{
	ktime_t exp = ktime_get() + (ktime_t)msecs * NSEC_PER_MSEC;

	do {
		__set_current_state(TASK_UNINTERRUPTIBLE);
	} while (schedule_hrtimeout(&exp, HRTIMER_MODE_ABS));
}
