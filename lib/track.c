/*
 * track.c - tracked hosts: design A of the host study (README, "The
 * host study, and the design it chose"), in each pool of hosts.
 *
 * The node ring's lemma (map.c) holds for a pool of like hosts as long
 * as hosts only ever join the pool as time goes on.  A host that a
 * reservation names breaks it, so such a host is tracked: out of the
 * pool from the clock until its last explicit use ends (its until), its
 * uses there kept explicitly, by host and start, in `tracked`.  Every
 * reservation that holds a tracked host within that stretch holds it
 * explicitly (its hosts there in `explicit`, under its id); the rest of
 * its nodes, and every other reservation, are the pool's.  The pool at
 * slot s is then the hosts whose until is at most s, which only grows
 * with s, and the pool's reservations map onto it whenever, at every
 * slot from the clock on,
 *
 *     nodes in use (the node ring) + tracked hosts idle (`idle`) <= nodes
 *
 * since the node ring counts the explicit uses and the pool's alike.
 * The idle ring (ring id IDLE_RING + pool, beside the node ring) counts,
 * per slot, the tracked hosts with no explicit use there; so a plain
 * request is checked against the two rings, as fast as against one.
 *
 * A store of several pools (layout.c) is that, pool by pool: a host and
 * every reservation holding it are of one pool, so each pool p tracks
 * its named hosts on its own, with its own idle ring, and the count is
 * its pool ring's (POOL_RING + p) against its hosts.  A request of pool
 * p is checked against pool p's two rings; one that may borrow is so in
 * the pool it takes (search.c chooses it by the rings first).
 *
 * A plain request the count refuses may still fit by holding, itself,
 * tracked hosts that are idle over its interval up to their until
 * (track_take): each one held is idle there no more, and one held past
 * its until stays out of the pool to the request's end, where it is not
 * idle either, so the count only gains.  The fewest that make it fit
 * are held, the longest idle first.
 *
 * The tracking is built from a mapping of the whole plan (track_build,
 * after map.c's sweep) and changed between builds only where an explicit
 * use goes (track_drop): the host is then idle there, or comes
 * (track_hold, after track_take).  A marker entry
 * says it was built; a store upgraded, or one whose writer died between
 * the upgrade and the build, has none, and admission sweeps as before
 * until the next build.  `tracked` holds, in key order:
 *
 *     (pool)                 the marker; empty
 *     (pool, host)           the host's until, a slot (i64)
 *     (pool, host, start)    an explicit use from slot start: struct use
 *
 * pool, host u32 and start u64, big-endian.  Every pool's marker is
 * written by one build, which tracks them all from one mapping of the
 * whole plan: pool 0's says whether the tracking stands.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "internal.h"

/* An explicit use of a host, under (pool, host, start). */
struct use {
	int64_t end;            /* slot */
	uint64_t id;
};

/* An entry of `tracked`, decoded: which it is, by its key's length, and
 * what its key and value hold. */
enum tracked_kind { TRACKED_MARKER, TRACKED_HOST, TRACKED_USE };

struct tracked_entry {
	enum tracked_kind kind;
	uint32_t pool, host;    /* host: of a host or a use */
	int64_t until;          /* a host's */
	int64_t start;          /* a use's, and: */
	struct use use;
};

/* 0, or AR_ECORRUPT for a key or value of no entry's size. */
static int
tracked_decode(const struct kv_val *k, const struct kv_val *v,
    struct tracked_entry *e)
{
	const unsigned char *p = k->data;

	if (k->size != 4 && k->size != 8 && k->size != 16)
		return AR_ECORRUPT;
	e->pool = u32_key(p);
	if (k->size == 4) {
		e->kind = TRACKED_MARKER;
		return 0;
	}
	e->host = u32_key(p + 4);
	if (k->size == 8) {
		if (v->size != sizeof(e->until))
			return AR_ECORRUPT;
		e->kind = TRACKED_HOST;
		memcpy(&e->until, v->data, sizeof(e->until));
		return 0;
	}
	if (v->size != sizeof(e->use))
		return AR_ECORRUPT;
	e->kind = TRACKED_USE;
	e->start = (int64_t)u64_key(p + 8);
	memcpy(&e->use, v->data, sizeof(e->use));
	return 0;
}

/* The head of an entry of `explicit`, under the reservation's id; the
 * hosts' runs follow. */
struct explicit_head {
	int64_t start, end;     /* slots */
};

/* The key of host h of pool p (size 8), or of its use from start (16). */
static void
use_key(unsigned char key[16], uint32_t p, uint32_t h, int64_t start)
{
	key_u32(key, p);
	key_u32(key + 4, h);
	key_u64(key + 8, (uint64_t)start);
}

/* The pool of host h: in a store of one pool, 0. */
static uint32_t
host_pool(const ar_txn *t, uint32_t h)
{
	return t->npools > 1 ? layout_host_pool(&t->lay, h) : 0;
}

/* By host: a struct track_host or take_host, whose first member it is. */
static int
by_host(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Reservation id's entry of `explicit`: its hosts ex over [s, e),
 * with flags for kv_put (KV_NOOVERWRITE: a new entry, where one already
 * there is corrupt). */
static int
explicit_put(ar_txn *t, uint64_t id, int64_t s, int64_t e,
    const struct hostset *ex, unsigned flags)
{
	struct explicit_head head = { s, e };
	unsigned char ik[8], *buf;
	struct kv_val k = { 8, ik }, v;
	int rc;

	v.size = sizeof(head) + ex->n * sizeof(struct run);
	if ((buf = malloc(v.size)) == NULL)
		return ENOMEM;
	memcpy(buf, &head, sizeof(head));
	memcpy(buf + sizeof(head), ex->r, ex->n * sizeof(struct run));
	v.data = buf;
	key_u64(ik, id);
	if ((rc = kv_put(t->txn, KV_EXPLICIT, &k, &v, flags)) == KV_KEYEXIST)
		rc = AR_ECORRUPT;
	free(buf);
	return rc;
}

/* Host h of pool p is used explicitly by reservation id over [s, e),
 * where no use of it began at s before (two uses at once: corrupt). */
static int
use_put(ar_txn *t, uint32_t p, uint32_t h, int64_t s, int64_t e,
    uint64_t id)
{
	unsigned char key[16];
	struct use us = { e, id };
	struct kv_val k = { 16, key }, v = { sizeof(us), &us };
	int rc;

	use_key(key, p, h, s);
	if ((rc = kv_put(t->txn, KV_TRACKED, &k, &v, KV_NOOVERWRITE)) ==
	    KV_KEYEXIST)
		rc = AR_ECORRUPT;
	return rc;
}

int
track_built(ar_txn *t, int *yes)
{
	unsigned char key[4];
	struct kv_val k = { 4, key }, v;
	int rc;

	if (t->tracking < 0) {
		key_u32(key, 0);
		rc = kv_get(t->txn, KV_TRACKED, &k, &v);
		if (rc != 0 && rc != KV_NOTFOUND)
			return rc;
		t->tracking = rc == 0;
	}
	*yes = t->tracking;
	return 0;
}

int
track_fits(ar_txn *t, uint32_t pool, int64_t s, int64_t e, uint64_t need,
    int *ok)
{
	struct ring *used = &t->ring;
	uint32_t hosts = t->m.nodes;
	int rc, over;

	*ok = 0;
	if (pool >= t->npools)
		return AR_ECORRUPT;
	/* One pool: the node ring counts it; several: its own ring. */
	if (t->npools > 1) {
		used = &t->pool[pool];
		hosts = t->lay.pool[pool].count;
	}
	if (need > hosts)
		return 0;
	if ((rc = ring_sum_over(t, used, idle_ring(t, pool), s, e,
	    hosts - (uint32_t)need, &over)) != 0)
		return rc;
	*ok = !over;
	return 0;
}

int
track_fits_every(ar_txn *t, int64_t s, int64_t e, int *ok)
{
	int rc = 0;

	*ok = 1;
	for (uint32_t p = 0; p < t->npools && *ok && rc == 0; p++)
		rc = track_fits(t, p, s, e, 0, ok);
	return rc;
}

int
track_idled(ar_txn *t, int *ok)
{
	int64_t from = t->idled_from, to = t->idled_to;

	t->idled_from = t->idled_to = 0;
	*ok = 1;
	return from < to ? track_fits_every(t, from, to, ok) : 0;
}

/* Pool p's idle ring takes delta over [from, to), clipped to its
 * window. */
static int
idle_add(ar_txn *t, uint32_t p, int64_t from, int64_t to, int64_t delta)
{
	if (from < t->base)
		from = t->base;
	if (to > t->base + t->m.horizon || p >= t->npools)
		return AR_ECORRUPT;
	return from < to ? ring_add(t, idle_ring(t, p), from, to, delta) : 0;
}

/*
 * track_take's walk over one pool's entries of `tracked`: each host
 * whose until is after s and that no explicit use holds over its
 * stretch of [s, e), [s, until) clipped to e, goes into t->take, with
 * the idle time around that stretch.
 */
struct take_walk {
	ar_txn *t;
	uint32_t pool;
	int64_t s, e;
	int have, clear;        /* a host is being walked, free so far */
	int64_t until;          /* ... its until */
	struct take_host h;     /* ... as t->take would hold it */
};

static int
take_close(struct take_walk *w)
{
	ar_txn *t = w->t;

	if (!w->have || !w->clear || w->until <= w->s)
		return 0;
	if (w->h.idle_to == INT64_MAX)
		w->h.idle_to = w->until;
	if (array_room(&t->take, &t->takecap, t->ntake + 1,
	    sizeof(*t->take)) != 0)
		return ENOMEM;
	t->take[t->ntake++] = w->h;
	return 0;
}

static int
take_visit(struct kv_cursor *cur, const struct kv_val *k,
    const struct kv_val *v, void *arg)
{
	struct take_walk *w = arg;
	struct tracked_entry en;
	int rc;

	(void)cur;
	if ((rc = tracked_decode(k, v, &en)) != 0)
		return rc;
	if (en.pool != w->pool)
		return KV_STOP;
	if (en.kind == TRACKED_HOST) {
		if ((rc = take_close(w)) != 0)
			return rc;
		w->until = en.until;
		w->have = w->clear = 1;
		w->h.host = en.host;
		w->h.stop = w->until < w->e ? w->until : w->e;
		w->h.idle_from = w->t->base;
		w->h.idle_to = INT64_MAX;
		if (w->h.host >= w->t->m.nodes)
			return AR_ECORRUPT;
	} else if (en.kind == TRACKED_USE) {
		if (!w->have || en.host != w->h.host)
			return AR_ECORRUPT;
		/* Uses come by start and never overlap. */
		if (en.use.end <= w->s)
			w->h.idle_from = en.use.end;
		else if (en.start >= w->h.stop) {
			if (en.start < w->h.idle_to)
				w->h.idle_to = en.start;
		} else
			w->clear = 0;
	}
	return 0;
}

/* The hosts a request may take: the longest stretch first, then the
 * least idle time around it (best fit: long idle times stay whole for
 * larger requests), then by host. */
static int
by_stretch(const void *a, const void *b)
{
	const struct take_host *x = a, *y = b;
	int64_t ix = x->idle_to - x->idle_from, iy = y->idle_to - y->idle_from;

	if (x->stop != y->stop)
		return x->stop > y->stop ? -1 : 1;
	if (ix != iy)
		return ix < iy ? -1 : 1;
	return x->host < y->host ? -1 : x->host > y->host;
}

/*
 * Would need more nodes fit over [s, e) if the first j hosts of
 * t->take (longest stretch first) were taken (*ok)?  Over the part of
 * [s, e) that i of them cover, a taken host is not idle, so the pool's
 * count and idle ring may come to hosts - need + i.
 */
static int
take_fits(ar_txn *t, struct ring *used, struct ring *idle, uint32_t hosts,
    int64_t s, int64_t e, uint64_t need, size_t j, int *ok)
{
	int64_t to = e, from;
	int rc = 0, over = 0;

	for (size_t i = 0; i <= j && !over && rc == 0; i++, to = from) {
		from = i < j ? t->take[i].stop : s;
		if (from < to)
			rc = ring_sum_over(t, used, idle, from, to,
			    hosts - (uint32_t)need + (uint32_t)i, &over);
	}
	*ok = !over;
	return rc;
}

int
track_take(ar_txn *t, uint32_t pool, int64_t s, int64_t e, uint64_t need,
    int *ok)
{
	unsigned char key[4];
	struct kv_val from = { 4, key };
	struct take_walk w = { .t = t, .pool = pool, .s = s, .e = e };
	struct ring *used = &t->ring;
	uint32_t hosts = t->m.nodes;
	size_t lo, hi;
	int rc, fits;

	*ok = 0;
	t->ntake = 0;
	if (pool >= t->npools)
		return AR_ECORRUPT;
	if (t->npools > 1) {
		used = &t->pool[pool];
		hosts = t->lay.pool[pool].count;
	}
	if (need > hosts)
		return 0;
	key_u32(key, pool);
	if ((rc = kv_walk(t->txn, KV_TRACKED, &from, take_visit, &w)) != 0 &&
	    rc != KV_STOP)
		return rc;
	if ((rc = take_close(&w)) != 0)
		return rc;
	if (t->ntake > 1)
		qsort(t->take, t->ntake, sizeof(*t->take), by_stretch);
	/* The fewest that make it fit, if any does: fitting only gets
	 * easier with more taken. */
	hi = t->ntake < need ? t->ntake : (size_t)need;
	if (hi == 0 || (rc = take_fits(t, used, idle_ring(t, pool), hosts, s,
	    e, need, hi, &fits)) != 0 || !fits) {
		t->ntake = 0;
		return rc;
	}
	for (lo = 1; lo < hi; ) {
		size_t mid = lo + (hi - lo) / 2;

		if ((rc = take_fits(t, used, idle_ring(t, pool), hosts, s, e,
		    need, mid, &fits)) != 0) {
			t->ntake = 0;
			return rc;
		}
		if (fits)
			hi = mid;
		else
			lo = mid + 1;
	}
	t->ntake = hi;
	*ok = 1;
	return 0;
}

int
track_room(ar_txn *t, uint32_t pool, int64_t s, int64_t e, uint64_t need,
    uint64_t jobs, int *ok)
{
	int rc;

	t->ntake = 0;
	if ((rc = track_fits(t, pool, s, e, need, ok)) != 0 || *ok ||
	    jobs != 1)
		return rc;
	return track_take(t, pool, s, e, need, ok);
}

int
track_hold(ar_txn *t, uint32_t pool, uint64_t id, int64_t s, int64_t e)
{
	unsigned char key[8];
	struct kv_val k = { 8, key }, v = { sizeof(e), &e };
	struct hostset ex = { 0 };
	size_t n = t->ntake;
	int rc = 0;

	t->ntake = 0;
	if (n == 0)
		return 0;
	qsort(t->take, n, sizeof(*t->take), by_host);
	txn_wrote(t);
	for (size_t i = 0; i < n && rc == 0; i++) {
		const struct take_host *h = &t->take[i];

		/* Its own from s: out of the pool to e, not idle on the
		 * stretch where it was. */
		rc = use_put(t, pool, h->host, s, e, id);
		if (rc == 0 && h->stop < e) {
			key_u32(key, pool);
			key_u32(key + 4, h->host);
			rc = kv_put(t->txn, KV_TRACKED, &k, &v, 0);
		}
		if (rc == 0)
			rc = idle_add(t, pool, s, h->stop, -1);
		if (rc == 0)
			rc = hostset_append(&ex, h->host, 1);
	}
	if (rc == 0)
		rc = explicit_put(t, id, s, e, &ex, KV_NOOVERWRITE);
	hostset_free(&ex);
	return rc;
}

int
track_explicit(ar_txn *t, uint64_t id, int64_t s, int64_t e,
    struct hostset *ex)
{
	unsigned char key[8];
	struct kv_val k = { 8, key }, v;
	struct explicit_head hd;
	int rc;

	ex->n = 0;
	key_u64(key, id);
	if ((rc = kv_get(t->txn, KV_EXPLICIT, &k, &v)) != 0)
		return rc == KV_NOTFOUND ? 0 : rc;
	if (v.size <= sizeof(hd) ||
	    (v.size - sizeof(hd)) % sizeof(struct run) != 0)
		return AR_ECORRUPT;
	memcpy(&hd, v.data, sizeof(hd));
	if (hd.start != s || hd.end != e)
		return 0;       /* left from a shape it no longer has */
	for (size_t i = sizeof(hd); i < v.size && rc == 0;
	    i += sizeof(struct run)) {
		struct run r;

		memcpy(&r, (const unsigned char *)v.data + i, sizeof(r));
		if (r.count == 0 || (uint64_t)r.first + r.count > t->m.nodes)
			return AR_ECORRUPT;
		rc = hostset_append(ex, r.first, r.count);
	}
	return rc;
}

int
track_drop(ar_txn *t, uint64_t id)
{
	unsigned char key[16], ik[8];
	struct kv_val k = { 16, key }, idk = { 8, ik }, v;
	struct explicit_head hd;
	struct hostset ex = { 0 };
	uint32_t p;
	int rc;

	/* No pin was ever made since the last purge: nothing is tracked
	 * that admission would read. */
	if (t->m.pins == 0)
		return 0;
	key_u64(ik, id);
	if ((rc = kv_get(t->txn, KV_EXPLICIT, &idk, &v)) != 0)
		return rc == KV_NOTFOUND ? 0 : rc;
	if (v.size <= sizeof(hd))
		return AR_ECORRUPT;
	memcpy(&hd, v.data, sizeof(hd));
	if ((rc = track_explicit(t, id, hd.start, hd.end, &ex)) != 0)
		goto out;
	/* A reservation's hosts are all of its pool. */
	p = ex.n > 0 ? host_pool(t, ex.r[0].first) : 0;
	txn_wrote(t);
	for (size_t i = 0; i < ex.n && rc == 0; i++)
		for (uint32_t h = 0; h < ex.r[i].count && rc == 0; h++) {
			use_key(key, p, ex.r[i].first + h, hd.start);
			if ((rc = kv_del(t->txn, KV_TRACKED, &k, NULL)) ==
			    KV_NOTFOUND)
				rc = AR_ECORRUPT;
		}
	if (rc == 0 && ex.n > 0)
		rc = idle_add(t, p, hd.start, hd.end,
		    (int64_t)hostset_count(&ex));
	if (rc == 0 && hd.start < hd.end) {
		if (t->idled_from >= t->idled_to || hd.start < t->idled_from)
			t->idled_from = hd.start < t->base ? t->base : hd.start;
		if (hd.end > t->idled_to)
			t->idled_to = hd.end;
	}
	if (rc == 0)
		rc = kv_del(t->txn, KV_EXPLICIT, &idk, NULL);
out:
	hostset_free(&ex);
	return rc;
}

int
track_stretch(ar_txn *t, uint64_t id, int64_t end, int64_t to)
{
	unsigned char key[16], ik[8];
	struct kv_val k = { 8, key }, idk = { 8, ik }, v;
	struct explicit_head hd;
	struct hostset ex = { 0 };
	struct use us;
	int64_t until;
	int rc, built;

	if ((rc = track_built(t, &built)) != 0 || !built)
		return rc;
	key_u64(ik, id);
	if ((rc = kv_get(t->txn, KV_EXPLICIT, &idk, &v)) != 0 &&
	    rc != KV_NOTFOUND)
		return rc;
	/* Its hosts not tracked as its own up to its end: built again. */
	if (rc == KV_NOTFOUND || v.size <= sizeof(hd) ||
	    (memcpy(&hd, v.data, sizeof(hd)), hd.end != end) ||
	    (rc = track_explicit(t, id, hd.start, hd.end, &ex)) != 0 ||
	    ex.n == 0)
		goto reset;
	for (size_t i = 0; i < ex.n; i++)
		for (uint32_t h = ex.r[i].first; h < ex.r[i].first +
		    ex.r[i].count; h++) {
			use_key(key, host_pool(t, h), h, 0);
			if (kv_get(t->txn, KV_TRACKED, &k, &v) != 0 ||
			    v.size != sizeof(until) ||
			    (memcpy(&until, v.data, sizeof(until)),
			    until != end))
				goto reset;
		}
	/* Its hosts stay out of the pool, held by it, to its new end: the
	 * idle ring does not change. */
	txn_wrote(t);
	for (size_t i = 0; i < ex.n && rc == 0; i++)
		for (uint32_t h = ex.r[i].first; rc == 0 && h <
		    ex.r[i].first + ex.r[i].count; h++) {
			use_key(key, host_pool(t, h), h, 0);
			k.size = 8;
			v = (struct kv_val){ sizeof(to), &to };
			if ((rc = kv_put(t->txn, KV_TRACKED, &k, &v, 0)) != 0)
				break;
			use_key(key, host_pool(t, h), h, hd.start);
			k.size = 16;
			us = (struct use){ to, id };
			v = (struct kv_val){ sizeof(us), &us };
			rc = kv_put(t->txn, KV_TRACKED, &k, &v, 0);
		}
	if (rc == 0)
		rc = explicit_put(t, id, hd.start, to, &ex, 0);
	hostset_free(&ex);
	return rc;
reset:
	hostset_free(&ex);
	return rc != 0 ? rc : track_reset(t);
}

/*
 * A walk over `tracked`: for each tracked host, the stretches of
 * [clock, until) its uses leave idle, each to fn; every entry deleted
 * on the way if del.
 */
struct gaps {
	ar_txn *t;
	int (*fn)(struct gaps *g, int64_t from, int64_t to);
	int del;
	int have;               /* a host is being walked: */
	uint32_t pool, host;
	int64_t until, pos;     /* ... idle from pos, as far as seen */
	uint64_t *expect;       /* track_expect's counts */
	uint32_t markers;       /* ... and the markers met */
};

static int
gaps_close(struct gaps *g)
{
	int rc = 0;

	if (g->have && g->pos < g->until)
		rc = g->fn(g, g->pos, g->until);
	g->have = 0;
	return rc;
}

static int
gaps_visit(struct kv_cursor *cur, const struct kv_val *k,
    const struct kv_val *v, void *arg)
{
	struct gaps *g = arg;
	struct tracked_entry en;
	int rc;

	/* Every key begins with a pool the store has. */
	if ((rc = tracked_decode(k, v, &en)) != 0)
		return rc;
	if (en.pool >= g->t->npools)
		return AR_ECORRUPT;
	if (en.kind == TRACKED_HOST) {
		if ((rc = gaps_close(g)) != 0)
			return rc;
		g->have = 1;
		g->pool = en.pool;
		g->host = en.host;
		g->until = en.until;
		g->pos = g->t->base;
		if (g->host >= g->t->m.nodes ||
		    host_pool(g->t, g->host) != g->pool)
			return AR_ECORRUPT;
	} else if (en.kind == TRACKED_USE) {
		if (!g->have || en.pool != g->pool || en.host != g->host ||
		    en.use.end <= en.start || en.use.end > g->until)
			return AR_ECORRUPT;
		if (en.start > g->pos && g->pos < g->until && (rc = g->fn(g,
		    g->pos, en.start < g->until ? en.start : g->until)) != 0)
			return rc;
		if (en.use.end > g->pos)
			g->pos = en.use.end;
	} else
		g->markers++;
	if (g->del) {
		txn_wrote(g->t);
		return kv_cursor_del(cur);
	}
	return 0;
}

static int
gaps_walk(struct gaps *g)
{
	int rc = kv_walk(g->t->txn, KV_TRACKED, NULL, gaps_visit, g);

	return rc != 0 ? rc : gaps_close(g);
}

static int
gap_add(struct gaps *g, int64_t from, int64_t to)
{
	return idle_add(g->t, g->pool, from, to, 1);
}

static int
gap_sub(struct gaps *g, int64_t from, int64_t to)
{
	return idle_add(g->t, g->pool, from, to, -1);
}

static int
gap_count(struct gaps *g, int64_t from, int64_t to)
{
	uint64_t *expect = g->expect +
	    (size_t)g->pool * (size_t)g->t->m.horizon;

	if (from < g->t->base)
		from = g->t->base;
	if (to > g->t->base + g->t->m.horizon)
		return AR_ECORRUPT;
	for (int64_t s = from; s < to; s++)
		expect[s - g->t->base]++;
	return 0;
}

static int
explicit_del(struct kv_cursor *cur, const struct kv_val *k,
    const struct kv_val *v, void *arg)
{
	(void)k;
	(void)v;
	txn_wrote(arg);
	return kv_cursor_del(cur);
}

int
track_reset(ar_txn *t)
{
	struct gaps g = { .t = t, .fn = gap_sub, .del = 1 };
	int rc;

	t->tracking = 0;
	if ((rc = gaps_walk(&g)) != 0)
		return rc;
	return kv_walk(t->txn, KV_EXPLICIT, NULL, explicit_del, t);
}

int
track_expect(ar_txn *t, uint64_t *expect, uint32_t *markers)
{
	struct gaps g = { .t = t, .fn = gap_count, .expect = expect };
	int rc;

	memset(expect, 0, (size_t)t->npools * (size_t)t->m.horizon *
	    sizeof(*expect));
	rc = gaps_walk(&g);
	*markers = g.markers;
	return rc;
}

/* track_hosts' list, as `tracked` is walked. */
struct host_list {
	ar_txn *t;
	struct track_host *h;
	size_t n, cap;
};

static int
host_row(struct kv_cursor *cur, const struct kv_val *k,
    const struct kv_val *v, void *arg)
{
	struct host_list *l = arg;
	struct tracked_entry en;
	int rc;

	(void)cur;
	if ((rc = tracked_decode(k, v, &en)) != 0)
		return rc;
	if (en.kind != TRACKED_HOST || en.until <= l->t->base)
		return 0;
	if (array_room(&l->h, &l->cap, l->n + 1, sizeof(*l->h)) != 0)
		return ENOMEM;
	l->h[l->n].host = en.host;
	l->h[l->n++].until = en.until;
	return 0;
}

/*
 * `tracked` is in key order, pool then host: by host only in a store of
 * one pool.  Pools need not be runs of hosts in pool order (pool 4 may
 * hold hosts 2-5 and pool 0 host 6), and the sweep (map.c off_tracked)
 * makes a host set of the list, whose runs must ascend: out of order,
 * set difference keeps a tracked host in the hosts a reservation may
 * take, a sweep maps a plan whose pool is over its hosts, and a pool's
 * count overflows its ring.  So the list is sorted by host.
 */
int
track_hosts(ar_txn *t, struct track_host **hosts, size_t *n)
{
	struct host_list l = { t, NULL, 0, 0 };
	int rc = kv_walk(t->txn, KV_TRACKED, NULL, host_row, &l);

	if (rc == 0 && t->npools > 1 && l.n > 1)
		qsort(l.h, l.n, sizeof(*l.h), by_host);
	*hosts = l.h;
	*n = l.n;
	return rc;
}

/* Uses by host then start, for writing them in key order. */
struct held {
	uint32_t host;
	int64_t s, e;
	uint64_t id;
};

static int
by_host_start(const void *a, const void *b)
{
	const struct held *x = a, *y = b;

	if (x->host != y->host)
		return x->host < y->host ? -1 : 1;
	return x->s < y->s ? -1 : x->s > y->s;
}

int
track_build(ar_txn *t, const struct track_use *u, size_t n)
{
	unsigned char key[16];
	struct kv_val k, v;
	int64_t now = t->base, *until;
	struct held *hd = NULL;
	struct hostset ex = { 0 };
	size_t nh = 0, hcap = 0;
	struct gaps g = { .t = t, .fn = gap_add };
	int rc = 0, changed;

	if ((rc = track_reset(t)) != 0)
		return rc;
	if ((until = calloc(t->m.nodes, sizeof(*until))) == NULL)
		return ENOMEM;
	/* Named hosts are tracked until their last named use ends ... */
	for (size_t i = 0; i < n; i++)
		for (size_t r = 0; u[i].named && r < u[i].got->n; r++)
			for (uint32_t h = u[i].got->r[r].first;
			    h < u[i].got->r[r].first + u[i].got->r[r].count; h++)
				if (u[i].e > until[h])
					until[h] = u[i].e;
	/* ... and until every use that begins before that ends. */
	do {
		changed = 0;
		for (size_t i = 0; i < n; i++)
			for (size_t r = 0; r < u[i].got->n; r++)
				for (uint32_t h = u[i].got->r[r].first; h <
				    u[i].got->r[r].first + u[i].got->r[r].count;
				    h++)
					if (until[h] > now && u[i].s < until[h] &&
					    u[i].e > until[h]) {
						until[h] = u[i].e;
						changed = 1;
					}
	} while (changed);
	txn_wrote(t);
	for (size_t i = 0; i < n && rc == 0; i++) {
		ex.n = 0;
		for (size_t r = 0; r < u[i].got->n && rc == 0; r++)
			for (uint32_t h = u[i].got->r[r].first; rc == 0 && h <
			    u[i].got->r[r].first + u[i].got->r[r].count; h++) {
				if (until[h] <= now || u[i].s >= until[h])
					continue;
				if ((rc = hostset_append(&ex, h, 1)) != 0 ||
				    (rc = array_room(&hd, &hcap, nh + 1,
				    sizeof(*hd))) != 0)
					break;
				hd[nh++] = (struct held){ h, u[i].s, u[i].e,
				    u[i].id };
			}
		if (rc != 0 || ex.n == 0)
			continue;
		rc = explicit_put(t, u[i].id, u[i].s, u[i].e, &ex,
		    KV_NOOVERWRITE);
	}
	if (nh > 1)
		qsort(hd, nh, sizeof(*hd), by_host_start);
	for (uint32_t h = 0; h < t->m.nodes && rc == 0; h++) {
		if (until[h] <= now)
			continue;
		use_key(key, host_pool(t, h), h, 0);
		k = (struct kv_val){ 8, key };
		v = (struct kv_val){ sizeof(until[h]), &until[h] };
		rc = kv_put(t->txn, KV_TRACKED, &k, &v, 0);
	}
	for (size_t i = 0; i < nh && rc == 0; i++)
		rc = use_put(t, host_pool(t, hd[i].host), hd[i].host, hd[i].s,
		    hd[i].e, hd[i].id);
	/* Every pool's marker: one mapping tracked them all. */
	for (uint32_t p = 0; p < t->npools && rc == 0; p++) {
		key_u32(key, p);
		k = (struct kv_val){ 4, key };
		v = (struct kv_val){ 0, key };
		rc = kv_put(t->txn, KV_TRACKED, &k, &v, 0);
	}
	if (rc == 0 && (rc = gaps_walk(&g)) == 0)
		t->tracking = 1;
	free(until);
	free(hd);
	hostset_free(&ex);
	return rc;
}
