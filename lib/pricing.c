/*
 * pricing.c - a store's price classes as the API shows and sets them,
 * and their booking limits updated from the demand log (Umar's thesis,
 * ch. 5): each class's demand per slot forecast from the log, the
 * limits computed by EMSR (price.c), and set as ar_set_pricing sets
 * them.  What the classes do in admission, and their limit rings, are
 * classes.c's.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

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

/* Are the classes of p each well formed, in price order, their limits
 * nested?  0, or EINVAL with the class and field at fault. */
static int
classes_valid(const ar_txn *t, const struct ar_pricing *p, size_t *bad,
    const char **field)
{
	if (p->n > AR_CLASSES_MAX)
		return bad_class(AR_CLASSES_MAX, "class", bad, field);
	if (p->retention < 0)
		return bad_class(0, "retention", bad, field);
	for (size_t i = 0; i < p->n; i++) {
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
	return 0;
}

/* Do the book-ahead ranges, in their order, cover [0, forever) once?
 * 0, or EINVAL with the class and field at fault. */
static int
ranges_valid(const struct ar_pricing *p, size_t *bad, const char **field)
{
	size_t order[AR_CLASSES_MAX], i, j;
	int64_t at = 0;

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
	return 0;
}

int
ar_set_pricing(ar_txn *t, const struct ar_pricing *p, size_t *bad,
    const char **field)
{
	struct pricing pr;
	int rc, busy;

	*bad = 0;
	*field = NULL;
	if (!t->write)
		return EACCES;
	if ((rc = classes_valid(t, p, bad, field)) != 0 ||
	    (rc = ranges_valid(p, bad, field)) != 0)
		return rc;
	/* The limit rings count by class number: the numbers must stay. */
	if (p->n != t->pr.n) {
		if ((rc = priced_live(t, &busy)) != 0)
			return rc;
		if (busy)
			return EBUSY;
	}
	/* A partition's limits are per class number too: they go. */
	if (p->n != t->pr.n && (rc = part_limits_drop(t)) != 0)
		return rc;
	memset(&pr, 0, sizeof(pr));
	pr.n = (uint32_t)p->n;
	pr.retention = p->retention;
	memcpy(pr.c, p->c, p->n * sizeof(pr.c[0]));
	return classes_put(t, &pr);
}

int
ar_partition_policy(ar_txn *t, uint32_t partition,
    struct ar_part_policy *p)
{
	int rc;

	memset(p, 0, sizeof(*p));
	if ((rc = layout_need(t)) != 0)
		return rc;
	if (partition >= t->lay.nparts)
		return AR_ENOTFOUND;
	p->n = t->part[partition].n;
	p->grace = t->part[partition].grace;
	memcpy(p->limit, t->part[partition].limit, sizeof(p->limit));
	/* b_1 is its hosts as they are now. */
	if (p->n > 0)
		p->limit[0] = (uint32_t)t->lay.part[partition].hosts;
	return 0;
}

int
ar_set_partition_policy(ar_txn *t, uint32_t partition,
    const struct ar_part_policy *p, size_t *bad, const char **field)
{
	struct part_policy q;
	int rc, regrace;

	*bad = 0;
	*field = NULL;
	if (!t->write)
		return EACCES;
	if ((rc = layout_need(t)) != 0)
		return rc;
	if (partition >= t->lay.nparts)
		return AR_ENOTFOUND;
	/* A store of no description has one partition: the store's
	 * policy is its own. */
	if (!(t->m.mode & META_LAYOUT))
		return ENOTSUP;
	memset(&q, 0, sizeof(q));
	if (p->n > AR_CLASSES_MAX) {
		*field = "class";
		*bad = AR_CLASSES_MAX;
		return EINVAL;
	}
	q.n = (uint32_t)p->n;
	q.grace = p->grace;
	memcpy(q.limit, p->limit, p->n * sizeof(q.limit[0]));
	if ((rc = part_valid(t, partition, &q, bad, field)) != 0)
		return rc;
	regrace = q.grace != t->part[partition].grace;
	if ((rc = part_put(t, partition, &q)) != 0)
		return rc;
	/* The index of what may be reclaimed follows the graces. */
	return regrace ? reclaim_reset(t, &t->policy) : 0;
}

struct forecast {
	ar_txn *t;
	uint32_t partition;     /* the entries counted: of this partition
				   (index + 1), or 0 every one */
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
	return *a < *b && d->cls >= 1 && d->cls <= f->t->pr.n &&
	    (f->partition == 0 || d->partition == f->partition);
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

/* ar_forecast of the entries of partition (index + 1; 0: all). */
static int
forecast_of(ar_txn *t, int64_t since, uint32_t partition, double *mean,
    double *sd)
{
	struct forecast f;
	int64_t now = t->now / t->m.slot;
	size_t slots;
	int rc;

	memset(&f, 0, sizeof(f));
	f.t = t;
	f.partition = partition;
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
ar_forecast(ar_txn *t, int64_t since, double *mean, double *sd)
{
	return forecast_of(t, since, 0, mean, sd);
}

int
ar_update_partition_limits(ar_txn *t, uint32_t partition,
    enum ar_rm_method method, int64_t since, struct ar_fare_class *fc,
    size_t *n)
{
	double mean[AR_CLASSES_MAX], sd[AR_CLASSES_MAX];
	struct ar_part_policy p;
	const char *field;
	uint32_t hosts;
	size_t bad;
	int rc;

	*n = 0;
	if (!t->write)
		return EACCES;
	if ((rc = ar_partition_policy(t, partition, &p)) != 0)
		return rc;
	if (!(t->m.mode & META_LAYOUT))
		return ENOTSUP;
	if (t->pr.n == 0)
		return AR_ENOTFOUND;
	hosts = (uint32_t)t->lay.part[partition].hosts;
	if ((rc = forecast_of(t, since, partition + 1, mean, sd)) != 0)
		return rc;
	for (size_t i = 0; i < t->pr.n; i++) {
		fc[i].price = (double)t->pr.c[i].price;
		fc[i].mean = mean[i];
		fc[i].sd = sd[i];
	}
	if ((rc = ar_booking_limits(hosts, method, fc, t->pr.n)) != 0)
		return rc;
	p.n = t->pr.n;
	for (size_t i = 0; i < p.n; i++)
		p.limit[i] = fc[i].limit;
	*n = p.n;
	return ar_set_partition_policy(t, partition, &p, &bad, &field);
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
