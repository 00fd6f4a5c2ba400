/*
 * mapping.c - the plan on named hosts: what ar_map costs on a real plan
 * and how few runs of hosts best fit gives each reservation against first
 * fit; and what admission costs while maintenance reservations naming
 * hosts are in the plan.
 */
#include <stdio.h>
#include <string.h>

#include "ar.h"
#include "bench.h"

/* Each mapping is timed MAP_RUNS times and the fastest kept: the plan is
 * the same each time, a slower run says more about the machine. */
#define MAP_RUNS 3

/*
 * What the mappings at every clock add up to, by way: best fit, first
 * fit (from the clock, as ar-map by default), and best fit from an hour
 * before the clock, which also reads the history.
 */
enum { BEST, FIRST, PAST, NWAYS };

struct map_sums {
	size_t clocks;
	double ms[NWAYS];       /* the fastest ar_map at each clock, summed */
	double ms_max[NWAYS];   /* ... the slowest of them */
	uint64_t resv[NWAYS];   /* reservations of the plan mapped */
	uint64_t runs[NWAYS];   /* runs of consecutive hosts they got */
	uint64_t one[NWAYS];    /* those in one run */
};

/* What one ar_map told. */
struct tally {
	uint64_t resv, runs, one;
};

static int
tally_fn(const struct ar_mapped *m, void *arg)
{
	struct tally *c = arg;

	/* Ended ones are told as history; the plan is what is granted. */
	if (m->r.state != AR_GRANTED)
		return 0;
	c->resv++;
	c->runs += m->fragments;
	c->one += m->fragments == 1;
	return 0;
}

/*
 * After a period's requests, map the plan at the period's clock to the
 * horizon each way, in a read transaction: it maps afresh each time and
 * keeps nothing, so neither way sees what the other chose.
 */
static int
map_period(const struct backend *b, int64_t clock, int after)
{
	struct map_sums *ms = b->hook;
	struct tally c;
	ar_txn *t;
	int rc;

	if (!after)
		return 0;
	if ((rc = ar_txn_begin(ar_backend_store(b), 0, clock, &t)) != 0) {
		fprintf(stderr, "bench: ar_txn_begin: %s\n", ar_strerror(rc));
		return -1;
	}
	for (int way = 0; way < NWAYS; way++) {
		double fastest = -1;

		for (int run = 0; run < MAP_RUNS; run++) {
			uint64_t t0 = now_ns();
			double ms_;

			memset(&c, 0, sizeof(c));
			if ((rc = ar_map(t, way == FIRST ? AR_MAP_FIRST_FIT : 0,
			    way == PAST ? clock - 3600 : clock,
			    clock + HORIZON, NULL, 0, tally_fn, &c)) != 0) {
				ar_txn_abort(t);
				fprintf(stderr, "bench: ar_map: %s\n",
				    ar_strerror(rc));
				return -1;
			}
			ms_ = (double)(now_ns() - t0) / 1e6;
			if (fastest < 0 || ms_ < fastest)
				fastest = ms_;
		}
		ms->ms[way] += fastest;
		if (fastest > ms->ms_max[way])
			ms->ms_max[way] = fastest;
		ms->resv[way] += c.resv;
		ms->runs[way] += c.runs;
		ms->one[way] += c.one;
	}
	ar_txn_abort(t);
	ms->clocks++;
	return 0;
}

/* One line of the table: best fit, and first fit beside it (if >= 0). */
static void
line(const char *op, const char *workload, const char *fmt, double best,
    double first)
{
	char a[32], b[32] = "";

	snprintf(a, sizeof(a), fmt, best);
	if (first >= 0)
		snprintf(b, sizeof(b), fmt, first);
	printf("  %-26s %-30s %11s %11s", op, workload, a, b);
	if (first > 0)
		printf(" %7.2fx", best / first);
	printf("\n");
}

/*
 * Replay tr through ar (group commits, as its row in the table) and map
 * the plan at the clock of every period, after the period's requests;
 * print the figures, best fit beside first fit.
 */
int
map_report(const struct trace *tr)
{
	struct map_sums ms;
	struct backend b;
	struct stats st;
	char *dir;
	double n, r[NWAYS];

	memset(&ms, 0, sizeof(ms));
	if ((dir = scratch_dir("ar-map")) == NULL ||
	    ar_backend(&b, dir, tr->pclock[0], 1000) != 0)
		return -1;
	b.period = map_period;
	b.hook = &ms;
	if (replay(&b, tr, 0, 0, &st) != 0 || ar_backend_close(&b, NULL) != 0)
		return -1;
	stats_free(&st);
	if (ms.clocks == 0 || ms.resv[BEST] == 0 || ms.resv[FIRST] == 0)
		return 0;
	n = (double)ms.clocks;
	for (int way = 0; way < NWAYS; way++)
		r[way] = (double)ms.resv[way];
	printf("\n  the plan on hosts: ar_map over the plan at the clock of "
	    "each of the %zu periods, after\n  its requests, in a read "
	    "transaction (it maps afresh, keeps nothing); the fastest of %d\n",
	    ms.clocks, MAP_RUNS);
	printf("  %-26s %-30s %11s %11s %8s\n", "operation", "workload",
	    "best fit", "first fit", "ratio");
	line("ar_map, whole plan", "from the clock, mean", "%.3f ms",
	    ms.ms[BEST] / n, ms.ms[FIRST] / n);
	line("", "from the clock, slowest", "%.3f ms", ms.ms_max[BEST],
	    ms.ms_max[FIRST]);
	line("", "from 1 h before: + history", "%.3f ms", ms.ms[PAST] / n,
	    -1);
	line("ar_map, per reservation", "from the clock", "%.3f us",
	    ms.ms[BEST] * 1e3 / r[BEST], ms.ms[FIRST] * 1e3 / r[FIRST]);
	line("fragments per reservation", "mean", "%.3f",
	    (double)ms.runs[BEST] / r[BEST], (double)ms.runs[FIRST] / r[FIRST]);
	line("", "share in one run", "%.1f %%", 100 * (double)ms.one[BEST] /
	    r[BEST], 100 * (double)ms.one[FIRST] / r[FIRST]);
	printf("  (%.0f reservations in the plan on average, 1 to 64 nodes "
	    "each; fragments: the runs of\n   consecutive hosts one gets; "
	    "first fit is the baseline)\n", r[BEST] / n);
	return 0;
}

/* --- admission with pins in the plan ------------------------------------- */

/* The pins asked for and granted, and the periods booked so far. */
static struct {
	size_t asked, granted;
	size_t periods;
} pins;

struct pin_batch {
	int64_t clock;
	size_t granted;         /* in this transaction */
};

static int
pin_fn(ar_txn *t, void *arg)
{
	struct pin_batch *pb = arg;
	uint32_t hosts[PIN_HOSTS];
	struct ar_request rq;
	struct ar_answer ans;
	int rc;

	pb->granted = 0;
	memset(&rq, 0, sizeof(rq));
	rq.duration = PIN_DURATION;
	rq.nodes = rq.nhosts = PIN_HOSTS;
	rq.jobs = 1;
	rq.hosts = hosts;
	rq.user = "maintenance";
	for (int k = 0; k < PINS_PER_PERIOD; k++) {
		uint32_t first = pin_first_host(pins.periods, k);

		for (uint32_t h = 0; h < PIN_HOSTS; h++)
			hosts[h] = first + h;
		rq.earliest = pin_earliest(pb->clock, k);
		rq.latest = rq.earliest + PIN_WINDOW;
		if ((rc = ar_add(t, &rq, &ans)) != 0)
			return rc;
		pb->granted += ans.status == AR_GRANTED;
	}
	return 0;
}

/* Before a period's requests, its maintenance. */
static int
pin_period(const struct backend *b, int64_t clock, int after)
{
	struct pin_batch pb = { clock, 0 };
	int rc;

	if (after)
		return 0;
	if ((rc = ar_write(ar_backend_store(b), 0, clock, pin_fn, &pb)) != 0) {
		fprintf(stderr, "bench: maintenance: %s\n", ar_strerror(rc));
		return -1;
	}
	pins.asked += PINS_PER_PERIOD;
	pins.granted += pb.granted;
	pins.periods++;
	return 0;
}

/* Make ar's backend b book maintenance on named hosts every period. */
void
pins_backend(struct backend *b)
{
	memset(&pins, 0, sizeof(pins));
	b->name = "ar, maintenance pins";
	b->period = pin_period;
}

/*
 * The cost of admission while pins are in the plan, against ar's without
 * (group commits both).
 */
void
pins_report(struct stats *st, struct stats *plain)
{
	double with = admission_p50(st), without = admission_p50(plain);

	printf("  ar with maintenance pins (%zu of %zu granted, 2 a week of "
	    "%d named hosts for 4 h; they\n  take nodes the others are "
	    "granted, not hashed): every search, suggest and add maps\n"
	    "  the whole plan; search+suggest+add p50 %.1f us per request "
	    "over the first %zu,\n  %.0fx ar's without pins over them all\n",
	    pins.granted, pins.asked, PIN_HOSTS, with, st->done,
	    without > 0 ? with / without : 0);
}
