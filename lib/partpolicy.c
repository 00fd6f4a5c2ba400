/*
 * partpolicy.c - a partition's own policy (format 10): nested booking
 * limits for the store's price classes counted within its pools, and a
 * reclaim grace for the reservations in them.
 *
 * The policies are one value under the key "partitions" in `pricing`:
 * a struct part_policy per partition, by its index, up to the last one
 * that has a policy (a partition past the end has none).  A partition
 * with limits keeps a ring per class i >= 2 (id PART_RING + 16 P + i)
 * counting the nodes of classes i and cheaper granted in its pools,
 * whose capacity is its b_i, as the store's limit rings (classes.c)
 * count them in every pool; those go on counting everything, so a
 * partition without limits is held to the store's as before.  A ring
 * not in use is all zero over the window: limits taken away take the
 * partition's reservations out of them first.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const struct kv_val parts_key = { 10, "partitions" };

/* The partition of pool p (0 in a store of one pool). */
static uint32_t
partition_of(const ar_txn *t, uint32_t pool)
{
	return pool < t->lay.npools ? t->lay.pool[pool].partition : 0;
}

/* Is policy p well formed for partition part of t's store?  0, or
 * EINVAL with the class (index) and field at fault.  b_1 is the
 * partition's hosts when it is set; a policy read is not held to that,
 * since the hosts may change after (b_1 binds nothing: the pool rings
 * hold the hosts). */
static int
part_check(const ar_txn *t, uint32_t part, const struct part_policy *p,
    int set, size_t *bad, const char **field)
{
	uint64_t hosts = part < t->lay.nparts ? t->lay.part[part].hosts : 0;

	*bad = 0;
	*field = NULL;
	if (p->grace < -1 || p->grace > AR_DURATION_MAX) {
		*field = "reclaim";
		return EINVAL;
	}
	if (p->n != 0 && p->n != t->pr.n) {
		*field = "class";
		*bad = p->n < t->pr.n ? p->n : t->pr.n;
		return EINVAL;
	}
	for (uint32_t i = 0; i < p->n; i++)
		if ((i == 0 && set && p->limit[i] != hosts) ||
		    p->limit[i] > t->m.nodes ||
		    (i > 0 && p->limit[i] > p->limit[i - 1])) {
			*bad = i;
			*field = "limit";
			return EINVAL;
		}
	for (uint32_t i = p->n; i < AR_CLASSES_MAX; i++)
		if (p->limit[i] != 0) {
			*bad = i;
			*field = "limit";
			return EINVAL;
		}
	return 0;
}

int
part_valid(const ar_txn *t, uint32_t part, const struct part_policy *p,
    size_t *bad, const char **field)
{
	return part_check(t, part, p, 1, bad, field);
}

/* Free the partitions' limit rings. */
static void
rings_free(ar_txn *t)
{
	for (uint32_t k = 0; t->prings != NULL && k < t->nprings; k++)
		ring_free(&t->prings[k]);
	free(t->prings);
	t->prings = NULL;
	t->nprings = 0;
}

/* Ready the limit rings of the partitions that have limits. */
static int
rings_begin(ar_txn *t)
{
	uint32_t n = 0;
	int rc;

	for (uint32_t p = 0; p < AR_POOLS_MAX; p++) {
		t->pring_at[p] = -1;
		if (t->part[p].n > 1) {
			t->pring_at[p] = (int32_t)n;
			n += t->part[p].n - 1;
		}
	}
	if (n == 0)
		return 0;
	if ((t->prings = calloc(n, sizeof(*t->prings))) == NULL)
		return ENOMEM;
	t->nprings = n;
	for (uint32_t p = 0; p < AR_POOLS_MAX; p++)
		for (uint32_t i = 2; t->pring_at[p] >= 0 && i <= t->part[p].n;
		    i++) {
			struct ring *r = &t->prings[t->pring_at[p] + i - 2];

			r->dbi = KV_RING;
			r->id = PART_RING + p * 16 + i;
			if ((rc = ring_begin(r, t->m.chunks,
			    t->part[p].limit[i - 1], t->base,
			    t->m.horizon)) != 0)
				return rc;
			r->max = t->m.nodes;
		}
	return 0;
}

int
part_begin(ar_txn *t)
{
	struct kv_val v;
	size_t n, bad;
	const char *field;
	int rc;

	memset(t->part, 0, sizeof(t->part));
	t->nprings = 0;
	for (uint32_t p = 0; p < AR_POOLS_MAX; p++)
		t->pring_at[p] = -1;
	if (!(t->m.mode & META_LAYOUT))
		return 0;
	rc = kv_get(t->txn, KV_PRICING, &parts_key, &v);
	if (rc == KV_NOTFOUND)
		return 0;
	if (rc != 0)
		return rc;
	n = v.size / sizeof(t->part[0]);
	if (v.size % sizeof(t->part[0]) != 0 || n > t->lay.nparts)
		return AR_ECORRUPT;
	memcpy(t->part, v.data, v.size);
	for (uint32_t p = 0; p < n; p++)
		if (part_check(t, p, &t->part[p], 0, &bad, &field) != 0)
			return AR_ECORRUPT;
	return rings_begin(t);
}

void
part_end(ar_txn *t)
{
	rings_free(t);
}

struct ring *
part_limit(ar_txn *t, uint32_t pool, uint32_t i)
{
	uint32_t p;

	if (t->nprings == 0 || i < 2)
		return NULL;
	p = partition_of(t, pool);
	if (p >= AR_POOLS_MAX || t->pring_at[p] < 0 || i > t->part[p].n)
		return NULL;
	return &t->prings[t->pring_at[p] + i - 2];
}

int64_t
part_grace(const ar_txn *t, uint32_t pool)
{
	uint32_t p = partition_of(t, pool);

	return p < AR_POOLS_MAX ? t->part[p].grace : 0;
}

int
part_any_grace(const ar_txn *t)
{
	for (uint32_t p = 0; p < AR_POOLS_MAX; p++)
		if (t->part[p].grace != 0)
			return 1;
	return 0;
}

struct recount {
	uint32_t part;
	int64_t sign;
};

/* A live reservation of the end list in the partition counts, or stops
 * counting, in its limit rings. */
static int
recount_one(ar_txn *t, const struct slot_entry *e, void *arg)
{
	const struct recount *rc_arg = arg;
	int64_t from, to;
	struct ar_resv r;
	struct ring *ring;
	int rc;

	if ((rc = resv_get(t, e->id & ~ENTRY_LABELLED, &r)) != 0)
		return rc == AR_ENOTFOUND ? AR_ECORRUPT : rc;
	if (r.state != AR_GRANTED || r.cls < 2 ||
	    partition_of(t, r.pool) != rc_arg->part)
		return 0;
	from = r.start / t->m.slot;
	to = r.end / t->m.slot;
	if (from < t->base)
		from = t->base;
	for (uint32_t i = 2; from < to && i <= r.cls; i++)
		if ((ring = part_limit(t, r.pool, i)) != NULL &&
		    (rc = ring_add(t, ring, from, to, rc_arg->sign *
		    (int64_t)r.nodes * r.jobs)) != 0)
			return rc;
	return 0;
}

/* Partition part's live reservations into (sign 1) or out of (-1) its
 * limit rings. */
static int
recount(ar_txn *t, uint32_t part, int64_t sign)
{
	struct recount a = { part, sign };

	return slots_scan(t, &t->ends, (uint64_t)t->base, UINT64_MAX,
	    recount_one, &a);
}

/* Write t->part to the store: up to the last partition that has a
 * policy; none, no value. */
static int
parts_write(ar_txn *t)
{
	size_t n = AR_POOLS_MAX;
	struct kv_val v;
	int rc;

	while (n > 0 && t->part[n - 1].n == 0 && t->part[n - 1].grace == 0)
		n--;
	txn_wrote(t);
	if (n == 0) {
		rc = kv_del(t->txn, KV_PRICING, &parts_key, NULL);
		return rc == KV_NOTFOUND ? 0 : rc;
	}
	v.size = n * sizeof(t->part[0]);
	v.data = t->part;
	return kv_put(t->txn, KV_PRICING, &parts_key, &v, 0);
}

/* The limit rings again from t->part, what the old ones changed
 * written first. */
static int
rings_again(ar_txn *t)
{
	int rc;

	for (uint32_t k = 0; k < t->nprings; k++)
		if ((rc = ring_flush(t, &t->prings[k])) != 0)
			return rc;
	rings_free(t);
	return rings_begin(t);
}

int
part_put(ar_txn *t, uint32_t part, const struct part_policy *p)
{
	int had = t->part[part].n > 1;
	int rc;

	if (memcmp(p, &t->part[part], sizeof(*p)) == 0)
		return 0;
	if (had && (rc = recount(t, part, -1)) != 0)
		return rc;
	t->part[part] = *p;
	if ((rc = parts_write(t)) != 0 || (rc = rings_again(t)) != 0)
		return rc;
	return p->n > 1 ? recount(t, part, 1) : 0;
}

int
part_limits_drop(ar_txn *t)
{
	int rc;

	for (uint32_t p = 0; p < AR_POOLS_MAX; p++) {
		struct part_policy q = t->part[p];

		if (q.n == 0)
			continue;
		q.n = 0;
		memset(q.limit, 0, sizeof(q.limit));
		if ((rc = part_put(t, p, &q)) != 0)
			return rc;
	}
	return 0;
}
