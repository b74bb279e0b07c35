// SPDX-License-Identifier: GPL-2.0
/* Hashed wait queues for wait_var_event() / wake_up_var(). */
#include "sched.h"
#include <linux/wait_bit.h>

#define WAIT_TABLE_BITS		6
#define WAIT_TABLE_SIZE		(1 << WAIT_TABLE_BITS)

static struct wait_queue_head bit_wait_table[WAIT_TABLE_SIZE];

/* Fibonacci hashing of the address; the low bits are alignment. */
struct wait_queue_head *__var_waitqueue(void *var)
{
	u64 h = ((unsigned long)var >> 3) * 0x9e3779b97f4a7c15ULL;

	return &bit_wait_table[h >> (64 - WAIT_TABLE_BITS)];
}

void wake_up_var(void *var)
{
	struct wait_queue_head *wq_head = __var_waitqueue(var);

	/* Pairs with prepare_to_wait()'s queueing before the waiter's check. */
	if (wq_has_sleeper(wq_head))
		__wake_up(wq_head, TASK_NORMAL, 0, NULL);
}

void wait_bit_init(void)
{
	for (int i = 0; i < WAIT_TABLE_SIZE; i++)
		init_waitqueue_head(&bit_wait_table[i]);
}
