/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __KERNEL_RCU_TREE_H
#define __KERNEL_RCU_TREE_H
/*
 * Tree RCU's data structures, Linux's names at irqlab's scale: one
 * rcu_node (the root is the only leaf; NR_CPUS fits its qsmask), an
 * rcu_data per CPU and the global rcu_state.
 */
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/percpu.h>
#include <linux/spinlock.h>
#include <linux/mutex.h>
#include <linux/wait.h>
#include <linux/completion.h>
#include <linux/atomic.h>
#include <linux/rtmutex.h>
#include "rcu.h"

struct rcu_node {
	raw_spinlock_t lock;
	unsigned long gp_seq;		/* grace period this node is on */
	unsigned long gp_seq_needed;	/* furthest grace period requested */
	unsigned long qsmask;		/* CPUs still to report for this GP */
	unsigned long qsmaskinit;	/* CPUs each GP starts waiting for */
	/*
	 * The online CPUs as CPU hotplug changes them (rcu_cpu_starting(),
	 * rcu_report_dead()); copied into qsmaskinit when a GP starts.
	 */
	unsigned long qsmaskinitnext;
	/*
	 * Tasks preempted inside a read-side section, newest last.  From
	 * gp_tasks to the end they block the current grace period; those
	 * before gp_tasks only block the next one.
	 */
	struct list_head blkd_tasks;
	struct list_head *gp_tasks;
#ifdef CONFIG_RCU_BOOST
	/*
	 * The next reader of the gp_tasks segment for rcub to boost, or
	 * NULL; boost_mtx is the lock rcub makes that reader own by proxy
	 * and then blocks on, so PI lends the reader rcub's priority.
	 */
	struct list_head *boost_tasks;
	struct rt_mutex boost_mtx;
	unsigned long boost_time;	/* jiffies when boosting may begin */
	struct task_struct *boost_kthread_task;
	unsigned int boost_kthread_status;
	unsigned long n_boosts;		/* readers boosted (report, tests) */
#endif
	int grplo, grphi;
};

struct rcu_data {
	unsigned long gp_seq;		/* the node's gp_seq when last looked */
	bool cpu_no_qs;			/* no QS yet in this CPU's current GP */
	bool core_needs_qs;		/* the node waits for this CPU */
	struct rcu_segcblist cblist;
	struct rcu_node *mynode;
	unsigned long grpmask;		/* this CPU's bit in mynode->qsmask */
	int cpu;
	bool rcu_in_idle;		/* in the idle loop's halt (rcu_idle_enter) */
	unsigned long n_cbs_invoked;
	unsigned long n_ofl_blocking_gp;	/* went down with a GP waiting for it */
	struct rcu_head barrier_head;
	/* PREEMPT_RT's callback kthread (rcutree.use_softirq=0). */
	struct task_struct *rcu_cpu_kthread_task;
	bool rcu_cpu_has_work;
	unsigned long ticks_this_gp;	/* ticks this CPU took in this GP (stall report) */
};

#define RCU_GP_FLAG_INIT	0x1	/* a grace period is wanted */
#define RCU_GP_FLAG_FQS		0x2	/* all quiescent states are in */

#define RCU_GP_IDLE		0	/* rcu_state.gp_state */
#define RCU_GP_WAIT_GPS		1
#define RCU_GP_INIT		2
#define RCU_GP_WAIT_FQS		3
#define RCU_GP_DOING_FQS	4
#define RCU_GP_CLEANUP		5

/* rcu_node.boost_kthread_status */
#define RCU_KTHREAD_STOPPED	0
#define RCU_KTHREAD_RUNNING	1
#define RCU_KTHREAD_WAITING	2
#define RCU_KTHREAD_YIELDING	4

struct rcu_state {
	struct rcu_node node[1];
	unsigned long gp_seq;
	struct task_struct *gp_kthread;
	struct wait_queue_head gp_wq;
	short gp_flags;
	short gp_state;
	unsigned long jiffies_force_qs;	/* when the FQS loop next forces */
	unsigned long n_force_qs;
	unsigned long gp_count;		/* grace periods completed (report) */
	unsigned long gp_start;		/* jiffies when this GP started */
	unsigned long gp_activity;	/* jiffies the GP kthread last did something */
	unsigned long jiffies_stall;	/* jiffies when it counts as stalled */
	unsigned long n_force_qs_gpstart;	/* n_force_qs when it started */

	/* Orders CPU hotplug's mask changes against a GP's start. */
	raw_spinlock_t ofl_lock;

	struct mutex barrier_mutex;
	atomic_t barrier_cpu_count;
	struct completion barrier_completion;
	const char *name;
};

#define rcu_get_root()	(&rcu_state.node[0])

extern struct rcu_state rcu_state;
DECLARE_PER_CPU(struct rcu_data, rcu_data);

/* tree_plugin.h */
static void rcu_preempt_check_blocked_tasks(struct rcu_node *rnp);
static int rcu_preempt_blocked_readers_cgp(struct rcu_node *rnp);
static void rcu_flavor_sched_clock_irq(int user);
static bool rcu_preempt_need_deferred_qs(struct task_struct *t);
static void rcu_preempt_deferred_qs(struct task_struct *t);
static void rcu_initiate_boost(struct rcu_node *rnp, unsigned long flags);
static void rcu_preempt_boost_start_gp(struct rcu_node *rnp);
static void rcu_spawn_one_boost_kthread(struct rcu_node *rnp);
static void rcu_cpu_kthread_setup(struct task_struct *t);
static void rcu_boost_kthread_setaffinity(struct rcu_node *rnp, int outgoingcpu);
static void rcu_hotplug_init(void);

/* tree_stall.h */
static void record_gp_stall_check_time(void);
static void zero_cpu_stall_ticks(struct rcu_data *rdp);
static void check_cpu_stall(struct rcu_data *rdp);

#endif /* __KERNEL_RCU_TREE_H */
