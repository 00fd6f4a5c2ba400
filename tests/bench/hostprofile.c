/*
 * hostprofile.c - design B: de Assuncao's availability profile (seed
 * 001, section III).  The hosts busy over time as steps, each from its
 * time to the next step's, in one sorted array (the seed's red-black tree
 * and list, as exact.c keeps its profile); every reservation gets its
 * hosts when it is granted and keeps them.  A request fits where the
 * hosts it may have that are free over its whole interval (the union of
 * the steps' busy sets there, taken away) are enough, and takes them by
 * fit; the earliest start is found as the seed's Algorithm 1 finds it,
 * trying each step boundary after the asked start.
 *
 * Nothing is ever moved: what was chosen at admission stays, so a plan
 * the counts would hold may be refused for the order in which hosts were
 * handed out, even with no host named (the lemma needs the mapping to be
 * made in order of start, not of arrival).  hostbench counts how often.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hosts.h"

struct step {
	int64_t at;             /* from here to the next step's at */
	hmask busy;
};

struct bres {
	uint64_t id;
	int64_t s, e;
	hmask hosts;
};

struct profile {
	struct step *st;        /* st[0].at is at or before the clock */
	size_t n, cap;
	struct bres *r;         /* the plan */
	size_t nr, rcap;
};

static int
pf_make(struct hd *d)
{
	struct profile *x;

	if ((x = calloc(1, sizeof(*x))) == NULL ||
	    (x->st = grow((void **)&x->st, &x->n, &x->cap,
	    sizeof(*x->st))) == NULL) {
		free(x);
		return ENOMEM;
	}
	x->st[0].at = d->now;
	d->impl = x;
	return 0;
}

static void
pf_destroy(struct hd *d)
{
	struct profile *x = d->impl;

	free(x->st);
	free(x->r);
	free(x);
}

/* The index of the step holding slot t (at or after the first). */
static size_t
step_of(const struct profile *x, int64_t t)
{
	size_t lo = 0, hi = x->n;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (x->st[mid].at <= t)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* The hosts busy in some slot of [s, e). */
static hmask
busy_over(const struct profile *x, int64_t s, int64_t e)
{
	hmask b = 0;

	for (size_t i = step_of(x, s); i < x->n && x->st[i].at < e; i++)
		b |= x->st[i].busy;
	return b;
}

/* The hosts q may have at q->s, free throughout. */
static hmask
free_for(const struct hd *d, const struct hreq *q)
{
	return hreq_eligible(d->c, q) & ~busy_over(d->impl, q->s,
	    q->s + q->len);
}

static int
fits(const struct hd *d, const struct hreq *q)
{
	hmask f = free_for(d, q);

	return q->named ? (q->named & ~f) == 0 : hcount(f) >= q->n;
}

static int
pf_search(struct hd *d, const struct hreq *q, enum fit *f)
{
	if (q->s + q->len > d->now + d->m)
		*f = BEYOND;
	else
		*f = fits(d, q) ? FIT : FULL;
	return 0;
}

/* Algorithm 1: the asked start, then each step boundary after it. */
static int
pf_suggest(struct hd *d, const struct hreq *q, int64_t hi, int64_t *start)
{
	const struct profile *x = d->impl;
	struct hreq at = *q;
	size_t i = step_of(x, q->s) + 1;

	*start = -1;
	if (hi > d->now + d->m - q->len)
		hi = d->now + d->m - q->len;
	for (at.s = q->s; at.s <= hi; at.s = x->st[i++].at) {
		if (fits(d, &at)) {
			*start = at.s;
			return 0;
		}
		if (i == x->n)
			break;
	}
	return 0;
}

/* A step boundary at t; its index. */
static int
split_at(struct profile *x, int64_t t, size_t *at)
{
	size_t i = step_of(x, t);

	if (x->st[i].at == t) {
		*at = i;
		return 0;
	}
	if (grow((void **)&x->st, &x->n, &x->cap, sizeof(*x->st)) == NULL)
		return ENOMEM;
	memmove(&x->st[i + 2], &x->st[i + 1], (x->n - i - 2) *
	    sizeof(*x->st));
	x->st[i + 1].at = t;
	x->st[i + 1].busy = x->st[i].busy;
	*at = i + 1;
	return 0;
}

static int
pf_add(struct hd *d, const struct hreq *q, uint64_t id, int *granted)
{
	struct profile *x = d->impl;
	int64_t e = q->s + q->len;
	struct bres *r;
	hmask hosts, f;
	size_t a, b;

	*granted = 0;
	if (q->s + q->len > d->now + d->m)
		return 0;
	f = free_for(d, q);
	if (q->named) {
		if ((q->named & ~f) != 0)
			return 0;
		hosts = q->named;
	} else if (!hchoose(f, hreq_own(d->c, q), q->n, d->fit, &hosts))
		return 0;
	if (split_at(x, q->s, &a) != 0 || split_at(x, e, &b) != 0 ||
	    (r = grow((void **)&x->r, &x->nr, &x->rcap, sizeof(*r))) == NULL)
		return ENOMEM;
	for (a = step_of(x, q->s); a < x->n && x->st[a].at < e; a++)
		x->st[a].busy |= hosts;
	r->id = id;
	r->s = q->s;
	r->e = e;
	r->hosts = hosts;
	*granted = 1;
	return 0;
}

static int
pf_clock(struct hd *d)
{
	struct profile *x = d->impl;
	size_t i = step_of(x, d->now), j = 0;

	memmove(x->st, x->st + i, (x->n - i) * sizeof(*x->st));
	x->n -= i;
	x->st[0].at = d->now;
	for (i = 0; i < x->nr; i++)
		if (x->r[i].e > d->now)
			x->r[j++] = x->r[i];
	x->nr = j;
	return 0;
}

static int
pf_plan(struct hd *d, held_fn fn, void *arg)
{
	struct profile *x = d->impl;
	struct held h;
	int rc;

	for (size_t i = 0; i < x->nr; i++) {
		h.id = x->r[i].id;
		h.s = x->r[i].s;
		h.e = x->r[i].e;
		h.hosts = x->r[i].hosts;
		if ((rc = fn(&h, arg)) != 0)
			return rc;
	}
	return 0;
}

static size_t
pf_bytes(const struct hd *d)
{
	const struct profile *x = d->impl;

	return x->n * sizeof(*x->st) + x->nr * sizeof(*x->r);
}

const struct hdesign profile_design = {
	"profile (B)", pf_make, pf_destroy, pf_clock, pf_search, pf_suggest,
	pf_add, NULL, pf_plan, pf_bytes
};
