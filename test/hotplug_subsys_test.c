// SPDX-License-Identifier: GPL-2.0
/*
 * What the subsystems do when a CPU goes down and comes back (the
 * hotplug_subsys suite): SLUB's CPU slabs and CPU partial slabs, the page
 * allocator's pcp lists and the vm event counters of the dead CPU come
 * back (slub_cpu_dead, page_alloc_cpu_dead), with each SLUB port's own
 * IRQ scope; its hrtimers fire on another CPU (hrtimers_dead_cpu); its
 * RCU callbacks are invoked elsewhere and grace periods no longer wait
 * for it (rcu_report_dead, rcutree_migrate_callbacks); its workqueue
 * pools run items unbound while it is down and bound again once it is
 * back (unbind_workers, rebind_workers).
 *
 * The state to be taken over is planted on the dying CPU itself, by a
 * CPUHP_AP_ONLINE_DYN teardown that runs there in its cpuhp thread as
 * the take-down starts, so nothing else on that CPU can flush it first.
 */
#include <linux/ktest.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/slab.h>
#include <linux/slub_def.h>
#include <linux/mm.h>
#include <linux/gfp.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/workqueue.h>
#include <linux/rcupdate.h>
#include <linux/vmstat.h>
#include <linux/kthread.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include "slub_test.h"

#define HS_OBJ_SIZE	256
#define HS_NR_OBJS	96		/* several slabs' worth */
#define HS_NR_PAGES	8
#define HS_NR_CBS	16
#define HS_EVENTS	1000
#define HS_TIMER_MS	3000		/* far beyond any take-down's length */
#define HS_WAIT_MS	20000

struct hs_timer {
	struct hrtimer timer;
	int fired_cpu;			/* -1 until it fired */
	bool in_hardirq;
};

/* What the teardown plants on the dying CPU. */
static struct {
	int victim;			/* plant on this CPU, -1: plant nothing */
	struct kmem_cache *s;
	void *objs[HS_NR_OBJS];
	bool had_cpu_slab;
	int pcp_before;
	struct hs_timer hard, soft;
	struct rcu_head cbs[HS_NR_CBS];
	atomic_t cbs_invoked;
	atomic_t cbs_on_victim;
	unsigned long events_before;
	bool planted;
} plant = { .victim = -1 };

static int hs_state = -1;

static enum hrtimer_restart hs_timer_fn(struct hrtimer *h)
{
	struct hs_timer *ht = container_of(h, struct hs_timer, timer);

	ht->in_hardirq = in_hardirq();
	smp_store_release(&ht->fired_cpu, raw_smp_processor_id());
	return HRTIMER_NORESTART;
}

static void hs_rcu_cb(struct rcu_head *rhp)
{
	if (raw_smp_processor_id() == plant.victim)
		atomic_inc(&plant.cbs_on_victim);
	atomic_inc(&plant.cbs_invoked);
}

static int hs_pcp_total(int cpu)
{
	struct zone *zone;
	int n = 0;

	for_each_populated_zone(zone)
		n += pcp_count(zone, cpu);
	return n;
}

static void plant_slab(int cpu)
{
	struct kmem_cache_cpu *c;

	for (int i = 0; i < HS_NR_OBJS; i++)
		plant.objs[i] = kmem_cache_alloc(plant.s, GFP_KERNEL);
	/*
	 * Every other object back: slabs that were full become partial,
	 * which puts them on this CPU's partial list where there is one.
	 */
	for (int i = 0; i < HS_NR_OBJS; i += 2) {
		if (plant.objs[i])
			kmem_cache_free(plant.s, plant.objs[i]);
		plant.objs[i] = NULL;
	}
	c = per_cpu_ptr(plant.s->cpu_slab, cpu);
	plant.had_cpu_slab = READ_ONCE(c->page) || slub_percpu_partial(c);
}

static void plant_pages(int cpu)
{
	struct page *pages[HS_NR_PAGES];

	for (int i = 0; i < HS_NR_PAGES; i++)
		pages[i] = alloc_pages(GFP_KERNEL, 0);
	for (int i = 0; i < HS_NR_PAGES; i++)
		if (pages[i])
			__free_pages(pages[i], 0);
	plant.pcp_before = hs_pcp_total(cpu);
}

static void plant_timer(struct hs_timer *ht, enum hrtimer_mode mode)
{
	ht->fired_cpu = -1;
	hrtimer_init(&ht->timer, CLOCK_MONOTONIC, mode);
	ht->timer.function = hs_timer_fn;
	hrtimer_start(&ht->timer, ns_to_ktime((u64)HS_TIMER_MS * NSEC_PER_MSEC), mode);
}

/* CPUHP_AP_ONLINE_DYN teardown: on the dying CPU, preemptible. */
static int hs_plant_teardown(unsigned int cpu)
{
	if ((int)cpu != READ_ONCE(plant.victim) || plant.planted)
		return 0;
	migrate_disable();	/* the cpuhp thread is pinned anyway */
	if (plant.s)
		plant_slab(cpu);
	plant_pages(cpu);
	plant_timer(&plant.hard, HRTIMER_MODE_REL_HARD);
	plant_timer(&plant.soft, HRTIMER_MODE_REL_SOFT);
	for (int i = 0; i < HS_NR_CBS; i++)
		call_rcu(&plant.cbs[i], hs_rcu_cb);
	count_vm_events(SLABS_SCANNED, HS_EVENTS);
	plant.events_before = per_cpu(vm_event_states, cpu).event[SLABS_SCANNED];
	migrate_enable();
	plant.planted = true;
	return 0;
}

static int hs_victim(struct ktest *t)
{
	unsigned int cpu = cpumask_last(cpu_online_mask);

	if (cpu == 0 || cpu >= nr_cpu_ids)
		ktest_skip(t, "needs a second CPU");
	return cpu;
}

/* The last plant's timers and callbacks are done with before reuse. */
static void hs_settle(void)
{
	if (!plant.planted)
		return;
	hrtimer_cancel(&plant.hard.timer);
	hrtimer_cancel(&plant.soft.timer);
	rcu_barrier();
	plant.planted = false;
}

static void hs_arm(struct ktest *t, int victim, struct kmem_cache *s)
{
	hs_settle();
	memset(&plant, 0, sizeof(plant));
	atomic_set(&plant.cbs_invoked, 0);
	atomic_set(&plant.cbs_on_victim, 0);
	plant.s = s;
	WRITE_ONCE(plant.victim, victim);
	if (hs_state < 0)
		hs_state = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "test:hotplug_subsys",
						     NULL, hs_plant_teardown);
	KTEST_ASSERT_TRUE(t, hs_state > 0);
}

static void hs_disarm(void)
{
	WRITE_ONCE(plant.victim, -1);
}

/* Wait for *flag != -1 (or nonzero), up to HS_WAIT_MS. */
static bool hs_wait_int(int *v, int unset)
{
	for (int ms = 0; ms < HS_WAIT_MS; ms += 10) {
		if (smp_load_acquire(v) != unset)
			return true;
		msleep(10);
	}
	return false;
}

/*
 * The dead CPU's CPU slab and partials, pcp pages and vm events are taken
 * back; the cache is then empty once our objects are freed; the IRQ scope
 * of slub_cpu_dead() is the port's.
 */
static void dead_cpu_caches(struct ktest *t)
{
	int victim = hs_victim(t);
	struct kmem_cache *s = slub_t_cache(t, "hs-cache", HS_OBJ_SIZE, 0,
					    SLUB_T_NOMERGE, NULL);
	struct kmem_cache_cpu *c;
	long kept = 0;
#ifdef CONFIG_SLUB_SCOPE_PROBE
	struct slub_probe_stats ps;
#endif

	hs_arm(t, victim, s);
#ifdef CONFIG_SLUB_SCOPE_PROBE
	slub_probe_reset();
#endif
	KTEST_ASSERT_EQ(t, cpu_down(victim), 0);
	hs_disarm();
	KTEST_ASSERT_TRUE(t, plant.planted);

	/* SLUB: the planted CPU slab / partials were there and are gone. */
	KTEST_EXPECT_TRUE(t, plant.had_cpu_slab);
	c = per_cpu_ptr(s->cpu_slab, victim);
	KTEST_EXPECT_TRUE(t, c->page == NULL);
	KTEST_EXPECT_TRUE(t, slub_percpu_partial(c) == NULL);
	/* run=hotplug's check agrees: no cache keeps slabs on it */
	KTEST_EXPECT_EQ(t, slub_hotplug_check(), 0);
	for (int i = 0; i < HS_NR_OBJS; i++)
		kept += plant.objs[i] != NULL;
	KTEST_EXPECT_EQ(t, kept, HS_NR_OBJS / 2);
#ifdef CONFIG_SLUB_DEBUG
	/* in use: exactly what we still hold */
	KTEST_EXPECT_EQ(t, slub_t_active(s), kept);
#endif
	for (int i = 0; i < HS_NR_OBJS; i++)
		if (plant.objs[i])
			kmem_cache_free(s, plant.objs[i]);
	/* nothing stranded on the dead CPU: every slab goes back */
	KTEST_EXPECT_EQ(t, slub_t_expect_empty(t, s, "after cpu_down"), 0);

	/* page allocator: the pcp pages went back, the events moved */
	KTEST_EXPECT_GT(t, plant.pcp_before, 0);
	KTEST_EXPECT_EQ(t, hs_pcp_total(victim), 0);
	KTEST_EXPECT_GE(t, plant.events_before, (unsigned long)HS_EVENTS);
	KTEST_EXPECT_EQ(t, per_cpu(vm_event_states, victim).event[SLABS_SCANNED], 0);

#ifdef CONFIG_SLUB_SCOPE_PROBE
	/* one call per cache, each with the port's IRQ state */
	slub_probe_read(SLUB_PROBE_CPU_DEAD, &ps);
	KTEST_EXPECT_GT(t, ps.calls, 0);
	KTEST_EXPECT_EQ(t, ps.hardirq, 0);
#ifdef CONFIG_SLUB_LEGACY
	KTEST_EXPECT_EQ(t, ps.irqs_off, ps.calls);
#else
	KTEST_EXPECT_EQ(t, ps.irqs_off, 0);
#ifdef CONFIG_PREEMPT_COUNT
	KTEST_EXPECT_EQ(t, ps.preempt_off, 0);
#endif
#endif
	ktest_info(t, "slub_cpu_dead: %lu calls, %lu with IRQs off", ps.calls, ps.irqs_off);
#endif

	KTEST_EXPECT_EQ(t, cpu_up(victim), 0);
	count_vm_events(SLABS_SCANNED, -(long)HS_EVENTS);	/* put back */
	hs_settle();
	kmem_cache_destroy(s);
}

static int hs_sync_rcu(void *arg)
{
	synchronize_rcu();
	complete(arg);
	return 0;
}

/*
 * hrtimers armed on the dying CPU fire elsewhere, hard ones in hard IRQ
 * and soft ones not; its call_rcu() callbacks are invoked elsewhere; a
 * grace period completes while it is down.
 */
static void dead_cpu_timers_rcu(struct ktest *t)
{
	int victim = hs_victim(t);
	static struct completion gp_done;
	struct task_struct *p;
	struct hrtimer_clock_base *base;

	hs_arm(t, victim, NULL);
	KTEST_ASSERT_EQ(t, cpu_down(victim), 0);
	hs_disarm();
	KTEST_ASSERT_TRUE(t, plant.planted);

	/* still queued (3 s), now on a live CPU's matching base */
	base = READ_ONCE(plant.hard.timer.base);
	if (READ_ONCE(plant.hard.fired_cpu) < 0)
		KTEST_EXPECT_NE(t, (int)base->cpu_base->cpu, victim);
	KTEST_EXPECT_EQ(t, base->index, HRTIMER_BASE_MONOTONIC);
	base = READ_ONCE(plant.soft.timer.base);
	if (READ_ONCE(plant.soft.fired_cpu) < 0)
		KTEST_EXPECT_NE(t, (int)base->cpu_base->cpu, victim);
	KTEST_EXPECT_EQ(t, base->index, HRTIMER_BASE_MONOTONIC_SOFT);
	/* the dead CPU's callbacks are no longer there */
	KTEST_EXPECT_EQ(t, rcu_get_n_cbs_cpu(victim), 0);

	/* a grace period with the CPU down */
	init_completion(&gp_done);
	p = ktest_kthread(hs_sync_rcu, &gp_done, "hs-sync-rcu", -1, SCHED_NORMAL, 0);
	KTEST_ASSERT_TRUE(t, p != NULL);
	wake_up_process(p);
	for (int ms = 0; ms < HS_WAIT_MS && !completion_done(&gp_done); ms += 10)
		msleep(10);
	KTEST_EXPECT_TRUE(t, completion_done(&gp_done));
	if (!completion_done(&gp_done))
		rcu_dump_state();

	KTEST_EXPECT_TRUE(t, hs_wait_int(&plant.hard.fired_cpu, -1));
	KTEST_EXPECT_TRUE(t, hs_wait_int(&plant.soft.fired_cpu, -1));
	KTEST_EXPECT_NE(t, plant.hard.fired_cpu, victim);
	KTEST_EXPECT_NE(t, plant.soft.fired_cpu, victim);
	KTEST_EXPECT_TRUE(t, plant.hard.in_hardirq);
	KTEST_EXPECT_FALSE(t, plant.soft.in_hardirq);

	if (completion_done(&gp_done))
		rcu_barrier();
	KTEST_EXPECT_EQ(t, atomic_read(&plant.cbs_invoked), HS_NR_CBS);
	/* some may have run on the victim before it stopped; say how many */
	ktest_info(t, "%d of %d callbacks ran on CPU %d before it went",
		   atomic_read(&plant.cbs_on_victim), HS_NR_CBS, victim);

	KTEST_EXPECT_EQ(t, cpu_up(victim), 0);
	/* and with the CPU back, grace periods still end */
	synchronize_rcu();
	hs_settle();
}

struct hs_work {
	struct work_struct work;
	int ran_cpu;
	bool was_kworker;
};

static void hs_work_fn(struct work_struct *w)
{
	struct hs_work *hw = container_of(w, struct hs_work, work);

	hw->was_kworker = current->flags & PF_WQ_WORKER;
	WRITE_ONCE(hw->ran_cpu, raw_smp_processor_id());
}

static int hs_queue_and_flush(int cpu)
{
	static struct hs_work hw;

	hw.ran_cpu = -1;
	INIT_WORK(&hw.work, hs_work_fn);
	schedule_work_on(cpu, &hw.work);
	flush_work(&hw.work);
	return hw.ran_cpu;
}

/*
 * While the CPU is down its pools are unbound: an item queued on it runs
 * elsewhere.  Once it is back they are bound: the item runs on it.
 */
static void workqueue_unbind_rebind(struct ktest *t)
{
	int victim = hs_victim(t);

	KTEST_EXPECT_FALSE(t, wq_pool_disassociated(victim));
	KTEST_EXPECT_EQ(t, hs_queue_and_flush(victim), victim);

	KTEST_ASSERT_EQ(t, cpu_down(victim), 0);
	KTEST_EXPECT_TRUE(t, wq_pool_disassociated(victim));
	for (int i = 0; i < 4; i++) {
		int ran = hs_queue_and_flush(victim);

		KTEST_EXPECT_GE(t, ran, 0);
		KTEST_EXPECT_NE(t, ran, victim);
	}

	KTEST_ASSERT_EQ(t, cpu_up(victim), 0);
	KTEST_EXPECT_FALSE(t, wq_pool_disassociated(victim));
	for (int i = 0; i < 4; i++)
		KTEST_EXPECT_EQ(t, hs_queue_and_flush(victim), victim);
}

static struct ktest_case hotplug_subsys_cases[] = {
	KTEST_CASE(dead_cpu_caches),
	KTEST_CASE(dead_cpu_timers_rcu),
	KTEST_CASE(workqueue_unbind_rebind),
	{}
};

static struct ktest_suite hotplug_subsys_suite = {
	.name = "hotplug_subsys", .cases = hotplug_subsys_cases,
};
ktest_register_suite(hotplug_subsys_suite);
