/*
 * ops.c - the operations on reservations: search, suggest, add, cancel,
 * find by label, purge, list.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"


/*
 * Reduce a request to slots and decide whether it can be considered at
 * all: ans->reason says why not.  The window is clipped to the part that
 * is neither past nor beyond the horizon.
 */
int
to_span(ar_txn *t, const struct ar_request *rq, int together,
    struct span *sp, struct ar_answer *ans)
{
	int64_t slot = t->m.slot, end = t->base + t->m.horizon;

	if (rq->duration <= 0 || rq->duration > AR_DURATION_MAX ||
	    rq->hold < 0 || rq->hold > AR_HOLD_MAX ||
	    rq->nodes == 0 || rq->jobs == 0 || rq->earliest < 0 ||
	    rq->latest < rq->earliest || rq->latest > TIME_MAX ||
	    (rq->user != NULL && strlen(rq->user) > AR_LABEL_MAX) ||
	    (rq->job != NULL && strlen(rq->job) > AR_LABEL_MAX) ||
	    (rq->account != NULL && strlen(rq->account) > AR_LABEL_MAX) ||
	    (rq->resv_flags & ~(unsigned)AR_RESV_MAINT) != 0)
		return EINVAL;
	if (rq->nhosts > 0) {
		if (rq->hosts == NULL || rq->nhosts != rq->nodes || rq->jobs != 1)
			return EINVAL;
		for (uint32_t i = 0; i < rq->nhosts; i++)
			if (rq->hosts[i] >= t->m.nodes ||
			    (i > 0 && rq->hosts[i] <= rq->hosts[i - 1]))
				return EINVAL;
	}
	memset(ans, 0, sizeof(*ans));
	sp->slots = (rq->duration + slot - 1) / slot;
	sp->need = (uint64_t)rq->nodes * (together ? rq->jobs : 1);
	sp->first = slot_up(t, rq->earliest);
	sp->last = slot_up(t, rq->latest);
	sp->cls = class_of(t, rq->earliest);
	ans->cls = sp->cls;
	if (sp->cls != 0)
		ans->price = t->pr.c[sp->cls - 1].price * (int64_t)sp->need *
		    sp->slots;
	ans->start = sp->first * slot;
	ans->end = (sp->first + sp->slots) * slot;
	if (sp->need > t->m.nodes || rq->jobs > AR_JOBS_MAX)
		ans->reason = AR_R_CAPACITY;
	else if (ans->end > TIME_MAX) {
		/* Not even printable: say where it was asked to start. */
		ans->reason = AR_R_HORIZON;
		ans->start = rq->earliest;
		ans->end = -1;
	}
	else if (rq->latest < t->now)
		ans->reason = AR_R_PAST;
	else {
		if (sp->first < slot_up(t, t->now))
			sp->first = slot_up(t, t->now);
		if (sp->first + sp->slots > end)
			ans->reason = AR_R_HORIZON;
		else if (sp->last > end - sp->slots)
			sp->last = end - sp->slots;
	}
	return 0;
}

/* Fill in the interval found at slot s and the least free count over it. */
int
place(ar_txn *t, const struct span *sp, int64_t s, struct ar_answer *ans)
{
	uint32_t peak;
	int rc;

	if ((rc = ring_peak(t, &t->ring, s, s + sp->slots, &peak)) != 0)
		return rc;
	ans->start = s * t->m.slot;
	ans->end = (s + sp->slots) * t->m.slot;
	ans->free = t->m.nodes - peak;
	return 0;
}

int
ar_search(ar_txn *t, const struct ar_request *rq, struct ar_answer *ans)
{
	struct span sp;
	int64_t s;
	int rc;

	if ((rc = to_span(t, rq, 1, &sp, ans)) != 0)
		return rc;
	ans->status = AR_UNAVAILABLE;
	if (ans->reason != AR_R_NONE)
		return 0;
	if ((rc = fit_first(t, sp.cls, sp.first, sp.last, sp.slots, sp.need,
	    &s)) != 0)
		return rc;
	if (s == -1) {
		if ((rc = fit_refusal(t, &sp, sp.last, 1, &ans->reason)) != 0)
			return rc;
		return place(t, &sp, sp.first, ans);
	}
	if ((rc = fit_mapped(t, rq, &sp, sp.last, &s, &ans->conflict)) != 0)
		return rc;
	if (s == -1) {
		ans->reason = AR_R_HOSTS;
		return place(t, &sp, sp.first, ans);
	}
	ans->status = AR_AVAILABLE;
	return place(t, &sp, s, ans);
}

int
ar_suggest(ar_txn *t, const struct ar_request *rq, int64_t limit,
    struct ar_answer *alts, size_t k, size_t *n)
{
	struct ar_request from_now = *rq;
	struct span sp;
	int64_t s, hi, end;
	int rc;

	*n = 0;
	if (k == 0 || limit < 0)
		return EINVAL;
	/* A start already past is no reason not to look from the clock on. */
	if (from_now.latest < t->now && from_now.earliest <= from_now.latest)
		from_now.latest = t->now;
	if ((rc = to_span(t, &from_now, 1, &sp, &alts[0])) != 0)
		return rc;
	alts[0].status = AR_UNAVAILABLE;
	if (alts[0].reason != AR_R_NONE)
		return 0;
	/* The limit bounds the search; a longer window does not extend it. */
	end = t->base + t->m.horizon - sp.slots;
	hi = sp.first + limit / t->m.slot;
	if (hi > end)
		hi = end;
	if ((rc = fit_first(t, sp.cls, sp.first, hi, sp.slots, sp.need,
	    &s)) != 0 || (s != -1 && (rc = fit_mapped(t, rq, &sp, hi, &s,
	    &alts[0].conflict)) != 0))
		return rc;
	while (s != -1) {
		alts[*n] = alts[0];
		alts[*n].status = AR_SUGGESTED;
		if ((rc = place(t, &sp, s, &alts[*n])) != 0)
			return rc;
		if (++*n == k)
			break;
		if ((rc = fit_next(t, sp.cls, s, hi, sp.slots, sp.need,
		    &s)) != 0 || (s != -1 && (rc = fit_mapped(t, rq, &sp, hi,
		    &s, &alts[0].conflict)) != 0))
			return rc;
	}
	if (*n == 0) {
		alts[0].reason = AR_R_LIMIT;
		return place(t, &sp, sp.first, &alts[0]);
	}
	return 0;
}

/*
 * A record as the library's callers see it: finished once it ended by
 * the store clock, whether or not a purge has taken it out of the
 * indexes yet; a hold expired once its expiry came by that clock,
 * whether or not a writer has released it.
 */
int
ar_get(ar_txn *t, uint64_t id, struct ar_resv *r)
{
	int rc;

	if ((rc = resv_get(t, id, r)) == 0)
		resv_as_of(r, t->now);
	return rc;
}

/* Take a live reservation out of the start lists and the ring's future. */
int
retire(ar_txn *t, struct ar_resv *r, enum ar_status state, int64_t changed)
{
	int64_t from = r->start / t->m.slot, to = r->end / t->m.slot;
	int rc;

	if (from < t->base)
		from = t->base;
	if (from < to && (rc = fit_add(t, r->cls, from, to,
	    -(int64_t)r->nodes * r->jobs)) != 0)
		return rc;
	if ((rc = resv_index(t, r, 0)) != 0)
		return rc;
	r->state = state;
	r->changed = changed;
	if ((rc = resv_put(t, r)) != 0)
		return rc;
	t->m.live--;
	t->meta_dirty = 1;
	return 0;
}

int
resv_owned(ar_txn *t, uint64_t id, uint32_t who, struct ar_resv *r)
{
	int rc;

	if (!t->write)
		return EACCES;
	if ((rc = ar_get(t, id, r)) != 0)
		return rc;
	who = txn_who(t, who);
	if (who != 0 && who != r->owner)
		return AR_EPERM;
	return r->state == AR_GRANTED ? 0 : AR_EDONE;
}

int
ar_cancel(ar_txn *t, uint64_t id, uint32_t who, struct ar_resv *r)
{
	int rc;

	if ((rc = resv_owned(t, id, who, r)) != 0)
		return rc;
	if (r->named && (rc = map_pin(t, r, NULL, 0, 0)) != 0)
		return rc;
	/* A hold given up is cancelled like any other. */
	if (r->expires != 0) {
		if ((rc = hold_index(t, r, 0)) != 0)
			return rc;
		r->expires = 0;
	}
	return retire(t, r, AR_CANCELLED, t->now);
}

int
ar_find(ar_txn *t, const char *user, const char *job, uint64_t *ids,
    size_t max, size_t *n)
{
	unsigned char lkey[2 * AR_LABEL_MAX + 1];
	struct kv_val k = { 0, lkey }, v;
	struct kv_cursor *cur;
	struct ar_resv r;
	uint64_t id;
	int rc;

	*n = 0;
	user = user == NULL ? "" : user;
	job = job == NULL ? "" : job;
	if (strlen(user) > AR_LABEL_MAX || strlen(job) > AR_LABEL_MAX)
		return EINVAL;
	k.size = label_key(user, job, lkey);
	if (k.size == 1)
		return 0;               /* unlabelled reservations are not indexed */
	if ((rc = kv_cursor_open(t->txn, KV_LABELS, &cur)) != 0)
		return rc;
	for (rc = kv_cursor_get(cur, &k, &v, KV_SET_KEY); rc == 0;
	    rc = kv_cursor_get(cur, &k, &v, KV_NEXT_DUP)) {
		if (v.size != 8) {
			rc = AR_ECORRUPT;
			break;
		}
		/* The index keeps what ended until a purge: those are done. */
		id = u64_key(v.data);
		if ((rc = ar_get(t, id, &r)) != 0) {
			rc = rc == AR_ENOTFOUND ? AR_ECORRUPT : rc;
			break;
		}
		if (r.state != AR_GRANTED)
			continue;
		if (*n < max)
			ids[*n] = id;
		++*n;
	}
	kv_cursor_close(cur);
	return rc == KV_NOTFOUND ? 0 : rc;
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

struct listing {
	ar_txn *t;
	unsigned flags;
	int (*fn)(const struct ar_resv *, void *);
	void *arg;
};

static int
listed(struct kv_cursor *cur, const struct kv_val *k, const struct kv_val *v,
    void *arg)
{
	struct listing *l = arg;
	struct ar_resv r;
	int rc;

	(void)cur;
	(void)k;
	if ((rc = resv_decode(l->t, v, &r)) != 0)
		return rc;
	resv_as_of(&r, l->t->now);
	if ((l->flags & AR_LIVE) && r.state != AR_GRANTED)
		return 0;
	return l->fn(&r, l->arg);
}

int
ar_list(ar_txn *t, unsigned flags,
    int (*fn)(const struct ar_resv *, void *), void *arg)
{
	struct listing l = { t, flags, fn, arg };

	return kv_walk(t->txn, KV_RESV, NULL, listed, &l);
}

int
ar_free(ar_txn *t, int64_t from, int64_t to, uint32_t *free)
{
	uint32_t peak;
	int rc;

	if (from < 0 || to < from || to > TIME_MAX)
		return EINVAL;
	if ((rc = ring_peak(t, &t->ring, from / t->m.slot, slot_up(t, to),
	    &peak)) != 0)
		return rc;
	*free = t->m.nodes - peak;
	return 0;
}
