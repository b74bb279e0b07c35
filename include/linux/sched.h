/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SCHED_H
#define _LINUX_SCHED_H

#include <linux/kernel.h>
#include <linux/types.h>
#include <linux/list.h>
#include <linux/cpumask.h>
#include <linux/spinlock.h>
#include <linux/percpu.h>
#include <linux/rbtree.h>
#include <linux/llist.h>
#include <linux/sched/prio.h>
#include <linux/sched/wake_q_types.h>
#include <linux/atomic.h>
#include <linux/hrtimer.h>
#include <asm/thread_info.h>

/* Task states (Linux's values). */
#define TASK_RUNNING		0x0000
#define TASK_INTERRUPTIBLE	0x0001
#define TASK_UNINTERRUPTIBLE	0x0002
#define __TASK_STOPPED		0x0004
#define TASK_PARKED		0x0040
#define TASK_DEAD		0x0080
#define TASK_WAKING		0x0200
#define TASK_NEW		0x0800
#define TASK_RTLOCK_WAIT	0x1000
#define TASK_NORMAL		(TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE)

/* Policies. */
#define SCHED_NORMAL	0
#define SCHED_FIFO	1
#define SCHED_RR	2
#define SCHED_BATCH	3
#define SCHED_IDLE	5
#define SCHED_DEADLINE	6

/* Task flags. */
#define PF_IDLE		0x00000002
#define PF_EXITING	0x00000004
#define PF_WQ_WORKER	0x00000020	/* a workqueue worker (kworker) */
#define PF_MEMALLOC	0x00000800	/* reclaiming: no reclaim inside, reserves allowed */
#define PF_KSWAPD	0x00020000	/* kswapd */
#define PF_KTHREAD	0x00200000
#define PF_NO_SETAFFINITY 0x04000000

#define TASK_COMM_LEN	16

struct rq;
struct cfs_rq;
struct sched_class;
struct rt_mutex_waiter;
struct _reent;

struct load_weight {
	unsigned long weight;
	u32 inv_weight;
};

/* What load balancing did to a task (Linux 5.15's se.statistics, in part). */
struct sched_statistics {
	u64 nr_failed_migrations_hot;	/* left behind: cache-hot */
	u64 nr_forced_migrations;	/* moved although cache-hot */
};

struct sched_entity {
	struct load_weight load;
	struct rb_node run_node;
	struct list_head group_node;	/* in rq->cfs_tasks while queued */
	unsigned int on_rq;
	u64 exec_start;
	u64 sum_exec_runtime;
	u64 prev_sum_exec_runtime;
	u64 vruntime;
	u64 nr_migrations;
	struct sched_statistics statistics;
	struct cfs_rq *cfs_rq;
};

struct sched_rt_entity {
	struct list_head run_list;
	unsigned int time_slice;
	unsigned short on_rq;
	unsigned short on_list;
	unsigned short pushable;	/* counted in rq->rt.rt_nr_pushable */
};

/*
 * A SCHED_DEADLINE task's constant bandwidth server (kernel/sched/deadline.c),
 * Linux 5.15's layout.  dl_runtime <= dl_deadline <= dl_period are the
 * parameters (ns); runtime and deadline the current budget and absolute
 * deadline (rq_clock ns).  pi_se is the entity whose parameters the task
 * runs with: its own, or its top PI waiter's while boosted.
 */
struct sched_dl_entity {
	struct rb_node rb_node;

	u64 dl_runtime;
	u64 dl_deadline;
	u64 dl_period;
	u64 dl_bw;		/* dl_runtime / dl_period, BW_SHIFT fixed point */
	u64 dl_density;		/* dl_runtime / dl_deadline */

	s64 runtime;
	u64 deadline;
	unsigned int flags;

	unsigned int dl_throttled:1;
	unsigned int dl_yielded:1;
	/* blocked before its 0-lag time: still counted in running_bw */
	unsigned int dl_non_contending:1;
	/* overran its runtime with SCHED_FLAG_DL_OVERRUN set */
	unsigned int dl_overrun:1;

	/*
	 * Runtime overruns reported under SCHED_FLAG_DL_OVERRUN.  Linux sends
	 * SIGXCPU for each; irqlab has no signals and counts them here, for
	 * tests and workloads to read.
	 */
	unsigned int dl_overrun_count;

	/* replenishment at the next period (hard-IRQ expiry, also on RT) */
	struct hrtimer dl_timer;

	/*
	 * Fires at the 0-lag time of a task that blocked (or left the class,
	 * or died) while active: its bandwidth stops counting then.
	 */
	struct hrtimer inactive_timer;

	struct sched_dl_entity *pi_se;
};

struct thread_struct {
	unsigned long sp;	/* saved by __switch_to_asm */
};

struct rcu_node;
struct reclaim_state;
/* Why rcu_read_unlock() must take the slow path (Linux's union rcu_special). */
union rcu_special {
	struct {
		u8 blocked;	/* preempted in a reader, on a blocked-tasks list */
		u8 need_qs;
		u8 exp_hint;
		u8 need_mb;
	} b;
	u32 s;
};

struct task_struct {
	struct thread_info thread_info;	/* first, as THREAD_INFO_IN_TASK */
	unsigned int __state;
	void *stack;
	unsigned int stack_size;
	atomic_t usage;
	unsigned int flags;

	int on_cpu;		/* running on a CPU (until the switch-out completes) */
	int cpu;
	int wake_cpu;
	int on_rq;
	/* woken onto another CPU through its wake_list (ENQUEUE_MIGRATED there) */
	unsigned int sched_remote_wakeup:1;
	struct llist_node wake_entry;	/* remote wakeup queue */

	int prio;
	int static_prio;
	int normal_prio;
	unsigned int rt_priority;
	unsigned int policy;
	const struct sched_class *sched_class;
	struct sched_entity se;
	struct sched_rt_entity rt;
	struct sched_dl_entity dl;
	struct rb_node pushable_dl_tasks;	/* in rq->dl.pushable_dl_tasks_root */

	int nr_cpus_allowed;
	const cpumask_t *cpus_ptr;
	cpumask_t cpus_mask;
	unsigned short migration_disabled;
	/* Linux's KTHREAD_IS_PER_CPU: stays on its CPU until it goes down. */
	bool kthread_per_cpu;
	/* printk_report_enter() depth: what it prints is a result. */
	unsigned short printk_report;
#ifdef CONFIG_TRACE_MIGRATE
	/* Open migrate-disable section (kernel/trace/trace_irqsoff.c). */
	u64 migrate_disable_tsc;
	unsigned long migrate_disable_ip;
	unsigned long migrate_disable_gen;
#endif
	unsigned short migration_flags;		/* MDF_* */
#define MDF_PUSH	0x01	/* push_cpu_stop() met it pinned: push at migrate_enable() */
	struct set_affinity_pending *migration_pending;

	raw_spinlock_t pi_lock;
#ifdef CONFIG_PREEMPT_RT
	/*
	 * The state a task had when it blocked on a sleeping spinlock: the
	 * rtlock wait uses TASK_RTLOCK_WAIT and puts this back afterwards;
	 * a regular wakeup meanwhile lands here (ttwu_state_match()).
	 */
	unsigned int saved_state;
#endif
	/* Priority inheritance (kernel/locking/rtmutex.c), under pi_lock. */
	struct task_struct *pi_top_task;	/* top waiter of the locks we hold */
	struct rb_root_cached pi_waiters;	/* top waiter of each such lock */
	struct rt_mutex_waiter *pi_blocked_on;	/* the lock we wait for */
	struct wake_q_node wake_q;

#ifdef CONFIG_PREEMPT_RCU
	/* Preemptible RCU (kernel/rcu/tree_plugin.h). */
	int rcu_read_lock_nesting;
	union rcu_special rcu_read_unlock_special;
	struct list_head rcu_node_entry;	/* on rnp->blkd_tasks */
	struct rcu_node *rcu_blocked_node;
#endif
	int pid;
	char comm[TASK_COMM_LEN];
	struct list_head tasks;

	/* Accounting (DESIGN 7 and the seeds' perf stat figures). */
	unsigned long nvcsw, nivcsw;
	u64 start_time;

	/* kthreads */
	int (*threadfn)(void *data);
	void *thread_data;
	int exit_code;
	bool should_stop;
	/* kthread_park(): asked to park, parked, the CPU to come back to. */
	bool should_park;
	bool is_parked;
	int park_cpu;
	struct task_struct *park_waiter;
	struct task_struct *stop_waiter;

	struct _reent *reent;	/* newlib's per-task state */
	/* Set while reclaiming: where freed slab pages are counted (linux/swap.h). */
	struct reclaim_state *reclaim_state;
#ifdef CONFIG_KASAN
	/* Non-zero: KASAN reports nothing for this task (kasan_disable_current). */
	unsigned int kasan_depth;
#endif
#ifdef CONFIG_FAULT_INJECTION
	/* Fails where a fault_attr has task_filter set (lib/fault-inject.c). */
	unsigned make_it_fail:1;
#endif
#if defined(CONFIG_UBSAN) && !defined(CONFIG_UBSAN_TRAP)
	/* Inside a UBSAN report: another one on the way is dropped (lib/ubsan.c). */
	unsigned int in_ubsan;
#endif
#ifdef CONFIG_LOCKDEP
	/* lockdep-lite: what this task (and interrupts on top of it) holds. */
	struct held_lock held_locks[MAX_LOCK_DEPTH];
	int lockdep_depth;
	unsigned int lockdep_recursion;
#endif
#ifdef CONFIG_LOCK_STAT
	/* lock_stat: the locks this task (and interrupts on top) holds or waits for. */
	struct lockstat_held lockstat_held[LOCKSTAT_DEPTH];
	unsigned int lockstat_depth;
#endif
	struct thread_struct thread;
};

DECLARE_PER_CPU(struct task_struct *, current_task);

static __always_inline struct task_struct *get_current(void)
{
	return this_cpu_read(current_task);
}
#define current get_current()

extern struct task_struct init_task;
extern struct list_head task_list;
extern rwlock_t tasklist_lock;

static inline unsigned int task_cpu(const struct task_struct *p)
{
	return READ_ONCE(p->cpu);
}

static inline unsigned int read_task_state(const struct task_struct *p)
{
	return READ_ONCE(p->__state);
}

/*
 * set_current_state() orders the state store before the condition check
 * that follows it, pairing with the waker's condition store before
 * try_to_wake_up(): no lost wakeups.
 */
#define __set_current_state(s)	WRITE_ONCE(current->__state, (s))
#define set_current_state(s)	do { WRITE_ONCE(current->__state, (s)); smp_mb(); } while (0)

/*
 * A state no wakeup may undo (TASK_DEAD).  try_to_wake_up() holds pi_lock
 * from its state check to its TASK_RUNNING store, so storing under
 * pi_lock keeps a wakeup that matched an earlier sleep from overwriting
 * it; a wakeup arriving later finds this state and does nothing.
 */
#define set_special_state(new_state)					\
	do {								\
		unsigned long __sss_flags;				\
									\
		raw_spin_lock_irqsave(&current->pi_lock, __sss_flags);	\
		WRITE_ONCE(current->__state, (new_state));		\
		raw_spin_unlock_irqrestore(&current->pi_lock, __sss_flags); \
	} while (0)

static inline int rt_prio(int prio)
{
	return prio < MAX_RT_PRIO;
}

/* SCHED_DEADLINE tasks run at prio -1, above every RT level, as in Linux. */
#define MAX_DL_PRIO	0
static inline int dl_prio(int prio)
{
	return prio < MAX_DL_PRIO;
}

static inline int dl_task(const struct task_struct *p)
{
	return dl_prio(p->prio);
}

static inline int rt_task(const struct task_struct *p)
{
	return rt_prio(p->prio);
}

static inline bool is_idle_task(const struct task_struct *p)
{
	return p->flags & PF_IDLE;
}

static inline bool is_migration_disabled(const struct task_struct *p)
{
	return p->migration_disabled;
}

/* need_resched on the current task */
static __always_inline bool need_resched(void)
{
	return test_bit(TIF_NEED_RESCHED, &current->thread_info.flags);
}

static inline void set_tsk_need_resched(struct task_struct *p)
{
	set_bit(TIF_NEED_RESCHED, &p->thread_info.flags);
}

static inline void clear_tsk_need_resched(struct task_struct *p)
{
	clear_bit(TIF_NEED_RESCHED, &p->thread_info.flags);
	clear_bit(TIF_NEED_RESCHED_LAZY, &p->thread_info.flags);
}

static inline bool test_tsk_need_resched(struct task_struct *p)
{
	return test_bit(TIF_NEED_RESCHED, &p->thread_info.flags);
}

void schedule(void);

/* Sleep in the state set by the caller for up to @timeout jiffies (hrtimer.c). */
#define MAX_SCHEDULE_TIMEOUT	((long)(~0UL >> 1))
long schedule_timeout(long timeout);
long schedule_timeout_uninterruptible(long timeout);
void schedule_preempt_disabled(void);
#ifdef CONFIG_PREEMPT_RT
void schedule_rtlock(void);
#endif
void preempt_schedule(void);
void preempt_schedule_irq(void);
int wake_up_process(struct task_struct *p);
int wake_up_state(struct task_struct *p, unsigned int state);
int try_to_wake_up(struct task_struct *p, unsigned int state, int wake_flags);
void sched_cgroup_fork(struct task_struct *p);
void wake_up_new_task(struct task_struct *p);
void yield(void);
unsigned long long nr_context_switches_cpu(int cpu);

/* struct sched_param { int sched_priority; } comes from newlib's <sys/types.h>. */

int sched_setscheduler(struct task_struct *p, int policy, const struct sched_param *param);
int sched_setscheduler_nocheck(struct task_struct *tsk, int policy,
			       const struct sched_param *param);
/*
 * sched_setattr(): Linux's struct sched_attr (the part irqlab uses); the
 * SCHED_DEADLINE times are in ns.  sched_getattr() fills one back in.
 */
struct sched_attr {
	u32 size;
	u32 sched_policy;
	u64 sched_flags;
	s32 sched_nice;
	u32 sched_priority;
	u64 sched_runtime;
	u64 sched_deadline;
	u64 sched_period;
};

/*
 * sched_attr.sched_flags, Linux's values.  irqlab acts on RECLAIM and
 * DL_OVERRUN; RESET_ON_FORK is accepted and has nothing to do (threads
 * start as SCHED_NORMAL whatever their creator runs as); KEEP_* and
 * UTIL_CLAMP_* are refused (-EINVAL), anything else too, as Linux does.
 */
#define SCHED_FLAG_RESET_ON_FORK	0x01
#define SCHED_FLAG_RECLAIM		0x02
#define SCHED_FLAG_DL_OVERRUN		0x04
#define SCHED_FLAG_KEEP_POLICY		0x08
#define SCHED_FLAG_KEEP_PARAMS		0x10
#define SCHED_FLAG_UTIL_CLAMP_MIN	0x20
#define SCHED_FLAG_UTIL_CLAMP_MAX	0x40
#define SCHED_FLAG_KEEP_ALL		(SCHED_FLAG_KEEP_POLICY | SCHED_FLAG_KEEP_PARAMS)
#define SCHED_FLAG_UTIL_CLAMP		(SCHED_FLAG_UTIL_CLAMP_MIN | SCHED_FLAG_UTIL_CLAMP_MAX)
#define SCHED_FLAG_ALL			(SCHED_FLAG_RESET_ON_FORK | SCHED_FLAG_RECLAIM | \
					 SCHED_FLAG_DL_OVERRUN | SCHED_FLAG_KEEP_ALL | \
					 SCHED_FLAG_UTIL_CLAMP)
/* The ones a deadline entity keeps in dl_se->flags. */
#define SCHED_DL_FLAGS			(SCHED_FLAG_RECLAIM | SCHED_FLAG_DL_OVERRUN)

int sched_setattr(struct task_struct *p, const struct sched_attr *attr);
int sched_setattr_nocheck(struct task_struct *p, const struct sched_attr *attr);
void sched_getattr(struct task_struct *p, struct sched_attr *attr);
void set_user_nice(struct task_struct *p, long nice);
int task_nice(const struct task_struct *p);
int set_cpus_allowed_ptr(struct task_struct *p, const struct cpumask *new_mask);
/* Do the two CPUs share a last-level cache (kernel/sched/topology.c)? */
bool cpus_share_cache(int a, int b);
void migrate_disable(void);
void migrate_enable(void);

/* cond_resched(): a voluntary preemption point (a no-op under full preemption). */
int _cond_resched(void);
#define cond_resched()	_cond_resched()

#ifdef CONFIG_PREEMPT_VOLUNTARY
#define might_resched()	_cond_resched()
#else
#define might_resched()	do { } while (0)
#endif

/* Code that may sleep says so; in atomic context that is reported. */
void __might_sleep(const char *file, int line);
#define might_sleep()	do { __might_sleep(__FILE__, __LINE__); might_resched(); } while (0)

enum system_states {
	SYSTEM_BOOTING,
	SYSTEM_SCHEDULING,
	SYSTEM_RUNNING,
	SYSTEM_HALT,
};
extern enum system_states system_state;

void sched_init(void);
struct task_struct *cpu_rq_idle(int cpu);
void cpu_rq_set_online(int cpu);
void sched_init_smp(void);
void init_idle(struct task_struct *idle, int cpu);
__noreturn void cpu_startup_entry(void);
void scheduler_tick(void);
int idle_cpu(int cpu);
void scheduler_ipi(void);
unsigned long nr_running(void);
u64 task_sched_runtime(struct task_struct *p);

void sched_print_stats(void);

/* Priority inheritance hooks (kernel/sched/prio.c). */
void rt_mutex_setprio(struct task_struct *p, struct task_struct *pi_task);
void rt_mutex_adjust_pi(struct task_struct *task);

#ifdef CONFIG_PREEMPT_RT
/*
 * A task about to block on a sleeping spinlock keeps its state aside and
 * waits in TASK_RTLOCK_WAIT, so the code that took the lock after
 * set_current_state() still sleeps in the state it asked for.  Both run
 * with interrupts disabled; pi_lock orders them against try_to_wake_up().
 */
#define current_save_and_set_rtlock_wait_state()			\
	do {								\
		raw_spin_lock(&current->pi_lock);			\
		current->saved_state = current->__state;		\
		WRITE_ONCE(current->__state, TASK_RTLOCK_WAIT);		\
		raw_spin_unlock(&current->pi_lock);			\
	} while (0)

#define current_restore_rtlock_saved_state()				\
	do {								\
		raw_spin_lock(&current->pi_lock);			\
		WRITE_ONCE(current->__state, current->saved_state);	\
		current->saved_state = TASK_RUNNING;			\
		raw_spin_unlock(&current->pi_lock);			\
	} while (0)
#endif

/* Reported checks: how many times the kernel caught a scheduling bug. */
extern atomic_t sched_bug_count;

#endif
