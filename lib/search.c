/*
 * search.c - where a request fits: the request reduced to slots (its
 * window clipped to the clock and the horizon, its class and price),
 * the first start where it fits in the rings and, while named hosts are
 * in the plan, where the plan with it still maps (the tracked hosts
 * counted, else the plan swept); GarQ's search and suggest.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Starts a request with named hosts, or any while pins are in the plan,
 * tries before it is refused: a day of 5-minute slots. */
#define MAP_TRIES 288


/*
 * The pool a request takes its hosts from, of the pools its partition
 * and features make eligible, in their order: the one where it fits
 * first (the earliest start; a tie to the first), else the first that
 * has the hosts it needs, where moving others may still make room.  A
 * request needing more hosts than every eligible pool has is refused as
 * capacity.  Named hosts take their own pool (layout_named).  EINVAL:
 * an unknown partition or feature, named hosts of several pools or not
 * of the partition and features asked.
 */
static int
span_pool(ar_txn *t, const struct ar_request *rq, struct span *sp,
    struct ar_answer *ans)
{
	uint32_t pools[AR_POOLS_MAX], n, first = UINT32_MAX;
	int64_t s, best = -1;
	int rc;

	sp->pool = 0;
	/* Named hosts: their pool, in a store of several pools. */
	if (rq->nhosts > 0 && t->npools > 1) {
		if ((rc = layout_named(t, rq, &sp->pool)) != 0)
			return rc;
		if (t->keep_pool != 0 && t->keep_pool - 1 != sp->pool)
			return EINVAL;
		ans->pool = sp->pool;
		return 0;
	}
	if (t->keep_pool != 0) {
		pools[0] = t->keep_pool - 1;
		n = 1;
	} else if ((rc = layout_eligible(t, rq->partition, rq->features,
	    pools, &n)) != 0)
		return rc;
	if (t->npools == 1) {
		if (n == 0)
			ans->reason = AR_R_CAPACITY;
		return 0;
	}
	for (uint32_t i = 0; i < n && first == UINT32_MAX; i++)
		if (t->lay.pool[pools[i]].count >= sp->need)
			first = pools[i];
	if (first == UINT32_MAX) {
		ans->reason = AR_R_CAPACITY;
		return 0;
	}
	sp->pool = ans->pool = first;
	if (ans->reason != AR_R_NONE)
		return 0;
	for (uint32_t i = 0; i < n; i++) {
		if (t->lay.pool[pools[i]].count < sp->need)
			continue;
		if ((rc = fit_first(t, sp->cls, pools[i], sp->first,
		    best == -1 ? sp->last : best - 1, sp->slots, sp->need,
		    &s)) != 0)
			return rc;
		if (s != -1) {
			best = s;
			sp->pool = pools[i];
		}
	}
	ans->pool = sp->pool;
	return 0;
}

/*
 * Reduce a request to slots and decide whether it can be considered at
 * all: ans->reason says why not.  The window is clipped to the part that
 * is neither past nor beyond the horizon.
 */
int
to_span(ar_txn *t, const struct ar_request *rq, int together,
    struct span *sp, struct ar_answer *ans)
{
	int64_t slot = t->m.slot, end = t->base + t->m.horizon;

	/* A moldable request is reduced one level at a time (mold.c). */
	if (rq->nlevels > 0 ||
	    rq->duration <= 0 || rq->duration > AR_DURATION_MAX ||
	    rq->hold < 0 || rq->hold > AR_HOLD_MAX ||
	    rq->nodes == 0 || rq->jobs == 0 || rq->earliest < 0 ||
	    rq->latest < rq->earliest || rq->latest > TIME_MAX ||
	    (rq->user != NULL && strlen(rq->user) > AR_LABEL_MAX) ||
	    (rq->job != NULL && strlen(rq->job) > AR_LABEL_MAX) ||
	    (rq->account != NULL && strlen(rq->account) > AR_LABEL_MAX) ||
	    (rq->resv_flags & ~(unsigned)AR_RESV_MAINT) != 0)
		return EINVAL;
	if (rq->nhosts > 0) {
		if (rq->hosts == NULL || rq->nhosts != rq->nodes || rq->jobs != 1)
			return EINVAL;
		for (uint32_t i = 0; i < rq->nhosts; i++)
			if (rq->hosts[i] >= t->m.nodes ||
			    (i > 0 && rq->hosts[i] <= rq->hosts[i - 1]))
				return EINVAL;
	}
	memset(ans, 0, sizeof(*ans));
	sp->slots = (rq->duration + slot - 1) / slot;
	sp->need = (uint64_t)rq->nodes * (together ? rq->jobs : 1);
	sp->first = slot_up(t, rq->earliest);
	sp->last = slot_up(t, rq->latest);
	/* A piece of a split request is of its request's class. */
	sp->cls = class_of(t, rq, t->pieces != 0 ? t->split_earliest :
	    rq->earliest);
	ans->cls = sp->cls;
	if (sp->cls != 0)
		ans->price = t->pr.c[sp->cls - 1].price * (int64_t)sp->need *
		    sp->slots;
	ans->start = sp->first * slot;
	ans->end = (sp->first + sp->slots) * slot;
	if (sp->need > t->m.nodes || rq->jobs > AR_JOBS_MAX)
		ans->reason = AR_R_CAPACITY;
	else if (ans->end > TIME_MAX) {
		/* Not even printable: say where it was asked to start. */
		ans->reason = AR_R_HORIZON;
		ans->start = rq->earliest;
		ans->end = -1;
	}
	else if (rq->latest < t->now)
		ans->reason = AR_R_PAST;
	else {
		if (sp->first < slot_up(t, t->now))
			sp->first = slot_up(t, t->now);
		if (sp->first + sp->slots > end)
			ans->reason = AR_R_HORIZON;
		else if (sp->last > end - sp->slots)
			sp->last = end - sp->slots;
	}
	return span_pool(t, rq, sp, ans);
}

/* Fill in the interval found at slot s and the least free count over it. */
int
place(ar_txn *t, const struct span *sp, int64_t s, struct ar_answer *ans)
{
	/* A store of several pools tells the free hosts of the pool. */
	struct ring *r = t->npools > 1 ? &t->pool[sp->pool] : &t->ring;
	uint32_t peak;
	int rc;

	if ((rc = ring_peak(t, r, s, s + sp->slots, &peak)) != 0)
		return rc;
	ans->start = s * t->m.slot;
	ans->end = (s + sp->slots) * t->m.slot;
	ans->free = r->capacity - peak;
	return 0;
}

int
fit_mapped(ar_txn *t, const struct ar_request *rq, const struct span *sp,
    int64_t hi, int64_t *s, uint64_t *conflict)
{
	uint64_t c;
	int rc, pinned, ok, tracked = 0;

	*conflict = 0;
	t->ntake = 0;
	if (rq->nhosts == 0 && ((rc = map_pinned(t, &pinned)) != 0 || !pinned))
		return rc;
	if (rq->nhosts == 0 && (rc = track_built(t, &tracked)) != 0)
		return rc;
	for (int tries = 1; *s != -1; tries++) {
		/* A plain request: the tracked hosts' count first, then
		 * with tracked hosts it may hold (one copy: a grant of one
		 * reservation holds them), and the whole plan swept only
		 * where those refuse. */
		if (tracked && ((rc = track_room(t, sp->pool, *s,
		    *s + sp->slots, sp->need, rq->jobs, &ok)) != 0 || ok))
			return rc;
		if ((rc = map_fits(t, rq, sp->pool, *s, sp->slots, &ok,
		    &c)) != 0 || ok)
			return rc;
		if (*conflict == 0)
			*conflict = c;
		if (tries == MAP_TRIES || *s == hi) {
			*s = -1;
			break;
		}
		if ((rc = fit_first(t, sp->cls, sp->pool, *s + 1, hi, sp->slots,
		    sp->need, s)) != 0)
			return rc;
	}
	return 0;
}

static int search_rigid(ar_txn *t, const struct ar_request *rq,
    struct ar_answer *ans);

/*
 * ar_search of a split request: as a rigid one if it fits in the one
 * interval it is first tried in (split_whole; first fit, as ar_add
 * grants it when it moves nothing); else the slices ar_add would book, where only the rings
 * have room (full, or a booking limit), or AR_R_SLICES if there is no
 * set of them.
 */
static int
search_split(ar_txn *t, const struct ar_request *rq, struct ar_answer *ans)
{
	struct ar_request one;
	struct span sp;
	uint32_t least = UINT32_MAX;
	int rc;

	/* Copies are split one after another, each against the plan with
	 * those before it: only ar_add books them so. */
	if (rq->jobs != 1 || (rc = split_check(rq)) != 0)
		return EINVAL;
	split_whole(t, rq, &one);
	if ((rc = search_rigid(t, &one, ans)) != 0 ||
	    ans->status == AR_AVAILABLE || (ans->reason != AR_R_FULL &&
	    ans->reason != AR_R_BOOKING))
		return rc;
	if ((rc = to_span(t, rq, 1, &sp, &(struct ar_answer){ 0 })) != 0 ||
	    (rc = slices_choose(t, rq, &sp)) != 0)
		return rc;
	if (t->nslices == 0) {
		ans->reason = AR_R_SLICES;
		return 0;
	}
	for (size_t i = 0; i < t->nslices; i++)
		if (t->slices[i].free < least)
			least = t->slices[i].free;
	ans->status = AR_AVAILABLE;
	ans->reason = AR_R_NONE;
	ans->start = t->slices[0].start;
	ans->end = t->slices[t->nslices - 1].end;
	ans->free = least;
	ans->pieces = t->nslices > 1 ? (uint32_t)t->nslices : 0;
	if (sp.cls != 0)
		ans->price = t->pr.c[sp.cls - 1].price * (int64_t)sp.need *
		    sp.slots;
	return 0;
}

void
ar_pieces(const ar_txn *t, const struct ar_placed **pieces, size_t *n)
{
	*pieces = t->slices;
	*n = t->nslices > 1 ? t->nslices : 0;
}

/* A level of ar_search's moldable request. */
static int
search_level(ar_txn *t, const struct ar_request *one, void *ans, int *fits)
{
	int rc = search_rigid(t, one, ans);

	*fits = ((struct ar_answer *)ans)->status == AR_AVAILABLE;
	return rc;
}

int
ar_search(ar_txn *t, const struct ar_request *rq, struct ar_answer *ans)
{
	struct ar_request one;
	struct ar_level got;
	int rc;

	t->nslices = 0;
	if (rq->split != 0 || rq->smallest != 0)
		return search_split(t, rq, ans);
	if (rq->nlevels == 0)
		return search_rigid(t, rq, ans);
	if ((rc = levels_try(t, rq, search_level, ans, &one, &got)) != 0)
		return rc;
	ans->nodes = got.nodes;
	ans->benefit = got.benefit;
	ans->jobs = got.jobs;
	return 0;
}

static int
search_rigid(ar_txn *t, const struct ar_request *rq, struct ar_answer *ans)
{
	struct span sp;
	int64_t s;
	int rc;

	if ((rc = to_span(t, rq, 1, &sp, ans)) != 0)
		return rc;
	ans->status = AR_UNAVAILABLE;
	if (ans->reason != AR_R_NONE)
		return 0;
	if ((rc = fit_first(t, sp.cls, sp.pool, sp.first, sp.last, sp.slots,
	    sp.need, &s)) != 0)
		return rc;
	if (s == -1) {
		if ((rc = fit_refusal(t, &sp, sp.last, 1, &ans->reason)) != 0)
			return rc;
		return place(t, &sp, sp.first, ans);
	}
	if ((rc = fit_mapped(t, rq, &sp, sp.last, &s, &ans->conflict)) != 0)
		return rc;
	if (s == -1) {
		ans->reason = AR_R_HOSTS;
		return place(t, &sp, sp.first, ans);
	}
	ans->status = AR_AVAILABLE;
	return place(t, &sp, s, ans);
}

static int suggest_rigid(ar_txn *t, const struct ar_request *rq,
    int64_t limit, struct ar_answer *alts, size_t k, size_t *n);

/* ar_suggest's arguments, for a level of a moldable request. */
struct suggest_args {
	int64_t limit;
	struct ar_answer *alts;
	size_t k, *n;
};

static int
suggest_level(ar_txn *t, const struct ar_request *one, void *arg, int *fits)
{
	struct suggest_args *a = arg;
	int rc = suggest_rigid(t, one, a->limit, a->alts, a->k, a->n);

	*fits = *a->n > 0;
	return rc;
}

int
ar_suggest(ar_txn *t, const struct ar_request *rq, int64_t limit,
    struct ar_answer *alts, size_t k, size_t *n)
{
	struct suggest_args a = { limit, alts, k, n };
	struct ar_request one;
	struct ar_level got;
	int rc;

	*n = 0;
	if (rq->nlevels == 0)
		return suggest_rigid(t, rq, limit, alts, k, n);
	if ((rc = levels_try(t, rq, suggest_level, &a, &one, &got)) != 0)
		return rc;
	for (size_t i = 0; i < (*n > 0 ? *n : 1); i++) {
		alts[i].nodes = got.nodes;
		alts[i].benefit = got.benefit;
		alts[i].jobs = got.jobs;
	}
	return 0;
}

static int
by_start(const void *a, const void *b)
{
	const struct ar_answer *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/*
 * Fewer runs of starts than k, alts[0 .. *n) their first starts: more
 * options inside the runs, at the starts where the nodes reserved
 * change (a reservation starts or ends there: seed 001's scheduling
 * options begin at its profile's times, where what is free changes),
 * the earliest first, up to k in all; then all in time order.
 */
static int
suggest_more(ar_txn *t, const struct ar_request *rq, const struct span *sp,
    int64_t hi, struct ar_answer *alts, size_t k, size_t *n)
{
	size_t runs = *n;
	uint32_t *count = NULL;
	int64_t first, bad, last, s;
	uint64_t conflict;
	int rc = 0;

	for (size_t r = 0; r < runs && *n < k && rc == 0; r++) {
		first = alts[r].start / t->m.slot;
		if ((rc = fit_end(t, sp->cls, sp->pool, first, hi + sp->slots,
		    sp->need, &bad)) != 0)
			break;
		last = bad - sp->slots < hi ? bad - sp->slots : hi;
		if (last <= first)
			continue;
		free(count);
		if ((count = malloc((size_t)(last - first + 1) *
		    sizeof(*count))) == NULL) {
			rc = ENOMEM;
			break;
		}
		if ((rc = ring_counts(t, &t->ring, first, last + 1, count)) != 0)
			break;
		for (int64_t i = 1; i <= last - first && *n < k && rc == 0;
		    i++) {
			if (count[i] == count[i - 1])
				continue;
			s = first + i;
			if ((rc = fit_mapped(t, rq, sp, s, &s, &conflict)) != 0 ||
			    s == -1)
				continue;
			alts[*n] = alts[0];
			rc = place(t, sp, s, &alts[(*n)++]);
		}
	}
	free(count);
	if (rc == 0 && *n > runs)
		qsort(alts, *n, sizeof(*alts), by_start);
	return rc;
}

static int
suggest_rigid(ar_txn *t, const struct ar_request *rq, int64_t limit,
    struct ar_answer *alts, size_t k, size_t *n)
{
	struct ar_request from_now = *rq;
	struct span sp;
	int64_t s, hi, end;
	int rc;

	*n = 0;
	if (k == 0 || limit < 0)
		return EINVAL;
	/* A start already past is no reason not to look from the clock on. */
	if (from_now.latest < t->now && from_now.earliest <= from_now.latest)
		from_now.latest = t->now;
	if ((rc = to_span(t, &from_now, 1, &sp, &alts[0])) != 0)
		return rc;
	alts[0].status = AR_UNAVAILABLE;
	if (alts[0].reason != AR_R_NONE)
		return 0;
	/* The limit bounds the search; a longer window does not extend it. */
	end = t->base + t->m.horizon - sp.slots;
	hi = sp.first + limit / t->m.slot;
	if (hi > end)
		hi = end;
	if ((rc = fit_first(t, sp.cls, sp.pool, sp.first, hi, sp.slots, sp.need,
	    &s)) != 0 || (s != -1 && (rc = fit_mapped(t, rq, &sp, hi, &s,
	    &alts[0].conflict)) != 0))
		return rc;
	while (s != -1) {
		alts[*n] = alts[0];
		alts[*n].status = AR_SUGGESTED;
		if ((rc = place(t, &sp, s, &alts[*n])) != 0)
			return rc;
		if (++*n == k)
			break;
		if ((rc = fit_next(t, sp.cls, sp.pool, s, hi, sp.slots, sp.need,
		    &s)) != 0 || (s != -1 && (rc = fit_mapped(t, rq, &sp, hi,
		    &s, &alts[0].conflict)) != 0))
			return rc;
	}
	if (*n == 0) {
		alts[0].reason = AR_R_LIMIT;
		return place(t, &sp, sp.first, &alts[0]);
	}
	return *n < k ? suggest_more(t, rq, &sp, hi, alts, k, n) : 0;
}

int
ar_free(ar_txn *t, int64_t from, int64_t to, uint32_t *free)
{
	uint32_t peak;
	int rc;

	if (from < 0 || to < from || to > TIME_MAX)
		return EINVAL;
	if ((rc = ring_peak(t, &t->ring, from / t->m.slot, slot_up(t, to),
	    &peak)) != 0)
		return rc;
	*free = t->m.nodes - peak;
	return 0;
}
