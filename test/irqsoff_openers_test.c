// SPDX-License-Identifier: GPL-2.0
/*
 * Who opens IRQ-off windows under load.  hackbench runs with the irqsoff
 * tracer on, and every function that opened a window must be one that
 * Linux 5.15 (5.15-rt on PREEMPT_RT; 5.14 for the pre-series SLUB) also
 * disables interrupts in on that path.  A window opened anywhere else is
 * irqlab's own artefact and would be measured as if it were the kernel's.
 * Each entry says where Linux disables interrupts there.
 */
#include <linux/ktest.h>
#include <linux/kallsyms.h>
#include <linux/sched.h>
#include <linux/trace_irqsoff.h>
#include <linux/smp.h>
#include <linux/ktime.h>
#include "rt_migrate.h"

#ifdef CONFIG_TRACE_IRQSOFF

struct opener {
	const char *func;
	const char *why;
};

static const struct opener linux_openers[] = {
	{ "do_trap", "hardware interrupt entry: IRQs are off from the vector to iret" },
	{ "__schedule", "local_irq_disable() before the rq lock, held across the switch" },
	{ "preempt_schedule_irq", "local_irq_disable() after __schedule(), back to the interrupt return" },
	{ "cpu_startup_entry", "do_idle(): local_irq_disable() before halting (safe_halt re-enables)" },
	{ "ksoftirqd_fn", "run_ksoftirqd(): ksoftirqd_run_begin() disables IRQs" },
	{ "local_bh_enable", "PREEMPT_RT __local_bh_enable_ip(): local_irq_save() to read the BH count and the pending softirqs" },
	{ "__do_softirq", "local_irq_disable() after the handlers, to re-read pending" },
	{ "lock_hrtimer_base", "raw_spin_lock_irqsave(&base->cpu_base->lock)" },
	{ "hrtimer_run_softirq", "raw_spin_lock_irqsave(&cpu_base->lock)" },
	{ "__run_hrtimer", "raw_spin_lock_irq(&cpu_base->lock) again after the callback" },
	{ "try_to_wake_up", "raw_spin_lock_irqsave(&p->pi_lock)" },
	{ "wake_up_new_task", "raw_spin_lock_irqsave(&p->pi_lock) (task_rq_lock)" },
	{ "sched_cgroup_fork", "copy_process(): raw_spin_lock_irqsave(&p->pi_lock) around task_fork" },
	{ "kthread_bind", "__kthread_bind_mask(): raw_spin_lock_irqsave(&p->pi_lock)" },
	{ "kthread_create_on_cpu_node", "kthread_bind() inlined: pi_lock irqsave" },
	{ "do_task_dead", "set_special_state(): raw_spin_lock_irqsave(&current->pi_lock)" },
	{ "kthread_exit", "do_task_dead()'s set_special_state() inlined: pi_lock irqsave" },
	{ "cpu_stopper_thread", "raw_spin_lock_irq(&stopper->lock) to take the next work" },
	{ "cpu_stop_queue_work", "raw_spin_lock_irqsave(&stopper->lock) to queue the work" },
	{ "migration_cpu_stop", "local_irq_save() before pi_lock and the rq lock" },
	{ "__set_cpus_allowed_ptr", "task_rq_lock(): raw_spin_lock_irqsave(&p->pi_lock), then the rq lock" },
	{ "__smp_call_function_many", "the local call of smp_call_function_many_cond() runs IRQ-off" },
	{ "sched_ttwu_pending", "rq_lock_irqsave() to activate queued wakeups" },
	{ "load_balance", "SCHED_SOFTIRQ / newidle: rq_lock_irqsave(busiest) over detach_tasks() and attach_tasks()" },
	{ "complete", "raw_spin_lock_irqsave(&x->wait.lock)" },
	{ "complete_all", "raw_spin_lock_irqsave(&x->wait.lock)" },
	{ "wait_for_completion", "raw_spin_lock_irq(&x->wait.lock) in do_wait_for_common()" },
	{ "swake_up_one", "raw_spin_lock_irqsave(&q->lock)" },
	{ "swake_up_all", "raw_spin_lock_irq(&q->lock), dropped between wakeups" },
	{ "prepare_to_swait_exclusive", "raw_spin_lock_irqsave(&q->lock)" },
	{ "finish_swait", "raw_spin_lock_irqsave(&q->lock)" },
	/* PREEMPT_RT's sleeping locks: the rt_mutex wait_lock is raw and irqsave. */
	{ "rt_spin_lock", "rtlock_slowlock() (inlined): raw_spin_lock_irqsave(&lock->wait_lock)" },
	{ "rtlock_slowlock_locked", "retakes wait_lock with raw_spin_lock_irq() after schedule_rtlock()" },
	{ "rt_spin_unlock", "rt_mutex_slowunlock() (inlined): wait_lock irqsave" },
	{ "rt_mutex_slowunlock", "raw_spin_lock_irqsave(&lock->wait_lock)" },
	{ "rt_mutex_slowlock", "raw_spin_lock_irqsave(&lock->wait_lock)" },
	{ "rt_mutex_slowlock_block", "retakes wait_lock with raw_spin_lock_irq() after schedule()" },
	{ "rt_write_lock", "rwbase_write_lock(): raw_spin_lock_irqsave(&rtm->wait_lock)" },
	{ "rt_write_unlock", "rwbase_write_unlock(): raw_spin_lock_irqsave(&rtm->wait_lock)" },
	{ "rt_read_lock", "rwbase_read_lock() slow path: raw_spin_lock_irq(&rtm->wait_lock)" },
	{ "rt_read_unlock", "__rwbase_read_unlock(): raw_spin_lock_irq(&rtm->wait_lock)" },
	{ "rcu_read_unlock_special", "local_irq_save() before reporting the deferred quiescent state" },
	{ "__note_gp_changes", "note_gp_changes(): local_irq_save(), then the rcu_node lock" },
	{ "rcu_core", "rcu_report_qs_rdp() and rcu_do_batch() inlined: rcu_node lock irqsave, local_irq_save()" },
	{ "invoke_rcu_core", "invoke_rcu_core_kthread() (use_softirq=0): local_irq_save()" },
	{ "call_rcu", "__call_rcu(): local_irq_save() around the enqueue" },
	{ "rcu_gp_kthread", "rcu_gp_init() and rcu_gp_cleanup() inlined: raw_spin_lock_irq_rcu_node()" },
	{ "rcu_gp_fqs", "clears RCU_GP_FLAG_FQS under raw_spin_lock_irq_rcu_node()" },
	{ "force_qs_rnp", "raw_spin_lock_irqsave_rcu_node() per leaf, then rcu_initiate_boost()" },
	{ "rcu_boost", "raw_spin_lock_irqsave_rcu_node() to proxy-lock boost_mtx for the reader" },
	{ "rcu_boost_kthread", "rcu_boost() inlined: raw_spin_lock_irqsave_rcu_node()" },
	{ "rt_mutex_futex_unlock", "the boosted reader's unlock: raw_spin_lock_irqsave(&lock->wait_lock)" },
	{ "rcu_barrier", "the local rcu_barrier_func() call runs IRQ-off" },
	{ "process_srcu", "srcu_advance_state(): spin_lock_irq_rcu_node(ssp)" },
	{ "call_srcu", "srcu_gp_start_if_needed(): spin_lock_irqsave_rcu_node()" },
	{ "hrtimer_start_range_ns", "lock_hrtimer_base(): raw_spin_lock_irqsave(&base->cpu_base->lock)" },
	{ "hrtimer_try_to_cancel", "lock_hrtimer_base(): raw_spin_lock_irqsave" },
	{ "__queue_work", "queue_work_on(): local_irq_save()" },
	{ "queue_work_on", "local_irq_save() around __queue_work()" },
	{ "worker_thread", "raw_spin_lock_irq(&pool->lock)" },
	{ "process_one_work", "raw_spin_lock_irq(&pool->lock) after the item" },
	{ "vfree", "vunmap's TLB flush: on_each_cpu() runs the local call IRQ-off" },
	{ "flush_tlb_kernel_range", "on_each_cpu(): the local call runs IRQ-off" },
#ifndef CONFIG_PREEMPT_RT
	/* spinlock_t and local_lock_t disable IRQs only on !RT. */
	{ "free_unref_page", "local_lock_irqsave(&pagesets.lock)" },
	{ "rmqueue_pcplist", "local_lock_irqsave(&pagesets.lock)" },
	{ "rmqueue", "rmqueue_pcplist() inlined: local_lock_irqsave(&pagesets.lock)" },
	{ "prepare_to_wait", "spin_lock_irqsave(&wq_head->lock)" },
	{ "finish_wait", "spin_lock_irqsave(&wq_head->lock)" },
	{ "__wake_up", "spin_lock_irqsave(&wq_head->lock) in __wake_up_common_lock()" },
	{ "get_page_from_freelist", "rmqueue() inlined: pagesets local_lock_irqsave" },
	{ "__free_pages_ok", "spin_lock_irqsave(&zone->lock)" },
	{ "__slab_free", "spin_lock_irqsave(&n->list_lock)" },
	{ "get_partial_node", "spin_lock_irqsave(&n->list_lock)" },
	{ "deactivate_slab", "spin_lock_irqsave(&n->list_lock)" },
	{ "__unfreeze_partials", "spin_lock_irqsave(&n->list_lock)" },
	{ "free_debug_processing", "spin_lock_irqsave(&n->list_lock)" },
#ifndef CONFIG_SLUB_LEGACY
	/* 5.15's cpu slab local_lock: IRQ-off on !RT only. */
	{ "___slab_alloc", "local_lock_irqsave(&s->cpu_slab->lock) around cpu slab updates" },
	{ "put_cpu_partial", "local_lock_irqsave(&s->cpu_slab->lock)" },
	{ "flush_cpu_slab", "local_lock_irqsave(&s->cpu_slab->lock) in flush_slab()" },
#endif
#endif
#ifdef CONFIG_SLUB_LEGACY
	/* Pre-series SLUB (5.14): the cpu slab is protected by disabling IRQs. */
	{ "__slab_alloc", "local_irq_save() around ___slab_alloc()" },
	{ "___slab_alloc", "runs IRQ-off; new_slab() may enable them around the page allocator" },
	{ "new_slab", "allocate_slab(): local_irq_disable() again after the page allocator" },
	{ "allocate_slab", "local_irq_disable() after the page allocator" },
	{ "kmem_cache_alloc_bulk", "local_irq_disable() over the whole bulk" },
	{ "unfreeze_partials", "runs under local_irq_save() from put_cpu_partial()" },
	{ "put_cpu_partial", "local_irq_save() around unfreeze_partials()" },
	{ "__slab_free", "spin_lock_irqsave(&n->list_lock): raw on RT, as the RT patches made it before the series" },
	{ "flush_cpu_slab", "IPI handler / on_each_cpu_cond local call, IRQ-off" },
#endif
#ifdef CONFIG_KASAN
	/* KASAN's slab side (mm/kasan/quarantine.c, lib/stackdepot.c). */
	{ "kasan_quarantine_put", "local_irq_save() until a full per-CPU queue is in the ring" },
	{ "kasan_quarantine_reduce", "raw_spin_lock_irqsave(&quarantine_lock)" },
	{ "kasan_quarantine_remove_cache", "on_each_cpu()'s local call, then quarantine_lock irqsave" },
	{ "stack_depot_save", "raw_spin_lock_irqsave(&depot_lock) to store a new stack" },
#endif
};

struct opener_check {
	struct ktest *t;
	unsigned int bad;
	u64 windows;
};

static const struct opener *find_opener(const char *name)
{
	size_t len = strcspn(name, ".");	/* foo.part.0, foo.isra.0, foo.constprop.0 */

	for (size_t i = 0; i < ARRAY_SIZE(linux_openers); i++)
		if (strlen(linux_openers[i].func) == len &&
		    !strncmp(linux_openers[i].func, name, len))
			return &linux_openers[i];
	return NULL;
}

static void check_opener(unsigned long ip, const struct lat_func_total *tot, void *arg)
{
	u64 windows = tot->windows;
	struct opener_check *c = arg;
	unsigned long size, off;
	const char *name = kallsyms_lookup(ip - 1, &size, &off);

	c->windows += windows;
	/* The whole table, for the log: who opened how many windows. */
	ktest_info(c->t, "opener %s: %llu window(s)", name ? name : "?",
		   (unsigned long long)windows);
	if (name && find_opener(name))
		return;
	c->bad++;
	ktest_fail(c->t, __FILE__, __LINE__,
		   "%llu IRQ-off window(s) opened at %s+0x%lx: Linux opens none there",
		   (unsigned long long)windows, name ? name : "?", name ? off : ip);
}

static void hackbench_opens_only_linux_windows(struct ktest *t)
{
	struct hackbench_params p = { .groups = 2, .fds = 4, .loops = 20, .size = 100 };
	struct opener_check c = { .t = t };
	struct hackbench_result r;
	unsigned int mask, worst;
	u64 thr, fine;

	latency_tracer_get(&mask, &thr, &fine, &worst);
	latency_tracer_set(mask | (1u << LAT_IRQSOFF), 0, fine, worst);
	latency_tracer_reset();
	KTEST_EXPECT_EQ(t, hackbench(&p, &r), 0);
	latency_tracer_for_each_opener(LAT_IRQSOFF, check_opener, &c);
	latency_tracer_set(mask, thr, fine, worst);
	ktest_info(t, "%llu IRQ-off windows, %u opened where Linux opens none",
		   (unsigned long long)c.windows, c.bad);
	/* The tracer saw the workload at all: the check is not vacuous. */
	KTEST_EXPECT_GT(t, c.windows, 100);
	KTEST_EXPECT_EQ(t, latency_tracer_func(LAT_IRQSOFF, "migrate_enable").windows, 0);
}

/* The tracer over rt_migrate's loops only, not the tasks' setup. */
struct rt_push_trace {
	struct opener_check c;
	unsigned int mask, worst;
	u64 thr, fine;
};

static void rt_push_trace_hook(void *arg, bool begin)
{
	struct rt_push_trace *tr = arg;

	if (begin) {
		latency_tracer_get(&tr->mask, &tr->thr, &tr->fine, &tr->worst);
		latency_tracer_set(tr->mask | (1u << LAT_IRQSOFF), 0, tr->fine, tr->worst);
		latency_tracer_reset();
		return;
	}
	latency_tracer_for_each_opener(LAT_IRQSOFF, check_opener, &tr->c);
	latency_tracer_set(tr->mask, tr->thr, tr->fine, tr->worst);
}

/*
 * RT push and pull: one more FIFO task than CPUs, released together every
 * loop (rt_migrate's engine), so switches to an RT task find others
 * waiting behind it and queue a push, and a CPU dropping out of RT pulls.
 * Linux runs those balance callbacks inside the switch's own IRQ-off
 * section (finish_lock_switch()); a push that took the rq lock again
 * after the switch had turned IRQs on opened a window of its own
 * (rt_balance_after_unlock(), 9-11 windows per CPU here).
 */
static void rt_push_opens_only_linux_windows(struct ktest *t)
{
	unsigned int n = num_online_cpus() + 1;
	struct rt_push_trace tr = { .c = { .t = t } };
	struct rt_migrate_params p = {
		.tasks = n, .prio = 2, .loops = 8,
		.run_ns = 2 * NSEC_PER_MSEC,
		.interval_ns = 4 * NSEC_PER_MSEC * n,
		/* only the openers are checked here, not the placement */
		.maxerr_ns = NSEC_PER_SEC,
		.loops_hook = rt_push_trace_hook,
		.hook_arg = &tr,
	};
	struct rt_migrate_result *r;

	if (n < 3)
		ktest_skip(t, "needs 2 CPUs");
	r = rt_migrate_measure(&p);
	KTEST_ASSERT_TRUE(t, r != NULL);
	KTEST_EXPECT_FALSE(t, r->failed);
	rt_migrate_free(r);
	ktest_info(t, "%llu IRQ-off windows, %u opened where Linux opens none",
		   (unsigned long long)tr.c.windows, tr.c.bad);
	/* The tracer saw the loops at all: the check is not vacuous. */
	KTEST_EXPECT_GT(t, tr.c.windows, 50);
}

static struct ktest_case irqsoff_openers_cases[] = {
	KTEST_CASE(hackbench_opens_only_linux_windows),
	KTEST_CASE(rt_push_opens_only_linux_windows),
	{}
};

static struct ktest_suite irqsoff_openers_suite = {
	.name = "irqsoff_openers",
	.cases = irqsoff_openers_cases,
};
ktest_register_suite(irqsoff_openers_suite);

#endif /* CONFIG_TRACE_IRQSOFF */
