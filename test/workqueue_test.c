// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU workqueues: items run on the requested CPU in that CPU's kworker,
 * a pending item is not queued twice, flush_work() and cancel_work_sync()
 * wait for the instance that was pending or running, a pool runs its items
 * in queue order, and items queued from every CPU to every CPU each run
 * exactly once.
 */
#include <linux/ktest.h>
#include <linux/workqueue.h>
#include <linux/completion.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/delay.h>
#include <linux/cpumask.h>
#include <asm/processor.h>

/* An item that records where it ran. */
struct probe {
	struct work_struct work;
	struct completion begun, ran;
	int runs, cpu;
	bool kthread;
	char comm[TASK_COMM_LEN];
	int nice;
	unsigned int delay_ms;		/* spin this long before finishing */
	volatile bool hold;		/* then spin until cleared (5 s at most) */
	volatile bool started, finished;
};

static void probe_fn(struct work_struct *work)
{
	struct probe *p = container_of(work, struct probe, work);

	WRITE_ONCE(p->started, true);
	complete(&p->begun);
	p->cpu = smp_processor_id();
	p->kthread = current->flags & PF_KTHREAD;
	memcpy(p->comm, current->comm, TASK_COMM_LEN);
	p->nice = task_nice(current);
	if (p->delay_ms)
		mdelay(p->delay_ms);
	for (int i = 0; i < 5000 && READ_ONCE(p->hold); i++)
		mdelay(1);
	p->runs++;
	WRITE_ONCE(p->finished, true);
	complete(&p->ran);
}

static void probe_init(struct probe *p, unsigned int delay_ms)
{
	memset(p, 0, sizeof(*p));
	INIT_WORK(&p->work, probe_fn);
	init_completion(&p->begun);
	init_completion(&p->ran);
	p->cpu = -1;
	p->delay_ms = delay_ms;
}

/*
 * An item that holds its pool until released: it stays runnable (spins,
 * yielding only through preemption), so concurrency management starts no
 * other worker and the items queued behind it stay pending.
 */
struct blocker {
	struct work_struct work;
	struct completion started;
	volatile bool release;
};

static void blocker_fn(struct work_struct *work)
{
	struct blocker *b = container_of(work, struct blocker, work);

	complete(&b->started);
	while (!READ_ONCE(b->release)) {
		cpu_relax();
		cond_resched();
	}
}

/* Occupy @cpu's system_wq worker; returns once the blocker is running. */
static void block_worker(struct blocker *b, int cpu)
{
	INIT_WORK(&b->work, blocker_fn);
	init_completion(&b->started);
	b->release = false;
	schedule_work_on(cpu, &b->work);
	wait_for_completion(&b->started);
}

static void unblock_worker(struct blocker *b)
{
	WRITE_ONCE(b->release, true);
	flush_work(&b->work);
}

/* @p queued on @cpu, pending behind an item that holds the pool. */
static void queue_behind_blocker(struct ktest *t, struct blocker *b, struct probe *p, int cpu)
{
	probe_init(p, 0);
	block_worker(b, cpu);
	KTEST_EXPECT_TRUE(t, schedule_work_on(cpu, &p->work));
}

static void check_runs_on(struct ktest *t, struct workqueue_struct *wq,
			  const char *suffix, int nice)
{
	int cpu;

	for_each_online_cpu(cpu) {
		struct probe p;
		char want[TASK_COMM_LEN];

		probe_init(&p, 0);
		KTEST_EXPECT_TRUE(t, queue_work_on(cpu, wq, &p.work));
		wait_for_completion(&p.ran);
		flush_work(&p.work);
		/* any worker of the pool: kworker/<cpu>:<id><suffix> */
		snprintf(want, sizeof(want), "kworker/%d:", cpu);
		KTEST_EXPECT_EQ(t, p.runs, 1);
		KTEST_EXPECT_EQ(t, p.cpu, cpu);
		KTEST_EXPECT_TRUE(t, p.kthread);
		KTEST_EXPECT_TRUE(t, !strncmp(p.comm, want, strlen(want)));
		KTEST_EXPECT_EQ(t, p.comm[strlen(p.comm) - 1] == 'H', *suffix == 'H');
		KTEST_EXPECT_EQ(t, p.nice, nice);
	}
}

static void runs_on_requested_cpu(struct ktest *t)
{
	check_runs_on(t, system_wq, "", 0);
}

static void highpri_runs_on_requested_cpu(struct ktest *t)
{
	check_runs_on(t, system_highpri_wq, "H", -20);
}

static void schedule_work_runs_locally(struct ktest *t)
{
	struct probe p;

	probe_init(&p, 0);
	KTEST_EXPECT_TRUE(t, schedule_work(&p.work));
	/*
	 * Its return value is racy here: a kworker woken on this CPU may
	 * preempt us and finish the item first, and then flush_work() finds
	 * it idle and returns false.  What counts is that it ran once.
	 */
	flush_work(&p.work);
	KTEST_EXPECT_EQ(t, p.runs, 1);
	KTEST_EXPECT_TRUE(t, p.kthread);
	KTEST_EXPECT_TRUE(t, !strncmp(p.comm, "kworker/", 8));
}

static void pending_item_not_requeued(struct ktest *t)
{
	struct blocker b;
	struct probe p;
	int cpu = cpumask_last(cpu_online_mask);

	queue_behind_blocker(t, &b, &p, cpu);
	KTEST_EXPECT_TRUE(t, work_pending(&p.work));
	KTEST_EXPECT_FALSE(t, schedule_work_on(cpu, &p.work));
	KTEST_EXPECT_FALSE(t, schedule_work_on(0, &p.work));
	KTEST_EXPECT_EQ(t, p.runs, 0);
	unblock_worker(&b);
	flush_work(&p.work);
	mdelay(5);			/* a second instance would have run by now */
	KTEST_EXPECT_EQ(t, p.runs, 1);
	KTEST_EXPECT_FALSE(t, work_pending(&p.work));
	/* idle again: it can be queued anew */
	KTEST_EXPECT_TRUE(t, schedule_work_on(cpu, &p.work));
	flush_work(&p.work);
	KTEST_EXPECT_EQ(t, p.runs, 2);
}

/*
 * On every CPU the item is held until we sleep in flush_work(): with a
 * fixed 20 ms run a host stall of the test thread under TCG (or a
 * kworker preempting it on one CPU) could let it finish first, and the
 * flush then rightly found it idle.
 */
static void flush_work_waits(struct ktest *t)
{
	static struct probe p;	/* the releaser's, should the flush not wait */
	int cpu;

	for_each_online_cpu(cpu) {
		probe_init(&p, 0);
		KTEST_EXPECT_FALSE(t, flush_work(&p.work));	/* never queued */
		p.hold = true;
		schedule_work_on(cpu, &p.work);
		ktest_release_when_asleep(current, &p.hold);
		KTEST_EXPECT_TRUE(t, flush_work(&p.work));
		KTEST_EXPECT_TRUE(t, p.finished);
		KTEST_EXPECT_EQ(t, p.runs, 1);
		KTEST_EXPECT_FALSE(t, flush_work(&p.work));	/* idle now */
	}
}

/*
 * The item runs until the test thread is asleep in flush_work(): the
 * flush must have waited for a running item (not found it finished
 * already, which host load could arrange with a fixed run time).
 */
static void flush_work_waits_for_running(struct ktest *t)
{
	static struct probe p;	/* the releaser's, should the flush not wait */
	int cpu = cpumask_last(cpu_online_mask);

	probe_init(&p, 0);
	p.hold = true;
	schedule_work_on(cpu, &p.work);
	wait_for_completion(&p.begun);
	KTEST_EXPECT_FALSE(t, work_pending(&p.work));
	KTEST_EXPECT_FALSE(t, p.finished);
	ktest_release_when_asleep(current, &p.hold);
	KTEST_EXPECT_TRUE(t, flush_work(&p.work));
	KTEST_EXPECT_TRUE(t, p.finished);
}

static void cancel_pending(struct ktest *t)
{
	struct blocker b;
	struct probe p;
	int cpu = cpumask_last(cpu_online_mask);

	queue_behind_blocker(t, &b, &p, cpu);
	KTEST_EXPECT_TRUE(t, cancel_work_sync(&p.work));
	KTEST_EXPECT_FALSE(t, work_pending(&p.work));
	unblock_worker(&b);
	mdelay(5);
	KTEST_EXPECT_EQ(t, p.runs, 0);
	KTEST_EXPECT_FALSE(t, p.started);
	/* cancel of an idle item */
	KTEST_EXPECT_FALSE(t, cancel_work_sync(&p.work));
	/* still usable */
	KTEST_EXPECT_TRUE(t, schedule_work_on(cpu, &p.work));
	flush_work(&p.work);
	KTEST_EXPECT_EQ(t, p.runs, 1);
}

/*
 * As in flush_work_waits_for_running(): the item runs until the test
 * thread sleeps in cancel_work_sync().  A fixed 30 ms could end before a
 * host-stalled test thread (TCG) had looked, and then nothing was running.
 */
static void cancel_running(struct ktest *t)
{
	static struct probe p;	/* the releaser's, should the cancel not wait */
	int cpu = cpumask_last(cpu_online_mask);

	probe_init(&p, 0);
	p.hold = true;
	schedule_work_on(cpu, &p.work);
	wait_for_completion(&p.begun);
	KTEST_EXPECT_FALSE(t, p.finished);
	ktest_release_when_asleep(current, &p.hold);
	KTEST_EXPECT_FALSE(t, cancel_work_sync(&p.work));
	KTEST_EXPECT_TRUE(t, p.finished);
	KTEST_EXPECT_EQ(t, p.runs, 1);
	KTEST_EXPECT_FALSE(t, work_pending(&p.work));
}

#define FIFO_ITEMS	16

struct order_item {
	struct work_struct work;
	int *next_slot;
	int *order;
	int id;
};

static void order_fn(struct work_struct *work)
{
	struct order_item *it = container_of(work, struct order_item, work);

	it->order[(*it->next_slot)++] = it->id;
}

static void fifo_order(struct ktest *t)
{
	struct order_item items[FIFO_ITEMS];
	int order[FIFO_ITEMS], next = 0;
	struct blocker b;
	int cpu = cpumask_last(cpu_online_mask);

	block_worker(&b, cpu);
	for (int i = 0; i < FIFO_ITEMS; i++) {
		INIT_WORK(&items[i].work, order_fn);
		items[i].next_slot = &next;
		items[i].order = order;
		items[i].id = i;
		order[i] = -1;
		KTEST_EXPECT_TRUE(t, schedule_work_on(cpu, &items[i].work));
	}
	unblock_worker(&b);
	flush_work(&items[FIFO_ITEMS - 1].work);
	KTEST_EXPECT_EQ(t, next, FIFO_ITEMS);
	for (int i = 0; i < FIFO_ITEMS; i++)
		KTEST_EXPECT_EQ(t, order[i], i);
}

/* Every CPU queues MANY_ITEMS items on every CPU, from a bound kthread. */
#define MANY_CPUS	8
#define MANY_ITEMS	32

struct many_item {
	struct work_struct work;
	int target;
	int runs;
	int wrong_cpu;
};

static struct many_item many[MANY_CPUS][MANY_CPUS][MANY_ITEMS];
static struct completion many_done[MANY_CPUS];
static int many_cpus[MANY_CPUS], many_n;
static int many_queue_failed;

static void many_fn(struct work_struct *work)
{
	struct many_item *it = container_of(work, struct many_item, work);

	__atomic_fetch_add(&it->runs, 1, __ATOMIC_RELAXED);
	if (smp_processor_id() != it->target)
		it->wrong_cpu++;
}

static int many_queuer(void *arg)
{
	int src = (long)arg;

	for (int i = 0; i < MANY_ITEMS; i++)
		for (int d = 0; d < many_n; d++)
			if (!schedule_work_on(many_cpus[d], &many[src][d][i].work))
				__atomic_fetch_add(&many_queue_failed, 1, __ATOMIC_RELAXED);
	complete(&many_done[src]);
	return 0;
}

static void many_from_all_cpus(struct ktest *t)
{
	int cpu, s, d, i, bad_runs = 0, bad_cpu = 0;

	many_n = 0;
	many_queue_failed = 0;
	for_each_online_cpu(cpu)
		if (many_n < MANY_CPUS)
			many_cpus[many_n++] = cpu;
	for (s = 0; s < many_n; s++)
		for (d = 0; d < many_n; d++)
			for (i = 0; i < MANY_ITEMS; i++) {
				INIT_WORK(&many[s][d][i].work, many_fn);
				many[s][d][i].target = many_cpus[d];
				many[s][d][i].runs = 0;
				many[s][d][i].wrong_cpu = 0;
			}
	for (s = 0; s < many_n; s++) {
		struct task_struct *p;

		init_completion(&many_done[s]);
		p = kthread_create(many_queuer, (void *)(long)s, "wq_queuer/%d", many_cpus[s]);
		KTEST_ASSERT_TRUE(t, p != NULL);
		kthread_bind(p, many_cpus[s]);
		wake_up_process(p);
	}
	for (s = 0; s < many_n; s++)
		wait_for_completion(&many_done[s]);
	for (s = 0; s < many_n; s++)
		for (d = 0; d < many_n; d++)
			for (i = 0; i < MANY_ITEMS; i++)
				flush_work(&many[s][d][i].work);
	for (s = 0; s < many_n; s++)
		for (d = 0; d < many_n; d++)
			for (i = 0; i < MANY_ITEMS; i++) {
				bad_runs += many[s][d][i].runs != 1;
				bad_cpu += many[s][d][i].wrong_cpu != 0;
			}
	KTEST_EXPECT_EQ(t, many_queue_failed, 0);
	KTEST_EXPECT_EQ(t, bad_runs, 0);
	KTEST_EXPECT_EQ(t, bad_cpu, 0);
}

/* Poll @c for up to @ms: a broken pool fails the test instead of hanging it. */
static bool wait_done_ms(struct completion *c, unsigned int ms)
{
	for (unsigned int i = 0; i < ms; i++) {
		if (completion_done(c))
			return true;
		msleep(1);
	}
	return completion_done(c);
}

/* 1: a sleeping item does not hold up the next one on its CPU. */
struct cm_item {
	struct work_struct work;
	struct completion started, release, done;
	struct task_struct *task;
	int cpu;
	bool saw_first_sleeping;	/* ran while the other was blocked */
	struct cm_item *other;
};

static void cm_sleeper_fn(struct work_struct *work)
{
	struct cm_item *it = container_of(work, struct cm_item, work);

	it->task = current;
	it->cpu = smp_processor_id();
	complete(&it->started);
	wait_for_completion(&it->release);
	complete(&it->done);
}

static void cm_second_fn(struct work_struct *work)
{
	struct cm_item *it = container_of(work, struct cm_item, work);

	it->task = current;
	it->cpu = smp_processor_id();
	it->saw_first_sleeping = !completion_done(&it->other->done);
	complete(&it->done);
}

static void cm_init(struct cm_item *it, work_func_t fn)
{
	INIT_WORK(&it->work, fn);
	init_completion(&it->started);
	init_completion(&it->release);
	init_completion(&it->done);
	it->task = NULL;
	it->cpu = -1;
	it->saw_first_sleeping = false;
}

static void sleeping_item_does_not_block_pool(struct ktest *t)
{
	static struct cm_item a, b;
	int cpu = cpumask_last(cpu_online_mask);

	cm_init(&a, cm_sleeper_fn);
	cm_init(&b, cm_second_fn);
	b.other = &a;
	schedule_work_on(cpu, &a.work);
	wait_for_completion(&a.started);
	schedule_work_on(cpu, &b.work);
	KTEST_EXPECT_TRUE(t, wait_done_ms(&b.done, 2000));
	KTEST_EXPECT_TRUE(t, b.saw_first_sleeping);
	complete(&a.release);
	flush_work(&a.work);
	flush_work(&b.work);
	KTEST_EXPECT_TRUE(t, a.task != NULL && b.task != NULL && a.task != b.task);
	KTEST_EXPECT_EQ(t, a.cpu, cpu);
	KTEST_EXPECT_EQ(t, b.cpu, cpu);
}

/* 2: an item flushes another one queued on its CPU after it. */
struct flusher {
	struct work_struct work;
	struct probe *target;
	int cpu;
	bool flushed;
	struct completion done;
};

static void flusher_fn(struct work_struct *work)
{
	struct flusher *f = container_of(work, struct flusher, work);

	schedule_work_on(f->cpu, &f->target->work);
	f->flushed = flush_work(&f->target->work);
	complete(&f->done);
}

static void flush_from_work_same_cpu(struct ktest *t)
{
	static struct flusher f;
	static struct probe p;

	probe_init(&p, 0);
	INIT_WORK(&f.work, flusher_fn);
	init_completion(&f.done);
	f.target = &p;
	f.cpu = cpumask_last(cpu_online_mask);
	f.flushed = false;
	schedule_work_on(f.cpu, &f.work);
	KTEST_ASSERT_TRUE(t, wait_done_ms(&f.done, 2000));
	KTEST_EXPECT_TRUE(t, f.flushed);
	KTEST_EXPECT_EQ(t, p.runs, 1);
	KTEST_EXPECT_EQ(t, p.cpu, f.cpu);
	flush_work(&f.work);
}

/* 3: CPU-bound items run one after another on a single worker. */
#define SPIN_ITEMS	6

struct spin_item {
	struct work_struct work;
	struct task_struct *task;
};

static atomic_t spin_inflight, spin_max;

static void spin_fn(struct work_struct *work)
{
	struct spin_item *it = container_of(work, struct spin_item, work);
	int n = atomic_inc_return(&spin_inflight);

	if (n > atomic_read(&spin_max))
		atomic_set(&spin_max, n);
	it->task = current;
	mdelay(3);
	atomic_dec(&spin_inflight);
}

static void cpu_bound_items_share_one_worker(struct ktest *t)
{
	static struct spin_item items[SPIN_ITEMS];
	int cpu = cpumask_last(cpu_online_mask), before, after, idle, i, distinct = 1;

	atomic_set(&spin_inflight, 0);
	atomic_set(&spin_max, 0);
	wq_pool_counts(cpu, true, &before, &idle);
	for (i = 0; i < SPIN_ITEMS; i++) {
		INIT_WORK(&items[i].work, spin_fn);
		items[i].task = NULL;
	}
	/* highpri pool, queued with preemption off so all are there at once */
	preempt_disable();
	for (i = 0; i < SPIN_ITEMS; i++)
		queue_work_on(cpu, system_highpri_wq, &items[i].work);
	preempt_enable();
	for (i = 0; i < SPIN_ITEMS; i++)
		flush_work(&items[i].work);
	wq_pool_counts(cpu, true, &after, &idle);
	for (i = 1; i < SPIN_ITEMS; i++)
		if (items[i].task != items[0].task)
			distinct++;
	KTEST_EXPECT_EQ(t, distinct, 1);
	KTEST_EXPECT_EQ(t, atomic_read(&spin_max), 1);
	KTEST_EXPECT_EQ(t, after, before);
}

/* 4: an item queued again while it runs never runs concurrently with itself. */
#define REQUEUE_RUNS	20

static struct work_struct requeue_work;
static atomic_t rq_inflight, rq_max, rq_runs;
static int rq_cpu;

static void requeue_fn(struct work_struct *work)
{
	int n = atomic_inc_return(&rq_inflight);

	if (n > atomic_read(&rq_max))
		atomic_set(&rq_max, n);
	if (atomic_inc_return(&rq_runs) < REQUEUE_RUNS)
		schedule_work_on(rq_cpu, work);	/* requeue from itself */
	msleep(1);				/* sleep: another worker may start */
	atomic_dec(&rq_inflight);
}

static void requeue_not_reentrant(struct ktest *t)
{
	int i, cpu, queued = 0;

	atomic_set(&rq_inflight, 0);
	atomic_set(&rq_max, 0);
	atomic_set(&rq_runs, 0);
	rq_cpu = cpumask_last(cpu_online_mask);
	INIT_WORK(&requeue_work, requeue_fn);
	schedule_work_on(rq_cpu, &requeue_work);
	/* also from another CPU (or this one), onto other CPUs, while it runs */
	for (i = 0; i < 200 && atomic_read(&rq_runs) < REQUEUE_RUNS; i++) {
		for_each_online_cpu(cpu)
			queued += schedule_work_on(cpu, &requeue_work);
		udelay(300);
	}
	for (i = 0; i < 100 && atomic_read(&rq_runs) < REQUEUE_RUNS; i++)
		msleep(10);
	flush_work(&requeue_work);
	msleep(5);
	flush_work(&requeue_work);
	KTEST_EXPECT_EQ(t, atomic_read(&rq_max), 1);
	KTEST_EXPECT_TRUE(t, atomic_read(&rq_runs) >= REQUEUE_RUNS);
	/* every successful queuing produced exactly one run */
	KTEST_EXPECT_TRUE(t, atomic_read(&rq_runs) <= REQUEUE_RUNS + queued);
}

/* 5: surplus idle workers are reaped down to two. */
#define REAP_SLEEPERS	4

static void idle_workers_reaped(struct ktest *t)
{
	static struct cm_item s[REAP_SLEEPERS];
	int cpu = cpumask_last(cpu_online_mask), nr_workers, nr_idle, i, peak;

	if (wq_idle_timeout_ms > 2000)
		ktest_skip(t, "workqueue.idle_timeout_ms not set small on the cmdline");
	for (i = 0; i < REAP_SLEEPERS; i++) {
		cm_init(&s[i], cm_sleeper_fn);
		schedule_work_on(cpu, &s[i].work);
	}
	for (i = 0; i < REAP_SLEEPERS; i++)
		wait_for_completion(&s[i].started);
	wq_pool_counts(cpu, false, &peak, &nr_idle);
	KTEST_EXPECT_TRUE(t, peak >= REAP_SLEEPERS + 1);
	for (i = 0; i < REAP_SLEEPERS; i++)
		complete(&s[i].release);
	for (i = 0; i < REAP_SLEEPERS; i++)
		flush_work(&s[i].work);
	/*
	 * Wait for the settled state, not just the worker count: on RT a
	 * reaped kworker's task_struct is freed by free_dead_tasks_work,
	 * queued on this very pool, so one of the two kept workers may be
	 * briefly busy when we look.
	 */
	for (i = 0; i < 100; i++) {
		msleep(wq_idle_timeout_ms / 4 + 1);
		wq_pool_counts(cpu, false, &nr_workers, &nr_idle);
		if (nr_workers == 2 && nr_idle == 2)
			break;
	}
	KTEST_EXPECT_EQ(t, nr_workers, 2);
	KTEST_EXPECT_EQ(t, nr_idle, 2);
}

static struct ktest_case workqueue_cases[] = {
	KTEST_CASE(runs_on_requested_cpu),
	KTEST_CASE(highpri_runs_on_requested_cpu),
	KTEST_CASE(schedule_work_runs_locally),
	KTEST_CASE(pending_item_not_requeued),
	KTEST_CASE(flush_work_waits),
	KTEST_CASE(flush_work_waits_for_running),
	KTEST_CASE(cancel_pending),
	KTEST_CASE(cancel_running),
	KTEST_CASE(fifo_order),
	KTEST_CASE(many_from_all_cpus),
	KTEST_CASE(sleeping_item_does_not_block_pool),
	KTEST_CASE(flush_from_work_same_cpu),
	KTEST_CASE(cpu_bound_items_share_one_worker),
	KTEST_CASE(requeue_not_reentrant),
	KTEST_CASE(idle_workers_reaped),
	{}
};

static struct ktest_suite workqueue_suite = {
	.name = "workqueue", .cases = workqueue_cases,
};
ktest_register_suite(workqueue_suite);
