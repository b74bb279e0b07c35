// SPDX-License-Identifier: GPL-2.0
/*
 * Local APIC: xAPIC through MMIO or x2APIC through MSRs (x2APIC when the
 * CPU offers it or firmware already enabled it; QEMU TCG has no x2APIC),
 * spurious and error vectors, EOI, and IPIs.  The timer lives in
 * apic_timer.c.
 */
#include <linux/kernel.h>
#include <linux/boot_timing.h>
#include <linux/cpumask.h>
#include <linux/percpu.h>
#include <linux/irqflags.h>
#include <asm/apic.h>
#include <asm/irq_vectors.h>
#include <asm/pgtable.h>
#include <asm/processor.h>
#include <asm/io.h>
#include <asm/tsc.h>

bool x2apic_mode;
u64 lapic_phys_base;
static volatile u8 *lapic_base;
u32 cpu_to_apicid[CONFIG_NR_CPUS];
static unsigned long apic_errors;

u32 apic_read(u32 reg)
{
	if (x2apic_mode)
		return rdmsr(0x800 + (reg >> 4));
	return readl(lapic_base + reg);
}

void apic_write(u32 reg, u32 v)
{
	if (x2apic_mode)
		wrmsr(0x800 + (reg >> 4), v);
	else
		writel(v, lapic_base + reg);
}

u32 read_apic_id(void)
{
	u32 id = apic_read(APIC_ID);

	return x2apic_mode ? id : id >> 24;
}

int apicid_to_cpu(u32 apicid)
{
	unsigned int cpu;

	for_each_present_cpu(cpu)
		if (cpu_to_apicid[cpu] == apicid)
			return cpu;
	return -1;
}

/*
 * Choose the mode once, on the boot CPU: x2APIC when CPUID offers it; if
 * firmware left x2APIC enabled we must stay there (leaving it needs a full
 * disable, which loses state).  The base comes from the APIC base MSR,
 * which is what the hardware decodes; acpi/boot.c checks the MADT agrees.
 */
bool apic_want_x2apic(bool cpuid_x2apic, bool firmware_enabled)
{
	return firmware_enabled || cpuid_x2apic;
}

/*
 * Can an IPI reach @apicid?  xAPIC destinations are 8 bits and 0xff is the
 * broadcast; x2APIC ones are 32 bits with 0xffffffff the broadcast.  A
 * firmware that lists CPUs above 254 expects x2APIC (the kernel keeps it
 * when firmware enabled it); without it those CPUs cannot be started.
 */
bool apic_id_valid(u32 apicid, bool x2apic)
{
	return x2apic ? apicid != 0xffffffff : apicid < 0xff;
}

/* x2APIC: one 64-bit ICR write, the 32-bit destination in the high half. */
u64 x2apic_icr(u32 low, u32 apicid)
{
	return ((u64)apicid << 32) | low;
}

void apic_bsp_setup(void)
{
	u64 base = rdmsr(MSR_IA32_APICBASE);
	u64 lapic_phys = base & ~0xfffUL;

	x2apic_mode = apic_want_x2apic(boot_cpu_data.has_x2apic,
				       base & MSR_IA32_APICBASE_EXTD);
	lapic_phys_base = lapic_phys;
	if (!x2apic_mode)
		lapic_base = ioremap(lapic_phys, PAGE_SIZE);
	pr_info("APIC: %s mode, base %#llx%s\n", x2apic_mode ? "x2APIC" : "xAPIC",
		(unsigned long long)lapic_phys,
		(base & MSR_IA32_APICBASE_EXTD) ? " (enabled by firmware)" : "");
}

static void apic_enable_in_msr(void)
{
	u64 base = rdmsr(MSR_IA32_APICBASE) | MSR_IA32_APICBASE_ENABLE;

	if (x2apic_mode)
		base |= MSR_IA32_APICBASE_EXTD;
	wrmsr(MSR_IA32_APICBASE, base);
}

/* Per CPU: enable the APIC, mask what we do not use, set the vectors. */
void setup_local_APIC(void)
{
	apic_enable_in_msr();
	apic_write(APIC_TASKPRI, 0);
	apic_write(APIC_LVTT, APIC_LVT_MASKED);
	apic_write(APIC_LVT0, APIC_LVT_MASKED);
	/* LINT1 is the NMI pin on PCs. */
	apic_write(APIC_LVT1, APIC_DM_NMI);
	apic_write(APIC_LVTERR, ERROR_APIC_VECTOR);
	apic_write(APIC_ESR, 0);
	apic_write(APIC_ESR, 0);
	apic_write(APIC_SPIV, APIC_SPIV_APIC_ENABLED | SPURIOUS_APIC_VECTOR);
	/* Anything left pending in the ISR from firmware. */
	for (int i = 0; i < 8; i++)
		if (apic_read(APIC_ISR + i * 0x10))
			ack_APIC_irq();
}

/*
 * The dying CPU, IRQs off: mask every local interrupt source (timer,
 * LINT0/1, error, performance counter) so that nothing but INIT, SIPI and
 * NMI IPIs reaches it while it is offline.
 */
void clear_local_APIC(void)
{
	lapic_timer_quiesce();
	apic_write(APIC_LVT0, APIC_LVT_MASKED);
	apic_write(APIC_LVT1, APIC_LVT_MASKED);
	apic_write(APIC_LVTERR, APIC_LVT_MASKED);
	apic_write(APIC_LVTPC, APIC_LVT_MASKED);
	apic_write(APIC_ESR, 0);
}

bool apic_wait_icr_idle(void)
{
	unsigned long spins = 0;

	if (x2apic_mode)
		return true;	/* x2APIC ICR writes are not "pending" */
	while (apic_read(APIC_ICR) & APIC_ICR_BUSY) {
		if (++spins > 10000000)
			return false;
		cpu_relax();
	}
	return true;
}

/* One ICR write; the caller has interrupts off (the two halves must pair). */
void apic_icr_write(u32 low, u32 apicid)
{
	if (x2apic_mode) {
		wrmsr(0x830, x2apic_icr(low, apicid));
		return;
	}
	apic_wait_icr_idle();
	apic_write(APIC_ICR2, apicid << 24);
	apic_write(APIC_ICR, low);
}

void apic_send_IPI(int cpu, int vector)
{
	unsigned long flags;

	boot_timing_ipi_sent(cpu, vector);
	raw_local_irq_save(flags);
	apic_icr_write(APIC_DM_FIXED | vector, cpu_to_apicid[cpu]);
	raw_local_irq_restore(flags);
}

void apic_send_IPI_allbutself(int vector)
{
	unsigned long flags;

	boot_timing_ipi_sent_allbutself(vector);
	raw_local_irq_save(flags);
	apic_icr_write(APIC_DEST_ALLBUT | APIC_DM_FIXED | vector, 0);
	raw_local_irq_restore(flags);
}

void apic_send_NMI(int cpu)
{
	unsigned long flags;

	raw_local_irq_save(flags);
	apic_icr_write(APIC_DM_NMI, cpu_to_apicid[cpu]);
	raw_local_irq_restore(flags);
}

/*
 * An NMI IPI sent from NMI context.  In xAPIC mode the ICR is two
 * registers, and the code the NMI interrupted may have written ICR2 but
 * not yet ICR (interrupts off does not keep NMIs out), so its destination
 * is put back before returning to it.  An x2APIC ICR write is one MSR.
 */
void apic_send_NMI_from_nmi(int cpu)
{
	u32 icr2;

	if (x2apic_mode) {
		wrmsr(0x830, x2apic_icr(APIC_DM_NMI, cpu_to_apicid[cpu]));
		return;
	}
	icr2 = apic_read(APIC_ICR2);
	apic_wait_icr_idle();
	apic_write(APIC_ICR2, cpu_to_apicid[cpu] << 24);
	apic_write(APIC_ICR, APIC_DM_NMI);
	apic_wait_icr_idle();
	apic_write(APIC_ICR2, icr2);
}

void smp_error_interrupt(void)
{
	u32 esr;

	apic_write(APIC_ESR, 0);	/* latch */
	esr = apic_read(APIC_ESR);
	if (apic_errors++ < 10)
		pr_err("APIC error on CPU%d: ESR %#x\n", smp_processor_id(), esr);
}

void smp_spurious_interrupt(void)
{
	/* No EOI for a spurious interrupt: it was never in service. */
}
