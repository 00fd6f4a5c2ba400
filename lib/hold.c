/*
 * hold.c - holds: reservations granted on condition that they are
 * confirmed before they expire, as a broker booking on several stores
 * at once needs them (GarQ's two phases: hold everywhere, then confirm
 * or release).
 *
 * A hold is a granted reservation like any other, with its expiry in
 * its record and an entry in `holds` under that expiry.  Nothing
 * watches the clock: each write transaction, as it begins, releases
 * the holds that expired by its clock: when there are none (meta counts
 * them) it reads nothing, and when none expired the first entry of
 * `holds` is all it reads.
 */
#include "internal.h"

int
hold_index(ar_txn *t, const struct ar_resv *r, int add)
{
	unsigned char key[16];
	struct kv_val k = { 16, key }, v = { 0, key };
	int rc;

	hold_key(key, r->expires, r->id);
	txn_wrote(t);
	t->meta_dirty = 1;
	if (add) {
		if ((rc = kv_put(t->txn, KV_HOLDS, &k, &v,
		    KV_NOOVERWRITE)) == 0)
			t->m.holds++;
		return rc == KV_KEYEXIST ? AR_ECORRUPT : rc;
	}
	if ((rc = kv_del(t->txn, KV_HOLDS, &k, NULL)) != 0 ||
	    t->m.holds == 0)
		return rc == KV_NOTFOUND || rc == 0 ? AR_ECORRUPT : rc;
	t->m.holds--;
	return 0;
}

/*
 * From the first entry of the hold index on, while it expired by the
 * clock: the hold leaves the index, the rings and the other indexes,
 * and its record reads AR_EXPIRED, changed when it expired.
 */
int
holds_expire(ar_txn *t)
{
	struct kv_cursor *cur;
	struct kv_val k, v;
	struct ar_resv r;
	int64_t expires;
	uint64_t id;
	int rc;

	/* None at all, the common case: no lookup. */
	if (t->m.holds == 0)
		return 0;
	if ((rc = kv_cursor_open(t->txn, KV_HOLDS, &cur)) != 0)
		return rc;
	while ((rc = kv_cursor_get(cur, &k, &v, KV_FIRST)) == 0) {
		if (k.size != 16 || v.size != 0) {
			rc = AR_ECORRUPT;
			break;
		}
		expires = (int64_t)u64_key(k.data);
		id = u64_key((const char *)k.data + 8);
		if (expires > t->now)
			break;
		if ((rc = resv_get(t, id, &r)) != 0) {
			rc = rc == AR_ENOTFOUND ? AR_ECORRUPT : rc;
			break;
		}
		if (r.state != AR_GRANTED || r.expires != expires) {
			rc = AR_ECORRUPT;
			break;
		}
		txn_wrote(t);
		if (t->m.holds == 0) {
			rc = AR_ECORRUPT;
			break;
		}
		t->m.holds--;
		t->meta_dirty = 1;
		if ((rc = kv_cursor_del(cur)) != 0 ||
		    (r.named && (rc = map_pin(t, &r, NULL, 0, 0)) != 0) ||
		    (rc = track_drop(t, r.id)) != 0 ||
		    (rc = retire(t, &r, AR_EXPIRED, expires)) != 0)
			break;
		t->expired++;
	}
	kv_cursor_close(cur);
	return rc == KV_NOTFOUND ? 0 : rc;
}

int
ar_confirm(ar_txn *t, uint64_t id, uint32_t who, struct ar_resv *r)
{
	int rc;

	if ((rc = resv_owned(t, id, who, r)) != 0)
		return rc;
	/* Confirmed before: nothing to do, as asked.  Never a hold (or
	 * confirmed before format 7, which did not say so): refused. */
	if (r->expires == 0)
		return r->confirmed ? 0 : AR_ENOTHOLD;
	if ((rc = hold_index(t, r, 0)) != 0)
		return rc;
	r->expires = 0;
	r->confirmed = 1;
	r->changed = t->now;
	return resv_put(t, r);
}

enum ar_status
ar_resv_status(const struct ar_resv *r)
{
	return r->state == AR_GRANTED && r->expires != 0 ? AR_HELD : r->state;
}
