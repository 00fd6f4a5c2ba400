/*
 * flexbench - the experiments of Umar's thesis, Tables 6.1 (parametric
 * jobs) and 6.2 (MPI jobs), replayed through the library in-process.
 *
 * Each experiment (an arrival rate and a share of flexible requests) is
 * one workload from the generator of argen.c, replayed once per method on
 * a fresh store of 30 nodes: the simulated clock moves slot by slot, and
 * the requests arriving in a slot are admitted in one write transaction
 * at that slot's time.  Measured: the share of requests granted (all
 * copies of a parametric request or none), the utilization of the final
 * plan averaged over every position of a 12-slot sliding window (thesis
 * section 6.4), and the time of each ar_add call.  Every store's
 * invariants are checked after its run; a violation fails the benchmark.
 *
 *   flexbench [--slots N] [--seed N]
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ar.h"
#include "flex.h"

#define NODES 30
#define HORIZON 86400           /* seconds: book-ahead is at most 4 hours */
#define WINDOW 12               /* slots of the utilization window */
#define T0 ((int64_t)1795219200)         /* 2026-11-21T00:00:00Z */

/* A way of admitting requests.  Adding one is adding a row. */
struct method {
	const char *name;
	const char *tag;        /* short name, for "ar best" */
	int rigid;              /* every request at its earliest start */
	unsigned flags;         /* struct ar_request's */
	int best;               /* one of those "ar best" chooses from */
};

enum { FIXED, FIRST_FIT, EDS, LRH };    /* the rows the summary compares */

static const struct method methods[] = {
	{ "fixed", "fixed", 1, AR_NOMOVE, 0 },
	{ "first fit", "ff", 0, AR_NOMOVE, 0 },
	{ "FCFS-EDS", "EDS", 0, AR_LATER, 1 },
	{ "FCFS-LRH", "LRH", 0, 0, 1 },
};

#define NMETHODS (sizeof(methods) / sizeof(methods[0]))

/* Whether a method may move earlier reservations. */
static int
rearranges(const struct method *m)
{
	return !m->rigid && !(m->flags & AR_NOMOVE);
}

/* What one run of one method measured. */
struct result {
	size_t accepted;
	size_t moves;
	uint64_t work;          /* node-slots granted */
	double util;            /* percent */
	double p50, p99;        /* microseconds */
};

/* The experiments of Tables 6.1 and 6.2: rate and percent flexible. */
static const struct {
	double rate;
	unsigned flexible;
} experiments[] = {
	{ 2, 25 }, { 2, 50 }, { 2, 75 }, { 2, 100 },
	{ 3, 25 }, { 3, 50 }, { 3, 75 }, { 3, 100 },
};

#define NEXP (sizeof(experiments) / sizeof(experiments[0]))

/* The scratch store: one at a time, removed after its run. */
static const char *store;

/* The requests of one slot, admitted in one transaction. */
struct slot {
	const struct method *m;
	const struct flex_req *rq;
	size_t n;
	uint64_t *ns;           /* per request: time of ar_add */
	int *granted;           /* per request */
	size_t *moves;          /* per request */
};

static int64_t
elapsed(const struct timespec *a, const struct timespec *b)
{
	return (int64_t)(b->tv_sec - a->tv_sec) * 1000000000 +
	    (b->tv_nsec - a->tv_nsec);
}

/* Admit the slot's requests; run again from the start if the map grew. */
static int
admit(ar_txn *t, void *arg)
{
	struct slot *sl = arg;
	struct ar_request rq;
	struct ar_answer ans;
	struct timespec a, b;
	const struct ar_placed *g, *mv;
	size_t ng, nm;
	char user[32], job[32];
	int rc;

	for (size_t i = 0; i < sl->n; i++) {
		const struct flex_req *f = &sl->rq[i];

		snprintf(user, sizeof(user), "u%" PRIu64, f->k);
		snprintf(job, sizeof(job), "%" PRIu64, f->k);
		rq = (struct ar_request){ .earliest = f->earliest,
		    .latest = sl->m->rigid ? f->earliest : f->latest,
		    .duration = f->duration, .nodes = f->nodes,
		    .jobs = f->jobs, .owner = 1000, .user = user, .job = job,
		    .flags = sl->m->flags };
		if (clock_gettime(CLOCK_MONOTONIC, &a) != 0)
			return errno;
		rc = ar_add(t, &rq, &ans);
		if (clock_gettime(CLOCK_MONOTONIC, &b) != 0)
			return errno;
		if (rc != 0)
			return rc;
		sl->ns[i] = (uint64_t)elapsed(&a, &b);
		ar_added(t, &g, &ng, &mv, &nm);
		sl->granted[i] = ans.status == AR_GRANTED;
		sl->moves[i] = nm;
		if (ans.status == AR_GRANTED && ng != f->jobs) {
			fprintf(stderr, "flexbench: %s: request %" PRIu64
			    " granted with %zu of %" PRIu32 " copies\n",
			    sl->m->name, f->k, ng, f->jobs);
			exit(1);
		}
		if (ans.status != AR_GRANTED && (ans.status != AR_REFUSED ||
		    ans.reason != AR_R_FULL)) {
			fprintf(stderr, "flexbench: %s: request %" PRIu64
			    ": status %s, reason %s\n", sl->m->name, f->k,
			    ar_status_name(ans.status),
			    ar_reason_name(ans.reason));
			exit(1);
		}
		for (size_t j = 0; j < nm; j++) {
			if ((sl->m->flags & AR_NOMOVE) ||
			    ((sl->m->flags & AR_LATER) &&
			    mv[j].start < mv[j].from)) {
				fprintf(stderr, "flexbench: %s: request %"
				    PRIu64 " moved reservation %" PRIu64
				    " from %+" PRId64 "s to %+" PRId64 "s\n",
				    sl->m->name, f->k, mv[j].id,
				    mv[j].from - f->arrival,
				    mv[j].start - f->arrival);
				exit(1);
			}
		}
	}
	return 0;
}

/* The plan: nodes in use per slot from slot 0 of the run. */
struct plan {
	uint32_t *use;
	int64_t nslots;
	int64_t start;
	uint64_t work;
	int bad;
};

static int
add_to_plan(const struct ar_resv *r, void *arg)
{
	struct plan *p = arg;
	int64_t from = (r->start - p->start) / FLEX_SLOT;
	int64_t to = (r->end - p->start) / FLEX_SLOT;

	if (r->state != AR_GRANTED && r->state != AR_FINISHED)
		return 0;
	if (from < 0 || to > p->nslots) {
		p->bad = 1;
		return 0;
	}
	for (int64_t s = from; s < to; s++)
		p->use[s] += r->nodes * r->jobs;
	p->work += (uint64_t)(to - from) * r->nodes * r->jobs;
	return 0;
}

static void
violation(const char *msg, void *arg)
{
	fprintf(stderr, "flexbench: %s: invariant: %s\n",
	    ((const struct method *)arg)->name, msg);
}

static int
by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The nearest-rank percentile q of n sorted samples, in microseconds. */
static double
percentile(const uint64_t *v, size_t n, double q)
{
	size_t i = (size_t)(q * (double)n + 0.999999);

	if (n == 0)
		return 0;
	return (double)v[i == 0 ? 0 : i - 1] / 1000.0;
}

/*
 * Replay requests rq[0 .. n) (arrivals in slots [0, slots)) with method
 * m on a fresh store; utilization counts window positions from slot warm
 * on, the last one ending at slot slots.
 */
static void
run(const struct method *m, const struct flex_req *rq, size_t n,
    int64_t slots, int64_t warm, struct result *res)
{
	struct ar_config cfg;
	struct plan p;
	struct slot sl;
	uint64_t *ns, bad;
	ar_store *s;
	ar_txn *t;
	size_t i, j;
	double sum = 0;
	int64_t w;
	int *granted, rc;
	size_t *moves;

	ar_config_default(&cfg);
	cfg.flags = AR_SIMULATED;
	cfg.nodes = NODES;
	cfg.slot = FLEX_SLOT;
	cfg.horizon = HORIZON;
	if ((rc = ar_create(store, &cfg, T0)) != 0)
		flex_die("create", rc);
	if ((rc = ar_open(store, 0, &s)) != 0)
		flex_die("open", rc);
	ns = calloc(n + 1, sizeof(*ns));
	granted = calloc(n + 1, sizeof(*granted));
	moves = calloc(n + 1, sizeof(*moves));
	p.nslots = slots + HORIZON / FLEX_SLOT;
	p.use = calloc((size_t)p.nslots, sizeof(*p.use));
	if (ns == NULL || granted == NULL || moves == NULL || p.use == NULL)
		flex_die("replay", ENOMEM);
	p.start = T0;
	p.work = 0;
	p.bad = 0;
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && rq[j].arrival == rq[i].arrival; j++)
			;
		sl = (struct slot){ m, rq + i, j - i, ns + i, granted + i,
		    moves + i };
		if ((rc = ar_write(s, 0, rq[i].arrival, admit, &sl)) != 0)
			flex_die(m->name, rc);
	}

	if ((rc = ar_txn_begin(s, 0, rq[n - 1].arrival, &t)) != 0)
		flex_die("read", rc);
	if ((rc = ar_check(t, violation, (void *)m, &bad)) != 0)
		flex_die("check", rc);
	if (bad != 0) {
		fprintf(stderr, "flexbench: %s: %" PRIu64 " invariant "
		    "violations\n", m->name, bad);
		exit(1);
	}
	if ((rc = ar_list(t, 0, add_to_plan, &p)) != 0)
		flex_die("list", rc);
	ar_txn_abort(t);
	ar_close(s);
	flex_scratch_remove();
	if (p.bad) {
		fprintf(stderr, "flexbench: %s: a reservation outside the "
		    "simulated span\n", m->name);
		exit(1);
	}
	for (w = 0; w < p.nslots; w++) {
		if (p.use[w] > NODES) {
			fprintf(stderr, "flexbench: %s: %" PRIu32 " nodes in "
			    "use in slot %" PRId64 "\n", m->name, p.use[w], w);
			exit(1);
		}
	}

	memset(res, 0, sizeof(*res));
	res->work = p.work;
	for (i = 0; i < n; i++) {
		res->accepted += granted[i] != 0;
		res->moves += moves[i];
	}
	for (w = warm; w + WINDOW <= slots; w++) {
		uint64_t in = 0;

		for (int64_t k = w; k < w + WINDOW; k++)
			in += p.use[k];
		sum += (double)in / (NODES * WINDOW);
	}
	res->util = 100.0 * sum / (double)(slots - WINDOW - warm + 1);
	qsort(ns, n, sizeof(*ns), by_value);
	res->p50 = percentile(ns, n, 0.50);
	res->p99 = percentile(ns, n, 0.99);
	free(ns);
	free(granted);
	free(moves);
	free(p.use);
}

/* The method "ar best" stands for: the most accepted, then the highest
 * utilization, then the first in the table. */
static size_t
best(const struct result *r)
{
	size_t b = NMETHODS;

	for (size_t i = 0; i < NMETHODS; i++) {
		if (!methods[i].best)
			continue;
		if (b == NMETHODS || r[i].accepted > r[b].accepted ||
		    (r[i].accepted == r[b].accepted && r[i].util > r[b].util))
			b = i;
	}
	return b;
}

static void
cell(const struct result *r, size_t n)
{
	printf(" | %5.1f %5.1f %5.*f %5.0f", 100.0 * (double)r->accepted /
	    (double)n, r->util, r->p50 < 100 ? 1 : 0, r->p50, r->p99);
}

static void
table(const char *title, const struct flex_shape *sh, int64_t slots,
    uint64_t seed)
{
	struct result r[NEXP][NMETHODS];
	struct flex_req *rq = NULL;
	struct flex_gen g;
	size_t n[NEXP], cap = 0, i, k, b;
	int64_t warm = sh->ahead_max + sh->relax_max + sh->exec_max;
	double d[4] = { 0 }, lrh_acc = 0, lrh_util = 0;
	size_t lrh_more = 0, lrh_fewer = 0, below_ff = 0, under;
	size_t moved[2] = { 0 }, granted[2] = { 0 }, acc[NMETHODS] = { 0 };
	uint64_t work[NMETHODS] = { 0 };

	printf("%s: %s requests: %s\n", title, sh->name,
	    flex_describe((char[FLEX_DESCRIBE_MAX]){ 0 }, sh));
	printf("utilization over the windows in slots %" PRId64 "-%" PRId64
	    " (warm-up before, tail after); seed %" PRIu64 ", the same "
	    "requests\nfor every flexible share of a rate\n\n", warm, slots,
	    seed);
	printf("%-9s %5s", "", "");
	for (i = 0; i <= NMETHODS; i++)
		printf(" | %-23s", i < NMETHODS ? methods[i].name : "ar best");
	printf("\n%-9s %5s", "rate flex", "reqs");
	for (i = 0; i <= NMETHODS; i++)
		printf(" | %5s %5s %5s %5s", "acc%", "util%", "p50", "p99");
	printf("\n");

	for (k = 0; k < NEXP; k++) {
		flex_init(&g, sh, experiments[k].rate, experiments[k].flexible,
		    slots, seed, T0);
		n[k] = flex_generate(&g, &rq, &cap);
		if (n[k] == 0) {
			fprintf(stderr, "flexbench: no requests\n");
			exit(2);
		}
		for (i = 0; i < NMETHODS; i++)
			run(&methods[i], rq, n[k], slots, warm, &r[k][i]);
		printf("%4g %3u%% %5zu", experiments[k].rate,
		    experiments[k].flexible, n[k]);
		for (i = 0; i < NMETHODS; i++)
			cell(&r[k][i], n[k]);
		b = best(r[k]);
		cell(&r[k][b], n[k]);
		printf(" %s\n", methods[b].tag);
		fflush(stdout);

		d[0] += r[k][EDS].util - r[k][FIRST_FIT].util;
		d[1] += 100.0 * ((double)r[k][EDS].accepted -
		    (double)r[k][FIRST_FIT].accepted) / (double)n[k];
		d[2] += r[k][EDS].util - r[k][FIXED].util;
		d[3] += 100.0 * ((double)r[k][EDS].accepted -
		    (double)r[k][FIXED].accepted) / (double)n[k];
		lrh_util += r[k][LRH].util - r[k][EDS].util;
		lrh_acc += 100.0 * ((double)r[k][LRH].accepted -
		    (double)r[k][EDS].accepted) / (double)n[k];
		for (i = 0; i < NMETHODS; i++) {
			acc[i] += r[k][i].accepted;
			work[i] += r[k][i].work;
		}
		moved[0] += r[k][EDS].moves;
		moved[1] += r[k][LRH].moves;
		granted[0] += r[k][EDS].accepted;
		granted[1] += r[k][LRH].accepted;
		lrh_more += r[k][LRH].accepted > r[k][EDS].accepted;
		lrh_fewer += r[k][LRH].accepted < r[k][EDS].accepted;
		under = 0;
		for (i = 0; i < NMETHODS; i++) {
			if (!rearranges(&methods[i]) ||
			    r[k][i].accepted >= r[k][FIRST_FIT].accepted)
				continue;
			printf("  note: %s accepts %zu, fewer than first fit's "
			    "%zu\n", methods[i].name, r[k][i].accepted,
			    r[k][FIRST_FIT].accepted);
			under = 1;
		}
		below_ff += under;
	}
	printf("\nacc%%: requests granted; util%%: mean over the 12-slot "
	    "windows; p50, p99: microseconds per ar_add\n");
	printf("FCFS-EDS vs first fit: %+.1f pp utilization, %+.1f pp "
	    "acceptance; vs fixed: %+.1f pp utilization, %+.1f pp acceptance "
	    "(means over %zu experiments)\n", d[0] / NEXP, d[1] / NEXP,
	    d[2] / NEXP, d[3] / NEXP, NEXP);
	printf("FCFS-LRH vs FCFS-EDS: %+.1f pp utilization, %+.1f pp "
	    "acceptance; LRH %s EDS (accepts more in %zu, fewer in %zu of %zu "
	    "experiments)\n", lrh_util / NEXP, lrh_acc / NEXP,
	    lrh_acc > 0 ? "beats" : lrh_acc < 0 ? "loses to" : "ties",
	    lrh_more, lrh_fewer, NEXP);
	printf("moves per granted request: EDS %.2f, LRH %.2f; a rearranging "
	    "method accepts fewer than\nfirst fit in %zu experiments\n",
	    (double)moved[0] / (double)(granted[0] ? granted[0] : 1),
	    (double)moved[1] / (double)(granted[1] ? granted[1] : 1),
	    below_ff);
	printf("node-slots per granted request:");
	for (i = 0; i < NMETHODS; i++)
		printf(" %s %.1f%s", methods[i].tag, (double)work[i] /
		    (double)(acc[i] ? acc[i] : 1), i + 1 < NMETHODS ? "," : "");
	printf("\n\n");
	free(rq);
}

int
main(int argc, char **argv)
{
	uint64_t slots = 2016, seed = 1, least = 0;

	/* Each table's warm-up and one window after it, checked before
	 * anything is printed. */
	for (size_t i = 0; i < 2; i++) {
		const struct flex_shape *sh = i ? &flex_mpi : &flex_parametric;
		uint64_t need = (uint64_t)(sh->ahead_max + sh->relax_max +
		    sh->exec_max + WINDOW);

		least = need > least ? need : least;
	}
	if (flex_options(argc, argv, "flexbench", least, 1000000, &slots,
	    &seed) != 0)
		return 2;
	store = flex_scratch("flexbench");
	printf("flexbench: %d nodes, %d-minute slots, %" PRIu64 " slots of "
	    "arrivals, horizon %d h, one transaction per slot\n\n", NODES,
	    FLEX_SLOT / 60, slots, HORIZON / 3600);
	table("Table 6.1", &flex_parametric, (int64_t)slots, seed);
	table("Table 6.2", &flex_mpi, (int64_t)slots, seed);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("flexbench: standard output");
		return 1;
	}
	return 0;
}
