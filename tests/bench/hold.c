/*
 * hold.c - what holds cost the writers that do not use them: every
 * write transaction looks up the first entry of the hold index as it
 * begins; and what releasing expired ones costs the writer that does.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ar.h"
#include "bench.h"

#define T0 ((int64_t)1795219200)         /* 2026-11-21T00:00:00Z */
#define HOLDS 10000

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* HOLDS holds of one node, expiring 12 hours after T0 (or at their
 * end, which is later: they start a day ahead or more). */
static int
fill(ar_txn *t, void *arg)
{
	uint64_t seed = 20261124;
	struct ar_request rq;
	struct ar_answer a;
	int rc;

	(void)arg;
	memset(&rq, 0, sizeof(rq));
	rq.jobs = 1;
	rq.nodes = 1;
	rq.duration = 3600;
	rq.hold = 12 * 3600;
	rq.flags = AR_NOMOVE;
	for (int i = 0; i < HOLDS; i++) {
		rq.earliest = rq.latest = T0 + 86400 + (int64_t)(bench_rand(&seed)
		    % (HORIZON / SLOT - 600)) * SLOT;
		if ((rc = ar_add(t, &rq, &a)) != 0)
			return rc;
	}
	return 0;
}

/* Begin and abandon calls write transactions at now; p50 and p99 in
 * microseconds. */
static int
begins(ar_store *s, int64_t now, uint64_t *ns, size_t calls, double *p50,
    double *p99)
{
	ar_txn *t;
	int rc;

	for (size_t i = 0; i < calls; i++) {
		uint64_t t0 = now_ns();

		if ((rc = ar_txn_begin(s, AR_WRITE, now, &t)) != 0)
			return rc;
		ar_txn_abort(t);
		ns[i] = now_ns() - t0;
	}
	qsort(ns, calls, sizeof(*ns), cmp_u64);
	*p50 = (double)ns[calls / 2] / 1e3;
	*p99 = (double)ns[calls * 99 / 100] / 1e3;
	return 0;
}

int
hold_cost(void)
{
	size_t calls = quick ? 2001 : 20001;
	double p50[2], p99[2];
	uint64_t *ns, t0 = 0, released = 0;
	struct ar_config cfg;
	ar_store *s = NULL;
	ar_txn *t = NULL;
	char *dir;
	int rc;

	printf("\n== holds: a write transaction's beginning, begun and "
	    "abandoned, with no hold\n   and with %d not expired (64 nodes, "
	    "5-minute slots, 30 days); then one\n   that releases all %d at "
	    "once\n\n", HOLDS, HOLDS);
	if ((dir = scratch_dir("hold")) == NULL)
		return -1;
	ar_config_default(&cfg);
	cfg.flags = AR_SIMULATED;
	if ((ns = malloc(calls * sizeof(*ns))) == NULL)
		rc = ENOMEM;
	else if ((rc = ar_create(dir, &cfg, T0)) == 0 &&
	    (rc = ar_open(dir, 0, &s)) == 0 &&
	    (rc = begins(s, T0, ns, calls, &p50[0], &p99[0])) == 0 &&
	    (rc = ar_write(s, 0, T0, fill, NULL)) == 0 &&
	    (rc = begins(s, T0, ns, calls, &p50[1], &p99[1])) == 0) {
		/* Grown first as ar_write would, so that one is timed whole. */
		for (;;) {
			t0 = now_ns();
			rc = ar_txn_begin(s, AR_WRITE, T0 + 12 * 3600, &t);
			if (rc != AR_EFULL || ar_grow(s, AR_FREEING) != 0)
				break;
		}
		t0 = now_ns() - t0;
		released = HOLDS;
		if (rc == 0)
			rc = ar_txn_commit(t);
	}
	if (rc == 0) {
		printf("  %-34s %8s %8s\n", "microseconds", "p50", "p99");
		printf("  %-34s %8.1f %8.1f\n", "begin + abort, no hold", p50[0],
		    p99[0]);
		printf("  %-34s %8.1f %8.1f\n", "begin + abort, holds not expired",
		    p50[1], p99[1]);
		printf("  begin releasing %" PRIu64 " holds: %.1f ms, %.1f us a "
		    "hold\n", released, (double)t0 / 1e6, (double)t0 / 1e3 /
		    (double)released);
	} else
		fprintf(stderr, "bench: hold: %s\n", ar_strerror(rc));
	ar_close(s);
	free(ns);
	return rc != 0 ? -1 : 0;
}
