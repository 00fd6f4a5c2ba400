/*
 * test_kv.c - the backends behind lib/kv.h agree: the same seeded
 * sequences of calls (puts, gets, deletions, counts, every cursor move,
 * KV_LABELS' values, nested transactions committed and aborted) go to
 * the LMDB backend, the oracle, and to the memory one and the PostgreSQL
 * one, and every result, key and value is compared.  Then what each
 * backend promises of transactions: a reader keeps its snapshot, a
 * second writer waits for the first and gives up after its wait (in
 * another process; in the one process of a memory store, at once),
 * stores sharing a database do not see each other, a store is made
 * once, the clock is the system's and the session's role is told, a
 * memory store's copy is its own and its removal waits for its
 * last handle; and on PostgreSQL, that a transaction reading much with a
 * cursor does not grow the process (what it read goes as the cursor
 * moves on).
 *
 * The PostgreSQL server is AR_TEST_PG, a libpq URI without store=; when
 * it is not set the PostgreSQL part is skipped (and said so).
 */
#include <sys/wait.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ar.h"
#include "check.h"
#include "helpers.h"
#include "kv.h"
#include "mem/mem.h"
#include "pg/pq.h"              /* to remove the test's stores after it */

#define SUITE "kv"
#include "suite.h"

#define SEEDS 6
#define ROUNDS 40
#define STEPS 40
#define DEPTH_MAX 2             /* nested transactions under the top one */
#define CURSORS 2

/* One backend's store in the comparison, and where it stands. */
struct side {
	const struct kv_backend *be;
	struct kv_store *ks;
	struct kv_txn *txn[DEPTH_MAX + 1];
	struct kv_cursor *cur[CURSORS];
};

static const char *pg_server;
static char pg_prefix[64];      /* the names of this run's stores */

/* Where the store called name is on be: a directory, mem:NAME or a
 * URI. */
static const char *
where_of(const struct kv_backend *be, const char *name, char *buf,
    size_t size)
{
	if (be == &kv_lmdb)
		snprintf(buf, size, "%s/%s", tmproot, name);
	else if (be == &kv_memory)
		snprintf(buf, size, "mem:%s", name);
	else
		snprintf(buf, size, "%s%cstore=%s%s", pg_server,
		    strchr(pg_server, '?') != NULL ? '&' : '?', pg_prefix,
		    name);
	return buf;
}

#define WHERE(be, name) where_of((be), (name), (char[1024]){ 0 }, 1024)

static int
fill(struct kv_txn *txn, const void *arg)
{
	struct kv_val key = { 4, "meta" }, val = { 8, "version1" };

	(void)arg;
	return kv_put(txn, KV_META, &key, &val, 0);
}

static const struct kv_init init = { .fill = fill, .arg = NULL, .group = -1 };

/* --- random calls on both ------------------------------------------- */

static const enum kv_table tables[] = { KV_META, KV_RESV, KV_LABELS };

static enum kv_table
some_table(void)
{
	return tables[rnd(3)];
}

/* A key of 1 to 3 bytes of a few, so that keys share prefixes. */
static struct kv_val
some_key(unsigned char *buf)
{
	static const unsigned char bytes[] = { 0x00, 0x01, 0x61, 0xff };
	struct kv_val k = { 1 + rnd(3), buf };

	for (size_t i = 0; i < k.size; i++)
		buf[i] = bytes[rnd(4)];
	return k;
}

/* A value: KV_LABELS' are of one size (LMDB's MDB_DUPFIXED) and few. */
static struct kv_val
some_val(enum kv_table tb, unsigned char *buf)
{
	struct kv_val v = { tb == KV_LABELS ? 4 : rnd(13), buf };

	for (size_t i = 0; i < v.size; i++)
		buf[i] = (unsigned char)(tb == KV_LABELS && i < 3 ? 0x61 * rnd(2) :
		    rnd(256));
	return v;
}

static const char *
val_text(const struct kv_val *v, char *buf)
{
	char *p = buf;

	for (size_t i = 0; i < v->size && i < 16; i++)
		p += sprintf(p, "%02x", ((unsigned char *)v->data)[i]);
	*p = '\0';
	return buf;
}

#define TEXT(v) val_text((v), (char[40]){ 0 })

/* The backend compared with LMDB. */
static const struct kv_backend *compared;

/*
 * Compare the two sides' answers to one call: the result, and with 0
 * the key and value (when given).  0 if they agree.
 */
static int
agree(const char *what, int seed, int step, const int *rc,
    const struct kv_val *key, const struct kv_val *val)
{
	int ok = rc[0] == rc[1];

	if (ok && rc[0] == 0 && key != NULL)
		ok = kv_same(&key[0], &key[1]);
	if (ok && rc[0] == 0 && val != NULL)
		ok = kv_same(&val[0], &val[1]);
	CHECK(ok, "seed %d step %d %s: lmdb %d %s=%s, %s %d %s=%s",
	    seed, step, what, rc[0], key ? TEXT(&key[0]) : "",
	    val ? TEXT(&val[0]) : "", compared->name, rc[1],
	    key ? TEXT(&key[1]) : "", val ? TEXT(&val[1]) : "");
	return ok ? 0 : -1;
}

/* Every entry of every table, read with a cursor in a read transaction. */
static int
compare_all(struct side *s, int seed, int step)
{
	struct kv_txn *txn[2];
	struct kv_cursor *cur[2];
	struct kv_val key[2], val[2];
	int rc[2], bad = 0;

	for (int i = 0; i < 2; i++)
		OK(rc[i] = s[i].be->txn_begin(s[i].ks, NULL, 0, 0, &txn[i]));
	if (rc[0] != 0 || rc[1] != 0)
		return -1;
	for (int t = 0; t < 3 && !bad; t++) {
		for (int i = 0; i < 2; i++)
			OK(kv_cursor_open(txn[i], tables[t], &cur[i]));
		for (enum kv_op op = KV_FIRST; !bad; op = KV_NEXT) {
			for (int i = 0; i < 2; i++)
				rc[i] = kv_cursor_get(cur[i], &key[i], &val[i],
				    op);
			bad = agree("scan", seed, step, rc, key, val);
			if (rc[0] != 0)
				break;
		}
		for (int i = 0; i < 2; i++)
			kv_cursor_close(cur[i]);
	}
	for (int i = 0; i < 2; i++)
		s[i].be->txn_abort(txn[i]);
	return bad;
}

enum call {
	C_PUT, C_GET, C_DEL, C_COUNT, C_CURSOR, C_CURSOR_DEL, C_CHILD,
	C_END_CHILD, C_CALLS
};

static void
close_cursors(struct side *s)
{
	for (int i = 0; i < 2; i++)
		for (int c = 0; c < CURSORS; c++)
			if (s[i].cur[c] != NULL) {
				kv_cursor_close(s[i].cur[c]);
				s[i].cur[c] = NULL;
			}
}

/*
 * A write to tb other than cursor c's own deletion: where the cursors on
 * tb stand is LMDB's own then (one whose entry is deleted points at the
 * entry after the gap, and an entry put into the gap comes before it):
 * one at an entry stays there if nothing was deleted, the others only go
 * to a key.
 */
static void
moved(const struct side *s, int *placed, const enum kv_table *cur_tb,
    enum kv_table tb, int c, int deleted)
{
	for (int i = 0; i < CURSORS; i++)
		if (i != c && s[0].cur[i] != NULL && cur_tb[i] == tb &&
		    (deleted || placed[i] == 2))
			placed[i] = 0;
}

/*
 * One round: a write transaction of random calls on both sides, with
 * children begun and ended on the way, committed or aborted at the end.
 * The cursors' moves are those whose outcome kv.h defines: after
 * KV_NOTFOUND one only goes to a key, and one deletes only at an entry.
 */
static int
round_run(struct side *s, int seed, int *step)
{
	unsigned char kb[8], vb[16];
	struct kv_val key[2], val[2], k, v;
	enum kv_table cur_tb[CURSORS];
	int placed[CURSORS] = { 0 }, rc[2], depth = 0, bad = 0;
	uint64_t n[2];
	char what[80];

	for (int i = 0; i < 2; i++)
		OK(rc[i] = s[i].be->txn_begin(s[i].ks, NULL, 1, 1000,
		    &s[i].txn[0]));
	if (rc[0] != 0 || rc[1] != 0)
		return -1;
	for (int j = 0; j < STEPS && !bad; j++, (*step)++) {
		enum call call = (enum call)rnd(C_CALLS);
		enum kv_table tb = some_table();
		int c = (int)rnd(CURSORS);
		unsigned flags = rnd(4) == 0 ? KV_NOOVERWRITE : 0;
		enum kv_op op;

		k = some_key(kb);
		v = some_val(tb, vb);
		switch (call) {
		case C_PUT:
			for (int i = 0; i < 2; i++)
				rc[i] = kv_put(s[i].txn[depth], tb, &k, &v,
				    flags);
			bad = agree("put", seed, *step, rc, NULL, NULL);
			moved(s, placed, cur_tb, tb, -1, 0);
			break;
		case C_GET:
			for (int i = 0; i < 2; i++)
				rc[i] = kv_get(s[i].txn[depth], tb, &k,
				    &val[i]);
			bad = agree("get", seed, *step, rc, NULL, val);
			break;
		case C_DEL:
			if (tb != KV_LABELS || rnd(2))
				v.data = NULL;
			for (int i = 0; i < 2; i++)
				rc[i] = kv_del(s[i].txn[depth], tb, &k,
				    v.data != NULL ? &v : NULL);
			snprintf(what, sizeof(what), "del %d %s %s", tb,
			    TEXT(&k), v.data != NULL ? TEXT(&v) : "");
			bad = agree(what, seed, *step, rc, NULL, NULL);
			moved(s, placed, cur_tb, tb, -1, 1);
			break;
		case C_COUNT:
			for (int i = 0; i < 2; i++)
				rc[i] = kv_count(s[i].txn[depth], tb, &n[i]);
			bad = agree("count", seed, *step, rc, NULL, NULL);
			CHECK(n[0] == n[1], "seed %d step %d count %d: %llu, "
			    "%llu", seed, *step, tb, (unsigned long long)n[0],
			    (unsigned long long)n[1]);
			bad = bad || n[0] != n[1];
			break;
		case C_CURSOR:
			if (s[0].cur[c] == NULL) {
				cur_tb[c] = tb;
				placed[c] = 0;
				for (int i = 0; i < 2; i++)
					OK(kv_cursor_open(s[i].txn[depth], tb,
					    &s[i].cur[c]));
			}
			tb = cur_tb[c];
			v = some_val(tb, vb);
			op = (enum kv_op)rnd(tb == KV_LABELS ? 8 : 6);
			if (!placed[c] && (op == KV_NEXT || op == KV_PREV ||
			    op == KV_NEXT_DUP))
				op = rnd(2) ? KV_FIRST : KV_LAST;
			for (int i = 0; i < 2; i++) {
				key[i] = k;
				val[i] = v;
				rc[i] = kv_cursor_get(s[i].cur[c], &key[i],
				    &val[i], op);
			}
			bad = agree("cursor", seed, *step, rc, key, val);
			placed[c] = rc[0] == 0;
			break;
		case C_CURSOR_DEL:
			if (s[0].cur[c] == NULL || placed[c] != 1 ||
			    rnd(2) == 0)
				break;
			for (int i = 0; i < 2; i++)
				rc[i] = kv_cursor_del(s[i].cur[c]);
			bad = agree("cursor_del", seed, *step, rc, NULL, NULL);
			moved(s, placed, cur_tb, cur_tb[c], c, 1);
			placed[c] = 2;  /* moves on, but not deleted again */
			break;
		case C_CHILD:
			if (depth == DEPTH_MAX)
				break;
			close_cursors(s);
			for (int i = 0; i < 2; i++)
				rc[i] = s[i].be->txn_begin(s[i].ks,
				    s[i].txn[depth], 1, 0, &s[i].txn[depth + 1]);
			if ((bad = agree("child", seed, *step, rc, NULL,
			    NULL)) == 0)
				depth++;
			break;
		case C_END_CHILD:
			if (depth == 0)
				break;
			close_cursors(s);
			if (rnd(2))
				for (int i = 0; i < 2; i++)
					s[i].be->txn_abort(s[i].txn[depth]);
			else {
				for (int i = 0; i < 2; i++)
					rc[i] = s[i].be->txn_commit(
					    s[i].txn[depth]);
				bad = agree("child commit", seed, *step, rc,
				    NULL, NULL);
			}
			depth--;
			break;
		case C_CALLS:
			break;
		}
	}
	close_cursors(s);
	for (; depth > 0; depth--)
		for (int i = 0; i < 2; i++)
			s[i].be->txn_abort(s[i].txn[depth]);
	if (bad || rnd(4) == 0) {
		for (int i = 0; i < 2; i++)
			s[i].be->txn_abort(s[i].txn[0]);
		return bad;
	}
	for (int i = 0; i < 2; i++)
		rc[i] = s[i].be->txn_commit(s[i].txn[0]);
	return agree("commit", seed, *step, rc, NULL, NULL);
}

/* The random sequences on LMDB and on be, compared. */
static void
test_compare(const struct kv_backend *be)
{
	char name[32];
	int step;

	compared = be;
	for (int seed = 1; seed <= SEEDS; seed++) {
		struct side s[2] = { { .be = &kv_lmdb }, { .be = be } };

		snprintf(name, sizeof(name), "compare%d", seed);
		rng = 0x9e3779b97f4a7c15ULL * (uint64_t)seed;
		for (int i = 0; i < 2; i++) {
			OK(s[i].be->create(WHERE(s[i].be, name), &init));
			OK(s[i].be->open(WHERE(s[i].be, name), 0, &s[i].ks));
		}
		step = 0;
		for (int r = 0; r < ROUNDS && s[0].ks && s[1].ks; r++)
			if (round_run(s, seed, &step) != 0 ||
			    compare_all(s, seed, step) != 0)
				break;
		for (int i = 0; i < 2; i++) {
			if (s[i].ks != NULL)
				s[i].be->close(s[i].ks);
			rm_store(WHERE(s[i].be, name));
		}
	}
}

/* --- transactions between processes, on one backend ------------------ */

static struct kv_val
text(const char *s)
{
	struct kv_val v = { strlen(s), (void *)s };

	return v;
}

/* Put val under key in a transaction of its own on the store where. */
static int
put_one(const struct kv_backend *be, struct kv_store *ks, const char *key,
    const char *val)
{
	struct kv_val k = text(key), v = text(val);
	struct kv_txn *txn;
	int rc;

	if ((rc = be->txn_begin(ks, NULL, 1, 1000, &txn)) != 0)
		return rc;
	if ((rc = kv_put(txn, KV_RESV, &k, &v, 0)) != 0) {
		be->txn_abort(txn);
		return rc;
	}
	return be->txn_commit(txn);
}

static int
get_is(struct kv_txn *txn, const char *key, const char *want)
{
	struct kv_val k = text(key), v;
	int rc = kv_get(txn, KV_RESV, &k, &v);

	if (want == NULL)
		return rc == KV_NOTFOUND;
	return rc == 0 && v.size == strlen(want) &&
	    memcmp(v.data, want, v.size) == 0;
}

static long
ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 +
	    (t.tv_nsec - t0->tv_nsec) / 1000000;
}

/* A reader's transaction sees the store as it was when it began. */
static void
test_snapshot(const struct kv_backend *be)
{
	const char *where = WHERE(be, "snapshot");
	struct kv_store *reader, *writer;
	struct kv_txn *txn;

	OK(be->create(where, &init));
	OK(be->open(where, 0, &reader));
	OK(be->open(where, 0, &writer));
	OK(put_one(be, writer, "a", "1"));
	OK(be->txn_begin(reader, NULL, 0, 0, &txn));
	OK(put_one(be, writer, "a", "2"));
	OK(put_one(be, writer, "b", "3"));
	CHECK(get_is(txn, "a", "1") && get_is(txn, "b", NULL),
	    "%s: a reader sees a commit made after it began", be->name);
	be->txn_abort(txn);
	OK(be->txn_begin(reader, NULL, 0, 0, &txn));
	CHECK(get_is(txn, "a", "2") && get_is(txn, "b", "3"),
	    "%s: the next reader does not see the commits", be->name);
	be->txn_abort(txn);
	be->close(reader);
	be->close(writer);
	rm_store(where);
}

/*
 * A writer waits for the one before it: a child process holds the lock
 * for HOLD_MS; a writer waiting less gives up with AR_ETIMEDOUT after its
 * wait, one waiting longer gets it when the child commits, and sees what
 * the child wrote.
 */
#define HOLD_MS 600

static void
test_writers(const struct kv_backend *be)
{
	const char *where = WHERE(be, "writers");
	struct kv_store *ks, *other;
	struct kv_txn *txn;
	struct timespec t0;
	int ready[2], status, rc;
	long ms;
	pid_t pid;
	char c;

	OK(be->create(where, &init));
	if (pipe(ready) == -1) {
		CHECK(0, "pipe: %s", strerror(errno));
		return;
	}
	if ((pid = fork()) == 0) {
		struct kv_val k = text("w"), v = text("child");

		close(ready[0]);
		if (be->open(where, 0, &other) != 0 ||
		    be->txn_begin(other, NULL, 1, 1000, &txn) != 0 ||
		    kv_put(txn, KV_RESV, &k, &v, 0) != 0)
			_exit(1);
		(void)!write(ready[1], "x", 1);
		usleep(HOLD_MS * 1000);
		_exit(be->txn_commit(txn) != 0);
	}
	close(ready[1]);
	CHECK(read(ready[0], &c, 1) == 1, "%s: the child holds no lock",
	    be->name);
	close(ready[0]);
	OK(be->open(where, 0, &ks));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rc = be->txn_begin(ks, NULL, 1, 0, &txn);
	CHECK(rc == AR_ETIMEDOUT && ms_since(&t0) < HOLD_MS / 2,
	    "%s: no wait: %d after %ld ms", be->name, rc, ms_since(&t0));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rc = be->txn_begin(ks, NULL, 1, 100, &txn);
	ms = ms_since(&t0);
	CHECK(rc == AR_ETIMEDOUT && ms >= 100 && ms < HOLD_MS,
	    "%s: wait 100 ms: %d after %ld ms", be->name, rc, ms);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rc = be->txn_begin(ks, NULL, 1, 10000, &txn);
	ms = ms_since(&t0);
	CHECK(rc == 0 && ms >= HOLD_MS / 3 && ms < 5000,
	    "%s: wait 10 s: %d after %ld ms", be->name, rc, ms);
	if (rc == 0) {
		CHECK(get_is(txn, "w", "child"),
		    "%s: the writer after does not see the child's write",
		    be->name);
		be->txn_abort(txn);
	}
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	    WEXITSTATUS(status) == 0, "%s: the child failed", be->name);
	be->close(ks);
	rm_store(WHERE(&kv_lmdb, "writers"));
}

/* A store is made once. */
static void
test_create(const struct kv_backend *be)
{
	const char *where = WHERE(be, "twice");
	struct kv_store *ks;

	OK(be->create(where, &init));
	CHECK(be->create(where, &init) == EEXIST, "%s: made twice", be->name);
	CHECK(be->open(WHERE(be, "none"), 0, &ks) == AR_ENOSTORE,
	    "%s: a store that is not there opens", be->name);
	rm_store(where);
}

/*
 * A memory store is the process's: a second writer, which could only
 * wait for itself, gets AR_ETIMEDOUT at once whatever its wait, and
 * the lock's holder is this process; a read-only handle does not write.
 * A copy is a store of its own from the moment it is made, however the
 * original changes (and the other way round); a store is removed only
 * when no handle is open on it, and then it is gone.
 */
static void
test_memory(void)
{
	struct kv_store *a, *b, *ro;
	struct kv_txn *txn, *second, *reader;
	struct timespec t0;
	int rc;

	OK(kv_memory.create("mem:one", &init));
	OK(kv_memory.open("mem:one", 0, &a));
	OK(kv_memory.open("mem:one", AR_RDONLY, &ro));
	OK(put_one(&kv_memory, a, "a", "1"));
	OK(kv_memory.txn_begin(a, NULL, 1, 1000, &txn));
	CHECK(kv_memory.lock_holder(a) == (long)getpid(),
	    "memory: the writer is not this process: %ld",
	    kv_memory.lock_holder(a));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rc = kv_memory.txn_begin(ro, NULL, 1, 0, &second);
	CHECK(rc == EACCES, "memory: a read-only handle writes: %d", rc);
	rc = kv_memory.txn_begin(a, NULL, 1, 10000, &second);
	CHECK(rc == AR_ETIMEDOUT && ms_since(&t0) < 5000,
	    "memory: a second writer: %d after %ld ms", rc, ms_since(&t0));
	OK(kv_memory.txn_begin(ro, NULL, 0, 0, &reader));
	kv_memory.txn_abort(txn);
	CHECK(kv_memory.lock_holder(a) == 0, "memory: a writer after the "
	    "last one ended");

	/* The copy, then changes to each side. */
	OK(mem_copy("mem:one", "mem:two"));
	CHECK(mem_copy("mem:one", "mem:two") == EEXIST &&
	    mem_copy("mem:none", "mem:three") == AR_ENOSTORE &&
	    mem_copy("mem:one", "one") == EINVAL,
	    "memory: a copy over a store, of none, or to a directory");
	OK(kv_memory.open("mem:two", 0, &b));
	OK(put_one(&kv_memory, a, "a", "2"));
	OK(put_one(&kv_memory, b, "b", "3"));
	OK(kv_memory.txn_begin(b, NULL, 0, 0, &txn));
	CHECK(get_is(txn, "a", "1") && get_is(txn, "b", "3"),
	    "memory: the copy sees a change to the original, or not its own");
	kv_memory.txn_abort(txn);
	OK(kv_memory.txn_begin(a, NULL, 0, 0, &txn));
	CHECK(get_is(txn, "a", "2") && get_is(txn, "b", NULL),
	    "memory: the original sees a change to the copy");
	kv_memory.txn_abort(txn);
	CHECK(get_is(reader, "a", "1") && get_is(reader, "b", NULL),
	    "memory: a reader's snapshot changed");
	kv_memory.txn_abort(reader);

	CHECK(mem_remove("mem:one") == EBUSY, "memory: an open store removed");
	kv_memory.close(a);
	kv_memory.close(ro);
	kv_memory.close(b);
	OK(mem_remove("mem:one"));
	CHECK(kv_memory.open("mem:one", 0, &a) == AR_ENOSTORE &&
	    mem_remove("mem:one") == AR_ENOSTORE,
	    "memory: a removed store is there");
	OK(kv_memory.open("mem:two", 0, &b));
	OK(kv_memory.txn_begin(b, NULL, 0, 0, &txn));
	CHECK(get_is(txn, "a", "1") && get_is(txn, "b", "3"),
	    "memory: the copy lost its entries with the original");
	kv_memory.txn_abort(txn);
	kv_memory.close(b);
	OK(mem_remove("mem:two"));
}

/*
 * The clock a transaction reads is the system clock when it began (the
 * server here runs on this host), a child's its parent's; and the
 * session's role is told where there are roles: the tests' is a
 * superuser.
 */
static void
test_clock(const struct kv_backend *be)
{
	const char *where = WHERE(be, "clock");
	struct kv_store *ks;
	struct kv_txn *txn, *child;
	int64_t before, after, now, nested;
	uint32_t role = 0;
	int admin = 0;

	OK(be->create(where, &init));
	OK(be->open(where, 0, &ks));
	for (int write = 0; write <= 1; write++) {
		before = time(NULL);
		OK(be->txn_begin(ks, NULL, write, 1000, &txn));
		after = time(NULL);
		OK(be->clock(txn, &now));
		CHECK(now >= before && now <= after, "%s: %s transaction's "
		    "clock %lld not in %lld..%lld", be->name,
		    write ? "a write" : "a read", (long long)now,
		    (long long)before, (long long)after);
		if (write) {
			OK(be->txn_begin(ks, txn, 1, 0, &child));
			OK(be->clock(child, &nested));
			CHECK(nested == now, "%s: a child's clock %lld, its "
			    "parent's %lld", be->name, (long long)nested,
			    (long long)now);
			be->txn_abort(child);
		}
		be->txn_abort(txn);
	}
	if (be->role == NULL)
		CHECK(be == &kv_lmdb, "%s: no roles", be->name);
	else {
		OK(be->role(ks, &role, &admin));
		CHECK(role != 0 && admin, "%s: the tests' role %u, admin %d",
		    be->name, role, admin);
	}
	be->close(ks);
	rm_store(WHERE(&kv_lmdb, "clock"));
}

/* Stores in one database: their tables are their own. */
static void
test_two_stores(void)
{
	struct kv_store *a, *b;
	struct kv_txn *txn;
	uint64_t n = 0;

	OK(kv_postgresql.create(WHERE(&kv_postgresql, "one"), &init));
	OK(kv_postgresql.create(WHERE(&kv_postgresql, "two"), &init));
	OK(kv_postgresql.open(WHERE(&kv_postgresql, "one"), 0, &a));
	OK(kv_postgresql.open(WHERE(&kv_postgresql, "two"), 0, &b));
	OK(put_one(&kv_postgresql, a, "x", "in one"));
	/* Writers of different stores do not wait for each other. */
	OK(kv_postgresql.txn_begin(a, NULL, 1, 0, &txn));
	OK(put_one(&kv_postgresql, b, "y", "in two"));
	kv_postgresql.txn_abort(txn);
	OK(kv_postgresql.txn_begin(b, NULL, 0, 0, &txn));
	CHECK(get_is(txn, "x", NULL) && get_is(txn, "y", "in two"),
	    "two stores see each other's entries");
	OK(kv_count(txn, KV_RESV, &n));
	CHECK(n == 1, "store two counts %llu entries", (unsigned long long)n);
	kv_postgresql.txn_abort(txn);
	/* No map to grow: ar_grow on such a store succeeds. */
	CHECK(kv_postgresql.grow(a, 1 << 20) == 0, "growing fails");
	kv_postgresql.close(a);
	kv_postgresql.close(b);
	CHECK(kv_postgresql.open(WHERE(&kv_postgresql, "bad/name"), 0, &a) ==
	    AR_EWHERE, "a store name with '/' is taken");
}

/*
 * A connection that breaks between transactions is made again at the
 * next one; a server that cannot be reached is AR_ESERVER, and its
 * message says what libpq said.
 */
static void
test_reconnect(void)
{
	char name[128], sql[256];
	struct kv_store *ks;
	struct kv_txn *txn;
	struct kv_val kv;
	PGconn *conn;
	PGresult *res;
	int rc;

	/* The store's connection is told apart by its application_name. */
	snprintf(name, sizeof(name), "reconnect&application_name=%sreconnect",
	    pg_prefix);
	OK(kv_postgresql.create(WHERE(&kv_postgresql, name), &init));
	OK(kv_postgresql.open(WHERE(&kv_postgresql, name), 0, &ks));
	OK(put_one(&kv_postgresql, ks, "r", "before"));
	conn = pq.PQconnectdb(pg_server);
	snprintf(sql, sizeof(sql), "SELECT pg_terminate_backend(pid) FROM "
	    "pg_stat_activity WHERE application_name = '%sreconnect'",
	    pg_prefix);
	res = pq.PQexec(conn, sql);
	CHECK(pq.PQresultStatus(res) == PGRES_TUPLES_OK &&
	    pq.PQntuples(res) == 1, "the store's connection was not ended");
	pq.PQclear(res);
	pq.PQfinish(conn);
	OK(put_one(&kv_postgresql, ks, "r", "after"));
	/* A put is sent ahead of its result; the connection breaks. */
	OK(kv_postgresql.txn_begin(ks, NULL, 1, 1000, &txn));
	kv = text("lost");
	OK(kv_put(txn, KV_RESV, &kv, &kv, 0));
	conn = pq.PQconnectdb(pg_server);
	pq.PQclear(pq.PQexec(conn, sql));
	pq.PQfinish(conn);
	rc = kv_postgresql.txn_commit(txn);
	CHECK(rc == AR_ESERVER, "a commit on a lost connection: %d", rc);
	OK(kv_postgresql.txn_begin(ks, NULL, 0, 0, &txn));
	CHECK(get_is(txn, "r", "after") && get_is(txn, "lost", NULL),
	    "the write after reconnecting is lost, or one not committed is "
	    "there");
	kv_postgresql.txn_abort(txn);
	kv_postgresql.close(ks);

	rc = kv_postgresql.open("postgresql:///nodb?host=/nonexistent&store=x",
	    0, &ks);
	CHECK(rc == AR_ESERVER && strncmp(kv_postgresql.strerror(rc),
	    "PostgreSQL: ", 12) == 0, "no server: %d %s", rc,
	    kv_postgresql.strerror(rc));
}

/*
 * A put that fails on the server is told at the next call or at the
 * commit, which fails: here the store is removed under its writer.
 */
static void
test_put_fails(void)
{
	const char *where = WHERE(&kv_postgresql, "removed");
	struct kv_val k = text("k");
	struct kv_store *ks;
	struct kv_txn *txn;
	char sql[256];
	PGconn *conn;
	int rc;

	OK(kv_postgresql.create(where, &init));
	OK(kv_postgresql.open(where, 0, &ks));
	OK(kv_postgresql.txn_begin(ks, NULL, 1, 1000, &txn));
	conn = pq.PQconnectdb(pg_server);
	snprintf(sql, sizeof(sql), "DELETE FROM ar_store WHERE name = "
	    "'%sremoved'", pg_prefix);
	pq.PQclear(pq.PQexec(conn, sql));
	pq.PQfinish(conn);
	OK(kv_put(txn, KV_RESV, &k, &k, 0));
	rc = kv_postgresql.txn_commit(txn);
	CHECK(rc == AR_ESERVER, "a commit after a failed put: %d", rc);
	OK(kv_postgresql.txn_begin(ks, NULL, 1, 1000, &txn));
	OK(kv_put(txn, KV_RESV, &k, &k, 0));
	/* (A get of k itself is answered by what the put left.) */
	k = text("other");
	rc = kv_get(txn, KV_RESV, &k, &k);
	CHECK(rc == AR_ESERVER, "a get after a failed put: %d", rc);
	kv_postgresql.txn_abort(txn);
	kv_postgresql.close(ks);
}

/* The process's resident memory, in bytes. */
static long long
resident(void)
{
	long long size = 0, pages = 0;
	FILE *f;

	if ((f = fopen("/proc/self/statm", "r")) == NULL)
		return 0;
	if (fscanf(f, "%lld %lld", &size, &pages) != 2)
		pages = 0;
	fclose(f);
	return pages * sysconf(_SC_PAGESIZE);
}

#define SCAN_ENTRIES 50000
#define SCAN_GROWTH_MAX (64LL << 20)

/* Entry i of the long scan: an 8-byte key, a 100-byte value. */
static void
scan_entry(uint32_t i, unsigned char *key, unsigned char *val)
{
	for (int b = 0; b < 8; b++)
		key[b] = (unsigned char)(b < 4 ? 0 : i >> (8 * (7 - b)));
	memset(val, (int)(i % 251), 100);
	memcpy(val, key, 8);
}

/*
 * A transaction that reads much with cursors does not keep what it
 * read: one exact lookup per entry, then a walk over all of them, in one
 * read transaction, leave the process's memory about as it was.
 */
static void
test_long_scan(void)
{
	unsigned char kb[8], vb[100], want[100];
	struct kv_val k = { 8, kb }, v = { 100, vb };
	struct kv_store *ks;
	struct kv_txn *txn;
	struct kv_cursor *cur;
	long long before, after;
	uint32_t i, bad = 0, seen = 0;
	int rc;

	OK(kv_postgresql.create(WHERE(&kv_postgresql, "scan"), &init));
	OK(kv_postgresql.open(WHERE(&kv_postgresql, "scan"), 0, &ks));
	OK(kv_postgresql.txn_begin(ks, NULL, 1, 1000, &txn));
	for (i = 0; i < SCAN_ENTRIES; i++) {
		scan_entry(i, kb, vb);
		OK(kv_put(txn, KV_RESV, &k, &v, KV_APPEND));
	}
	OK(kv_postgresql.txn_commit(txn));

	before = resident();
	OK(kv_postgresql.txn_begin(ks, NULL, 0, 0, &txn));
	OK(kv_cursor_open(txn, KV_RESV, &cur));
	for (i = 0; i < SCAN_ENTRIES; i++) {
		scan_entry(i, kb, want);
		k.size = 8;
		k.data = kb;
		if ((rc = kv_cursor_get(cur, &k, &v, KV_SET_KEY)) != 0 ||
		    v.size != 100 || memcmp(v.data, want, 100) != 0)
			bad++;
	}
	CHECK(bad == 0, "%u of %u lookups failed", bad, SCAN_ENTRIES);
	bad = 0;
	for (rc = kv_cursor_get(cur, &k, &v, KV_FIRST); rc == 0;
	    rc = kv_cursor_get(cur, &k, &v, KV_NEXT), seen++) {
		scan_entry(seen, kb, want);
		if (k.size != 8 || memcmp(k.data, kb, 8) != 0 ||
		    v.size != 100 || memcmp(v.data, want, 100) != 0)
			bad++;
	}
	CHECK(rc == KV_NOTFOUND && seen == SCAN_ENTRIES && bad == 0,
	    "the walk: %d after %u entries, %u wrong", rc, seen, bad);
	after = resident();
	kv_cursor_close(cur);
	kv_postgresql.txn_abort(txn);
	kv_postgresql.close(ks);
	printf("long scan: %u lookups and a walk over %u entries grew the "
	    "process by %lld KiB\n", SCAN_ENTRIES, seen,
	    (after - before) / 1024);
	CHECK(after - before < SCAN_GROWTH_MAX, "the process grew by %lld "
	    "KiB", (after - before) / 1024);
}

/* Remove this run's stores from the database. */
static void
pg_cleanup(void)
{
	char sql[256];
	PGconn *conn;

	if (pq_load() != 0)
		return;
	conn = pq.PQconnectdb(pg_server);
	if (pq.PQstatus(conn) == CONNECTION_OK) {
		snprintf(sql, sizeof(sql), "DELETE FROM ar_store WHERE name "
		    "LIKE '%s%%'", pg_prefix);
		pq.PQclear(pq.PQexec(conn, sql));
	}
	pq.PQfinish(conn);
}

int
main(void)
{
	if (suite_begin() != 0)
		return 1;
	test_snapshot(&kv_lmdb);
	test_writers(&kv_lmdb);
	test_create(&kv_lmdb);
	test_clock(&kv_lmdb);
	test_compare(&kv_memory);
	test_snapshot(&kv_memory);
	test_create(&kv_memory);
	test_memory();
	if ((pg_server = getenv("AR_TEST_PG")) == NULL || *pg_server == '\0')
		printf("AR_TEST_PG is not set: the PostgreSQL backend is not "
		    "tested\n");
	else {
		snprintf(pg_prefix, sizeof(pg_prefix), "kvtest-%ld-",
		    (long)getpid());
		test_compare(&kv_postgresql);
		test_snapshot(&kv_postgresql);
		test_writers(&kv_postgresql);
		test_create(&kv_postgresql);
		test_clock(&kv_postgresql);
		test_two_stores();
		test_reconnect();
		test_put_fails();
		test_long_scan();
		pg_cleanup();
	}
	return suite_end();
}
