// SPDX-License-Identifier: GPL-2.0
/*
 * Shrinkers in the form Linux 6.7 settled on (CONFIG_SHRINKER_REFCOUNT),
 * after the SRCU list of 6.4 was reverted: the list is read under RCU and
 * every shrinker carries a reference count.
 *
 * shrink_slab() walks the list inside rcu_read_lock() and takes a reference
 * on a shrinker (shrinker_try_get()) before calling it; it leaves the read
 * section for the call, since callbacks may sleep, and re-enters it to drop
 * the reference and step to the next entry.  The reference is what keeps
 * the shrinker, and so its place in the list, alive meanwhile.
 *
 * shrinker_free() drops the reference registration gave and sleeps on
 * shrinker->done until the walkers inside this one shrinker have let go;
 * then it unlinks the shrinker under shrinker_mutex and frees it with
 * call_rcu(), so a walker that read the link to it just before the unlink
 * can still step over it.  Unregistering therefore waits for the calls in
 * progress, never for a grace period (the SRCU form's synchronize_srcu()).
 *
 * There is no debugfs and no memory cgroups here: shrinker_alloc()'s name is
 * not kept, and a MEMCG_AWARE shrinker is a global one.
 *
 * register_shrinker() and unregister_shrinker() (5.15's interface, on a
 * struct shrinker the caller owns) stay: each caller's shrinker gets an
 * allocated stand-in that is what the list holds, with the caller's
 * shrinker as its private_data.  unregister_shrinker() frees the stand-in,
 * which waits for the calls in progress, so the caller may free its own
 * struct when it returns.  Linux converted its callers instead; the
 * stand-in costs one more indirect call per visit, and run=shrink uses the
 * allocated interface directly.
 */
#include <linux/shrinker.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/sched.h>
#include <linux/mmzone.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/printk.h>

static LIST_HEAD(shrinker_list);
static unsigned int nr_shrinkers;
DEFINE_MUTEX(shrinker_mutex);

void shrinker_list_lock(void)
{
	mutex_lock(&shrinker_mutex);
}

void shrinker_list_unlock(void)
{
	mutex_unlock(&shrinker_mutex);
}

unsigned int shrinker_count(void)
{
	return READ_ONCE(nr_shrinkers);
}

/*
 * An unregistered shrinker with its deferred-work counters.  Its refcount
 * is 0, so a walker that finds it on the list (it is not there yet) would
 * pass it by.  @fmt names it in Linux's debugfs, which irqlab lacks.
 */
struct shrinker *shrinker_alloc(unsigned int flags, const char *fmt, ...)
{
	struct shrinker *shrinker;
	size_t size = sizeof(*shrinker->nr_deferred);

	flags &= ~SHRINKER_MEMCG_AWARE;
	if (flags & SHRINKER_NUMA_AWARE)
		size *= MAX_NUMNODES;
	shrinker = kzalloc(sizeof(*shrinker), GFP_KERNEL);
	if (!shrinker)
		return NULL;
	shrinker->nr_deferred = kzalloc(size, GFP_KERNEL);
	if (!shrinker->nr_deferred) {
		kfree(shrinker);
		return NULL;
	}
	shrinker->flags = flags | SHRINKER_ALLOCATED;
	shrinker->seeks = DEFAULT_SEEKS;
	return shrinker;
}

/*
 * Publish @shrinker.  The first reference is set last: until then a walker
 * that already sees it on the list cannot take one, so it never calls a
 * shrinker whose completion is not initialised.
 */
void shrinker_register(struct shrinker *shrinker)
{
	if (!(shrinker->flags & SHRINKER_ALLOCATED)) {
		pr_warn("shrinker_register: %p: not from shrinker_alloc(), not registered\n",
			shrinker->count_objects);
		return;
	}
	mutex_lock(&shrinker_mutex);
	list_add_tail_rcu(&shrinker->list, &shrinker_list);
	shrinker->flags |= SHRINKER_REGISTERED;
	WRITE_ONCE(nr_shrinkers, nr_shrinkers + 1);
	mutex_unlock(&shrinker_mutex);

	init_completion(&shrinker->done);
	refcount_set(&shrinker->refcount, 1);
}

static void shrinker_free_rcu_cb(struct rcu_head *head)
{
	kfree(container_of(head, struct shrinker, rcu));
}

/*
 * Unregister (if registered) and free @shrinker.  When this returns no
 * callback of it is running and none will start: what they use may go.
 */
void shrinker_free(struct shrinker *shrinker)
{
	if (!shrinker)
		return;
	if (shrinker->flags & SHRINKER_REGISTERED) {
		/* Registration's reference; then wait for the walkers' ones. */
		shrinker_put(shrinker);
		wait_for_completion(&shrinker->done);
	}

	mutex_lock(&shrinker_mutex);
	if (shrinker->flags & SHRINKER_REGISTERED) {
		list_del_rcu(&shrinker->list);
		shrinker->flags &= ~SHRINKER_REGISTERED;
		WRITE_ONCE(nr_shrinkers, nr_shrinkers - 1);
	}
	mutex_unlock(&shrinker_mutex);

	/* A walker that still finds it cannot take a reference: no one counts on these. */
	kfree(shrinker->nr_deferred);
	shrinker->nr_deferred = NULL;
	/* ... but the walker may still read its link to the next entry. */
	call_rcu(&shrinker->rcu, shrinker_free_rcu_cb);
}

/* The stand-in's callbacks: the caller's, on the caller's struct. */
static unsigned long stand_in_count(struct shrinker *s, struct shrink_control *sc)
{
	struct shrinker *owner = s->private_data;

	return owner->count_objects(owner, sc);
}

static unsigned long stand_in_scan(struct shrinker *s, struct shrink_control *sc)
{
	struct shrinker *owner = s->private_data;

	return owner->scan_objects(owner, sc);
}

/*
 * The caller's shrinker shares its stand-in's nr_deferred, so a caller that
 * runs do_shrink_slab() on its own struct (the tests do) sees the counts
 * shrink_slab() leaves.
 */
int prealloc_shrinker(struct shrinker *shrinker)
{
	struct shrinker *s;

	shrinker->flags &= ~SHRINKER_MEMCG_AWARE;
	s = shrinker_alloc(shrinker->flags & (SHRINKER_NUMA_AWARE | SHRINKER_NONSLAB), "%p",
			   shrinker->count_objects);
	if (!s)
		return -ENOMEM;
	s->count_objects = stand_in_count;
	s->scan_objects = stand_in_scan;
	s->batch = shrinker->batch;
	s->seeks = shrinker->seeks;
	s->private_data = shrinker;
	shrinker->nr_deferred = s->nr_deferred;
	shrinker->stand_in = s;
	return 0;
}

void free_prealloced_shrinker(struct shrinker *shrinker)
{
	shrinker_free(shrinker->stand_in);	/* never registered: nothing to wait for */
	shrinker->stand_in = NULL;
	shrinker->nr_deferred = NULL;
}

void register_shrinker_prepared(struct shrinker *shrinker)
{
	shrinker_register(shrinker->stand_in);
	shrinker->flags |= SHRINKER_REGISTERED;
}

void unregister_shrinker(struct shrinker *shrinker)
{
	if (!(shrinker->flags & SHRINKER_REGISTERED))
		return;
	shrinker_free(shrinker->stand_in);
	shrinker->flags &= ~SHRINKER_REGISTERED;
	shrinker->stand_in = NULL;
	shrinker->nr_deferred = NULL;
}

/*
 * No lock a registrant holds and no grace period to wait for: the read
 * section covers only the steps along the list, the reference covers the
 * call.  A shrinker whose count is 0 is being registered or freed; it is
 * passed by.
 */
unsigned long shrink_slab(gfp_t gfp_mask, int nid, void *memcg, int priority)
{
	struct shrinker *shrinker;
	unsigned long freed = 0, ret;

	rcu_read_lock();
	list_for_each_entry_rcu(shrinker, &shrinker_list, list) {
		struct shrink_control sc = {
			.gfp_mask = gfp_mask,
			.nid = nid,
			.memcg = memcg,
		};

		if (!shrinker_try_get(shrinker))
			continue;
		rcu_read_unlock();

		ret = do_shrink_slab(&sc, shrinker, priority);
		if (ret == SHRINK_EMPTY)
			ret = 0;
		freed += ret;

		/* Back inside before the put: the entry stays until we step off it. */
		rcu_read_lock();
		shrinker_put(shrinker);
	}
	rcu_read_unlock();
	cond_resched();
	return freed;
}
