/*
 * add.c - ar_add and ar_add_series: admission (flex.c) of a request, of
 * a series (series.c) or of a split request (split.c), once per client
 * key.  A request whose owner
 * used its key before books nothing: it is answered from the
 * reservations the key names, as they are now; a new key is recorded
 * with the copies granted, in the same transaction, and a refusal
 * records none, so that retrying it tries it again.
 */
#include <errno.h>
#include <string.h>

#include "array.h"
#include "internal.h"

/* A retry refused: its key names reservation id, granted for another
 * request. */
static void
key_refused(ar_txn *t, uint64_t id, struct ar_answer *ans)
{
	t->ngranted = 0;
	ans->status = AR_REFUSED;
	ans->reason = AR_R_KEY;
	ans->id = id;
}

/*
 * The answer to a request whose key e names earlier copies: those copies
 * as they are now, or (ans->reason AR_R_KEY) a refusal if the request is
 * not the one they were granted for (asked: its copies, or a series'
 * occurrences).  A split request's key holds the pieces of all its
 * copies (their number is the entry's jobs): its copies are counted.
 */
static int
replay(ar_txn *t, const struct ar_request *rq, uint64_t asked,
    const struct kv_val *e, struct ar_answer *ans)
{
	struct key_entry ke;
	struct ar_resv r;
	uint64_t first = 0, copies = 0;
	size_t n;
	int rc;

	if ((rc = key_decode(e, &ke, &n)) != 0)
		return rc;
	for (size_t i = 0; i < n; i++) {
		if ((rc = resv_get(t, key_id(e, i), &r)) != 0)
			return rc == AR_ENOTFOUND ? AR_ECORRUPT : rc;
		if (r.owner != rq->owner || strcmp(r.client_key,
		    rq->client_key) != 0)
			return AR_ECORRUPT;
		copies += r.pieces == 0 || r.occurrence == 1;
		/* A moldable request's entry holds the level's copies. */
		if (i == 0 && (!level_of(rq, r.nodes, rq->nlevels > 0 ?
		    ke.jobs : rq->jobs, &ans->benefit) ||
		    ke.jobs != (rq->split != 0 ? n : rq->nlevels > 0 ?
		    ke.jobs : asked) || r.duration != rq->duration)) {
			key_refused(t, r.id, ans);
			return 0;
		}
		if ((rc = array_room(&t->granted, &t->gcap, t->ngranted + 1,
		    sizeof(*t->granted))) != 0)
			return rc;
		memset(&t->granted[t->ngranted], 0, sizeof(*t->granted));
		t->granted[t->ngranted].id = r.id;
		t->granted[t->ngranted].start = r.start;
		t->granted[t->ngranted].end = r.end;
		t->granted[t->ngranted].expires = r.expires;
		t->granted[t->ngranted++].from = r.start;
		if (i == 0) {
			ans->nodes = rq->nlevels > 0 ? r.nodes : 0;
			ans->jobs = rq->nlevels > 0 && rq->levels[0].jobs ?
			    ke.jobs : 0;
			ans->status = r.state;
			ans->id = r.id;
			ans->start = r.start;
			ans->end = r.end;
			/* As booked, not as the retry would be classed now. */
			ans->cls = r.cls;
			ans->price = r.price;
			ans->pieces = r.pieces;
			first = r.pieces != 0 ? r.series : 0;
		}
		/* The answer tells the first copy, all its pieces. */
		if (i > 0 && r.pieces != 0 && r.series == first) {
			ans->end = r.end;
			ans->price += r.price;
		}
	}
	if (rq->split != 0 && copies != rq->jobs) {
		key_refused(t, key_id(e, 0), ans);
		return 0;
	}
	ans->reason = AR_R_NONE;        /* a start past by now is no matter */
	ans->free = 0;
	ans->replayed = 1;
	return 0;
}

/* A level of a moldable request. */
static int
admit_level(ar_txn *t, const struct ar_request *one, void *ans, int *fits)
{
	int rc = admit_request(t, one, ans);

	*fits = ((struct ar_answer *)ans)->status == AR_GRANTED;
	return rc;
}

/*
 * ar_add without the client key: a series (rep), a split request, a
 * moldable request, or one request.  A moldable request is logged as the level granted,
 * or refused as the last level tried.
 */
static int
admit_any(ar_txn *t, const struct ar_request *rq,
    const struct ar_repeat *rep, struct ar_answer *ans)
{
	struct ar_request one;
	struct ar_level got;
	int rc;

	if (rep != NULL)
		return admit_series(t, rq, rep, ans);
	if (rq->split != 0)
		return admit_split(t, rq, ans);
	if (rq->nlevels == 0)
		return (rc = admit_request(t, rq, ans)) != 0 ? rc :
		    admit_logged(t, rq, ans, (uint32_t)t->ngranted);
	if ((rc = levels_try(t, rq, admit_level, ans, &one, &got)) != 0)
		return rc;
	ans->nodes = got.nodes;
	ans->benefit = got.benefit;
	ans->jobs = got.jobs;
	return admit_logged(t, &one, ans, (uint32_t)t->ngranted);
}

/*
 * Admission with the client key: a key granted before is answered from
 * its reservations, a new one is recorded with the copies granted, in the
 * same transaction.  A refusal records nothing.
 */
static int
add(ar_txn *t, const struct ar_request *asked_for,
    const struct ar_repeat *rep, struct ar_answer *ans)
{
	struct ar_request own = *asked_for, *rq = &own, rigid;
	const char *key = rq->client_key;
	uint64_t asked = rq->jobs;
	struct span sp;
	struct kv_val e;
	int rc;

	/* Where owners are roles, the session's books, whatever it says. */
	own.owner = txn_owner(t, asked_for->owner);
	t->ngranted = t->nmoved = t->nocc = t->ndisplaced = 0;
	if (!t->write)
		return EACCES;
	if (rq->nlevels > 0 && (rep != NULL || (rc = levels_check(rq)) != 0))
		return EINVAL;
	if ((rq->split != 0 || rq->smallest != 0) &&
	    (rep != NULL || split_check(rq) != 0))
		return EINVAL;
	if (rep != NULL && (rc = series_size(rq, rep, &asked)) != 0)
		return rc;
	if (key == NULL || *key == '\0')
		return admit_any(t, rq, rep, ans);
	if (strlen(key) > AR_CLIENT_KEY_MAX)
		return EINVAL;
	/* A malformed request is that, whatever its key: the rest of a
	 * moldable one is checked as its first level's. */
	rigid = own;
	if (rigid.nlevels > 0) {
		rigid.nodes = rigid.levels[0].nodes;
		rigid.levels = NULL;
		rigid.nlevels = 0;
	}
	if ((rc = to_span(t, &rigid, 0, &sp, ans)) != 0)
		return rc;
	if ((rc = key_get(t, rq->owner, key, &e)) == 0)
		return replay(t, rq, asked, &e, ans);
	if (rc != AR_ENOTFOUND || (rc = admit_any(t, rq, rep, ans)) != 0 ||
	    ans->status != AR_GRANTED)
		return rc;
	/* A split request's key holds as many as its copies were granted
	 * in, a moldable one's its level's copies. */
	return key_put(t, rq->owner, key, rq->split != 0 || rq->nlevels > 0 ?
	    (uint32_t)t->ngranted : (uint32_t)asked, t->granted,
	    t->ngranted);
}

int
ar_add(ar_txn *t, const struct ar_request *rq, struct ar_answer *ans)
{
	return add(t, rq, NULL, ans);
}

int
ar_add_series(ar_txn *t, const struct ar_request *rq,
    const struct ar_repeat *rep, struct ar_answer *ans)
{
	return add(t, rq, rep, ans);
}
