/*
 * ring.c - the slotted ring of GarQ: nodes in use per slot.
 *
 * Absolute slot s lives in chunk k = s / CHUNK_SLOTS, stored at ring
 * position k mod m.chunks.  Each chunk records its absolute number, so a
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

static MDB_val *
pos_key(uint32_t pos, unsigned char key[4], MDB_val *kv)
{
	key[0] = pos >> 24;
	key[1] = pos >> 16;
	key[2] = pos >> 8;
	key[3] = pos;
	kv->mv_size = 4;
	kv->mv_data = key;
	return kv;
}

static uint32_t
chunk_pos(const ar_txn *t, int64_t k)
{
	return (uint32_t)((uint64_t)k % t->m.chunks);
}

static int
aligned(const void *p)
{
	return (uintptr_t)p % _Alignof(struct chunk) == 0;
}

/* Load the summary of chunk peaks, once per transaction. */
int
ring_summary(ar_txn *t)
{
	unsigned char key[4];
	MDB_val kv, v;
	size_t size = t->m.chunks * sizeof(uint64_t);
	int rc;

	if (t->summary_loaded)
		return 0;
	if (t->summary == NULL &&
	    (t->summary = malloc(t->m.chunks * sizeof(uint64_t))) == NULL)
		return ENOMEM;
	rc = mdb_get(t->txn, t->s->ring, pos_key(SUMMARY_KEY, key, &kv), &v);
	if (rc == MDB_NOTFOUND) {
		memset(t->summary, 0, size);
		rc = 0;
	} else if (rc == 0 && v.mv_size != size)
		rc = AR_ECORRUPT;
	else if (rc == 0)
		memcpy(t->summary, v.mv_data, size);
	t->summary_loaded = rc == 0;
	return rc;
}

/* The peak of chunk k: 0 for a chunk of an earlier lap or never written. */
static int
chunk_peak(ar_txn *t, int64_t k, uint32_t *peak)
{
	uint64_t e;
	int rc;

	if ((rc = ring_summary(t)) != 0)
		return rc;
	e = t->summary[chunk_pos(t, k)];
	*peak = 0;
	if (e >> PEAK_BITS > (uint64_t)k)
		return AR_ECORRUPT;     /* a later lap: the slot read is too old */
	if (e >> PEAK_BITS == (uint64_t)k)
		*peak = (uint32_t)(e & PEAK_MASK);
	return 0;
}

/*
 * A write to LMDB, in any database: when this LMDB transaction holds
 * dirty chunk pages, LMDB may spill them to disk and free their memory,
 * so chunk pointers taken before are forgotten.  Chunks flushed by an
 * enclosing transaction are stable while a nested one runs, and clean
 * pages stay put for the whole transaction.
 */
void
ring_wrote(ar_txn *t)
{
	if (t->flushed)
		t->gen++;
}

/*
 * Write the chunks this transaction changed to LMDB: at commit, and
 * before a nested transaction begins or commits, so that LMDB's undo
 * covers them.  On failure the chunks not yet written stay dirty.
 */
int
ring_flush_chunks(ar_txn *t)
{
	unsigned char key[4];
	MDB_val kv, v;
	int rc;

	while (t->ndirty > 0) {
		uint32_t pos = t->dirty[t->ndirty - 1];
		struct cached *e = &t->cache[pos];

		v.mv_size = sizeof(struct chunk);
		v.mv_data = NULL;
		rc = mdb_put(t->txn, t->s->ring, pos_key(pos, key, &kv), &v,
		    MDB_RESERVE);
		t->flushed = 1;
		t->gen++;
		if (rc != 0)
			return rc;
		memcpy(v.mv_data, e->copy, sizeof(struct chunk));
		e->dirty = 0;
		t->ndirty--;
	}
	return 0;
}

/* Forget the changed chunks: their transaction is being undone. */
void
ring_discard(ar_txn *t)
{
	while (t->ndirty > 0)
		t->cache[t->dirty[--t->ndirty]].dirty = 0;
	t->gen++;
}

/* Write the changed chunks and the summary, before commit. */
int
ring_flush(ar_txn *t)
{
	unsigned char key[4];
	MDB_val kv, v = { t->m.chunks * sizeof(uint64_t), t->summary };
	int rc;

	if ((rc = ring_flush_chunks(t)) != 0 || !t->summary_dirty)
		return rc;
	rc = mdb_put(t->txn, t->s->ring, pos_key(SUMMARY_KEY, key, &kv), &v, 0);
	ring_wrote(t);
	t->summary_dirty = rc != 0;
	return rc;
}

/*
 * Find chunk number k.  *c is NULL when the chunk holds no counts for this
 * lap.  The pointer is valid until the next change to the ring, or until
 * ring_wrote() says LMDB may have moved it.
 */
static int
chunk_get(ar_txn *t, int64_t k, const struct chunk **c)
{
	unsigned char key[4];
	uint32_t pos = chunk_pos(t, k);
	struct cached *e = &t->cache[pos];
	MDB_val kv, v;
	const struct chunk *p;
	int rc;

	if (e->dirty)
		p = e->copy;
	else if (e->c != NULL && e->gen == t->gen)
		p = e->c;
	else {
		rc = mdb_get(t->txn, t->s->ring, pos_key(pos, key, &kv), &v);
		if (rc == MDB_NOTFOUND) {
			*c = NULL;
			return 0;
		}
		if (rc != 0)
			return rc;
		if (v.mv_size != sizeof(struct chunk))
			return AR_ECORRUPT;
		if (aligned(v.mv_data)) {
			p = v.mv_data;
			e->c = p;
			e->gen = t->gen;
		} else {
			if (t->scratch == NULL &&
			    (t->scratch = malloc(sizeof(*t->scratch))) == NULL)
				return ENOMEM;
			memcpy(t->scratch, v.mv_data, sizeof(*t->scratch));
			p = t->scratch;
		}
	}
	if (p->number > (uint64_t)k)
		return AR_ECORRUPT;
	*c = p->number == (uint64_t)k ? p : NULL;
	return 0;
}

/* Is [from, to) inside the part of the ring the store vouches for? */
static int
in_window(const ar_txn *t, int64_t from, int64_t to)
{
	return t->base <= from && from <= to && to <= t->base + t->m.horizon;
}

/* The chunk k, which the summary says holds counts above cap. */
static int
busy_chunk(ar_txn *t, int64_t k, const struct chunk **c)
{
	int rc;

	if ((rc = chunk_get(t, k, c)) != 0)
		return rc;
	return *c == NULL ? AR_ECORRUPT : 0;
}

/* The first slot in [from, to) with more than cap nodes in use, or -1. */
int
ring_first_over(ar_txn *t, int64_t from, int64_t to, uint32_t cap, int64_t *bad)
{
	const struct chunk *c;
	int64_t i = from;
	uint32_t peak;
	int rc;

	*bad = -1;
	while (i < to) {
		int64_t k = i / CHUNK_SLOTS, lo = k * CHUNK_SLOTS;
		int64_t stop = lo + CHUNK_SLOTS < to ? lo + CHUNK_SLOTS : to;

		if ((rc = chunk_peak(t, k, &peak)) != 0)
			return rc;
		if (peak > cap && (rc = busy_chunk(t, k, &c)) != 0)
			return rc;
		while (peak > cap && i < stop) {
			int64_t b = (i - lo) / BLOCK_SLOTS;
			int64_t end = lo + (b + 1) * BLOCK_SLOTS;

			if (end > stop)
				end = stop;
			if (c->blockmax[b] > cap)
				for (; i < end; i++)
					if (c->used[i - lo] > cap) {
						*bad = i;
						return 0;
					}
			i = end;
		}
		i = stop;
	}
	return 0;
}

/* The largest count over slots [from, to). */
int
ring_peak(ar_txn *t, int64_t from, int64_t to, uint32_t *peak)
{
	const struct chunk *c;
	int64_t i = from;
	uint32_t max = 0, p;
	int rc;

	if (!in_window(t, from, to))
		return EINVAL;
	while (i < to) {
		int64_t k = i / CHUNK_SLOTS, lo = k * CHUNK_SLOTS;
		int64_t stop = lo + CHUNK_SLOTS < to ? lo + CHUNK_SLOTS : to;

		if ((rc = chunk_peak(t, k, &p)) != 0)
			return rc;
		if (p > max && i == lo && stop == lo + CHUNK_SLOTS)
			max = p;
		else if (p > max) {
			if ((rc = busy_chunk(t, k, &c)) != 0)
				return rc;
			while (i < stop) {
				int64_t b = (i - lo) / BLOCK_SLOTS;
				int64_t bl = lo + b * BLOCK_SLOTS;
				int64_t end = bl + BLOCK_SLOTS;

				if (end > stop)
					end = stop;
				if (c->blockmax[b] <= max)
					;
				else if (i == bl && end == bl + BLOCK_SLOTS)
					max = c->blockmax[b];
				else
					for (int64_t j = i; j < end; j++)
						if (c->used[j - lo] > max)
							max = c->used[j - lo];
				i = end;
			}
		}
		i = stop;
	}
	*peak = max;
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
ring_first_fit(ar_txn *t, int64_t lo, int64_t hi, int64_t len,
    uint64_t need, int64_t *start)
{
	const struct chunk *c = NULL;
	int64_t s = lo, i = lo, k = -1, base = 0;      /* [s, i) has room */
	uint32_t cap, peak = 0;
	int rc;

	*start = -1;
	if (lo > hi || need > t->m.nodes)
		return 0;
	if (!in_window(t, lo, hi + len))
		return EINVAL;
	cap = t->m.nodes - (uint32_t)need;
	while (s <= hi) {
		int64_t stop = s + len, end;

		if (i >= stop) {
			*start = s;
			return 0;
		}
		if (i / CHUNK_SLOTS != k) {
			k = i / CHUNK_SLOTS;
			base = k * CHUNK_SLOTS;
			if ((rc = chunk_peak(t, k, &peak)) != 0 ||
			    (peak > cap && (rc = busy_chunk(t, k, &c)) != 0))
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

/*
 * The start of the next run of fitting starts after one that fits at
 * prev: every start up to the first full slot at or after prev + len fits
 * too, so the next separate alternative begins after that slot.
 */
int
ring_next_fit(ar_txn *t, int64_t prev, int64_t hi, int64_t len,
    uint64_t need, int64_t *start)
{
	int64_t bad;
	int rc;

	*start = -1;
	if (!in_window(t, prev, hi + len))
		return EINVAL;
	if ((rc = ring_first_over(t, prev + len, hi + len,
	    t->m.nodes - (uint32_t)need, &bad)) != 0)
		return rc;
	if (bad == -1)
		return 0;
	return ring_first_fit(t, bad + 1, hi, len, need, start);
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
chunk_own(ar_txn *t, int64_t k, struct chunk **c)
{
	uint32_t pos = chunk_pos(t, k);
	struct cached *e = &t->cache[pos];
	const struct chunk *old;
	int rc;

	if (!e->dirty) {
		if ((rc = chunk_get(t, k, &old)) != 0)
			return rc;
		if (e->copy == NULL &&
		    (e->copy = malloc(sizeof(*e->copy))) == NULL)
			return ENOMEM;
		if (old == NULL) {
			memset(e->copy, 0, sizeof(*e->copy));
			e->copy->number = (uint64_t)k;
		} else
			memcpy(e->copy, old, sizeof(*e->copy));
		e->dirty = 1;
		t->dirty[t->ndirty++] = pos;
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
ring_add(ar_txn *t, int64_t from, int64_t to, int64_t delta)
{
	struct chunk *c;
	int64_t i = from;
	int rc;

	if (!in_window(t, from, to))
		return EINVAL;
	if ((rc = ring_summary(t)) != 0)
		return rc;
	while (i < to) {
		int64_t k = i / CHUNK_SLOTS, lo = k * CHUNK_SLOTS;
		int64_t stop = lo + CHUNK_SLOTS < to ? lo + CHUNK_SLOTS : to;

		if ((rc = chunk_own(t, k, &c)) != 0)
			return rc;
		for (int64_t j = i; j < stop; j++) {
			int64_t n = (int64_t)c->used[j - lo] + delta;

			if (n < 0 || n > t->m.nodes)
				return AR_ECORRUPT;
			c->used[j - lo] = (uint32_t)n;
		}
		chunk_maxima(c, (i - lo) / BLOCK_SLOTS,
		    (stop - 1 - lo) / BLOCK_SLOTS);
		t->summary[chunk_pos(t, k)] = (uint64_t)k << PEAK_BITS | c->peak;
		t->summary_dirty = 1;
		i = stop;
	}
	return 0;
}

/*
 * Copy the counts of slots [from, to) to out, for the invariant check,
 * verifying every maximum on the way.
 */
int
ring_counts(ar_txn *t, int64_t from, int64_t to, uint32_t *out)
{
	const struct chunk *c;
	int64_t i = from;
	uint32_t peak;
	int rc;

	if (!in_window(t, from, to))
		return EINVAL;
	while (i < to) {
		int64_t k = i / CHUNK_SLOTS, lo = k * CHUNK_SLOTS;
		int64_t stop = lo + CHUNK_SLOTS < to ? lo + CHUNK_SLOTS : to;

		if ((rc = chunk_peak(t, k, &peak)) != 0 ||
		    (rc = chunk_get(t, k, &c)) != 0)
			return rc;
		if (c != NULL) {
			struct chunk copy = *c;

			chunk_maxima(&copy, 0, CHUNK_BLOCKS - 1);
			if (memcmp(&copy, c, sizeof(copy)) != 0 ||
			    peak != c->peak)
				return AR_ECORRUPT;
		} else if (peak != 0)
			return AR_ECORRUPT;
		for (; i < stop; i++)
			*out++ = c == NULL ? 0 : c->used[i - lo];
	}
	return 0;
}
