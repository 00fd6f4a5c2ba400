/*
 * cancel.c - reservations leaving the plan: cancelled by their owner
 * (ar_cancel), or taken out of the indexes once they ended (ar_purge).
 */
#include <errno.h>

#include "internal.h"

int
unpin_unhold(ar_txn *t, struct ar_resv *r)
{
	int rc;

	if ((r->named && (rc = map_pin(t, r, NULL, 0, 0)) != 0) ||
	    (rc = track_drop(t, r->id)) != 0)
		return rc;
	if (r->expires != 0) {
		if ((rc = hold_index(t, r, 0)) != 0)
			return rc;
		r->expires = 0;
	}
	return 0;
}

/* Cancel live reservation r: a hold given up is cancelled like any
 * other. */
static int
cancel_one(ar_txn *t, struct ar_resv *r)
{
	int rc;

	if ((rc = unpin_unhold(t, r)) != 0)
		return rc;
	return retire(t, r, AR_CANCELLED, t->now);
}

/*
 * A piece of a split request is its request: every piece still live is
 * cancelled (their ids follow the first's), and the request is done
 * only when none is.
 */
int
ar_cancel(ar_txn *t, uint64_t id, uint32_t who, struct ar_resv *r)
{
	struct ar_resv other;
	int rc, done;

	done = rc = resv_owned(t, id, who, r);
	if (rc != 0 && (rc != AR_EDONE || r->pieces == 0))
		return rc;
	if (rc == 0 && (rc = cancel_one(t, r)) != 0)
		return rc;
	for (uint32_t i = 0; i < r->pieces; i++) {
		if (r->series + i == id)
			continue;
		rc = resv_owned(t, r->series + i, who, &other);
		if (rc == AR_EDONE)
			continue;
		if (rc == 0 && other.series != r->series)
			rc = AR_ECORRUPT;
		if (rc != 0 || (rc = cancel_one(t, &other)) != 0)
			return rc == AR_ENOTFOUND ? AR_ECORRUPT : rc;
		done = 0;
	}
	return done;
}

struct purge {
	int (*fn)(const struct ar_resv *, void *);
	void *arg;
};

/* A purged entry whose record is wanted: for the caller, or its labels. */
static int
purge_one(ar_txn *t, const struct slot_entry *e, void *arg)
{
	struct purge *p = arg;
	uint64_t id = e->id & ~ENTRY_LABELLED;
	struct ar_resv r;
	int rc;

	if ((rc = resv_get(t, id, &r)) != 0)
		return rc == AR_ENOTFOUND ? AR_ECORRUPT : rc;
	if (r.state != AR_FINISHED || (uint64_t)(r.end / t->m.slot) != e->slot ||
	    (r.user[0] != '\0' || r.job[0] != '\0') !=
	    ((e->id & ENTRY_LABELLED) != 0))
		return AR_ECORRUPT;
	if ((e->id & ENTRY_LABELLED) && (rc = resv_index_more(t, &r, 0)) != 0)
		return rc;
	return p->fn != NULL ? p->fn(&r, p->arg) : 0;
}

/*
 * Everything that ended by now leaves the indexes, earliest end first;
 * the records stay, and read as finished from now on.  Only a labelled
 * reservation, or a caller who wants to see them, needs its record read:
 * the rest go a bucket of end entries at a time.  A purge that finds
 * nothing to take out leaves the purge clock where it was, so that it
 * changes nothing (ar_write then writes nothing): the indexes agree with
 * the old purge clock as well as with the new one.
 */
int
ar_purge(ar_txn *t, int (*fn)(const struct ar_resv *, void *), void *arg)
{
	struct purge p = { fn, arg };
	uint64_t last = (uint64_t)(t->now / t->m.slot), n, started, dropped;
	uint64_t pins = t->m.pins;
	int64_t purged = t->m.purged;
	int rc, dirty = t->meta_dirty;

	if (!t->write)
		return EACCES;
	if (t->now <= t->m.purged)
		return 0;
	t->m.purged = t->now;
	t->meta_dirty = 1;
	if ((rc = slots_purge(t, &t->ends, last, fn != NULL, purge_one, &p,
	    &n)) != 0)
		return rc;
	if (n > t->m.live)
		return AR_ECORRUPT;
	t->m.live -= n;
	/* What started by now never moves again (see resv_movable). */
	if ((rc = slots_purge(t, &t->flex, last, 0, NULL, NULL,
	    &started)) != 0 || (rc = map_prune(t)) != 0 ||
	    (rc = demand_prune(t, &dropped)) != 0)
		return rc;
	if (n == 0 && started == 0 && t->m.pins == pins && dropped == 0) {
		t->m.purged = purged;
		t->meta_dirty = dirty;
	}
	return 0;
}
