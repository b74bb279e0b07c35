// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_DEADLINE parameters and admission control, Linux 5.15's rules.
 *
 * __checkparam_dl(): 1024 ns <= runtime <= deadline <= period (a period of
 * 0 means period = deadline), neither time with bit 63 set, the period
 * between sched_dl_period_min and _max (100 us and 2^22 us, Linux's
 * sysctl defaults; fixed here).
 *
 * Admission (Linux's dl_bw and __dl_overflow()): deadline tasks together
 * may reserve at most sched.rt_runtime_us / sched.rt_period_us (default
 * 950000 / 1000000, Linux's sysctls of those names) of every CPU of their
 * root domain.  irqlab has one root domain, all online CPUs, so the limit
 * is that share times num_online_cpus(); sched.rt_runtime_us=-1 lifts it.
 * (irqlab has no RT throttling: the two parameters only set this limit.)
 * A task's bandwidth stays reserved until its 0-lag time after it leaves
 * the class or exits (deadline.c: task_non_contending(),
 * inactive_task_timer(), switched_from_dl()), as in Linux: leaving
 * earlier would let a new task be admitted while the old one may still
 * be owed the rest of its current reservation.
 */
#include "sched.h"
#include <linux/moduleparam.h>
#include <limits.h>

static int sysctl_sched_rt_period = 1000000;
static int sysctl_sched_rt_runtime = 950000;
core_param_range("sched.rt_period_us", sysctl_sched_rt_period, int, 1, INT_MAX,
		 "period of the deadline bandwidth limit (us)");
core_param_range("sched.rt_runtime_us", sysctl_sched_rt_runtime, int, -1, INT_MAX,
		 "deadline tasks may reserve this much of each period per CPU (us; -1: no limit)");

static const u64 sysctl_sched_dl_period_max = 1 << 22;	/* us, ~4 s */
static const u64 sysctl_sched_dl_period_min = 100;	/* us */

static struct dl_bw def_dl_bw = {
	.lock = __RAW_SPIN_LOCK_UNLOCKED(def_dl_bw.lock),
};

u64 to_ratio(u64 period, u64 runtime)
{
	if (!period)
		return 0;
	return (runtime << BW_SHIFT) / period;
}

/* sched.rt_runtime_us, capped at the period (see global_dl_share()). */
static long long global_rt_runtime_us(void)
{
	static bool warned;
	long long runtime = sysctl_sched_rt_runtime, period = sysctl_sched_rt_period;

	if (runtime > period) {
		if (!warned) {
			warned = true;
			pr_err("sched: sched.rt_runtime_us=%lld exceeds sched.rt_period_us=%lld "
			       "(Linux refuses that): deadline tasks limited to 100%% of each CPU\n",
			       runtime, period);
		}
		runtime = period;
	}
	return runtime;
}

/* The per-CPU share deadline tasks may hold; -1 for no limit. */
static u64 global_dl_share(void)
{
	long long runtime = global_rt_runtime_us();

	if (runtime < 0)
		return (u64)-1;
	return to_ratio((u64)sysctl_sched_rt_period * NSEC_PER_USEC, runtime * NSEC_PER_USEC);
}

/*
 * GRUB's constants for @dl_rq: bw_ratio = 1 / Umax (RATIO_SHIFT) and the
 * starting extra_bw = Umax, where Umax is the share deadline tasks may
 * reserve (all of the CPU without a limit).  Admissions then take their
 * part out of extra_bw (__dl_add()).  Called at boot, after the command
 * line set the two parameters (irqlab cannot change them later).
 */
void init_dl_rq_bw_ratio(struct dl_rq *dl_rq)
{
	long long runtime = global_rt_runtime_us();
	u64 period = (u64)sysctl_sched_rt_period * NSEC_PER_USEC;

	if (runtime < 0) {
		dl_rq->bw_ratio = 1 << RATIO_SHIFT;
		dl_rq->extra_bw = 1 << BW_SHIFT;
	} else {
		dl_rq->bw_ratio = to_ratio(runtime * NSEC_PER_USEC, period) >>
				  (BW_SHIFT - RATIO_SHIFT);
		dl_rq->extra_bw = to_ratio(period, runtime * NSEC_PER_USEC);
	}
}

struct dl_bw *dl_bw_of(int cpu)
{
	return &def_dl_bw;
}

int dl_bw_cpus(int cpu)
{
	return num_online_cpus();
}

/* The rule @attr breaks, or NULL: what __checkparam_dl() says, in words. */
static const char *dl_param_violation(const struct sched_attr *attr)
{
	u64 period = attr->sched_period;

	if (attr->sched_deadline == 0)
		return "deadline must not be 0";
	/* DL_SCALE bits are dropped in the bandwidth arithmetic. */
	if (attr->sched_runtime < (1ULL << DL_SCALE))
		return "runtime must be at least 1024 ns";
	/* Bit 63 is the sign of deadline comparisons. */
	if (attr->sched_deadline & (1ULL << 63) || attr->sched_period & (1ULL << 63))
		return "deadline and period must be below 2^63 ns";
	if (!period)
		period = attr->sched_deadline;
	if (attr->sched_deadline < attr->sched_runtime)
		return "runtime must not exceed deadline";
	if (period < attr->sched_deadline)
		return "deadline must not exceed period";
	if (period < sysctl_sched_dl_period_min * NSEC_PER_USEC)
		return "period must be at least 100 us (sched_dl_period_min)";
	if (period > sysctl_sched_dl_period_max * NSEC_PER_USEC)
		return "period must be at most 4194304 us (sched_dl_period_max)";
	return NULL;
}

bool __checkparam_dl(const struct sched_attr *attr)
{
	const char *why = dl_param_violation(attr);

	if (why)
		pr_warn("sched_setattr: SCHED_DEADLINE runtime %llu deadline %llu period %llu ns: "
			"%s (-EINVAL)\n", (unsigned long long)attr->sched_runtime,
			(unsigned long long)attr->sched_deadline,
			(unsigned long long)attr->sched_period, why);
	return !why;
}

void __setparam_dl(struct task_struct *p, const struct sched_attr *attr)
{
	struct sched_dl_entity *dl_se = &p->dl;

	dl_se->dl_runtime = attr->sched_runtime;
	dl_se->dl_deadline = attr->sched_deadline;
	dl_se->dl_period = attr->sched_period ?: dl_se->dl_deadline;
	dl_se->flags = attr->sched_flags & SCHED_DL_FLAGS;
	dl_se->dl_bw = to_ratio(dl_se->dl_period, dl_se->dl_runtime);
	dl_se->dl_density = to_ratio(dl_se->dl_deadline, dl_se->dl_runtime);
}

void __getparam_dl(struct task_struct *p, struct sched_attr *attr)
{
	struct sched_dl_entity *dl_se = &p->dl;

	attr->sched_priority = 0;
	attr->sched_runtime = dl_se->dl_runtime;
	attr->sched_deadline = dl_se->dl_deadline;
	attr->sched_period = dl_se->dl_period;
	attr->sched_flags &= ~SCHED_DL_FLAGS;
	attr->sched_flags |= dl_se->flags;
}

/*
 * Forget the parameters: done once a task that left the class (or died)
 * reached its 0-lag time and gave its bandwidth back.
 */
void __dl_clear_params(struct task_struct *p)
{
	struct sched_dl_entity *dl_se = &p->dl;

	dl_se->dl_runtime = 0;
	dl_se->dl_deadline = 0;
	dl_se->dl_period = 0;
	dl_se->flags = 0;
	dl_se->dl_bw = 0;
	dl_se->dl_density = 0;
	dl_se->dl_throttled = 0;
	dl_se->dl_yielded = 0;
	dl_se->dl_non_contending = 0;
	dl_se->dl_overrun = 0;
	dl_se->pi_se = dl_se;
}

/* Would replacing @old_bw with @new_bw exceed @cpus CPUs' share? */
static bool __dl_overflow(struct dl_bw *dl_b, int cpus, u64 old_bw, u64 new_bw)
{
	return dl_b->bw != (u64)-1 &&
	       dl_b->bw * cpus < dl_b->total_bw - old_bw + new_bw;
}

/* Percent with three decimals, rounded (to_ratio() rounds down), for messages. */
static void bw_pct(u64 bw, unsigned long long *whole, unsigned int *frac)
{
	u64 milli = (bw * 100000 + BW_UNIT / 2) >> BW_SHIFT;

	*whole = milli / 1000;
	*frac = milli % 1000;
}

/*
 * Admission control for @p moving to @policy with @attr: reserve or change
 * its bandwidth.  0, or -EBUSY (with a message) if the new reservation
 * does not fit.  Called with p->pi_lock and its rq lock held.
 */
int sched_dl_overflow(struct task_struct *p, int policy, const struct sched_attr *attr)
{
	u64 period = attr->sched_period ?: attr->sched_deadline;
	u64 new_bw = dl_policy(policy) ? to_ratio(period, attr->sched_runtime) : 0;
	int cpu = task_cpu(p), cpus, err = -EBUSY;
	struct dl_bw *dl_b = dl_bw_of(cpu);
	u64 old_bw = task_has_dl_policy(p) ? p->dl.dl_bw : 0;

	/* A task out of the class may still carry its old bandwidth: compare the policy too. */
	if (new_bw == p->dl.dl_bw && task_has_dl_policy(p))
		return 0;
	raw_spin_lock(&dl_b->lock);
	dl_b->bw = global_dl_share();
	cpus = dl_bw_cpus(cpu);
	if (dl_policy(policy) && !task_has_dl_policy(p) &&
	    !__dl_overflow(dl_b, cpus, 0, new_bw)) {
		/*
		 * Back before the 0-lag time of its last stint: that stint's
		 * bandwidth is still held and is replaced, not added to
		 * (switched_to_dl() stops the inactive timer).
		 */
		if (hrtimer_active(&p->dl.inactive_timer))
			__dl_sub(dl_b, p->dl.dl_bw, cpus);
		__dl_add(dl_b, new_bw, cpus);
		err = 0;
	} else if (dl_policy(policy) && task_has_dl_policy(p) &&
		   !__dl_overflow(dl_b, cpus, old_bw, new_bw)) {
		/*
		 * As Linux, a smaller bandwidth takes effect at once rather
		 * than at the 0-lag time of the current instance, which would
		 * need the inactive timer on a task that is not inactive.
		 */
		__dl_sub(dl_b, old_bw, cpus);
		__dl_add(dl_b, new_bw, cpus);
		dl_change_utilization(p, new_bw);
		err = 0;
	} else if (!dl_policy(policy) && task_has_dl_policy(p)) {
		/* Leaving: switched_from_dl() releases it at the 0-lag time. */
		err = 0;
	}
	if (err) {
		unsigned long long w_new, w_tot, w_cap;
		unsigned int f_new, f_tot, f_cap;

		bw_pct(new_bw, &w_new, &f_new);
		bw_pct(dl_b->total_bw - old_bw, &w_tot, &f_tot);
		bw_pct(dl_b->bw * cpus, &w_cap, &f_cap);
		pr_warn("sched_setattr: %s/%d: SCHED_DEADLINE bandwidth %llu.%03u%% does not fit: "
			"%llu.%03u%% reserved of %llu.%03u%% (%d CPU(s) x sched.rt_runtime_us/"
			"sched.rt_period_us) (-EBUSY)\n", p->comm, p->pid, w_new, f_new,
			w_tot, f_tot, w_cap, f_cap, cpus);
	}
	raw_spin_unlock(&dl_b->lock);
	return err;
}

/* What deadline tasks hold now (BW_SHIFT fixed point), for tests. */
u64 dl_bw_total(void)
{
	return READ_ONCE(def_dl_bw.total_bw);
}
