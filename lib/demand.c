/*
 * demand.c - the demand log: every admission outcome with price
 * classes, every refusal without (a grant's record tells the rest),
 * entries in the order they were asked, cut only from the front (a
 * purge's retention, ar_forget).  It is what ar_forecast forecasts the
 * classes' demand from, and what reports count refusals in.
 */
#include <string.h>

#include "internal.h"

int
demand_begin(struct kv_txn *txn, int64_t now)
{
	unsigned char key[8];
	struct disk_demand d;
	struct kv_val k = { 8, key }, v = { sizeof(d), &d };

	memset(&d, 0, sizeof(d));
	d.at = d.earliest = now;
	key_u64(key, 1);
	return kv_put(txn, KV_DEMAND, &k, &v, KV_APPEND);
}

/*
 * Without classes a grant is not logged: its record tells the same, and
 * an LMDB put would cost a grant a quarter more.  The log's end is
 * looked up once per transaction, and entries are appended after it.
 */
int
demand_log(ar_txn *t, const struct ar_request *rq, uint32_t cls,
    uint32_t granted, enum ar_reason reason, uint32_t partition)
{
	unsigned char key[8];
	struct kv_val k = { 8, key }, v;
	struct kv_cursor *cur;
	struct disk_demand d;
	int rc;

	if (t->pr.n == 0 && granted == rq->jobs)
		return 0;

	/* The next sequence number: looked up once per transaction. */
	if (t->demand_seq == 0) {
		if ((rc = kv_cursor_open(t->txn, KV_DEMAND, &cur)) != 0)
			return rc;
		rc = kv_cursor_get(cur, &k, &v, KV_LAST);
		if (rc == 0 && k.size != 8)
			rc = AR_ECORRUPT;
		t->demand_seq = rc == 0 ? u64_key(k.data) + 1 : 1;
		kv_cursor_close(cur);
		if (rc != 0 && rc != KV_NOTFOUND)
			return rc;
	}
	memset(&d, 0, sizeof(d));
	d.at = t->now;
	d.earliest = rq->earliest;
	d.duration = rq->duration;
	d.nodes = rq->nodes;
	d.jobs = rq->jobs;
	d.granted = granted;
	d.cls = (uint16_t)cls;
	d.reason = (uint8_t)reason;
	d.partition = (uint8_t)partition;
	key_u64(key, t->demand_seq);
	k.size = 8;
	k.data = key;
	v.size = sizeof(d);
	v.data = &d;
	txn_wrote(t);
	if ((rc = kv_put(t->txn, KV_DEMAND, &k, &v, KV_APPEND)) == 0)
		t->demand_seq++;
	return rc;
}

void
demand_forget(ar_txn *t)
{
	t->demand_seq = 0;
}

int
demand_drop(ar_txn *t, int64_t before, uint64_t *dropped)
{
	struct kv_cursor *cur;
	struct kv_val k, v;
	struct disk_demand d;
	int rc;

	*dropped = 0;
	if ((rc = kv_cursor_open(t->txn, KV_DEMAND, &cur)) != 0)
		return rc;
	/* Entries are in the order they were asked: the old ones first. */
	while ((rc = kv_cursor_get(cur, &k, &v, KV_FIRST)) == 0) {
		if (v.size != sizeof(d)) {
			rc = AR_ECORRUPT;
			break;
		}
		memcpy(&d, v.data, sizeof(d));
		if (d.at >= before)
			break;
		txn_wrote(t);
		if ((rc = kv_cursor_del(cur)) != 0)
			break;
		++*dropped;
	}
	kv_cursor_close(cur);
	return rc == KV_NOTFOUND || rc == 0 ? 0 : rc;
}

int
demand_prune(ar_txn *t, uint64_t *dropped)
{
	int64_t retention = t->pr.n ? t->pr.retention : RETENTION_DEFAULT;

	return demand_drop(t, t->now - retention, dropped);
}

/* ar_demand's walk: since when, and whom to tell. */
struct demand_walk {
	int64_t since;
	int (*fn)(const struct ar_demand *, void *);
	void *arg;
};

static int
demand_visit(struct kv_cursor *cur, const struct kv_val *k,
    const struct kv_val *v, void *arg)
{
	struct demand_walk *w = arg;
	struct disk_demand d;
	struct ar_demand e;

	(void)cur;
	if (k->size != 8 || v->size != sizeof(d))
		return AR_ECORRUPT;
	memcpy(&d, v->data, sizeof(d));
	/* The entry a store's log begins with is no request. */
	if (d.at < w->since || d.jobs == 0)
		return 0;
	e.seq = u64_key(k->data);
	e.at = d.at;
	e.earliest = d.earliest;
	e.duration = d.duration;
	e.nodes = d.nodes;
	e.jobs = d.jobs;
	e.granted = d.granted;
	e.cls = d.cls;
	e.reason = (enum ar_reason)d.reason;
	e.partition = d.partition;
	return w->fn(&e, w->arg);
}

int
ar_demand(ar_txn *t, int64_t since,
    int (*fn)(const struct ar_demand *, void *), void *arg)
{
	struct demand_walk w = { since, fn, arg };

	return kv_walk(t->txn, KV_DEMAND, NULL, demand_visit, &w);
}
