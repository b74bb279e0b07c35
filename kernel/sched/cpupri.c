// SPDX-License-Identifier: GPL-2.0
/*
 * cpupri: which CPUs run at which RT level (see cpupri.h), kept up to date
 * by the RT class under each rq lock and read locklessly by placement.
 * A reader can see a CPU at two levels for a moment, or at a level it
 * just left; placement rechecks under the rq locks, and a CPU that drops
 * its level pulls, so a stale answer only costs work.
 */
#include "sched.h"
#include "cpupri.h"

/*
 * A task or run-queue priority (prio scale) to a cpupri level.  An empty
 * rt_rq reads MAX_RT_PRIO here (Linux: MAX_RT_PRIO - 1, its lowest RT
 * level, which no task uses); either is "no RT work".
 */
static int convert_prio(int prio)
{
	if (prio == CPUPRI_INVALID)
		return CPUPRI_INVALID;
	if (prio < MAX_RT_PRIO - 1)
		return MAX_RT_PRIO - 1 - prio;	/* prio 0 .. 98 -> level 99 .. 1 */
	return CPUPRI_NORMAL;
}

/* Does level @idx hold a CPU @p may use?  Fills @lowest_mask if so. */
static bool __cpupri_find(struct cpupri *cp, struct task_struct *p,
			  struct cpumask *lowest_mask, int idx)
{
	struct cpupri_vec *vec = &cp->pri_to_cpu[idx];
	struct cpumask any;

	if (!atomic_read(&vec->count))
		return false;
	/* Pairs with cpupri_set(): a counted level has its mask bit set. */
	smp_rmb();
	if (!lowest_mask)
		lowest_mask = &any;
	/*
	 * cpus_mask, not cpus_ptr: a pinned task still asks where it could
	 * go, and its caller deals with the pin (push_cpu_stop()).
	 */
	return cpumask_and(lowest_mask, &p->cpus_mask, &vec->mask) &&
	       cpumask_and(lowest_mask, lowest_mask, cpu_online_mask);
}

/*
 * The CPUs at the lowest level below @p's own that @p may use, in
 * @lowest_mask (if not NULL).  Returns whether there are any.
 */
int cpupri_find(struct cpupri *cp, struct task_struct *p, struct cpumask *lowest_mask)
{
	int task_pri = convert_prio(p->prio);

	WARN_ON_ONCE(task_pri >= CPUPRI_NR_PRIORITIES);
	for (int idx = 0; idx < task_pri; idx++)
		if (__cpupri_find(cp, p, lowest_mask, idx))
			return 1;
	return 0;
}

/*
 * Move @cpu to the level of @newpri (prio scale, or CPUPRI_INVALID).
 * The new level is published before the old one is left, so a concurrent
 * search sees the CPU at one of them at least.  @cpu's rq lock held.
 */
void cpupri_set(struct cpupri *cp, int cpu, int newpri)
{
	int oldpri = cp->cpu_to_pri[cpu];
	bool added = false;

	newpri = convert_prio(newpri);
	if (newpri == oldpri)
		return;
	if (newpri != CPUPRI_INVALID) {
		struct cpupri_vec *vec = &cp->pri_to_cpu[newpri];

		cpumask_set_cpu(cpu, &vec->mask);
		smp_mb__before_atomic();
		atomic_inc(&vec->count);
		added = true;
	}
	if (oldpri != CPUPRI_INVALID) {
		struct cpupri_vec *vec = &cp->pri_to_cpu[oldpri];

		if (added)
			smp_mb__after_atomic();
		atomic_dec(&vec->count);
		smp_mb__after_atomic();
		cpumask_clear_cpu(cpu, &vec->mask);
	}
	cp->cpu_to_pri[cpu] = newpri;
}

void cpupri_init(struct cpupri *cp)
{
	memset(cp, 0, sizeof(*cp));
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		cp->cpu_to_pri[cpu] = CPUPRI_INVALID;
}
