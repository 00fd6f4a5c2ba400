/*
 * test_coalloc.c - co-allocation across three stores by the README's
 * coalloc script (hold on each, then confirm all or release all),
 * killed at random moments.
 *
 *   test_coalloc SCRIPT BINDIR [ROUNDS [SEED [DELAY_MS]]]
 *
 * Each round books one request, of a key of its own, on three stores of
 * four nodes, with the clock a little later than the round before; most
 * rounds SIGKILL the script's process group (the script and the ar
 * command it runs) after a random delay, then run the script again with
 * the same key, as its operator would, at the same clock or after the
 * holds expired.  After each round, read through the library: every key
 * is confirmed on all three stores or on none; the round's key is held
 * nowhere; each store passes ar_check (nothing held past its expiry
 * once a writer ran, ring and indexes in agreement).  At the end a
 * writer past every expiry leaves nothing held.  Seeded explicitly.
 */
#include <sys/wait.h>

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ar.h"
#include "helpers.h"

#define T0 ((int64_t)1795219200)       /* 2026-11-21T00:00:00Z */
#define STORES 3
#define HOLD 300                        /* the script's HOLD, seconds */

static char dir[] = "/tmp/ar-coalloc-XXXXXX";
static char stores[STORES][300];
static uint64_t failures;

static void
die(const char *what)
{
	fprintf(stderr, "test_coalloc: %s: %s\n", what, strerror(errno));
	exit(2);
}

static void
fail(const char *fmt, ...)
{
	va_list ap;

	failures++;
	va_start(ap, fmt);
	fputs("test_coalloc: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/*
 * Run the script for key with the request's fields at clock now; with
 * kill_us > 0 SIGKILL its process group after that many microseconds.
 * Its exit status, or 128 + the signal.
 */
static int
coalloc(const char *script, uint64_t key, const char *fields[], int64_t now,
    uint64_t kill_us)
{
	char clock[32], k[32];
	struct timespec delay = { (time_t)(kill_us / 1000000),
	    (long)(kill_us % 1000000) * 1000 };
	pid_t pid;
	int st;

	snprintf(clock, sizeof(clock), "@%" PRId64, now);
	snprintf(k, sizeof(k), "round-%" PRIu64, key);
	if ((pid = fork()) == -1)
		die("fork");
	if (pid == 0) {
		setpgid(0, 0);
		setenv("AR_NOW", clock, 1);
		if (freopen("/dev/null", "w", stdout) == NULL)
			_exit(126);
		execl("/bin/sh", "sh", script, k, fields[0], fields[1],
		    fields[2], (char *)NULL);
		_exit(127);
	}
	setpgid(pid, pid);
	if (kill_us > 0) {
		nanosleep(&delay, NULL);
		kill(-pid, SIGKILL);
	}
	if (waitpid(pid, &st, 0) == -1)
		die("waitpid");
	/* What the script was running when it was killed goes too. */
	if (kill_us > 0)
		kill(-pid, SIGKILL);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Per key: on how many stores it is confirmed, and held. */
struct tally {
	uint64_t keys;
	int confirmed[1000];
	int held[1000];
};

static int
count(const struct ar_resv *r, void *arg)
{
	struct tally *ty = arg;
	uint64_t key;

	if (sscanf(r->client_key, "round-%" SCNu64, &key) != 1 ||
	    key >= ty->keys)
		return 0;
	if (r->state == AR_GRANTED && r->expires == 0)
		ty->confirmed[key]++;
	else if (ar_resv_status(r) == AR_HELD)
		ty->held[key]++;
	return 0;
}

static void
say(const char *msg, void *arg)
{
	fprintf(stderr, "test_coalloc: %s: %s\n", (const char *)arg, msg);
}

/* Read every store at now (with write, as a writer, which releases the
 * holds expired by then); the tally of keys below keys. */
static void
survey(int64_t now, int write, uint64_t keys, struct tally *ty)
{
	uint64_t bad;
	ar_store *s;
	ar_txn *t;
	int rc;

	memset(ty, 0, sizeof(*ty));
	ty->keys = keys;
	for (int i = 0; i < STORES; i++) {
		if ((rc = ar_open(stores[i], write ? 0 : AR_RDONLY, &s)) != 0) {
			fail("%s: %s", stores[i], ar_strerror(rc));
			continue;
		}
		if ((rc = ar_txn_begin(s, write ? AR_WRITE : 0, now, &t)) != 0 ||
		    (rc = ar_list(t, AR_LIVE, count, ty)) != 0 ||
		    (rc = ar_check(t, say, stores[i], &bad)) != 0)
			fail("%s: %s", stores[i], ar_strerror(rc));
		else if (bad != 0)
			fail("%s: %" PRIu64 " violations", stores[i], bad);
		if (rc == 0 && write && (rc = ar_txn_commit(t)) != 0)
			fail("%s: commit: %s", stores[i], ar_strerror(rc));
		else if (t != NULL && !write)
			ar_txn_abort(t);
		ar_close(s);
	}
}

int
main(int argc, char **argv)
{
	uint64_t rounds = argc > 3 ? strtoull(argv[3], NULL, 10) : 20;
	uint64_t delay_ms = argc > 5 ? strtoull(argv[5], NULL, 10) : 40;
	uint64_t kills = 0, confirmed = 0, released = 0, passed = 0, before;
	char path[4096], start[32], duration[32], nodes[32], env[4400];
	const char *fields[3] = { start, duration, nodes };
	struct ar_config cfg;
	struct tally ty;
	int64_t now = T0;
	int rc;

	if (argc < 3) {
		fprintf(stderr, "usage: test_coalloc script bindir [rounds "
		    "[seed [delay_ms]]]\n");
		return 2;
	}
	if (argc > 4)
		rng = strtoull(argv[4], NULL, 10) | 1;
	if (rounds > 1000)
		rounds = 1000;
	if (mkdtemp(dir) == NULL)
		die("mkdtemp");
	snprintf(path, sizeof(path), "%s:%s", argv[2], getenv("PATH") ?
	    getenv("PATH") : "/usr/bin:/bin");
	setenv("PATH", path, 1);
	setenv("HOLD", "5m", 1);
	ar_config_default(&cfg);
	cfg.flags = AR_SIMULATED;
	cfg.nodes = 4;
	cfg.horizon = 86400;
	env[0] = '\0';
	for (int i = 0; i < STORES; i++) {
		snprintf(stores[i], sizeof(stores[i]), "%s/s%d", dir, i);
		if ((rc = ar_create(stores[i], &cfg, T0)) != 0) {
			fprintf(stderr, "test_coalloc: create: %s\n",
			    ar_strerror(rc));
			return 2;
		}
		strcat(env, i ? " " : "");
		strcat(env, stores[i]);
	}
	setenv("STORES", env, 1);
	for (uint64_t r = 0; r < rounds; r++) {
		uint64_t kill_us = rnd(4) ? 1 + rnd(delay_ms * 1000) : 0;

		before = failures;
		now += 90;
		snprintf(start, sizeof(start), "start=@%" PRId64,
		    now + 3600 + (int64_t)rnd(48) * 300);
		snprintf(duration, sizeof(duration), "duration=%ds",
		    1800 * (1 + (int)rnd(2)));
		snprintf(nodes, sizeof(nodes), "nodes=%d", 1 + (int)rnd(2));
		rc = coalloc(argv[1], r, fields, now, kill_us);
		if (rc > 128) {
			kills++;
			/* Its operator runs it again: soon, or late. */
			if (rnd(3) == 0)
				now += HOLD + 60;
			rc = coalloc(argv[1], r, fields, now, 0);
		}
		if (rc != 0 && rc != 1)
			fail("round %" PRIu64 ": the script exited %d", r, rc);
		survey(now, 0, r + 1, &ty);
		for (uint64_t k = 0; k <= r; k++)
			if (ty.confirmed[k] != 0 && ty.confirmed[k] != STORES)
				fail("round %" PRIu64 ": key %" PRIu64 " is "
				    "confirmed on %d stores of %d", r, k,
				    ty.confirmed[k], STORES);
		if (ty.held[r] != 0)
			fail("round %" PRIu64 ": its key is still held on %d "
			    "stores", r, ty.held[r]);
		if ((rc == 0) != (ty.confirmed[r] == STORES))
			fail("round %" PRIu64 ": exit %d, confirmed on %d "
			    "stores", r, rc, ty.confirmed[r]);
		confirmed += rc == 0;
		released += rc == 1;
		passed += failures == before;
	}
	/* A writer past every expiry leaves nothing held. */
	before = failures;
	survey(now + HOLD, 1, rounds, &ty);
	survey(now + HOLD, 0, rounds, &ty);
	for (uint64_t k = 0; k < rounds; k++)
		if (ty.held[k] != 0)
			fail("key %" PRIu64 " held past its expiry", k);
	passed += failures == before;
	printf("%" PRIu64 " rounds, %" PRIu64 " killed and run again, %" PRIu64
	    " confirmed everywhere, %" PRIu64 " released\n", rounds, kills,
	    confirmed, released);
	for (int i = 0; i < STORES; i++)
		rm_store(stores[i]);
	rmdir(dir);
	printf("%" PRIu64 " passed, %" PRIu64 " failed\n", passed,
	    rounds + 1 - passed);
	return failures != 0;
}
