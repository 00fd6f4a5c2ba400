/*
 * trace.c - a Standard Workload Format trace read job by job (swf_read,
 * which make compare reads too); requests from it, prepared as in GarQ
 * section 5.1, and their replay order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define DUR_MAX (28 * 86400)

int
swf_read(const char *path, int (*row)(const double *f, size_t idx,
    const struct swf_header *h, void *arg), void *arg)
{
	char cmd[4200], line[4096];
	struct swf_header h = { -1, -1, -1 };
	size_t idx = 0;
	double f[SWF_FIELDS];
	FILE *in;
	int rc, wanted = 0;

	if (snprintf(cmd, sizeof(cmd), "gzip -dc '%s'", path) >=
	    (int)sizeof(cmd) || (in = popen(cmd, "r")) == NULL) {
		fprintf(stderr, "bench: cannot read %s\n", path);
		return -1;
	}
	/* The whole file is read even when row wants no more, so gzip
	 * ends well. */
	while (fgets(line, sizeof(line), in) != NULL) {
		char *s = line, *e;
		int k;

		if (line[0] == ';') {
			if ((s = strstr(line, "UnixStartTime:")) != NULL)
				h.start = strtoll(s + 14, NULL, 10);
			else if ((s = strstr(line, "MaxNodes:")) != NULL)
				h.nodes = strtol(s + 9, NULL, 10);
			else if ((s = strstr(line, "MaxProcs:")) != NULL)
				h.procs = strtol(s + 9, NULL, 10);
			continue;
		}
		if (wanted != 0)
			continue;
		for (k = 0; k < SWF_FIELDS; k++, s = e) {
			f[k] = strtod(s, &e);       /* some fields are decimals */
			if (e == s)
				break;
		}
		if (k == 0)
			continue;               /* blank line */
		if (k < SWF_FIELDS || h.start < 0) {
			fprintf(stderr, "bench: %s: bad line %zu%s\n", path,
			    idx + 1, h.start < 0 ? " (no UnixStartTime)" : "");
			goto fail;
		}
		if ((wanted = row(f, idx++, &h, arg)) < 0)
			goto fail;
	}
	if ((rc = pclose(in)) != 0) {
		fprintf(stderr, "bench: gzip -dc %s failed (status %d)\n", path,
		    rc);
		return -1;
	}
	return 0;
fail:
	pclose(in);
	return -1;
}

/* What trace_load gathers. */
struct loading {
	struct req *r;
	size_t n, cap, max, waits;
};

/* One job of the trace as a request: 0, 1 when max are there, -1. */
static int
load_row(const double *f, size_t idx, const struct swf_header *h, void *arg)
{
	struct loading *l = arg;
	struct req *p;
	double nodes = f[4] > 0 ? f[4] : f[7];

	if (f[3] <= 0 || f[1] < 0 || f[2] < -1)
		return 0;
	l->waits += f[2] >= 0;
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 65536;
		if ((p = realloc(l->r, l->cap * sizeof(*p))) == NULL) {
			fprintf(stderr, "bench: out of memory\n");
			return -1;
		}
		l->r = p;
	}
	p = &l->r[l->n++];
	p->start = h->start + (int64_t)f[1] + (f[2] < 0 ? 0 : (int64_t)f[2]);
	p->nowait = f[2] < 0;
	p->dur = f[3] < SLOT ? SLOT : f[3] > DUR_MAX ? DUR_MAX : (int64_t)f[3];
	p->run = f[3] < 1 ? 1 : f[3] > DUR_MAX ? DUR_MAX : (int64_t)f[3];
	p->nodes = nodes < 1 ? 1 : nodes > NODES ? NODES : (uint32_t)nodes;
	p->idx = (uint32_t)idx;
	return l->max != 0 && l->n == l->max;
}

/*
 * Read at most max requests (0: all) from the gzipped trace at path.
 * start = UnixStartTime + submit + wait; duration = run time clamped to
 * [300 s, 28 d] (GarQ's), run = run time clamped to [1 s, 28 d] (the
 * exact model's); nodes = allocated, else requested, clamped to [1, 64].
 * Jobs with no run time or a negative submit or wait are skipped, except
 * that in a trace without any wait time (LLNL-Thunder has -1 everywhere)
 * the wait counts as 0; *nowait says so.
 */
int
trace_load(const char *path, size_t max, struct req **rp, size_t *np,
    int *nowait)
{
	struct loading l = { NULL, 0, 0, max, 0 };
	size_t j = 0;

	if (swf_read(path, load_row, &l) != 0) {
		free(l.r);
		return -1;
	}
	/* A trace that has wait times keeps only the jobs that have one. */
	for (size_t i = 0; i < l.n; i++)
		if (l.waits == 0 || !l.r[i].nowait)
			l.r[j++] = l.r[i];
	*rp = l.r;
	*np = j;
	*nowait = l.waits == 0;
	return 0;
}

/* xorshift64*, seeded: the shuffle is the same on every run. */
uint64_t
bench_rand(uint64_t *x)
{
	*x ^= *x >> 12;
	*x ^= *x << 25;
	*x ^= *x >> 27;
	return *x * 2685821657736338717ULL;
}

/* Requests r[from .. to) in a random order drawn from *seed. */
static void
permute(struct req *r, size_t from, size_t to, uint64_t *seed)
{
	for (size_t j = to - 1; j > from; j--) {
		size_t k = from + bench_rand(seed) % (j - from + 1);
		struct req t = r[j];

		r[j] = r[k];
		r[k] = t;
	}
}

/*
 * Put requests r[0 .. n) in replay order: grouped by 2-week period of
 * their start (periods counted from the first start), in trace order
 * inside a period, or randomly permuted inside it if shuffle.
 */
int
trace_order(struct trace *tr, const struct req *r, size_t n, int shuffle)
{
	int64_t origin = INT64_MAX;
	size_t nper, *count = NULL, i, p;
	uint64_t seed = 0x9e3779b97f4a7c15ULL;

	memset(tr, 0, sizeof(*tr));
	tr->order = shuffle ? "shuffled" : "original";
	for (i = 0; i < n; i++)
		if (r[i].start < origin)
			origin = r[i].start;
	for (nper = 1, i = 0; i < n; i++)
		if ((size_t)((r[i].start - origin) / PERIOD) + 1 > nper)
			nper = (size_t)((r[i].start - origin) / PERIOD) + 1;
	if ((count = calloc(nper + 1, sizeof(*count))) == NULL ||
	    (tr->r = malloc((n ? n : 1) * sizeof(*tr->r))) == NULL ||
	    (tr->pfirst = malloc((nper + 1) * sizeof(*tr->pfirst))) == NULL ||
	    (tr->pclock = malloc((nper + 1) * sizeof(*tr->pclock))) == NULL) {
		free(count);
		trace_free(tr);
		fprintf(stderr, "bench: out of memory\n");
		return -1;
	}
	/* A stable counting sort by period. */
	for (i = 0; i < n; i++)
		count[(r[i].start - origin) / PERIOD + 1]++;
	for (p = 1; p <= nper; p++)
		count[p] += count[p - 1];
	for (i = 0; i < n; i++)
		tr->r[count[(r[i].start - origin) / PERIOD]++] = r[i];
	/* count[p] is now the end of period p. */
	for (p = 0, i = 0; p < nper; i = count[p++]) {
		if (i == count[p])
			continue;
		if (shuffle)
			permute(tr->r, i, count[p], &seed);
		tr->pfirst[tr->np] = i;
		tr->pclock[tr->np++] = origin + (int64_t)p * PERIOD;
	}
	tr->n = n;
	tr->pfirst[tr->np] = tr->n;
	free(count);
	return 0;
}

int
trace_reorder(const struct trace *tr, uint64_t seed, struct trace *out)
{
	size_t n = tr->n ? tr->n : 1;

	*out = *tr;
	out->order = "shuffled";
	out->r = malloc(n * sizeof(*out->r));
	out->pfirst = malloc((tr->np + 1) * sizeof(*out->pfirst));
	out->pclock = malloc((tr->np + 1) * sizeof(*out->pclock));
	if (out->r == NULL || out->pfirst == NULL || out->pclock == NULL) {
		trace_free(out);
		fprintf(stderr, "bench: out of memory\n");
		return -1;
	}
	memcpy(out->r, tr->r, tr->n * sizeof(*out->r));
	memcpy(out->pfirst, tr->pfirst, (tr->np + 1) * sizeof(*out->pfirst));
	memcpy(out->pclock, tr->pclock, (tr->np + 1) * sizeof(*out->pclock));
	for (size_t p = 0; p < tr->np; p++)
		if (tr->pfirst[p] < tr->pfirst[p + 1])
			permute(out->r, tr->pfirst[p], tr->pfirst[p + 1], &seed);
	return 0;
}

void
trace_free(struct trace *tr)
{
	free(tr->r);
	free(tr->pfirst);
	free(tr->pclock);
	tr->r = NULL;
	tr->pfirst = NULL;
	tr->pclock = NULL;
}
