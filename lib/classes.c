/*
 * classes.c - price classes and nested booking limits in the rings
 * (Umar's thesis, ch. 5): the classes a transaction reads and writes,
 * their limit rings, and where a request of a class fits across them.
 *
 * A request belongs to the class whose book-ahead range holds its
 * earliest start less the store clock.  Class j is admitted at a start
 * only if, over every slot of its interval and for every class i <= j,
 * the nodes held by class i and all cheaper classes, plus the request,
 * stay within the booking limit b_i.  So each class i >= 2 keeps a ring
 * of its own (t->limit[i]) counting the nodes of classes i..n, whose
 * capacity is b_i; class 1's count is the node ring, whose capacity,
 * the cluster, is b_1.  A first fit across several rings moves its
 * candidate past the first slot that is full in any of them.  With no
 * classes, or a request of class 1, only the node ring is read.  A
 * partition may have limits of its own (partpolicy.c): a request in
 * its pools is held to those, counted within them, instead.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const struct kv_val classes_key = { 7, "classes" };

/* Ready the limit ring of class i, of booking limit limit. */
static int
limit_begin(ar_txn *t, uint32_t i, uint32_t limit)
{
	struct ring *r = &t->limit[i];
	int rc;

	r->dbi = KV_RING;
	r->id = i;
	if ((rc = ring_begin(r, t->m.chunks, limit, t->base,
	    t->m.horizon)) != 0)
		return rc;
	r->max = t->m.nodes;    /* a lowered limit leaves more */
	return 0;
}

/* Ready the limit rings of the classes in t->pr. */
static int
limits_begin(ar_txn *t)
{
	int rc;

	for (uint32_t i = 2; i <= t->pr.n; i++) {
		if (t->pr.c[i - 1].limit > t->m.nodes)
			return AR_ECORRUPT;
		if ((rc = limit_begin(t, i, t->pr.c[i - 1].limit)) != 0)
			return rc;
	}
	return 0;
}

int
classes_begin(ar_txn *t)
{
	struct kv_val v;
	int rc;

	t->pr.n = 0;
	t->demand_seq = 0;
	rc = kv_get(t->txn, KV_PRICING, &classes_key, &v);
	if (rc == KV_NOTFOUND)
		return 0;
	if (rc != 0)
		return rc;
	if (v.size != sizeof(t->pr))
		return AR_ECORRUPT;
	memcpy(&t->pr, v.data, sizeof(t->pr));
	if (t->pr.n > AR_CLASSES_MAX || t->pr.retention < 0)
		return AR_ECORRUPT;
	return limits_begin(t);
}

int
classes_upgrade(struct kv_txn *txn)
{
	struct pricing pr;
	struct kv_val v;
	int rc;

	rc = kv_get(txn, KV_PRICING, &classes_key, &v);
	if (rc == KV_NOTFOUND)
		return 0;
	if (rc != 0)
		return rc;
	if (v.size != sizeof(pr))
		return AR_ECORRUPT;
	memcpy(&pr, v.data, sizeof(pr));
	for (size_t i = 0; i < AR_CLASSES_MAX; i++)
		pr.c[i].min = 0;
	v.data = &pr;
	return kv_put(txn, KV_PRICING, &classes_key, &v, 0);
}

int
classes_put(ar_txn *t, const struct pricing *pr)
{
	struct kv_val v = { sizeof(*pr), (void *)pr };
	int rc;

	/* The same classes again change nothing: no write. */
	if (memcmp(pr, &t->pr, sizeof(*pr)) == 0)
		return 0;
	txn_wrote(t);
	if (pr->n == 0)
		rc = kv_del(t->txn, KV_PRICING, &classes_key, NULL);
	else
		rc = kv_put(t->txn, KV_PRICING, &classes_key, &v, 0);
	if (rc != 0 && rc != KV_NOTFOUND)
		return rc;
	/* The rings of classes that go keep what this transaction did to
	 * them (a cancel before, say): commit writes only those in use. */
	for (uint32_t i = pr->n + 1; i <= t->pr.n; i++)
		if (i >= 2 && (rc = ring_flush(t, &t->limit[i])) != 0)
			return rc;
	/* New limits for the rings in use, whose counts stay as they are;
	 * a ring a class is added for starts. */
	for (uint32_t i = 2; i <= pr->n; i++)
		if (i <= t->pr.n)
			t->limit[i].capacity = pr->c[i - 1].limit;
		else if ((rc = limit_begin(t, i, pr->c[i - 1].limit)) != 0)
			return rc;
	t->pr = *pr;
	return 0;
}

/*
 * Maintenance, a drain's too, is of no class: the operator's own use of
 * the hosts is not sold, and counted in a class it would take that
 * class's booking limit for as long as it lasts (a drain's, to the end
 * of the horizon).
 */
uint32_t
class_of(const ar_txn *t, const struct ar_request *rq, int64_t earliest)
{
	int64_t ahead = earliest > t->now ? earliest - t->now : 0;

	if (rq->resv_flags & AR_RESV_MAINT)
		return 0;
	for (uint32_t i = 0; i < t->pr.n; i++) {
		const struct ar_class *c = &t->pr.c[i];

		if (ahead >= c->ahead_min &&
		    (c->ahead_max == -1 || ahead < c->ahead_max))
			return i + 1;
	}
	return 0;
}

/* The ring that holds class i (>= 2) to its limit in pool pool: its
 * partition's, if that has limits of its own, else the store's. */
static struct ring *
limit_ring(ar_txn *t, uint32_t pool, uint32_t i)
{
	struct ring *r = part_limit(t, pool, i);

	return r != NULL ? r : &t->limit[i];
}

int
fit_first(ar_txn *t, uint32_t cls, uint32_t pool, int64_t lo, int64_t hi,
    int64_t len, uint64_t need, int64_t *start)
{
	uint32_t limits = cls < 2 ? 1 : cls;
	int64_t s;
	int rc;

	/*
	 * The first start that fits in every ring: each ring's own first
	 * fit from the candidate, which passes a long full run at once,
	 * until they all agree.  A ring that puts it later makes that the
	 * candidate; the candidate only moves forward.
	 */
	if ((rc = ring_first_fit(t, &t->ring, lo, hi, len, need, start)) != 0)
		return rc;
	/* Rings 2 .. limits are the limits that bind cls, then the pool's,
	 * if the store has more than one pool. */
	for (uint32_t i = 2; i <= limits + (t->npools > 1) && *start != -1;
	    i++) {
		struct ring *r = i > limits ? &t->pool[pool] :
		    limit_ring(t, pool, i);

		if ((rc = ring_first_fit(t, r, *start, hi, len, need, &s)) !=
		    0)
			return rc;
		if (s != *start) {
			/* Later (or nowhere): every ring again from there. */
			if (s == -1 || (rc = ring_first_fit(t, &t->ring, s, hi,
			    len, need, start)) != 0) {
				*start = -1;
				return rc;
			}
			i = 1;
		}
	}
	return 0;
}

/*
 * The first slot of [from, to) where need more nodes of class cls do not
 * fit, in the node ring or in a limit that binds cls; to if they fit in
 * every one: so [from, *end) is the longest run of slots from from where
 * they fit.  Each ring is read only up to the end the ones before found.
 */
int
fit_end(ar_txn *t, uint32_t cls, uint32_t pool, int64_t from, int64_t to,
    uint64_t need, int64_t *end)
{
	int64_t bad;
	int rc;

	*end = to;
	for (uint32_t i = 0; i <= cls || i < 2; i++) {
		/* The pool's ring first, if it binds: the smallest. */
		struct ring *r = i == 0 ? (t->npools > 1 ? &t->pool[pool] :
		    NULL) : i == 1 ? &t->ring : limit_ring(t, pool, i);

		if (r == NULL)
			continue;
		if (need > r->capacity) {
			*end = from;
			return 0;
		}
		if ((rc = ring_first_over(t, r, from, *end,
		    r->capacity - (uint32_t)need, &bad)) != 0)
			return rc;
		if (bad != -1)
			*end = bad;
	}
	return 0;
}

int
fit_next(ar_txn *t, uint32_t cls, uint32_t pool, int64_t prev, int64_t hi,
    int64_t len, uint64_t need, int64_t *start)
{
	int64_t first;
	int rc;

	/* The run of starts that fit ends before the first slot, at or
	 * after prev + len, that is full in any ring; the next run begins
	 * after it. */
	*start = -1;
	if ((rc = fit_end(t, cls, pool, prev + len, hi + len, need,
	    &first)) != 0)
		return rc;
	if (first == hi + len || first + 1 > hi)
		return 0;
	return fit_first(t, cls, pool, first + 1, hi, len, need, start);
}

int
fit_refusal(ar_txn *t, const struct span *sp, int64_t hi, uint32_t copies,
    enum ar_reason *reason)
{
	int64_t *at, s = -1;
	uint32_t held = 0;
	int rc = 0;

	*reason = AR_R_FULL;
	if (sp->cls < 2)
		return 0;
	if ((at = malloc(copies * sizeof(*at))) == NULL)
		return ENOMEM;
	/*
	 * A limit is the reason only if the nodes alone, the cluster's and
	 * the pool's, would have held every copy, placed by first fit one
	 * after the other: each but the last is counted in their rings, and
	 * taken out again after.
	 */
	while ((rc = fit_first(t, 1, sp->pool, sp->first, hi, sp->slots,
	    sp->need, &s)) == 0 && s != -1 && held + 1 < copies &&
	    (rc = fit_add(t, 0, sp->pool, s, s + sp->slots,
	    (int64_t)sp->need)) == 0)
		at[held++] = s;
	if (rc == 0 && s != -1)
		*reason = AR_R_BOOKING;
	while (held-- > 0)
		if (fit_add(t, 0, sp->pool, at[held], at[held] + sp->slots,
		    -(int64_t)sp->need) != 0 && rc == 0)
			rc = AR_ECORRUPT;
	free(at);
	return rc;
}

int
fit_add(ar_txn *t, uint32_t cls, uint32_t pool, int64_t from, int64_t to,
    int64_t delta)
{
	struct ring *r;
	int rc;

	if ((rc = ring_add(t, &t->ring, from, to, delta)) != 0)
		return rc;
	if (t->npools > 1 && (pool >= t->npools ||
	    (rc = ring_add(t, &t->pool[pool], from, to, delta)) != 0))
		return pool >= t->npools ? AR_ECORRUPT : rc;
	/* The store's limits count every pool; a partition's, its own. */
	for (uint32_t i = 2; i <= cls && i <= t->pr.n; i++)
		if ((rc = ring_add(t, &t->limit[i], from, to, delta)) != 0 ||
		    ((r = part_limit(t, pool, i)) != NULL &&
		    (rc = ring_add(t, r, from, to, delta)) != 0))
			return rc;
	return 0;
}
