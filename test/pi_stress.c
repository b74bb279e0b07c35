// SPDX-License-Identifier: GPL-2.0
/*
 * pi_stress: priority inversion scenarios over and over, after rt-tests'
 * pi_stress.  Each group pins three SCHED_FIFO threads to one CPU:
 *
 *	low  (FIFO 10) takes the group's rt_mutex, then lets the others go;
 *	high (FIFO 30) wants the mutex and blocks on low;
 *	med  (FIFO 20) spins until high reports it got the mutex.
 *
 * Only priority inheritance lets low run ahead of med and release the
 * mutex; without it med spins forever.  Here med gives up after
 * pi_stress.timeout_ms and counts a failure instead, so a broken kernel
 * ends the run with a count rather than a hang.
 *
 *	run=pi_stress pi_stress.groups=<n> pi_stress.iterations=<n>
 *	    pi_stress.timeout_ms=<ms>
 *
 * Reported: iterations, failures, iterations per second and the longest
 * time high waited for the mutex.
 */
#include <linux/kernel.h>
#include <linux/rtmutex.h>
#include <linux/sched.h>
#include <linux/kthread.h>
#include <linux/wait.h>
#include <linux/ktime.h>
#include <linux/smp.h>
#include <linux/ktest.h>
#include <linux/moduleparam.h>
#include <linux/start_kernel.h>
#include <linux/vmalloc.h>
#include <linux/record.h>
#include <string.h>

static int pi_groups;		/* 0: one per online CPU */
static int pi_iterations = 1000;
static int pi_timeout_ms = 100;
core_param_range("pi_stress.groups", pi_groups, int, 0, CONFIG_NR_CPUS,
		 "inversion groups, one CPU each (0: one per online CPU)");
core_param_range("pi_stress.iterations", pi_iterations, int, 1, 100000000,
		 "inversion scenarios per group");
core_param_range("pi_stress.timeout_ms", pi_timeout_ms, int, 1, 60000,
		 "how long med spins before an iteration counts as failed");

/* A reusable barrier for the three threads of a group. */
struct pi_barrier {
	wait_queue_head_t wq;
	atomic_t arrived;
	unsigned int gen;
};

struct pi_group {
	int cpu;
	int iterations;
	u64 timeout_ns;
	struct rt_mutex lock;
	struct pi_barrier start, locked, end;
	volatile bool high_got;
	unsigned long done, failures;
	u64 max_wait_ns;
	atomic_t exited;
	struct task_struct *waiter;
};

static void pi_barrier_init(struct pi_barrier *b)
{
	init_waitqueue_head(&b->wq);
	atomic_set(&b->arrived, 0);
	b->gen = 0;
}

static void pi_barrier_wait(struct pi_barrier *b)
{
	unsigned int gen = READ_ONCE(b->gen);

	if (atomic_inc_return(&b->arrived) == 3) {
		atomic_set(&b->arrived, 0);
		smp_store_release(&b->gen, gen + 1);
		wake_up_all(&b->wq);
		return;
	}
	wait_event(b->wq, smp_load_acquire(&b->gen) != gen);
}

static void pi_thread_exit(struct pi_group *g)
{
	if (atomic_inc_return(&g->exited) == 3)
		wake_up_process(g->waiter);
}

static int pi_low_fn(void *data)
{
	struct pi_group *g = data;

	for (int i = 0; i < g->iterations; i++) {
		pi_barrier_wait(&g->start);
		rt_mutex_lock(&g->lock);
		pi_barrier_wait(&g->locked);
		/* Runs only when boosted past med (or when med gave up). */
		rt_mutex_unlock(&g->lock);
		pi_barrier_wait(&g->end);
	}
	pi_thread_exit(g);
	return 0;
}

static int pi_med_fn(void *data)
{
	struct pi_group *g = data;

	for (int i = 0; i < g->iterations; i++) {
		u64 deadline;

		pi_barrier_wait(&g->start);
		pi_barrier_wait(&g->locked);
		deadline = ktime_get_ns() + g->timeout_ns;
		while (!READ_ONCE(g->high_got)) {
			if (ktime_get_ns() > deadline) {
				g->failures++;
				break;
			}
			cpu_relax();
		}
		pi_barrier_wait(&g->end);
	}
	pi_thread_exit(g);
	return 0;
}

static int pi_high_fn(void *data)
{
	struct pi_group *g = data;

	for (int i = 0; i < g->iterations; i++) {
		u64 t0, wait;

		pi_barrier_wait(&g->start);
		WRITE_ONCE(g->high_got, false);
		pi_barrier_wait(&g->locked);
		t0 = ktime_get_ns();
		rt_mutex_lock(&g->lock);
		wait = ktime_get_ns() - t0;
		WRITE_ONCE(g->high_got, true);
		rt_mutex_unlock(&g->lock);
		if (wait > g->max_wait_ns)
			g->max_wait_ns = wait;
		g->done++;
		pi_barrier_wait(&g->end);
	}
	pi_thread_exit(g);
	return 0;
}

/*
 * Create and start the group's threads.  If one cannot be created, the
 * others run zero iterations and exit, so the caller can wait for the
 * group as usual.
 */
static bool pi_group_start(struct pi_group *g)
{
	static const struct { int (*fn)(void *); const char *name; int prio; } roles[3] = {
		{ pi_low_fn, "pi_low", 10 },
		{ pi_med_fn, "pi_med", 20 },
		{ pi_high_fn, "pi_high", 30 },
	};
	struct task_struct *p[3];
	int created = 0;

	for (int r = 0; r < 3; r++) {
		p[r] = ktest_kthread(roles[r].fn, g, roles[r].name, g->cpu, SCHED_FIFO,
				     roles[r].prio);
		if (p[r])
			created++;
	}
	if (created < 3) {
		pr_err("pi_stress: cannot create the threads of the group on CPU %d\n",
		       g->cpu);
		g->iterations = 0;
		atomic_set(&g->exited, 3 - created);
	}
	for (int r = 0; r < 3; r++)
		if (p[r])
			wake_up_process(p[r]);
	return created == 3;
}

/*
 * Run @ngroups groups of @iterations each; fills the totals.  Returns the
 * number of failed iterations, or -1 if the groups could not be started.
 */
long pi_stress(int ngroups, int iterations, int timeout_ms, struct pi_stress_result *res)
{
	struct pi_group *groups;
	int started = 0;
	u64 t0;

	memset(res, 0, sizeof(*res));
	groups = vmalloc(sizeof(*groups) * ngroups);
	if (!groups) {
		pr_err("pi_stress: no memory for %d groups\n", ngroups);
		return -1;
	}
	memset(groups, 0, sizeof(*groups) * ngroups);
	t0 = ktime_get_ns();
	for (int i = 0; i < ngroups; i++) {
		struct pi_group *g = &groups[i];

		g->cpu = i % num_online_cpus();
		g->iterations = iterations;
		g->timeout_ns = (u64)timeout_ms * NSEC_PER_MSEC;
		g->waiter = current;
		rt_mutex_init(&g->lock);
		pi_barrier_init(&g->start);
		pi_barrier_init(&g->locked);
		pi_barrier_init(&g->end);
		if (pi_group_start(g))
			started++;
	}
	for (int i = 0; i < ngroups; i++) {
		for (;;) {
			set_current_state(TASK_UNINTERRUPTIBLE);
			if (atomic_read(&groups[i].exited) == 3)
				break;
			schedule();
		}
		__set_current_state(TASK_RUNNING);
		res->iterations += groups[i].done;
		res->failures += groups[i].failures;
		if (groups[i].max_wait_ns > res->max_wait_ns)
			res->max_wait_ns = groups[i].max_wait_ns;
	}
	res->elapsed_ns = ktime_get_ns() - t0;
	res->groups = started;
	vfree(groups);
	return started == ngroups ? (long)res->failures : -1;
}

void pi_stress_report(const struct pi_stress_result *r)
{
	u64 rate = r->elapsed_ns ? r->iterations * NSEC_PER_SEC / r->elapsed_ns : 0;

	pr_info("pi_stress: %d groups, %lu iterations, %lu failures, %lu iterations/s, "
		"high waited at most %lu us (%s)\n",
		r->groups, r->iterations, r->failures, (unsigned long)rate,
		(unsigned long)(r->max_wait_ns / 1000), ktest_clock_mode());
	/* ns per iteration rather than a rate: lower is better, like every figure */
	if (record_emitf("{\"type\":\"pi_stress\",\"groups\":%d,\"iterations\":%lu,"
			 "\"failures\":%lu,\"ns_per_iter\":%llu,\"max_wait_ns\":%llu,"
			 "\"clock\":\"%s\"}", r->groups, r->iterations, r->failures,
			 (unsigned long long)(r->iterations ?
					      r->elapsed_ns / r->iterations : 0),
			 (unsigned long long)r->max_wait_ns, ktest_clock_mode()) < 0)
		pr_warn("pi_stress: the record did not fit\n");
}

/* The run=pi_stress workload. */
int pi_stress_run(void)
{
	struct pi_stress_result res;
	int ngroups = pi_groups ? pi_groups : (int)num_online_cpus();
	long ret;

	pr_info("pi_stress: %d groups x %d iterations, med gives up after %d ms\n",
		ngroups, pi_iterations, pi_timeout_ms);
	ret = pi_stress(ngroups, pi_iterations, pi_timeout_ms, &res);
	pi_stress_report(&res);
	if (ret < 0) {
		pr_err("pi_stress: could not start every group\n");
		return 1;
	}
	if (ret)
		pr_err("pi_stress: %ld inversions were not resolved within %d ms\n",
		       ret, pi_timeout_ms);
	return ret ? 1 : 0;
}
