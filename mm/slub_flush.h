/* SPDX-License-Identifier: GPL-2.0 */
/*
 * flush_all_cpus_locked(): flushing every CPU's slabs of a cache through
 * per-CPU work items.  5.15 does it so, and so did 5.13-rt's SLUB once
 * the RT tree had moved flush_cpu_slab() out of IPI context; written once
 * and compiled into mm/slub.c and, on PREEMPT_RT, into mm/slub_legacy.c.  The port defines has_cpu_slab()
 * before including this and its flush_cpu_slab() work function after.
 * Not a header for anyone else.
 */

struct slub_flush_work {
	struct work_struct work;
	struct kmem_cache *s;
	bool skip;		/* nothing queued on this CPU this round */
};

/* One flush round at a time: the per-CPU work items are reused. */
static DEFINE_MUTEX(flush_lock);
static DEFINE_PER_CPU(struct slub_flush_work,
		      slub_flush);

static void flush_cpu_slab(struct work_struct *item);

/*
 * Queue @s's flush on @cpu if that CPU holds a CPU slab or CPU partial
 * slabs of @s.  The work item runs on @cpu in a bound worker: thread
 * context, preemptible, and unable to migrate, which is what lets
 * flush_cpu_slab() use this_cpu_ptr().
 */
static void queue_flush_on(struct kmem_cache *s, unsigned int cpu)
{
	struct slub_flush_work *sfw = &per_cpu(slub_flush, cpu);

	sfw->skip = !has_cpu_slab(cpu, s);
	if (sfw->skip)
		return;
	sfw->s = s;
	INIT_WORK(&sfw->work, flush_cpu_slab);
	schedule_work_on(cpu, &sfw->work);
}

static void wait_flush_on(unsigned int cpu)
{
	struct slub_flush_work *sfw = &per_cpu(slub_flush, cpu);

	if (!sfw->skip)
		flush_work(&sfw->work);
}

/*
 * Everything is queued before anything is waited for, so the CPUs flush
 * side by side.  The post-series caller holds cpus_read_lock(), so the
 * online mask cannot change between the two walks and no item is queued
 * on a CPU that then goes down (its worker would be unbound and run the
 * flush on the wrong CPU's kmem_cache_cpu).  The 5.13-rt form keeps its
 * RT patch's shape and does not take the lock.
 */
void
flush_all_cpus_locked(struct kmem_cache *s)
{
	unsigned int cpu;

	mutex_lock(&flush_lock);
	for_each_online_cpu(cpu)
		queue_flush_on(s, cpu);
	for_each_online_cpu(cpu)
		wait_flush_on(cpu);
	mutex_unlock(&flush_lock);
}
