/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_DELAY_H
#define _LINUX_DELAY_H

/* Busy-wait on the TSC; usable anywhere, including with interrupts off. */
void ndelay(unsigned long ns);
void udelay(unsigned long us);
void mdelay(unsigned long ms);


/* Sleeping delays on an hrtimer (kernel/time/hrtimer.c); task context only. */
void msleep(unsigned int msecs);
void usleep_range(unsigned long min, unsigned long max);

#endif
