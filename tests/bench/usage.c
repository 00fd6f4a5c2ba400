/*
 * usage.c - the cost of ar_usage (ar-report --usage) over a week, a
 * month and a year at the end of a year of history: 128 nodes, 5-minute
 * slots, a 30-day horizon, over a million reservations booked a few
 * hours ahead and purged daily, as a store would hold after a year of
 * a busy cluster's traces.  The cost should follow the records in the
 * range (and the two horizons read before it), not the whole history.
 */
#include <stdio.h>
#include <string.h>

#include "ar.h"
#include "bench.h"

#define SLOT 300
#define YEAR (365 * 86400LL)
#define USAGE_NODES 128
#define PER_SLOT 12             /* requests asked in each slot */
#define T0 1798761600LL         /* 2027-01-01T00:00:00Z */

static int
counted(const struct ar_usage *u, void *arg)
{
	*(uint64_t *)arg += u->granted;
	return 0;
}

/* One day of requests from *now, PER_SLOT per slot, in one transaction. */
static int
day(ar_txn *t, int64_t *now, uint64_t *seed, uint64_t *granted)
{
	static const char *users[] = { "ann", "bob", "cy", "dee", "" };
	int rc;

	for (int64_t k = 0; k < 86400 / SLOT; k++, *now += SLOT)
		for (int j = 0; j < PER_SLOT; j++) {
			struct ar_request rq;
			struct ar_answer a;

			memset(&rq, 0, sizeof(rq));
			rq.earliest = rq.latest = *now + SLOT +
			    (int64_t)(bench_rand(seed) % 48) * SLOT;
			rq.duration = (int64_t)(1 + bench_rand(seed) % 6) * SLOT;
			rq.nodes = 1 + (uint32_t)(bench_rand(seed) % 3);
			rq.jobs = 1;
			rq.user = users[bench_rand(seed) % 5];
			rq.flags = AR_NOMOVE;
			if ((rc = ar_add(t, &rq, &a)) != 0)
				return rc;
			*granted += a.status == AR_GRANTED;
		}
	return ar_purge(t, NULL, NULL);
}

/* A year of days; a day that fills the map is done again on a larger. */
static int
fill(ar_store *s, uint64_t *seed, uint64_t *granted)
{
	int64_t now = T0, now0;
	uint64_t seed0, granted0;
	ar_txn *t;
	int rc;

	for (int d = 0; d < 365; d++) {
		now0 = now;
		seed0 = *seed;
		granted0 = *granted;
		for (;;) {
			if ((rc = ar_txn_begin(s, AR_WRITE, now, &t)) != 0)
				return rc;
			if ((rc = day(t, &now, seed, granted)) != 0)
				ar_txn_abort(t);
			else
				rc = ar_txn_commit(t);
			if (rc != AR_EFULL)
				break;
			if ((rc = ar_grow(s, 0)) != 0)
				return rc;
			now = now0;
			*seed = seed0;
			*granted = granted0;
		}
		if (rc != 0)
			return rc;
	}
	return 0;
}

int
usage_cost(void)
{
	static const struct {
		const char *name;
		int64_t length;
	} ranges[] = {
		{ "a week", 7 * 86400LL },
		{ "a month", 30 * 86400LL },
		{ "a year", YEAR },
	};
	struct ar_config cfg;
	struct ar_info info;
	uint64_t seed = 20261122, granted = 0, t0;
	char *dir;
	ar_store *s;
	ar_txn *t;
	int rc;

	printf("\n== ar-report --usage (ar_usage): the end of a year of history, "
	    "%d nodes, 5-minute slots,\n   30-day horizon, %d requests per "
	    "slot; windows of 12 slots; the fastest of 3 runs\n\n", USAGE_NODES,
	    PER_SLOT);
	if ((dir = scratch_dir("usage")) == NULL)
		return -1;
	ar_config_default(&cfg);
	cfg.flags = AR_SIMULATED;
	cfg.nodes = USAGE_NODES;
	t0 = now_ns();
	if ((rc = ar_create(dir, &cfg, T0)) != 0 ||
	    (rc = ar_open(dir, 0, &s)) != 0) {
		fprintf(stderr, "bench: usage store: %s\n", ar_strerror(rc));
		return -1;
	}
	if ((rc = fill(s, &seed, &granted)) != 0 ||
	    (rc = ar_txn_begin(s, 0, T0 + YEAR, &t)) != 0 ||
	    (rc = ar_info(t, &info)) != 0) {
		fprintf(stderr, "bench: usage store: %s\n", ar_strerror(rc));
		ar_close(s);
		return -1;
	}
	printf("  %llu records (%llu requests) made in %.0f s; data.mdb map "
	    "%llu MiB\n\n", (unsigned long long)info.records,
	    (unsigned long long)365 * 288 * PER_SLOT, (double)(now_ns() - t0) / 1e9,
	    (unsigned long long)(info.map_size >> 20));
	printf("  range     windows  granted in range     ms   ns per record "
	    "in range\n");
	for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++) {
		uint64_t best = UINT64_MAX, n = 0;

		for (int run = 0; run < 3 && rc == 0; run++) {
			uint64_t a = now_ns(), d;

			n = 0;
			rc = ar_usage(t, T0 + YEAR - ranges[i].length, T0 + YEAR,
			    12 * SLOT, AR_BY_WINDOW, counted, &n);
			d = now_ns() - a;
			if (d < best)
				best = d;
		}
		if (rc != 0)
			break;
		n /= 2;         /* the windows, then the total again */
		printf("  %-8s %8lld  %16llu %6.1f   %8.0f\n", ranges[i].name,
		    (long long)(ranges[i].length / (12 * SLOT)),
		    (unsigned long long)n, (double)best / 1e6,
		    n ? (double)best / (double)n : 0);
	}
	ar_txn_abort(t);
	ar_close(s);
	if (rc != 0)
		fprintf(stderr, "bench: ar_usage: %s\n", ar_strerror(rc));
	return rc != 0 ? -1 : 0;
}
