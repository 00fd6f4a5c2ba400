/*
 * sqlite.c - a straightforward SQLite baseline: a table of per-slot node
 * counts and a table of reservations, WAL mode, one transaction per
 * admission (and per delete), prepared statements.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

enum {
	Q_BEGIN, Q_COMMIT, Q_PEAK, Q_COUNTS, Q_RESV, Q_SLOTS, Q_USE, Q_ENDED,
	Q_DEL, NQ
};

static const char *const sql[NQ] = {
	"BEGIN IMMEDIATE",
	"COMMIT",
	"SELECT MAX(used) FROM slots WHERE slot BETWEEN ?1 AND ?2",
	"SELECT slot, used FROM slots WHERE slot BETWEEN ?1 AND ?2 "
	    "ORDER BY slot",
	"INSERT INTO reservations(start, end, nodes) VALUES (?1, ?2, ?3)",
	"WITH RECURSIVE r(s) AS (VALUES(?1) UNION ALL "
	    "SELECT s + 1 FROM r WHERE s < ?2) "
	    "INSERT OR IGNORE INTO slots(slot, used) SELECT s, 0 FROM r",
	"UPDATE slots SET used = used + ?3 WHERE slot BETWEEN ?1 AND ?2",
	"SELECT id FROM reservations WHERE end <= ?1",
	"DELETE FROM reservations WHERE id = ?1",
};

static const char schema[] =
	"PRAGMA journal_mode = WAL;"
	"CREATE TABLE slots (slot INTEGER PRIMARY KEY, used INTEGER NOT NULL);"
	"CREATE TABLE reservations (id INTEGER PRIMARY KEY,"
	" start INTEGER NOT NULL, end INTEGER NOT NULL,"
	" nodes INTEGER NOT NULL);"
	"CREATE INDEX reservations_end ON reservations(end);";

struct sq {
	sqlite3 *db;
	sqlite3_stmt *q[NQ];
	int64_t base;           /* floor(clock / slot) */
	int64_t *ids;
	size_t cap;
};

static int
fail(struct sq *x, const char *what)
{
	fprintf(stderr, "bench: sqlite: %s: %s\n", what, sqlite3_errmsg(x->db));
	return -1;
}

/* Run statement k with up to three integer parameters to completion. */
static int
exec3(struct sq *x, int k, int64_t a, int64_t b, int64_t c)
{
	sqlite3_stmt *s = x->q[k];
	int rc;

	if (sqlite3_bind_int64(s, 1, a) != SQLITE_OK ||
	    (sqlite3_bind_parameter_count(s) >= 2 &&
	    sqlite3_bind_int64(s, 2, b) != SQLITE_OK) ||
	    (sqlite3_bind_parameter_count(s) >= 3 &&
	    sqlite3_bind_int64(s, 3, c) != SQLITE_OK))
		return fail(x, sql[k]);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		;
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? 0 : fail(x, sql[k]);
}

static int
exec0(struct sq *x, int k)
{
	int rc = sqlite3_step(x->q[k]);

	sqlite3_reset(x->q[k]);
	return rc == SQLITE_DONE ? 0 : fail(x, sql[k]);
}

static int
sq_purge(const struct backend *b, int64_t clock, struct stats *st)
{
	struct sq *x = b->ctx;
	sqlite3_stmt *s = x->q[Q_ENDED];
	size_t n = 0;
	int rc;

	x->base = slots_down(clock, SLOT);
	/* A reservation has ended when end * SLOT <= clock. */
	if (sqlite3_bind_int64(s, 1, x->base) != SQLITE_OK)
		return fail(x, "bind");
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (n == x->cap) {
			int64_t *p;

			x->cap = x->cap ? 2 * x->cap : 4096;
			if ((p = realloc(x->ids, x->cap * sizeof(*p))) == NULL) {
				sqlite3_reset(s);
				fprintf(stderr, "bench: out of memory\n");
				return -1;
			}
			x->ids = p;
		}
		x->ids[n++] = sqlite3_column_int64(s, 0);
	}
	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return fail(x, sql[Q_ENDED]);
	for (size_t i = 0; i < n; i++) {
		uint64_t t0, t1;

		if (exec0(x, Q_BEGIN) != 0)
			return -1;
		t0 = now_ns();
		if (exec3(x, Q_DEL, x->ids[i], 0, 0) != 0)
			return -1;
		t1 = now_ns();
		if (exec0(x, Q_COMMIT) != 0)
			return -1;
		if (sample(&st->op[OP_DELETE], t1 - t0) != 0 ||
		    sample(&st->op[OP_COMMIT], now_ns() - t1) != 0)
			return -1;
		st->ndeleted++;
	}
	return 0;
}

static int
sq_run(const struct backend *b, const struct trace *tr, size_t from,
    size_t to, int64_t clock, struct stats *st)
{
	struct sq *x = b->ctx;
	uint64_t t;

	(void)clock;
	for (size_t i = from; i < to; i++) {
		if (exec0(x, Q_BEGIN) != 0 || admit(b, tr, i, st) != 0)
			return -1;
		t = now_ns();
		if (exec0(x, Q_COMMIT) != 0 ||
		    sample(&st->op[OP_COMMIT], now_ns() - t) != 0)
			return -1;
	}
	return 0;
}

static int
sq_search(void *ctx, const struct req *q, enum fit *f)
{
	struct sq *x = ctx;
	sqlite3_stmt *s = x->q[Q_PEAK];
	int64_t first = slots_up(q->start, SLOT), len = slots_up(q->dur, SLOT);
	int rc;

	if (first + len > x->base + HORIZON / SLOT) {
		*f = BEYOND;
		return 0;
	}
	if (sqlite3_bind_int64(s, 1, first) != SQLITE_OK ||
	    sqlite3_bind_int64(s, 2, first + len - 1) != SQLITE_OK)
		return fail(x, "bind");
	if ((rc = sqlite3_step(s)) != SQLITE_ROW) {
		sqlite3_reset(s);
		return fail(x, sql[Q_PEAK]);
	}
	/* NULL (no rows yet) reads as 0. */
	*f = sqlite3_column_int64(s, 0) + q->nodes <= NODES ? FIT : FULL;
	sqlite3_reset(s);
	return 0;
}

/* GarQ Algorithm 4 over the counts read in slot order; no row means 0. */
static int
sq_suggest(void *ctx, const struct req *q, int64_t *start)
{
	struct sq *x = ctx;
	sqlite3_stmt *s = x->q[Q_COUNTS];
	int64_t first = slots_up(q->start, SLOT), len = slots_up(q->dur, SLOT);
	int64_t hi = first + SUGGEST_LIMIT / SLOT, at = first, count = 0;
	int rc = SQLITE_DONE;

	*start = -1;
	if (hi > x->base + HORIZON / SLOT - len)
		hi = x->base + HORIZON / SLOT - len;
	if (hi < first)
		return 0;
	if (sqlite3_bind_int64(s, 1, first) != SQLITE_OK ||
	    sqlite3_bind_int64(s, 2, hi + len - 1) != SQLITE_OK)
		return fail(x, "bind");
	for (int64_t next = first; at <= hi; next++) {
		int64_t slot = hi + len, used = 0;

		if ((rc = sqlite3_step(s)) == SQLITE_ROW) {
			slot = sqlite3_column_int64(s, 0);
			used = sqlite3_column_int64(s, 1);
		} else if (rc != SQLITE_DONE)
			break;
		/* The slots without a row are free. */
		if (count + slot - next >= len) {
			*start = at;
			break;
		}
		count += slot - next;
		next = slot;
		if (rc == SQLITE_DONE)
			break;
		if (used + q->nodes > NODES) {
			at = slot + 1;
			count = 0;
		} else if (++count >= len) {
			*start = at;
			break;
		}
	}
	sqlite3_reset(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return fail(x, sql[Q_COUNTS]);
	if (*start > hi)
		*start = -1;
	else if (*start >= 0)
		*start *= SLOT;
	return 0;
}

static int
sq_add(void *ctx, const struct req *q, int64_t start, int64_t *granted)
{
	struct sq *x = ctx;
	int64_t first = start / SLOT, last = first + slots_up(q->dur, SLOT) - 1;

	if (exec3(x, Q_RESV, first, last + 1, q->nodes) != 0 ||
	    exec3(x, Q_SLOTS, first, last, 0) != 0 ||
	    exec3(x, Q_USE, first, last, q->nodes) != 0)
		return -1;
	*granted = start;
	return 0;
}

int
sqlite_backend(struct backend *b, const char *dir, int full)
{
	char path[4200];
	struct sq *x;

	if ((x = calloc(1, sizeof(*x))) == NULL) {
		fprintf(stderr, "bench: out of memory\n");
		return -1;
	}
	b->ctx = x;
	snprintf(path, sizeof(path), "%s/bench.sqlite", dir);
	if (sqlite3_open(path, &x->db) != SQLITE_OK) {
		fail(x, path);
		sqlite_backend_free(b);
		return -1;
	}
	if (sqlite3_exec(x->db, schema, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(x->db, full ? "PRAGMA synchronous = FULL" :
	    "PRAGMA synchronous = OFF", NULL, NULL, NULL) != SQLITE_OK) {
		fail(x, "schema");
		sqlite_backend_free(b);
		return -1;
	}
	for (int k = 0; k < NQ; k++)
		if (sqlite3_prepare_v2(x->db, sql[k], -1, &x->q[k], NULL) !=
		    SQLITE_OK) {
			fail(x, sql[k]);
			sqlite_backend_free(b);
			return -1;
		}
	b->name = full ? "SQLite, sync=FULL" : "SQLite, sync=OFF";
	b->purge = sq_purge;
	b->run = sq_run;
	b->search = sq_search;
	b->suggest = sq_suggest;
	b->add = sq_add;
	b->period = NULL;
	b->hook = NULL;
	return 0;
}

void
sqlite_backend_free(struct backend *b)
{
	struct sq *x = b->ctx;

	for (int k = 0; k < NQ; k++)
		sqlite3_finalize(x->q[k]);
	if (sqlite3_close(x->db) != SQLITE_OK)
		fprintf(stderr, "bench: sqlite: close: %s\n",
		    sqlite3_errmsg(x->db));
	free(x->ids);
	free(x);
}
