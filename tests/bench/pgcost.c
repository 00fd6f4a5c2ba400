/*
 * pgcost.c - where the time goes on PostgreSQL: a transaction with
 * nothing in it, with one request, and a request in a group of 1000,
 * through ar's library, beside the same on LMDB; and the round trips
 * each takes, counted where the backend calls libpq.
 */
#include <stdio.h>
#include <string.h>

#include "ar.h"
#include "bench.h"
#include "pg/pq.h"

#define GROUP 1000              /* requests in a group transaction */
#define REPS 50                 /* transactions timed at a time */
#define CLOCK 1699999800        /* a slot boundary */

/*
 * What the backend sends: simple statements (BEGIN with the lock,
 * COMMIT), savepoints, prepared ones by kind, pipeline syncs (a wait for
 * the puts sent ahead), and the puts sent ahead, which wait for nothing.
 */
enum trip { T_TXN, T_SAVEPOINT, T_GET, T_BATCH, T_CHANGE, T_OTHER, T_SYNC,
	T_SENT, NTRIPS };

static const char *const trip_names[NTRIPS] = { "txn", "savept", "get",
    "batch", "change", "other", "sync", "sent" };
static uint64_t trips[NTRIPS];
static struct pq real;          /* libpq's own functions */
static enum trip kinds[32];     /* of the prepared statements s0 .. s31 */

/* The kind of a prepared statement, by its first words (lib/pg/pg.c). */
static enum trip
kind_of(const char *sql)
{
	if (strncmp(sql, "SELECT d, v ", 12) == 0)
		return T_GET;
	if (strncmp(sql, "SELECT k, d, v ", 15) == 0)
		return T_BATCH;
	if (strncmp(sql, "INSERT ", 7) == 0 || strncmp(sql, "DELETE ", 7) == 0)
		return T_CHANGE;
	return T_OTHER;
}

/* The kind of the statement the backend named "sN". */
static enum trip *
kind_slot(const char *name)
{
	static enum trip other = T_OTHER;
	int i;

	if (name[0] != 's' || sscanf(name + 1, "%d", &i) != 1 || i < 0 ||
	    i >= (int)(sizeof(kinds) / sizeof(kinds[0])))
		return &other;
	return &kinds[i];
}

static PGresult *
counted_exec(PGconn *conn, const char *sql)
{
	int sp = strncmp(sql, "SAVEPOINT", 9) == 0 ||
	    strncmp(sql, "RELEASE", 7) == 0 ||
	    strncmp(sql, "ROLLBACK TO", 11) == 0;

	trips[sp ? T_SAVEPOINT : T_TXN]++;
	return real.PQexec(conn, sql);
}

static PGresult *
counted_prepare(PGconn *conn, const char *name, const char *sql, int n,
    const Oid *types)
{
	trips[T_OTHER]++;
	*kind_slot(name) = kind_of(sql);
	return real.PQprepare(conn, name, sql, n, types);
}

static PGresult *
counted_exec_prepared(PGconn *conn, const char *name, int n,
    const char *const *values, const int *lengths, const int *formats,
    int result_format)
{
	trips[*kind_slot(name)]++;
	return real.PQexecPrepared(conn, name, n, values, lengths, formats,
	    result_format);
}

static int
counted_send_prepared(PGconn *conn, const char *name, int n,
    const char *const *values, const int *lengths, const int *formats,
    int result_format)
{
	trips[T_SENT]++;
	return real.PQsendQueryPrepared(conn, name, n, values, lengths,
	    formats, result_format);
}

static int
counted_sync(PGconn *conn)
{
	trips[T_SYNC]++;
	return real.PQpipelineSync(conn);
}

/*
 * Count the round trips from now on: the bench puts its counting
 * functions in the table pq_load filled, which the backend calls libpq
 * through.  Statements a connection prepared before are counted as
 * other; the store measured here is opened after.
 */
static int
count_trips(void)
{
	if (pq_load() != 0) {
		fprintf(stderr, "bench: libpq.so.5 cannot be loaded\n");
		return -1;
	}
	if (real.PQexec != NULL)
		return 0;
	real = pq;
	pq.PQexec = counted_exec;
	pq.PQprepare = counted_prepare;
	pq.PQexecPrepared = counted_exec_prepared;
	pq.PQsendQueryPrepared = counted_send_prepared;
	pq.PQpipelineSync = counted_sync;
	return 0;
}

/* --- the figures ------------------------------------------------------ */

enum { C_READ, C_EMPTY, C_ONE, C_SEARCH, C_ADD, C_COMMIT, NCOSTS };

static const char *const cost_names[NCOSTS] = {
	"read transaction: begin, abort",
	"write transaction, empty: begin, lock, commit",
	"one ar_add, a transaction of its own",
	"ar_search, per request in a group of 1000",
	"ar_add, per request in a group of 1000",
	"the group's commit, per request",
};

/* One backend's figures: the fastest run's, per repetition. */
struct cost {
	double us[NCOSTS];
	double trips[NCOSTS][NTRIPS];
};

/* Keep run's figure of cost k if it is the fastest yet. */
static void
note(struct cost *c, int k, int run, uint64_t ns, const uint64_t *before,
    int reps)
{
	double us = (double)ns / 1e3 / reps;

	if (run > 0 && us >= c->us[k])
		return;
	c->us[k] = us;
	for (int j = 0; j < NTRIPS; j++)
		c->trips[k][j] = (double)(trips[j] - before[j]) / reps;
}

/* Request k: an hour of 1 to 4 nodes, in one of the horizon's hours. */
static void
request(uint64_t k, struct ar_request *rq)
{
	memset(rq, 0, sizeof(*rq));
	rq->earliest = rq->latest = CLOCK + 3600 * (int64_t)(1 + k % 600);
	rq->duration = 3600;
	rq->nodes = 1 + (uint32_t)(k % 4);
	rq->jobs = 1;
}

static int
fail(const char *what, int rc)
{
	fprintf(stderr, "bench: pgcost: %s: %s\n", what, rc ? ar_strerror(rc) :
	    "not granted");
	return -1;
}

/* Add request k in t; it must be granted. */
static int
add(ar_txn *t, uint64_t k)
{
	struct ar_request rq;
	struct ar_answer ans;
	int rc;

	request(k, &rq);
	if ((rc = ar_add(t, &rq, &ans)) != 0)
		return fail("ar_add", rc);
	return ans.status == AR_GRANTED ? 0 : fail("ar_add", 0);
}

/* REPS transactions of one kind: read, empty, or with one add. */
static int
transactions(ar_store *s, int k, int run, uint64_t *next, struct cost *c)
{
	uint64_t before[NTRIPS], t0;
	ar_txn *t;
	int rc;

	memcpy(before, trips, sizeof(before));
	t0 = now_ns();
	for (int i = 0; i < REPS; i++) {
		if ((rc = ar_txn_begin(s, k == C_READ ? 0 : AR_WRITE, CLOCK,
		    &t)) != 0)
			return fail("ar_txn_begin", rc);
		if (k == C_READ) {
			ar_txn_abort(t);
			continue;
		}
		if (k == C_ONE && add(t, (*next)++) != 0) {
			ar_txn_abort(t);
			return -1;
		}
		if ((rc = ar_txn_commit(t)) != 0)
			return fail("ar_txn_commit", rc);
	}
	note(c, k, run, now_ns() - t0, before, REPS);
	return 0;
}

/* A group transaction: GROUP searches, then GROUP adds, then commit. */
static int
group(ar_store *s, int run, uint64_t *next, struct cost *c)
{
	uint64_t before[NTRIPS], t0;
	struct ar_request rq;
	struct ar_answer ans;
	ar_txn *t;
	int rc;

	if ((rc = ar_txn_begin(s, AR_WRITE, CLOCK, &t)) != 0)
		return fail("ar_txn_begin", rc);
	memcpy(before, trips, sizeof(before));
	t0 = now_ns();
	for (uint64_t k = *next; k < *next + GROUP; k++) {
		request(k, &rq);
		if ((rc = ar_search(t, &rq, &ans)) != 0) {
			ar_txn_abort(t);
			return fail("ar_search", rc);
		}
	}
	note(c, C_SEARCH, run, now_ns() - t0, before, GROUP);
	memcpy(before, trips, sizeof(before));
	t0 = now_ns();
	for (int i = 0; i < GROUP; i++)
		if (add(t, (*next)++) != 0) {
			ar_txn_abort(t);
			return -1;
		}
	note(c, C_ADD, run, now_ns() - t0, before, GROUP);
	memcpy(before, trips, sizeof(before));
	t0 = now_ns();
	if ((rc = ar_txn_commit(t)) != 0)
		return fail("ar_txn_commit", rc);
	note(c, C_COMMIT, run, now_ns() - t0, before, GROUP);
	return 0;
}

/* Every figure of the store at where, the fastest of 3 runs. */
static int
measure(const char *where, struct cost *c)
{
	struct ar_config cfg;
	uint64_t next = 0;
	ar_store *s;
	int rc;

	ar_config_default(&cfg);
	cfg.flags = AR_SIMULATED;
	if ((rc = ar_create(where, &cfg, CLOCK)) != 0 ||
	    (rc = ar_open(where, 0, &s)) != 0)
		return fail(where, rc);
	for (int run = 0; run < 3; run++)
		for (int k = C_READ; k <= C_ONE; k++)
			if (transactions(s, k, run, &next, c) != 0) {
				ar_close(s);
				return -1;
			}
	for (int run = 0; run < 3; run++)
		if (group(s, run, &next, c) != 0) {
			ar_close(s);
			return -1;
		}
	ar_close(s);
	return 0;
}

int
pg_cost(void)
{
	struct cost lmdb, pg;
	double batched[2], durable;
	char *dir, *uri;

	memset(&lmdb, 0, sizeof(lmdb));
	memset(&pg, 0, sizeof(pg));
	if (count_trips() != 0 || (dir = scratch_dir("pgcost")) == NULL ||
	    (uri = pg_store("cost")) == NULL || measure(dir, &lmdb) != 0 ||
	    measure(uri, &pg) != 0)
		return -1;
	printf("\n== Where the time goes on PostgreSQL: ar's library, "
	    "microseconds, beside LMDB;\n   the round trips each takes on "
	    "PostgreSQL, by what was sent (the fastest of 3 runs)\n\n");
	printf("  %-46s %9s %10s", "", "LMDB", "PostgreSQL");
	for (int j = 0; j < NTRIPS; j++)
		printf(" %6s", trip_names[j]);
	printf("\n");
	for (int k = 0; k < NCOSTS; k++) {
		printf("  %-46s %9.1f %10.1f", cost_names[k], lmdb.us[k],
		    pg.us[k]);
		for (int j = 0; j < NTRIPS; j++)
			if (pg.trips[k][j] == 0)
				printf(" %6s", "-");
			else if (pg.trips[k][j] < 0.005)
				printf(" %6s", "<0.01");
			else
				printf(" %6.2f", pg.trips[k][j]);
		printf("\n");
	}
	/* A request in a group: its add and its share of the commit. */
	batched[0] = lmdb.us[C_ONE] / (lmdb.us[C_ADD] + lmdb.us[C_COMMIT]);
	batched[1] = pg.us[C_ONE] / (pg.us[C_ADD] + pg.us[C_COMMIT]);
	durable = pg.us[C_ONE] - pg.us[C_EMPTY] - pg.us[C_ADD];
	printf("  %-46s %8.0fx %9.0fx\n", "1/txn over group, per add "
	    "(what batching buys)", batched[0], batched[1]);
	printf("  %-46s %9.1f %10.1f\n", "the commit's durable write "
	    "(one - empty - add)", lmdb.us[C_ONE] - lmdb.us[C_EMPTY] -
	    lmdb.us[C_ADD], durable);
	printf("  (%d transactions at a time, or a group of %d requests of 1-4 "
	    "nodes for an hour, spread\n   over 600 hours; txn: BEGIN with "
	    "the writer's lock, COMMIT; savept: a child transaction's\n   "
	    "SAVEPOINT, RELEASE; get, batch (a cursor's rows), change: "
	    "prepared statements that wait\n   for their answer; sync: a wait "
	    "for the puts sent ahead (sent), which wait for nothing)\n",
	    REPS, GROUP);
	return 0;
}
