/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_RBTREE_TYPES_H
#define _LINUX_RBTREE_TYPES_H

/*
 * The red-black tree node and roots alone, for headers that embed them in
 * their own structures without needing the operations (<linux/rbtree.h>).
 */

/*
 * A node is embedded in the caller's structure.  The parent pointer and the
 * node's colour share one word: nodes are at least long-aligned, so bit 0
 * of a node address is always free and holds the colour (0 red, 1 black).
 * Bit 1 is unused and always zero.  A node whose word points at itself is
 * "cleared" (RB_CLEAR_NODE): not linked into any tree.
 */
struct rb_node {
	unsigned long __rb_parent_color;
	struct rb_node *rb_right;
	struct rb_node *rb_left;
} __attribute__((__aligned__(sizeof(long))));

struct rb_root {
	struct rb_node *rb_node;
};

/*
 * A root that also remembers its leftmost (smallest) node, so that
 * rb_first_cached() is O(1): run queues and timer queues pick the minimum
 * far more often than they insert.  Only the *_cached operations keep
 * rb_leftmost up to date.
 */
struct rb_root_cached {
	struct rb_root rb_root;
	struct rb_node *rb_leftmost;
};

#define RB_ROOT		((struct rb_root) { NULL })
#define RB_ROOT_CACHED	((struct rb_root_cached) { { NULL }, NULL })

#endif /* _LINUX_RBTREE_TYPES_H */
