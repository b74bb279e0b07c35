// SPDX-License-Identifier: GPL-2.0
/*
 * The local APIC timer as each CPU's clock event device: TSC-deadline mode
 * when CPUID offers it (KVM, hardware), else one-shot mode with divide-by-1
 * and a frequency measured against the TSC (QEMU TCG: neither x2APIC nor
 * TSC-deadline, and the timer counts at 1 GHz).
 */
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/clockchips.h>
#include <linux/moduleparam.h>
#include <linux/irqflags.h>
#include <linux/delay.h>
#include <linux/ktime.h>
#include <asm/apic.h>
#include <asm/irq_vectors.h>
#include <asm/processor.h>
#include <asm/tsc.h>

u32 lapic_timer_khz;
bool lapic_use_tsc_deadline;
static bool lapic_tsc_deadline_allowed = true;
core_param("lapic.tsc_deadline", lapic_tsc_deadline_allowed, bool,
	   "use TSC-deadline mode when the CPU has it (default y)");

/* Each CPU's APIC timer, as a clock event device. */
static DEFINE_PER_CPU(struct clock_event_device,
		      lapic_events);

struct clock_event_device *this_cpu_clockevent(void)
{
	return this_cpu_ptr(&lapic_events);
}

static int lapic_next_event(unsigned long ticks, struct clock_event_device *evt)
{
	apic_write(APIC_TMICT, ticks > 0xffffffffUL ? 0xffffffffU : ticks);
	return 0;
}

static int lapic_next_deadline(unsigned long ticks, struct clock_event_device *evt)
{
	wrmsr(MSR_IA32_TSC_DEADLINE, rdtsc() + ticks);
	return 0;
}

static void lapic_timer_shutdown(struct clock_event_device *evt)
{
	if (lapic_use_tsc_deadline)
		wrmsr(MSR_IA32_TSC_DEADLINE, 0);
	else
		apic_write(APIC_TMICT, 0);
}

/* A CPU going down: no timer interrupt may arrive after this. */
void lapic_timer_quiesce(void)
{
	apic_write(APIC_LVTT, APIC_LVT_MASKED);
	lapic_timer_shutdown(this_cpu_ptr(&lapic_events));
}

/*
 * TSC-deadline counts in TSC cycles: without a TSC frequency (no CPUID
 * 15h, HPET or PIT to calibrate against) ns cannot be turned into
 * deadlines, and the one-shot timer, which calibrates itself, is used.
 */
bool lapic_want_tsc_deadline(bool cpuid_tsc_deadline, bool allowed, bool tsc_known)
{
	return cpuid_tsc_deadline && allowed && tsc_known;
}

/* Count the timer down for 10 ms of TSC time, interrupts masked. */
void lapic_timer_calibrate(void)
{
	u64 start;
	u32 left;

	lapic_use_tsc_deadline = lapic_want_tsc_deadline(boot_cpu_data.has_tsc_deadline,
							 lapic_tsc_deadline_allowed,
							 tsc_khz != 0);
	if (lapic_use_tsc_deadline) {
		pr_info("APIC timer: TSC-deadline mode\n");
		return;
	}
	apic_write(APIC_TDCR, APIC_TDR_DIV_1);
	apic_write(APIC_LVTT, APIC_LVT_MASKED | LOCAL_TIMER_VECTOR);
	start = rdtsc_ordered();
	apic_write(APIC_TMICT, 0xffffffffU);
	while (rdtsc_ordered() - start < (u64)tsc_khz * 10)
		cpu_relax();
	left = apic_read(APIC_TMCCT);
	apic_write(APIC_TMICT, 0);
	lapic_timer_khz = (0xffffffffU - left) / 10;
	pr_info("APIC timer: one-shot mode, %u.%03u MHz (measured against the TSC)\n",
		lapic_timer_khz / 1000, lapic_timer_khz % 1000);
}

/* Per CPU, after lapic_timer_calibrate() ran on the boot CPU. */
void setup_APIC_timer(void)
{
	struct clock_event_device *ce = this_cpu_ptr(&lapic_events);

	ce->name = lapic_use_tsc_deadline ? "lapic-deadline" : "lapic";
	ce->cpu = smp_processor_id();
	ce->features = CLOCK_EVT_FEAT_ONESHOT |
		       (lapic_use_tsc_deadline ? CLOCK_EVT_FEAT_DEADLINE : 0);
	ce->set_state_shutdown = lapic_timer_shutdown;
	ce->next_event = ~0ULL;
	if (lapic_use_tsc_deadline) {
		ce->set_next_event = lapic_next_deadline;
		clockevents_config(ce, (u64)tsc_khz * 1000, 0xf, ~0UL >> 1);
		apic_write(APIC_LVTT, LOCAL_TIMER_VECTOR | APIC_LVT_TIMER_TSCDEADLINE);
	} else {
		ce->set_next_event = lapic_next_event;
		clockevents_config(ce, (u64)lapic_timer_khz * 1000, 0xf, 0x7fffffff);
		apic_write(APIC_TDCR, APIC_TDR_DIV_1);
		apic_write(APIC_LVTT, LOCAL_TIMER_VECTOR);	/* one-shot, unmasked */
	}
}

/*
 * The handler runs only once next_event has passed: an interrupt left
 * pending from before a shutdown or re-programming is dropped, and one that
 * arrives early (the APIC timer and the TSC are calibrated against each
 * other, not locked together) re-arms for the remainder.
 */
void local_apic_timer_interrupt(void)
{
	struct clock_event_device *ce = this_cpu_ptr(&lapic_events);
	u64 now = ktime_get_ns();

	ce->events++;
	if (ce->next_event == ~0ULL) {
		ce->stale++;
		return;
	}
	if (now < ce->next_event) {
		ce->early++;
		clockevents_program_event(ce, ce->next_event, true);
		return;
	}
	ce->next_event = ~0ULL;
	if (ce->event_handler)
		ce->event_handler(ce);
}
