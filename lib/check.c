/*
 * check.c - the store's invariants, recomputed from the records and
 * compared with the ring and the indexes; and the mapping onto hosts,
 * what is kept of it and what ar_map would make of the plan now,
 * verified host by host.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "internal.h"

/* A host that a reservation holds over slots [s, e). */
struct hold {
	uint64_t id;
	int64_t s, e;
	uint32_t host;
};

/* Holds by reservation, then host: one reservation's are together. */
struct holds {
	struct hold *h;
	size_t n, cap;
};

struct checker {
	ar_txn *t;
	void (*fn)(const char *, void *);
	void *arg;
	uint64_t bad;
	uint64_t *expect;       /* nodes in use per slot from base */
	uint64_t *limit[AR_CLASSES_MAX + 1];    /* per slot from base, of
						   classes i and cheaper */
	uint64_t *pool[AR_POOLS_MAX];   /* ... of pool p (t->npools > 1) */
	uint64_t **prings;      /* ... of t->prings[k], a partition's
				   classes i and cheaper */
	uint64_t live, movable, records, max_id;
	uint64_t keyed;         /* records with a client key */
	uint64_t key_ids;       /* ... and ids in the key index */
	uint64_t held;          /* live holds */
	uint64_t hold_entries;  /* ... and entries in the hold index */
	uint64_t unreported;    /* live ones `unused` must hold */
	uint64_t unused_entries;        /* ... and entries it holds */
	struct ar_hostlist names;       /* the hosts' names, if meta has them */
	int named;
	struct holds pins;      /* of live reservations */
	struct holds kept;      /* what `map` keeps for the live ones */
	struct holds plan;      /* what ar_map would give them now */
	struct ar_resv prev;    /* the record before, in id order (id 0:
				   none) */
	uint64_t running;       /* live records not ended by the clock */
	uint64_t mapped;        /* ... and reservations the sweep mapped */
};

static void
violation(struct checker *c, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	c->bad++;
	if (c->fn == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	c->fn(msg, c->arg);
}

/* Is (key, value) in the dup-sorted database dbi?  The cursor gives back
 * the entry in k and d, which live only as long as it does. */
static int
has_entry(ar_txn *t, enum kv_table dbi, const struct kv_val *key,
    const struct kv_val *v, int *found)
{
	struct kv_val k = *key, d = *v;
	struct kv_cursor *cur;
	int rc;

	if ((rc = kv_cursor_open(t->txn, dbi, &cur)) != 0)
		return rc;
	rc = kv_cursor_get(cur, &k, &d, KV_GET_BOTH);
	kv_cursor_close(cur);
	*found = rc == 0;
	return rc == KV_NOTFOUND ? 0 : rc;
}

/* A record with a client key is named by the key's entry, whatever its
 * state: keys outlive reservations. */
static int
check_keyed(struct checker *c, const struct ar_resv *r)
{
	struct key_entry e;
	struct kv_val v;
	size_t n = 0, i = 0;
	int rc;

	c->keyed++;
	rc = key_get(c->t, r->owner, r->client_key, &v);
	if (rc != 0 && rc != AR_ENOTFOUND)
		return rc;
	if (rc == 0 && key_decode(&v, &e, &n) != 0)
		n = 0;          /* told by check_keys */
	while (i < n && key_id(&v, i) != r->id)
		i++;
	if (i == n)
		violation(c, "reservation %" PRIu64 " is missing from the key "
		    "index", r->id);
	return 0;
}

/* A reservation that named its hosts keeps its pin until a purge. */
static int
check_pinned(struct checker *c, const struct ar_resv *r)
{
	unsigned char key[16];
	struct kv_val k = { 16, key }, v;
	int rc;

	pin_key(key, r->end / c->t->m.slot, r->id);
	rc = kv_get(c->t->txn, KV_PINS, &k, &v);
	if (rc == KV_NOTFOUND)
		violation(c, "reservation %" PRIu64 " named its hosts but has "
		    "no pin", r->id);
	return rc == KV_NOTFOUND ? 0 : rc;
}

/* A live hold: in the hold index, expiring by its end, and not by the
 * clock to which holds were released. */
static int
check_hold(struct checker *c, const struct ar_resv *r)
{
	unsigned char key[16];
	struct kv_val k = { 16, key }, v;
	int rc;

	c->held++;
	if (r->expires > r->end)
		violation(c, "hold %" PRIu64 " expires after its end", r->id);
	if (r->expires <= c->t->released)
		violation(c, "hold %" PRIu64 " expired but was not released",
		    r->id);
	hold_key(key, r->expires, r->id);
	rc = kv_get(c->t->txn, KV_HOLDS, &k, &v);
	if (rc == KV_NOTFOUND)
		violation(c, "hold %" PRIu64 " is missing from the hold index",
		    r->id);
	return rc == KV_NOTFOUND ? 0 : rc;
}

/* A live reservation that may be reclaimed: in `unused` under its due
 * time, unless that came by the clock of the last writer, which then
 * reclaimed it or dropped its entry.  A piece with later ones, due
 * after its end, need not be once it ended by that clock: a new policy
 * indexes only those that had not (reclaim.c). */
static int
check_unreported(struct checker *c, const struct ar_resv *r)
{
	unsigned char key[16];
	struct kv_val k = { 16, key }, v;
	int64_t due;
	int rc;

	if (!unused_due(c->t, r, &due) || due <= c->t->released ||
	    r->end <= c->t->released)
		return 0;
	c->unreported++;
	key_u64(key, (uint64_t)due);
	key_u64(key + 8, r->id);
	rc = kv_get(c->t->txn, KV_UNUSED, &k, &v);
	if (rc == KV_NOTFOUND)
		violation(c, "reservation %" PRIu64 " reported no use but is "
		    "missing from the index of those a reclaim may free",
		    r->id);
	return rc == KV_NOTFOUND ? 0 : rc;
}

/*
 * The occurrences of a series were granted in one admission, so their
 * ids follow each other (some may be forgotten since), from the series'
 * own, their occurrence numbers rise, and they have one owner.
 */
static void
check_series(struct checker *c, const struct ar_resv *r)
{
	const struct ar_resv *p = &c->prev;

	if (r->series == 0 || r->series == r->id)
		return;
	if (p->id != 0 && p->series == r->series) {
		if (p->occurrence >= r->occurrence || p->owner != r->owner)
			violation(c, "reservation %" PRIu64 " is occurrence %"
			    PRIu32 " of series %" PRIu64 " of owner %" PRIu32
			    " after occurrence %" PRIu32 " of owner %" PRIu32,
			    r->id, r->occurrence, r->series, r->owner,
			    p->occurrence, p->owner);
	} else if (p->id >= r->series)
		violation(c, "reservation %" PRIu64 " of series %" PRIu64
		    " follows reservation %" PRIu64 ", not of the series",
		    r->id, r->series, p->id);
}

/* Where a record is indexed: its end list entry (-1 if none, else its
 * label bit), its movable list entry (-1 if none), its label entry. */
struct indexed {
	int ends, flex, labels;
	int labelled;           /* it has a label, so an entry in labels */
};

static int
indexes_of(struct checker *c, const struct ar_resv *r, struct indexed *in)
{
	ar_txn *t = c->t;
	unsigned char idv[8], lkey[2 * AR_LABEL_MAX + 1];
	struct kv_val iv = { 8, idv }, lk = { 0, lkey };
	int rc;

	key_u64(idv, r->id);
	lk.size = label_key(r->user, r->job, lkey);
	in->labelled = lk.size > 1;
	in->labels = 0;
	if ((rc = slots_find(t, &t->ends, (uint64_t)(r->end / t->m.slot),
	    r->id, &in->ends)) != 0 || (rc = slots_find(t, &t->flex,
	    (uint64_t)(r->start / t->m.slot), r->id, &in->flex)) != 0)
		return rc;
	if (in->labelled && (rc = has_entry(t, KV_LABELS, &lk, &iv,
	    &in->labels)) != 0)
		return rc;
	return 0;
}

/* A live record's nodes, in the counts expected of the slots it covers
 * from the rings' base on: the node ring's, and its class's limits'. */
static void
count_nodes(struct checker *c, const struct ar_resv *r)
{
	ar_txn *t = c->t;
	int64_t top = t->base + t->m.horizon, from = r->start / t->m.slot;
	int64_t to = drain_end_seen(t, r) / t->m.slot;

	if (from < t->base)
		from = t->base;
	for (int64_t s = from; s < to && s < top; s++) {
		c->expect[s - t->base] += (uint64_t)r->nodes * r->jobs;
		for (uint32_t i = 2; i <= r->cls && i <= t->pr.n; i++) {
			struct ring *pr = part_limit(t, r->pool, i);

			c->limit[i][s - t->base] += (uint64_t)r->nodes * r->jobs;
			if (pr != NULL)
				c->prings[pr - t->prings][s - t->base] +=
				    (uint64_t)r->nodes * r->jobs;
		}
		if (t->npools > 1 && r->pool < t->npools)
			c->pool[r->pool][s - t->base] +=
			    (uint64_t)r->nodes * r->jobs;
	}
}

/* A live record: in every index it belongs in, in its window and the
 * horizon, pinned and held as it says, of a class the store has. */
static int
check_live(struct checker *c, const struct ar_resv *r, const struct indexed *in)
{
	ar_txn *t = c->t;
	int64_t slot = t->m.slot, from = r->start / slot;
	int64_t to = drain_end_seen(t, r) / slot;
	int rc;

	c->live++;
	if (in->ends < 0)
		violation(c, "reservation %" PRIu64 " is missing from "
		    "the end list of its slot", r->id);
	else if (in->ends != in->labelled)
		violation(c, "reservation %" PRIu64 "'s end entry says "
		    "it is %slabelled", r->id, in->ends ? "" : "not ");
	c->movable += resv_movable(t, r);
	if ((in->flex >= 0) != resv_movable(t, r))
		violation(c, "reservation %" PRIu64 " is %s the list of "
		    "movable reservations", r->id, in->flex >= 0 ?
		    "wrongly in" : "missing from");
	if (in->labelled && !in->labels)
		violation(c, "reservation %" PRIu64 " is missing from "
		    "the label index", r->id);
	/* A piece lies anywhere in its request's window, by the deadline. */
	if (r->pieces != 0 && (from < slot_up(t, r->earliest) ||
	    to > slot_up(t, r->latest) + (r->duration + slot - 1) / slot))
		violation(c, "reservation %" PRIu64 " lies outside its "
		    "request's window", r->id);
	if (r->pieces == 0 && (from < slot_up(t, r->earliest) ||
	    from > slot_up(t, r->latest)))
		violation(c, "reservation %" PRIu64 " starts outside "
		    "its window", r->id);
	if (to > t->base + t->m.horizon)
		violation(c, "reservation %" PRIu64 " ends beyond the "
		    "horizon", r->id);
	if ((r->named && (rc = check_pinned(c, r)) != 0) ||
	    (r->expires != 0 && (rc = check_hold(c, r)) != 0) ||
	    (rc = check_unreported(c, r)) != 0)
		return rc;
	c->running += to > t->now / slot;
	/* An ended one counts nowhere: its class may be gone. */
	if (r->cls > t->pr.n && r->end > t->now)
		violation(c, "reservation %" PRIu64 " has class %" PRIu32
		    ", the store %" PRIu32, r->id, r->cls, t->pr.n);
	if (r->pool >= t->npools)
		violation(c, "reservation %" PRIu64 " is of pool %" PRIu32
		    ", the store has %" PRIu32, r->id, r->pool, t->npools);
	count_nodes(c, r);
	return 0;
}

/* Every record: decodable, in the series it says, indexed iff live (and
 * then as check_live says); with a client key, in the key index. */
static int
check_record(struct kv_cursor *cur, const struct kv_val *k,
    const struct kv_val *v, void *arg)
{
	struct checker *c = arg;
	struct indexed in;
	struct ar_resv r;
	int rc;

	(void)cur;
	c->records++;
	if (k->size != 8 || resv_decode(c->t, v, &r) != 0 ||
	    r.id != u64_key(k->data)) {
		violation(c, "record %" PRIu64 " cannot be decoded",
		    k->size == 8 ? u64_key(k->data) : 0);
		return 0;
	}
	if (r.id > c->max_id)
		c->max_id = r.id;
	check_series(c, &r);
	c->prev = r;
	if ((rc = indexes_of(c, &r, &in)) != 0 ||
	    (r.client_key[0] != '\0' && (rc = check_keyed(c, &r)) != 0))
		return rc;
	if (r.state == AR_GRANTED)
		return check_live(c, &r, &in);
	if (in.ends >= 0 || in.flex >= 0 || in.labels)
		violation(c, "reservation %" PRIu64 " is %s but "
		    "still indexed", r.id, ar_status_name(r.state));
	return 0;
}

/*
 * The record that an entry of an index (what: "label index entry",
 * say) names, into r: 1, or 0 after a violation if it has none, or an
 * error.
 */
static int
named_record(struct checker *c, const char *what, uint64_t id,
    struct ar_resv *r)
{
	int rc = resv_get(c->t, id, r);

	if (rc == AR_ENOTFOUND || rc == AR_ECORRUPT) {
		violation(c, "%s names reservation %" PRIu64 " which has no "
		    "record", what, id);
		return 0;
	}
	return rc != 0 ? rc : 1;
}

/* The label index: each entry names a live record with its labels. */
static int
check_label(struct kv_cursor *cur, const struct kv_val *k,
    const struct kv_val *v, void *arg)
{
	struct checker *c = arg;
	unsigned char lkey[2 * AR_LABEL_MAX + 1];
	struct ar_resv r;
	uint64_t id;
	int rc;

	(void)cur;
	if (v->size != 8) {
		violation(c, "label index entry of the wrong size");
		return 0;
	}
	id = u64_key(v->data);
	if ((rc = named_record(c, "label index entry", id, &r)) != 1)
		return rc;
	if (r.state != AR_GRANTED || k->size != label_key(r.user, r.job,
	    lkey) || memcmp(k->data, lkey, k->size) != 0)
		violation(c, "label index entry for reservation %" PRIu64
		    " does not match its record", id);
	return 0;
}

/*
 * The key index: each entry well formed, naming existing records of the
 * key's owner that carry the key; as many ids in all as there are
 * records with a key.
 */
static int
check_key(struct kv_cursor *cur, const struct kv_val *k,
    const struct kv_val *v, void *arg)
{
	struct checker *c = arg;
	const unsigned char *kb = k->data;
	struct key_entry e;
	struct ar_resv r;
	uint32_t owner;
	size_t n;
	int rc;

	(void)cur;
	if (k->size <= 4 || k->size > KEYS_KEY_MAX ||
	    key_decode(v, &e, &n) != 0) {
		violation(c, "key index entry of the wrong size");
		return 0;
	}
	owner = (uint32_t)kb[0] << 24 | (uint32_t)kb[1] << 16 |
	    (uint32_t)kb[2] << 8 | kb[3];
	for (size_t i = 0; i < n; i++) {
		uint64_t id = key_id(v, i);

		c->key_ids++;
		if ((rc = named_record(c, "key index entry", id, &r)) == 0)
			continue;
		if (rc != 1)
			return rc;
		if (r.owner != owner || strlen(r.client_key) != k->size - 4 ||
		    memcmp(r.client_key, kb + 4, k->size - 4) != 0)
			violation(c, "key index entry for reservation %" PRIu64
			    " does not match its record", id);
	}
	return 0;
}

/* The hold index: each entry names a live hold with that expiry; as
 * many as there are. */
static int
check_held(struct kv_cursor *cur, const struct kv_val *k,
    const struct kv_val *v, void *arg)
{
	struct checker *c = arg;
	struct ar_resv r;
	uint64_t id;
	int rc;

	(void)cur;
	c->hold_entries++;
	if (k->size != 16 || v->size != 0) {
		violation(c, "hold index entry of the wrong size");
		return 0;
	}
	id = u64_key((const char *)k->data + 8);
	if ((rc = named_record(c, "hold index entry", id, &r)) != 1)
		return rc;
	if (r.state != AR_GRANTED || r.expires != (int64_t)u64_key(k->data))
		violation(c, "hold index entry for reservation %" PRIu64
		    " does not match its record", id);
	return 0;
}

/* The index of those a reclaim may free: each entry names a live record
 * due then and not by the last writer's clock; as many as there are. */
static int
check_unused(struct kv_cursor *cur, const struct kv_val *k,
    const struct kv_val *v, void *arg)
{
	struct checker *c = arg;
	struct ar_resv r;
	int64_t due;
	uint64_t id;
	int rc;

	(void)cur;
	c->unused_entries++;
	if (k->size != 16 || v->size != 0) {
		violation(c, "unused index entry of the wrong size");
		return 0;
	}
	id = u64_key((const char *)k->data + 8);
	if ((rc = named_record(c, "unused index entry", id, &r)) != 1)
		return rc;
	/* A piece with later ones may have ended before its grace: its
	 * entry is counted as check_unreported counts it. */
	if ((r.state != AR_GRANTED && (r.state != AR_FINISHED ||
	    r.pieces == 0 || r.occurrence == r.pieces)) ||
	    !unused_due(c->t, &r, &due) ||
	    due != (int64_t)u64_key(k->data) || due <= c->t->released)
		violation(c, "unused index entry for reservation %" PRIu64
		    " does not match its record", id);
	else if (r.end <= c->t->released)
		c->unused_entries--;
	return 0;
}

/* The indexes besides the slot lists: labels, client keys, holds, and
 * those a reclaim may free. */
static int
check_indexes(struct checker *c)
{
	struct kv_txn *txn = c->t->txn;
	int rc;

	if ((rc = kv_walk(txn, KV_LABELS, NULL, check_label, c)) != 0 ||
	    (rc = kv_walk(txn, KV_KEYS, NULL, check_key, c)) != 0)
		return rc;
	if (c->key_ids != c->keyed)
		violation(c, "the key index names %" PRIu64 " reservations, %"
		    PRIu64 " records have a key", c->key_ids, c->keyed);
	if ((rc = kv_walk(txn, KV_HOLDS, NULL, check_held, c)) != 0)
		return rc;
	if (c->hold_entries != c->held)
		violation(c, "the hold index has %" PRIu64 " entries, there are %"
		    PRIu64 " holds", c->hold_entries, c->held);
	if ((rc = kv_walk(txn, KV_UNUSED, NULL, check_unused, c)) != 0)
		return rc;
	if (c->unused_entries != c->unreported)
		violation(c, "the unused index has %" PRIu64 " entries, %"
		    PRIu64 " reservations are due to be looked at",
		    c->unused_entries, c->unreported);
	return 0;
}

/* Does entry a sort before b? */
static int
below(const struct slot_entry *a, const struct slot_entry *b)
{
	uint64_t ai = a->id & ~ENTRY_LABELLED, bi = b->id & ~ENTRY_LABELLED;

	return a->slot < b->slot || (a->slot == b->slot && ai < bi);
}

/* A slot list as check_list walks it. */
struct list_walk {
	struct checker *c;
	const char *what;       /* "end list", "movable list" */
	int starts;             /* entries are start slots, not ends */
	int first;              /* at the first bucket */
	struct slot_entry top;  /* the largest entry so far */
	uint64_t entries;
};

/* One entry of bucket bound (below which only the first bucket may
 * hold any) names a live record that ends (starts) in its slot. */
static int
list_entry(struct list_walk *w, const struct slot_entry *bound,
    const struct slot_entry *e, int i)
{
	struct checker *c = w->c;
	uint64_t id = e->id & ~ENTRY_LABELLED;
	char what[32];
	struct ar_resv r;
	int rc;

	w->entries++;
	if (!w->first && below(e, bound))
		violation(c, "%s entry for reservation %" PRIu64 " is below "
		    "its bucket's bound", w->what, id);
	if (i == 0 || below(&w->top, e))
		w->top = *e;
	snprintf(what, sizeof(what), "%s entry", w->what);
	if ((rc = named_record(c, what, id, &r)) != 1)
		return rc;
	if (r.state != AR_GRANTED || (uint64_t)((w->starts ? r.start :
	    r.end) / c->t->m.slot) != e->slot || (w->starts && id != e->id))
		violation(c, "%s entry for reservation %" PRIu64 " does not "
		    "match its record", w->what, id);
	return 0;
}

/* One bucket: whole entries, at least one and at most BUCKET_CAP,
 * above the bucket before, each as list_entry says. */
static int
list_bucket(struct list_walk *w, const struct kv_val *k,
    const struct kv_val *v)
{
	size_t n = v->size / sizeof(struct slot_entry);
	struct slot_entry bound, e;
	int rc;

	if (k->size != 16 || v->size % sizeof(struct slot_entry) || n == 0 ||
	    n > BUCKET_CAP) {
		violation(w->c, "%s bucket of the wrong size", w->what);
		return 0;
	}
	bound.slot = u64_key(k->data);
	bound.id = u64_key((const unsigned char *)k->data + 8);
	if (!w->first && !below(&w->top, &bound))
		violation(w->c, "%s bucket before bound %" PRIu64 "/%" PRIu64
		    " holds a later entry", w->what, bound.slot, bound.id);
	for (size_t i = 0; i < n; i++) {
		memcpy(&e, (const char *)v->data + i * sizeof(e), sizeof(e));
		if ((rc = list_entry(w, &bound, &e, (int)i)) != 0)
			return rc;
	}
	return 0;
}

static int
list_visit(struct kv_cursor *cur, const struct kv_val *k,
    const struct kv_val *v, void *arg)
{
	struct list_walk *w = arg;
	int rc = list_bucket(w, k, v);

	(void)cur;
	w->first = 0;
	return rc;
}

/*
 * A slot list's buckets: whole entries, at least one and at most
 * BUCKET_CAP each; every entry at or above its bucket's bound (but in the
 * first) and below the next bound, naming a live record whose end (ends)
 * or start (starts) is its slot; as many entries as there should be.
 * The end list's label bits are checked from the records.
 */
static int
check_list(struct checker *c, enum kv_table dbi, const char *what, int starts,
    uint64_t expected)
{
	struct list_walk w = { c, what, starts, 1, { 0, 0 }, 0 };
	int rc;

	if ((rc = kv_walk(c->t->txn, dbi, NULL, list_visit, &w)) != 0)
		return rc;
	if (w.entries != expected)
		violation(c, "the %s holds %" PRIu64 " entries for %" PRIu64
		    " reservations", what, w.entries, expected);
	return 0;
}

/*
 * A ring's counts against the expected ones, slot by slot: the node
 * ring (cls 1) or a pool's (cls 0, pool), never over capacity, or the
 * ring of class cls and cheaper, which may be over its booking limit
 * (lowered since): the store's (pool 0), or partition pool - 1's.
 */
static int
check_ring(struct checker *c, struct ring *r, uint32_t cls, uint32_t pool,
    const uint64_t *expect)
{
	ar_txn *t = c->t;
	int64_t m = t->m.horizon;
	uint32_t *got, cap = cls == 0 ? r->capacity : t->m.nodes;
	char what[AR_ERRMAX] = "";
	int rc;

	if (cls > 1 && pool > 0)
		snprintf(what, sizeof(what), " of class %" PRIu32 " and "
		    "cheaper in partition %s", cls, t->lay.part[pool - 1].name);
	else if (cls > 1)
		snprintf(what, sizeof(what), " of class %" PRIu32 " and "
		    "cheaper", cls);
	else if (cls == 0)
		snprintf(what, sizeof(what), " of pool %" PRIu32, pool);
	if ((got = malloc((size_t)m * sizeof(*got))) == NULL)
		return ENOMEM;
	rc = ring_counts(t, r, t->base, t->base + m, got);
	if (rc == AR_ECORRUPT) {
		violation(c, "a ring chunk's peak disagrees with its counts "
		    "or belongs to a later lap%s", what);
		rc = 0;
	} else if (rc == 0) {
		for (int64_t i = 0; i < m; i++) {
			if (got[i] != expect[i])
				violation(c, "slot %" PRId64 " counts %" PRIu32
				    " nodes in use%s, its reservations %" PRIu64,
				    t->base + i, got[i], what, expect[i]);
			if (got[i] > cap)
				violation(c, "slot %" PRId64 " is over "
				    "capacity%s", t->base + i, what);
		}
	}
	free(got);
	return rc;
}

/*
 * The tracked hosts: each pool's idle ring counts, slot by slot, the
 * tracked hosts of the pool no explicit use holds there (track.c);
 * while the tracking is built and a pin is in the plan, the pool's
 * count and its idle ring together stay within its hosts, so that the
 * pool's reservations map.  One build marks every pool, or none.
 */
static int
check_tracked(struct checker *c)
{
	ar_txn *t = c->t;
	int64_t m = t->m.horizon;
	uint64_t *expect;
	uint32_t *got = NULL, *used = NULL, markers;
	int rc, built, pinned;

	if ((expect = malloc((size_t)t->npools * (size_t)m *
	    sizeof(*expect))) == NULL ||
	    (got = malloc((size_t)m * sizeof(*got))) == NULL ||
	    (used = malloc((size_t)m * sizeof(*used))) == NULL) {
		rc = ENOMEM;
		goto out;
	}
	if ((rc = track_expect(t, expect, &markers)) == AR_ECORRUPT) {
		violation(c, "the tracked hosts' entries are malformed or out "
		    "of order");
		rc = 0;
		goto out;
	}
	if (rc != 0 || (rc = map_pinned(t, &pinned)) != 0 ||
	    (rc = track_built(t, &built)) != 0)
		goto out;
	if (markers != (built ? t->npools : 0))
		violation(c, "%" PRIu32 " of the %" PRIu32 " pools are marked "
		    "tracked", markers, t->npools);
	for (uint32_t p = 0; p < t->npools; p++) {
		/* One pool: the node ring counts it; several: its own. */
		struct ring *r = t->npools > 1 ? &t->pool[p] : &t->ring;
		uint32_t hosts = t->npools > 1 ? t->lay.pool[p].count :
		    t->m.nodes;
		const uint64_t *want = expect + (size_t)p * (size_t)m;

		if ((rc = ring_counts(t, idle_ring(t, p), t->base, t->base + m,
		    got)) != 0 || (rc = ring_counts(t, r, t->base,
		    t->base + m, used)) != 0) {
			if (rc == AR_ECORRUPT) {
				violation(c, "pool %" PRIu32 ": an idle ring "
				    "chunk's peak disagrees with its counts",
				    p);
				rc = 0;
			}
			goto out;
		}
		for (int64_t i = 0; i < m; i++) {
			if (got[i] != want[i])
				violation(c, "pool %" PRIu32 ": slot %" PRId64
				    " counts %" PRIu32 " tracked hosts idle, "
				    "their entries %" PRIu64, p, t->base + i,
				    got[i], want[i]);
			if (pinned && built &&
			    (uint64_t)got[i] + used[i] > hosts)
				violation(c, "pool %" PRIu32 ": slot %" PRId64
				    " is over capacity with the tracked hosts "
				    "idle there", p, t->base + i);
		}
	}
out:
	free(expect);
	free(got);
	free(used);
	return rc;
}

/*
 * The mapping.  Hosts are checked one by one here, expanded from their
 * runs, not with the host sets map.c computes with: what is verified
 * is the sweep's result, not its code.
 */

/* Reservation id holds the hosts of runs over slots [s, e). */
static int
holds_add(struct holds *hs, uint64_t id, int64_t s, int64_t e,
    const struct run *runs, size_t nruns)
{
	for (size_t i = 0; i < nruns; i++)
		for (uint32_t x = 0; x < runs[i].count; x++) {
			if (array_room(&hs->h, &hs->cap, hs->n + 1,
			    sizeof(*hs->h)) != 0)
				return ENOMEM;
			hs->h[hs->n++] = (struct hold){ id, s, e,
			    runs[i].first + x };
		}
	return 0;
}

static int
by_id_host(const void *a, const void *b)
{
	const struct hold *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->host < y->host ? -1 : x->host > y->host;
}

static int
by_host_start(const void *a, const void *b)
{
	const struct hold *x = a, *y = b;

	if (x->host != y->host)
		return x->host < y->host ? -1 : 1;
	if (x->s != y->s)
		return x->s < y->s ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* Reservation id's holds in hs (sorted by id): *first, and how many. */
static size_t
holds_of(const struct holds *hs, uint64_t id, size_t *first)
{
	size_t lo = 0, hi = hs->n, n = 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (hs->h[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	*first = lo;
	while (lo + n < hs->n && hs->h[lo + n].id == id)
		n++;
	return n;
}

/* Does reservation id hold the same hosts in a as in b (both sorted by
 * id)?  -1 if either has none for it. */
static int
same_hosts(const struct holds *a, const struct holds *b, uint64_t id)
{
	size_t ai, bi, an = holds_of(a, id, &ai), bn = holds_of(b, id, &bi);

	if (an == 0 || bn == 0)
		return -1;
	if (an != bn)
		return 0;
	for (size_t i = 0; i < an; i++)
		if (a->h[ai + i].host != b->h[bi + i].host)
			return 0;
	return 1;
}

static const char *
host_name(const struct checker *c, uint32_t i, char *buf)
{
	if (!c->named || ar_hostlist_name(&c->names, i, buf) == NULL)
		snprintf(buf, AR_HOSTNAME_MAX + 1, "#%" PRIu32, i);
	return buf;
}

/* Two reservations and a host and slot where both hold it. */
struct clash {
	uint64_t a, b;
	uint32_t host;
	int64_t slot;
};

static int
by_pair(const void *x, const void *y)
{
	const struct clash *p = x, *q = y;

	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	if (p->b != q->b)
		return p->b < q->b ? -1 : 1;
	if (p->host != q->host)
		return p->host < q->host ? -1 : 1;
	return p->slot < q->slot ? -1 : p->slot > q->slot;
}

/*
 * No host of hs is held by two reservations at once.  Host by host in
 * order of start, a hold that starts before the latest end so far
 * overlaps the one that ends then.  Each pair that clashes is told once,
 * at the lowest host where it does.  hs is left sorted by host.
 */
static int
check_overlaps(struct checker *c, struct holds *hs, const char *what)
{
	struct hold *h = hs->h, *top = NULL;
	struct clash *cl = NULL;
	size_t ncl = 0, cap = 0;
	char name[AR_HOSTNAME_MAX + 1];

	if (hs->n > 0)
		qsort(h, hs->n, sizeof(*h), by_host_start);
	for (size_t i = 0; i < hs->n; i++) {
		if (top == NULL || top->host != h[i].host) {
			top = &h[i];
			continue;
		}
		if (h[i].s < top->e) {
			if (array_room(&cl, &cap, ncl + 1, sizeof(*cl)) != 0) {
				free(cl);
				return ENOMEM;
			}
			cl[ncl++] = (struct clash){
			    top->id < h[i].id ? top->id : h[i].id,
			    top->id < h[i].id ? h[i].id : top->id,
			    h[i].host, h[i].s };
		}
		if (h[i].e > top->e)
			top = &h[i];
	}
	if (ncl > 0)
		qsort(cl, ncl, sizeof(*cl), by_pair);
	for (size_t i = 0; i < ncl; i++)
		if (i == 0 || cl[i].a != cl[i - 1].a || cl[i].b != cl[i - 1].b)
			violation(c, "%s %" PRIu64 " and %" PRIu64 " both hold "
			    "host %s in slot %" PRId64, what, cl[i].a, cl[i].b,
			    host_name(c, cl[i].host, name), cl[i].slot);
	free(cl);
	return 0;
}

/* The hosts' names in meta: a host list of exactly the store's nodes. */
static int
check_names(struct checker *c)
{
	char err[AR_ERRMAX];
	const char *text;
	int rc;

	if ((rc = ar_hosts(c->t, &text)) == AR_ECORRUPT) {
		violation(c, "the store's host list is missing or not text");
		return 0;
	}
	if (rc != 0)
		return rc;
	rc = ar_hostlist_parse_max(text, c->t->m.nodes, &c->names, err);
	if (rc == -2)
		return ENOMEM;
	if (rc != 0)
		violation(c, "the store's host list: %s", err);
	else if (c->names.count != c->t->m.nodes)
		violation(c, "the store's host list names %zu hosts, it has %"
		    PRIu32 " nodes", c->names.count, c->t->m.nodes);
	else
		c->named = 1;
	return 0;
}

/* A table of the mapping as check_pins and check_entries walk it. */
struct map_walk {
	struct checker *c;
	const char *what;       /* "pin", "map entry", "export entry" */
	struct holds *live;     /* where the live ones' hosts go, or NULL */
	struct hostset hosts, told;     /* an entry's */
};

/* A pin: well formed, naming a reservation that named its hosts, live
 * or ended but not purged yet, under its end slot, with as many hosts
 * as it has nodes.  A live one's hosts go to live. */
static int
check_pin(struct kv_cursor *cur, const struct kv_val *k,
    const struct kv_val *v, void *arg)
{
	struct map_walk *w = arg;
	struct checker *c = w->c;
	ar_txn *t = c->t;
	int64_t slot = t->m.slot;
	struct ar_resv r;
	uint64_t id;
	int rc;

	(void)cur;
	if (k->size != 16) {
		violation(c, "pin with a key of the wrong size");
		return 0;
	}
	id = u64_key((const unsigned char *)k->data + 8);
	if ((rc = map_pin_decode(t, v, &w->hosts)) == AR_ECORRUPT) {
		violation(c, "pin of reservation %" PRIu64 " is malformed", id);
		return 0;
	}
	if (rc != 0 || (rc = named_record(c, "pin", id, &r)) != 1)
		return rc;
	if (r.state != AR_GRANTED || !r.named ||
	    (uint64_t)(r.end / slot) != u64_key(k->data) ||
	    hostset_count(&w->hosts) != r.nodes) {
		violation(c, "pin of reservation %" PRIu64 " does not match "
		    "its record", id);
		return 0;
	}
	if (r.end / slot > t->now / slot)
		return holds_add(w->live, id, r.start / slot, r.end / slot,
		    w->hosts.r, w->hosts.n);
	return 0;
}

/*
 * An entry of `map` or `exported`: well formed, naming a record (in
 * `map`, with as many nodes).  The entries of live reservations mapped
 * for the interval they have now, or for the start they had when they
 * started, go to live, if not NULL.
 */
static int
check_entry(struct kv_cursor *cur, const struct kv_val *k,
    const struct kv_val *v, void *arg)
{
	struct map_walk *w = arg;
	struct checker *c = w->c;
	ar_txn *t = c->t;
	int64_t slot = t->m.slot, now = t->now / slot;
	struct disk_map d;
	struct ar_resv r;
	uint64_t id;
	int rc;

	(void)cur;
	if (k->size != 8) {
		violation(c, "%s with a key of the wrong size", w->what);
		return 0;
	}
	id = u64_key(k->data);
	/* The hosts told last are as many as its nodes were then, which a
	 * modify may have changed since. */
	rc = map_entry_decode(t, v, &d, &w->hosts, &w->told);
	if (rc == AR_ECORRUPT) {
		violation(c, "%s of reservation %" PRIu64 " is malformed",
		    w->what, id);
		return 0;
	}
	if (rc != 0 || (rc = named_record(c, w->what, id, &r)) != 1)
		return rc;
	/* What was exported stays as told when a modify changes the nodes;
	 * the map is mapped again then. */
	if (w->live != NULL && d.nodes != r.nodes) {
		violation(c, "%s of reservation %" PRIu64 " does not match "
		    "its record", w->what, id);
		return 0;
	}
	/* As map.c takes it: a started one keeps its hosts when only its
	 * end changed. */
	if (w->live != NULL && r.state == AR_GRANTED && r.end / slot > now &&
	    d.start == r.start / slot &&
	    (d.start + d.slots == r.end / slot || d.start <= now))
		return holds_add(w->live, id, d.start, r.end / slot,
		    w->hosts.r, w->hosts.n);
	return 0;
}

/* Walk table tb of the mapping with visit, as what; live as they say. */
static int
check_map_table(struct checker *c, enum kv_table tb, const char *what,
    struct holds *live,
    int (*visit)(struct kv_cursor *, const struct kv_val *,
    const struct kv_val *, void *))
{
	struct map_walk w = { c, what, live, { 0 }, { 0 } };
	int rc = kv_walk(c->t->txn, tb, NULL, visit, &w);

	hostset_free(&w.hosts);
	hostset_free(&w.told);
	return rc;
}

/* A reservation as the sweep mapped it: exactly its nodes in hosts,
 * distinct, all the store's. */
static int
plan_got(const struct map_got *g, void *arg)
{
	struct checker *c = arg;
	struct holds *hs = &c->plan;
	uint64_t n = 0;
	size_t from = hs->n;
	int rc;

	c->mapped++;
	for (size_t i = 0; i < g->nruns; i++) {
		n += g->hosts[i].count;
		if ((uint64_t)g->hosts[i].first + g->hosts[i].count >
		    c->t->m.nodes) {
			violation(c, "mapping the plan now gives reservation %"
			    PRIu64 " a host the store does not have", g->id);
			return 0;
		}
	}
	if (n != g->nodes) {
		violation(c, "mapping the plan now gives reservation %" PRIu64
		    " %" PRIu64 " hosts, not %" PRIu32, g->id, n, g->nodes);
		return 0;
	}
	if (c->t->npools > 1) {
		struct hostset got = { (struct run *)g->hosts, g->nruns, 0 };

		if (g->pool >= c->t->npools || hostset_common(&got,
		    &c->t->lay.pool[g->pool].others) != -1) {
			violation(c, "mapping the plan now gives reservation %"
			    PRIu64 " a host outside its pool %" PRIu32, g->id,
			    g->pool);
			return 0;
		}
	}
	if ((rc = holds_add(hs, g->id, g->start, g->end, g->hosts,
	    g->nruns)) != 0)
		return rc;
	for (size_t i = from + 1; i < hs->n; i++)
		if (hs->h[i].host <= hs->h[i - 1].host) {
			violation(c, "mapping the plan now gives reservation %"
			    PRIu64 " a host twice", g->id);
			hs->n = from;
			break;
		}
	return 0;
}

/*
 * The mapping: the hosts' names; the pins; what `map` and `exported`
 * keep; and the plan mapped now as ar_map would, verified host by host:
 * exactly its nodes for each reservation, named ones on their pins,
 * started ones on the hosts kept for them, no host held twice at once.
 * What `map` keeps for the live reservations holds no host twice at
 * once either, and a named one's is its pin.
 */
static int
check_mapping(struct checker *c)
{
	ar_txn *t = c->t;
	int64_t now = t->now / t->m.slot;
	uint64_t failed, conflict, id;
	int rc;

	if ((rc = check_names(c)) != 0 || (rc = check_map_table(c, KV_PINS,
	    "pin", &c->pins, check_pin)) != 0 || (rc = check_map_table(c,
	    KV_MAP, "map entry", &c->kept, check_entry)) != 0 ||
	    (rc = check_map_table(c, KV_EXPORTED, "export entry", NULL,
	    check_entry)) != 0)
		return rc;
	/* A pin or entry it cannot read is told above. */
	if ((rc = map_verify(t, plan_got, c, &failed, &conflict)) ==
	    AR_ECORRUPT)
		violation(c, "the plan cannot be mapped: what it keeps of "
		    "the mapping is damaged");
	else if (rc != 0)
		return rc;
	if (failed != 0 && conflict != 0)
		violation(c, "the plan does not map: reservation %" PRIu64
		    " finds no hosts, %" PRIu64 " is in the way", failed,
		    conflict);
	else if (failed != 0)
		violation(c, "the plan does not map: reservation %" PRIu64
		    " finds no hosts", failed);
	else if (rc == 0 && c->mapped != c->running)
		violation(c, "mapping the plan now maps %" PRIu64 " reservations"
		    ", %" PRIu64 " are live", c->mapped, c->running);
	if (c->pins.n > 0)
		qsort(c->pins.h, c->pins.n, sizeof(*c->pins.h), by_id_host);
	if (c->plan.n > 0)
		qsort(c->plan.h, c->plan.n, sizeof(*c->plan.h), by_id_host);
	/* kept is in id order already: `map` is keyed by id. */
	for (size_t i = 0; i < c->kept.n; i++) {
		if (i > 0 && c->kept.h[i].id == c->kept.h[i - 1].id)
			continue;
		id = c->kept.h[i].id;
		if (same_hosts(&c->kept, &c->pins, id) == 0)
			violation(c, "reservation %" PRIu64 "'s map entry is "
			    "not its pin", id);
	}
	for (size_t i = 0; i < c->plan.n; i++) {
		if (i > 0 && c->plan.h[i].id == c->plan.h[i - 1].id)
			continue;
		id = c->plan.h[i].id;
		if (same_hosts(&c->plan, &c->pins, id) == 0)
			violation(c, "mapping the plan now moves reservation %"
			    PRIu64 " off its pinned hosts", id);
		else if (c->plan.h[i].s <= now &&
		    same_hosts(&c->plan, &c->kept, id) == 0)
			violation(c, "mapping the plan now moves reservation %"
			    PRIu64 ", which has started, off its hosts", id);
	}
	if ((rc = check_overlaps(c, &c->pins, "pinned reservations")) != 0 ||
	    (rc = check_overlaps(c, &c->kept, "mapped reservations")) != 0)
		return rc;
	return check_overlaps(c, &c->plan, "mapping the plan now, "
	    "reservations");
}

/* Invariant 14 (format 10): every drain is maintenance that reaches the
 * end of the horizon as t sees it: a writer stretched it there as it
 * began, a reader ahead of the last writer in memory (drains_view). */
static int
check_drain(const struct ar_drain *d, void *arg)
{
	struct checker *c = arg;
	ar_txn *t = c->t;
	struct ar_resv r;
	int64_t end = (t->base + t->m.horizon) * t->m.slot;
	int rc;

	if ((rc = resv_get(t, d->id, &r)) != 0)
		return rc;
	if (!(r.resv_flags & AR_RESV_MAINT))
		violation(c, "drain %" PRIu64 " is not maintenance", d->id);
	if (d->until != end)
		violation(c, "drain %" PRIu64 " ends at slot %" PRId64 ", not "
		    "at the end of the horizon, slot %" PRId64, d->id,
		    d->until / t->m.slot, end / t->m.slot);
	return 0;
}

static int
check_drains(struct checker *c)
{
	int rc = ar_drains(c->t, check_drain, c);

	if (rc == AR_ECORRUPT) {
		violation(c, "a drain names no live reservation of named hosts");
		rc = 0;
	}
	return rc;
}

int
ar_check(ar_txn *t, void (*fn)(const char *, void *), void *arg,
    uint64_t *bad)
{
	struct checker c = { .t = t, .fn = fn, .arg = arg };
	char when[AR_TIMEBUF], ahead[AR_TIMEBUF];
	uint64_t n;
	int rc;

	*bad = 0;
	ar_hostlist_init(&c.names);
	/* The end list as it stands, changes in memory included. */
	if ((rc = slots_flush(t)) != 0)
		return rc;
	if ((c.expect = calloc((size_t)t->m.horizon, sizeof(*c.expect))) == NULL)
		return ENOMEM;
	for (uint32_t i = 2; i <= t->pr.n; i++)
		if ((c.limit[i] = calloc((size_t)t->m.horizon,
		    sizeof(*c.limit[i]))) == NULL) {
			rc = ENOMEM;
			goto out;
		}
	for (uint32_t p = 0; t->npools > 1 && p < t->npools; p++)
		if ((c.pool[p] = calloc((size_t)t->m.horizon,
		    sizeof(*c.pool[p]))) == NULL) {
			rc = ENOMEM;
			goto out;
		}
	if (t->nprings > 0 && (c.prings = calloc(t->nprings,
	    sizeof(*c.prings))) == NULL) {
		rc = ENOMEM;
		goto out;
	}
	for (uint32_t k = 0; k < t->nprings; k++)
		if ((c.prings[k] = calloc((size_t)t->m.horizon,
		    sizeof(*c.prings[k]))) == NULL) {
			rc = ENOMEM;
			goto out;
		}
	if ((rc = kv_walk(t->txn, KV_RESV, NULL, check_record, &c)) == 0 &&
	    (rc = check_list(&c, KV_ENDS, "end list", 0, c.live)) == 0 &&
	    (rc = check_list(&c, KV_FLEX, "movable list", 1,
	    c.movable)) == 0 &&
	    (rc = check_indexes(&c)) == 0)
		rc = check_ring(&c, &t->ring, 1, 0, c.expect);
	for (uint32_t i = 2; i <= t->pr.n && rc == 0; i++)
		rc = check_ring(&c, &t->limit[i], i, 0, c.limit[i]);
	for (uint32_t p = 0; t->npools > 1 && p < t->npools && rc == 0; p++)
		rc = check_ring(&c, &t->pool[p], 0, p, c.pool[p]);
	for (uint32_t p = 0; p < AR_POOLS_MAX && rc == 0; p++)
		for (uint32_t i = 2; t->pring_at[p] >= 0 &&
		    i <= t->part[p].n && rc == 0; i++) {
			uint32_t k = (uint32_t)t->pring_at[p] + i - 2;

			rc = check_ring(&c, &t->prings[k], i, p + 1,
			    c.prings[k]);
		}
	if (rc == 0)
		rc = check_tracked(&c);
	if (rc == 0)
		rc = check_mapping(&c);
	if (rc == 0)
		rc = check_drains(&c);
out:
	for (uint32_t i = 2; i <= t->pr.n; i++)
		free(c.limit[i]);
	for (uint32_t p = 0; p < AR_POOLS_MAX; p++)
		free(c.pool[p]);
	for (uint32_t k = 0; c.prings != NULL && k < t->nprings; k++)
		free(c.prings[k]);
	free(c.prings);
	free(c.expect);
	free(c.pins.h);
	free(c.kept.h);
	free(c.plan.h);
	ar_hostlist_free(&c.names);
	if (rc != 0)
		return rc;
	if (c.live != t->m.live || c.records != t->m.records)
		violation(&c, "the counters say %" PRIu64 " live of %" PRIu64
		    " records, there are %" PRIu64 " of %" PRIu64,
		    t->m.live, t->m.records, c.live, c.records);
	if (c.max_id >= t->m.next_id)
		violation(&c, "reservation %" PRIu64 " is at or past the next "
		    "id %" PRIu64, c.max_id, t->m.next_id);
	if ((rc = kv_count(t->txn, KV_PINS, &n)) != 0)
		return rc;
	if (n != t->m.pins)
		violation(&c, "the counters say %" PRIu64 " pins, there are "
		    "%" PRIu64, t->m.pins, n);
	if ((rc = kv_count(t->txn, KV_HOLDS, &n)) != 0)
		return rc;
	if (n != t->m.holds)
		violation(&c, "the counters say %" PRIu64 " holds, there are "
		    "%" PRIu64, t->m.holds, n);
	/* A live store ahead of real time (a clock moved before it was
	 * live, or a system clock set back since) makes every request
	 * before its clock `past`: told, with how far. */
	if (t->system != 0 && t->kept > t->system)
		violation(&c, "the store is live, but its clock %s is %s ahead "
		    "of the system clock", ar_time_format(t->kept, when),
		    ar_duration_format(t->kept - t->system, ahead));
	*bad = c.bad;
	return 0;
}
