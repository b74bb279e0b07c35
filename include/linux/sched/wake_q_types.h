/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SCHED_WAKE_Q_TYPES_H
#define _LINUX_SCHED_WAKE_Q_TYPES_H

struct wake_q_node {
	struct wake_q_node *next;
};

#endif
