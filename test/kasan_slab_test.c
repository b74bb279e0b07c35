// SPDX-License-Identifier: GPL-2.0
/*
 * KASAN's SLUB side (the kasan_slab suite, CONFIG_KASAN): each case plants
 * one bug from Linux's lib/test_kasan.c on a kmalloc or private cache and
 * expects exactly one report in Linux's words, with the object described
 * ("The buggy address belongs to the object at ... which belongs to the
 * cache ... of size N") and its allocation and free stacks, which are
 * also read back from the object's metadata and must name the function
 * that allocated or freed it.  The quarantine's part is checked where it
 * shows: freed objects are not handed out again at once, and a cache's
 * shrink or destroy gets them back.
 *
 * Runs in both ports (kasan, legacy_kasan).
 */
#include <linux/ktest.h>
#include <linux/kasan.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/kallsyms.h>
#include <linux/stackdepot.h>
#include <linux/string.h>
#include <linux/cpu.h>
#include <linux/workqueue.h>
#include <linux/sched.h>
#include <stdio.h>
#include "slub_test.h"
#include "../mm/kasan/kasan.h"

/* One expected report: the count, the log from here, multi-shot on. */
struct ks_expect {
	u64 mark;
	unsigned long reports;
	bool multishot;
};

static void ks_begin(struct ks_expect *e)
{
	e->multishot = kasan_save_enable_multi_shot();
	e->reports = kasan_report_count();
	e->mark = ktest_log_mark();
}

/*
 * @n reports since ks_begin(); expected ones are taken back so they do
 * not fail the run (more than @n still do).
 */
static void ks_end(struct ktest *t, struct ks_expect *e, unsigned long n)
{
	unsigned long got = kasan_report_count() - e->reports;

	KTEST_EXPECT_EQ(t, got, n);
	WRITE_ONCE(kasan_reports, kasan_reports - (got < n ? got : n));
	ktest_expect_reports("kasan", n);
	kasan_restore_multi_shot(e->multishot);
}

static void ks_expect_task_line(struct ktest *t, struct ks_expect *e,
				const char *what)
{
	char line[48];

	snprintf(line, sizeof(line), "%s by task %d:", what, current->pid);
	KTEST_EXPECT_LOG(t, e->mark, line);
}

/*
 * Does the depot stack @h have a frame in function @fn (or in a part of
 * it gcc split off, fn.part.0, fn.isra.0)?
 */
static bool ks_stack_has(depot_stack_handle_t h, const char *fn)
{
	unsigned long *entries, size, offset;
	unsigned int n = stack_depot_fetch(h, &entries);
	size_t len = strlen(fn);

	for (unsigned int i = 0; i < n; i++) {
		/* Return addresses: the call is the byte before. */
		const char *name = kallsyms_lookup(entries[i] - 1, &size, &offset);

		if (name && !strncmp(name, fn, len) &&
		    (name[len] == '\0' || name[len] == '.'))
			return true;
	}
	return false;
}

/*
 * The metadata lies in the object's red zone (or in the freed object):
 * this instrumented file reads it with reports off, as report.c would.
 */
static struct kasan_track ks_alloc_track(struct kmem_cache *s, void *obj,
					 depot_stack_handle_t *aux0)
{
	struct kasan_alloc_meta *meta = kasan_get_alloc_meta(s, obj);
	struct kasan_track track = { 0, 0 };

	kasan_disable_current();
	if (meta) {
		track = meta->alloc_track;
		if (aux0)
			*aux0 = meta->aux_stack[0];
	}
	kasan_enable_current();
	return track;
}

static void ks_expect_alloc_stack(struct ktest *t, struct kmem_cache *s,
				  void *obj, const char *fn)
{
	struct kasan_track track = ks_alloc_track(s, obj, NULL);

	KTEST_EXPECT_EQ(t, track.pid, current->pid);
	KTEST_EXPECT_TRUE(t, ks_stack_has(track.stack, fn));
}

/* @pid: the freeing task's, or -1 when another task freed it. */
static void ks_expect_free_stack(struct ktest *t, struct kmem_cache *s,
				 void *obj, const char *fn, int pid)
{
	struct kasan_track *track = kasan_get_free_track(s, obj, 0xff);
	struct kasan_track copy = { 0, 0 };

	KTEST_ASSERT_TRUE(t, track != NULL);
	kasan_disable_current();
	copy = *track;
	kasan_enable_current();
	if (pid >= 0)
		KTEST_EXPECT_EQ(t, copy.pid, pid);
	KTEST_EXPECT_TRUE(t, ks_stack_has(copy.stack, fn));
}

/* The cache line of the object description. */
static void ks_expect_object(struct ktest *t, struct ks_expect *e,
			     struct kmem_cache *s)
{
	char line[96];

	KTEST_EXPECT_LOG(t, e->mark, "The buggy address belongs to the object at ");
	snprintf(line, sizeof(line), "which belongs to the cache %s of size %u",
		 s->name, s->object_size);
	KTEST_EXPECT_LOG(t, e->mark, line);
}

/* An instrumented one-byte load the compiler cannot drop. */
static noinline u8 ks_read(const void *p)
{
	return READ_ONCE(*(const u8 *)p);
}

static struct kmem_cache *ks_cache(struct ktest *t, const char *name,
				   unsigned int size)
{
	return slub_t_cache(t, name, size, 0, SLUB_T_NOMERGE, NULL);
}

/* Destroy without "still has objects": the quarantine gave them back. */
static void ks_destroy(struct ktest *t, struct kmem_cache *s)
{
	u64 mark = ktest_log_mark();

	kmem_cache_destroy(s);
	KTEST_EXPECT_FALSE(t, ktest_log_contains(mark, "still has objects"));
}

/* ---------------------------------------------------------------- cases */

/* kmalloc(123): byte 122 is fine, byte 123 is the red zone. */
static noinline void kmalloc_oob_right(struct ktest *t)
{
	struct ks_expect e;
	u8 *p = kmalloc(123, GFP_KERNEL);
	struct kmem_cache *s;

	KTEST_ASSERT_TRUE(t, p != NULL);
	s = virt_to_head_page(p)->slab_cache;
	ks_begin(&e);
	ks_read(p + 122);
	KTEST_EXPECT_EQ(t, kasan_report_count(), e.reports);
	ks_read(p + 123);
	ks_end(t, &e, 1);
	KTEST_EXPECT_LOG(t, e.mark, "BUG: KASAN: slab-out-of-bounds");
	KTEST_EXPECT_LOG(t, e.mark, "located 123 bytes inside of");
	ks_expect_object(t, &e, s);
	ks_expect_task_line(t, &e, "Allocated");
	ks_expect_alloc_stack(t, s, p, "kmalloc_oob_right");
	kfree(p);
}

/*
 * Past a kmalloc_large() buffer: the rest of its pages is red zone.  The
 * size is granule aligned, so only kasan_kmalloc_large()'s red zone (not
 * a partial last granule) stands behind the report.
 */
static noinline void kmalloc_large_oob_right(struct ktest *t)
{
	size_t size = KMALLOC_MAX_CACHE_SIZE + 16;
	struct ks_expect e;
	u8 *p = kmalloc(size, GFP_KERNEL);

	KTEST_ASSERT_TRUE(t, p != NULL);
	ks_begin(&e);
	ks_read(p + size - 1);
	KTEST_EXPECT_EQ(t, kasan_report_count(), e.reports);
	ks_read(p + size);
	ks_end(t, &e, 1);
	KTEST_EXPECT_LOG(t, e.mark, "out-of-bounds");
	kfree(p);
}

/* krealloc() to fewer bytes in place: the red zone moves down. */
static noinline void krealloc_less_oob(struct ktest *t)
{
	struct ks_expect e;
	u8 *p = kmalloc(201, GFP_KERNEL), *q;
	struct kmem_cache *s;

	KTEST_ASSERT_TRUE(t, p != NULL);
	s = virt_to_head_page(p)->slab_cache;
	q = krealloc(p, 15, GFP_KERNEL);
	KTEST_ASSERT_TRUE(t, q == p);
	ks_begin(&e);
	ks_read(q + 14);
	KTEST_EXPECT_EQ(t, kasan_report_count(), e.reports);
	ks_read(q + 15);	/* in the last granule */
	ks_read(q + 200);	/* valid before the krealloc() */
	ks_end(t, &e, 2);
	KTEST_EXPECT_LOG(t, e.mark, "BUG: KASAN: slab-out-of-bounds");
	ks_expect_object(t, &e, s);
	/* The allocation track is the krealloc()'s now. */
	ks_expect_alloc_stack(t, s, q, "krealloc");
	kfree(q);
}

/*
 * Past the end of a private cache's object: the slot's KASAN red zone,
 * poisoned when the slab was made (kasan_poison_slab()), since
 * kmem_cache_alloc() unpoisons exactly object_size.
 */
static noinline void kmem_cache_oob(struct ktest *t)
{
	struct kmem_cache *s = ks_cache(t, "kasan-t-oob", 200);
	struct ks_expect e;
	u8 *p = kmem_cache_alloc(s, GFP_KERNEL);

	KTEST_ASSERT_TRUE(t, p != NULL);
	ks_begin(&e);
	ks_read(p + 199);
	KTEST_EXPECT_EQ(t, kasan_report_count(), e.reports);
	ks_read(p + 200);
	ks_end(t, &e, 1);
	KTEST_EXPECT_LOG(t, e.mark, "BUG: KASAN: slab-out-of-bounds");
	KTEST_EXPECT_LOG(t, e.mark, "located 0 bytes to the right of");
	ks_expect_object(t, &e, s);
	ks_expect_alloc_stack(t, s, p, "kmem_cache_oob");
	kmem_cache_free(s, p);
	ks_destroy(t, s);
}

static noinline void kmem_cache_uaf_free(struct kmem_cache *s, void *p)
{
	kmem_cache_free(s, p);
	barrier();	/* keep this frame in the free stack */
}

/* Read a freed object of a private cache. */
static noinline void kmem_cache_uaf(struct ktest *t)
{
	struct kmem_cache *s = ks_cache(t, "kasan-t-uaf", 200);
	struct ks_expect e;
	u8 *p = kmem_cache_alloc(s, GFP_KERNEL);

	KTEST_ASSERT_TRUE(t, p != NULL);
	kmem_cache_uaf_free(s, p);
	ks_begin(&e);
	ks_read(p + 10);
	ks_end(t, &e, 1);
	KTEST_EXPECT_LOG(t, e.mark, "BUG: KASAN: use-after-free");
	KTEST_EXPECT_LOG(t, e.mark, "located 10 bytes inside of");
	ks_expect_object(t, &e, s);
	ks_expect_task_line(t, &e, "Allocated");
	ks_expect_task_line(t, &e, "Freed");
	ks_expect_alloc_stack(t, s, p, "kmem_cache_uaf");
	ks_expect_free_stack(t, s, p, "kmem_cache_uaf_free", current->pid);
	/* Still in quarantine: kmem_cache_destroy() must drain it. */
	ks_destroy(t, s);
}

/* The second kmem_cache_free() is reported and does not reach SLUB. */
static noinline void kmem_cache_double_free(struct ktest *t)
{
	struct kmem_cache *s = ks_cache(t, "kasan-t-dfree", 64);
	struct ks_expect e;
	void *p = kmem_cache_alloc(s, GFP_KERNEL), *a, *b;

	KTEST_ASSERT_TRUE(t, p != NULL);
	kmem_cache_free(s, p);
	ks_begin(&e);
	kmem_cache_free(s, p);
	ks_end(t, &e, 1);
	KTEST_EXPECT_LOG(t, e.mark, "BUG: KASAN: double-free or invalid-free");
	ks_expect_object(t, &e, s);
	ks_expect_task_line(t, &e, "Freed");
	/* The object went to SLUB at most once: no duplicate later. */
	kmem_cache_shrink(s);
	a = kmem_cache_alloc(s, GFP_KERNEL);
	b = kmem_cache_alloc(s, GFP_KERNEL);
	KTEST_EXPECT_TRUE(t, a && b && a != b);
	kmem_cache_free(s, a);
	kmem_cache_free(s, b);
	ks_destroy(t, s);
}

/* Freeing a pointer into the middle of an object. */
static noinline void kmem_cache_invalid_free(struct ktest *t)
{
	struct kmem_cache *s = ks_cache(t, "kasan-t-ifree", 64);
	struct ks_expect e;
	u8 *p = kmem_cache_alloc(s, GFP_KERNEL);

	KTEST_ASSERT_TRUE(t, p != NULL);
	ks_begin(&e);
	kmem_cache_free(s, p + 1);
	ks_end(t, &e, 1);
	KTEST_EXPECT_LOG(t, e.mark, "BUG: KASAN: double-free or invalid-free");
	/* Not freed: still accessible, without a report. */
	ks_begin(&e);
	ks_read(p + 63);
	ks_end(t, &e, 0);
	kmem_cache_free(s, p);
	ks_destroy(t, s);
}

struct ks_rcu_obj {
	struct rcu_head rcu;
	int value;
};

static void ks_rcu_free(struct rcu_head *head)
{
	kfree(container_of(head, struct ks_rcu_obj, rcu));
	barrier();	/* not a tail call: this frame is in the free stack */
}

static noinline void ks_queue_rcu(struct ks_rcu_obj *o)
{
	call_rcu(&o->rcu, ks_rcu_free);
	barrier();
}

/* Use after a call_rcu() free: the report names who queued it. */
static noinline void kfree_via_call_rcu_uaf(struct ktest *t)
{
	struct ks_rcu_obj *o = kmalloc(sizeof(*o), GFP_KERNEL);
	depot_stack_handle_t aux = 0;
	struct kmem_cache *s;
	struct ks_expect e;

	KTEST_ASSERT_TRUE(t, o != NULL);
	s = virt_to_head_page(o)->slab_cache;
	ks_queue_rcu(o);
	rcu_barrier();
	ks_begin(&e);
	ks_read(&o->value);
	ks_end(t, &e, 1);
	KTEST_EXPECT_LOG(t, e.mark, "BUG: KASAN: use-after-free");
	KTEST_EXPECT_LOG(t, e.mark, "Last potentially related work creation:");
	ks_alloc_track(s, o, &aux);
	KTEST_EXPECT_TRUE(t, ks_stack_has(aux, "ks_queue_rcu"));
	ks_expect_free_stack(t, s, o, "ks_rcu_free", -1);
}

/*
 * kmem_cache_free_bulk(): every object goes through the hooks and into
 * quarantine (SLUB does not hand them out again), a use is reported with
 * the bulk free's stack, and kmem_cache_shrink() gives them all back.
 */
#define KS_BULK	8

static noinline void kmem_cache_bulk_free_uaf(struct ktest *t)
{
	struct kmem_cache *s = ks_cache(t, "kasan-t-bulk", 96);
	void *p[KS_BULK], *freed[KS_BULK], *again[KS_BULK];
	struct ks_expect e;
	int reused = 0;

	KTEST_ASSERT_EQ(t, kmem_cache_alloc_bulk(s, GFP_KERNEL, KS_BULK, p),
			KS_BULK);
	memcpy(freed, p, sizeof(p));
	kmem_cache_free_bulk(s, KS_BULK, p);

	ks_begin(&e);
	ks_read(freed[3]);
	ks_end(t, &e, 1);
	KTEST_EXPECT_LOG(t, e.mark, "BUG: KASAN: use-after-free");
	ks_expect_task_line(t, &e, "Freed");
	ks_expect_free_stack(t, s, freed[3], "kmem_cache_free_bulk", current->pid);

	KTEST_ASSERT_EQ(t, kmem_cache_alloc_bulk(s, GFP_KERNEL, KS_BULK, again),
			KS_BULK);
	for (int i = 0; i < KS_BULK; i++)
		for (int j = 0; j < KS_BULK; j++)
			reused += again[i] == freed[j];
	KTEST_EXPECT_EQ(t, reused, 0);
	kmem_cache_free_bulk(s, KS_BULK, again);

	/* The quarantine's objects count as in use until it gives them back. */
	kmem_cache_shrink(s);
	KTEST_EXPECT_EQ(t, slub_t_expect_empty(t, s, "after shrink"), 0);
	ks_destroy(t, s);
}

/* ------------------------------------------------------ CPU hotplug */

struct ks_on_cpu {
	struct work_struct work;
	struct kmem_cache *s;
	void *obj;
};

static void ks_free_fn(struct work_struct *w)
{
	struct ks_on_cpu *x = container_of(w, struct ks_on_cpu, work);

	kmem_cache_free(x->s, x->obj);
}

/* Free @obj on @cpu: KASAN queues it on that CPU's quarantine list. */
static void ks_free_on(int cpu, struct kmem_cache *s, void *obj)
{
	struct ks_on_cpu x = { .s = s, .obj = obj };

	INIT_WORK_ONSTACK(&x.work, ks_free_fn);
	schedule_work_on(cpu, &x.work);
	flush_work(&x.work);
}

/*
 * A CPU going down gives its quarantine list back to SLUB and takes no
 * more puts until it is up again (kasan_cpu_offline()/_online()).
 */
static noinline void quarantine_cpu_offline(struct ktest *t)
{
	struct kmem_cache *s;
	int cpu = 1;
	void *a, *b;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs two CPUs");
	s = ks_cache(t, "ks_hotplug", 64);
	a = kmem_cache_alloc(s, GFP_KERNEL);
	b = kmem_cache_alloc(s, GFP_KERNEL);
	KTEST_ASSERT_TRUE(t, a && b);
	ks_free_on(cpu, s, a);
	KTEST_EXPECT_GE(t, kasan_quarantine_cpu_bytes(cpu), s->size);	/* held there */
	KTEST_ASSERT_EQ(t, cpu_down(cpu), 0);
	KTEST_EXPECT_EQ(t, kasan_quarantine_cpu_bytes(cpu), 0);	/* given back as it went */
	KTEST_ASSERT_EQ(t, cpu_up(cpu), 0);
	ks_free_on(cpu, s, b);
	KTEST_EXPECT_GE(t, kasan_quarantine_cpu_bytes(cpu), s->size);	/* queued again */
	ks_destroy(t, s);
}

static struct ktest_case kasan_slab_cases[] = {
	KTEST_CASE(kmalloc_oob_right),
	KTEST_CASE(kmalloc_large_oob_right),
	KTEST_CASE(krealloc_less_oob),
	KTEST_CASE(kmem_cache_oob),
	KTEST_CASE(kmem_cache_uaf),
	KTEST_CASE(kmem_cache_double_free),
	KTEST_CASE(kmem_cache_invalid_free),
	KTEST_CASE(kfree_via_call_rcu_uaf),
	KTEST_CASE(kmem_cache_bulk_free_uaf),
	KTEST_CASE(quarantine_cpu_offline),
	{}
};

static struct ktest_suite kasan_slab_suite = {
	.name = "kasan_slab", .cases = kasan_slab_cases,
};
ktest_register_suite(kasan_slab_suite);
