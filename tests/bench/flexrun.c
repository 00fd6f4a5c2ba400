/*
 * flexrun.c - what the in-process replays of the thesis's workloads
 * (flexbench, rmbench) share: a scratch directory for one store at a
 * time, removed at exit and on a signal, and a generator's requests
 * gathered into an array.
 */
#include <getopt.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ar.h"
#include "flex.h"

/* The files a store is made of (lib/store.c), each removed by name:
 * unlink and rmdir are safe in a signal handler, reading a directory is
 * not. */
static const char *const files[] = { "data.mdb", "lock.mdb", "writer.lock" };
#define NFILES (sizeof(files) / sizeof(files[0]))

static const char *prog = "flexrun";
#define ROOT_MAX 4096
static char root[ROOT_MAX], store[ROOT_MAX + 8], path[NFILES][ROOT_MAX + 24];

void
flex_scratch_remove(void)
{
	for (size_t i = 0; i < NFILES; i++)
		unlink(path[i]);
	rmdir(store);
}

static void
cleanup(void)
{
	flex_scratch_remove();
	rmdir(root);
}

static void
on_signal(int sig)
{
	cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

const char *
flex_scratch(const char *name)
{
	const char *tmp = getenv("TMPDIR");

	prog = name;
	/* Under TMPDIR, as mktemp(1) does: make check puts it in memory. */
	if (tmp == NULL || *tmp == '\0')
		tmp = "/tmp";
	if (snprintf(root, sizeof(root), "%s/flexrun-XXXXXX", tmp) >=
	    (int)sizeof(root)) {
		fprintf(stderr, "%s: TMPDIR is too long\n", prog);
		exit(1);
	}
	if (mkdtemp(root) == NULL) {
		fprintf(stderr, "%s: mkdtemp: %s\n", prog, strerror(errno));
		exit(1);
	}
	snprintf(store, sizeof(store), "%s/store", root);
	for (size_t i = 0; i < NFILES; i++)
		snprintf(path[i], sizeof(path[i]), "%s/%s", store, files[i]);
	atexit(cleanup);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGPIPE, on_signal);
	signal(SIGHUP, on_signal);
	return store;
}

void
flex_die(const char *what, int rc)
{
	fprintf(stderr, "%s: %s: %s\n", prog, what, ar_strerror(rc));
	exit(1);
}

size_t
flex_generate(struct flex_gen *g, struct flex_req **rq, size_t *cap)
{
	struct flex_req one, *p;
	size_t n;

	for (n = 0; flex_next(g, &one); n++) {
		if (n == *cap) {
			*cap = *cap ? 2 * *cap : 4096;
			if ((p = realloc(*rq, *cap * sizeof(*p))) == NULL)
				flex_die("generate", ENOMEM);
			*rq = p;
		}
		(*rq)[n] = one;
	}
	return n;
}

/* "lo-hi", or "lo" if they are the same, into buf of 24 bytes. */
static const char *
range(char *buf, int64_t lo, int64_t hi)
{
	if (lo == hi)
		snprintf(buf, 24, "%" PRId64, lo);
	else
		snprintf(buf, 24, "%" PRId64 "-%" PRId64, lo, hi);
	return buf;
}

const char *
flex_describe(char *buf, const struct flex_shape *sh)
{
	char r[5][24];

	snprintf(buf, FLEX_DESCRIBE_MAX, "jobs %s, nodes %s, slots %s, "
	    "book-ahead %s, relax %s", range(r[0], sh->jobs_min, sh->jobs_max),
	    range(r[1], sh->nodes_min, sh->nodes_max),
	    range(r[2], sh->exec_min, sh->exec_max),
	    range(r[3], 0, sh->ahead_max), range(r[4], 1, sh->relax_max));
	return buf;
}

int
flex_options(int argc, char **argv, const char *name, uint64_t least,
    uint64_t most, uint64_t *slots, uint64_t *seed)
{
	static const struct option lo[] = {
		{ "slots", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 }
	};
	char *end;
	int opt;

	while ((opt = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		uint64_t *v = opt == 'n' ? slots : seed;

		if (opt != 'n' && opt != 's') {
			fprintf(stderr, "usage: %s [--slots N] [--seed N]\n",
			    name);
			return -1;
		}
		errno = 0;
		*v = strtoull(optarg, &end, 10);
		if (errno != 0 || end == optarg || *end != '\0' ||
		    (opt == 'n' && (*v < least || *v > most))) {
			fprintf(stderr, "%s: bad value '%s' (--slots: %" PRIu64
			    "-%" PRIu64 ")\n", name, optarg, least, most);
			return -1;
		}
	}
	return 0;
}
