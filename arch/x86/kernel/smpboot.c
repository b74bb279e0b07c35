// SPDX-License-Identifier: GPL-2.0
/*
 * Bringing up the other CPUs: the MADT (through acpi/boot.c) registers
 * each CPU's APIC ID; smp_init() brings them up one at a time through
 * cpu_up(), whose CPUHP_BRINGUP_CPU (__cpu_up()) starts each with the
 * INIT-SIPI-SIPI sequence and Linux's delays (10 ms after INIT and
 * 300 + 200 us around each STARTUP IPI on old CPUs, 0 and 10 + 10 us on
 * modern ones: cpu_init_udelay=), on the real-mode trampoline.  Each AP
 * checks in, runs a TSC warp test against the boot CPU, arms its APIC
 * timer, goes online and idles with interrupts enabled.
 */
#include <linux/kernel.h>
#include <linux/smp.h>
#include <linux/percpu.h>
#include <linux/memblock.h>
#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/irqflags.h>
#include <linux/acpi.h>
#include <linux/sched.h>
#include <linux/kthread.h>
#include <linux/moduleparam.h>
#include <linux/cpu.h>
#include <linux/boot_timing.h>
#include <linux/errno.h>
#include <linux/irq.h>
#include <asm/apic.h>
#include <asm/bootparam.h>
#include <asm/cpu_entry_area.h>
#include <asm/desc.h>
#include <asm/fpu/api.h>
#include <asm/page.h>
#include <asm/perf_event.h>
#include <asm/pgtable.h>
#include <asm/processor.h>
#include <asm/spinlock.h>
#include <asm/traps.h>
#include <asm/tsc.h>
#include <limits.h>

extern const char trampoline_start[], trampoline_end[];
extern const char tr_gdt[], tr_gdt_desc[], tr_pm_ptr[], tr_lm_ptr[], tr_pm[], tr_lm[];
extern const char tr_cr3[], tr_efer[], tr_entry[];
extern const char secondary_startup_64[];
DECLARE_PER_CPU(unsigned long, hardirq_stack_ptr);

u64 initial_cr3;		/* read by secondary_startup_64 */
u64 initial_stack;		/* the starting AP's stack, read there too */
int smpboot_cpu;		/* the CPU being started (one at a time) */
static phys_addr_t trampoline_pa;
static u64 *trampoline_pgd;
static struct cpumask cpu_callin_mask;
/* CPUs started once: their stacks and idle task exist (a re-start reuses them). */
static struct cpumask cpu_booted_once_mask;
/*
 * Set by a dying CPU as its last act before it halts for good
 * (cpu_report_death()); read by the control CPU in __cpu_die().
 */
static DEFINE_PER_CPU(int, cpu_dead_state);
static unsigned int nr_registered;
static u32 boot_cpu_apicid;

/*
 * How long INIT stays asserted, in us.  The 10 ms the MP specification asks
 * for is only needed by old parts; Linux drops it (and shortens the waits
 * around the STARTUP IPIs) on Intel family 6 and AMD family 0xF and later.
 * At 64 CPUs the fixed delay alone was 630 ms of a serial bring-up.
 * UINT_MAX: not given, decided from the boot CPU.
 */
#define UDELAY_10MS_DEFAULT	10000
static unsigned int init_udelay = UINT_MAX;
core_param("cpu_init_udelay", init_udelay, uint,
	   "us between asserting and deasserting INIT (default: 0 on modern CPUs, else 10000)");

static void smp_quirk_init_udelay(void)
{
	const struct cpuinfo_x86 *c = &boot_cpu_data;

	if (init_udelay != UINT_MAX)
		return;		/* the command line chose */
	if ((!strcmp(c->vendor, "GenuineIntel") && c->family == 6) ||
	    (!strcmp(c->vendor, "HygonGenuine") && c->family >= 0x18) ||
	    (!strcmp(c->vendor, "AuthenticAMD") && c->family >= 0xf)) {
		init_udelay = 0;
		return;
	}
	init_udelay = UDELAY_10MS_DEFAULT;
}

/*
 * maxcpus=N: at most N CPUs, the boot CPU included, come up (0 as 1: the
 * boot CPU alone).  irqlab has no CPU hotplug, so as in a Linux built
 * without CONFIG_HOTPLUG_CPU the CPUs beyond N are neither possible nor
 * present: nothing can bring them up later, and per-CPU sizing (SLUB's
 * orders, percpu units) sees a machine of N CPUs.  Unlike Linux on x86,
 * maxcpus=0 leaves the IO-APIC on: irqlab's devices need it.
 */
static unsigned int setup_max_cpus = NR_CPUS;
core_param("maxcpus", setup_max_cpus, uint,
	   "bring up at most this many CPUs, the boot CPU included (0: the boot CPU only)");

/*
 * nr_cpus=N: the hard limit on CPU numbers (nr_cpu_ids): CPUs the MADT
 * lists beyond N get no number at all.  A limit above the machine's CPUs
 * changes nothing, as in Linux; 0 is refused (Linux ignores it silently).
 */
static unsigned int nr_cpus_limit = NR_CPUS;
core_param_range("nr_cpus", nr_cpus_limit, uint, 1, UINT_MAX,
		 "highest number of CPUs this boot may use (CPU numbers 0..N-1)");

/* TSC warp test shared state. */
static arch_spinlock_t tsc_sync_lock = __ARCH_SPIN_LOCK_UNLOCKED;
static u64 last_tsc, max_warp;
static int tsc_sync_go, tsc_sync_done;

/*
 * Called for each enabled MADT CPU entry.  The boot CPU is always CPU 0;
 * the others are numbered in MADT order from 1.
 */
int generic_processor_info(u32 apicid)
{
	static unsigned int next_cpu = 1;
	unsigned int cpu;

	if (!nr_registered++)
		boot_cpu_apicid = read_apic_id();
	if (!apic_id_valid(apicid, x2apic_mode)) {
		pr_warn("smpboot: CPU with APIC ID %u ignored: it needs x2APIC, which this CPU lacks\n",
			apicid);
		return -1;
	}
	if (apicid == boot_cpu_apicid) {
		cpu = 0;
	} else if (next_cpu >= NR_CPUS) {
		pr_warn("smpboot: CPU with APIC ID %u ignored: CONFIG_NR_CPUS=%d\n",
			apicid, NR_CPUS);
		return -1;
	} else if (next_cpu >= nr_cpus_limit) {
		pr_info("smpboot: CPU with APIC ID %u ignored: nr_cpus=%u\n",
			apicid, nr_cpus_limit);
		return -1;
	} else {
		cpu = next_cpu++;
	}
	cpu_to_apicid[cpu] = apicid;
	cpumask_set_cpu(cpu, cpu_present_mask);
	cpumask_set_cpu(cpu, cpu_possible_mask);
	if (cpu + 1 > nr_cpu_ids)
		nr_cpu_ids = cpu + 1;
	return cpu;
}

static bool low_page_is_ram(phys_addr_t pa)
{
	for (u32 i = 0; i < boot_info.nr_mmap && i < BOOT_INFO_MAX_MMAP; i++) {
		struct boot_mmap_entry *e = &boot_info.mmap[i];

		if (e->type == BOOT_MEM_RAM && pa >= e->addr &&
		    pa + PAGE_SIZE <= e->addr + e->size)
			return true;
	}
	return false;
}

/*
 * A page below 1 MiB, in RAM, clear of the loader's data, for STARTUP IPIs.
 * A loader that set one aside (the UEFI loader does, while the firmware
 * still owns low memory) names it in boot_info.trampoline_pa; it is used
 * when it is a usable page, otherwise the kernel searches as for the
 * other loaders.
 */
static phys_addr_t find_trampoline_page(void)
{
	phys_addr_t hint = boot_info.trampoline_pa;

	if (hint) {
		if (!(hint & (PAGE_SIZE - 1)) && hint >= 0x1000 && hint < 0x9f000 &&
		    low_page_is_ram(hint))
			return hint;
		pr_warn("smpboot: the loader's trampoline page %#llx is not a usable page below 0x9f000; searching\n",
			(unsigned long long)hint);
	}
	for (phys_addr_t pa = 0x1000; pa < 0x9f000; pa += PAGE_SIZE) {
		if (!low_page_is_ram(pa))
			continue;
		if (pa + PAGE_SIZE > boot_info.loader_data_start &&
		    pa < boot_info.loader_data_end)
			continue;
		if (boot_info.rsdp && ALIGN_DOWN(boot_info.rsdp, PAGE_SIZE) == pa)
			continue;
		return pa;
	}
	return 0;
}

static void patch32(u8 *page, const char *field, u32 v)
{
	memcpy(page + (field - trampoline_start), &v, sizeof(v));
}

static void patch64(u8 *page, const char *field, u64 v)
{
	memcpy(page + (field - trampoline_start), &v, sizeof(v));
}

/* The trampoline loads CR3 in 32-bit mode: its tables must sit below 4 GiB. */
static u64 *low_table_page(void)
{
	phys_addr_t pa = memblock_phys_alloc_range(PAGE_SIZE, PAGE_SIZE, 0, SZ_4G);

	if (!pa)
		panic("smpboot: no memory below 4 GiB for the AP trampoline's page tables");
	memset(__va(pa), 0, PAGE_SIZE);
	return __va(pa);
}

/*
 * The kernel's top level plus an executable identity map of the first
 * 2 MiB, where the trampoline runs until it jumps to the kernel (the direct
 * map is NX, so it cannot double as the identity map).
 */
static u64 *trampoline_pdpt, *trampoline_pd;

static void build_trampoline_pgd(void)
{
	memcpy(trampoline_pgd, init_top_pgt, PAGE_SIZE);
	trampoline_pgd[0] = __pa(trampoline_pdpt) | _PAGE_PRESENT | _PAGE_RW;
}

/*
 * Copy the trampoline to its page and fill in its fields, once, as
 * Linux's setup_real_mode() does: nothing in it differs between APs (the
 * stack is initial_stack, in the kernel).  Rewriting code that CPUs have
 * run costs an emulator that translated it a flush per vCPU (QEMU 7.2
 * clears every vCPU's jump cache for each invalidated block), which per
 * AP made bring-up quadratic in the vCPUs (Documentation/scale.md).
 */
static void setup_trampoline(void)
{
	u8 *page = __va(trampoline_pa);
	u32 base = trampoline_pa;

	memcpy(page, trampoline_start, trampoline_end - trampoline_start);
	patch32(page, tr_gdt_desc + 2, base + (tr_gdt - trampoline_start));
	patch32(page, tr_pm_ptr, base + (tr_pm - trampoline_start));
	patch32(page, tr_lm_ptr, base + (tr_lm - trampoline_start));
	patch32(page, tr_cr3, __pa(trampoline_pgd));
	/* LMA (bit 10) is status, not control: do not write it back. */
	patch32(page, tr_efer, (u32)rdmsr(MSR_EFER) & ~(1U << 10));
	patch64(page, tr_entry, (u64)secondary_startup_64);
}

/* Both sides read the TSC in turn; a reading below the last one is a warp. */
static void check_tsc_warp(unsigned int loops)
{
	for (unsigned int i = 0; i < loops; i++) {
		u64 prev, now;

		arch_spin_lock(&tsc_sync_lock);
		prev = last_tsc;
		now = rdtsc_ordered();
		last_tsc = now;
		arch_spin_unlock(&tsc_sync_lock);
		if (prev > now && prev - now > max_warp)
			max_warp = prev - now;
	}
}

#define TSC_WARP_LOOPS	2000

static void tsc_sync_source(int cpu)
{
	last_tsc = 0;
	max_warp = 0;
	tsc_sync_done = 0;
	smp_store_release(&tsc_sync_go, 1);
	check_tsc_warp(TSC_WARP_LOOPS);
	while (!smp_load_acquire(&tsc_sync_done))
		cpu_relax();
	tsc_sync_go = 0;
	if (max_warp)
		pr_warn("TSC warp between CPU 0 and CPU %d: %llu cycles; timestamps across CPUs are not comparable\n",
			cpu, (unsigned long long)max_warp);
}

static void tsc_sync_target(void)
{
	while (!smp_load_acquire(&tsc_sync_go))
		cpu_relax();
	check_tsc_warp(TSC_WARP_LOOPS);
	smp_store_release(&tsc_sync_done, 1);
}

void tick_setup_local(void);

__noreturn void start_secondary(int cpu)
{
	switch_to_percpu_area(cpu);
	this_cpu_write(current_task, cpu_rq_idle(cpu));
	/* A restarted CPU: the count its idle task died with is gone. */
	this_cpu_write(__preempt_count, 0);
	preempt_disable();	/* the idle task never runs preemptible */
	cpu_init(cpu);
	idt_load();
	fpu__init_cpu();
	setup_local_APIC();
	this_cpu_write(hardirq_stack_ptr, cea_stack_top(cpu, CEA_STACK_IRQ));
	cpumask_set_cpu(cpu, &cpu_callin_mask);
	tsc_sync_target();
	setup_APIC_timer();
	tick_setup_local();
	/* The starting section of the hotplug states, IRQs still off. */
	notify_cpu_starting(cpu);
	set_cpu_online(cpu, true);
	cpu_rq_set_online(cpu);
	local_irq_enable();
	cpuhp_online_idle(CPUHP_AP_ONLINE_IDLE);
	cpu_startup_entry();
}

static bool wait_for_mask(int cpu, const struct cpumask *m, unsigned int ms)
{
	for (unsigned int i = 0; i < ms * 10; i++) {
		if (cpumask_test_cpu(cpu, m))
			return true;
		udelay(100);
	}
	return false;
}

static int do_boot_cpu(int cpu)
{
	u32 apicid = cpu_to_apicid[cpu];
	unsigned long flags;

	if (cpumask_test_cpu(cpu, &cpu_booted_once_mask)) {
		/* Started before: same stacks, its idle task made new. */
		init_idle(cpu_rq_idle(cpu), cpu);
	} else {
		/* Its entry-area stacks were mapped by start_kernel(). */
		if (!fork_idle(cpu, cea_stack_top(cpu, CEA_STACK_TASK)))
			return -1;
	}
	per_cpu(cpu_dead_state, cpu) = 0;
	/* The kernel's top level as it is now (a re-start comes later). */
	build_trampoline_pgd();
	initial_stack = cea_stack_top(cpu, CEA_STACK_TASK);
	smpboot_cpu = cpu;
	smp_wmb();

	raw_local_irq_save(flags);
	apic_write(APIC_ESR, 0);
	apic_icr_write(APIC_INT_LEVELTRIG | APIC_INT_ASSERT | APIC_DM_INIT, apicid);
	apic_wait_icr_idle();
	udelay(init_udelay);
	apic_icr_write(APIC_INT_LEVELTRIG | APIC_DM_INIT, apicid);
	apic_wait_icr_idle();
	for (int i = 0; i < 2; i++) {
		apic_icr_write(APIC_DM_STARTUP | (trampoline_pa >> PAGE_SHIFT), apicid);
		/* Time for the target to accept it, before and after the send completes. */
		udelay(init_udelay ? 300 : 10);
		apic_wait_icr_idle();
		udelay(init_udelay ? 200 : 10);
	}
	raw_local_irq_restore(flags);

	/* TCG with more vCPUs than host cores is slow: be patient. */
	if (!wait_for_mask(cpu, &cpu_callin_mask, 5000)) {
		pr_err("smpboot: CPU %d (APIC ID %u) did not respond to INIT-SIPI-SIPI\n",
		       cpu, apicid);
		cpumask_clear_cpu(cpu, cpu_present_mask);
		return -1;
	}
	tsc_sync_source(cpu);
	if (!wait_for_mask(cpu, cpu_online_mask, 5000)) {
		pr_err("smpboot: CPU %d checked in but never came online\n", cpu);
		return -1;
	}
	cpumask_set_cpu(cpu, &cpu_booted_once_mask);
	return 0;
}

/*
 * cpu_up()'s CPUHP_BRINGUP_CPU: wake a CPU that went down with INIT and
 * STARTUP again.  INIT resets it wherever it halted; it comes back
 * through the trampoline and start_secondary() like at boot.
 */
int __cpu_up(unsigned int cpu)
{
	int err;

	if (!trampoline_pa || cpu_online(cpu))
		return -EIO;
	irq_vectors_prepare_cpu(cpu);
	err = do_boot_cpu(cpu);
	return err ? -EIO : 0;
}

/*
 * In stop_machine on the dying CPU, IRQs off (Linux's native_cpu_disable()
 * and cpu_disable_common()): mask the local APIC's timer and other local
 * vectors so nothing more arrives, and leave the online mask so that no
 * IPI or wakeup targets this CPU any more.  fixup_irqs() moves the
 * device lines routed here to online CPUs; one it could not move refuses
 * the take-down.
 */
int __cpu_disable(void)
{
	int cpu = smp_processor_id();

	set_cpu_online(cpu, false);
	cpumask_clear_cpu(cpu, &cpu_callin_mask);
	/* Device lines routed here move to online CPUs. */
	fixup_irqs();
	if (irq_routed_to_cpu(cpu)) {
		pr_warn("smpboot: CPU %d still receives a device interrupt: not taking it down\n",
			cpu);
		set_cpu_online(cpu, true);
		cpumask_set_cpu(cpu, &cpu_callin_mask);
		return -EBUSY;
	}
	clear_local_APIC();
	return 0;
}

/* The dying CPU's last word: after this store it only halts. */
static void cpu_report_death(void)
{
	smp_store_release(this_cpu_ptr(&cpu_dead_state), 1);
}

/*
 * The dying CPU's idle task, IRQs off (Linux's hlt_play_dead()): halt
 * for good.  INIT from __cpu_up() is the only way out; an NMI returns to
 * the loop.
 */
__noreturn void arch_cpu_idle_dead(void)
{
	cpu_report_death();
	for (;;)
		asm volatile("cli; hlt" ::: "memory");
}

/* On the control CPU: wait until the CPU has stopped (native_cpu_die()). */
void __cpu_die(unsigned int cpu)
{
	for (unsigned int i = 0; i < 50000; i++) {
		if (smp_load_acquire(per_cpu_ptr(&cpu_dead_state, cpu))) {
			pr_info("smpboot: CPU %u is now offline\n", cpu);
			return;
		}
		udelay(100);
	}
	pr_err("smpboot: CPU %u didn't die...\n", cpu);
}

/*
 * After the MADT is read and before the per-CPU areas are sized: drop the
 * CPUs maxcpus= leaves out of the possible and present masks (Linux's
 * prefill_possible_map() without CONFIG_HOTPLUG_CPU).  CPUs are numbered
 * densely from 0, so the first @limit numbers are the ones kept.
 */
static void prefill_possible_map(void)
{
	unsigned int limit = setup_max_cpus ?: 1;
	unsigned int listed = cpumask_weight(cpu_present_mask), cpu;

	if (listed <= limit)
		return;
	for (cpu = limit; cpu < NR_CPUS; cpu++) {
		cpumask_clear_cpu(cpu, cpu_present_mask);
		cpumask_clear_cpu(cpu, cpu_possible_mask);
	}
	nr_cpu_ids = limit;
	pr_info("smpboot: maxcpus=%u: using %u of the %u CPUs the firmware lists\n",
		setup_max_cpus, limit, listed);
}

/*
 * Before the per-CPU areas are sized (Linux's setup_arch() and
 * boot_cpu_init()): the possible and present CPUs, CPU 0 online.
 */
void smp_prefill_possible_map(void)
{
	if (!nr_registered)
		generic_processor_info(read_apic_id());	/* no MADT: just us */
	prefill_possible_map();
	cpumask_set_cpu(0, cpu_online_mask);
}

/*
 * While memblock still hands out memory (Linux's reserve_real_mode() in
 * setup_arch()): the trampoline page below 1 MiB and the page tables it
 * starts the APs on, which must sit below 4 GiB.
 */
void reserve_real_mode(void)
{
	trampoline_pa = find_trampoline_page();
	if (!trampoline_pa) {
		pr_err("smpboot: no free page below 1 MiB for the AP trampoline; running on CPU 0 only\n");
		return;
	}
	memblock_reserve(trampoline_pa, PAGE_SIZE);
	trampoline_pgd = low_table_page();
	trampoline_pdpt = low_table_page();
	trampoline_pd = low_table_page();
	trampoline_pd[0] = 0 | _PAGE_PRESENT | _PAGE_RW | _PAGE_PSE;
	trampoline_pdpt[0] = __pa(trampoline_pd) | _PAGE_PRESENT | _PAGE_RW;
}

/* From kernel_init_freeable() (Linux's native_smp_prepare_cpus()). */
void smp_prepare_cpus(void)
{
	boot_order_mark("smp_prepare_cpus");
	initial_cr3 = read_cr3();
	/* Linux's setup_real_mode(), an early initcall: once, for every AP. */
	if (trampoline_pa)
		setup_trampoline();
	smp_quirk_init_udelay();
}

phys_addr_t smp_trampoline_page(void)
{
	return trampoline_pa;
}

/*
 * In pid 1 (kernel_init_freeable()), as Linux's smp_init(): the cpuhp
 * threads, then each AP through cpu_up() - the cpuhp state machine from
 * CPUHP_OFFLINE, as a CPU hot-added later comes up: its smpboot threads
 * made at CPUHP_CREATE_THREADS, INIT-SIPI-SIPI at CPUHP_BRINGUP_CPU, the
 * online section in its cpuhp thread.
 */
void smp_init(void)
{
	unsigned int cpu;
	u64 t0 = ktime_get_ns();

	boot_order_mark("smp_init");
	cpuhp_threads_init();
	if (!trampoline_pa)
		goto out;
	pr_info("smp: Bringing up secondary CPUs ...\n");
	for_each_present_cpu(cpu) {
		if (num_online_cpus() >= nr_cpu_ids)
			break;
		if (!cpu_online(cpu))
			cpu_up(cpu);
	}
	pr_info("smp: Brought up %u CPU%s in %llu ms (trampoline at %#llx)\n",
		num_online_cpus(), num_online_cpus() == 1 ? "" : "s",
		(unsigned long long)((ktime_get_ns() - t0) / 1000000),
		(unsigned long long)trampoline_pa);
	for_each_online_cpu(cpu)
		pr_info("smpboot: CPU %u: APIC ID %u, node %d\n", cpu, cpu_to_apicid[cpu],
			acpi_numa_node_of_apic(cpu_to_apicid[cpu]));
out:
	/* The fixed counters are set up on every CPU at once, by IPI. */
	x86_pmu_init();
	boot_order_mark("smp_init: done");
}
