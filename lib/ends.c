/*
 * ends.c - the live reservations by end slot, in buckets.
 *
 * Each value of `ends` is a bucket: up to ENDS_CAP unordered entries
 * (end slot, id).  Its key, the bound, is the (end, id) of the entry it
 * was split at; an entry belongs to the bucket with the greatest bound
 * not above it, or to the first bucket if there is none.  So the buckets
 * partition the entries in order, a purge deletes whole buckets from the
 * front, and an insertion touches one value in memory: a transaction
 * keeps the buckets it changes, sorted by bound, and writes them back at
 * commit or before a nested transaction, as the ring does its chunks.
 * An entry then costs a few stores, not a B-tree insertion or deletion.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct end_bucket {
	struct end_entry bound; /* its key in `ends` */
	struct end_entry hi;    /* entries below it belong here (first known) */
	int first;              /* the lowest bound: it takes smaller entries too */
	int dirty;              /* LMDB does not have its entries yet */
	uint32_t n;
	struct end_entry e[ENDS_CAP];
};

static const struct end_entry top = { UINT64_MAX, UINT64_MAX };

static int
entry_cmp(const struct end_entry *a, const struct end_entry *b)
{
	uint64_t ai = a->id & ~ENDS_LABELLED, bi = b->id & ~ENDS_LABELLED;

	if (a->end != b->end)
		return a->end < b->end ? -1 : 1;
	return ai < bi ? -1 : ai > bi;
}

static int
entry_qcmp(const void *a, const void *b)
{
	return entry_cmp(a, b);
}

static void
bound_key(const struct end_entry *b, unsigned char key[16], MDB_val *kv)
{
	key_u64(key, b->end);
	key_u64(key + 8, b->id & ~ENDS_LABELLED);
	kv->mv_size = 16;
	kv->mv_data = key;
}

static int
key_bound(const MDB_val *kv, struct end_entry *b)
{
	if (kv->mv_size != 16)
		return AR_ECORRUPT;
	b->end = u64_key(kv->mv_data);
	b->id = u64_key((const unsigned char *)kv->mv_data + 8);
	return (b->id & ENDS_LABELLED) ? AR_ECORRUPT : 0;
}

/* A bucket's value: a whole number of entries, at least one. */
static int
bucket_size(const MDB_val *v, uint32_t *n)
{
	if (v->mv_size == 0 || v->mv_size % sizeof(struct end_entry) != 0 ||
	    v->mv_size > sizeof(struct end_entry) * ENDS_CAP)
		return AR_ECORRUPT;
	*n = (uint32_t)(v->mv_size / sizeof(struct end_entry));
	return 0;
}

/* How many cached buckets start at or below x (the first starts below all). */
static size_t
cached_upto(const ar_txn *t, const struct end_entry *x)
{
	size_t lo = 0, hi = t->nends;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct end_bucket *b = t->ends[mid];

		if (b->first || entry_cmp(&b->bound, x) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* A free bucket, placed at position i of the cache. */
static int
cache_insert(ar_txn *t, size_t i, struct end_bucket **bp)
{
	struct end_bucket *b;

	if (t->nends == t->ends_cap) {
		size_t cap = t->ends_cap ? 2 * t->ends_cap : 16;
		struct end_bucket **p = realloc(t->ends, cap * sizeof(*p));

		if (p == NULL)
			return ENOMEM;
		memset(p + t->ends_cap, 0, (cap - t->ends_cap) * sizeof(*p));
		t->ends = p;
		t->ends_cap = cap;
	}
	if ((b = t->ends[t->nends]) == NULL &&
	    (b = malloc(sizeof(*b))) == NULL)
		return ENOMEM;
	memmove(t->ends + i + 1, t->ends + i, (t->nends - i) * sizeof(b));
	t->ends[i] = b;
	t->nends++;
	*bp = b;
	return 0;
}

/* Take bucket i out of the cache; its memory waits past the used ones. */
static void
cache_remove(ar_txn *t, size_t i)
{
	struct end_bucket *b = t->ends[i];

	memmove(t->ends + i, t->ends + i + 1, (t->nends - i - 1) * sizeof(b));
	t->ends[--t->nends] = b;
}

/*
 * Find in LMDB the bucket x belongs to, and cache it if it is not; *bp
 * is NULL if there are no buckets.  A cached bucket's hi is refreshed:
 * the next one may have gone.
 */
static int
bucket_load(ar_txn *t, const struct end_entry *x, struct end_bucket **bp)
{
	unsigned char key[16];
	MDB_val kv, v, nk, nv;
	MDB_cursor *cur;
	struct end_entry bound, hi = top;
	struct end_bucket *b;
	uint32_t n;
	size_t i;
	int rc, first = 0;

	*bp = NULL;
	bound_key(x, key, &kv);
	if ((rc = mdb_cursor_open(t->txn, t->s->ends, &cur)) != 0)
		return rc;
	rc = mdb_cursor_get(cur, &kv, &v, MDB_SET_RANGE);
	if (rc == 0 && (kv.mv_size != 16 || memcmp(kv.mv_data, key, 16) != 0)) {
		/* Past x: the bucket is the one before, if any. */
		if ((rc = mdb_cursor_get(cur, &kv, &v, MDB_PREV)) == MDB_NOTFOUND)
			rc = mdb_cursor_get(cur, &kv, &v, MDB_FIRST);
	} else if (rc == MDB_NOTFOUND)
		rc = mdb_cursor_get(cur, &kv, &v, MDB_LAST);
	if (rc == 0 && (rc = key_bound(&kv, &bound)) == 0 &&
	    (rc = bucket_size(&v, &n)) == 0) {
		MDB_val bv = v;

		if ((rc = mdb_cursor_get(cur, &nk, &nv, MDB_NEXT)) == 0)
			rc = key_bound(&nk, &hi);
		else if (rc == MDB_NOTFOUND)
			rc = 0;
		if (rc == 0 && (rc = mdb_cursor_get(cur, &nk, &nv,
		    MDB_FIRST)) == 0)
			first = nk.mv_size == 16 &&
			    memcmp(nk.mv_data, kv.mv_data, 16) == 0;
		v = bv;
	}
	if (rc != 0) {
		mdb_cursor_close(cur);
		return rc == MDB_NOTFOUND ? 0 : rc;
	}
	i = cached_upto(t, &bound);
	if (i > 0 && entry_cmp(&t->ends[i - 1]->bound, &bound) == 0)
		b = t->ends[i - 1];
	else if ((rc = cache_insert(t, i, &b)) == 0) {
		b->bound = bound;
		b->dirty = 0;
		b->n = n;
		memcpy(b->e, v.mv_data, v.mv_size);
	}
	mdb_cursor_close(cur);
	if (rc != 0)
		return rc;
	b->hi = hi;
	b->first = first;
	*bp = b;
	return 0;
}

/* The bucket x belongs to, from the cache or LMDB. */
static int
bucket_for(ar_txn *t, const struct end_entry *x, struct end_bucket **bp)
{
	size_t i = cached_upto(t, x);

	if (i > 0 && entry_cmp(x, &t->ends[i - 1]->hi) < 0) {
		*bp = t->ends[i - 1];
		return 0;
	}
	return bucket_load(t, x, bp);
}

static int
bucket_put(ar_txn *t, struct end_bucket *b)
{
	unsigned char key[16];
	MDB_val kv, v = { b->n * sizeof(struct end_entry), NULL };
	int rc;

	bound_key(&b->bound, key, &kv);
	ring_wrote(t);
	if (b->n == 0)
		rc = mdb_del(t->txn, t->s->ends, &kv, NULL);
	else if ((rc = mdb_put(t->txn, t->s->ends, &kv, &v, MDB_RESERVE)) == 0)
		memcpy(v.mv_data, b->e, v.mv_size);
	if (rc == 0)
		b->dirty = 0;
	return rc == MDB_NOTFOUND ? AR_ECORRUPT : rc;
}

/*
 * Split full bucket b, at position i of the cache, in two halves.  The
 * upper half is written at once under its new bound, so that LMDB knows
 * every bound and can route any entry.  The first bucket may hold entries
 * below its bound: it is first given the bound of its lowest, so that
 * the upper half's bound is above it.
 */
static int
bucket_split(ar_txn *t, size_t i, struct end_bucket *b)
{
	unsigned char key[16];
	MDB_val kv;
	struct end_bucket *u;
	uint32_t half = b->n / 2;
	int rc;

	qsort(b->e, b->n, sizeof(b->e[0]), entry_qcmp);
	if (b->first && entry_cmp(&b->e[0], &b->bound) < 0) {
		bound_key(&b->bound, key, &kv);
		ring_wrote(t);
		if ((rc = mdb_del(t->txn, t->s->ends, &kv, NULL)) != 0)
			return rc == MDB_NOTFOUND ? AR_ECORRUPT : rc;
		b->bound = b->e[0];
		b->bound.id &= ~ENDS_LABELLED;
		if ((rc = bucket_put(t, b)) != 0)
			return rc;
	}
	if ((rc = cache_insert(t, i + 1, &u)) != 0)
		return rc;
	u->n = b->n - half;
	memcpy(u->e, b->e + half, u->n * sizeof(u->e[0]));
	u->bound = u->e[0];
	u->bound.id &= ~ENDS_LABELLED;
	u->hi = b->hi;
	u->first = 0;
	b->n = half;
	b->hi = u->bound;
	b->dirty = 1;
	return bucket_put(t, u);
}

int
ends_add(ar_txn *t, uint64_t end, uint64_t id, int labelled)
{
	struct end_entry x = { end, id };
	struct end_bucket *b;
	int rc;

	if ((rc = bucket_for(t, &x, &b)) != 0)
		return rc;
	if (b == NULL) {
		/* The first entry of an empty index opens its first bucket. */
		if ((rc = cache_insert(t, 0, &b)) != 0)
			return rc;
		b->bound = x;
		b->hi = top;
		b->first = 1;
		b->n = 0;
	} else if (b->n == ENDS_CAP) {
		if ((rc = bucket_split(t, cached_upto(t, &x) - 1, b)) != 0)
			return rc;
		b = t->ends[cached_upto(t, &x) - 1];
	}
	if (labelled)
		x.id |= ENDS_LABELLED;
	b->e[b->n++] = x;
	b->dirty = 1;
	/* LMDB must know every bound: a new first bucket is written now. */
	return b->n == 1 && b->first ? bucket_put(t, b) : 0;
}

int
ends_remove(ar_txn *t, uint64_t end, uint64_t id)
{
	struct end_entry x = { end, id };
	struct end_bucket *b;
	int rc;

	if ((rc = bucket_for(t, &x, &b)) != 0)
		return rc;
	for (uint32_t i = 0; b != NULL && i < b->n; i++)
		if (entry_cmp(&b->e[i], &x) == 0) {
			b->e[i] = b->e[--b->n];
			b->dirty = 1;
			return 0;
		}
	return AR_ECORRUPT;
}

int
ends_find(ar_txn *t, uint64_t end, uint64_t id, int *labelled)
{
	struct end_entry x = { end, id };
	struct end_bucket *b;
	int rc;

	*labelled = -1;
	if ((rc = bucket_for(t, &x, &b)) != 0)
		return rc;
	for (uint32_t i = 0; b != NULL && i < b->n; i++)
		if (entry_cmp(&b->e[i], &x) == 0) {
			*labelled = (b->e[i].id & ENDS_LABELLED) != 0;
			break;
		}
	return 0;
}

int
ends_flush(ar_txn *t)
{
	int rc;

	for (size_t i = 0; i < t->nends; i++) {
		struct end_bucket *b = t->ends[i];

		if (!b->dirty)
			continue;
		if ((rc = bucket_put(t, b)) != 0)
			return rc;
		if (b->n == 0)
			cache_remove(t, i--);
	}
	return 0;
}

void
ends_discard(ar_txn *t)
{
	t->nends = 0;
}

void
ends_free(ar_txn *t)
{
	for (size_t i = 0; i < t->ends_cap; i++)
		free(t->ends[i]);
	free(t->ends);
	t->ends = NULL;
	t->nends = t->ends_cap = 0;
}

int
ends_purge(ar_txn *t, uint64_t last, int all,
    int (*visit)(ar_txn *, const struct end_entry *, void *), void *arg,
    uint64_t *purged)
{
	struct end_entry gone[ENDS_CAP], keep[ENDS_CAP];
	MDB_cursor *cur;
	MDB_val kv, v;
	int rc;

	*purged = 0;
	if ((rc = ends_flush(t)) != 0)
		return rc;
	ends_discard(t);
	if ((rc = mdb_cursor_open(t->txn, t->s->ends, &cur)) != 0)
		return rc;
	while ((rc = mdb_cursor_get(cur, &kv, &v, MDB_FIRST)) == 0) {
		unsigned char key[16];
		uint32_t n, ngone = 0, nkeep = 0;
		struct end_entry bound;

		if ((rc = key_bound(&kv, &bound)) != 0 ||
		    (rc = bucket_size(&v, &n)) != 0)
			break;
		for (uint32_t i = 0; i < n; i++) {
			struct end_entry e;

			memcpy(&e, (const char *)v.mv_data + i * sizeof(e),
			    sizeof(e));
			if (e.end <= last)
				gone[ngone++] = e;
			else
				keep[nkeep++] = e;
		}
		if (all)
			qsort(gone, ngone, sizeof(gone[0]), entry_qcmp);
		for (uint32_t i = 0; i < ngone; i++)
			if ((all || (gone[i].id & ENDS_LABELLED)) &&
			    (rc = visit(t, &gone[i], arg)) != 0)
				goto out;
		*purged += ngone;
		ring_wrote(t);
		if (nkeep == 0) {
			if ((rc = mdb_cursor_del(cur, 0)) != 0)
				break;
			continue;
		}
		/* The rest of this bucket, and every later one, end later. */
		if (ngone > 0) {
			bound_key(&bound, key, &kv);
			v.mv_size = nkeep * sizeof(keep[0]);
			v.mv_data = keep;
			rc = mdb_put(t->txn, t->s->ends, &kv, &v, 0);
		}
		break;
	}
out:
	mdb_cursor_close(cur);
	return rc == MDB_NOTFOUND ? 0 : rc;
}
