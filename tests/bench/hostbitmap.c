/*
 * hostbitmap.c - design C: today's count ring, and beside it, only while
 * something in the plan names hosts or the cluster has several pools
 * (the plan is "exact" then), a bitmap of busy hosts for every slot of
 * the horizon.  Entering that state maps the whole plan once (today's
 * sweep) and lays it out; from then on every reservation has explicit
 * hosts, chosen by fit at admission from those free in every slot of its
 * interval (an OR of its slots' bitmaps).  When that finds too few but
 * the counts allow, today's whole-plan sweep decides, and if it maps,
 * its mapping replaces the bitmaps' (what has not started may move): so
 * C refuses nothing the sweep would grant on the same plan.  Out of that
 * state it is the floor, hosts assigned lazily (the lemma).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hosts.h"

#define MAP_TRIES 288           /* lib/map.c's */

struct cres {
	uint64_t id;
	int64_t s, e;
	uint32_t n;
	uint8_t part;
	uint32_t feat;
	hmask named;
	hmask hosts;            /* while exact, or once started; else 0 */
};

struct bitmap {
	struct hring ring;      /* every host's use, as today */
	hmask *busy;            /* busy[slot % m], while exact */
	int exact;
	size_t named;           /* reservations naming hosts, in the plan */
	struct cres *r;         /* the plan */
	size_t n, cap;
	struct sweeper sw;
	struct sitem *it;
	size_t nit, itcap;
};

static hmask
all_hosts(const struct hd *d)
{
	return d->c->nhosts == 64 ? ~(hmask)0 :
	    ((hmask)1 << d->c->nhosts) - 1;
}

static int
bm_make(struct hd *d)
{
	struct bitmap *x;

	if ((x = calloc(1, sizeof(*x))) == NULL)
		return ENOMEM;
	d->impl = x;
	if (hring_init(&x->ring, d->m, d->now) != 0 ||
	    (x->busy = calloc((size_t)d->m, sizeof(*x->busy))) == NULL)
		return ENOMEM;
	return 0;
}

static void
bm_destroy(struct hd *d)
{
	struct bitmap *x = d->impl;

	if (x == NULL)
		return;
	hring_free(&x->ring);
	free(x->busy);
	free(x->r);
	free(x->it);
	sweeper_free(&x->sw);
	free(x);
}

static void
lay(struct hd *d, int64_t s, int64_t e, hmask hosts, int on)
{
	struct bitmap *x = d->impl;

	if (s < d->now)
		s = d->now;
	for (int64_t i = s % d->m; s < e; s++) {
		x->busy[i] = on ? x->busy[i] | hosts : x->busy[i] & ~hosts;
		if (++i == d->m)
			i = 0;
	}
}

static hmask
busy_over(const struct hd *d, int64_t s, int64_t e)
{
	const struct bitmap *x = d->impl;
	hmask b = 0;

	for (int64_t i = s % d->m; s < e; s++) {
		b |= x->busy[i];
		if (++i == d->m)
			i = 0;
	}
	return b;
}

/*
 * The plan for today's sweep (and q, if not NULL, as extra): named ones
 * and started ones fixed on their hosts, the others where they may go,
 * keeping the hosts they have where they still can.
 */
static int
sweep_plan(struct hd *d, const struct hreq *q, struct sitem *extra, int *ok)
{
	struct bitmap *x = d->impl;
	struct sitem *failed;

	x->nit = 0;
	for (size_t i = 0; i < x->n; i++) {
		const struct cres *r = &x->r[i];
		struct hreq rq = { r->s, r->e - r->s, r->n, r->part, r->feat,
			r->named };
		struct sitem *it = grow((void **)&x->it, &x->nit, &x->itcap,
		    sizeof(*it));

		if (it == NULL)
			return ENOMEM;
		it->s = r->s;
		it->e = r->e;
		it->id = r->id;
		it->n = r->n;
		it->fixed = r->named != 0 || (r->s <= d->now && r->hosts != 0);
		it->want = r->named ? r->named : r->hosts;
		it->allow = hreq_eligible(d->c, &rq);
		it->pref = hreq_own(d->c, &rq);
		it->ref = i;
	}
	if (x->nit > 0)
		qsort(x->it, x->nit, sizeof(*x->it), sitem_cmp);
	if (q != NULL) {
		/* Asked about as id 0, at search as at add: both find the
		 * same. */
		memset(extra, 0, sizeof(*extra));
		extra->s = q->s;
		extra->e = q->s + q->len;
		extra->n = q->n;
		extra->fixed = q->named != 0;
		extra->want = q->named;
		extra->allow = hreq_eligible(d->c, q);
		extra->pref = hreq_own(d->c, q);
	}
	d->k.sweeps++;
	if (sweep_run(&x->sw, x->it, x->nit, q != NULL ? extra : NULL,
	    all_hosts(d), d->fit, 1, &failed) != 0)
		return ENOMEM;
	*ok = failed == NULL;
	return 0;
}

/* Take the sweep's mapping as the plan's hosts, laid out in bitmaps. */
static void
take_mapping(struct hd *d)
{
	struct bitmap *x = d->impl;

	memset(x->busy, 0, (size_t)d->m * sizeof(*x->busy));
	for (size_t i = 0; i < x->nit; i++) {
		struct cres *r = &x->r[x->it[i].ref];

		r->hosts = x->it[i].got;
		lay(d, r->s, r->e, r->hosts, 1);
	}
}

/* Is the plan exact, or must it be for q?  Once entered, the state
 * holds until the clock finds no reason for it. */
static int
must_be_exact(const struct hd *d, const struct hreq *q)
{
	const struct bitmap *x = d->impl;

	return x->exact || d->c->npools > 1 || x->named > 0 ||
	    (q != NULL && q->named);
}

/* Enter the exact state: the whole plan mapped once and laid out. */
static int
enter(struct hd *d)
{
	struct bitmap *x = d->impl;
	int ok, rc;

	if (x->exact)
		return 0;
	if ((rc = sweep_plan(d, NULL, NULL, &ok)) != 0)
		return rc;
	if (!ok)
		return EDOM;            /* within the counts: the lemma */
	take_mapping(d);
	x->exact = 1;
	d->k.rebuilds++;
	return 0;
}

static int
counts_fit(const struct hd *d, const struct hreq *q)
{
	const struct bitmap *x = d->impl;

	return hring_max(&x->ring, q->s, q->s + q->len) + q->n <=
	    d->c->nhosts;
}

/* Does q fit at q->s by the bitmaps (*hosts: where)? */
static int
fits_exact(const struct hd *d, const struct hreq *q, hmask *hosts)
{
	hmask f = hreq_eligible(d->c, q) & ~busy_over(d, q->s, q->s + q->len);

	if (q->named) {
		*hosts = q->named;
		return (q->named & ~f) == 0;
	}
	return hchoose(f, hreq_own(d->c, q), q->n, d->fit, hosts);
}

/* Does q fit at q->s: counts, then bitmaps, then the sweep? */
static int
fits(struct hd *d, const struct hreq *q, int *ok)
{
	struct sitem extra;
	hmask hosts;
	int rc;

	*ok = counts_fit(d, q);
	if (!*ok || !must_be_exact(d, q))
		return 0;
	if ((rc = enter(d)) != 0)
		return rc;
	if ((*ok = fits_exact(d, q, &hosts)) != 0)
		return 0;
	d->k.fallbacks++;
	if ((rc = sweep_plan(d, q, &extra, ok)) != 0)
		return rc;
	d->k.rescued += *ok;
	return 0;
}

static int
bm_search(struct hd *d, const struct hreq *q, enum fit *f)
{
	int ok, rc;

	if (q->s + q->len > d->now + d->m) {
		*f = BEYOND;
		return 0;
	}
	if ((rc = fits(d, q, &ok)) != 0)
		return rc;
	*f = ok ? FIT : FULL;
	return 0;
}

/* The count-fit starts in turn, each checked on the bitmaps; then, as
 * today, the sweep at so many of them. */
static int
bm_suggest(struct hd *d, const struct hreq *q, int64_t hi, int64_t *start)
{
	struct bitmap *x = d->impl;
	struct hreq at = *q;
	struct sitem extra;
	uint32_t limit = d->c->nhosts - q->n;
	hmask hosts;
	int ok, rc;

	if (hi > d->now + d->m - q->len)
		hi = d->now + d->m - q->len;
	*start = q->s > hi ? -1 : hring_first(&x->ring, q->s, hi, q->len,
	    limit);
	if (*start == -1 || !must_be_exact(d, q))
		return 0;
	if ((rc = enter(d)) != 0)
		return rc;
	for (at.s = *start; at.s != -1; at.s = at.s == hi ? -1 :
	    hring_first(&x->ring, at.s + 1, hi, q->len, limit))
		if (fits_exact(d, &at, &hosts)) {
			*start = at.s;
			return 0;
		}
	at.s = *start;
	for (int tries = 1; at.s != -1; tries++) {
		d->k.fallbacks++;
		if ((rc = sweep_plan(d, &at, &extra, &ok)) != 0)
			return rc;
		if (ok) {
			d->k.rescued++;
			*start = at.s;
			return 0;
		}
		if (tries == MAP_TRIES || at.s == hi)
			break;
		at.s = hring_first(&x->ring, at.s + 1, hi, q->len, limit);
	}
	*start = -1;
	return 0;
}

static int
bm_add(struct hd *d, const struct hreq *q, uint64_t id, int *granted)
{
	struct bitmap *x = d->impl;
	struct sitem extra;
	struct cres *r;
	hmask hosts = 0;
	int ok, rc, swept = 0;

	*granted = 0;
	if (q->s + q->len > d->now + d->m || !counts_fit(d, q))
		return 0;
	if (must_be_exact(d, q)) {
		if ((rc = enter(d)) != 0)
			return rc;
		if (!fits_exact(d, q, &hosts)) {
			d->k.fallbacks++;
			if ((rc = sweep_plan(d, q, &extra, &ok)) != 0)
				return rc;
			if (!ok)
				return 0;
			d->k.rescued++;
			swept = 1;
		}
	}
	if ((r = grow((void **)&x->r, &x->n, &x->cap, sizeof(*r))) == NULL)
		return ENOMEM;
	r->id = id;
	r->s = q->s;
	r->e = q->s + q->len;
	r->n = q->n;
	r->part = q->part;
	r->feat = q->feat;
	r->named = q->named;
	x->named += q->named != 0;
	hring_add(&x->ring, r->s, r->e, (int32_t)r->n);
	if (swept) {
		take_mapping(d);
		r->hosts = extra.got;
		lay(d, r->s, r->e, r->hosts, 1);
		d->k.rebuilds++;
	} else if (x->exact) {
		r->hosts = hosts;
		lay(d, r->s, r->e, r->hosts, 1);
	}
	*granted = 1;
	return 0;
}

/*
 * The plan on hosts.  Exact: as kept.  Else a sweep in order of start
 * (the lemma: it never fails), the started ones first on their hosts,
 * one started without hosts yet placed as if it started at the clock;
 * what has started keeps what it gets.
 */
static int
bm_plan(struct hd *d, held_fn fn, void *arg)
{
	struct bitmap *x = d->impl;
	struct sitem *failed;
	struct held h;
	hmask *got = NULL;
	int rc = 0;

	if (!x->exact) {
		x->nit = 0;
		for (size_t i = 0; i < x->n; i++) {
			struct cres *r = &x->r[i];
			struct sitem *it = grow((void **)&x->it, &x->nit,
			    &x->itcap, sizeof(*it));

			if (it == NULL)
				return ENOMEM;
			it->s = r->s < d->now ? d->now : r->s;
			it->e = r->e;
			it->id = r->id;
			it->n = r->n;
			it->fixed = r->s <= d->now && r->hosts != 0;
			it->want = r->hosts;
			it->allow = all_hosts(d);
			it->pref = it->allow;
			it->ref = i;
		}
		if (x->nit > 0)
			qsort(x->it, x->nit, sizeof(*x->it), sitem_cmp);
		if (sweep_run(&x->sw, x->it, x->nit, NULL, all_hosts(d), d->fit,
		    0, &failed) != 0 ||
		    (got = calloc(x->n + 1, sizeof(*got))) == NULL)
			return ENOMEM;
		if (failed != NULL) {
			free(got);
			return EDOM;
		}
		for (size_t i = 0; i < x->nit; i++) {
			struct cres *r = &x->r[x->it[i].ref];

			got[x->it[i].ref] = x->it[i].got;
			if (r->s <= d->now)
				r->hosts = x->it[i].got;
		}
	}
	for (size_t i = 0; i < x->n && rc == 0 && fn != NULL; i++) {
		h.id = x->r[i].id;
		h.s = x->r[i].s;
		h.e = x->r[i].e;
		h.hosts = got != NULL ? got[i] : x->r[i].hosts;
		rc = fn(&h, arg);
	}
	free(got);
	return rc;
}

static int
bm_clock(struct hd *d)
{
	struct bitmap *x = d->impl;
	int64_t was = x->ring.base;
	size_t j = 0;

	for (int64_t s = was; s < d->now && s < was + d->m; s++)
		x->busy[s % d->m] = 0;
	hring_clock(&x->ring, d->now);
	x->named = 0;
	for (size_t i = 0; i < x->n; i++)
		if (x->r[i].e > d->now) {
			x->named += x->r[i].named != 0;
			x->r[j++] = x->r[i];
		}
	x->n = j;
	if (x->exact && d->c->npools == 1 && x->named == 0) {
		/* Out of the exact state: what has not started is mapped
		 * lazily again. */
		for (size_t i = 0; i < x->n; i++)
			if (x->r[i].s > d->now)
				x->r[i].hosts = 0;
		x->exact = 0;
	}
	return bm_plan(d, NULL, NULL);
}

static size_t
bm_bytes(const struct hd *d)
{
	const struct bitmap *x = d->impl;

	return (size_t)d->m * (sizeof(uint32_t) + (x->exact ?
	    sizeof(hmask) : 0)) + x->n * sizeof(*x->r);
}

const struct hdesign bitmap_design = {
	"bitmap (C)", bm_make, bm_destroy, bm_clock, bm_search, bm_suggest,
	bm_add, NULL, bm_plan, bm_bytes
};
