/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Scheduler internals, laid out like Linux's kernel/sched/sched.h: per-CPU
 * run queues with a raw lock, one sub-queue per class, and the class
 * operations.  Classes in priority order: stop, rt, fair, idle.
 */
#ifndef _KERNEL_SCHED_SCHED_H
#define _KERNEL_SCHED_SCHED_H

#include <linux/sched.h>
#include <linux/bitmap.h>
#include <linux/sched/clock.h>
#include <linux/kthread.h>
#include <linux/jiffies.h>
#include <asm/stacktrace.h>
#include <linux/errno.h>
#include <linux/stop_machine.h>
#include <linux/sched/task.h>

#define TASK_ON_RQ_QUEUED	1
#define TASK_ON_RQ_MIGRATING	2

/* enqueue/dequeue flags */
#define DEQUEUE_SLEEP		0x01
#define DEQUEUE_SAVE		0x02
#define DEQUEUE_MOVE		0x04
#define DEQUEUE_NOCLOCK		0x08
#define ENQUEUE_WAKEUP		0x01
#define ENQUEUE_RESTORE		0x02
#define ENQUEUE_MOVE		0x04
#define ENQUEUE_NOCLOCK		0x08
#define ENQUEUE_HEAD		0x10
#define ENQUEUE_REPLENISH	0x20	/* deadline: a fresh budget and deadline */
#define ENQUEUE_MIGRATED	0x40

/* __do_set_cpus_allowed(): what changes */
#define SCA_MIGRATE_DISABLE	0x02
#define SCA_MIGRATE_ENABLE	0x04
void __do_set_cpus_allowed(struct task_struct *p, const struct cpumask *mask, u32 flags);

#define WF_FORK			0x02
#define WF_MIGRATED		0x04
#define WF_ON_CPU		0x08	/* the wakee is still switching out on its CPU */

#define NICE_0_LOAD_SHIFT	10
#define NICE_0_LOAD		(1UL << NICE_0_LOAD_SHIFT)

struct cfs_rq {
	struct load_weight load;
	unsigned int nr_running;
	u64 min_vruntime;
	struct rb_root_cached tasks_timeline;
	struct sched_entity *curr;
	/* Buddies: hints to pick_next_entity(), each cleared once it runs. */
	struct sched_entity *next;	/* the wakee that preempted */
	struct sched_entity *last;	/* the task it preempted */
	struct sched_entity *skip;	/* a task that called yield() */
};

struct rt_prio_array {
	DECLARE_BITMAP(bitmap, MAX_RT_PRIO + 1);	/* +1: delimiter */
	struct list_head queue[MAX_RT_PRIO];
};

struct rt_rq {
	struct rt_prio_array active;
	unsigned int rt_nr_running;
	unsigned int rt_nr_migratory;	/* queued RT tasks that may move */
	/*
	 * Queued RT tasks that may move and are not the one running here
	 * (Linux's pushable_tasks list; irqlab keeps only the count, push
	 * and pull find the task in the priority array).
	 */
	unsigned int rt_nr_pushable;
	int highest_prio_curr;		/* of everything queued here */
	bool overloaded;
};

/*
 * The deadline run queue: queued (not throttled) SCHED_DEADLINE entities
 * ordered by absolute deadline; earliest_dl.curr is the earliest of them
 * (0 when empty), what push and wakeup placement compare against.
 */
struct dl_rq {
	struct rb_root_cached root;
	unsigned int dl_nr_running;
	/*
	 * curr: the earliest queued deadline; next: the earliest pushable
	 * one, what pullers peek at.  0 when there is none.
	 */
	struct {
		u64 curr;
		u64 next;
	} earliest_dl;
	unsigned int dl_nr_migratory;	/* queued with nr_cpus_allowed > 1 */
	bool overloaded;
	/* queued, not running, may run elsewhere: by deadline */
	struct rb_root_cached pushable_dl_tasks_root;

	/*
	 * Bandwidth tracking for GRUB (BW_SHIFT fixed point, Linux's fields).
	 * running_bw: the active utilisation, of the tasks here that are
	 * runnable or blocked before their 0-lag time.  this_bw: of every
	 * deadline task assigned to this CPU, running or not, until it
	 * migrates, leaves the class or dies; this_bw - running_bw is the
	 * inactive utilisation.  extra_bw: the share of the CPU no admitted
	 * task reserved (the limit minus total_bw / CPUs).  bw_ratio: 1 /
	 * the limit, RATIO_SHIFT fixed point.
	 */
	u64 running_bw;
	u64 this_bw;
	u64 extra_bw;
	u64 bw_ratio;
};

/*
 * Admission control (Linux's struct dl_bw): bw is the share of each CPU
 * deadline tasks may reserve (-1: no limit), total_bw what they hold.
 * irqlab has one root domain, every online CPU, so there is one of these.
 */
struct dl_bw {
	raw_spinlock_t lock;
	u64 bw;
	u64 total_bw;
};

/* Fixed-point bandwidths, Linux's: BW_SHIFT for ratios, DL_SCALE for ns. */
#define BW_SHIFT		20
#define BW_UNIT			(1 << BW_SHIFT)
#define DL_SCALE		10
#define RATIO_SHIFT		8

static inline bool dl_time_before(u64 a, u64 b)
{
	return (s64)(a - b) < 0;
}

static inline int dl_policy(int policy)
{
	return policy == SCHED_DEADLINE;
}

static inline bool task_has_dl_policy(const struct task_struct *p)
{
	return dl_policy(p->policy);
}

/* Who asks for a balancing pass: an idle CPU's tick, a busy one's, or schedule(). */
enum cpu_idle_type {
	CPU_IDLE,
	CPU_NOT_IDLE,
	CPU_NEWLY_IDLE,
	CPU_MAX_IDLE_TYPES
};

/*
 * irqlab's one scheduling domain per CPU: Linux's MC level on a machine
 * with one last-level cache (what QEMU gives us), spanning the CPUs online
 * at sched_init_smp(), each group one CPU.  The tunables are sd_init()'s
 * for such a level; the lb_* counters are Linux's schedstats, per idle
 * type, plus two of irqlab's that tests read.
 */
struct sched_domain {
	unsigned long last_balance;	/* jiffies */
	unsigned int balance_interval;	/* ms; doubles while balanced */
	unsigned int min_interval, max_interval;
	unsigned int busy_factor;	/* balance less often when busy */
	unsigned int nr_balance_failed;	/* periodic passes in a row that moved nothing */
	unsigned int cache_nice_tries;	/* failures before a cache-hot task may move */
	unsigned int span_weight;	/* 0: no domain yet (or one CPU) */
	unsigned int lb_count[CPU_MAX_IDLE_TYPES];
	unsigned int lb_failed[CPU_MAX_IDLE_TYPES];
	unsigned int lb_balanced[CPU_MAX_IDLE_TYPES];
	unsigned int lb_gained[CPU_MAX_IDLE_TYPES];
	unsigned int lb_hot_gained[CPU_MAX_IDLE_TYPES];
	unsigned int lb_max_gained;	/* most tasks one load_balance() moved */
	unsigned int lb_max_batch;	/* most detached in one hold of busiest's lock */
	unsigned int lb_hardirq;	/* passes that ran in hard-IRQ context */
};

struct rq {
	raw_spinlock_t __lock;
	unsigned int nr_running;
	unsigned long nr_switches;
	unsigned long nr_pinned;	/* migrate-disabled tasks on this CPU */
	struct task_struct *hotplug_wait;	/* sched_cpu_wait_empty() sleeper */
	u64 clock;			/* ns, updated under the lock */
	u64 clock_task;
	struct cfs_rq cfs;
	struct rt_rq rt;
	struct dl_rq dl;
	struct task_struct *curr;
	struct task_struct *idle;
	struct task_struct *stop;
	int cpu;
	int online;
	struct llist_head wake_list;	/* remote wakeups, queued by other CPUs */
	unsigned long next_balance;	/* jiffies */
	int idle_balance;		/* the tick found this CPU idle */
	struct list_head cfs_tasks;	/* queued fair tasks, most recently run first */
	struct sched_domain sd;
	u64 idle_time;
	u64 last_idle_enter;
	/*
	 * Work a class left for the end of this rq lock section (RT and
	 * deadline push/pull, balance_push while the CPU goes down): run
	 * by __balance_callbacks() before the lock is dropped.
	 */
	struct callback_head *balance_callback;
	/* push_cpu_stop() queued for the running task (get_push_task()) */
	bool push_busy;
	struct cpu_stop_work push_work;
};

struct sched_class {
	void (*enqueue_task)(struct rq *rq, struct task_struct *p, int flags);
	void (*dequeue_task)(struct rq *rq, struct task_struct *p, int flags);
	void (*yield_task)(struct rq *rq);
	void (*check_preempt_curr)(struct rq *rq, struct task_struct *p, int flags);
	struct task_struct *(*pick_next_task)(struct rq *rq);
	void (*put_prev_task)(struct rq *rq, struct task_struct *p);
	void (*set_next_task)(struct rq *rq, struct task_struct *p, bool first);
	int (*balance)(struct rq *rq, struct task_struct *prev);
	int (*select_task_rq)(struct task_struct *p, int cpu, int flags);
	void (*task_woken)(struct rq *rq, struct task_struct *p);
	void (*task_tick)(struct rq *rq, struct task_struct *p, int queued);
	void (*task_fork)(struct task_struct *p);
	void (*switched_to)(struct rq *rq, struct task_struct *p);
	void (*prio_changed)(struct rq *rq, struct task_struct *p, int oldprio);
	void (*update_curr)(struct rq *rq);
	void (*task_dead)(struct task_struct *p);	/* after its last switch */
	/* set_task_cpu() is about to move @p (a wakeup or a queued move) */
	void (*migrate_task_rq)(struct task_struct *p, int new_cpu);
	void (*switched_from)(struct rq *rq, struct task_struct *p);
	/* push_cpu_stop(): a CPU where @p would run, locked beside @rq */
	struct rq *(*find_lock_rq)(struct task_struct *p, struct rq *rq);
	const struct sched_class *next;	/* the next lower class */
};

extern const struct sched_class stop_sched_class;
extern const struct sched_class dl_sched_class;
extern const struct sched_class rt_sched_class;
extern const struct sched_class fair_sched_class;
extern const struct sched_class idle_sched_class;
#define sched_class_highest	(&stop_sched_class)
#define for_each_class(class)	\
	for (class = sched_class_highest; class; class = class->next)

DECLARE_PER_CPU(struct rq, runqueues);
#define cpu_rq(cpu)	(&per_cpu(runqueues, (cpu)))
#define this_rq()	this_cpu_ptr(&runqueues)
#define task_rq(p)	cpu_rq(task_cpu(p))

static inline int cpu_of(struct rq *rq)
{
	return rq->cpu;
}

extern unsigned long volatile jiffies;
extern const int sched_prio_to_weight[40];
extern const u32 sched_prio_to_wmult[40];

extern struct callback_head balance_push_callback;

/*
 * Taking an rq lock (Linux's rq_pin_lock() check): whoever held it last
 * must have run the balance callbacks it queued before letting go, or the
 * push or pull they stand for is lost.  Only balance_push stays queued,
 * for as long as the CPU is going down.
 */
static inline void rq_pin_lock(struct rq *rq)
{
	struct callback_head *head = READ_ONCE(rq->balance_callback);

	WARN_ON_ONCE(head && head != &balance_push_callback);
}

static inline void raw_spin_rq_lock(struct rq *rq)
{
	raw_spin_lock(&rq->__lock);
	rq_pin_lock(rq);
}

/* The second of two rq locks: same lock class, so lockdep needs a subclass. */
static inline void raw_spin_rq_lock_nested(struct rq *rq, int subclass)
{
	raw_spin_lock_nested(&rq->__lock, subclass);
	rq_pin_lock(rq);
}

static inline void raw_spin_rq_unlock(struct rq *rq)
{
	raw_spin_unlock(&rq->__lock);
}

#define raw_spin_rq_lock_irqsave(rq, flags)		\
	do {						\
		raw_spin_lock_irqsave(&(rq)->__lock, flags);	\
		rq_pin_lock(rq);			\
	} while (0)

static inline void raw_spin_rq_unlock_irqrestore(struct rq *rq, unsigned long flags)
{
	raw_spin_unlock_irqrestore(&rq->__lock, flags);
}

/*
 * The rq of @p, locked, with p->pi_lock held by the caller.  pi_lock keeps
 * wakeups from moving @p but balancing moves a queued task under the two
 * rq locks only, so the rq is re-checked once held.
 */
static inline struct rq *__task_rq_lock(struct task_struct *p)
{
	struct rq *rq;

	for (;;) {
		rq = task_rq(p);
		raw_spin_rq_lock(rq);
		if (likely(rq == task_rq(p) &&
			   READ_ONCE(p->on_rq) != TASK_ON_RQ_MIGRATING))
			return rq;
		raw_spin_rq_unlock(rq);
		cpu_relax();
	}
}

/* pi_lock (IRQs off), then @p's rq: the order Linux takes them in. */
static inline struct rq *task_rq_lock(struct task_struct *p, unsigned long *flags)
{
	raw_spin_lock_irqsave(&p->pi_lock, *flags);
	return __task_rq_lock(p);
}

static inline void task_rq_unlock(struct rq *rq, struct task_struct *p, unsigned long flags)
{
	raw_spin_rq_unlock(rq);
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);
}

static inline void lockdep_assert_rq_held(struct rq *rq)
{
	WARN_ON_ONCE(!raw_spin_is_locked(&rq->__lock));
}

/* Lock two run queues in address order (no ABBA between CPUs). */
void double_rq_lock(struct rq *rq1, struct rq *rq2);
void double_rq_unlock(struct rq *rq1, struct rq *rq2);
/* Drop @this_rq's lock and take both, in order; returns true if it was dropped. */
bool double_lock_balance(struct rq *this_rq, struct rq *busiest);
void double_unlock_balance(struct rq *this_rq, struct rq *busiest);

static inline int task_on_rq_queued(struct task_struct *p)
{
	return p->on_rq == TASK_ON_RQ_QUEUED;
}

static inline int task_current(struct rq *rq, struct task_struct *p)
{
	return rq->curr == p;
}

static inline int task_running(struct rq *rq, struct task_struct *p)
{
	return p->on_cpu;
}

static inline bool is_per_cpu_kthread(struct task_struct *p)
{
	return (p->flags & PF_KTHREAD) && p->nr_cpus_allowed == 1;
}

void update_rq_clock(struct rq *rq);
void activate_task(struct rq *rq, struct task_struct *p, int flags);
void deactivate_task(struct rq *rq, struct task_struct *p, int flags);
void enqueue_task(struct rq *rq, struct task_struct *p, int flags);
void dequeue_task(struct rq *rq, struct task_struct *p, int flags);
void check_preempt_curr(struct rq *rq, struct task_struct *p, int flags);
void resched_curr(struct rq *rq);
void resched_curr_lazy(struct rq *rq);
void set_task_cpu(struct task_struct *p, unsigned int new_cpu);
void move_queued_task_locked(struct rq *src, struct rq *dst, struct task_struct *p);
bool is_cpu_allowed(struct task_struct *p, int cpu);
void set_load_weight(struct task_struct *p);
void sched_report_bug(const char *fmt, ...) __printf(1, 2);
unsigned int sched_rr_timeslice(void);

/* class internals shared with core.c */
void init_cfs_rq(struct cfs_rq *cfs_rq);
void init_rt_rq(struct rt_rq *rt_rq);
void init_rt_class(void);
void rq_online_rt(struct rq *rq);
void rq_offline_rt(struct rq *rq);
/* CPU hotplug (kernel/sched/hotplug.c). */
void set_rq_online(struct rq *rq);
void set_rq_offline(struct rq *rq);
int select_fallback_rq(int cpu, struct task_struct *p);
struct rq *__migrate_task(struct rq *rq, struct task_struct *p, int dest_cpu);
extern atomic_long_t sched_hotplug_pushed;
int rt_cpupri_level(int cpu);
void init_dl_rq(struct dl_rq *dl_rq);
void init_dl_task(struct task_struct *p);
void init_sched_dl_class(void);
void rq_online_dl(struct rq *rq);
void rq_offline_dl(struct rq *rq);

/*
 * Balance callbacks, Linux's: a class that leaves push or pull work
 * behind a change (a new task picked with others waiting, a task leaving
 * the class or losing priority) queues it here under the rq lock, and
 * the end of that lock section runs it, still under the lock: in
 * finish_task_switch() before the lock is dropped, in __schedule()'s
 * no-switch path, in rt_mutex_setprio(), and in __sched_setscheduler()
 * after the PI chain (balance_callbacks(), which takes the lock again).
 * @head is the class's per-CPU node: queued at most once.
 */
static inline void queue_balance_callback(struct rq *rq, struct callback_head *head,
					  void (*func)(struct rq *rq))
{
	struct callback_head *pos;

	lockdep_assert_rq_held(rq);
	/* While the CPU goes down, balance_push alone runs. */
	if (unlikely(rq->balance_callback == &balance_push_callback))
		return;
	for (pos = rq->balance_callback; pos; pos = pos->next)
		if (pos == head)
			return;
	head->func = (void (*)(struct callback_head *))func;
	head->next = rq->balance_callback;
	rq->balance_callback = head;
}

void __balance_callbacks(struct rq *rq);
void __balance_callbacks_keep_push(struct rq *rq);
struct callback_head *splice_balance_callbacks(struct rq *rq);
void balance_callbacks(struct rq *rq, struct callback_head *head);

/* kernel/sched/deadline_param.c: SCHED_DEADLINE parameters and admission. */
struct sched_attr;
bool __checkparam_dl(const struct sched_attr *attr);
int sched_dl_overflow(struct task_struct *p, int policy, const struct sched_attr *attr);
void __setparam_dl(struct task_struct *p, const struct sched_attr *attr);
void __getparam_dl(struct task_struct *p, struct sched_attr *attr);
void __dl_clear_params(struct task_struct *p);
struct dl_bw *dl_bw_of(int cpu);
int dl_bw_cpus(int cpu);
void init_dl_rq_bw_ratio(struct dl_rq *dl_rq);
u64 to_ratio(u64 period, u64 runtime);
u64 dl_bw_total(void);
/* kernel/sched/deadline.c, for sched_dl_overflow() */
void dl_change_utilization(struct task_struct *p, u64 new_bw);

/*
 * Admitted bandwidth in and out of the root domain (irqlab's one: every
 * online CPU).  What is not reserved is each CPU's extra_bw, what GRUB
 * lets SCHED_FLAG_RECLAIM tasks use: a task's share leaves (or returns
 * to) every CPU's extra_bw in equal parts.  Called with dl_b->lock held.
 */
static inline void __dl_update(struct dl_bw *dl_b, s64 bw)
{
	int i;

	for_each_online_cpu(i)
		cpu_rq(i)->dl.extra_bw += bw;
}

static inline void __dl_sub(struct dl_bw *dl_b, u64 tsk_bw, int cpus)
{
	dl_b->total_bw -= tsk_bw;
	__dl_update(dl_b, (s32)tsk_bw / cpus);
}

static inline void __dl_add(struct dl_bw *dl_b, u64 tsk_bw, int cpus)
{
	dl_b->total_bw += tsk_bw;
	__dl_update(dl_b, -((s32)tsk_bw / cpus));
}
/* kernel/sched/fair.c: load balancing */
extern unsigned int sysctl_sched_nr_migrate;
extern unsigned int sysctl_sched_migration_cost;
void trigger_load_balance(struct rq *rq);
void init_sched_fair_class(void);
void sched_init_domains(void);
void update_curr_fair(struct rq *rq);

/* The stop class's task for @cpu (kernel/stop_machine.c makes them). */
void sched_set_stop_task(int cpu, struct task_struct *p);

/* Activate the wakeups other CPUs queued for this one. */
void sched_ttwu_pending(void);
void wait_bit_init(void);
void sched_init_topology(void);

/*
 * A pinned task waits on @rq behind the running one, which could run
 * elsewhere: claim the running task for push_cpu_stop() (one at a time per
 * rq, and never one that is pinned itself).  rq lock held.
 */
static inline struct task_struct *get_push_task(struct rq *rq)
{
	struct task_struct *p = rq->curr;

	lockdep_assert_rq_held(rq);
	if (rq->push_busy)
		return NULL;
	if (p->nr_cpus_allowed == 1)
		return NULL;
	if (p->migration_disabled)
		return NULL;
	rq->push_busy = true;
	return get_task_struct(p);
}

int push_cpu_stop(void *arg);

#endif
