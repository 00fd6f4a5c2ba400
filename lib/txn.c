/*
 * txn.c - the library's transactions, as ar.h gives them, made of the
 * floors' parts (internal.h): the storage's transaction and clock, the
 * rings, slot lists, price classes, partitions' policies and reclaim
 * policy read through it,
 * and, in a write transaction, the holds released and the reservations
 * reclaimed as it begins.  A transaction object
 * and its buffers are kept in the store when it ends: a command, or a
 * caller committing every request, then pays for no allocations.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/*
 * A transaction object and its buffers are kept in the store when it
 * ends: a command, or a caller committing every request, then pays for
 * no allocations.
 */
static ar_txn *
txn_new(ar_store *s)
{
	ar_txn *t = s->spare;

	s->spare = NULL;
	if (t == NULL)
		return calloc(1, sizeof(*t));
	t->txn = NULL;
	t->meta_dirty = t->flushed = 0;
	slots_discard(t);       /* what an aborted transaction changed */
	t->ngranted = t->nmoved = t->nocc = t->ndisplaced = 0;
	t->nstretched = 0;
	return t;
}

int
ar_txn_begin(ar_store *s, unsigned flags, int64_t now, ar_txn **tp)
{
	ar_txn *t;
	int rc, write = (flags & AR_WRITE) != 0;

	if (write && (s->flags & AR_RDONLY))
		return EACCES;
	if ((t = txn_new(s)) == NULL)
		return ENOMEM;
	t->ring.dbi = KV_RING;
	t->idle.dbi = KV_RING;
	t->idle.id = IDLE_RING;
	t->ends.dbi = KV_ENDS;
	t->flex.dbi = KV_FLEX;
	t->expired = t->reclaimed = 0;
	t->pins = -1;
	t->tracking = -1;
	if ((rc = store_begin(t, s, write, now)) != 0)
		goto fail;
	t->released = write ? t->now : t->kept;
	if ((rc = ring_begin(&t->ring, t->m.chunks, t->m.nodes, t->base,
	    t->m.horizon)) != 0 || (rc = ring_begin(&t->idle, t->m.chunks,
	    t->m.nodes, t->base, t->m.horizon)) != 0 ||
	    (rc = classes_begin(t)) != 0 || (rc = layout_begin(t)) != 0 ||
	    (rc = part_begin(t)) != 0 || (rc = unused_begin(t)) != 0 ||
	    (write && ((rc = holds_expire(t)) != 0 ||
	    (rc = reclaim_due(t)) != 0 || (rc = drains_extend(t)) != 0)) ||
	    (!write && (rc = drains_view(t)) != 0))
		goto fail;
	*tp = t;
	return 0;
fail:
	ar_txn_abort(t);
	return rc;
}

static void
txn_destroy(ar_txn *t)
{
	ring_free(&t->ring);
	ring_free(&t->idle);
	for (size_t i = 0; i < sizeof(t->limit) / sizeof(t->limit[0]); i++)
		ring_free(&t->limit[i]);
	slots_free(t);
	free(t->granted);
	free(t->moved);
	free(t->displaced);
	free(t->stretched);
	free(t->occ);
	free(t->slices);
	free(t->take);
	free(t);
}

static void
txn_free(ar_txn *t)
{
	part_end(t);
	layout_end(t);
	if (t->s->spare == NULL)
		t->s->spare = t;
	else
		txn_destroy(t);
}

int
ar_txn_commit(ar_txn *t)
{
	int rc = 0;

	/* What the floors keep in memory goes to the backend first; a
	 * reader writes nothing, and what it changed in memory
	 * (drains_view) goes with it. */
	resv_cursor_close(t);
	if (!t->write) {
		rc = store_commit(t);
		txn_free(t);
		return rc;
	}
	for (uint32_t i = 2; i <= t->pr.n && rc == 0; i++)
		rc = ring_flush(t, &t->limit[i]);
	if ((rc = rc != 0 ? rc : layout_flush(t)) != 0 ||
	    (rc = slots_flush(t)) != 0 ||
	    (rc = ring_flush(t, &t->ring)) != 0 ||
	    (rc = ring_flush(t, &t->idle)) != 0)
		store_abort(t);
	else
		rc = store_commit(t);
	txn_free(t);
	return rc;
}

void
ar_txn_abort(ar_txn *t)
{
	if (t == NULL)
		return;
	resv_cursor_close(t);
	store_abort(t);
	txn_free(t);
}

/*
 * Has write transaction t changed the store, beyond moving its clock:
 * written to a table, or does it hold in memory what its commit would
 * write (ring chunks, slot list buckets, a meta that differs in more than
 * the clock)?
 */
static int
txn_changed(const ar_txn *t)
{
	struct meta m = t->m;

	if (t->txn->writes > 0 || ring_pending(&t->ring) ||
	    ring_pending(&t->idle) || slots_pending(t))
		return 1;
	for (size_t i = 2; i < sizeof(t->limit) / sizeof(t->limit[0]); i++)
		if (ring_pending(&t->limit[i]))
			return 1;
	for (uint32_t p = 0; t->npools > 1 && p < t->npools; p++)
		if (ring_pending(&t->pool[p]) ||
		    (p > 0 && ring_pending(&t->idle_rest[p - 1])))
			return 1;
	for (uint32_t k = 0; k < t->nprings; k++)
		if (ring_pending(&t->prings[k]))
			return 1;
	m.clock = t->begun.clock;
	return memcmp(&m, &t->begun, sizeof(m)) != 0;
}

int
ar_write(ar_store *s, unsigned flags, int64_t now,
    int (*fn)(ar_txn *, void *), void *arg)
{
	ar_txn *t;
	int rc;

	for (;;) {
		if ((rc = ar_txn_begin(s, AR_WRITE, now, &t)) == 0) {
			rc = fn(t, arg);
			/* A write that changes nothing writes nothing, not
			 * even the clock. */
			if (rc == 0 && !txn_changed(t))
				rc = AR_UNCHANGED;
			/* The holds it released stay released, what it
			 * reclaimed reclaimed. */
			if (rc == AR_UNCHANGED &&
			    (t->expired > 0 || t->reclaimed > 0))
				rc = 0;
			if (rc == 0)
				rc = ar_txn_commit(t);
			else
				ar_txn_abort(t);
		}
		if (rc == AR_UNCHANGED)
			return 0;
		if (rc != AR_EFULL)
			return rc;
		if ((rc = ar_grow(s, flags)) != 0)
			return rc;
	}
}

void
ar_close(ar_store *s)
{
	if (s == NULL)
		return;
	if (s->spare != NULL)
		txn_destroy(s->spare);
	layout_free(&s->lay);
	store_close(s);
}
