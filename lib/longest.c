/*
 * longest.c - two questions answered by one scan of the rings: the
 * longest job that fits from a start (ar_longest), and how far a
 * reservation can grow (ar_furthest).
 *
 * A job of need nodes fits over [s, e) exactly when it fits in each slot
 * of it, so the longest job from s ends at the first slot from s where
 * it does not fit, in the node ring or in a booking limit of its class
 * (fit_end).  That costs what a search of the interval found costs: the
 * rings pass a chunk or a block whose maximum leaves room in one step.
 * Over a window of starts, the best start inside a run of slots that fit
 * is the run's first one in the window, so one pass over the runs that
 * meet the window finds the longest, the earliest of equals.
 *
 * A reservation does not stand in its own way: its slots from the clock
 * on count as free, as ar_modify takes it out of the rings before it
 * admits its new shape, so a slot it holds fits whatever else the rings
 * hold there (it was admitted with them) - unless a booking limit of its
 * class was lowered since, which ar_modify applies to the whole new
 * shape, and so does this.  What ar_modify grants is then what
 * ar_furthest says: the same end at the same start, or, with a window,
 * the duration at the start ar_modify would choose for it.
 *
 * Host names.  A plan within capacity always maps (map.c), so the rings
 * decide alone - until the plan holds a reservation that named its hosts
 * or the request names its own: then admission maps the whole plan, and
 * so must the answer.  The end found in the rings is mapped once, as
 * admission (or ar_modify) would map it; if the plan does not map, the
 * longest end that does is found by halving between the start (or the
 * reservation's own end) and that end: a mapping per halving, about
 * log2 of the horizon's slots in all, and only where hosts were named.
 * The sweep is greedy, so an end past one that does not map might map
 * again; the answer is then shorter than the longest, never one that
 * admission refuses.
 */
#include <errno.h>
#include <stdlib.h>

#include "internal.h"

/*
 * A reservation's own slots, from the clock's on: there it needs no
 * room beyond what it holds, and fits unless a booking limit lowered
 * since it was granted is passed already.
 */
struct own {
	int64_t from, to;       /* empty when from == to */
};

/* The need for room in slot x: none in the reservation's own, else
 * need; and the last slot, before stop, with the same need. */
static uint64_t
need_at(const struct own *o, uint64_t need, int64_t x, int64_t stop,
    int64_t *last)
{
	int64_t to = x < o->from ? o->from : x < o->to ? o->to : stop;

	*last = (to < stop ? to : stop) - 1;
	return x >= o->from && x < o->to ? 0 : need;
}

/* The first slot in [x, hi] where need nodes of class cls fit, or -1. */
static int
first_fitting(ar_txn *t, uint32_t cls, uint32_t pool, uint64_t need,
    const struct own *o, int64_t x, int64_t hi, int64_t *s)
{
	int64_t last;
	uint64_t n;
	int rc;

	for (*s = -1; x <= hi && *s == -1; x = last + 1) {
		n = need_at(o, need, x, hi + 1, &last);
		if ((rc = fit_first(t, cls, pool, x, last, 1, n, s)) != 0)
			return rc;
	}
	return 0;
}

/* The first slot in [a, stop) where need nodes of class cls do not fit,
 * or stop. */
static int
run_end(ar_txn *t, uint32_t cls, uint32_t pool, uint64_t need,
    const struct own *o, int64_t a, int64_t stop, int64_t *b)
{
	int64_t last;
	uint64_t n;
	int rc;

	for (*b = a; *b < stop; a = last + 1) {
		n = need_at(o, need, a, stop, &last);
		if ((rc = fit_end(t, cls, pool, a, last + 1, n, b)) != 0 ||
		    *b <= last)
			return rc;
	}
	return 0;
}

/*
 * Of the starts in [lo, hi], the one from which need nodes of class cls
 * fit for the most slots, at most max and not past stop, the earliest of
 * equals: *start and *end, or *start -1 if none fits a slot.
 */
static int
longest_run(ar_txn *t, uint32_t cls, uint32_t pool, uint64_t need,
    const struct own *o,
    int64_t lo, int64_t hi, int64_t stop, int64_t max, int64_t *start,
    int64_t *end)
{
	int64_t a, b, cap;
	int rc;

	*start = *end = -1;
	for (int64_t x = lo; x <= hi; x = b + 1) {
		if ((rc = first_fitting(t, cls, pool, need, o, x, hi, &a)) != 0)
			return rc;
		if (a == -1)
			break;
		cap = max < stop - a ? a + max : stop;
		if ((rc = run_end(t, cls, pool, need, o, a, cap, &b)) != 0)
			return rc;
		if (*start == -1 || b - a > *end - *start) {
			*start = a;
			*end = b;
		}
		/* A later start gains nothing once the run reaches the cap. */
		if (b == cap)
			break;
	}
	return 0;
}

/* The least free count over [s, e), a reservation's own nodes (need, in
 * its slots o) counted free. */
static int
free_over(ar_txn *t, const struct own *o, uint64_t need, int64_t s,
    int64_t e, uint32_t *free)
{
	int64_t cut[4] = { s, o->from, o->to, e };
	uint32_t peak, most = 0;
	int rc;

	for (int i = 0; i < 3; i++) {
		int64_t a = cut[i] > s ? cut[i] : s;
		int64_t b = cut[i + 1] < e ? cut[i + 1] : e;

		if (a >= b)
			continue;
		if ((rc = ring_peak(t, &t->ring, a, b, &peak)) != 0)
			return rc;
		if (i == 1)
			peak -= (uint32_t)need;
		if (peak > most)
			most = peak;
	}
	*free = t->m.nodes - most;
	return 0;
}

/* Does the plan map with the job (rq from slot s to e, on hosts of
 * pool), or with reservation id over [s, e) (rq NULL; pool its own)? */
static int
maps(ar_txn *t, const struct ar_request *rq, uint32_t pool, uint64_t id,
    int64_t s, int64_t e, int *ok, uint64_t *conflict)
{
	int rc, tracked = 0;

	/* A plain job: the tracked hosts counted first, then held, as
	 * admission does. */
	if (rq != NULL && rq->nhosts == 0 &&
	    (rc = track_built(t, &tracked)) != 0)
		return rc;
	if (tracked && ((rc = track_room(t, pool, s, e, rq->nodes, rq->jobs,
	    ok)) != 0 || *ok))
		return rc;
	if (rq != NULL)
		return map_fits(t, rq, pool, s, e - s, ok, conflict);
	return map_fits_moved(t, id, s, e, ok, conflict);
}

/*
 * On hosts: *e, found in the rings from s, shortened to the longest end
 * in (low, *e] with which the plan maps (low: an end that maps, or s);
 * *e is low if none does, *conflict then what is in the way.
 */
static int
mapped_end(ar_txn *t, const struct ar_request *rq, uint32_t pool,
    uint64_t id, int64_t s, int64_t low, int64_t *e, uint64_t *conflict)
{
	int64_t hi = *e, mid;
	uint64_t c;
	int rc, ok;

	if ((rc = maps(t, rq, pool, id, s, hi, &ok, conflict)) != 0 || ok)
		return rc;
	while (hi - low > 1) {
		mid = low + (hi - low) / 2;
		if ((rc = maps(t, rq, pool, id, s, mid, &ok, &c)) != 0)
			return rc;
		if (ok)
			low = mid;
		else {
			hi = mid;
			*conflict = c;
		}
	}
	*e = low;
	return 0;
}

/* The price of need nodes of class cls for slots slots. */
static int64_t
price_of(const ar_txn *t, uint32_t cls, uint64_t need, int64_t slots)
{
	return cls == 0 ? 0 : t->pr.c[cls - 1].price * (int64_t)need * slots;
}

/* The end of the last slot a store can tell: its horizon, and the year
 * 9999. */
static int64_t
last_slot(const ar_txn *t)
{
	int64_t stop = t->base + t->m.horizon;

	return stop < TIME_MAX / t->m.slot ? stop : TIME_MAX / t->m.slot;
}

int
ar_longest(ar_txn *t, const struct ar_request *rq, struct ar_answer *ans)
{
	struct ar_request one = *rq;
	struct own none = { 0, 0 };
	struct span sp;
	int64_t stop = last_slot(t), max = INT64_MAX, s, e, hi;
	int rc, pinned;

	if (rq->duration < 0 || rq->duration > AR_DURATION_MAX)
		return EINVAL;
	/* Reasons as for a job of one slot; the duration only bounds. */
	one.duration = 1;
	if ((rc = to_span(t, &one, 1, &sp, ans)) != 0)
		return rc;
	/* No job, no price. */
	ans->status = AR_UNAVAILABLE;
	ans->end = -1;
	ans->price = 0;
	if (ans->reason != AR_R_NONE)
		return 0;
	if (rq->duration > 0)
		max = (rq->duration + t->m.slot - 1) / t->m.slot;
	hi = sp.last < stop - 1 ? sp.last : stop - 1;
	if ((rc = longest_run(t, sp.cls, sp.pool, sp.need, &none, sp.first, hi,
	    stop, max, &s, &e)) != 0)
		return rc;
	if (s == -1) {
		ans->start = sp.first * t->m.slot;
		if ((rc = fit_refusal(t, &sp, hi, 1, &ans->reason)) != 0)
			return rc;
		return free_over(t, &none, 0, sp.first, sp.first + 1,
		    &ans->free);
	}
	if ((rc = map_pinned(t, &pinned)) != 0 || ((pinned || rq->nhosts > 0) &&
	    (rc = mapped_end(t, rq, sp.pool, 0, s, s, &e,
	    &ans->conflict)) != 0))
		return rc;
	ans->start = s * t->m.slot;
	if (e == s) {
		ans->reason = AR_R_HOSTS;
		return free_over(t, &none, 0, s, s + 1, &ans->free);
	}
	ans->conflict = 0;
	ans->status = AR_SUGGESTED;
	ans->end = e * t->m.slot;
	ans->price = price_of(t, sp.cls, sp.need, e - s);
	return free_over(t, &none, 0, s, e, &ans->free);
}

/*
 * Reservation r may take another start in its window: *s and *e, found
 * from its own start, become the longest it can be there, at the start
 * ar_modify would choose for that (its own if it is as long there).
 */
static int
window_run(ar_txn *t, const struct ar_resv *r, uint64_t need,
    const struct own *o, int64_t stop, int64_t *s, int64_t *e)
{
	int64_t lo = slot_up(t, r->earliest), hi = slot_up(t, r->latest);
	int64_t ws, we;
	int rc;

	if (lo < slot_up(t, t->now))
		lo = slot_up(t, t->now);
	if (hi > stop - 1)
		hi = stop - 1;
	if ((rc = longest_run(t, r->cls, r->pool, need, o, lo, hi, stop,
	    INT64_MAX, &ws, &we)) != 0)
		return rc;
	if (ws != -1 && we - ws > *e - *s) {
		*s = ws;
		*e = we;
	}
	return 0;
}

int
ar_furthest(ar_txn *t, uint64_t id, unsigned flags, struct ar_answer *ans)
{
	struct ar_resv r;
	struct own o;
	struct span sp;
	int64_t slot = t->m.slot, stop = last_slot(t), s0, e0, s, e, own_end;
	uint64_t need;
	int rc, pinned, started, ok;

	memset(ans, 0, sizeof(*ans));
	if (flags & ~(unsigned)AR_WINDOW)
		return EINVAL;
	if ((rc = ar_get(t, id, &r)) != 0)
		return rc;
	if (r.state != AR_GRANTED)
		return AR_EDONE;
	need = (uint64_t)r.nodes * r.jobs;
	s0 = r.start / slot;
	e0 = r.end / slot;
	started = r.start <= t->now;
	o.from = s0 > t->base ? s0 : t->base;
	o.to = e0;
	ans->id = id;
	ans->cls = r.cls;
	ans->status = AR_UNAVAILABLE;
	ans->start = r.start;
	ans->end = r.end;
	/* Where it is, on from its end; or elsewhere in its window. */
	s = s0;
	if ((rc = run_end(t, r.cls, r.pool, need, &o, o.from, stop, &e)) != 0)
		return rc;
	own_end = e;
	if ((flags & AR_WINDOW) && !started && r.expires == 0 &&
	    r.pieces == 0 &&
	    (rc = window_run(t, &r, need, &o, stop, &s, &e)) != 0)
		return rc;
	if ((rc = map_pinned(t, &pinned)) != 0)
		return rc;
	/*
	 * On hosts, elsewhere: ar_modify puts it there only at that length,
	 * so it must map whole, or it stays where it is.  Where it is, a
	 * shorter end is still one ar_modify grants there.
	 */
	if (pinned && s != s0) {
		if ((rc = maps(t, NULL, r.pool, id, s, e, &ok,
		    &ans->conflict)) != 0)
			return rc;
		if (!ok) {
			s = s0;
			e = own_end;
			ans->conflict = 0;
		}
	}
	if (pinned && s == s0 && e > e0 && (rc = mapped_end(t, NULL, r.pool,
	    id, s0, e0, &e, &ans->conflict)) != 0)
		return rc;
	if (e - s <= e0 - s0) {
		/* Why not: the hosts, or the slot that stopped it where it
		 * is (its own only where a limit was lowered since it was
		 * granted). */
		if (ans->conflict != 0)
			ans->reason = AR_R_HOSTS;
		else if (own_end >= stop)
			ans->reason = AR_R_HORIZON;
		else {
			sp = (struct span){ own_end, own_end, 1, own_end < e0 ?
			    0 : need, r.cls, r.pool };
			if ((rc = fit_refusal(t, &sp, own_end, 1,
			    &ans->reason)) != 0)
				return rc;
			return free_over(t, &o, need, own_end, own_end + 1,
			    &ans->free);
		}
		return 0;
	}
	ans->conflict = 0;
	ans->status = AR_SUGGESTED;
	ans->start = s * slot;
	ans->end = e * slot;
	ans->price = price_of(t, r.cls, need, e - s);
	return free_over(t, &o, need, started ? o.from : s, e, &ans->free);
}
