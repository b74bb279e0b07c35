// SPDX-License-Identifier: GPL-2.0
/*
 * run=rcutorture: Linux's rcutorture (kernel/rcu/rcutorture.c) at irqlab's
 * scale, as a workload with a verdict.
 *
 * One writer kthread keeps replacing the element rcu_torture_current points
 * to with a fresh one from a fixed pool, and retires the old one through a
 * pipeline: its rtort_pipe_count is 1 once it is unreachable, and every
 * grace period after that adds one (synchronize_*() for the elements on the
 * rcu_torture_removed list, or a callback that queues itself again); it
 * goes back to the pool after RCU_TORTURE_PIPE_LEN of them.  Readers (and,
 * with irqreader, a soft hrtimer of each reader, like Linux's timer
 * readers) pick up the current element inside a read-side critical
 * section, maybe dawdle there, then record the element's pipe count in a
 * histogram ("Reader Pipe:").  A count above 1 means the reader held an
 * element across a grace period that ended while it was still inside its
 * section: RCU is broken.  Fake writers call synchronize and barrier to add
 * grace-period traffic; with n_barrier_cbs, a barrier test checks that the
 * flavour's barrier waits for one callback queued on each CPU.
 *
 * torture_type=busted is Linux's deliberately broken flavour: its
 * "grace periods" end at once, so the run must end "End of test: FAILURE"
 * with non-zero Reader Pipe counts past the second bucket.  It exists to
 * prove the checker catches what it claims to.
 *
 * Left out from Linux's: reader-section extension (nested BH/IRQ/preempt
 * protections), the reader mailbox memory-ordering check (rtmbkf), CPU
 * hotplug, stutter, boost, stall, fqs, forward-progress and read-exit
 * kthreads, expedited and polled grace periods (irqlab has none).
 */
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/sched.h>
#include <linux/kthread.h>
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/ktest.h>
#include <linux/list.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/record.h>
#include <linux/spinlock.h>
#include <linux/srcu.h>
#include <linux/wait.h>
#include <linux/rcupdate.h>
#include "rcu.h"

#define TORTURE_FLAG		"-torture:"
#define RCU_TORTURE_PIPE_LEN	10

enum { TT_RCU, TT_SRCU, TT_SRCUD, TT_BUSTED };
static const char *const torture_types[] = { "rcu", "srcu", "srcud", "busted", NULL };
static int torture_type_idx = TT_RCU;
static int nreaders = -1;
static int nfakewriters = 4;
static int stat_interval = 60;
static int irqreader = 1;
static int n_barrier_cbs;
static int duration_ms = 1000;

core_param_enum("rcutorture.torture_type", torture_type_idx, torture_types,
		"flavour under test (busted: a broken one the test must catch)");
core_param_range("rcutorture.nreaders", nreaders, int, -256, 256,
		 "reader kthreads; negative: online CPUs - 2 - nreaders, at least 1");
core_param_range("rcutorture.nfakewriters", nfakewriters, int, 0, 64,
		 "kthreads that only call synchronize and barrier");
core_param_range("rcutorture.stat_interval", stat_interval, int, 0, 3600,
		 "seconds between statistics lines during the run (0: at the end only)");
core_param_range("rcutorture.irqreader", irqreader, int, 0, 1,
		 "each reader also reads from a soft hrtimer and queues a callback there");
core_param_range("rcutorture.n_barrier_cbs", n_barrier_cbs, int, 0, 64,
		 "callbacks (one per kthread) posted for each barrier test (0: no test)");
core_param_range("rcutorture.duration_ms", duration_ms, int, 1, 3600000,
		 "how long the torture runs");

static const char *torture_type;
static int nrealreaders;

struct torture_random_state {
	u64 trs_state;
};

/* xorshift64: a fixed seed per thread keeps icount runs repeatable. */
static unsigned long torture_random(struct torture_random_state *trsp)
{
	u64 x = trsp->trs_state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	trsp->trs_state = x;
	return (unsigned long)(x >> 11);
}

static void torture_random_init(struct torture_random_state *trsp, unsigned long seed)
{
	trsp->trs_state = 0x9e3779b97f4a7c15ULL ^ ((u64)seed * 0x2545f4914f6cdd1dULL);
	if (!trsp->trs_state)
		trsp->trs_state = 1;
}

/* The element readers find at rcu_torture_current. */
struct rcu_torture {
	struct rcu_head rtort_rcu;
	int rtort_pipe_count;
	struct list_head rtort_free;
	int rtort_mbtest;		/* 0 once back in the pool */
};

static LIST_HEAD(rcu_torture_freelist);
static struct rcu_torture *rcu_torture_current;
static unsigned long rcu_torture_current_version;
static struct rcu_torture rcu_tortures[10 * RCU_TORTURE_PIPE_LEN];
static DEFINE_SPINLOCK(rcu_torture_lock);
static DEFINE_PER_CPU(long [RCU_TORTURE_PIPE_LEN + 1], rcu_torture_count);
static DEFINE_PER_CPU(long [RCU_TORTURE_PIPE_LEN + 1], rcu_torture_batch);
static DEFINE_PER_CPU(struct torture_random_state, rcu_torture_timer_rand);
static atomic_t rcu_torture_wcount[RCU_TORTURE_PIPE_LEN + 1];
static atomic_t n_rcu_torture_alloc;
static atomic_t n_rcu_torture_alloc_fail;
static atomic_t n_rcu_torture_free;
static atomic_t n_rcu_torture_mberror;
static atomic_t n_rcu_torture_error;
static long n_rcu_torture_barrier_error;
static atomic_long_t n_rcu_torture_timers;
static atomic_long_t n_rcu_torture_timer_cbs;		/* queued by timer readers */
static atomic_long_t n_rcu_torture_timer_cbs_done;	/* and invoked */
static long n_barrier_attempts;
static long n_barrier_successes;
static struct list_head rcu_torture_removed;
static unsigned long start_gp_seq, end_gp_seq;
/* Set at cleanup: callbacks give their element back instead of re-queueing. */
static bool rcu_torture_stopping;

static int rcu_torture_writer_state;
#define RTWS_FIXED_DELAY	0
#define RTWS_DELAY		1
#define RTWS_REPLACE		2
#define RTWS_DEF_FREE		3
#define RTWS_SYNC		4
#define RTWS_STOPPING		5
static const char *const rcu_torture_writer_state_names[] = {
	"RTWS_FIXED_DELAY", "RTWS_DELAY", "RTWS_REPLACE", "RTWS_DEF_FREE",
	"RTWS_SYNC", "RTWS_STOPPING",
};

static struct task_struct *writer_task;
static struct task_struct **fakewriter_tasks;
static struct task_struct **reader_tasks;
static struct task_struct *stats_task;
static struct task_struct **barrier_cbs_tasks;
static struct task_struct *barrier_task;
static bool barrier_task_started;	/* a barrier test was asked for and runs */

/* ------------------------------------------------------------ the pool */

static struct rcu_torture *rcu_torture_alloc(void)
{
	struct list_head *p;

	spin_lock_bh(&rcu_torture_lock);
	if (list_empty(&rcu_torture_freelist)) {
		atomic_inc(&n_rcu_torture_alloc_fail);
		spin_unlock_bh(&rcu_torture_lock);
		return NULL;
	}
	atomic_inc(&n_rcu_torture_alloc);
	p = rcu_torture_freelist.next;
	list_del_init(p);
	spin_unlock_bh(&rcu_torture_lock);
	return container_of(p, struct rcu_torture, rtort_free);
}

static void rcu_torture_free(struct rcu_torture *p)
{
	atomic_inc(&n_rcu_torture_free);
	spin_lock_bh(&rcu_torture_lock);
	list_add_tail(&p->rtort_free, &rcu_torture_freelist);
	spin_unlock_bh(&rcu_torture_lock);
}

/* -------------------------------------------------------------- flavours */

struct rcu_torture_ops {
	void (*init)(void);
	void (*cleanup)(void);
	int (*readlock)(void);
	void (*read_delay)(struct torture_random_state *rrsp, bool in_timer);
	void (*readunlock)(int idx);
	unsigned long (*get_gp_seq)(void);
	unsigned long (*gp_diff)(unsigned long new, unsigned long old);
	void (*deferred_free)(struct rcu_torture *p);
	void (*sync)(void);
	call_rcu_func_t call;
	void (*cb_barrier)(void);
	int irq_capable;
	int call_from_ipi;	/* ->call() is safe in hard interrupt context */
	const char *name;
};

static struct rcu_torture_ops *cur_ops;

/*
 * One more grace period has passed over @rp: true once it has been through
 * the whole pipeline and may be reused.
 */
static bool rcu_torture_pipe_update_one(struct rcu_torture *rp)
{
	int i = READ_ONCE(rp->rtort_pipe_count);

	if (i > RCU_TORTURE_PIPE_LEN)
		i = RCU_TORTURE_PIPE_LEN;
	atomic_inc(&rcu_torture_wcount[i]);
	WRITE_ONCE(rp->rtort_pipe_count, i + 1);
	if (rp->rtort_pipe_count >= RCU_TORTURE_PIPE_LEN) {
		rp->rtort_mbtest = 0;
		return true;
	}
	return false;
}

/* After a synchronous grace period: every element waiting moves on. */
static void rcu_torture_pipe_update(struct rcu_torture *old_rp)
{
	struct rcu_torture *rp, *rp1;

	if (old_rp)
		list_add(&old_rp->rtort_free, &rcu_torture_removed);
	list_for_each_entry_safe(rp, rp1, &rcu_torture_removed, rtort_free) {
		if (rcu_torture_pipe_update_one(rp)) {
			list_del(&rp->rtort_free);
			rcu_torture_free(rp);
		}
	}
}

static void rcu_torture_cb(struct rcu_head *p)
{
	struct rcu_torture *rp = container_of(p, struct rcu_torture, rtort_rcu);

	/*
	 * At the end no more grace periods are wanted: a full one has passed
	 * since the element was unlinked, so it can go back at once (Linux
	 * drops it and lets the next run rebuild the pool; giving it back
	 * lets the run check that nothing leaked).
	 */
	if (READ_ONCE(rcu_torture_stopping)) {
		rcu_torture_free(rp);
		return;
	}
	if (rcu_torture_pipe_update_one(rp))
		rcu_torture_free(rp);
	else
		cur_ops->deferred_free(rp);
}

static void rcu_sync_torture_init(void)
{
	INIT_LIST_HEAD(&rcu_torture_removed);
}

static int rcu_torture_read_lock(void)
{
	rcu_read_lock();
	return 0;
}

static void rcu_torture_read_unlock(int idx)
{
	rcu_read_unlock();
}

/*
 * Dawdle inside the section now and then, so that a grace period that does
 * not wait for readers gets the chance to end under one: rarely a long
 * busy wait, sometimes a short one, and, where the section may be
 * preempted (PREEMPT_RCU), sometimes a preemption.  A timer reader only
 * busy-waits briefly.  The long wait is 30 ms, not Linux's 300: irqlab's
 * runs last a second or so and, under icount, every busy-wait nanosecond
 * is a guest instruction the run pays for; the odds scale with it, so the
 * share of time spent waiting stays Linux's.
 */
static void rcu_read_delay(struct torture_random_state *rrsp, bool in_timer)
{
	const unsigned long shortdelay_us = 200;
	unsigned long longdelay_ms = 30;

	if (!in_timer && !(torture_random(rrsp) % (nrealreaders * 2000 * longdelay_ms)))
		mdelay(longdelay_ms);
	if (!(torture_random(rrsp) % (nrealreaders * 2 * shortdelay_us)))
		udelay(shortdelay_us);
	if (!in_timer && !preempt_count() && !(torture_random(rrsp) % (nrealreaders * 500)))
		preempt_schedule();	/* a quiescent state only if preemptible */
}

static unsigned long rcu_torture_gp_seq_diff(unsigned long new, unsigned long old)
{
	return rcu_seq_diff(new, old);
}

static void rcu_torture_deferred_free(struct rcu_torture *p)
{
	call_rcu(&p->rtort_rcu, rcu_torture_cb);
}

static struct rcu_torture_ops rcu_ops = {
	.init		= rcu_sync_torture_init,
	.readlock	= rcu_torture_read_lock,
	.read_delay	= rcu_read_delay,
	.readunlock	= rcu_torture_read_unlock,
	.get_gp_seq	= rcu_get_gp_seq,
	.gp_diff	= rcu_torture_gp_seq_diff,
	.deferred_free	= rcu_torture_deferred_free,
	.sync		= synchronize_rcu,
	.call		= call_rcu,
	.cb_barrier	= rcu_barrier,
	.irq_capable	= 1,
	.call_from_ipi	= 1,
	.name		= "rcu",
};

/*
 * Deliberately broken, as Linux's rcu_busted_ops: a "grace period" that
 * does not wait for anyone.  Only for proving the checks work.
 */
static unsigned long rcu_no_completed(void)
{
	return 0;
}

static void rcu_busted_torture_deferred_free(struct rcu_torture *p)
{
	rcu_torture_cb(&p->rtort_rcu);		/* the bug, on purpose */
}

static void synchronize_rcu_busted(void)
{
	/* the bug, on purpose: returns without waiting */
}

static void call_rcu_busted(struct rcu_head *head, rcu_callback_t func)
{
	func(head);				/* the bug, on purpose */
}

static struct rcu_torture_ops rcu_busted_ops = {
	.init		= rcu_sync_torture_init,
	.readlock	= rcu_torture_read_lock,
	.read_delay	= rcu_read_delay,
	.readunlock	= rcu_torture_read_unlock,
	.get_gp_seq	= rcu_no_completed,
	.deferred_free	= rcu_busted_torture_deferred_free,
	.sync		= synchronize_rcu_busted,
	.call		= call_rcu_busted,
	.cb_barrier	= NULL,
	.irq_capable	= 1,
	.name		= "busted",
};

/* SRCU: a static domain (srcu) or one set up for the run (srcud). */
DEFINE_STATIC_SRCU(srcu_ctl);
static struct srcu_struct srcu_ctld;
static struct srcu_struct *srcu_ctlp = &srcu_ctl;

static int srcu_torture_read_lock(void)
{
	return srcu_read_lock(srcu_ctlp);
}

/* SRCU readers may sleep: now and then a reader sleeps ten ticks. */
static void srcu_read_delay(struct torture_random_state *rrsp, bool in_timer)
{
	const long uspertick = 1000000 / HZ;
	const long longdelay = 10;
	long delay;

	delay = torture_random(rrsp) % (nrealreaders * 2 * longdelay * uspertick);
	if (!delay && !in_timer && in_task())
		schedule_timeout_uninterruptible(longdelay);
	else
		rcu_read_delay(rrsp, in_timer);
}

static void srcu_torture_read_unlock(int idx)
{
	srcu_read_unlock(srcu_ctlp, idx);
}

static unsigned long srcu_torture_completed(void)
{
	return srcu_batches_completed(srcu_ctlp);
}

static void srcu_torture_deferred_free(struct rcu_torture *rp)
{
	call_srcu(srcu_ctlp, &rp->rtort_rcu, rcu_torture_cb);
}

static void srcu_torture_synchronize(void)
{
	synchronize_srcu(srcu_ctlp);
}

static void srcu_torture_call(struct rcu_head *head, rcu_callback_t func)
{
	call_srcu(srcu_ctlp, head, func);
}

static void srcu_torture_barrier(void)
{
	srcu_barrier(srcu_ctlp);
}

static struct rcu_torture_ops srcu_ops = {
	.init		= rcu_sync_torture_init,
	.readlock	= srcu_torture_read_lock,
	.read_delay	= srcu_read_delay,
	.readunlock	= srcu_torture_read_unlock,
	.get_gp_seq	= srcu_torture_completed,
	.deferred_free	= srcu_torture_deferred_free,
	.sync		= srcu_torture_synchronize,
	.call		= srcu_torture_call,
	.cb_barrier	= srcu_torture_barrier,
	.irq_capable	= 1,
	.name		= "srcu",
};

static void srcu_torture_init(void)
{
	rcu_sync_torture_init();
	WARN_ON(init_srcu_struct(&srcu_ctld));
	srcu_ctlp = &srcu_ctld;
}

static void srcu_torture_cleanup(void)
{
	cleanup_srcu_struct(&srcu_ctld);
	srcu_ctlp = &srcu_ctl;
}

static struct rcu_torture_ops srcud_ops = {
	.init		= srcu_torture_init,
	.cleanup	= srcu_torture_cleanup,
	.readlock	= srcu_torture_read_lock,
	.read_delay	= srcu_read_delay,
	.readunlock	= srcu_torture_read_unlock,
	.get_gp_seq	= srcu_torture_completed,
	.deferred_free	= srcu_torture_deferred_free,
	.sync		= srcu_torture_synchronize,
	.call		= srcu_torture_call,
	.cb_barrier	= srcu_torture_barrier,
	.irq_capable	= 1,
	.name		= "srcud",
};

static struct rcu_torture_ops *const torture_ops[] = {
	[TT_RCU] = &rcu_ops, [TT_SRCU] = &srcu_ops, [TT_SRCUD] = &srcud_ops,
	[TT_BUSTED] = &rcu_busted_ops,
};

/* Grace periods between two get_gp_seq() snapshots. */
static unsigned long rcutorture_seq_diff(unsigned long new, unsigned long old)
{
	if (!cur_ops->gp_diff)
		return new - old;
	return cur_ops->gp_diff(new, old);
}

/* ------------------------------------------------------------- writers */

static int synctype[2];
static int nsynctypes;

/* The ways the writer may retire an element: callbacks and/or sync. */
static void rcu_torture_write_types(void)
{
	nsynctypes = 0;
	if (cur_ops->deferred_free)
		synctype[nsynctypes++] = RTWS_DEF_FREE;
	if (cur_ops->sync)
		synctype[nsynctypes++] = RTWS_SYNC;
}

static int rcu_torture_writer(void *arg)
{
	struct torture_random_state rand;
	struct rcu_torture *rp, *old_rp;
	int i;

	torture_random_init(&rand, 1);
	do {
		rcu_torture_writer_state = RTWS_FIXED_DELAY;
		usleep_range(500, 1000);
		rp = rcu_torture_alloc();
		if (!rp)
			continue;
		rp->rtort_pipe_count = 0;
		rcu_torture_writer_state = RTWS_DELAY;
		udelay(torture_random(&rand) & 0x3ff);
		rcu_torture_writer_state = RTWS_REPLACE;
		old_rp = rcu_dereference_protected(rcu_torture_current, 1);
		rp->rtort_mbtest = 1;
		rcu_assign_pointer(rcu_torture_current, rp);
		smp_wmb();	/* the new element is published before the old one ages */
		if (old_rp) {
			i = old_rp->rtort_pipe_count;
			if (i > RCU_TORTURE_PIPE_LEN)
				i = RCU_TORTURE_PIPE_LEN;
			atomic_inc(&rcu_torture_wcount[i]);
			WRITE_ONCE(old_rp->rtort_pipe_count, old_rp->rtort_pipe_count + 1);
			switch (synctype[torture_random(&rand) % nsynctypes]) {
			case RTWS_DEF_FREE:
				rcu_torture_writer_state = RTWS_DEF_FREE;
				cur_ops->deferred_free(old_rp);
				break;
			case RTWS_SYNC:
				rcu_torture_writer_state = RTWS_SYNC;
				cur_ops->sync();
				rcu_torture_pipe_update(old_rp);
				break;
			}
		}
		WRITE_ONCE(rcu_torture_current_version, rcu_torture_current_version + 1);
	} while (!kthread_should_stop());
	rcu_torture_writer_state = RTWS_STOPPING;
	return 0;
}

/* Only grace-period traffic: synchronize, now and then a barrier. */
static int rcu_torture_fakewriter(void *arg)
{
	struct torture_random_state rand;

	torture_random_init(&rand, 100 + (long)arg);
	set_user_nice(current, MAX_NICE);
	do {
		schedule_timeout_uninterruptible(torture_random(&rand) % 10);
		if (cur_ops->cb_barrier && torture_random(&rand) % (nfakewriters * 8) == 0)
			cur_ops->cb_barrier();
		else if (synctype[torture_random(&rand) % nsynctypes] == RTWS_SYNC)
			cur_ops->sync();
		cond_resched();
	} while (!kthread_should_stop());
	return 0;
}

/* ------------------------------------------------------------- readers */

/*
 * One read: pick up the current element inside a read-side section,
 * dawdle, then note how far down the pipeline the element already is.
 * False if the writer has not published anything yet.
 */
static bool rcu_torture_one_read(struct torture_random_state *trsp, bool in_timer)
{
	unsigned long started, completed;
	struct rcu_torture *p;
	int idx, pipe_count;

	idx = cur_ops->readlock();
	started = cur_ops->get_gp_seq();
	p = rcu_dereference(rcu_torture_current);
	if (!p) {
		cur_ops->readunlock(idx);
		return false;
	}
	if (p->rtort_mbtest == 0)
		atomic_inc(&n_rcu_torture_mberror);
	cur_ops->read_delay(trsp, in_timer);
	preempt_disable();
	pipe_count = READ_ONCE(p->rtort_pipe_count);
	if (pipe_count > RCU_TORTURE_PIPE_LEN)
		pipe_count = RCU_TORTURE_PIPE_LEN;
	completed = cur_ops->get_gp_seq();
	this_cpu_ptr(&rcu_torture_count)[0][pipe_count]++;
	completed = rcutorture_seq_diff(completed, started);
	if (completed > RCU_TORTURE_PIPE_LEN)
		completed = RCU_TORTURE_PIPE_LEN;
	this_cpu_ptr(&rcu_torture_batch)[0][completed]++;
	preempt_enable();
	cur_ops->readunlock(idx);
	return true;
}

static void rcu_torture_timer_cb(struct rcu_head *rhp)
{
	atomic_long_inc(&n_rcu_torture_timer_cbs_done);
	kfree(rhp);
}

/*
 * A reader in softirq context (Linux uses a timer_list; irqlab's soft
 * hrtimers expire in the same place: HRTIMER_SOFTIRQ, or ktimersoftd on
 * RT), which also queues a callback from there.
 */
static enum hrtimer_restart rcu_torture_timer(struct hrtimer *t)
{
	struct rcu_head *rhp;

	atomic_long_inc(&n_rcu_torture_timers);
	rcu_torture_one_read(this_cpu_ptr(&rcu_torture_timer_rand), true);
	rhp = kmalloc(sizeof(*rhp), GFP_NOWAIT);
	if (rhp) {
		atomic_long_inc(&n_rcu_torture_timer_cbs);
		cur_ops->call(rhp, rcu_torture_timer_cb);
	}
	return HRTIMER_NORESTART;
}

static int rcu_torture_reader(void *arg)
{
	unsigned long lastsleep = jiffies;
	long myid = (long)arg;
	struct torture_random_state rand;
	struct hrtimer t;
	bool timer = irqreader && cur_ops->irq_capable && cur_ops->call;

	torture_random_init(&rand, 1000 + myid);
	set_user_nice(current, MAX_NICE);
	if (timer)
		hrtimer_init(&t, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	t.function = rcu_torture_timer;
	do {
		if (timer && !hrtimer_active(&t))
			hrtimer_start(&t, NSEC_PER_SEC / HZ, HRTIMER_MODE_REL_SOFT);
		if (!rcu_torture_one_read(&rand, false) && !kthread_should_stop())
			schedule_timeout_uninterruptible(1);
		if (time_after(jiffies, lastsleep) && !kthread_should_stop()) {
			usleep_range(500, 1000);
			lastsleep = jiffies + 10;
		}
		cond_resched();
	} while (!kthread_should_stop());
	if (timer)
		hrtimer_cancel(&t);
	return 0;
}

/* ---------------------------------------------------------- statistics */

/*
 * Linux's statistics lines.  A reader that saw pipe count 2 or more makes
 * this print count an error: its grace period ended too early.
 */
static void rcu_torture_stats_print(void)
{
	long pipesummary[RCU_TORTURE_PIPE_LEN + 1] = { 0 };
	long batchsummary[RCU_TORTURE_PIPE_LEN + 1] = { 0 };
	static unsigned long rtcv_snap = ULONG_MAX;
	bool bad, too_short;
	int cpu, i;

	for_each_possible_cpu(cpu) {
		for (i = 0; i < RCU_TORTURE_PIPE_LEN + 1; i++) {
			pipesummary[i] += READ_ONCE(per_cpu(rcu_torture_count, cpu)[i]);
			batchsummary[i] += READ_ONCE(per_cpu(rcu_torture_batch, cpu)[i]);
		}
	}
	for (i = RCU_TORTURE_PIPE_LEN - 1; i >= 0; i--)
		if (pipesummary[i] != 0)
			break;

	pr_info("%s%s rtc: %p ver: %lu tfle: %d rta: %d rtaf: %d rtf: %d rtmbe: %d "
		"rtbe: %ld nt: %ld barrier: %ld/%ld:%ld\n",
		torture_type, TORTURE_FLAG, READ_ONCE(rcu_torture_current),
		READ_ONCE(rcu_torture_current_version), list_empty(&rcu_torture_freelist),
		atomic_read(&n_rcu_torture_alloc), atomic_read(&n_rcu_torture_alloc_fail),
		atomic_read(&n_rcu_torture_free), atomic_read(&n_rcu_torture_mberror),
		n_rcu_torture_barrier_error, atomic_long_read(&n_rcu_torture_timers),
		READ_ONCE(n_barrier_successes), READ_ONCE(n_barrier_attempts),
		n_rcu_torture_barrier_error);

	bad = atomic_read(&n_rcu_torture_mberror) || n_rcu_torture_barrier_error || i > 1;
	too_short = i > 1;	/* a grace period ended under a reader */
	if (bad)
		atomic_inc(&n_rcu_torture_error);
	pr_info("%s%s %sReader Pipe: ", torture_type, TORTURE_FLAG, bad ? "!!! " : "");
	for (i = 0; i < RCU_TORTURE_PIPE_LEN + 1; i++)
		pr_cont(" %ld", pipesummary[i]);
	pr_cont("\n");

	pr_info("%s%s Reader Batch: ", torture_type, TORTURE_FLAG);
	for (i = 0; i < RCU_TORTURE_PIPE_LEN + 1; i++)
		pr_cont(" %ld", batchsummary[i]);
	pr_cont("\n");

	pr_info("%s%s Free-Block Circulation: ", torture_type, TORTURE_FLAG);
	for (i = 0; i < RCU_TORTURE_PIPE_LEN + 1; i++)
		pr_cont(" %d", atomic_read(&rcu_torture_wcount[i]));
	pr_cont("\n");
	/* After the lines, which a splat in the middle would cut. */
	if (bad) {
		WARN_ON_ONCE(atomic_read(&n_rcu_torture_mberror));
		WARN_ON_ONCE(n_rcu_torture_barrier_error);
		WARN_ON_ONCE(too_short);
	}

	if (rtcv_snap == READ_ONCE(rcu_torture_current_version) &&
	    READ_ONCE(rcu_torture_current) && writer_task)
		pr_info("??? Writer stall state %s(%d)\n",
			rcu_torture_writer_state_names[READ_ONCE(rcu_torture_writer_state)],
			rcu_torture_writer_state);
	rtcv_snap = READ_ONCE(rcu_torture_current_version);
}

static int rcu_torture_stats(void *arg)
{
	do {
		schedule_timeout_uninterruptible(stat_interval * HZ);
		if (!kthread_should_stop())
			rcu_torture_stats_print();
	} while (!kthread_should_stop());
	return 0;
}

static void rcu_torture_print_module_parms(const char *tag)
{
	pr_info("%s%s--- %s: nreaders=%d nfakewriters=%d stat_interval=%d irqreader=%d "
		"n_barrier_cbs=%d duration_ms=%d\n", torture_type, TORTURE_FLAG, tag,
		nrealreaders, nfakewriters, stat_interval, irqreader, n_barrier_cbs,
		duration_ms);
}

/* ------------------------------------------------------------- barrier */

static atomic_t barrier_cbs_count;
static atomic_t barrier_cbs_invoked;
static bool barrier_phase;
static struct wait_queue_head *barrier_cbs_wq;
static DECLARE_WAIT_QUEUE_HEAD(barrier_wq);

static void rcu_torture_barrier_cbf(struct rcu_head *rcu)
{
	atomic_inc(&barrier_cbs_invoked);
}

/* IPI handler: the callback goes on this CPU's list. */
static void rcu_torture_barrier1cb(void *rcu_void)
{
	struct rcu_head *rhp = rcu_void;

	cur_ops->call(rhp, rcu_torture_barrier_cbf);
}

/*
 * Queue one callback per barrier phase on CPU myid, from an IPI there (or
 * from here when that CPU is not online).  irqlab's call_srcu() takes a
 * spinlock_t, which RT forbids in hard interrupt context, so for flavours
 * without ->call_from_ipi the kthread is bound to CPU myid instead and
 * queues the callback itself.
 */
static int rcu_torture_barrier_cbs(void *arg)
{
	long myid = (long)arg;
	bool lastphase = false, newphase;
	struct rcu_head rcu;

	set_user_nice(current, MAX_NICE);
	do {
		wait_event(barrier_cbs_wq[myid],
			   (newphase = smp_load_acquire(&barrier_phase)) != lastphase ||
			   kthread_should_stop());
		lastphase = newphase;
		if (kthread_should_stop())
			break;
		if (!cur_ops->call_from_ipi ||
		    smp_call_function_single(myid, rcu_torture_barrier1cb, &rcu, 1))
			cur_ops->call(&rcu, rcu_torture_barrier_cbf);
		if (atomic_dec_and_test(&barrier_cbs_count))
			wake_up(&barrier_wq);
	} while (!kthread_should_stop());
	cur_ops->cb_barrier();	/* @rcu is on this stack */
	return 0;
}

static int rcu_torture_barrier(void *arg)
{
	int i;

	do {
		atomic_set(&barrier_cbs_invoked, 0);
		atomic_set(&barrier_cbs_count, n_barrier_cbs);
		smp_store_release(&barrier_phase, !barrier_phase);
		for (i = 0; i < n_barrier_cbs; i++)
			wake_up(&barrier_cbs_wq[i]);
		wait_event(barrier_wq, atomic_read(&barrier_cbs_count) == 0 ||
			   kthread_should_stop());
		if (kthread_should_stop())
			break;
		n_barrier_attempts++;
		cur_ops->cb_barrier();
		if (atomic_read(&barrier_cbs_invoked) != n_barrier_cbs) {
			n_rcu_torture_barrier_error++;
			pr_err("barrier_cbs_invoked = %d, n_barrier_cbs = %d\n",
			       atomic_read(&barrier_cbs_invoked), n_barrier_cbs);
			WARN_ON(1);
			/* Wait for the stragglers, at most a second. */
			for (i = 0; i < HZ && atomic_read(&barrier_cbs_invoked) != n_barrier_cbs &&
				    !kthread_should_stop(); i++) {
				schedule_timeout_uninterruptible(1);
				cur_ops->cb_barrier();
			}
		} else {
			n_barrier_successes++;
		}
		schedule_timeout_uninterruptible(HZ / 10);
	} while (!kthread_should_stop());
	return 0;
}

/* ------------------------------------------------------- start and end */

static void torture_stop_kthread(struct task_struct **tp)
{
	if (*tp)
		kthread_stop(*tp);
	*tp = NULL;
}

static struct task_struct *torture_create_kthread(int (*fn)(void *), long arg,
						  const char *name, int cpu)
{
	struct task_struct *p = kthread_create(fn, (void *)arg, "%s/%ld", name, arg);

	if (!p) {
		pr_err("%s%s no thread for %s/%ld\n", torture_type, TORTURE_FLAG, name, arg);
		return NULL;
	}
	if (cpu >= 0)
		kthread_bind(p, cpu);
	wake_up_process(p);
	return p;
}

static void rcu_torture_reset(void)
{
	int cpu, i;

	INIT_LIST_HEAD(&rcu_torture_freelist);
	for (i = 0; i < ARRAY_SIZE(rcu_tortures); i++) {
		rcu_tortures[i].rtort_mbtest = 0;
		list_add_tail(&rcu_tortures[i].rtort_free, &rcu_torture_freelist);
	}
	rcu_torture_current = NULL;
	rcu_torture_current_version = 0;
	for (i = 0; i < RCU_TORTURE_PIPE_LEN + 1; i++)
		atomic_set(&rcu_torture_wcount[i], 0);
	for_each_possible_cpu(cpu) {
		for (i = 0; i < RCU_TORTURE_PIPE_LEN + 1; i++) {
			per_cpu(rcu_torture_count, cpu)[i] = 0;
			per_cpu(rcu_torture_batch, cpu)[i] = 0;
		}
		torture_random_init(&per_cpu(rcu_torture_timer_rand, cpu), 5000 + cpu);
	}
	atomic_set(&n_rcu_torture_alloc, 0);
	atomic_set(&n_rcu_torture_alloc_fail, 0);
	atomic_set(&n_rcu_torture_free, 0);
	atomic_set(&n_rcu_torture_mberror, 0);
	atomic_set(&n_rcu_torture_error, 0);
	n_rcu_torture_barrier_error = 0;
	atomic_long_set(&n_rcu_torture_timers, 0);
	atomic_long_set(&n_rcu_torture_timer_cbs, 0);
	atomic_long_set(&n_rcu_torture_timer_cbs_done, 0);
	n_barrier_attempts = n_barrier_successes = 0;
	barrier_task_started = false;
	WRITE_ONCE(rcu_torture_stopping, false);
	rcu_torture_writer_state = RTWS_FIXED_DELAY;
}

static int rcu_torture_start(void)
{
	int i, cpu;
	long k;

	rcu_torture_write_types();
	writer_task = torture_create_kthread(rcu_torture_writer, 0, "rcu_torture_writer", -1);
	if (!writer_task)
		return -ENOMEM;
	fakewriter_tasks = kcalloc(nfakewriters ? nfakewriters : 1, sizeof(*fakewriter_tasks),
				   GFP_KERNEL);
	reader_tasks = kcalloc(nrealreaders, sizeof(*reader_tasks), GFP_KERNEL);
	if (!fakewriter_tasks || !reader_tasks)
		return -ENOMEM;
	for (k = 0; k < nfakewriters; k++)
		if (!(fakewriter_tasks[k] = torture_create_kthread(rcu_torture_fakewriter, k,
								  "rcu_torture_fakewriter", -1)))
			return -ENOMEM;
	for (k = 0; k < nrealreaders; k++)
		if (!(reader_tasks[k] = torture_create_kthread(rcu_torture_reader, k,
							      "rcu_torture_reader", -1)))
			return -ENOMEM;
	if (stat_interval > 0 &&
	    !(stats_task = torture_create_kthread(rcu_torture_stats, 0, "rcu_torture_stats", -1)))
		return -ENOMEM;
	if (n_barrier_cbs <= 0)
		return 0;
	if (!cur_ops->call || !cur_ops->cb_barrier) {
		pr_info("%s%s Call or barrier ops missing for %s,\n", torture_type, TORTURE_FLAG,
			cur_ops->name);
		pr_info("%s%s RCU barrier testing omitted from run.\n", torture_type,
			TORTURE_FLAG);
		return 0;
	}
	atomic_set(&barrier_cbs_count, 0);
	atomic_set(&barrier_cbs_invoked, 0);
	barrier_cbs_tasks = kcalloc(n_barrier_cbs, sizeof(*barrier_cbs_tasks), GFP_KERNEL);
	barrier_cbs_wq = kcalloc(n_barrier_cbs, sizeof(*barrier_cbs_wq), GFP_KERNEL);
	if (!barrier_cbs_tasks || !barrier_cbs_wq)
		return -ENOMEM;
	for (i = 0; i < n_barrier_cbs; i++) {
		cpu = !cur_ops->call_from_ipi && i < nr_cpu_ids && cpu_online(i) ? i : -1;
		init_waitqueue_head(&barrier_cbs_wq[i]);
		barrier_cbs_tasks[i] = torture_create_kthread(rcu_torture_barrier_cbs, i,
							      "rcu_torture_barrier_cbs", cpu);
		if (!barrier_cbs_tasks[i])
			return -ENOMEM;
	}
	barrier_task = torture_create_kthread(rcu_torture_barrier, 0, "rcu_torture_barrier", -1);
	barrier_task_started = barrier_task;
	return barrier_task ? 0 : -ENOMEM;
}

/* Elements back in the pool: all of them, once the run has cleaned up. */
static int rcu_torture_pool_free(void)
{
	struct list_head *p;
	int n = 0;

	spin_lock_bh(&rcu_torture_lock);
	list_for_each(p, &rcu_torture_freelist)
		n++;
	spin_unlock_bh(&rcu_torture_lock);
	return n;
}

/*
 * Stop every kthread, retire the last element, let every callback run,
 * and check that the pool and the timer readers' callbacks are all back.
 * Returns the number of leaked objects.
 */
static long rcu_torture_cleanup(void)
{
	struct rcu_torture *rp, *rp1, *old;
	long leaked = 0;
	int i, nfree;

	torture_stop_kthread(&barrier_task);
	if (barrier_cbs_tasks)
		for (i = 0; i < n_barrier_cbs; i++)
			torture_stop_kthread(&barrier_cbs_tasks[i]);
	torture_stop_kthread(&writer_task);
	if (reader_tasks)
		for (i = 0; i < nrealreaders; i++)
			torture_stop_kthread(&reader_tasks[i]);
	if (fakewriter_tasks)
		for (i = 0; i < nfakewriters; i++)
			torture_stop_kthread(&fakewriter_tasks[i]);
	torture_stop_kthread(&stats_task);

	/* No reader is left: what is still in the pipeline can go back. */
	WRITE_ONCE(rcu_torture_stopping, true);
	old = rcu_dereference_protected(rcu_torture_current, 1);
	WRITE_ONCE(rcu_torture_current, NULL);
	if (old) {
		cur_ops->sync();
		rcu_torture_free(old);
	}
	list_for_each_entry_safe(rp, rp1, &rcu_torture_removed, rtort_free) {
		list_del(&rp->rtort_free);
		rcu_torture_free(rp);
	}
	/*
	 * Twice: a callback that read rcu_torture_stopping as false just as
	 * the first barrier began may have queued itself behind it.
	 */
	if (cur_ops->cb_barrier) {
		cur_ops->cb_barrier();
		cur_ops->cb_barrier();
	}
	/* Before the flavour's cleanup: srcud's domain goes with it. */
	end_gp_seq = cur_ops->get_gp_seq();
	if (cur_ops->cleanup)
		cur_ops->cleanup();

	nfree = rcu_torture_pool_free();
	if (nfree != ARRAY_SIZE(rcu_tortures) ||
	    atomic_read(&n_rcu_torture_alloc) != atomic_read(&n_rcu_torture_free)) {
		pr_err("%s%s leak: %d of %zu elements back in the pool, rta %d rtf %d\n",
		       torture_type, TORTURE_FLAG, nfree, ARRAY_SIZE(rcu_tortures),
		       atomic_read(&n_rcu_torture_alloc), atomic_read(&n_rcu_torture_free));
		leaked += ARRAY_SIZE(rcu_tortures) - nfree;
		if (!leaked)
			leaked = 1;
	}
	if (atomic_long_read(&n_rcu_torture_timer_cbs) !=
	    atomic_long_read(&n_rcu_torture_timer_cbs_done)) {
		pr_err("%s%s leak: %ld timer-reader callbacks queued, %ld invoked\n",
		       torture_type, TORTURE_FLAG, atomic_long_read(&n_rcu_torture_timer_cbs),
		       atomic_long_read(&n_rcu_torture_timer_cbs_done));
		leaked += atomic_long_read(&n_rcu_torture_timer_cbs) -
			  atomic_long_read(&n_rcu_torture_timer_cbs_done);
	}
	kfree(reader_tasks);
	kfree(fakewriter_tasks);
	kfree(barrier_cbs_tasks);
	kfree(barrier_cbs_wq);
	reader_tasks = fakewriter_tasks = barrier_cbs_tasks = NULL;
	barrier_cbs_wq = NULL;
	return leaked;
}

static long rcu_torture_sum(long (*counts)[RCU_TORTURE_PIPE_LEN + 1], int from)
{
	long sum = 0;
	int cpu, i;

	for_each_possible_cpu(cpu)
		for (i = from; i < RCU_TORTURE_PIPE_LEN + 1; i++)
			sum += per_cpu(*counts, cpu)[i];
	return sum;
}

/*
 * Has every part of the run done something: a read, a second version from
 * the writer, a grace period (not for the busted flavour), a barrier test?
 * For the busted flavour, also a read that overlapped a retirement (pipe
 * count 2 or more): that flavour is there to be caught, and how many
 * overlaps a fixed time holds depends on how much of it the host let the
 * vCPUs run.  A checker that never sees one still ends in SUCCESS, at the
 * cap.  (Whether each happened is judged after the run; this only says
 * when to stop.)
 */
static bool rcu_torture_progressed(void)
{
	/* Without readers there is nothing to wait for: no read can come. */
	return (rcu_torture_sum(&rcu_torture_count, 0) || !nrealreaders) &&
	       rcu_torture_current_version >= 2 &&
	       (cur_ops == &rcu_busted_ops ?
		!nrealreaders || rcu_torture_sum(&rcu_torture_count, 2) :
		rcutorture_seq_diff(cur_ops->get_gp_seq(), start_gp_seq)) &&
	       (!barrier_task_started || READ_ONCE(n_barrier_attempts));
}

/* The run=rcutorture workload: 0 for "End of test: SUCCESS". */
int rcu_torture_run(void)
{
	unsigned long gps;
	long reads, pipe_errors, leaked;
	bool stalled = false, failed;
	const char *verdict;
	int ret;
	u64 t0, ns;

	cur_ops = torture_ops[torture_type_idx];
	torture_type = cur_ops->name;
	if (nreaders >= 0) {
		nrealreaders = nreaders;
	} else {
		nrealreaders = num_online_cpus() - 2 - nreaders;
		if (nrealreaders <= 0)
			nrealreaders = 1;
	}
	rcu_torture_reset();
	if (cur_ops->init)
		cur_ops->init();
	rcu_torture_print_module_parms("Start of test");
	start_gp_seq = cur_ops->get_gp_seq();
	pr_info("%s:  Start-test grace-period state: g%ld\n", cur_ops->name, (long)start_gp_seq);

	t0 = ktime_get_ns();
	ret = rcu_torture_start();
	if (!ret) {
		msleep(duration_ms);
		/*
		 * irqlab: the readers and the writer run at nice 19, as in
		 * Linux, and beside a busy load (run=hackbench,rcutorture) they
		 * may not have run at all yet.  Go on until each has (and, for
		 * busted, until a reader was caught), 60 s at most, so that the
		 * no-progress check below tells a stuck torture test from a
		 * starved one.
		 */
		for (int i = 0; i < 6000 && !rcu_torture_progressed(); i++)
			msleep(10);
	}
	leaked = rcu_torture_cleanup();
	ns = ktime_get_ns() - t0;

	gps = rcutorture_seq_diff(end_gp_seq, start_gp_seq);
	pr_info("%s:  End-test grace-period state: g%ld total-gps=%ld\n", cur_ops->name,
		(long)end_gp_seq, (long)gps);
	rcu_torture_stats_print();

	reads = rcu_torture_sum(&rcu_torture_count, 0);
	pipe_errors = rcu_torture_sum(&rcu_torture_count, 2);
	/*
	 * irqlab's addition: a run in which the writer, the readers or (for
	 * a real flavour) the grace periods made no progress proves nothing.
	 */
	if (!reads || rcu_torture_current_version < 2 ||
	    (cur_ops != &rcu_busted_ops && !gps) ||
	    (barrier_task_started && !n_barrier_attempts)) {
		pr_err("%s%s no progress: %ld reads, %lu versions, %lu grace periods, "
		       "%ld barrier tests\n", torture_type, TORTURE_FLAG, reads,
		       rcu_torture_current_version, gps, n_barrier_attempts);
		stalled = true;
	}
	if (ret)
		pr_err("%s%s could not start its kthreads (%d)\n", torture_type, TORTURE_FLAG, ret);
	failed = atomic_read(&n_rcu_torture_error) || n_rcu_torture_barrier_error ||
		 leaked || stalled || ret;
	verdict = failed ? "FAILURE" : "SUCCESS";
	rcu_torture_print_module_parms(failed ? "End of test: FAILURE" : "End of test: SUCCESS");

	if (record_emitf("{\"type\":\"rcutorture\",\"torture_type\":\"%s\",\"cpus\":%u,"
			 "\"nreaders\":%d,\"ms\":%llu,\"reads\":%ld,\"timer_reads\":%ld,"
			 "\"versions\":%lu,\"gps\":%lu,\"verdict\":\"%s\"}",
			 torture_type, num_online_cpus(), nrealreaders,
			 (unsigned long long)(ns / 1000000), reads,
			 atomic_long_read(&n_rcu_torture_timers), rcu_torture_current_version,
			 gps, verdict) < 0)
		pr_warn("%s%s the record does not fit\n", torture_type, TORTURE_FLAG);
	if (record_emitf("{\"type\":\"rcutorture_errors\",\"torture_type\":\"%s\","
			 "\"errors\":%d,\"pipe_errors\":%ld,\"mberrors\":%d,"
			 "\"barrier_errors\":%ld,\"barriers\":%ld,\"leaked\":%ld}",
			 torture_type, atomic_read(&n_rcu_torture_error), pipe_errors,
			 atomic_read(&n_rcu_torture_mberror), n_rcu_torture_barrier_error,
			 n_barrier_successes, leaked) < 0)
		pr_warn("%s%s the error record does not fit\n", torture_type, TORTURE_FLAG);
	return failed ? 1 : 0;
}
