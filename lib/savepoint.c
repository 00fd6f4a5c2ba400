/*
 * savepoint.c - a transaction inside a transaction, undone or kept
 * as a whole.
 *
 * The backend nests a child transaction in its parent and undoes what
 * was written to it; each part of an ar_txn that holds changes in memory
 * (the ring's chunks and summary, the slot lists' buckets, the meta,
 * ar_add's lists) writes them to the parent before the child begins, and
 * keeps what it needs to go back to that point.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* What the savepoint keeps of pool p's rings goes. */
static void
pool_release(struct savepoint *sp, uint32_t p)
{
	ring_release(&sp->pool[p]);
	if (p > 0)
		ring_release(&sp->pool_idle[p]);
}

/* Free what the savepoint kept of the partitions' limit rings. */
static void
prings_release(struct savepoint *sp)
{
	for (uint32_t k = 0; k < sp->nprings; k++)
		ring_release(&sp->prings[k]);
	free(sp->prings);
	sp->prings = NULL;
}

int
txn_save(ar_txn *t, struct savepoint *sp)
{
	struct kv_txn *child;
	int rc;

	/* The changes so far go to the parent, out of the child's undo. */
	if ((rc = ring_save(t, &t->ring, &sp->ring)) != 0)
		return rc;
	if ((rc = ring_save(t, &t->idle, &sp->idle)) != 0) {
		ring_release(&sp->ring);
		return rc;
	}
	sp->moved = NULL;
	sp->prings = NULL;
	sp->nprings = 0;        /* the failure below frees what was kept */
	sp->nlimits = 1;
	sp->npools = 0;
	for (uint32_t i = 2; i <= t->pr.n; i++, sp->nlimits++)
		if ((rc = ring_save(t, &t->limit[i], &sp->limit[i])) != 0)
			goto fail;
	for (uint32_t p = 0; t->npools > 1 && p < t->npools; p++,
	    sp->npools++) {
		if ((rc = ring_save(t, &t->pool[p], &sp->pool[p])) != 0)
			goto fail;
		if (p > 0 && (rc = ring_save(t, idle_ring(t, p),
		    &sp->pool_idle[p])) != 0) {
			ring_release(&sp->pool[p]);
			goto fail;
		}
	}
	if (t->nprings > 0 && (sp->prings = calloc(t->nprings,
	    sizeof(*sp->prings))) == NULL) {
		rc = ENOMEM;
		goto fail;
	}
	for (uint32_t k = 0; k < t->nprings; k++, sp->nprings++)
		if ((rc = ring_save(t, &t->prings[k], &sp->prings[k])) != 0)
			goto fail;
	if ((rc = slots_flush(t)) != 0)
		goto fail;
	resv_cursor_close(t);
	if (t->nmoved > 0 && (sp->moved = malloc(t->nmoved *
	    sizeof(*sp->moved))) == NULL) {
		rc = ENOMEM;
		goto fail;
	}
	if ((rc = t->s->be->txn_begin(t->s->ks, t->txn, 1, 0, &child)) != 0)
		goto fail;
	if (t->nmoved > 0)
		memcpy(sp->moved, t->moved, t->nmoved * sizeof(*sp->moved));
	sp->parent = t->txn;
	sp->m = t->m;
	sp->meta_dirty = t->meta_dirty;
	sp->flushed = t->flushed;
	sp->ngranted = t->ngranted;
	sp->nmoved = t->nmoved;
	t->txn = child;
	t->flushed = 0;
	t->gen++;
	return 0;
fail:
	ring_release(&sp->ring);
	ring_release(&sp->idle);
	for (uint32_t i = 2; i <= sp->nlimits; i++)
		ring_release(&sp->limit[i]);
	for (uint32_t p = 0; p < sp->npools; p++)
		pool_release(sp, p);
	prings_release(sp);
	free(sp->moved);
	return rc;
}

/* Back to the parent transaction as it was at the savepoint. */
static void
txn_restore(ar_txn *t, struct savepoint *sp)
{
	ring_restore(&t->ring, &sp->ring);
	ring_restore(&t->idle, &sp->idle);
	for (uint32_t i = 2; i <= sp->nlimits; i++)
		ring_restore(&t->limit[i], &sp->limit[i]);
	for (uint32_t p = 0; p < sp->npools; p++) {
		ring_restore(&t->pool[p], &sp->pool[p]);
		if (p > 0)
			ring_restore(idle_ring(t, p), &sp->pool_idle[p]);
	}
	for (uint32_t k = 0; k < sp->nprings; k++)
		ring_restore(&t->prings[k], &sp->prings[k]);
	free(sp->prings);
	slots_discard(t);
	t->txn = sp->parent;
	t->gen++;               /* the child's pages are gone */
	t->m = sp->m;
	t->meta_dirty = sp->meta_dirty;
	t->flushed = sp->flushed;
	t->ngranted = sp->ngranted;
	t->nmoved = sp->nmoved;
	t->pins = -1;           /* the child may have pinned or unpinned */
	t->tracking = -1;       /* ... or built the tracked hosts */
	demand_forget(t);       /* ... or logged demand */
	if (sp->nmoved > 0)
		memcpy(t->moved, sp->moved, sp->nmoved * sizeof(*sp->moved));
	free(sp->moved);
}

void
txn_undo(ar_txn *t, struct savepoint *sp)
{
	resv_cursor_close(t);
	t->s->be->txn_abort(t->txn);
	txn_restore(t, sp);
}

int
txn_keep(ar_txn *t, struct savepoint *sp)
{
	uint64_t writes;
	int rc = 0;

	for (uint32_t i = 2; i <= sp->nlimits && rc == 0; i++)
		rc = ring_flush_chunks(t, &t->limit[i]);
	for (uint32_t p = 0; p < sp->npools && rc == 0; p++)
		if ((rc = ring_flush_chunks(t, &t->pool[p])) == 0 && p > 0)
			rc = ring_flush_chunks(t, idle_ring(t, p));
	for (uint32_t k = 0; k < sp->nprings && rc == 0; k++)
		rc = ring_flush_chunks(t, &t->prings[k]);
	if (rc != 0 || (rc = ring_flush_chunks(t, &t->ring)) != 0 ||
	    (rc = ring_flush_chunks(t, &t->idle)) != 0 ||
	    (rc = slots_flush(t)) != 0) {
		txn_undo(t, sp);
		return rc;
	}
	resv_cursor_close(t);
	writes = t->txn->writes;
	if ((rc = t->s->be->txn_commit(t->txn)) != 0) {
		txn_restore(t, sp);     /* the backend ended the child */
		return rc;
	}
	t->txn = sp->parent;
	t->txn->writes += writes;       /* the child's are the parent's now */
	t->flushed = 1;
	t->gen++;
	ring_release(&sp->ring);
	ring_release(&sp->idle);
	for (uint32_t i = 2; i <= sp->nlimits; i++)
		ring_release(&sp->limit[i]);
	for (uint32_t p = 0; p < sp->npools; p++)
		pool_release(sp, p);
	prings_release(sp);
	free(sp->moved);
	return 0;
}
