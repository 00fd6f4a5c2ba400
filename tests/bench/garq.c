/*
 * garq.c - GarQ's comparison (Sulistio et al., sections 3 and 5)
 * reproduced on real traces: the floor's array (GarQ's ring of counts),
 * a sorted linked list of reservations, a segment tree over the slots
 * and a static calendar queue, each written from the paper's
 * descriptions, beside ar itself; then how each grows with the plan's
 * size and the request's length (growth.c); then the price of slots: an
 * exact, unslotted model against ar at 1-, 5- and 15-minute slots
 * (exact.c).
 *
 *   garq TRACE_DIR          (BENCH_QUICK=1: 50k requests of one trace)
 *
 * Every structure answers the same calls with the same grants as the
 * floor (hashed, as bench does).  It fails (exit 1) only when they
 * disagree, or on an error; without TRACE_DIR it skips (exit 0).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ar.h"
#include "bench.h"

/*
 * The list walks every reservation for every call, and its interval
 * search walks them again for each busy stretch it passes: it replays
 * the first requests only, as many as these allow.
 */
#define LIST_LIMIT ((size_t)(quick ? 20000 : 100000))
#define LIST_SECONDS (quick ? 5 : 20)

/* The quick replays are run RUNS times, the fastest kept (bench.c). */
#define RUNS 3

struct row {
	const char *name;
	struct stats st;
	size_t limit;           /* replay at most the first limit requests */
	int budget;             /* and for at most budget seconds */
	double cells[NOPS];     /* per call; -1 where not counted */
	double mean;            /* memory at the end of the periods, bytes */
	size_t peak;
};

/* The cells of a call, in a column of 8. */
static void
cell_count(double c)
{
	if (c < 0)
		printf(" %7s", "-");
	else if (c < 100)
		printf(" %7.1f", c);
	else
		printf(" %7.0f", c);
}

static void
kib(double bytes)
{
	if (bytes <= 0)
		printf(" %8s", "-");
	else
		printf(" %8.0f", bytes / 1024);
}

static void
print_rows(const struct trace *tr, struct row *rows, size_t n)
{
	static const char *const op[] = { "search", "suggest", "add",
	    "delete" };

	printf("\n  %-22s %8s", "", "");
	for (int k = 0; k < 4; k++)
		printf(" %-23s", op[k]);
	printf(" %-17s %8s\n  %-22s %8s", "memory (KiB)", "replay", "backend",
	    "granted");
	for (int k = 0; k < 4; k++)
		printf(" %7s %7s %7s", "p50 us", "p99 us", "cells");
	printf(" %8s %8s %8s\n", "mean", "peak", "wall s");
	for (size_t r = 0; r < n; r++) {
		struct stats *s = &rows[r].st;

		printf("  %-22s %7zu%s", rows[r].name, s->ngranted,
		    s->done < tr->n ? "*" : " ");
		for (int k = 0; k < 4; k++) {
			us(pctl(&s->op[k], 50));
			us(pctl(&s->op[k], 99));
			cell_count(rows[r].cells[k]);
		}
		kib(rows[r].mean);
		kib((double)rows[r].peak);
		printf(" %8.2f\n", s->wall);
	}
	for (size_t r = 0; r < n; r++)
		if (rows[r].st.done < tr->n)
			printf("  * %s: the first %zu requests only (at most "
			    "%zu, or %d s)\n", rows[r].name, rows[r].st.done,
			    rows[r].limit, rows[r].budget);
	printf("  %zu requests in %zu periods; cells: array slots, list "
	    "entries or bucket copies, tree nodes\n  read or written per call "
	    "(the paper's nodes accessed); memory: what the structure holds\n"
	    "  at the end of each period (the list and the calendar queue "
	    "hold the reservations, the\n  array and the tree only counts); "
	    "ar's store is on disk, below\n", tr->n, tr->np);
}

/* Replay tr through one structure, runs times, the fastest kept. */
static int
structure_row(const struct trace *tr, const struct structure *ops, int runs,
    struct row *row)
{
	struct stats again;
	struct backend b;

	row->name = ops->name;
	for (int run = 0; run < runs; run++) {
		if (structure_backend(&b, ops, tr->pclock[0]) != 0)
			return -1;
		if (replay(&b, tr, row->limit, row->budget, &again) != 0) {
			structure_backend_free(&b);
			return -1;
		}
		keep_faster(&row->st, &again, run);
		for (int k = 0; k < NOPS; k++)
			row->cells[k] = structure_cells(&b, k);
		structure_memory(&b, &row->mean, &row->peak);
		structure_backend_free(&b);
	}
	return 0;
}

/* One trace, one order, replayed by every structure and ar. */
static int
run_trace(const struct trace *tr, void *arg)
{
	static const struct structure *const ops[] = { &array_structure,
	    &list_structure, &tree_structure, &calendar_structure };
	struct row rows[6];
	struct stats again;
	struct backend b;
	char label[64], *dir;
	size_t n = 0;
	int bad = 0;

	(void)arg;
	printf("\n== %s, %s order: 64 nodes, 5-minute slots, 30-day horizon"
	    "\n", tr->name, tr->order);
	if (tr->nowait)
		printf("   (the trace has no wait times: start = submit time)\n");
	fflush(stdout);
	memset(rows, 0, sizeof(rows));
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++, n++) {
		int list = ops[i] == &list_structure;

		rows[n].limit = list ? LIST_LIMIT : 0;
		rows[n].budget = list ? LIST_SECONDS : 0;
		if (structure_row(tr, ops[i], list ? 1 : RUNS, &rows[n]) != 0)
			return -1;
	}
	for (int run = 0; run < RUNS; run++) {
		if ((dir = scratch_dir("ar")) == NULL ||
		    ar_backend(&b, dir, tr->pclock[0], 1000) != 0 ||
		    replay(&b, tr, 0, 0, &again) != 0)
			return -1;
		keep_faster(&rows[n].st, &again, run);
		snprintf(label, sizeof(label), "%s %.4s", tr->name, tr->order);
		if (ar_backend_close(&b, run == 0 ? label : NULL) != 0)
			return -1;
	}
	rows[n].name = b.name;
	for (int k = 0; k < NOPS; k++)
		rows[n].cells[k] = -1;
	n++;
	print_rows(tr, rows, n);
	for (size_t r = 1; r < n; r++)
		if (same_grants(tr, &rows[0].st, &rows[r].st, rows[r].name) != 0)
			bad = 1;
	ar_disk_report();
	for (size_t r = 0; r < n; r++)
		stats_free(&rows[r].st);
	fflush(stdout);
	return bad;
}

/* The load of the machine, which the timings share (noted, not used). */
static void
print_load(const char *when)
{
	double l[3];

	if (getloadavg(l, 3) == 3)
		printf("load average %s: %.2f %.2f %.2f\n", when, l[0], l[1],
		    l[2]);
}

int
main(int argc, char **argv)
{
	static const struct trace_run runs[] = {
		{ "SDSC-BLUE-2000-4.2-cln.swf.gz", "SDSC-BLUE-2000", 0 },
		{ "SDSC-BLUE-2000-4.2-cln.swf.gz", "SDSC-BLUE-2000", 1 },
		{ "LCG-2005-1.swf.gz", "LCG-2005", 0 },
		{ "LCG-2005-1.swf.gz", "LCG-2005", 1 },
		{ "LLNL-Thunder-2007-1.1-cln.swf.gz", "LLNL-Thunder-2007", 0 },
		{ "LLNL-Thunder-2007-1.1-cln.swf.gz", "LLNL-Thunder-2007", 1 },
	};
	uint64_t t0 = now_ns();
	int status;

	if (argc != 2) {
		fprintf(stderr, "usage: garq TRACE_DIR\n");
		return 2;
	}
	if (bench_begin("garq", argv[1]) != 0)
		return 0;
	printf("GarQ's comparison%s: ", quick ? " (BENCH_QUICK: the first "
	    "50000 requests of SDSC-BLUE)" : "");
	print_machine();
	print_load("at the start");
	/* BENCH_QUICK: SDSC-BLUE only, in both orders. */
	if ((status = each_trace(argv[1], runs, 0, quick ? 2 :
	    sizeof(runs) / sizeof(runs[0]), quick ? 50000 : 0, run_trace,
	    NULL)) < 0)
		return 1;
	print_load("after the replays");
	if (growth_report() != 0 || slots_report(argv[1]) != 0)
		return 1;
	print_load("at the end");
	printf("\ngarq: %s in %.0f s\n", status ? "FAILED: the structures "
	    "disagree (see MISMATCH above)" : "done", (double)(now_ns() - t0) /
	    1e9);
	return status;
}
