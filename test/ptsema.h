/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TEST_PTSEMA_H
#define _TEST_PTSEMA_H

/*
 * The engine of run=ptsema (test/ptsema.c), shared with its ktest suite.
 */
#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/rtmutex.h>
#include <linux/wait.h>

struct ptsema_params {
	unsigned int pairs;
	unsigned int loops;		/* hand-overs per pair */
	unsigned int interval_us;	/* pair 0's; pair i adds i * distance_us */
	unsigned int distance_us;
	int prio;			/* pair 0's SCHED_FIFO priority, one less per pair */
	bool spread;			/* pair i on CPU i mod N (ptsematest -a) */
};

struct ptsema_pair {
	int num;
	int prio;
	int cpu;			/* -1: not pinned */
	unsigned int interval_us;
	int recv_pid, send_pid;
	int recv_cpu, send_cpu;		/* where each ran last */
	u64 cycles;			/* unlocks by the sender */
	u64 samples;			/* locks got by the receiver */
	u64 min_ns, max_ns, sum_ns, cur_ns;
	u64 late;			/* unlocks with no waiter after 1 s */
	bool failed;			/* a thread could not be started */
	/* private to the measurement */
	struct ptsema_result *res;
	struct rt_mutex lock;
	wait_queue_head_t wq;
	unsigned int gen;		/* rounds the sender holds the lock for */
	u64 unlock_ns;			/* when the sender let go, this round */
};

struct ptsema_result {
	struct ptsema_params params;
	struct ptsema_pair *pairs;
	struct task_struct *waiter;
	atomic_t running;
};

struct ptsema_result *ptsema_measure(const struct ptsema_params *p);
void ptsema_report(const struct ptsema_result *r);
void ptsema_free(struct ptsema_result *r);
u64 ptsema_avg_ns(const struct ptsema_pair *pp);

#endif
