/*
 * unused.c - the reclaim policy (seed 004's DRR, issue 25) and the index
 * of the reservations it may reclaim.
 *
 * The policy is one value under the key "reclaim" in `pricing`: a
 * struct ar_reclaim as ar.h lays it out.  While there is one, or a
 * partition has a grace of its own (partpolicy.c, format 10), meta's
 * reclaim is 1 and `unused` holds every live reservation that has not
 * reported use and that has a grace, under the time a writer must
 * look at it: its start plus that grace, or its end if that is sooner (a
 * writer then drops it, having nothing left to free) and it is no piece
 * of a split request with later pieces (those are freed then).  So, as for holds,
 * a writer reads the first entry and stops there unless one is due, and
 * no entry outlives its reservation's end (or such a piece's due time)
 * by more than one write.
 * Without a policy neither is read, and admission writes nothing more.
 */
#include <string.h>

#include "internal.h"

static const struct kv_val reclaim_key = { 7, "reclaim" };

int
unused_begin(ar_txn *t)
{
	struct kv_val v;
	int rc;

	memset(&t->policy, 0, sizeof(t->policy));
	if (t->m.reclaim == 0)
		return 0;
	if (t->m.reclaim != 1)
		return AR_ECORRUPT;
	/* Only partitions' graces (format 10): the store sets none. */
	if ((rc = kv_get(t->txn, KV_PRICING, &reclaim_key, &v)) ==
	    KV_NOTFOUND && part_any_grace(t))
		return 0;
	if (rc != 0)
		return rc == KV_NOTFOUND ? AR_ECORRUPT : rc;
	if (v.size != sizeof(t->policy))
		return AR_ECORRUPT;
	memcpy(&t->policy, v.data, sizeof(t->policy));
	if (t->policy.grace < 0 || t->policy.grace > AR_DURATION_MAX)
		return AR_ECORRUPT;
	for (size_t i = 0; i < AR_CLASSES_MAX; i++)
		if (t->policy.cls[i] < -1 ||
		    t->policy.cls[i] > AR_DURATION_MAX)
			return AR_ECORRUPT;
	return 0;
}

/*
 * The most particular grace that is set: the class's, then the
 * partition's (format 10), then the store's.  The class's comes first
 * because it is part of what the request paid for when it was booked
 * (a class that is never reclaimed is sold as such); the partition's is
 * the site's default for its hardware, in place of the store's.
 */
int64_t
unused_grace(const ar_txn *t, uint32_t cls, uint32_t pool)
{
	int64_t g = 0;

	if (cls >= 1 && cls <= AR_CLASSES_MAX && cls <= t->pr.n)
		g = t->policy.cls[cls - 1];
	if (g == 0)
		g = part_grace(t, pool);
	if (g == 0)
		g = t->policy.grace;
	return g > 0 ? g : 0;
}

int
unused_due(const ar_txn *t, const struct ar_resv *r, int64_t *due)
{
	int64_t grace;

	/* Maintenance runs no job, so it never reports use: it is kept. */
	if (t->m.reclaim == 0 || r->used == AR_USE_YES ||
	    (r->resv_flags & AR_RESV_MAINT) ||
	    (grace = unused_grace(t, r->cls, r->pool)) == 0)
		return 0;
	/* A piece with later ones is due at its grace even if it ends
	 * sooner: the rest of its request is then freed (reclaim.c). */
	*due = r->end - r->start > grace || (r->pieces != 0 &&
	    r->occurrence < r->pieces) ? r->start + grace : r->end;
	return 1;
}

/* The key of r in the index; 0 if it has none. */
static int
unused_key(const ar_txn *t, const struct ar_resv *r, unsigned char *key)
{
	int64_t due;

	if (!unused_due(t, r, &due))
		return 0;
	key_u64(key, (uint64_t)due);
	key_u64(key + 8, r->id);
	return 1;
}

int
unused_index(ar_txn *t, const struct ar_resv *r, int add)
{
	unsigned char key[16];
	struct kv_val k = { 16, key }, v = { 0, key };
	int rc;

	if (!unused_key(t, r, key))
		return 0;
	txn_wrote(t);
	if (add) {
		rc = kv_put(t->txn, KV_UNUSED, &k, &v, KV_NOOVERWRITE);
		return rc == KV_KEYEXIST ? AR_ECORRUPT : rc;
	}
	rc = kv_del(t->txn, KV_UNUSED, &k, NULL);
	return rc == KV_NOTFOUND ? AR_ECORRUPT : rc;
}

int
unused_policy_put(ar_txn *t, const struct ar_reclaim *p)
{
	struct kv_val v = { sizeof(*p), (void *)p };
	uint32_t set = p->grace != 0, on;
	int rc;

	/* A class's grace kept says what the operator set, "never" too. */
	for (size_t i = 0; i < AR_CLASSES_MAX; i++)
		set |= p->cls[i] != 0;
	/* A partition's grace (partpolicy.c) needs the index too. */
	on = set || part_any_grace(t);
	txn_wrote(t);
	if (set)
		rc = kv_put(t->txn, KV_PRICING, &reclaim_key, &v, 0);
	else if ((rc = kv_del(t->txn, KV_PRICING, &reclaim_key, NULL)) ==
	    KV_NOTFOUND)
		rc = 0;
	if (rc != 0)
		return rc;
	if (set)
		t->policy = *p;
	else
		memset(&t->policy, 0, sizeof(t->policy));
	if (t->m.reclaim != on) {
		t->m.reclaim = on;
		t->meta_dirty = 1;
	}
	return 0;
}

int
unused_clear(ar_txn *t)
{
	struct kv_cursor *cur;
	struct kv_val k, v;
	int rc;

	if ((rc = kv_cursor_open(t->txn, KV_UNUSED, &cur)) != 0)
		return rc;
	while ((rc = kv_cursor_get(cur, &k, &v, KV_FIRST)) == 0) {
		txn_wrote(t);
		if ((rc = kv_cursor_del(cur)) != 0)
			break;
	}
	kv_cursor_close(cur);
	return rc == KV_NOTFOUND ? 0 : rc;
}
