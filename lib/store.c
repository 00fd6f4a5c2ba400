/*
 * store.c - the LMDB environment: create, open, transactions, the writer
 * lock, growing the map, the store clock, and error names.
 */
#include <sys/file.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

#define MAP_INITIAL (1UL << 20)
#define MAP_MAX_DEFAULT (16ULL << 30)
#define HORIZON_MAX_SLOTS 10000000
#define WAIT_DEFAULT_MS 30000
#define FORMAT_UPGRADABLE 3     /* the format ar_upgrade converts */

static const MDB_val meta_key = { 4, "meta" };

void
ar_config_default(struct ar_config *cfg)
{
	cfg->nodes = 64;
	cfg->slot = 300;
	cfg->horizon = 30 * 86400;
	cfg->map_max = MAP_MAX_DEFAULT;
}

static int
config_valid(const struct ar_config *cfg)
{
	/* Peaks are kept in PEAK_BITS bits in the ring's summary. */
	if (cfg->nodes == 0 || cfg->nodes > 1000000 || cfg->slot < 1 ||
	    cfg->slot > 86400)
		return 0;
	if (cfg->horizon < cfg->slot || cfg->horizon % cfg->slot != 0 ||
	    cfg->horizon / cfg->slot > HORIZON_MAX_SLOTS)
		return 0;
	return cfg->map_max >= MAP_INITIAL;
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

/*
 * A data file shorter than the pages its meta page names (truncated by
 * hand, or a copy cut short) would fault on the first read of a missing
 * page: refuse it before any is read.  The size is taken after the meta:
 * a writer grows the file before it commits a meta naming the new pages.
 */
static int
size_check(ar_store *s)
{
	MDB_envinfo info;
	MDB_stat ms;
	struct stat st;
	mdb_filehandle_t fd;
	int rc;

	if ((rc = mdb_env_info(s->env, &info)) != 0 ||
	    (rc = mdb_env_stat(s->env, &ms)) != 0 ||
	    (rc = mdb_env_get_fd(s->env, &fd)) != 0)
		return rc;
	if (fstat(fd, &st) == -1)
		return errno;
	if ((uint64_t)(info.me_last_pgno + 1) * ms.ms_psize >
	    (uint64_t)st.st_size)
		return AR_ECORRUPT;
	return 0;
}

/*
 * The key index came with format 4.  A store of an older format has none
 * and gets none but from ar_upgrade, so only a new environment (no meta
 * yet) creates it; where it is missing s->keys stays 0, and ar_open
 * refuses the store by its format, or as corrupt if that is current.
 */
static int
keys_open(MDB_txn *txn, unsigned dbflags, ar_store *s)
{
	MDB_val v;
	int rc;

	if (dbflags & MDB_CREATE) {
		rc = mdb_get(txn, s->meta, (MDB_val *)&meta_key, &v);
		if (rc == 0)
			dbflags &= ~MDB_CREATE;
		else if (rc != MDB_NOTFOUND)
			return rc;
	}
	rc = mdb_dbi_open(txn, "keys", dbflags, &s->keys);
	return rc == MDB_NOTFOUND ? 0 : rc;
}

/* Open the environment and the seven databases; create them if asked. */
static int
env_open(const char *dir, unsigned envflags, int create, ar_store **sp)
{
	ar_store *s;
	MDB_txn *txn;
	unsigned dbflags = create ? MDB_CREATE : 0;
	int rc, dead;

	if ((s = calloc(1, sizeof(*s))) == NULL)
		return ENOMEM;
	s->lockfd = -1;
	s->wait_ms = WAIT_DEFAULT_MS;
	s->flags = (envflags & MDB_RDONLY) ? AR_RDONLY : 0;
	if ((rc = mdb_env_create(&s->env)) != 0)
		goto fail;
	if ((rc = mdb_env_set_maxdbs(s->env, 8)) != 0)
		goto fail;
	if (create && (rc = mdb_env_set_mapsize(s->env, MAP_INITIAL)) != 0)
		goto fail;
	if ((rc = mdb_env_open(s->env, dir, envflags | MDB_NOTLS, 0660)) != 0 ||
	    (rc = size_check(s)) != 0)
		goto fail;
	/* Reader slots of killed processes pin old pages and grow the file. */
	if ((rc = mdb_reader_check(s->env, &dead)) != 0)
		goto fail;
	if ((rc = mdb_txn_begin(s->env, NULL, envflags & MDB_RDONLY, &txn)) != 0)
		goto fail;
	if ((rc = mdb_dbi_open(txn, "meta", dbflags, &s->meta)) != 0 ||
	    (rc = mdb_dbi_open(txn, "ring", dbflags, &s->ring)) != 0 ||
	    (rc = mdb_dbi_open(txn, "resv", dbflags, &s->resv)) != 0 ||
	    (rc = mdb_dbi_open(txn, "ends", dbflags, &s->ends)) != 0 ||
	    (rc = mdb_dbi_open(txn, "labels", dbflags | MDB_DUPSORT |
	    MDB_DUPFIXED, &s->labels)) != 0 ||
	    (rc = mdb_dbi_open(txn, "flex", dbflags, &s->flex)) != 0 ||
	    (rc = keys_open(txn, dbflags, s)) != 0) {
		mdb_txn_abort(txn);
		if (rc == MDB_NOTFOUND || rc == MDB_INCOMPATIBLE)
			rc = AR_ECORRUPT;
		goto fail;
	}
	if ((rc = mdb_txn_commit(txn)) != 0)
		goto fail;
	if (!(envflags & MDB_RDONLY)) {
		s->lockfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (s->lockfd == -1) {
			rc = errno;
			goto fail;
		}
	}
	*sp = s;
	return 0;
fail:
	ar_close(s);
	return rc;
}

static int
meta_read(MDB_txn *txn, MDB_dbi dbi, struct meta *m)
{
	MDB_val v;
	int rc;

	if ((rc = mdb_get(txn, dbi, (MDB_val *)&meta_key, &v)) != 0)
		return rc == MDB_NOTFOUND ? AR_ECORRUPT : rc;
	if (v.mv_size < 8)
		return AR_ECORRUPT;
	memcpy(m, v.mv_data, 8);
	if (m->magic != META_MAGIC)
		return AR_ECORRUPT;
	if (m->format != AR_FORMAT_VERSION && m->format != FORMAT_UPGRADABLE)
		return AR_EVERSION;
	if (v.mv_size != sizeof(*m))
		return AR_ECORRUPT;
	memcpy(m, v.mv_data, sizeof(*m));
	/* Ranges as ar_create allows them: the arithmetic relies on it. */
	if (m->nodes == 0 || m->nodes > 1000000 || m->slot < 1 ||
	    m->slot > 86400 || m->horizon < 1 ||
	    m->horizon > HORIZON_MAX_SLOTS || m->clock < 0 ||
	    m->clock > TIME_MAX || m->purged < 0 || m->purged > m->clock ||
	    m->chunks != (m->horizon + CHUNK_SLOTS - 1) / CHUNK_SLOTS + 1)
		return AR_ECORRUPT;
	/* Its meta is the same: it is read whole, for ar_upgrade. */
	return m->format == AR_FORMAT_VERSION ? 0 : AR_EUPGRADE;
}

int
meta_put(ar_txn *t)
{
	MDB_val v = { sizeof(t->m), &t->m };
	int rc;

	rc = mdb_put(t->txn, t->s->meta, (MDB_val *)&meta_key, &v, 0);
	ring_wrote(t);
	if (rc == 0)
		t->meta_dirty = 0;
	return rc;
}

int
ar_create(const char *dir, const struct ar_config *cfg, int64_t now)
{
	ar_store *s;
	MDB_txn *txn;
	struct meta m, old;
	int rc;

	if (!config_valid(cfg) || now < 0 || now > TIME_MAX)
		return EINVAL;
	if (mkdir(dir, 0770) == -1 && errno != EEXIST)
		return errno;
	if ((rc = env_open(dir, 0, 1, &s)) != 0)
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
	m.map_max = cfg->map_max;
	if ((rc = mdb_txn_begin(s->env, NULL, 0, &txn)) != 0)
		goto out;
	rc = meta_read(txn, s->meta, &old);
	if (rc == 0) {
		/* Creating what exists is fine when it is the same store. */
		if (old.nodes != m.nodes || old.slot != m.slot ||
		    old.horizon != m.horizon)
			rc = AR_EEXIST;
		mdb_txn_abort(txn);
		goto out;
	}
	if (rc == AR_ECORRUPT) {
		MDB_stat st;

		/* Only an empty environment may be given its first meta. */
		if ((rc = mdb_stat(txn, s->resv, &st)) == 0 && st.ms_entries == 0) {
			MDB_val v = { sizeof(m), &m };

			rc = mdb_put(txn, s->meta, (MDB_val *)&meta_key, &v, 0);
		} else if (rc == 0)
			rc = AR_ECORRUPT;
	}
	if (rc != 0) {
		mdb_txn_abort(txn);
		goto out;
	}
	rc = mdb_txn_commit(txn);
out:
	ar_close(s);
	return rc;
}

/* Is there a store in dir?  LMDB would make one of nothing. */
static int
store_exists(const char *dir)
{
	char path[4096];
	struct stat st;

	/* LMDB would create a missing store; a typo must not. */
	if (snprintf(path, sizeof(path), "%s/data.mdb", dir) >= (int)sizeof(path))
		return ENAMETOOLONG;
	if (stat(path, &st) == -1)
		return errno == ENOENT || errno == ENOTDIR ? AR_ENOSTORE : errno;
	/* LMDB would make an empty file a new environment. */
	if (!S_ISREG(st.st_mode) || st.st_size < 2 * 4096)
		return MDB_INVALID;
	return 0;
}

int
ar_open(const char *dir, unsigned flags, ar_store **sp)
{
	ar_store *s;
	MDB_txn *txn;
	struct meta m;
	int rc;

	if ((rc = store_exists(dir)) != 0)
		return rc;
	if ((rc = env_open(dir, (flags & AR_RDONLY) ? MDB_RDONLY : 0, 0, &s)) != 0)
		return rc;
	if ((rc = mdb_txn_begin(s->env, NULL, MDB_RDONLY, &txn)) != 0) {
		ar_close(s);
		return rc;
	}
	rc = meta_read(txn, s->meta, &m);
	mdb_txn_abort(txn);
	if (rc == 0 && s->keys == 0)
		rc = AR_ECORRUPT;
	if (rc != 0) {
		ar_close(s);
		return rc;
	}
	*sp = s;
	return 0;
}

static void txn_destroy(ar_txn *t);

void
ar_close(ar_store *s)
{
	if (s == NULL)
		return;
	if (s->spare != NULL)
		txn_destroy(s->spare);
	if (s->rtxn != NULL)
		mdb_txn_abort(s->rtxn);
	if (s->env != NULL)
		mdb_env_close(s->env);
	if (s->lockfd != -1)
		close(s->lockfd);
	free(s);
}

void
ar_set_wait(ar_store *s, long ms)
{
	s->wait_ms = ms < 0 ? 0 : ms;
}

/*
 * LMDB's own writer mutex cannot be waited on with a deadline, so writers
 * first take an flock on the store directory, polling with a growing pause.
 * The kernel drops it when a writer dies, so a killed process never blocks
 * the others.
 */
static int
writer_lock(ar_store *s)
{
	struct timespec pause = { 0, 1000000 };
	long waited = 0;

	for (;;) {
		if (flock(s->lockfd, LOCK_EX | LOCK_NB) == 0)
			return 0;
		if (errno != EWOULDBLOCK && errno != EINTR)
			return errno;
		if (waited >= s->wait_ms)
			return AR_ETIMEDOUT;
		nanosleep(&pause, NULL);
		waited += pause.tv_nsec / 1000000;
		if (pause.tv_nsec < 64000000)
			pause.tv_nsec *= 2;
	}
}

/*
 * A transaction object and its buffers are kept in the store when it
 * ends, and an ended read transaction is reset rather than freed: a
 * command, or a caller committing every request, then pays for neither
 * allocations nor a new reader slot.
 */
static ar_txn *
txn_new(ar_store *s)
{
	ar_txn *t = s->spare;

	s->spare = NULL;
	if (t == NULL)
		return calloc(1, sizeof(*t));
	t->txn = NULL;
	t->locked = t->meta_dirty = t->flushed = 0;
	t->summary_loaded = t->summary_dirty = 0;
	ring_discard(t);        /* what an aborted transaction changed */
	slots_discard(t);
	t->ngranted = t->nmoved = 0;
	return t;
}

static int
txn_start(ar_txn *t, int write)
{
	ar_store *s = t->s;
	int rc;

	for (;;) {
		if (!write && s->rtxn != NULL) {
			t->txn = s->rtxn;
			s->rtxn = NULL;
			if ((rc = mdb_txn_renew(t->txn)) != 0) {
				mdb_txn_abort(t->txn);
				t->txn = NULL;
			}
		} else
			rc = mdb_txn_begin(s->env, NULL, write ? 0 : MDB_RDONLY,
			    &t->txn);
		if (rc != MDB_MAP_RESIZED)
			return rc;
		/* Another process grew the map: adopt its size. */
		if (t->txn != NULL) {
			mdb_txn_abort(t->txn);
			t->txn = NULL;
		}
		if (s->rtxn != NULL) {
			mdb_txn_abort(s->rtxn);
			s->rtxn = NULL;
		}
		if ((rc = mdb_env_set_mapsize(s->env, 0)) != 0)
			return rc;
	}
}

/* Free what a transaction keeps per ring position. */
static void
cache_free(ar_txn *t)
{
	for (uint32_t i = 0; i < t->npos; i++)
		free(t->cache[i].copy);
	t->npos = 0;
	free(t->cache);
	free(t->dirty);
	free(t->summary);
	t->cache = NULL;
	t->dirty = NULL;
	t->summary = NULL;
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
	t->ends.dbi = s->ends;
	t->flex.dbi = s->flex;
	if (write) {
		if ((rc = writer_lock(s)) != 0)
			goto fail;
		t->locked = 1;
	}
	if ((rc = txn_start(t, write)) != 0)
		goto fail;
	if ((rc = meta_read(t->txn, s->meta, &t->m)) != 0)
		goto fail;
	if (t->npos != t->m.chunks) {
		cache_free(t);          /* not the store it was made for */
		if ((t->cache = calloc(t->m.chunks, sizeof(*t->cache))) == NULL ||
		    (t->dirty = malloc(t->m.chunks * sizeof(*t->dirty))) == NULL) {
			rc = ENOMEM;
			goto fail;
		}
		t->npos = t->m.chunks;
	}
	t->gen++;               /* nothing cached before is valid now */
	if (now > t->m.clock) {
		t->m.clock = now;
		t->meta_dirty = write;
	}
	t->now = t->m.clock;
	t->base = slot_down(t->now, t->m.slot);
	*tp = t;
	return 0;
fail:
	ar_txn_abort(t);
	return rc;
}

static void
txn_destroy(ar_txn *t)
{
	cache_free(t);
	slots_free(t);
	free(t->scratch);
	free(t->granted);
	free(t->moved);
	free(t);
}

static void
txn_free(ar_txn *t)
{
	if (t->locked)
		flock(t->s->lockfd, LOCK_UN);
	if (t->s->spare == NULL)
		t->s->spare = t;
	else
		txn_destroy(t);
}

int
ar_txn_commit(ar_txn *t)
{
	int rc = 0;

	resv_cursor_close(t);
	if ((rc = slots_flush(t)) != 0 || (rc = ring_flush(t)) != 0 ||
	    (t->meta_dirty && (rc = meta_put(t)) != 0))
		mdb_txn_abort(t->txn);
	else
		rc = mdb_txn_commit(t->txn);
	txn_free(t);
	return rc;
}

void
ar_txn_abort(ar_txn *t)
{
	if (t == NULL)
		return;
	resv_cursor_close(t);
	if (t->txn != NULL && !t->write && t->s->rtxn == NULL) {
		mdb_txn_reset(t->txn);
		t->s->rtxn = t->txn;
	} else if (t->txn != NULL)
		mdb_txn_abort(t->txn);
	txn_free(t);
}

int
ar_grow(ar_store *s)
{
	MDB_envinfo info;
	MDB_txn *txn;
	struct meta m;
	uint64_t size;
	int rc;

	if (s->rtxn != NULL) {          /* no transaction across a remap */
		mdb_txn_abort(s->rtxn);
		s->rtxn = NULL;
	}
	if ((rc = mdb_env_info(s->env, &info)) != 0)
		return rc;
	if ((rc = mdb_txn_begin(s->env, NULL, MDB_RDONLY, &txn)) != 0)
		return rc;
	rc = meta_read(txn, s->meta, &m);
	mdb_txn_abort(txn);
	if (rc != 0 && rc != AR_EUPGRADE)       /* ar_upgrade grows it too */
		return rc;
	if (info.me_mapsize >= m.map_max)
		return AR_EFULL;
	size = (uint64_t)info.me_mapsize * 2;
	if (size > m.map_max)
		size = m.map_max;
	return mdb_env_set_mapsize(s->env, (size_t)size);
}

int
ar_write(ar_store *s, int64_t now, int (*fn)(ar_txn *, void *), void *arg)
{
	ar_txn *t;
	int rc;

	for (;;) {
		if ((rc = ar_txn_begin(s, AR_WRITE, now, &t)) != 0)
			return rc;
		if ((rc = fn(t, arg)) == 0)
			rc = ar_txn_commit(t);
		else
			ar_txn_abort(t);
		if (rc != MDB_MAP_FULL)
			return rc;
		if ((rc = ar_grow(s)) != 0)
			return rc;
	}
}

/*
 * Format 3 to 4 in one LMDB transaction, so that a crash leaves the store
 * as it was or converted: the key index is created and meta says 4.
 * Records need no rewrite: their key length was a spare field, 0.  *from
 * is the format found; one that is current is left alone.
 */
static int
upgrade_txn(ar_store *s, int *from)
{
	MDB_txn *txn;
	struct meta m;
	MDB_val v = { sizeof(m), &m };
	int rc;

	if ((rc = mdb_txn_begin(s->env, NULL, 0, &txn)) != 0)
		return rc;
	rc = meta_read(txn, s->meta, &m);
	*from = rc == 0 || rc == AR_EUPGRADE ? (int)m.format : 0;
	if (rc == AR_EUPGRADE) {
		m.format = AR_FORMAT_VERSION;
		if ((rc = mdb_dbi_open(txn, "keys", MDB_CREATE,
		    &s->keys)) == 0 &&
		    (rc = mdb_put(txn, s->meta, (MDB_val *)&meta_key, &v,
		    0)) == 0)
			return mdb_txn_commit(txn);
	}
	mdb_txn_abort(txn);
	return rc;
}

int
ar_upgrade(const char *dir, long wait_ms, int *from)
{
	ar_store *s;
	int rc;

	*from = 0;
	if ((rc = store_exists(dir)) != 0 ||
	    (rc = env_open(dir, 0, 0, &s)) != 0)
		return rc;
	ar_set_wait(s, wait_ms);
	if ((rc = writer_lock(s)) != 0)
		goto out;
	/* Like ar_write: another process may have grown the map, or this
	 * one may have to. */
	for (;;) {
		if ((rc = upgrade_txn(s, from)) == MDB_MAP_FULL)
			rc = ar_grow(s);
		else if (rc == MDB_MAP_RESIZED)
			rc = mdb_env_set_mapsize(s->env, 0);
		else
			break;
		if (rc != 0)
			break;
	}
out:
	ar_close(s);            /* and with its descriptor, the lock */
	return rc;
}

int
ar_info(ar_txn *t, struct ar_info *info)
{
	MDB_envinfo ei;
	int rc;

	if ((rc = mdb_env_info(t->s->env, &ei)) != 0)
		return rc;
	memset(info, 0, sizeof(*info));
	info->config.nodes = t->m.nodes;
	info->config.slot = t->m.slot;
	info->config.horizon = t->m.horizon * t->m.slot;
	info->config.map_max = t->m.map_max;
	info->format = t->m.format;
	info->clock = t->now;
	info->next_id = t->m.next_id;
	info->live = t->m.live;
	info->records = t->m.records;
	info->map_size = ei.me_mapsize;
	return 0;
}

int64_t
ar_txn_now(const ar_txn *t)
{
	return t->now;
}

const char *
ar_strerror(int code)
{
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
		return "the store is full (its maximum size is reached)";
	case AR_EUPGRADE:
		return "the store has an older format version (3); upgrade it "
		    "with --upgrade";
	case MDB_MAP_FULL:
		return "the store's map is full";
	case MDB_INVALID:
		return "not a store (no LMDB environment there)";
	case MDB_VERSION_MISMATCH:
		return "the store was made by another LMDB version";
	}
	return mdb_strerror(code);
}

const char *
ar_status_name(enum ar_status st)
{
	static const char *const names[] = {
		"unknown", "granted", "refused", "available", "unavailable",
		"suggested", "moved", "cancelled", "finished"
	};

	return (unsigned)st < sizeof(names) / sizeof(names[0]) ?
	    names[st] : names[0];
}

const char *
ar_reason_name(enum ar_reason r)
{
	static const char *const names[] = {
		"none", "full", "past", "horizon", "capacity", "limit",
		"key-reused"
	};

	return (unsigned)r < sizeof(names) / sizeof(names[0]) ?
	    names[r] : names[0];
}
