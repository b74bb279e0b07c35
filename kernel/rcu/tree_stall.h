/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RCU CPU stall warnings (Linux 5.15's kernel/rcu/tree_stall.h), included
 * by tree.c.
 *
 * A grace period that started more than rcupdate.rcu_cpu_stall_timeout
 * seconds ago is reported from the scheduler tick (rcu_pending() ->
 * check_cpu_stall(), hard IRQ): by a CPU the GP still waits for as a
 * "self-detected stall", by any other CPU as "detected stalls on
 * CPUs/tasks" naming the CPUs and the preempted readers that hold it up,
 * with the stalled CPUs' backtraces (by NMI for other CPUs).  One CPU
 * reports: whoever moves rcu_state.jiffies_stall on with cmpxchg().  The
 * next report of the same GP comes three timeouts later.
 */

int rcu_cpu_stall_suppress;
int rcu_cpu_stall_timeout = CONFIG_RCU_CPU_STALL_TIMEOUT;
core_param("rcupdate.rcu_cpu_stall_suppress", rcu_cpu_stall_suppress, int,
	   "nonzero: no RCU CPU stall warnings");
core_param("rcupdate.rcu_cpu_stall_timeout", rcu_cpu_stall_timeout, int,
	   "seconds a grace period may take before a stall warning (3..300)");

/* Two jiffies' grace for a stalled CPU to report itself before others do. */
#define RCU_STALL_RAT_DELAY	2

static bool rcu_stall_is_suppressed(void)
{
	return READ_ONCE(rcu_cpu_stall_suppress);
}

/* The timeout in jiffies, pulled into [3, 300] s as Linux does. */
static unsigned long rcu_jiffies_till_stall_check(void)
{
	int till_stall_check = READ_ONCE(rcu_cpu_stall_timeout);

	if (till_stall_check < 3) {
		WRITE_ONCE(rcu_cpu_stall_timeout, 3);
		till_stall_check = 3;
	} else if (till_stall_check > 300) {
		WRITE_ONCE(rcu_cpu_stall_timeout, 300);
		till_stall_check = 300;
	}
	return till_stall_check * HZ;
}

/* Irqs off: the current GP gets a full timeout from now. */
void rcu_cpu_stall_reset(void)
{
	WRITE_ONCE(rcu_state.jiffies_stall, jiffies + rcu_jiffies_till_stall_check());
}

/* A GP starts (rnp->lock held): when it would begin to count as stalled. */
static void record_gp_stall_check_time(void)
{
	unsigned long j = jiffies;

	WRITE_ONCE(rcu_state.gp_start, j);
	/* gp_start is visible before the deadline, and both before gp_seq. */
	smp_mb();
	WRITE_ONCE(rcu_state.jiffies_stall, j + rcu_jiffies_till_stall_check());
	rcu_state.n_force_qs_gpstart = READ_ONCE(rcu_state.n_force_qs);
}

static void zero_cpu_stall_ticks(struct rcu_data *rdp)
{
	rdp->ticks_this_gp = 0;
}

/* One line per CPU that holds up the GP. */
static void print_cpu_stall_info(int cpu)
{
	struct rcu_data *rdp = per_cpu_ptr(&rcu_data, cpu);
	unsigned long behind = rcu_seq_ctr(rcu_state.gp_seq - rdp->gp_seq);

	pr_err("\t%d-%c%c: (%lu %s) fqs=%lu\n", cpu,
	       "O."[!!cpu_online(cpu)],
	       "o."[!!(rdp->grpmask & rdp->mynode->qsmaskinit)],
	       behind ? behind : rdp->ticks_this_gp,
	       behind ? "GPs behind" : "ticks this GP",
	       READ_ONCE(rcu_state.n_force_qs) - rcu_state.n_force_qs_gpstart);
}

#ifdef CONFIG_PREEMPT_RCU
/* rnp->lock held, released here: the readers the GP waits for. */
static int rcu_print_task_stall(struct rcu_node *rnp, unsigned long flags)
{
	struct list_head *pos;
	int ndetected = 0;

	if (!rcu_preempt_blocked_readers_cgp(rnp)) {
		raw_spin_unlock_irqrestore(&rnp->lock, flags);
		return 0;
	}
	pr_err("\tTasks blocked on level-0 rcu_node (CPUs %d-%d):", rnp->grplo, rnp->grphi);
	/* From gp_tasks to the end: the readers of this GP. */
	for (pos = rnp->gp_tasks; pos != &rnp->blkd_tasks; pos = pos->next) {
		struct task_struct *t = list_entry(pos, struct task_struct, rcu_node_entry);

		pr_cont(" P%d(%.16s)", t->pid, t->comm);
		ndetected++;
	}
	pr_cont("\n");
	raw_spin_unlock_irqrestore(&rnp->lock, flags);
	return ndetected;
}
#else
static int rcu_print_task_stall(struct rcu_node *rnp, unsigned long flags)
{
	raw_spin_unlock_irqrestore(&rnp->lock, flags);
	return 0;
}
#endif

/* @cpu's stack: from the tick's registers on this CPU, by NMI elsewhere. */
static void rcu_dump_one_cpu(int cpu)
{
	struct pt_regs *regs = get_irq_regs();

	if (cpu != smp_processor_id()) {
		trigger_cpumask_backtrace(cpumask_of(cpu));
		return;
	}
	pr_err("Backtrace for cpu %d (the detecting CPU)\n", cpu);
	if (regs)
		show_regs(regs);
	else
		dump_stack();
}

/*
 * The stalled CPUs' stacks: this CPU's from the tick's registers (the
 * code the tick interrupted), the others' by NMI.
 */
static void rcu_dump_cpu_stacks(void)
{
	struct rcu_node *rnp = rcu_get_root();
	int cpu, this = smp_processor_id();
	struct cpumask others;
	unsigned long flags;

	cpumask_clear(&others);
	raw_spin_lock_irqsave(&rnp->lock, flags);
	for_each_possible_cpu(cpu) {
		if (!(rnp->qsmask & per_cpu_ptr(&rcu_data, cpu)->grpmask))
			continue;
		if (!cpu_online(cpu))
			pr_err("Offline CPU %d blocking current GP.\n", cpu);
		else if (cpu != this)
			cpumask_set_cpu(cpu, &others);
	}
	raw_spin_unlock_irqrestore(&rnp->lock, flags);
	if (rnp->qsmask & this_cpu_ptr(&rcu_data)->grpmask)
		rcu_dump_one_cpu(this);
	if (cpumask_weight(&others))
		trigger_cpumask_backtrace(&others);
}

/*
 * No GP is ending because the GP kthread does not get to run: say so, and
 * show what its CPU runs instead.  Linux's kthread wakes every few
 * jiffies during a GP and so keeps gp_activity fresh; irqlab's sleeps
 * until a QS wakes it (see rcu_gp_fqs_loop()), so only a kthread that is
 * runnable and still idle for two seconds counts as starved.
 */
static void rcu_check_gp_kthread_starvation(void)
{
	struct task_struct *gpk = rcu_state.gp_kthread;
	unsigned long j = jiffies - READ_ONCE(rcu_state.gp_activity);

	if (!gpk || j <= 2 * HZ || READ_ONCE(gpk->__state) != TASK_RUNNING)
		return;
	pr_err("rcu: %s kthread starved for %ld jiffies! g%ld f%#x state %d ->state=%#x ->cpu=%d\n",
	       rcu_state.name, (long)j, (long)rcu_seq_current(&rcu_state.gp_seq),
	       READ_ONCE(rcu_state.gp_flags), READ_ONCE(rcu_state.gp_state),
	       READ_ONCE(gpk->__state), task_cpu(gpk));
	pr_err("rcu: Stack dump where RCU GP kthread last ran:\n");
	rcu_dump_one_cpu(task_cpu(gpk));
}

static void print_other_cpu_stall(unsigned long gp_seq, unsigned long gps)
{
	struct rcu_node *rnp = rcu_get_root();
	unsigned long flags;
	int cpu, ndetected = 0;

	if (rcu_stall_is_suppressed())
		return;
	pr_err("rcu: INFO: %s detected stalls on CPUs/tasks:\n", rcu_state.name);
	raw_spin_lock_irqsave(&rnp->lock, flags);
	for_each_possible_cpu(cpu) {
		if (rnp->qsmask & per_cpu_ptr(&rcu_data, cpu)->grpmask) {
			print_cpu_stall_info(cpu);
			ndetected++;
		}
	}
	ndetected += rcu_print_task_stall(rnp, flags);	/* drops rnp->lock */
	pr_err("\t(detected by %d, t=%ld jiffies, g=%ld)\n", smp_processor_id(),
	       (long)(jiffies - gps), (long)rcu_seq_current(&rcu_state.gp_seq));
	if (ndetected) {
		rcu_dump_cpu_stacks();
	} else if (rcu_seq_current(&rcu_state.gp_seq) != gp_seq) {
		pr_err("rcu: INFO: Stall ended before state dump start\n");
	} else {
		pr_err("rcu: All QSes seen, %s kthread state %d, root ->qsmask %#lx\n",
		       rcu_state.name, READ_ONCE(rcu_state.gp_state),
		       READ_ONCE(rcu_get_root()->qsmask));
	}
	/* A slow console must not make the next check fire at once. */
	if (ULONG_CMP_GE(jiffies, READ_ONCE(rcu_state.jiffies_stall)))
		WRITE_ONCE(rcu_state.jiffies_stall,
			   jiffies + 3 * rcu_jiffies_till_stall_check() + 3);
	rcu_check_gp_kthread_starvation();
	/*
	 * Counted last: the stalled CPU or reader may be watching the count
	 * (the planted stalls do), and the stacks above must show it stalled.
	 */
	lockup_report_done();
}

static void print_cpu_stall(unsigned long gps)
{
	struct rcu_data *rdp = this_cpu_ptr(&rcu_data);
	struct rcu_node *rnp = rcu_get_root();
	unsigned long flags;

	if (rcu_stall_is_suppressed())
		return;
	pr_err("rcu: INFO: %s self-detected stall on CPU\n", rcu_state.name);
	raw_spin_lock_irqsave(&rdp->mynode->lock, flags);
	print_cpu_stall_info(smp_processor_id());
	raw_spin_unlock_irqrestore(&rdp->mynode->lock, flags);
	pr_err("\t(t=%lu jiffies g=%ld)\n", jiffies - gps,
	       (long)rcu_seq_current(&rcu_state.gp_seq));
	rcu_check_gp_kthread_starvation();
	rcu_dump_cpu_stacks();
	raw_spin_lock_irqsave(&rnp->lock, flags);
	if (ULONG_CMP_GE(jiffies, READ_ONCE(rcu_state.jiffies_stall)))
		WRITE_ONCE(rcu_state.jiffies_stall,
			   jiffies + 3 * rcu_jiffies_till_stall_check() + 3);
	raw_spin_unlock_irqrestore(&rnp->lock, flags);
	lockup_report_done();	/* complete: see linux/nmi.h */
	/* A context switch is a QS: ask for one at the next chance. */
	set_tsk_need_resched(current);
}

/* From the tick, irqs off. */
static void check_cpu_stall(struct rcu_data *rdp)
{
	unsigned long gs1, gs2, gps, j, jn, js;
	struct rcu_node *rnp;
	bool didstall = false;

	if (rcu_stall_is_suppressed() || !rcu_gp_in_progress())
		return;
	j = jiffies;
	/*
	 * GP start and cleanup write gp_seq, jiffies_stall and gp_start in
	 * the opposite order, with barriers: reading them in this order, a
	 * GP that ended and another that began in between shows as a changed
	 * gp_seq, and anything else is a consistent snapshot.
	 */
	gs1 = READ_ONCE(rcu_state.gp_seq);
	smp_rmb();
	js = READ_ONCE(rcu_state.jiffies_stall);
	smp_rmb();
	gps = READ_ONCE(rcu_state.gp_start);
	smp_rmb();
	gs2 = READ_ONCE(rcu_state.gp_seq);
	if (gs1 != gs2 || ULONG_CMP_LT(j, js) || ULONG_CMP_GE(gps, js))
		return;
	rnp = rdp->mynode;
	/* Far in the future while this CPU reports, so nobody else does. */
	jn = jiffies + ULONG_MAX / 2;
	if (rcu_gp_in_progress() && (READ_ONCE(rnp->qsmask) & rdp->grpmask) &&
	    cmpxchg(&rcu_state.jiffies_stall, js, jn) == js) {
		print_cpu_stall(gps);
		didstall = true;
	} else if (rcu_gp_in_progress() && ULONG_CMP_GE(j, js + RCU_STALL_RAT_DELAY) &&
		   cmpxchg(&rcu_state.jiffies_stall, js, jn) == js) {
		print_other_cpu_stall(gs2, gps);
		didstall = true;
	}
	if (didstall && READ_ONCE(rcu_state.jiffies_stall) == jn) {
		jn = jiffies + 3 * rcu_jiffies_till_stall_check() + 3;
		WRITE_ONCE(rcu_state.jiffies_stall, jn);
	}
}
