// SPDX-License-Identifier: GPL-2.0
/*
 * Red-black trees: every insertion and erasure in long pseudo-random
 * sequences is followed by a full check of the red-black invariants, the
 * parent pointers and the in-order sequence against a sorted reference
 * array.  Then the cached-leftmost variants, node replacement, the lookup
 * helpers, post-order walks, a self-test of the checker on hand-built
 * broken trees, and a benchmark.
 */
#include <linux/ktest.h>
#include <linux/rbtree.h>
#include <asm/processor.h>

/*
 * The colour is bit 0 of __rb_parent_color, 1 for black (see
 * <linux/rbtree_types.h>).  The test reads it directly, deliberately not
 * through anything lib/rbtree.c provides.
 */
#define RBT_IS_BLACK(n)	(((n)->__rb_parent_color & 1) != 0)

/*
 * Items order by (key, seq).  seq is unique, so equal keys are allowed and
 * still sort strictly.  The node is deliberately not the first member.
 */
struct rbt_item {
	u32 key;
	u32 seq;
	struct rb_node node;
	bool visited;
};

#define to_item(n)	rb_entry(n, struct rbt_item, node)

static inline u64 item_ord(const struct rbt_item *it)
{
	return ((u64)it->key << 32) | it->seq;
}

/* A 64-bit LCG (Knuth's MMIX constants); the high bits are the good ones. */
static u64 rbt_seed;

static void rbt_srand(u64 seed)
{
	rbt_seed = seed;
}

static u32 rbt_rand(u32 bound)
{
	rbt_seed = rbt_seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return (u32)(rbt_seed >> 33) % bound;
}

#define RBT_MAX		2048

static struct rbt_item items[RBT_MAX], spares[RBT_MAX];
static struct rbt_item *ref[RBT_MAX];	/* the items in the tree, sorted */
static unsigned int nref;

static int rbtree_test_init(struct ktest *t)
{
	memset(items, 0, sizeof(items));
	memset(spares, 0, sizeof(spares));
	nref = 0;
	return 0;
}

/* Index of the first reference entry that sorts at or after @it. */
static unsigned int ref_lower_bound(const struct rbt_item *it)
{
	unsigned int lo = 0, hi = nref;

	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;

		if (item_ord(ref[mid]) < item_ord(it))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Returns the position @it was inserted at. */
static unsigned int ref_insert(struct rbt_item *it)
{
	unsigned int i = ref_lower_bound(it);

	memmove(&ref[i + 1], &ref[i], (nref - i) * sizeof(ref[0]));
	ref[i] = it;
	nref++;
	return i;
}

static void ref_remove(unsigned int i)
{
	memmove(&ref[i], &ref[i + 1], (nref - i - 1) * sizeof(ref[0]));
	nref--;
}

/* ---- the checker ---- */

enum rbt_err {
	RBT_OK,
	RBT_ROOT_PARENT,	/* the root has a parent */
	RBT_ROOT_RED,
	RBT_RED_RED,		/* a red node with a red child */
	RBT_BLACK_HEIGHT,	/* two paths with different black counts */
	RBT_BAD_PARENT,		/* a child's parent pointer is not its parent */
	RBT_SPARE_BIT,		/* bit 1 of the parent word is set */
	RBT_UNSORTED,		/* in-order sequence not strictly increasing */
	RBT_REF_MISMATCH,	/* in-order sequence differs from the reference */
	RBT_TOO_MANY,		/* more nodes than the reference */
	RBT_TOO_FEW,
	RBT_FIRST_LAST,		/* rb_first/rb_last disagree with the reference */
	RBT_NEXT,		/* the rb_next walk disagrees */
	RBT_PREV,		/* the rb_prev walk disagrees */
};

static const char *const rbt_err_name[] = {
	[RBT_OK]		= "ok",
	[RBT_ROOT_PARENT]	= "root has a parent",
	[RBT_ROOT_RED]		= "root is red",
	[RBT_RED_RED]		= "red node with a red child",
	[RBT_BLACK_HEIGHT]	= "unequal black heights",
	[RBT_BAD_PARENT]	= "inconsistent parent pointer",
	[RBT_SPARE_BIT]		= "bit 1 of __rb_parent_color set",
	[RBT_UNSORTED]		= "in-order sequence not strictly sorted",
	[RBT_REF_MISMATCH]	= "in-order sequence differs from the reference",
	[RBT_TOO_MANY]		= "more nodes than the reference",
	[RBT_TOO_FEW]		= "fewer nodes than the reference",
	[RBT_FIRST_LAST]	= "rb_first/rb_last disagree with the reference",
	[RBT_NEXT]		= "rb_next walk disagrees with the reference",
	[RBT_PREV]		= "rb_prev walk disagrees with the reference",
};

struct rbt_check {
	struct rbt_item *const *ref;
	unsigned int nref;
	unsigned int seen;		/* nodes visited in order so far */
	const struct rbt_item *last;	/* the previous one */
	enum rbt_err err;
	const struct rb_node *where;	/* the offending node */
	unsigned int height;		/* of the tree, in nodes */
};

static int rbt_fail(struct rbt_check *c, enum rbt_err err,
		    const struct rb_node *n)
{
	c->err = err;
	c->where = n;
	return -1;
}

/*
 * Returns the black height of @n (NULL leaves count one), or -1 with c->err
 * set.  Visits the nodes in order.
 */
static int rbt_check_subtree(struct rbt_check *c, const struct rb_node *n,
			     const struct rb_node *parent, unsigned int depth)
{
	const struct rbt_item *it;
	int lh, rh;

	if (!n) {
		if (depth > c->height)
			c->height = depth;
		return 1;
	}
	if (n->__rb_parent_color & 2)
		return rbt_fail(c, RBT_SPARE_BIT, n);
	if (rb_parent(n) != parent)
		return rbt_fail(c, RBT_BAD_PARENT, n);
	if (parent && !RBT_IS_BLACK(n) && !RBT_IS_BLACK(parent))
		return rbt_fail(c, RBT_RED_RED, parent);

	lh = rbt_check_subtree(c, n->rb_left, n, depth + 1);
	if (lh < 0)
		return -1;

	it = to_item(n);
	if (c->last && item_ord(c->last) >= item_ord(it))
		return rbt_fail(c, RBT_UNSORTED, n);
	if (c->seen >= c->nref)
		return rbt_fail(c, RBT_TOO_MANY, n);
	if (c->ref[c->seen] != it)
		return rbt_fail(c, RBT_REF_MISMATCH, n);
	c->last = it;
	c->seen++;

	rh = rbt_check_subtree(c, n->rb_right, n, depth + 1);
	if (rh < 0)
		return -1;
	if (lh != rh)
		return rbt_fail(c, RBT_BLACK_HEIGHT, n);
	return lh + RBT_IS_BLACK(n);
}

/* The whole-tree checks; -1 with c->err set on the first problem. */
static int rbt_walk(struct rbt_check *c, const struct rb_root *root)
{
	struct rbt_item *const *r = c->ref;
	const struct rb_node *node = root->rb_node;
	unsigned int i, n = c->nref;

	if (node && rb_parent(node))
		return rbt_fail(c, RBT_ROOT_PARENT, node);
	if (node && !RBT_IS_BLACK(node))
		return rbt_fail(c, RBT_ROOT_RED, node);
	if (rbt_check_subtree(c, node, NULL, 0) < 0)
		return -1;
	if (c->seen != n || RB_EMPTY_ROOT(root) != (n == 0))
		return rbt_fail(c, RBT_TOO_FEW, NULL);

	/* The library's own walks must agree with what we just saw. */
	if (rb_first(root) != (n ? &r[0]->node : NULL) ||
	    rb_last(root) != (n ? &r[n - 1]->node : NULL))
		return rbt_fail(c, RBT_FIRST_LAST, NULL);
	for (i = 0, node = rb_first(root); node; node = rb_next(node), i++)
		if (i >= n || node != &r[i]->node)
			return rbt_fail(c, RBT_NEXT, node);
	if (i != n)
		return rbt_fail(c, RBT_NEXT, NULL);
	for (i = n, node = rb_last(root); node; node = rb_prev(node))
		if (i == 0 || node != &r[--i]->node)
			return rbt_fail(c, RBT_PREV, node);
	if (i != 0)
		return rbt_fail(c, RBT_PREV, NULL);
	return 0;
}

/* Check @root against the sorted reference @r[0..@n). */
static enum rbt_err rbt_check(struct rbt_check *c, const struct rb_root *root,
			      struct rbt_item *const *r, unsigned int n)
{
	*c = (struct rbt_check){ .ref = r, .nref = n };
	rbt_walk(c, root);
	return c->err;
}

/* Check @root against ref[] and end the case on the first problem. */
#define RBT_VALIDATE(t, root, what, step) do {				\
	struct rbt_check __c;						\
	if (rbt_check(&__c, root, ref, nref) != RBT_OK) {		\
		ktest_fail(t, __FILE__, __LINE__,			\
			   "after %s #%u (%u nodes): %s at key %ld seq %ld", \
			   what, (unsigned int)(step), nref,		\
			   rbt_err_name[__c.err],			\
			   __c.where ? (long)to_item(__c.where)->key : -1L, \
			   __c.where ? (long)to_item(__c.where)->seq : -1L); \
		ktest_abort(t);						\
	}								\
} while (0)

/* ---- insertion the way Linux users do it ---- */

/* Open-coded descent, as the CFS run queue and hrtimers do. */
static void rbt_insert(struct rb_root *root, struct rbt_item *it)
{
	struct rb_node **link = &root->rb_node, *parent = NULL;

	while (*link) {
		parent = *link;
		if (item_ord(it) < item_ord(to_item(parent)))
			link = &parent->rb_left;
		else
			link = &parent->rb_right;
	}
	rb_link_node(&it->node, parent, link);
	rb_insert_color(&it->node, root);
}

static void rbt_insert_cached(struct rb_root_cached *root, struct rbt_item *it)
{
	struct rb_node **link = &root->rb_root.rb_node, *parent = NULL;
	bool leftmost = true;

	while (*link) {
		parent = *link;
		if (item_ord(it) < item_ord(to_item(parent))) {
			link = &parent->rb_left;
		} else {
			link = &parent->rb_right;
			leftmost = false;
		}
	}
	rb_link_node(&it->node, parent, link);
	rb_insert_color_cached(&it->node, root, leftmost);
}

static bool rbt_less(struct rb_node *a, const struct rb_node *b)
{
	return item_ord(to_item(a)) < item_ord(to_item(b));
}

/* Key only: equal keys must then keep insertion order. */
static bool rbt_key_less(struct rb_node *a, const struct rb_node *b)
{
	return to_item(a)->key < to_item(b)->key;
}

static int rbt_key_cmp(const void *key, const struct rb_node *n)
{
	u32 k = *(const u32 *)key;

	return k < to_item(n)->key ? -1 : k > to_item(n)->key ? 1 : 0;
}

static int rbt_node_key_cmp(struct rb_node *a, const struct rb_node *b)
{
	return rbt_key_cmp(&to_item(a)->key, b);
}

/* ---- the cases ---- */

static void empty_and_single(struct ktest *t)
{
	struct rb_root root = RB_ROOT;
	struct rb_root_cached croot = RB_ROOT_CACHED;
	struct rbt_item *it = &items[0];

	BUILD_BUG_ON(__alignof__(struct rb_node) < sizeof(long));
	BUILD_BUG_ON(sizeof(struct rb_node) != 3 * sizeof(long));

	KTEST_EXPECT_TRUE(t, RB_EMPTY_ROOT(&root));
	KTEST_EXPECT_TRUE(t, rb_first(&root) == NULL);
	KTEST_EXPECT_TRUE(t, rb_last(&root) == NULL);
	KTEST_EXPECT_TRUE(t, rb_first_postorder(&root) == NULL);
	KTEST_EXPECT_TRUE(t, RB_EMPTY_ROOT(&croot.rb_root));
	KTEST_EXPECT_TRUE(t, rb_first_cached(&croot) == NULL);
	KTEST_EXPECT_TRUE(t, rb_entry_safe((struct rb_node *)NULL, struct rbt_item, node) == NULL);
	KTEST_EXPECT_TRUE(t, rb_entry_safe(&it->node, struct rbt_item, node) == it);

	RB_CLEAR_NODE(&it->node);
	KTEST_EXPECT_TRUE(t, RB_EMPTY_NODE(&it->node));
	KTEST_EXPECT_TRUE(t, rb_next(&it->node) == NULL);
	KTEST_EXPECT_TRUE(t, rb_prev(&it->node) == NULL);

	it->key = 7;
	rbt_insert(&root, it);
	ref_insert(it);
	KTEST_EXPECT_FALSE(t, RB_EMPTY_NODE(&it->node));
	KTEST_EXPECT_FALSE(t, RB_EMPTY_ROOT(&root));
	KTEST_EXPECT_TRUE(t, root.rb_node == &it->node);
	KTEST_EXPECT_TRUE(t, rb_parent(&it->node) == NULL);
	KTEST_EXPECT_TRUE(t, RBT_IS_BLACK(&it->node));
	KTEST_EXPECT_TRUE(t, rb_next(&it->node) == NULL);
	KTEST_EXPECT_TRUE(t, rb_prev(&it->node) == NULL);
	RBT_VALIDATE(t, &root, "insert", 0);

	rb_erase(&it->node, &root);
	ref_remove(0);
	KTEST_EXPECT_TRUE(t, RB_EMPTY_ROOT(&root));
	RBT_VALIDATE(t, &root, "erase", 0);
}

/* Sorted input: every insertion lands on the same spine. */
static void sequential_inserts(struct ktest *t)
{
	struct rb_root root = RB_ROOT;
	struct rbt_check c;
	unsigned int i, n = 1024, bound;

	for (i = 0; i < n; i++) {
		items[i].key = i;
		rbt_insert(&root, &items[i]);
		ref_insert(&items[i]);
		RBT_VALIDATE(t, &root, "ascending insert", i);
	}
	/* A red-black tree with n nodes is at most 2 * log2(n + 1) high. */
	rbt_check(&c, &root, ref, nref);
	bound = 20;			/* 2 * log2(1025) = 20.003 */
	KTEST_EXPECT_LE(t, c.height, bound);

	root = RB_ROOT;
	nref = 0;
	for (i = 0; i < n; i++) {
		items[i].key = n - i;
		rbt_insert(&root, &items[i]);
		ref_insert(&items[i]);
		RBT_VALIDATE(t, &root, "descending insert", i);
	}
	rbt_check(&c, &root, ref, nref);
	KTEST_EXPECT_LE(t, c.height, bound);
	ktest_info(t, "height after %u sorted inserts: %u", n, c.height);
}

/*
 * 2000 operations over keys 0..499, about 60% inserts: the tree wanders up
 * to a few hundred nodes with many duplicate keys.
 */
#define RANDOM_OPS	2000
#define RANDOM_KEYS	500

static void random_insert_erase(struct ktest *t)
{
	struct rb_root root = RB_ROOT;
	unsigned int op, inserts = 0, erases = 0, max = 0;

	rbt_srand(0x5eed0001);
	for (op = 0; op < RANDOM_OPS; op++) {
		if (nref == 0 || rbt_rand(100) < 60) {
			struct rbt_item *it = &items[op];

			it->key = rbt_rand(RANDOM_KEYS);
			it->seq = op;
			rbt_insert(&root, it);
			ref_insert(it);
			inserts++;
			RBT_VALIDATE(t, &root, "insert", op);
		} else {
			unsigned int i = rbt_rand(nref);
			struct rbt_item *it = ref[i];

			rb_erase(&it->node, &root);
			ref_remove(i);
			RB_CLEAR_NODE(&it->node);
			erases++;
			RBT_VALIDATE(t, &root, "erase", op);
			KTEST_EXPECT_TRUE(t, rb_next(&it->node) == NULL);
		}
		if (nref > max)
			max = nref;
	}
	ktest_info(t, "%u inserts, %u erases, up to %u nodes, %u at the end",
		   inserts, erases, max, nref);
	KTEST_EXPECT_GT(t, max, 300);
}

static void cached_leftmost(struct ktest *t)
{
	struct rb_root_cached root = RB_ROOT_CACHED;
	unsigned int op, became_first = 0, lost_first = 0;

	rbt_srand(0x5eed0002);
	for (op = 0; op < RANDOM_OPS; op++) {
		unsigned int r = rbt_rand(100);

		if (nref == 0 || r < 60) {
			struct rbt_item *it = &items[op];
			unsigned int pos;

			it->key = rbt_rand(RANDOM_KEYS);
			it->seq = op;
			if (op & 1) {
				struct rb_node *ret = rb_add_cached(&it->node, &root, rbt_less);

				pos = ref_insert(it);
				/* Returns the node exactly when it became leftmost. */
				KTEST_EXPECT_TRUE(t, ret == (pos == 0 ? &it->node : NULL));
			} else {
				rbt_insert_cached(&root, it);
				pos = ref_insert(it);
			}
			became_first += pos == 0;
			RBT_VALIDATE(t, &root.rb_root, "cached insert", op);
		} else {
			/* A quarter of the erasures take the minimum, like a run queue. */
			unsigned int i = r < 70 ? 0 : rbt_rand(nref);
			struct rb_node *expect = i == 0 && nref > 1 ? &ref[1]->node : NULL;
			struct rb_node *ret = rb_erase_cached(&ref[i]->node, &root);

			KTEST_EXPECT_TRUE(t, ret == expect);
			lost_first += i == 0;
			ref_remove(i);
			RBT_VALIDATE(t, &root.rb_root, "cached erase", op);
		}
		KTEST_ASSERT_TRUE(t, rb_first_cached(&root) == rb_first(&root.rb_root));
		KTEST_ASSERT_TRUE(t, rb_first_cached(&root) == (nref ? &ref[0]->node : NULL));
	}
	ktest_info(t, "%u inserts became leftmost, %u erasures of the leftmost",
		   became_first, lost_first);
	KTEST_EXPECT_GT(t, became_first, 10);
	KTEST_EXPECT_GT(t, lost_first, 10);
}

/* Swap items for their copies in spares[] and back: same place, same shape. */
static void replace_node(struct ktest *t)
{
	struct rb_root root = RB_ROOT;
	struct rb_root_cached croot = RB_ROOT_CACHED;
	unsigned int i, n = 300;

	rbt_srand(0x5eed0003);
	for (i = 0; i < n; i++) {
		items[i].key = rbt_rand(100);
		items[i].seq = i;
		rb_add(&items[i].node, &root, rbt_less);
		ref_insert(&items[i]);
	}
	RBT_VALIDATE(t, &root, "build", 0);

	for (i = 0; i < 2 * n; i++) {
		unsigned int idx = rbt_rand(nref);
		struct rbt_item *old = ref[idx];
		struct rbt_item *new = old >= items && old < items + RBT_MAX ?
				       &spares[old - items] : &items[old - spares];
		struct rb_node *parent = rb_parent(&old->node);
		struct rb_node *left = old->node.rb_left, *right = old->node.rb_right;
		bool black = RBT_IS_BLACK(&old->node);

		new->key = old->key;
		new->seq = old->seq;
		rb_replace_node(&old->node, &new->node, &root);
		ref[idx] = new;
		KTEST_EXPECT_TRUE(t, rb_parent(&new->node) == parent);
		KTEST_EXPECT_TRUE(t, new->node.rb_left == left);
		KTEST_EXPECT_TRUE(t, new->node.rb_right == right);
		KTEST_EXPECT_EQ(t, RBT_IS_BLACK(&new->node), black);
		/* The checker compares identities: @old must be gone. */
		RBT_VALIDATE(t, &root, "replace", i);
	}

	/* And on a cached tree, the leftmost node included. */
	root = RB_ROOT;
	nref = 0;
	memset(items, 0, sizeof(items));
	memset(spares, 0, sizeof(spares));
	for (i = 0; i < 50; i++) {
		items[i].key = rbt_rand(100);
		items[i].seq = i;
		rb_add_cached(&items[i].node, &croot, rbt_less);
		ref_insert(&items[i]);
	}
	for (i = 0; i < 20; i++) {
		unsigned int idx = i & 1 ? 0 : rbt_rand(nref);
		struct rbt_item *old = ref[idx];
		struct rbt_item *new = old >= items && old < items + RBT_MAX ?
				       &spares[old - items] : &items[old - spares];

		new->key = old->key;
		new->seq = old->seq;
		rb_replace_node_cached(&old->node, &new->node, &croot);
		ref[idx] = new;
		RBT_VALIDATE(t, &croot.rb_root, "cached replace", i);
		KTEST_ASSERT_TRUE(t, rb_first_cached(&croot) == &ref[0]->node);
	}
}

static void erase_all_random_order(struct ktest *t)
{
	struct rb_root root = RB_ROOT;
	struct rbt_item *order[500];
	unsigned int i, n = ARRAY_SIZE(order);

	rbt_srand(0x5eed0004);
	for (i = 0; i < n; i++) {
		items[i].key = rbt_rand(RANDOM_KEYS / 2);	/* many duplicates */
		items[i].seq = i;
		rbt_insert(&root, &items[i]);
		ref_insert(&items[i]);
		order[i] = &items[i];
	}
	RBT_VALIDATE(t, &root, "build", 0);
	/* Fisher-Yates shuffle. */
	for (i = n - 1; i > 0; i--) {
		unsigned int j = rbt_rand(i + 1);
		struct rbt_item *tmp = order[i];

		order[i] = order[j];
		order[j] = tmp;
	}
	for (i = 0; i < n; i++) {
		rb_erase(&order[i]->node, &root);
		ref_remove(ref_lower_bound(order[i]));
		RBT_VALIDATE(t, &root, "erase", i);
	}
	KTEST_EXPECT_TRUE(t, RB_EMPTY_ROOT(&root));
	KTEST_EXPECT_TRUE(t, rb_first(&root) == NULL);
	KTEST_EXPECT_TRUE(t, rb_last(&root) == NULL);
}

#define FIND_KEYS	300

static void find_helpers(struct ktest *t)
{
	struct rb_root root = RB_ROOT;
	static unsigned int count[2 * FIND_KEYS + 2];
	static u32 first_seq[2 * FIND_KEYS + 2];
	unsigned int i, n = 400, found = 0;
	struct rb_node *node;
	u32 k;

	memset(count, 0, sizeof(count));
	rbt_srand(0x5eed0005);
	/* Even keys only; rb_add orders by key alone, seq is insertion order. */
	for (i = 0; i < n; i++) {
		k = 2 * rbt_rand(FIND_KEYS);
		items[i].key = k;
		items[i].seq = i;
		if (!count[k]++)
			first_seq[k] = i;
		rb_add(&items[i].node, &root, rbt_key_less);
		ref_insert(&items[i]);
		/* Strict (key, seq) order: equal keys stayed in insertion order. */
		RBT_VALIDATE(t, &root, "rb_add", i);
	}

	for (k = 0; k < ARRAY_SIZE(count); k++) {
		unsigned int dups = 0;
		u32 last_seq = 0;
		struct rbt_item *it;

		node = rb_find(&k, &root, rbt_key_cmp);
		if (!count[k]) {
			KTEST_EXPECT_TRUE(t, node == NULL);
			KTEST_EXPECT_TRUE(t, rb_find_first(&k, &root, rbt_key_cmp) == NULL);
			continue;
		}
		KTEST_ASSERT_TRUE(t, node != NULL);
		it = to_item(node);
		KTEST_EXPECT_EQ(t, it->key, k);
		found++;

		node = rb_find_first(&k, &root, rbt_key_cmp);
		KTEST_ASSERT_TRUE(t, node != NULL);
		it = to_item(node);
		KTEST_EXPECT_EQ(t, it->seq, first_seq[k]);

		rb_for_each(node, &k, &root, rbt_key_cmp) {
			it = to_item(node);
			KTEST_EXPECT_EQ(t, it->key, k);
			if (dups)
				KTEST_EXPECT_GT(t, it->seq, last_seq);
			last_seq = it->seq;
			dups++;
		}
		KTEST_EXPECT_EQ(t, dups, count[k]);
	}
	KTEST_EXPECT_GT(t, found, FIND_KEYS / 2);

	/* rb_find_add: present keys are refused, odd (absent) ones inserted. */
	for (i = 0; i < 40; i++) {
		struct rbt_item *it = &items[n + i];
		struct rb_node *dup;

		k = rbt_rand(ARRAY_SIZE(count));
		it->key = k;
		it->seq = n + i;
		dup = rb_find_add(&it->node, &root, rbt_node_key_cmp);
		if (count[k]) {
			KTEST_EXPECT_TRUE(t, dup != NULL && to_item(dup)->key == k);
		} else {
			KTEST_EXPECT_TRUE(t, dup == NULL);
			KTEST_EXPECT_TRUE(t, rb_find(&k, &root, rbt_key_cmp) == &it->node);
			ref_insert(it);
			count[k] = 1;
		}
		RBT_VALIDATE(t, &root, "rb_find_add", i);
	}
}

static void postorder_walks(struct ktest *t)
{
	struct rb_root root = RB_ROOT;
	struct rbt_item *pos, *next;
	struct rb_node *node, *last = NULL;
	unsigned int i, n = 200, seen = 0;

	rbt_srand(0x5eed0006);
	for (i = 0; i < n; i++) {
		items[i].key = rbt_rand(1000);
		items[i].seq = i;
		rbt_insert(&root, &items[i]);
	}
	for (node = rb_first_postorder(&root); node; node = rb_next_postorder(node)) {
		struct rbt_item *it = to_item(node);

		KTEST_EXPECT_FALSE(t, it->visited);
		if (node->rb_left)
			KTEST_EXPECT_TRUE(t, to_item(node->rb_left)->visited);
		if (node->rb_right)
			KTEST_EXPECT_TRUE(t, to_item(node->rb_right)->visited);
		it->visited = true;
		last = node;
		KTEST_ASSERT_TRUE(t, ++seen <= n);
	}
	KTEST_EXPECT_EQ(t, seen, n);
	KTEST_EXPECT_TRUE(t, last == root.rb_node);

	/* Tear-down: each entry is poisoned as soon as it has been visited. */
	seen = 0;
	rbtree_postorder_for_each_entry_safe(pos, next, &root, node) {
		KTEST_ASSERT_TRUE(t, pos->visited);
		pos->visited = false;
		memset(&pos->node, 0x5a, sizeof(pos->node));
		KTEST_ASSERT_TRUE(t, ++seen <= n);
	}
	KTEST_EXPECT_EQ(t, seen, n);
}

/*
 * The checker itself, on hand-built trees: each corruption must be reported
 * as exactly that.  Keys are the indices into items[].
 */
static void rbt_mk(unsigned int i, int parent, int left, int right, bool black)
{
	struct rb_node *n = &items[i].node;

	items[i].key = i;
	items[i].seq = 0;
	n->__rb_parent_color = (parent < 0 ? 0 : (unsigned long)&items[parent].node) | black;
	n->rb_left = left < 0 ? NULL : &items[left].node;
	n->rb_right = right < 0 ? NULL : &items[right].node;
}

static enum rbt_err rbt_check_items(struct rb_root *root, unsigned int n)
{
	static struct rbt_item *r[8];
	struct rbt_check c;

	for (unsigned int i = 0; i < n; i++)
		r[i] = &items[i];
	return rbt_check(&c, root, r, n);
}

static void checker_catches_violations(struct ktest *t)
{
	struct rb_root root = { .rb_node = &items[1].node };

	/*     1B         a valid tree to start from
	 *    /  \
	 *  0R    2R
	 */
	rbt_mk(1, -1, 0, 2, true);
	rbt_mk(0, 1, -1, -1, false);
	rbt_mk(2, 1, -1, -1, false);
	KTEST_EXPECT_EQ(t, rbt_check_items(&root, 3), RBT_OK);

	rbt_mk(1, -1, 0, 2, false);
	KTEST_EXPECT_EQ(t, rbt_check_items(&root, 3), RBT_ROOT_RED);

	rbt_mk(1, 0, 0, 2, true);
	KTEST_EXPECT_EQ(t, rbt_check_items(&root, 3), RBT_ROOT_PARENT);

	/* A black left leaf against a red right one. */
	rbt_mk(1, -1, 0, 2, true);
	rbt_mk(0, 1, -1, -1, true);
	KTEST_EXPECT_EQ(t, rbt_check_items(&root, 3), RBT_BLACK_HEIGHT);

	/* 1B(0B, 2B(-, 3R)) is fine; 1B(0R, 2R(-, 3R)) is red-red only. */
	rbt_mk(2, 1, -1, 3, true);
	rbt_mk(3, 2, -1, -1, false);
	KTEST_EXPECT_EQ(t, rbt_check_items(&root, 4), RBT_OK);
	rbt_mk(0, 1, -1, -1, false);
	rbt_mk(2, 1, -1, 3, false);
	KTEST_EXPECT_EQ(t, rbt_check_items(&root, 4), RBT_RED_RED);

	/* Back to the valid three; then a wrong parent, a stray bit 1. */
	rbt_mk(1, -1, 0, 2, true);
	rbt_mk(0, 1, -1, -1, false);
	rbt_mk(2, 1, -1, -1, false);
	rbt_mk(2, 0, -1, -1, false);
	KTEST_EXPECT_EQ(t, rbt_check_items(&root, 3), RBT_BAD_PARENT);
	rbt_mk(2, 1, -1, -1, false);
	items[2].node.__rb_parent_color |= 2;
	KTEST_EXPECT_EQ(t, rbt_check_items(&root, 3), RBT_SPARE_BIT);
	rbt_mk(2, 1, -1, -1, false);
	KTEST_EXPECT_EQ(t, rbt_check_items(&root, 3), RBT_OK);

	/* Out of order: the left child's key above the root's. */
	items[0].key = 5;
	KTEST_EXPECT_EQ(t, rbt_check_items(&root, 3), RBT_UNSORTED);
	items[0].key = 0;

	/* Node counts and identities against the reference. */
	KTEST_EXPECT_EQ(t, rbt_check_items(&root, 2), RBT_TOO_MANY);
	KTEST_EXPECT_EQ(t, rbt_check_items(&root, 4), RBT_TOO_FEW);
	items[1].node.rb_right = NULL;	/* node 2 lost */
	KTEST_EXPECT_EQ(t, rbt_check_items(&root, 3), RBT_TOO_FEW);
	items[1].node.rb_right = &items[2].node;
	rbt_mk(3, 1, -1, -1, false);
	items[3].key = 2;
	items[3].seq = 1;
	items[1].node.rb_right = &items[3].node;	/* a stand-in for 2 */
	KTEST_EXPECT_EQ(t, rbt_check_items(&root, 3), RBT_REF_MISMATCH);
}

#define BENCH_NODES	1000
#define BENCH_ROUNDS	20000

static void bench_insert_erase(struct ktest *t)
{
	struct rb_root root = RB_ROOT;
	u64 start, cycles;
	unsigned int i;

	rbt_srand(0x5eed0007);
	for (i = 0; i < BENCH_NODES; i++) {
		items[i].key = rbt_rand(1u << 30);
		items[i].seq = i;
		rbt_insert(&root, &items[i]);
	}
	start = rdtsc_ordered();
	for (i = 0; i < BENCH_ROUNDS; i++) {
		struct rbt_item *it = &items[rbt_rand(BENCH_NODES)];

		rb_erase(&it->node, &root);
		it->key = rbt_rand(1u << 30);
		rbt_insert(&root, it);
	}
	cycles = rdtsc_ordered() - start;
	ktest_info(t, "%u nodes: %llu cycles per insert+erase (%u rounds)",
		   BENCH_NODES, (unsigned long long)(cycles / BENCH_ROUNDS),
		   BENCH_ROUNDS);

	/* The tree must still be sound after all that. */
	for (i = 0; i < BENCH_NODES; i++)
		ref_insert(&items[i]);
	RBT_VALIDATE(t, &root, "benchmark", BENCH_ROUNDS);
}

static struct ktest_case rbtree_cases[] = {
	KTEST_CASE(empty_and_single),
	KTEST_CASE(sequential_inserts),
	KTEST_CASE(random_insert_erase),
	KTEST_CASE(cached_leftmost),
	KTEST_CASE(replace_node),
	KTEST_CASE(erase_all_random_order),
	KTEST_CASE(find_helpers),
	KTEST_CASE(postorder_walks),
	KTEST_CASE(checker_catches_violations),
	KTEST_CASE(bench_insert_erase),
	{}
};

static struct ktest_suite rbtree_suite = {
	.name = "rbtree",
	.cases = rbtree_cases,
	.init = rbtree_test_init,
};
ktest_register_suite(rbtree_suite);
