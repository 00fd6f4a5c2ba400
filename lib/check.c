/*
 * check.c - the store's invariants, recomputed from the records and
 * compared with the ring and the indexes.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct checker {
	ar_txn *t;
	void (*fn)(const char *, void *);
	void *arg;
	uint64_t bad;
	uint64_t *expect;       /* nodes in use per slot from base */
	uint64_t *limit[AR_CLASSES_MAX + 1];    /* per slot from base, of
						   classes i and cheaper */
	uint64_t live, movable, records, max_id;
	uint64_t keyed;         /* records with a client key */
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

/* Is (key, value) in the dup-sorted database dbi? */
static int
has_entry(ar_txn *t, MDB_dbi dbi, MDB_val *key, MDB_val *v, int *found)
{
	MDB_cursor *cur;
	int rc;

	if ((rc = mdb_cursor_open(t->txn, dbi, &cur)) != 0)
		return rc;
	rc = mdb_cursor_get(cur, key, v, MDB_GET_BOTH);
	mdb_cursor_close(cur);
	*found = rc == 0;
	return rc == MDB_NOTFOUND ? 0 : rc;
}

/* A record with a client key is named by the key's entry, whatever its
 * state: keys outlive reservations. */
static int
check_keyed(struct checker *c, const struct ar_resv *r)
{
	struct key_entry e;
	MDB_val v;
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

/* Every record: decodable, in its window, indexed iff live; its nodes
 * are added to the expected counts. */
static int
check_records(struct checker *c)
{
	ar_txn *t = c->t;
	int64_t slot = t->m.slot, top = t->base + t->m.horizon;
	MDB_cursor *cur;
	MDB_val k, v;
	struct ar_resv r;
	int rc;

	if ((rc = mdb_cursor_open(t->txn, t->s->resv, &cur)) != 0)
		return rc;
	for (rc = mdb_cursor_get(cur, &k, &v, MDB_FIRST); rc == 0;
	    rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT)) {
		unsigned char idv[8], lkey[2 * AR_LABEL_MAX + 1];
		MDB_val iv = { 8, idv }, lk = { 0, lkey };
		int64_t from, to;
		int in_ends, in_flex, in_labels = 0;

		c->records++;
		if (k.mv_size != 8 || resv_decode(t, &v, &r) != 0 ||
		    r.id != u64_key(k.mv_data)) {
			violation(c, "record %" PRIu64 " cannot be decoded",
			    k.mv_size == 8 ? u64_key(k.mv_data) : 0);
			continue;
		}
		if (r.id > c->max_id)
			c->max_id = r.id;
		from = r.start / slot;
		to = r.end / slot;
		key_u64(idv, r.id);
		lk.mv_size = label_key(r.user, r.job, lkey);
		if ((rc = slots_find(t, &t->ends, (uint64_t)to, r.id,
		    &in_ends)) != 0 || (rc = slots_find(t, &t->flex,
		    (uint64_t)from, r.id, &in_flex)) != 0)
			break;
		if (lk.mv_size > 1 && (rc = has_entry(t, t->s->labels, &lk,
		    &iv, &in_labels)) != 0)
			break;
		if (r.client_key[0] != '\0' && (rc = check_keyed(c, &r)) != 0)
			break;
		if (r.state != AR_GRANTED) {
			if (in_ends >= 0 || in_flex >= 0 || in_labels)
				violation(c, "reservation %" PRIu64 " is %s but "
				    "still indexed", r.id, ar_status_name(r.state));
			continue;
		}
		c->live++;
		if (in_ends < 0)
			violation(c, "reservation %" PRIu64 " is missing from "
			    "the end list of its slot", r.id);
		else if (in_ends != (lk.mv_size > 1))
			violation(c, "reservation %" PRIu64 "'s end entry says "
			    "it is %slabelled", r.id, in_ends ? "" : "not ");
		c->movable += resv_movable(t, &r);
		if ((in_flex >= 0) != resv_movable(t, &r))
			violation(c, "reservation %" PRIu64 " is %s the list of "
			    "movable reservations", r.id, in_flex >= 0 ?
			    "wrongly in" : "missing from");
		if (lk.mv_size > 1 && !in_labels)
			violation(c, "reservation %" PRIu64 " is missing from "
			    "the label index", r.id);
		if (from < slot_up(t, r.earliest) || from > slot_up(t, r.latest))
			violation(c, "reservation %" PRIu64 " starts outside "
			    "its window", r.id);
		if (to > top)
			violation(c, "reservation %" PRIu64 " ends beyond the "
			    "horizon", r.id);
		if (from < t->base)
			from = t->base;
		/* An ended one counts nowhere: its class may be gone. */
		if (r.cls > t->pr.n && r.end > t->now)
			violation(c, "reservation %" PRIu64 " has class %" PRIu32
			    ", the store %" PRIu32, r.id, r.cls, t->pr.n);
		for (int64_t s = from; s < to && s < top; s++) {
			c->expect[s - t->base] += (uint64_t)r.nodes * r.jobs;
			for (uint32_t i = 2; i <= r.cls && i <= t->pr.n; i++)
				c->limit[i][s - t->base] +=
				    (uint64_t)r.nodes * r.jobs;
		}
	}
	mdb_cursor_close(cur);
	return rc == MDB_NOTFOUND ? 0 : rc;
}

/* Every entry of a dup-sorted index names a live record that belongs
 * there; match says whether record r belongs under key k. */
static int
check_index(struct checker *c, MDB_dbi dbi, const char *what, size_t size,
    int (*match)(const ar_txn *, const MDB_val *, const MDB_val *,
    const struct ar_resv *))
{
	ar_txn *t = c->t;
	MDB_cursor *cur;
	MDB_val k, v;
	struct ar_resv r;
	int rc;

	if ((rc = mdb_cursor_open(t->txn, dbi, &cur)) != 0)
		return rc;
	for (rc = mdb_cursor_get(cur, &k, &v, MDB_FIRST); rc == 0;
	    rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT)) {
		uint64_t id;

		if (v.mv_size != size) {
			violation(c, "%s entry of the wrong size", what);
			continue;
		}
		id = u64_key(v.mv_data);
		rc = resv_get(t, id, &r);
		if (rc == AR_ENOTFOUND || rc == AR_ECORRUPT)
			violation(c, "%s entry names reservation %" PRIu64
			    " which has no record", what, id);
		else if (rc != 0)
			break;
		else if (r.state != AR_GRANTED || !match(t, &k, &v, &r))
			violation(c, "%s entry for reservation %" PRIu64
			    " does not match its record", what, id);
	}
	mdb_cursor_close(cur);
	return rc == MDB_NOTFOUND ? 0 : rc;
}

static int
label_matches(const ar_txn *t, const MDB_val *k, const MDB_val *v,
    const struct ar_resv *r)
{
	unsigned char lkey[2 * AR_LABEL_MAX + 1];
	size_t len = label_key(r->user, r->job, lkey);

	(void)t;
	(void)v;
	return k->mv_size == len && memcmp(k->mv_data, lkey, len) == 0;
}

/*
 * Every entry of the key index: a well-formed value naming existing
 * records of the key's owner that carry the key; as many ids in all as
 * there are records with a key.
 */
static int
check_keys(struct checker *c)
{
	ar_txn *t = c->t;
	MDB_cursor *cur;
	MDB_val k, v;
	struct key_entry e;
	struct ar_resv r;
	uint64_t ids = 0;
	size_t n;
	int rc;

	if ((rc = mdb_cursor_open(t->txn, t->s->keys, &cur)) != 0)
		return rc;
	for (rc = mdb_cursor_get(cur, &k, &v, MDB_FIRST); rc == 0;
	    rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT)) {
		const unsigned char *kb = k.mv_data;
		uint32_t owner;

		if (k.mv_size <= 4 || k.mv_size > KEYS_KEY_MAX ||
		    key_decode(&v, &e, &n) != 0) {
			violation(c, "key index entry of the wrong size");
			continue;
		}
		owner = (uint32_t)kb[0] << 24 | (uint32_t)kb[1] << 16 |
		    (uint32_t)kb[2] << 8 | kb[3];
		for (size_t i = 0; i < n; i++) {
			uint64_t id = key_id(&v, i);

			ids++;
			rc = resv_get(t, id, &r);
			if (rc == AR_ENOTFOUND || rc == AR_ECORRUPT)
				violation(c, "key index entry names reservation %"
				    PRIu64 " which has no record", id);
			else if (rc != 0)
				goto out;
			else if (r.owner != owner ||
			    strlen(r.client_key) != k.mv_size - 4 ||
			    memcmp(r.client_key, (const char *)k.mv_data + 4,
			    k.mv_size - 4) != 0)
				violation(c, "key index entry for reservation %"
				    PRIu64 " does not match its record", id);
			rc = 0;
		}
	}
out:
	mdb_cursor_close(cur);
	if (rc == MDB_NOTFOUND && ids != c->keyed)
		violation(c, "the key index names %" PRIu64 " reservations, %"
		    PRIu64 " records have a key", ids, c->keyed);
	return rc == MDB_NOTFOUND ? 0 : rc;
}

/* Does entry a sort before b? */
static int
below(const struct slot_entry *a, const struct slot_entry *b)
{
	uint64_t ai = a->id & ~ENTRY_LABELLED, bi = b->id & ~ENTRY_LABELLED;

	return a->slot < b->slot || (a->slot == b->slot && ai < bi);
}

/*
 * A slot list's buckets: whole entries, at least one and at most
 * BUCKET_CAP each; every entry at or above its bucket's bound (but in the
 * first) and below the next bound, naming a live record whose end (ends)
 * or start (starts) is its slot; as many entries as there should be.
 * The end list's label bits are checked from the records.
 */
static int
check_list(struct checker *c, MDB_dbi dbi, const char *what, int starts,
    uint64_t expected)
{
	ar_txn *t = c->t;
	MDB_cursor *cur;
	MDB_val k, v;
	struct slot_entry bound, top = { 0, 0 }, e;
	struct ar_resv r;
	uint64_t entries = 0;
	int rc, first = 1;

	if ((rc = mdb_cursor_open(t->txn, dbi, &cur)) != 0)
		return rc;
	for (rc = mdb_cursor_get(cur, &k, &v, MDB_FIRST); rc == 0;
	    rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT), first = 0) {
		size_t n = v.mv_size / sizeof(struct slot_entry);

		if (k.mv_size != 16 || v.mv_size % sizeof(struct slot_entry) ||
		    n == 0 || n > BUCKET_CAP) {
			violation(c, "%s bucket of the wrong size", what);
			continue;
		}
		bound.slot = u64_key(k.mv_data);
		bound.id = u64_key((const unsigned char *)k.mv_data + 8);
		if (!first && !below(&top, &bound))
			violation(c, "%s bucket before bound %" PRIu64 "/%"
			    PRIu64 " holds a later entry", what, bound.slot,
			    bound.id);
		for (size_t i = 0; i < n; i++) {
			uint64_t id;

			memcpy(&e, (const char *)v.mv_data + i * sizeof(e),
			    sizeof(e));
			id = e.id & ~ENTRY_LABELLED;
			entries++;
			if (!first && below(&e, &bound))
				violation(c, "%s entry for reservation %" PRIu64
				    " is below its bucket's bound", what, id);
			if (i == 0 || below(&top, &e))
				top = e;
			rc = resv_get(t, id, &r);
			if (rc == AR_ENOTFOUND || rc == AR_ECORRUPT)
				violation(c, "%s entry names reservation %"
				    PRIu64 " which has no record", what, id);
			else if (rc != 0)
				goto out;
			else if (r.state != AR_GRANTED ||
			    (uint64_t)((starts ? r.start : r.end) /
			    t->m.slot) != e.slot ||
			    (starts && id != e.id))
				violation(c, "%s entry for reservation %" PRIu64
				    " does not match its record", what, id);
			rc = 0;
		}
	}
out:
	mdb_cursor_close(cur);
	if (rc == MDB_NOTFOUND && entries != expected)
		violation(c, "the %s holds %" PRIu64 " entries for %" PRIu64
		    " reservations", what, entries, expected);
	return rc == MDB_NOTFOUND ? 0 : rc;
}

/*
 * A ring's counts against the expected ones, slot by slot: the node
 * ring (cls 1), never over capacity, or the ring of class cls and
 * cheaper, which may be over its booking limit (lowered since).
 */
static int
check_ring(struct checker *c, struct ring *r, uint32_t cls,
    const uint64_t *expect)
{
	ar_txn *t = c->t;
	int64_t m = t->m.horizon;
	uint32_t *got;
	char what[32] = "";
	int rc;

	if (cls > 1)
		snprintf(what, sizeof(what), " of class %" PRIu32 " and "
		    "cheaper", cls);
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
			if (got[i] > t->m.nodes)
				violation(c, "slot %" PRId64 " is over capacity",
				    t->base + i);
		}
	}
	free(got);
	return rc;
}

int
ar_check(ar_txn *t, void (*fn)(const char *, void *), void *arg,
    uint64_t *bad)
{
	struct checker c = { .t = t, .fn = fn, .arg = arg };
	int rc;

	*bad = 0;
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
	if ((rc = check_records(&c)) == 0 &&
	    (rc = check_list(&c, t->s->ends, "end list", 0, c.live)) == 0 &&
	    (rc = check_list(&c, t->s->flex, "movable list", 1,
	    c.movable)) == 0 &&
	    (rc = check_index(&c, t->s->labels, "label index", 8,
	    label_matches)) == 0 &&
	    (rc = check_keys(&c)) == 0)
		rc = check_ring(&c, &t->ring, 1, c.expect);
	for (uint32_t i = 2; i <= t->pr.n && rc == 0; i++)
		rc = check_ring(&c, &t->limit[i], i, c.limit[i]);
out:
	for (uint32_t i = 2; i <= t->pr.n; i++)
		free(c.limit[i]);
	free(c.expect);
	if (rc != 0)
		return rc;
	if (c.live != t->m.live || c.records != t->m.records)
		violation(&c, "the counters say %" PRIu64 " live of %" PRIu64
		    " records, there are %" PRIu64 " of %" PRIu64,
		    t->m.live, t->m.records, c.live, c.records);
	if (c.max_id >= t->m.next_id)
		violation(&c, "reservation %" PRIu64 " is at or past the next "
		    "id %" PRIu64, c.max_id, t->m.next_id);
	*bad = c.bad;
	return 0;
}
