// SPDX-License-Identifier: GPL-2.0
/*
 * The cpudl heap of the deadline class, Linux 5.15's algorithm.
 *
 * Global EDF wants, for a task that cannot run where it is, a CPU with no
 * deadline work, else the CPU whose earliest deadline is the latest (the
 * one it preempts at the least cost to the schedule).  Keeping every
 * CPU's earliest deadline in a binary max-heap answers the second in
 * O(1) at the root, and free_cpus the first; each change of a CPU's
 * earliest deadline costs O(log n) under cp->lock, taken inside the rq
 * lock of the CPU that changed.  cpudl_find() itself reads the root
 * without the lock: a stale answer is rechecked under the rq locks by
 * the callers, as in Linux.
 */
#include "sched.h"
#include "cpudeadline.h"

static inline int parent(int i)
{
	return (i - 1) >> 1;
}

static inline int left_child(int i)
{
	return (i << 1) + 1;
}

static inline int right_child(int i)
{
	return (i << 1) + 2;
}

/* Put @cpu with deadline @dl into heap slot @idx. */
static inline void cpudl_place(struct cpudl *cp, int idx, int cpu, u64 dl)
{
	cp->elements[idx].cpu = cpu;
	cp->elements[idx].dl = dl;
	cp->elements[cpu].idx = idx;
}

/* The entry at @idx got an earlier deadline: sink it below later ones. */
static void cpudl_heapify_down(struct cpudl *cp, int idx)
{
	int orig_cpu = cp->elements[idx].cpu;
	u64 orig_dl = cp->elements[idx].dl;

	/* Move the hole down, then drop the entry in once, not swap by swap. */
	while (left_child(idx) < cp->size) {
		int l = left_child(idx), r = right_child(idx), largest = idx;
		u64 largest_dl = orig_dl;

		if (dl_time_before(largest_dl, cp->elements[l].dl)) {
			largest = l;
			largest_dl = cp->elements[l].dl;
		}
		if (r < cp->size && dl_time_before(largest_dl, cp->elements[r].dl))
			largest = r;
		if (largest == idx)
			break;
		cpudl_place(cp, idx, cp->elements[largest].cpu, cp->elements[largest].dl);
		idx = largest;
	}
	cpudl_place(cp, idx, orig_cpu, orig_dl);
}

/* The entry at @idx got a later deadline: raise it above earlier ones. */
static void cpudl_heapify_up(struct cpudl *cp, int idx)
{
	int orig_cpu = cp->elements[idx].cpu;
	u64 orig_dl = cp->elements[idx].dl;

	while (idx > 0 && dl_time_before(cp->elements[parent(idx)].dl, orig_dl)) {
		int p = parent(idx);

		cpudl_place(cp, idx, cp->elements[p].cpu, cp->elements[p].dl);
		idx = p;
	}
	cpudl_place(cp, idx, orig_cpu, orig_dl);
}

/* After an entry at @idx changed either way. */
static void cpudl_heapify(struct cpudl *cp, int idx)
{
	if (idx > 0 && dl_time_before(cp->elements[parent(idx)].dl, cp->elements[idx].dl))
		cpudl_heapify_up(cp, idx);
	else
		cpudl_heapify_down(cp, idx);
}

/* The CPU whose earliest deadline is the latest, or -1 for an empty heap. */
int cpudl_maximum(struct cpudl *cp)
{
	return READ_ONCE(cp->size) ? READ_ONCE(cp->elements[0].cpu) : -1;
}

/*
 * Can @p run at once somewhere?  With @later_mask, fill it with the idle
 * (for deadline work) CPUs @p may use, or with the heap's maximum if @p
 * preempts its work.  Returns 1 if any CPU was found.  Uses cpus_mask,
 * not cpus_ptr, as Linux does: callers check migrate_disable themselves.
 */
int cpudl_find(struct cpudl *cp, struct task_struct *p, struct cpumask *later_mask)
{
	const struct sched_dl_entity *dl_se = &p->dl;
	int best_cpu;

	if (later_mask && cpumask_and(later_mask, &cp->free_cpus, &p->cpus_mask))
		return 1;
	best_cpu = cpudl_maximum(cp);
	if (best_cpu >= 0 && cpumask_test_cpu(best_cpu, &p->cpus_mask) &&
	    dl_time_before(dl_se->deadline, READ_ONCE(cp->elements[0].dl))) {
		if (later_mask)
			cpumask_set_cpu(best_cpu, later_mask);
		return 1;
	}
	return 0;
}

/*
 * @cpu has no deadline work any more: take it out of the heap (the last
 * slot fills its place) and count it free.  Called with its rq locked.
 */
void cpudl_clear(struct cpudl *cp, int cpu)
{
	unsigned long flags;
	int old_idx;

	raw_spin_lock_irqsave(&cp->lock, flags);
	old_idx = cp->elements[cpu].idx;
	if (old_idx != IDX_INVALID) {
		int last = cp->size - 1;

		if (old_idx != last) {
			cpudl_place(cp, old_idx, cp->elements[last].cpu, cp->elements[last].dl);
			WRITE_ONCE(cp->size, last);
			cpudl_heapify(cp, old_idx);
		} else {
			WRITE_ONCE(cp->size, last);
		}
		cp->elements[cpu].idx = IDX_INVALID;
		cpumask_set_cpu(cpu, &cp->free_cpus);
	}
	raw_spin_unlock_irqrestore(&cp->lock, flags);
}

/* @cpu's earliest deadline is now @dl: insert or move it.  Its rq is locked. */
void cpudl_set(struct cpudl *cp, int cpu, u64 dl)
{
	unsigned long flags;
	int old_idx;

	raw_spin_lock_irqsave(&cp->lock, flags);
	old_idx = cp->elements[cpu].idx;
	if (old_idx == IDX_INVALID) {
		int idx = cp->size;

		cpudl_place(cp, idx, cpu, dl);
		WRITE_ONCE(cp->size, idx + 1);
		cpudl_heapify_up(cp, idx);
		cpumask_clear_cpu(cpu, &cp->free_cpus);
	} else {
		cp->elements[old_idx].dl = dl;
		cpudl_heapify(cp, old_idx);
	}
	raw_spin_unlock_irqrestore(&cp->lock, flags);
}

/* A CPU comes online (or goes away): it may (may no longer) be chosen. */
void cpudl_set_freecpu(struct cpudl *cp, int cpu)
{
	cpumask_set_cpu(cpu, &cp->free_cpus);
}

void cpudl_clear_freecpu(struct cpudl *cp, int cpu)
{
	cpumask_clear_cpu(cpu, &cp->free_cpus);
}

void cpudl_init(struct cpudl *cp)
{
	raw_spin_lock_init(&cp->lock);
	cp->size = 0;
	cpumask_clear(&cp->free_cpus);
	for (int i = 0; i < NR_CPUS; i++)
		cp->elements[i].idx = IDX_INVALID;
}
