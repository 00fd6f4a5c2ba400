/*
 * replay.c - what the benchmarks that replay traces share (bench and
 * garq): the clock, samples of calls, the scratch directories, the
 * operation mix of one request, a replay period by period, and the
 * check that a backend grants what the floor grants.
 */
#include <sys/stat.h>
#include <sys/utsname.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

int quick;                      /* BENCH_QUICK: 0 or 1 */
const char *pg_server;

static char root[] = "/tmp/ar-bench.XXXXXX";
#define SCRATCH_MAX 80          /* directories under it */
static int have_root;

uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int
sample(struct samples *s, uint64_t ns)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 4096;
		uint64_t *p = realloc(s->ns, cap * sizeof(*p));

		if (p == NULL) {
			fprintf(stderr, "bench: out of memory\n");
			return -1;
		}
		s->ns = p;
		s->cap = cap;
	}
	s->ns[s->n++] = ns;
	return 0;
}

int64_t
slots_up(int64_t t, int64_t slot)
{
	return t / slot + (t % slot > 0);
}

int64_t
slots_down(int64_t t, int64_t slot)
{
	return t / slot - (t % slot < 0);
}

static void
cleanup(void)
{
	char *rm[] = { "/bin/rm", "-rf", root, NULL };

	if (have_root && spawn_wait(rm, NULL, NULL, 0) != 0)
		fprintf(stderr, "bench: could not remove %s\n", root);
}

/* A new directory for one store, under the run's scratch directory. */
char *
scratch_dir(const char *name)
{
	static char path[SCRATCH_MAX][sizeof(root) + 64];
	static int n;

	if (!have_root) {
		if (mkdtemp(root) == NULL) {
			perror("bench: mkdtemp");
			return NULL;
		}
		have_root = 1;
		atexit(cleanup);
	}
	if (n == SCRATCH_MAX) {
		fprintf(stderr, "bench: too many scratch directories\n");
		return NULL;
	}
	snprintf(path[n], sizeof(path[n]), "%s/%02d-%s", root, n, name);
	if (mkdir(path[n], 0700) != 0) {
		perror(path[n]);
		return NULL;
	}
	return path[n++];
}

/* Does where name a PostgreSQL store rather than a directory? */
int
is_uri(const char *where)
{
	return strncmp(where, "postgresql://", 13) == 0 ||
	    strncmp(where, "postgres://", 11) == 0;
}

/*
 * The URI of a new store on pg_server: its name has the process's id,
 * so that benches sharing a server never meet.
 */
char *
pg_store(const char *name)
{
	static char uri[16][4200];
	static int n;
	int len;

	if (n == 16) {
		fprintf(stderr, "bench: too many PostgreSQL stores\n");
		return NULL;
	}
	len = snprintf(uri[n], sizeof(uri[n]), "%s%cstore=bench-%ld-%02d-%s",
	    pg_server, strchr(pg_server, '?') != NULL ? '&' : '?',
	    (long)getpid(), n, name);
	if (len < 0 || (size_t)len >= sizeof(uri[n])) {
		fprintf(stderr, "bench: AR_BENCH_PG is too long\n");
		return NULL;
	}
	return uri[n++];
}

/*
 * The operation mix for request i: search at its start; if it fits, add
 * there; if the slots are full, suggest (12 h at most) and add there if
 * found; beyond the horizon it is refused.
 */
int
admit(const struct backend *b, const struct trace *tr, size_t i,
    struct stats *st)
{
	const struct req *q = &tr->r[i];
	int64_t at = -1, granted = -1;
	uint64_t t0 = now_ns(), t1;
	enum fit f;
	int rc;

	if ((rc = b->search(b->ctx, q, &f)) != 0)
		return rc;
	t1 = now_ns();
	if (sample(&st->op[OP_SEARCH], t1 - t0) != 0)
		return -1;
	if (f == FIT)
		at = slots_up(q->start, SLOT) * SLOT;
	else if (f == FULL) {
		if ((rc = b->suggest(b->ctx, q, &at)) != 0)
			return rc;
		t0 = t1;
		t1 = now_ns();
		if (sample(&st->op[OP_SUGGEST], t1 - t0) != 0)
			return -1;
	}
	if (at >= 0) {
		if ((rc = b->add(b->ctx, q, at, &granted)) != 0)
			return rc;
		if (sample(&st->op[OP_ADD], now_ns() - t1) != 0)
			return -1;
	}
	st->granted[i] = granted;
	st->ngranted += granted >= 0;
	st->done = i + 1;
	return 0;
}

/*
 * Replay the first limit requests of tr (0: all) through b, stopping
 * early once budget seconds (0: no limit) have passed.
 */
int
replay(const struct backend *b, const struct trace *tr, size_t limit,
    double budget, struct stats *st)
{
	size_t n = limit != 0 && limit < tr->n ? limit : tr->n;
	uint64_t t0 = now_ns(), stop = t0 + (uint64_t)(budget * 1e9);

	memset(st, 0, sizeof(*st));
	if ((st->granted = malloc((n ? n : 1) * sizeof(*st->granted))) == NULL) {
		fprintf(stderr, "bench: out of memory\n");
		return -1;
	}
	for (size_t p = 0; p < tr->np && tr->pfirst[p] < n; p++) {
		size_t end = tr->pfirst[p + 1] < n ? tr->pfirst[p + 1] : n;

		if (b->purge(b, tr->pclock[p], st) != 0 || (b->period != NULL &&
		    b->period(b, tr->pclock[p], 0) != 0))
			return -1;
		/* In pieces, to look at the time between them. */
		for (size_t i = tr->pfirst[p]; i < end; i += 1000) {
			if (budget > 0 && now_ns() > stop)
				goto out;
			if (b->run(b, tr, i, i + 1000 < end ? i + 1000 : end,
			    tr->pclock[p], st) != 0)
				return -1;
		}
		if (b->period != NULL && b->period(b, tr->pclock[p], 1) != 0)
			return -1;
	}
out:
	st->wall = (double)(now_ns() - t0) / 1e9;
	return 0;
}

int
admit_each(const struct backend *b, const struct trace *tr, size_t from,
    size_t to, int64_t clock, struct stats *st)
{
	int rc;

	(void)clock;
	for (size_t i = from; i < to; i++)
		if ((rc = admit(b, tr, i, st)) != 0)
			return rc;
	return 0;
}

void
stats_free(struct stats *st)
{
	for (int k = 0; k < NOPS; k++)
		free(st->op[k].ns);
	free(st->granted);
	memset(st, 0, sizeof(*st));
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The pct-th percentile in microseconds, or -1 without samples. */
double
pctl(struct samples *s, int pct)
{
	size_t i;

	if (s->n == 0)
		return -1;
	qsort(s->ns, s->n, sizeof(*s->ns), cmp_u64);
	i = s->n * (size_t)pct / 100;
	return (double)s->ns[i < s->n ? i : s->n - 1] / 1e3;
}

/* What admitting one request costs: p50 search + suggest + add, in
 * microseconds. */
double
admission_p50(struct stats *st)
{
	double sum = 0;

	for (int k = OP_SEARCH; k <= OP_ADD; k++)
		sum += pctl(&st->op[k], 50);
	return sum;
}

/* FNV-1a over the (request index, granted start) pairs of n requests. */
static uint64_t
grant_hash(const struct trace *tr, const struct stats *st, size_t n,
    size_t *granted)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	*granted = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t v[2] = { tr->r[i].idx, (uint64_t)st->granted[i] };
		const unsigned char *p = (const unsigned char *)v;

		if (st->granted[i] < 0)
			continue;
		++*granted;
		for (size_t k = 0; k < sizeof(v); k++)
			h = (h ^ p[k]) * 0x100000001b3ULL;
	}
	return h;
}

/* Does st grant what the floor granted, over the requests st replayed? */
int
same_grants(const struct trace *tr, const struct stats *fl,
    const struct stats *st, const char *name)
{
	size_t n = st->done, gf, gs;
	uint64_t hf = grant_hash(tr, fl, n, &gf), hs = grant_hash(tr, st, n, &gs);

	if (gf == gs && hf == hs && n <= fl->done) {
		printf("  check: %-26s %7zu requests, %7zu granted, hash %016llx"
		    " = the floor's\n", name, n, gs, (unsigned long long)hs);
		return 0;
	}
	printf("  MISMATCH: %s: %zu granted (hash %016llx), the floor %zu "
	    "(hash %016llx) over the first %zu requests\n", name, gs,
	    (unsigned long long)hs, gf, (unsigned long long)hf, n);
	for (size_t i = 0; i < n; i++)
		if (fl->granted[i] != st->granted[i]) {
			const struct req *q = &tr->r[i];
			char a[40] = "refused", b[40] = "refused";

			if (fl->granted[i] >= 0)
				snprintf(a, sizeof(a), "granted @%lld",
				    (long long)fl->granted[i]);
			if (st->granted[i] >= 0)
				snprintf(b, sizeof(b), "granted @%lld",
				    (long long)st->granted[i]);
			printf("  first difference: request %zu (trace data row "
			    "%u): start=@%lld duration=%llds nodes=%u: floor "
			    "%s, %s %s\n", i, q->idx + 1, (long long)q->start,
			    (long long)q->dur, q->nodes, a, name, b);
			break;
		}
	return -1;
}

/* Keep in best whichever of best and again replayed faster (run 0: again). */
void
keep_faster(struct stats *best, struct stats *again, int run)
{
	if (run == 0 || again->wall < best->wall) {
		if (run > 0)
			stats_free(best);
		*best = *again;
	} else
		stats_free(again);
}

double
timer_overhead(void)
{
	uint64_t t[1001];

	for (int i = 0; i < 1001; i++) {
		uint64_t t0 = now_ns();

		t[i] = now_ns() - t0;
	}
	qsort(t, 1001, sizeof(*t), cmp_u64);
	return (double)t[500];
}

/* A time in microseconds, in a column of 8; - for none. */
void
us(double v)
{
	if (v < 0)
		printf(" %7s", "-");
	else if (v < 10)
		printf(" %7.3f", v);
	else if (v < 1000)
		printf(" %7.1f", v);
	else
		printf(" %7.0f", v);
}

/* v as a multiple of floor, in a column of 8; blank for none. */
void
ratio(double v, double floor)
{
	char buf[32];

	if (v < 0 || floor <= 0)
		printf(" %7s", "");
	else {
		snprintf(buf, sizeof(buf), v / floor < 9.95 ? "%.1fx" : "%.0fx",
		    v / floor);
		printf(" %7s", buf);
	}
}

int
each_trace(const char *dir, const struct trace_run *runs, size_t from,
    size_t to, size_t max, int (*fn)(const struct trace *, void *),
    void *arg)
{
	struct req *r = NULL;
	struct stat sb;
	size_t nr = 0;
	int status = 0, nowait = 0, rc;

	for (size_t i = from; i < to; i++) {
		struct trace tr;
		char path[4200];

		if (i == from || strcmp(runs[i].file, runs[i - 1].file) != 0) {
			free(r);
			r = NULL;
			snprintf(path, sizeof(path), "%s/%s", dir, runs[i].file);
			if (stat(path, &sb) != 0) {
				printf("\n== %s: %s missing: skipped\n",
				    runs[i].name, path);
				continue;
			}
			if (trace_load(path, max, &r, &nr, &nowait) != 0)
				return -1;
			if (nr == 0)
				printf("\n== %s: no requests in %s: skipped\n",
				    runs[i].name, path);
		}
		if (r == NULL || nr == 0)
			continue;
		if (trace_order(&tr, r, nr, runs[i].shuffle) != 0) {
			free(r);
			return -1;
		}
		tr.name = runs[i].name;
		tr.nowait = nowait;
		rc = tr.np > 0 ? fn(&tr, arg) : 0;
		trace_free(&tr);
		if (rc < 0) {
			free(r);
			return -1;
		}
		status |= rc;
	}
	free(r);
	return status;
}

int
bench_begin(const char *prog, const char *dir)
{
	const char *e = getenv("BENCH_QUICK");
	struct stat sb;

	quick = e != NULL && *e != '\0' && strcmp(e, "0") != 0;
	if (stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode))
		return 0;
	printf("%s: no traces in %s: skipped\n", prog, dir);
	return 1;
}

void
print_machine(void)
{
	struct utsname u;

	if (uname(&u) != 0)
		memset(&u, 0, sizeof(u));
	printf("%s %s, %ld CPUs; timer (CLOCK_MONOTONIC) overhead %.0f ns per "
	    "timed call\n", u.sysname, u.machine, sysconf(_SC_NPROCESSORS_ONLN),
	    timer_overhead());
}
