// SPDX-License-Identifier: GPL-2.0
/*
 * Red-black trees: insertion and deletion fix-ups after Cormen, Leiserson,
 * Rivest and Stein, "Introduction to Algorithms", ch. 13, adapted to NULL
 * leaves and to parent pointers that share a word with the colour.
 *
 * The invariants restored after every change:
 *   1. the root is black;
 *   2. a red node has no red child;
 *   3. every path from a node down to a NULL leaf crosses the same number
 *      of black nodes (the node's black height).
 * Together they keep the height below 2 * log2(n + 1).
 */
#include <linux/rbtree.h>

#define RB_RED		0UL
#define RB_BLACK	1UL

static inline unsigned long rb_colour(const struct rb_node *n)
{
	return n->__rb_parent_color & 1;
}

static inline bool rb_is_red(const struct rb_node *n)
{
	return rb_colour(n) == RB_RED;
}

/* NULL leaves count as black. */
static inline bool rb_is_black_or_null(const struct rb_node *n)
{
	return !n || rb_colour(n) == RB_BLACK;
}

static inline void rb_set_black(struct rb_node *n)
{
	n->__rb_parent_color |= RB_BLACK;
}

static inline void rb_set_red(struct rb_node *n)
{
	n->__rb_parent_color &= ~RB_BLACK;
}

static inline void rb_set_colour(struct rb_node *n, unsigned long colour)
{
	n->__rb_parent_color = (n->__rb_parent_color & ~1UL) | colour;
}

/* New parent, same colour. */
static inline void rb_set_parent(struct rb_node *n, struct rb_node *parent)
{
	n->__rb_parent_color = (unsigned long)parent | rb_colour(n);
}

/* Point whatever referred to @old (its parent or the root) at @new. */
static inline void rb_change_child(struct rb_node *old, struct rb_node *new,
				   struct rb_node *parent, struct rb_root *root)
{
	if (!parent)
		root->rb_node = new;
	else if (parent->rb_left == old)
		parent->rb_left = new;
	else
		parent->rb_right = new;
}

/*
 * Rotate left around @x: its right child @y takes its place, @x becomes
 * @y's left child and @y's former left subtree becomes @x's right one.
 * In-order sequence and colours are unchanged.
 *
 *	    x                y
 *	   / \              / \
 *	  a   y     =>     x   c
 *	     / \          / \
 *	    b   c        a   b
 */
static void rb_rotate_left(struct rb_node *x, struct rb_root *root)
{
	struct rb_node *y = x->rb_right;
	struct rb_node *parent = rb_parent(x);

	x->rb_right = y->rb_left;
	if (y->rb_left)
		rb_set_parent(y->rb_left, x);
	y->rb_left = x;
	rb_set_parent(y, parent);
	rb_change_child(x, y, parent, root);
	rb_set_parent(x, y);
}

/* The mirror image of rb_rotate_left(). */
static void rb_rotate_right(struct rb_node *x, struct rb_root *root)
{
	struct rb_node *y = x->rb_left;
	struct rb_node *parent = rb_parent(x);

	x->rb_left = y->rb_right;
	if (y->rb_right)
		rb_set_parent(y->rb_right, x);
	y->rb_right = x;
	rb_set_parent(y, parent);
	rb_change_child(x, y, parent, root);
	rb_set_parent(x, y);
}

/*
 * @node was just linked in as a red leaf.  That keeps black heights but may
 * put it under a red parent.  Walk the red-red violation up the tree:
 *
 *   case 1, the uncle is red: paint parent and uncle black and the
 *	grandparent red.  Black heights below the grandparent are unchanged;
 *	the violation may now sit between the grandparent and its parent, so
 *	continue from there.
 *   case 2, the uncle is black and @node is an inner grandchild (the
 *	right child of a left child, or the mirror): rotate at the parent so
 *	that the pair lines up on the outside, then go on with case 3.
 *   case 3, the uncle is black and @node is an outer grandchild: rotate
 *	at the grandparent so the parent takes its place, and swap the two
 *	nodes' colours.  The subtree's top is black again; done.
 *
 * Finally the root is painted black (case 1 may have reddened it).
 */
void rb_insert_color(struct rb_node *node, struct rb_root *root)
{
	struct rb_node *parent, *gparent, *uncle;

	while ((parent = rb_parent(node)) && rb_is_red(parent)) {
		/* A red node is never the root: the grandparent exists. */
		gparent = rb_parent(parent);

		if (parent == gparent->rb_left) {
			uncle = gparent->rb_right;
			if (uncle && rb_is_red(uncle)) {
				rb_set_black(parent);
				rb_set_black(uncle);
				rb_set_red(gparent);
				node = gparent;
				continue;
			}
			if (node == parent->rb_right) {
				rb_rotate_left(parent, root);
				parent = node;
			}
			rb_set_black(parent);
			rb_set_red(gparent);
			rb_rotate_right(gparent, root);
		} else {
			uncle = gparent->rb_left;
			if (uncle && rb_is_red(uncle)) {
				rb_set_black(parent);
				rb_set_black(uncle);
				rb_set_red(gparent);
				node = gparent;
				continue;
			}
			if (node == parent->rb_left) {
				rb_rotate_right(parent, root);
				parent = node;
			}
			rb_set_black(parent);
			rb_set_red(gparent);
			rb_rotate_left(gparent, root);
		}
		break;
	}
	rb_set_black(root->rb_node);
}

/*
 * A black node was removed from above @x (possibly a NULL leaf), the child
 * of @parent: every path through @x is one black short.  Think of @x as
 * carrying an extra black; if @x is red, painting it black settles the
 * debt.  Otherwise, with @w the sibling of @x (it exists: its side has
 * black height of at least one):
 *
 *   case 1, @w is red: rotate at @parent so @w takes its place and swap
 *	their colours.  Nothing changes for black heights, but @x now has a
 *	black sibling (@w's former child): go on with cases 2-4.
 *   case 2, @w is black with two black children: paint @w red, which
 *	takes one black off @w's side as well, so the debt moves up to
 *	@parent.  Continue with @parent as @x.
 *   case 3, @w is black, its far child black and its near child red:
 *	rotate at @w so the near child takes its place and swap their
 *	colours.  @x's new sibling is black with a red far child: case 4.
 *   case 4, @w is black with a red far child: rotate at @parent so @w
 *	takes its place and colour; @parent and the far child turn black.
 *	@x's side gains a black, @w's side keeps its count; done.
 *
 * The loop also stops at the root: a missing black on every path at once
 * is no violation.
 */
static void rb_erase_fixup(struct rb_node *x, struct rb_node *parent,
			   struct rb_root *root)
{
	struct rb_node *w;

	while (x != root->rb_node && rb_is_black_or_null(x)) {
		/*
		 * When @x is NULL, @parent's other child is not (see above),
		 * so a NULL rb_left can only be @x itself.
		 */
		if (x == parent->rb_left) {
			w = parent->rb_right;
			if (rb_is_red(w)) {
				rb_set_black(w);
				rb_set_red(parent);
				rb_rotate_left(parent, root);
				w = parent->rb_right;
			}
			if (rb_is_black_or_null(w->rb_left) &&
			    rb_is_black_or_null(w->rb_right)) {
				rb_set_red(w);
				x = parent;
				parent = rb_parent(x);
				continue;
			}
			if (rb_is_black_or_null(w->rb_right)) {
				rb_set_black(w->rb_left);
				rb_set_red(w);
				rb_rotate_right(w, root);
				w = parent->rb_right;
			}
			rb_set_colour(w, rb_colour(parent));
			rb_set_black(parent);
			rb_set_black(w->rb_right);
			rb_rotate_left(parent, root);
		} else {
			w = parent->rb_left;
			if (rb_is_red(w)) {
				rb_set_black(w);
				rb_set_red(parent);
				rb_rotate_right(parent, root);
				w = parent->rb_left;
			}
			if (rb_is_black_or_null(w->rb_left) &&
			    rb_is_black_or_null(w->rb_right)) {
				rb_set_red(w);
				x = parent;
				parent = rb_parent(x);
				continue;
			}
			if (rb_is_black_or_null(w->rb_left)) {
				rb_set_black(w->rb_right);
				rb_set_red(w);
				rb_rotate_left(w, root);
				w = parent->rb_left;
			}
			rb_set_colour(w, rb_colour(parent));
			rb_set_black(parent);
			rb_set_black(w->rb_left);
			rb_rotate_right(parent, root);
		}
		x = root->rb_node;
		break;
	}
	if (x)
		rb_set_black(x);
}

/*
 * Unlink @node.  With at most one child, that child (or NULL) takes its
 * place.  With two, its in-order successor @s (the leftmost node of the
 * right subtree, which has no left child) is moved into @node's position
 * and colour, and the hole is at @s's old position instead.  Either way
 * one position lost a node: if that node was black, its replacement @x is
 * one black short and rb_erase_fixup() repairs it.
 */
void rb_erase(struct rb_node *node, struct rb_root *root)
{
	struct rb_node *x, *parent, *s;
	unsigned long removed;

	if (!node->rb_left || !node->rb_right) {
		x = node->rb_left ? node->rb_left : node->rb_right;
		parent = rb_parent(node);
		removed = rb_colour(node);
		rb_change_child(node, x, parent, root);
		if (x)
			rb_set_parent(x, parent);
	} else {
		s = node->rb_right;
		while (s->rb_left)
			s = s->rb_left;
		x = s->rb_right;
		removed = rb_colour(s);
		if (s == node->rb_right) {
			/* @s keeps its right subtree; @x stays below it. */
			parent = s;
		} else {
			/* Splice @s out, then give it @node's right subtree. */
			parent = rb_parent(s);
			parent->rb_left = x;
			if (x)
				rb_set_parent(x, parent);
			s->rb_right = node->rb_right;
			rb_set_parent(s->rb_right, s);
		}
		s->rb_left = node->rb_left;
		rb_set_parent(s->rb_left, s);
		/* @node's parent and colour in one go. */
		s->__rb_parent_color = node->__rb_parent_color;
		rb_change_child(node, s, rb_parent(node), root);
	}
	if (removed == RB_BLACK)
		rb_erase_fixup(x, parent, root);
}

void rb_replace_node(struct rb_node *victim, struct rb_node *new,
		     struct rb_root *root)
{
	*new = *victim;
	if (new->rb_left)
		rb_set_parent(new->rb_left, new);
	if (new->rb_right)
		rb_set_parent(new->rb_right, new);
	rb_change_child(victim, new, rb_parent(victim), root);
}

struct rb_node *rb_first(const struct rb_root *root)
{
	struct rb_node *n = root->rb_node;

	if (n)
		while (n->rb_left)
			n = n->rb_left;
	return n;
}

struct rb_node *rb_last(const struct rb_root *root)
{
	struct rb_node *n = root->rb_node;

	if (n)
		while (n->rb_right)
			n = n->rb_right;
	return n;
}

/*
 * The successor is the leftmost node of the right subtree if there is one;
 * otherwise the first ancestor reached from its left side.
 */
struct rb_node *rb_next(const struct rb_node *node)
{
	struct rb_node *n = (struct rb_node *)node, *parent;

	if (RB_EMPTY_NODE(node))
		return NULL;
	if (n->rb_right) {
		n = n->rb_right;
		while (n->rb_left)
			n = n->rb_left;
		return n;
	}
	while ((parent = rb_parent(n)) && n == parent->rb_right)
		n = parent;
	return parent;
}

/* The mirror image of rb_next(). */
struct rb_node *rb_prev(const struct rb_node *node)
{
	struct rb_node *n = (struct rb_node *)node, *parent;

	if (RB_EMPTY_NODE(node))
		return NULL;
	if (n->rb_left) {
		n = n->rb_left;
		while (n->rb_right)
			n = n->rb_right;
		return n;
	}
	while ((parent = rb_parent(n)) && n == parent->rb_left)
		n = parent;
	return parent;
}

/* The first node in post-order below @n: go down, left when possible. */
static struct rb_node *rb_deepest_left(struct rb_node *n)
{
	for (;;) {
		if (n->rb_left)
			n = n->rb_left;
		else if (n->rb_right)
			n = n->rb_right;
		else
			return n;
	}
}

struct rb_node *rb_first_postorder(const struct rb_root *root)
{
	return root->rb_node ? rb_deepest_left(root->rb_node) : NULL;
}

/*
 * After a left child comes its right sibling's subtree; after a right
 * child (or a left child without a sibling) comes the parent itself.
 */
struct rb_node *rb_next_postorder(const struct rb_node *node)
{
	struct rb_node *parent;

	if (!node)
		return NULL;
	parent = rb_parent(node);
	if (parent && node == parent->rb_left && parent->rb_right)
		return rb_deepest_left(parent->rb_right);
	return parent;
}
