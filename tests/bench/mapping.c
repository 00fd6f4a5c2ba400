/*
 * mapping.c - the plan on named hosts: what ar_map costs on a real plan
 * and how few runs of hosts best fit gives each reservation against first
 * fit; and what admission costs while maintenance reservations naming
 * hosts are in the plan, against the refusals of the whole-plan sweep
 * the library made before it tracked the named hosts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ar.h"
#include "bench.h"
#include "hosts.h"

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
static struct pins_booked {
	size_t asked, granted;
	size_t periods;
} pins;

struct pin_batch {
	int64_t clock;
	size_t granted;         /* in this transaction */
	int64_t start[PINS_PER_PERIOD]; /* each one's start, or -1 */
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
		pb->start[k] = ans.status == AR_GRANTED ? ans.start : -1;
	}
	return 0;
}

/* Book a period's maintenance in ar's store, into pb. */
static int
pin_book(const struct backend *b, struct pin_batch *pb)
{
	int rc;

	if ((rc = ar_write(ar_backend_store(b), 0, pb->clock, pin_fn,
	    pb)) != 0) {
		fprintf(stderr, "bench: maintenance: %s\n", ar_strerror(rc));
		return -1;
	}
	pins.asked += PINS_PER_PERIOD;
	pins.granted += pb->granted;
	pins.periods++;
	return 0;
}

/* Before a period's requests, its maintenance. */
static int
pin_period(const struct backend *b, int64_t clock, int after)
{
	struct pin_batch pb = { clock, 0, { 0 } };

	return after ? 0 : pin_book(b, &pb);
}

/* Make ar's backend b book maintenance on named hosts every period. */
void
pins_backend(struct backend *b)
{
	memset(&pins, 0, sizeof(pins));
	b->name = "ar, maintenance pins";
	b->period = pin_period;
}

void
pins_tally(size_t *asked, size_t *granted)
{
	*asked = pins.asked;
	*granted = pins.granted;
}

/* --- the baseline: the whole-plan sweep -------------------------------------- */

/* The host study's prototype of the sweep, as a backend of replay(). */
struct base_backend {
	struct cluster c;
	struct hd d;
	uint64_t next_id;
	size_t periods;         /* maintenance booked so far */
};

static struct hreq
base_req(const struct req *q)
{
	struct hreq h = { slots_up(q->start, SLOT), slots_up(q->dur, SLOT),
	    q->nodes, 0, 0, 0 };

	return h;
}

/* The clock moves: what ended goes, what started keeps its hosts. */
static int
base_clock(struct base_backend *x, int64_t clock)
{
	x->d.now = slots_down(clock, SLOT);
	return x->d.ops->clock(&x->d);
}

static int
base_purge(const struct backend *b, int64_t clock, struct stats *st)
{
	(void)st;
	return base_clock(b->ctx, clock);
}

static int
base_search(void *ctx, const struct req *q, enum fit *f)
{
	struct base_backend *x = ctx;
	struct hreq h = base_req(q);

	return x->d.ops->search(&x->d, &h, f);
}

static int
base_suggest(void *ctx, const struct req *q, int64_t *start)
{
	struct base_backend *x = ctx;
	struct hreq h = base_req(q);
	int64_t at;
	int rc;

	if ((rc = x->d.ops->suggest(&x->d, &h, h.s + SUGGEST_LIMIT / SLOT,
	    &at)) != 0)
		return rc;
	*start = at < 0 ? -1 : at * SLOT;
	return 0;
}

static int
base_add(void *ctx, const struct req *q, int64_t start, int64_t *granted)
{
	struct base_backend *x = ctx;
	struct hreq h = base_req(q);
	int rc, yes = 0;

	h.s = start / SLOT;
	if ((rc = x->d.ops->add(&x->d, &h, x->next_id, &yes)) != 0)
		return rc;
	x->next_id += yes != 0;
	*granted = yes ? start : -1;
	return 0;
}

/* Before a period's requests, its maintenance, as pin_fn books it. */
static int
base_period(const struct backend *b, int64_t clock, int after)
{
	struct base_backend *x = b->ctx;

	for (int k = 0; k < PINS_PER_PERIOD && !after; k++) {
		struct hreq q = { slots_up(pin_earliest(clock, k), SLOT),
		    slots_up(PIN_DURATION, SLOT), PIN_HOSTS, 0, 0,
		    (((hmask)1 << PIN_HOSTS) - 1) <<
		    pin_first_host(x->periods, k) };
		int64_t at;
		int rc, yes = 0;

		if ((rc = x->d.ops->suggest(&x->d, &q, slots_up(pin_earliest(
		    clock, k) + PIN_WINDOW, SLOT), &at)) != 0)
			return rc;
		q.s = at;
		if (at >= 0 && (rc = x->d.ops->add(&x->d, &q, x->next_id,
		    &yes)) != 0)
			return rc;
		x->next_id += yes != 0;
	}
	x->periods += !after;
	return 0;
}

/* A sweep of NODES plain hosts, its clock at the trace's first; 0 or -1. */
static int
base_make(struct base_backend *x, const struct trace *tr)
{
	cluster_plain(&x->c, NODES);
	x->next_id = 1;
	if (hd_make(&x->d, &sweep_design, &x->c, HF_BEST,
	    slots_down(tr->pclock[0], SLOT), HORIZON / SLOT) != 0) {
		fprintf(stderr, "bench: out of memory\n");
		return -1;
	}
	return 0;
}

int
pins_sweep_replay(const struct trace *tr, struct stats *st)
{
	struct base_backend *x = calloc(1, sizeof(*x));
	struct backend b = { "whole-plan sweep, pins", x, base_purge,
	    admit_each, base_search, base_suggest, base_add, base_period,
	    NULL };
	int rc;

	if (x == NULL || base_make(x, tr) != 0) {
		free(x);
		return -1;
	}
	rc = replay(&b, tr, 0, 0, st);
	hd_destroy(&x->d);
	free(x);
	return rc;
}

/* --- ar's answers asked again of the sweep, on ar's own plan ------------ */

/*
 * The two replays above each keep what they granted, so once one
 * answers differently they answer on different plans, and their
 * refusals do not compare request by request.  Here the sweep holds ar's plan: every
 * grant of ar's, maintenance included, is added to it at ar's start, and
 * every request ar refused is asked of it as admit() asks (search, then
 * suggest), so each answer of ar's is held against the sweep's on the
 * same plan.
 */
struct shadow {
	struct backend ar;              /* ar's store, with maintenance */
	struct base_backend sweep;      /* ar's plan, in the sweep */
};

#define SHADOW_SHOWN 3

static struct {
	int done;               /* the replay ran */
	size_t refused;         /* requests ar refused */
	size_t sweep_grants;    /* ... that the sweep would grant */
	size_t first[SHADOW_SHOWN];     /* ... the first of them, by index */
	size_t earlier;         /* grants the sweep would make earlier */
	size_t unmapped;        /* grants of ar's the sweep cannot map */
	size_t first_unmapped;  /* ... the first, by index (its plan lacks
				   it from there on) */
} shadowed;

/* Put a grant of ar's into the sweep, at ar's start (slot s): request
 * i of the trace, or maintenance (SIZE_MAX). */
static int
shadow_grant(struct base_backend *x, struct hreq *q, int64_t s, size_t i)
{
	int yes = 0, rc;

	q->s = s;
	if ((rc = x->d.ops->add(&x->d, q, x->next_id, &yes)) != 0)
		return rc;
	x->next_id += yes != 0;
	if (!yes && shadowed.unmapped++ == 0)
		shadowed.first_unmapped = i;
	return 0;
}

static int
shadow_purge(const struct backend *b, int64_t clock, struct stats *st)
{
	struct shadow *sh = b->ctx;

	if (sh->ar.purge(&sh->ar, clock, st) != 0)
		return -1;
	return base_clock(&sh->sweep, clock);
}

/* ar books the period's maintenance; the sweep takes what it granted. */
static int
shadow_period(const struct backend *b, int64_t clock, int after)
{
	struct shadow *sh = b->ctx;
	struct pin_batch pb = { clock, 0, { 0 } };
	size_t period = pins.periods;

	if (after || pin_book(&sh->ar, &pb) != 0)
		return after ? 0 : -1;
	for (int k = 0; k < PINS_PER_PERIOD; k++) {
		struct hreq q = { 0, slots_up(PIN_DURATION, SLOT), PIN_HOSTS,
		    0, 0, (((hmask)1 << PIN_HOSTS) - 1) <<
		    pin_first_host(period, k) };

		if (pb.start[k] >= 0 && shadow_grant(&sh->sweep, &q,
		    pb.start[k] / SLOT, SIZE_MAX) != 0)
			return -1;
	}
	return 0;
}

/* ar answers requests [from, to); then the sweep, one by one, in order. */
static int
shadow_run(const struct backend *b, const struct trace *tr, size_t from,
    size_t to, int64_t clock, struct stats *st)
{
	struct shadow *sh = b->ctx;
	struct base_backend *x = &sh->sweep;

	if (sh->ar.run(&sh->ar, tr, from, to, clock, st) != 0)
		return -1;
	for (size_t i = from; i < st->done; i++) {
		const struct req *q = &tr->r[i];
		struct hreq h = base_req(q);
		int64_t at = -1;
		enum fit f;

		if (st->granted[i] >= 0) {
			int64_t s = st->granted[i] / SLOT;

			if ((s > h.s && x->d.ops->suggest(&x->d, &h, s - 1,
			    &at) != 0) || shadow_grant(x, &h, s, i) != 0)
				return -1;
			shadowed.earlier += at >= 0;
			continue;
		}
		shadowed.refused++;
		if (x->d.ops->search(&x->d, &h, &f) != 0)
			return -1;
		if (f == FIT)
			at = h.s;
		else if (f == FULL && x->d.ops->suggest(&x->d, &h, h.s +
		    SUGGEST_LIMIT / SLOT, &at) != 0)
			return -1;
		if (at >= 0 && shadowed.sweep_grants < SHADOW_SHOWN)
			shadowed.first[shadowed.sweep_grants] = i;
		shadowed.sweep_grants += at >= 0;
	}
	return 0;
}

int
pins_shadow_replay(const struct trace *tr)
{
	struct shadow *sh = calloc(1, sizeof(*sh));
	struct backend b = { "ar, pins, asked again of the sweep", sh,
	    shadow_purge, shadow_run, NULL, NULL, NULL, shadow_period,
	    NULL };
	struct stats st;
	char *dir;
	int rc = -1;

	memset(&shadowed, 0, sizeof(shadowed));
	if (sh == NULL || base_make(&sh->sweep, tr) != 0) {
		free(sh);
		return -1;
	}
	if ((dir = scratch_dir("ar-pins-shadow")) != NULL &&
	    ar_backend(&sh->ar, dir, tr->pclock[0], 1000) == 0) {
		pins_backend(&sh->ar);
		rc = replay(&b, tr, 0, 0, &st);
		stats_free(&st);
		if (ar_backend_close(&sh->ar, NULL) != 0)
			rc = -1;
	}
	shadowed.done = rc == 0;
	hd_destroy(&sh->sweep.d);
	free(sh);
	return rc;
}

/* The requests of the first n that st refused. */
static size_t
refusals(const struct stats *st, size_t n)
{
	size_t refused = 0;

	for (size_t i = 0; i < n; i++)
		refused += st->granted[i] < 0;
	return refused;
}

/* --- ar's refusals and the sweep's over more orders of the requests ------ */

/*
 * Two greedy replays, each on its own plan, part at the first request
 * they answer differently, and their refusals after that differ by what
 * each plan happened to leave room for: one order of a trace says little
 * about which refuses more (at 8680863 ar was 46 over the sweep on
 * SDSC-BLUE in trace order and under it on the three shuffled traces).
 * So they are compared over PIN_ORDERS orders of the same requests: the
 * trace's own and PIN_ORDERS - 1 more, each period's requests permuted
 * from a seed of their own, and each order's figures are printed.
 */
static struct {
	size_t n;                       /* orders replayed */
	size_t ar[PIN_ORDERS], sweep[PIN_ORDERS];
} orders;

/* Order k's refusals: ar's, with pins, and the sweep's. */
static void
order_refusals(size_t k, const struct stats *ar, const struct stats *sweep)
{
	size_t n = ar->done < sweep->done ? ar->done : sweep->done;

	orders.ar[k] = refusals(ar, n);
	orders.sweep[k] = refusals(sweep, n);
	orders.n = k + 1;
}

int
pins_orders(const struct trace *tr, struct stats *ar, struct stats *sweep)
{
	struct pins_booked kept = pins;
	int rc = 0;

	orders.n = 0;
	order_refusals(0, ar, sweep);
	for (size_t k = 1; k < PIN_ORDERS && rc == 0; k++) {
		struct trace o;
		struct stats a, w;
		struct backend b;
		char *dir;

		memset(&a, 0, sizeof(a));
		memset(&w, 0, sizeof(w));
		if (trace_reorder(tr, 0x9e3779b97f4a7c15ULL * (k + 1), &o) != 0)
			return -1;
		rc = -1;
		if ((dir = scratch_dir("ar-pins-order")) != NULL &&
		    ar_backend(&b, dir, o.pclock[0], 1000) == 0) {
			pins_backend(&b);
			rc = replay(&b, &o, 0, 0, &a);
			if (ar_backend_close(&b, NULL) != 0)
				rc = -1;
		}
		if (rc == 0 && (rc = pins_sweep_replay(&o, &w)) == 0)
			order_refusals(k, &a, &w);
		stats_free(&a);
		stats_free(&w);
		trace_free(&o);
	}
	pins = kept;
	return rc;
}

/*
 * The cost of admission while pins are in the plan, against ar's without
 * (group commits both); its refusals against the sweep's, each on its
 * own plan, over the orders pins_orders replayed, which must not be more
 * in all, and on ar's own plan, request by request (pins_shadow_replay),
 * which says where they differ.
 */
int
pins_report(struct stats *st, struct stats *plain, struct stats *sweep)
{
	double with = admission_p50(st), without = admission_p50(plain);
	size_t n = st->done < sweep->done ? st->done : sweep->done;
	size_t gs = n - refusals(st, n), gw = n - refusals(sweep, n);
	size_t all_ar = 0, all_sweep = 0;
	int bad;

	for (size_t k = 0; k < orders.n; k++) {
		all_ar += orders.ar[k];
		all_sweep += orders.sweep[k];
	}
	bad = !shadowed.done || orders.n != PIN_ORDERS || all_ar > all_sweep;
	printf("  ar with maintenance pins (%zu of %zu granted, 2 a week of "
	    "%d named hosts for 4 h; they\n  take nodes the others are "
	    "granted, not hashed): the named hosts are tracked, a plain\n"
	    "  request is checked against the node ring and the tracked "
	    "hosts' idle ring; search+suggest+add\n  p50 %.3f us per request "
	    "over %zu, %.2fx ar's without pins (bound: 2x)\n",
	    pins.granted, pins.asked, PIN_HOSTS, with, st->done,
	    without > 0 ? with / without : 0);
	printf("  refusals on ar's own plan, request by request (the sweep "
	    "given each of ar's grants\n  at ar's start, and asked each "
	    "request ar refused): of ar's %zu refusals the sweep\n  would "
	    "grant %zu; of ar's grants it could not map %zu; it would grant "
	    "%zu earlier\n", shadowed.refused, shadowed.sweep_grants,
	    shadowed.unmapped, shadowed.earlier);
	for (size_t i = 0; i < shadowed.sweep_grants && i < SHADOW_SHOWN; i++)
		printf("%s%zu%s", i == 0 ? "  (the first: requests " : ", ",
		    shadowed.first[i] + 1, i + 1 == shadowed.sweep_grants ||
		    i + 1 == SHADOW_SHOWN ? " of the trace; both sweeps are "
		    "greedy, neither exact)\n" : "");
	if (shadowed.unmapped > 0 && shadowed.first_unmapped == SIZE_MAX)
		printf("  (the first grant it could not map: maintenance; from "
		    "there on its plan lacks it)\n");
	else if (shadowed.unmapped > 0)
		printf("  (the first grant it could not map: request %zu; from "
		    "there on its plan lacks it)\n",
		    shadowed.first_unmapped + 1);
	printf("  two replays, each on its own plan: ar %zu refusals, the "
	    "whole-plan sweep (before\n  tracked hosts) %zu, over %zu "
	    "requests; over %zu orders of them (this one,\n  then each "
	    "period's requests permuted from seeds of their own), ar's "
	    "and the sweep's:\n ", n - gs, n - gw, n, orders.n);
	for (size_t k = 0; k < orders.n; k++)
		printf(" %zu/%zu%s", orders.ar[k], orders.sweep[k],
		    k + 1 == orders.n ? "" : ",");
	printf("; in all %zu and %zu (%+.3f %% of %zu)\n%s", all_ar,
	    all_sweep, all_sweep ? 100.0 * ((double)all_ar -
	    (double)all_sweep) / (double)all_sweep : 0, all_sweep,
	    bad ? "  MISMATCH: ar with pins refuses more than the whole-plan "
	    "sweep over these orders\n" : "");
	return bad;
}
