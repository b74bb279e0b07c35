/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_WORKQUEUE_H
#define _LINUX_WORKQUEUE_H

/*
 * Work items: a function run later, in process context, by one of a CPU's
 * pool of kernel threads (kworker/N:M, or kworker/N:MH for the high-priority
 * pool).
 *
 * work->data holds the PENDING bit (set while the item waits to run; the
 * task that sets it owns the right to queue the item) and, above the flag
 * bits, the worker pool the item was last queued on.  While the item sits
 * on a pool's list WORK_STRUCT_PWQ is set as well; both are changed only
 * under that pool's lock.  irqlab has no pool_workqueue, so the pointer is
 * to the worker_pool itself.
 *
 * A work item is non-reentrant: queued while it still runs on another CPU,
 * it is queued behind itself on that CPU.
 */
#include <linux/types.h>
#include <linux/list.h>
#include <asm/bitops.h>
#include <linux/jiffies.h>

struct work_struct;
typedef void (*work_func_t)(struct work_struct *work);

enum {
	WORK_STRUCT_PENDING_BIT	= 0,	/* work item is pending execution */
	WORK_STRUCT_INACTIVE_BIT = 1,	/* unused in irqlab (no max_active) */
	WORK_STRUCT_PWQ_BIT	= 2,	/* data points to the pool it is queued on */
	WORK_STRUCT_LINKED_BIT	= 3,	/* the next item (a flush barrier) goes with it */
	WORK_STRUCT_FLAG_BITS	= 4,

	WORK_STRUCT_PENDING	= 1UL << WORK_STRUCT_PENDING_BIT,
	WORK_STRUCT_PWQ		= 1UL << WORK_STRUCT_PWQ_BIT,
	WORK_STRUCT_LINKED	= 1UL << WORK_STRUCT_LINKED_BIT,

	WORK_CPU_UNBOUND	= -1,
};

#define WORK_STRUCT_FLAG_MASK	((1UL << WORK_STRUCT_FLAG_BITS) - 1)
#define WORK_STRUCT_WQ_DATA_MASK (~WORK_STRUCT_FLAG_MASK)
#define WORK_DATA_INIT()	0UL

struct work_struct {
	unsigned long data;
	struct list_head entry;
	work_func_t func;
};

#define __WORK_INITIALIZER(n, f) {					\
	.data = WORK_DATA_INIT(),					\
	.entry = LIST_HEAD_INIT((n).entry),				\
	.func = (f),							\
}

#define DECLARE_WORK(n, f)						\
	struct work_struct n = __WORK_INITIALIZER(n, f)

#define work_data_bits(work) ((unsigned long *)(&(work)->data))

#define INIT_WORK(_work, _func) do {					\
	(_work)->data = WORK_DATA_INIT();				\
	INIT_LIST_HEAD(&(_work)->entry);				\
	(_work)->func = (_func);					\
} while (0)

#define INIT_WORK_ONSTACK(_work, _func)	INIT_WORK(_work, _func)

#define work_pending(work) \
	test_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work))

/* Workqueue flags. */
enum {
	WQ_UNBOUND		= 1 << 1,	/* not supported */
	WQ_HIGHPRI		= 1 << 4,	/* served by the nice -20 pools */
};

/* irqlab has the standard per-CPU queues only (no alloc_workqueue). */
struct workqueue_struct {
	const char *name;
	unsigned int flags;
};

extern struct workqueue_struct *system_wq;
extern struct workqueue_struct *system_highpri_wq;

bool queue_work_on(int cpu, struct workqueue_struct *wq, struct work_struct *work);
bool flush_work(struct work_struct *work);
bool cancel_work_sync(struct work_struct *work);

static inline bool queue_work(struct workqueue_struct *wq, struct work_struct *work)
{
	return queue_work_on(WORK_CPU_UNBOUND, wq, work);
}

static inline bool schedule_work_on(int cpu, struct work_struct *work)
{
	return queue_work_on(cpu, system_wq, work);
}

static inline bool schedule_work(struct work_struct *work)
{
	return queue_work(system_wq, work);
}

void workqueue_init(void);
/* CPU hotplug: per-CPU pools unbound on the way down, rebound on the way up. */
int workqueue_prepare_cpu(unsigned int cpu);
int workqueue_online_cpu(unsigned int cpu);
int workqueue_offline_cpu(unsigned int cpu);
bool wq_pool_disassociated(int cpu);

struct task_struct;
/* Scheduler hooks for PF_WQ_WORKER tasks (kernel/sched/core.c). */
void wq_worker_sleeping(struct task_struct *task);
void wq_worker_running(struct task_struct *task);

/* irqlab test hooks: workqueue.idle_timeout_ms and a pool's worker counts. */
extern unsigned int wq_idle_timeout_ms;
void wq_pool_counts(int cpu, bool highpri, int *nr_workers, int *nr_idle);

/*
 * Delayed work is armed with an hrtimer (kernel/workqueue_delayed.c); it
 * exists only in trees that have <linux/hrtimer.h>.
 */
#if __has_include(<linux/hrtimer.h>)
#include <linux/hrtimer.h>

struct delayed_work {
	struct work_struct work;
	struct hrtimer timer;
	/* target workqueue and CPU the timer callback queues the work on */
	struct workqueue_struct *wq;
	int cpu;
};

enum hrtimer_restart delayed_work_timer_fn(struct hrtimer *timer);

#define INIT_DELAYED_WORK(_work, _func) do {				\
	INIT_WORK(&(_work)->work, (_func));				\
	hrtimer_init(&(_work)->timer, CLOCK_MONOTONIC,			\
		     HRTIMER_MODE_REL_SOFT);				\
	(_work)->timer.function = delayed_work_timer_fn;		\
} while (0)

#define INIT_DELAYED_WORK_ONSTACK(_work, _func) INIT_DELAYED_WORK(_work, _func)

static inline struct delayed_work *to_delayed_work(struct work_struct *work)
{
	return container_of(work, struct delayed_work, work);
}

#define delayed_work_pending(w)	work_pending(&(w)->work)

bool queue_delayed_work_on(int cpu, struct workqueue_struct *q,
			   struct delayed_work *dw, unsigned long delay);
bool flush_delayed_work(struct delayed_work *dwork);
bool cancel_delayed_work_sync(struct delayed_work *dwork);

static inline bool queue_delayed_work(struct workqueue_struct *wq,
				      struct delayed_work *dwork,
				      unsigned long delay)
{
	return queue_delayed_work_on(WORK_CPU_UNBOUND, wq, dwork, delay);
}

static inline bool schedule_delayed_work_on(int cpu, struct delayed_work *dwork,
					    unsigned long delay)
{
	return queue_delayed_work_on(cpu, system_wq, dwork, delay);
}

static inline bool schedule_delayed_work(struct delayed_work *dwork,
					 unsigned long delay)
{
	return queue_delayed_work(system_wq, dwork, delay);
}
#endif /* <linux/hrtimer.h> */

#endif
