/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_IRQ_VECTORS_H
#define _ASM_X86_IRQ_VECTORS_H

/* Vector layout as in Linux: exceptions below 32, system vectors at the top. */
#define FIRST_EXTERNAL_VECTOR		0x20
#define FIRST_DEVICE_VECTOR		0x30
#define LOCAL_TIMER_VECTOR		0xec
#define FIRST_SYSTEM_VECTOR		LOCAL_TIMER_VECTOR
#define IRQ_WORK_VECTOR			0xf6
#define REBOOT_VECTOR			0xf8
#define CALL_FUNCTION_SINGLE_VECTOR	0xfb
#define CALL_FUNCTION_VECTOR		0xfc
#define RESCHEDULE_VECTOR		0xfd
#define ERROR_APIC_VECTOR		0xfe
#define SPURIOUS_APIC_VECTOR		0xff
#define NR_VECTORS			256

#endif
