/*
 * exact.c - the price of slots.  The same traces replayed under one rule
 * by an exact model, free nodes over continuous time with no slots, and
 * by ar at 1-, 5- and 15-minute slots: each request at the earliest start
 * at or after its asked one, within 12 hours of it, where its nodes are
 * free for its run time as the trace gives it (not rounded to 5
 * minutes, as the rest of the bench does after GarQ), before the 30-day
 * horizon; else refused.  Slots round the start up to a slot boundary
 * and the run up to whole slots: what that costs is acceptance, work
 * done, waiting time, and the node-time held but not used.
 *
 * The exact model is an availability profile: the nodes in use as a
 * step function of time, its steps in one sorted array.  First fit walks
 * the steps from the asked start; a step without room moves the
 * candidate to its end.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ar.h"
#include "bench.h"

#define LATEST (12 * 3600)      /* how far past its asked start a job may go */
#define GROUP 1000              /* requests per write transaction */

/* --- the exact model ------------------------------------------------------ */

struct step {
	int64_t at;             /* from this time to the next step's */
	uint32_t used;          /* nodes in use */
};

struct profile {
	struct step *s;         /* s[0].at is the clock; the last lasts on */
	size_t n, cap;
};

/* The index of the step holding time t (t at or after the first). */
static size_t
step_of(const struct profile *p, int64_t t)
{
	size_t lo = 0, hi = p->n;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->s[mid].at <= t)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* The clock moved on: the steps wholly before it go. */
static void
profile_clock(struct profile *p, int64_t clock)
{
	size_t i = step_of(p, clock);

	if (p->s[0].at >= clock)
		return;
	memmove(p->s, p->s + i, (p->n - i) * sizeof(*p->s));
	p->n -= i;
	p->s[0].at = clock;
}

/* The earliest start in [a, latest] where nodes are free for d seconds
 * and it ends by hend; -1 if none. */
static int64_t
exact_first_fit(const struct profile *p, int64_t a, int64_t latest,
    int64_t d, uint32_t nodes, int64_t hend)
{
	int64_t t = a;
	size_t i = step_of(p, a);

	while (t <= latest && t + d <= hend) {
		/* Walk the steps of [t, t + d) until one is full. */
		for (; i < p->n && p->s[i].at < t + d; i++)
			if (p->s[i].used + nodes > NODES)
				break;
		if (i == p->n || p->s[i].at >= t + d)
			return t;
		t = i + 1 < p->n ? p->s[i + 1].at : INT64_MAX;
		i++;
	}
	return -1;
}

/* A step boundary at t; its index. */
static int
split(struct profile *p, int64_t t, size_t *at)
{
	size_t i = step_of(p, t);

	if (p->s[i].at == t) {
		*at = i;
		return 0;
	}
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 4096;
		struct step *s = realloc(p->s, cap * sizeof(*s));

		if (s == NULL)
			return -1;
		p->s = s;
		p->cap = cap;
	}
	memmove(p->s + i + 2, p->s + i + 1, (p->n - i - 1) * sizeof(*p->s));
	p->s[i + 1].at = t;
	p->s[i + 1].used = p->s[i].used;
	p->n++;
	*at = i + 1;
	return 0;
}

static int
exact_add(struct profile *p, int64_t t, int64_t d, uint32_t nodes)
{
	size_t from, to;

	if (split(p, t, &from) != 0 || split(p, t + d, &to) != 0)
		return -1;
	for (size_t i = from; i < to; i++)
		p->s[i].used += nodes;
	return 0;
}

/* --- one replay ----------------------------------------------------------- */

/* What a replay granted, and what that cost. */
struct outcome {
	const char *name;
	size_t asked, granted;
	double work;            /* node-seconds run, as the trace says */
	double held;            /* node-seconds reserved: run rounded up */
	double wait;            /* seconds, granted start less asked, summed */
	double wall;
	double add_us;          /* median of a call, microseconds */
	int64_t slot;           /* 0: the exact model */
};

static int
exact_replay(const struct trace *tr, struct outcome *o)
{
	struct profile p = { NULL, 0, 0 };
	struct samples calls = { NULL, 0, 0 };
	uint64_t t0 = now_ns();
	int rc = -1;

	memset(o, 0, sizeof(*o));
	o->name = "exact (no slots)";
	if ((p.s = malloc(4096 * sizeof(*p.s))) == NULL)
		goto out;
	p.cap = 4096;
	p.n = 1;
	p.s[0].at = tr->pclock[0];
	p.s[0].used = 0;
	for (size_t k = 0; k < tr->np; k++) {
		int64_t hend = tr->pclock[k] + HORIZON;

		profile_clock(&p, tr->pclock[k]);
		for (size_t i = tr->pfirst[k]; i < tr->pfirst[k + 1]; i++) {
			const struct req *q = &tr->r[i];
			int64_t a = q->start > tr->pclock[k] ? q->start :
			    tr->pclock[k], t;
			uint64_t c0 = now_ns();

			t = exact_first_fit(&p, a, q->start + LATEST, q->run,
			    q->nodes, hend);
			if (t >= 0 && exact_add(&p, t, q->run, q->nodes) != 0)
				goto out;
			if (sample(&calls, now_ns() - c0) != 0)
				goto out;
			o->asked++;
			if (t < 0)
				continue;
			o->granted++;
			o->work += (double)q->nodes * (double)q->run;
			o->held += (double)q->nodes * (double)q->run;
			o->wait += (double)(t - q->start);
		}
	}
	o->wall = (double)(now_ns() - t0) / 1e9;
	o->add_us = pctl(&calls, 50);
	rc = 0;
out:
	if (rc != 0)
		fprintf(stderr, "garq: out of memory\n");
	free(p.s);
	free(calls.ns);
	return rc;
}

struct batch {
	const struct trace *tr;
	size_t from, to;
	int64_t clock;
	struct outcome *o, saved;
	struct samples *calls;
	size_t ncalls;
};

/* Requests [from, to) at their period's clock, each the earliest start
 * in a window of 12 hours, moving nothing. */
static int
batch_fn(ar_txn *t, void *arg)
{
	struct batch *w = arg;
	struct ar_request rq;
	struct ar_answer a;
	int rc;

	/* ar_write may run it again: from the counts it began with. */
	*w->o = w->saved;
	w->calls->n = w->ncalls;
	memset(&rq, 0, sizeof(rq));
	rq.jobs = 1;
	rq.flags = AR_NOMOVE;
	for (size_t i = w->from; i < w->to; i++) {
		const struct req *q = &w->tr->r[i];
		uint64_t c0 = now_ns();

		rq.earliest = q->start > w->clock ? q->start : w->clock;
		rq.latest = q->start + LATEST;
		rq.duration = q->run;
		rq.nodes = q->nodes;
		if ((rc = ar_add(t, &rq, &a)) != 0)
			return rc;
		if (sample(w->calls, now_ns() - c0) != 0)
			return ENOMEM;
		w->o->asked++;
		if (a.status != AR_GRANTED)
			continue;
		w->o->granted++;
		w->o->work += (double)q->nodes * (double)q->run;
		w->o->held += (double)q->nodes * (double)(a.end - a.start);
		w->o->wait += (double)(a.start - q->start);
	}
	return 0;
}

static int
purge_fn(ar_txn *t, void *arg)
{
	(void)arg;
	return ar_purge(t, NULL, NULL);
}

static int
ar_replay(const struct trace *tr, int64_t slot, struct outcome *o)
{
	static char names[3][48];
	struct samples calls = { NULL, 0, 0 };
	struct ar_config cfg;
	struct batch w;
	ar_store *s = NULL;
	char *dir = scratch_dir("slots");
	uint64_t t0 = now_ns();
	int rc;

	memset(o, 0, sizeof(*o));
	snprintf(names[slot == 60 ? 0 : slot == 300 ? 1 : 2], sizeof(names[0]),
	    "ar, %lld-minute slots", (long long)slot / 60);
	o->name = names[slot == 60 ? 0 : slot == 300 ? 1 : 2];
	o->slot = slot;
	if (dir == NULL)
		return -1;
	ar_config_default(&cfg);
	cfg.slot = slot;
	cfg.flags = AR_SIMULATED;       /* a replay of the trace's clock */
	if ((rc = ar_create(dir, &cfg, tr->pclock[0])) != 0 ||
	    (rc = ar_open(dir, 0, &s)) != 0)
		goto fail;
	w.tr = tr;
	w.o = o;
	w.calls = &calls;
	for (size_t k = 0; k < tr->np; k++) {
		w.clock = tr->pclock[k];
		if ((rc = ar_write(s, AR_FREEING, w.clock, purge_fn, NULL)) != 0)
			goto fail;
		for (w.from = tr->pfirst[k]; w.from < tr->pfirst[k + 1];
		    w.from = w.to) {
			w.to = w.from + GROUP < tr->pfirst[k + 1] ?
			    w.from + GROUP : tr->pfirst[k + 1];
			w.saved = *o;
			w.ncalls = calls.n;
			if ((rc = ar_write(s, 0, w.clock, batch_fn, &w)) != 0)
				goto fail;
		}
	}
	o->wall = (double)(now_ns() - t0) / 1e9;
	o->add_us = pctl(&calls, 50);
	free(calls.ns);
	ar_close(s);
	return 0;
fail:
	fprintf(stderr, "garq: ar at %lld s slots: %s\n", (long long)slot,
	    ar_strerror(rc));
	free(calls.ns);
	ar_close(s);
	return -1;
}

/* --- the report ----------------------------------------------------------- */

static void
print_outcomes(const struct trace *tr, const struct outcome *o, size_t n)
{
	double span = (double)(tr->pclock[tr->np - 1] + PERIOD -
	    tr->pclock[0]) * NODES;

	printf("\n  %-24s %9s %8s %11s %10s %9s %9s %9s %9s %9s\n", "",
	    "granted", "accepted", "utilisation", "held, idle", "mean wait",
	    "add p50", "replay", "ring", "x exact");
	printf("  %-24s %9s %8s %11s %10s %9s %9s %9s %9s %9s\n", "model", "",
	    "%", "%", "%", "min", "us", "s", "KiB", "work");
	for (size_t i = 0; i < n; i++) {
		char ring[16] = "-";

		if (o[i].slot > 0)
			snprintf(ring, sizeof(ring), "%.0f", (double)(HORIZON /
			    o[i].slot) * sizeof(uint32_t) / 1024);
		printf("  %-24s %9zu %8.2f %11.2f %10.2f %9.1f %9.3f %9.2f %9s "
		    "%9.4f\n", o[i].name, o[i].granted, 100.0 *
		    (double)o[i].granted / (double)o[i].asked, 100.0 * o[i].work /
		    span, 100.0 * (o[i].held - o[i].work) / span, o[i].granted ?
		    o[i].wait / (double)o[i].granted / 60 : 0, o[i].add_us,
		    o[i].wall, ring, o[i].work / o[0].work);
	}
}

/* The exact model and ar at each slot length on one trace. */
static int
slots_trace(const struct trace *tr, void *arg)
{
	static const int64_t slots[] = { 60, 300, 900 };
	struct outcome o[4];

	(void)arg;
	printf("\n  %s: %zu requests in %zu periods\n", tr->name, tr->n,
	    tr->np);
	if (exact_replay(tr, &o[0]) != 0)
		return -1;
	for (size_t k = 0; k < 3; k++)
		if (ar_replay(tr, slots[k], &o[k + 1]) != 0)
			return -1;
	print_outcomes(tr, o, 4);
	fflush(stdout);
	return 0;
}

int
slots_report(const char *trace_dir)
{
	static const struct trace_run runs[] = {
		{ "SDSC-BLUE-2000-4.2-cln.swf.gz", "SDSC-BLUE-2000", 0 },
		{ "LLNL-Thunder-2007-1.1-cln.swf.gz", "LLNL-Thunder-2007", 0 },
		{ "LCG-2005-1.swf.gz", "LCG-2005", 0 },
	};

	printf("\n== The price of slots: 64 nodes, a 30-day horizon; each "
	    "request in its original order at\n   the earliest start within "
	    "12 h of its asked one where its nodes are free for its run\n   "
	    "time (the trace's, from 1 s; not rounded to 5 minutes), moving "
	    "nothing; else refused\n");
	if (each_trace(trace_dir, runs, 0, quick ? 1 : sizeof(runs) /
	    sizeof(runs[0]), quick ? 50000 : 0, slots_trace, NULL) < 0)
		return -1;
	printf("\n  utilisation: node-time run, as the trace says, over the "
	    "node-time of the periods replayed;\n  held, idle: node-time "
	    "reserved past the run (its rounding up to whole slots); wait:\n  "
	    "granted start less asked start; ring: 4 bytes a slot over the "
	    "horizon\n");
	return 0;
}
