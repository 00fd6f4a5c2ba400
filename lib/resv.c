/*
 * resv.c - reservation records and their indexes: the live reservations
 * by end slot (`ends`) and the movable ones by start slot (`flex`), both
 * slot lists (slots.c), the user/job labels (`labels`), and the client
 * keys (`keys`); reading records as the API tells them (ar_get, ar_list,
 * ar_find), and a live one's retirement from the rings and indexes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/*
 * The cursor on the records, opened on first use in this transaction
 * (or nested transaction).  Left where the last access put it, it finds
 * a neighbouring id without descending from the root: new ids go at the
 * end, and purges and cancellations tend to follow ids.
 */
static int
resv_cursor(ar_txn *t, struct kv_cursor **cur)
{
	int rc;

	if (t->resv_cur == NULL &&
	    (rc = kv_cursor_open(t->txn, KV_RESV, &t->resv_cur)) != 0)
		return rc;
	*cur = t->resv_cur;
	return 0;
}

/* Close the records' cursor: its transaction is about to end or nest. */
void
resv_cursor_close(ar_txn *t)
{
	if (t->resv_cur != NULL)
		kv_cursor_close(t->resv_cur);
	t->resv_cur = NULL;
}

int
resv_put(ar_txn *t, const struct ar_resv *r)
{
	unsigned char key[8], buf[sizeof(struct disk_resv) + 2 * AR_LABEL_MAX +
	    AR_CLIENT_KEY_MAX + sizeof(struct disk_series) +
	    sizeof(struct disk_split) + sizeof(struct disk_sched) +
	    AR_LABEL_MAX + sizeof(struct disk_charge) + 8];
	struct disk_resv d;
	struct disk_series ds;
	struct disk_split dp;
	struct disk_sched dc;
	struct disk_charge ch;
	size_t ulen = strlen(r->user), jlen = strlen(r->job);
	size_t klen = strlen(r->client_key), text = ulen + jlen + klen;
	size_t alen = strlen(r->account);
	int sched = r->resv_flags != 0 || alen != 0 || r->pool != 0;
	struct kv_val kv = { 8, key }, v = { sizeof(d) + text, buf };

	memset(&d, 0, sizeof(d));
	d.id = r->id;
	d.earliest = r->earliest;
	d.latest = r->latest;
	d.duration = r->duration;
	d.start = r->start / t->m.slot;
	d.created = r->created;
	d.changed = r->changed;
	d.slots = (uint32_t)((r->end - r->start) / t->m.slot);
	d.nodes = r->nodes;
	d.jobs = r->jobs;
	d.owner = r->owner;
	d.state = (uint16_t)(r->state | (r->named ? STATE_NAMED : 0) |
	    (r->series != 0 ? STATE_SERIES : 0) |
	    (r->expires != 0 ? STATE_HOLD : 0) | (sched ? STATE_SCHED : 0) |
	    (r->confirmed ? STATE_CONFIRMED : 0) |
	    (r->used == AR_USE_YES ? STATE_USED : 0) |
	    (r->used == AR_USE_NO ? STATE_UNUSED : 0) |
	    (r->split != 0 ? STATE_SPLIT : 0));
	d.user_len = (uint16_t)ulen;
	d.job_len = (uint16_t)jlen;
	d.key_len = (uint16_t)klen;
	memcpy(buf, &d, sizeof(d));
	memcpy(buf + sizeof(d), r->user, ulen);
	memcpy(buf + sizeof(d) + ulen, r->job, jlen);
	memcpy(buf + sizeof(d) + ulen + jlen, r->client_key, klen);
	/* An occurrence's series follows its text. */
	if (r->series != 0) {
		memset(&ds, 0, sizeof(ds));
		ds.series = r->series;
		ds.occurrence = r->occurrence;
		ds.pieces = r->pieces;
		memcpy(buf + sizeof(d) + text, &ds, sizeof(ds));
		text += sizeof(ds);
		v.size += sizeof(ds);
	}
	/* A piece's split rule follows its series. */
	if (r->split != 0) {
		memset(&dp, 0, sizeof(dp));
		dp.split = r->split;
		dp.replaced = r->replaced != 0;
		dp.smallest = r->smallest;
		memcpy(buf + sizeof(d) + text, &dp, sizeof(dp));
		text += sizeof(dp);
		v.size += sizeof(dp);
	}
	/* Then what the scheduler is told: flags, and the account. */
	if (sched) {
		memset(&dc, 0, sizeof(dc));
		dc.flags = r->resv_flags;
		dc.account_len = (uint16_t)alen;
		dc.pool = (uint16_t)r->pool;
		memcpy(buf + sizeof(d) + text, &dc, sizeof(dc));
		memcpy(buf + sizeof(d) + text + sizeof(dc), r->account, alen);
		text += sizeof(dc) + alen;
		v.size += sizeof(dc) + alen;
	}
	/* A priced reservation's class and price follow that. */
	if (r->cls != 0) {
		memset(&ch, 0, sizeof(ch));
		ch.cls = r->cls;
		ch.price = r->price;
		memcpy(buf + sizeof(d) + text, &ch, sizeof(ch));
		v.size += sizeof(ch);
	}
	/* And a hold's expiry comes last. */
	if (r->expires != 0) {
		memcpy(buf + v.size, &r->expires, 8);
		v.size += 8;
	}
	key_u64(key, r->id);
	txn_wrote(t);
	return kv_put(t->txn, KV_RESV, &kv, &v, 0);
}

/*
 * A granted reservation as of clock: a hold whose expiry came by then is
 * expired, as of its expiry, whether or not a writer has released it
 * yet (holds_expire: until then its slots stay counted); any other that
 * ended by then is finished, as of its end.  A hold expires no later
 * than its end, so it never reads finished.
 */
void
resv_as_of(struct ar_resv *r, int64_t clock)
{
	if (r->state != AR_GRANTED)
		return;
	if (r->expires != 0 && r->expires <= clock) {
		r->state = AR_EXPIRED;
		r->changed = r->expires;
	} else if (r->expires == 0 && r->end <= clock) {
		r->state = AR_FINISHED;
		r->changed = r->end;
	}
}

/* Are a record's fixed fields what a store can hold, given its expiry
 * (a hold's, else 0)? */
static int
fixed_valid(const struct disk_resv *d, int64_t slot, int64_t expires)
{
	unsigned state = d->state & ~STATE_FLAGS;

	if (state != AR_GRANTED && state != AR_CANCELLED &&
	    state != AR_EXPIRED && state != AR_RECLAIMED)
		return 0;
	/* Use reported either way, not both; a reclaimed one never used. */
	if ((d->state & STATE_USED) && ((d->state & STATE_UNUSED) ||
	    state == AR_RECLAIMED))
		return 0;
	if ((d->state & STATE_HOLD) && (expires <= 0 || expires > TIME_MAX ||
	    (d->state & STATE_CONFIRMED)))
		return 0;
	if (state == AR_EXPIRED && expires == 0)
		return 0;
	return d->start >= 0 && d->start <= TIME_MAX / slot + 1 &&
	    d->slots != 0 && d->slots <= AR_DURATION_MAX / slot + 1 &&
	    d->earliest >= 0 && d->latest >= d->earliest &&
	    d->latest <= TIME_MAX && d->duration > 0 &&
	    d->duration <= AR_DURATION_MAX && d->nodes != 0 && d->jobs != 0;
}

/* A record's fixed fields into r, its slots as times; then its labels
 * and client key, from text. */
static void
fixed_fields(const struct disk_resv *d, int64_t slot, const char *text,
    struct ar_resv *r)
{
	r->id = d->id;
	r->owner = d->owner;
	r->state = d->state & ~STATE_FLAGS;
	r->named = (d->state & STATE_NAMED) != 0;
	r->confirmed = (d->state & STATE_CONFIRMED) != 0;
	r->used = d->state & STATE_USED ? AR_USE_YES :
	    d->state & STATE_UNUSED ? AR_USE_NO : AR_USE_UNKNOWN;
	r->earliest = d->earliest;
	r->latest = d->latest;
	r->duration = d->duration;
	r->start = d->start * slot;
	r->end = (d->start + d->slots) * slot;
	r->nodes = d->nodes;
	r->jobs = d->jobs;
	r->created = d->created;
	r->changed = d->changed;
	memcpy(r->user, text, d->user_len);
	r->user[d->user_len] = '\0';
	memcpy(r->job, text + d->user_len, d->job_len);
	r->job[d->job_len] = '\0';
	memcpy(r->client_key, text + d->user_len + d->job_len, d->key_len);
	r->client_key[d->key_len] = '\0';
}

/*
 * Decode a stored record.  The slot length turns slots back into times;
 * a granted reservation that ended by the last purge is finished
 * (purging does not rewrite records), so that the indexes, which hold
 * what the last purge left, agree with the records.
 */
static int
decode(const struct kv_val *v, const struct meta *m, struct ar_resv *r)
{
	int64_t slot = m->slot;
	struct disk_resv d;
	struct disk_series ds = { 0, 0, 0 };
	struct disk_split dp = { 0, 0, 0 };
	struct disk_sched dc = { 0, 0, 0 };
	struct disk_charge ch = { 0, 0, 0 };
	const char *text, *account = "";
	size_t size, body;
	int64_t expires = 0;

	if (v->size < sizeof(d))
		return AR_ECORRUPT;
	memcpy(&d, v->data, sizeof(d));
	text = (const char *)v->data + sizeof(d);
	/* The record without a hold's expiry, which ends it. */
	body = v->size;
	if (d.state & STATE_HOLD) {
		if (body < sizeof(d) + 8)
			return AR_ECORRUPT;
		body -= 8;
		memcpy(&expires, (const char *)v->data + body, 8);
	}
	/* A damaged record must not take the arithmetic below out of range. */
	if (d.user_len > AR_LABEL_MAX || d.job_len > AR_LABEL_MAX ||
	    d.key_len > AR_CLIENT_KEY_MAX)
		return AR_ECORRUPT;
	size = sizeof(d) + d.user_len + d.job_len + d.key_len +
	    (d.state & STATE_SERIES ? sizeof(ds) : 0) +
	    (d.state & STATE_SPLIT ? sizeof(dp) : 0);
	if (d.state & STATE_SCHED) {
		if (body < size + sizeof(dc))
			return AR_ECORRUPT;
		memcpy(&dc, (const char *)v->data + size, sizeof(dc));
		if (dc.account_len > AR_LABEL_MAX ||
		    (dc.flags & ~(uint32_t)AR_RESV_MAINT) != 0 ||
		    (dc.flags == 0 && dc.account_len == 0 && dc.pool == 0))
			return AR_ECORRUPT;
		account = (const char *)v->data + size + sizeof(dc);
		size += sizeof(dc) + dc.account_len;
	}
	if ((size != body && size + sizeof(ch) != body) ||
	    !fixed_valid(&d, slot, expires))
		return AR_ECORRUPT;
	fixed_fields(&d, slot, text, r);
	if (d.state & STATE_SERIES) {
		memcpy(&ds, text + d.user_len + d.job_len + d.key_len,
		    sizeof(ds));
		if (ds.series == 0 || ds.series > d.id || ds.occurrence == 0 ||
		    ds.occurrence > AR_SERIES_MAX || (ds.pieces != 0 &&
		    (ds.pieces < 2 || ds.pieces > AR_SERIES_MAX ||
		    ds.occurrence > ds.pieces)))
			return AR_ECORRUPT;
	}
	/* A piece of format 8 kept no rule: it was ORR's, the default.
	 * Only a piece (a series) has a rule, after its series part: one
	 * without was counted by size without it, and reading it there
	 * would run past the record. */
	if ((d.state & STATE_SPLIT) && !(d.state & STATE_SERIES))
		return AR_ECORRUPT;
	if (d.state & STATE_SPLIT)
		memcpy(&dp, text + d.user_len + d.job_len + d.key_len +
		    sizeof(ds), sizeof(dp));
	else if (ds.pieces != 0)
		dp.split = AR_SPLIT_ORR;
	if ((d.state & STATE_SPLIT) && (ds.pieces == 0 ||
	    (dp.split != AR_SPLIT_ORR && dp.split != AR_SPLIT_TARR) ||
	    dp.replaced > 1 || (dp.replaced &&
	    (d.state & ~STATE_FLAGS) != AR_CANCELLED) ||
	    dp.smallest < 0 || dp.smallest > d.duration ||
	    (dp.split == AR_SPLIT_TARR && dp.smallest != 0)))
		return AR_ECORRUPT;
	r->split = dp.split;
	r->smallest = dp.smallest;
	r->replaced = dp.replaced;
	r->series = ds.series;
	r->occurrence = ds.occurrence;
	r->pieces = ds.pieces;
	r->expires = expires;
	r->resv_flags = dc.flags;
	r->pool = dc.pool;
	memcpy(r->account, account, dc.account_len);
	r->account[dc.account_len] = '\0';
	if (size != body) {
		memcpy(&ch, text + size - sizeof(d), sizeof(ch));
		if (ch.cls == 0 || ch.cls > AR_CLASSES_MAX || ch.price < 0)
			return AR_ECORRUPT;
	}
	r->cls = ch.cls;
	r->price = ch.price;
	resv_as_of(r, m->purged);
	return 0;
}

int
resv_get(ar_txn *t, uint64_t id, struct ar_resv *r)
{
	unsigned char key[8];
	struct kv_val kv = { 8, key }, v;
	struct kv_cursor *cur;
	int rc;

	key_u64(key, id);
	if ((rc = resv_cursor(t, &cur)) != 0)
		return rc;
	if ((rc = kv_cursor_get(cur, &kv, &v, KV_SET_KEY)) != 0)
		return rc == KV_NOTFOUND ? AR_ENOTFOUND : rc;
	if ((rc = decode(&v, &t->m, r)) != 0)
		return rc;
	return r->id == id ? 0 : AR_ECORRUPT;
}

int
resv_decode(const ar_txn *t, const struct kv_val *v, struct ar_resv *r)
{
	return decode(v, &t->m, r);
}

/*
 * A record as the library's callers see it: finished once it ended by
 * the store clock, whether or not a purge has taken it out of the
 * indexes yet; a hold expired once its expiry came by that clock,
 * whether or not a writer has released it.
 */
int
ar_get(ar_txn *t, uint64_t id, struct ar_resv *r)
{
	int rc;

	if ((rc = resv_get(t, id, r)) == 0)
		resv_as_of(r, t->now);
	return rc;
}

struct listing {
	ar_txn *t;
	unsigned flags;
	int (*fn)(const struct ar_resv *, void *);
	void *arg;
};

static int
listed(struct kv_cursor *cur, const struct kv_val *k, const struct kv_val *v,
    void *arg)
{
	struct listing *l = arg;
	struct ar_resv r;
	int rc;

	(void)cur;
	(void)k;
	if ((rc = resv_decode(l->t, v, &r)) != 0)
		return rc;
	resv_as_of(&r, l->t->now);
	if ((l->flags & AR_LIVE) && r.state != AR_GRANTED)
		return 0;
	return l->fn(&r, l->arg);
}

int
ar_list(ar_txn *t, unsigned flags,
    int (*fn)(const struct ar_resv *, void *), void *arg)
{
	struct listing l = { t, flags, fn, arg };

	return kv_walk(t->txn, KV_RESV, NULL, listed, &l);
}

/* The labels key: user, a NUL, job. */
size_t
label_key(const char *user, const char *job, unsigned char *buf)
{
	size_t ulen = strlen(user), jlen = strlen(job);

	memcpy(buf, user, ulen);
	buf[ulen] = '\0';
	memcpy(buf + ulen + 1, job, jlen);
	return ulen + 1 + jlen;
}

/*
 * Is r in the movable list?  When its window spans more than one start
 * slot, until a purge passes its start: a started reservation never moves,
 * and a purge takes the started ones out of the list by start slot.  A
 * piece of a split request never moves: its window is its request's, and
 * moved in it a piece could land on another.
 */
int
resv_movable(const ar_txn *t, const struct ar_resv *r)
{
	return slot_up(t, r->earliest) < slot_up(t, r->latest) &&
	    !r->named && r->pieces == 0 && r->start / t->m.slot > t->m.purged / t->m.slot;
}

/* Enter r in, or (add == 0) remove it from, the movable list if it may
 * move. */
static int
resv_flex(ar_txn *t, const struct ar_resv *r, int add)
{
	uint64_t start = (uint64_t)(r->start / t->m.slot);

	if (!resv_movable(t, r))
		return 0;
	return add ? slots_add(t, &t->flex, start, r->id, 0) :
	    slots_remove(t, &t->flex, start, r->id);
}

/*
 * Enter r in, or (add == 0) remove it from, the movable list (if it may
 * move) and the label index (if labelled).
 */
int
resv_index_more(ar_txn *t, const struct ar_resv *r, int add)
{
	unsigned char lkey[2 * AR_LABEL_MAX + 1], id[8];
	struct kv_val lk = { 0, lkey }, iv = { 8, id };
	int rc;

	key_u64(id, r->id);
	lk.size = label_key(r->user, r->job, lkey);
	if ((rc = resv_flex(t, r, add)) != 0 || lk.size <= 1)
		return rc;
	txn_wrote(t);
	if (add)
		return kv_put(t->txn, KV_LABELS, &lk, &iv, 0);
	rc = kv_del(t->txn, KV_LABELS, &lk, &iv);
	return rc == KV_NOTFOUND ? AR_ECORRUPT : rc;
}

/* Enter r in, or (add == 0) remove it from, the end list. */
static int
resv_end(ar_txn *t, const struct ar_resv *r, int add)
{
	uint64_t end = (uint64_t)(r->end / t->m.slot);

	int rc;

	/* The reservations that may be reclaimed go with the live ones. */
	if ((rc = unused_index(t, r, add)) != 0)
		return rc;
	if (add)
		return slots_add(t, &t->ends, end, r->id, r->user[0] != '\0' ||
		    r->job[0] != '\0');
	return slots_remove(t, &t->ends, end, r->id);
}

/* Enter a live reservation in, or (add == 0) remove it from, every index. */
int
resv_index(ar_txn *t, const struct ar_resv *r, int add)
{
	int rc;

	return (rc = resv_end(t, r, add)) != 0 ? rc :
	    resv_index_more(t, r, add);
}

/* The same, but the label index, for a reservation whose labels stay. */
int
resv_list(ar_txn *t, const struct ar_resv *r, int add)
{
	int rc;

	return (rc = resv_end(t, r, add)) != 0 ? rc : resv_flex(t, r, add);
}

int
ar_find(ar_txn *t, const char *user, const char *job, uint64_t *ids,
    size_t max, size_t *n)
{
	unsigned char lkey[2 * AR_LABEL_MAX + 1];
	struct kv_val k = { 0, lkey }, v;
	struct kv_cursor *cur;
	struct ar_resv r;
	uint64_t id;
	int rc;

	*n = 0;
	user = user == NULL ? "" : user;
	job = job == NULL ? "" : job;
	if (strlen(user) > AR_LABEL_MAX || strlen(job) > AR_LABEL_MAX)
		return EINVAL;
	k.size = label_key(user, job, lkey);
	if (k.size == 1)
		return 0;               /* unlabelled reservations are not indexed */
	if ((rc = kv_cursor_open(t->txn, KV_LABELS, &cur)) != 0)
		return rc;
	for (rc = kv_cursor_get(cur, &k, &v, KV_SET_KEY); rc == 0;
	    rc = kv_cursor_get(cur, &k, &v, KV_NEXT_DUP)) {
		if (v.size != 8) {
			rc = AR_ECORRUPT;
			break;
		}
		/* The index keeps what ended until a purge: those are done. */
		id = u64_key(v.data);
		if ((rc = ar_get(t, id, &r)) != 0) {
			rc = rc == AR_ENOTFOUND ? AR_ECORRUPT : rc;
			break;
		}
		if (r.state != AR_GRANTED)
			continue;
		if (*n < max)
			ids[*n] = id;
		++*n;
	}
	kv_cursor_close(cur);
	return rc == KV_NOTFOUND ? 0 : rc;
}

/* The keys key: the owner, big-endian, then the client key. */
size_t
keys_key(uint32_t owner, const char *key, unsigned char *buf)
{
	size_t len = strlen(key);

	for (int i = 3; i >= 0; i--, owner >>= 8)
		buf[i] = (unsigned char)owner;
	memcpy(buf + 4, key, len);
	return 4 + len;
}

/* The key index's entry for owner's client key, or AR_ENOTFOUND. */
int
key_get(ar_txn *t, uint32_t owner, const char *key, struct kv_val *v)
{
	unsigned char kbuf[KEYS_KEY_MAX];
	struct kv_val k = { keys_key(owner, key, kbuf), kbuf };
	int rc;

	rc = kv_get(t->txn, KV_KEYS, &k, v);
	return rc == KV_NOTFOUND ? AR_ENOTFOUND : rc;
}

/* Check an entry's value: its header in *e, and *n ids after it. */
int
key_decode(const struct kv_val *v, struct key_entry *e, size_t *n)
{
	if (v->size < sizeof(*e) + 8 || (v->size - sizeof(*e)) % 8 != 0)
		return AR_ECORRUPT;
	memcpy(e, v->data, sizeof(*e));
	*n = (v->size - sizeof(*e)) / 8;
	return e->jobs > AR_JOBS_MAX || *n > e->jobs ? AR_ECORRUPT : 0;
}

/* The i-th id of an entry key_decode accepted. */
uint64_t
key_id(const struct kv_val *v, size_t i)
{
	uint64_t id;

	memcpy(&id, (const char *)v->data + sizeof(struct key_entry) +
	    i * 8, 8);
	return id;
}

/* Record owner's client key for the n copies granted of jobs asked. */
int
key_put(ar_txn *t, uint32_t owner, const char *key, uint32_t jobs,
    const struct ar_placed *granted, size_t n)
{
	unsigned char kbuf[KEYS_KEY_MAX];
	struct key_entry e = { jobs, 0 };
	struct kv_val k = { keys_key(owner, key, kbuf), kbuf };
	struct kv_val v = { sizeof(e) + n * 8, NULL };
	int rc;

	if ((v.data = malloc(v.size)) == NULL)
		return ENOMEM;
	memcpy(v.data, &e, sizeof(e));
	for (size_t i = 0; i < n; i++)
		memcpy((char *)v.data + sizeof(e) + i * 8, &granted[i].id, 8);
	txn_wrote(t);
	rc = kv_put(t->txn, KV_KEYS, &k, &v, 0);
	free(v.data);
	return rc;
}

/* Take a live reservation out of the start lists and the ring's future. */
/* retire and retire_from: the slots freed from slot from on, and the
 * record ending there if cut. */
static int
retire_at(ar_txn *t, struct ar_resv *r, int64_t from, int cut,
    enum ar_status state, int64_t changed)
{
	int64_t first = r->start / t->m.slot, to = r->end / t->m.slot;
	int rc;

	if (from < first)
		from = first;
	if (from < t->base)
		from = t->base;
	if (from < to && (rc = fit_add(t, r->cls, r->pool, from, to,
	    -(int64_t)r->nodes * r->jobs)) != 0)
		return rc;
	if ((rc = resv_index(t, r, 0)) != 0)
		return rc;
	/* A record keeps a slot at least. */
	if (cut && from < to)
		r->end = (from > first ? from : first + 1) * t->m.slot;
	r->state = state;
	r->changed = changed;
	if ((rc = resv_put(t, r)) != 0)
		return rc;
	t->m.live--;
	t->meta_dirty = 1;
	return 0;
}

int
retire(ar_txn *t, struct ar_resv *r, enum ar_status state, int64_t changed)
{
	return retire_at(t, r, r->start / t->m.slot, 0, state, changed);
}

int
retire_from(ar_txn *t, struct ar_resv *r, int64_t from, enum ar_status state,
    int64_t changed)
{
	return retire_at(t, r, from, 1, state, changed);
}

static const struct kv_val drains_key = { 6, "drains" };

int
drains_read(ar_txn *t, struct disk_drain **d, size_t *n)
{
	struct kv_val v;
	int rc;

	*d = NULL;
	*n = 0;
	if ((rc = kv_get(t->txn, KV_META, &drains_key, &v)) != 0)
		return rc == KV_NOTFOUND ? 0 : rc;
	if (v.size % sizeof(**d) != 0)
		return AR_ECORRUPT;
	if (v.size == 0)
		return 0;
	if ((*d = malloc(v.size)) == NULL)
		return ENOMEM;
	memcpy(*d, v.data, v.size);
	*n = v.size / sizeof(**d);
	return 0;
}

int
drains_write(ar_txn *t, const struct disk_drain *d, size_t n)
{
	struct kv_val v = { n * sizeof(*d), (void *)d };
	int rc;

	txn_wrote(t);
	if (n > 0)
		return kv_put(t->txn, KV_META, &drains_key, &v, 0);
	rc = kv_del(t->txn, KV_META, &drains_key, NULL);
	return rc == KV_NOTFOUND ? 0 : rc;
}

int
resv_owned(ar_txn *t, uint64_t id, uint32_t who, struct ar_resv *r)
{
	struct disk_drain *d;
	size_t n;
	int rc;

	if (!t->write)
		return EACCES;
	if ((rc = ar_get(t, id, r)) != 0)
		return rc;
	who = txn_who(t, who);
	if (who != 0 && who != r->owner)
		return AR_EPERM;
	if (r->state != AR_GRANTED)
		return AR_EDONE;
	/* A drain's reservation is ar_drain's and ar_undrain's only. */
	if (!r->named || !(r->resv_flags & AR_RESV_MAINT))
		return 0;
	if ((rc = drains_read(t, &d, &n)) != 0)
		return rc;
	for (size_t i = 0; i < n && rc == 0; i++)
		if (d[i].id == id)
			rc = AR_EPERM;
	free(d);
	return rc;
}
