/*
 * slots.c - lists of (slot, id) entries kept in buckets: the live
 * reservations by end slot (`ends`) and the movable ones by start slot
 * (`flex`).
 *
 * Each value of a list's database is a bucket: up to BUCKET_CAP unordered
 * entries.  Its key, the bound, is the (slot, id) of the entry it was
 * split at; an entry belongs to the bucket with the greatest bound not
 * above it, or to the first bucket if there is none.  So the buckets cut
 * the entries, in order, into runs: a purge deletes whole buckets from the
 * front, a range is read a few buckets at a time, and an insertion
 * touches one value in memory.  A transaction keeps the buckets it reads
 * or changes, sorted by bound, and writes the changed ones back at commit
 * or before a nested transaction, as the ring does its chunks: an entry
 * costs a few stores, not a B-tree insertion or deletion.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "internal.h"

struct bucket {
	struct slot_entry bound; /* its key */
	struct slot_entry hi;   /* what sorts below this is its (when loaded) */
	int first;              /* the lowest bound: it takes smaller entries too */
	int dirty;              /* LMDB does not have its entries yet */
	uint32_t n;
	struct slot_entry e[BUCKET_CAP];
};

static const struct slot_entry top = { UINT64_MAX, UINT64_MAX };

static int
entry_cmp(const struct slot_entry *a, const struct slot_entry *b)
{
	uint64_t ai = a->id & ~ENTRY_LABELLED, bi = b->id & ~ENTRY_LABELLED;

	if (a->slot != b->slot)
		return a->slot < b->slot ? -1 : 1;
	return ai < bi ? -1 : ai > bi;
}

static int
entry_qcmp(const void *a, const void *b)
{
	return entry_cmp(a, b);
}

static void
bound_key(const struct slot_entry *b, unsigned char key[16], struct kv_val *kv)
{
	key_u64(key, b->slot);
	key_u64(key + 8, b->id & ~ENTRY_LABELLED);
	kv->size = 16;
	kv->data = key;
}

static int
key_bound(const struct kv_val *kv, struct slot_entry *b)
{
	if (kv->size != 16)
		return AR_ECORRUPT;
	b->slot = u64_key(kv->data);
	b->id = u64_key((const unsigned char *)kv->data + 8);
	return (b->id & ENTRY_LABELLED) ? AR_ECORRUPT : 0;
}

/* A bucket's value: a whole number of entries, at least one. */
static int
bucket_size(const struct kv_val *v, uint32_t *n)
{
	if (v->size == 0 || v->size % sizeof(struct slot_entry) != 0 ||
	    v->size > sizeof(struct slot_entry) * BUCKET_CAP)
		return AR_ECORRUPT;
	*n = (uint32_t)(v->size / sizeof(struct slot_entry));
	return 0;
}

/* How many cached buckets start at or below x (the first starts below all). */
static size_t
cached_upto(const struct slot_list *l, const struct slot_entry *x)
{
	size_t lo = 0, hi = l->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct bucket *b = l->b[mid];

		if (b->first || entry_cmp(&b->bound, x) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The cached bucket with bound exactly x, or NULL. */
static struct bucket *
cached(const struct slot_list *l, const struct slot_entry *x)
{
	size_t i = cached_upto(l, x);

	return i > 0 && entry_cmp(&l->b[i - 1]->bound, x) == 0 ?
	    l->b[i - 1] : NULL;
}

/* A free bucket, placed at position i of the cache. */
static int
cache_insert(struct slot_list *l, size_t i, struct bucket **bp)
{
	struct bucket *b;
	size_t had = l->cap;

	/* Room for a pointer more; the spare ones are NULL or buckets. */
	if (array_room(&l->b, &l->cap, l->n + 1, sizeof(*l->b)) != 0)
		return ENOMEM;
	memset(l->b + had, 0, (l->cap - had) * sizeof(*l->b));
	if ((b = l->b[l->n]) == NULL && (b = malloc(sizeof(*b))) == NULL)
		return ENOMEM;
	memmove(l->b + i + 1, l->b + i, (l->n - i) * sizeof(b));
	l->b[i] = b;
	l->n++;
	*bp = b;
	return 0;
}

/* Take bucket i out of the cache; its memory waits past the used ones. */
static void
cache_remove(struct slot_list *l, size_t i)
{
	struct bucket *b = l->b[i];

	memmove(l->b + i, l->b + i + 1, (l->n - i - 1) * sizeof(b));
	l->b[--l->n] = b;
}

/* The bucket under LMDB's key kv (value v), cached if it is not. */
static int
bucket_at(struct slot_list *l, const struct kv_val *kv, const struct kv_val *v,
    struct bucket **bp)
{
	struct slot_entry bound;
	struct bucket *b;
	uint32_t n;
	int rc;

	if ((rc = key_bound(kv, &bound)) != 0 || (rc = bucket_size(v, &n)) != 0)
		return rc;
	if ((b = cached(l, &bound)) == NULL) {
		if ((rc = cache_insert(l, cached_upto(l, &bound), &b)) != 0)
			return rc;
		b->bound = bound;
		b->hi = bound;          /* not known yet: the caller says */
		b->first = 0;
		b->dirty = 0;
		b->n = n;
		memcpy(b->e, v->data, v->size);
	}
	*bp = b;
	return 0;
}

/*
 * Find in LMDB the bucket x belongs to and cache it; *bp is NULL if the
 * list is empty.  What the bucket covers is refreshed: the next one may
 * have gone since it was cached.
 */
static int
bucket_load(ar_txn *t, struct slot_list *l, const struct slot_entry *x,
    struct bucket **bp)
{
	unsigned char key[16];
	struct kv_val kv, v, nk, nv;
	struct kv_cursor *cur;
	struct slot_entry hi = top;
	struct bucket *b = NULL;
	int rc, first = 0;

	*bp = NULL;
	bound_key(x, key, &kv);
	if ((rc = kv_cursor_open(t->txn, l->dbi, &cur)) != 0)
		return rc;
	rc = kv_cursor_get(cur, &kv, &v, KV_SET_RANGE);
	if (rc == 0 && (kv.size != 16 || memcmp(kv.data, key, 16) != 0)) {
		/* Past x: the bucket is the one before, if any. */
		if ((rc = kv_cursor_get(cur, &kv, &v, KV_PREV)) == KV_NOTFOUND)
			rc = kv_cursor_get(cur, &kv, &v, KV_FIRST);
	} else if (rc == KV_NOTFOUND)
		rc = kv_cursor_get(cur, &kv, &v, KV_LAST);
	if (rc == 0 && (rc = bucket_at(l, &kv, &v, &b)) == 0) {
		/* The cursor moves on: the bucket's key is kept in key. */
		bound_key(&b->bound, key, &kv);
		if ((rc = kv_cursor_get(cur, &nk, &nv, KV_NEXT)) == 0)
			rc = key_bound(&nk, &hi);
		else if (rc == KV_NOTFOUND)
			rc = 0;
		if (rc == 0 && (rc = kv_cursor_get(cur, &nk, &nv,
		    KV_FIRST)) == 0)
			first = nk.size == 16 &&
			    memcmp(nk.data, kv.data, 16) == 0;
	}
	kv_cursor_close(cur);
	if (rc != 0)
		return rc == KV_NOTFOUND ? 0 : rc;     /* an empty list */
	b->hi = hi;
	b->first = first;
	*bp = b;
	return 0;
}

/* The bucket x belongs to, from the cache or LMDB. */
static int
bucket_for(ar_txn *t, struct slot_list *l, const struct slot_entry *x,
    struct bucket **bp)
{
	size_t i = cached_upto(l, x);

	if (i > 0 && entry_cmp(x, &l->b[i - 1]->hi) < 0) {
		*bp = l->b[i - 1];
		return 0;
	}
	return bucket_load(t, l, x, bp);
}

static int
bucket_put(ar_txn *t, struct slot_list *l, struct bucket *b)
{
	unsigned char key[16];
	struct kv_val kv, v = { b->n * sizeof(struct slot_entry), b->e };
	int rc;

	bound_key(&b->bound, key, &kv);
	txn_wrote(t);
	if (b->n == 0)
		rc = kv_del(t->txn, l->dbi, &kv, NULL);
	else
		rc = kv_put(t->txn, l->dbi, &kv, &v, 0);
	if (rc == 0)
		b->dirty = 0;
	return rc == KV_NOTFOUND ? AR_ECORRUPT : rc;
}

/*
 * Rearrange e[0..n) so that e[k] is where sorting would put it: nothing
 * before it above it, nothing after it below it (Hoare's selection).
 */
static void
select_at(struct slot_entry *e, uint32_t n, uint32_t k)
{
	int64_t lo = 0, hi = (int64_t)n - 1;

	while (lo < hi) {
		struct slot_entry pivot = e[lo + (hi - lo) / 2], tmp;
		int64_t i = lo, j = hi;

		/* The pivot is in [lo, hi]: neither scan runs past it. */
		while (i <= j) {
			while (entry_cmp(&e[i], &pivot) < 0)
				i++;
			while (entry_cmp(&e[j], &pivot) > 0)
				j--;
			if (i <= j) {
				tmp = e[i];
				e[i++] = e[j];
				e[j--] = tmp;
			}
		}
		/* Now [lo, j] <= pivot <= [i, hi], and between them = pivot. */
		if ((int64_t)k <= j)
			hi = j;
		else if ((int64_t)k >= i)
			lo = i;
		else
			return;
	}
}

/*
 * Split full bucket b, at position i of the cache, in two halves.  The
 * upper half is written at once under its new bound, so that LMDB knows
 * every bound and can route any entry.  The first bucket may hold entries
 * below its bound: it is first given the bound of its lowest, so that
 * the upper half's bound is above it.
 */
static int
bucket_split(ar_txn *t, struct slot_list *l, size_t i, struct bucket *b)
{
	unsigned char key[16];
	struct kv_val kv;
	struct bucket *u;
	uint32_t half = b->n / 2, low = 0;
	int rc;

	select_at(b->e, b->n, half);
	for (uint32_t j = 1; j < half; j++)
		if (entry_cmp(&b->e[j], &b->e[low]) < 0)
			low = j;
	if (b->first && entry_cmp(&b->e[low], &b->bound) < 0) {
		bound_key(&b->bound, key, &kv);
		txn_wrote(t);
		if ((rc = kv_del(t->txn, l->dbi, &kv, NULL)) != 0)
			return rc == KV_NOTFOUND ? AR_ECORRUPT : rc;
		b->bound = b->e[low];
		b->bound.id &= ~ENTRY_LABELLED;
		if ((rc = bucket_put(t, l, b)) != 0)
			return rc;
	}
	if ((rc = cache_insert(l, i + 1, &u)) != 0)
		return rc;
	u->n = b->n - half;
	memcpy(u->e, b->e + half, u->n * sizeof(u->e[0]));
	u->bound = u->e[0];
	u->bound.id &= ~ENTRY_LABELLED;
	u->hi = b->hi;
	u->first = 0;
	b->n = half;
	b->hi = u->bound;
	b->dirty = 1;
	return bucket_put(t, l, u);
}

int
slots_add(ar_txn *t, struct slot_list *l, uint64_t slot, uint64_t id,
    int labelled)
{
	struct slot_entry x = { slot, id };
	struct bucket *b;
	int rc;

	if ((rc = bucket_for(t, l, &x, &b)) != 0)
		return rc;
	if (b == NULL) {
		/* The first entry of an empty list opens its first bucket. */
		if ((rc = cache_insert(l, 0, &b)) != 0)
			return rc;
		b->bound = x;
		b->hi = top;
		b->first = 1;
		b->n = 0;
	} else if (b->n == BUCKET_CAP) {
		if ((rc = bucket_split(t, l, cached_upto(l, &x) - 1, b)) != 0)
			return rc;
		b = l->b[cached_upto(l, &x) - 1];
	}
	if (labelled)
		x.id |= ENTRY_LABELLED;
	b->e[b->n++] = x;
	b->dirty = 1;
	/* LMDB must know every bound: a new first bucket is written now. */
	return b->n == 1 && b->first ? bucket_put(t, l, b) : 0;
}

/* Where (slot, id) is in l: its bucket *bp and index *at, or *bp NULL. */
static int
entry_find(ar_txn *t, struct slot_list *l, uint64_t slot, uint64_t id,
    struct bucket **bp, uint32_t *at)
{
	struct slot_entry x = { slot, id };
	struct bucket *b;
	int rc;

	*bp = NULL;
	if ((rc = bucket_for(t, l, &x, &b)) != 0)
		return rc;
	for (uint32_t i = 0; b != NULL && i < b->n; i++)
		if (entry_cmp(&b->e[i], &x) == 0) {
			*bp = b;
			*at = i;
			break;
		}
	return 0;
}

int
slots_remove(ar_txn *t, struct slot_list *l, uint64_t slot, uint64_t id)
{
	struct bucket *b;
	uint32_t i;
	int rc;

	if ((rc = entry_find(t, l, slot, id, &b, &i)) != 0)
		return rc;
	if (b == NULL)
		return AR_ECORRUPT;
	b->e[i] = b->e[--b->n];
	b->dirty = 1;
	return 0;
}

int
slots_find(ar_txn *t, struct slot_list *l, uint64_t slot, uint64_t id,
    int *labelled)
{
	struct bucket *b;
	uint32_t i;
	int rc;

	if ((rc = entry_find(t, l, slot, id, &b, &i)) != 0)
		return rc;
	*labelled = b == NULL ? -1 : (b->e[i].id & ENTRY_LABELLED) != 0;
	return 0;
}

/* Which entries of bucket b lie in [from, to], sorted, into out. */
static uint32_t
in_range(const struct bucket *b, uint64_t from, uint64_t to,
    struct slot_entry *out)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < b->n; i++)
		if (b->e[i].slot >= from && b->e[i].slot <= to)
			out[n++] = b->e[i];
	qsort(out, n, sizeof(out[0]), entry_qcmp);
	return n;
}

int
slots_scan(ar_txn *t, struct slot_list *l, uint64_t from, uint64_t to,
    int (*visit)(ar_txn *, const struct slot_entry *, void *), void *arg)
{
	struct slot_entry x = { from, 0 }, run[BUCKET_CAP];
	unsigned char key[16];
	struct kv_cursor *cur;
	struct kv_val kv, v;
	struct bucket *b;
	int rc;

	/* The bucket of the range's start, then every later bound in LMDB. */
	if ((rc = bucket_for(t, l, &x, &b)) != 0 || b == NULL)
		return rc;
	if ((rc = kv_cursor_open(t->txn, l->dbi, &cur)) != 0)
		return rc;
	bound_key(&b->bound, key, &kv);
	rc = kv_cursor_get(cur, &kv, &v, KV_SET_KEY);
	for (int at_from = 1; rc == 0; at_from = 0) {
		uint32_t n;

		/* Later buckets hold nothing below their bounds. */
		if ((rc = bucket_at(l, &kv, &v, &b)) != 0 ||
		    (!at_from && b->bound.slot > to))
			break;
		n = in_range(b, from, to, run);
		/* visit() may write: the bucket's entries were copied. */
		for (uint32_t i = 0; i < n; i++)
			if ((rc = visit(t, &run[i], arg)) != 0)
				goto out;
		bound_key(&b->bound, key, &kv);
		if ((rc = kv_cursor_get(cur, &kv, &v, KV_SET_KEY)) == 0)
			rc = kv_cursor_get(cur, &kv, &v, KV_NEXT);
	}
out:
	kv_cursor_close(cur);
	return rc == KV_NOTFOUND ? 0 : rc;
}

static int
list_flush(ar_txn *t, struct slot_list *l)
{
	int rc;

	for (size_t i = 0; i < l->n; i++) {
		struct bucket *b = l->b[i];

		if (!b->dirty)
			continue;
		if ((rc = bucket_put(t, l, b)) != 0)
			return rc;
		if (b->n == 0)
			cache_remove(l, i--);
	}
	return 0;
}

/* Has list l buckets that list_flush would write? */
static int
list_pending(const struct slot_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->b[i]->dirty)
			return 1;
	return 0;
}

int
slots_pending(const ar_txn *t)
{
	return list_pending(&t->ends) || list_pending(&t->flex);
}

int
slots_flush(ar_txn *t)
{
	int rc;

	if ((rc = list_flush(t, &t->ends)) != 0)
		return rc;
	return list_flush(t, &t->flex);
}

void
slots_discard(ar_txn *t)
{
	t->ends.n = t->flex.n = 0;
}

static void
list_free(struct slot_list *l)
{
	for (size_t i = 0; i < l->cap; i++)
		free(l->b[i]);
	free(l->b);
	l->b = NULL;
	l->n = l->cap = 0;
}

void
slots_free(ar_txn *t)
{
	list_free(&t->ends);
	list_free(&t->flex);
}

int
slots_purge(ar_txn *t, struct slot_list *l, uint64_t last, int all,
    int (*visit)(ar_txn *, const struct slot_entry *, void *), void *arg,
    uint64_t *purged)
{
	struct slot_entry gone[BUCKET_CAP], keep[BUCKET_CAP];
	struct kv_cursor *cur;
	struct kv_val kv, v;
	int rc;

	*purged = 0;
	if ((rc = list_flush(t, l)) != 0)
		return rc;
	l->n = 0;
	if ((rc = kv_cursor_open(t->txn, l->dbi, &cur)) != 0)
		return rc;
	while ((rc = kv_cursor_get(cur, &kv, &v, KV_FIRST)) == 0) {
		unsigned char key[16];
		uint32_t n, ngone = 0, nkeep = 0;
		struct slot_entry bound;

		if ((rc = key_bound(&kv, &bound)) != 0 ||
		    (rc = bucket_size(&v, &n)) != 0)
			break;
		for (uint32_t i = 0; i < n; i++) {
			struct slot_entry e;

			memcpy(&e, (const char *)v.data + i * sizeof(e),
			    sizeof(e));
			if (e.slot <= last)
				gone[ngone++] = e;
			else
				keep[nkeep++] = e;
		}
		if (all)
			qsort(gone, ngone, sizeof(gone[0]), entry_qcmp);
		for (uint32_t i = 0; i < ngone; i++)
			if (visit != NULL && (all ||
			    (gone[i].id & ENTRY_LABELLED)) &&
			    (rc = visit(t, &gone[i], arg)) != 0)
				goto out;
		*purged += ngone;
		txn_wrote(t);
		if (nkeep == 0) {
			if ((rc = kv_cursor_del(cur)) != 0)
				break;
			continue;
		}
		/* The rest of this bucket, and every later one, come later. */
		if (ngone > 0) {
			bound_key(&bound, key, &kv);
			v.size = nkeep * sizeof(keep[0]);
			v.data = keep;
			rc = kv_put(t->txn, l->dbi, &kv, &v, 0);
		}
		break;
	}
out:
	kv_cursor_close(cur);
	return rc == KV_NOTFOUND ? 0 : rc;
}
