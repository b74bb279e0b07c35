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
 * A task's bandwidth is released when it leaves the class or exits.
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

/* The per-CPU share deadline tasks may hold; -1 for no limit. */
static u64 global_dl_share(void)
{
	static bool warned;
	long long runtime = sysctl_sched_rt_runtime, period = sysctl_sched_rt_period;

	if (runtime < 0)
		return (u64)-1;
	if (runtime > period) {
		if (!warned) {
			warned = true;
			pr_err("sched: sched.rt_runtime_us=%lld exceeds sched.rt_period_us=%lld "
			       "(Linux refuses that): deadline tasks limited to 100%% of each CPU\n",
			       runtime, period);
		}
		runtime = period;
	}
	return to_ratio(period * NSEC_PER_USEC, runtime * NSEC_PER_USEC);
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
	dl_se->flags = attr->sched_flags;
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
	attr->sched_flags = dl_se->flags;
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
 * Admission control for @p moving to @policy with @attr: reserve, change
 * or release its bandwidth.  0, or -EBUSY (with a message) if the new
 * reservation does not fit.  Called with p->pi_lock and its rq lock held.
 */
int sched_dl_overflow(struct task_struct *p, int policy, const struct sched_attr *attr)
{
	u64 period = attr->sched_period ?: attr->sched_deadline;
	u64 new_bw = dl_policy(policy) ? to_ratio(period, attr->sched_runtime) : 0;
	struct dl_bw *dl_b = &def_dl_bw;
	int cpus = num_online_cpus(), err = -EBUSY;
	u64 old_bw = task_has_dl_policy(p) ? p->dl.dl_bw : 0;

	if (new_bw == p->dl.dl_bw && task_has_dl_policy(p))
		return 0;
	raw_spin_lock(&dl_b->lock);
	dl_b->bw = global_dl_share();
	if (dl_policy(policy) && !__dl_overflow(dl_b, cpus, old_bw, new_bw)) {
		dl_b->total_bw = dl_b->total_bw - old_bw + new_bw;
		err = 0;
	} else if (!dl_policy(policy) && task_has_dl_policy(p)) {
		dl_b->total_bw -= old_bw;
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

/* A dead deadline task's reservation goes back to the pool. */
void dl_bw_release(struct task_struct *p)
{
	unsigned long flags;

	if (!task_has_dl_policy(p))
		return;
	raw_spin_lock_irqsave(&def_dl_bw.lock, flags);
	def_dl_bw.total_bw -= p->dl.dl_bw;
	raw_spin_unlock_irqrestore(&def_dl_bw.lock, flags);
}

/* What deadline tasks hold now (BW_SHIFT fixed point), for tests. */
u64 dl_bw_total(void)
{
	return READ_ONCE(def_dl_bw.total_bw);
}
