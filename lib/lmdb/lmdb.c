/*
 * lmdb.c - the LMDB backend: a store is a directory holding one LMDB
 * environment, a table is a named database, and writers take an flock
 * on the directory's writer.lock first, so that they can wait with a
 * deadline.
 */
#include <sys/file.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <lmdb.h>

#include "kv.h"

/* Readers a store serves at once: every process holding a transaction
 * takes one; LMDB's default, 126, is less than a busy login node runs. */
#define READERS_MAX 4096
#define NEW_PREFIX ".new-"      /* a store being made: .new-PID.mdb */
#define DBS_MAX 32              /* named databases: 16 in use */

_Static_assert(KV_NOTFOUND == MDB_NOTFOUND && KV_KEYEXIST == MDB_KEYEXIST,
    "kv.h's results are LMDB's");

/* LMDB's map full is the store's want of room, AR_EFULL: the map is
 * grown (lmdb_grow) and the transaction made again. */
static int
room(int rc)
{
	return rc == MDB_MAP_FULL ? AR_EFULL : rc;
}

struct lmdb_store {
	struct kv_store base;
	MDB_env *env;
	MDB_dbi dbi[KV_TABLES]; /* 0: a store of an older format lacks it */
	int lockfd;             /* writer.lock, for writers; else -1 */
	MDB_txn *rtxn;          /* an ended read transaction, kept to renew */
	struct lmdb_txn *spare; /* an ended top-level transaction's memory */
};

struct lmdb_txn {
	struct kv_txn base;
	struct lmdb_store *ls;
	MDB_txn *txn;
	int write;
	int locked;             /* holds the writer flock */
	int child;              /* nested in another */
};

struct lmdb_cursor {
	struct kv_cursor base;
	MDB_cursor *c;
};

static unsigned
db_flags(int tb)
{
	return tb == KV_LABELS ? MDB_DUPSORT | MDB_DUPFIXED : 0;
}

/*
 * Open the store's databases in txn, creating the missing ones if flags
 * says so (MDB_CREATE); else a missing one keeps handle 0.
 */
static int
dbs_open(MDB_txn *txn, unsigned flags, MDB_dbi *dbi)
{
	int rc;

	for (int i = 0; i < KV_TABLES; i++)
		if (dbi[i] == 0 && (rc = mdb_dbi_open(txn, kv_table_names[i],
		    flags | db_flags(i), &dbi[i])) != 0 && rc != MDB_NOTFOUND)
			return rc == MDB_INCOMPATIBLE ? AR_ECORRUPT : rc;
	return 0;
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

/* Open (creating) a file of the store and share it. */
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

/*
 * Open a file of the store for reading and writing into *fd, making it
 * if it is not there.  One made in a directory that its group may write,
 * a store shared with --group or by hand (chgrp, umask 002), is given
 * the directory's group and read and write bits, so that the store stays
 * its group's whoever makes the file first (a writer.lock that a store
 * made before it lacks, say); one not in that group cannot give it away,
 * and leaves it its own.
 */
static int
store_file(const char *dir, const char *name, int *fd)
{
	char path[4096];
	struct stat st;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    (int)sizeof(path))
		return ENAMETOOLONG;
	if ((*fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC,
	    0660)) == -1)
		return errno != EEXIST ? errno :
		    (*fd = open(path, O_RDWR | O_CLOEXEC)) == -1 ? errno : 0;
	if (stat(dir, &st) == 0 && (st.st_mode & S_IWGRP) &&
	    ((fchown(*fd, (uid_t)-1, st.st_gid) == -1 && errno != EPERM) ||
	    fchmod(*fd, st.st_mode & 0666) == -1)) {
		close(*fd);
		*fd = -1;
		return errno;
	}
	return 0;
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
 * Make directory dir with mode, and the parents it lacks, as mkdir -p
 * does (they get 0777 before the umask).  0, also if it is there.
 */
static int
make_dirs(const char *dir, mode_t mode)
{
	char path[4096];
	char *slash;
	size_t n;
	int rc;

	if ((n = strlen(dir)) >= sizeof(path))
		return ENAMETOOLONG;
	memcpy(path, dir, n + 1);
	while (n > 1 && path[n - 1] == '/')
		path[--n] = '\0';
	if (mkdir(path, mode) == 0 || errno == EEXIST)
		return 0;
	if (errno != ENOENT)
		return errno;
	/* Its parent: less its last name and the slashes before it; a
	 * relative name's is the working directory, there already. */
	if ((slash = strrchr(path, '/')) == NULL)
		return ENOENT;
	while (slash > path && slash[-1] == '/')
		slash--;
	if (slash == path)
		return ENOENT;
	*slash = '\0';
	if ((rc = make_dirs(path, 0777)) != 0)
		return rc;
	*slash = '/';
	return mkdir(path, mode) == 0 || errno == EEXIST ? 0 : errno;
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

static const struct kv_backend *const self = &kv_lmdb;

static int store_exists(const char *dir);
static int lmdb_share(const char *dir, long group);

/*
 * Make a store's data file whole, under a name of its own, and only then
 * link it in as data.mdb: a creation killed at any moment leaves either
 * no store or a complete one, never half of one.  link() does not
 * replace a data.mdb another creation put there first: EEXIST.
 */
static int
store_make(const char *dir, const struct kv_init *init)
{
	char tmp[4096], path[4096];
	struct lmdb_store ls = { .base = { self } };
	struct lmdb_txn lt = { .base = { .be = self }, .ls = &ls, .write = 1 };
	mdb_filehandle_t fd;
	int rc, dfd;

	if (snprintf(tmp, sizeof(tmp), "%s/" NEW_PREFIX "%ld.mdb", dir,
	    (long)getpid()) >= (int)sizeof(tmp) ||
	    snprintf(path, sizeof(path), "%s/data.mdb", dir) >=
	    (int)sizeof(path))
		return ENAMETOOLONG;
	unlink(tmp);
	if ((rc = mdb_env_create(&ls.env)) != 0)
		return rc;
	/* Nobody else can see this file: it needs no lock file. */
	if ((rc = mdb_env_set_maxdbs(ls.env, DBS_MAX)) != 0 ||
	    (rc = mdb_env_set_mapsize(ls.env, init->size > KV_SIZE_INITIAL ?
	    init->size : KV_SIZE_INITIAL)) != 0 ||
	    (rc = mdb_env_open(ls.env, tmp, MDB_NOSUBDIR | MDB_NOLOCK,
	    0660)) != 0)
		goto out;
	if ((rc = mdb_txn_begin(ls.env, NULL, 0, &lt.txn)) != 0)
		goto out;
	if ((rc = room(dbs_open(lt.txn, MDB_CREATE, ls.dbi))) != 0 ||
	    (rc = init->fill(&lt.base, init->arg)) != 0) {
		mdb_txn_abort(lt.txn);
		goto out;
	}
	if ((rc = room(mdb_txn_commit(lt.txn))) != 0 ||
	    (rc = mdb_env_get_fd(ls.env, &fd)) != 0 ||
	    (rc = share(fd, init->group)) != 0 ||
	    (rc = share_locks(dir, init->group)) != 0)
		goto out;
	if (link(tmp, path) == -1)
		rc = errno;
	else if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) != -1) {
		if (fsync(dfd) == -1)
			rc = errno;
		close(dfd);
	}
out:
	mdb_env_close(ls.env);
	unlink(tmp);
	return rc;
}

static int
lmdb_create(const char *dir, const struct kv_init *init)
{
	char path[4096];
	struct stat st;
	int rc;

	if (*dir == '\0')
		return ENOENT;
	if (snprintf(path, sizeof(path), "%s/data.mdb", dir) >=
	    (int)sizeof(path))
		return ENAMETOOLONG;
	if ((rc = make_dirs(dir, 0770)) != 0)
		return rc;
	if (stat(dir, &st) == -1)
		return errno;
	if (!S_ISDIR(st.st_mode))
		return ENOTDIR;
	/* Shared: the group may use it, and what is made in it is theirs. */
	if (init->group >= 0 && (chown(dir, (uid_t)-1,
	    (gid_t)init->group) == -1 || chmod(dir, 02770) == -1))
		return errno;
	remove_unfinished(dir);
	if (stat(path, &st) == 0)
		rc = EEXIST;
	else if (errno != ENOENT)
		return errno;
	else
		rc = store_make(dir, init);
	if (rc != EEXIST)
		return rc;
	/* There already: shared as asked, then the caller's to compare. */
	if (init->group >= 0 && (rc = lmdb_share(dir, init->group)) != 0)
		return rc;
	return EEXIST;
}

static int
lmdb_share(const char *dir, long group)
{
	int rc;

	if ((rc = store_exists(dir)) != 0)
		return rc;
	if (chown(dir, (uid_t)-1, (gid_t)group) == -1 ||
	    chmod(dir, 02770) == -1)
		return errno;
	if ((rc = share_file(dir, "data.mdb", group)) != 0)
		return rc;
	return share_locks(dir, group);
}

/* May this process use path as mode (R_OK, W_OK, X_OK) asks, with its
 * effective ids, as open does?  A file that is not there needs its
 * directory writable, to be made. */
static int
usable(const char *dir, const char *name, int mode, char *path,
    size_t size)
{
	snprintf(path, size, "%s/%s", dir, name);
	if (faccessat(AT_FDCWD, path, mode, AT_EACCESS) == 0)
		return 1;
	if (errno != ENOENT)
		return 0;
	snprintf(path, size, "%s", dir);
	return faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS) == 0;
}

static int
lmdb_denied(const char *dir, unsigned flags, char *path, size_t size)
{
	int data = R_OK | ((flags & AR_RDONLY) ? 0 : W_OK);

	if (faccessat(AT_FDCWD, dir, X_OK, AT_EACCESS) != 0) {
		snprintf(path, size, "%s", dir);
		return 0;
	}
	if (!usable(dir, "lock.mdb", R_OK | W_OK, path, size) ||
	    !usable(dir, "data.mdb", data, path, size) ||
	    (!(flags & AR_RDONLY) &&
	    !usable(dir, "writer.lock", R_OK | W_OK, path, size)))
		return 0;
	return ENOENT;
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
	if (snprintf(path, sizeof(path), "%s/data.mdb", dir) >=
	    (int)sizeof(path))
		return ENAMETOOLONG;
	if (stat(path, &st) == -1)
		return errno == ENOENT ? AR_ENOSTORE : errno;
	/* LMDB would make an empty file a new environment. */
	if (!S_ISREG(st.st_mode) || st.st_size < 2 * 4096)
		return MDB_INVALID;
	return 0;
}

/*
 * A data file shorter than the pages its meta page names (truncated by
 * hand, or a copy cut short) would fault on the first read of a missing
 * page: refuse it before any is read.  The size is taken after the meta:
 * a writer grows the file before it commits a meta naming the new pages.
 */
static int
size_check(MDB_env *env)
{
	MDB_envinfo info;
	MDB_stat ms;
	struct stat st;
	mdb_filehandle_t fd;
	int rc;

	if ((rc = mdb_env_info(env, &info)) != 0 ||
	    (rc = mdb_env_stat(env, &ms)) != 0 ||
	    (rc = mdb_env_get_fd(env, &fd)) != 0)
		return rc;
	if (fstat(fd, &st) == -1)
		return errno;
	if ((uint64_t)(info.me_last_pgno + 1) * ms.ms_psize >
	    (uint64_t)st.st_size)
		return AR_ECORRUPT;
	return 0;
}

static void lmdb_close(struct kv_store *ks);

/*
 * Open the environment, and for writing the file writers lock, then its
 * databases in a read transaction: a write transaction would wait on
 * LMDB's writer mutex, with no deadline, behind a writer stopped (^Z)
 * inside its transaction.
 */
static int
lmdb_open(const char *dir, unsigned flags, struct kv_store **ks)
{
	struct lmdb_store *ls;
	unsigned envflags = (flags & AR_RDONLY) ? MDB_RDONLY : 0;
	MDB_txn *txn;
	int rc, dead, fd;

	if ((rc = store_exists(dir)) != 0)
		return rc;
	/* LMDB makes a missing lock.mdb its maker's own: made here, it is
	 * the store's group's too. */
	if ((rc = store_file(dir, "lock.mdb", &fd)) != 0)
		return rc;
	close(fd);
	if ((ls = calloc(1, sizeof(*ls))) == NULL)
		return ENOMEM;
	ls->base.be = self;
	ls->lockfd = -1;
	if ((rc = mdb_env_create(&ls->env)) != 0 ||
	    (rc = mdb_env_set_maxdbs(ls->env, DBS_MAX)) != 0 ||
	    (rc = mdb_env_set_maxreaders(ls->env, READERS_MAX)) != 0)
		goto fail;
	if ((rc = mdb_env_open(ls->env, dir, envflags | MDB_NOTLS,
	    0660)) != 0 || (rc = size_check(ls->env)) != 0)
		goto fail;
	/* Reader slots of killed processes pin old pages and grow the file. */
	if ((rc = mdb_reader_check(ls->env, &dead)) != 0)
		goto fail;
	if (!(flags & AR_RDONLY) &&
	    (rc = store_file(dir, "writer.lock", &ls->lockfd)) != 0)
		goto fail;
	if ((rc = mdb_txn_begin(ls->env, NULL, MDB_RDONLY, &txn)) != 0)
		goto fail;
	if ((rc = dbs_open(txn, 0, ls->dbi)) != 0) {
		mdb_txn_abort(txn);
		goto fail;
	}
	if ((rc = mdb_txn_commit(txn)) != 0)
		goto fail;
	*ks = &ls->base;
	return 0;
fail:
	lmdb_close(&ls->base);
	return rc;
}

static void
lmdb_close(struct kv_store *ks)
{
	struct lmdb_store *ls = (struct lmdb_store *)ks;

	free(ls->spare);
	if (ls->rtxn != NULL)
		mdb_txn_abort(ls->rtxn);
	if (ls->env != NULL)
		mdb_env_close(ls->env);
	if (ls->lockfd != -1)
		close(ls->lockfd);
	free(ls);
}

static int
lmdb_complete(struct kv_store *ks)
{
	struct lmdb_store *ls = (struct lmdb_store *)ks;

	for (int i = 0; i < KV_TABLES; i++)
		if (ls->dbi[i] == 0)
			return 0;
	return 1;
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
writer_lock(struct lmdb_store *ls, long wait_ms)
{
	int64_t deadline = monotonic_ns() + (int64_t)wait_ms * 1000000, left;
	struct timespec pause = { 0, 1000000 };
	char pid[16];
	int n;

	if (ls->lockfd == -1)
		return EACCES;
	for (;;) {
		if (flock(ls->lockfd, LOCK_EX | LOCK_NB) == 0) {
			n = snprintf(pid, sizeof(pid), "%-10ld\n", (long)getpid());
			/* If this fails, only a message lacks the pid. */
			(void)!pwrite(ls->lockfd, pid, (size_t)n, 0);
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

static long
lmdb_lock_holder(struct kv_store *ks)
{
	struct lmdb_store *ls = (struct lmdb_store *)ks;
	char buf[16];
	ssize_t n;
	long pid;

	if (ls->lockfd == -1 ||
	    (n = pread(ls->lockfd, buf, sizeof(buf) - 1, 0)) <= 0)
		return 0;
	buf[n] = '\0';
	pid = strtol(buf, NULL, 10);
	return pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM) ?
	    pid : 0;
}

static void
lmdb_idle(struct kv_store *ks)
{
	struct lmdb_store *ls = (struct lmdb_store *)ks;

	if (ls->rtxn != NULL) {
		mdb_txn_abort(ls->rtxn);
		ls->rtxn = NULL;
	}
}

/*
 * A top-level transaction; an ended read transaction is reset rather
 * than freed, and renewed by the next, which then needs no new reader
 * slot.  Another process may have grown the map: adopt its size.
 */
static int
txn_start(struct lmdb_txn *lt, int write)
{
	struct lmdb_store *ls = lt->ls;
	int rc;

	for (;;) {
		if (!write && ls->rtxn != NULL) {
			lt->txn = ls->rtxn;
			ls->rtxn = NULL;
			if ((rc = mdb_txn_renew(lt->txn)) != 0) {
				mdb_txn_abort(lt->txn);
				lt->txn = NULL;
			}
		} else
			rc = mdb_txn_begin(ls->env, NULL, write ? 0 : MDB_RDONLY,
			    &lt->txn);
		if (rc != MDB_MAP_RESIZED)
			return rc;
		if (lt->txn != NULL) {
			mdb_txn_abort(lt->txn);
			lt->txn = NULL;
		}
		lmdb_idle(&ls->base);
		if ((rc = mdb_env_set_mapsize(ls->env, 0)) != 0)
			return rc;
	}
}

static void
txn_free(struct lmdb_txn *lt)
{
	struct lmdb_store *ls = lt->ls;

	if (lt->locked)
		flock(ls->lockfd, LOCK_UN);
	/* A top-level transaction's memory is kept for the next. */
	if (lt->child || ls->spare != NULL)
		free(lt);
	else
		ls->spare = lt;
}

static int
lmdb_txn_begin(struct kv_store *ks, struct kv_txn *parent, int write,
    long wait_ms, struct kv_txn **txn)
{
	struct lmdb_store *ls = (struct lmdb_store *)ks;
	struct lmdb_txn *lt, *up = (struct lmdb_txn *)parent;
	int rc;

	if (up == NULL && ls->spare != NULL) {
		lt = ls->spare;
		ls->spare = NULL;
	} else if ((lt = malloc(sizeof(*lt))) == NULL)
		return ENOMEM;
	lt->base.be = self;
	lt->base.writes = 0;
	lt->ls = ls;
	lt->txn = NULL;
	lt->write = write;
	lt->locked = 0;
	lt->child = up != NULL;
	if (up != NULL)
		rc = mdb_txn_begin(ls->env, up->txn, 0, &lt->txn);
	else if (!write || (rc = writer_lock(ls, wait_ms)) == 0) {
		lt->locked = write;
		rc = txn_start(lt, write);
	}
	if (rc != 0) {
		txn_free(lt);
		return rc;
	}
	*txn = &lt->base;
	return 0;
}

static int
lmdb_txn_commit(struct kv_txn *txn)
{
	struct lmdb_txn *lt = (struct lmdb_txn *)txn;
	int rc = room(mdb_txn_commit(lt->txn));

	txn_free(lt);
	return rc;
}

static void
lmdb_txn_abort(struct kv_txn *txn)
{
	struct lmdb_txn *lt = (struct lmdb_txn *)txn;
	struct lmdb_store *ls = lt->ls;

	if (!lt->write && ls->rtxn == NULL) {
		mdb_txn_reset(lt->txn);
		ls->rtxn = lt->txn;
	} else
		mdb_txn_abort(lt->txn);
	txn_free(lt);
}

static int
lmdb_upgrade(struct kv_txn *txn)
{
	struct lmdb_txn *lt = (struct lmdb_txn *)txn;

	return room(dbs_open(lt->txn, MDB_CREATE, lt->ls->dbi));
}

/* The handle of table tb, or 0 if the store lacks it. */
static MDB_dbi
dbi_of(struct kv_txn *txn, enum kv_table tb)
{
	return ((struct lmdb_txn *)txn)->ls->dbi[tb];
}

static MDB_txn *
mtxn(struct kv_txn *txn)
{
	return ((struct lmdb_txn *)txn)->txn;
}

static int
lmdb_get(struct kv_txn *txn, enum kv_table tb, const struct kv_val *key,
    struct kv_val *val)
{
	MDB_dbi dbi = dbi_of(txn, tb);

	if (dbi == 0)
		return KV_NOTFOUND;
	return mdb_get(mtxn(txn), dbi, (MDB_val *)key, (MDB_val *)val);
}

static int
lmdb_put(struct kv_txn *txn, enum kv_table tb, const struct kv_val *key,
    const struct kv_val *val, unsigned flags)
{
	MDB_dbi dbi = dbi_of(txn, tb);
	unsigned mflags = 0;

	if (dbi == 0)
		return AR_ECORRUPT;
	if (flags & KV_NOOVERWRITE)
		mflags |= MDB_NOOVERWRITE;
	if (flags & KV_APPEND)
		mflags |= MDB_APPEND;
	if (tb == KV_LABELS)
		mflags |= MDB_NODUPDATA;
	return room(mdb_put(mtxn(txn), dbi, (MDB_val *)key, (MDB_val *)val,
	    mflags));
}

static int
lmdb_del(struct kv_txn *txn, enum kv_table tb, const struct kv_val *key,
    const struct kv_val *val)
{
	MDB_dbi dbi = dbi_of(txn, tb);

	if (dbi == 0)
		return KV_NOTFOUND;
	return room(mdb_del(mtxn(txn), dbi, (MDB_val *)key, (MDB_val *)val));
}

static int
lmdb_count(struct kv_txn *txn, enum kv_table tb, uint64_t *n)
{
	MDB_dbi dbi = dbi_of(txn, tb);
	MDB_stat st;
	int rc;

	*n = 0;
	if (dbi == 0)
		return 0;
	if ((rc = mdb_stat(mtxn(txn), dbi, &st)) == 0)
		*n = st.ms_entries;
	return rc;
}

static int
lmdb_cursor_open(struct kv_txn *txn, enum kv_table tb, struct kv_cursor **cur)
{
	MDB_dbi dbi = dbi_of(txn, tb);
	struct lmdb_cursor *lc;
	int rc;

	if (dbi == 0)
		return AR_ECORRUPT;
	if ((lc = malloc(sizeof(*lc))) == NULL)
		return ENOMEM;
	if ((rc = mdb_cursor_open(mtxn(txn), dbi, &lc->c)) != 0) {
		free(lc);
		return rc;
	}
	lc->base.be = self;
	*cur = &lc->base;
	return 0;
}

static void
lmdb_cursor_close(struct kv_cursor *cur)
{
	struct lmdb_cursor *lc = (struct lmdb_cursor *)cur;

	mdb_cursor_close(lc->c);
	free(lc);
}

static int
lmdb_cursor_get(struct kv_cursor *cur, struct kv_val *key, struct kv_val *val,
    enum kv_op op)
{
	static const MDB_cursor_op ops[] = {
		[KV_FIRST] = MDB_FIRST, [KV_LAST] = MDB_LAST,
		[KV_NEXT] = MDB_NEXT, [KV_PREV] = MDB_PREV,
		[KV_SET_KEY] = MDB_SET_KEY, [KV_SET_RANGE] = MDB_SET_RANGE,
		[KV_GET_BOTH] = MDB_GET_BOTH, [KV_NEXT_DUP] = MDB_NEXT_DUP
	};

	return mdb_cursor_get(((struct lmdb_cursor *)cur)->c, (MDB_val *)key,
	    (MDB_val *)val, ops[op]);
}

static int
lmdb_cursor_del(struct kv_cursor *cur)
{
	return room(mdb_cursor_del(((struct lmdb_cursor *)cur)->c, 0));
}

static int
lmdb_size(struct kv_store *ks, uint64_t *bytes)
{
	MDB_envinfo info;
	int rc;

	if ((rc = mdb_env_info(((struct lmdb_store *)ks)->env, &info)) == 0)
		*bytes = info.me_mapsize;
	return rc;
}

/* Double the map, up to limit. */
static int
lmdb_grow(struct kv_store *ks, uint64_t limit)
{
	struct lmdb_store *ls = (struct lmdb_store *)ks;
	uint64_t size;
	int rc;

	lmdb_idle(ks);          /* no transaction across a remap */
	if ((rc = lmdb_size(ks, &size)) != 0)
		return rc;
	if (size >= limit)
		return AR_EFULL;
	size *= 2;
	if (size > limit)
		size = limit;
	return mdb_env_set_mapsize(ls->env, (size_t)size);
}

/* Every address is a directory's, but those other backends claim. */
static int
any_address(const char *where)
{
	(void)where;
	return 1;
}

static const char *
lmdb_strerror(int code)
{
	switch (code) {
	case MDB_READERS_FULL:
		return "too many processes are using the store at once";
	case MDB_INVALID:
		return "not a store (no LMDB environment there)";
	case MDB_VERSION_MISMATCH:
		return "the store was made by another LMDB version";
	}
	return code >= MDB_KEYEXIST && code <= MDB_LAST_ERRCODE ?
	    mdb_strerror(code) : NULL;
}

const struct kv_backend kv_lmdb = {
	.name = "lmdb",
	.claims = any_address,
	.create = lmdb_create,
	.open = lmdb_open,
	.close = lmdb_close,
	.complete = lmdb_complete,
	.txn_begin = lmdb_txn_begin,
	.txn_commit = lmdb_txn_commit,
	.txn_abort = lmdb_txn_abort,
	.upgrade = lmdb_upgrade,
	.get = lmdb_get,
	.put = lmdb_put,
	.del = lmdb_del,
	.count = lmdb_count,
	.cursor_open = lmdb_cursor_open,
	.cursor_close = lmdb_cursor_close,
	.cursor_get = lmdb_cursor_get,
	.cursor_del = lmdb_cursor_del,
	.grow = lmdb_grow,
	.size = lmdb_size,
	.clock = kv_host_clock,
	.role = NULL,           /* no roles: owners are uids */
	.lock_holder = lmdb_lock_holder,
	.idle = lmdb_idle,
	.strerror = lmdb_strerror,
	.share = lmdb_share,
	.denied = lmdb_denied,
};
