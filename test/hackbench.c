// SPDX-License-Identifier: GPL-2.0
/*
 * hackbench: the scheduler and SLUB under a messaging load, after
 * rt-tests' hackbench in threaded mode (DESIGN 7).
 *
 *	run=hackbench hackbench.groups=<n> hackbench.fds=<n>
 *	    hackbench.loops=<n> hackbench.size=<bytes>
 *	    hackbench.mode=thread hackbench.affinity=none|spread
 *
 * Each group has hackbench.fds receivers, each with a message queue of
 * its own (the "socket"), and as many senders.  Every sender sends
 * hackbench.loops messages to every receiver of its group, round robin;
 * every receiver reads until it has fds * loops of them.  A message is a
 * kmalloc(hackbench.size) buffer: the sender allocates and fills it, the
 * receiver checks and kfree()s it, often on the other CPU - the SLUB
 * traffic of socket buffers in the seeds' runs (kmalloc-4096 there).
 *
 * A queue is a spinlock_t-protected list and two wait queues.  Like an
 * AF_UNIX socket, it takes HB_SNDBUF bytes (net.core.wmem_default), each
 * message charged its size plus the sk_buff overhead of SKB_TRUESIZE();
 * a sender that finds it full sleeps until the receiver has brought it
 * down to a quarter (unix_writable()).
 *
 * All threads are created first and wait on a barrier; the clock (TSC)
 * starts when they are released together and stops when the last
 * receiver has its last message.  Context switches and migrations are
 * the threads' own (nvcsw, nivcsw, se.nr_migrations) over that window.
 *
 * Output: hackbench's three lines ("Running in threaded mode ...",
 * "Each sender will pass ...", "Time: s.ms"), a summary line and one
 * record of type "hackbench".  A message whose kmalloc() fails is not
 * sent: it is counted as dropped and the receiver expects one less.
 * Status: 0 when every message arrived exactly once, in order, intact
 * and nothing was dropped, and every thread exited and was freed; 1
 * otherwise.
 */
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/slab.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/kthread.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/list.h>
#include <linux/atomic.h>
#include <linux/smp.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/vmalloc.h>
#include <linux/ktest.h>
#include <linux/moduleparam.h>
#include <linux/record.h>
#include <asm/processor.h>
#include <asm/tsc.h>
#include <string.h>
#include "workload.h"
#include "heartbeat.h"

/* AF_UNIX's send buffer (net.core.wmem_default) and per-skb overhead. */
#define HB_SNDBUF	212992
#define HB_SKB_OVERHEAD	576

/* A message: the header sits at the start of its kmalloc'd buffer. */
struct hb_msg {
	struct list_head list;
	u32 sender;		/* index of the sender in its group */
	u32 seq;		/* per sender and receiver: 0, 1, 2, ... */
	u8 data[];		/* size - sizeof(struct hb_msg) bytes */
};

static int hb_groups = 10;
static int hb_fds = 20;
static int hb_loops = 100;
static int hb_size = 100;
static int hb_mode;		/* index into hb_modes */
static int hb_affinity;		/* index into hb_affinities */
static const char *const hb_modes[] = { "thread", NULL };
static const char *const hb_affinities[] = { "none", "spread", NULL };

core_param_range("hackbench.groups", hb_groups, int, 1, 1000,
		 "groups of senders and receivers");
core_param_range("hackbench.fds", hb_fds, int, 1, 1000,
		 "senders and receivers per group");
core_param_range("hackbench.loops", hb_loops, int, 1, 100000000,
		 "messages each sender sends to each receiver of its group");
core_param_range("hackbench.size", hb_size, int, sizeof(struct hb_msg),
		 KMALLOC_MAX_CACHE_SIZE,
		 "bytes per message (its kmalloc size, header included)");
core_param_enum("hackbench.mode", hb_mode, hb_modes,
		"kernel threads only (hackbench's threaded mode)");
core_param_enum("hackbench.affinity", hb_affinity, hb_affinities,
		"none: the scheduler places threads; spread: pinned round robin");

struct hb_queue {
	spinlock_t lock;
	struct list_head msgs;
	unsigned int nr;	/* messages queued */
	unsigned int bytes;	/* charged, see HB_SNDBUF */
	atomic_t dropped;	/* sends that failed: the receiver stops earlier */
	wait_queue_head_t readable;
	wait_queue_head_t writable;
};

struct hackbench;

struct hb_thread {
	struct hackbench *hb;
	struct hb_queue *queues;	/* its group's, one per receiver */
	struct task_struct *task;
	unsigned int idx;		/* in its group */
	bool receiver;
	/* sender: sent[r] per receiver; receiver: got[s], next[s] per sender */
	u32 *sent, *got, *next;
};

struct hackbench {
	struct hackbench_params p;
	unsigned int charge;		/* bytes one message costs its queue */
	struct task_struct *waiter;
	atomic_t unready;		/* threads not yet at the barrier */
	atomic_t running;		/* threads not yet done */
	atomic_t receivers_left;
	wait_queue_head_t start_wq;
	bool go, abort;
	u64 t0, t1;
	atomic64_t sent, received, dropped, errors, corrupt;
	atomic64_t nvcsw, nivcsw, migrations;
	struct heartbeat hb;		/* the first receiver's, see hb_receiver_fn() */
	struct hb_thread *hb_owner;
};

/* The sender's fill byte: receivers check every payload byte. */
static inline u8 hb_fill(u32 sender, u32 seq)
{
	return (u8)(sender * 31 + seq);
}

static void hb_queue_init(struct hb_queue *q)
{
	spin_lock_init(&q->lock);
	INIT_LIST_HEAD(&q->msgs);
	q->nr = 0;
	q->bytes = 0;
	atomic_set(&q->dropped, 0);
	init_waitqueue_head(&q->readable);
	init_waitqueue_head(&q->writable);
}

static void hb_send(struct hackbench *hb, struct hb_queue *q, struct hb_msg *m)
{
	spin_lock(&q->lock);
	list_add_tail(&m->list, &q->msgs);
	WRITE_ONCE(q->nr, q->nr + 1);
	WRITE_ONCE(q->bytes, q->bytes + hb->charge);
	spin_unlock(&q->lock);
	if (wq_has_sleeper(&q->readable))
		wake_up(&q->readable);
}

static struct hb_msg *hb_recv(struct hackbench *hb, struct hb_queue *q)
{
	struct hb_msg *m = NULL;
	bool writable = false;

	spin_lock(&q->lock);
	if (q->nr) {
		m = list_first_entry(&q->msgs, struct hb_msg, list);
		list_del(&m->list);
		WRITE_ONCE(q->nr, q->nr - 1);
		WRITE_ONCE(q->bytes, q->bytes - hb->charge);
		writable = q->bytes <= HB_SNDBUF / 4;
	}
	spin_unlock(&q->lock);
	if (writable && wq_has_sleeper(&q->writable))
		wake_up(&q->writable);
	return m;
}

/* A second copy of message @seq (already sent, maybe freed by now). */
static bool hb_send_duplicate(struct hackbench *hb, struct hb_queue *q, u32 sender, u32 seq)
{
	struct hb_msg *m = kmalloc(hb->p.size, GFP_KERNEL);

	if (!m)
		return false;
	m->sender = sender;
	m->seq = seq;
	memset(m->data, hb_fill(sender, seq), hb->p.size - sizeof(*m));
	hb_send(hb, q, m);
	return true;
}

/* Common start and end of a thread's run: the barrier and the counters. */
static bool hb_thread_start(struct hackbench *hb, unsigned long *csw)
{
	if (atomic_dec_and_test(&hb->unready))
		wake_up_process(hb->waiter);
	wait_event(hb->start_wq, smp_load_acquire(&hb->go));
	csw[0] = current->nvcsw;
	csw[1] = current->nivcsw;
	csw[2] = current->se.nr_migrations;
	return !READ_ONCE(hb->abort);
}

static void hb_thread_end(struct hackbench *hb, const unsigned long *csw)
{
	struct task_struct *waiter = hb->waiter;

	atomic64_add(current->nvcsw - csw[0], &hb->nvcsw);
	atomic64_add(current->nivcsw - csw[1], &hb->nivcsw);
	atomic64_add(current->se.nr_migrations - csw[2], &hb->migrations);
	/* After this, hb may be gone: only the local copy is used. */
	workload_done(&hb->running, waiter);
}

static int hb_sender_fn(void *data)
{
	struct hb_thread *t = data;
	struct hackbench *hb = t->hb;
	unsigned int fds = hb->p.fds, size = hb->p.size;
	unsigned long csw[3];

	if (!hb_thread_start(hb, csw))
		goto out;
	for (unsigned int i = 0; i < hb->p.loops; i++) {
		for (unsigned int r = 0; r < fds; r++) {
			struct hb_queue *q = &t->queues[r];
			struct hb_msg *m;
			u32 seq;

			if (READ_ONCE(q->bytes) >= HB_SNDBUF)
				wait_event(q->writable, READ_ONCE(q->bytes) < HB_SNDBUF);
			m = kmalloc(size, GFP_KERNEL);
			if (unlikely(!m)) {
				atomic64_inc(&hb->dropped);
				atomic_inc(&q->dropped);
				if (wq_has_sleeper(&q->readable))
					wake_up(&q->readable);
				continue;
			}
			seq = t->sent[r]++;
			m->sender = t->idx;
			m->seq = seq;
			memset(m->data, hb_fill(t->idx, seq), size - sizeof(*m));
			hb_send(hb, q, m);
			/* Checks the checker: one message goes out twice. */
			if (unlikely(hb->p.duplicate_one) && !t->idx && !r &&
			    i == hb->p.loops / 2 && hb_send_duplicate(hb, q, t->idx, seq))
				t->sent[r]++;
		}
	}
out:
	hb_thread_end(hb, csw);
	return 0;
}

/* Is there a message, or has everything this receiver can get arrived? */
static bool hb_readable(struct hb_queue *q, u64 received, u64 expected)
{
	return READ_ONCE(q->nr) || received + atomic_read(&q->dropped) >= expected;
}

static int hb_receiver_fn(void *data)
{
	struct hb_thread *t = data;
	struct hackbench *hb = t->hb;
	struct hb_queue *q = &t->queues[t->idx];
	u64 expected = (u64)hb->p.fds * hb->p.loops, received = 0;
	unsigned int payload = hb->p.size - sizeof(struct hb_msg);
	unsigned long csw[3];

	if (!hb_thread_start(hb, csw))
		goto out;
	while (received + atomic_read(&q->dropped) < expected) {
		struct hb_msg *m = hb_recv(hb, q);
		u8 fill;

		if (!m) {
			wait_event(q->readable, hb_readable(q, received, expected));
			continue;
		}
		received++;
		if (m->sender >= hb->p.fds) {
			atomic64_inc(&hb->errors);
			kfree(m);
			continue;
		}
		if (m->seq != t->next[m->sender])
			atomic64_inc(&hb->errors);
		t->next[m->sender] = m->seq + 1;
		t->got[m->sender]++;
		fill = hb_fill(m->sender, m->seq);
		for (unsigned int i = 0; i < payload; i++) {
			if (m->data[i] != fill) {
				atomic64_inc(&hb->corrupt);
				break;
			}
		}
		kfree(m);
		/*
		 * Progress from the first receiver, every 256 messages, in
		 * its own time between two messages (test/heartbeat.c).
		 */
		if (unlikely(t == hb->hb_owner) && !(received & 255)) {
			hb->hb.done = received;
			heartbeat_poll(&hb->hb, ktime_get_ns(), 0);
		}
	}
	if (atomic_dec_and_test(&hb->receivers_left))
		hb->t1 = rdtsc_ordered();
	atomic64_add(received, &hb->received);
out:
	hb_thread_end(hb, csw);
	return 0;
}

/* Sleep until @counter reaches zero; the thread that zeroes it wakes us. */
/* Drop our reference once @p is dead and switched out, so it is freed now. */
static bool hb_reap(struct task_struct *p)
{
	int ms = 0;

	while (!ktest_thread_gone(p) && ms++ < 1000)
		msleep(1);
	if (!ktest_thread_gone(p)) {
		pr_warn("hackbench: thread %s/%d not gone after 1 s (state %#x, on_rq %d, on_cpu %d, "
			"cpu %u, usage %d); leaking it\n", p->comm, p->pid, READ_ONCE(p->__state),
			READ_ONCE(p->on_rq), READ_ONCE(p->on_cpu), task_cpu(p),
			atomic_read(&p->usage));
		return false;
	}
	put_task_struct(p);
	return true;
}

/*
 * Create the threads of @hb (thread i of T pinned to online CPU i mod N
 * with affinity spread).  Returns the number created.
 */
static unsigned int hb_create(struct hackbench *hb, struct hb_thread *th,
			      unsigned int nthreads)
{
	int cpus[CONFIG_NR_CPUS], ncpus = 0, cpu;
	unsigned int n;

	for_each_online_cpu(cpu)
		cpus[ncpus++] = cpu;
	for (n = 0; n < nthreads; n++) {
		struct hb_thread *t = &th[n];
		struct task_struct *p;

		p = kthread_create(t->receiver ? hb_receiver_fn : hb_sender_fn, t,
				   "hackbench-%c%u", t->receiver ? 'r' : 's', n);
		if (!p)
			break;
		if (hb->p.spread)
			kthread_bind(p, cpus[n % ncpus]);
		if (hb->p.fail_senders && !t->receiver)
			p->make_it_fail = 1;
		t->task = get_task_struct(p);
	}
	return n;
}

int hackbench(const struct hackbench_params *params, struct hackbench_result *res)
{
	unsigned int fds = params->fds, per_group = 2 * fds;
	unsigned int nthreads = params->groups * per_group, created;
	struct hackbench *hb;
	struct hb_thread *th;
	struct hb_queue *queues;
	u32 *counts;
	int ret = 0;

	memset(res, 0, sizeof(*res));
	hb = vzalloc(sizeof(*hb));
	th = vzalloc(sizeof(*th) * nthreads);
	queues = vzalloc(sizeof(*queues) * params->groups * fds);
	/* sent[fds] per sender; got[fds] and next[fds] per receiver */
	counts = vzalloc(sizeof(u32) * params->groups * fds * fds * 3);
	if (!hb || !th || !queues || !counts) {
		pr_err("hackbench: no memory for %u threads\n", nthreads);
		ret = -ENOMEM;
		goto free;
	}
	hb->p = *params;
	hb->charge = params->size + HB_SKB_OVERHEAD;
	hb->waiter = current;
	init_waitqueue_head(&hb->start_wq);
	for (unsigned int i = 0; i < params->groups * fds; i++)
		hb_queue_init(&queues[i]);
	for (unsigned int i = 0; i < nthreads; i++) {
		struct hb_thread *t = &th[i];
		unsigned int g = i / per_group, k = i % per_group;
		u32 *c = counts + (size_t)(g * fds + k % fds) * fds * 3;

		t->hb = hb;
		t->queues = &queues[g * fds];
		/* Receivers first, so they wait before the senders start. */
		t->receiver = k < fds;
		t->idx = k % fds;
		if (t->receiver) {
			t->got = c + fds;
			t->next = c + 2 * fds;
		} else {
			t->sent = c;
		}
	}

	created = hb_create(hb, th, nthreads);
	atomic_set(&hb->unready, created);
	atomic_set(&hb->running, created);
	atomic_set(&hb->receivers_left, params->groups * fds);
	if (created < nthreads) {
		pr_err("hackbench: could create only %u of %u threads\n", created, nthreads);
		hb->abort = true;
		ret = -ENOMEM;
	}
	for (unsigned int i = 0; i < created; i++)
		wake_up_process(th[i].task);
	workload_wait_zero(&hb->unready);

	heartbeat_start(&hb->hb, "hackbench", 0);
	hb->hb.total = (u64)fds * params->loops;
	hb->hb.unit = "messages (first receiver)";
	hb->hb_owner = th;
	hb->t0 = rdtsc_ordered();
	smp_store_release(&hb->go, true);
	wake_up_all(&hb->start_wq);
	workload_wait_zero(&hb->running);
	for (unsigned int i = 0; i < created; i++)
		if (!hb_reap(th[i].task))
			res->unreaped++;

	/* Exactly once: what each sender sent each receiver arrived. */
	for (unsigned int g = 0; g < params->groups && !hb->abort; g++) {
		struct hb_thread *recv = &th[g * per_group], *send = recv + fds;

		for (unsigned int r = 0; r < fds; r++)
			for (unsigned int s = 0; s < fds; s++) {
				atomic64_add(send[s].sent[r], &hb->sent);
				if (recv[r].got[s] != send[s].sent[r])
					atomic64_inc(&hb->errors);
			}
	}
	/* Messages nobody read (a receiver that stopped early) are freed here. */
	for (unsigned int i = 0; i < params->groups * fds; i++) {
		struct hb_msg *m;

		while ((m = hb_recv(hb, &queues[i]))) {
			res->leftover++;
			kfree(m);
		}
	}

	res->threads = created;
	res->aborted = hb->abort;
	if (!hb->abort) {
		res->cycles = hb->t1 - hb->t0;
		res->time_ns = cycles_to_ns(res->cycles);
	}
	res->sent = atomic64_read(&hb->sent);
	res->received = atomic64_read(&hb->received);
	res->dropped = atomic64_read(&hb->dropped);
	res->errors = atomic64_read(&hb->errors);
	res->corrupt = atomic64_read(&hb->corrupt);
	res->nvcsw = atomic64_read(&hb->nvcsw);
	res->nivcsw = atomic64_read(&hb->nivcsw);
	res->migrations = atomic64_read(&hb->migrations);
free:
	vfree(counts);
	vfree(queues);
	vfree(th);
	vfree(hb);
	return ret;
}

void hackbench_report(const struct hackbench_params *p, const struct hackbench_result *r)
{
	const char *clock = ktest_clock_mode();
	char json[RECORD_MAX_JSON + 1];
	int n;

	pr_info("Time: %llu.%03llu\n", (unsigned long long)(r->time_ns / NSEC_PER_SEC),
		(unsigned long long)(r->time_ns % NSEC_PER_SEC / NSEC_PER_MSEC));
	pr_info("hackbench: %llu context switches (%llu voluntary, %llu involuntary), "
		"%llu migrations, %llu cycles (%s)\n",
		(unsigned long long)(r->nvcsw + r->nivcsw), (unsigned long long)r->nvcsw,
		(unsigned long long)r->nivcsw, (unsigned long long)r->migrations,
		(unsigned long long)r->cycles, clock);
	pr_info("hackbench: %llu messages sent, %llu received, %llu dropped (kmalloc failed), "
		"%llu out of sequence, %llu corrupted\n",
		(unsigned long long)r->sent, (unsigned long long)r->received,
		(unsigned long long)r->dropped, (unsigned long long)r->errors,
		(unsigned long long)r->corrupt);
	n = snprintf(json, sizeof(json),
		     "{\"type\":\"hackbench\",\"groups\":%d,\"fds\":%d,\"loops\":%d,"
		     "\"size\":%d,\"time_ns\":%llu,\"ctxsw\":%llu,\"migrations\":%llu,"
		     "\"dropped\":%llu,\"clock\":\"%s\"}",
		     p->groups, p->fds, p->loops, p->size, (unsigned long long)r->time_ns,
		     (unsigned long long)(r->nvcsw + r->nivcsw),
		     (unsigned long long)r->migrations, (unsigned long long)r->dropped, clock);
	if (n >= (int)sizeof(json) || record_emit(json) < 0)
		pr_warn("hackbench: the record does not fit\n");
}

/* --- the summary over rounds ------------------------------------------ */

/*
 * run=hackbench repeats while it is the load of a measuring workload
 * (run=cyclic,hackbench): one "Time:" per round, then hackbench_end()
 * prints one summary of the rounds, with rteval's statistics (sample
 * standard deviation, n - 1).
 */
static struct hackbench_rounds hb_rounds;

void hackbench_rounds_add(struct hackbench_rounds *s, u64 ns)
{
	if (!s->n || ns < s->min_ns)
		s->min_ns = ns;
	if (ns > s->max_ns)
		s->max_ns = ns;
	s->n++;
	s->sum_ns += ns;
	s->sumsq += (unsigned __int128)ns * ns;
}

/* floor(sqrt(@v)), clamped to what a u64 holds. */
static u64 hb_isqrt(unsigned __int128 v)
{
	u64 r = 0;

	for (int bit = 63; bit >= 0; bit--) {
		u64 c = r | (1ULL << bit);

		if ((unsigned __int128)c * c <= v)
			r = c;
	}
	return r;
}

void hackbench_rounds_stats(const struct hackbench_rounds *s, struct hackbench_round_stats *st)
{
	unsigned __int128 dev = 0;

	memset(st, 0, sizeof(*st));
	if (!s->n)
		return;
	st->n = s->n;
	st->mean_ns = s->sum_ns / s->n;
	st->min_ns = s->min_ns;
	st->max_ns = s->max_ns;
	/* Sum of squared deviations: sumsq - sum^2 / n, never below 0. */
	if (s->n > 1) {
		unsigned __int128 sq = (unsigned __int128)s->sum_ns * s->sum_ns / s->n;

		dev = s->sumsq > sq ? s->sumsq - sq : 0;
		st->sd_ns = hb_isqrt(dev / (s->n - 1));
	}
}

/*
 * Seconds as Time: gives them, but to the us: rounds under icount or with
 * small parameters take well under a millisecond, and the spread of
 * rounds is smaller still.
 */
static int hb_secs(char *buf, size_t size, u64 ns)
{
	return snprintf(buf, size, "%llu.%06llu", (unsigned long long)(ns / NSEC_PER_SEC),
			(unsigned long long)(ns % NSEC_PER_SEC / NSEC_PER_USEC));
}

/* The summary line (no newline) and record; returns the record's length. */
int hackbench_format_summary(char *line, size_t lsize, char *json, size_t jsize,
			     const struct hackbench_round_stats *st, const char *clock)
{
	char mean[24], sd[24], lo[24], hi[24];

	hb_secs(mean, sizeof(mean), st->mean_ns);
	hb_secs(sd, sizeof(sd), st->sd_ns);
	hb_secs(lo, sizeof(lo), st->min_ns);
	hb_secs(hi, sizeof(hi), st->max_ns);
	snprintf(line, lsize, "hackbench: %llu round(s), Time: mean %s sd %s min %s max %s (s, %s)",
		 (unsigned long long)st->n, mean, sd, lo, hi, clock);
	return snprintf(json, jsize, "{\"type\":\"hackbench_summary\",\"n\":%llu,\"mean_ns\":%llu,"
			"\"sd_ns\":%llu,\"min_ns\":%llu,\"max_ns\":%llu,\"clock\":\"%s\"}",
			(unsigned long long)st->n, (unsigned long long)st->mean_ns,
			(unsigned long long)st->sd_ns, (unsigned long long)st->min_ns,
			(unsigned long long)st->max_ns, clock);
}

void hackbench_end(void)
{
	struct hackbench_round_stats st;
	char line[160], json[RECORD_MAX_JSON + 1];
	int n;

	hackbench_rounds_stats(&hb_rounds, &st);
	memset(&hb_rounds, 0, sizeof(hb_rounds));
	if (!st.n)
		return;		/* no round was measured */
	n = hackbench_format_summary(line, sizeof(line), json, sizeof(json), &st,
				     ktest_clock_mode());
	pr_info("%s\n", line);
	if (n >= (int)sizeof(json) || record_emit(json) < 0)
		pr_warn("hackbench: the summary record does not fit\n");
}

/* The run=hackbench workload. */
int hackbench_run(void)
{
	struct hackbench_params p = {
		.groups = hb_groups, .fds = hb_fds, .loops = hb_loops, .size = hb_size,
		.spread = hb_affinity == 1,
	};
	struct hackbench_result r;
	int ret;

	pr_info("Running in %s mode with %d groups using %d file descriptors each (== %d tasks)\n",
		hb_mode == 0 ? "threaded" : "?", p.groups, 2 * p.fds, 2 * p.fds * p.groups);
	pr_info("Each sender will pass %d messages of %d bytes\n", p.loops, p.size);
	/* Out on the console now, not by the console thread in the window. */
	console_flush();
	ret = hackbench(&p, &r);
	if (ret) {
		pr_err("hackbench: not run: %s\n", ret == -ENOMEM ? "out of memory" : "error");
		return 1;
	}
	hackbench_report(&p, &r);
	if (!r.aborted)
		hackbench_rounds_add(&hb_rounds, r.time_ns);
	if (r.dropped || r.errors || r.corrupt || r.leftover || r.unreaped) {
		pr_err("hackbench: %llu dropped, %llu out of sequence, %llu corrupted, "
		       "%llu left unread, %u threads not reaped\n", (unsigned long long)r.dropped,
		       (unsigned long long)r.errors, (unsigned long long)r.corrupt,
		       (unsigned long long)r.leftover, r.unreaped);
		return 1;
	}
	return 0;
}
