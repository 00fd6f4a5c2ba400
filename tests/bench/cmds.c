/*
 * cmds.c - ar's commands as an operator would use them: a trace replayed
 * through pipelines, and the cost of one invocation.
 */
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ar.h"
#include "bench.h"

extern char **environ;

/* Wait for pid; 0 if it exited with a status of at most ok. */
static int
reap(pid_t pid, const char *name, int ok)
{
	int status;

	while (waitpid(pid, &status, 0) == -1)
		if (errno != EINTR) {
			perror("bench: waitpid");
			return -1;
		}
	if (WIFEXITED(status) && WEXITSTATUS(status) <= ok)
		return 0;
	fprintf(stderr, "bench: %s: %s %d\n", name, WIFEXITED(status) ?
	    "exit status" : "killed by signal", WIFEXITED(status) ?
	    WEXITSTATUS(status) : WTERMSIG(status));
	return -1;
}

/* Start argv with stdin from fd in and stdout to fd out (-1: inherit). */
static int
start(char *const argv[], int in, int out, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	int rc;

	if ((rc = posix_spawn_file_actions_init(&fa)) != 0)
		goto fail;
	if ((in != -1 && (rc = posix_spawn_file_actions_adddup2(&fa, in, 0))
	    != 0) ||
	    (out != -1 && (rc = posix_spawn_file_actions_adddup2(&fa, out, 1))
	    != 0)) {
		posix_spawn_file_actions_destroy(&fa);
		goto fail;
	}
	rc = posix_spawn(pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc == 0)
		return 0;
fail:
	fprintf(stderr, "bench: cannot run %s: %s\n", argv[0], strerror(rc));
	return -1;
}

/* Run argv with stdin from path in and stdout to path out (NULL:
 * /dev/null); 0 if it exited with a status of at most ok. */
int
spawn_wait(char *const argv[], const char *in, const char *out, int ok)
{
	int fin, fout, rc = -1;
	pid_t pid;

	if ((fin = open(in ? in : "/dev/null", O_RDONLY | O_CLOEXEC)) == -1) {
		perror(in);
		return -1;
	}
	if ((fout = open(out ? out : "/dev/null", O_WRONLY | O_CREAT |
	    O_TRUNC | O_CLOEXEC, 0600)) == -1) {
		perror(out);
		close(fin);
		return -1;
	}
	if (start(argv, fin, fout, &pid) == 0)
		rc = reap(pid, argv[0], ok);
	close(fin);
	close(fout);
	return rc;
}

/* Seconds since the epoch of an output time, 2000-01-02T03:04:05Z. */
static int64_t
out_time(const char *p)
{
	struct tm tm;

	memset(&tm, 0, sizeof(tm));
	if (sscanf(p, "%4d-%2d-%2dT%2d:%2d:%2dZ", &tm.tm_year, &tm.tm_mon,
	    &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec) != 6)
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return (int64_t)timegm(&tm);
}

/*
 * Read ar-add's output for requests from .. to of tr, one record per
 * request in order, into st->granted: the granted start, or -1.
 */
static int
outcome(const char *path, size_t from, size_t to, struct stats *st)
{
	char line[4096], *p;
	size_t i = from;
	FILE *in;
	int rc = 0;

	if ((in = fopen(path, "r")) == NULL) {
		perror(path);
		return -1;
	}
	while (rc == 0 && fgets(line, sizeof(line), in) != NULL) {
		if (i == to) {
			rc = -1;
			break;
		}
		st->granted[i] = -1;
		if (strstr(line, " status=granted") != NULL) {
			p = strncmp(line, "start=", 6) == 0 ? line :
			    strstr(line, " start=");
			if (p == NULL || (st->granted[i] = out_time(p +
			    (*p == ' ') + 6)) < 0)
				rc = -1;
			st->ngranted++;
		} else if (strstr(line, " status=refused") == NULL)
			rc = -1;
		i++;
	}
	if (ferror(in) || i != to)
		rc = -1;
	fclose(in);
	if (rc != 0)
		fprintf(stderr, "bench: %s: not one granted or refused record "
		    "per request\n", path);
	return rc;
}

/* The requests of period p as ar-add reads them, in file path. */
static int
write_period(const struct trace *tr, size_t p, const char *path)
{
	FILE *f;

	if ((f = fopen(path, "w")) == NULL) {
		perror(path);
		return -1;
	}
	for (size_t i = tr->pfirst[p]; i < tr->pfirst[p + 1]; i++)
		fprintf(f, "start=@%lld latest=@%lld duration=%llds nodes=%u\n",
		    (long long)tr->r[i].start, (long long)(slots_up(tr->r[i].start,
		    SLOT) * SLOT + SUGGEST_LIMIT), (long long)tr->r[i].dur,
		    tr->r[i].nodes);
	if (fclose(f) != 0) {
		perror(path);
		return -1;
	}
	return 0;
}

/*
 * Per period, with the period's clock: ar-del -q --purge, then the
 * period's requests through one ar-add --no-move, each asking for its
 * start or, failing that, the first start up to SUGGEST_LIMIT later: the
 * other backends' search, then suggest, then add, as one request.  A
 * record printed as granted has been committed.  The requests are written
 * as text before the clock starts, as the other backends get the trace
 * parsed: what is timed is the commands and reading their output.
 */
int
pipeline_replay(const struct trace *tr, const char *bin, const char *dir,
    struct stats *st)
{
	char addp[4200], delp[4200], store[4200], now[32];
	char reqf[4200], out[4200];
	char *add[] = { addp, "--store", store, "--now", now, "--no-move",
	    NULL };
	char *del[] = { delp, "--store", store, "--now", now, "--purge", "-q",
	    NULL };
	struct ar_config cfg;
	uint64_t t0;
	int rc;

	snprintf(addp, sizeof(addp), "%s/ar-add", bin);
	snprintf(delp, sizeof(delp), "%s/ar-del", bin);
	snprintf(store, sizeof(store), "%s/store", dir);
	snprintf(out, sizeof(out), "%s/added", dir);
	memset(st, 0, sizeof(*st));
	if ((st->granted = malloc((tr->n ? tr->n : 1) *
	    sizeof(*st->granted))) == NULL) {
		fprintf(stderr, "bench: out of memory\n");
		return -1;
	}
	ar_config_default(&cfg);
	cfg.flags = AR_SIMULATED;
	if (tr->np > 0 && (rc = ar_create(store, &cfg, tr->pclock[0])) != 0) {
		fprintf(stderr, "bench: %s: %s\n", store, ar_strerror(rc));
		return -1;
	}
	for (size_t p = 0; p < tr->np; p++) {
		snprintf(reqf, sizeof(reqf), "%s/requests.%zu", dir, p);
		if (write_period(tr, p, reqf) != 0)
			return -1;
	}
	t0 = now_ns();
	for (size_t p = 0; p < tr->np; p++) {
		snprintf(now, sizeof(now), "@%lld", (long long)tr->pclock[p]);
		snprintf(reqf, sizeof(reqf), "%s/requests.%zu", dir, p);
		if (spawn_wait(del, NULL, NULL, 0) != 0 ||
		    spawn_wait(add, reqf, out, 1) != 0 ||
		    outcome(out, tr->pfirst[p], tr->pfirst[p + 1], st) != 0)
			return -1;
		st->done = tr->pfirst[p + 1];
	}
	st->wall = (double)(now_ns() - t0) / 1e9;
	return 0;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Median and 90th percentile wall time of runs runs of argv, in ms; if
 * start is not NULL, run i asks for a start i hours after at.
 */
static int
time_runs(char *const argv[], int runs, char *start, int64_t at,
    double *p50, double *p90)
{
	uint64_t *t;

	if ((t = malloc((size_t)runs * sizeof(*t))) == NULL)
		return -1;
	for (int i = 0; i < runs; i++) {
		uint64_t t0;

		if (start != NULL)
			snprintf(start, 40, "start=@%lld",
			    (long long)at + 3600LL * i);
		t0 = now_ns();

		if (spawn_wait(argv, NULL, NULL, 1) != 0) {
			free(t);
			return -1;
		}
		t[i] = now_ns() - t0;
	}
	qsort(t, (size_t)runs, sizeof(*t), cmp_u64);
	*p50 = (double)t[runs / 2] / 1e6;
	*p90 = (double)t[runs * 9 / 10] / 1e6;
	free(t);
	return 0;
}

/*
 * One invocation, started with posix_spawn and reaped with waitpid:
 * ar-search on the replayed store, ar-add on a scratch store (and on one
 * on pg_server, if any), and a program that does nothing.
 */
int
invocation_report(const char *bin, const char *truebin, const char *store,
    int64_t clock)
{
	char search[4200], add[4200], scratch[4200], now[32], st[40], at[40];
	char *sargv[] = { search, "--store", (char *)store, "--now", now, st,
	    "duration=1h", "nodes=1", NULL };
	char *aargv[] = { add, "--store", scratch, "--now", now, at,
	    "duration=1h", "nodes=1", NULL };
	char *targv[] = { (char *)truebin, NULL };
	char *pargv[] = { add, "--store", NULL, "--now", now, at,
	    "duration=1h", "nodes=1", NULL };
	struct ar_config cfg;
	double s50, s90, a50, a90, t50, t90, p50 = 0, p90 = 0;
	int runs = quick ? 50 : 200, rc;
	char *dir;

	if ((dir = scratch_dir("invocation")) == NULL)
		return -1;
	snprintf(search, sizeof(search), "%s/ar-search", bin);
	snprintf(add, sizeof(add), "%s/ar-add", bin);
	snprintf(scratch, sizeof(scratch), "%s/store", dir);
	snprintf(now, sizeof(now), "@%lld", (long long)clock);
	snprintf(st, sizeof(st), "start=@%lld", (long long)clock + 86400);
	ar_config_default(&cfg);
	cfg.flags = AR_SIMULATED;
	if (pg_server != NULL && (pargv[2] = pg_store("invocation")) == NULL)
		return -1;
	if ((rc = ar_create(scratch, &cfg, clock)) != 0 || (pargv[2] != NULL &&
	    (rc = ar_create(pargv[2], &cfg, clock)) != 0)) {
		fprintf(stderr, "bench: scratch store: %s\n", ar_strerror(rc));
		return -1;
	}
	if (time_runs(targv, runs, NULL, 0, &t50, &t90) != 0 ||
	    time_runs(sargv, runs, NULL, 0, &s50, &s90) != 0 ||
	    time_runs(aargv, runs, at, clock + 3600, &a50, &a90) != 0 ||
	    (pargv[2] != NULL &&
	    time_runs(pargv, runs, at, clock + 3600, &p50, &p90) != 0))
		return -1;
	printf("\n== One invocation: wall time from posix_spawn to waitpid, "
	    "%d runs each\n\n", runs);
	printf("  %-46s %9s %9s %12s\n", "command", "p50 ms", "p90 ms",
	    "p50 - true");
	printf("  %-46s %9.3f %9.3f %12s\n", "true (int main(void){return 0;})",
	    t50, t90, "-");
	printf("  %-46s %9.3f %9.3f %12.3f\n",
	    "ar-search start=... duration=1h nodes=1", s50, s90, s50 - t50);
	printf("  %-46s %9.3f %9.3f %12.3f\n",
	    "ar-add (scratch store, 1 commit)", a50, a90, a50 - t50);
	if (pargv[2] != NULL)
		printf("  %-46s %9.3f %9.3f %12.3f\n",
		    "ar-add (PostgreSQL store: connect, 1 commit)", p50, p90,
		    p50 - t50);
	printf("  (ar-search reads the store replayed above; each ar-add grants "
	    "one 1-hour, 1-node\n   reservation, an hour after the previous "
	    "one, and commits it%s)\n", pargv[2] != NULL ? ";\n   on "
	    "PostgreSQL it connects first, to AR_BENCH_PG's server" : "");
	return 0;
}
