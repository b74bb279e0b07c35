// SPDX-License-Identifier: GPL-2.0
/*
 * Interrupts: a legacy device interrupt travels PIT -> IOAPIC (through
 * the ACPI override) -> local APIC -> handler, in hard-IRQ context on the
 * per-CPU IRQ stack; preempt_count and irqflags say what they should.
 */
#include <linux/ktest.h>
#include <linux/irq.h>
#include <linux/errno.h>
#include <linux/delay.h>
#include <linux/local_lock.h>
#include <linux/sched.h>
#include <linux/percpu.h>
#include <asm/io_apic.h>
#include <asm/i8253.h>
#include <asm/cpu_entry_area.h>

struct pit_seen {
	int count;
	int cpu;
	bool irqs_off, hardirq, on_irq_stack;
	int preempt;
};

static struct pit_seen seen;

static irqreturn_t pit_test_handler(int irq, void *dev)
{
	struct pit_seen *s = dev;
	unsigned long sp = (unsigned long)__builtin_frame_address(0);
	int cpu = smp_processor_id();

	s->count++;
	s->cpu = cpu;
	s->irqs_off = irqs_disabled();
	s->hardirq = in_hardirq();
	s->preempt = preempt_count();
	s->on_irq_stack = sp >= cea_stack_bottom(cpu, CEA_STACK_IRQ) &&
			  sp < cea_stack_top(cpu, CEA_STACK_IRQ);
	return IRQ_HANDLED;
}

static void legacy_irq_through_ioapic(struct ktest *t)
{
	int count;

	if (!nr_ioapics_registered())
		ktest_skip(t, "no IOAPIC");
	memset(&seen, 0, sizeof(seen));
	/* The firmware left channel 0 ticking at 18.2 Hz: silence it first. */
	pit_stop();
	/* The hard-IRQ path on every model (RT would otherwise thread it). */
	KTEST_ASSERT_EQ(t, request_irq(0, pit_test_handler, IRQF_NO_THREAD, "pit-test", &seen), 0);
	ktest_info(t, "IRQ 0 -> GSI %d, vector %#x", irq_to_gsi(0), irq_to_desc(0)->vector);
	pit_oneshot(PIT_TICK_RATE / 1000);	/* 1 ms */
	for (int i = 0; i < 100000 && !READ_ONCE(seen.count); i++)
		udelay(10);
	udelay(3000);
	count = READ_ONCE(seen.count);
	udelay(20000);			/* a one-shot must not repeat */
	free_irq(0, &seen);
	/*
	 * Reprogramming channel 0 away from the firmware's periodic mode can
	 * leave one stray edge under heavy TCG load; a second period would be
	 * a repeat.
	 */
	KTEST_EXPECT_GE(t, count, 1);
	KTEST_EXPECT_LE(t, count, 2);
	KTEST_EXPECT_EQ(t, seen.count, count);
	KTEST_EXPECT_EQ(t, kstat_irqs(0), seen.count);
	KTEST_EXPECT_EQ(t, seen.cpu, 0);
	KTEST_EXPECT_TRUE(t, seen.irqs_off);
	KTEST_EXPECT_TRUE(t, seen.hardirq);
	KTEST_EXPECT_EQ(t, seen.preempt & HARDIRQ_MASK, HARDIRQ_OFFSET);
	KTEST_EXPECT_TRUE(t, seen.on_irq_stack);
}

static irqreturn_t never(int irq, void *dev)
{
	return IRQ_HANDLED;
}

static void request_irq_errors(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, request_irq(NR_IRQS, never, 0, "x", NULL), -EINVAL);
	KTEST_EXPECT_EQ(t, request_irq(NR_IRQS - 1, never, 0, "x", NULL), -ENODEV);
	if (!nr_ioapics_registered())
		return;
	KTEST_ASSERT_EQ(t, request_irq(4, never, 0, "first", &seen), 0);
	KTEST_EXPECT_EQ(t, request_irq(4, never, 0, "second", NULL), -EBUSY);
	free_irq(4, &seen);
	KTEST_EXPECT_EQ(t, irq_to_desc(4)->vector, 0);
}

static void preempt_count_fields(struct ktest *t)
{
	int base = preempt_count();

	KTEST_EXPECT_EQ(t, base, 0);
	KTEST_EXPECT_FALSE(t, in_interrupt());
	preempt_disable();
#ifdef CONFIG_PREEMPT_COUNT
	KTEST_EXPECT_EQ(t, preempt_count(), 1);
#else
	KTEST_EXPECT_EQ(t, preempt_count(), 0);
#endif
	preempt_enable();
	irq_enter();
	KTEST_EXPECT_EQ(t, preempt_count(), HARDIRQ_OFFSET);
	KTEST_EXPECT_TRUE(t, in_hardirq());
	irq_exit();
	nmi_enter();
	KTEST_EXPECT_TRUE(t, in_nmi());
	KTEST_EXPECT_EQ(t, preempt_count(), NMI_OFFSET + HARDIRQ_OFFSET);
	nmi_exit();
	KTEST_EXPECT_EQ(t, preempt_count(), 0);
}

static DEFINE_PER_CPU(local_lock_t, test_llock);

static void irqflags_and_local_lock(struct ktest *t)
{
	unsigned long flags;

	KTEST_EXPECT_FALSE(t, irqs_disabled());
	local_irq_save(flags);
	KTEST_EXPECT_TRUE(t, irqs_disabled());
	local_irq_save(flags);		/* nested: restores "disabled" */
	local_irq_restore(flags);
	KTEST_EXPECT_TRUE(t, irqs_disabled());
	local_irq_enable();
	KTEST_EXPECT_FALSE(t, irqs_disabled());

#ifndef CONFIG_PREEMPT_RT
	/* !PREEMPT_RT mapping: local_lock is preempt_disable, _irqsave is IRQ-off. */
	local_lock(&test_llock);
	KTEST_EXPECT_FALSE(t, irqs_disabled());
#ifdef CONFIG_PREEMPT_COUNT
	KTEST_EXPECT_EQ(t, preempt_count(), 1);
#endif
	local_unlock(&test_llock);
	local_lock_irqsave(&test_llock, flags);
	KTEST_EXPECT_TRUE(t, irqs_disabled());
	local_unlock_irqrestore(&test_llock, flags);
	KTEST_EXPECT_FALSE(t, irqs_disabled());
#ifndef CONFIG_DEBUG_LOCK_ALLOC
	KTEST_EXPECT_EQ(t, sizeof(local_lock_t), 0);
#endif
#else
	/*
	 * PREEMPT_RT mapping: a per-CPU sleeping lock; the holder is
	 * migrate-disabled and preemptible, interrupts stay on even for
	 * _irqsave (whose flags read back 0).
	 */
	local_lock(&test_llock);
	KTEST_EXPECT_FALSE(t, irqs_disabled());
	KTEST_EXPECT_EQ(t, preempt_count(), 0);
	KTEST_EXPECT_TRUE(t, is_migration_disabled(current));
	KTEST_EXPECT_TRUE(t, rt_mutex_base_owner(&this_cpu_ptr(&test_llock)->lock) == current);
	local_unlock(&test_llock);
	KTEST_EXPECT_FALSE(t, is_migration_disabled(current));
	flags = 1;
	local_lock_irqsave(&test_llock, flags);
	KTEST_EXPECT_FALSE(t, irqs_disabled());
	KTEST_EXPECT_EQ(t, flags, 0);
	local_unlock_irqrestore(&test_llock, flags);
	KTEST_EXPECT_FALSE(t, spin_is_locked(this_cpu_ptr(&test_llock)));
#endif
}

static struct ktest_case irq_cases[] = {
	KTEST_CASE(legacy_irq_through_ioapic),
	KTEST_CASE(request_irq_errors),
	KTEST_CASE(preempt_count_fields),
	KTEST_CASE(irqflags_and_local_lock),
	{}
};

static struct ktest_suite irq_suite = { .name = "irq", .cases = irq_cases };
ktest_register_suite(irq_suite);
