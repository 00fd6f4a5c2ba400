/*
 * curve.c - what a search or a suggest costs as the reservation and the
 * horizon grow, on stores filled with a synthetic load, beside the floor.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ar.h"
#include "bench.h"

#define CLOCK 999993600         /* a whole hour: slot aligned */

/*
 * Random reservations, placed with the floor, until half the node-slots
 * of the horizon are in use.  Every slot keeps one node free, so a search
 * for one node always reads its whole interval.
 */
static int
make_load(struct garq *g, int64_t m, int64_t maxlen, uint64_t *seed,
    struct load *l)
{
	double used = 0, want = 0.5 * NODES * (double)m;
	size_t cap = 0;

	memset(l, 0, sizeof(*l));
	for (long tries = 0; used < want && tries < 10000000; tries++) {
		int64_t len = 1 + (int64_t)(bench_rand(seed) %
		    (1 + bench_rand(seed) % (uint64_t)maxlen));
		uint32_t nodes = 1 + (uint32_t)(bench_rand(seed) % 32);
		int64_t first = garq_base(g) +
		    (int64_t)(bench_rand(seed) % (uint64_t)(m - len + 1));

		if (garq_search(g, first, len, nodes + 1) != FIT)
			continue;
		if (l->n == cap) {
			cap = cap ? 2 * cap : 1024;
			if ((l->first = realloc(l->first, cap * 8)) == NULL ||
			    (l->len = realloc(l->len, cap * 8)) == NULL ||
			    (l->nodes = realloc(l->nodes, cap * 4)) == NULL) {
				fprintf(stderr, "bench: out of memory\n");
				return -1;
			}
		}
		garq_add(g, first, len, nodes);
		l->first[l->n] = first;
		l->len[l->n] = len;
		l->nodes[l->n++] = nodes;
		used += (double)len * nodes;
	}
	return 0;
}

void
load_free(struct load *l)
{
	free(l->first);
	free(l->len);
	free(l->nodes);
}

int
load_store(ar_txn *t, void *arg)
{
	const struct load *l = arg;
	struct ar_request rq;
	struct ar_answer ans;
	int rc;

	memset(&rq, 0, sizeof(rq));
	rq.jobs = 1;
	for (size_t i = 0; i < l->n; i++) {
		rq.earliest = rq.latest = l->first[i] * l->slot;
		rq.duration = l->len[i] * l->slot;
		rq.nodes = l->nodes[i];
		if ((rc = ar_add(t, &rq, &ans)) != 0)
			return rc;
		if (ans.status != AR_GRANTED || ans.start != rq.earliest) {
			fprintf(stderr, "bench: ar refused what the floor "
			    "granted: start=@%lld duration=%llds nodes=%u\n",
			    (long long)rq.earliest, (long long)rq.duration,
			    rq.nodes);
			return AR_ECORRUPT;
		}
	}
	return 0;
}

/* A store in dir and a floor ring with the same synthetic load. */
static int
fill(const char *dir, int64_t slot, int64_t m, int64_t maxlen,
    ar_store **sp, struct garq **gp, size_t *n, double *util)
{
	struct ar_config cfg;
	struct load l;
	uint64_t seed = 0x2545f4914f6cdd1dULL ^ (uint64_t)m;
	int rc;

	ar_config_default(&cfg);
	cfg.flags = AR_SIMULATED;
	cfg.slot = slot;
	cfg.horizon = slot * m;
	*sp = NULL;
	if ((*gp = garq_new(slot, m, CLOCK)) == NULL) {
		fprintf(stderr, "bench: out of memory\n");
		return -1;
	}
	if (make_load(*gp, m, maxlen, &seed, &l) != 0)
		goto fail;
	l.slot = slot;
	if ((rc = ar_create(dir, &cfg, CLOCK)) != 0 ||
	    (rc = ar_open(dir, 0, sp)) != 0 ||
	    (rc = ar_write(*sp, 0, CLOCK, load_store, &l)) != 0) {
		fprintf(stderr, "bench: %s: %s\n", dir, ar_strerror(rc));
		goto fail;
	}
	*n = l.n;
	*util = garq_used(*gp);
	load_free(&l);
	return 0;
fail:
	load_free(&l);
	ar_close(*sp);
	garq_free(*gp);
	return -1;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

struct probe {
	double ar, floor;       /* median ns */
	double hit;             /* share that fit (search) or found (suggest) */
};

/*
 * calls searches (or suggests, with the 12-hour limit) for len slots and
 * nodes nodes at random starts in ar and in the floor, which must agree.
 */
static int
probe(ar_store *s, const struct garq *g, int64_t slot, int64_t m,
    int64_t len, uint32_t nodes, int suggest, struct probe *p)
{
	size_t calls = quick ? 201 : 2001, hits = 0;
	uint64_t *ta, *tf, seed = 0x9e3779b97f4a7c15ULL + (uint64_t)len;
	int64_t span = suggest ? m - len - SUGGEST_LIMIT / slot : m - len;
	struct ar_request rq;
	struct ar_answer ans;
	ar_txn *t;
	int rc = 0;

	if (span < 0)
		span = 0;
	ta = malloc(calls * sizeof(*ta));
	tf = malloc(calls * sizeof(*tf));
	if (ta == NULL || tf == NULL ||
	    (rc = ar_txn_begin(s, 0, CLOCK, &t)) != 0) {
		fprintf(stderr, "bench: %s\n", rc ? ar_strerror(rc) :
		    "out of memory");
		free(ta);
		free(tf);
		return -1;
	}
	memset(&rq, 0, sizeof(rq));
	rq.jobs = 1;
	rq.nodes = nodes;
	rq.duration = len * slot;
	for (size_t i = 0; i < calls && rc == 0; i++) {
		int64_t first = garq_base(g) +
		    (int64_t)(bench_rand(&seed) % (uint64_t)(span + 1));
		int64_t fl, a;
		uint64_t t0 = now_ns(), t1;
		size_t n;

		if (suggest)
			fl = garq_suggest(g, first, len, nodes, SUGGEST_LIMIT);
		else
			fl = garq_search(g, first, len, nodes) == FIT ? first : -1;
		t1 = now_ns();
		tf[i] = t1 - t0;
		rq.earliest = rq.latest = first * slot;
		if (suggest)
			rc = ar_suggest(t, &rq, SUGGEST_LIMIT, &ans, 1, &n);
		else {
			rc = ar_search(t, &rq, &ans);
			n = ans.status == AR_AVAILABLE;
		}
		ta[i] = now_ns() - t1;
		if (rc != 0) {
			fprintf(stderr, "bench: ar: %s\n", ar_strerror(rc));
			break;
		}
		a = n == 1 ? ans.start / slot : -1;
		if (a != fl) {
			fprintf(stderr, "bench: MISMATCH: %s start=@%lld "
			    "duration=%llds nodes=%u: floor %lld, ar %lld\n",
			    suggest ? "suggest" : "search",
			    (long long)rq.earliest, (long long)rq.duration,
			    nodes, (long long)fl, (long long)a);
			rc = -1;
		}
		hits += fl >= 0;
	}
	ar_txn_abort(t);
	qsort(ta, calls, sizeof(*ta), cmp_u64);
	qsort(tf, calls, sizeof(*tf), cmp_u64);
	p->ar = (double)ta[calls / 2];
	p->floor = (double)tf[calls / 2];
	p->hit = 100.0 * (double)hits / (double)calls;
	free(ta);
	free(tf);
	return rc == 0 ? 0 : -1;
}

static void
cell(double ns, double floor)
{
	printf(ns < floor ? " %9.3f %8.3f %7.2fx" : " %9.3f %8.3f %7.1fx",
	    ns / 1e3, floor / 1e3, ns / floor);
}

int
cost_curve(void)
{
	static const struct { const char *name; int64_t secs; } lens[] = {
		{ "1 slot", 300 }, { "1 h", 3600 }, { "12 h", 43200 },
		{ "1 d", 86400 }, { "7 d", 7 * 86400 }, { "28 d", 28 * 86400 },
	};
	static const int days[] = { 1, 7, 30, 365 };
	struct garq *g;
	ar_store *s;
	size_t n;
	double util;
	char *dir;

	if ((dir = scratch_dir("curve")) == NULL ||
	    fill(dir, SLOT, HORIZON / SLOT, 2 * 86400 / SLOT, &s, &g, &n,
	    &util) != 0)
		return -1;
	printf("\n== Cost curve: 64 nodes, 5-minute slots, 30-day horizon, "
	    "synthetic load: %zu reservations,\n   %.1f %% of the node-slots "
	    "in use, one node free in every slot; median of %d calls at "
	    "random starts\n\n", n, 100 * util, quick ? 201 : 2001);
	printf("  %-8s | %-38s | %-38s\n", "", "ar_search, 1 node (fits: "
	    "reads it all)", "ar_suggest, 32 nodes, 12 h limit");
	printf("  %-8s | %9s %8s %8s %9s | %9s %8s %8s %9s\n", "length",
	    "ar us", "floor us", "ratio", "fits", "ar us", "floor us",
	    "ratio", "found");
	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		struct probe a, b;
		int64_t len = lens[i].secs / SLOT;

		if (probe(s, g, SLOT, HORIZON / SLOT, len, 1, 0, &a) != 0 ||
		    probe(s, g, SLOT, HORIZON / SLOT, len, 32, 1, &b) != 0) {
			ar_close(s);
			garq_free(g);
			return -1;
		}
		printf("  %-8s |", lens[i].name);
		cell(a.ar, a.floor);
		printf(" %7.0f %% |", a.hit);
		cell(b.ar, b.floor);
		printf(" %7.0f %%\n", b.hit);
	}
	ar_close(s);
	garq_free(g);

	printf("\n== Horizon: 64 nodes, 1-minute slots, synthetic load of "
	    "about 50 %% (one node free everywhere);\n   a 1-node search "
	    "covering half the horizon, and a 1-slot search; median of %d "
	    "calls\n\n", quick ? 201 : 2001);
	printf("  %-8s %8s %6s %5s | %-28s | %-28s\n", "horizon", "slots",
	    "resv", "load", "   search half the horizon", "   search 1 slot");
	printf("  %-8s %8s %6s %5s | %9s %8s %8s | %9s %8s %8s\n", "", "", "",
	    "", "ar us", "floor us", "ratio", "ar us", "floor us", "ratio");
	for (size_t i = 0; i < sizeof(days) / sizeof(days[0]); i++) {
		int64_t m = days[i] * 1440LL;
		struct probe a, b;
		char sub[32];

		snprintf(sub, sizeof(sub), "horizon-%dd", days[i]);
		if ((dir = scratch_dir(sub)) == NULL ||
		    fill(dir, 60, m, m / 10, &s, &g, &n, &util) != 0)
			return -1;
		if (probe(s, g, 60, m, m / 2, 1, 0, &a) != 0 ||
		    probe(s, g, 60, m, 1, 1, 0, &b) != 0) {
			ar_close(s);
			garq_free(g);
			return -1;
		}
		printf("  %5d d  %8lld %6zu %4.0f%% |", days[i], (long long)m,
		    n, 100 * util);
		cell(a.ar, a.floor);
		printf(" |");
		cell(b.ar, b.floor);
		printf("\n");
		ar_close(s);
		garq_free(g);
	}
	return 0;
}
