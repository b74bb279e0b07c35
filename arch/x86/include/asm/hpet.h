/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_HPET_H
#define _ASM_X86_HPET_H

#include <linux/types.h>

#define HPET_ID		0x000
#define HPET_PERIOD	0x004	/* high half of the capabilities: fs per tick */
#define HPET_CFG	0x010
#define HPET_COUNTER	0x0f0
#define HPET_CFG_ENABLE	0x001

extern u64 hpet_freq_hz;	/* 0: no HPET */

bool hpet_enable(u64 phys);
u64 hpet_readl_counter(void);

#endif
