/*
 * ring.c - the slotted ring of GarQ: nodes in use per slot.
 *
 * Absolute slot s lives in chunk s / CHUNK_SLOTS, stored at ring position
 * (s / CHUNK_SLOTS) mod m.chunks.  Each chunk records its absolute number,
 * so a chunk left from an earlier lap reads as empty instead of being
 * mistaken for the future.  The ring has one chunk more than the horizon
 * needs: a chunk is reused only once all its slots lie before the clock.
 * Each chunk keeps its peak count, so an interval that covers a whole
 * chunk is checked without reading its slots.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"

static void
ring_key(const ar_txn *t, uint64_t number, unsigned char key[4])
{
	uint32_t pos = (uint32_t)(number % t->m.chunks);

	key[0] = pos >> 24;
	key[1] = pos >> 16;
	key[2] = pos >> 8;
	key[3] = pos;
}

/*
 * Find chunk number k.  *c is NULL when the chunk holds no counts for this
 * lap (never written, or left from an earlier lap).  The pointer is valid
 * until the next write to the ring; scratch holds a copy when LMDB's
 * memory is not aligned for the counts (pages larger than 4 KiB).
 */
static int
chunk_get(ar_txn *t, int64_t k, struct chunk *scratch,
    const struct chunk **c)
{
	unsigned char key[4];
	MDB_val kv = { 4, key }, v;
	const struct chunk *p;
	int rc;

	ring_key(t, (uint64_t)k, key);
	*c = NULL;
	if ((rc = mdb_get(t->txn, t->s->ring, &kv, &v)) != 0)
		return rc == MDB_NOTFOUND ? 0 : rc;
	if (v.mv_size != sizeof(struct chunk))
		return AR_ECORRUPT;
	p = v.mv_data;
	if ((uintptr_t)p % _Alignof(struct chunk) != 0) {
		memcpy(scratch, p, sizeof(*scratch));
		p = scratch;
	}
	if (p->number > (uint64_t)k)
		return AR_ECORRUPT;     /* a later lap: slot read is too old */
	if (p->number == (uint64_t)k)
		*c = p;
	return 0;
}

/* Is [from, to) inside the part of the ring the store vouches for? */
static int
in_window(const ar_txn *t, int64_t from, int64_t to)
{
	return t->base <= from && from <= to && to <= t->base + t->m.horizon;
}

/*
 * The first slot in [from, to) with more than cap nodes in use, or -1.
 */
static int
first_over(ar_txn *t, int64_t from, int64_t to, uint32_t cap, int64_t *bad)
{
	struct chunk scratch;
	const struct chunk *c;
	int64_t i = from;
	int rc;

	*bad = -1;
	while (i < to) {
		int64_t k = i / CHUNK_SLOTS, lo = k * CHUNK_SLOTS;
		int64_t stop = lo + CHUNK_SLOTS < to ? lo + CHUNK_SLOTS : to;

		if ((rc = chunk_get(t, k, &scratch, &c)) != 0)
			return rc;
		if (c != NULL && c->peak > cap) {
			for (; i < stop; i++)
				if (c->used[i - lo] > cap) {
					*bad = i;
					return 0;
				}
		}
		i = stop;
	}
	return 0;
}

/* The largest count over slots [from, to). */
int
ring_peak(ar_txn *t, int64_t from, int64_t to, uint32_t *peak)
{
	struct chunk scratch;
	const struct chunk *c;
	int64_t i = from;
	uint32_t max = 0;
	int rc;

	if (!in_window(t, from, to))
		return EINVAL;
	while (i < to) {
		int64_t k = i / CHUNK_SLOTS, lo = k * CHUNK_SLOTS;
		int64_t stop = lo + CHUNK_SLOTS < to ? lo + CHUNK_SLOTS : to;

		if ((rc = chunk_get(t, k, &scratch, &c)) != 0)
			return rc;
		if (c == NULL || c->peak <= max)
			;
		else if (i == lo && stop == lo + CHUNK_SLOTS)
			max = c->peak;
		else
			for (; i < stop; i++)
				if (c->used[i - lo] > max)
					max = c->used[i - lo];
		i = stop;
	}
	*peak = max;
	return 0;
}

/*
 * GarQ Algorithm 4: the earliest start s in [lo, hi] such that every slot
 * of [s, s + len) has room for need more nodes; *start is -1 if none.
 * Each slot is read at most once: a full slot moves the candidate past it.
 */
int
ring_first_fit(ar_txn *t, int64_t lo, int64_t hi, int64_t len,
    uint64_t need, int64_t *start)
{
	int64_t s = lo, bad;
	int rc;

	*start = -1;
	if (lo > hi || need > t->m.nodes)
		return 0;
	if (!in_window(t, lo, hi + len))
		return EINVAL;
	while (s <= hi) {
		if ((rc = first_over(t, s, s + len, t->m.nodes - (uint32_t)need,
		    &bad)) != 0)
			return rc;
		if (bad == -1) {
			*start = s;
			return 0;
		}
		s = bad + 1;
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
	if ((rc = first_over(t, prev + len, hi + len,
	    t->m.nodes - (uint32_t)need, &bad)) != 0)
		return rc;
	if (bad == -1)
		return 0;
	return ring_first_fit(t, bad + 1, hi, len, need, start);
}

/*
 * Add delta nodes to every slot of [from, to).  A count that would pass
 * the capacity or fall below zero means the caller's view of the ring is
 * wrong, so nothing is written and AR_ECORRUPT is returned.
 */
int
ring_add(ar_txn *t, int64_t from, int64_t to, int64_t delta)
{
	struct chunk buf;
	const struct chunk *c;
	unsigned char key[4];
	MDB_val kv = { 4, key }, v = { sizeof(buf), &buf };
	int64_t i = from;
	int rc;

	if (!in_window(t, from, to))
		return EINVAL;
	while (i < to) {
		int64_t k = i / CHUNK_SLOTS, lo = k * CHUNK_SLOTS;
		int64_t stop = lo + CHUNK_SLOTS < to ? lo + CHUNK_SLOTS : to;
		uint32_t peak = 0;

		if ((rc = chunk_get(t, k, &buf, &c)) != 0)
			return rc;
		if (c == NULL) {
			memset(&buf, 0, sizeof(buf));
			buf.number = (uint64_t)k;
		} else if (c != &buf)
			memcpy(&buf, c, sizeof(buf));
		for (; i < stop; i++) {
			int64_t n = (int64_t)buf.used[i - lo] + delta;

			if (n < 0 || n > t->m.nodes)
				return AR_ECORRUPT;
			buf.used[i - lo] = (uint32_t)n;
		}
		for (int j = 0; j < CHUNK_SLOTS; j++)
			if (buf.used[j] > peak)
				peak = buf.used[j];
		buf.peak = peak;
		ring_key(t, (uint64_t)k, key);
		if ((rc = mdb_put(t->txn, t->s->ring, &kv, &v, 0)) != 0)
			return rc;
	}
	return 0;
}

/* Copy the counts of slots [from, to) to out, for the invariant check. */
int
ring_counts(ar_txn *t, int64_t from, int64_t to, uint32_t *out)
{
	struct chunk scratch;
	const struct chunk *c;
	int64_t i = from;
	int rc;

	if (!in_window(t, from, to))
		return EINVAL;
	while (i < to) {
		int64_t k = i / CHUNK_SLOTS, lo = k * CHUNK_SLOTS;
		int64_t stop = lo + CHUNK_SLOTS < to ? lo + CHUNK_SLOTS : to;
		uint32_t peak = 0;

		if ((rc = chunk_get(t, k, &scratch, &c)) != 0)
			return rc;
		if (c != NULL) {
			for (int j = 0; j < CHUNK_SLOTS; j++)
				if (c->used[j] > peak)
					peak = c->used[j];
			if (peak != c->peak)
				return AR_ECORRUPT;
		}
		for (; i < stop; i++)
			*out++ = c == NULL ? 0 : c->used[i - lo];
	}
	return 0;
}
