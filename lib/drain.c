/*
 * drain.c - hosts taken out of service from a time on (format 10).
 *
 * A drain is a standing maintenance: a reservation with AR_RESV_MAINT
 * naming the drained hosts of one pool, from the drain's start to the
 * end of the horizon, admitted as maintenance that wins is (flex.c), so
 * that what it displaces is moved or reported as it would be for any
 * maintenance.  Its capacity leaves the node ring and its pool's ring
 * like any reservation's, so admission stays exact and costs what it
 * costs with a maintenance reservation in the plan.  The key "drains"
 * in `meta` lists the drains' ids; every write transaction, as it
 * begins, stretches each drain to the end of its horizon, so that the
 * slots the clock brings in at the horizon's end are drained too
 * before anything is admitted there.  A reader cannot write: one whose
 * horizon reaches past the drains' ends stretches them in the ring
 * chunks it holds in memory, and the sweep of the plan takes them to
 * its horizon's end (drains_view), so that it answers as the next
 * writer will.  An undrain ends the drain at the
 * clock (cancels it if it has not begun); a removal is a drain that
 * cannot be undone.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "internal.h"

/* Drain entry e's record, live and naming its hosts, into r. */
static int
drain_get(ar_txn *t, const struct disk_drain *e, struct ar_resv *r)
{
	int rc;

	if ((rc = resv_get(t, e->id, r)) != 0)
		return rc == AR_ENOTFOUND ? AR_ECORRUPT : rc;
	return r->state == AR_GRANTED && r->named ? 0 : AR_ECORRUPT;
}

/* Stretch live drain r to end, from its end, in every index that knows
 * its end: the rings, the end list and its pin.  A record spans at most
 * AR_DURATION_MAX: a drain that would span more, its clock that far on,
 * begins again at the clock's slot (what lay before is past and in no
 * ring, and a horizon is shorter than that). */
static int
stretch(ar_txn *t, struct ar_resv *r, int64_t end)
{
	uint32_t *hosts = NULL;
	int64_t from = r->end / t->m.slot;
	int rc;

	if (from < t->base)
		from = t->base;
	if ((rc = map_pin_hosts(t, r, &hosts)) != 0)
		return rc;
	if ((rc = fit_add(t, r->cls, r->pool, from, end / t->m.slot,
	    r->nodes)) == 0 && (rc = resv_list(t, r, 0)) == 0 &&
	    (rc = map_pin(t, r, NULL, 0, 0)) == 0) {
		r->end = end;
		if (r->end - r->start > AR_DURATION_MAX)
			r->start = t->base * t->m.slot;
		r->duration = r->end - r->start;
		r->latest = r->earliest = r->start;
		if ((rc = resv_list(t, r, 1)) == 0 &&
		    (rc = map_pin(t, r, hosts, r->nodes, 1)) == 0)
			rc = resv_put(t, r);
	}
	free(hosts);
	return rc;
}

int
drains_extend(ar_txn *t)
{
	struct disk_drain *d;
	struct ar_resv r;
	int64_t end = (t->base + t->m.horizon) * t->m.slot, was, began;
	size_t n;
	int rc;

	if ((rc = drains_read(t, &d, &n)) != 0 || n == 0)
		return rc;
	for (size_t i = 0; i < n && rc == 0; i++) {
		if ((rc = drain_get(t, &d[i], &r)) != 0 ||
		    (was = r.end) >= end)
			continue;
		began = r.start;
		if ((rc = stretch(t, &r, end)) != 0)
			break;
		/* Its tracked hosts stay tracked to its new end; begun
		 * again, its uses (kept by start) are built again. */
		rc = r.start == began ? track_stretch(t, r.id,
		    was / t->m.slot, end / t->m.slot) : track_reset(t);
	}
	free(d);
	return rc;
}

int
drains_view(ar_txn *t)
{
	struct disk_drain *d;
	struct ar_resv r;
	int64_t end = t->base + t->m.horizon, from;
	size_t n;
	int rc;

	/* The last writer's horizon is this one's: drains reach its end.
	 * No pin in the plan: no drain (a drain is one), and no lookup. */
	if (t->base <= t->kept / t->m.slot || t->m.pins == 0)
		return 0;
	if ((rc = drains_read(t, &d, &n)) != 0 || n == 0)
		return rc;
	for (size_t i = 0; i < n && rc == 0; i++) {
		if ((rc = drain_get(t, &d[i], &r)) != 0 ||
		    r.end / t->m.slot >= end)
			continue;
		from = r.end / t->m.slot > t->base ? r.end / t->m.slot :
		    t->base;
		if (array_room(&t->stretched, &t->scap, t->nstretched + 1,
		    sizeof(*t->stretched)) != 0) {
			rc = ENOMEM;
			break;
		}
		if ((rc = fit_add(t, r.cls, r.pool, from, end, r.nodes)) != 0)
			break;
		t->stretched[t->nstretched++] = r.id;
	}
	free(d);
	/* A drain is a pin in the plan, also where it ended as stored. */
	if (rc == 0 && t->nstretched > 0)
		t->pins = 1;
	return rc;
}

int64_t
drain_end_seen(const ar_txn *t, const struct ar_resv *r)
{
	for (size_t i = 0; i < t->nstretched; i++)
		if (t->stretched[i] == r->id)
			return (t->base + t->m.horizon) * t->m.slot;
	return r->end;
}

/* Add the ids of what the last admission displaced to *ids. */
static int
displaced_add(ar_txn *t, uint64_t **ids, size_t *n, size_t *cap)
{
	if (t->ndisplaced == 0)
		return 0;
	if (array_room(ids, cap, *n + t->ndisplaced, sizeof(**ids)) != 0)
		return ENOMEM;
	memcpy(*ids + *n, t->displaced, t->ndisplaced * sizeof(**ids));
	*n += t->ndisplaced;
	return 0;
}

/* Hosts hosts[0 .. n) as ar_drain takes them, as a set in *set:
 * EINVAL if there are none, or they are out of range or out of order. */
static int
hosts_asked(const ar_txn *t, const uint32_t *hosts, uint32_t n,
    struct hostset *set)
{
	int rc = 0;

	if (n == 0)
		return EINVAL;
	for (uint32_t i = 0; i < n && rc == 0; i++)
		rc = hosts[i] >= t->m.nodes || (i > 0 && hosts[i] <=
		    hosts[i - 1]) ? EINVAL : hostset_append(set, hosts[i], 1);
	return rc;
}

/* Drain hosts in (at least one, of one pool) from slot s to the
 * horizon's end, as maintenance: ans as ar_add tells it. */
static int
drain_pool(ar_txn *t, const struct hostset *in, uint32_t who, int64_t s,
    unsigned flags, uint32_t **buf, size_t *bufcap, struct ar_answer *ans)
{
	struct ar_request rq = { 0 };
	size_t k = hostset_count(in);

	if (array_room(buf, bufcap, k, sizeof(**buf)) != 0)
		return ENOMEM;
	k = 0;
	for (size_t i = 0; i < in->n; i++)
		for (uint32_t j = 0; j < in->r[i].count; j++)
			(*buf)[k++] = in->r[i].first + j;
	rq.earliest = rq.latest = s * t->m.slot;
	rq.duration = (t->base + t->m.horizon - s) * t->m.slot;
	rq.nodes = rq.nhosts = (uint32_t)k;
	rq.jobs = 1;
	rq.owner = who;
	rq.user = (flags & AR_DRAIN_REMOVE) ? "removed" : "drained";
	rq.flags = AR_NOMOVE | (flags & AR_FORCE);
	rq.hosts = *buf;
	rq.resv_flags = AR_RESV_MAINT;
	/* What an earlier request of the transaction displaced is not
	 * this one's: admission sets the list only where it displaces. */
	t->ndisplaced = 0;
	return admit_request(t, &rq, ans);
}

int
ar_drain(ar_txn *t, const uint32_t *hosts, uint32_t n, int64_t from,
    unsigned flags, uint32_t who, struct ar_answer *ans)
{
	struct hostset all = { 0 }, in = { 0 };
	struct savepoint sv;
	struct ar_answer a;
	struct disk_drain *d = NULL;
	uint64_t *ids = NULL;
	uint32_t *buf = NULL;
	size_t nd = 0, dcap, nids = 0, idcap = 0, bufcap = 0;
	int64_t s;
	int rc, refused = 0;

	memset(ans, 0, sizeof(*ans));
	ans->status = AR_REFUSED;
	t->ndisplaced = 0;      /* ar_displaced: none, if it fails early */
	if (!t->write)
		return EACCES;
	if ((flags & ~(AR_FORCE | AR_DRAIN_REMOVE)) != 0)
		return EINVAL;
	if ((rc = hosts_asked(t, hosts, n, &all)) != 0)
		goto out;
	/* From the first slot that begins at or after from and the clock. */
	s = slot_up(t, from > t->now ? from : t->now);
	ans->start = s * t->m.slot;
	ans->end = (t->base + t->m.horizon) * t->m.slot;
	if (s >= t->base + t->m.horizon) {
		ans->reason = AR_R_HORIZON;
		goto out;
	}
	if ((rc = layout_need(t)) != 0 || (rc = drains_read(t, &d, &nd)) != 0 ||
	    (rc = txn_save(t, &sv)) != 0)
		goto out;
	dcap = nd;
	/* One drain per pool: a reservation holds hosts of one pool. */
	for (size_t p = 0; p < t->lay.npools && rc == 0; p++) {
		if ((rc = hostset_minus(&in, &all, &t->lay.pool[p].others)) != 0 ||
		    in.n == 0)
			continue;
		if ((rc = drain_pool(t, &in, who, s, flags, &buf, &bufcap,
		    &a)) != 0 || (rc = displaced_add(t, &ids, &nids,
		    &idcap)) != 0)
			break;
		if (a.status != AR_GRANTED) {
			/* The first refusal is the answer; the other pools
			 * are still tried, to tell all they would displace. */
			if (!refused)
				*ans = a;
			refused = 1;
			continue;
		}
		if (ans->id == 0) {
			ans->id = a.id;
			ans->free = a.free;
		}
		if (array_room(&d, &dcap, nd + 1, sizeof(*d)) != 0) {
			rc = ENOMEM;
			break;
		}
		d[nd].id = a.id;
		d[nd].flags = (flags & AR_DRAIN_REMOVE) ? DRAIN_REMOVED : 0;
		d[nd++].spare = 0;
	}
	if (rc == 0 && !refused)
		rc = drains_write(t, d, nd);
	if (rc != 0 || refused) {
		txn_undo(t, &sv);
		ans->id = 0;
	} else {
		rc = txn_keep(t, &sv);
		ans->status = AR_GRANTED;
		ans->reason = AR_R_NONE;
		ans->conflict = 0;
	}
	/* What every pool displaced (or would have), for ar_displaced. */
	t->ndisplaced = 0;
	if (rc == 0 && nids > 0) {
		if (array_room(&t->displaced, &t->dcap, nids,
		    sizeof(*t->displaced)) != 0)
			rc = ENOMEM;
		else {
			memcpy(t->displaced, ids, nids * sizeof(*ids));
			t->ndisplaced = nids;
		}
	}
out:
	hostset_free(&all);
	hostset_free(&in);
	free(d);
	free(ids);
	free(buf);
	return rc;
}

/* The hosts drain r holds, as a set. */
static int
drain_hosts(ar_txn *t, const struct ar_resv *r, struct hostset *set)
{
	uint32_t *hosts;
	int rc;

	set->n = 0;
	if ((rc = map_pin_hosts(t, r, &hosts)) != 0)
		return rc;
	for (uint32_t i = 0; i < r->nodes && rc == 0; i++)
		rc = hostset_append(set, hosts[i], 1);
	free(hosts);
	return rc;
}

/* Drain entry e's record into r, and the hosts it holds that are not
 * asked into left: *hit if it holds some that are. */
static int
drain_asked(ar_txn *t, const struct disk_drain *e,
    const struct hostset *asked, struct ar_resv *r, struct hostset *held,
    struct hostset *left, int *hit)
{
	int rc;

	*hit = 0;
	if ((rc = drain_get(t, e, r)) != 0 ||
	    (rc = drain_hosts(t, r, held)) != 0 ||
	    (rc = hostset_minus(left, held, asked)) != 0)
		return rc;
	*hit = hostset_count(left) < r->nodes;
	return 0;
}

int
ar_undrain(ar_txn *t, const uint32_t *hosts, uint32_t n)
{
	struct hostset asked = { 0 }, held = { 0 }, left = { 0 };
	struct ar_answer a;
	struct ar_resv r;
	struct disk_drain *d = NULL;
	uint32_t *buf = NULL;
	size_t nd, bufcap = 0;
	uint64_t given = 0;
	int rc = 0, hit;

	if (!t->write)
		return EACCES;
	if ((rc = hosts_asked(t, hosts, n, &asked)) != 0 ||
	    (rc = drains_read(t, &d, &nd)) != 0)
		goto out;
	/* First what is asked: every host drained, none removed. */
	for (size_t i = 0; i < nd && rc == 0; i++) {
		if ((rc = drain_asked(t, &d[i], &asked, &r, &held, &left,
		    &hit)) != 0 || !hit)
			continue;
		if (d[i].flags & DRAIN_REMOVED)
			rc = AR_EPERM;
		else
			given += r.nodes - hostset_count(&left);
	}
	if (rc == 0 && given != n)
		rc = AR_ENOTFOUND;
	for (size_t i = 0; i < nd && rc == 0; i++) {
		if ((rc = drain_asked(t, &d[i], &asked, &r, &held, &left,
		    &hit)) != 0 || !hit)
			continue;
		/* The drain ends: if it began, from the slot the clock is in,
		 * as a cancel frees a reservation that began (no request
		 * starts there; a ring counting that slot would count it for
		 * no live reservation), its record then ending there to tell
		 * when it was drained; what it held and was not asked stays
		 * drained, from where it was or the clock's next slot. */
		if ((rc = unpin_unhold(t, &r)) != 0 ||
		    (rc = r.start > t->now ? retire(t, &r, AR_CANCELLED,
		    t->now) : retire_from(t, &r, t->base, AR_CANCELLED,
		    t->now)) != 0)
			break;
		d[i].id = 0;
		if (left.n == 0)
			continue;
		rc = drain_pool(t, &left, r.owner, slot_up(t, r.start > t->now ?
		    r.start : t->now), 0, &buf, &bufcap, &a);
		if (rc == 0 && a.status != AR_GRANTED)
			rc = AR_ECORRUPT;       /* its hosts were the drain's */
		d[i].id = a.id;
	}
	if (rc == 0) {
		size_t k = 0;

		for (size_t i = 0; i < nd; i++)
			if (d[i].id != 0)
				d[k++] = d[i];
		rc = drains_write(t, d, k);
	}
out:
	hostset_free(&asked);
	hostset_free(&held);
	hostset_free(&left);
	free(d);
	free(buf);
	return rc;
}

int
ar_drains(ar_txn *t, int (*fn)(const struct ar_drain *, void *), void *arg)
{
	struct disk_drain *d;
	struct ar_drain one;
	struct ar_resv r;
	uint32_t *hosts = NULL;
	size_t nd;
	int rc;

	if ((rc = drains_read(t, &d, &nd)) != 0)
		return rc;
	for (size_t i = 0; i < nd && rc == 0; i++) {
		free(hosts);
		hosts = NULL;
		if ((rc = drain_get(t, &d[i], &r)) != 0 ||
		    (rc = map_pin_hosts(t, &r, &hosts)) != 0)
			break;
		one.id = r.id;
		one.from = r.start;
		one.until = drain_end_seen(t, &r);
		one.removed = (d[i].flags & DRAIN_REMOVED) != 0;
		one.pool = r.pool;
		one.hosts = hosts;
		one.nhosts = r.nodes;
		rc = fn(&one, arg);
	}
	free(hosts);
	free(d);
	return rc;
}

/* A store of one pool becoming one of several: pool 0, which holds
 * every reservation, gets its ring, a copy of the node ring's counts. */
static int
pool_ring_first(ar_txn *t, uint32_t capacity)
{
	struct ring r = { .dbi = KV_RING, .id = POOL_RING };
	uint32_t *c;
	int64_t run = 0;
	int rc;

	if ((c = malloc((size_t)t->m.horizon * sizeof(*c))) == NULL)
		return ENOMEM;
	if ((rc = ring_begin(&r, t->m.chunks, capacity, t->base,
	    t->m.horizon)) != 0 || (rc = ring_counts(t, &t->ring, t->base,
	    t->base + t->m.horizon, c)) != 0)
		goto out;
	for (int64_t s = 1; s <= t->m.horizon && rc == 0; s++)
		if (s == t->m.horizon || c[s] != c[run]) {
			if (c[run] != 0)
				rc = ring_add(t, &r, t->base + run, t->base + s,
				    c[run]);
			run = s;
		}
	if (rc == 0)
		rc = ring_flush(t, &r);
out:
	ring_free(&r);
	free(c);
	return rc;
}

int
ar_add_hosts(ar_txn *t, const char *text, char *err)
{
	struct layout nl;
	struct ar_hostlist was, now;
	char msg[AR_ERRMAX], *stored = NULL;
	uint32_t *to = NULL;
	int rc, plain;

	snprintf(err, AR_ERRMAX, "out of memory");
	if (!t->write)
		return EACCES;
	if ((rc = layout_need(t)) != 0)
		return rc;
	/* A store without a description is one pool of partition default. */
	if (!(t->m.mode & META_LAYOUT)) {
		if ((stored = malloc(strlen(t->lay.all) + 80)) == NULL)
			return ENOMEM;
		sprintf(stored, "hosts=%s partition=default\n"
		    "partition=default default=yes\n", t->lay.all);
	}
	rc = layout_extend(stored ? stored : t->lay.text, text, &nl, err);
	free(stored);
	if (rc != 0)
		return rc;
	ar_hostlist_init(&was);
	ar_hostlist_init(&now);
	/* Host i of the store becomes to[i] among them all. */
	if (ar_hostlist_parse(t->lay.all, &was, msg) != 0 ||
	    ar_hostlist_parse(nl.all, &now, msg) != 0 ||
	    (to = malloc(was.count * sizeof(*to))) == NULL ||
	    ar_hostlist_find_all(&now, &was, to, msg) != 0)
		rc = ENOMEM;
	/* Tracked hosts are built again by the next admission to need
	 * them; the rest keeps its hosts under their new numbers. */
	if (rc == 0 && (rc = track_reset(t)) == 0 &&
	    (rc = map_renumber(t, to)) == 0 &&
	    (rc = hosts_put(t->txn, nl.all)) == 0) {
		plain = !(t->m.mode & META_LAYOUT) && nl.npools == 1 &&
		    *nl.pool[0].features == '\0';
		if (!plain) {
			t->m.mode |= META_LAYOUT;
			rc = layout_put(t->txn, nl.text);
		}
		if (rc == 0 && t->npools == 1 && nl.npools > 1)
			rc = pool_ring_first(t, nl.pool[0].count);
		t->m.nodes = nl.nodes;
		t->meta_dirty = 1;
		txn_wrote(t);
	}
	if (rc == 0)
		rc = layout_reload(t);
	free(to);
	ar_hostlist_free(&was);
	ar_hostlist_free(&now);
	layout_free(&nl);
	return rc;
}
