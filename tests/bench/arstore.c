/*
 * arstore.c - ar's library in process, through its public API: one write
 * transaction per group of requests (or per request), committed durably,
 * on LMDB or PostgreSQL; and what an LMDB store costs on disk, read with
 * LMDB directly.
 */
#include <sys/stat.h>

#include <errno.h>
#include <lmdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ar.h"
#include "bench.h"

struct arb {
	ar_store *s;
	ar_txn *t;              /* the write transaction being filled */
	size_t group;           /* requests per transaction */
	char dir[4096];
	int by_fit;             /* ar_backend_fit: grants name their hosts */
	enum ar_fit fit;        /* ... chosen so */
	uint64_t placed, runs;  /* grants on hosts so chosen, their runs */
	int partitioned;        /* ar_backend_partitions: requests ask for
				   a partition */
};

static int
fail(const char *what, int rc)
{
	fprintf(stderr, "bench: ar: %s: %s\n", what, ar_strerror(rc));
	return rc;
}

/* ar_write may run a function again: it starts from the saved counts. */
struct again {
	struct stats *st;
	size_t n[NOPS], ngranted, ndeleted;
	uint64_t last;
};

static void
save(struct again *a, struct stats *st)
{
	a->st = st;
	for (int k = 0; k < NOPS; k++)
		a->n[k] = st->op[k].n;
	a->ngranted = st->ngranted;
	a->ndeleted = st->ndeleted;
}

static void
restore(struct again *a)
{
	for (int k = 0; k < NOPS; k++)
		a->st->op[k].n = a->n[k];
	a->st->ngranted = a->ngranted;
	a->st->ndeleted = a->ndeleted;
}

/* Each delete is timed from the previous one (the first from the start). */
static int
purged(const struct ar_resv *r, void *arg)
{
	struct again *a = arg;
	uint64_t t = now_ns();

	(void)r;
	if (sample(&a->st->op[OP_DELETE], t - a->last) != 0)
		return ENOMEM;
	a->last = t;
	a->st->ndeleted++;
	return 0;
}

static int
purge_fn(ar_txn *t, void *arg)
{
	struct again *a = arg;

	restore(a);
	a->last = now_ns();
	return ar_purge(t, purged, a);
}

static int
arb_purge(const struct backend *b, int64_t clock, struct stats *st)
{
	struct arb *x = b->ctx;
	struct again a;
	int rc;

	save(&a, st);
	if ((rc = ar_write(x->s, AR_FREEING, clock, purge_fn, &a)) != 0)
		return fail("purge", rc);
	return 0;
}

struct batch {
	struct again a;
	const struct backend *b;
	const struct trace *tr;
	size_t from, to;
	uint64_t done;          /* when the work ended, before the commit */
};

static int
batch_fn(ar_txn *t, void *arg)
{
	struct batch *w = arg;
	struct arb *x = w->b->ctx;
	int rc;

	restore(&w->a);
	x->t = t;
	for (size_t i = w->from; i < w->to; i++)
		if ((rc = admit(w->b, w->tr, i, w->a.st)) != 0)
			return rc;
	w->done = now_ns();
	return 0;
}

static int
arb_run(const struct backend *b, const struct trace *tr, size_t from,
    size_t to, int64_t clock, struct stats *st)
{
	struct arb *x = b->ctx;
	struct batch w = { .b = b, .tr = tr };
	int rc;

	for (w.from = from; w.from < to; w.from = w.to) {
		w.to = w.from + x->group < to ? w.from + x->group : to;
		save(&w.a, st);
		if ((rc = ar_write(x->s, 0, clock, batch_fn, &w)) != 0)
			return fail("replay", rc);
		if (sample(&st->op[OP_COMMIT], now_ns() - w.done) != 0)
			return fail("commit", ENOMEM);
	}
	return 0;
}

/*
 * The host study's cluster of 4 partitions (README), 64 hosts, and
 * which partition a request asks by its place in the trace: half
 * batch, a quarter bigmem, an eighth gpu, an eighth debug.
 */
static const char four_partitions[] =
    "hosts=node[01-32] partition=batch\n"
    "hosts=big[01-16] partition=bigmem features=mem1t\n"
    "hosts=gpu[01-04] partition=gpu features=a100\n"
    "hosts=gpu[05-08] partition=gpu features=a100,nvlink\n"
    "hosts=dbg[01-08] partition=debug\n"
    "partition=batch default=yes borrow=debug,bigmem,gpu\n"
    "partition=bigmem borrow=batch\n"
    "partition=debug borrow=batch\n";
static const char *const partition_of[8] = { "batch", "batch", "batch",
    "batch", "bigmem", "bigmem", "gpu", "debug" };

static void
request(const struct arb *x, const struct req *q, int64_t start,
    struct ar_request *rq)
{
	memset(rq, 0, sizeof(*rq));
	rq->earliest = rq->latest = start;
	rq->duration = q->dur;
	rq->nodes = q->nodes;
	rq->jobs = 1;
	if (x->partitioned)
		rq->partition = partition_of[q->idx % 8];
}

static int
arb_search(void *ctx, const struct req *q, enum fit *f)
{
	struct arb *x = ctx;
	struct ar_request rq;
	struct ar_answer ans;
	int rc;

	request(x, q, q->start, &rq);
	if ((rc = ar_search(x->t, &rq, &ans)) != 0)
		return rc;
	/* Hosts (pins in the plan): the plan with it would not map at its
	 * start; a later one may, as when the nodes are full. */
	if (ans.status == AR_AVAILABLE)
		*f = FIT;
	else if (ans.reason == AR_R_FULL || ans.reason == AR_R_BOOKING ||
	    ans.reason == AR_R_HOSTS ||
	    (x->partitioned && ans.reason == AR_R_CAPACITY))
		*f = FULL;     /* (more nodes than its pools: never fits) */
	else if (ans.reason == AR_R_HORIZON)
		*f = BEYOND;
	else {
		fprintf(stderr, "bench: ar_search: unexpected reason %s\n",
		    ar_reason_name(ans.reason));
		return AR_ECORRUPT;
	}
	return 0;
}

static int
arb_suggest(void *ctx, const struct req *q, int64_t *start)
{
	struct arb *x = ctx;
	struct ar_request rq;
	struct ar_answer alt;
	size_t n;
	int rc;

	request(x, q, q->start, &rq);
	if ((rc = ar_suggest(x->t, &rq, SUGGEST_LIMIT, &alt, 1, &n)) != 0)
		return rc;
	*start = n == 1 ? alt.start : -1;
	return 0;
}

/* ar-suggest --fit into ar-add: the hosts free throughout by the fit,
 * named; where the plan as mapped leaves too few, the request as it is. */
static int
add_by_fit(struct arb *x, struct ar_request *rq, int64_t *granted)
{
	struct ar_answer ans;
	uint32_t *hosts;
	int rc, named;

	if ((hosts = malloc(rq->nodes * sizeof(*hosts))) == NULL)
		return ENOMEM;
	rc = ar_place(x->t, rq->earliest, rq->earliest + rq->duration,
	    rq->nodes, 0, x->fit, hosts);
	if ((named = rc == 0)) {
		rq->hosts = hosts;
		rq->nhosts = rq->nodes;
	}
	if ((rc == 0 || rc == ENOSPC) && (rc = ar_add(x->t, rq, &ans)) == 0) {
		*granted = ans.status == AR_GRANTED ? ans.start : -1;
		if (named && ans.status == AR_GRANTED) {
			x->placed++;
			for (uint32_t i = 0; i < rq->nodes; i++)
				x->runs += i == 0 || hosts[i] != hosts[i - 1] + 1;
		}
	}
	free(hosts);
	return rc;
}

static int
arb_add(void *ctx, const struct req *q, int64_t start, int64_t *granted)
{
	struct arb *x = ctx;
	struct ar_request rq;
	struct ar_answer ans;
	int rc;

	request(x, q, start, &rq);
	if (x->by_fit)
		return add_by_fit(x, &rq, granted);
	if ((rc = ar_add(x->t, &rq, &ans)) != 0)
		return rc;
	*granted = ans.status == AR_GRANTED ? ans.start : -1;
	return 0;
}

/* ar_backend, its store made of the host description layout, or of
 * 64 nodes (NULL). */
static int
backend_make(struct backend *b, const char *dir, int64_t clock, size_t group,
    const char *layout)
{
	struct ar_config cfg;
	struct arb *x;
	int rc;

	if ((x = calloc(1, sizeof(*x))) == NULL)
		return fail("backend", ENOMEM);
	snprintf(x->dir, sizeof(x->dir), "%s", dir);
	x->group = group;
	x->partitioned = layout != NULL;
	ar_config_default(&cfg);
	cfg.flags = AR_SIMULATED;
	cfg.layout = layout;
	if ((rc = ar_create(dir, &cfg, clock)) != 0 ||
	    (rc = ar_open(dir, 0, &x->s)) != 0) {
		free(x);
		return fail(dir, rc);
	}
	if (is_uri(dir))
		b->name = group > 1 ? "ar on PostgreSQL, group" :
		    "ar on PostgreSQL, 1/txn";
	else
		b->name = group > 1 ? "ar, group commit" :
		    "ar, commit per request";
	b->ctx = x;
	b->purge = arb_purge;
	b->run = arb_run;
	b->search = arb_search;
	b->suggest = arb_suggest;
	b->add = arb_add;
	b->period = NULL;
	b->hook = NULL;
	return 0;
}

int
ar_backend(struct backend *b, const char *dir, int64_t clock, size_t group)
{
	return backend_make(b, dir, clock, group, NULL);
}

int
ar_backend_partitions(struct backend *b, const char *dir, int64_t clock,
    size_t group)
{
	int rc;

	if ((rc = backend_make(b, dir, clock, group, four_partitions)) == 0)
		b->name = "ar, 4 partitions";
	return rc;
}

void
ar_backend_fit(struct backend *b, int fit)
{
	struct arb *x = b->ctx;

	x->by_fit = 1;
	x->fit = (enum ar_fit)fit;
}

void
ar_backend_runs(const struct backend *b, uint64_t *placed, uint64_t *runs)
{
	const struct arb *x = b->ctx;

	*placed = x->placed;
	*runs = x->runs;
}

struct ar_store *
ar_backend_store(const struct backend *b)
{
	const struct arb *x = b->ctx;

	return x->s;
}

int
ar_backend_price(struct backend *b, const struct ar_pricing *p)
{
	struct arb *x = b->ctx;
	const char *field;
	size_t bad;
	ar_txn *t;
	int rc;

	if ((rc = ar_txn_begin(x->s, AR_WRITE, 0, &t)) != 0)
		return fail("price classes", rc);
	if ((rc = ar_set_pricing(t, p, &bad, &field)) != 0) {
		ar_txn_abort(t);
		return fail("price classes", rc);
	}
	if ((rc = ar_txn_commit(t)) != 0)
		return fail("price classes", rc);
	b->name = "ar, 3 price classes";
	return 0;
}

/* --- what the store costs ------------------------------------------------ */

struct disk {
	char label[64];
	uint64_t file, used, freepages, resv, map;
	uint64_t live, records;
};

static struct disk rows[16];
static size_t nrows;

/* Pages in use by one database. */
static uint64_t
pages(const MDB_stat *s)
{
	return s->ms_branch_pages + s->ms_leaf_pages + s->ms_overflow_pages;
}

/* Read the store's figures with LMDB itself, read-only. */
static int
lmdb_figures(const char *dir, struct disk *d)
{
	static const char *const names[] = { "meta", "ring", "resv", "ends",
	    "labels" };
	MDB_env *env;
	MDB_txn *txn;
	MDB_stat ms, s;
	MDB_dbi dbi;
	int rc;

	if ((rc = mdb_env_create(&env)) != 0)
		return rc;
	if ((rc = mdb_env_set_maxdbs(env, 8)) != 0 ||
	    (rc = mdb_env_open(env, dir, MDB_RDONLY, 0)) != 0 ||
	    (rc = mdb_env_stat(env, &ms)) != 0) {
		mdb_env_close(env);
		return rc;
	}
	d->used = pages(&ms);
	if ((rc = mdb_txn_begin(env, NULL, MDB_RDONLY, &txn)) != 0) {
		mdb_env_close(env);
		return rc;
	}
	if ((rc = mdb_stat(txn, 0, &s)) == 0) {         /* the free list */
		d->freepages = pages(&s);
		d->used += pages(&s);
	}
	for (size_t i = 0; rc == 0 && i < sizeof(names) / sizeof(names[0]); i++)
		if ((rc = mdb_dbi_open(txn, names[i], 0, &dbi)) == 0 &&
		    (rc = mdb_stat(txn, dbi, &s)) == 0) {
			d->used += pages(&s);
			if (strcmp(names[i], "resv") == 0)
				d->resv = pages(&s) * ms.ms_psize;
		}
	d->used *= ms.ms_psize;
	d->freepages *= ms.ms_psize;
	mdb_txn_abort(txn);
	mdb_env_close(env);
	return rc;
}

/* Close the store, and note what it costs on disk under label (if any;
 * an LMDB store's only). */
int
ar_backend_close(struct backend *b, const char *label)
{
	struct arb *x = b->ctx;
	struct disk *d = &rows[nrows];
	struct ar_info info;
	char path[4200];
	struct stat sb;
	ar_txn *t;
	int rc;

	if ((rc = ar_txn_begin(x->s, 0, 0, &t)) != 0) {
		ar_close(x->s);
		free(x);
		return fail("info", rc);
	}
	rc = ar_info(t, &info);
	ar_txn_abort(t);
	ar_close(x->s);
	if (rc != 0 || label == NULL || is_uri(x->dir)) {
		free(x);
		return rc != 0 ? fail("info", rc) : 0;
	}
	memset(d, 0, sizeof(*d));
	snprintf(d->label, sizeof(d->label), "%s", label);
	d->map = info.map_size;
	d->live = info.live;
	d->records = info.records;
	snprintf(path, sizeof(path), "%s/data.mdb", x->dir);
	if (stat(path, &sb) != 0) {
		perror(path);
		free(x);
		return -1;
	}
	d->file = (uint64_t)sb.st_size;
	rc = lmdb_figures(x->dir, d);
	free(x);
	if (rc != 0)
		return fail("mdb_stat", rc);
	if (nrows < sizeof(rows) / sizeof(rows[0]) - 1)
		nrows++;
	return 0;
}

static void
kib(uint64_t bytes)
{
	if (bytes >= 10 << 20)
		printf(" %8.1f MiB", (double)bytes / 1048576.0);
	else
		printf(" %8.0f KiB", (double)bytes / 1024.0);
}

/* Print the disk figures noted since the last call. */
void
ar_disk_report(void)
{
	if (nrows == 0)
		return;
	printf("\n  %-30s %12s %12s %12s %12s %8s %8s %9s %10s %12s\n",
	    "ar's store on disk", "data.mdb", "pages used", "(free list)",
	    "resv db", "live", "records", "used/live", "resv/rec", "map size");
	for (size_t i = 0; i < nrows; i++) {
		struct disk *d = &rows[i];

		printf("  %-30s", d->label);
		kib(d->file);
		kib(d->used);
		kib(d->freepages);
		kib(d->resv);
		printf(" %8llu %8llu", (unsigned long long)d->live,
		    (unsigned long long)d->records);
		if (d->live > 0)
			printf(" %7.0f B", (double)d->used / (double)d->live);
		else
			printf(" %9s", "-");
		printf(" %8.0f B", d->records ? (double)d->resv /
		    (double)d->records : 0.0);
		kib(d->map);
		printf("\n");
	}
	printf("  (pages used: every B-tree page of every database, the free "
	    "list included, times the page size;\n   purged reservations stay "
	    "in resv as history records)\n");
	nrows = 0;
}
