// SPDX-License-Identifier: GPL-2.0
/*
 * The one paravirt decision irqlab makes (Linux 5.15's
 * arch/x86/kernel/paravirt.c): which way contended spinlocks wait.
 */
#include <linux/kernel.h>
#include <asm/processor.h>
#include <asm/spinlock.h>

/*
 * On by default, off once the boot CPU is known to run on bare metal:
 * one direction of change only, as Linux's static key.  irqlab has no
 * paravirt spinlocks (no PV kick), so under any hypervisor it stays on.
 */
bool virt_spin_lock_key = true;

/* Linux calls it from native_smp_prepare_boot_cpu(); here, after cpu_detect(). */
void native_pv_lock_init(void)
{
	if (!boot_cpu_data.has_hypervisor)
		WRITE_ONCE(virt_spin_lock_key, false);
}
