// SPDX-License-Identifier: GPL-2.0
/*
 * start_kernel(): runs on the boot stack as CPU 0's idle task would, brings
 * up the rest of the kernel, then runs what the command line asked for
 * (run=...) and reports the verdict.
 */
#include <linux/kernel.h>
#include <linux/boot_timing.h>
#include <linux/nmi.h>
#include <linux/slab.h>
#include <linux/memblock.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/reboot.h>
#include <linux/run_summary.h>
#include <linux/ubsan.h>
#include <linux/start_kernel.h>
#include <linux/ktest.h>
#include <linux/console.h>
#include <asm/bootparam.h>
#include <asm/pgtable.h>
#include <asm/processor.h>
#include <asm/tsc.h>
#include <asm/apic.h>
#include <asm/io_apic.h>
#include <asm/hpet.h>
#include <asm/desc.h>
#include <asm/cpu_entry_area.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <linux/irq.h>
#include <linux/irqflags.h>
#include <linux/sched.h>
#include <linux/ktime.h>
#include <linux/kthread.h>
#include <linux/completion.h>
#include <linux/lockdep.h>
#include <linux/fault-inject.h>
#include <linux/trace_irqsoff.h>
#include <asm/perf_event.h>
#include <linux/perf_stat.h>
#include <linux/profile.h>
#include <linux/rcupdate.h>
#include <linux/swap.h>
#include <linux/vmstat.h>
#include <linux/slab.h>
#include <linux/kasan.h>
#include <linux/cpu.h>
#include <linux/stop_machine.h>
#include <linux/workqueue.h>
#include <linux/interrupt.h>

static char boot_command_line[BOOT_INFO_CMDLINE_MAX];
extern u64 acpi_hpet_addr;
void acpi_boot_init(void);
void tick_setup_local(void);
void sched_init_smp(void);
DECLARE_PER_CPU(unsigned long, hardirq_stack_ptr);
static const char *run_list = "";
core_param("run", run_list, charp,
	   "comma-separated workloads to run after boot (see the list at boot)");

/*
 * Under icount a boot is one exact trajectory: the same image and command
 * line give the same figures, but a few instructions more anywhere before
 * the workload move every later tick, wakeup and preemption against it,
 * and a contended workload (hackbench) then takes another path.
 * run.skew_ns= starts the workloads that much later, so that repeated
 * boots sample the workload over tick phases (tools/irqlab's icount
 * matrices with skew_ns set) instead of showing one phase as the figure.
 */
static unsigned int run_skew_ns;
core_param_range("run.skew_ns", run_skew_ns, uint, 0, 1000000000,
		 "start the workloads this many ns later (tick phase; 0: at once)");

static void run_skew(void)
{
	u64 start;

	if (!run_skew_ns)
		return;
	pr_info("irqlab: workloads start %u ns late (run.skew_ns)\n", run_skew_ns);
	/* A busy wait, interrupts and preemption on: it moves the phase only. */
	start = ktime_get_ns();
	while (ktime_get_ns() - start < run_skew_ns)
		cond_resched();
}

static const struct irqlab_workload workloads[] = {
#ifdef CONFIG_KTEST
	{ "ktest", ktest_run_all, "in-kernel KTAP tests (ktest.filter=<glob>)", WL_ALONE },
	{ "pi_stress", pi_stress_run,
	  "priority-inversion scenarios (pi_stress.groups/iterations/timeout_ms)" },
	{ "slabbench", slabbench_run,
	  "slab allocator costs in cycles (slabbench.loops/sizes/obj_size)" },
	{ "cyclic", cyclic_run,
	  "timer wakeup latency, cyclictest-like (cyclic.cpus/interval_us/prio/loops/"
	  "duration_ms/hist_us)" },
	{ "cyclicdl", cyclicdl_run,
	  "SCHED_DEADLINE wakeup latency, cyclicdeadline-like (cyclicdl.cpus/runtime_us/"
	  "deadline_us/period_us/loops/duration_ms/hist_us)" },
	{ "shrink", shrink_run,
	  "shrink_slab() on every CPU while shrinkers come and go (shrink.count/duration_ms)" },
	{ "files", files_run,
	  "dentry and inode objects freed through RCU callbacks (files.rounds/objects/"
	  "threads/free/drain_max_ns)" },
	{ "rcutorture", rcu_torture_run,
	  "RCU/SRCU torture, Linux rcutorture-like (rcutorture.torture_type/nreaders/"
	  "nfakewriters/stat_interval/irqreader/n_barrier_cbs/duration_ms)" },
	{ "soak", soak_run,
	  "everything at once under 1% injected failures, walks of every cache (soak.seconds/walk_s/fail_pct)",
	  WL_ALONE },
	{ "hotplug", hotplug_run,
	  "CPUs offline and online in a loop; run with hackbench as load (hotplug.cycles/cpus)" },
	{ "hackbench", hackbench_run,
	  "messaging over kmalloc'd buffers (hackbench.groups/fds/loops/size/affinity)",
	  WL_LOAD, hackbench_end },
	{ "hwlat", hwlat_run,
	  "IRQs-off TSC gaps, hwlat tracer-like (hwlat.cpus/width_us/window_us/"
	  "threshold_us/windows)" },
	{ "osnoise", osnoise_run,
	  "per-CPU spinner noise, rtla osnoise-like (osnoise.cpus/period_us/runtime_us/"
	  "threshold_ns/duration_ms/policy/prio)" },
	{ "ptsema", ptsema_run,
	  "rt_mutex hand-over latency, ptsematest-like (ptsema.pairs/loops/interval_us/"
	  "distance_us/prio/affinity)" },
	{ "rt_migrate", rt_migrate_run,
	  "RT tasks run by priority, rt-migrate-test-like (rt_migrate.tasks/prio/run_us/"
	  "interval_us/loops/maxerr_us)" },
#endif
};

static void print_workloads(void)
{
	pr_err("irqlab: valid workloads:");
	for (unsigned int i = 0; i < ARRAY_SIZE(workloads); i++)
		pr_cont(" %s", workloads[i].name);
	pr_cont("\n");
}

/* ------------------------------------------------------------ run= */

/* One run's counts into @runs, with the PMU total pmu_workload_end() printed. */
static void perf_stat_count(struct perf_stat_runs *runs, const struct perf_stat_counts *before,
			    const struct perf_stat_counts *after)
{
	struct perf_stat_counts d;

	perf_stat_delta(before, after, &d);
	perf_stat_take_pmu(&d);
	perf_stat_runs_add(runs, &d);
}

#define MAX_GROUP	8

struct wl_thread {
	const struct irqlab_workload *w;
	bool *stop;			/* the measuring workloads are done */
	int failed;
	unsigned int rounds;
	struct completion done;
};

static int wl_thread_fn(void *arg)
{
	struct wl_thread *wt = arg;

	do {
		if (wt->w->run())
			wt->failed++;
		wt->rounds++;
	} while ((wt->w->flags & WL_LOAD) && !READ_ONCE(*wt->stop));
	if (wt->w->end)
		wt->w->end();
	complete(&wt->done);
	return 0;
}

/*
 * Run @n workloads together, each in a thread of its own, with the
 * console held so that what one prints does not stall another's
 * measurement.  Load workloads repeat until the measuring ones are done.
 */
static int run_group(const struct irqlab_workload **g, unsigned int n,
		     struct perf_stat_runs *runs)
{
	struct perf_stat_counts before, after;
	static struct wl_thread wt[MAX_GROUP];
	char name[96] = "";
	bool stop = true;
	int failed = 0;

	for (unsigned int i = 0; i < n; i++) {
		if (!(g[i]->flags & WL_LOAD))
			stop = false;
		snprintf(name + strlen(name), sizeof(name) - strlen(name), "%s%s",
			 i ? "+" : "", g[i]->name);
	}
	pr_info("irqlab: running %s together%s\n", name,
		stop ? "" : " (loads repeat until the measurements end)");
	latency_tracer_start();
	pmu_workload_begin();
	console_hold();
	perf_stat_locks_begin();
	perf_stat_read(&before);
	profile_workload_begin();
	for (unsigned int i = 0; i < n; i++) {
		wt[i] = (struct wl_thread){ .w = g[i], .stop = &stop };
		init_completion(&wt[i].done);
		if (!kthread_run(wl_thread_fn, &wt[i], "run/%s", g[i]->name)) {
			pr_err("irqlab: no thread for workload %s\n", g[i]->name);
			wt[i].failed = 1;
			complete(&wt[i].done);
		}
	}
	for (unsigned int i = 0; i < n; i++)
		if (!(g[i]->flags & WL_LOAD))
			wait_for_completion(&wt[i].done);
	WRITE_ONCE(stop, true);
	for (unsigned int i = 0; i < n; i++)
		if (g[i]->flags & WL_LOAD)
			wait_for_completion(&wt[i].done);
	profile_workload_end();
	perf_stat_read(&after);
	perf_stat_locks_end();
	console_unhold();
	pmu_workload_end(name);
	perf_stat_count(runs, &before, &after);
	for (unsigned int i = 0; i < n; i++) {
		if (g[i]->flags & WL_LOAD)
			pr_info("irqlab: %s ran %u round(s)\n", g[i]->name, wt[i].rounds);
		failed += wt[i].failed ? 1 : 0;
	}
	latency_tracer_report(name);
	return failed;
}

static bool in_group(const struct irqlab_workload **g, unsigned int n,
		     const struct irqlab_workload *w)
{
	for (unsigned int i = 0; i < n; i++)
		if (g[i] == w)
			return true;
	return false;
}

/* ktest is no workload to count: @runs is NULL for it. */
static int run_one(const struct irqlab_workload *w, struct perf_stat_runs *runs)
{
	struct perf_stat_counts before, after;
	int failed;

	latency_tracer_start();
	pmu_workload_begin();
	if (runs)
		perf_stat_locks_begin();
	perf_stat_read(&before);
	if (runs)
		profile_workload_begin();
	failed = w->run() ? 1 : 0;
	if (w->end)
		w->end();
	if (runs)
		profile_workload_end();
	perf_stat_read(&after);
	if (runs)
		perf_stat_locks_end();
	pmu_workload_end(w->name);
	if (runs)
		perf_stat_count(runs, &before, &after);
	latency_tracer_report(w->name);
	return failed;
}

static const struct irqlab_workload *find_workload(const char *name)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(workloads); i++)
		if (!strcmp(workloads[i].name, name))
			return &workloads[i];
	return NULL;
}

/* Every name in run= must be a workload: checked before any of them runs. */
static unsigned int check_run_list(void)
{
	char list[256], *save, *name;
	unsigned int errors = 0;

	strncpy(list, run_list, sizeof(list) - 1);
	list[sizeof(list) - 1] = '\0';
	for (name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		if (find_workload(name))
			continue;
		pr_err("irqlab: unknown workload '%s' in run=\n", name);
		print_workloads();
		errors++;
	}
	return errors;
}

/*
 * Run one workload or a group perf.repeat times, then print perf stat's
 * summary of the runs (means, +- over the repeats).
 */
static int run_repeated(const struct irqlab_workload **g, unsigned int n)
{
	struct perf_stat_runs runs = {};
	char name[96] = "";
	int failed = 0;

	for (unsigned int i = 0; i < n; i++)
		snprintf(name + strlen(name), sizeof(name) - strlen(name), "%s%s",
			 i ? "+" : "", g[i]->name);
	for (int r = 0; r < perf_repeat; r++)
		failed += n == 1 ? run_one(g[0], &runs) : run_group(g, n, &runs);
	perf_stat_print(name, &runs, !strcmp(tsc_clock_mode(), "icount"));
	profile_workload_print(name);
	return failed;
}

/*
 * The threads a workload made with ktest_kthread() (cyclic, osnoise, hwlat,
 * pi_stress, ptsema, rt_migrate, slabbench) hold a reference that ktest
 * drops after each case; under run= nothing else would, and each would
 * keep its task and stack for the rest of the boot.
 */
static void reap_workload_threads(void)
{
#ifdef CONFIG_KTEST
	ktest_reap_case_threads();
#endif
}

/*
 * Run what run= names, in order; consecutive workloads other than ktest
 * run together (run=cyclic,hackbench).  check_run_list() has vouched for
 * every name.
 */
static int run_workloads(void)
{
	const struct irqlab_workload *group[MAX_GROUP];
	char list[256], *save, *name;
	unsigned int n = 0;
	int failed = 0;

	strncpy(list, run_list, sizeof(list) - 1);
	list[sizeof(list) - 1] = '\0';
	for (name = strtok_r(list, ",", &save); ; name = strtok_r(NULL, ",", &save)) {
		const struct irqlab_workload *w = NULL;

		if (name) {
			w = find_workload(name);
			if (!w)
				continue;
			/* A name twice in a row starts a new group: one state each. */
			if (!(w->flags & WL_ALONE) && n < MAX_GROUP && !in_group(group, n, w)) {
				group[n++] = w;
				continue;
			}
		}
		/* The group so far ends here. */
		if (n) {
			failed += run_repeated(group, n);
			reap_workload_threads();
		}
		n = 0;
		if (!name)
			break;
		if (w->flags & WL_ALONE)
			failed += run_one(w, NULL);
		else
			group[n++] = w;		/* a full group: this one starts the next */
	}
	return failed;
}

u64 irqlab_banner_seq = ~0ULL;

/*
 * What a nanosecond in the figures that follow is: the line a reader needs
 * before trusting (or not) any of them.  Printed once the clock is final
 * (the HPET refines the early PIT calibration, and only the refined figure
 * tells icount's exact 1 GHz from TCG) and the CPUs are up.
 */
static void print_mode_line(void)
{
	const char *mode = tsc_clock_mode();
	unsigned int cpus = num_online_cpus();

	if (!strcmp(mode, "icount") && cpus == 1)
		pr_info("irqlab: mode icount: 1 ns = 1 guest instruction; figures are exact and "
			"repeatable (SMP=1)\n");
	else if (!strcmp(mode, "icount"))
		pr_info("irqlab: mode icount: 1 ns = 1 guest instruction; figures are NOT exact "
			"(SMP=%u: the vCPUs take turns on one host thread, so each one's time "
			"depends on that interleave)\n", cpus);
	else if (!strcmp(mode, "TCG"))
		pr_info("irqlab: mode TCG: 1 ns = 1 ns of an emulator's wall clock; figures are "
			"host noise, not latency (SMP=%u)\n", cpus);
	else if (!strcmp(mode, "KVM"))
		pr_info("irqlab: mode KVM: 1 ns = 1 ns of host time; figures include the host's "
			"scheduling of the vCPUs (SMP=%u)\n", cpus);
	else if (!strcmp(mode, "hardware"))
		pr_info("irqlab: mode hardware: 1 ns = 1 ns of the TSC; figures are this "
			"machine's latency (%u CPUs)\n", cpus);
	else
		pr_info("irqlab: mode %s: 1 ns = 1 ns of this hypervisor's TSC; figures include "
			"its scheduling of the vCPUs (SMP=%u)\n", mode, cpus);
}

static void print_boot_banner(void)
{
	/* The first line fleet tools (LAVA) look for; keep its format. */
	irqlab_banner_seq = printk_next_seq();
	pr_info("irqlab: start %s %s\n", IRQLAB_VERSION, irqlab_config_hash);
	pr_info("Boot protocol: %s, loader: %s\n",
		boot_protocol_name(boot_info.protocol), boot_info.loader);
	pr_info("Command line: %s\n", boot_info.cmdline);
	pr_info("CPU: %s family %u model %u stepping %u%s%s\n",
		boot_cpu_data.vendor, boot_cpu_data.family, boot_cpu_data.model,
		boot_cpu_data.stepping, boot_cpu_data.has_hypervisor ? ", hypervisor " : "",
		boot_cpu_data.hypervisor);
	if (tsc_khz)
		pr_info("tsc: %lu.%03lu MHz (%s)\n", tsc_khz / 1000, tsc_khz % 1000,
			tsc_calibration_source);
	else
		pr_warn("tsc: not calibrated: timestamps read 0\n");
}

static unsigned int cmdline_errors;
unsigned int ktap_verdict_number;

/*
 * The run's verdict as a top-level KTAP result, so that a parser that
 * reads only KTAP (kunit.py, LAVA) sees what the end status says.  The
 * diagnostic line before it gives the reason, as KUnit prints a case's
 * lines before its result.
 */
static void ktap_print_verdict(unsigned int number, const char *name, bool ok,
			       const char *why)
{
	if (!ok)
		pr_info("# %s: %s\n", name, why);
	pr_info("%s %u %s\n", ok ? "ok" : "not ok", number, name);
}

/*
 * Hand the first error printed since @seq to the summary line, which
 * repeats it (a reader of the last line should not have to scroll up).
 */
static char first_cmdline_error[160];

static void note_cmdline_error(u64 seq)
{
	char buf[160];
	int level;

	for (; seq < printk_next_seq(); seq++) {
		int len = printk_read_record(seq, buf, sizeof(buf), &level, NULL);

		if (len <= 0 || level > LOGLEVEL_ERR)
			continue;
		while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
			buf[--len] = '\0';
		run_summary_cmdline_error(buf);
		if (!first_cmdline_error[0])
			strlcpy(first_cmdline_error, buf, sizeof(first_cmdline_error));
		return;
	}
}

/*
 * A bad parameter or workload name ends the run before anything is
 * measured: a workload running on defaults the user did not ask for
 * gives figures that answer another question.
 */
static __noreturn void cmdline_error_exit(void)
{
	char verdict[48];

	pr_err("irqlab: %u command-line error(s): no workload was run\n", cmdline_errors);
	snprintf(verdict, sizeof(verdict), "bad command line (%u error%s)", cmdline_errors,
		 cmdline_errors > 1 ? "s" : "");
	/* Nothing printed KTAP yet: a document of one failed result. */
	pr_info("KTAP version 1\n");
	pr_info("1..1\n");
	ktap_print_verdict(1, "cmdline", false, first_cmdline_error);
	run_summary_print(verdict);
	irqlab_exit(EXIT_BAD_CMDLINE);
}

/* Append one reason for a failed run to @buf (a 128-byte array). */
static void verdict_add(char *buf, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n)
		n += snprintf(buf + n, 128 - n, ", ");
	if (n >= 128)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, 128 - n, fmt, ap);
	va_end(ap);
}

/*
 * Constructors of instrumented files (KASAN registers global variables
 * from them), run where Linux's do_basic_setup() runs them.
 */
static void do_ctors(void)
{
#ifdef CONFIG_CONSTRUCTORS
	typedef void (*ctor_fn_t)(void);
	extern ctor_fn_t __ctors_start[], __ctors_end[];

	for (ctor_fn_t *fn = __ctors_start; fn < __ctors_end; fn++)
		(*fn)();
#endif
}

/*
 * Linux's early initcalls that irqlab has, called where Linux calls them:
 * the PMU's capabilities, the boot CPU's ksoftirqd and stopper (the APs'
 * come from CPUHP_CREATE_THREADS), RCU's grace-period kthread.
 */
static void do_pre_smp_initcalls(void)
{
	boot_order_mark("do_pre_smp_initcalls");
	x86_pmu_probe();
	spawn_ksoftirqd();
	boot_timing_mark("ksoftirqd", -1);
	cpu_stop_init();
	boot_timing_mark("cpu_stop_init", -1);
	rcu_init_smp();
	boot_timing_mark("rcu", -1);
}

/*
 * What Linux's initcalls would start after SMP: each node's kswapd,
 * KASAN's quarantine hotplug state, the slab caches as something reclaim
 * can shrink, and the constructors.
 */
static void do_basic_setup(void)
{
	boot_order_mark("do_basic_setup");
	kswapd_init();
	kasan_cpu_quarantine_init();
	if (kmem_cache_shrinker_register())
		pr_warn("slab: the slab shrinker could not be registered\n");
	do_ctors();
	boot_timing_mark("kswapd, shrinker, ctors", -1);
}

/* rest_init() has finished the boot CPU's part: pid 1 may go on. */
static DECLARE_COMPLETION(kthreadd_done);

/*
 * In pid 1, in Linux 5.15's order: the rest of SMP set-up, the APs
 * brought up through cpu_up() by smp_init(), then the scheduler's view of
 * them and the remaining set-up.  Linux's set_mems_allowed() here has no
 * counterpart (irqlab has no memory policies: init allocates on any
 * node), nor do the parts for user space and the root file system.
 */
static noinline void kernel_init_freeable(void)
{
	wait_for_completion(&kthreadd_done);
	boot_order_mark("kernel_init_freeable");
	boot_timing_mark("pid 1 runs", -1);
	smp_prepare_cpus();
	workqueue_init();
	boot_timing_mark("workqueue_init", -1);
	init_mm_internals();
	boot_timing_mark("init_mm_internals", -1);
	do_pre_smp_initcalls();
	lockup_detector_init();
	boot_timing_mark("lockup_detector_init", -1);
	smp_init();
	boot_timing_mark("smp_init", -1);
	sched_init_smp();
	print_mode_line();
	do_basic_setup();
}

/*
 * pid 1: kernel_init_freeable(), then what the command line asked for,
 * and the verdict.  Bound to CPU 0 (as Linux's rest_init() binds it to
 * the boot CPU; irqlab leaves it there after sched_init_smp() so that
 * tests start from a known CPU - tests that need other CPUs make their
 * own threads).
 */
static int kernel_init(void *unused)
{
	char why[128] = "", verdict[144];
	int failed;
	u64 seq;

	kernel_init_freeable();
	system_state = SYSTEM_RUNNING;
	/* Boot is over: what it cost in memory and time (make scale reads it). */
	mem_used_report();
#ifdef CONFIG_KTEST_BROKEN_BOOTS
	ktest_selftest_broken_boot();
#endif
	seq = printk_next_seq();
	cmdline_errors += check_run_list();
	note_cmdline_error(seq);
	if (cmdline_errors)
		cmdline_error_exit();
	run_skew();
	failed = run_workloads();
	if (failed)
		verdict_add(why, "%d workload(s) failed", failed);
	fault_inject_report();
	slabinfo_report_at_end();
	vmstat_report_at_end();
	lock_stat_report();
	sched_print_stats();
	if (atomic_read(&sched_bug_count)) {
		pr_err("irqlab: the kernel reported %d scheduling bug(s): see above\n",
		       atomic_read(&sched_bug_count));
		verdict_add(why, "%d scheduling bug(s)", atomic_read(&sched_bug_count));
	}
	/* As a kernel test would: a warning nobody expected is a failure. */
	if (READ_ONCE(taint_warn_count)) {
		pr_err("irqlab: the kernel warned %lu time(s): see above\n",
		       READ_ONCE(taint_warn_count));
		verdict_add(why, "%lu warning(s)", READ_ONCE(taint_warn_count));
	}
	failed += READ_ONCE(taint_warn_count) != 0;
	/* Undefined behaviour the sanitizer caught fails the run as a WARN does. */
	if (atomic_read(&ubsan_report_count)) {
		pr_err("irqlab: UBSAN reported %d undefined behaviour(s): see above\n",
		       atomic_read(&ubsan_report_count));
		verdict_add(why, "%d UBSAN report(s)", atomic_read(&ubsan_report_count));
		failed++;
	}
#ifdef CONFIG_PROVE_LOCKING
	/* Tests forget the reports they provoke; any other one is a bug. */
	if (atomic_read(&lockdep_bug_count)) {
		pr_err("irqlab: lockdep reported %d locking bug(s): see above\n",
		       atomic_read(&lockdep_bug_count));
		verdict_add(why, "%d lockdep report(s)", atomic_read(&lockdep_bug_count));
	}
	failed += atomic_read(&lockdep_bug_count);
#endif
	failed += atomic_read(&sched_bug_count) != 0;
	/* Tests put back the count of the lockups they plant. */
	if (atomic_read(&lockup_report_count)) {
		pr_err("irqlab: %d lockup(s) or RCU stall(s) reported: see above\n",
		       atomic_read(&lockup_report_count));
		verdict_add(why, "%d lockup report(s)", atomic_read(&lockup_report_count));
		failed++;
	}
	/* A KASAN report is a memory-safety bug: tests take back the ones they plant. */
	if (kasan_report_count()) {
		pr_err("irqlab: KASAN reported %lu bug(s): see above\n", kasan_report_count());
		verdict_add(why, "%lu KASAN report(s)", kasan_report_count());
		failed++;
	}
	if (latency_tracer_breach_ns()) {
		verdict_add(why, "tracing_thresh crossed");
		failed++;
	}
	/* Text the console never printed is counted; a lost result fails the run. */
	run_summary_lost("printk", printk_lines_lost());
	if (printk_results_lost()) {
		pr_err("irqlab: %lu result line(s) (records, reports) lost before the console printed them\n",
		       printk_results_lost());
		verdict_add(why, "%lu result line(s) lost", printk_results_lost());
		failed++;
	}
	snprintf(verdict, sizeof(verdict), failed ? "fail (%s)" : "ok", why);
	if (ktap_verdict_number)
		ktap_print_verdict(ktap_verdict_number, "verdict", !failed, verdict);
	run_summary_print(verdict);
	irqlab_exit(failed ? EXIT_TEST_FAILED : EXIT_OK);
}

/*
 * Test switch: leave the boot CPU's idle task migrate-disabled during
 * start-up, as the v2r1 SLUB series did through new_slab(); the next time
 * it schedules, the kernel must report "bad: scheduling from the idle
 * thread!".
 */
static bool idle_migrate_leak;
core_param("ktest.idle_migrate_leak", idle_migrate_leak, bool,
	   "leave the boot idle task migrate-disabled (checks the idle-task report)");

/*
 * As Linux: start pid 1, let it go on with the set-up, and become CPU 0's
 * idle loop.  Everything from smp_prepare_cpus() on runs in pid 1
 * (kernel_init_freeable()), not here.
 */
static __noreturn void rest_init(void)
{
	struct task_struct *init;

	if (idle_migrate_leak)
		migrate_disable();
	init = kthread_create(kernel_init, NULL, "init");

	if (!init)
		panic("cannot create the init thread");
	kthread_bind(init, 0);
	wake_up_process(init);
	boot_order_mark("rest_init");
	system_state = SYSTEM_SCHEDULING;
	complete(&kthreadd_done);
	schedule_preempt_disabled();
	cpu_startup_entry();
}

/*
 * Every possible CPU's entry-area stacks, while memblock hands out memory
 * (Linux's setup_cpu_entry_areas() from trap_init()): the APs come up
 * from pid 1, after mm_init().  An AP without them is not brought up.
 */
static void setup_cpu_entry_areas(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		if (cea_map_cpu(cpu))
			continue;
		if (!cpu)
			panic("cannot map CPU 0's entry-area stacks");
		pr_err("smpboot: no memory for CPU %u's entry-area stacks: not bringing it up\n",
		       cpu);
		cpumask_clear_cpu(cpu, cpu_present_mask);
	}
}

__noreturn void start_kernel(void)
{
	u64 seq;

	/* Early boot must not be preempted (a barrier without PREEMPT_COUNT). */
	preempt_disable();
	print_boot_banner();
	strcpy(boot_command_line, boot_info.cmdline);
	seq = printk_next_seq();
	parse_args("irqlab", boot_command_line, __start___param,
		   __stop___param - __start___param, &cmdline_errors);
	note_cmdline_error(seq);

	setup_memory();
	paging_init();
	kasan_init();
	newlib_init();
	pr_info("Memory: %lluK RAM, %lluK reserved at boot\n",
		(unsigned long long)memblock_phys_mem_size() >> 10,
		(unsigned long long)memblock_reserved_size() >> 10);

	apic_bsp_setup();
	acpi_boot_init();
	/* console= and SPCR are both known now: the consoles can be chosen. */
	seq = printk_next_seq();
	cmdline_errors += console_init();
	note_cmdline_error(seq);
	smp_prefill_possible_map();
	setup_per_cpu_areas();
	boot_cpu_hotplug_init();
	sched_init();
	rcu_init();
	setup_cpu_entry_areas();
	cpu_init(0);
	this_cpu_write(hardirq_stack_ptr, cea_stack_top(0, CEA_STACK_IRQ));
	early_irq_init();
	setup_local_APIC();
	setup_IO_APIC();
	if (hpet_enable(acpi_hpet_addr))
		tsc_init();
	lapic_timer_calibrate();
	setup_APIC_timer();
	tick_setup_local();
	local_irq_enable();
	hrtimers_init();
	reserve_real_mode();
	mm_init();
	rest_init();
}
