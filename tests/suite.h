/*
 * suite.h - what the unit tests of the library share: a scratch
 * directory for their stores, the time they start at, and the check of a
 * store's invariants.  A test defines SUITE, its short name, and
 * includes check.h before this; its main makes tmproot with mkdtemp.
 * A suite run on PostgreSQL sets pg_uri: its stores are then stores of
 * that database, named after the test and the process.  A suite run
 * with --mem (suite_memory) keeps its stores in memory, mem:SUITE_NAME.
 */
#ifndef AR_TEST_SUITE_H
#define AR_TEST_SUITE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ar.h"
#include "helpers.h"

#define T0 ((int64_t)1795219200)         /* 2026-11-21T00:00:00Z */

static char tmproot[] = "/tmp/ar-" SUITE "-XXXXXX";
static const char *pg_uri;     /* a libpq URI without store=, or NULL */
static int in_memory;          /* the stores are memory stores */

/* A store directory under tmproot, or a store in pg_uri's database;
 * each name gets its own buffer. */
#define store_path(name) store_path_in((char[1024]){ 0 }, (name))

static inline const char *
store_path_in(char *path, const char *name)
{
	if (in_memory)
		snprintf(path, 1024, "mem:%s_%s", SUITE, name);
	else if (pg_uri != NULL)
		snprintf(path, 1024, "%s%cstore=%s_%s_%ld_%u", pg_uri,
		    strchr(pg_uri, '?') != NULL ? '&' : '?', SUITE, name,
		    (long)getpid(), pg_round);
	else
		snprintf(path, 1024, "%s/%s", tmproot, name);
	return path;
}

static inline void
say_violation(const char *msg, void *arg)
{
	(void)arg;
	fprintf(stderr, "violation: %s\n", msg);
}

/* ar_check's violations, told on stderr. */
static inline uint64_t
violations(ar_txn *t)
{
	uint64_t bad = 0;

	OK(ar_check(t, say_violation, NULL, &bad));
	return bad;
}

#define MIN 60
#define HOUR 3600

/* A request of nodes for duration seconds from start, by uid 1000. */
static inline struct ar_request
request(int64_t start, int64_t duration, uint32_t nodes)
{
	struct ar_request rq = { start, start, duration, nodes, 1, 1000,
	    NULL, NULL, 0, NULL, NULL, 0, 0, 0, NULL, NULL, 0, 0, 0, NULL,
	    NULL };

	return rq;
}

/* A store of nodes (named hosts, or NULL; or the hosts a layout
 * describes, with nodes 0) and one day's horizon, simulated: the tests
 * set its clock. */
static inline ar_store *
store_of(const char *name, uint32_t nodes, const char *hosts,
    const char *layout)
{
	struct ar_config cfg;
	ar_store *s = NULL;

	ar_config_default(&cfg);
	cfg.flags = AR_SIMULATED;
	if (nodes != 0)
		cfg.nodes = nodes;
	cfg.horizon = 86400;
	cfg.hosts = hosts;
	cfg.layout = layout;
	OK(ar_create(store_path(name), &cfg, T0));
	OK(ar_open(store_path(name), 0, &s));
	return s;
}

static inline ar_store *
store(const char *name, uint32_t nodes, const char *hosts)
{
	return store_of(name, nodes, hosts, NULL);
}

/* Close and remove the store. */
static inline void
done(ar_store *s, const char *name)
{
	ar_close(s);
	rm_store(store_path(name));
}

/* Was the suite run with --mem?  Then its stores are memory stores. */
static inline int
suite_memory(int argc, char **argv)
{
	in_memory = argc == 2 && strcmp(argv[1], "--mem") == 0;
	return in_memory;
}

/* The start of a test's main: its scratch directory. */
static inline int
suite_begin(void)
{
	if (mkdtemp(tmproot) == NULL) {
		perror("mkdtemp");
		return -1;
	}
	return 0;
}

/* The end: the directory goes, the counts are told; an exit status. */
static inline int
suite_end(void)
{
	rmdir(tmproot);
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}

#endif
