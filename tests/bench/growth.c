/*
 * growth.c - how the calls of each structure grow with the plan's size
 * (the reservations it holds) and with the request's length (the slots
 * a call covers), against the paper's Table 1: plans of random short
 * reservations, every slot keeping one node free, and calls at random
 * starts; ar on a store holding the same plan.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ar.h"
#include "bench.h"

#define CLOCK 999993600         /* a whole hour: slot aligned */
#define M (HORIZON / SLOT)
#define CALLS ((size_t)(quick ? 101 : 401))

static const size_t sizes[] = { 1000, 4000, 16000, 48000 };
static const int64_t lens[] = { 1, 12, 144, 2016 };
static const char *const len_names[] = { "1 slot", "1 h", "12 h", "7 d" };
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))
#define NLENS (sizeof(lens) / sizeof(lens[0]))

enum { G_SEARCH, G_SUGGEST, G_ADD, G_DELETE, GOPS };
static const char *const gop[GOPS] = { "search", "suggest", "add",
    "delete" };
#define NSTRUCT 5               /* four structures and ar */

/* Median microseconds and mean cells per call. */
struct fig {
	double us, cells;
};

static struct fig figs[NSTRUCT][NSIZES][NLENS][GOPS];

/* ar's two questions on each plan: the longest job from a start, on 1
 * node (to the horizon: a node is free everywhere) and on 32; how far a
 * reservation of the plan can grow.  Median microseconds. */
enum { Q_LONGEST_1, Q_LONGEST_32, Q_EXTEND, NQ };
static double questions[NSIZES][NQ];

/* n random reservations of 1 to 8 slots and 1 or 2 nodes, placed where
 * a node stays free in every slot. */
static int
make_plan(size_t n, struct load *l)
{
	uint64_t seed = 0x2545f4914f6cdd1dULL ^ n;
	struct garq *g = garq_new(SLOT, M, CLOCK);
	int64_t base = CLOCK / SLOT;

	memset(l, 0, sizeof(*l));
	l->slot = SLOT;
	if (g == NULL || (l->first = malloc(n * sizeof(*l->first))) == NULL ||
	    (l->len = malloc(n * sizeof(*l->len))) == NULL ||
	    (l->nodes = malloc(n * sizeof(*l->nodes))) == NULL)
		goto out;
	for (long tries = 0; l->n < n && tries < 100000000; tries++) {
		int64_t len = 1 + (int64_t)(bench_rand(&seed) % 8);
		uint32_t nodes = 1 + (uint32_t)(bench_rand(&seed) % 2);
		int64_t first = base + (int64_t)(bench_rand(&seed) %
		    (uint64_t)(M - len + 1));

		if (garq_search(g, first, len, nodes + 1) != FIT)
			continue;
		garq_add(g, first, len, nodes);
		l->first[l->n] = first;
		l->len[l->n] = len;
		l->nodes[l->n++] = nodes;
	}
out:
	garq_free(g);
	return l->n == n ? 0 : -1;
}

static double
median_us(uint64_t *ns)
{
	struct samples s = { ns, CALLS, CALLS };

	return pctl(&s, 50);
}

/* A random start for len slots: where a suggest has its 12 h after it. */
static int64_t
random_start(uint64_t *seed, int64_t len)
{
	int64_t span = M - len - SUGGEST_LIMIT / SLOT;

	return CLOCK / SLOT + (int64_t)(bench_rand(seed) %
	    (uint64_t)(span > 0 ? span : 1));
}

/* One structure holding plan p: each call, each length. */
static int
measure_structure(const struct structure *ops, const struct load *p,
    struct fig f[NLENS][GOPS])
{
	static void *held[48000];
	uint64_t ns[GOPS][401], c[GOPS], seed = 0x9e3779b97f4a7c15ULL;
	void *s = ops->make(CLOCK), *h;
	size_t n = 0;

	if (s == NULL)
		return -1;
	for (; n < p->n; n++)
		if ((held[n] = ops->add(s, p->first[n], p->len[n],
		    p->nodes[n])) == NULL)
			goto fail;
	for (size_t l = 0; l < NLENS; l++) {
		int64_t len = lens[l];

		memset(c, 0, sizeof(c));
		for (size_t i = 0; i < CALLS; i++) {
			int64_t at = random_start(&seed, len);
			uint64_t c0 = cells, t0 = now_ns(), t1;

			if (!ops->fits(s, at, len, 1)) {
				fprintf(stderr, "garq: %s: one node does not "
				    "fit\n", ops->name);
				goto fail;
			}
			t1 = now_ns();
			ns[G_SEARCH][i] = t1 - t0;
			c[G_SEARCH] += cells - c0;
			c0 = cells;
			ops->first_fit(s, at, at + SUGGEST_LIMIT / SLOT, len, 32);
			t0 = now_ns();
			ns[G_SUGGEST][i] = t0 - t1;
			c[G_SUGGEST] += cells - c0;
			c0 = cells;
			h = ops->add(s, at, len, 1);
			t1 = now_ns();
			ns[G_ADD][i] = t1 - t0;
			c[G_ADD] += cells - c0;
			if (h == NULL)
				goto fail;
			c0 = cells;
			ops->del(s, h, at, at, at + len, 1);
			ns[G_DELETE][i] = now_ns() - t1;
			c[G_DELETE] += cells - c0;
		}
		for (int k = 0; k < GOPS; k++) {
			f[l][k].us = median_us(ns[k]);
			f[l][k].cells = (double)c[k] / (double)CALLS;
		}
	}
	for (size_t i = 0; i < n; i++)
		ops->del(s, held[i], p->first[i], p->first[i],
		    p->first[i] + p->len[i], p->nodes[i]);
	ops->destroy(s);
	return 0;
fail:
	while (n-- > 0)
		ops->del(s, held[n], p->first[n], p->first[n],
		    p->first[n] + p->len[n], p->nodes[n]);
	ops->destroy(s);
	return -1;
}

/* ar_longest and ar_furthest on store s, holding plan p, into q. */
static int
measure_questions(ar_store *s, const struct load *p, double q[NQ])
{
	uint64_t ns[NQ][401], seed = 0x2545f4914f6cdd1dULL;
	struct ar_request rq;
	struct ar_answer a;
	ar_txn *t;
	int rc;

	if ((rc = ar_txn_begin(s, 0, CLOCK, &t)) != 0)
		return rc;
	memset(&rq, 0, sizeof(rq));
	rq.jobs = 1;
	for (size_t i = 0; i < CALLS && rc == 0; i++) {
		uint64_t t0 = now_ns(), t1, t2;

		rq.earliest = rq.latest = random_start(&seed, 1) * SLOT;
		rq.nodes = 1;
		rc = ar_longest(t, &rq, &a);
		t1 = now_ns();
		rq.nodes = 32;
		if (rc == 0)
			rc = ar_longest(t, &rq, &a);
		t2 = now_ns();
		/* Ids follow the plan's order: 1 to n. */
		if (rc == 0)
			rc = ar_furthest(t, 1 + bench_rand(&seed) % p->n, 0, &a);
		ns[Q_EXTEND][i] = now_ns() - t2;
		ns[Q_LONGEST_32][i] = t2 - t1;
		ns[Q_LONGEST_1][i] = t1 - t0;
	}
	ar_txn_abort(t);
	for (int k = 0; k < NQ; k++)
		q[k] = median_us(ns[k]);
	return rc;
}

/* ar on a store holding plan p: search and suggest in a read
 * transaction, add and cancel in a write transaction never committed;
 * then the two questions into q. */
static int
measure_ar(const struct load *p, struct fig f[NLENS][GOPS], double q[NQ])
{
	uint64_t ns[GOPS][401], seed = 0x9e3779b97f4a7c15ULL;
	struct ar_config cfg;
	struct ar_request rq;
	struct ar_answer a;
	struct ar_resv r;
	ar_store *s;
	ar_txn *rt, *wt;
	char *dir = scratch_dir("growth");
	size_t n;
	int rc;

	ar_config_default(&cfg);
	cfg.flags = AR_SIMULATED;       /* the plans' clock is CLOCK */
	if (dir == NULL)
		return -1;
	if ((rc = ar_create(dir, &cfg, CLOCK)) != 0 ||
	    (rc = ar_open(dir, 0, &s)) != 0) {
		fprintf(stderr, "garq: %s: %s\n", dir, ar_strerror(rc));
		return -1;
	}
	if ((rc = ar_write(s, 0, CLOCK, load_store, (void *)p)) != 0)
		goto fail;
	memset(&rq, 0, sizeof(rq));
	rq.jobs = 1;
	for (size_t l = 0; l < NLENS; l++) {
		rq.duration = lens[l] * SLOT;
		if ((rc = ar_txn_begin(s, 0, CLOCK, &rt)) != 0)
			goto fail;
		for (size_t i = 0; i < CALLS && rc == 0; i++) {
			uint64_t t0, t1;

			rq.earliest = rq.latest = random_start(&seed,
			    lens[l]) * SLOT;
			rq.nodes = 1;
			t0 = now_ns();
			rc = ar_search(rt, &rq, &a);
			t1 = now_ns();
			ns[G_SEARCH][i] = t1 - t0;
			rq.nodes = 32;
			if (rc == 0)
				rc = ar_suggest(rt, &rq, SUGGEST_LIMIT, &a, 1, &n);
			ns[G_SUGGEST][i] = now_ns() - t1;
		}
		ar_txn_abort(rt);
		if (rc != 0 || (rc = ar_txn_begin(s, AR_WRITE, CLOCK, &wt)) != 0)
			goto fail;
		rq.nodes = 1;
		for (size_t i = 0; i < CALLS && rc == 0; i++) {
			uint64_t t0, t1;

			rq.earliest = rq.latest = random_start(&seed,
			    lens[l]) * SLOT;
			t0 = now_ns();
			rc = ar_add(wt, &rq, &a);
			t1 = now_ns();
			ns[G_ADD][i] = t1 - t0;
			if (rc == 0)
				rc = ar_cancel(wt, a.id, 0, &r);
			ns[G_DELETE][i] = now_ns() - t1;
		}
		ar_txn_abort(wt);
		if (rc != 0)
			goto fail;
		for (int k = 0; k < GOPS; k++) {
			f[l][k].us = median_us(ns[k]);
			f[l][k].cells = -1;
		}
	}
	if ((rc = measure_questions(s, p, q)) != 0)
		goto fail;
	ar_close(s);
	return 0;
fail:
	fprintf(stderr, "garq: ar: %s\n", ar_strerror(rc));
	ar_close(s);
	return -1;
}

static void
fig_cell(const struct fig *f)
{
	char c[16];

	if (f->cells < 0)
		snprintf(c, sizeof(c), "-");
	else
		snprintf(c, sizeof(c), f->cells < 100 ? "%.1f" : "%.0f",
		    f->cells);
	us(f->us);
	printf(" %7s |", c);
}

/* The figures of every structure and call, in the columns cols: the
 * plan's sizes (by_size) or the request's lengths. */
static void
print_slice(const char *const *names, int by_size, size_t at)
{
	size_t cols = by_size ? NSIZES : NLENS;

	printf("  %-22s %-8s |", "structure", "call");
	for (size_t c = 0; c < cols; c++) {
		char head[24];

		if (by_size)
			snprintf(head, sizeof(head), "%zu resv", sizes[c]);
		printf(" %-15s |", by_size ? head : len_names[c]);
	}
	printf("\n  %-22s %-8s |", "", "");
	for (size_t c = 0; c < cols; c++)
		printf(" %7s %7s |", "us", "cells");
	printf("\n");
	for (int k = 0; k < NSTRUCT; k++)
		for (int o = 0; o < GOPS; o++) {
			printf("  %-22s %-8s |", o ? "" : names[k], gop[o]);
			for (size_t c = 0; c < cols; c++)
				fig_cell(by_size ? &figs[k][c][at][o] :
				    &figs[k][at][c][o]);
			printf("\n");
		}
}

int
growth_report(void)
{
	static const struct structure *const ops[NSTRUCT - 1] = {
	    &array_structure, &list_structure, &tree_structure,
	    &calendar_structure };
	const char *names[NSTRUCT];
	struct load p;
	const size_t at_len = 1, at_size = 2;

	for (size_t z = 0; z < NSIZES; z++) {
		int rc = make_plan(sizes[z], &p);

		for (int k = 0; rc == 0 && k < NSTRUCT - 1; k++)
			rc = measure_structure(ops[k], &p, figs[k][z]);
		if (rc == 0)
			rc = measure_ar(&p, figs[NSTRUCT - 1][z], questions[z]);
		load_free(&p);
		if (rc != 0) {
			fprintf(stderr, "garq: the plan of %zu reservations "
			    "failed\n", sizes[z]);
			return -1;
		}
	}
	for (int k = 0; k < NSTRUCT - 1; k++)
		names[k] = ops[k]->name;
	names[NSTRUCT - 1] = "ar (LMDB, in a txn)";
	printf("\n== Growth: 64 nodes, 5-minute slots, 30 days; plans of "
	    "random reservations of 1-8 slots\n   and 1-2 nodes, a node free "
	    "in every slot; median microseconds and mean cells of %zu\n   "
	    "calls at random starts: search 1 node (it fits: every slot is "
	    "read), suggest 32 nodes\n   (12 h limit), add 1 node, delete it "
	    "again\n", CALLS);
	printf("\n  with the plan's size, a request of %s:\n",
	    len_names[at_len]);
	print_slice(names, 1, at_len);
	printf("\n  with the request's length, a plan of %zu reservations:\n",
	    sizes[at_size]);
	print_slice(names, 0, at_size);
	printf("\n  the two questions on ar, in a read transaction (median us "
	    "of %zu calls; search: of 1 h,\n  above): the longest job from a "
	    "random start (ar_longest) on 1 node, which runs to\n  the "
	    "horizon, and on 32; how far a random reservation of the plan can "
	    "grow (ar_furthest)\n  %-12s %10s %12s %12s %10s\n", CALLS, "plan",
	    "search", "longest 1", "longest 32", "extend");
	for (size_t z = 0; z < NSIZES; z++) {
		printf("  %6zu resv ", sizes[z]);
		printf("  ");
		us(figs[NSTRUCT - 1][z][at_len][G_SEARCH].us);
		printf("    ");
		us(questions[z][Q_LONGEST_1]);
		printf("    ");
		us(questions[z][Q_LONGEST_32]);
		printf("  ");
		us(questions[z][Q_EXTEND]);
		printf("\n");
	}
	fflush(stdout);
	return 0;
}
