/*
 * segtree.c - GarQ's Segment Tree (its section 3.1): a binary tree over
 * the slots of the 30-day interval, each node for a half-open range of
 * them, its children for the halves.  A node keeps rv, the nodes reserved
 * over its whole range (a reservation that covers a node's range is
 * counted there and goes no deeper), and mv, the most its children hold
 * (rv + mv of the fuller child; 0 in a leaf): the nodes in use in a slot
 * are the sum of rv from the root down to its leaf.  The tree is built
 * once and reused lap after lap: a slot's leaf is its number modulo the
 * interval's slots, and a range that wraps is two ranges.
 *
 * Search, add and delete descend only where a range covers part of a
 * node: O(log n) nodes.  The interval search (the paper's Algorithm 1,
 * the closest later interval) is done here with the same node
 * information: the first slot of the candidate interval without room,
 * found by descending only into nodes whose rv + mv leaves none, moves
 * the candidate past it, until an interval fits or the limit is passed.
 * The paper's pseudocode is not followed line by line (its recursion
 * bounds on line 8 read ambiguously), but what it computes is: the
 * earliest start at or after the asked one, as the floor answers.
 */
#include <stdint.h>
#include <stdlib.h>

#include "bench.h"

/* Signed: a range taken out of part of a node whose whole range was
 * counted in an ancestor leaves its own rv below zero, the sum down the
 * path staying right. */
struct tnode {
	int32_t rv;             /* reserved over the node's whole range */
	int32_t mv;             /* the most its children hold */
};

struct tree {
	int64_t m;              /* leaves: the interval's slots */
	size_t size;            /* nodes allocated */
	struct tnode *t;        /* t[1] the root, t[2i], t[2i + 1] children */
};

static void *
tree_make(int64_t clock)
{
	struct tree *tr = malloc(sizeof(*tr));
	size_t leaves = 1;

	(void)clock;
	if (tr == NULL)
		return NULL;
	tr->m = HORIZON / SLOT;
	while (leaves < (size_t)tr->m)
		leaves *= 2;
	tr->size = 2 * leaves;
	if ((tr->t = calloc(tr->size, sizeof(*tr->t))) == NULL) {
		free(tr);
		return NULL;
	}
	return tr;
}

static void
tree_destroy(void *s)
{
	struct tree *tr = s;

	free(tr->t);
	free(tr);
}

/* Add d nodes over positions [l, r) below node i of range [lo, hi). */
static void
update(struct tree *tr, size_t i, int64_t lo, int64_t hi, int64_t l,
    int64_t r, int64_t d)
{
	struct tnode *n = &tr->t[i], *a = &tr->t[2 * i], *b = &tr->t[2 * i + 1];
	int64_t mid = lo + (hi - lo) / 2;

	cells++;
	if (l <= lo && hi <= r) {
		n->rv = (int32_t)(n->rv + d);
		return;
	}
	if (l < mid)
		update(tr, 2 * i, lo, mid, l, r, d);
	if (r > mid)
		update(tr, 2 * i + 1, mid, hi, l, r, d);
	n->mv = a->rv + a->mv > b->rv + b->mv ? a->rv + a->mv : b->rv + b->mv;
}

/* The most nodes in use over positions [l, r) below node i, less what
 * its ancestors hold. */
static int32_t
peak(const struct tree *tr, size_t i, int64_t lo, int64_t hi, int64_t l,
    int64_t r)
{
	const struct tnode *n = &tr->t[i];
	int64_t mid = lo + (hi - lo) / 2;
	int32_t most = INT32_MIN, p;

	cells++;
	if (l <= lo && hi <= r)
		return n->rv + n->mv;
	if (l < mid)
		most = peak(tr, 2 * i, lo, mid, l, r);
	if (r > mid && (p = peak(tr, 2 * i + 1, mid, hi, l, r)) > most)
		most = p;
	return n->rv + most;
}

/* The first position of [l, r) below node i with more than cap nodes in
 * use, its ancestors holding acc; -1 if none. */
static int64_t
first_over(const struct tree *tr, size_t i, int64_t lo, int64_t hi,
    int64_t l, int64_t r, int32_t acc, int32_t cap)
{
	const struct tnode *n = &tr->t[i];
	int64_t mid = lo + (hi - lo) / 2, x;

	cells++;
	acc += n->rv;
	if (acc + n->mv <= cap)
		return -1;      /* room in every slot of its range */
	if (hi - lo == 1)
		return lo;
	if (l < mid && (x = first_over(tr, 2 * i, lo, mid, l, r, acc,
	    cap)) >= 0)
		return x;
	return r > mid ? first_over(tr, 2 * i + 1, mid, hi, l, r, acc, cap) :
	    -1;
}

/* Slots [first, end) as one or two ranges of positions. */
static int
positions(const struct tree *tr, int64_t first, int64_t end, int64_t pos[4])
{
	int64_t p = first % tr->m;

	pos[0] = p;
	if (p + (end - first) <= tr->m) {
		pos[1] = p + (end - first);
		return 1;
	}
	pos[1] = tr->m;
	pos[2] = 0;
	pos[3] = p + (end - first) - tr->m;
	return 2;
}

static void
range_add(struct tree *tr, int64_t first, int64_t end, int64_t d)
{
	int64_t pos[4];

	if (first >= end)
		return;
	for (int k = 0, n = positions(tr, first, end, pos); k < n; k++)
		update(tr, 1, 0, tr->m, pos[2 * k], pos[2 * k + 1], d);
}

static int
tree_fits(void *s, int64_t first, int64_t len, uint32_t nodes)
{
	struct tree *tr = s;
	int64_t pos[4];

	for (int k = 0, n = positions(tr, first, first + len, pos); k < n; k++)
		if (peak(tr, 1, 0, tr->m, pos[2 * k], pos[2 * k + 1]) +
		    (int64_t)nodes > NODES)
			return 0;
	return 1;
}

/* The first slot of [first, end) with more than cap in use, or -1. */
static int64_t
first_full(const struct tree *tr, int64_t first, int64_t end, int32_t cap)
{
	int64_t pos[4], x;

	for (int k = 0, n = positions(tr, first, end, pos); k < n; k++)
		if ((x = first_over(tr, 1, 0, tr->m, pos[2 * k],
		    pos[2 * k + 1], 0, cap)) >= 0)
			return first + (k == 0 ? x - pos[0] : tr->m - pos[0] + x);
	return -1;
}

static int64_t
tree_first_fit(void *s, int64_t first, int64_t hi, int64_t len,
    uint32_t nodes)
{
	int64_t full;

	if (nodes > NODES)
		return -1;
	for (int64_t at = first; at <= hi; at = full + 1)
		if ((full = first_full(s, at, at + len,
		    NODES - (int32_t)nodes)) < 0)
			return at;
	return -1;
}

static void *
tree_add(void *s, int64_t first, int64_t len, uint32_t nodes)
{
	range_add(s, first, first + len, nodes);
	return s;               /* no handle: the counts are all it keeps */
}

static void
tree_del(void *s, void *h, int64_t first, int64_t from, int64_t end,
    uint32_t nodes)
{
	(void)h;
	(void)first;
	range_add(s, from, end, -(int64_t)nodes);
}

/* A past slot's leaf is the future's a lap later: it must be empty. */
static void
tree_past(void *s, void *h, int64_t from, int64_t to, uint32_t nodes)
{
	(void)h;
	range_add(s, from, to, -(int64_t)nodes);
}

static size_t
tree_bytes(const void *s)
{
	const struct tree *tr = s;

	return sizeof(*tr) + tr->size * sizeof(*tr->t);
}

const struct structure tree_structure = {
	"segment tree", tree_make, tree_destroy, NULL, tree_fits,
	tree_first_fit, tree_add, tree_del, tree_past, tree_bytes
};
