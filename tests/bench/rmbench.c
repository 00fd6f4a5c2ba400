/*
 * rmbench - the revenue management experiments of Umar's thesis,
 * sections 6.6 (parametric jobs: Tables 6.3-6.8) and 6.7 (MPI jobs:
 * Tables 6.9-6.14), run through the library in-process.
 *
 * Each experiment (an arrival rate and initial booking limits) is one
 * workload from the generator of argen.c, replayed with FCFS-EDS
 * (AR_LATER) on a fresh store three times:
 *
 *   none     no price classes: admission as without revenue management.
 *            A granted request still pays the price of the class its
 *            book-ahead puts it in: the segments are the same, only
 *            nothing is protected.
 *   fixed    the three classes of Table 6.3, at the initial limits.
 *   updated  the same, and every UPDATE_EVERY slots from slot
 *            UPDATE_FIRST on the limits are recomputed by EMSR-b from
 *            the store's demand log of the last HISTORY slots
 *            (ar_update_limits), in the transaction of that slot.
 *
 * The clock moves slot by slot; a slot's update and arrivals are one
 * write transaction at the slot's time, so a request's book-ahead, and
 * with it its class, is its earliest start less its arrival.  Revenue is
 * what the final plan earns: each reservation's price spread over the
 * slots it holds, its nodes at its class's price per node-slot.  The
 * thesis does not say how its hourly "revenue collected in a sliding
 * window" is counted; its utilization windows (section 6.4) count the
 * node-slots in use, and so do these, each at its price.  The windows
 * follow each other, every 12th position of the thesis's sliding one,
 * from the first slot whose reservations were all admitted after the
 * first update.  Every store's invariants are checked after its run, and
 * every granted reservation's class and price against its book-ahead; a
 * violation fails the benchmark.
 *
 * Beside the thesis's updated limits and the order of the three, it
 * prints the demand counted from the workload against ar_forecast's,
 * and, closing, where the thesis's directions hold and why not where
 * they do not.  Section 6.6 does not say how many jobs a parametric
 * request has: it is run as section 6.4's U[1,5] jobs, and again with
 * one job of one node per request.
 *
 *   rmbench [--slots N] [--seed N]
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ar.h"
#include "flex.h"

#define HORIZON 86400           /* seconds: requests reach 6 hours ahead */
#define WINDOW 12               /* slots of a revenue window */
#define FLEXIBLE 50             /* percent: "at most 50%" */
#define UPDATE_FIRST 144        /* slot of the first update: 12 hours */
#define UPDATE_EVERY 12         /* slots between updates: an hour */
#define HISTORY 288             /* slots of demand an update reads: a day */
#define T0 ((int64_t)1795219200)         /* 2026-11-21T00:00:00Z */

/* Sections 6.6 and 6.7: book-ahead 0-36 slots, relax 1-12; parametric
 * requests run 12-24 slots, U[1,5] jobs of one node as in section 6.4
 * (section 6.6 says nothing of jobs); MPI ones 6-24 slots, one job of
 * U[1,5] nodes. */
static const struct flex_shape rm_parametric = {
	"parametric", 12, 24, 36, 12, 1, 1, 1, 5
};
static const struct flex_shape rm_single = {
	"parametric", 12, 24, 36, 12, 1, 1, 1, 1
};
static const struct flex_shape rm_mpi = {
	"MPI", 6, 24, 36, 12, 1, 5, 1, 1
};

/* Table 6.3 (and 6.9): class 1 books 0-12 slots ahead, class 2 13-24,
 * class 3 more; prices in rupees per node per slot. */
#define NCLASS 3
static const struct {
	const char *name;
	int64_t price;
	int64_t ahead_min, ahead_max;   /* slots; -1: no end */
} classes[NCLASS] = {
	{ "premium", 100, 0, 13 },
	{ "business", 60, 13, 25 },
	{ "economy", 40, 25, -1 },
};

/* An experiment of Table 6.4 or 6.10, and the thesis's updated limits. */
struct experiment {
	unsigned no;
	double rate;
	uint32_t b2, b3;        /* initial limits; b1 is the capacity */
	const char *table;      /* where the thesis gives the update */
	uint32_t after_b2, after_b3;
	int dilution;           /* designed as dilution, else spoilage */
	const char *figure;     /* the thesis's revenue windows */
	int none_above_fixed;   /* the thesis has none earn more than
	                         * fixed there, and updated the most */
};

struct study {
	const char *title;
	const char *name;       /* short */
	const struct flex_shape *shape;
	uint32_t nodes;
	int windows;            /* print the first day's windows */
	struct experiment exp[4];
};

/*
 * Table 6.4 gives experiments 2 and 4 the initial limits b2 = 30,
 * b3 = 35, which are not nested; Tables 6.6 and 6.8, and Table 5.1,
 * have b2 = 35, b3 = 30, which this takes.
 */
static const struct study studies[] = {
	{ "Section 6.6, parametric jobs (Tables 6.4-6.8)", "Section 6.6",
	    &rm_parametric, 40, 1, {
		{ 1, 3, 10, 5, "6.5", 22, 2, 0, "6.18", 0 },
		{ 2, 3, 35, 30, "6.6", 29, 5, 1, "6.19", 0 },
		{ 3, 4, 10, 5, "6.7", 14, 0, 0, "6.20", 0 },
		{ 4, 4, 35, 30, "6.8", 29, 0, 1, "6.21", 1 },
	} },
	{ "Section 6.7, MPI jobs (Tables 6.10-6.14)", "Section 6.7", &rm_mpi,
	    80, 1, {
		{ 1, 2, 20, 10, "6.11", 48, 11, 0, "6.22", 0 },
		{ 2, 2, 75, 70, "6.12", 65, 19, 1, "6.23", 0 },
		{ 3, 3, 20, 10, "6.13", 41, 0, 0, "6.24", 0 },
		{ 4, 3, 75, 70, "6.14", 62, 10, 1, "6.25", 1 },
	} },
	{ "Section 6.6 again, one job of one node per request",
	    "Section 6.6, one job", &rm_single, 40, 0, {
		{ 1, 3, 10, 5, "6.5", 22, 2, 0, "6.18", 0 },
		{ 2, 3, 35, 30, "6.6", 29, 5, 1, "6.19", 0 },
		{ 3, 4, 10, 5, "6.7", 14, 0, 0, "6.20", 0 },
		{ 4, 4, 35, 30, "6.8", 29, 0, 1, "6.21", 1 },
	} },
};

#define NSTUDY (sizeof(studies) / sizeof(studies[0]))

enum { NONE, FIXED, UPDATED, NSCEN };
static const char *const scenario[NSCEN] = { "none", "fixed", "updated" };

/* The class (0-based) of a request by its book-ahead in slots. */
static int
class_of(int64_t ahead)
{
	int i;

	for (i = 0; i < NCLASS - 1; i++)
		if (ahead < classes[i].ahead_max)
			break;
	return i;
}

static int64_t
slots_of(int64_t seconds)
{
	return (seconds + FLEX_SLOT - 1) / FLEX_SLOT;
}

static int
req_class(const struct flex_req *f)
{
	return class_of((f->earliest - f->arrival) / FLEX_SLOT);
}

/* What a run measured. */
struct result {
	int64_t *rev;           /* per window */
	int64_t total;
	uint64_t sold[NCLASS];  /* node-slots in the windows */
	uint64_t idle;
	/* node-slots of the requests arriving from the first update on */
	uint64_t asked[NCLASS], by_limit[NCLASS], by_full[NCLASS];
	/* updated: the limits after the first and the last update and the
	 * forecasts they came from, the limits' range, and per slot those
	 * in force when its arrivals were admitted */
	uint32_t first[NCLASS], last[NCLASS], lo[NCLASS], hi[NCLASS];
	double mean[2][NCLASS], sd[2][NCLASS];
	uint32_t (*lim)[NCLASS];
	size_t updates;
};

/* One experiment's workload and where its runs stand. */
struct work {
	const struct study *st;
	const struct experiment *ex;
	int sc;
	const struct flex_req *rq;
	size_t n;
	int64_t slots;
	int64_t from;           /* first slot of the windows */
	size_t nwin;
	unsigned char *granted; /* per request */
	enum ar_reason *reason;
	uint32_t (*use)[NCLASS];        /* per slot: nodes held by class */
};

/* The requests of one slot and, if due, an update: one transaction. */
struct slot {
	struct work *w;
	size_t from, to;
	int update;
	struct ar_fare_class fc[AR_CLASSES_MAX];
};

static const char *store;

static int
set_classes(ar_txn *t, void *arg)
{
	const struct work *w = arg;
	struct ar_pricing p;
	const char *field;
	size_t bad;
	int rc;

	memset(&p, 0, sizeof(p));
	p.n = NCLASS;
	p.retention = 7 * 86400;
	for (int i = 0; i < NCLASS; i++) {
		snprintf(p.c[i].name, sizeof(p.c[i].name), "%s",
		    classes[i].name);
		p.c[i].price = classes[i].price;
		p.c[i].ahead_min = classes[i].ahead_min * FLEX_SLOT;
		p.c[i].ahead_max = classes[i].ahead_max == -1 ? -1 :
		    classes[i].ahead_max * FLEX_SLOT;
	}
	p.c[0].limit = w->st->nodes;
	p.c[1].limit = w->ex->b2;
	p.c[2].limit = w->ex->b3;
	if ((rc = ar_set_pricing(t, &p, &bad, &field)) != 0)
		fprintf(stderr, "rmbench: class %zu: field '%s'\n", bad + 1,
		    field ? field : "?");
	return rc;
}

static void
fail(const struct work *w, const struct flex_req *f, const char *what)
{
	fprintf(stderr, "rmbench: %s, experiment %u, %s: request %" PRIu64
	    ": %s\n", w->st->shape->name, w->ex->no, scenario[w->sc], f->k,
	    what);
	exit(1);
}

static int
admit(ar_txn *t, void *arg)
{
	struct slot *sl = arg;
	struct work *w = sl->w;
	struct ar_request rq;
	struct ar_answer ans;
	const struct ar_placed *g, *mv;
	size_t ng, nm, nfc;
	char user[32], job[32];
	int64_t since;
	int rc;

	if (sl->update) {
		since = ar_txn_now(t) - HISTORY * FLEX_SLOT;
		if ((rc = ar_update_limits(t, AR_EMSR_B, since < T0 ? T0 :
		    since, sl->fc, &nfc)) != 0)
			return rc;
		if (nfc != NCLASS)
			return AR_ECORRUPT;
	}
	for (size_t i = sl->from; i < sl->to; i++) {
		const struct flex_req *f = &w->rq[i];
		uint32_t cls = w->sc == NONE ? 0 : (uint32_t)req_class(f) + 1;

		snprintf(user, sizeof(user), "u%" PRIu64, f->k);
		snprintf(job, sizeof(job), "%" PRIu64, f->k);
		rq = (struct ar_request){ .earliest = f->earliest,
		    .latest = f->latest, .duration = f->duration,
		    .nodes = f->nodes, .jobs = f->jobs, .owner = 1000,
		    .user = user, .job = job, .flags = AR_LATER };
		if ((rc = ar_add(t, &rq, &ans)) != 0)
			return rc;
		ar_added(t, &g, &ng, &mv, &nm);
		if (ans.cls != cls)
			fail(w, f, "classed otherwise than by its book-ahead");
		if (ans.status == AR_GRANTED && ng != f->jobs)
			fail(w, f, "granted in part");
		if (ans.status != AR_GRANTED && (ans.status != AR_REFUSED ||
		    (ans.reason != AR_R_FULL && (w->sc == NONE ||
		    ans.reason != AR_R_BOOKING))))
			fail(w, f, "neither granted nor refused as full or by "
			    "a limit");
		for (size_t j = 0; j < nm; j++)
			if (mv[j].start < mv[j].from)
				fail(w, f, "moved a reservation earlier");
		w->granted[i] = ans.status == AR_GRANTED;
		w->reason[i] = ans.reason;
	}
	return 0;
}

/* A reservation of the final plan: its nodes to its class's slots. */
static int
add_to_plan(const struct ar_resv *r, void *arg)
{
	struct work *w = arg;
	int64_t from = (r->start - T0) / FLEX_SLOT;
	int64_t to = (r->end - T0) / FLEX_SLOT;
	const struct flex_req *f;
	uint64_t k;
	char *end;
	int c;

	if (r->state != AR_GRANTED && r->state != AR_FINISHED)
		return 0;
	k = strtoull(r->job, &end, 10);
	if (*end != '\0' || k == 0 || k > w->n || w->rq[k - 1].k != k) {
		fprintf(stderr, "rmbench: reservation %" PRIu64 ": no request "
		    "'%s'\n", r->id, r->job);
		exit(1);
	}
	f = &w->rq[k - 1];
	c = req_class(f);
	if (w->sc != NONE && (r->cls != (uint32_t)c + 1 || r->price !=
	    classes[c].price * r->nodes * (to - from)))
		fail(w, f, "a reservation's class or price is wrong");
	if (from < 0 || to > w->slots + HORIZON / FLEX_SLOT)
		fail(w, f, "a reservation outside the simulated span");
	for (int64_t s = from; s < to; s++)
		w->use[s][c] += r->nodes;
	return 0;
}

static void
violation(const char *msg, void *arg)
{
	const struct work *w = arg;

	fprintf(stderr, "rmbench: %s, experiment %u, %s: invariant: %s\n",
	    w->st->shape->name, w->ex->no, scenario[w->sc], msg);
}

static void
record_update(struct result *res, const struct ar_fare_class *fc)
{
	for (int c = 0; c < NCLASS; c++) {
		uint32_t b = fc[c].limit;

		if (res->updates == 0) {
			res->first[c] = res->lo[c] = res->hi[c] = b;
			res->mean[0][c] = fc[c].mean;
			res->sd[0][c] = fc[c].sd;
		}
		res->last[c] = b;
		res->mean[1][c] = fc[c].mean;
		res->sd[1][c] = fc[c].sd;
		if (b < res->lo[c])
			res->lo[c] = b;
		if (b > res->hi[c])
			res->hi[c] = b;
	}
	res->updates++;
}

static void
run(struct work *w, struct result *res)
{
	struct ar_config cfg;
	struct slot sl;
	uint32_t cur[NCLASS];
	uint64_t bad;
	int64_t nslots = w->slots + HORIZON / FLEX_SLOT;
	size_t i = 0;
	ar_store *s;
	ar_txn *t;
	int rc;

	ar_config_default(&cfg);
	cfg.flags = AR_SIMULATED;
	cfg.nodes = w->st->nodes;
	cfg.slot = FLEX_SLOT;
	cfg.horizon = HORIZON;
	if ((rc = ar_create(store, &cfg, T0)) != 0)
		flex_die("create", rc);
	if ((rc = ar_open(store, 0, &s)) != 0)
		flex_die("open", rc);
	if (w->sc != NONE && (rc = ar_write(s, 0, T0, set_classes, w)) != 0)
		flex_die("classes", rc);
	memset(res, 0, sizeof(*res));
	res->rev = calloc(w->nwin, sizeof(*res->rev));
	res->lim = calloc((size_t)w->slots, sizeof(*res->lim));
	w->use = calloc((size_t)nslots, sizeof(*w->use));
	if (res->rev == NULL || res->lim == NULL || w->use == NULL)
		flex_die("run", ENOMEM);
	memset(w->granted, 0, w->n);
	cur[0] = w->st->nodes;
	cur[1] = w->sc == NONE ? w->st->nodes : w->ex->b2;
	cur[2] = w->sc == NONE ? w->st->nodes : w->ex->b3;

	for (int64_t k = 0; k < w->slots; k++) {
		int64_t now = T0 + k * FLEX_SLOT;

		sl.w = w;
		sl.from = i;
		while (i < w->n && w->rq[i].arrival == now)
			i++;
		sl.to = i;
		sl.update = w->sc == UPDATED && k >= UPDATE_FIRST &&
		    (k - UPDATE_FIRST) % UPDATE_EVERY == 0;
		if ((sl.from < sl.to || sl.update) &&
		    (rc = ar_write(s, 0, now, admit, &sl)) != 0)
			flex_die(scenario[w->sc], rc);
		if (sl.update) {
			record_update(res, sl.fc);
			for (int c = 0; c < NCLASS; c++)
				cur[c] = sl.fc[c].limit;
		}
		memcpy(res->lim[k], cur, sizeof(cur));
	}

	if ((rc = ar_txn_begin(s, 0, T0 + w->slots * FLEX_SLOT, &t)) != 0)
		flex_die("read", rc);
	if ((rc = ar_check(t, violation, w, &bad)) != 0)
		flex_die("check", rc);
	if (bad != 0) {
		fprintf(stderr, "rmbench: %" PRIu64 " invariant violations\n",
		    bad);
		exit(1);
	}
	if ((rc = ar_list(t, 0, add_to_plan, w)) != 0)
		flex_die("list", rc);
	ar_txn_abort(t);
	ar_close(s);
	flex_scratch_remove();

	for (size_t v = 0; v < w->nwin; v++)
		for (int64_t k = 0; k < WINDOW; k++) {
			const uint32_t *u = w->use[w->from + (int64_t)v *
			    WINDOW + k];
			uint32_t all = 0;

			for (int c = 0; c < NCLASS; c++) {
				res->rev[v] += u[c] * classes[c].price;
				res->sold[c] += u[c];
				all += u[c];
			}
			if (all > w->st->nodes) {
				fprintf(stderr, "rmbench: %" PRIu32 " nodes "
				    "in use\n", all);
				exit(1);
			}
			res->idle += w->st->nodes - all;
		}
	for (size_t v = 0; v < w->nwin; v++)
		res->total += res->rev[v];
	for (size_t j = 0; j < w->n; j++) {
		const struct flex_req *f = &w->rq[j];
		uint64_t ns = (uint64_t)f->nodes * f->jobs *
		    (uint64_t)slots_of(f->duration);
		int c = req_class(f);

		if (f->arrival < T0 + UPDATE_FIRST * FLEX_SLOT)
			continue;
		res->asked[c] += ns;
		if (!w->granted[j])
			*(w->reason[j] == AR_R_BOOKING ? &res->by_limit[c] :
			    &res->by_full[c]) += ns;
	}
	free(w->use);
}

/*
 * The demand the generator makes, counted as ar_forecast counts the
 * log's (each request's nodes over its asked interval, per class and
 * slot), over the slots from `from` before `to`, whose demand is
 * complete: every request that could ask for them arrived in the run.
 */
static void
demand(const struct work *w, int64_t from, int64_t to, double *mean,
    double *sd)
{
	double sum[NCLASS] = { 0 }, sq[NCLASS] = { 0 };
	int64_t (*d)[NCLASS] = calloc((size_t)(to - from + 1), sizeof(*d));

	if (d == NULL)
		flex_die("demand", ENOMEM);
	for (size_t j = 0; j < w->n; j++) {
		const struct flex_req *f = &w->rq[j];
		int64_t a = (f->earliest - T0) / FLEX_SLOT;
		int64_t b = a + slots_of(f->duration);
		int c = req_class(f);

		a = a < from ? from : a;
		b = b > to ? to : b;
		if (a >= b)
			continue;
		d[a - from][c] += (int64_t)f->nodes * f->jobs;
		d[b - from][c] -= (int64_t)f->nodes * f->jobs;
	}
	for (int c = 0; c < NCLASS; c++) {
		double level = 0;

		for (int64_t s = 0; s < to - from; s++) {
			level += (double)d[s][c];
			sum[c] += level;
			sq[c] += level * level;
		}
		mean[c] = sum[c] / (double)(to - from);
		sd[c] = sqrt(fmax(0, sq[c] / (double)(to - from) -
		    mean[c] * mean[c]));
	}
	free(d);
}

/* What the closing lines need of an experiment. */
struct outcome {
	const struct experiment *ex;
	int64_t total[NSCEN];
	uint64_t idle[NSCEN], sold[NSCEN][NCLASS], by_limit[NSCEN];
	double span;            /* node-slots in the windows */
	uint32_t first[NCLASS], last[NCLASS], lo[NCLASS], hi[NCLASS];
	double counted[NCLASS], forecast[NCLASS], fsd[NCLASS], sd[NCLASS];
};

static double
pct(double part, double whole)
{
	return whole > 0 ? 100.0 * part / whole : 0;
}

/* The three scenarios in order of total revenue, "none < fixed < ...". */
static const char *
order(char *buf, size_t len, const int64_t *total)
{
	int ix[NSCEN] = { NONE, FIXED, UPDATED };

	for (int i = 1; i < NSCEN; i++)
		for (int j = i; j > 0 && total[ix[j]] < total[ix[j - 1]]; j--) {
			int x = ix[j];

			ix[j] = ix[j - 1];
			ix[j - 1] = x;
		}
	snprintf(buf, len, "%s %s %s %s %s", scenario[ix[0]],
	    total[ix[0]] == total[ix[1]] ? "=" : "<", scenario[ix[1]],
	    total[ix[1]] == total[ix[2]] ? "=" : "<", scenario[ix[2]]);
	return buf;
}

static void
print_limits(const struct study *st, const struct experiment *ex,
    const struct result *u)
{
	uint32_t before[NCLASS] = { st->nodes, ex->b2, ex->b3 };
	uint32_t after[NCLASS] = { st->nodes, ex->after_b2, ex->after_b3 };

	printf("  booking limits  Table %-4s        ar, EMSR-b (%zu updates)\n",
	    ex->table, u->updates);
	printf("                  before  after     before  first   last  "
	    "range\n");
	for (int c = 0; c < NCLASS; c++)
		printf("  b%d              %6" PRIu32 " %6" PRIu32 "     %6"
		    PRIu32 " %6" PRIu32 " %6" PRIu32 "  %" PRIu32 "-%" PRIu32
		    "\n", c + 1, before[c], after[c], before[c], u->first[c],
		    u->last[c], u->lo[c], u->hi[c]);
}

static void
print_demand(const char *what, const double *mean, const double *sd,
    const char *end)
{
	printf("%s", what);
	for (int c = 0; c < NCLASS; c++)
		printf(" %.1f %.1f%s", mean[c], sd[c], c + 1 < NCLASS ? "," :
		    end);
}

static void
experiment(const struct study *st, const struct experiment *ex,
    const struct flex_req *rq, size_t n, int64_t slots, struct outcome *o)
{
	struct result res[NSCEN];
	struct work w;
	int64_t reach = st->shape->ahead_max + st->shape->relax_max +
	    st->shape->exec_max;
	char buf[64];
	size_t shown, held = 0;

	memset(&w, 0, sizeof(w));
	w.st = st;
	w.ex = ex;
	w.rq = rq;
	w.n = n;
	w.slots = slots;
	w.from = UPDATE_FIRST + reach;
	w.nwin = (size_t)((slots - w.from) / WINDOW);
	w.granted = malloc(n);
	w.reason = calloc(n, sizeof(*w.reason));
	if (w.granted == NULL || w.reason == NULL)
		flex_die("experiment", ENOMEM);
	for (w.sc = 0; w.sc < NSCEN; w.sc++)
		run(&w, &res[w.sc]);

	memset(o, 0, sizeof(*o));
	o->ex = ex;
	o->span = (double)w.nwin * WINDOW * st->nodes;
	demand(&w, reach, slots, o->counted, o->sd);
	for (int c = 0; c < NCLASS; c++) {
		o->first[c] = res[UPDATED].first[c];
		o->last[c] = res[UPDATED].last[c];
		o->lo[c] = res[UPDATED].lo[c];
		o->hi[c] = res[UPDATED].hi[c];
		o->forecast[c] = res[UPDATED].mean[1][c];
		o->fsd[c] = res[UPDATED].sd[1][c];
	}
	for (int sc = 0; sc < NSCEN; sc++) {
		o->total[sc] = res[sc].total;
		o->idle[sc] = res[sc].idle;
		for (int c = 0; c < NCLASS; c++) {
			o->sold[sc][c] = res[sc].sold[c];
			o->by_limit[sc] += res[sc].by_limit[c];
		}
	}

	printf("Experiment %u: rate %g, initial limits %" PRIu32 "/%" PRIu32
	    "/%" PRIu32 " (%s case), %zu requests\n", ex->no, ex->rate,
	    st->nodes, ex->b2, ex->b3, ex->dilution ? "dilution" : "spoilage",
	    n);
	print_limits(st, ex, &res[UPDATED]);
	printf("  demand, nodes per slot, mean and sd of class 1, 2, 3:\n");
	snprintf(buf, sizeof(buf), "    counted over slots %" PRId64 "-%"
	    PRId64, reach, slots - 1);
	printf("%-35s", buf);
	print_demand("", o->counted, o->sd, "\n");
	print_demand("    ar_forecast at the first update",
	    res[UPDATED].mean[0], res[UPDATED].sd[0], "\n");
	print_demand("    ar_forecast at the last update ",
	    res[UPDATED].mean[1], res[UPDATED].sd[1], "\n\n");
	shown = st->windows ? (w.nwin < 24 ? w.nwin : 24) : 0;
	if (shown > 0)
		printf("  revenue per window, Rs      %8s %8s %8s  b2/b3 "
		    "updated\n", scenario[NONE], scenario[FIXED],
		    scenario[UPDATED]);
	for (size_t v = 0; v < shown; v++) {
		int64_t at = w.from + (int64_t)v * WINDOW;

		printf("  %4zu  slots %4" PRId64 "-%-4" PRId64 "      %8" PRId64
		    " %8" PRId64 " %8" PRId64 "  %2" PRIu32 "/%" PRIu32 "\n",
		    v + 1, at, at + WINDOW - 1, res[NONE].rev[v],
		    res[FIXED].rev[v], res[UPDATED].rev[v],
		    res[UPDATED].lim[at][1], res[UPDATED].lim[at][2]);
	}
	for (size_t v = 0; v < w.nwin; v++)
		held += res[UPDATED].rev[v] >= res[FIXED].rev[v] &&
		    res[FIXED].rev[v] >= res[NONE].rev[v];
	if (shown > 0 && shown < w.nwin)
		printf("  ... (the first %zu of the %zu windows)\n", shown,
		    w.nwin);
	printf("  over %zu windows, slots %" PRId64 "-%" PRId64 ":\n", w.nwin,
	    w.from, w.from + (int64_t)w.nwin * WINDOW - 1);
	printf("  %-9s %27s %30s %23s\n", "", "revenue, Rs",
	    "node-slots sold, idle", "refused, % asked");
	printf("  %-9s %9s %6s %13s %7s %6s %6s %5s %6s  %s\n", "", "total",
	    "mean", "window range", "class 1", "2", "3", "idle", "",
	    "limit/full: 1, 2, 3");
	for (int sc = 0; sc < NSCEN; sc++) {
		const struct result *r = &res[sc];
		int64_t lo = r->rev[0], hi = r->rev[0];

		for (size_t v = 1; v < w.nwin; v++) {
			lo = r->rev[v] < lo ? r->rev[v] : lo;
			hi = r->rev[v] > hi ? r->rev[v] : hi;
		}
		printf("  %-9s %9" PRId64 " %6.0f %6" PRId64 "-%-6" PRId64
		    " %7" PRIu64 " %6" PRIu64 " %6" PRIu64 " %5" PRIu64
		    " %4.1f%%  ", scenario[sc], r->total, (double)r->total /
		    (double)w.nwin, lo, hi, r->sold[0], r->sold[1], r->sold[2],
		    r->idle, pct((double)r->idle, o->span));
		for (int c = 0; c < NCLASS; c++)
			printf("%s%.0f/%.0f", c ? ", " : " ",
			    pct((double)r->by_limit[c], (double)r->asked[c]),
			    pct((double)r->by_full[c], (double)r->asked[c]));
		printf("\n");
	}
	printf("  ar:     %-26s (updated >= fixed >= none in %zu of %zu "
	    "windows)\n", order(buf, sizeof(buf), o->total), held, w.nwin);
	printf("  thesis: %s (Figure %s)\n\n", ex->none_above_fixed ?
	    "fixed < none < updated" : "none < fixed < updated", ex->figure);
	for (int sc = 0; sc < NSCEN; sc++) {
		free(res[sc].rev);
		free(res[sc].lim);
	}
	free(w.granted);
	free(w.reason);
	fflush(stdout);
}

/* Why scenario b earned less or more than a, in node-slots. */
static void
why(const struct outcome *o, int a, int b)
{
	printf("    %s earns %.1f%% %s than %s: its limits refuse %" PRIu64
	    " node-slots;\n    those sold change by", scenario[b],
	    pct(fabs((double)(o->total[a] - o->total[b])),
	    (double)o->total[a]), o->total[b] < o->total[a] ? "less" : "more",
	    scenario[a], o->by_limit[b]);
	for (int c = 0; c < NCLASS; c++)
		printf(" %+" PRId64 "%s", (int64_t)o->sold[b][c] -
		    (int64_t)o->sold[a][c], c + 1 < NCLASS ? "," : "");
	printf(" in classes 1, 2, 3, idle from %.1f%% to %.1f%%\n",
	    pct((double)o->idle[a], o->span), pct((double)o->idle[b],
	    o->span));
}

static void
closing(const struct study *st, const struct outcome *o, size_t n)
{
	printf("%s: what holds\n", st->title);
	for (size_t e = 0; e < n; e++) {
		const struct outcome *x = &o[e];
		const struct experiment *ex = x->ex;
		uint32_t protect = st->nodes - ex->b2;
		int none_fixed = x->total[NONE] > x->total[FIXED];

		printf("  experiment %u, %s: updated >= fixed >= none %s; "
		    "idle %.1f%% fixed, %.1f%% updated\n", ex->no,
		    ex->dilution ? "dilution" : "spoilage",
		    x->total[UPDATED] >= x->total[FIXED] && !none_fixed ?
		    "holds" : "does not hold", pct((double)x->idle[FIXED],
		    x->span), pct((double)x->idle[UPDATED], x->span));
		if (none_fixed || ex->none_above_fixed) {
			if (none_fixed != ex->none_above_fixed)
				printf("    the thesis has %s above %s here "
				    "(Figure %s); in ar\n", none_fixed ?
				    "fixed" : "none", none_fixed ? "none" :
				    "fixed", ex->figure);
			why(x, NONE, FIXED);
			if (!ex->dilution && x->counted[0] < protect)
				printf("    (the initial limits keep %" PRIu32
				    " nodes for class 1, which asks %.1f per "
				    "slot: spoilage)\n", protect,
				    x->counted[0]);
		}
		if (ex->dilution && fabs((double)(x->total[FIXED] -
		    x->total[NONE])) < 0.01 * (double)x->total[NONE])
			printf("    fixed and none are within 1%%: limits %"
			    PRIu32 "/%" PRIu32 " bind only where the cluster "
			    "is nearly full\n", ex->b2, ex->b3);
		if (x->total[UPDATED] < x->total[FIXED])
			why(x, FIXED, UPDATED);
		if (x->total[UPDATED] < x->total[NONE])
			why(x, NONE, UPDATED);
		if (!ex->dilution && x->idle[UPDATED] >= x->idle[FIXED])
			printf("    the initial limits keep %" PRIu32 " nodes "
			    "for class 1, which asks %.1f per slot: they spoil "
			    "%s.\n    EMSR-b, forecasting %.1f for class 1 and "
			    "%.1f for classes 1 and 2 together, sets b2 %"
			    PRIu32 "-%" PRIu32 ", b3 %" PRIu32 "-%" PRIu32
			    "\n    (Table %s: %" PRIu32 ", %" PRIu32 ")%s, and "
			    "updated earns %+.1f%% on fixed\n", protect,
			    x->counted[0], x->counted[0] >= protect ?
			    "next to nothing" : "some", x->forecast[0],
			    x->forecast[0] + x->forecast[1], x->lo[1], x->hi[1],
			    x->lo[2], x->hi[2], ex->table, ex->after_b2,
			    ex->after_b3, x->hi[1] <= st->nodes / 10 ?
			    ": class 1 is sold nearly alone" : "",
			    pct((double)(x->total[UPDATED] - x->total[FIXED]),
			    (double)x->total[FIXED]));
	}
}

/* A study's experiments taken together, for the last lines. */
struct tally {
	double dist;            /* first update's b2, b3 from the thesis's */
	double fmean, fsd;      /* ar_forecast over the demand counted */
	double load_lo, load_hi;        /* demand over the capacity */
	int order[2], n[2];     /* [dilution]: updated >= fixed >= none */
	int reduced;            /* spoilage cases where updating cut idle */
	int unspoiled;          /* ... where class 1 asks more than the
	                         * initial limits keep for it */
};

static void
tally(const struct study *st, const struct outcome *o, size_t n,
    struct tally *t)
{
	memset(t, 0, sizeof(*t));
	for (size_t e = 0; e < n; e++) {
		const struct outcome *x = &o[e];
		int d = x->ex->dilution;
		double load = 0;

		for (int c = 0; c < NCLASS; c++) {
			t->fmean += x->forecast[c] / x->counted[c];
			t->fsd += x->fsd[c] / x->sd[c];
			load += x->counted[c] / st->nodes;
		}
		t->load_lo = e == 0 || load < t->load_lo ? load : t->load_lo;
		t->load_hi = load > t->load_hi ? load : t->load_hi;
		t->dist += fabs((double)x->first[1] - x->ex->after_b2) +
		    fabs((double)x->first[2] - x->ex->after_b3);
		t->n[d]++;
		t->order[d] += x->total[UPDATED] >= x->total[FIXED] &&
		    x->total[FIXED] >= x->total[NONE];
		if (!d) {
			t->reduced += x->idle[UPDATED] < x->idle[FIXED];
			t->unspoiled += x->counted[0] >= st->nodes - x->ex->b2;
		}
	}
	t->dist /= 2.0 * (double)n;
	t->fmean /= (double)(n * NCLASS);
	t->fsd /= (double)(n * NCLASS);
}

static void
conclude(const struct outcome (*o)[4])
{
	struct tally t[NSTUDY];
	double lo = 1, hi = 0;

	printf("\nIn short (per study: dilution cases where updated >= fixed "
	    ">= none; spoilage cases where updating\nreduces idle "
	    "node-slots; demand over the capacity; the first update's b2, b3 "
	    "from the thesis's, mean\nnodes; ar_forecast at the last update "
	    "over the demand counted, means and sds):\n");
	for (size_t i = 0; i < NSTUDY; i++) {
		tally(&studies[i], o[i], 4, &t[i]);
		printf("  %-52s %d of %d  %d of %d  %.1f-%.1fx  %4.1f  %3.0f%% "
		    "%.1fx\n", studies[i].title, t[i].order[1], t[i].n[1],
		    t[i].reduced, t[i].n[0], t[i].load_lo, t[i].load_hi,
		    t[i].dist, 100 * t[i].fmean, t[i].fsd);
		lo = t[i].fmean < lo ? t[i].fmean : lo;
		hi = t[i].fmean > hi ? t[i].fmean : hi;
	}
	for (size_t i = 0; i < NSTUDY; i++)
		for (size_t e = 0; e < 4; e++) {
			const struct outcome *x = &o[i][e];

			if (x->ex->dilution || x->total[FIXED] >=
			    x->total[NONE])
				continue;
			printf("%s, experiment %u: the \"spoilage\" limits "
			    "keep %" PRIu32 " nodes for class 1, which asks "
			    "%.1f:\n%.0f%% of the node-slots stay idle and "
			    "fixed earns less than none (Figure %s has it "
			    "above);\nupdating cuts the idle to %.0f%% and "
			    "earns %s.\n", studies[i].name, x->ex->no,
			    studies[i].nodes - x->ex->b2, x->counted[0],
			    pct((double)x->idle[FIXED], x->span),
			    x->ex->figure,
			    pct((double)x->idle[UPDATED], x->span),
			    x->total[UPDATED] >= x->total[NONE] ? "the most" :
			    "less than none");
		}
	/* Sections 6.6 (studies[0]) and its one-job reading (studies[2]). */
	if (t[0].unspoiled > 0 && t[0].reduced < t[0].n[0])
		printf("Section 6.6 with U[1,5] jobs per request (section "
		    "6.4's shape; 6.6 does not say) asks %.1f-%.1f times\nthe "
		    "capacity and class 1 alone more than the nodes the "
		    "\"spoilage\" limits keep for it: they spoil\nnothing, "
		    "so EMSR-b closes classes 2 and 3 where Tables 6.5 and 6.7 "
		    "open class 2, and updating\nearns more while a few more "
		    "nodes stay idle (only class 1's requests, booked at "
		    "most 12\nslots ahead, are left to fill the gaps).\n",
		    t[0].load_lo, t[0].load_hi);
	if (t[2].dist < t[0].dist)
		printf("With one job of one node per request the limits come "
		    "out nearer the thesis's (%.1f nodes off, not\n%.1f) "
		    "and updating reduces spoilage in %d of %d spoilage cases: "
		    "that reading fits Tables 6.5-6.8.\n", t[2].dist,
		    t[0].dist, t[2].reduced, t[2].n[0]);
	if (hi < 0.95)
		printf("ar_forecast's means are %.0f-%.0f%% of the demand "
		    "counted and its sds larger: it averages over every\nslot "
		    "the log's requests asked for, and the slots at both ends "
		    "of that span hold only part of\ntheir demand (requests "
		    "for the first ones came before the history, for the last "
		    "ones have not\nall come yet).  So EMSR-b protects less "
		    "for class 1 than the demand calls for.\n", 100 * lo,
		    100 * hi);
}

static void
study(const struct study *st, int64_t slots, uint64_t seed,
    struct outcome *o)
{
	const struct flex_shape *sh = st->shape;
	struct flex_req *rq = NULL;
	struct flex_gen g;
	size_t n, cap = 0;

	printf("%s\n%" PRIu32 " nodes; %s requests: %s;\n%d%% of them "
	    "flexible; seed %" PRIu64 "\n\n", st->title, st->nodes, sh->name,
	    flex_describe((char[FLEX_DESCRIBE_MAX]){ 0 }, sh), FLEXIBLE, seed);
	for (size_t e = 0; e < 4; e++) {
		flex_init(&g, sh, st->exp[e].rate, FLEXIBLE, slots, seed, T0);
		if ((n = flex_generate(&g, &rq, &cap)) == 0) {
			fprintf(stderr, "rmbench: no requests\n");
			exit(2);
		}
		experiment(st, &st->exp[e], rq, n, slots, &o[e]);
	}
	free(rq);
}

int
main(int argc, char **argv)
{
	struct outcome o[NSTUDY][4];
	uint64_t slots = 2016, seed = 1, least;

	/* At least one window after the first update's reach. */
	least = 0;
	for (size_t i = 0; i < NSTUDY; i++) {
		const struct flex_shape *sh = studies[i].shape;
		uint64_t reach = (uint64_t)(sh->ahead_max + sh->relax_max +
		    sh->exec_max);

		least = reach > least ? reach : least;
	}
	least += UPDATE_FIRST + WINDOW;
	if (flex_options(argc, argv, "rmbench", least, 100000, &slots,
	    &seed) != 0)
		return 2;
	store = flex_scratch("rmbench");
	printf("rmbench: FCFS-EDS, 5-minute slots, %" PRIu64 " slots of "
	    "arrivals;\nEMSR-b updates every %d slots from slot %d, each "
	    "from the demand log of the last %d slots;\nclasses by "
	    "book-ahead (Table 6.3):\n", slots, UPDATE_EVERY, UPDATE_FIRST,
	    HISTORY);
	for (int c = 0; c < NCLASS; c++) {
		printf("  class %d %-8s %3" PRId64 " Rs per node-slot, "
		    "book-ahead %" PRId64, c + 1, classes[c].name,
		    classes[c].price, classes[c].ahead_min);
		if (classes[c].ahead_max == -1)
			printf(" slots or more\n");
		else
			printf("-%" PRId64 " slots\n",
			    classes[c].ahead_max - 1);
	}
	printf("Revenue: the final plan's node-slots at their class's price, "
	    "in 12-slot windows from the first\nslot whose reservations were "
	    "all admitted after the first update.  Table 6.4's experiments "
	    "2 and 4\nhave b2 = 30, b3 = 35, not nested; this takes b2 = 35, "
	    "b3 = 30 of Tables 6.6 and 6.8.\n\n");
	for (size_t i = 0; i < NSTUDY; i++)
		study(&studies[i], (int64_t)slots, seed, o[i]);

	for (size_t i = 0; i < NSTUDY; i++)
		closing(&studies[i], o[i], 4);
	conclude(o);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("rmbench: standard output");
		return 1;
	}
	return 0;
}
