/*
 * hostsweep.c - today's library, replicated in memory: the count ring
 * decides alone while nothing in the plan names hosts; while something
 * does, every search, suggest and add also sweeps the whole plan onto the
 * hosts (lib/map.c) and is refused if the sweep fails, trying at most
 * MAP_TRIES starts; and an add that stands keeps the sweep's mapping, which
 * the next sweeps keep where they can and which fixes the hosts of what
 * has started.  hostbench.c checks that it grants exactly what the
 * library grants, on the first requests of each trace, before its figures
 * stand for the library's on the whole traces.
 *
 * On a cluster of several pools (the partitioned row) nothing but the
 * sweep knows where a request may go: it sweeps for every call, each
 * reservation taking its own partition's hosts first, then those it may
 * borrow, as the policy orders them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hosts.h"

#define MAP_TRIES 288           /* lib/map.c's */

struct sw {
	struct hring ring;
	struct sitem *it;       /* the plan, in sweep order */
	size_t n, cap;
	size_t named;           /* of them naming hosts, ending after now */
	struct sweeper sw;
};

static int
sw_make(struct hd *d)
{
	struct sw *x;

	if ((x = calloc(1, sizeof(*x))) == NULL)
		return ENOMEM;
	if (hring_init(&x->ring, d->m, d->now) != 0) {
		free(x);
		return ENOMEM;
	}
	d->impl = x;
	return 0;
}

static void
sw_destroy(struct hd *d)
{
	struct sw *x = d->impl;

	hring_free(&x->ring);
	sweeper_free(&x->sw);
	free(x->it);
	free(x);
}

static hmask
all_hosts(const struct hd *d)
{
	return d->c->nhosts == 64 ? ~(hmask)0 :
	    ((hmask)1 << d->c->nhosts) - 1;
}

/* Sweeps are asked for while a pin is in the plan, or pools are several. */
static int
must_sweep(const struct hd *d, const struct hreq *q)
{
	const struct sw *x = d->impl;

	return q->named != 0 || x->named > 0 || d->c->npools > 1;
}

static void
item_of(const struct hd *d, const struct hreq *q, uint64_t id,
    struct sitem *it)
{
	memset(it, 0, sizeof(*it));
	it->s = q->s;
	it->e = q->s + q->len;
	it->id = id;
	it->n = q->n;
	it->fixed = q->named != 0;
	it->want = q->named;
	it->allow = hreq_eligible(d->c, q);
	it->pref = hreq_own(d->c, q);
	it->ref = q->named != 0;        /* here: it names its hosts */
}

/* Does the plan map with q at q->s (asked about as id 0)? */
static int
maps(struct hd *d, const struct hreq *q, int *ok)
{
	struct sw *x = d->impl;
	struct sitem req, *failed;

	item_of(d, q, 0, &req);
	d->k.sweeps++;
	if (sweep_run(&x->sw, x->it, x->n, &req, all_hosts(d), d->fit, 1,
	    &failed) != 0)
		return ENOMEM;
	*ok = failed == NULL;
	return 0;
}

static int
counts_fit(const struct hd *d, const struct hreq *q)
{
	const struct sw *x = d->impl;

	return hring_max(&x->ring, q->s, q->s + q->len) + q->n <=
	    d->c->nhosts;
}

static int
sw_search(struct hd *d, const struct hreq *q, enum fit *f)
{
	int ok;

	if (q->s + q->len > d->now + d->m) {
		*f = BEYOND;
		return 0;
	}
	*f = counts_fit(d, q) ? FIT : FULL;
	if (*f == FIT && must_sweep(d, q)) {
		if (maps(d, q, &ok) != 0)
			return ENOMEM;
		*f = ok ? FIT : FULL;
	}
	return 0;
}

/* lib/map.c's fit_mapped: count-fit starts in turn, MAP_TRIES at most. */
static int
sw_suggest(struct hd *d, const struct hreq *q, int64_t hi, int64_t *start)
{
	struct sw *x = d->impl;
	struct hreq at = *q;
	uint32_t limit = d->c->nhosts - q->n;
	int ok;

	if (hi > d->now + d->m - q->len)
		hi = d->now + d->m - q->len;
	*start = q->s > hi ? -1 : hring_first(&x->ring, q->s, hi, q->len,
	    limit);
	if (*start == -1 || !must_sweep(d, q))
		return 0;
	for (int tries = 1;; tries++) {
		at.s = *start;
		if (maps(d, &at, &ok) != 0)
			return ENOMEM;
		if (ok)
			return 0;
		if (tries == MAP_TRIES || *start == hi ||
		    (*start = hring_first(&x->ring, *start + 1, hi, q->len,
		    limit)) == -1) {
			*start = -1;
			return 0;
		}
	}
}

static int
sw_add(struct hd *d, const struct hreq *q, uint64_t id, int *granted)
{
	struct sw *x = d->impl;
	struct sitem it, *failed;
	size_t lo = 0, hi = x->n;
	int ok;

	*granted = 0;
	if (q->s + q->len > d->now + d->m || !counts_fit(d, q))
		return 0;
	/* A request naming hosts is placed where the plan maps with it. */
	if (q->named != 0) {
		if (maps(d, q, &ok) != 0)
			return ENOMEM;
		if (!ok)
			return 0;
	}
	item_of(d, q, id, &it);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sitem_cmp(&x->it[mid], &it) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (grow((void **)&x->it, &x->n, &x->cap, sizeof(*x->it)) == NULL)
		return ENOMEM;
	memmove(&x->it[lo + 1], &x->it[lo], (x->n - 1 - lo) * sizeof(it));
	x->it[lo] = it;
	x->named += q->named != 0;
	if (must_sweep(d, q)) {
		d->k.sweeps++;
		if (sweep_run(&x->sw, x->it, x->n, NULL, all_hosts(d), d->fit,
		    1, &failed) != 0)
			return ENOMEM;
		if (failed != NULL) {
			/* Refused: the plan as it was. */
			memmove(&x->it[lo], &x->it[lo + 1],
			    (x->n - 1 - lo) * sizeof(it));
			x->n--;
			x->named -= q->named != 0;
			return 0;
		}
		/* The mapping kept, as map_after_admission does. */
		for (size_t i = 0; i < x->n; i++)
			x->it[i].want = x->it[i].got;
	}
	hring_add(&x->ring, q->s, q->s + q->len, (int32_t)q->n);
	*granted = 1;
	return 0;
}

static int
sw_clock(struct hd *d)
{
	struct sw *x = d->impl;
	size_t j = 0;

	hring_clock(&x->ring, d->now);
	x->named = 0;
	for (size_t i = 0; i < x->n; i++) {
		struct sitem *it = &x->it[i];

		if (it->e <= d->now)
			continue;
		/* Started with hosts kept: they stay; named: always. */
		it->fixed = it->fixed || (it->want != 0 && it->s <= d->now);
		x->named += it->ref;
		x->it[j++] = *it;
	}
	x->n = j;
	if (x->n > 0)
		qsort(x->it, x->n, sizeof(*x->it), sitem_cmp);
	return 0;
}

/* The mapping ar_map would tell, in a read transaction: kept nowhere. */
static int
sw_plan(struct hd *d, held_fn fn, void *arg)
{
	struct sw *x = d->impl;
	struct sitem *failed;
	struct held h;
	int rc;

	d->k.sweeps++;
	if (sweep_run(&x->sw, x->it, x->n, NULL, all_hosts(d), d->fit, 1,
	    &failed) != 0)
		return ENOMEM;
	if (failed != NULL)
		return EDOM;            /* admission never lets it come to this */
	for (size_t i = 0; i < x->n; i++) {
		h.id = x->it[i].id;
		h.s = x->it[i].s;
		h.e = x->it[i].e;
		h.hosts = x->it[i].got;
		if ((rc = fn(&h, arg)) != 0)
			return rc;
	}
	return 0;
}

static size_t
sw_bytes(const struct hd *d)
{
	const struct sw *x = d->impl;

	return (size_t)d->m * sizeof(*x->ring.used) + x->n * sizeof(*x->it);
}

const struct hdesign sweep_design = {
	"sweep (today)", sw_make, sw_destroy, sw_clock, sw_search, sw_suggest,
	sw_add, NULL, sw_plan, sw_bytes
};
