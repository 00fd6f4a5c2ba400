/*
 * hostbrute.c - a brute force on small plans: could some arrangement of
 * the plan's hosts hold a request a design refused?  Small clusters (6
 * hosts), a few dozen requests each, a clock that moves so that some
 * reservations have started (their hosts fixed); every request a design
 * refuses is asked of an exhaustive search over every assignment of
 * hosts to the plan as that design holds it (named and started ones on
 * their hosts, every other anywhere it may go, keeping its times), with
 * the request in it.  What counts is how often a design refuses what an
 * assignment exists for, and so is not refused for the plan but for the
 * order in which hosts were chosen.
 */
#include <stdlib.h>
#include <string.h>

#include "hosts.h"

#define BRUTE_HOSTS 6
#define BRUTE_SLOTS 64          /* the horizon */
#define BRUTE_REQUESTS 40       /* a scenario's */
#define BRUTE_BUDGET 2000000    /* nodes one search may visit */

void
cluster_small(struct cluster *c, int parts)
{
	cluster_plain(c, BRUTE_HOSTS);
	if (!parts)
		return;
	/* hosts 0-3 batch; 4-5 gpu, a100, 5 also nvlink; batch borrows
	 * gpu, last. */
	c->nparts = 2;
	c->part[4] = c->part[5] = 1;
	c->feat[4] = 2;
	c->feat[5] = 2 | 4;
	c->order[0][1] = 1;
	c->norder[0] = 2;
	c->order[1][0] = 1;
	c->norder[1] = 1;
	c->desc = "hosts=node[1-4] partition=batch; hosts=gpu1 "
	    "partition=gpu features=a100; hosts=gpu2 partition=gpu "
	    "features=a100,nvlink; partition=batch borrow=gpu";
	cluster_finish(c);
}

/* --- the exhaustive search ----------------------------------------------------- */

struct search {
	struct bitem *it;
	size_t n;
	uint32_t nhosts;
	int64_t until[HMAX];    /* each host busy until, by what is placed */
	hmask *blocked;         /* per item: hosts of fixed ones meeting it */
	uint8_t like[HMAX];     /* the first host alike for every item */
	uint64_t visits, budget;
};

static int
by_bitem(const void *a, const void *b)
{
	const struct bitem *x = a, *y = b;

	if (x->s != y->s)
		return x->s < y->s ? -1 : 1;
	return (y->fixed != 0) - (x->fixed != 0);
}

static int place(struct search *sr, size_t i);

/* Give item i c[k] hosts of each class k of cand, from class k0 on;
 * then the items after it. */
static int
choose_classes(struct search *sr, size_t i, const hmask *cls, size_t ncls,
    size_t k0, uint32_t want, hmask got)
{
	int rc;

	if (want == 0) {
		struct bitem *x = &sr->it[i];
		int64_t was[HMAX];

		for (hmask m = got; m != 0; m &= m - 1) {
			int h = __builtin_ctzll(m);

			was[h] = sr->until[h];
			sr->until[h] = x->e;
		}
		rc = place(sr, i + 1);
		for (hmask m = got; m != 0; m &= m - 1) {
			int h = __builtin_ctzll(m);

			sr->until[h] = was[h];
		}
		return rc;
	}
	if (k0 == ncls)
		return 0;
	/* As many of class k0 as can be taken, fewer and fewer. */
	{
		uint32_t have = hcount(cls[k0]), take = have < want ? have :
		    want;

		for (int64_t t = take; t >= 0; t--) {
			hmask sub = 0, m = cls[k0];

			for (int64_t j = 0; j < t; j++) {
				sub |= m & -m;
				m &= m - 1;
			}
			if ((rc = choose_classes(sr, i, cls, ncls, k0 + 1,
			    want - (uint32_t)t, got | sub)) != 0)
				return rc;
		}
	}
	return 0;
}

/* 1 if items i.. can be placed, 0 if not, -1 when out of budget. */
static int
place(struct search *sr, size_t i)
{
	struct bitem *x;
	hmask cand = 0, cls[HMAX];
	size_t ncls = 0;

	if (i == sr->n)
		return 1;
	if (++sr->visits > sr->budget)
		return -1;
	x = &sr->it[i];
	for (uint32_t h = 0; h < sr->nhosts; h++)
		if (sr->until[h] <= x->s)
			cand |= (hmask)1 << h;
	if (x->fixed) {
		if ((x->fixed & ~cand) != 0)
			return 0;
		cls[0] = x->fixed;
		return choose_classes(sr, i, cls, 1, 0, hcount(x->fixed), 0);
	}
	cand &= x->allow & ~sr->blocked[i];
	if (hcount(cand) < x->n)
		return 0;
	/* Classes of hosts alike for every item: which of them to take
	 * makes no difference, only how many. */
	for (hmask m = cand; m != 0; m &= m - 1) {
		int h = __builtin_ctzll(m);
		size_t k;

		for (k = 0; k < ncls; k++)
			if (sr->like[__builtin_ctzll(cls[k])] == sr->like[h])
				break;
		if (k == ncls)
			cls[ncls++] = 0;
		cls[k] |= (hmask)1 << h;
	}
	return choose_classes(sr, i, cls, ncls, 0, x->n, 0);
}

int
feasible(struct bitem *it, size_t n, uint32_t nhosts)
{
	struct search sr;
	int rc;

	memset(&sr, 0, sizeof(sr));
	if (n > 0)
		qsort(it, n, sizeof(*it), by_bitem);
	/* More asked at some start than there are hosts: no need to
	 * search (the counts' check; most refusals end here). */
	for (size_t i = 0; i < n; i++) {
		uint32_t used = 0;

		for (size_t j = 0; j < n; j++)
			if (it[j].s <= it[i].s && it[i].s < it[j].e)
				used += it[j].n;
		if (used > nhosts)
			return 0;
	}
	sr.it = it;
	sr.n = n;
	sr.nhosts = nhosts;
	sr.budget = BRUTE_BUDGET;
	for (uint32_t h = 0; h < nhosts; h++)
		sr.until[h] = INT64_MIN;
	if ((sr.blocked = calloc(n + 1, sizeof(*sr.blocked))) == NULL)
		return -2;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++)
			if (j != i && it[j].fixed && it[j].s < it[i].e &&
			    it[i].s < it[j].e)
				sr.blocked[i] |= it[j].fixed;
	/* Two hosts are alike if every item may have both or neither, is
	 * kept off both or neither, and is fixed on both or neither. */
	for (uint32_t h = 0; h < nhosts; h++) {
		sr.like[h] = (uint8_t)h;
		for (uint32_t g = 0; g < h && sr.like[h] == h; g++) {
			hmask both = (hmask)1 << h | (hmask)1 << g;
			size_t i;

			for (i = 0; i < n; i++)
				if (hcount(it[i].allow & both) == 1 ||
				    hcount(sr.blocked[i] & both) == 1 ||
				    hcount(it[i].fixed & both) == 1)
					break;
			if (i == n)
				sr.like[h] = (uint8_t)g;
		}
	}
	rc = place(&sr, 0);
	free(sr.blocked);
	return rc;
}

/* --- scenarios ------------------------------------------------------------------ */

struct brun {
	struct hd d;
	struct ledger l;
	uint64_t next;
	struct brute *out;
};

/* The request at random, as a scenario asks it. */
static void
brute_request(uint64_t *seed, int kind, int64_t now, struct hreq *q)
{
	uint64_t r = bench_rand(seed);

	memset(q, 0, sizeof(*q));
	q->s = now + (int64_t)(r % 40);
	q->len = 1 + (int64_t)((r >> 8) % 12);
	q->n = 1 + (uint32_t)((r >> 16) % 3);
	if ((r >> 20) % 8 == 0)
		q->n = 3 + (uint32_t)((r >> 24) % 4);
	if (kind == BR_PINS && (r >> 28) % 6 == 0) {
		uint32_t first = (uint32_t)((r >> 32) % BRUTE_HOSTS);

		q->n = first + 2 <= BRUTE_HOSTS && (r >> 40) % 2 ? 2 : 1;
		q->named = (((hmask)1 << q->n) - 1) << first;
	}
	if (kind == BR_PARTS && (r >> 28) % 3 == 0) {
		q->part = 1;
		q->n = 1 + (uint32_t)((r >> 32) % 2);
		q->feat = (r >> 36) % 3 == 0 ? 2 | 4 : 2;
		if (q->feat & 4)
			q->n = 1;
	}
}

/* Could the plan of x hold q?  1, 0, or -1 undecided. */
static int
brute_holds(struct brun *x, const struct hreq *q)
{
	struct bitem *it;
	size_t n = 0;
	int rc;

	if ((it = calloc(x->l.n + 2, sizeof(*it))) == NULL)
		return -2;
	for (size_t i = 0; i < x->l.n; i++) {
		const struct lentry *e = &x->l.e[i];

		if (!e->live || e->q.s + e->q.len <= x->d.now)
			continue;
		it[n].s = e->q.s;
		it[n].e = e->q.s + e->q.len;
		it[n].n = e->q.n;
		it[n].allow = hreq_eligible(x->d.c, &e->q);
		it[n].fixed = e->q.named ? e->q.named : e->q.s <= x->d.now ?
		    e->started : 0;
		n++;
	}
	it[n].s = q->s;
	it[n].e = q->s + q->len;
	it[n].n = q->n;
	it[n].allow = hreq_eligible(x->d.c, q);
	it[n].fixed = q->named;
	rc = feasible(it, n + 1, x->d.c->nhosts);
	free(it);
	return rc;
}

/* Check the plan, the started hosts noted in the ledger. */
static int
brute_check(struct brun *x)
{
	uint64_t resv, runs;

	return ledger_check(&x->l, &x->d, x->d.ops != &sweep_design, &resv,
	    &runs);
}

static int
brute_one(struct brun *x, uint64_t *seed, int kind)
{
	struct hreq q;
	enum fit f;
	int rc, granted = 0;

	brute_request(seed, kind, x->d.now, &q);
	x->out->asked++;
	if ((rc = x->d.ops->search(&x->d, &q, &f)) != 0)
		return rc;
	if (f == FIT) {
		if ((rc = x->d.ops->add(&x->d, &q, x->next, &granted)) != 0)
			return rc;
		if (granted && ((rc = ledger_grant(&x->l, x->next++, &q)) != 0 ||
		    (rc = brute_check(x)) != 0))
			return rc;
	}
	if (granted) {
		x->out->granted++;
		return 0;
	}
	x->out->refused++;
	switch (brute_holds(x, &q)) {
	case 1:
		x->out->feasible++;
		break;
	case -1:
		x->out->undecided++;
		break;
	case -2:
		return -1;
	}
	return 0;
}

int
brute_scenarios(const struct hdesign *ops, enum hfit fit, int kind,
    unsigned runs, uint64_t seed, struct brute *out)
{
	struct cluster c;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	cluster_small(&c, kind == BR_PARTS);
	for (unsigned run = 0; run < runs && rc == 0; run++) {
		struct brun x;
		uint64_t sd = seed + run * 0x9e3779b97f4a7c15ULL;

		memset(&x, 0, sizeof(x));
		x.next = 1;
		x.out = out;
		if ((rc = hd_make(&x.d, ops, &c, fit, 1000,
		    BRUTE_SLOTS)) != 0) {
			hd_destroy(&x.d);
			break;
		}
		for (int i = 0; i < BRUTE_REQUESTS && rc == 0; i++) {
			if (i > 0 && i % 5 == 0) {
				x.d.now += (int64_t)(bench_rand(&sd) % 5);
				if ((rc = ops->clock(&x.d)) != 0 ||
				    (rc = brute_check(&x)) != 0)
					break;
			}
			rc = brute_one(&x, &sd, kind);
		}
		out->violations += x.l.violations;
		if (x.l.violations > 0 && out->first[0] == '\0')
			memcpy(out->first, x.l.first, sizeof(out->first));
		hd_destroy(&x.d);
		ledger_free(&x.l);
	}
	return rc;
}
