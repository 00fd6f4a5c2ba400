/*
 * pg.c - the PostgreSQL backend: the stores of a database share three
 * tables (format/SCHEMA.md, "The PostgreSQL schema").  ar_store names
 * the stores; ar_kv holds every table of every store, one row per
 * entry, (store, tab, k, d) its primary key: d is a KV_LABELS value,
 * empty in the other tables, whose value is v.  bytea sorts like memcmp,
 * a prefix first, which is LMDB's order.
 *
 * A writer holds its store's advisory lock for its transaction and reads
 * at READ COMMITTED, so every statement sees all that committed before
 * the lock was granted; a reader reads one REPEATABLE READ snapshot.
 * Round trips are what a transaction costs: statements are prepared
 * once per connection and take and give bytes (binary format), gets are
 * remembered for the transaction, cursors read rows in batches, and
 * puts that replace are sent ahead in pipeline mode, their results read
 * with the next statement's.
 *
 * Memory: a transaction keeps what it got and put (copies, in its
 * cache), a cursor only its last batch, which goes when it reads the
 * next one or closes; an exact lookup reads one row, and a cursor's
 * batches grow only while it steps on.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "kv.h"
#include "pq.h"

#define SCHEMA_VERSION 1
#define NAME_LEN_MAX 63
#define NAME_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" \
	"0123456789._-"
/* Advisory locks: creations take the one of LOCK_CREATE, a writer the
 * one of (LOCK_WRITER, its store's id); the two-key locks are a space
 * of their own, so they never meet the single-key one. */
#define LOCK_CREATE 0x61725354
#define LOCK_WRITER 0x6172
#define BATCH_FIRST 4           /* rows a cursor's positioning reads */
#define BATCH_MAX 64            /* rows its steps read at most at once */
#define BLOCK_SIZE 65536        /* a transaction's memory comes in these */
#define QUEUED_MAX 256          /* puts sent ahead of their results */

/* The parameters' types (PostgreSQL's catalog numbers, fixed). */
#define OID_BYTEA 17
#define OID_INT2 21
#define OID_INT4 23

/* A session's settings: durable commits, and unless the URI gives one,
 * a name saying which process on which host it serves, for a writer
 * that waits on it. */
#define SESSION "SET synchronous_commit = on"
#define APP_PREFIX "ar "

enum stmt {
	S_GET, S_PUT, S_ADD, S_DEL, S_DELDUP, S_COUNT,
	S_GE, S_GT, S_LT, S_LAST,
	S_STMTS
};

/* Each one's text has the store's id for %d: a statement is prepared
 * on one store's connection. */
static const struct {
	const char *sql;
	int nparams;
	Oid types[4];
} stmts[S_STMTS] = {
	[S_GET] = { "SELECT d, v FROM ar_kv WHERE store = %d AND tab = $1 "
	    "AND k = $2 ORDER BY d LIMIT 1", 2, { OID_INT2, OID_BYTEA } },
	[S_PUT] = { "INSERT INTO ar_kv VALUES (%d, $1, $2, $3, $4) "
	    "ON CONFLICT (store, tab, k, d) DO UPDATE SET v = excluded.v", 4,
	    { OID_INT2, OID_BYTEA, OID_BYTEA, OID_BYTEA } },
	[S_ADD] = { "INSERT INTO ar_kv VALUES (%d, $1, $2, $3, $4) "
	    "ON CONFLICT DO NOTHING", 4,
	    { OID_INT2, OID_BYTEA, OID_BYTEA, OID_BYTEA } },
	[S_DEL] = { "DELETE FROM ar_kv WHERE store = %d AND tab = $1 "
	    "AND k = $2", 2, { OID_INT2, OID_BYTEA } },
	[S_DELDUP] = { "DELETE FROM ar_kv WHERE store = %d AND tab = $1 "
	    "AND k = $2 AND d = $3", 3, { OID_INT2, OID_BYTEA, OID_BYTEA } },
	[S_COUNT] = { "SELECT count(*) FROM ar_kv WHERE store = %d "
	    "AND tab = $1", 1, { OID_INT2 } },
	[S_GE] = { "SELECT k, d, v FROM ar_kv WHERE store = %d AND tab = $1 "
	    "AND (k, d) >= ($2, $3) ORDER BY k, d LIMIT $4", 4,
	    { OID_INT2, OID_BYTEA, OID_BYTEA, OID_INT4 } },
	[S_GT] = { "SELECT k, d, v FROM ar_kv WHERE store = %d AND tab = $1 "
	    "AND (k, d) > ($2, $3) ORDER BY k, d LIMIT $4", 4,
	    { OID_INT2, OID_BYTEA, OID_BYTEA, OID_INT4 } },
	[S_LT] = { "SELECT k, d, v FROM ar_kv WHERE store = %d AND tab = $1 "
	    "AND (k, d) < ($2, $3) ORDER BY k DESC, d DESC LIMIT $4", 4,
	    { OID_INT2, OID_BYTEA, OID_BYTEA, OID_INT4 } },
	[S_LAST] = { "SELECT k, d, v FROM ar_kv WHERE store = %d AND tab = $1 "
	    "ORDER BY k DESC, d DESC LIMIT $2", 2, { OID_INT2, OID_INT4 } },
};

static const char *const schema_sql =
	"CREATE TABLE ar_schema (version integer NOT NULL);"
	"INSERT INTO ar_schema VALUES (1);"
	"CREATE TABLE ar_store (id serial PRIMARY KEY,"
	" name text UNIQUE NOT NULL, created timestamptz NOT NULL);"
	"CREATE TABLE ar_kv (store integer NOT NULL"
	" REFERENCES ar_store (id) ON DELETE CASCADE,"
	" tab smallint NOT NULL, k bytea NOT NULL,"
	" d bytea NOT NULL DEFAULT '', v bytea NOT NULL DEFAULT '',"
	" PRIMARY KEY (store, tab, k, d))";

struct pg_store {
	struct kv_store base;
	PGconn *conn;
	int id;                 /* in ar_store */
	unsigned flags;         /* AR_RDONLY */
	unsigned prepared;      /* bit s: statement s is prepared on conn */
	int piped;              /* in pipeline mode: puts were sent ahead */
	int queued;             /* how many */
	char session[160];      /* SESSION, with "'ar HOST PID'" */
	char host_app[80];      /* "ar HOST ": how this host names sessions */
};

/* Memory a top-level transaction hands out, freed when it ends. */
struct block {
	struct block *next;
	size_t used, size;
	max_align_t data[];
};

/* A key's value as the transaction knows it: present or not. */
struct entry {
	struct entry *next;
	uint64_t hash;
	enum kv_table tb;
	struct kv_val key, val;
	int present;
};

struct pg_txn {
	struct kv_txn base;
	struct pg_store *ps;
	struct pg_txn *top;     /* the top-level transaction: itself or an
				   ancestor, which holds what follows */
	int write;
	int depth;              /* a child's savepoint is s<depth> */
	int64_t clock;          /* the server's clock when it began ... */
	int clock_known;        /* ... if it was read then */

	struct block *blocks;
	struct entry **buckets; /* the gets' cache */
	size_t nbuckets, nentries;
	unsigned gen[KV_TABLES];/* each table's writes: a cursor's batch
				   of an older one is stale */
};

struct row {
	struct kv_val k, d, v;
};

struct pg_cursor {
	struct kv_cursor base;
	struct pg_txn *t;
	enum kv_table tb;
	PGresult *res;          /* the batch: rows point in it; NULL if none */
	PGresult *old;          /* the one before, while the move that read
				   res runs: what it was given may be there */
	struct row rows[BATCH_MAX];     /* consecutive entries, in order */
	int n;
	int i;                  /* the cursor is at rows[i]; with gap, its
				   entry was deleted and rows[i] follows it */
	int gap;
	int first, last;        /* the batch begins or ends the table */
	int limit;              /* rows the next step's fetch reads */
	unsigned gen;           /* the table's writes when it was read */
	int placed;             /* at is the cursor's entry (or was) */
	struct kv_val at, at_d; /* its key and d, copied to atbuf: they
				   outlive the batch they came from */
	unsigned char *atbuf;
	size_t atroom;
};

static const struct kv_val empty = { 0, "" };

/* The message for AR_ESERVER: the last failure's. */
static char message[256];

static void
say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(message, sizeof(message), fmt, ap);
	va_end(ap);
	message[strcspn(message, "\n")] = '\0';
}

/* The result of a failed statement (res, or NULL for conn's failure). */
static int
failed(PGconn *conn, const PGresult *res)
{
	const char *state = NULL, *text = NULL;

	if (res != NULL) {
		state = pq.PQresultErrorField(res, PG_DIAG_SQLSTATE);
		text = pq.PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
	}
	if (state != NULL && strcmp(state, "55P03") == 0)
		return AR_ETIMEDOUT;    /* lock_not_available: lock_timeout */
	if (state != NULL && strcmp(state, "42P01") == 0)
		return AR_ENOSTORE;     /* undefined_table: no schema */
	if (text == NULL)
		text = conn != NULL ? pq.PQerrorMessage(conn) : "out of memory";
	say("PostgreSQL: %s", text);
	return AR_ESERVER;
}

/*
 * Read the results of the puts sent ahead (send_put) and leave pipeline
 * mode: 0, or the first one's failure.
 */
static int
drain(struct pg_store *ps)
{
	ExecStatusType st;
	PGresult *res;
	int rc = 0;

	if (!ps->piped)
		return 0;
	ps->piped = 0;
	ps->queued = 0;
	if (pq.PQpipelineSync(ps->conn) != 1)
		return failed(ps->conn, NULL);
	for (;;) {
		/* NULL ends one statement's results, or all on a lost
		 * connection. */
		if ((res = pq.PQgetResult(ps->conn)) == NULL) {
			if (pq.PQstatus(ps->conn) != CONNECTION_BAD)
				continue;
			return rc != 0 ? rc : failed(ps->conn, NULL);
		}
		if ((st = pq.PQresultStatus(res)) == PGRES_FATAL_ERROR &&
		    rc == 0)
			rc = failed(ps->conn, res);
		pq.PQclear(res);
		if (st == PGRES_PIPELINE_SYNC)
			break;
	}
	if (pq.PQexitPipelineMode(ps->conn) != 1 && rc == 0)
		rc = failed(ps->conn, NULL);
	return rc;
}

/* Run the statements of sql; the last one's result in *res if res is
 * not NULL, else cleared. */
static int
exec_sql(struct pg_store *ps, const char *sql, PGresult **res)
{
	ExecStatusType st;
	PGresult *r;
	int rc;

	if ((rc = drain(ps)) != 0)
		return rc;
	r = pq.PQexec(ps->conn, sql);
	st = pq.PQresultStatus(r);
	if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK)
		rc = failed(ps->conn, r);
	if (rc == 0 && res != NULL)
		*res = r;
	else
		pq.PQclear(r);
	return rc;
}

/* End the transaction the connection is in, if any, failed or not. */
static void
rollback(struct pg_store *ps)
{
	(void)drain(ps);        /* what failed no longer matters */
	if (pq.PQtransactionStatus(ps->conn) != PQTRANS_IDLE)
		pq.PQclear(pq.PQexec(ps->conn, "ROLLBACK"));
}

/* A postgresql:// or postgres:// URI. */
static int
pg_claims(const char *where)
{
	return strncmp(where, "postgresql://", 13) == 0 ||
	    strncmp(where, "postgres://", 11) == 0;
}

/*
 * Split where into what libpq connects to, without the parameter store=
 * (*conninfo, to free), and the store's name (name, NAME_LEN_MAX + 1
 * bytes): AR_EWHERE if it is not [A-Za-z0-9._-]{1,63} or given twice.
 */
static int
where_parse(const char *where, char **conninfo, char *name)
{
	const char *q = strchr(where, '?'), *p, *end, *amp;
	size_t n;
	char *out, *o;
	int named = 0;

	strcpy(name, "default");
	if ((out = strdup(where)) == NULL)
		return ENOMEM;
	*conninfo = out;
	if (q == NULL)
		return 0;
	end = q + strcspn(q, "#");
	o = out + (q - where);
	for (p = q + 1;; p = amp + 1) {
		if ((amp = memchr(p, '&', (size_t)(end - p))) == NULL)
			amp = end;
		n = (size_t)(amp - p);
		if (n >= 6 && memcmp(p, "store=", 6) == 0) {
			n -= 6;
			if (named++ || n == 0 || n > NAME_LEN_MAX ||
			    strspn(p + 6, NAME_CHARS) < n) {
				free(out);
				return AR_EWHERE;
			}
			memcpy(name, p + 6, n);
			name[n] = '\0';
		} else if (n > 0) {
			*o = o == out + (q - where) ? '?' : '&';
			memcpy(o + 1, p, n);
			o += n + 1;
		}
		if (amp == end)
			break;
	}
	memmove(o, end, strlen(end) + 1);
	return 0;
}

static void
quiet(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

/* The session's settings, naming this host (as far as it is a word) and
 * process unless named says the URI names the session. */
static void
session_name(struct pg_store *ps, int named)
{
	char host[64] = "";

	gethostname(host, sizeof(host) - 1);
	host[strspn(host, NAME_CHARS)] = '\0';
	snprintf(ps->host_app, sizeof(ps->host_app), APP_PREFIX "%s ", host);
	if (named)
		snprintf(ps->session, sizeof(ps->session), "%s", SESSION);
	else
		snprintf(ps->session, sizeof(ps->session), "%s; SET "
		    "application_name = '%s%ld'", SESSION, ps->host_app,
		    (long)getpid());
}

/* Connect to the database where names; its store's name in name. */
static int
store_connect(const char *where, unsigned flags, char *name,
    struct pg_store **psp)
{
	struct pg_store *ps;
	char *conninfo;
	int rc;

	if (pq_load() != 0) {
		say("cannot load libpq.so.5 (install libpq5)");
		return AR_ESERVER;
	}
	if ((rc = where_parse(where, &conninfo, name)) != 0)
		return rc;
	if ((ps = calloc(1, sizeof(*ps))) == NULL) {
		free(conninfo);
		return ENOMEM;
	}
	ps->base.be = &kv_postgresql;
	ps->flags = flags;
	ps->conn = pq.PQconnectdb(conninfo);
	free(conninfo);
	if (ps->conn == NULL)
		rc = ENOMEM;
	else if (pq.PQstatus(ps->conn) != CONNECTION_OK) {
		rc = failed(ps->conn, NULL);
		/* libpq may quote the address, its password too. */
		where_mask_text(where, message, sizeof(message));
	}
	else {
		/* The library never prints: notices and warnings neither. */
		pq.PQsetNoticeProcessor(ps->conn, quiet, NULL);
		session_name(ps, strstr(where, "application_name=") != NULL);
	}
	if (rc != 0) {
		pq.PQfinish(ps->conn);
		free(ps);
		return rc;
	}
	*psp = ps;
	return 0;
}

/*
 * After the session's setting (and in create's transaction), find the
 * store called name: its id in ps, or 0 if there is none.  AR_ENOSTORE if
 * the database has no schema, AR_EVERSION if a newer one.
 */
static int
store_find(struct pg_store *ps, const char *before, const char *name)
{
	char sql[256];
	PGresult *res;
	int rc, version;

	snprintf(sql, sizeof(sql), "%s; SELECT (SELECT max(version) "
	    "FROM ar_schema), (SELECT id FROM ar_store WHERE name = '%s')",
	    before, name);
	if ((rc = exec_sql(ps, sql, &res)) != 0)
		return rc;
	if (pq.PQntuples(res) != 1 || pq.PQgetisnull(res, 0, 0))
		rc = AR_ENOSTORE;
	else if ((version = atoi(pq.PQgetvalue(res, 0, 0))) > SCHEMA_VERSION)
		rc = AR_EVERSION;
	else if (version < 1)
		rc = AR_ECORRUPT;
	else
		ps->id = pq.PQgetisnull(res, 0, 1) ? 0 :
		    atoi(pq.PQgetvalue(res, 0, 1));
	pq.PQclear(res);
	return rc;
}

static void
pg_close(struct kv_store *ks)
{
	struct pg_store *ps = (struct pg_store *)ks;

	pq.PQfinish(ps->conn);
	free(ps);
}

static int
pg_open(const char *where, unsigned flags, struct kv_store **ks)
{
	char name[NAME_LEN_MAX + 1];
	struct pg_store *ps;
	int rc;

	if ((rc = store_connect(where, flags, name, &ps)) != 0)
		return rc;
	if ((rc = store_find(ps, ps->session, name)) == 0 && ps->id == 0)
		rc = AR_ENOSTORE;
	if (rc != 0) {
		pg_close(&ps->base);
		return rc;
	}
	*ks = &ps->base;
	return 0;
}

static int
pg_complete(struct kv_store *ks)
{
	(void)ks;
	return 1;               /* ar_kv holds every table */
}

/* --- a transaction's memory and cache ------------------------------- */

static void *
arena_alloc(struct pg_txn *top, size_t size)
{
	struct block *b = top->blocks;
	size_t need = (size + sizeof(max_align_t) - 1) &
	    ~(sizeof(max_align_t) - 1);
	void *p;

	if (b == NULL || b->size - b->used < need) {
		size_t room = BLOCK_SIZE - sizeof(*b);

		if (need > room)
			room = need;
		if ((b = malloc(sizeof(*b) + room)) == NULL)
			return NULL;
		b->next = top->blocks;
		b->used = 0;
		b->size = room;
		top->blocks = b;
	}
	p = (char *)b->data + b->used;
	b->used += need;
	return p;
}

static uint64_t
hash_of(enum kv_table tb, const struct kv_val *key)
{
	const unsigned char *p = key->data;
	uint64_t h = 0xcbf29ce484222325ULL ^ (unsigned)tb;

	for (size_t i = 0; i < key->size; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

/* The entry of key in tb's cache, or NULL; *slot is where it is linked
 * from (or would be). */
static struct entry *
cache_find(struct pg_txn *top, enum kv_table tb, const struct kv_val *key,
    struct entry ***slot)
{
	uint64_t h = hash_of(tb, key);
	struct entry **e;

	if (top->nbuckets == 0)
		return NULL;
	for (e = &top->buckets[h & (top->nbuckets - 1)]; *e != NULL;
	    e = &(*e)->next)
		if ((*e)->hash == h && (*e)->tb == tb && kv_same(&(*e)->key, key))
			break;
	if (slot != NULL)
		*slot = e;
	return *e;
}

static void
cache_forget(struct pg_txn *top, enum kv_table tb, const struct kv_val *key)
{
	struct entry **slot, *e;

	if ((e = cache_find(top, tb, key, &slot)) != NULL) {
		*slot = e->next;
		top->nentries--;
	}
}

static void
cache_clear(struct pg_txn *top)
{
	if (top->nbuckets > 0)
		memset(top->buckets, 0, top->nbuckets * sizeof(*top->buckets));
	top->nentries = 0;
}

static int
cache_grow(struct pg_txn *top)
{
	size_t n = top->nbuckets ? top->nbuckets * 2 : 64;
	struct entry **b, *e, *next;

	if ((b = calloc(n, sizeof(*b))) == NULL)
		return ENOMEM;
	for (size_t i = 0; i < top->nbuckets; i++)
		for (e = top->buckets[i]; e != NULL; e = next) {
			next = e->next;
			e->next = b[e->hash & (n - 1)];
			b[e->hash & (n - 1)] = e;
		}
	free(top->buckets);
	top->buckets = b;
	top->nbuckets = n;
	return 0;
}

/*
 * Remember that key has val in tb (none if val is NULL), with a copy of
 * val's bytes that lives as long as the transaction: the entry, or NULL
 * without memory for it, and the cache then forgets the key instead,
 * which is just as true.
 */
static struct entry *
cache_set(struct pg_txn *top, enum kv_table tb, const struct kv_val *key,
    const struct kv_val *val)
{
	struct entry **slot, *e;
	void *bytes;

	if ((e = cache_find(top, tb, key, &slot)) == NULL) {
		if ((top->nentries >= top->nbuckets && cache_grow(top) != 0) ||
		    (e = arena_alloc(top, sizeof(*e) + key->size)) == NULL)
			return NULL;
		e->hash = hash_of(tb, key);
		e->tb = tb;
		e->key.size = key->size;
		e->key.data = e + 1;
		memcpy(e + 1, key->data, key->size);
		e->next = top->buckets[e->hash & (top->nbuckets - 1)];
		top->buckets[e->hash & (top->nbuckets - 1)] = e;
		top->nentries++;
	}
	e->present = val != NULL;
	if (val == NULL)
		return e;
	if ((bytes = arena_alloc(top, val->size)) == NULL) {
		cache_forget(top, tb, key);
		return NULL;
	}
	e->val.size = val->size;
	e->val.data = memcpy(bytes, val->data, val->size);
	return e;
}

/* --- statements ----------------------------------------------------- */

struct params {
	const char *values[4];
	int lengths[4];
	int n;
	char tab[2], limit[4];
};

static void
bind_bytes(struct params *p, const struct kv_val *v)
{
	p->values[p->n] = v->size > 0 ? v->data : "";
	p->lengths[p->n++] = (int)v->size;
}

/* The parameters of a statement on tb: the table, then keys or values. */
static void
bind_table(struct params *p, enum kv_table tb)
{
	p->tab[0] = (char)((unsigned)tb >> 8);
	p->tab[1] = (char)tb;
	p->values[0] = p->tab;
	p->lengths[0] = 2;
	p->n = 1;
}

static void
bind_limit(struct params *p, int limit)
{
	uint32_t l = (uint32_t)limit;

	p->limit[0] = (char)(l >> 24);
	p->limit[1] = (char)(l >> 16);
	p->limit[2] = (char)(l >> 8);
	p->limit[3] = (char)l;
	p->values[p->n] = p->limit;
	p->lengths[p->n++] = 4;
}

/* Prepare statement s on the connection if it is not yet; its name. */
static int
prepare(struct pg_store *ps, enum stmt s, char *name)
{
	char sql[256];
	PGresult *r;
	int rc;

	snprintf(name, 8, "s%d", (int)s);
	if (ps->prepared & 1U << s)
		return 0;
	if ((rc = drain(ps)) != 0)
		return rc;
	snprintf(sql, sizeof(sql), stmts[s].sql, ps->id);
	r = pq.PQprepare(ps->conn, name, sql, stmts[s].nparams,
	    stmts[s].types);
	if (pq.PQresultStatus(r) != PGRES_COMMAND_OK)
		rc = failed(ps->conn, r);
	else
		ps->prepared |= 1U << s;
	pq.PQclear(r);
	return rc;
}

static const int binary[4] = { 1, 1, 1, 1 };

/* Run statement s with p's parameters; its result in *res. */
static int
stmt_run(struct pg_store *ps, enum stmt s, const struct params *p,
    PGresult **res)
{
	ExecStatusType st;
	PGresult *r;
	char name[8];
	int rc;

	if ((rc = prepare(ps, s, name)) != 0 || (rc = drain(ps)) != 0)
		return rc;
	r = pq.PQexecPrepared(ps->conn, name, p->n, p->values, p->lengths,
	    binary, 1);
	st = pq.PQresultStatus(r);
	if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
		rc = failed(ps->conn, r);
		pq.PQclear(r);
		return rc;
	}
	*res = r;
	return 0;
}

/*
 * Send a replacing put without waiting for its result: it changes one
 * row whatever was there, so only a failure could be told, and that
 * fails the transaction, which the next statement or the commit reports.
 * A bounded number wait, so that their results never fill the socket.
 */
static int
send_put(struct pg_txn *t, const struct params *p)
{
	struct pg_store *ps = t->ps;
	char name[8];
	int rc;

	if (!t->write)
		return EACCES;
	if ((rc = prepare(ps, S_PUT, name)) != 0 ||
	    (ps->queued == QUEUED_MAX && (rc = drain(ps)) != 0))
		return rc;
	if (!ps->piped) {
		if (pq.PQenterPipelineMode(ps->conn) != 1)
			return failed(ps->conn, NULL);
		ps->piped = 1;
	}
	if (pq.PQsendQueryPrepared(ps->conn, name, p->n, p->values,
	    p->lengths, binary, 1) != 1)
		return failed(ps->conn, NULL);
	ps->queued++;
	return 0;
}

/* A change: *rows, the rows it changed. */
static int
change(struct pg_txn *t, enum stmt s, const struct params *p, int *rows)
{
	PGresult *res;
	int rc;

	if (!t->write)
		return EACCES;
	if ((rc = stmt_run(t->ps, s, p, &res)) != 0)
		return rc;
	*rows = atoi(pq.PQcmdTuples(res));
	pq.PQclear(res);
	return 0;
}

static struct kv_val
column(PGresult *res, int row, int col)
{
	struct kv_val v;

	v.size = (size_t)pq.PQgetlength(res, row, col);
	v.data = pq.PQgetvalue(res, row, col);
	return v;
}

/* --- transactions --------------------------------------------------- */

/* The connection broke: connect again, once, as before. */
static int
reconnect(struct pg_store *ps)
{
	pq.PQreset(ps->conn);
	if (pq.PQstatus(ps->conn) != CONNECTION_OK)
		return failed(ps->conn, NULL);
	ps->prepared = 0;
	ps->piped = 0;
	ps->queued = 0;
	return exec_sql(ps, ps->session, NULL);
}

/* The server's clock, whole seconds since the epoch, as a column. */
#define CLOCK_SQL "floor(extract(epoch FROM clock_timestamp()))::bigint"

/*
 * Begin the connection's transaction: a writer's holds the store's lock.
 * The same statement reads the server's clock into t, once the lock is
 * held (the subquery that takes it comes first): no round trip of its
 * own.
 */
static int
begin(struct pg_store *ps, struct pg_txn *t, long wait_ms)
{
	char sql[320];
	PGresult *res;
	int rc, held, write = t->write;

	if (!write)
		/* The snapshot is taken by the first statement: now. */
		snprintf(sql, sizeof(sql), "BEGIN ISOLATION LEVEL REPEATABLE "
		    "READ READ ONLY; SELECT true, " CLOCK_SQL);
	else if (wait_ms > 0)
		snprintf(sql, sizeof(sql), "BEGIN ISOLATION LEVEL READ "
		    "COMMITTED; SET LOCAL lock_timeout = %ld; "
		    "SELECT true, " CLOCK_SQL " FROM (SELECT "
		    "pg_advisory_xact_lock(%d, %d)) AS l",
		    wait_ms < INT_MAX ? wait_ms : INT_MAX, LOCK_WRITER, ps->id);
	else
		/* lock_timeout 0 would wait for ever. */
		snprintf(sql, sizeof(sql), "BEGIN ISOLATION LEVEL READ "
		    "COMMITTED; SELECT l.held, " CLOCK_SQL " FROM (SELECT "
		    "pg_try_advisory_xact_lock(%d, %d) AS held) AS l",
		    LOCK_WRITER, ps->id);
	for (int tries = 0;; tries++) {
		if (pq.PQstatus(ps->conn) == CONNECTION_BAD &&
		    (rc = reconnect(ps)) != 0)
			return rc;
		if ((rc = exec_sql(ps, sql, &res)) == 0)
			break;
		if (pq.PQstatus(ps->conn) == CONNECTION_BAD && tries == 0)
			continue;
		rollback(ps);
		return rc;
	}
	held = strcmp(pq.PQgetvalue(res, 0, 0), "t") == 0;
	t->clock = strtoll(pq.PQgetvalue(res, 0, 1), NULL, 10);
	t->clock_known = 1;
	pq.PQclear(res);
	if (held)
		return 0;
	rollback(ps);
	return AR_ETIMEDOUT;
}

static struct pg_txn *
txn_new(struct pg_store *ps, struct pg_txn *parent, int write)
{
	struct pg_txn *t;

	if ((t = calloc(1, sizeof(*t))) == NULL)
		return NULL;
	t->base.be = &kv_postgresql;
	t->ps = ps;
	t->write = write;
	t->top = parent != NULL ? parent->top : t;
	t->depth = parent != NULL ? parent->depth + 1 : 0;
	return t;
}

/* Free t, and with a top-level one what the transaction kept. */
static void
txn_free(struct pg_txn *t)
{
	struct block *b, *next;

	if (t->top == t) {
		for (b = t->blocks; b != NULL; b = next) {
			next = b->next;
			free(b);
		}
		free(t->buckets);
	}
	free(t);
}

static int
pg_txn_begin(struct kv_store *ks, struct kv_txn *parent, int write,
    long wait_ms, struct kv_txn **txn)
{
	struct pg_store *ps = (struct pg_store *)ks;
	struct pg_txn *t;
	char sql[32];
	int rc;

	if (write && (ps->flags & AR_RDONLY))
		return EACCES;
	if ((t = txn_new(ps, (struct pg_txn *)parent, write)) == NULL)
		return ENOMEM;
	if (parent != NULL) {
		snprintf(sql, sizeof(sql), "SAVEPOINT s%d", t->depth);
		rc = exec_sql(ps, sql, NULL);
	} else
		rc = begin(ps, t, wait_ms);
	if (rc != 0) {
		txn_free(t);
		return rc;
	}
	*txn = &t->base;
	return 0;
}

static int
pg_txn_commit(struct kv_txn *txn)
{
	struct pg_txn *t = (struct pg_txn *)txn;
	char sql[32];
	PGresult *res;
	int rc;

	if (t->depth > 0) {
		snprintf(sql, sizeof(sql), "RELEASE SAVEPOINT s%d", t->depth);
		rc = exec_sql(t->ps, sql, NULL);
	} else if ((rc = exec_sql(t->ps, "COMMIT", &res)) == 0) {
		/* A transaction that failed before ends so, not in error. */
		if (strcmp(pq.PQcmdStatus(res), "COMMIT") != 0) {
			say("PostgreSQL: the transaction was rolled back");
			rc = AR_ESERVER;
		}
		pq.PQclear(res);
	}
	if (rc != 0 && t->depth == 0)
		rollback(t->ps);        /* a put sent ahead failed */
	txn_free(t);
	return rc;
}

static void
pg_txn_abort(struct kv_txn *txn)
{
	struct pg_txn *t = (struct pg_txn *)txn, *top = t->top;
	char sql[80];

	if (t->depth > 0) {
		snprintf(sql, sizeof(sql), "ROLLBACK TO SAVEPOINT s%d; "
		    "RELEASE SAVEPOINT s%d", t->depth, t->depth);
		(void)drain(t->ps);     /* a failed put is undone too */
		(void)exec_sql(t->ps, sql, NULL);
		/* What the child wrote is gone from the cache and batches. */
		cache_clear(top);
		for (int tb = 0; tb < KV_TABLES; tb++)
			top->gen[tb]++;
	} else
		rollback(t->ps);
	txn_free(t);
}

static int
pg_upgrade(struct kv_txn *txn)
{
	(void)txn;
	return 0;               /* schema 1 is the first */
}

/* --- data ----------------------------------------------------------- */

static int
pg_get(struct kv_txn *txn, enum kv_table tb, const struct kv_val *key,
    struct kv_val *val)
{
	struct pg_txn *t = (struct pg_txn *)txn, *top = t->top;
	struct params p;
	struct kv_val v;
	struct entry *e;
	PGresult *res;
	int rc;

	if ((e = cache_find(top, tb, key, NULL)) != NULL) {
		if (!e->present)
			return KV_NOTFOUND;
		*val = e->val;
		return 0;
	}
	bind_table(&p, tb);
	bind_bytes(&p, key);
	if ((rc = stmt_run(t->ps, S_GET, &p, &res)) != 0)
		return rc;
	if (pq.PQntuples(res) == 0) {
		pq.PQclear(res);
		(void)cache_set(top, tb, key, NULL);
		return KV_NOTFOUND;
	}
	/* The value is copied: it outlives the result. */
	v = column(res, 0, tb == KV_LABELS ? 0 : 1);
	e = cache_set(top, tb, key, &v);
	pq.PQclear(res);
	if (e == NULL)
		return ENOMEM;
	*val = e->val;
	return 0;
}

/* tb changed under key (to val, or to nothing; unknown for KV_LABELS). */
static void
changed(struct pg_txn *t, enum kv_table tb, const struct kv_val *key,
    const struct kv_val *val)
{
	t->top->gen[tb]++;
	if (tb == KV_LABELS)
		cache_forget(t->top, tb, key);
	else
		(void)cache_set(t->top, tb, key, val);
}

static int
pg_put(struct kv_txn *txn, enum kv_table tb, const struct kv_val *key,
    const struct kv_val *val, unsigned flags)
{
	struct pg_txn *t = (struct pg_txn *)txn;
	struct params p;
	struct kv_val old;
	struct entry *e;
	int rc, rows;

	if (!t->write)
		return EACCES;
	bind_table(&p, tb);
	bind_bytes(&p, key);
	if (tb == KV_LABELS) {
		if ((flags & KV_NOOVERWRITE) &&
		    (rc = pg_get(txn, tb, key, &old)) != KV_NOTFOUND)
			return rc == 0 ? KV_KEYEXIST : rc;
		bind_bytes(&p, val);
		bind_bytes(&p, &empty);
	} else {
		if ((flags & KV_NOOVERWRITE) &&
		    (e = cache_find(t->top, tb, key, NULL)) != NULL &&
		    e->present)
			return KV_KEYEXIST;
		bind_bytes(&p, &empty);
		bind_bytes(&p, val);
	}
	if (tb != KV_LABELS && !(flags & KV_NOOVERWRITE))
		rc = send_put(t, &p);
	else if ((rc = change(t, S_ADD, &p, &rows)) == 0 && rows == 0)
		return KV_KEYEXIST;
	if (rc != 0)
		return rc;
	changed(t, tb, key, val);
	return 0;
}

static int
pg_del(struct kv_txn *txn, enum kv_table tb, const struct kv_val *key,
    const struct kv_val *val)
{
	struct pg_txn *t = (struct pg_txn *)txn;
	struct params p;
	struct entry *e;
	int rc, rows;

	if (!t->write)
		return EACCES;
	if ((e = cache_find(t->top, tb, key, NULL)) != NULL && !e->present)
		return KV_NOTFOUND;
	bind_table(&p, tb);
	bind_bytes(&p, key);
	if (tb == KV_LABELS && val != NULL)
		bind_bytes(&p, val);
	if ((rc = change(t, p.n == 3 ? S_DELDUP : S_DEL, &p, &rows)) != 0)
		return rc;
	if (rows == 0)
		return KV_NOTFOUND;
	changed(t, tb, key, NULL);
	return 0;
}

static int
pg_count(struct kv_txn *txn, enum kv_table tb, uint64_t *n)
{
	struct pg_txn *t = (struct pg_txn *)txn;
	const unsigned char *b;
	struct params p;
	PGresult *res;
	int rc;

	bind_table(&p, tb);
	if ((rc = stmt_run(t->ps, S_COUNT, &p, &res)) != 0)
		return rc;
	b = (const unsigned char *)pq.PQgetvalue(res, 0, 0);
	*n = 0;
	for (int i = 0; i < 8; i++)
		*n = *n << 8 | b[i];
	pq.PQclear(res);
	return 0;
}

/* --- cursors -------------------------------------------------------- */

static int
pg_cursor_open(struct kv_txn *txn, enum kv_table tb, struct kv_cursor **cur)
{
	struct pg_cursor *c;

	if ((c = calloc(1, sizeof(*c))) == NULL)
		return ENOMEM;
	c->base.be = &kv_postgresql;
	c->t = (struct pg_txn *)txn;
	c->tb = tb;
	*cur = &c->base;
	return 0;
}

static void
pg_cursor_close(struct kv_cursor *cur)
{
	struct pg_cursor *c = (struct pg_cursor *)cur;

	pq.PQclear(c->res);
	free(c->atbuf);
	free(c);
}

/* Is the cursor's batch as the table is now? */
static int
batch_valid(const struct pg_cursor *c)
{
	return c->res != NULL && c->gen == c->t->top->gen[c->tb];
}

/*
 * Read a batch of at most limit rows with statement s from (k, d),
 * forwards or (S_LT, S_LAST) backwards; the cursor is then just before
 * its first row or after its last one, in the direction it goes, and
 * its next step reads twice as many.  KV_NOTFOUND if there is none.  The
 * batch before is kept in old until the move ends (pg_cursor_get).
 */
static int
fetch(struct pg_cursor *c, enum stmt s, const struct kv_val *k,
    const struct kv_val *d, int limit)
{
	int back = s == S_LT || s == S_LAST, n, rc;
	struct params p;
	PGresult *res;

	bind_table(&p, c->tb);
	if (s != S_LAST) {
		bind_bytes(&p, k);
		bind_bytes(&p, d);
	}
	bind_limit(&p, limit);
	c->old = c->res;
	c->res = NULL;
	if ((rc = stmt_run(c->t->ps, s, &p, &res)) != 0)
		return rc;
	if ((n = pq.PQntuples(res)) == 0) {
		pq.PQclear(res);
		return KV_NOTFOUND;
	}
	c->res = res;
	for (int j = 0; j < n; j++) {
		struct row *r = &c->rows[back ? n - 1 - j : j];

		r->k = column(res, j, 0);
		r->d = column(res, j, 1);
		r->v = column(res, j, 2);
	}
	c->n = n;
	c->gen = c->t->top->gen[c->tb];
	c->first = back && n < limit;
	c->last = !back && n < limit;
	c->i = back ? n : 0;
	c->gap = 1;
	c->limit = limit < BATCH_MAX / 2 ? 2 * limit : BATCH_MAX;
	return 0;
}

/* Put the cursor at rows[j] and give its entry. */
static int
emit(struct pg_cursor *c, int j, struct kv_val *key, struct kv_val *val)
{
	const struct row *r = &c->rows[j];
	size_t need = r->k.size + r->d.size;

	if (array_room(&c->atbuf, &c->atroom, need, 1) != 0)
		return ENOMEM;
	c->i = j;
	c->gap = 0;
	c->placed = 1;
	c->at.size = r->k.size;
	c->at.data = memcpy(c->atbuf, r->k.data, r->k.size);
	c->at_d.size = r->d.size;
	c->at_d.data = memcpy(c->atbuf + r->k.size, r->d.data, r->d.size);
	*key = r->k;
	*val = c->tb == KV_LABELS ? r->d : r->v;
	return 0;
}

static int
step_next(struct pg_cursor *c, struct kv_val *key, struct kv_val *val,
    enum kv_op op)
{
	int j, rc;

	if (batch_valid(c) && (j = c->gap ? c->i : c->i + 1) < c->n)
		;
	else if (batch_valid(c) && c->last)
		return KV_NOTFOUND;
	else if ((rc = fetch(c, S_GT, &c->at, &c->at_d, c->limit)) != 0)
		return rc;
	else
		j = 0;
	if (op == KV_NEXT_DUP && !kv_same(&c->rows[j].k, &c->at))
		return KV_NOTFOUND;
	return emit(c, j, key, val);
}

static int
step_prev(struct pg_cursor *c, struct kv_val *key, struct kv_val *val)
{
	int rc;

	if (batch_valid(c) && c->i > 0)
		return emit(c, c->i - 1, key, val);
	if (batch_valid(c) && c->first)
		return KV_NOTFOUND;
	if ((rc = fetch(c, S_LT, &c->at, &c->at_d, c->limit)) != 0)
		return rc;
	return emit(c, c->n - 1, key, val);
}

/* Go to a key (or the first or last entry), reading a new batch. */
static int
cursor_place(struct pg_cursor *c, struct kv_val *key, struct kv_val *val,
    enum kv_op op)
{
	const struct kv_val *from = key, *d = &empty;
	int exact = op == KV_SET_KEY || op == KV_GET_BOTH, rc;
	struct row *r;

	if (op == KV_LAST) {
		if ((rc = fetch(c, S_LAST, NULL, NULL, BATCH_FIRST)) != 0)
			return rc;
		c->last = 1;
		return emit(c, c->n - 1, key, val);
	}
	if (op == KV_FIRST)
		from = &empty;
	else if (op == KV_GET_BOTH && c->tb == KV_LABELS)
		d = val;
	/* An exact lookup wants one row: most never step on. */
	if ((rc = fetch(c, S_GE, from, d, exact ? 1 : BATCH_FIRST)) != 0)
		return rc;
	c->first = op == KV_FIRST;
	r = &c->rows[0];
	if (exact && !kv_same(&r->k, key))
		return KV_NOTFOUND;
	if (op == KV_GET_BOTH &&
	    !kv_same(c->tb == KV_LABELS ? &r->d : &r->v, val))
		return KV_NOTFOUND;
	return emit(c, 0, key, val);
}

static int
pg_cursor_get(struct kv_cursor *cur, struct kv_val *key, struct kv_val *val,
    enum kv_op op)
{
	struct pg_cursor *c = (struct pg_cursor *)cur;
	int rc;

	if (!c->placed && op == KV_PREV)
		op = KV_LAST;
	else if (!c->placed && (op == KV_NEXT || op == KV_NEXT_DUP))
		op = KV_FIRST;
	if (op == KV_NEXT || op == KV_NEXT_DUP)
		rc = step_next(c, key, val, op);
	else if (op == KV_PREV)
		rc = step_prev(c, key, val);
	else
		rc = cursor_place(c, key, val, op);
	/* The batch before is done with: the cursor has moved. */
	pq.PQclear(c->old);
	c->old = NULL;
	return rc;
}

static int
pg_cursor_del(struct kv_cursor *cur)
{
	struct pg_cursor *c = (struct pg_cursor *)cur;
	int valid = batch_valid(c), rc, rows;
	struct params p;

	if (!c->placed || c->gap)
		return EINVAL;
	bind_table(&p, c->tb);
	bind_bytes(&p, &c->at);
	if (c->tb == KV_LABELS)
		bind_bytes(&p, &c->at_d);
	if ((rc = change(c->t, p.n == 3 ? S_DELDUP : S_DEL, &p, &rows)) != 0)
		return rc;
	if (rows == 0)
		return KV_NOTFOUND;
	changed(c->t, c->tb, &c->at, NULL);
	/* The batch is still this table's but for the entry gone. */
	if (valid) {
		memmove(&c->rows[c->i], &c->rows[c->i + 1],
		    (size_t)(c->n - c->i - 1) * sizeof(*c->rows));
		c->n--;
		c->gen = c->t->top->gen[c->tb];
	}
	c->gap = 1;
	return 0;
}

/* --- making a store ------------------------------------------------- */

/*
 * Make the schema if the database has none and the store called name,
 * in the transaction begun on ps, which holds the creations' lock.
 */
static int
store_make(struct pg_store *ps, const char *name)
{
	char sql[256];
	PGresult *res;
	int rc, none;

	snprintf(sql, sizeof(sql), "BEGIN; SELECT pg_advisory_xact_lock(%d);"
	    " SELECT to_regclass('ar_kv') IS NULL", LOCK_CREATE);
	if ((rc = exec_sql(ps, sql, &res)) != 0)
		return rc;
	none = strcmp(pq.PQgetvalue(res, 0, 0), "t") == 0;
	pq.PQclear(res);
	/* Only then: CREATE TABLE IF NOT EXISTS wants the right to create
	 * even when the tables are there. */
	if (none && (rc = exec_sql(ps, schema_sql, NULL)) != 0)
		return rc;
	if ((rc = store_find(ps, "SELECT 1", name)) != 0)
		return rc;
	if (ps->id != 0)
		return EEXIST;
	snprintf(sql, sizeof(sql), "INSERT INTO ar_store (name, created) "
	    "VALUES ('%s', now()) RETURNING id", name);
	if ((rc = exec_sql(ps, sql, &res)) != 0)
		return rc;
	ps->id = atoi(pq.PQgetvalue(res, 0, 0));
	pq.PQclear(res);
	return 0;
}

static int
pg_create(const char *where, const struct kv_init *init)
{
	char name[NAME_LEN_MAX + 1];
	struct pg_store *ps;
	struct pg_txn *t;
	int rc;

	if ((rc = store_connect(where, 0, name, &ps)) != 0)
		return rc;
	if ((rc = exec_sql(ps, ps->session, NULL)) == 0 &&
	    (rc = store_make(ps, name)) == 0) {
		if ((t = txn_new(ps, NULL, 1)) == NULL)
			rc = ENOMEM;
		else if ((rc = init->fill(&t->base, init->arg)) != 0)
			pg_txn_abort(&t->base);
		else
			rc = pg_txn_commit(&t->base);
	}
	rollback(ps);
	pg_close(&ps->base);
	return rc;
}

/* --- the rest of a backend ------------------------------------------ */

static int
pg_grow(struct kv_store *ks, uint64_t limit)
{
	(void)ks;
	(void)limit;
	/* The room is the server's: there is nothing to grow, and AR_EFULL
	 * is never returned, but ar_grow may be called all the same. */
	return 0;
}

static int
pg_size(struct kv_store *ks, uint64_t *bytes)
{
	(void)ks;
	*bytes = 0;
	return 0;
}

static int
pg_clock(struct kv_txn *txn, int64_t *now)
{
	struct pg_txn *top = ((struct pg_txn *)txn)->top;
	PGresult *res;
	int rc;

	/* A creation's transaction began without reading it. */
	if (!top->clock_known) {
		if ((rc = exec_sql(top->ps, "SELECT " CLOCK_SQL, &res)) != 0)
			return rc;
		top->clock = strtoll(pq.PQgetvalue(res, 0, 0), NULL, 10);
		top->clock_known = 1;
		pq.PQclear(res);
	}
	*now = top->clock;
	return 0;
}

/*
 * The session's login role, and whether it is a superuser or a member
 * of the role ar_admin, if there is one: the administrators of stores
 * whose owners are roles.  SET ROLE changes neither.
 */
static int
pg_role(struct kv_store *ks, uint32_t *role, int *admin)
{
	struct pg_store *ps = (struct pg_store *)ks;
	PGresult *res;
	int rc;

	if ((rc = exec_sql(ps, "SELECT r.oid, r.rolsuper OR EXISTS (SELECT 1 "
	    "FROM pg_roles a WHERE a.rolname = 'ar_admin' AND "
	    "pg_has_role(r.oid, a.oid, 'MEMBER')) FROM pg_roles r "
	    "WHERE r.rolname = session_user", &res)) != 0)
		return rc;
	if (pq.PQntuples(res) != 1) {
		say("PostgreSQL: the session's role is not in pg_roles");
		rc = AR_ESERVER;
	} else {
		*role = (uint32_t)strtoul(pq.PQgetvalue(res, 0, 0), NULL, 10);
		*admin = strcmp(pq.PQgetvalue(res, 0, 1), "t") == 0;
	}
	pq.PQclear(res);
	return rc;
}

/*
 * The writer holding the store's lock, by the name its session gave:
 * its pid when it runs on this host, else 0 (a pid of another host would
 * mislead).
 */
static long
pg_lock_holder(struct kv_store *ks)
{
	struct pg_store *ps = (struct pg_store *)ks;
	char sql[320], *app;
	PGresult *res;
	long pid = 0;
	size_t n = strlen(ps->host_app);

	snprintf(sql, sizeof(sql), "SELECT a.application_name FROM pg_locks l "
	    "JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = "
	    "'advisory' AND l.granted AND l.classid = %d AND l.objid = %d "
	    "AND l.objsubid = 2", LOCK_WRITER, ps->id);
	if (exec_sql(ps, sql, &res) != 0)
		return 0;
	if (pq.PQntuples(res) == 1 &&
	    strncmp(app = pq.PQgetvalue(res, 0, 0), ps->host_app, n) == 0)
		pid = strtol(app + n, NULL, 10);
	pq.PQclear(res);
	return pid > 0 ? pid : 0;
}

static void
pg_idle(struct kv_store *ks)
{
	(void)ks;
}

static const char *
pg_strerror(int code)
{
	return code == AR_ESERVER ? message : NULL;
}

const struct kv_backend kv_postgresql = {
	.name = "postgresql",
	.claims = pg_claims,
	.create = pg_create,
	.open = pg_open,
	.close = pg_close,
	.complete = pg_complete,
	.txn_begin = pg_txn_begin,
	.txn_commit = pg_txn_commit,
	.txn_abort = pg_txn_abort,
	.upgrade = pg_upgrade,
	.get = pg_get,
	.put = pg_put,
	.del = pg_del,
	.count = pg_count,
	.cursor_open = pg_cursor_open,
	.cursor_close = pg_cursor_close,
	.cursor_get = pg_cursor_get,
	.cursor_del = pg_cursor_del,
	.grow = pg_grow,
	.size = pg_size,
	.clock = pg_clock,
	.role = pg_role,
	.lock_holder = pg_lock_holder,
	.idle = pg_idle,
	.strerror = pg_strerror,
	.share = NULL,          /* the database's roles say who uses it */
	.denied = NULL,
};
