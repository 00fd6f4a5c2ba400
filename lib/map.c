/*
 * map.c - the plan on named hosts.
 *
 * The ring only counts nodes.  Umar's thesis (sections 3.3.3 and 3.5)
 * shows why that is enough: taken in order of start, each reservation
 * finds the hosts that the ones still running leave, because the ring
 * never lets more than the capacity run at once; so a plan within
 * capacity always maps, and no reservation changes host while it runs.
 * This file makes that sweep over the plan (every live reservation that
 * has not ended by the clock) and keeps its result, the mapping, in
 * `map`, so that what ar_map told stays put:
 *
 * - a reservation that started with hosts never changes them, nor does
 *   one whose hosts were named when it was asked for (a pin, in `pins`);
 *   these are fixed, and the rest of the sweep keeps off their hosts;
 * - any other one keeps the hosts it had if they are free over its
 *   interval, and only otherwise gets new ones, best fit (fewest runs).
 *
 * The started ones all run at the clock, so they fit together; the rest
 * start later, so the thesis's argument holds for them, and the plan
 * always maps while no pin lies in the future.  With pins the sweep may
 * find no hosts for a reservation even though some mapping exists (that
 * is NP-hard to decide in general).  A drain is a pin to the horizon's
 * end: with one in the plan, where the sweep leaves a reservation
 * without hosts, the plan is swept backwards too (sweep_backwards), in
 * which order a drain's hosts only join it; that maps whenever the node
 * counts allow while the drains are the plan's only pins and nothing
 * has started.  So while a pin is in the plan the
 * hosts it names are tracked (track.c): a plain request that fits in the
 * node ring with the tracked hosts' idle time counted as taken maps, and
 * is admitted without a sweep, as is one that fits by holding some of
 * those idle hosts itself.  Where that refuses, and for a request
 * that names hosts, the whole plan is swept, today's way (named and
 * started reservations fixed, the rest anywhere) and then the tracked
 * way; a request is refused if neither maps, and otherwise the mapping
 * found is kept and the tracking built again from it.  ar may then
 * refuse what could have fitted, but it never admits a plan it cannot
 * map.  While the tracking stands, ar_map sweeps the tracked way: a
 * reservation's explicit hosts are fixed, and the rest of its nodes
 * come from the hosts not tracked at its start, which the lemma then
 * covers.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "internal.h"

/* A reservation of the plan, or of the history ar_map reports. */
struct item {
	uint64_t id;
	int64_t s, e;           /* slots */
	uint32_t nodes;
	uint32_t pool;          /* the pool its hosts are of */
	int fixed;              /* its hosts may not change */
	int named;              /* ... since it named them */
	int history;            /* ended by the clock: reported, not mapped */
	int stored;             /* has an entry in `map` */
	int64_t stored_s;       /* ... mapped for this interval */
	int64_t stored_e;
	struct hostset want;    /* fixed: its hosts; else the ones it had */
	struct hostset told;    /* what ar_map told last */
	int untold;             /* ... nothing yet */
	int telling;            /* ar_map tells it now: what it is told
				   becomes what it was told last */
	struct hostset got;     /* what the sweep gave it */
	struct hostset ex;      /* swept the tracked way: its explicit hosts */
	int anywhere;           /* ... it may have a tracked host's free time
				   (a request being admitted) */
};

struct plan {
	ar_txn *t;
	struct item *it;
	size_t n, cap;
	int64_t now;            /* the clock's slot: plan = end > now */
	int tracked;            /* swept the tracked way: */
	struct track_host *trk; /* ... the tracked hosts, by host */
	size_t ntrk;
};

static void
plan_free(struct plan *p)
{
	for (size_t i = 0; i < p->n; i++) {
		hostset_free(&p->it[i].want);
		hostset_free(&p->it[i].told);
		hostset_free(&p->it[i].got);
		hostset_free(&p->it[i].ex);
	}
	free(p->it);
	free(p->trk);
	p->trk = NULL;
	p->ntrk = 0;
	p->it = NULL;
	p->n = p->cap = 0;
}

static int
plan_item(struct plan *p, struct item **ip)
{
	if (array_room(&p->it, &p->cap, p->n + 1, sizeof(*p->it)) != 0)
		return ENOMEM;
	*ip = &p->it[p->n++];
	memset(*ip, 0, sizeof(**ip));
	(*ip)->untold = 1;      /* until an entry in `map` says otherwise */
	return 0;
}

/* Runs as stored (u32 first, u32 count each) into a set. */
static int
runs_load(struct hostset *s, const unsigned char *p, uint32_t n,
    uint32_t nodes)
{
	struct run r;
	int rc;

	s->n = 0;
	for (uint32_t i = 0; i < n; i++) {
		memcpy(&r, p + i * sizeof(r), sizeof(r));
		if (r.count == 0 || (uint64_t)r.first + r.count > nodes ||
		    (s->n > 0 && r.first <= s->r[s->n - 1].first +
		    s->r[s->n - 1].count))
			return AR_ECORRUPT;
		if ((rc = hostset_append(s, r.first, r.count)) != 0)
			return rc;
	}
	return 0;
}

int
map_entry_decode(const ar_txn *t, const struct kv_val *v, struct disk_map *d,
    struct hostset *hosts, struct hostset *told)
{
	const unsigned char *p = v->data;
	int rc;

	if (v->size < sizeof(*d))
		return AR_ECORRUPT;
	memcpy(d, p, sizeof(*d));
	if (v->size != sizeof(*d) + ((uint64_t)d->runs +
	    (d->printed == MAP_UNTOLD ? 0 : d->printed)) * sizeof(struct run))
		return AR_ECORRUPT;
	if ((rc = runs_load(hosts, p + sizeof(*d), d->runs, t->m.nodes)) != 0)
		return rc;
	if (hostset_count(hosts) != d->nodes)
		return AR_ECORRUPT;
	told->n = 0;
	if (d->printed == MAP_UNTOLD)
		return 0;
	return runs_load(told, p + sizeof(*d) + d->runs * sizeof(struct run),
	    d->printed, t->m.nodes);
}

/* Reservation id's entry in dbi (`map` or `exported`), if it has one
 * (*found). */
static int
entry_get(ar_txn *t, enum kv_table dbi, uint64_t id, struct item *it, int *found)
{
	unsigned char key[8];
	struct kv_val k = { 8, key }, v;
	struct disk_map d;
	int rc;

	*found = 0;
	key_u64(key, id);
	if ((rc = kv_get(t->txn, dbi, &k, &v)) != 0)
		return rc == KV_NOTFOUND ? 0 : rc;
	if ((rc = map_entry_decode(t, &v, &d, &it->want, &it->told)) != 0)
		return rc;
	it->untold = d.printed == MAP_UNTOLD;
	it->stored = 1;
	it->stored_s = d.start;
	it->stored_e = d.start + d.slots;
	*found = 1;
	return 0;
}

/* Write the entry of reservation it into dbi: its interval and hosts,
 * and the hosts told (NULL: none yet). */
static int
entry_write(ar_txn *t, enum kv_table dbi, const struct item *it,
    const struct hostset *hosts, const struct hostset *told)
{
	unsigned char key[8], *buf;
	struct kv_val k = { 8, key }, v;
	struct disk_map d;
	size_t ntold = told != NULL ? told->n : 0;
	int rc;

	memset(&d, 0, sizeof(d));
	d.start = it->s;
	d.slots = (uint32_t)(it->e - it->s);
	d.nodes = it->nodes;
	d.runs = (uint32_t)hosts->n;
	d.printed = told != NULL ? (uint32_t)told->n : MAP_UNTOLD;
	v.size = sizeof(d) + (hosts->n + ntold) * sizeof(struct run);
	if ((buf = malloc(v.size)) == NULL)
		return ENOMEM;
	memcpy(buf, &d, sizeof(d));
	if (hosts->n > 0)
		memcpy(buf + sizeof(d), hosts->r, hosts->n * sizeof(struct run));
	if (ntold > 0)
		memcpy(buf + sizeof(d) + hosts->n * sizeof(struct run),
		    told->r, ntold * sizeof(struct run));
	key_u64(key, it->id);
	v.data = buf;
	txn_wrote(t);
	rc = kv_put(t->txn, dbi, &k, &v, 0);
	free(buf);
	return rc;
}

/* Keep what the sweep gave item it, and if ar_map tells it now, that
 * as what it was told. */
static int
entry_put(ar_txn *t, const struct item *it)
{
	const struct hostset *tl = it->telling ? &it->got :
	    it->untold ? NULL : &it->told;

	/* Unchanged: no write. */
	if (it->stored && it->stored_s == it->s && it->stored_e == it->e &&
	    hostset_equal(&it->want, &it->got) && (!it->telling ||
	    (!it->untold && hostset_equal(&it->told, &it->got))))
		return 0;
	return entry_write(t, KV_MAP, it, &it->got, tl);
}

int
map_pin(ar_txn *t, const struct ar_resv *r, const uint32_t *hosts,
    uint32_t n, int add)
{
	unsigned char key[16];
	struct kv_val k = { 16, key }, v;
	struct hostset s = { 0 };
	int rc = 0;

	pin_key(key, r->end / t->m.slot, r->id);
	t->pins = -1;
	t->meta_dirty = 1;
	txn_wrote(t);
	if (!add) {
		if ((rc = kv_del(t->txn, KV_PINS, &k, NULL)) != 0 ||
		    t->m.pins == 0)
			return rc == KV_NOTFOUND || rc == 0 ? AR_ECORRUPT : rc;
		t->m.pins--;
		return 0;
	}
	for (uint32_t i = 0; i < n && rc == 0; i++)
		rc = hostset_append(&s, hosts[i], 1);
	if (rc == 0) {
		v.size = s.n * sizeof(struct run);
		v.data = s.r;
		rc = kv_put(t->txn, KV_PINS, &k, &v, KV_NOOVERWRITE);
	}
	hostset_free(&s);
	if (rc == 0)
		t->m.pins++;
	return rc == KV_KEYEXIST ? AR_ECORRUPT : rc;
}

int
map_pinned(ar_txn *t, int *yes)
{
	unsigned char key[16];
	struct kv_val k = { 16, key }, v;
	struct kv_cursor *cur;
	int rc;

	/* No pins at all, the common case: no lookup. */
	if (t->m.pins == 0)
		t->pins = 0;
	if (t->pins < 0) {
		pin_key(key, t->now / t->m.slot + 1, 0);
		if ((rc = kv_cursor_open(t->txn, KV_PINS, &cur)) != 0)
			return rc;
		rc = kv_cursor_get(cur, &k, &v, KV_SET_RANGE);
		kv_cursor_close(cur);
		if (rc != 0 && rc != KV_NOTFOUND)
			return rc;
		t->pins = rc == 0;
	}
	*yes = t->pins;
	return 0;
}

/* Whether reservation id has an entry in dbi (`map` or `exported`). */
static int
entry_there(ar_txn *t, enum kv_table dbi, uint64_t id, int *yes)
{
	unsigned char key[8];
	struct kv_val k = { 8, key }, v;
	int rc;

	key_u64(key, id);
	rc = kv_get(t->txn, dbi, &k, &v);
	*yes = rc == 0;
	return rc == KV_NOTFOUND ? 0 : rc;
}

int
map_kept(ar_txn *t, uint64_t id, int *yes)
{
	return entry_there(t, KV_MAP, id, yes);
}

int
map_forget(ar_txn *t, uint64_t id)
{
	unsigned char key[8];
	struct kv_val k = { 8, key };
	int rc;

	key_u64(key, id);
	txn_wrote(t);
	if ((rc = kv_del(t->txn, KV_MAP, &k, NULL)) != 0 &&
	    rc != KV_NOTFOUND)
		return rc;
	rc = kv_del(t->txn, KV_EXPORTED, &k, NULL);
	return rc == KV_NOTFOUND ? 0 : rc;
}

int
map_prune(ar_txn *t)
{
	uint64_t last = (uint64_t)(t->now / t->m.slot);
	struct kv_cursor *cur;
	struct kv_val k, v;
	int rc;

	if (t->m.pins == 0)
		return 0;
	if ((rc = kv_cursor_open(t->txn, KV_PINS, &cur)) != 0)
		return rc;
	txn_wrote(t);
	while ((rc = kv_cursor_get(cur, &k, &v, KV_FIRST)) == 0 &&
	    k.size == 16 && u64_key(k.data) <= last) {
		if ((rc = kv_cursor_del(cur)) != 0)
			break;
		if (t->m.pins == 0) {
			rc = AR_ECORRUPT;
			break;
		}
		t->m.pins--;
		t->meta_dirty = 1;
	}
	kv_cursor_close(cur);
	return rc == KV_NOTFOUND || rc == 0 ? 0 : rc;
}

int
map_pin_decode(const ar_txn *t, const struct kv_val *v, struct hostset *s)
{
	if (v->size == 0 || v->size % sizeof(struct run) != 0)
		return AR_ECORRUPT;
	return runs_load(s, v->data, (uint32_t)(v->size /
	    sizeof(struct run)), t->m.nodes);
}

/* The entries of a table, copied before any is rewritten. */
struct copies {
	struct kv_val *k, *v;
	size_t n, cap;
};

static int
copy_entry(struct kv_cursor *cur, const struct kv_val *k,
    const struct kv_val *v, void *arg)
{
	struct copies *c = arg;
	struct kv_val *grown;

	(void)cur;
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 64;
		if ((grown = realloc(c->k, c->cap * sizeof(*grown))) == NULL)
			return ENOMEM;
		c->k = grown;
		if ((grown = realloc(c->v, c->cap * sizeof(*grown))) == NULL)
			return ENOMEM;
		c->v = grown;
	}
	c->k[c->n].data = c->v[c->n].data = NULL;
	if ((c->k[c->n].data = malloc(k->size + 1)) == NULL ||
	    (c->v[c->n].data = malloc(v->size + 1)) == NULL) {
		free(c->k[c->n].data);
		return ENOMEM;
	}
	memcpy(c->k[c->n].data, k->data, k->size);
	memcpy(c->v[c->n].data, v->data, v->size);
	c->k[c->n].size = k->size;
	c->v[c->n++].size = v->size;
	return 0;
}

/* Set s's hosts through to[] (increasing), in place, by way of tmp. */
static int
renumbered(struct hostset *s, const uint32_t *to, struct hostset *tmp)
{
	int rc = 0;

	tmp->n = 0;
	for (size_t i = 0; i < s->n && rc == 0; i++)
		for (uint32_t j = 0; j < s->r[i].count && rc == 0; j++) {
			uint32_t h = to[s->r[i].first + j];

			if (tmp->n > 0 && tmp->r[tmp->n - 1].first +
			    tmp->r[tmp->n - 1].count == h)
				tmp->r[tmp->n - 1].count++;
			else
				rc = hostset_append(tmp, h, 1);
		}
	if (rc == 0)
		hostset_swap(s, tmp);
	return rc;
}

int
map_renumber(ar_txn *t, const uint32_t *to)
{
	static const enum kv_table tables[] = { KV_PINS, KV_MAP, KV_EXPORTED };
	struct hostset hosts = { 0 }, told = { 0 }, tmp = { 0 };
	struct copies c = { 0 };
	struct disk_map d;
	unsigned char *buf = NULL;
	size_t cap = 0, size;
	int rc = 0;

	for (size_t ti = 0; ti < 3 && rc == 0; ti++) {
		int pin = tables[ti] == KV_PINS;

		c.n = 0;
		if ((rc = kv_walk(t->txn, tables[ti], NULL, copy_entry,
		    &c)) != 0)
			break;
		for (size_t i = 0; i < c.n && rc == 0; i++) {
			if ((rc = pin ? map_pin_decode(t, &c.v[i], &hosts) :
			    map_entry_decode(t, &c.v[i], &d, &hosts,
			    &told)) != 0 ||
			    (rc = renumbered(&hosts, to, &tmp)) != 0 ||
			    (rc = renumbered(&told, to, &tmp)) != 0)
				break;
			size = (pin ? 0 : sizeof(d)) + (hosts.n + told.n) *
			    sizeof(struct run);
			if (size > cap) {
				free(buf);
				if ((buf = malloc(cap = size)) == NULL) {
					rc = ENOMEM;
					break;
				}
			}
			if (!pin) {
				d.runs = (uint32_t)hosts.n;
				if (d.printed != MAP_UNTOLD)
					d.printed = (uint32_t)told.n;
				memcpy(buf, &d, sizeof(d));
			}
			memcpy(buf + (pin ? 0 : sizeof(d)), hosts.r,
			    hosts.n * sizeof(struct run));
			if (told.n > 0)
				memcpy(buf + sizeof(d) + hosts.n *
				    sizeof(struct run), told.r,
				    told.n * sizeof(struct run));
			told.n = 0;
			txn_wrote(t);
			rc = kv_put(t->txn, tables[ti], &c.k[i],
			    &(struct kv_val){ size, buf }, 0);
		}
		for (size_t i = 0; i < c.n; i++) {
			free(c.k[i].data);
			free(c.v[i].data);
		}
	}
	free(c.k);
	free(c.v);
	free(buf);
	hostset_free(&hosts);
	hostset_free(&told);
	hostset_free(&tmp);
	return rc;
}

/* Reservation r's pinned hosts into s. */
static int
pin_get(ar_txn *t, const struct ar_resv *r, struct hostset *s)
{
	unsigned char key[16];
	struct kv_val k = { 16, key }, v;
	int rc;

	pin_key(key, r->end / t->m.slot, r->id);
	if ((rc = kv_get(t->txn, KV_PINS, &k, &v)) != 0)
		return rc == KV_NOTFOUND ? AR_ECORRUPT : rc;
	if ((rc = map_pin_decode(t, &v, s)) != 0)
		return rc;
	return hostset_count(s) == r->nodes ? 0 : AR_ECORRUPT;
}

/* Host runs as indexes, into a buffer that grows. */
static int
expand(const struct hostset *s, uint32_t **buf, size_t *cap, size_t *n)
{
	size_t k = 0;

	if (array_room(buf, cap, hostset_count(s), sizeof(**buf)) != 0)
		return ENOMEM;
	for (size_t i = 0; i < s->n; i++)
		for (uint32_t h = 0; h < s->r[i].count; h++)
			(*buf)[k++] = s->r[i].first + h;
	*n = k;
	return 0;
}

int
map_pin_hosts(ar_txn *t, const struct ar_resv *r, uint32_t **hosts)
{
	struct hostset s = { 0 };
	size_t cap = 0, n;
	int rc;

	*hosts = NULL;
	if ((rc = pin_get(t, r, &s)) == 0 &&
	    (rc = expand(&s, hosts, &cap, &n)) != 0) {
		free(*hosts);
		*hosts = NULL;
	}
	hostset_free(&s);
	return rc;
}

/* Enter reservation r in the plan (or, history, in the report). */
static int
plan_resv(struct plan *p, const struct ar_resv *r, int history)
{
	ar_txn *t = p->t;
	struct item *it;
	int rc, found;

	if ((rc = plan_item(p, &it)) != 0)
		return rc;
	it->id = r->id;
	it->s = r->start / t->m.slot;
	it->e = r->end / t->m.slot;
	it->nodes = r->nodes;
	it->pool = r->pool;
	it->history = history;
	if ((rc = entry_get(t, KV_MAP, r->id, it, &found)) != 0)
		return rc;
	if (history)
		return hostset_copy(&it->got, &it->want);
	if (p->tracked && !r->named && (rc = track_explicit(t, r->id, it->s,
	    it->e, &it->ex)) != 0)
		return rc;
	if (r->named) {
		it->fixed = it->named = 1;
		return pin_get(t, r, &it->want);
	}
	/* Started with hosts: they stay, also when it was made longer or
	 * shorter since (ar_modify keeps a started one's start and nodes). */
	if (found && it->s <= p->now && it->stored_s == it->s &&
	    hostset_count(&it->want) == it->nodes)
		it->fixed = 1;
	if (found && it->want.n > 0 && hostset_count(&it->want) != it->nodes)
		it->want.n = 0;
	return 0;
}

static int
plan_visit(ar_txn *t, const struct slot_entry *e, void *arg)
{
	struct plan *p = arg;
	struct ar_resv r;
	int rc;

	if ((rc = resv_get(t, e->id & ~ENTRY_LABELLED, &r)) != 0)
		return rc == AR_ENOTFOUND ? AR_ECORRUPT : rc;
	if (r.state != AR_GRANTED || r.end / t->m.slot <= p->now)
		return 0;
	return plan_resv(p, &r, 0);
}

/* A reader's drains stretched in memory (drains_view) reach the end of
 * its horizon in the plan too, also those that ended by its clock as
 * stored. */
static int
plan_stretched(struct plan *p)
{
	ar_txn *t = p->t;
	struct ar_resv r;
	size_t k;
	int rc;

	for (size_t i = 0; i < t->nstretched; i++) {
		for (k = 0; k < p->n && p->it[k].id != t->stretched[i]; k++)
			;
		if (k == p->n) {
			if ((rc = resv_get(t, t->stretched[i], &r)) != 0)
				return rc == AR_ENOTFOUND ? AR_ECORRUPT : rc;
			if ((rc = plan_resv(p, &r, 0)) != 0)
				return rc;
		}
		p->it[k].e = t->base + t->m.horizon;
	}
	return 0;
}

/* Every live reservation that has not ended by the clock; tracked: to
 * be swept the tracked way. */
static int
plan_load(ar_txn *t, struct plan *p, int tracked)
{
	int rc;

	memset(p, 0, sizeof(*p));
	p->t = t;
	p->now = t->now / t->m.slot;
	p->tracked = tracked;
	if (tracked && (rc = track_hosts(t, &p->trk, &p->ntrk)) != 0)
		return rc;
	if ((rc = slots_scan(t, &t->ends, (uint64_t)p->now + 1, UINT64_MAX,
	    plan_visit, p)) != 0)
		return rc;
	return plan_stretched(p);
}

/* Is the tracking built, and a pin in the plan: sweep the tracked way? */
static int
tracked_way(ar_txn *t, int *yes)
{
	int rc;

	*yes = 0;
	if ((rc = map_pinned(t, yes)) != 0 || !*yes)
		return rc;
	return track_built(t, yes);
}

static void
plan_sort(struct plan *p, int (*cmp)(const void *, const void *))
{
	if (p->n > 1)
		qsort(p->it, p->n, sizeof(*p->it), cmp);
}

/* Sweep order: by start, the fixed ones first, then by id.  A request
 * being asked about (id 0) goes after the others, where it will be once
 * granted under the next id: the sweep that asks must be the one that
 * admission then makes, or a start ar_suggest offers ar_add refuses. */
static int
by_start(const void *a, const void *b)
{
	const struct item *x = a, *y = b;
	uint64_t xid = x->id - 1, yid = y->id - 1;      /* 0 is largest */

	if (x->s != y->s)
		return x->s < y->s ? -1 : 1;
	if (x->fixed != y->fixed)
		return x->fixed ? -1 : 1;
	return xid < yid ? -1 : xid > yid;
}

/* The running reservations, a heap by end. */
struct running {
	struct item **h;
	size_t n;
};

static void
running_push(struct running *q, struct item *it)
{
	size_t i = q->n++;

	for (; i > 0 && q->h[(i - 1) / 2]->e > it->e; i = (i - 1) / 2)
		q->h[i] = q->h[(i - 1) / 2];
	q->h[i] = it;
}

static struct item *
running_pop(struct running *q)
{
	struct item *top = q->h[0], *last = q->h[--q->n];
	size_t i = 0, c;

	while ((c = 2 * i + 1) < q->n) {
		if (c + 1 < q->n && q->h[c + 1]->e < q->h[c]->e)
			c++;
		if (q->h[c]->e >= last->e)
			break;
		q->h[i] = q->h[c];
		i = c;
	}
	q->h[i] = last;
	return top;
}

/* Who, running or fixed, holds host h: the reservation in the way. */
static uint64_t
holder(const struct running *q, const struct hostset *s)
{
	for (size_t i = 0; i < q->n; i++)
		if (hostset_common(&q->h[i]->got, s) >= 0)
			return q->h[i]->id;
	return 0;
}

/*
 * What the sweep keeps as it goes through the plan in order of start:
 * the hosts free at the start it is at, the reservations running then
 * (a heap by end), and the fixed ones in order of start, from fp on
 * those that start later.
 */
struct sweeper {
	struct hostset free_, blocked, tmp, avail, part;
	struct running q;
	struct item **fixed;
	size_t nfixed, fp;
	int first_fit;
	const struct plan *p;   /* swept the tracked way if p->tracked */
};

/* The tracked way: the hosts still tracked at slot s leave avail.  The
 * list ascends by host (track_hosts sorts it), as the runs of a host set
 * must for hostset_minus; in `tracked` it is by pool first.  Each pool's
 * tracked hosts are out of its own hosts until their until, as design A
 * asks of the pool, whichever pool another tracked host is in. */
static int
off_tracked(struct sweeper *w, int64_t s)
{
	int rc;

	w->blocked.n = 0;
	for (size_t i = 0; i < w->p->ntrk; i++)
		if (w->p->trk[i].until > s &&
		    (rc = hostset_append(&w->blocked, w->p->trk[i].host, 1)) != 0)
			return rc;
	if ((rc = hostset_minus(&w->tmp, &w->avail, &w->blocked)) != 0)
		return rc;
	hostset_swap(&w->avail, &w->tmp);
	return 0;
}

/* The tracked way, for it, which holds explicit hosts: those, free now,
 * and the rest of its nodes from avail, the ones it had if it can. */
static int
sweep_explicit(struct sweeper *w, struct item *it)
{
	uint64_t rest = it->nodes - hostset_count(&it->ex);
	int rc;

	if (!hostset_subset(&it->ex, &w->free_))
		return ENOSPC;
	if (it->want.n > 0) {
		if ((rc = hostset_minus(&w->part, &it->want, &it->ex)) != 0)
			return rc;
		if (hostset_count(&w->part) == rest &&
		    hostset_subset(&w->part, &w->avail))
			return hostset_copy(&it->got, &it->want);
	}
	if (rest == 0)
		return hostset_copy(&it->got, &it->ex);
	if ((rc = hostset_choose(&w->part, &w->avail, rest,
	    w->first_fit)) != 0)
		return rc;
	return hostset_union(&it->got, &it->ex, &w->part);
}

/* The hosts of the reservations that end by slot s are free again. */
static int
sweep_ended(struct sweeper *w, int64_t s)
{
	int rc;

	while (w->q.n > 0 && w->q.h[0]->e <= s) {
		struct item *done = running_pop(&w->q);

		if ((rc = hostset_union(&w->tmp, &w->free_, &done->got)) != 0)
			return rc;
		hostset_swap(&w->free_, &w->tmp);
	}
	return 0;
}

/* Hosts for it, which is not fixed: the ones it had if they are free
 * over its interval, else best (or first) fit; either way off the hosts
 * of fixed ones that start while it runs.  ENOSPC with *pin the first
 * of those, or 0, if there are not enough. */
static int
sweep_other(struct sweeper *w, struct item *it, uint64_t *pin)
{
	int rc;

	while (w->fp < w->nfixed && w->fixed[w->fp]->s <= it->s)
		w->fp++;
	w->blocked.n = 0;
	*pin = 0;
	for (size_t k = w->fp; k < w->nfixed && w->fixed[k]->s < it->e;
	    k++) {
		if (*pin == 0)
			*pin = w->fixed[k]->id;
		if ((rc = hostset_union(&w->tmp, &w->blocked,
		    w->fixed[k]->fixed ? &w->fixed[k]->want :
		    &w->fixed[k]->ex)) != 0)
			return rc;
		hostset_swap(&w->blocked, &w->tmp);
	}
	if ((rc = hostset_minus(&w->avail, &w->free_, &w->blocked)) != 0)
		return rc;
	/* A store of several pools: its pool's hosts only. */
	if (w->p->t->npools > 1) {
		if (it->pool >= w->p->t->npools)
			return AR_ECORRUPT;
		if ((rc = hostset_minus(&w->tmp, &w->avail,
		    &w->p->t->lay.pool[it->pool].others)) != 0)
			return rc;
		hostset_swap(&w->avail, &w->tmp);
	}
	if (w->p->tracked) {
		if (!it->anywhere && (rc = off_tracked(w, it->s)) != 0)
			return rc;
		if (it->ex.n > 0)
			return sweep_explicit(w, it);
	}
	if (it->want.n > 0 && hostset_subset(&it->want, &w->avail))
		return hostset_copy(&it->got, &it->want);
	return hostset_choose(&it->got, &w->avail, it->nodes, w->first_fit);
}

/*
 * Hosts for item it at its start, and it runs: a fixed one its own, if
 * they are free, another as sweep_other finds them.  *failed is it if
 * there are none for it, and *conflict the reservation in its way (for
 * a fixed one, whoever holds its hosts; for another, the first pin it
 * had to keep off, or whoever runs).
 */
static int
sweep_one(struct sweeper *w, struct item *it, struct item **failed,
    uint64_t *conflict)
{
	uint64_t pin;
	int rc;

	if ((rc = sweep_ended(w, it->s)) != 0)
		return rc;
	if (it->fixed) {
		if (!hostset_subset(&it->want, &w->free_)) {
			*failed = it;
			*conflict = holder(&w->q, &it->want);
			return 0;
		}
		rc = hostset_copy(&it->got, &it->want);
	} else if ((rc = sweep_other(w, it, &pin)) == ENOSPC) {
		*failed = it;
		*conflict = pin != 0 ? pin : holder(&w->q, &w->free_);
		return 0;
	}
	if (rc != 0 ||
	    (rc = hostset_minus(&w->tmp, &w->free_, &it->got)) != 0)
		return rc;
	hostset_swap(&w->free_, &w->tmp);
	running_push(&w->q, it);
	return 0;
}

/*
 * The sweep.  On success every item of the plan has its hosts in got;
 * otherwise *failed is the item that found none and *conflict the
 * reservation in its way.
 */
static int
sweep(struct plan *p, int first_fit, struct item **failed,
    uint64_t *conflict)
{
	struct sweeper w;
	int rc;

	*failed = NULL;
	*conflict = 0;
	memset(&w, 0, sizeof(w));
	w.first_fit = first_fit;
	w.p = p;
	plan_sort(p, by_start);
	if ((w.q.h = malloc((p->n + 1) * sizeof(*w.q.h))) == NULL ||
	    (w.fixed = malloc((p->n + 1) * sizeof(*w.fixed))) == NULL) {
		rc = ENOMEM;
		goto out;
	}
	/* The tracked way, explicit hosts too are kept off. */
	for (size_t i = 0; i < p->n; i++)
		if ((p->it[i].fixed || p->it[i].ex.n > 0) && !p->it[i].history)
			w.fixed[w.nfixed++] = &p->it[i];
	if ((rc = hostset_append(&w.free_, 0, p->t->m.nodes)) != 0)
		goto out;
	for (size_t i = 0; i < p->n && rc == 0 && *failed == NULL; i++)
		if (!p->it[i].history)
			rc = sweep_one(&w, &p->it[i], failed, conflict);
out:
	free(w.q.h);
	free(w.fixed);
	hostset_free(&w.free_);
	hostset_free(&w.blocked);
	hostset_free(&w.tmp);
	hostset_free(&w.avail);
	hostset_free(&w.part);
	return rc;
}

/* Keep the sweep's result, and what ar_map tells now as told. */
static int
plan_store(struct plan *p)
{
	int rc;

	for (size_t i = 0; i < p->n; i++)
		if (!p->it[i].history &&
		    (rc = entry_put(p->t, &p->it[i])) != 0)
			return rc;
	return 0;
}

/* The plan's times mirrored about slot h: [s, e) becomes [h - e, h - s),
 * so that what ends last starts first. */
static void
plan_mirror(struct plan *p, int64_t h)
{
	for (size_t i = 0; i < p->n; i++) {
		int64_t s = p->it[i].s;

		p->it[i].s = h - p->it[i].e;
		p->it[i].e = h - s;
	}
}

/*
 * The plan swept backwards in time, today's way (*ok if it maps).  A
 * drain holds its hosts from its start to the horizon's end; mirrored,
 * its hosts join the plan at a time and never leave, so, as in the
 * thesis's lemma, the hosts free at a start are as good as one another
 * and the sweep maps the plan whenever the counts allow, as long as no
 * other reservation in it is fixed (started, or naming its hosts).
 */
static int
sweep_backwards(struct plan *p, int *ok)
{
	struct item *failed;
	uint64_t conflict;
	int64_t h = 0;
	int rc;

	for (size_t i = 0; i < p->n; i++)
		if (!p->it[i].history && p->it[i].e > h)
			h = p->it[i].e;
	plan_mirror(p, h);
	rc = sweep(p, 0, &failed, &conflict);
	plan_mirror(p, h);
	*ok = rc == 0 && failed == NULL;
	return rc;
}

/* Is a drain in the plan?  Then a sweep backwards is worth its cost
 * where the forward one leaves a reservation without hosts. */
static int
plan_drained(ar_txn *t, int *yes)
{
	struct disk_drain *d;
	size_t n;
	int rc;

	*yes = 0;
	if (t->m.pins == 0)
		return 0;       /* a drain is a pin */
	if ((rc = drains_read(t, &d, &n)) != 0)
		return rc;
	free(d);
	*yes = n > 0;
	return 0;
}

/* Enter the request rq at [start, start + slots) in the plan, as *itp:
 * no id yet, of pool `pool`, fixed on its hosts if it names them. */
static int
plan_request(struct plan *p, const struct ar_request *rq, uint32_t pool,
    int64_t start, int64_t slots, struct item **itp)
{
	struct item *it;
	int rc;

	if ((rc = plan_item(p, itp)) != 0)
		return rc;
	it = *itp;
	it->s = start;
	it->e = start + slots;
	it->nodes = rq->nodes;
	it->pool = pool;
	it->fixed = it->named = rq->nhosts > 0;
	for (uint32_t i = 0; i < rq->nhosts && rc == 0; i++)
		rc = hostset_append(&it->want, rq->hosts[i], 1);
	return rc;
}

/* What a sweep of the plan one way or the other is asked about: a
 * request rq of pool `pool` at start, or reservation id moved to
 * [start, end). */
struct asked {
	const struct ar_request *rq;
	uint32_t pool;
	uint64_t id;
	int64_t start, end;
};

/* Today's way, then (if the tracking stands) the tracked way, as
 * map_after_admission sweeps: *ok if either maps; *conflict today's. */
static int
both_ways(ar_txn *t, int (*way)(ar_txn *, const struct asked *, int, int *,
    uint64_t *), const struct asked *a, int *ok, uint64_t *conflict)
{
	uint64_t c;
	int rc, tracked;

	if ((rc = way(t, a, 0, ok, conflict)) != 0 || *ok ||
	    (rc = tracked_way(t, &tracked)) != 0 || !tracked)
		return rc;
	return way(t, a, 1, ok, &c);
}

/* The plan with the request at [start, end), swept today's way or the
 * tracked way, where the request may have a tracked host's free time. */
static int
fits_way(ar_txn *t, const struct asked *a, int tracked, int *ok,
    uint64_t *conflict)
{
	struct plan p;
	struct item *it, *failed;
	int rc, drained;

	*ok = 0;
	if ((rc = plan_load(t, &p, tracked)) != 0 ||
	    (rc = plan_request(&p, a->rq, a->pool, a->start,
	    a->end - a->start, &it)) != 0)
		goto out;
	it->anywhere = tracked;
	if ((rc = sweep(&p, 0, &failed, conflict)) != 0)
		goto out;
	*ok = failed == NULL;
	/* The request's own hosts taken: whoever holds them.  Another
	 * reservation left without hosts: that one. */
	if (failed != NULL && failed->id != 0)
		*conflict = failed->id;
	/* Today's way, with a drain in the plan: backwards too, as
	 * map_after_admission then sweeps. */
	if (!*ok && !tracked && (rc = plan_drained(t, &drained)) == 0 &&
	    drained)
		rc = sweep_backwards(&p, ok);
out:
	plan_free(&p);
	return rc;
}

int
map_fits(ar_txn *t, const struct ar_request *rq, uint32_t pool,
    int64_t start, int64_t slots, int *ok, uint64_t *conflict)
{
	struct asked a = { rq, pool, 0, start, start + slots };

	return both_ways(t, fits_way, &a, ok, conflict);
}

/* The plan with reservation id over [start, end), swept today's way or
 * the tracked way: there, as admission sees it, it holds no explicit
 * hosts in its new shape. */
static int
moved_way(ar_txn *t, const struct asked *a, int tracked, int *ok,
    uint64_t *conflict)
{
	struct plan p;
	struct item *failed;
	int rc;

	*ok = 0;
	*conflict = 0;
	if ((rc = plan_load(t, &p, tracked)) != 0)
		goto out;
	for (size_t i = 0; i < p.n; i++)
		if (p.it[i].id == a->id) {
			p.it[i].s = a->start;
			p.it[i].e = a->end;
			p.it[i].ex.n = 0;
			p.it[i].anywhere = tracked;
		}
	if ((rc = sweep(&p, 0, &failed, conflict)) != 0)
		goto out;
	*ok = failed == NULL;
	/* Itself: what is in its way.  Another left without hosts: that. */
	if (failed != NULL && failed->id != a->id)
		*conflict = failed->id;
out:
	plan_free(&p);
	return rc;
}

int
map_fits_moved(ar_txn *t, uint64_t id, int64_t start, int64_t end, int *ok,
    uint64_t *conflict)
{
	struct asked a = { NULL, 0, id, start, end };

	return both_ways(t, moved_way, &a, ok, conflict);
}

/* May maintenance of pool `pool` over slots [start, end) displace it,
 * in plan p?  Only a reservation there: of its pool, over part of its
 * time, not started, free to move. */
static int
displaceable(const struct plan *p, const struct item *it, uint32_t pool,
    int64_t start, int64_t end)
{
	return !it->history && it->id != 0 && !it->fixed &&
	    it->pool == pool && it->s > p->now && it->s < end && it->e > start;
}

/*
 * The sweep of plan p left f without hosts, f one the maintenance may
 * not displace: what it may displace in f's place, among those swept
 * before f (moved off the maintenance's hosts, they can hold what f
 * would have had): the last that took a host f had, else the last.
 * NULL if none was swept before f: then none of them is in f's way.
 */
static struct item *
displaced_instead(const struct plan *p, const struct item *f, uint32_t pool,
    int64_t start, int64_t end)
{
	struct item *last = NULL, *took = NULL;

	for (struct item *it = p->it; it < f; it++) {
		if (!displaceable(p, it, pool, start, end))
			continue;
		last = it;
		if (hostset_common(&it->got, &f->want) >= 0 ||
		    hostset_common(&it->got, &f->ex) >= 0)
			took = it;
	}
	return took != NULL ? took : last;
}

/*
 * The plan with the maintenance rq fixed at [start, start + slots) and
 * without what was displaced so far, swept one way: *failed_id the
 * reservation that found no hosts, or one the maintenance may displace
 * in its place (0: none, or the maintenance), *fixed whether that one
 * may not move.  Today's way, where the sweep leaves a reservation that
 * may move without hosts, the plan is swept backwards too before any is
 * given up: the forward sweep chooses hosts for what starts first
 * without knowing what the maintenance takes later.  If that maps and
 * the maintenance is to be granted (nothing displaced so far, or
 * AR_FORCE), the mapping is kept, so that the sweep after the
 * admission, which keeps each reservation's hosts where it can, finds
 * it.
 */
static int
displace_way(ar_txn *t, const struct ar_request *rq, uint32_t pool,
    int64_t start, int64_t slots, int tracked, uint64_t *failed_id, int *fixed,
    uint64_t *conflict)
{
	struct plan p;
	struct item *it, *failed, *instead;
	int rc, ok;

	*failed_id = 0;
	*fixed = 0;
	if ((rc = plan_load(t, &p, tracked)) != 0 ||
	    (rc = plan_request(&p, rq, pool, start, slots, &it)) != 0)
		goto out;
	for (size_t i = 0; i < p.n; i++)
		for (size_t d = 0; d < t->ndisplaced; d++)
			if (p.it[i].id == t->displaced[d])
				p.it[i].history = 1;    /* out of the sweep */
	if ((rc = sweep(&p, 0, &failed, conflict)) != 0 || failed == NULL)
		goto out;
	if (failed->id == 0 || failed->fixed) {
		/* The maintenance itself, or one that may not move. */
		*fixed = 1;
		*failed_id = failed->id;
		if (failed->id != 0)
			*conflict = failed->id;
		goto out;
	}
	/* One outside the maintenance is not displaced: what was moved
	 * into its way is, or with none, the maintenance is refused. */
	instead = displaceable(&p, failed, pool, start, start + slots) ?
	    failed : displaced_instead(&p, failed, pool, start, start + slots);
	if (instead == NULL) {
		*failed_id = *conflict = failed->id;
		*fixed = 1;
	} else
		*failed_id = instead->id;
	if (tracked || (rc = sweep_backwards(&p, &ok)) != 0 || !ok)
		goto out;
	*fixed = 0;
	*failed_id = 0;
	*conflict = 0;
	for (size_t i = 0; i < p.n; i++)
		if (p.it[i].id == 0)
			p.it[i].history = 1;    /* the request: no id yet */
	if (t->ndisplaced == 0 || (rq->flags & AR_FORCE))
		rc = plan_store(&p);
out:
	plan_free(&p);
	return rc;
}

/* The plan with the maintenance and without what is displaced so far,
 * today's way, then the tracked way: *id and *fixed as displace_way
 * tells them, 0 and 0 if either way maps. */
static int
displace_ways(ar_txn *t, const struct ar_request *rq, uint32_t pool,
    int64_t start, int64_t slots, int tracked, uint64_t *id, int *fixed,
    uint64_t *conflict)
{
	uint64_t other;
	int rc, fixed2;

	if ((rc = displace_way(t, rq, pool, start, slots, 0, id, fixed,
	    conflict)) != 0 || (*id == 0 && !*fixed) || !tracked)
		return rc;
	if ((rc = displace_way(t, rq, pool, start, slots, 1, &other, &fixed2,
	    conflict)) != 0)
		return rc;
	if (other == 0 && !fixed2) {
		*id = 0;
		*fixed = 0;
	} else if (*fixed) {
		*id = other;
		*fixed = fixed2;
	}
	return 0;
}

int
map_displace(ar_txn *t, const struct ar_request *rq, uint32_t pool,
    int64_t start, int64_t slots, int *ok, uint64_t *conflict)
{
	uint64_t id, back;
	size_t rest;
	int rc, tracked, fixed;

	*ok = 0;
	t->ndisplaced = 0;
	if ((rc = tracked_way(t, &tracked)) != 0)
		return rc;
	/* What neither way maps without is displaced and the plan swept
	 * again: a sweep or a few for each. */
	for (;;) {
		if ((rc = displace_ways(t, rq, pool, start, slots, tracked,
		    &id, &fixed, conflict)) != 0)
			return rc;
		if (id == 0 && !fixed)
			break;
		/* The maintenance's hosts held by one that started or named
		 * them: it does not win. */
		if (fixed)
			return 0;
		if ((rc = array_room(&t->displaced, &t->dcap,
		    t->ndisplaced + 1, sizeof(*t->displaced))) != 0)
			return rc;
		t->displaced[t->ndisplaced++] = id;
	}
	/* The first that failed is not always one that must go: each is
	 * given back in turn, and stays if the plan with it maps.  Giving
	 * back only fills the plan, so what stays displaced would not fit
	 * back alone. */
	for (size_t i = 0; i < t->ndisplaced;) {
		back = t->displaced[i];
		rest = t->ndisplaced - i - 1;
		memmove(&t->displaced[i], &t->displaced[i + 1],
		    rest * sizeof(*t->displaced));
		t->ndisplaced--;
		if ((rc = displace_ways(t, rq, pool, start, slots, tracked,
		    &id, &fixed, conflict)) != 0)
			return rc;
		if (id == 0 && !fixed)
			continue;
		memmove(&t->displaced[i + 1], &t->displaced[i],
		    rest * sizeof(*t->displaced));
		t->displaced[i++] = back;
		t->ndisplaced++;
	}
	*ok = 1;
	*conflict = 0;
	return 0;
}

static int
just_granted(const ar_txn *t, uint64_t id)
{
	for (size_t i = 0; i < t->ngranted; i++)
		if (t->granted[i].id == id)
			return 1;
	return 0;
}

/* Track again from the plan's mapping, p, while a pin is in it: in a
 * store of several pools, each pool's hosts (track.c). */
static int
plan_track(struct plan *p)
{
	struct track_use *u;
	size_t n = 0;
	int rc, pinned;

	if ((rc = map_pinned(p->t, &pinned)) != 0 || !pinned)
		return rc;
	if ((u = malloc((p->n + 1) * sizeof(*u))) == NULL)
		return ENOMEM;
	for (size_t i = 0; i < p->n; i++)
		if (!p->it[i].history)
			u[n++] = (struct track_use){ p->it[i].id, p->it[i].s,
			    p->it[i].e, p->it[i].named, &p->it[i].got };
	rc = track_build(p->t, u, n);
	free(u);
	return rc;
}

int
map_after_admission(ar_txn *t, int *ok, uint64_t *conflict)
{
	struct plan p;
	struct item *failed;
	int rc, tracked = 0, drained;

	*ok = 0;
	/* Today's way (with a drain in the plan, forward then backwards),
	 * then (if the tracking stands) the tracked way, as map_fits. */
	for (int way = 0; way < 2 && !*ok; way++) {
		if (way == 1 && ((rc = tracked_way(t, &tracked)) != 0 ||
		    !tracked))
			return rc;
		if ((rc = plan_load(t, &p, way)) != 0)
			goto next;
		/* What was just granted may have a tracked host's free
		 * time. */
		for (size_t i = 0; i < p.n; i++)
			p.it[i].anywhere = way && just_granted(t, p.it[i].id);
		if ((rc = sweep(&p, 0, &failed, conflict)) == 0) {
			*ok = failed == NULL;
			/* One just granted: what is in its way; another:
			 * itself. */
			if (failed != NULL && !just_granted(t, failed->id))
				*conflict = failed->id;
			if (!*ok && way == 0 &&
			    (rc = plan_drained(t, &drained)) == 0 && drained)
				rc = sweep_backwards(&p, ok);
			if (rc == 0 && *ok && (rc = plan_store(&p)) == 0)
				rc = plan_track(&p);
		}
next:
		plan_free(&p);
		if (rc != 0)
			return rc;
	}
	return 0;
}

int
map_verify(ar_txn *t, int (*fn)(const struct map_got *, void *), void *arg,
    uint64_t *failed, uint64_t *conflict)
{
	struct plan p;
	struct item *f;
	struct map_got g;
	int rc, tracked;

	*failed = *conflict = 0;
	if ((rc = tracked_way(t, &tracked)) != 0)
		return rc;
	if ((rc = plan_load(t, &p, tracked)) != 0 ||
	    (rc = sweep(&p, 0, &f, conflict)) != 0)
		goto out;
	if (f != NULL) {
		*failed = f->id;
		goto out;
	}
	for (size_t i = 0; i < p.n && rc == 0; i++) {
		g.id = p.it[i].id;
		g.start = p.it[i].s;
		g.end = p.it[i].e;
		g.nodes = p.it[i].nodes;
		g.pool = p.it[i].pool;
		g.hosts = p.it[i].got.r;
		g.nruns = p.it[i].got.n;
		rc = fn(&g, arg);
	}
out:
	plan_free(&p);
	return rc;
}

/* What ar_map hands its caller, with the buffers behind it. */
struct teller {
	ar_txn *t;
	int (*fn)(const struct ar_mapped *, void *);
	void *arg;
	struct ar_mapped m;
	uint32_t *hosts, *old;
	size_t hcap, ocap;
};

static int
tell(struct teller *tl, const struct item *it)
{
	struct ar_mapped *m = &tl->m;
	size_t n;
	int rc;

	memset(m, 0, sizeof(*m));
	if ((rc = ar_get(tl->t, it->id, &m->r)) != 0)
		return rc == AR_ENOTFOUND ? AR_ECORRUPT : rc;
	if (it->history)
		m->status = it->got.n > 0 ? AR_MAP_KEPT : AR_MAP_UNMAPPED;
	else if (it->untold)
		m->status = AR_MAP_NEW;
	else
		m->status = hostset_equal(&it->told, &it->got) ? AR_MAP_KEPT :
		    AR_MAP_REMAPPED;
	if ((rc = expand(&it->got, &tl->hosts, &tl->hcap, &n)) != 0)
		return rc;
	m->hosts = tl->hosts;
	m->nhosts = n;
	m->fragments = (uint32_t)it->got.n;
	if (m->status == AR_MAP_REMAPPED) {
		if ((rc = expand(&it->told, &tl->old, &tl->ocap, &n)) != 0)
			return rc;
		m->old = tl->old;
		m->nold = n;
	}
	return tl->fn(m, tl->arg);
}

/* Finished reservations (ended by the clock) over [from, to) slots. */
struct past {
	struct plan *p;
	int64_t from, to;
};

static int
past_visit(const struct ar_resv *r, void *arg)
{
	struct past *ps = arg;
	int64_t s = r->start / ps->p->t->m.slot, e = r->end / ps->p->t->m.slot;

	if (r->state != AR_FINISHED || e <= ps->from || s >= ps->to)
		return 0;
	return plan_resv(ps->p, r, 1);
}

static int
by_start_id(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	if (x->s != y->s)
		return x->s < y->s ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int
by_id(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* Report reservation id, which the plan does not hold. */
static int
tell_other(struct teller *tl, struct plan *p, uint64_t id)
{
	struct ar_resv r;
	struct item *it;
	int rc;

	if ((rc = ar_get(tl->t, id, &r)) == AR_ENOTFOUND) {
		memset(&tl->m, 0, sizeof(tl->m));
		tl->m.r.id = id;
		tl->m.status = AR_MAP_NOTFOUND;
		return tl->fn(&tl->m, tl->arg);
	}
	if (rc != 0 || (rc = plan_resv(p, &r, 1)) != 0)
		return rc;
	it = &p->it[--p->n];
	if (r.state == AR_CANCELLED || r.state == AR_EXPIRED ||
	    r.state == AR_RECLAIMED)
		it->got.n = 0;
	rc = tell(tl, it);
	hostset_free(&it->want);
	hostset_free(&it->told);
	hostset_free(&it->got);
	return rc;
}

int
ar_map(ar_txn *t, unsigned flags, int64_t from, int64_t to,
    const uint64_t *ids, size_t nids,
    int (*fn)(const struct ar_mapped *, void *), void *arg)
{
	struct teller tl = { .t = t, .fn = fn, .arg = arg };
	struct past ps;
	struct plan p;
	struct item *failed, key;
	uint64_t conflict;
	size_t nplan;
	int rc, tracked;

	if (from < 0 || to < from || to > TIME_MAX)
		return EINVAL;
	if ((rc = tracked_way(t, &tracked)) != 0)
		return rc;
	if ((rc = plan_load(t, &p, tracked)) != 0 ||
	    (rc = sweep(&p, (flags & AR_MAP_FIRST_FIT) != 0, &failed,
	    &conflict)) != 0)
		goto out;
	if (failed != NULL) {
		/* Admission never lets it come to this. */
		rc = AR_ECORRUPT;
		goto out;
	}
	nplan = p.n;
	if (ids != NULL) {
		plan_sort(&p, by_id);
		for (size_t i = 0; i < nids && rc == 0; i++) {
			struct item *it;

			key.id = ids[i];
			it = nplan == 0 ? NULL : bsearch(&key, p.it, nplan,
			    sizeof(*p.it), by_id);
			if (it != NULL) {
				rc = tell(&tl, it);
				it->telling = 1;
			} else
				rc = tell_other(&tl, &p, ids[i]);
		}
	} else {
		ps.p = &p;
		ps.from = from / t->m.slot;
		ps.to = slot_up(t, to);
		/* Ended ones end by the clock's slot: only a range from
		 * before it holds any, and finding them reads every
		 * record. */
		if (ps.from < p.now && (rc = ar_list(t, 0, past_visit,
		    &ps)) != 0)
			goto out;
		plan_sort(&p, by_start_id);
		for (size_t i = 0; i < p.n && rc == 0; i++)
			if (p.it[i].e > ps.from && p.it[i].s < ps.to) {
				rc = tell(&tl, &p.it[i]);
				p.it[i].telling = 1;
			}
	}
	/* Only what was told counts as told: new, kept and remapped are
	 * against what ar_map told last, not what it mapped. */
	if (rc == 0 && t->write)
		rc = plan_store(&p);
out:
	free(tl.hosts);
	free(tl.old);
	plan_free(&p);
	return rc;
}

static int
by_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The ledger's entries to keep, sorted, and the walk that drops the
 * others. */
struct ledger_keep {
	ar_txn *t;
	const uint64_t *keep;
	size_t n;
};

static int
unacked(struct kv_cursor *cur, const struct kv_val *k,
    const struct kv_val *v, void *arg)
{
	struct ledger_keep *lk = arg;
	uint64_t id;

	(void)v;
	if (k->size != 8)
		return AR_ECORRUPT;
	id = u64_key(k->data);
	if (bsearch(&id, lk->keep, lk->n, sizeof(*lk->keep), by_u64) != NULL)
		return 0;
	txn_wrote(lk->t);
	return kv_cursor_del(cur);
}

/*
 * The export ledger: what the scheduler acknowledged it holds.  ar-map
 * --slurm --apply reconciles with what Slurm itself says, not with this:
 * the ledger only tells a reservation that Slurm lost (it had
 * acknowledged it) from one never exported.  Written only after Slurm
 * acknowledged, so a run killed at any moment leaves it true or behind.
 */
int
ar_export_record(ar_txn *t, const struct ar_acked *a, size_t n)
{
	struct item it, was;
	struct ledger_keep lk = { t, NULL, 0 };
	uint64_t *keep = NULL;
	int64_t slot = t->m.slot;
	int rc = 0, found;

	if (!t->write)
		return EACCES;
	memset(&it, 0, sizeof(it));
	memset(&was, 0, sizeof(was));
	if ((keep = malloc((n + 1) * sizeof(*keep))) == NULL)
		return ENOMEM;
	for (size_t i = 0; i < n && rc == 0; i++) {
		struct ar_resv r;

		if (a[i].start < 0 || a[i].end <= a[i].start ||
		    a[i].start % slot != 0 || a[i].end % slot != 0 ||
		    a[i].end / slot - a[i].start / slot > UINT32_MAX ||
		    a[i].nhosts == 0) {
			rc = EINVAL;
			break;
		}
		if ((rc = ar_get(t, a[i].id, &r)) != 0)
			break;
		it.id = a[i].id;
		it.s = a[i].start / slot;
		it.e = a[i].end / slot;
		it.nodes = (uint32_t)a[i].nhosts;
		it.got.n = 0;
		for (size_t h = 0; h < a[i].nhosts && rc == 0; h++)
			rc = a[i].hosts[h] >= t->m.nodes || (h > 0 &&
			    a[i].hosts[h] <= a[i].hosts[h - 1]) ? EINVAL :
			    hostset_append(&it.got, a[i].hosts[h], 1);
		if (rc != 0 ||
		    (rc = entry_get(t, KV_EXPORTED, it.id, &was, &found)) != 0)
			break;
		keep[i] = it.id;
		if (!found || was.stored_s != it.s || was.stored_e != it.e ||
		    !hostset_equal(&was.want, &it.got))
			rc = entry_write(t, KV_EXPORTED, &it, &it.got, NULL);
	}
	if (rc != 0)
		goto out;
	/* Every other entry goes: Slurm does not hold that reservation as
	 * the plan has it. */
	qsort(keep, n, sizeof(*keep), by_u64);
	lk.keep = keep;
	lk.n = n;
	rc = kv_walk(t->txn, KV_EXPORTED, NULL, unacked, &lk);
out:
	free(keep);
	hostset_free(&it.got);
	hostset_free(&was.want);
	hostset_free(&was.told);
	return rc;
}

int
ar_export_acked(ar_txn *t, uint64_t id, int *yes)
{
	return entry_there(t, KV_EXPORTED, id, yes);
}
