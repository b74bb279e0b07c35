// SPDX-License-Identifier: GPL-2.0
/*
 * CPU hotplug: the cpuhp state machine, cpu_down() and cpu_up().
 *
 * Every CPU has a current state (enum cpuhp_state).  Bringing a CPU up
 * walks its state upwards and calls each state's startup callback on the
 * way; taking it down walks back and calls the teardowns.  Which CPU runs
 * a callback is decided by the section the state is in (see
 * include/linux/cpuhotplug.h):
 *
 *   - the control CPU (the caller of cpu_up()/cpu_down()) runs the
 *     "prepare" section below CPUHP_BRINGUP_CPU: startups before the CPU
 *     is started, teardowns (the _DEAD callbacks) after it has stopped;
 *   - the plugged CPU runs the "starting/dying" section itself with IRQs
 *     off: on the way up from start_secondary() (notify_cpu_starting()),
 *     on the way down inside stop_machine (take_cpu_down());
 *   - the plugged CPU's cpuhp/N thread runs the online section above
 *     CPUHP_AP_ONLINE_IDLE, preemptible and allowed to sleep.
 *
 * cpu_add_remove_lock serialises the operations; cpu_hotplug_lock is held
 * for writing across each so that a cpus_read_lock() holder sees a stable
 * cpu_online_mask.  cpu_hotplug_lock is a percpu_rw_semaphore as in
 * Linux: a reader only bumps its CPU's count while no operation runs.
 */
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/completion.h>
#include <linux/errno.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/percpu-rwsem.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/stop_machine.h>
#include <linux/irqflags.h>
#include <linux/lockdep.h>
#include <linux/sched/hotplug.h>
#include <linux/smpboot.h>
#include <linux/rcupdate.h>
#include <linux/nmi.h>
#include <linux/kasan.h>

void tick_offline_cpu(void);

/*
 * Per CPU: where its walk is (state), where it is going (target), and the
 * cpuhp/N thread that runs the online section on it.
 */
struct cpuhp_cpu_state {
	enum cpuhp_state state;
	enum cpuhp_state target;
	struct task_struct *thread;
	bool should_run;		/* the thread has a walk to do */
	bool bringup;			/* its direction */
	bool single;			/* one callback only (cpuhp_setup_state) */
	enum cpuhp_state cb_state;	/* which one */
	int result;
	struct completion done_up;	/* walk up done / CPU reached idle */
	struct completion done_down;	/* walk down done / CPU is dead */
};

static DEFINE_PER_CPU(struct cpuhp_cpu_state, cpuhp_state);

struct cpuhp_step {
	const char *name;
	int (*startup)(unsigned int cpu);
	int (*teardown)(unsigned int cpu);
	bool cant_stop;			/* core state: not removable */
};

static int bringup_cpu(unsigned int cpu);
static int finish_cpu(unsigned int cpu);
static int takedown_cpu(unsigned int cpu);
int smpcfd_dying_cpu(unsigned int cpu);

/* The core's own states; the others are installed by their subsystems. */
static struct cpuhp_step cpuhp_hp_states[CPUHP_ONLINE + 1] = {
	[CPUHP_OFFLINE] = { .name = "offline", .cant_stop = true },
	[CPUHP_CREATE_THREADS] = {
		.name = "threads:prepare",
		.startup = smpboot_create_threads,
		.cant_stop = true,
	},
	[CPUHP_BRINGUP_CPU] = {
		.name = "cpu:bringup",
		.startup = bringup_cpu,
		.teardown = finish_cpu,
		.cant_stop = true,
	},
	[CPUHP_AP_IDLE_DEAD] = { .name = "idle:dead" },
	[CPUHP_AP_OFFLINE] = { .name = "ap:offline", .cant_stop = true },
	[CPUHP_AP_SCHED_STARTING] = {
		.name = "sched:starting",
		.startup = sched_cpu_starting,
		.teardown = sched_cpu_dying,
	},
	[CPUHP_AP_SMPCFD_DYING] = {
		.name = "smpcfd:dying",
		.teardown = smpcfd_dying_cpu,
	},
	[CPUHP_AP_ONLINE] = { .name = "ap:online" },
	[CPUHP_TEARDOWN_CPU] = {
		.name = "cpu:teardown",
		.teardown = takedown_cpu,
		.cant_stop = true,
	},
	[CPUHP_AP_ONLINE_IDLE] = { .name = "ap:online-idle" },
	[CPUHP_AP_SMPBOOT_THREADS] = {
		.name = "smpboot/threads:online",
		.startup = smpboot_unpark_threads,
		.teardown = smpboot_park_threads,
	},
	[CPUHP_AP_WATCHDOG_ONLINE] = {
		.name = "lockup_detector:online",
		.startup = lockup_detector_online_cpu,
		.teardown = lockup_detector_offline_cpu,
	},
	[CPUHP_AP_SCHED_WAIT_EMPTY] = {
		.name = "sched:waitempty",
		.teardown = sched_cpu_wait_empty,
	},
	[CPUHP_AP_ACTIVE] = {
		.name = "sched:active",
		.startup = sched_cpu_activate,
		.teardown = sched_cpu_deactivate,
	},
	[CPUHP_ONLINE] = { .name = "online" },
};

/* Serialises cpu_up()/cpu_down() and the installing of states. */
static DEFINE_MUTEX(cpuhp_state_mutex);
static DEFINE_MUTEX(cpu_add_remove_lock);
DEFINE_STATIC_PERCPU_RWSEM(cpu_hotplug_lock);

/* The reader side is a per-CPU count while no cpu_up()/cpu_down() runs. */
void cpus_read_lock(void)
{
	percpu_down_read(&cpu_hotplug_lock);
}

int cpus_read_trylock(void)
{
	return percpu_down_read_trylock(&cpu_hotplug_lock);
}

void cpus_read_unlock(void)
{
	percpu_up_read(&cpu_hotplug_lock);
}

void cpus_write_lock(void)
{
	percpu_down_write(&cpu_hotplug_lock);
}

void cpus_write_unlock(void)
{
	percpu_up_write(&cpu_hotplug_lock);
}

void lockdep_assert_cpus_held(void)
{
	percpu_rwsem_assert_held(&cpu_hotplug_lock);
}

/* For tests: readers that found a writer around, and readers now. */
long cpus_read_slow_count(void)
{
	return atomic_long_read(&cpu_hotplug_lock.slow_reads);
}

unsigned int cpus_read_holders(void)
{
	return percpu_rwsem_readers(&cpu_hotplug_lock);
}

static void cpu_maps_update_begin(void)
{
	mutex_lock(&cpu_add_remove_lock);
}

static void cpu_maps_update_done(void)
{
	mutex_unlock(&cpu_add_remove_lock);
}

/* ------------------------------------------------------------ the walk */

/* The sections of include/linux/cpuhotplug.h. */
static bool cpuhp_is_ap_state(enum cpuhp_state state)
{
	/* BRINGUP_CPU itself is run by the control CPU. */
	return state > CPUHP_BRINGUP_CPU && state != CPUHP_TEARDOWN_CPU;
}

static bool cpuhp_is_atomic_state(enum cpuhp_state state)
{
	return state >= CPUHP_AP_OFFLINE && state < CPUHP_AP_ONLINE;
}

static struct cpuhp_step *cpuhp_get_step(enum cpuhp_state state)
{
	return &cpuhp_hp_states[state];
}

static int cpuhp_invoke_callback(unsigned int cpu, enum cpuhp_state state, bool bringup)
{
	struct cpuhp_step *step = cpuhp_get_step(state);
	int (*cb)(unsigned int cpu) = bringup ? step->startup : step->teardown;

	if (!cb)
		return 0;
	return cb(cpu);
}

/*
 * Advance @st one callback towards @target: the state whose callback is
 * to run is returned in @state_to_run.  Up, the state is entered and then
 * its startup runs; down, the teardown runs as the state is left.
 */
static bool cpuhp_next_state(bool bringup, enum cpuhp_state *state_to_run,
			     struct cpuhp_cpu_state *st, enum cpuhp_state target)
{
	if (bringup) {
		if (st->state >= target)
			return false;
		*state_to_run = ++st->state;
	} else {
		if (st->state <= target)
			return false;
		*state_to_run = st->state--;
	}
	return true;
}

/*
 * Walk @st to @target.  On a failure the walk goes back to where it
 * started (callbacks of the reverse direction, errors ignored as Linux
 * does on rollback) and the error is returned.
 */
static int cpuhp_invoke_callback_range(bool bringup, unsigned int cpu,
				       struct cpuhp_cpu_state *st, enum cpuhp_state target)
{
	enum cpuhp_state prev = st->state, state;
	int ret = 0;

	while (cpuhp_next_state(bringup, &state, st, target)) {
		ret = cpuhp_invoke_callback(cpu, state, bringup);
		if (!ret)
			continue;
		pr_warn("cpuhp: CPU %u: state %s %s failed: %d\n", cpu,
			cpuhp_get_step(state)->name ?: "?", bringup ? "startup" : "teardown",
			ret);
		/* The failed state is not entered (up) or not left (down). */
		if (bringup)
			st->state--;
		else
			st->state++;
		while (cpuhp_next_state(!bringup, &state, st, prev))
			cpuhp_invoke_callback(cpu, state, !bringup);
		break;
	}
	return ret;
}

/* ------------------------------------------------------------ cpuhp/N */

/*
 * The plugged CPU's half of the online section: the walk (or the single
 * callback) the control CPU asked for, then a completion for it.
 */
static void cpuhp_thread_run(struct cpuhp_cpu_state *st, unsigned int cpu)
{
	if (st->single) {
		if (cpuhp_is_atomic_state(st->cb_state)) {
			local_irq_disable();
			st->result = cpuhp_invoke_callback(cpu, st->cb_state, st->bringup);
			local_irq_enable();
		} else {
			st->result = cpuhp_invoke_callback(cpu, st->cb_state, st->bringup);
		}
	} else {
		st->result = cpuhp_invoke_callback_range(st->bringup, cpu, st, st->target);
	}
}

static int cpuhp_thread_fun(void *data)
{
	unsigned int cpu = (unsigned long)data;
	struct cpuhp_cpu_state *st = per_cpu_ptr(&cpuhp_state, cpu);

	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!READ_ONCE(st->should_run) && !kthread_should_park()) {
			schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);
		if (kthread_should_park()) {
			kthread_parkme();
			continue;
		}
		WARN_ON_ONCE(smp_processor_id() != cpu);
		cpuhp_thread_run(st, cpu);
		WRITE_ONCE(st->should_run, false);
		complete(st->bringup ? &st->done_up : &st->done_down);
	}
	return 0;
}

/* Have cpuhp/@cpu do what @st now asks, and wait for it. */
static int cpuhp_kick_ap_thread(unsigned int cpu, struct cpuhp_cpu_state *st)
{
	if (WARN_ON_ONCE(!st->thread))
		return -ENOENT;
	smp_store_release(&st->should_run, true);
	wake_up_process(st->thread);
	wait_for_completion(st->bringup ? &st->done_up : &st->done_down);
	return st->result;
}

/* Walk @cpu's online section to @target in its cpuhp thread. */
static int cpuhp_kick_ap(unsigned int cpu, struct cpuhp_cpu_state *st, enum cpuhp_state target)
{
	st->single = false;
	st->bringup = st->state < target;
	st->target = target;
	return cpuhp_kick_ap_thread(cpu, st);
}

/* One state's callback on @cpu, where its section runs it. */
static int cpuhp_invoke_ap_callback(unsigned int cpu, enum cpuhp_state state, bool bringup)
{
	struct cpuhp_cpu_state *st = per_cpu_ptr(&cpuhp_state, cpu);

	if (!cpu_online(cpu))
		return 0;
	/* Before the threads exist (early boot): call it from here. */
	if (!st->thread)
		return cpuhp_invoke_callback(cpu, state, bringup);
	st->single = true;
	st->cb_state = state;
	st->bringup = bringup;
	return cpuhp_kick_ap_thread(cpu, st);
}

/* cpuhp/N is made by smpboot, on the control CPU, with the others. */
static void cpuhp_create(unsigned int cpu)
{
	struct cpuhp_cpu_state *st = per_cpu_ptr(&cpuhp_state, cpu);

	init_completion(&st->done_up);
	init_completion(&st->done_down);
}

/* Parked and unparked by takedown_cpu() and bringup_cpu() themselves. */
static struct smp_hotplug_thread cpuhp_threads = {
	.store = &cpuhp_state.thread,
	.thread_fn = cpuhp_thread_fun,
	.create = cpuhp_create,
	.selfparking = true,
	.thread_comm = "cpuhp/%u",
};

/* smp_init(): cpuhp/0 now, each AP's at its CPUHP_CREATE_THREADS. */
void cpuhp_threads_init(void)
{
	BUG_ON(smpboot_register_percpu_thread(&cpuhp_threads));
}

/* start_kernel(): the boot CPU is up, as far as the states go. */
void boot_cpu_hotplug_init(void)
{
	struct cpuhp_cpu_state *st = this_cpu_ptr(&cpuhp_state);

	st->state = st->target = CPUHP_ONLINE;
}

/* ------------------------------------------------------------ the AP's side */

/*
 * On the CPU coming up, from start_secondary() with IRQs off, before it
 * is marked online: the starting section.  These callbacks must not fail.
 */
void notify_cpu_starting(unsigned int cpu)
{
	struct cpuhp_cpu_state *st = per_cpu_ptr(&cpuhp_state, cpu);
	enum cpuhp_state state;

	rcu_cpu_starting(cpu);
	while (cpuhp_next_state(true, &state, st, CPUHP_AP_ONLINE))
		WARN_ON_ONCE(cpuhp_invoke_callback(cpu, state, true));
}

/*
 * The CPU coming up has reached its idle loop: the stopper takes work
 * again and the control CPU may go on with the online section.
 */
void cpuhp_online_idle(enum cpuhp_state state)
{
	struct cpuhp_cpu_state *st = this_cpu_ptr(&cpuhp_state);

	if (state != CPUHP_AP_ONLINE_IDLE)
		return;
	stop_machine_unpark(smp_processor_id());
	st->state = CPUHP_AP_ONLINE_IDLE;
	complete(&st->done_up);
}

/* In stop_machine on the dying CPU, IRQs off everywhere. */
static int take_cpu_down(void *unused)
{
	struct cpuhp_cpu_state *st = this_cpu_ptr(&cpuhp_state);
	enum cpuhp_state target = max_t(int, st->target, CPUHP_AP_OFFLINE), state;
	int cpu = smp_processor_id(), err;

	/* No more interrupts here: out of the online mask, LAPIC quiet. */
	err = __cpu_disable();
	if (err < 0)
		return err;
	/* cpuhp_down_callbacks() is in CPUHP_TEARDOWN_CPU's teardown. */
	WARN_ON(st->state != CPUHP_TEARDOWN_CPU - 1);
	/* The dying section; nothing may fail here any more. */
	while (cpuhp_next_state(false, &state, st, target))
		WARN_ON_ONCE(cpuhp_invoke_callback(cpu, state, false));
	tick_offline_cpu();
	stop_machine_park(cpu);
	return 0;
}

/* On the control CPU, in the CPU's idle task's call: the CPU is dead. */
static void cpuhp_complete_idle_dead(void *arg)
{
	struct cpuhp_cpu_state *st = arg;

	complete(&st->done_down);
}

/*
 * The dying CPU's idle task found its CPU offline: report it, from here
 * with IRQs off, to the control CPU.  complete() cannot be called on a
 * CPU RCU no longer watches, so an online CPU does it.
 */
void cpuhp_report_idle_dead(void)
{
	struct cpuhp_cpu_state *st = this_cpu_ptr(&cpuhp_state);

	BUG_ON(st->state != CPUHP_AP_OFFLINE);
	rcu_report_dead(smp_processor_id());
	st->state = CPUHP_AP_IDLE_DEAD;
	smp_call_function_single(cpumask_first(cpu_online_mask), cpuhp_complete_idle_dead,
				 st, 0);
}

/* ------------------------------------------------------------ control CPU */

/* CPUHP_BRINGUP_CPU's startup: start the CPU and wait for its idle loop. */
static int bringup_cpu(unsigned int cpu)
{
	struct cpuhp_cpu_state *st = per_cpu_ptr(&cpuhp_state, cpu);
	struct task_struct *idle = cpu_rq_idle(cpu);
	int ret;

	/*
	 * A CPU that was online before restarts its idle task at the top of
	 * the stack it died on: drop the red zones of the frames it left.
	 */
	if (idle)
		kasan_unpoison_task_stack(idle);
	ret = __cpu_up(cpu);
	if (ret)
		return ret;
	wait_for_completion(&st->done_up);
	if (WARN_ON_ONCE(!cpu_online(cpu)))
		return -ECANCELED;
	kthread_unpark(st->thread);
	if (st->target <= CPUHP_AP_ONLINE_IDLE)
		return 0;
	return cpuhp_kick_ap(cpu, st, st->target);
}

/* CPUHP_BRINGUP_CPU's teardown: the CPU is gone. */
static int finish_cpu(unsigned int cpu)
{
	return 0;
}

/*
 * CPUHP_TEARDOWN_CPU's teardown, on the control CPU: stop the machine and
 * run the dying section on the CPU, then wait for its idle task to report
 * it dead and for the CPU itself to stop.
 */
static int takedown_cpu(unsigned int cpu)
{
	struct cpuhp_cpu_state *st = per_cpu_ptr(&cpuhp_state, cpu);
	int err;

	/* The cpuhp thread must be off the CPU before it goes. */
	kthread_park(st->thread);
	err = stop_machine_cpuslocked(take_cpu_down, NULL, cpumask_of(cpu));
	if (err) {
		kthread_unpark(st->thread);
		return err;
	}
	BUG_ON(cpu_online(cpu));
	/* The stopper has left the CPU to its idle task: wait for it. */
	wait_for_completion(&st->done_down);
	BUG_ON(st->state != CPUHP_AP_IDLE_DEAD);
	__cpu_die(cpu);
	return 0;
}

static int _cpu_down(unsigned int cpu, enum cpuhp_state target)
{
	struct cpuhp_cpu_state *st = per_cpu_ptr(&cpuhp_state, cpu);
	enum cpuhp_state prev_state;
	int ret = 0;

	if (num_online_cpus() == 1)
		return -EBUSY;
	if (!cpu_present(cpu))
		return -EINVAL;
	cpus_write_lock();
	prev_state = st->state;
	if (st->state > CPUHP_TEARDOWN_CPU) {
		/* The online section, in the CPU's cpuhp thread. */
		ret = cpuhp_kick_ap(cpu, st, max_t(int, CPUHP_TEARDOWN_CPU, target));
		if (ret)
			goto out;
		if (st->state > CPUHP_TEARDOWN_CPU)
			goto out;
	}
	st->target = target;
	/* CPUHP_TEARDOWN_CPU (stop_machine) and the _DEAD callbacks. */
	ret = cpuhp_invoke_callback_range(false, cpu, st, target);
	if (ret && st->state >= CPUHP_TEARDOWN_CPU && st->state < prev_state) {
		/* The take-down failed: the CPU runs on; undo the online section. */
		cpuhp_kick_ap(cpu, st, prev_state);
	}
out:
	cpus_write_unlock();
	return ret;
}

/* Refusals as Linux's cpu_down(): -EBUSY last CPU, -EINVAL no such CPU. */
int cpu_down(unsigned int cpu)
{
	int err;

	if (cpu >= nr_cpu_ids || !cpu_possible(cpu))
		return -EINVAL;
	/*
	 * CPU 0 keeps jiffies, the device interrupts and pid 1: irqlab
	 * treats it as x86 Linux treats a CPU 0 that is not hotpluggable.
	 */
	if (cpu == 0)
		return -EBUSY;
	cpu_maps_update_begin();
	err = _cpu_down(cpu, CPUHP_OFFLINE);
	cpu_maps_update_done();
	return err;
}

static int _cpu_up(unsigned int cpu, enum cpuhp_state target)
{
	struct cpuhp_cpu_state *st = per_cpu_ptr(&cpuhp_state, cpu);
	int ret = 0;

	cpus_write_lock();
	if (!cpu_present(cpu)) {
		ret = -EINVAL;
		goto out;
	}
	/* Already there (maybe a racing caller brought it up): done. */
	if (st->state >= target)
		goto out;
	st->target = target;
	if (st->state > CPUHP_BRINGUP_CPU) {
		ret = cpuhp_kick_ap(cpu, st, target);
		goto out;
	}
	/* The prepare section and the bring-up itself, from here. */
	ret = cpuhp_invoke_callback_range(true, cpu, st, min_t(int, target, CPUHP_BRINGUP_CPU));
out:
	cpus_write_unlock();
	return ret;
}

int cpu_up(unsigned int cpu)
{
	int err;

	if (cpu >= nr_cpu_ids || !cpu_possible(cpu)) {
		pr_err("can't online cpu %u because it is not configured as may-hotadd at boot time\n",
		       cpu);
		return -EINVAL;
	}
	cpu_maps_update_begin();
	err = _cpu_up(cpu, CPUHP_ONLINE);
	cpu_maps_update_done();
	return err;
}

/* ------------------------------------------------------------ installing states */

/* A free slot of a dynamic range, or -ENOSPC. */
static int cpuhp_reserve_state(enum cpuhp_state state)
{
	enum cpuhp_state i, end;

	if (state == CPUHP_AP_ONLINE_DYN)
		end = CPUHP_AP_ONLINE_DYN_END;
	else
		end = CPUHP_BP_PREPARE_DYN_END;
	for (i = state; i <= end; i++)
		if (!cpuhp_hp_states[i].name)
			return i;
	pr_warn("No more dynamic states available for CPU hotplug\n");
	WARN_ON(1);
	return -ENOSPC;
}

static int cpuhp_store_callbacks(enum cpuhp_state state, const char *name,
				 int (*startup)(unsigned int cpu),
				 int (*teardown)(unsigned int cpu))
{
	struct cpuhp_step *sp;
	int ret = 0;

	/*
	 * A NULL name removes the state: the first dynamic slot is the
	 * range's own number, which must then be cleared, not a new slot.
	 */
	if (name && (state == CPUHP_AP_ONLINE_DYN || state == CPUHP_BP_PREPARE_DYN)) {
		ret = cpuhp_reserve_state(state);
		if (ret < 0)
			return ret;
		state = ret;
	}
	sp = cpuhp_get_step(state);
	if (name && sp->name)
		return -EBUSY;
	sp->startup = startup;
	sp->teardown = teardown;
	sp->name = name;
	return ret;
}

/* One callback for @cpu, on the CPU its section says. */
static int cpuhp_issue_call(unsigned int cpu, enum cpuhp_state state, bool bringup)
{
	struct cpuhp_step *sp = cpuhp_get_step(state);

	if (bringup ? !sp->startup : !sp->teardown)
		return 0;
	if (cpuhp_is_ap_state(state))
		return cpuhp_invoke_ap_callback(cpu, state, bringup);
	return cpuhp_invoke_callback(cpu, state, bringup);
}

/* Undo a failed install on the CPUs that had run the startup already. */
static void cpuhp_rollback_install(unsigned int failedcpu, enum cpuhp_state state)
{
	unsigned int cpu;

	for_each_present_cpu(cpu) {
		if (cpu >= failedcpu)
			break;
		if (per_cpu_ptr(&cpuhp_state, cpu)->state >= state)
			cpuhp_issue_call(cpu, state, false);
	}
}

static int __cpuhp_setup_state(enum cpuhp_state state, const char *name, bool invoke,
			       int (*startup)(unsigned int cpu),
			       int (*teardown)(unsigned int cpu))
{
	unsigned int cpu;
	int ret, err;

	if (state < CPUHP_OFFLINE || state > CPUHP_ONLINE || !name)
		return -EINVAL;
	cpus_read_lock();
	mutex_lock(&cpuhp_state_mutex);
	ret = cpuhp_store_callbacks(state, name, startup, teardown);
	if (ret < 0)
		goto out;
	if (ret > 0)
		state = ret;	/* the dynamic slot */
	if (!invoke || !startup)
		goto out;
	for_each_present_cpu(cpu) {
		if (per_cpu_ptr(&cpuhp_state, cpu)->state < state)
			continue;
		err = cpuhp_issue_call(cpu, state, true);
		if (err) {
			if (teardown)
				cpuhp_rollback_install(cpu, state);
			cpuhp_store_callbacks(state, NULL, NULL, NULL);
			ret = err;
			goto out;
		}
	}
out:
	mutex_unlock(&cpuhp_state_mutex);
	cpus_read_unlock();
	/* Dynamic states return their number, fixed ones 0. */
	return ret;
}

int cpuhp_setup_state(enum cpuhp_state state, const char *name,
		      int (*startup)(unsigned int cpu),
		      int (*teardown)(unsigned int cpu))
{
	return __cpuhp_setup_state(state, name, true, startup, teardown);
}

int cpuhp_setup_state_nocalls(enum cpuhp_state state, const char *name,
			      int (*startup)(unsigned int cpu),
			      int (*teardown)(unsigned int cpu))
{
	return __cpuhp_setup_state(state, name, false, startup, teardown);
}

void cpuhp_remove_state_nocalls(enum cpuhp_state state)
{
	if (WARN_ON(state <= CPUHP_OFFLINE || state >= CPUHP_ONLINE))
		return;
	if (WARN_ON(cpuhp_hp_states[state].cant_stop))
		return;
	cpus_read_lock();
	mutex_lock(&cpuhp_state_mutex);
	cpuhp_store_callbacks(state, NULL, NULL, NULL);
	mutex_unlock(&cpuhp_state_mutex);
	cpus_read_unlock();
}

/* For tests: where @cpu's walk stands. */
enum cpuhp_state cpuhp_get_state(unsigned int cpu)
{
	return per_cpu_ptr(&cpuhp_state, cpu)->state;
}
