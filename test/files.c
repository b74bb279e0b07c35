// SPDX-License-Identifier: GPL-2.0
/*
 * run=files: a filesystem's slab traffic in miniature.  Threads on every
 * CPU allocate dentry-sized and inode-sized objects from two caches made
 * as fs/dcache.c and fs/inode.c make theirs ("dentry" with a usercopy
 * window over the inline name, "inode_cache" with a constructor), then
 * hand every one to RCU, as dput() and destroy_inode() do: the frees run
 * in RCU callbacks, from RCU_SOFTIRQ on !RT and from the rcuc/N threads on
 * PREEMPT_RT.  Frees into full slabs are what fills the per-CPU partial
 * lists, and the free that overflows one drains it (put_cpu_partial());
 * the pre-series port does that drain, and the page frees of the slabs
 * found empty, in one IRQ-off window.
 *
 * After the run: the callbacks counted (each object's callback ran once,
 * and where), the two caches empty and the free page count back where it
 * was, and the IRQ-off windows opened by the drain functions.
 */
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/gfp.h>
#include <linux/sched.h>
#include <linux/kthread.h>
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/percpu.h>
#include <linux/mutex.h>
#include <linux/completion.h>
#include <linux/ktest.h>
#include <linux/moduleparam.h>
#include <linux/rcupdate.h>
#include <linux/record.h>
#include <linux/kallsyms.h>
#include <linux/trace_irqsoff.h>
#include "../mm/slab.h"
#include "slub_test.h"
#include "workload.h"

static int files_rounds = 4;
static int files_objects = 1000;
static int files_threads = 1;
static int files_free;
static unsigned int files_drain_max_ns;

static const char *const files_frees[] = { "call_rcu", "kfree_rcu", NULL };
enum { FILES_CALL_RCU, FILES_KFREE_RCU };

core_param_range("files.rounds", files_rounds, int, 1, 100000,
		 "allocate-then-free rounds per thread");
core_param_range("files.objects", files_objects, int, 1, 100000,
		 "dentries (and as many inodes) each thread allocates per round");
core_param_range("files.threads", files_threads, int, 1, 16,
		 "threads per online CPU");
core_param_enum("files.free", files_free, files_frees,
		"how objects go back: call_rcu (counted callbacks, as dput()/destroy_inode()) "
		"or kfree_rcu");
core_param_range("files.drain_max_ns", files_drain_max_ns, uint, 0, 1000000000,
		 "fail if an IRQ-off window opened by SLUB's partial-list drain is longer (0: off)");

/* Shaped like Linux 5.15's struct dentry (192 bytes) and struct inode (~600). */
#define FILES_DNAME_INLINE_LEN	32

struct files_inode;

struct files_dentry {
	unsigned int d_flags;
	unsigned int d_seq;
	struct files_dentry *d_parent;
	struct files_inode *d_inode;
	unsigned char d_iname[FILES_DNAME_INLINE_LEN];
	struct files_dentry *d_next;	/* this round's list (d_child in Linux) */
	struct rcu_head d_rcu;
	unsigned long d_time;
	unsigned char d_rest[104];	/* d_lockref, d_sb, d_op, d_subdirs... */
};

struct files_inode {
	unsigned long i_ino;
	unsigned int i_nlink;
	unsigned int i_mode;
	struct rcu_head i_rcu;
	unsigned char i_rest[568];	/* i_sb, i_mapping, i_data, the times... */
};

/* Where each call_rcu() callback ran; per CPU, as callbacks run per CPU. */
struct files_cb_counts {
	unsigned long softirq, rcuc, other;
};
static DEFINE_PER_CPU(struct files_cb_counts, files_cbs);

static struct kmem_cache *files_dentry_cache, *files_inode_cache;

static void files_cb_ran(void)
{
	if (!strncmp(current->comm, "rcuc/", 5))
		this_cpu_inc(files_cbs.rcuc);
	else if (in_serving_softirq())
		this_cpu_inc(files_cbs.softirq);
	else
		this_cpu_inc(files_cbs.other);
}

/* fs/dcache.c's __d_free() and fs/inode.c's i_callback(), counted. */
static void files_d_free(struct rcu_head *head)
{
	struct files_dentry *d = container_of(head, struct files_dentry, d_rcu);

	kmem_cache_free(files_dentry_cache, d);
	files_cb_ran();
}

static void files_i_callback(struct rcu_head *head)
{
	struct files_inode *inode = container_of(head, struct files_inode, i_rcu);

	kmem_cache_free(files_inode_cache, inode);
	files_cb_ran();
}

/* inode_init_once(): objects come out of a new slab initialized. */
static void files_inode_init_once(void *p)
{
	memset(p, 0, sizeof(struct files_inode));
}

struct files_worker {
	u64 dentries, inodes, failures;
};

struct files_arg;

struct files_run {
	struct completion go;		/* the page baseline is taken: start */
	struct completion stop;		/* the final page count is taken: exit */
	atomic_t ready, running, alive;
	struct task_struct *waiter;
	int n;				/* threads asked for */
	struct files_worker *w;
	struct files_arg *args;
	struct task_struct **tasks;	/* NULL where none could be made */
};

struct files_arg {
	struct files_run *r;
	struct files_worker *w;
	unsigned int id;
};

static void files_release(struct files_dentry *d)
{
	if (files_free == FILES_KFREE_RCU) {
		kfree_rcu(d->d_inode, i_rcu);
		kfree_rcu(d, d_rcu);
		return;
	}
	call_rcu(&d->d_inode->i_rcu, files_i_callback);
	call_rcu(&d->d_rcu, files_d_free);
}

/* A short name for @ino in place, as d_alloc() copies one into d_iname. */
static void files_name(unsigned char *name, u64 ino)
{
	int n = 0;

	name[n++] = 'f';
	do {
		name[n++] = "0123456789abcdef"[ino & 15];
		ino >>= 4;
	} while (ino && n < FILES_DNAME_INLINE_LEN - 1);
	name[n] = '\0';
}

/* One round: a directory's worth of lookups, then its eviction. */
static void files_round(struct files_worker *w, unsigned int id, int round)
{
	struct files_dentry *head = NULL, *d, *next;

	for (int i = 0; i < files_objects; i++) {
		struct files_inode *inode = kmem_cache_alloc(files_inode_cache, GFP_KERNEL);

		d = kmem_cache_alloc(files_dentry_cache, GFP_KERNEL);
		if (!d || !inode) {
			if (d)
				kmem_cache_free(files_dentry_cache, d);
			if (inode)
				kmem_cache_free(files_inode_cache, inode);
			w->failures++;
			break;
		}
		inode->i_ino = ((u64)id << 40) | ((u64)round << 20) | i;
		inode->i_nlink = 1;
		d->d_inode = inode;
		d->d_parent = head ? head->d_parent : d;
		files_name(d->d_iname, inode->i_ino);
		d->d_next = head;
		head = d;
		w->dentries++;
		w->inodes++;
	}
	for (d = head; d; d = next) {
		next = d->d_next;
		files_release(d);
	}
}

/*
 * After the first allocation from these caches a few pages stay out of
 * the free count even once the caches are shrunk and the page lists
 * drained (5 for the two, seen under icount; where they go was not
 * traced).  They are not the run's to give back, so every thread
 * allocates and frees once, on its own CPU, before the baseline.
 */
static void files_warm_up(void)
{
	void *d = kmem_cache_alloc(files_dentry_cache, GFP_KERNEL);
	void *inode = kmem_cache_alloc(files_inode_cache, GFP_KERNEL);

	if (d)
		kmem_cache_free(files_dentry_cache, d);
	if (inode)
		kmem_cache_free(files_inode_cache, inode);
}

static int files_worker_fn(void *arg)
{
	struct files_arg *a = arg;
	struct files_run *r = a->r;
	struct task_struct *waiter = r->waiter;

	files_warm_up();
	workload_done(&r->ready, waiter);
	wait_for_completion(&r->go);
	for (int round = 0; round < files_rounds; round++) {
		files_round(a->w, a->id, round);
		cond_resched();
	}
	workload_done(&r->running, waiter);
	/* Stay until the page count is taken: our stack is part of the baseline. */
	wait_for_completion(&r->stop);
	workload_done(&r->alive, waiter);
	return 0;
}

/*
 * Objects of @s still allocated (-1: unknown without CONFIG_SLUB_DEBUG).
 * Sets *@keep when slabs are left: destroying the cache then would list
 * every object left, with interrupts off, for each.
 */
static long files_left(struct kmem_cache *s, int *failed, bool *keep)
{
	long left = -1;

	if (kmem_cache_shrink(s)) {
		pr_err("files: %s still holds slabs after every object was freed\n", s->name);
		(*failed)++;
		*keep = true;
	}
#ifdef CONFIG_SLUB_DEBUG
	{
		struct slabinfo si = {};

		get_slabinfo(s, &si);
		left = si.active_objs;
		if (left) {
			pr_err("files: %s: %ld object(s) never freed\n", s->name, left);
			(*failed)++;
		}
	}
#endif
	return left;
}

#ifdef CONFIG_TRACE_IRQSOFF
/*
 * The slab allocator's IRQ-off openers, merged by function over CPUs: the
 * SLUB rows of the report's opener ranking, all of them (the report's own
 * table is cut at its top 12 of every opener, and call_rcu() alone opens
 * one window per object here).  Slab code is linked into a range of its
 * own (linker/kernel.ld), as the report's "by the code" lines use it.
 */
extern char __slab_text_start[], __slab_text_end[];

#define FILES_OPENERS	24
#define FILES_OPENERS_SHOWN	8

struct files_opener {
	unsigned long start;
	struct lat_func_total t;
};

struct files_openers {
	struct files_opener f[FILES_OPENERS];
	unsigned int n, lost;
};

static void files_add_opener(unsigned long ip, const struct lat_func_total *t, void *arg)
{
	struct files_openers *o = arg;
	unsigned long size, off, start;
	unsigned int i;

	if (ip - 1 < (unsigned long)__slab_text_start || ip - 1 >= (unsigned long)__slab_text_end)
		return;
	if (!kallsyms_lookup(ip - 1, &size, &off))
		return;
	start = ip - 1 - off;
	for (i = 0; i < o->n && o->f[i].start != start; i++)
		;
	if (i == o->n) {
		if (o->n == FILES_OPENERS) {
			o->lost++;
			return;
		}
		o->f[o->n++] = (struct files_opener){ .start = start };
	}
	o->f[i].t.windows += t->windows;
	o->f[i].t.total_ns += t->total_ns;
	o->f[i].t.max_ns = max(o->f[i].t.max_ns, t->max_ns);
}

static void files_report_openers(void)
{
	static struct files_openers o;
	unsigned long size, off;

	memset(&o, 0, sizeof(o));
	latency_tracer_for_each_opener(LAT_IRQSOFF, files_add_opener, &o);
	pr_info("files: slab code's IRQ-off openers, most total time first (%u function(s)%s)\n",
		o.n, o.lost ? ", table full" : "");
	pr_info("files:   %-32s %10s %14s %10s\n", "function", "windows", "total ns", "max ns");
	if (record_emitf("{\"type\":\"files_openers\",\"functions\":%u,\"lost\":%u}",
			 o.n, o.lost) < 0)
		pr_warn("files: the openers record does not fit\n");
	for (unsigned int i = 0; i < o.n && i < FILES_OPENERS_SHOWN; i++) {
		unsigned int best = i;
		struct files_opener tmp;
		const char *name;

		for (unsigned int k = i + 1; k < o.n; k++)
			if (o.f[k].t.total_ns > o.f[best].t.total_ns)
				best = k;
		tmp = o.f[i];
		o.f[i] = o.f[best];
		o.f[best] = tmp;
		name = kallsyms_lookup(o.f[i].start, &size, &off);
		pr_info("files:   %-32s %10llu %14llu %10llu\n", name ? name : "?",
			(unsigned long long)o.f[i].t.windows,
			(unsigned long long)o.f[i].t.total_ns,
			(unsigned long long)o.f[i].t.max_ns);
		if (record_emitf("{\"type\":\"files_opener\",\"rank\":%u,\"func\":\"%.48s\","
				 "\"windows\":%llu,\"total_ns\":%llu,\"max_ns\":%llu}", i + 1,
				 name ? name : "?", (unsigned long long)o.f[i].t.windows,
				 (unsigned long long)o.f[i].t.total_ns,
				 (unsigned long long)o.f[i].t.max_ns) < 0)
			pr_warn("files: an opener record does not fit\n");
	}
}

/*
 * The IRQ-off windows opened in SLUB's partial-list drain, one line and
 * record per function this port has.  Fails the run if files.drain_max_ns
 * is set and one of them was longer.
 */
static int files_report_drain(void)
{
	static const char *const funcs[] = {
		"put_cpu_partial", "unfreeze_partials", "__unfreeze_partials",
	};
	int failed = 0;

	if (!latency_tracer_enabled(LAT_IRQSOFF)) {
		if (!files_drain_max_ns)
			return 0;
		pr_err("files: files.drain_max_ns=%u cannot be checked: the irqsoff tracer is off (trace=)\n",
		       files_drain_max_ns);
		return 1;
	}
	files_report_openers();
	for (unsigned int i = 0; i < ARRAY_SIZE(funcs); i++) {
		struct lat_func_total t = latency_tracer_func(LAT_IRQSOFF, funcs[i]);

		if (!t.found)
			continue;
		pr_info("files: IRQ-off windows opened in %s: %llu, total %llu ns, longest %llu ns\n",
			funcs[i], (unsigned long long)t.windows,
			(unsigned long long)t.total_ns, (unsigned long long)t.max_ns);
		if (record_emitf("{\"type\":\"files_drain\",\"func\":\"%s\",\"windows\":%llu,"
				 "\"total_ns\":%llu,\"max_ns\":%llu}", funcs[i],
				 (unsigned long long)t.windows, (unsigned long long)t.total_ns,
				 (unsigned long long)t.max_ns) < 0)
			pr_warn("files: a drain record does not fit\n");
		if (files_drain_max_ns && t.max_ns > files_drain_max_ns) {
			pr_err("files: an IRQ-off window opened in %s lasted %llu ns, over files.drain_max_ns=%u\n",
			       funcs[i], (unsigned long long)t.max_ns, files_drain_max_ns);
			failed++;
		}
	}
	return failed;
}
#else
static int files_report_drain(void)
{
	if (!files_drain_max_ns)
		return 0;
	pr_err("files: files.drain_max_ns=%u cannot be checked: no irqsoff tracer in this build (CONFIG_TRACE_IRQSOFF)\n",
	       files_drain_max_ns);
	return 1;
}
#endif

static void files_free_run(struct files_run *r)
{
	kfree(r->w);
	kfree(r->args);
	kfree(r->tasks);
	kfree(r);
}

/* Every thread made and bound, none woken yet; NULL if out of memory. */
static struct files_run *files_start(int *nthreads)
{
	struct files_run *r;
	int k = 0, cpu;

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return NULL;
	r->n = num_online_cpus() * files_threads;
	r->w = kcalloc(r->n, sizeof(*r->w), GFP_KERNEL);
	r->args = kcalloc(r->n, sizeof(*r->args), GFP_KERNEL);
	r->tasks = kcalloc(r->n, sizeof(*r->tasks), GFP_KERNEL);
	if (!r->w || !r->args || !r->tasks) {
		files_free_run(r);
		return NULL;
	}
	r->waiter = current;
	init_completion(&r->go);
	init_completion(&r->stop);
	for_each_online_cpu(cpu) {
		for (int t = 0; t < files_threads; t++, k++) {
			struct task_struct *p;

			r->args[k] = (struct files_arg){ .r = r, .w = &r->w[k], .id = k };
			p = kthread_create(files_worker_fn, &r->args[k], "files/%d:%d", cpu, t);
			if (!p) {
				pr_err("files: no thread %d for CPU %d\n", t, cpu);
				continue;
			}
			kthread_bind(p, cpu);
			atomic_inc(&r->ready);
			atomic_inc(&r->running);
			atomic_inc(&r->alive);
			r->tasks[k] = p;
			(*nthreads)++;
		}
	}
	return r;
}

/* Only once: a thread may be gone as soon as it has seen r->stop. */
static void files_wake_all(struct files_run *r)
{
	for (int k = 0; k < r->n; k++)
		if (r->tasks[k])
			wake_up_process(r->tasks[k]);
}

/* The run=files workload. */
int files_run(void)
{
	unsigned long before, after;
	u64 dentries = 0, inodes = 0, failures = 0, cbs[3] = { 0 };
	long left_d, left_i, leaked;
	struct files_run *r;
	int failed = 0, nthreads = 0, n, cpu;
	bool keep = false;

	BUILD_BUG_ON(sizeof(struct files_dentry) != 192);
	BUILD_BUG_ON(sizeof(struct files_inode) != 600);
	files_dentry_cache = kmem_cache_create_usercopy("dentry", sizeof(struct files_dentry),
			__alignof__(struct files_dentry),
			SLAB_RECLAIM_ACCOUNT | SLAB_MEM_SPREAD | SLAB_ACCOUNT,
			offsetof(struct files_dentry, d_iname), FILES_DNAME_INLINE_LEN, NULL);
	files_inode_cache = kmem_cache_create("inode_cache", sizeof(struct files_inode), 0,
					      SLAB_MEM_SPREAD | SLAB_ACCOUNT,
					      files_inode_init_once);
	if (!files_dentry_cache || !files_inode_cache) {
		pr_err("files: not run: cannot create the dentry and inode caches\n");
		kmem_cache_destroy(files_dentry_cache);
		kmem_cache_destroy(files_inode_cache);
		return 1;
	}
	for_each_possible_cpu(cpu)
		per_cpu(files_cbs, cpu) = (struct files_cb_counts){ 0 };
	r = files_start(&nthreads);
	if (!r) {
		pr_err("files: not run: out of memory\n");
		failed = 1;
		goto out_caches;
	}
	n = r->n;
	if (nthreads < n)
		failed = 1;
	files_wake_all(r);
	workload_wait_zero(&r->ready);
	/* Twice: the first drain may start a kworker, whose pages are not ours. */
	slub_t_free_pages();
	before = slub_t_free_pages();
	/* The windows to report are the run's, not the set-up's or the baseline's shrinks. */
	latency_tracer_reset();
	complete_all(&r->go);
	workload_wait_zero(&r->running);
	/* Every callback queued has run once this returns. */
	rcu_barrier();
	failed += files_report_drain();

	for (int k = 0; k < n; k++) {
		dentries += r->w[k].dentries;
		inodes += r->w[k].inodes;
		failures += r->w[k].failures;
	}
	for_each_possible_cpu(cpu) {
		cbs[0] += per_cpu(files_cbs, cpu).softirq;
		cbs[1] += per_cpu(files_cbs, cpu).rcuc;
		cbs[2] += per_cpu(files_cbs, cpu).other;
	}
	left_d = files_left(files_dentry_cache, &failed, &keep);
	left_i = files_left(files_inode_cache, &failed, &keep);
	after = slub_t_free_pages();
	leaked = (long)before - (long)after;

	pr_info("files: %d thread(s) on %u CPU(s), %d round(s) of %d: %llu dentries and %llu inodes "
		"freed by %s, %llu allocation failure(s)\n", nthreads, num_online_cpus(),
		files_rounds, files_objects, (unsigned long long)dentries,
		(unsigned long long)inodes, files_frees[files_free],
		(unsigned long long)failures);
	if (files_free == FILES_CALL_RCU)
		pr_info("files: %llu RCU callbacks ran: %llu in softirq, %llu in rcuc, %llu elsewhere\n",
			(unsigned long long)(cbs[0] + cbs[1] + cbs[2]), (unsigned long long)cbs[0],
			(unsigned long long)cbs[1], (unsigned long long)cbs[2]);
	pr_info("files: after the grace periods: %ld dentries and %ld inodes left, %ld page(s) "
		"not given back\n", left_d, left_i, leaked);
	if (record_emitf("{\"type\":\"files\",\"free\":\"%s\",\"cpus\":%u,\"threads\":%d,"
			 "\"rounds\":%d,\"objects\":%d,\"dentries\":%llu,\"inodes\":%llu,"
			 "\"failures\":%llu}", files_frees[files_free], num_online_cpus(),
			 nthreads, files_rounds, files_objects, (unsigned long long)dentries,
			 (unsigned long long)inodes, (unsigned long long)failures) < 0)
		pr_warn("files: the record does not fit\n");
	if (record_emitf("{\"type\":\"files_freed\",\"cbs\":%lld,\"softirq\":%llu,\"rcuc\":%llu,"
			 "\"other\":%llu,\"left_dentries\":%ld,\"left_inodes\":%ld,"
			 "\"pages_leaked\":%ld}",
			 files_free == FILES_CALL_RCU ? (long long)(cbs[0] + cbs[1] + cbs[2]) : -1LL,
			 (unsigned long long)cbs[0], (unsigned long long)cbs[1],
			 (unsigned long long)cbs[2], left_d, left_i, leaked) < 0)
		pr_warn("files: the freed record does not fit\n");

	if (failures) {
		pr_err("files: %llu allocation(s) failed\n", (unsigned long long)failures);
		failed++;
	}
	if (files_free == FILES_CALL_RCU) {
		u64 want = dentries + inodes, ctx = IS_ENABLED(CONFIG_PREEMPT_RT) ? cbs[1] : cbs[0];

		if (cbs[0] + cbs[1] + cbs[2] != want) {
			pr_err("files: %llu RCU callbacks ran for %llu objects\n",
			       (unsigned long long)(cbs[0] + cbs[1] + cbs[2]),
			       (unsigned long long)want);
			failed++;
		} else if (ctx != want) {
			pr_err("files: %llu of %llu callbacks ran outside %s\n",
			       (unsigned long long)(want - ctx), (unsigned long long)want,
			       IS_ENABLED(CONFIG_PREEMPT_RT) ? "the rcuc threads" : "RCU_SOFTIRQ");
			failed++;
		}
	}
	if (leaked) {
		pr_err("files: %ld page(s) fewer free after the run than before\n", leaked);
		failed++;
	}
	/* The threads wait on r->stop; r is theirs until the last has seen it. */
	complete_all(&r->stop);
	workload_wait_zero(&r->alive);
	files_free_run(r);
out_caches:
	if (keep) {
		pr_err("files: the dentry and inode caches stay, with what they hold\n");
	} else {
		kmem_cache_destroy(files_dentry_cache);
		kmem_cache_destroy(files_inode_cache);
	}
	files_dentry_cache = files_inode_cache = NULL;
	return failed ? 1 : 0;
}
