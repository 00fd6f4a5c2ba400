/*
 * hostpools.c - design A: a count ring per pool, and tracked hosts.
 *
 * The hosts of a pool are alike (one partition, one feature set), so
 * within a pool the thesis's lemma holds as it does for today's single
 * ring: a plan whose counts stay within the pool's size maps onto its
 * hosts, each reservation keeping its hosts throughout, by a sweep in
 * order of start.  A request is a split of its nodes over the pools it
 * may use (own partition first, then those the policy lets it borrow
 * from), each part counted in its pool's ring; hosts are assigned
 * lazily, and fixed once a reservation has started.
 *
 * Named hosts break the lemma: two maintenance reservations on two
 * hosts at two times make a pool of two hosts that counts one free at
 * every moment, yet no host is free throughout (a counter-example to
 * taking a host out of its pool only while it is named).  The lemma
 * does hold while a pool's hosts only ever join it as time goes on: a
 * reservation given hosts at its start keeps them, since none leaves
 * later.  So a host that something names is "tracked": out of its pool
 * from the clock until its last named or explicit use ends (until),
 * counted in the ring as in use over that stretch, and its free time
 * there is handed out explicitly, to reservations that keep exactly that
 * host (busy lists).  A pool's hosts then only join it as time passes.
 *
 * Tracking a host takes it out of its pool before its pin: where the
 * pool is full there, some of the pool's reservations that fit in the
 * host's free time are moved onto it explicitly (a cover).  When the
 * fast path refuses but the counts of all hosts would allow, the whole
 * plan is swept as today (lib/map.c's rules), and if that maps, the
 * state is rebuilt from the mapping: so this design refuses nothing the
 * sweep would grant on the same plan.
 *
 * Invariants (struct pools): for each pool P and slot t from the clock,
 * ring[P][t] = the pool parts covering t + the hosts of P tracked at t,
 * at most |P|; a tracked host's busy list is disjoint and ends by its
 * until; a reservation's parts and explicit hosts add up to its nodes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hosts.h"

struct pres {                   /* a reservation */
	uint64_t id;
	int64_t s, e;
	uint32_t n;
	uint8_t part;
	uint32_t feat;
	int dead;               /* displaced by maintenance: out at the clock */
	hmask named;
	hmask ex;               /* hosts it holds explicitly (named among them) */
	hmask held;             /* the hosts of its pool parts, once started */
	uint8_t parts[POOLS_MAX];       /* nodes counted in each pool's ring */
};

struct busy {
	int64_t s, e;
	uint64_t id;
};

struct track {                  /* a host */
	int64_t until;          /* out of its pool from the clock until then */
	struct busy *b;         /* explicit uses, by start, disjoint */
	size_t n, cap;
};

enum { U_RING, U_BUSY, U_UNBUSY, U_UNTIL, U_PARTS, U_EX, U_HELD, U_RES,
	U_DEAD, U_SPLIT };

struct undo {                   /* one change, to be undone */
	int kind;
	uint32_t a, p;
	int64_t s, e, v;
	uint64_t id;
	hmask m;
};

/*
 * The rings: one per pool, and ALL, the count of every host's use, which
 * today's library keeps as its ring.  While there is one pool and nothing
 * is tracked they are the same, and only the pool's is kept (split 0):
 * the plain cluster pays nothing for the pools.
 */
#define ALL POOLS_MAX

/*
 * The sweeps suggest may try when the fast path finds no start: today
 * tries 288, each a whole plan; on HPC2N that asked 17,000 sweeps of
 * 200,000 requests and 4 % of them mapped.
 */
#define SUGGEST_SWEEPS 4

struct pools {
	struct hring ring[POOLS_MAX + 1];
	int split;
	int holes_first;        /* the variant that fills holes before pools */
	int64_t now;            /* the clock, as of the last pl_clock */
	hmask trk;              /* hosts tracked: until > now */
	struct track t[HMAX];
	struct pres *r;         /* the plan, by id */
	size_t n, cap;
	struct undo *u;         /* the changes since the transaction began */
	size_t nu, ucap;
	struct sweeper sw;
	struct sitem *it;
	size_t nit, itcap;
	int32_t *hol;           /* suggest's scratch: hosts per start */
	size_t holcap;
};

/* --- the changes, each undoable -------------------------------------------- */

static int
logged(struct pools *x, int kind, uint32_t a, uint32_t p, int64_t s,
    int64_t e, int64_t v, uint64_t id, hmask m)
{
	struct undo *u = grow((void **)&x->u, &x->nu, &x->ucap, sizeof(*u));

	if (u == NULL)
		return ENOMEM;
	u->kind = kind;
	u->a = a;
	u->p = p;
	u->s = s;
	u->e = e;
	u->v = v;
	u->id = id;
	u->m = m;
	return 0;
}

/* Ring p (a pool, or ALL) takes delta over [s, e). */
static int
ring_add(struct pools *x, uint32_t p, int64_t s, int64_t e, int32_t delta)
{
	if (s >= e || (p == ALL && !x->split))
		return 0;
	hring_add(&x->ring[p], s, e, delta);
	return logged(x, U_RING, 0, p, s, e, delta, 0, 0);
}

/* The index of the first use of t ending after s. */
static size_t
busy_at(const struct track *t, int64_t s)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->b[mid].e <= s)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Is the host free of explicit uses over [s, e)? */
static int
busy_free(const struct track *t, int64_t s, int64_t e)
{
	size_t i = busy_at(t, s);

	return s >= e || i == t->n || t->b[i].s >= e;
}

static int
busy_insert(struct track *t, int64_t s, int64_t e, uint64_t id)
{
	size_t i = busy_at(t, s);

	if (grow((void **)&t->b, &t->n, &t->cap, sizeof(*t->b)) == NULL)
		return ENOMEM;
	memmove(&t->b[i + 1], &t->b[i], (t->n - 1 - i) * sizeof(*t->b));
	t->b[i].s = s;
	t->b[i].e = e;
	t->b[i].id = id;
	return 0;
}

static void
busy_remove(struct track *t, int64_t s)
{
	size_t i = busy_at(t, s);

	if (i < t->n && t->b[i].s == s) {
		memmove(&t->b[i], &t->b[i + 1], (t->n - 1 - i) * sizeof(*t->b));
		t->n--;
	}
}

static int
busy_add(struct pools *x, uint32_t h, int64_t s, int64_t e, uint64_t id)
{
	int rc;

	if ((rc = busy_insert(&x->t[h], s, e, id)) != 0)
		return rc;
	return logged(x, U_BUSY, h, 0, s, e, 0, id, 0);
}

static int
busy_del(struct pools *x, uint32_t h, int64_t s, int64_t e, uint64_t id)
{
	busy_remove(&x->t[h], s);
	return logged(x, U_UNBUSY, h, 0, s, e, 0, id, 0);
}

static void
until_is(struct pools *x, uint32_t h, int64_t until)
{
	x->t[h].until = until;
	if (until > x->now)
		x->trk |= (hmask)1 << h;
	else
		x->trk &= ~((hmask)1 << h);
}

static int
set_until(struct pools *x, uint32_t h, int64_t until)
{
	int rc = logged(x, U_UNTIL, h, 0, 0, 0, x->t[h].until, 0, 0);

	until_is(x, h, until);
	return rc;
}

static int
add_parts(struct pools *x, size_t ri, uint32_t p, int32_t delta)
{
	x->r[ri].parts[p] = (uint8_t)(x->r[ri].parts[p] + delta);
	return logged(x, U_PARTS, (uint32_t)ri, p, 0, 0, delta, 0, 0);
}

static int
set_mask(struct pools *x, int kind, size_t ri, hmask m)
{
	hmask *f = kind == U_EX ? &x->r[ri].ex : &x->r[ri].held;
	int rc = logged(x, kind, (uint32_t)ri, 0, 0, 0, 0, 0, *f);

	*f = m;
	return rc;
}

/* The first host tracked: ALL is kept apart from pool 0's ring from now
 * on, until the clock finds nothing tracked again. */
static int
split(struct pools *x, const struct hd *d)
{
	if (x->split)
		return 0;
	memcpy(x->ring[ALL].used, x->ring[0].used, (size_t)d->m *
	    sizeof(uint32_t));
	x->ring[ALL].base = x->ring[0].base;
	x->split = 1;
	return logged(x, U_SPLIT, 0, 0, 0, 0, 0, 0, 0);
}

static void
undo_all(struct pools *x)
{
	while (x->nu > 0) {
		struct undo *u = &x->u[--x->nu];

		switch (u->kind) {
		case U_RING:
			hring_add(&x->ring[u->p], u->s, u->e, -(int32_t)u->v);
			break;
		case U_BUSY:
			busy_remove(&x->t[u->a], u->s);
			break;
		case U_UNBUSY:
			/* It was there before: its room is still there. */
			(void)busy_insert(&x->t[u->a], u->s, u->e, u->id);
			break;
		case U_UNTIL:
			until_is(x, u->a, u->v);
			break;
		case U_PARTS:
			x->r[u->a].parts[u->p] = (uint8_t)(x->r[u->a].parts[u->p]
			    - u->v);
			break;
		case U_EX:
			x->r[u->a].ex = u->m;
			break;
		case U_HELD:
			x->r[u->a].held = u->m;
			break;
		case U_RES:
			x->n--;
			break;
		case U_DEAD:
			x->r[u->a].dead = 0;
			break;
		case U_SPLIT:
			x->split = 0;
			break;
		}
	}
}

/* --- the state --------------------------------------------------------------- */

static int
pl_make(struct hd *d)
{
	struct pools *x;

	if ((x = calloc(1, sizeof(*x))) == NULL)
		return ENOMEM;
	d->impl = x;
	for (uint32_t p = 0; p < d->c->npools; p++)
		if (hring_init(&x->ring[p], d->m, d->now) != 0)
			return ENOMEM;
	if (hring_init(&x->ring[ALL], d->m, d->now) != 0)
		return ENOMEM;
	x->split = d->c->npools > 1;
	x->holes_first = d->ops == &pools_holes_design;
	x->now = d->now;
	for (uint32_t h = 0; h < d->c->nhosts; h++)
		x->t[h].until = d->now;
	return 0;
}

static void
pl_destroy(struct hd *d)
{
	struct pools *x = d->impl;

	if (x == NULL)
		return;
	for (uint32_t p = 0; p <= POOLS_MAX; p++)
		hring_free(&x->ring[p]);
	for (uint32_t h = 0; h < HMAX; h++)
		free(x->t[h].b);
	free(x->r);
	free(x->u);
	free(x->it);
	free(x->hol);
	sweeper_free(&x->sw);
	free(x);
}

static uint32_t
pool_size(const struct hd *d, uint32_t p)
{
	return hcount(d->c->pool[p]);
}

/* The ring of every host's use. */
static const struct hring *
all_ring(const struct pools *x)
{
	return &x->ring[x->split ? ALL : 0];
}

static hmask
all_hosts(const struct hd *d)
{
	return d->c->nhosts == 64 ? ~(hmask)0 :
	    ((hmask)1 << d->c->nhosts) - 1;
}

/* Hosts tracked at slot s (out of their pools then). */
static hmask
tracked_at(const struct hd *d, int64_t s)
{
	const struct pools *x = d->impl;
	hmask m = 0;

	for (hmask r = x->trk; r != 0; r &= r - 1)
		if (x->t[__builtin_ctzll(r)].until > s)
			m |= r & -r;
	return m;
}

static size_t
find_res(const struct pools *x, uint64_t id)
{
	size_t lo = 0, hi = x->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (x->r[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Reservation r's hosts once it has started and got them: fixed. */
static hmask
started_hosts(const struct hd *d, const struct pres *r)
{
	uint32_t in_pools = r->n - hcount(r->ex);

	if (r->s > d->now || (in_pools > 0 && r->held == 0))
		return 0;
	return r->ex | r->held;
}

static int
append_res(struct hd *d, const struct hreq *q, uint64_t id, size_t *ri)
{
	struct pools *x = d->impl;
	struct pres *r = grow((void **)&x->r, &x->n, &x->cap, sizeof(*r));
	int rc;

	if (r == NULL)
		return ENOMEM;
	r->id = id;
	r->s = q->s;
	r->e = q->s + q->len;
	r->n = q->n;
	r->part = q->part;
	r->feat = q->feat;
	r->named = q->named;
	*ri = x->n - 1;
	if ((rc = logged(x, U_RES, 0, 0, 0, 0, 0, id, 0)) != 0)
		return rc;
	return ring_add(x, ALL, q->s, q->s + q->len, (int32_t)q->n);
}

/* --- the fast path --------------------------------------------------------- */

/* Where a request goes: hosts tracked but free throughout (holes), nodes
 * from each pool, and tracked hosts whose tracking it extends. */
struct pick {
	hmask holes, ext;
	uint32_t from[POOLS_MAX];
};

/* The length of the free stretch of tracked host h that holds slot s. */
static int64_t
hole_length(const struct hd *d, uint32_t h, int64_t s)
{
	const struct track *t = &((const struct pools *)d->impl)->t[h];
	size_t i = busy_at(t, s);
	int64_t from = i > 0 ? t->b[i - 1].e : d->now;
	int64_t to = i < t->n ? t->b[i].s : t->until;

	return to - from;
}

/* k hosts of m by fit on their holes: first the lowest, best the
 * tightest holes, worst the widest. */
static hmask
pick_holes(const struct hd *d, hmask m, uint32_t k, int64_t s)
{
	int64_t len[HMAX];
	hmask out = 0;

	if (d->fit == HF_FIRST || hcount(m) <= k) {
		for (; k > 0 && m != 0; k--) {
			out |= m & -m;
			m &= m - 1;
		}
		return out;
	}
	for (hmask r = m; r != 0; r &= r - 1)
		len[__builtin_ctzll(r)] = hole_length(d,
		    (uint32_t)__builtin_ctzll(r), s);
	for (; k > 0; k--) {
		int best = -1;

		for (hmask r = m; r != 0; r &= r - 1) {
			int h = __builtin_ctzll(r);

			if (best < 0 || (d->fit == HF_BEST ? len[h] < len[best] :
			    len[h] > len[best]))
				best = h;
		}
		out |= (hmask)1 << best;
		m &= ~((hmask)1 << best);
	}
	return out;
}

/* Take up to want hosts of the holes q may have at q->s (tracked hosts
 * free throughout, not past their until) into pk; how many. */
static uint32_t
take_holes(const struct hd *d, const struct hreq *q, hmask elig,
    uint32_t want, struct pick *pk)
{
	const struct pools *x = d->impl;
	int64_t s = q->s, e = q->s + q->len;
	hmask in = 0;

	for (hmask m = elig & tracked_at(d, s); m != 0; m &= m - 1) {
		uint32_t h = (uint32_t)__builtin_ctzll(m);

		if (x->t[h].until >= e && busy_free(&x->t[h], s, e))
			in |= (hmask)1 << h;
	}
	pk->holes = in != 0 ? pick_holes(d, in, want, s) : 0;
	return hcount(pk->holes);
}

/*
 * Take up to want nodes of the pools q may use: its own partition's
 * first, then those of the partitions it may borrow from, in the order
 * the policy gives them.  Within a partition the pools with fewer
 * features first (a request that needs none leaves the rarer hosts to
 * those that do), then by fit on what is free: first in the pools'
 * order, best the least free, worst the most.  How many.
 */
static uint32_t
take_pools(const struct hd *d, const struct hreq *q, uint32_t want,
    struct pick *pk)
{
	const struct pools *x = d->impl;
	const struct cluster *c = d->c;
	int64_t s = q->s, e = q->s + q->len;
	uint32_t got = 0;

	for (uint32_t i = 0; i < c->norder[q->part] && got < want; i++) {
		uint32_t grp[POOLS_MAX], free_[POOLS_MAX], ng = 0;

		for (uint32_t p = 0; p < c->npools; p++)
			if (c->pool_part[p] == c->order[q->part][i] &&
			    (c->pool_feat[p] & q->feat) == q->feat) {
				free_[ng] = pool_size(d, p) -
				    hring_max(&x->ring[p], s, e);
				grp[ng++] = p;
			}
		/* An insertion sort of the partition's few pools. */
		for (uint32_t j = 1; j < ng; j++)
			for (uint32_t k = j; k > 0; k--) {
				uint32_t fa = hcount(c->pool_feat[grp[k - 1]]),
				    fb = hcount(c->pool_feat[grp[k]]), t;

				if (!(fb < fa || (fb == fa &&
				    ((d->fit == HF_BEST &&
				    free_[k] < free_[k - 1]) ||
				    (d->fit == HF_WORST &&
				    free_[k] > free_[k - 1])))))
					break;
				t = grp[k - 1];
				grp[k - 1] = grp[k];
				grp[k] = t;
				t = free_[k - 1];
				free_[k - 1] = free_[k];
				free_[k] = t;
			}
		for (uint32_t j = 0; j < ng && got < want; j++) {
			uint32_t k = free_[j] < want - got ? free_[j] :
			    want - got;

			pk->from[grp[j]] = k;
			got += k;
		}
	}
	return got;
}

/*
 * Where q fits at q->s, keeping off the hosts of avoid: in the pools,
 * and in the holes of tracked hosts that hold it whole (before the pools
 * in the variant holes_first, which keeps pool room for what cannot use
 * a hole; after them otherwise, which reads the tracked hosts only when
 * the pools are short); last on tracked hosts whose tracking would have
 * to grow past its end (their pools must do without them that long).
 * With one pool and nothing tracked it is the floor's check of one ring.
 * 1 if it fits.
 */
static int
fast_pick(const struct hd *d, const struct hreq *q, hmask avoid,
    struct pick *pk)
{
	const struct pools *x = d->impl;
	const struct cluster *c = d->c;
	int64_t s = q->s, e = q->s + q->len;
	uint32_t want = q->n, ext_in[POOLS_MAX] = { 0 };
	hmask elig;

	memset(pk, 0, sizeof(*pk));
	if (!x->split) {
		if (hring_max(&x->ring[0], s, e) + want > pool_size(d, 0))
			return 0;
		pk->from[0] = want;
		return 1;
	}
	elig = hreq_eligible(c, q) & ~avoid;
	if (x->holes_first)
		want -= take_holes(d, q, elig, want, pk);
	want -= take_pools(d, q, want, pk);
	if (!x->holes_first && want > 0)
		want -= take_holes(d, q, elig, want, pk);
	for (hmask m = elig & tracked_at(d, s) & ~pk->holes; m != 0 &&
	    want > 0; m &= m - 1) {
		uint32_t h = (uint32_t)__builtin_ctzll(m), p = c->pool_of[h];

		/* Its pool must do without it from its until to e, beside
		 * what this request takes from the pool. */
		if (x->t[h].until >= e || !busy_free(&x->t[h], s, e) ||
		    hring_max(&x->ring[p], x->t[h].until, e) + pk->from[p] +
		    ext_in[p] + 1 > pool_size(d, p))
			continue;
		ext_in[p]++;
		pk->ext |= (hmask)1 << h;
		want--;
	}
	return want == 0;
}

/* Take host h's free time [s, e) for reservation ri explicitly. */
static int
take_explicit(struct hd *d, size_t ri, uint32_t h, int64_t s, int64_t e)
{
	struct pools *x = d->impl;
	int64_t until = x->t[h].until;
	int rc;

	if ((rc = busy_add(x, h, s, e, x->r[ri].id)) != 0 ||
	    (rc = set_mask(x, U_EX, ri, x->r[ri].ex | (hmask)1 << h)) != 0)
		return rc;
	if (e > until && ((rc = ring_add(x, d->c->pool_of[h], until < d->now ?
	    d->now : until, e, 1)) != 0 || (rc = set_until(x, h, e)) != 0))
		return rc;
	return 0;
}

static int
apply_pick(struct hd *d, size_t ri, const struct pick *pk)
{
	struct pools *x = d->impl;
	int64_t s = x->r[ri].s, e = x->r[ri].e;
	int rc;

	for (uint32_t p = 0; p < d->c->npools; p++)
		if (pk->from[p] > 0 && ((rc = ring_add(x, p, s, e,
		    (int32_t)pk->from[p])) != 0 ||
		    (rc = add_parts(x, ri, p, (int32_t)pk->from[p])) != 0))
			return rc;
	for (hmask m = pk->holes | pk->ext; m != 0; m &= m - 1)
		if ((rc = take_explicit(d, ri, (uint32_t)__builtin_ctzll(m), s,
		    e)) != 0)
			return rc;
	return 0;
}

/* --- named hosts: tracking, and the cover ------------------------------------ */

struct cand {
	int64_t s;
	size_t ri;
};

static int
by_cand_start(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	return x->s != y->s ? (x->s < y->s ? -1 : 1) : (x->ri < y->ri ? -1 :
	    x->ri > y->ri);
}

/* Is pool p over its size in some slot of [from, to)?  The first such
 * slot, or to. */
static int64_t
first_over(const struct hd *d, uint32_t p, int64_t from, int64_t to)
{
	const struct pools *x = d->impl;
	uint32_t size = pool_size(d, p);

	for (; from < to; from++)
		if (x->ring[p].used[from % d->m] > size)
			break;
	return from;
}

/*
 * Pool p lost host h over [from, to): where its ring is now over the
 * pool's size, move reservations whose part in p fits in h's free time
 * onto h explicitly: a chain of them, each covering the first slot still
 * over, the one that reaches furthest.  *ok 0 if none covers some slot;
 * the changes are logged either way.
 */
static int
cover(struct hd *d, uint32_t h, int64_t from, int64_t to, int *ok)
{
	struct pools *x = d->impl;
	uint32_t p = d->c->pool_of[h];
	struct cand *cand = NULL;
	size_t nc = 0;
	int64_t t, last = from;
	int rc = 0;

	*ok = 0;
	if ((t = first_over(d, p, from, to)) == to) {
		*ok = 1;
		return 0;
	}
	if ((cand = malloc((x->n + 1) * sizeof(*cand))) == NULL)
		return ENOMEM;
	for (size_t i = 0; i < x->n; i++) {
		const struct pres *r = &x->r[i];

		if (!r->dead && r->parts[p] > 0 && r->s > d->now &&
		    r->s >= from && r->e <= to) {
			cand[nc].s = r->s;
			cand[nc++].ri = i;
		}
	}
	if (nc > 0)
		qsort(cand, nc, sizeof(*cand), by_cand_start);
	for (; t < to; t = first_over(d, p, t, to)) {
		size_t best = nc, ri;
		struct pres *r;

		for (size_t i = 0; i < nc && cand[i].s <= t; i++) {
			r = &x->r[cand[i].ri];
			if (r->e > t && r->s >= last && r->parts[p] > 0 &&
			    busy_free(&x->t[h], r->s, r->e) &&
			    (best == nc || r->e > x->r[cand[best].ri].e))
				best = i;
		}
		if (best == nc)
			goto out;
		ri = cand[best].ri;
		r = &x->r[ri];
		if ((rc = ring_add(x, p, r->s, r->e, -1)) != 0 ||
		    (rc = add_parts(x, ri, p, -1)) != 0 ||
		    (rc = busy_add(x, h, r->s, r->e, r->id)) != 0 ||
		    (rc = set_mask(x, U_EX, ri, r->ex | (hmask)1 << h)) != 0)
			goto out;
		last = r->e;
		d->k.covers++;
	}
	*ok = 1;
out:
	free(cand);
	return rc;
}

/*
 * Track host h for a use of its own over [s, e) by reservation id (none
 * if s == e): if it was in its pool, a reservation that started on it
 * keeps it, explicitly now; the use is entered; the pool loses the host
 * from the clock (or its old until) to the end of its last use, with a
 * cover where that overflows (if may_cover).  *ok 0 if the use meets
 * another on h, or the pool overflows with no cover found; the changes
 * are logged either way.
 */
static int
track(struct hd *d, uint32_t h, int64_t s, int64_t e, uint64_t id,
    int may_cover, int *ok)
{
	struct pools *x = d->impl;
	uint32_t p = d->c->pool_of[h];
	int64_t from = x->t[h].until > d->now ? x->t[h].until : d->now;
	int64_t until = e;
	int rc;

	*ok = 0;
	if ((rc = split(x, d)) != 0)
		return rc;
	if (x->t[h].until <= d->now)
		/* Coming out of the pool: what started on it stays on it. */
		for (size_t i = 0; i < x->n; i++) {
			struct pres *r = &x->r[i];

			if (r->dead || !(r->held & (hmask)1 << h))
				continue;
			if ((rc = ring_add(x, p, d->now, r->e, -1)) != 0 ||
			    (rc = add_parts(x, i, p, -1)) != 0 ||
			    (rc = set_mask(x, U_HELD, i, r->held &
			    ~((hmask)1 << h))) != 0 ||
			    (rc = set_mask(x, U_EX, i, r->ex |
			    (hmask)1 << h)) != 0 ||
			    (rc = busy_add(x, h, r->s, r->e, r->id)) != 0)
				return rc;
			if (r->e > until)
				until = r->e;
		}
	if (!busy_free(&x->t[h], s, e))
		return 0;
	if (s < e && (rc = busy_add(x, h, s, e, id)) != 0)
		return rc;
	if (until > from) {
		if ((rc = ring_add(x, p, from, until, 1)) != 0 ||
		    (rc = set_until(x, h, until)) != 0)
			return rc;
		if (!may_cover) {
			*ok = first_over(d, p, from, until) == until;
			return 0;
		}
		return cover(d, h, from, until, ok);
	}
	*ok = 1;
	return 0;
}

/* Are q's named hosts free of explicit uses over its interval? */
static int
named_free(const struct hd *d, const struct hreq *q)
{
	const struct pools *x = d->impl;

	for (hmask m = q->named; m != 0; m &= m - 1)
		if (!busy_free(&x->t[__builtin_ctzll(m)], q->s, q->s + q->len))
			return 0;
	return 1;
}

/* Grant (apply) or only try named q at q->s, as reservation id; with a
 * cover where its hosts' pools would overflow, if may_cover. */
static int
named_try(struct hd *d, const struct hreq *q, uint64_t id, int apply,
    int may_cover, int *ok)
{
	struct pools *x = d->impl;
	int64_t e = q->s + q->len;
	size_t ri;
	int rc;

	*ok = 0;
	/* The cheap refusal: a host already used then. */
	if (!named_free(d, q))
		return 0;
	x->nu = 0;
	if ((rc = split(x, d)) != 0 || (rc = append_res(d, q, id, &ri)) != 0)
		goto out;
	for (hmask m = q->named; m != 0; m &= m - 1)
		if ((rc = track(d, (uint32_t)__builtin_ctzll(m), q->s, e, id,
		    may_cover, ok)) != 0 || !*ok)
			goto out;
	rc = set_mask(x, U_EX, ri, q->named);
out:
	if (rc != 0 || !*ok || !apply)
		undo_all(x);
	x->nu = 0;
	return rc;
}

/* --- the fallback: today's sweep, and the state rebuilt from it -------------- */

/* The plan as today's sweep sees it: named ones and started ones with
 * hosts fixed, the others free to go anywhere they may. */
static int
load_items(struct hd *d)
{
	struct pools *x = d->impl;

	x->nit = 0;
	for (size_t i = 0; i < x->n; i++) {
		const struct pres *r = &x->r[i];
		struct hreq q = { r->s, r->e - r->s, r->n, r->part, r->feat,
			r->named };
		struct sitem *it;

		if (r->dead)
			continue;
		if ((it = grow((void **)&x->it, &x->nit, &x->itcap,
		    sizeof(*it))) == NULL)
			return ENOMEM;
		it->s = r->s;
		it->e = r->e;
		it->id = r->id;
		it->n = r->n;
		it->want = r->named ? r->named : started_hosts(d, r);
		it->fixed = it->want != 0;
		it->allow = hreq_eligible(d->c, &q);
		it->pref = hreq_own(d->c, &q);
		it->ref = i;
	}
	if (x->nit > 0)
		qsort(x->it, x->nit, sizeof(*x->it), sitem_cmp);
	return 0;
}

/* Does the whole plan map, with q, by today's sweep?  If it does, the
 * items hold the mapping, q's last (its ref the index it will have, its
 * id id).  q is swept as the request asked about (id 0), at search as at
 * add, so that both find the same. */
static int
sweep_maps(struct hd *d, const struct hreq *q, uint64_t id, int *ok)
{
	struct pools *x = d->impl;
	struct sitem req, *failed, *it;
	int rc;

	if ((rc = load_items(d)) != 0)
		return rc;
	memset(&req, 0, sizeof(req));
	req.s = q->s;
	req.e = q->s + q->len;
	req.n = q->n;
	req.fixed = q->named != 0;
	req.want = q->named;
	req.allow = hreq_eligible(d->c, q);
	req.pref = hreq_own(d->c, q);
	req.ref = x->n;
	d->k.sweeps++;
	if (sweep_run(&x->sw, x->it, x->nit, &req, all_hosts(d), d->fit, 1,
	    &failed) != 0)
		return ENOMEM;
	*ok = failed == NULL;
	if (*ok) {
		if ((it = grow((void **)&x->it, &x->nit, &x->itcap,
		    sizeof(*it))) == NULL)
			return ENOMEM;
		*it = req;
		it->id = id;
	}
	return 0;
}

/*
 * Is today's sweep worth asking?  Only while hosts are tracked: what the
 * fast path then refuses with room on the counts of all hosts, the sweep
 * often maps (it may move a pool's reservation onto a tracked host's
 * free time, or one from a hole to a pool).  Without tracked hosts a
 * refusal on a plan within the counts comes from the split over pools,
 * which the sweep rarely mends: on the partitioned row of SDSC-BLUE it
 * was asked 100,000 times and mapped 102.
 */
static int
counts_allow(const struct hd *d, const struct hreq *q)
{
	const struct pools *x = d->impl;

	return x->trk != 0 && hring_max(all_ring(x), q->s, q->s + q->len) +
	    q->n <= d->c->nhosts;
}

static int
by_item_start(const void *a, const void *b)
{
	return sitem_cmp(*(const struct sitem *const *)a,
	    *(const struct sitem *const *)b);
}

/*
 * The state made again from a mapping of every reservation (the items'
 * got): a host named is tracked until the end of its last pin; then in
 * order of start, a reservation's host still tracked at its start is
 * held explicitly (and tracked on to its end), any other counts in its
 * pool.  A host comes back to its pool only after its last explicit use,
 * so a pool part never meets a host that leaves: the invariants hold.
 */
static int
rebuild(struct hd *d)
{
	struct pools *x = d->impl;
	struct sitem **ord;
	int rc = 0;

	d->k.rebuilds++;
	if ((ord = malloc((x->nit + 1) * sizeof(*ord))) == NULL)
		return ENOMEM;
	for (size_t i = 0; i < x->nit; i++)
		ord[i] = &x->it[i];
	if (x->nit > 0)
		qsort(ord, x->nit, sizeof(*ord), by_item_start);
	for (uint32_t p = 0; p < d->c->npools; p++)
		memset(x->ring[p].used, 0, (size_t)d->m * sizeof(uint32_t));
	for (uint32_t h = 0; h < d->c->nhosts; h++) {
		x->t[h].n = 0;
		until_is(x, h, d->now);
	}
	for (size_t i = 0; i < x->n; i++) {
		x->r[i].ex = 0;
		x->r[i].held = 0;
		memset(x->r[i].parts, 0, sizeof(x->r[i].parts));
		for (hmask m = x->r[i].dead ? 0 : x->r[i].named; m != 0;
		    m &= m - 1) {
			uint32_t h = (uint32_t)__builtin_ctzll(m);

			if (x->t[h].until < x->r[i].e)
				until_is(x, h, x->r[i].e);
		}
	}
	for (size_t i = 0; i < x->nit && rc == 0; i++) {
		struct pres *r = &x->r[ord[i]->ref];

		for (hmask m = ord[i]->got; m != 0 && rc == 0; m &= m - 1) {
			uint32_t h = (uint32_t)__builtin_ctzll(m), p;

			if (r->named || (x->t[h].until > d->now &&
			    r->s < x->t[h].until)) {
				r->ex |= (hmask)1 << h;
				if (x->t[h].until < r->e)
					until_is(x, h, r->e);
				rc = busy_insert(&x->t[h], r->s, r->e, r->id);
				continue;
			}
			p = d->c->pool_of[h];
			r->parts[p]++;
			if (r->s <= d->now)
				r->held |= (hmask)1 << h;
			hring_add(&x->ring[p], r->s, r->e, 1);
		}
	}
	for (uint32_t h = 0; h < d->c->nhosts; h++)
		if (x->t[h].until > d->now)
			hring_add(&x->ring[d->c->pool_of[h]], d->now,
			    x->t[h].until, 1);
	free(ord);
	return rc;
}

/* Grant q, for which the sweep found a mapping (x->it), and rebuild. */
static int
grant_swept(struct hd *d, const struct hreq *q, uint64_t id)
{
	struct pools *x = d->impl;
	size_t ri;
	int rc;

	x->nu = 0;
	if ((rc = split(x, d)) != 0 || (rc = append_res(d, q, id, &ri)) != 0)
		return rc;
	x->nu = 0;
	return rebuild(d);
}

/* --- the calls ---------------------------------------------------------------- */

/* Does q fit at q->s by the fast path (no change made)? */
static int
fits_fast(struct hd *d, const struct hreq *q, int *ok)
{
	struct pick pk;

	if (q->named)
		return named_try(d, q, 0, 0, 1, ok);
	*ok = fast_pick(d, q, 0, &pk);
	return 0;
}

static int
pl_search(struct hd *d, const struct hreq *q, enum fit *f)
{
	int ok, rc;

	if (q->s + q->len > d->now + d->m) {
		*f = BEYOND;
		return 0;
	}
	if ((rc = fits_fast(d, q, &ok)) != 0)
		return rc;
	if (!ok && counts_allow(d, q)) {
		d->k.fallbacks++;
		if ((rc = sweep_maps(d, q, 0, &ok)) != 0)
			return rc;
		d->k.rescued += ok;
	}
	*f = ok ? FIT : FULL;
	return 0;
}

/*
 * hol[t] for the starts q->s + t of [q->s, q->s + w): how many hosts of
 * trk are tracked then and free over the whole request from then (past
 * their until, if the pool lets them: a bound), from the gaps of their
 * busy lists.
 */
static int
hole_starts(const struct hd *d, const struct hreq *q, hmask trk, int64_t w)
{
	struct pools *x = d->impl;

	if ((size_t)w + 1 > x->holcap) {
		int32_t *h = realloc(x->hol, ((size_t)w + 1) * sizeof(*h));

		if (h == NULL)
			return ENOMEM;
		x->hol = h;
		x->holcap = (size_t)w + 1;
	}
	memset(x->hol, 0, (size_t)(w + 1) * sizeof(*x->hol));
	for (hmask m = trk; m != 0; m &= m - 1) {
		const struct track *t = &x->t[__builtin_ctzll(m)];
		size_t k = busy_at(t, q->s);
		int64_t g0 = k > 0 ? t->b[k - 1].e : d->now;

		for (;; k++) {
			/* The last gap: from a start before until (after it
			 * the host is in its pool, and counted there). */
			int64_t a = g0 > q->s ? g0 - q->s : 0;
			int64_t b = k < t->n ? t->b[k].s - q->len - q->s :
			    t->until - 1 - q->s;

			if (b >= w)
				b = w - 1;
			if (a <= b) {
				x->hol[a]++;
				x->hol[b + 1]--;
			}
			if (k == t->n || (g0 = t->b[k].e) - q->s >= w)
				break;
		}
	}
	for (int64_t t = 1; t < w; t++)
		x->hol[t] += x->hol[t - 1];
	return 0;
}

/* The pools q may use whole: their rings, sizes, how many. */
struct sum {
	const uint32_t *used[POOLS_MAX];
	int32_t size[POOLS_MAX];
	uint32_t n;
};

/* The first start in [a, b] from which, for len slots, what the pools of
 * sm have free adds up to need at least; -1 if none.  The floor's scan,
 * on a sum of rings. */
static int64_t
first_sum(const struct hd *d, const struct sum *sm, int64_t a, int64_t b,
    int64_t len, int32_t need)
{
	int64_t start = a, count = 0, i = a % d->m;

	for (int64_t s = a; s < b + len && start <= b; s++) {
		int32_t f = 0;

		for (uint32_t k = 0; k < sm->n; k++)
			f += sm->size[k] - (int32_t)sm->used[k][i];
		if (f < need) {
			start = s + 1;
			count = 0;
		} else if (++count >= len)
			return start;
		if (++i == d->m)
			i = 0;
	}
	return -1;
}

/*
 * The first start in [q->s, hi] where q fits.  With one pool and nothing
 * tracked, the floor's scan of one ring.  Else the first start where
 * the pools q may use have room without holes comes first (the floor's
 * scan on the sum of their rings, checked: a sum that fits may not split
 * into parts that do); before it, the starts fall in stretches over
 * which as many tracked hosts are free for the request (hole_starts),
 * and in each a start is a candidate where the pools have what the holes
 * leave to find in every slot of its interval, checked as search checks.
 * If none fits, today's sweep is tried at the first SUGGEST_SWEEPS starts
 * the counts of all hosts allow (today tries 288).
 */
static int
pl_suggest(struct hd *d, const struct hreq *q, int64_t hi, int64_t *start)
{
	struct pools *x = d->impl;
	const struct cluster *c = d->c;
	struct hreq at = *q;
	struct sum sm;
	struct pick pk;
	hmask elig, trk;
	int64_t w, len = q->len, s, t, end, first, pool_only;
	int ok, rc;

	*start = -1;
	if (hi > d->now + d->m - len)
		hi = d->now + d->m - len;
	if (q->s > hi)
		return 0;
	if (!x->split && !q->named) {
		*start = hring_first(&x->ring[0], q->s, hi, len,
		    pool_size(d, 0) - q->n);
		return 0;
	}
	w = hi - q->s + 1;
	if (q->named) {
		/* Starts that need no cover, then a cover (O(plan)) at the
		 * first SUGGEST_SWEEPS starts its hosts are free from. */
		for (int pass = 0, covers = 0; pass < 2; pass++)
			for (s = 0; s < w && covers < SUGGEST_SWEEPS; s++) {
				at.s = q->s + s;
				if ((rc = named_try(d, &at, 0, 0, pass, &ok)) != 0)
					return rc;
				if (ok) {
					*start = at.s;
					return 0;
				}
				covers += pass && named_free(d, &at);
			}
		goto fallback;
	}
	elig = hreq_eligible(c, q);
	trk = tracked_at(d, q->s) & elig;
	sm.n = 0;
	for (uint32_t p = 0; p < c->npools; p++)
		if ((c->pool[p] & elig) == c->pool[p]) {
			sm.used[sm.n] = x->ring[p].used;
			sm.size[sm.n++] = (int32_t)pool_size(d, p);
		}
	/* No start before the first where the pools and every tracked host
	 * would do; then the first where the pools alone have room; before
	 * it, only holes can help. */
	if ((first = first_sum(d, &sm, q->s, hi, len, (int32_t)q->n -
	    (int32_t)hcount(trk))) == -1)
		goto fallback;
	pool_only = trk == 0 ? first : first_sum(d, &sm, first, hi, len,
	    (int32_t)q->n);
	if (pool_only != -1 && (sm.n == 1 || fast_pick(d, &(struct hreq){
	    pool_only, len, q->n, q->part, q->feat, 0 }, 0, &pk)))
		w = pool_only - q->s;
	else
		pool_only = -1;
	if (trk != 0 && w > first - q->s && (rc = hole_starts(d, q, trk,
	    w)) != 0)
		return rc;
	for (t = first - q->s; t < w && trk != 0; t = end + 1) {
		int32_t holes = trk != 0 ? x->hol[t] : 0;

		for (end = t; end + 1 < w && x->hol[end + 1] == holes; end++)
			;
		for (s = q->s + t; (s = first_sum(d, &sm, s, q->s + end, len,
		    (int32_t)q->n - holes)) != -1; s++) {
			at.s = s;
			/* One pool, no holes: the bound is the check. */
			if ((sm.n == 1 && holes == 0) ||
			    fast_pick(d, &at, 0, &pk)) {
				*start = s;
				return 0;
			}
		}
	}
	if (pool_only != -1) {
		*start = pool_only;
		return 0;
	}
	if (trk == 0 && sm.n > 1)
		/* Sums that fit but no split that does: the starts after
		 * the first such, each checked. */
		for (s = first; (s = first_sum(d, &sm, s, hi, len,
		    (int32_t)q->n)) != -1; s++) {
			at.s = s;
			if (fast_pick(d, &at, 0, &pk)) {
				*start = s;
				return 0;
			}
		}
fallback:
	/* Today's, where the counts of all hosts allow. */
	s = q->s;
	for (int tries = 0; tries < SUGGEST_SWEEPS && s <= hi && x->trk != 0;
	    tries++) {
		if ((s = hring_first(all_ring(x), s, hi, len,
		    c->nhosts - q->n)) == -1)
			break;
		at.s = s++;
		d->k.fallbacks++;
		if ((rc = sweep_maps(d, &at, 0, &ok)) != 0)
			return rc;
		if (ok) {
			d->k.rescued++;
			*start = at.s;
			return 0;
		}
	}
	return 0;
}

static int
pl_add(struct hd *d, const struct hreq *q, uint64_t id, int *granted)
{
	struct pools *x = d->impl;
	struct pick pk;
	size_t ri;
	int rc, ok;

	*granted = 0;
	if (q->s + q->len > d->now + d->m)
		return 0;
	if (q->named) {
		if ((rc = named_try(d, q, id, 1, 1, &ok)) != 0)
			return rc;
	} else if ((ok = fast_pick(d, q, 0, &pk)) != 0) {
		x->nu = 0;
		if ((rc = append_res(d, q, id, &ri)) != 0 ||
		    (rc = apply_pick(d, ri, &pk)) != 0) {
			undo_all(x);
			return rc;
		}
		x->nu = 0;
		d->k.explicit_ += (pk.holes | pk.ext) != 0;
	}
	if (!ok && counts_allow(d, q)) {
		d->k.fallbacks++;
		if ((rc = sweep_maps(d, q, id, &ok)) != 0)
			return rc;
		if (ok) {
			d->k.rescued++;
			if ((rc = grant_swept(d, q, id)) != 0)
				return rc;
		}
	}
	*granted = ok;
	return 0;
}

/* --- maintenance that wins ---------------------------------------------------- */

/* Take reservation ri out of the plan, and say so. */
static int
displace(struct hd *d, size_t ri, int (*fn)(uint64_t, void *), void *arg)
{
	struct pools *x = d->impl;
	struct pres *r = &x->r[ri];
	int rc;

	for (uint32_t p = 0; p < d->c->npools; p++)
		if (r->parts[p] > 0 && (rc = ring_add(x, p, r->s, r->e,
		    -(int32_t)r->parts[p])) != 0)
			return rc;
	if ((rc = ring_add(x, ALL, r->s, r->e, -(int32_t)r->n)) != 0)
		return rc;
	for (hmask m = r->ex; m != 0; m &= m - 1)
		if ((rc = busy_del(x, (uint32_t)__builtin_ctzll(m), r->s, r->e,
		    r->id)) != 0)
			return rc;
	r->dead = 1;
	d->k.displaced++;
	if ((rc = logged(x, U_DEAD, (uint32_t)ri, 0, 0, 0, 0, 0, 0)) != 0)
		return rc;
	return fn(r->id, arg);
}

/* Move reservation ri off host h (which maintenance takes), to a pool
 * with room or another tracked host's hole, keeping its times: *moved,
 * or it stays for the caller to displace. */
static int
move_off(struct hd *d, size_t ri, uint32_t h, hmask taken, int *moved)
{
	struct pools *x = d->impl;
	struct pres *r = &x->r[ri];
	struct hreq q = { r->s, r->e - r->s, 1, r->part, r->feat, 0 };
	struct pick pk;
	int rc;

	*moved = 0;
	if (r->s <= d->now || r->named)
		return 0;       /* started, or named: never moved */
	if (!fast_pick(d, &q, taken, &pk))
		return 0;
	if ((rc = busy_del(x, h, r->s, r->e, r->id)) != 0 ||
	    (rc = set_mask(x, U_EX, ri, r->ex & ~((hmask)1 << h))) != 0 ||
	    (rc = apply_pick(d, ri, &pk)) != 0)
		return rc;
	*moved = 1;
	d->k.covers++;
	return 0;
}

/*
 * Maintenance that wins (hosts.h): its hosts are tracked to its end;
 * what holds one of them meanwhile moves to a pool with room or another
 * tracked host's hole, or is displaced (started or named ones are never
 * moved); where a pool then overflows and no cover is found, the latest
 * granted of its reservations over the slot are displaced until it fits.
 */
static int
pl_force(struct hd *d, const struct hreq *q, uint64_t id,
    int (*fn)(uint64_t, void *), void *arg)
{
	struct pools *x = d->impl;
	int64_t e = q->s + q->len;
	size_t ri;
	int rc, ok, moved;

	x->nu = 0;
	for (hmask m = q->named; m != 0; m &= m - 1) {
		uint32_t h = (uint32_t)__builtin_ctzll(m);
		struct track *t = &x->t[h];
		size_t i;

		/* Tracked from the clock, for no use yet: what started on
		 * it is explicit then, and goes with the rest. */
		if ((rc = track(d, h, d->now, d->now, 0, 1, &ok)) != 0)
			goto fail;
		while ((i = busy_at(t, q->s)) < t->n && t->b[i].s < e) {
			size_t k = find_res(x, t->b[i].id);

			if ((rc = move_off(d, k, h, q->named, &moved)) != 0 ||
			    (!moved && (rc = displace(d, k, fn, arg)) != 0))
				goto fail;
		}
	}
	if ((rc = append_res(d, q, id, &ri)) != 0)
		goto fail;
	for (hmask m = q->named; m != 0; m &= m - 1) {
		uint32_t h = (uint32_t)__builtin_ctzll(m), p = d->c->pool_of[h];
		int64_t from = x->t[h].until > d->now ? x->t[h].until : d->now;

		if ((rc = busy_add(x, h, q->s, e, id)) != 0 || (e > from &&
		    ((rc = ring_add(x, p, from, e, 1)) != 0 ||
		    (rc = set_until(x, h, e)) != 0 ||
		    (rc = cover(d, h, from, e, &ok)) != 0)))
			goto fail;
		for (int64_t t = first_over(d, p, from, e); t < e;
		    t = first_over(d, p, t, e)) {
			size_t k = x->n;

			while (k-- > 0)
				if (!x->r[k].dead && x->r[k].parts[p] > 0 &&
				    x->r[k].s <= t && x->r[k].e > t)
					break;
			if (k == (size_t)-1) {
				rc = EDOM;      /* tracked hosts alone over */
				goto fail;
			}
			if ((rc = displace(d, k, fn, arg)) != 0)
				goto fail;
		}
	}
	if ((rc = set_mask(x, U_EX, ri, q->named)) != 0)
		goto fail;
	x->nu = 0;
	return 0;
fail:
	undo_all(x);
	x->nu = 0;
	return rc;
}

/* --- the mapping, the clock -------------------------------------------------- */

static struct sitem *
map_item(struct pools *x, const struct pres *r, size_t ri)
{
	struct sitem *it = grow((void **)&x->it, &x->nit, &x->itcap,
	    sizeof(*it));

	if (it != NULL) {
		it->s = r->s;
		it->e = r->e;
		it->id = r->id;
		it->ref = ri;
	}
	return it;
}

/*
 * The plan on hosts: explicit hosts as they are, and the pool parts of
 * those started as they were first given; the other pool parts by a
 * sweep in order of start, each from its pool's hosts that are in the
 * pool at its start: by the lemma it never fails.  A reservation that
 * has started without hosts yet is placed as if it started at the clock,
 * after those that have them, and keeps what it gets.
 */
static int
map_plan(struct hd *d, held_fn fn, void *arg)
{
	struct pools *x = d->impl;
	struct sitem *failed, *it;
	hmask *got;
	struct held h;
	int rc = 0;

	x->nit = 0;
	for (size_t i = 0; i < x->n; i++) {
		struct pres *r = &x->r[i];
		hmask fixed = started_hosts(d, r);

		if (r->dead)
			continue;
		if (fixed != 0 || r->ex != 0) {
			if ((it = map_item(x, r, i)) == NULL)
				return ENOMEM;
			it->fixed = 1;
			it->want = fixed != 0 ? fixed : r->ex;
			it->n = hcount(it->want);
		}
		for (uint32_t p = 0; p < d->c->npools && fixed == 0; p++) {
			if (r->parts[p] == 0)
				continue;
			if ((it = map_item(x, r, i)) == NULL)
				return ENOMEM;
			if (it->s < d->now)
				it->s = d->now;
			it->n = r->parts[p];
			it->allow = d->c->pool[p] & ~tracked_at(d, it->s);
			it->pref = it->allow;
		}
	}
	if (x->nit > 0)
		qsort(x->it, x->nit, sizeof(*x->it), sitem_cmp);
	if (sweep_run(&x->sw, x->it, x->nit, NULL, all_hosts(d), d->fit, 0,
	    &failed) != 0)
		return ENOMEM;
	if (failed != NULL)
		return EDOM;            /* the lemma says it cannot */
	if ((got = calloc(x->n + 1, sizeof(*got))) == NULL)
		return ENOMEM;
	for (size_t i = 0; i < x->nit; i++)
		got[x->it[i].ref] |= x->it[i].got;
	for (size_t i = 0; i < x->n && rc == 0; i++) {
		struct pres *r = &x->r[i];

		if (r->dead)
			continue;
		if (r->s <= d->now && r->held == 0)
			r->held = got[i] & ~r->ex;
		h.id = r->id;
		h.s = r->s;
		h.e = r->e;
		h.hosts = got[i];
		if (fn != NULL)
			rc = fn(&h, arg);
	}
	free(got);
	return rc;
}

static int
pl_plan(struct hd *d, held_fn fn, void *arg)
{
	return map_plan(d, fn, arg);
}

static int
pl_clock(struct hd *d)
{
	struct pools *x = d->impl;
	size_t j = 0;
	hmask trk;

	x->now = d->now;
	for (uint32_t p = 0; p <= POOLS_MAX; p++)
		if (x->ring[p].used != NULL)
			hring_clock(&x->ring[p], d->now);
	for (size_t i = 0; i < x->n; i++)
		if (!x->r[i].dead && x->r[i].e > d->now)
			x->r[j++] = x->r[i];
	x->n = j;
	for (uint32_t h = 0; h < d->c->nhosts; h++) {
		struct track *t = &x->t[h];
		size_t k = 0;

		for (size_t i = 0; i < t->n; i++)
			if (t->b[i].e > d->now)
				t->b[k++] = t->b[i];
		t->n = k;
		until_is(x, h, t->until < d->now ? d->now : t->until);
	}
	trk = x->trk;
	if (trk == 0 && d->c->npools == 1)
		x->split = 0;
	d->k.tracked_sum += hcount(trk);
	d->k.tracked_n++;
	/* Fix the hosts of what has started. */
	return map_plan(d, NULL, NULL);
}

static size_t
pl_bytes(const struct hd *d)
{
	const struct pools *x = d->impl;
	size_t b = x->n * sizeof(*x->r);

	b += (size_t)(d->c->npools + (x->split && d->c->npools == 1)) *
	    (size_t)d->m * sizeof(uint32_t);
	for (uint32_t h = 0; h < d->c->nhosts; h++)
		b += x->t[h].n * sizeof(struct busy);
	return b;
}

const struct hdesign pools_design = {
	"pools (A)", pl_make, pl_destroy, pl_clock, pl_search, pl_suggest,
	pl_add, pl_force, pl_plan, pl_bytes
};

const struct hdesign pools_holes_design = {
	"pools (A), holes 1st", pl_make, pl_destroy, pl_clock, pl_search,
	pl_suggest, pl_add, pl_force, pl_plan, pl_bytes
};
