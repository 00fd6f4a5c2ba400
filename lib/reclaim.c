/*
 * reclaim.c - use reports and reclaiming what is not used (seed 004's
 * DRR, issue 25): a site tells whether a reservation is in use
 * (ar_use); with a reclaim policy (ar_set_reclaim), a started one that
 * has not reported use within its grace period is reclaimed by the first
 * write transaction that begins past it, as holds expire (hold.c): the
 * rest of it is freed, and its record ends there, reclaimed.  The index
 * it reads, and the policy as stored, are unused.c's.
 *
 * The seed's other question, whether the holder of a reservation is
 * still alive, is what a hold answers: a hold whose client went away
 * is not confirmed, and expires.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

/*
 * The pieces of a split request are one job (issue 25: the rest of its
 * interval is freed), so a piece reclaimed, or one that ended before its
 * grace without reporting use, takes with it the request's later
 * pieces that are live and have not reported use.  One not begun by
 * now is freed whole and keeps its interval, as a cancelled one does (a
 * report counts none of it, see report.c); one begun (a writer came
 * late) is cut as a started one is.  Use is reported per piece: one that
 * reported it is kept.
 */
static int
reclaim_later(ar_txn *t, const struct ar_resv *r)
{
	struct ar_resv later;
	int rc;

	for (uint32_t i = r->occurrence; r->pieces != 0 && i < r->pieces;
	    i++) {
		if ((rc = resv_get(t, r->series + i, &later)) != 0)
			return rc == AR_ENOTFOUND ? AR_ECORRUPT : rc;
		if (later.series != r->series)
			return AR_ECORRUPT;
		resv_as_of(&later, t->now);
		if (later.state != AR_GRANTED || later.used == AR_USE_YES)
			continue;
		if ((rc = unpin_unhold(t, &later)) != 0)
			return rc;
		rc = later.start < t->now ? retire_from(t, &later, t->base,
		    AR_RECLAIMED, t->now) : retire(t, &later, AR_RECLAIMED,
		    t->now);
		if (rc != 0)
			return rc;
		t->reclaimed++;
	}
	return 0;
}

/* Reclaim live reservation r, started, past its grace: its slots from
 * the one the clock is in on are freed, as a cancel frees them. */
static int
reclaim_one(ar_txn *t, struct ar_resv *r)
{
	int rc;

	if ((rc = unpin_unhold(t, r)) != 0 ||
	    (rc = retire_from(t, r, t->base, AR_RECLAIMED, t->now)) != 0)
		return rc;
	t->reclaimed++;
	return reclaim_later(t, r);
}

/*
 * From the first entry of the index on, while it is due by the clock:
 * one that has not ended is reclaimed (its entry leaves with it); one
 * that has, finished or gone otherwise since, only leaves the index,
 * a finished piece taking its request's later pieces with it.
 */
int
reclaim_due(ar_txn *t)
{
	unsigned char key[16];
	struct kv_val k = { 16, key }, v;
	struct kv_cursor *cur;
	struct ar_resv r;
	int64_t due;
	int rc;

	if (t->m.reclaim == 0)
		return 0;
	for (;;) {
		/* Each time from the first: the one before left the index. */
		if ((rc = kv_cursor_open(t->txn, KV_UNUSED, &cur)) != 0)
			return rc;
		if ((rc = kv_cursor_get(cur, &k, &v, KV_FIRST)) == 0 &&
		    (k.size != 16 || v.size != 0))
			rc = AR_ECORRUPT;
		if (rc == 0)
			memcpy(key, k.data, 16);
		kv_cursor_close(cur);
		if (rc != 0)
			return rc == KV_NOTFOUND ? 0 : rc;
		k.data = key;
		due = (int64_t)u64_key(key);
		if (due > t->now)
			return 0;
		if ((rc = resv_get(t, u64_key(key + 8), &r)) != 0)
			return rc == AR_ENOTFOUND ? AR_ECORRUPT : rc;
		resv_as_of(&r, t->now);
		if (r.state == AR_GRANTED && r.used != AR_USE_YES &&
		    r.start < t->now) {
			if ((rc = reclaim_one(t, &r)) != 0)
				return rc;
			continue;
		}
		if (r.state == AR_GRANTED || r.used == AR_USE_YES)
			return AR_ECORRUPT;
		if (r.state == AR_FINISHED && (rc = reclaim_later(t, &r)) != 0)
			return rc;
		txn_wrote(t);
		if ((rc = kv_del(t->txn, KV_UNUSED, &k, NULL)) != 0)
			return rc == KV_NOTFOUND ? AR_ECORRUPT : rc;
	}
}

int
ar_use(ar_txn *t, uint64_t id, uint32_t who, enum ar_use used,
    struct ar_resv *r)
{
	int rc;

	if (used != AR_USE_YES && used != AR_USE_NO)
		return EINVAL;
	if ((rc = resv_owned(t, id, who, r)) != 0)
		return rc;
	/* The same again, or no after yes: nothing changes. */
	if (r->used == used || r->used == AR_USE_YES)
		return 0;
	if (used == AR_USE_YES && (rc = unused_index(t, r, 0)) != 0)
		return rc;
	/* Not a change of the reservation: changed stays (a report would
	 * otherwise read as a move). */
	r->used = used;
	return resv_put(t, r);
}

int
ar_reclaim_policy(ar_txn *t, struct ar_reclaim *p)
{
	*p = t->policy;
	return 0;
}

/* A live reservation of the end list enters the index. */
static int
index_live(ar_txn *t, const struct slot_entry *e, void *arg)
{
	struct ar_resv r;
	int rc;

	(void)arg;
	if ((rc = resv_get(t, e->id & ~ENTRY_LABELLED, &r)) != 0)
		return rc == AR_ENOTFOUND ? AR_ECORRUPT : rc;
	resv_as_of(&r, t->now);
	return r.state == AR_GRANTED ? unused_index(t, &r, 1) : 0;
}

int
ar_set_reclaim(ar_txn *t, const struct ar_reclaim *p)
{
	if (!t->write)
		return EACCES;
	if (p->grace < 0 || p->grace > AR_DURATION_MAX)
		return EINVAL;
	for (size_t i = 0; i < AR_CLASSES_MAX; i++)
		if (p->cls[i] < -1 || p->cls[i] > AR_DURATION_MAX)
			return EINVAL;
	if (memcmp(p, &t->policy, sizeof(*p)) == 0)
		return 0;
	return reclaim_reset(t, p);
}

int
reclaim_reset(ar_txn *t, const struct ar_reclaim *p)
{
	int rc;

	/* The index follows the graces: made again from the live ones. */
	if ((t->m.reclaim && (rc = unused_clear(t)) != 0) ||
	    (rc = unused_policy_put(t, p)) != 0)
		return rc;
	if (!t->m.reclaim)
		return 0;
	/* Those due under the new graces are reclaimed now, as the next
	 * writer would. */
	if ((rc = slots_scan(t, &t->ends, (uint64_t)(t->now / t->m.slot),
	    UINT64_MAX, index_live, NULL)) != 0)
		return rc;
	return reclaim_due(t);
}
