/*
 * ring.c - the slotted ring of GarQ: nodes in use per slot.
 *
 * A struct ring is one ring, an object: its database and key prefix, its
 * geometry, and what the current transaction has read and changed of it.
 * The store's node ring is one instance, held by the transaction; another
 * count per slot is another instance, in the same database under its own
 * prefix.  The transaction lends the LMDB transaction and the generation
 * that says whether a page pointer is still good (internal.h).
 *
 * Absolute slot s lives in chunk k = s / CHUNK_SLOTS, stored at ring
 * position k mod chunks.  Each chunk records its absolute number, so a
 * chunk left from an earlier lap reads as empty instead of being mistaken
 * for the future.  The ring has one position more than the horizon needs:
 * a position is reused only once all the slots of its old chunk lie
 * before the clock.
 *
 * Three levels answer "the largest count over [from, to)": the summary
 * (one peak per chunk, a single value read once per transaction), the
 * chunk's block maxima, and the slots themselves; a level is descended
 * only where the one above cannot decide.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define PEAK_MASK ((1u << PEAK_BITS) - 1)

/* The key of position pos (or SUMMARY_KEY) of ring r. */
static struct kv_val *
pos_key(const struct ring *r, uint32_t pos, unsigned char key[8], struct kv_val *kv)
{
	kv->size = 0;
	if (r->id != 0) {
		key_u32(key, r->id);
		kv->size = 4;
	}
	key_u32(key + kv->size, pos);
	kv->size += 4;
	kv->data = key;
	return kv;
}

static uint32_t
chunk_pos(const struct ring *r, int64_t k)
{
	return (uint32_t)((uint64_t)k % r->chunks);
}

static int
aligned(const void *p)
{
	return (uintptr_t)p % _Alignof(struct chunk) == 0;
}

/* Forget the changed chunks, and the copies held: their transaction
 * ended or is being undone. */
static void
ring_discard(struct ring *r)
{
	while (r->ndirty > 0)
		r->cache[r->dirty[--r->ndirty]].dirty = 0;
	r->epoch++;
}

/*
 * Ready ring r for a transaction: its geometry, and the window of slots
 * [base, base + horizon) it answers for.  What an aborted transaction
 * changed is forgotten, and nothing is loaded yet.
 */
int
ring_begin(struct ring *r, uint32_t chunks, uint32_t capacity, int64_t base,
    int64_t horizon)
{
	ring_discard(r);
	r->summary_loaded = r->summary_dirty = 0;
	if (r->chunks != chunks) {
		ring_free(r);           /* not the store it was made for */
		if ((r->cache = calloc(chunks, sizeof(*r->cache))) == NULL ||
		    (r->dirty = malloc(chunks * sizeof(*r->dirty))) == NULL)
			return ENOMEM;
		r->chunks = chunks;
	}
	r->capacity = r->max = capacity;
	r->base = base;
	r->horizon = horizon;
	return 0;
}

/* Free what ring r keeps in memory; ring_begin() may use it again. */
void
ring_free(struct ring *r)
{
	for (uint32_t i = 0; i < r->chunks; i++)
		free(r->cache[i].copy);
	free(r->cache);
	free(r->dirty);
	free(r->summary);
	free(r->scratch);
	r->cache = NULL;
	r->dirty = NULL;
	r->summary = NULL;
	r->scratch = NULL;
	r->chunks = 0;
}

/* Load the summary of chunk peaks, once per transaction. */
static int
ring_summary(ar_txn *t, struct ring *r)
{
	unsigned char key[8];
	struct kv_val kv, v;
	size_t size = r->chunks * sizeof(uint64_t);
	int rc;

	if (r->summary_loaded)
		return 0;
	if (r->summary == NULL &&
	    (r->summary = malloc(r->chunks * sizeof(uint64_t))) == NULL)
		return ENOMEM;
	rc = kv_get(t->txn, r->dbi, pos_key(r, SUMMARY_KEY, key, &kv), &v);
	if (rc == KV_NOTFOUND) {
		memset(r->summary, 0, size);
		rc = 0;
	} else if (rc == 0 && v.size != size)
		rc = AR_ECORRUPT;
	else if (rc == 0)
		memcpy(r->summary, v.data, size);
	r->summary_loaded = rc == 0;
	return rc;
}

/* The peak of chunk k: 0 for a chunk of an earlier lap or never written. */
static int
chunk_peak(ar_txn *t, struct ring *r, int64_t k, uint32_t *peak)
{
	uint64_t e;
	int rc;

	if ((rc = ring_summary(t, r)) != 0)
		return rc;
	e = r->summary[chunk_pos(r, k)];
	*peak = 0;
	if (e >> PEAK_BITS > (uint64_t)k)
		return AR_ECORRUPT;     /* a later lap: the slot read is too old */
	if (e >> PEAK_BITS == (uint64_t)k)
		*peak = (uint32_t)(e & PEAK_MASK);
	return 0;
}

/*
 * Write the chunks this transaction changed to LMDB: at commit, and
 * before a nested transaction begins or commits, so that LMDB's undo
 * covers them.  On failure the chunks not yet written stay dirty.
 */
int
ring_flush_chunks(ar_txn *t, struct ring *r)
{
	unsigned char key[8];
	struct kv_val kv, v;
	int rc;

	while (r->ndirty > 0) {
		uint32_t pos = r->dirty[r->ndirty - 1];
		struct cached *e = &r->cache[pos];

		v.size = sizeof(struct chunk);
		v.data = e->copy;
		rc = kv_put(t->txn, r->dbi, pos_key(r, pos, key, &kv), &v, 0);
		t->flushed = 1;
		t->gen++;
		if (rc != 0)
			return rc;
		e->dirty = 0;
		e->held = r->epoch;     /* as LMDB has it now */
		r->ndirty--;
	}
	return 0;
}

/* Has ring r changes that ring_flush would write? */
int
ring_pending(const struct ring *r)
{
	return r->ndirty > 0 || r->summary_dirty;
}

/* Write the changed chunks and the summary, before commit. */
int
ring_flush(ar_txn *t, struct ring *r)
{
	unsigned char key[8];
	struct kv_val kv, v = { r->chunks * sizeof(uint64_t), r->summary };
	int rc;

	if ((rc = ring_flush_chunks(t, r)) != 0 || !r->summary_dirty)
		return rc;
	rc = kv_put(t->txn, r->dbi, pos_key(r, SUMMARY_KEY, key, &kv), &v, 0);
	txn_wrote(t);
	r->summary_dirty = rc != 0;
	return rc;
}

/*
 * A savepoint of ring r: its changes so far go to LMDB's current
 * transaction, before the nested one begins, and its summary is copied.
 */
int
ring_save(ar_txn *t, struct ring *r, struct ring_save *rs)
{
	size_t size = r->chunks * sizeof(uint64_t);
	int rc;

	if ((rc = ring_summary(t, r)) != 0 ||
	    (rc = ring_flush_chunks(t, r)) != 0)
		return rc;
	if ((rs->summary = malloc(size)) == NULL)
		return ENOMEM;
	memcpy(rs->summary, r->summary, size);
	rs->summary_dirty = r->summary_dirty;
	return 0;
}

/* Back to the savepoint: the nested transaction was undone. */
void
ring_restore(struct ring *r, struct ring_save *rs)
{
	ring_discard(r);
	memcpy(r->summary, rs->summary, r->chunks * sizeof(uint64_t));
	r->summary_dirty = rs->summary_dirty;
	free(rs->summary);
}

/* The changes since the savepoint are kept: it is not needed any more. */
void
ring_release(struct ring_save *rs)
{
	free(rs->summary);
}

/* Entry e's copy, allocated on its first use. */
static int
copy_room(struct cached *e)
{
	if (e->copy == NULL && (e->copy = malloc(sizeof(*e->copy))) == NULL)
		return ENOMEM;
	return 0;
}

/*
 * Find chunk number k.  *c is NULL when the chunk holds no counts for this
 * lap.  The pointer is valid until the next change to the ring, or until
 * txn_wrote() says LMDB may have moved it.
 */
static int
chunk_get(ar_txn *t, struct ring *r, int64_t k, const struct chunk **c)
{
	unsigned char key[8];
	uint32_t pos = chunk_pos(r, k);
	struct cached *e = &r->cache[pos];
	struct kv_val kv, v;
	const struct chunk *p;
	int rc;

	if (e->dirty || e->held == r->epoch)
		p = e->copy;
	else if (e->c != NULL && e->gen == t->gen)
		p = e->c;
	else {
		rc = kv_get(t->txn, r->dbi, pos_key(r, pos, key, &kv), &v);
		r->reads++;
		if (rc == KV_NOTFOUND) {
			*c = NULL;
			return 0;
		}
		if (rc != 0)
			return rc;
		if (v.size != sizeof(struct chunk))
			return AR_ECORRUPT;
		/* A page pointer would not outlive the next write: copied,
		 * the chunk is read once, not once a request. */
		if (t->flushed) {
			if ((rc = copy_room(e)) != 0)
				return rc;
			memcpy(e->copy, v.data, sizeof(*e->copy));
			e->held = r->epoch;
			p = e->copy;
		} else if (aligned(v.data)) {
			p = v.data;
			e->c = p;
			e->gen = t->gen;
		} else {
			if (r->scratch == NULL &&
			    (r->scratch = malloc(sizeof(*r->scratch))) == NULL)
				return ENOMEM;
			memcpy(r->scratch, v.data, sizeof(*r->scratch));
			p = r->scratch;
		}
	}
	if (p->number > (uint64_t)k)
		return AR_ECORRUPT;
	*c = p->number == (uint64_t)k ? p : NULL;
	return 0;
}

/*
 * A walk over the chunks that the slots [from, to) lie in, a chunk a
 * step: k, the chunk; lo, its first slot; [i, stop), the part of the
 * range inside it.
 */
struct chunk_walk {
	int64_t k, lo;
	int64_t i, stop;
	int64_t to;
};

static void
chunks_from(struct chunk_walk *w, int64_t from, int64_t to)
{
	w->stop = from;
	w->to = to;
}

/* The next chunk of the walk: 1, or 0 past the range. */
static int
chunks_next(struct chunk_walk *w)
{
	if (w->stop >= w->to)
		return 0;
	w->i = w->stop;
	w->k = w->i / CHUNK_SLOTS;
	w->lo = w->k * CHUNK_SLOTS;
	w->stop = w->lo + CHUNK_SLOTS < w->to ? w->lo + CHUNK_SLOTS : w->to;
	return 1;
}

/* Is [from, to) inside the part of the ring the store vouches for? */
static int
in_window(const struct ring *r, int64_t from, int64_t to)
{
	return r->base <= from && from <= to && to <= r->base + r->horizon;
}

/* The chunk k, which the summary says holds counts (above a cap):
 * AR_ECORRUPT if it is not there. */
static int
busy_chunk(ar_txn *t, struct ring *r, int64_t k, const struct chunk **c)
{
	int rc;

	if ((rc = chunk_get(t, r, k, c)) != 0)
		return rc;
	return *c == NULL ? AR_ECORRUPT : 0;
}

/* The first slot in [from, to) with more than cap nodes in use, or -1;
 * EINVAL outside the ring's window. */
int
ring_first_over(ar_txn *t, struct ring *r, int64_t from, int64_t to,
    uint32_t cap, int64_t *bad)
{
	const struct chunk *c;
	struct chunk_walk w;
	uint32_t peak;
	int rc;

	*bad = -1;
	if (!in_window(r, from, to))
		return EINVAL;
	for (chunks_from(&w, from, to); chunks_next(&w);) {
		if ((rc = chunk_peak(t, r, w.k, &peak)) != 0)
			return rc;
		if (peak > cap && (rc = busy_chunk(t, r, w.k, &c)) != 0)
			return rc;
		while (peak > cap && w.i < w.stop) {
			int64_t b = (w.i - w.lo) / BLOCK_SLOTS;
			int64_t end = w.lo + (b + 1) * BLOCK_SLOTS;

			if (end > w.stop)
				end = w.stop;
			if (c->blockmax[b] > cap)
				for (; w.i < end; w.i++)
					if (c->used[w.i - w.lo] > cap) {
						*bad = w.i;
						return 0;
					}
			w.i = end;
		}
	}
	return 0;
}

/* The largest count over slots [from, to). */
int
ring_peak(ar_txn *t, struct ring *r, int64_t from, int64_t to, uint32_t *peak)
{
	const struct chunk *c;
	struct chunk_walk w;
	uint32_t max = 0, p;
	int rc;

	if (!in_window(r, from, to))
		return EINVAL;
	for (chunks_from(&w, from, to); chunks_next(&w);) {
		if ((rc = chunk_peak(t, r, w.k, &p)) != 0)
			return rc;
		if (p <= max)
			continue;
		if (w.i == w.lo && w.stop == w.lo + CHUNK_SLOTS) {
			max = p;
			continue;
		}
		if ((rc = busy_chunk(t, r, w.k, &c)) != 0)
			return rc;
		while (w.i < w.stop) {
			int64_t b = (w.i - w.lo) / BLOCK_SLOTS;
			int64_t bl = w.lo + b * BLOCK_SLOTS;
			int64_t end = bl + BLOCK_SLOTS;

			if (end > w.stop)
				end = w.stop;
			if (c->blockmax[b] <= max)
				;
			else if (w.i == bl && end == bl + BLOCK_SLOTS)
				max = c->blockmax[b];
			else
				for (int64_t j = w.i; j < end; j++)
					if (c->used[j - w.lo] > max)
						max = c->used[j - w.lo];
			w.i = end;
		}
	}
	*peak = max;
	return 0;
}

/* A chunk that counts nothing, for a ring with no counts there. */
static const struct chunk no_counts;

/*
 * Does a slot of the n from a and b add up to more than cap?  Counts
 * stay below 2^PEAK_BITS, so their sum does not overflow.  A whole
 * block is a loop of known length, which the compiler vectorizes.
 */
static int
sum_over(const uint32_t *a, const uint32_t *b, int64_t n, uint32_t cap)
{
	uint32_t hit = 0;

	if (n == BLOCK_SLOTS) {
		for (int j = 0; j < BLOCK_SLOTS; j++)
			hit |= a[j] + b[j] > cap;
		return hit != 0;
	}
	for (int64_t j = 0; j < n; j++)
		hit |= a[j] + b[j] > cap;
	return hit != 0;
}

/*
 * Is there a slot in [from, to) where a's and b's counts add up to more
 * than cap (*over)?  A chunk whose two peaks leave room is not read,
 * nor one whose peak is 0.
 */
int
ring_sum_over(ar_txn *t, struct ring *a, struct ring *b, int64_t from,
    int64_t to, uint32_t cap, int *over)
{
	const struct chunk *ca, *cb;
	struct chunk_walk w;
	uint32_t pa, pb;
	int rc;

	*over = 0;
	if (!in_window(a, from, to) || !in_window(b, from, to))
		return EINVAL;
	for (chunks_from(&w, from, to); chunks_next(&w);) {
		if ((rc = chunk_peak(t, a, w.k, &pa)) != 0 ||
		    (rc = chunk_peak(t, b, w.k, &pb)) != 0)
			return rc;
		if ((uint64_t)pa + pb <= cap)
			continue;
		ca = cb = &no_counts;
		if ((pa > 0 && (rc = busy_chunk(t, a, w.k, &ca)) != 0) ||
		    (pb > 0 && (rc = busy_chunk(t, b, w.k, &cb)) != 0))
			return rc;
		/* Then block by block, as the maxima allow. */
		while (w.i < w.stop) {
			int64_t bl = (w.i - w.lo) / BLOCK_SLOTS;
			int64_t end = w.lo + (bl + 1) * BLOCK_SLOTS;

			if (end > w.stop)
				end = w.stop;
			if ((uint64_t)ca->blockmax[bl] + cb->blockmax[bl] > cap &&
			    sum_over(ca->used + (w.i - w.lo), cb->used +
			    (w.i - w.lo), end - w.i, cap)) {
				*over = 1;
				return 0;
			}
			w.i = end;
		}
	}
	return 0;
}

/*
 * GarQ Algorithm 4: the earliest start s in [lo, hi] such that every slot
 * of [s, s + len) has room for need more nodes; *start is -1 if none.
 * One pass: a full slot moves the candidate past it, and a chunk or block
 * whose maximum leaves room is passed over whole.  Inside a busy block
 * the slots are read in a tight loop: a refused request on a full machine
 * reads every slot of its window, a few instructions each.
 */
int
ring_first_fit(ar_txn *t, struct ring *r, int64_t lo, int64_t hi,
    int64_t len, uint64_t need, int64_t *start)
{
	const struct chunk *c = NULL;
	int64_t s = lo, i = lo, k = -1, base = 0;      /* [s, i) has room */
	uint32_t cap, peak = 0;
	int rc;

	*start = -1;
	if (lo > hi || need > r->capacity)
		return 0;
	if (!in_window(r, lo, hi + len))
		return EINVAL;
	cap = r->capacity - (uint32_t)need;
	while (s <= hi) {
		int64_t stop = s + len, end;

		if (i >= stop) {
			*start = s;
			return 0;
		}
		if (i / CHUNK_SLOTS != k) {
			k = i / CHUNK_SLOTS;
			base = k * CHUNK_SLOTS;
			if ((rc = chunk_peak(t, r, k, &peak)) != 0 ||
			    (peak > cap && (rc = busy_chunk(t, r, k, &c)) != 0))
				return rc;
		}
		if (peak <= cap) {
			i = base + CHUNK_SLOTS < stop ? base + CHUNK_SLOTS : stop;
			continue;
		}
		end = base + ((i - base) / BLOCK_SLOTS + 1) * BLOCK_SLOTS;
		if (c->blockmax[(i - base) / BLOCK_SLOTS] <= cap) {
			i = end < stop ? end : stop;
			continue;
		}
		for (; i < end; i++) {
			if (c->used[i - base] > cap) {
				if ((s = i + 1) > hi)
					return 0;
			} else if (i + 1 - s >= len) {
				*start = s;
				return 0;
			}
		}
	}
	return 0;
}

/* Recompute the maxima of blocks [b0, b1] and of the chunk. */
static void
chunk_maxima(struct chunk *c, int64_t b0, int64_t b1)
{
	uint32_t peak = 0;

	for (int64_t b = b0; b <= b1; b++) {
		uint32_t max = 0;

		for (int j = 0; j < BLOCK_SLOTS; j++)
			if (c->used[b * BLOCK_SLOTS + j] > max)
				max = c->used[b * BLOCK_SLOTS + j];
		c->blockmax[b] = max;
	}
	for (int b = 0; b < CHUNK_BLOCKS; b++)
		if (c->blockmax[b] > peak)
			peak = c->blockmax[b];
	c->peak = peak;
}

/*
 * The chunk k to change: the transaction's own copy, made on the first
 * change from LMDB's page (or empty, for a chunk of an earlier lap).
 */
static int
chunk_own(ar_txn *t, struct ring *r, int64_t k, struct chunk **c)
{
	uint32_t pos = chunk_pos(r, k);
	struct cached *e = &r->cache[pos];
	const struct chunk *old;
	int rc;

	if (!e->dirty) {
		if ((rc = chunk_get(t, r, k, &old)) != 0)
			return rc;
		if ((rc = copy_room(e)) != 0)
			return rc;
		if (old == NULL) {
			memset(e->copy, 0, sizeof(*e->copy));
			e->copy->number = (uint64_t)k;
		} else if (old != e->copy)
			memcpy(e->copy, old, sizeof(*e->copy));
		e->dirty = 1;
		r->dirty[r->ndirty++] = pos;
	}
	*c = e->copy;
	return (*c)->number == (uint64_t)k ? 0 : AR_ECORRUPT;
}

/*
 * Add delta nodes to every slot of [from, to).  A count that would pass
 * the capacity or fall below zero means the caller's view of the ring is
 * wrong: AR_ECORRUPT, and the caller aborts the transaction.  The changes
 * go to the transaction's copies of the chunks; ring_flush() writes them.
 */
int
ring_add(ar_txn *t, struct ring *r, int64_t from, int64_t to, int64_t delta)
{
	struct chunk *c;
	struct chunk_walk w;
	int rc;

	if (!in_window(r, from, to))
		return EINVAL;
	if ((rc = ring_summary(t, r)) != 0)
		return rc;
	for (chunks_from(&w, from, to); chunks_next(&w);) {
		if ((rc = chunk_own(t, r, w.k, &c)) != 0)
			return rc;
		for (int64_t j = w.i; j < w.stop; j++) {
			int64_t n = (int64_t)c->used[j - w.lo] + delta;

			if (n < 0 || n > r->max)
				return AR_ECORRUPT;
			c->used[j - w.lo] = (uint32_t)n;
		}
		chunk_maxima(c, (w.i - w.lo) / BLOCK_SLOTS,
		    (w.stop - 1 - w.lo) / BLOCK_SLOTS);
		r->summary[chunk_pos(r, w.k)] =
		    (uint64_t)w.k << PEAK_BITS | c->peak;
		r->summary_dirty = 1;
	}
	return 0;
}

/*
 * Copy the counts of slots [from, to) to out, for the invariant check,
 * verifying every maximum on the way.
 */
int
ring_counts(ar_txn *t, struct ring *r, int64_t from, int64_t to, uint32_t *out)
{
	const struct chunk *c;
	struct chunk_walk w;
	uint32_t peak;
	int rc;

	if (!in_window(r, from, to))
		return EINVAL;
	for (chunks_from(&w, from, to); chunks_next(&w);) {
		if ((rc = chunk_peak(t, r, w.k, &peak)) != 0 ||
		    (rc = chunk_get(t, r, w.k, &c)) != 0)
			return rc;
		if (c != NULL) {
			struct chunk copy = *c;

			chunk_maxima(&copy, 0, CHUNK_BLOCKS - 1);
			if (memcmp(&copy, c, sizeof(copy)) != 0 ||
			    peak != c->peak)
				return AR_ECORRUPT;
		} else if (peak != 0)
			return AR_ECORRUPT;
		for (; w.i < w.stop; w.i++)
			*out++ = c == NULL ? 0 : c->used[w.i - w.lo];
	}
	return 0;
}
