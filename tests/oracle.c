/*
 * oracle.c - brute-force answers to split and moldable requests (see
 * oracle.h).  A split tries every set of d free slots of its window, one
 * slot at a time, taken or not, and keeps the best set in its order; a
 * moldable request tries every level, and every start of each copy.
 * Nothing is clever, so that what is wrong elsewhere shows here.
 */
#include <string.h>

#include "oracle.h"

/* The search for one copy's set of slots. */
struct search {
	const uint32_t *used;
	uint32_t cap, n;
	int64_t end, d, minpiece;
	int maxpieces;
	enum oracle_order order;
	int64_t set[ORACLE_SPAN_MAX];   /* the set being built, in order */
	int64_t best[ORACLE_SPAN_MAX];  /* the best set so far ... */
	int kbest;                      /* ... its pieces; 0: none yet */
};

/* The pieces of the set of d slots, in order, into out (if not NULL):
 * how many; -1 if one is too short or there are too many. */
static int
pieces_of(const struct search *x, const int64_t *set,
    struct oracle_piece *out)
{
	int k = 0;

	for (int64_t i = 0, j; i < x->d; i = j) {
		for (j = i + 1; j < x->d && set[j] == set[j - 1] + 1; j++)
			;
		if (j - i < x->minpiece || k == x->maxpieces)
			return -1;
		if (out != NULL)
			out[k] = (struct oracle_piece){ set[i], j - i };
		k++;
	}
	return k;
}

/* Do the slots of set a come before those of set b (the first that
 * differs earlier)? */
static int
earlier_slots(const int64_t *a, const int64_t *b, int64_t d)
{
	for (int64_t i = 0; i < d; i++)
		if (a[i] != b[i])
			return a[i] < b[i];
	return 0;
}

/* Keep x->set if it will do and is better than the best so far. */
static void
consider(struct search *x)
{
	int k = pieces_of(x, x->set, NULL);
	int64_t end = x->set[x->d - 1] + 1, best_end = x->best[x->d - 1] + 1;
	int better;

	if (k < 0)
		return;
	if (x->kbest == 0)
		better = 1;
	else if (x->order == ORACLE_FEWEST && k != x->kbest)
		better = k < x->kbest;
	else if (x->order == ORACLE_FEWEST && end != best_end)
		better = end < best_end;
	else
		better = earlier_slots(x->set, x->best, x->d);
	if (better) {
		memcpy(x->best, x->set, (size_t)x->d * sizeof(*x->set));
		x->kbest = k;
	}
}

/* Every set from slot t on, taken slots so far. */
static void
visit(struct search *x, int64_t t, int64_t taken)
{
	if (taken == x->d) {
		consider(x);
		return;
	}
	if (x->end - t < x->d - taken)
		return;
	if ((uint64_t)x->used[t] + x->n <= x->cap) {
		x->set[taken] = t;
		visit(x, t + 1, taken + 1);
	}
	visit(x, t + 1, taken);
}

int
oracle_split_one(const uint32_t *used, uint32_t cap, int64_t s,
    int64_t end, int64_t d, uint32_t n, enum oracle_order order,
    int64_t minpiece, int maxpieces, struct oracle_piece *out)
{
	struct search x;

	if (end - s > ORACLE_SPAN_MAX)
		return -1;
	if (d < 1 || d > end - s)
		return 0;
	memset(&x, 0, sizeof(x));
	x.used = used;
	x.cap = cap;
	x.n = n;
	x.end = end;
	x.d = d;
	x.minpiece = minpiece < d ? minpiece : d;
	x.maxpieces = maxpieces;
	x.order = order;
	visit(&x, s, 0);
	return x.kbest == 0 ? 0 : pieces_of(&x, x.best, out);
}

static void
reserve(uint32_t *used, const struct oracle_piece *p, int k, int64_t nodes)
{
	for (int i = 0; i < k; i++)
		for (int64_t t = p[i].start; t < p[i].start + p[i].len; t++)
			used[t] = (uint32_t)((int64_t)used[t] + nodes);
}

int
oracle_split(uint32_t *used, uint32_t cap, int64_t s, int64_t end,
    int64_t d, uint32_t n, uint32_t copies, enum oracle_order order,
    int64_t minpiece, int maxpieces, struct oracle_piece *out,
    int *npieces)
{
	uint32_t c;
	int k = 0;

	for (c = 0; c < copies; c++) {
		struct oracle_piece *p = out + (size_t)c * (size_t)maxpieces;

		k = oracle_split_one(used, cap, s, end, d, n, order,
		    minpiece, maxpieces, p);
		if (k <= 0)
			break;
		reserve(used, p, k, n);
		npieces[c] = k;
	}
	if (c == copies)
		return 1;
	while (c-- > 0)
		reserve(used, out + (size_t)c * (size_t)maxpieces, npieces[c],
		    -(int64_t)n);
	return k;
}

/* The first start in [s, l] where nodes are free for d slots, or -1. */
static int64_t
first_start(const uint32_t *used, uint32_t cap, int64_t s, int64_t l,
    int64_t d, uint32_t nodes)
{
	for (int64_t t = s; t <= l; t++) {
		int64_t i;

		for (i = t; i < t + d &&
		    (uint64_t)used[i] + nodes <= cap; i++)
			;
		if (i == t + d)
			return t;
	}
	return -1;
}

/* Place level v's copies, their starts into starts[]: 1; or 0 if one
 * does not fit, and then none is placed. */
static int
place_level(uint32_t *used, uint32_t cap, int64_t s, int64_t l, int64_t d,
    const struct oracle_level *v, int64_t *starts)
{
	uint32_t c;

	for (c = 0; c < v->copies; c++) {
		struct oracle_piece p;

		if ((starts[c] = first_start(used, cap, s, l, d,
		    v->nodes)) < 0)
			break;
		p = (struct oracle_piece){ starts[c], d };
		reserve(used, &p, 1, v->nodes);
	}
	if (c == v->copies)
		return 1;
	while (c-- > 0) {
		struct oracle_piece p = { starts[c], d };

		reserve(used, &p, 1, -(int64_t)v->nodes);
	}
	return 0;
}

int
oracle_mold(uint32_t *used, uint32_t cap, int64_t s, int64_t l,
    int64_t d, const struct oracle_level *lv, int nlv, int64_t *starts)
{
	int64_t best_start = 0;
	int best = -1;

	for (int i = 0; i < nlv; i++) {
		const struct oracle_level *v = &lv[i], *b = &lv[best < 0 ? 0 :
		    best];
		uint64_t size = (uint64_t)v->nodes * v->copies;

		if (!place_level(used, cap, s, l, d, v, starts))
			continue;
		/* Taken out again: the next level is tried on the plan as
		 * it was. */
		for (uint32_t c = v->copies; c-- > 0;) {
			struct oracle_piece p = { starts[c], d };

			reserve(used, &p, 1, -(int64_t)v->nodes);
		}
		if (best < 0 || v->benefit > b->benefit ||
		    (v->benefit == b->benefit && (starts[0] < best_start ||
		    (starts[0] == best_start &&
		    size > (uint64_t)b->nodes * b->copies)))) {
			best = i;
			best_start = starts[0];
		}
	}
	if (best >= 0)
		place_level(used, cap, s, l, d, &lv[best], starts);
	return best;
}
