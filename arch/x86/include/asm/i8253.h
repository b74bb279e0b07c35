/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_I8253_H
#define _ASM_X86_I8253_H

#define PIT_TICK_RATE	1193182UL

/* Channel 0, mode 0: raise IRQ 0 once after @ticks PIT ticks. */
void pit_oneshot(unsigned int ticks);
void pit_stop(void);

#endif
