/*
 * hostbench.c - the host model's design study (issue 23, phase 1): the
 * prototypes of hosts.h replayed on real traces, as bench.c replays ar
 * (the same requests, periods, clock and operation mix: search at the
 * asked start, else suggest within 12 hours, then add), in three rows:
 *
 *   (1) plain     64 hosts in one partition, nothing named
 *   (2) pins      the same, with bench.c's maintenance: 2 reservations a
 *                 week of 4 named hosts, rotating over the racks
 *   (3) parts     64 hosts in 4 partitions with features and borrowing
 *                 (hostlib.c's cluster_parts), each request given a
 *                 partition and features by its position in the trace
 *
 * Beside them, the baselines: the floor (GarQ's array in memory) and the
 * library itself (ar on LMDB, group commits), which the sweep prototype
 * must grant exactly as with nothing named (checked, as bench.c checks
 * backends), and refuse no less than with pins, since the library tracks
 * the named hosts (design A) and sweeps only where that refuses; then the
 * cost of free time frames and scheduling options; maintenance that wins
 * in a full plan; and the brute force on small plans (hostbrute.c).
 *
 *   hostbench TRACE_DIR     (BENCH_QUICK=1: the first requests of one trace)
 *
 * Every plan is checked at the end of every period (hostcheck.c): a
 * prototype whose grant is not exact fails the run (exit 1), as does a
 * prototype that should grant what the floor or the library grants and
 * does not.  Without TRACE_DIR it skips (exit 0).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ar.h"
#include "hosts.h"

/* The library with the hosts of a fit names them in every grant, and a
 * request that names hosts maps the whole plan: those rows replay the
 * first requests only, unless HOSTBENCH_LIB_FULL is set. */
#define LIB_FIT_LIMIT ((size_t)(quick ? 1000 : 10000))
/* The first requests of each trace in quick mode. */
#define QUICK_REQUESTS 3000

enum row { ROW_PLAIN, ROW_PINS, ROW_PARTS, ROW_LATE, ROW_MAINT, NROWS };

static const char *const row_title[NROWS] = {
	"(1) plain: 64 hosts, one partition, no named hosts",
	"(2) pins: the same with 2 maintenance reservations a week of 4 named "
	    "hosts (bench.c's)",
	"(3) partitions: 64 hosts in 4 partitions with features and borrowing",
	"(4) the same maintenance booked late: after each period's requests, "
	    "into the plan they made",
	"(5) maintenance that wins (pools (A) only): forced at its earliest "
	    "start, after the requests",
};

/* What one replay measured. */
struct result {
	const char *name;
	int fit;                /* enum hfit, or -1: not a choice here */
	struct stats st;
	size_t pins_asked, pins_granted;
	uint64_t resv, runs;    /* in the plans at the periods' ends */
	double bytes_sum;
	size_t bytes_n, bytes_peak;
	struct hcounts k;
	uint64_t violations;
	char violation[256];
	struct samples pin;     /* per maintenance booked or forced, ns */
	uint64_t forced, displaced;
	/* Free time frames and scheduling options at the periods' ends:
	 * the plan laid out (a mapping), the frames of each partition over
	 * a day, 5 options for 16 nodes for 2 hours within a day; summed
	 * microseconds and counts. */
	double lay_us, frames_us, options_us;
	uint64_t nframes, noptions, ntimes;
};

static void
result_free(struct result *r)
{
	stats_free(&r->st);
	free(r->pin.ns);
}

/* --- the workload ---------------------------------------------------------- */

/*
 * The request of a trace's job as row sees it.  In the partitioned row
 * each gets a partition by a hash of its position in the trace: batch
 * half of them, bigmem a quarter, gpu and debug an eighth each, unless it
 * asks more nodes than that partition reaches with what it may borrow
 * (then batch, which reaches all 64); half of bigmem's that fit in it
 * need its feature mem1t, the others may borrow; gpu's need a100, and a
 * third of those that fit in 4 hosts nvlink.
 */
static void
decorate(int row, const struct req *r, struct hreq *q)
{
	static const uint32_t reach[4] = { 64, 48, 8, 40 };
	uint64_t h = (uint64_t)(r->idx + 1) * 0x9e3779b97f4a7c15ULL;
	uint32_t u;

	memset(q, 0, sizeof(*q));
	q->s = slots_up(r->start, SLOT);
	q->len = slots_up(r->dur, SLOT);
	q->n = r->nodes;
	if (row != ROW_PARTS)
		return;
	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 29;
	u = (uint32_t)(h % 1000);
	q->part = u < 500 ? 0 : u < 750 ? 1 : u < 875 ? 2 : 3;
	if (q->n > reach[q->part])
		q->part = 0;
	if (q->part == 1 && q->n <= 16 && (h >> 20) % 2 == 0)
		q->feat = 1;                    /* mem1t */
	if (q->part == 2)
		q->feat = q->n <= 4 && (h >> 24) % 3 == 0 ? 2 | 4 : 2;
}

/* The k-th maintenance of period p (bench.h), as a request: from its
 * earliest start, free to start until hi. */
static void
pin_request(size_t p, int k, int64_t clock, struct hreq *q, int64_t *hi)
{
	uint32_t first = pin_first_host(p, k);

	memset(q, 0, sizeof(*q));
	q->s = slots_up(pin_earliest(clock, k), SLOT);
	q->len = slots_up(PIN_DURATION, SLOT);
	q->n = PIN_HOSTS;
	q->named = (((hmask)1 << PIN_HOSTS) - 1) << first;
	*hi = slots_up(pin_earliest(clock, k) + PIN_WINDOW, SLOT);
}

/* --- a replay through a prototype ------------------------------------------- */

struct run {
	struct hd d;
	struct ledger l;
	struct result *res;
	uint64_t next_id;
};

/* Grant the maintenance of period p where it fits in its window. */
static int
book_pins(struct run *x, size_t p, int64_t clock)
{
	struct hreq q;
	int64_t hi, at;
	int rc, granted;

	for (int k = 0; k < PINS_PER_PERIOD; k++) {
		uint64_t t0 = now_ns();

		pin_request(p, k, clock, &q, &hi);
		x->res->pins_asked++;
		if ((rc = x->d.ops->suggest(&x->d, &q, hi, &at)) != 0)
			return rc;
		granted = 0;
		if (at >= 0) {
			q.s = at;
			if ((rc = x->d.ops->add(&x->d, &q, x->next_id,
			    &granted)) != 0)
				return rc;
		}
		if (sample(&x->res->pin, now_ns() - t0) != 0)
			return -1;
		if (granted) {
			if ((rc = ledger_grant(&x->l, x->next_id++, &q)) != 0)
				return rc;
			x->res->pins_granted++;
		}
	}
	return 0;
}

static int
displaced(uint64_t id, void *arg)
{
	struct run *x = arg;

	ledger_drop(&x->l, id);
	x->res->displaced++;
	return 0;
}

/* Force the maintenance of period p at its earliest start. */
static int
force_pins(struct run *x, size_t p, int64_t clock)
{
	struct hreq q;
	int64_t hi;
	int rc;

	for (int k = 0; k < PINS_PER_PERIOD; k++) {
		uint64_t t0 = now_ns();

		pin_request(p, k, clock, &q, &hi);
		if ((rc = x->d.ops->force(&x->d, &q, x->next_id, displaced,
		    x)) != 0)
			return rc;
		if (sample(&x->res->pin, now_ns() - t0) != 0)
			return -1;
		if ((rc = ledger_grant(&x->l, x->next_id++, &q)) != 0)
			return rc;
		x->res->forced++;
	}
	return 0;
}

/* The free time frames and options at the clock, timed. */
static int
frames_options(struct run *x)
{
	struct result *r = x->res;
	const struct cluster *c = x->d.c;
	struct occupancy o;
	struct frame fr[1024];
	struct option op[5];
	struct hreq q = { x->d.now, 24, 16, 0, 0, 0 };
	uint64_t t0 = now_ns(), t1;
	int rc;

	if ((rc = occupancy_build(&o, &x->d, x->d.now, 288 + 24)) != 0)
		return rc;
	t1 = now_ns();
	r->lay_us += (double)(t1 - t0) / 1e3;
	for (uint32_t p = 0; p < c->nparts; p++)
		r->nframes += frames(&o, c->in_part[p], fr, 1024);
	t0 = now_ns();
	r->frames_us += (double)(t0 - t1) / 1e3;
	r->noptions += options(&o, c, &q, x->d.now + 288, x->d.fit, op, 5);
	r->options_us += (double)(now_ns() - t0) / 1e3;
	r->ntimes++;
	occupancy_free(&o);
	return 0;
}

/* replay.c's admit, through a prototype. */
static int
admit_one(struct run *x, const struct trace *tr, size_t i, int row)
{
	const struct hdesign *ops = x->d.ops;
	struct stats *st = &x->res->st;
	struct hreq q;
	int64_t at = -1;
	uint64_t t0 = now_ns(), t1;
	enum fit f;
	int rc, granted = 0;

	decorate(row, &tr->r[i], &q);
	if ((rc = ops->search(&x->d, &q, &f)) != 0)
		return rc;
	t1 = now_ns();
	if (sample(&st->op[OP_SEARCH], t1 - t0) != 0)
		return -1;
	if (f == FIT)
		at = q.s;
	else if (f == FULL) {
		if ((rc = ops->suggest(&x->d, &q, q.s + SUGGEST_LIMIT / SLOT,
		    &at)) != 0)
			return rc;
		t0 = t1;
		t1 = now_ns();
		if (sample(&st->op[OP_SUGGEST], t1 - t0) != 0)
			return -1;
	}
	if (at >= 0) {
		q.s = at;
		if ((rc = ops->add(&x->d, &q, x->next_id, &granted)) != 0)
			return rc;
		if (sample(&st->op[OP_ADD], now_ns() - t1) != 0)
			return -1;
		if (granted && (rc = ledger_grant(&x->l, x->next_id++,
		    &q)) != 0)
			return rc;
	}
	st->granted[i] = granted ? at * SLOT : -1;
	st->ngranted += granted != 0;
	st->done = i + 1;
	return 0;
}

/* At a period's end: the plan checked, its fragments and memory. */
static int
period_end(struct run *x)
{
	struct result *r = x->res;
	uint64_t resv, runs;
	size_t bytes;
	int rc;

	if ((rc = ledger_check(&x->l, &x->d, x->d.ops != &sweep_design, &resv,
	    &runs)) != 0 || (x->d.fit == HF_BEST && (rc = frames_options(x)) !=
	    0))
		return rc;
	r->resv += resv;
	r->runs += runs;
	bytes = x->d.ops->bytes(&x->d);
	r->bytes_sum += (double)bytes;
	r->bytes_n++;
	if (bytes > r->bytes_peak)
		r->bytes_peak = bytes;
	return 0;
}

static struct cluster row_cluster[NROWS];

/* Replay the first limit requests of tr (0: all) through ops. */
static int
design_replay(const struct trace *tr, const struct hdesign *ops, int fit,
    int row, size_t limit, struct result *res)
{
	struct run x;
	size_t n = limit != 0 && limit < tr->n ? limit : tr->n;
	uint64_t t0 = now_ns();
	int rc = 0;

	memset(res, 0, sizeof(*res));
	memset(&x, 0, sizeof(x));
	res->name = ops->name;
	res->fit = fit;
	x.res = res;
	x.next_id = 1;
	if ((res->st.granted = malloc((n ? n : 1) *
	    sizeof(*res->st.granted))) == NULL ||
	    hd_make(&x.d, ops, &row_cluster[row], fit < 0 ? HF_BEST :
	    (enum hfit)fit, slots_down(tr->pclock[0], SLOT),
	    HORIZON / SLOT) != 0) {
		fprintf(stderr, "hostbench: out of memory\n");
		return -1;
	}
	for (size_t p = 0; p < tr->np && tr->pfirst[p] < n && rc == 0; p++) {
		size_t end = tr->pfirst[p + 1] < n ? tr->pfirst[p + 1] : n;

		x.d.now = slots_down(tr->pclock[p], SLOT);
		if ((rc = ops->clock(&x.d)) != 0 || (row == ROW_PINS &&
		    (rc = book_pins(&x, p, tr->pclock[p])) != 0))
			break;
		for (size_t i = tr->pfirst[p]; i < end && rc == 0; i++)
			rc = admit_one(&x, tr, i, row == ROW_PARTS ? row :
			    ROW_PLAIN);
		if (rc == 0 && row == ROW_LATE)
			rc = book_pins(&x, p, tr->pclock[p]);
		if (rc == 0 && row == ROW_MAINT)
			rc = force_pins(&x, p, tr->pclock[p]);
		if (rc == 0)
			rc = period_end(&x);
	}
	res->st.wall = (double)(now_ns() - t0) / 1e9;
	res->k = x.d.k;
	res->violations = x.l.violations;
	memcpy(res->violation, x.l.first, sizeof(res->violation));
	hd_destroy(&x.d);
	ledger_free(&x.l);
	if (rc != 0) {
		fprintf(stderr, "hostbench: %s: error %d\n", ops->name, rc);
		return -1;
	}
	return 0;
}

/* --- baselines ------------------------------------------------------------- */

/* The floor: GarQ's array, as bench.c replays it; the fastest of runs. */
static int
floor_replay(const struct trace *tr, size_t limit, struct result *res)
{
	struct backend b;
	struct stats again;

	memset(res, 0, sizeof(*res));
	res->name = "floor (GarQ's array)";
	res->fit = -1;
	for (int run = 0; run < 3; run++) {
		if (structure_backend(&b, &array_structure,
		    tr->pclock[0]) != 0 || replay(&b, tr, limit, 0, &again) != 0)
			return -1;
		if (run == 0)
			structure_memory(&b, &res->bytes_sum,
			    &res->bytes_peak);
		structure_backend_free(&b);
		keep_faster(&res->st, &again, run);
	}
	res->bytes_n = 1;
	return 0;
}

/* The library, group commits, with bench.c's pins or without. */
static int
lib_replay(const struct trace *tr, int pins, size_t limit,
    struct result *res)
{
	struct backend b;
	char *dir;

	memset(res, 0, sizeof(*res));
	res->fit = -1;
	if ((dir = scratch_dir(pins ? "ar-pins" : "ar")) == NULL ||
	    ar_backend(&b, dir, tr->pclock[0], 1000) != 0)
		return -1;
	if (pins)
		pins_backend(&b);
	res->name = pins ? "ar (library), pins" : "ar (library)";
	if (replay(&b, tr, limit, 0, &res->st) != 0 ||
	    ar_backend_close(&b, NULL) != 0)
		return -1;
	return 0;
}

/* The library, each grant on hosts named by ar_place's fit (hf, as the
 * study's fits are numbered), as ar-suggest --fit into ar-add books it. */
static int
lib_fit_replay(const struct trace *tr, enum hfit hf, size_t limit,
    struct result *res)
{
	static const int ar_fit[NFITS] = { [HF_FIRST] = AR_FIT_FIRST,
	    [HF_BEST] = AR_FIT_BEST, [HF_WORST] = AR_FIT_WORST };
	struct backend b;
	char *dir;

	memset(res, 0, sizeof(*res));
	res->fit = (int)hf;
	res->name = "ar, hosts by --fit";
	if ((dir = scratch_dir("ar-fit")) == NULL ||
	    ar_backend(&b, dir, tr->pclock[0], 1000) != 0)
		return -1;
	ar_backend_fit(&b, ar_fit[hf]);
	if (replay(&b, tr, limit, 0, &res->st) != 0)
		return -1;
	ar_backend_runs(&b, &res->resv, &res->runs);
	return ar_backend_close(&b, NULL);
}

/* Does a grant what b grants over the requests a replayed?  0, or -1
 * after saying where they part. */
static int
same_as(const struct trace *tr, const struct result *a,
    const struct result *b)
{
	size_t n = a->st.done < b->st.done ? a->st.done : b->st.done;

	for (size_t i = 0; i < n; i++)
		if (a->st.granted[i] != b->st.granted[i]) {
			printf("  MISMATCH: %s and %s part at request %zu "
			    "(trace row %u): %lld against %lld\n", a->name,
			    b->name, i, tr->r[i].idx + 1,
			    (long long)a->st.granted[i],
			    (long long)b->st.granted[i]);
			return -1;
		}
	printf("  check: %s grants as %s: %zu requests, %zu granted\n",
	    a->name, b->name, n, a->st.ngranted);
	return 0;
}

/* Does a refuse no more than b over the requests both replayed?  0, or
 * -1 after saying so. */
static int
no_more_refused(const struct result *a, const struct result *b)
{
	size_t n = a->st.done < b->st.done ? a->st.done : b->st.done;
	size_t ra = 0, rb = 0;

	for (size_t i = 0; i < n; i++) {
		ra += a->st.granted[i] < 0;
		rb += b->st.granted[i] < 0;
	}
	printf("  %s: %s refuses %zu of %zu requests, %s %zu\n", ra > rb ?
	    "MORE REFUSED" : "check", a->name, ra, n, b->name, rb);
	return ra > rb ? -1 : 0;
}

/* --- the tables --------------------------------------------------------------- */

/* The node-slots r granted to the trace's requests. */
static double
work(const struct trace *tr, const struct result *r)
{
	double w = 0;

	for (size_t i = 0; i < r->st.done; i++)
		if (r->st.granted[i] >= 0)
			w += (double)tr->r[i].nodes *
			    (double)slots_up(tr->r[i].dur, SLOT);
	return w;
}

/* What all the calls of search, suggest and add took, per request. */
static double
mean_per_request(const struct result *r)
{
	double ns = 0;

	if (r->st.done == 0)
		return -1;
	for (int k = OP_SEARCH; k <= OP_ADD; k++)
		for (size_t i = 0; i < r->st.op[k].n; i++)
			ns += (double)r->st.op[k].ns[i];
	return ns / 1e3 / (double)r->st.done;
}

static void
print_head(void)
{
	printf("  %-22s %-5s %8s %7s %7s %8s %8s %8s %8s %7s %8s %6s %8s %7s "
	    "%15s\n", "design", "fit", "granted", "vs ref", "work", "search",
	    "suggest", "add", "s+s+a", "x floor", "mean", "frag", "mem KiB",
	    "sweeps", "fallback/rescued");
}

static void
print_result(const struct trace *tr, struct result *r,
    const struct result *ref, double floor_us)
{
	double p[3], sum = 0;

	for (int k = 0; k < 3; k++) {
		p[k] = pctl(&r->st.op[k], 50);
		sum += p[k] > 0 ? p[k] : 0;
	}
	printf("  %-22s %-5s %7zu%s", r->name, r->fit < 0 ? "" :
	    fit_name[r->fit], r->st.ngranted, ref != NULL &&
	    r->st.done < ref->st.done ? "*" : " ");
	if (ref != NULL && ref != r && r->st.done == ref->st.done)
		printf(" %+7ld %+6.2f%%", (long)r->st.ngranted -
		    (long)ref->st.ngranted, 100 * (work(tr, r) /
		    work(tr, ref) - 1));
	else
		printf(" %7s %7s", "", "");
	for (int k = 0; k < 3; k++)
		us(p[k]);
	us(sum);
	if (floor_us > 0)
		printf(" %6.2fx", sum / floor_us);
	else
		printf(" %7s", "");
	us(mean_per_request(r));
	if (r->resv > 0)
		printf(" %6.3f", (double)r->runs / (double)r->resv);
	else
		printf(" %6s", "-");
	if (r->bytes_n > 0)
		printf(" %8.0f", r->bytes_sum / (double)r->bytes_n / 1024);
	else
		printf(" %8s", "-");
	printf(" %7llu %7llu/%-7llu\n", (unsigned long long)r->k.sweeps,
	    (unsigned long long)r->k.fallbacks,
	    (unsigned long long)r->k.rescued);
	if (r->violations > 0)
		printf("  NOT EXACT: %s, %s fit: %llu violations, the first: "
		    "%s\n", r->name, r->fit < 0 ? "-" : fit_name[r->fit],
		    (unsigned long long)r->violations, r->violation);
}

/* --- one trace ----------------------------------------------------------------- */

/* The prototypes of the designs, in the order of the tables. */
static const struct hdesign *const designs[] = { &pools_design,
	&pools_holes_design, &profile_design, &bitmap_design };
#define NDESIGNS (sizeof(designs) / sizeof(designs[0]))

/* What the best fit of each design cost for frames and options. */
struct fo {
	const char *name;
	double lay_us, frames_us, options_us;
	uint64_t nframes, noptions, ntimes;
};

static struct fo fo_rows[2][NDESIGNS + 1];

static void
keep_fo(int row, size_t i, const struct result *r)
{
	struct fo *f = &fo_rows[row == ROW_PARTS][i];

	f->name = r->name;
	f->lay_us = r->lay_us;
	f->frames_us = r->frames_us;
	f->options_us = r->options_us;
	f->nframes = r->nframes;
	f->noptions = r->noptions;
	f->ntimes = r->ntimes;
}

static void
print_fo(void)
{
	printf("\n  free time frames and scheduling options, at the clock of "
	    "each period (best fit): the\n  plan laid out over a day (the "
	    "mapping, for the designs that map lazily), the frames\n  of "
	    "every partition over that day, 5 options for 16 nodes for 2 "
	    "hours within it\n");
	printf("  %-22s %-12s %12s %10s %10s %10s %10s\n", "design", "row",
	    "lay out us", "frames us", "frames", "options us", "options");
	for (int row = 0; row < 2; row++)
		for (size_t i = 0; i < NDESIGNS + 1; i++) {
			const struct fo *f = &fo_rows[row][i];
			double n = f->ntimes ? (double)f->ntimes : 1;

			if (f->name == NULL)
				continue;
			printf("  %-22s %-12s %12.1f %10.1f %10.1f %10.1f "
			    "%10.1f\n", f->name, row ? "partitions" : "pins",
			    f->lay_us / n, f->frames_us / n,
			    (double)f->nframes / n, f->options_us / n,
			    (double)f->noptions / n);
		}
}

/* Replay row through every design and fit, print each against ref (the
 * row's reference for grants) and the floor's time; a design that must
 * grant as ref does is checked.  1 if a check failed. */
static int
row_designs(const struct trace *tr, int row, size_t limit,
    const struct result *ref, double floor_us)
{
	struct result rs;
	int bad = 0;

	for (size_t i = 0; i < NDESIGNS; i++)
		for (int fit = 0; fit < NFITS; fit++) {
			if (design_replay(tr, designs[i], fit, row, limit,
			    &rs) != 0)
				return -1;
			print_result(tr, &rs, ref, floor_us);
			/* One pool and nothing named: the pools, and the
			 * bitmaps' counts, are the floor's ring, whatever
			 * the fit. */
			if (row == ROW_PLAIN && designs[i] != &profile_design &&
			    same_as(tr, &rs, ref) != 0)
				bad = 1;
			if (fit == HF_BEST && row != ROW_PLAIN)
				keep_fo(row, i + 1, &rs);
			bad |= rs.violations > 0;
			result_free(&rs);
		}
	return bad;
}

/* Rows 4 and 5: maintenance after the requests, booked or forced. */
static int
late_rows(const struct trace *tr, size_t limit)
{
	const struct hdesign *all[NDESIGNS + 1];
	struct result rs;
	int bad = 0;

	all[0] = &sweep_design;
	for (size_t i = 0; i < NDESIGNS; i++)
		all[i + 1] = designs[i];
	printf("\n  %s\n  %-22s %-5s %12s %12s %12s %8s\n",
	    row_title[ROW_LATE], "design", "fit", "maintenance", "us p50",
	    "us p99", "granted");
	for (size_t i = 0; i < NDESIGNS + 1; i++) {
		if (design_replay(tr, all[i], HF_BEST, ROW_LATE, limit,
		    &rs) != 0)
			return -1;
		printf("  %-22s %-5s %5zu of %-4zu", rs.name, fit_name[HF_BEST],
		    rs.pins_granted, rs.pins_asked);
		us(pctl(&rs.pin, 50));
		printf("     ");
		us(pctl(&rs.pin, 99));
		printf("     %8zu\n", rs.st.ngranted);
		if (rs.violations > 0) {
			printf("  NOT EXACT: %s: %s\n", rs.name, rs.violation);
			bad = 1;
		}
		result_free(&rs);
	}
	printf("\n  %s\n  %-22s %-5s %8s %10s %10s %8s %8s %8s\n",
	    row_title[ROW_MAINT], "design", "fit", "forced", "displaced",
	    "moved", "us p50", "us p99", "granted");
	for (int fit = 0; fit < NFITS; fit++) {
		if (design_replay(tr, &pools_design, fit, ROW_MAINT, limit,
		    &rs) != 0)
			return -1;
		printf("  %-22s %-5s %8llu %10llu %10llu", rs.name,
		    fit_name[fit], (unsigned long long)rs.forced,
		    (unsigned long long)rs.displaced,
		    (unsigned long long)rs.k.covers);
		us(pctl(&rs.pin, 50));
		us(pctl(&rs.pin, 99));
		printf(" %8zu\n", rs.st.ngranted);
		if (rs.violations > 0) {
			printf("  NOT EXACT: %s: %s\n", rs.name, rs.violation);
			bad = 1;
		}
		result_free(&rs);
	}
	printf("  (displaced: reservations the maintenance took the hosts of, "
	    "told by id; moved: those\n   kept on other hosts, and pool "
	    "reservations moved onto a maintained host's free time)\n");
	return bad;
}

static int
run_trace(const struct trace *tr, void *arg)
{
	size_t limit = quick ? QUICK_REQUESTS : 0, lib_limit;
	struct result fl, lib, lib_pins, rs;
	double floor_us;
	int bad = 0, rc;

	(void)arg;
	printf("\n== %s, %s order: %zu requests; 64 hosts, 5-minute slots, "
	    "30-day horizon\n", tr->name, tr->order, limit && limit < tr->n ?
	    limit : tr->n);
	fflush(stdout);
	lib_limit = getenv("HOSTBENCH_LIB_FULL") != NULL ? limit :
	    LIB_FIT_LIMIT;
	if (floor_replay(tr, limit, &fl) != 0 ||
	    lib_replay(tr, 0, limit, &lib) != 0 ||
	    lib_replay(tr, 1, limit, &lib_pins) != 0)
		return -1;
	floor_us = admission_p50(&fl.st);

	printf("\n  %s\n", row_title[ROW_PLAIN]);
	print_head();
	print_result(tr, &fl, &fl, floor_us);
	print_result(tr, &lib, &fl, floor_us);
	if (design_replay(tr, &sweep_design, -1, ROW_PLAIN, limit, &rs) != 0)
		return -1;
	print_result(tr, &rs, &fl, floor_us);
	bad |= same_as(tr, &rs, &fl) != 0 || rs.violations > 0;
	result_free(&rs);
	if ((rc = row_designs(tr, ROW_PLAIN, limit, &fl, floor_us)) < 0)
		return -1;
	bad |= rc;
	for (int fit = 0; fit < NFITS; fit++) {
		if (lib_fit_replay(tr, (enum hfit)fit, lib_limit, &rs) != 0)
			return -1;
		print_result(tr, &rs, &fl, floor_us);
		result_free(&rs);
	}

	printf("\n  %s\n", row_title[ROW_PINS]);
	print_head();
	if (design_replay(tr, &sweep_design, -1, ROW_PINS, limit, &rs) != 0)
		return -1;
	print_result(tr, &lib_pins, &rs, floor_us);
	print_result(tr, &rs, &rs, floor_us);
	keep_fo(ROW_PINS, 0, &rs);
	bad |= no_more_refused(&lib_pins, &rs) != 0 || rs.violations > 0;
	if ((rc = row_designs(tr, ROW_PINS, limit, &rs, floor_us)) < 0)
		return -1;
	bad |= rc;
	result_free(&rs);

	printf("\n  %s\n", row_title[ROW_PARTS]);
	print_head();
	if (design_replay(tr, &sweep_design, -1, ROW_PARTS, limit, &rs) != 0)
		return -1;
	print_result(tr, &rs, &rs, floor_us);
	keep_fo(ROW_PARTS, 0, &rs);
	bad |= rs.violations > 0;
	if ((rc = row_designs(tr, ROW_PARTS, limit, &rs, floor_us)) < 0)
		return -1;
	bad |= rc;
	result_free(&rs);
	printf("  (granted: trace requests; vs ref: against the row's first "
	    "line, and the work granted,\n   node-slots; s+s+a: search, "
	    "suggest and add p50 summed, x floor: against the floor's in\n"
	    "   row 1; mean: all their calls' time per request, fallback "
	    "sweeps included; frag: runs\n   of consecutive hosts per "
	    "reservation, in the plan at the periods' ends; mem: at the\n"
	    "   periods' ends; *: the first requests only, as bench.c's pins "
	    "row; ar, hosts by --fit: each\n   grant booked on the hosts "
	    "ar_place chose by that fit, as ar-suggest --fit | ar-add\n"
	    "   books it, its frag per grant so placed)\n");
	print_fo();
	if ((rc = late_rows(tr, limit)) < 0)
		return -1;
	bad |= rc;

	result_free(&fl);
	result_free(&lib);
	result_free(&lib_pins);
	fflush(stdout);
	return bad;
}

/* --- the brute force ------------------------------------------------------------ */

#define BRUTE_RUNS (quick ? 40u : 600u)

static int
brute_report(void)
{
	static const char *const kind[NBR] = {
		"nothing named", "some requests name 1-2 hosts",
		"2 partitions, features, borrowing"
	};
	const struct hdesign *all[NDESIGNS + 1];
	struct brute b;
	uint64_t bad = 0;

	all[0] = &sweep_design;
	for (size_t i = 0; i < NDESIGNS; i++)
		all[i + 1] = designs[i];
	printf("\n== The brute force: %u scenarios of each kind, each of 40 "
	    "requests on 6 hosts over 64 slots,\n   the clock moving; every "
	    "refusal asked of an exhaustive search over the design's plan\n"
	    "   (named and started ones fixed, the rest anywhere they may "
	    "go, keeping their times)\n", BRUTE_RUNS);
	for (int k = 0; k < NBR; k++) {
		printf("\n  %s\n  %-22s %-5s %7s %7s %7s %16s %9s\n", kind[k],
		    "design", "fit", "asked", "granted", "refused",
		    "could be placed", "undecided");
		for (size_t i = 0; i < NDESIGNS + 1; i++)
			for (int fit = 0; fit < NFITS; fit++) {
				if (i == 0 && fit != HF_BEST)
					continue;       /* the library's */
				if (brute_scenarios(all[i], (enum hfit)fit, k,
				    BRUTE_RUNS, 20261126, &b) != 0) {
					fprintf(stderr, "hostbench: brute force: "
					    "%s failed\n", all[i]->name);
					return -1;
				}
				printf("  %-22s %-5s %7llu %7llu %7llu %8llu "
				    "(%4.1f%%) %9llu\n", all[i]->name,
				    i == 0 ? "" : fit_name[fit],
				    (unsigned long long)b.asked,
				    (unsigned long long)b.granted,
				    (unsigned long long)b.refused,
				    (unsigned long long)b.feasible,
				    b.refused ? 100.0 * (double)b.feasible /
				    (double)b.refused : 0.0,
				    (unsigned long long)b.undecided);
				if (b.violations > 0)
					printf("  NOT EXACT: %llu violations, the "
					    "first: %s\n", (unsigned long long)
					    b.violations, b.first);
				bad += b.violations;
			}
	}
	printf("  (could be placed: refused, though some assignment of hosts "
	    "to the plan holds it; %% of\n   the refusals)\n");
	return bad > 0;
}

int
main(int argc, char **argv)
{
	static const struct trace_run runs[] = {
		{ "SDSC-BLUE-2000-4.2-cln.swf.gz", "SDSC-BLUE-2000", 1 },
		{ "LLNL-Thunder-2007-1.1-cln.swf.gz", "LLNL-Thunder-2007", 1 },
		{ "HPC2N-2002-2.2-cln.swf.gz", "HPC2N-2002", 1 },
	};
	uint64_t t0 = now_ns();
	int status, rc;

	if (argc != 2) {
		fprintf(stderr, "usage: hostbench TRACE_DIR\n");
		return 2;
	}
	if (bench_begin("hostbench", argv[1]) != 0)
		return 0;
	for (int row = 0; row < NROWS; row++)
		if (row == ROW_PARTS)
			cluster_parts(&row_cluster[row]);
		else
			cluster_plain(&row_cluster[row], 64);
	printf("hostbench%s: ", quick ? " (BENCH_QUICK: the first requests "
	    "of one trace)" : "");
	print_machine();
	if ((status = each_trace(argv[1], runs, 0, quick ? 1 :
	    sizeof(runs) / sizeof(runs[0]), 0, run_trace, NULL)) < 0)
		return 1;
	if ((rc = brute_report()) < 0)
		return 1;
	status |= rc;
	printf("\nhostbench: %s in %.0f s\n", status ? "FAILED (see above)" :
	    "done", (double)(now_ns() - t0) / 1e9);
	return status;
}
