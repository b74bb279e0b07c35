// SPDX-License-Identifier: GPL-2.0
/*
 * ptsema: rt_mutex hand-over latency, after rt-tests' ptsematest
 * (DESIGN 7).  Each pair has a sender and a receiver thread (SCHED_FIFO,
 * the same priority within a pair, one less for every further pair, as
 * ptsematest gives them) and one rt_mutex.  A round:
 *
 *	sender    takes the lock, lets the receiver go on, sleeps the
 *	          pair's interval (the receiver blocks on the lock
 *	          meanwhile), checks the receiver is queued as a waiter,
 *	          notes the time and unlocks;
 *	receiver  gets the lock: latency = now - the sender's unlock time;
 *	          unlocks, which hands the lock to the sender's next round.
 *
 * ptsematest passes a pthread mutex from thread to thread like a
 * semaphore; an rt_mutex must be released by its owner, so here each
 * side unlocks only what it took, and the measured step is the same: an
 * unlock waking a blocked waiter that then owns the lock.
 *
 *	run=ptsema ptsema.pairs=<n> ptsema.loops=<n> ptsema.interval_us=<us>
 *	    ptsema.distance_us=<us> ptsema.prio=<1..99> ptsema.affinity=none|spread
 *
 * Nothing is printed while the pairs run.  After, ptsematest's lines
 *
 *	#0: ID<pid>, P<prio>, CPU<cpu>, I<interval>; #1: ID<pid>, P<prio>, CPU<cpu>, Cycles <n>
 *	#1 -> #0, Min <us>, Cur <us>, Avg <us>, Max <us>
 *
 * and one "ptsema" record per pair (latencies in ns).
 */
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/sched.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/delay.h>
#include <linux/smp.h>
#include <linux/rbtree_types.h>
#include <linux/ktest.h>
#include <linux/moduleparam.h>
#include <linux/record.h>
#include <linux/vmalloc.h>
#include "workload.h"
#include "ptsema.h"

static int pts_pairs = 1;
static int pts_loops = 1000;
static int pts_interval_us = 1000;
static int pts_distance_us = 500;
static int pts_prio = 90;
static int pts_affinity;	/* index into pts_affinities */
static const char *const pts_affinities[] = { "none", "spread", NULL };

core_param_range("ptsema.pairs", pts_pairs, int, 1, 64,
		 "sender/receiver thread pairs, each with its own rt_mutex");
core_param_range("ptsema.loops", pts_loops, int, 1, 100000000,
		 "lock hand-overs per pair");
core_param_range("ptsema.interval_us", pts_interval_us, int, 10, 1000000,
		 "how long the sender holds the lock each round, pair 0 (us)");
core_param_range("ptsema.distance_us", pts_distance_us, int, 0, 1000000,
		 "added to the interval of each further pair (us)");
core_param_range("ptsema.prio", pts_prio, int, 1, MAX_RT_PRIO - 1,
		 "SCHED_FIFO priority of pair 0; each further pair one less");
core_param_enum("ptsema.affinity", pts_affinity, pts_affinities,
		"none: the scheduler places the threads; spread: pair i on CPU i mod N");

/* Is a task queued on the pair's lock?  A hint only: read without wait_lock. */
static bool ptsema_has_waiter(struct ptsema_pair *pp)
{
	return READ_ONCE(pp->lock.rtmutex.waiters.rb_root.rb_node) != NULL;
}

static void ptsema_done(struct ptsema_result *r)
{
	struct task_struct *waiter = r->waiter;

	/* @r may be freed as soon as the count reaches zero. */
	workload_done(&r->running, waiter);
}

static int ptsema_sender_fn(void *data)
{
	struct ptsema_pair *pp = data;
	struct ptsema_result *r = pp->res;

	for (unsigned int i = 0; i < r->params.loops; i++) {
		unsigned int ms = 0;

		rt_mutex_lock(&pp->lock);
		smp_store_release(&pp->gen, i + 1);
		wake_up(&pp->wq);
		usleep_range(pp->interval_us, pp->interval_us);
		while (!ptsema_has_waiter(pp)) {
			if (ms++ == 1000) {
				pp->late++;
				break;
			}
			msleep(1);
		}
		pp->send_cpu = raw_smp_processor_id();
		/* Start of the measurement ... */
		WRITE_ONCE(pp->unlock_ns, ktime_get_ns());
		rt_mutex_unlock(&pp->lock);
		pp->cycles++;
	}
	ptsema_done(r);
	return 0;
}

static int ptsema_receiver_fn(void *data)
{
	struct ptsema_pair *pp = data;
	struct ptsema_result *r = pp->res;

	for (unsigned int i = 0; i < r->params.loops; i++) {
		u64 now, lat;

		wait_event(pp->wq, smp_load_acquire(&pp->gen) > i);
		rt_mutex_lock(&pp->lock);
		/* ... its end: the lock is ours. */
		now = ktime_get_ns();
		lat = now - min(now, READ_ONCE(pp->unlock_ns));
		pp->recv_cpu = raw_smp_processor_id();
		pp->samples++;
		pp->cur_ns = lat;
		pp->sum_ns += lat;
		pp->min_ns = min(pp->min_ns, lat);
		pp->max_ns = max(pp->max_ns, lat);
		rt_mutex_unlock(&pp->lock);
	}
	ptsema_done(r);
	return 0;
}

u64 ptsema_avg_ns(const struct ptsema_pair *pp)
{
	return pp->samples ? pp->sum_ns / pp->samples : 0;
}

void ptsema_free(struct ptsema_result *r)
{
	if (!r)
		return;
	vfree(r->pairs);
	vfree(r);
}

struct ptsema_result *ptsema_measure(const struct ptsema_params *p)
{
	struct ptsema_result *r = vzalloc(sizeof(*r));
	int cpus[CONFIG_NR_CPUS], ncpus = 0, cpu;

	if (!r)
		return NULL;
	r->params = *p;
	r->pairs = vzalloc(sizeof(*r->pairs) * p->pairs);
	if (!r->pairs) {
		vfree(r);
		return NULL;
	}
	for_each_online_cpu(cpu)
		cpus[ncpus++] = cpu;
	r->waiter = current;
	atomic_set(&r->running, 2 * p->pairs);
	for (unsigned int i = 0; i < p->pairs; i++) {
		struct ptsema_pair *pp = &r->pairs[i];
		struct task_struct *recv, *send;

		pp->num = i;
		pp->res = r;
		pp->prio = max(1, p->prio - (int)i);
		pp->cpu = p->spread ? cpus[i % ncpus] : -1;
		pp->recv_cpu = pp->send_cpu = pp->cpu;
		pp->interval_us = p->interval_us + i * p->distance_us;
		pp->min_ns = ~0ULL;
		rt_mutex_init(&pp->lock);
		init_waitqueue_head(&pp->wq);
		recv = ktest_kthread(ptsema_receiver_fn, pp, "ptsema-r", pp->cpu, SCHED_FIFO,
				     pp->prio);
		send = ktest_kthread(ptsema_sender_fn, pp, "ptsema-s", pp->cpu, SCHED_FIFO,
				     pp->prio);
		if (!recv || !send) {
			/* Neither runs: the one created is never woken. */
			pp->failed = true;
			atomic_sub(2, &r->running);
			continue;
		}
		pp->recv_pid = recv->pid;
		pp->send_pid = send->pid;
		wake_up_process(recv);
		wake_up_process(send);
	}
	workload_wait_zero(&r->running);
	return r;
}

/* --- reporting ------------------------------------------------------- */

static unsigned long long us(u64 ns)
{
	return ns / NSEC_PER_USEC;
}

void ptsema_report(const struct ptsema_result *r)
{
	const char *clock = ktest_clock_mode();
	long bad = 0;		/* negative once a record_emitf() failed */

	for (unsigned int i = 0; i < r->params.pairs; i++) {
		const struct ptsema_pair *pp = &r->pairs[i];

		pr_info("#%1u: ID%d, P%d, CPU%d, I%u; #%1u: ID%d, P%d, CPU%d, Cycles %llu\n",
			2 * i, pp->recv_pid, pp->prio, pp->recv_cpu, pp->interval_us, 2 * i + 1,
			pp->send_pid, pp->prio, pp->send_cpu, (unsigned long long)pp->cycles);
	}
	for (unsigned int i = 0; i < r->params.pairs; i++) {
		const struct ptsema_pair *pp = &r->pairs[i];
		u64 min_ns = pp->samples ? pp->min_ns : 0;

		pr_info("#%u -> #%u, Min %4llu, Cur %4llu, Avg %4llu, Max %4llu\n", 2 * i + 1,
			2 * i, us(min_ns), us(pp->cur_ns), us(ptsema_avg_ns(pp)), us(pp->max_ns));
		bad |= record_emitf("{\"type\":\"ptsema\",\"pair\":%u,\"prio\":%d,\"cpu\":%d,"
				    "\"interval_us\":%u,\"cycles\":%llu,\"samples\":%llu,"
				    "\"lat_ns\":[%llu,%llu,%llu],\"clock\":\"%s\"}", i, pp->prio,
				    pp->cpu, pp->interval_us, (unsigned long long)pp->cycles,
				    (unsigned long long)pp->samples, (unsigned long long)min_ns,
				    (unsigned long long)ptsema_avg_ns(pp),
				    (unsigned long long)pp->max_ns, clock);
	}
	if (bad < 0)
		pr_warn("ptsema: a record did not fit\n");
}

/* The run=ptsema workload. */
int ptsema_run(void)
{
	struct ptsema_params p = {
		.pairs = pts_pairs,
		.loops = pts_loops,
		.interval_us = pts_interval_us,
		.distance_us = pts_distance_us,
		.prio = pts_prio,
		.spread = pts_affinity == 1,
	};
	struct ptsema_result *r;
	int failed = 0;

	pr_info("ptsema: %u pair(s), %u loops, interval %u us (+%u per pair), SCHED_FIFO %d, "
		"affinity %s, latency in us, clock %s\n", p.pairs, p.loops, p.interval_us,
		p.distance_us, p.prio, pts_affinities[pts_affinity], ktest_clock_mode());
	console_flush();
	r = ptsema_measure(&p);
	if (!r) {
		pr_err("ptsema: no memory for %u pairs\n", p.pairs);
		return 1;
	}
	ptsema_report(r);
	for (unsigned int i = 0; i < p.pairs; i++) {
		const struct ptsema_pair *pp = &r->pairs[i];

		if (pp->failed) {
			pr_err("ptsema: cannot start the threads of pair %u\n", i);
			failed++;
		} else if (pp->cycles != p.loops || pp->samples != p.loops || pp->late) {
			pr_err("ptsema: pair %u: %llu unlocks and %llu locks of %u, %llu without "
			       "a waiter after 1 s\n", i, (unsigned long long)pp->cycles,
			       (unsigned long long)pp->samples, p.loops,
			       (unsigned long long)pp->late);
			failed++;
		}
	}
	pr_info("ptsema: done, %d failure(s)\n", failed);
	ptsema_free(r);
	return failed ? 1 : 0;
}
