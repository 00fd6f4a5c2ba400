/*
 * slices.c - which slices a split request would take (seed 004's ORR
 * and TARR, as tests/bench/schemes.h reads them), over the rings as
 * they are: nothing here books.
 *
 * The free time of a request is every slot of [first start, deadline)
 * where its nodes fit, in the node ring and within the booking limits
 * of its class; a free run is a longest stretch of such slots.  A set
 * of slices is d slots of it (d the request's slots), each slice within
 * one run.
 *
 * ORR: of the sets of at most AR_PIECES_MAX slices each at least p
 * slots long (the request's smallest piece, at least one slot, at most
 * d), the one of the fewest slices; of those, the one that ends first;
 * of those, the earliest slots: the first slice as early, then as long,
 * as it can be, then the second, and so on.  Fewest first, because that
 * is what the seed's threshold and its preference for one piece are for
 * (every piece is a job suspended and resumed); the earliest end next,
 * because a job that must be cut should still end as soon as it can;
 * the earliest slots last, so that the answer is one.  Two slices of a
 * set of the fewest never share a run (they would make one), so a set
 * is a choice of runs, a length in each.  With k slices the request
 * fits if some k runs hold d together; it ends first in the earliest
 * run j whose start, plus what the k - 1 longest runs before it cannot
 * hold, is the earliest end; the slices before it are then taken one
 * at a time, each in the first run that leaves the rest possible, as
 * long as that allows.
 *
 * TARR: the earliest d free slots, in as many slices as that takes (up
 * to AR_SERIES_MAX, the most pieces a request is kept as), the last
 * cut to what is still needed.  One slice only when they are one run:
 * a single interval later in the window does not count, because TARR is
 * for the earliest first piece and the earliest end.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "internal.h"

int
split_check(const struct ar_request *rq)
{
	if ((rq->split != AR_SPLIT_ORR && rq->split != AR_SPLIT_TARR) ||
	    rq->jobs == 0 || rq->nlevels != 0 || rq->nhosts != 0 ||
	    rq->hold != 0 || (rq->flags & AR_PARTIAL) ||
	    rq->smallest < 0 || rq->smallest > rq->duration ||
	    (rq->split == AR_SPLIT_TARR && rq->smallest != 0))
		return EINVAL;
	return 0;
}

void
split_whole(const ar_txn *t, const struct ar_request *rq,
    struct ar_request *one)
{
	*one = *rq;
	one->split = 0;
	one->smallest = 0;
	/* TARR fits in one interval as asked only if from its first start:
	 * anywhere later its earliest free slots are pieces, or that
	 * interval (found by slices_choose).  A window already past keeps
	 * its latest start, to be refused so. */
	if (rq->split == AR_SPLIT_TARR) {
		int64_t first = rq->earliest > t->now ? rq->earliest : t->now;

		one->latest = first < rq->latest ? first : rq->latest;
	}
}

/* A free run: slots [start, start + len). */
struct run_of {
	int64_t start, len;
};

/* The longest few lengths seen, longest first: at most AR_PIECES_MAX. */
struct longest {
	int64_t len[AR_PIECES_MAX];
	int n;
};

static void
longest_see(struct longest *l, int64_t len, int keep)
{
	int i;

	if (keep == 0 || (l->n == keep && len <= l->len[keep - 1]))
		return;
	i = l->n < keep ? l->n++ : keep - 1;
	for (; i > 0 && l->len[i - 1] < len; i--)
		l->len[i] = l->len[i - 1];
	l->len[i] = len;
}

/* The sum of the k longest, or -1 if fewer than k were seen. */
static int64_t
longest_sum(const struct longest *l, int k)
{
	int64_t sum = 0;

	if (k > l->n)
		return -1;
	for (int i = 0; i < k; i++)
		sum += l->len[i];
	return sum;
}

/* The free runs of at least least slots in [from, to) for sp's nodes,
 * into *runs (grown), *n of them. */
static int
free_runs(ar_txn *t, const struct span *sp, int64_t from, int64_t to,
    int64_t least, struct run_of **runs, size_t *cap, size_t *n)
{
	int64_t s, e;
	int rc;

	*n = 0;
	while (from < to) {
		if ((rc = fit_first(t, sp->cls, sp->pool, from, to - 1, 1,
		    sp->need, &s)) != 0)
			return rc;
		if (s == -1)
			break;
		if ((rc = fit_end(t, sp->cls, sp->pool, s, to, sp->need,
		    &e)) != 0)
			return rc;
		if (e - s >= least) {
			if (array_room(runs, cap, *n + 1, sizeof(**runs)) != 0)
				return ENOMEM;
			(*runs)[(*n)++] = (struct run_of){ s, e - s };
		}
		from = e + 1;   /* slot e does not fit */
	}
	return 0;
}

/* Add the slice [start, start + len) to t->slices. */
static int
slice_add(ar_txn *t, int64_t start, int64_t len)
{
	int64_t slot = t->m.slot;
	uint32_t peak;
	int rc;

	if ((rc = array_room(&t->slices, &t->slicecap, t->nslices + 1,
	    sizeof(*t->slices))) != 0)
		return rc;
	if ((rc = ring_peak(t, &t->ring, start, start + len, &peak)) != 0)
		return rc;
	memset(&t->slices[t->nslices], 0, sizeof(*t->slices));
	t->slices[t->nslices].start = t->slices[t->nslices].from =
	    start * slot;
	t->slices[t->nslices].end = (start + len) * slot;
	t->slices[t->nslices++].free = t->m.nodes - peak;
	return 0;
}

/* ORR's choice among runs v[0 .. m) for d slots, each slice at least p. */
static int
orr(ar_txn *t, const struct run_of *v, size_t m, int64_t d, int64_t p)
{
	struct longest all = { { 0 }, 0 }, before = { { 0 }, 0 };
	struct longest *after = NULL;
	int64_t e = -1, x, room, left;
	size_t j, i, from;
	int k, rc;

	/* The fewest slices: k runs that hold d together, k p at most d. */
	for (i = 0; i < m; i++)
		longest_see(&all, v[i].len, AR_PIECES_MAX);
	for (k = 1; k <= AR_PIECES_MAX; k++)
		if (k * p <= d && longest_sum(&all, k) >= d)
			break;
	if (k > AR_PIECES_MAX)
		return 0;
	/* The earliest end: in the first run j where the k - 1 longest
	 * runs before it leave at most what j holds, at least p. */
	for (j = 0; j < m; j++) {
		int64_t held = longest_sum(&before, k - 1);

		if (held >= 0) {
			x = d - held > p ? d - held : p;
			if (x <= v[j].len) {
				e = v[j].start + x;
				break;
			}
		}
		longest_see(&before, v[j].len, k - 1);
	}
	if (e == -1)
		return AR_ECORRUPT;     /* k runs hold d: some j must do */
	/* after[i]: the longest runs of v[i .. j), for the slices between. */
	if ((after = calloc(j + 1, sizeof(*after))) == NULL)
		return ENOMEM;
	for (i = j; i-- > 0;) {
		after[i] = after[i + 1];
		longest_see(&after[i], v[i].len, k - 1);
	}
	room = e - v[j].start;          /* the most the last slice takes */
	left = d;
	from = 0;
	for (int c = 0; c < k - 1; c++) {
		int rest = k - 2 - c;   /* slices between this one and the last */
		int64_t lo = 0;

		/* This slice takes x: at least what the rest cannot hold,
		 * at most what leaves each of them p. */
		for (x = -1; from < j; from++) {
			int64_t between = longest_sum(&after[from + 1], rest);

			if (between < 0)
				continue;
			lo = left - room - between > p ? left - room - between :
			    p;
			x = left - (int64_t)(rest + 1) * p;
			if (x > v[from].len)
				x = v[from].len;
			if (lo <= x)
				break;
		}
		if (from == j) {
			free(after);
			return AR_ECORRUPT;     /* the end found says there is */
		}
		if ((rc = slice_add(t, v[from].start, x)) != 0) {
			free(after);
			return rc;
		}
		left -= x;
		from++;
	}
	free(after);
	return slice_add(t, e - left, left);
}

/* TARR's: the earliest d slots of runs v[0 .. m). */
static int
tarr(ar_txn *t, const struct run_of *v, size_t m, int64_t d)
{
	int64_t left = d, have = 0;
	size_t i;
	int rc;

	for (i = 0; i < m && have < d; i++)
		have += v[i].len;
	if (have < d || i > AR_SERIES_MAX)
		return 0;
	for (i = 0; left > 0; i++) {
		int64_t x = v[i].len < left ? v[i].len : left;

		if ((rc = slice_add(t, v[i].start, x)) != 0)
			return rc;
		left -= x;
	}
	return 0;
}

int
slices_choose(ar_txn *t, const struct ar_request *rq, const struct span *sp)
{
	struct run_of *runs = NULL;
	size_t cap = 0, m;
	int64_t slot = t->m.slot, d = sp->slots;
	int64_t p = (rq->smallest + slot - 1) / slot;
	int rc;

	t->nslices = 0;
	if (p < 1)
		p = 1;
	if (p > d)
		p = d;
	if ((rc = free_runs(t, sp, sp->first, sp->last + d, p, &runs, &cap,
	    &m)) == 0)
		rc = rq->split == AR_SPLIT_ORR ? orr(t, runs, m, d, p) :
		    tarr(t, runs, m, d);
	if (rc != 0)
		t->nslices = 0;
	free(runs);
	return rc;
}
