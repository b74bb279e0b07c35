// SPDX-License-Identifier: GPL-2.0
/*
 * KASAN's quarantine (Linux 5.15's mm/kasan/quarantine.c): a freed slab
 * object is not given back to SLUB at once but queued, still poisoned,
 * so a use after free keeps hitting poisoned memory (and its report
 * still has the free track) for as long as possible.
 *
 * Each CPU queues its frees on its own list with IRQs off.  A list that
 * grows past QUARANTINE_PERCPU_SIZE bytes moves, under quarantine_lock,
 * to the tail batch of a global ring of QUARANTINE_BATCHES batches.  An
 * allocation that may sleep (kasan_quarantine_reduce()) frees the oldest
 * batch once the global part exceeds its limit: 1/QUARANTINE_FRACTION of
 * RAM less the per-CPU lists (with 256 MiB and 2 CPUs: 8 MiB - 2 MiB).
 * quarantine_lock is a raw spinlock taken with IRQs off, as in Linux:
 * frees come from any context, hard IRQ included.
 *
 * On PREEMPT_RT the IPI of kasan_quarantine_remove_cache() only parks
 * objects; they are freed from task context (see per_cpu_remove_cache()).
 *
 * CPU hotplug: a CPU going down frees its own list and takes no more
 * puts (its frees go straight to SLUB) until it is back, as Linux's
 * kasan_cpu_offline()/kasan_cpu_online() at a dynamic online state.
 */
#include <linux/kernel.h>
#include <linux/kasan.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/srcu.h>
#include <linux/sched.h>
#include <linux/cpumask.h>
#include <linux/cpuhotplug.h>

#include "kasan.h"
#include "../slab.h"

/* A queue: singly linked through the objects' free metadata. */
struct qlist_head {
	struct qlist_node *head;
	struct qlist_node *tail;
	size_t bytes;		/* cache->size of every object queued */
	bool offline;		/* CPU going down: no more puts here */
};

#define QLIST_INIT { NULL, NULL, 0 }

static bool qlist_empty(struct qlist_head *q)
{
	return !q->head;
}

static void qlist_init(struct qlist_head *q)
{
	q->head = NULL;
	q->tail = NULL;
	q->bytes = 0;
}

static void qlist_put(struct qlist_head *q, struct qlist_node *qlink,
		      size_t size)
{
	if (unlikely(qlist_empty(q)))
		q->head = qlink;
	else
		q->tail->next = qlink;
	q->tail = qlink;
	qlink->next = NULL;
	q->bytes += size;
}

/* Append all of @from to @to and leave @from empty. */
static void qlist_move_all(struct qlist_head *from, struct qlist_head *to)
{
	if (unlikely(qlist_empty(from)))
		return;

	if (qlist_empty(to)) {
		*to = *from;
		qlist_init(from);
		return;
	}
	to->tail->next = from->head;
	to->tail = from->tail;
	to->bytes += from->bytes;
	qlist_init(from);
}

#define QUARANTINE_PERCPU_SIZE	(1 << 20)
#define QUARANTINE_BATCHES	\
	(1024 > 4 * CONFIG_NR_CPUS ? 1024 : 4 * CONFIG_NR_CPUS)
/* At most this fraction of RAM is held back. */
#define QUARANTINE_FRACTION	32

static DEFINE_PER_CPU(struct qlist_head, cpu_quarantine);

/* The global part: a FIFO ring of batches, guarded by quarantine_lock. */
static struct qlist_head global_quarantine[QUARANTINE_BATCHES];
static int quarantine_head;
static int quarantine_tail;
static unsigned long quarantine_size;	/* bytes in all batches */
static DEFINE_RAW_SPINLOCK(quarantine_lock);
/* Readers: reducers holding objects off both lists; see remove_cache. */
DEFINE_STATIC_SRCU(remove_cache_srcu);

/* Set by the first reduce: until then, the limit 0 is never reached. */
static unsigned long quarantine_max_size;
static unsigned long quarantine_batch_size;

static struct kmem_cache *qlink_to_cache(struct qlist_node *qlink)
{
	return virt_to_head_page(qlink)->slab_cache;
}

static void *qlink_to_object(struct qlist_node *qlink,
			     struct kmem_cache *cache)
{
	struct kasan_free_meta *free_info =
		container_of(qlink, struct kasan_free_meta, quarantine_link);

	return (void *)free_info - cache->kasan_info.free_meta_offset;
}

/* Back to SLUB, past the free hooks that queued it. */
static void qlink_free(struct qlist_node *qlink, struct kmem_cache *cache)
{
	void *object = qlink_to_object(qlink, cache);

	/* SLUB may now write over the free track. */
	*(u8 *)kasan_mem_to_shadow(object) = KASAN_KMALLOC_FREE;
	___cache_free(cache, object, _THIS_IP_);
}

static void qlist_free_all(struct qlist_head *q, struct kmem_cache *cache)
{
	struct qlist_node *qlink = q->head;

	while (qlink) {
		struct kmem_cache *obj_cache =
			cache ? cache : qlink_to_cache(qlink);
		struct qlist_node *next = qlink->next;

		qlink_free(qlink, obj_cache);
		qlink = next;
	}
	qlist_init(q);
}

/*
 * From kasan_slab_free(): queue @object.  False if it cannot be held (no
 * room for the link), and SLUB frees it at once.
 */
bool kasan_quarantine_put(struct kmem_cache *cache, void *object)
{
	struct kasan_free_meta *meta = kasan_get_free_meta(cache, object);
	struct qlist_head temp = QLIST_INIT;
	struct qlist_head *q;
	unsigned long flags;

	if (!meta)
		return false;

	/*
	 * IRQs stay off until a full per-CPU list has reached the global
	 * ring: kasan_quarantine_remove_cache()'s IPI must find every object
	 * either on this CPU's list or in the ring, never in @temp.
	 */
	local_irq_save(flags);

	q = this_cpu_ptr(&cpu_quarantine);
	if (q->offline) {
		local_irq_restore(flags);
		return false;
	}
	qlist_put(q, &meta->quarantine_link, cache->size);
	if (unlikely(q->bytes > QUARANTINE_PERCPU_SIZE)) {
		qlist_move_all(q, &temp);

		raw_spin_lock(&quarantine_lock);
		WRITE_ONCE(quarantine_size, quarantine_size + temp.bytes);
		qlist_move_all(&temp, &global_quarantine[quarantine_tail]);
		if (global_quarantine[quarantine_tail].bytes >=
		    READ_ONCE(quarantine_batch_size)) {
			int new_tail = quarantine_tail + 1;

			if (new_tail == QUARANTINE_BATCHES)
				new_tail = 0;
			/* A full ring keeps growing its last batch. */
			if (new_tail != quarantine_head)
				quarantine_tail = new_tail;
		}
		raw_spin_unlock(&quarantine_lock);
	}

	local_irq_restore(flags);
	return true;
}

/* From allocations that may sleep: free the oldest batch if over limit. */
void kasan_quarantine_reduce(void)
{
	size_t total_size, new_quarantine_size, percpu_quarantines;
	struct qlist_head to_free = QLIST_INIT;
	unsigned long flags;
	int srcu_idx;

	if (likely(READ_ONCE(quarantine_size) <=
		   READ_ONCE(quarantine_max_size)))
		return;

	/*
	 * The batch taken out below is on neither list while it is freed;
	 * kasan_quarantine_remove_cache() waits for this SRCU reader.
	 */
	srcu_idx = srcu_read_lock(&remove_cache_srcu);
	raw_spin_lock_irqsave(&quarantine_lock, flags);

	/* Limits from RAM and online CPUs, recomputed every time. */
	total_size = (totalram_pages() << PAGE_SHIFT) / QUARANTINE_FRACTION;
	percpu_quarantines = QUARANTINE_PERCPU_SIZE * num_online_cpus();
	new_quarantine_size = total_size < percpu_quarantines ?
		0 : total_size - percpu_quarantines;
	WRITE_ONCE(quarantine_max_size, new_quarantine_size);
	/* Batches sized so that at most half the ring is in use. */
	WRITE_ONCE(quarantine_batch_size,
		   max((size_t)QUARANTINE_PERCPU_SIZE,
		       2 * total_size / QUARANTINE_BATCHES));

	if (likely(quarantine_size > quarantine_max_size)) {
		qlist_move_all(&global_quarantine[quarantine_head], &to_free);
		WRITE_ONCE(quarantine_size, quarantine_size - to_free.bytes);
		quarantine_head++;
		if (quarantine_head == QUARANTINE_BATCHES)
			quarantine_head = 0;
	}

	raw_spin_unlock_irqrestore(&quarantine_lock, flags);

	qlist_free_all(&to_free, NULL);
	srcu_read_unlock(&remove_cache_srcu, srcu_idx);
}

/* Split @from: @cache's objects to @to, the others stay. */
static void qlist_move_cache(struct qlist_head *from, struct qlist_head *to,
			     struct kmem_cache *cache)
{
	struct qlist_node *curr;

	if (unlikely(qlist_empty(from)))
		return;

	curr = from->head;
	qlist_init(from);
	while (curr) {
		struct qlist_node *next = curr->next;
		struct kmem_cache *obj_cache = qlink_to_cache(curr);

		qlist_put(obj_cache == cache ? to : from, curr, obj_cache->size);
		curr = next;
	}
}

#ifdef CONFIG_PREEMPT_RT
/*
 * On PREEMPT_RT SLUB's free path takes sleeping locks (the cpu_slab local
 * lock, list_lock), so the IPI handler below must not free.  It parks the
 * cache's objects here instead, and kasan_quarantine_remove_cache() frees
 * them from task context: Linux's later fix for the same problem
 * ("kasan: fix sleeping function called from invalid context on RT
 * kernel", 5.18), where 5.15 freed from the IPI on every kernel.
 */
struct cpu_shrink_qlist {
	raw_spinlock_t lock;
	struct qlist_head qlist;
};

static DEFINE_PER_CPU(struct cpu_shrink_qlist, shrink_qlist) = {
	.lock = __RAW_SPIN_LOCK_INITIALIZER(shrink_qlist.lock),
};
#endif

/* IPI handler: this CPU's queued objects of @arg's cache. */
static void per_cpu_remove_cache(void *arg)
{
	struct kmem_cache *cache = arg;
	struct qlist_head *q = this_cpu_ptr(&cpu_quarantine);
#ifndef CONFIG_PREEMPT_RT
	struct qlist_head to_free = QLIST_INIT;

	qlist_move_cache(q, &to_free, cache);
	qlist_free_all(&to_free, cache);
#else
	struct cpu_shrink_qlist *sq = this_cpu_ptr(&shrink_qlist);

	raw_spin_lock(&sq->lock);
	qlist_move_cache(q, &sq->qlist, cache);
	raw_spin_unlock(&sq->lock);
#endif
}

/* Give every quarantined object of @cache back to it (shrink, destroy). */
void kasan_quarantine_remove_cache(struct kmem_cache *cache)
{
	struct qlist_head to_free = QLIST_INIT;
	unsigned long flags, i;

	/*
	 * The IPIs catch objects on the way from a per-CPU list to the ring
	 * (kasan_quarantine_put() keeps IRQs off), the SRCU grace period at
	 * the end the batches a reducer is freeing.
	 */
	on_each_cpu(per_cpu_remove_cache, cache, 1);
#ifdef CONFIG_PREEMPT_RT
	{
		int cpu;

		for_each_online_cpu(cpu) {
			struct cpu_shrink_qlist *sq = per_cpu_ptr(&shrink_qlist, cpu);

			raw_spin_lock_irqsave(&sq->lock, flags);
			qlist_move_cache(&sq->qlist, &to_free, cache);
			raw_spin_unlock_irqrestore(&sq->lock, flags);
		}
	}
#endif

	raw_spin_lock_irqsave(&quarantine_lock, flags);
	for (i = 0; i < QUARANTINE_BATCHES; i++) {
		if (qlist_empty(&global_quarantine[i]))
			continue;
		qlist_move_cache(&global_quarantine[i], &to_free, cache);
		/* A long scan: let interrupts and other CPUs in between. */
		raw_spin_unlock_irqrestore(&quarantine_lock, flags);
		cond_resched();
		raw_spin_lock_irqsave(&quarantine_lock, flags);
	}
	raw_spin_unlock_irqrestore(&quarantine_lock, flags);

	qlist_free_all(&to_free, cache);

	synchronize_srcu(&remove_cache_srcu);
}

/* For tests: the bytes queued on @cpu's own list. */
size_t kasan_quarantine_cpu_bytes(unsigned int cpu)
{
	return READ_ONCE(per_cpu_ptr(&cpu_quarantine, cpu)->bytes);
}

/* In the CPU's cpuhp thread, on the way up: puts are taken again. */
static int kasan_cpu_online(unsigned int cpu)
{
	this_cpu_ptr(&cpu_quarantine)->offline = false;
	return 0;
}

/*
 * On the way down, on the CPU itself: refuse puts first, so a free from
 * an interrupt cannot add to the list while it is being emptied.
 */
static int kasan_cpu_offline(unsigned int cpu)
{
	struct qlist_head *q = this_cpu_ptr(&cpu_quarantine);

	WRITE_ONCE(q->offline, true);
	barrier();
	qlist_free_all(q, NULL);
	return 0;
}

/* Where Linux's late_initcall registers it: from init, before any run. */
void kasan_cpu_quarantine_init(void)
{
	int ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "mm/kasan:online",
				    kasan_cpu_online, kasan_cpu_offline);

	if (ret < 0)
		pr_err("kasan: the quarantine's hotplug state was not set up (%d)\n", ret);
}
