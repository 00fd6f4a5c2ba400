/*
 * store.c - a store on its backend (kv.h): create, open, transactions,
 * growing, upgrading, the store clock, and error names.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define MAP_MAX_DEFAULT (16ULL << 30)
#define HORIZON_MAX_SLOTS 10000000
#define WAIT_DEFAULT_MS 30000
#define FORMAT_OLDEST 3         /* the oldest format ar_upgrade converts */

static const struct kv_val meta_key = { 4, "meta" };
static const struct kv_val hosts_key = { 5, "hosts" };

void
ar_config_default(struct ar_config *cfg)
{
	cfg->nodes = 64;
	cfg->slot = 300;
	cfg->horizon = 30 * 86400;
	cfg->map_max = 0;
	cfg->group = -1;
	cfg->hosts = NULL;
	cfg->flags = 0;
}

static int
config_valid(const struct ar_config *cfg)
{
	/* Peaks are kept in PEAK_BITS bits in the ring's summary. */
	if (cfg->nodes == 0 || cfg->nodes > 1000000 || cfg->slot < 1 ||
	    cfg->slot > 86400)
		return 0;
	if (cfg->horizon < cfg->slot || cfg->horizon % cfg->slot != 0 ||
	    cfg->horizon / cfg->slot > HORIZON_MAX_SLOTS ||
	    (cfg->flags & ~(unsigned)(AR_SIMULATED | AR_ROLE_OWNERS)) != 0)
		return 0;
	return cfg->map_max == 0 || cfg->map_max >= KV_SIZE_INITIAL;
}

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

/* The meta's mode for a configuration's flags, and back. */
static uint32_t
mode_of(unsigned flags)
{
	return ((flags & AR_SIMULATED) ? META_SIMULATED : 0) |
	    ((flags & AR_ROLE_OWNERS) ? META_ROLE_OWNERS : 0);
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
static int
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

static int
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
	    (m->mode & ~(uint32_t)(META_SIMULATED | META_ROLE_OWNERS)) != 0)
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

/*
 * The host list naming a store's nodes, as stored: given, compacted, or
 * by default node[1-N] zero-padded to N's digits.  EINVAL if given is
 * not a host list of exactly nodes hosts.
 */
static int
hosts_text(const char *given, uint32_t nodes, char **text)
{
	char deflt[64], err[AR_ERRMAX];
	struct ar_hostlist h;
	size_t len = 0, cap = 0;
	int rc = 0;

	*text = NULL;
	if (given == NULL) {
		snprintf(deflt, sizeof(deflt), "node[%0*d-%u]",
		    snprintf(NULL, 0, "%u", nodes), 1, nodes);
		given = deflt;
	}
	ar_hostlist_init(&h);
	if ((rc = ar_hostlist_parse_max(given, AR_HOSTS_MAX, &h, err)) != 0)
		rc = rc == -2 ? ENOMEM : EINVAL;
	else if (h.count != nodes)
		rc = EINVAL;
	else if (ar_hostlist_format(&h, text, &len, &cap) != 0)
		rc = ENOMEM;
	ar_hostlist_free(&h);
	if (rc != 0) {
		free(*text);
		*text = NULL;
	}
	return rc;
}

static int
hosts_put(struct kv_txn *txn, const char *text)
{
	struct kv_val v = { strlen(text) + 1, (void *)text };

	return kv_put(txn, KV_META, &hosts_key, &v, 0);
}

int
ar_hosts(ar_txn *t, const char **names)
{
	struct kv_val v;
	int rc;

	if ((rc = kv_get(t->txn, KV_META, &hosts_key, &v)) != 0)
		return rc == KV_NOTFOUND ? AR_ECORRUPT : rc;
	if (v.size == 0 || memchr(v.data, '\0', v.size) !=
	    (char *)v.data + v.size - 1)
		return AR_ECORRUPT;
	*names = v.data;
	return 0;
}


/* What a new store holds first, in its creating transaction: a live
 * one's clock is the system clock then. */
struct first {
	const struct meta *m;
	const char *names;
};

static int
store_fill(struct kv_txn *txn, const void *arg)
{
	const struct first *f = arg;
	struct meta m = *f->m;
	struct kv_val v = { sizeof(m), &m };
	int64_t system;
	int rc;

	if (!(m.mode & META_SIMULATED) &&
	    (rc = live_clock(txn, 1, m.clock, 0, &system, &m.clock)) != 0)
		return rc;
	if ((rc = kv_put(txn, KV_META, &meta_key, &v, 0)) != 0 ||
	    (rc = hosts_put(txn, f->names)) != 0)
		return rc;
	return demand_begin(txn, m.clock);
}


/*
 * Give the store an older ar's interrupted creation left (its databases
 * or some of them, no meta, no records) its first content, as its only
 * writer.  Another creation may have finished it meanwhile.
 */
static int
store_finish(const char *where, const struct first *f, long wait_ms)
{
	const struct kv_backend *be = kv_backend_of(where);
	struct kv_store *ks;
	struct kv_txn *txn;
	struct kv_val v;
	uint64_t n;
	int rc;

	if ((rc = be->open(where, 0, &ks)) != 0)
		return rc;
	if ((rc = be->txn_begin(ks, NULL, 1, wait_ms, &txn)) != 0)
		goto out;
	if ((rc = be->upgrade(txn)) == 0 &&
	    (rc = kv_get(txn, KV_META, &meta_key, &v)) == KV_NOTFOUND &&
	    (rc = kv_count(txn, KV_RESV, &n)) == 0) {
		rc = n > 0 ? AR_ECORRUPT : store_fill(txn, f);
		if (rc == 0)
			rc = be->txn_commit(txn);
		else
			be->txn_abort(txn);
	} else
		be->txn_abort(txn);
out:
	be->close(ks);
	return rc;
}

/* A store is there already: fine if it is the same one. */
static int
create_again(const char *where, const struct first *f,
    const struct ar_config *cfg)
{
	const char *have;
	ar_store *s;
	ar_txn *t;
	const struct meta *m = f->m;
	int rc;

	if ((rc = ar_open(where, AR_RDONLY, &s)) == AR_EHALF)
		return store_finish(where, f, WAIT_DEFAULT_MS);
	if (rc != 0)
		return rc;
	if ((rc = ar_txn_begin(s, 0, 0, &t)) == 0) {
		if (t->m.nodes != m->nodes || t->m.slot != m->slot ||
		    t->m.horizon != m->horizon || t->m.mode != m->mode)
			rc = AR_EEXIST;
		/* Names given must be the ones it has. */
		if (rc == 0 && cfg->hosts != NULL &&
		    (rc = ar_hosts(t, &have)) == 0 &&
		    strcmp(have, f->names) != 0)
			rc = AR_EEXIST;
		ar_txn_abort(t);
	}
	ar_close(s);
	return rc;
}

int
ar_create(const char *where, const struct ar_config *cfg, int64_t now)
{
	struct kv_init init = { store_fill, NULL, 0, cfg->group };
	struct first f;
	char *names;
	struct meta m;
	int rc;

	if (!config_valid(cfg) || now < 0 || now > TIME_MAX ||
	    ((cfg->flags & AR_ROLE_OWNERS) && kv_backend_of(where)->role ==
	    NULL))
		return EINVAL;
	if ((rc = hosts_text(cfg->hosts, cfg->nodes, &names)) != 0)
		return rc;
	memset(&m, 0, sizeof(m));
	m.magic = META_MAGIC;
	m.format = AR_FORMAT_VERSION;
	m.nodes = cfg->nodes;
	m.slot = cfg->slot;
	m.horizon = cfg->horizon / cfg->slot;
	m.chunks = (uint32_t)((m.horizon + CHUNK_SLOTS - 1) / CHUNK_SLOTS + 1);
	m.clock = now;
	m.next_id = 1;
	m.map_max = cfg->map_max ? cfg->map_max : MAP_MAX_DEFAULT;
	m.mode = mode_of(cfg->flags);
	f.m = &m;
	f.names = names;
	init.arg = &f;
	if ((rc = kv_backend_of(where)->create(where, &init)) == EEXIST)
		rc = create_again(where, &f, cfg);
	free(names);
	return rc;
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
		ar_close(s);
		return rc;
	}
	*sp = s;
	return 0;
}

const char *
ar_backend_name(const char *where)
{
	return kv_backend_of(where)->name;
}

static void txn_destroy(ar_txn *t);

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
ar_close(ar_store *s)
{
	if (s == NULL)
		return;
	if (s->spare != NULL)
		txn_destroy(s->spare);
	s->be->close(s->ks);
	free(s);
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
	t->ngranted = t->nmoved = t->nocc = 0;
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
	t->s = s;
	t->write = write;
	t->ring.dbi = KV_RING;
	t->ends.dbi = KV_ENDS;
	t->flex.dbi = KV_FLEX;
	if ((rc = s->be->txn_begin(s->ks, NULL, write, s->wait_ms,
	    &t->txn)) != 0)
		goto fail;
	if ((rc = meta_read(t->txn, &t->m)) != 0)
		goto fail;
	t->gen++;               /* nothing cached before is valid now */
	t->begun = t->m;
	t->released = t->kept = t->m.clock;
	t->expired = 0;
	t->system = 0;
	if (!(t->m.mode & META_SIMULATED) && (rc = live_clock(t->txn, write,
	    now, t->kept, &t->system, &now)) != 0)
		goto fail;
	if (now > t->m.clock) {
		t->m.clock = now;
		t->meta_dirty = write;
	}
	t->now = t->m.clock;
	t->base = slot_down(t->now, t->m.slot);
	t->pins = -1;
	if ((rc = ring_begin(&t->ring, t->m.chunks, t->m.nodes, t->base,
	    t->m.horizon)) != 0 || (rc = classes_begin(t)) != 0)
		goto fail;
	if (write) {
		t->released = t->now;
		if ((rc = holds_expire(t)) != 0)
			goto fail;
	}
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
	for (size_t i = 0; i < sizeof(t->limit) / sizeof(t->limit[0]); i++)
		ring_free(&t->limit[i]);
	slots_free(t);
	free(t->granted);
	free(t->moved);
	free(t->occ);
	free(t);
}

static void
txn_free(ar_txn *t)
{
	if (t->s->spare == NULL)
		t->s->spare = t;
	else
		txn_destroy(t);
}

int
ar_txn_commit(ar_txn *t)
{
	const struct kv_backend *be = t->s->be;
	int rc = 0;

	resv_cursor_close(t);
	for (uint32_t i = 2; i <= t->pr.n && rc == 0; i++)
		rc = ring_flush(t, &t->limit[i]);
	if (rc != 0 || (rc = slots_flush(t)) != 0 ||
	    (rc = ring_flush(t, &t->ring)) != 0 ||
	    (t->meta_dirty && (rc = meta_put(t)) != 0))
		be->txn_abort(t->txn);
	else
		rc = be->txn_commit(t->txn);
	txn_free(t);
	return rc;
}

void
ar_txn_abort(ar_txn *t)
{
	if (t == NULL)
		return;
	resv_cursor_close(t);
	if (t->txn != NULL)
		t->s->be->txn_abort(t->txn);
	txn_free(t);
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

	if (t->txn->writes > 0 || ring_pending(&t->ring) || slots_pending(t))
		return 1;
	for (size_t i = 2; i < sizeof(t->limit) / sizeof(t->limit[0]); i++)
		if (ring_pending(&t->limit[i]))
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
			/* The holds it released stay released. */
			if (rc == AR_UNCHANGED && t->expired > 0)
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

/*
 * Format 3 to 6 to 7 in one transaction, so that a crash leaves the
 * store as it was or converted: the tables it lacks are created, the
 * nodes of a store older than 5 get the default names, its clock becomes
 * live unless flags holds AR_SIMULATED (its owners stay uids), and meta
 * says 7.  Records need no rewrite: a format 3 record's key length was a
 * spare field, 0, only format 5 sets the named bit of a record's state,
 * only 6 its series and hold bits, and only 7 its scheduler bit (a record
 * without it has no flags and no account) and its confirmed bit (a hold
 * confirmed before kept no sign of it).  The classes' floors are set 0:
 * older formats left those bytes unused, copied from their callers.
 * *from is the format found; one that is current is left alone.
 */
static int
upgrade_txn(ar_store *s, unsigned flags, int *from)
{
	char *names = NULL;
	struct kv_txn *txn;
	struct meta m;
	struct kv_val v = { sizeof(m), &m };
	int rc;

	if ((rc = s->be->txn_begin(s->ks, NULL, 1, s->wait_ms, &txn)) != 0)
		return rc;
	rc = meta_read(txn, &m);
	*from = rc == 0 || rc == AR_EUPGRADE ? (int)m.format : 0;
	if (rc == AR_EUPGRADE) {
		m.format = AR_FORMAT_VERSION;
		m.mode = mode_of(flags & AR_SIMULATED);
		m.spare = 0;
		if ((rc = s->be->upgrade(txn)) == 0 &&
		    (*from >= 5 ||
		    ((rc = hosts_text(NULL, m.nodes, &names)) == 0 &&
		    (rc = hosts_put(txn, names)) == 0)) &&
		    (rc = classes_upgrade(txn)) == 0 &&
		    (rc = kv_put(txn, KV_META, &meta_key, &v, 0)) == 0) {
			free(names);
			return s->be->txn_commit(txn);
		}
	}
	free(names);
	s->be->txn_abort(txn);
	return rc;
}

int
ar_upgrade(const char *where, unsigned flags, long wait_ms, int *from)
{
	ar_store s = { .be = kv_backend_of(where), .wait_ms = wait_ms };
	int rc;

	*from = 0;
	if ((rc = s.be->open(where, 0, &s.ks)) != 0)
		return rc;
	/* Like ar_write: this one may have to grow the store. */
	while ((rc = upgrade_txn(&s, flags, from)) == AR_EFULL &&
	    (rc = ar_grow(&s, 0)) == 0)
		;
	s.be->close(s.ks);
	return rc;
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
		"suggested", "moved", "cancelled", "finished", "expired", "held"
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
		"started"
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
