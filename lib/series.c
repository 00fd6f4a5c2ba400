/*
 * series.c - recurring reservations: a request repeated every so often,
 * each occurrence admitted as a request of its own and becoming a
 * reservation of its own, all or none (or those that fit).
 *
 * The occurrences of a series are granted in one admission, so their
 * ids follow each other: the series is named by the first one's id, and
 * its members are found from there in id order (ar_series), without an
 * index of their own.
 */
#include <errno.h>
#include <string.h>

#include "array.h"
#include "internal.h"

int
series_size(const struct ar_request *rq, const struct ar_repeat *rep,
    uint64_t *count)
{
	*count = rep->count;
	if (rep->every <= 0 || rep->every > AR_DURATION_MAX ||
	    rq->jobs != 1 || rq->earliest < 0 || rq->earliest > TIME_MAX)
		return EINVAL;
	if (rep->count == 0) {
		if (rep->until < rq->earliest || rep->until > TIME_MAX)
			return EINVAL;
		*count = (uint64_t)((rep->until - rq->earliest) / rep->every) +
		    1;
	}
	return 0;
}

/* Tell occurrence a (ar_occurrences). */
static int
told(ar_txn *t, const struct ar_answer *a)
{
	if (array_room(&t->occ, &t->occap, t->nocc + 1, sizeof(*t->occ)) != 0)
		return ENOMEM;
	t->occ[t->nocc++] = *a;
	return 0;
}

/* Occurrence k (from 0) of series request rq, every seconds apart. */
static void
occurrence(const struct ar_request *rq, int64_t every, uint64_t k,
    struct ar_request *one)
{
	*one = *rq;
	one->flags &= ~(unsigned)AR_PARTIAL;
	one->earliest = rq->earliest + (int64_t)k * every;
	one->latest = rq->latest + (int64_t)k * every;
}

/*
 * Admit occurrence k of the series; one past the year 9999, which
 * to_span would call malformed, is beyond the horizon.
 */
static int
admit_occurrence(ar_txn *t, const struct ar_request *one, uint64_t k,
    struct ar_answer *a)
{
	int rc = 0;

	t->occurrence = (uint32_t)k + 1;
	if (one->latest > TIME_MAX) {
		memset(a, 0, sizeof(*a));
		a->status = AR_REFUSED;
		a->reason = AR_R_HORIZON;
		a->start = one->earliest > TIME_MAX ? TIME_MAX : one->earliest;
		a->end = -1;
		t->ngranted = t->nmoved = 0;
	} else
		rc = admit_request(t, one, a);
	a->occurrence = (uint32_t)k + 1;
	return rc;
}

/*
 * Log each occurrence: as told, or (from the first not told on) refused
 * for the reason why.
 */
static int
log_series(ar_txn *t, const struct ar_request *rq, int64_t every,
    uint64_t count, enum ar_reason why)
{
	struct ar_request one;
	struct ar_answer a;
	int rc;

	memset(&a, 0, sizeof(a));
	for (uint64_t k = 0; k < count; k++) {
		occurrence(rq, every, k, &one);
		if (k < t->nocc && t->occ[k].occurrence == k + 1)
			a = t->occ[k];
		else {
			a.status = AR_REFUSED;
			a.reason = why;
			a.cls = one.earliest > TIME_MAX ? 0 :
			    class_of(t, rq, one.earliest);
		}
		if ((rc = admit_logged(t, &one, &a,
		    a.status == AR_GRANTED)) != 0)
			return rc;
	}
	return 0;
}

int
admit_series(ar_txn *t, const struct ar_request *rq,
    const struct ar_repeat *rep, struct ar_answer *ans)
{
	struct gathered acc = { NULL, NULL, 0, 0, 0, 0 };
	struct savepoint whole;
	struct ar_request one;
	struct ar_answer a;
	struct span sp;
	uint64_t count, k;
	int64_t every = rep->every;
	int atomic = !(rq->flags & AR_PARTIAL), rc, refused = 0;

	t->nocc = 0;
	if ((rc = series_size(rq, rep, &count)) != 0)
		return rc;
	if (count > AR_SERIES_MAX) {
		/* Told as its first occurrence would be, refused. */
		occurrence(rq, every, 0, &one);
		if ((rc = to_span(t, &one, 0, &sp, ans)) != 0)
			return rc;
		ans->status = AR_REFUSED;
		ans->reason = AR_R_CAPACITY;
		return admit_logged(t, rq, ans, 0);
	}
	if (atomic && (rc = txn_save(t, &whole)) != 0)
		return rc;
	t->series = 0;
	for (k = 0; k < count; k++) {
		occurrence(rq, every, k, &one);
		if ((rc = admit_occurrence(t, &one, k, &a)) != 0)
			break;
		if (a.status == AR_GRANTED) {
			if (t->series == 0)
				t->series = a.id;
			if ((rc = gathered_add(t, &acc)) != 0)
				break;
		} else if (atomic) {
			refused = 1;
			break;
		}
		if ((rc = told(t, &a)) != 0)
			break;
	}
	t->occurrence = 0;
	t->series = 0;
	if (atomic && (rc != 0 || refused)) {
		txn_undo(t, &whole);
		t->nocc = 0;
		t->ngranted = t->nmoved = 0;
		if (rc == 0 && (rc = told(t, &a)) == 0) {
			rc = log_series(t, rq, every, count, a.reason);
			*ans = a;
		}
		goto out;
	}
	if ((atomic && (rc = txn_keep(t, &whole)) != 0) || rc != 0 ||
	    (rc = log_series(t, rq, every, count, AR_R_NONE)) != 0 ||
	    (rc = gathered_put(t, &acc)) != 0)
		goto out;
	/* The first granted, or (none was) the first refused. */
	for (k = 0; k < t->nocc && t->occ[k].status != AR_GRANTED; k++)
		;
	*ans = t->occ[k < t->nocc ? k : 0];
out:
	gathered_free(&acc);
	return rc;
}

void
ar_occurrences(const ar_txn *t, const struct ar_answer **occ, size_t *n)
{
	*occ = t->occ;
	*n = t->nocc;
}

/* ar_series's walk: the series, and the ids found. */
struct series_walk {
	ar_txn *t;
	uint64_t series;
	uint64_t *ids;
	size_t max, *n;
};

static int
series_visit(struct kv_cursor *cur, const struct kv_val *k,
    const struct kv_val *v, void *arg)
{
	struct series_walk *w = arg;
	struct ar_resv r;

	(void)cur;
	if (k->size != 8 || resv_decode(w->t, v, &r) != 0)
		return AR_ECORRUPT;
	if (r.series != w->series)
		return KV_STOP;
	resv_as_of(&r, w->t->now);
	if (r.state != AR_GRANTED)
		return 0;
	if (*w->n < w->max)
		w->ids[*w->n] = r.id;
	++*w->n;
	return 0;
}

int
ar_series(ar_txn *t, uint64_t series, uint64_t *ids, size_t max,
    size_t *n)
{
	struct series_walk w = { t, series, ids, max, n };
	unsigned char key[8];
	struct kv_val from = { 8, key };
	int rc;

	*n = 0;
	if (series == 0)
		return 0;       /* no series */
	/* Its members follow each other, some maybe forgotten. */
	key_u64(key, series);
	rc = kv_walk(t->txn, KV_RESV, &from, series_visit, &w);
	return rc == KV_STOP ? 0 : rc;
}
