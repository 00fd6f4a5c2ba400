/*
 * modify.c - what ar_modify costs beside what it stands in for, an
 * ar_cancel and an ar_add of the new shape, on a store half full.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ar.h"
#include "bench.h"

#define T0 ((int64_t)1795219200)         /* 2026-11-21T00:00:00Z */
#define BATCH 100                       /* calls per transaction */

/* Random fixed reservations, up to half the node-slots of the horizon;
 * the ids granted go to ids[0 .. *n). */
static int
fill(ar_txn *t, void *arg)
{
	uint64_t *ids = arg, seed = 20261123, used = 0;
	uint64_t want = (uint64_t)NODES * (HORIZON / SLOT) / 2;
	struct ar_request rq;
	struct ar_answer a;
	int rc;

	memset(&rq, 0, sizeof(rq));
	rq.jobs = 1;
	rq.flags = AR_NOMOVE;
	ids[0] = 0;
	while (used < want) {
		rq.earliest = rq.latest = T0 + SLOT + (int64_t)(bench_rand(&seed) %
		    (HORIZON / SLOT - 300)) * SLOT;
		rq.duration = (1 + (int64_t)(bench_rand(&seed) % 48)) * SLOT;
		rq.nodes = 1 + (uint32_t)(bench_rand(&seed) % 16);
		if ((rc = ar_add(t, &rq, &a)) != 0)
			return rc;
		if (a.status == AR_GRANTED) {
			ids[++ids[0]] = a.id;
			used += (uint64_t)rq.nodes * (uint64_t)(rq.duration / SLOT);
		}
	}
	return 0;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * calls changes of reservations, BATCH to a transaction that is
 * then abandoned, so every call sees the same store: each a reservation
 * one slot longer or shorter, in place, by ar_modify (cancel == 0) or by
 * ar_cancel and ar_add (a new id).  Their times in ns[], the grants in
 * *granted.
 */
static int
changes(ar_store *s, const uint64_t *ids, size_t calls, int cancel,
    uint64_t *ns, size_t *granted)
{
	uint64_t seed = 77;
	struct ar_request rq;
	struct ar_answer a;
	struct ar_resv r;
	ar_txn *t = NULL;
	int rc = 0;

	*granted = 0;
	memset(&rq, 0, sizeof(rq));
	rq.jobs = 1;
	rq.flags = AR_NOMOVE;
	for (size_t i = 0, from = 0; i < calls && rc == 0; i++) {
		uint64_t id, t0;

		/* A batch changes BATCH reservations, each once. */
		if (i % BATCH == 0) {
			if (t != NULL)
				ar_txn_abort(t);
			if ((rc = ar_txn_begin(s, AR_WRITE, T0, &t)) != 0)
				break;
			from = bench_rand(&seed) % ids[0];
		}
		id = ids[1 + (from + i % BATCH) % ids[0]];
		if ((rc = ar_get(t, id, &r)) != 0)
			break;
		rq.earliest = rq.latest = r.start;
		rq.duration = r.end - r.start + (i % 2 || r.end - r.start ==
		    SLOT ? SLOT : -SLOT);
		rq.nodes = r.nodes;
		t0 = now_ns();
		if (cancel) {
			if ((rc = ar_cancel(t, id, 0, &r)) == 0)
				rc = ar_add(t, &rq, &a);
		} else
			rc = ar_modify(t, id, 0, &rq, &a);
		ns[i] = now_ns() - t0;
		*granted += rc == 0 && a.status == AR_GRANTED;
	}
	if (t != NULL)
		ar_txn_abort(t);
	return rc;
}

int
modify_cost(void)
{
	size_t calls = quick ? 2001 : 20001, got[2];
	uint64_t *ids, *ns[2];
	char *dir;
	ar_store *s = NULL;
	struct ar_config cfg;
	int rc;

	printf("\n== ar_modify against ar_cancel + ar_add: a reservation one "
	    "slot longer or shorter,\n   in place, on a store half full (64 "
	    "nodes, 5-minute slots, 30 days); in write\n   transactions of %d "
	    "calls, not committed\n\n", BATCH);
	if ((dir = scratch_dir("modify")) == NULL)
		return -1;
	ids = malloc((HORIZON / SLOT * NODES + 1) * sizeof(*ids));
	ns[0] = malloc(calls * sizeof(*ns[0]));
	ns[1] = malloc(calls * sizeof(*ns[1]));
	ar_config_default(&cfg);
	cfg.flags = AR_SIMULATED;
	if (ids == NULL || ns[0] == NULL || ns[1] == NULL)
		rc = ENOMEM;
	else if ((rc = ar_create(dir, &cfg, T0)) == 0 &&
	    (rc = ar_open(dir, 0, &s)) == 0 &&
	    (rc = ar_write(s, 0, T0, fill, ids)) == 0 &&
	    (rc = changes(s, ids, calls, 0, ns[0], &got[0])) == 0)
		rc = changes(s, ids, calls, 1, ns[1], &got[1]);
	if (rc == 0) {
		printf("  %zu reservations; %zu changes each\n", (size_t)ids[0],
		    calls);
		printf("  %-20s %8s %8s %8s\n", "microseconds", "granted",
		    "p50", "p99");
		for (int k = 0; k < 2; k++) {
			qsort(ns[k], calls, sizeof(*ns[k]), cmp_u64);
			printf("  %-20s %8zu %8.1f %8.1f\n", k ? "ar_cancel + ar_add" :
			    "ar_modify", got[k], (double)ns[k][calls / 2] / 1e3,
			    (double)ns[k][calls * 99 / 100] / 1e3);
		}
		printf("  ar_modify / (ar_cancel + ar_add), p50: %.2f\n",
		    (double)ns[0][calls / 2] / (double)ns[1][calls / 2]);
	} else
		fprintf(stderr, "bench: modify: %s\n", ar_strerror(rc));
	ar_close(s);
	free(ids);
	free(ns[0]);
	free(ns[1]);
	return rc != 0 ? -1 : 0;
}
