/*
 * bench.c - ar's benchmark: real traces replayed as in GarQ section 5.1
 * through ar's library, a floor (GarQ's ring as an array in memory),
 * SQLite, ar's library on PostgreSQL, and ar's commands; ar's admission
 * while maintenance names hosts; SDSC-BLUE's plan mapped onto hosts, best
 * fit against first fit; the cost of one call as the reservation and the
 * horizon grow; where the time goes on PostgreSQL; the cost of one
 * invocation.
 *
 *   bench BIN_DIR TRUE_BIN TRACE_DIR      (BENCH_QUICK=1: 50k requests)
 *
 * AR_BENCH_PG, a libpq URI without store= (make bench starts a throwaway
 * server), adds the PostgreSQL figures; its stores are left in that
 * database, each under a name of its own.
 *
 * It prints tables.  It fails (exit 1) only when the backends disagree on
 * what they grant, or on an error; without TRACE_DIR it skips (exit 0).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ar.h"
#include "bench.h"

/*
 * The backends that fsync every commit replay the first requests only, as
 * many as these allow (a shared disk's fsync can be slow).
 */
#define SQLITE_FULL_LIMIT 50000
#define SQLITE_FULL_SECONDS (quick ? 30 : 45)
#define AR_SYNC_LIMIT ((size_t)(quick ? 5000 : 20000))
#define AR_SYNC_SECONDS (quick ? 15 : 30)
/*
 * So does ar on PostgreSQL, whose every commit also waits for the WAL's
 * fsync, and even in groups of 1000 requests pays a round trip for each
 * read its transaction's cache does not hold.
 */
#define PG_GROUP_LIMIT ((size_t)(quick ? 20000 : 50000))
#define PG_GROUP_SECONDS (quick ? 8 : 10)
#define PG_SYNC_LIMIT ((size_t)(quick ? 2000 : 5000))
#define PG_SYNC_SECONDS (quick ? 5 : 10)

/*
 * Replays that run in well under a minute are run RUNS times and the
 * fastest is kept, the floor's as well as ar's: the store's fsyncs go to
 * a disk other machines share, and one slow run says more about them
 * than about the code.  Every run grants the same (they are
 * deterministic); the kept run's grants are checked.
 */
#define RUNS 3

/* --- the table ----------------------------------------------------------- */

struct row {
	const char *name;
	struct stats st;
	size_t limit;           /* replay at most the first limit requests */
	int budget;             /* and for at most budget seconds */
	int ops;                /* has per-call figures */
	int own_grants;         /* grants differently by design: not hashed */
	const char *why;        /* ... why the limit */
};

#define ROWS_MAX 14

static void
print_table(const struct trace *tr, struct row *rows, size_t nrows)
{
	static const char *const opname[NOPS] = { "search", "suggest", "add",
	    "delete", "commit" };
	double fig[ROWS_MAX][NOPS][2];

	printf("\n  %-24s %8s", "microseconds per call:", "");
	for (int k = 0; k < NOPS; k++)
		printf(" %-15s", opname[k]);
	printf(" %8s %9s\n  %-24s %8s", "replay", "", "backend", "granted");
	for (int k = 0; k < NOPS; k++)
		printf(" %7s %7s", "p50", "p99");
	printf(" %8s %9s\n", "wall s", "req/s");
	for (size_t r = 0; r < nrows; r++)
		for (int k = 0; k < NOPS; k++) {
			fig[r][k][0] = rows[r].ops ? pctl(&rows[r].st.op[k], 50) : -1;
			fig[r][k][1] = rows[r].ops ? pctl(&rows[r].st.op[k], 99) : -1;
		}
	for (size_t r = 0; r < nrows; r++) {
		struct stats *s = &rows[r].st;
		double rps = s->wall > 0 ? (double)s->done / s->wall : 0;
		double frps = (double)rows[0].st.done / rows[0].st.wall;

		printf("  %-24s %7zu%s", rows[r].name, s->ngranted,
		    s->done < tr->n ? "*" : " ");
		for (int k = 0; k < NOPS; k++) {
			us(fig[r][k][0]);
			us(fig[r][k][1]);
		}
		printf(" %8.2f %9.0f\n", s->wall, rps);
		if (r == 0)
			continue;
		printf("  %-24s %8s", "  x floor", "");
		for (int k = 0; k < NOPS; k++) {
			ratio(fig[r][k][0], fig[0][k][0]);
			ratio(fig[r][k][1], fig[0][k][1]);
		}
		printf(" %8s", "");
		ratio(frps, rps);
		printf("\n");
	}
	for (size_t r = 0; r < nrows; r++)
		if (rows[r].st.done < tr->n)
			printf("  * %s: the first %zu requests only (at most "
			    "%zu, or %d s:\n    %s, the whole trace would "
			    "take too long)\n", rows[r].name, rows[r].st.done,
			    rows[r].limit, rows[r].budget, rows[r].why);
	if (strcmp(tr->name, "SDSC-BLUE-2000") == 0 &&
	    strcmp(tr->order, "shuffled") == 0) {
		static const struct {
			const char *name;
			double p50[NOPS];
		} ref[] = {
			{ "in-memory array", { 0.042, 0.3, 0.043, -1, -1 } },
			{ "SQLite sync=OFF", { 7, 21, 19, 19, -1 } },
			{ "SQLite sync=FULL", { -1, -1, 92, 89, -1 } },
		};

		printf("  the issue's figures (first 50k requests of this "
		    "order; p50 or mean, not said):\n");
		for (size_t r = 0; r < sizeof(ref) / sizeof(ref[0]); r++) {
			printf("  %-24s %8s", ref[r].name, "");
			for (int k = 0; k < NOPS; k++) {
				if (ref[r].p50[k] < 0)
					printf(" %7s", "");
				else
					us(ref[r].p50[k]);
				printf(" %7s", "");
			}
			printf("\n");
		}
		printf("  (its SQLite add and delete seem to include the COMMIT: "
		    "compare them with add + commit)\n");
	}
	printf("  %zu requests in %zu periods; delete = purge of what ended "
	    "by each period's clock (ar: time\n  between ar_purge's "
	    "callbacks); commit = after the work of a transaction, not in "
	    "the op times\n", tr->n, tr->np);
	printf("  the floor, ar with group commits and the pipelines: the "
	    "fastest of %d replays (wall s)\n  and that replay's calls\n",
	    RUNS);
}

/* --- one trace, one order ------------------------------------------------ */

static const struct ar_pricing three_classes = {
	.n = 3, .c = {
		{ .name = "premium", .price = 100, .ahead_min = 0,
		    .ahead_max = 3600, .limit = 64 },
		{ .name = "business", .price = 60, .ahead_min = 3600,
		    .ahead_max = 7200, .limit = 56 },
		{ .name = "budget", .price = 40, .ahead_min = 7200,
		    .ahead_max = -1, .limit = 48 },
	}, .retention = 86400
};

/*
 * Rows 1 and 3: ar with group commits, without and with price classes.
 * The bound: admission with three classes at most 2x the cost
 * per request of admission without.
 */
static void
classes_report(struct row *rows)
{
	double per[2];

	for (int i = 0; i < 2; i++)
		per[i] = admission_p50(&rows[i ? 3 : 1].st);
	printf("  ar with 3 price classes (%zu granted, limits refuse what "
	    "the others grant, not hashed):\n  search+suggest+add p50 %.3f "
	    "us per request, %.2fx ar's without classes (bound: 2x)\n",
	    rows[3].st.ngranted, per[1], per[0] > 0 ? per[1] / per[0] : 0);
}

/*
 * Row 6: ar on 4 partitions with borrowing, beside row 1.  The issue's
 * bound: at most 1.5x the cost per request of ar without partitions.
 */
static void
partitions_report(struct row *rows)
{
	double plain = admission_p50(&rows[1].st);
	double parts = admission_p50(&rows[6].st);

	printf("  ar on 4 partitions with borrowing (%zu granted, a request "
	    "takes one pool, not hashed):\n  search+suggest+add p50 %.3f us "
	    "per request, %.2fx ar's without partitions (bound: 1.5x)\n",
	    rows[6].st.ngranted, parts, plain > 0 ? parts / plain : 0);
}

/* Row 7's maintenance, asked and granted. */
static size_t part_pins_asked, part_pins_granted;

/*
 * Row 7: the pins row's maintenance in the store of row 6, named hosts
 * tracked in each pool.  The bound: at most 2x the cost per
 * request of ar in the same store without them (row 6).
 */
static void
partition_pins_report(struct row *rows)
{
	double parts = admission_p50(&rows[6].st);
	double pinned = admission_p50(&rows[7].st);

	printf("  ar on 4 partitions with maintenance pins (%zu of %zu "
	    "granted, the pins row's, each\n  in the pool of its hosts; %zu "
	    "requests granted, not hashed): search+suggest+add p50\n  %.3f "
	    "us per request, %.2fx ar's on 4 partitions without pins "
	    "(bound: 2x)\n", part_pins_granted, part_pins_asked,
	    rows[7].st.ngranted, pinned, parts > 0 ? pinned / parts : 0);
}

/* A row that backend b replayed, whose grants are its own (not the
 * floor's to compare). */
static void
own_row(struct row *row, const struct backend *b)
{
	row->name = b->name;
	row->own_grants = 1;
	row->ops = 1;
}

static const char *keep_store;  /* a replayed store for the invocations */
static int64_t keep_clock;

/* One trace, one order, replayed by every backend; bin: the commands. */
static int
run_trace(const struct trace *tr, void *bin)
{
	struct row rows[ROWS_MAX];
	struct stats again, part_pins;
	struct backend b;
	size_t n = 0;
	char label[64], *dir;
	int bad = 0;

	printf("\n== %s, %s order: 64 nodes, 5-minute slots, 30-day horizon"
	    "\n", tr->name, tr->order);
	if (tr->nowait)
		printf("   (the trace has no wait times: start = submit time)\n");
	fflush(stdout);
	memset(rows, 0, sizeof(rows));
	for (int run = 0; run < RUNS; run++) {
		if (structure_backend(&b, &array_structure,
		    tr->pclock[0]) != 0 || replay(&b, tr, 0, 0, &again) != 0)
			return -1;
		structure_backend_free(&b);
		keep_faster(&rows[n].st, &again, run);
	}
	rows[n].name = b.name;
	rows[n++].ops = 1;

	for (int per = 0; per < 2; per++) {
		for (int run = 0; run < (per ? 1 : RUNS); run++) {
			if ((dir = scratch_dir("ar")) == NULL ||
			    ar_backend(&b, dir, tr->pclock[0], per ? 1 : 1000) != 0)
				return -1;
			rows[n].limit = per ? AR_SYNC_LIMIT : 0;
			rows[n].budget = per ? AR_SYNC_SECONDS : 0;
			rows[n].why = "every commit is fsync'd";
			if (replay(&b, tr, rows[n].limit, rows[n].budget,
			    &again) != 0)
				return -1;
			keep_faster(&rows[n].st, &again, run);
			snprintf(label, sizeof(label), "%s %.4s, %s", tr->name,
			    tr->order, per ? "1/txn" : "group");
			/* The stores are alike: the first one's disk is shown. */
			if (ar_backend_close(&b, run == 0 ? label : NULL) != 0)
				return -1;
			if (!per && run == 0 && keep_store == NULL) {
				keep_store = dir;
				keep_clock = tr->pclock[tr->np - 1];
			}
		}
		rows[n].name = b.name;
		rows[n++].ops = 1;
	}
	/*
	 * The cost of admission under nested booking limits: the thesis's
	 * three classes (Table 6.3, by book-ahead), limits scaled to 64
	 * nodes.  A limit refuses what the others grant, so the grants are
	 * not compared; the figures are, with ar's without classes.
	 */
	for (int run = 0; run < RUNS; run++) {
		if ((dir = scratch_dir("ar-classes")) == NULL ||
		    ar_backend(&b, dir, tr->pclock[0], 1000) != 0 ||
		    ar_backend_price(&b, &three_classes) != 0 ||
		    replay(&b, tr, 0, 0, &again) != 0)
			return -1;
		keep_faster(&rows[n].st, &again, run);
		if (ar_backend_close(&b, NULL) != 0)
			return -1;
	}
	own_row(&rows[n++], &b);
	/*
	 * Row 7 (shown after row 6) is replayed here, before the pins row
	 * and its shadow, which report the maintenance they booked last.
	 */
	memset(&part_pins, 0, sizeof(part_pins));
	for (int run = 0; run < RUNS; run++) {
		if ((dir = scratch_dir("ar-partitions-pins")) == NULL ||
		    ar_backend_partitions(&b, dir, tr->pclock[0], 1000) != 0)
			return -1;
		pins_backend(&b);
		if (replay(&b, tr, 0, 0, &again) != 0 ||
		    ar_backend_close(&b, NULL) != 0)
			return -1;
		keep_faster(&part_pins, &again, run);
	}
	pins_tally(&part_pins_asked, &part_pins_granted);
	/*
	 * The cost of admission while reservations naming hosts are in the
	 * plan: their hosts are tracked.  The pins take nodes, so the grants
	 * are not compared with the floor's; the refusals are, with those of
	 * the whole-plan sweep ar made before (in memory, the next row).
	 */
	for (int run = 0; run < RUNS; run++) {
		if ((dir = scratch_dir("ar-pins")) == NULL ||
		    ar_backend(&b, dir, tr->pclock[0], 1000) != 0)
			return -1;
		pins_backend(&b);
		if (replay(&b, tr, 0, 0, &again) != 0 ||
		    ar_backend_close(&b, NULL) != 0)
			return -1;
		keep_faster(&rows[n].st, &again, run);
	}
	own_row(&rows[n++], &b);
	if (pins_sweep_replay(tr, &rows[n].st) != 0 ||
	    pins_shadow_replay(tr) != 0 ||
	    pins_orders(tr, &rows[n - 1].st, &rows[n].st) != 0)
		return -1;
	rows[n].name = "whole-plan sweep, pins";
	rows[n].own_grants = 1;
	rows[n++].ops = 1;
	/* Partitions: a request takes one pool, so the grants are its own. */
	for (int run = 0; run < RUNS; run++) {
		if ((dir = scratch_dir("ar-partitions")) == NULL ||
		    ar_backend_partitions(&b, dir, tr->pclock[0], 1000) != 0 ||
		    replay(&b, tr, 0, 0, &again) != 0 ||
		    ar_backend_close(&b, NULL) != 0)
			return -1;
		keep_faster(&rows[n].st, &again, run);
	}
	own_row(&rows[n++], &b);
	rows[n].st = part_pins;
	own_row(&rows[n], &b);
	rows[n++].name = "ar, 4 partitions, maintenance pins";
	for (int full = 0; full < 2; full++) {
		if ((dir = scratch_dir("sqlite")) == NULL ||
		    sqlite_backend(&b, dir, full) != 0)
			return -1;
		rows[n].name = b.name;
		rows[n].ops = 1;
		rows[n].limit = full ? SQLITE_FULL_LIMIT : 0;
		rows[n].budget = full ? SQLITE_FULL_SECONDS : 0;
		rows[n].why = "every commit is fsync'd";
		if (replay(&b, tr, rows[n].limit, rows[n].budget,
		    &rows[n].st) != 0)
			return -1;
		n++;
		sqlite_backend_free(&b);
	}
	/* The same library calls as ar's rows above, on PostgreSQL. */
	for (int per = 0; pg_server != NULL && per < 2; per++) {
		if ((dir = pg_store("ar")) == NULL ||
		    ar_backend(&b, dir, tr->pclock[0], per ? 1 : 1000) != 0)
			return -1;
		rows[n].name = b.name;
		rows[n].ops = 1;
		rows[n].limit = per ? PG_SYNC_LIMIT : PG_GROUP_LIMIT;
		rows[n].budget = per ? PG_SYNC_SECONDS : PG_GROUP_SECONDS;
		rows[n].why = per ? "every commit waits for the WAL's fsync" :
		    "every read the cache misses is a round trip";
		if (replay(&b, tr, rows[n].limit, rows[n].budget,
		    &rows[n].st) != 0 || ar_backend_close(&b, NULL) != 0)
			return -1;
		n++;
	}

	for (int run = 0; run < RUNS; run++) {
		if ((dir = scratch_dir("pipeline")) == NULL ||
		    pipeline_replay(tr, bin, dir, &again) != 0)
			return -1;
		keep_faster(&rows[n].st, &again, run);
	}
	rows[n++].name = "commands in pipelines";

	print_table(tr, rows, n);
	for (size_t r = 1; r < n; r++)
		if (!rows[r].own_grants && same_grants(tr, &rows[0].st,
		    &rows[r].st, rows[r].name) != 0)
			bad = 1;
	classes_report(rows);
	partitions_report(rows);
	partition_pins_report(rows);
	bad |= pins_report(&rows[4].st, &rows[1].st, &rows[5].st);
	printf("  commands in pipelines: per period, ar-del -q --purge, then "
	    "ar-add --no-move reading\n  the period's requests (a text file "
	    "written before the clock starts), each with\n  latest= its "
	    "start + 12 h: search, suggest, add in one\n");
	ar_disk_report();
	for (size_t r = 0; r < n; r++)
		stats_free(&rows[r].st);
	if (strcmp(tr->name, "SDSC-BLUE-2000") == 0 && map_report(tr) != 0)
		return -1;
	fflush(stdout);
	return bad ? 1 : 0;
}

int
main(int argc, char **argv)
{
	static const struct trace_run runs[] = {
		{ "SDSC-BLUE-2000-4.2-cln.swf.gz", "SDSC-BLUE-2000", 0 },
		{ "SDSC-BLUE-2000-4.2-cln.swf.gz", "SDSC-BLUE-2000", 1 },
		{ "LLNL-Thunder-2007-1.1-cln.swf.gz", "LLNL-Thunder-2007", 1 },
		{ "HPC2N-2002-2.2-cln.swf.gz", "HPC2N-2002", 1 },
	};
	static const char *const cmds[] = { "ar-add", "ar-del", "ar-search" };
	char *bin;
	uint64_t t0 = now_ns();
	int status;

	if (argc != 4) {
		fprintf(stderr, "usage: bench BIN_DIR TRUE_BIN TRACE_DIR\n");
		return 2;
	}
	if (bench_begin("bench", argv[3]) != 0)
		return 0;
	if ((pg_server = getenv("AR_BENCH_PG")) != NULL && *pg_server == '\0')
		pg_server = NULL;
	printf("ar bench%s: ", quick ? " (BENCH_QUICK: the first 50000 "
	    "requests of one trace)" : "");
	print_machine();
	printf("for reference, from the issue: a straightforward SQLite "
	    "baseline on the first 50k shuffled\nSDSC-BLUE requests: search "
	    "7 us, suggest 21 us, add 19 us (sync off) / 92 us (sync full),\n"
	    "delete 19/89 us; in-memory array: search 42 ns, suggest 0.3 us, "
	    "add 43 ns\n");
	if (pg_server == NULL)
		printf("PostgreSQL: AR_BENCH_PG is not set: its rows are "
		    "skipped (make bench starts a server)\n");
	else
		printf("PostgreSQL: %s\n", pg_server);
	/* Others may rebuild the commands meanwhile: run copies. */
	if ((bin = scratch_dir("bin")) == NULL)
		return 1;
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		char from[4200], *cp[] = { "/bin/cp", from, bin, NULL };

		snprintf(from, sizeof(from), "%s/%s", argv[1], cmds[i]);
		if (spawn_wait(cp, NULL, NULL, 0) != 0)
			return 1;
	}
	/* BENCH_QUICK: the shuffled SDSC-BLUE only. */
	if ((status = each_trace(argv[3], runs, (size_t)quick, quick ? 2 :
	    sizeof(runs) / sizeof(runs[0]), quick ? 50000 : 0, run_trace,
	    bin)) < 0)
		return 1;
	if (cost_curve() != 0 || usage_cost() != 0 || modify_cost() != 0 ||
	    hold_cost() != 0 || (pg_server != NULL && pg_cost() != 0))
		return 1;
	if (keep_store != NULL &&
	    invocation_report(bin, argv[2], keep_store, keep_clock) != 0)
		return 1;
	printf("\nbench: %s in %.0f s\n", status ? "FAILED: the backends "
	    "disagree (see MISMATCH above)" : "done", (double)(now_ns() - t0) /
	    1e9);
	return status;
}
