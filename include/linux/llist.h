/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_LLIST_H
#define _LINUX_LLIST_H

/*
 * Lock-less singly linked list: any number of concurrent adders (cmpxchg on
 * the head), one consumer that takes the whole list at once with xchg.
 * Entries come out newest first; llist_reverse_order() restores FIFO.
 */
#include <linux/compiler.h>
#include <asm/cmpxchg.h>

struct llist_node {
	struct llist_node *next;
};

struct llist_head {
	struct llist_node *first;
};

#define LLIST_HEAD_INIT(name)	{ NULL }

static inline bool llist_empty(const struct llist_head *head)
{
	return READ_ONCE(head->first) == NULL;
}

/* Returns true if the list was empty before (the consumer needs a kick). */
static inline bool llist_add(struct llist_node *new, struct llist_head *head)
{
	struct llist_node *first = READ_ONCE(head->first);

	do {
		new->next = first;
	} while (!try_cmpxchg(&head->first, &first, new));
	return first == NULL;
}

static inline struct llist_node *llist_del_all(struct llist_head *head)
{
	return xchg(&head->first, NULL);
}

static inline struct llist_node *llist_reverse_order(struct llist_node *head)
{
	struct llist_node *new_head = NULL;

	while (head) {
		struct llist_node *tmp = head;

		head = head->next;
		tmp->next = new_head;
		new_head = tmp;
	}
	return new_head;
}

#define llist_entry(ptr, type, member)	container_of(ptr, type, member)

#endif
