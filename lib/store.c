/*
 * store.c - a store on its backend (kv.h): the handle, opened and
 * closed; its meta; a transaction's storage side, begun, committed or
 * aborted at the backend, and the store clock it keeps; growing; dumping
 * and loading; and the names of errors, statuses and reasons.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define FORMAT_OLDEST 3         /* the oldest format ar_upgrade converts */

const struct kv_val meta_key = { 4, "meta" };
static const struct kv_val hosts_key = { 5, "hosts" };

/* Seconds to slots, rounding up; a start on a boundary stays there. */
int64_t
slot_up(const ar_txn *t, int64_t time)
{
	int64_t q = time / t->m.slot, r = time % t->m.slot;

	return r > 0 ? q + 1 : q;
}

static int64_t
slot_down(int64_t time, int64_t slot)
{
	int64_t q = time / slot, r = time % slot;

	return r < 0 ? q - 1 : q;
}

static unsigned
flags_of(uint32_t mode)
{
	return ((mode & META_SIMULATED) ? AR_SIMULATED : 0) |
	    ((mode & META_ROLE_OWNERS) ? AR_ROLE_OWNERS : 0);
}

/*
 * A live store's clock for a transaction given now, 0 for the system
 * clock (*system): the later of that and the clock kept.  A writer may
 * not ask for a time later than both (AR_ELIVE): that would move the
 * store past real time for everyone, and its clock never runs back.  A
 * reader may: it only asks what the store would say then.  A writer
 * may ask for the system clock it read before (as the commands do, who
 * read the times of their requests from it): the store's clock is then
 * that, not a later one that would find a request for "now" past.
 */
int
live_clock(struct kv_txn *txn, int write, int64_t now, int64_t kept,
    int64_t *system, int64_t *clock)
{
	int rc;

	if ((rc = txn->be->clock(txn, system)) != 0)
		return rc;
	if (now == 0)
		now = *system;
	if (write && now > *system && now > kept)
		return AR_ELIVE;
	*clock = now > kept ? now : kept;
	return 0;
}

int
meta_read(struct kv_txn *txn, struct meta *m)
{
	struct kv_val v;
	int rc;

	if ((rc = kv_get(txn, KV_META, &meta_key, &v)) != 0)
		return rc == KV_NOTFOUND ? AR_ECORRUPT : rc;
	if (v.size < 8)
		return AR_ECORRUPT;
	memcpy(m, v.data, 8);
	if (m->magic != META_MAGIC)
		return AR_ECORRUPT;
	if (m->format > AR_FORMAT_VERSION || m->format < FORMAT_OLDEST)
		return AR_EVERSION;
	/* An older meta is shorter: read it whole, for ar_upgrade. */
	if (v.size != sizeof(*m) && (m->format == AR_FORMAT_VERSION ||
	    (v.size != META_V4_SIZE && v.size != META_V5_SIZE &&
	    v.size != META_V6_SIZE)))
		return AR_ECORRUPT;
	memset(m, 0, sizeof(*m));
	memcpy(m, v.data, v.size);
	/* Ranges as ar_create allows them: the arithmetic relies on it. */
	if (m->nodes == 0 || m->nodes > 1000000 || m->slot < 1 ||
	    m->slot > 86400 || m->horizon < 1 ||
	    m->horizon > HORIZON_MAX_SLOTS || m->clock < 0 ||
	    m->clock > TIME_MAX || m->purged < 0 || m->purged > m->clock ||
	    m->chunks != (m->horizon + CHUNK_SLOTS - 1) / CHUNK_SLOTS + 1 ||
	    (m->mode & ~(uint32_t)(META_SIMULATED | META_ROLE_OWNERS |
	    META_LAYOUT)) != 0 ||
	    ((m->mode & META_LAYOUT) && m->format < 9))
		return AR_ECORRUPT;
	return m->format == AR_FORMAT_VERSION ? 0 : AR_EUPGRADE;
}

int
meta_put(ar_txn *t)
{
	struct kv_val v = { sizeof(t->m), &t->m };
	int rc;

	rc = kv_put(t->txn, KV_META, &meta_key, &v, 0);
	txn_wrote(t);
	if (rc == 0)
		t->meta_dirty = 0;
	return rc;
}

int
meta_text_put(struct kv_txn *txn, const struct kv_val *key, const char *text)
{
	struct kv_val v = { strlen(text) + 1, (void *)text };

	return kv_put(txn, KV_META, key, &v, 0);
}

int
meta_text_get(struct kv_txn *txn, const struct kv_val *key, const char **text)
{
	struct kv_val v;
	int rc;

	if ((rc = kv_get(txn, KV_META, key, &v)) != 0)
		return rc == KV_NOTFOUND ? AR_ECORRUPT : rc;
	if (v.size == 0 || memchr(v.data, '\0', v.size) !=
	    (char *)v.data + v.size - 1)
		return AR_ECORRUPT;
	*text = v.data;
	return 0;
}

int
hosts_put(struct kv_txn *txn, const char *text)
{
	return meta_text_put(txn, &hosts_key, text);
}

int
ar_hosts(ar_txn *t, const char **names)
{
	return meta_text_get(t->txn, &hosts_key, names);
}



/* Open a store and read its meta (AR_EUPGRADE if its format is older,
 * which only ar_upgrade opens). */
int
ar_open(const char *where, unsigned flags, ar_store **sp)
{
	ar_store *s;
	struct kv_txn *txn;
	struct kv_val v;
	struct meta m;
	uint64_t n;
	int rc;

	if ((s = calloc(1, sizeof(*s))) == NULL)
		return ENOMEM;
	s->be = kv_backend_of(where);
	s->wait_ms = WAIT_DEFAULT_MS;
	s->flags = flags & AR_RDONLY;
	if ((rc = s->be->open(where, flags, &s->ks)) != 0) {
		free(s);
		return rc;
	}
	if ((rc = s->be->txn_begin(s->ks, NULL, 0, 0, &txn)) == 0) {
		rc = meta_read(txn, &m);
		/* No meta and no records: an older ar's creation was cut. */
		if (rc == AR_ECORRUPT &&
		    kv_get(txn, KV_META, &meta_key, &v) == KV_NOTFOUND &&
		    kv_count(txn, KV_RESV, &n) == 0 && n == 0)
			rc = AR_EHALF;
		s->be->txn_abort(txn);
	}
	if (rc == 0 && !s->be->complete(s->ks))
		rc = AR_ECORRUPT;
	/* Who the session is, once: its role is its connection's. */
	if (rc == 0 && (m.mode & META_ROLE_OWNERS)) {
		s->roles = 1;
		rc = s->be->role == NULL ? ENOTSUP :
		    s->be->role(s->ks, &s->role, &s->admin);
	}
	if (rc != 0) {
		store_close(s);
		return rc;
	}
	*sp = s;
	return 0;
}

void
store_close(ar_store *s)
{
	s->be->close(s->ks);
	free(s);
}

int
store_begin(ar_txn *t, ar_store *s, int write, int64_t now)
{
	int rc;

	t->s = s;
	t->write = write;
	if ((rc = s->be->txn_begin(s->ks, NULL, write, s->wait_ms,
	    &t->txn)) != 0 || (rc = meta_read(t->txn, &t->m)) != 0)
		return rc;
	t->gen++;               /* nothing cached before is valid now */
	t->begun = t->m;
	t->kept = t->m.clock;
	t->system = 0;
	if (!(t->m.mode & META_SIMULATED) && (rc = live_clock(t->txn, write,
	    now, t->kept, &t->system, &now)) != 0)
		return rc;
	if (now > t->m.clock) {
		t->m.clock = now;
		t->meta_dirty = write;
	}
	t->now = t->m.clock;
	t->base = slot_down(t->now, t->m.slot);
	return 0;
}

int
store_commit(ar_txn *t)
{
	int rc;

	if (t->meta_dirty && (rc = meta_put(t)) != 0) {
		t->s->be->txn_abort(t->txn);
		return rc;
	}
	return t->s->be->txn_commit(t->txn);
}

void
store_abort(ar_txn *t)
{
	if (t->txn != NULL)
		t->s->be->txn_abort(t->txn);
}

const char *
ar_backend_name(const char *where)
{
	return kv_backend_of(where)->name;
}

/* Files, groups and modes are LMDB's: a PostgreSQL store has none. */
int
ar_share(const char *where, long group)
{
	const struct kv_backend *be = kv_backend_of(where);

	return be->share != NULL ? be->share(where, group) : EOPNOTSUPP;
}

int
ar_denied(const char *where, unsigned flags, char *path, size_t size)
{
	const struct kv_backend *be = kv_backend_of(where);

	return be->denied != NULL ? be->denied(where, flags, path, size) :
	    ENOENT;
}

void
ar_set_wait(ar_store *s, long ms)
{
	s->wait_ms = ms < 0 ? 0 : ms;
}

long
ar_lock_holder(ar_store *s)
{
	return s->be->lock_holder(s->ks);
}

void
ar_idle(ar_store *s)
{
	s->be->idle(s->ks);
}

/* Room a freeing transaction may take past map_max: 1/16, at least 1 MiB. */
static uint64_t
reserve(uint64_t map_max)
{
	return map_max / 16 > KV_SIZE_INITIAL ? map_max / 16 : KV_SIZE_INITIAL;
}

int
ar_grow(ar_store *s, unsigned flags)
{
	struct kv_txn *txn;
	struct meta m;
	int rc;

	if ((rc = s->be->txn_begin(s->ks, NULL, 0, 0, &txn)) != 0)
		return rc;
	rc = meta_read(txn, &m);
	s->be->txn_abort(txn);
	if (rc != 0 && rc != AR_EUPGRADE)       /* ar_upgrade grows it too */
		return rc;
	return s->be->grow(s->ks, m.map_max +
	    ((flags & AR_FREEING) ? reserve(m.map_max) : 0));
}

int
ar_set_max_size(ar_txn *t, uint64_t map_max)
{
	uint64_t size;
	int rc;

	if (!t->write)
		return EACCES;
	if ((rc = t->s->be->size(t->s->ks, &size)) != 0)
		return rc;
	if (map_max < KV_SIZE_INITIAL || map_max < size)
		return EINVAL;
	if (map_max != t->m.map_max) {
		t->m.map_max = map_max;
		t->meta_dirty = 1;
	}
	return 0;
}

int
ar_info(ar_txn *t, struct ar_info *info)
{
	uint64_t size;
	int rc;

	if ((rc = t->s->be->size(t->s->ks, &size)) != 0)
		return rc;
	memset(info, 0, sizeof(*info));
	info->config.nodes = t->m.nodes;
	info->config.slot = t->m.slot;
	info->config.horizon = t->m.horizon * t->m.slot;
	info->config.map_max = t->m.map_max;
	info->config.flags = flags_of(t->m.mode);
	info->format = t->m.format;
	info->clock = t->now;
	info->next_id = t->m.next_id;
	info->live = t->m.live;
	info->records = t->m.records;
	info->map_size = size;
	return 0;
}

int64_t
ar_txn_now(const ar_txn *t)
{
	return t->now;
}

uint32_t
txn_owner(const ar_txn *t, uint32_t uid)
{
	return t->s->roles ? t->s->role : uid;
}

uint32_t
txn_who(const ar_txn *t, uint32_t who)
{
	return !t->s->roles ? who : t->s->admin ? 0 : t->s->role;
}

const char *
ar_strerror(int code)
{
	const char *msg;

	switch (code) {
	case AR_ENOSTORE:
		return "no store there (create one with --create)";
	case AR_EEXIST:
		return "a store with another configuration exists there";
	case AR_EVERSION:
		return "the store has another format version";
	case AR_ECORRUPT:
		return "the store is corrupt";
	case AR_ETIMEDOUT:
		return "timed out waiting for another writer";
	case AR_ENOTFOUND:
		return "no such reservation";
	case AR_EPERM:
		return "not the owner of the reservation";
	case AR_EDONE:
		return "the reservation is already cancelled or finished";
	case AR_EFULL:
		return "the store is full (its maximum size is reached; "
		    "raise it with --create --max-size)";
	case AR_EUPGRADE:
		return "the store has an older format version; upgrade it "
		    "with --upgrade";
	case AR_EHALF:
		return "an unfinished store (its creation was interrupted: "
		    "run --create again)";
	case AR_UNCHANGED:
		return "nothing changed";
	case AR_ENOTHOLD:
		return "the reservation was never a hold";
	case AR_EWHERE:
		return "not a store's address: its store= takes 1 to 63 "
		    "letters, digits, '.', '_' or '-', once";
	case AR_ELIVE:
		return "the store is live: its clock is the system clock, "
		    "which no writer may set ahead";
	}
	if ((msg = kv_strerror(code)) != NULL)
		return msg;
	return strerror(code);
}

const char *
ar_status_name(enum ar_status st)
{
	static const char *const names[] = {
		"unknown", "granted", "refused", "available", "unavailable",
		"suggested", "moved", "cancelled", "finished", "expired", "held",
		"reclaimed"
	};

	return (unsigned)st < sizeof(names) / sizeof(names[0]) ?
	    names[st] : names[0];
}

const char *
ar_reason_name(enum ar_reason r)
{
	static const char *const names[] = {
		"none", "full", "past", "horizon", "capacity", "search-limit",
		"key-reused", "booking-limit", "hosts",
		"started", "no-slices", "displaced"
	};

	return (unsigned)r < sizeof(names) / sizeof(names[0]) ?
	    names[r] : names[0];
}

/* A dump: the table being walked, and whom to give its entries. */
struct dump {
	const char *table;
	int (*fn)(const struct ar_entry *, void *);
	void *arg;
};

/* An entry of a table; the meta's, given first, is not given again. */
static int
dumped(struct kv_cursor *cur, const struct kv_val *k, const struct kv_val *v,
    void *arg)
{
	struct dump *d = arg;
	struct ar_entry e = { d->table, k->data, k->size, v->data, v->size };

	(void)cur;
	if (d->table == kv_table_names[KV_META] && kv_same(k, &meta_key))
		return 0;
	return d->fn(&e, d->arg);
}

int
ar_dump(ar_txn *t, int (*fn)(const struct ar_entry *, void *), void *arg)
{
	struct dump d = { NULL, fn, arg };
	struct ar_entry e;
	struct kv_val v;
	int rc;

	if (t->write)
		return EACCES;
	/* The meta first: a load learns from it what the store needs. */
	if ((rc = kv_get(t->txn, KV_META, &meta_key, &v)) != 0)
		return rc == KV_NOTFOUND ? AR_ECORRUPT : rc;
	e = (struct ar_entry){ kv_table_names[KV_META], meta_key.data,
	    meta_key.size, v.data, v.size };
	if ((rc = fn(&e, arg)) != 0)
		return rc;
	for (int tb = 0; tb < KV_TABLES && rc == 0; tb++) {
		d.table = kv_table_names[tb];
		rc = kv_walk(t->txn, tb, NULL, dumped, &d);
	}
	return rc;
}

/* A load: the entries to come, after the first, which was read. */
struct load {
	int (*next)(struct ar_entry *, void *);
	void *arg;
	struct ar_entry first;
};

static int
load_fill(struct kv_txn *txn, const void *arg)
{
	const struct load *l = arg;
	struct ar_entry e = l->first;
	struct kv_val k, v;
	struct meta m;
	int tb, rc = 1;

	for (; rc == 1; rc = l->next(&e, l->arg)) {
		for (tb = 0; tb < KV_TABLES; tb++)
			if (strcmp(e.table, kv_table_names[tb]) == 0)
				break;
		if (tb == KV_TABLES)
			return AR_ECORRUPT;
		k.data = (void *)e.key;
		k.size = e.key_size;
		v.data = (void *)e.value;
		v.size = e.value_size;
		/* A key twice is refused (in labels, a pair twice). */
		if ((rc = kv_put(txn, tb, &k, &v, tb == KV_LABELS ? 0 :
		    KV_NOOVERWRITE)) != 0)
			return rc == KV_KEYEXIST ? AR_ECORRUPT : rc;
		rc = 1;
	}
	if (rc != 0)
		return rc;
	return meta_read(txn, &m);
}

int
ar_load(const char *where, int (*next)(struct ar_entry *, void *), void *arg)
{
	struct load l = { next, arg, { NULL, NULL, 0, NULL, 0 } };
	struct kv_init init = { load_fill, &l, 0, -1 };
	struct meta m;
	int rc;

	if ((rc = next(&l.first, arg)) != 1)
		return rc == 0 ? AR_ECORRUPT : rc;
	/* An older format's meta is shorter, but holds map_max. */
	if (strcmp(l.first.table, "meta") != 0 ||
	    l.first.key_size != meta_key.size ||
	    memcmp(l.first.key, meta_key.data, meta_key.size) != 0 ||
	    l.first.value_size > sizeof(m) ||
	    l.first.value_size < META_V4_SIZE)
		return AR_ECORRUPT;
	memset(&m, 0, sizeof(m));
	memcpy(&m, l.first.value, l.first.value_size);
	if ((m.mode & META_ROLE_OWNERS) && kv_backend_of(where)->role == NULL)
		return ENOTSUP;
	init.size = m.map_max;
	return kv_backend_of(where)->create(where, &init);
}
