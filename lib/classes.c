/*
 * classes.c - price classes and nested booking limits in admission
 * (Umar's thesis, ch. 5), and the demand log they are forecast from.
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
 * classes, or a request of class 1, only the node ring is read.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const struct kv_val classes_key = { 7, "classes" };

/* Ready the limit rings of the classes in t->pr. */
static int
limits_begin(ar_txn *t)
{
	int rc;

	for (uint32_t i = 2; i <= t->pr.n; i++) {
		struct ring *r = &t->limit[i];

		if (t->pr.c[i - 1].limit > t->m.nodes)
			return AR_ECORRUPT;
		r->dbi = KV_RING;
		r->id = i;
		if ((rc = ring_begin(r, t->m.chunks, t->pr.c[i - 1].limit,
		    t->base, t->m.horizon)) != 0)
			return rc;
		r->max = t->m.nodes;    /* a lowered limit leaves more */
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
	rc = kv_get(t->txn, KV_PRICING, (struct kv_val *)&classes_key, &v);
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

	rc = kv_get(txn, KV_PRICING, (struct kv_val *)&classes_key, &v);
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
	return kv_put(txn, KV_PRICING, (struct kv_val *)&classes_key, &v, 0);
}

uint32_t
class_of(const ar_txn *t, int64_t earliest)
{
	int64_t ahead = earliest > t->now ? earliest - t->now : 0;

	for (uint32_t i = 0; i < t->pr.n; i++) {
		const struct ar_class *c = &t->pr.c[i];

		if (ahead >= c->ahead_min &&
		    (c->ahead_max == -1 || ahead < c->ahead_max))
			return i + 1;
	}
	return 0;
}

int
fit_first(ar_txn *t, uint32_t cls, int64_t lo, int64_t hi, int64_t len,
    uint64_t need, int64_t *start)
{
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
	for (uint32_t i = 2; i <= cls && *start != -1; i++) {
		if ((rc = ring_first_fit(t, &t->limit[i], *start, hi, len,
		    need, &s)) != 0)
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
fit_end(ar_txn *t, uint32_t cls, int64_t from, int64_t to, uint64_t need,
    int64_t *end)
{
	int64_t bad;
	int rc;

	*end = to;
	for (uint32_t i = 1; i == 1 || i <= cls; i++) {
		struct ring *r = i == 1 ? &t->ring : &t->limit[i];

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
fit_next(ar_txn *t, uint32_t cls, int64_t prev, int64_t hi, int64_t len,
    uint64_t need, int64_t *start)
{
	int64_t first;
	int rc;

	/* The run of starts that fit ends before the first slot, at or
	 * after prev + len, that is full in any ring; the next run begins
	 * after it. */
	*start = -1;
	if ((rc = fit_end(t, cls, prev + len, hi + len, need, &first)) != 0)
		return rc;
	if (first == hi + len || first + 1 > hi)
		return 0;
	return fit_first(t, cls, first + 1, hi, len, need, start);
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
	 * A limit is the reason only if the nodes alone would have held
	 * every copy, placed by first fit one after the other: each but the
	 * last is counted in the node ring, and taken out again after.
	 */
	while ((rc = ring_first_fit(t, &t->ring, sp->first, hi, sp->slots,
	    sp->need, &s)) == 0 && s != -1 && held + 1 < copies &&
	    (rc = ring_add(t, &t->ring, s, s + sp->slots,
	    (int64_t)sp->need)) == 0)
		at[held++] = s;
	if (rc == 0 && s != -1)
		*reason = AR_R_BOOKING;
	while (held-- > 0)
		if (ring_add(t, &t->ring, at[held], at[held] + sp->slots,
		    -(int64_t)sp->need) != 0 && rc == 0)
			rc = AR_ECORRUPT;
	free(at);
	return rc;
}

int
fit_add(ar_txn *t, uint32_t cls, int64_t from, int64_t to, int64_t delta)
{
	int rc;

	if ((rc = ring_add(t, &t->ring, from, to, delta)) != 0)
		return rc;
	for (uint32_t i = 2; i <= cls && i <= t->pr.n; i++)
		if ((rc = ring_add(t, &t->limit[i], from, to, delta)) != 0)
			return rc;
	return 0;
}

int
demand_begin(struct kv_txn *txn, int64_t now)
{
	unsigned char key[8];
	struct disk_demand d;
	struct kv_val k = { 8, key }, v = { sizeof(d), &d };

	memset(&d, 0, sizeof(d));
	d.at = d.earliest = now;
	key_u64(key, 1);
	return kv_put(txn, KV_DEMAND, &k, &v, KV_APPEND);
}

/*
 * Without classes a grant is not logged: its record tells the same, and
 * an LMDB put would cost a grant a quarter more.  The log's end is
 * looked up once per transaction, and entries are appended after it.
 */
int
demand_log(ar_txn *t, const struct ar_request *rq, uint32_t cls,
    uint32_t granted, enum ar_reason reason)
{
	unsigned char key[8];
	struct kv_val k = { 8, key }, v;
	struct kv_cursor *cur;
	struct disk_demand d;
	int rc;

	if (t->pr.n == 0 && granted == rq->jobs)
		return 0;

	/* The next sequence number: looked up once per transaction. */
	if (t->demand_seq == 0) {
		if ((rc = kv_cursor_open(t->txn, KV_DEMAND, &cur)) != 0)
			return rc;
		rc = kv_cursor_get(cur, &k, &v, KV_LAST);
		if (rc == 0 && k.size != 8)
			rc = AR_ECORRUPT;
		t->demand_seq = rc == 0 ? u64_key(k.data) + 1 : 1;
		kv_cursor_close(cur);
		if (rc != 0 && rc != KV_NOTFOUND)
			return rc;
	}
	memset(&d, 0, sizeof(d));
	d.at = t->now;
	d.earliest = rq->earliest;
	d.duration = rq->duration;
	d.nodes = rq->nodes;
	d.jobs = rq->jobs;
	d.granted = granted;
	d.cls = (uint16_t)cls;
	d.reason = (uint8_t)reason;
	key_u64(key, t->demand_seq);
	k.size = 8;
	k.data = key;
	v.size = sizeof(d);
	v.data = &d;
	txn_wrote(t);
	if ((rc = kv_put(t->txn, KV_DEMAND, &k, &v, KV_APPEND)) == 0)
		t->demand_seq++;
	return rc;
}

void
demand_forget(ar_txn *t)
{
	t->demand_seq = 0;
}

int
demand_drop(ar_txn *t, int64_t before, uint64_t *dropped)
{
	struct kv_cursor *cur;
	struct kv_val k, v;
	struct disk_demand d;
	int rc;

	*dropped = 0;
	if ((rc = kv_cursor_open(t->txn, KV_DEMAND, &cur)) != 0)
		return rc;
	/* Entries are in the order they were asked: the old ones first. */
	while ((rc = kv_cursor_get(cur, &k, &v, KV_FIRST)) == 0) {
		if (v.size != sizeof(d)) {
			rc = AR_ECORRUPT;
			break;
		}
		memcpy(&d, v.data, sizeof(d));
		if (d.at >= before)
			break;
		txn_wrote(t);
		if ((rc = kv_cursor_del(cur)) != 0)
			break;
		++*dropped;
	}
	kv_cursor_close(cur);
	return rc == KV_NOTFOUND || rc == 0 ? 0 : rc;
}

int
demand_prune(ar_txn *t, uint64_t *dropped)
{
	int64_t retention = t->pr.n ? t->pr.retention : RETENTION_DEFAULT;

	return demand_drop(t, t->now - retention, dropped);
}

int
ar_pricing(ar_txn *t, struct ar_pricing *p)
{
	memset(p, 0, sizeof(*p));
	p->n = t->pr.n;
	p->retention = t->pr.n ? t->pr.retention : RETENTION_DEFAULT;
	memcpy(p->c, t->pr.c, t->pr.n * sizeof(p->c[0]));
	return 0;
}

/* A live priced reservation stops the walk. */
static int
priced(struct kv_cursor *cur, const struct kv_val *k, const struct kv_val *v,
    void *arg)
{
	ar_txn *t = arg;
	struct ar_resv r;
	int rc;

	(void)cur;
	(void)k;
	if ((rc = resv_decode(t, v, &r)) != 0)
		return rc;
	return r.cls != 0 && r.state == AR_GRANTED && r.end > t->now ?
	    KV_STOP : 0;
}

/* Is some live reservation priced?  The classes' rings count them. */
static int
priced_live(ar_txn *t, int *yes)
{
	int rc = kv_walk(t->txn, KV_RESV, NULL, priced, t);

	*yes = rc == KV_STOP;
	return *yes ? 0 : rc;
}

/* Say which class and field of p is wrong: EINVAL. */
static int
bad_class(size_t i, const char *field, size_t *bad, const char **what)
{
	*bad = i;
	*what = field;
	return EINVAL;
}

int
ar_set_pricing(ar_txn *t, const struct ar_pricing *p, size_t *bad,
    const char **field)
{
	struct pricing pr;
	struct kv_val v = { sizeof(pr), &pr };
	int64_t at = 0;
	size_t order[AR_CLASSES_MAX], i, j;
	int rc, busy;

	*bad = 0;
	*field = NULL;
	if (!t->write)
		return EACCES;
	if (p->n > AR_CLASSES_MAX)
		return bad_class(AR_CLASSES_MAX, "class", bad, field);
	if (p->retention < 0)
		return bad_class(0, "retention", bad, field);
	for (i = 0; i < p->n; i++) {
		const struct ar_class *c = &p->c[i];

		if (memchr(c->name, '\0', sizeof(c->name)) == NULL)
			return bad_class(i, "name", bad, field);
		if (c->price <= 0 || (i > 0 && c->price >= p->c[i - 1].price))
			return bad_class(i, "price", bad, field);
		if (c->ahead_min < 0 || (c->ahead_max != -1 &&
		    c->ahead_max <= c->ahead_min))
			return bad_class(i, "ahead_max", bad, field);
		if (c->limit > t->m.nodes || (i == 0 && c->limit !=
		    t->m.nodes) || (i > 0 && c->limit > p->c[i - 1].limit))
			return bad_class(i, "limit", bad, field);
		if (c->min > c->limit)
			return bad_class(i, "min", bad, field);
	}
	/* The book-ahead ranges, in their order, cover [0, forever) once. */
	for (i = 0; i < p->n; i++)
		order[i] = i;
	for (i = 1; i < p->n; i++)
		for (j = i; j > 0 && p->c[order[j]].ahead_min <
		    p->c[order[j - 1]].ahead_min; j--) {
			size_t x = order[j];

			order[j] = order[j - 1];
			order[j - 1] = x;
		}
	for (i = 0; i < p->n; i++) {
		const struct ar_class *c = &p->c[order[i]];

		if (c->ahead_min != at)
			return bad_class(order[i], "ahead_min", bad, field);
		if (c->ahead_max == -1 && i + 1 < p->n)
			return bad_class(order[i], "ahead_max", bad, field);
		at = c->ahead_max;
	}
	if (p->n > 0 && at != -1)
		return bad_class(order[p->n - 1], "ahead_max", bad, field);
	/* The limit rings count by class number: the numbers must stay. */
	if (p->n != t->pr.n) {
		if ((rc = priced_live(t, &busy)) != 0)
			return rc;
		if (busy)
			return EBUSY;
	}
	memset(&pr, 0, sizeof(pr));
	pr.n = (uint32_t)p->n;
	pr.retention = p->retention;
	memcpy(pr.c, p->c, p->n * sizeof(pr.c[0]));
	/* The same classes again change nothing: no write. */
	if (memcmp(&pr, &t->pr, sizeof(pr)) == 0)
		return 0;
	txn_wrote(t);
	if (p->n == 0)
		rc = kv_del(t->txn, KV_PRICING, (struct kv_val *)&classes_key,
		    NULL);
	else
		rc = kv_put(t->txn, KV_PRICING, (struct kv_val *)&classes_key, &v,
		    0);
	if (rc == KV_NOTFOUND)
		rc = 0;
	if (rc != 0)
		return rc;
	/* The rings of classes that go keep what this transaction did to
	 * them (a cancel before, say): commit writes only those in use. */
	for (i = pr.n + 1; i <= t->pr.n; i++)
		if (i >= 2 && (rc = ring_flush(t, &t->limit[i])) != 0)
			return rc;
	/* New limits for the rings in use, whose counts stay as they are;
	 * a ring a class is added for starts. */
	for (i = 2; i <= pr.n; i++)
		if (i <= t->pr.n)
			t->limit[i].capacity = pr.c[i - 1].limit;
		else {
			t->limit[i].dbi = KV_RING;
			t->limit[i].id = (uint32_t)i;
			if ((rc = ring_begin(&t->limit[i], t->m.chunks,
			    pr.c[i - 1].limit, t->base, t->m.horizon)) != 0)
				return rc;
			t->limit[i].max = t->m.nodes;
		}
	t->pr = pr;
	return 0;
}

/* ar_demand's walk: since when, and whom to tell. */
struct demand_walk {
	int64_t since;
	int (*fn)(const struct ar_demand *, void *);
	void *arg;
};

static int
demand_visit(struct kv_cursor *cur, const struct kv_val *k,
    const struct kv_val *v, void *arg)
{
	struct demand_walk *w = arg;
	struct disk_demand d;
	struct ar_demand e;

	(void)cur;
	if (k->size != 8 || v->size != sizeof(d))
		return AR_ECORRUPT;
	memcpy(&d, v->data, sizeof(d));
	/* The entry a store's log begins with is no request. */
	if (d.at < w->since || d.jobs == 0)
		return 0;
	e.seq = u64_key(k->data);
	e.at = d.at;
	e.earliest = d.earliest;
	e.duration = d.duration;
	e.nodes = d.nodes;
	e.jobs = d.jobs;
	e.granted = d.granted;
	e.cls = d.cls;
	e.reason = (enum ar_reason)d.reason;
	return w->fn(&e, w->arg);
}

int
ar_demand(ar_txn *t, int64_t since,
    int (*fn)(const struct ar_demand *, void *), void *arg)
{
	struct demand_walk w = { since, fn, arg };

	return kv_walk(t->txn, KV_DEMAND, NULL, demand_visit, &w);
}

struct forecast {
	ar_txn *t;
	int64_t from, to;       /* the slots counted: [from, to) */
	int64_t lo, hi;         /* the slots asked for, first pass ... */
	int64_t first_at;       /* ... the slot the first entry was asked in */
	int64_t reach;          /* ... and the furthest any asked ahead */
	int64_t *delta[AR_CLASSES_MAX + 1];     /* per class, per slot */
};

/* An entry's asked interval in slots, clipped to [f->from, f->to). */
static int
asked(const struct forecast *f, const struct ar_demand *d, int64_t *a,
    int64_t *b)
{
	int64_t slot = f->t->m.slot;

	*a = d->earliest / slot;
	*b = *a + (d->duration + slot - 1) / slot;
	if (*a < f->from)
		*a = f->from;
	if (*b > f->to)
		*b = f->to;
	return *a < *b && d->cls >= 1 && d->cls <= f->t->pr.n;
}

/* First pass: the slots the log's requests asked for, and how far. */
static int
demand_span(const struct ar_demand *d, void *arg)
{
	struct forecast *f = arg;
	int64_t a, b, at = d->at / f->t->m.slot;

	if (asked(f, d, &a, &b)) {
		if (f->lo == -1 || a < f->lo)
			f->lo = a;
		if (b > f->hi)
			f->hi = b;
		if (f->first_at == -1 || at < f->first_at)
			f->first_at = at;
		if (b - at > f->reach)
			f->reach = b - at;
	}
	return 0;
}

/* Second pass: add one entry's demand to its class over its interval. */
static int
demand_add(const struct ar_demand *d, void *arg)
{
	struct forecast *f = arg;
	int64_t a, b;

	if (asked(f, d, &a, &b)) {
		f->delta[d->cls][a - f->from] += (int64_t)d->nodes * d->jobs;
		f->delta[d->cls][b - f->from] -= (int64_t)d->nodes * d->jobs;
	}
	return 0;
}

int
ar_forecast(ar_txn *t, int64_t since, double *mean, double *sd)
{
	struct forecast f;
	int64_t now = t->now / t->m.slot;
	size_t slots;
	int rc;

	memset(&f, 0, sizeof(f));
	f.t = t;
	if (since > t->now)
		since = t->now;
	/* The slots asked for by requests since then, up to the horizon. */
	f.from = since / t->m.slot;
	f.to = now + t->m.horizon;
	f.lo = f.first_at = -1;
	for (uint32_t i = 0; i < t->pr.n; i++)
		mean[i] = sd[i] = 0;
	if ((rc = ar_demand(t, since, demand_span, &f)) != 0 || f.lo == -1)
		return rc;
	/*
	 * A slot's demand is whole only if every request that could ask for
	 * it was asked within the log's history, and has been asked: the
	 * slots from the first entry's plus the furthest reach to now.  Only
	 * where the history is too short for any are the slots asked for
	 * taken instead (their ends hold only part of their demand).
	 */
	if (f.first_at + f.reach < now) {
		f.lo = f.first_at + f.reach;
		f.hi = now;
	}
	slots = (size_t)(f.hi - f.lo);
	for (uint32_t i = 1; i <= t->pr.n && rc == 0; i++)
		if ((f.delta[i] = calloc((size_t)(f.to - f.from) + 1,
		    sizeof(int64_t))) == NULL)
			rc = ENOMEM;
	if (rc == 0)
		rc = ar_demand(t, since, demand_add, &f);
	for (uint32_t i = 1; i <= t->pr.n; i++) {
		double sum = 0, sq = 0, level = 0, var;

		for (int64_t s = f.from; rc == 0 && s < f.hi; s++) {
			level += (double)f.delta[i][s - f.from];
			if (s < f.lo)
				continue;
			sum += level;
			sq += level * level;
		}
		if (rc == 0) {
			mean[i - 1] = sum / (double)slots;
			var = sq / (double)slots - mean[i - 1] * mean[i - 1];
			sd[i - 1] = var > 0 ? sqrt(var) : 0;
		}
		free(f.delta[i]);
	}
	return rc;
}

int
ar_update_limits(ar_txn *t, enum ar_rm_method method, int64_t since,
    struct ar_fare_class *fc, size_t *n)
{
	double mean[AR_CLASSES_MAX], sd[AR_CLASSES_MAX];
	struct ar_pricing p;
	const char *field;
	size_t bad;
	int rc;

	*n = 0;
	if (!t->write)
		return EACCES;
	if (t->pr.n == 0)
		return AR_ENOTFOUND;
	if ((rc = ar_forecast(t, since, mean, sd)) != 0 ||
	    (rc = ar_pricing(t, &p)) != 0)
		return rc;
	for (size_t i = 0; i < p.n; i++) {
		fc[i].price = (double)p.c[i].price;
		fc[i].mean = mean[i];
		fc[i].sd = sd[i];
	}
	if ((rc = ar_booking_limits(t->m.nodes, method, fc, p.n)) != 0)
		return rc;
	/* Floors, from the cheapest class up: no limit below its class's
	 * floor, nor below a cheaper class's limit (they nest). */
	for (size_t i = p.n - 1; i > 0; i--) {
		if (fc[i].limit < p.c[i].min)
			fc[i].limit = p.c[i].min;
		if (i + 1 < p.n && fc[i].limit < fc[i + 1].limit)
			fc[i].limit = fc[i + 1].limit;
		fc[i - 1].protection = t->m.nodes - fc[i].limit;
	}
	for (size_t i = 0; i < p.n; i++)
		p.c[i].limit = fc[i].limit;
	*n = p.n;
	return ar_set_pricing(t, &p, &bad, &field);
}
