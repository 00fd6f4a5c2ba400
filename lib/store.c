/*
 * store.c - the LMDB environment: create, open, transactions, the writer
 * lock, growing the map, the store clock, and error names.
 */
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include <errno.h>
#include <dirent.h>
#include <stddef.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "format.h"
#include "internal.h"

#define MAP_INITIAL (1UL << 20)
#define MAP_MAX_DEFAULT (16ULL << 30)
#define HORIZON_MAX_SLOTS 10000000
#define WAIT_DEFAULT_MS 30000
/* Readers a store serves at once: every process holding a transaction
 * takes one; LMDB's default, 126, is less than a busy login node runs. */
#define READERS_MAX 4096
#define NEW_PREFIX ".new-"      /* a store being made: .new-PID.mdb */
#define FORMAT_OLDEST 3         /* the oldest format ar_upgrade converts */
#define DBS_MAX 16              /* named databases: 13 in use */

static const MDB_val meta_key = { 4, "meta" };
static const MDB_val hosts_key = { 5, "hosts" };

void
ar_config_default(struct ar_config *cfg)
{
	cfg->nodes = 64;
	cfg->slot = 300;
	cfg->horizon = 30 * 86400;
	cfg->map_max = 0;
	cfg->group = -1;
	cfg->hosts = NULL;
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
	return cfg->map_max == 0 || cfg->map_max >= MAP_INITIAL;
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

static int writer_lock(ar_store *s);

/*
 * The databases that came with format 4 (the key index, the price
 * classes and the demand log), 5 (the mapping, the pins and what was
 * exported) and 6 (the hold index).  A store of an older format lacks
 * them and gets them only from ar_upgrade, so only a new environment (no
 * meta yet) creates them; where one is missing its handle stays 0, and
 * ar_open refuses the store by its format, or as corrupt if that is
 * current.
 */
static int
later_open(MDB_txn *txn, unsigned dbflags, ar_store *s)
{
	static const struct {
		const char *name;
		size_t off;
	} dbs[] = {
		{ "keys", offsetof(ar_store, keys) },
		{ "pricing", offsetof(ar_store, pricing) },
		{ "demand", offsetof(ar_store, demand) },
		{ "map", offsetof(ar_store, map) },
		{ "pins", offsetof(ar_store, pins) },
		{ "exported", offsetof(ar_store, exported) },
		{ "holds", offsetof(ar_store, holds) },
	};
	int rc;

	for (size_t i = 0; i < sizeof(dbs) / sizeof(dbs[0]); i++)
		if ((rc = mdb_dbi_open(txn, dbs[i].name, dbflags,
		    (MDB_dbi *)((char *)s + dbs[i].off))) != 0 &&
		    rc != MDB_NOTFOUND)
			return rc;
	return 0;
}

/* Open the databases of a store in txn, creating them if flags say so. */
static int
dbs_open(MDB_txn *txn, unsigned flags, ar_store *s)
{
	MDB_val v;
	int rc;

	if ((rc = mdb_dbi_open(txn, "meta", flags, &s->meta)) != 0 ||
	    (rc = mdb_dbi_open(txn, "ring", flags, &s->ring)) != 0 ||
	    (rc = mdb_dbi_open(txn, "resv", flags, &s->resv)) != 0 ||
	    (rc = mdb_dbi_open(txn, "ends", flags, &s->ends)) != 0 ||
	    (rc = mdb_dbi_open(txn, "labels", flags | MDB_DUPSORT |
	    MDB_DUPFIXED, &s->labels)) != 0 ||
	    (rc = mdb_dbi_open(txn, "flex", flags, &s->flex)) != 0 ||
	    ((rc = mdb_get(txn, s->meta, (MDB_val *)&meta_key, &v)) != 0 &&
	    rc != MDB_NOTFOUND))
		return rc;
	return later_open(txn, rc == 0 ? 0 : flags, s);
}

/*
 * Open the environment of an existing store, and for writing the file
 * writers lock.  Its databases are opened by dbs_load().
 */
static int
env_open(const char *dir, unsigned envflags, ar_store **sp)
{
	char path[4096];
	ar_store *s;
	int rc, dead;

	if ((s = calloc(1, sizeof(*s))) == NULL)
		return ENOMEM;
	s->lockfd = -1;
	s->wait_ms = WAIT_DEFAULT_MS;
	s->flags = (envflags & MDB_RDONLY) ? AR_RDONLY : 0;
	if ((rc = mdb_env_create(&s->env)) != 0 ||
	    (rc = mdb_env_set_maxdbs(s->env, DBS_MAX)) != 0 ||
	    (rc = mdb_env_set_maxreaders(s->env, READERS_MAX)) != 0)
		goto fail;
	if ((rc = mdb_env_open(s->env, dir, envflags | MDB_NOTLS, 0660)) != 0 ||
	    (rc = size_check(s)) != 0)
		goto fail;
	/* Reader slots of killed processes pin old pages and grow the file. */
	if ((rc = mdb_reader_check(s->env, &dead)) != 0)
		goto fail;
	if (!(envflags & MDB_RDONLY)) {
		if (snprintf(path, sizeof(path), "%s/writer.lock", dir) >=
		    (int)sizeof(path)) {
			rc = ENAMETOOLONG;
			goto fail;
		}
		s->lockfd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0660);
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

/*
 * Open the store's databases.  In a read transaction: a write
 * transaction would wait on LMDB's writer mutex, with no deadline,
 * behind a writer stopped (^Z) inside its transaction.
 */
static int
dbs_load(ar_store *s)
{
	MDB_txn *txn;
	int rc;

	if ((rc = mdb_txn_begin(s->env, NULL, MDB_RDONLY, &txn)) != 0)
		return rc;
	if ((rc = dbs_open(txn, 0, s)) != 0) {
		mdb_txn_abort(txn);
		/* None at all: an older ar's creation was interrupted. */
		return rc == MDB_NOTFOUND ? AR_EHALF : rc == MDB_INCOMPATIBLE ?
		    AR_ECORRUPT : rc;
	}
	return mdb_txn_commit(txn);
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
	if (m->format > AR_FORMAT_VERSION || m->format < FORMAT_OLDEST)
		return AR_EVERSION;
	/* An older meta is shorter: read it whole, for ar_upgrade. */
	if (v.mv_size != sizeof(*m) && (m->format == AR_FORMAT_VERSION ||
	    (v.mv_size != META_V4_SIZE && v.mv_size != META_V5_SIZE)))
		return AR_ECORRUPT;
	memset(m, 0, sizeof(*m));
	memcpy(m, v.mv_data, v.mv_size);
	/* Ranges as ar_create allows them: the arithmetic relies on it. */
	if (m->nodes == 0 || m->nodes > 1000000 || m->slot < 1 ||
	    m->slot > 86400 || m->horizon < 1 ||
	    m->horizon > HORIZON_MAX_SLOTS || m->clock < 0 ||
	    m->clock > TIME_MAX || m->purged < 0 || m->purged > m->clock ||
	    m->chunks != (m->horizon + CHUNK_SLOTS - 1) / CHUNK_SLOTS + 1)
		return AR_ECORRUPT;
	return m->format == AR_FORMAT_VERSION ? 0 : AR_EUPGRADE;
}

int
meta_put(ar_txn *t)
{
	MDB_val v = { sizeof(t->m), &t->m };
	int rc;

	rc = mdb_put(t->txn, t->s->meta, (MDB_val *)&meta_key, &v, 0);
	txn_wrote(t);
	if (rc == 0)
		t->meta_dirty = 0;
	return rc;
}

/* Give a file of the store to the group it is shared with: rw for both. */
static int
share(int fd, long group)
{
	if (group < 0)
		return 0;
	if (fchown(fd, (uid_t)-1, (gid_t)group) == -1 ||
	    fchmod(fd, 0660) == -1)
		return errno;
	return 0;
}

/* Open (creating) a file of the store and share it; -1 and errno. */
static int
share_file(const char *dir, const char *name, long group)
{
	char path[4096];
	int fd, rc;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    (int)sizeof(path))
		return ENAMETOOLONG;
	if ((fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0660)) == -1)
		return errno;
	rc = share(fd, group);
	close(fd);
	return rc;
}

/* The files a shared store's readers and writers must write: made
 * before the first of them opens the store, and shared. */
static int
share_locks(const char *dir, long group)
{
	int rc;

	if ((rc = share_file(dir, "lock.mdb", group)) != 0)
		return rc;
	return share_file(dir, "writer.lock", group);
}

/*
 * Remove what killed creations left: .new-PID.mdb files whose process is
 * gone.  A creation still running keeps its file.
 */
static void
remove_unfinished(const char *dir)
{
	char path[4096];
	struct dirent *e;
	DIR *d;
	long pid;
	char *end;

	if ((d = opendir(dir)) == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, NEW_PREFIX, strlen(NEW_PREFIX)) != 0)
			continue;
		pid = strtol(e->d_name + strlen(NEW_PREFIX), &end, 10);
		if (pid <= 0 || strcmp(end, ".mdb") != 0 ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) <
		    (int)sizeof(path))
			unlink(path);
	}
	closedir(d);
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
hosts_put(MDB_txn *txn, MDB_dbi meta, const char *text)
{
	MDB_val v = { strlen(text) + 1, (void *)text };

	return mdb_put(txn, meta, (MDB_val *)&hosts_key, &v, 0);
}

int
ar_hosts(ar_txn *t, const char **names)
{
	MDB_val v;
	int rc;

	if ((rc = mdb_get(t->txn, t->s->meta, (MDB_val *)&hosts_key,
	    &v)) != 0)
		return rc == MDB_NOTFOUND ? AR_ECORRUPT : rc;
	if (v.mv_size == 0 || memchr(v.mv_data, '\0', v.mv_size) !=
	    (char *)v.mv_data + v.mv_size - 1)
		return AR_ECORRUPT;
	*names = v.mv_data;
	return 0;
}

/*
 * Make a store's data file whole, under a name of its own, and only then
 * link it in as data.mdb: a creation killed at any moment leaves either
 * no store or a complete one, never half of one.  link() does not
 * replace a data.mdb another creation put there first: EEXIST.
 */
static int
store_make(const char *dir, const struct meta *m, const char *names,
    long group)
{
	char tmp[4096], path[4096];
	ar_store dbs;
	MDB_env *env;
	MDB_txn *txn;
	MDB_val v = { sizeof(*m), (void *)m };
	mdb_filehandle_t fd;
	int rc, dfd;

	if (snprintf(tmp, sizeof(tmp), "%s/" NEW_PREFIX "%ld.mdb", dir,
	    (long)getpid()) >= (int)sizeof(tmp) ||
	    snprintf(path, sizeof(path), "%s/data.mdb", dir) >=
	    (int)sizeof(path))
		return ENAMETOOLONG;
	unlink(tmp);
	if ((rc = mdb_env_create(&env)) != 0)
		return rc;
	/* Nobody else can see this file: it needs no lock file. */
	if ((rc = mdb_env_set_maxdbs(env, DBS_MAX)) != 0 ||
	    (rc = mdb_env_set_mapsize(env, MAP_INITIAL)) != 0 ||
	    (rc = mdb_env_open(env, tmp, MDB_NOSUBDIR | MDB_NOLOCK, 0660)) != 0)
		goto out;
	if ((rc = mdb_txn_begin(env, NULL, 0, &txn)) != 0)
		goto out;
	dbs.env = env;
	if ((rc = dbs_open(txn, MDB_CREATE, &dbs)) != 0 ||
	    (rc = mdb_put(txn, dbs.meta, (MDB_val *)&meta_key, &v, 0)) != 0 ||
	    (rc = hosts_put(txn, dbs.meta, names)) != 0 ||
	    (rc = demand_begin(txn, dbs.demand, m->clock)) != 0) {
		mdb_txn_abort(txn);
		goto out;
	}
	if ((rc = mdb_txn_commit(txn)) != 0 ||
	    (rc = mdb_env_get_fd(env, &fd)) != 0 ||
	    (rc = share(fd, group)) != 0 || (rc = share_locks(dir, group)) != 0)
		goto out;
	if (link(tmp, path) == -1)
		rc = errno;
	else if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) != -1) {
		if (fsync(dfd) == -1)
			rc = errno;
		close(dfd);
	}
out:
	mdb_env_close(env);
	unlink(tmp);
	return rc;
}

/*
 * Give the store an older ar's interrupted creation left (its databases
 * or some of them, no meta, no records) its first meta, under the
 * writer lock.  Another creation may have finished it meanwhile.
 */
static int
store_finish(const char *dir, const struct meta *m, const char *names)
{
	ar_store *s;
	MDB_txn *txn;
	MDB_stat st;
	MDB_val v;
	int rc;

	if ((rc = env_open(dir, 0, &s)) != 0)
		return rc;
	if ((rc = writer_lock(s)) != 0 ||
	    (rc = mdb_txn_begin(s->env, NULL, 0, &txn)) != 0)
		goto out;
	if ((rc = dbs_open(txn, MDB_CREATE, s)) == 0 &&
	    (rc = mdb_get(txn, s->meta, (MDB_val *)&meta_key, &v)) ==
	    MDB_NOTFOUND && (rc = mdb_stat(txn, s->resv, &st)) == 0) {
		v.mv_size = sizeof(*m);
		v.mv_data = (void *)m;
		rc = st.ms_entries > 0 ? AR_ECORRUPT :
		    mdb_put(txn, s->meta, (MDB_val *)&meta_key, &v, 0);
		if (rc == 0)
			rc = hosts_put(txn, s->meta, names);
		if (rc == 0)
			rc = mdb_txn_commit(txn);
		else
			mdb_txn_abort(txn);
	} else
		mdb_txn_abort(txn);
out:
	ar_close(s);
	return rc;
}

/* A store is there already: fine if it is the same one. */
static int
create_again(const char *dir, const struct meta *m, const char *names,
    const struct ar_config *cfg)
{
	const char *have;
	ar_store *s;
	MDB_txn *txn;
	struct meta old;
	MDB_val v;
	int rc;

	if ((rc = ar_open(dir, AR_RDONLY, &s)) == AR_EHALF)
		return store_finish(dir, m, names);
	if (rc != 0)
		return rc;
	if ((rc = mdb_txn_begin(s->env, NULL, MDB_RDONLY, &txn)) == 0) {
		if ((rc = meta_read(txn, s->meta, &old)) == 0 &&
		    (old.nodes != m->nodes || old.slot != m->slot ||
		    old.horizon != m->horizon))
			rc = AR_EEXIST;
		/* Names given must be the ones it has. */
		if (rc == 0 && cfg->hosts != NULL) {
			rc = mdb_get(txn, s->meta, (MDB_val *)&hosts_key, &v);
			have = v.mv_data;
			if (rc == 0 && (v.mv_size != strlen(names) + 1 ||
			    memcmp(have, names, v.mv_size) != 0))
				rc = AR_EEXIST;
		}
		mdb_txn_abort(txn);
	}
	ar_close(s);
	if (rc == 0 && cfg->group >= 0 &&
	    (rc = share_file(dir, "data.mdb", cfg->group)) == 0)
		rc = share_locks(dir, cfg->group);
	return rc;
}

int
ar_create(const char *dir, const struct ar_config *cfg, int64_t now)
{
	char path[4096], *names;
	struct stat st;
	struct meta m;
	int rc;

	if (!config_valid(cfg) || now < 0 || now > TIME_MAX)
		return EINVAL;
	if (*dir == '\0')
		return ENOENT;
	if (snprintf(path, sizeof(path), "%s/data.mdb", dir) >=
	    (int)sizeof(path))
		return ENAMETOOLONG;
	if ((rc = hosts_text(cfg->hosts, cfg->nodes, &names)) != 0)
		return rc;
	if (mkdir(dir, 0770) == -1 && errno != EEXIST)
		goto fail;
	if (stat(dir, &st) == -1)
		goto fail;
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		goto fail;
	}
	/* Shared: the group may use it, and what is made in it is theirs. */
	if (cfg->group >= 0 && (chown(dir, (uid_t)-1, (gid_t)cfg->group) == -1 ||
	    chmod(dir, 02770) == -1))
		goto fail;
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
	remove_unfinished(dir);
	if (stat(path, &st) == -1) {
		if (errno != ENOENT)
			goto fail;
		rc = store_make(dir, &m, names, cfg->group);
	} else
		rc = EEXIST;
	if (rc == EEXIST)
		rc = create_again(dir, &m, names, cfg);
	free(names);
	return rc;
fail:
	rc = errno;
	free(names);
	return rc;
}

/* Is there a store in dir?  LMDB would make one of nothing. */
static int
store_exists(const char *dir)
{
	char path[4096];
	struct stat st;

	/* LMDB would create a missing store; a typo must not. */
	if (*dir == '\0')
		return AR_ENOSTORE;
	if (snprintf(path, sizeof(path), "%s/data.mdb", dir) >= (int)sizeof(path))
		return ENAMETOOLONG;
	if (stat(path, &st) == -1)
		return errno == ENOENT ? AR_ENOSTORE : errno;
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
	MDB_stat ms;
	MDB_val v;
	struct meta m;
	int rc;

	if ((rc = store_exists(dir)) != 0)
		return rc;
	if ((rc = env_open(dir, (flags & AR_RDONLY) ? MDB_RDONLY : 0, &s)) != 0)
		return rc;
	if ((rc = dbs_load(s)) == 0 &&
	    (rc = mdb_txn_begin(s->env, NULL, MDB_RDONLY, &txn)) == 0) {
		rc = meta_read(txn, s->meta, &m);
		/* No meta and no records: an older ar's creation was cut. */
		if (rc == AR_ECORRUPT && mdb_get(txn, s->meta,
		    (MDB_val *)&meta_key, &v) == MDB_NOTFOUND &&
		    mdb_stat(txn, s->resv, &ms) == 0 && ms.ms_entries == 0)
			rc = AR_EHALF;
		mdb_txn_abort(txn);
	}
	if (rc == 0 && (s->keys == 0 || s->pricing == 0 || s->demand == 0 ||
	    s->map == 0 || s->pins == 0 || s->exported == 0 ||
	    s->holds == 0))
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

static int64_t
monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * LMDB's own writer mutex cannot be waited on with a deadline, so writers
 * first take an flock on the store's writer.lock, polling with a growing
 * pause until the deadline.  The kernel drops it when a writer dies, so a
 * killed process never blocks the others; one that is stopped does, and
 * the others give up at their deadline.  The holder writes its pid in the
 * file for their message.
 */
static int
writer_lock(ar_store *s)
{
	int64_t deadline = monotonic_ns() + (int64_t)s->wait_ms * 1000000, left;
	struct timespec pause = { 0, 1000000 };
	char pid[16];
	int n;

	for (;;) {
		if (flock(s->lockfd, LOCK_EX | LOCK_NB) == 0) {
			n = snprintf(pid, sizeof(pid), "%-10ld\n", (long)getpid());
			/* If this fails, only a message lacks the pid. */
			(void)!pwrite(s->lockfd, pid, (size_t)n, 0);
			return 0;
		}
		if (errno != EWOULDBLOCK && errno != EINTR)
			return errno;
		if ((left = deadline - monotonic_ns()) <= 0)
			return AR_ETIMEDOUT;
		if (pause.tv_nsec > left)
			pause.tv_nsec = (long)left;
		nanosleep(&pause, NULL);
		if (pause.tv_nsec < 64000000)
			pause.tv_nsec *= 2;
	}
}

long
ar_lock_holder(ar_store *s)
{
	char buf[16];
	ssize_t n;
	long pid;

	if (s->lockfd == -1 ||
	    (n = pread(s->lockfd, buf, sizeof(buf) - 1, 0)) <= 0)
		return 0;
	buf[n] = '\0';
	pid = strtol(buf, NULL, 10);
	return pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM) ?
	    pid : 0;
}

void
ar_idle(ar_store *s)
{
	if (s->rtxn != NULL) {
		mdb_txn_abort(s->rtxn);
		s->rtxn = NULL;
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
	slots_discard(t);       /* what an aborted transaction changed */
	t->ngranted = t->nmoved = t->nocc = 0;
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
	t->ring.dbi = s->ring;
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
	t->gen++;               /* nothing cached before is valid now */
	t->released = t->m.clock;
	t->expired = 0;
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
	for (uint32_t i = 2; i <= t->pr.n && rc == 0; i++)
		rc = ring_flush(t, &t->limit[i]);
	if (rc != 0 || (rc = slots_flush(t)) != 0 ||
	    (rc = ring_flush(t, &t->ring)) != 0 ||
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

/* Room a freeing transaction may take past map_max: 1/16, at least 1 MiB. */
static uint64_t
reserve(uint64_t map_max)
{
	return map_max / 16 > MAP_INITIAL ? map_max / 16 : MAP_INITIAL;
}

int
ar_grow(ar_store *s, unsigned flags)
{
	MDB_envinfo info;
	MDB_txn *txn;
	struct meta m;
	uint64_t size, limit;
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
	limit = m.map_max + ((flags & AR_FREEING) ? reserve(m.map_max) : 0);
	if (info.me_mapsize >= limit)
		return AR_EFULL;
	size = (uint64_t)info.me_mapsize * 2;
	if (size > limit)
		size = limit;
	return mdb_env_set_mapsize(s->env, (size_t)size);
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
		if (rc != MDB_MAP_FULL)
			return rc;
		if ((rc = ar_grow(s, flags)) != 0)
			return rc;
	}
}

int
ar_set_max_size(ar_txn *t, uint64_t map_max)
{
	MDB_envinfo info;
	int rc;

	if (!t->write)
		return EACCES;
	if ((rc = mdb_env_info(t->s->env, &info)) != 0)
		return rc;
	if (map_max < MAP_INITIAL || map_max < info.me_mapsize)
		return EINVAL;
	if (map_max != t->m.map_max) {
		t->m.map_max = map_max;
		t->meta_dirty = 1;
	}
	return 0;
}

/*
 * Format 3, 4 or 5 to 6 in one LMDB transaction, so that a crash leaves
 * the store as it was or converted: the databases it lacks are created,
 * the nodes of a store older than 5 get the default names, and meta
 * says 6.  Records need no rewrite: a format 3 record's key length was a
 * spare field, 0, only format 5 sets the named bit of a record's state,
 * and only 6 its series and hold bits.  *from is the format found; one
 * that is current is left alone.
 */
static int
upgrade_txn(ar_store *s, int *from)
{
	char *names = NULL;
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
		if ((rc = later_open(txn, MDB_CREATE, s)) == 0 &&
		    (*from >= 5 ||
		    ((rc = hosts_text(NULL, m.nodes, &names)) == 0 &&
		    (rc = hosts_put(txn, s->meta, names)) == 0)) &&
		    (rc = mdb_put(txn, s->meta, (MDB_val *)&meta_key, &v,
		    0)) == 0) {
			free(names);
			return mdb_txn_commit(txn);
		}
	}
	free(names);
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
	    (rc = env_open(dir, 0, &s)) != 0)
		return rc;
	if ((rc = dbs_load(s)) != 0)
		goto out;
	ar_set_wait(s, wait_ms);
	if ((rc = writer_lock(s)) != 0)
		goto out;
	/* Like ar_write: another process may have grown the map, or this
	 * one may have to. */
	for (;;) {
		if ((rc = upgrade_txn(s, from)) == MDB_MAP_FULL)
			rc = ar_grow(s, 0);
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
	case MDB_READERS_FULL:
		return "too many processes are using the store at once";
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
