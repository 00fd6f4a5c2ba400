/*
 * split.c - a request that may be split in time before its deadline
 * (seed 004's ORR and TARR).  It is first admitted as any request is,
 * in one interval (ORR's anywhere in its window, TARR's at its first
 * start: split_whole), with the moves that allows; only if that finds no
 * room (full, or a booking limit) are the slices its rule chooses
 * (slices.c) booked, each a reservation of its own at a fixed
 * start that moves nothing and never moves.  The pieces are linked as
 * a series' occurrences are (their ids follow each other, the first
 * names them) and each also says how many there are, so that cancel,
 * reports and client keys know them for one request.  All pieces or
 * none, within the caller's one transaction: a piece that the plan on
 * hosts refuses undoes the others.
 *
 * A request of several copies (a parametric one) splits each copy as it
 * would be split alone, in order, each against the plan with the copies
 * before it, as copies are admitted in flex.c; all copies or none.  Each
 * copy's pieces are linked among themselves, a request of their own in
 * the plan, as a copy is a reservation of its own.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Book the slices chosen as pieces; *ans the request's answer, or the
 * refusal of the piece that could not be booked. */
static int
book_pieces(ar_txn *t, const struct ar_request *rq, struct ar_answer *ans)
{
	struct gathered acc = { NULL, NULL, 0, 0, 0, 0 };
	struct ar_request one = *rq;
	struct savepoint whole;
	struct ar_answer a;
	struct ar_resv r;
	size_t n = t->nslices;
	int64_t price = 0;
	uint32_t least = UINT32_MAX;
	int rc;

	memset(&a, 0, sizeof(a));
	if ((rc = txn_save(t, &whole)) != 0)
		return rc;
	one.split = 0;
	one.smallest = 0;
	one.flags |= AR_NOMOVE;
	t->series = 0;
	/* One slice (the earliest run that holds the request: first fit
	 * without moves) is a plain reservation, booked in its window as
	 * any other, so that it is indexed as one that may move. */
	t->pieces = n > 1 ? (uint32_t)n : 0;
	t->split_earliest = rq->earliest;
	for (size_t i = 0; i < n; i++) {
		if (n > 1) {
			one.earliest = one.latest = t->slices[i].start;
			one.duration = t->slices[i].end - t->slices[i].start;
		}
		t->occurrence = n > 1 ? (uint32_t)i + 1 : 0;
		if ((rc = admit_request(t, &one, &a)) != 0)
			break;
		if (a.status != AR_GRANTED) {
			*ans = a;       /* the plan on hosts, most likely */
			break;
		}
		if (i == 0)
			t->series = a.id;
		price += a.price;
		if (a.free < least)
			least = a.free;
		if ((rc = gathered_add(t, &acc)) != 0)
			break;
	}
	t->occurrence = t->pieces = 0;
	t->series = 0;
	/* Each piece keeps its request's window, duration and split rule,
	 * as asked, so that the request can be admitted again (a modify). */
	for (size_t i = 0; n > 1 && rc == 0 && a.status == AR_GRANTED &&
	    i < acc.ng; i++) {
		if ((rc = resv_get(t, acc.g[i].id, &r)) != 0)
			break;
		r.earliest = rq->earliest;
		r.latest = rq->latest;
		r.duration = rq->duration;
		r.split = rq->split;
		r.smallest = rq->smallest;
		rc = resv_put(t, &r);
	}
	if (rc != 0 || a.status != AR_GRANTED) {
		txn_undo(t, &whole);
		t->ngranted = t->nmoved = 0;
		gathered_free(&acc);
		return rc;
	}
	if ((rc = txn_keep(t, &whole)) != 0 ||
	    (rc = gathered_put(t, &acc)) != 0) {
		gathered_free(&acc);
		return rc;
	}
	gathered_free(&acc);
	ans->status = AR_GRANTED;
	ans->reason = AR_R_NONE;
	ans->id = t->granted[0].id;
	ans->start = t->granted[0].start;
	ans->end = t->granted[n - 1].end;
	ans->free = least;
	ans->price = price;
	ans->conflict = 0;
	ans->pieces = n > 1 ? (uint32_t)n : 0;
	return 0;
}

/* Give reservation id, granted as split_whole's one interval, its
 * request's window back (TARR's was cut to its first start), re-indexed
 * for it: it is a reservation like any other, which later requests may
 * move within that window. */
static int
window_keep(ar_txn *t, const struct ar_request *rq, uint64_t id)
{
	struct ar_resv r;
	int rc;

	if ((rc = resv_get(t, id, &r)) != 0 || r.latest == rq->latest)
		return rc;
	if ((rc = resv_list(t, &r, 0)) != 0)
		return rc;
	r.latest = rq->latest;
	if ((rc = resv_put(t, &r)) != 0)
		return rc;
	return resv_list(t, &r, 1);
}

/* One copy of a split request (rq, one job): in one interval, or in
 * the slices chosen; not logged. */
static int
split_copy(ar_txn *t, const struct ar_request *rq, struct ar_answer *ans)
{
	struct ar_request one;
	struct ar_answer why;
	struct span sp;
	int rc;

	t->nslices = 0;
	split_whole(t, rq, &one);
	if ((rc = admit_request(t, &one, ans)) != 0 ||
	    (ans->status == AR_GRANTED &&
	    (rc = window_keep(t, rq, ans->id)) != 0))
		return rc;
	if (ans->status == AR_GRANTED || (ans->reason != AR_R_FULL &&
	    ans->reason != AR_R_BOOKING))
		return 0;
	if ((rc = to_span(t, rq, 0, &sp, &why)) != 0 ||
	    (rc = slices_choose(t, rq, &sp)) != 0)
		return rc;
	if (t->nslices == 0)
		ans->reason = AR_R_SLICES;
	else if ((rc = book_pieces(t, rq, ans)) != 0)
		return rc;
	return 0;
}

/* The copies of rq, each split as it would be alone, in order: all or
 * none.  *ans tells the first copy, or the refusal of the one that
 * found no room; ar_added() lists every piece of every copy. */
static int
split_copies(ar_txn *t, const struct ar_request *rq, struct ar_answer *ans)
{
	struct gathered acc = { NULL, NULL, 0, 0, 0, 0 };
	struct ar_request one = *rq;
	struct savepoint whole;
	struct ar_answer a;
	uint32_t j;
	int rc;

	one.jobs = 1;
	if ((rc = txn_save(t, &whole)) != 0)
		return rc;
	t->first_copy = t->m.next_id;
	for (j = 0; j < rq->jobs; j++) {
		memset(&a, 0, sizeof(a));
		if ((rc = split_copy(t, &one, &a)) != 0 ||
		    a.status != AR_GRANTED)
			break;
		if (j == 0)
			*ans = a;
		if ((rc = gathered_add(t, &acc)) != 0)
			break;
		/* No more pieces in all than a request is kept as (a
		 * client key names them all), as TARR's one copy. */
		if (acc.ng > AR_SERIES_MAX) {
			a.status = AR_REFUSED;
			a.reason = AR_R_SLICES;
			break;
		}
	}
	t->first_copy = 0;
	if (rc != 0 || j < rq->jobs) {
		txn_undo(t, &whole);
		t->ngranted = t->nmoved = 0;
		if (rc == 0)
			*ans = a;
	} else if ((rc = txn_keep(t, &whole)) == 0)
		rc = gathered_put(t, &acc);
	gathered_free(&acc);
	return rc;
}

int
admit_split(ar_txn *t, const struct ar_request *rq, struct ar_answer *ans)
{
	int rc;

	if ((rc = split_check(rq)) != 0)
		return rc;
	if ((rc = rq->jobs == 1 ? split_copy(t, rq, ans) :
	    split_copies(t, rq, ans)) != 0)
		return rc;
	return admit_logged(t, rq, ans, ans->status == AR_GRANTED ? rq->jobs :
	    0);
}

/* Has a piece of was's request started (or ended, and maybe been
 * forgotten since)?  If so, ans refuses the modify as AR_R_STARTED,
 * telling that piece's interval (as far as it is known); the other
 * pieces are who's. */
static int
pieces_started(ar_txn *t, const struct ar_resv *was, uint32_t who,
    struct ar_answer *ans)
{
	struct ar_resv p;
	int rc;

	for (uint32_t i = 0; i < was->pieces; i++) {
		rc = resv_owned(t, was->series + i, who, &p);
		if (rc == AR_ENOTFOUND) {
			ans->reason = AR_R_STARTED;
			ans->start = was->start;
			ans->end = -1;
			return 0;
		}
		if (rc != 0 && rc != AR_EDONE)
			return rc;
		if (p.series != was->series)
			return AR_ECORRUPT;
		if (rc == AR_EDONE || p.start <= t->now) {
			ans->reason = AR_R_STARTED;
			ans->start = p.start;
			ans->end = p.end;
			return 0;
		}
	}
	return 0;
}

/* The client key that named was's pieces names the ones granted now
 * (t->granted) in their place, after the other copies' it names. */
static int
key_moved(ar_txn *t, const struct ar_resv *was)
{
	struct ar_placed *keep;
	struct key_entry e;
	struct kv_val v;
	size_t n, m = 0;
	uint64_t id;
	int rc;

	if ((rc = key_get(t, was->owner, was->client_key, &v)) != 0)
		return rc == AR_ENOTFOUND ? AR_ECORRUPT : rc;
	if (key_decode(&v, &e, &n) != 0)
		return AR_ECORRUPT;
	if ((keep = calloc(n + t->ngranted, sizeof(*keep))) == NULL)
		return ENOMEM;
	for (size_t i = 0; i < n; i++)
		if ((id = key_id(&v, i)) < was->series ||
		    id >= was->series + was->pieces)
			keep[m++].id = id;
	for (size_t i = 0; i < t->ngranted; i++)
		keep[m++].id = t->granted[i].id;
	rc = key_put(t, was->owner, was->client_key, (uint32_t)m, keep, m);
	free(keep);
	return rc;
}

/*
 * was's request, granted again in the records t->granted: they were
 * asked for when it was (created), and its old pieces, cancelled, are
 * replaced (so that reports count the request once) and no longer carry
 * its client key, which names the new records instead.
 */
static int
replaced(ar_txn *t, const struct ar_resv *was)
{
	struct ar_resv r;
	int rc;

	for (size_t i = 0; i < t->ngranted; i++) {
		if ((rc = resv_get(t, t->granted[i].id, &r)) != 0)
			return rc;
		r.created = was->created;
		if ((rc = resv_put(t, &r)) != 0)
			return rc;
	}
	for (uint32_t i = 0; i < was->pieces; i++) {
		if ((rc = resv_get(t, was->series + i, &r)) != 0)
			return rc;
		r.replaced = 1;
		r.client_key[0] = '\0';
		if ((rc = resv_put(t, &r)) != 0)
			return rc;
	}
	return was->client_key[0] != '\0' ? key_moved(t, was) : 0;
}

/*
 * The request was is a piece of, asked again as rq says in place of its
 * pieces: all of them are cancelled and the request admitted as a split
 * request (split_copy), in one savepoint: a refusal undoes both.  What
 * rq leaves out is the request's: its rule and smallest piece when
 * rq->split is 0 (a smallest longer than the new duration taken as the
 * duration: the request in one piece), its owner, labels and key.  Once
 * a piece has started, nothing changes: AR_R_STARTED.
 */
int
modify_split(ar_txn *t, const struct ar_resv *was, uint32_t who,
    const struct ar_request *rq, struct ar_answer *ans)
{
	struct ar_request nr = *rq;
	struct savepoint whole;
	struct ar_resv r;
	int rc;

	if (rq->split == 0) {
		nr.split = was->split;
		nr.smallest = was->smallest < rq->duration ? was->smallest :
		    rq->duration;
	}
	nr.flags &= AR_NOMOVE | AR_LATER;
	nr.hold = 0;                    /* a piece is never a hold */
	nr.owner = was->owner;
	nr.user = was->user;
	nr.job = was->job;
	nr.client_key = was->client_key;
	if ((rc = split_check(&nr)) != 0)
		return rc;
	memset(ans, 0, sizeof(*ans));
	ans->status = AR_REFUSED;
	if ((rc = pieces_started(t, was, who, ans)) != 0 ||
	    ans->reason != AR_R_NONE)
		return rc;
	if ((rc = txn_save(t, &whole)) != 0)
		return rc;
	if ((rc = ar_cancel(t, was->id, who, &r)) != 0 ||
	    (rc = split_copy(t, &nr, ans)) != 0 ||
	    ans->status != AR_GRANTED) {
		txn_undo(t, &whole);
		t->ngranted = t->nmoved = 0;
		return rc;
	}
	if ((rc = txn_keep(t, &whole)) != 0)
		return rc;
	return replaced(t, was);
}
