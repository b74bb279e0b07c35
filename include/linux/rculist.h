/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_RCULIST_H
#define _LINUX_RCULIST_H

/*
 * Lists that readers walk inside rcu_read_lock() while updaters, serialised
 * by a lock of their own, add and remove entries.  An entry is fully linked
 * before the store that makes it reachable; a removed entry keeps its next
 * pointer, so a reader standing on it carries on to the rest of the list,
 * and it must not be freed or reused before a grace period has passed.
 */
#include <linux/list.h>
#include <linux/rcupdate.h>

static inline void list_add_tail_rcu(struct list_head *new, struct list_head *head)
{
	struct list_head *prev = head->prev;

	new->next = head;
	new->prev = prev;
	rcu_assign_pointer(prev->next, new);
	head->prev = new;
}

static inline void list_del_rcu(struct list_head *entry)
{
	entry->next->prev = entry->prev;
	WRITE_ONCE(entry->prev->next, entry->next);
	/* ->next stays for readers; ->prev is for updaters only */
	entry->prev = LIST_POISON2;
}

/* Loads the link once: the entry it names is the one the reader goes on to. */
#define list_entry_rcu(link, type, member)	list_entry(READ_ONCE(link), type, member)

/* Inside rcu_read_lock(), or with the updaters' lock held. */
#define list_for_each_entry_rcu(pos, head, member)				\
	for (pos = list_entry_rcu((head)->next, __typeof__(*pos), member);	\
	     &pos->member != (head);						\
	     pos = list_entry_rcu(pos->member.next, __typeof__(*pos), member))

#endif
