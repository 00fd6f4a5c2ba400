/*
 * test_lib.c - unit tests of the store and a model test: thousands of
 * random operations checked against a brute-force count of every slot,
 * across many laps of the ring.  Seeded explicitly; never the clock.
 */
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <lmdb.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ar.h"
#include "check.h"
#include "helpers.h"
#include "internal.h"           /* the ring as an object: test_rings */
#include "model.h"

#define SUITE "test"
#include "suite.h"

static void
test_create_open(void)
{
	struct ar_config cfg;
	struct ar_info info;
	struct stat st;
	ar_store *s;
	ar_txn *t;
	const char *dir = store_path("open");

	ar_config_default(&cfg);
	cfg.flags = AR_SIMULATED;
	CHECK(ar_open(dir, 0, &s) == AR_ENOSTORE, "missing store opens");
	CHECK(stat(dir, &st) == -1 && errno == ENOENT,
	    "opening a missing store created something");
	OK(ar_create(dir, &cfg, T0));
	OK(ar_create(dir, &cfg, T0));
	cfg.nodes = 65;
	CHECK(ar_create(dir, &cfg, T0) == AR_EEXIST, "other config accepted");
	cfg.nodes = 64;
	cfg.slot = 7 * 60;
	CHECK(ar_create(store_path("bad"), &cfg, T0) == EINVAL,
	    "slot that does not divide the horizon accepted");
	cfg.slot = 300;
	cfg.nodes = 0;
	CHECK(ar_create(store_path("bad"), &cfg, T0) == EINVAL,
	    "zero nodes accepted");
	OK(ar_open(dir, AR_RDONLY, &s));
	OK(ar_txn_begin(s, 0, T0 - 3600, &t));
	OK(ar_info(t, &info));
	CHECK(info.config.nodes == 64 && info.config.slot == 300 &&
	    info.config.horizon == 30 * 86400 && info.next_id == 1 &&
	    info.clock == T0 && info.format == AR_FORMAT_VERSION,
	    "info of a new store");
	ar_txn_abort(t);
	CHECK(ar_txn_begin(s, AR_WRITE, T0, &t) == EACCES,
	    "write transaction on a read-only handle");
	ar_close(s);
	rm_store(dir);
}

static void
test_basic(void)
{
	struct ar_config cfg;
	struct ar_answer a, alts[4];
	struct ar_request rq;
	struct ar_resv r;
	uint64_t bad, ids[4];
	size_t n;
	uint32_t nfree;
	ar_store *s;
	ar_txn *t;
	const char *dir = store_path("basic");

	ar_config_default(&cfg);
	cfg.flags = AR_SIMULATED;
	cfg.nodes = 10;
	OK(ar_create(dir, &cfg, T0));
	OK(ar_open(dir, 0, &s));
	OK(ar_txn_begin(s, AR_WRITE, T0, &t));

	/* Rounding: 00:03 starts at 00:05, 7 minutes take two slots. */
	rq = request(T0 + 180, 420, 4);
	rq.user = "alice";
	rq.job = "j1";
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_GRANTED && a.id == 1 && a.start == T0 + 300 &&
	    a.end == T0 + 900 && a.free == 10, "rounded grant");
	/* Half-open: a reservation may start where the other ends. */
	rq = request(T0 + 900, 300, 10);
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_GRANTED && a.id == 2, "back to back");
	rq = request(T0 + 600, 300, 7);
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_REFUSED && a.reason == AR_R_FULL && a.free == 6,
	    "overbooking refused: status %d free %u", a.status, a.free);
	rq = request(T0 - 1, 300, 1);
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_REFUSED && a.reason == AR_R_PAST, "past");
	rq = request(T0 + 30 * 86400 - 300, 600, 1);
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_REFUSED && a.reason == AR_R_HORIZON, "horizon");
	rq = request(T0 + 30 * 86400 - 300, 300, 1);
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_GRANTED, "last slot of the horizon");
	rq = request(T0, 300, 11);
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_REFUSED && a.reason == AR_R_CAPACITY, "capacity");
	rq = request(T0, 0, 1);
	CHECK(ar_add(t, &rq, &a) == EINVAL, "zero duration");

	/* Search and suggest see the same ring. */
	rq = request(T0 + 300, 900, 7);
	OK(ar_search(t, &rq, &a));
	CHECK(a.status == AR_UNAVAILABLE && a.free == 0, "search full");
	OK(ar_suggest(t, &rq, 12 * 3600, alts, 4, &n));
	CHECK(n == 1 && alts[0].start == T0 + 1200, "suggest after the full "
	    "slot: n %zu start %" PRId64, n, alts[0].start - T0);
	OK(ar_free(t, T0 + 300, T0 + 600, &nfree));
	CHECK(nfree == 6, "free count");

	/* Windows: first fit inside [earliest, latest]. */
	rq = request(T0 + 300, 300, 8);
	rq.latest = T0 + 1800;
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_GRANTED && a.start == T0 + 1200, "first fit");

	OK(ar_find(t, "alice", "j1", ids, 4, &n));
	CHECK(n == 1 && ids[0] == 1, "find by label");
	CHECK(ar_cancel(t, 1, 1001, &r) == AR_EPERM, "other uid cancels");
	OK(ar_cancel(t, 1, 1000, &r));
	CHECK(r.state == AR_CANCELLED, "cancelled");
	CHECK(ar_cancel(t, 1, 0, &r) == AR_EDONE, "cancel twice");
	CHECK(ar_cancel(t, 99, 0, &r) == AR_ENOTFOUND, "cancel unknown");
	OK(ar_find(t, "alice", "j1", ids, 4, &n));
	CHECK(n == 0, "cancelled reservation still found by label");
	OK(ar_check(t, say_violation, NULL, &bad));
	CHECK(bad == 0, "%" PRIu64 " violations", bad);
	OK(ar_txn_commit(t));

	/* Later, everything before the clock is purged into history. */
	OK(ar_txn_begin(s, AR_WRITE, T0 + 3600, &t));
	OK(ar_purge(t, NULL, NULL));
	OK(ar_get(t, 2, &r));
	CHECK(r.state == AR_FINISHED, "purged: state %d", r.state);
	OK(ar_check(t, say_violation, NULL, &bad));
	CHECK(bad == 0, "%" PRIu64 " violations after purge", bad);
	OK(ar_txn_commit(t));
	/* The clock never runs back: an earlier now is the store's clock. */
	OK(ar_txn_begin(s, 0, T0, &t));
	CHECK(ar_txn_now(t) == T0 + 3600, "clock ran back");
	ar_txn_abort(t);
	ar_close(s);
	rm_store(dir);
}

static int
count_state(const struct ar_resv *r, void *arg)
{
	int *counts = arg;

	counts[r->state]++;
	return 0;
}

/*
 * A reservation that ended by the clock is finished, purged or not: read
 * as such, not found by its labels, not live; cancelling it is AR_EDONE;
 * the invariants hold before and after the purge.
 */
/* A new simulated store of the default shape in dir, its clock at T0,
 * open. */
static ar_store *
simulated(const char *dir)
{
	struct ar_config cfg;
	ar_store *s = NULL;

	ar_config_default(&cfg);
	cfg.flags = AR_SIMULATED;
	OK(ar_create(dir, &cfg, T0));
	OK(ar_open(dir, 0, &s));
	return s;
}

static void
test_ended(void)
{
	struct ar_answer a;
	struct ar_request rq;
	struct ar_resv r;
	uint64_t bad, ids[4];
	size_t n;
	int counts[AR_FINISHED + 1];
	ar_store *s;
	ar_txn *t;
	const char *dir = store_path("ended");

	s = simulated(dir);
	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	rq = request(T0 + 300, 300, 1);
	rq.user = "u";
	rq.job = "j";
	OK(ar_add(t, &rq, &a));
	rq.earliest = rq.latest = T0 + 3000;
	OK(ar_add(t, &rq, &a));
	OK(ar_txn_commit(t));

	OK(ar_txn_begin(s, 0, T0 + 600, &t));
	OK(ar_get(t, 1, &r));
	CHECK(r.state == AR_FINISHED && r.changed == T0 + 600,
	    "ended, not purged: state %d changed %" PRId64, r.state,
	    r.changed - T0);
	OK(ar_get(t, 2, &r));
	CHECK(r.state == AR_GRANTED, "not ended: state %d", r.state);
	OK(ar_find(t, "u", "j", ids, 4, &n));
	CHECK(n == 1 && ids[0] == 2, "find: %zu, first %" PRIu64, n, ids[0]);
	memset(counts, 0, sizeof(counts));
	OK(ar_list(t, 0, count_state, counts));
	CHECK(counts[AR_FINISHED] == 1 && counts[AR_GRANTED] == 1,
	    "list: %d finished, %d granted", counts[AR_FINISHED],
	    counts[AR_GRANTED]);
	memset(counts, 0, sizeof(counts));
	OK(ar_list(t, AR_LIVE, count_state, counts));
	CHECK(counts[AR_GRANTED] == 1 && counts[AR_FINISHED] == 0,
	    "live list: %d granted", counts[AR_GRANTED]);
	OK(ar_check(t, say_violation, NULL, &bad));
	CHECK(bad == 0, "%" PRIu64 " violations before the purge", bad);
	ar_txn_abort(t);

	OK(ar_txn_begin(s, AR_WRITE, T0 + 600, &t));
	CHECK(ar_cancel(t, 1, 0, &r) == AR_EDONE, "cancel an ended one");
	OK(ar_purge(t, NULL, NULL));
	OK(ar_get(t, 1, &r));
	CHECK(r.state == AR_FINISHED, "purged: state %d", r.state);
	OK(ar_check(t, say_violation, NULL, &bad));
	CHECK(bad == 0, "%" PRIu64 " violations after the purge", bad);
	OK(ar_txn_commit(t));
	ar_close(s);
	rm_store(dir);
}

/* The number of reservations ever made: ids are never reused. */
static uint64_t
booked(ar_txn *t)
{
	struct ar_info info;

	return ar_info(t, &info) == 0 ? info.next_id - 1 : 0;
}

/*
 * Moldable requests: the order levels are tried in, and the malformed
 * ones (EINVAL, nothing booked) that the model test never makes.
 */
static void
test_moldable(void)
{
	struct ar_level order[] = { { 8, 3, 0 }, { 16, 6, 0 }, { 4, 6, 0 },
	    { 32, 1, 0 } };
	struct ar_level two[] = { { 8, 3, 0 }, { 8, 6, 0 } },
	    zero[] = { { 0, 1, 0 } };
	struct ar_level nine[AR_LEVELS_MAX + 1],
	    ok[] = { { 65, 9, 0 }, { 2, 1, 0 } };
	/* Levels on copies: of equal benefits the larger in all first;
	 * all on copies or none, each at most AR_JOBS_MAX, distinct. */
	struct ar_level copies[] = { { 2, 5, 1 }, { 1, 5, 3 }, { 1, 7, 1 } },
	    mixed[] = { { 2, 1, 2 }, { 1, 1, 0 } },
	    many[] = { { 1, 1, AR_JOBS_MAX + 1 } },
	    twice[] = { { 1, 1, 2 }, { 1, 3, 2 } };
	struct ar_answer a;
	struct ar_request rq;
	struct ar_repeat rep = { 3600, 2, 0 };
	uint32_t host = 0;
	ar_store *s;
	ar_txn *t;
	const char *dir = store_path("moldable");

	ar_levels_order(order, 4);
	CHECK(order[0].nodes == 16 && order[1].nodes == 4 &&
	    order[2].nodes == 8 && order[3].nodes == 32, "order: %u %u %u %u",
	    order[0].nodes, order[1].nodes, order[2].nodes, order[3].nodes);
	ar_levels_order(copies, 3);
	CHECK(copies[0].benefit == 7 && copies[1].jobs == 3 &&
	    copies[2].nodes == 2, "order on copies: %u:%u %u:%u %u:%u",
	    copies[0].nodes, copies[0].jobs, copies[1].nodes, copies[1].jobs,
	    copies[2].nodes, copies[2].jobs);
	for (uint32_t i = 0; i <= AR_LEVELS_MAX; i++)
		nine[i] = (struct ar_level){ i + 1, 1, 0 };
	s = simulated(dir);
	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	rq = request(T0 + 300, 300, 1);
	rq.levels = two;
	rq.nlevels = 2;
	CHECK(ar_add(t, &rq, &a) == EINVAL, "two levels of 8 nodes");
	rq.levels = zero;
	rq.nlevels = 1;
	CHECK(ar_search(t, &rq, &a) == EINVAL, "a level of 0 nodes");
	rq.levels = nine;
	rq.nlevels = AR_LEVELS_MAX + 1;
	CHECK(ar_add(t, &rq, &a) == EINVAL, "too many levels");
	rq.levels = mixed;
	rq.nlevels = 2;
	CHECK(ar_add(t, &rq, &a) == EINVAL, "levels on copies and not");
	rq.levels = many;
	rq.nlevels = 1;
	CHECK(ar_add(t, &rq, &a) == EINVAL, "a level of too many copies");
	rq.levels = twice;
	rq.nlevels = 2;
	CHECK(ar_search(t, &rq, &a) == EINVAL, "two levels of 2 copies");
	rq.levels = ok;
	rq.nlevels = 2;
	CHECK(ar_add_series(t, &rq, &rep, &a) == EINVAL, "a moldable series");
	CHECK(ar_longest(t, &rq, &a) == EINVAL, "longest of a moldable one");
	rq.flags = AR_PARTIAL;
	CHECK(ar_add(t, &rq, &a) == EINVAL, "moldable and partial");
	rq.flags = 0;
	rq.hosts = &host;
	rq.nhosts = 1;
	CHECK(ar_add(t, &rq, &a) == EINVAL, "moldable with hosts");
	rq.hosts = NULL;
	rq.nhosts = 0;
	CHECK(booked(t) == 0, "%" PRIu64 " booked by malformed requests",
	    booked(t));
	/* A level bigger than the store is refused for capacity: the next. */
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_GRANTED && a.nodes == 2 && a.benefit == 1,
	    "granted %d: %u nodes, benefit %u", a.status, a.nodes, a.benefit);
	OK(ar_txn_commit(t));
	ar_close(s);
	rm_store(dir);
}

/*
 * Client keys: a request whose key was granted before books nothing and
 * is answered with what was granted, as it is now; the same key with
 * another request is refused; keys are per owner, and a refusal records
 * none.
 */
static void
test_client_key(void)
{
	struct ar_config cfg;
	const struct ar_placed *g, *mv;
	struct ar_answer a;
	struct ar_request rq, big;
	struct ar_resv r;
	char longkey[AR_CLIENT_KEY_MAX + 2];
	uint64_t bad, ids[3];
	size_t ng, nm;
	ar_store *s;
	ar_txn *t;
	const char *dir = store_path("keys");

	ar_config_default(&cfg);
	cfg.flags = AR_SIMULATED;
	cfg.nodes = 10;
	OK(ar_create(dir, &cfg, T0));
	OK(ar_open(dir, 0, &s));
	OK(ar_txn_begin(s, AR_WRITE, T0, &t));

	rq = request(T0 + 3600, 3600, 2);
	rq.client_key = "batch-7/line-1";
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_GRANTED && a.id == 1 && !a.replayed, "keyed grant");
	OK(ar_get(t, 1, &r));
	CHECK(strcmp(r.client_key, "batch-7/line-1") == 0, "the record has "
	    "key '%s'", r.client_key);
	/* The retry asks for a later start, relative to a later clock. */
	rq.earliest = rq.latest = T0 + 3900;
	OK(ar_add(t, &rq, &a));
	ar_added(t, &g, &ng, &mv, &nm);
	CHECK(a.status == AR_GRANTED && a.replayed && a.id == 1 &&
	    a.start == T0 + 3600 && a.end == T0 + 7200 && ng == 1 &&
	    g[0].id == 1 && g[0].start == T0 + 3600 && nm == 0,
	    "replay: status %d replayed %d id %" PRIu64 " ng %zu", a.status,
	    a.replayed, a.id, ng);
	CHECK(booked(t) == 1, "a replay booked: %" PRIu64, booked(t));

	/* Parametric: every copy comes back, in order. */
	rq = request(T0 + 600, 1800, 3);
	rq.jobs = 3;
	rq.client_key = "param";
	OK(ar_add(t, &rq, &a));
	ar_added(t, &g, &ng, &mv, &nm);
	CHECK(a.status == AR_GRANTED && ng == 3, "parametric grant");
	for (size_t i = 0; i < 3 && i < ng; i++)
		ids[i] = g[i].id;
	OK(ar_add(t, &rq, &a));
	ar_added(t, &g, &ng, &mv, &nm);
	CHECK(a.replayed && a.id == ids[0] && ng == 3 && g[0].id == ids[0] &&
	    g[1].id == ids[1] && g[2].id == ids[2], "parametric replay: "
	    "%zu copies", ng);
	CHECK(booked(t) == 4, "a parametric replay booked");

	/* Another request under a key taken: refused, nothing booked. */
	rq = request(T0 + 3600, 3600, 3);
	rq.client_key = "batch-7/line-1";
	OK(ar_add(t, &rq, &a));
	ar_added(t, &g, &ng, &mv, &nm);
	CHECK(a.status == AR_REFUSED && a.reason == AR_R_KEY && a.id == 1 &&
	    !a.replayed && ng == 0, "other nodes: status %d reason %d",
	    a.status, a.reason);
	rq = request(T0 + 3600, 3000, 2);
	rq.client_key = "batch-7/line-1";
	OK(ar_add(t, &rq, &a));
	CHECK(a.reason == AR_R_KEY, "other duration: reason %d", a.reason);
	rq = request(T0 + 600, 1800, 3);
	rq.jobs = 2;
	rq.client_key = "param";
	OK(ar_add(t, &rq, &a));
	CHECK(a.reason == AR_R_KEY && a.id == ids[0], "other jobs: reason %d",
	    a.reason);
	CHECK(booked(t) == 4, "a refused key booked");

	/* Keys are per owner. */
	rq = request(T0 + 3600, 3600, 2);
	rq.client_key = "batch-7/line-1";
	rq.owner = 1001;
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_GRANTED && !a.replayed && a.id == 5,
	    "another owner's key: status %d id %" PRIu64, a.status, a.id);

	/* A refusal records no key: the retry is tried again. */
	big = request(T0 + 600, 600, 10);
	big.client_key = "big";
	OK(ar_add(t, &big, &a));
	CHECK(a.status == AR_REFUSED && a.reason == AR_R_FULL, "full");
	OK(ar_cancel(t, ids[0], 1000, &r));
	OK(ar_cancel(t, ids[1], 1000, &r));
	OK(ar_cancel(t, ids[2], 1000, &r));
	OK(ar_add(t, &big, &a));
	CHECK(a.status == AR_GRANTED && !a.replayed && a.id == 6,
	    "a refused key retried: status %d id %" PRIu64, a.status, a.id);

	/* Cancelled since: answered as it is, not booked again. */
	rq = request(T0 + 600, 1800, 3);
	rq.jobs = 3;
	rq.client_key = "param";
	OK(ar_add(t, &rq, &a));
	ar_added(t, &g, &ng, &mv, &nm);
	CHECK(a.replayed && a.status == AR_CANCELLED && a.id == ids[0] &&
	    ng == 3, "replay of a cancelled one: status %d", a.status);
	CHECK(booked(t) == 6, "a cancelled key booked again");

	memset(longkey, 'k', sizeof(longkey) - 1);
	longkey[sizeof(longkey) - 1] = '\0';
	rq = request(T0 + 7200, 600, 1);
	rq.client_key = longkey;
	CHECK(ar_add(t, &rq, &a) == EINVAL, "a key too long");
	longkey[AR_CLIENT_KEY_MAX] = '\0';
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_GRANTED && !a.replayed, "the longest key");
	OK(ar_check(t, say_violation, NULL, &bad));
	CHECK(bad == 0, "%" PRIu64 " violations with keys", bad);
	OK(ar_txn_commit(t));

	/* Hours later, purged: the retry of a start now past is replayed,
	 * finished, not refused as past. */
	OK(ar_txn_begin(s, AR_WRITE, T0 + 3 * 3600, &t));
	OK(ar_purge(t, NULL, NULL));
	rq = request(T0 + 3600, 3600, 2);
	rq.client_key = "batch-7/line-1";
	OK(ar_add(t, &rq, &a));
	CHECK(a.replayed && a.status == AR_FINISHED && a.id == 1 &&
	    a.reason == AR_R_NONE,
	    "replay of a finished one: status %d reason %d", a.status,
	    a.reason);
	OK(ar_check(t, say_violation, NULL, &bad));
	CHECK(bad == 0, "%" PRIu64 " violations after purging keyed ones", bad);
	CHECK(booked(t) == 7, "booked after the purge: %" PRIu64, booked(t));
	OK(ar_txn_commit(t));
	ar_close(s);
	rm_store(dir);
}

/* A write transaction on the store in dir, bypassing the library. */
static int
raw_begin(const char *dir, MDB_env **env, MDB_txn **txn)
{
	int rc;

	if ((rc = mdb_env_create(env)) != 0)
		return rc;
	if ((rc = mdb_env_set_maxdbs(*env, 16)) != 0 ||
	    (rc = mdb_env_open(*env, dir, 0, 0660)) != 0 ||
	    (rc = mdb_txn_begin(*env, NULL, 0, txn)) != 0)
		mdb_env_close(*env);
	return rc;
}

/* End it: commit if rc is 0, else abort; rc or the commit's error. */
static int
raw_end(MDB_env *env, MDB_txn *txn, int rc)
{
	if (rc == 0)
		rc = mdb_txn_commit(txn);
	else
		mdb_txn_abort(txn);
	mdb_env_close(env);
	return rc;
}

/*
 * Set the format in meta, and with drop 1 delete the key index, with 0
 * empty it.  Format 3 as it was is meta saying 3 and no key index, made
 * from a store of this format whose records carry no key (in format 3
 * their key length was a spare field, 0).
 */
static int
set_format(const char *dir, uint32_t format, int drop)
{
	MDB_env *env;
	MDB_txn *txn;
	MDB_dbi meta, keys;
	MDB_val k = { 4, "meta" }, v;
	unsigned char m[256];
	int rc;

	if ((rc = raw_begin(dir, &env, &txn)) != 0)
		return rc;
	if ((rc = mdb_dbi_open(txn, "meta", 0, &meta)) == 0 &&
	    (rc = mdb_get(txn, meta, &k, &v)) == 0 && v.mv_size <= sizeof(m)) {
		memcpy(m, v.mv_data, v.mv_size);
		memcpy(m + 4, &format, 4);
		v.mv_data = m;
		rc = mdb_put(txn, meta, &k, &v, 0);
	}
	if (rc == 0 && drop >= 0 &&
	    (rc = mdb_dbi_open(txn, "keys", 0, &keys)) == 0)
		rc = mdb_drop(txn, keys, drop);
	return raw_end(env, txn, rc);
}

/* Does the store in dir have a key index? */
static int
has_keys(const char *dir)
{
	MDB_env *env;
	MDB_txn *txn;
	MDB_dbi keys;
	int rc = -1;

	if (mdb_env_create(&env) != 0)
		return -1;
	if (mdb_env_set_maxdbs(env, 8) == 0 &&
	    mdb_env_open(env, dir, MDB_RDONLY, 0660) == 0 &&
	    mdb_txn_begin(env, NULL, MDB_RDONLY, &txn) == 0) {
		rc = mdb_dbi_open(txn, "keys", 0, &keys) == 0;
		mdb_txn_abort(txn);
	}
	mdb_env_close(env);
	return rc;
}

static void
test_upgrade(void)
{
	struct ar_config cfg;
	struct ar_info before, after;
	struct ar_answer a;
	struct ar_request rq;
	struct ar_resv r;
	uint64_t bad;
	ar_store *s;
	ar_txn *t;
	char lock[4200];
	int from, fd;
	const char *dir = store_path("v3");

	ar_config_default(&cfg);
	cfg.flags = AR_SIMULATED;
	cfg.nodes = 10;
	OK(ar_create(dir, &cfg, T0));
	OK(ar_open(dir, 0, &s));
	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	rq = request(T0 + 600, 1800, 3);
	rq.user = "alice";
	rq.job = "old";
	rq.latest = T0 + 3600;
	OK(ar_add(t, &rq, &a));
	rq.jobs = 2;
	OK(ar_add(t, &rq, &a));
	OK(ar_cancel(t, 3, 1000, &r));
	OK(ar_info(t, &before));
	OK(ar_txn_commit(t));
	ar_close(s);
	OK(set_format(dir, 3, 1));
	CHECK(has_keys(dir) == 0, "the format 3 store has a key index");

	CHECK(ar_open(dir, 0, &s) == AR_EUPGRADE, "format 3 opens");
	CHECK(ar_open(dir, AR_RDONLY, &s) == AR_EUPGRADE, "format 3 opens "
	    "read-only");
	CHECK(ar_create(dir, &cfg, T0) == AR_EUPGRADE, "format 3 created over");
	CHECK(has_keys(dir) == 0, "refusing the store gave it a key index");
	/* The upgrade waits for the writer lock, no longer than it is told. */
	snprintf(lock, sizeof(lock), "%s/writer.lock", dir);
	fd = open(lock, O_RDWR | O_CREAT, 0660);
	CHECK(fd != -1 && flock(fd, LOCK_EX) == 0, "lock: %s", strerror(errno));
	CHECK(ar_upgrade(dir, AR_SIMULATED, 50, &from) == AR_ETIMEDOUT,
	    "upgraded under another writer's lock");
	close(fd);
	CHECK(has_keys(dir) == 0, "a timed out upgrade changed the store");

	OK(ar_upgrade(dir, AR_SIMULATED, 0, &from));
	CHECK(from == 3, "upgraded from %d", from);
	CHECK(has_keys(dir) == 1, "the upgrade made no key index");
	OK(ar_open(dir, 0, &s));
	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	OK(ar_info(t, &after));
	CHECK(after.format == AR_FORMAT_VERSION && after.next_id ==
	    before.next_id && after.live == before.live && after.records ==
	    before.records, "info after the upgrade: format %" PRIu32 ", %"
	    PRIu64 " live", after.format, after.live);
	OK(ar_get(t, 1, &r));
	CHECK(r.state == AR_GRANTED && strcmp(r.user, "alice") == 0 &&
	    r.client_key[0] == '\0' && r.start == T0 + 600,
	    "an old record after the upgrade");
	OK(ar_get(t, 3, &r));
	CHECK(r.state == AR_CANCELLED, "a cancelled one after the upgrade");
	OK(ar_check(t, say_violation, NULL, &bad));
	CHECK(bad == 0, "%" PRIu64 " violations after the upgrade", bad);
	rq = request(T0 + 600, 600, 1);
	rq.client_key = "new";
	OK(ar_add(t, &rq, &a));
	OK(ar_add(t, &rq, &a));
	CHECK(a.replayed && a.id == before.next_id, "keys after the upgrade");
	OK(ar_txn_commit(t));
	ar_close(s);

	/* Again: nothing to do. */
	OK(ar_upgrade(dir, AR_SIMULATED, 0, &from));
	CHECK(from == AR_FORMAT_VERSION, "upgraded twice from %d", from);
	OK(ar_open(dir, AR_RDONLY, &s));
	OK(ar_txn_begin(s, 0, T0, &t));
	OK(ar_info(t, &after));
	CHECK(after.next_id == before.next_id + 1, "a second upgrade changed "
	    "the store");
	OK(ar_check(t, say_violation, NULL, &bad));
	CHECK(bad == 0, "%" PRIu64 " violations after a second upgrade", bad);
	ar_txn_abort(t);
	ar_close(s);

	/* The check finds a record whose key is not in the index. */
	OK(set_format(dir, AR_FORMAT_VERSION, 0));
	OK(ar_open(dir, AR_RDONLY, &s));
	OK(ar_txn_begin(s, 0, T0, &t));
	OK(ar_check(t, NULL, NULL, &bad));
	CHECK(bad == 2, "%" PRIu64 " violations with the key index empty", bad);
	ar_txn_abort(t);
	ar_close(s);

	/* Formats it cannot convert stay refused, and as they are. */
	OK(set_format(dir, 2, -1));
	CHECK(ar_open(dir, 0, &s) == AR_EVERSION, "format 2 opens");
	CHECK(ar_upgrade(dir, AR_SIMULATED, 0, &from) == AR_EVERSION &&
	    from == 0, "format 2 upgraded");
	OK(set_format(dir, AR_FORMAT_VERSION + 1, -1));
	CHECK(ar_open(dir, 0, &s) == AR_EVERSION, "a later format opens");
	CHECK(ar_upgrade(dir, AR_SIMULATED, 0, &from) == AR_EVERSION,
	    "a later format upgraded");
	/* A current store without its key index is corrupt. */
	OK(set_format(dir, AR_FORMAT_VERSION, 1));
	CHECK(ar_open(dir, 0, &s) == AR_ECORRUPT, "no key index opens");
	rm_store(dir);
	CHECK(ar_upgrade(dir, AR_SIMULATED, 0, &from) == AR_ENOSTORE,
	    "a missing store upgraded");
}

/*
 * A live store (the default): its clock is the system clock, which no
 * writer can set ahead, at creation or later, while readers still ask
 * what if.  The system clock is read around each call: the clock it
 * gave must lie between.  The store is never simulated after that, and
 * one made live by an upgrade with its clock ahead is told by the check.
 */
static void
test_live_clock(void)
{
	struct ar_config cfg;
	struct ar_info info;
	struct ar_request rq;
	struct ar_answer a;
	const char *dir = store_path("live");
	int64_t before, after, ahead;
	uint64_t bad;
	ar_store *s;
	ar_txn *t;
	int from, rc;

	ar_config_default(&cfg);
	cfg.nodes = 4;
	ahead = (int64_t)time(NULL) + 86400;
	CHECK(ar_create(dir, &cfg, ahead) == AR_ELIVE,
	    "a live store was made with its clock a day ahead");
	CHECK(ar_open(dir, AR_RDONLY, &s) == AR_ENOSTORE,
	    "a creation refused left a store");
	before = time(NULL);
	OK(ar_create(dir, &cfg, 0));
	OK(ar_open(dir, 0, &s));
	OK(ar_txn_begin(s, 0, 0, &t));
	after = time(NULL);
	OK(ar_info(t, &info));
	CHECK(info.clock >= before && info.clock <= after &&
	    info.config.flags == 0, "a new live store: clock %" PRId64 " not "
	    "in %" PRId64 "..%" PRId64 ", flags %u", info.clock, before,
	    after, info.config.flags);
	ar_txn_abort(t);

	rc = ar_txn_begin(s, AR_WRITE, ahead, &t);
	CHECK(rc == AR_ELIVE, "a writer set a live store's clock a day ahead");
	if (rc == 0)
		ar_txn_abort(t);
	OK(ar_txn_begin(s, 0, ahead, &t));
	CHECK(ar_txn_now(t) == ahead, "a reader's what if: %" PRId64,
	    ar_txn_now(t));
	ar_txn_abort(t);
	/* A writer at a time past moves nothing; at 0, the system clock. */
	OK(ar_txn_begin(s, AR_WRITE, info.clock - 3600, &t));
	CHECK(ar_txn_now(t) == info.clock, "a live writer an hour back: "
	    "%" PRId64 ", the clock was %" PRId64, ar_txn_now(t), info.clock);
	ar_txn_abort(t);
	before = time(NULL);
	OK(ar_txn_begin(s, AR_WRITE, 0, &t));
	after = time(NULL);
	CHECK(ar_txn_now(t) >= before && ar_txn_now(t) <= after,
	    "a live writer's clock %" PRId64 " not in %" PRId64 "..%" PRId64,
	    ar_txn_now(t), before, after);
	rq = request(ar_txn_now(t) + 3600, 3600, 2);
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_GRANTED, "a live store grants");
	OK(ar_txn_commit(t));
	OK(ar_txn_begin(s, 0, 0, &t));
	CHECK(violations(t) == 0, "a live store does not check");
	ar_txn_abort(t);
	ar_close(s);

	/* Fixed at creation: compared when created again. */
	cfg.flags = AR_SIMULATED;
	CHECK(ar_create(dir, &cfg, T0) == AR_EEXIST,
	    "a live store created again simulated");
	cfg.flags = AR_ROLE_OWNERS;
	CHECK(ar_create(store_path("roles"), &cfg, 0) == EINVAL,
	    "an LMDB store whose owners are roles");
	rm_store(dir);

	/* An older store's clock was the writers': an upgrade makes it
	 * live, and one moved ahead is told by the check. */
	cfg.flags = AR_SIMULATED;
	OK(ar_create(dir, &cfg, T0));
	OK(ar_open(dir, 0, &s));
	OK(ar_txn_begin(s, AR_WRITE, ahead, &t));
	OK(ar_txn_commit(t));
	ar_close(s);
	OK(set_format(dir, 6, -1));
	OK(ar_upgrade(dir, 0, 0, &from));
	CHECK(from == 6, "upgraded from %d", from);
	OK(ar_open(dir, 0, &s));
	OK(ar_txn_begin(s, AR_WRITE, 0, &t));
	OK(ar_info(t, &info));
	CHECK(info.config.flags == 0 && info.clock == ahead,
	    "upgraded: flags %u, clock %" PRId64, info.config.flags,
	    info.clock);
	OK(ar_check(t, NULL, NULL, &bad));
	CHECK(bad == 1, "%" PRIu64 " violations with the clock a day ahead",
	    bad);
	ar_txn_abort(t);
	ar_close(s);
	rm_store(dir);

	/* ... unless it is told to keep it simulated. */
	OK(ar_create(dir, &cfg, T0));
	OK(set_format(dir, 6, -1));
	OK(ar_upgrade(dir, AR_SIMULATED, 0, &from));
	OK(ar_open(dir, 0, &s));
	OK(ar_txn_begin(s, AR_WRITE, ahead, &t));
	OK(ar_info(t, &info));
	CHECK(info.config.flags == AR_SIMULATED && info.clock == ahead,
	    "upgraded simulated: flags %u, clock %" PRId64,
	    info.config.flags, info.clock);
	ar_txn_abort(t);
	ar_close(s);
	rm_store(dir);
}

/*
 * Make the store in dir a format 4 one as that was: meta says 4, and it
 * has neither host names nor the databases of the mapping.
 */
static int
make_v4(const char *dir)
{
	static const char *const dbs[] = { "map", "pins", "exported" };
	MDB_env *env;
	MDB_txn *txn;
	MDB_dbi dbi;
	MDB_val hosts = { 5, "hosts" };
	int rc;

	if ((rc = set_format(dir, 4, -1)) != 0 ||
	    (rc = raw_begin(dir, &env, &txn)) != 0)
		return rc;
	for (size_t i = 0; i < 3 && rc == 0; i++)
		if ((rc = mdb_dbi_open(txn, dbs[i], 0, &dbi)) == 0)
			rc = mdb_drop(txn, dbi, 1);
	if (rc == 0 && (rc = mdb_dbi_open(txn, "meta", 0, &dbi)) == 0)
		rc = mdb_del(txn, dbi, &hosts, NULL);
	return raw_end(env, txn, rc);
}

/* A format 4 store: refused, then upgraded with default names, mappable. */
static void
test_upgrade_v4(void)
{
	struct ar_config cfg;
	struct ar_request rq;
	struct ar_answer a;
	const char *names;
	const char *dir = store_path("v4");
	uint64_t bad;
	ar_store *s;
	ar_txn *t;
	int from;

	ar_config_default(&cfg);
	cfg.flags = AR_SIMULATED;
	cfg.nodes = 12;
	OK(ar_create(dir, &cfg, T0));
	OK(ar_open(dir, 0, &s));
	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	rq = request(T0 + 600, 1800, 3);
	OK(ar_add(t, &rq, &a));
	OK(ar_txn_commit(t));
	ar_close(s);
	OK(make_v4(dir));
	CHECK(ar_open(dir, 0, &s) == AR_EUPGRADE, "format 4 opens");
	OK(ar_upgrade(dir, AR_SIMULATED, 0, &from));
	CHECK(from == 4, "upgraded from %d", from);
	OK(ar_open(dir, 0, &s));
	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	OK(ar_hosts(t, &names));
	CHECK(strcmp(names, "node[01-12]") == 0, "default names %s", names);
	rq = request(T0 + 600, 1800, 2);
	rq.hosts = (const uint32_t[]){ 10, 11 };
	rq.nhosts = 2;
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_GRANTED, "a named request after the upgrade: %s",
	    ar_reason_name(a.reason));
	OK(ar_check(t, say_violation, NULL, &bad));
	CHECK(bad == 0, "%" PRIu64 " violations after the upgrade", bad);
	OK(ar_txn_commit(t));
	ar_close(s);
	rm_store(dir);
}

/* Make the store in dir a format 5 one: meta says 5, no hold index. */
static int
make_v5(const char *dir)
{
	MDB_env *env;
	MDB_txn *txn;
	MDB_dbi dbi;
	int rc;

	if ((rc = set_format(dir, 5, -1)) != 0 ||
	    (rc = raw_begin(dir, &env, &txn)) != 0)
		return rc;
	if ((rc = mdb_dbi_open(txn, "holds", 0, &dbi)) == 0)
		rc = mdb_drop(txn, dbi, 1);
	return raw_end(env, txn, rc);
}

/* A format 5 store: refused, then upgraded to 6 with its names and its
 * records kept, and series and holds work. */
static void
test_upgrade_v5(void)
{
	struct ar_config cfg;
	struct ar_request rq;
	struct ar_answer a;
	struct ar_resv r;
	const char *names;
	const char *dir = store_path("v5");
	uint64_t bad;
	ar_store *s;
	ar_txn *t;
	int from;

	ar_config_default(&cfg);
	cfg.flags = AR_SIMULATED;
	cfg.nodes = 4;
	cfg.hosts = "cn[1-4]";
	OK(ar_create(dir, &cfg, T0));
	OK(ar_open(dir, 0, &s));
	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	rq = request(T0 + 600, 1800, 2);
	rq.hosts = (const uint32_t[]){ 2, 3 };
	rq.nhosts = 2;
	OK(ar_add(t, &rq, &a));
	OK(ar_txn_commit(t));
	ar_close(s);
	OK(make_v5(dir));
	CHECK(ar_open(dir, 0, &s) == AR_EUPGRADE, "format 5 opens");
	OK(ar_upgrade(dir, AR_SIMULATED, 0, &from));
	CHECK(from == 5, "upgraded from %d", from);
	OK(ar_open(dir, 0, &s));
	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	OK(ar_hosts(t, &names));
	CHECK(strcmp(names, "cn[1-4]") == 0, "names after the upgrade: %s",
	    names);
	OK(ar_get(t, 1, &r));
	CHECK(r.named && r.series == 0 && r.expires == 0,
	    "the record after the upgrade");
	rq = request(T0 + 600, 600, 1);
	OK(ar_add_series(t, &rq, &(struct ar_repeat){ 600, 2, 0 }, &a));
	CHECK(a.status == AR_GRANTED, "a series after the upgrade");
	rq = request(T0 + 600, 1800, 1);
	rq.hold = 300;
	OK(ar_add(t, &rq, &a));
	OK(ar_get(t, a.id, &r));
	CHECK(a.status == AR_GRANTED && r.expires == T0 + 300,
	    "a hold after the upgrade");
	OK(ar_check(t, say_violation, NULL, &bad));
	CHECK(bad == 0, "%" PRIu64 " violations after the upgrade", bad);
	OK(ar_txn_commit(t));
	OK(ar_txn_begin(s, AR_WRITE, T0 + 300, &t));
	OK(ar_get(t, a.id, &r));
	CHECK(r.state == AR_EXPIRED, "the hold expired after the upgrade");
	ar_txn_abort(t);
	ar_close(s);
	rm_store(dir);
}

static int
count_demand(const struct ar_demand *d, void *arg)
{
	(void)d;
	++*(size_t *)arg;
	return 0;
}

/* Thesis Table 6.3 with the limits of Table 5.1: 40 nodes, 5-minute
 * slots; class 1 books 0-12 slots ahead at 100, class 2 12-24 at 60,
 * class 3 further at 40. */
static void
table_63(struct ar_pricing *p)
{
	static const struct ar_class c[3] = {
		{ "premium", 100, 0, 3600, 40, 0 },
		{ "business", 60, 3600, 7200, 35, 0 },
		{ "budget", 40, 7200, -1, 30, 0 },
	};

	memset(p, 0, sizeof(*p));
	p->n = 3;
	memcpy(p->c, c, sizeof(c));
	p->retention = 86400;
}

/* Does a request of class cls for need nodes fit at slot s over len
 * slots, counting by brute force from the live records? */
static int
nested_fits(ar_txn *t, const struct ar_pricing *p, uint32_t cls,
    int64_t s, int64_t len, uint64_t need, int64_t slot)
{
	struct ar_resv r;
	struct ar_info info;
	uint64_t held[AR_CLASSES_MAX + 1];

	OK(ar_info(t, &info));
	for (int64_t x = s; x < s + len; x++) {
		memset(held, 0, sizeof(held));
		for (uint64_t id = 1; id < info.next_id; id++) {
			if (ar_get(t, id, &r) != 0 || r.state != AR_GRANTED ||
			    r.start > x * slot || r.end <= x * slot)
				continue;
			held[r.cls] += (uint64_t)r.nodes * r.jobs;
		}
		/* held[0]: unpriced, counted by the node ring only. */
		for (uint32_t i = 1; i <= cls; i++) {
			uint64_t sum = i == 1 ? held[0] : 0;

			for (uint32_t k = i; k <= p->n; k++)
				sum += held[k];
			if (sum + need > p->c[i - 1].limit)
				return 0;
		}
	}
	return 1;
}

/*
 * Price classes: first fit under nested booking limits, compared with a
 * brute-force count of every slot; refusals for a limit say so; the
 * configuration refuses what is not nested or not a partition; the
 * demand log records every outcome and a purge prunes it.
 */
static void
test_classes(void)
{
	const char *dir = store_path("classes");
	struct ar_config cfg;
	struct ar_pricing p, q;
	struct ar_answer a;
	struct ar_request rq;
	const char *field;
	uint64_t bad;
	size_t at, logged = 0, requests = 0, limited = 0;
	ar_store *s;
	ar_txn *t;

	ar_config_default(&cfg);
	cfg.flags = AR_SIMULATED;
	cfg.nodes = 40;
	cfg.horizon = 2 * 86400;
	OK(ar_create(dir, &cfg, T0));
	OK(ar_open(dir, 0, &s));
	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	table_63(&p);
	/* Bad configurations, each named by its class and field. */
	q = p;
	q.c[1].price = 100;
	CHECK(ar_set_pricing(t, &q, &at, &field) == EINVAL && at == 1 &&
	    strcmp(field, "price") == 0, "prices not falling");
	q = p;
	q.c[0].limit = 39;
	CHECK(ar_set_pricing(t, &q, &at, &field) == EINVAL && at == 0 &&
	    strcmp(field, "limit") == 0, "b_1 below capacity");
	q = p;
	q.c[2].limit = 36;
	CHECK(ar_set_pricing(t, &q, &at, &field) == EINVAL && at == 2 &&
	    strcmp(field, "limit") == 0, "limits not nested");
	q = p;
	q.c[1].ahead_min = 3000;
	CHECK(ar_set_pricing(t, &q, &at, &field) == EINVAL &&
	    strcmp(field, "ahead_min") == 0, "overlapping ranges");
	q = p;
	q.c[2].ahead_min = 8000;
	CHECK(ar_set_pricing(t, &q, &at, &field) == EINVAL && at == 2 &&
	    strcmp(field, "ahead_min") == 0, "a gap: %s %zu", field, at);
	q = p;
	q.c[2].ahead_max = 86400;
	CHECK(ar_set_pricing(t, &q, &at, &field) == EINVAL && at == 2 &&
	    strcmp(field, "ahead_max") == 0, "no open end");
	OK(ar_set_pricing(t, &p, &at, &field));
	OK(ar_pricing(t, &q));
	CHECK(q.n == 3 && q.c[2].limit == 30 && q.retention == 86400,
	    "pricing read back");
	/* A budget request over its limit is refused for the limit. */
	memset(&rq, 0, sizeof(rq));
	rq.earliest = rq.latest = T0 + 3 * 3600;
	rq.duration = 3600;
	rq.nodes = 31;
	rq.jobs = 1;
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_REFUSED && a.reason == AR_R_BOOKING &&
	    a.cls == 3, "budget over b_3: status %d reason %d class %u",
	    a.status, a.reason, a.cls);
	rq.earliest = rq.latest = T0 + 600;     /* premium: all 40 */
	rq.nodes = 40;
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_GRANTED && a.cls == 1 &&
	    a.price == 100 * 40 * 12, "premium: status %d class %u price %"
	    PRId64, a.status, a.cls, a.price);
	OK(ar_txn_commit(t));
	requests = logged = 2;

	/* Random rigid and windowed requests against the brute force. */
	for (int round = 0; round < 40; round++) {
		int64_t now = T0 + round * 600;

		OK(ar_txn_begin(s, AR_WRITE, now, &t));
		for (int i = 0; i < 25; i++) {
			int64_t e = now + (int64_t)rnd(48) * 300, first;
			int64_t len = 1 + (int64_t)rnd(12), w = (int64_t)rnd(4);
			uint32_t cls;

			memset(&rq, 0, sizeof(rq));
			rq.earliest = e;
			rq.latest = e + w * 300;
			rq.duration = len * 300;
			rq.nodes = 1 + (uint32_t)rnd(12);
			rq.jobs = 1;
			rq.flags = AR_NOMOVE;
			OK(ar_add(t, &rq, &a));
			requests++;
			logged++;
			cls = a.cls;
			CHECK(cls >= 1 && cls <= 3, "class %u", cls);
			first = (a.status == AR_GRANTED ? a.start : e) / 300;
			/* Every earlier start of the window breaks a limit,
			 * and a grant was within them all before it. */
			for (int64_t x = e / 300; x < first; x++)
				CHECK(!nested_fits(t, &p, cls, x, len, rq.nodes,
				    300), "start %" PRId64 " fitted", x);
			if (a.status == AR_GRANTED) {
				struct ar_resv r;

				OK(ar_get(t, a.id, &r));
				CHECK(nested_fits(t, &p, cls, first, len, 0,
				    300), "granted at %" PRId64 " over a limit",
				    first);
				CHECK(r.cls == cls && r.price == p.c[cls - 1].price
				    * rq.nodes * len, "record class %u price %"
				    PRId64, r.cls, r.price);
			} else {
				CHECK(a.reason == AR_R_FULL ||
				    a.reason == AR_R_BOOKING, "reason %d",
				    a.reason);
				limited += a.reason == AR_R_BOOKING;
				for (int64_t x = e / 300; x <= e / 300 + w; x++)
					CHECK(!nested_fits(t, &p, cls, x, len,
					    rq.nodes, 300), "refused, but %"
					    PRId64 " fits", x);
			}
		}
		/* Rearrangement never breaks a limit either. */
		for (int i = 0; i < 5; i++) {
			memset(&rq, 0, sizeof(rq));
			rq.earliest = now + (int64_t)rnd(40) * 300;
			rq.latest = rq.earliest + (int64_t)rnd(24) * 300;
			rq.duration = (1 + (int64_t)rnd(8)) * 300;
			rq.nodes = 1 + (uint32_t)rnd(8);
			rq.jobs = 1 + (uint32_t)rnd(2);
			OK(ar_add(t, &rq, &a));
			requests++;
			logged++;
		}
		OK(ar_check(t, say_violation, NULL, &bad));
		CHECK(bad == 0, "round %d: %" PRIu64 " violations", round, bad);
		OK(ar_txn_commit(t));
	}
	CHECK(limited > 0, "no refusal for a booking limit in %zu requests",
	    requests);
	/* The log holds every outcome; a purge a day on prunes it. */
	OK(ar_txn_begin(s, AR_WRITE, T0 + 40 * 600, &t));
	at = 0;
	OK(ar_demand(t, 0, count_demand, &at));
	CHECK(at == logged, "demand log: %zu entries for %zu", at, logged);
	q = p;
	q.n = 2;
	CHECK(ar_set_pricing(t, &q, &at, &field) == EINVAL,
	    "two classes leave a gap");
	q.c[1].ahead_max = -1;
	CHECK(ar_set_pricing(t, &q, &at, &field) == EBUSY,
	    "fewer classes with priced reservations live");
	OK(ar_txn_commit(t));
	OK(ar_txn_begin(s, AR_WRITE, T0 + 3 * 86400, &t));
	OK(ar_purge(t, NULL, NULL));
	at = 0;
	OK(ar_demand(t, 0, count_demand, &at));
	CHECK(at == 0, "demand log after its retention: %zu", at);
	OK(ar_set_pricing(t, &q, &at, &field));
	OK(ar_check(t, say_violation, NULL, &bad));
	CHECK(bad == 0, "%" PRIu64 " violations with two classes", bad);
	OK(ar_txn_commit(t));
	ar_close(s);
	rm_store(dir);
}

/*
 * The forecast of a steady demand: every slot for a day, one request of
 * one node for 12 slots, 24 slots ahead.  Each slot whose requesters all
 * asked within the log's history holds 12 nodes of it, no more, no less.
 */
static void
test_forecast(void)
{
	static const struct ar_class c[2] = {
		{ "soon", 100, 0, 3600, 40, 0 },
		{ "ahead", 50, 3600, -1, 40, 0 },
	};
	const char *dir = store_path("forecast");
	struct ar_config cfg;
	struct ar_pricing p;
	struct ar_request rq;
	struct ar_answer a;
	double mean[2], sd[2];
	const char *field;
	size_t bad;
	ar_store *s;
	ar_txn *t;

	ar_config_default(&cfg);
	cfg.flags = AR_SIMULATED;
	cfg.nodes = 40;
	OK(ar_create(dir, &cfg, T0));
	OK(ar_open(dir, 0, &s));
	memset(&p, 0, sizeof(p));
	p.n = 2;
	memcpy(p.c, c, sizeof(c));
	p.retention = 7 * 86400;
	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	OK(ar_set_pricing(t, &p, &bad, &field));
	OK(ar_txn_commit(t));
	for (int i = 0; i < 288; i++) {
		OK(ar_txn_begin(s, AR_WRITE, T0 + i * 300, &t));
		memset(&rq, 0, sizeof(rq));
		rq.earliest = rq.latest = T0 + (i + 24) * 300;
		rq.duration = 12 * 300;
		rq.nodes = rq.jobs = 1;
		OK(ar_add(t, &rq, &a));
		CHECK(a.status == AR_GRANTED && a.cls == 2, "slot %d: status %d "
		    "class %u", i, a.status, a.cls);
		OK(ar_txn_commit(t));
	}
	OK(ar_txn_begin(s, 0, T0 + 288 * 300, &t));
	OK(ar_forecast(t, T0, mean, sd));
	CHECK(mean[0] == 0 && sd[0] == 0, "class 1: mean %g sd %g", mean[0],
	    sd[0]);
	CHECK(mean[1] > 12 - 1e-9 && mean[1] < 12 + 1e-9 && sd[1] < 1e-6,
	    "steady demand of 12: mean %g sd %g", mean[1], sd[1]);
	ar_txn_abort(t);
	ar_close(s);
	rm_store(dir);
}

/* Fill a small map until it is full: it grows, then refuses cleanly. */
struct filler {
	int count;
	int64_t start;
};

static int
fill(ar_txn *t, void *arg)
{
	struct filler *f = arg;
	struct ar_answer a;
	char label[200];
	int rc;

	memset(label, 'x', sizeof(label) - 1);
	label[sizeof(label) - 1] = '\0';
	for (int i = 0; i < f->count; i++) {
		struct ar_request rq = request(f->start, 300, 1);

		rq.user = label;
		if ((rc = ar_add(t, &rq, &a)) != 0)
			return rc;
	}
	return 0;
}

static void
test_map_full(void)
{
	struct ar_config cfg;
	struct ar_info info;
	struct filler f = { 1000, T0 + 300 };
	uint64_t bad;
	ar_store *s;
	ar_txn *t;
	int rc = 0, rounds = 0;
	const char *dir = store_path("full");

	ar_config_default(&cfg);
	cfg.flags = AR_SIMULATED;
	cfg.nodes = 1000000;
	cfg.map_max = 4 << 20;
	OK(ar_create(dir, &cfg, T0));
	OK(ar_open(dir, 0, &s));
	while (rounds < 100 && (rc = ar_write(s, 0, T0, fill, &f)) == 0)
		rounds++;
	CHECK(rc == AR_EFULL, "filling ends with %s", ar_strerror(rc));
	CHECK(rounds >= 2, "the map grew: %d rounds", rounds);
	OK(ar_txn_begin(s, 0, T0, &t));
	OK(ar_info(t, &info));
	CHECK(info.live == (uint64_t)rounds * 1000 && info.map_size == 4 << 20,
	    "what committed stays: %" PRIu64 " live, map %" PRIu64,
	    info.live, info.map_size);
	OK(ar_check(t, say_violation, NULL, &bad));
	CHECK(bad == 0, "%" PRIu64 " violations in a full store", bad);
	ar_txn_abort(t);
	ar_close(s);
	rm_store(dir);
}

/*
 * ar_longest and ar_furthest on a default store (8640 slots, nine ring
 * chunks), where their scans pass whole chunks and blocks: random full
 * slots far apart, and every answer against a brute force over the free
 * count of each slot; then the errors.
 */
#define L_SLOTS 8640

static uint32_t l_free[L_SLOTS];

/* Slots from s (< L_SLOTS) where need more fit, ignoring [ofrom, oto). */
static int64_t
l_run(int64_t s, uint32_t need, int64_t ofrom, int64_t oto)
{
	int64_t e = s;

	while (e < L_SLOTS && ((e >= ofrom && e < oto) || l_free[e] >= need))
		e++;
	return e;
}

static void
test_longest(void)
{
	struct ar_config cfg;
	struct ar_request rq;
	struct ar_answer a;
	struct ar_resv r;
	ar_store *s;
	ar_txn *t;
	uint64_t ids[40];
	const char *dir = store_path("longest");
	int n = 0;

	ar_config_default(&cfg);
	cfg.nodes = 16;
	OK(ar_create(dir, &cfg, T0));
	OK(ar_open(dir, 0, &s));
	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	/* Reservations of all kinds of lengths; some fill their slots. */
	for (int i = 0; i < 40; i++) {
		/* One draw a statement: argument order is the compiler's. */
		int64_t len = 1 + (int64_t)rnd(i % 4 == 0 ? 2000 : 20);
		int64_t at = (int64_t)rnd(L_SLOTS - (uint64_t)len);
		uint32_t nodes = 1 + (uint32_t)rnd(16);

		rq = request(T0 + 300 * at, 300 * len, nodes);
		OK(ar_add(t, &rq, &a));
		if (a.status == AR_GRANTED)
			ids[n++] = a.id;
	}
	for (int64_t i = 0; i < L_SLOTS; i++)
		OK(ar_free(t, T0 + 300 * i, T0 + 300 * (i + 1), &l_free[i]));
	for (int q = 0; q < 300; q++) {
		int64_t s0 = (int64_t)rnd(L_SLOTS), e, best = 0, bs = -1;
		uint32_t need = 1 + (uint32_t)rnd(16);

		rq = request(T0 + 300 * s0, 0, need);
		rq.latest = rq.earliest + 300 * (int64_t)rnd(q % 2 ? 500 : 1);
		for (int64_t x = s0; x < L_SLOTS && x <= s0 +
		    (rq.latest - rq.earliest) / 300; x++)
			if ((e = l_run(x, need, -1, -1)) - x > best) {
				best = e - x;
				bs = x;
			}
		OK(ar_longest(t, &rq, &a));
		CHECK(bs == -1 ? a.status == AR_UNAVAILABLE &&
		    a.reason == AR_R_FULL : a.status == AR_SUGGESTED &&
		    a.start == T0 + 300 * bs && a.end == a.start + 300 * best,
		    "longest %u from slot %" PRId64 ": status %d %" PRId64
		    "..%" PRId64 ", brute force %" PRId64 "..%" PRId64, need,
		    s0, a.status, (a.start - T0) / 300, (a.end - T0) / 300, bs,
		    bs + best);
	}
	for (int i = 0; i < n; i++) {
		int64_t from, to, e;

		OK(ar_get(t, ids[i], &r));
		from = (r.start - T0) / 300;
		to = (r.end - T0) / 300;
		e = l_run(to, r.nodes, from, to);
		OK(ar_furthest(t, ids[i], 0, &a));
		CHECK(a.id == ids[i] && a.start == r.start &&
		    (e > to ? a.status == AR_SUGGESTED && a.end == T0 + 300 * e :
		    a.status == AR_UNAVAILABLE && a.end == r.end &&
		    a.reason == (to == L_SLOTS ? AR_R_HORIZON : AR_R_FULL)),
		    "furthest %" PRIu64 " (%" PRId64 "..%" PRId64 "): status %d"
		    " end %" PRId64 ", brute force %" PRId64, ids[i], from, to,
		    a.status, (a.end - T0) / 300, e);
	}
	CHECK(ar_furthest(t, 999, 0, &a) == AR_ENOTFOUND, "furthest of none");
	CHECK(ar_furthest(t, ids[0], 0x10, &a) == EINVAL, "unknown flags");
	OK(ar_cancel(t, ids[0], 0, &r));
	CHECK(ar_furthest(t, ids[0], 0, &a) == AR_EDONE,
	    "furthest of a cancelled one");
	rq = request(T0, -300, 1);
	CHECK(ar_longest(t, &rq, &a) == EINVAL, "a negative duration");
	rq = request(T0, 0, 0);
	CHECK(ar_longest(t, &rq, &a) == EINVAL, "no nodes");
	ar_txn_abort(t);
	ar_close(s);
	rm_store(dir);
}

/*
 * A run of the model on a store of several pools (model_layout): what
 * it saw, drains, undrains and hosts added too, and that it saw enough;
 * the sweep's caution stays rare, as in test_pools and test_drain.
 */
static void
model_pools_told(const struct model *m)
{
	printf("model on pools: %" PRIu64 " operations, %d reservations, %"
	    PRIu64 " requests, %" PRIu64 " granted adds (%" PRIu64
	    " of named hosts), %" PRIu64
	    " maintenance (%" PRIu64 " displaced; %" PRIu64 " times where an "
	    "arrangement keeps all), %" PRIu64 " named hosts refused as bad "
	    "input; %" PRIu64 " later or refused where an arrangement holds "
	    "them, %" PRIu64 " undecided; %" PRIu64 " answers compared\n",
	    m->ops, m->nresv, m->pool_asked, m->pool_adds, m->named,
	    m->maints, m->displaced, m->overdisplaced, m->bad_named,
	    m->cautious, m->undecided, m->checks);
	printf("model on pools: %" PRIu64 " drains (%" PRIu64 " removals, %"
	    PRIu64 " refused; %" PRIu64 " displaced; %" PRIu64 " displaced "
	    "where an arrangement keeps all), %" PRIu64 " undrains (%" PRIu64
	    " granted), %" PRIu64 " hosts added\n", m->drains, m->removals,
	    m->drains_refused, m->drain_displaced, m->drain_cautious,
	    m->undrains, m->undrained, m->hosts_added);
	CHECK(m->pool_adds > 300 && m->named > 100 && m->maints > 30 &&
	    m->displaced > 5 && m->bad_named > 20, "model on pools too tame");
	CHECK(m->drains > 30 && m->removals > 0 && m->drain_displaced > 2 &&
	    m->undrained > 20 && m->hosts_added > 10, "model on pools: too few "
	    "drains, removals, displaced, undrains or hosts added");
	/* The sweep's caution stays rare: at most one answer in 100, one
	 * drain in 20 (as in test_drain). */
	CHECK(m->cautious * 100 <= m->pool_asked, "%" PRIu64 " answers later "
	    "or refused where an arrangement holds them", m->cautious);
	CHECK(m->drain_cautious * 20 <= m->drains, "%" PRIu64 " drains "
	    "displaced what an arrangement keeps", m->drain_cautious);
}

/*
 * The model test: a long seeded run without price classes, then a
 * shorter one with them, their limits and prices changing as it goes,
 * then one on a store of several pools; every answer is checked.  span
 * is how many slots the clock covers.
 */
static void
model_run(int priced, int pooled, int64_t span)
{
	struct ar_config cfg;
	struct model *m = model_new(pick_rnd, NULL);
	int64_t now = 0;
	ar_store *s;
	ar_txn *t;
	const char *dir = store_path("model");
	int wraps, quiet = 0;

	if (m == NULL) {
		CHECK(0, "out of memory");
		return;
	}
	model_config(&cfg);
	if (pooled)
		model_layout(m, &cfg);
	OK(ar_create(dir, &cfg, now));
	OK(ar_open(dir, 0, &s));
	for (int i = 0; i < 7; i++)     /* no MAP_FULL mid-transaction */
		OK(ar_grow(s, 0));
	while (now / M_SLOT < span && m->nresv < M_RESV - 1000) {
		OK(ar_txn_begin(s, AR_WRITE, now, &t));
		model_begin(m, t, now);
		/* New classes first in a transaction (see model.h), also
		 * after a quiet spell, when none is live. */
		if (priced && (now == 0 || quiet || rnd(30) == 0))
			model_price(m, t, now);
		for (int i = 0, n = 1 + (int)rnd(8); i < n; i++)
			model_op(m, t, now);
		if (rnd(20) == 0)
			OK(ar_purge(t, NULL, NULL));
		if (rnd(10) == 0)
			model_compare(m, t, now);
		OK(ar_txn_commit(t));
		now += (int64_t)rnd(3) == 0 ? (int64_t)rnd(12 * M_SLOT) : 0;
		/* A quiet spell: everything ends. */
		if ((quiet = priced && rnd(400) == 0))
			now += M_HORIZON * M_SLOT;
	}
	OK(ar_txn_begin(s, 0, now, &t));
	model_compare(m, t, now);
	ar_txn_abort(t);
	passed += (int)(m->checks - m->mismatches);
	failed += (int)m->mismatches;
	if (pooled) {
		model_pools_told(m);
		ar_close(s);
		rm_store(dir);
		model_free(m);
		return;
	}
	wraps = (int)(now / M_SLOT / 960 / 2);
	printf("model%s: %" PRIu64 " operations, %d reservations, clock at "
	    "slot %" PRId64 ", %d laps of the ring, %" PRIu64 " modifies, %"
	    PRIu64 " holds (%" PRIu64 " confirmed, %" PRIu64 " expired), %"
	    PRIu64 " longest jobs, %" PRIu64 " extensions (%" PRIu64
	    " none), %" PRIu64 " moldable adds, %" PRIu64 " split adds (%"
	    PRIu64 " in pieces, %" PRIu64 " changed as one), %" PRIu64
	    " use reports, %" PRIu64
	    " reclaimed, %" PRIu64 " answers compared", priced ?
	    " with classes" : "", m->ops, m->nresv, now / M_SLOT, wraps,
	    m->modifies, m->holds, m->confirms, m->expiries, m->longest,
	    m->extended, m->unextended, m->molds, m->splits, m->pieced,
	    m->remade, m->reports, m->reclaims, m->checks);
	if (priced)
		printf("; %" PRIu64 " moves, %" PRIu64 " refusals for a "
		    "booking limit, other numbers of classes %" PRIu64
		    " refused and %" PRIu64 " set", m->moves, m->limited,
		    m->busy, m->renumbered);
	printf("\n");
	CHECK(m->ops > (priced ? 1000 : 5000) && wraps >= (priced ? 2 : 5) &&
	    m->modifies > 100 && m->longest > 100 && m->extended > 50 &&
	    m->unextended > 50 && m->molds > 100 && m->splits > 50 &&
	    m->pieced > (priced ? 5u : 10u), "model test too short: %"
	    PRIu64 " ops, %d laps, %" PRIu64 " modifies, %" PRIu64
	    " longest, %" PRIu64 " extended, %" PRIu64 " not, %" PRIu64
	    " moldable, %" PRIu64 " split, %" PRIu64 " in pieces", m->ops,
	    wraps, m->modifies, m->longest, m->extended, m->unextended,
	    m->molds, m->splits, m->pieced);
	CHECK(!priced || (m->moves > 0 && m->limited > 0 && m->busy > 0 &&
	    m->renumbered > 0), "model test with classes: too few moves, "
	    "refusals for a limit or other numbers of classes");
	ar_close(s);
	rm_store(dir);
	model_free(m);
}

/* On PostgreSQL, where a transaction costs round trips, a quarter of
 * the span: still 5 laps of the ring. */
static void
test_model(int part)
{
	model_run(0, 0, (M_SPAN - 2 * M_HORIZON - 30) / part);
	model_run(1, 0, M_SPAN / 4);
	model_run(0, 1, 2500 / part);
}

/*
 * Rearrangement: random flexible requests on a small busy store, moves
 * allowed (FCFS-LRH, then FCFS-EDS).  Whatever moved must have been
 * movable (granted, not started, a window of its own, later only for
 * EDS), every start stays in its window (ar_check), and moves admit at
 * least as many requests as first fit alone on the same sequence.
 */
static uint64_t
rearrange_run(unsigned flags, int *bad_moves)
{
	struct ar_config cfg = { 10, 300, 86400, 1 << 30, -1, NULL,
	    AR_SIMULATED, NULL };
	uint64_t granted = 0, bad;
	ar_store *s;
	ar_txn *t;
	const char *dir = store_path(flags & AR_NOMOVE ? "nomove" :
	    flags & AR_LATER ? "eds" : "lrh");

	rng = 12345;
	OK(ar_create(dir, &cfg, T0));
	OK(ar_open(dir, 0, &s));
	for (int64_t now = T0; now < T0 + 6 * 3600; now += 300) {
		OK(ar_txn_begin(s, AR_WRITE, now, &t));
		for (int i = 0; i < 3; i++) {
			struct ar_request rq = request(now + 300 *
			    (int64_t)rnd(48), 300 * (1 + (int64_t)rnd(12)),
			    1 + (uint32_t)rnd(4));
			const struct ar_placed *g, *mv;
			struct ar_answer a;
			struct ar_resv r;
			size_t ng, nm;

			if (rnd(4) != 0)
				rq.latest = rq.earliest + 300 * (int64_t)rnd(12);
			rq.jobs = 1 + (uint32_t)rnd(3);
			rq.flags = flags;
			OK(ar_add(t, &rq, &a));
			ar_added(t, &g, &ng, &mv, &nm);
			granted += ng;
			for (size_t m = 0; m < nm; m++) {
				OK(ar_get(t, mv[m].id, &r));
				if (mv[m].from <= now || r.earliest == r.latest ||
				    ((flags & AR_LATER) && mv[m].start < mv[m].from) ||
				    mv[m].start != r.start)
					++*bad_moves;
			}
		}
		OK(ar_check(t, say_violation, NULL, &bad));
		CHECK(bad == 0, "%" PRIu64 " violations after rearranging", bad);
		OK(ar_txn_commit(t));
	}
	ar_close(s);
	rm_store(dir);
	return granted;
}

static void
test_rearrange(void)
{
	int bad_moves = 0;
	uint64_t none = rearrange_run(AR_NOMOVE, &bad_moves);
	uint64_t lrh = rearrange_run(0, &bad_moves);
	uint64_t eds = rearrange_run(AR_LATER, &bad_moves);

	printf("rearrange: copies granted: first fit %" PRIu64 ", FCFS-EDS %"
	    PRIu64 ", FCFS-LRH %" PRIu64 "\n", none, eds, lrh);
	CHECK(bad_moves == 0, "%d moves of reservations that may not move",
	    bad_moves);
	CHECK(lrh > none && eds > none, "moving others admitted no more");
}

/*
 * The end and movable lists are kept in buckets of at most 255 entries
 * that split, empty and are purged from the front.  Thousands of live
 * reservations, added, cancelled, moved and purged in transactions that
 * commit, abort or undo a savepoint, must leave them exactly right
 * (ar_check), and a purge must hand out what ended, by end then id.
 */
struct purged {
	int64_t end;
	uint64_t id, n;
	int ordered;
};

static int
purged_one(const struct ar_resv *r, void *arg)
{
	struct purged *p = arg;

	if (p->n > 0 && (r->end < p->end || (r->end == p->end && r->id <= p->id)))
		p->ordered = 0;
	p->end = r->end;
	p->id = r->id;
	p->n++;
	return 0;
}

static void
bucket_run(uint32_t nodes, uint64_t seed)
{
	struct ar_config cfg = { nodes, 300, 3 * 86400, 1 << 30, -1, NULL,
	    AR_SIMULATED, NULL };
	static uint64_t ids[20000], kept[20000];
	size_t nids = 0, nkept;
	uint64_t bad, live_before = 0;
	ar_store *s;
	ar_txn *t;
	const char *dir = store_path("buckets");

	rng = seed;
	OK(ar_create(dir, &cfg, T0));
	OK(ar_open(dir, 0, &s));
	for (int i = 0; i < 5; i++)     /* room for it all: no ar_write here */
		OK(ar_grow(s, 0));
	for (int round = 0; round < 16; round++) {
		int64_t now = T0 + round * 6 * 3600;
		struct purged p = { 0, 0, 0, 1 };
		struct ar_info info;

		OK(ar_txn_begin(s, AR_WRITE, now, &t));
		OK(ar_info(t, &info));
		live_before = info.live;
		memcpy(kept, ids, nids * sizeof(ids[0]));
		nkept = nids;
		if (round % 2 == 1) {
			OK(ar_purge(t, round % 4 == 1 ? purged_one : NULL, &p));
			OK(ar_info(t, &info));
			CHECK(p.ordered, "purge out of end order");
			CHECK(round % 4 != 1 || p.n == live_before - info.live,
			    "purge handed out %" PRIu64 " of %" PRIu64, p.n,
			    live_before - info.live);
		}
		for (int i = 0; i < 1200; i++) {
			struct ar_request rq = request(now + 300 *
			    (int64_t)(1 + rnd(600)), 300 * (1 + (int64_t)rnd(72)),
			    1 + (uint32_t)rnd(8));
			const struct ar_placed *g, *mv;
			struct ar_answer a;
			size_t ng, nm;

			if (rnd(2) == 0)
				rq.latest = rq.earliest + 300 * (int64_t)rnd(24);
			if (rnd(3) == 0) {
				rq.user = "u";
				rq.job = i % 2 ? "a" : "b";
			}
			OK(ar_add(t, &rq, &a));
			ar_added(t, &g, &ng, &mv, &nm);
			for (size_t k = 0; k < ng && nids < 20000; k++)
				ids[nids++] = g[k].id;
		}
		for (int i = 0; i < 300 && nids > 0; i++) {
			size_t k = (size_t)rnd(nids);
			struct ar_resv r;
			int rc = ar_cancel(t, ids[k], 0, &r);

			CHECK(rc == 0 || rc == AR_EDONE, "cancel: %s",
			    ar_strerror(rc));
			ids[k] = ids[--nids];
		}
		OK(ar_check(t, say_violation, NULL, &bad));
		CHECK(bad == 0, "%" PRIu64 " violations in round %d", bad, round);
		if (round % 5 == 4) {
			ar_txn_abort(t);        /* forgotten, all of it */
			memcpy(ids, kept, nkept * sizeof(ids[0]));
			nids = nkept;
			OK(ar_txn_begin(s, 0, now, &t));
			OK(ar_info(t, &info));
			CHECK(info.live == live_before, "an aborted round left "
			    "%" PRIu64 " live, not %" PRIu64, info.live,
			    live_before);
			OK(ar_check(t, say_violation, NULL, &bad));
			CHECK(bad == 0, "%" PRIu64 " violations after an abort",
			    bad);
			ar_txn_abort(t);
		} else
			OK(ar_txn_commit(t));
	}
	OK(ar_txn_begin(s, 0, T0, &t));
	OK(ar_check(t, say_violation, NULL, &bad));
	CHECK(bad == 0, "%" PRIu64 " violations at the end", bad);
	ar_txn_abort(t);
	ar_close(s);
	rm_store(dir);
}

static void
test_end_buckets(void)
{
	bucket_run(100000, 777);        /* everything fits: splits, cancels */
	bucket_run(120, 778);           /* full: rearrangement in savepoints */
}

/*
 * Two rings in one transaction are two instances.  A second ring, with
 * its own capacity under its own key prefix in the node ring's database,
 * changes apart from the node ring, is undone and kept with it at
 * savepoints, and outlives the commit without touching the node ring.
 */
#define RING_SPAN 1200          /* slots compared: two chunks at least */

static int
ring_is(ar_txn *t, struct ring *r, const uint32_t *want)
{
	uint32_t got[RING_SPAN];

	return ring_counts(t, r, t->base, t->base + RING_SPAN, got) == 0 &&
	    memcmp(got, want, sizeof(got)) == 0;
}

/* Add delta to [from, to) of ring r and of its expected counts. */
static int
ring_change(ar_txn *t, struct ring *r, uint32_t *want, int64_t from,
    int64_t to, int64_t delta)
{
	for (int64_t i = from; i < to; i++)
		want[i] = (uint32_t)((int64_t)want[i] + delta);
	return ring_add(t, r, t->base + from, t->base + to, delta);
}

static void
test_rings(void)
{
	static uint32_t node[RING_SPAN], cls[RING_SPAN], node0[RING_SPAN],
	    cls0[RING_SPAN], none[RING_SPAN];
	unsigned char key[8] = { 0, 0, 0, 7, 0xff, 0xff, 0xff, 0xff };
	struct kv_val kv = { sizeof(key), key }, v;
	struct ar_config cfg;
	struct ring other, again, unused;
	struct ring_save os;
	struct savepoint sp;
	int64_t b, s;
	uint64_t bad;
	ar_store *st;
	ar_txn *t;
	const char *dir = store_path("rings");

	ar_config_default(&cfg);
	cfg.flags = AR_SIMULATED;
	cfg.nodes = 10;
	OK(ar_create(dir, &cfg, T0));
	OK(ar_open(dir, 0, &st));
	OK(ar_txn_begin(st, AR_WRITE, T0, &t));
	b = t->base;
	memset(&other, 0, sizeof(other));
	other.dbi = KV_RING;
	other.id = 7;
	OK(ring_begin(&other, t->m.chunks, 3, b, t->m.horizon));

	/* Each ring counts its own, against its own capacity. */
	OK(ring_change(t, &t->ring, node, 0, 10, 4));
	/* T0 is slot 384 of its chunk: this crosses into the next one. */
	OK(ring_change(t, &other, cls, 5, 600, 2));
	CHECK(ring_is(t, &t->ring, node), "node ring after the first adds");
	CHECK(ring_is(t, &other, cls), "second ring after the first adds");
	OK(ring_first_fit(t, &t->ring, b, b + 100, 6, 6, &s));
	CHECK(s == b, "node ring: 6 nodes fit at once, not at %" PRId64,
	    s - b);
	OK(ring_first_fit(t, &other, b, b + 1000, 6, 2, &s));
	CHECK(s == b + 600, "second ring: room after slot 600, not %" PRId64,
	    s - b);
	memcpy(node0, node, sizeof(node));
	memcpy(cls0, cls, sizeof(cls));

	/* A savepoint undone takes both back. */
	OK(ring_save(t, &other, &os));
	OK(txn_save(t, &sp));
	OK(ring_change(t, &t->ring, node, 0, 3, 6));
	OK(ring_change(t, &other, cls, 590, 700, 1));
	CHECK(ring_add(t, &other, b + 5, b + 6, 2) == AR_ECORRUPT,
	    "the second ring went over its own capacity");
	CHECK(ring_is(t, &t->ring, node), "node ring in a savepoint");
	CHECK(ring_is(t, &other, cls), "second ring in a savepoint");
	txn_undo(t, &sp);
	ring_restore(&other, &os);
	CHECK(ring_is(t, &t->ring, node0), "node ring after an undo");
	CHECK(ring_is(t, &other, cls0), "second ring after an undo");
	memcpy(node, node0, sizeof(node));
	memcpy(cls, cls0, sizeof(cls));

	/* A savepoint kept keeps both, each in its own keys. */
	OK(ring_save(t, &other, &os));
	OK(txn_save(t, &sp));
	OK(ring_change(t, &t->ring, node, 0, 10, -4));
	OK(ring_change(t, &other, cls, 1000, 1010, 3));
	OK(ring_flush_chunks(t, &other));
	OK(txn_keep(t, &sp));
	ring_release(&os);
	CHECK(ring_is(t, &t->ring, node), "node ring after a keep");
	CHECK(ring_is(t, &other, cls), "second ring after a keep");
	OK(ring_flush(t, &other));
	OK(ar_txn_commit(t));

	/* Read back by fresh instances; the store is as if alone. */
	OK(ar_txn_begin(st, 0, T0, &t));
	memset(&again, 0, sizeof(again));
	again.dbi = KV_RING;
	again.id = 7;
	unused = again;
	unused.id = 8;
	OK(ring_begin(&again, t->m.chunks, 3, t->base, t->m.horizon));
	OK(ring_begin(&unused, t->m.chunks, 3, t->base, t->m.horizon));
	CHECK(ring_is(t, &again, cls), "second ring after the commit");
	CHECK(ring_is(t, &unused, none), "a third ring holds nothing");
	CHECK(ring_is(t, &t->ring, none), "node ring after the commit");
	CHECK(kv_get(t->txn, KV_RING, &kv, &v) == 0 &&
	    v.size == t->m.chunks * sizeof(uint64_t),
	    "the second ring's summary is not under its prefix");
	OK(ar_check(t, say_violation, NULL, &bad));
	CHECK(bad == 0, "%" PRIu64 " violations beside a second ring", bad);
	ar_txn_abort(t);
	ring_free(&other);
	ring_free(&again);
	ring_free(&unused);
	ar_close(st);
	rm_store(dir);
}

/*
 * Once a transaction has written chunks (a savepoint kept), each write
 * moves its gen and LMDB's pages may move: the chunks read then are
 * kept as copies, so reading them again after a write reads nothing
 * from the store.  The copies go with an undo: the counts read after
 * one are the parent's, not those the nested transaction wrote.
 */
static void
test_ring_reads(void)
{
	unsigned char key[8] = { 0, 0, 0, 9, 0, 0, 0, 0 };
	struct kv_val kv = { sizeof(key), key }, v = { 1, key };
	struct savepoint sp, inner;
	uint64_t reads;
	uint32_t peak;
	int64_t b, e, s;
	ar_store *st = store("ring-reads", 10, NULL);
	ar_txn *t;

	OK(ar_txn_begin(st, AR_WRITE, T0, &t));
	b = t->base;
	e = b + t->m.horizon;
	/* 4 nodes in use, 8 over [100, 110), written by a savepoint kept. */
	OK(ring_add(t, &t->ring, b, e, 4));
	OK(ring_add(t, &t->ring, b + 100, b + 110, 4));
	OK(txn_save(t, &sp));
	OK(txn_keep(t, &sp));
	CHECK(t->flushed, "a savepoint kept leaves chunks written");

	/* A nested transaction writes its chunks, then is undone. */
	OK(txn_save(t, &sp));
	OK(ring_add(t, &t->ring, b, e, 1));
	OK(txn_save(t, &inner));
	OK(txn_keep(t, &inner));
	OK(ring_peak(t, &t->ring, b, e, &peak));
	CHECK(peak == 9, "peak %" PRIu32 " in the nested transaction, not 9",
	    peak);
	txn_undo(t, &sp);
	OK(ring_peak(t, &t->ring, b, e, &peak));
	CHECK(peak == 8, "peak %" PRIu32 " after the undo, not 8", peak);

	/* Read again after each write: from the copies. */
	reads = t->ring.reads;
	for (int i = 0; i < 5; i++) {
		OK(ring_first_fit(t, &t->ring, b + 50, b + 200, 60, 4, &s));
		CHECK(s == b + 110, "4 more nodes fit from 110, not %" PRId64,
		    s - b);
		OK(ring_peak(t, &t->ring, b, b + 100, &peak));
		CHECK(peak == 4, "peak %" PRIu32 " before 100, not 4", peak);
		/* A write elsewhere: under a ring id no ring has. */
		OK(kv_put(t->txn, KV_RING, &kv, &v, 0));
		txn_wrote(t);
	}
	CHECK(t->ring.reads == reads, "%" PRIu64 " chunk reads across writes,"
	    " none expected", t->ring.reads - reads);
	ar_txn_abort(t);
	done(st, "ring-reads");
}

/*
 * A reader killed inside its transaction leaves its slot in LMDB's lock
 * file; until the slot is cleared, no page freed after its snapshot can
 * be reused and the file grows with every write.  Opening a store clears
 * such slots: after one, churning writes must not grow the file.
 */
static int
churn(ar_txn *t, void *arg)
{
	struct ar_request rq = request(T0 + 3600, 3600, 1);
	struct ar_answer a;
	struct ar_resv r;
	int rc;

	(void)arg;
	rq.user = "churn";
	if ((rc = ar_add(t, &rq, &a)) != 0)
		return rc;
	return ar_cancel(t, a.id, 1000, &r);
}

static off_t
file_size(const char *dir)
{
	char path[300];
	struct stat st;

	snprintf(path, sizeof(path), "%s/data.mdb", dir);
	return stat(path, &st) == 0 ? st.st_size : -1;
}

static void
test_stale_reader(void)
{
	struct ar_config cfg;
	ar_store *s;
	ar_txn *t;
	off_t before, after;
	pid_t pid, holder;
	int st;
	const char *dir = store_path("stale");

	ar_config_default(&cfg);
	cfg.flags = AR_SIMULATED;
	OK(ar_create(dir, &cfg, T0));
	OK(ar_open(dir, 0, &s));
	for (int i = 0; i < 50; i++)
		OK(ar_write(s, 0, T0, churn, NULL));
	ar_close(s);
	/* Another process keeps the store open: an opener that found it
	 * unused would reset LMDB's reader table anyway. */
	if ((holder = fork()) == 0) {
		if (ar_open(dir, AR_RDONLY, &s) == 0)
			pause();
		_exit(1);
	}
	usleep(100000);
	if ((pid = fork()) == 0) {
		if (ar_open(dir, AR_RDONLY, &s) == 0 &&
		    ar_txn_begin(s, 0, T0, &t) == 0)
			raise(SIGKILL);
		_exit(1);
	}
	CHECK(waitpid(pid, &st, 0) == pid && WIFSIGNALED(st),
	    "the reader was not killed in its transaction");
	before = file_size(dir);
	OK(ar_open(dir, 0, &s));
	for (int i = 0; i < 300; i++)
		OK(ar_write(s, 0, T0, churn, NULL));
	ar_close(s);
	after = file_size(dir);
	kill(holder, SIGKILL);
	waitpid(holder, &st, 0);
	printf("stale reader: data.mdb %lld bytes before 300 writes, %lld "
	    "after\n", (long long)before, (long long)after);
	CHECK(after - before < 64 * 1024, "the file grew by %lld bytes",
	    (long long)(after - before));
	rm_store(dir);
}

/* A store's address as a message shows it: every password masked, the
 * rest as it was; cut short to fit. */
static void
test_where_masked(void)
{
	static const struct {
		const char *where, *shown;
	} cases[] = {
		{ "/var/lib/ar", "/var/lib/ar" },
		{ "postgresql://ar@db1/ar?store=c1",
		    "postgresql://ar@db1/ar?store=c1" },
		{ "postgresql://ar:s3cret@db1/ar", "postgresql://ar:***@db1/ar" },
		{ "postgres://ar:s3cret@db1:5432,db2:5432/ar?store=c1",
		    "postgres://ar:***@db1:5432,db2:5432/ar?store=c1" },
		{ "postgresql://ar:a@b@db1/ar", "postgresql://ar:***@db1/ar" },
		{ "postgresql://ar@db1/ar?store=c1&password=s3cret&sslmode=require",
		    "postgresql://ar@db1/ar?store=c1&password=***&sslmode=require" },
		{ "postgresql://db1/ar?Password=x&pass%77ord=y#password=z",
		    "postgresql://db1/ar?Password=x&pass%77ord=***#password=z" },
		{ "postgresql://u:p@h?password=q", "postgresql://u:***@h?password=***" },
		{ "postgresql://u:@h?password=", "postgresql://u:@h?password=" },
		{ "host=db1 password=s3cret dbname=ar",
		    "host=db1 password=*** dbname=ar" },
		{ "host=db1 password = 'a b\\' c' dbname=ar",
		    "host=db1 password = *** dbname=ar" },
		{ "mypassword=x", "mypassword=x" },
	};
	char buf[128];
	size_t n;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		n = ar_where_masked(cases[i].where, buf, sizeof(buf));
		CHECK(strcmp(buf, cases[i].shown) == 0 &&
		    n == strlen(cases[i].shown), "%s: %s (%zu)",
		    cases[i].where, buf, n);
	}
	n = ar_where_masked("postgresql://ar:s3cret@db1/ar", buf, 20);
	CHECK(n == 26 && strcmp(buf, "postgresql://ar:***") == 0,
	    "cut short: %s (%zu)", buf, n);
}

/*
 * test_lib runs every test on LMDB stores in a scratch directory, the
 * model test over a quarter of its span (still 5 laps of the ring);
 * test_lib --mem runs those of the algorithms on memory stores, the
 * model over its whole span; test_lib --pg URI runs the model (a
 * quarter), moves and rings on stores in that PostgreSQL database; the
 * slot lists' buckets test checks its 100,000-node store after every
 * transaction, a round trip per record there, and stays off PostgreSQL
 * (the model test covers the lists on every backend).
 */
int
main(int argc, char **argv)
{
	if (suite_begin() != 0)
		return 1;
	if (argc == 3 && strcmp(argv[1], "--pg") == 0) {
		pg_uri = argv[2];
		test_model(4);
		test_rearrange();
		test_rings();
		test_ring_reads();
		return suite_end();
	}
	if (suite_memory(argc, argv)) {
		test_basic();
		test_ended();
		test_client_key();
		test_classes();
		test_forecast();
		test_model(1);
		test_rearrange();
		test_end_buckets();
		test_rings();
		test_ring_reads();
		return suite_end();
	}
	test_create_open();
	test_basic();
	test_ended();
	test_client_key();
	test_moldable();
	test_upgrade();
	test_live_clock();
	test_upgrade_v4();
	test_upgrade_v5();
	test_classes();
	test_forecast();
	test_map_full();
	test_longest();
	test_model(4);
	test_rearrange();
	test_end_buckets();
	test_rings();
	test_ring_reads();
	test_stale_reader();
	test_where_masked();
	rmdir(store_path("bad"));
	return suite_end();
}
