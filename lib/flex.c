/*
 * flex.c - admission: start windows, parametric copies, and the
 * rearrangement of earlier flexible reservations (thesis ch. 3-4,
 * FCFS-EDS; Pujiyanta and Noviyanto, FCFS-LRH).
 *
 * A copy is placed at the first start in its window where it fits.  If
 * there is none, each start of the window is tried in turn: the
 * reservations blocking it that may move (granted, not started, with a
 * window of their own) are taken out, the copy is placed, and they are put
 * back inside their windows - later only (EDS) or nearest first, earlier
 * or later (LRH), in the order they were granted.  Every attempt runs in a
 * savepoint, a nested transaction (savepoint.c), so a failed one is undone
 * exactly: this is the thesis's putBackAllShiftedJob, without the
 * bookkeeping.
 *
 * The thesis shifts the jobs of one blocking slot at a time; here every
 * blocking slot of the candidate interval may shed reservations, and a
 * reservation may move any distance its window allows.  Each admission
 * stays bounded: at most MOVERS_MAX reservations move for one copy, only
 * reservations starting within LOOKBACK before a blocking slot are
 * considered, and at most STARTS_MAX starts of a window are tried.  A
 * blocking slot that stays full even if everything movable leaves it
 * rules out every start whose interval covers it, so those are skipped.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "internal.h"

#define MOVERS_MAX 32
#define LOOKBACK (24 * 3600)   /* seconds */
#define STARTS_MAX 288

/* Note that reservation r now starts at slot s; it started at from. */
static int
log_move(ar_txn *t, const struct ar_resv *r, int64_t from)
{
	size_t i;
	int rc;

	for (i = 0; i < t->nmoved && t->moved[i].id != r->id; i++)
		;
	if (i == t->nmoved) {
		if ((rc = array_room(&t->moved, &t->mcap, t->nmoved + 1,
		    sizeof(*t->moved))) != 0)
			return rc;
		t->moved[t->nmoved].free = 0;
		t->moved[t->nmoved].expires = 0;       /* holds never move */
		t->moved[t->nmoved++].from = from;
	}
	t->moved[i].id = r->id;
	t->moved[i].start = r->start;
	t->moved[i].end = r->end;
	return 0;
}

/* Take a live reservation out of the ring and its start list, and off
 * the tracked hosts it held: it comes back as one of the pool's. */
static int
take_out(ar_txn *t, const struct ar_resv *r)
{
	int rc;

	if ((rc = track_drop(t, r->id)) != 0 ||
	    (rc = fit_add(t, r->cls, r->pool, r->start / t->m.slot,
	    r->end / t->m.slot, -(int64_t)r->nodes * r->jobs)) != 0)
		return rc;
	return resv_index(t, r, 0);
}

/* Put reservation r back at slot s. */
static int
put_back(ar_txn *t, struct ar_resv *r, int64_t s)
{
	int64_t len = (r->end - r->start) / t->m.slot, from = r->start;
	int rc;

	r->start = s * t->m.slot;
	r->end = (s + len) * t->m.slot;
	if (r->start != from)
		r->changed = t->now;
	if ((rc = fit_add(t, r->cls, r->pool, s, s + len,
	    (int64_t)r->nodes * r->jobs)) != 0 ||
	    (rc = resv_index(t, r, 1)) != 0 || (rc = resv_put(t, r)) != 0)
		return rc;
	return r->start != from ? log_move(t, r, from) : 0;
}

/* The starts a reservation may move to: its window, clipped to the
 * clock and the horizon.  0 if it may not move at all. */
static int
may_move(ar_txn *t, const struct ar_resv *r, uint64_t own, int64_t *lo,
    int64_t *hi)
{
	int64_t len = (r->end - r->start) / t->m.slot;

	/* A hold stays where it was granted: a broker holds the same
	 * start on other stores. */
	if (r->state != AR_GRANTED || r->id >= own || r->start <= t->now ||
	    r->expires != 0)
		return 0;
	*lo = slot_up(t, r->earliest);
	*hi = slot_up(t, r->latest);
	if (*lo < slot_up(t, t->now))
		*lo = slot_up(t, t->now);
	if (*hi > t->base + t->m.horizon - len)
		*hi = t->base + t->m.horizon - len;
	return *lo < *hi;
}

struct blocking {
	int64_t b;              /* the full slot */
	uint64_t own;           /* the request's first id: not movable */
	struct ar_resv *out;
	size_t *n;
};

/* One movable reservation starting up to a day before the full slot. */
static int
blocker(ar_txn *t, const struct slot_entry *e, void *arg)
{
	struct blocking *bl = arg;
	struct ar_resv *r = &bl->out[*bl->n];
	int64_t lo, hi;
	size_t i;
	int rc;

	if ((rc = resv_get(t, e->id, r)) != 0)
		return rc == AR_ENOTFOUND ? AR_ECORRUPT : rc;
	if ((uint64_t)(r->start / t->m.slot) != e->slot)
		return AR_ECORRUPT;
	for (i = 0; i < *bl->n && bl->out[i].id != r->id; i++)
		;
	if (i == *bl->n && r->end / t->m.slot > bl->b &&
	    may_move(t, r, bl->own, &lo, &hi))
		++*bl->n;
	return *bl->n < MOVERS_MAX ? 0 : KV_STOP;
}

/*
 * Add to out[] the movable reservations covering slot b, not yet there;
 * *n grows, up to MOVERS_MAX.
 */
static int
blockers(ar_txn *t, int64_t b, uint64_t own, struct ar_resv *out, size_t *n)
{
	struct blocking bl = { b, own, out, n };
	int64_t from = b - LOOKBACK / t->m.slot;
	int rc;

	if (*n >= MOVERS_MAX)
		return 0;
	rc = slots_scan(t, &t->flex, (uint64_t)(from < 0 ? 0 : from),
	    (uint64_t)b, blocker, &bl);
	return rc == KV_STOP ? 0 : rc;
}

/* Does a reservation of class cls, len slots and need nodes fit at slot
 * s, within the booking limits too? */
static int
fits(ar_txn *t, uint32_t cls, uint32_t pool, int64_t s, int64_t len,
    uint64_t need, int *yes)
{
	int64_t found;
	int rc;

	rc = fit_first(t, cls, pool, s, s, len, need, &found);
	*yes = found == s;
	return rc;
}

/* Where reservation r goes back: its old start if it still fits, else
 * the nearest start allowed (later only with AR_LATER); -1 if none. */
static int
new_start(ar_txn *t, const struct ar_resv *r, unsigned flags, uint64_t own,
    int64_t *s)
{
	int64_t cur = r->start / t->m.slot, len = (r->end - r->start) /
	    t->m.slot, lo, hi;
	uint64_t need = (uint64_t)r->nodes * r->jobs;
	int rc, yes;

	*s = -1;
	if (!may_move(t, r, own, &lo, &hi))
		lo = hi = cur;
	if (flags & AR_LATER)
		lo = cur;
	if (cur >= lo && cur <= hi) {
		if ((rc = fits(t, r->cls, r->pool, cur, len, need,
		    &yes)) != 0 || yes) {
			*s = yes ? cur : -1;
			return rc;
		}
	}
	for (int64_t d = 1; cur - d >= lo || cur + d <= hi; d++) {
		if (cur - d >= lo && cur - d <= hi) {
			if ((rc = fits(t, r->cls, r->pool, cur - d, len, need,
			    &yes)) != 0)
				return rc;
			if (yes) {
				*s = cur - d;
				return 0;
			}
		}
		if (cur + d <= hi && cur + d >= lo) {
			if ((rc = fits(t, r->cls, r->pool, cur + d, len, need,
			    &yes)) != 0)
				return rc;
			if (yes) {
				*s = cur + d;
				return 0;
			}
		}
	}
	return 0;
}

static int
by_id(const void *a, const void *b)
{
	const struct ar_resv *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * Try to make room for a copy at slot s by moving others: *ok says
 * whether it worked; if it did, the copy's slots are taken (ring only)
 * and the moves are kept, else nothing changed.
 */
/*
 * The first slot of [s, s + len) without room, and the movable
 * reservations covering it that are not in movers[] yet (added there).
 * *hopeless says that even all of them leaving would not make room, so
 * no start whose interval covers that slot can work.
 */
static int
next_blocker(ar_txn *t, const struct span *sp, int64_t s, uint64_t own,
    struct ar_resv *movers, size_t *n, int64_t *bad, int *hopeless)
{
	uint32_t cap = t->m.nodes - (uint32_t)sp->need, used;
	uint64_t freeable = 0;
	size_t had = *n;
	int rc;

	*hopeless = 0;
	if ((rc = ring_first_over(t, &t->ring, s, s + sp->slots, cap,
	    bad)) != 0 || *bad == -1)
		return rc;
	if ((rc = blockers(t, *bad, own, movers, n)) != 0 ||
	    (rc = ring_peak(t, &t->ring, *bad, *bad + 1, &used)) != 0)
		return rc;
	for (size_t i = had; i < *n; i++)
		freeable += (uint64_t)movers[i].nodes * movers[i].jobs;
	*hopeless = used > freeable + cap;
	return 0;
}

/*
 * Try to make room for a copy at slot s by moving others: *ok says
 * whether it worked; if it did, the copy's slots are taken (ring only)
 * and the moves are kept, else nothing changed.  *next is the next start
 * worth trying.  The first blocking slot is examined before anything is
 * changed, so a hopeless start costs no nested transaction.
 */
static int
make_room(ar_txn *t, const struct span *sp, int64_t s, unsigned flags,
    uint64_t own, struct ar_resv *movers, int *ok, int64_t *next)
{
	struct savepoint sv;
	size_t n = 0, had = 0;
	int64_t bad, to;
	int rc, hopeless, yes;

	*ok = 0;
	*next = s + 1;
	if ((rc = next_blocker(t, sp, s, own, movers, &n, &bad,
	    &hopeless)) != 0 || bad == -1 || hopeless) {
		if (hopeless)
			*next = bad + 1;
		return rc;
	}
	if ((rc = txn_save(t, &sv)) != 0)
		return rc;
	for (;;) {
		for (size_t i = had; i < n; i++)
			if ((rc = take_out(t, &movers[i])) != 0)
				goto undo;
		had = n;
		if ((rc = next_blocker(t, sp, s, own, movers, &n, &bad,
		    &hopeless)) != 0)
			goto undo;
		if (bad == -1)
			break;
		if (hopeless) {
			*next = bad + 1;
			goto undo;
		}
	}
	/* The moves made room in the node ring; the booking limits of the
	 * copy's class must allow it too, with the movers out. */
	if ((rc = fits(t, sp->cls, sp->pool, s, sp->slots, sp->need,
	    &yes)) != 0 ||
	    !yes || (rc = fit_add(t, sp->cls, sp->pool, s, s + sp->slots,
	    (int64_t)sp->need)) != 0)
		goto undo;
	/* First come, first served: earlier grants choose first. */
	qsort(movers, n, sizeof(*movers), by_id);
	for (size_t i = 0; i < n; i++) {
		if ((rc = new_start(t, &movers[i], flags, own, &to)) != 0 ||
		    to == -1)
			goto undo;
		if ((rc = put_back(t, &movers[i], to)) != 0)
			goto undo;
	}
	if ((rc = txn_keep(t, &sv)) == 0)
		*ok = 1;
	return rc;
undo:
	txn_undo(t, &sv);
	return rc;
}

/* A new record for a copy of rq granted at slot s. */
static void
new_record(ar_txn *t, const struct ar_request *rq, int64_t s,
    struct ar_resv *r)
{
	size_t ulen = rq->user ? strlen(rq->user) : 0;
	size_t jlen = rq->job ? strlen(rq->job) : 0;
	size_t klen = rq->client_key ? strlen(rq->client_key) : 0;

	memset(r, 0, sizeof(*r));
	r->id = t->m.next_id;
	r->owner = rq->owner;
	r->state = AR_GRANTED;
	r->start = s * t->m.slot;
	r->named = rq->nhosts > 0;
	if (t->occurrence != 0) {
		r->series = t->series != 0 ? t->series : r->id;
		r->occurrence = t->occurrence;
		r->pieces = t->pieces;
	}
	r->created = t->now;
	memcpy(r->user, ulen ? rq->user : "", ulen);
	memcpy(r->job, jlen ? rq->job : "", jlen);
	memcpy(r->client_key, klen ? rq->client_key : "", klen);
	r->resv_flags = rq->resv_flags;
	if (rq->account != NULL)
		memcpy(r->account, rq->account, strlen(rq->account));
}

/*
 * Record a copy granted at slot s, with free nodes over its interval
 * before it; its slots are already taken when taken is set.  With was,
 * the reservation was takes the new shape (ar_modify): its id, owner,
 * labels, key, class and hosts stay, and so does its start if it has
 * started (then s is the clock's slot and sp its slots from there); a
 * hold stays one, expiring no later than its new end.
 */
static int
grant(ar_txn *t, const struct ar_request *rq, const struct span *sp,
    const struct ar_resv *was, int64_t s, int taken, uint32_t free)
{
	struct ar_resv r;
	int rc;

	if (was == NULL)
		new_record(t, rq, s, &r);
	else {
		r = *was;
		if (r.start > t->now)
			r.start = s * t->m.slot;
	}
	r.earliest = rq->earliest;
	r.latest = rq->latest;
	r.duration = rq->duration;
	r.end = (s + sp->slots) * t->m.slot;
	r.nodes = rq->nodes;
	r.jobs = 1;
	r.cls = sp->cls;
	r.pool = sp->pool;
	if (sp->cls != 0)
		r.price = t->pr.c[sp->cls - 1].price * (int64_t)sp->need *
		    ((r.end - r.start) / t->m.slot);
	r.changed = t->now;
	if (was == NULL && rq->hold > 0)
		r.expires = t->now + rq->hold;
	if (r.expires > r.end)
		r.expires = r.end;
	if (r.expires != (was ? was->expires : 0) &&
	    ((was && (rc = hold_index(t, was, 0)) != 0) ||
	    (rc = hold_index(t, &r, 1)) != 0))
		return rc;
	if ((rc = resv_put(t, &r)) != 0 ||
	    (rc = was ? resv_list(t, &r, 1) : resv_index(t, &r, 1)) != 0 ||
	    (!taken && (rc = fit_add(t, sp->cls, sp->pool, s, s + sp->slots,
	    (int64_t)sp->need)) != 0) ||
	    (r.named && (rc = map_pin(t, &r, rq->hosts, rq->nhosts, 1)) != 0))
		return rc;
	if ((rc = array_room(&t->granted, &t->gcap, t->ngranted + 1,
	    sizeof(*t->granted))) != 0)
		return rc;
	t->granted[t->ngranted++] = (struct ar_placed){ r.id, r.start, r.end,
	    was ? was->start : r.start, free, r.expires };
	if (was != NULL)
		return 0;
	t->m.next_id++;
	t->m.live++;
	t->m.records++;
	t->meta_dirty = 1;
	return 0;
}

/* Place one copy: first fit, then rearrangement.  *s is -1 if neither. */
static int
place_copy(ar_txn *t, const struct ar_request *rq, const struct span *sp,
    const struct ar_resv *was, uint64_t own, struct ar_resv *movers,
    int64_t *s)
{
	struct ar_answer a;
	int64_t last;
	int rc, ok;

	if ((rc = fit_first(t, sp->cls, sp->pool, sp->first, sp->last,
	    sp->slots, sp->need, s)) != 0)
		return rc;
	if (*s != -1)
		return (rc = place(t, sp, *s, &a)) != 0 ? rc :
		    grant(t, rq, sp, was, *s, 0, a.free);
	if (rq->flags & AR_NOMOVE)
		return 0;
	last = sp->last - sp->first >= STARTS_MAX ?
	    sp->first + STARTS_MAX - 1 : sp->last;
	for (int64_t c = sp->first, next; c <= last; c = next) {
		if ((rc = make_room(t, sp, c, rq->flags, own, movers, &ok,
		    &next)) != 0)
			return rc;
		if (ok) {
			/* After the moves; the copy's own nodes, in the ring
			 * already over all its interval, do not count. */
			*s = c;
			return (rc = place(t, sp, c, &a)) != 0 ? rc :
			    grant(t, rq, sp, was, c, 1,
			    a.free + (uint32_t)sp->need);
		}
	}
	return 0;
}

/* Moves that came back to where they started are no moves. */
static void
drop_returns(ar_txn *t)
{
	size_t n = 0;

	for (size_t i = 0; i < t->nmoved; i++)
		if (t->moved[i].start != t->moved[i].from)
			t->moved[n++] = t->moved[i];
	t->nmoved = n;
}

/*
 * What every admission does first, the request reduced to slots: *s is
 * the first start where the rings let it in (-1: none) and ans tells
 * the interval there, or at the window's first start.
 */
static int
admission_begin(ar_txn *t, const struct span *sp, struct ar_answer *ans,
    int64_t *s)
{
	int rc;

	t->ngranted = t->nmoved = 0;
	ans->status = AR_REFUSED;
	if ((rc = fit_first(t, sp->cls, sp->pool, sp->first, sp->last,
	    sp->slots, sp->need, s)) != 0)
		return rc;
	return place(t, sp, *s == -1 ? sp->first : *s, ans);
}

/* The common grant: one copy at start s, where the rings let it in,
 * moving nothing; ans, placed there, tells it. */
static int
grant_at(ar_txn *t, const struct ar_request *rq, const struct span *sp,
    const struct ar_resv *was, int64_t s, struct ar_answer *ans)
{
	int rc;

	if ((rc = grant(t, rq, sp, was, s, 0, ans->free)) != 0)
		return rc;
	ans->status = AR_GRANTED;
	ans->id = t->granted[0].id;
	return 0;
}

/* A new request granted at slot s, holding the tracked hosts that
 * track_take found, if any (t->ntake). */
static int
grant_held(ar_txn *t, const struct ar_request *rq, const struct span *sp,
    int64_t s, struct ar_answer *ans)
{
	int rc;

	if ((rc = grant_at(t, rq, sp, NULL, s, ans)) != 0)
		return rc;
	return track_hold(t, sp->pool, ans->id, s, s + sp->slots);
}

/* Admission on the rings alone. */
static int
admit(ar_txn *t, const struct ar_request *rq, const struct span *span,
    const struct ar_resv *was, struct ar_answer *ans)
{
	struct ar_resv *movers = NULL;
	struct savepoint whole;
	struct span sp = *span;
	/* Neither its copies nor a series' occurrences move for it. */
	uint64_t own = t->series != 0 ? t->series : t->first_copy != 0 ?
	    t->first_copy : t->m.next_id;
	uint32_t placed = 0;
	int64_t s;
	int rc, atomic;

	if ((rc = admission_begin(t, &sp, ans, &s)) != 0)
		return rc;
	if (s == -1 && (rq->flags & AR_NOMOVE) && !(rq->flags & AR_PARTIAL))
		/* the common refusal, cheaply */
		return fit_refusal(t, &sp, sp.last, rq->jobs, &ans->reason);
	if (s != -1 && rq->jobs == 1)           /* the common grant, likewise */
		return grant_at(t, rq, &sp, was, s, ans);
	if ((movers = malloc(MOVERS_MAX * sizeof(*movers))) == NULL)
		return ENOMEM;
	/* Copies granted before a later one fails must go again. */
	atomic = rq->jobs > 1 && !(rq->flags & AR_PARTIAL);
	if (atomic && (rc = txn_save(t, &whole)) != 0)
		goto out;
	/*
	 * A copy that finds no room leaves the store as it was, so the
	 * copies after it, all alike, would find none either: the copies
	 * granted are the first ones.
	 */
	for (uint32_t j = 0; j < rq->jobs; j++) {
		if ((rc = place_copy(t, rq, &sp, was, own, movers, &s)) != 0 ||
		    s == -1)
			break;
		placed++;
	}
	if (atomic)
		rc = rc == 0 && placed == rq->jobs ? txn_keep(t, &whole) :
		    (txn_undo(t, &whole), rc);
	if (rc != 0 || placed == 0 || (atomic && placed < rq->jobs)) {
		t->ngranted = t->nmoved = 0;
		if (rc == 0)
			rc = fit_refusal(t, &sp, sp.last, rq->jobs,
			    &ans->reason);
		goto out;
	}
	drop_returns(t);
	ans->status = AR_GRANTED;
	ans->reason = AR_R_NONE;
	ans->id = t->granted[0].id;
	ans->start = t->granted[0].start;
	ans->end = t->granted[0].end;
	ans->free = t->granted[0].free;
out:
	free(movers);
	return rc;
}

/* Reservation id, displaced by maintenance, is cancelled. */
static int
displace(ar_txn *t, uint64_t id)
{
	struct ar_resv r;
	int rc;

	if ((rc = resv_get(t, id, &r)) != 0)
		return rc == AR_ENOTFOUND ? AR_ECORRUPT : rc;
	if ((rc = track_drop(t, id)) != 0)
		return rc;
	if (r.expires != 0) {
		if ((rc = hold_index(t, &r, 0)) != 0)
			return rc;
		r.expires = 0;
	}
	return retire(t, &r, AR_CANCELLED, t->now);
}

/*
 * Maintenance that wins (AR_RESV_MAINT, named hosts), where admission
 * refused it: at its first start, its hosts taken from whatever has not
 * started and does not name them.  Those reservations keep their times
 * on other hosts where the plan with the maintenance maps so; the others
 * are displaced (t->displaced): with AR_FORCE cancelled, and the
 * maintenance granted, else it is refused (AR_R_DISPLACED, the first of
 * them the conflict) and nothing changes.  A started or named
 * reservation on its hosts refuses it (AR_R_HOSTS).
 */
static int
admit_maint(ar_txn *t, const struct ar_request *rq, const struct span *sp,
    struct ar_answer *ans)
{
	uint64_t conflict;
	int64_t s = sp->first;
	int rc, ok;

	if ((rc = map_displace(t, rq, sp->pool, s, sp->slots, &ok,
	    &conflict)) != 0)
		return rc;
	if (!ok || (t->ndisplaced > 0 && !(rq->flags & AR_FORCE))) {
		ans->reason = ok ? AR_R_DISPLACED : AR_R_HOSTS;
		ans->conflict = ok ? t->displaced[0] : conflict;
		return place(t, sp, s, ans);
	}
	for (size_t i = 0; i < t->ndisplaced; i++)
		if ((rc = displace(t, t->displaced[i])) != 0)
			return rc;
	if ((rc = place(t, sp, s, ans)) != 0 ||
	    (rc = grant(t, rq, sp, NULL, s, 0, ans->free)) != 0 ||
	    (rc = map_after_admission(t, &ok, &conflict)) != 0)
		return rc;
	if (!ok)
		return AR_ECORRUPT;     /* map_displace said it maps */
	ans->status = AR_GRANTED;
	ans->reason = AR_R_NONE;
	ans->conflict = 0;
	ans->id = t->granted[0].id;
	return 0;
}

/*
 * A request that names its hosts, or one whose first start by the rings
 * leaves the plan unmapped: at the first start in its window where the
 * rings let it in and the plan with it maps (map.c), as ar_search finds
 * it; it moves nothing.  Then the plan's mapping is kept, as it is after
 * every admission while a pin is in the plan.  Maintenance refused so
 * wins if it can (admit_maint).
 */
static int
admit_mapped(ar_txn *t, const struct ar_request *rq, const struct span *sp,
    const struct ar_resv *was, struct ar_answer *ans)
{
	uint64_t conflict;
	int64_t s;
	int rc, ok, maint = was == NULL &&
	    (rq->resv_flags & AR_RESV_MAINT) != 0;

	if ((rc = admission_begin(t, sp, ans, &s)) != 0)
		return rc;
	if (s == -1 && maint)
		return admit_maint(t, rq, sp, ans);
	if (s == -1)
		return fit_refusal(t, sp, sp->last, 1, &ans->reason);
	if ((rc = fit_mapped(t, rq, sp, sp->last, &s, &conflict)) != 0)
		return rc;
	if (s == -1 && maint)
		return admit_maint(t, rq, sp, ans);
	if (s == -1) {
		ans->reason = AR_R_HOSTS;
		ans->conflict = conflict;
		return 0;
	}
	if ((rc = place(t, sp, s, ans)) != 0)
		return rc;
	/* It holds tracked hosts: the tracking says the plan maps. */
	if (t->ntake > 0)
		return grant_held(t, rq, sp, s, ans);
	if ((rc = grant(t, rq, sp, was, s, 0, ans->free)) != 0 ||
	    (rc = map_after_admission(t, &ok, &conflict)) != 0)
		return rc;
	if (!ok)
		return AR_ECORRUPT;     /* map_fits said it maps */
	ans->status = AR_GRANTED;
	ans->id = t->granted[0].id;
	return 0;
}

/*
 * With pins in the plan and the tracking built: does every reservation
 * the last admission granted (in pool `pool`) or moved fit with the
 * tracked hosts' idle time counted (*ok)?  Then the plan maps (track.c)
 * without a sweep.
 */
static int
tracked_fit(ar_txn *t, uint32_t pool, int *ok)
{
	int64_t slot = t->m.slot;
	int rc;

	*ok = 0;
	if ((rc = track_built(t, ok)) != 0 || !*ok ||
	    (rc = track_idled(t, ok)) != 0)
		return rc;
	for (size_t i = 0; i < t->ngranted && *ok; i++)
		if ((rc = track_fits(t, pool, t->granted[i].start / slot,
		    t->granted[i].end / slot, 0, ok)) != 0)
			return rc;
	/* A move is of a reservation's own pool, where it was and where it
	 * went: every pool is asked, as after a drop (track_idled). */
	for (size_t i = 0; i < t->nmoved && *ok; i++)
		if ((rc = track_fits_every(t, t->moved[i].start / slot,
		    t->moved[i].end / slot, ok)) != 0)
			return rc;
	return 0;
}

/*
 * The common grant with pins in the plan: one copy, at the first start
 * the rings give (*s, where admit() grants it, moving nothing), which
 * fits with the tracked hosts counted, or holding some of them (*ok): no
 * savepoint, no sweep.
 */
static int
first_fit_tracked(ar_txn *t, const struct ar_request *rq,
    const struct span *sp, int64_t *s, int *ok)
{
	int rc = 0;

	*ok = 0;
	t->ntake = 0;
	if (rq->jobs != 1 || (rc = track_built(t, ok)) != 0 || !*ok)
		return rc;
	if ((rc = fit_first(t, sp->cls, sp->pool, sp->first, sp->last,
	    sp->slots, sp->need, s)) != 0)
		return rc;
	if (*s == -1) {
		*ok = 0;
		return 0;
	}
	return track_room(t, sp->pool, *s, *s + sp->slots, sp->need, 1, ok);
}

/*
 * Admission, with the plan's mapping in mind.  Without pins in the plan
 * the rings decide alone: a plan within capacity always maps (map.c).
 * With pins, what the rings admit, moves included, stands if it fits
 * with the tracked hosts counted (a new request, not a change), or else
 * if the whole plan still maps; otherwise it is undone and refused,
 * naming the reservation that would have been left without hosts.  So
 * too for a reservation changed (was) whose hosts the mapping keeps: its
 * entry must follow its new shape, and a started one keeps its hosts.
 */
int
admit_span(ar_txn *t, const struct ar_request *rq, const struct span *sp,
    const struct ar_resv *was, struct ar_answer *ans)
{
	struct savepoint sv;
	uint64_t conflict;
	int64_t s;
	int rc, pinned, kept = 0, ok;

	if (!t->write)
		return EACCES;
	if (rq->nhosts > 0)
		return admit_mapped(t, rq, sp, was, ans);
	if ((rc = map_pinned(t, &pinned)) != 0 || (!pinned && was != NULL &&
	    (rc = map_kept(t, was->id, &kept)) != 0))
		return rc;
	if (!pinned && !kept)
		return admit(t, rq, sp, was, ans);
	ok = 0;
	if (pinned && was == NULL &&
	    (rc = first_fit_tracked(t, rq, sp, &s, &ok)) != 0)
		return rc;
	/* Granted where admit() would, without asking the rings again. */
	if (ok) {
		t->ngranted = t->nmoved = 0;
		return (rc = place(t, sp, s, ans)) != 0 ? rc :
		    grant_held(t, rq, sp, s, ans);
	}
	if ((rc = txn_save(t, &sv)) != 0)
		return rc;
	t->idled_from = t->idled_to = 0;
	if ((rc = admit(t, rq, sp, was, ans)) != 0 ||
	    ans->status != AR_GRANTED ||
	    (pinned && was == NULL && ((rc = tracked_fit(t, sp->pool,
	    &ok)) != 0 ||
	    ok)) ||
	    (rc = map_after_admission(t, &ok, &conflict)) != 0 || ok) {
		if (rc == 0)
			return txn_keep(t, &sv);
		txn_undo(t, &sv);
		return rc;
	}
	txn_undo(t, &sv);
	t->ngranted = t->nmoved = 0;
	/* A later start of its window may map: where ar_search said. */
	if (was == NULL && sp->first < sp->last)
		return admit_mapped(t, rq, sp, NULL, ans);
	ans->status = AR_REFUSED;
	ans->reason = AR_R_HOSTS;
	ans->conflict = conflict;
	ans->id = 0;
	return 0;
}

int
admit_request(ar_txn *t, const struct ar_request *rq, struct ar_answer *ans)
{
	struct span sp;
	int rc;

	t->ngranted = t->nmoved = 0;
	if (!t->write)
		return EACCES;
	if ((rc = to_span(t, rq, 0, &sp, ans)) != 0)
		return rc;
	ans->status = AR_REFUSED;
	if (ans->reason != AR_R_NONE)
		return 0;
	return admit_span(t, rq, &sp, NULL, ans);
}

/* The partition, as index + 1, whose demand an admission of rq is:
 * the one it was granted in, a lender's if it borrowed, or the one it
 * asked for (its own pools' first); 1 in a store of one partition. */
static int
demand_partition(ar_txn *t, const struct ar_request *rq,
    const struct ar_answer *ans, uint32_t granted, uint32_t *partition)
{
	uint32_t pools[AR_POOLS_MAX], n;
	int rc;

	*partition = 1;
	if (!(t->m.mode & META_LAYOUT))
		return 0;
	if (granted > 0 && ans->pool < t->lay.npools) {
		*partition = t->lay.pool[ans->pool].partition + 1;
		return 0;
	}
	rc = layout_eligible(t, rq->partition, rq->features, pools, &n);
	if (rc == 0 && n > 0)
		*partition = t->lay.pool[pools[0]].partition + 1;
	return rc == EINVAL ? 0 : rc;
}

int
admit_logged(ar_txn *t, const struct ar_request *rq,
    const struct ar_answer *ans, uint32_t granted)
{
	uint32_t partition;
	int rc;

	if ((rc = demand_partition(t, rq, ans, granted, &partition)) != 0)
		return rc;
	return demand_log(t, rq, ans->cls, granted,
	    ans->status == AR_GRANTED ? AR_R_NONE : ans->reason, partition);
}
