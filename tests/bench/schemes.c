/*
 * schemes - make compare: seed 004's reservation schemes (RSPB, ORR,
 * TARR, DRR) beside the thesis's FCFS rigid and FCFS-EDS, on the same
 * workloads, with the seed's metrics, Average Waiting Time and Resource
 * Idle Time, and acceptance and utilisation; closing with where the
 * seed's direction (DRR < TARR < ORR < RSPB on both metrics) holds and
 * where not.  schemes.h says how the seed is read; plan.c places the
 * requests, in memory.
 *
 * The workloads: the thesis's generator (argen.c, Tables 6.1 and 6.2:
 * parametric and MPI requests at 2 and 3 arrivals a slot, half and all
 * of them flexible, on 30 nodes with a horizon of a day), and two real
 * traces, SDSC-BLUE-2000 and KTH-SP2-1996, a job asking its requested
 * time from the start it had in the trace, with a window of 12 hours,
 * on its cluster's nodes with a horizon of 30 days.  Each request
 * arrives at its slot and is admitted then; the plan's clock moves from
 * arrival to arrival.  Every scheme also runs through the library
 * (ar_add on a simulated store in memory, one write transaction per
 * slot of arrivals, as flexbench does; RSPB as moldable requests, ORR
 * and DRR as AR_SPLIT_ORR, TARR as AR_SPLIT_TARR, all AR_NOMOVE; DRR on
 * a store with a reclaim policy, a write transaction of its own, a cron
 * job's, at each slot where a reclaim falls due and nothing arrives),
 * and the plan it leaves, read back, is hashed against the in-memory
 * scheme's, parametric requests included (the library splits each copy
 * in turn, and molds a parametric request by its copies).  Where they
 * part, the MISMATCH says where, and which of the causes
 * found it is (README, "Seed 004's schemes").
 *
 *   schemes [--slots N] [--days N] [--seed N] [--unused PCT] [TRACES]
 *
 * --slots: the generator's slots of arrivals (2016, a week); --days:
 * each trace's days of arrivals from its first (365); --unused: the
 * percent of generated requests whose reservation goes unused (the
 * traces' share); TRACES: their directory (../shared/traces).  Exit 0,
 * 1 if the library and the memory differ or a store is unsound, 2 on
 * bad usage.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ar.h"
#include "bench.h"
#include "flex.h"
#include "mem/mem.h"
#include "schemes.h"

#define GEN_NODES 30            /* flexbench's cluster */
#define GEN_HORIZON 288         /* slots: a day, as flexbench */
#define TRACE_HORIZON (HORIZON / SLOT)
#define TRACE_WINDOW (12 * 3600 / SLOT)         /* slots of latest start */
#define TRACE_DUR_MAX (28 * 86400 / SLOT)
#define UNUSED_SHARE 10         /* percent of its request a job ran:
				   under it, its reservation went unused */
#define T0 ((int64_t)1795219200)         /* 2026-11-21T00:00:00Z */
#define MINUTES(slots) ((double)(slots) * SLOT / 60.0)

/* The schemes, in the order of the tables. */
enum { RIGID, EDS, RSPB, ORR, TARR, DRR, NSCHEMES };

static const char *const names[NSCHEMES] = {
	"FCFS rigid", "FCFS-EDS", "RSPB", "ORR", "TARR", "DRR"
};

/* A request of a workload. */
struct job {
	struct sreq q;
	int64_t arrival;        /* slot */
	int64_t run;            /* slots its job runs from its start; 0: its
				   reservation goes unused */
};

struct workload {
	char name[64];
	char about[256];
	uint32_t cap;
	int64_t horizon;        /* slots */
	int64_t origin;         /* the epoch of slot 0 */
	int64_t from, to;       /* utilisation is measured over [from, to) */
	struct job *j;
	size_t n, capj;
	double unused;          /* the share of requests that go unused */
};

/* What one scheme did with a workload. */
struct result {
	size_t accepted;        /* requests granted */
	size_t copies;          /* copies granted */
	size_t lowered;         /* RSPB: requests granted at a lower level */
	uint64_t pieces;        /* pieces of the copies granted */
	double awt;             /* minutes */
	double awt_whole;       /* ... of the copies granted whole: in one
				   piece, of their request's full size */
	double awt_other;       /* ... of the others: split, or lowered */
	size_t other;           /* copies of the others */
	double late;            /* minutes, over the copies whose job runs */
	double rit;             /* node-hours */
	double util, busy;      /* percent over [from, to) */
	double reclaimed;       /* node-hours DRR freed */
	char check[768];        /* the library's plan against the memory's */
};

static int mismatch;            /* the library and the memory differed */

static _Noreturn void
die(const char *what, int rc)
{
	fprintf(stderr, "schemes: %s: %s\n", what, ar_strerror(rc));
	exit(1);
}

static struct job *
new_job(struct workload *w)
{
	if (w->n == w->capj) {
		w->capj = w->capj ? 2 * w->capj : 4096;
		if ((w->j = realloc(w->j, w->capj * sizeof(*w->j))) == NULL)
			die("workload", ENOMEM);
	}
	memset(&w->j[w->n], 0, sizeof(*w->j));
	w->j[w->n].q.k = (uint32_t)w->n;
	return &w->j[w->n++];
}

static int64_t
up(int64_t t)
{
	return t / SLOT + (t % SLOT > 0);
}

/* --- the workloads ------------------------------------------------------- */

/* A uniform number in [0, 1) from a seed and a request's number. */
static double
draw(uint64_t seed, uint64_t k)
{
	uint64_t z = seed * 0x9e3779b97f4a7c15ULL + k + 1;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return (double)(z >> 11) * 0x1p-53;
}

/* The thesis's generator: shape, rate and flexible share, as flexbench. */
static void
generated(struct workload *w, const struct flex_shape *sh, double rate,
    unsigned flexible, int64_t slots, uint64_t seed, double unused)
{
	struct flex_req *rq = NULL;
	struct flex_gen g;
	size_t n, cap = 0;

	memset(w, 0, sizeof(*w));
	flex_init(&g, sh, rate, flexible, slots, seed, T0);
	n = flex_generate(&g, &rq, &cap);
	snprintf(w->name, sizeof(w->name), "%s %g/slot %u%% flexible",
	    sh->name, rate, flexible);
	snprintf(w->about, sizeof(w->about), "Table %s's generator: %s",
	    sh == &flex_mpi ? "6.2" : "6.1",
	    flex_describe((char[FLEX_DESCRIBE_MAX]){ 0 }, sh));
	w->cap = GEN_NODES;
	w->horizon = GEN_HORIZON;
	w->origin = T0;
	/* flexbench's: after the warm-up, to the last arrival. */
	w->from = sh->ahead_max + sh->relax_max + sh->exec_max;
	w->to = slots;
	w->unused = unused;
	for (size_t i = 0; i < n; i++) {
		struct job *j = new_job(w);

		j->arrival = (rq[i].arrival - T0) / SLOT;
		j->q.earliest = (rq[i].earliest - T0) / SLOT;
		j->q.latest = (rq[i].latest - T0) / SLOT;
		j->q.dur = rq[i].duration / SLOT;
		j->q.nodes = rq[i].nodes;
		j->q.jobs = rq[i].jobs;
		j->run = draw(seed, rq[i].k) < unused ? 0 : j->q.dur;
	}
	free(rq);
}

/* A trace's job as read, before its times become slots. */
struct raw {
	int64_t submit, start, asked, run;      /* seconds */
	uint32_t nodes;
};

struct reading {
	struct raw *r;
	size_t n, cap;
	struct swf_header h;
	double days;
};

/* Keep a job that has a run time, a requested time, processors, a
 * submit time and a wait, within the days asked. */
static int
trace_row(const double *f, size_t idx, const struct swf_header *h,
    void *arg)
{
	struct reading *rd = arg;
	double procs = f[4] > 0 ? f[4] : f[7];
	long ppn = h->nodes > 0 && h->procs > 0 ? h->procs / h->nodes : 1;
	struct raw *x;

	(void)idx;
	rd->h = *h;
	if (f[3] <= 0 || f[8] <= 0 || procs <= 0 || f[1] < 0 || f[2] < 0)
		return 0;
	if (rd->n > 0 &&
	    h->start + (int64_t)f[1] >= rd->r[0].submit + rd->days * 86400)
		return 0;
	if (rd->n == rd->cap) {
		rd->cap = rd->cap ? 2 * rd->cap : 65536;
		if ((rd->r = realloc(rd->r, rd->cap * sizeof(*rd->r))) == NULL)
			die("trace", ENOMEM);
	}
	x = &rd->r[rd->n++];
	x->submit = h->start + (int64_t)f[1];
	x->start = x->submit + (int64_t)f[2];
	x->asked = (int64_t)f[8];
	x->run = (int64_t)f[3];
	x->nodes = (uint32_t)ceil(procs / (double)(ppn > 0 ? ppn : 1));
	return 0;
}

/* A trace, as schemes.h reads it; 0 if it is not there, -1 on an error. */
static int
traced(struct workload *w, const char *dir, const char *file,
    const char *name, double days)
{
	struct reading rd = { NULL, 0, 0, { -1, -1, -1 }, days };
	char path[4200];
	FILE *f;
	size_t unused = 0;

	memset(w, 0, sizeof(*w));
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	fclose(f);
	if (swf_read(path, trace_row, &rd) != 0)
		return -1;
	if (rd.n == 0) {
		free(rd.r);
		return 0;
	}
	snprintf(w->name, sizeof(w->name), "%s", name);
	w->cap = (uint32_t)(rd.h.nodes > 0 ? rd.h.nodes : rd.h.procs > 0 ?
	    rd.h.procs : NODES);
	w->horizon = TRACE_HORIZON;
	w->origin = rd.r[0].submit - rd.r[0].submit % SLOT;
	for (size_t i = 0; i < rd.n; i++) {
		const struct raw *x = &rd.r[i];
		struct job *j;

		if (x->submit < w->origin)
			continue;       /* out of order before the first */
		j = new_job(w);
		j->arrival = (x->submit - w->origin) / SLOT;
		j->q.earliest = up(x->start - w->origin);
		j->q.latest = j->q.earliest + TRACE_WINDOW;
		j->q.dur = up(x->asked);
		if (j->q.dur > TRACE_DUR_MAX)
			j->q.dur = TRACE_DUR_MAX;
		j->q.nodes = x->nodes < 1 ? 1 : x->nodes > w->cap ? w->cap :
		    x->nodes;
		j->q.jobs = 1;
		if (x->run * 100 < x->asked * UNUSED_SHARE) {
			j->run = 0;
			unused++;
		} else
			j->run = up(x->run) < j->q.dur ? up(x->run) : j->q.dur;
		if (j->arrival + 1 > w->to)
			w->to = j->arrival + 1;
	}
	w->unused = (double)unused / (double)w->n;
	snprintf(w->about, sizeof(w->about), "%zu jobs over %.0f days, %"
	    PRIu32 " nodes; asked: its start in the trace, its requested "
	    "time, 12 h of window", w->n, (double)w->to * SLOT / 86400,
	    w->cap);
	free(rd.r);
	return 1;
}

static int
by_arrival(const void *a, const void *b)
{
	const struct job *x = a, *y = b;

	if (x->arrival != y->arrival)
		return x->arrival < y->arrival ? -1 : 1;
	return x->q.k < y->q.k ? -1 : x->q.k > y->q.k;
}

/* --- a scheme in memory -------------------------------------------------- */

/* DRR's reclaims to come: a heap by slot, then id. */
struct due {
	int64_t at;
	uint64_t id;
};

struct heap {
	struct due *v;
	size_t n, cap;
};

static int
before(const struct due *a, const struct due *b)
{
	return a->at < b->at || (a->at == b->at && a->id < b->id);
}

static void
heap_push(struct heap *h, struct due d)
{
	size_t i;

	if (h->n == h->cap) {
		h->cap = h->cap ? 2 * h->cap : 1024;
		if ((h->v = realloc(h->v, h->cap * sizeof(*h->v))) == NULL)
			die("heap", ENOMEM);
	}
	for (i = h->n++; i > 0 && before(&d, &h->v[(i - 1) / 2]);
	    i = (i - 1) / 2)
		h->v[i] = h->v[(i - 1) / 2];
	h->v[i] = d;
}

static struct due
heap_pop(struct heap *h)
{
	struct due top = h->v[0], last = h->v[--h->n];
	size_t i = 0, c;

	while ((c = 2 * i + 1) < h->n) {
		if (c + 1 < h->n && before(&h->v[c + 1], &h->v[c]))
			c++;
		if (!before(&h->v[c], &last))
			break;
		h->v[i] = h->v[c];
		i = c;
	}
	if (h->n > 0)
		h->v[i] = last;
	return top;
}

/* Reclaim what is due by slot at (all, if at is -1): node-slots freed. */
static int64_t
reclaim_due(struct plan *p, struct heap *h, int64_t at)
{
	int64_t freed = 0;

	while (h->n > 0 && (at < 0 || h->v[0].at <= at)) {
		struct due d = heap_pop(h);

		freed += plan_reclaim(p, d.id, d.at);
	}
	return freed;
}

static int64_t
plan_slots(const struct workload *w)
{
	return w->j[w->n - 1].arrival + w->horizon + 1;
}

/* Run scheme on w in memory, into p (made here); what it granted. */
static void
run_memory(const struct workload *w, int scheme, struct plan *p,
    struct result *res)
{
	struct heap h = { NULL, 0, 0 };
	int64_t freed = 0;

	memset(res, 0, sizeof(*res));
	plan_init(p, w->cap, SLOT, plan_slots(w), w->horizon);
	for (size_t i = 0; i < w->n; i++) {
		const struct job *j = &w->j[i];
		struct level lv[LEVELS_MAX];
		size_t before = p->nr, chosen = 0, nlv;
		int ok = 0;

		p->now = j->arrival;
		freed += reclaim_due(p, &h, p->now);
		switch (scheme) {
		case RIGID:
			ok = plan_rigid(p, &j->q);
			break;
		case EDS:
			ok = plan_eds(p, &j->q);
			break;
		case RSPB:
			nlv = plan_levels(&j->q, lv);
			ok = plan_mold(p, &j->q, lv, nlv, &chosen);
			break;
		case ORR:
		case DRR:
			ok = plan_orr(p, &j->q, ORR_SMALLEST, ORR_PIECES);
			break;
		case TARR:
			ok = plan_tarr(p, &j->q);
			break;
		}
		res->accepted += ok;
		res->lowered += ok && chosen > 0;
		if (scheme != DRR || !ok || j->run > 0)
			continue;
		for (size_t id = before + 1; id <= p->nr; id++)
			heap_push(&h, (struct due){ p->pc[p->r[id - 1].first].start +
			    DRR_GRACE, id });
	}
	freed += reclaim_due(p, &h, -1);
	res->reclaimed = (double)freed * SLOT / 3600.0;
	free(h.v);
}

/* --- through the library -------------------------------------------------- */

/* The requests of one slot, admitted in one transaction. */
struct batch {
	const struct workload *w;
	const struct job *j;
	size_t n;
	int scheme;
	struct heap *due;       /* DRR: when the pieces this batch granted
				   unused fall due for a reclaim, in slots
				   (emptied first: ar_write may run the
				   batch again) */
};

/* DRR: a piece granted whose job runs reports use at once, in the
 * transaction that grants it; one whose job does not never reports,
 * and falls due for a reclaim at its start plus the grace if it lasts
 * longer or has later pieces (lib/unused.c). */
static int
report_use(ar_txn *t, const struct batch *b, const struct job *j)
{
	const struct ar_placed *g, *m;
	size_t ng, nm;
	struct ar_resv r;
	int rc;

	ar_added(t, &g, &ng, &m, &nm);
	for (size_t i = 0; i < ng; i++) {
		if (j->run > 0) {
			if ((rc = ar_use(t, g[i].id, 0, AR_USE_YES, &r)) != 0)
				return rc;
		} else if (g[i].end - g[i].start > DRR_GRACE * SLOT ||
		    i + 1 < ng)
			heap_push(b->due, (struct due){ (g[i].start -
			    b->w->origin) / SLOT + DRR_GRACE, g[i].id });
	}
	return 0;
}

static int
admit_batch(ar_txn *t, void *arg)
{
	const struct batch *b = arg;
	const struct workload *w = b->w;
	char job[24];
	int rc;

	if (b->due != NULL)
		b->due->n = 0;
	for (size_t i = 0; i < b->n; i++) {
		const struct sreq *q = &b->j[i].q;
		struct ar_level lv[AR_LEVELS_MAX];
		struct level mine[LEVELS_MAX];
		struct ar_request rq;
		struct ar_answer ans;

		snprintf(job, sizeof(job), "%" PRIu32, q->k);
		memset(&rq, 0, sizeof(rq));
		rq.earliest = w->origin + q->earliest * SLOT;
		rq.latest = b->scheme != RIGID ? w->origin + q->latest * SLOT :
		    rq.earliest;
		rq.duration = q->dur * SLOT;
		rq.nodes = q->nodes;
		rq.jobs = q->jobs;
		rq.owner = 1000;
		rq.job = job;
		rq.flags = b->scheme == EDS ? AR_LATER : AR_NOMOVE;
		/* RSPB's levels as the memory's: on a parametric request's
		 * copies, else on the nodes. */
		if (b->scheme == RSPB && (rq.nlevels =
		    (uint32_t)plan_levels(q, mine)) > 1) {
			for (uint32_t l = 0; l < rq.nlevels; l++)
				lv[l] = (struct ar_level){ mine[l].nodes,
				    (uint32_t)mine[l].benefit, q->jobs > 1 ?
				    mine[l].copies : 0 };
			rq.levels = lv;
		} else
			rq.nlevels = 0;
		/* ORR's and DRR's split, and TARR's (schemes.h). */
		if (b->scheme == ORR || b->scheme == DRR) {
			rq.split = AR_SPLIT_ORR;
			rq.smallest = ORR_SMALLEST * SLOT;
		} else if (b->scheme == TARR)
			rq.split = AR_SPLIT_TARR;
		if ((rc = ar_add(t, &rq, &ans)) != 0)
			return rc;
		if (b->scheme == DRR && ans.status == AR_GRANTED &&
		    (rc = report_use(t, b, &b->j[i])) != 0)
			return rc;
	}
	return 0;
}

/* DRR: the store's reclaim policy, DRR_GRACE. */
static int
set_reclaim(ar_txn *t, void *arg)
{
	struct ar_reclaim p;

	(void)arg;
	memset(&p, 0, sizeof(p));
	p.grace = DRR_GRACE * SLOT;
	return ar_set_reclaim(t, &p);
}

/* A write transaction that does nothing of its own: a cron job's report
 * at a slot with no arrival, at whose beginning what is due is
 * reclaimed. */
static int
nothing(ar_txn *t, void *arg)
{
	(void)t;
	(void)arg;
	return AR_UNCHANGED;
}

/* DRR: a write transaction at each slot before slot until (every one if
 * until is -1) where a reclaim falls due and nothing arrives, as a cron
 * job reporting every slot has one there; how many. */
static size_t
cron(ar_store *s, const struct workload *w, struct heap *h, int64_t until)
{
	size_t n = 0;
	int rc;

	while (h->n > 0 && (until < 0 || h->v[0].at < until)) {
		int64_t at = h->v[0].at;

		while (h->n > 0 && h->v[0].at == at)
			heap_pop(h);
		if ((rc = ar_write(s, 0, w->origin + at * SLOT, nothing,
		    NULL)) != 0)
			die("cron", rc);
		n++;
	}
	return n;
}

struct reading_back {
	const struct workload *w;
	struct plan *p;
	uint64_t next;          /* the library's id expected next */
	uint64_t first;         /* the id of the last request's first piece */
};

/* Each reservation the library kept into the plan, a piece after the
 * first of a split request as a piece of the reservation before. */
static int
read_back(const struct ar_resv *r, void *arg)
{
	struct reading_back *rb = arg;
	struct plan *p = rb->p;
	char *end;
	unsigned long k = strtoul(r->job, &end, 10);
	int64_t start = (r->start - rb->w->origin) / SLOT,
	    len = (r->end - r->start) / SLOT;

	if (r->state != AR_GRANTED && r->state != AR_FINISHED &&
	    r->state != AR_RECLAIMED)
		return 0;
	if (*end != '\0' || k >= rb->w->n || r->id != rb->next++)
		return AR_ECORRUPT;
	/* A later piece reclaimed before it began holds nothing: the
	 * memory's reclaim leaves no piece of it. */
	if (r->state == AR_RECLAIMED && r->changed <= r->start)
		return 0;
	if (r->pieces != 0 && r->occurrence > 1) {
		const struct sresv *last = p->nr ? &p->r[p->nr - 1] : NULL;

		if (last == NULL || r->series != rb->first || last->k != k ||
		    r->occurrence != last->npieces + 1)
			return AR_ECORRUPT;
		plan_piece(p, start, len);
		return 0;
	}
	rb->first = r->id;
	plan_record(p, (uint32_t)k, r->nodes, start, len);
	return 0;
}

static void
violation(const char *msg, void *arg)
{
	(void)arg;
	fprintf(stderr, "schemes: invariant: %s\n", msg);
}

/* A scheme through ar_add on a store in memory; what it granted, read
 * back into p.  The write transactions DRR ran at slots with no
 * arrival: how many. */
static size_t
run_library(const struct workload *w, int scheme, struct plan *p)
{
	static const char where[] = "mem:schemes";
	struct reading_back rb = { w, p, 1, 0 };
	struct heap due = { NULL, 0, 0 }, fresh = { NULL, 0, 0 };
	struct ar_config cfg;
	uint64_t bad;
	size_t crons = 0;
	ar_store *s;
	ar_txn *t;
	int rc;

	ar_config_default(&cfg);
	cfg.flags = AR_SIMULATED;
	cfg.nodes = w->cap;
	cfg.slot = SLOT;
	cfg.horizon = w->horizon * SLOT;
	if ((rc = ar_create(where, &cfg, w->origin)) != 0 ||
	    (rc = ar_open(where, 0, &s)) != 0)
		die("store", rc);
	if (scheme == DRR && (rc = ar_write(s, 0, w->origin, set_reclaim,
	    NULL)) != 0)
		die("ar_set_reclaim", rc);
	for (size_t i = 0, e; i < w->n; i = e) {
		struct batch b = { w, &w->j[i], 0, scheme,
		    scheme == DRR ? &fresh : NULL };

		for (e = i; e < w->n && w->j[e].arrival == w->j[i].arrival; e++)
			;
		b.n = e - i;
		crons += cron(s, w, &due, w->j[i].arrival);
		/* Those due at this slot: its arrivals' transaction. */
		while (due.n > 0 && due.v[0].at == w->j[i].arrival)
			heap_pop(&due);
		if ((rc = ar_write(s, 0, w->origin + w->j[i].arrival * SLOT,
		    admit_batch, &b)) != 0)
			die("ar_add", rc);
		while (fresh.n > 0)
			heap_push(&due, heap_pop(&fresh));
	}
	crons += cron(s, w, &due, -1);
	free(due.v);
	free(fresh.v);
	plan_init(p, w->cap, SLOT, plan_slots(w), w->horizon);
	if ((rc = ar_txn_begin(s, 0, w->origin + w->j[w->n - 1].arrival *
	    SLOT, &t)) != 0 || (rc = ar_check(t, violation, NULL, &bad)) != 0 ||
	    (rc = ar_list(t, 0, read_back, &rb)) != 0)
		die("read back", rc);
	ar_txn_abort(t);
	ar_close(s);
	if ((rc = mem_remove(where)) != 0)
		die("remove", rc);
	if (bad != 0) {
		fprintf(stderr, "schemes: %s: %" PRIu64 " invariant "
		    "violations\n", names[scheme], bad);
		exit(1);
	}
	return crons;
}

/* Where reservation i of p is: its first piece's slot, or -1. */
static int64_t
first_slot(const struct plan *p, size_t i)
{
	return i < p->nr ? p->pc[p->r[i].first].start : -1;
}

/* Say in line (of size bytes) whether the library's plan lib is the
 * memory's mem, and if not where they part. */
static void
check(int scheme, const struct plan *lib, const struct plan *mem,
    char *line, size_t size)
{
	uint64_t hl = plan_hash(lib), hm = plan_hash(mem);
	size_t i;

	if (hl == hm && lib->nr == mem->nr) {
		snprintf(line, size, "  check: %-10s through ar_add: %zu "
		    "reservations, hash %016" PRIx64 " = the memory's\n",
		    names[scheme], lib->nr, hl);
		return;
	}
	mismatch = 1;
	for (i = 0; i < lib->nr && i < mem->nr; i++)
		if (!plan_same(lib, &lib->r[i], mem, &mem->r[i]))
			break;
	snprintf(line, size, "  MISMATCH: %s through ar_add: %zu "
	    "reservations (hash %016" PRIx64 "), the memory %zu (%016" PRIx64
	    "); from id %zu: request %" PRIu32 " at slot %" PRId64 " in %"
	    PRIu32 " pieces against request %" PRIu32 " at %" PRId64 " in %"
	    PRIu32 "\n", names[scheme], lib->nr, hl, mem->nr, hm, i + 1,
	    i < lib->nr ? lib->r[i].k : 0, first_slot(lib, i),
	    i < lib->nr ? lib->r[i].npieces : 0, i < mem->nr ? mem->r[i].k : 0,
	    first_slot(mem, i), i < mem->nr ? mem->r[i].npieces : 0);
}

/* --- the metrics ---------------------------------------------------------- */

/* AWT, late, RIT, utilisation and the pieces of what p holds. */
static void
measure(const struct workload *w, const struct plan *p, struct result *res)
{
	uint32_t *busy = calloc((size_t)p->nslots, sizeof(*busy));
	uint32_t *copies = calloc(w->n, sizeof(*copies));
	int64_t wait = 0, late = 0, lated = 0, idle = 0, other = 0;
	uint64_t reserved = 0, running = 0;

	if (busy == NULL || copies == NULL)
		die("measure", ENOMEM);
	for (size_t i = 0; i < p->nr; i++)
		copies[p->r[i].k]++;
	/* A reservation's nodes run a job for its run from its start. */
	for (size_t i = 0; i < p->nr; i++) {
		const struct sresv *r = &p->r[i];
		int64_t left = w->j[r->k].run;

		for (uint32_t k = 0; k < r->npieces && left > 0; k++) {
			const struct piece *x = &p->pc[r->first + k];

			for (int64_t t = x->start; t < x->start + x->len &&
			    left > 0; t++, left--)
				busy[t] += r->nodes;
		}
	}
	res->copies = p->nr;
	for (size_t i = 0; i < p->nr; i++) {
		const struct sresv *r = &p->r[i];
		const struct job *j = &w->j[r->k];
		const struct piece *x = &p->pc[r->first];
		const struct piece *last = x + r->npieces - 1;
		int64_t s = j->q.earliest;

		wait += x->start - s;
		if (r->npieces > 1 || r->nodes < j->q.nodes ||
		    copies[r->k] < j->q.jobs) {
			other += x->start - s;
			res->other++;
		}
		if (j->run > 0) {
			late += last->start + last->len - (s + j->q.dur);
			lated++;
		}
		res->pieces += r->npieces;
		/* Its idle time: every slot from s to its end not its own. */
		for (uint32_t k = 0; k < r->npieces; k++, x++)
			for (int64_t t = k ? x[-1].start + x[-1].len : s;
			    t < x->start; t++) {
				uint32_t spare = p->cap - busy[t];

				idle += spare < r->nodes ? spare : r->nodes;
			}
	}
	for (int64_t t = w->from; t < w->to; t++) {
		reserved += p->used[t];
		running += busy[t];
	}
	res->awt = p->nr ? MINUTES(wait) / (double)p->nr : 0;
	res->awt_whole = p->nr > res->other ? MINUTES(wait - other) /
	    (double)(p->nr - res->other) : 0;
	res->awt_other = res->other ? MINUTES(other) / (double)res->other : 0;
	res->late = lated ? MINUTES(late) / (double)lated : 0;
	res->rit = (double)idle * SLOT / 3600.0;
	res->util = 100.0 * (double)reserved / ((double)w->cap *
	    (double)(w->to - w->from));
	res->busy = 100.0 * (double)running / ((double)w->cap *
	    (double)(w->to - w->from));
	free(copies);
	free(busy);
}

/* --- a workload's table, and the verdict ----------------------------------- */

/* The seed's direction, DRR < TARR < ORR < RSPB. */
static const int order[] = { DRR, TARR, ORR, RSPB };

/* The metrics it is held to: AWT, Total RIT, and RIT per copy (the
 * seed's tables give RIT per job; a total grows with what is granted). */
enum { M_AWT, M_RIT, M_RITC, NMETRICS };

static const char *const metric[NMETRICS] = {
	"AWT (min)", "RIT (node-h)", "RIT per copy (node-min)"
};

static double
value(const struct result *x, int m)
{
	if (m == M_AWT)
		return x->awt;
	if (m == M_RIT)
		return x->rit;
	return x->copies ? 60 * x->rit / (double)x->copies : 0;
}

/* Which of the direction's three steps hold for metric m (bit i: the
 * step from order[i] to order[i + 1]). */
static unsigned
holds(const struct result *r, int m)
{
	unsigned bits = 0;

	for (int i = 0; i < 3; i++)
		bits |= (unsigned)(value(&r[order[i]], m) <
		    value(&r[order[i + 1]], m)) << i;
	return bits;
}

/* "  AWT (min): DRR 1.0 < TARR 2.0 < ORR 3.0 > RSPB 2.5: does not hold" */
static void
chain(const struct result *r, int m)
{
	printf("  %s:", metric[m]);
	for (int i = 0; i < 4; i++) {
		double v = value(&r[order[i]], m);

		printf(" %s %.*f", names[order[i]], v < 10 ? 2 : 1, v);
		if (i < 3) {
			double next = value(&r[order[i + 1]], m);

			printf(" %s", v < next ? "<" : v == next ? "=" : ">");
		}
	}
	printf(": %s\n", holds(r, m) == 7 ? "holds" : "does not hold");
}

/* b against a, in percent of a. */
static double
change(double a, double b)
{
	return a != 0 ? 100 * (b - a) / a : 0;
}

static double
accepted(const struct workload *w, const struct result *x)
{
	return 100.0 * (double)x->accepted / (double)w->n;
}

/* Each workload's results, for the summary. */
struct seen {
	char name[64];
	size_t n;
	struct result r[NSCHEMES];
};

static void
report(const struct workload *w, const struct result *r)
{
	const struct result *o = &r[ORR], *t = &r[TARR], *d = &r[DRR],
	    *b = &r[RSPB];

	printf("\n== %s: %zu requests, %" PRIu32 " nodes, horizon %" PRId64
	    " h, %.0f%% of them unused\n   %s\n", w->name, w->n, w->cap,
	    w->horizon * SLOT / 3600, 100 * w->unused, w->about);
	printf("  %-10s %6s %6s %6s %9s %9s %11s %10s %7s %8s %10s\n", "",
	    "acc%", "util%", "busy%", "AWT(min)", "late(min)", "RIT(node-h)",
	    "RIT/copy", "pieces", "lowered", "reclaimed");
	for (int s = 0; s < NSCHEMES; s++) {
		const struct result *x = &r[s];

		printf("  %-10s %6.1f %6.1f %6.1f %9.1f %9.1f %11.1f %10.1f "
		    "%7.2f %7.1f%% %10.1f\n", names[s], accepted(w, x),
		    x->util, x->busy, x->awt, x->late, x->rit,
		    value(x, M_RITC), x->copies ? (double)x->pieces /
		    (double)x->copies : 0, x->accepted ? 100.0 *
		    (double)x->lowered / (double)x->accepted : 0,
		    x->reclaimed);
	}
	printf("  AWT (min) of the copies granted whole / split or lowered "
	    "(their share):");
	for (int i = 0; i < 4; i++) {
		const struct result *x = &r[order[i]];

		printf(" %s %.0f/%.0f (%.0f%%)%s", names[order[i]], x->awt_whole,
		    x->awt_other, x->copies ? 100.0 * (double)x->other /
		    (double)x->copies : 0, i < 3 ? "," : "\n");
	}
	for (int s = 0; s < NSCHEMES; s++)
		printf("%s", r[s].check);
	for (int m = 0; m < NMETRICS; m++)
		chain(r, m);
	printf("  against ORR: DRR (ORR that reclaims) freed %.0f node-h: "
	    "AWT %+.0f%%, RIT/copy %+.0f%%, acc %+.1f pp;\n"
	    "    TARR (the first free slots): AWT %+.0f%%, RIT/copy %+.0f%%, "
	    "acc %+.1f pp, %.2f pieces a copy (ORR %.2f), late %+.0f min;\n"
	    "    RSPB (smaller levels, whole): AWT %+.0f%%, RIT/copy %+.0f%%, "
	    "acc %+.1f pp, %.0f%% of its grants lowered\n", d->reclaimed,
	    change(o->awt, d->awt), change(value(o, M_RITC), value(d, M_RITC)),
	    accepted(w, d) - accepted(w, o), change(o->awt, t->awt),
	    change(value(o, M_RITC), value(t, M_RITC)),
	    accepted(w, t) - accepted(w, o), (double)t->pieces /
	    (double)(t->copies ? t->copies : 1), (double)o->pieces /
	    (double)(o->copies ? o->copies : 1), t->late - o->late,
	    change(o->awt, b->awt), change(value(o, M_RITC), value(b, M_RITC)),
	    accepted(w, b) - accepted(w, o), b->accepted ? 100.0 *
	    (double)b->lowered / (double)b->accepted : 0);
	fflush(stdout);
}

/* Run every scheme on w, each through the library too; what they did
 * into seen. */
static void
compare(struct workload *w, struct seen *seen)
{
	struct result *r = seen->r;

	/* In order of arrival, numbered so. */
	qsort(w->j, w->n, sizeof(*w->j), by_arrival);
	for (size_t i = 0; i < w->n; i++)
		w->j[i].q.k = (uint32_t)i;
	for (int s = 0; s < NSCHEMES; s++) {
		struct plan mem, lib;
		size_t crons, len;

		run_memory(w, s, &mem, &r[s]);
		measure(w, &mem, &r[s]);
		crons = run_library(w, s, &lib);
		check(s, &lib, &mem, r[s].check, sizeof(r[s].check));
		len = strlen(r[s].check);
		if (s == DRR)
			snprintf(r[s].check + len, sizeof(r[s].check) - len,
			    "    (DRR's replay: %zu write transactions of a "
			    "cron job, at slots where a reclaim fell due and "
			    "nothing arrived)\n", crons);
		plan_free(&lib);
		plan_free(&mem);
	}
	snprintf(seen->name, sizeof(seen->name), "%s", w->name);
	seen->n = w->n;
	report(w, r);
}

/* Means over the workloads where step i of the direction holds on
 * metric m (yes) or not: of each of n figures fig(r, j). */
static void
split_means(const struct seen *seen, size_t n, int m, int i, int yes,
    double (*fig)(const struct seen *, int), int nfig, double *mean,
    size_t *count)
{
	*count = 0;
	for (int j = 0; j < nfig; j++)
		mean[j] = 0;
	for (size_t k = 0; k < n; k++) {
		if ((int)((holds(seen[k].r, m) >> i) & 1) != yes)
			continue;
		++*count;
		for (int j = 0; j < nfig; j++)
			mean[j] += fig(&seen[k], j);
	}
	for (int j = 0; j < nfig && *count > 0; j++)
		mean[j] /= (double)*count;
}

static double
pieces_a_copy(const struct result *x)
{
	return x->copies ? (double)x->pieces / (double)x->copies : 0;
}

static double
acc_of(const struct seen *w, int s)
{
	return 100.0 * (double)w->r[s].accepted / (double)w->n;
}

/* DRR < TARR: what reclaiming and the first free slots each do to
 * ORR's AWT. */
static double
fig_reclaim(const struct seen *w, int j)
{
	const struct result *r = w->r;

	return change(r[ORR].awt, j == 0 ? r[DRR].awt : r[TARR].awt);
}

/* TARR < ORR: AWT, pieces a copy of each, acceptance. */
static double
fig_slots(const struct seen *w, int j)
{
	const struct result *r = w->r;

	return j == 0 ? change(r[ORR].awt, r[TARR].awt) : j == 1 ?
	    pieces_a_copy(&r[TARR]) : j == 2 ? pieces_a_copy(&r[ORR]) :
	    acc_of(w, TARR) - acc_of(w, ORR);
}

/* ORR < RSPB: the AWT of the copies each grants whole, and of those
 * it splits or lowers. */
static double
fig_levels(const struct seen *w, int j)
{
	const struct result *r = w->r;

	return j == 0 ? r[ORR].awt_whole : j == 1 ? r[RSPB].awt_whole :
	    j == 2 ? r[ORR].awt_other : r[RSPB].awt_other;
}

/* RIT: acceptance and RIT per copy of DRR against TARR. */
static double
fig_total(const struct seen *w, int j)
{
	const struct result *r = w->r;

	return j == 0 ? acc_of(w, DRR) - acc_of(w, TARR) :
	    change(value(&r[TARR], M_RITC), value(&r[DRR], M_RITC));
}

/* "where it holds (2): a, b; where not (4): c, d" of one step. */
static void
why(const struct seen *seen, size_t n, int m, int i,
    double (*fig)(const struct seen *, int), int nfig, const char *fmt)
{
	for (int yes = 1; yes >= 0; yes--) {
		double mean[4];
		size_t count;

		split_means(seen, n, m, i, yes, fig, nfig, mean, &count);
		if (count == 0)
			continue;
		printf("    where %s (%zu): ", yes ? "it holds" : "not", count);
		printf(fmt, mean[0], mean[1], mean[2], mean[3]);
		printf("\n");
	}
}

/* Where each step of the direction holds, over the workloads seen, and
 * what moves it. */
static void
summary(const struct seen *seen, size_t n)
{
	printf("\n== Where the seed's direction holds (DRR < TARR < ORR < "
	    "RSPB), over %zu workloads\n", n);
	for (int m = 0; m < NMETRICS; m++) {
		size_t whole = 0, step[3] = { 0 };

		for (size_t k = 0; k < n; k++) {
			unsigned b = holds(seen[k].r, m);

			whole += b == 7;
			for (int i = 0; i < 3; i++)
				step[i] += (b >> i) & 1;
		}
		printf("  %s: the whole order in %zu; %s < %s in %zu, %s < %s "
		    "in %zu, %s < %s in %zu\n", metric[m], whole,
		    names[order[0]], names[order[1]], step[0],
		    names[order[1]], names[order[2]], step[1],
		    names[order[2]], names[order[3]], step[2]);
		for (int i = 0; i < 3; i++) {
			const char *sep = " ";

			if (step[i] == n)
				continue;
			printf("    not %s < %s in:", names[order[i]],
			    names[order[i + 1]]);
			for (size_t k = 0; k < n; k++)
				if (!((holds(seen[k].r, m) >> i) & 1)) {
					printf("%s%s", sep, seen[k].name);
					sep = ", ";
				}
			printf("\n");
		}
	}
	printf("\nWhy, on AWT (means over the workloads; DRR and TARR are "
	    "both ORR changed, so each\nagainst ORR):\n");
	printf("  DRR < TARR: DRR is ORR that reclaims what goes unused, TARR "
	    "ORR that takes the\n  first free slots; DRR comes first where "
	    "reclaiming gains more\n");
	why(seen, n, M_AWT, 0, fig_reclaim, 2, "reclaiming %+.0f%%, the first "
	    "free slots %+.0f%%");
	printf("  TARR < ORR: on one plan TARR's first piece is the first free "
	    "slot from the asked\n  start, and no set ORR may take starts "
	    "earlier; it costs TARR pieces, and\n  the plans part as they "
	    "fill\n");
	why(seen, n, M_AWT, 1, fig_slots, 4, "TARR %+.0f%%, %.2f pieces a copy "
	    "against ORR's %.2f, acceptance %+.1f pp");
	printf("  ORR < RSPB: both grant what fits whole at its first fit; of "
	    "the rest ORR splits\n  a request, RSPB grants a smaller level "
	    "whole at that level's first fit; what\n  either grants so is "
	    "the plan the next requests find\n");
	why(seen, n, M_AWT, 2, fig_levels, 4, "the copies granted whole wait "
	    "%.0f min with ORR, %.0f with RSPB;\n      those split or lowered "
	    "%.0f with ORR, %.0f with RSPB");
	printf("On RIT: Total RIT sums over what is granted, so a scheme that "
	    "grants more waits\nmore in all; DRR against TARR:\n");
	why(seen, n, M_RIT, 0, fig_total, 2, "DRR's acceptance %+.1f pp, its "
	    "RIT per copy %+.0f%%");
	printf("The seed's conclusion, DRR the best of the four: lowest");
	for (int m = 0; m < NMETRICS; m++) {
		size_t best = 0;

		for (size_t k = 0; k < n; k++) {
			int low = 1;

			for (int i = 1; i < 4; i++)
				low &= value(&seen[k].r[DRR], m) <
				    value(&seen[k].r[order[i]], m);
			best += low;
		}
		printf("%s %s in %zu of %zu", m == 0 ? "" : m == 1 ? "," :
		    ", and", metric[m], best, n);
	}
	printf("\n");
}

/* --- main ------------------------------------------------------------------ */

static int
number(const char *opt, const char *arg, uint64_t max, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(arg, &end, 10);
	if (errno == 0 && end != arg && *end == '\0' && *v <= max &&
	    (*v > 0 || strcmp(opt, "unused") == 0))
		return 0;
	fprintf(stderr, "schemes: bad value '%s' (--%s: %s%" PRIu64 ")\n",
	    arg, opt, strcmp(opt, "unused") == 0 ? "0-" : "1-", max);
	return -1;
}

static void
usage(void)
{
	fprintf(stderr, "usage: schemes [--slots N] [--days N] [--seed N] "
	    "[--unused PCT] [TRACES]\n");
}

int
main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "slots", required_argument, NULL, 'n' },
		{ "days", required_argument, NULL, 'd' },
		{ "seed", required_argument, NULL, 's' },
		{ "unused", required_argument, NULL, 'u' },
		{ NULL, 0, NULL, 0 }
	};
	static const struct {
		const struct flex_shape *shape;
		double rate;
		unsigned flexible;
	} gen[] = {
		{ &flex_parametric, 2, 50 }, { &flex_parametric, 3, 100 },
		{ &flex_mpi, 2, 50 }, { &flex_mpi, 3, 100 },
	};
	static const struct { const char *file, *name; } traces[] = {
		{ "SDSC-BLUE-2000-4.2-cln.swf.gz", "SDSC-BLUE-2000" },
		{ "KTH-SP2-1996-2.1-cln.swf.gz", "KTH-SP2-1996" },
	};
	struct workload tw[2], w;
	struct seen seen[6];
	size_t nseen = 0;
	uint64_t slots = 2016, days = 365, seed = 1, pct = 0;
	const char *dir = "../shared/traces";
	double unused = -1, share = 0;
	size_t ntw = 0;
	time_t t0 = time(NULL);
	int opt, rc;

	while ((opt = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		if ((opt == 'n' && number("slots", optarg, 1000000, &slots)) ||
		    (opt == 'd' && number("days", optarg, 100000, &days)) ||
		    (opt == 's' && number("seed", optarg, UINT64_MAX, &seed)) ||
		    (opt == 'u' && number("unused", optarg, 100, &pct)))
			return 2;
		if (opt == 'u')
			unused = (double)pct / 100;
		if (opt == '?') {
			usage();
			return 2;
		}
	}
	if (argc - optind > 1) {
		usage();
		return 2;
	}
	if (optind < argc)
		dir = argv[optind];
	if (slots < (uint64_t)GEN_HORIZON) {
		fprintf(stderr, "schemes: bad value '%" PRIu64 "' (--slots: "
		    "%d-1000000)\n", slots, GEN_HORIZON);
		return 2;
	}
	printf("schemes: seed 004's schemes beside FCFS rigid and FCFS-EDS "
	    "(tests/bench/schemes.h reads them)\nORR and DRR: at most %d "
	    "pieces of at least %d slot; DRR reclaims %d minutes after its "
	    "start a\nreservation that reports no use; RSPB's levels n:10, "
	    "n/2:6, n/4:3; 5-minute slots\n", ORR_PIECES, ORR_SMALLEST,
	    DRR_GRACE * SLOT / 60);

	for (size_t i = 0; i < sizeof(traces) / sizeof(traces[0]); i++) {
		if ((rc = traced(&tw[ntw], dir, traces[i].file, traces[i].name,
		    (double)days)) < 0)
			return 1;
		if (rc == 0) {
			printf("%s: %s/%s missing: skipped\n", traces[i].name,
			    dir, traces[i].file);
			continue;
		}
		share += tw[ntw++].unused;
	}
	if (unused < 0) {
		if (ntw == 0) {
			fprintf(stderr, "schemes: no trace in %s to take the "
			    "share of unused reservations from: give "
			    "--unused\n", dir);
			return 2;
		}
		unused = share / (double)ntw;
	}
	printf("unused: a job that ran under %d%% of its requested time; "
	    "generated: %.0f%% of the requests%s\n", UNUSED_SHARE,
	    100 * unused, ntw ? ", the traces' mean" : "");

	for (size_t i = 0; i < sizeof(gen) / sizeof(gen[0]); i++) {
		generated(&w, gen[i].shape, gen[i].rate, gen[i].flexible,
		    (int64_t)slots, seed, unused);
		if (w.n > 0)
			compare(&w, &seen[nseen++]);
		free(w.j);
	}
	for (size_t i = 0; i < ntw; i++) {
		compare(&tw[i], &seen[nseen++]);
		free(tw[i].j);
	}
	summary(seen, nseen);
	printf("\nschemes: done in %.0f s\n", difftime(time(NULL), t0));
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("schemes: standard output");
		return 1;
	}
	return mismatch;
}
