/*
 * frames.c - the free time frames of the plan on hosts, and the hosts a
 * placement would take (seed 001, section III: the availability
 * profile, its free time frames and the first, best and worst fit).
 *
 * The ring counts nodes; which hosts are free when is the plan mapped
 * onto the hosts, as ar_map maps it (map_verify: each reservation keeps
 * the hosts it had where it can, best fit otherwise) and without
 * keeping anything.  In that mapping the free hosts are steps that
 * change only where a reservation starts or ends: the seed's profile,
 * whose nodes are those times.  Its first operation, the free time
 * frames that do not overlap, is read here as the maximal intervals
 * over which the set of free hosts stays the same; a placement's hosts
 * are the ones free throughout its interval, chosen by a fit.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "internal.h"

/* A reservation of the plan within the range: its slots, cut to the
 * range, and its hosts. */
struct busy {
	int64_t s, e;
	struct hostset hosts;
};

/* The plan over slots [lo, hi), mapped. */
struct profile {
	int64_t lo, hi;
	struct busy *b;
	size_t n, cap;
};

static void
profile_free(struct profile *p)
{
	for (size_t i = 0; i < p->n; i++)
		hostset_free(&p->b[i].hosts);
	free(p->b);
}

static int
profile_add(const struct map_got *g, void *arg)
{
	struct profile *p = arg;
	struct busy *b;
	int rc;

	if (g->end <= p->lo || g->start >= p->hi)
		return 0;
	if (array_room(&p->b, &p->cap, p->n + 1, sizeof(*p->b)) != 0)
		return ENOMEM;
	b = &p->b[p->n++];
	memset(b, 0, sizeof(*b));
	b->s = g->start > p->lo ? g->start : p->lo;
	b->e = g->end < p->hi ? g->end : p->hi;
	for (size_t i = 0; i < g->nruns; i++)
		if ((rc = hostset_append(&b->hosts, g->hosts[i].first,
		    g->hosts[i].count)) != 0)
			return rc;
	return 0;
}

/* The plan mapped, over [from, to) seconds from the clock's slot on and
 * within the horizon: *empty if nothing of it is left. */
static int
profile_load(ar_txn *t, int64_t from, int64_t to, struct profile *p,
    int *empty)
{
	uint64_t failed, conflict;
	int64_t now = t->now / t->m.slot;
	int rc;

	memset(p, 0, sizeof(*p));
	if (from < 0 || to < from || to > TIME_MAX)
		return EINVAL;
	p->lo = from / t->m.slot > now ? from / t->m.slot : now;
	p->hi = slot_up(t, to);
	if (p->hi > t->base + t->m.horizon)
		p->hi = t->base + t->m.horizon;
	*empty = p->hi <= p->lo;
	if (*empty)
		return 0;
	if ((rc = map_verify(t, profile_add, p, &failed, &conflict)) != 0)
		return rc;
	/* Admission never lets the plan come to this. */
	return failed != 0 ? AR_ECORRUPT : 0;
}

static int
by_s(const void *a, const void *b)
{
	const struct busy *x = *(struct busy *const *)a;
	const struct busy *y = *(struct busy *const *)b;

	return x->s < y->s ? -1 : x->s > y->s;
}

static int
by_e(const void *a, const void *b)
{
	const struct busy *x = *(struct busy *const *)a;
	const struct busy *y = *(struct busy *const *)b;

	return x->e < y->e ? -1 : x->e > y->e;
}

/* What the walk over the profile hands on: a frame waiting for its end,
 * and what it is told as. */
struct walker {
	ar_txn *t;
	int64_t from, to;       /* seconds: the first and last frame's cut */
	int (*fn)(const struct ar_frame *, void *);
	void *arg;
	int64_t s, e;           /* slots of the frame waiting */
	struct hostset hosts;   /* ... its free hosts */
	uint32_t *idx;
	size_t cap;
	uint32_t partition;     /* the partition walked */
	struct hostset outside; /* ... the hosts not of it; none if the
				   store has one partition */
};

/* Tell the frame waiting, unless no host is free in it. */
static int
frame_tell(struct walker *w)
{
	struct ar_frame f;
	size_t n = 0;
	uint64_t count = hostset_count(&w->hosts);

	if (count == 0)
		return 0;
	if (array_room(&w->idx, &w->cap, count, sizeof(*w->idx)) != 0)
		return ENOMEM;
	for (size_t i = 0; i < w->hosts.n; i++)
		for (uint32_t j = 0; j < w->hosts.r[i].count; j++)
			w->idx[n++] = w->hosts.r[i].first + j;
	f.start = w->s * w->t->m.slot;
	if (f.start < w->from)
		f.start = w->from;
	f.end = w->e * w->t->m.slot;
	if (f.end > w->to)
		f.end = w->to;
	f.free = (uint32_t)count;
	f.hosts = w->idx;
	f.partition = w->partition;
	return w->fn(&f, w->arg);
}

/* Slots [s, e) have free hosts free: those of the partition walked are
 * the frame waiting, which grows, or is told and they begin the next. */
static int
frame_step(struct walker *w, int64_t s, int64_t e, const struct hostset *free_,
    struct hostset *mine)
{
	int rc;

	if ((rc = hostset_minus(mine, free_, &w->outside)) != 0)
		return rc;
	if (w->e == s && hostset_equal(&w->hosts, mine)) {
		w->e = e;
		return 0;
	}
	if (w->e > w->s && (rc = frame_tell(w)) != 0)
		return rc;
	w->s = s;
	w->e = e;
	return hostset_copy(&w->hosts, mine);
}

/*
 * Walk the profile's steps in time order: at each time where a
 * reservation starts or ends, the ones that end give their hosts back
 * and the ones that start take theirs (the mapping never gives a host
 * to two at once), and the hosts free until the next such time are a
 * step.
 */
static int
profile_walk(struct profile *p, struct walker *w)
{
	struct busy **st = NULL, **en = NULL;
	struct hostset free_ = { 0 }, tmp = { 0 }, mine = { 0 };
	size_t i = 0, j = 0;
	int64_t at = p->lo, next;
	int rc = 0;

	if ((st = malloc((p->n + 1) * sizeof(*st))) == NULL ||
	    (en = malloc((p->n + 1) * sizeof(*en))) == NULL) {
		rc = ENOMEM;
		goto out;
	}
	for (size_t k = 0; k < p->n; k++)
		st[k] = en[k] = &p->b[k];
	if (p->n > 1) {
		qsort(st, p->n, sizeof(*st), by_s);
		qsort(en, p->n, sizeof(*en), by_e);
	}
	if ((rc = hostset_append(&free_, 0, w->t->m.nodes)) != 0)
		goto out;
	w->s = w->e = p->lo;
	while (rc == 0 && at < p->hi) {
		for (; rc == 0 && j < p->n && en[j]->e <= at; j++)
			if ((rc = hostset_union(&tmp, &free_, &en[j]->hosts))
			    == 0)
				hostset_swap(&free_, &tmp);
		for (; rc == 0 && i < p->n && st[i]->s <= at; i++)
			if ((rc = hostset_minus(&tmp, &free_, &st[i]->hosts))
			    == 0)
				hostset_swap(&free_, &tmp);
		if (rc != 0)
			break;
		next = p->hi;
		if (i < p->n && st[i]->s < next)
			next = st[i]->s;
		if (j < p->n && en[j]->e < next)
			next = en[j]->e;
		rc = frame_step(w, at, next, &free_, &mine);
		at = next;
	}
	if (rc == 0 && w->e > w->s)
		rc = frame_tell(w);
out:
	free(st);
	free(en);
	hostset_free(&free_);
	hostset_free(&tmp);
	hostset_free(&mine);
	return rc;
}

/* The hosts not of partition part, into out: the store's hosts less
 * those of its pools. */
static int
partition_outside(ar_txn *t, uint32_t part, struct hostset *out)
{
	struct hostset tmp = { 0 };
	int rc;

	out->n = 0;
	if ((rc = hostset_append(out, 0, t->m.nodes)) != 0)
		return rc;
	for (size_t k = 0; k < t->lay.npools && rc == 0; k++)
		if (t->lay.pool[k].partition == part &&
		    (rc = hostset_minus(&tmp, out, &t->lay.pool[k].set)) == 0)
			hostset_swap(out, &tmp);
	hostset_free(&tmp);
	return rc;
}

int
ar_frames(ar_txn *t, int64_t from, int64_t to,
    int (*fn)(const struct ar_frame *, void *), void *arg)
{
	struct walker w = { .t = t, .from = from, .to = to, .fn = fn,
	    .arg = arg };
	struct profile p;
	int rc, empty;

	if ((rc = layout_need(t)) != 0)
		return rc;
	if ((rc = profile_load(t, from, to, &p, &empty)) == 0 && !empty)
		/* Partition by partition, in a store of several. */
		for (w.partition = 0; rc == 0 && (w.partition == 0 ||
		    w.partition < t->lay.nparts); w.partition++) {
			w.hosts.n = 0;
			if (t->lay.nparts > 1)
				rc = partition_outside(t, w.partition,
				    &w.outside);
			if (rc == 0)
				rc = profile_walk(&p, &w);
		}
	profile_free(&p);
	hostset_free(&w.hosts);
	hostset_free(&w.outside);
	free(w.idx);
	return rc;
}

int
ar_place(ar_txn *t, int64_t start, int64_t end, uint32_t nodes,
    uint32_t pool, enum ar_fit fit, uint32_t *hosts)
{
	struct profile p;
	struct hostset free_ = { 0 }, tmp = { 0 };
	size_t n = 0;
	int rc, empty;

	if (start >= end || nodes == 0 || nodes > t->m.nodes ||
	    (fit != AR_FIT_BEST && fit != AR_FIT_FIRST && fit != AR_FIT_WORST))
		return EINVAL;
	if ((rc = layout_need(t)) != 0)
		return rc;
	if (t->lay.npools > 1 ? pool >= t->lay.npools : pool != 0)
		return EINVAL;
	if ((rc = profile_load(t, start, end, &p, &empty)) != 0)
		goto out;
	/* Of the pool's hosts, in a store of several. */
	if ((rc = t->lay.npools > 1 ? hostset_copy(&free_,
	    &t->lay.pool[pool].set) : hostset_append(&free_, 0,
	    t->m.nodes)) != 0)
		goto out;
	/* Free throughout: off every host held at some time of it. */
	for (size_t i = 0; i < p.n && rc == 0; i++)
		if ((rc = hostset_minus(&tmp, &free_, &p.b[i].hosts)) == 0)
			hostset_swap(&free_, &tmp);
	if (rc != 0 || (rc = hostset_fit(&tmp, &free_, nodes, fit)) != 0)
		goto out;
	for (size_t i = 0; i < tmp.n; i++)
		for (uint32_t k = 0; k < tmp.r[i].count; k++)
			hosts[n++] = tmp.r[i].first + k;
out:
	profile_free(&p);
	hostset_free(&free_);
	hostset_free(&tmp);
	return rc;
}
