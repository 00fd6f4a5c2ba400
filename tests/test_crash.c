/*
 * test_crash.c - kill concurrent writers at random moments and check that
 * nothing they reported is lost and nothing is half written.
 *
 *   test_crash BINDIR [ROUNDS [SEED [DELAY_MS [classes|partitions]]]]
 *
 * Each round starts, on one store, two ar-add streams of random requests
 * (rigid and flexible, parametric and MPI, a few naming their hosts, half
 * of those maintenance that wins with --force, cancelling what it
 * displaces, a few holds, a few split in time, ORR or TARR, some of two
 * copies, a few moldable, at one of three sizes or of three numbers of
 * copies, and a few use reports on what earlier
 * rounds granted), one ar-del stream cancelling what earlier rounds
 * granted and releasing some holds, one ar-del --purge, one ar-map --plan, one ar-add --modify
 * making earlier grants longer or shorter, one ar-add --confirm of
 * earlier holds (some expired by then) and one ar-add --modify of a
 * few pieces of earlier split requests (each admitted again as a whole
 * request, in new pieces, or not at all), started in turn from a random
 * one, and a hosts writer: ar-report --drain (some --force), --undrain,
 * --add-hosts (some refused) and --remove, one after another until the
 * kill (first of all in half of the rounds), all with the clock a little
 * later than the round before; the store has a reclaim policy (a grace
 * of 10 minutes), so that the writers also reclaim, as they begin, the
 * started reservations that reported no use; then SIGKILLs every one of them after a random
 * delay, and runs ar-map --plan once more to its end: a reservation that
 * had started when ar-map told its hosts is never told others.  After each round: the store opens without repair,
 * its invariants hold (ar_check: ring equals records, nothing over
 * capacity, indexes agree, starts inside windows, drains reaching the
 * horizon's end), every reservation a
 * writer printed as granted exists, every one printed as cancelled is
 * cancelled, and a split request's pieces are all there or none, and
 * replaced by a modify all or none; a host told drained (removed) is in
 * a drain, and the drain told is there, unless an undrain of its hosts
 * was started after; a host told undrained is in none unless drained
 * again after; hosts told added are there, and an add is all its hosts
 * or none (none if the store refused one of its lines).  In every round one writer is
 * stopped (SIGSTOP, as ^Z does) before the kill, and a writer that may
 * not wait must end at once: refused, or timed out naming the lock.
 * Then creations are
 * killed at random moments: each leaves no store or a whole one.  With
 * "classes" the store has three price classes, so that the class rings
 * and the demand log are written and checked too; with "partitions" the
 * store is made of a host description of three partitions and four
 * pools (layout below), some requests ask a partition and features, and
 * named hosts and maintenance keep within a pool.  Seeded explicitly;
 * the kill times come from the seed too.
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ar.h"
#include "format.h"
#include "helpers.h"

extern char **environ;

#define T0 ((int64_t)1795219200)       /* 2026-11-21T00:00:00Z */
#define WRITERS 8
#define LINES 600
/*
 * The kill delay grows to at most DELAY_MAX ms; a round lasts that, the
 * probe's 10 s, and the kills.  Writers wait for the lock WAIT, longer
 * than a round, so that only the kill ends one that waits: a timeout
 * within a round is then a writer that held the lock past the round's
 * end, a hang the run reports as a bad exit, never the queue of slow
 * (sanitized) writers before it.
 */
#define DELAY_MAX 64000
#define WAIT "120s"

static char dir[] = "/tmp/ar-crash-XXXXXX";
static char store[300];
static uint64_t *granted, *cancelled, *held, *pieces;
static size_t ngranted, ncancelled, nheld, npieces, capg, capc, caph, capp;
static size_t nmolded;          /* grants of a moldable request's level */
static size_t nremade;          /* grants of a modify of a piece (the
				   whole request, in pieces or not) */

/*
 * With "partitions" the store is made of this host description: plain
 * requests take the default partition's hosts (batch, which borrows
 * gpu's), some ask a partition and features, and named hosts and
 * maintenance keep within one pool, and so do the hosts writer's
 * drains (but now and then one over two pools: a drain each, all or
 * none); the hosts it adds go to these pools or make new ones.
 */
static int partitioned;
static const char layout[] =
    "hosts=node[01-32] partition=batch\n"
    "hosts=node[33-48] partition=gpu features=a100\n"
    "hosts=node[49-56] partition=gpu\n"
    "hosts=node[57-64] partition=mem features=big\n"
    "partition=batch default=yes borrow=gpu\n";
/* Its pools' hosts: node[lo-hi]. */
static const struct {
	uint64_t lo, hi;
} pool_hosts[] = { { 1, 32 }, { 33, 48 }, { 49, 56 }, { 57, 64 } };

/* A request's partition and features, in a store of partitions: mostly
 * none (the default partition's), else one of the others. */
static const char *
where(void)
{
	static const char *const asked[] = { " partition=gpu",
	    " partition=gpu features=a100", " partition=mem features=big" };
	uint64_t i = rnd(6);

	return partitioned && i < 3 ? asked[i] : "";
}

static void
die(const char *what)
{
	fprintf(stderr, "test_crash: %s: %s\n", what, strerror(errno));
	exit(2);
}

static void
remember(uint64_t **a, size_t *n, size_t *cap, uint64_t id)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 1024;
		if ((*a = realloc(*a, *cap * sizeof(**a))) == NULL)
			die("realloc");
	}
	(*a)[(*n)++] = id;
}

/* Write the input of one writer to path. */
static void
make_input(const char *path, int kind, int64_t now)
{
	FILE *f = fopen(path, "w");

	if (f == NULL)
		die(path);
	for (int i = 0; i < LINES; i++) {
		if (kind == 2) {        /* cancel a grant, or release a hold */
			if (nheld > 0 && rnd(8) == 0)
				fprintf(f, "id=%" PRIu64 "\n",
				    held[rnd(nheld)]);
			else if (npieces > 0 && rnd(8) == 0)
				fprintf(f, "id=%" PRIu64 "\n",
				    pieces[rnd(npieces)]);
			else if (ngranted > 0)
				fprintf(f, "id=%" PRIu64 "\n",
				    granted[rnd(ngranted)]);
			continue;
		}
		if (kind == 5) {        /* make one longer or shorter */
			if (ngranted > 0)
				fprintf(f, "id=%" PRIu64 " duration=%" PRIu64
				    "m\n", granted[rnd(ngranted)],
				    5 + rnd(600));
			continue;
		}
		if (kind == 7) {        /* modify a piece */
			/* Its whole request is admitted again, in new
			 * pieces, or not at all; a short batch, so that it
			 * commits before the kill as often as not. */
			/* Mostly recent pieces: older ones are more often
			 * cancelled or replaced by then. */
			if (npieces > 0 && i < LINES / 20)
				fprintf(f, "id=%" PRIu64 " duration=%" PRIu64
				    "m%s\n", pieces[npieces - 1 - rnd(npieces <
				    32 ? npieces : 32)], 5 + rnd(120),
				    rnd(4) == 0 ? " split=tarr" : "");
			continue;
		}
		if (kind == 6) {        /* confirm a hold, expired or not */
			if (nheld > 0)
				fprintf(f, "id=%" PRIu64 "\n",
				    held[rnd(nheld)]);
			continue;
		}
		int64_t start = now + 300 * (int64_t)(1 + rnd(2000));
		int flexible = rnd(2);

		if (kind == 4)          /* ar-map --plan reads nothing */
			break;
		if (kind == 1 && ngranted > 0 && rnd(10) == 0) {
			/* a use report, yes or no */
			fprintf(f, "id=%" PRIu64 " used=%s\n",
			    granted[rnd(ngranted)], rnd(2) ? "yes" : "no");
			continue;
		}
		if (kind == 0 && rnd(20) == 0) {        /* maintenance */
			uint64_t first = 1 + rnd(60), last = first + rnd(4);

			/* In a store of partitions, hosts of one pool. */
			if (partitioned) {
				uint64_t p = rnd(4), lo = pool_hosts[p].lo;
				uint64_t hi = pool_hosts[p].hi;

				first = lo + rnd(hi - lo + 1);
				last = first + rnd(4);
				last = last > hi ? hi : last;
			}
			/* Half of it wins (--force): it displaces. */
			fprintf(f, "start=@%" PRId64 " duration=%" PRIu64 "m "
			    "hosts=node[%02" PRIu64 "-%02" PRIu64 "] user=m "
			    "job=%d%s\n", start, 30 + rnd(300), first,
			    last, i, rnd(2) ? " flags=maint" : "");
			continue;
		}

		if (kind < 2 && rnd(10) == 0) {  /* split in time */
			uint64_t d = 5 + rnd(600);

			/* A third of them two copies, each split in turn. */
			fprintf(f, "start=@%" PRId64 " duration=%" PRIu64 "m "
			    "defer=@%" PRId64 " nodes=%" PRIu64 " split=%s "
			    "jobs=%d user=u%d job=%d%s\n", start, d, start +
			    60 * (int64_t)(d + rnd(3 * d)), partitioned ?
			    4 + rnd(13) : 8 + rnd(57), rnd(3) ? "yes" : "tarr",
			    1 + (rnd(3) == 0), kind, i, where());
			continue;
		}
		if (kind < 2 && rnd(10) == 0) {  /* moldable */
			uint64_t n = 8 + rnd(57);

			/* A third of them on copies, a parametric one. */
			if (rnd(3) == 0)
				fprintf(f, "start=@%" PRId64 " latest=@%"
				    PRId64 " duration=%" PRIu64 "m nodes=%"
				    PRIu64 " jobs=4:10,2:6,1:3 user=u%d "
				    "job=%d\n", start, start + 300 *
				    (int64_t)rnd(24), 5 + rnd(600), n / 2,
				    kind, i);
			else
				fprintf(f, "start=@%" PRId64 " latest=@%"
				    PRId64 " duration=%" PRIu64 "m nodes=%"
				    PRIu64 ":10,%" PRIu64 ":6,%" PRIu64 ":3 "
				    "user=u%d job=%d\n", start, start + 300 *
				    (int64_t)rnd(24), 5 + rnd(600), n, n / 2,
				    n / 4, kind, i);
			continue;
		}
		fprintf(f, "%s=@%" PRId64 " ", flexible ? "earliest" : "start",
		    start);
		if (flexible)
			fprintf(f, "latest=@%" PRId64 " ",
			    start + 300 * (int64_t)rnd(24));
		fprintf(f, "duration=%" PRIu64 "m nodes=%" PRIu64 " jobs=%"
		    PRIu64 " user=u%d job=%d%s%s\n", 5 + rnd(600), 1 + rnd(16),
		    1 + rnd(3), kind, i, kind == 1 && rnd(10) == 0 ?
		    " hold=20m" : "", where());
	}
	if (fclose(f) != 0)
		die(path);
}

/* Start bin/argv[0] with stdin, stdout and stderr from those files. */
static pid_t
spawn(const char *bin, char *const argv[], const char *in, const char *out,
    const char *err)
{
	posix_spawn_file_actions_t fa;
	char path[512];
	pid_t pid;

	snprintf(path, sizeof(path), "%s/%s", bin, argv[0]);
	if (posix_spawn_file_actions_init(&fa) != 0 ||
	    posix_spawn_file_actions_addopen(&fa, 0, in, O_RDONLY, 0) != 0 ||
	    posix_spawn_file_actions_addopen(&fa, 1, out,
	    O_WRONLY | O_CREAT | O_TRUNC, 0600) != 0 ||
	    posix_spawn_file_actions_addopen(&fa, 2, err,
	    O_WRONLY | O_CREAT | O_TRUNC, 0600) != 0)
		die("posix_spawn_file_actions");
	if (posix_spawn(&pid, path, &fa, NULL, argv, environ) != 0)
		die(path);
	posix_spawn_file_actions_destroy(&fa);
	return pid;
}

static pid_t
start(const char *bin, const char *cmd, const char *opt, const char *in,
    const char *out, int64_t now)
{
	char nowarg[32], err[420];
	char *argv[] = { (char *)cmd, "--store", store, "--now", nowarg,
	    "--wait", WAIT, (char *)opt, NULL };

	/* Its messages beside what it prints, told if it exits badly. */
	snprintf(nowarg, sizeof(nowarg), "@%" PRId64, now);
	snprintf(err, sizeof(err), "%s.err", out);
	return spawn(bin, argv, in, out, err);
}

/* Copy what a writer said on stderr, in path, to ours. */
static void
tell_err(const char *path)
{
	char line[4096];
	FILE *f = fopen(path, "r");

	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL)
		fprintf(stderr, "  %s", line);
	fclose(f);
}

/* Wait up to us microseconds for pid, looking every millisecond and
 * last at the end; its wait status, or -1 if it is still running. */
static int
reap_within(pid_t pid, uint64_t us)
{
	struct timespec t0, t1;
	int st;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		pid_t r = waitpid(pid, &st, WNOHANG);
		uint64_t waited, step;

		if (r == pid)
			return st;
		if (r == -1)
			die("waitpid");
		clock_gettime(CLOCK_MONOTONIC, &t1);
		waited = (uint64_t)((t1.tv_sec - t0.tv_sec) * 1000000 +
		    (t1.tv_nsec - t0.tv_nsec) / 1000);
		if (waited >= us)
			return -1;
		step = us - waited < 1000 ? us - waited : 1000;
		nanosleep(&(struct timespec){ 0, (long)step * 1000 }, NULL);
	}
}

/*
 * With one writer stopped, possibly inside its transaction, a writer that
 * may not wait must end at once: refused (the lock was free) or timed
 * out, saying so.  A hang, here 10 s, is the failure.  1 if it held.
 */
static int
probe_stopped(const char *bin, int64_t now, uint64_t *timeouts)
{
	char nowarg[32], err[400], msg[200] = "";
	char *argv[] = { "ar-del", "--store", store, "--now", nowarg,
	    "--wait", "0", "id=999999999", NULL };
	pid_t pid;
	FILE *f;
	int st;

	snprintf(nowarg, sizeof(nowarg), "@%" PRId64, now);
	snprintf(err, sizeof(err), "%s/probe.err", dir);
	pid = spawn(bin, argv, "/dev/null", "/dev/null", err);
	if ((st = reap_within(pid, 10000000)) == -1) {
		fprintf(stderr, "a writer with --wait 0 hung behind a stopped "
		    "one\n");
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		return 0;
	}
	if ((f = fopen(err, "r")) != NULL) {
		if (fgets(msg, sizeof(msg), f) == NULL)
			msg[0] = '\0';
		fclose(f);
	}
	unlink(err);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 1)
		return 1;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 3 &&
	    strstr(msg, "timed out waiting for another writer") != NULL) {
		++*timeouts;
		return 1;
	}
	fprintf(stderr, "a writer with --wait 0 ended with %d: %s", st, msg);
	return 0;
}

/*
 * Kill creations at random moments: each must leave no store or a whole
 * one, which a second creation accepts.  The number of bad outcomes.
 */
static uint64_t
kill_creations(const char *bin, uint64_t rounds, uint64_t max_us,
    uint64_t *killed)
{
	char path[400];
	char *argv[] = { "ar-report", "--store", path, "--create",
	    "--simulated", "--info", NULL };
	struct ar_config cfg;
	uint64_t bad = 0;

	ar_config_default(&cfg);
	cfg.flags = AR_SIMULATED;
	for (uint64_t r = 0; r < rounds; r++) {
		uint64_t us = rnd(max_us);
		ar_store *s;
		pid_t pid;
		int st, rc;

		snprintf(path, sizeof(path), "%s/c%" PRIu64, dir, r);
		pid = spawn(bin, argv, "/dev/null", "/dev/null", "/dev/null");
		/* A creation that ended before its kill time is not waited
		 * for to the end of it: the kill would find nothing. */
		if ((st = reap_within(pid, us)) == -1) {
			kill(pid, SIGKILL);
			if (waitpid(pid, &st, 0) == -1)
				die("waitpid");
		}
		*killed += WIFSIGNALED(st);
		if ((rc = ar_open(path, AR_RDONLY, &s)) == 0)
			ar_close(s);
		else if (rc != AR_ENOSTORE) {
			fprintf(stderr, "creation killed after %" PRIu64 " us: "
			    "%s\n", us, ar_strerror(rc));
			bad++;
		}
		if ((rc = ar_create(path, &cfg, T0)) != 0 ||
		    (rc = ar_open(path, 0, &s)) != 0) {
			fprintf(stderr, "creating again after a kill: %s\n",
			    ar_strerror(rc));
			bad++;
		} else
			ar_close(s);
		rm_store(path);
	}
	return bad;
}

/* Read what a writer printed: ids granted and cancelled.  A line cut
 * short by the kill is not a report (it has no newline). */
static void
harvest(const char *path, int modifier)
{
	char line[4096];
	FILE *f = fopen(path, "r");

	if (f == NULL)
		die(path);
	while (fgets(line, sizeof(line), f) != NULL) {
		const char *id = strstr(line, "id=");

		if (strchr(line, '\n') == NULL || id == NULL)
			continue;
		if (id != line && id[-1] != ' ')
			continue;
		/* A piece goes to pieces, not granted: the check walks its
		 * request's pieces, and a modify names a piece to change
		 * the whole request. */
		/* A modify of a piece granted: in pieces, or one interval. */
		nremade += modifier && strstr(line, "status=granted") != NULL;
		if (strstr(line, "status=granted") != NULL &&
		    strstr(line, " pieces=") != NULL)
			remember(&pieces, &npieces, &capp,
			    strtoull(id + 3, NULL, 10));
		else if (strstr(line, "status=granted") != NULL) {
			remember(&granted, &ngranted, &capg,
			    strtoull(id + 3, NULL, 10));
			nmolded += strstr(line, " benefit=") != NULL;
		}
		else if (strstr(line, "status=cancelled") != NULL)
			remember(&cancelled, &ncancelled, &capc,
			    strtoull(id + 3, NULL, 10));
		else if (strstr(line, "status=held") != NULL)
			remember(&held, &nheld, &caph,
			    strtoull(id + 3, NULL, 10));
	}
	fclose(f);
}

/* A time as the records write it, in seconds; -1 if it is not one. */
static int64_t
iso_seconds(const char *s)
{
	char word[64], err[AR_ERRMAX];
	int64_t t;

	if (sscanf(s, "%63[^ \n]", word) != 1 ||
	    ar_time_parse(word, 0, &t, err) != 0)
		return -1;
	return t;
}

/* What ar-map told of a reservation that had started: its hosts. */
struct told {
	uint64_t id;
	char hosts[64];
};

static struct told *told;
static size_t ntold, captold;

/* ar_map's view after a round: it maps (the count is not used). */
static int
count_mapped(const struct ar_mapped *m, void *arg)
{
	(void)m;
	++*(uint64_t *)arg;
	return 0;
}

/*
 * The hosts ar-map printed: a reservation that had started by the
 * round's clock must never be told other hosts after that.  Returns
 * how many were.
 */
static uint64_t
harvest_map(const char *path, int64_t now)
{
	char line[4096], hosts[64];
	FILE *f = fopen(path, "r");
	uint64_t changed = 0, id;
	const char *p;
	int64_t start;
	size_t i;

	if (f == NULL)
		die(path);
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strchr(line, '\n') == NULL || strncmp(line, "id=", 3) != 0 ||
		    (p = strstr(line, " hosts=")) == NULL ||
		    sscanf(p + 7, "%63[^ \n]", hosts) != 1)
			continue;
		id = strtoull(line + 3, NULL, 10);
		for (i = 0; i < ntold && told[i].id != id; i++)
			;
		if (i < ntold) {
			if (strcmp(told[i].hosts, hosts) != 0) {
				fprintf(stderr, "reservation %" PRIu64 " started "
				    "on %s, now told %s\n", id, told[i].hosts,
				    hosts);
				changed++;
			}
			continue;
		}
		if ((p = strstr(line, " start=")) == NULL ||
		    (start = iso_seconds(p + 7)) < 0 || start > now)
			continue;
		if (ntold == captold) {
			captold = captold ? 2 * captold : 256;
			if ((told = realloc(told, captold * sizeof(*told))) == NULL)
				die("realloc");
		}
		told[ntold].id = id;
		strcpy(told[ntold++].hosts, hosts);
	}
	fclose(f);
	return changed;
}

static void
report_violation(const char *msg, void *arg)
{
	(void)arg;
	fprintf(stderr, "violation: %s\n", msg);
}

/*
 * The hosts writer: ar-report --drain (half of them --force; in a store
 * of partitions now and then over two pools), --undrain of a host it
 * drained, --add-hosts of new hosts (some of them in a line the store
 * refuses, so that none is added), and --remove of a host it added, one
 * after another while the other writers write, until the round's delay
 * is up; the one running then is killed with the others.  Every one it
 * started is an op, acknowledged if it printed what it did.
 */
enum op_kind { OP_DRAIN, OP_REMOVE, OP_UNDRAIN, OP_ADD, OP_ADD_BAD };

#define OP_HOSTS 6              /* hosts an op names, at most */

struct op {
	enum op_kind kind;
	char names[OP_HOSTS][64];       /* its hosts (an add: the new ones) */
	int nnames;
	uint64_t id;            /* a drain acknowledged: its reservation */
	int acked;
};

static struct op *ops;
static size_t nops, capops;
static uint64_t hosts_acked[OP_ADD_BAD + 1];

/* An op of kind k acknowledged, at random; NULL if there is none. */
static const struct op *
acked_op(enum op_kind k)
{
	size_t n = 0, i, pick;

	for (i = 0; i < nops; i++)
		n += ops[i].kind == k && ops[i].acked;
	if (n == 0)
		return NULL;
	pick = rnd(n);
	for (i = 0; i < nops; i++)
		if (ops[i].kind == k && ops[i].acked && pick-- == 0)
			break;
	return &ops[i];
}

/* n hosts new to the store into o, xr<round>o<op><tag><i>, and their
 * host list into list. */
static void
new_hosts(struct op *o, uint64_t round, char tag, int n, char *list,
    size_t size)
{
	snprintf(list, size, "xr%" PRIu64 "o%zu%c[1-%d]", round, nops, tag,
	    n);
	for (int i = 1; i <= n && o->nnames < OP_HOSTS; i++)
		snprintf(o->names[o->nnames++], sizeof(o->names[0]),
		    "xr%" PRIu64 "o%zu%c%d", round, nops, tag, i);
}

/* Append the next op to ops and start it: its pid.  Its input, for
 * --add-hosts, goes to in; what it prints to out. */
static pid_t
start_op(const char *bin, uint64_t round, int64_t now, const char *in,
    const char *out, const char *err)
{
	/* Where added hosts go: pools the store has, or a new one. */
	static const char *const parts[] = { " partition=batch",
	    " partition=gpu features=a100", " partition=mem features=big",
	    " partition=spare" };
	static const char *const one_pool[] = { "", "", "",
	    " partition=spare" };
	const char *const *part = partitioned ? parts : one_pool;
	char nowarg[32], fromarg[32], hosts[200] = "";
	char *argv[16] = { "ar-report", "--store", store, "--now", nowarg,
	    "--wait", WAIT };
	const struct op *was;
	struct op *o;
	uint64_t r = rnd(20);
	int argc = 7;

	if (nops == capops) {
		capops = capops ? 2 * capops : 256;
		if ((ops = realloc(ops, capops * sizeof(*ops))) == NULL)
			die("realloc");
	}
	o = &ops[nops];
	memset(o, 0, sizeof(*o));
	snprintf(nowarg, sizeof(nowarg), "@%" PRId64, now);
	snprintf(fromarg, sizeof(fromarg), "@%" PRId64,
	    now + 300 * (int64_t)(1 + rnd(576)));
	if (r >= 7 && r < 12 && (was = acked_op(OP_DRAIN)) != NULL) {
		o->kind = OP_UNDRAIN;
		o->nnames = 1;
		strcpy(o->names[0], was->names[rnd((uint64_t)was->nnames)]);
		argv[argc++] = "--undrain";
	} else if (r >= 18 && (was = acked_op(OP_ADD)) != NULL) {
		o->kind = OP_REMOVE;
		o->nnames = 1;
		strcpy(o->names[0], was->names[rnd((uint64_t)was->nnames)]);
		argv[argc++] = "--remove";
	} else if (r >= 12) {
		char list[64];
		FILE *f = fopen(in, "w");

		if (f == NULL)
			die(in);
		o->kind = r < 16 || r >= 18 ? OP_ADD : OP_ADD_BAD;
		new_hosts(o, round, 'a', 1 + (int)rnd(3), list, sizeof(list));
		fprintf(f, "hosts=%s%s\n", list, part[rnd(4)]);
		if (o->kind == OP_ADD && rnd(2)) {
			new_hosts(o, round, 'b', 1 + (int)rnd(3), list,
			    sizeof(list));
			fprintf(f, "hosts=%s%s\n", list, part[rnd(4)]);
		} else if (o->kind == OP_ADD_BAD)
			/* A host the store has, or a policy: refused,
			 * and the good line before it is not added. */
			fprintf(f, rnd(2) ? "hosts=node%02" PRIu64 "\n" :
			    "hosts=xbad%" PRIu64 " borrow=gpu\n", 1 + rnd(64));
		if (fclose(f) != 0)
			die(in);
		argv[argc++] = "--add-hosts";
		argv[argc++] = "-";
	} else {
		uint64_t p = rnd(4), lo = partitioned ? pool_hosts[p].lo : 1;
		uint64_t hi = partitioned ? pool_hosts[p].hi : 64;
		uint64_t first = lo + rnd(hi - lo + 1);

		o->kind = OP_DRAIN;
		snprintf(o->names[o->nnames++], sizeof(o->names[0]),
		    "node%02" PRIu64, first);
		if (first < hi && rnd(2))
			snprintf(o->names[o->nnames++], sizeof(o->names[0]),
			    "node%02" PRIu64, first + 1);
		/* Over two pools: a drain each, all or none. */
		if (partitioned && rnd(4) == 0)
			snprintf(o->names[o->nnames++], sizeof(o->names[0]),
			    "node%02" PRIu64, pool_hosts[(p + 1) % 4].lo +
			    rnd(4));
		argv[argc++] = "--drain";
	}
	if (o->kind == OP_DRAIN || o->kind == OP_REMOVE ||
	    o->kind == OP_UNDRAIN) {
		for (int i = 0; i < o->nnames; i++)
			snprintf(hosts + strlen(hosts), sizeof(hosts) -
			    strlen(hosts), "%s%s", i ? "," : "", o->names[i]);
		argv[argc++] = hosts;
	}
	if (o->kind == OP_DRAIN || o->kind == OP_REMOVE) {
		if (rnd(3) != 0) {
			argv[argc++] = "--from";
			argv[argc++] = fromarg;
		}
		if (rnd(2))
			argv[argc++] = "--force";
	}
	argv[argc] = NULL;
	nops++;
	return spawn(bin, argv, o->kind == OP_ADD || o->kind == OP_ADD_BAD ?
	    in : "/dev/null", out, err);
}

/*
 * The last op ended with wait status st: read what it printed (a line
 * cut short by the kill is not a report).  A bad exit is one other than
 * 0 or 1 (2 only for a bad add, which must not succeed); 1 if it was.
 */
static int
finish_op(int st, const char *out, const char *err)
{
	struct op *o = &ops[nops - 1];
	char line[4096];
	FILE *f;

	harvest(out, 0);        /* what a drain displaced, cancelled */
	if ((f = fopen(out, "r")) == NULL)
		die(out);
	while (fgets(line, sizeof(line), f) != NULL) {
		const char *id = strstr(line, " id=");

		if (strchr(line, '\n') == NULL || strncmp(line, "hosts=", 6))
			continue;
		if (strstr(line, o->kind == OP_DRAIN ? " status=drained " :
		    o->kind == OP_REMOVE ? " status=removed " :
		    o->kind == OP_UNDRAIN ? " status=undrained" :
		    " status=added ") != NULL) {
			o->acked = 1;
			o->id = id != NULL ? strtoull(id + 4, NULL, 10) : 0;
		}
	}
	fclose(f);
	hosts_acked[o->kind] += o->acked;
	if (WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL)
		return 0;
	if (WIFEXITED(st) && (o->kind == OP_ADD_BAD ? WEXITSTATUS(st) == 2 :
	    WEXITSTATUS(st) <= 1) && !(o->kind == OP_ADD_BAD && o->acked))
		return 0;
	fprintf(stderr, "hosts writer: op %zu (kind %d, %s) ended with %d:\n",
	    nops - 1, (int)o->kind, o->names[0], st);
	tell_err(err);
	return 1;
}

/*
 * Run the hosts writer until ms have passed, from its op running (pid
 * running, 0 if none): the pid of its op running then, 0 if none; bad
 * exits added to *wrong.
 */
static pid_t
run_hosts_writer(const char *bin, uint64_t round, int64_t now, uint64_t ms,
    pid_t running, const char *in, const char *out, const char *err,
    uint64_t *wrong)
{
	struct timespec t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		long spent;
		int st;

		clock_gettime(CLOCK_MONOTONIC, &t1);
		spent = (long)(t1.tv_sec - t0.tv_sec) * 1000 +
		    (t1.tv_nsec - t0.tv_nsec) / 1000000;
		if (spent >= (long)ms)
			return running;
		if (running == 0)
			running = start_op(bin, round, now, in, out, err);
		if ((st = reap_within(running,
		    (uint64_t)((long)ms - spent) * 1000)) == -1)
			return running;
		running = 0;
		*wrong += finish_op(st, out, err);
	}
}

/* The drains of the store by host name: drained[i], removed or not. */
struct drained {
	struct ar_hostlist all; /* the store's hosts */
	char (*names)[AR_HOSTNAME_MAX + 1];
	int *removed;
	uint64_t *ids;
	size_t n, cap, nids;
};

static int
collect_drain(const struct ar_drain *d, void *arg)
{
	struct drained *x = arg;

	if ((x->ids = realloc(x->ids, (x->nids + 1) * sizeof(*x->ids))) ==
	    NULL)
		die("realloc");
	x->ids[x->nids++] = d->id;
	for (uint32_t i = 0; i < d->nhosts; i++) {
		if (x->n == x->cap) {
			x->cap = x->cap ? 2 * x->cap : 64;
			if ((x->names = realloc(x->names, x->cap *
			    sizeof(*x->names))) == NULL ||
			    (x->removed = realloc(x->removed, x->cap *
			    sizeof(*x->removed))) == NULL)
				die("realloc");
		}
		if (ar_hostlist_name(&x->all, d->hosts[i], x->names[x->n]) ==
		    NULL)
			return AR_ECORRUPT;
		x->removed[x->n++] = d->removed;
	}
	return 0;
}

/* Host name drained: 1 drained, 2 removed, 0 neither. */
static int
drained_as(const struct drained *x, const char *name)
{
	for (size_t i = 0; i < x->n; i++)
		if (strcmp(x->names[i], name) == 0)
			return 1 + (x->removed[i] != 0);
	return 0;
}

/* Whether an op after ops[i] of kind k (or k2) names host name. */
static int
named_later(size_t i, enum op_kind k, enum op_kind k2, const char *name)
{
	for (size_t j = i + 1; j < nops; j++)
		for (int h = 0; h < ops[j].nnames; h++)
			if ((ops[j].kind == k || ops[j].kind == k2) &&
			    strcmp(ops[j].names[h], name) == 0)
				return 1;
	return 0;
}

/*
 * After a round, what the hosts writer did is there: a host it was told
 * drained (removed) is, unless an undrain of it was started after; its
 * drain is there unless one of its hosts was undrained; a host told
 * undrained is not drained unless drained again after; an add is all its
 * hosts or none (all if acknowledged, none if it had a bad line).  The
 * number of failures.
 */
static uint64_t
check_hosts(ar_txn *t)
{
	struct drained x;
	const char *names;
	char err[AR_ERRMAX];
	uint64_t bad = 0;
	int rc;

	memset(&x, 0, sizeof(x));
	ar_hostlist_init(&x.all);
	if ((rc = ar_hosts(t, &names)) != 0 ||
	    ar_hostlist_parse(names, &x.all, err) != 0 ||
	    (rc = ar_drains(t, collect_drain, &x)) != 0) {
		fprintf(stderr, "hosts and drains: %s\n", ar_strerror(rc));
		return 1;
	}
	for (size_t i = 0; i < nops; i++) {
		const struct op *o = &ops[i];
		int present = 0, undrained = 0, found = 0;
		uint32_t at;

		for (int h = 0; h < o->nnames; h++) {
			const char *name = o->names[h];
			int as = drained_as(&x, name);

			present += ar_hostlist_find(&x.all, name, &at) == 0;
			if ((o->kind == OP_DRAIN || o->kind == OP_REMOVE) &&
			    o->acked && named_later(i, OP_UNDRAIN,
			    OP_UNDRAIN, name)) {
				undrained = 1;
			} else if ((o->kind == OP_DRAIN ||
			    o->kind == OP_REMOVE) && o->acked &&
			    as != (o->kind == OP_DRAIN ? 1 : 2)) {
				fprintf(stderr, "lost: host %s was reported "
				    "%s\n", name, o->kind == OP_DRAIN ?
				    "drained" : "removed");
				bad++;
			} else if (o->kind == OP_UNDRAIN && o->acked &&
			    as != 0 && !named_later(i, OP_DRAIN, OP_REMOVE,
			    name)) {
				fprintf(stderr, "lost: host %s was reported "
				    "undrained\n", name);
				bad++;
			}
		}
		for (size_t d = 0; d < x.nids; d++)
			found |= x.ids[d] == o->id;
		if ((o->kind == OP_DRAIN || o->kind == OP_REMOVE) && o->acked &&
		    !undrained && !found) {
			fprintf(stderr, "lost: drain %" PRIu64 " was reported "
			    "made\n", o->id);
			bad++;
		}
		if ((o->kind == OP_ADD && present != 0 &&
		    present != o->nnames) || (o->kind == OP_ADD && o->acked &&
		    present != o->nnames) || (o->kind == OP_ADD_BAD &&
		    present != 0)) {
			fprintf(stderr, "half written: %d of the %d hosts of "
			    "add %zu (%s%s) are there\n", present, o->nnames,
			    i, o->kind == OP_ADD_BAD ? "refused" : "added",
			    o->acked ? ", acknowledged" : "");
			bad++;
		}
	}
	ar_hostlist_free(&x.all);
	free(x.names);
	free(x.removed);
	free(x.ids);
	return bad;
}

/*
 * Three price classes (the thesis's Table 6.3, limits scaled to 64
 * nodes), so that the writers keep the class rings and the demand log
 * as well, and the check after every round verifies those too.
 */
static int
set_classes(void)
{
	static const struct ar_class c[3] = {
		{ "premium", 100, 0, 3600, 64, 0 },
		{ "business", 60, 3600, 7200, 56, 0 },
		{ "budget", 40, 7200, -1, 48, 0 },
	};
	struct ar_pricing p;
	const char *field;
	size_t bad;
	ar_store *s;
	ar_txn *t;
	int rc;

	memset(&p, 0, sizeof(p));
	p.n = 3;
	memcpy(p.c, c, sizeof(c));
	p.retention = 86400;
	if ((rc = ar_open(store, 0, &s)) != 0)
		return rc;
	if ((rc = ar_txn_begin(s, AR_WRITE, T0, &t)) == 0) {
		if ((rc = ar_set_pricing(t, &p, &bad, &field)) == 0)
			rc = ar_txn_commit(t);
		else
			ar_txn_abort(t);
	}
	ar_close(s);
	return rc;
}

/* A reclaim policy: a grace of 10 minutes, for every class. */
static int
set_reclaim(void)
{
	struct ar_reclaim p;
	ar_store *s;
	ar_txn *t;
	int rc;

	memset(&p, 0, sizeof(p));
	p.grace = 600;
	if ((rc = ar_open(store, 0, &s)) != 0)
		return rc;
	if ((rc = ar_txn_begin(s, AR_WRITE, T0, &t)) == 0) {
		if ((rc = ar_set_reclaim(t, &p)) == 0)
			rc = ar_txn_commit(t);
		else
			ar_txn_abort(t);
	}
	ar_close(s);
	return rc;
}

int
main(int argc, char **argv)
{
	struct ar_config cfg;
	uint64_t rounds = argc > 2 ? strtoull(argv[2], NULL, 10) : 30;
	uint64_t max_delay, first_delay, grown = 0;
	uint64_t kills = 0, lost = 0, wrong = 0, violations = 0, checked = 0;
	uint64_t probes = 0, timeouts = 0, created = 0, killed = 0;
	uint64_t changed = 0, reclaimed = 0;
	char hin[400], hout[400], herr[400], errpath[420];
	int classes;
	const char *cmds[WRITERS] = { "ar-add", "ar-add", "ar-del", "ar-del",
	    "ar-map", "ar-add", "ar-add", "ar-add" };
	const char *opts[WRITERS] = { "--force", NULL, NULL, "--purge",
	    "--plan", "--modify", "--confirm", "--modify" };

	if (argc < 2) {
		fprintf(stderr, "usage: test_crash bindir [rounds [seed "
		    "[delay_ms [classes|partitions]]]]\n");
		return 2;
	}
	rng = argc > 3 ? strtoull(argv[3], NULL, 10) : 20261121;
	/* Writers built with sanitizers start slowly: let them get going. */
	max_delay = argc > 4 ? strtoull(argv[4], NULL, 10) : 60;
	classes = argc > 5 && strcmp(argv[5], "classes") == 0;
	partitioned = argc > 5 && strcmp(argv[5], "partitions") == 0;
	if (max_delay == 0)
		max_delay = 1;
	first_delay = max_delay;
	if (mkdtemp(dir) == NULL)
		die("mkdtemp");
	snprintf(store, sizeof(store), "%s/store", dir);
	snprintf(hin, sizeof(hin), "%s/hin", dir);
	snprintf(hout, sizeof(hout), "%s/hout", dir);
	snprintf(herr, sizeof(herr), "%s/herr", dir);
	ar_config_default(&cfg);
	cfg.flags = AR_SIMULATED;
	cfg.layout = partitioned ? layout : NULL;
	if (ar_create(store, &cfg, T0) != 0 ||
	    (classes && set_classes() != 0) || set_reclaim() != 0)
		die("ar_create");
	for (uint64_t r = 0; r < rounds; r++) {
		int64_t now = T0 + (int64_t)r * 900;
		char in[WRITERS][400], out[WRITERS][400];
		pid_t pid[WRITERS];
		uint64_t ms = 1 + rnd(max_delay);
		ar_store *s;
		ar_txn *t;
		uint64_t bad = 0, mapped = 0;
		pid_t hosts_pid;
		int rc;

		for (int w = 0; w < WRITERS; w++) {
			snprintf(in[w], sizeof(in[w]), "%s/in%d", dir, w);
			snprintf(out[w], sizeof(out[w]), "%s/out%d", dir, w);
			make_input(in[w], w, now);
		}
		/* Started from a random one round by round: the first
		 * started mostly takes the lock first, and every class
		 * should commit before the kill now and then; the hosts
		 * writer first in half of the rounds. */
		hosts_pid = rnd(2) ? start_op(argv[1], r, now, hin, hout,
		    herr) : 0;
		for (int i = 0, w0 = (int)rnd(WRITERS); i < WRITERS; i++) {
			int w = (w0 + i) % WRITERS;

			pid[w] = start(argv[1], cmds[w], opts[w], in[w], out[w],
			    now);
		}
		/* The hosts writer runs until the kill. */
		hosts_pid = run_hosts_writer(argv[1], r, now, ms, hosts_pid,
		    hin, hout, herr, &wrong);
		kill(pid[rnd(WRITERS)], SIGSTOP);
		probes++;
		wrong += !probe_stopped(argv[1], now, &timeouts);
		for (int w = 0; w < WRITERS; w++) {
			int st;

			kill(pid[w], SIGKILL);
			if (waitpid(pid[w], &st, 0) == -1)
				die("waitpid");
			if (WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL)
				kills++;
			else if (!WIFEXITED(st) || WEXITSTATUS(st) > 1) {
				if (WIFSIGNALED(st))
					fprintf(stderr, "round %" PRIu64 ": %s "
					    "ended by signal %d\n", r, cmds[w],
					    WTERMSIG(st));
				else
					fprintf(stderr, "round %" PRIu64 ": %s "
					    "exited with %d\n", r, cmds[w],
					    WEXITSTATUS(st));
				snprintf(errpath, sizeof(errpath), "%.399s.err",
				    out[w]);
				tell_err(errpath);
				wrong++;
			}
			harvest(out[w], w == 7);
			if (w == 4)
				changed += harvest_map(out[w], now);
		}
		if (hosts_pid != 0) {
			int st;

			kill(hosts_pid, SIGKILL);
			if (waitpid(hosts_pid, &st, 0) == -1)
				die("waitpid");
			kills += WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL;
			wrong += finish_op(st, hout, herr);
		}
		/*
		 * While no writer has ever committed before the kill the run
		 * checks nothing: the writers are slower than the delay
		 * allows (sanitizers, a loaded machine), so the next rounds
		 * may wait twice as long, up to DELAY_MAX.  Once one has,
		 * the delay stays: kills mostly before the commit.
		 */
		if (ngranted + npieces == 0 && max_delay < DELAY_MAX) {
			max_delay = 2 * max_delay < DELAY_MAX ? 2 * max_delay :
			    DELAY_MAX;
			grown = max_delay;
		}
		/* Then once in peace: what has started keeps its hosts. */
		{
			int st;
			pid_t m = start(argv[1], "ar-map", "--plan", "/dev/null",
			    out[4], now);

			if (waitpid(m, &st, 0) == -1 || !WIFEXITED(st) ||
			    WEXITSTATUS(st) != 0) {
				fprintf(stderr, "round %" PRIu64 ": ar-map "
				    "failed\n", r);
				snprintf(errpath, sizeof(errpath), "%.399s.err",
				    out[4]);
				tell_err(errpath);
				wrong++;
			}
			changed += harvest_map(out[4], now);
		}
		/* The store must open as it is, and be whole. */
		if ((rc = ar_open(store, AR_RDONLY, &s)) != 0) {
			fprintf(stderr, "round %" PRIu64 ": cannot open: %s\n",
			    r, ar_strerror(rc));
			return 1;
		}
		if ((rc = ar_txn_begin(s, 0, now, &t)) != 0) {
			fprintf(stderr, "round %" PRIu64 ": cannot begin: %s\n",
			    r, ar_strerror(rc));
			ar_close(s);
			return 1;
		}
		if ((rc = ar_check(t, report_violation, NULL, &bad)) != 0 ||
		    (rc = ar_map(t, 0, now, now + 1, NULL, 0, count_mapped,
		    &mapped)) != 0) {
			fprintf(stderr, "round %" PRIu64 ": ar_check or ar_map "
			    "(%" PRIu64 " violations): %s\n", r, bad,
			    ar_strerror(rc));
			ar_txn_abort(t);
			ar_close(s);
			return 1;
		}
		violations += bad;
		checked += nops;
		lost += check_hosts(t);
		for (size_t i = 0; i < ngranted; i++) {
			struct ar_resv v;

			checked++;
			if (ar_get(t, granted[i], &v) != 0) {
				fprintf(stderr, "lost: reservation %" PRIu64
				    " was reported granted\n", granted[i]);
				lost++;
			} else if (r + 1 == rounds)
				reclaimed += v.state == AR_RECLAIMED;
		}
		/* A split request is all its pieces or none: each piece
		 * reported is there, and so are the others of its request,
		 * their slots together its duration's; fewer only where a
		 * reclaim cut the request short (its reclaimed piece ends
		 * where it was reclaimed). */
		for (size_t i = 0; i < npieces; i++) {
			struct ar_resv v, o;
			int64_t slots = 0, want;
			uint32_t j = 0, replaced = 0;
			int cut = 0;

			checked++;
			if (ar_get(t, pieces[i], &v) != 0 || v.pieces < 2) {
				fprintf(stderr, "lost: piece %" PRIu64 " was "
				    "reported granted\n", pieces[i]);
				lost++;
				continue;
			}
			for (; j < v.pieces; j++) {
				if (ar_get(t, v.series + j, &o) != 0 ||
				    o.series != v.series ||
				    o.pieces != v.pieces ||
				    o.occurrence != j + 1)
					break;
				slots += (o.end - o.start) / 300;
				cut |= o.state == AR_RECLAIMED;
				replaced += o.replaced != 0;
			}
			want = (v.duration + 299) / 300;
			/* A modify replaces every piece of the request or
			 * none. */
			if (j < v.pieces || slots > want ||
			    (slots < want && !cut) ||
			    (replaced != 0 && replaced != v.pieces)) {
				fprintf(stderr, "half written: piece %" PRIu64
				    " of %u, %u found, %" PRId64 " slots, %u "
				    "replaced\n", pieces[i], v.pieces, j, slots,
				    replaced);
				lost++;
			}
		}
		for (size_t i = 0; i < ncancelled; i++) {
			struct ar_resv v;

			checked++;
			if (ar_get(t, cancelled[i], &v) != 0 ||
			    v.state != AR_CANCELLED) {
				fprintf(stderr, "lost: cancellation of %" PRIu64
				    "\n", cancelled[i]);
				lost++;
			}
		}
		ar_txn_abort(t);
		ar_close(s);
	}
	/* Creations take a few ms; sanitized ones longer (the delay). */
	created = 10 * rounds;
	wrong += kill_creations(argv[1], created, first_delay * 100, &killed);
	printf("crash: %" PRIu64 " rounds, %" PRIu64 " kills, %" PRIu64
	    " reports checked (%zu granted, %zu cancelled), %" PRIu64
	    " lost, %" PRIu64 " violations, %" PRIu64 " bad exits; %" PRIu64
	    " writers stopped, %" PRIu64 " others timed out at once; %"
	    PRIu64 " creations, %" PRIu64 " killed; %zu hosts told, %" PRIu64
	    " changed after the start; %zu holds, %zu pieces, %zu grants of "
	    "a modify of a piece, %zu moldable; %" PRIu64 " reclaimed; "
	    "hosts writer: %zu ops, %" PRIu64 " drains, %" PRIu64 " removals, "
	    "%" PRIu64 " undrains, %" PRIu64 " adds told done%s\n",
	    rounds, kills, checked, ngranted, ncancelled, lost, violations,
	    wrong, probes, timeouts, created, killed, ntold, changed, nheld,
	    npieces, nremade, nmolded, reclaimed, nops,
	    hosts_acked[OP_DRAIN], hosts_acked[OP_REMOVE],
	    hosts_acked[OP_UNDRAIN], hosts_acked[OP_ADD], partitioned ?
	    "; partitions" : "");
	for (int w = 0; w < WRITERS; w++) {
		char p[400];

		snprintf(p, sizeof(p), "%s/in%d", dir, w);
		unlink(p);
		snprintf(p, sizeof(p), "%s/out%d", dir, w);
		unlink(p);
		snprintf(p, sizeof(p), "%s/out%d.err", dir, w);
		unlink(p);
	}
	unlink(hin);
	unlink(hout);
	unlink(herr);
	snprintf(store + strlen(store), sizeof(store) - strlen(store),
	    "/data.mdb");
	unlink(store);
	strcpy(strrchr(store, '/'), "/lock.mdb");
	unlink(store);
	strcpy(strrchr(store, '/'), "/writer.lock");
	unlink(store);
	*strrchr(store, '/') = '\0';
	rmdir(store);
	rmdir(dir);
	lost += changed;
	if (grown != 0)
		fprintf(stderr, "test_crash: the kill delay grew to %" PRIu64
		    " ms\n", grown);
	/* A run whose writers were all killed before any of them committed
	 * has checked nothing: it fails, so that the delay is raised. */
	if (checked == 0) {
		fprintf(stderr, "test_crash: no report checked: every writer "
		    "was killed before it committed (raise the delay)\n");
		wrong++;
	}
	printf("%d passed, %d failed\n", lost == 0 && violations == 0 &&
	    wrong == 0, !(lost == 0 && violations == 0 && wrong == 0));
	return lost != 0 || violations != 0 || wrong != 0;
}
