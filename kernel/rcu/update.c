// SPDX-License-Identifier: GPL-2.0
/*
 * Flavour-independent updater helpers (Linux's kernel/rcu/update.c):
 * waiting for a grace period is queueing a callback that completes a
 * completion, and sleeping on it.
 */
#include <linux/kernel.h>
#include <linux/rcupdate.h>
#include <linux/completion.h>
#include <linux/sched.h>

void wakeme_after_rcu(struct rcu_head *head)
{
	struct rcu_synchronize *rcu = container_of(head, struct rcu_synchronize, head);

	complete(&rcu->completion);
}

void wait_rcu_gp(call_rcu_func_t crf)
{
	struct rcu_synchronize rs;

	init_completion(&rs.completion);
	crf(&rs.head, wakeme_after_rcu);
	wait_for_completion(&rs.completion);
}
