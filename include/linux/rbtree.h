/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_RBTREE_H
#define _LINUX_RBTREE_H

/*
 * Red-black trees with the interface of Linux's <linux/rbtree.h>.
 *
 * The tree is intrusive and knows nothing about keys: a user embeds a
 * struct rb_node in its own structure, walks down from the root comparing
 * keys itself, links the new node at the empty slot it reached and then
 * lets rb_insert_color() restore the balance:
 *
 *	struct rb_node **link = &root->rb_node, *parent = NULL;
 *
 *	while (*link) {
 *		parent = *link;
 *		if (key < rb_entry(parent, struct thing, node)->key)
 *			link = &parent->rb_left;
 *		else
 *			link = &parent->rb_right;
 *	}
 *	rb_link_node(&new->node, parent, link);
 *	rb_insert_color(&new->node, root);
 *
 * rb_add(), rb_add_cached(), rb_find() and friends package the common
 * descents for callers that can express the order as a less()/cmp()
 * function.  There is no locking: callers serialise all access to a tree.
 */
#include <linux/kernel.h>
#include <linux/rbtree_types.h>

#define rb_parent(r)	((struct rb_node *)((r)->__rb_parent_color & ~3UL))

#define rb_entry(ptr, type, member)	container_of(ptr, type, member)

/* Like rb_entry(), but a NULL node gives a NULL entry. */
#define rb_entry_safe(ptr, type, member) ({				\
	struct rb_node *__rbn = (ptr);					\
	__rbn ? rb_entry(__rbn, type, member) : NULL;			\
})

#define RB_EMPTY_ROOT(root)	(READ_ONCE((root)->rb_node) == NULL)

/* A cleared node points at itself: it is in no tree. */
#define RB_EMPTY_NODE(node)						\
	((node)->__rb_parent_color == (unsigned long)(node))
#define RB_CLEAR_NODE(node)						\
	((node)->__rb_parent_color = (unsigned long)(node))

/* Rebalance after rb_link_node() put @node into the tree. */
void rb_insert_color(struct rb_node *node, struct rb_root *root);
/* Unlink @node and rebalance.  @node itself is left untouched. */
void rb_erase(struct rb_node *node, struct rb_root *root);

/* In-order walk; NULL past either end (and for a cleared node). */
struct rb_node *rb_next(const struct rb_node *node);
struct rb_node *rb_prev(const struct rb_node *node);
struct rb_node *rb_first(const struct rb_root *root);
struct rb_node *rb_last(const struct rb_root *root);

/*
 * Post-order walk (children before their parent): lets a whole tree be
 * torn down without rebalancing, since a node is visited only after
 * everything below it.
 */
struct rb_node *rb_first_postorder(const struct rb_root *root);
struct rb_node *rb_next_postorder(const struct rb_node *node);

/*
 * Put @new exactly where @victim is (same parent, children and colour)
 * without rebalancing.  The caller guarantees @new sorts where @victim did.
 */
void rb_replace_node(struct rb_node *victim, struct rb_node *new,
		     struct rb_root *root);

/*
 * Hang the new red leaf @node below @parent at *@rb_link, the empty child
 * slot found by the caller's descent.  @parent is NULL for the first node.
 */
static inline void rb_link_node(struct rb_node *node, struct rb_node *parent,
				struct rb_node **rb_link)
{
	node->__rb_parent_color = (unsigned long)parent;	/* red */
	node->rb_left = NULL;
	node->rb_right = NULL;
	*rb_link = node;
}

/*
 * Safe against freeing @pos inside the loop: @n already holds the next
 * entry.  Visits in post-order, so it can free a whole tree.
 */
#define rbtree_postorder_for_each_entry_safe(pos, n, root, field)	\
	for (pos = rb_entry_safe(rb_first_postorder(root), typeof(*pos), field); \
	     pos && ({ n = rb_entry_safe(rb_next_postorder(&pos->field), \
					 typeof(*pos), field); 1; });	\
	     pos = n)

/* The leftmost node of a cached tree, or NULL when it is empty. */
#define rb_first_cached(root)	((root)->rb_leftmost)

/*
 * rb_insert_color() for a cached tree.  @leftmost: the caller's descent
 * never went right, so @node is the new minimum.
 */
static inline void rb_insert_color_cached(struct rb_node *node,
					  struct rb_root_cached *root,
					  bool leftmost)
{
	if (leftmost)
		root->rb_leftmost = node;
	rb_insert_color(node, &root->rb_root);
}

/*
 * rb_erase() for a cached tree.  Returns the new leftmost node when @node
 * was the leftmost one (NULL if the tree is now empty), otherwise NULL.
 */
static inline struct rb_node *rb_erase_cached(struct rb_node *node,
					      struct rb_root_cached *root)
{
	struct rb_node *new_first = NULL;

	if (node == root->rb_leftmost) {
		new_first = rb_next(node);
		root->rb_leftmost = new_first;
	}
	rb_erase(node, &root->rb_root);
	return new_first;
}

static inline void rb_replace_node_cached(struct rb_node *victim,
					  struct rb_node *new,
					  struct rb_root_cached *root)
{
	if (root->rb_leftmost == victim)
		root->rb_leftmost = new;
	rb_replace_node(victim, new, &root->rb_root);
}

/*
 * The helpers below take the order as a function so that the compiler can
 * inline it into the descent.
 *
 * less(a, b): a sorts strictly before b.  Nodes that compare equal keep
 * their insertion order: a new node goes after its equals.
 */

/* Insert @node into a cached tree; returns @node if it became leftmost. */
static __always_inline struct rb_node *
rb_add_cached(struct rb_node *node, struct rb_root_cached *tree,
	      bool (*less)(struct rb_node *, const struct rb_node *))
{
	struct rb_node **slot = &tree->rb_root.rb_node;
	struct rb_node *parent = NULL;
	bool leftmost = true;

	while (*slot) {
		parent = *slot;
		if (less(node, parent)) {
			slot = &parent->rb_left;
		} else {
			slot = &parent->rb_right;
			leftmost = false;
		}
	}
	rb_link_node(node, parent, slot);
	rb_insert_color_cached(node, tree, leftmost);
	return leftmost ? node : NULL;
}

static __always_inline void
rb_add(struct rb_node *node, struct rb_root *tree,
       bool (*less)(struct rb_node *, const struct rb_node *))
{
	struct rb_node **slot = &tree->rb_node;
	struct rb_node *parent = NULL;

	while (*slot) {
		parent = *slot;
		slot = less(node, parent) ? &parent->rb_left : &parent->rb_right;
	}
	rb_link_node(node, parent, slot);
	rb_insert_color(node, tree);
}

/*
 * Insert @node unless a node comparing equal is already present.
 * cmp(a, b) < 0, 0, > 0 as a sorts before, with, after b.
 * Returns the existing node (and leaves @node out), or NULL once inserted.
 */
static __always_inline struct rb_node *
rb_find_add(struct rb_node *node, struct rb_root *tree,
	    int (*cmp)(struct rb_node *, const struct rb_node *))
{
	struct rb_node **slot = &tree->rb_node;
	struct rb_node *parent = NULL;
	int c;

	while (*slot) {
		parent = *slot;
		c = cmp(node, parent);
		if (c < 0)
			slot = &parent->rb_left;
		else if (c > 0)
			slot = &parent->rb_right;
		else
			return parent;
	}
	rb_link_node(node, parent, slot);
	rb_insert_color(node, tree);
	return NULL;
}

/*
 * Look up @key.  cmp(key, n) < 0, 0, > 0 as @key sorts before, with, after
 * node n.  rb_find() returns any matching node, rb_find_first() the
 * leftmost one among equals; both NULL if none matches.
 */
static __always_inline struct rb_node *
rb_find(const void *key, const struct rb_root *tree,
	int (*cmp)(const void *key, const struct rb_node *))
{
	struct rb_node *n = tree->rb_node;
	int c;

	while (n) {
		c = cmp(key, n);
		if (c == 0)
			return n;
		n = c < 0 ? n->rb_left : n->rb_right;
	}
	return NULL;
}

static __always_inline struct rb_node *
rb_find_first(const void *key, const struct rb_root *tree,
	      int (*cmp)(const void *key, const struct rb_node *))
{
	struct rb_node *n = tree->rb_node, *found = NULL;
	int c;

	/* On a match keep looking left: an equal node may sort earlier. */
	while (n) {
		c = cmp(key, n);
		if (c <= 0) {
			if (c == 0)
				found = n;
			n = n->rb_left;
		} else {
			n = n->rb_right;
		}
	}
	return found;
}

/* The node after @node if it also matches @key, else NULL. */
static __always_inline struct rb_node *
rb_next_match(const void *key, struct rb_node *node,
	      int (*cmp)(const void *key, const struct rb_node *))
{
	node = rb_next(node);
	if (node && cmp(key, node) != 0)
		node = NULL;
	return node;
}

/* Every node matching @key, in order. */
#define rb_for_each(node, key, tree, cmp)				\
	for ((node) = rb_find_first((key), (tree), (cmp));		\
	     (node); (node) = rb_next_match((key), (node), (cmp)))

#endif /* _LINUX_RBTREE_H */
